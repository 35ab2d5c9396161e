//===- kda-emu-run.cpp - run one emulator kernel, race detector on --------===//
//
//   kda-emu-run KERNEL.so SYMBOL [--block N] [--grid X,Y,Z] [--wave 32|64]
//               [--dynamic-lds BYTES]
//
// Launches a packed emulator entry that takes no arguments (the pipeline
// schedules of test/lit/Pipelines) and prints "race-free" or the first LDS
// race the emulator's detector saw (exit 1). For kernels with arguments, use
// the runtime (kda-bench --backend emu).
//
//===----------------------------------------------------------------------===//
#include "../../runtime/emu/Emulator.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: kda-emu-run KERNEL.so SYMBOL [--block N] "
                         "[--grid X,Y,Z] [--wave 32|64] "
                         "[--dynamic-lds BYTES]\n");
    return 2;
  }
  kda::emu::LaunchConfig config;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--block")
      config.block[0] = uint32_t(std::atoi(argv[i + 1]));
    else if (flag == "--dynamic-lds") // what the kernel was built for
      config.dynamicLdsBytes = uint32_t(std::atoi(argv[i + 1]));
    else if (flag == "--wave")
      config.waveSize = uint32_t(std::atoi(argv[i + 1]));
    else if (flag == "--grid")
      std::sscanf(argv[i + 1], "%u,%u,%u", &config.grid[0], &config.grid[1],
                  &config.grid[2]);
    else {
      std::fprintf(stderr, "kda-emu-run: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "kda-emu-run: %s\n", dlerror());
    return 2;
  }
  auto entry = reinterpret_cast<kda::emu::PackedEntry>(dlsym(lib, argv[2]));
  if (!entry) {
    std::fprintf(stderr, "kda-emu-run: no symbol %s in %s\n", argv[2], argv[1]);
    return 2;
  }
  std::string error = kda::emu::launch(entry, config, nullptr);
  if (!error.empty()) {
    std::printf("%s\n", error.c_str());
    return 1;
  }
  std::printf("race-free: %u x %u x %u blocks of %u threads\n", config.grid[0],
              config.grid[1], config.grid[2], config.block[0]);
  return 0;
}
