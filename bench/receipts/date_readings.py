#!/usr/bin/env python3
"""Which of the stage's second readings decided a date, and whether it helped (a bench tool).

    date_readings.py RECORDS.jsonl REPLAY.jsonl [--show] [--data ../shared/data/receipts]

RECORDS: a receipts-preset run's records.jsonl; REPLAY: `snapsort receipt-text --records
RECORDS --json` over them, the date the page rows alone give. For each receipt whose date field
came from another reading (`block`: the page read again as one block; `line`: the date line's
re-reads; `raw`: the raw scan's reading), counts the page's date against the final one: gained
(the reading made it right), lost (the page was right, the reading made it wrong), both wrong,
and, for `block`, whether the two dates differ in one character. Training receipts only (SROIE
folds 0-3 of folds.json); fold 4 and the German 14 are skipped. --show prints each receipt.
"""
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from date_changes import arguments  # noqa: E402
from score import read_predictions, stem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args, data, show = arguments("--show", __doc__)
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))["sroie"]
    replay = read_predictions([args[1]])
    counts = Counter()
    for line in open(args[0], encoding="utf-8"):
        record = json.loads(line)
        s = stem(record["file"])
        if s not in split or split[s]["fold"] == 4:
            continue
        receipt = record.get("receipt") or {}
        field = (receipt.get("fields") or {}).get("date") or {}
        reading = field.get("reading")
        if not reading:
            continue
        path = os.path.join(data, split[s]["folder"], s + ".json")
        want = json.load(open(path, encoding="utf-8")).get("date")
        page, final = replay.get(s, {}).get("date"), receipt.get("date")
        outcome = (
            "kept right" if page == want and final == want
            else "gained" if final == want
            else "lost" if page == want
            else "both wrong"
        )
        near = ""
        if reading == "block" and page and final:
            apart = sum(a != b for a, b in zip(page, final))
            near = ", one character apart" if apart == 1 else ", further apart"
        counts[(reading, outcome + near)] += 1
        if show:
            print(f"{s}: {reading}: page {page} -> {final}, want {want}: {outcome} | {field.get('source')}")
    print("| reading | outcome | receipts |\n|---|---|---|")
    for (reading, outcome), n in sorted(counts.items()):
        print(f"| {reading} | {outcome} | {n} |")


if __name__ == "__main__":
    main()
