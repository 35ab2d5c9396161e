#!/usr/bin/env bash
# The main job: compile the Kimi-K3 TP8 spec into a bundle for every target
# (gfx942, gfx950, sm_90, emu) and run decode and mixed batches from it on
# the emulator (the machine has no GPU) against the float64 oracle, then
# issue 9's seed scenario through kda_forward, printing the errors. On a GPU
# machine, kda-bench --backend cuda runs the same bundle
# (test/device/run-h200.sh).
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
echo "==== decode and mixed batches on the emulator vs the float64 oracle"
# Numerics only: the emulator's time says nothing about a GPU's bandwidth
# (kda-bench --decode times the H200, test/device/run-h200.sh).
"$bin/kda-bench" --bundle "$out/bundle" --kernel kimi_k3_tp8_recurrent \
  --backend emu --numerics
echo "==== the seed scenario through kda_forward (64 decodes + 4 prefills, 4096 tokens)"
# All 12 heads of Kimi-K3 TP8 take a few minutes on the emulator;
# KDA_DEMO_PREFILL_SCALE=0.25 shortens the prefills to a quarter.
"$bin/kda-forward" --bundle "$out/bundle" --kernel kimi_k3_tp8_recurrent \
  --target emu --prefill-scale "${KDA_DEMO_PREFILL_SCALE:-1}"
