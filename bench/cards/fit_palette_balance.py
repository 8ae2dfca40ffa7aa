#!/usr/bin/env python3
"""Fits the palette stage's white balance (a bench tool, never the product).

    fit_palette_balance.py SET:RUN [SET:RUN ...]

SET is a folder of bench/gen renders, RUN the output of `snapsort run SET --config
bench/cards/geometry-palette.json` run with `white_balance: false` (so the crops are as the light
left them). For each card with a crop the grid is sampled as `PaletteStage` samples it, the white
reference is taken as the stage takes it, the grid is balanced with each candidate setting, and the
median colour of the largest area (`area_step` 15) is scored against the generator's largest
painted region (`colors[0]`, ΔE00 < 10, as bench/gen/score_cards.py scores `backgrounds[0]`).

The white reference: the samples whose CIELAB chroma is under `chroma` and whose lightness is
over `lightness` (white print, a white code panel, the white of a card; near-neutral under any
cast the light gives); the brightest `top` share of them, averaged per channel in linear RGB.
Each channel is then scaled so that the reference becomes neutral at its own brightest channel
(a von Kries cast correction; with `expose` 1 the reference is made white, correcting exposure
too, and 0.5 half way), when the reference has at least
`min_share` of the samples and no gain exceeds `max_gain`. A card whose quad is square to the
image (every side within `--upright` degrees of the axes) is a screen's drawing or a scan, where no
lamp coloured the light, and is left as it is: its pale pastel would otherwise be taken for a
tinted white.

Fit on train renders only (2026-11-26, runs by main at d0b6192 with no balance): photos
`--split train` seeds 8102, 8312 (200 each, bench/gen/README.md's quad sets) and 8521 (200, new),
screenshots seeds 8311 (300) and 8522 (200, new). 589 photo and 496 screenshot cards with a crop;
no balance 472 and 438. With --top 0.25 --min-share 0.02 --max-gain 1.3 --expose 0: chroma 8
481/483 (lightness 60/75), 10 488/485, 12 489/487, 15 488/487; screenshots 438 throughout (square
to the image). Earlier, on seeds 8102 and 8312 alone (394 photos, no upright gate): expose 0 330-332,
0.25 326-328, 0.5 321, 1 317; max gain 1.6 325-329 against 1.3 330-332. Chosen: chroma 12,
lightness 60, top 0.25, min_share 0.02, max_gain 1.3, expose 0 (`CardWhiteBalance`).
"""
import argparse
import itertools
import math
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import ciede2000, lab as hex_lab  # noqa: E402
from fit_palette_area import largest_area_colour, rendered_cards, to_lab  # noqa: E402


def sample_rgb(bgr, sw=128, sh=80):
    h, w = bgr.shape[:2]
    sw, sh = min(sw, w), min(sh, h)
    ys = ((2 * np.arange(sh) + 1) * h) // (2 * sh)
    xs = ((2 * np.arange(sw) + 1) * w) // (2 * sw)
    border = max(2, sw // 24)
    return bgr[ys][:, xs][..., ::-1][border:sh - border, border:sw - border].astype(np.float64)


def linear(rgb):
    c = rgb / 255
    return np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)


def encoded(lin):
    lin = np.clip(lin, 0, 1)
    return 255 * np.where(lin > 0.0031308, 1.055 * lin ** (1 / 2.4) - 0.055, 12.92 * lin)


def gains(rgb, lab, chroma, lightness, top, min_share, max_gain, expose):
    """Per-channel gains in linear RGB, or None when the card shows no usable white."""
    flat, flab = rgb.reshape(-1, 3), lab.reshape(-1, 3)
    c = np.hypot(flab[:, 1], flab[:, 2])
    # Clipped samples (glare, a blown-out white) say nothing about the light's colour.
    candidate = (c < chroma) & (flab[:, 0] > lightness) & (flat.max(1) < 254)
    if candidate.sum() < min_share * len(flat):
        return None
    lin = linear(flat[candidate])
    order = np.argsort(-lin.sum(1))
    ref = lin[order[:max(1, int(round(top * len(order))))]].mean(0)
    g = ref.max() ** (1 - expose) / np.maximum(ref, 1e-6)
    if g.max() > max_gain:
        return None
    return g


def square_to_frame(quad, degrees):
    """Every side of the card's quad within `degrees` of the image's axes: a card drawn by a screen
    (or scanned), not lit by a lamp."""
    if not quad or len(quad) != 4:
        return False
    limit = math.tan(math.radians(degrees))
    for k in range(4):
        (px, py), (qx, qy) = quad[k], quad[(k + 1) % 4]
        dx, dy = abs(qx - px), abs(qy - py)
        if min(dx, dy) > limit * max(dx, dy):
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="+", help="SET:RUN")
    ap.add_argument("--chroma", default="8,10,12,15")
    ap.add_argument("--lightness", default="60,75")
    ap.add_argument("--top", default="0.25,1")
    ap.add_argument("--min-share", default="0.005,0.02")
    ap.add_argument("--max-gain", default="1.3,1.6")
    ap.add_argument("--expose", default="0,0.5,1", help="1: the reference is made white (exposure too), 0.5 half way (geometric)")
    ap.add_argument("--step", type=float, default=15)
    ap.add_argument("--upright", type=float, default=0.2,
                    help="degrees: a quad whose sides all run this close to the image's axes is left unbalanced")
    args = ap.parse_args()
    cards = []
    for truth, card, run in rendered_cards(args.pairs):
        rgb = sample_rgb(cv2.imread(os.path.join(run, card["crop"])))
        lit = not square_to_frame(card.get("quad"), args.upright)
        cards.append((truth["kind"], hex_lab(truth["colors"][0]["hex"]), rgb, to_lab(rgb), lit))
    def score(setting):
        right = {"photo": 0, "screenshot": 0}
        for kind, target, rgb, lab, lit in cards:
            g = gains(rgb, lab, *setting) if setting and lit else None
            grid = lab if g is None else to_lab(encoded(linear(rgb) * g))
            right[kind] += ciede2000(target, largest_area_colour(grid, args.step)) < 10
        return right
    n = {k: sum(c[0] == k for c in cards) for k in ("photo", "screenshot")}
    print(f"cards with a crop: {n}; no balance: {score(None)}")
    grid = itertools.product(*[[float(v) for v in s.split(",")] for s in
                               (args.chroma, args.lightness, args.top, args.min_share, args.max_gain, args.expose)])
    results = []
    for setting in grid:
        r = score(setting)
        results.append((r["photo"] + r["screenshot"], r, setting))
        print(f"chroma {setting[0]:g} lightness {setting[1]:g} top {setting[2]:g} min_share {setting[3]:g} "
              f"max_gain {setting[4]:g} expose {setting[5]:g}: {r}", flush=True)
    best = max(results, key=lambda x: x[0])
    print("best:", best)


if __name__ == "__main__":
    main()
