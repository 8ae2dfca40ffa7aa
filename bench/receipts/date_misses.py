#!/usr/bin/env python3
"""Sorts a run's date misses on training receipts by cause (a bench tool, never the product).

    date_misses.py PREDICTIONS.jsonl [MORE ...] --records RECORDS.jsonl [MORE ...]
                   [--rendered DIR] [--show] [--data ../shared/data/receipts]

PREDICTIONS: snapsort's records.jsonl or `snapsort receipt-text --records RECORDS --json` over
them; RECORDS: the run's records whose OCR rows (`receipt.text`) were read. The truth is
folds.json's folder (SROIE folds 0-3 only: fold 4 and the German 14 are held out and skipped) or,
with --rendered DIR, the train renders' NAME.json (a held-out render is refused). Each miss is:

  day/month order   the labelled date with day and month swapped was given
  read, another     the date is in the OCR text (a date token parses to it, read day first or
                    month first, as ocr_error.py reads them) but another date was chosen
  read, none        it is in the text but no date was given (not parsed)
  not read          no clean date token of the text reads as it: OCR lost it or garbled it
                    (the extractor's mending may still recover a garbled one)

--show prints each miss with the rows that hold a date token or a date word.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ocr_error import dates_in  # noqa: E402
from score import read_predictions  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATEISH = re.compile(r"\d\s?[-./~]\s?\d|\b(?:19|20)\d\d\b|dat|fecha|tarikh", re.I)


def truths(stems, data, rendered):
    folds = json.load(open(os.path.join(HERE, "folds.json")))["sroie"]
    out = {}
    for s in stems:
        if rendered:
            truth = json.load(open(os.path.join(rendered, s + ".json"), encoding="utf-8"))
            if truth.get("split") != "train":
                sys.exit(f"date_misses.py: {s} is a held-out render; only train renders are sorted")
            out[s] = truth.get("date")
        elif s in folds and folds[s]["fold"] != 4:
            path = os.path.join(data, folds[s]["folder"], s + ".json")
            out[s] = json.load(open(path, encoding="utf-8")).get("date")
    return out


def cause(want, got, rows):
    y, m, d = want.split("-")
    if got == f"{y}-{d}-{m}" and d != m:
        return "day/month order"
    read = any(want in dates_in(row) for row in rows)
    if read:
        return "read, another" if got else "read, none"
    return "not read"


def main():
    args = sys.argv[1:]
    if "--records" not in args:
        sys.exit(__doc__)

    lists, options, current = {"predictions": [], "records": []}, {}, "predictions"
    i = 0
    while i < len(args):
        if args[i] in ("--rendered", "--data") and i + 1 < len(args):
            options[args[i]] = args[i + 1]
            i += 1
        elif args[i] == "--records":
            current = "records"
        elif not args[i].startswith("--"):
            lists[current].append(args[i])
        i += 1
    predictions, records = lists["predictions"], lists["records"]
    data = options.get("--data", os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts"))
    preds, rows = read_predictions(predictions), read_predictions(records)
    want = truths(preds, data, options.get("--rendered"))
    counts, total = {}, 0
    for s in sorted(want):
        if not want[s]:
            continue
        total += 1
        got = preds[s].get("date")
        if got == want[s]:
            continue
        texts = [row["text"] for row in rows.get(s, {}).get("text") or []]
        why = cause(want[s], got, texts)
        counts[why] = counts.get(why, 0) + 1
        if "--show" in args:
            print(f"{s}: want {want[s]}, got {got}: {why}")
            for text in [t for t in texts if DATEISH.search(t)][:4]:
                print(f"    | {text}")
    print(f"| date misses of {total} training receipts | n |\n|---|---|")
    for why in ("day/month order", "read, another", "read, none", "not read"):
        print(f"| {why} | {counts.get(why, 0)} |")


if __name__ == "__main__":
    main()
