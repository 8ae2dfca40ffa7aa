#!/usr/bin/env python3
"""Tries features for the receipt stage's total model before any Swift is written (a bench tool,
never the product): each is computed from the evidence snapsort dumps (and the OCR rows), added
to fit_total.py's features, and scored by leave-one-fold-out inside folds 0-3 only. Fold 4 and
the German 14 are never scored here: they stay held out for the change that survives.

    total_features.py --ocr EVIDENCE.jsonl [MORE ...] --true EVIDENCE.jsonl [MORE ...]
                      [--rendered DIR EVIDENCE.jsonl ...] [--rows RECORDS.jsonl ...]
                      [--data ../shared/data/receipts] [--explain RESULTS.jsonl ...] [--fill]

Inputs as fit_total.py's. --rows: the receipts-preset records the OCR evidence was dumped from
(their `receipt.text` rows give the label-similarity feature its text; readings without rows get
0). Printed: total right by leave-one-fold-out on folds 0-3 (OCR rows + true lines + renders, and
per kind) for the bundled feature set and with each tried feature added, the best L2 and margin of
a small grid (fit_total.py's grid is wider: compare rows of this table with one another only).
--explain RESULTS: the training readings whose total a run (`receipt-text --records --json`
over the same records) got wrong while the label was among the candidates, with the answer's and
the chosen amount's features. --fill: where the rules read no total, what the model's pick
(leave-one-fold-out) would be, right or wrong, by its probability.
"""
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_total  # noqa: E402
from fit_merchant import matrix, readings, stem  # noqa: E402
from score import amount  # noqa: E402

TRAIN = [0, 1, 2, 3]
GRID = [(l2, m) for l2 in (10.0, 30.0, 100.0) for m in (None, 0.0, 0.2, 0.4)]
# Sums and payments an amount can equal, each read from another part of the page.
SUMS = ["items_sum", "cash_change", "payment", "arithmetic", "vat_gross", "card"]
# Single words that label the total (ReceiptVocabulary's weight-2 words, Latin script),
# folded as IssuerText.skeleton folds OCR glyphs.
SKELETON = str.maketrans({"0": "o", "1": "l", "i": "l", "j": "l", "!": "l", "|": "l", "5": "s", "8": "b",
                          "2": "z"})
TOTAL_WORDS = [w.translate(SKELETON) for w in
               ("total", "summe", "suma", "razem", "totale", "totaal", "totalt", "summa", "gesamtbetrag",
                "endbetrag")]


def edits(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def near_total_label(text, most):
    """1 where a word of the row is within `most` edits of a total word and none is one."""
    words = [w.translate(SKELETON) for w in re.findall(r"[a-z0-9!|]+", text.lower()) if re.search("[a-z]", w)]
    if any(w in TOTAL_WORDS for w in words):
        return 0.0
    return float(any(len(w) >= 4 and edits(w, t) <= most for w in words for t in TOTAL_WORDS))


def one_digit(a, b):
    a, b = str(a), str(b)
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def roundness(cents):
    return 3 if cents % 100 == 0 else 2 if cents % 10 == 0 else 1 if cents % 5 == 0 else 0


def derive(d, lines, rows):
    """Adds the tried features to one reading's candidates (`lines`: each candidate's row)."""
    rules = amount(d["rules"])
    totals = [ln for c, ln in zip(d["x"], lines) if c["total_label"] >= 0.66 and not c["not_total"] and ln >= 0]
    rules_line = next((ln for v, ln in zip(d["values"], lines) if rules is not None and amount(v) == rules), None)
    for value, c, line in zip(d["values"], d["x"], lines):
        cents = amount(value)
        near = rules is not None and cents != rules
        c["sums_closed"] = min(sum(c.get(n, 0) > 0 for n in SUMS), 3) / 3
        c["one_digit_from_rules"] = float(near and one_digit(cents, rules))
        c["rounder_than_rules"] = float(near and abs(cents - rules) <= 10 and roundness(cents) > roundness(rules))
        c["last_total_row"] = float(bool(totals) and line == max(totals))
        c["below_rules"] = float(rules_line is not None and line > rules_line)
        text = rows[line] if rows and 0 <= line < len(rows) and not c["total_label"] else ""
        c["label_1_edit"], c["label_2_edits"] = near_total_label(text, 1), near_total_label(text, 2)


TRIED = ["sums_closed", "one_digit_from_rules", "rounder_than_rules", "last_total_row", "below_rules",
         "label_1_edit", "label_2_edits"]


def options(argv):
    """fit_total.py's options, and --rows, --explain, --fill."""
    rows, explain, rest, i = [], [], [], 0
    while i < len(argv):
        if argv[i] in ("--rows", "--explain"):
            (rows if argv[i] == "--rows" else explain).append(argv[i + 1])
            i += 2
        else:
            if argv[i] != "--fill":
                rest.append(argv[i])
            i += 1
    return fit_total.options(rest), rows, explain, "--fill" in argv


def load(opts, row_paths):
    """fit_total.py's readings with the tried features added."""
    runs = fit_total.Runs(opts)
    rows = {stem(r["file"]): [t["text"] for t in (r.get("receipt") or {}).get("text") or []]
            for path in row_paths for r in map(json.loads, open(path, encoding="utf-8"))}
    evidence = {"ocr": readings(opts["ocr"]), "true": readings(opts["true"]), "rendered": {}}
    for folder, path in opts["rendered"]:
        evidence["rendered"] |= {f"{folder}:{s}": r for s, r in readings([path]).items()}
    for kind in runs.kinds:
        for d in runs.sets[kind]:
            cands = evidence[kind][d["stem"]]["candidates"]
            lines = [-1 if c["features"].get("derived") else c["line"] for c in cands]
            derive(d, lines, rows.get(d["stem"]) if kind == "ocr" else None)
    return runs


def score(runs, names):
    """The best (L2, margin) of the grid by leave-one-fold-out on folds 0-3, and its counts per kind."""
    runs.names, runs.models = sorted(names), {}
    counts = {key: [runs.scored(k, TRAIN, TRAIN, *key) for k in runs.kinds] for key in GRID}
    best = max(counts, key=lambda key: (sum(counts[key]), key[0]))
    return best, counts[best]


def table(runs):
    base = sorted(set(runs.names) - set(TRIED))
    print(f"| features | L2, margin | right, {' + '.join(runs.kinds)} (folds 0-3, leave-one-fold-out) | sum |")
    print("|---|---|---|---|")
    for label, names in [("bundled (36)", base)] + [(f"+ {n}", base + [n]) for n in TRIED] + [
            ("+ all tried", base + TRIED)]:
        (l2, margin), counts = score(runs, names)
        print(f"| {label} | {l2:g}, {margin} | {' + '.join(map(str, counts))} | {sum(counts)} |")
    runs.names, runs.models = base, {}


def explain(runs, result_paths):
    """The training readings a run got wrong with the label among the candidates."""
    chosen = {stem(r["file"]): amount((r.get("receipt") or {}).get("total"))
              for path in result_paths for r in map(json.loads, open(path, encoding="utf-8"))}
    shown = [n for n in runs.names if n not in ("confidence", "magnitude", "size_rank", "row", "rows_below", "height")]
    for d in runs.part("ocr", TRAIN):
        want = amount(runs.truth[d["stem"]]["total"])
        if d["stem"] not in chosen or chosen[d["stem"]] == want or not any(d["y"]):
            continue
        got = chosen[d["stem"]]
        print(f"{d['stem']}: label {want / 100:.2f}, chosen {'none' if got is None else f'{got / 100:.2f}'}, "
              f"rules {d['rules']}")
        for tag, hit in (("answer", lambda v: amount(v) == want), ("chosen", lambda v: amount(v) == got)):
            for value, x in zip(d["values"], d["x"]):
                if hit(value):
                    print(f"    {tag} {value}: " + ", ".join(f"{n} {x[n]:g}" for n in shown if x.get(n)))


def fill(runs, l2=10.0):
    """Where the rules read no total: the model's pick (fitted without the reading's fold)."""
    for kind in runs.kinds:
        for f in TRAIN:
            mean, scale, w = runs.model(l2, [g for g in TRAIN if g != f])
            data = runs.part(kind, [f])
            for x, d in zip(matrix(data, runs.names), data):
                if d["rules"] is not None or not d["y"]:
                    continue
                s = ((x - mean) / scale) @ w
                p = np.exp(s - s.max())
                k = int(np.argmax(p))
                verdict = "right" if d["y"][k] else "wrong" if any(d["y"]) else "wrong (label not a candidate)"
                print(f"{kind} fold {f} {d['stem']}: {d['values'][k]} p {p[k] / p.sum():.2f} "
                      f"supported {fit_total.supported(d['x'][k])}: {verdict}")


def main():
    opts, rows, results, fills = options(sys.argv[1:])
    runs = load(opts, rows)
    if results:
        runs.names = sorted(set(runs.names) - set(TRIED))
        explain(runs, results)
    elif fills:
        runs.names = sorted(set(runs.names) - set(TRIED))
        fill(runs)
    else:
        table(runs)


if __name__ == "__main__":
    main()
