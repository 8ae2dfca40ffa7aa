#!/usr/bin/env python3
"""Fits the receipt stage's fallback reading budget (`fallback_reading_megapixels`) and scale
(`fallback_reading_scale`) on training receipts (a bench tool, never the product; issues #23, #28).

    fit_fallback_budget.py --truth DIR [--truth DIR ...] --off RUN --unbounded SCALE RUN
        [--unbounded SCALE RUN ...] [--single-off DIR] [--single SCALE DIR ...]

DIR: folders with each receipt's truth `NAME.json` (the first that holds it is used). RUN: `snapsort
run` output folders of the receipts preset (`limits.seconds_per_image` 900):
- OFF with `fallback_reading_megapixels` 0 and scale 1: no page is read again, and every receipt
  that would be carries the stage's note of the megapixels its other readings read and the page's;
  these are the candidates, and OFF is the base their fields are scored against.
- each UNBOUNDED with `fallback_reading_megapixels` 1000 (every candidate read) at SCALE.
Held-out receipts are refused.
SINGLE: folders of one `snapsort run` per receipt, `DIR/NAME/run.json`, of OFF's config and of an
UNBOUNDED one: their receipt-stage CPU is that receipt's own (with the worker's tesseract engine
load, the first receipt's), which a run's p50/p95 does not give per receipt.

The budget is deterministic, so a candidate is read under budget B at scale s exactly when
`read + page * s^2 <= B`, and its fields are then the unbounded run's. For every scale and every
budget at which another candidate comes in, the script prints totals and dates right gained and
wrong where OFF had none, the net (right less wrong), and the megapixels the fallback adds over all
candidates, and with SINGLE runs the stage CPU of the candidates read (p50 / max, ms, with the
fallback). The same for a gate on the page alone (`page * s^2 <= P`). Chosen, for the budget gate:
among the bounds at which no candidate read takes more than `--max-cpu-ms` of stage CPU (its
SINGLE run at that scale less `--engine-ms`, the worker's tesseract engine load that a one-receipt
run counts; 3000: issue #28's 2 s and half again, for receipts that had spent most of it before
the fallback), the most net, then the fewest wrong, then the smallest bound; the budget is the
middle of that bound's plateau (up to where the next candidate comes in), so that a receipt's
readings moving a little do not cross it.

`--cascade S1 S2` (both scales among the UNBOUNDED runs; total32): the page is read at S1 when
`read + page * S1^2 <= B`, and again at S2 when the S1 reading took no field (its record has no
note of a field read from the page read again) and `read + page * (S1^2 + S2^2) <= B2`; the
fields are then the S2 run's. Two sweeps: B2 = B (one budget for both readings), and B fixed at
the single-scale choice above with B2 swept (the second reading's own budget), whose plateau runs
from the chosen bound while the outcome stays the same and no receipt passes the CPU cap. The CPU of a
receipt read twice is its SINGLE S1 run plus its SINGLE S2 run less its SINGLE OFF run (each
reading's own CPU added); the choice among the second sweep's bounds follows the same rule.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import field_hits, stem  # noqa: E402
from split import heldout  # noqa: E402

TAKEN = "read from the page read again as one block"
NOTE = re.compile(r"the other readings read ([0-9.]+) Mpx and this one would read ([0-9.]+) more")
FIELDS = ("total", "date")


def records(run):
    """{stem: record} of a `snapsort run` output folder (the whole record: notes are at its top)."""
    out = {}
    for line in open(os.path.join(run, "records.jsonl"), encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            out[stem(r["file"])] = r
    return out


def truth_of(dirs, s):
    for d in dirs:
        path = os.path.join(d, s + ".json")
        if os.path.exists(path):
            return json.load(open(path))
    sys.exit(f"no truth for {s}")


def outcome(truth, base, got):
    """Per field: +1 right gained, -1 a wrong value where base had none, 0 otherwise."""
    hb, hg = field_hits(truth, base), field_hits(truth, got)
    out = {}
    for f in FIELDS:
        if f not in hb:
            continue
        if not hb[f] and hg[f]:
            out[f] = 1
        elif hb[f] and not hg[f]:
            out[f] = -1  # cannot happen: the fallback never replaces a field
        elif base.get(f) is None and got.get(f) is not None and not hg[f]:
            out[f] = -1
        else:
            out[f] = 0
    return out


def single_cpu(folder):
    """{stem: receipt-stage CPU ms} of one-receipt runs `folder/NAME/run.json`."""
    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name, "run.json")
        if os.path.exists(path):
            out[name] = json.load(open(path))["stages"]["receipt"]["cpu_p50_ms"]
    return out


def pct(values, q):
    """The q-th percentile (nearest rank) of values; None when empty."""
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q / 100 * len(v) + 0.5)) - 1))]


def sweep(cands, scale, key):
    """Rows (bound, right, wrong, net, read, added Mpx, receipts gained/wrong) for each bound at
    which one more candidate is read, `key(c, scale)` being the candidate's measure."""
    rows = []
    bounds = sorted({round(key(c, scale), 2) for c in cands.values()})
    for bound in [0.0] + bounds:
        right = wrong = n = 0
        added = 0.0
        names = []
        for s, c in cands.items():
            if round(key(c, scale), 2) > bound:
                continue
            n += 1
            added += c["page"] * scale * scale
            for f, v in c["out"][scale].items():
                right += v > 0
                wrong += v < 0
                if v:
                    names.append(f"{'+' if v > 0 else '-'}{f[0]} {s}")
        served = [s for s, c in cands.items() if round(key(c, scale), 2) <= bound]
        rows.append((bound, right, wrong, right - wrong, n, added, names, served))
    return rows


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--truth", action="append", required=True)
    ap.add_argument("--off", required=True)
    ap.add_argument("--unbounded", nargs=2, action="append", metavar=("SCALE", "RUN"), required=True)
    ap.add_argument("--single-off")
    ap.add_argument("--single", nargs=2, action="append", metavar=("SCALE", "DIR"), default=[])
    ap.add_argument("--max-cpu-ms", type=float, default=3000)
    ap.add_argument("--engine-ms", type=float, default=0)
    ap.add_argument("--cascade", nargs=2, type=float, metavar=("S1", "S2"))
    args = ap.parse_args(argv)
    held = heldout()

    off = records(args.off)
    runs = {float(scale): records(run) for scale, run in args.unbounded}
    cands = {}
    for s, r in sorted(off.items()):
        if s in held or "heldout" in s:
            sys.exit(f"refused: {s} is held out")
        m = next((NOTE.search(n) for n in r.get("notes", []) if NOTE.search(n)), None)
        if not m:
            continue
        truth = truth_of(args.truth, s)
        base = r.get("receipt") or {}
        c = {"read": float(m.group(1)), "page": float(m.group(2)), "out": {}, "took": {}}
        for scale, run in runs.items():
            got = (run.get(s) or {}).get("receipt") or {}
            for f in ("merchant", "items", "subtotal", "tax", "currency"):
                if base.get(f) != got.get(f):
                    print(f"  note: {s} {f} differs at scale {scale} (the fallback takes only total and date)")
            c["out"][scale] = outcome(truth, base, got)
            c["took"][scale] = any(TAKEN in n for n in (run.get(s) or {}).get("notes", []))
        cands[s] = c
    print(f"{len(off)} training receipts, {len(cands)} candidates (no total or no date before the fallback)")
    reads = sorted(c["read"] + c["page"] for c in cands.values())
    if reads:
        print(f"candidates' Mpx read with the page at scale 1: min {reads[0]:.2f}, median {reads[len(reads) // 2]:.2f}, "
              f"max {reads[-1]:.2f}")

    cpu_off = single_cpu(args.single_off) if args.single_off else {}
    cpu_on = {float(scale): single_cpu(d) for scale, d in args.single}
    if cpu_off:
        print("| receipt | Mpx read before | page Mpx | CPU off ms | " + " | ".join(f"CPU x{k} ms" for k in cpu_on) + " |")
        print("|---|---|---|---|" + "---|" * len(cpu_on))
        for s, c in sorted(cands.items(), key=lambda x: x[1]["read"]):
            print(f"| {s} | {c['read']:.2f} | {c['page']:.2f} | {cpu_off.get(s, float('nan')):.0f} | "
                  + " | ".join(f"{v.get(s, float('nan')):.0f}" for v in cpu_on.values()) + " |")

    chosen = []
    gates = {
        "budget (read + page*s^2 <= B)": lambda c, s: c["read"] + c["page"] * s * s,
        "page alone (page*s^2 <= P)": lambda c, s: c["page"] * s * s,
    }
    for gate, key in gates.items():
        for scale in sorted(runs):
            print(f"\n{gate}, scale {scale}")
            print("| bound Mpx | read | right | wrong | net | Mpx added | CPU of those read p50 / max ms | changed |")
            print("|---|---|---|---|---|---|---|---|")
            rows = sweep(cands, scale, key)
            for i, (bound, right, wrong, net, n, added, names, served) in enumerate(rows):
                cpu = [cpu_on[scale][s] for s in served if s in cpu_on.get(scale, {})]
                cpu_text = f"{pct(cpu, 50):.0f} / {max(cpu):.0f}" if cpu else "-"
                print(f"| {bound:.2f} | {n} | {right} | {wrong} | {net} | {added:.1f} | {cpu_text} | {' '.join(names)} |")
                within = scale in cpu_on and all(c - args.engine_ms <= args.max_cpu_ms for c in cpu)
                if gate.startswith("budget") and within:
                    upto = rows[i + 1][0] if i + 1 < len(rows) else bound + 1
                    chosen.append(((-net, wrong, bound, -scale), scale, bound, upto, right, wrong))
    if args.cascade:
        chosen = cascade(cands, args, cpu_off, cpu_on, chosen)
    if not chosen:
        print("\nno bound chosen: give --single runs for a scale")
        return 0
    _, scale, bound, upto, right, wrong = min(chosen)
    if isinstance(scale, tuple):
        print(f"\nchosen: cascade {scale[0]} then {scale[1]}, fallback_reading_megapixels {scale[2]:.1f}, the second "
              f"reading's budget {(bound + upto) / 2:.1f} (plateau {bound:.2f} to {upto:.2f}; right {right}, wrong {wrong}, net {right - wrong}; no receipt "
              f"read past {args.max_cpu_ms:.0f} ms of stage CPU)")
        return 0
    print(f"\nchosen: scale {scale}, fallback_reading_megapixels {(bound + upto) / 2:.1f} (plateau {bound:.2f} to "
          f"{upto:.2f}; right {right}, wrong {wrong}, net {right - wrong}; no receipt read past "
          f"{args.max_cpu_ms:.0f} ms of stage CPU)")
    return 0


def within(cpu, missing, args):
    return not missing and all(c - args.engine_ms <= args.max_cpu_ms for c in cpu)


def cascade(cands, args, cpu_off, cpu_on, chosen):
    """The `--cascade` gate's tables; returns the choice among the second sweep's bounds (see the
    docstring), or `chosen` unchanged when none qualifies."""
    s1, s2 = args.cascade
    first = lambda c: c["read"] + c["page"] * s1 * s1  # noqa: E731
    both = lambda c: c["read"] + c["page"] * (s1 * s1 + s2 * s2)  # noqa: E731
    _, _, b1_low, b1_high, _, _ = min(chosen)
    b1 = (b1_low + b1_high) / 2
    seconds = sorted({round(both(c), 2) for c in cands.values() if not c["took"][s1]})
    out = []
    for title, pairs in [
        ("one budget B for both readings", [(b, b) for b in [0.0] + sorted(set(seconds) | {round(first(c), 2) for c in cands.values()})]),
        (f"B = {b1:.1f} (single-scale choice), the second reading's own budget B2", [(b1, b) for b in [0.0] + [x for x in seconds if x <= b1]]),
    ]:
        print(f"\ncascade: scale {s1}, then {s2} where {s1} took nothing; {title}")
        print("| B | B2 | read once | read twice | right | wrong | net | CPU of those read p50 / max ms | changed |")
        print("|---|---|---|---|---|---|---|---|---|")
        rows = []
        for b, b2 in pairs:
            right = wrong = once = twice = 0
            names, cpu, missing = [], [], False
            for s, c in cands.items():
                if round(first(c), 2) > b:
                    continue
                out_s, ms = c["out"][s1], cpu_on.get(s1, {}).get(s)
                if not c["took"][s1] and round(both(c), 2) <= b2:
                    twice += 1
                    out_s = c["out"][s2]
                    extra = cpu_on.get(s2, {}).get(s)
                    ms = ms + extra - cpu_off[s] if ms is not None and extra is not None and s in cpu_off else None
                else:
                    once += 1
                if ms is None:
                    missing = True
                else:
                    cpu.append(ms)
                for f, v in out_s.items():
                    right += v > 0
                    wrong += v < 0
                    if v:
                        names.append(f"{'+' if v > 0 else '-'}{f[0]} {s}")
            rows.append((b, b2, once, twice, right, wrong, names, cpu, missing))
        for i, (b, b2, once, twice, right, wrong, names, cpu, missing) in enumerate(rows):
            cpu_text = (f"{pct(cpu, 50):.0f} / {max(cpu):.0f}" if cpu else "-") + (" (some not measured)" if missing else "")
            print(f"| {b:.2f} | {b2:.2f} | {once} | {twice} | {right} | {wrong} | {right - wrong} | {cpu_text} | {' '.join(names)} |")
            if title.startswith("B =") and within(cpu, missing, args):
                # The plateau runs on while the outcome stays and no receipt passes the CPU cap.
                j = i + 1
                while j < len(rows) and rows[j][4:6] == (right, wrong) and within(rows[j][7], rows[j][8], args):
                    j += 1
                upto = rows[j][1] if j < len(rows) else b1
                out.append(((-(right - wrong), wrong, b2, 0), (s1, s2, b1), b2, upto, right, wrong))
    return out or chosen

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
