#!/usr/bin/env python3
"""Renders the open-set issuer setting of issue #25 with bench/gen (a dev tool, never the product).

A user's labelled folder: ISSUERS catalog issuers, UNKNOWN of them left out of training AND of the
catalog. Both choices are fixed by SHA-1 of the issuer id with a salt (below) before any tuning,
so they do not move with the catalog's order or a random generator:
- the ISSUERS issuers whose SHA-1("openset:<id>") sort first are the user's issuers;
- of those, the UNKNOWN whose SHA-1("openset-unknown:<id>") sort first are never trained on.

Writes under OUT:
- train/<id>/: PER_TRAIN renders per known issuer on average, bench/gen `--split train` (train
  font, layout and app families), one image a job seeded by (seed, index);
- test/<id>/: PER_TEST renders per issuer of all ISSUERS on average with `--split heldout`
  (font, layout and app families training never saw), the unknown issuers included;
- test-fictional/unknown/: renders of invented brands (bench/gen's names), which are in no catalog;
- catalog-known.json: the bundled catalog without the UNKNOWN issuers;
- split.json: which issuers are where.
Every card is a brand of the issuer it is filed under; an issuer is drawn at random per image, so
counts per issuer vary as a user's folder would.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "gen"))

import art as A  # noqa: E402
import cards as C  # noqa: E402

CATALOG = os.path.join(ROOT, "Sources", "SnapsortStages", "Resources", "issuers.json")


def digest(text):
    return hashlib.sha1(text.encode()).hexdigest()


def choose(issuers, count, unknown):
    ids = sorted((issuer["id"] for issuer in issuers), key=lambda i: digest("openset:" + i))[:count]
    left_out = sorted(ids, key=lambda i: digest("openset-unknown:" + i))[:unknown]
    return sorted(ids), sorted(left_out)


def render(out, split, seed, count, issuers, fictional):
    """Renders `count` mixed images whose brand is one of `issuers` (or an invented one) into
    out/<id>/ and returns how many per folder."""
    original = A.make_content

    def content(rng, fams, lang=None):
        # Redraw until the card's brand is of the kind wanted; deterministic per image.
        while True:
            c = original(rng, fams, lang)
            if fictional and not c["in_catalog"] and not c["payment"]:
                return c
            if not fictional and c["in_catalog"]:
                return c

    A.make_content = content
    A.catalog.cache_clear()
    by_id = {issuer["id"]: issuer for issuer in A.catalog()}
    chosen = [by_id[i] for i in issuers] or list(by_id.values())
    A.catalog = lambda: chosen
    staging = out + ".staging"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    for index in range(count):
        C.render_one((seed, split, "mixed", index, staging, False, None, None))
    counts = {}
    for name in sorted(os.listdir(staging)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(staging, name), encoding="utf-8") as f:
            truth = json.load(f)
        folder = "unknown" if fictional else truth["issuer_id"]
        os.makedirs(os.path.join(out, folder), exist_ok=True)
        image = truth["file"]
        os.replace(os.path.join(staging, image), os.path.join(out, folder, f"{split}-{seed}-{image}"))
        counts[folder] = counts.get(folder, 0) + 1
    shutil.rmtree(staging)
    A.make_content = original
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--part", choices=["train", "test", "test-fictional"], required=True,
                        help="one part per process (bench/gen keeps its catalog in module state)")
    parser.add_argument("--issuers", type=int, default=44)
    parser.add_argument("--unknown", type=int, default=7)
    parser.add_argument("--per-train", type=int, default=5)
    parser.add_argument("--per-test", type=int, default=4)
    parser.add_argument("--fictional", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args()
    with open(CATALOG, encoding="utf-8") as f:
        catalog = json.load(f)
    ids, left_out = choose(catalog["issuers"], args.issuers, args.unknown)
    known = [i for i in ids if i not in left_out]
    os.makedirs(args.out, exist_ok=True)
    reduced = dict(catalog)
    reduced["issuers"] = [issuer for issuer in catalog["issuers"] if issuer["id"] not in left_out]
    with open(os.path.join(args.out, "catalog-known.json"), "w", encoding="utf-8") as f:
        json.dump(reduced, f, ensure_ascii=False, indent=1)
    with open(os.path.join(args.out, "split.json"), "w", encoding="utf-8") as f:
        json.dump({"known": known, "left_out": left_out}, f, indent=1)
    if args.part == "train":
        counts = render(os.path.join(args.out, "train"), "train", args.seed, args.per_train * len(known), known, False)
    elif args.part == "test":
        counts = render(os.path.join(args.out, "test"), "heldout", args.seed + 1, args.per_test * len(ids), ids, False)
    else:
        counts = render(os.path.join(args.out, "test-fictional"), "heldout", args.seed + 2, args.fictional, [], True)
    json.dump({"part": args.part, "images": sum(counts.values()), "folders": len(counts), "left_out": left_out},
              sys.stdout)
    print()


if __name__ == "__main__":
    main()
