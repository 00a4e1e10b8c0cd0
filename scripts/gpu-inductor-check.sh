#!/usr/bin/env bash
# On a GPU machine with PyTorch and Triton: records the Inductor runs of
# scripts/record-inductor-fixtures.py (whole caches, pointwise kernels included), runs one model
# with Inductor's default cache as a new user would, builds occx (UI off) and scans every cache
# with `occx inductor scan`, then compares each compiled config with what Triton and the CUDA
# driver reported (scripts/compare-inductor-scan.py). Writes OUTDIR/summary.txt and the scans.
#
#   scripts/gpu-inductor-check.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/gpu-inductor-check.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
VENDOR=${OCCX_VENDOR_INCLUDE_DIR:-}
if [[ -z "$VENDOR" && -d .deps/include ]]; then VENDOR=$PWD/.deps/include; fi
(
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DOCCX_BUILD_UI=OFF -DOCCX_BUILD_TESTS=OFF \
    -DOCCX_BUILD_BENCHMARKS=OFF ${VENDOR:+-DOCCX_VENDOR_INCLUDE_DIR=$VENDOR} >"$OUT/build.log" 2>&1 &&
    cmake --build build-gpu --target occx >>"$OUT/build.log" 2>&1
) &
build=$!
WORK=$(mktemp -d)
python3 scripts/record-inductor-fixtures.py "$WORK/record" >"$OUT/record.txt" 2>&1
# A new user: no TORCHINDUCTOR_CACHE_DIR, Inductor's default cache.
unset TORCHINDUCTOR_CACHE_DIR
python3 - >"$OUT/default-cache.txt" 2>&1 <<'PY'
import torch
f = torch.compile(lambda t: torch.softmax(t.float(), dim=-1).sum(dim=0))
print(f(torch.randn(4096, 3000, device="cuda", dtype=torch.float16)).shape)
PY
wait $build || { echo "build failed" >>"$OUT/summary.txt"; tail -30 "$OUT/build.log" >>"$OUT/summary.txt"; exit 1; }
{
  echo "occx inductor scan (default cache, no arguments):"
  build-gpu/occx inductor scan --no-home-cache 2>&1 | head -12
  for dir in "$WORK"/record-caches/*; do
    name=$(basename "$dir")
    start=$(date +%s%N)
    build-gpu/occx inductor scan "$dir" --no-home-cache --json -q >"$OUT/$name.json"
    ms=$((($(date +%s%N) - start) / 1000000))
    echo "$name: scan ${ms} ms — $(find "$dir" -type f | wc -l) files, $(du -sh "$dir" | cut -f1)"
  done
  python3 scripts/compare-inductor-scan.py "$OUT" "$WORK/record"
} >>"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
