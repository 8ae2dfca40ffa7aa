"""Card content and flat card artwork (1012 × 638 × scale) with ground truth in artwork pixels."""
import colorsys
import functools
import io
import json
import math
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

import fonts as fontlib
import lexicon as lx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CATALOG = os.path.join(ROOT, "Sources", "SnapsortStages", "Resources", "issuers.json")
CARD_W, CARD_H = 1012, 638

LOYALTY_LAYOUTS = ["classic", "centered", "header_band", "logo_side", "split_panel", "bottom_name",
                   "footer_stripe", "diagonal", "code_first"]
PAYMENT_LAYOUTS = ["payment_classic", "payment_minimal"]
LAYOUTS = LOYALTY_LAYOUTS + PAYMENT_LAYOUTS

# Test numbers published by the networks for development (Luhn-valid, never real accounts).
PAYMENT_NUMBERS = {
    "visa": ["4111111111111111", "4012888888881881", "4242424242424242", "4000056655665556"],
    "mastercard": ["5555555555554444", "5105105105105100", "2223003122003222", "5200828282828210"],
    "amex": ["378282246310005", "371449635398431", "378734493671000"],
}


@functools.lru_cache(maxsize=1)
def catalog():
    with open(CATALOG, encoding="utf-8") as f:
        return json.load(f)["issuers"]


@functools.lru_cache(maxsize=512)
def font(path, size):
    return ImageFont.truetype(path, max(6, int(size)))


# --- colours --------------------------------------------------------------------------------

def rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def hexc(c):
    return "#%02x%02x%02x" % tuple(int(max(0, min(255, round(v)))) for v in c[:3])


def luminance(c):
    def lin(v):
        v = v / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def random_colour(rng, kind=None):
    kind = kind or rng.choice(["vivid", "vivid", "dark", "light", "pastel", "muted", "black", "white"])
    h = rng.random()
    if kind == "vivid":
        s, v = rng.uniform(0.6, 1.0), rng.uniform(0.55, 0.95)
    elif kind == "dark":
        s, v = rng.uniform(0.3, 0.9), rng.uniform(0.12, 0.4)
    elif kind == "light":
        s, v = rng.uniform(0.03, 0.25), rng.uniform(0.88, 1.0)
    elif kind == "pastel":
        s, v = rng.uniform(0.2, 0.45), rng.uniform(0.8, 0.97)
    elif kind == "muted":
        s, v = rng.uniform(0.15, 0.45), rng.uniform(0.35, 0.7)
    elif kind == "black":
        s, v = rng.uniform(0, 0.2), rng.uniform(0.02, 0.12)
    else:
        s, v = rng.uniform(0, 0.04), rng.uniform(0.95, 1.0)
    return tuple(int(255 * x) for x in colorsys.hsv_to_rgb(h, s, v))


def text_colour_for(bg, rng, candidates=()):
    """A readable text colour on `bg`: one of the candidates with contrast ≥ 3.5, else white or near-black."""
    good = [c for c in candidates if contrast(c, bg) >= 3.5]
    if good and rng.random() < 0.7:
        return rng.choice(good)
    dark = rng.choice([(17, 17, 17), (30, 30, 40), (0, 0, 0), (40, 30, 20)])
    light = rng.choice([(255, 255, 255), (250, 248, 240), (240, 240, 245)])
    return light if contrast(light, bg) >= contrast(dark, bg) else dark


# --- content --------------------------------------------------------------------------------

def gs1(body):
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


def barcode_value(rng, sym, lang):
    digits = lambda n: "".join(str(rng.randint(0, 9)) for _ in range(n))
    if sym == "ean13":
        return gs1(rng.choice(["2", "4", "5", "7", "8", "3", "9"]) + digits(11))
    if sym == "ean8":
        return gs1(digits(7))
    if sym == "upca":
        return gs1(rng.choice(["0", "4", "6"]) + digits(10))
    if sym == "code128":
        letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.randint(0, 3)))
        return letters + digits(rng.randint(7, 13))
    if sym == "code39":
        return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(rng.randint(6, 10)))
    if sym == "qr":
        return rng.choice([f"https://m.example.{lang if lang not in ('en', 'uk') else 'com'}/c/{digits(12)}",
                           f"MEMBER:{digits(10)}", digits(rng.randint(10, 16))])
    return f"ID {digits(12)} {rng.choice(['A', 'B', 'C'])}{digits(4)}"  # pdf417


def invented_name(rng, lang):
    pat = rng.choice(lx.PATTERNS[lang])
    s, p = rng.choice(lx.SHOP[lang]), rng.choice(lx.PROPER[lang])
    return pat.replace("S", "\0").replace("P", p).replace("\0", s)


# Lines set beside the name, as prominently as it or more (issue #24: real cards print what the card
# is, how to use it, since when, a slogan or the holder right by the name, and pickers take them).
# Where they go relative to the name: tight or loose above/below it inside the name's slot, in the
# free strip at the card's edge on that side, or in the tallest free strip; aligned with the name,
# centred, or on the other side. Placements and phrases are split like font families (splits.json).
LINE_PLACEMENTS = ["tight-aligned", "tight-centred", "loose-aligned", "loose-opposite", "edge-aligned", "edge-centred",
                   "gap-aligned", "gap-centred"]
LINE_KINDS = {"programme": 3.0, "instruction": 2.0, "since": 1.5, "slogan": 2.0, "holder": 1.5}


def line_pools(split, held):
    """{kind: {lang: phrases}}, {placements} of one split; `held` is splits.json's card_lines."""
    def side(pool, heldout):
        return [p for p in pool if (p in heldout) == (split == "heldout")]

    pools = {k: {lang: side(v, held[k][lang]) for lang, v in d.items()} for k, d in lx.CARD_LINES.items()}
    pools["first"] = {lang: side(v, held["first"][lang]) for lang, v in lx.FIRST.items()}
    pools["last"] = {lang: side(v, held["last"][lang]) for lang, v in lx.LAST.items()}
    return pools, side(LINE_PLACEMENTS, held["placements"])


def card_lines(rng, lang, pools, placements, share=0.5):
    """What a loyalty card sets beside its name: [] or one or two lines (text, kind, placement,
    side, size against the name's, weight, case, font). Drawn by `render_art`."""
    if rng.random() >= share:
        return []
    out = []
    kinds = list(LINE_KINDS)
    for i in range(1 if rng.random() < 0.75 else 2):
        kind = rng.choices(kinds, [LINE_KINDS[k] for k in kinds])[0]
        kinds.remove(kind)
        if kind == "holder":
            text = rng.choice(pools["first"][lang]) + " " + rng.choice(pools["last"][lang])
        else:
            text = rng.choice(pools[kind][lang])
            text = text.replace("{year}", str(rng.randint(1995, 2025))).replace("{yy}", "%02d" % rng.randint(24, 31))
            text = text.replace("{mm}", "%02d" % rng.randint(1, 12))
        r = rng.random()
        if r < (0.5 if kind == "holder" else 0.3):
            text = text.upper()
        free = [p for p in placements if i == 0 or p.split("-")[0] in ("edge", "gap")]
        inside = [p for p in placements if p.split("-")[0] in ("tight", "loose")]
        # Ink height against the name's asked for; a long line in a narrow box comes out smaller.
        size = rng.choice([(0.45, 0.75), (0.75, 1.05), (0.75, 1.05), (1.05, 1.5), (1.05, 1.5)])
        out.append({"kind": kind, "text": text, "placement": rng.choice(free), "side": rng.choice(["above", "below"]),
                    "size": round(rng.uniform(*size), 3), "gap": round(rng.uniform(0.15, 0.45), 3),
                    "loose_gap": round(rng.uniform(0.5, 1.0), 3), "bold": rng.random() < 0.5,
                    "font": rng.choices(["name", "small", "other"], [4, 3, 3])[0],
                    "fallback": rng.choice(inside) if inside else "tight-aligned"})
    return out


def make_content(rng, split_fams, lang=None):
    """What is printed on one card (no geometry)."""
    c = {"payment": None, "issuer_id": None, "in_catalog": False}
    payment = rng.random() < 0.13
    if not payment and rng.random() < 0.5:
        iss = rng.choice(catalog())
        langs = [lx.COUNTRY_LANGUAGE[k] for k in iss.get("countries") or [] if k in lx.COUNTRY_LANGUAGE]
        lang = rng.choice(langs) if langs else rng.choice(lx.LANGUAGES)
        name = iss["name"] if rng.random() < 0.8 or not iss.get("aliases") else rng.choice(iss["aliases"])
        c.update(issuer_id=iss["id"], in_catalog=True, catalog_name=iss["name"])
        colours = [rgb(x) for x in iss.get("colors") or []] or [random_colour(rng)]
        programme = iss.get("program") if iss.get("program") and rng.random() < 0.5 else None
    else:
        lang = lang or rng.choice(lx.LANGUAGES)
        if payment:
            name = rng.choice(lx.BANK[lang]).replace("{P}", rng.choice(lx.PROPER[lang]))
        else:
            name = invented_name(rng, lang)
        colours = [random_colour(rng)]
        if rng.random() < 0.6:
            colours.append(random_colour(rng))
        programme = None
    c["lang"] = lang
    case = rng.random()
    if case < 0.22:
        name = name.upper()
    elif case < 0.25 and not payment:
        name = name.lower()
    words = name.split()
    lines = [name]
    if len(words) >= 3 and rng.random() < 0.35:
        a, b = sorted(rng.sample(range(1, len(words)), 2))
        lines = [" ".join(words[:a]), " ".join(words[a:b]), " ".join(words[b:])]
    elif len(words) >= 2 and rng.random() < 0.35:
        k = rng.randint(1, len(words) - 1)
        lines = [" ".join(words[:k]), " ".join(words[k:])]
    c["name_lines"] = lines
    c["name"] = " ".join(lines)
    c["colours"] = colours
    year = rng.randint(1998, 2025)
    c["programme"] = programme or (rng.choice(lx.PROGRAMME[lang]) if rng.random() < 0.65 else None)
    c["boilerplate"] = [rng.choice(lx.BOILERPLATE[lang]).replace("{year}", str(year)).replace("{yy}", "%02d" % rng.randint(26, 31))
                        for _ in range(rng.choice([0, 1, 1, 2]))]
    c["holder"] = (rng.choice(lx.FIRST[lang]) + " " + rng.choice(lx.LAST[lang])) if rng.random() < 0.5 else None
    if c["holder"] and rng.random() < 0.5:
        c["holder"] = c["holder"].upper()
    c["number_label"] = rng.choice(lx.NUMBER_LABEL[lang]) if rng.random() < 0.5 else None
    c["member_number"] = " ".join("".join(str(rng.randint(0, 9)) for _ in range(4)) for _ in range(rng.randint(2, 4))) if rng.random() < 0.55 else None
    c["tagline"] = rng.choice(lx.TAGLINES[lang]) if rng.random() < 0.25 else None
    c["logo"] = rng.choice(["circle_initial", "square_initial", "triangles", "star", "leaf", "rings", "bars", "diamond", "arc"]) if rng.random() < 0.6 else None
    if payment:
        net = rng.choice(["visa", "visa", "mastercard", "mastercard", "amex"])
        num = rng.choice(PAYMENT_NUMBERS[net])
        c["payment"] = {"network": net, "last4": num[-4:], "number": num}
        c["barcode"] = None
        c["holder"] = c["holder"] or (rng.choice(lx.FIRST[lang]) + " " + rng.choice(lx.LAST[lang])).upper()
    else:
        sym = rng.choices(["ean13", "ean8", "upca", "code128", "code39", "qr", "pdf417", None],
                          [18, 6, 6, 16, 7, 16, 7, 14])[0]
        c["barcode"] = {"symbology": sym, "value": barcode_value(rng, sym, lang)} if sym else None
    return c


# --- fonts ------------------------------------------------------------------------------------

def pick_font(rng, fams, text, prefer=None, want_bold=None):
    """(family, entry) of a family in `fams` that covers `text`; categories in `prefer` weighted up."""
    names = sorted(fams)
    ok = [n for n in names if fams[n][0]["coverage"].covers(text)]
    if not ok:
        return None, None
    weights = [4.0 if prefer and fontlib.category(n) in prefer else 1.0 for n in ok]
    fam = rng.choices(ok, weights)[0]
    files = [e for e in fams[fam] if e["coverage"].covers(text)] or fams[fam]
    styles = [(e, fontlib.style_of(e)) for e in files]
    if want_bold is not None:
        pref = [e for e, s in styles if s["bold"] == want_bold and not s["italic"]]
        if pref and rng.random() < 0.8:
            files = pref
    return fam, rng.choice(files)


def fit_size(entry, text, max_w, max_h):
    """Largest size ≤ max_h whose ink box fits max_w × max_h."""
    size = max(8, int(max_h))
    for _ in range(6):
        f = font(entry["path"], size)
        x0, y0, x1, y1 = f.getbbox(text)
        w, h = x1 - x0, y1 - y0
        if w <= max_w and h <= max_h * 1.05:
            return size
        scale = min(max_w / max(w, 1), max_h / max(h, 1))
        size = max(8, int(size * min(scale, 0.97)))
    return size


# --- backgrounds -----------------------------------------------------------------------------

class Canvas:
    """The artwork: an RGB image plus a region label map for brand-colour ground truth."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.img = Image.new("RGB", (w, h))
        self.labels = Image.new("L", (w, h), 0)
        self.regions = []  # label -> role

    def region(self, role):
        self.regions.append(role)
        return len(self.regions) - 1

    def fill(self, shape, colour, role, kind="rectangle", **kw):
        label = self.region(role)
        getattr(ImageDraw.Draw(self.img), kind)(shape, fill=colour, **kw)
        getattr(ImageDraw.Draw(self.labels), kind)(shape, fill=label, **kw)
        return label

    def colours(self, min_share=0.03):
        lab = np.asarray(self.labels)
        img = np.asarray(self.img).reshape(-1, 3).astype(np.float64)
        flat = lab.reshape(-1)
        counts = np.bincount(flat, minlength=len(self.regions))
        total = flat.size
        out = {}
        for label, n in enumerate(counts):
            if n == 0:
                continue
            mean = np.median(img[flat == label], axis=0)  # robust to the text and marks drawn on it
            key = hexc(mean)
            role = self.regions[label]
            if key in out:
                out[key]["share"] += n / total
            else:
                out[key] = {"hex": key, "share": n / total, "role": role}
        res = sorted((v for v in out.values() if v["share"] >= min_share), key=lambda v: -v["share"])
        for v in res:
            v["share"] = round(v["share"], 4)
        return res


def paint_background(cv, rng, nrng, base, second, style, box=None):
    """Paints `style` over box (default whole card) with region ground truth; returns effect name."""
    x0, y0, x1, y1 = box or (0, 0, cv.w, cv.h)
    w, h = x1 - x0, y1 - y0
    label = cv.fill((x0, y0, x1 - 1, y1 - 1), base, "background")
    if style == "flat":
        return
    b, s = np.array(base, np.float32), np.array(second, np.float32)
    if style in ("gradient", "radial"):
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        if style == "gradient":
            a = rng.uniform(0, math.pi)
            t = (xx * math.cos(a) + yy * math.sin(a))
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            t = np.hypot(xx - cx, yy - cy)
        t = (t - t.min()) / max(1e-6, t.max() - t.min())
        # A gradient toward a nearby shade (the brand colour stays dominant) or to the second colour.
        other = s if rng.random() < 0.35 else np.clip(b * rng.uniform(0.6, 1.35) + rng.uniform(-20, 20), 0, 255)
        arr = b[None, None] * (1 - t[..., None]) + other[None, None] * t[..., None]
        cv.img.paste(Image.fromarray(arr.astype(np.uint8)), (x0, y0))
    elif style == "texture":
        # Photo-like: smooth multi-scale noise, tinted between the colour and a shade of it.
        arr = np.zeros((h, w), np.float32)
        for k, amp in ((8, 1.0), (24, 0.5), (80, 0.25)):
            small = nrng.random((max(2, h // (h // k + 1)), max(2, w // (w // k + 1)))).astype(np.float32)
            arr += amp * np.asarray(Image.fromarray((small * 255).astype(np.uint8)).resize((w, h), Image.BICUBIC), np.float32) / 255
        arr = (arr - arr.min()) / max(1e-6, arr.max() - arr.min())
        shade = np.clip(b * rng.uniform(0.5, 0.8), 0, 255) if luminance(base) > 0.2 else np.clip(b + rng.uniform(30, 70), 0, 255)
        out = b[None, None] * (1 - 0.6 * arr[..., None]) + shade[None, None] * 0.6 * arr[..., None]
        cv.img.paste(Image.fromarray(out.astype(np.uint8)), (x0, y0))
    elif style == "scene":
        # A photo behind the text: sky, sun, hills or buildings, foliage blobs, softly blurred.
        sw, sh = 160, max(20, int(160 * h / w))
        sky_top, sky_bottom = np.array(random_colour(rng, rng.choice(["vivid", "pastel", "dark"])), np.float32), np.array(random_colour(rng, "light"), np.float32)
        t = np.linspace(0, 1, sh, dtype=np.float32)[:, None, None]
        small = Image.fromarray((sky_top * (1 - t) + sky_bottom * t).repeat(sw, 1).astype(np.uint8))
        d = ImageDraw.Draw(small)
        sx, sy, sr = rng.uniform(0, sw), rng.uniform(0, sh * 0.5), rng.uniform(6, 20)
        d.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), fill=random_colour(rng, "light"))
        for layer_i in range(rng.randint(2, 4)):
            col = random_colour(rng, rng.choice(["muted", "dark", "vivid"]))
            base_y = sh * (0.45 + 0.15 * layer_i)
            if rng.random() < 0.5:
                pts = [(0, sh)] + [(x, base_y + math.sin(x / rng.uniform(10, 30) + layer_i) * sh * 0.08) for x in range(0, sw + 8, 8)] + [(sw, sh)]
                d.polygon(pts, fill=col)
            else:
                x = 0
                while x < sw:
                    bw_, bh_ = rng.uniform(8, 24), rng.uniform(0.15, 0.5) * sh
                    d.rectangle((x, base_y - bh_, x + bw_, sh), fill=col)
                    x += bw_ + rng.uniform(0, 6)
        for _ in range(rng.randint(0, 8)):
            bx, by, br = rng.uniform(0, sw), rng.uniform(sh * 0.5, sh), rng.uniform(3, 12)
            d.ellipse((bx - br, by - br, bx + br, by + br), fill=random_colour(rng, "muted"))
        photo = small.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.5))).resize((w, h), Image.BICUBIC)
        if rng.random() < 0.5:
            # Darkened or washed out so the text stays readable, as designers do.
            photo = Image.blend(photo, Image.new("RGB", (w, h), (0, 0, 0) if rng.random() < 0.6 else (255, 255, 255)), rng.uniform(0.2, 0.5))
        cv.img.paste(photo, (x0, y0))
    elif style == "pattern":
        layer = Image.new("RGB", (w, h), base)
        d = ImageDraw.Draw(layer)
        tint = tuple(int(v) for v in np.clip(b * rng.uniform(0.75, 0.92) if luminance(base) > 0.15 else b + rng.uniform(18, 40), 0, 255))
        kind = rng.choice(["stripes", "dots", "circles", "waves", "grid", "chevrons"])
        step = rng.randint(18, 60) * (w // CARD_W or 1)
        if kind == "stripes":
            for x in range(-h, w, step):
                d.polygon([(x, 0), (x + step // 2, 0), (x + step // 2 + h, h), (x + h, h)], fill=tint)
        elif kind == "dots":
            r = max(2, step // 5)
            for yy in range(0, h, step):
                for xx in range((yy // step % 2) * step // 2, w, step):
                    d.ellipse((xx - r, yy - r, xx + r, yy + r), fill=tint)
        elif kind == "circles":
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            for r in range(step, int(1.5 * max(w, h)), step):
                d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=tint, width=max(2, step // 4))
        elif kind == "waves":
            for yy in range(0, h + step, step):
                pts = [(xx, yy + math.sin(xx / (step * 1.3)) * step * 0.4) for xx in range(0, w + 10, 10)]
                d.line(pts, fill=tint, width=max(2, step // 3))
        elif kind == "grid":
            for xx in range(0, w, step):
                d.line((xx, 0, xx, h), fill=tint, width=max(1, step // 10))
            for yy in range(0, h, step):
                d.line((0, yy, w, yy), fill=tint, width=max(1, step // 10))
        else:
            for yy in range(0, h + step, step):
                pts = [(xx, yy + (step // 2 if (xx // step) % 2 else 0)) for xx in range(0, w + step, step)]
                d.line(pts, fill=tint, width=max(2, step // 5))
        cv.img.paste(layer, (x0, y0))
        return "pattern_" + kind
    return style


# --- logos, codes ------------------------------------------------------------------------------

def draw_logo(img, kind, box, colour, second, initial, font_entry):
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(w, h) / 2
    if kind in ("circle_initial", "square_initial"):
        if kind == "circle_initial":
            d.ellipse(box, fill=colour)
        else:
            d.rounded_rectangle(box, radius=int(r * 0.35), fill=colour)
        if initial and font_entry:
            f = font(font_entry["path"], r * 1.2)
            d.text((cx, cy), initial, font=f, fill=second, anchor="mm")
    elif kind == "triangles":
        d.polygon([(x0, y1), (cx, y0), (x1, y1)], fill=colour)
        d.polygon([(cx - r * 0.3, y1), (cx + r * 0.2, y0 + h * 0.45), (x1 + r * 0.4, y1)], fill=second)
    elif kind == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=colour)
    elif kind == "leaf":
        d.ellipse((x0, y0 + h * 0.2, x0 + w * 0.7, y1), fill=colour)
        d.ellipse((x0 + w * 0.35, y0, x1, y1 - h * 0.25), fill=second)
    elif kind == "rings":
        t = max(2, int(r * 0.18))
        d.ellipse((x0, y0, x0 + 1.3 * r, y0 + 1.3 * r), outline=colour, width=t)
        d.ellipse((x1 - 1.3 * r, y1 - 1.3 * r, x1, y1), outline=colour, width=t)
    elif kind == "bars":
        n = 4
        for i in range(n):
            bh = h * (0.4 + 0.6 * (i + 1) / n)
            d.rectangle((x0 + i * w / n, y1 - bh, x0 + (i + 0.7) * w / n, y1), fill=colour)
    elif kind == "diamond":
        d.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=colour)
        d.polygon([(cx, y0 + h * 0.25), (x1 - w * 0.25, cy), (cx, y1 - h * 0.25), (x0 + w * 0.25, cy)], fill=second)
    else:  # arc
        t = max(3, int(r * 0.3))
        d.arc(box, 200, 340, fill=colour, width=t)
        d.arc((x0 + w * 0.2, y0 + h * 0.2, x1 - w * 0.2, y1 - h * 0.2), 20, 160, fill=colour, width=t)


def barcode_image(sym, value):
    if sym == "qr":
        import qrcode
        qr = qrcode.QRCode(border=0, box_size=4, error_correction=qrcode.constants.ERROR_CORRECT_M)
        qr.add_data(value)
        return qr.make_image(fill_color="black", back_color="white").convert("L")
    if sym == "pdf417":
        import pdf417gen
        return pdf417gen.render_image(pdf417gen.encode(value, columns=4, security_level=2), scale=1, ratio=3, padding=0).convert("L")
    return linear_barcode(sym, value)


def linear_barcode(sym, value):
    """Module pattern of a 1-D code from python-barcode, drawn at 1 px per module (no text)."""
    import barcode
    data = value[:-1] if sym in ("ean13", "ean8", "upca") else value
    kwargs = {"add_checksum": False} if sym == "code39" else {}
    code = barcode.get_barcode_class(sym)(data, **kwargs)
    modules = "".join(code.build())
    arr = np.array([0 if m == "1" else 255 for m in modules], np.uint8)[None, :].repeat(40, 0)
    return Image.fromarray(arr, "L")


def place_code(img, cv, rng, sym, value, box, text_font=None, panel=True, panel_colour=(255, 255, 255), radius=0):
    """Draws the code centred in box on a white panel (with quiet zones); returns the code's box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    code = barcode_image(sym, value)
    two_d = sym in ("qr",)
    pad = max(6, int(0.06 * min(w, h)))
    text_h = 0
    if not two_d and sym != "pdf417" and text_font is not None and rng.random() < 0.6:
        text_h = int(h * 0.16)
    avail_w, avail_h = w - 2 * pad, h - 2 * pad - text_h
    if two_d:
        side = min(avail_w, avail_h)
        mod = max(1, side // code.width)
        cw = ch = code.width * mod
    elif sym == "pdf417":
        mod = min(avail_w // code.width, avail_h // code.height)
        cw, ch = code.width * mod, code.height * mod
    else:
        mod = max(1, avail_w // (code.width + 20))
        cw, ch = code.width * mod, avail_h
    if cw > avail_w or ch > avail_h or mod < 1:
        return None
    code = code.resize((cw, ch), Image.NEAREST)
    cx0 = x0 + (w - cw) // 2
    cy0 = y0 + pad + (avail_h - ch) // 2
    if panel:
        qz = (10 if two_d else 10) * mod // (1 if two_d else 1)
        px0, py0 = min(cx0 - max(pad, qz), x0 + pad // 2), cy0 - pad
        px1, py1 = max(cx0 + cw + max(pad, qz), x1 - pad // 2), cy0 + ch + pad + text_h
        cv.fill((px0, py0, px1, py1), panel_colour, "code_panel", kind="rounded_rectangle", radius=radius)
    img.paste(code.convert("RGB"), (cx0, cy0))
    if text_h:
        f = font(text_font["path"], text_h * 0.8)
        ImageDraw.Draw(img).text((x0 + w / 2, cy0 + ch + text_h * 0.55), value, font=f, fill=(0, 0, 0), anchor="mm")
    return [cx0, cy0, cx0 + cw, cy0 + ch]


# --- text blocks --------------------------------------------------------------------------------

def draw_lines(img, lines, entry, box, colour, align="left", valign="top", spacing=1.15, max_size=None, style=None):
    """Sets lines in the largest size that fits box; returns [{text, box}] with ink boxes.
    style (names only): {"tracking": em, "stroke": (width_em, colour), "shadow": (dx_em, dy_em, colour),
    "badge": (colour, pad_em)}."""
    style = style or {}
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    n = len(lines)
    per = h / (n + (n - 1) * (spacing - 1))
    if max_size:
        per = min(per, max_size)
    size = min(fit_size(entry, ln, w, per) for ln in lines)
    track = style.get("tracking", 0.0)
    stroke_em, stroke_col = style.get("stroke", (0.0, None))

    def width(f, ln, sz):
        return f.getlength(ln) + track * sz * max(0, len(ln) - 1) + 2 * stroke_em * sz

    for _ in range(20):
        f = font(entry["path"], size)
        if max(width(f, ln, size) for ln in lines) <= w or size <= 8:
            break
        size = max(8, int(size * 0.93))
    d = ImageDraw.Draw(img)
    ascent, descent = f.getmetrics()
    line_h = (ascent + descent) * spacing * 0.92
    total = line_h * (n - 1) + (ascent + descent)
    ty = y0 if valign == "top" else (y1 - total if valign == "bottom" else y0 + (h - total) / 2)
    sw = int(round(stroke_em * size))
    out = []
    for i, ln in enumerate(lines):
        lw = width(f, ln, size)
        tx = x0 if align == "left" else (x1 - lw if align == "right" else x0 + (w - lw) / 2)
        y = ty + i * line_h
        if track:
            pos, x = [], tx + sw
            for ch in ln:
                pos.append((x, ch))
                x += f.getlength(ch) + track * size
        else:
            pos = [(tx + sw, ln)]
        boxes = [d.textbbox((px, y), t, font=f, stroke_width=sw) for px, t in pos if t.strip()]
        bb = [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]
        if "badge" in style:
            bcol, pad = style["badge"]
            pp = pad * size
            d.rounded_rectangle((bb[0] - pp, bb[1] - pp * 0.7, bb[2] + pp, bb[3] + pp * 0.7), radius=int(pp), fill=bcol)
        if "shadow" in style:
            dx, dy, scol = style["shadow"]
            for px, t in pos:
                d.text((px + dx * size, y + dy * size), t, font=f, fill=scol)
        for px, t in pos:
            d.text((px, y), t, font=f, fill=colour, stroke_width=sw, stroke_fill=stroke_col)
        out.append({"text": ln, "box": [float(v) for v in bb], "size": size})
    return out


def name_style(rng, colour, region):
    """Text effects real card names carry: letter spacing, an outline, a drop shadow, a badge."""
    style, effects = {}, []
    r = rng.random()
    if r < 0.1:
        style["tracking"] = rng.uniform(0.05, 0.3)
        effects.append("name_tracking")
    r = rng.random()
    if r < 0.07:
        style["stroke"] = (rng.uniform(0.02, 0.05), (0, 0, 0) if luminance(colour) > 0.4 else (255, 255, 255))
        effects.append("name_outline")
    elif r < 0.15:
        style["shadow"] = (rng.uniform(-0.03, 0.05), rng.uniform(0.02, 0.06),
                           tuple(int(v * 0.35) for v in region) if luminance(region) > 0.1 else (0, 0, 0))
        effects.append("name_shadow")
    elif r < 0.23:
        badge = random_colour(rng)
        if contrast(badge, colour) >= 3.5:
            style["badge"] = (badge, rng.uniform(0.15, 0.35))
            effects.append("name_badge")
    return style, effects


# --- layouts ------------------------------------------------------------------------------------
# Slot boxes in 1012 × 638 units. "name" is where the brand's lines go; code1d/code2d where a linear
# or square code goes; bands are extra colour regions (role, polygon or box, which colour).

LAYOUT_SLOTS = {
    "classic": {"name": (56, 50, 960, 175), "logo": (56, 50, 160, 154), "programme": (58, 190, 700, 228),
                "tagline": (58, 236, 700, 266), "holder": (58, 290, 600, 326), "number": (58, 336, 600, 372),
                "boilerplate": (58, 592, 620, 618), "code1d": (250, 396, 762, 604), "code2d": (770, 330, 960, 600),
                "align": "left"},
    "centered": {"logo": (456, 36, 556, 136), "name": (90, 150, 922, 300), "programme": (200, 312, 812, 350),
                 "tagline": (200, 356, 812, 388), "holder": (60, 560, 480, 594), "number": (560, 560, 952, 594),
                 "boilerplate": (60, 604, 952, 628), "code1d": (300, 400, 712, 548), "code2d": (806, 396, 962, 552),
                 "align": "center"},
    "header_band": {"band": ("rect", (0, 0, 1012, 235)), "name": (56, 40, 820, 196), "logo": (846, 58, 966, 178),
                    "programme": (56, 252, 700, 290), "tagline": (56, 296, 700, 326), "holder": (56, 340, 600, 376),
                    "number": (56, 382, 600, 418), "boilerplate": (56, 600, 700, 626), "code1d": (430, 430, 966, 610),
                    "code2d": (790, 270, 962, 442), "align": "left", "name_region": "band"},
    "logo_side": {"logo": (56, 110, 250, 304), "name": (284, 100, 960, 260), "tagline": (286, 268, 960, 302),
                  "programme": (286, 316, 960, 356), "code1d": (56, 400, 560, 612), "code2d": (380, 410, 570, 600),
                  "holder": (590, 500, 962, 536), "number": (590, 546, 962, 582), "boilerplate": (56, 370, 560, 394),
                  "align": "left", "right_align": ("holder", "number")},
    "split_panel": {"band": ("rect", (560, 0, 1012, 638)), "name": (48, 60, 520, 330), "programme": (50, 346, 520, 386),
                    "tagline": (50, 392, 520, 422), "logo": (50, 440, 134, 524), "holder": (50, 540, 520, 576),
                    "number": (50, 584, 520, 618), "code2d": (620, 150, 952, 482), "code1d": (590, 210, 990, 430),
                    "boilerplate": (590, 560, 990, 600), "align": "left", "band_colour": "light"},
    "bottom_name": {"name": (56, 360, 960, 560), "programme": (420, 40, 960, 80), "logo": (56, 36, 166, 146),
                    "number": (56, 576, 600, 612), "tagline": (420, 90, 960, 120), "holder": (560, 576, 960, 612),
                    "align": "left", "valign": "bottom", "no_code": True, "right_align": ("programme", "tagline", "holder")},
    "footer_stripe": {"band": ("rect", (0, 496, 1012, 638)), "name": (56, 44, 960, 186), "logo": (56, 44, 170, 158),
                      "programme": (56, 198, 960, 236), "code1d": (250, 258, 762, 480), "code2d": (440, 248, 572, 482),
                      "number": (56, 520, 500, 558), "boilerplate": (56, 574, 700, 604), "holder": (560, 520, 960, 558),
                      "tagline": (56, 236, 960, 250), "align": "center", "right_align": ("holder",)},
    "diagonal": {"band": ("poly", [(0, 400), (1012, 150), (1012, 638), (0, 638)]), "logo": (840, 50, 962, 172),
                 "name": (56, 56, 810, 196), "programme": (56, 206, 700, 244), "holder": (56, 252, 600, 288),
                 "code1d": (400, 420, 966, 612), "code2d": (800, 430, 962, 592), "number": (56, 566, 380, 602),
                 "align": "left"},
    "code_first": {"code1d": (150, 50, 862, 330), "code2d": (50, 40, 320, 310), "name": (56, 400, 960, 540),
                   "number": (150, 342, 862, 378), "programme": (56, 560, 700, 600), "logo": (846, 420, 962, 536),
                   "boilerplate": (56, 606, 700, 630), "align": "left", "code_panel_full": True},
    "payment_classic": {"name": (56, 44, 720, 140), "chip": (84, 210, 204, 300), "pan": (80, 340, 940, 410),
                        "expiry": (80, 428, 420, 462), "holder": (80, 512, 700, 556), "network": (760, 480, 962, 600),
                        "logo": (860, 44, 962, 146), "align": "left"},
    "payment_minimal": {"name": (56, 48, 700, 124), "network": (780, 500, 962, 600), "last4": (56, 540, 420, 592),
                        "holder": (56, 470, 600, 510), "chip": (84, 200, 204, 290), "align": "left"},
}

CATEGORY_WEIGHT = {"sans": 1.0, "display": 1.3, "condensed": 1.3, "rounded": 1.2, "serif": 1.0, "script": 1.0, "mono": 0.25}


def pick_name_font(rng, fams, text, want_bold):
    names = sorted(n for n in fams if fams[n][0]["coverage"].covers(text))
    if not names:
        return None, None
    fam = rng.choices(names, [CATEGORY_WEIGHT[fontlib.category(n)] for n in names])[0]
    _, entry = pick_font(rng, {fam: fams[fam]}, text, want_bold=want_bold)
    return fam, entry


def mean_colour(img, box):
    x0, y0, x1, y1 = (int(v) for v in box)
    a = np.asarray(img.crop((max(0, x0), max(0, y0), max(x0 + 1, x1), max(y0 + 1, y1))), np.float32)
    return tuple(a.reshape(-1, 3).mean(0))


def draw_network(img, net, box, colour):
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if net == "mastercard":
        r = h * 0.42
        cy = (y0 + y1) / 2
        cx = x1 - r * 2.6
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(235, 0, 27))
        d.ellipse((cx + r * 0.8 - r, cy - r, cx + r * 0.8 + r, cy + r), fill=(247, 158, 27))
    elif net == "amex":
        d.rectangle((x1 - h * 1.2, y0, x1, y1), fill=(46, 119, 187))
        for i, ln in enumerate(("AMERICAN", "EXPRESS")):
            d.text((x1 - h * 0.6, y0 + h * (0.33 + 0.34 * i)), ln, fill=(255, 255, 255), anchor="mm",
                   font=font(os.path.join("/usr/share/fonts/truetype/dejavu", "DejaVuSans-Bold.ttf"), h * 0.16))
    else:
        f = font(os.path.join("/usr/share/fonts/truetype/dejavu", "DejaVuSans-BoldOblique.ttf"), h * 0.6)
        d.text((x1, (y0 + y1) / 2), "VISA", font=f, fill=colour, anchor="rm")


def render_art(rng, nrng, content, fams, layout, scale=1.0):
    """Flat card artwork and its ground truth (boxes in artwork pixels)."""
    s = scale
    W, H = int(round(CARD_W * s)), int(round(CARD_H * s))
    L = LAYOUT_SLOTS[layout]
    jit = lambda b, j=8: tuple(int((v + rng.uniform(-j, j)) * s) for v in b)
    S = lambda b: tuple(int(v * s) for v in b)
    cv = Canvas(W, H)
    effects = []
    base = content["colours"][0]
    second = content["colours"][1] if len(content["colours"]) > 1 else random_colour(rng)
    if L.get("band_colour") == "light" and rng.random() < 0.7:
        second = random_colour(rng, "white")
    style = rng.choices(["flat", "gradient", "radial", "pattern", "texture", "scene"], [30, 18, 8, 15, 14, 15] if layout == "bottom_name" else [38, 20, 10, 14, 10, 8])[0]
    effects.append("bg_" + (paint_background(cv, rng, nrng, base, second, style) or style))
    if "band" in L:
        shape_kind, shape = L["band"]
        if shape_kind == "rect":
            cv.fill(S(shape), second, "band")
        else:
            cv.fill([(x * s, y * s) for x, y in shape], second, "band", kind="polygon")
        effects.append("band")
    if layout == "code_first" and content["barcode"]:
        cv.fill(S((0, 0, 1012, 392)), (255, 255, 255), "code_panel")
    img = cv.img
    # Fonts: the name's, and one plain family for the small print.
    small = " ".join(t for t in [content["programme"], content.get("tagline"), content["holder"], content["number_label"]] + content["boilerplate"] if t)
    small = small + " 0123456789/№"
    name_fam, name_entry = pick_name_font(rng, fams, content["name"], want_bold=rng.random() < 0.65)
    if name_entry is None:
        return None, None
    small_fams = {k: v for k, v in fams.items() if fontlib.category(k) in ("sans", "display", "condensed", "rounded", "serif")}
    small_fam, small_entry = pick_font(rng, small_fams, small, want_bold=rng.random() < 0.3)
    if small_entry is None:
        small_small = small.replace("№", "")
        small_fam, small_entry = pick_font(rng, small_fams, small_small)
        if small_entry is None:
            return None, None
    if content.get("dense_text"):
        return render_back(img, rng, content, name_fam, name_entry, small_fam, small_entry, layout, effects, cv, s)
    # The name.
    nbox = list(L["name"])
    align = L.get("align", "left")
    if align == "left" and layout not in ("bottom_name", "split_panel") and rng.random() < 0.15:
        align = "right" if "logo" in L and L["logo"][0] < 300 else "left"
    has_logo = content["logo"] is not None and "logo" in L
    if has_logo and layout in ("classic", "footer_stripe", "code_first") and align != "center":
        lb = L["logo"]
        if lb[0] < 300:
            nbox[0] = lb[2] + 24
    if has_logo:
        # Never set the name over the logo: give the name the side of its box away from the logo.
        lb = L["logo"]
        if lb[0] < nbox[2] and lb[2] > nbox[0] and lb[1] < nbox[3] and lb[3] > nbox[1]:
            if (lb[0] + lb[2]) / 2 > (nbox[0] + nbox[2]) / 2:
                nbox[2] = min(nbox[2], lb[0] - 24)
            else:
                nbox[0] = max(nbox[0], lb[2] + 24)
    # Large names are rare on real cards beyond ~110 px cap height: cap the size, sometimes smaller.
    max_size = rng.uniform(60, 130) * s
    nb = jit(nbox, 6)
    region = mean_colour(img, nb)
    name_colour = text_colour_for(region, rng, [rgb("#ffffff"), second, base, (20, 20, 20)])
    valign = L.get("valign", "top" if rng.random() < 0.7 else "center")
    nstyle, neffects = name_style(rng, name_colour, region)
    effects += neffects
    if "badge" in nstyle:
        # The badge needs room around the text inside the slot.
        pad = int((nb[3] - nb[1]) * 0.12)
        nb = (nb[0] + pad, nb[1] + pad, nb[2] - pad, nb[3] - pad)
    # Lines beside the name draw from a stream of their own: a card without them draws as before.
    lrng = random.Random(content.get("lines_seed", ""))
    specs = [] if layout.startswith("payment") else content.get("card_lines") or []
    nb, placed = place_card_lines(specs, nb, L, s, len(content["name_lines"]), max_size)
    # A card without its name (cards.py --no-name): what the name model must learn to call no name.
    name_lines = [] if content.get("hide_name") else draw_lines(img, content["name_lines"], name_entry, nb, name_colour, align=align, valign=valign, max_size=max_size, style=nstyle)
    card_lines_gt = draw_card_lines(img, lrng, placed, name_lines, nb, len(content["name_lines"]), max_size, align,
                                    fams, name_fam, small_entry, name_colour, base, second, s, effects)
    # Polarity: the name against what is right behind it (the badge when there is one).
    behind = nstyle["badge"][0] if "badge" in nstyle else region
    polarity = "light_on_dark" if luminance(name_colour) > luminance(behind) else "dark_on_light"
    # Logo beside the name.
    logo_box = None
    if has_logo:
        lb = L["logo"]
        if layout in ("classic", "footer_stripe") and align == "center":
            lb = None
        if lb:
            logo_box = jit(lb, 4)
            ink = name_colour if rng.random() < 0.6 else second
            draw_logo(img, content["logo"], logo_box, ink, base if contrast(base, ink) > 1.5 else (255, 255, 255),
                      content["name"][0] if content["name"][0].isalpha() else None, name_entry)
            effects.append("logo_" + content["logo"])
    text_colour = name_colour if rng.random() < 0.7 else text_colour_for(region, rng)

    def small_text(slot, text, colour=None, size=None):
        if not text or slot not in L:
            return None
        b = jit(L[slot], 4)
        reg = mean_colour(img, b)
        col = colour or (text_colour if contrast(text_colour, reg) >= 3 else text_colour_for(reg, rng))
        al = "right" if slot in L.get("right_align", ()) else (align if align != "right" else "right")
        if layout == "centered" and slot in ("programme", "tagline"):
            al = "center"
        return draw_lines(img, [text], small_entry, b, col, align=al, valign="center", max_size=size)

    programme = small_text("programme", content["programme"], size=34 * s)
    small_text("tagline", content.get("tagline"), size=26 * s)
    code_box = None
    barcode = content["barcode"]
    if layout.startswith("payment"):
        pay = content["payment"]
        d = ImageDraw.Draw(img)
        if "chip" in L:
            cb = jit(L["chip"], 3)
            d.rounded_rectangle(cb, radius=int(12 * s), fill=(212, 175, 55) if rng.random() < 0.7 else (192, 192, 200))
            d.line((cb[0], (cb[1] + cb[3]) // 2, cb[2], (cb[1] + cb[3]) // 2), fill=(150, 120, 40), width=max(1, int(2 * s)))
        pan_fams = {k: v for k, v in fams.items() if fontlib.category(k) in ("mono", "sans", "display", "condensed")}
        _, pan_entry = pick_font(rng, pan_fams, "0123456789/ ")
        pan_entry = pan_entry or small_entry
        num = pay["number"]
        groups = [num[0:4], num[4:10], num[10:]] if pay["network"] == "amex" else [num[i:i + 4] for i in range(0, len(num), 4)]
        if "pan" in L:
            draw_lines(img, ["  ".join(groups)], pan_entry, jit(L["pan"], 4), text_colour, valign="center", max_size=60 * s)
            draw_lines(img, ["VALID THRU %02d/%02d" % (rng.randint(1, 12), rng.randint(26, 31))], small_entry, jit(L["expiry"], 3), text_colour, valign="center")
        if "last4" in L:
            draw_lines(img, ["•••• " + num[-4:]], pan_entry if pan_entry["coverage"].covers("•") else small_entry, jit(L["last4"], 3), text_colour, valign="center")
        if content["holder"] and ("pan" in L or rng.random() < 0.5):
            draw_lines(img, [content["holder"]], small_entry, jit(L["holder"], 3), text_colour, valign="center", max_size=38 * s)
        draw_network(img, pay["network"], jit(L["network"], 3), text_colour)
        effects.append("payment_" + pay["network"])
    else:
        if L.get("no_code"):
            barcode = None
        if barcode:
            sym = barcode["symbology"]
            slot = "code2d" if sym == "qr" else "code1d"
            b = jit(L[slot], 4)
            radius = int(rng.choice([0, 0, 8, 16]) * s)
            code_box = place_code(img, cv, rng, sym, barcode["value"], b, text_font=small_entry, panel=layout != "code_first", radius=radius)
            if code_box is None:
                barcode = None
        small_text("holder", content["holder"], size=34 * s)
        num = content["member_number"]
        if num and content["number_label"] and rng.random() < 0.6:
            num = content["number_label"] + " " + num
        small_text("number", num, size=32 * s)
        for i, bp in enumerate(content["boilerplate"][:1]):
            small_text("boilerplate", bp, size=24 * s)
    colours = cv.colours()
    gt = {
        "name": "" if content.get("hide_name") else content["name"],
        "name_lines": name_lines,
        "font_family": name_fam, "font_file": os.path.basename(name_entry["path"]), "font_category": fontlib.category(name_fam),
        "small_font_family": small_fam,
        "layout_family": layout,
        "polarity": polarity,
        "name_colour": hexc(name_colour),
        "colors": colours,
        "barcode": {"symbology": barcode["symbology"], "value": barcode["value"], "box": code_box} if barcode else None,
        "logo_box": list(logo_box) if logo_box else None,
        "programme_box": programme[0]["box"] if programme else None,
        "card_lines": card_lines_gt,
        "effects": effects,
    }
    return img, gt


def free_strips(L, x0, x1):
    """Card-unit rows (top, bottom) that no slot of the layout spanning x0…x1 touches, edges kept."""
    boxes = [v for k, v in L.items() if isinstance(v, tuple) and len(v) == 4 and all(isinstance(c, (int, float)) for c in v)]
    ys = sorted((b[1], b[3]) for b in boxes if b[0] < x1 and b[2] > x0)
    strips, y = [], 8
    for a, b in ys:
        if a > y:
            strips.append((y, a))
        y = max(y, b)
    if y < 630:
        strips.append((y, 630))
    return strips


def place_card_lines(specs, nb, L, s, n_name, max_size):
    """The name's box (shrunk when a line shares its slot) and [(spec, box in pixels, where)]: a
    line whose free strip is missing takes the name's slot instead (its fallback, a placement of the same split)."""
    placed, slot = [], None
    x0, x1 = nb[0] / s, nb[2] / s
    strips = free_strips(L, x0, x1)
    for sp in specs:
        where, how = sp["placement"].split("-")
        box = None
        if where in ("edge", "gap"):
            fit = [t for t in strips if t[1] - t[0] >= 30]
            if where == "edge":
                fit = [t for t in fit if (t[0] <= 8 if sp["side"] == "above" else t[1] >= 630)]
            if fit:
                t = max(fit, key=lambda t: t[1] - t[0])
                strips.remove(t)
                box = (nb[0], int((t[0] + 3) * s), nb[2], int((t[1] - 3) * s))
            elif slot is None:
                where, how = sp["fallback"].split("-")
            else:
                continue
        if where in ("tight", "loose"):
            if slot is not None:
                continue
            gap = sp["gap"] if where == "tight" else sp["loose_gap"]
            h = nb[3] - nb[1]
            u = h / (n_name + 0.15 * (n_name - 1) + sp["size"] + gap)
            lh, shift = u * sp["size"], u * (sp["size"] + gap)
            if sp["side"] == "above":
                box, nb = (nb[0], nb[1], nb[2], int(nb[1] + lh)), (nb[0], int(nb[1] + shift), nb[2], nb[3])
            else:
                box, nb = (nb[0], int(nb[3] - lh), nb[2], nb[3]), (nb[0], nb[1], nb[2], int(nb[3] - shift))
            slot = sp
        placed.append((sp, box, f"{where}-{how}"))
    return nb, placed


def draw_card_lines(img, lrng, placed, name_lines, nb, n_name, max_size, align, fams, name_fam, small_entry,
                    name_colour, base, second, s, effects):
    """Sets the placed lines at their size against the name's ink height; their truth in card units."""
    if not placed:
        return []
    ink = (name_lines[0]["box"][3] - name_lines[0]["box"][1]) if name_lines else min(max_size, (nb[3] - nb[1]) / n_name) * 0.75
    small_fams = {k: v for k, v in fams.items() if fontlib.category(k) in ("sans", "display", "condensed", "rounded", "serif")}
    out = []
    for sp, box, where in placed:
        text = sp["text"]
        entry = None
        if sp["font"] == "name":
            _, entry = pick_font(lrng, {name_fam: fams[name_fam]}, text, want_bold=sp["bold"])
        elif sp["font"] == "other":
            _, entry = pick_font(lrng, small_fams, text, want_bold=sp["bold"])
        if entry is None:
            entry = small_entry if small_entry["coverage"].covers(text) else pick_font(lrng, fams, text)[1]
        if entry is None:
            continue
        how = where.split("-")[1]
        al = "center" if how == "centred" else align
        if how == "opposite":
            al = {"left": "right", "right": "left"}.get(align, "left")
        reg = mean_colour(img, box)
        col = name_colour if contrast(name_colour, reg) >= 3 and lrng.random() < 0.6 else \
            text_colour_for(reg, lrng, [rgb("#ffffff"), second, base, (20, 20, 20)])
        # The size asked is the line's ink height against the name's; the box may hold it smaller.
        drawn = draw_lines(img, [text], entry, box, col, align=al, valign="center", max_size=max(10, ink * sp["size"]))
        b = drawn[0]["box"]
        out.append({"kind": sp["kind"], "text": text, "placement": where, "side": sp["side"],
                    "ink_to_name": round((b[3] - b[1]) / max(ink, 1), 2), "bold": sp["bold"],
                    "card_box": [round(v / s, 1) for v in b]})
        effects.append("card_line_" + sp["kind"])
    return out


def render_back(img, rng, content, name_fam, name_entry, small_fam, small_entry, layout, effects, cv, s):
    """A card's back or a gift card with many lines of small print (cards.py --dense-text): terms and
    conditions, some lines ending in an amount (a gift card's value or balance), sometimes under a
    magnetic stripe. No name is shown (truth name ""), and no code."""
    lo, hi = content["dense_text"]
    top = 48
    if rng.random() < 0.5:
        ImageDraw.Draw(img).rectangle((0, int(40 * s), img.width, int(rng.uniform(130, 170) * s)), fill=(25, 25, 25))
        top = 200
        effects.append("magnetic_stripe")
    box = (int(rng.uniform(30, 60) * s), int(top * s), int(rng.uniform(950, 985) * s), int(rng.uniform(585, 615) * s))
    if rng.random() < 0.5:
        ImageDraw.Draw(img).rounded_rectangle(box, radius=int(8 * s), fill=random_colour(rng, "white"))
        box = (box[0] + int(12 * s), box[1] + int(8 * s), box[2] - int(12 * s), box[3] - int(8 * s))
        effects.append("terms_panel")
    colour = text_colour_for(mean_colour(img, box), rng)
    lang = content["lang"]
    pool = [w for t in lx.BOILERPLATE[lang] + lx.PROGRAMME[lang] + lx.TAGLINES[lang] + lx.NUMBER_LABEL[lang] for w in t.split()]
    n = rng.randint(lo, hi)
    pitch = (box[3] - box[1]) / n
    f = font(small_entry["path"], max(8, int(pitch * rng.uniform(0.62, 0.8))))
    width = box[2] - box[0]
    amounts = rng.random() < 0.4
    d = ImageDraw.Draw(img)
    for i in range(n):
        y = box[1] + i * pitch
        amount = "%d%s%02d" % (rng.randint(1, 500), rng.choice(",."), rng.randint(0, 99)) if amounts and rng.random() < 0.4 else None
        room = width * (0.7 if amount else rng.uniform(0.55, 1.0))
        words = []
        while True:
            w = rng.choice(pool).replace("{year}", str(rng.randint(1998, 2025))).replace("{yy}", "%02d" % rng.randint(26, 31))
            if f.getlength(" ".join(words + [w])) > room:
                break
            words.append(w)
        d.text((box[0], y), " ".join(words), font=f, fill=colour)
        if amount:
            d.text((box[2] - f.getlength(amount), y), amount, font=f, fill=colour)
    effects.append("dense_text_%d" % n)
    gt = {
        "name": "", "name_lines": [],
        "font_family": name_fam, "font_file": os.path.basename(name_entry["path"]), "font_category": fontlib.category(name_fam),
        "small_font_family": small_fam, "layout_family": layout, "polarity": "dark_on_light" if luminance(colour) < 0.5 else "light_on_dark",
        "name_colour": hexc(colour), "colors": cv.colours(), "barcode": None, "logo_box": None, "programme_box": None,
        "effects": effects,
    }
    return img, gt
