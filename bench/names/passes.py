#!/usr/bin/env python3
"""Where a wallet pass's name is lost (a bench tool, never the product; steer changes with
`--split train` sets only). For each rendered screenshot whose truth is a pass (`pass_box`), from
the ocr stage's candidate log (bench/names/dump.json) and the logging run's records
(DIR-out/records.jsonl):

  not marked  the record's card is not `shape: pass` (the crop is something else)
  cut         marked, but the crop's quad leaves part of the pass out (IoU with pass_box < 0.8)
  exact       the model's pick (`--model`, simulated as fit_names.py scores) reads the name exactly
  reading     the pick is a candidate within 0.8 of the name, its text not exact
  picker      a candidate within 0.8 of the name exists, another (or none) was picked
  misread     a candidate's box lies on the name's printed line, none of its readings within 0.8
  not found   no candidate on the name's line

and, per group, the name's ink height at `--page-height` px of the pass's height (the scale the page
reading had before a pass was read as a card as wide as it) and where it sits (`top`, a share of
the pass's height), so that a miss can be told from small type.

    python bench/names/passes.py LOG=DIR ... [--model name-model.json] [--list N] [--page-height 448]
"""
import argparse
import collections
import json
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import cv_names as C  # noqa: E402
import fit_names as F  # noqa: E402
import score_cards as S  # noqa: E402


def records(cards):
    found = {}
    path = cards.rstrip("/") + "-out/records.jsonl"
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            found[os.path.basename(r["file"])] = r
    return found


def rect_quad(b):
    x0, y0, x1, y1 = b
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def name_in_crop(truth):
    """The name's printed box in pass units (0..1 of the pass's width and height)."""
    x0, y0, x1, y1 = truth["pass_box"]
    boxes = [line["box"] for line in truth["name_lines"]]
    if not boxes:
        return None
    bx0, by0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    bx1, by1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    w, h = x1 - x0, y1 - y0
    return ((bx0 - x0) / w, (by0 - y0) / h, (bx1 - x0) / w, (by1 - y0) / h)


def on_line(candidate, name_box):
    """The candidate's box centre lies within the name's printed box (pass units)."""
    f = candidate["features"]
    x, y, w, h = candidate["box"]
    if not f.get("height") or not f.get("width"):
        return False
    crop_h, crop_w = h / f["height"], w / f["width"]
    cx, cy = (x + w / 2) / crop_w, (y + h / 2) / crop_h
    x0, y0, x1, y1 = name_box
    pad = (y1 - y0) * 0.5
    return x0 - pad <= cx <= x1 + pad and y0 - pad <= cy <= y1 + pad


def style(truth):
    effects = truth["effects"]
    return "header" if "header_pass" in effects else "generic" if "generic_pass" in effects else "apple"


def picked(model, candidates):
    """The name the model suggests from the candidates ("" for none), as fit_names.score takes it."""
    if not candidates:
        return ""
    p = model.predict_proba(F.matrix(candidates))[:, 1]
    i = int(np.argmax(p))
    return F.text_of(candidates[i], model.reread, model.cyrillic) if p[i] >= model.threshold else ""


def classify(truth, entry, record, page_height, model):
    card = (record or {}).get("card") or {}
    name_box = name_in_crop(truth)
    box_h = truth["pass_box"][3] - truth["pass_box"][1]
    ink = (name_box[3] - name_box[1]) * page_height if name_box else 0
    facts = {"ink_px": ink, "top": name_box[1] if name_box else None, "height_share": (name_box[3] - name_box[1]) if name_box else None,
             "style": style(truth),
             "pass_px": box_h}
    if card.get("shape") != "pass":
        return "not marked", facts
    if S.iou(rect_quad(truth["pass_box"]), card.get("quad") or rect_quad((0, 0, 1, 1))) < 0.8:
        return "cut", facts
    candidates = F.kept(entry["candidates"])
    labels = F.labels(truth, candidates)
    got = picked(model, candidates)
    if F.norm(got) == F.norm(truth["name"]):
        return "exact", facts
    if labels.any():
        return "reading" if F.ratio(F.fold(got), F.fold(truth["name"])) >= 0.8 else "picker", facts
    if name_box and any(on_line(c, name_box) for c in entry["candidates"]):
        return "misread", facts
    return "not found", facts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="+", help="LOG=DIR")
    ap.add_argument("--list", type=int, default=0)
    ap.add_argument("--page-height", type=int, default=448)
    ap.add_argument("--model", default="Sources/SnapsortStages/Resources/name-model.json")
    args = ap.parse_args()
    model = C.Shipped(args.model)
    groups = collections.defaultdict(list)
    for pair in args.pairs:
        recs = records(pair.split("=", 1)[1])
        for entry, truth, _ in F.logged_with_truth([pair]):
            if not truth.get("pass_box") or not truth["name"]:
                continue
            record = recs.get(os.path.basename(entry["file"]))
            group, facts = classify(truth, entry, record, args.page_height, model)
            suggested = picked(model, F.kept(entry["candidates"]))
            groups[group].append((facts, truth["name"], suggested, entry["file"]))
    total = sum(len(v) for v in groups.values())
    print(f"passes with a name: {total}")
    for group in ("exact", "reading", "picker", "misread", "not found", "cut", "not marked"):
        rows = groups.get(group, [])
        if not rows:
            continue
        styles = collections.Counter(f["style"] for f, *_ in rows)
        inks = [f["ink_px"] for f, *_ in rows if f["ink_px"]]
        print(f"{group:11s} {len(rows):4d}  styles {dict(styles)}  name ink at page height (pass height scaled to it): median "
              f"{statistics.median(inks) if inks else 0:.0f} px")
        for facts, name, suggested, file in rows[:args.list]:
            print(f"    {os.path.basename(file)} {facts['style']:8s} ink {facts['ink_px']:.0f} px top {facts['top']:.2f}: "
                  f"{name!r} -> {suggested!r}")


if __name__ == "__main__":
    main()
