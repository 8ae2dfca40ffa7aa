#!/usr/bin/env python3
"""Which photo effects go with a lost name: exact names (score_cards.py's comparison) of generated
photos grouped by each render effect (with / without), by JPEG quality and by how large the card
is in the photo (the truth quad's mean top and bottom edge over the crop's 1012 px). A bench tool:
run it on `--split train` sets only.

    python bench/names/photo_effects.py GEN_DIR RECORDS [GEN_DIR RECORDS ...]
"""
import collections
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen"))
import score_cards as S  # noqa: E402


def rows(gen_dir, records_path):
    records = {}
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            records[os.path.basename(r["file"])] = r
    for fn in sorted(os.listdir(gen_dir)):
        if not fn.endswith(".json"):
            continue
        with open(os.path.join(gen_dir, fn), encoding="utf-8") as f:
            t = json.load(f)
        if "generator" in t and t.get("kind") == "photo" and t.get("name"):
            yield t, S.score_one(t, records.get(t["file"]))["name_exact"]


def scale(t):
    q = t.get("quad")
    if not q:
        return None
    d = lambda a, b: math.hypot(a[0] - b[0], a[1] - b[1])  # noqa: E731
    return (d(q[0], q[1]) + d(q[3], q[2])) / 2 / 1012


def main():
    pairs = sys.argv[1:]
    data = [row for i in range(0, len(pairs), 2) for row in rows(pairs[i], pairs[i + 1])]
    total = sum(e for _, e in data)
    print(f"{len(data)} named photos, exact {total} ({100 * total / len(data):.0f} %)\n")
    print("| effect | with: n, exact | without: n, exact |\n|---|---|---|")
    effects = collections.Counter(e.split("_q")[0] for t, _ in data for e in set(t.get("effects") or []))
    for effect, _ in effects.most_common():
        has = [x for t, x in data if any(e.split("_q")[0] == effect for e in t.get("effects") or [])]
        not_ = [x for t, x in data if not any(e.split("_q")[0] == effect for e in t.get("effects") or [])]
        if len(has) >= 5 and not_:
            print(f"| {effect} | {len(has)}, {100 * sum(has) / len(has):.0f} % "
                  f"| {len(not_)}, {100 * sum(not_) / len(not_):.0f} % |")
    for title, key, bins in (("JPEG quality", lambda t: t.get("jpeg_quality"), [0, 70, 80, 90, 101]),
                             ("card width in the photo / crop width", scale, [0, 0.75, 0.9, 1.05, 1.2, 9])):
        print(f"\n| {title} | n | exact |\n|---|---|---|")
        for lo, hi in zip(bins, bins[1:]):
            group = [x for t, x in data if key(t) is not None and lo <= key(t) < hi]
            if group:
                print(f"| {lo}–{hi} | {len(group)} | {100 * sum(group) / len(group):.0f} % |")


if __name__ == "__main__":
    main()
