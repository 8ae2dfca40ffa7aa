"""An upper bound on what reading only the text regions would save the ocr stage's page reading
(issue #28 item 3): each card crop, scaled to 448 rows, is read with tesseract psm 11 as it is, and
again with everything outside its text words painted over with the page's median grey. The text
words are those the whole reading itself read at confidence 40 or more that are not bar glyphs
alone, each box widened by half its height: an oracle mask no line finder can beat (it keeps exactly
the regions the reading used, and blanks the barcode, specks and flat areas), so its saving bounds
that of masking by TextLineFinder's boxes from above.

    python bench/speed/page_mask_bound.py RUN/cards [RUN/cards ...]

Prints the thread CPU of both readings (and of layout analysis, before the first word), and how
many of the whole reading's text words the masked reading still reads (same text, same place).
Crops are read plain grey, not flattened as the stage reads them."""
import glob
import sys
import time

import cv2
import numpy as np

from tess_api import PROG, api, bar, t, read_page, words  # noqa: E402

first = []


def progress(_m, _l, _r, _t, _b):
    if not first:
        first.append(time.thread_time())
    return True


cb = PROG(progress)


def read(g):
    """(cpu s, layout cpu s, [(text, conf, (x0, y0, x1, y1))])"""
    first.clear()
    s, end = read_page(np.ascontiguousarray(g), cb)
    found = words()
    t.TessBaseAPIClear(api)
    return end - s, (first[0] if first else end) - s, found


def near(a, b):
    return all(abs(x - y) <= 4 for x, y in zip(a, b))


for run in sys.argv[1:]:
    whole = masked = layout_w = layout_m = 0.0
    kept = text_words = area = covered = 0
    crops = sorted(glob.glob(run + "/*.jpg"))
    for path in crops:
        g = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        h, w = g.shape
        if h > 448:
            g = cv2.resize(g, (max(1, w * 448 // h), 448), interpolation=cv2.INTER_AREA)
        h, w = g.shape
        cpu, lay, read_whole = read(g)
        text = [x for x in read_whole if x[1] >= 40 and not bar.match(x[0])]
        keep = np.zeros_like(g, dtype=bool)
        for _, _, (x0, y0, x1, y1) in text:
            pad = (y1 - y0) // 2
            keep[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad] = True
        m = g.copy()
        m[~keep] = int(np.median(g))
        cpu2, lay2, read_masked = read(m)
        whole += cpu; masked += cpu2; layout_w += lay; layout_m += lay2
        text_words += len(text)
        kept += sum(1 for x in text if any(y[0] == x[0] and near(x[2], y[2]) for y in read_masked))
        area += g.size; covered += int(keep.sum())
    print(f"{run}: {len(crops)} crops, text regions {covered / max(area, 1):.0%} of the pixels; "
          f"whole {whole:.2f} s (layout {layout_w:.2f}), masked {masked:.2f} s (layout {layout_m:.2f}), "
          f"{masked / max(whole, 1e-9):.0%}; text words kept {kept}/{text_words}")
