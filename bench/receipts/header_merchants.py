#!/usr/bin/env python3
"""Merchant misses on rendered receipts with varied headers (bench/gen/receipts.py --headers
varied), by cause and by the header line taken instead (issues #23, #27).

    header_merchants.py DIR RUN.jsonl [--show] [--by header_family,capture_page,logo,font]

DIR holds the renders (NAME.jpg + NAME.json with `header`: the header's lines with their role);
RUN.jsonl is snapsort's records of them. A held-out render (split heldout) is scored like a train
one: this script fits nothing, it only sorts misses.

Each receipt gets one outcome, from the truth's trading name (`merchant`) and the answer:
  right           score.merchant_ok;
  none given      no merchant;
  another line: ROLE  the answer is another header line (ratio >= 0.8): its role (logo, legal,
                  title, greeting, branch, cashier, street, city, phone, taxid, reg), marked
                  `a word of the name` when that line is a word of the name (a logo's), or
                  `one word` when the answer is one word of it (a legal entity's owner);
  cut or joined   the answer holds the name and more (another header line joined on) or a part
                  of it (said which line is joined when one matches);
  misread         the answer is the name's line read too far from it (ratio 0.5 to 0.8);
  another line: ROLE  else the printed line closest to the answer (ratio >= 0.5): a header
                  role or `body` (a line below the header); `unmatched` below 0.5 to every line
                  (a garbled logo, mostly).
"""
import collections
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold, merchant_ok, read_predictions  # noqa: E402


def squeeze(text):
    return fold(text or "").replace(" ", "")


def ratio(a, b):
    return difflib.SequenceMatcher(None, squeeze(a), squeeze(b)).ratio()


def outcome(truth, answer):
    name = truth["merchant"]
    if merchant_ok(name, answer):
        return "right"
    if not answer:
        return "none given"
    header = [(h["role"], h["text"]) for h in truth.get("header", [])]
    others = [(role, text) for role, text in header if role != "name"]
    e, p = squeeze(name), squeeze(answer)
    # Another header line read as the merchant: whole, or one of its words (a legal entity's
    # owner, a brand catalogue's spelling of it). A logo of the name's own word counts here too.
    whole = max(((ratio(text, answer), role, text) for role, text in others), default=(0.0, "", ""))
    if whole[0] >= 0.8:
        return f"another line: {whole[1]}" + (" (a word of the name)" if squeeze(whole[2]) in e else "")
    if e and p and (e in p or p in e):
        extra = sorted((len(squeeze(text)), role) for role, text in others if squeeze(text) and squeeze(text) in p)
        return "cut or joined" + (f" (+{extra[-1][1]})" if extra else "")
    word = max(((ratio(w, answer), role) for role, text in others for w in text.split() if len(squeeze(w)) >= 4), default=(0.0, ""))
    if word[0] >= 0.8 and ratio(name, answer) < 0.5:
        return f"another line: {word[1]} (one word)"
    header_texts = {squeeze(text) for _, text in header}
    body = [("body", line) for line in truth.get("lines", []) if line.strip() and squeeze(line) not in header_texts]
    scored = [(ratio(text, answer), role) for role, text in others + body]
    best = max(scored, default=(0.0, ""))
    if ratio(name, answer) >= 0.5 and ratio(name, answer) >= best[0]:
        return "misread"
    if best[0] >= 0.5:
        return f"another line: {best[1]}"
    return "another line: unmatched"

def main(argv):
    show = "--show" in argv
    by = ["header_family", "capture_page", "logo"]
    if "--by" in argv:
        by = argv[argv.index("--by") + 1].split(",")
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--by")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder, run = args
    preds = read_predictions([run])
    counts = collections.Counter()
    groups = collections.defaultdict(collections.Counter)
    total = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        stem = name[:-5]
        truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        if stem not in preds:
            continue
        total += 1
        truth["capture_page"] = "wide page" if "wide_page" in truth else truth["capture"]
        truth["logo"] = next((h.get("logo", "?") for h in truth.get("header", []) if h["role"] == "logo"), "none")
        answer = preds[stem].get("merchant")
        what = outcome(truth, answer)
        counts[what] += 1
        for key in by:
            groups[key, str(truth.get(key))]["right" if what == "right" else "miss"] += 1
        if show and what != "right":
            roles = " / ".join(f"{h['role']}:{h['text']}" for h in truth.get("header", []))
            print(f"{stem}  {what:28s} {answer!r:40s} label {truth['merchant']!r}  [{truth.get('header_family')}, {truth['capture_page']}]  {roles}")
    right = counts.pop("right", 0)
    print(f"\nreceipts {total}: merchant right {right}, missed {total - right}")
    for what, n in counts.most_common():
        print(f"  {what:32s} {n}")
    for key in by:
        print(f"\nby {key}:")
        for (k, value), c in sorted(groups.items()):
            if k == key:
                print(f"  {value:20s} {c['right']:3d} / {c['right'] + c['miss']:3d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
