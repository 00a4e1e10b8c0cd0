#!/usr/bin/env bash
# The bad-input gate, in CI after the release build (.ci/run):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer build (clang) of the engine, CLI and UI tests —
#      no CUDA; the UI tests run off-screen (views, models, plots, jobs, the GUI invalid-input
#      matrix) — and the run of every test in it; any sanitizer report or leak fails (the code is
#      built with -fno-sanitize-recover=all and runs with halt_on_error=1);
#   2. the fuzz smoke run: each libFuzzer target in tests/fuzz for 20 s (scripts/fuzz-smoke.sh),
#      built in the same folder, so the engine is compiled once for both;
#   3. clang-tidy over core/ (not core/cuda), app/ and ui/ (scripts/tidy.sh, checks in .clang-tidy).
#
# Left out on purpose: OccupancyDifferential.* (the exhaustive comparison with cuda_occupancy.h,
# 5.5 million cases) — seconds in the release build that scripts/test.sh runs, minutes under ASan;
# fuzz_gpu_data drives the same calculator with the sanitizers on. Warnings are the release build's
# gate (-Werror there); here they do not stop the run.
#
# Usage: scripts/sanitize.sh [--no-fuzz] [--no-tidy] [--no-ui]
# Environment: OCCX_ASAN_BUILD_DIR (default build-asan), OCCX_JOBS (default nproc),
#              OCCX_FUZZ_SECONDS (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${OCCX_ASAN_BUILD_DIR:-build-asan}
jobs=${OCCX_JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz=1
tidy=1
ui=1
for a in "$@"; do
  case $a in
    --no-fuzz) fuzz=0 ;;
    --no-tidy) tidy=0 ;;
    --no-ui) ui=0 ;;
    *) echo "usage: scripts/sanitize.sh [--no-fuzz] [--no-tidy] [--no-ui]" >&2; exit 2 ;;
  esac
done
if ! command -v clang++ >/dev/null; then
  echo "sanitize: clang++ not found (run scripts/setup-deps.sh: clang, libclang-rt-14-dev, clang-tidy)" >&2
  exit 1
fi

start=$(date +%s)
# -O1: libFuzzer's usual level; the tests run faster than at -O0 and stack traces stay exact.
# -gline-tables-only: a report's stack still names every function, file and line, and the build
# spends no time on variable locations. A unity build (8 .cpp files per compiler run), as the
# release preset's: the headers of Qt, nlohmann-json and GoogleTest are compiled once per batch.
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 -DOCCX_SANITIZE=ON -DOCCX_BUILD_FUZZERS=$([ $fuzz -eq 1 ] && echo ON || echo OFF) \
  -DOCCX_BUILD_UI=$([ $ui -eq 1 ] && echo ON || echo OFF) -DOCCX_BUILD_BENCHMARKS=OFF -DOCCX_ENABLE_CUDA=OFF -DOCCX_WARNINGS_AS_ERRORS=OFF >/dev/null
targets=(occx_core_tests occx)
[ $ui -eq 1 ] && targets+=(occx_ui_tests)
[ $fuzz -eq 1 ] && targets+=(fuzzers)
cmake --build "$build" -j "$jobs" --target "${targets[@]}"
built=$(date +%s)

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# One process per suite (ctest would start ASan once per test case); the engine and UI suites side
# by side, each writing its own log, shown when it fails.
logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
"$build/tests/occx_core_tests" --gtest_filter='-OccupancyDifferential.*' --gtest_brief=1 >"$logs/core.log" 2>&1 &
suites=([$!]=core)
if [ $ui -eq 1 ]; then
  QT_QPA_PLATFORM=offscreen "$build/tests/occx_ui_tests" --gtest_brief=1 >"$logs/ui.log" 2>&1 &
  suites[$!]=ui
fi
# The CLI as a user runs it (exit codes), from tests/CMakeLists.txt.
failed=0
ctest --test-dir "$build" -L cli --output-on-failure || failed=1
for pid in "${!suites[@]}"; do
  name=${suites[$pid]}
  if wait "$pid"; then
    echo "sanitize: occx_${name}_tests: $(grep -E '^\[  PASSED  \]' "$logs/$name.log" | tail -1)"
  else
    failed=1
    echo "sanitize: occx_${name}_tests FAILED:" >&2
    cat "$logs/$name.log" >&2  # --gtest_brief: the failures and the sanitizer's whole report
  fi
done
[ $failed -eq 0 ] || exit 1
tested=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((tested - built)) s"

if [ $fuzz -eq 1 ]; then
  unset ASAN_OPTIONS UBSAN_OPTIONS  # fuzz-smoke.sh sets its own
  OCCX_FUZZ_BUILD_DIR="$build" ./scripts/fuzz-smoke.sh "${OCCX_FUZZ_SECONDS:-20}"
  echo "sanitize: fuzz smoke $(( $(date +%s) - tested )) s"
fi
if [ $tidy -eq 1 ]; then
  t0=$(date +%s)
  ./scripts/tidy.sh
  echo "sanitize: clang-tidy $(( $(date +%s) - t0 )) s"
fi
