#!/usr/bin/env python3
"""Fits the merchant model's word evidence (Sources/SnapsortStages/Resources/merchant-words.json):
how typical each word of a receipt's header is of the merchant's own rows against the header's
other rows (address, boilerplate, cashier and time lines, totals), as a log-odds learnt from the
training receipts (issue #23 item 4, #27: body lines taken for the merchant).

    fit_merchant_words.py --ocr EVIDENCE.jsonl [MORE ...] --true EVIDENCE.jsonl [MORE ...]
                          [--min-groups K] [--words OUT.json]

The evidence is fit_merchant.py's (`snapsort receipt-text --merchant-candidates`); only folds 0-3
of folds.json are read. Each single-row candidate is a merchant row when at least 60 % of its
words are words of the labelled merchant (difflib ratio >= 0.8, for OCR errors), a body row when
none is, else left out. A word counts once per merchant group (folds.json's `group`: one chain's
many receipts do not outweigh other shops), and is kept only when it occurs in the rows of at
least K groups, so a shop's own name, seen in one group, is never learnt. Its weight is
log((groups with it in merchant rows + 1) / (groups with merchant rows + 2))
- log((groups with it in body rows + 1) / (groups with body rows + 2)).

A row's feature (`word_odds`, MerchantCandidates) is the mean weight of its words, unknown words
0. The words are MerchantCandidates.fold's of two letters or more. fit_merchant.py imports `table` and `row_odds` to give the training readings the
feature out of fold (each fold's from a table of the other training folds).
"""
import difflib
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold as score_fold  # noqa: E402

TRAIN = [0, 1, 2, 3]


def words(text):
    """As MerchantCandidates.words: fold's words of two letters or more (numbers and single
    letters are the shape features' evidence)."""
    folded = re.sub(r"[^0-9a-zäöüß ]", " ", text.lower())
    return [w for w in folded.split() if sum(c.isalpha() for c in w) >= 2]


def row_label(merchant, value):
    """True for a merchant row, False for a body row, None for neither."""
    own = [w for w in words(value) if any(c.isalpha() for c in w)]
    if not own:
        return False
    label = score_fold(merchant).split()
    matched = sum(any(difflib.SequenceMatcher(None, w, t).ratio() >= 0.8 for t in label) for w in own)
    if matched == 0:
        return False
    return True if matched >= 0.6 * len(own) else None


def table(examples, min_groups):
    """Word -> log-odds from (group, words, is_merchant) examples."""
    seen = {True: {}, False: {}}
    for group, row, label in examples:
        for w in row:
            seen[label].setdefault(w, set()).add(group)
    groups = {label: len({g for g, _, l in examples if l == label}) for label in (True, False)}
    out = {}
    for w in set(seen[True]) | set(seen[False]):
        pos, neg = len(seen[True].get(w, ())), len(seen[False].get(w, ()))
        if len(seen[True].get(w, set()) | seen[False].get(w, set())) >= min_groups:
            out[w] = round(math.log((pos + 1) / (groups[True] + 2)) - math.log((neg + 1) / (groups[False] + 2)), 4)
    return out


def row_odds(odds, value):
    """The mean weight of a candidate's words (0 for none)."""
    ws = words(value)
    return sum(odds.get(w, 0.0) for w in ws) / len(ws) if ws else 0.0


def examples(readings, truth, group_of, stems):
    """(group, words, is_merchant) for the single-row candidates of the readings of `stems`."""
    out = []
    for reading in readings:
        for s, r in reading.items():
            if s not in stems or s not in truth:
                continue
            for c in r["candidates"]:
                if c["features"].get("joined"):
                    continue
                label = row_label(truth[s]["merchant"], c["value"])
                if label is not None:
                    out.append((group_of[s], words(c["value"]), label))
    return out


def main():
    from fit_merchant import readings as read_evidence

    here = os.path.dirname(os.path.abspath(__file__))
    args, paths, out, min_groups = sys.argv[1:], [], None, 3
    i = 0
    while i < len(args):
        if args[i] == "--words":
            out, i = args[i + 1], i + 1
        elif args[i] == "--min-groups":
            min_groups, i = int(args[i + 1]), i + 1
        elif not args[i].startswith("--"):
            paths.append(args[i])
        i += 1
    split = json.load(open(os.path.join(here, "folds.json"), encoding="utf-8"))
    train = {s: v for s, v in split["sroie"].items() if v["fold"] in TRAIN}
    data = os.path.join(here, "..", "..", "..", "shared", "data", "receipts")
    truth = {s: json.load(open(os.path.join(data, v["folder"], s + ".json"), encoding="utf-8")) for s, v in train.items()}
    group_of = {s: v["group"] for s, v in train.items()}
    ex = examples([read_evidence([p]) for p in paths], truth, group_of, set(train))
    odds = table(ex, min_groups)
    print(f"{len(ex)} rows ({sum(l for *_, l in ex)} merchant), {len(odds)} words in >= {min_groups} groups")
    ranked = sorted(odds.items(), key=lambda t: t[1])
    print("most body-like:", ", ".join(f"{w} {v:+.1f}" for w, v in ranked[:25]))
    print("most name-like:", ", ".join(f"{w} {v:+.1f}" for w, v in ranked[-25:]))
    if out:
        doc = {"version": 1, "words": dict(sorted(odds.items())),
               "training": {"script": "bench/receipts/fit_merchant_words.py",
                            "data": f"folds 0-3 of bench/receipts/folds.json (seed {split['seed']}): {len(ex)} "
                                    "header rows of OCR readings and true lines, by merchant group",
                            "choice": f"words in the rows of at least {min_groups} merchant groups"}}
        with open(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=0, ensure_ascii=False)
            f.write("\n")
        print(f"written to {out}")


if __name__ == "__main__":
    main()
