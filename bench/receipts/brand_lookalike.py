#!/usr/bin/env python3
"""Catalog brands a header word is only near to, on TRAINING readings (issues #23, #27).

    brand_lookalike.py [--show] [--data ../shared/data/receipts] SET:RECORDS.jsonl[:RENDERS_DIR] ...
    brand_lookalike.py ... --true      (also sroie_dev's true lines, folds 0-3)

The receipt extractor names a catalog brand for a header word that is a letter or so off it
(`ReceiptExtractor.nearBrand`: at most len/6 edits, or one look-alike glyph; words of four
letters or more, in the first eight rows down to the first legal line, on a row read at 51 or
more, of three words at most or naming a company form). That is meant for OCR misreading a
logo's type (`TKEA`, `R@SSMANN`), but a printed word can be another word that folds close to
a brand: `Krüger` folds to `kruger`, one letter off `kroger`. Here every such near match of
every training reading is listed with the edit distance, the word's length and whether a
differing letter was read with a diacritic (OCR read a mark there, so the letter it printed is
not the brand's), and counted right or wrong against the label (score.py's rule on the brand's
name); then the allowance `headerEdits` = length / d is swept over d. SROIE sets are read on folds 0-3 only; renders must be train renders (NAME.json
`split`), a held-out render is refused.
"""
import argparse
import collections
import csv
import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merchant_causes import render_truth, sroie_truth  # noqa: E402
from score import merchant_ok, stem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
LEGAL = ["sdn bhd", "bhd", "s b", "gmbh", "ltd", "limited", "llc", "inc", "plc", "sp z o o"]
COMPANY_NEAR = ["gmbh", "kg", "ag", "ltd", "sdn", "bhd", "inc"]
DIVISORS = (4, 5, 6, 7, 8, 10, 1000)
LOOKALIKE = [set("ltf"), set("oce"), set("hn"), set("uv")]
SPECIAL = {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i"}
SKELETON = {"0": "o", "1": "l", "i": "l", "j": "l", "!": "l", "|": "l", "5": "s", "8": "b", "2": "z"}


def fold_char(ch):
    """IssuerText.fold of one character, then skeleton: (folded text, had a mark)."""
    out, marked = "", False
    for c in unicodedata.normalize("NFKD", ch.lower()):
        if unicodedata.category(c) in ("Mn", "Mc", "Me"):
            marked = True
            continue
        if c in SPECIAL:
            out += SPECIAL[c]
            marked = True
        elif c in "'’`´":
            continue
        elif c == "&" or c.isalpha() or c.isdigit():
            out += c
        else:
            out += " "
    return out, marked


def tokens(text):
    """Folded words of `text` (as ReceiptKeywords.fold splits them), each with the positions
    whose letter was read with a diacritic."""
    text = text.replace("@", "O")
    words, cur, marks = [], "", set()
    for ch in text:
        f, marked = fold_char(ch)
        for c in f:
            if c == " ":
                if cur:
                    words.append((cur, marks))
                cur, marks = "", set()
            else:
                if marked:
                    marks.add(len(cur))
                cur += c
    if cur:
        words.append((cur, marks))
    out = []
    for w, m in words:
        if any(c.isalpha() for c in w):
            w = "".join(SKELETON.get(c, c) for c in w)
        out.append((w, m))
    return out


def folded(text):
    return " " + " ".join(w for w, _ in tokens(text)) + " "


def levenshtein_ops(a, b):
    """Edit distance and the positions of `a` an optimal alignment changes or drops."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    i, j, changed = n, m, set()
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                changed.add(i - 1)
            i, j = i - 1, j - 1
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            changed.add(i - 1)
            i -= 1
        else:
            j -= 1
    return d[n][m], changed


def brands():
    data = json.load(open(os.path.join(ROOT, "Sources/SnapsortStages/Resources/issuers.json"), encoding="utf-8"))
    issuers = data["issuers"] if isinstance(data, dict) else data
    out = []
    for issuer in issuers:
        for name in [issuer["name"]] + issuer.get("aliases", []):
            f = folded(name).strip()
            if sum(c.isalpha() for c in f) >= 3 and " " not in f and len(f) >= 4 and f != "total":
                out.append((f, issuer["name"]))
    return out


def is_lookalike(word, brand):
    if len(word) != len(brand):
        return False
    diff = [(a, b) for a, b in zip(word, brand) if a != b]
    return len(diff) == 1 and any(diff[0][0] in g and diff[0][1] in g for g in LOOKALIKE)


def zone(lines):
    """The rows nearBrand reads: the first eight, down to the first legal line, read at 51+,
    of at most three words or naming a company form."""
    rows = lines[:8]
    for i, (text, _) in enumerate(rows):
        f = folded(text)
        if any(f" {form} " in f for form in LEGAL):
            rows = rows[: i + 1]
            break
    out = []
    for text, conf in rows:
        f = folded(text)
        if conf >= 51 and (len(f.split()) <= 3 or any(f" {c} " in f for c in COMPANY_NEAR)):
            out.append(text)
    return out


def near_matches(lines, catalog, divisor=6):
    """(text, word, brand name, distance, length, diacritic at a change) of each row's first near
    match, the first row's only (nearBrand returns the first)."""
    for text in zone(lines):
        if any(f" {b} " in folded(text) for b, _ in catalog):
            return None  # spelled out: spelledBrand answers first
    for text in zone(lines):
        for word, marks in tokens(text):
            if len(word) < 4:
                continue
            for b, name in catalog:
                dist, changed = levenshtein_ops(word, b)
                if dist <= len(word) // divisor or is_lookalike(word, b):
                    return text, word, name, dist, len(word), bool(changed & marks)
    return None


def read_sets(specs, data):
    sroie = None
    for spec in specs:
        parts = spec.split(":")
        name, path = parts[0], parts[1]
        if len(parts) > 2:
            truth = render_truth(parts[2])
        else:
            sroie = sroie or sroie_truth(data)
            truth = sroie
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            t = truth.get(stem(r["file"]))
            if t is None:
                continue
            text = (r.get("receipt") or {}).get("text") or []
            yield name, stem(r["file"]), t.get("merchant"), [(x["text"], x.get("confidence", 100)) for x in text]


def true_lines(data):
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))["sroie"]
    for s, v in sorted(split.items()):
        path = os.path.join(data, v["folder"], s + ".lines.csv")
        if v["fold"] not in (0, 1, 2, 3) or not os.path.exists(path):
            continue
        rows = [row[8] if len(row) > 8 else "" for row in csv.reader(open(path, encoding="utf-8"))]
        t = json.load(open(os.path.join(data, v["folder"], s + ".json"), encoding="utf-8"))
        yield "true", s, t.get("merchant"), [(x, 100) for x in rows]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("sets", nargs="*")
    p.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "receipts"))
    p.add_argument("--true", action="store_true")
    p.add_argument("--show", action="store_true")
    args = p.parse_args()
    catalog = brands()
    counts = collections.Counter()
    readings = collections.Counter()
    sweep = collections.Counter()
    sources = [read_sets(args.sets, args.data)] + ([true_lines(args.data)] if args.true else [])
    for source in sources:
        for name, s, label, lines in source:
            readings[name] += 1
            for divisor in DIVISORS:
                m = near_matches(lines, catalog, divisor)
                if m:
                    sweep[(divisor, merchant_ok(label, m[2]))] += 1
            m = near_matches(lines, catalog)
            if not m:
                continue
            text, word, brand, dist, length, marked = m
            right = merchant_ok(label, brand)
            counts[(dist, marked, right)] += 1
            if args.show:
                print(f"{name} {s}: {'right' if right else 'WRONG'} {brand!r} from {word!r} in {text!r}"
                      f" (edits {dist}, diacritic at a change {marked}; label {label!r})")
    print("readings:", dict(readings))
    print("\n| edits | a changed letter read with a diacritic | right | wrong |")
    print("|---|---|---|---|")
    for dist in sorted({k[0] for k in counts}):
        for marked in (False, True):
            r, w = counts[(dist, marked, True)], counts[(dist, marked, False)]
            if r or w:
                print(f"| {dist} | {'yes' if marked else 'no'} | {r} | {w} |")
    print("\nheaderEdits(length) = length / d (a look-alike glyph still counts at any d):\n")
    print("| d | near brands right | wrong |")
    print("|---|---|---|")
    for divisor in DIVISORS:
        print(f"| {divisor if divisor < 100 else 'no edits'} | {sweep[(divisor, True)]} | {sweep[(divisor, False)]} |")


if __name__ == "__main__":
    main()
