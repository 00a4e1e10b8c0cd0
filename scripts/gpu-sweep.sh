#!/usr/bin/env bash
# Builds occx with the UI off and measures on the local GPU: the GPU tests (ctest label "gpu"),
# compute-sanitizer (memcheck, racecheck) over the correctness tests, the device and its copy
# bandwidth, then the live sweeps of docs/benchmarks.md (the five reference shapes and the spill
# case). Every step logs to OUTDIR/<step>.log; the sweeps write OUTDIR/<name>.csv.
#
#   scripts/gpu-sweep.sh [OUTDIR]            (default: out/gpu-sweep)
#
# Environment: BUILD_DIR (default build-gpu), JOBS (default: all cores), OCCX_VENDOR_INCLUDE_DIR
# (a folder with nlohmann/ and CLI/ headers, for machines without those packages; .deps/include is
# used when it exists), STEPS (default "build tests devices sweeps cudatests sanitizer"), SWEEPS (names of the
# sweeps to run, default all; also "inductor", "spill16", "triton-sweeps" and "sweep-fixture", see below), BUILD_TARGETS (default "occx occx-gpu-worker occx_gpu_tests occx_cuda_tests").
set -uo pipefail

cd "$(dirname "$0")/.."
OUTDIR=${1:-out/gpu-sweep}
BUILD_DIR=${BUILD_DIR:-build-gpu}
JOBS=${JOBS:-$(nproc)}
STEPS=${STEPS:-build tests devices sweeps cudatests sanitizer}
VENDOR=${OCCX_VENDOR_INCLUDE_DIR:-}
if [[ -z "$VENDOR" && -d .deps/include ]]; then VENDOR=$PWD/.deps/include; fi
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
SUMMARY="$OUTDIR/summary.txt"
: >"$SUMMARY"

note() { echo "$*" | tee -a "$SUMMARY"; }
step() {  # step NAME TIMEOUT_S COMMAND…: runs, logs, records the outcome and the wall time
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$OUTDIR/$name.log" 2>&1
  local rc=$?
  note "$(printf '%-28s rc=%-3s %4ss' "$name" "$rc" "$((SECONDS - t0))")"
  return $rc
}
want() { [[ " $STEPS " == *" $1 "* ]]; }

note "occx GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /' | tee -a "$SUMMARY"

if want build; then
  step configure 300 cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOCCX_BUILD_UI=OFF \
    -DOCCX_BUILD_BENCHMARKS=OFF ${VENDOR:+-DOCCX_VENDOR_INCLUDE_DIR=$VENDOR} || exit 1
  # shellcheck disable=SC2086
  step build 600 cmake --build "$BUILD_DIR" -j "$JOBS" --target ${BUILD_TARGETS:-occx occx-gpu-worker occx_gpu_tests occx_cuda_tests} ||
    { tail -40 "$OUTDIR/build.log"; exit 1; }
fi
OCCX="$BUILD_DIR/occx"
GPU_TESTS="$BUILD_DIR/tests/occx_gpu_tests"

if want tests; then
  # GPU tests one at a time (they share the GPU and time it); the compile-side CUDA tests in parallel.
  step ctest-gpu 600 ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure -j 1
  grep -E "tests passed|tests failed|Skipped|\*\*\*Failed|Not Run" "$OUTDIR/ctest-gpu.log" | tee -a "$SUMMARY"
  # The timing test prints its figures: keep them in the summary.
  "$GPU_TESTS" --gtest_filter='GpuDevice.*:GpuTiming.*:GpuLiveSweep.*:GpuWorker.*' >"$OUTDIR/gpu-figures.log" 2>&1
  grep -E "^(device|copy|sum fp16|CUPTI|achieved|old|new|exact|best|measured)" "$OUTDIR/gpu-figures.log" | tee -a "$SUMMARY"
fi

if want devices; then
  step devices 300 "$OCCX" devices --refresh --csv "$OUTDIR/devices.csv"
  cat "$OUTDIR/devices.log" | tee -a "$SUMMARY"
fi

# name | arguments of `occx sweep` (shapes of ../shared/reference/h200-anchors.md, then the spill case)
SWEEP_LIST=(
  "sum_fp16_32768x8192|--workload sum --dtype fp16 --xnumel 32768 --rnumel 8192 --xblocks 1,2,4 --rblocks 1024-16384 --num-warps 4,8,16"
  "mean_var_fp16_32768x8192|--workload mean_var --dtype fp16 --xnumel 32768 --rnumel 8192 --xblocks 1,2,4 --rblocks 512-8192 --num-warps 4,8,16,32"
  "log_softmax_fp16_32768x8192|--workload log_softmax --dtype fp16 --fp32-outputs --xnumel 32768 --rnumel 8192 --rblocks 512-8192"
  "fused_k3_fp16_32768x8192|--workload fused_k --k 3 --dtype fp16 --xnumel 32768 --rnumel 8192"
  "log_softmax_fp16_20736x8008|--workload log_softmax --dtype fp16 --fp32-outputs --xnumel 20736 --rnumel 8008 --rblocks 512-8192"
  "spill_log_softmax_fp32_264x30000|--workload log_softmax --dtype fp32 --xnumel 264 --rnumel 30000 --xblocks 1 --rblocks 2048-65536 --num-warps 8,16,32"
)
if want sweeps; then
  for entry in "${SWEEP_LIST[@]}"; do
    name=${entry%%|*}
    args=${entry#*|}
    if [[ -n "${SWEEPS:-}" && " ${SWEEPS} " != *" $name "* ]]; then continue; fi
    # shellcheck disable=SC2086
    step "sweep-$name" 400 "$OCCX" sweep $args --repeat 5 --csv "$OUTDIR/$name.csv"
    sed -n '/^Autotuner replay/,$p' "$OUTDIR/sweep-$name.log" | tee -a "$SUMMARY"
    grep -E "configs ran correct" "$OUTDIR/sweep-$name.log" | tee -a "$SUMMARY"
  done
fi
# Inductor's own compiled configs, run live (`occx inductor run`) on the recorded runs: each writes
# OUTDIR/<run>.runs.csv. "spill16" first compiles the spill case at 16 warps too (R32768 and its
# halved R16384, with the local PyTorch and Triton) into a copy of that run, then runs it.
if want inductor || want spill16; then
  mkdir -p "$OUTDIR/inductor"
fi
if want spill16; then
  d="$OUTDIR/inductor/spill_log_softmax_w16"
  rm -rf "$d" && mkdir -p "$d" && tar xf tests/data/inductor/spill_log_softmax.tar.xz -C "$d" --strip-components=1
  # The four configs Inductor did not compile (R8192 w16 and w32, R16384 w16, R32768 w16), compiled
  # into the run's own Triton cache by the product's sweep (no GPU needed for it).
  step spill16-compile 300 env CUDA_VISIBLE_DEVICES= "$OCCX" inductor sweep "$d" --no-home-cache --no-run \
    --grid "XBLOCK=1 R0_BLOCK=8192..32768 num_warps=16,32" --cache "$d/triton/0"
  tee -a "$SUMMARY" <"$OUTDIR/spill16-compile.log"
  step inductor-spill16 500 "$OCCX" inductor run "$d" --no-home-cache --csv "$OUTDIR/spill_log_softmax_w16.runs.csv"
  sed -n '/^kernel .*rule/,$p' "$OUTDIR/inductor-spill16.log" | tee -a "$SUMMARY"
fi
if want inductor; then
  for name in ${INDUCTOR_RUNS:-spill_log_softmax spill_log_softmax_w16 ref_sum ref_mean_var ref_log_softmax_vocab bert blenderbot gpt2 t5}; do
    tar xf "tests/data/inductor/$name.tar.xz" -C "$OUTDIR/inductor"
    step "inductor-$name" 500 "$OCCX" inductor run "$OUTDIR/inductor/$name" --no-home-cache --csv "$OUTDIR/$name.runs.csv"
    grep -E "compiled configs on" "$OUTDIR/inductor-$name.log" | tee -a "$SUMMARY"
    sed -n '/^kernel .*rule/,$p' "$OUTDIR/inductor-$name.log" | head -60 | tee -a "$SUMMARY"
  done
fi

# "triton-sweeps": `occx inductor sweep` of the reference reductions' real kernels (the recorded runs),
# first compile-only with no GPU visible (CUDA_VISIBLE_DEVICES empty: the compile needs none), then
# with the GPU (the compiled configs come from the cache; every config timed). Writes
# OUTDIR/<run>.sweep.csv and OUTDIR/<run>.nogpu.csv.
if want triton-sweeps; then
  mkdir -p "$OUTDIR/inductor" "$OUTDIR/sweep-cache"
  for name in ${TRITON_SWEEP_RUNS:-ref_sum ref_mean_var ref_log_softmax_vocab spill_log_softmax}; do
    rm -rf "$OUTDIR/inductor/$name" && tar xf "tests/data/inductor/$name.tar.xz" -C "$OUTDIR/inductor"
    step "triton-sweep-$name-nogpu" 500 env CUDA_VISIBLE_DEVICES= "$OCCX" inductor sweep "$OUTDIR/inductor/$name" --no-home-cache \
      --cache "$OUTDIR/sweep-cache/$name" --csv "$OUTDIR/$name.nogpu.csv"
    grep -E "configs to compile|left out|compiled .* of|not timed" "$OUTDIR/triton-sweep-$name-nogpu.log" | tee -a "$SUMMARY"
    step "triton-sweep-$name" 500 "$OCCX" inductor sweep "$OUTDIR/inductor/$name" --no-home-cache \
      --cache "$OUTDIR/sweep-cache/$name" --csv "$OUTDIR/$name.sweep.csv"
    grep -E "compiled .* of|^Best|^Inductor's pick|rule: " "$OUTDIR/triton-sweep-$name.log" | tee -a "$SUMMARY"
  done
fi
# "sweep-fixture": the compile helper run by hand on the spill case at a few configs (one of them
# Inductor's own winner: its folder must get the same name), for tests/data/inductor/sweep_spill_log_softmax.
if want sweep-fixture; then
  d="$OUTDIR/sweep_spill_log_softmax"
  rm -rf "$d" "$OUTDIR/fixture-run" && mkdir -p "$d/triton" "$OUTDIR/fixture-run"
  tar xf tests/data/inductor/spill_log_softmax.tar.xz -C "$OUTDIR/fixture-run" --strip-components=1
  module=$(grep -l "@triton_heuristics.reduction" "$OUTDIR"/fixture-run/*/*.py | head -1)
  cp "$module" "$d/"
  cat >"$d/request.json" <<REQ
{"module": "$module", "cache_dir": "$d/triton", "configs": [
 {"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 16, "num_stages": 1},
 {"XBLOCK": 1, "R0_BLOCK": 8192, "num_warps": 16, "num_stages": 1},
 {"XBLOCK": 1, "R0_BLOCK": 16384, "num_warps": 16, "num_stages": 1},
 {"XBLOCK": 1, "R0_BLOCK": 32768, "num_warps": 16, "num_stages": 1},
 {"XBLOCK": 2, "R0_BLOCK": 4096, "num_warps": 8, "num_stages": 1},
 {"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 3, "num_stages": 1}]}
REQ
  CUDA_VISIBLE_DEVICES= timeout 600 python3 resources/python/triton_compile_configs.py "$d/request.json" >"$d/helper.jsonl" 2>"$OUTDIR/sweep-fixture.log"
  note "sweep-fixture rc=$? $(wc -l <"$d/helper.jsonl") lines; winner's folder: $(grep -o '"triton_cache_hash": "[^"]*"' "$d/helper.jsonl" | head -1); Inductor's: $(grep -o '"triton_cache_hash": "[^"]*"' "$OUTDIR"/fixture-run/*/*.best_config)"
  cat "$d/helper.jsonl" | tee -a "$SUMMARY"
fi

if want cudatests; then
  # The compile-side CUDA tests (they run without a GPU too; here the driver cross-check runs).
  step ctest-cuda 600 ctest --test-dir "$BUILD_DIR" -L cuda -LE gpu --output-on-failure -j "$JOBS"
  grep -E "tests passed|tests failed|\*\*\*Failed|Not Run" "$OUTDIR/ctest-cuda.log" | tee -a "$SUMMARY"
fi

if want sanitizer; then
  # CUPTI and the sanitizer both instrument the driver: CUPTI off under the sanitizer.
  export OCCX_NO_CUPTI=1
  step memcheck 600 compute-sanitizer --tool memcheck --error-exitcode 9 "$GPU_TESTS" \
    --gtest_filter='GpuCorrectness.*'
  tail -3 "$OUTDIR/memcheck.log" | tee -a "$SUMMARY"
  step racecheck 600 compute-sanitizer --tool racecheck --error-exitcode 9 "$GPU_TESTS" \
    --gtest_filter='GpuCorrectness.Sum:GpuCorrectness.MeanVar:GpuCorrectness.LogSoftmax'
  tail -3 "$OUTDIR/racecheck.log" | tee -a "$SUMMARY"
  unset OCCX_NO_CUPTI
fi

note "done: $OUTDIR"
