#!/usr/bin/env python3
"""Compares `occx inductor scan --json` of recorded runs with what Triton and the CUDA driver
reported while recording (scripts/record-inductor-fixtures.py's recorded.json): per compiled
reduction config, tile, num_warps, n_regs, n_spills and "added by scaling"; per cubin the driver's
active blocks per SM, local and static shared memory. Prints one line per run and the mismatches.

    python3 scripts/compare-inductor-scan.py SCANDIR RECORDDIR
SCANDIR holds <run>.json scans; RECORDDIR holds <run>/recorded.json.
"""
import json
import os
import sys


def compare(scan, rec):
    configs = {}
    for k in scan["kernels"]:
        for c in k["configs"]:
            configs[c["triton_cache_hash"]] = (k, c)
    checked, bad = 0, []
    for k in rec["kernels"]:
        name = k.get("kernel_name") or ""
        if not name.startswith(("triton_red_", "triton_per_")):
            continue
        added = {(json.dumps(c["kwargs"], sort_keys=True), c["num_warps"], c["num_stages"]): c["added_by_scaling"]
                 for c in k["compile_results"]}
        for l in k["launchers"]:
            checked += 1
            if l["cache_hash"] not in configs:
                bad.append(f"{name}: {l['cache_hash']} not in the scan")
                continue
            _, c = configs[l["cache_hash"]]
            kw = l["kwargs"]
            want = (kw.get("XBLOCK", 1), kw.get("R0_BLOCK", c["R0_BLOCK"]), l["num_warps"], l["n_regs"], l["n_spills"],
                    added[(json.dumps(kw, sort_keys=True), l["num_warps"], l["num_stages"])])
            got = (c["XBLOCK"], c["R0_BLOCK"], c["num_warps"], c.get("registers_per_thread", c.get("n_regs")), c["n_spills"], c["origin"] == "added by scaling")
            if want != got:
                bad.append(f"{name}: Triton {want} occx {got}")
    drivers = 0
    for h, d in rec.get("driver", {}).items():
        if h not in configs or "num_regs" not in d:
            continue
        drivers += 1
        _, c = configs[h]
        want = (d["num_regs"], d["local_size_bytes"], d["active_blocks_per_sm"], d["shared_size_bytes"] + d["dynamic_shared_bytes"])
        got = (c.get("registers_per_thread", c.get("n_regs")), c["local_bytes"], c.get("active_blocks_per_sm", c.get("blocks_per_sm")), c.get("smem_bytes", c.get("shared_bytes")))
        if want != got:
            bad.append(f"{h}: driver {want} occx {got}")
    return checked, drivers, bad


def main():
    scandir, recdir = sys.argv[1], sys.argv[2]
    total_bad = 0
    for run in sorted(os.listdir(recdir)):
        rec_path = os.path.join(recdir, run, "recorded.json")
        scan_path = os.path.join(scandir, run + ".json")
        if not os.path.exists(rec_path) or not os.path.exists(scan_path):
            continue
        scan = json.load(open(scan_path))
        checked, drivers, bad = compare(scan, json.load(open(rec_path)))
        total_bad += len(bad)
        print(f"{run}: {checked} configs against Triton, {drivers} cubins against the driver, {len(bad)} mismatches; "
              f"{scan['summary']['text']}")
        for b in bad[:10]:
            print("   ", b)
    print("mismatches:", total_bad)


if __name__ == "__main__":
    main()
