//===- ChunkKernelBuilder.h - the chunk (prefill) kernels -------*- C++ -*-===//
//
// One builder for each stage kernel of the chunked form (KDA-MATH.md
// section 2), shared by every target: the target enters through its matrix
// atom (the tile layer: MFMA on gfx942 / gfx950, mma.sync on sm_90, the
// same atoms executed by the emulators) and its wave size.
//
// prep, one workgroup per (chunk, value head, sequence):
//   G    = chunk-local cumulative sum of the gate            (LDS, f32)
//   A_kk, A_qk (C x C): off-diagonal 16-row blocks by atoms, anchored at
//        the first row m of the row block (both exponents G_i - G_m and
//        G_m - G_j are <= 0); diagonal blocks pairwise (exp(G_i - G_j),
//        never a product of two exponentials that could overflow)
//   T    = (I + A_kk)^-1 by forward substitution             (LDS, in place)
//   W    = T diag(b) (K o exp G),  U = T diag(b) V             (atoms)
//   and the scan's operands q o exp(G) scale, k o exp(G_last - G),
//   exp(G_last), written per token to the workspace.
// scan, one workgroup per (block of state columns, value head, sequence),
// the state block in LDS (f32), per chunk:
//   V_new = U - W S;  O = (q o exp G) S + A_qk V_new;
//   S     = diag(exp G_last) S + (k o exp(G_last - G))^T V_new.
// Every product is an atom on f32 operands split into two 16-bit halves
// (TileLayer.h, emitMmaSplitInto), so the chunk path keeps f32 accuracy. The
// scan's operands are split once, where they are written: the prep stores
// W, q o exp G, k o exp(G_last - G) and A_qk as split words, the scan keeps
// its state block's words beside the f32 block and V_new as words.
// Rows past a sequence's end are zeros by select, never loaded: a row of
// length 1 is a chunk with L = 1 and gives the recurrent result.
//
// The scan split within a sequence (segment_chunks; docs/split-scan.md),
// three stages the runtime launches instead of the scan where its cost
// model finds them cheaper for the batch (few rows and heads for the
// device). A segment s of chunks maps the state entering it
// to M_s S + B_s:
// maps, one workgroup per (block of [M | B]'s columns, value head x
//   segment, sequence): the register scan from [I | 0] with U = 0 for M's
//   columns, no output; [M_s | B_s] to the workspace;
// join, one workgroup per (16 state columns, value head, sequence), serial
//   over the segments: E_0 = the slot's state (or 0), E_{s+1} = M_s E_s +
//   B_s, each E_s to the workspace in B_s's place;
// segments, one workgroup per (block of state columns, value head x
//   segment, sequence): the register scan of the segment from E_s, with
//   the output; the last segment writes the slot.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_CHUNKKERNELBUILDER_H
#define KDA_PASSES_CHUNKKERNELBUILDER_H

#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::kda {

/// Builds the kernel of `op`'s stage as `gpu.func @name` in `module`, with
/// `kda.abi` (the operands the stage reads or writes, by their kda.chunk
/// names, and `workspace`), `kda.kind` (chunkStageKind),
/// `kda.grid` (-1: sequences, -2: the most chunks of any sequence),
/// `kda.workspace`, `kda.dynamic_lds_bytes` and `kda.tile` (the scan's with
/// its `scan_stages`). A scan at scan_stages >= 2 walks its chunks as a
/// kda.pipeline over an LDS ring (`kda.lds_buffer @<name>_scan_rows` beside
/// the kernel, inside its dynamic LDS), expanded and verified here: the
/// kernel keeps the verified kda.schedule and `kda.verified_pipeline`, and a
/// depth the verifier rejects is an op error naming the rule, pipeline,
/// depth and target. Errors name what the layer or target lacks (head dims,
/// an atom, LDS).
FailureOr<gpu::GPUFuncOp> buildChunkStageKernel(OpBuilder &builder,
                                                gpu::GPUModuleOp module,
                                                StringRef name,
                                                ChunkStageOp op,
                                                const TargetInfo &target);

/// A stage op of `chunk` before it (kda-decompose's, and kda-tune's
/// candidates built alone): the chunk's layer, config and operands, with
/// the stage's own chunk size (absent: the target's), scan_stages,
/// column block and segment_chunks. Its location is the chunk's, marked as
/// kda.chunk's (kChunkOrigin, KDAOps.h), so that its errors name the op the
/// user wrote (emitStageError).
ChunkStageOp createChunkStage(OpBuilder &builder, ChunkOp chunk,
                              ChunkStage stage, IntegerAttr chunkSize,
                              IntegerAttr scanStages,
                              std::optional<int64_t> blockV,
                              IntegerAttr segmentChunks);

/// An error at `op`, named after the op of the user's input: 'kda.chunk'
/// for a stage kda-decompose made (a user never writes kda.chunk_stage),
/// else the stage op's own name (a test's lone stage). emitLayerError.
inline InFlightDiagnostic emitStageError(ChunkStageOp op) {
  return emitLayerError(op);
}

/// The manifest's kind of a stage's kernel: chunk_prep, chunk_scan,
/// chunk_maps, chunk_join, chunk_segments.
const char *chunkStageKind(ChunkStage stage);

/// The discardable attribute markRecordRuns sets on every stage op of a
/// function whose W rows go through the workspace in run order, and
/// buildChunkStageKernel on the kernels built from them.
inline constexpr llvm::StringLiteral kRecordRunsAttr = "kda.record_runs";

/// Marks (kRecordRunsAttr) the stage ops of each function among `ops`
/// whose scans all hold W as fragment runs (TileLayer.h): the prep then
/// writes W's rows in run order and every scan stages them as runs, so a
/// compute wave loads each W fragment whole. Every stage of a function must
/// agree, so this is decided once, before any is built: where one scan of
/// the function keeps its state in LDS (gfx942, a pipelined scan) or the
/// atom has no run layout the prep could write from its accumulators, none
/// is marked.
void markRecordRuns(ArrayRef<ChunkStageOp> ops, const TargetInfo &target);

/// Whether `target` can build `op`'s stage: false only for the split
/// scan's maps and segments where the register scan does not fit (gfx942's
/// LDS), and for its join where the join's LDS does not (head_k 256 on 64
/// KiB); kda-lower-to-gpu then leaves the layer's split scan (maps, join,
/// segments) out, and the runtime runs the plain scan.
bool chunkSegmentsBuildable(ChunkStageOp op, const TargetInfo &target);

/// The chunk size a layer takes on `target` where its kda.chunk left it
/// out, from `stages` (the stage ops of one function, or one built alone):
/// the largest of 64, 32 and 16 at which the layer's prep fits the target's
/// LDS and one of `stages`' scans is built (chooseChunkScan; a pipelined
/// scan's ring counts); else the largest at which the prep fits (the scans'
/// builds name their rule), else 16 (the prep's names the LDS it lacks).
/// kda-lower-to-gpu sets it on every stage of such a function before
/// building any.
int64_t defaultChunkSize(ArrayRef<ChunkStageOp> stages,
                         const TargetInfo &target);

/// What kda-lower-to-gpu makes of one scan alternative (a column block of
/// scan_block_v) on a target.
struct ScanChoice {
  enum Kind {
    /// Built.
    Build,
    /// Buildable, but only in a form measured slower than the other
    /// blocks: a block as wide as all its workgroup's waves' slabs (128
    /// columns at K = V = 128) where the chip cannot copy its rows by
    /// per-thread async pieces (ChunkPlan::selfStaged), or a warpgroup scan
    /// on a chip without warpgroup atoms.
    Slow,
    /// Not buildable on the target (its LDS, its atoms, a pipelined ring
    /// over the LDS).
    Unfit,
  };
  Kind kind = Build;
  /// Why, for Slow and Unfit.
  std::string why;
};
/// Classifies `op`'s scan on `target`. kda-lower-to-gpu builds a function's
/// Build scans and leaves its others out; with none, it keeps the Unfit
/// ones (their builds name the rule they break), and with only Slow ones it
/// refuses the layer on that target, listing why for each block.
ScanChoice chooseChunkScan(ChunkStageOp op, const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_CHUNKKERNELBUILDER_H
