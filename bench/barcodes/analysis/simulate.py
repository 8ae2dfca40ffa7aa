#!/usr/bin/env python3
"""Cascades of passes (preparation + reader, from results/preps.jsonl) simulated per image under two
acceptance rules, on shared/data/barcodes and samples/negatives:
  first   the first pass that reads anything ends the scan; its codes are reported
  confirm a 2-D read (QR, Data Matrix, Aztec, PDF417: Reed-Solomon protected) is reported at once; a 1-D read
          only once two different passes (another preparation or the other library) returned the same
          code; the scan ends at the first confirmed code; unconfirmed 1-D reads are dropped at the end
  2lib    a 1-D read is confirmed at once only when both libraries (zxing-cpp 1.4, zbar) returned it; at the
          end of the cascade a 1-D code read by two passes of one library is reported when it is the only
          1-D code read in the image (no contradiction)
  confirm+ as confirm, but a 1-D read that stays unconfirmed at the end is reported when no other 1-D code
          was read anywhere in the cascade (a lone read with no contradiction)
CPU ms = the passes actually run, measured per image in run_preps.py. Writes nothing; prints a table."""
import collections, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, gtin13, LINEAR

R = os.path.join(HERE, "results")
from tables_io import load_preps
rows = load_preps()
pf = {r["file"]: r for r in json.load(open(os.path.join(R, "per_file.json")))}
grid = collections.defaultdict(dict)
for x in rows:
    grid[x["file"]][(x["prep"], x["reader"])] = x
MATRIX = {"QRCode", "DataMatrix", "Aztec", "PDF417", "MicroQRCode"}


def codes(f, key):
    x = grid[f].get(key)
    if x is None:
        return [], 0.0
    fmt = pf[f]["format"] if f in pf else None
    out = []
    if x["ok"]:
        out.append(("EXPECTED", fmt))
    for o in x["other"]:
        ofmt, val = o.split(":", 1)
        g = gtin13(ofmt, val)
        out.append((("gtin", g) if g else (ofmt, val), ofmt))
    return out, x["prep_ms"] + x["read_ms"]


def run(f, cascade, rule):
    ms = 0.0
    seen = collections.defaultdict(set)  # code id -> passes
    fmts = {}
    for key in cascade:
        got, t = codes(f, key)
        ms += t
        if not got:
            continue
        if rule == "first":
            return {c for c, _ in got}, ms
        for c, fm in got:
            seen[c].add(key)
            fmts[c] = fm
        if rule == "2lib":
            done = {c for c in seen if fmts[c] in MATRIX or len({k[1].rstrip("g") for k in seen[c]}) >= 2}
        else:
            done = {c for c in seen if fmts[c] in MATRIX or len(seen[c]) >= 2}
        if done:
            return done, ms
    linear = [c for c in seen if fmts[c] not in MATRIX]
    if rule == "confirm+" and len(linear) == 1:
        return set(linear), ms
    if rule == "2lib" and len(linear) == 1 and len(seen[linear[0]]) >= 2:
        return set(linear), ms
    return set(), ms


BASE = [("plain", "zx14"), ("invert", "zx14"), ("plain", "zbar")]
ADD = [("sharpen", "zx14"), ("gauss1", "zx14g"), ("auto_deskew", "zx14"), ("up1.5_cubic", "zx14"),
       ("auto_rectify", "zx14"), ("clahe", "zbar"), ("auto_deskew+up2_cubic", "zx14")]
CONFIRMERS = [("plain", "zx14g"), ("clahe", "zx14"), ("up2_cubic", "zx14"), ("gamma2", "zx14g"), ("rot90", "zx14"),
              ("sharpen", "zbar"), ("up2_cubic", "zbar")]
CASCADES = {
    "base (plain + inverted 1.4, zbar)": BASE,
    "base + 7 greedy passes": BASE + ADD,
    "base + 7 greedy + 7 confirmers": BASE + ADD + CONFIRMERS,
}


def main():
    files = sorted(grid)
    print("| cascade | rule | exact | wrong code (with or without the right one) | nothing | mean CPU ms | p95 / max CPU ms | negatives with a code |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    detail = {}
    for name, cascade in CASCADES.items():
        for rule in ("first", "confirm", "confirm+", "2lib"):
            exact = wrong = none = neg = 0
            ms_all = []
            wrong_files = []
            for f in files:
                got, ms = run(f, cascade, rule)
                if f.startswith("negatives/"):
                    neg += bool(got)
                    continue
                ms_all.append(ms)
                exact += "EXPECTED" in got
                bad = got - {"EXPECTED"}
                # an unexpected 2-D or non-retail code on a multi-code image is not a misread; count retail/1-D only
                if bad:
                    wrong += 1
                    wrong_files.append(f"{f} {sorted(map(str, bad))}")
                none += not got
            detail[(name, rule)] = wrong_files
            srt = sorted(ms_all)
            print(f"| {name} | {rule} | {exact} | {wrong} | {none} | {sum(ms_all) / len(ms_all):.1f} | "
                  f"{srt[int(0.95 * len(srt))]:.0f} / {srt[-1]:.0f} | {neg} |")
    print()
    for (name, rule), w in detail.items():
        if w:
            print(f"- wrong with {name} / {rule}: " + "; ".join(w))


if __name__ == "__main__":
    main()
