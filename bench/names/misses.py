#!/usr/bin/env python3
"""Sorts the card-name misses of the name model by cause, from the ocr stage's candidate logs over
generated cards (a bench tool, never the product; run it on `--split train` sets only when the
counts steer a change).

    python bench/names/misses.py --train LOG=DIR ... [--sets LOG=DIR ...] [--list N]

The model is fitted as fit_names.py fits it (on `--train`), then each card of `--sets` (default:
the training sets) whose simulated name is not exact is put in the first group that fits:

  picker      a candidate within 0.8 of the name exists (any of its readings) but another was taken
              (or none passed the threshold)
  reading     the taken candidate is within 0.8 but its chosen text is not exact
  crop        none of those, and the card's quad was not found (IoU < 0.8 with the truth's, or
              its first corner is not the card's top-left): the crop is not the card upright
  split       no candidate within 0.8, but one is within 0.8 of one of the name's printed lines
              (a name set on several lines not joined)
  misread     a candidate's box lies on the name's printed line, but none of its readings is
              within 0.8 of the name
  not found   no candidate's box lies on the name's line

The crop and reading groups are split by sub-cause (`crop_kind`, `reading_kind`): a crop whose
quad is not the card's (quad), is the card turned by 180° (upside down) or by 90° (turned), or
has no quad (none); a reading that differs only in diacritics, spaces, punctuation, in Cyrillic
letters for Latin ones or back (script), lost letters at an end of the name or of a word (ends
cut), lost or gained a whole word (word lost, extra text), or has letters wrong inside (letters).

Boxes are compared in card units: a candidate's box over the crop's size (both from its logged
features) against the truth's `card_box` over 1012 × 638. The quad is read from DIR-out/records.jsonl
(where fit.sh writes the logging run's records). Each group is also split by the name's
font category (display and script faces among them).
"""
import argparse
import collections
import json
import math
import os
import re
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen"))
import score_cards as S  # noqa: E402

CARD_W, CARD_H = 1012.0, 638.0


def unit_box(candidate):
    """The candidate's box as [x0, y0, x1, y1] in units of the crop, or None if its size is unknown."""
    x, y, w, h = candidate["box"]
    f = candidate["features"]
    if f.get("width", 0) <= 0 or f.get("height", 0) <= 0 or f.get("lines", 1) != 1:
        return None
    crop_w, crop_h = w / f["width"], h / f["height"]
    return [x / crop_w, y / crop_h, (x + w) / crop_w, (y + h) / crop_h]


def on_line(box, line):
    """Whether a unit box overlaps a truth line's card box: half the shorter height, any width."""
    if box is None or not line.get("card_box"):
        return False
    x0, y0, x1, y1 = line["card_box"]
    tx0, ty0, tx1, ty1 = x0 / CARD_W, y0 / CARD_H, x1 / CARD_W, y1 / CARD_H
    vertical = min(box[3], ty1) - max(box[1], ty0)
    horizontal = min(box[2], tx1) - max(box[0], tx0)
    return horizontal > 0 and vertical > 0.5 * min(box[3] - box[1], ty1 - ty0)


def readings(candidate):
    return [r["text"] for r in (candidate, candidate.get("reread"), candidate.get("cyrillic")) if r]


def quads(pairs):
    """The found card quad per image file, from each DIR's DIR-out/records.jsonl."""
    found = {}
    for pair in pairs:
        records = pair.split("=", 1)[1].rstrip("/") + "-out/records.jsonl"
        if os.path.exists(records):
            with open(records, encoding="utf-8") as f:
                for line in f:
                    r = json.loads(line)
                    found[r["file"]] = ((r.get("card") or {}).get("quad"))
    return found


def crop_wrong(truth, quad):
    if not truth.get("quad"):
        return False
    if not quad:
        return True
    return S.iou(truth["quad"], quad) < 0.8 or not S.order_ok(truth["quad"], quad)


def crop_kind(truth, quad):
    """Why the crop is not the card upright: quad, upside down, turned (90°) or none."""
    if not quad:
        return "none"
    if S.iou(truth["quad"], quad) < 0.8:
        return "quad"
    corner = min(range(4), key=lambda i: math.dist(quad[i], truth["quad"][0]))
    return "upside down" if corner == 2 else "turned" if corner in (1, 3) else "quad"


def is_cyrillic(text):
    return any("\u0400" <= c <= "\u04ff" for c in text)


def reading_kind(want, got):
    """The way a reading of the right line differs from the name (first that fits)."""
    w, g = F.norm(want), F.norm(got)
    letters = lambda t: re.sub(r"[^\w]", "", t)  # noqa: E731
    if F.fold(w) == F.fold(g):
        return "diacritics"
    if w.replace(" ", "") == g.replace(" ", ""):
        return "spaces"
    if letters(w) == letters(g):
        return "punctuation"
    if is_cyrillic(w) != is_cyrillic(g):
        return "script"
    fw, fg = F.fold(w).split(), F.fold(g).split()
    if len(fg) < len(fw) and all(x in fw for x in fg):
        return "word lost"
    if F.fold(w) in F.fold(g):
        return "extra text"
    if len(fw) == len(fg) and all(b in a for a, b in zip(fw, fg)):
        return "ends cut"
    return "letters"


def cause(truth, candidates, best, quad):
    want = F.fold(truth["name"])
    near = [any(F.ratio(F.fold(t), want) >= 0.8 for t in readings(c)) for c in candidates]
    if any(near):
        if best is None or not near[candidates.index(best)]:
            return "picker"
        return "reading"
    if crop_wrong(truth, quad):
        return "crop"
    lines = truth.get("name_lines") or []
    if len(lines) > 1 and any(F.ratio(F.fold(t), F.fold(ln["text"])) >= 0.8
                              for c in candidates for t in readings(c) for ln in lines):
        return "split"
    if any(on_line(unit_box(c), ln) for c in candidates for ln in lines):
        return "misread"
    return "not found"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--sets", nargs="*", default=[])
    ap.add_argument("--list", type=int, default=0, help="print up to N examples per group")
    args = ap.parse_args()
    train = F.load(args.train)
    model, scaler, threshold, reread, cyrillic = F.fit(train, 1.0)
    for name in args.sets or [",".join(args.train)]:
        pairs = name.split(",")
        photos = [(t, c) for t, c in F.load(pairs) if t["name"]]
        found = quads(pairs)
        groups, fonts, examples = collections.Counter(), collections.Counter(), collections.defaultdict(list)
        subgroups = collections.Counter()
        exact = 0
        for truth, candidates in photos:
            best = F.picked(candidates, model, scaler, threshold)
            got = F.text_of(best, reread, cyrillic) if best else ""
            if F.norm(got) == F.norm(truth["name"]):
                exact += 1
                continue
            group = cause(truth, candidates, best, found.get(truth["file"]))
            if group == "crop":
                subgroups[(group, crop_kind(truth, found.get(truth["file"])))] += 1
            if group == "reading":
                subgroups[(group, reading_kind(truth["name"], got))] += 1
            groups[group] += 1
            fonts[(group, truth.get("font_category"))] += 1
            examples[group].append((truth["file"], truth["name"], got))
        print(f"{name}: {len(photos)} cards, exact {exact}, missed {len(photos) - exact}")
        for group in ("picker", "reading", "crop", "split", "misread", "not found"):
            by_font = ", ".join(f"{f} {n}" for (g, f), n in sorted(fonts.items(), key=lambda t: -t[1]) if g == group)
            print(f"  {group:10s} {groups[group]:4d}   ({by_font})")
            kinds = ", ".join(f"{k} {n}" for (g, k), n in subgroups.most_common() if g == group)
            if kinds:
                print(f"             by kind: {kinds}")
            for file, want, got in examples[group][: args.list]:
                print(f"      {file}: {want!r} -> {got!r}")


if __name__ == "__main__":
    main()
