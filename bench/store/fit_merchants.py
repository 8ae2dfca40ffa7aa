#!/usr/bin/env python3
"""Fits and measures the store's merchant grouping (issue #27 item 1; a bench tool, never the product).

    fit_merchants.py OUT [OUT ...]           # outputs of `snapsort run --preset receipts` over
                                             # ../shared/data/receipts/{sroie,sroie_dev}
    fit_merchants.py OUT ... --store DB      # score the product's grouping in a store instead
    fit_merchants.py OUT ... --refit-names   # sweep the name parameters too (slow)

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

Third fit 2026-11-26, issue #27's "no grouped pair of different merchants": union-find was
transitive, so one Gardenia invoice whose merchant was read from the customer's line (`MAKASSAR
FRESH MARKET`) joined the bakery by its GST id and the market by its name (34 false pairs in folds
0-3). Now a link (a shared number or a close name) between two groups is refused when the groups'
main names (the key most of each group's receipts carry) are farther apart than a distance,
unless it is a number's link and one of its two receipts reads the other group's main name in its
first lines (an address read as the merchant, the name above it: `KAWASAN PERINDUSTRIAN
BALAKONG` under `MR. D.I.Y.`). Numbers are compared by their last 9 digits (a stray digit before
a GST id, a phone's lost 0). Swept on folds 0-3 only with the name parameters kept (a
`--refit-names` sweep under the new rule chose the same): fewest false pairs at that distance and
the next looser one, then fewest rows, then within 2 % the smallest distance and fewest lines.
Records: the receipts preset's records of the 345 SROIE receipts (/tmp/rcpu2/out/train-new and
fold4-fix, the receipt-cpu2 branch merged into main at 5647c24) and the 14 German receipts
(de-fix-j2, a test set: truth = the labelled merchant). Chosen: group-name distance 0.50 (plain
edit distance, no word discounted), 3 lines read, last digits on. Before -> after (this script;
the product's store gives the same): folds 0-3 119 -> 121 rows for 113 merchants, false pairs 35
-> 3; fold 4 (held out) 35 -> 35 rows for 30 (1.17x), 0 -> 0 false pairs; all 153 -> 155 for 143,
41 -> 9; German 9 rows for 9 merchants, 0 false pairs, before and after. The 3 false pairs left in
folds 0-3: a second Gardenia invoice whose customer was read as the merchant with a misread GST id
(2 pairs with the market), and `Haxincone Resources` / `Maxincome Resources` (one company, the
operator of a FamilyMart, labelled as two). The 6 more in all five folds: `Golden Arches
Restaurants` (fold 0) and `Gerbang Alaf Restaurants` (fold 4) share a GST id and their names are
0.43 apart (`restaurants` in both), within 0.50; the latter prints "formerly known as Golden
Arches Restaurants": one company renamed, labelled as two merchants.
"""
import argparse, collections, functools, itertools, json, os, re, sqlite3, unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEGAL = "sdn bhd s b m plt ltd limited co inc llc llp corp pty plc gmbh mbh ag kg ohg ug ek sarl sas sa srl spa snc bv nv vof ab hb oy as asa aps sp zoo ooo oao zao pao tov ip".split()
CLASSES = ["0odq", "1il|!t", "5s", "8b", "2z", "6g", "vy¥"]
CONF = {c: g[0] for g in CLASSES for c in g}


def cfold(w): return "".join(CONF.get(c, c) for c in w)


def fold(s):
    s = unicodedata.normalize("NFKD", s.lower())
    return "".join(c for c in s if not unicodedata.combining(c))


@functools.lru_cache(maxsize=None)
def words(name, near_legal=False):
    """near_legal: a word of 3+ characters one edit (or `near_legal` edits, an int) from a legal
    form of 3+ is one too when a legal form spelled exactly stands beside it (`SDN BAD`, `SDS BHD`)."""
    s = re.sub(r"\([^)]*\)", " ", fold(name))
    legal = {cfold(w) for w in LEGAL}
    tokens = [cfold(t) for t in re.findall(r"[^\W_]+|¥", s)]
    exact = [t in legal for t in tokens]
    long_legal = [w for w in legal if len(w) >= 3]
    def is_legal(i):
        if exact[i]: return True
        beside = (i > 0 and exact[i - 1]) or (i + 1 < len(tokens) and exact[i + 1])
        return near_legal and beside and len(tokens[i]) >= 3 and any(lev(tokens[i], w) <= near_legal for w in long_legal)
    return tuple(t for i, t in enumerate(tokens) if not is_legal(i))


def lev(a, b):
    p = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        c = [i]
        for j, cb in enumerate(b, 1): c.append(min(p[j] + 1, c[j - 1] + 1, p[j - 1] + (ca != cb)))
        p = c
    return p[-1]


def weighted(a, b, common, w):
    return _weighted(a, b, frozenset(common), w)


@functools.lru_cache(maxsize=None)
def _weighted(a, b, common, w):
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


def identifiers(lines, n=12, digits=9, tail=False):
    """tail: numbers compared by their last `digits` digits (OCR's stray leading digit, a lost 0)."""
    found = set()
    for line in lines[:n]:
        for m in re.finditer(r"\d[\d \-/]*\d", line):
            d = re.sub(r"\D", "", m.group())
            if len(d) >= digits: found.add(d[-digits:] if tail else d)
    return found


def group(receipts, t, w, k, wr, near_legal=False, short=0, low=0.1, apart=None, top=0, apart_weight=None, tail=False):
    """receipts: list of (merchant or None, lines) -> list of group ids. Links come in the
    product's order (one spelling, then a shared identifier in receipt order, then close names,
    closest first). With `apart` set, a link is refused when the two groups' main names (the key
    most of each group's receipts carry) are farther apart than that, unless it is an identifier
    link and one of its two receipts has a line among its first `top` that reads as the other
    group's main name (an address read as the merchant below the merchant's name)."""
    keys = [words(m, near_legal) if m else None for m, _ in receipts]
    names = sorted({x for x in keys if x is not None}, key=" ".join)
    key_of = {" ".join(n): n for n in names}
    count = collections.Counter(t_ for n in names for t_ in set(n) if len(t_) >= 3)
    common = {x for x, c in count.items() if c >= k}
    def close(a, b):
        d = weighted(a, b, common, w)
        return d <= t and (d <= low or correspond(a, b, common, wr, short))
    def reads(i, name):
        return any(close(words(line, near_legal), key_of[name]) for line in receipts[i][1][:top])
    parent = list(range(len(receipts)))
    spellings = {i: collections.Counter([" ".join(keys[i])]) if keys[i] is not None else collections.Counter() for i in range(len(receipts))}
    def find(x):
        while parent[x] != x: parent[x] = parent[parent[x]]; x = parent[x]
        return x
    def main_key(r):
        return min(spellings[r].items(), key=lambda kv: (-kv[1], kv[0]))[0] if spellings[r] else None
    def link(a, b, by_identifier=False):
        ra, rb = find(a), find(b)
        if ra == rb: return
        ca, cb = main_key(ra), main_key(rb)
        if apart is not None and ca and cb and ca != cb and weighted(key_of[ca], key_of[cb], common, w if apart_weight is None else apart_weight) > apart:
            if not (by_identifier and (reads(b, ca) or reads(a, cb))): return
        parent[rb] = ra
        spellings[ra] += spellings.pop(rb)
    by_key = collections.defaultdict(list)
    for i, key in enumerate(keys):
        if key is not None: by_key[key].append(i)
    for m in by_key.values():
        for i in m[1:]: link(m[0], i)
    first = {}
    for i, (_, lines) in enumerate(receipts):
        for d in sorted(identifiers(lines, tail=tail)):
            if d in first: link(first[d], i, by_identifier=True)
            else: first[d] = i
    pairs = []
    for a, b in itertools.combinations(names, 2):
        d = weighted(a, b, common, w)
        if d <= t and (d <= low or correspond(a, b, common, wr, short)):
            pairs.append((d,) + tuple(sorted((" ".join(a), " ".join(b)))))
    for _, a, b in sorted(pairs):
        link(by_key[key_of[a]][0], by_key[key_of[b]][0])
    return [find(i) for i in range(len(receipts))]


def score(groups, truth):
    tp = fp = fn = 0
    for (g1, t1), (g2, t2) in itertools.combinations(zip(groups, truth), 2):
        tp += g1 == g2 and t1 == t2; fp += g1 == g2 and t1 != t2; fn += g1 != g2 and t1 == t2
    return dict(rows=len(set(groups)), merchants=len(set(truth)), precision=tp / max(1, tp + fp), recall=tp / max(1, tp + fn), false_pairs=fp)


def fmt(s): return "%d rows for %d merchants (%.2fx), pairwise precision %.3f recall %.3f, %d false pairs" % (s["rows"], s["merchants"], s["rows"] / s["merchants"], s["precision"], s["recall"], s["false_pairs"])


NAMES = (0.2, 0.3, 0.34, True, 2)  # max_distance, common-word weight, word distance, near legal, short: the product's


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outputs", nargs="+")
    ap.add_argument("--store")
    ap.add_argument("--refit-names", action="store_true", help="sweep the name parameters too (at the chosen apart/top)")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "receipts"))
    args = ap.parse_args()
    split = json.load(open(os.path.join(ROOT, "bench/receipts/folds.json")))
    folds = split["sroie"]
    # The German receipts are a test set only: their truth is the labelled merchant, folded.
    german = {s: fold(json.load(open(os.path.join(args.data, v["folder"], s + ".json")))["merchant"]) for s, v in split["test"].items()}
    truth = {s: ("sroie", v["group"]) for s, v in folds.items()} | {s: ("de", m) for s, m in german.items()}
    rows = {}
    for out in args.outputs:
        for line in open(os.path.join(out, "records.jsonl")):
            # A variant (`sroie_000~margins.jpg`, bench/kind/augment.py) is scored as its source.
            r = json.loads(line); stem = r["file"].rsplit("/", 1)[-1].rsplit(".", 1)[0].split("~")[0]
            rc = r.get("receipt")
            if stem in truth and rc and rc.get("merchant"):
                rows[stem] = (rc["merchant"], [t["text"] for t in rc.get("text") or []], r["file"])
    stems = sorted(s for s in rows if s in folds)
    parts = {"folds 0-3 (fitted)": [s for s in stems if folds[s]["fold"] != 4], "fold 4 (held out)": [s for s in stems if folds[s]["fold"] == 4], "all 5 folds": stems}
    if any(s in german for s in rows): parts["German (test)"] = sorted(s for s in rows if s in german)
    if args.store:
        entity = dict(sqlite3.connect(args.store).execute("SELECT file, merchant_entity FROM records"))
        for name, part in parts.items():
            # The store keeps one record per image content: a photo that is a copy of another
            # (three of the SROIE files) is stored once, under the other's name.
            stored = [s for s in part if rows[s][2] in entity]
            if stored:
                print(name + ":", fmt(score([entity[rows[s][2]] for s in stored], [truth[s] for s in stored])), "(%d receipts not stored)" % (len(part) - len(stored)) if len(stored) < len(part) else "")
        return
    train = parts["folds 0-3 (fitted)"]
    def on(part, names, apart, top, apart_weight, tail=False):
        t, w, wr, near, short = names
        return score(group([rows[x][:2] for x in part], t, w, 5, wr, near, short, apart=apart, top=top, apart_weight=apart_weight, tail=tail), [truth[x] for x in part])
    # The conflict rule: fewest false pairs on folds 0-3, at that distance and the next looser one
    # (a margin), then the fewest rows; of those within 2 % of the fewest, the smallest distance,
    # the fewest lines read, the common words weighed as in the names' distance before fully.
    aparts, tops, weights = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0), (0, 1, 2, 3, 5, 8), (NAMES[1], 1.0)
    table = {(a, n, aw): on(train, NAMES, a, n, aw) for a in aparts for n in tops for aw in weights}
    fewest_false = min(s["false_pairs"] for s in table.values())
    passing = []
    for (a, n, aw), s in sorted(table.items()):
        nxt = aparts[aparts.index(a) + 1] if a != aparts[-1] else None
        ok = s["false_pairs"] == fewest_false and nxt is not None and table[(nxt, n, aw)]["false_pairs"] == fewest_false
        print("apart=%.2f top=%d weight=%.1f  %s%s" % (a, n, aw, fmt(s), "" if ok else "  (refused)"))
        if ok: passing.append((s["rows"], a, n, aw))
    fewest = min(p[0] for p in passing)
    _, apart, top, apart_weight = min((p for p in passing if p[0] <= fewest * 1.02), key=lambda p: p[1:])
    names = NAMES
    if args.refit_names: names = refit_names(rows, train, truth, folds, args.data, apart, top, apart_weight)
    # Numbers compared by their last digits: kept when it adds no false pair and saves rows on
    # folds 0-3.
    whole, tails = on(train, names, apart, top, apart_weight), on(train, names, apart, top, apart_weight, True)
    tail = (tails["false_pairs"], tails["rows"]) < (whole["false_pairs"], whole["rows"])
    print("numbers by their last digits on folds 0-3: %s" % fmt(tails))
    print("\nchosen on folds 0-3: group-name distance %.2f, lines read %d, common-word weight there %.1f, last digits %s; names %s" % (apart, top, apart_weight, tail, names))
    for name, part in parts.items():
        print(name + ":", fmt(on(part, NAMES, None, 0, None)), "(no conflict rule)")
        print(name + ":", fmt(on(part, names, apart, top, apart_weight, tail)))


def refit_names(rows, train, truth, folds, data, apart, top, apart_weight):
    """The name parameters' sweep: the fewest rows among those that join no two labelled
    merchants (training labels, at that distance and the next one) and keep pairwise precision
    >= 0.995 on the OCR names; within 2 % of the fewest rows the most conservative."""
    labels = {s: json.load(open(os.path.join(data, v["folder"], s + ".json")))["merchant"] for s, v in folds.items()}
    label_stems = [s for s in folds if folds[s]["fold"] != 4]
    grid = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45)
    shapes = [(w, wr, near, short) for w in (0.3, 0.5, 1.0) for wr in (0.34, 0.5) for near in (False, True) for short in (0, 1, 2)]
    clean = {(t,) + sh: score(group([(labels[s], []) for s in label_stems], t, sh[0], 5, *sh[1:], apart=apart, top=top, apart_weight=apart_weight), [truth[s] for s in label_stems])["false_pairs"] == 0 for t in grid for sh in shapes}
    passing = []
    for t in grid[:-1]:
        for sh in shapes:
            s = score(group([rows[x][:2] for x in train], t, sh[0], 5, *sh[1:], apart=apart, top=top, apart_weight=apart_weight), [truth[x] for x in train])
            ok = clean[(t,) + sh] and clean[(grid[grid.index(t) + 1],) + sh] and s["precision"] >= 0.995
            print("t=%.2f w=%.1f wr=%.2f near_legal=%d short=%d  %s%s" % ((t,) + sh + (fmt(s), "" if ok else "  (refused)")))
            if ok: passing.append((s, (t,) + sh))
    fewest = min(s["rows"] for s, _ in passing)
    t, w, wr, near, short = min((p for p in passing if p[0]["rows"] <= fewest * 1.02), key=lambda p: p[1])[1]
    return (t, w, wr, near, short)


if __name__ == "__main__":
    main()
