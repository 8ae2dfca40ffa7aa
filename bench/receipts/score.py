#!/usr/bin/env python3
"""Scores receipt predictions against ground truth (a bench tool, never the product).

    score.py DATASET_DIR PREDICTIONS.jsonl LABEL [--items] [--run-json RUN.json]
    score.py --cv PREDICTIONS.jsonl [MORE.jsonl ...] [--label L] [--heldout K]
             [--data ../shared/data/receipts] [--folds bench/receipts/folds.json]
    score.py --compare --run LABEL FILE[,FILE...] [--run LABEL FILE[,FILE...] ...]
             [--data ../shared/data/receipts] [--folds bench/receipts/folds.json]

DATASET_DIR holds NAME.jpg + NAME.json (`../shared/data/receipts/<set>`: merchant, date, total) or
NAME.expected.json (rendered receipts: `receipt.items`). PREDICTIONS.jsonl has one JSON object per
image with `file` (ending in NAME.jpg, or NAME.lines.csv for `snapsort receipt-text`) and `receipt` {merchant, date, total, items}: snapsort's
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

--compare puts several runs side by side on the same receipts, one table per field (total, date,
merchant): the SROIE receipts that carry the dataset's own lines (NAME.lines.csv; the 300 of
sroie_dev, the 45 of sroie/ have none) per fold of folds.json, pooled, and the mean ± sd over the
folds, then the German test 14 (a run with no prediction for any of them shows "–" there). Meant
for one extractor on the project's OCR and on the true lines (`snapsort receipt-text`), the naive
rules beside them: the gap column is the second run's share minus the first's (true lines minus
OCR: what OCR costs the extractor), and a line under each table counts the receipts the first two
runs got right in both, only one of them, or neither. A stem a run did not predict counts as wrong
for that run.
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


def stem(file):
    """The receipt's stem of a prediction's `file`: `sroie_000.jpg`, `sroie_000.lines.csv`,
    `sroie_000.lines.json` (a run's OCR lines, `record_lines.py`)."""
    name = os.path.basename(file)
    for suffix in (".lines.csv", ".lines.json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return os.path.splitext(name)[0]


def read_predictions(paths):
    preds = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                preds[stem(r["file"])] = r.get("receipt") or {}
    return preds


def share(rows, field):
    scored = [h[field] for h in rows if field in h]
    return (sum(scored), len(scored))


def compare_main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    runs, data, folds_path = [], os.path.join(os.path.dirname(root), "shared", "data", "receipts"), os.path.join(here, "folds.json")
    i = 0
    while i < len(argv):
        if argv[i] == "--run" and i + 2 < len(argv):
            runs.append((argv[i + 1], read_predictions([p for p in argv[i + 2].split(",") if p])))
            i += 3
        elif argv[i] in ("--data", "--folds") and i + 1 < len(argv):
            data, folds_path = (argv[i + 1], folds_path) if argv[i] == "--data" else (data, argv[i + 1])
            i += 2
        else:
            sys.exit(f"score.py --compare: unexpected argument {argv[i]!r} (--run LABEL FILE[,FILE...])")
    if len(runs) < 2:
        sys.exit("score.py --compare: give two --run or more (the first two make the gap column)")
    split = json.load(open(folds_path, encoding="utf-8"))
    truth = {name: json.load(open(os.path.join(data, v["folder"], name + ".json"), encoding="utf-8"))
             for part in ("sroie", "test") for name, v in split[part].items()}
    lined = {n: v for n, v in split["sroie"].items() if os.path.exists(os.path.join(data, v["folder"], n + ".lines.csv"))}
    groups = [(f"fold {k}", sorted(n for n, v in lined.items() if v["fold"] == k)) for k in range(split["folds"])]
    groups.append((f"**pooled, SROIE with true lines**", sorted(lined)))
    german = sorted(split["test"])
    hits = [{n: field_hits(truth[n], preds.get(n, {})) for n in truth} for _, preds in runs]
    for field in ("total", "date", "merchant"):
        head = [label for label, _ in runs]
        head.insert(2, "gap (2nd − 1st)")
        print(f"| {field}: set | n | " + " | ".join(head) + " |")
        print("|---|---|" + "---|" * len(head))
        per_fold = [[] for _ in range(len(runs) + 1)]
        for name, stems in groups:
            shares = [share([h[n] for n in stems], field) for h in hits]
            cells = [f"{ok}/{n} ({ok / n:.2f})" if "pooled" in name else f"{ok / n:.2f}" for ok, n in shares]
            gap = shares[1][0] / shares[1][1] - shares[0][0] / shares[0][1]
            cells.insert(2, f"{gap:+.2f}")
            if name.startswith("fold"):
                for j, (ok, n) in enumerate(shares):
                    per_fold[j].append(ok / n)
                per_fold[-1].append(gap)
            print(f"| {name} | {shares[0][1]} | " + " | ".join(cells) + " |")
        spread = [f"{sum(a) / len(a):.3f} ± {(sum((x - sum(a) / len(a)) ** 2 for x in a) / (len(a) - 1)) ** 0.5:.3f}" for a in per_fold]
        spread.insert(2, spread.pop())
        print("| mean ± sd over the folds | | " + " | ".join(spread) + " |")
        cells = []
        for (_, preds), h in zip(runs, hits):
            ok, n = share([h[s] for s in german], field)
            cells.append(f"{ok}/{n} ({ok / n:.2f})" if n and any(s in preds for s in german) else "–")
        cells.insert(2, "–")
        print(f"| German test (no true lines) | {len(german)} | " + " | ".join(cells) + " |")
        both = [(hits[0][n].get(field), hits[1][n].get(field)) for n in sorted(lined) if field in hits[0][n]]
        print(f"\nPer receipt, pooled ({runs[0][0]} / {runs[1][0]}): right in both {both.count((True, True))}, "
              f"only in the second {both.count((False, True))}, only in the first {both.count((True, False))}, "
              f"in neither {both.count((False, False))}.")
        print()
    missing = [f"{label} {sum(1 for n in lined if n not in preds)}" for label, preds in runs]
    print(f"SROIE receipts with true lines: {len(lined)} of {len(split['sroie'])}. Without a prediction "
          f"(counted wrong): " + ", ".join(missing) + ".")


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
    if "--compare" in sys.argv:
        return compare_main(sys.argv[sys.argv.index("--compare") + 1:])
    folder, predictions, label = sys.argv[1], sys.argv[2], sys.argv[3]
    items_mode = "--items" in sys.argv
    preds = {}
    seconds = []
    for line in open(predictions, encoding="utf-8"):
        r = json.loads(line)
        preds[stem(r["file"])] = r.get("receipt") or {}
        if "seconds" in r:
            seconds.append(r["seconds"])
    counts = {"total": [0, 0], "date": [0, 0], "merchant": [0, 0]}
    tp = fp = fn = 0
    for name in sorted(os.listdir(folder)):
        if items_mode and name.endswith(".expected.json"):
            key = name[: -len(".expected.json")]
            truth = json.load(open(os.path.join(folder, name), encoding="utf-8")).get("receipt", {})
        elif not items_mode and name.endswith(".json"):
            key = name[:-5]
            truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        else:
            continue
        pred = preds.get(key, {})
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
