#!/usr/bin/env bash
# The whole suite on a fresh machine: install what is missing, build
# incrementally, run lit + GoogleTest through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export KDA_BUILD_DIR="${KDA_BUILD_DIR:-$root/build}"
start=$(date +%s)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$KDA_BUILD_DIR"
rc=0
ctest --output-on-failure -j "${KDA_JOBS:-2}" || rc=$?
if [ "$rc" -ne 0 ]; then
  # Parallel runs interleave a failure's output with later tests; show the
  # failed ones again, alone, last.
  echo "test.sh: failed tests, run again alone:"
  ctest --rerun-failed --output-on-failure || true
fi
echo "test.sh: wall time $(( $(date +%s) - start )) s"
exit "$rc"
