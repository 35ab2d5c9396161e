// The config enumerator: every (stages, warps, block scale) of a pipeline on
// a target, safe or rejected with the reason. fla's recompute_w_u shape
// (u then w tiles of 64x64 bf16, sharing bytes) on gfx950 and gfx942.
// RUN: kda-opt %s --kda-enumerate-pipeline-configs=target=gfx950 -o /dev/null | FileCheck %s
// RUN: kda-opt %s --kda-enumerate-pipeline-configs=target=gfx942 -o /dev/null | FileCheck %s --check-prefix=GFX942

// CHECK: pipeline 'u' on gfx950 (163840 bytes of LDS, async copy yes):
// CHECK: stages=1 warps=1 block=x1: safe
// CHECK: stages=4 warps=16 block=x2: safe
// CHECK: pipeline 'kv' on gfx950
// CHECK: stages=2 warps=4 block=x2: safe
// CHECK: stages=3 warps=1 block=x2: rejected: R6: the ring buffers need 196608 bytes of LDS (@u 1 x 8192, @k 3 x 32768, @v 3 x 32768) but gfx950 has 163840 (pipeline 'kv' at depth 3)

// 3 and 4 stages of two 32 KiB tiles (block x2) exceed gfx942's 64 KiB. R6
// counts every ring of the kernel, the other pipeline's @u too (it shares
// bytes with @k, so the total is the extent of the layout).
// GFX942: pipeline 'kv' on gfx942 (65536 bytes of LDS, async copy no):
// GFX942: stages=1 warps=1 block=x2: safe
// GFX942: stages=2 warps=1 block=x2: rejected: R6: the ring buffers need 131072 bytes of LDS (@u 1 x 8192, @k 2 x 32768, @v 2 x 32768) but gfx942 has 65536 (pipeline 'kv' at depth 2)
// GFX942: stages=3 warps=4 block=x1: rejected: R6: the ring buffers need 98304 bytes of LDS (@u 1 x 8192, @k 3 x 16384, @v 3 x 16384) but gfx942 has 65536 (pipeline 'kv' at depth 3)
// GFX942-NOT: warps=32
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @k slots(1) slot_bytes(16384) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(16384) offset(0)
func.func @kernels() {
  kda.pipeline "u" trip_count(2) depth(4) {
    kda.produce @u async stage(0)
    kda.consume @u stage(3)
  }
  kda.pipeline "kv" trip_count(16) depth(2) {
    kda.produce @k async stage(0)
    kda.produce @v async stage(0)
    kda.consume @k stage(1)
    kda.consume @v stage(1)
  }
  return
}
