#!/usr/bin/env bash
# On a GPU machine with PyTorch, Triton and transformers: checks `occx inductor pin` on a model's real
# training step. For each case it compiles the step with Inductor's coordinate descent on and profiles
# it (scripts/record-inductor-fixtures.py), sweeps the step's looped reductions and pins each one's
# fastest config that would hold (`occx inductor pin`), runs and profiles the step again in the same
# Inductor cache, and compares each pinned kernel's predicted in-step time with the profiled one
# (scripts/pin-check.py).
#
#   scripts/gpu-pin-check.sh OUTDIR [CASE ...]        (cases: gpt2 bert t5 blenderbot; default gpt2)
#   OCCX: the occx binary (default build/release/occx); PY: the Python with PyTorch (default python3);
#   BUDGET: the model sweep's budget (default 150s).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: scripts/gpu-pin-check.sh OUTDIR [CASE ...]}")
shift
CASES=${*:-gpt2}
OCCX=${OCCX:-build/release/occx}
PY=${PY:-python3}
BUDGET=${BUDGET:-150s}
mkdir -p "$OUT"
export TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1
for c in $CASES; do
  t0=$SECONDS
  "$PY" scripts/record-inductor-fixtures.py "$OUT/rec" "$c" | tee -a "$OUT/times.txt"
  t1=$SECONDS
  echo "$c: compiled with coordinate descent and profiled in $((t1 - t0)) s" | tee -a "$OUT/times.txt"
  cache="$OUT/rec-caches/$c"
  trace="$OUT/rec/$c/trace.pt.trace.json.gz"
  "$OCCX" inductor pin "$cache" --trace "$trace" --budget "$BUDGET" --python "$PY" --no-home-cache -q \
    --sweep-cache "$OUT/sweep-cache" --dry-run --csv "$OUT/$c.pin.csv" >"$OUT/$c.pin.txt" 2>"$OUT/$c.pin.log"
  echo "$c: swept in $((SECONDS - t1)) s (exit $?)" | tee -a "$OUT/times.txt"
  t15=$SECONDS
  # The same sweep again, from the sweep cache: the pins are written and their predictions kept.
  "$OCCX" inductor pin "$cache" --trace "$trace" --budget "$BUDGET" --python "$PY" --no-home-cache -q \
    --sweep-cache "$OUT/sweep-cache" --json >"$OUT/$c.pin.json" 2>>"$OUT/$c.pin.log"
  echo "$c: pinned (resumed from the sweep cache) in $((SECONDS - t15)) s (exit $?)" | tee -a "$OUT/times.txt"
  t2=$SECONDS
  "$PY" scripts/record-inductor-fixtures.py --rerun "$cache" "$OUT/rerun/$c" "$c" | tee -a "$OUT/times.txt"
  echo "$c: ran and profiled again with the pins in $((SECONDS - t2)) s" | tee -a "$OUT/times.txt"
  "$OCCX" inductor step "$OUT/rec/$c/trace.pt.trace.json.gz" "$cache" --no-home-cache -q --json >"$OUT/$c.before.json"
  "$OCCX" inductor step "$OUT/rerun/$c/trace.pt.trace.json.gz" "$cache" --no-home-cache -q --json >"$OUT/$c.after.json"
  "$PY" scripts/pin-check.py "$OUT" "$c" | tee "$OUT/$c.check.txt"
done
