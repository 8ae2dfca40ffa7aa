#!/usr/bin/env python3
"""Scores receipt records against the ground truth of bench/gen/receipts.py (a bench tool, never
the product).

    score_rendered.py DIR PREDICTIONS.jsonl [LABEL] [--by layout_family,font,capture,language]
                      [--run-json RUN.json] [--time-file TIME.txt]

DIR holds NAME.jpg + NAME.json as bench/gen/receipts.py writes them; PREDICTIONS is snapsort's
records.jsonl or naive_baseline.py's output. The rules are score.py's: an expected item matches an
unused predicted one when the amounts are equal to the cent and the descriptions' difflib ratio
(case-insensitive) is >= 0.7; precision, recall and F1 over all items of all receipts; total to
the cent; date as ISO; merchant by score.merchant_ok. Prints the overall row and one table per
--by attribute. --run-json adds snapsort's median seconds (sum of per-stage p50, wall and CPU);
--time-file reads a `time -p` output (user + sys over the receipts) for CPU s per receipt.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount, merchant_ok, ratio, read_predictions  # noqa: E402


def item_counts(expected, predicted):
    predicted = list(predicted or [])
    used = [False] * len(predicted)
    tp = fn = 0
    for e in expected:
        for i, p in enumerate(predicted):
            if not used[i] and amount(p.get("amount")) == amount(e["amount"]) and ratio(p.get("description"), e["description"]) >= 0.7:
                used[i] = True
                tp += 1
                break
        else:
            fn += 1
    return tp, used.count(False), fn


def summarise(rows):
    tp = sum(r["tp"] for r in rows)
    fp = sum(r["fp"] for r in rows)
    fn = sum(r["fn"] for r in rows)
    p = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
    n = len(rows)
    acc = {f: sum(r[f] for r in rows) for f in ("total", "date", "merchant")}
    return n, f1, p, rc, acc


def row(label, rows):
    n, f1, p, rc, acc = summarise(rows)
    cells = " | ".join(f"{acc[f]}/{n} ({acc[f] / n:.2f})" for f in ("total", "date", "merchant"))
    return f"| {label} | {n} | {f1:.3f} (P {p:.3f}, R {rc:.3f}) | {cells} |"


def main():
    args = sys.argv[1:]

    def option(name, default=None):
        return args[args.index(name) + 1] if name in args else default

    by = option("--by", "layout_family,font,capture,language").split(",")
    skip = {i + 1 for i, a in enumerate(args) if a in ("--by", "--run-json", "--time-file")}
    positional = [a for i, a in enumerate(args) if not a.startswith("--") and i not in skip]
    folder, predictions = positional[0], positional[1]
    label = positional[2] if len(positional) > 2 else "snapsort"
    preds = read_predictions([predictions])
    rows = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        stem = name[:-5]
        truth = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        if "layout_family" not in truth:
            continue
        pred = preds.get(stem, {})
        tp, fp, fn = item_counts(truth["items"], pred.get("items"))
        rows.append({"stem": stem, "tp": tp, "fp": fp, "fn": fn,
                     "total": amount(truth["total"]) == amount(pred.get("total")),
                     "date": truth["date"] == pred.get("date"),
                     "merchant": merchant_ok(truth["merchant"], pred.get("merchant")),
                     **{k: str(truth.get(k)) for k in by}})
    extra = ""
    run_json = option("--run-json")
    if run_json:
        stages = json.load(open(run_json))["stages"]
        wall = sum(s.get("p50_ms", 0) for s in stages.values()) / 1000
        cpu = sum(s.get("cpu_p50_ms", 0) for s in stages.values()) / 1000
        extra += f" Median s/receipt (sum of stage p50s): wall {wall:.2f}" + (f", CPU {cpu:.2f}" if cpu else "") + "."
    time_file = option("--time-file")
    if time_file:
        t = {}
        for line in open(time_file):
            parts = line.split()
            if len(parts) == 2 and parts[0] in ("real", "user", "sys"):
                t[parts[0]] = float(parts[1])
        if "user" in t:
            extra += f" CPU s/receipt (user+sys of the whole run / {len(rows)}): {(t['user'] + t.get('sys', 0)) / len(rows):.2f}."
    print(f"| {label} | receipts | item F1 | total | date | merchant |")
    print("|---|---|---|---|---|---|")
    print(row("all", rows))
    for key in by:
        for value in sorted({r[key] for r in rows}):
            print(row(f"{key} = {value}", [r for r in rows if r[key] == value]))
    if extra:
        print("\n" + extra.strip())


if __name__ == "__main__":
    main()
