#!/usr/bin/env python3
"""Writes the text of rendered receipts as NAME.txt, one printed row a line, for
`snapsort receipt-text` (a bench tool, never the product): the extractor re-run on text already
read, in seconds instead of an OCR run per change.

    rendered_text.py DIR OUT --truth                # the printed lines of NAME.json (the ceiling)
    rendered_text.py DIR OUT --records RECORDS.jsonl  # the rows snapsort's OCR read (receipt.text)
    rendered_text.py DIR OUT --truth --boxed        # NAME.lines.csv: printed lines with their columns

`--boxed` writes each run of words (a gap of two spaces or more parts runs) as a box of a monospace
page (a character 20 wide, rows 40 high at a pitch of 70, as receipt-text lays out plain text, after
a margin of two characters: a row at the page's edge has no left edge the extractor trusts), so a
row's indentation reaches the extractor as its box's left edge.

Then `snapsort receipt-text OUT --json > run.jsonl` and `score_rendered.py DIR run.jsonl`. The
stage's second readings (the total's line, the date's) do not apply to text, so totals can differ a
little from a full run; item rows are the same rows.
"""
import json
import os
import re
import sys

CHARACTER, HEIGHT, PITCH, MARGIN = 20, 40, 70, 40


def boxed(lines):
    """The lines as .lines.csv rows: one box per run of words, placed by its column."""
    rows = []
    for index, line in enumerate(lines):
        top = index * PITCH
        for run in re.finditer(r"\S+(?: \S+)*", line):
            left, right = MARGIN + run.start() * CHARACTER, MARGIN + run.end() * CHARACTER
            corners = [left, top, right, top, right, top + HEIGHT, left, top + HEIGHT]
            rows.append(",".join(map(str, corners)) + "," + run.group())
    return rows


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[2] not in ("--truth", "--records") or (args[2] == "--records" and len(args) < 4):
        sys.exit(__doc__)
    boxes = args[2] == "--truth" and args[3:] == ["--boxed"]
    folder, out = args[0], args[1]
    os.makedirs(out, exist_ok=True)
    texts = {}
    if args[2] == "--truth":
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
                texts[name[:-5]] = [line for line in truth["lines"] if line.strip() or boxes]
    else:
        for line in open(args[3], encoding="utf-8"):
            record = json.loads(line) if line.strip() else {}
            receipt = record.get("receipt") or {}
            if "file" in record and receipt.get("text"):
                stem = os.path.splitext(os.path.basename(record["file"]))[0]
                texts[stem] = [row["text"] for row in receipt["text"]]
    for stem, lines in texts.items():
        with open(os.path.join(out, stem + (".lines.csv" if boxes else ".txt")), "w", encoding="utf-8") as f:
            f.write("\n".join(boxed(lines) if boxes else lines) + "\n")
    print(f"wrote {len(texts)} text files into {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
