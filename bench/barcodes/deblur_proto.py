"""Prototype: do blurred card photos' linear codes come back after 1-D deconvolution along the scan
line? A dev tool for bench/barcodes/FINDINGS.md section 7f (training renders only).

For each photo of a bench/gen/cards.py render with a linear code, the card is warped flat from the
full-resolution photo with the truth quad (the stage's own quad has IoU >= 0.97 on every miss), the
code's surroundings are cut with its bars standing, and each row (smoothed over a few rows along
the bars) is deconvolved with a sweep of box and Gaussian kernels (Wiener).
Each copy is read by zxing-cpp 1.4 (the product's library, analysis/zx14.cpp) and zbar.

    python bench/barcodes/deblur_proto.py GEN_DIR [--only 00021,00068] [--scale S] [--json OUT]
    python bench/barcodes/deblur_proto.py GEN_DIR --qr [--only 00056,00085]
"""

import argparse, json, os, sys

import numpy as np
from PIL import Image, ImageOps

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "analysis"))
import common  # noqa: E402

# common.LIB follows ZX14_LIB (default /tmp/snapsort-bench/libzx14.so), built on first use.
LINEAR = {"ean13", "ean8", "upca", "code128", "code39"}
NSRS = (0.03, 0.003, 0.0003)
FMT = {"ean13": "EAN13", "ean8": "EAN8", "upca": "UPCA", "code128": "Code128", "code39": "Code39"}


def homography(src, dst):
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a, float))
    return (vt[-1] / vt[-1][-1]).reshape(3, 3)


def apply(h, pts):
    p = np.c_[np.asarray(pts, float), np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:]


def bilinear(img, xs, ys):
    h, w = img.shape
    xs = np.clip(xs, 0, w - 1.001)
    ys = np.clip(ys, 0, h - 1.001)
    x0, y0 = np.floor(xs).astype(int), np.floor(ys).astype(int)
    fx, fy = xs - x0, ys - y0
    return (img[y0, x0] * (1 - fx) * (1 - fy) + img[y0, x0 + 1] * fx * (1 - fy)
            + img[y0 + 1, x0] * (1 - fx) * fy + img[y0 + 1, x0 + 1] * fx * fy)


def code_cut(gray, truth, scale):
    """The code's surroundings on the flat card, bars standing, at `scale` x the photo's pixels."""
    quad = np.array(truth["quad"], float)
    top = np.linalg.norm(quad[1] - quad[0])
    cw, ch = top * scale, np.linalg.norm(quad[3] - quad[0]) * scale
    flat_to_photo = homography([(0, 0), (cw, 0), (cw, ch), (0, ch)], quad)
    photo_to_flat = np.linalg.inv(flat_to_photo)
    x0, y0, x1, y1 = truth["barcode"]["box"]
    corners = apply(photo_to_flat, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    cx, cy = corners.mean(0)
    # the box is axis-aligned in the photo: its mapped extent overstates the code's; a margin
    bx0, by0 = corners.min(0)
    bx1, by1 = corners.max(0)
    pad = 0.1 * max(bx1 - bx0, by1 - by0)
    bx0, by0, bx1, by1 = max(0, bx0 - pad), max(0, by0 - pad), min(cw, bx1 + pad), min(ch, by1 + pad)
    ys, xs = np.mgrid[int(by0):int(by1), int(bx0):int(bx1)]
    p = apply(flat_to_photo, np.c_[xs.ravel() + 0.5, ys.ravel() + 0.5])
    cut = bilinear(gray, p[:, 0], p[:, 1]).reshape(xs.shape)
    gx = np.abs(np.diff(cut, axis=1)).mean()
    gy = np.abs(np.diff(cut, axis=0)).mean()
    return cut if gx >= gy else cut.T[:, ::-1]


def smooth_rows(img, n):
    if n <= 1:
        return img
    k = np.ones(n) / n
    pad = np.pad(img, ((n // 2, n // 2), (0, 0)), mode="edge")
    out = np.empty_like(img)
    for x in range(img.shape[1]):
        out[:, x] = np.convolve(pad[:, x], k, mode="valid")[: img.shape[0]]
    return out


def kernel(kind, size):
    if kind == "box":
        n = max(1, int(round(size)))
        k = np.ones(n)
        # fractional length: ends weighted
        frac = size - (n - 1)
        if n >= 2 and 0 < frac < 1:
            k = np.ones(n + 1)
            k[0] = k[-1] = (size - (n - 1)) / 2 + 0.0
        return k / k.sum()
    r = int(np.ceil(3 * size))
    x = np.arange(-r, r + 1)
    k = np.exp(-x * x / (2 * size * size))
    return k / k.sum()


def wiener_rows(img, k, nsr):
    """Each row deconvolved by kernel k (Wiener, constant noise-to-signal ratio)."""
    h, w = img.shape
    pad = len(k) * 2 + 8
    rows = np.pad(img, ((0, 0), (pad, pad)), mode="edge")
    n = rows.shape[1]
    kk = np.zeros(n)
    kk[: len(k)] = k
    kk = np.roll(kk, -(len(k) // 2))
    K = np.fft.rfft(kk)
    F = np.fft.rfft(rows, axis=1)
    G = np.conj(K) / (np.abs(K) ** 2 + nsr)
    out = np.fft.irfft(F * G, n=n, axis=1)[:, pad : pad + w]
    return out


def to_u8(img):
    lo, hi = np.percentile(img, [2, 98])
    return np.clip((img - lo) / max(1e-3, hi - lo) * 255, 0, 255).astype(np.uint8)


def enlarge(img, f):
    if f == 1:
        return img
    im = Image.fromarray(img)
    return np.asarray(im.resize((int(im.width * f), im.height), Image.BILINEAR))


def reads(u8):
    out = []
    for r in common.zx14(u8):
        if r["fmt"] != "None" and not r.get("err"):
            out.append(("zxing", r["fmt"], r["text"]))
    for r in common.zbar(u8):
        out.append(("zbar", r["fmt"], r["text"]))
    return out


def matches(truth, fmt, text):
    sym, val = truth["symbology"], truth["value"]
    if sym == "upca" and fmt in ("EAN13", "UPCA"):
        return text.lstrip("0") == val.lstrip("0")
    if sym == "ean13" and fmt in ("EAN13", "UPCA"):
        return text.lstrip("0") == val.lstrip("0")
    return fmt == FMT[sym] and text == val


def shake_length(cut, lengths=range(4, 24)):
    """A straight shake's length along the rows from the cepstrum of the middle third's column
    means: a box of length L puts spectral zeros every 1/L, the cepstrum's deepest trough at L."""
    h = cut.shape[0]
    p = cut[h // 3 : max(h // 3 + 1, 2 * h // 3)].mean(0)
    p = (p - p.mean()) * np.hanning(len(p))
    spectrum = np.abs(np.fft.rfft(p, 1024)) + 1e-3
    cepstrum = np.fft.irfft(np.log(spectrum))
    lengths = list(lengths)
    return lengths[int(np.argmin(cepstrum[lengths[0] : lengths[-1] + 1]))]


def variants(cut, smoothing):
    rows = smooth_rows(cut.astype(float), smoothing)
    yield "plain", cut.astype(float)
    length = shake_length(cut)
    for nsr in (0.01, 0.003, 0.001):
        yield f"shake{length}/{nsr}", wiener_rows(rows, kernel("box", length), nsr)
    for size in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0):
        for nsr in NSRS:
            yield f"gauss{size}/{nsr}", wiener_rows(rows, kernel("gauss", size), nsr)
    for length in range(2, 17):
        for nsr in NSRS:
            yield f"box{length}/{nsr}", wiener_rows(rows, kernel("box", length), nsr)


def axis_shake_length(cut):
    """The box length along the rows of a 2-D code's cut: the mean over rows of their log spectra,
    its cepstrum's deepest trough over lags 4-23 (a QR code has no standing bars to average)."""
    spectra = np.log(np.abs(np.fft.rfft((cut - cut.mean(0, keepdims=True)) * np.hanning(cut.shape[1]), 1024)) + 1e-3)
    cepstrum = np.fft.irfft(spectra.mean(0))
    return 4 + int(np.argmin(cepstrum[4:24]))


def qr_axes(gray, truth):
    """A QR code's surroundings in the photo (truth box, 30 % margin) deconvolved along x and along
    y with its own cepstral shake length, read by zxing-cpp 1.4: (axis, length, ratio, enlarged,
    right) per read."""
    x0, y0, x1, y1 = truth["barcode"]["box"]
    m = 0.3 * (x1 - x0)
    cut = gray[int(max(0, y0 - m)) : int(y1 + m), int(max(0, x0 - m)) : int(x1 + m)]
    found = []
    for axis, image in (("x", cut), ("y", cut.T)):
        length = axis_shake_length(image)
        for nsr in (0.01, 0.003, 0.001):
            out = wiener_rows(image, kernel("box", length), nsr)
            # turned back: a transposed QR code is its mirror image, which no reader takes
            u8 = to_u8(out if axis == "x" else out.T)
            for f in (1, 2):
                im = u8 if f == 1 else np.asarray(Image.fromarray(u8).resize((u8.shape[1] * 2, u8.shape[0] * 2), Image.BILINEAR))
                for r in common.zx14(im):
                    if r["fmt"] != "None" and not r.get("err"):
                        found.append((axis, length, nsr, f, r["text"] == truth["barcode"]["value"]))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("--only")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--smoothing", type=int, default=9)
    ap.add_argument("--json")
    ap.add_argument("--qr", action="store_true", help="QR codes, deconvolved along the photo's x and y")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    results = []
    for name in sorted(os.listdir(args.gen)):
        if not name.endswith(".json"):
            continue
        stem = name[:-5]
        if only and not any(o in stem for o in only):
            continue
        truth = json.load(open(os.path.join(args.gen, name)))
        code = truth.get("barcode")
        if not code or code["symbology"] not in ({"qr"} if args.qr else LINEAR):
            continue
        img = ImageOps.exif_transpose(Image.open(os.path.join(args.gen, truth["file"]))).convert("L")
        gray = np.asarray(img, float)
        if args.qr:
            found = qr_axes(gray, truth)
            results.append({"file": stem, "effects": truth["effects"], "reads": found})
            print(stem, [e for e in truth["effects"] if "blur" in e], found, flush=True)
            continue
        cut = code_cut(gray, truth, args.scale)
        hits, wrong = [], []
        for label, copy in variants(cut, args.smoothing):
            u8 = to_u8(copy)
            for f in (1, 2):
                for dec, fmt, text in reads(enlarge(u8, f)):
                    key = f"{label}x{f}/{dec}"
                    (hits if matches(code, fmt, text) else wrong).append((key, fmt, text))
        blur = [e for e in truth["effects"] if "blur" in e]
        results.append({"file": stem, "symbology": code["symbology"], "blur": blur, "hits": hits, "wrong": wrong})
        print(stem, code["symbology"], blur, "hits", len(hits), [h[0] for h in hits][:6], "wrong", wrong[:3], flush=True)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
