#!/usr/bin/env python3
"""Where the merchant is lost on wide-margin scans (issue #23/#27, a bench tool, never the product):
a run over `bench/kind/augment.py`'s `~margins` variants (`sroie_000~margins.jpg` as augment.py
names them, or renamed as their sources) against a run over the same receipts as scanned, per
receipt and split by what the variant did to the scan.

    margins_merchant.py MARGINS.jsonl PLAIN.jsonl[,MORE.jsonl] [--seed 20261125] [--list]
                        [--renders bench/work/kind/receipts-train]

Both are records (a run's records.jsonl, its .snapsort/journal.jsonl while it runs, or
`receipt-text --records` re-extractions). The variant's draws are replayed from augment.py's
seeded generator and the source's size (the plain record's `image`), so each variant is known
blurred or sharp; "paper found" is whether `receipt_warp`'s outline is smaller than the page (else
the blank page is read with the receipt, and the raw scan is read again only under
`raw_reading_max_pixels`). Prints counts of merchant right (score.py's rule) per group, and of
wide pages whose reading gave fewer than 5 rows (the page scaled down to unreadable type).
"""
import argparse
import json
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDS = json.load(open(os.path.join(HERE, "folds.json")))


def records(paths):
    out = {}
    for path in paths.split(","):
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                # A variant is matched to its source by the source's stem (augment.py's `~margins`).
                out[score.stem(r["file"]).split("~")[0]] = r
    return out


def blur_of(stem, width, height, seed):
    """augment.py's `margins` draws for `stem`, in its order: the blur sigma, 0 for none."""
    rng = random.Random(f"{seed}:{stem}")
    page_h = int(height * rng.uniform(1.1, 1.8))
    page_w = max(int(width * rng.uniform(1.6, 3.5)), int(page_h / 1.414) if rng.random() < 0.5 else 0)
    rng.randint(200, 255)
    rng.randint(0, 12)
    rng.randint(0, page_w - width)
    rng.randint(0, page_h - height)
    return (rng.uniform(0.3, 1.0) if rng.random() < 0.5 else 0.0), (page_w, page_h)


def merchant_label(stem, renders):
    """The labelled merchant: a real receipt's by folds.json's folder, a render's by its truth."""
    info = FOLDS["sroie"].get(stem) or FOLDS["test"].get(stem)
    if info:
        return json.load(open(f"../shared/data/receipts/{info['folder']}/{stem}.json"))["merchant"]
    return json.load(open(os.path.join(renders, stem + ".json")))["merchant"]


def paper_found(record):
    quad = (record.get("receipt") or {}).get("quad") or []
    w, h = record["image"]["width"], record["image"]["height"]
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return bool(quad) and (max(xs) - min(xs)) * (max(ys) - min(ys)) < 0.85 * w * h


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("margins")
    ap.add_argument("plain")
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--renders", default="bench/work/kind/receipts-train", help="the renders' truths")
    ap.add_argument("--list", action="store_true", help="print each receipt the two runs disagree on")
    args = ap.parse_args()
    wide, plain = records(args.margins), records(args.plain)
    groups = Counter()
    for stem in sorted(set(wide) & set(plain)):
        label = merchant_label(stem, args.renders)
        img = plain[stem]["image"]
        blur, page = blur_of(stem, img["width"], img["height"], args.seed)
        if page != (wide[stem]["image"]["width"], wide[stem]["image"]["height"]):
            sys.exit(f"{stem}: the replayed page size {page} is not the variant's: another --seed?")
        a = (wide[stem].get("receipt") or {}).get("merchant")
        b = (plain[stem].get("receipt") or {}).get("merchant")
        ok_a, ok_b = score.merchant_ok(label, a), score.merchant_ok(label, b)
        key = ("blurred" if blur else "sharp", "paper found" if paper_found(wide[stem]) else "whole page")
        groups[key + ("n",)] += 1
        groups[key + ("wide",)] += ok_a
        groups[key + ("plain",)] += ok_b
        groups[key + ("blank",)] += len((wide[stem].get("receipt") or {}).get("text") or []) < 5
        if args.list and ok_a != ok_b:
            print(f"{stem} {'+' if ok_a else '-'} blur {blur:.2f} {key[1]}: {a!r} (scanned: {b!r}; label {label!r})")
    print("| variant | receipts | merchant right, scanned | on the wide page | wide page read < 5 rows |")
    print("|---|---|---|---|---|")
    columns = ("n", "plain", "wide", "blank")
    for key in sorted({k[:2] for k in groups}):
        print(f"| {key[0]}, {key[1]} | " + " | ".join(str(groups[key + (c,)]) for c in columns) + " |")
    print("| all | " + " | ".join(str(sum(v for k, v in groups.items() if k[2] == c)) for c in columns) + " |")


if __name__ == "__main__":
    main()
