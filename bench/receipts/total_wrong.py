#!/usr/bin/env python3
"""Training receipts whose total is WRONG (not missing): what was chosen instead, and why (a bench
tool, never the product; issue #23).

    total_wrong.py [--sroie EXTRACTED.jsonl EVIDENCE.jsonl] [--true EXTRACTED.jsonl EVIDENCE.jsonl]
                   [--rendered DIR EXTRACTED.jsonl EVIDENCE.jsonl] ...
                   [--model total-model.json] [--data ../shared/data/receipts] [--show]

EXTRACTED: `snapsort receipt-text --records RECORDS.jsonl --json` (the extractor on a run's OCR
rows; `--true`: `snapsort receipt-text DIR --json` on sroie_dev's own lines); EVIDENCE: the same
with `--total-candidates`. `--rendered DIR` takes the truth from DIR/NAME.json (train renders
only). SROIE counts only folds 0-3 of folds.json: fold 4 and the German 14 are never read here.

Each wrong total is described by
  answer   `candidate` when the labelled total is among the candidates, else `not read`;
  by       `rules` when the extractor's rules chose it (the evidence's `rules`), else `model` (the
           total model overrode the rules; when EXTRACTED is a run's records.jsonl itself, also
           a total another reading or the total line's re-reading gave, which the rows'
           evidence cannot tell apart);
  role     what the chosen amount is on the page, from its own features and its relation to the
           answer: subtotal (its row is a subtotal, or it equals the subtotal), before tax
           (answer - chosen is a tax amount on the page), cash (a cash/tendered/payment row
           larger than the answer), change, rounding (within 10 cents of the answer), item (the
           answer is larger and the chosen amount has no total label), tax, larger other,
           smaller other;
  push     with --model, the features that most favour the chosen over the answer in the
           model's logit (weight times standardised difference).
Printed: counts by set of answer x by x role, then (`--show`) one line per receipt.
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import amount, stem  # noqa: E402


def load(path):
    return {stem(json.loads(line)["file"]): json.loads(line) for line in open(path, encoding="utf-8")}


def role(chosen, answer, cands):
    """What the chosen amount is, see the docstring."""
    f = next((c["features"] for c in cands if amount(c["value"]) == chosen), {})
    taxes = {amount(c["value"]) for c in cands if c["features"].get("tax")}
    if answer is not None and abs(chosen - answer) <= 10:
        return "rounding"
    if f.get("subtotal") or f.get("equals_subtotal"):
        return "subtotal"
    if answer is not None and answer - chosen in taxes:
        return "before tax"
    if f.get("change"):
        return "change"
    if (f.get("cash") or f.get("payment") or f.get("card")) and answer is not None and chosen > answer:
        return "cash"
    if f.get("tax"):
        return "tax"
    if answer is not None and chosen < answer and not f.get("total_label"):
        return "item"
    return "larger other" if answer is None or chosen > answer else "smaller other"


def push(model, chosen_f, answer_f, n=3):
    out = []
    for name, mu, sc, w in zip(model["features"], model["mean"], model["scale"], model["weights"]):
        d = (chosen_f.get(name, 0) - answer_f.get(name, 0)) / (sc or 1)
        out.append((w * d, name))
    out.sort(reverse=True)
    return [f"{name} {v:+.2f}" for v, name in out[:n] if v > 0]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    data = os.path.join(here, "..", "..", "..", "shared", "data", "receipts")
    sets, model, show, i = [], None, False, 0
    while i < len(argv):
        a = argv[i]
        if a in ("--sroie", "--true"):
            sets.append((a[2:], None, argv[i + 1], argv[i + 2]))
            i += 3
        elif a == "--rendered":
            sets.append((os.path.basename(argv[i + 1].rstrip("/")), argv[i + 1], argv[i + 2], argv[i + 3]))
            i += 4
        elif a == "--model":
            model = json.load(open(argv[i + 1], encoding="utf-8"))
            i += 2
        elif a == "--data":
            data = argv[i + 1]
            i += 2
        elif a == "--show":
            show, i = True, i + 1
        else:
            sys.exit(f"unknown argument {a}")
    split = json.load(open(os.path.join(here, "folds.json"), encoding="utf-8"))["sroie"]
    for name, folder, ex_path, ev_path in sets:
        extracted, evidence = load(ex_path), load(ev_path)
        counts, scored, right, missing, lines = collections.Counter(), 0, 0, 0, []
        for s, rec in sorted(extracted.items()):
            if folder is None:
                info = split.get(s)
                if info is None or info["fold"] == 4:
                    continue
                if name == "true" and info["folder"] != "sroie_dev":
                    continue
                truth_path = os.path.join(data, info["folder"] if name == "sroie" else "sroie_dev", s + ".json")
            else:
                truth_path = os.path.join(folder, s + ".json")
            if not os.path.exists(truth_path):
                continue
            want = amount(json.load(open(truth_path, encoding="utf-8")).get("total"))
            if want is None:
                continue
            scored += 1
            got = amount((rec.get("receipt") or {}).get("total"))
            if got == want:
                right += 1
                continue
            if got is None:
                missing += 1
                continue
            ev = evidence.get(s, {})
            cands = ev.get("candidates", [])
            answer_in = any(amount(c["value"]) == want for c in cands)
            by = "rules" if amount(ev.get("rules")) == got else "model"
            r = role(got, want, cands)
            counts[("candidate" if answer_in else "not read", by, r)] += 1
            if show:
                rows = (rec.get("receipt") or {}).get("text") or []
                line = next((c["line"] for c in cands if amount(c["value"]) == got), None)
                aline = next((c["line"] for c in cands if amount(c["value"]) == want), None)
                text = lambda k: rows[k]["text"] if k is not None and k < len(rows) else "-"  # noqa: E731
                why = ""
                if model and answer_in:
                    cf = next(c["features"] for c in cands if amount(c["value"]) == got) if line is not None else {}
                    af = next(c["features"] for c in cands if amount(c["value"]) == want)
                    why = " push: " + ", ".join(push(model, cf, af))
                lines.append(f"  {s}: want {want / 100:.2f} got {got / 100:.2f} [{'cand' if answer_in else 'unread'}, {by}, {r}]"
                             f" chosen row `{text(line)}` answer row `{text(aline)}`{why}")
        print(f"== {name}: {right}/{scored} right, {missing} no total, {scored - right - missing} wrong")
        for k, v in counts.most_common():
            print(f"   {v:3d}  {' / '.join(k)}")
        for line in lines:
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
