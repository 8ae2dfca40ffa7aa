#!/usr/bin/env python3
"""Fits when the barcode stage's full-resolution fallback can be skipped beside a photographed card
(issue #28 item 2, the tail), on training traces only.

The fallback reads the whole image again at up to `fallback_max_side` when nothing was confirmed.
Beside a card drawn on a screen (its quad square to the image within the warp stage's `square_upright_degrees`, 0.25)
it reads other cards' codes in a wallet's list; beside a photographed card, nothing in the training
photos. On the card itself the crop's passes have read the card sampled from the full-resolution
image; the fallback adds resolution there only when the crop has fewer pixels per card pixel than
the fallback's copy. So the rule: skip the fallback for a photographed card whose crop's linear
density (sqrt(crop pixels / quad area in image pixels)) reaches `fallback_skip_crop_density` times
the fallback's (min(1, fallback_max_side / the image's longest side)).

For each traced image whose fallback ran this prints the card's tilt, the density ratio, the
fallback's CPU and every code it read (confirmed or not); then the fit: with no photographed-card
positive, the lowest ratio among the training photos whose fallback ran (the rule then reaches no
photo less densely cropped than any training photo); with positives, above the largest of them.

    fit_fallback.py IMAGES_DIR TRACE RECORDS [IMAGES_DIR TRACE RECORDS ...]

TRACE is a `SNAPSORT_BARCODE_TRACE=1` run (stderr) of the cards preset up to its barcode stage
(bench/barcodes/false/cards-codes.json) on rendered training cards, RECORDS its records.jsonl.
"""
import json
import math
import os
import sys

FALLBACK_MAX_SIDE = 3200
SCREEN_DEGREES = 0.25


def cost(p):
    return p["prepare_ms"] + p["zxing_ms"] + p["zbar_ms"]


def area(q):
    return abs(sum(q[i][0] * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * q[i][1] for i in range(4))) / 2


def square(q):
    limit = math.tan(math.radians(SCREEN_DEGREES))
    return all(min(abs(q[(k + 1) % 4][0] - q[k][0]), abs(q[(k + 1) % 4][1] - q[k][1]))
               <= limit * max(abs(q[(k + 1) % 4][0] - q[k][0]), abs(q[(k + 1) % 4][1] - q[k][1])) for k in range(4))


def runs(folder, trace_path, records_path):
    records = {}
    for line in open(records_path):
        r = json.loads(line)
        records[r["file"]] = r
    for line in open(trace_path, errors="replace"):
        if not line.startswith('{"barcode_trace"'):
            continue
        trace = json.loads(line)["barcode_trace"]
        passes = trace["passes"]
        full = [p for p in passes if p["scan"] == "full"]
        if not full:
            continue
        record = records[trace["item"]]
        quad = (record.get("card") or {}).get("quad")
        crop = [p for p in passes if p["scan"] == "crop" and p["pass"] == "plain"]
        if not quad or len(quad) != 4 or not crop:
            yield trace["item"], None, None, sum(map(cost, full)), []
            continue
        side = max(record["image"]["width"], record["image"]["height"])
        ratio = math.sqrt(crop[0]["pixels"] / area(quad)) / min(1, FALLBACK_MAX_SIDE / side)
        reads = [(c["value"], c.get("confirmation")) for c in trace["candidates"]
                 if any(r.startswith("full/") for r in c["reads"])]
        yield f'{os.path.basename(folder.rstrip("/"))}/{trace["item"]}', not square(quad), ratio, sum(map(cost, full)), reads


def main(args):
    rows = []
    for i in range(0, len(args), 3):
        rows += list(runs(*args[i:i + 3]))
    for name, photographed, ratio, ms, reads in rows:
        kind = "no card" if photographed is None else "photographed" if photographed else "on screen"
        print(f"{name:40s} {kind:12s} ratio {ratio or 0:5.2f} fallback {ms:6.1f} ms reads {reads}")
    photos = [r for r in rows if r[1]]
    positives = [r for r in photos if r[4]]
    negatives = [r for r in photos if not r[4]]
    print(f"\nfallback runs {len(rows)}: photographed card {len(photos)} ({sum(r[3] for r in photos) / 1000:.2f} s, "
          f"{len(positives)} read anything), on screen {sum(1 for r in rows if r[1] is False)} "
          f"({sum(r[3] for r in rows if r[1] is False) / 1000:.2f} s, {sum(1 for r in rows if r[1] is False and r[4])} read anything), "
          f"no card {sum(1 for r in rows if r[1] is None)}")
    low = min(r[2] for r in negatives)
    bound = max([low] + [r[2] * 1.01 for r in positives])
    skipped = [r for r in photos if r[2] >= bound]
    print(f"fallback_skip_crop_density {math.floor(bound * 100) / 100:.2f} (photographed ratios {low:.2f}-"
          f"{max(r[2] for r in negatives):.2f}, positives {[round(r[2], 2) for r in positives]}): skips {len(skipped)} "
          f"fallbacks, {sum(r[3] for r in skipped) / 1000:.2f} s of pass CPU, cuts {sum(1 for r in skipped if r[4])} that read")


if __name__ == "__main__":
    main(sys.argv[1:])
