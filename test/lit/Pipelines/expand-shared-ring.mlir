// Expansion sizes and places a pipeline's rings from its own depth and trip
// count (kda.lds_buffer's slots and offset). Two pipelines naming one ring
// would resize it under each other - the last expanded wins, and the first
// pipeline's schedule would be checked against a ring it did not ask for -
// so a ring named by another op is refused, naming that op; one ring a
// pipeline is expanded as before.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-expand-pipeline=target=gfx950

gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @k slots(1) slot_bytes(8192) offset(0)
  gpu.func @kv() kernel {
    // expected-error @+1 {{'kda.pipeline' op shares LDS buffer @k with pipeline 'kv2': expansion sizes a pipeline's rings from its own depth and trip count, so each pipeline needs its own kda.lds_buffer}}
    kda.pipeline "kv" trip_count(6) depth(3) {
      // expected-note @+1 {{the other use}}
      kda.produce @k async stage(0)
      kda.consume @k stage(2)
    }
    gpu.return
  }
  gpu.func @kv2() kernel {
    // expected-error @+1 {{'kda.pipeline' op shares LDS buffer @k with pipeline 'kv'}}
    kda.pipeline "kv2" trip_count(2) depth(3) {
      // expected-note @+1 {{the other use}}
      kda.produce @k async stage(0)
      kda.consume @k stage(2)
    }
    gpu.return
  }
}

// -----

gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @k slots(1) slot_bytes(8192) offset(0)
  kda.lds_buffer @k2 slots(1) slot_bytes(8192) offset(0)
  gpu.func @kv() kernel {
    kda.pipeline "kv" trip_count(6) depth(3) {
      kda.produce @k async stage(0)
      kda.consume @k stage(2)
    }
    gpu.return
  }
  gpu.func @kv2() kernel {
    kda.pipeline "kv2" trip_count(2) depth(3) {
      kda.produce @k2 async stage(0)
      kda.consume @k2 stage(2)
    }
    gpu.return
  }
}

// -----

// Expanded for one target inside a module compiled for another: refused.
gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @k slots(1) slot_bytes(8192) offset(0)
  gpu.func @mismatch() kernel {
    // expected-error @+1 {{'kda.pipeline' op is expanded for target 'gfx950' but its module is compiled for 'gfx942' (kda.target)}}
    kda.pipeline "p" trip_count(4) depth(2) {
      kda.produce @k async stage(0)
      kda.consume @k stage(1)
    }
    gpu.return
  }
}
