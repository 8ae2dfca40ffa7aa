#!/usr/bin/env python3
"""Splits a labelled issuer set (DIR/<issuer-id>/*.jpg|png|webp) for bench/issuers/eval.sh.

Writes, as hard links under OUT:
- train/<id>/: files of catalog issuers whose SHA-1 of "split:<file name>" falls in the train
  share (a split by file, independent of file order and of the renderer's seeds);
- test/<id>/: the other files of those issuers;
- held-out/<id>/: every file of the issuers listed in HELD_OUT (never trained on);
- eval/<id>/: test and held-out together (one pipeline pass measures both);
- catalog-known.json: the catalog without the held-out issuers, used for training and evaluation,
  so a held-out issuer's card has no right answer but "unknown".
Prints the counts as JSON.
"""
import argparse
import hashlib
import json
import os
import sys

IMAGES = (".jpg", ".jpeg", ".png", ".webp")


def fraction(text):
    return int(hashlib.sha1(text.encode()).hexdigest()[:13], 16) / 16**13


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--held-out", required=True, help="file with one issuer id a line (# comments)")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--test-fraction", type=float, default=0.3)
    args = parser.parse_args()
    held_out = {line.strip() for line in open(args.held_out) if line.strip() and not line.startswith("#")}
    with open(args.catalog, encoding="utf-8") as f:
        catalog = json.load(f)
    ids = {issuer["id"] for issuer in catalog["issuers"]}
    missing = held_out - ids
    if missing:
        sys.exit(f"held-out ids not in the catalog: {sorted(missing)}")
    counts = {part: {"photos": 0, "screenshots": 0, "issuers": set()} for part in ("train", "test", "held-out")}
    for issuer in sorted(os.listdir(args.source)):
        folder = os.path.join(args.source, issuer)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.lower().endswith(IMAGES):
                continue
            if issuer in held_out:
                parts = ["held-out", "eval"]
            elif fraction("split:" + name) < args.test_fraction:
                parts = ["test", "eval"]
            else:
                parts = ["train"]
            for part in parts:
                target = os.path.join(args.out, part, issuer)
                os.makedirs(target, exist_ok=True)
                os.link(os.path.join(folder, name), os.path.join(target, name))
            entry = counts[parts[0]]
            entry["screenshots" if name.endswith(".png") else "photos"] += 1
            entry["issuers"].add(issuer)
    known = dict(catalog)
    known["issuers"] = [issuer for issuer in catalog["issuers"] if issuer["id"] not in held_out]
    with open(os.path.join(args.out, "catalog-known.json"), "w", encoding="utf-8") as f:
        json.dump(known, f, ensure_ascii=False, indent=1)
    summary = {part: {"photos": c["photos"], "screenshots": c["screenshots"], "images": c["photos"] + c["screenshots"],
                      "issuers": len(c["issuers"])} for part, c in counts.items()}
    summary["catalog_known"] = len(known["issuers"])
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
