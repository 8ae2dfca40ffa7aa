#!/usr/bin/env python3
"""Rebuilds a run's store with another extractor's merchants, without a new OCR run (issue #27
item 1; a bench tool, never the product).

    remerchant.py OLD_SNAPSORT NEW_SNAPSORT RUN_OUT NEW_OUT

Both binaries re-extract every record of RUN_OUT/records.jsonl from its OCR rows (`snapsort
receipt-text --records --json`). Where NEW's merchant differs from OLD's, the record takes NEW's
merchant and its field; elsewhere the record is kept as the run wrote it (a merchant the stage
read from the logo, which re-extraction cannot do, stays). The records and RUN_OUT's run.json go
to NEW_OUT-shard, and NEW's `snapsort merge` writes NEW_OUT (records, store, report). Then:

    bench/store/fit_merchants.py RUN_OUT --store NEW_OUT/snapsort.sqlite

gives merchant rows per real merchant and false pairs. With OLD = NEW the store is the run's own
(a check of the tool: same rows as RUN_OUT's store). Prints each changed merchant.
"""
import json
import os
import shutil
import subprocess
import sys


def extract(binary, records):
    """{file: receipt} as `binary` re-extracts each record's rows."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    done = subprocess.run([binary, "receipt-text", "--records", records, "--json"], capture_output=True,
                          text=True, env=env, check=False)
    out = {}
    for line in done.stdout.splitlines():
        if line.strip():
            record = json.loads(line)
            out[record["file"]] = record.get("receipt") or {}
    return out


def patched(record, new):
    """The record with NEW's merchant and merchant field."""
    receipt = record["receipt"]
    receipt["merchant"] = new.get("merchant")
    fields = receipt.setdefault("fields", {})
    if (new.get("fields") or {}).get("merchant"):
        fields["merchant"] = new["fields"]["merchant"]
    else:
        fields.pop("merchant", None)
    return record


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    old_binary, new_binary, run, out = sys.argv[1:]
    records = os.path.join(run, "records.jsonl")
    old, new = extract(old_binary, records), extract(new_binary, records)
    shard = out + "-shard"
    for folder in (shard, out):
        shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(shard)
    changed = 0
    with open(os.path.join(shard, "records.jsonl"), "w", encoding="utf-8") as f:
        for line in open(records, encoding="utf-8"):
            record = json.loads(line)
            key = record["file"]
            if record.get("receipt") and key in new and new[key].get("merchant") != old.get(key, {}).get("merchant"):
                changed += 1
                print(f"{os.path.basename(key)}: {record['receipt'].get('merchant')!r} -> {new[key].get('merchant')!r}")
                record = patched(record, new[key])
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    shutil.copy(os.path.join(run, "run.json"), os.path.join(shard, "run.json"))
    print(f"{changed} merchants changed", file=sys.stderr)
    merged = subprocess.run([new_binary, "merge", shard, "--out", out], capture_output=True, text=True,
                            env=dict(os.environ, OMP_THREAD_LIMIT="1"), check=False)
    sys.stderr.write(merged.stderr[-400:].rstrip() + "\n")
    sys.exit(merged.returncode)


if __name__ == "__main__":
    main()
