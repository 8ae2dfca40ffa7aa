#!/usr/bin/env python3
"""Fits how much a receipt's country and language weigh against its currency marks (issue #27 item 3).

    snapsort receipt-text --records RECORDS.jsonl --currency-evidence > EVIDENCE.jsonl
    fit_currency.py --train EVIDENCE.jsonl [...] [--test EVIDENCE.jsonl ...]

Each evidence line (one receipt) holds its marks' weights per currency (`marks`, and `dollar` for
the `$` sign), the kinds of evidence of a country per currency (`country`) and its language's
currency (`language`) with the number of lines its own words label (`language_lines`);
`CurrencyEvidence` in Sources/SnapsortStages/Receipts/CurrencyEvidence.swift
makes the same choice as `choose` here. Truth: a file named `sroie_*` is Malaysian (MYR), one
named `rcpt-<split>-<seed>-<n>` is a render whose truth .json names its currency (found under
--renders), anything else is German (EUR; the softmatic_de set).

The grid's choice: most receipts right on the training files, then fewest wrong (a wrong currency
is worse than none), then the weights nearest 1 (a kind of evidence counts as much as a mark),
then the most lines a language needs; of equal scores the currency with more of a country's
evidence wins. Pass only training files to --train (SROIE folds 0-3 per
bench/receipts/folds.json, train renders); --test reports the held-out files.
"""
import argparse, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
COUNTRY = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
LANGUAGE = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0)
LANGUAGE_LINES = (1, 2, 3)


def truth(name, renders):
    base = os.path.basename(name)
    if base.startswith("sroie"):
        return "MYR"
    if base.startswith("rcpt-"):
        split = base.split("-")[1]
        with open(os.path.join(renders[split], os.path.splitext(base)[0] + ".json")) as f:
            return json.load(f)["currency"]
    return "EUR"


def choose(e, country_weight, language_weight, language_lines):
    scores = dict(e.get("marks", {}))
    country = e.get("country", {})
    if e.get("dollar", 0) > 0:
        dollar = max(sorted(country), key=lambda c: country[c]) if country else "USD"
        scores[dollar] = scores.get(dollar, 0) + e["dollar"]
    for currency, kinds in country.items():
        scores[currency] = scores.get(currency, 0) + country_weight * kinds
    if e.get("language") and e.get("language_lines", 0) >= language_lines:
        scores[e["language"]] = scores.get(e["language"], 0) + language_weight
    if not scores:
        return None
    best = max(sorted(scores), key=lambda c: (scores[c], country.get(c, 0)))
    return best if scores[best] > 0 else None


def score(rows, cw, lw, ll):
    right = wrong = 0
    for e, t in rows:
        got = choose(e, cw, lw, ll)
        right += got == t
        wrong += got is not None and got != t
    return right, wrong


def load(paths, renders):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                e = json.loads(line)
                rows.append((e, truth(e["file"], renders)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--test", nargs="*", default=[])
    ap.add_argument("--renders", default=os.path.join(HERE, "..", "work", "kind"),
                    help="folder holding receipts-train/ and receipts-heldout/ renders with their truth")
    args = ap.parse_args()
    renders = {"train": os.path.join(args.renders, "receipts-train"), "heldout": os.path.join(args.renders, "receipts-heldout")}
    train = load(args.train, renders)
    grid = [(cw, lw, ll) + score(train, cw, lw, ll) for cw in COUNTRY for lw in LANGUAGE for ll in LANGUAGE_LINES]
    cw, lw, ll, right, wrong = max(grid, key=lambda g: (g[3], -g[4], -abs(g[0] - 1) - abs(g[1] - 1), g[2]))
    print("train: %d receipts; chosen country %.2f, language %.2f from %d lines: %d right, %d wrong, %d none" % (
        len(train), cw, lw, ll, right, wrong, len(train) - right - wrong))
    for path in args.test:
        rows = load([path], renders)
        r, w = score(rows, cw, lw, ll)
        print("test %s: %d receipts, %d right (%.1f %%), %d wrong, %d none" % (path, len(rows), r, 100 * r / max(1, len(rows)), w, len(rows) - r - w))


if __name__ == "__main__":
    main()
