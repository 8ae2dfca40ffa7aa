#!/usr/bin/env python3
"""Markdown tables for FINDINGS.md from results/*.json(l). Prints to stdout."""
import collections, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, LINEAR

R = os.path.join(HERE, "results")
pf = json.load(open(os.path.join(R, "per_file.json")))
byfile = {r["file"]: r for r in pf}
from tables_io import load_preps
preps = load_preps()
kinds = {}
for line in open(os.path.join(os.environ.get("SNAP_RECORDS", "/work/snap/before"), "barcodes-default.records.jsonl")):
    r = json.loads(line)
    kinds[r["file"]] = r["kind"]

miss_s = {r["file"] for r in pf if not r["snap_screenshots"]}
miss_d = {r["file"] for r in pf if not r["snap_default"]}
wrong = {r["file"] for r in pf if r["snap_screenshots_other"] or r["snap_default_other"]}
receipt = {f for f in miss_d if kinds.get(f) == "receipt"}
targets = miss_s | (miss_d - receipt)


def p(*a):
    print(*a)


p("### Misses by category\n")
p("| category | screenshots misses | default misses (barcode stage ran) | default misses (classified as receipt: no barcode stage) |")
p("|---|---:|---:|---:|")
cats = collections.Counter(byfile[f]["category"] for f in miss_s)
catd = collections.Counter(byfile[f]["category"] for f in miss_d - receipt)
catr = collections.Counter(byfile[f]["category"] for f in receipt)
for c in sorted(set(cats) | set(catd) | set(catr)):
    p(f"| {c} | {cats[c]} | {catd[c]} | {catr[c]} |")
p(f"| **total** | {len(miss_s)} | {len(miss_d - receipt)} | {len(receipt)} |")
p()

# recoveries per file (cheapest few)
ok_by_file = collections.defaultdict(list)
cost = collections.defaultdict(list)
photo_cost = collections.defaultdict(list)  # the 1280x960 negatives: what a pass costs on a photo-sized image
for x in preps:
    key = (x["prep"], x["reader"])
    if not x["file"].startswith("negatives/"):
        cost[key].append(x["prep_ms"] + x["read_ms"])
    elif x["file"].startswith("negatives/photo-"):
        photo_cost[key].append(x["prep_ms"] + x["read_ms"])
    if x["ok"]:
        ok_by_file[x["file"]].append(key)
mean_cost = {k: sum(v) / len(v) for k, v in cost.items()}

p("### Per missed or wrongly read file\n")
p("Code size from the locator quad (3.x read, or a found-but-failed symbol); `mod` = pixels per module across "
  "the code (2-D: from the symbol version; 1-D: 95 modules for EAN-13/UPC-A, 51 UPC-E, Code 39/128 from the "
  "text); `persp` = longest/shortest ratio of opposite sides (1.00 = square-on); `edge` = edge width in px "
  "(contrast / 99th-percentile gradient: ≈1 crisp, ≥1.5 soft); `b/m` = edge / module. S/D: screenshots / "
  "default preset (✓ read, ✗ missed, R = default classified it as a receipt, W = a wrong code reported).")
p()
p("| file | fmt | image | code px | mod | angle | persp | edge | b/m | category | S | D | recovered by (zx14 = 1.4 tryHarder, zx14g = GlobalHistogram; cheapest 4) |")
p("|---|---|---|---|---:|---:|---:|---:|---:|---|---|---|---|")
for f in sorted(targets | wrong | receipt):
    r = byfile[f]
    s = "✓" if r["snap_screenshots"] else "✗"
    d = "R" if f in receipt else ("✓" if r["snap_default"] else "✗")
    if r["snap_screenshots_other"]:
        s += "W"
    if r["snap_default_other"]:
        d += "W"
    rec = sorted(ok_by_file.get(f, []), key=lambda k: mean_cost.get(k, 1e9))
    rec_s = ", ".join(f"{a}/{b}" for a, b in rec[:4]) + (f" (+{len(rec) - 4})" if len(rec) > 4 else "")
    code = f"{r.get('code_w_px', '')}×{r.get('code_h_px', '')}" if r.get("code_w_px") else "–"
    p(f"| `{f}` | {r['format']} | {r['w']}×{r['h']} | {code} | {r.get('module_px', '')} | {r.get('angle_deg', '')} | "
      f"{r.get('persp_ratio', '')} | {r.get('edge_px', '')} | {r.get('blur_per_module', '')} | {r['category']} | {s} | {d} | "
      f"{rec_s or '**none**'} |")
p()

p("### Per format (misses of the screenshots preset)\n")
p("| format | images | screenshots read | default read | misses (S) | found-not-decoded (1.4 or 3.x) | 3.x reads plain | recovered by some prep (1.4/zbar) |")
p("|---|---:|---:|---:|---:|---:|---:|---:|")
fmts = collections.defaultdict(list)
for r in pf:
    fmts[r["format"]].append(r)
for fm in sorted(fmts):
    rows = fmts[fm]
    ms = [r for r in rows if r["file"] in miss_s]
    p(f"| {fm} | {len(rows)} | {sum(r['snap_screenshots'] for r in rows)} | {sum(r['snap_default'] for r in rows)} | "
      f"{len(ms)} | {sum(r['category'].startswith('found-not') for r in ms)} | {sum(r['zx3_plain'] for r in ms)} | "
      f"{sum(1 for r in ms if ok_by_file.get(r['file']))} |")
p()

# ranking of passes
neg_false = collections.defaultdict(set)
wrong_retail = collections.defaultdict(set)
other_pos = collections.defaultdict(set)
for x in preps:
    key = (x["prep"], x["reader"])
    if x["file"].startswith("negatives/"):
        if x["other"]:
            neg_false[key].add(x["file"])
        continue
    fmt = byfile[x["file"]]["format"]
    for o in x["other"]:
        ofmt, val = o.split(":", 1)
        if ofmt in ("EAN13", "UPCA", "UPCE", "EAN8") and fmt in ("EAN13", "UPCA", "UPCE"):
            wrong_retail[key].add(x["file"])
        other_pos[key].add(x["file"])
rec_s = collections.defaultdict(set)
rec_t = collections.defaultdict(set)
for f, keys in ok_by_file.items():
    for k in keys:
        if f in miss_s:
            rec_s[k].add(f)
        if f in targets:
            rec_t[k].add(f)
p("### Passes ranked: screenshots-preset misses recovered per CPU ms\n")
p("Each pass = one preparation + one reader, run on every image; cost = mean CPU ms per image over the 193 "
  "images (preparation + decoding). `wrong retail` = images where the pass returned a valid-checksum EAN/UPC "
  "that is not the expected one; `other` = images with any unexpected code (some images hold a second code); "
  "`neg` = negatives with a code. crop*/rectify* use the 3.x locator (an oracle for where the code is).")
p()
p("| pass | recovers (S misses, of %d) | recovers (all targets, of %d) | mean CPU ms | S per 100 ms | CPU ms on a 1280×960 photo | wrong retail | other | neg |" % (len(miss_s), len(targets)))
p("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
keys = sorted(cost, key=lambda k: (-len(rec_s[k]) / max(mean_cost[k], 0.05), mean_cost[k]))
for k in keys:
    if not rec_t[k] and k[0] != "plain":
        continue
    p(f"| {k[0]} / {k[1]} | {len(rec_s[k])} | {len(rec_t[k])} | {mean_cost[k]:.1f} | "
      f"{100 * len(rec_s[k]) / max(mean_cost[k], 0.05):.1f} | "
      f"{(sum(photo_cost[k]) / len(photo_cost[k])) if photo_cost[k] else float('nan'):.0f} | {len(wrong_retail[k])} | {len(other_pos[k])} | {len(neg_false[k])} |")
p()
p("### Greedy order (each step: the pass with most newly recovered target files per CPU ms, locator-free passes only)\n")
p("| step | pass | new files | cumulative | mean CPU ms | files |")
p("|---:|---|---:|---:|---:|---|")
got = set()
cands = {k for k in cost if not k[0].startswith(("crop", "rectify"))}
step = 0
while True:
    best = max(cands, key=lambda k: (len(rec_t[k] - got) / max(mean_cost[k], 0.05), -mean_cost[k]))
    new = rec_t[best] - got
    if not new:
        break
    got |= new
    step += 1
    p(f"| {step} | {best[0]} / {best[1]} | {len(new)} | {len(got)} | {mean_cost[best]:.1f} | {', '.join(sorted(new))} |")
p()
left = targets - {f for f in targets if ok_by_file.get(f)}
p(f"Target files no pass recovers (with the oracle locator included): {len(left)}: " + ", ".join(f"`{f}`" for f in sorted(left)))
p()
p("### Unexpected codes produced by passes\n")
for k in sorted(other_pos, key=lambda k: -len(other_pos[k])):
    lst = []
    for x in preps:
        if (x["prep"], x["reader"]) == k and x["other"] and not x["file"].startswith("negatives/"):
            lst.append(f"{x['file']}: {', '.join(x['other'])}")
    p(f"- **{k[0]} / {k[1]}**: " + "; ".join(lst))
neg = [(k, sorted(v)) for k, v in neg_false.items() if v]
p()
p("Negatives with a code, by pass: " + ("; ".join(f"{a}/{b}: {', '.join(v)}" for (a, b), v in neg) if neg else "none"))
