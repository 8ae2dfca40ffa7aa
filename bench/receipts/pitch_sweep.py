#!/usr/bin/env python3
"""receipt_warp's line_pitch swept on the real receipts by folds.json (a bench tool, never the product).

    pitch_sweep.py run --pitches 70,52,40 --sets fold0,fold1 [--work bench/work/pitch] [--parallel 2]
    pitch_sweep.py summary --sets fold0,fold1 [--work bench/work/pitch]

`run` copies each set's images (fold0..fold4 of the 345 SROIE receipts, `de` the German 14; copies
keep the file times the EXIF-less date check reads) into WORK, writes one config per pitch that
differs from presets/receipts.json only in receipt_warp's line_pitch, and runs snapsort on each
(set, pitch) at --jobs 1 with OMP_THREAD_LIMIT=1, `--parallel` runs at once. `summary` scores the
runs with score.py's rules: total, date, merchant per pitch over the given sets, and CPU seconds
per receipt (user + sys of the whole run over its receipts). Pick on training folds only.
Run from the repository root (snapsort finds presets/ there); SNAPSORT names the binary.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402

DATA = os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts")


def set_members(split):
    members = {}
    for stem, v in split["sroie"].items():
        members.setdefault(f"fold{v['fold']}", []).append((v["folder"], stem))
    members["de"] = [("softmatic_de", stem) for stem in split["test"]]
    return members


def prepare(work, sets, members, pitches):
    for name in sets:
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        for source, stem in members[name]:
            target = os.path.join(folder, stem + ".jpg")
            if not os.path.exists(target):
                shutil.copy2(os.path.join(DATA, source, stem + ".jpg"), target)
    preset = json.load(open("presets/receipts.json", encoding="utf-8"))
    for pitch in pitches:
        config = json.loads(json.dumps(preset))
        for stage in config["stages"]:
            if stage["stage"] == "receipt_warp":
                stage["line_pitch"] = pitch
        json.dump(config, open(os.path.join(work, f"pitch{pitch}.json"), "w"), indent=1)


def run_one(work, binary, pitch, name):
    out = os.path.join(work, f"out-{pitch}-{name}")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    start = time.time()
    child = subprocess.Popen([binary, "run", os.path.join(work, name), "--config", os.path.join(work, f"pitch{pitch}.json"),
                              "--out", out, "--jobs", "1", "--fresh", "--quiet"], env=env)
    _, status, usage = os.wait4(child.pid, 0)
    with open(os.path.join(work, f"time-{pitch}-{name}.txt"), "w") as f:
        f.write(f"real {time.time() - start:.2f}\nuser {usage.ru_utime:.2f}\nsys {usage.ru_stime:.2f}\n")


def cpu_seconds(path):
    fields = dict(line.split()[:2] for line in open(path) if line.split()[:1] in (["user"], ["sys"]))
    return float(fields["user"]) + float(fields["sys"])


def summary(work, sets, members, pitches):
    print("| line_pitch | total | date | merchant | total+date | CPU s/receipt | per set (total/date/merchant) |")
    print("|---|---|---|---|---|---|---|")
    for pitch in pitches:
        hits = {"total": [0, 0], "date": [0, 0], "merchant": [0, 0]}
        seconds, count, per_set = 0.0, 0, []
        for name in sets:
            records, times = os.path.join(work, f"out-{pitch}-{name}", "records.jsonl"), os.path.join(work, f"time-{pitch}-{name}.txt")
            if not (os.path.exists(records) and os.path.exists(times)):
                break
            predictions = score.read_predictions([records])
            right = {"total": 0, "date": 0, "merchant": 0}
            for source, stem in members[name]:
                truth = json.load(open(os.path.join(DATA, source, stem + ".json"), encoding="utf-8"))
                for field, ok in score.field_hits(truth, predictions.get(stem, {})).items():
                    hits[field][0] += ok
                    hits[field][1] += 1
                    right[field] += ok
            per_set.append(f"{name} {right['total']}/{right['date']}/{right['merchant']}")
            seconds += cpu_seconds(times)
            count += len(members[name])
        else:
            cells = [f"{hits[f][0]}/{hits[f][1]} ({hits[f][0] / hits[f][1]:.3f})" for f in ("total", "date", "merchant")]
            print(f"| {pitch} | " + " | ".join(cells) + f" | {hits['total'][0] + hits['date'][0]} | {seconds / count:.2f} | {', '.join(per_set)} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run", "summary"])
    parser.add_argument("--pitches", default="70,60,52,46,40")
    parser.add_argument("--sets", default="fold0,fold1,fold2,fold3")
    parser.add_argument("--work", default="bench/work/pitch")
    parser.add_argument("--parallel", type=int, default=1)
    args = parser.parse_args()
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))
    members = set_members(split)
    pitches = [int(p) for p in args.pitches.split(",")]
    sets = args.sets.split(",")
    if args.command == "summary":
        return summary(args.work, sets, members, pitches)
    prepare(args.work, sets, members, pitches)
    binary = os.environ.get("SNAPSORT", ".build/release/snapsort")
    with ThreadPoolExecutor(args.parallel) as pool:
        list(pool.map(lambda job: run_one(args.work, binary, *job), [(p, s) for p in pitches for s in sets]))


if __name__ == "__main__":
    main()
