#!/usr/bin/env python3
"""The steps of the card's own sides on screenshot quad misses (a dev tool, never the product).

    bench/.venv/bin/python bench/cards/dark_steps.py GEN_DIR OUT/records.jsonl [GEN_DIR OUT/records.jsonl ...] \
        [--theme dark|light|any]

For each TRAIN miss (quad IoU < 0.9) of the chosen theme, the cause as `classify_misses.py`
names it and the median step (largest channel difference across the pixel edge, as
ScreenCardRefiner measures it) at each of the truth card's four sides over the middle 30-70 % of
the side, whether a code panel lies below, and the weakest of the four. The search for a card
above a panel takes only peaks of at least 12 levels (twice `minimumStep`): the tally says how
many misses that bar refuses. Issue #25 (quads10): the lead was a dark card above a panel on a
dark theme stepping by about 8 levels. Refuses held-out renders: train only.
"""
import argparse
import collections
import json
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from classify_misses import cards_by_file, screenshot_cause  # noqa: E402
from fit_screen_refiner import median_step, steps  # noqa: E402
from score_cards import iou  # noqa: E402


def side_steps(v, h, quad):
    """The median step at the truth quad's left, top, right and bottom pixel edges."""
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    x0, y0, x1, y1 = (int(round(a)) for a in (min(xs), min(ys), max(xs), max(ys)))
    rows = (y0 + int(0.3 * (y1 - y0)), y0 + int(0.7 * (y1 - y0)))
    cols = (x0 + int(0.3 * (x1 - x0)), x0 + int(0.7 * (x1 - x0)))
    # The edge may be drawn anti-aliased over two pixels: the stronger of the two nearest edges.
    def best(vertical, at, span):
        return max(median_step(v, h, vertical, q, span) for q in (at - 1, at, at + 1))
    return best(True, x0, rows), best(False, y0, cols), best(True, x1, rows), best(False, y1, cols)


def misses(gen, records, theme):
    """(truth, found quad) of each train miss of `theme` in one render folder and its records."""
    cards = cards_by_file(records)
    for fn in sorted(n for n in os.listdir(gen) if n.endswith(".json")):
        t = json.load(open(os.path.join(gen, fn), encoding="utf-8"))
        if t.get("split") != "train":
            sys.exit(f"{fn}: split {t.get('split')}: train renders only")
        q = cards.get(t["file"], {}).get("quad")
        wanted = theme == "any" or t["screen"]["dark"] == (theme == "dark")
        if t.get("quad") and wanted and not (q and iou(t["quad"], q) >= 0.9):
            yield t, q


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="+", help="GEN_DIR RECORDS pairs")
    ap.add_argument("--theme", default="dark", choices=["dark", "light", "any"])
    args = ap.parse_args()
    if len(args.pairs) % 2:
        sys.exit("give GEN_DIR RECORDS pairs")
    tally = collections.Counter()
    for gen, records in zip(args.pairs[::2], args.pairs[1::2]):
        for t, q in misses(gen, records, args.theme):
            cause = screenshot_cause(t, q) if q else "no quad"
            v, h = steps(np.asarray(Image.open(os.path.join(gen, t["file"])).convert("RGB")))
            s = side_steps(v, h, t["quad"])
            weakest = min(s)
            panel = "panel" if t.get("panel_box") else "no panel"
            band = "<8" if weakest < 8 else ("8-11" if weakest < 12 else ">=12")
            tally[(cause, panel, band)] += 1
            print(f"{os.path.basename(gen)}/{t['file']} {t['app_family']} {panel} {cause}: "
                  f"steps l/t/r/b {s[0]}/{s[1]}/{s[2]}/{s[3]}, weakest {weakest}")
    print("\nmisses by cause, panel, weakest side step:")
    for key, n in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:3d}  {' / '.join(key)}")


if __name__ == "__main__":
    main()
