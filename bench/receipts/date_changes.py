#!/usr/bin/env python3
"""Two runs' dates side by side on the real receipts (a bench tool, never the product).

    date_changes.py BEFORE.jsonl AFTER.jsonl [--heldout] [--data ../shared/data/receipts]

BEFORE, AFTER: records.jsonl of two runs, or `snapsort receipt-text --records RECORDS --json`
over them (two binaries on the same page rows). Prints the dates right before and after and each
receipt whose date changed, with the label. Training receipts only (SROIE folds 0-3 of
folds.json); --heldout scores fold 4 and the German 14 instead, once, after training gained.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import read_predictions  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def truths(heldout, data):
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))
    wanted = {s: e["folder"] for s, e in split["sroie"].items() if (e["fold"] == 4) == heldout}
    if heldout:
        wanted.update({s: e["folder"] for s, e in split["test"].items()})
    out = {}
    for s, folder in wanted.items():
        path = os.path.join(data, folder, s + ".json")
        if os.path.exists(path):
            out[s] = json.load(open(path, encoding="utf-8")).get("date")
    return out


def arguments(flag, usage):
    """The two paths, the receipts data folder (`--data`, else ../shared next to the checkout) and
    whether `flag` was given; exits with `usage` unless exactly two paths are left."""
    args = sys.argv[1:]
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "shared", "data", "receipts")
    if "--data" in args:
        i = args.index("--data")
        data = args[i + 1]
        del args[i : i + 2]
    given = flag in args
    args = [a for a in args if a != flag]
    if len(args) != 2:
        sys.exit(usage)
    return args, data, given


def main():
    args, data, heldout = arguments("--heldout", __doc__)
    before, after = (read_predictions([p]) for p in args)
    truth = truths(heldout, data)
    stems = sorted(s for s in truth if s in before or s in after)
    right = [0, 0]
    changed = []
    for s in stems:
        b, a = before.get(s, {}).get("date"), after.get(s, {}).get("date")
        right[0] += b == truth[s]
        right[1] += a == truth[s]
        if a != b:
            changed.append((s, truth[s], b, a))
    print(f"{'held out' if heldout else 'training'} receipts: {len(stems)}")
    print(f"date right: before {right[0]}, after {right[1]}")
    for s, want, b, a in changed:
        mark = "+" if a == want else "-" if b == want else "="
        print(f"  {mark} {s}: want {want}, before {b}, after {a}")


if __name__ == "__main__":
    main()
