#ifndef KDA_PASSES_TD
#define KDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def KdaLowerToGpu : Pass<"kda-lower-to-gpu", "ModuleOp"> {
  let summary = "Build GPU kernels for kda computations";
  let description = [{
    For every `kda.recurrent` op, builds a `gpu.func` kernel for the chosen
    target into `gpu.module @kda_kernels` (one kernel builder, shared by all
    targets) and removes the op; its function is tagged with `kda.kernel`,
    the symbol of the kernel that implements it. The op's `#kda.config` is
    used when present, else the target's default for the layer; a config
    that does not fit the layer or target is an error naming the reason.
    Each kernel carries `kda.layer`, `kda.config`, `kda.grid` (x, y, z; -1 is
    the number of sequences) and `known_block_size` for the bundle manifest.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "target from codegen's table: gfx942, gfx950, sm_90, emu, emu32">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def KdaLowerSubgroupReduce : Pass<"kda-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_reduce to the target's cross-lane atom";
  let description = [{
    gpu.subgroup_reduce is not legal for convert-gpu-to-rocdl/nvvm in LLVM 22.
    On AMDGPU targets clustered reductions become DPP (row shifts, row
    broadcasts) where the upstream patterns apply, shuffles otherwise; on
    NVPTX and the emulator they become butterfly shuffles over the target's
    wave size.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "target from codegen's table">
  ];
  let dependentDialects = ["::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def KdaGpuToEmu : Pass<"kda-gpu-to-emu", "ModuleOp"> {
  let summary = "Turn gpu.func kernels into host functions run by the emulator";
  let description = [{
    Each `gpu.func` kernel of a `gpu.module` becomes a host `func.func` of the
    same name with a leading emulator context argument; thread and block ids,
    dims, shuffles and barriers become calls into the emulator runtime
    (`kda_emu_*`, runtime/emu), and the function is marked `kda.emu_kernel`
    for kda-emu-entry. The emulator runs each workgroup's threads as fibers.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def KdaEmuEntry : Pass<"kda-emu-entry", "ModuleOp"> {
  let summary = "Add packed entry points to lowered emulator kernels";
  let description = [{
    Runs after the host lowering to the LLVM dialect. For every `llvm.func`
    marked `kda.emu_kernel`, adds `<name>_packed(ctx, params)`: `params[i]`
    points at argument i's value, as cuLaunchKernel's and
    hipModuleLaunchKernel's kernelParams do, so every backend launches with
    the same argument array. Removes the marker.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // KDA_PASSES_TD
