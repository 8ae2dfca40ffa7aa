#!/usr/bin/env python3
"""Fixes the held-out split of the real receipts (a bench tool, never the product).

    split.py [--data ../shared/data/receipts] [--seed 20261125] [--out bench/receipts/folds.json]
    split.py --check            # re-derive the split and fail if folds.json differs

The rule, fixed before any tuning on sroie_dev:
  * the 345 SROIE receipts are `sroie/` (45, the ones the receipt fields were tuned on) and
    `sroie_dev/` (300); file stems are unique across the two folders;
  * each folder's stems are sorted, then shuffled with `random.Random(SEED)` (one generator,
    `sroie/` first), and dealt round-robin into folds 0..4, the counter running on from one
    folder to the next: every fold holds 9 of the 45 tuned-on receipts and 60 of sroie_dev
    (69 in all);
  * the 14 German receipts of `softmatic_de/` are "test" only: never tuned on, reported apart.

Tune on four folds, look at the fifth only for the figure you report; report all five folds
(cross-validated) and the German 14. Only stems are written: the data itself is not
redistributable and never enters the repository.
"""
import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEED = 20261125
FOLDS = 5


def stems(folder):
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json") and not n.endswith(".lines.json"))


def make_split(data, seed=SEED):
    rng = random.Random(seed)
    folds, source = {}, {}
    counter = 0
    for sub in ("sroie", "sroie_dev"):
        names = stems(os.path.join(data, sub))
        rng.shuffle(names)
        for name in names:
            if name in folds:
                raise SystemExit(f"stem {name} is in two folders")
            folds[name] = counter % FOLDS
            source[name] = sub
            counter += 1
    test = stems(os.path.join(data, "softmatic_de"))
    return {
        "seed": seed,
        "folds": FOLDS,
        "rule": "per folder (sroie, then sroie_dev): sorted stems, random.Random(seed).shuffle (one generator), "
                "dealt round-robin into folds 0..4 with the counter running on across folders; softmatic_de = test",
        "counts": {"sroie": sum(1 for s in source.values() if s == "sroie"),
                   "sroie_dev": sum(1 for s in source.values() if s == "sroie_dev"),
                   "test": len(test)},
        "sroie": {name: {"fold": folds[name], "folder": source[name]} for name in sorted(folds)},
        "test": {name: {"folder": "softmatic_de"} for name in test},
    }


def load(path=os.path.join(HERE, "folds.json")):
    """stem -> fold (0..4) or "test"."""
    split = json.load(open(path, encoding="utf-8"))
    out = {name: v["fold"] for name, v in split["sroie"].items()}
    out.update({name: "test" for name in split["test"]})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "data", "receipts"))
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default=os.path.join(HERE, "folds.json"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    split = make_split(args.data, args.seed)
    text = json.dumps(split, indent=1, sort_keys=True) + "\n"
    if args.check:
        same = os.path.exists(args.out) and open(args.out, encoding="utf-8").read() == text
        print("folds.json matches the rule" if same else "folds.json differs from the rule")
        return 0 if same else 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    per_fold = [sum(1 for v in split["sroie"].values() if v["fold"] == k) for k in range(FOLDS)]
    print(f"wrote {args.out}: folds {per_fold}, test {len(split['test'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
