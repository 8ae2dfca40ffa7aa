#!/usr/bin/env python3
"""Printed lines and truth of train-split receipts of chosen layout families, without images (a
bench tool): the extractor's ceiling on a family in seconds, before any OCR run.

    family_lines.py OUT --families long_names,qty_columns --count 200 --seed 5

Writes OUT/NAME.json as bench/gen/receipts.py does (items, totals, `lines`), drawn from
`random.Random(f"lines:{seed}:{index}")`; refuses held-out families. Then
`rendered_text.py OUT TXT --truth`, `snapsort receipt-text TXT --json > run.jsonl` and
`score_rendered.py OUT run.jsonl`.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import receipts  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--families", required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    families = args.families.split(",")
    heldout = set(receipts.load_splits()["heldout"]["families"])
    if set(families) & heldout or set(families) - set(receipts.FAMILIES):
        sys.exit(f"train families only: {sorted(set(families) & heldout | set(families) - set(receipts.FAMILIES))}")
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.count):
        rng = random.Random(f"lines:{args.seed}:{index}")
        family = rng.choice(families)
        lang = rng.choice(list(receipts.LANGS))
        builder, truth = receipts.build(rng, family, lang)
        lines = [receipts.Builder.text_of(line, builder.cols) if line["style"] not in ("blank", "barcode") else ""
                 for line in builder.lines]
        truth.update({"layout_family": family, "language": lang, "split": "train", "seed": args.seed, "index": index,
                      "capture": "lines", "font": "none", "lines": lines})
        with open(os.path.join(args.out, f"lines-{args.seed}-{index:05d}.json"), "w", encoding="utf-8") as f:
            json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
            f.write("\n")
    print(f"wrote {args.count} receipts' lines into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
