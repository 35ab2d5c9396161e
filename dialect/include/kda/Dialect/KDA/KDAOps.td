#ifndef KDA_OPS_TD
#define KDA_OPS_TD

include "kda/Dialect/KDA/KDAAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class KDA_Op<string mnemonic, list<Trait> traits = []>
    : Op<KDA_Dialect, mnemonic, traits>;

// Operands shared by both computations, in the engine's terms (KDA-MATH.md
// section 4). Destination-passing: `o` is written, `state` updated in place.
class KDA_AttentionOp<string mnemonic, dag extraArgs = (ins)>
    : KDA_Op<mnemonic, [AttrSizedOperandSegments]> {
  let arguments = !con((ins
    KDA_LayerAttr:$layer,
    OptionalAttr<KDA_ConfigAttr>:$config,
    Arg<AnyMemRef, "queries [T, H, K]", [MemRead]>:$q,
    Arg<AnyMemRef, "keys [T, H, K]", [MemRead]>:$k,
    Arg<AnyMemRef, "values [T, HV, V]", [MemRead]>:$v,
    Arg<AnyMemRef, "raw gate [T, HV, K]", [MemRead]>:$g,
    Arg<AnyMemRef, "raw beta [T, HV]", [MemRead]>:$beta,
    Arg<Optional<AnyMemRef>, "A_log [HV], f32", [MemRead]>:$a_log,
    Arg<Optional<AnyMemRef>, "dt_bias [HV * K], f32", [MemRead]>:$dt_bias,
    Arg<AnyMemRef, "cu_seqlens [N + 1], i32", [MemRead]>:$cu_seqlens,
    Arg<AnyMemRef, "state slot per sequence [N], i32; <= 0 is padding", [MemRead]>:$slots,
    Arg<AnyMemRef, "has_initial_state [N], i1", [MemRead]>:$has_initial_state,
    Arg<AnyMemRef, "state pool [S, HV, K, V] (kv) or [S, HV, V, K] (vk)", [MemRead, MemWrite]>:$state,
    Arg<AnyMemRef, "output [T, HV, V]", [MemWrite]>:$o), extraArgs);

  let assemblyFormat = [{
    $layer (`config` $config^)?
    `q` `(` $q `:` type($q) `)`
    `k` `(` $k `:` type($k) `)`
    `v` `(` $v `:` type($v) `)`
    `g` `(` $g `:` type($g) `)`
    `beta` `(` $beta `:` type($beta) `)`
    (`a_log` `(` $a_log^ `:` type($a_log) `)`)?
    (`dt_bias` `(` $dt_bias^ `:` type($dt_bias) `)`)?
    `cu_seqlens` `(` $cu_seqlens `:` type($cu_seqlens) `)`
    `slots` `(` $slots `:` type($slots) `)`
    `has_initial_state` `(` $has_initial_state `:` type($has_initial_state) `)`
    `state` `(` $state `:` type($state) `)`
    `out` `(` $o `:` type($o) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def KDA_RecurrentOp : KDA_AttentionOp<"recurrent"> {
  let summary = "Token-serial KDA over a packed varlen batch (decode, short rows)";
  let description = [{
    Runs the per-token recurrence of KDA-MATH.md section 1 for every sequence n
    of the batch (tokens cu_seqlens[n] .. cu_seqlens[n+1]) and every value head.
    The sequence's state starts from `state[slots[n]]`, or from zeros when
    `has_initial_state[n]` is false (the slot is then not read), and the final
    state is written back to the slot. A sequence whose slot is <= 0 is padding:
    its output rows are zeros and no state is touched.

    ```mlir
    kda.recurrent #layer q(%q : memref<?x12x128xbf16>) ... out(%o : memref<?x12x128xbf16>)
    ```
  }];
}

def KDA_ChunkOp : KDA_AttentionOp<"chunk", (ins
    OptionalAttr<I64Attr>:$chunk_size, OptionalAttr<I64Attr>:$scan_stages,
    OptionalAttr<DenseI64ArrayAttr>:$scan_block_v,
    OptionalAttr<I64Attr>:$segment_chunks, UnitAttr:$warpgroup_scan)> {
  let summary = "Chunked KDA over a packed varlen batch (prefill)";
  let description = [{
    Computes exactly what `kda.recurrent` computes, by the chunked form of
    KDA-MATH.md section 2 with chunks of `chunk_size` rows (16, 32 or 64).
    Every row length, 1 included, is legal. `kda-decompose` splits it into its
    stage kernels.

    Without `chunk_size`, each target takes the largest of 64, 32 and 16 at
    which the layer's prep kernel and one of its scans fit its LDS
    (kda-lower-to-gpu chooses, per target; the manifest records it). An explicit one is kept, and a target
    that cannot hold it refuses the layer naming the size that fits.

    `scan_stages` (1..4) is the depth of the scan's row pipeline: the scan
    copies each chunk's W rows and its U columns into an LDS ring of that
    many slots, the copy of chunk c + depth - 1 issued while chunk c is
    computed. Depth 1, the default on every target (ChunkKernelBuilder.cpp,
    kDefaultScanStages, says why), stages the rows in the chunk loop itself.
    Every deeper one is expanded and verified against the hazard model
    (PIPELINE-SAFETY.md) when the kernel is built; one the target cannot
    hold is rejected with the rule (R6 when the ring exceeds the LDS).

    `scan_block_v` lists the scan's state column blocks (multiples of 16
    that divide head_v, ascending); one scan kernel is built for each and
    the runtime picks one per launch from the batch shape (the widest whose
    workgroups still fill the device: each workgroup stages the chunk's
    rows once, so wider blocks read them fewer times). Default: those of
    16, 32 and 64 that divide head_v.

    `segment_chunks` (>= 2, or 0 for none) lets the scan split a long
    sequence into segments of at least that many chunks, run side by side
    (docs/split-scan.md): each segment's map of the state is composed
    (stage `maps`), a serial pass gives each segment its entering state
    (`join`), and the segments' scans take it from there (`segments`).
    The runtime takes that path when the plain scan would leave most of
    the device idle. Default: 8 where the layer has qk_l2norm (each
    segment's map is then a contraction, so composing it adds no error
    the scan would not) and the scan is not pipelined; 0 otherwise.

    `warpgroup_scan` builds the scans of 64-column multiples on the chip's
    warpgroup atom (sm_90's wgmma; docs/wgmma-plan.md, step 6): the state
    in registers as the atom's A, every chunk operand read by the tensor
    core from LDS as the workspace holds it (split words read with k
    doubled). The layer's records are then split words throughout (no
    fragment runs or pair words for the other scans). On a chip without
    the atom those blocks are left out (the other scans stand); a shape
    the scan does not take is refused with the rule.
  }];
  let extraClassDeclaration = [{
    /// The minimum chunks of a scan segment: segment_chunks, else the
    /// default above (0: the layer's scan is never split).
    int64_t getSegmentChunksOrDefault();
    /// The scan's state column blocks, narrowest first: scan_block_v, else
    /// those of 16, 32 and 64 that divide head_v (kda-decompose builds one
    /// scan per block; kda-tune lists each).
    ::llvm::SmallVector<int64_t> getScanBlocks();
  }];
}

def KDA_ChunkStageOp : KDA_AttentionOp<"chunk_stage", (ins
    OptionalAttr<I64Attr>:$chunk_size, KDA_ChunkStageAttr:$stage,
    OptionalAttr<I64Attr>:$scan_stages, OptionalAttr<I64Attr>:$block_v,
    OptionalAttr<I64Attr>:$segment_chunks, UnitAttr:$warpgroup_scan)> {
  let summary = "One kernel of the chunked form (what kda-decompose makes of kda.chunk)";
  let description = [{
    `kda-decompose` replaces a `kda.chunk` by two stages, in this order, which
    together compute what it computes (KDA-MATH.md section 2):

    - `prep` (parallel over chunks and value heads): the gate and its
      chunk-local cumulative sum, the normalised q and k, the intra-chunk
      matrices A_kk and A_qk (sub-chunk anchored), the unit-lower-triangular
      inverse T = (I + A_kk)^-1, W and U, and the decayed q and k the scan
      needs, written to the workspace;
    - `scan` (parallel over value heads and state column blocks; sequential
      over the chunks of a sequence): V_new = U - W S, the output, and the
      state update, reading the workspace and the state pool in place.

    Where the `kda.chunk` lets its scan be split within a sequence
    (`segment_chunks`), three more stages follow, alternatives to the scan
    that the runtime launches instead of it: `maps` (each segment's map of
    the state, S -> M S + B, composed over its chunks), `join` (serial over
    a sequence's segments: each one's entering state) and `segments` (the
    scan over each segment from its entering state, with the output).
    Every stage of such a layer carries `segment_chunks`: the workspace
    record holds the segments' maps.

    `chunk_size` is the `kda.chunk`'s; where it left it out, kda-lower-to-gpu
    sets the target's (the same on every stage of a function) before it
    builds them. `scan_stages` is the `kda.chunk`'s (the scan's row pipeline
    depth; the prep ignores it). `block_v` is a scan's state columns per workgroup (16
    when absent); kda-decompose makes one scan per block of the
    `kda.chunk`'s `scan_block_v`, alternatives the runtime chooses between.
    `warpgroup_scan` is the `kda.chunk`'s, on every stage (the prep writes
    the records the warpgroup scan reads).

    Both read the operands of the `kda.chunk` they come from; the workspace
    between them is an argument of their kernels (role workspace), sized per
    token by the kernel builder and owned by the caller.

    ```mlir
    kda.chunk_stage #layer q(%q : ...) ... out(%o : ...) {chunk_size = 64 : i64, stage = #kda.chunk_stage<prep>}
    ```
  }];
}

include "kda/Dialect/KDA/KDAPipelineOps.td"
include "kda/Dialect/KDA/KDATileOps.td"

#endif // KDA_OPS_TD
