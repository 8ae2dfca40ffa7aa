"""Upper bound for a QR / Data Matrix rectifying rescue (issue #26 item 2): for each miss that
classify_corpus_misses.py calls `3.x error` (the 3.x wheel finds the symbol but cannot decode it),
the symbol's module grid is sampled at module centres inside 3.x's own quad, thresholded (median,
mid-range, Otsu) and drawn as a clean grid at 6 px a module for zxing-cpp 1.4.

    grid_oracle.py ROOT MISSES.tsv

ROOT is the false-code training corpus (bench/work/false/train); MISSES.tsv is the --list output of
classify_corpus_misses.py. The quad is an oracle (3.x), and the symbol size is tried over every QR
version, every square Data Matrix size, or the rectangular size named in the file: a locator of
our own could do no better than this, so an image this does not read is out of reach of the idea.
"""
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "analysis"))
import common  # noqa: E402
from classify_corpus_misses import same_format, truth_matches  # noqa: E402

SQUARE_DATAMATRIX = [(n, n) for n in range(10, 54, 2)]
QR_VERSIONS = [(n, n) for n in range(21, 178, 4)]


def module_values(gray, quad, rows, cols):
    symbol = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    to_image = cv2.getPerspectiveTransform(symbol, np.float32(quad))
    ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32) + 0.5
    points = cv2.perspectiveTransform(np.stack([xs.ravel(), ys.ravel()], 1)[None], to_image)[0]
    return cv2.remap(gray.astype(np.float32), points[:, 0].reshape(rows, cols),
                     points[:, 1].reshape(rows, cols), cv2.INTER_LINEAR)


def drawn_grid(dark, px_per_module=6, quiet_modules=3):
    img = np.kron(np.where(dark, 0, 255).astype(np.uint8), np.ones((px_per_module,) * 2, np.uint8))
    return np.pad(img, quiet_modules * px_per_module, constant_values=255)


def grid_read(gray, code, quad, sizes):
    for rows, cols in sizes:
        values = module_values(gray, quad, rows, cols)
        otsu = cv2.threshold(values.astype(np.uint8), 0, 255, cv2.THRESH_OTSU)[0]
        for threshold in (np.median(values), (values.min() + values.max()) / 2, otsu):
            if any(truth_matches(code, r) for r in common.zx14(drawn_grid(values < threshold))):
                return rows, cols
    return None


def symbol_sizes(rel, symbology):
    if symbology == "qr":
        return QR_VERSIONS
    stem = os.path.splitext(os.path.basename(rel))[0]
    if "abcd-" in stem:
        cols, rows = (int(x) for x in stem.split("abcd-")[1].split("x"))
        return [(rows, cols), (cols, rows)]
    return SQUARE_DATAMATRIX


def main():
    root, misses = sys.argv[1], sys.argv[2]
    read = tried = 0
    with open(misses, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    for rel, symbology, variant, cause, _ in rows:
        if symbology not in ("qr", "datamatrix") or cause != "3.x error":
            continue
        with open(os.path.join(root, os.path.splitext(rel)[0] + ".json"), encoding="utf-8") as f:
            code = json.load(f)["barcode"]
        gray = common.load_gray(os.path.join(root, rel))
        quads = [r["quad"] for r in common.zx3(gray, errors=True) if same_format(code, r)]
        hit = next((h for h in (grid_read(gray, code, q, symbol_sizes(rel, symbology)) for q in quads) if h), None)
        tried += 1
        read += hit is not None
        print(f"{rel}\t{symbology}\t{variant}\t{'read at %dx%d' % hit if hit else 'not read'}", flush=True)
    print(f"grid read {read} of {tried}")


if __name__ == "__main__":
    main()
