// kda.mma errors on sm_90: an MFMA is not an sm_90 atom; mma.sync m16n8k16
// takes 4 bf16 of B per lane.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms --verify-diagnostics

gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @not_on_chip(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    // expected-error @+2 {{uses the matrix atom mfma_f32_16x16x16_bf16 (v_mfma_f32_16x16x16_bf16), which sm_90 does not have; sm_90 has: mma_sync_f32_16x8x16_bf16 (16x8x16 bf16 -> f32)}}
    // expected-error @+1 {{has no lowering on sm_90}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @wrong_length(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>) kernel {
    // expected-error @+1 {{operand B of mma_sync_f32_16x8x16_bf16 is a fragment of 4 elements per lane, got 'vector<8xbf16>'}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
    gpu.return
  }
}
