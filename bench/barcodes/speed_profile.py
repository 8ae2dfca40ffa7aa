#!/usr/bin/env python3
"""Where the barcode stage's CPU goes, from `SNAPSORT_BARCODE_TRACE=1` traces (issue #28 items 2-3).

Each trace line lists the passes the stage ran on one image with their thread-CPU cost
(preparation, zxing, zbar). Images are grouped by when their code was confirmed: at the first pass
of the first scan ("first"), at a later pass ("later"), or not at all ("none"). Prints, per group,
the images and CPU, and the CPU per scan/pass, per library and on preparations.

    speed_profile.py TRACE [TRACE...]
"""
import json
import statistics
import sys
from collections import defaultdict


def traces(paths):
    for path in paths:
        for line in open(path, errors="replace"):
            if line.startswith('{"barcode_trace"'):
                yield json.loads(line)["barcode_trace"]


def group(trace):
    confirmed = [c for c in trace["candidates"] if c["confirmation"] != "unconfirmed"]
    if not confirmed:
        return "none"
    first = trace["passes"][0] if trace["passes"] else None
    name = f'{first["scan"]}/{first["pass"]}/' if first else ""
    reads = [r for c in confirmed for r in c["reads"]]
    return "first" if all(r.startswith(name) for r in reads) else "later"


def cost(p):
    return p["prepare_ms"] + p["zxing_ms"] + p["zbar_ms"]


def main(paths):
    groups = defaultdict(list)
    for t in traces(paths):
        groups[group(t)].append(t)
    every = [t for g in groups.values() for t in g]
    total = sum(cost(p) for t in every for p in t["passes"])
    print(f"{len(every)} images, traced CPU {total:.0f} ms\n")
    print("| group | images | CPU ms sum | share | per image p50 | p95 | passes p50 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in ("first", "later", "none"):
        ts = groups.get(name, [])
        per = sorted(sum(cost(p) for p in t["passes"]) for t in ts) or [0]
        n = sorted(len(t["passes"]) for t in ts) or [0]
        print(f"| {name} | {len(ts)} | {sum(per):.0f} | {sum(per) / max(total, 1):.0%} | "
              f"{statistics.median(per):.1f} | {per[int(0.95 * (len(per) - 1))]:.1f} | {statistics.median(n)} |")
    for name in ("first", "later", "none"):
        ts = groups.get(name, [])
        if not ts:
            continue
        rows = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0])
        for t in ts:
            for p in t["passes"]:
                r = rows[f'{p["scan"]}/{p["pass"]}']
                r[0] += 1
                r[1] += p["prepare_ms"]
                r[2] += p["zxing_ms"]
                r[3] += p["zbar_ms"]
                r[4] += p["pixels"]
        print(f"\n**{name}** ({len(ts)} images): CPU per pass, ms summed over the images\n")
        print("| scan/pass | runs | prepare | zxing | zbar | total | mean Mpx |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for key, (n, pr, zx, zb, px) in sorted(rows.items(), key=lambda kv: -sum(kv[1][1:4])):
            print(f"| {key} | {n} | {pr:.0f} | {zx:.0f} | {zb:.0f} | {pr + zx + zb:.0f} | {px / n / 1e6:.2f} |")
        lib = defaultdict(float)
        for t in ts:
            for p in t["passes"]:
                lib["prepare"] += p["prepare_ms"]
                lib["zxing"] += p["zxing_ms"]
                lib["zbar"] += p["zbar_ms"]
        print("\n" + ", ".join(f"{k} {v:.0f} ms" for k, v in lib.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
