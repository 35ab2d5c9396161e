// Mutation test of the verifier on the chunk scan's real schedules (the
// kernels of scan-pipeline.mlir and scan-pipeline-deep.mlir as the builder
// leaves them): every single mutant - a barrier, drained barrier or drain
// removed, a wait raised, a ring slot dropped, a copy's predicate dropped, a
// read of the wrong slot or iteration, a schedule loop wrapped in
// scf.execute_region - is rejected, at depths 2 (register-staged on gfx942,
// cp.async on sm_90), 3 and 4 (gfx950 staged, sm_90 async), and each
// dynamic schedule's proof covers every trip count.
// RUN: kda-opt %S/scan-pipeline.mlir --kda-lower-to-gpu=target=gfx942 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=D2
// RUN: kda-opt %S/scan-pipeline.mlir --kda-lower-to-gpu=target=sm_90 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=D2
// RUN: kda-opt %S/scan-pipeline-deep.mlir --kda-lower-to-gpu=target=gfx950 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=D34
// RUN: kda-opt %S/scan-pipeline-deep.mlir --kda-lower-to-gpu=target=sm_90 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=D34

// D2-NOT: SURVIVOR
// D2: schedule 'scan_rows' depth 2: every trip count proven: T < {{[0-9]+}} run
// D2: schedule 'scan_rows' depth 2: [[N:[0-9]+]] mutants, [[N]] rejected
// D2: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)
// D34-NOT: SURVIVOR
// D34: schedule 'scan_rows' depth 3: every trip count proven: T < 27 run, T = 27..29 repeat with period 3 past horizon 3
// D34: schedule 'scan_rows' depth 3: [[N3:[0-9]+]] mutants, [[N3]] rejected
// D34: schedule 'scan_rows' depth 4: every trip count proven: T < 32 run, T = 32..35 repeat with period 4 past horizon 4
// D34: schedule 'scan_rows' depth 4: [[N4:[0-9]+]] mutants, [[N4]] rejected
// D34: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)
