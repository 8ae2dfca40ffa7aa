"""Cheap image preparations tried on missed files. Each takes a grey uint8 array (and the sample's
locator quad where it needs one) and returns a grey uint8 array, or None when it does not apply."""
import math
import cv2
import numpy as np


def _odd(n):
    n = int(n)
    return n if n % 2 else n + 1


def resize(g, f, interp):
    h, w = g.shape
    return cv2.resize(g, (max(1, round(w * f)), max(1, round(h * f))), interpolation=interp)


def otsu(g):
    return cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def adaptive(g):
    block = _odd(max(15, min(g.shape) // 12))
    return cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, block, 5)


def sauvola(g, k=0.2, r=128.0):
    win = _odd(max(15, min(g.shape) // 12))
    f = g.astype(np.float64)
    mean = cv2.boxFilter(f, -1, (win, win), borderType=cv2.BORDER_REPLICATE)
    sq = cv2.boxFilter(f * f, -1, (win, win), borderType=cv2.BORDER_REPLICATE)
    std = np.sqrt(np.maximum(sq - mean * mean, 0))
    t = mean * (1 + k * (std / r - 1))
    return np.where(f > t, 255, 0).astype(np.uint8)


def sharpen(g, amount=1.5, sigma=1.0):
    blur = cv2.GaussianBlur(g, (0, 0), sigma)
    return cv2.addWeighted(g, 1 + amount, blur, -amount, 0)


def clahe(g):
    return cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(g)


def stretch(g, gamma):
    lo, hi = np.percentile(g, [2, 98])
    if hi <= lo:
        return g
    x = np.clip((g.astype(np.float64) - lo) / (hi - lo), 0, 1) ** gamma
    return (x * 255).astype(np.uint8)


def rotate(g, deg):
    h, w = g.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(g, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=255)


def squeeze(g, sx, sy):
    h, w = g.shape
    return cv2.resize(g, (max(1, round(w * sx)), max(1, round(h * sy))), interpolation=cv2.INTER_AREA)


def crop(g, quad, margin=0.25, min_margin=12):
    if not quad:
        return None
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    m = max(min_margin, margin * max(max(xs) - min(xs), max(ys) - min(ys)))
    h, w = g.shape
    x0, x1 = max(0, int(min(xs) - m)), min(w, int(max(xs) + m) + 1)
    y0, y1 = max(0, int(min(ys) - m)), min(h, int(max(ys) + m) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return np.ascontiguousarray(g[y0:y1, x0:x1])


def rectify(g, quad, modules, px_per_module=4, quiet=4):
    """Perspective-warps a 2-D code's quad (TL, TR, BR, BL) to an upright square with a quiet zone."""
    if not quad or not modules:
        return None
    side = modules * px_per_module
    q = quiet * px_per_module
    src = np.float32(quad)
    dst = np.float32([[q, q], [q + side, q], [q + side, q + side], [q, q + side]])
    m = cv2.getPerspectiveTransform(src, dst)
    size = side + 2 * q
    # module edges sampled by area when shrinking, bilinearly when enlarging
    return cv2.warpPerspective(g, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def blur_edge_width(g):
    """Edge width in pixels: contrast (p95 - p5) over the 99th-percentile Sobel gradient. ≈1 for a crisp
    edge, grows with defocus / motion blur. Compare it with the module size."""
    gf = g.astype(np.float32)
    gx = cv2.Sobel(gf, cv2.CV_32F, 1, 0, ksize=3) / 4
    gy = cv2.Sobel(gf, cv2.CV_32F, 0, 1, ksize=3) / 4
    mag = np.hypot(gx, gy)
    p5, p95 = np.percentile(g, [5, 95])
    top = np.percentile(mag, 99)
    return float((p95 - p5) / top) if top > 0 else float("inf"), float(p95 - p5)


# name -> (function(g, ctx) -> image or None, needs a locator)
# ctx: {"quad": the code's quad from a detector (or None), "modules": modules across (2-D) or None}
PREPS = {
    "plain": lambda g, c: g,
    "invert": lambda g, c: 255 - g,
    "up2_nearest": lambda g, c: resize(g, 2, cv2.INTER_NEAREST),
    "up2_linear": lambda g, c: resize(g, 2, cv2.INTER_LINEAR),
    "up2_cubic": lambda g, c: resize(g, 2, cv2.INTER_CUBIC),
    "up3_cubic": lambda g, c: resize(g, 3, cv2.INTER_CUBIC),
    "up3_nearest": lambda g, c: resize(g, 3, cv2.INTER_NEAREST),
    "up1.5_cubic": lambda g, c: resize(g, 1.5, cv2.INTER_CUBIC),
    "down0.75_area": lambda g, c: resize(g, 0.75, cv2.INTER_AREA),
    "down0.5_area": lambda g, c: resize(g, 0.5, cv2.INTER_AREA),
    "otsu": lambda g, c: otsu(g),
    "adaptive": lambda g, c: adaptive(g),
    "sauvola": lambda g, c: sauvola(g),
    "sharpen": lambda g, c: sharpen(g),
    "clahe": lambda g, c: clahe(g),
    "gamma2": lambda g, c: stretch(g, 2.0),
    "gamma0.5": lambda g, c: stretch(g, 0.5),
    "median3": lambda g, c: cv2.medianBlur(g, 3),
    "gauss1": lambda g, c: cv2.GaussianBlur(g, (0, 0), 1.0),
    "erode3": lambda g, c: cv2.erode(g, np.ones((3, 3), np.uint8)),
    "dilate3": lambda g, c: cv2.dilate(g, np.ones((3, 3), np.uint8)),
    "rot90": lambda g, c: np.ascontiguousarray(np.rot90(g)),
    "rot45": lambda g, c: rotate(g, 45),
    "rot-10": lambda g, c: rotate(g, -10),
    "rot10": lambda g, c: rotate(g, 10),
    "rot-20": lambda g, c: rotate(g, -20),
    "rot20": lambda g, c: rotate(g, 20),
    "squeeze_x0.7": lambda g, c: squeeze(g, 0.7, 1),
    "squeeze_y0.7": lambda g, c: squeeze(g, 1, 0.7),
    "up2_cubic+sharpen": lambda g, c: sharpen(resize(g, 2, cv2.INTER_CUBIC)),
    "up2_cubic+otsu": lambda g, c: otsu(resize(g, 2, cv2.INTER_CUBIC)),
    "up2_cubic+sauvola": lambda g, c: sauvola(resize(g, 2, cv2.INTER_CUBIC)),
    "down0.5+otsu": lambda g, c: otsu(resize(g, 0.5, cv2.INTER_AREA)),
    # these need a locator quad (see analyse_misses.py: which detector supplied it)
    "crop": lambda g, c: crop(g, c["quad"]),
    "crop+up2_cubic": lambda g, c: (lambda x: None if x is None else resize(x, 2, cv2.INTER_CUBIC))(crop(g, c["quad"])),
    "crop+up3_cubic": lambda g, c: (lambda x: None if x is None else resize(x, 3, cv2.INTER_CUBIC))(crop(g, c["quad"])),
    "crop+sauvola": lambda g, c: (lambda x: None if x is None else sauvola(x))(crop(g, c["quad"])),
    "crop+otsu": lambda g, c: (lambda x: None if x is None else otsu(x))(crop(g, c["quad"])),
    "rectify4": lambda g, c: rectify(g, c["quad"], c["modules"], 4),
    "rectify6": lambda g, c: rectify(g, c["quad"], c["modules"], 6),
    "rectify4+otsu": lambda g, c: (lambda x: None if x is None else otsu(x))(rectify(g, c["quad"], c["modules"], 4)),
    "rectify4+sauvola": lambda g, c: (lambda x: None if x is None else sauvola(x))(rectify(g, c["quad"], c["modules"], 4)),
}
NEEDS_LOCATOR = {k for k in PREPS if k.startswith(("crop", "rectify"))}


def find_regions(g, max_regions=2):
    """A locator the product could have without a decoder: high-gradient blobs (bars and modules).
    Sobel magnitude on a copy of at most 640 px a side, box-blurred, Otsu threshold, closed and opened,
    the largest components' rotated rectangles as quads (TL, TR, BR, BL) in the image's pixels."""
    h, w = g.shape
    f = min(1.0, 640 / max(h, w))
    s = cv2.resize(g, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) if f < 1 else g
    gx = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.convertScaleAbs(np.hypot(gx, gy) / 4)
    mag = cv2.blur(mag, (9, 9))
    _, bw = cv2.threshold(mag, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bw = cv2.morphologyEx(bw, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    bw = cv2.morphologyEx(bw, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(bw, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contours = sorted(contours, key=cv2.contourArea, reverse=True)[:max_regions]
    quads = []
    for c in contours:
        if cv2.contourArea(c) < 200:
            continue
        box = cv2.boxPoints(cv2.minAreaRect(c)) / f
        # order TL, TR, BR, BL
        sm = box.sum(1); df = np.diff(box, axis=1).ravel()
        quads.append([tuple(box[np.argmin(sm)]), tuple(box[np.argmin(df)]), tuple(box[np.argmax(sm)]),
                      tuple(box[np.argmax(df)])])
    return quads


def deskew(g, quad, margin=0.15):
    """Rotates the rectangle of a (rotated-rectangle) quad upright, with a margin; no perspective."""
    if not quad:
        return None
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    wdt = math.dist((x0, y0), (x1, y1)); hgt = math.dist((x1, y1), (x2, y2))
    if wdt < 8 or hgt < 8:
        return None
    m = margin * max(wdt, hgt)
    src = np.float32([quad[0], quad[1], quad[2]])
    dst = np.float32([[m, m], [m + wdt, m], [m + wdt, m + hgt]])
    a = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(g, a, (int(wdt + 2 * m), int(hgt + 2 * m)), flags=cv2.INTER_LINEAR, borderValue=255)


def _auto(g, fn):
    outs = [fn(g, q) for q in find_regions(g)]
    return [o for o in outs if o is not None]


# preparations that give several candidate images (one per region found): each is decoded in turn
MULTI = {
    "auto_crop": lambda g, c: _auto(g, lambda g, q: crop(g, q, 0.15)),
    "auto_crop+up2_cubic": lambda g, c: _auto(g, lambda g, q: (lambda x: None if x is None else resize(x, 2, cv2.INTER_CUBIC))(crop(g, q, 0.15))),
    "auto_deskew": lambda g, c: _auto(g, deskew),
    "auto_deskew+up2_cubic": lambda g, c: _auto(g, lambda g, q: (lambda x: None if x is None else resize(x, 2, cv2.INTER_CUBIC))(deskew(g, q))),
}


def region_quads(g, max_regions=2):
    """Like find_regions, but each blob's outline approximated by 4 corners (perspective kept), when it
    has 4; otherwise its rotated rectangle."""
    h, w = g.shape
    f = min(1.0, 640 / max(h, w))
    s = cv2.resize(g, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) if f < 1 else g
    gx = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.blur(cv2.convertScaleAbs(np.hypot(gx, gy) / 4), (9, 9))
    _, bw = cv2.threshold(mag, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bw = cv2.morphologyEx(bw, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    bw = cv2.morphologyEx(bw, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(bw, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:max_regions]:
        if cv2.contourArea(c) < 200:
            continue
        hull = cv2.convexHull(c)
        peri = cv2.arcLength(hull, True)
        box = None
        for eps in (0.02, 0.04, 0.06, 0.08):
            a = cv2.approxPolyDP(hull, eps * peri, True)
            if len(a) == 4:
                box = a.reshape(4, 2).astype(np.float32)
                break
        if box is None:
            box = cv2.boxPoints(cv2.minAreaRect(c))
        box = box / f
        sm = box.sum(1); df = np.diff(box, axis=1).ravel()
        quads.append([tuple(box[np.argmin(sm)]), tuple(box[np.argmin(df)]), tuple(box[np.argmax(sm)]),
                      tuple(box[np.argmax(df)])])
    return quads


def rectify_region(g, quad, margin=0.12):
    """Perspective-warps a region's 4 corners to an upright rectangle of its mean side lengths, with a margin
    filled from the image's border (no module count needed)."""
    if not quad:
        return None
    s = [math.dist(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    wdt, hgt = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    if wdt < 8 or hgt < 8:
        return None
    m = margin * max(wdt, hgt)
    dst = np.float32([[m, m], [m + wdt, m], [m + wdt, m + hgt], [m, m + hgt]])
    M = cv2.getPerspectiveTransform(np.float32(quad), dst)
    return cv2.warpPerspective(g, M, (int(wdt + 2 * m), int(hgt + 2 * m)), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


MULTI.update({
    "auto_rectify": lambda g, c: [x for x in (rectify_region(g, q) for q in region_quads(g)) if x is not None],
    "auto_rectify+sharpen": lambda g, c: [sharpen(x) for x in (rectify_region(g, q) for q in region_quads(g)) if x is not None],
    "sharpen+auto_deskew": lambda g, c: _auto(sharpen(g), deskew),
})
