#!/usr/bin/env python3
"""Every preparation in preps.py x three readers on every image of shared/data/barcodes and on
samples/negatives: which files each recovers, what other codes it produces, and its CPU cost.

Readers (all the product's own libraries):
  zx14   zxing-cpp 1.4, tryHarder + tryRotate, LocalAverage binariser (ReadBarcode, one symbol)
  zx14g  the same with the GlobalHistogram binariser
  zbar   libzbar 0.23 (pyzbar), full density
Locator-based preparations (crop*, rectify*) use the code's quad from analyse_misses.py's locator
(a 3.x read or found-but-failed symbol: an oracle for where the code is, not a 1.4 capability);
auto_* use preps.find_regions, a gradient-blob finder the product could run itself.
Writes results/preps.jsonl (one line per image x prep x reader).
Usage: run_preps.py [--only-missed] [--preps NAME,NAME --append]
"""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
import preps as P
from analyse_misses import modules_across, first

NEG = os.environ.get("NEGATIVES", "/work/main/samples/negatives")
READERS = {
    "zx14": lambda x: zx14(x),
    "zx14g": lambda x: zx14(x, binarizer="global"),
    "zbar": lambda x: zbar(x),
}


def negatives():
    out = []
    for name in sorted(os.listdir(NEG)):
        if name.lower().endswith(IMAGE_EXT):
            out.append({"file": "negatives/" + name, "path": os.path.join(NEG, name), "folder": "negatives",
                        "format": None, "text": "\x00never", "bytes": None})
    return out


def main():
    per_file = {r["file"]: r for r in json.load(open(os.path.join(HERE, "results", "per_file.json")))}
    only_missed = "--only-missed" in sys.argv
    # --preps a,b,c --append: run only those preparations and append to the grid
    chosen = None
    if "--preps" in sys.argv:
        chosen = set(sys.argv[sys.argv.index("--preps") + 1].split(","))
    out = open(os.path.join(HERE, "results", "preps.jsonl"), "a" if "--append" in sys.argv else "w")
    items = samples() + negatives()
    for s in items:
        pf = per_file.get(s["file"], {})
        if only_missed and not pf.get("missed"):
            continue
        g = load_gray(s["path"])
        # locator for crop/rectify: the per-file diagnosis for missed files, a 3.x read for the rest
        quad = pf.get("quad")
        mods = pf.get("modules")
        if quad is None and s["format"]:
            r3 = first(zx3(g), lambda r: matches(s, r))
            if r3:
                quad = r3["quad"]
                mods = modules_across(s["format"], r3, s["text"] or "")
        ctx = {"quad": quad, "modules": mods if s["format"] not in LINEAR else None}
        for name, fn in list(P.PREPS.items()) + list(P.MULTI.items()):
            if chosen is not None and name not in chosen:
                continue
            t = time.process_time()
            try:
                img = fn(g, ctx)
            except Exception as e:  # noqa
                img = None
            prep_ms = (time.process_time() - t) * 1000
            if img is None or (isinstance(img, list) and not img):
                continue
            imgs = img if isinstance(img, list) else [img]
            for rname, reader in READERS.items():
                t = time.process_time()
                res = []
                for im in imgs:
                    res += reader(np.ascontiguousarray(im))
                ms = (time.process_time() - t) * 1000
                ok = any_match(s, res)
                other = sorted({f"{r['fmt']}:{r['text'][:40]}" for r in res if not r["err"] and not matches(s, r)})
                out.write(json.dumps({"file": s["file"], "prep": name, "reader": rname, "ok": ok, "other": other,
                                      "prep_ms": round(prep_ms, 2), "read_ms": round(ms, 2),
                                      "px": int(sum(i.size for i in imgs))}) + "\n")
        out.flush()
        print(s["file"], flush=True)


if __name__ == "__main__":
    main()
