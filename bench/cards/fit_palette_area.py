#!/usr/bin/env python3
"""Fits the palette stage's `area_step` (a bench tool, never the product).

    fit_palette_area.py --steps 6,9,12,15,18,24 SET:RUN [SET:RUN ...]

SET is a folder of bench/gen renders (each image's truth in NAME.json), RUN the output of
`snapsort run SET --config bench/cards/geometry-palette.json` (its records name the card crops).
For each step, the crop is sampled as `PaletteStage` samples it (the grid of cell centres inside
the border), samples whose neighbours (left, right, above, below) are closer than the step in
CIELAB are joined into areas, and the median colour of the largest area is scored against the
generator's largest painted region (`colors[0]`, ΔE00 < 10, as bench/gen/score_cards.py scores
`backgrounds[0]`). The largest k-means colour of the run is scored beside it.

Fit on train renders only (2026-11-26: `bench/gen/cards.py --split train`, 150 photos seed 31 and
250 screenshots seed 32, the sets bench/names/fit.sh renders; run by main at 4d47197): 397 cards
with a crop, largest k-means colour right on 341; area_step 4 326, 6 337, 9 348, 12 350, 15 355,
18 354, 24 350, 35 346. Chosen: 15.

Held out (never used to choose), the palette stage itself (`area_step` 0 → 15, ΔE00 < 10 of
`backgrounds[0]`, geometry-palette.json): heldout photos seed 2401 116 → 129 of 150, screenshots
seed 2402 135 → 138 of 150; photos seed 7303 86 → 89 and seed 9303 73 → 80 of 100, screenshots seed
7202 127 → 134 and seed 9202 130 → 132 of 150. All six: 667 → 702 of 800 (83.4 → 87.8 %).
"""
import argparse, json, os, sys

import cv2
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import ciede2000, lab as hex_lab  # noqa: E402

M = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
              [0.0193339, 0.1191920, 0.9503041]])


def to_lab(rgb):
    c = rgb.astype(np.float64) / 255
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = c @ M.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def sample_grid(bgr, sw=128, sh=80):
    h, w = bgr.shape[:2]
    sw, sh = min(sw, w), min(sh, h)
    ys = ((2 * np.arange(sh) + 1) * h) // (2 * sh)
    xs = ((2 * np.arange(sw) + 1) * w) // (2 * sw)
    border = max(2, sw // 24)
    return to_lab(bgr[ys][:, xs][..., ::-1][border:sh - border, border:sw - border])


def area_labels(grid, step):
    """Each sample's area, flat: neighbours (four) closer than `step` in CIELAB are one area."""
    h, w, _ = grid.shape
    index = np.arange(h * w).reshape(h, w)
    right = np.sum((grid[:, 1:] - grid[:, :-1]) ** 2, -1) < step * step
    down = np.sum((grid[1:] - grid[:-1]) ** 2, -1) < step * step
    a = np.concatenate([index[:, :-1][right], index[:-1][down]])
    b = np.concatenate([index[:, 1:][right], index[1:][down]])
    _, labels = connected_components(coo_matrix((np.ones(len(a)), (a, b)), shape=(h * w, h * w)), directed=False)
    return labels


def largest_area_colour(grid, step):
    labels = area_labels(grid, step)
    largest = np.argmax(np.bincount(labels))
    return tuple(np.median(grid.reshape(-1, 3)[labels == largest], axis=0))


def rendered_cards(pairs):
    """(truth, record's card, run folder) of every render in SET:RUN pairs whose truth has colours
    and whose record has a crop."""
    for pair in pairs:
        folder, run = pair.split(":")
        with open(os.path.join(run, "records.jsonl"), encoding="utf-8") as f:
            records = {os.path.basename(r["file"]): r for r in map(json.loads, filter(str.strip, f))}
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                truth = json.load(f)
            card = (records.get(truth.get("file")) or {}).get("card") or {}
            if truth.get("colors") and card.get("crop"):
                yield truth, card, run


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", default="6,9,12,15,18,24")
    ap.add_argument("pairs", nargs="+", help="SET:RUN")
    args = ap.parse_args()
    steps = [float(s) for s in args.steps.split(",")]
    right = {s: 0 for s in steps}
    kmeans = cards = 0
    for truth, card, run in rendered_cards(args.pairs):
        target = hex_lab(truth["colors"][0]["hex"])
        cards += 1
        kmeans += ciede2000(target, hex_lab(card["colors"][0]["hex"])) < 10
        grid = sample_grid(cv2.imread(os.path.join(run, card["crop"])))
        for step in steps:
            right[step] += ciede2000(target, largest_area_colour(grid, step)) < 10
    print(f"{cards} cards with a crop; largest k-means colour right on {kmeans}")
    for step in steps:
        print(f"area_step {step:g}: {right[step]}")


if __name__ == "__main__":
    main()
