// kda.mma errors on gfx950: NVIDIA's atom is not a gfx950 atom; a gfx950
// double-k atom takes 8 bf16 per lane.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms --verify-diagnostics

gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  gpu.func @not_on_chip(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    // expected-error @+2 {{uses the matrix atom mma_sync_f32_16x8x16_bf16 (mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32), which gfx950 does not have; gfx950 has: mfma_f32_16x16x16_bf16}}
    // expected-error @+1 {{has no lowering on gfx950}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  gpu.func @wrong_length(%a: vector<4xbf16>, %b: vector<8xbf16>, %c: vector<16xf32>) kernel {
    // expected-error @+1 {{operand A of mfma_f32_32x32x16_bf16 is a fragment of 8 elements per lane, got 'vector<4xbf16>'}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_32x32x16_bf16>} : vector<4xbf16>, vector<8xbf16>, vector<16xf32> -> vector<16xf32>
    gpu.return
  }
}
