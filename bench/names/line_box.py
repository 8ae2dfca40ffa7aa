#!/usr/bin/env python3
"""The name line's box before the Latin re-reading: how far the page reading's box is from the
printed line's, and the box rebuilt from the ink around it (NameLineBox, whose geometry this file
mirrors) with its thresholds fitted on a grid. Training name lines only: the first single-line
candidate within 0.8 of each training card's one-line name (as line_prep.py --truth-box picks
them), cut as the ocr stage cuts (a third of the box's height of margin, the box scaled to 48 px,
TextContrast's flattened page) and read with `tesseract -l Latin --psm 7`; exact as score_cards.py.

    python bench/names/line_box.py errors LOG=DIR ...    # page box against the render's line box
    python bench/names/line_box.py fit LOG=DIR ...       # grid over NameLineBox's thresholds
    python bench/names/line_box.py logged LOG=DIR ...    # the boxes the stage logged (`name_line_box`)
    python bench/names/line_box.py fit LOG=DIR ... --grid capital_ratio=1.6,1.9 --grid tallest=1.45
                                                         # a grid of your own (others at DEFAULTS)

Readings are cached by (file, box) in bench/work/names/line_box.cache.pkl.
"""
import argparse
import itertools
import os
import pickle
import sys

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
import line_prep as P  # noqa: E402
from line_margin import crops  # noqa: E402

CACHE = "bench/work/names/line_box.cache.pkl"
DEFAULTS = dict(run_gap=1.0, short_run=1, extension_gap=0.8, tallest=1.45, capital_ratio=1.6, adjoin=0.3)
GRID = dict(run_gap=[1.0, 1.3, 1.6], short_run=[1, 2, 3], extension_gap=[0.5, 0.8], tallest=[1.45, 1.6],
            capital_ratio=[1.6, 1.9], adjoin=[-1.0, 0.3])


def parts_around(page, box):
    """NameLineBox.parts: ink pieces (Otsu in the area, ink the class the border mostly is not)
    in the box with 1.5 heights beside it and a quarter over and under; none on the page's edge."""
    x, y, w, h = box
    H, W = page.shape
    x0, x1 = max(0, int(x - 1.5 * h)), min(W, int(x + w + 1.5 * h))
    y0, y1 = max(0, int(y - 0.25 * h)), min(H, int(y + h + 0.25 * h))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return []
    area = page[y0:y1, x0:x1]
    light = area > P.otsu(area)
    border = np.concatenate([light[0], light[-1], light[1:-1, 0], light[1:-1, -1]])
    ink = light if 2 * border.sum() < border.size else ~light
    n, _, st, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    found = [(st[i, 0] + x0, st[i, 1] + y0, st[i, 0] + st[i, 2] + x0, st[i, 1] + st[i, 3] + y0) for i in range(1, n)]
    return [c for c in found if c[0] > 0 and c[1] > 0 and c[2] < W and c[3] < H]


def fitted(page, box, run_gap, short_run, extension_gap, tallest, capital_ratio, adjoin=-1.0):
    """NameLineBox.fitted. `adjoin`: a piece at the line's end that is no letter is kept when the
    next piece is nearer than this many letter heights (a capital taller than the letter height,
    `Lindex`); negative drops it always."""
    x, y, w, h = box
    parts = parts_around(page, box)
    inside = sorted([c for c in parts if x <= (c[0] + c[2]) / 2 <= x + w and y <= (c[1] + c[3]) / 2 <= y + h
                     and c[3] - c[1] >= 0.3 * h], key=lambda c: (c[0], c[1]))
    if len(inside) < 3:
        return box
    baseline = float(np.median([c[3] for c in inside]))
    on = [c[3] - c[1] for c in inside if abs(c[3] - baseline) <= 0.12 * h]
    if not on:
        return box
    typical = float(np.median(on))
    tall = [v for v in on if v <= capital_ratio * typical]
    if not tall:
        return box
    L = max(tall)

    def letter(c):
        return 0.3 * L <= c[3] - c[1] <= tallest * L and c[1] >= baseline - 1.5 * L \
            and baseline - 0.5 * L <= c[3] <= baseline + 0.45 * L

    def trimmed(ps):
        while len(ps) > 2:
            if not letter(ps[0]) and not (adjoin >= 0 and ps[1][0] - ps[0][2] <= adjoin * L
                                          and baseline - 0.5 * L <= ps[0][3] <= baseline + 0.45 * L):
                ps = ps[1:]
                continue
            right, run = ps[0][2], 1
            while run < len(ps) and ps[run][0] - right <= run_gap * L:
                right, run = max(right, ps[run][2]), run + 1
            if run < len(ps) and run <= short_run:
                ps = ps[run:]
                continue
            break
        return ps

    def mirror(c):
        return (-c[2], c[1], -c[0], c[3])

    kept = [mirror(c) for c in reversed(trimmed([mirror(c) for c in reversed(trimmed(inside))]))]
    nx0, ny0 = min(c[0] for c in kept), min(c[1] for c in kept)
    nx1, ny1 = max(c[2] for c in kept), max(c[3] for c in kept)
    others = sorted([c for c in parts if c not in kept and letter(c)], key=lambda c: (c[0], c[1]))
    for c in others:
        if c[0] >= nx1 and c[0] - nx1 <= extension_gap * L:
            nx1, ny0, ny1 = c[2], min(ny0, c[1]), max(ny1, c[3])
    for c in reversed(others):
        if c[2] <= nx0 and nx0 - c[2] <= extension_gap * L:
            nx0, ny0, ny1 = c[0], min(ny0, c[1]), max(ny1, c[3])
    top = ny0
    for c in parts:
        if c[0] >= nx0 and c[2] <= nx1 and top - 0.4 * L <= c[1] and c[3] <= top + 0.15 * L \
                and c[3] - c[1] < 0.5 * L and c[2] - c[0] < L:
            ny0 = min(ny0, c[1])
    return [nx0, ny0, nx1 - nx0, ny1 - ny0]


def training_lines(pairs):
    """(name, file, flattened page, page box, true box, logged boxes) per one-line training name."""
    lines = []
    for pair in pairs:
        crop_of = crops(pair)
        for truth, candidates in F.load([pair]):
            if truth["file"] not in crop_of or len(truth.get("name_lines") or []) != 1 \
                    or not truth["name_lines"][0].get("card_box"):
                continue
            want = F.fold(truth["name"])
            near = [c for c in candidates if c["features"].get("lines", 1) == 1 and c["features"].get("image_line", 0) == 0
                    and any(F.ratio(F.fold(t), want) >= 0.8 for t in (c["text"], (c.get("reread") or {}).get("text", "")))]
            if not near:
                continue
            gray = np.asarray(Image.open(crop_of[truth["file"]]).convert("L"))
            x0, y0, x1, y1 = truth["name_lines"][0]["card_box"]
            sx, sy = gray.shape[1] / 1012, gray.shape[0] / 638
            logged = (near[0].get("reread") or {}).get("boxes")
            lines.append((truth["name"], truth["file"], P.flattened(gray), near[0]["box"],
                          [x0 * sx, y0 * sy, (x1 - x0) * sx, (y1 - y0) * sy], logged[0] if logged else None))
    return lines


class Reader:
    """Latin readings of cuts, cached by file and rounded box."""

    def __init__(self):
        self.cache = pickle.load(open(CACHE, "rb")) if os.path.exists(CACHE) else {}

    def exact(self, lines, boxes):
        keys = [(f, tuple(int(round(v)) for v in b)) for (_, f, *_), b in zip(lines, boxes)]
        todo = sorted({k: i for i, k in enumerate(keys) if k not in self.cache}.items(), key=lambda kv: kv[1])
        if todo:
            texts = P.read_all([P.cut(lines[i][2], boxes[i], 48) for _, i in todo], "Latin")
            self.cache.update({k: t for (k, _), t in zip(todo, texts)})
            pickle.dump(self.cache, open(CACHE, "wb"))
        return [F.norm(self.cache[k]) == F.norm(n) for (n, *_), k in zip(lines, keys)]


def errors(lines, reader):
    page = reader.exact(lines, [l[3] for l in lines])
    true = reader.exact(lines, [l[4] for l in lines])
    print(f"{len(lines)} lines: page box exact {sum(page)}, true box exact {sum(true)}")
    groups = {}
    for (n, f, fl, pb, tb, _), p, t in zip(lines, page, true):
        h = tb[3]
        margin = pb[3] / 3 / h
        ends = {"left": (pb[0] - tb[0]) / h, "right": (tb[0] + tb[2] - pb[0] - pb[2]) / h,
                "top": (pb[1] - tb[1]) / h, "bottom": (tb[1] + tb[3] - pb[1] - pb[3]) / h}
        # positive: the page box lies inside the printed line; cut when the cut's margin does not
        # make up for it, wide when it takes in over 0.3 line heights of something else
        kinds = [k + (" cut" if v > margin + 0.05 else " wide") for k, v in ends.items()
                 if v > margin + 0.05 or v < -0.3] or ["within"]
        key = ("true only" if t and not p else "page only" if p and not t else "both" if p else "neither")
        for k in kinds:
            groups.setdefault(key, {}).setdefault(k, 0)
            groups[key][k] += 1
    for key, kinds in sorted(groups.items()):
        print(f"  exact with {key}: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))


def fit(lines, reader, grid=GRID):
    page = reader.exact(lines, [l[3] for l in lines])
    results = []
    for values in itertools.product(*grid.values()):
        params = dict(zip(grid.keys(), values))
        exact = reader.exact(lines, [fitted(l[2], l[3], **params) for l in lines])
        gained = sum(e and not p for e, p in zip(exact, page))
        lost = sum(p and not e for e, p in zip(exact, page))
        results.append((sum(exact), -lost, params))
        print(f"{params} exact {sum(exact)}/{len(lines)} (page box {sum(page)}; +{gained} -{lost})", flush=True)
    best = max(results, key=lambda r: (r[0], r[1]))
    print("best (most exact, then fewest lost):", best[2], "exact", best[0])


def logged(lines, reader):
    with_box = [l for l in lines if l[5]]
    page = reader.exact(with_box, [l[3] for l in with_box])
    boxes = [fitted(l[2], l[3], **DEFAULTS) for l in with_box]
    mirror = reader.exact(with_box, boxes)
    stage = reader.exact(with_box, [l[5] for l in with_box])
    same = sum(all(abs(a - b) <= 1 for a, b in zip(box, l[5])) for box, l in zip(boxes, with_box))
    print(f"{len(with_box)} lines with a logged box ({same} within 1 px of this file's): page box {sum(page)}, "
          f"this file's NameLineBox {sum(mirror)}, the stage's logged box {sum(stage)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["errors", "fit", "logged"])
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--grid", action="append", default=[], help="KEY=V1,V2,... (fit only; others at DEFAULTS)")
    args = ap.parse_args()
    lines = training_lines(args.sets)
    if args.mode == "fit" and args.grid:
        grid = {k: [v] for k, v in DEFAULTS.items()}
        for item in args.grid:
            key, values = item.split("=", 1)
            grid[key] = [float(v) for v in values.split(",")]
        fit(lines, Reader(), grid)
        return
    {"errors": errors, "fit": fit, "logged": logged}[args.mode](lines, Reader())


if __name__ == "__main__":
    main()
