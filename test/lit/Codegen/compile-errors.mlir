// kda-compile refuses bad input with a clear error and writes nothing: an
// existing bundle stays as it was, and a folder that is not a bundle it
// wrote (a user's folder, a file, a link) is never replaced.
// RUN: rm -rf %t %t.user %t.link %t.file && mkdir -p %t.user && echo keep > %t.user/marker
// RUN: kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o %t -q
// RUN: cp %t/manifest.json %t.before
// RUN: not kda-compile %examples/kimi-k3-tp8.mlir --targets=gfx942,gfx1100 -o %t 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not kda-compile %s --targets=emu -o %t 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not kda-compile %t/no-such-spec.mlir --targets=emu -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env KDA_CUDA_PATH=%t/no-toolkit not kda-compile %examples/kimi-k3-tp8.mlir --targets=emu,sm_90 -o %t 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not kda-compile %examples/kimi-k3-tp8.mlir --targets=emu32,emu32 -o %t 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not kda-compile %S/../Tools/Inputs/spec-bad-name.mlir --targets=emu32 -o %t 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not kda-compile %S/../Tools/Inputs/spec-nested.mlir --targets=emu32 -o %t 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not kda-compile %S/../Tools/Inputs/spec-empty.mlir --targets=emu32 -o %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not kda-compile %S/../Tools/Inputs/spec-value-heads-65536.mlir --targets=emu32 -o %t 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: cmp %t/manifest.json %t.before
// RUN: not ls -d %t.partial-*
// A folder of the user's, a file and a link are refused before any work.
// RUN: not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o %t.user 2>&1 | FileCheck %s --check-prefix=USER
// RUN: cat %t.user/marker | FileCheck %s --check-prefix=KEPT
// RUN: echo keep > %t.file && not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o %t.file 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: cat %t.file | FileCheck %s --check-prefix=KEPT
// RUN: ln -s %t.user %t.link && not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o %t.link 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: cat %t.user/marker | FileCheck %s --check-prefix=KEPT
// Folders that only look like bundles by their entries' names: a results
// folder with a target-named subfolder, the input's own folder, a folder
// whose manifest.json no kda tool wrote. Each refused, its files kept.
// RUN: rm -rf %t.res && mkdir -p %t.res/gfx942 %t.res/sm_90 && echo keep > %t.res/gfx942/timings.csv
// RUN: not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t.res 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: cat %t.res/gfx942/timings.csv | FileCheck %s --check-prefix=KEPT
// RUN: rm -rf %t.work && mkdir -p %t.work/gfx942 && cp %kda_src_root/test/numeric/specs/k3_small.mlir %t.work/gfx942/layer.mlir
// RUN: not kda-compile %t.work/gfx942/layer.mlir --targets=emu -o %t.work 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: test -f %t.work/gfx942/layer.mlir
// RUN: rm -rf %t.web && mkdir -p %t.web/emu && echo keep > %t.web/emu/kda_kernels.notes && echo '{"name": "web app"}' > %t.web/manifest.json
// RUN: not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t.web 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: cat %t.web/emu/kda_kernels.notes | FileCheck %s --check-prefix=KEPT
// "out/" and "out/." name out (the staging folder went inside it, and the
// compile ended "cannot move the earlier bundle aside"); a refused compile
// leaves no parent folder it made.
// RUN: rm -rf %t.slash && mkdir -p %t.slash && kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t.slash/new/ -q
// RUN: kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t.slash/new/. -q
// RUN: ls %t.slash %t.slash/new | FileCheck %s --check-prefix=SLASH
// RUN: rm -rf %t.parents && mkdir -p %t.parents && env KDA_CUDA_PATH=%t/no-toolkit not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=sm_90 -o %t.parents/deep/a/b/out -q
// RUN: ls -A %t.parents | count 0
// A path longer than the interrupt handler can hold is refused as too long
// (it read "too many folders registered" when its parents were new), no
// parent made.
// RUN: rm -rf %t.long && mkdir -p %t.long && not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t.long/$(%python -c "print('/'.join(['a' * 250] * 17))")/out 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: ls -A %t.long | count 0
// A bundle it wrote is replaced whole.
// RUN: kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o %t -q
// RUN: ls %t | FileCheck %s --check-prefix=REPLACED
// A relative -o with a folder in it is staged beside it (LLVM put a unique
// name from a relative model in the temporary folder: "cannot create a
// folder beside out/base"), and replaced there. (Last: cd stays.)
// RUN: rm -rf %t.rel && mkdir -p %t.rel && cd %t.rel && kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o out/base -q
// RUN: kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu32 -o out/base -q
// RUN: ls out out/base | FileCheck %s --check-prefix=RELATIVE
// The current folder (or one holding it) cannot be moved aside: refused
// before compiling, the bundle there left as it was.
// RUN: cp %t/manifest.json %t.here && cd %t && not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o . 2>&1 | FileCheck %s --check-prefix=HERE
// RUN: cd %t/emu && not kda-compile %kda_src_root/test/numeric/specs/k3_small.mlir --targets=emu -o .. 2>&1 | FileCheck %s --check-prefix=HERE
// RUN: cmp %t/manifest.json %t.here

// TARGET: kda-compile: unknown target 'gfx1100' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)
// SPEC: error: 'kda.recurrent' op q must be [T, heads, head_k] = [?, 1, 64]
// MISSING: kda-compile: cannot open input file
// CUDA: error: KDA_CUDA_PATH={{.*}}no-toolkit has no nvvm/libdevice/libdevice.10.bc; sm_90 needs a CUDA toolkit's libdevice and ptxas
// TWICE: kda-compile: --targets names emu32 twice (a bundle holds one code object a target)
// NAME: error: function name 'my-layer' is not an identifier (letters, digits and '_', not starting with a digit): it becomes part of the kernels' symbols on every target
// NESTED: error: a layer op outside a function of the spec module is not compiled
// EMPTY: kda-compile: {{.*}}spec-empty.mlir holds nothing to compile (no kda.recurrent, kda.chunk or kernel); {{.*}} left unchanged
// USER: kda-compile: -o {{.*}}.user: holds marker, which is not part of a bundle: only a bundle folder a kda tool wrote (its manifest.json and target folders of kda_kernels files) is replaced; name a new folder
// RESULTS: kda-compile: -o {{.*}}.res: holds gfx942/timings.csv, which is not part of a bundle
// INPUT: kda-compile: -o {{.*}}.work: holds gfx942/layer.mlir, which is not part of a bundle
// FOREIGN: kda-compile: -o {{.*}}.web: holds a manifest.json no kda tool wrote (its "generator" is not kda-compile or kda-tune), which is not part of a bundle
// GRID: error: 'gpu.func' op launches 65536 workgroups in grid y (value heads or column blocks of the layer), more than the 65535 a launch takes on every target
// LONG: kda-compile: -o {{.*}}/out: cannot create a folder beside it: File name too long (the path is {{[0-9]+}} bytes; at most 4071)
// SLASH-NOT: partial
// SLASH: new
// SLASH-NOT: partial
// SLASH: emu
// SLASH: manifest.json
// RELATIVE: base
// RELATIVE-NOT: partial
// RELATIVE: manifest.json
// FILE: kda-compile: -o {{.*}}.file: exists and is not a folder
// HERE: kda-compile: -o {{\.\.?}}: is the current folder or holds it; name a folder outside it
// LINK: kda-compile: -o {{.*}}.link: is a symbolic link; only a bundle folder a kda tool wrote is replaced
// KEPT: keep
// REPLACED: emu
// REPLACED-NEXT: manifest.json

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @bad(%q: memref<?x1x32xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x64x64xf32>) {
  kda.recurrent #l q(%q : memref<?x1x32xbf16>) k(%q : memref<?x1x32xbf16>) v(%q : memref<?x1x32xbf16>) g(%q : memref<?x1x32xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x64x64xf32>) out(%q : memref<?x1x32xbf16>)
  return
}
