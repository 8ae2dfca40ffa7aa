#!/usr/bin/env python3
"""Replays cleanings of the chosen name's ends on the candidate logs (a bench tool, never the
product; `--split train` logs only): junk a logo or mark beside the name leaves at its ends.

  symbols   symbol characters (Unicode S*: `®`, `+`, `©`) trimmed from both ends
  capital   a lone capital letter dropped from the start (`A Kingsley`, a logo read as `A`)
  reread    the Latin re-reading taken, whatever its confidence, when it is the page text without
            one word at an end (`alll PARFUMERIE ETOILE` re-read `PARFUMERIE ÉTOILE` at 60)

    python bench/names/end_tokens.py --train LOG=DIR ... --sets LOG=DIR ...

The model is fitted on `--train` as fit_names.py fits it; each `--sets` entry is scored apart:
exact names, cards gained and lost against the text chosen today, and the changed names.
"""
import argparse
import os
import sys
import unicodedata

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402


def symbols(text, candidate, fitted):
    return text.strip("".join(c for c in set(text) if unicodedata.category(c).startswith("S")) + " ")


def capital(text, candidate, fitted):
    words = text.split()
    if len(words) > 1 and len(words[0]) == 1 and words[0].isupper() and sum(map(str.isalpha, "".join(words[1:]))) >= 3:
        words = words[1:]
    return " ".join(words)


def reread(text, candidate, fitted):
    again = candidate.get("reread")
    if not again or text == again["text"]:
        return text
    page, read = F.fold(candidate["text"]).split(), F.fold(again["text"]).split()
    if read and len(page) == len(read) + 1 and read in (page[1:], page[:-1]):
        return again["text"]
    return text


VARIANTS = {"symbols": symbols, "capital": capital, "reread": reread}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--sets", nargs="+", required=True)
    args = ap.parse_args()
    fitted = F.fit(F.load(args.train), 1.0)
    model, scaler, threshold, confidence, cyrillic = fitted
    for pair in args.sets:
        counts = {name: [0, 0, 0, []] for name in VARIANTS}
        for truth, candidates in F.load([pair]):
            if not truth["name"] or not candidates:
                continue
            p = model.predict_proba(scaler.transform(F.matrix(candidates)))[:, 1]
            i = int(np.argmax(p))
            if p[i] < threshold:
                continue
            best = candidates[i]
            text = F.text_of(best, confidence, cyrillic)
            took_cyrillic = cyrillic is not None and best.get("cyrillic") and cyrillic.takes(best)
            before = F.norm(text) == F.norm(truth["name"])
            for name, variant in VARIANTS.items():
                changed = text if took_cyrillic else variant(text, best, fitted)
                after = F.norm(changed) == F.norm(truth["name"])
                counts[name][0] += after
                counts[name][1] += after and not before
                counts[name][2] += before and not after
                if after != before:
                    counts[name][3].append(f"{text!r} -> {changed!r}")
        print(pair)
        for name, (exact, gained, lost, changes) in counts.items():
            print(f"  {name:8s} exact {exact} (+{gained} -{lost})  {'; '.join(changes[:6])}")


if __name__ == "__main__":
    main()
