// kda-bench --prefill on a chunk layer (the emulator, emu32): the whole
// path's time, then each stage of the chunk plan alone (the prep, the scan
// the runtime picked; kda_plan_launch_range), in the table and the JSON.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_k3.mlir --targets=emu32 -o %t -q
// RUN: kda-bench --backend emu --target emu32 --bundle %t --kernel chunk_k3 --prefill 1x100,2x70 --reps 1 --json %t/prefill.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/prefill.json

// CHECK: kda-bench: chunk_k3 ({{.*}}) on emu32: H 2, HV 2, K 64, V 32
// CHECK-NEXT: batch rows tokens time ms prep ms scan ms scan
// CHECK-NEXT: 1x100 1 100 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed
// CHECK-NEXT: 2x70 2 140 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed

// JSON: "prefill_1x100": {"ms": {{[0-9.]+}}, "prep_ms": {{[0-9.]+}}, "scan_ms": {{[0-9.]+}}, "tokens": 100, "scan": "kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed"}
// JSON: "prefill_2x70": {"ms": {{[0-9.]+}}, "prep_ms": {{[0-9.]+}}, "scan_ms": {{[0-9.]+}}, "tokens": 140, "scan": "kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed"}

// --all-scans: after each batch's row, every way after the prep whatever
// the shape picks (kda_plan_add_chunk_scan): chunk_k3's two scans, then
// its split scan (by its first stage, the maps; segment_chunks' default).
// RUN: kda-bench --backend emu --target emu32 --bundle %t --kernel chunk_k3 --prefill 2x70 --reps 1 --all-scans --json %t/all.json | FileCheck %s --check-prefix=ALL
// RUN: FileCheck %s --check-prefix=ALLJSON --input-file=%t/all.json
// RUN: not kda-bench --backend emu --target emu32 --bundle %t --kernel chunk_k3 --all-scans 2>&1 | FileCheck %s --check-prefix=NOPREFILL
// RUN: not kda-bench --backend emu --target emu32 --bundle %t --kernel chunk_k3_recurrent --prefill 2x70 --all-scans 2>&1 | FileCheck %s --check-prefix=NOTCHUNK
// ALL: batch rows tokens time ms prep ms scan ms scan
// ALL-NEXT: 2x70 2 140 {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed
// ALL-NEXT: (alternative) {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed
// ALL-NEXT: (alternative) {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_scan_v32_kd{{[0-9a-f]+}}_packed
// ALL-NEXT: (alternative) {{[0-9.]+}} {{[0-9.]+}} kda_chunk_k3_maps_v32_kd{{[0-9a-f]+}}_packed
// ALL-NOT: (alternative)
// ALLJSON: "prefill_2x70": {{{.*}}"scan": "kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed", "alternatives": [{"scan": "kda_chunk_k3_scan_kd{{[0-9a-f]+}}_packed", "ms": {{[0-9.]+}}, "after_prep_ms": {{[0-9.]+}}}, {"scan": "kda_chunk_k3_scan_v32_kd{{[0-9a-f]+}}_packed", {{.*}}}, {"scan": "kda_chunk_k3_maps_v32_kd{{[0-9a-f]+}}_packed", {{.*}}}]}
// NOPREFILL: kda-bench: --all-scans times a chunk layer's --prefill batches
// NOTCHUNK: kda-bench: --all-scans: chunk_k3_recurrent is not a chunk layer (it has no scan alternatives)
