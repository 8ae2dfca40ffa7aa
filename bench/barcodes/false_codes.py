#!/usr/bin/env python3
"""Counts exact and false codes of a snapsort run over images with truth JSON beside them
(bench/gen/cards.py renders, bench/barcodes/degrade.py copies), and lists every false code with
the passes that read it and how it was confirmed (issue #26 item 1).

    false_codes.py ROOT RECORDS.jsonl [--trace TRACE.log] [--label L] [--json OUT.json]

ROOT is the folder given to `snapsort run`; each image's truth is IMAGE_STEM.json beside it.
TRACE is the run's stderr with SNAPSORT_BARCODE_TRACE=1: one line per image, every candidate
read (confirmed or not) with its decoders and passes.

- exact: the card's code (the one marked primary, or the only one) is the truth's code (value,
  GTIN, Code 32 pharmacode reading, UPC-A as EAN-13 with a leading 0, or bytes).
- false: a reported code that is neither the truth's nor another visible card's (truth "others"),
  except a second code of another symbology that is not the card's when the truth's code was read
  too (bench/barcodes/score_split.py's rule); on an image with no code every code is false.
"""
import argparse
import base64
import json
import os
import sys
from collections import defaultdict


def forms(code):
    if not code:
        return set()
    out = set()
    if code.get("value") is not None:
        v = code["value"]
        out.add(v)
        if code["symbology"] == "upca":
            out.add("0" + v if len(v) == 12 else v)
            out.add(v[1:] if len(v) == 13 and v.startswith("0") else v)
        if code["symbology"] == "ean13" and v.startswith("0"):
            out.add(v[1:])
    if code.get("bytes_b64"):
        out.add("b64:" + code["bytes_b64"])
        try:
            out.add(base64.b64decode(code["bytes_b64"]).decode("utf-8"))
        except UnicodeDecodeError:
            pass
    return out


def read_forms(read):
    out = {read.get("value"), read.get("gtin"), read.get("pharmacode")}
    if read.get("bytes"):
        out.add("b64:" + read["bytes"])
    return {f for f in out if f}


def card_code(codes):
    primary = [c for c in codes if c.get("primary")]
    return primary[0] if primary else (codes[0] if len(codes) == 1 else None)


def score(truth, record):
    codes = ((record or {}).get("card") or {}).get("barcodes") or []
    want = forms(truth.get("barcode"))
    others = set()
    for o in truth.get("others") or []:
        others |= forms(o.get("barcode"))
    card = card_code(codes)
    exact = card is not None and bool(read_forms(card) & want)
    read_truth = [c for c in codes if read_forms(c) & want]
    truth_symbology = read_truth[0]["symbology"] if read_truth else None
    false = [c for c in codes if not (read_forms(c) & (want | others))
             and (c is card or truth_symbology is None or c["symbology"] == truth_symbology)]
    return exact, false


def load_trace(path):
    by_item = {}
    if not path:
        return by_item
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith('{"barcode_trace"'):
                t = json.loads(line)["barcode_trace"]
                by_item[t["item"]] = t["candidates"]
    return by_item


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root")
    ap.add_argument("records")
    ap.add_argument("--trace")
    ap.add_argument("--label", default="")
    ap.add_argument("--json")
    args = ap.parse_args()
    records = {}
    with open(args.records, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                records[r["file"]] = r
    trace = load_trace(args.trace)
    groups = defaultdict(lambda: defaultdict(int))
    listed = []
    for rel, record in sorted(records.items()):
        truth_path = os.path.join(args.root, os.path.splitext(rel)[0] + ".json")
        if not os.path.exists(truth_path):
            continue
        with open(truth_path, encoding="utf-8") as f:
            truth = json.load(f)
        group = os.path.dirname(rel) or "."
        exact, false = score(truth, record)
        for key in (group, "all"):
            g = groups[key]
            g["images"] += 1
            g["with_code"] += truth.get("barcode") is not None
            g["exact"] += exact
            g["false_images"] += bool(false)
            g["false_codes"] += len(false)
        for c in false:
            candidates = trace.get(rel, [])
            match = [t for t in candidates if t["value"] == c["value"] and t["symbology"] == c["symbology"]]
            listed.append({
                "file": rel, "truth": truth.get("barcode"), "symbology": c["symbology"], "value": c["value"],
                "primary": c.get("primary"), "decoder": c.get("decoder"),
                "reads": match[0]["reads"] if match else None, "confirmation": match[0]["confirmation"] if match else None,
                "codes_on_image": len(((record.get("card") or {}).get("barcodes") or [])),
                "candidates": [(t["symbology"], t["value"], t["confirmation"]) for t in candidates],
            })
    print(f"### {args.label}\n\n| group | images | with code | exact | images with a false code | false codes |\n|---|---:|---:|---:|---:|---:|")
    for key in sorted(groups, key=lambda k: (k == "all", k)):
        g = groups[key]
        print(f"| {key} | {g['images']} | {g['with_code']} | {g['exact']} | {g['false_images']} | {g['false_codes']} |")
    print()
    for item in listed:
        t = item["truth"]
        truth = f"{t['symbology']} {t.get('value') or t.get('bytes_b64')}" if t else "no code"
        print(f"- `{item['file']}`: {item['symbology']} `{item['value']}` (truth {truth}; primary {item['primary']}, "
              f"{item['codes_on_image']} codes) confirmation {item['confirmation']}; reads {item['reads']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"groups": groups, "false": listed}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    sys.exit(main())
