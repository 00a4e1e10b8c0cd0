#!/usr/bin/env bash
# On a GPU machine with PyTorch, Triton and transformers: checks `occx inductor pin` on real training
# steps. The cases are compiled with Inductor's coordinate descent on, in parallel
# (scripts/record-inductor-fixtures.py), and each case's step runs again in its Inductor cache and is
# profiled, one case at a time, on an otherwise idle GPU (the "before" trace). Then, one case at a
# time: `occx inductor pin` sweeps its looped reductions and writes each one's fastest config that
# would hold; the step is compiled again with the FX graph cache off, runs with the pins and is
# profiled (the "after" trace); scripts/pin-check.py compares each pinned kernel's predicted in-step
# time with the profiled one.
#
#   scripts/gpu-pin-check.sh OUTDIR [CASE ...]        (cases: gpt2 bert t5 blenderbot; default gpt2)
#   OCCX: the occx binary (default build/release/occx); PY: the Python with PyTorch (default python3);
#   BUDGET: each model sweep's budget (default 60s); TOP: at most this many kernels (default 5, 0: all);
#   PHASES: "compile" (compile and profile before), "check" (pin, profile after, compare) or both
#   (default "compile check"). A check whose case was not compiled in OUTDIR compiles it alone first,
#   and that run's own trace is the "before" trace.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
OUT=$(realpath -m "${1:?usage: scripts/gpu-pin-check.sh OUTDIR [CASE ...]}")
shift
CASES=${*:-gpt2}
OCCX=${OCCX:-build/release/occx}
PY=${PY:-python3}
BUDGET=${BUDGET:-60s}
TOP=${TOP:-5}
mkdir -p "$OUT"
export TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1
PHASES=${PHASES:-compile check}
before() { # CASE: the step again in its cache, profiled alone
  "$PY" scripts/record-inductor-fixtures.py --rerun "$OUT/rec-caches/$1" "$OUT/before/$1" "$1" | tee -a "$OUT/times.txt"
}
if [[ $PHASES == *compile* ]]; then
  t0=$SECONDS
  # shellcheck disable=SC2086
  "$PY" scripts/record-inductor-fixtures.py "$OUT/rec" $CASES | tee -a "$OUT/times.txt"
  echo "compiled with coordinate descent and profiled ($CASES, in parallel) in $((SECONDS - t0)) s" | tee -a "$OUT/times.txt"
  for c in $CASES; do before "$c"; done
fi
[[ $PHASES == *check* ]] || exit 0
for c in $CASES; do
  cache="$OUT/rec-caches/$c"
  t1=$SECONDS
  if [[ ! -d $cache ]]; then # compiled alone: its own profile ran on an idle GPU
    "$PY" scripts/record-inductor-fixtures.py "$OUT/rec" "$c" | tee -a "$OUT/times.txt"
    mkdir -p "$OUT/before/$c" && cp "$OUT/rec/$c/trace.pt.trace.json.gz" "$OUT/before/$c/"
  elif [[ ! -f $OUT/before/$c/trace.pt.trace.json.gz ]]; then
    before "$c"
  fi
  trace="$OUT/before/$c/trace.pt.trace.json.gz"
  t2=$SECONDS
  "$OCCX" inductor pin "$cache" --trace "$trace" --top "$TOP" --budget "$BUDGET" --python "$PY" --no-home-cache -q \
    --sweep-cache "$OUT/sweep-cache" --json >"$OUT/$c.pin.json" 2>"$OUT/$c.pin.log"
  rc=$?
  echo "$c: swept and pinned in $((SECONDS - t2)) s (exit $rc)" | tee -a "$OUT/times.txt"
  grep -h ": pinned " "$OUT/$c.pin.log" | sed 's/.* in \(.*\.best_config\) .*/\1/' | sort -u >"$OUT/$c.pinned-files.txt"
  # A cached graph (the FX graph and AOTAutograd caches) keeps the configs it was compiled with: the step
  # is compiled again, its kernels from the same modules, which read the pinned .best_config files.
  TORCHINDUCTOR_FX_GRAPH_CACHE=0 TORCHINDUCTOR_AUTOGRAD_CACHE=0 \
    "$PY" scripts/record-inductor-fixtures.py --rerun "$cache" "$OUT/after/$c" "$c" | tee -a "$OUT/times.txt"
  while read -r f; do echo "$f: $(cat "$f")"; done <"$OUT/$c.pinned-files.txt" >"$OUT/$c.pins-after-rerun.txt"
  "$OCCX" inductor step "$trace" "$cache" --no-home-cache -q --json >"$OUT/$c.before.json"
  "$OCCX" inductor step "$OUT/after/$c/trace.pt.trace.json.gz" "$cache" --no-home-cache -q --json >"$OUT/$c.after.json"
  "$PY" scripts/pin-check.py "$OUT" "$c" | tee "$OUT/$c.check.txt"
  echo "$c: checked in $((SECONDS - t1)) s" | tee -a "$OUT/times.txt"
done
