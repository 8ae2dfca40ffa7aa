#!/usr/bin/env python3
"""Why the items and totals a run missed on rendered training receipts were missed, from the OCR
side (a bench tool, never the product). For each missed item (`rendered_errors.causes`) and each
wrong total, the printed row that carries the amount is looked up in the render's own `lines`, and
the run's OCR rows are searched for it:

* `amount read`: some OCR row holds the amount's digits (the extractor did not make the item);
* `amount misread`: an OCR row reads like the printed row (difflib ratio >= 0.5 on letters and
  digits) but not its amount: the row is there, its digits are not (the confusion is printed);
* `left cut`: as misread, but the OCR row matches only the printed row's right part: the row's
  start is missing (the page crop or the reading lost the left edge);
* `row lost`: no OCR row reads like the printed row.

    ocr_loss.py DIR RUN.jsonl [--show CAUSE] [--by capture|layout_family|font]

Refuses held-out renders, as rendered_errors.py does.
"""
import argparse
import collections
import difflib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rendered_errors import causes, read_records  # noqa: E402
from score import amount, read_predictions  # noqa: E402


def digits(text):
    return re.sub(r"[^0-9]", "", text or "")


def squash(text):
    return re.sub(r"[^0-9a-z]", "", (text or "").lower())


def printed_row(lines, value, description=None):
    """The printed line carrying amount `value` (and the description's row, when it is on it)."""
    want = str(amount(value))
    rows = [ln for ln in lines if want and re.search(r"(?<!\d)" + re.escape(want) + r"(?!\d)", digits_spaced(ln))]
    if description:
        named = [ln for ln in rows if squash(description)[:6] in squash(ln)]
        rows = named or rows
    return rows[0] if rows else None


def digits_spaced(line):
    """The line's digit runs with the separators inside numbers dropped (`1.234,50` → `123450`)."""
    return re.sub(r"(?<=\d)[.,' ](?=\d)", "", line)


def classify(row, value, ocr_rows):
    want = str(amount(value))
    for r in ocr_rows:
        if re.search(r"(?<!\d)" + re.escape(want) + r"(?!\d)", digits_spaced(r)):
            return "amount read", r
    if row is None:
        return "not printed", None
    target = squash(row)
    best, best_ratio = None, 0.0
    for r in ocr_rows:
        q = difflib.SequenceMatcher(None, target, squash(r)).ratio()
        if q > best_ratio:
            best, best_ratio = r, q
    if best_ratio >= 0.5:
        left, right = target[: len(target) // 2], target[len(target) // 2 :]
        s = squash(best)
        if difflib.SequenceMatcher(None, right, s[-len(right) :]).ratio() >= 0.6 and (
            difflib.SequenceMatcher(None, left, s[: len(left)]).ratio() < 0.4
        ):
            return "left cut", best
        return "amount misread", best
    return "row lost", best


def train_renders(folder, verb):
    """(stem, truth) of each render in `folder`; exits on a held-out one."""
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        if truth.get("split") != "train":
            sys.exit(f"{name} is a {truth.get('split')} render: only --split train renders are {verb}")
        yield name[:-5], truth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("run")
    ap.add_argument("--show", help="print the printed and OCR rows of this cause")
    ap.add_argument("--by", default="capture")
    args = ap.parse_args()
    preds = read_predictions([args.run])
    records = read_records(args.run)
    counts, by = collections.Counter(), collections.Counter()
    for stem, truth in train_renders(args.folder, "classified"):
        pred = preds.get(stem, {})
        ocr = [row["text"] for row in ((records.get(stem) or {}).get("receipt") or {}).get("text") or []]
        misses = [("item", e) for cause, e, _ in causes(truth["items"], pred.get("items")) if cause == "amount missing"]
        if amount(truth["total"]) != amount(pred.get("total")):
            misses.append(("total", {"amount": truth["total"], "description": None}))
        for what, e in misses:
            row = printed_row(truth["lines"], e["amount"], e["description"])
            cause, seen = classify(row, e["amount"], ocr)
            counts[(what, cause)] += 1
            by[(what, truth[args.by], cause)] += 1
            if args.show == cause:
                print(f"{stem} {truth['capture']:15} {what:5} printed {row!r}\n{'':40} read    {seen!r}")
    for key, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{key[0]:5} {key[1]:15} {n}")
    print(f"by {args.by}:")
    for key, n in sorted(by.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"  {key[0]:5} {key[1]:20} {key[2]:15} {n}")


if __name__ == "__main__":
    main()
