#ifndef KDA_PIPELINE_OPS_TD
#define KDA_PIPELINE_OPS_TD

// Software pipelines over LDS ring buffers (PIPELINE-SAFETY.md). Two levels:
//  - kda.pipeline: a loop whose producers (global -> LDS copies) and
//    consumers (LDS reads) carry stage annotations and a requested depth;
//  - the expanded form kda-expand-pipeline writes and kda-verify-pipeline
//    checks: a kda.schedule holding explicit copies, waits, drains and
//    barriers (also written by hand, or by other generators).

include "kda/Dialect/KDA/KDAAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
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

def KDA_ProduceOp : KDA_PipeOp<"produce", [HasParent<"PipelineOp">, NoTerminator]> {
  let summary = "The producer of a pipeline: a global -> LDS copy per iteration";
  let description = [{
    ```mlir
    kda.produce @tokens async stage(0) do {
    ^bb0(%iter: index, %slot: index):
      kda.copy_row %q[%off] to %lds[%at] elems(128) : memref<?xbf16>, memref<9216xi8, 3>
    }
    ```
    The optional body is the copy itself, for iteration `%iter` into ring
    slot `%slot`: kda.copy_row atoms (and the index arithmetic they need).
    kda-expand-pipeline clones it into each kda.async_copy / kda.staged_copy
    of the schedule, so the verified schedule carries the real copies and
    the target lowering emits exactly them.
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer, UnitAttr:$async,
                       I64Attr:$stage);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$buffer (`async` $async^)? `stage` `(` $stage `)` attr-dict (`do` $body^)?";
  let hasRegionVerifier = 1;
  let hasVerifier = 1;
}

def KDA_ConsumeOp : KDA_PipeOp<"consume", [HasParent<"PipelineOp">, NoTerminator]> {
  let summary = "The consumer of a pipeline: LDS reads of an iteration's tile";
  let description = [{
    The optional body (block arguments `%iter`, `%slot`) is the consumer's
    computation on the tile of iteration `%iter` in ring slot `%slot`;
    kda-expand-pipeline clones it into each kda.lds_read of the schedule.
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer, I64Attr:$stage);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$buffer `stage` `(` $stage `)` attr-dict (`do` $body^)?";
  let hasRegionVerifier = 1;
  let hasVerifier = 1;
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
  let hasVerifier = 1;
}

def KDA_RingSlotOp : KDA_PipeOp<"ring_slot", [Pure,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "The slot of `buffer` that holds iteration `iter`: iter mod slots";
  let description = [{
    The lowerings take the remainder unsigned, so every slot lies in
    [0, slots) whatever `iter` is; its range says so (the pipeline
    verifier's checks of read bodies enumerate a slot they cannot evaluate
    over that range).
  }];
  let arguments = (ins Index:$iter, FlatSymbolRefAttr:$buffer);
  let results = (outs Index:$slot);
  let assemblyFormat = "$iter `of` $buffer attr-dict";
}

def KDA_AsyncCopyOp : KDA_PipeOp<"async_copy", [NoTerminator]> {
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
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `iter` `(` $iter `)` (`if` `(` $pred^ `)`)? attr-dict (`do` $body^)?
  }];
  let hasVerifier = 1;
}

def KDA_StagedCopyOp : KDA_PipeOp<"staged_copy", [NoTerminator]> {
  let summary = "A register-staged copy: global load, then LDS store (lands at the store)";
  let description = [{
    The optional body holds the copy's kda.copy_row atoms (cloned from the
    kda.produce body), executed only when `pred` holds.
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer, Index:$slot, Index:$iter,
                       Optional<I1>:$pred);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `iter` `(` $iter `)` (`if` `(` $pred^ `)`)? attr-dict (`do` $body^)?
  }];
  let hasVerifier = 1;
}

def KDA_AsyncWaitOp : KDA_PipeOp<"async_wait"> {
  let summary = "Wait until at most `count` copy groups of this thread are outstanding";
  let arguments = (ins I64Attr:$count);
  let assemblyFormat = "$count attr-dict";
  let hasVerifier = 1;
}

def KDA_LdsReadOp : KDA_PipeOp<"lds_read", [NoTerminator]> {
  let summary = "A consumer's read of the tile of iteration `iter` from a slot";
  let description = [{
    The optional body is the consumer's computation on the tile (cloned from
    the kda.consume body); the verifier treats the op as one read of the
    slot, the lowering inlines the body where the schedule placed the read.
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer, Index:$slot, Index:$iter);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$buffer `[` $slot `]` `iter` `(` $iter `)` attr-dict (`do` $body^)?";
  let hasVerifier = 1;
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

def KDA_CopyRowOp : KDA_PipeOp<"copy_row"> {
  let summary = "Copy atom: one contiguous row from global memory into LDS, by the workgroup";
  let description = [{
    ```mlir
    kda.copy_row %src[%offset] to %lds[%byte] elems(128) atom(cp_async)
        : memref<?xbf16>, memref<9216xi8, #gpu.address_space<workgroup>>
    ```
    Copies `elems` contiguous elements of `src` starting at `offset` into the
    LDS bytes at `byte` of `lds`, cooperatively by the workgroup's threads,
    with the chip's copy atom:
    - `staged`: 16-byte pieces round-robin over the threads, loaded into
      registers and stored to LDS (the bytes land at the store);
    - `cp_async`: the same pieces by `cp.async.cg` (sm_90); they land at
      the `kda.async_wait` that covers their group;
    - `global_load_lds`: the first wave issues one `global_load_lds_dwordx4`
      per wave-size x 16 bytes of the row (gfx950): each lane its 16 bytes
      from its own address into a contiguous region from a wave-uniform base,
      so the destination is padded to that region (lanes past the row read
      the row's first pieces again and fill the padding); vmcnt counts each
      instruction.
    It lives in the body of a kda.produce (no atom yet: kda-expand-pipeline
    sets the atom of the copy it clones it into: `staged` in a staged copy,
    the target's async atom in an async copy), or is written by hand with an
    atom for lit tests. `offset` counts elements, `byte` bytes; both rows
    must be 16-byte aligned and 16-byte multiples.
  }];
  let arguments = (ins AnyMemRef:$src, Index:$offset, AnyMemRef:$lds,
                       Index:$byte, I64Attr:$elems,
                       OptionalAttr<KDA_CopyAtomAttr>:$atom);
  let assemblyFormat = [{
    $src `[` $offset `]` `to` $lds `[` $byte `]` `elems` `(` $elems `)`
    (`atom` `(` $atom^ `)`)? attr-dict `:` type($src) `,` type($lds)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes of the row.
    int64_t getRowBytes();
  }];
}

def KDA_CopyPieceOp : KDA_PipeOp<"copy_piece"> {
  let summary = "Copy atom: one 16-byte piece from global memory into LDS, by the calling thread";
  let description = [{
    ```mlir
    kda.copy_piece %src[%offset] to %lds[%index] if (%valid) atom(cp_async)
        : memref<?xf32>, memref<4096xf32, #gpu.address_space<workgroup>>
    ```
    The calling thread copies the 16 bytes of `src` from element `offset`
    into `lds` from element `index`, each thread its own piece at its own
    place (where `kda.copy_row` deals a contiguous row's pieces over the
    workgroup). Where `valid` is false it writes 16 zero bytes instead and
    reads nothing. With the chip's per-thread atom:
    - `staged`: a load into registers and a store (the bytes land at the
      store);
    - `cp_async`: `cp.async.cg` (sm_90; src-size 0 where not valid): the
      bytes land by the calling thread's next `kda.copy_fence`, and until
      then they are the copy's: nothing may read or write them.
    `global_load_lds` writes a wave's pieces to one contiguous region from a
    wave-uniform base, so it is not a per-thread atom and is refused. Both
    memrefs are flat, of one element type, `lds` in workgroup memory;
    `offset` and `index` count elements and must fall on 16 bytes.
  }];
  let arguments = (ins AnyMemRef:$src, Index:$offset, AnyMemRef:$lds,
                       Index:$index, I1:$valid, KDA_CopyAtomAttr:$atom);
  let assemblyFormat = [{
    $src `[` $offset `]` `to` $lds `[` $index `]` `if` `(` $valid `)`
    `atom` `(` $atom `)` attr-dict `:` type($src) `,` type($lds)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Elements of the piece (16 bytes of them).
    int64_t getPieceElems();
  }];
}

def KDA_CopyFenceOp : KDA_PipeOp<"copy_fence"> {
  let summary = "The calling thread's kda.copy_piece pieces have landed";
  let description = [{
    Every `cp_async` piece the calling thread issued before it has landed
    (sm_90: `cp.async.commit_group` then `cp.async.wait_group 0`). Staged
    pieces land at their stores: on chips without a per-thread async copy it
    is nothing. It orders the thread's own pieces only: other threads see
    them after a barrier that follows it.
  }];
  let assemblyFormat = "attr-dict";
}

def KDA_PrefetchRowOp : KDA_PipeOp<"prefetch_row"> {
  let summary = "Hint: bring one contiguous row of global memory toward the chip's L2";
  let description = [{
    ```mlir
    kda.prefetch_row %src[%offset] elems(704) : memref<?xf32>
    ```
    Asks the memory system to fetch `elems` contiguous elements of `src`
    from `offset` (elements) into the chip's L2, for a later load. Values
    are not affected and nothing waits for it. sm_90: one
    `prefetch.global.L2` per 128-byte line of the row; gfx942 and gfx950
    have no L2 prefetch, and the emulators model no cache: there it lowers
    to nothing. The row is a 16-byte multiple (rows of records). Issued by
    one thread a row, wherever the builder decides (the chunk scan: the
    next chunk's workspace records while the current chunk computes).
  }];
  // No declared effects: an op that only read memory and had no results
  // would be trivially dead, and the hint would vanish before lowering.
  let arguments = (ins AnyMemRef:$src, Index:$offset, I64Attr:$elems);
  let assemblyFormat = [{
    $src `[` $offset `]` `elems` `(` $elems `)` attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes of the row.
    int64_t getRowBytes();
  }];
}

#endif // KDA_PIPELINE_OPS_TD
