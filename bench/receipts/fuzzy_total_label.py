#!/usr/bin/env python3
"""Replays a candidate rule for garbled total labels on training readings before any Swift is
written (a bench tool, never the product): where the extractor gives no total, a row with a word
one edit from a total word (`total_features.near_total_label`: `FOTALE`, `Tota)`, none exact)
lends its amount: its own last amount, else the next row's, else the row above's when that row
prints an amount and at most 3 letters (the stage's `amountBefore`). Counts right and wrong.

    fuzzy_total_label.py RECORDS.jsonl REPLAY.jsonl TRUTH_DIR [RECORDS REPLAY TRUTH_DIR ...]

RECORDS: a receipts-preset run's records (their `receipt.text` rows); REPLAY: `snapsort
receipt-text --records RECORDS.jsonl --json` (the extractor's total on the same rows); TRUTH_DIR:
where NAME.json holds the label (`../shared/data/receipts` for SROIE, a render folder for renders).
Only training readings count: SROIE folds 0-3 of folds.json; renders of `--split train` (held-out
renders are refused).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount  # noqa: E402
from total_features import near_total_label  # noqa: E402

AMOUNT = re.compile(r"(\d{1,6})\s?[.,]\s?(\d{2})(?!\d)")


def amounts(text):
    return [int(a) * 100 + int(b) for a, b in AMOUNT.findall(text)]


def label(stem, folder):
    for sub in ("sroie_dev", "sroie", ""):
        path = os.path.join(folder, sub, stem + ".json")
        if os.path.exists(path):
            truth = json.load(open(path, encoding="utf-8"))
            if truth.get("split") == "heldout":
                sys.exit(f"{stem}: a held-out render; refused")
            return truth.get("total")
    return None


def pick(rows):
    """The amount the last fuzzily labelled row lends, with the row."""
    found = None
    for i, text in enumerate(rows):
        if not near_total_label(text, 1):
            continue
        lent = (amounts(text) or (amounts(rows[i + 1]) if i + 1 < len(rows) else [])
                or (amounts(rows[i - 1]) if i and sum(c.isalpha() for c in rows[i - 1]) <= 3 else []))
        if lent:
            found = (lent[-1], text)
    return found


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    folds = json.load(open(os.path.join(here, "folds.json"), encoding="utf-8"))
    train = {s for s, v in folds["sroie"].items() if v["fold"] != 4}
    count = {"right": 0, "wrong": 0, "no fuzzy label": 0}
    for records, replay, folder in zip(args[::3], args[1::3], args[2::3]):
        given = {}
        for line in open(replay, encoding="utf-8"):
            r = json.loads(line)
            given[os.path.basename(r["file"]).split(".")[0]] = (r.get("receipt") or {}).get("total")
        for line in open(records, encoding="utf-8"):
            r = json.loads(line)
            stem = os.path.basename(r["file"]).split(".")[0]
            if (stem.startswith("sroie") and stem not in train) or stem.startswith("de_") or given.get(stem):
                continue
            want = amount(label(stem, folder))
            if want is None:
                continue
            found = pick([t["text"] for t in (r.get("receipt") or {}).get("text") or []])
            if found is None:
                count["no fuzzy label"] += 1
                continue
            right = found[0] == want
            count["right" if right else "wrong"] += 1
            print(f"{stem}: {'right' if right else 'wrong'} {found[0] / 100:.2f} (label {want / 100:.2f}) "
                  f"from {found[1]!r}")
    print("training readings without a total: " + ", ".join(f"{k} {v}" for k, v in count.items()))


if __name__ == "__main__":
    main()
