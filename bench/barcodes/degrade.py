#!/usr/bin/env python3
"""Degraded copies of training images, for counting false codes (issue #26 item 1).

    degrade.py --out DIR [--barcodes] [--gen GEN_DIR ...] [--per-gen N] [--seed S]

Sources, training data only:
  --barcodes   the training folders of ../shared/data/barcodes (split.json "train"), every
               variant of every image;
  --gen DIR    cards rendered by bench/gen/cards.py --split train, N random variants each.
The barcode-dataset originals are linked as variant "original". Variants: blur (Gaussian), jpeg (quality 40-60), lowres (reduced to 35-60 %), perspective
(corners moved 6-14 % of the side), cut (the image cropped through the code, 15-50 % of the
code's extent lost at one edge), occlude (a patch over 15-40 % of the code's length), and combo
(blur, reduction and JPEG together). A cut or occluded code may be unreadable: reading nothing
is right, reading another value is a false code.

Writes DIR/<variant>/<source>__<name>.(png|jpg) with a .json beside it in bench/gen's truth form
({"barcode": {"symbology", "value"[, "bytes_b64"]} or null, "others": [...]}) plus "source",
"variant". The same arguments give the same files. Never commit the output (it copies data).
"""
import argparse
import base64
import hashlib
import io
import json
import os
import random
import sys

import numpy as np
from PIL import Image, ImageFilter, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("BARCODE_DATA", os.path.join(HERE, "../../../shared/data/barcodes"))
VARIANTS = ["blur", "jpeg", "lowres", "perspective", "cut", "occlude", "combo"]
FOLDER_SYMBOLOGY = {
    "aztec": "aztec", "code128": "code128", "code39": "code39", "datamatrix": "datamatrix",
    "ean13": "ean13", "itf": "i25", "pdf417": "pdf417", "qrcode": "qr", "upca": "upca", "upce": "upce",
}


def rng_for(seed, name, variant):
    digest = hashlib.sha256(f"{seed}:{name}:{variant}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def locate(img):
    """The code's bounding box on a barcode-dataset image: zxing-cpp's wheel, else the middle."""
    try:
        import zxingcpp
        found = zxingcpp.read_barcodes(img.convert("L"))
    except Exception:
        found = []
    if found:
        p = found[0].position
        xs = [p.top_left.x, p.top_right.x, p.bottom_right.x, p.bottom_left.x]
        ys = [p.top_left.y, p.top_right.y, p.bottom_right.y, p.bottom_left.y]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        if x1 - x0 > 4 and y1 - y0 > 4:
            return [x0, y0, x1, y1]
        # A linear code's position is its scan line: widen it across.
        return [x0, 0, x1, img.height] if x1 - x0 >= y1 - y0 else [0, y0, img.width, y1]
    w, h = img.size
    return [0.2 * w, 0.2 * h, 0.8 * w, 0.8 * h]


def blur(img, rng, box):
    sigma = rng.uniform(0.8, 2.0) * max(1.0, max(img.size) / 800)
    return img.filter(ImageFilter.GaussianBlur(sigma)), "sigma=%.2f" % sigma


def jpeg(img, rng, box):
    quality = rng.randint(40, 60)
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=quality)
    out = Image.open(io.BytesIO(buf.getvalue()))
    out.load()
    out.info["jpeg_bytes"] = buf.getvalue()
    return out, "q=%d" % quality


def lowres(img, rng, box):
    f = rng.uniform(0.35, 0.6)
    size = (max(1, round(img.width * f)), max(1, round(img.height * f)))
    return img.resize(size, Image.BILINEAR), "f=%.2f" % f


def perspective(img, rng, box):
    w, h = img.size
    a = rng.uniform(0.06, 0.14)
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(x + rng.uniform(-a, a) * w, y + rng.uniform(-a, a) * h) for x, y in src]
    coeffs = find_coeffs(dst, src)
    fill = tuple(int(v) for v in np.asarray(img.convert("RGB")).reshape(-1, 3).mean(0))
    out = img.convert("RGB").transform((w, h), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=fill)
    return out, "a=%.2f" % a


def find_coeffs(target, source):
    """PIL's perspective coefficients mapping output pixels (target quad) to input ones (source)."""
    rows = []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    a = np.array(rows, dtype=float)
    b = np.array([c for p in source for c in p], dtype=float)
    return np.linalg.solve(a, b).tolist()


def cut(img, rng, box):
    x0, y0, x1, y1 = box
    # Mostly across the bars of a linear code (its long axis), where a partial scan can still
    # look like a whole code.
    along = ["left", "right"] if (x1 - x0) >= (y1 - y0) else ["top", "bottom"]
    side = rng.choice(along) if rng.random() < 0.75 else rng.choice(["left", "right", "top", "bottom"])
    lost = rng.uniform(0.15, 0.5)
    w, h = img.size
    if side == "left":
        crop = (int(x0 + lost * (x1 - x0)), 0, w, h)
    elif side == "right":
        crop = (0, 0, int(x1 - lost * (x1 - x0)), h)
    elif side == "top":
        crop = (0, int(y0 + lost * (y1 - y0)), w, h)
    else:
        crop = (0, 0, w, int(y1 - lost * (y1 - y0)))
    if crop[2] - crop[0] < 8 or crop[3] - crop[1] < 8:
        return None, ""
    return img.crop(crop), "%s lost=%.2f" % (side, lost)


def occlude(img, rng, box):
    x0, y0, x1, y1 = box
    out = img.convert("RGB").copy()
    along_x = (x1 - x0) >= (y1 - y0)
    share = rng.uniform(0.15, 0.4)
    start = rng.choice([0.0, rng.uniform(0.2, 0.6), 1.0 - share])
    colour = tuple(rng.randint(0, 255) for _ in range(3))
    patch = Image.new("RGB", (1, 1), colour)
    if along_x:
        a, b = x0 + start * (x1 - x0), x0 + (start + share) * (x1 - x0)
        rect = (int(a), int(y0 - 2), int(b) + 1, int(y1 + 2))
    else:
        a, b = y0 + start * (y1 - y0), y0 + (start + share) * (y1 - y0)
        rect = (int(x0 - 2), int(a), int(x1 + 2), int(b) + 1)
    rect = (max(0, rect[0]), max(0, rect[1]), min(out.width, rect[2]), min(out.height, rect[3]))
    if rect[2] <= rect[0] or rect[3] <= rect[1]:
        return None, ""
    out.paste(patch.resize((rect[2] - rect[0], rect[3] - rect[1])), rect[:2])
    return out, "start=%.2f share=%.2f" % (start, share)


def combo(img, rng, box):
    img, a = blur(img, rng, box)
    img, b = lowres(img, rng, box)
    img, c = jpeg(img, rng, box)
    return img, " ".join([a, b, c])


MAKERS = {"blur": blur, "jpeg": jpeg, "lowres": lowres, "perspective": perspective, "cut": cut,
          "occlude": occlude, "combo": combo}


def scaled_box(box, before, after):
    fx, fy = after[0] / before[0], after[1] / before[1]
    return [box[0] * fx, box[1] * fy, box[2] * fx, box[3] * fy]


def write(out_dir, variant, name, img, truth, seed):
    folder = os.path.join(out_dir, variant)
    os.makedirs(folder, exist_ok=True)
    ext = "jpg" if variant in ("jpeg", "combo") else "png"
    path = os.path.join(folder, name + "." + ext)
    if ext == "jpg":
        with open(path, "wb") as f:
            f.write(img.info["jpeg_bytes"])
    else:
        img.save(path, "PNG", compress_level=3)
    truth = dict(truth, file=os.path.basename(path), variant=variant, seed=seed)
    with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1)


def link(out_dir, name, path, truth):
    """The undegraded training image itself, linked (never copied) beside its truth."""
    folder = os.path.join(out_dir, "original")
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, name + os.path.splitext(path)[1])
    if not os.path.lexists(target):
        os.symlink(os.path.abspath(path), target)
    with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(dict(truth, file=os.path.basename(target), variant="original"), f, ensure_ascii=False, indent=1)


def barcode_sources():
    with open(os.path.join(HERE, "split.json"), encoding="utf-8") as f:
        train = json.load(f)["train"]
    for folder in train:
        for entry in sorted(os.listdir(os.path.join(DATA, folder))):
            stem, ext = os.path.splitext(entry)
            if ext.lower() not in (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif"):
                continue
            base = os.path.join(DATA, folder, stem)
            sym = FOLDER_SYMBOLOGY[folder.rsplit("-", 1)[0]]
            if os.path.exists(base + ".txt"):
                code = {"symbology": sym, "value": open(base + ".txt", encoding="utf-8", newline="").read()}
            else:
                raw = open(base + ".bin", "rb").read()
                code = {"symbology": sym, "value": None, "bytes_b64": base64.b64encode(raw).decode()}
            yield f"{folder}__{stem}", os.path.join(DATA, folder, entry), code, [], None


def gen_sources(folder):
    for entry in sorted(os.listdir(folder)):
        if not entry.endswith(".json"):
            continue
        with open(os.path.join(folder, entry), encoding="utf-8") as f:
            t = json.load(f)
        code = t.get("barcode")
        box = code.get("box") if code else None
        code = {"symbology": code["symbology"], "value": code["value"]} if code else None
        others = [{"barcode": o["barcode"]} for o in t.get("others") or [] if isinstance(o, dict) and o.get("barcode")]
        name = f"gen{t['seed']}__{os.path.splitext(t['file'])[0]}"
        yield name, os.path.join(folder, t["file"]), code, others, box


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--barcodes", action="store_true")
    ap.add_argument("--gen", action="append", default=[])
    ap.add_argument("--per-gen", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2626)
    args = ap.parse_args()
    jobs = []
    if args.barcodes:
        jobs += [(s, ["original"] + VARIANTS) for s in barcode_sources()]
    for folder in args.gen:
        for s in gen_sources(folder):
            jobs.append((s, rng_for(args.seed, s[0], "pick").sample(VARIANTS, args.per_gen)))
    made = 0
    for (name, path, code, others, box), variants in jobs:
        img = ImageOps.exif_transpose(Image.open(path))
        img = img.convert("RGB") if img.mode not in ("RGB", "L") else img
        if box is None:
            box = locate(img)
        if "original" in variants:
            link(args.out, name, path, {"barcode": code, "others": others, "source": path, "dataset": "original"})
        for variant in variants:
            if variant == "original":
                continue
            if variant in ("cut", "occlude") and code is None:
                continue
            out, how = MAKERS[variant](img, rng_for(args.seed, name, variant), box)
            if out is None:
                continue
            truth = {"barcode": code, "others": others, "source": path, "degradation": how, "dataset": "degraded"}
            write(args.out, variant, name, out, truth, args.seed)
            made += 1
    print(f"degrade.py: {made} images in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
