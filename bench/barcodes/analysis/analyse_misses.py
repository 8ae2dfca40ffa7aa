#!/usr/bin/env python3
"""Per-file diagnosis of the images the snapsort binary misses or reads wrong on shared/data/barcodes.

For every image: what the product's records say (screenshots and default presets), what zxing-cpp 1.4
(Debian, the product's library), the zxing-cpp 3.x wheel and zbar read on the plain image, where the code
is (a locator quad: from a 3.x read, else a 3.x or 1.4 found-but-failed symbol, else a 3.x read of an
enlarged or sharpened copy), its size in pixels and modules, orientation, perspective, blur, and the
category of the miss:
  decoded-by-1.4-plain   the product's own library reads it as it is: the pipeline lost it (passes, order, crop)
  found-not-decoded-1.4  1.4 with returnErrors reports a symbol of the format that failed (format/checksum)
  found-not-decoded-3x   only 3.x's return_errors sees a failing symbol
  decoded-by-3x-only     1.4 sees nothing, 3.x reads it (3.x's stronger detector / sampling)
  not-found              nobody reports anything on the plain image
Writes results/per_file.json. Usage: analyse_misses.py [--all]
"""
import json, math, os, sys
import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
import preps as P

OUT = os.path.join(HERE, "results")


def modules_across(fmt, r3, text):
    """Modules along the code's width: 2-D from the 3.x read's version; 1-D from the symbology."""
    extra = {}
    if r3 is not None:
        try:
            extra = r3["obj"].extra or {}
        except Exception:
            extra = {}
    v = str(extra.get("Version", ""))
    if fmt == "QRCode" and v.isdigit():
        return 17 + 4 * int(v)
    if fmt == "DataMatrix" and "x" in v:
        return int(v.split("x")[1])  # columns (rows x cols)
    if fmt == "Aztec" and v.isdigit():
        layers = int(v)
        return 11 + 4 * layers if layers <= 4 else 15 + 4 * layers + 2 * ((layers - 1) // 15 + 1)
    if fmt == "PDF417":
        return None
    if fmt in ("EAN13", "UPCA"):
        return 95
    if fmt == "UPCE":
        return 51
    if fmt == "EAN8":
        return 67
    if fmt == "Code39":
        return 13 * (len(text) + 2) - 1 if text else None
    if fmt == "Code128":
        n = len(text) // 2 if text.isdigit() else len(text)
        return 11 * (n + 3) + 2 if text else None
    if fmt == "ITF":
        return 9 * len(text) + 9 if text else None
    return None


def side_lengths(q):
    return [math.dist(q[i], q[(i + 1) % 4]) for i in range(4)]


def geometry(g, quad, fmt, modules):
    if not quad:
        return {}
    s = side_lengths(quad)
    width = (s[0] + s[2]) / 2  # top and bottom
    height = (s[1] + s[3]) / 2
    ang = math.degrees(math.atan2(quad[1][1] - quad[0][1], quad[1][0] - quad[0][0]))
    out = {"code_w_px": round(width, 1), "code_h_px": round(height, 1), "angle_deg": round(ang, 1)}
    if fmt not in LINEAR and min(s) > 0:
        # opposite sides' ratio: 1.0 for a square-on view, >1.1 means visible perspective/foreshortening
        out["persp_ratio"] = round(max(s[0] / s[2], s[2] / s[0], s[1] / s[3], s[3] / s[1]), 2)
        out["aspect"] = round(width / height, 2) if height else None
    if modules:
        out["modules"] = modules
        out["module_px"] = round(width / modules, 2)
    c = P.crop(g, quad, 0.05, 2)
    if c is not None and c.size > 64:
        ew, contrast = P.blur_edge_width(c)
        out["edge_px"] = round(ew, 2)
        out["contrast"] = round(contrast)
        if modules:
            out["blur_per_module"] = round(ew / (width / modules), 2)
    return out


def first(results, pred):
    for r in results:
        if pred(r):
            return r
    return None


def main():
    everything = "--all" in sys.argv
    os.makedirs(OUT, exist_ok=True)
    recs = {p: snapsort_records(p) for p in ("screenshots", "default")}
    rows = []
    for s in samples():
        g = load_gray(s["path"])
        h, w = g.shape
        row = {"file": s["file"], "format": s["format"], "w": w, "h": h}
        for p in recs:
            bcs = recs[p].get(s["file"], [])
            row[f"snap_{p}"] = any(record_matches(s, b) for b in bcs)
            row[f"snap_{p}_other"] = [(b["symbology"], b["value"], b.get("decoder")) for b in bcs
                                      if not record_matches(s, b)]
        a14 = zx14(g)
        a14i = zx14(255 - g)
        e14 = zx14(g, errors=True, max_symbols=4) + zx14(255 - g, errors=True, max_symbols=4)
        r3 = zx3(g)
        e3 = zx3(g, errors=True)
        zb = zbar(g)
        row["zx14_plain"] = any_match(s, a14) or any_match(s, a14i)
        row["zx3_plain"] = any_match(s, r3)
        row["zbar_plain"] = any_match(s, zb)
        row["zx14_err"] = sorted({f"{r['fmt']}:{r['err']}" for r in e14 if r["err"]})
        row["zx3_err"] = sorted({f"{r['fmt']}:{r['err']}" for r in e3 if r["err"]})
        row["others"] = sorted({f"{r['dec']}:{r['fmt']}:{r['text'][:30]}" for r in a14 + a14i + r3 + zb
                                if not r["err"] and not matches(s, r)})
        missed = not (row["snap_screenshots"] and row["snap_default"]) or row["snap_screenshots_other"] or \
            row["snap_default_other"]
        row["missed"] = bool(missed)
        if not (missed or everything):
            rows.append(row)
            continue
        # locator
        loc, src, ref = None, None, None
        good3 = first(r3, lambda r: matches(s, r))
        if good3:
            loc, src, ref = good3["quad"], "zx3 read", good3
        else:
            fe3 = first(e3, lambda r: r["err"] and r["fmt"] != "NONE")
            fe14 = first(e14, lambda r: r["err"])
            if fe3:
                loc, src = fe3["quad"], f"zx3 error ({fe3['fmt']} {fe3['err']})"
            elif fe14:
                loc, src = fe14["quad"], f"zx14 error ({fe14['fmt']} {fe14['err']})"
            else:
                for name in ("up2_cubic", "sharpen", "up3_cubic", "invert", "otsu", "down0.5_area"):
                    x = P.PREPS[name](g, None)
                    rr = first(zx3(x, errors=True), lambda r: r["fmt"] != "NONE" and (r["err"] or matches(s, r)))
                    if rr:
                        f = {"up2_cubic": 2, "up3_cubic": 3, "down0.5_area": 0.5}.get(name, 1)
                        loc = [(p[0] / f, p[1] / f) for p in rr["quad"]]
                        src = f"zx3 on {name} ({'read' if not rr['err'] else rr['err']})"
                        ref = rr if not rr["err"] else None
                        break
        row["locator"] = src
        row["quad"] = [[round(float(x), 1), round(float(y), 1)] for x, y in loc] if loc else None
        mods = modules_across(s["format"], ref, s["text"] or "")
        row.update(geometry(g, loc, s["format"], mods))
        if row["zx14_plain"]:
            cat = "decoded-by-1.4-plain"
        elif any(e.split(":")[0] == s["format"] or s["format"] in ("UPCA", "UPCE") and e.startswith(("EAN13", "UPC"))
                 for e in row["zx14_err"]):
            cat = "found-not-decoded-1.4"
        elif row["zx3_plain"]:
            cat = "decoded-by-3x-only"
        elif row["zx3_err"]:
            cat = "found-not-decoded-3x"
        elif row["zbar_plain"]:
            cat = "zbar-only"
        else:
            cat = "not-found"
        row["category"] = cat
        rows.append(row)
        print(f"{s['file']:40s} {cat:24s} loc={src} mod_px={row.get('module_px')} "
              f"edge={row.get('edge_px')} persp={row.get('persp_ratio')} e14={row['zx14_err']} e3={row['zx3_err']}",
              flush=True)
    json.dump(rows, open(os.path.join(OUT, "per_file.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
