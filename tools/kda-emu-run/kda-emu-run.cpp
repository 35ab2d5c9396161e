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

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <string>

/// `text` as a whole unsigned number in [lo, hi], else nothing.
static bool parseNumber(const char *text, unsigned long lo, unsigned long hi,
                        uint32_t &out) {
  if (!text || !*text || *text == '-')
    return false;
  char *end = nullptr;
  errno = 0;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return false;
  out = uint32_t(v);
  return true;
}

static int badValue(const char *flag, const char *value, const char *what) {
  std::fprintf(stderr, "kda-emu-run: %s %s: %s\n", flag,
               value ? value : "(missing)", what);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: kda-emu-run KERNEL.so SYMBOL [--block N] "
                         "[--grid X,Y,Z] [--wave 32|64] "
                         "[--dynamic-lds BYTES]\n");
    return 2;
  }
  kda::emu::LaunchConfig config;
  for (int i = 3; i < argc; i += 2) {
    std::string flag = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (flag == "--block") {
      if (!parseNumber(value, 1, 1024, config.block[0]))
        return badValue("--block", value, "threads must be 1 .. 1024");
    } else if (flag == "--dynamic-lds") { // what the kernel was built for
      if (!parseNumber(value, 0, 1u << 30, config.dynamicLdsBytes))
        return badValue("--dynamic-lds", value, "bytes must be 0 .. 2^30");
    } else if (flag == "--wave") {
      if (!parseNumber(value, 32, 64, config.waveSize) ||
          (config.waveSize != 32 && config.waveSize != 64))
        return badValue("--wave", value, "must be 32 or 64");
    } else if (flag == "--grid") {
      std::string text = value ? value : "";
      uint32_t dims[3];
      size_t at = 0;
      bool ok = true;
      for (int d = 0; d < 3 && ok; ++d) {
        const size_t comma = d < 2 ? text.find(',', at) : text.size();
        ok =
            comma != std::string::npos &&
            parseNumber(text.substr(at, comma - at).c_str(), 1, 65535, dims[d]);
        at = comma + 1;
      }
      if (!ok)
        return badValue("--grid", value, "must be X,Y,Z with each 1 .. 65535");
      std::memcpy(config.grid, dims, sizeof dims);
    } else {
      std::fprintf(stderr, "kda-emu-run: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "kda-emu-run: %s\n", dlerror());
    return 2;
  }
  // The symbol must be the kernel library's own: dlsym also finds its
  // dependencies' (libc's abort).
  void *sym = dlsym(lib, argv[2]);
  Dl_info info{};
  struct link_map *map = nullptr;
  if (!sym || !dladdr(sym, &info) || dlinfo(lib, RTLD_DI_LINKMAP, &map) ||
      !map || !info.dli_fname || std::strcmp(info.dli_fname, map->l_name)) {
    std::fprintf(stderr, "kda-emu-run: no symbol %s in %s\n", argv[2], argv[1]);
    return 2;
  }
  // A packed entry of kda-emu-entry, taking no arguments: this tool passes
  // none, and a kernel that takes some reads them from a null array.
  const std::string countName = std::string(argv[2]) + "_args";
  auto *count = static_cast<const int32_t *>(dlsym(lib, countName.c_str()));
  Dl_info countInfo{};
  if (!count || !dladdr(count, &countInfo) || !countInfo.dli_fname ||
      std::strcmp(countInfo.dli_fname, map->l_name)) {
    std::fprintf(stderr,
                 "kda-emu-run: %s in %s is not a packed emulator entry (no "
                 "%s beside it: name a kernel's <name>_packed)\n",
                 argv[2], argv[1], countName.c_str());
    return 2;
  }
  if (*count != 0) {
    std::fprintf(stderr,
                 "kda-emu-run: %s takes %d argument(s); this tool launches "
                 "kernels without arguments (use the runtime, e.g. "
                 "kda-bench, for a bundle's kernels)\n",
                 argv[2], int(*count));
    return 2;
  }
  auto entry = reinterpret_cast<kda::emu::PackedEntry>(sym);
  std::string error = kda::emu::launch(entry, config, nullptr);
  if (!error.empty()) {
    std::printf("%s\n", error.c_str());
    return 1;
  }
  std::printf("race-free: %u x %u x %u blocks of %u threads\n", config.grid[0],
              config.grid[1], config.grid[2], config.block[0]);
  return 0;
}
