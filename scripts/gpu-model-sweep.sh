#!/usr/bin/env bash
# On a GPU machine with PyTorch and Triton: sweeps each recorded model's training step whole with
# `occx inductor sweep --all` (every looped reduction of the step, default grid, a brief first pass
# and the full method for the finalists) and times it; then, as the baseline the fast sweep is
# checked against, sweeps the step's three largest reductions exhaustively (--full: every config
# with the full method). scripts/model-sweep-check.py compares the two.
#
#   scripts/gpu-model-sweep.sh OUTDIR [CASE ...]     (cases: step fixtures, default gpt2 bert t5 blenderbot)
#   OCCX: the occx binary (default build/release/occx); FIXTURES: the step fixtures' folder
#   (default build/release/test-data/inductor); SKIP_FULL=1 leaves the baselines out.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/gpu-model-sweep.sh OUTDIR [CASE ...]}
shift
CASES=${*:-gpt2 bert t5 blenderbot}
OCCX=${OCCX:-build/release/occx}
FIXTURES=${FIXTURES:-build/release/test-data/inductor}
mkdir -p "$OUT"
for c in $CASES; do
  dir="$FIXTURES/step_$c"
  t0=$SECONDS
  "$OCCX" inductor sweep --all "$dir" --trace "$dir/trace.pt.trace.json.gz" --no-home-cache -q \
    --sweep-cache "$OUT/sweep-cache" --csv "$OUT/$c.fast.csv" >"$OUT/$c.fast.txt" 2>"$OUT/$c.fast.log"
  echo "$c: fast sweep of the step $((SECONDS - t0)) s (exit $?)" | tee -a "$OUT/times.txt"
  if [ "${SKIP_FULL:-0}" != 1 ]; then
    t1=$SECONDS
    "$OCCX" inductor sweep --all "$dir" --trace "$dir/trace.pt.trace.json.gz" --no-home-cache -q --top 3 --full \
      --sweep-cache none --csv "$OUT/$c.full.csv" >"$OUT/$c.full.txt" 2>"$OUT/$c.full.log"
    echo "$c: exhaustive sweep of the 3 largest reductions $((SECONDS - t1)) s (exit $?)" | tee -a "$OUT/times.txt"
  fi
done
