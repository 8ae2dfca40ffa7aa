#!/usr/bin/env python3
"""Draws the true quad (green, first corner a dot) and the found one (red, first corner a dot)
over each photo, reduced to 900 px, into OUT_DIR; the file name starts with the IoU so the
failures sort first.

Usage: draw_quads.py EXPECTED_DIR RECORDS.jsonl OUT_DIR [--misses]

EXPECTED_DIR is a samples-style folder (NAME.expected.json) or a bench/gen render (NAME.json
beside each image); on a render the panel box (blue) and the other cards (yellow) the generator
drew are outlined too, and passes (no card rectangle) are left out. `--misses`: only quads under
IoU 0.9. Look at train renders only.
"""
import json
import os
import sys

from PIL import Image, ImageDraw, ImageOps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_cards import iou  # noqa: E402


def truths(expected_dir):
    """(stem, image name, true quad, outlines of what else was drawn) for each image with a quad."""
    names = sorted(os.listdir(expected_dir))
    for f in names:
        if f.endswith(".expected.json"):
            stem = f[: -len(".expected.json")]
            truth = ((json.load(open(os.path.join(expected_dir, f))).get("card")) or {}).get("quad")
            image_name = next((n for n in names if n.startswith(stem + ".") and not n.endswith(".json")), None)
            yield stem, image_name, truth, []
        elif f.endswith(".json"):
            t = json.load(open(os.path.join(expected_dir, f)))
            if "quad" not in t or "file" not in t:
                continue
            outlines = [(o["quad"], (255, 200, 0)) for o in t.get("others") or []]
            if t.get("panel_box"):
                x0, y0, x1, y1 = t["panel_box"]
                outlines.append(([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], (0, 120, 255)))
            yield os.path.splitext(t["file"])[0], t["file"], t["quad"], outlines


def main():
    args = [a for a in sys.argv[1:] if a != "--misses"]
    misses_only = "--misses" in sys.argv[1:]
    expected_dir, records_path, out_dir = args[:3]
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, old))
    records = {os.path.splitext(os.path.basename(r["file"]))[0]: r for r in map(json.loads, open(records_path))}
    for stem, image_name, truth, outlines in truths(expected_dir):
        found = ((records.get(stem) or {}).get("card") or {}).get("quad")
        if not truth or not image_name:
            continue
        score = iou(truth, found) if found else 0.0
        if misses_only and score >= 0.9:
            continue
        image = ImageOps.exif_transpose(Image.open(os.path.join(expected_dir, image_name))).convert("RGB")
        scale = 900 / max(image.size)
        image = image.resize((round(image.width * scale), round(image.height * scale)))
        draw = ImageDraw.Draw(image)
        for quad, colour in outlines:
            points = [(x * scale, y * scale) for x, y in quad]
            draw.line(points + points[:1], fill=colour, width=1)
        for quad, colour in ((truth, (0, 220, 0)), (found, (255, 0, 0))):
            if not quad:
                continue
            points = [(x * scale, y * scale) for x, y in quad]
            draw.line(points + points[:1], fill=colour, width=2)
            x, y = points[0]
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour)
        image.save(os.path.join(out_dir, f"{score:.3f}-{stem}.jpg"), quality=80)


if __name__ == "__main__":
    main()
