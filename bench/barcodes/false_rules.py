#!/usr/bin/env python3
"""What candidate confirmation rules would cost and gain on a false_eval.sh run (training data only):
for each rule, the reported linear codes it would withdraw that are right (lost exact reads) and
that are false (false codes closed). Offline: it reads the records and the barcode trace and does
not replay the scan (a withdrawn code could let a later pass read another), so a rule that looks
worth it here is then measured with the product.

    false_rules.py CORPUS RUN_DIR [RUN_DIR ...]     (RUN_DIR: false_eval.sh's OUTDIR/PRESET)

Rules (each withdraws a code confirmed by one library in two passes, never one both libraries or
its error correction confirmed):
  resampled-only   every read of it was on an enlarged, reduced, squeezed or region copy
  module<M         an EAN/UPC whose modules are narrower than M px in the image (quad length over
                   95, 67 or 51 modules)
  upce-one-library a code reported as UPC-E (zxing's; zbar reports a UPC-E as its UPC-A expansion,
                   which this rule cannot tell from a UPC-A)
  zbar-one-line    zbar's record is located by a single point (one scan line decoded it)
"""
import json
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import false_codes as F  # noqa: E402

MODULES = {"ean13": 95, "upca": 95, "ean8": 67, "upce": 51}
RESAMPLED = ("enlarged", "reduced", "squeezed", "region")


def module_px(code):
    q = code.get("quad")
    if not q or code["symbology"] not in MODULES:
        return None
    length = max(math.dist(q[i], q[(i + 1) % 4]) for i in range(4))
    return length / MODULES[code["symbology"]]


def one_point(code):
    q = code.get("quad") or []
    return bool(q) and max(max(p[0] for p in q) - min(p[0] for p in q), max(p[1] for p in q) - min(p[1] for p in q)) < 2


RULES = {
    "resampled-only": lambda c, t: all(r.split("/")[1].startswith(RESAMPLED) for r in t["reads"]),
    "module<1.2": lambda c, t: (module_px(c) or 99) < 1.2,
    "module<1.5": lambda c, t: (module_px(c) or 99) < 1.5,
    "upce-one-library": lambda c, t: c["symbology"] == "upce",
    "zbar-one-line": lambda c, t: c.get("decoder") == "zbar" and one_point(c),
}


def main():
    corpus, runs = sys.argv[1], sys.argv[2:]
    table = defaultdict(lambda: [0, 0])
    examples = defaultdict(list)
    for run in runs:
        trace = F.load_trace(run + ".trace")
        with open(os.path.join(run, "records.jsonl"), encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        for r in records:
            truth_path = os.path.join(corpus, os.path.splitext(r["file"])[0] + ".json")
            if not os.path.exists(truth_path):
                continue
            with open(truth_path, encoding="utf-8") as f:
                truth = json.load(f)
            _, false = F.score(truth, r)
            for c in (r.get("card") or {}).get("barcodes") or []:
                match = [t for t in trace.get(r["file"], []) if t["value"] == c["value"] and t["symbology"] == c["symbology"]]
                if not match or not match[0]["confirmation"].startswith("one-library"):
                    continue
                is_false = any(c is x for x in false)
                for name, rule in RULES.items():
                    if rule(c, match[0]):
                        table[(os.path.basename(run), name)][1 if is_false else 0] += 1
                        examples[name].append((os.path.basename(run), r["file"], c["value"], "false" if is_false else "right"))
    print("| run | rule | right reads withdrawn | false codes withdrawn |\n|---|---|---:|---:|")
    for (run, name), (right, false) in sorted(table.items()):
        print(f"| {run} | {name} | {right} | {false} |")
    for name, rows in examples.items():
        print(f"\n{name}: " + "; ".join(f"{a} {b} {c} ({d})" for a, b, c, d in rows))


if __name__ == "__main__":
    main()
