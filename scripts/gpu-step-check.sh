#!/usr/bin/env bash
# On a GPU machine with PyTorch, Triton and transformers: checks the product's times against the
# user's step. For each case (default: the recorded models gpt2 bert t5 blenderbot, the
# Llama-style model with RMSNorm, and norms_bwd), scripts/record-inductor-fixtures.py compiles its
# training step with torch.compile in a fresh Inductor cache and records a torch.profiler trace of
# two steps; `occx inductor step --csv` reads the trace (the product's own trace reader) and
# `occx inductor run --reductions` measures every compiled config of every reduction kernel of the
# same run: device time cold and warm (CUPTI), CUDA events, DRAM bandwidth. scripts/step-check.py
# then prints, per kernel that ran in the step, its in-step median against those figures, and the
# policies' picks that change between cold and warm.
#
#   scripts/gpu-step-check.sh OUTDIR [CASE ...]        (OCCX: the occx binary, default build-gpu/occx)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/gpu-step-check.sh OUTDIR [CASE ...]}
shift
CASES=${*:-gpt2 bert t5 blenderbot llama norms_bwd}
OCCX=${OCCX:-build-gpu/occx}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=${WORK:-$(mktemp -d)}
t0=$SECONDS
# shellcheck disable=SC2086
python3 scripts/record-inductor-fixtures.py "$WORK/record" $CASES >"$OUT/record.log" 2>&1
echo "recorded ${CASES} in $((SECONDS - t0)) s" | tee "$OUT/times.txt"
for c in $CASES; do
  cache="$WORK/record-caches/$c"
  trace="$WORK/record/$c/trace.pt.trace.json.gz"
  t1=$SECONDS
  "$OCCX" inductor step "$trace" "$cache" --no-home-cache -q --csv "$OUT/$c.step.csv" >/dev/null 2>"$OUT/$c.step.log"
  "$OCCX" inductor run "$cache" --no-home-cache --reductions --trace "$trace" -q --csv "$OUT/$c.runs.csv" \
    >"$OUT/$c.run.txt" 2>&1
  echo "$c: step + run $((SECONDS - t1)) s" | tee -a "$OUT/times.txt"
done
# shellcheck disable=SC2086
python3 scripts/step-check.py "$OUT" $CASES | tee "$OUT/step-check.txt"
