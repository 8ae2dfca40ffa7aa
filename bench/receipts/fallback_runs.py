#!/usr/bin/env python3
"""Two full runs of the same receipts side by side, for the receipt stage's fallback reading
(`fallback_reading_*`; a bench tool, never the product; issue #23).

    fallback_runs.py --truth DIR [--truth DIR ...] BEFORE_RUN AFTER_RUN [--heldout]

DIR: folders with each receipt's truth `NAME.json` (the first that holds it is used); RUN: a
`snapsort run` output folder of the receipts preset (`limits.seconds_per_image` 900), BEFORE
with the fallback as main has it, AFTER with the change. Without `--heldout`, held-out receipts
(fold 4 and the German 14 by `folds.json`, renders named `rcpt-heldout-`) are refused; with it,
only they are taken (the held-out measurement, made once).

Per field (total, date, merchant): right before → after, each receipt gained or lost, a wrong
value where there was none; any other field that changed; the receipt stage's CPU p50 / p95 of
both runs' `run.json`.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import field_hits, read_predictions  # noqa: E402
from split import heldout  # noqa: E402

FIELDS = ("total", "date", "merchant")


def records(run):
    """{stem: receipt} of a `snapsort run` output folder."""
    return read_predictions([os.path.join(run, "records.jsonl")])


def cpu(run):
    """The receipt stage's CPU p50 and p95 (ms) of a run's `run.json`."""
    stage = json.load(open(os.path.join(run, "run.json")))["stages"]["receipt"]
    return stage["cpu_p50_ms"], stage["cpu_p95_ms"]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--truth", action="append", required=True)
    ap.add_argument("--heldout", action="store_true")
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args(argv)
    held = heldout()

    before, after = records(args.before), records(args.after)
    counts = {f: [0, 0, 0] for f in FIELDS}  # right before, right after, labelled
    lines = []
    for s in sorted(before):
        is_held = s in held or "heldout" in s
        if is_held != args.heldout:
            sys.exit(f"refused: {s} is {'held out' if is_held else 'training'}")
        path = next(os.path.join(d, s + ".json") for d in args.truth if os.path.exists(os.path.join(d, s + ".json")))
        truth = json.load(open(path))
        b, a = before[s], after.get(s, {})
        hb, ha = field_hits(truth, b), field_hits(truth, a)
        for f in FIELDS:
            if f not in hb:
                continue
            counts[f][0] += hb[f]
            counts[f][1] += ha[f]
            counts[f][2] += 1
            if hb[f] != ha[f]:
                lines.append(f"  {f} {'gained' if ha[f] else 'lost'} {s}: {b.get(f)} -> {a.get(f)} (truth {truth[f]})")
            elif not ha[f] and b.get(f) is None and a.get(f) is not None:
                lines.append(f"  {f} none -> wrong {s}: {a.get(f)} (truth {truth[f]})")
        other = sorted(k for k in set(a) | set(b) if k not in FIELDS + ("fields", "text", "confidence", "time",
                       "checks", "text_page") and a.get(k) != b.get(k))
        if other:
            lines.append(f"  other fields changed on {s}: {', '.join(other)}")
    print(f"{len(before)} receipts")
    for f in FIELDS:
        print(f"| {f} | {counts[f][0]} -> {counts[f][1]} of {counts[f][2]} |")
    print("\n".join(lines))
    (b50, b95), (a50, a95) = cpu(args.before), cpu(args.after)
    print(f"receipt stage CPU p50 {b50:.0f} -> {a50:.0f} ms, p95 {b95:.0f} -> {a95:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
