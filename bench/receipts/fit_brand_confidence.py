#!/usr/bin/env python3
"""Fits the OCR confidence below which a catalog brand read in a receipt's header row is not taken
as the merchant (`ReceiptExtractor.brandMinimumConfidence`; issue #23 item 4 / #27: a junk row
over a wide-margin scan's blank page, `i ica`, read as the Swedish brand ICA at 15 %).

    fit_brand_confidence.py EVIDENCE.jsonl [MORE ...]

The evidence is `snapsort receipt-text --records --merchant-candidates --merchant-rules` over a
run's records (training receipts only: SROIE folds 0-3 of folds.json as scanned and on a wide
page, the train renders): each receipt where the rules named a catalog brand gives the brand row's
confidence (the single-row candidate spelling the rules' name, else the least confident single
row with the `brand` feature) and whether the brand is the labelled merchant (score.py's rule).
The threshold keeps the most right brands and drops the most wrong ones (right kept plus wrong
dropped); among equal thresholds the middle of the widest gap is taken. Prints the rows and it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDS = json.load(open(os.path.join(HERE, "folds.json")))
RENDERS = os.environ.get("RENDERS", "/work/main/bench/work/kind/receipts-train")


def truth(stem):
    """The labelled merchant of a training receipt; None for a held-out or unknown one."""
    info = FOLDS["sroie"].get(stem)
    if info:
        if info["fold"] == 4:
            return None
        return json.load(open(f"../shared/data/receipts/{info['folder']}/{stem}.json"))["merchant"]
    path = os.path.join(RENDERS, stem + ".json")
    if "-train-" in stem and os.path.exists(path):
        return json.load(open(path))["merchant"]
    return None


def brand_rows(paths):
    """(confidence, right, stem, name) of each receipt whose rules named a catalog brand."""
    squeeze = lambda s: score.fold(s).replace(" ", "")  # noqa: E731
    rows = []
    for path in paths:
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            stem = score.stem(r["file"])
            label = truth(stem)
            if not r.get("rules_brand") or label is None:
                continue
            single = [c for c in r["candidates"] if not c["features"].get("joined")]
            same = [c for c in single if squeeze(c["value"]) == squeeze(r["rules"])]
            pool = same or [c for c in single if c["features"].get("brand")]
            if not pool:
                continue
            confidence = min(c["features"].get("confidence", 0) for c in pool)
            rows.append((confidence, score.merchant_ok(label, r["rules"]), stem, r["rules"]))
    return rows


def threshold(rows):
    """The confidence (0-100) that keeps right brands and drops wrong ones best."""
    cuts = sorted({0.0, 1.01} | {c for c, _, _, _ in rows})
    scored = []
    for low, high in zip(cuts, cuts[1:]):
        cut = (low + high) / 2
        gain = sum(1 for c, ok, _, _ in rows if (c >= cut) == ok)
        scored.append((gain, high - low, cut))
    best = max(g for g, _, _ in scored)
    _, _, cut = max(s for s in scored if s[0] == best)
    return round(cut * 100), best


def main():
    rows = brand_rows(sys.argv[1:])
    for c, ok, stem, name in sorted(rows):
        print(f"{c:.2f} {'right' if ok else 'wrong'} {stem} {name!r}")
    cut, best = threshold(rows)
    print(f"{len(rows)} brand picks; threshold {cut} keeps or drops {best} of them as their label says")


if __name__ == "__main__":
    main()
