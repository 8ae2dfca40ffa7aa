#!/usr/bin/env python3
"""Other readings of a training receipt's page, and whether they give its total (a bench tool,
never the product).

    total_readings.py --set IMAGES RECORDS.jsonl [--set ...] --work DIR
                      [--variants psm4,psm6,...] [--snapsort BIN] [--jobs 2] [--only-misses]

IMAGES: a folder of training receipts (SROIE folds 0-3 links, or `--split train` renders) with
their truth `NAME.json`; RECORDS: main's records of the same receipts (a receipts-preset run).
Held-out receipts are refused (fold 4 and the German 14 by `folds.json`, renders named
`rcpt-heldout-`).

Each receipt is read again by the tesseract CLI (eng, OMP_THREAD_LIMIT=1) in several ways, on the
image as loaded, in grey:
  psm4, psm6, psm11   the page segmentation modes (one column, one block, sparse text);
  psm4x15, psm4x07    psm 4 with the page scaled by 1.5 and 0.7;
  psm4bottom          psm 4 on the lower half of the page alone (where the total is printed),
                      its boxes moved back to the page;
  psm4otsu            psm 4 on the page binarised by Otsu's threshold;
  and combinations named so (`psm6bottom`, `psm6x07`).
Each reading's words (tsv) become boxed lines (`NAME.lines.csv`, one box per word) and the
receipt stage's extractor chooses the total on them (`snapsort receipt-text --json`), as a
fallback inside the stage would. Per variant and set it counts, by main's outcome (no total,
wrong total, right total):
  found     the reading's text holds the right amount on a row with a total-class label;
  right     the extractor's total on the reading is the right one;
  wrong     it gives another amount;
and, for a fallback gated on "main gave no total", the net change (right minus wrong gained).
`--gate` also shows the gain where the extractor's total on the reading is "confident": its
field confidence at or above each of a few thresholds.

Readings are cached in DIR (a reading already there is not made again). CPU seconds per reading
are written next to them (`NAME.cpu`), and reported per variant.
"""
import argparse
import collections
import concurrent.futures
import csv
import io
import json
import os
import re
import resource
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount, stem  # noqa: E402
from split import heldout  # noqa: E402

VARIANTS = ["psm4", "psm6", "psm11", "psm4x15", "psm4x07", "psm4bottom", "psm4otsu"]
# Total-class labels in the languages the data prints (SROIE's English and Malay, the renders'
# nine): only to count whether a reading "holds the right amount next to a label".
LABEL = re.compile(
    r"(?i)total|jumlah|amount|payable|nett?\b|summe|gesamt|betrag|totale|betalen|totaal|att betala|"
    r"razem|suma|total a pagar|à payer|a payer|importe|zu zahlen"
)


def training_images(images, held):
    """(stem, path) of the receipt images in a folder of training receipts, by name; exits at a
    held-out one (in `held`, or a render named `rcpt-heldout-`)."""
    for name in sorted(os.listdir(images)):
        if not name.endswith(".jpg"):
            continue
        s = stem(name)
        if s in held or "heldout" in s:
            sys.exit(f"refused: {s} is held out")
        yield s, os.path.join(images, name)


def read_variants(work, paths, variants, workers, progress=False):
    """Each image of `paths` ({set label: [image path]}) read in each variant into
    WORK/LABEL/VARIANT (`read_one`), `workers` at a time."""
    jobs = []
    for label, images in paths.items():
        for variant in variants:
            folder = os.path.join(work, label, variant)
            os.makedirs(folder, exist_ok=True)
            jobs += [(path, variant, folder) for path in images]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for i, _ in enumerate(pool.map(lambda j: read_one(*j), jobs)):
            if progress and i % 100 == 99:
                print(f"  {i + 1}/{len(jobs)} readings", file=sys.stderr)


def otsu(grey):
    hist = np.bincount(grey.ravel(), minlength=256).astype(float)
    total = grey.size
    cum = np.cumsum(hist)
    cum_mean = np.cumsum(hist * np.arange(256))
    best, threshold = -1.0, 128
    for t in range(1, 255):
        w0, w1 = cum[t], total - cum[t]
        if w0 == 0 or w1 == 0:
            continue
        m0 = cum_mean[t] / w0
        m1 = (cum_mean[-1] - cum_mean[t]) / w1
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, threshold = between, t
    return np.where(grey > threshold, 255, 0).astype(np.uint8)


def prepared(path, variant):
    """The image the variant reads (`psmN`, then `x15`/`x07` a scale, `bottom` the lower half,
    `otsu` binarised), its scale against the page and its vertical offset."""
    grey = Image.open(path).convert("L")
    scale, offset = 1.0, 0
    m = re.search(r"x(\d)(\d)", variant)
    if m:
        scale = int(m.group(1)) + int(m.group(2)) / 10
    if scale != 1.0:
        grey = grey.resize((round(grey.width * scale), round(grey.height * scale)), Image.LANCZOS)
    if "bottom" in variant:
        offset = grey.height // 2
        grey = grey.crop((0, offset, grey.width, grey.height))
    if "otsu" in variant:
        grey = Image.fromarray(otsu(np.asarray(grey)))
    return grey, scale, offset


def psm(variant):
    return re.match(r"psm(\d+)", variant).group(1)


def read_one(path, variant, out_dir):
    name = stem(path)
    target = os.path.join(out_dir, name + ".lines.csv")
    if os.path.exists(target):
        return
    image, scale, offset = prepared(path, variant)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    tsv = subprocess.run(
        ["tesseract", "stdin", "stdout", "--psm", psm(variant), "-l", "eng", "tsv"],
        input=buf.getvalue(), capture_output=True, env=env, check=True,
    ).stdout.decode("utf-8", "replace")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows = []
    for rec in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (rec.get("text") or "").strip()
        if rec.get("level") != "5" or not text or float(rec.get("conf") or -1) < 0:
            continue
        x, y = int(rec["left"]) / scale, (int(rec["top"]) + offset) / scale
        w, h = int(rec["width"]) / scale, int(rec["height"]) / scale
        x0, y0, x1, y1 = round(x), round(y), round(x + w), round(y + h)
        rows.append(f"{x0},{y0},{x1},{y0},{x1},{y1},{x0},{y1},{text}")
    with open(target + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + ("\n" if rows else ""))
    os.replace(target + ".tmp", target)
    with open(os.path.join(out_dir, name + ".cpu"), "w") as f:
        f.write(f"{(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime):.3f}\n")


def receipts_read(snapsort, folder):
    """{stem: receipt} of the extractor on a folder of readings (`receipt-text --json`)."""
    proc = subprocess.run([snapsort, "receipt-text", folder, "--json"], capture_output=True, text=True)
    return {stem(r["file"]): r.get("receipt") or {} for r in map(json.loads, proc.stdout.splitlines())}


def extract(snapsort, folder):
    """{stem: (total cents or None, field confidence, rows)} of the extractor on a reading."""
    out = {}
    for s, receipt in receipts_read(snapsort, folder).items():
        field = (receipt.get("fields") or {}).get("total") or {}
        rows = [t.get("text", "") for t in receipt.get("text") or []]
        out[s] = (amount(receipt.get("total")), field.get("confidence"), rows)
    return out


def labelled(rows, want):
    """Whether a row with a total-class label, or the row after one, holds the amount `want`."""
    for i, row in enumerate(rows):
        near = [row] + ([rows[i + 1]] if i + 1 < len(rows) else [])
        if not LABEL.search(row):
            continue
        for text in near:
            for token in re.findall(r"\d[\d.,' ]*[.,]\s?\d{2}\b", text):
                if amount(token.replace(" ", "")) == want:
                    return True
    return False


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", nargs=2, action="append", metavar=("IMAGES", "RECORDS"), required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--snapsort", default=".build/release/snapsort")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only-misses", action="store_true", help="read only the receipts main got wrong")
    ap.add_argument("--gate", action="store_true")
    ap.add_argument("--list", action="store_true", help="print each gained or lost receipt")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    held = heldout()

    cases = {}  # set label -> [(stem, path, want, main)]
    for images, records in args.set:
        label = os.path.basename(os.path.normpath(images))
        main_totals = {}
        for line in open(records, encoding="utf-8"):
            r = json.loads(line)
            main_totals[stem(r["file"])] = amount((r.get("receipt") or {}).get("total"))
        rows = []
        for s, path in training_images(images, held):
            want = amount(json.load(open(os.path.join(images, s + ".json"))).get("total"))
            if want is None:
                continue
            got = main_totals.get(s)
            outcome = "none" if got is None else ("right" if got == want else "wrong")
            rows.append((s, path, want, outcome))
        cases[label] = rows

    paths = {
        label: [path for _, path, _, outcome in rows if not (args.only_misses and outcome == "right")]
        for label, rows in cases.items()
    }
    read_variants(args.work, paths, variants, args.jobs, progress=True)

    thresholds = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9]
    for label, rows in cases.items():
        outcomes = collections.Counter(o for _, _, _, o in rows)
        print(f"\n## {label}: {len(rows)} receipts; main right {outcomes['right']}, wrong {outcomes['wrong']}, "
              f"no total {outcomes['none']}")
        print("| variant | CPU s mean | no total: found / right / wrong | wrong: found / right / other | "
              "right: found / kept / changed / none | gated on no total: net |")
        print("|---|---|---|---|---|---|")
        for variant in variants:
            folder = os.path.join(args.work, label, variant)
            got = extract(args.snapsort, folder)
            cpu = [float(open(os.path.join(folder, f)).read()) for f in os.listdir(folder) if f.endswith(".cpu")]
            c = collections.Counter()
            gated = collections.Counter()
            for s, _, want, outcome in rows:
                if s not in got:
                    continue
                total, conf, text = got[s]
                c[outcome, "found"] += labelled(text, want)
                verdict = "none" if total is None else ("right" if total == want else "wrong")
                c[outcome, verdict] += 1
                if outcome == "none" and total is not None:
                    for t in thresholds:
                        if (conf or 0) >= t:
                            gated[t, verdict] += 1
                if args.list and outcome != "right" and verdict == "right":
                    print(f"  {variant} gains {s}")
                if args.list and outcome == "none" and verdict == "wrong":
                    print(f"  {variant} wrong on {s}: {total} for {want}")
            n = lambda o: outcomes[o] if not args.only_misses or o != "right" else 0  # noqa: E731
            print(f"| {variant} | {sum(cpu) / max(1, len(cpu)):.2f} | "
                  f"{c['none', 'found']} / {c['none', 'right']} / {c['none', 'wrong']} of {n('none')} | "
                  f"{c['wrong', 'found']} / {c['wrong', 'right']} / {c['wrong', 'wrong']} of {n('wrong')} | "
                  f"{c['right', 'found']} / {c['right', 'right']} / {c['right', 'wrong']} / {c['right', 'none']} "
                  f"of {n('right')} | {c['none', 'right'] - c['none', 'wrong']:+d} |")
            if args.gate:
                print("|  | " + ", ".join(
                    f"conf ≥ {t}: +{gated[t, 'right']} −{gated[t, 'wrong']}" for t in thresholds) + " | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
