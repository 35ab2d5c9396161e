// kda-compile stopped by SIGINT (Ctrl-C) part way leaves nothing: no
// staging folder beside the output, no output, no scratch folder in the
// temporary folder. (Five targets of the Kimi-K3 layer take some seconds;
// the signal comes after one.)
// RUN: rm -rf %t.d && mkdir -p %t.d/tmp
// RUN: env TMPDIR=%t.d/tmp not timeout -s INT 1 kda-compile %examples/kimi-k3-tp8.mlir --targets=gfx942,gfx950,emu,emu950,emu32 -o %t.d/out
// RUN: ls -A %t.d | FileCheck %s --check-prefix=BESIDE --allow-empty
// RUN: ls -A %t.d/tmp | FileCheck %s --check-prefix=TMP --allow-empty

// BESIDE-NOT: out
// TMP-NOT: kda-compile
