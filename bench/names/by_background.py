#!/usr/bin/env python3
"""Sorts the card-name misses of generated screenshots by the card's background and, for wallet
passes, by whether the pass was cropped right; and counts cards on which the ocr stage logged no
candidate at all (a bench tool, never the product; `--split train` logs only).

    python bench/names/by_background.py --train LOG=DIR ... --sets LOG=DIR ...

The model is fitted on `--train` as fit_names.py fits it, each card of `--sets` simulated as
misses.py does, and each miss put in misses.py's cause groups. Passes (truth quad null) form their
own group; a pass's crop is right when the found quad (DIR-out/records.jsonl) has IoU >= 0.9 with
the truth's `pass_box`, as score_cards.py's `pass crop`.
"""
import argparse
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen"))
import fit_names as F  # noqa: E402
import misses as M  # noqa: E402
import score_cards as S  # noqa: E402


def background(truth):
    """The render's background family (`bg_*` effect, patterns by their kind), or `pass`."""
    if not truth.get("quad"):
        return "pass"
    return next((e[3:] for e in truth.get("effects", []) if e.startswith("bg_")), "none")


def pass_cropped(truth, quad):
    x0, y0, x1, y1 = truth["pass_box"]
    return bool(quad) and S.iou([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], quad) >= 0.9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--sets", nargs="+", required=True)
    args = ap.parse_args()
    model, scaler, threshold, reread, cyrillic = F.fit(F.load(args.train), 1.0)
    for pair in args.sets:
        found = M.quads([pair])
        cards, misses, empty = collections.Counter(), collections.Counter(), collections.Counter()
        passes = collections.Counter()
        for truth, candidates in F.load([pair]):
            if not truth["name"]:
                continue
            group = background(truth)
            cards[group] += 1
            empty[group] += not candidates
            best = None
            if candidates:
                p = model.predict_proba(scaler.transform(F.matrix(candidates)))[:, 1]
                i = int(np.argmax(p))
                best = candidates[i] if p[i] >= threshold else None
            exact = F.norm(F.text_of(best, reread, cyrillic) if best else "") == F.norm(truth["name"])
            if group == "pass":
                passes[(pass_cropped(truth, found.get(truth["file"])), exact, bool(candidates))] += 1
            if not exact:
                misses[(group, M.cause(truth, candidates, best, found.get(truth["file"])))] += 1
        print(f"{pair}: {sum(cards.values())} named cards, {sum(empty.values())} with no candidate")
        for group in sorted(cards, key=lambda g: -cards[g]):
            causes = ", ".join(f"{c} {n}" for (g, c), n in misses.most_common() if g == group)
            missed = sum(n for (g, _), n in misses.items() if g == group)
            print(f"  {group:16s} {cards[group]:4d} cards, missed {missed:3d}, "
                  f"no candidate {empty[group]:3d}  ({causes})")
        for (cropped, exact, any_candidate), n in sorted(passes.items()):
            print(f"  passes cropped {'right' if cropped else 'wrong'}, name {'exact' if exact else 'missed'}"
                  f"{'' if any_candidate else ', no candidate'}: {n}")


if __name__ == "__main__":
    main()
