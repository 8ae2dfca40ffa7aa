#!/usr/bin/env python3
"""The receipt's merchant chosen by a fitted model over candidates instead of (or over) the
extractor's hand rules: a prototype and its measurement, the features computed here in Python (a
bench tool, never the product; issue #23 item 4, #27).

    fit_merchant.py --ocr RECORDS.jsonl [MORE ...] --true RECEIPT_TEXT.jsonl [MORE ...]
                    [--brand-first] [--rules-feature] [--replace] [--data ../shared/data/receipts]
                    [--dump CANDIDATES.jsonl] [--apply OUT]

--ocr: snapsort's records of the real receipts (receipts preset); their rows (`receipt.text`, with
box and confidence) are where candidates come from, their `merchant` is the rules' answer (the
whole stage's: logo rereads and the choice between readings included).
--true: `snapsort receipt-text DIR --json` over the dataset's own lines (`sroie_dev`): rows and
the rules' answer on perfect text (every row confidence 100).

Candidates of a reading: each of the header's rows (up to the first priced row, at most 12) and
each two neighbouring rows joined. Features (`features()`): position, relative print height,
confidence, letter/digit/punctuation/upper-case/vowel shares, odd-case and short words, word
count, company and legal form, catalog brand, the address / phone / registration / date likeness
of the row and its neighbours, distance to the address block, rank among name-like rows, centring.

A conditional logit (softmax over a reading's candidates, L2), fitted on folds 0-3 of folds.json
(OCR readings and true lines together; a candidate counts as the answer to fit on when it matches
with difflib ratio >= 0.9, stricter than score.py's 0.8, so a name with a date joined on is not
taught as right). The model's choice replaces the rules' answer when its probability exceeds the
rules' candidate's by more than a margin; the L2 strength and the margin (none = always the
model) are chosen together by leave-one-fold-out inside 0-3. `--replace` fixes the margin to none
(the model replaces the rules outright); `--brand-first` keeps the rules' answer when it names a
catalog brand (the bundled issuers.json); `--rules-feature` adds "this candidate is the rules'
answer" as a feature and the rules' answer as a candidate.

Printed: merchant right, rules -> model, for leave-one-fold-out on 0-3, fold 4 (held out, model
fitted on 0-3), the German 14 (test, same model), and pooled 5-fold CV (each fold scored by a
model fitted on the other four, same L2 and margin), on OCR readings and on true lines; then the
held-out OCR readings (fold 4, German) whose answer the model changed. Where a reading has no
candidate, or names a catalog brand under --brand-first, the rules' answer stands. `--apply OUT`
writes the --ocr records with the model's merchants into OUT/records.jsonl (each fold's by a model
that did not see it), for bench/store/fit_merchants.py (the store's merchant rows, issue #27).
"""
import difflib
import json
import math
import os
import re
import sys

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold as score_fold, merchant_ok  # noqa: E402

COMPANY = [
    "sdn bhd", "sdn", "bhd", "enterprise", "enterprises", "trading", "restoran", "restaurant", "ltd",
    "limited", "llc", "inc", "gmbh", "ag", "kg", "sa", "sp z o o", "srl", "sas", "sarl", "bv", "ab", "oy",
    "market", "supermarket", "supermarkt", "store", "stores", "shop", "mart", "cafe", "bakery", "backerei",
    "apotheke", "pharmacy", "hardware", "marketing", "industries", "company", "co", "plc", "sklep",
    "epicerie", "supermercato", "boulangerie", "tienda", "winkel", "butik", "s b", "syarikat", "perniagaan",
]
LEGAL = ["sdn bhd", "bhd", "s b", "gmbh", "ltd", "limited", "llc", "inc", "plc", "sp z o o"]
NOT_NAMES = [
    "shopping", "tax invoice", "invoice", "receipt", "welcome", "tel", "fax", "phone", "gst", "www", "http",
    "cashier", "date", "datum", "open", "offnungszeiten", "hours", "reg no", "company no", "co no",
    "simplified", "kassenbon", "rechnung", "paragon", "fiskalny", "ticket", "scontrino", "thank", "danke",
    "vielen", "kundenbeleg", "quittung", "beleg", "bon", "member", "table", "server", "order",
]
STREET = [
    "jalan", "jln", "street", "st", "road", "rd", "avenue", "ave", "strasse", "str", "weg", "platz",
    "allee", "ul", "ulica", "via", "rue", "calle", "straat", "gatan", "taman", "lorong", "lot", "no",
    "blvd", "lane", "damm", "ring", "gasse", "plac", "aleja", "viale", "piazza", "avenida", "plein",
]
AMOUNT = re.compile(r"(?<![\d.,])\d{1,7}[.,]\d{2}(?![\d])")
PRICE_END = re.compile(r"\d[.,]\d{2}(\s+\S{1,3})?\s*$")
DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b")
TIME = re.compile(r"\b\d{1,2}:\d{2}\b")


def catalog_brands():
    """Folded names and aliases of the bundled issuer catalog the extractor matches headers against."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "SnapsortStages",
                        "Resources", "issuers.json")
    issuers = json.load(open(path, encoding="utf-8"))["issuers"]
    names = {fold(n).strip() for i in issuers for n in [i["name"]] + i["aliases"]}
    return sorted(n for n in names if sum(c.isalpha() for c in n) >= 3)


def fold(text):
    text = re.sub(r"[^0-9a-zäöüß ]", " ", text.lower())
    return " " + " ".join(text.split()) + " "


def has_any(folded, phrases):
    return any(f" {p} " in folded for p in phrases)


def looks_like_address(text):
    f = fold(text)
    tokens = f.split()
    digit = any(c.isdigit() for c in f)
    if digit and has_any(f, STREET):
        return True
    if tokens and len(tokens[0]) >= 4 and tokens[0].isdigit() and len(tokens) <= 4:
        return True
    return bool(tokens) and sum(t.isdigit() for t in tokens) * 2 > len(tokens)


def clean(text):
    text = re.sub(r"\([^()]*[0-9][^()]*(\)|$)", "", text)
    text = re.sub(r"^[^\w(&.]+|[^\w()&.]+$", "", text)
    return " ".join(text.split())


BRANDS = catalog_brands()
BRAND_FIRST = False


def header_end(rows):
    first = next((i for i, r in enumerate(rows) if PRICE_END.search(r["text"])), len(rows))
    return min(12, first) if first >= 2 else 12


def row_traits(rows):
    """Per row: what the neighbours' features read."""
    heights = sorted(max(1, r["box"][3]) for r in rows) or [1]
    median = heights[len(heights) // 2]
    width = max([r["box"][0] + r["box"][2] for r in rows] + [1])
    traits = []
    for r in rows:
        t = r["text"]
        f = fold(t)
        traits.append({
            "address": looks_like_address(t),
            "registration": sum(c.isdigit() for c in t) >= 5 and len(t.split()) <= 4,
            "phone": has_any(f, ["tel", "fax", "phone", "hp"]),
            "tax": has_any(f, ["gst", "reg", "co no", "company no", "vat", "ust", "id", "no"]),
            "date": bool(DATE.search(t)) or bool(TIME.search(t)),
            "height": math.log(max(1, r["box"][3]) / median),
            "centre": abs((r["box"][0] + r["box"][2] / 2) / width - 0.5),
            "conf": r.get("confidence", 100) / 100,
        })
        letter = shares(t)[0]
        traits[-1]["name_like"] = (letter >= 0.6 and not has_any(f, NOT_NAMES) and not traits[-1]["address"]
                                   and not AMOUNT.search(t) and sum(c.isalpha() for c in t) >= 3)
    return traits


def shares(text):
    visible = [c for c in text if not c.isspace()] or [" "]
    letters = [c for c in visible if c.isalpha()]
    return (len(letters) / len(visible), sum(c.isdigit() for c in visible) / len(visible),
            sum(not c.isalnum() for c in visible) / len(visible),
            sum(c.isupper() for c in letters) / max(1, len(letters)))


def odd_case(text):
    """Share of words whose letters are neither all upper, all lower nor capitalised: OCR of a logo
    or of shapes ("tit:", "IN“AUFI") more often than a printed name."""
    words = [w for w in text.split() if any(c.isalpha() for c in w)]
    odd = 0
    for w in words:
        letters = "".join(c for c in w if c.isalpha())
        odd += not (letters.isupper() or letters.islower() or (letters[0].isupper() and letters[1:].islower()))
    return odd / max(1, len(words))


def features(rows, traits, a, b, end, rules_value):
    text = " ".join(rows[i]["text"] for i in range(a, b + 1))
    value = clean(text)
    f = fold(text)
    letter, digit, punct, upper = shares(value)
    below = [traits[i] for i in range(b + 1, min(len(rows), b + 3))]
    address_below = next((i - b for i in range(b + 1, min(len(rows), b + 7)) if traits[i]["address"]), 7)
    header_heights = [traits[i]["height"] for i in range(end)] or [0]
    own = [traits[i] for i in range(a, b + 1)]
    return value, {
        "row": a / 10,
        "first_row": float(a == 0),
        "joined": float(b > a),
        "height": max(t["height"] for t in own),
        "tallest": float(max(t["height"] for t in own) >= max(header_heights) - 1e-9),
        "confidence": min(t["conf"] for t in own),
        "letters": letter,
        "digits": digit,
        "punctuation": punct,
        "upper": upper,
        "words": math.log1p(len(value.split())),
        "company": float(has_any(f, COMPANY)),
        "legal": float(has_any(f, LEGAL)),
        "not_name": float(has_any(f, NOT_NAMES)),
        "address": float(any(t["address"] for t in own)),
        "registration": float(any(t["registration"] for t in own)),
        "phone_or_tax": float(any(t["phone"] or t["tax"] for t in own)),
        "date": float(any(t["date"] for t in own)),
        "amount": float(bool(AMOUNT.search(text))),
        "address_below": address_below / 7,
        "registration_below": float(any(t["registration"] for t in below)),
        "phone_or_tax_below": float(any(t["phone"] or t["tax"] for t in below)),
        "centre": min(t["centre"] for t in own),
        "short_words": sum(len(w) <= 2 for w in value.split()) / max(1, len(value.split())),
        "odd_case": odd_case(value),
        "vowels": sum(c.lower() in "aeiouy" for c in value) / max(1, sum(c.isalpha() for c in value)),
        "above_address": float(address_below <= 2),
        "name_rank": min(3, sum(traits[i]["name_like"] for i in range(a))) / 3,
        "brand": float(any(f" {b} " in fold(value.replace("@", "O")) for b in BRANDS)),
        "rules": float(bool(rules_value) and fold(rules_value).replace(" ", "") == fold(value).replace(" ", "")),
    }


def candidates(rows, rules_value):
    traits = row_traits(rows)
    end = min(header_end(rows), len(rows))
    found = {}
    for a in range(end):
        for b in (a, a + 1):
            if b < len(rows) and b < end + 1:
                value, feats = features(rows, traits, a, b, end, rules_value)
                if sum(c.isalpha() for c in value) >= 3 and value not in found:
                    found[value] = feats
    if rules_value and rules_value not in found:
        probe = [{"text": "x", "box": [0, 0, 1, 1]}]
        feats = {k: 0.0 for k in features(probe, row_traits(probe), 0, 0, 1, None)[1]}
        feats.update(rules=1.0, rules_only=1.0,
                     brand=float(any(f" {b} " in fold(rules_value) for b in BRANDS)))
        found[rules_value] = feats
    for feats in found.values():
        feats.setdefault("rules_only", 0.0)
    return found


def stem(file):
    base = os.path.basename(file)
    for suffix in (".lines.csv", ".jpg", ".png", ".txt"):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return os.path.splitext(base)[0]


def readings(paths, source):
    out = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            record = json.loads(line) if line.strip() else {}
            receipt = record.get("receipt") or {}
            if "file" in record:
                out[stem(record["file"])] = {"rows": receipt.get("text") or [], "rules": receipt.get("merchant"),
                                             "source": source}
    return out


def close(expected, predicted):
    """A stricter match to fit on than score.py's (ratio 0.8 lets a name with a date joined on
    count as right): ratio >= 0.9, or the one-word rule."""
    e, p = score_fold(expected).replace(" ", ""), score_fold(predicted).replace(" ", "")
    return difflib.SequenceMatcher(None, e, p).ratio() >= 0.9 or " " not in score_fold(expected).strip()


def build(reads, truth):
    data = []
    for s, r in sorted(reads.items()):
        if s not in truth:
            continue
        found = candidates(r["rows"], r["rules"])
        names = list(found)
        labels = [merchant_ok(truth[s]["merchant"], v) for v in names]
        strict = [ok and close(truth[s]["merchant"], v) for ok, v in zip(labels, names)]
        data.append({"stem": s, "values": names, "x": [found[v] for v in names], "y": labels, "fit_y": strict,
                     "rules": r["rules"],
                     "rules_ok": merchant_ok(truth[s]["merchant"], r["rules"]),
                     "rules_brand": bool(r["rules"]) and any(f" {b} " in fold(r["rules"].replace("@", "O"))
                                                             for b in BRANDS)})
    return data


def matrix(data, names):
    return [np.array([[c[n] for n in names] for c in d["x"]]) if d["x"] else np.zeros((0, len(names)))
            for d in data]


def fit(data, names, l2):
    xs = matrix(data, names)
    usable = [(x, np.array(d["fit_y"], float)) for x, d in zip(xs, data) if any(d["fit_y"])]
    stack = np.vstack([x for x, _ in usable])
    mean, scale = stack.mean(0), stack.std(0)
    scale[scale == 0] = 1
    zs = [((x - mean) / scale, y / y.sum()) for x, y in usable]

    def loss(w):
        total, grad = l2 * w @ w, 2 * l2 * w
        for z, y in zs:
            s = z @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            total -= y @ np.log(p + 1e-12)
            grad -= z.T @ (y - p)
        return total / len(zs), grad / len(zs)

    w = minimize(loss, np.zeros(len(names)), jac=True, method="L-BFGS-B").x
    return mean, scale, w


def right(data, names, model, margin=None):
    """Receipts whose merchant is right when the model's choice replaces the rules' answer; with
    `margin`, only where its probability exceeds the rules' candidate's by more than that."""
    return sum(bool(d["y"][c[0]]) if c else d["rules_ok"] for d, c in zip(data, choices(data, names, model, margin)))


def choices(data, names, model, margin):
    """Per reading: the candidate the model takes instead of the rules' answer and its probability,
    or None where the rules' answer stands."""
    mean, scale, w = model
    for x, d in zip(matrix(data, names), data):
        if (BRAND_FIRST and d["rules_brand"]) or not len(d["y"]):
            yield None
            continue
        s = ((x - mean) / scale) @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        k, at = int(np.argmax(p)), d["rules_at"]
        yield (k, p[k]) if k != at and (margin is None or p[k] - (p[at] if at is not None else 0) > margin) else None


def changed(data, names, model, margin, truth):
    """Prints the readings whose answer the model changes: the rules' and the model's, right or not."""
    for d, choice in zip(data, choices(data, names, model, margin)):
        if choice:
            (k, p), rules = choice, d["rules"]
            print(f"- {d['stem']}: label {truth[d['stem']]['merchant']!r}; rules {rules!r} "
                  f"({'right' if d['rules_ok'] else 'wrong'}) -> model {d['values'][k]!r} "
                  f"({'right' if d['y'][k] else 'wrong'}, p {p:.2f})")


def apply(out, paths, data, names, margin, model, fold_of):
    """Writes `paths`' records with each merchant the model would give: fold 4 and the German 14 by
    the model of folds 0-3, a training fold by the model of the other three (for bench/store's
    fit_merchants.py: the store's merchant rows before and after)."""
    new = {}
    for fold in [0, 1, 2, 3, 4, "test"]:
        part = [d for d in data if fold_of[d["stem"]] == fold]
        pool = [g for g in range(4) if g != fold]
        for d, c in zip(part, choices(part, names, model(pool), margin)):
            if c:
                new[d["stem"]] = d["values"][c[0]]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "records.jsonl"), "w", encoding="utf-8") as f:
        for path in paths:
            for line in open(path, encoding="utf-8"):
                record = json.loads(line)
                if stem(record.get("file", "")) in new:
                    record["receipt"]["merchant"] = new[stem(record["file"])]
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"\n{len(new)} merchants changed, written to {out}/records.jsonl")


def options(args):
    """The command line: input files by kind, and the flags."""
    here = os.path.dirname(os.path.abspath(__file__))
    opts = {"ocr": [], "true": [], "dump": None, "apply": None,
            "data": os.path.join(os.path.dirname(os.path.dirname(here)), "..", "shared", "data", "receipts"),
            "folds": os.path.join(here, "folds.json"), "flags": set()}
    mode, i = None, 0
    while i < len(args):
        a = args[i]
        if a in ("--ocr", "--true"):
            mode = a[2:]
        elif a in ("--data", "--apply", "--dump"):
            opts[a[2:]], i = args[i + 1], i + 1
        elif a in ("--rules-feature", "--brand-first", "--replace"):
            opts["flags"].add(a)
        elif mode:
            opts[mode].append(a)
        i += 1
    return opts


class Runs:
    """The readings of both kinds with their folds, and the models fitted on sets of folds."""

    def __init__(self, opts):
        split = json.load(open(opts["folds"], encoding="utf-8"))
        self.fold_of = {s: v["fold"] for s, v in split["sroie"].items()} | {s: "test" for s in split["test"]}
        folder = {s: v["folder"] for s, v in list(split["sroie"].items()) + list(split["test"].items())}
        self.truth = {s: json.load(open(os.path.join(opts["data"], folder[s], s + ".json"), encoding="utf-8"))
                      for s in folder}
        self.sets = {kind: build(readings(opts[kind], kind), self.truth) for kind in ("ocr", "true")}
        self.names = sorted({n for d in self.sets["ocr"] + self.sets["true"] for c in d["x"] for n in c})
        if "--rules-feature" not in opts["flags"]:
            self.names = [n for n in self.names if n not in ("rules", "rules_only")]
            for d in self.sets["ocr"] + self.sets["true"]:
                keep = [k for k, c in enumerate(d["x"]) if c["rules_only"] == 0]
                for key in ("x", "y", "fit_y", "values"):
                    d[key] = [d[key][k] for k in keep]
        for d in self.sets["ocr"] + self.sets["true"]:
            d["rules_at"] = next((k for k, c in enumerate(d["x"]) if c["rules"]), None)
        self.models = {}

    def part(self, kind, folds):
        return [d for d in self.sets[kind] if self.fold_of[d["stem"]] in folds]

    def model(self, l2, folds):
        key = (l2, tuple(folds))
        if key not in self.models:
            self.models[key] = fit(self.part("ocr", folds) + self.part("true", folds), self.names, l2)
        return self.models[key]

    def scored(self, kind, folds, pool, l2, margin):
        """Right answers on `folds`, each scored by a model fitted on the rest of `pool`."""
        return sum(right(self.part(kind, [f]), self.names, self.model(l2, [g for g in pool if g != f]), margin)
                   for f in folds)


def report(runs, best, margin):
    """The table of rules -> model per set, the weights, and the held-out answers changed."""
    train = [0, 1, 2, 3]
    print("| set | readings | answer among candidates | rules right | model right |")
    print("|---|---|---|---|---|")

    def row(label, data, model_right):
        print(f"| {label} | {len(data)} | {sum(any(d['y']) for d in data)} | "
              f"{sum(d['rules_ok'] for d in data)} | {model_right} |")

    for kind in ("ocr", "true"):
        row(f"{kind}: folds 0-3, leave-one-fold-out", runs.part(kind, train),
            runs.scored(kind, train, train, best, margin))
        row(f"{kind}: **fold 4 (held out)**", runs.part(kind, [4]), runs.scored(kind, [4], range(5), best, margin))
        if kind == "ocr":
            row("ocr: **German 14 (test)**", runs.part(kind, ["test"]),
                right(runs.part(kind, ["test"]), runs.names, runs.model(best, train), margin))
        row(f"{kind}: pooled 5-fold CV", runs.part(kind, range(5)),
            runs.scored(kind, range(5), range(5), best, margin))
    mean, scale, w = runs.model(best, train)
    print("\nweights (standardised), fitted on folds 0-3: "
          + ", ".join(f"{n} {v:+.2f}" for n, v in sorted(zip(runs.names, w), key=lambda t: -abs(t[1]))))
    print("\nheld-out OCR readings whose answer the model changed (fold 4, German 14):")
    changed(runs.part("ocr", [4, "test"]), runs.names, runs.model(best, train), margin, runs.truth)


def main():
    opts = options(sys.argv[1:])
    global BRAND_FIRST
    BRAND_FIRST = "--brand-first" in opts["flags"]
    runs = Runs(opts)
    if opts["dump"]:
        with open(opts["dump"], "w", encoding="utf-8") as f:
            for kind in runs.sets:
                for d in runs.sets[kind]:
                    f.write(json.dumps({"kind": kind, "fold": runs.fold_of[d["stem"]], **d}) + "\n")
    train = [0, 1, 2, 3]
    grid = [0.1, 1.0, 10.0, 30.0, 100.0]
    margins = [None] if "--replace" in opts["flags"] else [None, 0.0, 0.2, 0.4, 0.6, 0.8]
    cv = {(l2, m): sum(runs.scored(k, train, train, l2, m) for k in ("ocr", "true")) for l2 in grid for m in margins}
    best, margin = max(cv, key=lambda t: (cv[t], t[0], -1 if t[1] is None else t[1]))
    print(f"features: {len(runs.names)}; L2 and margin by leave-one-fold-out on folds 0-3 (OCR + true right): "
          + ", ".join(f"{l2:g}/{m}: {v}" for (l2, m), v in cv.items()) + f" -> {best:g}, margin {margin}")
    report(runs, best, margin)
    if opts["apply"]:
        apply(opts["apply"], opts["ocr"], runs.sets["ocr"], runs.names, margin,
              lambda pool: runs.model(best, pool), runs.fold_of)


if __name__ == "__main__":
    main()
