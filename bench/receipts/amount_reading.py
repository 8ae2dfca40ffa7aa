#!/usr/bin/env python3
"""How many of the printed amounts and dates runs read, on rendered training receipts (a bench
tool, never the product): the OCR side of a reading change, before the extractor has its say.

Every amount (`12.50`, `1.234,50`) and date (`25/12/2018`, `2023-01-27`) printed in a render's own
`lines` is looked for in each run's OCR rows (`receipt.text`): read when a token of its kind on
any row has its digits (`1.234,50` read as `1234,50` counts; a comma read as a colon, `4:38`, or a
0 read as 8 does not). Prints, per run, the tokens read of
those printed (pooled and by `--by`), and for the first two runs the tokens only one of them read.

    amount_reading.py DIR RUN.jsonl [RUN2.jsonl ...] [--by capture|font|monospace] [--digit 0] [--show]

`--digit 0 --by monospace` showed the faded training renders' digit loss is monospace fonts' zeros.

Refuses held-out renders, as rendered_errors.py does.
"""
import argparse
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ocr_loss import train_renders  # noqa: E402
from rendered_errors import read_records  # noqa: E402

AMOUNT = re.compile(r"(?<![\d.,])-?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}(?![\d.,]\d)")
DATE = re.compile(r"(?<!\d)\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}(?!\d)")


def printed_tokens(lines):
    """(kind, digits, printed line) of every amount and date on the printed lines."""
    out = []
    for line in lines:
        for kind, pattern in (("date", DATE), ("amount", AMOUNT)):
            for m in pattern.finditer(line):
                out.append((kind, re.sub(r"\D", "", m.group()), line))
        # A date's digits must not count again as an amount (`27.01.23` is no amount).
    return [t for t in out if not (t[0] == "amount" and any(d[1].endswith(t[1]) for d in out if d[0] == "date"))]


def read_on_page(token, ocr_rows):
    """Whether an OCR row holds a token of the same kind with the same digits."""
    pattern = DATE if token[0] == "date" else AMOUNT
    return any(re.sub(r"\D", "", m.group()) == token[1] for r in ocr_rows for m in pattern.finditer(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--by", default="capture")
    ap.add_argument("--digit", help="split each group's amounts by whether they print this digit")
    ap.add_argument("--show", action="store_true", help="print the tokens only one of the first two runs read")
    args = ap.parse_args()
    runs = [read_records(r) for r in args.runs]
    read = [collections.Counter() for _ in runs]
    total = collections.Counter()
    only = [[], []]
    for stem, truth in train_renders(args.folder, "measured"):
        ocr = [[row["text"] for row in ((run.get(stem) or {}).get("receipt") or {}).get("text") or []] for run in runs]
        for token in printed_tokens(truth["lines"]):
            group = truth.get(args.by)
            if args.digit and token[0] == "amount":
                group = f"{group} {'with' if args.digit in token[1] else 'no'} {args.digit}"
            total[(token[0], "all")] += 1
            total[(token[0], group)] += 1
            hits = [read_on_page(token, rows) for rows in ocr]
            for i, hit in enumerate(hits):
                if hit:
                    read[i][(token[0], "all")] += 1
                    read[i][(token[0], group)] += 1
            if len(hits) > 1 and hits[0] != hits[1]:
                only[0 if hits[0] else 1].append((stem, token))
    for key in sorted(total, key=lambda k: (k[0], k[1] != "all", str(k[1]))):
        cells = "  ".join(f"{r[key]:5d} ({r[key] / total[key]:.3f})" for r in read)
        print(f"{key[0]:6} {str(key[1]):15} {total[key]:5d} printed  read: {cells}")
    if len(runs) > 1:
        print(f"read only by run 1: {len(only[0])}, only by run 2: {len(only[1])}")
        if args.show:
            for i, tokens in enumerate(only):
                for stem, (kind, want, line) in tokens:
                    print(f"only run {i + 1}: {stem} {kind} {want} in {line.strip()!r}")


if __name__ == "__main__":
    main()
