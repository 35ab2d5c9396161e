//===- LdsModel.h - what the pipeline verifier's LDS models cover -*- C++
//-*-===//
//
// The vocabulary the two LDS checks of the pipeline verifier share
// (PipelineHazards.cpp: schedules, R0-R6; LdsHandoffs.cpp: handoffs by
// barrier interval): which ops synchronise the block, which may end threads
// early, and which reach LDS in a way neither model places. Each check
// refuses (R0) what lies outside; none of these predicates ever makes a
// check accept more.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_LDSMODEL_H
#define KDA_PASSES_LDSMODEL_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include <optional>
#include <string>

namespace mlir::kda {

/// Whether `op` is a barrier: a block-wide synchronisation that every
/// thread must reach, whatever the dialect. The known ones are listed
/// (gpu.barrier, kda.barrier, kda.lds_barrier, amdgpu.lds_barrier,
/// nvvm.barrier / barrier0 / barrier.arrive, rocdl's s.barrier and its
/// signal / wait / join forms); any other op whose name holds "barrier" is
/// taken as one too, so an unlisted barrier is checked as a barrier rather
/// than skipped. A warp's sync (nvvm.bar.warp.sync) orders one warp, not
/// the block: it is not one.
bool isBarrier(Operation *op);

/// Whether `t` is a memref in workgroup memory (LDS) as the models place
/// it (GPUDialect::hasWorkgroupMemoryAddressSpace).
bool isWorkgroupMemRefType(Type t);

/// Whether `t` reaches LDS in a way the verifier cannot place or track: a
/// memref in integer address space 3 (LDS on NVPTX and AMDGPU, where the
/// model reads `#gpu.address_space<workgroup>`), an LLVM pointer into
/// address space 3, or a pointer of the ptr dialect.
bool isUntrackedLdsType(Type t);

/// Whether `op` may end its threads early (a thread exit, a trap, an
/// unreachable): threads that leave are ordered by none of the barriers
/// the others meet.
bool endsThreads(Operation *op);

/// Whether `op` is a view that keeps its source's base address: a cast,
/// subview, reinterpret cast or reshape, whose type's layout says where in
/// the source its elements are (memref.view is not one: it starts at a byte
/// shift of its own). The verifier's handoff model and the emulator's LDS
/// watch both follow accesses through these to the array they address.
bool keepsBase(Operation *op);

/// The strides and offset, in elements, of `type`'s layout where all are
/// static (what places a view's elements in the array it keeps the base
/// of); false for a layout with any dynamic part or none strided.
bool staticStridedLayout(MemRefType type, SmallVectorImpl<int64_t> &strides,
                         int64_t &offset);

/// Bytes an element of type `t` takes in an array as LLVM lays it out:
/// integers and floats rounded up to whole bytes (i1 and i4 take one),
/// index 8 (64-bit on every target here), a static vector of them its
/// bits; each padded to the next power of two, its alignment on NVPTX,
/// AMDGPU and the host (i24: 4, vector<3xf32>: 16). nullopt for any other
/// type.
std::optional<int64_t> elementBytes(Type t);

/// Bytes of a statically shaped memref: elementBytes times its elements;
/// nullopt for a dynamic shape, an element without elementBytes, or a
/// product past int64 (2^62 floats are not 0 bytes).
std::optional<int64_t> memrefBytes(MemRefType t);

/// The dynamic LDS a launch of `kernel` reserves: its kda.dynamic_lds_bytes
/// (the manifest's dynamic_lds_bytes), nullopt without it. A negative value
/// or one that is not an integer counts as 0, as the verifier's capacity
/// rule always took it (kda-compile refuses such a kernel).
std::optional<int64_t> reservedDynamicLds(Operation *kernel);

/// The flags of `op` under which its result may be poison, named for a
/// message ("overflow flags (nsw, nuw)", "the exact flag"), or nullopt.
/// LLVM folds a poison result any way it likes: `(x divui exact 4) * 4`
/// becomes x, a test on a wrapped `nsw` sum false. So the verifier's models
/// neither evaluate such an op nor take the range its inference rules give
/// (which assume the flag holds).
std::optional<StringRef> poisonFlags(Operation *op);

/// Whether `op` is a division or remainder whose operands, in `args`,
/// may make it undefined: a divisor that may be 0, or (signed) the smallest
/// value divided by -1. arith leaves those undefined and LLVM folds them any
/// way it likes (urem by a zero divisor is poison; the emulator traps), while
/// the range rules assume they do not happen: remui(x, umin(bid, 256)) was
/// ranged [0, 255] in block 0. Such a result gets no range; so does an
/// arith.ceildivsi whose numerator may be the smallest value, which MLIR's
/// rule ranges with the wrong sign.
bool mayBeUndefinedDivision(Operation *op, ArrayRef<ConstantIntRanges> args);

/// Whether an scf.for counter of `width` bits (`isUnsigned`: an unsigned
/// loop) steps from its last trip `last` by `step` past its type's largest
/// value: scf.for's increment has no overflow flag, so the counter wraps
/// and the lowered loop runs on past its bound. `last` and `step` in 128
/// bits, where no sum of two 64-bit values overflows. The schedule
/// interpreter refuses such a loop and its body ranges do not bound its
/// counter; the read-body check does not enumerate it trip by trip (a
/// narrow one, an i8, is enumerated over every value of its type).
bool steppedPastMax(const APInt &last, const APInt &step, unsigned width,
                    bool isUnsigned);

/// Bits of an integer or index value's ranges (index: MLIR's range rules'
/// IndexType::kInternalStorageBitWidth).
unsigned rangeWidth(Value v);

/// The signed range of `v` by its op's rules, `rangeOf` giving its
/// operands' ranges: a select of a comparison of one of its operands
/// narrowed per side, any other op by its InferIntRangeInterface. No
/// bound (the full range of `v`'s width) for a block argument, an op
/// without the interface, one whose flags may make it poison
/// (poisonFlags), the affine dialect's, the chips' own id registers (nvvm,
/// rocdl, whose `range` annotations are the kernel's say-so) and a
/// division that may be undefined (mayBeUndefinedDivision). Both pipeline
/// checks bound values through it, each with its own leaves.
ConstantIntRanges
rangeByRules(Value v, llvm::function_ref<ConstantIntRanges(Value)> rangeOf);

/// Why `op` lies outside what the verifier's LDS models interpret (it may
/// end threads early, or reach LDS in a way they cannot place), or nullopt.
std::optional<std::string> outsideLdsModel(Operation *op);

} // namespace mlir::kda

#endif // KDA_PASSES_LDSMODEL_H
