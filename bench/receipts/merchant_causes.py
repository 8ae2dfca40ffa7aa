#!/usr/bin/env python3
"""Merchant misses on TRAINING readings, by cause (issues #23, #27).

    merchant_causes.py [--show] [--data ../shared/data/receipts] \
        SET:EVIDENCE.jsonl:RECORDS.jsonl[:RENDERS_DIR] ...

EVIDENCE is `snapsort receipt-text [--records] --merchant-candidates --merchant-rules` over a
set and RECORDS the same binary's `receipt-text` of it (the answer given, the words gate
applied). Without RENDERS_DIR the set is SROIE's (OCR rows of a run or `sroie_dev`'s true
lines): only folds 0-3 of folds.json are read, fold 4 and the German receipts are skipped. With
RENDERS_DIR the truth is each render's NAME.json, and a held-out render is refused.

Each miss gets one cause, from the answer, the rules' answer and the header's candidates (the
product's own, with their features), in this order:
  null: words gate (rules right|wrong)   no answer though the rules named a row: the words gate
                                          (MerchantWords.isBody) nulled the pick;
  null: no name                           neither the rules nor the model named a row;
  OCR damage                              no candidate of the header matches the label;
  label is the legal line                 the label holds a company or legal form and the answer
                                          is a name-like row without one (SROIE labels the
                                          operator, often printed below the trading name);
  legal line, trading name adjacent       the answer is a row with a company or legal form and a
                                          right candidate sits within two rows of it;
  a word of the name                      the answer is a part of the name (a logo word, one
                                          row of a name over two);
  name joined                             the answer holds the name and more;
  address or area                         the answer's candidate reads as an address or a place;
  catalog brand                           the rules read a catalog brand;
  not-name                                the answer holds a not-name (a heading, a cashier);
  other row                               another row of the header.
Renders also get header_merchants.py's outcome (the header role of the line taken).
"""
import collections
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold, merchant_ok, read_predictions, stem  # noqa: E402
import header_merchants  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def squeeze(text):
    return fold(text or "").replace(" ", "")


def evidence(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            e = json.loads(line)
            out[stem(e["file"])] = e
    return out


def sroie_truth(data):
    split = json.load(open(os.path.join(HERE, "folds.json"), encoding="utf-8"))
    truth = {}
    for s, v in split["sroie"].items():
        if v["fold"] in (0, 1, 2, 3):
            truth[s] = json.load(open(os.path.join(data, v["folder"], s + ".json"), encoding="utf-8"))
    return truth


def render_truth(folder):
    truth = {}
    for name in os.listdir(folder):
        if name.endswith(".json"):
            t = json.load(open(os.path.join(folder, name), encoding="utf-8"))
            if t.get("split") != "train":
                sys.exit(f"{name}: a {t.get('split')} render; only train renders are read here")
            truth[name[:-5]] = t
    return truth


def read_sets(sets, data):
    """Each SET:EVIDENCE.jsonl:RECORDS.jsonl[:RENDERS_DIR] argument as (set name, truth, evidence,
    records): a set with a renders folder is scored against its train renders' truth, any other
    against SROIE folds 0-3 (read once)."""
    sroie = None
    for spec in sets:
        parts = spec.split(":")
        name, ev_path, rec_path = parts[:3]
        if len(parts) > 3:
            truth = render_truth(parts[3])
        else:
            sroie = sroie or sroie_truth(data)
            truth = sroie
        yield name, truth, evidence(ev_path), read_predictions([rec_path])


def pick_of(answer, candidates):
    """The candidate the answer was taken from: the same letters, else the closest."""
    key = squeeze(answer)
    same = [c for c in candidates if squeeze(c["value"]) == key]
    if same:
        return same[0]
    scored = [(difflib.SequenceMatcher(None, key, squeeze(c["value"])).ratio(), i) for i, c in enumerate(candidates)]
    return candidates[max(scored)[1]] if scored and max(scored)[0] >= 0.8 else None


def has_form(c):
    """A legal form of the extractor's keyword tables (SDN BHD, LTD, GmbH...): the `legal` feature."""
    return bool(c and c["features"].get("legal", 0) > 0)


def cause(label, answer, ev):
    cands = ev["candidates"]
    rules = ev.get("rules")
    if not answer:
        if rules:
            return "null: words gate (rules " + ("right)" if merchant_ok(label, rules) else "wrong)")
        return "null: no name"
    right = [c for c in cands if merchant_ok(label, c["value"])]
    if not right:
        return "OCR damage"
    pick = pick_of(answer, cands)
    e, p = squeeze(label), squeeze(answer)
    label_form = any(has_form(c) for c in right)
    if label_form and pick is not None and not has_form(pick):
        return "label is the legal line"
    if has_form(pick) and any(abs(c["line"] - pick["line"]) <= 2 for c in right if not has_form(c)):
        return "legal line, trading name adjacent"
    if p and p in e:
        return "a word of the name"
    if e and e in p:
        return "name joined"
    f = pick["features"] if pick else {}
    if f.get("address", 0) > 0 or f.get("place", 0) > 0:
        return "address or area"
    if ev.get("rules_brand"):
        return "catalog brand"
    if f.get("not_name", 0) > 0:
        return "not-name"
    return "other row"


def main(argv):
    show = "--show" in argv
    data = os.path.join(HERE, "..", "..", "..", "shared", "data", "receipts")
    if "--data" in argv:
        data = argv[argv.index("--data") + 1]
    sets = [a for i, a in enumerate(argv) if not a.startswith("--") and argv[i - 1] != "--data"]
    if not sets:
        print(__doc__, file=sys.stderr)
        return 2
    grand, grand_roles = collections.Counter(), collections.Counter()
    for name, truth, evs, preds in read_sets(sets, data):
        counts, roles, total = collections.Counter(), collections.Counter(), 0
        for s in sorted(set(truth) & set(evs) & set(preds)):
            label, answer = truth[s]["merchant"], preds[s].get("merchant")
            total += 1
            if merchant_ok(label, answer):
                counts["right"] += 1
                continue
            why = cause(label, answer, evs[s])
            counts[why] += 1
            role = header_merchants.outcome(truth[s], answer) if "header" in truth[s] else ""
            if role:
                roles[why, role] += 1
                grand_roles[role] += 1
            if show:
                print(f"{name} {s}: {why:36s} {answer!r:42s} label {label!r} rules {evs[s].get('rules')!r} {role}")
        right = counts.pop("right", 0)
        print(f"\n{name}: {total} readings, merchant right {right}, missed {total - right}")
        for why, n in counts.most_common():
            print(f"  {why:38s} {n}")
            for (w, role), m in sorted(roles.items(), key=lambda t: -t[1]):
                if w == why:
                    print(f"      {role:34s} {m}")
            grand[why] += n
    print("\nall sets:")
    for why, n in grand.most_common():
        print(f"  {why:38s} {n}")
    if grand_roles:
        print("\nrenders, by what was taken (header_merchants.py):")
        for role, n in grand_roles.most_common():
            print(f"  {role:38s} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
