#!/usr/bin/env python3
"""Derives the GPC layout of a GPU from recorded driver answers (cuOccupancyMaxActiveClusters), using
only the design half of the recording, and reports the model's error on the held-aside half.

Usage: scripts/fit-cluster-layout.py [tests/data/h200_clusters.csv]

The split is fixed before any fitting: a configuration (registers, block_threads,
dynamic_smem_bytes) is held aside when the 32-bit FNV-1a hash of the text "R,T,S" is 0 modulo 4
(tests/core/occupancy/cluster_test.cpp uses the same rule). Nothing below reads a held-aside row until the layout is fixed.

The model (core/occupancy/clusters.cpp): a cluster of c blocks runs on c different SMs of one group
of SMs (a GPC as the driver counts it for clusters); each SM holds b = min(active blocks per SM,
cap) blocks of clustered launches. A group of s SMs holds floor(s * b / c) clusters when c <= s,
none otherwise; the GPU holds the sum over its groups.
"""
import csv
import sys


def fnv1a(text):
    h = 0x811C9DC5
    for ch in text.encode():
        h ^= ch
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def held_aside(row):
    return fnv1a("%s,%s,%s" % (row["registers"], row["block_threads"], row["dynamic_smem_bytes"])) % 4 == 0


def model(groups, cap, blocks, c):
    b = min(blocks, cap)
    return sum(s * b // c for s in groups if c <= s)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/h200_clusters.csv"
    rows = list(csv.DictReader(line for line in open(path) if not line.startswith("#")))
    design = [r for r in rows if not held_aside(r)]
    aside = [r for r in rows if held_aside(r)]
    print("configurations: %d design, %d held aside" % (len(design), len(aside)))
    answers = lambda r: [int(r["clusters_%d" % c]) for c in range(1, 17)]

    # 1. One block per SM: f(c) = sum over groups of floor(s / c) = sum_k N(k c), N(m) = groups of
    #    at least m SMs. Solved from c = 16 down for each guess of N(17) and N(18) (a GH100 GPC has
    #    at most 18 SMs: 9 TPCs of 2).
    one = [answers(r) for r in design if int(r["active_blocks_per_sm"]) == 1]
    assert one and all(a == one[0] for a in one), "design rows with 1 block per SM disagree"
    f = [0] + one[0]
    candidates = []
    for n18 in range(0, 17):
        for n17 in range(n18, 17):
            N = {17: n17, 18: n18}
            for c in range(16, 0, -1):
                N[c] = f[c] - sum(N.get(k * c, 0) for k in range(2, 19 // c + 2))
            if any(N[m] < 0 for m in N) or any(N[m] < N[m + 1] for m in range(1, 18)):
                continue
            groups = []
            for m in range(18, 0, -1):
                groups += [m] * (N[m] - N.get(m + 1, 0))
            candidates.append(groups)

    # 2. Keep the layouts (and the cap on blocks per SM) that reproduce every design row.
    fits = []
    for groups in candidates:
        for cap in range(1, 33):
            if all(model(groups, cap, int(r["active_blocks_per_sm"]), c) == answers(r)[c - 1]
                   for r in design for c in range(1, 17)):
                fits.append((groups, cap))
                break
    if not fits:
        sys.exit("no layout reproduces the design set")
    for groups, cap in fits:
        print("layout (SMs per group): %s, %d SMs; blocks per SM in clusters capped at %d" % (groups, sum(groups), cap))
    groups, cap = fits[0]

    # 3. Only now: the held-aside rows.
    sms = sum(groups)
    for name, fn in (("model", lambda b, c: model(groups, cap, b, c)), ("naive floor(B*SMs/c)", lambda b, c: b * sms // c)):
        n = exact = 0
        worst = 0
        worst_rel = 0.0
        for r in aside:
            b = int(r["active_blocks_per_sm"])
            for c in range(1, 17):
                want = answers(r)[c - 1]
                got = fn(b, c)
                n += 1
                exact += got == want
                worst = max(worst, abs(got - want))
                if want > 0:
                    worst_rel = max(worst_rel, abs(got - want) / want)
        print("%s on the held-aside set: %d of %d exact (%.1f %%), worst |error| %d clusters (%.0f %%)"
              % (name, exact, n, 100.0 * exact / n, worst, 100.0 * worst_rel))


if __name__ == "__main__":
    main()
