#!/usr/bin/env python3
"""Replays a re-reading confidence from which the suggested name takes the diacritics of its line
read again on its own (CardNameReconciler), keeping the shipped name-model.json's line model,
threshold, re-reading confidence and Cyrillic choice. A bench tool, never the product (the
product has no such constant: measured on branch names29, held out it lost names, see
bench/names/README.md); fit only on `--split train` logs.

    python bench/names/fit_reconcile.py --model name-model.json --train LOG=DIR ...

Under the re-reading confidence (`reread_confidence`) the page reading's text is kept and only the
diacritics it lost are taken from the re-reading. A re-reading tesseract is unsure of also adds
marks the name does not have (`MARLOW` -> `MARŁOW` at 69, `ALDI` -> `AĽDI` at 71): under the
replayed confidence the page text is kept as read. The confidence is swept from 0 (always
reconcile, as the stage does) to the re-reading confidence in steps of 1; the one with the most
exact names on the training cards is chosen, the middle of the widest best run on ties.
"""
import argparse

import cv_names
import fit_names as F


def exact_by(photos, shipped, reconcile):
    return F.score(photos, shipped, shipped, shipped.threshold, shipped.reread, shipped.cyrillic, reconcile)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="the name-model.json whose other parts are kept")
    ap.add_argument("--train", nargs="+", required=True)
    args = ap.parse_args()
    shipped = cv_names.Shipped(args.model)
    train = [(t, c) for t, c in F.load(args.train) if t["name"]]
    top = int(min(100, shipped.reread))
    counts = {c: exact_by(train, shipped, float(c)) for c in range(0, top + 1)}
    best = max(counts.values())
    runs, run = [], []
    for c in range(0, top + 1):
        if counts[c] == best:
            run.append(c)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    widest = max(runs, key=len)
    chosen = float(widest[len(widest) // 2])
    print("exact by reconcile confidence: " + ", ".join(
        f"{c}:{n}" for c, n in counts.items() if c % 5 == 0 or c in (widest[0], widest[-1])))
    print(f"fitted: {chosen:.0f} (best {best} from {widest[0]} to {widest[-1]}; 0: {counts[0]})")
    for pair in args.train:
        photos = [(t, c) for t, c in F.load([pair]) if t["name"]]
        print(f"{pair.split('=', 1)[1]}: exact {exact_by(photos, shipped, 0.0)} -> "
              f"{exact_by(photos, shipped, chosen)} of {len(photos)}")


if __name__ == "__main__":
    main()
