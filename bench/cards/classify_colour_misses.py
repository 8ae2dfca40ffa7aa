#!/usr/bin/env python3
"""Sort the brand-colour misses of a run over bench/gen renders by cause (a dev tool, never the product).

    bench/.venv/bin/python bench/cards/classify_colour_misses.py GEN_DIR OUT/records.jsonl [--list]

OUT is a run of `snapsort run GEN_DIR --config bench/cards/geometry-palette.json` (or any config
with detect_card, warp and palette that writes card crops). A miss is a card whose first proposed
background (`card.backgrounds[0]`) is ΔE00 ≥ 10 from the generator's largest painted region
(`colors[0]`), as bench/gen/score_cards.py scores it. The crop is sampled as `PaletteStage`
samples it, and each miss gets the first cause that holds:

  no crop                 the run cut no card out (a pass, or no quad found)
  pass not found          the truth is a wallet pass (`pass_box`, no `quad`) and the record does
                          not say `shape: pass`: the crop is a piece of the screen PassFinder did
                          not take for the pass (classify_pass_misses.py tells why)
  pass edges off          a pass marked as one, its quad IoU < 0.9 with the whole pass
  wrong quad              the crop's quad has IoU < 0.9 with the truth's
  colour shifted: glare   fewer than half as many samples within ΔE00 10 of the truth as the
                          region's share promises, the found colour lighter than the truth by
                          > 5 L, and the generator drew glare (photos)
  colour shifted: light   the same, otherwise (photos: the light's colour cast and exposure)
  colour shifted: texture the same on a screenshot (a pattern, a scene, JPEG)
  another region chosen   the region's colour is there at its share, and the found colour is
                          within ΔE00 10 of another painted region (text, band, code panel)
  areas merged or split   the region's colour is there at its share, and the found colour is
                          none of the painted regions' (text and marks over the region broke it
                          up, or an area ran across a region's edge)

Beside the causes: how many misses have the truth among the k-means colours at all (`colors`
within ΔE00 10). Use the causes on train renders only; on held-out sets use `--summary` (rates only).

The issue's second rule, that the two proposed backgrounds are real brand colours, is counted as
the cards whose two `backgrounds` are each within ΔE00 10 of one of the painted regions the
generator recorded (`colors`, every region of at least 3 % of the card): a colour of the card's own
paint, not a blend, a shadow or the light's cast.
"""
import argparse
import collections
import glob
import json
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from eval_cards import ciede2000, lab as hex_lab  # noqa: E402
from fit_palette_area import sample_grid  # noqa: E402
from score_cards import iou  # noqa: E402


def ciede2000_many(grid, target):
    flat = grid.reshape(-1, 3)
    return np.array([ciede2000(tuple(c), target) for c in flat])


def cause(truth, card, run_dir):
    if not card.get("crop"):
        return "no crop"
    if not truth.get("quad") and truth.get("pass_box"):
        # A pass has no truth quad; before this check its wrong crop was filed as texture.
        if card.get("shape") != "pass":
            return "pass not found"
        x0, y0, x1, y1 = truth["pass_box"]
        if not card.get("quad") or iou([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], card["quad"]) < 0.9:
            return "pass edges off"
    if truth.get("quad") and (not card.get("quad") or iou(truth["quad"], card["quad"]) < 0.9):
        return "wrong quad"
    target = hex_lab(truth["colors"][0]["hex"])
    found = hex_lab(card["backgrounds"][0])
    grid = sample_grid(cv2.imread(os.path.join(run_dir, card["crop"])))
    near = np.mean(ciede2000_many(grid[::2, ::2], target) < 10)
    if near < 0.5 * truth["colors"][0]["share"]:
        if truth["kind"] != "photo":
            return "colour shifted: texture"
        if "glare" in truth.get("effects", []) and found[0] - target[0] > 5:
            return "colour shifted: glare"
        return "colour shifted: light"
    if any(ciede2000(hex_lab(c["hex"]), found) < 10 for c in truth["colors"][1:]):
        return "another region chosen"
    return "areas merged or split"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gen_dir")
    ap.add_argument("records")
    ap.add_argument("--list", action="store_true", help="print each miss with its cause")
    ap.add_argument("--summary", action="store_true", help="the rates only, no causes (held-out sets)")
    args = ap.parse_args()
    run_dir = os.path.dirname(os.path.abspath(args.records))
    with open(args.records, encoding="utf-8") as f:
        records = {os.path.basename(r["file"]): r for r in map(json.loads, filter(str.strip, f))}
    causes, among = collections.Counter(), collections.Counter()
    cards = right = painted = 0
    for path in sorted(glob.glob(os.path.join(args.gen_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            truth = json.load(f)
        if not truth.get("colors"):
            continue
        card = (records.get(truth["file"]) or {}).get("card") or {}
        cards += 1
        first = (card.get("backgrounds") or [None])[0]
        target = hex_lab(truth["colors"][0]["hex"])
        regions = [hex_lab(c["hex"]) for c in truth["colors"]]
        both = card.get("backgrounds") or []
        painted += len(both) == 2 and all(any(ciede2000(hex_lab(b), r) < 10 for r in regions) for b in both)
        if first and ciede2000(target, hex_lab(first)) < 10:
            right += 1
            continue
        if args.summary:
            continue
        why = cause(truth, card, run_dir) if first else "no crop"
        causes[why] += 1
        among[why] += any(ciede2000(target, hex_lab(c["hex"])) < 10 for c in card.get("colors") or [])
        if args.list:
            print(f"{truth['file']}\t{why}\ttruth {truth['colors'][0]['hex']}\tfound {first}\t{truth.get('effects')}")
    print(f"{right}/{cards} first background within ΔE00 10; {cards - right} misses; "
          f"both backgrounds painted colours of the card (each within ΔE00 10 of one of its regions) {painted}/{cards}")
    if args.summary:
        return
    for why, n in causes.most_common():
        print(f"  {why:26s} {n:4d}   (truth among the k-means colours on {among[why]})")


if __name__ == "__main__":
    main()
