#!/usr/bin/env python3
"""Whether one block reading of the page gives the date of a training receipt that main's
records leave without one (a bench tool, never the product; issue #23).

    date_fallback.py --set IMAGES RECORDS.jsonl [--set ...] --work DIR
                     [--variants psm6,psm11,...] [--snapsort BIN] [--jobs 2]

IMAGES: a folder of training receipts with their truth `NAME.json`; RECORDS: main's records of
the same receipts (a receipts-preset run). Held-out receipts are refused (`total_readings.py`'s
rule: fold 4 and the German 14 by `folds.json`, renders named `rcpt-heldout-`).

Only receipts whose truth has a date and whose record has none are read. Each is read again by
the tesseract CLI as `total_readings.py` reads it (the image as loaded, in grey; readings cached
in DIR/SET/VARIANT and shared with that script's layout), and the receipt stage's extractor
chooses the date on the reading's word boxes (`snapsort receipt-text --json`), as a fallback
inside the stage would. Per set and variant: right / wrong / still none, and the net gain of a
fallback gated on "no date" (right minus wrong); with --list, each receipt's outcome.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import stem  # noqa: E402
from split import heldout  # noqa: E402
from total_readings import read_variants, receipts_read, training_images  # noqa: E402


def dates(snapsort, folder):
    """{stem: (date or None, field dict)} of the extractor on a folder of readings."""
    return {
        s: (receipt.get("date"), (receipt.get("fields") or {}).get("date") or {})
        for s, receipt in receipts_read(snapsort, folder).items()
    }


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", nargs=2, action="append", metavar=("IMAGES", "RECORDS"), required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--variants", default="psm6,psm11,psm6x07,psm4x07")
    ap.add_argument("--snapsort", default=".build/release/snapsort")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    held = heldout()

    cases = {}
    for images, records in args.set:
        label = os.path.basename(os.path.normpath(images))
        got = {}
        for line in open(records, encoding="utf-8"):
            r = json.loads(line)
            got[stem(r["file"])] = (r.get("receipt") or {}).get("date")
        rows = []
        for s, path in training_images(images, held):
            want = json.load(open(os.path.join(images, s + ".json"))).get("date")
            if want is None or s not in got or got[s] is not None:
                continue
            rows.append((s, path, want))
        cases[label] = rows

    read_variants(args.work, {label: [path for _, path, _ in rows] for label, rows in cases.items()}, variants,
                  args.jobs)

    print("| set | receipts with no date | variant | right | wrong | none | net |")
    print("|---|---|---|---|---|---|---|")
    for label, rows in cases.items():
        for variant in variants:
            folder = os.path.join(args.work, label, variant)
            found = dates(args.snapsort, folder)
            c = collections.Counter()
            for s, _, want in rows:
                date, field = found.get(s, (None, {}))
                verdict = "none" if date is None else ("right" if date == want else "wrong")
                c[verdict] += 1
                if args.list and verdict != "none":
                    print(f"  {label} {variant} {s}: {verdict} {date} for {want} "
                          f"(conf {field.get('confidence')})")
            print(f"| {label} | {len(rows)} | {variant} | {c['right']} | {c['wrong']} | {c['none']} | "
                  f"{c['right'] - c['wrong']:+d} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
