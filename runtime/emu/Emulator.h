//===- Emulator.h - SIMT emulator for host-compiled kernels -----*- C++ -*-===//
//
// Runs kernels of the `emu` target: each workgroup's threads are fibers
// (Boost.Context), switched at every barrier and cross-lane shuffle. The
// kernel objects call back through the C symbols kda_emu_* below, with the
// calling fiber's context as first argument.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_EMU_EMULATOR_H
#define KDA_RUNTIME_EMU_EMULATOR_H

#include <cstdint>
#include <string>

namespace kda::emu {

struct LaunchConfig {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t waveSize = 64; // of the target the emulator stands for
  /// Bytes of dynamic shared memory per workgroup (the manifest's
  /// dynamic_lds_bytes), behind gpu.dynamic_shared_memory.
  uint32_t dynamicLdsBytes = 0;
  /// Shadow every LDS byte the kernel's pipeline atoms touch and report the
  /// first race (on unless KDA_EMU_RACECHECK=0).
  bool raceCheck = true;
};

/// `<kernel>_packed(ctx, params)` as kda-emu-entry emits it.
using PackedEntry = void (*)(void *ctx, void **params);

/// Runs the whole grid; returns "" or what went wrong (divergent
/// synchronisation, bad configuration).
std::string launch(PackedEntry entry, const LaunchConfig &config,
                   void **params);

} // namespace kda::emu

extern "C" {
// Ids: 0-2 thread x/y/z, 3-5 block, 6-8 block dim, 9-11 grid dim, 12 lane,
// 13 subgroup id, 14 subgroup size (kda-gpu-to-emu's numbering).
int64_t kda_emu_id(void *ctx, int32_t which);
void kda_emu_barrier(void *ctx);
// mode: 0 xor, 1 up, 2 down, 3 idx; a source lane outside `width` yields the
// caller's own value.
float kda_emu_shuffle_f32(void *ctx, float value, int32_t offset,
                          int32_t width, int32_t mode);
int32_t kda_emu_shuffle_i32(void *ctx, int32_t value, int32_t offset,
                            int32_t width, int32_t mode);

// LDS atoms of expanded pipelines (kda.schedule). A copy of [lo, lo + bytes)
// is shared by the workgroup's threads (each writes its chunk); a read reads
// the whole range. `tag` is the pipeline iteration and `buffer` the name of
// the kda.lds_buffer: every LDS word keeps the buffer and iteration of its
// last write, and a read checks them against the tile it names (a wrong
// tile, or another buffer's write over shared bytes, is reported).
// [ringLo, ringLo + ringBytes) is the buffer's ring (all its slots): a slot
// outside it fails the launch (always, the race detector on or off).
void kda_emu_lds_write(void *ctx, int64_t lo, int64_t bytes, int64_t tag,
                       const char *buffer, int64_t ringLo, int64_t ringBytes);
void kda_emu_lds_read(void *ctx, int64_t lo, int64_t bytes, int64_t tag,
                      const char *buffer, int64_t ringLo, int64_t ringBytes);
void kda_emu_async_copy(void *ctx, int64_t lo, int64_t bytes, int64_t tag,
                        bool enabled, const char *buffer, int64_t ringLo,
                        int64_t ringBytes);
// A copy row's destination, [lo, lo + bytes) in LDS bytes (padded to whole
// wave regions for global_load_lds), checked before its atoms run: it must
// lie in the array the row indexes, [arrayLo, arrayLo + arrayBytes), and in
// the slot its copy names, [slotLo, slotLo + slotBytes) of ring `buffer`
// (null: a row outside any pipeline copy, checked against its array only).
// The race detector tags words by the copy's slot, so a row written outside
// it would go unseen there; this is where it fails the launch.
void kda_emu_copy_row(void *ctx, int64_t lo, int64_t bytes, int64_t arrayLo,
                      int64_t arrayBytes, int64_t slotLo, int64_t slotBytes,
                      const char *buffer);
void kda_emu_async_wait(void *ctx, int64_t outstanding);
void kda_emu_lds_drain(void *ctx);
// The kernel writes LDS through an access the lowering does not watch (a
// permuted transfer, a scatter, a cast of run-time layout, ...): the bytes
// it writes are not known, so reads of bytes nothing wrote are not
// reported for the block (every thread calls it at entry).
void kda_emu_lds_unwatched_writes(void *ctx);
// Copy atoms with their chip's data semantics. Addresses are host pointers.
// cp.async (sm_90): `bytes` from src, landing at the kda_emu_async_wait that
// covers the group the next kda_emu_async_copy commits.
void kda_emu_cp_async(void *ctx, int64_t dst, int64_t src, int64_t bytes);
// global_load_lds_dwordx4 (gfx950): this lane's 16 bytes from src into
// ldsBase + 16 x lane; ldsBase must be the same for the whole wave; lands at
// the kda_emu_vmcnt_wait that leaves fewer instructions outstanding.
void kda_emu_global_load_lds(void *ctx, int64_t ldsBase, int64_t src);
// s_waitcnt vmcnt(outstanding): all but the newest `outstanding` of this
// thread's global_load_lds instructions have landed.
void kda_emu_vmcnt_wait(void *ctx, int64_t outstanding);
// Plain LDS loads and stores of one thread (workgroup memory a kernel indexes
// directly, outside pipeline schedules), [lo, lo + bytes) in LDS bytes, of
// the array at [arrayLo, arrayLo + arrayBytes): an access outside it fails
// the launch (always, the race detector on or off).
void kda_emu_lds_load(void *ctx, int64_t lo, int64_t bytes, int64_t arrayLo,
                      int64_t arrayBytes);
void kda_emu_lds_store(void *ctx, int64_t lo, int64_t bytes, int64_t arrayLo,
                       int64_t arrayBytes);
// An atomic read-modify-write of LDS (memref.atomic_rmw): checked like a
// store, and racing other threads' plain accesses of its bytes in one
// barrier epoch, not their atomics.
void kda_emu_lds_atomic(void *ctx, int64_t lo, int64_t bytes, int64_t arrayLo,
                        int64_t arrayBytes);

// Matrix atoms (kda.mma), wave-collective: every lane of the wave passes its
// fragments of A (m x k), B (k x n), C (m x n) as f32 values with their
// (row, col) pairs in the tile; together they must give every tile element
// exactly once. Each lane gets D = A B + C (f32) at its C coordinates.
void kda_emu_mma(void *ctx, int32_t m, int32_t n, int32_t k, const float *a,
                 const int32_t *aAt, int32_t aElems, const float *b,
                 const int32_t *bAt, int32_t bElems, const float *c,
                 const int32_t *cAt, int32_t cElems, float *d);
// Warpgroup atoms (kda.wgmma), wave-collective: each lane of a 32-lane wave
// in a warpgroup (4 waves, 128 threads) passes its fragments of A (64 x 16)
// and C (64 x n) with their (row, col) pairs, its wave's 16 rows; B (16 x n)
// is read from `b` (in the dynamic LDS region) by the canonical K-major
// placement, or MN-major where `mnMajor` is non-zero, with core matrices
// `lbo` / `sbo` bytes apart along k / n. D = A B + C at
// the lane's C coordinates. The B bytes must stay unchanged until the
// kda_emu_wgmma_wait covering the atom's commit group.
void kda_emu_wgmma(void *ctx, int32_t n, const float *a, const int32_t *aAt,
                   int32_t aElems, const uint8_t *b, int64_t lbo, int64_t sbo,
                   int32_t mnMajor, const float *c, const int32_t *cAt,
                   int32_t cElems, float *d);
void kda_emu_wgmma_commit(void *ctx);
void kda_emu_wgmma_wait(void *ctx, int64_t pending);
// The running workgroup's dynamic LDS region; `bytes` is what the kernel
// uses (an error when the launch gave less).
void *kda_emu_dynamic_lds(void *ctx, int64_t bytes);
}

#endif // KDA_RUNTIME_EMU_EMULATOR_H
