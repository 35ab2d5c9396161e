#!/usr/bin/env bash
# One device call on the lent H200 (no LLVM there): build the runtime and
# kda-bench against CUDA, check the sm_90 numerics against the float64
# oracle, time decode at N in {1, 8, 32, 128, 256}, H in {12, 32}, K = V = 128,
# both state layouts, with the copy ceiling measured in the same run; then
# bf16 state pools, the LDS-pipelined kernels, the config sweep,
# compute-sanitizer and the tile layer's GEMM kernels (mma.sync, dynamic
# shared memory above 48 KiB); the chunk path against fla (chunk); kda_forward
# from Python with torch (seed scenario, CUDA graph replay, torch.compile,
# speculative rows); `tune` times kda-tune's candidates for the config
# table, `sweepn` times the tuned decode (variants by N) and fla the same two
# ways over N x H x layout and plots them (not in the default run: name
# them). `run-h200.sh sweep` (etc.) runs named sections only.
#
# Bundles are compiled on the CPU machine beforehand (they need LLVM):
#   ./scripts/device-bundles.sh          -> device-bundles/ (git-ignored)
# and carried with the call, with .deps/nlohmann (Debian's header) for the
# runtime's manifest parser.
set -euo pipefail
cd "$(dirname "$0")/../.."
bundles=${KDA_DEVICE_BUNDLES:-device-bundles}
out=${OUT:-out-device}
build=/tmp/kda-device-build
mkdir -p "$out"
# Sections, all by default; name some to run only those (short follow-up
# calls): numerics decode compare bf16 pipelined rows sweep memcheck racecheck
# dynsmem tiles chunk forward; tune and sweepn only when named.
defaults="numerics decode compare bf16 pipelined rows sweep memcheck racecheck dynsmem tiles chunk forward"
known="$defaults tune sweepn"
sections="${*:-$defaults}"
for s in $sections; do
  [[ " $known " == *" $s "* ]] || { echo "run-h200.sh: unknown section '$s' (known: $known)" >&2; exit 2; }
done
want() { [[ " $sections " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKDA_BUILD_COMPILER=OFF -DKDA_BUILD_TESTS=OFF -DKDA_BENCH_CUDA=ON \
  -DKDA_NLOHMANN_INCLUDE="$PWD/.deps" > "$out/cmake.log"
cmake --build "$build" -j 16 > "$out/build.log"
bench="$build/bin/kda-bench"
status=0

if want dynsmem; then
  echo "== dynamic shared memory above 48 KiB (runtime opt-in; hand-written PTX)"
  "$build/bin/kda-dyn-smem-probe" test/device/dyn-smem test/device/dyn-smem-too-big || status=1
  if [ -d "$bundles/decode-tuned" ]; then
    echo "== closed bundles unload their code (300 opens and closes)"
    "$build/bin/kda-reopen-probe" "$bundles/decode-tuned" 300 || status=1
  fi
fi

if want numerics; then
  echo "== numerics on sm_90 (examples: softplus kv, lower_bound vk)"
  "$bench" --bundle "$bundles/kimi-linear-48b" --kernel kimi_linear_recurrent --numerics --json "$out/num-linear.json" || status=1
  "$bench" --bundle "$bundles/kimi-k3-tp8" --kernel kimi_k3_tp8_recurrent --numerics --json "$out/num-k3.json" || status=1
  if [ -d "$bundles/anyhead" ]; then
    echo "== numerics: f32 activations, head dims 60, 96, 100 (masked tails)"
    for dir in "$bundles"/anyhead/*; do
      name=$(basename "$dir")
      "$bench" --bundle "$dir" --kernel "$name" --numerics --json "$out/num-$name.json" || status=1
    done
  fi
fi

if want decode; then
  echo "== decode timing (median of CUDA events, L2 flushed between runs)"
  for k in decode_h12_vk decode_h32_vk decode_h12_kv decode_h32_kv; do
    "$bench" --bundle "$bundles/decode-bench" --kernel "$k" --numerics --copy \
      --decode 1,8,32,128,256 --json "$out/$k.json" || status=1
  done
fi

if want compare && [ -d "$bundles/decode-bench-old" ]; then
  # The same layers compiled before the tile-layer redesign (the cubin of an
  # earlier commit, put into this bundle's manifest: same symbols and
  # arguments), timed alternately with today's in one run.
  echo "== decode, N = 128, H = 32: this tree's kernels against the earlier commit's"
  for round in 1 2; do
    for which in decode-bench decode-bench-old; do
      for k in decode_h32_vk decode_h32_kv; do
        line=$("$bench" --bundle "$bundles/$which" --kernel "$k" --decode 128 --reps 50 | tail -1)
        echo "round $round $which $k $line"
      done
    done
  done | tee "$out/compare.txt"
fi

if want bf16 && [ -d "$bundles/decode-bf16-state" ]; then
  # With the config table's variants when device-bundles.sh compiled them
  # (bf16-tuned), else the default configs.
  bf16=decode-bf16-state
  [ -d "$bundles/bf16-tuned" ] && bf16=bf16-tuned
  echo "== bf16 state pools (numerics; decode, H = 32; $bf16)"
  for k in bf16_state_h32_vk bf16_state_h32_kv; do
    "$bench" --bundle "$bundles/$bf16" --kernel "$k" --numerics --copy \
      --decode 32,128,256 --json "$out/$k.json" || status=1
  done
fi

pipelined="pipelined_vk_d2 pipelined_vk_d3 pipelined_kv_d2 pipelined_kv_d3"
if want pipelined && [ -d "$bundles/decode-pipelined" ]; then
  echo "== token rows through a verified LDS pipeline (numerics, decode N = 128)"
  for k in $pipelined; do
    "$bench" --bundle "$bundles/decode-pipelined" --kernel "$k" --numerics \
      --decode 128 --reps 30 --json "$out/$k.json" || status=1
  done
fi

if want rows && [ -d "$bundles/decode-pipelined" ]; then
  echo "== rows of 16 tokens (short prefills): direct loads against the LDS pipeline"
  for k in decode_h32_vk decode_h32_kv; do
    "$bench" --bundle "$bundles/decode-bench" --kernel "$k" --decode 32,128 \
      --tokens-per-row 16 --reps 20 --json "$out/rows-$k.json" || status=1
  done
  for k in $pipelined; do
    "$bench" --bundle "$bundles/decode-pipelined" --kernel "$k" --decode 32,128 \
      --tokens-per-row 16 --reps 20 --json "$out/rows-$k.json" || status=1
  done
fi

if want sweep && [ -d "$bundles/decode-sweep" ]; then
  echo "== config sweep, H = 32, N = 128 (time us, TB/s)"
  for k in $(grep -o '"name": "decode_[a-z0-9_]*"' "$bundles/decode-sweep/manifest.json" | cut -d'"' -f4); do
    line=$("$bench" --bundle "$bundles/decode-sweep" --kernel "$k" --decode 128 --reps 30 | tail -1)
    echo "$k $line"
  done | tee "$out/sweep.txt"
fi

driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)

if want tune && [ -d "$bundles/tune-candidates" ]; then
  # Every accepted config of the decode layers at the N of each bucket;
  # back on the CPU machine:
  #   kda-tune test/device/decode-bench.mlir --target=sm_90 --lds-stages=0 \
  #     --times=<out>/tune.json --table=examples/config-table.json
  echo "== kda-tune candidates (CUDA events and graph replay)"
  "$bench" --bundle "$bundles/tune-candidates" --all-kernels \
    --decode 1,4,8,16,32,64,128,256 --reps 30 --driver "$driver" \
    --json "$out/tune.json" > "$out/tune.log" || status=1
  # The bf16-state pools likewise (kda-tune test/device/decode-bf16-state.mlir
  # ... --times=<out>/tune-bf16.json).
  if [ -d "$bundles/tune-candidates-bf16" ]; then
    "$bench" --bundle "$bundles/tune-candidates-bf16" --all-kernels \
      --decode 1,4,8,16,32,64,128,256 --reps 30 --driver "$driver" \
      --json "$out/tune-bf16.json" > "$out/tune-bf16.log" || status=1
  fi
  tail -3 "$out/tune.log"
fi

if want sweepn && [ -d "$bundles/decode-tuned" ]; then
  # N in {1,8,32,128,256} x H in {12,32} x {vk,kv}: kda through the config
  # table's variants (the kernel column names the one the runtime chose),
  # fla in the same run; both timed as events after an L2 flush and as
  # graph replay minus the flush; JSON per layer, then the plot.
  echo "== decode sweep: kda (tuned, variants by N) and fla, two timing methods"
  mkdir -p "$out/sweepn"
  for k in decode_h12_vk decode_h32_vk decode_h12_kv decode_h32_kv; do
    "$bench" --bundle "$bundles/decode-tuned" --kernel "$k" --numerics --copy \
      --decode 1,8,32,128,256 --driver "$driver" --json "$out/sweepn/$k.json" || status=1
  done
  PYTHONPATH="${KDA_FLA_PATH:-}${PYTHONPATH:+:$PYTHONPATH}" python3 test/device/fla-bench.py --n 1,8,32,128,256 --heads 12,32 --out "$out/sweepn" || status=1
  if python3 -c "import matplotlib" 2> /dev/null; then
    python3 scripts/plot-decode.py "$out/sweepn" -o "$out/sweepn/decode.png" || status=1
  else
    echo "no matplotlib here: plot on the CPU machine with scripts/plot-decode.py $out/sweepn"
  fi
fi

if command -v compute-sanitizer > /dev/null; then
  if want memcheck; then
    echo "== compute-sanitizer memcheck (numerics batches)"
    compute-sanitizer --tool memcheck --print-limit 5 "$bench" \
      --bundle "$bundles/kimi-k3-tp8" --kernel kimi_k3_tp8_recurrent --numerics \
      > "$out/memcheck.log" 2>&1 && echo "memcheck: clean" || { echo "memcheck: errors"; tail -20 "$out/memcheck.log"; status=1; }
  fi
  # racecheck BUNDLE KERNEL...: each kernel's numerics batches.
  racecheck() {
    local bundle=$1 k
    shift
    for k in "$@"; do
      compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 5 \
        "$bench" --bundle "$bundles/$bundle" --kernel "$k" --numerics \
        > "$out/racecheck-$k.log" 2>&1 || status=1
      echo "racecheck $k: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-$k.log" | tr '\n' ' ')"
    done
  }
  if want racecheck && [ -d "$bundles/decode-pipelined" ]; then
    echo "== compute-sanitizer racecheck (LDS-pipelined kernels, numerics batches)"
    racecheck decode-pipelined $pipelined
  fi
  # The tuned bf16 pools' shared_terms variants: a row's first token's
  # terms go through LDS behind a barrier (every variant a numerics batch's
  # N picks).
  if want racecheck && [ -d "$bundles/bf16-tuned" ]; then
    racecheck bf16-tuned bf16_state_h32_vk bf16_state_h32_kv
  fi
fi
if want tiles && [ -d "$bundles/tile-gemm" ]; then
  echo "== tile-GEMM kernels through mma.sync (plain, tril-masked, 64 KiB dynamic shared memory) vs float64"
  "$build/bin/kda-tile-check" "$bundles/tile-gemm" --backend cuda \
    > "$out/tiles.log" 2>&1 || status=1
  cat "$out/tiles.log"
  if [ -d "$bundles/tile-gemm-wgmma" ]; then
    echo "== tile-GEMM kernels through wgmma (sm_90a warpgroup atom, B from shared memory) vs float64"
    "$build/bin/kda-tile-check" "$bundles/tile-gemm-wgmma" --backend cuda \
      > "$out/tiles-wgmma.log" 2>&1 || status=1
    cat "$out/tiles-wgmma.log"
  fi
fi
if want chunk && [ -d "$bundles/chunk-bench" ]; then
  # The chunk (prefill) path: numerics of issue 8's batches against the
  # float64 oracle, then the prefill shapes, kda and (when peer/ was carried:
  # fla's chunk_kda, never committed) fla in the same call, same flush.
  echo "== chunk path: numerics (lengths 1..1000 varlen, g at -1000, length-1 rows)"
  "$bench" --bundle "$bundles/chunk-bench" --kernel chunk_h32 --numerics \
    --json "$out/chunk-num.json" || status=1
  echo "== chunk path: prefill timing (median of CUDA events, L2 flushed)"
  "$bench" --bundle "$bundles/chunk-bench" --kernel chunk_h32 --copy \
    --prefill 1x8192,4x4096,varlen16 --reps 20 --json "$out/chunk-h32.json" || status=1
  "$bench" --bundle "$bundles/chunk-bench" --kernel chunk_h8 \
    --prefill 1x32768 --reps 20 --json "$out/chunk-h8.json" || status=1
  echo "== the same with the scan's rows pipelined at depth 2 (scan_stages = 2)"
  "$bench" --bundle "$bundles/chunk-bench" --kernel chunk_h32_s2 --numerics \
    --prefill 1x8192,4x4096 --reps 20 --json "$out/chunk-h32-s2.json" || status=1
  if [ -d "$bundles/chunk-sizes" ]; then
    echo "== chunk sizes 32 and 16 (chunk-sizes.mlir), the same shapes"
    for c in 32 16; do
      "$bench" --bundle "$bundles/chunk-sizes" --kernel chunk_h32_c$c --numerics \
        --prefill 1x8192,4x4096,varlen16 --reps 20 --json "$out/chunk-h32-c$c.json" || status=1
      "$bench" --bundle "$bundles/chunk-sizes" --kernel chunk_h8_c$c \
        --prefill 1x32768 --reps 20 --json "$out/chunk-h8-c$c.json" || status=1
    done
  fi
  echo "== the same rows through the recurrent kernel (the planner's threshold)"
  "$bench" --bundle "$bundles/chunk-bench" --kernel recurrent_h32 \
    --prefill 1x8192,4x4096 --reps 5 --json "$out/rec-h32.json" || status=1
  if [ -f peer/chunk_peer.py ]; then
    echo "== fla chunk_kda, same shapes (peer, graph replay minus flush)"
    # FLA_FLASH_KDA=0: with FlashKDA importable, fla's chunk_kda would
    # dispatch to it and "fla" would time FlashKDA. Bounded: the peers'
    # Triton autotuning and FlashKDA's first calls take minutes.
    FLA_FLASH_KDA=0 timeout 400 python3 peer/chunk_peer.py "$out/fla-chunk.json" || status=1
  fi
fi
if want forward && [ -d "$bundles/k3_variants" ]; then
  # The Python package over this build's runtime, torch's CUDA tensors; fla's
  # split path is timed beside it when fla is importable (carry a checkout of
  # flash-linear-attention and put it on KDA_FLA_PATH).
  echo "== kda_forward from Python with torch (seed scenario, CUDA graph, torch.compile, speculative rows)"
  PYTHONUNBUFFERED=1 PYTHONPATH="runtime/python${KDA_FLA_PATH:+:$KDA_FLA_PATH}" \
    KDA_RUNTIME_LIB="$build/runtime/libkda_runtime.so" \
    python3 test/device/forward_h200.py --bundles "$bundles" \
      --json "$out/forward.json" || status=1
fi
exit $status
