#!/usr/bin/env python3
"""Do two readings of the same receipts fail on different receipts? (a bench tool, never the product)

    reading_union.py --run NAME RECORDS.jsonl [--run NAME RECORDS.jsonl ...]
                     [--folds bench/receipts/folds.json] [--sets 0,1,2,3|4|de] [--data DIR] [--show NAME]

Each run is a snapsort run over the same receipts (its records' `receipt.text` is the reading the
record kept). Per receipt of the chosen folds of folds.json (`de` = the German 14), for total,
date and merchant:

  * "appears": the labelled answer is somewhere in the run's text (ocr_error.py's rules: an amount
    token equal to the total to the cent; a date token that parses to the date, day or month
    first; one line, or two adjacent lines joined, matching the merchant by score.py's rule);
  * "right": the run's field is right (score.py's rules);

and the same for the union of the runs (appears in any text / right in any run: an oracle that
shows what choosing between the readings could win at most), with how many receipts only one run
holds. --show NAME lists the receipts where only NAME's text holds a field (to look at, training
folds only).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402
from ocr_error import amounts_in, dates_in, merchant_in  # noqa: E402

DATA = os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts")
FIELDS = ("total", "date", "merchant")


def members(split, sets):
    chosen = []
    for name in sets:
        if name == "de":
            chosen += [("softmatic_de", stem) for stem in split["test"]]
        else:
            chosen += [(v["folder"], s) for s, v in split["sroie"].items() if v["fold"] == int(name)]
    return sorted(chosen, key=lambda m: m[1])


def records(path):
    found = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            record = json.loads(line)
            found[score.stem(record["file"])] = record.get("receipt") or {}
    return found


def appears(truth, receipt):
    lines = [line["text"] for line in receipt.get("text") or []]
    text = "\n".join(lines)
    found = {}
    if truth.get("total") is not None:
        found["total"] = score.amount(truth["total"]) in amounts_in(text)
    if truth.get("date") is not None:
        found["date"] = truth["date"] in dates_in(text)
    if truth.get("merchant") is not None:
        found["merchant"] = merchant_in(truth["merchant"], lines)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--run", nargs=2, action="append", metavar=("NAME", "RECORDS"), required=True)
    parser.add_argument("--folds", default=os.path.join(HERE, "folds.json"))
    parser.add_argument("--sets", default="0,1,2,3")
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--show")
    args = parser.parse_args()
    split = json.load(open(args.folds, encoding="utf-8"))
    runs = [(name, records(path)) for name, path in args.run]
    names = [name for name, _ in runs]
    tallies = {(kind, who, field): 0 for kind in ("appears", "right") for who in names + ["union"] for field in FIELDS}
    only = {(kind, who, field): [] for kind in ("appears", "right") for who in names for field in FIELDS}
    counted = {field: 0 for field in FIELDS}
    for folder, stem in members(split, args.sets.split(",")):
        truth = json.load(open(os.path.join(args.data, folder, stem + ".json"), encoding="utf-8"))
        per_run = {}
        for name, recs in runs:
            receipt = recs.get(stem, {})
            per_run[name] = {"appears": appears(truth, receipt), "right": score.field_hits(truth, receipt)}
        for field in FIELDS:
            if truth.get(field) is None:
                continue
            counted[field] += 1
            for kind in ("appears", "right"):
                hits = {name: per_run[name][kind].get(field, False) for name in names}
                for name in names:
                    tallies[(kind, name, field)] += hits[name]
                    if hits[name] and sum(hits.values()) == 1:
                        only[(kind, name, field)].append(stem)
                tallies[(kind, "union", field)] += any(hits.values())
    print(f"sets {args.sets}: " + ", ".join(f"{f} {counted[f]}" for f in FIELDS) + " receipts labelled\n")
    print("| the labelled answer … | " + " | ".join(FIELDS) + " |")
    print("|---|" + "---|" * len(FIELDS))
    for kind, phrase in (("appears", "appears in the text of"), ("right", "is the field of")):
        for who in names + ["union"]:
            label = f"{phrase} **any run**" if who == "union" else f"{phrase} {who}"
            cells = []
            for field in FIELDS:
                n = tallies[(kind, who, field)]
                cell = f"{n}/{counted[field]} ({n / max(1, counted[field]):.2f})"
                if who != "union":
                    cell += f", only here {len(only[(kind, who, field)])}"
                cells.append(cell)
            print(f"| {label} | " + " | ".join(cells) + " |")
    if args.show:
        for kind in ("appears", "right"):
            for field in FIELDS:
                print(f"\nonly {args.show} {kind} {field}: {' '.join(only[(kind, args.show, field)])}")


if __name__ == "__main__":
    main()
