#!/usr/bin/env python3
"""Two readings of each receipt, one field chosen from them: the rules measured and their margin
fitted (a bench tool, never the product).

    choose_readings.py --base RECORDS.jsonl [...] --other RECORDS.jsonl [...]
                       [--sets 0,1,2,3] [--heldout 4|de] [--when always|unsure]
                       [--folds bench/receipts/folds.json]

BASE is snapsort's own reading (records of the receipts preset), OTHER a second reading of the
same receipts (records of a config that reads the raw page: no receipt_warp). For total, date
and merchant, per receipt where both readings have the field and disagree, the rule of
`ReceiptReadingChoice` (Swift) decides; this script applies the same rule to the two runs'
records and scores it, so the margin can be fitted on the training folds (--sets) and only then
reported on --heldout.

The rule, per field: a value both readings give stays; a field only one reading found is taken
from it; where they disagree, the total that closes the receipt's own arithmetic (items against
subtotal or total, subtotal − savings + tax against total) in its reading wins over one that
does not; otherwise the other reading's value replaces the base's only when its field confidence
is higher by at least MARGIN (per field; fitted here by counting right fields on --sets over a
grid: the largest margin, i.e. the fewest changes, whose count is within TOLERANCE (one receipt)
of the best; a gain of one receipt in a few hundred is not evidence).

Only a scan that is all paper is read twice (receipt_warp's outline covers 85 % of the image or
more, as its `quad` in the base record says), and with --when unsure (the product's setting) only
when the base reading misses merchant, date or total or its arithmetic does not confirm the
total; elsewhere the base reading stands. A scan over --max-pixels (the stage's
`raw_reading_max_pixels`, 2 MP; 0 for no limit) is not read raw.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402
from reading_union import DATA, members  # noqa: E402

FIELDS = ("total", "date", "merchant")
WHEN = "always"
TOLERANCE = 1
MAX_PIXELS = 2_000_000
GRID = sorted({round(0.05 * i, 2) for i in range(-4, 21)} | {0.01}) + [9.0]  # 9: never on confidence alone


def load(paths):
    found = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                record = json.loads(line)
                receipt = dict(record.get("receipt") or {})
                receipt["_image"] = record.get("image") or {}
                found[score.stem(record["file"])] = receipt
    return found


def closes(receipt):
    """The receipt's amounts confirm its total: the subtotal (less savings, plus tax) makes it, or,
    with no subtotal read, the items do (`ReceiptReadingChoice.closesArithmetic`)."""
    checks = receipt.get("checks") or {}
    if receipt.get("total") is None:
        return False
    if checks.get("totals_consistent") is True:
        return True
    return receipt.get("subtotal") is None and bool(receipt.get("items")) and not checks.get("problems")


def value(receipt, field):
    return ((receipt.get("fields") or {}).get(field) or {}).get("value")


def confidence(receipt, field):
    return ((receipt.get("fields") or {}).get(field) or {}).get("confidence") or 0.0


def unsure(base):
    """Whether the page's reading leaves a key field missing or its amounts unconfirmed: only
    then is the raw page read (`--when unsure`)."""
    return any(base.get(field) is None for field in FIELDS) or not closes(base)


def flat_scan(base):
    """Whether receipt_warp's outline covers 85 % of the image or more (a scan that is all paper)
    of at most MAX_PIXELS: only such a scan is read raw."""
    quad, image = base.get("quad") or [], base.get("_image") or {}
    if len(quad) != 4 or not image.get("width"):
        return False
    twice = sum(quad[i][0] * quad[(i + 1) % 4][1] - quad[(i + 1) % 4][0] * quad[i][1] for i in range(4))
    if MAX_PIXELS and image["width"] * image["height"] > MAX_PIXELS:
        return False
    return abs(twice) / 2 >= 0.85 * image["width"] * image["height"]


def choose(base, other, field, margin):
    """'base' or 'other': whose value of `field` the record keeps."""
    if not flat_scan(base) or (WHEN == "unsure" and not unsure(base)):
        return "base"
    mine, theirs = value(base, field), value(other, field)
    if theirs is None or (mine is not None and mine.lower() == theirs.lower()):
        return "base"
    if mine is None:
        return "other"
    if field == "total" and closes(base) != closes(other):
        return "base" if closes(base) else "other"
    return "other" if confidence(other, field) - confidence(base, field) >= margin - 1e-9 else "base"


def tally(stems, truths, bases, others, field, margin):
    right = 0
    for stem in stems:
        truth = truths[stem]
        if truth.get(field) is None:
            continue
        base, other = bases.get(stem, {}), others.get(stem, {})
        chosen = base if choose(base, other, field, margin) == "base" else other
        right += score.field_hits(truth, {field: chosen.get(field)})[field]
    return right


def stems_of(split, sets, data):
    chosen = members(split, sets.split(","))
    truths = {stem: json.load(open(os.path.join(data, folder, stem + ".json"), encoding="utf-8")) for folder, stem in chosen}
    return [stem for _, stem in chosen], truths


def main():
    global WHEN, MAX_PIXELS
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", nargs="+", required=True)
    parser.add_argument("--other", nargs="+", required=True)
    parser.add_argument("--sets", default="0,1,2,3")
    parser.add_argument("--heldout")
    parser.add_argument("--folds", default=os.path.join(HERE, "folds.json"))
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--when", choices=["always", "unsure"], default="always")
    parser.add_argument("--max-pixels", type=int, default=2_000_000)
    args = parser.parse_args()
    WHEN, MAX_PIXELS = args.when, args.max_pixels
    split = json.load(open(args.folds, encoding="utf-8"))
    bases, others = load(args.base), load(args.other)
    stems, truths = stems_of(split, args.sets, args.data)
    fitted = {}
    again = sum(1 for s in stems if flat_scan(bases.get(s, {})) and (args.when == "always" or unsure(bases.get(s, {}))))
    print(f"fit on sets {args.sets} ({len(stems)} receipts, {again} read twice with --when {args.when})\n")
    print("| field | base alone | other alone | right in either | margin fitted | chosen |")
    print("|---|---|---|---|---|---|")
    for field in FIELDS:
        scores = [(tally(stems, truths, bases, others, field, m), m) for m in GRID]
        best = max(s for s, _ in scores)
        fitted[field] = max(m for s, m in scores if s >= best - TOLERANCE)
        best = next(s for s, m in scores if m == fitted[field])
        alone = sum(score.field_hits(truths[s], bases.get(s, {})).get(field, False) for s in stems)
        other_alone = sum(score.field_hits(truths[s], others.get(s, {})).get(field, False) for s in stems)
        either = sum(
            score.field_hits(truths[s], bases.get(s, {})).get(field, False)
            or score.field_hits(truths[s], others.get(s, {})).get(field, False) for s in stems)
        print(f"| {field} | {alone} | {other_alone} | {either} | {fitted[field]} | {best} |")
    print("\nmargins: " + json.dumps(fitted))
    if args.heldout:
        stems, truths = stems_of(split, args.heldout, args.data)
        print(f"\nheld out {args.heldout} ({len(stems)} receipts), margins fitted above:\n")
        print("| field | base alone | chosen |")
        print("|---|---|---|")
        for field in FIELDS:
            alone = sum(score.field_hits(truths[s], bases.get(s, {})).get(field, False) for s in stems)
            print(f"| {field} | {alone} | {tally(stems, truths, bases, others, field, fitted[field])} |")


if __name__ == "__main__":
    main()
