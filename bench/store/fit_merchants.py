#!/usr/bin/env python3
"""Fits and measures the store's merchant grouping (issue #27 item 1; a bench tool, never the product).

    fit_merchants.py OUT [OUT ...]           # outputs of `snapsort run --preset receipts` over
                                             # ../shared/data/receipts/{sroie,sroie_dev}
    fit_merchants.py OUT ... --store DB      # score the product's grouping in a store instead

Truth: the merchant groups of bench/receipts/folds.json (labelled merchants, one group per shop).
The sweep mirrors `MerchantGrouping` (Sources/SnapsortOutputs/Store/MerchantGrouping*.swift) and
picks, on folds 0-3 only, the parameters with the fewest merchant rows among those that join no
two labelled merchants (on the training folds' labels, at that distance and the next one) and keep
pairwise precision >= 0.995 on the OCR names, and of those within 2 % of the fewest rows the most
conservative (smallest distance first). Fold 4 is the reported figure.

Measured 2026-11-26 on the receipts preset's records of the 345 SROIE receipts (main at 9c81808),
chosen: max_distance 0.2, common-word weight 1.0 (words in >= 5 names), word distance 0.5. The
product (`--store`, a store of both outputs made by `snapsort merge`): folds 0-3 127 rows for 113
merchants (1.12x), pairwise precision 0.998; fold 4 36 rows for 29 merchants (1.24x), precision
1.000; all 161 for 142 (1.13x), 0.993 (the false pairs: receipts of two labelled merchants that
print the same 12-digit GST id or the same hotline). The first rule (fewest rows alone) chose 0.4
/ 1.0 / 0.5, which joined two held-out labelled merchants (B & BEST RESTAURANT, MEI LET
RESTAURANT: short words alike once OCR's confusions are folded); the conservative tie rule was
added after seeing that, so fold 4 is not a clean held-out figure for the rule itself.

Refitted 2026-11-26 (second time) with two more choices in the grid: a word one edit from a legal
form of 3+ characters counts as one when an exactly spelled legal form stands beside it (`SDN
BAD`, `SDS BHD`), and words of up to 0/1/2 characters need no counterpart (`... ENTERPRISE Pu`).
Records: receipts preset over the 345 SROIE receipts, main at about 00ddb08 (the `out-cur-fold*`
runs of the receipt-cpu branch). Chosen on folds 0-3: max_distance 0.20, common-word weight 0.3,
word distance 0.34, near legal forms on, short words 2. This script's grouping before -> after:
folds 0-3 126 -> 123 rows for 113 merchants, fold 4 35 -> 34 for 29 (1.21x -> 1.17x), all 160 ->
156 for 142; the product (`--store`, one store of all five folds) after: 124 / 35 / 157 rows, 3 /
0 / 11 false pairs. Fold 4's unjoined rows had been listed (not tuned on) before the two rules
were written from the training folds' list, so fold 4 is not a clean held-out figure for them.
"""
import argparse, collections, itertools, json, os, re, sqlite3, unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEGAL = "sdn bhd s b m plt ltd limited co inc llc llp corp pty plc gmbh mbh ag kg ohg ug ek sarl sas sa srl spa snc bv nv vof ab hb oy as asa aps sp zoo ooo oao zao pao tov ip".split()
CLASSES = ["0odq", "1il|!t", "5s", "8b", "2z", "6g", "vy¥"]
CONF = {c: g[0] for g in CLASSES for c in g}


def cfold(w): return "".join(CONF.get(c, c) for c in w)


def fold(s):
    s = unicodedata.normalize("NFKD", s.lower())
    return "".join(c for c in s if not unicodedata.combining(c))


def words(name, near_legal=False):
    """near_legal: a word of 3+ characters one edit from a legal form of 3+ is one too when a
    legal form spelled exactly stands beside it (`SDN BAD`, `SDS BHD`)."""
    s = re.sub(r"\([^)]*\)", " ", fold(name))
    legal = {cfold(w) for w in LEGAL}
    tokens = [cfold(t) for t in re.findall(r"[^\W_]+|¥", s)]
    exact = [t in legal for t in tokens]
    long_legal = [w for w in legal if len(w) >= 3]
    def is_legal(i):
        if exact[i]: return True
        beside = (i > 0 and exact[i - 1]) or (i + 1 < len(tokens) and exact[i + 1])
        return near_legal and beside and len(tokens[i]) >= 3 and any(lev(tokens[i], w) <= 1 for w in long_legal)
    return tuple(t for i, t in enumerate(tokens) if not is_legal(i))


def lev(a, b):
    p = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        c = [i]
        for j, cb in enumerate(b, 1): c.append(min(p[j] + 1, c[j - 1] + 1, p[j - 1] + (ca != cb)))
        p = c
    return p[-1]


def weighted(a, b, common, w):
    A = [(c, w if t in common else 1.0) for t in a for c in t]
    B = [(c, w if t in common else 1.0) for t in b for c in t]
    na, nb = sum(x for _, x in A), sum(x for _, x in B)
    if not na or not nb: return 1.0
    p = [0.0]
    for _, x in B: p.append(p[-1] + x)
    for ca, wa in A:
        cur = [p[0] + wa]
        for j, (cb, wb) in enumerate(B, 1):
            cur.append(min(p[j] + wa, cur[j - 1] + wb, p[j - 1] + (max(wa, wb) if ca != cb else 0)))
        p = cur
    return p[-1] / max(na, nb)


def correspond(a, b, common, wr, short=0):
    """short: words of up to this many characters need no counterpart (OCR's stray `Pu`, `iy`)."""
    return all(t in common or len(t) <= short or any(lev(t, u) / max(len(t), len(u)) <= wr for u in y) for x, y in ((a, b), (b, a)) for t in x)


def identifiers(lines, n=12, digits=9):
    found = set()
    for line in lines[:n]:
        for m in re.finditer(r"\d[\d \-/]*\d", line):
            d = re.sub(r"\D", "", m.group())
            if len(d) >= digits: found.add(d)
    return found


def group(receipts, t, w, k, wr, near_legal=False, short=0, low=0.1):
    """receipts: list of (merchant or None, lines) -> list of group ids."""
    parent = list(range(len(receipts)))
    def find(x):
        while parent[x] != x: parent[x] = parent[parent[x]]; x = parent[x]
        return x
    keys = [words(m, near_legal) if m else None for m, _ in receipts]
    by_key = collections.defaultdict(list)
    for i, key in enumerate(keys):
        if key is not None: by_key[key].append(i)
    for members in by_key.values():
        for i in members[1:]: parent[find(i)] = find(members[0])
    first = {}
    for i, (_, lines) in enumerate(receipts):
        for d in sorted(identifiers(lines)):
            if d in first: parent[find(i)] = find(first[d])
            else: first[d] = i
    names = sorted(by_key)
    count = collections.Counter(t_ for n in names for t_ in set(n) if len(t_) >= 3)
    common = {x for x, c in count.items() if c >= k}
    for a, b in itertools.combinations(names, 2):
        d = weighted(a, b, common, w)
        if d <= t and (d <= low or correspond(a, b, common, wr, short)):
            parent[find(by_key[b][0])] = find(by_key[a][0])
    return [find(i) for i in range(len(receipts))]


def score(groups, truth):
    tp = fp = fn = 0
    for (g1, t1), (g2, t2) in itertools.combinations(zip(groups, truth), 2):
        tp += g1 == g2 and t1 == t2; fp += g1 == g2 and t1 != t2; fn += g1 != g2 and t1 == t2
    return dict(rows=len(set(groups)), merchants=len(set(truth)), precision=tp / max(1, tp + fp), recall=tp / max(1, tp + fn), false_pairs=fp)


def fmt(s): return "%d rows for %d merchants (%.2fx), pairwise precision %.3f recall %.3f, %d false pairs" % (s["rows"], s["merchants"], s["rows"] / s["merchants"], s["precision"], s["recall"], s["false_pairs"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outputs", nargs="+")
    ap.add_argument("--store")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "receipts"))
    args = ap.parse_args()
    folds = json.load(open(os.path.join(ROOT, "bench/receipts/folds.json")))["sroie"]
    rows = {}
    for out in args.outputs:
        for line in open(os.path.join(out, "records.jsonl")):
            r = json.loads(line); stem = r["file"].rsplit("/", 1)[-1].rsplit(".", 1)[0]
            rc = r.get("receipt")
            if stem in folds and rc and rc.get("merchant"):
                rows[stem] = (rc["merchant"], [t["text"] for t in rc.get("text") or []], r["file"])
    stems = sorted(rows)
    parts = {"folds 0-3 (fitted)": [s for s in stems if folds[s]["fold"] != 4], "fold 4 (held out)": [s for s in stems if folds[s]["fold"] == 4], "all 5 folds": stems}
    if args.store:
        entity = dict(sqlite3.connect(args.store).execute("SELECT file, merchant_entity FROM records"))
        for name, part in parts.items():
            print(name + ":", fmt(score([entity.get(rows[s][2]) for s in part], [folds[s]["group"] for s in part])))
        return
    labels = {s: json.load(open(os.path.join(args.data, v["folder"], s + ".json")))["merchant"] for s, v in folds.items()}
    train = parts["folds 0-3 (fitted)"]
    label_stems = [s for s in folds if folds[s]["fold"] != 4]
    passing = []
    grid = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45)
    shapes = [(w, wr, near, short) for w in (0.3, 0.5, 1.0) for wr in (0.34, 0.5) for near in (False, True) for short in (0, 1, 2)]
    clean = {}
    for t in grid:
        for shape in shapes:
            lab = score(group([(labels[s], []) for s in label_stems], t, shape[0], 5, *shape[1:]), [folds[s]["group"] for s in label_stems])
            clean[(t,) + shape] = lab["false_pairs"] == 0
    for t in grid[:-1]:
        for shape in shapes:
            s = score(group([rows[x][:2] for x in train], t, shape[0], 5, *shape[1:]), [folds[x]["group"] for x in train])
            # A margin: the next looser distance must join no two labelled merchants either.
            nxt = grid[grid.index(t) + 1]
            ok = clean[(t,) + shape] and clean[(nxt,) + shape] and s["precision"] >= 0.995
            print("t=%.2f w=%.1f wr=%.2f near_legal=%d short=%d  %s%s" % ((t,) + shape + (fmt(s), "" if ok else "  (refused)")))
            if ok: passing.append((s, (t,) + shape))
    # The most conservative of the near-best: within 2 % of the fewest rows, the smallest
    # distance, then the smallest word weight and word distance, then the fewer new rules.
    fewest = min(s["rows"] for s, _ in passing)
    best = min((p for p in passing if p[0]["rows"] <= fewest * 1.02), key=lambda p: p[1])
    t, w, wr, near, short = best[1]
    print("\nchosen on folds 0-3: max_distance %.2f, common-word weight %.1f, word distance %.2f, near legal forms %s, short words %d" % (t, w, wr, near, short))
    for name, part in parts.items():
        print(name + ":", fmt(score(group([rows[x][:2] for x in part], t, w, 5, wr, near, short), [folds[x]["group"] for x in part])))

main()
