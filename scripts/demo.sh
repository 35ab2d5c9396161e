#!/usr/bin/env bash
# The main job, for now: compile the example model specs through kda-opt
# (parse + verify + print) and describe what each computes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export KDA_BUILD_DIR="${KDA_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
bin="$KDA_BUILD_DIR/bin"
for spec in "$root"/examples/*.mlir; do
  echo "==== $(basename "$spec"): kda-opt (verified, canonical form)"
  "$bin/kda-opt" "$spec"
  echo "==== $(basename "$spec"): kda-translate --kda-spec-to-json"
  "$bin/kda-translate" --kda-spec-to-json "$spec"
done
