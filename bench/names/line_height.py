#!/usr/bin/env python3
"""Which line height the Latin model reads a card's name line best at: cuts every name line out of
generated flat crops (bench/gen/cards.py --kind crop, ground-truth ink boxes in crop pixels) with
a margin of a third of its height, scales it so the ink box is H px high, reads it with
`tesseract --psm 7` and counts exact lines (case-insensitive, diacritics kept). A bench tool: run it
on a --split train set only; the chosen height goes into the ocr stage's `name_line_height`.

    python bench/names/line_height.py CROPS_DIR [--heights 24,32,40,48,64] [--lang Latin] [--limit N]
"""
import argparse
import glob
import json
import os
import subprocess
import tempfile

from PIL import Image


def read_line(image, lang):
    with tempfile.NamedTemporaryFile(suffix=".png") as f:
        image.save(f.name)
        out = subprocess.run(["tesseract", f.name, "stdout", "-l", lang, "--psm", "7"],
                             capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    return " ".join(out.stdout.split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("crops")
    ap.add_argument("--heights", default="24,32,40,48,64")
    ap.add_argument("--lang", default="Latin")
    ap.add_argument("--limit", type=int, default=60)
    args = ap.parse_args()
    heights = [int(h) for h in args.heights.split(",")]
    exact = {h: 0 for h in heights}
    total = 0
    for path in sorted(glob.glob(os.path.join(args.crops, "*.json")))[: args.limit]:
        truth = json.load(open(path))
        if truth.get("split") != "train" or truth.get("payment"):
            continue
        image = Image.open(os.path.join(args.crops, truth["file"])).convert("L")
        for line in truth["name_lines"]:
            x0, y0, x1, y1 = line["box"]
            margin = (y1 - y0) / 3
            cut = image.crop((int(x0 - margin), int(y0 - margin), int(x1 + margin), int(y1 + margin)))
            total += 1
            for h in heights:
                s = h / max(1, y1 - y0)
                scaled = cut.resize((max(1, round(cut.width * s)), max(1, round(cut.height * s))), Image.LANCZOS)
                exact[h] += read_line(scaled, args.lang).lower() == line["text"].lower()
    for h in heights:
        print(f"ink height {h:3d} px: {exact[h]}/{total} lines exact")


if __name__ == "__main__":
    main()
