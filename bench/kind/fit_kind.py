#!/usr/bin/env python3
"""Fits the card-or-receipt model (Sources/SnapsortStages/Resources/kind-model.json) and reports
its held-out figures. A bench tool, never the product.

Input: the `classification.evidence` of every photo, from runs of the classify-only config
(bench/kind/classify-only.json) over each set; `bench/kind/fit.sh` makes them. Sets and their role:

  sroie         ../shared/data/receipts/sroie_dev + sroie (345 real receipts) and each of them
                scanned with wide margins and cut in half (bench/kind/augment.py): 5 folds by shop
                (bench/receipts/folds.json); each fold is scored by a model fitted without it
  german        ../shared/data/receipts/softmatic_de (14), as they are and augmented: test only
  rcpt-train    bench/gen/receipts.py --split train (seeds 11 and 12, 120 each), each also cut in
                half: training
  rcpt-heldout  bench/gen/receipts.py --split heldout (layout families and fonts never trained
                on), each also cut in half
  cards-train   bench/gen/cards.py --split train: --kind mixed (seed 11, 300), --kind screenshot
                (seed 12, 300), --kind photo (seed 13, 200), --kind screenshot --detail-rows 6-16
                (seed 14, 200: apps listing many rows), --kind mixed --dense-text 6-24 (seed 15, 240:
                cards' backs and gift cards with many lines of small print); and scripts/render_samples.py --issuers
                --per-issuer 1 --seed 501 (276 photos and screenshots, the samples' renderer): training
  cards-heldout bench/gen/cards.py --kind mixed --split heldout (fonts, layouts, app families held out)
  samples       samples/ cards, screenshots and receipts: the regression, never trained on

The shipped model is fitted on sroie (all five folds), rcpt-train and cards-train; its figures on
german, rcpt-heldout, cards-heldout and samples are held out, and the SROIE figure is the
cross-validated one.

    bench/.venv/bin/python bench/kind/fit_kind.py --evidence bench/work/kind [--write MODEL] [--report FILE]
"""
import argparse
import json
import math
import os
import random
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FEATURES = [
    "log_text_rows", "log_textual_rows", "text_like_share", "right_column_share", "row_height",
    "ink_share", "paper_share", "log_paper_aspect", "colorfulness", "log_image_aspect",
    "paper_colorfulness", "left_aligned_share", "right_aligned_share", "row_height_spread", "log_row_pitch",
    "log_text_block_aspect", "card_aspect_distance",
]
CARD_ASPECT = 85.60 / 53.98


def features(e):
    """KindModel.value in Sources/SnapsortStages/Receipts/KindModel.swift, name for name."""
    rows = e.get("text_rows", 0)
    return [
        math.log1p(rows),
        math.log1p(rows * e.get("text_like_share", 0)),
        e.get("text_like_share", 0),
        e.get("right_column_share", 0),
        e.get("row_height") or 0,
        e.get("ink_share") or 0,
        e.get("paper_share", 0),
        math.log(max(1, e.get("paper_aspect", 1))),
        e.get("colorfulness") or 0,
        math.log(max(1, e.get("image_aspect") or 1)),
        e.get("paper_colorfulness", e.get("colorfulness")) or 0,
        e.get("left_aligned_share") or 0,
        e.get("right_aligned_share") or 0,
        e.get("row_height_spread") or 0,
        math.log1p(e.get("row_pitch") or 0),
        math.log(max(0.01, e.get("text_block_aspect") or 1)),
        abs(math.log(max(1, e.get("paper_aspect", 1)) / CARD_ASPECT)),
    ]


def read_evidence(path):
    """file → evidence, from a run's records.jsonl."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            c = r.get("classification")
            if r.get("status") == "ok" and c:
                out[r["file"]] = c["evidence"]
    return out


def stem(file):
    """The source receipt's stem; augment.py's variants keep it before a `~`."""
    return os.path.splitext(os.path.basename(file))[0].split("~")[0]


def variant(file):
    name = os.path.splitext(os.path.basename(file))[0]
    return name.split("~")[1] if "~" in name else "original"


def load_sets(folder):
    sets = {}
    folds = json.load(open(os.path.join(ROOT, "bench/receipts/folds.json")))
    fold_of = {}
    for key, value in folds.items():
        if isinstance(value, dict):
            for s, info in value.items():
                if isinstance(info, dict) and "fold" in info:
                    fold_of[s] = info["fold"]
    sroie = []
    for name in ("sroie_dev", "sroie", "aug-sroie"):
        path = os.path.join(folder, f"ev-{name}", "records.jsonl")
        for file, e in read_evidence(path).items():
            sroie.append((file, e, 1, fold_of.get(stem(file))))
    sets["sroie"] = sroie
    sets["german"] = [
        (f, e, 1, None)
        for name in ("softmatic_de", "aug-german")
        for f, e in read_evidence(os.path.join(folder, f"ev-{name}", "records.jsonl")).items()
    ]
    parts = {
        "rcpt-train": (1, ("rcpt-train", "aug-rcpt-train", "rcpt-train2", "aug-rcpt-train2")),
        "rcpt-heldout": (1, ("rcpt-heldout", "aug-rcpt-heldout")),
        "cards-heldout": (0, ("cards-heldout",)),
        "cards-train": (0, ("cards-train", "cards-train-shots", "cards-train-photos", "issuer-cards", "cards-train-rows",
                            "cards-train-dense")),
    }
    for name, (label, sources) in parts.items():
        sets[name] = [
            (f"{part}/{f}", e, label, None)
            for part in sources
            for f, e in read_evidence(os.path.join(folder, f"ev-{part}", "records.jsonl")).items()
        ]
    samples = []
    for file, e in read_evidence(os.path.join(folder, "ev-samples", "records.jsonl")).items():
        expected = os.path.join(ROOT, "samples", os.path.splitext(file)[0] + ".expected.json")
        kind = json.load(open(expected)).get("kind") if os.path.exists(expected) else None
        if kind in ("card", "receipt"):
            samples.append((file, e, 1 if kind == "receipt" else 0, None))
    sets["samples"] = samples
    return sets


def expanded(base, degree):
    """The model's features: the base ones and, at degree 2, every product of two (`a*b`)."""
    names = list(FEATURES)
    values = list(base)
    if degree == 2:
        for i in range(len(FEATURES)):
            for j in range(i, len(FEATURES)):
                names.append(f"{FEATURES[i]}*{FEATURES[j]}")
                values.append(base[i] * base[j])
    return names, values


def matrix(rows, degree):
    return np.array([expanded(features(e), degree)[1] for _, e, _, _ in rows])


def fit(rows, degree, c):
    x = matrix(rows, degree)
    y = np.array([label for _, _, label, _ in rows])
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=20000).fit(scaler.transform(x), y)
    return scaler, model


def predict(fitted, rows, degree):
    if not rows:
        return np.array([])
    scaler, model = fitted
    return model.predict_proba(scaler.transform(matrix(rows, degree)))[:, 1]


def written_probability(out, evidence, degree):
    """P(receipt) from the parameters as written (rounded), as KindModel computes it."""
    z = out["bias"]
    for w, m, sd, x in zip(out["weights"], out["mean"], out["scale"], expanded(features(evidence), degree)[1]):
        z += w * (x - m) / sd
    return 1 / (1 + math.exp(-z))


def choose(sroie, synthetic):
    """Degree and C by cross-validated log-loss on the training data alone: SROIE by its folds,
    the generated training sets in five seeded folds."""
    rng = random.Random(20261125)
    folds = {id(r): rng.randrange(5) for r in synthetic}
    best = None
    for degree in (1, 2):
        for c in (0.1, 1.0, 10.0):
            loss = 0.0
            for k in range(5):
                train = [r for r in sroie if r[3] != k] + [r for r in synthetic if folds[id(r)] != k]
                test = [r for r in sroie if r[3] == k] + [r for r in synthetic if folds[id(r)] == k]
                p = np.clip(predict(fit(train, degree, c), test, degree), 1e-6, 1 - 1e-6)
                y = np.array([label for _, _, label, _ in test])
                loss -= float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))
            if best is None or loss < best[0]:
                best = (loss, degree, c)
    return best[1], best[2]


def accuracy(rows, p):
    right = sum(1 for (_, _, label, _), q in zip(rows, p) if (q >= 0.5) == (label == 1))
    return right, len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evidence", required=True, help="folder with ev-<set>/records.jsonl")
    ap.add_argument("--write", help="write the fitted model here")
    ap.add_argument("--report", help="write the markdown report here")
    ap.add_argument("--score", action="append", default=[], metavar="SET=KIND",
                    help="also score ev-SET/records.jsonl (all card or all receipt) with the fitted model, "
                    "e.g. a held-out set rendered with fresh seeds; repeatable")
    args = ap.parse_args()
    sets = load_sets(args.evidence)
    for name, rows in sets.items():
        if not rows:
            sys.exit(f"fit_kind: no evidence for {name} in {args.evidence}")
    missing = [f for f, _, _, fold in sets["sroie"] if fold is None]
    if missing:
        sys.exit(f"fit_kind: {len(missing)} SROIE receipts have no fold, e.g. {missing[0]}")
    synthetic = sets["rcpt-train"] + sets["cards-train"]
    degree, c = choose(sets["sroie"], synthetic)
    lines = [f"Chosen by cross-validation on the training data: degree {degree}, C = {c}.", ""]
    lines += ["| set | right | of | accuracy |", "|---|---|---|---|"]
    wrong = []
    # Cross-validated SROIE: fold k scored by a model fitted without fold k.
    cv_right = cv_total = 0
    for k in sorted({fold for _, _, _, fold in sets["sroie"]}):
        train = [r for r in sets["sroie"] if r[3] != k] + synthetic
        test = [r for r in sets["sroie"] if r[3] == k]
        p = predict(fit(train, degree, c), test, degree)
        right, total = accuracy(test, p)
        cv_right += right
        cv_total += total
        wrong += [(f"sroie fold {k}", f, q) for (f, _, label, _), q in zip(test, p) if (q >= 0.5) != (label == 1)]
        lines.append(f"| SROIE fold {k} (cross-validated) | {right} | {total} | {right / total:.1%} |")
    lines.append(f"| **SROIE, 5 folds pooled (cross-validated)** | {cv_right} | {cv_total} | {cv_right / cv_total:.1%} |")
    for v in ("original", "margins", "half"):
        rows = [r for r in sets["sroie"] if variant(r[0]) == v]
        bad = sum(1 for where, f, _ in wrong if where.startswith("sroie") and variant(f) == v)
        lines.append(f"| SROIE cross-validated, {v} | {len(rows) - bad} | {len(rows)} | {(len(rows) - bad) / len(rows):.1%} |")
    scaler, model = fit(sets["sroie"] + synthetic, degree, c)
    figures = {"sroie_cv": f"{cv_right}/{cv_total}"}
    for extra in args.score:
        name, kind = extra.split("=")
        evidence = read_evidence(os.path.join(args.evidence, f"ev-{name}", "records.jsonl"))
        sets[name] = [(f, e, 1 if kind == "receipt" else 0, None) for f, e in evidence.items()]
    scored = [extra.split("=")[0] for extra in args.score]
    for name in ("german", "rcpt-heldout", "cards-heldout", "samples", *scored, "rcpt-train", "cards-train"):
        rows = sets[name]
        p = predict((scaler, model), rows, degree)
        right, total = accuracy(rows, p)
        role = "training" if name.endswith("-train") else "held out"
        lines.append(f"| {name} ({role}) | {right} | {total} | {right / total:.1%} |")
        figures[name] = f"{right}/{total}"
        if role == "held out":
            wrong += [(name, f, q) for (f, _, label, _), q in zip(rows, p) if (q >= 0.5) != (label == 1)]
    weights = [round(float(w), 6) for w in model.coef_[0]]
    lines += ["", "| feature | weight (standardised) |", "|---|---|"]
    names = expanded([0] * len(FEATURES), degree)[0]
    lines += [f"| {n} | {w:+.3f} |" for n, w in zip(names, weights)]
    lines += ["", "Wrong on held-out data (P(receipt)):", ""]
    lines += [f"- {where}: `{f}` {q:.2f}" for where, f, q in wrong]
    report = "\n".join(lines) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(report)
    print(report)
    if args.write:
        about = (
            f"Fitted by bench/kind/fit_kind.py (logistic regression, degree {degree}, C={c}, chosen by "
            "cross-validation on the training data; balanced classes) on the "
            "345 SROIE receipts (sroie_dev + sroie) as scanned, with wide margins and in halves, 240 rendered receipts and their halves (--split train, seeds 11 and 12) "
            "and 1516 generated cards (bench/gen/cards.py --split train: 300 mixed, seed 11; 300 screenshots, seed 12; 200 photos, seed 13; "
            "200 screenshots with 6-16 detail rows, seed 14; 240 mixed backs and gift cards with 6-24 lines of small print, seed 15; "
            "scripts/render_samples.py --issuers, seed 501: 276)."
        )
        out = {
            "version": 1,
            "features": names,
            "mean": [round(float(v), 6) for v in scaler.mean_],
            "scale": [round(float(v), 6) for v in scaler.scale_],
            "weights": weights,
            "bias": round(float(model.intercept_[0]), 6),
            "training": {"about": about, **{f"right_{k}": v for k, v in figures.items()}},
        }
        # A few photos with the probability this fit gives them: the Swift test recomputes them.
        examples = [sets["sroie"][0], sets["cards-train"][0], sets["rcpt-train"][0], sets["cards-train"][-1]]
        out["examples"] = [
            {"evidence": e, "receipt_probability": round(written_probability(out, e, degree), 6)}
            for _, e, _, _ in examples
        ]
        with open(args.write, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
