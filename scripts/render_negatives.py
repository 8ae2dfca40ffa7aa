#!/usr/bin/env python3
"""Renders samples/negatives/: photos and screenshots that hold no barcode or QR code but many
things a decoder can mistake for one (text, stripes, grids, checkerboards, dot patterns, a card
without a code). Any code reported on them is a false positive (a dev tool, never the product).

Deterministic: fixed seeds, so a re-render writes identical files.

    python3 scripts/render_negatives.py            # samples/negatives/
    python3 scripts/render_negatives.py --out DIR
"""
import argparse
import io
import json
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = "/usr/share/fonts/truetype/dejavu"
WORDS = (
    "member since points balance valid thru customer service terms apply store card loyalty "
    "receipt total subtotal tax cash change thank you visit again club bonus reward gift offer"
).split()


def font(size, bold=False, mono=False):
    name = "DejaVuSansMono" if mono else "DejaVuSans"
    return ImageFont.truetype(os.path.join(FONTS, name + ("-Bold" if bold else "") + ".ttf"), size)


def text_block(draw, rng, box, size, colour, mono=False):
    x0, y0, x1, y1 = box
    y = y0
    f = font(size, mono=mono)
    while y + size < y1:
        line, width = [], 0
        while True:
            word = rng.choice(WORDS) if rng.random() > 0.2 else str(rng.randint(10, 99999))
            w = draw.textlength(word + " ", font=f)
            if x0 + width + w > x1:
                break
            line.append(word)
            width += w
        draw.text((x0, y), " ".join(line), fill=colour, font=f)
        y += int(size * 1.4)


def stripes(rng, size, widths, colours=("#111111", "#f4f4f4"), vertical=True):
    img = Image.new("RGB", size, colours[1])
    d = ImageDraw.Draw(img)
    pos, i = 0, 0
    limit = size[0] if vertical else size[1]
    while pos < limit:
        w = rng.choice(widths)
        if i % 2 == 0:
            d.rectangle([pos, 0, pos + w - 1, size[1]] if vertical else [0, pos, size[0], pos + w - 1], fill=colours[0])
        pos += w
        i += 1
    return img


def photograph(img, rng, angle=None, blur=1.0, noise=6, size=(1280, 960)):
    """Puts a flat design on a table, turned and blurred a little, with sensor noise."""
    angle = rng.uniform(-12, 12) if angle is None else angle
    table = Image.new("RGB", (size[0] * 2, size[1] * 2), (rng.randint(90, 160), rng.randint(70, 120), rng.randint(50, 90)))
    design = img.rotate(angle, expand=True, resample=Image.BICUBIC, fillcolor=(0, 0, 0, 0)) if img.mode == "RGBA" else img.convert("RGBA").rotate(angle, expand=True, resample=Image.BICUBIC)
    table.paste(design, ((table.width - design.width) // 2, (table.height - design.height) // 2), design)
    photo = table.resize(size, Image.BILINEAR).filter(ImageFilter.GaussianBlur(blur))
    px = photo.load()
    for _ in range(size[0] * size[1] // 20):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        r, g, b = px[x, y]
        n = rng.randint(-noise, noise)
        px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    return photo


def card_without_code(rng):
    card = Image.new("RGB", (1012, 638), rng.choice(["#0a4d8c", "#8c1a0a", "#1d5c2e", "#f0e6d2"]))
    d = ImageDraw.Draw(card)
    fg = "#111111" if card.getpixel((0, 0))[0] > 200 else "#ffffff"
    d.text((60, 50), rng.choice(["Nordlicht Club", "Café Amsel", "Bäckerei Korn"]), fill=fg, font=font(72, bold=True))
    d.rectangle([0, 420, 1012, 500], fill="#222222")  # magnetic stripe band
    d.text((60, 530), "4000 1234 5678 9010"[: rng.choice([9, 14, 19])], fill=fg, font=font(44, mono=True))
    text_block(d, rng, (60, 180, 950, 400), 26, fg)
    return card


def screenshot(rng, body, dark):
    bg, fg = ("#000000", "#f2f2f2") if dark else ("#ffffff", "#111111")
    shot = Image.new("RGB", (1170, 2532), bg)
    d = ImageDraw.Draw(shot)
    d.text((60, 60), "9:41", fill=fg, font=font(44, bold=True))
    d.text((60, 200), rng.choice(["Wallet", "My cards", "Offers"]), fill=fg, font=font(84, bold=True))
    body(shot, d, fg, bg)
    for i in range(5):  # tab bar icons: small squares, a classic finder-pattern lookalike
        x = 120 + i * 220
        d.rectangle([x, 2350, x + 60, 2410], outline=fg, width=8)
        d.rectangle([x + 20, 2370, x + 40, 2390], fill=fg)
    return shot


def checkerboard(size, cell, colours=("#111111", "#eeeeee")):
    img = Image.new("RGB", size, colours[1])
    d = ImageDraw.Draw(img)
    for y in range(0, size[1], cell):
        for x in range(0, size[0], cell):
            if (x // cell + y // cell) % 2 == 0:
                d.rectangle([x, y, x + cell - 1, y + cell - 1], fill=colours[0])
    return img


def random_modules(rng, n, module, fill=0.5):
    """A square of random black modules: the texture of a 2-D code with no structure."""
    img = Image.new("RGB", (n * module, n * module), "#ffffff")
    d = ImageDraw.Draw(img)
    for y in range(n):
        for x in range(n):
            if rng.random() < fill:
                d.rectangle([x * module, y * module, (x + 1) * module - 1, (y + 1) * module - 1], fill="#000000")
    return img


def render(out):
    os.makedirs(out, exist_ok=True)
    made = []

    def save(name, img, fmt):
        path = os.path.join(out, name)
        if fmt == "jpg":
            img.convert("RGB").save(path, "JPEG", quality=85)
        else:
            img.save(path, "PNG", optimize=True)
        with open(os.path.splitext(path)[0] + ".expected.json", "w") as f:
            json.dump({"_truth": {"negative": True}, "card": {"barcodes": []}, "status": "ok"}, f, indent=1)
            f.write("\n")
        made.append(name)

    rng = random.Random(20261123)
    # Photos.
    page = Image.new("RGB", (900, 1200), "#fbfaf6")
    text_block(ImageDraw.Draw(page), rng, (60, 60, 840, 1140), 28, "#222222")
    save("photo-01-text.jpg", photograph(page, rng), "jpg")
    save("photo-02-stripes-even.jpg", photograph(stripes(rng, (900, 500), [6, 6, 12]), rng, angle=3), "jpg")
    save("photo-03-stripes-random.jpg", photograph(stripes(rng, (1000, 400), [2, 3, 4, 6, 8, 9, 12]), rng, angle=-2), "jpg")
    save("photo-04-checkerboard.jpg", photograph(checkerboard((800, 800), 40), rng), "jpg")
    save("photo-05-fine-grid.jpg", photograph(checkerboard((700, 700), 7), rng, blur=0.6), "jpg")
    save("photo-06-card-without-code.jpg", photograph(card_without_code(rng), rng), "jpg")
    save("photo-07-modules.jpg", photograph(random_modules(rng, 33, 18), rng), "jpg")
    shirt = stripes(rng, (1200, 900), [10, 14, 20, 28], colours=("#20305a", "#d8d0c0"), vertical=False)
    save("photo-08-striped-fabric.jpg", photograph(shirt, rng, angle=25, blur=1.5), "jpg")
    receipt = Image.new("RGB", (600, 1400), "#f7f5ef")
    text_block(ImageDraw.Draw(receipt), rng, (30, 30, 570, 1370), 24, "#333333", mono=True)
    save("photo-09-receipt-text.jpg", photograph(receipt, rng, angle=-6), "jpg")
    dots = Image.new("RGB", (900, 900), "#ffffff")
    dd = ImageDraw.Draw(dots)
    for y in range(0, 900, 18):
        for x in range(0, 900, 18):
            r = 3 + 4 * (0.5 + 0.5 * math.sin(x / 90) * math.cos(y / 120))
            dd.ellipse([x - r, y - r, x + r, y + r], fill="#000000")
    save("photo-10-halftone.jpg", photograph(dots, rng), "jpg")
    # Screenshots (1170 × 2532, as phones write them).
    def text_body(shot, d, fg, bg):
        text_block(d, rng, (60, 360, 1110, 2200), 40, fg)

    def stripes_body(shot, d, fg, bg):
        shot.paste(stripes(rng, (1050, 360), [4, 8, 12, 16], colours=(fg, bg)), (60, 600))
        text_block(d, rng, (60, 1100, 1110, 2200), 40, fg)

    def grid_body(shot, d, fg, bg):
        for row in range(6):
            for col in range(4):
                x, y = 60 + col * 270, 420 + row * 300
                d.rounded_rectangle([x, y, x + 240, y + 260], radius=30, outline=fg, width=6)
                d.rectangle([x + 90, y + 60, x + 150, y + 120], fill=fg)
                d.text((x + 30, y + 180), rng.choice(WORDS), fill=fg, font=font(30))

    def modules_body(shot, d, fg, bg):
        shot.paste(random_modules(rng, 25, 24), (285, 700))
        text_block(d, rng, (60, 1400, 1110, 2200), 40, fg)

    save("screenshot-01-text-light.png", screenshot(rng, text_body, False), "png")
    save("screenshot-02-text-dark.png", screenshot(rng, text_body, True), "png")
    save("screenshot-03-stripes.png", screenshot(rng, stripes_body, False), "png")
    save("screenshot-04-grid-dark.png", screenshot(rng, grid_body, True), "png")
    save("screenshot-05-modules.png", screenshot(rng, modules_body, False), "png")
    save("screenshot-06-checkerboard.png", checkerboard((1170, 2532), 90), "png")
    return made


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "samples", "negatives"))
    args = parser.parse_args()
    for name in render(args.out):
        print(os.path.join(args.out, name))
