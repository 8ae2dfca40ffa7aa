#!/usr/bin/env python3
"""Fits the receipt stage's merchant model (Sources/SnapsortStages/Resources/merchant-model.json):
a conditional logit over the header's name candidates that overrides the extractor's rules where
its pick is more probable than the rules' candidate by more than a margin (issue #23 item 4).

    fit_merchant.py --ocr EVIDENCE.jsonl [MORE ...] --true EVIDENCE.jsonl [MORE ...]
                    [--wide EVIDENCE.jsonl ...] [--gen EVIDENCE.jsonl ... --renders DIR ...]
                    [--choose-on KIND,...] [--fit-on KIND,...] [--replace] [--data ../shared/data/receipts] [--model OUT.json]
                    [--words OUT.json] [--gate-into merchant-words.json] [--min-groups K]

The candidates and their features are the product's own, as snapsort dumps them (so fit and
product cannot drift):
--ocr: `snapsort receipt-text --records RECORDS.jsonl --merchant-candidates --merchant-rules`
over a run's records of the real receipts (receipts preset): each record's OCR rows.
--true: `snapsort receipt-text DIR --merchant-candidates --merchant-rules` over the dataset's
own lines (`sroie_dev`, every row confidence 100).
--wide: the same dump over a run's records of the training scans' wide-margin variants
(bench/kind/augment.py `x~margins.jpg`): each is a reading of its source, in its fold, fitted and
scored beside the others (the choice of L2, margin and K then counts them too).
--gen: the same dump over a run's records of TRAIN renders (bench/gen/receipts.py --split train,
e.g. --headers varied); --renders: their folders, whose NAME.json truth gives the trading name.
Each render is put in a training fold by a hash of its name (renders have no fold 4 and no test),
so it is fitted and scored beside the real readings; a held-out render is refused. Renders stay
out of the word table (their words are the generator's few). --choose-on ocr,true: L2, margin and
K chosen by the right answers of those kinds only (default: all kinds given). --fit-on ocr,true:
the model is fitted on those kinds only; the others are still scored and weigh in the body-text
gate (below), so `--gen ... --fit-on ocr,true --choose-on ocr,true` refits the gate on renders
too and leaves the model as fitted on the real readings.
Each line: file, the rules' merchant (`rules`), whether it names a catalog brand (`rules_brand`;
the model never overrides one), and the candidates (`value`, `line`, `features`).

A conditional logit (softmax over a reading's candidates, L2) is fitted on folds 0-3 of
folds.json (OCR readings and true lines together; a candidate counts as the answer to fit on when
it matches with difflib ratio >= 0.9, stricter than score.py's 0.8, so a name with a date joined
on is not taught as right). The model's pick replaces the rules' answer when its probability
exceeds the rules' candidate's by more than a margin, and it is no heading (ConditionalLogit's
`allowed:`, MerchantModel.override: a greeting or a document title; the dump's `not_name`, which
holds those and a few other not-names, stands in for it); the L2 strength and the margin are chosen
together by leave-one-fold-out inside 0-3 (`--replace`: no margin, the model replaces the rules).

Printed: merchant right, rules -> model, for leave-one-fold-out on 0-3, fold 4 (held out, model
fitted on 0-3), the German 14 (test, same model), and pooled 5-fold CV, on OCR readings and on
true lines; then the held-out OCR readings whose answer the model changed. `--model OUT.json`
writes the model fitted on folds 0-3 (weights, standardisation, margin, what it was fitted on).

The `word_odds` feature (fit_merchant_words.py's word table) is recomputed here from each
candidate's value, out of fold for the training readings; its K (the groups a word must occur in)
is chosen with the L2 and the margin by leave-one-fold-out (`--min-groups K` fixes it). Then the
body-text gate (MerchantWords.isBody): the thresholds on the pick's probability and `word_odds`
that null the most wrong picks and no right one, leave-one-fold-out on 0-3. `--words OUT.json`
writes the table of folds 0-3 and the gate (Sources/SnapsortStages/Resources/merchant-words.json);
`--gate-into FILE` writes only the gate's thresholds into that file, its word table kept.
"""
import difflib
import hashlib
import json
import os
import re
import sys

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold as score_fold, merchant_ok  # noqa: E402
import fit_merchant_words  # noqa: E402

# The readings' kinds: OCR rows of the scans, the dataset's true lines, OCR rows of the training
# scans' wide-margin variants (bench/kind/augment.py `~margins`; none unless --wide is given), OCR
# rows of train renders (bench/gen/receipts.py; none unless --gen is given).
KINDS = ("ocr", "true", "wide", "gen")



def fold(text):
    """As MerchantCandidates.fold: small letters, digits and German letters, padded with spaces."""
    text = re.sub(r"[^0-9a-zäöüß ]", " ", text.lower())
    return " " + " ".join(text.split()) + " "


def squeezed(text):
    return fold(text).replace(" ", "")


def stem(file):
    base = os.path.basename(file)
    for suffix in (".lines.csv", ".jpg", ".png", ".txt"):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return os.path.splitext(base)[0]


def readings(paths):
    """The dumped evidence by stem (the last of a file given twice)."""
    out = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                evidence = json.loads(line)
                out[stem(evidence["file"])] = evidence
    return out


def close(expected, predicted):
    """A stricter match to fit on than score.py's (ratio 0.8 lets a name with a date joined on
    count as right): ratio >= 0.9, or the one-word rule."""
    e, p = score_fold(expected).replace(" ", ""), score_fold(predicted).replace(" ", "")
    return difflib.SequenceMatcher(None, e, p).ratio() >= 0.9 or " " not in score_fold(expected).strip()


def build(reads, truth):
    data = []
    for s, r in sorted(reads.items()):
        if s not in truth:
            continue
        names = [c["value"] for c in r["candidates"]]
        labels = [merchant_ok(truth[s]["merchant"], v) for v in names]
        rules = r.get("rules")
        data.append({"stem": s, "values": names, "x": [c["features"] for c in r["candidates"]], "y": labels,
                     "fit_y": [ok and close(truth[s]["merchant"], v) for ok, v in zip(labels, names)],
                     "rules": rules, "rules_ok": merchant_ok(truth[s]["merchant"], rules),
                     "rules_brand": r["rules_brand"],
                     "rules_at": next((k for k, v in enumerate(names) if rules and squeezed(v) == squeezed(rules)),
                                      None)})
    return data


def matrix(data, names):
    return [np.array([[c[n] for n in names] for c in d["x"]]) if d["x"] else np.zeros((0, len(names)))
            for d in data]


def fit(data, names, l2):
    xs = matrix(data, names)
    usable = [(x, np.array(d["fit_y"], float)) for x, d in zip(xs, data) if any(d["fit_y"])]
    stack = np.vstack([x for x, _ in usable])
    mean, scale = stack.mean(0), stack.std(0)
    scale[scale == 0] = 1
    zs = [((x - mean) / scale, y / y.sum()) for x, y in usable]

    def loss(w):
        total, grad = l2 * w @ w, 2 * l2 * w
        for z, y in zs:
            s = z @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            total -= y @ np.log(p + 1e-12)
            grad -= z.T @ (y - p)
        return total / len(zs), grad / len(zs)

    w = minimize(loss, np.zeros(len(names)), jac=True, method="L-BFGS-B").x
    return mean, scale, w


def right(data, names, model, margin=None):
    """Receipts whose merchant is right when the model's choice replaces the rules' answer; with
    `margin`, only where its probability exceeds the rules' candidate's by more than that."""
    return sum(bool(d["y"][c[0]]) if c else d["rules_ok"] for d, c in zip(data, choices(data, names, model, margin)))


def choices(data, names, model, margin):
    """Per reading: the candidate the model takes instead of the rules' answer and its probability,
    or None where the rules' answer stands."""
    mean, scale, w = model
    # Where the rules found no name the stage reads the logo for a brand: the model gives none.
    for x, d in zip(matrix(data, names), data):
        if d["rules_brand"] or not d["rules"] or not len(d["y"]):
            yield None
            continue
        s = ((x - mean) / scale) @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        k, at = int(np.argmax(p)), d["rules_at"]
        allowed = not d["x"][k].get("not_name", 0)
        yield (k, p[k]) if k != at and allowed and (
            margin is None or p[k] - (p[at] if at is not None else 0) > margin) else None


def changed(data, names, model, margin, truth):
    """Prints the readings whose answer the model changes: the rules' and the model's, right or not."""
    for d, choice in zip(data, choices(data, names, model, margin)):
        if choice:
            (k, p), rules = choice, d["rules"]
            print(f"- {d['stem']}: label {truth[d['stem']]['merchant']!r}; rules {rules!r} "
                  f"({'right' if d['rules_ok'] else 'wrong'}) -> model {d['values'][k]!r} "
                  f"({'right' if d['y'][k] else 'wrong'}, p {p:.2f})")


def options(args):
    """The command line: input files by kind, and the flags."""
    here = os.path.dirname(os.path.abspath(__file__))
    opts = {"ocr": [], "true": [], "wide": [], "gen": [], "renders": [], "model": None,
            "data": os.path.join(os.path.dirname(os.path.dirname(here)), "..", "shared", "data", "receipts"),
            "folds": os.path.join(here, "folds.json"), "flags": set(), "min_groups": 3,
            "min_groups_given": False, "words": None, "gate_into": None, "choose_on": KINDS, "fit_on": KINDS}
    mode, i = None, 0
    while i < len(args):
        a = args[i]
        if a in ("--ocr", "--true", "--wide", "--gen", "--renders"):
            mode = a[2:]
        elif a in ("--data", "--model", "--words", "--gate-into"):
            opts[a[2:].replace("-", "_")], i = args[i + 1], i + 1
        elif a in ("--choose-on", "--fit-on"):
            opts[a[2:].replace("-", "_")], i = tuple(args[i + 1].split(",")), i + 1
        elif a == "--min-groups":
            opts["min_groups"], opts["min_groups_given"], i = int(args[i + 1]), True, i + 1
        elif a == "--replace":
            opts["flags"].add(a)
        elif mode:
            opts[mode].append(a)
        i += 1
    return opts


class Runs:
    """The readings of both kinds with their folds, and the models fitted on sets of folds."""

    def __init__(self, opts):
        split = json.load(open(opts["folds"], encoding="utf-8"))
        self.seed = split["seed"]
        self.fold_of = {s: v["fold"] for s, v in split["sroie"].items()} | {s: "test" for s in split["test"]}
        folder = {s: v["folder"] for s, v in list(split["sroie"].items()) + list(split["test"].items())}
        self.truth = {s: json.load(open(os.path.join(opts["data"], folder[s], s + ".json"), encoding="utf-8"))
                      for s in folder}
        raw = {kind: readings(opts[kind]) for kind in KINDS}
        # A wide-margin variant (`x~margins`) is a reading of its source: its fold, group and label.
        for s in raw["wide"]:
            source = s.split("~")[0]
            if source in self.fold_of:
                self.fold_of[s], self.truth[s] = self.fold_of[source], self.truth[source]
        # A render is a training reading in the fold its name hashes to; its truth is its NAME.json.
        for s in raw["gen"]:
            for folder in opts["renders"]:
                path = os.path.join(folder, s + ".json")
                if os.path.exists(path):
                    truth = json.load(open(path, encoding="utf-8"))
                    if truth.get("split") != "train":
                        sys.exit(f"{s}: a {truth.get('split')} render; only train renders may be fitted on")
                    self.truth[s] = {"merchant": truth["merchant"]}
                    self.fold_of[s] = int(hashlib.sha256(s.encode()).hexdigest(), 16) % 4
                    break
            else:
                sys.exit(f"{s}: no NAME.json truth in --renders")
        self.words = word_odds(raw, split, self.truth, self.fold_of, opts["min_groups"])
        self.sets = {kind: build(raw[kind], self.truth) for kind in KINDS}
        self.names = sorted({n for d in self.sets["ocr"] + self.sets["true"] for c in d["x"] for n in c})
        self.models = {}
        self.fit_on = opts["fit_on"]

    def part(self, kind, folds):
        return [d for d in self.sets[kind] if self.fold_of[d["stem"]] in folds]

    def model(self, l2, folds):
        key = (l2, tuple(folds))
        if key not in self.models:
            self.models[key] = fit([d for kind in self.fit_on for d in self.part(kind, folds)], self.names, l2)
        return self.models[key]

    def scored(self, kind, folds, pool, l2, margin):
        """Right answers on `folds`, each scored by a model fitted on the rest of `pool`."""
        return sum(right(self.part(kind, [f]), self.names, self.model(l2, [g for g in pool if g != f]), margin)
                   for f in folds)


def word_odds(raw, split, truth, fold_of, min_groups):
    """Sets each candidate's `word_odds` (fit_merchant_words.py) out of fold: a training reading's
    from a table of the other training folds, any other's from the table of folds 0-3 (as the
    product's). Returns that table."""
    train = [0, 1, 2, 3]
    group_of = {s: split["sroie"][s.split("~")[0]]["group"] for s in fold_of if s.split("~")[0] in split["sroie"]}
    tables = {}
    for held in train + [None]:
        # The word table stays the real receipts' (renders print the generator's few words).
        stems = {s for s, f in fold_of.items() if f in train and f != held and s in group_of}
        ex = fit_merchant_words.examples(list(raw.values()), truth, group_of, stems)
        tables[held] = fit_merchant_words.table(ex, min_groups)
    for reading in raw.values():
        for s, r in reading.items():
            odds = tables[fold_of.get(s) if fold_of.get(s) in train else None]
            for c in r["candidates"]:
                c["features"]["word_odds"] = fit_merchant_words.row_odds(odds, c["value"])
    return tables[None]


def picks(runs, l2, margin, kinds=KINDS, folds=(0, 1, 2, 3)):
    """Per reading of `folds` (leave-one-fold-out inside them): the extractor's pick as a
    candidate, with its probability, its `word_odds`, whether it is right and whether the gate may
    null it (not a catalog brand)."""
    out = []
    for kind in kinds:
        for f in folds:
            data, model = runs.part(kind, [f]), runs.model(l2, [g for g in folds if g != f])
            mean, scale, w = model
            for x, d, ch in zip(matrix(data, runs.names), data, choices(data, runs.names, model, margin)):
                k, ok = (ch[0], d["y"][ch[0]]) if ch else (d["rules_at"], d["rules_ok"])
                if not d["rules"] or k is None:
                    continue
                s = ((x - mean) / scale) @ w
                p = np.exp(s - s.max())
                out.append({"stem": d["stem"], "p": p[k] / p.sum(), "odds": d["x"][k]["word_odds"], "ok": bool(ok),
                            "gated": not d["rules_brand"], "value": d["values"][k]})
    return out


GATE_P = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
GATE_ODDS = [-1.0, -0.8, -0.6, -0.4, -0.2, 0.0]


def nulled(rows, tp, tw):
    return [r for r in rows if r["gated"] and r["p"] < tp and r["odds"] < tw]


def gate(runs, l2, margin):
    """The body-text gate (MerchantWords.isBody) that nulls the most wrong picks and no right one,
    leave-one-fold-out on folds 0-3; the most cautious such thresholds. (0, -inf) nulls none."""
    rows = picks(runs, l2, margin)
    best = (0, 0.0, -1e9)
    for tp in GATE_P:
        for tw in GATE_ODDS:
            hit = nulled(rows, tp, tw)
            wrong = sum(not r["ok"] for r in hit)
            if not any(r["ok"] for r in hit) and wrong > best[0]:
                best = (wrong, tp, tw)
    print(f"body-text gate (folds 0-3, leave-one-fold-out): probability < {best[1]}, word odds < {best[2]}: "
          f"nulls {best[0]} wrong picks, 0 right: "
          + ", ".join(f"{r['stem']} {r['value']!r}" for r in nulled(rows, best[1], best[2])))
    return best[1], best[2]


def report(runs, best, margin):
    """The table of rules -> model per set, the weights, and the held-out answers changed."""
    train = [0, 1, 2, 3]
    print("| set | readings | answer among candidates | rules right | model right |")
    print("|---|---|---|---|---|")

    def row(label, data, model_right):
        print(f"| {label} | {len(data)} | {sum(any(d['y']) for d in data)} | "
              f"{sum(d['rules_ok'] for d in data)} | {model_right} |")

    for kind in [k for k in KINDS if runs.sets[k]]:
        row(f"{kind}: folds 0-3, leave-one-fold-out", runs.part(kind, train),
            runs.scored(kind, train, train, best, margin))
        if kind == "gen":
            continue
        row(f"{kind}: **fold 4 (held out)**", runs.part(kind, [4]), runs.scored(kind, [4], range(5), best, margin))
        if kind == "ocr":
            row("ocr: **German 14 (test)**", runs.part(kind, ["test"]),
                right(runs.part(kind, ["test"]), runs.names, runs.model(best, train), margin))
        row(f"{kind}: pooled 5-fold CV", runs.part(kind, range(5)),
            runs.scored(kind, range(5), range(5), best, margin))
    mean, scale, w = runs.model(best, train)
    print("\nweights (standardised), fitted on folds 0-3: "
          + ", ".join(f"{n} {v:+.2f}" for n, v in sorted(zip(runs.names, w), key=lambda t: -abs(t[1]))))
    print("\nheld-out OCR readings whose answer the model changed (fold 4, German 14):")
    changed(runs.part("ocr", [4, "test"]), runs.names, runs.model(best, train), margin, runs.truth)


def write_model(path, runs, best, margin, cv):
    """The model fitted on folds 0-3 as Sources/SnapsortStages/Resources/merchant-model.json
    holds it; no margin (the model replaces the rules) is written as -1."""
    mean, scale, w = runs.model(best, [0, 1, 2, 3])
    train = [d for kind in runs.fit_on for d in runs.part(kind, [0, 1, 2, 3])]
    model = {
        "version": 1, "features": runs.names, "mean": [round(v, 6) for v in mean],
        "scale": [round(v, 6) for v in scale], "weights": [round(v, 6) for v in w],
        "margin": -1.0 if margin is None else margin,
        "training": {
            "script": "bench/receipts/fit_merchant.py",
            "data": f"folds 0-3 of bench/receipts/folds.json (seed {runs.seed}): {len(train)} readings, "
                    "OCR rows of a receipts-preset run and the dataset's true lines, dumped by "
                    "snapsort receipt-text --merchant-candidates --merchant-rules",
            "choice": f"L2 {best:g} and margin {margin} by leave-one-fold-out inside folds 0-3 "
                      f"({cv} right, OCR and true lines)",
        },
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(model, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"\nmodel written to {path}")


def write_words(path, runs, k, tp, tw):
    """The word table of folds 0-3 and the gate as Sources/SnapsortStages/Resources/merchant-words.json."""
    doc = {"version": 1, "null_probability": tp, "null_word_odds": tw, "words": dict(sorted(runs.words.items())),
           "training": {"script": "bench/receipts/fit_merchant.py (fit_merchant_words.py's table)",
                        "data": f"folds 0-3 of bench/receipts/folds.json (seed {runs.seed}): header rows of "
                                "OCR readings and true lines, counted by merchant group",
                        "choice": f"words in the rows of at least {k} merchant groups; the gate nulls the most "
                                  "wrong picks and no right one, leave-one-fold-out inside folds 0-3"
                                  + (f" (picks of {sum(len(runs.part(kind, [0, 1, 2, 3])) for kind in KINDS)} "
                                     "readings: " + ", ".join(f"{kind} {len(runs.part(kind, [0, 1, 2, 3]))}"
                                                              for kind in KINDS if runs.sets[kind]) + ")")}}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=0, ensure_ascii=False)
        f.write("\n")
    print(f"words written to {path}")


def write_gate(path, runs, tp, tw):
    """Only the gate's thresholds into an existing merchant-words.json, its word table kept."""
    doc = json.load(open(path, encoding="utf-8"))
    doc["null_probability"], doc["null_word_odds"] = tp, tw
    doc["training"]["gate"] = (
        "bench/receipts/fit_merchant.py --gate-into: the thresholds that null the most wrong picks and no right "
        "one, leave-one-fold-out inside folds 0-3, over the picks of "
        + ", ".join(f"{kind} {len(runs.part(kind, [0, 1, 2, 3]))}" for kind in KINDS if runs.sets[kind])
        + " training readings")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=0, ensure_ascii=False)
        f.write("\n")
    print(f"gate written to {path}")


def main():
    opts = options(sys.argv[1:])
    train = [0, 1, 2, 3]
    grid = [0.1, 1.0, 10.0, 30.0, 100.0]
    margins = [None] if "--replace" in opts["flags"] else [None, 0.0, 0.2, 0.4, 0.6, 0.8]
    chosen = None
    # The word table's K (groups a word must occur in) with the model's L2 and margin, by
    # leave-one-fold-out; a tie goes to the larger K (fewer, more general words).
    for k in ([opts["min_groups"]] if opts["min_groups_given"] else [2, 3, 5, 8]):
        opts["min_groups"] = k
        runs = Runs(opts)
        cv = {(l2, m): sum(runs.scored(kind, train, train, l2, m) for kind in opts["choose_on"])
              for l2 in grid for m in margins}
        best, margin = max(cv, key=lambda t: (cv[t], t[0], -1 if t[1] is None else t[1]))
        print(f"K {k}, features: {len(runs.names)}; L2 and margin by leave-one-fold-out on folds 0-3 (OCR + true "
              "right): " + ", ".join(f"{l2:g}/{m}: {v}" for (l2, m), v in cv.items()) + f" -> {best:g}, margin {margin}")
        if chosen is None or cv[(best, margin)] >= chosen[0]:
            chosen = (cv[(best, margin)], k, runs, best, margin)
    score, k, runs, best, margin = chosen
    print(f"chosen: K {k}, L2 {best:g}, margin {margin} ({score} right)")
    tp, tw = gate(runs, best, margin)
    report(runs, best, margin)
    if opts["model"]:
        write_model(opts["model"], runs, best, margin, score)
    if opts["words"]:
        write_words(opts["words"], runs, k, tp, tw)
    if opts["gate_into"]:
        write_gate(opts["gate_into"], runs, tp, tw)


if __name__ == "__main__":
    main()
