#!/usr/bin/env python3
"""Gathers bench/issuers/eval.sh's outputs into one JSON (stdout) and times
`snapsort issuers search` (process start included, as a user runs it)."""
import argparse
import json
import os
import statistics
import subprocess
import time

QUERIES = [
    ("zabka", None), ("Żabka", "PL"), ("clubcard", "GB"), ("lidl", None), ("ikea famly", None),
    ("rossman", "DE"), ("carefour", "FR"), ("albert hein", "NL"), ("silpo", "UA"), ("Сільпо", None),
    ("esselunga", "IT"), ("mercadona", "ES"), ("ica", "SE"), ("target", "US"), ("starbucks", None),
]


def search_latency(snapsort, repeats=3):
    times = []
    for _ in range(repeats):
        for text, country in QUERIES:
            command = [snapsort, "issuers", "search", text] + (["--country", country] if country else [])
            start = time.perf_counter()
            subprocess.run(command, capture_output=True)
            times.append((time.perf_counter() - start) * 1000)
    # The same process doing nothing but print its version: what of the above is process start
    # (dynamic loading, scheduling on a busy machine) rather than search.
    startup = []
    for _ in range(len(QUERIES)):
        start = time.perf_counter()
        subprocess.run([snapsort, "--version"], capture_output=True)
        startup.append((time.perf_counter() - start) * 1000)
    return {"queries": len(times), "median_ms": statistics.median(times), "max_ms": max(times),
            "startup_median_ms": statistics.median(startup)}


def breakdown(cards):
    """Top-1 of known cards and unknown recall, for photos (.jpg) and screenshots (.png)."""
    out = {}
    for kind, suffix in (("photos", ".jpg"), ("screenshots", ".png")):
        chosen = [c for c in cards if c["source"].endswith(suffix)]
        known = [c for c in chosen if c["truth"] is not None]
        unknown = [c for c in chosen if c["truth"] is None]
        out[kind] = {
            "known": len(known), "top1": sum(c["answer"] == c["truth"] for c in known) / max(1, len(known)),
            "unknown": len(unknown), "unknown_recall": sum(c["answer"] is None for c in unknown) / max(1, len(unknown)),
        }
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", required=True)
    parser.add_argument("--snapsort", required=True)
    args = parser.parse_args()
    with open(os.path.join(args.set, "split.json")) as f:
        split = json.load(f)
    with open(os.path.join(args.set, "train-time.json")) as f:
        train_time = json.load(f)
    load_path = os.path.join(args.set, "train-load.json")
    if os.path.exists(load_path):
        with open(load_path) as f:
            train_time.update(json.load(f))
    with open(os.path.join(args.set, "eval.json")) as f:
        evaluation = json.load(f)
    with open(os.path.join(args.set, "model.json")) as f:
        model = json.load(f)
    log = open(os.path.join(args.set, "train.log")).read().strip().splitlines()
    cards = evaluation.pop("cards")
    result = {
        "split": split,
        "train": dict(train_time, cpu_s=train_time["user_s"] + train_time["sys_s"], log=log[-1] if log else "",
                      threshold=model["threshold"]),
        "eval": evaluation,
        "by_kind": breakdown(cards),
        "search": search_latency(args.snapsort),
    }
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
