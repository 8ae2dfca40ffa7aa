#!/usr/bin/env python3
"""Counts and fits when a suggested card name takes the issuer catalog's spelling (issue #24 item 5).

  count SET=RECORDS ...   names exact, snaps (`catalog_spelling`), false snaps (the truth brand is
                          not in the catalog), snaps that are the printed name and snaps that are not.
  fit SET=RECORDS ...     from a TRAIN run with the issuer stage's `name_spelling_confidence` at 0
                          (every re-spelling the issuer allows is taken, and the reading kept as the
                          first alternative), the issuer confidence from which a larger-than-accent
                          re-spelling is taken: above every issuer named wrongly on train, in the
                          middle of the gap to the next right one; and what that keeps on train.

SET is a folder of generated cards with their truth JSON (bench/gen), RECORDS its records.jsonl.
"""

import json
import re
import sys
import unicodedata
from pathlib import Path


def norm(text):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text or "")).strip().casefold()


def load(pairs):
    """(truth, record) for every record whose image has a truth file."""
    rows = []
    for pair in pairs:
        folder, records = pair.split("=", 1)
        for line in Path(records).read_text().splitlines():
            record = json.loads(line)
            truth_file = Path(folder) / (Path(record["file"]).stem + ".json")
            if truth_file.exists():
                rows.append((json.loads(truth_file.read_text()), record))
    return rows


def name_of(record):
    return ((record.get("card") or {}).get("name")) or {}


def issuer_of(record):
    return ((record.get("card") or {}).get("issuer")) or {}


def count(rows, label):
    exact = snaps = false = right = 0
    for truth, record in rows:
        name = name_of(record)
        is_exact = norm(name.get("suggested")) == norm(truth["name"])
        exact += is_exact
        if name.get("catalog_spelling"):
            snaps += 1
            false += not truth.get("name_in_catalog")
            right += is_exact
    print(
        f"{label}: {len(rows)} cards, name exact {exact}, catalog spellings {snaps}, "
        f"false (brand not in catalog) {false}, the printed name {right}, another name {snaps - right}"
    )


FOLDED = {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i"}
LOOKALIKES = {"0": "o", "1": "l", "i": "l", "j": "l", "!": "l", "|": "l", "5": "s", "8": "b", "2": "z"}


def key(text):
    """CardNameCatalog.key: folded words (IssuerText.fold) with look-alike glyphs unified."""
    glyphs, previous = [], " "
    for character in text:
        glyphs.append("l" if character in "!|" and previous.isalpha() else character)
        previous = character
    folded = []
    for character in unicodedata.normalize("NFKD", "".join(glyphs).lower()):
        if unicodedata.category(character) in ("Mn", "Mc", "Me") or character in "'’`´":
            continue
        character = FOLDED.get(character, character)
        folded.append(character if character.isalpha() or character.isdigit() or character == "&" else " ")
    words = "".join(folded).split()
    return " ".join(
        "".join(LOOKALIKES.get(c, c) for c in word) if any(c.isalpha() for c in word) else word for word in words
    )


def distance(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = row
    return previous[-1]


def single_edit(read, spelled):
    """CardNameCatalog.glyphSpelling's test: the same key and one edit apart, case aside."""
    return key(read) == key(spelled) and distance(read.lower(), spelled.lower()) <= 1


def respellings(rows):
    """(issuer confidence, gain, false) for each re-spelling larger than one accent or glyph."""
    found = []
    for truth, record in rows:
        name = name_of(record)
        if not name.get("catalog_spelling") or not name.get("alternatives"):
            continue
        read, spelled = name["alternatives"][0], name["suggested"]
        if single_edit(read, spelled):
            continue
        gain = (norm(spelled) == norm(truth["name"])) - (norm(read) == norm(truth["name"]))
        found.append((issuer_of(record).get("confidence") or 0.0, gain, not truth.get("name_in_catalog")))
    return sorted(found)


def wrong_issuers(rows):
    """(issuer confidence, wrong) for every card the issuer stage named an issuer for."""
    named = []
    for truth, record in rows:
        issuer = issuer_of(record)
        if issuer.get("id"):
            named.append((issuer["confidence"], issuer["id"] != truth.get("issuer_id")))
    return sorted(named)


def fit(rows):
    """A larger re-spelling is as right as the issuer it trusts: the threshold sits above every
    issuer the classifier named wrongly on train (an unknown brand named as a catalog issuer is
    the false snap waiting for a name one edit away), between that and the next right one."""
    named = wrong_issuers(rows)
    wrong = [k for k, (_, is_wrong) in enumerate(named) if is_wrong]
    print(f"train: {len(named)} cards with an issuer named, {len(wrong)} wrongly")
    if not wrong:
        threshold = round(named[0][0] / 2, 3) if named else 1.0
    elif wrong[-1] + 1 < len(named):
        threshold = round((named[wrong[-1]][0] + named[wrong[-1] + 1][0]) / 2, 4)
    else:
        threshold = 1.01  # never: the surest issuer on train was wrong
    print(f"  highest wrong issuer confidence {named[wrong[-1]][0] if wrong else None}; threshold {threshold}")
    found = respellings(rows)
    print(f"train: {len(found)} re-spellings larger than one accent or glyph (issuer confidence, gain, false):")
    for confidence, gain, false in found:
        print(f"  {confidence:.3f} {gain:+d}{' FALSE' if false else ''}{' kept' if confidence >= threshold else ''}")
    kept = [(g, f) for c, g, f in found if c >= threshold]
    print(
        f"kept from {threshold}: {len(kept)}, names gained {sum(g for g, _ in kept):+d}, "
        f"false {sum(f for _, f in kept)}; not kept: names gained {sum(g for c, g, _ in found if c < threshold):+d}"
    )
    return threshold


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("count", "fit"):
        sys.exit(__doc__)
    rows_by_set = [(pair.split("=", 1)[0], load([pair])) for pair in sys.argv[2:]]
    if sys.argv[1] == "count":
        for label, rows in rows_by_set:
            count(rows, label)
    else:
        fit([row for _, rows in rows_by_set for row in rows])


if __name__ == "__main__":
    main()
