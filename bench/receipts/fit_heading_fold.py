#!/usr/bin/env python3
"""Fits how `ItemHeading.isHeading` folds a row's words before it looks them up in
`ItemHeading.words`, a bench tool: whether a word splits at punctuation as well as at spaces
(`Artikel-Nr.` -> `artikel`, `nr`; `U.PRICE` -> `u`, `price`), and from what length a word one
edit from a heading word (an OCR misreading: `Arnount`, `Descripton`) counts as that word.

    fit_heading_fold.py [--sroie ../shared/data/receipts] [--records OCR.jsonl ...] [--renders DIR ...]

Training data only. Each source gives rows "above" (the rows right over the first priced row that
is no date row, where a heading stands) and "item" rows (priced rows below it, and the true item
descriptions of renders): the true lines of `sroie_dev` folds 0-3 (`folds.json`), the OCR rows
(`receipt.text`) of a run's records on SROIE folds 0-3 or on `--split train` renders, and the
printed lines of train renders (`family_lines.py`). For each fold it counts the rows that become
headings which the plain lookup (spaces, exact words) misses, above and among items. A fold is kept
when it adds no item row on any source: a description row taken for a heading costs the first
item its words, while a heading it misses is only sometimes taken.

It also prints, by their count of words with letters, the rows right over the first priced row
that are headings (as folded above) and have no digit: the rows a first amount row without words
of its own (`238 1 10.00 10.00`) would take as its description. `ItemHeading.columnWords` is the
fewest words from which every such row of the training sources is a column heading. Fitted
2026-11-27 (main 48d3d59) with `--records` on the cached OCR rows of SROIE folds 0-3 and of train
renders seeds 111 and 113, and the printed lines of train renders seeds 112 and 113: 3 words
still hold items (`DOLE PINEAPPLE PCS`, OCR's `SEAFOOD FRIED PRICE`), 2 words `NAME CARD`, `BILL
PAYMENT`, OCR's `Tel (B)`; from 4 words on all 119 rows are column headings (`ITEM QTY PRICE
AMOUNT`, OCR's `Iter Gty RSP Amount!`, `TTEH SESE QUY U.PRICE RHCTOTAL)`), read by eye (--show).
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import true_lines  # noqa: E402

AMOUNT = re.compile(r"\d[.,]\s?\d{2}\b")
DATE = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}")
TOTAL = re.compile(r"(?i)total|summe|totale|suma|totaal|sub-?tot")
SWIFT = os.path.join(HERE, "..", "..", "Sources", "SnapsortStages", "Receipts", "ItemHeading.swift")


def heading_words():
    source = open(SWIFT, encoding="utf-8").read()
    block = source[source.index("static let words"):]
    block = block[:block.index("]")]
    return set(re.findall(r'"([^"]+)"', block))


def tokens(text, punct):
    parts = re.split(r"[^\w]|[\d_]", text.lower()) if punct else text.lower().split(" ")
    return [w for w in ("".join(c for c in p if c.isalpha()) for p in parts) if w]


def within_one(a, b):
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = j = edits = 0
    while i < len(a) and j < len(b):
        if a[i] != b[j]:
            edits += 1
            if edits > 1:
                return False
            if len(a) == len(b):
                i += 1
            j += 1
        else:
            i += 1
            j += 1
    return edits + (len(b) - j) <= 1


def flagged(text, words, punct, shortest):
    if ":" in text:
        return True
    for t in tokens(text, punct):
        if t in words:
            return True
        if shortest and len(t) >= shortest and any(len(w) >= shortest and within_one(t, w) for w in words):
            return True
    return False


def split_rows(rows):
    """The rows over the first priced row that is no date row (3), and the priced rows below it to
    the first total row."""
    priced = [i for i, r in enumerate(rows) if AMOUNT.search(r) and not DATE.search(r)]
    if not priced:
        return [], []
    first = priced[0]
    end = next((i for i in range(first, len(rows)) if TOTAL.search(rows[i])), len(rows))
    return rows[max(0, first - 3):first], [r for r in rows[first:end] if re.search(r"[A-Za-z]{3}", r)]


def train_sroie(stem, folds):
    info = folds.get(stem)
    return info is not None and info["folder"] == "sroie_dev" and info["fold"] != 4


def sources(args):
    folds = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))["sroie"]
    root = os.path.join(args.sroie, "sroie_dev")
    rows = []
    for stem in sorted(folds):
        path = os.path.join(root, stem + ".lines.csv")
        if train_sroie(stem, folds) and os.path.exists(path):
            rows.append(split_rows(true_lines.read_rows(path)))
    yield "sroie true lines", rows
    for records in args.records:
        rows = []
        for line in open(records, encoding="utf-8"):
            record = json.loads(line)
            stem = os.path.splitext(os.path.basename(record["file"]))[0]
            if not (train_sroie(stem, folds) or "-train-" in stem):
                continue
            text = [t["text"] for t in (record.get("receipt") or {}).get("text") or []]
            rows.append(split_rows(text))
        yield f"OCR {os.path.basename(os.path.dirname(records)) or records}", rows
    for folder in args.renders:
        rows = []
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
                if truth.get("split") != "train":
                    sys.exit(f"train renders only: {name}")
                above, _ = split_rows(truth["lines"])
                rows.append((above, [i["description"] for i in truth["items"]]))
        yield f"renders {os.path.basename(folder.rstrip('/'))}", rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sroie", default=os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts"))
    parser.add_argument("--records", nargs="*", default=[])
    parser.add_argument("--renders", nargs="*", default=[])
    parser.add_argument("--show", action="store_true", help="print the rows each fold adds")
    args = parser.parse_args()
    words = heading_words()
    folds = [(punct, shortest) for punct in (False, True) for shortest in (0, 8, 7, 6, 5, 4)][1:]
    gains = {fold: [0, 0] for fold in folds}
    print(f"{'source':24} {'rows above/items':>16}  " + "  ".join(f"{'p' if p else 's'}{s or '-'}" for p, s in folds))
    for name, rows in sources(args):
        counts = []
        for fold in folds:
            added = [0, 0]
            for side in (0, 1):
                for receipt in rows:
                    for row in receipt[side]:
                        if flagged(row, words, *fold) and not flagged(row, words, False, 0):
                            added[side] += 1
                            if args.show:
                                print(f"  {fold} {'above' if side == 0 else 'item '} {row}")
            counts.append(added)
            gains[fold][0] += added[0]
            gains[fold][1] = max(gains[fold][1], added[1])
        above = sum(len(r[0]) for r in rows)
        items = sum(len(r[1]) for r in rows)
        print(f"{name:24} {above:>7}/{items:<8}  " + "  ".join(f"{a}/{i}" for a, i in counts))
    column_rows(args, words, best_fold(folds, gains))


def best_fold(folds, gains):
    kept = [fold for fold in folds if gains[fold][1] == 0]
    best = max(kept, key=lambda fold: gains[fold][0], default=None)
    print("kept (no item row added on any source):", kept, "chosen:", best)
    return best or (False, 0)


def column_rows(args, words, fold):
    """The digit-free heading rows right over the first priced row, by their count of words."""
    by_count = collections.defaultdict(list)
    for _, rows in sources(args):
        for above, _ in rows:
            for row in above[-1:]:
                if ":" not in row and not re.search(r"\d", row) and flagged(row, words, *fold):
                    by_count[len([w for w in row.split() if re.search(r"[^\W\d_]", w)])].append(row.strip())
    for count, rows in sorted(by_count.items()):
        shown = rows if count < 4 or args.show else rows[:3]
        print(f"{count} words: {len(rows):4} rows  " + " | ".join(shown))


if __name__ == "__main__":
    main()
