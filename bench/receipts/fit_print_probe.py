#!/usr/bin/env python3
"""Fits receipt_warp.print_probe_gain on TRAINING scans (a bench tool, never the product).

    fit_print_probe.py [--data ../shared/data/receipts] [--wide bench/work/kind/aug-sroie]
                       [--folds bench/receipts/folds.json] [--heldout 4] [--cache FILE] [--limit N]

receipt_warp measures the line pitch on a probe of the page 900 px wide. A receipt on a page much
wider than itself (augment.py's `~margins` variants: a flatbed scan of the whole glass) is printed
small in that probe, and its pitch can come out a multiple of the true one, which scales the page
down to a quarter. With `print_probe_gain` G > 0 the pitch is measured instead on a probe of the
print's own span (the rows and columns with ink) at up to 900 px across it, when that probe is at
least G times finer than the page's.

For every SROIE receipt of the training folds (all but --heldout), this replays that measurement in
numpy on the scan as it is and on its `~margins` variant: the page's probe, Sauvola (radius 12,
k 0.3), the row ink's autocorrelation pitch, the print span (3 % edge bands left out, rows and
columns with 1 % ink) and its probe. It leaves out the paper outline and the deskew (most wide
variants have no paper found; the scans are upright), and the pixel limit, so it approximates the
stage. A wide variant should get the scale its plain scan gets (the plain scan's page probe: what
the stage did before). Printed per G: wide variants scaled below half their scan's scale or above
twice, mean |log| of the ratio, and the plain scans whose scale changes at all. Picked: the largest
G with the fewest wide variants off by 2x either way, so as few plain scans as possible change.
"""
import argparse
import json
import math
import os

import numpy as np
from PIL import Image

PROBE_WIDTH = 900
LINE_PITCH = 70


def sauvola(grey, radius=12, k=0.3):
    """True where white: the stage's ReceiptImaging.sauvola."""
    g = grey.astype(np.float64)
    h, w = g.shape
    sums = np.pad(g, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    squares = np.pad(g * g, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    ys, xs = np.arange(h), np.arange(w)
    y0, y1 = np.maximum(0, ys - radius), np.minimum(h, ys + radius + 1)
    x0, x1 = np.maximum(0, xs - radius), np.minimum(w, xs + radius + 1)

    def box(s):
        return s[y1][:, x1] - s[y0][:, x1] - s[y1][:, x0] + s[y0][:, x0]

    n = ((y1 - y0)[:, None] * (x1 - x0)[None, :]).astype(np.float64)
    mean = box(sums) / n
    variance = np.maximum(0, box(squares) / n - mean * mean)
    return g > mean * (1 + k * (np.sqrt(variance) / 128 - 1))


def line_pitch(ink, minimum=6, maximum=400):
    """ReceiptImaging.linePitch: the first autocorrelation peak at least half the strongest."""
    if len(ink) <= minimum * 3:
        return None
    p = ink - ink.mean()
    upper = min(maximum, len(p) // 2)
    if upper <= minimum + 1:
        return None
    c = np.zeros(upper + 1)
    for lag in range(minimum - 1, upper + 1):
        c[lag] = (p[: len(p) - lag] * p[lag:]).sum()
    peaks = [(c[i], i) for i in range(minimum, upper) if c[i] > c[i - 1] and c[i] >= c[i + 1] and c[i] > 0]
    if not peaks:
        return None
    strongest = max(v for v, _ in peaks)
    return next(i for v, i in peaks if v >= 0.5 * strongest)


def print_box(white, edge=0.03):
    """ReceiptWarpStage.printBox: x, y, width, height of the print in the probe."""
    h, w = white.shape
    dx, dy = int(w * edge), int(h * edge)
    inner = white[dy : h - dy, dx : w - dx]
    rows, columns = (~inner).sum(1), (~inner).sum(0)
    r = np.nonzero(rows >= max(1, inner.shape[1] // 100))[0]
    c = np.nonzero(columns >= max(1, inner.shape[0] // 100))[0]
    if len(r) < 2 or len(c) < 2:
        return dx, dy, inner.shape[1], inner.shape[0]
    return dx + c[0], dy + r[0], c[-1] - c[0] + 1, r[-1] - r[0] + 1


def probe(image, box=None):
    if box:
        image = image.crop(box)
    w, h = image.size
    s = min(1, PROBE_WIDTH / w)
    small = image.resize((max(16, int(w * s)), max(16, int(h * s))), Image.BILINEAR)
    return sauvola(np.asarray(small)), s


def scale_from(white, probe_scale):
    pitch = line_pitch((~white).sum(1).astype(np.float64))
    return max(0.25, min(3, LINE_PITCH / (pitch / probe_scale))) if pitch else 1.0


def measure(path):
    """The page probe's scale, the span probe's, and how many times finer the span probe is."""
    image = Image.open(path).convert("L")
    white, s = probe(image)
    x, y, w, h = print_box(white)
    span_scale = min(1, PROBE_WIDTH / (w / s))
    span_white, s2 = probe(image, (int(x / s), int(y / s), int((x + w) / s), int((y + h) / s)))
    return {"page": scale_from(white, s), "span": scale_from(span_white, s2), "gain": span_scale / s}


def scale_at(m, gain):
    return m["span"] if gain > 0 and m["gain"] >= gain else m["page"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data/receipts")
    ap.add_argument("--wide", default="bench/work/kind/aug-sroie")
    ap.add_argument("--folds", default="bench/receipts/folds.json")
    ap.add_argument("--heldout", type=int, default=4)
    ap.add_argument("--cache", default="bench/work/print-probe.jsonl")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    stems = {k: v for k, v in sorted(json.load(open(args.folds))["sroie"].items()) if v["fold"] != args.heldout}
    cached = {}
    if os.path.exists(args.cache):
        cached = {r["stem"]: r for r in map(json.loads, open(args.cache))}
    with open(args.cache, "a") as out:
        for n, (stem, v) in enumerate(stems.items()):
            if args.limit and n >= args.limit:
                break
            if stem in cached:
                continue
            row = {"stem": stem, "plain": measure(os.path.join(args.data, v["folder"], stem + ".jpg")),
                   "wide": measure(os.path.join(args.wide, stem + "~margins.jpg"))}
            out.write(json.dumps(row) + "\n")
            out.flush()
            cached[stem] = row
    rows = [cached[s] for s in stems if s in cached]
    print(f"{len(rows)} training receipts (folds other than {args.heldout}), scan and ~margins variant\n")
    print("| print_probe_gain | wide < 1/2 scan | wide > 2x scan | mean abs log ratio | plain scans changed | plain off 2x |")
    print("|---|---|---|---|---|---|")
    results = []
    for gain in (0, 1.0, 1.1, 1.2, 1.25, 1.3, 1.4, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0):
        ratios = [scale_at(r["wide"], gain) / r["plain"]["page"] for r in rows]
        low, high = sum(x < 0.5 for x in ratios), sum(x > 2 for x in ratios)
        mean = sum(abs(math.log(x)) for x in ratios) / len(ratios)
        plain = [scale_at(r["plain"], gain) / r["plain"]["page"] for r in rows]
        changed = sum(abs(x - 1) > 1e-9 for x in plain)
        plain_off = sum(x < 0.5 or x > 2 for x in plain)
        results.append((low + high + plain_off, -gain if gain else -99, gain))
        print(f"| {gain or 'off'} | {low} | {high} | {mean:.3f} | {changed} | {plain_off} |")
    best = min(results)[2]
    print(f"\npicked print_probe_gain = {best}: the largest with the fewest pages off by 2x (wide and plain)")


if __name__ == "__main__":
    main()
