#!/usr/bin/env python3
"""The palette's first background as the median of each sRGB channel of the largest area, against
the median of L, a and b (a bench tool, never the product).

    fit_palette_median.py [--list] SET:RUN [SET:RUN ...]

SET is a folder of bench/gen renders (each image's truth in NAME.json), RUN the output of
`snapsort run SET --config bench/cards/geometry-palette.json` whose records name the card crops.
Each crop is sampled as `PaletteStage` samples it and cut into areas of neighbours closer than ΔE 15
(`area_step`), as `fit_palette_area.py` does (no white balance: a screenshot's card gets none, a
photo's does in the stage, so photos are only roughly twinned here). The first background is the
largest area's median colour, taken two ways:

  lab   the median of each of L, a and b (the stage before this script)
  rgb   the median of each of the samples' sRGB channels, then to CIELAB

On an area of one paint the two are the same colour. On an area of many colours (a photo-like scene
joined into one area by its soft edges, a texture) they are not: the medians of L, a and b come from
different samples, and the generator's truth (`colors[0]`, bench/gen/art.py `Canvas.colours`), like
any `#rrggbb` colour picked from the region, is the median of each sRGB channel. Scored against
`colors[0]` (ΔE00 < 10, as bench/gen/score_cards.py scores `backgrounds[0]`), with the cards gained
and lost. No constant is fitted: the choice is between the two.

Fit on train renders only. 2026-11-28, main 29888a2's crops (geometry-palette.json, --jobs 1),
train screenshots seed 8631 (300): lab right on 269, rgb on 274 (+5 -0: five bg_scene cards);
train screenshots seed 8411 (the first 159): 144 -> 145 (+1 -0); train photos seed 8651 (100,
`--kind photo --split train --seed 8651`): 83 -> 84 (+1 -0). Built in PaletteStage, the binaries
(main 29888a2 and the change): 8631 270 -> 273 of 300, 8651 85 -> 87 of 100, none lost; held out
in bench/gen/README.md (colour27).
"""
import argparse
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import ciede2000, lab as hex_lab  # noqa: E402
from fit_palette_area import area_labels, rendered_cards, sample_grid, to_lab  # noqa: E402
from fit_palette_balance import sample_rgb  # noqa: E402  (the same samples as `sample_grid`, sRGB 0-255)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="each card the two medians score differently")
    ap.add_argument("pairs", nargs="+", help="SET:RUN")
    args = ap.parse_args()
    rows = []
    for truth, card, run in rendered_cards(args.pairs):
        if truth.get("split") != "train":
            sys.exit(f"{card['crop']}: a {truth.get('split')} render: fit on --split train renders only")
        bgr = cv2.imread(os.path.join(run, card["crop"]))
        target = hex_lab(truth["colors"][0]["hex"])
        grid = sample_grid(bgr)
        labels = area_labels(grid, 15)
        largest = labels == np.argmax(np.bincount(labels))
        by_lab = tuple(np.median(grid.reshape(-1, 3)[largest], axis=0))
        by_rgb = tuple(to_lab(np.median(sample_rgb(bgr).reshape(-1, 3)[largest], axis=0)[None])[0])
        rows.append((truth, ciede2000(target, by_lab) < 10, ciede2000(target, by_rgb) < 10))
    by_kind = {}
    for truth, a, b in rows:
        by_kind.setdefault(truth["kind"], []).append((a, b))
    for kind, pairs in sorted(by_kind.items()):
        gained = sum(1 for a, b in pairs if b and not a)
        lost = sum(1 for a, b in pairs if a and not b)
        print(f"{kind}: {len(pairs)} cards with a crop; lab right on {sum(a for a, _ in pairs)}, "
              f"rgb on {sum(b for _, b in pairs)} (+{gained} -{lost})")
    if args.list:
        for truth, a, b in rows:
            if a != b:
                effects = [e for e in truth.get("effects", []) if isinstance(e, str)][:4]
                print(f"{truth['file']}\t{'gained' if b else 'lost'}\t{effects}")


if __name__ == "__main__":
    main()
