#!/usr/bin/env python3
"""Replays trimming programme words (CardNameLexicon) off the ends of the picked name line, on the
ocr stage's candidate logs over generated cards (a bench tool, never the product; run it on
`--split train` sets only when the counts steer a change).

    python bench/names/programme_ends.py --train LOG=DIR ... [--sets LOG=DIR ...] [--list N]
    python bench/names/programme_ends.py --records RUN=DIR ... [--list N]

The name model is fitted as fit_names.py fits it (on `--train`); each card's picked text
(`fit_names.text_of`) is then trimmed of words at its start or end that are in the lexicon, as
long as the rest keeps at least `--min-letters` letters. Words are taken as the lexicon takes them
(IssuerText.fold, split at anything not a letter or digit). Kinds of word, each a variant:

  programme   the languages' programme words
  heads       programme words and words of six letters or more ending in a compound head
              (`Bonuskort`, `Kundenkarte`): the lexicon's `isProgramme`
  small       heads and small print (the lexicon's boilerplate coverage)

With `--records`, the picked text is instead the product's own suggestion in RUN/records.jsonl
(a `snapsort run` over the cards in DIR), so the shipped model and its readings are replayed.

For each variant: cards made exact (gain), cards exact now that trimming damages (loss), and wrong
picks changed into another wrong text.
"""
import argparse
import json
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402

LEXICON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/SnapsortStages/Text/"
                       "CardNameLexicon+Languages.swift")


def fold(text):
    """IssuerText.fold: lowercased, marks dropped, anything not a letter or digit a space."""
    out = []
    for c in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.category(c) in ("Mn", "Mc", "Me"):
            continue
        c = {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i"}.get(c, c)
        if c in "'’`´":
            continue
        out.append(c if c.isalpha() or c.isdigit() or c == "&" else " ")
    return "".join(out)


def lexicon():
    """(programme, heads, boilerplate) folded, from the Swift source."""
    source = open(LEXICON, encoding="utf-8").read()
    sets = {"programme": set(), "compoundHeads": set(), "boilerplate": set()}
    for block in re.split(r"Language\(\s*code:", source)[1:]:
        for key in sets:
            m = re.search(key + r":\s*\[(.*?)\]", block, re.S)
            if m:
                sets[key] |= {fold(w).strip() for w in re.findall(r'"([^"]+)"', m.group(1))}
    return sets["programme"], sorted(sets["compoundHeads"]), sets["boilerplate"]


def matcher(kind, programme, heads, boilerplate):
    def is_programme(w):
        return w in programme or (len(w) >= 6 and any(w.endswith(h) for h in heads))

    if kind == "programme":
        return lambda w: w in programme
    if kind == "heads":
        return is_programme
    return lambda w: is_programme(w) or w in boilerplate


def trimmed(text, is_word, min_letters, ends="both"):
    """The text without lexicon words at its start and end (space-separated tokens whose folded
    words all match), as long as the rest keeps `min_letters` letters and a word that does not match."""
    tokens = text.split()

    def matches(token):
        words = fold(token).split()
        return bool(words) and all(is_word(w) for w in words)

    def letters(ts):
        return sum(c.isalpha() for t in ts for c in t)

    def keeps(rest):
        return letters(rest) >= min_letters and not all(matches(t) for t in rest)

    changed = True
    while changed:
        changed = False
        if ends in ("both", "start") and len(tokens) > 1 and matches(tokens[0]) and keeps(tokens[1:]):
            tokens, changed = tokens[1:], True
        if ends in ("both", "end") and len(tokens) > 1 and matches(tokens[-1]) and keeps(tokens[:-1]):
            tokens, changed = tokens[:-1], True
    return " ".join(tokens) if tokens else text


_fitted = {}


def logged_picks(name, train):
    """[(truth, picked text)] of the named cards with a name, by the model fitted on `train`."""
    if "model" not in _fitted:
        _fitted["model"] = F.fit(F.load(train), 1.0)
    model, scaler, threshold, reread, cyrillic = _fitted["model"]
    picks = []
    for truth, candidates in F.load(name.split(",")):
        if truth["name"]:
            best = F.picked(candidates, model, scaler, threshold)
            picks.append((truth, F.text_of(best, reread, cyrillic) if best else ""))
    return picks


def record_picks(pair):
    """[(truth, suggested name)] of a run's records (RUN=DIR) over cards with a name."""
    run, cards = pair.split("=", 1)
    picks = []
    with open(os.path.join(run, "records.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            stem = os.path.splitext(os.path.basename(r["file"]))[0]
            with open(os.path.join(cards, stem + ".json"), encoding="utf-8") as t:
                truth = json.load(t)
            if truth["name"]:
                picks.append((truth, (((r.get("card") or {}).get("name") or {}).get("suggested")) or ""))
    return picks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", default=[])
    ap.add_argument("--records", nargs="*", default=[])
    ap.add_argument("--sets", nargs="*", default=[])
    ap.add_argument("--min-letters", type=int, default=3)
    ap.add_argument("--list", type=int, default=0)
    args = ap.parse_args()
    programme, heads, boilerplate = lexicon()
    sets = [(name, logged_picks(name, args.train)) for name in (args.sets or args.train)] if args.train else []
    sets += [(name, record_picks(name)) for name in args.records]
    for name, picks in sets:
        exact = sum(F.norm(g) == F.norm(t["name"]) for t, g in picks)
        print(f"{name}: {len(picks)} cards, exact {exact}")
        for kind in ("programme", "heads", "small"):
            for ends in ("both", "start", "end"):
                is_word = matcher(kind, programme, heads, boilerplate)
                gain, loss, other = [], [], []
                for truth, got in picks:
                    new = trimmed(got, is_word, args.min_letters, ends)
                    if new == got:
                        continue
                    was, now = F.norm(got) == F.norm(truth["name"]), F.norm(new) == F.norm(truth["name"])
                    (gain if now and not was else loss if was and not now else other).append(
                        (truth["file"], truth["name"], got, new))
                print(f"  {kind:9s} {ends:5s} +{len(gain)} -{len(loss)} (net {len(gain) - len(loss):+d}); "
                      f"{len(other)} wrong picks changed, still wrong")
                if ends == "both":
                    for label, rows in (("+", gain), ("-", loss), ("~", other)):
                        for file, want, got, new in rows[: args.list]:
                            print(f"      {label} {file}: {want!r}: {got!r} -> {new!r}")


if __name__ == "__main__":
    main()
