//===- EmuBackend.cpp - host objects of the emu target --------------------===//
#include "Backend.h"
#include "Manifest.h"

#ifdef KDA_RUNTIME_HAS_EMU
#include "../emu/Emulator.h"
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fstream>
#include <link.h>
#include <map>
#include <mutex>
#include <unistd.h>
#endif

namespace kda::rt {

#ifdef KDA_RUNTIME_HAS_EMU
namespace {
/// Whether `file` is a whole 64-bit ELF object: its program headers and
/// every loaded segment lie inside the file. dlopen maps the segments
/// without that check, and a truncated object's first touch past its end
/// is a SIGBUS in the loader, not an error.
bool wholeElf(const std::string &file, std::string &error) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) {
    error = "cannot read " + file;
    return false;
  }
  const uint64_t size = uint64_t(in.tellg());
  Elf64_Ehdr eh;
  in.seekg(0);
  if (size < sizeof(eh) ||
      !in.read(reinterpret_cast<char *>(&eh), sizeof(eh)) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr)) {
    error = file + " is not a 64-bit ELF object";
    return false;
  }
  if (eh.e_phoff > size ||
      eh.e_phnum > (size - eh.e_phoff) / sizeof(Elf64_Phdr)) {
    error = file + " is truncated: its program headers pass its end";
    return false;
  }
  in.seekg(std::streamoff(eh.e_phoff));
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!in.read(reinterpret_cast<char *>(&ph), sizeof(ph))) {
      error = "cannot read " + file;
      return false;
    }
    if (ph.p_type == PT_LOAD &&
        (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)) {
      error = file + " is truncated: segment " + std::to_string(i) +
              " ends at byte " + std::to_string(ph.p_offset + ph.p_filesz) +
              " of a " + std::to_string(size) + "-byte file";
      return false;
    }
  }
  return true;
}

/// A private copy of `image` (the bytes of `file`) in the temporary
/// folder, at `copy` (named for the caller to remove): false with `error`
/// where it cannot be made.
bool privateCopy(const std::string &file, const std::string &image,
                 std::string &copy, std::string &error) {
  const char *tmp = std::getenv("TMPDIR");
  std::string name =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/kda-emu-XXXXXX.so";
  const int fd = mkstemps(name.data(), 3);
  if (fd < 0) {
    error =
        "cannot make a copy of " + file + " to load: " + std::strerror(errno);
    return false;
  }
  copy = name;
  bool ok = true;
  for (size_t off = 0; ok && off < image.size();) {
    const ssize_t w = ::write(fd, image.data() + off, image.size() - off);
    ok = w > 0 || (w < 0 && errno == EINTR);
    off += w > 0 ? size_t(w) : 0;
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok)
    error = "cannot copy " + file + " to " + copy + " to load it";
  return ok;
}

class EmuBackend : public Backend {
public:
  kda_backend kind() const override { return KDA_BACKEND_EMU; }
  /// The emulator targets: emu (gfx942's atoms), emu950 (gfx950's), both
  /// wave 64, and emu32 (sm_90's, wave 32); the runtime's one list of
  /// targets says which.
  bool runs(const std::string &target) const override {
    return kda::manifest::isEmulatorTarget(target);
  }

  bool start(std::string &error) {
    // Kernel objects call kda_emu_*, defined in this library: make its
    // symbols global even when the runtime itself was loaded RTLD_LOCAL.
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&kda_emu_id), &info) &&
        info.dli_fname)
      self = dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    (void)error;
    return true;
  }

  kda_status load(const std::string &file, const std::string &image,
                  const std::string &symbol, uint32_t dynamicLdsBytes,
                  KernelHandle &out, std::string &error) override {
    (void)dynamicLdsBytes; // the emulator allocates it per launch
    void *&lib = libs[file];
    if (!lib) {
      // dlopen of a path already loaded (by another open bundle, whose
      // file has since been rewritten) hands back that library, not the
      // file: each bundle loads a copy of its own, checked whole.
      std::string copy;
      if (!privateCopy(file, image, copy, error) || !wholeElf(copy, error)) {
        // The messages name the bundle's file, not the copy.
        for (size_t at;
             !copy.empty() && (at = error.find(copy)) != std::string::npos;)
          error.replace(at, copy.size(), file);
        if (!copy.empty())
          std::remove(copy.c_str());
        libs.erase(file);
        return KDA_ERROR_BAD_BUNDLE;
      }
      lib = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
      const char *why = lib ? nullptr : dlerror();
      std::remove(copy.c_str()); // mapped (or failed): the name can go
      if (!lib) {
        libs.erase(file);
        error = "dlopen of " + file + ": " + (why ? why : "failed");
        return KDA_ERROR_BACKEND;
      }
    }
    out = dlsym(lib, symbol.c_str());
    if (!out) {
      error = "no symbol " + symbol + " in " + file;
      return KDA_ERROR_NOT_FOUND;
    }
    // dlsym searches the object's dependencies too: a kernel symbol must be
    // the object's own ("abort" resolves in libc and would be launched).
    Dl_info info{};
    link_map *map = nullptr;
    if (!dladdr(out, &info) || !info.dli_fname ||
        dlinfo(lib, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name ||
        std::strcmp(info.dli_fname, map->l_name) != 0) {
      error = "symbol " + symbol + " is not defined in " + file +
              (info.dli_fname
                   ? std::string(" (it resolves in ") + info.dli_fname + ")"
                   : std::string());
      out = nullptr;
      return KDA_ERROR_NOT_FOUND;
    }
    return KDA_OK;
  }

  /// The emulator has no compute units of its own; it reports the H200's
  /// 132 SMs (the measured device, so a batch picks on the emulator the
  /// scan it picks there), or KDA_EMU_COMPUTE_UNITS, read at each call so
  /// tests can steer the choice. A value that is not a whole number from 1
  /// to 65535 is not used: the default stands, and stderr says so once.
  uint32_t computeUnits() override {
    const char *units = std::getenv("KDA_EMU_COMPUTE_UNITS");
    if (!units)
      return 132;
    // Digits only: strtoul alone would take a sign or leading blanks.
    char *end = nullptr;
    errno = 0;
    unsigned long n = std::strtoul(units, &end, 10);
    if (std::isdigit(static_cast<unsigned char>(units[0])) && errno == 0 &&
        *end == '\0' && n >= 1 && n <= 65535)
      return uint32_t(n);
    static std::atomic<bool> told{false};
    if (!told.exchange(true))
      std::fprintf(stderr,
                   "kda: KDA_EMU_COMPUTE_UNITS='%s' is not a whole number "
                   "from 1 to 65535; the emulator reports 132\n",
                   units);
    return 132;
  }

  /// One workgroup a unit: what the H200 holds of every chunk scan, maps
  /// and segments kernel (their registers), so that, with its 132 units,
  /// a batch picks on the emulator what it picks there.
  uint32_t residentWorkgroups(KernelHandle, uint32_t, uint32_t) override {
    return 1;
  }

  kda_status launch(KernelHandle kernel, const LaunchDims &d, void *,
                    void **params, std::string &error) override {
    emu::LaunchConfig c;
    for (int i = 0; i < 3; ++i)
      c.grid[i] = d.grid[i], c.block[i] = d.block[i];
    c.waveSize = d.waveSize;
    c.dynamicLdsBytes = d.dynamicLdsBytes;
    const char *race = std::getenv("KDA_EMU_RACECHECK");
    c.raceCheck = !(race && std::string(race) == "0");
    // A static LDS array is one global of the loaded object, shared by
    // every launch of it: launches from several threads take turns (a
    // GPU gives each workgroup its own; two bundles load two objects).
    std::lock_guard<std::mutex> turn(launching);
    error = emu::launch(reinterpret_cast<emu::PackedEntry>(kernel), c, params);
    return error.empty() ? KDA_OK : KDA_ERROR_BACKEND;
  }

  /// A bundle's code objects close with it. Left open, a bundle rewritten
  /// at the same path and opened again in this process ran the old objects:
  /// dlopen hands back a library still loaded rather than reading the file.
  ~EmuBackend() override {
    for (auto &entry : libs)
      dlclose(entry.second);
    if (self)
      dlclose(self);
  }

private:
  void *self = nullptr;
  std::map<std::string, void *> libs;
  std::mutex launching;
};
} // namespace

std::unique_ptr<Backend> makeEmuBackend(std::string &error) {
  auto b = std::make_unique<EmuBackend>();
  if (!b->start(error))
    return nullptr;
  return b;
}
#else
std::unique_ptr<Backend> makeEmuBackend(std::string &error) {
  error = "this runtime was built without the emulator (Boost.Context)";
  return nullptr;
}
#endif

} // namespace kda::rt
