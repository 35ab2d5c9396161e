#!/usr/bin/env bash
# Compiles the sm_90 bundles the H200 run uses into device-bundles/ (ignored
# by git, carried to the device by the device tool): the two example specs
# the decode benchmark layers and the tile-GEMM kernels (tiles section).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${KDA_BUILD_DIR:-$root/build}/bin"
out="$root/device-bundles"
for spec in "$root/examples/kimi-linear-48b.mlir" "$root/examples/kimi-k3-tp8.mlir" \
            "$root/test/device/decode-bench.mlir" "$root/test/device/decode-sweep.mlir" \
            "$root/test/device/decode-pipelined.mlir" "$root/test/device/decode-bf16-state.mlir" \
            "$root/test/numeric/tile-specs/tile-gemm.mlir"; do
  name=$(basename "$spec" .mlir)
  "$bin/kda-compile" "$spec" --targets=sm_90 -o "$out/$name"
done
mkdir -p "$root/.deps"
cp -r /usr/include/nlohmann "$root/.deps/"
