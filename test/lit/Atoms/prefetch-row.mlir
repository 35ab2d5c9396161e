// kda.prefetch_row, the L2 hint: on sm_90 one prefetch.global.L2 per
// 128-byte line of the row and one at its last byte (a row need not start
// on a line), through cvta.to.global (inline asm: LLVM selects its
// prefetch intrinsics only from PTX 8.0, the pipeline emits 7.8), from the
// row's byte address (aligned pointer + offset x element bytes); gfx942 and
// gfx950 have no L2 prefetch and the emulators model no cache: the hint is
// dropped there, nothing else changes.
// RUN: sed 's/@TARGET@/sm_90/' %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=SM90
// RUN: sed 's/@TARGET@/gfx942/' %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=DROP
// RUN: sed 's/@TARGET@/gfx950/' %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=DROP
// RUN: sed 's/@TARGET@/emu32/' %s | kda-opt --pass-pipeline='builtin.module(kda-gpu-to-emu)' | FileCheck %s --check-prefix=EMU

// SM90-LABEL: gpu.func @prefetch
// SM90: %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?xf32> -> index
// SM90: %[[BYTES:.*]] = arith.muli %{{.*}}, %c4 : index
// SM90: %[[SUM:.*]] = arith.addi %[[P]], %[[BYTES]] : index
// SM90: %[[ROW:.*]] = arith.index_cast %[[SUM]] : index to i64
// SM90: llvm.inline_asm has_side_effects "{ .reg .b64 g; cvta.to.global.u64 g, $0; prefetch.global.L2 [g]; }", "l" %[[ROW]] : (i64) -> ()
// SM90: %[[L1:.*]] = arith.addi %[[ROW]], %c128_i64 : i64
// SM90: llvm.inline_asm has_side_effects "{ .reg .b64 g; cvta.to.global.u64 g, $0; prefetch.global.L2 [g]; }", "l" %[[L1]] : (i64) -> ()
// SM90: %[[L2:.*]] = arith.addi %[[ROW]], %c256_i64 : i64
// SM90: llvm.inline_asm has_side_effects "{ .reg .b64 g; cvta.to.global.u64 g, $0; prefetch.global.L2 [g]; }", "l" %[[L2]] : (i64) -> ()
// SM90: %[[LAST:.*]] = arith.addi %[[ROW]], %c319_i64 : i64
// SM90: llvm.inline_asm has_side_effects "{ .reg .b64 g; cvta.to.global.u64 g, $0; prefetch.global.L2 [g]; }", "l" %[[LAST]] : (i64) -> ()
// SM90-NOT: prefetch.global.L2
// SM90-NOT: kda.prefetch_row
// SM90: gpu.return

// DROP-LABEL: gpu.func @prefetch
// DROP-NOT: kda.prefetch_row
// DROP-NOT: inline_asm
// DROP: gpu.return

// EMU-NOT: kda.prefetch_row
// EMU-NOT: prefetch.global

gpu.module @kernels attributes {kda.target = #kda.target<"@TARGET@">} {
  gpu.func @prefetch(%ws: memref<?xf32>, %t: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // 80 floats = 320 bytes: lines at 0, 128 and 256.
    kda.prefetch_row %ws[%t] elems(80) : memref<?xf32>
    gpu.return
  }
}
