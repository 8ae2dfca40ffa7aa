#!/usr/bin/env python3
"""Fit PassFinder's shape limits on generated TRAIN renders (a dev tool, never the product).

Sources/SnapsortStages/Geometry/PassFinder.swift takes a screenshot's tall upright panel, centred
with a narrow margin each side, for a wallet pass. Its limits are read here off the ground truth of
`--split train` renders only (the generic passes of the `google_wallet` family, every family's
cards, train photos), each with a slack, and printed as the Swift constants:

- minimumScreenAspect: the geometric mean of the tallest photo frame (height over width) and the
  least tall phone screen, so no photo is searched and every screen is;
- margin (lower...upper bound): half the narrowest and 1.25 times the widest margin beside a pass,
  as shares of the screen's width; marginDifference: the largest left-right difference plus 0.005 (a
  side found a column or two off in a reduced copy or beside a shadow);
- aspect (lower...upper bound): the passes' height over width, 0.9 times the least and 1.1 times
  the most;
- maximumGap: half the smallest gap between a card and the panel an app draws below it (as a share
  of the screen's height), so a card and its panel never make one run of steps.

  PY=/work/venv/bin/python
  $PY bench/gen/cards.py --out bench/work/t8311 --count 150 --kind screenshot --split train --seed 8311 --jobs 1
  $PY bench/gen/cards.py --out bench/work/t8711 --count 150 --kind screenshot --split train --seed 8711 --jobs 1
  $PY bench/gen/cards.py --out bench/work/tp8312 --count 100 --kind photo --split train --seed 8312 --jobs 1
  $PY bench/cards/fit_pass_finder.py bench/work/t8311 bench/work/t8711 bench/work/tp8312
"""
import glob
import json
import math
import os
import sys


def truths(folders):
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            t = json.load(open(path))
            if t.get("split") != "train":
                sys.exit(f"{path}: not a train render; fit on train renders only")
            yield t


def fit(folders):
    photo_aspects, screen_aspects, margins, differences, aspects, gaps = [], [], [], [], [], []
    for t in truths(folders):
        w, h = t["width"], t["height"]
        if t["kind"] == "photo":
            photo_aspects.append(h / w)
            continue
        screen_aspects.append(h / w)
        box = t.get("pass_box")
        if box:
            x0, y0, x1, y1 = box
            margins += [x0 / w, (w - x1) / w]
            differences.append(abs(x0 - (w - x1)) / w)
            aspects.append((y1 - y0) / (x1 - x0))
        elif t.get("quad") and t.get("panel_box"):
            gaps.append((t["panel_box"][1] - max(p[1] for p in t["quad"])) / h)
    return {
        "passes": len(aspects), "screens": len(screen_aspects), "photos": len(photo_aspects),
        "minimumScreenAspect": math.sqrt(max(photo_aspects, default=4 / 3) * min(screen_aspects)),
        "minimumMargin": 0.5 * min(margins),
        "maximumMargin": 1.25 * max(margins),
        "marginDifference": max(differences) + 0.005,
        "minimumAspect": 0.9 * min(aspects),
        "maximumAspect": 1.1 * max(aspects),
        "maximumGap": 0.5 * min(g for g in gaps if g > 0),
    }


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for key, value in fit(sys.argv[1:]).items():
        print(f"{key}: {value:.4g}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
