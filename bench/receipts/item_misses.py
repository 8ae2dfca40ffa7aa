#!/usr/bin/env python3
"""The items a run missed on rendered training receipts, by cause, OCR and extractor together (a
bench tool, never the product). For each expected item no predicted one matches (score_rendered's
rule), the first cause that applies:

* `row lost`: no OCR row reads like the printed row that carries the amount (`ocr_loss.classify`);
* `price misread`: the row is there but not its amount's digits (misread, or its left part cut);
* `name merged` / `name split` / `name misread`: an item has the amount, but its description holds
  the expected one and more (rows of a neighbour joined), or is a part of it (rows lost or given to
  another item), or neither;
* the amount's digits are on an OCR row, no item has it:
  `above the list` (the row stands over every row an item was read from: taken as header),
  `below the list` (under all of them: the list ended before it, taken as totals),
  `quantity row` (inside the list, the printed row is a `2 x 1.99` row or the item's quantity is
  not 1), `in the list` (any other row inside the list: not priced, or its price taken elsewhere).

Spurious items (nothing expected matches) are counted apart. `--show CAUSE` prints each miss of
that cause with its printed row and the OCR row it was found on.

    item_misses.py DIR RUN.jsonl [--show CAUSE] [--by layout_family|capture|font]

Refuses held-out renders, as rendered_errors.py does.
"""
import argparse
import collections
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ocr_loss import classify, digits_spaced, printed_row, squash, train_renders  # noqa: E402
from rendered_errors import causes, read_records  # noqa: E402
from score import amount, read_predictions  # noqa: E402

QUANTITY_ROW = re.compile(r"\d\s*(?:[a-zA-Z.]{1,4}\s*)?[xX×*@]\s*-?\d{1,5}[.,]\s?\d{2}")


def holds(row, value):
    want = str(amount(value))
    return bool(want) and re.search(r"(?<!\d)" + re.escape(want) + r"(?!\d)", digits_spaced(row)) is not None


def name_cause(expected, got):
    e, g = squash(expected), squash(got)
    if e and e in g or difflib.SequenceMatcher(None, e, g[: len(e)]).ratio() >= 0.8 and len(g) > len(e) + 3:
        return "name merged"
    if g and g in e or len(g) + 3 < len(e) and difflib.SequenceMatcher(None, g, e[: len(g)]).ratio() >= 0.8:
        return "name split"
    return "name misread"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("run")
    ap.add_argument("--show")
    ap.add_argument("--by", default="layout_family")
    args = ap.parse_args()
    preds = read_predictions([args.run])
    records = read_records(args.run)
    counts, by = collections.Counter(), collections.Counter()
    expected_total = 0
    for stem, truth in train_renders(args.folder, "classified"):
        if stem not in records:
            continue  # not in this run (a partial run is classified on what it read)
        pred = preds.get(stem, {})
        predicted = pred.get("items") or []
        expected_total += len(truth["items"])
        ocr = [row["text"] for row in ((records.get(stem) or {}).get("receipt") or {}).get("text") or []]
        # The OCR rows items were read from, as far as their amounts tell.
        item_rows = [i for i, r in enumerate(ocr) if any(holds(r, p.get("amount")) for p in predicted)]
        for cause, e, p in causes(truth["items"], predicted):
            if cause == "spurious":
                counts["spurious"] += 1
                continue
            row = printed_row(truth["lines"], e["amount"], e["description"])
            if p is not None:
                why, seen = name_cause(e["description"], p.get("description") or ""), p.get("description")
            else:
                read, seen = classify(row, e["amount"], ocr)
                if read != "amount read":
                    why = "row lost" if read == "row lost" else "price misread"
                else:
                    at = next(i for i, r in enumerate(ocr) if holds(r, e["amount"]))
                    if not item_rows or at < min(item_rows):
                        why = "above the list"
                    elif at > max(item_rows):
                        why = "below the list"
                    elif QUANTITY_ROW.search(row or "") or str(e.get("quantity")) not in ("1", "1.0", "None"):
                        why = "quantity row"
                    else:
                        why = "in the list"
            counts[why] += 1
            by[(truth[args.by], why)] += 1
            if args.show == why:
                print(f"{stem} {truth['layout_family']:14} {truth['capture']:14} expected {e['description']!r} {e['amount']}")
                print(f"{'':50} printed {row!r}\n{'':50} got     {seen!r}")
    missed = sum(n for k, n in counts.items() if k != "spurious")
    print(f"receipts {sum(1 for s in records)}, expected items {expected_total}, missed {missed}, spurious {counts['spurious']}")
    for key, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {key:15} {n}")
    print(f"by {args.by}:")
    for key, n in sorted(by.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"  {key[0]:20} {key[1]:15} {n}")


if __name__ == "__main__":
    main()
