//===- ThreadUniformity.h - values the same for every thread ----*- C++ -*-===//
//
// Which values of a kernel are provably the same for every thread of its
// block: what the pipeline verifier needs wherever a branch or a loop
// decides who reaches a barrier or issues a copy (LdsHandoffs.cpp,
// PipelineHazards.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_THREADUNIFORMITY_H
#define KDA_PASSES_THREADUNIFORMITY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::kda {

/// Whether a value has one value for every thread of the block:
/// constants, block and grid ids and sizes, the function's arguments and
/// attributions, the dynamic LDS and views of such memrefs at such
/// offsets, integer and index arithmetic of such values, induction
/// variables of scf.for loops with such bounds, and loads at such indices
/// of function arguments no op of the function writes through. Anything
/// else (thread and lane ids, LDS loads, other block arguments, calls) is
/// taken as varying.
class ThreadUniformity {
public:
  explicit ThreadUniformity(FunctionOpInterface fn);
  bool uniform(Value v, unsigned depth = 0);
  /// Takes `v` as the same for every thread (a value the caller's model
  /// gives every thread alike: a schedule body's iteration and slot).
  void assumeUniform(Value v) { memo[v] = true; }
  /// Whether `load` (a memref.load or vector.load) reads, through views, a
  /// function argument no op of the function writes: it reads the same
  /// value whenever its indices are the same (the launch contract below,
  /// in uniformOf), on every trip of a loop around it.
  bool readsUnwrittenArgument(Operation *load);

private:
  bool uniformOf(Value v, unsigned depth);
  FunctionOpInterface fn;
  /// Function arguments some op writes through (a load of one may see
  /// another thread's store).
  llvm::SmallPtrSet<void *, 8> writtenArgs;
  llvm::DenseMap<Value, bool> memo;
};

} // namespace mlir::kda

#endif // KDA_PASSES_THREADUNIFORMITY_H
