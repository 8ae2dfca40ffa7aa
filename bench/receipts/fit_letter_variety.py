#!/usr/bin/env python3
"""Fits `ItemAssembly.letterVariety` on rendered training receipts (a bench tool, never the
product): the share of distinct letters below which a row of words is a rule or a barcode read as
letters (`SSS eeeeS SSeS`, `Se eS en le ee a`) rather than part of an item's description.

    fit_letter_variety.py DIR RECORDS.jsonl

DIR holds bench/gen/receipts.py's `--split train` renders (NAME.json, with the printed lines);
RECORDS is a snapsort run over them (its OCR rows, `receipt.text`). Every OCR row that could be a
description row (no amount, at least three letters) is labelled by the printed text: "printed"
when difflib's ratio to some printed line of its receipt is >= 0.6, else "junk". The threshold is
the variety (distinct letters / letters, case-folded) that keeps the most printed rows while
dropping junk, maximising printed kept + junk dropped; ties go to the lower threshold. Held-out
renders are refused.
"""
import difflib
import json
import os
import re
import sys

AMOUNT = re.compile(r"\d[.,]\s?\d{2}(?!\d)")


def variety(text):
    letters = [c for c in text.lower() if c.isalpha()]
    return len(set(letters)) / len(letters) if letters else 0.0


def rows(folder, records):
    out = []
    for line in open(records, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        stem = os.path.splitext(os.path.basename(r["file"]))[0]
        truth = json.load(open(os.path.join(folder, stem + ".json"), encoding="utf-8"))
        if truth.get("split") != "train":
            sys.exit(f"{stem} is a {truth.get('split')} render: fit on --split train renders only")
        printed = [" ".join(p.split()) for p in truth["lines"] if p.strip()]
        for row in (r.get("receipt") or {}).get("text") or []:
            text = " ".join(row["text"].split())
            if AMOUNT.search(text) or sum(c.isalpha() for c in text) < 3:
                continue
            best = max((difflib.SequenceMatcher(None, text.lower(), p.lower()).ratio() for p in printed), default=0)
            out.append((variety(text), best >= 0.6, text))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    labelled = rows(sys.argv[1], sys.argv[2])
    printed = sum(1 for _, ok, _ in labelled if ok)
    junk = len(labelled) - printed
    best = None
    for step in range(0, 81):
        threshold = step / 100
        kept = sum(1 for v, ok, _ in labelled if ok and v >= threshold)
        dropped = sum(1 for v, ok, _ in labelled if not ok and v < threshold)
        if best is None or kept + dropped > best[1] + best[2]:
            best = (threshold, kept, dropped)
    threshold, kept, dropped = best
    print(f"rows: {printed} printed, {junk} junk")
    print(f"letterVariety = {threshold:.2f}: printed kept {kept}/{printed}, junk dropped {dropped}/{junk}")
    for v, ok, text in sorted(labelled):
        if (ok and v < threshold) or (not ok and v >= threshold and v < threshold + 0.1):
            print(f"  {'printed' if ok else 'junk':7} {v:.2f} {text!r}")


if __name__ == "__main__":
    main()
