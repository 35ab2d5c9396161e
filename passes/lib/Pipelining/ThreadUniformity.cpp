//===- ThreadUniformity.cpp - values the same for every thread ------------===//
#include "kda/Passes/ThreadUniformity.h"
#include "kda/Dialect/KDA/KDAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::kda;

/// Whether `op` lets a memref's address out as something else (a pointer,
/// an integer): what is written through that is not seen as a write of the
/// memref.
static bool escapesAddress(Operation *op) {
  if (llvm::none_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>))
    return false;
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) {
                        return !isa<MemRefType>(t) &&
                               !t.isIntOrIndexOrFloat() && !isa<VectorType>(t);
                      }) ||
         isa<memref::ExtractAlignedPointerAsIndexOp>(op);
}

ThreadUniformity::ThreadUniformity(FunctionOpInterface fn) : fn(fn) {
  // The memref a view-like chain starts from: an argument, memory of the
  // kernel's own, or another op's result.
  auto baseArg = [&](Value m) -> Value {
    while (Operation *d = m.getDefiningOp()) {
      if (!isa<ViewLikeOpInterface>(d))
        return m;
      m = d->getOperand(0);
    }
    return m;
  };
  // Memory of the kernel's own (allocations, globals, workgroup and
  // private attributions, dynamic LDS): no argument is reached through it.
  auto ownMemory = [&](Value m) {
    if (auto arg = dyn_cast<BlockArgument>(m))
      return arg.getOwner() == &fn.getFunctionBody().front() &&
             arg.getArgNumber() >= fn.getNumArguments();
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp,
                           memref::GetGlobalOp, gpu::DynamicSharedMemoryOp>(
        m.getDefiningOp());
  };
  bool unknownWrite = false;
  fn->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      bool writes = !effects || effects.hasEffect<MemoryEffects::Write>() ||
                    escapesAddress(op);
      if (!writes)
        continue;
      Value base = baseArg(operand);
      // A write through a memref whose argument is not traced (an
      // arith.select of two, a region's result) may reach any of them.
      if (auto arg = dyn_cast_or_null<BlockArgument>(base);
          arg && arg.getOwner() == &fn.getFunctionBody().front() &&
          arg.getArgNumber() < fn.getNumArguments())
        writtenArgs.insert(base.getAsOpaquePointer());
      else if (!ownMemory(base))
        unknownWrite = true;
    }
  });
  if (unknownWrite)
    for (BlockArgument arg : fn.getArguments())
      writtenArgs.insert(Value(arg).getAsOpaquePointer());
}

bool ThreadUniformity::uniform(Value v, unsigned depth) {
  if (depth > 64)
    return false;
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  bool u = uniformOf(v, depth);
  memo[v] = u;
  return u;
}

bool ThreadUniformity::uniformOf(Value v, unsigned depth) {
  auto all = [&](ValueRange xs) {
    return llvm::all_of(xs, [&](Value x) { return uniform(x, depth + 1); });
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == fn.getOperation())
      return arg.getOwner() == &fn.getFunctionBody().front();
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      return arg == loop.getInductionVar() &&
             all({loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
    return false;
  }
  Operation *op = v.getDefiningOp();
  if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
          gpu::DynamicSharedMemoryOp>(op))
    return true;
  // A view of one memref at one offset names the same bytes for all.
  if (isa<memref::ReinterpretCastOp, memref::CastOp, memref::ViewOp,
          memref::SubViewOp>(op))
    return all(op->getOperands());
  // A load of a kernel argument the kernel never writes: the same bytes for
  // every thread. This rests on the launch contract that an argument the
  // kernel writes overlaps no other (the runtime refuses every launch whose
  // tensors overlap one the kernel writes: overlappingWrite in
  // runtime/lib/Runtime.cpp): through an alias, one thread's write could
  // change what another loads.
  // Every view on the way at offsets alike for every thread, and the
  // indices alike.
  if (isa<memref::LoadOp, vector::LoadOp>(op)) {
    if (!readsUnwrittenArgument(op))
      return false;
    for (Operation *d = op->getOperand(0).getDefiningOp(); d;
         d = d->getOperand(0).getDefiningOp())
      if (!all(d->getOperands().drop_front()))
        return false;
    return all(op->getOperands().drop_front());
  }
  // A ring's slot is its iteration modulo the ring's slots.
  if (isa<RingSlotOp>(op))
    return all(op->getOperands());
  if (!isa<arith::ArithDialect>(op->getDialect()))
    return false;
  return isMemoryEffectFree(op) && all(op->getOperands());
}

bool ThreadUniformity::readsUnwrittenArgument(Operation *load) {
  if (!isa<memref::LoadOp, vector::LoadOp>(load))
    return false;
  Value mem = load->getOperand(0);
  while (Operation *d = mem.getDefiningOp()) {
    if (!isa<memref::ReinterpretCastOp, memref::CastOp, memref::ViewOp,
             memref::SubViewOp>(d))
      return false;
    mem = d->getOperand(0);
  }
  auto arg = dyn_cast<BlockArgument>(mem);
  return arg && arg.getOwner()->getParentOp() == fn.getOperation() &&
         arg.getArgNumber() < fn.getNumArguments() &&
         !writtenArgs.contains(mem.getAsOpaquePointer());
}
