#!/usr/bin/env python3
"""Fits a gate before the ocr stage's coarse reading on training cards, by simulation (issue #28).

    SNAPSORT_COARSE_TRACE=1 snapsort run GEN --preset cards --out A 2> A.trace      # reads always
    snapsort run GEN --config <cards preset, ocr coarse_page_height 0> --out B           # reads never
    python3 bench/speed/fit_coarse_gate.py --set GEN A/records.jsonl B/records.jsonl A.trace [--set ...]

The ocr stage reads a card crop a second time at `coarse_page_height` (224 rows) for names in
display type the page reading at 448 rows missed, unless the warp stage has made that reading
already. The gate tried: skip that reading when the name model's probability of the page
reading's best candidate reaches a threshold. The trace lists each reading the stage made itself
(`COARSE`, file, that probability, the reading's thread CPU ms). A card whose reading is
skipped gets B's record (no coarse reading; nothing else differs), every other card A's,
so each threshold's records are known without running it. For each threshold on a 0.05 grid: the
readings skipped, their CPU, the cards whose name changed, and each score's net change against A
(cards gaining it minus cards losing it). The threshold printed is the lowest at which no score's
training total falls and no card gains a false issuer or a false code (for issuer_false and
false_code a negative net is a card that gained one). Tried in 2026-11 (branch speed9) and not
taken: bench/speed/README.md.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gen"))
from score_cards import score_one, truths  # noqa: E402

# Scores that must not fall, and the one that must not rise.
GOOD = ("name_exact", "name_fuzzy", "issuer_ok", "payment_ok", "code_exact")
BAD = ("issuer_false", "false_code")


def records(path):
    with open(path, encoding="utf-8") as f:
        return {os.path.basename(r["file"]): r for r in map(json.loads, f)}


def trace(path):
    """file -> (probability, cpu ms) of each coarse reading the ocr stage made."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4 and parts[0] == "COARSE":
                out[os.path.basename(parts[1])] = (float(parts[2]), float(parts[3]))
    return out


def cards(gen, a_path, b_path, trace_path):
    """Per training card: probability and CPU of its own coarse reading (None when shared or not
    made), and the change in each score when that reading is skipped (B against A)."""
    a, b, read = records(a_path), records(b_path), trace(trace_path)
    rows = []
    for truth in truths(gen):
        sa, sb = score_one(truth, a.get(truth["file"])), score_one(truth, b.get(truth["file"]))
        loss = [k for k in GOOD if sa.get(k) and not sb.get(k)] + [k for k in BAD if sb.get(k) and not sa.get(k)]
        gain = [k for k in GOOD if sb.get(k) and not sa.get(k)] + [k for k in BAD if sa.get(k) and not sb.get(k)]
        name_changed = ((a.get(truth["file"]) or {}).get("card") or {}).get("name") != (
            (b.get(truth["file"]) or {}).get("card") or {}).get("name")
        rows.append({"file": truth["file"], "read": read.get(truth["file"]), "loss": loss, "gain": gain,
                     "name_changed": name_changed})
    return rows


def net(skipped, key):
    """Cards gaining `key` minus cards losing it when `skipped` lose their coarse reading."""
    return sum(key in r["gain"] for r in skipped) - sum(key in r["loss"] for r in skipped)


def accepted(skipped):
    """No score's total falls, and no card gains a false issuer or a false code."""
    return all(net(skipped, k) >= 0 for k in GOOD) and not any(k in r["loss"] for r in skipped for k in BAD)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", nargs=4, action="append", required=True, metavar=("GEN", "A", "B", "TRACE"))
    args = ap.parse_args()
    rows = [r for s in args.set for r in cards(*s)]
    made = [r for r in rows if r["read"]]
    print(f"{len(rows)} training cards, {len(made)} coarse readings made by the ocr stage "
          f"({sum(r['read'][1] for r in made):.0f} ms CPU)\n")
    print("| skip from p | readings skipped | CPU ms skipped | names changed | " + " | ".join(GOOD + BAD) + " | taken |")
    print("|---" * (len(GOOD + BAD) + 5) + "|")
    fitted = None
    for step in range(20, 0, -1):
        t = step / 20
        skipped = [r for r in made if r["read"][0] >= t]
        ok = accepted(skipped)
        print(f"| {t:.2f} | {len(skipped)}/{len(made)} | {sum(r['read'][1] for r in skipped):.0f} | "
              f"{sum(r['name_changed'] for r in skipped)} | "
              + " | ".join(f"{net(skipped, k):+d}" for k in GOOD + BAD) + f" | {'yes' if ok else 'no'} |")
        if ok:
            fitted = t
    print(f"\nfitted threshold: {fitted if fitted is not None else 'none'}")
    for r in sorted(made, key=lambda r: -r["read"][0]):
        if r["loss"] or r["gain"]:
            print(f"  p={r['read'][0]:.3f} {r['file']} loses {r['loss']} gains {r['gain']}")


if __name__ == "__main__":
    main()
