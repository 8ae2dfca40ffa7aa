#!/usr/bin/env python3
"""Tells OCR errors from extraction errors on the SROIE receipts that carry the dataset's own text
lines (a bench tool, never the product).

    ocr_error.py RECORDS.jsonl [MORE.jsonl ...] [--data ../shared/data/receipts/sroie_dev]
                 [--folds bench/receipts/folds.json] [--fold K|--train K] [--naive-lines]

RECORDS are snapsort records (`receipt.text` = the lines the project's OCR read); every receipt of
DATA that has NAME.lines.csv (what a perfect OCR would read: the annotators' transcription) and a
record is measured. --fold K keeps the receipts of fold K of folds.json, --train K all but fold K.

What it prints:
  * character error rate (CER) of amount tokens (`12.50`, `1,234.50`) and date tokens
    (`25/12/2018`, `18-11-18`, `12 MAR 2018`, `2018-03-23`) of the true lines: each true token is
    aligned to the substring of the OCR text (all lines joined) with the fewest edits
    (Levenshtein, approximate substring match); CER = edits / characters of the true tokens. This
    is the best case for the OCR (a token may be matched where another copy of it stands), so it is
    a floor of the token error rate, not a line-aligned CER. Also: the share of tokens read exactly.
  * whether the labelled total appears anywhere in the OCR text (any amount token equal to it to
    the cent) and the labelled date (any date token that parses to it, or the dataset's raw date
    string verbatim), on the OCR text and on the true lines (the ceiling);
  * for each field, the extractor's outcome split three ways: right; wrong although the OCR text
    held the answer (an extraction error); wrong with the answer absent from the OCR text (an OCR
    error first);
  * with --naive-lines: the naive baseline's rules (naive_baseline.py) run on the true lines (as
    boxed, and joined into printed rows by their boxes: the dataset boxes a price apart from its
    label) and on the records' OCR lines, i.e. one extractor on perfect and on the project's OCR.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402  (same matching rules)
from true_lines import read_lines, read_rows  # noqa: E402  (as `snapsort receipt-text` reads them)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
AMOUNT = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+\.\d{2}(?!\d)|(?<![\d.,])\d+[.,]\d{2}(?![\d]|[.,]\d)")
DATE = re.compile(
    r"(?<!\d)(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4}|\d{2})(?!\d)"
    r"|(?<!\d)(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?!\d)"
    r"|(?<!\d)(\d{1,2})[\s-]*(" + "|".join(MONTHS) + r")[A-Z]*[\s,-]*(\d{4}|\d{2})(?!\d)",
    re.I)


def parse_date(m):
    g = m.groups()
    try:
        if g[0]:
            d, mo, y = int(g[0]), int(g[1]), int(g[2])
        elif g[3]:
            y, mo, d = int(g[3]), int(g[4]), int(g[5])
        else:
            d, mo, y = int(g[6]), MONTHS.index(g[7].upper()[:3]) + 1, int(g[8])
    except ValueError:
        return None
    y = y + 2000 if y < 100 else y
    candidates = []
    if 1 <= mo <= 12 and 1 <= d <= 31:
        candidates.append(f"{y:04d}-{mo:02d}-{d:02d}")
    if g[0] and 1 <= d <= 12 and 1 <= mo <= 31:  # month first, as some receipts print
        candidates.append(f"{y:04d}-{d:02d}-{mo:02d}")
    return candidates


def dates_in(text):
    found = set()
    for m in DATE.finditer(text):
        found.update(parse_date(m) or [])
    return found


def amounts_in(text):
    return {score.amount(t) for t in AMOUNT.findall(text)} - {None}


def merchant_in(merchant, lines):
    """score.py's merchant rule met by one line or two adjacent lines joined."""
    candidates = list(lines) + [a + " " + b for a, b in zip(lines, lines[1:])]
    return any(score.merchant_ok(merchant, c) for c in candidates)


def substring_distance(pattern, text):
    """Fewest edits turning `pattern` into some substring of `text` (Sellers)."""
    n = len(pattern)
    prev = list(range(n + 1))
    best = n
    for c in text:
        cur = [0] * (n + 1)
        for i in range(1, n + 1):
            cost = 0 if pattern[i - 1] == c else 1
            cur[i] = min(prev[i - 1] + cost, prev[i] + 1, cur[i - 1] + 1)
        if cur[n] < best:
            best = cur[n]
            if best == 0:
                return 0
        prev = cur
    return best


def main():
    argv = sys.argv[1:]

    def option(name, default=None):
        return argv[argv.index(name) + 1] if name in argv else default

    data = option("--data", os.path.join(os.path.dirname(ROOT), "shared", "data", "receipts", "sroie_dev"))
    folds = json.load(open(option("--folds", os.path.join(HERE, "folds.json")), encoding="utf-8"))["sroie"]
    only_fold, train_fold = option("--fold"), option("--train")
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--data", "--folds", "--fold", "--train")}
    paths = [a for i, a in enumerate(argv) if not a.startswith("--") and i not in skip]
    records = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                records[score.stem(r["file"])] = r
    stems = sorted(n[: -len(".lines.csv")] for n in os.listdir(data) if n.endswith(".lines.csv"))
    if only_fold is not None:
        stems = [s for s in stems if folds.get(s, {}).get("fold") == int(only_fold)]
    if train_fold is not None:
        stems = [s for s in stems if folds.get(s, {}).get("fold") != int(train_fold)]
    no_record = [s for s in stems if s not in records]
    stems = [s for s in stems if s in records]
    token = {"amount": [0, 0, 0, 0], "date": [0, 0, 0, 0]}  # edits, chars, exact, count
    present = {"total_ocr": 0, "total_lines": 0, "date_ocr": 0, "date_raw_ocr": 0, "date_lines": 0, "n_total": 0, "n_date": 0, "merchant_ocr": 0, "merchant_lines": 0, "n_merchant": 0}
    outcome = {f: {"right": 0, "extraction": 0, "ocr": 0} for f in ("total", "date", "merchant")}
    naive = {k: {"total": 0, "date": 0, "merchant": 0} for k in ("lines", "rows", "ocr")}
    n_merchant = 0
    for stem in stems:
        truth = json.load(open(os.path.join(data, stem + ".json"), encoding="utf-8"))
        true_lines = read_lines(os.path.join(data, stem + ".lines.csv"))
        rec = (records[stem].get("receipt") or {})
        ocr_lines = [t.get("text", "") for t in rec.get("text") or []]
        ocr_text = "\n".join(ocr_lines)
        true_text = "\n".join(true_lines)
        for kind, pattern in (("amount", AMOUNT), ("date", DATE)):
            for line in true_lines:
                for m in pattern.finditer(line):
                    tok = m.group(0).strip()
                    d = substring_distance(tok, ocr_text)
                    t = token[kind]
                    t[0] += d
                    t[1] += len(tok)
                    t[2] += d == 0
                    t[3] += 1
        want = score.amount(truth.get("total"))
        if want is not None:
            present["n_total"] += 1
            in_ocr = want in amounts_in(ocr_text)
            present["total_ocr"] += in_ocr
            present["total_lines"] += want in amounts_in(true_text)
            right = want == score.amount(rec.get("total"))
            outcome["total"]["right" if right else ("extraction" if in_ocr else "ocr")] += 1
        if truth.get("date"):
            present["n_date"] += 1
            raw = (truth.get("source", {}).get("raw", {}) or {}).get("date") or ""
            in_ocr = truth["date"] in dates_in(ocr_text) or (raw and raw in ocr_text)
            present["date_ocr"] += bool(in_ocr)
            present["date_raw_ocr"] += bool(raw and raw in ocr_text)
            present["date_lines"] += truth["date"] in dates_in(true_text) or bool(raw and raw in true_text)
            right = truth["date"] == rec.get("date")
            outcome["date"]["right" if right else ("extraction" if in_ocr else "ocr")] += 1
        if truth.get("merchant"):
            present["n_merchant"] += 1
            in_ocr = merchant_in(truth["merchant"], ocr_lines)
            present["merchant_ocr"] += in_ocr
            present["merchant_lines"] += merchant_in(truth["merchant"], true_lines)
            right = score.merchant_ok(truth["merchant"], rec.get("merchant"))
            outcome["merchant"]["right" if right else ("extraction" if in_ocr else "ocr")] += 1
        if "--naive-lines" in argv:
            import naive_baseline
            rows_text = "\n".join(read_rows(os.path.join(data, stem + ".lines.csv")))
            for which, text in (("lines", true_text), ("rows", rows_text), ("ocr", ocr_text)):
                hits = score.field_hits(truth, naive_baseline.naive(text))
                for f, ok in hits.items():
                    naive[which][f] += ok
            n_merchant += truth.get("merchant") is not None
    n = len(stems)
    print(f"OCR against the true lines: {n} receipts of {data}" + (f" (fold {only_fold})" if only_fold else "") +
          (f" (training folds, all but {train_fold})" if train_fold else "") +
          (f"; {len(no_record)} without a record" if no_record else ""))
    print()
    print("| tokens | count | CER (best-aligned) | read exactly |")
    print("|---|---|---|---|")
    for kind in ("amount", "date"):
        e, c, x, k = token[kind]
        print(f"| {kind} | {k} | {e / max(c, 1):.3f} | {x}/{k} ({x / max(k, 1):.2f}) |")
    print()
    nt, nd = present["n_total"], present["n_date"]
    nm = present["n_merchant"]
    print("| the labelled answer appears … | total | date | merchant (score.py's rule, one line or two adjacent) |")
    print("|---|---|---|---|")
    print(f"| in the true lines (ceiling) | {present['total_lines']}/{nt} ({present['total_lines'] / nt:.2f}) | {present['date_lines']}/{nd} ({present['date_lines'] / nd:.2f}) | {present['merchant_lines']}/{nm} ({present['merchant_lines'] / max(nm, 1):.2f}) |")
    print(f"| in the project's OCR text | {present['total_ocr']}/{nt} ({present['total_ocr'] / nt:.2f}) | {present['date_ocr']}/{nd} ({present['date_ocr'] / nd:.2f}) | {present['merchant_ocr']}/{nm} ({present['merchant_ocr'] / max(nm, 1):.2f}) |")
    print(f"| … date in the dataset's raw format, verbatim | – | {present['date_raw_ocr']}/{nd} ({present['date_raw_ocr'] / nd:.2f}) | – |")
    print()
    print("| field | extracted right | wrong, answer was in the OCR text (extraction) | wrong, answer not in the OCR text (OCR) |")
    print("|---|---|---|---|")
    for f, count in (("total", nt), ("date", nd), ("merchant", nm)):
        o = outcome[f]
        print(f"| {f} | {o['right']}/{count} ({o['right'] / count:.2f}) | {o['extraction']} ({o['extraction'] / count:.2f}) | {o['ocr']} ({o['ocr'] / count:.2f}) |")
    if "--naive-lines" in argv:
        print()
        print("| naive rules (naive_baseline.py) on … | total | date | merchant |")
        print("|---|---|---|---|")
        for which, label in (("lines", "the true lines, as the dataset boxes them"), ("rows", "the true lines joined into rows by their boxes"), ("ocr", "the project's OCR lines")):
            v = naive[which]
            print(f"| {label} | {v['total']}/{nt} ({v['total'] / nt:.2f}) | {v['date']}/{nd} ({v['date'] / nd:.2f}) | {v['merchant']}/{n_merchant} ({v['merchant'] / max(n_merchant, 1):.2f}) |")


if __name__ == "__main__":
    main()
