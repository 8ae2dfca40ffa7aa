#!/usr/bin/env python3
"""Draws the true quad (green, first corner a dot) and the found one (red, first corner a dot)
over each photo, reduced to 900 px, into OUT_DIR; the file name starts with the IoU so the
failures sort first.

Usage: draw_quads.py EXPECTED_DIR RECORDS.jsonl OUT_DIR
"""
import json
import os
import sys

from PIL import Image, ImageDraw, ImageOps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import iou  # noqa: E402


def main():
    expected_dir, records_path, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, old))
    records = {os.path.splitext(r["file"])[0]: r for r in map(json.loads, open(records_path))}
    for f in sorted(os.listdir(expected_dir)):
        if not f.endswith(".expected.json"):
            continue
        stem = f[: -len(".expected.json")]
        truth = ((json.load(open(os.path.join(expected_dir, f))).get("card")) or {}).get("quad")
        found = ((records.get(stem) or {}).get("card") or {}).get("quad")
        image_name = next((n for n in os.listdir(expected_dir) if n.startswith(stem + ".") and not n.endswith(".json")), None)
        if not truth or not image_name:
            continue
        image = ImageOps.exif_transpose(Image.open(os.path.join(expected_dir, image_name))).convert("RGB")
        scale = 900 / max(image.size)
        image = image.resize((round(image.width * scale), round(image.height * scale)))
        draw = ImageDraw.Draw(image)
        for quad, colour in ((truth, (0, 220, 0)), (found, (255, 0, 0))):
            if not quad:
                continue
            points = [(x * scale, y * scale) for x, y in quad]
            draw.line(points + points[:1], fill=colour, width=2)
            x, y = points[0]
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour)
        score = iou(truth, found) if found else 0.0
        image.save(os.path.join(out_dir, f"{score:.3f}-{stem}.jpg"), quality=80)


if __name__ == "__main__":
    main()
