"""Where the ocr stage's page reading spends its CPU (issue #28 item 3): tesseract's psm-11 reading
of card crops scaled to 448 rows, timed by thread CPU between the progress callback's calls (one
before each word tesseract recognises), split into layout analysis (before the first word) and the
words by what they were read as: bar-like glyphs only (a barcode's bars), low confidence (< 40,
specks), or text.

    python bench/speed/page_word_cost.py RUN/cards    # the crops a cards-preset run wrote

The crops are read plain grey, not flattened as the stage reads them: a measure of where the cost
lies, not of the stage's exact readings."""
import glob
import sys
import time

import cv2
from tess_api import PROG, api, bar, t, read_page, words  # noqa: E402

calls = []
def progress(_m, left, right, top, bottom):
    calls.append((time.thread_time(), left, right))
    return True
cb = PROG(progress)
cost = {"layout": 0.0, "count": 0.0, "bar": 0.0, "lowconf": 0.0, "text": 0.0, "unmatched": 0.0}
total = 0.0
for path in sorted(glob.glob(sys.argv[1] + "/*.jpg")):
    g = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    h, w = g.shape
    if h > 448:
        g = cv2.resize(g, (max(1, w * 448 // h), 448), interpolation=cv2.INTER_AREA)
    calls.clear()
    s, end = read_page(g, cb)
    total += end - s
    cost["layout"] += (calls[0][0] if calls else end) - s
    found = {(box[0], box[2]): (text, conf) for text, conf, box in words()}
    for i, (at, left, right) in enumerate(calls):
        nxt = calls[i + 1][0] if i + 1 < len(calls) else end
        inside = [v for (l, r), v in found.items() if l >= left - 2 and r <= right + 2]
        if not inside:
            kind = "unmatched"
        elif all(bar.match(x[0]) for x in inside):
            kind = "bar"
        elif all(x[1] < 40 for x in inside):
            kind = "lowconf"
        else:
            kind = "text"
        cost[kind] += nxt - at
        cost["count"] += 1
    t.TessBaseAPIClear(api)
units = int(cost.pop("count"))
print(f"{units} words as tesseract groups them, whole readings {total:.2f} s: " + ", ".join(f"{k} {v:.2f} s" for k, v in cost.items()))
