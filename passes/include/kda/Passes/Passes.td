#ifndef KDA_PASSES_TD
#define KDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def KdaDecompose : Pass<"kda-decompose", "ModuleOp"> {
  let summary = "Split kda.chunk into its stage kernels";
  let description = [{
    Replaces every `kda.chunk` by `kda.chunk_stage` ops, `prep` then one
    `scan` per state column block (`block_v`: the chunk's `scan_block_v`,
    else those of 16, 32 and 64 that divide head_v), with the same
    operands, layer, config and chunk size (KDA-MATH.md section 2; the
    stages are described on the op). The scans are alternatives: a launch
    runs the prep and the one the runtime picks from the batch shape (wide
    blocks stage each chunk's rows fewer times, narrow ones give more
    workgroups; no one wins every batch on the H200). Where the chunk has
    `segment_chunks` (by default with qk_l2norm at scan_stages 1), the
    split scan's `maps`, `join` and `segments` follow, at the widest block
    that divides head_k and head_v (the join at 16), every stage carrying
    `segment_chunks`: the runtime launches them instead of a scan where its
    cost model finds them cheaper for the batch (docs/split-scan.md). Two stages,
    not five: the gate, cumulative sum, intra-chunk matrices, inverse and
    W/U of one chunk all read the same rows (q, k, g of the chunk), so one
    kernel per (chunk, head) keeps them on chip; only the state scan is
    sequential, and it reads the prep's results once per chunk. This is the
    split FlashKDA and cuLA ship (a chunk-parallel prep, a head-parallel scan
    and output). `kda-lower-to-gpu` runs this pass first.
  }];
}

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
    With `lds_stages` in the config, the token loop is a `kda.pipeline`
    through an LDS ring: expanded, verified (PIPELINE-SAFETY.md; an unsafe
    depth is an error) and instantiated with the target's atoms (async
    copies where the target has them: cp.async on sm_90, global_load_lds on
    gfx950, async markers on emu32; register-staged copies elsewhere); the
    kernel then carries `kda.verified_pipeline`. With `waves_k` > 1 each
    column's k is split over waves and the partial sums meet in an LDS
    exchange (a second workgroup attribution, one barrier per reduction).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "a target of the table (kda/Target/TargetInfo.h): gfx942, gfx950, "
           "sm_90, emu, emu950, emu32; set as `kda.target` on the gpu.module">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::amdgpu::AMDGPUDialect", "::mlir::ROCDL::ROCDLDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def KdaLowerSubgroupReduce : Pass<"kda-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_reduce to the target's cross-lane atom";
  let description = [{
    gpu.subgroup_reduce is not legal for convert-gpu-to-rocdl/nvvm in LLVM 22.
    On AMDGPU targets clustered reductions become DPP (row shifts, row
    broadcasts) where the upstream patterns apply, shuffles otherwise; on
    NVPTX and the emulator they become butterfly shuffles over the target's
    wave size. The target is the enclosing gpu.module's `kda.target`.
  }];
  let dependentDialects = ["::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def KdaLowerAtoms : Pass<"kda-lower-atoms", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower kda atoms to the gpu.module target's instructions";
  let description = [{
    Applies the atom patterns of the enclosing gpu.module's `kda.target`
    (populate functions of kda/Passes/AtomLowering.h): matrix atoms
    (`kda.mma` -> `amdgpu.mfma` / `nvvm.mma.sync`), and the copy atoms, waits,
    drains and barriers of verified `kda.schedule` regions (cp.async with
    commit/wait_group on sm_90, global_load_lds with instruction-counted
    vmcnt on gfx950, register-staged copies and lgkmcnt drains on gfx942).
    What is lowered is exactly the schedule kda-verify-pipeline checked. An
    atom the chip does not have is an error naming the atom and the chip.
    Emulator targets keep their atoms for kda-gpu-to-emu.
  }];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect", "::mlir::ROCDL::ROCDLDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

def KdaGpuToEmu : Pass<"kda-gpu-to-emu", "ModuleOp"> {
  let summary = "Turn gpu.func kernels into host functions run by the emulator";
  let description = [{
    Each `gpu.func` kernel of a `gpu.module` becomes a host `func.func` of the
    same name with a leading emulator context argument; thread and block ids,
    dims, shuffles and barriers become calls into the emulator runtime
    (`kda_emu_*`, runtime/emu), and the function is marked `kda.emu_kernel`
    for kda-emu-entry. The emulator runs each workgroup's threads as fibers.
    Expanded pipelines (`kda.schedule`) inside a kernel run in place: their
    copies, waits, drains, barriers and reads become calls that drive the
    emulator's LDS race detector. Workgroup attributions are laid out in LDS
    one after another; loads and stores that index one directly are watched
    by the detector too, and `gpu.barrier` counts as a drained barrier.
    Matrix atoms (`kda.mma`) become the wave-collective `kda_emu_mma` with
    the layouts of the chip the target stands for (an atom that chip lacks
    is an error), and `gpu.dynamic_shared_memory` the workgroup's dynamic
    LDS region (`kda_emu_dynamic_lds`, sized by `kda.dynamic_lds_bytes`).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
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

def KdaExpandPipeline : Pass<"kda-expand-pipeline", "ModuleOp"> {
  let summary = "Expand kda.pipeline loops into verified LDS ring-buffer schedules";
  let description = [{
    Each `kda.pipeline` of depth N becomes a `kda.schedule`: its buffers are
    sized to N-slot rings; a prologue issues the copies of iterations
    0..N-2 (only those below a static trip count; predicated on a dynamic
    one); the steady state waits for iteration i's copy (wait count N-2),
    crosses a drained barrier, reads, and issues the copy of i + N - 1; an
    epilogue peeled for static trip counts waits with exact counts; the exit
    drains. The result is then checked by the kda-verify-pipeline analysis
    and an unsafe depth fails the pass (unless `verify=false`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"gfx942\"",
           "codegen target whose LDS capacity and copy kind apply">,
    Option<"verify", "verify", "bool", /*default=*/"true",
           "verify the expanded schedules (off only to study races)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def KdaVerifyPipeline : Pass<"kda-verify-pipeline", "ModuleOp"> {
  let summary = "Reject kda.schedule regions that break PIPELINE-SAFETY.md R1-R6";
  let description = [{
    Interprets every `kda.schedule` (generated or hand-written) over all
    iterations of a static trip count, or trip counts 0..depth+1 and a
    steady state for a dynamic one, and reports the first hazard with its
    rule, buffer, slot, iteration and depth at the schedule's location.
  }];
}

def KdaEnumeratePipelineConfigs : Pass<"kda-enumerate-pipeline-configs", "ModuleOp"> {
  let summary = "List every pipeline config of a target and whether it is safe";
  let description = [{
    For every `kda.pipeline`, expands and verifies each (stages, warps,
    block scale) combination on `target` - stages 1..4, warps such that the
    workgroup fits, block scales 1 and 2 (tile bytes) - and prints one line
    per config: safe, or the rule and reason it is rejected. The tuner uses
    the same API (kda::enumeratePipelineConfigs).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"gfx942\"",
           "codegen target">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def KdaTestPipelineMutations : Pass<"kda-test-pipeline-mutations", "ModuleOp"> {
  let summary = "Mutation test of the pipeline verifier";
  let description = [{
    For every `kda.schedule` the verifier accepts, makes each single mutant -
    one barrier, drained barrier or drain removed, one wait count raised by
    one, one ring slot dropped from a buffer - and checks that the verifier
    rejects it. Prints the mutants per schedule and the kill rate; fails if
    any mutant survives.
  }];
}

#endif // KDA_PASSES_TD
