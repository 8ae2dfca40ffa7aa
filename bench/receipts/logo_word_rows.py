#!/usr/bin/env python3
"""What a rule "a one-word merchant whose word a longer header row near it prints in full names
that row" would change on TRAINING readings (issues #23, #27; a replay, never the product).

    logo_word_rows.py [--rows K] [--show] SET:EVIDENCE.jsonl:RECORDS.jsonl[:RENDERS_DIR] ...

The inputs are merchant_causes.py's (the same folds and splits: folds 0-3, train renders only).
For each reading whose answer is one word of three letters or more, the first single-row
candidate within K rows below or above the answer's row (nearest first, below before above) that holds that word among
more words, and reads as no address, phone, tax id, registration or not-name (the product's
features), replaces the answer; a catalog brand the rules read stands. K (1-8) is fitted here
unless --rows gives it: the most answers made right less those made wrong, the fewest rows on a
tie (ReceiptExtractor's `fullNameRows`). Printed per set: answers changed, wrong -> right, right -> wrong,
and with --show each change. The model's override and the words gate are not replayed: where
the rules' answer changed, the model might have chosen otherwise.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merchant_causes import pick_of, read_sets, HERE  # noqa: E402
from score import fold, merchant_ok  # noqa: E402

BLOCKING = ("address", "phone_or_tax", "registration", "not_name", "date", "amount")


def replacement(answer, cands, rows):
    words = fold(answer).split()
    if len(words) != 1 or sum(c.isalpha() for c in words[0]) < 3:
        return None
    pick = pick_of(answer, cands)
    if pick is None:
        return None

    def prints_whole(value):
        own = fold(value).split()
        return words[0] in own and len(own) > 1

    return nearest_row(pick, cands, rows, prints_whole)


def nearest_row(pick, cands, rows, accept):
    """The value of the nearest single-row candidate within `rows` rows of the pick (below before
    above) that reads as none of BLOCKING and that `accept` takes."""
    for distance in range(1, rows + 1):
        for line in (pick["line"] + distance, pick["line"] - distance):
            for c in cands:
                f = c["features"]
                if c["line"] != line or f.get("joined", 0) or any(f.get(b, 0) for b in BLOCKING):
                    continue
                if accept(c["value"]):
                    return c["value"]
    return None


def main(argv):
    show = "--show" in argv
    rows = int(argv[argv.index("--rows") + 1]) if "--rows" in argv else None
    sets = [a for i, a in enumerate(argv) if not a.startswith("--") and argv[i - 1] != "--rows"]
    data = os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts")
    if rows is None:
        # K fitted: the most answers made right less those made wrong, the fewest rows on a tie.
        scores = {k: run(sets, data, k, False) for k in range(1, 9)}
        rows = max(scores, key=lambda k: (scores[k][1] - scores[k][2], -k))
        print("rows: " + ", ".join(f"{k} {g}-{l}" for k, (_, g, l) in scores.items()) + f" -> {rows}\n")
    run(sets, data, rows, show, verbose=True)
    return 0


def run(sets, data, rows, show, verbose=False, replacement=replacement):
    """Replays `replacement(answer, candidates, rows)` over the sets' answers; a catalog brand the
    rules read stands, as it does against the model. Returns [changed, gained, lost] over all."""
    totals = [0, 0, 0]
    for name, truth, evs, preds in read_sets(sets, data):
        changed = gained = lost = 0
        for s in sorted(set(truth) & set(evs) & set(preds)):
            answer = preds[s].get("merchant")
            if not answer or evs[s].get("rules_brand"):
                continue
            new = replacement(answer, evs[s]["candidates"], rows)
            if new is None:
                continue
            label = truth[s]["merchant"]
            before, after = merchant_ok(label, answer), merchant_ok(label, new)
            changed += 1
            gained += after and not before
            lost += before and not after
            if show:
                print(f"{name} {s}: {answer!r} -> {new!r} ({'right' if after else 'wrong'}; label {label!r})")
        if verbose:
            print(f"{name}: {changed} changed, wrong -> right {gained}, right -> wrong {lost}")
        totals = [totals[0] + changed, totals[1] + gained, totals[2] + lost]
    if verbose:
        print(f"all: {totals[0]} changed, wrong -> right {totals[1]}, right -> wrong {totals[2]} (rows {rows})")
    return totals


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
