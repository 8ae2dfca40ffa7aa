#!/usr/bin/env python3
"""Fits the column-heading words of receipts' item lists (`ItemHeading.words`), a bench
tool: the words that stand in the rows over a receipt's first item (`ITEM QTY RSP AMOUNT`,
`Menge Artikel Preis Betrag`, `CASHIER : …`) more often than in its item rows.

    fit_headings.py LINES_DIR [LINES_DIR …] [--sroie ../shared/data/receipts]

ItemHeading.words was fitted with `fit_headings.py W/l91` after
`family_lines.py W/l91 --count 400 --seed 91 --families plain,qty_below,qty_before,columns,
sku_multiline,discount_lines,tax_codes,indexed,dot_leaders,long_names,qty_columns` (the eleven
train families before `cut_names` was added; re-run 2026-11-27 on main 8dab1c9: the same 102 words).

Evidence, training data only: the true lines of `sroie_dev` folds 0-3 (`folds.json`; fold 4 and
the German 14 are never read) and the printed lines of `--split train` renders written by
`family_lines.py` (refuses held-out families). Each is counted by source group, so no one shop or
render makes a word: a SROIE merchant group counts once, a render once.
* SROIE: the three rows over the first priced row that is no date row ("above"), against the
  priced rows below it ("items").
* renders: the rows over the first item's amount row that are no part of the first item's
  description ("above"), against every item's true description ("items").
A word of 2+ letters is a heading word when it is "above" in at least `--support` groups and in
more groups above than in item rows, overall and on each side where it stands above.
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import true_lines  # noqa: E402

AMOUNT = re.compile(r"\d[.,]\s?\d{2}\b")
DATE = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}")


def words(text):
    return {w for w in (re.sub(r"[^\w]|_", "", t).upper() for t in text.split() if not re.search(r"\d", t)) if len(w) >= 2}


def sroie(root, above, items):
    folds = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))["sroie"]
    for stem, info in sorted(folds.items()):
        if info["folder"] != "sroie_dev" or info["fold"] == 4:
            continue
        path = os.path.join(root, "sroie_dev", stem + ".lines.csv")
        if not os.path.exists(path):
            continue
        rows = true_lines.read_rows(path)
        priced = [i for i, r in enumerate(rows) if AMOUNT.search(r) and not DATE.search(r)]
        if not priced:
            continue
        group = f"sroie:{info['group']}"
        for row in rows[max(0, priced[0] - 3):priced[0]]:
            for w in words(row):
                above[w].add(group)
        for i in priced:
            for w in words(rows[i]):
                items[w].add(group)


def train_truths(folder):
    """NAME.json truths of `folder`, refusing any render not of the train split."""
    truths = {name: json.load(open(os.path.join(folder, name), encoding="utf-8"))
              for name in sorted(os.listdir(folder)) if name.endswith(".json")}
    refused = [name for name, truth in truths.items() if truth.get("split") != "train"]
    if refused:
        sys.exit(f"train renders only: {refused[:3]}")
    return truths


def renders(folder, above, items):
    for name, truth in train_truths(folder).items():
        lines = truth["lines"]
        first = truth["items"][0]
        amount = first["amount"]
        shapes = {amount, amount.replace(".", ",")}
        at = next((i for i, l in enumerate(lines) if any(l.rstrip().endswith(s) or f"{s} " in l for s in shapes)), None)
        if at is None:
            continue
        own = words(first["description"])
        group = f"render:{name}"
        for line in lines[max(0, at - 4):at]:
            found = words(line)
            if found and not found <= own:
                for w in found - own:
                    above[w].add(group)
        for item in truth["items"]:
            for w in words(item["description"]):
                items[w].add(group)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("renders", nargs="*")
    parser.add_argument("--sroie", default=os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts"))
    parser.add_argument("--support", type=int, default=3)
    args = parser.parse_args()
    above, items = collections.defaultdict(set), collections.defaultdict(set)
    sroie(args.sroie, above, items)
    for folder in args.renders:
        renders(folder, above, items)
    chosen = []
    for word, groups in sorted(above.items()):
        if len(groups) < args.support:
            continue
        sides = {g.split(":")[0] for g in groups}
        if len(groups) > len(items[word]) and all(
                sum(g.startswith(s) for g in groups) > sum(g.startswith(s) for g in items[word]) for s in sides):
            chosen.append((word, len(groups), len(items[word])))
    for word, a, i in sorted(chosen, key=lambda c: -c[1]):
        print(f"{word:16} above {a:4}  items {i:4}", file=sys.stderr)
    # Lower-cased, as ItemHeading.words holds them.
    print(json.dumps(sorted(w.lower() for w, _, _ in chosen), ensure_ascii=False))


if __name__ == "__main__":
    main()
