#!/usr/bin/env python3
"""How much room to the side of a name line's box its re-reading needs: tesseract's line box
often ends where the background changes (a name set across a colour panel's edge: `PrivatBank`
read `PrivatBan`), and the re-reading then never sees the last letters. For every training card's
candidate line that is within 0.8 of the printed name (candidate logs of bench/names/fit.sh, the
card crops of the logging run in DIR-out), cuts the line out of the crop with a margin of a third
of its height above and below and M line heights to each side, scales it to 48 px (the ocr stage's
`name_line_height`), reads it with `tesseract -l Latin --psm 7` and counts exact names. A bench
tool: run it on `--split train` sets only; the chosen M goes into CardNameReader.lineImage.

    python bench/names/line_margin.py LOG=DIR ... [--margins 0.33,0.75,1.5] [--limit N]
"""
import argparse
import json
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
from line_height import read_line  # noqa: E402


def crops(pair):
    """Image file -> its card crop, from the logging run's records."""
    cards = pair.split("=", 1)[1].rstrip("/")
    found = {}
    with open(cards + "-out/records.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            crop = (r.get("card") or {}).get("crop")
            if crop:
                found[r["file"]] = os.path.join(cards + "-out", crop)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--margins", default="0.33,0.75,1.5")
    ap.add_argument("--height", type=int, default=48)
    ap.add_argument("--limit", type=int, default=1000)
    args = ap.parse_args()
    margins = [float(m) for m in args.margins.split(",")]
    exact = {m: 0 for m in margins}
    total = 0
    for pair in args.sets:
        crop_of = crops(pair)
        for truth, candidates in F.load([pair]):
            if total >= args.limit or truth["file"] not in crop_of:
                continue
            want = F.fold(truth["name"])
            lines = [c for c in candidates if c["features"].get("lines", 1) == 1
                     and F.ratio(F.fold(c["text"]), want) >= 0.8]
            if not lines:
                continue
            total += 1
            image = Image.open(crop_of[truth["file"]]).convert("L")
            x, y, w, h = lines[0]["box"]
            for m in margins:
                cut = image.crop((int(x - m * h), int(y - h / 3), int(x + w + m * h), int(y + h + h / 3)))
                s = args.height / max(1, h)
                scaled = cut.resize((max(1, round(cut.width * s)), max(1, round(cut.height * s))), Image.LANCZOS)
                exact[m] += F.norm(read_line(scaled, "Latin")) == F.norm(truth["name"])
    for m in margins:
        print(f"side margin {m:.2f} line heights: {exact[m]}/{total} names exact")


if __name__ == "__main__":
    main()
