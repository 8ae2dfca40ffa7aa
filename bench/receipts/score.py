#!/usr/bin/env python3
"""Scores receipt predictions against ground truth (a bench tool, never the product).

    score.py DATASET_DIR PREDICTIONS.jsonl LABEL [--items] [--run-json RUN.json]
    score.py --cv PREDICTIONS.jsonl [MORE.jsonl ...] [--label L] [--heldout K]
             [--data ../shared/data/receipts] [--folds bench/receipts/folds.json]

DATASET_DIR holds NAME.jpg + NAME.json (`../shared/data/receipts/<set>`: merchant, date, total) or
NAME.expected.json (rendered receipts: `receipt.items`). PREDICTIONS.jsonl has one JSON object per
image with `file` (ending in NAME.jpg) and `receipt` {merchant, date, total, items}: snapsort's
records.jsonl, or the baseline's output in the same shape.

How a field is compared (the rules of the dataset's README):
  total     equal as decimals to the cent (`1.234,56`, `1,234.56`, `RM 9.00` accepted);
  date      equal as ISO dates;
  merchant  case-insensitive on letters and digits only, difflib ratio >= 0.8; a one-word label
            (`lidl`) also matches when any predicted word is that close to it;
  items     an expected item matches an unused predicted one when the amounts are equal and the
            descriptions' ratio >= 0.7 (case-insensitive); F1 over all receipts.
Prints a markdown fragment.

--cv scores the real receipts by the fixed split of folds.json (split.py): the prediction files
are merged by file stem (e.g. the records of sroie/, sroie_dev/ and softmatic_de/), each stem's
truth is read from the folder folds.json names, and a stem with no prediction counts as wrong.
Prints one row per fold, SROIE pooled (345), the 45 tuned-on and the 300 sroie_dev apart (and
sroie_dev split by whether the receipt's merchant group is among the tuned-on 45: an unseen shop
or not), and the German test 14; with --heldout K also the training folds (all but K) against
fold K.
"""
import difflib
import json
import os
import re
import sys
import unicodedata


def amount(text):
    if text is None:
        return None
    s = re.sub(r"[^\d.,-]", "", str(text))
    m = re.search(r"(-?)(\d{1,3}(?:[.,' ]\d{3})+|\d+)[.,](\d{2})$", s)
    if m:
        return int(re.sub(r"\D", "", m.group(2))) * 100 + int(m.group(3))
    if re.fullmatch(r"\d+", s):
        return int(s) * 100
    return None


def fold(text):
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9 ]", "", text)


def merchant_ok(expected, predicted):
    if not expected or not predicted:
        return False
    e, p = fold(expected).replace(" ", ""), fold(predicted).replace(" ", "")
    if e and difflib.SequenceMatcher(None, e, p).ratio() >= 0.8:
        return True
    if " " not in fold(expected).strip():
        return any(difflib.SequenceMatcher(None, e, w).ratio() >= 0.8 for w in fold(predicted).split())
    return False


def ratio(a, b):
    return difflib.SequenceMatcher(None, (a or "").lower(), (b or "").lower()).ratio()


def field_hits(truth, pred):
    """{field: True/False} for the fields the truth labels (total, date, merchant)."""
    hits = {}
    if truth.get("total") is not None:
        hits["total"] = amount(truth["total"]) is not None and amount(truth["total"]) == amount(pred.get("total"))
    if truth.get("date") is not None:
        hits["date"] = truth["date"] == pred.get("date")
    if truth.get("merchant") is not None:
        hits["merchant"] = merchant_ok(truth["merchant"], pred.get("merchant"))
    return hits


def read_predictions(paths):
    preds = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                preds[os.path.splitext(os.path.basename(r["file"]))[0]] = r.get("receipt") or {}
    return preds


def cv_main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))

    def option(name, default):
        return argv[argv.index(name) + 1] if name in argv else default

    data = option("--data", os.path.join(os.path.dirname(root), "shared", "data", "receipts"))
    split = json.load(open(option("--folds", os.path.join(here, "folds.json")), encoding="utf-8"))
    label = option("--label", "snapsort")
    heldout = option("--heldout", None)
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--data", "--folds", "--label", "--heldout")}
    paths = [a for i, a in enumerate(argv) if not a.startswith("--") and i not in skip]
    preds = read_predictions(paths)
    groups = {}  # group name -> list of hit dicts

    def add(group, hits):
        groups.setdefault(group, []).append(hits)

    missing = {"sroie": 0, "test": 0}
    for name, v in sorted(split["sroie"].items()):
        truth = json.load(open(os.path.join(data, v["folder"], name + ".json"), encoding="utf-8"))
        if name not in preds:
            missing["sroie"] += 1
        hits = field_hits(truth, preds.get(name, {}))
        add(f"fold {v['fold']}", hits)
        add("SROIE pooled", hits)
        add(f"SROIE {v['folder']}", hits)
        if v["folder"] == "sroie_dev" and "seen_merchant" in v:
            add("dev seen" if v["seen_merchant"] else "dev unseen", hits)
        if heldout is not None:
            add(f"training folds (not {heldout})" if v["fold"] != int(heldout) else f"held-out fold {heldout}", hits)
    for name, v in sorted(split["test"].items()):
        truth = json.load(open(os.path.join(data, v["folder"], name + ".json"), encoding="utf-8"))
        if name not in preds:
            missing["test"] += 1
        add("German test", field_hits(truth, preds.get(name, {})))
    order = [f"fold {k}" for k in range(split["folds"])] + ["SROIE pooled", "SROIE sroie", "SROIE sroie_dev", "dev seen", "dev unseen"]
    if heldout is not None:
        order += [f"training folds (not {heldout})", f"held-out fold {heldout}"]
    order.append("German test")
    print(f"| {label}: set | n | total | date | merchant |")
    print("|---|---|---|---|---|")
    for group in order:
        rows = groups.get(group, [])
        cells = []
        for field in ("total", "date", "merchant"):
            scored = [h[field] for h in rows if field in h]
            ok = sum(scored)
            cells.append(f"{ok}/{len(scored)} ({ok / len(scored):.2f})" if scored else "–")
        if not rows:
            continue
        name = {"SROIE sroie": "SROIE sroie/ (45, tuned on)", "SROIE sroie_dev": "SROIE sroie_dev/ (300)",
                "dev seen": "… sroie_dev, merchant also in sroie/", "dev unseen": "… sroie_dev, merchant not in sroie/ (unseen shop)"}.get(group, group)
        print(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    folds_total = [groups[f"fold {k}"] for k in range(split["folds"])]
    spread = []
    for field in ("total", "date", "merchant"):
        accs = [sum(h[field] for h in rows if field in h) / max(1, sum(1 for h in rows if field in h)) for rows in folds_total]
        mean = sum(accs) / len(accs)
        sd = (sum((a - mean) ** 2 for a in accs) / (len(accs) - 1)) ** 0.5
        spread.append(f"{field} {mean:.3f} ± {sd:.3f}")
    print(f"\nMean ± sd over the {split['folds']} folds: " + ", ".join(spread) +
          f". Stems without a prediction (counted wrong): SROIE {missing['sroie']}, German {missing['test']}.")


def main():
    if "--cv" in sys.argv:
        return cv_main(sys.argv[sys.argv.index("--cv") + 1:])
    folder, predictions, label = sys.argv[1], sys.argv[2], sys.argv[3]
    items_mode = "--items" in sys.argv
    preds = {}
    seconds = []
    for line in open(predictions, encoding="utf-8"):
        r = json.loads(line)
        stem = os.path.splitext(os.path.basename(r["file"]))[0]
        preds[stem] = r.get("receipt") or {}
        if "seconds" in r:
            seconds.append(r["seconds"])
    counts = {"total": [0, 0], "date": [0, 0], "merchant": [0, 0]}
    tp = fp = fn = 0
    for name in sorted(os.listdir(folder)):
        if items_mode and name.endswith(".expected.json"):
            stem = name[: -len(".expected.json")]
            truth = json.load(open(os.path.join(folder, name), encoding="utf-8")).get("receipt", {})
        elif not items_mode and name.endswith(".json"):
            stem = name[:-5]
            truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        else:
            continue
        pred = preds.get(stem, {})
        if truth.get("total") is not None:
            counts["total"][1] += 1
            counts["total"][0] += amount(truth["total"]) is not None and amount(truth["total"]) == amount(pred.get("total"))
        if truth.get("date") is not None:
            counts["date"][1] += 1
            counts["date"][0] += truth["date"] == pred.get("date")
        if truth.get("merchant") is not None:
            counts["merchant"][1] += 1
            counts["merchant"][0] += merchant_ok(truth["merchant"], pred.get("merchant"))
        if items_mode:
            expected = truth.get("items") or []
            predicted = list(pred.get("items") or [])
            used = [False] * len(predicted)
            for e in expected:
                for i, p in enumerate(predicted):
                    if not used[i] and amount(p.get("amount")) == amount(e["amount"]) and ratio(p.get("description"), e["description"]) >= 0.7:
                        used[i] = True
                        tp += 1
                        break
                else:
                    fn += 1
            fp += used.count(False)
    cells = []
    for field in ("total", "date", "merchant"):
        ok, n = counts[field]
        cells.append(f"{ok}/{n} ({ok / n:.2f})" if n else "–")
    row = f"| {label} | " + " | ".join(cells)
    if items_mode:
        precision = tp / (tp + fp) if tp + fp else 0
        recall = tp / (tp + fn) if tp + fn else 0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
        row += f" | {f1:.2f} (P {precision:.2f}, R {recall:.2f})"
    if "--run-json" in sys.argv:
        # snapsort's records carry no timings (they are deterministic); run.json has per-stage
        # medians, whose sum stands for the median seconds per receipt.
        stages = json.load(open(sys.argv[sys.argv.index("--run-json") + 1]))["stages"]
        row += f" | {sum(s['p50_ms'] for s in stages.values()) / 1000:.2f}"
    elif seconds:
        seconds.sort()
        row += f" | {seconds[len(seconds) // 2]:.2f}"
    print(row + " |")


if __name__ == "__main__":
    main()
