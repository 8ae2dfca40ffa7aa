#!/usr/bin/env python3
"""Scores receipt predictions against ground truth (a bench tool, never the product).

    score.py DATASET_DIR PREDICTIONS.jsonl LABEL [--items] [--run-json RUN.json]

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


def main():
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
