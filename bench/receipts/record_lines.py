#!/usr/bin/env python3
"""Writes each record's OCR lines (`receipt.text`) as NAME.lines.json, the form `snapsort
receipt-text` reads with confidences kept, so the extractor (and `--candidates`) can be run
again on a run's own OCR without reading the images again (a bench tool, never the product).

    record_lines.py OUT_DIR RECORDS.jsonl [MORE.jsonl ...]
"""
import json
import os
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in sys.argv[2:]:
        with open(path) as handle:
            for row in handle:
                record = json.loads(row)
                lines = (record.get("receipt") or {}).get("text")
                if lines is None:
                    continue
                stem = os.path.basename(record["file"]).split(".")[0]
                with open(os.path.join(out, stem + ".lines.json"), "w") as target:
                    json.dump(lines, target, ensure_ascii=False)
                written += 1
    print(f"{written} receipts' lines → {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
