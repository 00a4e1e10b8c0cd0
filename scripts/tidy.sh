#!/usr/bin/env bash
# clang-tidy over the engine and the command line (every .cpp under the folders in tidy_dirs, less
# those in skip_dirs, and the headers of those folders they include) with the checks listed and
# justified in .clang-tidy; then over the Qt face (ui/, app/gui, app/backend, app/occx); any finding
# fails. Needs only configured build folders for compile_commands.json (nothing is compiled):
# build-tidy (CUDA and Qt off) and build-tidy-ui (Qt on, a unity build: each of its generated
# sources includes 8 .cpp files of ui/, so Qt's headers are parsed once per 8 files, not once per
# file; the findings name the real files and lines).
# To cover another folder, add it to tidy_dirs here and its headers to HeaderFilterRegex in
# .clang-tidy (its sources must be in that build: a folder built only with Qt needs the UI on).
# Usage: scripts/tidy.sh [FILE…]   (FILEs: of core/ or app/cli only; default: all of the above)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${OCCX_TIDY_BUILD_DIR:-build-tidy}
jobs=${OCCX_JOBS:-$(nproc 2>/dev/null || echo 2)}
tidy=$(command -v clang-tidy || command -v clang-tidy-14 || true)
if [ -z "$tidy" ]; then
  echo "tidy: clang-tidy not found (Debian: apt-get install clang-tidy)" >&2
  exit 1
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DOCCX_BUILD_UI=OFF \
  -DOCCX_BUILD_TESTS=OFF -DOCCX_BUILD_BENCHMARKS=OFF -DOCCX_ENABLE_CUDA=OFF >/dev/null
tidy_dirs=(core app/cli)
skip_dirs=(core/cuda) # CI has no CUDA toolkit, so these are not in build-tidy's compile_commands.json
if [ $# -gt 0 ]; then
  files=("$@")
else
  skip=()
  for d in "${skip_dirs[@]}"; do skip+=(-not -path "$d/*"); done
  mapfile -t files < <(find "${tidy_dirs[@]}" -name '*.cpp' "${skip[@]}" | sort)
fi
rc=0
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -n 1 "$tidy" -p "$build" --quiet >"$build/tidy.log" 2>&1 || rc=$?
checked="${#files[@]} files"
if [ $# -eq 0 ]; then
  ui_build=${OCCX_TIDY_UI_BUILD_DIR:-build-tidy-ui}
  cmake -S . -B "$ui_build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DOCCX_BUILD_UI=ON \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 -DOCCX_BUILD_TESTS=OFF -DOCCX_BUILD_BENCHMARKS=OFF \
    -DOCCX_ENABLE_CUDA=OFF >/dev/null
  # The generated sources of the Qt face's targets; bugprone-suspicious-include would flag their very
  # purpose (#include "….cpp").
  mapfile -t unity < <(find "$ui_build/ui" "$ui_build/CMakeFiles/occupancy-explorer.dir" \
    "$ui_build/CMakeFiles/occx_build_backend.dir" "$ui_build/CMakeFiles/occx.dir" -path '*/Unity/unity_*_cxx.cxx' | sort)
  printf '%s\n' "${unity[@]}" | xargs -P "$jobs" -n 1 "$tidy" -p "$ui_build" --quiet \
    --checks=-bugprone-suspicious-include >>"$build/tidy.log" 2>&1 || rc=$?
  checked="$checked and ${#unity[@]} unity sources (every .cpp of ui/ and app/)"
fi
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' \
  "$build/tidy.log" || true
# xargs exits non-zero when any clang-tidy run failed (a finding: WarningsAsErrors is '*').
if [ $rc -ne 0 ]; then
  echo "tidy: findings above (also in $build/tidy.log)" >&2
  exit 1
fi
echo "tidy: $checked clean"
