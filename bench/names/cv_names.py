#!/usr/bin/env python3
"""Chooses how the card-name model is fitted by cross-validation on training cards only (a bench
tool, never the product): the cards of the `--train` logs are cut into K folds by a fixed seed, each
way of fitting (fit_names.fit with its regularisation C, per candidate or per card) is fitted on K-1
folds and scored on the fold left out with its own threshold, re-reading confidence and Cyrillic
choice, and the exact names are summed over the folds. The held-out sets are never read here.

    python bench/names/cv_names.py --train LOG=DIR ... [--folds 5] [--seed 24] [--objectives candidate,card] [--keep-cyrillic MODEL]
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402


def folds(count, k, seed):
    """Fold number per card: a fixed shuffle, so every way of fitting sees the same folds."""
    order = np.random.default_rng(seed).permutation(count)
    fold = np.empty(count, dtype=int)
    fold[order] = np.arange(count) % k
    return fold


class Shipped:
    """A name-model.json as fit_names.score takes it: the model (standardising inside), an identity
    scaler and the Cyrillic choice."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
        assert m["features"] == F.FEATURES, "the model's features are not fit_names.FEATURES"
        self.mean, self.scale, self.w, self.b = (np.array(m[k]) for k in ("mean", "scale", "weights", "bias"))
        self.threshold, self.reread = m["threshold"], m["reread_confidence"]
        self.cyrillic = Choice(m["cyrillic"]) if m.get("cyrillic") else None

    def transform(self, x):
        return x

    def predict_proba(self, x):
        p = 1 / (1 + np.exp(-(((x - self.mean) / self.scale) @ self.w + self.b)))
        return np.column_stack([1 - p, p])


class Choice:
    """A stored CyrillicChoice."""

    def __init__(self, c):
        self.c = c

    def takes(self, candidate):
        m = F.cyrillic_measurements(candidate)
        x = (np.array([m[n] for n in self.c["features"]]) - self.c["mean"]) / np.array(self.c["scale"])
        return 1 / (1 + np.exp(-(x @ np.array(self.c["weights"]) + self.c["bias"]))) >= self.c["threshold"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--C", default="0.1,0.3,1,3,10")
    ap.add_argument("--model", help="also score this name-model.json on all the training cards (no folds)")
    ap.add_argument("--objectives", default="candidate,card")
    ap.add_argument("--keep-cyrillic", metavar="MODEL",
                    help="every fit keeps this name-model.json's Cyrillic choice instead of refitting it")
    args = ap.parse_args()
    cards = F.load(args.train)
    if args.model:
        m = Shipped(args.model)
        e, z, _, total = F.score([c for c in cards if c[0]["name"]], m, m, m.threshold, m.reread, m.cyrillic)
        print(f"{args.model}: exact {e}/{total}  fuzzy≥0.8 {z}/{total} (fitted on other logs, not folded)")
    fold = folds(len(cards), args.folds, args.seed)
    named = sum(1 for t, _ in cards if t["name"])
    kept = Choice(json.load(open(args.keep_cyrillic, encoding="utf-8"))["cyrillic"]) if args.keep_cyrillic else None
    for objective in args.objectives.split(","):
        for C in (float(c) for c in args.C.split(",")):
            exact = fuzzy = 0
            for k in range(args.folds):
                train = [c for c, f in zip(cards, fold) if f != k]
                test = [c for c, f in zip(cards, fold) if f == k and c[0]["name"]]
                model, scaler, threshold, reread, cyrillic = F.fit(train, C, objective)
                cyrillic = kept or cyrillic
                e, z, _, _ = F.score(test, model, scaler, threshold, reread, cyrillic)
                exact, fuzzy = exact + e, fuzzy + z
            print(f"{objective:9s} C={C:<5g} exact {exact}/{named}  fuzzy≥0.8 {fuzzy}/{named}", flush=True)


if __name__ == "__main__":
    main()
