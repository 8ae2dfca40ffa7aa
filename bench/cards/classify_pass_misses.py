#!/usr/bin/env python3
"""Sort the wallet passes a run did not mark as passes by cause (a dev tool, never the product).

    bench/.venv/bin/python bench/cards/classify_pass_misses.py GEN_DIR OUT/records.jsonl [--list]

A pass (truth `quad` null, `pass_box` set) is a miss when its record does not say `card.shape:
pass`, or says so with a quad of IoU < 0.9 with the whole pass. Each miss gets one cause, read off
the rendered pixels at the pass's true sides the way PassFinder reads them (the largest channel
step across the pixel edge, a column either side allowed):

  low side contrast   the median step down the middle of a side is under 6 levels: a pass about the
                      colour of the screen behind it (a dark pass on a dark theme)
  side run broken     both sides step, but not along one run of rows: a band drawn across the pass
                      (Apple's strip, a hero image) meets the screen in the screen's colour, so the
                      run from which the pass's top and bottom are found covers part of it only
  shape               the sides step along the pass and it was still not taken: fit_pass_header.py's
                      twin of PassFinder finds no pass (margins, aspect, top or bottom row)
  card-at-top check   the twin finds the pass and an ID-1 card at its top, which refuses it ("own
                      header" or "band inside" when PassFinder's own-part limits let the pass
                      stand: a binary from before they were built refuses it)
  veto: card outside, or other   the twin finds the pass and no card at its top
  marked, edges off   marked a pass, its quad off the whole pass (IoU < 0.9)

The dark or light theme is given with each cause. Use the per-image list on train renders only; on
held-out sets report the counts alone.
"""
import collections
import glob
import json
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from score_cards import iou  # noqa: E402
from classify_misses import arguments, cards_by_file  # noqa: E402
import fit_pass_header as header  # noqa: E402

MINIMUM_STEP = 6  # PassFinder.minimumStep
MAXIMUM_GAP = 0.0073  # PassFinder.maximumGap, a share of the screen's height


def column_steps(img, x):
    """Per row, the largest channel step across the pixel edge at column x or a column either side."""
    best = np.zeros(img.shape[0], np.int32)
    for edge in range(max(1, x - 1), min(img.shape[1] - 1, x + 1) + 1):
        step = np.abs(img[:, edge, :] - img[:, edge - 1, :]).max(axis=1)
        best = np.maximum(best, step)
    return best


def longest_run(flags, gap):
    """Length of the longest run of True rows, gaps up to `gap` rows bridged."""
    best, start, last = 0, -1, -gap - 2
    for y in np.flatnonzero(flags):
        if y - last > gap + 1:
            if start >= 0:
                best = max(best, last + 1 - start)
            start = y
        last = y
    if start >= 0:
        best = max(best, last + 1 - start)
    return best


def cause(t, image_path):
    img = np.asarray(Image.open(image_path).convert("RGB"), np.int32)
    x0, y0, x1, y1 = t["pass_box"]
    left, right = int(round(x0)), int(round(x1)) + 1
    radius = t.get("corner_radius_px") or 0
    top, bottom = int(y0 + radius), int(y1 - radius)
    ls, rs = column_steps(img, left), column_steps(img, min(right, img.shape[1] - 1))
    middle = slice(top, max(top + 1, bottom))
    if min(np.median(ls[middle]), np.median(rs[middle])) < MINIMUM_STEP:
        return "low side contrast"
    both = (ls >= MINIMUM_STEP) & (rs >= MINIMUM_STEP)
    run = longest_run(both[int(y0):int(y1) + 1], max(2, int(MAXIMUM_GAP * img.shape[0])))
    if run < 0.8 * (bottom - top):
        return "side run broken"
    return veto(image_path)


def veto(image_path):
    """Which check refused a pass whose sides step along it, by fit_pass_header.py's twin of
    PassFinder on a reduced copy: its shape (the twin finds no pass), the card-at-top check (an
    ID-1 card found at the pass's top; "own header" when the pass's own-header limits let it stand),
    or neither (the card found outside the pass, or the twin and the binary disagree)."""
    image = Image.open(image_path).convert("RGB")
    if max(image.size) > 1600:
        s = max(image.size) / 1600
        image = image.resize((round(image.width / s), round(image.height / s)), Image.BOX)
    img = np.asarray(image).astype(np.int16)
    v, h = header.twin.steps(img)
    box = header.find_pass(img, v, h)
    if not box:
        return "shape"
    card = header.card_at_top(v, h, box)
    if not card:
        return "veto: card outside, or other"
    offset, share, delta = header.measures(img, box, card)
    own = offset <= max(2, header.LIMITS["flush"] * (box[2] - box[0])) and share == 1.0 \
        and delta < header.LIMITS["same_paint"]
    band = header.band_inside(img, box, card)
    return "card-at-top check" + (" (own header)" if own else " (band inside)" if band else "")


def main():
    args = arguments()
    records = cards_by_file(args.records)
    causes, n = collections.Counter(), 0
    for path in sorted(glob.glob(os.path.join(args.gen, "*.json"))):
        t = json.load(open(path, encoding="utf-8"))
        if t.get("quad") or not t.get("pass_box"):
            continue
        n += 1
        card = records.get(t["file"], {})
        theme = "dark" if (t.get("screen") or {}).get("dark") else "light"
        if card.get("shape") == "pass":
            x0, y0, x1, y1 = t["pass_box"]
            if card.get("quad") and iou([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], card["quad"]) >= 0.9:
                continue
            why = "marked, edges off"
        else:
            why = cause(t, os.path.join(args.gen, t["file"]))
        causes[(why, theme)] += 1
        if args.list:
            print("%s\t%s\t%s" % (t["file"], theme, why))
    print("%d passes, %d not marked or off (IoU < 0.9)" % (n, sum(causes.values())))
    for (why, theme), count in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %4d  %s (%s theme)" % (count, why, theme))


if __name__ == "__main__":
    main()
