#!/usr/bin/env python3
"""Fits the receipt stage's total model (Sources/SnapsortStages/Resources/total-model.json): a
conditional logit over the page's amounts that overrides the extractor's rules where its pick is
more probable than the rules' total by more than a margin (issue #23 item 4).

    fit_total.py --ocr EVIDENCE.jsonl [MORE ...] --true EVIDENCE.jsonl [MORE ...]
                 [--rendered DIR EVIDENCE.jsonl] [--drop FEATURE[,FEATURE...]] [--replace]
                 [--choice L2,MARGIN]
                 [--data ../shared/data/receipts] [--model OUT.json]

The candidates and their features are the product's own, as snapsort dumps them (so fit and
product cannot drift):
--ocr: `snapsort receipt-text --records RECORDS.jsonl --total-candidates` over a run's records of
the real receipts (receipts preset): each record's OCR rows.
--true: `snapsort receipt-text DIR --total-candidates` over the dataset's own lines (`sroie_dev`,
every row confidence 100).
--rendered: train renders (`bench/gen/receipts.py --split train`, DIR holding NAME.json) and
`snapsort receipt-text --total-candidates` over their text (`rendered_text.py DIR OUT --truth`, or
`--records` of a run's OCR rows); render k counts in training fold k mod 4, so every fit and
every leave-one-fold-out score holds some (they are never scored as held out).
Each line: file, the rules' total (`rules`), and the candidates (`value`, `line`, `features`).

A conditional logit (softmax over a reading's candidates, L2) is fitted on folds 0-3 of
folds.json (OCR readings and true lines together; the candidate equal to the labelled total to
the cent is the answer). The model's pick replaces the rules' total when its probability exceeds
the rules' candidate's by more than a margin (never where the rules found no total); the L2
strength and the margin are chosen together by leave-one-fold-out inside 0-3 (`--replace`: no
margin; `--choice 10,0.2`: that L2 and margin, no grid, as a refit at the bundled model's choice
on new evidence). `--drop` leaves features out of the fit (their weight is 0). As in the product
(`TotalModel.supports`), the model's pick needs support besides its size and place (a total label
on its row or a neighbour, a payment, a sum it closes); `--any-amount` lifts that.

Printed: total right, rules -> model, for leave-one-fold-out on 0-3, fold 4 (held out, model
fitted on 0-3), the German 14 (test, same model), and pooled 5-fold CV, on OCR readings and on
true lines; then the held-out OCR readings whose total the model changed. `--model OUT.json`
writes the model fitted on folds 0-3 (weights, standardisation, margin, what it was fitted on).
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_merchant  # noqa: E402
from fit_merchant import fit, matrix, readings  # noqa: E402
from score import amount  # noqa: E402


def build(reads, truth):
    data = []
    for s, r in sorted(reads.items()):
        if s not in truth or amount(truth[s].get("total")) is None:
            continue
        want = amount(truth[s]["total"])
        cents = [amount(c["value"]) for c in r["candidates"]]
        rules = amount(r.get("rules"))
        data.append({"stem": s, "values": [c["value"] for c in r["candidates"]],
                     "x": [c["features"] for c in r["candidates"]], "y": [v == want for v in cents],
                     "fit_y": [v == want for v in cents],
                     "rules": r.get("rules"), "rules_ok": rules == want,
                     "rules_at": next((k for k, v in enumerate(cents) if rules is not None and v == rules), None)})
    return data


def choices(data, names, model, margin):
    """Per reading: the candidate the model takes instead of the rules' total and its probability,
    or None where the rules' total stands (always where the rules found none)."""
    mean, scale, w = model
    for x, d in zip(matrix(data, names), data):
        if d["rules"] is None or not len(d["y"]):
            yield None
            continue
        s = ((x - mean) / scale) @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        k, at = int(np.argmax(p)), d["rules_at"]
        if SUPPORTED and not supported(d["x"][k]):
            yield None
            continue
        yield (k, p[k]) if k != at and (margin is None or p[k] - (p[at] if at is not None else 0) > margin) else None


SUPPORTED = "--any-amount" not in sys.argv
# What speaks for an amount being the total besides its size and place: a label on its row or
# the next, a payment of it, or a sum of the page it closes. As TotalModel.supports.
SUPPORT = ["total_label", "label_above", "label_below", "payment", "cash_change", "vat_gross", "arithmetic",
           "items_sum", "rounding_above"]


def supported(features):
    return any(features.get(n, 0) > 0 for n in SUPPORT)


def right(data, names, model, margin=None):
    return sum(bool(d["y"][c[0]]) if c else d["rules_ok"] for d, c in zip(data, choices(data, names, model, margin)))


def changed(data, names, model, margin, truth):
    """Prints the readings whose total the model changes: the rules' and the model's, right or not."""
    for d, choice in zip(data, choices(data, names, model, margin)):
        if choice:
            k, p = choice
            print(f"- {d['stem']}: label {truth[d['stem']]['total']!r}; rules {d['rules']!r} "
                  f"({'right' if d['rules_ok'] else 'wrong'}) -> model {d['values'][k]!r} "
                  f"({'right' if d['y'][k] else 'wrong'}, p {p:.2f})")


def options(args):
    """The command line: input files by kind, and the flags."""
    here = os.path.dirname(os.path.abspath(__file__))
    opts = {"ocr": [], "true": [], "rendered": [], "model": None, "drop": set(),
            "data": os.path.join(os.path.dirname(os.path.dirname(here)), "..", "shared", "data", "receipts"),
            "folds": os.path.join(here, "folds.json"), "flags": set(), "choice": None}
    mode, i = None, 0
    while i < len(args):
        a = args[i]
        if a in ("--ocr", "--true"):
            mode = a[2:]
        elif a in ("--data", "--model", "--choice"):
            opts[a[2:]], i = args[i + 1], i + 1
        elif a == "--rendered":
            opts["rendered"].append((args[i + 1], args[i + 2]))
            i += 2
        elif a == "--drop":
            opts["drop"], i = set(args[i + 1].split(",")), i + 1
        elif a in ("--replace", "--any-amount"):
            opts["flags"].add(a)
        elif mode:
            opts[mode].append(a)
        i += 1
    return opts


class Runs(fit_merchant.Runs):
    """fit_merchant's readings by kind and fold and its models fitted on sets of folds, over the
    total's evidence, with train renders as a third kind."""

    def __init__(self, opts):
        split = json.load(open(opts["folds"], encoding="utf-8"))
        self.seed = split["seed"]
        self.fold_of = {s: v["fold"] for s, v in split["sroie"].items()} | {s: "test" for s in split["test"]}
        folder = {s: v["folder"] for s, v in list(split["sroie"].items()) + list(split["test"].items())}
        self.truth = {s: json.load(open(os.path.join(opts["data"], folder[s], s + ".json"), encoding="utf-8"))
                      for s in folder}
        self.sets = {kind: build(readings(opts[kind]), self.truth) for kind in ("ocr", "true")}
        self.sets["rendered"] = []
        for folder, evidence in opts["rendered"]:
            reads = {f"{folder}:{s}": r for s, r in readings([evidence]).items()}
            for key in reads:
                truth = json.load(open(os.path.join(folder, key.split(":", 1)[1] + ".json"), encoding="utf-8"))
                self.truth[key], self.fold_of[key] = truth, truth["index"] % 4
            self.sets["rendered"] += build(reads, self.truth)
        self.kinds = ["ocr", "true"] + (["rendered"] if self.sets["rendered"] else [])
        # A feature left out (--drop) is not in the fit at all: its weight is 0.
        self.names = sorted({n for kind in self.kinds for d in self.sets[kind] for c in d["x"] for n in c}
                            - opts["drop"])
        self.models = {}

    def model(self, l2, folds):
        key = (l2, tuple(folds))
        if key not in self.models:
            self.models[key] = fit([d for kind in self.kinds for d in self.part(kind, folds)], self.names, l2)
        return self.models[key]

    def scored(self, kind, folds, pool, l2, margin):
        """Right totals on `folds`, each scored by a model fitted on the rest of `pool`."""
        return sum(right(self.part(kind, [f]), self.names, self.model(l2, [g for g in pool if g != f]), margin)
                   for f in folds)


def report(runs, best, margin):
    """The table of rules -> model per set, the weights, and the held-out answers changed."""
    train = [0, 1, 2, 3]
    print("| set | readings | answer among candidates | rules right | model right |")
    print("|---|---|---|---|---|")

    def row(label, data, model_right):
        print(f"| {label} | {len(data)} | {sum(any(d['y']) for d in data)} | "
              f"{sum(d['rules_ok'] for d in data)} | {model_right} |")

    if "rendered" in runs.kinds:
        row("rendered (train split): folds 0-3, leave-one-fold-out", runs.part("rendered", train),
            runs.scored("rendered", train, train, best, margin))
    for kind in ("ocr", "true"):
        row(f"{kind}: folds 0-3, leave-one-fold-out", runs.part(kind, train),
            runs.scored(kind, train, train, best, margin))
        row(f"{kind}: **fold 4 (held out)**", runs.part(kind, [4]), runs.scored(kind, [4], range(5), best, margin))
        if kind == "ocr":
            row("ocr: **German 14 (test)**", runs.part(kind, ["test"]),
                right(runs.part(kind, ["test"]), runs.names, runs.model(best, train), margin))
        row(f"{kind}: pooled 5-fold CV", runs.part(kind, range(5)),
            runs.scored(kind, range(5), range(5), best, margin))
    mean, scale, w = runs.model(best, train)
    print("\nweights (standardised), fitted on folds 0-3: "
          + ", ".join(f"{n} {v:+.2f}" for n, v in sorted(zip(runs.names, w), key=lambda t: -abs(t[1]))))
    print("\nheld-out OCR readings whose total the model changed (fold 4, German 14):")
    changed(runs.part("ocr", [4, "test"]), runs.names, runs.model(best, train), margin, runs.truth)


def rendered_description(runs):
    """The renders fitted on, as bench/gen/receipts.py made them: split, seed, count, indices."""
    truths = [runs.truth[d["stem"]] for d in runs.sets["rendered"]]
    groups = sorted({(t["split"], t["seed"]) for t in truths})
    return "; ".join(
        f"{len(idx)} renders of bench/gen/receipts.py --split {split} --seed {seed} (indices {min(idx)}-{max(idx)})"
        for split, seed in groups
        for idx in [[t["index"] for t in truths if (t["split"], t["seed"]) == (split, seed)]])


def write_model(path, runs, best, margin, cv):
    """The model fitted on folds 0-3 as Sources/SnapsortStages/Resources/total-model.json holds
    it; no margin (the model replaces the rules) is written as -1."""
    mean, scale, w = runs.model(best, [0, 1, 2, 3])
    train = [d for kind in runs.kinds for d in runs.part(kind, [0, 1, 2, 3])]
    model = {
        "version": 1, "features": runs.names, "mean": [round(v, 6) for v in mean],
        "scale": [round(v, 6) for v in scale], "weights": [round(v, 6) for v in w],
        "margin": -1.0 if margin is None else margin,
        "training": {
            "script": "bench/receipts/fit_total.py",
            "data": f"folds 0-3 of bench/receipts/folds.json (seed {runs.seed}): {len(train)} readings, "
                    "OCR rows of a receipts-preset run and the dataset's true lines"
                    + (", and " + rendered_description(runs) if runs.kinds[2:] else "")
                    + ", dumped by snapsort receipt-text --total-candidates",
            "choice": f"L2 {best:g} and margin {margin} by leave-one-fold-out inside folds 0-3 "
                      f"({cv} right, {', '.join(runs.kinds)})",
        },
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(model, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"\nmodel written to {path}")


def main():
    opts = options(sys.argv[1:])
    runs = Runs(opts)
    train = [0, 1, 2, 3]
    grid = [0.01, 0.1, 1.0, 10.0, 30.0, 100.0]
    margins = [None] if "--replace" in opts["flags"] else [None, 0.0, 0.2, 0.4, 0.6, 0.8]
    if opts["choice"]:
        l2, m = opts["choice"].split(",")
        grid, margins = [float(l2)], [None if m == "none" else float(m)]
    cv = {(l2, m): sum(runs.scored(k, train, train, l2, m) for k in runs.kinds) for l2 in grid for m in margins}
    best, margin = max(cv, key=lambda t: (cv[t], t[0], -1 if t[1] is None else t[1]))
    print(f"features: {len(runs.names)}; L2 and margin by leave-one-fold-out on folds 0-3 "
          f"({' + '.join(runs.kinds)} right): "
          + ", ".join(f"{l2:g}/{m}: {v}" for (l2, m), v in cv.items()) + f" -> {best:g}, margin {margin}")
    report(runs, best, margin)
    if opts["model"]:
        write_model(opts["model"], runs, best, margin, cv[(best, margin)])


if __name__ == "__main__":
    main()
