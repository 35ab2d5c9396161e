// sm_90 kernels address LDS with 32-bit pointers (LLVM NVPTX's
// nvptx-short-ptr, set by configureTargetBackend in TargetPipelines.cpp):
// every instruction on shared memory (loads, stores, atomics, and the
// shared destination of cp.async, whose global source stays 64-bit) takes
// a 32-bit register address, none a 64-bit one, in kda-compile's bundles
// and kda-translate's PTX alike. An explicit -nvptx-short-ptr=false on kda-compile's command line
// wins (the 64-bit form), so the option is the one LLVM reads.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/specs/k3_lds1.mlir --targets=sm_90 -o %t/short -q
// RUN: FileCheck %s --check-prefix=SHORT --input-file=%t/short/sm_90/kda_kernels.ptx
// RUN: grep -E "\.shared" %t/short/sm_90/kda_kernels.ptx | grep -vE "^[[:space:]]*cp\.async" | not grep -E "\[%rd"
// RUN: not grep -E "^[[:space:]]*cp\.async[^[:space:]]*[[:space:]]+\[%rd" %t/short/sm_90/kda_kernels.ptx
// RUN: kda-translate --kda-to-ptx %kda_src_root/test/numeric/specs/k3_lds1.mlir -o %t/translated.ptx
// RUN: FileCheck %s --check-prefix=SHORT --input-file=%t/translated.ptx
// RUN: grep -E "\.shared" %t/translated.ptx | grep -vE "^[[:space:]]*cp\.async" | not grep -E "\[%rd"
// RUN: kda-compile %kda_src_root/test/numeric/specs/k3_lds1.mlir --targets=sm_90 -o %t/long -q -nvptx-short-ptr=false
// RUN: FileCheck %s --check-prefix=LONG --input-file=%t/long/sm_90/kda_kernels.ptx

// SHORT: {{(ld|st)}}.shared{{[.a-z0-9]*}} {{.*}}[%r{{[0-9]+}}
// LONG: {{(ld|st)}}.shared{{[.a-z0-9]*}} {{.*}}[%rd{{[0-9]+}}
