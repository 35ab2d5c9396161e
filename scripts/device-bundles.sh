#!/usr/bin/env bash
# Compiles the sm_90 bundles the H200 run uses into device-bundles/ (ignored
# by git, carried to the device by the device tool): the two example specs
# the decode benchmark layers, the prefill (chunk) layers, the tile-GEMM
# kernels (tiles section), the recurrent kernel's row variants (forward
# section: speculative rows), the tuner's candidates and the decode layers
# with the config table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${KDA_BUILD_DIR:-$root/build}/bin"
out="$root/device-bundles"
for spec in "$root/examples/kimi-linear-48b.mlir" "$root/examples/kimi-k3-tp8.mlir" \
            "$root/test/device/decode-bench.mlir" "$root/test/device/decode-sweep.mlir" \
            "$root/test/device/decode-pipelined.mlir" "$root/test/device/decode-bf16-state.mlir" \
            "$root/test/device/chunk-bench.mlir" "$root/test/device/chunk-sizes.mlir" \
            "$root/test/numeric/tile-specs/tile-gemm.mlir" \
            "$root/test/numeric/tile-specs/tile-gemm-wgmma.mlir" \
            "$root/test/numeric/specs/k3_variants.mlir"; do
  name=$(basename "$spec" .mlir)
  "$bin/kda-compile" "$spec" --targets=sm_90 -o "$out/$name"
done
# `run-h200.sh numerics`: f32 activations and head dims 60, 96, 100.
rm -rf "$out/anyhead"
for name in k3_f32_act linear_f32_act k3_head60 linear_head60 k3_head96 \
            linear_head96 k3_head100 linear_head100_bf16_state; do
  "$bin/kda-compile" "$root/test/numeric/specs/$name.mlir" --targets=sm_90 \
    -o "$out/anyhead/$name" -q
done
# `run-h200.sh tune`: every config kda-tune accepts for the decode layers
# (direct loads: the LDS token ring measured slower for one-token rows), one
# kernel each; `run-h200.sh sweepn`: the decode layers with the config
# table's variants (the runtime picks one by N).
# The f32-state layers (tune-candidates) and the bf16-state pools
# (tune-candidates-bf16), each tuned into the same table.
for pair in "decode-bench:tune-candidates" "decode-bf16-state:tune-candidates-bf16"; do
  spec=${pair%%:*} dir=${pair##*:}
  rm -rf "$out/$dir"
  "$bin/kda-tune" "$root/test/device/$spec.mlir" --target=sm_90 \
    --lds-stages=0 --candidates="$out/$dir" > "$out/$dir.txt"
  # The runtime loads the cubin; the candidates' PTX (~0.1 MB a kernel)
  # would only weigh on the 64 MiB the device call carries.
  find "$out/$dir" -name kda_kernels.ptx -delete
done
"$bin/kda-compile" "$root/test/device/decode-bench.mlir" --targets=sm_90 \
  --config-table="$root/examples/config-table.json" -o "$out/decode-tuned"
"$bin/kda-compile" "$root/test/device/decode-bf16-state.mlir" --targets=sm_90 \
  --config-table="$root/examples/config-table.json" -o "$out/bf16-tuned"
# `run-h200.sh compare`: with KDA_COMPARE_COMPILE=<an earlier commit's
# kda-compile>, decode-bench-old holds that commit's sm_90 cubin of the same
# layers under this tree's manifest (same symbols and arguments: the
# runtime opens it only where that commit names its kernels by the same
# entry digests, i.e. wrote the same entries; older manifests are not read
# by this runtime).
if [ -n "${KDA_COMPARE_COMPILE:-}" ]; then
  tmp=$(mktemp -d)
  "$KDA_COMPARE_COMPILE" "$root/test/device/decode-bench.mlir" --targets=sm_90 -o "$tmp" -q
  rm -rf "$out/decode-bench-old"
  cp -r "$out/decode-bench" "$out/decode-bench-old"
  cp "$tmp/sm_90/kda_kernels.cubin" "$out/decode-bench-old/sm_90/kda_kernels.cubin"
  rm -rf "$tmp"
fi
mkdir -p "$root/.deps"
cp -r /usr/include/nlohmann "$root/.deps/"
