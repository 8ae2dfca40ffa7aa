#!/usr/bin/env python3
"""A run's merchant misses on the TRAINING receipts (SROIE folds 0-3 of folds.json) by cause
(issue #23, #27): which line the extractor took instead, or how the right line came out.

    merchant_misses.py RUN.jsonl [MORE ...] [--label L] [--show] [--evidence EV.jsonl ...]
                       [--data ../shared/data/receipts] [--folds bench/receipts/folds.json]

RUN.jsonl: records of a receipts-preset run, or `snapsort receipt-text --json` over records
(`--records`) or over the dataset's own lines (sroie_dev's .lines.csv: the extractor's ceiling).
A `~margins` variant (bench/kind/augment.py) is scored as its source. Fold 4 and the German 14
are refused (skipped and counted): they are held out.

Each miss gets one cause, from the rows read (`receipt.text`) and the label:
  none given      the run gave no merchant;
  cut or joined   the answer and the label share one line: the answer holds the label and more
                  (a second row or a date joined on) or a part of it (the name cut);
  right line misread  the answer is the label's line (ratio >= 0.5) read too far from it (< 0.8);
  another line    some other line taken: by what that line is, from the merchant model's
                  features of the pick when `--evidence` (receipt-text --merchant-candidates)
                  is given: `address` (a street, area or place line, or an address below it is
                  missing because it is one), `title` (a line the extractor marks no name:
                  TAX INVOICE, RECEIPT), `garble` (letters under 60 % or vowels under 15 %),
                  `other` (a tagline, a customer's name, a branch); split by whether the label's
                  line was read well enough to match (`label read`) or not (`label lost`).
"""
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold, merchant_ok  # noqa: E402


def stem(file):
    base = os.path.basename(file)
    for suffix in (".lines.csv", ".lines.json", ".jpg", ".png", ".txt"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    return base.split("~")[0]


def squeeze(text):
    return fold(text or "").replace(" ", "")


def ratio(a, b):
    return difflib.SequenceMatcher(None, squeeze(a), squeeze(b)).ratio()


def rows_of(receipt):
    text = receipt.get("text") or []
    return [r["text"] if isinstance(r, dict) else str(r) for r in text]


def pick_kind(features):
    """What the line taken instead is, from the model's own features of it."""
    if features is None:
        return "other"
    if features.get("not_name", 0) > 0:
        return "title"
    if features.get("place", 0) > 0 or features.get("address", 0) > 0:
        return "address"
    if features.get("letters", 1) < 0.6 or features.get("vowels", 1) < 0.15:
        return "garble"
    return "other"


def cause(label, answer, rows, features):
    if not answer:
        return "none given"
    e, p = squeeze(label), squeeze(answer)
    if e and p and (e in p or p in e) or ratio(label, answer) >= 0.8 and not merchant_ok(label, answer):
        return "cut or joined"
    best = max((ratio(label, r) for r in rows), default=0.0)
    joined = max((ratio(label, a + " " + b) for a, b in zip(rows, rows[1:])), default=0.0)
    read = max(best, joined) >= 0.8
    if ratio(label, answer) >= 0.5:
        # A part of the label inside a longer answer, or the answer a part of it, counts as cut.
        if len(p) > 1.3 * len(e) or len(p) < 0.7 * len(e):
            return "cut or joined"
        return "right line misread"
    return f"another line: {pick_kind(features)} ({'label read' if read else 'label lost'})"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    data = os.path.join(here, "..", "..", "..", "shared", "data", "receipts")
    folds_path = os.path.join(here, "folds.json")
    runs, evidence, label, show, mode, i = [], [], None, False, "runs", 0
    while i < len(argv):
        a = argv[i]
        if a == "--label":
            label, i = argv[i + 1], i + 1
        elif a == "--data":
            data, i = argv[i + 1], i + 1
        elif a == "--folds":
            folds_path, i = argv[i + 1], i + 1
        elif a == "--show":
            show = True
        elif a == "--evidence":
            mode = "evidence"
        else:
            (evidence if mode == "evidence" else runs).append(a)
        i += 1
    split = json.load(open(folds_path, encoding="utf-8"))
    train = {s: v for s, v in split["sroie"].items() if v["fold"] in (0, 1, 2, 3)}
    ev = {}
    for path in evidence:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                ev[(stem(r["file"]), "~" in os.path.basename(r["file"]))] = r
    counts, refused, total, right, shown = {}, 0, 0, 0, []
    for path in runs:
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            s = stem(r["file"])
            if s not in train:
                refused += 1
                continue
            truth = json.load(open(os.path.join(data, train[s]["folder"], s + ".json"), encoding="utf-8"))
            receipt = r.get("receipt") or {}
            answer, expected = receipt.get("merchant"), truth.get("merchant")
            total += 1
            if merchant_ok(expected, answer):
                right += 1
                continue
            e = ev.get((s, "~" in os.path.basename(r["file"])))
            feats = None
            if e and answer:
                feats = next((c["features"] for c in e["candidates"] if squeeze(c["value"]) == squeeze(answer)), None)
            c = cause(expected, answer, rows_of(receipt), feats)
            counts[c] = counts.get(c, 0) + 1
            shown.append((c, s, expected, answer))
    print(f"### {label or ', '.join(runs)}\n")
    print(f"training receipts {total} (held out refused: {refused}); merchant right {right}, missed {total - right}\n")
    print("| cause | misses |\n|---|---|")
    for c, n in sorted(counts.items(), key=lambda t: -t[1]):
        print(f"| {c} | {n} |")
    if show:
        print()
        for c, s, expected, answer in sorted(shown):
            print(f"- {c}: {s}: label {expected!r}, answer {answer!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
