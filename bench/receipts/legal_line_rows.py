#!/usr/bin/env python3
"""What a rule "a legal line gives way to the name-like row beside it without a legal form" would
change on TRAINING readings (issues #23, #27; a replay, never the product).

    legal_line_rows.py [--rows K] [--show] SET:EVIDENCE.jsonl:RECORDS.jsonl[:RENDERS_DIR] ...

The inputs are merchant_causes.py's (folds 0-3, train renders only). Where the answer's row
holds a legal form (LEGAL_FORMS: the legal-entity forms of the receipt languages, wider than the
extractor's `legalForms`, which knows the Malaysian and English ones and GmbH), the nearest
single-row candidate within K rows (default 2; below before above) that holds none, has a word
of three letters or more, and reads as no address, phone, tax id, registration, date, amount or
not-name replaces it; a catalog brand the rules read stands. Printed per set: answers changed,
wrong -> right, right -> wrong. SROIE labels the legal line on most receipts that print one, so
the rule is expected to cost SROIE what it gains on renders that label the trading name.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merchant_causes import pick_of, HERE  # noqa: E402
from logo_word_rows import nearest_row, run  # noqa: E402

# Legal-entity forms, each as its letters once dots and spaces are dropped from a word run.
LEGAL_FORMS = ["gmbh", "ag", "kg", "ohg", "ek", "ug", "gbr", "spa", "srl", "snc", "sas", "sa", "sarl", "sl",
               "slu", "ab", "hb", "kb", "bv", "nv", "vof", "spzoo", "spj", "ltd", "llc", "inc", "plc", "sdnbhd",
               "bhd", "sb", "ooo", "tov", "oy"]


def has_legal(text):
    """Whether a word, or a run of one- and two-letter words with their dots (S.P.A., SP. Z O.O.),
    spells a legal form."""
    tokens = [re.sub(r"[^a-z]", "", t) for t in text.lower().replace(".", ". ").split()]
    tokens = [t for t in tokens if t]
    for i in range(len(tokens)):
        run = ""
        for t in tokens[i:i + 4]:
            run += t
            if run in LEGAL_FORMS:
                return True
            if len(t) > 4:
                break
    return False


def replacement(answer, cands, rows):
    pick = pick_of(answer, cands)
    if pick is None or not has_legal(pick["value"]):
        return None
    return nearest_row(
        pick, cands, rows,
        lambda value: not has_legal(value) and any(sum(ch.isalpha() for ch in w) >= 3 for w in value.split()))


def main(argv):
    show = "--show" in argv
    rows = int(argv[argv.index("--rows") + 1]) if "--rows" in argv else 2
    sets = [a for i, a in enumerate(argv) if not a.startswith("--") and argv[i - 1] != "--rows"]
    data = os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts")
    run(sets, data, rows, show, verbose=True, replacement=replacement)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
