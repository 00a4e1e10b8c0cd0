#!/usr/bin/env bash
# The sanitizer gate: AddressSanitizer + UndefinedBehaviorSanitizer build of the engine and CLI
# tests (no Qt, no CUDA: OCCX_BUILD_UI=OFF, OCCX_ENABLE_CUDA=OFF), then the fuzz smoke run
# (scripts/fuzz-smoke.sh, 20 s per target). Any sanitizer report fails: the code is built with
# -fno-sanitize-recover=all and run with halt_on_error=1.
#
# Left out on purpose: OccupancyDifferential.* (the exhaustive comparison with cuda_occupancy.h,
# 5.5 million cases) — seconds in the release build that scripts/test.sh runs, many minutes under
# ASan; fuzz_gpu_data drives the same calculator with sanitizers on. Warnings are the release build's
# gate (-Werror there); here they do not stop the run.
#
# Usage: scripts/sanitize.sh [--no-fuzz]
# Environment: OCCX_ASAN_BUILD_DIR (default build-asan), OCCX_JOBS (default nproc),
#              OCCX_FUZZ_SECONDS (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${OCCX_ASAN_BUILD_DIR:-build-asan}
jobs=${OCCX_JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz=1
[ "${1:-}" = "--no-fuzz" ] && fuzz=0

start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOCCX_SANITIZE=ON -DOCCX_BUILD_UI=OFF \
  -DOCCX_BUILD_BENCHMARKS=OFF -DOCCX_ENABLE_CUDA=OFF -DOCCX_WARNINGS_AS_ERRORS=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target occx_core_tests occx
built=$(date +%s)

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# One process for the whole suite (ctest would start ASan once per test case).
"$build/tests/occx_core_tests" --gtest_filter='-OccupancyDifferential.*' --gtest_brief=1
# The CLI as a user runs it (exit codes), from tests/CMakeLists.txt.
ctest --test-dir "$build" -L cli --output-on-failure
echo "sanitize: build $((built - start)) s, tests $(( $(date +%s) - built )) s"

if [ $fuzz -eq 1 ]; then
  ./scripts/fuzz-smoke.sh "${OCCX_FUZZ_SECONDS:-20}"
fi
