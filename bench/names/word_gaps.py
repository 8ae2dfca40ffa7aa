#!/usr/bin/env python3
"""How far apart tesseract's words of a name line read on its own are, and which gap joins them.
For every training card's single-line candidate within 0.8 of the printed name (the first one, as
line_prep.py takes it), cuts the line out of the edge-kept flattened crop at 48 px, reads it with
`tesseract -l Latin --psm 7` (TSV, word boxes) and counts exact names when words closer than T
line heights are joined into one word, for a grid of T, in two ways: `ends` joins only a lone
lowercase letter at the line's end to its neighbour (CardNamePicker.clean drops such a letter as a
speck: `Kowalczy` `k`), `letters` does so for a lone letter of either case, `all` joins any two words. A bench tool: run it on `--split train` sets only.

    python bench/names/word_gaps.py LOG=DIR ... [--grid 0.1,0.2,0.3]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
from line_margin import crops  # noqa: E402
from line_prep import cut, flattened_edges  # noqa: E402

HEIGHT = 48


def read_words(images):
    """Each image's words as (left, right, confidence, text), one tesseract process (TSV pages)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, image in enumerate(images):
            paths.append(os.path.join(d, f"{i:05d}.png"))
            image.save(paths[-1])
        with open(os.path.join(d, "list.txt"), "w") as f:
            f.write("\n".join(paths) + "\n")
        out = subprocess.run(["tesseract", os.path.join(d, "list.txt"), "stdout", "-l", "Latin", "--psm", "7", "tsv"],
                             capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"}).stdout
    words = [[] for _ in images]
    for row in out.splitlines()[1:]:
        p = row.split("\t")
        if len(p) < 12 or p[0] != "5" or not p[11].strip():
            continue
        left, width = int(p[6]), int(p[8])
        words[int(p[1]) - 1].append((left, left + width, float(p[10]), p[11]))
    return words


def cleaned(words, gap, mode):
    """CardNamePicker.clean's legibility and end-letter rules, words nearer than `gap` px joined."""
    joined = []
    for i, w in enumerate(words):
        def lone(word, index):
            return len(word[3]) == 1 and word[3].isalpha() and (mode == "letters" or word[3].islower()) \
                and index in (0, len(words) - 1)
        near = joined and w[0] - joined[-1][1] < gap
        if near and (mode == "all" or lone(w, i) or (i == 1 and lone(joined[-1], 0))):
            left, _, conf, text = joined[-1]
            joined[-1] = (left, w[1], min(conf, w[2]), text + w[3])
        else:
            joined.append(w)
    texts = [t for _, _, c, t in joined
             if sum(ch.isalnum() for ch in t) * 2 >= len(t) and (c >= 50 or c >= 20 and len(t) > 1)]
    while len(texts) > 1 and len(texts[0]) == 1 and texts[0].islower():
        texts.pop(0)
    while len(texts) > 1 and len(texts[-1]) == 1 and texts[-1].islower():
        texts.pop()
    return " ".join(texts).strip(" .,;:-_'\"|")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--grid", default="0,0.1,0.15,0.2,0.25,0.3,0.4,0.5")
    args = ap.parse_args()
    names, images = [], []
    for pair in args.sets:
        crop_of = crops(pair)
        for truth, candidates in F.load([pair]):
            if truth["file"] not in crop_of:
                continue
            want = F.fold(truth["name"])
            near = [c for c in candidates if c["features"].get("lines", 1) == 1
                    and c["features"].get("image_line", 0) == 0
                    and any(F.ratio(F.fold(t), want) >= 0.8
                            for t in (c["text"], (c.get("reread") or {}).get("text", "")))]
            if not near:
                continue
            gray = np.asarray(Image.open(crop_of[truth["file"]]).convert("L"))
            images.append(cut(flattened_edges(gray), near[0]["box"], HEIGHT))
            names.append(truth["name"])
    words = read_words(images)
    print(f"{len(names)} name lines")
    for mode in ("ends", "letters", "all"):
        for t in (float(v) for v in args.grid.split(",")):
            exact = sum(F.norm(cleaned(w, t * HEIGHT, mode)) == F.norm(n) for n, w in zip(names, words))
            print(f"{mode:5s} gap < {t:.2f} heights: exact {exact}/{len(names)}", flush=True)


if __name__ == "__main__":
    main()
