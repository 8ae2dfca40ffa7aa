#!/usr/bin/env python3
"""Three narrower measurements on shared/data/barcodes, all with Debian's zxing-cpp 1.4 (and zbar):
  1. rotation sweep on the Aztec images: which of -45..45 degrees (5 degree steps) 1.4 reads
  2. module-size-aware rescaling on the missed files: scale so one module is 1.5/2/3/4/6 px (the module
     size from analyse_misses.py's locator: an oracle; the product would need its own estimate)
  3. 1.4 DecodeHints variants over all 193 images: exact reads and CPU ms per image
Writes results/extra.json and prints markdown."""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
import preps as P
import cv2

R = os.path.join(HERE, "results")


def main():
    pf = {r["file"]: r for r in json.load(open(os.path.join(R, "per_file.json")))}
    S = samples()
    out = {}
    # 1. Aztec rotation sweep
    print("### Aztec: angles (degrees) at which 1.4 reads the code (tryHarder; plain and inverted)\n")
    print("| file | code angle | read at | reads plain |")
    print("|---|---:|---|---|")
    sweep = {}
    for s in S:
        if s["format"] != "Aztec":
            continue
        g = load_gray(s["path"])
        ok = [a for a in range(-45, 50, 5) if any_match(s, zx14(P.rotate(g, a) if a else g))]
        sweep[s["file"]] = ok
        print(f"| `{s['file']}` | {pf[s['file']].get('angle_deg', '')} | {' '.join(map(str, ok)) or 'none'} | {'yes' if 0 in ok else 'no'} |")
    out["aztec_sweep"] = sweep
    n_any = sum(bool(v) for v in sweep.values())
    steps = [0, 10, -10, 20, -20, 30, -30, 45]
    got, cum = set(), []
    for a in steps:
        got |= {f for f, v in sweep.items() if a in v}
        cum.append((a, len(got)))
    print(f"\nAztec read at some angle: {n_any} of {len(sweep)}; cumulative with steps {steps}: {cum}\n")
    # 2. module-size-aware rescaling
    print("### Module-size-aware rescaling of the missed files (oracle module size)\n")
    print("| file | module px | " + " | ".join(f"→{m} px" for m in (1.5, 2, 3, 4, 6)) + " |")
    print("|---|---:|" + "---|" * 5)
    res2 = {}
    for s in S:
        r = pf.get(s["file"], {})
        if not r.get("missed") or not r.get("module_px"):
            continue
        g = load_gray(s["path"])
        cells = []
        for m in (1.5, 2, 3, 4, 6):
            f = m / r["module_px"]
            if f * max(g.shape) > 4000 or f * min(g.shape) < 20:
                cells.append("–")
                continue
            x = P.resize(g, f, cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)
            a = any_match(s, zx14(x) + zx14(255 - x))
            b = any_match(s, zbar(x))
            cells.append(("1.4" if a else "") + ("+zbar" if b else "") or "✗")
        res2[s["file"]] = cells
        print(f"| `{s['file']}` | {r['module_px']} | " + " | ".join(cells) + " |")
    out["module_rescale"] = res2
    # 3. 1.4 hint variants over all images
    print("\n### zxing-cpp 1.4 DecodeHints variants, all 193 images (plain, then inverted when nothing read)\n")
    print("| hints | exact | CPU ms / image (mean) |")
    print("|---|---:|---:|")
    variants = {
        "tryHarder + tryRotate (LocalAverage)": dict(),
        "no tryHarder (screenshots preset)": dict(try_harder=False),
        "GlobalHistogram": dict(binarizer="global"),
        "FixedThreshold": dict(binarizer="fixed"),
        "BoolCast": dict(binarizer="boolcast"),
        "isPure": dict(pure=True),
        "minLineCount 1": dict(min_lines=1),
        "minLineCount 3": dict(min_lines=3),
        "tryCode39ExtendedMode": dict(code39ext=True),
        "tryDownscale (library pyramid)": dict(downscale=True),
    }
    res3 = {}
    imgs = [(s, load_gray(s["path"])) for s in S]
    for name, kw in variants.items():
        n, t0 = 0, time.process_time()
        for s, g in imgs:
            r = zx14(g, **kw)
            if not [x for x in r if not x["err"]]:
                r = zx14(255 - g, **kw)
            n += any_match(s, r)
        ms = (time.process_time() - t0) * 1000 / len(imgs)
        res3[name] = (n, round(ms, 2))
        print(f"| {name} | {n} | {ms:.2f} |")
    out["hints"] = res3
    json.dump(out, open(os.path.join(R, "extra.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
