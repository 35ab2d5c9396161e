// kda-expand-pipeline fails on an unsafe depth (seed 6 as a pipeline: three
// stages of 16 KiB K and V tiles on gfx942), naming the rule; a safe depth of
// the same loop passes; verify=false skips the check (to study races).
// RUN: not kda-opt %s --kda-expand-pipeline=target=gfx942 2>&1 | FileCheck %s
// RUN: sed -e 's/depth(3)/depth(2)/' -e 's/stage(2)/stage(1)/' %s | kda-opt --kda-expand-pipeline=target=gfx942 | FileCheck %s --check-prefix=SAFE
// RUN: kda-opt %s --kda-expand-pipeline="target=gfx942 verify=false" | FileCheck %s --check-prefix=UNCHECKED
// RUN: kda-opt %s --kda-expand-pipeline=target=gfx950 | FileCheck %s --check-prefix=GFX950

// CHECK: error: R6: the ring buffers need 98304 bytes of LDS (@k 3 x 16384, @v 3 x 16384) but gfx942 has 65536 (pipeline 'attn_kv' at depth 3)
// SAFE: kda.schedule "attn_kv" trip_count(16) depth(2) target("gfx942")
// UNCHECKED: kda.schedule "attn_kv" trip_count(16) depth(3) target("gfx942")
// GFX950: kda.schedule "attn_kv" trip_count(16) depth(3) target("gfx950")
kda.lds_buffer @k slots(1) slot_bytes(16384) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(16384) offset(0)
func.func @attn() {
  kda.pipeline "attn_kv" trip_count(16) depth(3) {
    kda.produce @k async stage(0)
    kda.produce @v async stage(0)
    kda.consume @k stage(2)
    kda.consume @v stage(2)
  }
  return
}
