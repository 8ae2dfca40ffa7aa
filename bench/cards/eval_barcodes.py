"""Barcodes on the rendered card photos: exact value sets against the renderer's truth.

usage: eval_barcodes.py IMAGES_DIR RECORDS_JSONL LABEL  (prints a markdown fragment)
A photo counts as right when the set of decoded values equals the set it was rendered with;
every value not in that set counts as a false positive.
"""
import glob
import json
import os
import sys


def main():
    images, records, label = sys.argv[1], sys.argv[2], sys.argv[3]
    truth = {}
    for path in glob.glob(os.path.join(images, "*.expected.json")):
        card = json.load(open(path)).get("card") or {}
        truth[os.path.basename(path)[: -len(".expected.json")]] = {b["value"] for b in card.get("barcodes") or []}
    right = total = false_positives = 0
    for line in open(records):
        record = json.loads(line)
        stem = os.path.splitext(os.path.basename(record["file"]))[0]
        if stem not in truth:
            continue
        got = {b["value"] for b in ((record.get("card") or {}).get("barcodes") or [])}
        total += 1
        right += got == truth[stem]
        false_positives += len(got - truth[stem])
    print(f"### Card barcodes: {label}\n")
    print(f"- photos whose decoded values are exactly the rendered ones: {right}/{total}; values not on the card: {false_positives}")


if __name__ == "__main__":
    main()
