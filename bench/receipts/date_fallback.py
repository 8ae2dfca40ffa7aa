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
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import stem  # noqa: E402
from total_readings import heldout_stems, read_one  # noqa: E402


def dates(snapsort, folder):
    """{stem: (date or None, field dict)} of the extractor on a folder of readings."""
    out = {}
    proc = subprocess.run([snapsort, "receipt-text", folder, "--json"], capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        r = json.loads(line)
        receipt = r.get("receipt") or {}
        out[stem(r["file"])] = (receipt.get("date"), (receipt.get("fields") or {}).get("date") or {})
    return out


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
    held = heldout_stems()

    cases = {}
    for images, records in args.set:
        label = os.path.basename(os.path.normpath(images))
        got = {}
        for line in open(records, encoding="utf-8"):
            r = json.loads(line)
            got[stem(r["file"])] = (r.get("receipt") or {}).get("date")
        rows = []
        for name in sorted(os.listdir(images)):
            if not name.endswith(".jpg"):
                continue
            s = stem(name)
            if s in held or "heldout" in s:
                sys.exit(f"refused: {s} is held out")
            want = json.load(open(os.path.join(images, s + ".json"))).get("date")
            if want is None or s not in got or got[s] is not None:
                continue
            rows.append((s, os.path.join(images, name), want))
        cases[label] = rows

    jobs = []
    for label, rows in cases.items():
        for variant in variants:
            folder = os.path.join(args.work, label, variant)
            os.makedirs(folder, exist_ok=True)
            jobs += [(path, variant, folder) for _, path, _ in rows]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda j: read_one(*j), jobs))

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
