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


def lab(hex_colour):
    r, g, b = (int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    x = (0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2]) / 0.95047
    y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.0721750 * lin[2]
    z = (0.0193339 * lin[0] + 0.1191920 * lin[1] + 0.9503041 * lin[2]) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(c1, c2):
    """CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation)."""
    (l1, a1, b1), (l2, a2, b2) = c1, c2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    dh = 0 if c1p * c2p == 0 else (h2p - h1p if abs(h2p - h1p) <= 180 else h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360)
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    else:
        hbarp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbarp - 30)) + 0.24 * math.cos(math.radians(2 * hbarp))
         + 0.32 * math.cos(math.radians(3 * hbarp + 6)) - 0.20 * math.cos(math.radians(4 * hbarp - 63)))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    rt = -2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7)) * math.sin(math.radians(60 * math.exp(-((hbarp - 275) / 25) ** 2)))
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh))


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
    hits = total = 0
    for folder, _, files in os.walk(expected_dir):
        for f in files:
            if not f.endswith(".expected.json"):
                continue
            truth = json.load(open(os.path.join(folder, f)))
            brands = truth.get("_truth", {}).get("brand_colors")
            if not brands:
                continue
            stem = os.path.relpath(os.path.join(folder, f[: -len(".expected.json")]), expected_dir)
            colours = ((records.get(stem) or {}).get("card") or {}).get("colors") or []
            for brand in brands:
                total += 1
                if any(ciede2000(lab(brand), lab(c["hex"])) < 10 for c in colours):
                    hits += 1
    if total:
        print(f"Brand colours found within ΔE00 < 10: {hits}/{total} ({100 * hits / total:.0f} %)\n")


if __name__ == "__main__":
    main()
