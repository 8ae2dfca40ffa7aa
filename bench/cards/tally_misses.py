#!/usr/bin/env python3
"""Screenshot card-quad misses counted by what the generator drew (a dev tool, never the product).

    bench/.venv/bin/python bench/cards/tally_misses.py GEN_DIR OUT/records.jsonl [GEN_DIR OUT/records.jsonl ...] \
        [--by theme,app,layout,card_on_theme,panel,shadow,platform,stack]

For each key (one or two joined by `x`, e.g. `theme` or `app x theme`), the misses (quad IoU < 0.9)
over the images with a card quad, and their causes as `classify_misses.py` names them. Only counts
are printed, never a file, so it may be run on held-out sets to see which kinds of screen the train
generator under-represents (issue #25: compare held-out and train rates per kind, then widen the
train families there; never fit on the held-out counts). `card_on_theme` is "dark card on dark" /
"light card on light" (the card's largest painted colour, mean of RGB under 60 or over 200) or
"contrast".
"""
import argparse
import collections
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from score_cards import iou  # noqa: E402
from classify_misses import cards_by_file, screenshot_cause  # noqa: E402


def kinds(t):
    """The kinds of screen a truth file records, by key."""
    dark = t["screen"]["dark"]
    hexa = t["colors"][0]["hex"] if t.get("colors") else "#808080"
    level = sum(int(hexa[i:i + 2], 16) for i in (1, 3, 5)) / 3
    on_theme = "dark card on dark" if dark and level < 60 else ("light card on light" if not dark and level > 200 else "contrast")
    stack = next((e for e in t.get("effects") or [] if e.startswith("stack")), "none")
    return {"theme": "dark" if dark else "light", "app": t["app_family"], "layout": t["layout_family"],
            "card_on_theme": on_theme, "panel": "panel" if t.get("panel_box") else "no panel",
            "shadow": (t.get("shadow") or {}).get("kind") or "none", "platform": t["screen"]["platform"],
            "stack": stack}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+", help="GEN_DIR RECORDS pairs")
    ap.add_argument("--by", default="theme,app,layout,card_on_theme,panel,stack,app x theme")
    args = ap.parse_args()
    if len(args.pairs) % 2:
        sys.exit("give GEN_DIR RECORDS pairs")
    keys = [[k.strip() for k in key.split(" x ")] for key in args.by.split(",")]
    total, missed = collections.Counter(), collections.Counter()
    for gen, records in zip(args.pairs[0::2], args.pairs[1::2]):
        found = {name: card.get("quad") for name, card in cards_by_file(records).items()}
        for path in sorted(glob.glob(os.path.join(gen, "*.json"))):
            t = json.load(open(path, encoding="utf-8"))
            if not t.get("quad") or t.get("kind") != "screenshot":
                continue
            quad = found.get(t["file"])
            cause = None
            if not quad:
                cause = "no quad"
            elif iou(t["quad"], quad) < 0.9:
                cause = screenshot_cause(t, quad)
            k = kinds(t)
            for key in keys:
                group = (" x ".join(key), " / ".join(k[part] for part in key))
                total[group] += 1
                if cause:
                    missed[group] += 1
                    missed[group + (cause,)] += 1
    for group in sorted(total):
        causes = sorted(((n, c[2]) for c, n in missed.items() if len(c) == 3 and c[:2] == group), reverse=True)
        print("%-16s %-34s %4d / %4d  %s" % (group[0], group[1], missed[group], total[group],
                                             "; ".join("%s %d" % (c, n) for n, c in causes)))


if __name__ == "__main__":
    main()
