#!/usr/bin/env python3
"""The real receipts whose total a run got wrong, by cause (a bench tool, never the product).

    total_misses.py RECORDS.jsonl [MORE ...] --evidence EVIDENCE.jsonl [--fold K | --train K]
                    [--data ../shared/data/receipts] [--show]

RECORDS: a receipts-preset run's records (the OCR rows, `receipt.text`, and the total chosen);
EVIDENCE: `snapsort receipt-text --records RECORDS.jsonl --total-candidates` over the same records.
Each wrong total is put in one of:
  no total       the run gave none;
  not chosen     the labelled total is among the candidates (`fit_total.py`'s answer), another won;
  rounding       not a candidate, but the chosen total and the answer are the same to within 10 cents
                 and a row names a rounding (a total before rounding, the rounded one misread);
  misread        not a candidate, the chosen total is within one digit of the answer (same length,
                 one digit differs: the confusion is counted, `6 for 0`);
  elsewhere      not a candidate otherwise.
`--fold K` only fold K of folds.json, `--train K` all SROIE folds but K (the default: all SROIE);
`--show` prints each miss with the rows that name a total, a rounding or a payment;
`--detail EXTRACTED.jsonl` splits `not chosen` by what speaks for the answer among its candidates
(EXTRACTED: `snapsort receipt-text --records RECORDS.jsonl --json`, the extractor again on the
same rows without the stage's re-reading of the total's line):
  reread         the extractor alone chose the answer; the total line's re-reading replaced it;
  arithmetic     the page's own sums make the answer (cash less change, subtotal with tax or
                 savings, the items' sum, the VAT table's gross, a payment of it), another won;
  label garbled  no total label on the answer's row or beside it (OCR lost the word), no sum;
  outweighed     the answer has a total label, another labelled amount won;
`--payments` counts, over the same receipts, how often the chosen total is right where cash given
less change returned (the evidence's `cash_change` amount) makes it, and which of the two is right
where they differ (why `ReceiptExtractor.paymentsConfirm` only confirms a total, never picks one).
"""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount, stem  # noqa: E402

KEY_ROW = re.compile(r"(?i)total|round|cash|change|amount|payable|nett?\b|jumlah|summe|betrag")


def load(paths):
    out = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            out[stem(r["file"])] = r
    return out


def digit_confusion(chosen, want):
    """`6 for 0` when the two amounts differ in exactly one digit, else None."""
    a, b = f"{chosen:d}", f"{want:d}"
    if len(a) != len(b):
        return None
    diffs = [(x, y) for x, y in zip(a, b) if x != y]
    return f"{diffs[0][0]} for {diffs[0][1]}" if len(diffs) == 1 else None


def cause(record, evidence, want):
    receipt = record.get("receipt") or {}
    chosen = amount(receipt.get("total"))
    if chosen is None:
        return "no total", None
    if any(amount(c["value"]) == want for c in evidence.get("candidates", [])):
        return "not chosen", None
    rounding = any(re.search(r"(?i)round", row["text"]) for row in receipt.get("text") or [])
    if rounding and abs(chosen - want) <= 10:
        return "rounding", None
    confusion = digit_confusion(chosen, want)
    return ("misread", confusion) if confusion else ("elsewhere", None)


SUMS = ["cash_change", "arithmetic", "items_sum", "vat_gross", "payment"]
LABELS = ["total_label", "label_above", "label_below"]


def detail(evidence, extracted, want):
    """The `not chosen` miss's sub-cause (see the docstring)."""
    if extracted is not None and amount((extracted.get("receipt") or {}).get("total")) == want:
        return "not chosen: reread"
    answer = next(c["features"] for c in evidence.get("candidates", []) if amount(c["value"]) == want)
    if any(answer.get(n, 0) > 0 for n in SUMS):
        return "not chosen: arithmetic"
    if not any(answer.get(n, 0) > 0 for n in LABELS):
        return "not chosen: label garbled"
    return "not chosen: outweighed"


def main(argv):
    paths, evidence_paths, fold, train, show, payments, i = [], [], None, None, False, None, 0
    extracted = None
    here = os.path.dirname(os.path.abspath(__file__))
    data = os.path.join(here, "..", "..", "..", "shared", "data", "receipts")
    while i < len(argv):
        a = argv[i]
        if a in ("--evidence", "--fold", "--train", "--data", "--detail"):
            value, i = argv[i + 1], i + 1
            if a == "--detail":
                extracted = load([value])
            elif a == "--evidence":
                evidence_paths.append(value)
            elif a == "--data":
                data = value
            elif a == "--fold":
                fold = int(value)
            else:
                train = int(value)
        elif a == "--show":
            show = True
        elif a == "--payments":
            payments = collections.Counter()
        else:
            paths.append(a)
        i += 1
    split = json.load(open(os.path.join(here, "folds.json"), encoding="utf-8"))["sroie"]
    records, evidence = load(paths), load(evidence_paths)
    causes, confusions, scored, right = collections.Counter(), collections.Counter(), 0, 0
    for s, info in sorted(split.items()):
        if s not in records or (fold is not None and info["fold"] != fold) or info["fold"] == train:
            continue
        want = amount(json.load(open(os.path.join(data, info["folder"], s + ".json"), encoding="utf-8"))["total"])
        if want is None:
            continue
        scored += 1
        receipt = records[s].get("receipt") or {}
        if payments is not None:
            payments[paid_agreement(evidence.get(s, {}), amount(receipt.get("total")), want)] += 1
        if amount(receipt.get("total")) == want:
            right += 1
            continue
        kind, confusion = cause(records[s], evidence.get(s, {}), want)
        if kind == "not chosen" and extracted is not None:
            kind = detail(evidence.get(s, {}), extracted.get(s), want)
        causes[kind] += 1
        if confusion:
            confusions[confusion] += 1
        if show:
            print(f"{s} ({kind}): label {want / 100:.2f}, chosen {receipt.get('total')}")
            for row in receipt.get("text") or []:
                if KEY_ROW.search(row["text"]):
                    print(f"      {row['confidence']:5.1f} {row['text']}")
    print(f"total right {right}/{scored}; wrong by cause: " + ", ".join(f"{k} {v}" for k, v in causes.most_common()))
    if confusions:
        print("one-digit confusions (read for label): " + ", ".join(f"{k} {v}" for k, v in confusions.most_common()))
    if payments:
        payments.pop(None, None)
        print("cash less change against the chosen total: " + ", ".join(f"{k} {v}" for k, v in sorted(payments.items())))


def paid_agreement(evidence, chosen, want):
    """How cash less change stands to the chosen total: `equal, right` / `equal, wrong`, or which
    is right where they differ; None without both."""
    paid = [amount(c["value"]) for c in evidence.get("candidates", []) if c["features"].get("cash_change")]
    if not paid or chosen is None:
        return None
    if paid[0] == chosen:
        return "equal, right" if chosen == want else "equal, wrong"
    return "differ, paid right" if paid[0] == want else "differ, chosen right" if chosen == want else "differ, neither"


if __name__ == "__main__":
    main(sys.argv[1:])
