#!/usr/bin/env python3
"""Compares each pinned kernel's predicted in-step time with the profiled one (what
scripts/gpu-pin-check.sh wrote): OUTDIR/CASE.pin.json (`occx inductor pin --json`: the pins written
and their predictions), OUTDIR/CASE.before.json and OUTDIR/CASE.after.json (`occx inductor step --json`
of the step before and after pinning) and the traces OUTDIR/{before,after}/CASE/trace.pt.trace.json.gz
(each launch's grid and block). A prediction holds when it is within 10 % of the profiled time.
Kernels not pinned are listed too: their change is the run-to-run drift of the step. Exits 1 when a
pinned kernel did not launch as pinned or missed its prediction by more than 10 %.

    python3 scripts/pin-check.py OUTDIR CASE
"""
import collections
import gzip
import json
import sys


def per_step(doc):
    out = {}
    for k in doc.get("kernels", []):
        name = k.get("kernel")
        v = k.get("in_step_per_step_us")
        if name and v not in (None, ""):
            out[name] = out.get(name, 0.0) + float(v)
    return out


def launches(trace_path):
    """Each kernel's launches in a Chrome trace: {name: Counter of (grid x, threads per block)}."""
    out = {}
    with gzip.open(trace_path, "rt") as f:
        events = json.load(f).get("traceEvents", [])
    for e in events:
        args = e.get("args") or {}
        if e.get("cat") == "kernel" and "grid" in args and "block" in args:
            out.setdefault(e.get("name", ""), collections.Counter())[(args["grid"][0], args["block"][0])] += 1
    return out


def shapes(counter):
    """"1024x512 (x2), 2048x512 (x2)": grids x threads per block, with their launch counts."""
    return ", ".join(f"{g}x{t} (x{n})" for (g, t), n in sorted(counter.items())) if counter else "?"


def field(config, letter):
    """A field of a config label such as "X8 R1024 w8": field(c, "w") is 8."""
    for part in config.split():
        if part.startswith(letter) and part[1:].isdigit():
            return int(part[1:])
    return None


def ran_as_pinned(before, after, ran_config, pin_config):
    """Whether every launch after pinning is the pin's: 32 x num_warps threads, and a 1-D grid that is a
    launch of the config that ran (32 x its num_warps threads) rescaled by XBLOCK ran / XBLOCK pinned.
    Before, launches of another config may share the kernel's name: one module used by two graphs, each
    tuned on its own; the .best_config holds one of them, and after pinning both read it. None: unknown."""
    x_ran, w_ran = field(ran_config, "X"), field(ran_config, "w")
    x_pin, w_pin = field(pin_config, "X"), field(pin_config, "w")
    if None in (x_ran, w_ran, x_pin, w_pin) or not before or not after:
        return None
    ran_grids = {g for (g, t) in before if t == 32 * w_ran}
    return all(t == 32 * w_pin and any(g * x_pin == gb * x_ran for gb in ran_grids) for (g, t) in after)


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    d, case = argv[1], argv[2]
    pins = json.load(open(f"{d}/{case}.pin.json"))["pins"]
    before = json.load(open(f"{d}/{case}.before.json"))
    after = json.load(open(f"{d}/{case}.after.json"))
    b, a = per_step(before), per_step(after)
    lb = launches(f"{d}/before/{case}/trace.pt.trace.json.gz")
    la = launches(f"{d}/after/{case}/trace.pt.trace.json.gz")
    print(f"{case}: step {before['gpu_time_per_step_us'] / 1000:.3f} ms before, "
          f"{after['gpu_time_per_step_us'] / 1000:.3f} ms after pinning (GPU time per step)")
    held = pinned = took_effect = 0
    print(f"{'kernel':60} {'ran':>14} {'pin':>14} {'before':>8} {'predicted':>9} {'after':>8} {'error':>7}")
    for p in pins:
        name = p["kernel"]
        if not p["pin_config"]:
            if name in a and name in b:
                print(f"{name[:60]:60} {p['ran_config']:>14} {'-':>14} {b[name]:8.1f} {'':>9} {a[name]:8.1f} "
                      f"{100 * (a[name] / b[name] - 1):+6.1f}% (not pinned: drift)")
            continue
        pinned += 1
        if name not in a:
            print(f"{name[:60]:60} pinned {p['pin_config']} but not in the profiled step")
            continue
        err = 100 * (p["predicted_per_step_us"] / a[name] - 1)
        ok = abs(err) <= 10
        held += ok
        took = ran_as_pinned(lb.get(name, ""), la.get(name, ""), p["ran_config"], p["pin_config"])
        ran = {True: "ran as pinned", False: "NOT run as pinned", None: "launch unknown"}[took]
        took_effect += took is True
        print(f"{name[:60]:60} {p['ran_config']:>14} {p['pin_config']:>14} {b.get(name, 0):8.1f} "
              f"{p['predicted_per_step_us']:9.1f} {a[name]:8.1f} {err:+6.1f}% {'ok' if ok else 'OFF'}  "
              f"launch {shapes(lb.get(name))} -> {shapes(la.get(name))} ({ran})")
    print(f"{case}: {took_effect} of {pinned} pinned kernels ran as pinned; {held} of {pinned} within 10 % of the "
          f"profiled in-step time")
    return 0 if took_effect == pinned and held == pinned else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
