// Bundles assembled from two compiles of one function: each entry keeps its
// own symbol (its digest holds) and names its own compile's code object, so
// only a check that the entries belong together refuses them (a prober
// assembled such bundles, 2026-12-07: they opened, then wrote past the pool,
// computed another gate, or returned NaN). kda_bundle_open refuses, naming
// the field and both values:
// - a config-table variant of another layer (lower_bound), or that reads
//   rows otherwise (slot stride) than the base a batch is checked against;
// - a chunk plan whose scans come from a compile at another chunk size or
//   head count than its prep (the workspace records, their count).
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/@LB@/-5.0/;s/@ATTRS@//' %S/Inputs/assemble-rec.mlir > %t/a.mlir
// RUN: sed 's/@LB@/-1.0/;s/@ATTRS@//' %S/Inputs/assemble-rec.mlir > %t/lb.mlir
// RUN: sed 's/@LB@/-5.0/;s/@ATTRS@/{kda.slot_stride = 8192 : i64}/' %S/Inputs/assemble-rec.mlir > %t/strided.mlir
// RUN: kda-compile %t/a.mlir --targets=emu --config-table=%S/Inputs/table-assemble.json -o %t/A -q
// RUN: kda-compile %t/lb.mlir --targets=emu --config-table=%S/Inputs/table-assemble.json -o %t/LB -q
// RUN: kda-compile %t/strided.mlir --targets=emu --config-table=%S/Inputs/table-assemble.json -o %t/STRIDED -q
// RUN: kda-bench --backend emu --bundle %t/A --kernel k3 --decode 2 --reps 1 | FileCheck %s --check-prefix=WHOLE
// RUN: %python %S/Inputs/assemble-bundle.py %t/A %t/LB %t/A-LB --variants
// RUN: not kda-bench --backend emu --bundle %t/A-LB --kernel k3 --decode 2 --reps 1 2>&1 | FileCheck %s --check-prefix=LAYER
// RUN: %python %S/Inputs/assemble-bundle.py %t/A %t/STRIDED %t/A-STRIDED --variants
// RUN: not kda-bench --backend emu --bundle %t/A-STRIDED --kernel k3 --decode 2 --reps 1 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: sed 's/@HEADS@/2/g;s/@C@/64/' %S/Inputs/assemble-chunk.mlir > %t/c64.mlir
// RUN: sed 's/@HEADS@/2/g;s/@C@/16/' %S/Inputs/assemble-chunk.mlir > %t/c16.mlir
// RUN: sed 's/@HEADS@/4/g;s/@C@/64/' %S/Inputs/assemble-chunk.mlir > %t/h4.mlir
// RUN: kda-compile %t/c64.mlir --targets=emu -o %t/C64 -q
// RUN: kda-compile %t/c16.mlir --targets=emu -o %t/C16 -q
// RUN: kda-compile %t/h4.mlir --targets=emu -o %t/H4 -q
// RUN: kda-bench --backend emu --bundle %t/C64 --kernel c --prefill 1x100 --reps 1 | FileCheck %s --check-prefix=WHOLE
// RUN: %python %S/Inputs/assemble-bundle.py %t/C64 %t/C16 %t/C64-C16 --stages chunk_scan
// RUN: not kda-bench --backend emu --bundle %t/C64-C16 --kernel c --prefill 1x100 --reps 1 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: %python %S/Inputs/assemble-bundle.py %t/C64 %t/H4 %t/C64-H4 --stages chunk_scan
// RUN: not kda-bench --backend emu --bundle %t/C64-H4 --kernel c --prefill 1x100 --reps 1 2>&1 | FileCheck %s --check-prefix=HEADS

// WHOLE-NOT: error
// LAYER: kernel 'k3__n1_65535' (emu): computes another layer or dtypes than 'k3', which it stands in for (variant / base: lower_bound -1 / -5)
// ROWS: kernel 'k3__n1_65535' (emu): reads its rows otherwise than 'k3', against which a batch is checked (variant / base: slot_stride 8192 / 4096)
// SIZE: kernel 'c' (emu): stage 1 of a chunk plan must compute its prep's layer at its chunk size with its workspace (stage / prep: chunk_size 16 / 64, workspace fixed {{[0-9]+}} / 0, workspace per_token {{[0-9]+}} / {{[0-9]+}})
// HEADS: kernel 'c' (emu): stage 1 of a chunk plan must compute its prep's layer at its chunk size with its workspace (stage / prep: heads 4 / 2, value_heads 4 / 2, workspace per_token {{[0-9]+}} / {{[0-9]+}})
