#!/usr/bin/env python3
"""Cross-validates the card-name model fitted on old and new training renders together (a bench
tool, never the product; issue #24). The new generator (lines beside the name) left most cards of a
seed byte-identical to the old one's, so the old renders add only the cards that changed: `--old`
takes those cards' logs (bench/names/README.md names how they were made). A card and its other
render share a fold, so no fold is scored on a card whose other render it was fitted on.

Each fold is fitted three ways and scored on the old and the new training cards of the fold
separately:
  new    on the new renders only (names32's refit);
  union  on the new renders and the old renders of the changed cards;
  union+nameless  the same and the cards without a name, which the threshold then counts.
The shipped model (`--model`) is scored on all of them without folds: it saw the old renders.

    python bench/names/cv_union.py --new LOG=DIR ... --old LOG=DIR ... [--nameless LOG=DIR ...]
        [--model name-model.json] [--keep-cyrillic name-model.json] [--objective card] [--C 1]
"""
import argparse
import json
import os
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cv_names as V  # noqa: E402
import fit_names as F  # noqa: E402


def keyed(pairs):
    """[(key, truth, candidates)]: the key names the card across generators (its kind and file)."""
    out = []
    for entry, truth, _ in F.logged_with_truth(pairs):
        stem = os.path.splitext(os.path.basename(entry["file"]))[0]
        out.append((stem, truth, F.kept(entry["candidates"])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--new", nargs="+", required=True)
    ap.add_argument("--old", nargs="+", required=True, help="old renders of the cards that changed")
    ap.add_argument("--nameless", nargs="*", default=[])
    ap.add_argument("--model")
    ap.add_argument("--keep-cyrillic", metavar="MODEL")
    ap.add_argument("--objective", default="card")
    ap.add_argument("--C", default="1")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=24)
    args = ap.parse_args()
    new, old_changed, nameless = keyed(args.new), keyed(args.old), keyed(args.nameless)
    changed = {k for k, _, _ in old_changed}
    # The old training cards: the changed cards' old renders and every unchanged card's one render.
    old = old_changed + [c for c in new if c[0] not in changed]
    keys = sorted({k for k, _, _ in new})
    fold_of = dict(zip(keys, V.folds(len(keys), args.folds, args.seed)))
    nameless = [("nameless/" + k, t, c) for k, t, c in nameless]
    spare = sorted({k for k, _, _ in nameless})
    fold_of.update(zip(spare, V.folds(len(spare), args.folds, args.seed)))
    kept = V.Choice(json.load(open(args.keep_cyrillic, encoding="utf-8"))["cyrillic"]) if args.keep_cyrillic else None
    print(f"new {len(new)} cards, old {len(old)} ({len(old_changed)} changed), nameless {len(nameless)}")

    def pairs(cards):
        return [(t, c) for _, t, c in cards]

    def named(cards):
        return [(t, c) for _, t, c in cards if t["name"]]

    if args.model:
        m = V.Shipped(args.model)
        for name, cards in (("old", old), ("new", new)):
            e, z, n, total = F.score(named(cards), m, m, m.threshold, m.reread, m.cyrillic)
            print(f"shipped {name}: exact {e}/{total}  fuzzy≥0.8 {z}/{total}  none {n} (not folded)")
        if nameless:
            print(f"shipped nameless: a name on {F.nameless(pairs(nameless), m, m, m.threshold)[1]}/{len(nameless)}")
    ways = {
        "new": lambda f: [c for c in new if fold_of[c[0]] != f],
        "union": lambda f: [c for c in new + old_changed if fold_of[c[0]] != f],
    }
    if nameless:
        ways["union+nameless"] = lambda f: [c for c in new + old_changed + nameless if fold_of[c[0]] != f]
    for C in (float(c) for c in args.C.split(",")):
        for way, train_of in ways.items():
            got = {"old": [0, 0, 0], "new": [0, 0, 0], "nameless": [0, 0]}
            for f in range(args.folds):
                model, scaler, threshold, reread, cyrillic = F.fit(pairs(train_of(f)), C, args.objective)
                cyrillic = kept or cyrillic
                for name, cards in (("old", old), ("new", new)):
                    test = named([c for c in cards if fold_of[c[0]] == f])
                    e, z, n, _ = F.score(test, model, scaler, threshold, reread, cyrillic)
                    got[name] = [a + b for a, b in zip(got[name], (e, z, n))]
                test = pairs([c for c in nameless if fold_of[c[0]] == f])
                got["nameless"] = [a + b for a, b in zip(got["nameless"], F.nameless(test, model, scaler, threshold))]
            line = "  ".join(f"{name} exact {got[name][0]}/{len(named(cards))} fuzzy {got[name][1]} none {got[name][2]}"
                             for name, cards in (("old", old), ("new", new)))
            print(f"{args.objective} C={C:g} {way:15s} {line}  nameless: a name on {got['nameless'][1]}/{got['nameless'][0]}",
                  flush=True)


if __name__ == "__main__":
    main()
