//===- MmaToEmu.cpp - matrix atoms and dynamic LDS on the emulator --------===//
//
// kda.mma becomes kda_emu_mma(ctx, m, n, k, A, A_at, nA, B, B_at, nB, C,
// C_at, nC, D): each lane passes its fragment elements (widened to f32) and
// each element's (row, col) in the operand tile, computed here from the same
// atom layout the kernel builder and the hardware use. The emulator gathers
// the wave's fragments, checks every tile element is given exactly once,
// computes D = A B + C in f32 and writes each lane's D elements at its C
// coordinates. The buffers are stack slots of the kernel's entry block (a
// slot per kda.mma, so loops do not grow the fiber's stack).
//
// kda.wgmma becomes kda_emu_wgmma(ctx, n, A, A_at, nA, B, lbo, sbo, mn, C,
// C_at, nC, D), a lane's A and C fragments by the warpgroup atom's layout (its
// place in the group: thread id mod 128) and B's start; kda.wgmma_commit
// and kda.wgmma_wait become calls that keep the flights' books.
//
// gpu.dynamic_shared_memory becomes kda_emu_dynamic_lds(ctx, bytes), the
// running workgroup's dynamic LDS region, wrapped in a memref descriptor.
//
//===----------------------------------------------------------------------===//
#include "ScheduleLowering.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"
#include "kda/Passes/TileLayer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

/// The private declaration of C function `name` in the module of `fn`.
func::FuncOp declareInModule(Operation *fn, StringRef name,
                             FunctionType type) {
  auto module = fn->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder b(module.getContext());
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

/// A raw pointer to the first element of `memref` (an emulator buffer), or
/// `byteOffset` bytes after it.
Value pointerTo(OpBuilder &b, Location loc, Value memref,
                Value byteOffset = {}) {
  Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  if (byteOffset)
    idx = arith::AddIOp::create(b, loc, idx, byteOffset);
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), idx);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(
                                              b.getContext()),
                                  i64);
}

/// One operand of the call: the lane's values (f32) and their (row, col)
/// pairs, written into entry-block slots before the call.
struct OperandBuffers {
  Value values, coords;
  unsigned elems;
};

/// Replaces `op`'s one result by the `elems` f32 the emulator wrote into
/// slot `d`, and erases it.
void replaceWithSlot(OpBuilder &b, Location loc, Operation *op, Value d,
                     unsigned elems) {
  SmallVector<Value> out;
  for (unsigned e = 0; e < elems; ++e)
    out.push_back(memref::LoadOp::create(
        b, loc, d, ValueRange{arith::ConstantIndexOp::create(b, loc, e)}));
  op->getResult(0).replaceAllUsesWith(
      vector::FromElementsOp::create(b, loc, op->getResult(0).getType(), out));
  op->erase();
}

class MmaEmuLowering {
public:
  MmaEmuLowering(Operation *fn, Value emuCtx) : fn(fn), emuCtx(emuCtx) {}

  LogicalResult lower(MmaOp op, const MmaAtom &atom);
  /// kda.wgmma: each lane's A and C with coordinates from its thread's
  /// place in the warpgroup (thread id mod 128).
  LogicalResult lower(WgmmaOp op, const MmaAtom &atom);

private:
  /// A stack slot in the entry block, after the slots made before it.
  Value slot(OpBuilder &b, Location loc, unsigned n, Type elem) {
    OpBuilder::InsertionGuard g(b);
    if (lastSlot)
      b.setInsertionPointAfter(lastSlot);
    else
      b.setInsertionPointToStart(&fn->getRegion(0).front());
    auto alloca = memref::AllocaOp::create(b, loc, MemRefType::get({n}, elem));
    lastSlot = alloca;
    return alloca;
  }
  OperandBuffers fill(OpBuilder &b, Location loc, Value frag,
                      const FragmentLayout &layout, Value lane);

  Operation *fn;
  Value emuCtx;
  Operation *lastSlot = nullptr;
};

OperandBuffers MmaEmuLowering::fill(OpBuilder &b, Location loc, Value frag,
                                    const FragmentLayout &layout, Value lane) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  OperandBuffers buf{slot(b, loc, layout.elems, f32),
                     slot(b, loc, 2 * layout.elems, i32), layout.elems};
  for (unsigned e = 0; e < layout.elems; ++e) {
    Value v = vector::ExtractOp::create(b, loc, frag, int64_t(e));
    if (v.getType() != f32)
      v = arith::ExtFOp::create(b, loc, f32, v);
    memref::StoreOp::create(b, loc, v, buf.values,
                            ValueRange{arith::ConstantIndexOp::create(b, loc, e)});
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    const Value coords[2] = {row, col};
    for (unsigned i = 0; i < 2; ++i) {
      Value c = arith::IndexCastOp::create(b, loc, i32, coords[i]);
      memref::StoreOp::create(
          b, loc, c, buf.coords,
          ValueRange{arith::ConstantIndexOp::create(b, loc, 2 * e + i)});
    }
  }
  return buf;
}

LogicalResult MmaEmuLowering::lower(MmaOp op, const MmaAtom &atom) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx), i32 = b.getI32Type();
  // kda_emu_mma(ctx, m, n, k, a, a_at, na, b, b_at, nb, c, c_at, nc, d)
  func::FuncOp callee = declareInModule(
      fn, "kda_emu_mma",
      FunctionType::get(ctx,
                        {ptr, i32, i32, i32, ptr, ptr, i32, ptr, ptr, i32, ptr,
                         ptr, i32, ptr},
                        {}));
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/IntegerAttr());
  OperandBuffers a = fill(b, loc, op.getA(), atom.a, lane);
  OperandBuffers bb = fill(b, loc, op.getB(), atom.b, lane);
  OperandBuffers c = fill(b, loc, op.getC(), atom.c, lane);
  Value d = slot(b, loc, atom.c.elems, b.getF32Type());
  auto i32c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  SmallVector<Value> args{emuCtx, i32c(atom.m), i32c(atom.n), i32c(atom.k)};
  for (const OperandBuffers *o : {&a, &bb, &c}) {
    args.push_back(pointerTo(b, loc, o->values));
    args.push_back(pointerTo(b, loc, o->coords));
    args.push_back(i32c(o->elems));
  }
  args.push_back(pointerTo(b, loc, d));
  func::CallOp::create(b, loc, callee, args);
  replaceWithSlot(b, loc, op, d, atom.c.elems);
  return success();
}

LogicalResult MmaEmuLowering::lower(WgmmaOp op, const MmaAtom &atom) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx), i32 = b.getI32Type(),
       i64 = b.getI64Type();
  // kda_emu_wgmma(ctx, n, a, a_at, na, b, lbo, sbo, mn_major, c, c_at, nc,
  // d)
  func::FuncOp callee =
      declareInModule(fn, "kda_emu_wgmma",
                      FunctionType::get(ctx,
                                        {ptr, i32, ptr, ptr, i32, ptr, i64, i64,
                                         i32, ptr, ptr, i32, ptr},
                                        {}));
  // The lane within the warpgroup, of the linear thread id (a 2-D block's
  // warpgroups are runs of that id, as on the chip).
  Value tid = lowering::linearThreadId(b, loc, op);
  Value lane = arith::RemUIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, atom.waveSize));
  OperandBuffers a = fill(b, loc, op.getA(), atom.a, lane);
  OperandBuffers c = fill(b, loc, op.getC(), atom.c, lane);
  Value d = slot(b, loc, atom.c.elems, b.getF32Type());
  auto cst = [&](int64_t v, unsigned bits) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, bits);
  };
  SmallVector<Value> args{emuCtx, cst(atom.n, 32)};
  args.append({pointerTo(b, loc, a.values), pointerTo(b, loc, a.coords),
               cst(a.elems, 32)});
  args.append({pointerTo(b, loc, op.getLds(), op.getOffset()),
               cst(op.getLbo(), 64), cst(op.getSbo(), 64),
               cst(op.getBMnMajor() ? 1 : 0, 32)});
  args.append({pointerTo(b, loc, c.values), pointerTo(b, loc, c.coords),
               cst(c.elems, 32), pointerTo(b, loc, d)});
  func::CallOp::create(b, loc, callee, args);
  replaceWithSlot(b, loc, op, d, atom.c.elems);
  return success();
}

/// kda.wgmma_commit and kda.wgmma_wait: calls that keep the flights'
/// books; the wait returns its operands (computed at issue).
void lowerWgmmaGroupsToEmu(Operation *fn, Value emuCtx) {
  MLIRContext *ctx = fn->getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Operation *> ops;
  fn->walk([&](Operation *op) {
    if (isa<WgmmaCommitOp, WgmmaWaitOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
      func::FuncOp callee =
          declareInModule(fn, "kda_emu_wgmma_wait",
                          FunctionType::get(ctx, {ptr, b.getI64Type()}, {}));
      func::CallOp::create(
          b, loc, callee,
          ValueRange{emuCtx, arith::ConstantIntOp::create(
                                 b, loc, wait.getPending(), 64)});
      wait.replaceAllUsesWith(wait.getValues());
    } else {
      func::FuncOp callee = declareInModule(fn, "kda_emu_wgmma_commit",
                                            FunctionType::get(ctx, {ptr}, {}));
      func::CallOp::create(b, loc, callee, ValueRange{emuCtx});
    }
    op->erase();
  }
}

} // namespace

LogicalResult mlir::kda::lowerMmaToEmu(Operation *fn, Value emuCtx,
                                       const TargetInfo *target) {
  SmallVector<MmaOp> ops;
  fn->walk([&](MmaOp op) { ops.push_back(op); });
  MmaEmuLowering lowering(fn, emuCtx);
  for (MmaOp op : ops) {
    if (!target)
      return op.emitOpError()
             << "needs the kernel's target (kda.target on its gpu.module) to "
                "know which chip's matrix atoms the emulator executes";
    MmaKind kind = op.getKind().getValue();
    if (!chipHasMmaAtom(target->chip, kind))
      return emitAtomNotOnChip(op, kind, *target), failure();
    if (failed(lowering.lower(op, getMmaAtom(kind))))
      return failure();
  }
  // Warpgroup atoms: their results are read at the waits, so the waits go
  // last.
  SmallVector<WgmmaOp> group;
  fn->walk([&](WgmmaOp op) { group.push_back(op); });
  for (WgmmaOp op : group) {
    MmaKind kind = op.getKind().getValue();
    if (!target || !chipHasMmaAtom(target->chip, kind))
      return target ? (emitAtomNotOnChip(op, kind, *target), failure())
                    : op.emitOpError() << "needs the kernel's target";
    if (failed(lowering.lower(op, getMmaAtom(kind))))
      return failure();
  }
  lowerWgmmaGroupsToEmu(fn, emuCtx);
  return success();
}

LogicalResult mlir::kda::lowerDynamicLdsToEmu(Operation *fn, Value emuCtx,
                                              int64_t dynamicLdsBytes) {
  SmallVector<gpu::DynamicSharedMemoryOp> ops;
  fn->walk([&](gpu::DynamicSharedMemoryOp op) { ops.push_back(op); });
  if (ops.empty())
    return success();
  if (dynamicLdsBytes <= 0)
    return ops.front().emitOpError()
           << "needs the kernel's kda.dynamic_lds_bytes (the bytes its "
              "builder uses) on the emulator";
  MLIRContext *ctx = fn->getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  func::FuncOp callee = declareInModule(
      fn, "kda_emu_dynamic_lds", FunctionType::get(ctx, {ptr, i64}, {ptr}));
  // memref<?xi8>'s descriptor: allocated, aligned, offset, sizes, strides.
  auto arr = LLVM::LLVMArrayType::get(i64, 1);
  auto desc = LLVM::LLVMStructType::getLiteral(ctx, {ptr, ptr, i64, arr, arr});
  for (gpu::DynamicSharedMemoryOp op : ops) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto c64 = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    };
    Value base = func::CallOp::create(b, loc, callee,
                                      ValueRange{emuCtx, c64(dynamicLdsBytes)})
                     .getResult(0);
    Value d = LLVM::UndefOp::create(b, loc, desc);
    d = LLVM::InsertValueOp::create(b, loc, d, base, ArrayRef<int64_t>{0});
    d = LLVM::InsertValueOp::create(b, loc, d, base, ArrayRef<int64_t>{1});
    d = LLVM::InsertValueOp::create(b, loc, d, c64(0), ArrayRef<int64_t>{2});
    d = LLVM::InsertValueOp::create(b, loc, d, c64(dynamicLdsBytes),
                                    ArrayRef<int64_t>{3, 0});
    d = LLVM::InsertValueOp::create(b, loc, d, c64(1), ArrayRef<int64_t>{4, 0});
    auto plain = MemRefType::get({ShapedType::kDynamic},
                                 IntegerType::get(ctx, 8));
    Value memref =
        UnrealizedConversionCastOp::create(b, loc, plain, d).getResult(0);
    op.replaceAllUsesWith(memref);
    op.erase();
  }
  return success();
}
