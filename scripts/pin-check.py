#!/usr/bin/env python3
"""Compares each pinned kernel's predicted in-step time with the profiled one (what
scripts/gpu-pin-check.sh wrote): OUTDIR/CASE.pin.json (`occx inductor pin --json`: the pins written
and their predictions), OUTDIR/CASE.before.json and OUTDIR/CASE.after.json (`occx inductor step --json`
of the step before and after pinning). A prediction holds when it is within 10 % of the profiled time.
Kernels not pinned are listed too: their change is the run-to-run drift of the step. Exits 1 when a
pinned kernel did not launch as pinned or missed its prediction by more than 10 %.

    python3 scripts/pin-check.py OUTDIR CASE
"""
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


def launch(doc):
    """Each kernel's grid and block as the trace has them ("1024x1x1 512x1x1")."""
    return {k["kernel"]: f"{k.get('grid', '')} {k.get('block', '')}".replace("\u00d7", "x")
            for k in doc.get("kernels", []) if k.get("kernel")}


def field(config, letter):
    """A field of a config label such as "X8 R1024 w8": field(c, "w") is 8."""
    for part in config.split():
        if part.startswith(letter) and part[1:].isdigit():
            return int(part[1:])
    return None


def ran_as_pinned(before, after, ran_config, pin_config):
    """Whether the launch after pinning is the pin's: threads = 32 x num_warps and, on a 1-D grid,
    blocks = blocks before x XBLOCK that ran / XBLOCK pinned."""
    try:
        grid_b = before.split()[0]
        grid_a, block_a = after.split()[:2]
        threads = int(block_a.split("x")[0])
        blocks_b, blocks_a = int(grid_b.split("x")[0]), int(grid_a.split("x")[0])
    except (ValueError, IndexError):
        return None
    x_ran, x_pin, warps = field(ran_config, "X"), field(pin_config, "X"), field(pin_config, "w")
    if None in (x_ran, x_pin, warps):
        return None
    want = blocks_b * x_ran // x_pin
    return threads == 32 * warps and blocks_a == want


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    d, case = argv[1], argv[2]
    pins = json.load(open(f"{d}/{case}.pin.json"))["pins"]
    before = json.load(open(f"{d}/{case}.before.json"))
    after = json.load(open(f"{d}/{case}.after.json"))
    b, a = per_step(before), per_step(after)
    lb, la = launch(before), launch(after)
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
              f"launch {lb.get(name, '?')} -> {la.get(name, '?')} ({ran})")
    print(f"{case}: {took_effect} of {pinned} pinned kernels ran as pinned; {held} of {pinned} within 10 % of the "
          f"profiled in-step time")
    return 0 if took_effect == pinned and held == pinned else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
