#!/usr/bin/env python3
"""Items and total of two runs side by side on the rendered receipts both runs read (a bench tool,
never the product): precision, recall and F1 of the items by score_rendered's rule, the total
right, and each receipt whose items or total differ, with the run's notes on item amounts.

    compare_items.py DIR BEFORE_OUT AFTER_OUT [MORE_AFTER_OUT ...]

DIR holds NAME.jpg + NAME.json as bench/gen/receipts.py writes them. An OUT folder's records are
read from records.jsonl and from .snapsort/journal.jsonl, so a run still going (or stopped) is
compared on what it has read. Several AFTER folders (a run split over subsets) are pooled.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount  # noqa: E402
from score_rendered import item_counts  # noqa: E402


def load(folders):
    out = {}
    for folder in folders:
        for name in ("records.jsonl", ".snapsort/journal.jsonl"):
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                continue
            for line in open(path, encoding="utf-8"):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a journal's last line while the run writes it
                if "file" in record:
                    out[os.path.basename(record["file"])] = record
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    folder, before, after = sys.argv[1], load([sys.argv[2]]), load(sys.argv[3:])
    common = sorted(set(before) & set(after))
    sums = {"before": [0, 0, 0, 0], "after": [0, 0, 0, 0]}
    for name in common:
        truth = json.load(open(os.path.join(folder, name.rsplit(".", 1)[0] + ".json"), encoding="utf-8"))
        counts = {}
        for label, run in (("before", before), ("after", after)):
            receipt = run[name].get("receipt") or {}
            tp, fp, fn = item_counts(truth["items"], receipt.get("items"))
            right = amount(receipt.get("total")) == amount(truth.get("total"))
            counts[label] = (tp, fp, fn, right)
            sums[label] = [s + c for s, c in zip(sums[label], (tp, fp, fn, right))]
        a, b = before[name].get("receipt") or {}, after[name].get("receipt") or {}
        if a.get("items") != b.get("items") or a.get("total") != b.get("total"):
            notes = [n for n in after[name].get("notes") or [] if "item" in n]
            print(f"{name}: tp/fp/fn/total {counts['before']} -> {counts['after']} {notes}")
    for label, (tp, fp, fn, right) in sums.items():
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        print(f"{label}: {len(common)} receipts, items tp {tp} fp {fp} fn {fn}, P {p:.3f} R {r:.3f} "
              f"F1 {f1:.3f}, total right {right}")


if __name__ == "__main__":
    main()
