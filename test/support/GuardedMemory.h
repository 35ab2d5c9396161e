//===- GuardedMemory.h - host buffers fenced by PROT_NONE pages -*- C++ -*-===//
//
// The emulators run kernels on host memory, where a read past a buffer's end
// returns whatever lies there and a test passes anyway. Buffers from
// guardedAlloc end flush against an inaccessible page (16-byte aligned, as
// the runtime requires), so such an access faults where it happens; the
// handler says which buffer it overran.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TEST_GUARDEDMEMORY_H
#define KDA_TEST_GUARDEDMEMORY_H

#include <cstddef>

namespace kda::test {

/// `bytes` of zeroed host memory ending (up to its 16-byte round-up) at a
/// PROT_NONE page, with another one below its first page. Zero bytes give a
/// valid pointer at the guard page itself. `guardAfter` widens the guard
/// past the end to at least that many bytes (whole pages): a kernel told the
/// buffer is longer than it is then faults on its first access past the end
/// wherever in the claimed bytes it lands, not only in the first page.
/// Throws std::bad_alloc.
void *guardedAlloc(size_t bytes, size_t guardAfter = 0);

/// Unmaps a guardedAlloc buffer. The round-up bytes past its size hold a
/// canary; a write that changed them aborts here, naming the buffer.
void guardedRelease(void *p);

} // namespace kda::test

#endif // KDA_TEST_GUARDEDMEMORY_H
