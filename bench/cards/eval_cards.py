#!/usr/bin/env python3
"""Card geometry accuracy: IoU and corner error (% of the card diagonal) per variation.

Usage: eval_cards.py EXPECTED_DIR RECORDS.jsonl [NAME]  (records from snapsort or the baseline)
Corner error is taken over the best cyclic order of the corners (detection), and the upright
rate counts files whose first corner is the true top-left (orientation).
"""
import json
import math
import os
import sys

import numpy as np


def polygon_mask(quad, xs, ys):
    inside = np.ones(xs.shape, bool)
    positive = np.zeros(xs.shape, bool)
    negative = np.zeros(xs.shape, bool)
    for i in range(4):
        (ax, ay), (bx, by) = quad[i], quad[(i + 1) % 4]
        cross = (bx - ax) * (ys - ay) - (by - ay) * (xs - ax)
        positive |= cross > 0
        negative |= cross < 0
    return ~(positive & negative) & inside


def iou(a, b):
    pts = np.array(a + b)
    lo, hi = pts.min(0), pts.max(0)
    xs, ys = np.meshgrid(np.linspace(lo[0], hi[0], 300), np.linspace(lo[1], hi[1], 300))
    ma, mb = polygon_mask(a, xs, ys), polygon_mask(b, xs, ys)
    union = (ma | mb).sum()
    return float((ma & mb).sum() / union) if union else 0.0


def corner_error(truth, found):
    diag = math.dist(truth[0], truth[2])
    best = min(
        max(math.dist(truth[i], order[(i + shift) % 4]) for i in range(4))
        for shift in range(4)
        for order in (found, found[::-1])
    )
    return 100 * best / diag


def main():
    expected_dir, records_path = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else os.path.basename(records_path)
    records = {}
    for line in open(records_path):
        r = json.loads(line)
        records[os.path.splitext(r["file"])[0]] = r
    rows = {}
    for folder, _, files in os.walk(expected_dir):
        for f in files:
            if not f.endswith(".expected.json"):
                continue
            truth = json.load(open(os.path.join(folder, f)))
            quad = (truth.get("card") or {}).get("quad")
            if not quad:
                continue
            stem = os.path.relpath(os.path.join(folder, f[: -len(".expected.json")]), expected_dir)
            record = records.get(stem) or records.get(os.path.basename(stem)) or {}
            found = (record.get("card") or {}).get("quad")
            variation = truth.get("_truth", {}).get("variation", "?")
            value = (iou(quad, found), corner_error(quad, found), math.dist(quad[0], found[0]) / math.dist(quad[0], quad[2]) < 0.1) if found else (0.0, 100.0, False)
            rows.setdefault(variation, []).append(value)
    all_rows = [v for values in rows.values() for v in values]
    print(f"### Card geometry: {name}\n")
    print("| variation | images | mean IoU | IoU ≥ 0.95 | mean corner error % | upright |")
    print("|---|---|---|---|---|---|")
    for variation in sorted(rows) + ["all"]:
        values = all_rows if variation == "all" else rows[variation]
        n = len(values)
        print(f"| {variation} | {n} | {sum(v[0] for v in values) / n:.3f} | {sum(v[0] >= 0.95 for v in values)}/{n} | "
              f"{sum(v[1] for v in values) / n:.2f} | {sum(v[2] for v in values)}/{n} |")
    print()


if __name__ == "__main__":
    main()
