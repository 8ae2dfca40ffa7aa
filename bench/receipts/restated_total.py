#!/usr/bin/env python3
"""Two runs of the same receipts side by side: total/date/merchant right per run (score.py's rules)
and every receipt whose total changed, with the truth and the reading each total came from.

    restated_total.py DATASET_DIR BEFORE/records.jsonl AFTER/records.jsonl

Written for issue #23's lead (a subtotal row that another reading takes as a confirmed total,
bench/receipts/total33-restated.patch); any two runs of one set work.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from score import amount, field_hits, read_predictions  # noqa: E402


def main(data, before_path, after_path):
    before, after = read_predictions([before_path]), read_predictions([after_path])
    names = sorted(set(before) | set(after))
    truth = {n: json.load(open(os.path.join(data, n + ".json"), encoding="utf-8")) for n in names}
    print(f"{len(names)} receipts ({len(before)} before, {len(after)} after)\n")
    print("| field | before | after |\n|---|---|---|")
    for field in ("total", "date", "merchant"):
        cells = []
        for run in (before, after):
            hits = [field_hits(truth[n], run.get(n, {})).get(field) for n in names]
            scored = [h for h in hits if h is not None]
            cells.append(f"{sum(scored)}/{len(scored)}")
        print(f"| {field} | {cells[0]} | {cells[1]} |")
    print("\n| receipt | truth | before (reading) | after (reading) | change |\n|---|---|---|---|---|")
    for n in names:
        b, a = before.get(n, {}), after.get(n, {})
        if amount(b.get("total")) == amount(a.get("total")):
            continue
        t = amount(truth[n].get("total"))
        ok_b, ok_a = amount(b.get("total")) == t, amount(a.get("total")) == t
        change = "fixed" if ok_a and not ok_b else "broken" if ok_b and not ok_a else "both wrong"

        def cell(r):
            reading = ((r.get("fields") or {}).get("total") or {}).get("reading") or "page"
            return f"{r.get('total')} ({reading})"

        print(f"| {n} | {truth[n].get('total')} | {cell(b)} | {cell(a)} | {change} |")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
