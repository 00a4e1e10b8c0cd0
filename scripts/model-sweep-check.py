#!/usr/bin/env python3
"""Compares the fast model sweep with the exhaustive baseline (what scripts/gpu-model-sweep.sh
wrote): per kernel of the baseline, the baseline's best config and time, the fast sweep's best, and
the fast best's time in the baseline; the fast pick holds when that time is within the baseline's
run-to-run spread of the best (the larger spread of the two configs, at least 1 %).

    python3 scripts/model-sweep-check.py DIR CASE [CASE ...]
"""
import csv
import io
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        body = "".join(line for line in f if not line.startswith("# "))
    return list(csv.DictReader(io.StringIO(body)))


def time_of(r):
    t = r.get("kernel_time_us") or r.get("time_us")
    return float(t) if t and r.get("status") == "ok" else None


def best(rs, kernel):
    ok = [(time_of(r), r) for r in rs if r["kernel"] == kernel and time_of(r) is not None]
    return min(ok, key=lambda x: x[0]) if ok else (None, None)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    held = total = 0
    for case in argv[2:]:
        full, fast = rows(f"{argv[1]}/{case}.full.csv"), rows(f"{argv[1]}/{case}.fast.csv")
        for kernel in sorted({r["kernel"] for r in full}):
            bt, br = best(full, kernel)
            ft, fr = best(fast, kernel)
            if br is None or fr is None:
                print(f"{case} {kernel}: no ok rows")
                continue
            fast_in_full = [r for r in full if r["kernel"] == kernel and r["config"] == fr["config"]]
            t = time_of(fast_in_full[0]) if fast_in_full else None
            spread = max(float(br.get("spread_pct") or 0), float(fast_in_full[0].get("spread_pct") or 0) if fast_in_full else 0, 1.0)
            ok = t is not None and t <= bt * (1 + spread / 100)
            held += ok
            total += 1
            print(f"{case} {kernel[:60]}: baseline best {br['config']} {bt:.1f} µs; fast best {fr['config']} "
                  f"(baseline {t if t is None else round(t, 1)} µs, +{0 if t is None else 100 * (t / bt - 1):.2f} %, "
                  f"spread {spread:.2f} %): {'holds' if ok else 'DIFFERS'}")
    print(f"{held} of {total} fast picks hold")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
