"""Sorts the misses of a snapsort run over the false-code training corpus (FALSE.md) by cause, per
symbology and variant (issue #26 item 2: which misses a locator of our own could still rescue).

    classify_corpus_misses.py ROOT RECORDS.jsonl [--md OUT.md]

ROOT is the corpus folder given to `snapsort run` (bench/work/false/train); a miss is an image whose
card code is not its truth's (false_codes.score). Cut and occluded variants are counted but not
classified: their code is damaged by design. Each other miss is decoded on the plain image:

- `1.4 reads`: zxing-cpp 1.4 with tryHarder + tryRotate reads the truth (the run's passes lost it);
- `1.4 error`: 1.4 with returnErrors finds a symbol of the truth's format but cannot decode it;
- `3.x reads` / `3.x error`: only the 3.x wheel reads it, or finds it with an error;
- `not found`: nothing locates it.

For 2-D misses that 3.x locates, `rectified` says whether 1.4 reads the symbol once 3.x's quad is
warped upright (4 and 6 px a module guessed from the quad): an oracle upper bound for a rectifying
rescue that finds the symbol's corners itself.
"""
import argparse
import base64
import json
import os
import sys
from collections import Counter, defaultdict

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "analysis"))
import common  # noqa: E402
from false_codes import score  # noqa: E402

DAMAGED_BY_DESIGN = {"cut", "occlude"}
TWO_D = {"qrcode", "qr", "datamatrix", "aztec", "pdf417"}
FORMAT = {"qrcode": "QRCode", "qr": "QRCode", "i25": "ITF", "ean8": "EAN8", "datamatrix": "DataMatrix", "aztec": "Aztec", "pdf417": "PDF417",
          "ean13": "EAN13", "upca": "UPCA", "upce": "UPCE", "code128": "Code128", "code39": "Code39",
          "itf": "ITF"}


def truth_matches(code, result):
    if result.get("err"):
        return False
    if code.get("bytes_b64"):
        raw = base64.b64decode(code["bytes_b64"])
        if result["raw"] == raw or result["text"].encode("utf-8", "surrogatepass") == raw:
            return True
    want = code.get("value")
    if want is None:
        return False
    if result["text"] == want:
        return True
    g = common.gtin13(result["fmt"], result["text"])
    return g is not None and g == common.gtin13(FORMAT.get(code["symbology"], ""), want)


def same_format(code, result):
    fmt = FORMAT.get(code["symbology"])
    retail = {"EAN13", "UPCA", "UPCE"}
    return result["fmt"] == fmt or (fmt in retail and result["fmt"] in retail)


def rectified_reads(gray, code, quad):
    side = max(np.linalg.norm(np.subtract(quad[i], quad[(i + 1) % 4])) for i in range(4))
    for modules in (21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 10, 12, 14, 16, 18, 20, 22, 24, 26):
        if side / modules < 1.0:
            continue
        for ppm in (4, 6):
            size = modules * ppm
            quiet = 4 * ppm
            dst = np.float32([[quiet, quiet], [quiet + size, quiet], [quiet + size, quiet + size],
                              [quiet, quiet + size]])
            m = cv2.getPerspectiveTransform(np.float32(quad), dst)
            warp = cv2.warpPerspective(gray, m, (size + 2 * quiet,) * 2, flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
            if any(truth_matches(code, r) for r in common.zx14(warp)):
                return True
    return False


def classify(gray, code):
    r14 = common.zx14(gray, errors=True)
    if any(truth_matches(code, r) for r in r14):
        return "1.4 reads", None
    r3 = common.zx3(gray, errors=True)
    located = [r for r in r3 if same_format(code, r)]
    rect = None
    if code["symbology"] in TWO_D and located:
        rect = rectified_reads(gray, code, located[0]["quad"])
    if any(truth_matches(code, r) for r in r3):
        return "3.x reads", rect
    if any(r.get("err") and same_format(code, r) for r in r14):
        return "1.4 error", rect
    if located:
        return "3.x error", rect
    return "not found", None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root")
    ap.add_argument("records")
    ap.add_argument("--md")
    ap.add_argument("--list")
    args = ap.parse_args()
    table = defaultdict(Counter)
    listed = []
    with open(args.records, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    for record in sorted(records, key=lambda r: r["file"]):
        rel = record["file"]
        truth_path = os.path.join(args.root, os.path.splitext(rel)[0] + ".json")
        if not os.path.exists(truth_path):
            continue
        with open(truth_path, encoding="utf-8") as f:
            truth = json.load(f)
        code = truth.get("barcode")
        if not code:
            continue
        exact, _ = score(truth, record)
        variant = truth.get("variant") or os.path.basename(os.path.dirname(rel))
        key = (code["symbology"], variant)
        table[key]["images"] += 1
        if exact:
            table[key]["exact"] += 1
            continue
        if variant in DAMAGED_BY_DESIGN:
            table[key]["damaged by design"] += 1
            continue
        gray = common.load_gray(os.path.join(args.root, rel))
        cause, rect = classify(gray, code)
        table[key][cause] += 1
        if rect:
            table[key]["rectified"] += 1
        listed.append((rel, code["symbology"], variant, cause, rect))
    write(table, listed, args)


def write(table, listed, args):
    causes = ["1.4 reads", "1.4 error", "3.x reads", "3.x error", "not found", "damaged by design", "rectified"]
    lines = ["| symbology | variant | images | exact | " + " | ".join(causes) + " |",
             "|---|---|" + "---:|" * (len(causes) + 2)]
    totals = defaultdict(Counter)
    for (sym, variant), c in sorted(table.items()):
        lines.append(f"| {sym} | {variant} | {c['images']} | {c['exact']} | "
                     + " | ".join(str(c[k]) for k in causes) + " |")
        totals[sym].update(c)
    for sym, c in sorted(totals.items()):
        lines.append(f"| **{sym}** | all | {c['images']} | {c['exact']} | "
                     + " | ".join(str(c[k]) for k in causes) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write(text)
    if args.list:
        with open(args.list, "w", encoding="utf-8") as f:
            for row in listed:
                f.write("\t".join(str(x) for x in row) + "\n")


if __name__ == "__main__":
    main()
