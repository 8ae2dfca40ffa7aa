#!/usr/bin/env python3
"""The receipts an extractor change can alter, picked without reading any label: where the
extractor's replay of a run's rows (`snapsort receipt-text --records RUN/records.jsonl --json`) by
the changed binary gives another total or other items than by the unchanged one, or where the
run's record has no total (its raw reading, which the record does not show, may have been read
for that). The picked images (and their truth files) are linked into OUT, for a full run of both
binaries on the few receipts that matter instead of the whole set: a bench tool, never the product.

    replay_changed.py BEFORE_REPLAY.jsonl AFTER_REPLAY.jsonl RUN/records.jsonl IMAGES_DIR OUT_DIR

A receipt whose final reading the replay leaves alone but another reading (the binarised image,
the raw scan) the change alters is missed: run a part of the set whole to check for those."""
import json
import os
import sys


def by_file(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        out[os.path.basename(record["file"])] = record
    return out


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    before, after, run = by_file(sys.argv[1]), by_file(sys.argv[2]), by_file(sys.argv[3])
    images, out = sys.argv[4], sys.argv[5]
    os.makedirs(out, exist_ok=True)
    picked = 0
    for name in sorted(run):
        old = (before.get(name) or {}).get("receipt") or {}
        new = (after.get(name) or {}).get("receipt") or {}
        untotalled = not (run[name].get("receipt") or {}).get("total")
        if old.get("total") == new.get("total") and old.get("items") == new.get("items") and not untotalled:
            continue
        picked += 1
        stem = name.rsplit(".", 1)[0]
        for ext in (".jpg", ".json", ".lines.csv"):
            source = os.path.realpath(os.path.join(images, stem + ext))
            target = os.path.join(out, stem + ext)
            if os.path.exists(source) and not os.path.lexists(target):
                os.symlink(source, target)
    print(f"{out}: {picked} of {len(run)} picked")


if __name__ == "__main__":
    main()
