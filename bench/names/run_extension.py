#!/usr/bin/env python3
"""Replays, on the name candidate logs, taking a run of stacked lines over the single line the
model chose when the run holds that line and scores within a margin of it (a bench tool, never the
product; `--split train` logs only).

A name set on two lines is often lost to its first line alone: the run scores just under it
(`Tuincentrum` 0.872 against `Tuincentrum Jansen` 0.862). For each margin d, a card whose best
candidate lies inside a candidate of more lines scoring at least p_best - d takes the best such run.

    python bench/names/run_extension.py --train LOG=DIR ... --sets LOG=DIR ... [--margins 0,0.05,...]

The model is fitted on `--train` as fit_names.py fits it; each `--sets` entry is scored apart:
exact names, and the cards gained and lost against d = 0 (today's choice).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402


def inside(a, b, tol=2.0):
    """Whether candidate a's box lies within candidate b's, give or take `tol` pixels."""
    ax, ay, aw, ah = a["box"]
    bx, by, bw, bh = b["box"]
    return ax >= bx - tol and ay >= by - tol and ax + aw <= bx + bw + tol and ay + ah <= by + bh + tol


def chosen(candidates, p, threshold, margin):
    """The model's best candidate, or the best-scoring run holding it within `margin`; None under
    the threshold."""
    i = int(np.argmax(p))
    if p[i] < threshold:
        return None
    best = candidates[i]
    runs = [j for j, c in enumerate(candidates)
            if c["features"]["lines"] > best["features"]["lines"] and inside(best, c) and p[j] >= p[i] - margin]
    return candidates[max(runs, key=lambda j: p[j])] if runs else best


def replay(photos, fitted, margin):
    """(exact, gained, lost) against margin 0."""
    model, scaler, threshold, reread, cyrillic = fitted
    exact = gained = lost = 0
    for truth, candidates in photos:
        if not truth["name"] or not candidates:
            continue
        p = model.predict_proba(scaler.transform(F.matrix(candidates)))[:, 1]
        texts = [F.text_of(c, reread, cyrillic) if c else "" for c in
                 (chosen(candidates, p, threshold, 0.0), chosen(candidates, p, threshold, margin))]
        before, after = (F.norm(t) == F.norm(truth["name"]) for t in texts)
        exact += after
        gained += after and not before
        lost += before and not after
    return exact, gained, lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--sets", nargs="+", required=True)
    ap.add_argument("--margins", default="0,0.02,0.05,0.1,0.2,0.3,0.5")
    args = ap.parse_args()
    fitted = F.fit(F.load(args.train), 1.0)
    sets = {pair.split("=", 1)[1]: F.load([pair]) for pair in args.sets}
    print("margin | " + " | ".join(sets))
    for margin in (float(m) for m in args.margins.split(",")):
        cells = [replay(photos, fitted, margin) for photos in sets.values()]
        print(f"{margin:.2f} | " + " | ".join(f"{e} (+{g} -{l})" for e, g, l in cells))


if __name__ == "__main__":
    main()
