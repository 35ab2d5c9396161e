//===- KernelAbi.cpp - one kernel ABI -------------------------------------===//
#include "kda/Passes/KernelAbi.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::kda;

SmallVector<Type> mlir::kda::kernelArgTypes(MLIRContext *ctx,
                                            ArrayRef<KernelArg> args) {
  SmallVector<Type> types;
  for (const KernelArg &a : args)
    types.push_back(MemRefType::get({1}, a.elementType));
  return types;
}

void mlir::kda::setKernelAbi(gpu::GPUFuncOp func, ArrayRef<KernelArg> args) {
  assert(func.getFunctionType().getNumInputs() == args.size() &&
         "one ABI entry per kernel argument");
  MLIRContext *ctx = func.getContext();
  SmallVector<Attribute> entries;
  for (const KernelArg &a : args)
    entries.push_back(KernelArgAttr::get(ctx, a.name, a.elementType, a.role));
  func->setAttr(kAbiAttrName, ArrayAttr::get(ctx, entries));
}

FailureOr<SmallVector<KernelArgAttr>>
mlir::kda::getKernelAbi(gpu::GPUFuncOp func) {
  auto abi = func->getAttrOfType<ArrayAttr>(kAbiAttrName);
  if (!abi)
    return func.emitOpError() << "has no " << kAbiAttrName
                              << " (its kernel builder states the ABI)";
  ArrayRef<Type> inputs = func.getFunctionType().getInputs();
  if (abi.size() != inputs.size())
    return func.emitOpError()
           << kAbiAttrName << " names " << abi.size() << " arguments but the "
           << "kernel takes " << inputs.size();
  SmallVector<KernelArgAttr> args;
  for (auto [i, a] : llvm::enumerate(abi)) {
    auto arg = dyn_cast<KernelArgAttr>(a);
    auto memref = dyn_cast<MemRefType>(inputs[i]);
    if (!arg || !memref || memref.getElementType() != arg.getElementType())
      return func.emitOpError() << kAbiAttrName << " entry " << i
                                << " does not describe argument " << i << " ("
                                << inputs[i] << ")";
    args.push_back(arg);
  }
  return args;
}

Type mlir::kda::kernelArgElementType(MLIRContext *ctx, Value operand) {
  if (!operand)
    return Float32Type::get(ctx);
  Type t = cast<MemRefType>(operand.getType()).getElementType();
  return t.isInteger(1) ? IntegerType::get(ctx, 8) : t;
}

KernelArg mlir::kda::inputArg(MLIRContext *ctx, StringRef name,
                              Value operand) {
  return KernelArg{name.str(), kernelArgElementType(ctx, operand),
                   ArgRole::Input};
}
