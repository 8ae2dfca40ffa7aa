#!/usr/bin/env python3
"""Lists the fields `snapsort receipt-text` got wrong on the training folds, with the truth, the
prediction, the line the extractor took it from and the receipt's rows (a bench tool, never the
product).

    train_errors.py LINES.jsonl --heldout K [--field total|date|merchant] [--rows]
                    [--data ../shared/data/receipts] [--folds bench/receipts/folds.json]

The held-out fold K is never printed: tuning looks at folds other than K only (README: the split).
Only the count of wrong fields per fold is given for the training folds.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import score  # noqa: E402
import true_lines  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lines")
    ap.add_argument("--heldout", type=int, required=True)
    ap.add_argument("--field", choices=["total", "date", "merchant"])
    ap.add_argument("--rows", action="store_true", help="print the receipt's rows under each error")
    ap.add_argument("--data", default="../shared/data/receipts")
    ap.add_argument("--folds", default=os.path.join(os.path.dirname(__file__), "folds.json"))
    args = ap.parse_args()
    folds = json.load(open(args.folds))["sroie"]
    preds = {}
    for line in open(args.lines, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            preds[score.stem(r["file"])] = r
    wrong = {}
    for stem, info in sorted(folds.items()):
        if info["fold"] == args.heldout or stem not in preds:
            continue
        folder = os.path.join(args.data, info["folder"])
        truth = json.load(open(os.path.join(folder, stem + ".json")))
        receipt = preds[stem].get("receipt") or {}
        for field, ok in score.field_hits(truth, receipt).items():
            if ok or (args.field and field != args.field):
                continue
            wrong[info["fold"]] = wrong.get(info["fold"], 0) + 1
            source = (receipt.get("fields") or {}).get(field) or {}
            print(f"{stem} (fold {info['fold']}) {field}: truth {truth.get(field)!r}, "
                  f"got {receipt.get(field)!r} from line {source.get('line')}")
            if args.rows:
                for n, row in enumerate(true_lines.read_rows(os.path.join(folder, stem + ".lines.csv")), 1):
                    print(f"    {n:3} {row}")
    print("wrong fields per training fold:", dict(sorted(wrong.items())))


if __name__ == "__main__":
    main()
