#!/usr/bin/env python3
"""Replays `KeyLineVote.corroborated` on a run's records (a bench tool, never the product): for
every receipt whose total the re-read line replaced (`fields.total.reading == "line"`), the page's
own value (the last amount of the line it came from), whether the rest of the page bears it out
(the subtotal, savings and tax close on it; no subtotal and the items do; or another line prints
it), and which of the two values the label has.

    reread_guard.py RECORDS.jsonl [MORE.jsonl ...] [--data DIR ...]

Labels: `NAME.json` beside the image (`total`), looked up in the --data folders (default: the
three real-receipt folders and nothing else). Report only training data (folds 0-3 of folds.json,
or `--split train` renders); the guard's effect on a held-out set is measured by a full run.
Cash given less change returned (`KeyLineVote.paidLessChange`, the extractor's own payment
reading) also bears a total out in the product; it is not replayed here (its keywords are the
extractor's vocabularies), so a total it keeps shows here as `reread stands`.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount  # noqa: E402

AMOUNT = re.compile(r"(?<![\d.,:/])(-\s?)?(\d{1,3}(?:[.,' ]\d{3})+|\d{1,7})\s?[.,]\s?(\d{2})(?![\d%]|[.,:/]\d|\s%)")


def amounts(text):
    """Every amount of a line, in cents, without its sign (as KeyLineVote.total reads it)."""
    return [int(re.sub(r"\D", "", m.group(2))) * 100 + int(m.group(3)) for m in AMOUNT.finditer(text)]


def cents(value):
    return amount(value)


def corroborated(receipt, page, line):
    sub, sav, tax = cents(receipt.get("subtotal")), cents(receipt.get("savings")) or 0, cents(receipt.get("tax")) or 0
    if sub is not None and page in (sub - abs(sav) + tax, sub - abs(sav)):
        return True
    items = [cents(i.get("amount")) or 0 for i in receipt.get("items") or []]
    if sub is None and items and page in (sum(items) - abs(sav), sum(items), sum(items) + tax):
        return True
    return any(i != line and page in amounts(row["text"]) for i, row in enumerate(receipt.get("text") or []))


def main():
    args = sys.argv[1:]
    data = [args[i + 1] for i, a in enumerate(args) if a == "--data"]
    files = [a for i, a in enumerate(args) if a != "--data" and (i == 0 or args[i - 1] != "--data")]
    here = os.path.dirname(os.path.abspath(__file__))
    data = data or [os.path.join(here, "..", "..", "..", "shared", "data", "receipts", d) for d in ("sroie", "sroie_dev", "softmatic_de")]
    tally = {}
    for path in files:
        for raw in open(path, encoding="utf-8"):
            r = json.loads(raw) if raw.strip() else {}
            receipt = r.get("receipt") or {}
            field = (receipt.get("fields") or {}).get("total") or {}
            if field.get("reading") != "line":
                continue
            stem = os.path.splitext(os.path.basename(r["file"]))[0]
            label = next((json.load(open(os.path.join(d, stem + ".json"))) for d in data if os.path.exists(os.path.join(d, stem + ".json"))), None)
            if label is None:
                continue
            found = amounts(field.get("source") or "")
            if not found:
                continue
            page, reread, truth = found[-1], cents(receipt.get("total")), cents(label.get("total"))
            guarded = corroborated(receipt, page, field.get("line"))
            key = ("reread right" if reread == truth else "page right" if page == truth else "neither", "guard keeps page" if guarded else "reread stands")
            tally[key] = tally.get(key, 0) + 1
            print(f"{stem}: page {page} reread {reread} label {truth} -> {key[0]}, {key[1]}")
    for key, n in sorted(tally.items()):
        print(f"{key[0]:12} | {key[1]:16} | {n}")


if __name__ == "__main__":
    main()
