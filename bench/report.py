#!/usr/bin/env python3
"""Formats the results of one `make bench` run as Markdown (printed and saved)."""
import glob
import json
import os
import platform
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return f"{os.cpu_count()} cores ({cpu}), {memory:.0f} GiB, {platform.platform()}, {swift[0] if swift else 'swift ?'}"


def geometry_speed(results):
    """Card detection and palette per image on one core: the median CPU time of the worker
    thread at --jobs 1, which other processes on the machine hardly change (wall time does)."""
    runs = [("photos (cards preset)", "snapsort-cards-j1.json"), ("screenshots (geometry stages)", "geometry-screenshots-j1.json")]
    rows = []
    for label, name in runs:
        path = os.path.join(results, name)
        if not os.path.exists(path):
            continue
        stages = load(path).get("stages", {})
        cells = []
        for stage, target in (("detect_card", 20), ("palette", 10)):
            timing = stages.get(stage) or {}
            cpu = timing.get("cpu_p50_ms")
            cells.append("—" if cpu is None else
                         f"{cpu:.1f} ({'met' if cpu <= target else 'NOT met'}; wall {timing.get('p50_ms', 0):.1f})")
        rows.append(f"| {label} | {' | '.join(cells)} |")
    if not rows:
        return []
    return ["## Card geometry speed (median CPU ms per image on one core, --jobs 1)", "",
            "| images | detect_card (target ≤ 20) | palette (target ≤ 10) |", "|---|---|---|"] + rows + [""]


def issuer_section(data):
    """bench/issuers/eval.sh's measures against issue #6's targets."""
    split, train, ev, search = data["split"], data["train"], data["eval"], data["search"]

    def met(ok):
        return "met" if ok else "**missed**"

    def pct(value):
        return f"{100 * value:.1f} %"

    lines = ["## Issuers", "",
             f"Rendered with `scripts/render_samples.py --issuers` (photos and wallet screenshots of every catalog "
             f"issuer), split by file; {split['held-out']['issuers']} issuers held out of training "
             f"(bench/issuers/held_out.txt) and removed from the catalog, so they must come back unknown.", "",
             "| part | images | photos | screenshots | issuers |", "|---|---|---|---|---|"]
    for part in ("train", "test", "held-out"):
        p = split[part]
        lines.append(f"| {part} | {p['images']} | {p['photos']} | {p['screenshots']} | {p['issuers']} |")
    by_kind = data.get("by_kind", {})
    lines += ["", "| measure | value | target |", "|---|---|---|",
              f"| top-1 on the test split | {pct(ev['top1'])} ({ev['known']} cards) | ≥ 92 %: {met(ev['top1'] >= 0.92)} |",
              f"| top-3 on the test split | {pct(ev['top3'])} | |",
              f"| unknown recall on held-out issuers | {pct(ev['unknown_recall'])} ({ev['correct_unknown']}/{ev['unknown']}) "
              f"| ≥ 90 %: {met(ev['unknown_recall'] >= 0.90)} |",
              f"| unknown precision (test + held-out) | {pct(ev['unknown_precision'])} "
              f"({ev['correct_unknown']}/{ev['predicted_unknown']}) | |"]
    for kind in ("photos", "screenshots"):
        k = by_kind.get(kind)
        if k:
            lines.append(f"| {kind}: top-1 / unknown recall | {pct(k['top1'])} of {k['known']} / "
                         f"{pct(k['unknown_recall'])} of {k['unknown']} | |")
    load_note = (f", load average {train['load_before']:.1f} before, {train['load_after']:.1f} after"
                 if "load_before" in train else "")
    lines += [f"| `train-issuers` on {split['train']['images']} images, --jobs 2 | {train['wall_s']:.1f} s wall, "
              f"{train['cpu_s']:.1f} s CPU (pipeline + fit){load_note} | < 60 s wall: {met(train['wall_s'] < 60 and split['train']['images'] >= 500)} |",
              f"| unknown threshold (calibrated on training cards) | {train['threshold']:.2f} | |",
              f"| `issuers search` (process), {search['queries']} runs | median {search['median_ms']:.1f} ms, "
              f"max {search['max_ms']:.1f} ms | ≤ 100 ms: {met(search['median_ms'] <= 100)} |"]
    if "startup_median_ms" in search:
        lines.append(f"| `snapsort --version` (process start alone) | median {search['startup_median_ms']:.1f} ms | |")
    if ev.get("confused"):
        lines += ["", "Most confused (truth → answer): " +
                  ", ".join(f"{c['pair']} ×{c['count']}" for c in ev["confused"][:8])]
    if train.get("log"):
        lines += ["", f"Training: {train['log']}"]
    return lines


def main():
    results, output = sys.argv[1], sys.argv[2]
    lines = ["# Benchmark results", "", f"Machine: {machine()}", "",
             "Generated by `make bench` (bench/run.sh); every number below comes from this one run.", ""]
    lines += ["## Throughput (images/s, medians per stage in ms)", "",
              "| run | images | wall s | images/s | peak RSS MB | stage p50 ms | stage p50 CPU ms (worker thread) |",
              "|---|---|---|---|---|---|---|"]
    rates = {}
    for path in sorted(glob.glob(os.path.join(results, "snapsort-*.json")) + glob.glob(os.path.join(results, "baseline-*.json"))):
        name = os.path.basename(path)[:-5]
        data = load(path)
        images = data.get("images") or data.get("counts", {}).get("inputs", 0)
        wall = data.get("wall_seconds", 0) or 1e-9
        rate = images / wall
        rates[name] = rate
        stages = ", ".join(f"{s} {v.get('p50_ms', 0):.1f}" for s, v in sorted(data.get("stages", {}).items()))
        cpu = ", ".join(f"{s} {v['cpu_p50_ms']:.1f}" for s, v in sorted(data.get("stages", {}).items())
                        if v.get("cpu_p50_ms") is not None) or "—"
        rss = data.get("peak_rss_mb", "—")
        lines.append(f"| {name} | {images} | {wall:.2f} | {rate:.1f} | {rss} | {stages} | {cpu} |")
    lines.append("")
    ratio_lines = []
    for jobs in (1, 2):
        s, b = rates.get(f"snapsort-cards-j{jobs}"), rates.get(f"baseline-cards-j{jobs}")
        if s and b:
            ratio_lines.append(f"- cards preset / Python baseline, jobs={jobs}: **{s / b:.1f}×** ({s:.1f} vs {b:.1f} images/s)")
    for preset in ("cards", "screenshots", "receipts"):
        one, two = rates.get(f"snapsort-{preset}-j1"), rates.get(f"snapsort-{preset}-j2")
        if one and two:
            ratio_lines.append(f"- {preset}: jobs=2 / jobs=1 = **{two / one:.2f}×**")
    rss = {size: load(p)["peak_rss_mb"] for size in (100, 2000)
           for p in [os.path.join(results, f"rss-{size}.json")] if os.path.exists(p)}
    if len(rss) == 2:
        ratio_lines.append(f"- peak RSS: {rss[100]} MB for 100 photos, {rss[2000]} MB for 2 000 "
                           f"(**{rss[2000] / rss[100]:.2f}×**)")
    mixed = os.path.join(results, "default-mixed-j2.json")
    if os.path.exists(mixed):
        run = load(mixed)
        ratio_lines.append(f"- peak RSS, default pipeline.json on {run['counts']['inputs']} mixed cards, screenshots "
                           f"and receipts, jobs=2: **{run['peak_rss_mb']} MB** (target ≤ 300)")
    if ratio_lines:
        lines += ["## Ratios", ""] + ratio_lines + [""]
    lines += geometry_speed(results)
    issuers = os.path.join(results, "issuers.json")
    if os.path.exists(issuers):
        lines += issuer_section(load(issuers)) + [""]
    for path in sorted(glob.glob(os.path.join(results, "*.md"))):
        lines += [open(path).read().rstrip(), ""]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
