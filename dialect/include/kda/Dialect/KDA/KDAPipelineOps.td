#ifndef KDA_PIPELINE_OPS_TD
#define KDA_PIPELINE_OPS_TD

// Software pipelines over LDS ring buffers (PIPELINE-SAFETY.md). Two levels:
//  - kda.pipeline: a loop whose producers (global -> LDS copies) and
//    consumers (LDS reads) carry stage annotations and a requested depth;
//  - the expanded form kda-expand-pipeline writes and kda-verify-pipeline
//    checks: a kda.schedule holding explicit copies, waits, drains and
//    barriers (also written by hand, or by other generators).

include "kda/Dialect/KDA/KDADialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class KDA_PipeOp<string mnemonic, list<Trait> traits = []>
    : Op<KDA_Dialect, mnemonic, traits>;

def KDA_LdsBufferOp : KDA_PipeOp<"lds_buffer", [Symbol]> {
  let summary = "An LDS ring buffer: `slots` slots of `slot_bytes` at `offset`";
  let description = [{
    ```mlir
    kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
    ```
    Two buffers may share bytes (their [offset, offset + slots * slot_bytes)
    ranges overlap) only if their live ranges, in-flight async copies
    included, do not overlap; kda-verify-pipeline checks that.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$slots,
                       I64Attr:$slot_bytes, DefaultValuedAttr<I64Attr, "0">:$offset);
  let assemblyFormat = [{
    $sym_name `slots` `(` $slots `)` `slot_bytes` `(` $slot_bytes `)`
    `offset` `(` $offset `)` attr-dict
  }];
  let hasVerifier = 1;
}

def KDA_PipelineOp : KDA_PipeOp<"pipeline", [NoTerminator, SingleBlock]> {
  let summary = "A software-pipelined loop over LDS ring buffers";
  let description = [{
    ```mlir
    kda.pipeline "u_loop" trip_count(2) depth(3) {
      kda.produce @u async stage(0)
      kda.consume @u stage(1)
    }
    ```
    Iteration i copies the tile of every `kda.produce` into its buffer and
    reads it back in every `kda.consume`. `depth` is the requested number of
    stages: the copy for iteration i + depth - 1 is issued while iteration i
    is consumed, so each buffer needs `depth` slots. A static `trip_count`
    gives an exact expansion; `trip_count(?)` is dynamic (the chunk scan).
    kda-expand-pipeline turns it into a kda.schedule and verifies it.
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$depth,
                       OptionalAttr<I64Attr>:$trip_count,
                       Optional<Index>:$dynamic_trip_count);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`trip_count` `(` $trip_count^ `)`)?
    (`dynamic_trip_count` `(` $dynamic_trip_count^ `)`)?
    `depth` `(` $depth `)` $body attr-dict
  }];
  let hasVerifier = 1;
}

def KDA_ProduceOp : KDA_PipeOp<"produce", [HasParent<"PipelineOp">]> {
  let summary = "The producer of a pipeline: a global -> LDS copy per iteration";
  let arguments = (ins FlatSymbolRefAttr:$buffer, UnitAttr:$async,
                       I64Attr:$stage);
  let assemblyFormat = "$buffer (`async` $async^)? `stage` `(` $stage `)` attr-dict";
}

def KDA_ConsumeOp : KDA_PipeOp<"consume", [HasParent<"PipelineOp">]> {
  let summary = "The consumer of a pipeline: LDS reads of an iteration's tile";
  let arguments = (ins FlatSymbolRefAttr:$buffer, I64Attr:$stage);
  let assemblyFormat = "$buffer `stage` `(` $stage `)` attr-dict";
}

def KDA_ScheduleOp : KDA_PipeOp<"schedule", [NoTerminator, SingleBlock]> {
  let summary = "An expanded pipeline: the region kda-verify-pipeline checks";
  let description = [{
    Holds explicit copies, waits, drains, barriers and reads, inside scf.for
    / scf.if with index arithmetic the verifier evaluates. `depth` is the
    requested depth (for diagnostics); `trip_count` the static trip count
    when there is one, else `dynamic_trip_count` is the loop bound operand
    and the verifier checks trip counts 0..depth+1 and a steady state.
    `target` names the codegen target whose LDS capacity applies (R6).
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$depth,
                       OptionalAttr<I64Attr>:$trip_count,
                       Optional<Index>:$dynamic_trip_count,
                       DefaultValuedAttr<StrAttr, "\"gfx942\"">:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`trip_count` `(` $trip_count^ `)`)?
    (`dynamic_trip_count` `(` $dynamic_trip_count^ `)`)?
    `depth` `(` $depth `)` `target` `(` $target `)` $body attr-dict
  }];
}

def KDA_RingSlotOp : KDA_PipeOp<"ring_slot", [Pure]> {
  let summary = "The slot of `buffer` that holds iteration `iter`: iter mod slots";
  let arguments = (ins Index:$iter, FlatSymbolRefAttr:$buffer);
  let results = (outs Index:$slot);
  let assemblyFormat = "$iter `of` $buffer attr-dict";
}

def KDA_AsyncCopyOp : KDA_PipeOp<"async_copy"> {
  let summary = "Issue an async global -> LDS copy of iteration `iter` into a slot";
  let description = [{
    Commits one copy group. The bytes may land at any time until a
    `kda.async_wait` leaves fewer groups outstanding. With a false `pred` the
    group is empty (writes nothing) but still counts. Lowers to
    global_load_lds (gfx950), cp.async (sm_90); gfx942 and the emulator have
    no async copy and use kda.staged_copy.
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer, Index:$slot, Index:$iter,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `iter` `(` $iter `)` (`if` `(` $pred^ `)`)? attr-dict
  }];
}

def KDA_StagedCopyOp : KDA_PipeOp<"staged_copy"> {
  let summary = "A register-staged copy: global load, then LDS store (lands at the store)";
  let arguments = (ins FlatSymbolRefAttr:$buffer, Index:$slot, Index:$iter,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `iter` `(` $iter `)` (`if` `(` $pred^ `)`)? attr-dict
  }];
}

def KDA_AsyncWaitOp : KDA_PipeOp<"async_wait"> {
  let summary = "Wait until at most `count` copy groups of this thread are outstanding";
  let arguments = (ins I64Attr:$count);
  let assemblyFormat = "$count attr-dict";
}

def KDA_LdsReadOp : KDA_PipeOp<"lds_read"> {
  let summary = "A consumer's read of the tile of iteration `iter` from a slot";
  let arguments = (ins FlatSymbolRefAttr:$buffer, Index:$slot, Index:$iter);
  let assemblyFormat = "$buffer `[` $slot `]` `iter` `(` $iter `)` attr-dict";
}

def KDA_LdsDrainOp : KDA_PipeOp<"lds_drain"> {
  let summary = "Wait for this thread's LDS operations (lgkmcnt(0))";
  let assemblyFormat = "attr-dict";
}

def KDA_BarrierOp : KDA_PipeOp<"barrier"> {
  let summary = "A bare workgroup barrier (does not order a wave's pending LDS reads)";
  let assemblyFormat = "attr-dict";
}

def KDA_LdsBarrierOp : KDA_PipeOp<"lds_barrier"> {
  let summary = "A drained barrier: LDS drain, then workgroup barrier";
  let assemblyFormat = "attr-dict";
}

#endif // KDA_PIPELINE_OPS_TD
