#!/usr/bin/env python3
"""How a name line's image should be prepared before the Latin re-reading. For every training
card's single-line candidate within 0.8 of the printed name (the first one; candidate logs of
bench/names/fit.sh, the card crops of the logging run in DIR-out), cuts the line out of the crop
as the ocr stage does (a margin of a third of the box height, scaled so the box is H px high),
prepares it as each variant says, reads every variant with `tesseract -l Latin --psm 7` (one
process per variant, the lines as pages of a list file) and counts exact names (score_cards.py's
comparison, before the stage's cleaning). A bench tool: run it on `--split train` sets only.

    python bench/names/line_prep.py LOG=DIR ... [--variants flat:48,flat-keepgrey:48] [--truth-box] [--show]

A variant is SOURCE[-STEP...]:HEIGHT. SOURCE: `flat` (TextContrast's page before names14: the
tile backgrounds interpolated across panel edges), `edgeS_R` (TextContrast's page since names14,
`flattened_edges` with edgeSplit S and edgeRadius R; edge40_4 is the stage's) or `plain` (the
grey crop). Steps: `otsu` (black on white by Otsu within the cut, polarity from the
border), then `clear` (ink touching the top or bottom edge whitened), `clear4` (any edge),
`clearx` (top or bottom, only pieces mostly outside the box's rows: NameLineInk), `extend` (the
cut narrowed to the box's ink and the pieces continuing it sideways); `keepgrey` (clearx's pieces
painted over in the background's level, the rest left grey: the ocr stage's `name_line_ink`);
`sideM` (M line heights of room to each side); after scaling, `sharpA` (an unsharp mask of
amount A over a 3 x 3 binomial blur), `softA` (the same pulled towards the blur), `median3`.
`--truth-box` cuts the printed line's box from the render's truth instead of the candidate's (is
the box or the image what limits the reading?).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
from line_margin import crops  # noqa: E402


def flattened(gray, columns=8, rows=5, gain=2):
    """TextContrast.flattened: distance from each tile's modal grey, bilinear between tile centres
    (no two grey levels differ by more than 255, so no edge is kept)."""
    return flattened_edges(gray, 256, 4, columns, rows, gain)


def flattened_edges(gray, split=40, radius=4, columns=8, rows=5, gain=2):
    """TextContrast.flattened with panel edges kept: where the tile backgrounds around a pixel differ
    by more than `split` levels, only those within `split` of the pixel's smoothed surroundings (a
    median over (2 radius + 1)^2 cells of a map of (rows * 16)-row cells) are interpolated."""
    h, w = gray.shape
    if w < columns * 16 or h < rows * 16:
        return gray
    bg = np.zeros((rows, columns))
    for ty in range(rows):
        for tx in range(columns):
            tile = gray[ty * h // rows:(ty + 1) * h // rows, tx * w // columns:(tx + 1) * w // columns]
            hist = np.bincount(tile.ravel(), minlength=256)
            window = np.convolve(hist, np.ones(7, dtype=int), mode="same")
            bg[ty, tx] = int(np.argmax(window))

    def sample(size, tiles):
        src = np.clip((np.arange(size) + 0.5) * tiles / size - 0.5, 0, tiles - 1)
        low = np.minimum(src.astype(int), tiles - 1)
        return low, np.minimum(low + 1, tiles - 1), src - low

    y0, y1, fy = sample(h, rows)
    x0, x1, fx = sample(w, columns)
    corners = np.stack([bg[y0][:, x0], bg[y0][:, x1], bg[y1][:, x0], bg[y1][:, x1]])
    weights = np.stack([(1 - fy)[:, None] * (1 - fx)[None, :], (1 - fy)[:, None] * fx[None, :],
                        fy[:, None] * (1 - fx)[None, :], fy[:, None] * fx[None, :]])
    level = (corners * weights).sum(axis=0)
    spread = corners.max(axis=0) - corners.min(axis=0)
    if spread.max() > split:
        factor = max(1, h // (rows * 16))
        hh, ww = h // factor, w // factor
        cells = gray[:hh * factor, :ww * factor].reshape(hh, factor, ww, factor).mean(axis=(1, 3))
        padded = np.pad(cells, radius, mode="edge")
        view = np.lib.stride_tricks.sliding_window_view(padded, (2 * radius + 1, 2 * radius + 1))
        median = np.median(view.reshape(hh, ww, -1), axis=2)
        my0, my1, mfy = sample(h, hh)
        mx0, mx1, mfx = sample(w, ww)
        rowm = median[my0] * (1 - mfy)[:, None] + median[my1] * mfy[:, None]
        smooth = rowm[:, mx0] * (1 - mfx)[None, :] + rowm[:, mx1] * mfx[None, :]
        near = np.abs(corners - smooth) <= split
        nearest = np.argmin(np.abs(corners - smooth), axis=0)
        near |= ~near.any(axis=0) & (np.arange(4)[:, None, None] == nearest)
        kept = (weights + 1e-6) * near
        level = np.where(spread > split, (corners * kept).sum(axis=0) / kept.sum(axis=0), level)
    dist = np.abs(gray.astype(float) - level) * gain
    return (255 - np.minimum(255, dist.astype(int))).astype(np.uint8)


def otsu(a):
    hist = np.bincount(a.ravel(), minlength=256).astype(float)
    total = hist.sum()
    sum_all = np.dot(np.arange(256), hist)
    best, threshold, w0, s0 = -1.0, 0, 0.0, 0.0
    for t in range(256):
        w0 += hist[t]
        if w0 == 0 or w0 == total:
            continue
        s0 += t * hist[t]
        m0, m1 = s0 / w0, (sum_all - s0) / (total - w0)
        between = w0 * (total - w0) * (m0 - m1) ** 2
        if between > best:
            best, threshold = between, t
    return threshold


def dark_on_light(binary):
    """Black ink on white: the majority of the cut's border is background."""
    border = np.concatenate([binary[0], binary[-1], binary[:, 0], binary[:, -1]])
    return binary if border.mean() > 127 else 255 - binary


def cut(page, box, height, side=1 / 3):
    x, y, w, h = box
    m = h / 3
    x0, y0 = max(0, int(x - side * h)), max(0, int(y - m))
    x1, y1 = min(page.shape[1], int(x + w + side * h)), min(page.shape[0], int(y + h + m))
    image = Image.fromarray(page[y0:y1, x0:x1])
    if height and h >= 4:
        s = height / h
        image = image.resize((max(8, round(image.width * s)), max(8, round(image.height * s))), Image.BILINEAR)
    return image


def sharpened(image, amount):
    """Unsharp mask on the scaled cut: each pixel pushed away from its 3 x 3 binomial blur by
    `amount` times the difference (towards it when negative)."""
    a = np.asarray(image).astype(np.float32)
    p = np.pad(a, 1, mode="edge")
    rows = (p[:-2] + 2 * p[1:-1] + p[2:]) / 4
    blur = (rows[:, :-2] + 2 * rows[:, 1:-1] + rows[:, 2:]) / 4
    return Image.fromarray(np.clip(a + amount * (a - blur) + 0.5, 0, 255).astype(np.uint8))


def variant_image(gray, flat, box, variant):
    source, _, height = variant.rpartition(":")
    kind = source.split("-")
    side = next((float(k[4:]) for k in kind if k.startswith("side")), 1 / 3)
    page = flat if kind[0] == "flat" else gray
    if kind[0].startswith("edge"):
        # edgeS_R: flattened_edges with split S and radius R.
        split, radius = (int(v) for v in kind[0][4:].split("_"))
        page = flattened_edges(gray, split, radius)
    image = cut(page, box, int(height), side)
    for k in kind:
        if k.startswith("sharp"):
            image = sharpened(image, float(k[5:]))
        elif k.startswith("soft"):
            image = sharpened(image, -float(k[4:]))
        elif k == "median3":
            image = image.filter(ImageFilter.MedianFilter(3))
    if "keepgrey" in kind:
        # The grey cut with only the cleared ink painted over in the background's level.
        a = np.asarray(image)
        t = otsu(a)
        binary = np.where(a > t, 255, 0).astype(np.uint8)
        flipped = dark_on_light(binary)
        cleared = clear_outside(flipped, int(height) / 3)
        out = a.copy()
        background = a[flipped == 255].mean() if (flipped == 255).any() else 255
        out[(flipped == 0) & (cleared == 255)] = int(background)
        return Image.fromarray(out)
    if "otsu" in kind:
        a = np.asarray(image)
        t = otsu(a)
        binary = dark_on_light(np.where(a > t, 255, 0).astype(np.uint8))
        if "clearx" in kind:
            binary = clear_outside(binary, int(height) / 3)
        elif "clear" in kind or "clear4" in kind or "extend" in kind:
            binary = clear_border(binary, sides="clear4" in kind)
        if "extend" in kind:
            binary = extend(binary, side * int(height), int(height))
        image = Image.fromarray(binary)
    return image


def extend(binary, margin, h):
    """The cut narrowed to the box's ink and the letters that continue it sideways (a gap under
    half the line height), with a third of the height of white each side; other ink whitened."""
    import cv2
    count, labels, stats, _ = cv2.connectedComponentsWithStats((binary == 0).astype(np.uint8), connectivity=8)
    width = binary.shape[1]
    core0, core1 = margin, width - margin
    parts = [(stats[i, 0], stats[i, 0] + stats[i, 2], i) for i in range(1, count)]
    keep = {i for x0, x1, i in parts if x1 > core0 and x0 < core1}
    if not keep:
        return binary
    left = min(stats[i, 0] for i in keep)
    right = max(stats[i, 0] + stats[i, 2] for i in keep)
    changed = True
    while changed:
        changed = False
        for x0, x1, i in parts:
            if i in keep:
                continue
            if (x0 >= right and x0 - right < 0.5 * h) or (x1 <= left and left - x1 < 0.5 * h):
                keep.add(i)
                left, right = min(left, x0), max(right, x1)
                changed = True
    out = np.full_like(binary, 255)
    out[np.isin(labels, list(keep))] = 0
    pad = int(h / 3)
    a, b = max(0, left - pad), min(width, right + pad)
    out = out[:, a:b]
    return np.pad(out, ((0, 0), (max(0, pad - left), max(0, right + pad - width))), constant_values=255)


def clear_outside(binary, margin):
    """Ink touching the cut's top or bottom edge whitened when most of it lies in the margins."""
    import cv2
    count, labels = cv2.connectedComponents((binary == 0).astype(np.uint8), connectivity=8)
    touching = (set(labels[0]) | set(labels[-1])) - {0}
    m = int(round(margin))
    out = binary.copy()
    for i in touching:
        mask = labels == i
        inside = mask[m:binary.shape[0] - m].sum()
        if inside < 0.5 * mask.sum():
            out[mask] = 255
    return out


def clear_border(binary, sides=False):
    """Ink components that touch the cut's top or bottom edge whitened: something else's (a panel's
    edge, the line above or below), not the line's letters."""
    import cv2
    count, labels = cv2.connectedComponents((binary == 0).astype(np.uint8), connectivity=8)
    touching = set(labels[0]) | set(labels[-1])
    if sides:
        touching |= set(labels[:, 0]) | set(labels[:, -1])
    if count > 1:
        touching.discard(0)
        out = binary.copy()
        out[np.isin(labels, list(touching))] = 255
        return out
    return binary


def tesseract_list(images, lang, *output):
    """stdout of one tesseract process over every image (a list file, `--psm 7`)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, image in enumerate(images):
            path = os.path.join(d, f"{i:05d}.png")
            image.save(path)
            paths.append(path)
        with open(os.path.join(d, "list.txt"), "w") as f:
            f.write("\n".join(paths) + "\n")
        return subprocess.run(["tesseract", os.path.join(d, "list.txt"), "stdout", "-l", lang, "--psm", "7", *output],
                              capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"}).stdout


def read_all(images, lang):
    """One tesseract process over every image (pages come back split by form feeds)."""
    pages = tesseract_list(images, lang).split("\f")
    return [" ".join(p.split()) for p in pages[: len(images)]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--variants", default="flat:48,plain:48,flat-otsu:48,plain-otsu:48")
    ap.add_argument("--lang", default="Latin")
    ap.add_argument("--limit", type=int, default=1000)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--truth-box", action="store_true",
                    help="cut the printed line's box from the truth, not the candidate's (single-line names)")
    args = ap.parse_args()
    variants = args.variants.split(",")
    lines = []  # (name, gray, flat, box, logged reread)
    for pair in args.sets:
        crop_of = crops(pair)
        for truth, candidates in F.load([pair]):
            if len(lines) >= args.limit or truth["file"] not in crop_of:
                continue
            want = F.fold(truth["name"])
            near = [c for c in candidates if c["features"].get("lines", 1) == 1
                    and c["features"].get("image_line", 0) == 0
                    and any(F.ratio(F.fold(t), want) >= 0.8 for t in (c["text"], (c.get("reread") or {}).get("text", "")))]
            if not near:
                continue
            gray = np.asarray(Image.open(crop_of[truth["file"]]).convert("L"))
            box = near[0]["box"]
            if args.truth_box:
                # The printed line's box (card units over 1012 x 638) in the crop's pixels.
                if len(truth.get("name_lines") or []) != 1 or not truth["name_lines"][0].get("card_box"):
                    continue
                x0, y0, x1, y1 = truth["name_lines"][0]["card_box"]
                sx, sy = gray.shape[1] / 1012, gray.shape[0] / 638
                box = [x0 * sx, y0 * sy, (x1 - x0) * sx, (y1 - y0) * sy]
                if F.ratio(F.fold(near[0]["text"]), F.fold(truth["name"])) < 0.8 and near[0]["features"].get("height", 0) <= 0:
                    continue
            lines.append((truth["name"], gray, flattened(gray), box, (near[0].get("reread") or {}).get("text", "")))
    logged = sum(F.norm(r) == F.norm(n) for n, _, _, _, r in lines)
    print(f"{len(lines)} name lines; logged re-reading exact {logged}")
    readings = {}
    for v in variants:
        readings[v] = read_all([variant_image(g, fl, b, v) for _, g, fl, b, _ in lines], args.lang)
        exact = sum(F.norm(r) == F.norm(n) for (n, *_), r in zip(lines, readings[v]))
        print(f"{v:24s} exact {exact}/{len(lines)}", flush=True)
    if args.show:
        for i, (n, *_rest) in enumerate(lines):
            row = [readings[v][i] for v in variants]
            if len({F.norm(r) == F.norm(n) for r in row}) > 1:
                print(repr(n), " | ".join(repr(r) for r in row))


if __name__ == "__main__":
    main()
