#!/usr/bin/env python3
"""The built-in kernel family against Inductor's own Triton kernel, config by config: a live-sweep
dataset of the family (`occx sweep --csv`) beside a sweep of the real kernel of the same reduction
(`occx inductor sweep --csv`), on the grid XBLOCK {1, 2} × R0_BLOCK 512 … 4096 × num_warps
{4, 8, 16} (the spill case: XBLOCK 1 × R0_BLOCK 2048 … 32768 × num_warps 8 … 32).

    python3 scripts/family-fidelity.py [--occx build/release/occx] [--spill-grid] FAMILY.csv REAL.csv

Prints one Markdown row (configs matched; time Triton / ours: median, share within 0.85 … 1.15;
registers within ±25 % of Triton's; configs where one spills and the other not; the new bound's
decision from our n_regs equal to the one from Triton's) and then every config that misses a target.
The decisions are `occx rblock --input`'s, on the family dataset's GPU.
"""
import csv
import io
import os
import statistics
import subprocess
import sys
import tempfile



def regs(row):
    """Registers per thread of a CSV row, under the current key or the keys older files used."""
    for key in ("registers_per_thread", "registers", "n_regs"):
        if row.get(key):
            return row[key]
    raise SystemExit("a row has no registers (registers_per_thread, registers or n_regs): %s" % row.get("config", row))

def rows_of(path):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def meta_of(path):
    meta = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# ") and ": " in line:
                k, v = line[2:].rstrip("\n").split(": ", 1)
                meta[k] = v
    return meta


def new_decisions(occx, gpu, xnumel, rnumel, configs):
    """occx rblock --input's new-bound decision per (xblock, rblock, num_warps, nregs, nspills)."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("xnumel,rnumel,xblock,rblock,num_warps,nregs,nspills\n")
        for x, r, w, regs, spills in configs:
            f.write(f"{xnumel},{rnumel},{x},{r},{w},{regs},{max(spills, 0)}\n")
        name = f.name
    try:
        out = subprocess.run([occx, "rblock", "--input", name, "--gpu", gpu, "--csv", "-"], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(name)
    return [r["new_decision"] for r in csv.DictReader(io.StringIO("\n".join(l for l in out.splitlines() if not l.startswith("#"))))]


def main():
    args = sys.argv[1:]
    occx = "build/release/occx"
    spill_grid = False
    if "--occx" in args:
        i = args.index("--occx")
        occx = args[i + 1]
        del args[i:i + 2]
    if "--spill-grid" in args:
        args.remove("--spill-grid")
        spill_grid = True
    if len(args) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    family_path, real_path = args
    meta = meta_of(family_path)
    if spill_grid:
        grid = {(1, r, w) for r in (2048, 4096, 8192, 16384, 32768) for w in (8, 16, 32)}
    else:
        grid = {(x, r, w) for x in (1, 2) for r in (512, 1024, 2048, 4096) for w in (4, 8, 16)}
    real = {}
    for r in rows_of(real_path):
        if r["status"] == "ok":
            real[(int(r["xblock"]), int(r["r0_block"]), int(r["num_warps"]))] = r
    matched = []
    for r in rows_of(family_path):
        key = (int(r["xblock"]), int(r["rblock"]), int(r["num_warps"]))
        if r["status"] != "ok" or key not in grid or key not in real:
            continue
        matched.append((key, r, real[key]))
    if not matched:
        print("no config of the grid is in both files", file=sys.stderr)
        return 1
    gpu = "H200" if "H200" in meta.get("device", "") else meta.get("device", "H200")
    ours_cfg = [(k[0], k[1], k[2], int(regs(f)), int(f["n_spills"] or 0)) for k, f, t in matched]
    theirs_cfg = [(k[0], k[1], k[2], int(regs(t)), int(t["n_spills"] or 0)) for k, f, t in matched]
    ours_dec = new_decisions(occx, gpu, meta["xnumel"], meta["rnumel"], ours_cfg)
    theirs_dec = new_decisions(occx, gpu, meta["xnumel"], meta["rnumel"], theirs_cfg)
    ratios, misses = [], []
    regs_ok = spill_mismatch = dec_ok = 0
    for i, (k, f, t) in enumerate(matched):
        ratio = float(t["time_us"]) / float(f["time_us"])
        ratios.append(ratio)
        ours_regs, their_regs = int(regs(f)), int(regs(t))
        ours_spill, their_spill = int(f["n_spills"] or 0) > 0, int(t["n_spills"] or 0) > 0
        r_ok = abs(ours_regs - their_regs) <= 0.25 * their_regs
        regs_ok += r_ok
        spill_mismatch += ours_spill != their_spill
        dec_ok += ours_dec[i] == theirs_dec[i]
        why = []
        if not 0.85 <= ratio <= 1.15:
            why.append(f"time {float(f['time_us']):.1f} µs ours vs {float(t['time_us']):.1f} Triton (ratio {ratio:.2f})")
        if not r_ok:
            why.append(f"registers {ours_regs} vs {their_regs}")
        if ours_spill != their_spill:
            why.append(f"spills {f['n_spills']} vs {t['n_spills']}")
        if ours_dec[i] != theirs_dec[i]:
            why.append(f"new bound: {ours_dec[i]} vs {theirs_dec[i]}")
        if why:
            misses.append(f"X{k[0]} R{k[1]} w{k[2]}: " + "; ".join(why))
    n = len(matched)
    shape = f"{meta.get('workload', '?')} {meta.get('dtype', '')} {meta.get('xnumel', '')} × {meta.get('rnumel', '')}"
    in_band = sum(1 for r in ratios if 0.85 <= r <= 1.15)
    print("| shape | configs | time Triton/ours: median (target 0.95 … 1.05) | within 0.85 … 1.15 (target ≥ 90 %) | registers within ±25 % (target ≥ 80 %) | spill disagreements (target 0) | new bound's decision agrees (target ≥ 90 %) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {shape} | {n} | {statistics.median(ratios):.2f} (worst {min(ratios):.2f}) | {100 * in_band / n:.0f} % | {100 * regs_ok / n:.0f} % | {spill_mismatch} | {100 * dec_ok / n:.0f} % |")
    print()
    for m in misses:
        print("-", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
