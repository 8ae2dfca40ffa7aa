"""The dataset's own text lines of a receipt (SROIE's NAME.lines.csv), read as `snapsort
receipt-text` reads them (a bench tool, never the product).

Each line of the file is one box: `x1,y1,x2,y2,x3,y3,x4,y4,text`, the text everything after the
eighth comma. SROIE writes quotes inside the text unescaped (`SR: 11" PROWESS`) and one of its
lines opens a quote it never closes, so a CSV reader would swallow the next line into it; a text is
unquoted only when a pair of quotes wraps it whole with every quote inside doubled. Whitespace runs
become one space, as OCR words joined into a row are. Blank lines and boxes without text are no
lines; a row that is not eight numbers and a text raises ValueError naming the file and line.
"""
import os


def unquoted(text):
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        return text
    inner = text[1:-1]
    if inner.replace('""', "").count('"'):
        return text
    return inner.replace('""', '"')


def read_boxes(path):
    """[(x_left, y_top, y_bottom, text)] of NAME.lines.csv, in file order."""
    boxes = []
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        rows = f.read().lstrip("\ufeff").splitlines()
    for number, row in enumerate(rows, 1):
        if not row.strip():
            continue
        fields = row.split(",", 8)
        try:
            if len(fields) != 9:
                raise ValueError
            numbers = [float(v) for v in fields[:8]]
        except ValueError:
            raise ValueError(f"{path}:{number}: expected x1,y1,x2,y2,x3,y3,x4,y4,text") from None
        text = " ".join(unquoted(fields[8].strip()).split())
        if text:
            xs, ys = numbers[0::2], numbers[1::2]
            boxes.append((min(xs), min(ys), max(ys), text))
    return boxes


def read_lines(path):
    return [b[3] for b in read_boxes(path)]


def read_rows(path):
    """The true lines joined into printed rows: boxes whose vertical centres lie within half a box
    height of a row's centre join it, left to right (the dataset boxes a price apart from its
    label; an OCR reading whole rows, as snapsort's does, puts them on one line). A simpler rule
    than snapsort's own row joining (`ReceiptLine.rows`), which `snapsort receipt-text` uses."""
    rows = []
    for x, top, bottom, text in sorted(read_boxes(path), key=lambda b: (b[1] + b[2]) / 2):
        centre, height = (top + bottom) / 2, max(1.0, bottom - top)
        if rows and abs(centre - rows[-1]["centre"]) < 0.5 * min(height, rows[-1]["height"]):
            rows[-1]["cells"].append((x, text))
        else:
            rows.append({"centre": centre, "height": height, "cells": [(x, text)]})
    return [" ".join(t for _, t in sorted(r["cells"])) for r in rows]


def stems_with_lines(folder):
    """Stems of the receipts in `folder` that have NAME.lines.csv."""
    if not os.path.isdir(folder):
        return []
    return sorted(n[: -len(".lines.csv")] for n in os.listdir(folder) if n.endswith(".lines.csv"))
