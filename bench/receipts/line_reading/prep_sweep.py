"""Image preparations for the reading of faded print, tried on flat TRAINING renders only (a bench
tool, never the product): each `scan_faded` (or `--capture scan`) render of `--split train` in DIR is taken to grey,
scaled by `--scale` (bilinear, as receipt_warp scales the page to its line pitch), prepared one way,
and read whole by the tesseract CLI (`--psm 4`, eng); the printed amounts and dates found in the
text (amount_reading.py's rule) are counted per preparation, pooled and for monospace fonts whose
zero carries a dot or a slash against the rest.

  OMP_THREAD_LIMIT=1 python prep_sweep.py DIR [--count 24] [--capture scan] [--preps stretch,gamma2,unsharp,nodots]
"""
import argparse, os, subprocess, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from amount_reading import printed_tokens, read_on_page  # noqa: E402
from ocr_loss import train_renders  # noqa: E402


def stretch(a, black=0.005, white=0.5):
    """ReceiptImaging.stretched: the darkest 0.5 % to black, the median (the paper) to white."""
    lo, hi = np.percentile(a, 100 * black), np.percentile(a, 100 * white)
    if hi - lo < 8:
        return a.astype(np.uint8)
    return np.clip((a.astype(float) - lo) * 255 / (hi - lo), 0, 255).astype(np.uint8)


def no_dots(a):
    """Ink wholly inside a glyph's counter (a dotted zero's dot) painted white; periods are not."""
    import cv2

    ink = (a < 128).astype(np.uint8)
    count, labels = cv2.connectedComponents(1 - ink, connectivity=4)
    border = set(np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])))
    holes = np.isin(labels, [i for i in range(count) if i not in border])
    filled = ink | holes.astype(np.uint8)
    n, comp = cv2.connectedComponents(ink, connectivity=8)
    out = a.copy()
    for i in range(1, n):
        mask = comp == i
        # A component all of whose 8-neighbours outside it are hole pixels sits in a counter.
        grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~mask
        if grown.any() and holes[grown].all() and filled[mask].all():
            out[mask] = 255
    return out


PREPS = {
    "stretch": lambda a: stretch(a),
    "gamma1.5": lambda a: (255 * (stretch(a) / 255.0) ** 1.5).astype(np.uint8),
    "gamma2": lambda a: (255 * (stretch(a) / 255.0) ** 2).astype(np.uint8),
    "gamma3": lambda a: (255 * (stretch(a) / 255.0) ** 3).astype(np.uint8),
    "unsharp": lambda a: np.array(Image.fromarray(stretch(a)).filter(ImageFilter.UnsharpMask(3, 150, 0))),
    "nodots": lambda a: no_dots(stretch(a)),
}
MARKED_ZERO = {"NotoSansMono", "JetBrainsMono", "GoMono", "Cousine", "DejaVuSansMono"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--capture", default="scan_faded", help="the flat capture read: scan_faded or scan")
    ap.add_argument("--scale", type=float, default=2.5)
    ap.add_argument("--preps", default="stretch,gamma2,unsharp,nodots")
    args = ap.parse_args()
    preps = args.preps.split(",")
    seen, read = {}, {}
    done = 0
    for stem, truth in train_renders(args.folder, "read"):
        if truth.get("capture") != args.capture or done >= args.count:
            continue
        done += 1
        img = Image.open(os.path.join(args.folder, stem + ".jpg")).convert("L")
        img = img.resize((int(img.width * args.scale), int(img.height * args.scale)), Image.BILINEAR)
        group = "marked zero" if truth["font"] in MARKED_ZERO else "plain zero"
        tokens = printed_tokens(truth["lines"])
        for prep in preps:
            with tempfile.NamedTemporaryFile(suffix=".png") as f:
                Image.fromarray(PREPS[prep](np.array(img))).save(f.name)
                text = subprocess.run(["tesseract", f.name, "-", "--psm", "4"], capture_output=True, text=True).stdout
            rows = text.splitlines()
            for token in tokens:
                for key in ((prep, token[0], "all"), (prep, token[0], group)):
                    seen[key] = seen.get(key, 0) + 1
                    read[key] = read.get(key, 0) + read_on_page(token, rows)
        print(f"{done} {stem} {truth['font']}", file=sys.stderr)
    for key in sorted(seen):
        print(f"{key[0]:8} {key[1]:6} {key[2]:12} {read[key]:4d}/{seen[key]:4d} ({read[key] / seen[key]:.3f})")


if __name__ == "__main__":
    main()
