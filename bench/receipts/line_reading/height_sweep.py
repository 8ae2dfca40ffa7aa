"""Which text height tesseract (eng, fast model, page segmentation 7) reads an amount or a date
cut out on its own best at, and whether a digits-and-punctuation whitelist helps: measured on
the true boxes of `sroie_dev/NAME.lines.csv` of the TRAINING folds only (folds.json; the held-out
fold is never read). Each box that holds only amounts or a date (plus a currency mark or a label
colon) is cut from the grey scan with a margin, its ink rows measured, and the crop scaled so the
ink is H px high; then read with and without the whitelist by read_crops (a C helper, one engine
for all crops). Prints, per H and reading, the share of tokens whose amounts/dates read exactly.

  cc read_crops.c $(pkg-config --cflags --libs tesseract lept) -o /tmp/read_crops
  OMP_THREAD_LIMIT=1 python height_sweep.py --receipts 80 --heights 16,20,24,28,32,40,48
"""
import argparse, json, random, re, subprocess, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
AMOUNT = re.compile(r"(?<![\d.,])-?\d{1,7}[.,]\d{2}(?!\d)")
DATE = re.compile(r"(?<!\d)\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}(?!\d)")
# What may stand beside the amounts or the date in a box that counts as a token.
FILLER = re.compile(r"(?i)\b(rm|myr|\$|:)|[\s:()-]")


def tokens(csv_path):
    for row in csv_path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = row.split(",", 8)
        if len(parts) < 9:
            continue
        xs = [int(parts[i]) for i in (0, 2, 4, 6)]
        ys = [int(parts[i]) for i in (1, 3, 5, 7)]
        text = parts[8]
        amounts, dates = AMOUNT.findall(text), DATE.findall(text)
        rest = FILLER.sub("", DATE.sub("", AMOUNT.sub("", text)))
        if (amounts or dates) and not rest:
            yield (min(xs), min(ys), max(xs), max(ys)), text, amounts, dates


def ink_rows(grey):
    dark = grey < min(160, grey.mean() - 40)
    rows = np.nonzero(dark.sum(axis=1) >= 2)[0]
    return (rows[0], rows[-1] + 1) if len(rows) else (0, grey.shape[0])


def crop(page, box, height):
    x0, y0, x1, y1 = box
    h = max(4, y1 - y0)
    x0, x1 = max(0, x0 - h // 2), min(page.shape[1], x1 + h // 2)
    y0, y1 = max(0, y0 - h // 4), min(page.shape[0], y1 + h // 4)
    piece = page[y0:y1, x0:x1]
    top, bottom = ink_rows(piece)
    ink = max(4, bottom - top)
    # The margin is a share of the ink height, whatever the box's own padding.
    a, b = max(0, y0 + top - ink // 2), min(page.shape[0], y0 + bottom + ink // 2)
    piece = page[a:b, x0:x1]
    if height is None:
        return piece
    scale = height / ink
    img = Image.fromarray(piece)
    return np.asarray(img.resize((max(8, round(img.width * scale)), max(8, round(img.height * scale))), Image.LANCZOS))


def value(text, want_dates):
    """The amounts a reading holds as snapsort reads them (a decimal comma or point, no sign),
    and which of the wanted dates it holds."""
    squeezed = text.replace(" ", "")
    amounts = [a.replace("-", "").replace(",", ".") for a in AMOUNT.findall(squeezed.replace("-", ""))]
    return amounts, [d in squeezed for d in want_dates]


def right(text, amounts, dates):
    got, found = value(text, dates)
    want = [a.replace("-", "").replace(",", ".") for a in amounts] if amounts else got if dates else []
    return got == want and all(found)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parents[2] / "../shared/data/receipts/sroie_dev"))
    ap.add_argument("--folds", default=str(HERE.parent / "folds.json"))
    ap.add_argument("--heldout", type=int, default=4)
    ap.add_argument("--receipts", type=int, default=80)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--heights", default="16,20,24,28,32,40,48")
    ap.add_argument("--reader", default="/tmp/read_crops")
    args = ap.parse_args()
    folds = json.load(open(args.folds))["sroie"]
    data = Path(args.data)
    stems = sorted(s for s, f in folds.items() if f["folder"] == "sroie_dev" and f["fold"] != args.heldout)
    random.Random(args.seed).shuffle(stems)
    stems = stems[: args.receipts]
    heights = [None] + [int(h) for h in args.heights.split(",")]
    jobs, meta = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for stem in stems:
            page = np.asarray(Image.open(data / f"{stem}.jpg").convert("L"))
            for n, (box, text, amounts, dates) in enumerate(tokens(data / f"{stem}.lines.csv")):
                for height in heights:
                    path = f"{tmp}/{stem}-{n}-{height}.pgm"
                    Image.fromarray(crop(page, box, height)).save(path)
                    for mode in "NW":
                        jobs.append(f"{mode} {path}")
                        meta.append((height, mode, amounts, dates, "date" if dates else "amount"))
        out = subprocess.run([args.reader], input="\n".join(jobs) + "\n", capture_output=True, text=True).stdout
    results = [line.split("\t")[0] for line in out.split("\n")[: len(jobs)]]
    table, agree = {}, {}
    for (height, mode, amounts, dates, kind), text in zip(meta, results):
        key = (kind, height, mode)
        hit, n = table.get(key, (0, 0))
        table[key] = (hit + right(text, amounts, dates), n + 1)
    # Plain and whitelisted readings of one crop are consecutive: when they agree, how often are they right?
    for i in range(0, len(meta), 2):
        height, _, amounts, dates, kind = meta[i]
        same = value(results[i], dates) == value(results[i + 1], dates)
        n, hit, total = agree.get((kind, height), (0, 0, 0))
        agree[(kind, height)] = (n + same, hit + (same and right(results[i], amounts, dates)), total + 1)
    # The plain reading at the scanned scale against the whitelisted one at height H: two readings
    # that differ in scale as well as alphabet (each token's crops are consecutive, heights in order).
    per_token = 2 * len(heights)
    cross = {}
    for start in range(0, len(meta), per_token):
        _, _, amounts, dates, kind = meta[start]
        plain = results[start]
        for k, height in enumerate(heights[1:], start=1):
            other = results[start + 2 * k + 1]
            same = value(plain, dates) == value(other, dates)
            n, hit, total = cross.get((kind, height), (0, 0, 0))
            cross[(kind, height)] = (n + same, hit + (same and right(plain, amounts, dates)), total + 1)
    print(f"receipts {len(stems)} (folds != {args.heldout}, seed {args.seed})")
    print("| kind | ink height px | plain | whitelist | both agree | right when they agree |")
    print("|---|---|---|---|---|---|")
    for kind in ("amount", "date"):
        for height in heights:
            p, w = table.get((kind, height, "N"), (0, 0)), table.get((kind, height, "W"), (0, 0))
            if p[1]:
                n, hit, total = agree[(kind, height)]
                print(
                    f"| {kind} | {height or 'as scanned'} | {p[0]}/{p[1]} ({p[0]/p[1]:.3f}) | {w[0]}/{w[1]} ({w[0]/w[1]:.3f})"
                    f" | {n/total:.3f} | {hit}/{n} ({hit/max(1, n):.3f}) |")
    print()
    print("| kind | plain as scanned + whitelist at px | both agree | right when they agree |")
    print("|---|---|---|---|")
    for (kind, height), (n, hit, total) in sorted(cross.items()):
        print(f"| {kind} | {height} | {n/total:.3f} | {hit}/{n} ({hit/max(1, n):.3f}) |")


if __name__ == "__main__":
    main()
