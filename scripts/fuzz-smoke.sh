#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang and runs each for a fixed time, starting from
# its seed corpus (tests/fuzz/corpus/<target>/, left unchanged: new inputs go to a scratch folder).
# A crash, a sanitizer report (ASan/UBSan), a leak, a 10 s input or 2 GB of memory fails the run;
# the input that did it is kept as build-fuzz/artifacts/<target>-crash-… for a regression test.
#
# Usage: scripts/fuzz-smoke.sh [SECONDS_PER_TARGET] [TARGET…]
#   SECONDS_PER_TARGET  default 20 (CI); e.g. 300 for a longer local session
#   TARGET              default all: fuzz_csv fuzz_gpu_data fuzz_cli fuzz_ptxas fuzz_cache fuzz_cubin
#                       fuzz_kernel_module fuzz_triton_folder fuzz_worker_frame fuzz_profiler_trace
#                       fuzz_lesson
# Environment: OCCX_FUZZ_BUILD_DIR (default build-fuzz), OCCX_JOBS (build jobs and targets run side by
#   side, default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${BASH_VERSINFO[0]}" -lt 5 ] || { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -lt 1 ]; }; then
  echo "fuzz-smoke: needs bash 5.1 or later (wait -n -p); this is $BASH_VERSION" >&2
  exit 1
fi
secs=${1:-20}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_csv fuzz_gpu_data fuzz_cli fuzz_ptxas fuzz_cache fuzz_cubin fuzz_kernel_module fuzz_triton_folder
    fuzz_worker_frame fuzz_profiler_trace fuzz_lesson)
fi
build=$(realpath -m "${OCCX_FUZZ_BUILD_DIR:-build-fuzz}")
root=$(pwd)  # absolute paths below: fuzz_cli changes its working folder before libFuzzer reads them
jobs=${OCCX_JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v clang++ >/dev/null; then
  echo "fuzz-smoke: clang++ not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
# A folder already configured with the fuzzers (scripts/sanitize.sh's) is used as it is; otherwise
# a fuzz-only build. -O1: libFuzzer's usual optimisation level; asserts stay on.
if ! grep -q '^OCCX_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DOCCX_BUILD_FUZZERS=ON -DOCCX_BUILD_TESTS=OFF -DOCCX_BUILD_UI=OFF \
    -DOCCX_BUILD_BENCHMARKS=OFF -DOCCX_ENABLE_CUDA=OFF -DOCCX_SANITIZE=OFF >/dev/null
fi
cmake --build "$build" -j "$jobs" --target fuzzers

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$build/artifacts"
scratch=$(mktemp -d)
# On any exit, targets still running are stopped before their folder goes.
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$scratch"' EXIT
# One target: its libFuzzer run, its one-line result (or the failure's lines) in $scratch/$t.result;
# exit status non-zero when it failed.
run_target() {
  local t=$1 dict=() max_len=8192
  # Inputs up to 8 KiB, except cubins: the real ones of the seed corpus are 11-13 KiB, and one cut at
  # 8 KiB loses its section headers (at the end of the file), so nothing past the ELF header is reached.
  case $t in
    fuzz_cli) dict=(-dict="$root/tests/fuzz/cli.dict") ;;
    fuzz_csv) dict=(-dict="$root/tests/fuzz/csv.dict") ;;
    fuzz_gpu_data) dict=(-dict="$root/tests/fuzz/gpu_data.dict") ;;
    fuzz_cache) dict=(-dict="$root/tests/fuzz/cache.dict") ;;
    fuzz_cubin) dict=(-dict="$root/tests/fuzz/cubin.dict"); max_len=16384 ;;
    fuzz_kernel_module) dict=(-dict="$root/tests/fuzz/kernel_module.dict") ;;
    # JSON + IR + cubin in one input: ref_sum's seed is 19 KiB.
    fuzz_triton_folder) dict=(-dict="$root/tests/fuzz/triton_folder.dict"); max_len=32768 ;;
  esac
  mkdir -p "$scratch/$t" "$scratch/$t.tmp"
  # TMPDIR: fuzz_cli runs the commands inside a folder it makes there, so their files go too (one
  # folder per target: targets run side by side).
  if ! TMPDIR="$scratch/$t.tmp" "$build/tests/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "${dict[@]}" \
       "$scratch/$t" "$root/tests/fuzz/corpus/$t" >"$scratch/$t.log" 2>&1; then
    {
      echo "fuzz-smoke: $t FAILED; the input is in $build/artifacts/:"
      grep -E "ERROR|runtime error|property violated|SUMMARY|Test unit written" "$scratch/$t.log" | head -20 || true
      tail -40 "$scratch/$t.log"
    } >"$scratch/$t.result"
    return 1
  fi
  local execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$t.log")
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$scratch/$t.log" | tail -1 || true)
  echo "fuzz-smoke: $t ok: $execs executions, $cov" >"$scratch/$t.result"
}

# Each libFuzzer run is one process on one core: as many side by side as there are cores, each
# still given its full SECONDS_PER_TARGET.
status=0
declare -A running=()
reap() {
  local pid rc=0
  wait -n -p pid || rc=$?
  local t=${running[$pid]}
  unset "running[$pid]"
  if [ $rc -ne 0 ]; then
    status=1
    # A target that stopped before writing its result (the script itself failed) still shows its log.
    cat "$scratch/$t.result" 2>/dev/null >&2 || { echo "fuzz-smoke: $t FAILED (exit $rc)"; tail -40 "$scratch/$t.log"; } >&2
  else
    cat "$scratch/$t.result"
  fi
}
for t in "${targets[@]}"; do
  while [ ${#running[@]} -ge "$jobs" ]; do reap; done
  echo "fuzz-smoke: $t for $secs s"
  run_target "$t" &
  running[$!]=$t
done
while [ ${#running[@]} -gt 0 ]; do reap; done
exit $status
