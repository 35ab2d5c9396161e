#!/usr/bin/env bash
# The main job: compile the Kimi-K3 TP8 spec into a bundle for every target
# (gfx942, gfx950, sm_90, emu) and run decode batches from it on the
# emulator (the machine has no GPU) against the float64 oracle, printing the
# errors and times. On a GPU machine, kda-bench --backend cuda runs the same
# bundle (test/device/run-h200.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export KDA_BUILD_DIR="${KDA_BUILD_DIR:-$root/build}"
out="${KDA_OUT:-$root/out}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
bin="$KDA_BUILD_DIR/bin"

echo "==== kda-opt: the spec, verified"
"$bin/kda-opt" "$root/examples/kimi-k3-tp8.mlir"
echo "==== kda-compile: $out/bundle"
# With the config table: each target also gets the layer's variants per N
# bucket, which the runtime picks by the batch's sequence count.
"$bin/kda-compile" "$root/examples/kimi-k3-tp8.mlir" \
  --targets=gfx942,gfx950,sm_90,emu -o "$out/bundle" --print-figures \
  --config-table="$root/examples/config-table.json"
ls -R "$out/bundle"
echo "==== a decode batch and mixed batches on the emulator vs the float64 oracle"
"$bin/kda-bench" --bundle "$out/bundle" --kernel kimi_k3_tp8_recurrent \
  --backend emu --numerics --decode 8
