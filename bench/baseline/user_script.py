#!/usr/bin/env python3
"""The script a user would write instead of snapsort: the baseline of `make bench`.

OpenCV contour detection and warp (grey → blur → Canny → findContours → approxPolyDP at
0.02 × perimeter → largest quadrilateral), scikit-learn k-means for 4 dominant colours,
pyzbar for barcodes (crop first, then the whole photo), pytesseract on the whole photo with the
first line as the name. Writes one JSON line per image (same field names as snapsort's records,
so the same evaluation scripts read both) and per-stage timings.

Usage: user_script.py INPUT_DIR OUTPUT_JSONL [--jobs N]
"""
import json
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np
import pytesseract
from pyzbar import pyzbar
from sklearn.cluster import KMeans

EXTENSIONS = {".jpg", ".jpeg", ".png", ".webp"}


def order_corners(points):
    points = points.reshape(4, 2).astype(np.float64)
    s = points.sum(axis=1)
    d = np.diff(points, axis=1).ravel()
    return np.array([points[np.argmin(s)], points[np.argmin(d)], points[np.argmax(s)], points[np.argmax(d)]])


def detect_card(image):
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = 1000.0 / max(grey.shape)
    small = cv2.resize(grey, None, fx=scale, fy=scale) if scale < 1 else grey
    scale = min(scale, 1.0)
    blurred = cv2.GaussianBlur(small, (5, 5), 0)
    edges = cv2.Canny(blurred, 75, 200)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        perimeter = cv2.arcLength(contour, True)
        approx = cv2.approxPolyDP(contour, 0.02 * perimeter, True)
        if len(approx) == 4:
            return order_corners(approx) / scale
    return None


def warp(image, quad, width=1012, height=638):
    target = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(image, matrix, (width, height))


def palette(crop):
    small = cv2.resize(crop, (96, 60)).reshape(-1, 3)[:, ::-1]
    model = KMeans(n_clusters=4, n_init=4, random_state=0).fit(small)
    counts = np.bincount(model.labels_, minlength=4)
    order = np.argsort(-counts)
    return [
        {"hex": "#%02x%02x%02x" % tuple(int(c) for c in model.cluster_centers_[i]), "share": round(counts[i] / counts.sum(), 3)}
        for i in order
    ]


SYMBOLOGIES = {"EAN13": "ean13", "EAN8": "ean8", "UPCA": "upca", "UPCE": "upce", "CODE128": "code128",
               "CODE39": "code39", "QRCODE": "qr", "I25": "i25", "PDF417": "pdf417"}


def barcodes(image):
    return [{"symbology": SYMBOLOGIES.get(code.type, code.type.lower()), "value": code.data.decode("utf-8", "replace")}
            for code in pyzbar.decode(image)]


def process(path_and_root):
    path, root = path_and_root
    timings = {}
    record = {"file": os.path.relpath(path, root), "status": "ok", "card": {}}
    start = time.perf_counter()
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    timings["load"] = time.perf_counter() - start
    if image is None:
        record["status"] = "error"
        return record, timings
    start = time.perf_counter()
    quad = detect_card(image)
    timings["detect_card"] = time.perf_counter() - start
    crop = None
    if quad is not None:
        record["card"]["quad"] = [[round(float(x), 1), round(float(y), 1)] for x, y in quad]
        start = time.perf_counter()
        crop = warp(image, quad)
        timings["warp"] = time.perf_counter() - start
        start = time.perf_counter()
        record["card"]["colors"] = palette(crop)
        timings["palette"] = time.perf_counter() - start
    else:
        record["card"]["quad"] = None
    start = time.perf_counter()
    found = barcodes(crop) if crop is not None else []
    if not found:
        found = barcodes(image)
    record["card"]["barcodes"] = found
    timings["barcode"] = time.perf_counter() - start
    start = time.perf_counter()
    text = pytesseract.image_to_string(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    record["card"]["name"] = {"suggested": lines[0] if lines else None, "alternatives": lines[1:3]}
    timings["ocr"] = time.perf_counter() - start
    return record, timings


def main():
    root, output = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    paths = sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(root)
        for name in names
        if os.path.splitext(name)[1].lower() in EXTENSIONS
    )
    start = time.perf_counter()
    with Pool(jobs) as pool:
        results = pool.map(process, [(p, root) for p in paths], chunksize=1)
    wall = time.perf_counter() - start
    stage_times = {}
    with open(output, "w") as out:
        for record, timings in results:
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            for stage, seconds in timings.items():
                stage_times.setdefault(stage, []).append(seconds * 1000)
    summary = {
        "images": len(paths), "wall_seconds": round(wall, 3), "jobs": jobs,
        "stages": {s: {"p50_ms": round(float(np.median(v)), 2), "count": len(v)} for s, v in stage_times.items()},
    }
    with open(output + ".summary.json", "w") as out:
        json.dump(summary, out, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
