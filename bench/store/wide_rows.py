#!/usr/bin/env python3
"""Why wide-margin scans give more merchant rows than the same receipts as scanned (issue #27;
a bench tool, never the product).

    wide_rows.py WIDE_OUT PLAIN_OUT [--folds 0,1,2,3] [--list]

WIDE_OUT and PLAIN_OUT are outputs (their `records.jsonl`, or a records file) of `snapsort run --preset receipts` over
bench/kind/augment.py's `~margins` variants and over the scans themselves. Both runs' merchants
are grouped by `fit_merchants.py`'s replay of `MerchantGrouping` with the product's parameters,
per set, and scored against the labelled merchant groups of bench/receipts/folds.json (the
German receipts: their labelled merchant). Every row beyond a merchant's first on the wide run
is put down to one cause, by the receipts of that row:

- `no merchant`: not a row, counted for the merchants a run reads on no receipt;
- `another line`: the wide merchant is far from every spelling of the merchant's rows that hold
  its other receipts (an address, a slogan, the customer taken for the merchant);
- `read differently`: the same line read with other letters, and grouping does not bridge them;
- `split by grouping`: the row's spelling is one the plain run grouped with the merchant too.

Prints rows, merchants, false pairs per run, and the causes (--list: each extra row).
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_merchants as fm  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "receipts"))
import score  # noqa: E402

ROOT = fm.ROOT
PRODUCT = dict(t=0.2, w=0.3, k=5, wr=0.34, near_legal=True, short=2, apart=0.5, top=3, apart_weight=1.0, tail=True)


def stem(file):
    return os.path.basename(file).rsplit(".", 1)[0].split("~")[0]


def load(out):
    rows = {}
    # An output folder, or a records file (a running output's .snapsort/journal.jsonl).
    path = out if os.path.isfile(out) else os.path.join(out, "records.jsonl")
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        rc = r.get("receipt") or {}
        rows[stem(r["file"])] = (rc.get("merchant"), [t["text"] for t in rc.get("text") or []])
    return rows


def labels(data):
    split = json.load(open(os.path.join(ROOT, "bench/receipts/folds.json")))
    out = {}
    for s, v in list(split["sroie"].items()) + list(split["test"].items()):
        out[s] = json.load(open(os.path.join(data, v["folder"], s + ".json")))["merchant"]
    return out


def truths(data):
    split = json.load(open(os.path.join(ROOT, "bench/receipts/folds.json")))
    truth, fold_of = {}, {}
    for s, v in split["sroie"].items():
        truth[s], fold_of[s] = ("sroie", v["group"]), v["fold"]
    for s, v in split["test"].items():
        label = json.load(open(os.path.join(data, v["folder"], s + ".json")))["merchant"]
        truth[s], fold_of[s] = ("de", fm.fold(label)), "de"
    return truth, fold_of


def grouped(rows, stems, legal_edits=1):
    named = [s for s in stems if rows[s][0]]
    ids = fm.group([rows[s] for s in named], **(PRODUCT | {"near_legal": legal_edits}))
    return dict(zip(named, ids))


def near(a, b):
    """Character distance of two names' keys, as a share of the longer (no words discounted)."""
    ka, kb = " ".join(fm.words(a, True)), " ".join(fm.words(b, True))
    if not ka or not kb:
        return 1.0
    return fm.lev(ka, kb) / max(len(ka), len(kb))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wide")
    ap.add_argument("plain")
    ap.add_argument("--folds", default="0,1,2,3", help="folds.json folds and/or `de`")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--legal-edits", type=int, default=1,
                    help="edits a misread legal form may have beside a spelled one (the product: 1)")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "receipts"))
    args = ap.parse_args()
    truth, fold_of = truths(args.data)
    wanted = {f if f == "de" else int(f) for f in args.folds.split(",")}
    wide, plain = load(args.wide), load(args.plain)
    stems = sorted(s for s in set(wide) & set(plain) if s in truth and fold_of[s] in wanted)
    gw, gp = grouped(wide, stems, args.legal_edits), grouped(plain, stems, args.legal_edits)
    label = labels(args.data)
    for name, rows in (("plain", plain), ("wide", wide)):
        right = sum(score.merchant_ok(label[x], rows[x][0]) for x in stems)
        print(f"{name}: merchant right (score.py) on {right} of {len(stems)}; "
              f"{sum(len(rows[x][1]) < 5 for x in stems)} pages read as fewer than 5 rows")
    for name, rows, groups in (("plain", plain, gp), ("wide", wide, gw)):
        named = sorted(groups)
        s = fm.score([groups[x] for x in named], [truth[x] for x in named])
        missing = len({truth[x] for x in stems}) - len({truth[x] for x in named})
        print(f"{name}: {len(stems)} receipts, {len(named)} with a merchant; " + fm.fmt(s)
              + f"; {missing} merchants read on no receipt")
    causes = collections.Counter()
    by_truth = collections.defaultdict(lambda: collections.defaultdict(list))
    for x in gw:
        by_truth[truth[x]][gw[x]].append(x)
    for t, rows_of in sorted(by_truth.items(), key=lambda kv: str(kv[0])):
        if len(rows_of) < 2:
            continue
        # The merchant's main row: the one holding most receipts; every other row is extra.
        ordered = sorted(rows_of.values(), key=lambda members: (-len(members), members))
        main = ordered[0]
        main_names = [wide[x][0] for x in main]
        for members in ordered[1:]:
            spell = [wide[x][0] for x in members]
            distance = min(near(a, b) for a in spell for b in main_names)
            plain_joined = all(x in gp and gp[x] == gp.get(main[0]) for x in members) and any(
                wide[x][0] == plain[x][0] for x in members)
            if plain_joined and all(fm.words(wide[x][0], True) == fm.words(plain[x][0], True) for x in members):
                cause = "split by grouping"
            elif distance <= 0.5:
                cause = "read differently"
            else:
                cause = "another line"
            causes[cause] += 1
            if args.list:
                print(f"  [{cause}] {spell!r} (plain {[plain[x][0] for x in members]!r}) vs main "
                      f"{collections.Counter(main_names).most_common(2)!r} d={distance:.2f} {members}")
    print("extra wide rows by cause:", dict(causes))
    if args.list:
        for name, rows, groups in (("plain", plain, gp), ("wide", wide, gw)):
            members = collections.defaultdict(list)
            for x in groups:
                members[groups[x]].append(x)
            for group in members.values():
                if len({truth[x] for x in group}) > 1:
                    print(f"  {name} group of several merchants: " + "; ".join(f"{x} {rows[x][0]!r} (merchant {truth[x][1]})" for x in group))


if __name__ == "__main__":
    main()
