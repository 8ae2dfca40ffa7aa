#!/usr/bin/env python3
"""Scores bench/barcodes/zbar_looks.sh's variants (training renders only): per variant and set, the
images whose codes differ from the first variant's (the old behaviour), and the barcode stage's
traced pass CPU (sum, per-image p50 and p95). The variant chosen is the cheapest whose codes equal
the old behaviour's on every image.

    zbar_looks.py RUNS BEFORE VARIANT...
"""
import json
import os
import statistics
import sys


def codes(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        card = record.get("card") or {}
        out[record["file"]] = sorted((b["symbology"], b["value"]) for b in card.get("barcodes") or [])
    return out


def cpu(path):
    per = []
    for line in open(path, errors="replace"):
        if line.startswith('{"barcode_trace"'):
            passes = json.loads(line)["barcode_trace"]["passes"]
            per.append(sum(p["prepare_ms"] + p["zxing_ms"] + p["zbar_ms"] for p in passes))
    per.sort()
    return sum(per), statistics.median(per), per[int(0.95 * (len(per) - 1))]


def main(runs, before, variants):
    sets = sorted({name[len(before) + 1:] for name in os.listdir(runs)
                   if name.startswith(before + "-") and not name.endswith(".trace")})
    print("| variant | set | images | codes changed | traced CPU s | p50 ms | p95 ms |")
    print("|---|---|---:|---:|---:|---:|---:|")
    totals, same = {}, {}
    for variant in [before] + variants:
        for s in sets:
            old = codes(os.path.join(runs, f"{before}-{s}", "records.jsonl"))
            new = codes(os.path.join(runs, f"{variant}-{s}", "records.jsonl"))
            changed = [f for f in old if old[f] != new.get(f)]
            total, p50, p95 = cpu(os.path.join(runs, f"{variant}-{s}.trace"))
            totals[variant] = totals.get(variant, 0) + total
            same[variant] = same.get(variant, True) and not changed
            print(f"| {variant} | {s} | {len(old)} | {len(changed)} | {total / 1000:.2f} | {p50:.1f} | {p95:.1f} |")
            for f in changed:
                print(f"|  | {f} | | {old[f]} → {new.get(f)} | | | |")
    chosen = min((v for v in totals if same[v]), key=lambda v: totals[v])
    print(f"\nchosen: {chosen} (traced CPU {totals[chosen] / 1000:.2f} s against {totals[before] / 1000:.2f} s, "
          "codes unchanged on every training image)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
