//===- KDATileOps.td - the tile layer: matrix atoms --------*- tablegen -*-===//
//
// Target-neutral matrix atoms on per-lane fragments. A fragment is what one
// lane holds on the hardware (the atom table says which tile element each of
// its elements is); kda-lower-atoms turns kda.mma into the chip's instruction
// (amdgpu.mfma, nvvm.mma.sync) and kda-gpu-to-emu into a wave-collective
// call of the emulator with the same layout.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TILE_OPS_TD
#define KDA_TILE_OPS_TD

include "kda/Dialect/KDA/KDAAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def KDA_MmaOp : KDA_Op<"mma", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "One matrix atom of a wave: D = A B + C on fragments";
  let description = [{
    Every lane of the wave executes it together (it is a wave-collective
    operation: call it in uniform control flow). `%a`, `%b`, `%c` are the
    calling lane's fragments of the A (m x k), B (k x n) and C (m x n) tiles
    in the layouts of the atom `kind`; the result is its fragment of D.

    ```mlir
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>}
        : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    ```

    The verifier checks the fragment lengths and element types against the
    atom; whether the chip has the atom is checked where it is lowered.
  }];
  let arguments = (ins KDA_MmaKindAttr:$kind,
                       VectorOfRankAndType<[1], [BF16, F16]>:$a,
                       VectorOfRankAndType<[1], [BF16, F16]>:$b,
                       VectorOfRankAndType<[1], [F32]>:$c);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->`
    type($d)
  }];
  let hasVerifier = 1;
}

def KDA_WgmmaOp : KDA_Op<"wgmma", [AllTypesMatch<["c", "d"]>]> {
  let summary = "One warpgroup matrix atom, issued asynchronously: D = A B + C";
  let description = [{
    The four waves of a warpgroup (threads 128 g .. 128 g + 127) issue it
    together. `%a` is the calling thread's fragment of A (64 x 16, wave w
    of the group holding rows 16 w .. 16 w + 15); B (16 x n) is read by the
    tensor core from workgroup memory: `%lds` (a rank-1 i8 memref in the
    workgroup address space) from byte `%offset`, in the canonical K-major
    layout, or with `b_mn_major` the MN-major one (16 bytes of 8
    consecutive n a core-matrix row: a row-major B as it is), core matrices
    `lbo` bytes apart along k and `sbo` bytes apart along n (MmaAtoms.h,
    SharedOperandLayout); `%c` is the thread's accumulator fragment.

    The product is asynchronous: the result is in flight until a
    `kda.wgmma_wait` covering its commit group returns it, and the B bytes
    are read any time until then. So the result may only be the accumulator
    of another `kda.wgmma` (the hardware orders a chain on one accumulator)
    or an operand of `kda.wgmma_wait`.

    ```mlir
    %d = kda.wgmma %a, %lds[%off], %c
        {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256}
        : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>,
          vector<32xf32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins KDA_MmaKindAttr:$kind,
                       VectorOfRankAndType<[1], [BF16]>:$a,
                       Arg<MemRefRankOf<[I8], [1]>, "workgroup memory holding B",
                           [MemRead]>:$lds,
                       Index:$offset,
                       I64Attr:$lbo, I64Attr:$sbo, UnitAttr:$b_mn_major,
                       VectorOfRankAndType<[1], [F32]>:$c);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$d);
  let assemblyFormat = [{
    $a `,` $lds `[` $offset `]` `,` $c attr-dict `:` type($a) `,` type($lds)
    `,` type($c) `->` type($d)
  }];
  let extraClassDeclaration = [{
    ::mlir::kda::SharedOperandLayout getSharedLayout() {
      return {unsigned(getLbo()), unsigned(getSbo()), getBMnMajor()};
    }
  }];
  let hasVerifier = 1;
}

def KDA_WgmmaCommitOp : KDA_Op<"wgmma_commit"> {
  let summary = "Closes the warpgroup's commit group of the kda.wgmma issued since the last";
  let description = [{
    Every thread of the warpgroup executes it: the `kda.wgmma` it issued
    since its previous commit form one group, which `kda.wgmma_wait` counts.
  }];
  let assemblyFormat = "attr-dict";
}

def KDA_WgmmaWaitOp : KDA_Op<"wgmma_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Waits until at most `pending` commit groups are in flight";
  let description = [{
    Every thread of the warpgroup executes it. When it returns, every
    `kda.wgmma` of all but the `pending` most recent commit groups has
    finished: its B bytes are read and its result is written. The results
    are `%values`, now safe to read; each operand must be the result of a
    `kda.wgmma` whose group this wait covers.

    ```mlir
    kda.wgmma_commit
    %r:2 = kda.wgmma_wait %d0, %d1 {pending = 0}
        : vector<32xf32>, vector<32xf32>
    ```
  }];
  let arguments = (ins Variadic<VectorOfRankAndType<[1], [F32]>>:$values,
                       I64Attr:$pending);
  let results = (outs Variadic<VectorOfRankAndType<[1], [F32]>>:$results);
  let assemblyFormat = "$values attr-dict (`:` type($values)^)?";
  let hasVerifier = 1;
}

def KDA_TestTileGemmOp : KDA_Op<"test_tile_gemm"> {
  let summary = "Test spec: C = A B (or tril(A B)) through the matrix atoms";
  let description = [{
    A test-only computation that kda-lower-to-gpu turns into the tile-GEMM
    kernel (TileGemmKernelBuilder): bf16 A [m, k], bf16 B [k, n], f32 C
    [m, n], 64 x 64 output tiles per workgroup staged through LDS, each
    wave's share computed with the target's matrix atom.

    ```mlir
    kda.test_tile_gemm a(%a : memref<128x64xbf16>) b(%b : memref<64x128xbf16>)
        c(%c : memref<128x128xf32>) {m = 128, n = 128, k = 64, masked}
    ```

    `masked`: C = tril(A B) (the mask is applied on the accumulator
    fragments, element by element, from their layout). `dynamic_lds`: stage
    all of A's and B's k in dynamic shared memory (more than 48 KiB for
    k >= 256: the sm_90 opt-in path) instead of a static per-step tile.
    `warpgroup` (with `dynamic_lds`): the four waves issue the 64 x 64 tile
    as one warpgroup atom (kda.wgmma, m64n64k16) a k step, A from their
    registers, B staged K-major in the canonical core-matrix layout, or
    with `b_mn_major` (and `warpgroup`) MN-major.
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A [m, k], bf16", [MemRead]>:$a,
    Arg<AnyMemRef, "B [k, n], bf16", [MemRead]>:$b,
    Arg<AnyMemRef, "C [m, n], f32", [MemWrite]>:$c,
    I64Attr:$m, I64Attr:$n, I64Attr:$k,
    UnitAttr:$masked, UnitAttr:$dynamic_lds, UnitAttr:$warpgroup,
    UnitAttr:$b_mn_major);
  let assemblyFormat = [{
    `a` `(` $a `:` type($a) `)` `b` `(` $b `:` type($b) `)`
    `c` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
}

#endif // KDA_TILE_OPS_TD
