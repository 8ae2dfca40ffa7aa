#!/usr/bin/env python3
"""Fits `ItemAssembly.continuationIndent` (a bench tool, never the product): how far right of the
row above it, in line heights, an OCR row starts when its printed line is indented by one to three
characters more (a description's further row, `Jogurt natur` / `  owocowy`), told from rows printed
at the same column (the next item's first row) and from rows indented further (a quantity row, a
centred header line).

    fit_indent.py RENDERS RECORDS.jsonl [RENDERS RECORDS.jsonl ...]

RENDERS is a folder of `bench/gen/receipts.py --split train` renders (NAME.json with the printed
`lines`), RECORDS.jsonl a `snapsort run` of them. Each OCR row (`receipt.text`) is matched to the
printed line it reads (difflib ratio 0.8 or more, the best one only); two rows one under the other
whose printed lines are one under the other give a pair: the printed lines' column difference and
the rows' left-edge difference over the page's median row height, as `ReceiptExtractor.lines`
measures it. The lower bound is the cut with fewest errors between pairs at the same column and
pairs one to three columns right; the upper bound between those and pairs four to eight right.
"""
import difflib
import json
import os
import statistics
import sys

NEAR, FAR = range(1, 4), range(4, 9)


def pairs(renders, records):
    """(printed column difference, measured left-edge difference in line heights) of adjacent rows."""
    found = []
    for line in open(records, encoding="utf-8"):
        record = json.loads(line) if line.strip() else {}
        rows = (record.get("receipt") or {}).get("text") or []
        stem = os.path.splitext(os.path.basename(record.get("file", "")))[0]
        truth_path = os.path.join(renders, stem + ".json")
        if not rows or not os.path.exists(truth_path):
            continue
        printed = json.load(open(truth_path, encoding="utf-8"))["lines"]
        heights = sorted(row["box"][3] for row in rows if row["box"][3] > 0)
        height = heights[len(heights) // 2] if heights else 1
        matched = [match(row["text"], printed) for row in rows]
        for upper, lower, row_upper, row_lower in zip(matched, matched[1:], rows, rows[1:]):
            # A row at the page's edge has no left edge of its own (ReceiptExtractor.lines).
            if upper is None or lower is None or lower != upper + 1 or min(row_upper["box"][0], row_lower["box"][0]) <= 0:
                continue
            column = indent(printed[lower]) - indent(printed[upper])
            found.append((column, (row_lower["box"][0] - row_upper["box"][0]) / height))
    return found


def indent(line):
    return len(line) - len(line.lstrip())


def match(text, printed):
    """The index of the printed line `text` reads, or None."""
    folded = " ".join(text.split()).lower()
    scores = [difflib.SequenceMatcher(None, folded, " ".join(line.split()).lower()).ratio() for line in printed]
    best = max(range(len(printed)), key=scores.__getitem__, default=None)
    if best is None or scores[best] < 0.8 or scores.count(scores[best]) > 1:
        return None
    return best


def cut(below, above):
    """The threshold with fewest of `below` at or over it plus `above` under it."""
    candidates = sorted(set(round(value, 2) for value in below + above))
    best = min(candidates, key=lambda t: sum(v >= t for v in below) + sum(v < t for v in above))
    errors = sum(v >= best for v in below) + sum(v < best for v in above)
    return best, errors


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    found = []
    for renders, records in zip(args[::2], args[1::2]):
        found += pairs(renders, records)
    print("| column difference | pairs | median | 5th pct | 95th pct |\n|---|---|---|---|---|")
    for column in range(-2, 9):
        values = sorted(value for c, value in found if c == column)
        if values:
            p5, p95 = values[int(0.05 * (len(values) - 1))], values[int(0.95 * (len(values) - 1))]
            print(f"| {column} | {len(values)} | {statistics.median(values):.2f} | {p5:.2f} | {p95:.2f} |")
    same = [value for c, value in found if c == 0]
    near = [value for c, value in found if c in NEAR]
    far = [value for c, value in found if c in FAR]
    low, low_errors = cut(same, near)
    high, high_errors = cut(near, far)
    print(f"\nlower bound {low} ({low_errors} of {len(same) + len(near)} pairs on the wrong side)")
    print(f"upper bound {high} ({high_errors} of {len(near) + len(far)} pairs on the wrong side)")


if __name__ == "__main__":
    main()
