#!/usr/bin/env python3
"""The baseline snapsort's receipt reading is measured against (a bench tool, never the product):
the tesseract CLI on the image as it is, and the naive rules a user would script first.

    naive_baseline.py IMAGES_DIR OUT.jsonl [--jobs N]
    naive_baseline.py --lines DIR OUT.jsonl

--lines runs the same rules on the dataset's own text lines instead of tesseract's (DIR's
NAME.lines.csv, joined into printed rows by their boxes: true_lines.read_rows), `file` naming the
.lines.csv, as `snapsort receipt-text` does: the rules' ceiling, beside snapsort's.

merchant = the first line with three letters or more; date = the first date (day first, ISO
out); total = the largest amount on a line that says TOTAL / SUMME / SUMA / ZU ZAHLEN… Writes one
JSON object per image, {"file", "seconds", "receipt": {merchant, date, total, items: []}}.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

TOTAL = re.compile(r"total|summe|suma|razem|zu zahlen|totale|totaal|итого|разом|amount due", re.I)
AMOUNT = re.compile(r"(\d{1,3}(?:[.,]\d{3})*|\d+)[.,](\d{2})(?!\d)")
DATE = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?!\d)|(\d{4})-(\d{1,2})-(\d{1,2})")


def naive(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    merchant = next((l for l in lines if sum(c.isalpha() for c in l) >= 3), None)
    date = None
    for l in lines:
        m = DATE.search(l)
        if not m:
            continue
        if m.group(4):
            y, mo, d = int(m.group(4)), int(m.group(5)), int(m.group(6))
        else:
            d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
            y = y + 2000 if y < 100 else y
        if 1 <= mo <= 12 and 1 <= d <= 31:
            date = f"{y:04d}-{mo:02d}-{d:02d}"
            break
    best = None
    for l in lines:
        if TOTAL.search(l):
            for m in AMOUNT.finditer(l):
                cents = int(re.sub(r"\D", "", m.group(1))) * 100 + int(m.group(2))
                best = cents if best is None or cents > best else best
    total = None if best is None else f"{best // 100}.{best % 100:02d}"
    return {"merchant": merchant, "date": date, "total": total, "items": []}


def run(path):
    start = time.monotonic()
    text = subprocess.run(["tesseract", path, "-", "--psm", "4"], capture_output=True, text=True).stdout
    return {"file": os.path.basename(path), "seconds": round(time.monotonic() - start, 3), "receipt": naive(text)}


def main_lines(folder, out):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import true_lines
    with open(out, "w", encoding="utf-8") as f:
        for stem in true_lines.stems_with_lines(folder):
            rows = true_lines.read_rows(os.path.join(folder, stem + ".lines.csv"))
            f.write(json.dumps({"file": stem + ".lines.csv", "receipt": naive("\n".join(rows))}, ensure_ascii=False) + "\n")


def main():
    if sys.argv[1] == "--lines":
        return main_lines(sys.argv[2], sys.argv[3])
    folder, out = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg", ".png")))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(run, paths))
    with open(out, "w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
