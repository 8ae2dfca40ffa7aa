"""Scenes around a card's artwork: photos (perspective on a surface), app screenshots, flat crops.
Every function returns the image and the ground truth mapped into image pixels."""
import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

import art as A
import fonts as fontlib
import lexicon as lx

APP_FAMILIES = ["apple_wallet", "google_wallet", "catima", "stocard", "banking", "generic_wallet"]


# --- geometry -------------------------------------------------------------------------------------

def homography(src, dst):
    rows = []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=np.float64))
    return (vt[-1] / vt[-1, -1]).reshape(3, 3)


def apply_h(hm, pts):
    out = []
    for x, y in pts:
        u, v, w = hm @ np.array([x, y, 1.0])
        out.append([u / w, v / w])
    return out


def box_poly(b):
    x0, y0, x1, y1 = b
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def poly_box(p):
    xs, ys = [q[0] for q in p], [q[1] for q in p]
    return [min(xs), min(ys), max(xs), max(ys)]


def r1(points):
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]


def rounded_mask(size, radius, supersample=2):
    w, h = size
    m = Image.new("L", (w * supersample, h * supersample), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, w * supersample - 1, h * supersample - 1), radius=radius * supersample, fill=255)
    return m.resize((w, h), Image.LANCZOS)


def map_art_gt(gt, fn):
    """Name lines and code box of the artwork mapped through fn (list of points -> list of points)."""
    lines = []
    for ln in gt["name_lines"]:
        poly = fn(box_poly(ln["box"]))
        lines.append({"text": ln["text"], "box": [round(v, 1) for v in poly_box(poly)], "poly": r1(poly),
                      "card_box": [round(v / gt["_scale"], 1) for v in ln["box"]]})
    code = None
    if gt["barcode"]:
        code = dict(gt["barcode"])
        if code.get("box"):
            code["box"] = [round(v, 1) for v in poly_box(fn(box_poly(code["box"])))]
    return lines, code


# --- photos ---------------------------------------------------------------------------------------

def surface(kind, size, rng, nrng):
    w, h = size
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        a = rng.uniform(0, math.pi)
        u = x * math.cos(a) + y * math.sin(a)
        v = -x * math.sin(a) + y * math.cos(a)
        grain = np.sin((v + 30 * np.sin(u / rng.uniform(120, 260))) / rng.uniform(5, 14)) * 0.5 + 0.5
        t = np.clip(grain * 0.6 + nrng.normal(0, 0.08, (h, w)), 0, 1)[..., None]
        c0 = np.array(A.random_colour(rng, "muted")) * 0.5 + np.array([120, 80, 45]) * 0.5
        img = c0 * (1 - t) + np.clip(c0 * 1.35, 0, 255) * t
    elif kind == "fabric":
        y, x = np.mgrid[0:h, 0:w]
        k = rng.randint(3, 8)
        weave = ((x // k + y // k) % 2).astype(np.float32)
        t = np.clip(weave * 0.4 + nrng.normal(0, 0.12, (h, w)) + 0.3, 0, 1)[..., None]
        c = np.array(A.random_colour(rng, rng.choice(["muted", "dark", "pastel"])), np.float32)
        img = c * (0.8 + 0.3 * t)
    elif kind == "tiles":
        y, x = np.mgrid[0:h, 0:w]
        step = rng.randint(140, 320)
        grout = ((x % step) < 8) | ((y % step) < 8)
        tile = np.array(A.random_colour(rng, rng.choice(["light", "pastel", "muted"])), np.float32)
        img = np.where(grout[..., None], tile * 0.55, tile).astype(np.float32) + nrng.normal(0, 5, (h, w, 1))
    elif kind in ("marble", "blurred"):
        small = nrng.random((max(3, h // 60), max(3, w // 60), 3)).astype(np.float32)
        base = np.array(A.random_colour(rng), np.float32)
        other = np.array(A.random_colour(rng), np.float32)
        mid = Image.fromarray((small * 255).astype(np.uint8)).resize((w // 8, h // 8), Image.BICUBIC).filter(ImageFilter.GaussianBlur(3))
        big = np.asarray(mid.resize((w, h), Image.BILINEAR), np.float32) / 255
        t = big.mean(2, keepdims=True)
        img = base * (1 - t) + other * t
        if kind == "marble":
            img = img * 0.3 + 200 * 0.7 + nrng.normal(0, 4, (h, w, 1))
    elif kind == "paper":
        img = np.full((h, w, 3), rng.uniform(220, 245), np.float32) + nrng.normal(0, 3, (h, w, 1))
    elif kind == "carpet":
        c = np.array(A.random_colour(rng, "muted"), np.float32)
        img = c + nrng.normal(0, 18, (h, w, 1))
    else:  # dark desk
        img = np.full((h, w, 3), rng.uniform(25, 60), np.float32) + nrng.normal(0, 5, (h, w, 1))
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))


def card_quad(rng, size, fill, tilt, rotation, jitter=0.12):
    w, h = size
    area = fill * w * h
    cw = math.sqrt(area * A.CARD_W / A.CARD_H)
    ch = cw * A.CARD_H / A.CARD_W
    cx = w / 2 + rng.uniform(-jitter, jitter) * w
    cy = h / 2 + rng.uniform(-jitter, jitter) * h
    corners = [(-cw / 2, -ch / 2), (cw / 2, -ch / 2), (cw / 2, ch / 2), (-cw / 2, ch / 2)]
    k = math.sin(math.radians(tilt)) * 0.5
    axis = rng.choice(["x", "y"])
    side = rng.choice([-1, 1])
    squeezed = []
    for x, y in corners:
        if axis == "y":
            f = 1 - k * (0.5 + side * y / ch)
            squeezed.append((x * f, y * (1 - k * 0.35)))
        else:
            f = 1 - k * (0.5 + side * x / cw)
            squeezed.append((x * (1 - k * 0.35), y * f))
    a = math.radians(rotation)
    placed = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in squeezed]
    xs, ys = [p[0] for p in placed], [p[1] for p in placed]
    dx = max(0, 16 - min(xs)) - max(0, max(xs) - (w - 16))
    dy = max(0, 16 - min(ys)) - max(0, max(ys) - (h - 16))
    return [(x + dx, y + dy) for x, y in placed]


def clutter(canvas, rng, n):
    d = ImageDraw.Draw(canvas)
    w, h = canvas.size
    kinds = []
    for _ in range(n):
        kind = rng.choice(["receipt", "paper_card", "phone", "coin", "keys", "pen"])
        kinds.append(kind)
        x, y = rng.uniform(-0.1, 0.9) * w, rng.uniform(-0.1, 0.9) * h
        a = rng.uniform(0, math.pi)
        def rot(pts):
            cx, cy = pts[0]
            return [(cx + (px - cx) * math.cos(a) - (py - cy) * math.sin(a), cy + (px - cx) * math.sin(a) + (py - cy) * math.cos(a)) for px, py in pts]
        if kind == "receipt":
            rw, rh = 0.16 * w, 0.7 * h
            d.polygon(rot([(x, y), (x + rw, y), (x + rw, y + rh), (x, y + rh)]), fill=(246, 244, 238))
        elif kind == "paper_card":
            rw = rng.uniform(0.18, 0.3) * w
            d.polygon(rot([(x, y), (x + rw, y), (x + rw, y + rw * 0.6), (x, y + rw * 0.6)]), fill=A.random_colour(rng, rng.choice(["white", "light", "vivid"])))
        elif kind == "phone":
            rw, rh = 0.16 * w, 0.34 * w
            d.polygon(rot([(x, y), (x + rw, y), (x + rw, y + rh), (x, y + rh)]), fill=(20, 20, 24))
        elif kind == "coin":
            r = rng.uniform(0.02, 0.04) * w
            d.ellipse((x - r, y - r, x + r, y + r), fill=rng.choice([(184, 150, 80), (170, 170, 175), (150, 100, 60)]))
        elif kind == "keys":
            r = 0.03 * w
            d.ellipse((x - r, y - r, x + r, y + r), outline=(160, 160, 165), width=max(2, int(r * 0.2)))
            d.line(rot([(x + r, y), (x + 4 * r, y)]), fill=(150, 150, 150), width=int(r * 0.6))
        else:
            d.line(rot([(x, y), (x + 0.3 * w, y)]), fill=A.random_colour(rng, "vivid"), width=max(4, int(0.012 * w)))
    return kinds


def hand(canvas, quad, rng):
    """A hand holding the card: a thumb (with a nail and shading) over one edge, the palm beyond it."""
    i = rng.randrange(4)
    (ax, ay), (bx, by) = quad[i], quad[(i + 1) % 4]
    t = rng.uniform(0.2, 0.8)
    px, py = ax + (bx - ax) * t, ay + (by - ay) * t
    cx, cy = sum(q[0] for q in quad) / 4, sum(q[1] for q in quad) / 4
    diag = math.dist(quad[0], quad[2])
    skin = np.array(rng.choice([(224, 180, 150), (198, 150, 118), (141, 97, 68), (236, 200, 176), (110, 74, 50)]), np.float32)
    # Draw in a local frame: x along the thumb (pointing into the card), y across it.
    tw = diag * rng.uniform(0.07, 0.1)          # thumb width
    tl = tw * rng.uniform(2.4, 3.4)             # thumb length
    inside = tw * rng.uniform(0.8, 1.8)         # how far the thumb reaches over the card
    size = int(tl + diag * 0.9)
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    ox, oy = size - tl, size / 2               # thumb tip lies at (size, size/2)
    col = tuple(int(v) for v in skin) + (255,)
    dark = tuple(int(v * 0.8) for v in skin) + (255,)
    side = rng.choice([-1, 1])
    ex, ey, rx, ry = ox - diag * 0.2, oy + side * tw * 1.2, diag * 0.32, diag * 0.26
    d.ellipse((ex - rx, ey - ry, ex + rx, ey + ry), fill=dark)
    d.polygon([(ex, ey - side * ry * 0.2), (ox + tw * 1.2, oy - tw * 0.5), (ox + tw * 1.2, oy + tw * 0.5), (ex + rx * 0.6, ey)], fill=dark)
    d.rounded_rectangle((ox, oy - tw / 2, size - 1, oy + tw / 2), radius=int(tw / 2), fill=col)
    nl = tw * 0.75
    d.rounded_rectangle((size - nl - tw * 0.08, oy - tw * 0.32, size - tw * 0.08, oy + tw * 0.32), radius=int(tw * 0.3),
                        fill=tuple(int(min(255, v * 1.12 + 20)) for v in skin) + (255,))
    d.line((ox + tl * 0.45, oy - tw * 0.45, ox + tl * 0.45, oy + tw * 0.45), fill=dark, width=max(1, int(tw * 0.04)))
    layer = layer.filter(ImageFilter.GaussianBlur(max(0.5, tw * 0.02)))
    # Direction from the edge point into the card: the thumb points that way.
    dx, dy = cx - px, cy - py
    ang = math.degrees(math.atan2(dy, dx))
    rot = layer.rotate(-ang, resample=Image.BICUBIC, expand=True)
    # After rotation about the centre, the tip (size, size/2) sits at centre + (size/2)·(cos, sin).
    rc = (rot.width / 2, rot.height / 2)
    a = math.radians(ang)
    norm = math.hypot(dx, dy) or 1
    tipx, tipy = px + dx / norm * inside, py + dy / norm * inside
    ox_, oy_ = tipx - (rc[0] + size / 2 * math.cos(a)), tipy - (rc[1] + size / 2 * math.sin(a))
    canvas.paste(rot, (int(ox_), int(oy_)), rot)


def finish_photo(img, rng, nrng, effects):
    arr = np.asarray(img).astype(np.float32)
    h, w = arr.shape[:2]
    gx = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(1.0, 1.15), w, dtype=np.float32)[None, :, None]
    gy = np.linspace(rng.uniform(0.85, 1.05), rng.uniform(0.9, 1.1), h, dtype=np.float32)[:, None, None]
    if rng.random() < 0.5:
        gx, gy = gx[:, ::-1], gy[::-1]
    arr = arr * gx * gy
    cast = np.array([rng.uniform(0.9, 1.08), 1.0, rng.uniform(0.88, 1.08)], np.float32)
    arr = arr * cast
    effects.append("lighting")
    if rng.random() < 0.25:
        cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        yy, xx = np.ogrid[0:h, 0:w]
        sx, sy = rng.uniform(0.05, 0.15) * w, rng.uniform(0.03, 0.1) * h
        arr = arr + rng.uniform(120, 220) * np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))[..., None]
        effects.append("glare")
    arr = arr + nrng.normal(0, rng.uniform(1.5, 7), (h, w, 1)).astype(np.float32)
    effects.append("noise")
    out = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    r = rng.random()
    if r < 0.12:
        k = rng.randint(5, 15)
        a = np.asarray(out).astype(np.float32)
        ang = rng.choice([0, 1])
        acc = np.zeros_like(a)
        for i in range(k):
            acc += np.roll(a, i - k // 2, axis=1 if ang == 0 else 0)
        out = Image.fromarray((acc / k).astype(np.uint8))
        effects.append("motion_blur")
    elif r < 0.4:
        out = out.filter(ImageFilter.GaussianBlur(rng.uniform(1.0, 2.6)))
        effects.append("blur")
    else:
        out = out.filter(ImageFilter.GaussianBlur(0.5))
    return out


def render_photo(rng, nrng, make_art):
    size = rng.choice([(1600, 1200), (1600, 1200), (2016, 1512), (1200, 1600), (1280, 960), (1512, 2016)])
    effects = []
    fill = rng.uniform(0.12, 0.55)
    card_w_px = math.sqrt(fill * size[0] * size[1] * A.CARD_W / A.CARD_H)
    scale = min(2.0, max(0.8, card_w_px / A.CARD_W * 1.1))
    art, gt = make_art(scale)
    if art is None:
        return None, None
    kind = rng.choice(["wood", "fabric", "tiles", "marble", "blurred", "paper", "carpet", "dark"])
    canvas = surface(kind, size, rng, nrng)
    effects.append("surface_" + kind)
    n = rng.choice([0, 0, 1, 2, 3])
    if n:
        effects += ["clutter_" + k for k in clutter(canvas, rng, n)]
    r = rng.random()
    rotation = rng.uniform(-25, 25) if r < 0.75 else rng.choice([90, 180, -90]) + rng.uniform(-15, 15)
    tilt = rng.uniform(0, 38)
    quad = card_quad(rng, size, fill, tilt, rotation)
    # Shadow cast on the surface.
    sm = Image.new("L", size, 0)
    off = rng.uniform(2, 14)
    ImageDraw.Draw(sm).polygon([(x + off, y + off * 1.2) for x, y in quad], fill=int(rng.uniform(40, 110)))
    blur = rng.uniform(4, 16)
    sm = sm.resize((size[0] // 4, size[1] // 4), Image.BILINEAR).filter(ImageFilter.GaussianBlur(blur / 4)).resize(size, Image.BILINEAR)
    canvas.paste(Image.new("RGB", size, (0, 0, 0)), (0, 0), sm)
    aw, ah = art.size
    hm_inv = homography(quad, [(0, 0), (aw, 0), (aw, ah), (0, ah)])
    coeff = hm_inv.flatten()[:8]
    radius = int(rng.uniform(0.02, 0.06) * aw)
    warped = art.transform(size, Image.PERSPECTIVE, coeff, Image.BICUBIC)
    mask = rounded_mask(art.size, radius, 1).transform(size, Image.PERSPECTIVE, coeff, Image.BILINEAR)
    canvas.paste(warped, (0, 0), mask)
    if rng.random() < 0.25:
        hand(canvas, quad, rng)
        effects.append("hand")
    img = finish_photo(canvas, rng, nrng, effects)
    hm = homography([(0, 0), (aw, 0), (aw, ah), (0, ah)], quad)
    lines, code = map_art_gt(gt, lambda pts: apply_h(hm, pts))
    return img, {"quad": r1(quad), "name_lines": lines, "barcode": code, "effects": effects,
                 "corner_radius_px": round(radius * math.dist(quad[0], quad[1]) / aw, 1), "rotation_deg": round(rotation, 1),
                 "tilt_deg": round(tilt, 1)}


# --- crops ------------------------------------------------------------------------------------------

def render_crop(rng, nrng, make_art):
    art, gt = make_art(1.0)
    if art is None:
        return None, None
    effects = []
    w, h = art.size
    # What warp cuts from a photo: the artwork, its rounded corners showing a little surface.
    bg = Image.new("RGB", art.size, A.random_colour(rng, rng.choice(["muted", "dark", "light"])))
    radius = int(rng.uniform(0.02, 0.05) * w)
    bg.paste(art, (0, 0), rounded_mask(art.size, radius, 1))
    img = bg
    arr = np.asarray(img).astype(np.float32)
    if rng.random() < 0.6:
        arr = arr * rng.uniform(0.8, 1.1) + rng.uniform(-15, 15)
        effects.append("exposure")
    if rng.random() < 0.6:
        arr = arr + nrng.normal(0, rng.uniform(1, 6), (h, w, 1))
        effects.append("noise")
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if rng.random() < 0.5:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.4)))
        effects.append("blur")
    lines, code = map_art_gt(gt, lambda pts: [list(p) for p in pts])
    return img, {"quad": r1([(0, 0), (w, 0), (w, h), (0, h)]), "name_lines": lines, "barcode": code, "effects": effects,
                 "corner_radius_px": radius}


# --- screenshots ------------------------------------------------------------------------------------

SCREENS = [(390, 844), (375, 812), (360, 800), (412, 915), (393, 852), (428, 926)]


class Screen:
    def __init__(self, rng, fams, lang, dark, platform):
        self.rng = rng
        pw, ph = rng.choice(SCREENS)
        self.s = rng.choice([1.0, 1.5, 2.0, 2.0, 2.625, 3.0, 3.0])
        self.W, self.H = int(pw * self.s), int(ph * self.s)
        self.dark = dark
        self.platform = platform
        self.bg = rng.choice([(0, 0, 0), (18, 18, 20), (28, 28, 30), (32, 33, 36)]) if dark else rng.choice([(255, 255, 255), (242, 242, 247), (248, 249, 250), (245, 245, 245)])
        self.fg = (245, 245, 245) if dark else (20, 20, 24)
        self.muted = (150, 150, 155) if dark else (110, 110, 118)
        self.panel = rng.choice([(44, 44, 46), (30, 31, 34)]) if dark else (255, 255, 255)
        self.img = Image.new("RGB", (self.W, self.H), self.bg)
        ui = {k: v for k, v in fams.items() if fontlib.category(k) in ("sans", "display")}
        words = " ".join(lx.APP_WORDS[lang]) + " 0123456789:%,.€$"
        _, self.ui = A.pick_font(rng, ui, words, want_bold=False)
        _, self.ui_bold = A.pick_font(rng, ui, words, want_bold=True)
        if self.ui is None:
            _, self.ui = A.pick_font(rng, fams, lx.APP_WORDS[lang][0])
            self.ui_bold = self.ui
        self.lang = lang

    def p(self, v):
        return int(round(v * self.s))

    def text(self, xy, t, size, colour=None, bold=False, anchor="la"):
        f = A.font((self.ui_bold if bold else self.ui)["path"], self.p(size))
        ImageDraw.Draw(self.img).text(xy, t, font=f, fill=colour or self.fg, anchor=anchor)

    def status_bar(self):
        d = ImageDraw.Draw(self.img)
        p = self.p
        t = "%d:%02d" % (self.rng.randint(7, 23), self.rng.randint(0, 59))
        h = 54 if self.platform == "ios" else 30
        y = p(h / 2)
        self.text((p(32 if self.platform == "ios" else 16), y), t, 16 if self.platform == "ios" else 13, bold=self.platform == "ios", anchor="lm")
        x = self.W - p(20)
        bw, bh = p(25), p(12)
        d.rounded_rectangle((x - bw, y - bh // 2, x, y + bh // 2), radius=p(3), outline=self.fg, width=max(1, p(1)))
        lvl = self.rng.uniform(0.15, 1)
        d.rounded_rectangle((x - bw + p(2), y - bh // 2 + p(2), x - bw + p(2) + int((bw - p(4)) * lvl), y + bh // 2 - p(2)), radius=p(1), fill=self.fg)
        x -= bw + p(8)
        for i in range(3):
            r = p(4 + 4 * i)
            d.arc((x - r - p(6), y + p(4) - r, x + r - p(6), y + p(4) + r), 225, 315, fill=self.fg, width=max(1, p(2)))
        x -= p(24)
        for i in range(4):
            bh2 = p(3 + 2.5 * i)
            d.rectangle((x - p(18) + i * p(5), y + p(5) - bh2, x - p(15) + i * p(5), y + p(5)), fill=self.fg)
        return p(h)

    def nav_bar(self):
        d = ImageDraw.Draw(self.img)
        p = self.p
        if self.platform == "ios" or self.rng.random() < 0.6:
            w = p(134)
            d.rounded_rectangle(((self.W - w) // 2, self.H - p(13), (self.W + w) // 2, self.H - p(8)), radius=p(3), fill=self.fg)
            return p(34)
        h = p(48)
        d.rectangle((0, self.H - h, self.W, self.H), fill=(0, 0, 0) if self.dark else (240, 240, 240))
        cy = self.H - h // 2
        for i, kind in enumerate(("tri", "circ", "sq")):
            cx = self.W * (0.25 + 0.25 * i)
            r = p(8)
            col = self.muted
            if kind == "tri":
                d.polygon([(cx + r, cy - r), (cx + r, cy + r), (cx - r, cy)], outline=col, width=max(1, p(2)))
            elif kind == "circ":
                d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=col, width=max(1, p(2)))
            else:
                d.rectangle((cx - r, cy - r, cx + r, cy + r), outline=col, width=max(1, p(2)))
        return h

    def shadow(self, box, radius, rng, glow_colour=None, effects=None):
        """Drop shadow / glow / elevation under a rounded box (drawn before the box)."""
        x0, y0, x1, y1 = box
        w = x1 - x0
        if glow_colour is not None:
            dx, dy, blur, spread, alpha, colour = 0, 0, rng.uniform(0.03, 0.1) * w, rng.uniform(0, 0.03) * w, rng.uniform(0.4, 0.8), glow_colour
            kind = "glow"
        else:
            dx = rng.uniform(-0.01, 0.01) * w
            dy = rng.uniform(0, 0.06) * w if rng.random() < 0.9 else rng.uniform(-0.02, 0)
            blur = rng.uniform(0.005, 0.08) * w
            spread = rng.uniform(-0.01, 0.03) * w
            alpha = rng.uniform(0.15, 0.8) * (0.7 if self.dark else 1)
            colour = (0, 0, 0)
            kind = "shadow"
        pad = int(blur * 3 + abs(spread) + abs(dx) + abs(dy) + 4)
        bx0, by0 = int(x0 - pad), int(y0 - pad)
        m = Image.new("L", (int(w + 2 * pad), int(y1 - y0 + 2 * pad)), 0)
        ImageDraw.Draw(m).rounded_rectangle((pad - spread + dx, pad - spread + dy, pad + w + spread + dx, pad + (y1 - y0) + spread + dy),
                                            radius=radius + max(0, spread), fill=int(255 * alpha))
        if blur > 0.5:
            # Blur at a reduced size (fast for large radii), then scale back.
            k = max(1, int(blur / 6))
            small = m.resize((max(1, m.width // k), max(1, m.height // k)), Image.BILINEAR).filter(ImageFilter.GaussianBlur(blur / k))
            m = small.resize(m.size, Image.BILINEAR)
        self.img.paste(Image.new("RGB", m.size, tuple(int(c) for c in colour)), (bx0, by0), m)
        if effects is not None:
            effects.append(kind)
        return {"kind": kind, "dx": round(dx, 1), "dy": round(dy, 1), "blur": round(blur, 1), "spread": round(spread, 1), "alpha": round(alpha, 2)}

    def tile(self, art, box, radius):
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        w, h = x1 - x0, y1 - y0
        a = art.resize((w, h), Image.LANCZOS)
        self.img.paste(a, (x0, y0), rounded_mask((w, h), radius))
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def code_panel(self, box, barcode, rng, radius, colour=(255, 255, 255)):
        x0, y0, x1, y1 = (int(v) for v in box)
        d = ImageDraw.Draw(self.img)
        d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=colour)
        if not barcode:
            return None
        cv = A.Canvas(self.W, self.H)
        cv.img = self.img
        cv.labels = Image.new("L", (1, 1))
        sym = barcode["symbology"]
        if sym == "qr":
            side = min(x1 - x0, y1 - y0) * 0.9
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            inner = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        else:
            inner = (x0 + (x1 - x0) * 0.05, y0 + (y1 - y0) * 0.08, x1 - (x1 - x0) * 0.05, y1 - (y1 - y0) * 0.08)
        inner = tuple(int(v) for v in inner)
        b = A.place_code(self.img, _NoLabels(self.img), rng, sym, barcode["value"], inner, text_font=self.ui, panel=False)
        return b


class _NoLabels:
    def __init__(self, img):
        self.img = img

    def fill(self, shape, colour, role, kind="rectangle", **kw):
        getattr(ImageDraw.Draw(self.img), kind)(shape, fill=colour, **kw)


def other_card(sc, rng, box, radius, make_other):
    """Another card beside or under the main one: real artwork of other content, or a plain tile."""
    art, gt = make_other(min(1.0, max(0.4, (box[2] - box[0]) / A.CARD_W))) if make_other and rng.random() < 0.8 else (None, None)
    if art is None:
        ImageDraw.Draw(sc.img).rounded_rectangle(box, radius=radius, fill=A.random_colour(rng))
    else:
        sc.tile(art, box, radius)
    code = gt["barcode"] if gt else None
    return {"quad": r1(box_poly(box)), "name": gt["name"] if gt else None,
            "barcode": {"symbology": code["symbology"], "value": code["value"]} if code else None}


def stack_below(sc, rng, box, radius, bottom, make_other, others, effects):
    """The user's other cards under the main one (issue #25; train families only, drawn unlike
    Apple Wallet's stack): a list of whole cards with gaps between them, a little narrower or as
    wide, or a deck whose cards overlap so that a band of each shows, in from the main card's sides;
    both may run off the screen's foot. Returns the row below the last card on the screen."""
    p = sc.p
    x0, _, x1, y1 = box
    w = x1 - x0
    deck = rng.random() < 0.5
    inset = w * rng.uniform(0.02, 0.08) if deck else w * rng.choice([0, 0, rng.uniform(0.03, 0.1)])
    nh = (w - 2 * inset) * A.CARD_H / A.CARD_W
    top = y1 + p(rng.uniform(12, 36))
    step = p(rng.uniform(24, 80)) if deck else nh + p(rng.uniform(8, 24))
    n = rng.randint(1, 5)
    shadowed = rng.random() < 0.4
    last = top
    for i in range(n):
        ny = top + i * step
        if ny >= sc.H - bottom:
            break
        nb = (x0 + inset, ny, x1 - inset, ny + nh)
        if shadowed:
            sc.shadow(nb, radius, rng)
        others.append(other_card(sc, rng, nb, radius, make_other))
        last = nb[3]
    effects.append("stack_deck" if deck else "stack_list")
    return last + p(16)


def blurred_photo(size, rng, nrng):
    w, h = size
    small = Image.new("RGB", (48, int(48 * h / w)), A.random_colour(rng))
    d = ImageDraw.Draw(small)
    for _ in range(rng.randint(6, 14)):
        x, y, r = rng.uniform(0, 48), rng.uniform(0, small.height), rng.uniform(3, 16)
        d.ellipse((x - r, y - r, x + r, y + r), fill=A.random_colour(rng))
    return small.filter(ImageFilter.GaussianBlur(3)).resize((w, h), Image.BICUBIC)


def render_screenshot(rng, nrng, content, make_art, app, fams, make_other=None, pass_rng=None):
    """App screenshot; main card ground truth in screen pixels. `pass_rng` (its own branch, so the
    other screenshots stay as they were) decides whether a Google-Wallet-style screen shows a
    generic pass instead of a card, and draws it."""
    dark = rng.random() < 0.45
    platform = "ios" if app == "apple_wallet" else ("android" if app in ("google_wallet", "catima") else rng.choice(["ios", "android"]))
    sc = Screen(rng, fams, content["lang"], dark, platform)
    p = sc.p
    effects = ["dark" if dark else "light", platform, "scale_%g" % sc.s]
    words = lx.APP_WORDS[content["lang"]]
    others = []
    variant = app
    panel_code = None
    if app in ("stocard", "google_wallet", "catima") or (app == "generic_wallet" and rng.random() < 0.5):
        panel_code = content["barcode"]
        content = dict(content, barcode=None)
    if app == "generic_wallet":
        sc.img.paste(blurred_photo((sc.W, sc.H), rng, nrng))
        if rng.random() < 0.5:
            sc.img = Image.blend(sc.img, Image.new("RGB", sc.img.size, sc.bg), rng.uniform(0.2, 0.6))
        effects.append("blurred_background")
    top = sc.status_bar()
    bottom = sc.nav_bar()
    margin = p(rng.choice([12, 16, 20, 24]))
    card_w = sc.W - 2 * margin
    if app == "apple_wallet" and rng.random() < 0.5 and content["payment"] is None:
        return render_pass(rng, nrng, sc, content, fams, top, bottom, effects, panel_code)
    if app == "google_wallet" and pass_rng is not None and content["payment"] is None and pass_rng.random() < 0.4:
        return render_generic_pass(pass_rng, sc, content, fams, top, bottom, effects, panel_code)
    if app in ("catima", "generic_wallet") and pass_rng is not None and content["payment"] is None and pass_rng.random() < 0.4:
        return render_header_pass(pass_rng, sc, content, fams, top, bottom, effects, panel_code)
    art, gt = make_art(min(2.0, max(0.6, card_w / A.CARD_W)), content)
    if art is None:
        return None, None
    radius_frac = rng.choice([0.0, 0.02, 0.035, 0.05, 0.07, 0.1, 0.14])
    y = top + p(rng.uniform(8, 70))
    header = None
    if app in ("google_wallet", "catima", "banking", "stocard"):
        named = [] if content.get("hide_name") else [content["name"][:18]]
        header = rng.choice(words[:2] + named) if app != "banking" else words[0]
        if app == "catima":
            bar_h = p(56)
            bar_col = content["colours"][0]
            ImageDraw.Draw(sc.img).rectangle((0, top, sc.W, top + bar_h), fill=bar_col)
            tcol = A.text_colour_for(bar_col, rng)
            sc.text((p(56), top + bar_h // 2), header, 20, colour=tcol, anchor="lm")
            ImageDraw.Draw(sc.img).line((p(16), top + bar_h // 2, p(32), top + bar_h // 2), fill=tcol, width=p(2))
            y = top + bar_h + p(rng.uniform(12, 40))
        else:
            sc.text((margin, top + p(8)), header, rng.choice([20, 28, 34]), bold=True)
            y = top + p(rng.uniform(52, 90))
    if app == "banking":
        card_w = int(sc.W * rng.uniform(0.72, 0.86))
        margin = (sc.W - card_w) // 2
    elif app == "generic_wallet" and rng.random() < 0.35:
        card_w = int(sc.W * rng.uniform(0.7, 0.95))
        margin = (sc.W - card_w) // 2
    card_h = card_w * A.CARD_H / A.CARD_W
    x0 = margin
    partial = False
    if app == "generic_wallet" and rng.random() < 0.15:
        x0 += int(rng.choice([-1, 1]) * card_w * rng.uniform(0.05, 0.2))
        partial = True
        effects.append("main_partial")
    box = (x0, y, x0 + card_w, y + card_h)
    radius = int(radius_frac * card_w)
    glow = content["colours"][0] if (dark and rng.random() < 0.4) or rng.random() < 0.1 else None
    shadow = None
    if rng.random() < 0.85:
        shadow = sc.shadow(box, radius, rng, glow_colour=glow, effects=effects)
    # Neighbours: carousel cards at the screen edges (banking, sometimes a generic wallet), or stacked
    # card tops below (apple wallet).
    if app == "banking" or (app == "generic_wallet" and rng.random() < 0.3):
        gap = p(rng.uniform(8, 20))
        for side in (-1, 1):
            if rng.random() < 0.85:
                nx0 = x0 + side * (card_w + gap)
                nb = (nx0, y, nx0 + card_w, y + card_h)
                others.append(other_card(sc, rng, nb, radius, make_other))
        effects.append("carousel")
    quad = sc.tile(art, box, radius)
    stacked = None
    if app in ("banking", "generic_wallet") and not panel_code and not partial and pass_rng is not None and pass_rng.random() < 0.3:
        stacked = stack_below(sc, rng, box, radius, bottom, make_other, others, effects)
    if app == "apple_wallet":
        # The other passes: stacked below the card (their tops showing), or at the bottom of the
        # screen running off its edge.
        n = rng.randint(1, 4)
        step = p(rng.uniform(14, 56))
        if rng.random() < 0.5:
            sy = y + card_h + p(rng.uniform(10, 24))
        else:
            sy = max(y + card_h + p(10), sc.H - bottom - n * step - p(rng.uniform(10, 40)))
        for i in range(n):
            nb = (x0, sy + i * step, x0 + card_w, sy + i * step + card_h)
            if nb[1] < sc.H - bottom:
                others.append(other_card(sc, rng, nb, radius, make_other))
        effects.append("stack")
    k = card_w / art.size[0]
    lines, code = map_art_gt(gt, lambda pts: [[x0 + px * k, y + py * k] for px, py in pts])
    below = y + card_h + p(rng.uniform(14, 40)) + (shadow["dy"] if shadow else 0)
    if stacked is not None:
        below = stacked
    pr = int(rng.choice([0, 8, 12, 16, 24]) * sc.s)
    panel_box = None
    if panel_code or (app in ("stocard", "google_wallet", "catima") and rng.random() < 0.5):
        ph = p(rng.uniform(120, 220)) if not panel_code or panel_code["symbology"] != "qr" else p(rng.uniform(200, 280))
        pw = card_w if rng.random() < 0.7 else sc.W - 2 * p(rng.choice([0, 8, 16]))
        px0 = (sc.W - pw) // 2
        panel_box = (px0, int(below), px0 + pw, int(below + ph))
        if panel_box[3] < sc.H - bottom:
            if rng.random() < 0.6 and not dark:
                sc.shadow(panel_box, pr, rng)
            cb = sc.code_panel(panel_box, panel_code, rng, pr)
            if panel_code and cb:
                code = dict(panel_code, box=cb, location="panel")
            effects.append("code_panel" if panel_code else "white_panel")
            below = panel_box[3] + p(16)
        else:
            panel_box = None
    # Detail rows below.
    d = ImageDraw.Draw(sc.img)
    ry = below + p(10)
    # content["detail_rows"] (cards.py --detail-rows): a longer list of closer rows, as a card's
    # details or a bank's transactions; without it the renders are as before.
    many = content.get("detail_rows")
    pitch = p(rng.uniform(34, 62)) if many else p(62)
    box_h = pitch - p(10) if many else p(52)
    for i in range(0 if app == "apple_wallet" else rng.randint(*(many or (2, 6)))):
        if ry + (box_h + p(4) if many else p(56)) > sc.H - bottom:
            break
        if rng.random() < 0.5:
            d.rounded_rectangle((p(12), ry, sc.W - p(12), ry + box_h), radius=p(10), fill=sc.panel)
        mid = ry + box_h // 2 if many else ry + p(26)
        if app == "banking":
            dot = (mid - p(16), mid + p(16)) if many else (ry + p(10), ry + p(42))
            d.ellipse((p(24), dot[0], p(56), dot[1]), fill=A.random_colour(rng))
        label = rng.choice(words[3:] + [content["programme"] or words[0]])
        sc.text((p(68 if app == "banking" else 28), mid), label, 15, anchor="lm")
        sc.text((sc.W - p(28), mid), "%d%s%02d" % (rng.randint(1, 2000), "," if rng.random() < 0.5 else ".", rng.randint(0, 99)), 15, colour=sc.muted, anchor="rm")
        ry += pitch
    img = sc.img
    colors = gt["colors"]
    return img, {"quad": r1(quad), "name_lines": lines, "barcode": code, "effects": effects, "others": others,
                 "corner_radius_px": radius, "shadow": shadow, "panel_box": list(panel_box) if panel_box else None,
                 "main_partial": partial, "screen": {"width": sc.W, "height": sc.H, "scale": sc.s, "dark": dark, "platform": platform},
                 "_gt": gt}


def render_pass(rng, nrng, sc, content, fams, top, bottom, effects, panel_code):
    """An Apple-Wallet-style store card pass: no ID-1 rectangle; the logo text is the name."""
    p = sc.p
    margin = p(rng.choice([8, 12, 16]))
    x0, x1 = margin, sc.W - margin
    y0 = top + p(rng.uniform(40, 70))
    y1 = min(sc.H - bottom - p(10), y0 + (x1 - x0) * rng.uniform(1.15, 1.45))
    base = content["colours"][0]
    radius = p(rng.choice([10, 12, 14]))
    sc.shadow((x0, y0, x1, y1), radius, rng, effects=effects)
    ImageDraw.Draw(sc.img).rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=base)
    fam, entry = A.pick_name_font(rng, fams, content["name"], want_bold=True)
    if entry is None:
        return None, None
    fg = A.text_colour_for(base, rng)
    head_h = p(52)
    lx0 = x0 + p(14)
    if content["logo"]:
        A.draw_logo(sc.img, content["logo"], (lx0, y0 + p(10), lx0 + p(32), y0 + p(42)), fg, base, content["name"][0], entry)
        lx0 += p(42)
    lines = [] if content.get("hide_name") else A.draw_lines(sc.img, [content["name"]], entry, (lx0, y0 + p(10), x0 + (x1 - x0) * 0.62, y0 + head_h - p(6)), fg, valign="center")
    words = lx.APP_WORDS[content["lang"]]
    sc.text((x1 - p(14), y0 + p(14)), words[5].upper(), 10, colour=fg, anchor="ra")
    sc.text((x1 - p(14), y0 + p(28)), str(rng.randint(0, 9999)), 18, colour=fg, anchor="ra")
    # Strip image.
    sy0, sy1 = y0 + head_h, y0 + head_h + (x1 - x0) * 0.33
    strip = A.Canvas(x1 - x0, int(sy1 - sy0))
    A.paint_background(strip, rng, nrng, A.random_colour(rng), base, rng.choice(["gradient", "pattern", "texture"]))
    sc.img.paste(strip.img, (x0, int(sy0)))
    fy = sy1 + p(12)
    for label, value in ((content["holder"] and words[3], content["holder"]), (content["number_label"], content["member_number"])):
        if label and value:
            sc.text((x0 + p(16), fy), label.upper(), 10, colour=fg)
            sc.text((x0 + p(16), fy + p(14)), value, 16, colour=fg)
            fy += p(44)
    code = None
    barcode = panel_code or content["barcode"]
    if barcode:
        sym = barcode["symbology"]
        ph = p(150) if sym == "qr" else p(90)
        pw = p(150) if sym == "qr" else (x1 - x0) * 0.8
        cx = (x0 + x1) / 2
        pb = (cx - pw / 2, y1 - ph - p(24), cx + pw / 2, y1 - p(24))
        if pb[1] > fy:
            cb = sc.code_panel(pb, barcode, rng, p(6))
            if cb:
                code = dict(barcode, box=cb, location="pass")
    effects.append("pass")
    return sc.img, pass_truth(sc, (x0, y0, x1, y1), radius, lines, code, effects, content, fam, entry, fg, base)


def pass_truth(sc, box, radius, lines, code, effects, content, fam, entry, fg, base):
    """The ground truth of a pass: no ID-1 rectangle, the whole pass in `pass_box`."""
    x0, y0, x1, y1 = box
    colors = [{"hex": A.hexc(base), "share": 1.0, "role": "pass"}]
    return {"quad": None, "pass_box": [x0, round(y0, 1), x1, round(y1, 1)],
            "name_lines": [{"text": l["text"], "box": [round(v, 1) for v in l["box"]], "poly": r1(box_poly(l["box"])), "card_box": None} for l in lines],
            "barcode": code, "effects": effects, "others": [], "corner_radius_px": radius, "shadow": None,
            "panel_box": None, "main_partial": False,
            "screen": {"width": sc.W, "height": sc.H, "scale": sc.s, "dark": sc.dark, "platform": sc.platform},
            "_gt": {"name": "" if content.get("hide_name") else content["name"], "font_family": fam, "font_file": entry["path"].rsplit("/", 1)[-1],
                    "font_category": fontlib.category(fam), "layout_family": "pass", "polarity":
                    "light_on_dark" if A.luminance(fg) > A.luminance(base) else "dark_on_light", "colors": colors,
                    "name_colour": A.hexc(fg), "effects": []}}


def pass_band(rng, sc, span, y, base, share, effects):
    """An image band across a pass over `span` (x0, x1) from `y`, `share` (low, high) of its width
    tall, in a colour drawn at random; returns where the pass goes on under it."""
    x0, x1 = span
    bh = int((x1 - x0) * rng.uniform(*share))
    band = A.Canvas(int(x1 - x0), bh)
    A.paint_background(band, rng, np.random.default_rng(rng.getrandbits(63)), A.random_colour(rng), base, rng.choice(["gradient", "pattern", "texture"]))
    sc.img.paste(band.img, (int(x0), int(y)))
    effects.append("pass_band")
    return y + bh + sc.p(rng.uniform(8, 16))


def pass_code(rng, sc, barcode, span, foot, fy, side, width, gaps):
    """The white code area at a pass's foot, over `span` (x0, x1) and above `foot`, below `fy`: a QR
    code's square `side` of the pass's width, a linear code's `width` of it, 80-110 pt tall; `gaps`
    draws its distances from the foot (top, bottom). The truth's barcode, or None."""
    if not barcode:
        return None
    x0, x1 = span
    qr = barcode["symbology"] == "qr"
    square = (x1 - x0) * rng.uniform(*side)
    pw = square if qr else (x1 - x0) * rng.uniform(*width)
    ph = square if qr else sc.p(rng.uniform(80, 110))
    cx = (x0 + x1) / 2
    top, bottom = gaps()
    pb = (cx - pw / 2, foot - ph - top, cx + pw / 2, foot - bottom)
    if pb[1] > fy and pb[3] > pb[1] + sc.p(40):
        cb = sc.code_panel(pb, barcode, rng, sc.p(rng.choice([4, 8, 12])))
        if cb:
            return dict(barcode, box=cb, location="pass")
    return None


def render_generic_pass(rng, sc, content, fams, top, bottom, effects, panel_code):
    """A Google-Wallet-style generic pass (a train family's own pass style, unlike the held-out
    Apple-Wallet one): a rounded pass in the brand colour, a logo and issuer row, the title, rows of
    fields, a white code area, sometimes a hero image at the foot; no ID-1 rectangle in it."""
    p, d = sc.p, ImageDraw.Draw(sc.img)
    words = lx.APP_WORDS[content["lang"]]
    # The app's bar above the pass: a back arrow and sometimes the screen's title.
    bar = p(rng.uniform(44, 64))
    d.line((p(16), top + bar // 2, p(34), top + bar // 2), fill=sc.fg, width=max(1, p(2)))
    if rng.random() < 0.5:
        sc.text((p(56), top + bar // 2), rng.choice(words[:2]), 18, anchor="lm")
    margin = p(rng.uniform(8, 28))
    x0, x1 = margin, sc.W - margin
    y0 = top + bar + p(rng.uniform(4, 24))
    y1 = min(sc.H - bottom - p(rng.uniform(6, 40)), y0 + (x1 - x0) * rng.uniform(1.0, 1.75))
    base = content["colours"][0] if rng.random() < 0.8 else A.random_colour(rng)
    radius = p(rng.uniform(6, 28))
    if rng.random() < 0.5:
        sc.shadow((x0, y0, x1, y1), radius, rng, effects=effects)
    d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=base)
    if rng.random() < 0.2:
        # A vertical gradient to a darker or lighter shade of the brand colour.
        shade = tuple(int(max(0, min(255, c * rng.uniform(0.7, 1.3)))) for c in base)
        ramp = Image.linear_gradient("L").resize((int(x1 - x0), int(y1 - y0)))
        fill = Image.composite(Image.new("RGB", ramp.size, shade), Image.new("RGB", ramp.size, base), ramp)
        sc.img.paste(fill, (int(x0), int(y0)), rounded_mask(ramp.size, radius))
        effects.append("pass_gradient")
    fam, entry = A.pick_name_font(rng, fams, content["name"], want_bold=rng.random() < 0.7)
    if entry is None:
        return None, None
    fg = A.text_colour_for(base, rng)
    pad = p(rng.uniform(14, 24))
    # Logo (a circle) and the issuer's or programme's small name.
    lr = p(rng.uniform(12, 20))
    cy = y0 + pad + lr
    d.ellipse((x0 + pad, cy - lr, x0 + pad + 2 * lr, cy + lr), fill=A.random_colour(rng) if rng.random() < 0.5 else (255, 255, 255))
    small = content["programme"] or words[1]
    sc.text((x0 + pad + 2 * lr + p(10), cy), small[:28], rng.choice([12, 14, 16]), colour=fg, anchor="lm")
    ty = cy + lr + p(rng.uniform(10, 24))
    if rng.random() < 0.25:
        # An image band across the pass under its logo row (as Apple's strip): its colour, drawn
        # at random, may meet the screen in the screen's own colour at the pass's sides.
        ty = pass_band(rng, sc, (x0, x1), ty, base, (0.22, 0.33), effects)
    if rng.random() < 0.4:
        d.line((x0, ty - p(6), x1, ty - p(6)), fill=A.text_colour_for(base, rng), width=max(1, p(1)))
    th = p(rng.uniform(24, 40))
    lines = [] if content.get("hide_name") else A.draw_lines(sc.img, [content["name"]], entry, (x0 + pad, ty, x1 - pad, ty + th), fg)
    fy = ty + th + p(rng.uniform(12, 24))
    fields = [(content["number_label"], content["member_number"]), (content["holder"] and words[3], content["holder"]), (words[5], str(rng.randint(0, 9999)))]
    for label, value in rng.sample(fields, rng.randint(1, 3)):
        if label and value and fy + p(40) < y1:
            sc.text((x0 + pad, fy), label, 11, colour=fg)
            sc.text((x0 + pad, fy + p(15)), value, rng.choice([14, 16, 18]), colour=fg)
            fy += p(rng.uniform(40, 52))
    foot = y1
    if rng.random() < 0.3:
        # A hero image along the pass's foot, inside its rounded corners.
        hh = int((x1 - x0) * rng.uniform(0.2, 0.33))
        hero = A.Canvas(int(x1 - x0), hh)
        A.paint_background(hero, rng, np.random.default_rng(rng.getrandbits(63)), A.random_colour(rng), base, rng.choice(["gradient", "pattern", "texture"]))
        mask = Image.new("L", hero.img.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, -radius - 2, hero.img.width - 1, hh - 1), radius=radius, fill=255)
        sc.img.paste(hero.img, (int(x0), int(y1) - hh), mask)
        foot = y1 - hh
        effects.append("hero")
    code = pass_code(rng, sc, panel_code or content["barcode"], (x0, x1), foot, fy, (0.45, 0.6), (0.7, 0.88),
                     lambda: (p(rng.uniform(14, 30)), p(rng.uniform(14, 30))))
    effects += ["pass", "generic_pass"]
    return sc.img, pass_truth(sc, (x0, y0, x1, y1), radius, lines, code, effects, content, fam, entry, fg, base)


def render_header_pass(rng, sc, content, fams, top, bottom, effects, panel_code):
    """A pass whose name is its header (a train families' stand-in for the held-out Apple layout,
    drawn differently): a rounded pass, a logo (circle, square or the brand's mark) with the name
    beside it or centred under it, small enough to be the header's and not a title; sometimes a
    label and value at the header's right, an image band, rows of fields, a code area at the foot."""
    p, d = sc.p, ImageDraw.Draw(sc.img)
    words = lx.APP_WORDS[content["lang"]]
    margin = p(rng.uniform(6, 24))
    x0, x1 = margin, sc.W - margin
    y0 = top + p(rng.uniform(12, 80))
    y1 = min(sc.H - bottom - p(rng.uniform(6, 40)), y0 + (x1 - x0) * rng.uniform(1.05, 1.6))
    pale = rng.random() < 0.2
    base = (255, 255, 255) if pale and not sc.dark else (content["colours"][0] if rng.random() < 0.75 else A.random_colour(rng))
    radius = p(rng.uniform(4, 20))
    if rng.random() < 0.6:
        sc.shadow((x0, y0, x1, y1), radius, rng, effects=effects)
    d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=base, outline=sc.muted if pale else None)
    fam, entry = A.pick_name_font(rng, fams, content["name"], want_bold=rng.random() < 0.6)
    if entry is None:
        return None, None
    fg = A.text_colour_for(base, rng, content["colours"][1:])
    pad = p(rng.uniform(10, 20))
    ls = p(rng.uniform(24, 44))
    centred = rng.random() < 0.25
    lx0 = (x0 + x1 - ls) / 2 if centred else x0 + pad
    logo_box = (lx0, y0 + pad, lx0 + ls, y0 + pad + ls)
    kind = content["logo"] or rng.choice(["circle_initial", "square_initial"])
    A.draw_logo(sc.img, kind, logo_box, A.text_colour_for(base, rng), base, content["name"][0], entry)
    nh = p(rng.uniform(16, 30))
    if centred:
        box = (x0 + pad, logo_box[3] + p(6), x1 - pad, logo_box[3] + p(6) + nh)
        head = box[3]
    else:
        cy = (logo_box[1] + logo_box[3]) / 2
        box = (logo_box[2] + p(rng.uniform(6, 14)), cy - nh / 2, x0 + (x1 - x0) * rng.uniform(0.55, 0.8), cy + nh / 2)
        head = logo_box[3]
        if rng.random() < 0.6:
            sc.text((x1 - pad, y0 + pad), words[rng.choice([5, 6])].upper(), 10, colour=fg, anchor="ra")
            sc.text((x1 - pad, y0 + pad + p(14)), str(rng.randint(0, 9999)), rng.choice([14, 18]), colour=fg, anchor="ra")
    lines = [] if content.get("hide_name") else A.draw_lines(sc.img, [content["name"]], entry, box, fg, align="center" if centred else "left", valign="center")
    fy = head + p(rng.uniform(10, 20))
    if rng.random() < 0.5:
        fy = pass_band(rng, sc, (x0, x1), fy, base, (0.25, 0.4), effects)
    fields = [(content["number_label"], content["member_number"]), (content["holder"] and words[3], content["holder"]),
              (words[5], str(rng.randint(0, 9999))), (content["programme"] and words[1], content["programme"])]
    for label, value in rng.sample(fields, rng.randint(1, 3)):
        if label and value and fy + p(40) < y1:
            sc.text((x0 + pad, fy), label.upper() if rng.random() < 0.5 else label, 10, colour=fg)
            sc.text((x0 + pad, fy + p(14)), value[:30], rng.choice([14, 16, 20]), colour=fg)
            fy += p(rng.uniform(38, 50))
    code = pass_code(rng, sc, panel_code or content["barcode"], (x0, x1), y1, fy, (0.4, 0.55), (0.7, 0.9),
                     lambda: (lambda gap: (gap, gap))(p(rng.uniform(12, 30))))
    effects += ["pass", "header_pass"]
    return sc.img, pass_truth(sc, (x0, y0, x1, y1), radius, lines, code, effects, content, fam, entry, fg, base)
