// kda.mma errors on gfx942: an atom the chip does not have (named with what
// it has), and fragments whose length or type the atom does not take.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms --verify-diagnostics

gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @not_on_chip(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    // expected-error @+2 {{uses the matrix atom mfma_f32_16x16x32_bf16 (v_mfma_f32_16x16x32_bf16), which gfx942 does not have; gfx942 has: mfma_f32_16x16x16_bf16 (16x16x16 bf16 -> f32), mfma_f32_32x32x8_bf16 (32x32x8 bf16 -> f32)}}
    // expected-error @+1 {{has no lowering on gfx942}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x32_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @wrong_length(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
    // expected-error @+1 {{operand A of mfma_f32_16x16x16_bf16 is a fragment of 4 elements per lane, got 'vector<8xbf16>'}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @wrong_accumulator(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
    // expected-error @+1 {{operand C of mfma_f32_32x32x8_bf16 is a fragment of 16 elements per lane, got 'vector<4xf32>'}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_32x32x8_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @f16_operands(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<4xf32>) kernel {
    // expected-error @+1 {{operand A of mfma_f32_16x16x16_bf16 holds bf16, got 'vector<4xf16>'}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @unknown_kind(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
    // expected-error @+1 {{unknown matrix atom 'mfma_f32_64x64x4_bf16' (known: mfma_f32_16x16x16_bf16, mfma_f32_32x32x8_bf16, mfma_f32_16x16x32_bf16, mfma_f32_32x32x16_bf16, mma_sync_f32_16x8x16_bf16, wgmma_f32_64x16x16_bf16, wgmma_f32_64x32x16_bf16, wgmma_f32_64x64x16_bf16, wgmma_f32_64x128x16_bf16)}}
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_64x64x4_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    gpu.return
  }
}
