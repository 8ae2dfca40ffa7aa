#!/usr/bin/env python3
"""The chosen merchant row read again by its box, on TRAINING receipts only (issue #23).

    merchant_reread.py read RECORDS.jsonl CACHE.json [--data ../shared/data/receipts]
    merchant_reread.py score RECORDS.jsonl CACHE.json --snapsort BIN [--work DIR] [--show]

`read`: for each SROIE receipt of folds 0-3 (folds.json; fold 4 and the German 14 are never
read) whose merchant was taken from a row of the page's text (`fields.merchant.line`), the page
is rebuilt as the receipt stage read it (the image warped from `receipt.quad` onto
`text_page`'s size, grey) and the row is cut out by its box with a margin and read again by
tesseract (`eng`, LSTM) several ways: as it is (psm 7), at 3/4 and 3/2 of the scale, binarised by
Otsu and by Sauvola. Each reading's text and mean
word confidence go to CACHE (the OCR is the slow part; `score` only reads it).

`score`: for each rule the merchant row's text (and its confidence) is replaced in a copy of the
records and the extractor is replayed on them (`snapsort receipt-text --records`), so that the
merchant is chosen, trimmed and joined as the product does; merchants right (score.py's rule)
against the label before → after, gained, lost. Rules:
  VARIANT>m     that reading, where its confidence beats the row's by more than m points;
  vote2         the text two readings give alike (letters and digits), not the page's;
  vote2>m       vote2 where the agreeing readings' mean confidence beats the row's by m.
The row's own confidence in the record is the page reading's mean word confidence.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

import cv2
import numpy as np
import pytesseract

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold, merchant_ok, stem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("crop", "small", "large", "otsu", "sauvola")


def training_stems():
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))
    return {s: v for s, v in split["sroie"].items() if v["fold"] in (0, 1, 2, 3)}


def records(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if line.strip():
            out.append(json.loads(line))
    return out


def page_of(record, image_path):
    """The grey page the stage read: the image's quad warped onto text_page's size."""
    grey = cv2.imread(image_path, cv2.IMREAD_GRAYSCALE)
    page = record["receipt"]["text_page"]
    w, h = page["width"], page["height"]
    quad = np.float32(record["receipt"].get("quad") or page["quad"])
    rect = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.warpPerspective(grey, cv2.getPerspectiveTransform(quad, rect), (w, h), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)


def sauvola(img, radius, k=0.3, r=128.0):
    f = img.astype(np.float64)
    size = 2 * radius + 1
    mean = cv2.boxFilter(f, -1, (size, size))
    sq = cv2.boxFilter(f * f, -1, (size, size))
    std = np.sqrt(np.maximum(sq - mean * mean, 0))
    return np.where(f > mean * (1 + k * (std / r - 1)), 255, 0).astype(np.uint8)


def crop(page, box, pad_share):
    x, y, bw, bh = box
    pad = bh * pad_share
    x0, y0 = max(0, int(x - 2 * pad)), max(0, int(y - pad))
    x1, y1 = min(page.shape[1], int(x + bw + 2 * pad)), min(page.shape[0], int(y + bh + pad))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return page[y0:y1, x0:x1]


def variants(page, box):
    c = crop(page, box, 0.4)
    if c is None:
        return {}
    h = box[3]
    out = {
        "crop": (c, 7),
        "small": (cv2.resize(c, (max(8, c.shape[1] * 3 // 4), max(8, c.shape[0] * 3 // 4)),
                             interpolation=cv2.INTER_AREA), 7),
        "large": (cv2.resize(c, (c.shape[1] * 3 // 2, c.shape[0] * 3 // 2), interpolation=cv2.INTER_CUBIC), 7),
        "otsu": (cv2.threshold(c, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1], 7),
        "sauvola": (sauvola(c, max(8, int(h * 0.6))), 7),
    }
    return out


def read(image, psm):
    data = pytesseract.image_to_data(image, lang="eng", config=f"--oem 1 --psm {psm}",
                                     output_type=pytesseract.Output.DICT)
    words = [(t, float(c)) for t, c in zip(data["text"], data["conf"]) if t.strip() and float(c) >= 0]
    if not words:
        return "", 0.0
    return " ".join(t for t, _ in words), sum(c for _, c in words) / len(words)


def cmd_read(args):
    os.environ["OMP_THREAD_LIMIT"] = "1"
    train = training_stems()
    cache = json.load(open(args.cache)) if os.path.exists(args.cache) else {}
    recs = records(args.records)
    if args.first:
        # The rows to read first (e.g. the misses), so that a partial cache says something.
        first = set(open(args.first).read().split())
        recs.sort(key=lambda r: stem(r["file"]) not in first)
    for r in recs:
        s = stem(r["file"])
        if s not in train or s in cache:
            continue
        rc = r.get("receipt") or {}
        field = (rc.get("fields") or {}).get("merchant")
        if not field or field.get("line") is None or not rc.get("text"):
            continue
        line = rc["text"][field["line"]]
        page = page_of(r, os.path.join(args.data, train[s]["folder"], s + ".jpg"))
        out = {"line": field["line"], "text": line["text"], "confidence": line["confidence"]}
        for name, (image, psm) in variants(page, line["box"]).items():
            out[name] = read(image, psm)
        cache[s] = out
        print(s, repr(line["text"]), {k: v[0] for k, v in out.items() if k in VARIANTS}, file=sys.stderr)
        json.dump(cache, open(args.cache, "w"), indent=0)


def squeeze(text):
    return fold(text).replace(" ", "")


def choice(entry, rule):
    """The text the rule puts in the row's place (None: the row is kept)."""
    base = entry["confidence"]
    if rule.startswith("vote2"):
        margin = float(rule.split(">")[1]) if ">" in rule else None
        groups = collections.defaultdict(list)
        for name in VARIANTS:
            if name in entry and entry[name][0]:
                groups[squeeze(entry[name][0])].append(entry[name])
        best = max(groups.values(), key=len, default=[])
        if len(best) < 2 or squeeze(best[0][0]) == squeeze(entry["text"]):
            return None
        if margin is not None and sum(c for _, c in best) / len(best) <= base + margin:
            return None
        return max(best, key=lambda v: v[1])[0]
    name, margin = rule.split(">")
    if name not in entry or not entry[name][0]:
        return None
    text, conf = entry[name]
    return text if conf > base + float(margin) else None


def replay(binary, recs, path):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    out = subprocess.run([binary, "receipt-text", "--records", path], capture_output=True, text=True,
                         check=True).stdout
    return {stem(json.loads(l)["file"]): (json.loads(l).get("receipt") or {}).get("merchant")
            for l in out.splitlines() if l.strip()}


def cmd_score(args):
    train = training_stems()
    truth = {s: json.load(open(os.path.join(args.data, v["folder"], s + ".json"), encoding="utf-8"))
             for s, v in train.items()}
    cache = json.load(open(args.cache))
    recs = [r for r in records(args.records) if stem(r["file"]) in train]
    os.makedirs(args.work, exist_ok=True)
    base = replay(args.snapsort, recs, os.path.join(args.work, "base.jsonl"))
    ok = {s: merchant_ok(truth[s].get("merchant"), m) for s, m in base.items()}
    print(f"training receipts {len(recs)}, merchant right {sum(ok.values())}, rows re-read {len(cache)}")
    # How often a reading alone reads the label (the row as the whole answer), against the row.
    print("\n| reading | row reads the label (alone) | of rows the page read right | of rows it read wrong |")
    print("|---|---|---|---|")
    for name in ("page",) + VARIANTS:
        hit = right = wrong = 0
        for s, e in cache.items():
            text = e["text"] if name == "page" else (e.get(name) or ("", 0))[0]
            h = merchant_ok(truth[s].get("merchant"), text)
            hit += h
            right += h and merchant_ok(truth[s].get("merchant"), e["text"])
            wrong += h and not merchant_ok(truth[s].get("merchant"), e["text"])
        print(f"| {name} | {hit} | {right} | {wrong} |")
    rules = args.rules.split(",")
    print("\n| rule | rows changed | merchant right | gained | lost |")
    print("|---|---|---|---|---|")
    for rule in rules:
        changed = []
        copy = []
        for r in recs:
            s = stem(r["file"])
            e = cache.get(s)
            text = choice(e, rule) if e else None
            if text is not None and text != e["text"]:
                r = json.loads(json.dumps(r))
                r["receipt"]["text"][e["line"]]["text"] = text
                changed.append(s)
                copy.append(r)
        # The extractor reads each receipt alone: only the changed ones are replayed.
        after = dict(base)
        if copy:
            after.update(replay(args.snapsort, copy, os.path.join(args.work, "rule.jsonl")))
        now = {s: merchant_ok(truth[s].get("merchant"), m) for s, m in after.items()}
        gained = [s for s in now if now[s] and not ok.get(s)]
        lost = [s for s in now if ok.get(s) and not now[s]]
        print(f"| {rule} | {len(changed)} | {sum(now.values())} | {len(gained)} | {len(lost)} |", flush=True)
        if args.show:
            for s in gained + lost:
                print(f"    {'+' if s in gained else '-'} {s}: {base.get(s)!r} → {after.get(s)!r}"
                      f" (label {truth[s].get('merchant')!r})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=("read", "score"))
    p.add_argument("records")
    p.add_argument("cache")
    p.add_argument("--data", default=os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts"))
    p.add_argument("--snapsort", default=".build/release/snapsort")
    p.add_argument("--work", default="bench/work/merchant-reread")
    p.add_argument("--show", action="store_true")
    p.add_argument("--rules", default="crop>0,small>0,large>0,otsu>0,sauvola>0,crop>10,vote2,vote2>0",
                   help="`score`: the rules replayed, comma-separated")
    p.add_argument("--first", help="`read`: a file of stems to read before the others")
    args = p.parse_args()
    (cmd_read if args.mode == "read" else cmd_score)(args)


if __name__ == "__main__":
    main()
