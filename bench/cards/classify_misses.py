#!/usr/bin/env python3
"""Sort the card-quad misses of a run over bench/gen renders by cause (a dev tool, never the product).

    bench/.venv/bin/python bench/cards/classify_misses.py GEN_DIR OUT/records.jsonl [--list]

A miss is an image whose truth has a quad and whose found quad has IoU < 0.9 with it. Each miss
gets one cause, decided from the geometry of the found quad against the truth and what the
generator recorded drawing (shadow, glow, panel, other cards, partial card, hand, glare, tilt):

  screenshots                                   photos
  no quad                                       no quad
  shadow/glow margin (holds the card, ≤ 1.25    background edge (holds the card, larger; also
    card heights, drawn with a shadow or glow)    at IoU < 0.5 when it covers 90 % of the card:
  margin without shadow (holds the card)          tile grout, a sheet of paper)
  merged with what is below (holds the card,    inside the card (a band, panel or print; also
    taller than 1.25 card heights)                at IoU < 0.5 when 90 % of it lies on the card:
  panel chosen (overlaps the panel box)           a code panel, one half of a split card)
  other card chosen (overlaps another card)     other object (IoU < 0.5, neither of those)
  partial card at the screen edge               hand over a side / glare / steep tilt (> 30°) /
  inside the card / elsewhere                     blur: a side off, with that effect drawn
                                                side off (none of those effects)

Passes (no card rectangle in the truth) are counted apart: how many got a quad anyway. Use this on
train renders only; on held-out sets report the aggregate rate and nothing per image.
"""
import argparse
import collections
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from score_cards import area, ccw, clip, iou  # noqa: E402


def contains(outer, inner, slack):
    """Every corner of `inner` inside `outer` grown by `slack` pixels (outer upright or not: by IoU)."""
    xs, ys = [p[0] for p in outer], [p[1] for p in outer]
    return all(min(xs) - slack <= p[0] <= max(xs) + slack and min(ys) - slack <= p[1] <= max(ys) + slack for p in inner)


def box_quad(b):
    x0, y0, x1, y1 = b
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def screenshot_cause(t, found):
    truth = t["quad"]
    width = max(p[0] for p in truth) - min(p[0] for p in truth)
    card_h = width / (85.60 / 53.98)
    overlap = iou(truth, found)
    fh = max(p[1] for p in found) - min(p[1] for p in found)
    if t.get("main_partial"):
        return "partial card at the screen edge"
    if overlap >= 0.3 and contains(found, truth, 0.02 * width):
        if fh > 1.25 * card_h:
            return "merged with what is below"
        kinds = (t.get("shadow") or {}).get("kind")
        return "%s margin" % kinds if kinds else "margin without shadow"
    if t.get("panel_box") and iou(box_quad(t["panel_box"]), found) > 0.3:
        return "panel chosen"
    for other in t.get("others") or []:
        if iou(other["quad"], found) > 0.3:
            return "other card chosen"
    if overlap >= 0.3 and contains(truth, found, 0.02 * width):
        return "inside the card"
    return "elsewhere"


def covered_shares(truth, found):
    """The share of the found quad that lies on the card, and the share of the card it covers."""
    a, b = ccw([tuple(p) for p in truth]), ccw([tuple(p) for p in found])
    inter = clip(a, b)
    common = abs(area(inter)) if len(inter) >= 3 else 0.0
    return common / max(1e-9, abs(area(b))), common / max(1e-9, abs(area(a)))


def photo_cause(t, found):
    truth = t["quad"]
    overlap = iou(truth, found)
    ta, fa = abs(area(truth)), abs(area(found))
    effects = set(t.get("effects") or [])
    if overlap < 0.5:
        # A code panel, a band or a half of another colour lies on the card; tile grout or a
        # sheet of paper around it holds it: neither is another object.
        on_card, of_card = covered_shares(truth, found)
        if on_card >= 0.9:
            return "inside the card (IoU < 0.5)"
        if of_card >= 0.9:
            return "background edge (IoU < 0.5)"
        return "other object"
    if fa > 1.08 * ta:
        base = "background edge"
    elif fa < 0.92 * ta:
        base = "inside the card"
    else:
        base = "side off"
    tags = [e for e in ("hand", "glare") if any(x.startswith(e) for x in effects)]
    if (t.get("tilt_deg") or 0) > 30:
        tags.append("tilt>30")
    if any("blur" in x for x in effects):
        tags.append("blur")
    return base + (" [" + ",".join(tags) + "]" if tags else "")


def cards_by_file(records):
    """Each record's `card` object (empty when it has none), by the image's file name."""
    cards = {}
    with open(records, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            cards[os.path.basename(r.get("file") or r.get("path") or "")] = r.get("card") or {}
    return cards


def arguments():
    """GEN_DIR, OUT/records.jsonl and --list, the arguments of this script and classify_pass_misses.py."""
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("records")
    ap.add_argument("--list", action="store_true", help="print each miss with its cause (train renders only)")
    return ap.parse_args()


def main():
    args = arguments()
    found = {name: card.get("quad") for name, card in cards_by_file(args.records).items()}
    causes, passes, n = collections.Counter(), collections.Counter(), 0
    for path in sorted(glob.glob(os.path.join(args.gen, "*.json"))):
        t = json.load(open(path, encoding="utf-8"))
        quad = found.get(t["file"])
        if not t.get("quad"):
            passes["pass with a quad" if quad else "pass without a quad"] += 1
            continue
        n += 1
        overlap = iou(t["quad"], quad) if quad else 0.0
        if overlap >= 0.9:
            continue
        if not quad:
            cause = "no quad"
        elif t["kind"] == "screenshot":
            cause = screenshot_cause(t, quad)
        else:
            cause = photo_cause(t, quad)
        causes[cause] += 1
        if args.list:
            print("%s\t%.3f\t%s" % (t["file"], overlap, cause))
    print("%d images with a quad, %d misses (IoU < 0.9)" % (n, sum(causes.values())))
    for cause, count in causes.most_common():
        print("  %4d  %s" % (count, cause))
    for kind, count in sorted(passes.items()):
        print("  (%d %s)" % (count, kind))


if __name__ == "__main__":
    main()
