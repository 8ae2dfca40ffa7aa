#!/usr/bin/env python3
"""Fits the ocr stage's `cyrillic_letters_per_height` (a bench tool, never the product): the gate
that skips the suggested name's Cyrillic readings (`cyrillic_languages`) when no reading of them
could be taken over its Latin reading.

    python bench/speed/fit_cyrillic_gate.py --model name-model.json --train LOG ... [--check LOG ...]

LOG is a `name_candidates_file` log (bench/names/fit.sh writes them), which holds every
candidate's Latin and Cyrillic readings. The Cyrillic choice (CyrillicChoice) is a logistic
regression, so over every reading the Cyrillic packs could make of a line (confidence 0-100,
Cyrillic share 0-1, 1 to N letters) its largest probability lies at a corner of those ranges:
knowing the Latin reading and the page's confidence, the stage asks whether that largest
probability reaches the choice's threshold, and reads the line with the Cyrillic packs only then.
N is the line's width in heights times the fitted letters per height: the most Cyrillic letters
per height of line any training candidate was read with, times MARGIN, so that a longer reading
than training ever saw still cannot be left unread. Reports, for the suggested (first) candidate
of each training photo, how many readings the gate skips and whether any reading the choice took
would have been skipped (it must be none); `--check` logs (held out) are only reported.
"""
import argparse
import json
import math

from fit_names import cyrillic_measurements, has_diacritics

MARGIN = 1.5


def aspect(candidate):
    """Width over height of the candidate's lines, summed: its page box for one line, the boxes
    its readings cut for several (the log keeps only the union of a name's line boxes)."""
    boxes = (candidate.get("cyrillic") or candidate.get("reread") or {}).get("boxes")
    if candidate["features"].get("lines", 1) > 1 and boxes:
        return sum(b[2] / max(1.0, b[3]) for b in boxes)
    box = candidate["box"]
    return box[2] / max(1.0, box[3])


class Choice:
    def __init__(self, model):
        c = json.load(open(model, encoding="utf-8"))["cyrillic"]
        self.terms = list(zip(c["features"], c["mean"], c["scale"], c["weights"]))
        self.bias, self.threshold = c["bias"], c["threshold"]

    def probability(self, values):
        z = self.bias + sum(w * (values[f] - m) / s for f, m, s, w in self.terms)
        return 1 / (1 + math.exp(-z))

    def could_take(self, candidate, letters):
        """CyrillicChoice.couldTake: the largest probability over the corners. Keep in step."""
        latin = candidate.get("reread")
        latin_text = latin["text"] if latin else ""
        latin_confidence = latin["confidence"] if latin else 0.0
        best = 0.0
        for confidence in (0.0, 100.0):
            for share in (0.0, 1.0):
                for count in (1, max(1, letters)):
                    best = max(best, self.probability({
                        "cyrillic_confidence": confidence / 100,
                        "latin_confidence": latin_confidence / 100,
                        "confidence_margin": (confidence - latin_confidence) / 100,
                        "page_confidence": candidate["features"].get("confidence", 0.0),
                        "cyrillic_share": share,
                        "cyrillic_letters": math.log1p(count),
                        "latin_letters": math.log1p(sum(c.isalpha() for c in latin_text)),
                        "latin_diacritics": 1.0 if has_diacritics(latin_text) else 0.0,
                    }))
        return best >= self.threshold


def photos(paths):
    for path in paths:
        for line in open(path, encoding="utf-8"):
            candidates = json.loads(line)["candidates"]
            if candidates:
                yield path, candidates


def report(paths, choice, per_height, label):
    for path in paths:
        first = [cs[0] for p, cs in photos([path])]
        gated = [c for c in first if not choice.could_take(c, math.ceil(per_height * aspect(c)))]
        read = [c for c in first if c.get("cyrillic")]
        taken = [c for c in read if choice.probability(cyrillic_measurements(c)) >= choice.threshold]
        lost = [c for c in gated if c in taken]
        print(f"{label} {path}: {len(first)} suggested lines, {len(gated)} not read with the Cyrillic packs "
              f"({sum(1 for c in gated if c.get('cyrillic'))} of the {len(read)} read in Cyrillic letters); "
              f"Cyrillic readings taken {len(taken)}, of them skipped {len(lost)}")
        for c in lost:
            print("  SKIPPED A TAKEN READING:", c["text"], "->", c["cyrillic"]["text"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--check", nargs="*", default=[])
    args = ap.parse_args()
    choice = Choice(args.model)
    ratios = [sum(ch.isalpha() for ch in c["cyrillic"]["text"]) / aspect(c)
              for _, cs in photos(args.train) for c in cs if c.get("cyrillic")]
    per_height = round(MARGIN * max(ratios), 1)
    print(f"most Cyrillic letters per line height on training candidates {max(ratios):.2f} "
          f"({len(ratios)} readings); fitted cyrillic_letters_per_height {per_height}")
    report(args.train, choice, per_height, "train")
    report(args.check, choice, per_height, "check")


if __name__ == "__main__":
    main()
