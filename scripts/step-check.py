#!/usr/bin/env python3
"""Reads what scripts/gpu-step-check.sh wrote (per case: CASE.step.csv from `occx inductor step --csv`,
CASE.runs.csv from `occx inductor run --csv`) and prints, per reduction kernel that ran in the step,
its in-step median against the measured figures of the config that ran (cold and warm device time,
CUDA events, DRAM bandwidth), whether the in-step time lies between warm and cold or within 10 % of
one of them, and per kernel and policy the picks that differ between cold and warm.

    python3 scripts/step-check.py DIR CASE [CASE ...]
    python3 scripts/step-check.py --bandwidth CSV [CSV ...]   (kernel-runs CSVs: DRAM bandwidth against copy)
    python3 scripts/step-check.py --picks CSV [CSV ...]       (kernel-runs CSVs: picks that differ, cold vs warm)
"""
import csv
import io
import statistics
import sys

POLICIES = ["old", "new", "review_min", "exact", "spills"]


def read_csv(path):
    """(metadata dict, rows as dicts) of a CSV whose metadata lines start with '#'."""
    meta, lines = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# ") and not lines:
                key, _, value = line[2:].rstrip("\n").partition(": ")
                meta.setdefault(key, value)
            else:
                lines.append(line)
    return meta, list(csv.DictReader(io.StringIO("".join(lines))))


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def verdict(in_step, cold, warm):
    """The same rule as occx's stepAgreement (core/sweep/measurement.cpp)."""
    if warm is not None and min(cold, warm) <= in_step <= max(cold, warm):
        return True, "between warm and cold"
    if abs(in_step - cold) <= 0.10 * cold:
        return True, "within 10 % of cold"
    if warm is not None and abs(in_step - warm) <= 0.10 * warm:
        return True, "within 10 % of warm"
    hi = max(cold, warm) if warm is not None else cold
    lo = min(cold, warm) if warm is not None else cold
    ref = hi if in_step > hi else lo
    return False, f"outside: {ref / in_step:.2f}x in-step"


def same_config(step_config, r):
    """Whether a step row's config label (`X1 R2048 w16`, `X8 R? w8 s2`) is the run row's config."""
    want = {"X": r.get("xblock") or "", "w": r.get("num_warps") or "", "s": r.get("num_stages") or "1"}
    got = {"s": "1"}
    for token in step_config.split():
        if token.startswith("R1_"):
            continue
        got[token[0]] = token[1:]
    if got.get("R") not in (None, "?") and (r.get("r0_block") or "") not in ("", got["R"]):
        return False
    return all(got.get(k) == v for k, v in want.items() if k in ("X", "w")) and got["s"] == (want["s"] or "1")


def cold_of(r):
    return num(r.get("kernel_time_us")) or num(r.get("time_us"))


def warm_of(r):
    return num(r.get("warm_kernel_time_us")) or num(r.get("warm_time_us"))


def picks(rows, time_of):
    """Per policy: the fastest ok config of its set, spill filter applied (the first ok config when
    every one is over the threshold), as occx's summarizePicks."""
    out = {}
    for p in POLICIES:
        members = [r for r in rows if r.get("in_" + p) == "1" and r["status"] == "ok" and time_of(r) is not None]
        timed = [r for r in members if r.get("over_spill_threshold") != "1"]
        if timed:
            out[p] = min(timed, key=time_of)["config"]
        elif members:
            out[p] = members[0]["config"]
    ok = [r for r in rows if r["status"] == "ok" and time_of(r) is not None]
    if ok:
        out["best"] = min(ok, key=time_of)["config"]
    return out


def picks_changed(case, runs):
    """Lines naming, per kernel and policy (and "best"), the picks that differ between cold and warm."""
    changed = []
    kernels = {}
    for r in runs:
        kernels.setdefault((r["kernel"], r["module"]), []).append(r)
    for (kernel, _), rows in kernels.items():
        pc, pw = picks(rows, cold_of), picks(rows, warm_of)
        for p in ["best"] + POLICIES:
            if p in pc and p in pw and pc[p] != pw[p]:
                a = next(r for r in rows if r["config"] == pc[p])
                b = next(r for r in rows if r["config"] == pw[p])
                changed.append(f"{case} {kernel[:60]} {p}: cold picks {pc[p]} ({cold_of(a):.1f} cold, "
                               f"{warm_of(a) or 0:.1f} warm µs), warm picks {pw[p]} ({cold_of(b):.1f} cold, "
                               f"{warm_of(b) or 0:.1f} warm µs)")
    return changed


def step_check(folder, cases):
    total = agree = 0
    ratios_cold, ratios_warm = [], []
    changed = []
    print("case        kernel                                              config          launches  in-step  "
          "cold     warm     events   DRAM GB/s  where the in-step time lies")
    for case in cases:
        _, steps = read_csv(f"{folder}/{case}.step.csv")
        meta, runs = read_csv(f"{folder}/{case}.runs.csv")
        for s in steps:
            if s["category"] not in ("triton_red", "triton_per") or s["match"] != "matched":
                continue
            r = next((r for r in runs if r["module"] == s["module"] and r["status"] == "ok"
                      and same_config(s["config"], r)), None)
            if r is None:
                print(f"{case:<11} {s['kernel'][:50]:<51} {s['config'] or '?':<15} not measured")
                continue
            in_step = num(s["in_step_median_us"])
            cold, warm, events = cold_of(r), warm_of(r), num(r["time_us"])
            if not in_step or not cold:
                print(f"{case:<11} {s['kernel'][:50]:<51} {s['config']:<15} no in-step or measured time")
                continue
            ok, where = verdict(in_step, cold, warm)
            total += 1
            agree += ok
            ratios_cold.append(cold / in_step)
            if warm:
                ratios_warm.append(warm / in_step)
            bw = r.get("bandwidth_GBps") if num(r.get("bandwidth_GBps")) else "-"
            print(f"{case:<11} {s['kernel'][:50]:<51} {s['config']:<15} {float(s['launches_per_step']):>8.0f}  "
                  f"{in_step:>7.1f}  {cold:>7.1f}  {warm if warm else float('nan'):>7.1f}  {events:>7.1f}  "
                  f"{bw:>9}  {where}")
        changed += picks_changed(case, runs)
    print(f"\n{agree} of {total} kernels ({100.0 * agree / max(total, 1):.0f} %): the in-step median lies between "
          f"warm and cold, or within 10 % of one of them.")
    if ratios_cold:
        print(f"cold / in-step: median {statistics.median(ratios_cold):.2f} (min {min(ratios_cold):.2f}, max "
              f"{max(ratios_cold):.2f})")
    if ratios_warm:
        print(f"warm / in-step: median {statistics.median(ratios_warm):.2f} (min {min(ratios_warm):.2f}, max "
              f"{max(ratios_warm):.2f})")
    print(f"\nPicks that differ between cold and warm ({len(changed)}):")
    for c in changed:
        print("  " + c)


def bandwidth_check(paths):
    for path in paths:
        meta, rows = read_csv(path)
        copy = num(meta.get("copy_bandwidth_GBps"))
        ok = [r for r in rows if r["status"] == "ok"]
        dram = [r for r in ok if r.get("bandwidth_from") == "DRAM bytes"]
        bws = [num(r["bandwidth_GBps"]) for r in dram if num(r["bandwidth_GBps"])]
        hidden = [r for r in ok if (r.get("bandwidth_from") or "").startswith("not shown")]
        over = [b for b in bws if copy and b > copy * 1.05]
        print(f"{path}: copy {copy} GB/s; {len(ok)} ok rows, {len(dram)} with a DRAM-byte bandwidth "
              f"(max {max(bws) if bws else 0:.0f} GB/s, {len(over)} above copy + 5 %), {len(hidden)} not shown")
        for r in hidden[:3]:
            print(f"   not shown: {r['config']}: {r['bandwidth_from']}")


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--bandwidth":
        bandwidth_check(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "--picks":
        for path in sys.argv[2:]:
            lines = picks_changed(path, read_csv(path)[1])
            print(f"{path}: {len(lines)} picks differ between cold and warm")
            for line in lines:
                print("  " + line)
    elif len(sys.argv) >= 3:
        step_check(sys.argv[1], sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
