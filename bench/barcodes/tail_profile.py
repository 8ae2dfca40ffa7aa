#!/usr/bin/env python3
"""Which of the barcode stage's passes read a code that counts, and what the others cost (issue #28
item 2), from `SNAPSORT_BARCODE_TRACE=1` traces of rendered cards whose truth is beside them.

For each image: the stage's CPU (the trace's `cpu_ms`, else the sum of its passes), whether a
confirmed code is the truth's (score_cards.py's forms), and the pass that confirmed it (the read
that made it confirmed: an error-corrected code's first read, a linear code's read by the second
library or its second pass). Prints what the whole image's other passes (after its first looks,
on a small image with a card crop) did where nothing had been read before them
(bench/barcodes/SPEED.md: a skip of those passes, tried and not taken); then, per scan/pass (most
CPU first), how often it ran, its CPU and the exact codes it confirmed; then the images of the tail
(the slowest tenth) with where their CPU went.

    tail_profile.py IMAGES_DIR TRACE [IMAGES_DIR TRACE ...]
"""
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen"))
from score_cards import code_forms  # noqa: E402


def cost(p):
    return p["prepare_ms"] + p["zxing_ms"] + p["zbar_ms"]


def confirming_read(candidate):
    """The read after which the candidate counted as confirmed (scan/pass), or None."""
    reads, how = candidate["reads"], candidate["confirmation"]
    if how == "unconfirmed" or not reads:
        return None
    if how == "error-correction":
        return reads[0].rsplit("/", 1)[0]
    if how == "both-libraries":
        seen = set()
        for read in reads:
            seen.add(read.rsplit("/", 1)[1])
            if len(seen) >= 2:
                return read.rsplit("/", 1)[0]
    return reads[min(1, len(reads) - 1)].rsplit("/", 1)[0]


def load(pairs):
    images = []
    for folder, path in pairs:
        for line in open(path, errors="replace"):
            if not line.startswith('{"barcode_trace"'):
                continue
            trace = json.loads(line)["barcode_trace"]
            stem = os.path.splitext(trace["item"])[0]
            truth = json.load(open(os.path.join(folder, stem + ".json")))
            code = truth.get("barcode")
            forms = code_forms(code["symbology"], code["value"]) if code else set()
            exact = [c for c in trace["candidates"] if c["confirmation"] != "unconfirmed" and c["value"] in forms]
            images.append({
                "set": os.path.basename(folder.rstrip("/")), "item": trace["item"], "has_code": bool(code),
                "cpu": trace.get("cpu_ms", sum(cost(p) for p in trace["passes"])),
                "passes": trace["passes"], "by": confirming_read(exact[0]) if exact else None,
                "reads": [r.rsplit("/", 1)[0] for c in trace["candidates"] for r in c["reads"]],
            })
    return images


def main(args):
    images = load(zip(args[0::2], args[1::2]))
    whole_retries(images)
    rows = defaultdict(lambda: {"runs": 0, "cpu": 0.0, "order": 1e9, "confirmed": 0, "sets": set()})
    for image in images:
        for index, p in enumerate(image["passes"]):
            row = rows[f'{p["scan"]}/{p["pass"]}']
            row["runs"] += 1
            row["cpu"] += cost(p)
            row["order"] = min(row["order"], index)
        if image["by"]:
            rows[image["by"]]["confirmed"] += 1
            rows[image["by"]]["sets"].add(image["set"])
    total = sum(i["cpu"] for i in images)
    exact = sum(1 for i in images if i["by"])
    print(f"{len(images)} images ({sum(i['has_code'] for i in images)} with a code, {exact} exact); "
          f"traced CPU {total:.0f} ms\n")
    print("| scan/pass | runs | CPU ms | share | exact codes it confirmed |")
    print("|---|---:|---:|---:|---:|")
    for key, row in sorted(rows.items(), key=lambda kv: -kv[1]["cpu"]):
        print(f'| {key} | {row["runs"]} | {row["cpu"]:.0f} | {row["cpu"] / total:.1%} | {row["confirmed"]} |')
    cpus = sorted(i["cpu"] for i in images)
    cut = cpus[int(0.9 * (len(cpus) - 1))]
    tail = [i for i in images if i["cpu"] >= cut]
    print(f"\nTail: {len(tail)} images at or above the 90th percentile ({cut:.0f} ms), "
          f"{sum(i['cpu'] for i in tail):.0f} ms of {total:.0f}\n")
    print("| image | code | exact by | CPU ms | largest passes |")
    print("|---|---|---|---:|---|")
    for image in sorted(tail, key=lambda i: -i["cpu"]):
        top = sorted(image["passes"], key=lambda p: -cost(p))[:4]
        names = ", ".join(f'{p["scan"]}/{p["pass"]} {cost(p):.0f}' for p in top)
        print(f'| {image["set"]}/{image["item"]} | {"yes" if image["has_code"] else "no"} | '
              f'{image["by"] or "-"} | {image["cpu"]:.0f} | {names} |')


FIRST_LOOKS = ("plain", "inverted", "try-harder", "zbar")
CROP_FIRST = ("plain", "inverted", "gate")


def whole_retries(images):
    """The whole image's passes after its first looks on images with a card crop: all of them, and
    those with nothing read before them, split by whether the crop's other passes ran (its gate
    open) or not."""
    rows = defaultdict(lambda: [0, 0.0, 0])
    for image in images:
        retries = [p for p in image["passes"] if p["scan"] == "analysis" and p["pass"] not in FIRST_LOOKS]
        if not retries or not any(p["scan"] == "crop" for p in image["passes"]):
            continue
        names = {f'analysis/{p["pass"]}' for p in retries}
        before = [r for r in image["reads"] if r.split("+")[0] not in names and r.split("/")[0] in ("crop", "analysis")]
        crop_retried = any(p["scan"] == "crop" and p["pass"] not in CROP_FIRST for p in image["passes"])
        keys = ["all"]
        if not before:
            keys.append("nothing read before, crop retried" if crop_retried else "nothing read before, crop gated")
        for key in keys:
            rows[key][0] += 1
            rows[key][1] += sum(cost(p) for p in retries)
            rows[key][2] += image["by"] in names
    print("\n| whole image's other passes after a card crop's | images | CPU ms | exact codes confirmed |")
    print("|---|---:|---:|---:|")
    for key, (n, spent, exact) in rows.items():
        print(f"| {key} | {n} | {spent:.0f} | {exact} |")

if __name__ == "__main__":
    main(sys.argv[1:])
