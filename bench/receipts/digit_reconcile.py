#!/usr/bin/env python3
"""Replays a candidate rule on a run's records before any Swift is written (a bench tool, never the
product): where a receipt's items do not add up (to the subtotal; without one, to the total, with
or without the savings and the tax, as `ReceiptConsistency.itemsAgree` reads it), one digit of one
item's amount read another way (`9` for a printed `0`, `3` for `8`, ...) that alone makes them add
up is taken. Counts, on rendered training receipts, the receipts where exactly one such change
exists and whether the changed amount is the printed one (an expected item's amount no predicted
item had), and the receipts where several changes fit (left alone).

    digit_reconcile.py DIR RUN.jsonl [--show] [--confusable]

`--confusable` allows only the digit pairs OCR is seen to confuse on the train renders (counted
from `item_misses.py`'s `price misread` rows) instead of any digit. Refuses held-out renders.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ocr_loss import train_renders  # noqa: E402
from rendered_errors import read_records  # noqa: E402
from score import amount  # noqa: E402

CONFUSABLE = {"0": "9862", "9": "0", "8": "03", "6": "0", "2": "0", "3": "8", "5": "6", "1": "7", "7": "1"}


def cents(value):
    a = amount(value)
    return None if a is None or a == "" else round(float(a) * 100)


def agrees(total_items, f):
    sub, tot, sav, tax = (cents((f.get(k) or {}).get("value")) for k in ("subtotal", "total", "savings", "tax"))
    if sub is not None:
        return total_items == sub
    if tot is None:
        return None
    return total_items in (tot, tot + (sav or 0), tot - (tax or 0))


def variants(c, confusable):
    s = str(c)
    for i, ch in enumerate(s):
        for other in (CONFUSABLE.get(ch, "") if confusable else "0123456789"):
            if other != ch and not (i == 0 and other == "0"):
                yield int(s[:i] + other + s[i + 1 :])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("run")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--confusable", action="store_true")
    args = ap.parse_args()
    records = read_records(args.run)
    counts = collections.Counter()
    for stem, truth in train_renders(args.folder, "replayed"):
        r = records.get(stem)
        if not r:
            continue
        counts["receipts"] += 1
        rec = r.get("receipt") or {}
        items = [cents(i.get("amount")) for i in rec.get("items") or []]
        items = [c for c in items if c is not None]
        fields = rec.get("fields") or {}
        ok = agrees(sum(items), fields) if items else None
        if ok is None:
            counts["nothing to add up to"] += 1
            continue
        if ok:
            counts["adds up"] += 1
            continue
        counts["does not add up"] += 1
        fits = [(k, v) for k, c in enumerate(items) if c > 0 for v in variants(c, args.confusable)
                if agrees(sum(items) - c + v, fields)]
        if len(fits) != 1:
            counts["several fit" if fits else "none fits"] += 1
            continue
        k, v = fits[0]
        expected = collections.Counter(cents(e["amount"]) for e in truth["items"])
        had = collections.Counter(items)
        right = expected[v] > had[v] and expected[items[k]] < had[items[k]]
        counts["one fits, right" if right else "one fits, wrong"] += 1
        if args.show:
            print(f"{stem} {truth['capture']:14} {items[k] / 100:.2f} -> {v / 100:.2f} {'right' if right else 'WRONG'}")
    for key, n in counts.items():
        print(f"  {key:22} {n}")


if __name__ == "__main__":
    main()
