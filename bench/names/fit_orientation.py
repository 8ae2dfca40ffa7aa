#!/usr/bin/env python3
"""Fits the warp stage's `text_orientation_lead` on generated training cards (a bench tool, never
the product): how many more confidently read letters the crop read turned by 180° must have than
read as detected for the crop to be turned, when no barcode decides.

    python bench/names/fit_orientation.py LOG=DIR ...             # fit and report
    python bench/names/fit_orientation.py LOG=DIR ... --lead N --sure-at M   # report those only

LOG is the warp stage's `orientation_log` over the cards rendered in DIR (bench/gen/cards.py):
every crop's evidence, each reading made whatever decides. A crop's truth is which corner of the
detected quad lies at the card's top-left (bench/gen/score_cards.py's quad); crops whose quad is
not the card (IoU < 0.8) or is turned by 90° are left out, since no choice between up and down
makes them right. Rules compared, each after the barcode's vote:
  layout       the layout's verdict, else as detected (before the text readings)
  layout+text  the layout's verdict, else the text readings with the lead
  text+layout  the text readings with the lead, else the layout's verdict
The lead that makes the most training crops right under text+layout (the shipped order: the
layout takes a code panel printed at the top for one at the bottom, the readings rarely err) is
reported, ties to the larger lead (fewer readings decide).
"""
import argparse
import collections
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen"))
import score_cards as S  # noqa: E402
from fit_names import logged_with_truth  # noqa: E402


def load(pairs):
    rows = []
    for e, truth, folder in logged_with_truth(pairs):
        quad = truth.get("quad")
        if not quad or S.iou(quad, e["quad"]) < 0.8:
            continue
        corner = min(range(4), key=lambda i: math.dist(e["quad"][i], quad[0]))
        if corner in (1, 3):
            continue
        rows.append((e, corner == 2, folder))
    return rows


def text_says(e, lead, sure_at=None):
    t = e.get("text")
    if not t:
        return None
    if sure_at is not None and t["upright"] >= sure_at:
        return False
    if t["turned"] >= t["upright"] + max(1, lead):
        return True
    if t["upright"] >= t["turned"] + max(1, lead):
        return False
    return None


def decide(e, rule, lead, sure_at=None):
    if e["barcodeDown"] != e["barcodeUp"]:
        return e["barcodeDown"] > e["barcodeUp"], "barcode"
    layout = e.get("layout")
    text = text_says(e, lead, sure_at) if rule != "layout" else None
    if rule == "text+layout":
        order = [(text, "text"), (layout, "layout")]
    else:
        order = [(layout, "layout"), (text, "text")]
    for verdict, source in order:
        if verdict is not None:
            # The text readings only ever turn a crop: a lead for upright keeps it as detected.
            if source == "text" and not verdict:
                return False, "text"
            return verdict, source
    return False, "none"


def score(rows, rule, lead, sure_at=None):
    right = 0
    by_source = collections.Counter()
    for e, turned, _ in rows:
        got, source = decide(e, rule, lead, sure_at)
        right += got == turned
        by_source[(source, got == turned)] += 1
    return right, by_source


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+")
    ap.add_argument("--lead", type=int)
    ap.add_argument("--sure-at", type=int)
    args = ap.parse_args()
    rows = load(args.pairs)
    turned = sum(t for _, t, _ in rows)
    print(f"{len(rows)} crops of the card (IoU >= 0.8, not turned by 90°), {turned} detected upside down")
    leads = [args.lead] if args.lead is not None else list(range(1, 41))
    base, by = score(rows, "layout", 0)
    print(f"layout only: {base} right   " + ", ".join(f"{s} {'ok' if ok else 'wrong'} {n}" for (s, ok), n in sorted(by.items())))
    best = None
    for lead in leads:
        a, by_a = score(rows, "layout+text", lead)
        b, _ = score(rows, "text+layout", lead)
        print(f"lead {lead:3d}: layout+text {a} right, text+layout {b} right")
        if best is None or b >= best[1]:
            best = (lead, b, score(rows, "text+layout", lead)[1])
    lead, right, by = best
    print(f"fitted text_orientation_lead {lead}: {right}/{len(rows)} right (layout only {base})   "
          + ", ".join(f"{s} {'ok' if ok else 'wrong'} {n}" for (s, ok), n in sorted(by.items())))
    # The turned reading is skipped when the upright one has `sure_at` confident letters or more:
    # the smallest count that makes no fewer training crops right.
    sure_at = args.sure_at
    if sure_at is None:
        sure_at = next(t for t in range(1, 1000) if score(rows, "text+layout", lead, t)[0] >= right)
    right_sure, _ = score(rows, "text+layout", lead, sure_at)
    read = [e for e, _, _ in rows if e.get("text") and e["barcodeUp"] == e["barcodeDown"]]
    skipped = sum(e["text"]["upright"] >= sure_at for e in read)
    print(f"{'fitted' if args.sure_at is None else 'given'} text_orientation_sure_at {sure_at}: {right_sure}/{len(rows)} right; "
          f"the turned reading skipped on {skipped} of the {len(read)} crops read")
    for e, t, folder in rows:
        got, source = decide(e, "text+layout", lead, sure_at)
        if got != t:
            text = e.get("text") or {}
            print(f"  wrong: {folder}/{e['file']} truth {'turned' if t else 'upright'} by {source}; "
                  f"barcode {e['barcodeUp']}/{e['barcodeDown']} layout {e.get('layout')} "
                  f"text {text.get('upright')}/{text.get('turned')}")


if __name__ == "__main__":
    main()
