#!/usr/bin/env python3
"""Writes bench/speed/eval.sh's held-out speed section (markdown, stdout): the cards preset against
the Python baseline pair by pair, per-stage CPU, peak RSS and both tools' accuracy on the same
held-out images (scored by bench/gen/score_cards.py's rules)."""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import score_cards  # noqa: E402


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def records(path):
    by_file = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                by_file[os.path.basename(r["file"])] = r
    return by_file


MEASURES = [("name exact", "name_exact", None), ("quad IoU ≥ 0.9", "iou", lambda v: v >= 0.9),
            ("colour ΔE00 < 10", "colour_ok", None), ("code exact", "code_exact", None),
            ("false codes", "false_code", None)]


def accuracy(images, by_file):
    truths = [load(os.path.join(images, fn)) for fn in sorted(os.listdir(images)) if fn.endswith(".json")]
    scored = [score_cards.score_one(t, by_file.get(t["file"])) for t in truths if "generator" in t]
    return {label: score_cards.cell(scored, key, f) for label, key, f in MEASURES}, len(scored)


def scaling(time, count, rounds):
    """Throughput by --jobs (issue #28 item 5): jobs 2 is the median of the paired rounds."""
    walls = {1: time["snapsort-j1"]["wall_s"],
             2: statistics.median(time[f"snapsort-j2-r{r}"]["wall_s"] for r in range(1, rounds + 1))}
    if "snapsort-j4" in time:
        walls[4] = time["snapsort-j4"]["wall_s"]
    out = [f"Scaling on this machine ({os.cpu_count()} cores; target: jobs 2 ≥ 1.8× jobs 1):", "",
           "| --jobs | wall s | images/s | × jobs 1 |", "|---|---|---|---|"]
    for jobs, wall in sorted(walls.items()):
        out.append(f"| {jobs} | {wall:.2f} | {count / wall:.1f} | {walls[1] / wall:.2f}× |")
    return out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("set")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    runs = os.path.join(args.set, "runs")
    time = {name[:-5]: load(os.path.join(runs, name)) for name in os.listdir(runs) if name.endswith(".time")}
    loads = {name[:-5]: load(os.path.join(runs, name)) for name in os.listdir(runs) if name.endswith(".load")}
    images = os.path.join(args.set, "images")
    count = len([f for f in os.listdir(images) if f.endswith(".json")])

    pairs = []
    for r in range(1, args.rounds + 1):
        s, b = time[f"snapsort-j2-r{r}"], time[f"baseline-j2-r{r}"]
        pairs.append((r, s["wall_s"], b["wall_s"], b["wall_s"] / s["wall_s"]))
    ratios = [p[3] for p in pairs]
    out = [f"## Held-out cards: cards preset against the Python baseline (issue #28)", "",
           f"{count} images rendered by `bench/gen/cards.py --kind mixed --split heldout` (photos and wallet "
           f"screenshots; font, layout and app families never tuned on), `{os.path.basename(args.set)}`. "
           f"{args.rounds} pairs at `--jobs 2`, alternating which runs first; one run of each at `--jobs 1`. "
           "Wall times include process start and model loading.", "",
           "| pair | snapsort s | baseline s | baseline / snapsort | load before (s, b) |", "|---|---|---|---|---|"]
    for r, s, b, ratio in pairs:
        out.append(f"| {r} | {s:.2f} | {b:.2f} | {ratio:.2f}× | {loads[f'snapsort-j2-r{r}']['load_before']}, "
                   f"{loads[f'baseline-j2-r{r}']['load_before']} |")
    out += ["", f"**Speed-up, median of {len(ratios)} pairs: {statistics.median(ratios):.2f}×** "
            f"(spread {min(ratios):.2f}–{max(ratios):.2f}×; target ≥ 3×).", ""]

    out += scaling(time, count, args.rounds)
    out += ["| run | wall s | CPU s (user + sys) | peak RSS MB (process tree's largest) | snapsort's own peak RSS MB |",
            "|---|---|---|---|---|"]
    for name in ["snapsort-j1", "baseline-j1", "snapsort-j4"] + [
            f"{t}-j2-r{r}" for r in range(1, args.rounds + 1) for t in ("snapsort", "baseline")]:
        if name not in time:
            continue
        t = time[name]
        own = ""
        run_json = os.path.join(runs, name, "run.json")
        if os.path.exists(run_json):
            own = str(load(run_json).get("peak_rss_mb", ""))
        out.append(f"| {name} | {t['wall_s']:.2f} | {t['user_s'] + t['sys_s']:.2f} | {t['max_rss_kb'] / 1024:.0f} | {own} |")
    out.append("")

    for name in ("snapsort-j1", "snapsort-j2-r1"):
        stages = load(os.path.join(runs, name, "run.json")).get("stages", {})
        out += [f"Per stage, `{name}` (thread CPU ms):", "", "| stage | count | CPU p50 | CPU p95 | wall sum |",
                "|---|---|---|---|---|"]
        for stage, s in sorted(stages.items(), key=lambda kv: -kv[1].get("total_ms", 0)):
            out.append(f"| {stage} | {s['count']} | {s['cpu_p50_ms']:.1f} | {s['cpu_p95_ms']:.1f} | {s['total_ms']:.0f} |")
        out.append("")

    snap, snap_n = accuracy(images, records(os.path.join(runs, "snapsort-j2-r1", "records.jsonl")))
    base, _ = accuracy(images, records(os.path.join(runs, "baseline-j2-r1.jsonl")))
    out += [f"Accuracy on the same {snap_n} images (round 1; bench/gen/score_cards.py's rules):", "",
            "| measure | snapsort cards preset | Python baseline |", "|---|---|---|"]
    out += [f"| {label} | {snap[label]} | {base[label]} |" for label, _, _ in MEASURES]
    print("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
