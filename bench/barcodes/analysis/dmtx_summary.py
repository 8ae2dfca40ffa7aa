#!/usr/bin/env python3
"""Markdown summary of results/dmtx.json (libdmtx on the Data Matrix images)."""
import json, os, sys, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE
rows = json.load(open(os.path.join(HERE, "results", "dmtx.json")))
cfgs = ["t200", "t1000", "t3000", "t1000_shrink2"]
print(f"Data Matrix images: {len(rows)}; zxing-cpp 1.4 plain (tryHarder, + inverted): {sum(r['zx14'] for r in rows)}; "
      f"3.x wheel: {sum(r['zx3'] for r in rows)}; Snapsort screenshots: {sum(r['snap_screenshots'] for r in rows)}; "
      f"default: {sum(r['snap_default'] for r in rows)}\n")
print("| libdmtx config | exact (plain or inverted) | of the screenshots misses | new over 1.4 plain | wrong | CPU ms/image plain: median / mean / max |")
print("|---|---:|---:|---:|---:|---|")
for c in cfgs:
    ok = [r for r in rows if r[c] or r[c + "_inv"]]
    miss = [r for r in ok if not r["snap_screenshots"]]
    new = [r for r in ok if not r["zx14"]]
    wrong = [r for r in rows if r[c + "_other"] or r[c + "_inv_other"]]
    ms = [r[c + "_ms"] for r in rows]
    print(f"| {c} | {len(ok)} | {len(miss)} | {len(new)} | {len(wrong)} | {statistics.median(ms):.0f} / {statistics.mean(ms):.0f} / {max(ms):.0f} |")
print()
print("| file | size | snapsort S/D | 1.4 | 3.x | " + " | ".join(cfgs) + " |")
print("|---|---|---|---|---|" + "---|" * len(cfgs))
for r in rows:
    cells = []
    for c in cfgs:
        v = "✓" if r[c] else ("✓inv" if r[c + "_inv"] else "✗")
        cells.append(f"{v} {r[c + '_ms']:.0f} ms")
    print(f"| `{r['file']}` | {r['w']}×{r['h']} | {'✓' if r['snap_screenshots'] else '✗'}/{'✓' if r['snap_default'] else '✗'} | "
          f"{'✓' if r['zx14'] else '✗'} | {'✓' if r['zx3'] else '✗'} | " + " | ".join(cells) + " |")
