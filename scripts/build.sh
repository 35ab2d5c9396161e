#!/usr/bin/env bash
# Configures (once) and builds kda incrementally into ${KDA_BUILD_DIR:-build}.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${KDA_BUILD_DIR:-$root/build}"
jobs="${KDA_JOBS:-2}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
fi
cmake --build "$build" -j "$jobs"
