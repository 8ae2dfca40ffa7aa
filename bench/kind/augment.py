#!/usr/bin/env python3
"""Real receipts captured the ways the kind classifier must also handle (a bench tool, never the
product): each receipt scanned with wide margins on a larger page, and each photographed in two
halves (the top or the bottom part alone). The file name keeps the source's stem
(`sroie_000~margins.jpg`), so bench/kind/fit_kind.py gives a variant the fold of its source and no
fold is scored by a model that saw its receipts in any form.

    python3 bench/kind/augment.py SRC_FOLDER... --out DIR [--seed S] [--variants margins,half,large]

Photos get `--variants half` only: a photo pasted on a scanner's page is no capture anyone makes.
"""
import argparse
import os
import random

from PIL import Image, ImageFilter


def margins(image, rng):
    """The receipt on a page 1.6 to 3.5 times its size, as a flatbed scan of the whole glass."""
    w, h = image.size
    page_h = int(h * rng.uniform(1.1, 1.8))
    page_w = max(int(w * rng.uniform(1.6, 3.5)), int(page_h / 1.414) if rng.random() < 0.5 else 0)
    shade = rng.randint(200, 255)
    page = Image.new("RGB", (page_w, page_h), (shade, shade, shade - rng.randint(0, 12)))
    x = rng.randint(0, page_w - w)
    y = rng.randint(0, page_h - h)
    page.paste(image, (x, y))
    if rng.random() < 0.5:
        page = page.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.0)))
    return page


def large(image, rng):
    """The `margins` page enlarged to 11 to 18 MP, as an uncropped 300 dpi flatbed scan of the
    whole glass (the German scans' size): flattened whole, such a page is over `receipt_warp`'s
    `max_pixels` and its print is read small."""
    page = margins(image, rng)
    w, h = page.size
    factor = (rng.uniform(11e6, 18e6) / (w * h)) ** 0.5
    return page.resize((int(w * factor), int(h * factor)), Image.LANCZOS)


def half(image, rng):
    """The top or the bottom 45 to 65 % of the receipt."""
    w, h = image.size
    share = rng.uniform(0.45, 0.65)
    if rng.random() < 0.5:
        return image.crop((0, 0, w, int(h * share)))
    return image.crop((0, int(h * (1 - share)), w, h))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--variants", default="margins,half")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for folder in args.sources:
        for name in sorted(os.listdir(folder)):
            if not name.lower().endswith((".jpg", ".jpeg", ".png")):
                continue
            stem = os.path.splitext(name)[0]
            rng = random.Random(f"{args.seed}:{stem}")
            image = Image.open(os.path.join(folder, name)).convert("RGB")
            for variant, make in (("margins", margins), ("half", half), ("large", large)):
                if variant not in args.variants.split(","):
                    continue
                make(image, rng).save(os.path.join(args.out, f"{stem}~{variant}.jpg"), "JPEG", quality=88)
                count += 1
    print(f"augment: {count} images → {args.out}")


if __name__ == "__main__":
    main()
