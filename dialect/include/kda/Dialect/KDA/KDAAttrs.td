#ifndef KDA_ATTRS_TD
#define KDA_ATTRS_TD

include "kda/Dialect/KDA/KDADialect.td"
include "kda/Dialect/KDA/KDAEnums.td"
include "mlir/IR/AttrTypeBase.td"

class KDA_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<KDA_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def KDA_LayerAttr : KDA_Attr<"Layer", "layer"> {
  let summary = "Description of one KDA layer (per tensor-parallel rank)";
  let description = [{
    Every shape, gate and dtype fact a kernel needs about a layer:

    ```mlir
    #kda.layer<heads = 12, value_heads = 12, head_k = 128, head_v = 128,
               gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true,
               act = bf16, state = f32, state_layout = vk>
    ```

    - `heads` (H): query/key heads; `value_heads` (HV): value heads, a multiple
      of H (GVA when HV > H: value head h reads q/k head h / (HV / H)).
    - `head_k` (K), `head_v` (V): head dims, 1..256.
    - `gate`: `softplus` (g = -exp(A_log) * softplus(graw + dt_bias)),
      `lower_bound(lb)` with lb < 0 (g = lb * sigmoid(exp(A_log) * (graw + dt_bias))),
      or `none` (graw is already the log decay).
    - `beta`: `sigmoid` (of the raw input), `given` (already activated) or
      `sigmoid_x2` (2 * sigmoid, allow_neg_eigval).
    - `qk_l2norm`: normalise q and k per token and head (eps 1e-6 inside the sqrt).
    - `scale` (optional): output scale; K^-1/2 when absent.
    - `act`: activation dtype (bf16, f16 or f32); `state`: state dtype (f32 or bf16).
    - `state_layout`: `kv` (pool [slots, HV, K, V], fla) or `vk`
      (pool [slots, HV, V, K], K contiguous, vLLM).
  }];
  let parameters = (ins
    "int64_t":$heads,
    "int64_t":$valueHeads,
    "int64_t":$headK,
    "int64_t":$headV,
    "::mlir::kda::GateKind":$gate,
    APFloatParameter<"lower bound of the gate">:$lowerBound,
    "::mlir::kda::BetaMode":$beta,
    "bool":$qkL2norm,
    APFloatParameter<"output scale; 0 means K^-1/2">:$scale,
    "::mlir::Type":$actType,
    "::mlir::Type":$stateType,
    "::mlir::kda::StateLayout":$stateLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The output scale actually applied: the given one, else K^-1/2.
    double getEffectiveScale() const;
    /// Value heads per query/key head (1 without GVA).
    int64_t getGroupSize() const { return getValueHeads() / getHeads(); }
  }];
}

def KDA_TargetAttr : KDA_Attr<"Target", "target"> {
  let summary = "A code generation target, named; its facts come from the target table";
  let description = [{
    ```mlir
    gpu.module @kda_kernels attributes {kda.target = #kda.target<"gfx942">} {...}
    ```
    Names a row of the target table (`kda/Target/TargetInfo.h`: gfx942,
    gfx950, sm_90 and the emulators emu, emu950, emu32). Wave size, LDS,
    copy and matrix atoms are read from that table, never restated in the
    IR; passes after kda-lower-to-gpu find the target on the enclosing
    gpu.module (`getEnclosingTarget`), as upstream does with #rocdl.target.
  }];
  let parameters = (ins StringRefParameter<"target name">:$name);
  let assemblyFormat = "`<` $name `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The target table's row (never null for a verified attribute).
    const ::mlir::kda::TargetInfo &getInfo() const;
  }];
}

def KDA_CopyAtomAttr : EnumAttr<KDA_Dialect, KDA_CopyAtom, "copy_atom"> {
  let assemblyFormat = "$value";
}

def KDA_ChunkStageAttr : EnumAttr<KDA_Dialect, KDA_ChunkStage, "chunk_stage"> {
  let assemblyFormat = "$value";
}

def KDA_KernelArgAttr : KDA_Attr<"KernelArg", "arg"> {
  let summary = "One argument of a kernel's ABI: name, element type, role";
  let description = [{
    ```mlir
    gpu.func @k(...) kernel attributes {kda.abi = [#kda.arg<"q", bf16, input>,
                                                   #kda.arg<"state", f32, inout>]}
    ```
    The kernel builder attaches `kda.abi`, one entry per argument in order
    (bare pointers to elements of `element_type`); kda-compile copies it to
    the manifest and the runtime packs launch arguments by these names.
  }];
  let parameters = (ins StringRefParameter<"argument name">:$name,
                        "::mlir::Type":$element_type,
                        EnumParameter<KDA_ArgRole>:$role);
  let assemblyFormat = "`<` $name `,` $element_type `,` $role `>`";
}

def KDA_ConfigAttr : KDA_Attr<"Config", "config"> {
  let summary = "A kernel configuration: block sizes, warps, pipeline stages";
  let description = [{
    ```mlir
    #kda.config<block_k = 128, block_v = 32, block_t = 64, warps = 4, stages = 2>
    #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 4, stages = 1, lanes_k = 16>
    ```
    `block_k` and `block_v` are in [1, 256] (any size: a head of 60 or 100
    takes a block of its size, or a larger block whose tail is masked);
    `block_t` is a power of two; `warps` is per workgroup (1..32); `stages`
    is the requested software-pipeline depth (1..8), which the pipeline
    verifier may still reject for a given kernel and target. `lanes_k`
    (optional, a power of two up to 64) is how many lanes share one state
    column in the recurrent kernel; absent, every thread owns one column.
    `lds_stages` (optional, 1..4) stages each token's q, k and g rows through
    an LDS ring of that depth (a kda.pipeline, expanded and verified when the
    kernel is built); absent, lanes read them from global memory.
    `waves_k` (optional, a power of two dividing `warps`, default 1) splits
    each state column's k over that many waves of the recurrent kernel; their
    partial sums meet in LDS. It lets one wave read whole state rows of a kv
    pool while each lane still holds a short k-run.
    `v_passes` (optional, 1..8, default 1) has each workgroup of the
    recurrent kernel walk its `block_v` columns in that many passes, loading
    the state of pass p + 1 before it computes pass p: more state bytes in
    flight per workgroup, and the workgroup's fixed work (launch, the row's
    slot and flags) shared by every pass.
    `mma` (optional, 0 or 1, default 0): 1 has the recurrent kernel of a
    bf16 state pool take each token's column sums S'^T k and S'^T q with the
    target's matrix atom (the state is an exact operand; k and q, decayed,
    split into two bf16 halves), each lane updating the elements of its
    fragments; 0 takes them with FMAs and lane exchanges.
    `shared_terms` (optional, 0 or 1, default 0): 1 has a recurrent kernel
    with v_passes > 1 compute a row's first token's terms (gate decays,
    normalised k and q, k.q, beta) once a workgroup into LDS, each pass
    reading its lanes' share back; 0 has every pass compute its own.
  }];
  let parameters = (ins
    "unsigned":$block_k,
    "unsigned":$block_v,
    "unsigned":$block_t,
    "unsigned":$warps,
    "unsigned":$stages,
    DefaultValuedParameter<"unsigned", "0">:$lanes_k,
    DefaultValuedParameter<"unsigned", "0">:$lds_stages,
    DefaultValuedParameter<"unsigned", "1">:$waves_k,
    DefaultValuedParameter<"unsigned", "1">:$v_passes,
    DefaultValuedParameter<"unsigned", "0">:$mma,
    DefaultValuedParameter<"unsigned", "0">:$shared_terms);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def KDA_MmaKindAttr : KDA_Attr<"MmaKind", "mma_kind"> {
  let summary = "A matrix (MMA) atom, named after its instruction";
  let description = [{
    ```mlir
    #kda.mma_kind<mfma_f32_16x16x16_bf16>
    #kda.mma_kind<mma_sync_f32_16x8x16_bf16>
    ```
    Names a row of the matrix atom table (`kda/Target/MmaAtoms.h`): the
    shape m x n x k, the element types and the lane layout of every operand
    come from there, never from the IR. Kinds: mfma_f32_16x16x16_bf16,
    mfma_f32_32x32x8_bf16 (gfx942, gfx950), mfma_f32_16x16x32_bf16,
    mfma_f32_32x32x16_bf16 (gfx950), mma_sync_f32_16x8x16_bf16 (sm_90).
    Whether a chip has the atom is checked where it is lowered.
  }];
  let parameters = (ins "::mlir::kda::MmaKind":$value);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The atom table's row.
    const ::mlir::kda::MmaAtom &getAtom() const {
      return ::mlir::kda::getMmaAtom(getValue());
    }
    unsigned getM() const { return getAtom().m; }
    unsigned getN() const { return getAtom().n; }
    unsigned getK() const { return getAtom().k; }
  }];
}

#endif // KDA_ATTRS_TD
