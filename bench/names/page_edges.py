#!/usr/bin/env python3
"""Where the page the ocr stage reads should keep its panel edges (issue #24, names15). Given two
runs of the cards preset over the same generated set, BASE (the page flattened across edges) and
EDGE (the page flattened with `keepingEdges`), replays a per-page gate: a card keeps EDGE's record
when its feature passes a threshold, else BASE's, and scores each threshold with score_cards.py's
per-card scoring (name exact, issuer right / false, payment). A page's features come from its
card crop saved by EDGE's run (a JPEG, made grey by Pillow: close to, not exactly, the stage's grey):

- `split`: the largest difference between the tile backgrounds of an interior 2 x 2 block
  (TextContrast's `splitBlocks` measure; keepingEdges changes nothing at or below `edgeSplit` 40);
- `blocks`: how many of the 8 x 5 blocks are split by more than 40.

A bench tool: fit only on `--split train` sets, then run the binary once on held out.

    python bench/names/page_edges.py GEN_DIR BASE_OUT EDGE_OUT [GEN_DIR BASE_OUT EDGE_OUT ...]
"""
import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import score_cards as S  # noqa: E402

COLUMNS, ROWS, EDGE_SPLIT = 8, 5, 40


def backgrounds(gray):
    """TextContrast.tileBackgrounds: each tile's modal grey, histogram smoothed over ±3 levels."""
    h, w = gray.shape
    bg = np.zeros((ROWS, COLUMNS))
    for ty in range(ROWS):
        for tx in range(COLUMNS):
            tile = gray[ty * h // ROWS:(ty + 1) * h // ROWS, tx * w // COLUMNS:(tx + 1) * w // COLUMNS]
            window = np.convolve(np.bincount(tile.ravel(), minlength=256), np.ones(7, dtype=int), mode="same")
            bg[ty, tx] = int(np.argmax(window))
    return bg


def features(crop):
    bg = backgrounds(np.asarray(Image.open(crop).convert("L")))
    low = np.minimum.reduce([bg, np.roll(bg, -1, 1), np.roll(bg, -1, 0), np.roll(np.roll(bg, -1, 0), -1, 1)])
    high = np.maximum.reduce([bg, np.roll(bg, -1, 1), np.roll(bg, -1, 0), np.roll(np.roll(bg, -1, 0), -1, 1)])
    spread = (high - low)[:-1, :-1]
    return {"split": float(spread.max()), "blocks": int((spread > EDGE_SPLIT).sum())}


def load(out):
    with open(os.path.join(out, "records.jsonl"), encoding="utf-8") as f:
        return {os.path.basename(r["file"]): r for r in map(json.loads, f)}


def cards(gen, base_out, edge_out):
    """(truth, base score, edge score, features) per card of one set."""
    base, edge = load(base_out), load(edge_out)
    for fn in sorted(os.listdir(gen)):
        if not fn.endswith(".json"):
            continue
        with open(os.path.join(gen, fn), encoding="utf-8") as f:
            t = json.load(f)
        if "generator" not in t:
            continue
        crop = ((edge.get(t["file"]) or {}).get("card") or {}).get("crop")
        feats = features(os.path.join(edge_out, crop)) if crop else {"split": 0.0, "blocks": 0}
        yield t, S.score_one(t, base.get(t["file"])), S.score_one(t, edge.get(t["file"])), feats


def tally(rows, use_edge):
    keys = ("name_exact", "issuer_ok", "issuer_false", "payment_ok")
    total = dict.fromkeys(keys, 0)
    for t, b, e, feats in rows:
        s = e if use_edge(t, feats) else b
        for k in keys:
            total[k] += bool(s.get(k))
    return total


def main():
    args = sys.argv[1:]
    rows = [row for i in range(0, len(args), 3) for row in cards(*args[i:i + 3])]
    kinds = sorted({t["kind"] for t, *_ in rows})
    gates = [("base", lambda t, f: False), ("edge", lambda t, f: True)]
    gates += [(f"split>{x}", lambda t, f, x=x: f["split"] > x) for x in range(40, 200, 10)]
    gates += [(f"blocks<={n}", lambda t, f, n=n: f["blocks"] <= n) for n in (1, 2, 3, 4, 6, 8, 12)]
    for kind in kinds:
        part = [r for r in rows if r[0]["kind"] == kind]
        print(f"## {kind} ({len(part)} cards): exact, issuer right, issuer false, payment")
        for label, gate in gates:
            c = tally(part, gate)
            print(f"{label:12} {c['name_exact']:4} {c['issuer_ok']:4} {c['issuer_false']:4} {c['payment_ok']:4}")
    print("## changed names: mark, file, split, blocks, base -> edge")
    for t, b, e, f in rows:
        if b["name_found"] != e["name_found"]:
            mark = "+" if e["name_exact"] and not b["name_exact"] else "-" if b["name_exact"] and not e["name_exact"] else " "
            print(f"{mark} {t['file']:22} {f['split']:5.0f} {f['blocks']:3} {b['name_found']!r} -> {e['name_found']!r}")


if __name__ == "__main__":
    main()
