#!/usr/bin/env python3
"""How the lines of one name set on several lines compare in height, on generated training cards
(a bench tool, never the product): the bounds NameLineCandidates.continues joins two lines within.

    python bench/names/run_heights.py DIR ...   # rendered --split train folders (bench/gen/cards.py)

For each pair of consecutive printed lines of a card's name (`name_lines`, ink boxes in card
units) that both have two letters or more (the shorter ones, `&`, `La`, are never a
candidate line), the lower line's height over the upper's and the gap between them in the upper
line's heights. An accent or a descender on one line only makes the ratio stray from 1
(`BANQUE` / `CHÂTELET` 1.35, `ace` / `hardware` 1.57). The bounds printed are the extremes over
the training pairs, rounded outwards to 0.05.
"""
import glob
import json
import math
import os
import sys


def pairs(folders):
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            truth = json.load(open(path))
            lines = truth.get("name_lines") or []
            for upper, lower in zip(lines, lines[1:]):
                if min(sum(ch.isalpha() for ch in line["text"]) for line in (upper, lower)) < 2:
                    continue
                height = upper["card_box"][3] - upper["card_box"][1]
                ratio = (lower["card_box"][3] - lower["card_box"][1]) / height
                gap = (lower["card_box"][1] - upper["card_box"][3]) / height
                yield os.path.basename(path), upper["text"], lower["text"], ratio, gap


def main():
    found = list(pairs(sys.argv[1:]))
    if not found:
        sys.exit("no names set on several lines")
    for name, upper, lower, ratio, gap in sorted(found, key=lambda p: p[3]):
        if not 0.9 <= ratio <= 1.1:
            print(f"{ratio:5.2f} gap {gap:4.2f}  {upper!r} / {lower!r}  ({name})")
    ratios = [p[3] for p in found]
    gaps = [p[4] for p in found]
    print(f"{len(found)} pairs; height ratio {min(ratios):.2f}..{max(ratios):.2f}, widest gap {max(gaps):.2f}")
    print(f"bounds: ratio {math.floor(min(ratios) * 20) / 20:.2f}...{math.ceil(max(ratios) * 20) / 20:.2f}")


if __name__ == "__main__":
    main()
