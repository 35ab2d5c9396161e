// Layers a target cannot build the chunk path of, refused at compile time
// with the rule and a way out (not left for the runtime to refuse the
// bundle at open): only scan blocks that the target runs solely in a slow
// form, or a warpgroup scan on a chip without warpgroup atoms; a prep
// over the target's LDS at an explicit chunk size, with the size that
// fits (without one, the target takes it: Chunk/default-chunk-size.mlir);
// a second kda.chunk in one function (a function is one layer: its second
// layer's scans would be chosen with the first's).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-decompose --kda-lower-to-gpu=target=emu
// RUN: kda-opt %S/Inputs/scan-block-144.mlir -verify-diagnostics --kda-decompose --kda-lower-to-gpu=target=emu32

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @bv128(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x128xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x128x64xf32>, %o: memref<?x1x128xbf16>) {
  // expected-error @+1 {{'kda.chunk' op no scan of the layer is built for emu: block_v 128: it runs fast only as the self-staged register scan (8 waves of 16 state columns, each copying its own rows), which takes per-thread async copies (cp_async), and emu has none; its LDS-resident form was measured slower and is not built (list another block in scan_block_v)}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x128xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x128x64xf32>) out(%o : memref<?x1x128xbf16>) {scan_block_v = array<i64: 128>}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @warpgroup(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op no scan of the layer is built for emu: block_v 64: warpgroup_scan takes warpgroup atoms: emu runs gfx942's atoms: gfx942 has no warpgroup matrix atom 64x64x16}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>) {scan_block_v = array<i64: 64>, warpgroup_scan}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 192, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @prep_lds(%q: memref<?x1x192xbf16>, %k: memref<?x1x192xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x192xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x192xf32>, %o: memref<?x1x32xbf16>) {
  // expected-error @+1 {{'kda.chunk' op the prep kernel needs 85504 bytes of LDS, more than emu's 65536 (chunk_size = 64, head_k = 192); it fits at chunk_size = 32 (leave chunk_size out for the largest that fits each target)}}
  kda.chunk #l q(%q : memref<?x1x192xbf16>) k(%k : memref<?x1x192xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x192xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x192xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 64 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @two(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-note @+1 {{the first}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>)
  // expected-error @+1 {{'kda.chunk' op is a second layer in function @two: a function is one layer (its kernels and manifest entries take the function's name; its chunk size and scan choice are decided once)}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>) {scan_stages = 4 : i64}
  return
}

// -----

// A decode layer and a chunk layer in one function: the chunk's stages
// (kda-decompose's, its prep standing for it) are the second layer.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @mixed(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-note @+1 {{the first}}
  kda.recurrent #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>)
  // expected-error @+1 {{'kda.chunk' op is a second layer in function @mixed: a function is one layer}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>)
  return
}
