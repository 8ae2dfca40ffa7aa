#!/usr/bin/env python3
"""Fixes the held-out split of the real receipts (a bench tool, never the product).

    split.py [--data ../shared/data/receipts] [--seed 20261125] [--out bench/receipts/folds.json]
    split.py --check            # re-derive the split and fail if folds.json differs

The rule, fixed before any tuning on sroie_dev:
  * the 345 SROIE receipts are `sroie/` (45, the ones the receipt fields were tuned on) and
    `sroie_dev/` (300); file stems are unique across the two folders;
  * receipts of one merchant stay in one fold, because SROIE repeats shops (one bakery chain 35
    times, a hardware chain 35, a minimart 23) and a fold that shares a shop's layout with the
    training folds measures a seen layout. The merchant group of a receipt: its labelled
    merchant upper-cased, parenthesised parts and legal words (SDN BHD, S/B, BHD, ENTERPRISE,
    TRADING, CO, LTD, PLT, M) dropped, letters and digits kept; groups whose keys have difflib
    ratio >= 0.85 are merged (label typos: `RSTORAN`/`RESTORAN`). 143 groups;
  * the groups, sorted by key, are shuffled with `random.Random(SEED)`, then stably sorted by
    size (largest first) and dealt one by one to the fold with the fewest receipts (ties: the
    fewest tuned-on receipts, then the lowest fold number): five folds of 69 receipts;
  * the 14 German receipts of `softmatic_de/` are "test" only: never tuned on, reported apart.

folds.json lists stems, folds, folders and group numbers only (no labels: the data is not
redistributable), plus per stem whether its merchant group holds any of the 45 tuned-on
receipts (`seen_merchant`): sroie_dev receipts of a merchant never in sroie/ are the unseen-shop
figure of a binary tuned on sroie/.

Tune on four folds, look at the fifth only for the figure you report; report all five folds
(cross-validated) and the German 14.
"""
import argparse
import difflib
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEED = 20261125
FOLDS = 5
LEGAL = re.compile(r"\b(SDN\.?\s*BHD\.?|S/B|BHD|SDN|ENTERPRISES?|TRADING|CO\.?|LTD|PLT|M)\b")


def stems(folder):
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))


def merchant_key(merchant):
    text = re.sub(r"\(.*?\)", " ", (merchant or "").upper())
    return re.sub(r"[^A-Z0-9]", "", LEGAL.sub(" ", text)).lower()


def group_merchants(keys):
    keys = sorted(set(keys))
    parent = {k: k for k in keys}

    def find(k):
        while parent[k] != k:
            k = parent[k]
        return k

    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if difflib.SequenceMatcher(None, a, b).ratio() >= 0.85:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
    return {k: find(k) for k in keys}


def make_split(data, seed=SEED):
    source, key = {}, {}
    for sub in ("sroie", "sroie_dev"):
        for name in stems(os.path.join(data, sub)):
            if name in source:
                raise SystemExit(f"stem {name} is in two folders")
            source[name] = sub
            truth = json.load(open(os.path.join(data, sub, name + ".json"), encoding="utf-8"))
            key[name] = merchant_key(truth.get("merchant"))
    root_of = group_merchants(key.values())
    members = {}
    for name in sorted(source):
        members.setdefault(root_of[key[name]], []).append(name)
    roots = sorted(members)
    random.Random(seed).shuffle(roots)
    roots.sort(key=lambda r: -len(members[r]))  # stable: the shuffle breaks ties between sizes
    size, tuned = [0] * FOLDS, [0] * FOLDS
    fold_of, group_of, seen = {}, {}, {}
    for number, root in enumerate(roots):
        names = members[root]
        n_tuned = sum(source[n] == "sroie" for n in names)
        k = min(range(FOLDS), key=lambda f: (size[f], tuned[f], f))
        size[k] += len(names)
        tuned[k] += n_tuned
        for name in names:
            fold_of[name], group_of[name], seen[name] = k, number, n_tuned > 0
    test = stems(os.path.join(data, "softmatic_de"))
    return {
        "seed": seed,
        "folds": FOLDS,
        "rule": "merchant groups (labelled merchant, parentheses and legal words dropped, alnum, keys with ratio >= 0.85 merged), "
                "sorted, random.Random(seed).shuffle, stable sort by size descending, each to the fold with the fewest receipts "
                "(then fewest tuned-on, then lowest number); softmatic_de = test",
        "counts": {"sroie": sum(1 for s in source.values() if s == "sroie"),
                   "sroie_dev": sum(1 for s in source.values() if s == "sroie_dev"),
                   "groups": len(roots), "test": len(test),
                   "per_fold": size, "tuned_per_fold": tuned},
        "sroie": {name: {"fold": fold_of[name], "folder": source[name], "group": group_of[name], "seen_merchant": seen[name]}
                  for name in sorted(source)},
        "test": {name: {"folder": "softmatic_de"} for name in test},
    }


def load(path=os.path.join(HERE, "folds.json")):
    """stem -> fold (0..4) or "test"."""
    split = json.load(open(path, encoding="utf-8"))
    out = {name: v["fold"] for name, v in split["sroie"].items()}
    out.update({name: "test" for name in split["test"]})
    return out


def heldout(path=os.path.join(HERE, "folds.json")):
    """The held-out receipts' stems: fold 4 and the German test."""
    return {name for name, fold in load(path).items() if fold in (4, "test")}


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
    c = split["counts"]
    print(f"wrote {args.out}: {c['groups']} merchant groups, folds {c['per_fold']} (tuned-on {c['tuned_per_fold']}), test {c['test']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
