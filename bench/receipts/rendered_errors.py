#!/usr/bin/env python3
"""Lists what the extractor got wrong on rendered training receipts, by cause (a bench tool, never
the product): each receipt whose items or total are wrong, with the expected and the predicted
items side by side, the rows it was read from, and a count of the causes.

    rendered_errors.py DIR RUN.jsonl [--family F] [--capture C] [--rows] [--total]

DIR holds bench/gen/receipts.py's NAME.json; RUN.jsonl is snapsort's records (a full run, or
`snapsort receipt-text` over rendered_text.py's output). Renders of `--split heldout` are refused:
their per-receipt errors must not steer tuning (README: line items on layouts never seen).

Causes of a missed expected item (the first that applies): `amount missing` (no predicted item has
its amount), `description` (an item has the amount but another description: lost, merged with a
neighbour's row, or misread). A predicted item nothing matches is `spurious`.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount, ratio, read_predictions  # noqa: E402


def causes(expected, predicted):
    """(cause, expected item, predicted item or None) for each miss, by score_rendered's rules."""
    predicted = list(predicted or [])
    used = [False] * len(predicted)
    missed = []
    for e in expected:
        for i, p in enumerate(predicted):
            if not used[i] and amount(p.get("amount")) == amount(e["amount"]) and ratio(p.get("description"), e["description"]) >= 0.7:
                used[i] = True
                break
        else:
            missed.append(e)
    out = []
    for e in missed:
        same = [p for i, p in enumerate(predicted) if not used[i] and amount(p.get("amount")) == amount(e["amount"])]
        out.append(("description", e, same[0]) if same else ("amount missing", e, None))
    spurious = [p for i, p in enumerate(predicted) if not used[i]]
    out += [("spurious", None, p) for p in spurious if not any(c[2] is p for c in out)]
    return out


def read_records(path):
    """A run's records (records.jsonl) by image stem."""
    records = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            records[os.path.splitext(os.path.basename(r.get("file", "")))[0]] = r
    return records


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("run")
    ap.add_argument("--family")
    ap.add_argument("--capture")
    ap.add_argument("--rows", action="store_true", help="print the rows the receipt was read as")
    ap.add_argument("--total", action="store_true", help="list receipts whose total is wrong instead")
    args = ap.parse_args()
    preds = read_predictions([args.run])
    records = read_records(args.run)
    counts = collections.Counter()
    by_family = collections.Counter()
    for name in sorted(os.listdir(args.folder)):
        if not name.endswith(".json"):
            continue
        truth = json.load(open(os.path.join(args.folder, name), encoding="utf-8"))
        if "layout_family" not in truth:
            continue
        if truth.get("split") != "train":
            sys.exit(f"{name} is a {truth.get('split')} render: only --split train renders are listed")
        if (args.family and truth["layout_family"] != args.family) or (args.capture and truth["capture"] != args.capture):
            continue
        stem = name[:-5]
        pred = preds.get(stem, {})
        if args.total:
            if amount(truth["total"]) == amount(pred.get("total")):
                continue
            counts["total wrong"] += 1
            by_family[truth["layout_family"]] += 1
            print(f"== {stem} {truth['layout_family']} {truth['language']} {truth['capture']}: total {truth['total']} got {pred.get('total')}")
        else:
            found = causes(truth["items"], pred.get("items"))
            if not found:
                continue
            print(f"== {stem} {truth['layout_family']} {truth['language']} {truth['capture']} total {truth['total']} got {pred.get('total')}")
            for cause, e, p in found:
                counts[cause] += 1
                by_family[(truth["layout_family"], cause)] += 1
                show = lambda i: f"{i.get('description')!r} {i.get('quantity')} x {i.get('unit_price')} = {i.get('amount')}" if i else "-"
                print(f"  {cause:15} expected {show(e)}  | got {show(p)}")
        if args.rows:
            receipt = (records.get(stem) or {}).get("receipt") or {}
            for n, row in enumerate(receipt.get("text") or [], 0):
                print(f"    {n:3} {row['text']}")
    print("causes:", dict(counts))
    for key, n in sorted(by_family.items(), key=lambda kv: -kv[1]):
        print(f"  {key}: {n}")


if __name__ == "__main__":
    main()
