// kda.mma errors on the emulators: each executes only the atoms of the chip
// it stands for, and needs a target to know which.
// RUN: kda-opt %s --split-input-file --kda-gpu-to-emu --verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu">} {
    gpu.func @k(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>) kernel {
      // expected-error @+1 {{uses the matrix atom mfma_f32_16x16x32_bf16 (v_mfma_f32_16x16x32_bf16), which gfx942 does not have (target emu executes gfx942's atoms); gfx942 has: mfma_f32_16x16x16_bf16}}
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x32_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu950">} {
    gpu.func @k(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
      // expected-error @+1 {{which gfx950 does not have (target emu950 executes gfx950's atoms)}}
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @k(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
      // expected-error @+1 {{which sm_90 does not have (target emu32 executes sm_90's atoms); sm_90 has: mma_sync_f32_16x8x16_bf16 (16x8x16 bf16 -> f32)}}
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @k(%a: vector<8xbf16>, %b: vector<2xbf16>, %c: vector<4xf32>) kernel {
      // expected-error @+1 {{operand B of mma_sync_f32_16x8x16_bf16 is a fragment of 4 elements per lane, got 'vector<2xbf16>'}}
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<2xbf16>, vector<4xf32> -> vector<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) kernel {
      // expected-error @+1 {{needs the kernel's target (kda.target on its gpu.module)}}
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
      gpu.return
    }
  }
}
