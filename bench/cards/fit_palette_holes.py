#!/usr/bin/env python3
"""Tries counting the print an area encloses in the palette's first background (a bench tool,
never the product). Built in the stage and rejected on held-out renders, 2026-11-27: see the end.

    fit_palette_holes.py [--candidates 2,3,4] [--limits 0.1,0.2,0.25,0.3,0.5,1,100] SET:RUN [SET:RUN ...]

SET is a folder of bench/gen renders (each image's truth in NAME.json), RUN the output of
`snapsort run SET --config bench/cards/geometry.json` (or geometry-palette.json) whose records name
the card crops. Each crop is sampled as `PaletteStage` samples it and cut into areas of neighbours
closer than ΔE 15 (`area_step`), as `fit_palette_area.py` does. The first background is then the
median colour of

  largest       the area of the most samples (the shipped palette), or
  holes         of the N largest areas, the one whose samples plus the samples it encloses (the
                text, logo and marks printed on it: samples outside it that no path outside it joins
                to the grid's edge, four neighbours), these at most LIMIT times its own samples, are
                most.

Each is scored against the generator's largest painted region (`colors[0]`, ΔE00 < 10, as
bench/gen/score_cards.py scores `backgrounds[0]`). The generator's shares are the painted regions'
areas, print included; an area of samples leaves the print out, so of two regions of about one size
the one carrying the name and the logo loses without its holes. The crops are the run's JPEG files,
not white-balanced (photos are balanced in the stage), so photo figures here are approximate.

Fit on train renders only. 2026-11-27, main 18573c9's crops (geometry.json, --jobs 1): train
screenshots seeds 8311, 8711 (300 each) and 8911 (600), and train photos seed 8312 (100): 1291 crops,
largest area right on 1171. Holes counted with no limit (100): +10 -1, the same with 2, 3 or 4
candidates. The ten gained are near ties (a diagonal split 43 % / 40 %, a band 45 % / 55 %) where the
region holding the name lost on bare samples; their holes are 5-31 % of their own samples. The one
lost is a photo-like scene whose dark part encloses its light patches (89 % of its own samples), as
a white code panel encloses its bars. Limits: 0.1 +9 -0, 0.2 +10 -0, 0.25 +10 -0, 0.3 +10 -0, 0.5
and 1 +10 -1. Chosen: 0.25, the middle of the flat 0.2-0.3, with the 4 largest areas as candidates.

Built in `PaletteStage` (an option `area_holes`: the samples an area encloses counted in its size,
at most that share of its own) and run with geometry.json, `--jobs 1`, main's binary against it,
ΔE00 < 10 of the first background; quads, pass marks and `colors` unchanged on every set:

  set                            main    no limit   limit 0.25
  train photos seed 8312         85      88         88    of 100
  train screenshots seed 8311    271     273        273   of 300
  train screenshots seed 8711    263     264        265   of 300
  train screenshots seed 8911    559     563        563   of 600 (+5 -1: a white band and code panel joined)
  held-out screenshots 7202      144     141        141   of 150
  held-out screenshots 9202      141     141        141   of 150
  held-out screenshots 9412      141     140        141   of 150
  held-out photos 7303           97      97         97    of 100

The held-out sets were scored twice, once for each version; the limit came from the train loss on
8711 (the scene above), not from held-out cards, which were never looked at one by one. Held-out
screenshots fall 426 -> 423 of 450 with the limit, so the stage change was not committed (no
held-out set may fall). Why they lose was not looked into (they are held out); a train family or
layout like the held-out ones (`apple_wallet`, `stocard`; `code_first`, `logo_side`) would be
needed to learn which enclosed samples are not print.
"""
import argparse
import os
import sys

import cv2
import numpy as np
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import ciede2000, lab as hex_lab  # noqa: E402
from fit_palette_area import area_labels, rendered_cards, sample_grid  # noqa: E402

STEP = 15


def candidates(grid, count):
    """The `count` largest areas, each as (samples, sizes of the pieces it encloses, median colour)."""
    labels = area_labels(grid, STEP).reshape(grid.shape[:2])
    sizes = np.bincount(labels.ravel())
    # The stage's tie rule: of equal areas, the one that starts first on the grid.
    first = np.full(len(sizes), labels.size)
    np.minimum.at(first, labels.ravel(), np.arange(labels.size))
    order = sorted(range(len(sizes)), key=lambda c: (-sizes[c], first[c]))[:count]
    out = []
    for c in order:
        mask = labels == c
        holes, n = ndimage.label(ndimage.binary_fill_holes(mask) & ~mask)
        pieces = np.bincount(holes.ravel())[1:] if n else np.array([], int)
        out.append((int(sizes[c]), pieces, tuple(np.median(grid[mask], axis=0))))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidates", default="2,3,4")
    ap.add_argument("--limits", default="0.1,0.2,0.25,0.3,0.5,1,100")
    ap.add_argument("pairs", nargs="+", help="SET:RUN")
    args = ap.parse_args()
    counts = [int(c) for c in args.candidates.split(",")]
    limits = [float(c) for c in args.limits.split(",")]
    cards = base = 0
    gained = {(n, limit): 0 for n in counts for limit in limits}
    lost = dict(gained)
    for truth, card, run in rendered_cards(args.pairs):
        target = hex_lab(truth["colors"][0]["hex"])
        grid = sample_grid(cv2.imread(os.path.join(run, card["crop"])))
        areas = candidates(grid, max(counts))
        right = [ciede2000(target, median) < 10 for _, _, median in areas]
        cards += 1
        base += right[0]
        for n in counts:
            for limit in limits:
                sized = [size + min(int(pieces.sum()), int(limit * size)) for size, pieces, _ in areas[:n]]
                # max() keeps the first of equal sizes: the larger area on bare samples.
                chosen = right[int(np.argmax(sized))]
                gained[(n, limit)] += chosen and not right[0]
                lost[(n, limit)] += right[0] and not chosen
    print(f"{cards} cards with a crop; largest area right on {base}")
    for n in counts:
        print(f"{n} candidates: " + ", ".join(f"limit {x:g} +{gained[(n, x)]} -{lost[(n, x)]}" for x in limits))


if __name__ == "__main__":
    main()
