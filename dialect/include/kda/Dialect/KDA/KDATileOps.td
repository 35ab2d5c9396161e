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
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A [m, k], bf16", [MemRead]>:$a,
    Arg<AnyMemRef, "B [k, n], bf16", [MemRead]>:$b,
    Arg<AnyMemRef, "C [m, n], f32", [MemWrite]>:$c,
    I64Attr:$m, I64Attr:$n, I64Attr:$k,
    UnitAttr:$masked, UnitAttr:$dynamic_lds);
  let assemblyFormat = [{
    `a` `(` $a `:` type($a) `)` `b` `(` $b `:` type($b) `)`
    `c` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
}

#endif // KDA_TILE_OPS_TD
