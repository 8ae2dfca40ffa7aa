#!/usr/bin/env python3
"""The lines bench/gen sets beside a card's name (art.card_lines: what the card is, an instruction,
since when, a slogan, the holder) against the card-name model (a bench tool, never the product).

    python bench/names/card_lines.py phrases
    python bench/names/card_lines.py picks --train LOG=DIR ... [--sets LOG=DIR ...] [--model MODEL] [--objective card] [--C 1]

`phrases`: per kind and split, how much of the generator's phrases the product's CardNameLexicon
already marks (a programme word or compound, the share of small-print words, a given name first):
the lexicon features are the only way the model can know a phrase, so train and held-out pools
should be alike here, and far from all marked.

`picks`: what the picker takes on the cards of `--sets` (default: the `--train` sets), by whether
the card sets such lines: the name exactly, another line of the card (the taken text within 0.8 of
one of its lines beside the name, or of its small print: programme, tagline, holder, boilerplate),
or something else. With `--model` the stored model is scored (fitted on other logs); without it
the model is refitted as fit_names.py fits it, by K folds over the training cards (cv_names.py's
folds), each card scored by the fit that did not see it.
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../gen"))
import cv_names as CV  # noqa: E402
import fit_names as F  # noqa: E402
import programme_ends as PE  # noqa: E402


def given_names():
    source = open(PE.LEXICON, encoding="utf-8").read()
    out = set()
    for m in re.finditer(r"givenNames:\s*\[(.*?)\]", source, re.S):
        out |= {PE.fold(w).strip() for w in re.findall(r'"([^"]+)"', m.group(1))}
    return out


def phrases():
    import cards  # bench/gen
    import lexicon as lx

    programme, heads, boilerplate = PE.lexicon()
    first = given_names()
    held = cards.card_lines_split()["heldout"]

    def is_programme(w):
        return w in programme or (len(w) >= 6 and any(w.endswith(h) for h in heads))

    print("kind         split    phrases  programme word  small-print share  given name first")
    for kind in list(lx.CARD_LINES) + ["holder"]:
        for split in ("train", "heldout"):
            if kind == "holder":
                pool = [(f, lang) for lang, v in lx.FIRST.items() for f in v if (f in held["first"][lang]) == (split == "heldout")]
            else:
                pool = [(p, lang) for lang, v in lx.CARD_LINES[kind].items() for p in v if (p in held[kind][lang]) == (split == "heldout")]
            prog = small = given = 0
            for text, _ in pool:
                words = PE.fold(text.replace("{year}", "").replace("{yy}", "").replace("{mm}", "")).split()
                prog += any(is_programme(w) for w in words)
                small += sum(w in boilerplate for w in words) / max(1, len(words))
                given += bool(words) and words[0] in first
            n = len(pool)
            print(f"{kind:12s} {split:8s} {n:7d}  {prog / n:14.2f}  {small / n:17.2f}  {given / n:16.2f}")


def lines_of(truth):
    t = truth.get("text") or {}
    beside = [ln["text"] for ln in t.get("card_lines") or []]
    small = [x for x in [t.get("programme"), t.get("tagline"), t.get("holder")] + list(t.get("boilerplate") or []) if x]
    return beside, small


def verdict(truth, got):
    if F.norm(got) == F.norm(truth["name"]):
        return "exact"
    if not got:
        return "none"
    beside, small = lines_of(truth)
    g = F.fold(got)
    for kind, texts in (("line beside", beside), ("small print", small)):
        if any(F.ratio(g, F.fold(x)) >= 0.8 or (len(F.fold(x)) >= 4 and F.fold(x) in g and F.ratio(g, F.fold(truth["name"])) < 0.8)
               for x in texts):
            return kind
    return "other"


def picks(args):
    train = F.load(args.train)
    sets = F.load(args.sets) if args.sets else None
    if args.model:
        m = CV.Shipped(args.model)
        chooser = [(m, m, m.threshold, m.reread, m.cyrillic)]
        scored = [(t, c, 0) for t, c in (sets or train)]
    else:
        if sets is not None:
            chooser = [F.fit(train, args.C, args.objective)]
            scored = [(t, c, 0) for t, c in sets]
        else:
            fold = CV.folds(len(train), args.folds, args.seed)
            chooser = [F.fit([c for c, f in zip(train, fold) if f != k], args.C, args.objective) for k in range(args.folds)]
            scored = [(t, c, f) for (t, c), f in zip(train, fold)]
    counts = collections.defaultdict(collections.Counter)
    listed = []
    for truth, candidates, k in scored:
        if not truth["name"]:
            continue
        model, scaler, threshold, reread, cyrillic = chooser[k]
        best = F.picked(candidates, model, scaler, threshold)
        got = F.text_of(best, reread, cyrillic) if best else ""
        has = "with lines beside" if (truth.get("text") or {}).get("card_lines") else "without"
        v = verdict(truth, got)
        counts[has][v] += 1
        if v in ("line beside", "small print"):
            listed.append((has, v, truth["file"], truth["name"], got))
    order = ["exact", "line beside", "small print", "other", "none"]
    for has in sorted(counts):
        c = counts[has]
        print(f"{has:18s} cards {sum(c.values()):4d}  " + "  ".join(f"{k} {c[k]}" for k in order))
    total = sum(counts.values(), collections.Counter())
    print(f"{'all':18s} cards {sum(total.values()):4d}  " + "  ".join(f"{k} {total[k]}" for k in order))
    for row in listed[:args.list]:
        print("  " + " | ".join(row))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("phrases")
    p = sub.add_parser("picks")
    p.add_argument("--train", nargs="+", required=True)
    p.add_argument("--sets", nargs="*")
    p.add_argument("--model")
    p.add_argument("--C", type=float, default=1.0)
    p.add_argument("--objective", choices=["candidate", "card"], default="candidate")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--list", type=int, default=0)
    args = ap.parse_args()
    phrases() if args.what == "phrases" else picks(args)


if __name__ == "__main__":
    main()
