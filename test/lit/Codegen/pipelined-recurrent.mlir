// A shipping kernel through kda.pipeline: the recurrent kernel with
// lds_stages = 1..4 stages each token's q, k, g rows through an LDS ring. The
// builder writes the copy (kda.produce: three kda.copy_row atoms) and the
// token step (kda.consume), expands and verifies the schedule (dynamic trip
// count), and leaves the verified kda.schedule in the kernel; kda-lower-atoms
// then lowers exactly that schedule with the target's atoms (the emulators
// keep it for kda-gpu-to-emu). Copies: register-staged on gfx942 and emu;
// cp.async.cg + commit/wait_group on sm_90 and emu32; global_load_lds from
// wave 0 on gfx950 and emu950 (one instruction per row, each row a 1 KiB
// region, so the wait is vmcnt(3 x groups); a predicated-off copy issues its
// three into a sink slot after the ring).
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=gfx942},kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=GFX942-LOW
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=gfx950},kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=GFX950
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=sm_90},kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu | FileCheck %s --check-prefix=EMU
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefix=EMU32
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu950 | FileCheck %s --check-prefix=EMU950
// RUN: rm -rf %t && kda-compile %s --targets=gfx942,gfx950,sm_90,emu,emu950,emu32 -o %t -q
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// The builder's output: the ring, the verified schedule, the copy atoms
// chosen by the schedule (staged here) with their real operands.
// GFX942: kda.lds_buffer @kda_lds1_tokens slots(1) slot_bytes(768) offset(0)
// GFX942: gpu.func @kda_lds1({{.*}}workgroup(%[[LDS:.*]] : memref<768xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) private(%{{.*}} : memref<16xf32, #gpu.address_space<private>>){{.*}}kda.verified_pipeline = "tokens: depth 1, 1 slots of 768 bytes, verified for gfx942"
// GFX942: kda.schedule "tokens" dynamic_trip_count(%{{.*}}) depth(1) target("gfx942")
// GFX942: kda.staged_copy @kda_lds1_tokens[%{{.*}}] iter(%{{.*}}) do {
// GFX942: kda.copy_row %[[Q:.*]][%[[QOFF:.*]]] to %[[LDS]][%{{.*}}] elems(128) atom({{ ?}}staged) : memref<?xbf16>, memref<768xi8, #gpu.address_space<workgroup>>
// GFX942-NEXT: arith.constant 256
// GFX942-NEXT: arith.addi
// GFX942-NEXT: kda.copy_row %[[K:.*]][%[[QOFF]]] to %[[LDS]][%{{.*}}] elems(128) atom({{ ?}}staged)
// GFX942-NEXT: arith.constant 512
// GFX942-NEXT: arith.addi
// GFX942-NEXT: kda.copy_row %[[G:.*]][%{{.*}}] to %[[LDS]][%{{.*}}] elems(128) atom({{ ?}}staged)
// GFX942: kda.lds_read @kda_lds1_tokens[%{{.*}}] iter(%{{.*}}) do {
// The q, k and g rows come from the kernel's q, k and g arguments (the
// first, second and fourth of its ABI), never one from another.
// GFX942: gpu.func @kda_lds2(%[[Q2:[a-z0-9]+]]: memref<1xbf16>, %[[K2:[a-z0-9]+]]: memref<1xbf16>, %{{[a-z0-9]+}}: memref<1xbf16>, %[[G2:[a-z0-9]+]]: memref<1xbf16>
// GFX942-DAG: %[[QV:[0-9a-z_]+]] = memref.reinterpret_cast %[[Q2]]
// GFX942-DAG: %[[KV:[0-9a-z_]+]] = memref.reinterpret_cast %[[K2]]
// GFX942-DAG: %[[GV:[0-9a-z_]+]] = memref.reinterpret_cast %[[G2]]
// GFX942: kda.copy_row %[[QV]][
// GFX942: kda.copy_row %[[KV]][
// GFX942: kda.copy_row %[[GV]][
// GFX942: gpu.func @kda_lds4({{.*}}workgroup(%{{.*}} : memref<3072xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}){{.*}}kda.verified_pipeline = "tokens: depth 4, 4 slots of 768 bytes, verified for gfx942"

// gfx942 after kda-lower-atoms: 16-byte pieces through registers, the
// drained barriers as amdgpu.lds_barrier (the one after the register-staged
// stores too: s_barrier alone does not wait for them); nothing of the
// schedule is left.
// GFX942-LOW-NOT: kda.lds_buffer
// GFX942-LOW: gpu.func @kda_lds1
// GFX942-LOW: amdgpu.lds_barrier
// GFX942-LOW: vector.load %{{.*}} : memref<?xbf16>, vector<8xbf16>
// GFX942-LOW: vector.store %{{.*}} : memref<128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// GFX942-LOW-NOT: rocdl.s.barrier
// GFX942-LOW: amdgpu.lds_barrier
// GFX942-LOW-NOT: {{^ *kda\.}}
// GFX942-LOW-NOT: amdgpu.gather_to_lds

// gfx950: each row in a 1 KiB region (a wave's 64 x 16 bytes); the ring has
// one more slot, the sink, that predicated-off copies write (of token
// min(i, T - 1)), so each group is 3 instructions and vmcnt(3 x groups)
// waits for exactly the groups the schedule names.
// GFX950: gpu.func @kda_lds1({{.*}}workgroup(%{{.*}} : memref<6144xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}){{.*}}"tokens: depth 1, 1 slots of 3072 bytes, verified for gfx950"
// GFX950-COUNT-3: amdgpu.gather_to_lds %{{.*}} : vector<8xbf16>, memref<?xbf16>, memref<512xbf16, #gpu.address_space<workgroup>>
// GFX950: amdgpu.memory_counter_wait load(0)
// GFX950: gpu.func @kda_lds3({{.*}}workgroup(%{{.*}} : memref<12288xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}){{.*}}verified for gfx950
// The prologue's copies of tokens 0 and 1 (constant iterations; their slots
// fold to the same constants): off, their rows still go to the sink, whole
// (bytes 9216, 10240, 11264), and the copy of token 1 reads token min(1,
// T - 1). Folded first, the slot, the iteration and the body's zero offset
// were one value that the clone moved: rows at byte 3, or in slot 1, of
// token 3 of a one-token sequence.
// GFX950: memref.view %{{.*}}[%c0][] : memref<12288xi8
// GFX950: } else {
// GFX950-NEXT: arith.cmpi sgt, %{{.*}}, %c0 : index
// GFX950-NEXT: scf.if
// GFX950-NOT: memref.view %{{.*}}[%c{{[0-9]+}}][] : memref<12288xi8
// GFX950: memref.view %{{.*}}[%c9216][]
// GFX950-NOT: } else {
// GFX950: memref.view %{{.*}}[%c10240][]
// GFX950-NOT: } else {
// GFX950: memref.view %{{.*}}[%c11264][]
// GFX950: } else {
// GFX950-NEXT: arith.cmpi sgt, %{{.*}}, %c0 : index
// GFX950-NEXT: scf.if
// GFX950-NEXT: %[[LAST1:.*]] = arith.subi %{{.*}}, %c1 : index
// GFX950-NEXT: %[[TOKEN1:.*]] = arith.minui %[[LAST1]], %c1 : index
// GFX950-NEXT: arith.addi %{{.*}}, %[[TOKEN1]] : index
// GFX950-NOT: memref.view %{{.*}}[%c{{[0-9]+}}][] : memref<12288xi8
// GFX950: memref.view %{{.*}}[%c9216][]
// GFX950-NOT: } else {
// GFX950: memref.view %{{.*}}[%c10240][]
// GFX950-NOT: } else {
// GFX950: memref.view %{{.*}}[%c11264][]
// GFX950: amdgpu.memory_counter_wait load(3)
// The steady state's predicated copy of iteration i + 2: if off and T > 0,
// the rows of token min(i + 2, T - 1) into the sink (slot 3, byte 9216).
// GFX950: } else {
// GFX950-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %{{.*}}, %c0 : index
// GFX950-NEXT: scf.if %[[ANY]] {
// GFX950-NEXT: %[[LAST:.*]] = arith.subi %{{.*}}, %c1 : index
// GFX950-NEXT: arith.minui %{{.*}}, %[[LAST]] : index
// GFX950: memref.view %{{.*}}[%c9216][]
// GFX950-NEXT: arith.addi
// GFX950-NEXT: amdgpu.gather_to_lds
// GFX950: gpu.func @kda_lds4({{.*}}workgroup(%{{.*}} : memref<15360xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}){{.*}}verified for gfx950
// GFX950-NOT: {{^ *kda\.}}
// SM90: gpu.func @kda_lds1({{.*}}workgroup(%{{.*}} : memref<768xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}){{.*}}verified for sm_90
// SM90: gpu.barrier
// SM90-COUNT-3: nvgpu.device_async_copy %{{.*}}, 8 {bypassL1} : memref<?xbf16> to memref<128xbf16, #gpu.address_space<workgroup>>
// SM90: nvvm.cp.async.commit.group
// SM90: nvvm.cp.async.wait.group 0
// SM90: gpu.func @kda_lds3({{.*}}verified for sm_90
// SM90: nvvm.cp.async.wait.group 1
// SM90-NOT: amdgpu.lds_barrier
// SM90-NOT: {{^ *kda\.}}
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group
// PTX: cp.async.wait_group
// MANIFEST: "lds_stages": 4,
// MANIFEST-NEXT: "mma": 0,
// MANIFEST-NEXT: "padding_below": 1,
// MANIFEST-NEXT: "shared_terms": 0,
// MANIFEST-NEXT: "slot_stride": 16384,
// MANIFEST-NEXT: "spec_tokens": 1,
// MANIFEST-NEXT: "stages": 1,
// MANIFEST-NEXT: "v_passes": 1,
// MANIFEST-NEXT: "warps": 2,
// MANIFEST-NEXT: "waves_k": 1
// MANIFEST: "name": "lds4"
// The emulators keep the ring and the schedule for kda-gpu-to-emu (their
// race detector and their chip's copy atom).
// EMU: kda.lds_buffer @kda_lds1_tokens slots(1) slot_bytes(768) offset(0)
// EMU: kda.staged_copy @kda_lds1_tokens
// EMU: kda.copy_row {{.*}} atom({{ ?}}staged)
// EMU: kda.lds_read @kda_lds1_tokens
// EMU: kda.lds_buffer @kda_lds4_tokens slots(4) slot_bytes(768) offset(0)
// EMU32: kda.async_copy @kda_lds2_tokens
// EMU32: kda.copy_row {{.*}} atom({{ ?}}cp_async)
// EMU32: kda.async_wait 0
// EMU950: kda.async_copy @kda_lds2_tokens
// EMU950: kda.copy_row {{.*}} atom({{ ?}}global_load_lds)
// FIG: gfx942 kda_lds1: {{.*}}lds_bytes 768,{{.*}}spills 0
// FIG: gfx942 kda_lds4: {{.*}}lds_bytes 3072,{{.*}}spills 0

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 64, gate = lower_bound(-5.0), qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @lds1(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x128xf32>, %o: memref<?x2x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 1> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x128xf32>) out(%o : memref<?x2x64xbf16>)
  return
}
func.func @lds2(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x128xf32>, %o: memref<?x2x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 2> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x128xf32>) out(%o : memref<?x2x64xbf16>)
  return
}
func.func @lds3(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x128xf32>, %o: memref<?x2x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 3> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x128xf32>) out(%o : memref<?x2x64xbf16>)
  return
}
func.func @lds4(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x128xf32>, %o: memref<?x2x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 4> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x128xf32>) out(%o : memref<?x2x64xbf16>)
  return
}
