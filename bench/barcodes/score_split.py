"""Scores a snapsort run over ../shared/data/barcodes per folder and per split (split.json):
exact, missed, false; and, with --classify, says for every missed file why it was missed.

    score_split.py RECORDS.jsonl [--run-json run.json] [--classify] [--negatives NEG_RECORDS.jsonl]

- exact: the record's card code (the one marked primary, or the only one) is the expected text
  (value, GTIN or Code 32 pharmacode reading; bytes for binary payloads).
- false: a reported code that is not the expected one, except a second code of another symbology
  that is not the card's (the image may hold it too); on negatives every code is false.
- missed: no exact and no false.
Miss classes (--classify, uses analysis/common.py's decoders on the plain image):
  read-unconfirmed   the product read the expected code but could not confirm it (note in record)
  found-not-decoded  zxing-cpp 1.4 (returnErrors) or the 3.x wheel reports a symbol of the format
                     that failed its checks, or 3.x reads it (1.4's detector or sampling misses it)
  not-found          no decoder locates a symbol of the format on the plain image
Needs the venv (numpy, Pillow, pyzbar, zxingcpp) and libzx14.so for --classify.
"""
import argparse, base64, json, os, sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "analysis"))
DATA = os.environ.get("BARCODE_DATA", os.path.join(HERE, "../../../shared/data/barcodes"))


def expected(file):
    stem = os.path.join(DATA, os.path.splitext(file)[0])
    if os.path.exists(stem + ".txt"):
        return open(stem + ".txt", encoding="utf-8", newline="").read(), None
    return None, open(stem + ".bin", "rb").read()


def matches(code, text, raw):
    if raw is not None:
        return code.get("bytes") == base64.b64encode(raw).decode() or code["value"].encode() == raw
    return code["value"] == text or code.get("gtin") == text or code.get("pharmacode") == text


def card_code(codes):
    primary = [c for c in codes if c.get("primary")]
    return primary[0] if primary else (codes[0] if len(codes) == 1 else None)


def score(record):
    codes = (record.get("card") or {}).get("barcodes") or []
    text, raw = expected(record["file"])
    card = card_code(codes)
    ok = card is not None and matches(card, text, raw)
    expected_symbology = None
    for c in codes:
        if matches(c, text, raw):
            expected_symbology = c["symbology"]
    false = [c for c in codes if not matches(c, text, raw)
             and (c is card or expected_symbology is None or c["symbology"] == expected_symbology)]
    return ok, false, codes


def classify(record, text, raw):
    import common as C
    for note in record.get("notes") or []:
        if note.startswith("unconfirmed read not reported") and text and text in note:
            return "read-unconfirmed"
    path = os.path.join(DATA, record["file"])
    fmt = C.FOLDER_FORMAT[record["file"].split("/")[0].rsplit("-", 1)[0]]
    gray = C.load_gray(path)
    same = lambda r: r["fmt"] == fmt or (fmt in ("UPCA", "UPCE") and r["fmt"] in ("EAN13", "UPCA", "UPCE"))
    for image in (gray, 255 - gray):
        if any(same(r) and r["err"] for r in C.zx14(image, errors=True)):
            return "found-not-decoded (1.4 checks fail)"
    if any(same(r) for r in C.zx3(gray, errors=True)):
        return "found-not-decoded (3.x reads or locates it, 1.4 does not)"
    return "not-found"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("records")
    ap.add_argument("--run-json")
    ap.add_argument("--classify", action="store_true")
    ap.add_argument("--negatives")
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    split = json.load(open(os.path.join(HERE, "split.json")))
    part = {f: "train" for f in split["train"]} | {f: "held-out" for f in split["held_out"]}
    per = defaultdict(lambda: [0, 0, 0, 0])  # images, exact, missed, false
    misses = []
    for line in open(a.records):
        r = json.loads(line)
        folder = r["file"].split("/")[0]
        ok, false, codes = score(r)
        row = per[folder]
        row[0] += 1
        row[1] += ok
        row[3] += len(false) > 0
        row[2] += not ok and not false
        if not ok:
            misses.append((r, false, codes))
    print(f"## {a.label} exact / missed / false per folder\n")
    print("| folder | split | images | exact | missed | false |\n|---|---|---:|---:|---:|---:|")
    totals = defaultdict(lambda: [0, 0, 0, 0])
    for folder in sorted(per):
        row = per[folder]
        print(f"| {folder} | {part.get(folder, '?')} | " + " | ".join(map(str, row)) + " |")
        for key in (part.get(folder, "?"), "all"):
            totals[key] = [x + y for x, y in zip(totals[key], row)]
    for key in ("train", "held-out", "all"):
        print(f"| **{key}** | | " + " | ".join(f"**{x}**" for x in totals[key]) + " |")
    if a.run_json:
        run = json.load(open(a.run_json))
        stage = run["stages"].get("barcode", {})
        print(f"\nbarcode stage p50 {stage.get('p50_ms')} ms, p95 {stage.get('p95_ms')} ms; "
              f"{run['counts']['inputs'] / run['wall_seconds']:.1f} images/s wall")
    if a.negatives:
        neg = [json.loads(l) for l in open(a.negatives)]
        bad = [(r["file"], c["value"]) for r in neg for c in (r.get("card") or {}).get("barcodes") or []]
        print(f"\nnegatives: {len(neg)} images, {len(bad)} codes (each false) {bad}")
    print("\n### misses and false reads\n")
    for r, false, codes in misses:
        text, raw = expected(r["file"])
        why = "false: " + ", ".join(f"{c['symbology']} {c['value']} ({c.get('decoder')})" for c in false) if false \
            else (classify(r, text, raw) if a.classify else "missed")
        print(f"- `{r['file']}` ({part.get(r['file'].split('/')[0])}): {why}")


if __name__ == "__main__":
    main()
