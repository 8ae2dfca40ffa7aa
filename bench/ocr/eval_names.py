#!/usr/bin/env python3
"""Card name and payment accuracy: exact (case-insensitive, diacritics kept), fuzzy ≥ 0.8, network.

Usage: eval_names.py EXPECTED_DIR RECORDS.jsonl NAME
"""
import difflib
import json
import os
import sys


def main():
    expected_dir, records_path, name = sys.argv[1], sys.argv[2], sys.argv[3]
    records = {os.path.splitext(json.loads(l)["file"])[0]: json.loads(l) for l in open(records_path)}
    exact = fuzzy = total = paid = paid_ok = 0
    for folder, _, files in os.walk(expected_dir):
        for f in files:
            if not f.endswith(".expected.json"):
                continue
            truth = json.load(open(os.path.join(folder, f)))
            want = ((truth.get("card") or {}).get("name") or {}).get("suggested")
            if not want:
                continue
            stem = os.path.relpath(os.path.join(folder, f[: -len(".expected.json")]), expected_dir)
            card = (records.get(stem) or {}).get("card") or {}
            got = ((card.get("name") or {}).get("suggested") or "")
            total += 1
            exact += got.lower() == want.lower()
            fuzzy += difflib.SequenceMatcher(None, got.lower(), want.lower()).ratio() >= 0.8
            if truth["card"].get("payment"):
                paid += 1
                paid_ok += (card.get("payment") or {}).get("network") == truth["card"]["payment"]["network"]
    print(f"### Card names: {name}\n")
    print(f"- name exact: {exact}/{total} ({100 * exact / max(1, total):.0f} %), fuzzy ≥ 0.8: {fuzzy}/{total} "
          f"({100 * fuzzy / max(1, total):.0f} %)")
    print(f"- payment network: {paid_ok}/{paid}\n")


if __name__ == "__main__":
    main()
