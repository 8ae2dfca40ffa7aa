#!/usr/bin/env python3
"""Replays a candidate row repair on training readings before any Swift is written (a bench tool,
never the product): an amount that a skewed photo's OCR cut across two rows, its cents on the row
above (`TOTALE 26` over `_ 56,`, `00` over `Total 30.`). Where a row ends in whole units and a
dangling separator (`56,`) and the row above ends in a bare two-digit number (no amount, no
separator after it), the two digits move down: `TOTALE` over `_ 56,26`.

    split_amounts.py RECORDS.jsonl TRUTH_DIR [--out REPAIRED.jsonl] [RECORDS TRUTH_DIR ...]

Prints each join, and whether the joined amount is printed on the page: among the amounts of the
dataset's own lines (SROIE `NAME.lines.csv`) or the render's printed `lines`. `--out` writes the
records with their rows repaired, for `snapsort receipt-text --records REPAIRED.jsonl --json`:
the extractor on the repaired rows, compared with the same replay of RECORDS (`compare`).
Only training readings: SROIE folds 0-3 of folds.json, `--split train` renders.

    split_amounts.py --compare BEFORE.jsonl AFTER.jsonl TRUTH_DIR   # total right, and each change
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount  # noqa: E402

DANGLING = re.compile(r"(?<![\d.,])(\d{1,5})\s?[.,]\s*$")
CENTS = re.compile(r"(?<![\d.,:/])(\d{2})\s*$")
PRINTED = re.compile(r"(\d{1,6})\s?[.,]\s?(\d{2})(?!\d)")
HERE = os.path.dirname(os.path.abspath(__file__))


def training():
    folds = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))
    return {s for s, v in folds["sroie"].items() if v["fold"] != 4}


def truth(stem, folder):
    """(label total, the amounts printed on the page in cents), or None for a held-out reading."""
    for sub in ("sroie_dev", "sroie", ""):
        path = os.path.join(folder, sub, stem + ".json")
        if not os.path.exists(path):
            continue
        t = json.load(open(path, encoding="utf-8"))
        if t.get("split") == "heldout":
            sys.exit(f"{stem}: a held-out render; refused")
        text = t.get("lines") or []
        csv = os.path.join(folder, sub, stem + ".lines.csv")
        if os.path.exists(csv):
            text = [ln.split(",", 8)[-1] for ln in open(csv, encoding="utf-8", errors="replace")]
        printed = {int(a) * 100 + int(b) for ln in text for a, b in PRINTED.findall(ln)}
        return amount(t.get("total")), printed
    return None, set()


def repair(rows):
    """The rows with each split amount joined, and the joins (row text above, below, cents)."""
    rows = [dict(r) for r in rows]
    joins = []
    for i in range(1, len(rows)):
        below, above = DANGLING.search(rows[i]["text"]), CENTS.search(rows[i - 1]["text"])
        if not below or not above or PRINTED.search(rows[i - 1]["text"]):
            continue
        joins.append((rows[i - 1]["text"], rows[i]["text"], int(below.group(1)) * 100 + int(above.group(1))))
        rows[i]["text"] = rows[i]["text"].rstrip() + above.group(1)
        rows[i - 1]["text"] = rows[i - 1]["text"][:above.start()].rstrip()
    return rows, joins


def stem_of(record):
    return os.path.basename(record["file"]).split(".")[0]


def compare(before, after, folder):
    def totals(path):
        return {stem_of(r): (r.get("receipt") or {}).get("total") for r in map(json.loads, open(path, encoding="utf-8"))}
    b, a, keep, right = totals(before), totals(after), training(), [0, 0]
    for s in sorted(b):
        if s.startswith("sroie") and s not in keep:
            continue
        want = truth(s, folder)[0]
        if want is None:
            continue
        ok = [amount(b[s]) == want, amount(a.get(s)) == want]
        right = [right[0] + ok[0], right[1] + ok[1]]
        if amount(b[s]) != amount(a.get(s)):
            print(f"  {s}: {b[s]} -> {a.get(s)} (label {want / 100:.2f})")
    print(f"total right {right[0]} -> {right[1]}")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--compare"]:
        return compare(*args[1:4])
    out = None
    if "--out" in args:
        k = args.index("--out")
        out, args = args[k + 1], args[:k] + args[k + 2:]
    keep, repaired, count = training(), [], {"printed": 0, "not printed": 0}
    for records, folder in zip(args[::2], args[1::2]):
        for line in open(records, encoding="utf-8"):
            r = json.loads(line)
            s = stem_of(r)
            if s.startswith("de_") or (s.startswith("sroie") and s not in keep):
                continue
            rows = (r.get("receipt") or {}).get("text") or []
            fixed, joins = repair(rows)
            label, printed = truth(s, folder)
            for above, below, cents in joins:
                kind = "printed" if cents in printed else "not printed"
                count[kind] += 1
                print(f"{s}: {above!r} over {below!r} -> {cents / 100:.2f} ({kind}"
                      f"{', the total' if cents == label else ''})")
            if out is not None:
                r = json.loads(line)
                if r.get("receipt"):
                    r["receipt"]["text"] = fixed
                repaired.append(r)
    print("joins: " + ", ".join(f"{k} {v}" for k, v in count.items()))
    if out is not None:
        with open(out, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in repaired)


if __name__ == "__main__":
    main()
