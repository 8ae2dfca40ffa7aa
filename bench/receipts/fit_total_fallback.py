#!/usr/bin/env python3
"""Chooses the receipt stage's total fallback (`total_fallback_scale`, `total_fallback_cpu_ms`,
renamed `fallback_reading_scale`, `fallback_reading_cpu_ms` by branch date30) from full runs on
training receipts (a bench tool, never the product).

    fit_total_fallback.py --truth DIR --base RUN --variant NAME RUN [--variant NAME RUN ...]

DIR: the training receipts the runs read, with their truth `NAME.json` (the receipts main's
records left without a total: SROIE folds 0-3 and `--split train` renders; the fallback reads
nothing else, so no other record can change). RUN: a `snapsort run` output folder of the
receipts preset with `limits.seconds_per_image` 900 and the variant's options, BASE the same
without the fallback (`total_fallback_segmentation` 0, or main's binary). Held-out receipts
are refused.

Per variant: totals right and wrong against the base (gained, lost, a wrong total where the base
had none), any other field that changed, and the receipt stage's CPU per receipt (p50 and p95 of
`run.json`). The chosen variant has the most right totals less wrong ones, then the fewest wrong,
then the lowest p95 CPU.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fallback_runs import cpu, records  # noqa: E402
from score import amount  # noqa: E402
from split import heldout  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--truth", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--variant", nargs=2, action="append", metavar=("NAME", "RUN"), required=True)
    args = ap.parse_args(argv)
    held = heldout()

    base = records(args.base)
    truth = {}
    for s in base:
        if s in held or "heldout" in s:
            sys.exit(f"refused: {s} is held out")
        truth[s] = amount(json.load(open(os.path.join(args.truth, s + ".json"))).get("total"))

    right_base = sum(amount(base[s].get("total")) == truth[s] for s in base)
    p50, p95 = cpu(args.base)
    print(f"{len(base)} training receipts; base: {right_base} right, receipt CPU p50 {p50:.0f} ms, p95 {p95:.0f} ms")
    print("| variant | right | gained | lost | wrong where base had none | other fields changed | CPU p50 / p95 ms |")
    print("|---|---|---|---|---|---|---|")
    scored = []
    for name, run in args.variant:
        got = records(run)
        gained, lost, wrong, other = [], [], [], []
        for s, want in truth.items():
            b, n = amount(base[s].get("total")), amount((got.get(s) or {}).get("total"))
            if b != want and n == want:
                gained.append(s)
            if b == want and n != want:
                lost.append(s)
            if b is None and n is not None and n != want:
                wrong.append(s)
            for key in ("date", "merchant", "items", "subtotal", "tax"):
                if base[s].get(key) != (got.get(s) or {}).get(key):
                    other.append(f"{s} {key}")
        right = sum(amount((got.get(s) or {}).get("total")) == w for s, w in truth.items())
        p50, p95 = cpu(run)
        print(f"| {name} | {right} | {len(gained)} {' '.join(gained)} | {len(lost)} {' '.join(lost)} | "
              f"{len(wrong)} {' '.join(wrong)} | {len(other)} {' '.join(other)} | {p50:.0f} / {p95:.0f} |")
        scored.append(((-(right - len(wrong)), len(wrong), p95), name))
    print(f"chosen: {min(scored)[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
