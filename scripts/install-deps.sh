#!/usr/bin/env bash
# Installs kda's Debian packages. Idempotent: when everything is present it
# returns at once without touching apt.
set -euo pipefail

PACKAGES=(
  # compiler: LLVM/MLIR 22, lit and FileCheck, lld and clang for AMDGPU/NVPTX
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 clang-22
  # the compiler's runtime builtins, linked into emulator objects (bf16
  # rounding of odd-shaped or masked bf16 vectors on x86: __truncsfbf2)
  libclang-rt-22-dev
  # AMDGPU device bitcode (ocml/ockl) and HIP headers/loader for the hip backend
  rocm-device-libs libamdhip64-dev
  # tests: GoogleTest; emulator fibers: Boost.Context
  libgtest-dev libboost-context-dev
  # runtime: manifest.json parsing (header-only)
  nlohmann-json3-dev
  # build: cmake, ninja, ccache (keeps rebuilds incremental on two cores)
  cmake ninja-build ccache g++ python3
  # the Python package's tests (runtime/python, on the emulator)
  python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
