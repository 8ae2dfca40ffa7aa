#!/usr/bin/env python3
"""Summary of results/confirm.json: for each confirmation rule, correct 1-D reads kept and lost, wrong reads
passed and blocked (over the linear images of shared/data/barcodes and samples/negatives)."""
import json, os, sys, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, snapsort_records, samples, record_matches

rows = json.load(open(os.path.join(HERE, "results", "confirm.json")))
def mask7(t):
    return "".join(chr(ord(c) & 0x7F) for c in t)


for r in rows:
    # zbar drops Code 128's FNC4: its value is zxing's with every character's high bit cleared. R7 merges
    # such a zbar read into the zxing read it masks to (one code, both libraries) before applying R6.
    merged = [dict(x) for x in r["reads"]]
    for z in list(merged):
        if z["fmt"] != "Code128" or any(not s.endswith("zbar") for s in z["sources"]):
            continue
        for x in merged:
            if x is not z and x["fmt"] == "Code128" and x["text"] != z["text"] and mask7(x["text"]) == z["text"]:
                x["sources"] = sorted(set(x["sources"]) | set(z["sources"]))
                x["R1_decoders"] = True
                merged.remove(z)
                break
    for x in r["reads"]:
        m = next((y for y in merged if y["id"] == x["id"]), None)
        if m is None:  # merged away: it is the same code as a correct read, neither right nor wrong on its own
            x["R7_R6_with_fnc4_merge"] = None
        else:
            x["R7_R6_with_fnc4_merge"] = m["R1_decoders"] or (x["R3_two_sources"] and len(merged) == 1)
    # contradiction: another 1-D code read anywhere in the same image (by any source); R5/R6 refuse a
    # single-library confirmation when one exists
    for x in r["reads"]:
        alone = len(r["reads"]) == 1
        x["R5_decoders_or_bands4_uncontradicted"] = x["R1_decoders"] or (x["R2_bands4"] and alone)
        x["R6_decoders_or_two_sources_uncontradicted"] = x["R1_decoders"] or (x["R3_two_sources"] and alone)
snap = snapsort_records("screenshots")
smp = {s["file"]: s for s in samples()}
RULES = ["R1_decoders", "R2_bands3", "R2_bands4", "R2_bands6", "R3_two_sources", "R4_decoders_or_bands4",
         "R5_decoders_or_bands4_uncontradicted",
         "R6_decoders_or_two_sources_uncontradicted",
         "R7_R6_with_fnc4_merge"]
print("| rule | correct reads kept | correct reads lost | of which read by the screenshots preset now | wrong reads passed | wrong reads blocked |")
print("|---|---:|---:|---:|---:|---:|")
lost_files = collections.defaultdict(list)
for rule in RULES + ["zbar_q>=2 or zx14"]:
    kept = lost = lost_snap = wp = wb = 0
    for r in rows:
        f = r["file"]
        for x in r["reads"]:
            if rule == "zbar_q>=2 or zx14":
                ok_rule = any(s.endswith("zx14") for s in x["sources"] if s.startswith("full")) or any(q >= 2 for q in x["zbar_q"])
                if not x["full"]:
                    continue
            else:
                ok_rule = x[rule]
                if ok_rule is None:
                    continue
            if x["ok"]:
                if ok_rule:
                    kept += 1
                else:
                    lost += 1
                    s = smp.get(f)
                    now = bool(s and any(record_matches(s, b) for b in snap.get(f, [])))
                    lost_snap += now
                    lost_files[rule].append(f + (" (read now)" if now else ""))
            else:
                if ok_rule:
                    wp += 1
                else:
                    wb += 1
    print(f"| {rule} | {kept} | {lost} | {lost_snap} | {wp} | {wb} |")
print()
for rule, fs in lost_files.items():
    print(f"- lost by {rule}: " + ", ".join(fs))
print()
print("zbar quality (scan lines agreeing) of full-image reads: correct vs wrong")
qc = sorted(q for r in rows for x in r["reads"] if x["ok"] for q in x["zbar_q"])
qw = sorted(q for r in rows for x in r["reads"] if not x["ok"] for q in x["zbar_q"])
print(f"- correct: n={len(qc)} min={qc[:1]} p10={qc[len(qc)//10] if qc else None} median={qc[len(qc)//2] if qc else None}")
print(f"- wrong: {qw}")
lc = sorted(q for r in rows for x in r["reads"] if x["ok"] for q in x["zx_lines"])
lw = sorted(q for r in rows for x in r["reads"] if not x["ok"] for q in x["zx_lines"])
print(f"- zx14 lineCount correct: n={len(lc)} min={lc[:1]} median={lc[len(lc)//2] if lc else None}; wrong: {lw}")
