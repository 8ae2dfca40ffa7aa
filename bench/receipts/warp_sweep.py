#!/usr/bin/env python3
"""receipt_warp's options swept on rendered TRAINING receipts (a bench tool, never the product).

    warp_sweep.py --variant NAME:KEY=VALUE,KEY=VALUE [--variant ...] DIR [DIR ...]
                  [--work bench/work/warp-sweep] [--capture photo_crumpled] [--summary]

Each variant is a config that differs from presets/receipts.json only in the receipt_warp options
it names (`base:` with nothing after the colon is the preset itself). The renders of the DIRs
(`bench/gen/receipts.py --split train` output; a held-out render is refused), optionally only those
of one capture, are linked into WORK/images, and snapsort runs every variant over them at --jobs 1
with OMP_THREAD_LIMIT=1 (SNAPSORT names the binary; run from the repository root). `--summary`
only scores runs already made. Printed per variant: item F1, total, date and merchant
(score_rendered.py's rules), receipts whose page read almost nothing (under a third of the printed
lines found among the OCR rows, difflib ratio >= 0.8: the paper was not found whole), and the
receipt_warp and receipt stages' CPU p95 from run.json. Pick on these training renders only.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from score_rendered import item_counts  # noqa: E402
from ocr_loss import train_renders  # noqa: E402
from score import amount, merchant_ok  # noqa: E402


def squash(text):
    return re.sub(r"[^0-9a-z]", "", (text or "").lower())


def parse_variant(text):
    name, _, body = text.partition(":")
    options = {}
    for pair in filter(None, body.split(",")):
        key, _, value = pair.partition("=")
        options[key] = json.loads(value)
    return name, options


def link_images(dirs, capture, folder):
    os.makedirs(folder, exist_ok=True)
    count = 0
    for directory in dirs:
        for stem, truth in train_renders(directory, "swept"):
            if capture and truth.get("capture") != capture:
                continue
            for ext in (".json", ".jpg"):
                target = os.path.join(folder, stem + ext)
                if not os.path.lexists(target):
                    os.symlink(os.path.abspath(os.path.join(directory, stem + ext)), target)
            count += 1
    return count


def run_variant(work, name, options):
    preset = json.load(open("presets/receipts.json", encoding="utf-8"))
    for stage in preset["stages"]:
        if stage["stage"] == "receipt_warp":
            stage.update(options)
    config = os.path.join(work, f"{name}.json")
    json.dump(preset, open(config, "w"), indent=1)
    binary = os.environ.get("SNAPSORT", ".build/release/snapsort")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    subprocess.run([binary, "run", os.path.join(work, "images"), "--config", config, "--out",
                    os.path.join(work, f"out-{name}"), "--jobs", "1", "--fresh", "--quiet"], env=env, check=False)


def score(work, name):
    images = os.path.join(work, "images")
    out = os.path.join(work, f"out-{name}")
    hits = {"total": 0, "date": 0, "merchant": 0}
    tp = fp = fn = unread = n = 0
    for row in open(os.path.join(out, "records.jsonl"), encoding="utf-8"):
        record = json.loads(row)
        stem = os.path.splitext(os.path.basename(record["file"]))[0]
        truth = json.load(open(os.path.join(images, stem + ".json"), encoding="utf-8"))
        receipt = record.get("receipt") or {}
        n += 1
        hits["total"] += amount(receipt.get("total")) == amount(truth["total"])
        hits["date"] += receipt.get("date") == truth["date"]
        hits["merchant"] += bool(merchant_ok(truth["merchant"], receipt.get("merchant")))
        a, b, c = item_counts(truth["items"], receipt.get("items"))
        tp, fp, fn = tp + a, fp + b, fn + c
        rows = [squash(line["text"]) for line in receipt.get("text") or []]
        printed = [squash(line) for line in truth["lines"] if squash(line)]
        found = sum(any(difflib.SequenceMatcher(None, p, r).ratio() >= 0.8 for r in rows) for p in printed)
        unread += found < len(printed) / 3
    f1 = 2 * tp / max(1, 2 * tp + fp + fn)
    stages = json.load(open(os.path.join(out, "run.json"), encoding="utf-8"))["stages"]
    cpu = "/".join(f"{stages.get(s, {}).get('cpu_p95_ms', 0) / 1000:.2f}" for s in ("receipt_warp", "receipt"))
    return (f"| {name} | {n} | {f1:.3f} | {hits['total']} | {hits['date']} | {hits['merchant']} | {unread} | {cpu} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--work", default="bench/work/warp-sweep")
    parser.add_argument("--capture")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    variants = [parse_variant(v) for v in args.variant]
    os.makedirs(args.work, exist_ok=True)
    count = link_images(args.dirs, args.capture, os.path.join(args.work, "images"))
    if not args.summary:
        for name, options in variants:
            run_variant(args.work, name, options)
    print(f"{count} training renders{' (' + args.capture + ')' if args.capture else ''}\n")
    print("| variant | n | item F1 | total | date | merchant | pages read < 1/3 | CPU p95 s warp/receipt |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _ in variants:
        print(score(args.work, name))


if __name__ == "__main__":
    main()
