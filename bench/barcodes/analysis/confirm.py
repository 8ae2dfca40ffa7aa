#!/usr/bin/env python3
"""Confirmation of 1-D reads: what a rule "a 1-D read counts only when two independent reads agree"
keeps and drops on shared/data/barcodes' linear images (and samples/negatives).

Sources of evidence per image (all the product's own libraries):
  full:zx14, full:zbar        the whole image (zx14: 1.4, tryHarder + tryRotate; also its inverted copy)
  band{N}:{i}:{dec}           N non-overlapping horizontal bands (rows) and N vertical bands (columns),
                              each decoded on its own by zx14 and by zbar
  prep:{name}:{dec}           other preparations of the whole image (sharpened, 2x cubic, gamma 2 stretch)
Rules, for each distinct code (GTIN or format + text) read by any source:
  R1 two decoders:   zx14 and zbar both read it (anywhere)
  R2 two bands:      two different bands read it (either decoder)
  R3 two of anything: any two different sources (a band and the full image count as two)
  R4 = R1 or R2
Also reports zbar's quality (scan lines that agreed) and zx14's lineCount for correct and wrong reads.
Writes results/confirm.json."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
import preps as P
from run_preps import negatives

DECS = {"zx14": lambda x: zx14(x) + zx14(255 - x), "zbar": zbar}
PREPS = {"sharpen": P.PREPS["sharpen"], "up2": P.PREPS["up2_cubic"], "gamma2": P.PREPS["gamma2"]}


def bands(g, n):
    h, w = g.shape
    out = []
    for i in range(n):
        out.append((f"h{n}:{i}", g[i * h // n:(i + 1) * h // n, :]))
    for i in range(n):
        out.append((f"v{n}:{i}", g[:, i * w // n:(i + 1) * w // n]))
    return [(k, np.ascontiguousarray(b)) for k, b in out if min(b.shape) >= 8]


def main():
    items = [s for s in samples() if s["format"] in LINEAR] + negatives()
    rows = []
    for s in items:
        g = load_gray(s["path"])
        reads = {}  # identity -> {"sources": set, "ok": bool, "text", "zbar_q": [], "zx_lines": []}

        def add(src, res):
            for r in res:
                if r["err"] or r["fmt"] not in LINEAR:
                    continue
                if r["fmt"] in RETAIL and not gtin_ok(gtin13(r["fmt"], r["text"]) or r["text"]):
                    continue
                k = identity(r)
                e = reads.setdefault(str(k), {"sources": set(), "ok": matches(s, r), "text": r["text"], "fmt": r["fmt"],
                                              "zbar_q": [], "zx_lines": []})
                e["sources"].add(src)
                if src.startswith("full"):
                    (e["zbar_q"] if r["dec"] == "zbar" else e["zx_lines"]).append(r["lines"])

        for d, fn in DECS.items():
            add(f"full:{d}", fn(g))
            for pname, pf in PREPS.items():
                add(f"prep:{pname}:{d}", fn(pf(g, None)))
            for n in (3, 4, 6):
                for bname, b in bands(g, n):
                    add(f"band:{bname}:{d}", fn(b))
        out = {"file": s["file"], "format": s["format"], "reads": []}
        for k, e in reads.items():
            src = e["sources"]
            decs = {x.split(":")[-1] for x in src}
            rule = {}
            for n in (3, 4, 6):
                bset = {x.split(":")[2] for x in src if x.startswith(f"band:h{n}:") or x.startswith(f"band:v{n}:")}
                bset = {x.split(":")[1] + ":" + x.split(":")[2] for x in src
                        if x.startswith("band:") and x.split(":")[1][1:] == str(n)}
                rule[f"R2_bands{n}"] = len(bset) >= 2
            rule["R1_decoders"] = len(decs) >= 2
            main_src = {x for x in src if x.startswith(("full", "prep")) or x.split(":")[1][1:] == "4"}
            rule["R3_two_sources"] = len(main_src) >= 2
            rule["R4_decoders_or_bands4"] = rule["R1_decoders"] or rule["R2_bands4"]
            # without the whole-image reads: only what the product's own reads (full image) found
            in_product = any(x.startswith("full") for x in src)
            out["reads"].append({"id": k, "fmt": e["fmt"], "text": e["text"], "ok": e["ok"], "n_sources": len(src),
                                 "full": in_product, "zbar_q": e["zbar_q"], "zx_lines": e["zx_lines"],
                                 "sources": sorted(src), **rule})
        rows.append(out)
        print(s["file"], [(r["text"], r["ok"], r["n_sources"], r["R4_decoders_or_bands4"]) for r in out["reads"]], flush=True)
    json.dump(rows, open(os.path.join(HERE, "results", "confirm.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
