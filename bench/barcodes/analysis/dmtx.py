#!/usr/bin/env python3
"""libdmtx (Debian libdmtx0b 0.7.x via pylibdmtx) on every Data Matrix image of shared/data/barcodes:
exact reads and CPU time per image at several time budgets, on the plain and the inverted image,
against zxing-cpp 1.4 (tryHarder + tryRotate, plain then inverted) and the product's records.
libdmtx returns FNC1 as byte 0xE8: a leading one is dropped and the others become GS (0x1D), the
convention of the expected files. Writes results/dmtx.json."""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from pylibdmtx import pylibdmtx as dm

CONFIGS = [  # name, kwargs
    ("t200", dict(timeout=200, max_count=1)),
    ("t1000", dict(timeout=1000, max_count=1)),
    ("t3000", dict(timeout=3000, max_count=1)),
    ("t1000_shrink2", dict(timeout=1000, max_count=1, shrink=2)),
]


def norm(raw):
    if raw[:1] == b"\xe8":
        raw = raw[1:]
    return raw.replace(b"\xe8", b"\x1d")


def ok(s, raw):
    raw = norm(raw)
    if s["bytes"] is not None:
        return raw == s["bytes"]
    return raw == s["text"].encode("latin-1", "replace") or raw == s["text"].encode("utf-8")


def main():
    recs = snapsort_records("screenshots")
    recd = snapsort_records("default")
    rows = []
    for s in samples():
        if s["format"] != "DataMatrix":
            continue
        g = load_gray(s["path"])
        h, w = g.shape
        row = {"file": s["file"], "w": w, "h": h,
               "snap_screenshots": any(record_matches(s, b) for b in recs.get(s["file"], [])),
               "snap_default": any(record_matches(s, b) for b in recd.get(s["file"], [])),
               "zx14": any_match(s, zx14(g)) or any_match(s, zx14(255 - g)),
               "zx3": any_match(s, zx3(g))}
        for name, kw in CONFIGS:
            for pol, img in (("", g), ("_inv", 255 - g)):
                t = time.process_time()
                res = dm.decode((img.tobytes(), w, h), **kw)
                ms = (time.process_time() - t) * 1000
                row[name + pol] = any(ok(s, r.data) for r in res)
                row[name + pol + "_ms"] = round(ms, 1)
                row[name + pol + "_other"] = [norm(r.data).decode("latin-1")[:40] for r in res if not ok(s, r.data)]
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if not k.endswith("_other")}), flush=True)
    json.dump(rows, open(os.path.join(HERE, "results", "dmtx.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
