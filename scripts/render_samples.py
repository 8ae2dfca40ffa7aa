#!/usr/bin/env python3
"""Renders snapsort's sample photos with their ground truth (a dev tool, never the product).

Card artwork is drawn here (ID-1 aspect, rounded corners, brand name, boilerplate, a barcode),
then "photographed": warped by a known homography onto wood, fabric, tiles or a white table,
with clutter, a hand, glare, blur, noise and JPEG compression. Screenshots put the artwork flat
into app chrome; receipts are thermal-printer text with known line items. Every image gets
NAME.expected.json beside it (see Sources/SnapsortCore/Regression/ExpectedRecords.swift).

Deterministic: fixed seeds, so a re-render writes identical files.

    python3 scripts/render_samples.py                       # samples/
    python3 scripts/render_samples.py --bench DIR --count N # N of each kind for make bench
    python3 scripts/render_samples.py --issuers DIR --per-issuer K [--seed S]  # every catalog issuer
"""
import argparse
import io
import json
import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = "/usr/share/fonts/truetype/dejavu"
CARD_W, CARD_H = 1012, 638  # ISO/IEC 7810 ID-1 at 300 dpi: 85.60 × 53.98 mm
CORNER_RADIUS = 36


def font(size, bold=False, mono=False, condensed=False):
    name = "DejaVuSansMono" if mono else ("DejaVuSansCondensed" if condensed else "DejaVuSans")
    if bold:
        name += "-Bold"
    return ImageFont.truetype(os.path.join(FONTS, name + ".ttf"), size)


# --- card designs --------------------------------------------------------------------------

# Real shops and programmes; names exercise diacritics. Colours are the brands' public colours.
DESIGNS = [
    {"id": "zabka", "name": "Żabka", "bg": "#006a3a", "fg": "#ffffff", "accent": "#f2c400", "code": ("ean13", "2900012345670"), "country": "PL"},
    {"id": "muller", "name": "Müller", "bg": "#f39200", "fg": "#ffffff", "accent": "#ffffff", "code": ("code128", "MU4410293847"), "country": "DE"},
    {"id": "ahlens", "name": "Åhléns", "bg": "#111111", "fg": "#ffffff", "accent": "#c8102e", "code": ("ean13", "7350012345675"), "country": "SE"},
    {"id": "tesco-clubcard", "name": "Tesco Clubcard", "bg": "#00539f", "fg": "#ffffff", "accent": "#ee1c2e", "code": ("ean13", "9794024123458"), "country": "GB"},
    {"id": "ikea-family", "name": "IKEA Family", "bg": "#0058a3", "fg": "#ffdb00", "accent": "#ffdb00", "code": ("qr", "https://www.ikea.com/family/6275980012345678"), "country": "SE"},
    {"id": "rossmann", "name": "Rossmann", "bg": "#c8102e", "fg": "#ffffff", "accent": "#ffffff", "code": ("ean13", "4305615123453"), "country": "DE"},
    {"id": "carrefour", "name": "Carrefour", "bg": "#ffffff", "fg": "#004e9f", "accent": "#e2001a", "code": ("ean13", "3250391234566"), "country": "FR"},
    {"id": "lidl-plus", "name": "Lidl Plus", "bg": "#0050aa", "fg": "#fff000", "accent": "#e60a14", "code": ("qr", "LIDLPLUS:4400012345678"), "country": "DE"},
    {"id": "albert-heijn", "name": "Albert Heijn", "bg": "#00a0e2", "fg": "#ffffff", "accent": "#ffffff", "code": ("ean13", "2620012345673"), "country": "NL"},
    {"id": "ica", "name": "ICA Stammis", "bg": "#e3000b", "fg": "#ffffff", "accent": "#ffffff", "code": ("code128", "ICA-88812345"), "country": "SE"},
    {"id": "decathlon", "name": "Decathlon", "bg": "#0082c3", "fg": "#ffffff", "accent": "#ffffff", "code": ("ean13", "2090012345674"), "country": "FR"},
    {"id": "biedronka", "name": "Moja Biedronka", "bg": "#e30613", "fg": "#ffffff", "accent": "#ffd500", "code": ("ean13", "2990012345679"), "country": "PL"},
    {"id": "kaffeeroesterei", "name": "Kaffeerösterei", "bg": "#4b2e1e", "fg": "#f3e3c3", "accent": "#c8a46e", "code": ("code39", "KR20931"), "country": "DE"},
    {"id": "norrebro-kaffe", "name": "Nørrebro Kaffe", "bg": "#f4efe6", "fg": "#1d3b2a", "accent": "#1d3b2a", "code": ("upca", "036000291452"), "country": "DK"},
    {"id": "ferreteria-nunez", "name": "Ferretería Núñez", "bg": "#ffcc00", "fg": "#1a1a1a", "accent": "#1a1a1a", "code": ("ean8", "96385074"), "country": "ES"},
    {"id": "sephora", "name": "Sephora", "bg": "#000000", "fg": "#ffffff", "accent": "#ffffff", "code": ("code128", "SEPH7720112"), "country": "FR"},
    {"id": "coop", "name": "Coop", "bg": "#00aa46", "fg": "#ffffff", "accent": "#ffffff", "code": ("pdf417", "COOP MEMBER 770012345"), "country": "SE"},
    {"id": "esselunga", "name": "Esselunga Fìdaty", "bg": "#ffffff", "fg": "#00843d", "accent": "#e2001a", "code": ("ean13", "8001234567897"), "country": "IT"},
]

def gs1_check_digit(body):
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


# The designs' retail codes are given without caring for the check digit; fix it here so every
# printed code is valid and the expected value is the printed one.
for _design in DESIGNS:
    _symbology, _value = _design["code"]
    if _symbology in ("ean13", "ean8", "upca"):
        _design["code"] = (_symbology, _value[:-1] + gs1_check_digit(_value[:-1]))

PAYMENT = [
    {"id": "visa-demo", "bank": "Nordbank", "network": "visa", "number": "4111111111111111", "bg": "#1a1f71", "fg": "#ffffff", "accent": "#f7b600"},
    {"id": "mastercard-demo", "bank": "Kasa Miejska", "network": "mastercard", "number": "2223003122003222", "bg": "#252525", "fg": "#ffffff", "accent": "#eb001b"},
    {"id": "amex-demo", "bank": "Harbor Trust", "network": "amex", "number": "378282246310005", "bg": "#2e77bb", "fg": "#ffffff", "accent": "#c0c0c0"},
]

HOLDERS = ["ANNA KOWALSKA", "JONAS MÜLLER", "ELSA LINDQVIST", "JAMES CARTER", "MARIE DUBOIS", "LUCA ROSSI"]


def rgb(hex_colour):
    hex_colour = hex_colour.lstrip("#")
    return tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))


def barcode_image(symbology, value, height):
    """A black-on-white image of the code (no human-readable text for 1-D codes)."""
    if symbology == "qr":
        import qrcode
        qr = qrcode.QRCode(border=2, box_size=8, error_correction=qrcode.constants.ERROR_CORRECT_M)
        qr.add_data(value)
        return qr.make_image(fill_color="black", back_color="white").convert("RGB")
    if symbology == "pdf417":
        import pdf417gen
        codes = pdf417gen.encode(value, columns=4, security_level=2)
        return pdf417gen.render_image(codes, scale=3, ratio=3, padding=10).convert("RGB")
    import barcode
    from barcode.writer import ImageWriter
    kind = {"ean13": "ean13", "ean8": "ean8", "upca": "upca", "code128": "code128", "code39": "code39"}[symbology]
    options = {"write_text": False, "module_height": 15.0, "quiet_zone": 4.0, "module_width": 0.33, "dpi": 300}
    data = value[:-1] if symbology in ("ean13", "ean8", "upca") else value
    kwargs = {"add_checksum": False} if symbology == "code39" else {}
    code = barcode.get_barcode_class(kind)(data, writer=ImageWriter(), **kwargs)
    buffer = io.BytesIO()
    code.write(buffer, options)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")


def gradient(size, colour, strength=0.12):
    width, height = size
    base = np.array(rgb(colour), dtype=np.float32)
    ramp = np.linspace(1 + strength, 1 - strength, width, dtype=np.float32)[None, :, None]
    image = np.clip(base[None, None, :] * ramp * np.ones((height, 1, 1), np.float32), 0, 255)
    return Image.fromarray(image.astype(np.uint8))


def render_card(design, rng, scale=2):
    """Card artwork at `scale` × 1012 × 638; returns the image (RGB) and the name shown."""
    w, h = CARD_W * scale, CARD_H * scale
    card = gradient((w, h), design["bg"], strength=0.06)
    draw = ImageDraw.Draw(card)
    fg, accent = rgb(design["fg"]), rgb(design["accent"])
    s = scale
    if "network" in design:
        draw.text((60 * s, 48 * s), design["bank"], font=font(64 * s, bold=True), fill=fg)
        draw.rounded_rectangle((80 * s, 210 * s, 200 * s, 300 * s), radius=12 * s, fill=(212, 175, 55))
        number = design["number"]
        groups = [number[0:4], number[4:10], number[10:]] if design["network"] == "amex" else [number[i:i + 4] for i in range(0, len(number), 4)]
        draw.text((80 * s, 360 * s), "  ".join(groups), font=font(56 * s, mono=True), fill=fg)
        draw.text((80 * s, 450 * s), "VALID THRU 09/29", font=font(26 * s), fill=fg)
        draw.text((80 * s, 520 * s), rng.choice(HOLDERS), font=font(34 * s), fill=fg)
        draw.text((760 * s, 520 * s), design["network"].upper(), font=font(44 * s, bold=True), fill=accent)
        card.info["brand_colors"] = [design["bg"]]
        return card, design["bank"]
    # A band of accent colour, the brand name large near the top, boilerplate small below.
    band_top = rng.choice([0, 0, 420 * s])
    if band_top:
        draw.rectangle((0, band_top, w, band_top + 40 * s), fill=accent)
    name = design["name"]
    size = 92 if len(name) < 12 else 72
    draw.text((56 * s, 44 * s), name, font=font(size * s, bold=True), fill=fg)
    draw.text((58 * s, (64 + size) * s), rng.choice(["Member since 2019", "Loyalty card", "Club member", "Bonus card"]), font=font(28 * s), fill=fg)
    symbology, value = design["code"]
    code = barcode_image(symbology, value, 0)
    if symbology in ("qr",):
        side = 300 * s
        code = code.resize((side, side), Image.NEAREST)
        box = (w - side - 60 * s, h - side - 50 * s)
    elif symbology == "pdf417":
        code = code.resize((560 * s, 200 * s), Image.NEAREST)
        box = ((w - code.width) // 2, h - code.height - 50 * s)
    else:
        code = code.resize((560 * s, 190 * s), Image.NEAREST)
        box = ((w - code.width) // 2, h - code.height - 60 * s)
    pad = 14 * s
    draw.rectangle((box[0] - pad, box[1] - pad, box[0] + code.width + pad, box[1] + code.height + pad), fill=(255, 255, 255))
    card.paste(code, box)
    draw.text((58 * s, 250 * s), rng.choice(HOLDERS), font=font(30 * s), fill=fg)
    # The brand colours that cover at least 5 % of the card: the background, and the accent when
    # its band (6 % of the height) is drawn.
    card.info["brand_colors"] = [design["bg"]] + ([design["accent"]] if band_top and design["accent"] != design["bg"] else [])
    return card, name


def rounded_mask(size, radius):
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=255)
    return mask


# --- backgrounds and photography -----------------------------------------------------------

def background(kind, size, rng):
    w, h = size
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin((y + 30 * np.sin(x / 170.0)) / 9.0) * 0.5 + 0.5
        noise = nrng.normal(0, 0.08, (h, w))
        t = np.clip(grain * 0.6 + noise, 0, 1)[..., None]
        image = (np.array([150, 98, 58]) * (1 - t) + np.array([196, 142, 92]) * t)
    elif kind == "fabric":
        y = np.arange(h)[:, None]
        x = np.arange(w)[None, :]
        weave = ((x // 6 + y // 6) % 2).astype(np.float32)
        noise = nrng.normal(0, 0.1, (h, w))
        t = np.clip(weave * 0.5 + noise + 0.25, 0, 1)[..., None]
        image = np.array([62, 74, 110]) * (1 - t) + np.array([92, 104, 140]) * t
    elif kind == "tiles":
        y = np.arange(h)[:, None]
        x = np.arange(w)[None, :]
        grout = ((x % 240) < 10) | ((y % 240) < 10)
        image = np.where(grout[..., None], np.array([120, 120, 115]), np.array([226, 222, 212])).astype(np.float32)
        image += nrng.normal(0, 6, (h, w, 1))
    elif kind == "white":
        image = np.full((h, w, 3), 236, np.float32) + nrng.normal(0, 3, (h, w, 1))
    else:  # dark desk
        image = np.full((h, w, 3), 46, np.float32) + nrng.normal(0, 5, (h, w, 1))
    return Image.fromarray(np.clip(image, 0, 255).astype(np.uint8))


def homography(src, dst):
    """3×3 matrix H with dst ~ H · src for four point pairs."""
    rows = []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=np.float64))
    return (vt[-1] / vt[-1, -1]).reshape(3, 3)


def paste_warped(canvas, art, quad, mask=None):
    """Draws `art` onto `canvas` so its corners land on `quad` (tl, tr, br, bl)."""
    w, h = art.size
    inverse = homography(quad, [(0, 0), (w, 0), (w, h), (0, h)])
    coefficients = inverse.flatten()[:8]
    warped = art.transform(canvas.size, Image.PERSPECTIVE, coefficients, Image.BICUBIC)
    alpha = (mask or Image.new("L", art.size, 255)).transform(canvas.size, Image.PERSPECTIVE, coefficients, Image.BICUBIC)
    canvas.paste(warped, (0, 0), alpha)


def card_quad(rng, size, fill, tilt, rotation, center_jitter=0.12):
    """Corners (tl, tr, br, bl of the card artwork) for a card covering `fill` of the frame."""
    w, h = size
    area = fill * w * h
    cw = math.sqrt(area * CARD_W / CARD_H)
    ch = cw * CARD_H / CARD_W
    cx = w / 2 + rng.uniform(-center_jitter, center_jitter) * w
    cy = h / 2 + rng.uniform(-center_jitter, center_jitter) * h
    corners = [(-cw / 2, -ch / 2), (cw / 2, -ch / 2), (cw / 2, ch / 2), (-cw / 2, ch / 2)]
    # Perspective: the far edge shrinks, as when the phone is tilted by `tilt` degrees.
    k = math.sin(math.radians(tilt)) * 0.5
    side = rng.choice([-1, 1])
    squeezed = []
    for x, y in corners:
        factor = 1 - k * (0.5 + side * y / ch)
        squeezed.append((x * factor, y * (1 - k * 0.35)))
    a = math.radians(rotation)
    placed = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in squeezed]
    # Keep the card inside the frame with a margin.
    xs, ys = [p[0] for p in placed], [p[1] for p in placed]
    dx = max(0, 20 - min(xs)) - max(0, max(xs) - (w - 20))
    dy = max(0, 20 - min(ys)) - max(0, max(ys) - (h - 20))
    return [(x + dx, y + dy) for x, y in placed]


def add_clutter(canvas, rng, kinds):
    draw = ImageDraw.Draw(canvas)
    w, h = canvas.size
    for kind in kinds:
        if kind == "receipt":
            x, y = rng.uniform(0.02, 0.2) * w, rng.uniform(0.05, 0.3) * h
            poly = [(x, y), (x + 0.16 * w, y + 0.02 * h), (x + 0.14 * w, y + 0.75 * h), (x - 0.02 * w, y + 0.73 * h)]
            draw.polygon(poly, fill=(246, 244, 238))
            for i in range(14):
                yy = y + 0.05 * h + i * 0.045 * h
                draw.line((x + 0.01 * w, yy, x + 0.11 * w, yy + 0.003 * h), fill=(90, 90, 90), width=3)
        elif kind == "business":
            x, y = rng.uniform(0.62, 0.75) * w, rng.uniform(0.6, 0.72) * h
            poly = [(x, y), (x + 0.22 * w, y + 0.03 * h), (x + 0.2 * w, y + 0.2 * h), (x - 0.02 * w, y + 0.17 * h)]
            draw.polygon(poly, fill=(250, 250, 250))
            draw.line((x + 0.02 * w, y + 0.06 * h, x + 0.15 * w, y + 0.08 * h), fill=(40, 40, 40), width=5)
        elif kind == "phone":
            x, y = rng.uniform(0.7, 0.8) * w, rng.uniform(0.05, 0.15) * h
            draw.rounded_rectangle((x, y, x + 0.17 * w, y + 0.55 * h), radius=int(0.02 * w), fill=(20, 20, 24))
            draw.rectangle((x + 0.01 * w, y + 0.03 * h, x + 0.16 * w, y + 0.5 * h), fill=(40, 60, 90))


def add_hand(canvas, quad, rng):
    """A thumb and palm overlapping the card's bottom-left region."""
    draw = ImageDraw.Draw(canvas)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    bx, by = x3 + (x2 - x3) * 0.12, y3 + (y2 - y3) * 0.12
    skin = (214, 168, 140)
    r = 0.06 * canvas.size[0]
    draw.ellipse((bx - r, by - r * 0.7, bx + r, by + r * 0.9), fill=skin)
    draw.ellipse((bx - 2.2 * r, by, bx + 0.5 * r, by + 5 * r), fill=(205, 158, 130))


def photograph(canvas, rng, glare=False, blur=0.0, light=True):
    array = np.asarray(canvas).astype(np.float32)
    h, w = array.shape[:2]
    if light:
        gx = np.linspace(rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.12), w, dtype=np.float32)[None, :, None]
        gy = np.linspace(rng.uniform(0.9, 1.05), rng.uniform(0.9, 1.05), h, dtype=np.float32)[:, None, None]
        array = array * gx * gy
    if glare:
        cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.3, 0.6) * h
        y, x = np.mgrid[0:h, 0:w]
        d = ((x - cx) / (0.12 * w)) ** 2 + ((y - cy) / (0.07 * h)) ** 2
        array = array + 190 * np.exp(-d)[..., None]
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    array = array + nrng.normal(0, 3.0, array.shape)
    if blur > 0:
        # Horizontal motion blur: the mean of `blur` shifted copies.
        size = int(blur)
        padded = np.pad(array, ((0, 0), (size, size), (0, 0)), mode="edge")
        array = sum(padded[:, size + k - size // 2: size + k - size // 2 + w] for k in range(size)) / size
    image = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))
    return image if blur > 0 else image.filter(ImageFilter.GaussianBlur(0.6))


def save_jpeg(image, path, quality=85, orientation=None):
    kwargs = {"quality": quality, "optimize": True}
    if orientation:
        exif = Image.Exif()
        exif[0x0112] = orientation
        kwargs["exif"] = exif.tobytes()
    image.save(path, "JPEG", **kwargs)


def write_expected(path, expected):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def rounded(points):
    return [[round(x, 1), round(y, 1)] for x, y in points]


def diagonal(quad):
    (x0, y0), _, (x2, y2), _ = quad
    return math.hypot(x2 - x0, y2 - y0)


# The issuer each sample design stands for, as Sources/SnapsortStages/Resources/issuers.json names
# it; None for the made-up shops, which the classifier must call unknown.
CATALOG_IDS = {"muller": "mueller", "tesco-clubcard": "tesco", "ikea-family": "ikea", "lidl-plus": "lidl",
               "coop": "coop-sverige", "kaffeeroesterei": None, "norrebro-kaffe": None, "ferreteria-nunez": None}


def card_expected(design, name, quad, variation, kind="photo", brand_colors=None):
    card = {"quad": rounded(quad)}
    if "network" in design:
        card["payment"] = {"network": design["network"], "last4": design["number"][-4:]}
        card["barcodes"] = []
    else:
        symbology, value = design["code"]
        card["barcodes"] = [{"symbology": symbology, "value": value}]
        card["issuer"] = {"id": CATALOG_IDS.get(design["id"], design["id"])}
        card["payment"] = None
    card["name"] = {"suggested": name}
    return {
        "_tolerance": {"card.quad": round(max(6.0, 0.015 * diagonal(quad)), 1)},
        "_truth": {"variation": variation, "kind": kind, "brand_colors": brand_colors or [design["bg"]],
                   "issuer_name": design.get("name", design.get("bank"))},
        "status": "ok", "kind": "card", "card": card,
    }


# Variation plan for samples/cards: (design index, background, fill, tilt°, rotation°, extras)
CARD_PLAN = [
    ("wood", 0.35, 12, 4, {}),
    ("fabric", 0.28, 25, -12, {}),
    ("tiles", 0.45, 8, 31, {}),
    ("white", 0.40, 15, -6, {"variation": "low_contrast"}),
    ("dark", 0.36, 20, 88, {"variation": "rotated_90"}),
    ("wood", 0.30, 10, 178, {"variation": "upside_down"}),
    ("fabric", 0.38, 18, 9, {"hand": True, "variation": "hand"}),
    ("tiles", 0.33, 14, -3, {"glare": True, "variation": "glare"}),
    ("wood", 0.42, 6, 5, {"blur": 9, "variation": "motion_blur"}),
    ("dark", 0.22, 30, -20, {"clutter": ["receipt", "business", "phone"], "variation": "other_rectangles"}),
    ("white", 0.18, 12, 45, {"clutter": ["receipt"], "variation": "small_card"}),
    ("fabric", 0.80, 5, 2, {"variation": "fills_frame"}),
    ("tiles", 0.36, 35, 0, {"variation": "tilt_35"}),
    ("wood", 0.34, 10, -90, {"orientation": 6, "variation": "exif_6"}),
    ("dark", 0.34, 12, 3, {"orientation": 8, "variation": "exif_8"}),
    ("fabric", 0.30, 16, 160, {"glare": True, "variation": "glare"}),
    ("wood", 0.37, 20, -30, {}),
    ("tiles", 0.40, 10, 12, {"clutter": ["business"], "variation": "other_rectangles"}),
]


def render_card_photo(design, rng, plan, size=(2016, 1512), art_scale=2):
    bg_kind, fill, tilt, rotation, extras = plan
    canvas = background(bg_kind, size, rng)
    add_clutter(canvas, rng, extras.get("clutter", []))
    art, name = render_card(design, rng, scale=art_scale)
    brand_colors = art.info["brand_colors"]
    if bg_kind == "white" and "network" not in design:
        # Low contrast: a white card on a white table.
        art = Image.blend(art, Image.new("RGB", art.size, (244, 244, 244)), 0.0)
    quad = card_quad(rng, size, fill, tilt, rotation)
    # A soft shadow under the card, as on a table.
    shadow = Image.new("RGB", size, (0, 0, 0))
    shadow_mask = Image.new("L", size, 0)
    ImageDraw.Draw(shadow_mask).polygon([(x + 8, y + 10) for x, y in quad], fill=70)
    canvas.paste(shadow, (0, 0), shadow_mask.filter(ImageFilter.GaussianBlur(12)))
    paste_warped(canvas, art, quad, rounded_mask(art.size, CORNER_RADIUS * art_scale))
    if extras.get("hand"):
        add_hand(canvas, quad, rng)
    image = photograph(canvas, rng, glare=extras.get("glare", False), blur=extras.get("blur", 0))
    return image, quad, name, extras.get("variation", bg_kind), brand_colors


def rotate_for_exif(image, quad, orientation):
    """The stored (rotated) image for an EXIF orientation; the quad stays in display pixels."""
    if orientation == 6:  # display = stored rotated 90° clockwise, so store it 90° counter-clockwise
        return image.transpose(Image.ROTATE_90)
    if orientation == 8:
        return image.transpose(Image.ROTATE_270)
    return image


def render_cards(out_dir, rng, count=None, plan=CARD_PLAN, designs=None, prefix="card"):
    os.makedirs(out_dir, exist_ok=True)
    designs = designs or (DESIGNS + PAYMENT)
    items = list(plan) if count is None else [plan[i % len(plan)] for i in range(count)]
    for index, entry in enumerate(items):
        design = designs[index % len(designs)] if count is None else rng.choice(designs)
        if count is None and index in (4, 10, 16):
            design = PAYMENT[(index // 6) % len(PAYMENT)]
        image, quad, name, variation, brand_colors = render_card_photo(design, rng, entry)
        stem = f"{prefix}-{index + 1:02d}-{variation.replace('_', '-')}"
        orientation = entry[4].get("orientation")
        stored = rotate_for_exif(image, quad, orientation) if orientation else image
        save_jpeg(stored, os.path.join(out_dir, stem + ".jpg"), quality=84, orientation=orientation)
        expected = card_expected(design, name, quad, variation, brand_colors=brand_colors)
        if orientation:
            expected["image"] = {"orientation": orientation, "width": image.width, "height": image.height}
        write_expected(os.path.join(out_dir, stem + ".expected.json"), expected)


# --- screenshots ---------------------------------------------------------------------------

def render_screenshot(design, rng, dark):
    w, h = 1170, 2532
    bg = (18, 18, 20) if dark else (242, 242, 247)
    text = (235, 235, 240) if dark else (20, 20, 24)
    muted = (120, 120, 128)
    image = Image.new("RGB", (w, h), bg)
    draw = ImageDraw.Draw(image)
    draw.text((60, 40), "9:41", font=font(44, bold=True), fill=text)
    draw.text((w - 220, 40), "5G  88%", font=font(38), fill=text)
    draw.text((60, 180), "Wallet", font=font(84, bold=True), fill=text)
    draw.text((60, 290), "My cards", font=font(40), fill=muted)
    art, name = render_card(design, rng, scale=1)
    brand_colors = art.info["brand_colors"]
    card_w = w - 120
    card_h = round(card_w * CARD_H / CARD_W)
    art = art.resize((card_w, card_h), Image.LANCZOS)
    top = 380
    image.paste(art, (60, top), rounded_mask(art.size, 40))
    quad = [(60, top), (60 + card_w, top), (60 + card_w, top + card_h), (60, top + card_h)]
    y = top + card_h + 80
    if "code" in design:
        symbology, value = design["code"]
        code = barcode_image(symbology, value, 0)
        if symbology == "qr":
            code = code.resize((620, 620), Image.NEAREST)
        else:
            code = code.resize((960, 330), Image.NEAREST)
        panel = (w - code.width) // 2
        draw.rounded_rectangle((panel - 40, y - 40, panel + code.width + 40, y + code.height + 40), radius=30, fill=(255, 255, 255))
        image.paste(code, (panel, y))
        y += code.height + 120
    for label in ["Card details", "Transactions", "Share card", "Remove card"]:
        draw.rounded_rectangle((60, y, w - 60, y + 130), radius=24, fill=(34, 34, 38) if dark else (255, 255, 255))
        draw.text((100, y + 42), label, font=font(42), fill=text)
        y += 160
        if y > h - 200:
            break
    draw.rounded_rectangle((w // 2 - 140, h - 40, w // 2 + 140, h - 28), radius=6, fill=text)
    return image, quad, name, brand_colors


def render_screenshots(out_dir, rng, count=6, designs=None):
    os.makedirs(out_dir, exist_ok=True)
    pool = designs or DESIGNS
    for index in range(count):
        design = pool[(index * 5 + 2) % len(pool)] if designs is None else rng.choice(pool)
        dark = index % 2 == 1
        image, quad, name, brand_colors = render_screenshot(design, rng, dark)
        stem = f"screenshot-{index + 1:02d}-{'dark' if dark else 'light'}"
        image.save(os.path.join(out_dir, stem + ".png"), optimize=True)
        expected = card_expected(design, name, quad, "screenshot_dark" if dark else "screenshot_light", kind="screenshot",
                                 brand_colors=brand_colors)
        expected["_tolerance"]["card.quad"] = 4.0
        write_expected(os.path.join(out_dir, stem + ".expected.json"), expected)


# --- labelled cards per catalog issuer (train-issuers / eval-issuers) ------------------------

CATALOG = os.path.join(ROOT, "Sources/SnapsortStages/Resources/issuers.json")


def relative_luminance(colour):
    channels = [c / 255 for c in rgb(colour)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def issuer_code(issuer, rng):
    """A barcode such an issuer's card could carry: its public pattern when the catalog has one,
    otherwise a common loyalty-card symbology with an arbitrary number (never the issuer's id)."""
    if issuer.get("barcodes"):
        pattern = rng.choice(issuer["barcodes"])
        prefix = pattern.get("prefix") or ""
        length = pattern.get("length") or len(prefix) + 10
        digits = prefix + "".join(rng.choice("0123456789") for _ in range(max(0, length - len(prefix))))
        symbology = pattern["symbology"]
    else:
        symbology = rng.choice(issuer.get("symbologies") or ["ean13", "ean13", "code128", "code128", "qr"])
        digits = "".join(rng.choice("0123456789") for _ in range(12))
        if symbology == "ean13":
            digits = "2" + digits[:11]
    if symbology in ("ean13", "ean8", "upca"):
        body = digits[:{"ean13": 12, "ean8": 7, "upca": 11}[symbology]]
        digits = body + gs1_check_digit(body)
    elif symbology not in ("code128", "qr", "code39", "pdf417"):
        symbology = "code128"
    return symbology, digits


def issuer_design(issuer, rng):
    """Card artwork of a catalog issuer: its first brand colour as the background, the most
    readable of its other colours (or white/black) as the text, the brand or its programme name."""
    bg = issuer["colors"][0] if issuer.get("colors") else "#%06x" % rng.randrange(0x1000000)
    others = [c for c in issuer.get("colors", [])[1:] if contrast(c, bg) >= 3]
    fg = others[0] if others and rng.random() < 0.5 else ("#ffffff" if contrast("#ffffff", bg) >= contrast("#1a1a1a", bg) else "#1a1a1a")
    accent = issuer["colors"][1] if len(issuer.get("colors", [])) > 1 else fg
    name = issuer["name"]
    program = issuer.get("program")
    if program and program.lower() not in name.lower() and rng.random() < 0.3:
        name = f"{name} {program}"
    return {"id": issuer["id"], "name": name, "bg": bg, "fg": fg, "accent": accent, "code": issuer_code(issuer, rng)}


def render_issuer_card(job):
    """One labelled card; its generator is seeded by (seed, issuer, index) so the set is the same
    whatever the number of worker processes."""
    out_dir, issuer, index, seed, screenshot_every = job
    rng = random.Random(f"{seed}/{issuer['id']}/{index}")
    design = issuer_design(issuer, rng)
    folder = os.path.join(out_dir, issuer["id"])
    if screenshot_every > 0 and index % screenshot_every == 1:
        dark = rng.random() < 0.5
        image, quad, name, brand_colors = render_screenshot(design, rng, dark)
        variation = "screenshot_dark" if dark else "screenshot_light"
        stem = f"{issuer['id']}-{index + 1:02d}-{variation.replace('_', '-')}"
        image.save(os.path.join(folder, stem + ".png"))
        expected = card_expected(design, name, quad, variation, kind="screenshot", brand_colors=brand_colors)
        expected["_tolerance"]["card.quad"] = 4.0
    else:
        plan = rng.choice(CARD_PLAN)
        # Half the pixels of the samples' photos (the load stage analyses at most 1600 px a side
        # anyway) keeps rendering a few hundred of them affordable.
        image, quad, name, variation, brand_colors = render_card_photo(design, rng, plan, size=(1440, 1080), art_scale=1)
        stem = f"{issuer['id']}-{index + 1:02d}-{variation.replace('_', '-')}"
        orientation = plan[4].get("orientation")
        stored = rotate_for_exif(image, quad, orientation) if orientation else image
        save_jpeg(stored, os.path.join(folder, stem + ".jpg"), quality=84, orientation=orientation)
        expected = card_expected(design, name, quad, variation, brand_colors=brand_colors)
        if orientation:
            expected["image"] = {"orientation": orientation, "width": image.width, "height": image.height}
    write_expected(os.path.join(folder, stem + ".expected.json"), expected)
    return stem


def render_issuers(out_dir, per_issuer, seed, catalog, jobs, screenshot_every=3):
    """`per_issuer` cards of every catalog issuer into out_dir/<issuer-id>/: photos on tables
    (the card plan's backgrounds, tilts, glare, hands) and, every `screenshot_every`-th card,
    a wallet-app screenshot."""
    with open(catalog, encoding="utf-8") as f:
        issuers = sorted(json.load(f)["issuers"], key=lambda issuer: issuer["id"])
    for issuer in issuers:
        os.makedirs(os.path.join(out_dir, issuer["id"]), exist_ok=True)
    work = [(out_dir, issuer, index, seed, screenshot_every) for issuer in issuers for index in range(per_issuer)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for _ in pool.imap_unordered(render_issuer_card, work, chunksize=4):
                pass
    else:
        for job in work:
            render_issuer_card(job)


# --- receipts ------------------------------------------------------------------------------

RECEIPTS = [
    {"merchant": "GREEN BASKET MARKET", "lang": "en", "currency": "USD", "symbol": "$", "date": "2024-03-14", "date_text": "03/14/2024 18:22",
     "items": [("Organic Bananas", "1", "1.29"), ("Whole Milk 1gal", "2", "3.49"), ("Sourdough Bread", "1", "4.99"), ("Eggs Large 12ct", "1", "3.89")],
     "savings": "1.00", "tax_rate": "0.08", "total_word": "TOTAL", "ref": "TRN 448812"},
    {"merchant": "SKLEP POD LIPAMI", "lang": "pl", "currency": "PLN", "symbol": "zł", "date": "2024-05-02", "date_text": "02.05.2024 10:41",
     "items": [("Chleb żytni", "1", "6,49"), ("Masło 200g", "2", "7,99"), ("Jabłka", "0,532 kg", "3,49"), ("Woda 1,5l", "6", "1,99")],
     "savings": "2,00", "tax_rate": "0", "total_word": "SUMA", "ref": "Nr 0021/2024"},
    {"merchant": "BÄCKEREI SONNENSCHEIN", "lang": "de", "currency": "EUR", "symbol": "€", "date": "2023-11-18", "date_text": "18.11.2023 08:05",
     "items": [("Brötchen", "6", "0,45"), ("Roggenbrot", "1", "3,80"), ("Kaffee groß", "2", "3,20")],
     "savings": "0,00", "tax_rate": "0", "total_word": "SUMME", "ref": "Beleg 7731"},
    {"merchant": "LA PETITE ÉPICERIE", "lang": "fr", "currency": "EUR", "symbol": "€", "date": "2024-01-09", "date_text": "09/01/2024 17:30",
     "items": [("Baguette tradition", "2", "1,30"), ("Camembert", "1", "4,50"), ("Pommes Golden", "1,250 kg", "2,80")],
     "savings": "0,50", "tax_rate": "0", "total_word": "TOTAL", "ref": "Ticket 55102"},
    {"merchant": "CORNER SHOP LTD", "lang": "en", "currency": "GBP", "symbol": "£", "date": "2024-07-21", "date_text": "21/07/2024 12:04",
     "items": [("Semi Skimmed Milk", "1", "1.45"), ("Cheddar 400g", "1", "3.75"), ("Teabags 80", "2", "2.60"), ("Newspaper", "1", "2.00")],
     "savings": "0.00", "tax_rate": "0", "total_word": "TOTAL", "ref": "Receipt 99120"},
    {"merchant": "SUPERMERCATO BELLA", "lang": "it", "currency": "EUR", "symbol": "€", "date": "2024-02-27", "date_text": "27/02/2024 19:12",
     "items": [("Pasta di semola", "3", "0,99"), ("Pomodori pelati", "2", "1,15"), ("Parmigiano", "1", "6,90")],
     "savings": "1,20", "tax_rate": "0", "total_word": "TOTALE", "ref": "Scontrino 3381"},
]

# A shop named only by its logo: heavy type with the letters touching, as thermal printers print
# a chain's logo, and no name in the text (the German Lidl scans). Only in samples/, so the bench's
# rendered receipts stay the six plain designs above.
LOGO_RECEIPT = {"merchant": "Lidl", "logo": "LIDL", "address": ["Warburger Straße 130", "33100 Paderborn"],
                "lang": "de", "currency": "EUR", "symbol": "€", "date": "2024-09-12", "date_text": "12.09.2024 16:47",
                "items": [("Bananen", "1", "1,29"), ("Vollmilch 3,5%", "2", "1,09"), ("Bergkäse", "1", "3,49"),
                          ("Roggenbrötchen", "4", "0,35"), ("Apfelsaft 1,5l", "1", "1,19"), ("Tomaten", "0,642 kg", "2,99"),
                          ("Spaghetti 500g", "2", "0,79"), ("Joghurt Natur", "1", "0,65"), ("Kaffee Crema", "1", "5,49")],
                "savings": "0,00", "tax_rate": "0", "total_word": "ZU ZAHLEN", "ref": "Beleg 4410"}

LABELS = {
    "en": {"subtotal": "SUBTOTAL", "savings": "YOU SAVED", "tax": "TAX"},
    "pl": {"subtotal": "SUMA CZĘŚCIOWA", "savings": "RABAT", "tax": "PTU"},
    "de": {"subtotal": "ZWISCHENSUMME", "savings": "RABATT", "tax": "MWST"},
    "fr": {"subtotal": "SOUS-TOTAL", "savings": "REMISE", "tax": "TVA"},
    "it": {"subtotal": "SUBTOTALE", "savings": "SCONTO", "tax": "IVA"},
}


def cents(text):
    return int(round(float(text.replace(",", ".")) * 100))


def money(value, comma):
    text = f"{value // 100}.{value % 100:02d}"
    return text.replace(".", ",") if comma else text


def receipt_lines(spec):
    comma = "," in spec["items"][0][2]
    width = 34
    if "logo" in spec:
        # Two empty rows where render_receipt_paper prints the logo.
        lines = ["", ""] + [line.center(width) for line in spec["address"]] + [spec["date_text"], "-" * width]
    else:
        lines = [spec["merchant"].center(width), "ul. Przykładowa 1".center(width) if spec["lang"] == "pl" else "12 Main Street".center(width), spec["date_text"], "-" * width]
    items = []
    subtotal = 0
    for description, quantity, unit in spec["items"]:
        unit_c = cents(unit)
        if "kg" in quantity:
            weight = float(quantity.split()[0].replace(",", "."))
            amount = int(round(weight * unit_c))
            lines.append(description)
            lines.append(f"  {quantity} x {unit}".ljust(width - 9) + money(amount, comma).rjust(9))
            qty = quantity.split()[0].replace(",", ".")
        elif quantity != "1":
            amount = int(quantity) * unit_c
            lines.append(description)
            lines.append(f"  {quantity} x {unit}".ljust(width - 9) + money(amount, comma).rjust(9))
            qty = quantity
        else:
            amount = unit_c
            lines.append(description[: width - 10].ljust(width - 9) + money(amount, comma).rjust(9))
            qty = "1"
        subtotal += amount
        items.append({"description": description, "quantity": qty, "unit_price": money(unit_c, False), "amount": money(amount, False)})
    labels = LABELS[spec["lang"]]
    savings = cents(spec["savings"])
    tax = int(round((subtotal - savings) * float(spec["tax_rate"])))
    total = subtotal - savings + tax
    lines.append("-" * width)
    lines.append(labels["subtotal"].ljust(width - 9) + money(subtotal, comma).rjust(9))
    if savings:
        lines.append(labels["savings"].ljust(width - 9) + ("-" + money(savings, comma)).rjust(9))
    if tax:
        lines.append(labels["tax"].ljust(width - 9) + money(tax, comma).rjust(9))
    lines.append((spec["total_word"] + " " + spec["currency"]).ljust(width - 10) + money(total, comma).rjust(10))
    lines += ["", spec["ref"], "", "*** THANK YOU ***".center(width)]
    receipt = {
        "merchant": spec["merchant"], "date": spec["date"], "currency": spec["currency"],
        "items": items, "subtotal": money(subtotal, False), "savings": money(savings, False) if savings else None,
        "tax": money(tax, False) if tax else None, "total": money(total, False),
        "reference_number": spec["ref"].split()[-1],
    }
    return lines, receipt


def render_receipt_paper(lines, logo=None):
    f = font(30, mono=True)
    line_h = 40
    width = 34 * 18 + 80
    height = line_h * len(lines) + 120
    paper = Image.new("RGB", (width, height), (250, 249, 244))
    draw = ImageDraw.Draw(paper)
    for i, line in enumerate(lines):
        draw.text((40, 60 + i * line_h), line, font=f, fill=(38, 38, 42))
    if logo:
        # Bold type thickened by a stroke and set tight, so the letters run into each other.
        logo_font = font(64, bold=True)
        advances = [draw.textlength(letter, font=logo_font) - 6 for letter in logo]
        x = (width - sum(advances)) / 2
        for letter, advance in zip(logo, advances):
            draw.text((x, 52), letter, font=logo_font, fill=(20, 20, 24), stroke_width=4, stroke_fill=(20, 20, 24))
            x += advance
    return paper


def render_receipts(out_dir, rng, count=None, specs=RECEIPTS):
    os.makedirs(out_dir, exist_ok=True)
    n = len(specs) if count is None else count
    for index in range(n):
        spec = specs[index % len(specs)]
        lines, truth = receipt_lines(spec)
        paper = render_receipt_paper(lines, spec.get("logo"))
        flat = index % 3 == 2
        if flat:
            # A flatbed scan: the paper on white, nearly straight.
            canvas = Image.new("RGB", (paper.width + 160, paper.height + 160), (255, 255, 255))
            canvas.paste(paper, (80, 80))
            image = canvas.rotate(rng.uniform(-1.5, 1.5), resample=Image.BICUBIC, fillcolor=(255, 255, 255))
            variation = "scan"
        else:
            size = (1512, 2016)
            canvas = background(rng.choice(["wood", "dark", "fabric"]), size, rng)
            scale = 0.8 * size[1] / paper.height
            pw, ph = paper.width * scale, paper.height * scale
            cx, cy = size[0] / 2 + rng.uniform(-60, 60), size[1] / 2
            skew = rng.uniform(-0.04, 0.04) * pw
            quad = [(cx - pw / 2 + skew, cy - ph / 2), (cx + pw / 2 + skew, cy - ph / 2 + rng.uniform(-20, 20)),
                    (cx + pw / 2 * 1.04, cy + ph / 2), (cx - pw / 2 * 1.04, cy + ph / 2)]
            paste_warped(canvas, paper, quad)
            image = photograph(canvas, rng, glare=False)
            variation = "photo"
        stem = f"receipt-{index + 1:02d}-{spec['lang']}-{variation}"
        save_jpeg(image, os.path.join(out_dir, stem + ".jpg"), quality=88)
        write_expected(os.path.join(out_dir, stem + ".expected.json"),
                       {"_truth": {"variation": variation, "lines": lines}, "status": "ok", "kind": "receipt", "receipt": truth})


# --- bad files -----------------------------------------------------------------------------

def render_bad(out_dir, rng):
    os.makedirs(out_dir, exist_ok=True)
    expected = {"status": "error", "error": {"stage": "load"}}
    open(os.path.join(out_dir, "empty.jpg"), "wb").close()
    photo = io.BytesIO()
    background("wood", (640, 480), rng).save(photo, "JPEG", quality=80)
    data = photo.getvalue()
    with open(os.path.join(out_dir, "truncated.jpg"), "wb") as f:
        f.write(data[: len(data) // 3])
    with open(os.path.join(out_dir, "not-an-image.png"), "w") as f:
        f.write("This is a shopping list, not a photo.\nmilk\nbread\n")
    png = io.BytesIO()
    background("tiles", (200, 200), rng).save(png, "PNG")
    corrupt = bytearray(png.getvalue())
    for i in range(60, len(corrupt), 7):
        corrupt[i] ^= 0xA5
    with open(os.path.join(out_dir, "corrupt.png"), "wb") as f:
        f.write(bytes(corrupt))
    Image.new("RGB", (1, 1), (255, 0, 0)).save(os.path.join(out_dir, "one-pixel.png"))
    for stem in ["empty", "truncated", "not-an-image", "corrupt", "one-pixel"]:
        write_expected(os.path.join(out_dir, stem + ".expected.json"), expected)
    with open(os.path.join(out_dir, "notes.txt"), "w") as f:
        f.write("Sidecar notes: skipped by snapsort, counted in run.json.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", metavar="DIR", help="render COUNT images of each kind into DIR")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--kinds", default="cards,screenshots,receipts")
    parser.add_argument("--issuers", metavar="DIR", help="render labelled photos per issuer into DIR/<id>/")
    parser.add_argument("--per-issuer", type=int, default=6)
    parser.add_argument("--seed", type=int, default=104, help="seed of the --issuers set")
    parser.add_argument("--catalog", default=CATALOG, help="issuers to render with --issuers (issuers.json format)")
    parser.add_argument("--screenshot-every", type=int, default=3,
                        help="with --issuers, every Nth card of an issuer (the 2nd, then N later) is a screenshot")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes for --issuers")
    parser.add_argument("--fixtures", metavar="DIR", help="render flat card crops (1012 × 638 PNG) for OCR tests into DIR")
    args = parser.parse_args()
    if args.bench:
        kinds = args.kinds.split(",")
        if "cards" in kinds:
            render_cards(os.path.join(args.bench, "cards"), random.Random(101), count=args.count, prefix="bench")
        if "screenshots" in kinds:
            render_screenshots(os.path.join(args.bench, "screenshots"), random.Random(102), count=args.count, designs=DESIGNS)
        if "receipts" in kinds:
            render_receipts(os.path.join(args.bench, "receipts"), random.Random(103), count=args.count)
        return
    if args.fixtures:
        os.makedirs(args.fixtures, exist_ok=True)
        rng = random.Random(105)
        # Appended after the first six so that their renders (one shared rng) stay identical.
        designs = PAYMENT + [d for d in DESIGNS if d["id"] in ("ahlens", "kaffeeroesterei", "tesco-clubcard")]
        designs += [d for d in DESIGNS if d["id"] in ("zabka", "muller", "lidl-plus", "norrebro-kaffe", "ferreteria-nunez")]
        for design in designs:
            art, name = render_card(design, rng, scale=1)
            art.save(os.path.join(args.fixtures, design["id"] + ".png"), optimize=True)
            truth = {"name": name}
            if "network" in design:
                truth.update(network=design["network"], last4=design["number"][-4:], number=design["number"])
            write_expected(os.path.join(args.fixtures, design["id"] + ".truth.json"), truth)
        return
    if args.issuers:
        render_issuers(args.issuers, args.per_issuer, args.seed, args.catalog, args.jobs,
                       screenshot_every=args.screenshot_every)
        return
    samples = os.path.join(ROOT, "samples")
    render_cards(os.path.join(samples, "cards"), random.Random(1))
    render_screenshots(os.path.join(samples, "screenshots"), random.Random(2))
    render_receipts(os.path.join(samples, "receipts"), random.Random(3), specs=RECEIPTS + [LOGO_RECEIPT])
    render_bad(os.path.join(samples, "bad"), random.Random(4))


if __name__ == "__main__":
    sys.exit(main())
