#!/usr/bin/env python3
"""Which doubts about the page's reading are worth a second reading of the scan as loaded: the
trigger of `ReceiptReadingChoice.readWhen` fitted on the training folds, then scored held out
(a bench tool, never the product; issues #23 and #28: receipts <= 2 s CPU each).

    raw_trigger.py --base PAGE.jsonl [...] --other RAW.jsonl [...]
                   [--sets 0,1,2,3] [--heldout 4] [--heldout de] [--cpu-per-read S]
                   [--write-replay OUT.jsonl]

PAGE: records of the receipts preset with `"raw_reading": false` (the flattened page's reading
alone); RAW: records of the same receipts read as loaded (the preset without `receipt_warp`).
A receipt is read twice only when it is a scan that is all paper of at most 2 MP
(`choose_readings.flat_scan`) and the page's reading leaves one of the chosen doubts:

  no_merchant, no_date, no_total     the field is missing
  unconfirmed_total                   a total was read that the receipt's arithmetic does not confirm

Fields are then settled by the fitted margins of `ReceiptReadingChoice` (total 9, date 9,
merchant 0.05: `choose_readings.choose`). For each doubt the table counts the fields a second
reading changed to right and to wrong on the training folds; every set of doubts is then scored
(right fields, total + date + merchant), and the one chosen is the set with the fewest second
readings whose right fields are within TOLERANCE (one) of the best: a gain of one field in a few
hundred receipts is not evidence, a second reading's CPU is certain. CPU is the number of
second readings times --cpu-per-read (the raw run's user + sys per receipt).
"""
import argparse
import itertools
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import choose_readings as choice  # noqa: E402
import score  # noqa: E402
from reading_union import DATA  # noqa: E402

DOUBTS = ("no_merchant", "no_date", "no_total", "unconfirmed_total")
MARGINS = {"total": 9.0, "date": 9.0, "merchant": 0.05}
TOLERANCE = 1


def doubts(base):
    found = set()
    if base.get("merchant") is None:
        found.add("no_merchant")
    if base.get("date") is None:
        found.add("no_date")
    if base.get("total") is None:
        found.add("no_total")
    elif not choice.closes(base):
        found.add("unconfirmed_total")
    return found


def read_twice(base, trigger):
    return choice.flat_scan(base) and bool(doubts(base) & set(trigger))


def settled(base, other, trigger):
    """The three fields the record keeps under `trigger`."""
    if not read_twice(base, trigger):
        return {f: base.get(f) for f in choice.FIELDS}
    picked = {}
    for field in choice.FIELDS:
        keep = "base"
        mine, theirs = choice.value(base, field), choice.value(other, field)
        if theirs is not None and not (mine is not None and mine.lower() == theirs.lower()):
            if mine is None:
                keep = "other"
            elif field == "total" and choice.closes(base) != choice.closes(other):
                keep = "other" if choice.closes(other) else "base"
            elif choice.confidence(other, field) - choice.confidence(base, field) >= MARGINS[field] - 1e-9:
                keep = "other"
        picked[field] = (other if keep == "other" else base).get(field)
    return picked


def right(truth, fields):
    return score.field_hits(truth, fields)


def evaluate(stems, truths, bases, others, trigger):
    """(right per field, second readings) under `trigger`."""
    hits = {f: 0 for f in choice.FIELDS}
    reads = 0
    for stem in stems:
        base, other = bases.get(stem, {}), others.get(stem, {})
        reads += read_twice(base, trigger)
        for field, ok in right(truths[stem], settled(base, other, trigger)).items():
            hits[field] += ok
    return hits, reads


def per_doubt(stems, truths, bases, others):
    print("| doubt (page's reading) | scans with it | alone | total to right / wrong | date | merchant |")
    print("|---|---|---|---|---|---|")
    for doubt in DOUBTS:
        having = [s for s in stems if choice.flat_scan(bases.get(s, {})) and doubt in doubts(bases.get(s, {}))]
        alone = sum(1 for s in having if doubts(bases[s]) == {doubt})
        cells = []
        for field in ("total", "date", "merchant"):
            up = down = 0
            for s in having:
                truth = truths[s]
                if truth.get(field) is None:
                    continue
                before = right(truth, {field: bases[s].get(field)})[field]
                after = right(truth, {field: settled(bases[s], others.get(s, {}), DOUBTS)[field]})[field]
                up += after and not before
                down += before and not after
            cells.append(f"+{up} / -{down}")
        print(f"| {doubt} | {len(having)} | {alone} | " + " | ".join(cells) + " |")


def fit(stems, truths, bases, others, cpu):
    rows = []
    for n in range(len(DOUBTS) + 1):
        for trigger in itertools.combinations(DOUBTS, n):
            hits, reads = evaluate(stems, truths, bases, others, trigger)
            rows.append((sum(hits.values()), reads, trigger, hits))
    best = max(r[0] for r in rows)
    chosen = min((r for r in rows if r[0] >= best - TOLERANCE), key=lambda r: (r[1], -r[0]))
    print("\n| doubts read for | second readings | CPU s (est.) | total | date | merchant | right fields |")
    print("|---|---|---|---|---|---|---|")
    for total, reads, trigger, hits in sorted(rows, key=lambda r: (-r[0], r[1])):
        mark = " **chosen**" if trigger == chosen[2] else ""
        name = ", ".join(trigger) or "(never)"
        print(f"| {name}{mark} | {reads} | {reads * cpu:.0f} | {hits['total']} | {hits['date']} | "
              f"{hits['merchant']} | {total} |")
    return chosen[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", nargs="+", required=True)
    parser.add_argument("--other", nargs="+", required=True)
    parser.add_argument("--sets", default="0,1,2,3")
    parser.add_argument("--heldout", action="append", default=[])
    parser.add_argument("--folds", default=os.path.join(HERE, "folds.json"))
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--cpu-per-read", type=float, default=0.6)
    parser.add_argument("--write-replay", help="records (file + receipt's three fields) of the chosen trigger, all receipts")
    args = parser.parse_args()
    split = json.load(open(args.folds, encoding="utf-8"))
    bases, others = choice.load(args.base), choice.load(args.other)
    stems, truths = choice.stems_of(split, args.sets, args.data)
    print(f"fit on sets {args.sets} ({len(stems)} receipts), {args.cpu_per_read} s CPU per second reading\n")
    per_doubt(stems, truths, bases, others)
    chosen = fit(stems, truths, bases, others, args.cpu_per_read)
    print("\nchosen: " + json.dumps(list(chosen)))
    for heldout in args.heldout:
        stems, truths = choice.stems_of(split, heldout, args.data)
        print(f"\nheld out {heldout} ({len(stems)} receipts):\n")
        print("| doubts read for | second readings | total | date | merchant |")
        print("|---|---|---|---|---|")
        for name, trigger in (("all four (main)", DOUBTS), ("chosen", chosen), ("(never)", ())):
            hits, reads = evaluate(stems, truths, bases, others, trigger)
            print(f"| {name} | {reads} | {hits['total']} | {hits['date']} | {hits['merchant']} |")
    if args.write_replay:
        with open(args.write_replay, "w", encoding="utf-8") as out:
            for stem in sorted(bases):
                fields = settled(bases[stem], others.get(stem, {}), chosen)
                out.write(json.dumps({"file": stem + ".jpg", "receipt": fields}) + "\n")


if __name__ == "__main__":
    main()
