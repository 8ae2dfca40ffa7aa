#!/usr/bin/env python3
"""The suggested name read again with the tesseract pack of the card's language, the language
chosen from the card's other text (a bench tool, never the product; run it on `--split train`
sets only when the counts steer a change).

    python bench/names/line_language.py --train LOG=DIR ... [--sets LOG=DIR,... ...] [--min-words 1]

The name model is fitted as fit_names.py fits it (on `--train`) and picks each card's name as
misses.py simulates it. The picked candidate's lines (the boxes its Latin re-reading was cut by,
as logged) are cut out of the logging run's crop as the ocr stage cuts them (a third of the
height around, scaled to 48 px, from the page flattened with its panel edges kept: line_prep.py's
`edge40_4`) and read with `tesseract --psm 7`:
  - with `Latin` (how closely the replay follows the stage's logged reading),
  - with the pack of the language whose small-print and programme words (CardNameLexicon, parsed
    from the Swift source) the card's other page lines hold most of, at least `--min-words`
    (none: the Latin reading stays; Cyrillic languages are left to the Cyrillic choice),
  - with the pack of the render's own language (the most a language choice could give).
The pack's reading replaces the name when its confidence (the mean of its words', per line, the
lowest line) is at least T; T is swept and the best on the `--train` cards is reported with what
it does on every set. The packs are not in the presets: install them for the bench
(`apt-get install tesseract-ocr-deu tesseract-ocr-fra ...`, or name them in a config and run
scripts/ensure-deps.sh).
"""
import argparse
import collections
import json
import os
import re
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
from line_margin import crops  # noqa: E402
from line_prep import flattened_edges, tesseract_list  # noqa: E402

PACKS = {"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "sv": "swe", "pl": "pol"}
LEXICON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/SnapsortStages/Text/"
                       "CardNameLexicon+Languages.swift")


def lexicon():
    """Language code -> its boilerplate and programme words, from the Swift source."""
    source = open(LEXICON, encoding="utf-8").read()
    words = {}
    for block in re.split(r"Language\(\s*code:", source)[1:]:
        code = re.match(r'\s*"([a-z]+)"', block).group(1)
        found = set()
        for key in ("boilerplate", "programme"):
            m = re.search(key + r":\s*\[(.*?)\]", block, re.S)
            if m:
                found |= set(re.findall(r'"([^"]+)"', m.group(1)))
        words[code] = found
    return words


def card_language(entry, chosen_text, words, min_words):
    """The language whose words the card's page lines (all logged candidates' page text but the
    picked one's, each distinct text once) hold most of; None on a tie or under `min_words`."""
    texts = {c["text"] for c in entry["candidates"] if c["text"] != chosen_text}
    tokens = collections.Counter()
    for t in texts:
        for tok in re.findall(r"[^\W\d_]+", t.lower()):
            tokens[tok] += 1
    # A token counted once per card: a line repeated in runs would weigh it again.
    present = set(tokens)
    hits = {code: len(present & w) for code, w in words.items()}
    best = max(hits.values())
    leaders = [c for c, n in hits.items() if n == best]
    if best < min_words or len(leaders) != 1:
        return None
    return leaders[0]


def cut(page, box, height=48):
    """CardNameReader.lineCut: a third of the height around, scaled so the box is `height` high."""
    x, y, w, h = box
    m = h / 3
    x0, y0 = max(0, int(x - m)), max(0, int(y - m))
    x1, y1 = min(page.shape[1], int(x + w + m)), min(page.shape[0], int(y + h + m))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    image = Image.fromarray(page[y0:y1, x0:x1])
    if h >= 4:
        s = height / h
        image = image.resize((max(8, round(image.width * s)), max(8, round(image.height * s))), Image.BILINEAR)
    return image


def read_all(images, lang):
    """(text, confidence) per image: one tesseract process over a list file, TSV out."""
    if not images:
        return []
    out = tesseract_list(images, lang, "tsv")
    words = collections.defaultdict(list)
    for row in out.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        words[int(cols[1]) - 1].append((cols[11].strip(), float(cols[10])))
    result = []
    for i in range(len(images)):
        ws = words.get(i, [])
        text = " ".join(w for w, _ in ws)
        result.append((text, float(np.mean([c for _, c in ws])) if ws else 0.0))
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--sets", nargs="*", default=[])
    ap.add_argument("--min-words", type=int, default=1)
    ap.add_argument("--show", type=int, default=0, help="print up to N changed names per set")
    args = ap.parse_args()
    words = lexicon()
    train = F.load(args.train)
    model, scaler, threshold, reread, cyrillic = F.fit(train, 1.0)
    rows = []  # per card: set, truth, got, lines [(page, box)], detected, own
    for name in args.sets or args.train:
        for pair in name.split(","):
            crop_of = crops(pair)
            for entry, truth, _ in F.logged_with_truth([pair]):
                if not truth["name"]:
                    continue
                candidates = F.kept(entry["candidates"])
                best = F.picked(candidates, model, scaler, threshold)
                got = F.text_of(best, reread, cyrillic) if best else ""
                row = {"set": name, "file": truth["file"], "name": truth["name"], "got": got, "lines": [],
                       "own": truth.get("language"), "detected": None}
                took_cyrillic = best is not None and got == (best.get("cyrillic") or {}).get("text")
                boxes = ((best or {}).get("reread") or {}).get("boxes") or []
                if best and boxes and not took_cyrillic and truth["file"] in crop_of:
                    row["detected"] = card_language(entry, best["text"], words, args.min_words)
                    row["crop"] = crop_of[truth["file"]]
                    row["lines"] = boxes
                rows.append(row)
    # Cut every line once; read the cuts with Latin and with each pack they need.
    pages = {}
    cuts = []  # (row index, line index, image)
    for r, row in enumerate(rows):
        if not row["lines"]:
            continue
        if row["crop"] not in pages:
            pages[row["crop"]] = flattened_edges(np.asarray(Image.open(row["crop"]).convert("L")), 40, 4)
        images = [cut(pages[row["crop"]], b) for b in row["lines"]]
        if any(im is None for im in images):
            row["lines"] = []
            continue
        cuts += [(r, k, im) for k, im in enumerate(images)]
        pages.pop(row["crop"])
    langs = {"Latin"} | {PACKS[row[k]] for row in rows if row["lines"] for k in ("own", "detected") if row[k] in PACKS}
    readings = {}
    for lang in sorted(langs):
        want = [(r, k, im) for r, k, im in cuts if lang == "Latin" or lang in (PACKS.get(rows[r]["own"]),
                                                                              PACKS.get(rows[r]["detected"]))]
        for (r, k, _), reading in zip(want, read_all([im for _, _, im in want], lang)):
            readings.setdefault((r, lang), {})[k] = reading
        print(f"read {len(want)} lines with {lang}", file=sys.stderr, flush=True)

    def joined(r, lang):
        parts = readings.get((r, lang))
        if not parts or len(parts) != len(rows[r]["lines"]):
            return None
        texts = [parts[k][0] for k in range(len(parts))]
        if not all(texts):
            return None
        return " ".join(texts), min(parts[k][1] for k in range(len(parts)))

    def exact(text, row):
        return F.norm(text) == F.norm(row["name"])

    for r, row in enumerate(rows):
        row["latin"] = joined(r, "Latin") if row["lines"] else None
        row["by_detected"] = joined(r, PACKS[row["detected"]]) if row["lines"] and row["detected"] in PACKS else None
        row["by_own"] = joined(r, PACKS[row["own"]]) if row["lines"] and row["own"] in PACKS else None

    def replaced(row, key, t):
        reading = row[key]
        return reading[0] if reading and reading[1] >= t else row["got"]

    thresholds = list(range(0, 100, 5))
    train_sets = set(args.train) if not args.sets else {args.sets[0]}
    gains = {t: sum(exact(replaced(row, "by_detected", t), row) - exact(row["got"], row)
                    for row in rows if row["set"] in train_sets) for t in thresholds}
    fitted = max(thresholds, key=lambda t: (gains[t], t))
    print(f"threshold fitted on {sorted(train_sets)}: {fitted} (gain by threshold: "
          + ", ".join(f"{t}:{g:+d}" for t, g in gains.items()) + ")")
    for name in args.sets or args.train:
        mine = [row for row in rows if row["set"] == name]
        read = [row for row in mine if row["lines"]]
        agree = sum(row["latin"] is not None and F.norm(row["latin"][0]) == F.norm(row["got"]) for row in read)
        detected = collections.Counter("right" if row["detected"] == row["own"] else
                                       ("none" if row["detected"] is None else "wrong") for row in read)
        print(f"{name}: {len(mine)} cards, simulated exact {sum(exact(row['got'], row) for row in mine)}; "
              f"{len(read)} picked names cut and read (Latin replay equals the simulated name on {agree}); "
              f"language detected {dict(detected)}")
        for key in ("by_detected", "by_own"):
            for t in sorted({0, fitted}):
                after = [replaced(row, key, t) for row in mine]
                won = sum(exact(a, row) and not exact(row["got"], row) for a, row in zip(after, mine))
                lost = sum(not exact(a, row) and exact(row["got"], row) for a, row in zip(after, mine))
                print(f"  {key:12s} conf >= {t:2d}: exact {sum(exact(a, row) for a, row in zip(after, mine))} "
                      f"(+{won} -{lost})")
        shown = 0
        for row in mine:
            after = replaced(row, "by_detected", fitted)
            if exact(after, row) != exact(row["got"], row) and shown < args.show:
                shown += 1
                print(f"    {row['file']} [{row['own']}/{row['detected']}] {row['name']!r}: {row['got']!r} -> "
                      f"{after!r} ({row['by_detected'][1]:.0f})")


if __name__ == "__main__":
    main()
