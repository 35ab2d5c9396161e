//===- KernelAbi.h - one kernel ABI ------------------------------*- C++ -*-===//
//
// The argument list a kernel builder attaches to its gpu.func (`kda.abi`, an
// array of #kda.arg<name, element type, role>): the one statement of the
// kernel's ABI. kda-compile writes it to the manifest; the runtime packs
// launches from it by name, so no other place restates the order.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_KERNELABI_H
#define KDA_PASSES_KERNELABI_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::kda {

inline constexpr llvm::StringLiteral kAbiAttrName = "kda.abi";
/// A kernel builder's occupancy request on a gpu.func (i32): workgroups of
/// the kernel one compute unit (SM) should hold at once. kda-lower-atoms
/// gives it to the chip: nvvm.minctasm on NVPTX (ptxas sizes registers for
/// it); AMDGPU and the emulators do not apply it yet (unmeasured there).
inline constexpr llvm::StringLiteral kWorkgroupsPerCuAttrName =
    "kda.workgroups_per_cu";

struct KernelArg {
  std::string name;
  Type elementType; // i1 flags travel as i8
  ArgRole role;
};

/// The element type a kernel argument has for operand `operand` of a kda
/// op: its memref's element type, i1 flags as i8 bytes, and f32 for an
/// absent optional operand (a_log, dt_bias: still an argument, passed null).
Type kernelArgElementType(MLIRContext *ctx, Value operand);

/// An input argument named `name` for `operand`.
KernelArg inputArg(MLIRContext *ctx, StringRef name, Value operand);

/// The inputs every kernel of a layer that reads activations takes, in the
/// order the builders state them: q, k, v, g, beta, a_log, dt_bias,
/// cu_seqlens, slots (kda.recurrent and kda.chunk_stage share the getters).
template <typename OpT>
SmallVector<KernelArg> layerInputArgs(OpT op) {
  MLIRContext *ctx = op.getContext();
  return {inputArg(ctx, "q", op.getQ()),
          inputArg(ctx, "k", op.getK()),
          inputArg(ctx, "v", op.getV()),
          inputArg(ctx, "g", op.getG()),
          inputArg(ctx, "beta", op.getBeta()),
          inputArg(ctx, "a_log", op.getALog()),
          inputArg(ctx, "dt_bias", op.getDtBias()),
          inputArg(ctx, "cu_seqlens", op.getCuSeqlens()),
          inputArg(ctx, "slots", op.getSlots())};
}

/// The bare-pointer argument types of `args` (statically shaped rank-1
/// memrefs of the element type), for building the gpu.func.
SmallVector<Type> kernelArgTypes(MLIRContext *ctx, ArrayRef<KernelArg> args);

/// Attaches `kda.abi` to `func`; the argument count must match.
void setKernelAbi(gpu::GPUFuncOp func, ArrayRef<KernelArg> args);

/// The ABI of `func`, or failure (with a diagnostic) when it has none or it
/// disagrees with the function's arguments.
FailureOr<SmallVector<KernelArgAttr>> getKernelAbi(gpu::GPUFuncOp func);

} // namespace mlir::kda

#endif // KDA_PASSES_KERNELABI_H
