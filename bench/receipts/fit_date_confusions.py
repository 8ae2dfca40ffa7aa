#!/usr/bin/env python3
"""Counts what OCR reads in a printed date's places, on training receipts only, and fits the
look-alike table `ReceiptDate` reads dates with (a bench tool, never the product).

    fit_date_confusions.py RECORDS.jsonl [MORE ...] [--data ../shared/data/receipts]
                           [--min-count 2] [--min-share 0.5] [--show]

RECORDS: snapsort records (`receipt.text`, the rows the project's OCR read) of SROIE receipts.
Only receipts of folds 0-3 of folds.json that carry the dataset's own lines (`NAME.lines.csv`) are
used; fold 4 and the German 14 are never read. Each date token of the true lines (`ocr_error.py`'s
DATE) that parses to the labelled date is aligned to the stretch of the OCR rows with the fewest
edits (a token whose best stretch needs more than 40 % of its length in edits was lost, not
misread, and is skipped); the aligned characters are counted: printed digit or separator against
the character read in its place.

Fitted (printed as Swift literals):
  * digits: each character read in a digit's place that is neither a digit nor a separator, with
    the digits it stood for, likeliest first: a digit is kept when it was read so at least
    --min-count times (on different receipts) and is at least --min-share of the character's
    readings in digit places;
  * separators: characters read in a separator's place (`/`, `-`, `.`) that are no separator,
    kept by the same two rules against their readings in digit places, so a character that is
    mostly a digit's misreading is not taken for a separator.
"""
import json
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ocr_error import DATE, parse_date  # noqa: E402
from score import read_predictions  # noqa: E402
from true_lines import read_lines  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEPARATORS = set("/-.")


def differ(a, b):
    return a.upper() != b.upper()


def align(pattern, text):
    """Case-insensitive: (edits, [(pattern char, text char or '' for a deletion)]) of the substring of `text` with
    the fewest edits from `pattern` (Sellers, with traceback); insertions are not counted as
    pairs."""
    n, m = len(pattern), len(text)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = i
        for j in range(1, m + 1):
            cost[i][j] = min(
                cost[i - 1][j - 1] + differ(pattern[i - 1], text[j - 1]), cost[i - 1][j] + 1, cost[i][j - 1] + 1)
    end = min(range(m + 1), key=lambda j: cost[n][j])
    pairs, i, j = [], n, end
    while i > 0:
        if j > 0 and cost[i][j] == cost[i - 1][j - 1] + differ(pattern[i - 1], text[j - 1]):
            pairs.append((pattern[i - 1], text[j - 1]))
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            pairs.append((pattern[i - 1], ""))
            i -= 1
        else:
            j -= 1
    return cost[n][end], pairs[::-1]


def training_receipts(data):
    folds = json.load(open(os.path.join(HERE, "folds.json")))["sroie"]
    out = {}
    for stem, entry in folds.items():
        if entry["fold"] == 4:
            continue
        base = os.path.join(data, entry["folder"], stem)
        if os.path.exists(base + ".lines.csv"):
            out[stem] = base
    return out


def main():
    args = sys.argv[1:]

    def option(name, default):
        return args[args.index(name) + 1] if name in args else default

    data = option("--data", os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts"))
    min_count, min_share = int(option("--min-count", 2)), float(option("--min-share", 0.5))
    skip = {i + 1 for i, a in enumerate(args) if a in ("--data", "--min-count", "--min-share")}
    paths = [a for i, a in enumerate(args) if not a.startswith("--") and i not in skip]
    records = read_predictions(paths)
    receipts = training_receipts(data)

    in_digit = defaultdict(Counter)  # read char -> printed digit -> receipts
    in_separator = Counter()  # read char -> receipts
    misread = defaultdict(Counter)  # read digit -> printed digit -> receipts
    tokens = aligned = exact = 0
    for stem, base in sorted(receipts.items()):
        rows = [row["text"] for row in (records.get(stem, {}).get("text") or [])]
        if not rows:
            continue
        want = json.load(open(base + ".json", encoding="utf-8")).get("date")
        ocr = "\n".join(rows)
        seen = set()
        for line in read_lines(base + ".lines.csv"):
            for match in DATE.finditer(line):
                token = match.group(0)
                if want not in (parse_date(match) or []) or token in seen:
                    continue
                seen.add(token)
                tokens += 1
                edits, pairs = align(token, ocr)
                if edits > 0.4 * len(token):
                    continue
                aligned += 1
                exact += edits == 0
                receipt_pairs = set()
                for printed, read in pairs:
                    if read and differ(read, printed):
                        receipt_pairs.add((printed, read))
                for printed, read in receipt_pairs:
                    if printed.isdigit() and read.isdigit():
                        misread[read][printed] += 1
                    elif printed.isdigit() and read not in SEPARATORS:
                        in_digit[read][printed] += 1
                    elif printed in SEPARATORS and read not in SEPARATORS and not read.isspace():
                        in_separator[read] += 1
                if "--show" in args and edits:
                    print(f"{stem}: {token!r} read {''.join(r or '_' for _, r in pairs)!r}")

    print(f"date tokens of the true lines: {tokens}, aligned: {aligned}, read exactly: {exact}")
    print("\n| read | in a digit's place (printed digit: receipts) | in a separator's place |\n|---|---|---|")
    for read in sorted(set(in_digit) | set(in_separator), key=lambda r: -sum(in_digit[r].values()) - in_separator[r]):
        digits = ", ".join(f"{d}: {n}" for d, n in in_digit[read].most_common())
        print(f"| `{read}` | {digits} | {in_separator[read] or ''} |")

    digits_table = {}
    for read, counts in in_digit.items():
        total = sum(counts.values()) + in_separator[read]
        kept = [d for d, n in counts.most_common() if n >= min_count and n >= min_share * total]
        if kept:
            digits_table[read] = kept
    separators = sorted(
        r for r, n in in_separator.items()
        if n >= min_count and n >= min_share * (n + sum(in_digit[r].values())))
    print("\n| digit read | printed (receipts) |\n|---|---|")
    for read in sorted(misread):
        print(f"| `{read}` | {', '.join(f'{d}: {n}' for d, n in misread[read].most_common())} |")
    misread_table = {r: [d for d, n in c.most_common() if n >= min_count] for r, c in misread.items()}
    misread_table = {r: ds for r, ds in misread_table.items() if ds}
    print(f"\nfitted (--min-count {min_count} --min-share {min_share}):")
    entries = ", ".join(f'"{r}": [{", ".join(chr(34) + d + chr(34) for d in ds)}]'
                        for r, ds in sorted(digits_table.items()))
    print(f"  lookalikeDigits: [{entries}]")
    entries = ", ".join(f'"{r}": [{", ".join(chr(34) + d + chr(34) for d in ds)}]'
                        for r, ds in sorted(misread_table.items()))
    print(f"  misreadDigits (tried only where the date as read is impossible): [{entries}]")
    print(f"  lookalikeSeparators: {json.dumps(''.join(separators))}")


if __name__ == "__main__":
    main()
