#!/usr/bin/env python3
"""A run's output folder made into one of N records, for timing `snapsort review` on a folder of
the size the issue names (1 000 records): every record of OUT is repeated under `copyK/` with its
own content hash until there are N, and the copies are merged by `snapsort merge` into a real
store, report and crops, as a run over N distinct photos would write them.

usage: many.py SNAPSORT OUT DEST [--records 1000]
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapsort")
    parser.add_argument("out")
    parser.add_argument("dest")
    parser.add_argument("--records", type=int, default=1000)
    args = parser.parse_args()
    with open(os.path.join(args.out, "records.jsonl")) as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    if not records:
        sys.exit(f"{args.out} holds no records")
    shard = args.dest + ".shard"
    shutil.rmtree(shard, ignore_errors=True)
    shutil.rmtree(args.dest, ignore_errors=True)
    os.makedirs(shard)
    with open(os.path.join(args.out, "run.json")) as summary_file:
        summary = json.load(summary_file)
    copies = []
    for index in range(args.records):
        record = json.loads(json.dumps(records[index % len(records)]))
        copy = index // len(records)
        record["file"] = f"copy{copy:03d}/{record['file']}"
        record["sha256"] = hashlib.sha256(f"{record.get('sha256')}:{copy}".encode()).hexdigest()
        card = record.get("card") or {}
        if card.get("crop"):
            crop = f"crops/copy{copy:03d}-{os.path.basename(card['crop'])}"
            os.makedirs(os.path.join(shard, "crops"), exist_ok=True)
            shutil.copyfile(os.path.join(args.out, card["crop"]), os.path.join(shard, crop))
            card["crop"] = crop
        copies.append(record)
    with open(os.path.join(shard, "records.jsonl"), "w") as out:
        for record in copies:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    summary["counts"] = dict(summary.get("counts", {}), inputs=len(copies))
    with open(os.path.join(shard, "run.json"), "w") as out:
        json.dump(summary, out)
    subprocess.run([args.snapsort, "merge", shard, "--out", args.dest], check=True)
    shutil.rmtree(shard)


if __name__ == "__main__":
    main()
