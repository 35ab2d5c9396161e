//===- EmuEntry.cpp - packed entry points for emulator kernels ------------===//
#include "kda/Passes/Passes.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDAEMUENTRY
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct KdaEmuEntryPass : public kda::impl::KdaEmuEntryBase<KdaEmuEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr("kda.emu_kernel"))
        kernels.push_back(fn);
    for (LLVM::LLVMFuncOp fn : kernels) {
      fn->removeAttr("kda.emu_kernel");
      LLVM::LLVMFunctionType type = fn.getFunctionType();
      if (type.getNumParams() == 0 || type.getParamType(0) != ptr) {
        fn.emitOpError("is not an emulator kernel (no context argument)");
        return signalPassFailure();
      }
      OpBuilder b(fn);
      b.setInsertionPointAfter(fn);
      Location loc = fn.getLoc();
      auto packed = LLVM::LLVMFuncOp::create(
          b, loc, (fn.getName() + "_packed").str(),
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptr, ptr}));
      Block *entry = packed.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      SmallVector<Value> args{entry->getArgument(0)};
      for (unsigned i = 1; i < type.getNumParams(); ++i) {
        Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr,
                                         entry->getArgument(1),
                                         ArrayRef<LLVM::GEPArg>{int32_t(i - 1)});
        Value valuePtr = LLVM::LoadOp::create(b, loc, ptr, slot);
        args.push_back(
            LLVM::LoadOp::create(b, loc, type.getParamType(i), valuePtr));
      }
      LLVM::CallOp::create(b, loc, fn, args);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      // How many argument pointers the packed entry reads: a launcher that
      // passes none (kda-emu-run) checks it, since a kernel that takes
      // arguments dereferences the missing array.
      b.setInsertionPointAfter(packed);
      LLVM::GlobalOp::create(
          b, loc, IntegerType::get(ctx, 32), /*isConstant=*/true,
          LLVM::Linkage::External, (fn.getName() + "_packed_args").str(),
          b.getI32IntegerAttr(int32_t(type.getNumParams() - 1)));
    }
  }
};
} // namespace
