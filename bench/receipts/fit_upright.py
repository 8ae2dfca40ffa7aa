#!/usr/bin/env python3
"""Fits the receipt reading's upright check (`ReceiptStage.uprightTurn`) on training pages (a bench
tool, never the product).

Input: the stderr of a run whose receipt stage printed, for every turn of the middle of the page it
read, one line `UPRIGHT <TAB> file <TAB> first confidence <TAB> date and total found <TAB> degrees
<TAB> side <TAB> [[text, confidence, x, y, w, h], ...]` (`SNAPSORT_UPRIGHT_TRACE=1 snapsort run ...
2> DUMP`), with the check forced on every page (`orientation_check_below` 100,
`orientation_check_when_dated` true, `quarter_turns_below_margin` 1 in the receipt stage).

The right turn of each page is the one whose words match the receipt's true text best (renders:
their JSON's `lines`; SROIE: NAME.lines.csv, else its labelled merchant, address, date and total): at least 3 words of 4+ letters or digits found in a
true line (accents dropped) and twice the next turn's. Pages where no turn is that clear are left out.

A rule turns the page to the best-scoring turn when its score leads the page as it is by `lead`.
Scores compared:

* `mean`: the product's old score, mean confidence of words with 2+ letters or digits (0 under 3
  such words), lead in confidence points;
* `chars@C`: letters and digits in words read at confidence C or more, lead as a share of the page
  as it is (`best >= (1 + lead) * as_is + 1`).

Errors are counted on the pages the product checks (first confidence below 60, no date and total)
and on all pages: a turn taken when the page was right as it is, a wrong turn taken, or the right
turn missed.

    fit_upright.py --truth DIR [--truth DIR ...] [--changed C LEAD] DUMP [DUMP ...]

`--changed` lists the pages (labelled or not) whose turn the old rule and `chars@C` at LEAD choose
differently, to run both binaries on.

Refuses held-out renders (their JSON's `split`).
"""
import argparse
import collections
import json
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from true_lines import read_lines  # noqa: E402


def squashed(text):
    """Letters and digits only, lower case, accents dropped: how words are compared."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^0-9a-z]", "", plain.lower())


def tokens(text):
    """The true text squashed, one string per line: an OCR word is found in it when it is a part."""
    return "\n".join(squashed(line) for line in text.split("\n"))


def truth_tokens(stem, dirs):
    for d in dirs:
        path = os.path.join(d, stem + ".json")
        if not os.path.exists(path):
            continue
        record = json.load(open(path))
        if record.get("split") == "heldout":
            sys.exit(f"{path}: a held-out render; fit on training pages only")
        if record.get("lines"):
            return tokens("\n".join(record["lines"]))
        lines = os.path.join(d, stem + ".lines.csv")
        if os.path.exists(lines):
            return tokens("\n".join(read_lines(lines)))
        # A SROIE receipt without its lines: the words of its labelled fields.
        return tokens("\n".join(str(record.get(k) or "") for k in ("merchant", "address", "date", "total")))
    return None


def read_dump(paths):
    """{(file, first confidence): {"file", "first", "dated", "turns": {degrees: words}}}: a file
    whose raw scan was checked too has two."""
    pages = collections.defaultdict(lambda: {"turns": {}})
    for path in paths:
        for line in open(path, errors="replace"):
            if not line.startswith("UPRIGHT\t"):
                continue
            _, name, first, dated, degrees, _side, words = line.rstrip("\n").split("\t", 6)
            page = pages[(name, first)]
            page["file"] = name
            page["first"], page["dated"] = float(first), dated == "true"
            page["turns"][int(degrees)] = [(w[0], float(w[1])) for w in json.loads(words)]
    return pages


def alnum(text):
    return sum(c.isalnum() for c in text)


def score_mean(words):
    kept = [c for t, c in words if alnum(t) >= 2]
    return sum(kept) / len(kept) if len(kept) >= 3 else 0


def score_chars(words, confident):
    return sum(alnum(t) for t, c in words if c >= confident and alnum(t) >= 2)


def right_turn(turns, truth):
    hits = {d: sum(1 for t, _ in ws if len(squashed(t)) >= 4 and squashed(t) in truth)
            for d, ws in turns.items()}
    ranked = sorted(hits, key=hits.get, reverse=True)
    best = ranked[0]
    second = hits[ranked[1]] if len(ranked) > 1 else 0
    if hits[best] >= 3 and hits[best] >= 2 * second:
        return best
    return None


def decide(scores, lead, relative):
    best = max(scores, key=lambda d: (scores[d], d == 0))
    if best == 0 or scores[best] <= 0:
        return 0
    need = (1 + lead) * scores[0] + 1 if relative else scores[0] + lead
    return best if scores[best] >= need else 0


def errors(pages, scorer, lead, relative):
    counts = collections.Counter()
    for page in pages:
        scores = {d: scorer(ws) for d, ws in page["turns"].items()}
        chosen = decide(scores, lead, relative)
        if chosen != page["right"]:
            kind = "turned upright" if page["right"] == 0 else ("wrong turn" if chosen else "missed")
            counts[kind] += 1
            counts["errors"] += 1
            counts["checked errors"] += page["checked"]
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--truth", action="append", required=True)
    parser.add_argument("--changed", nargs=2, type=float, metavar=("CONFIDENT_AT", "LEAD"),
                        help="list the files whose turn differs between the old rule and chars@C with this lead")
    parser.add_argument("dumps", nargs="+")
    args = parser.parse_args()
    if args.changed:
        confident, lead = args.changed
        for (name, _), page in sorted(read_dump(args.dumps).items()):
            old = decide({d: score_mean(ws) for d, ws in page["turns"].items()}, 15, False)
            new = decide({d: score_chars(ws, confident) for d, ws in page["turns"].items()}, lead, True)
            if old != new:
                print(name, old, new)
        return
    pages = []
    unclear = 0
    for (name, _), page in sorted(read_dump(args.dumps).items()):
        truth = truth_tokens(name.rsplit(".", 1)[0], args.truth)
        if truth is None or 0 not in page["turns"]:
            continue
        page["right"] = right_turn(page["turns"], truth)
        if page["right"] is None:
            unclear += 1
            if "--show" in os.environ.get("FIT_UPRIGHT", ""):
                print("unclear", name, round(page["first"]), {d: score_chars(ws, 70) for d, ws in page["turns"].items()})
            continue
        page["checked"] = page["first"] < 60 and not page["dated"]
        page["name"] = name
        pages.append(page)
    rights = collections.Counter(p["right"] for p in pages)
    checked = sum(p["checked"] for p in pages)
    print(f"{len(pages)} pages labelled ({unclear} unclear), right turn {dict(rights)}, {checked} checked")
    print("score lead: errors on checked pages / all pages (turned upright, wrong turn, missed)")
    results = []
    for lead in (5, 10, 15, 20, 25):
        results.append(("mean", lead, errors(pages, score_mean, lead, False)))
    for confident in (50, 60, 70, 80, 90):
        for lead in (0.25, 0.5, 1.0, 1.5, 2.0, 3.0):
            scorer = lambda ws, c=confident: score_chars(ws, c)  # noqa: E731
            results.append((f"chars@{confident}", lead, errors(pages, scorer, lead, True)))
    for name, lead, c in results:
        print(f"{name:9} {lead:5}: {c['checked errors']:3} / {c['errors']:3}"
              f" ({c['turned upright']}, {c['wrong turn']}, {c['missed']})")
    def cost(result):
        return (result[2]["checked errors"], result[2]["errors"])

    fewest = min(cost(r) for r in results)
    # Among the scores with the fewest errors, the one whose leads reach that many over the widest
    # range, at the middle of that range: a lead at the edge of its flat range is chance.
    flat = collections.defaultdict(list)
    for name, lead, c in results:
        if cost((name, lead, c)) == fewest:
            flat[name].append(lead)
    name = max(flat, key=lambda n: (len(flat[n]), n.startswith("chars")))
    leads = sorted(flat[name])
    print(f"fewest errors {fewest} (checked, all): {name}, lead {leads[len(leads) // 2]} (flat over {leads})")
    if "--show" in os.environ.get("FIT_UPRIGHT", ""):
        for page in pages:
            print(page["name"], page["right"], page["checked"], round(page["first"]),
                  {d: round(score_mean(ws)) for d, ws in page["turns"].items()},
                  {d: score_chars(ws, 70) for d, ws in page["turns"].items()})


if __name__ == "__main__":
    main()
