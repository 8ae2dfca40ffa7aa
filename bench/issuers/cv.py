#!/usr/bin/env python3
"""Cross-validates `snapsort train-issuers` on the records of a training split only.

Choosing the trainer's settings by their score on the test split would fit them to that split;
this measures a training procedure inside the training data instead. Each of K folds holds out
one K-th of the issuers entirely (removed from the catalog: their cards must come back unknown,
like bench/issuers/held_out.txt) and one K-th of the other issuers' files (their test cards);
the model is trained on the rest with the same command as eval.sh and evaluated with
`eval-issuers`. Prints the pooled top-1, top-3, unknown recall and precision, and the
per-fold thresholds, as JSON.

RECORDS is a records.jsonl from `snapsort run` over a labelled folder (DIR/<issuer-id>/...).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def fraction(text):
    return int(hashlib.sha1(text.encode()).hexdigest()[:13], 16) / 16**13


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--snapsort", required=True)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", default="cv", help="salt of the fold hashes (another salt, other folds)")
    parser.add_argument("--verbose", action="store_true", help="print every wrong answer to stderr")
    parser.add_argument("--train-option", action="append", default=[], metavar="OPTION",
                        help="passed on to train-issuers (repeat it), e.g. --train-option=--target-unknown-recall=0.9")
    args = parser.parse_args()
    with open(args.records, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    with open(args.catalog, encoding="utf-8") as f:
        catalog = json.load(f)

    def issuer_of(line):
        return json.loads(line)["file"].split("/")[0]

    def fold_of(text):
        return int(fraction(f"{args.seed}:{text}") * args.folds)

    totals = {"known": 0, "top1": 0, "top3": 0, "unknown": 0, "correct_unknown": 0, "predicted_unknown": 0}
    thresholds = []
    pooled = []
    with tempfile.TemporaryDirectory() as work:
        for k in range(args.folds):
            held = {issuer["id"] for issuer in catalog["issuers"] if fold_of("issuer:" + issuer["id"]) == k}
            train, test = [], []
            for line in lines:
                file = json.loads(line)["file"]
                if issuer_of(line) in held or fold_of("file:" + file) == k:
                    test.append(line)
                else:
                    train.append(line)
            known = dict(catalog)
            known["issuers"] = [issuer for issuer in catalog["issuers"] if issuer["id"] not in held]
            paths = {name: os.path.join(work, f"{name}-{k}") for name in ("train", "test", "catalog", "model", "eval")}
            for name, chosen in (("train", train), ("test", test)):
                with open(paths[name], "w", encoding="utf-8") as f:
                    f.writelines(chosen)
            with open(paths["catalog"], "w", encoding="utf-8") as f:
                json.dump(known, f)
            subprocess.run(
                [args.snapsort, "train-issuers", "--records", paths["train"], "--catalog", paths["catalog"],
                 "--hold-out", "0", "--test-fraction", "0", "--jobs", "2", "-o", paths["model"]] + args.train_option,
                check=True, capture_output=True)
            subprocess.run(
                [args.snapsort, "eval-issuers", "--records", paths["test"], "--model", paths["model"],
                 "--catalog", paths["catalog"], "--jobs", "2", "--json", paths["eval"]],
                check=True, capture_output=True)
            with open(paths["eval"], encoding="utf-8") as f:
                result = json.load(f)
            thresholds.append(result["threshold"])
            for card in result["cards"]:
                # The top candidate's probability, whatever the threshold made of it.
                p = card["confidence"] if card["answer"] is not None else 1 - card["confidence"]
                pooled.append((card["truth"], card["top3"][:1] == [card["truth"]], p))
                if card["truth"] is None:
                    totals["unknown"] += 1
                    totals["correct_unknown"] += card["answer"] is None
                else:
                    totals["known"] += 1
                    totals["top1"] += card["answer"] == card["truth"]
                    totals["top3"] += card["truth"] in card["top3"]
                totals["predicted_unknown"] += card["answer"] is None
                if args.verbose and card["answer"] != card["truth"]:
                    print(f"fold {k}: {card['source']}: {card['truth']} -> {card['answer']} "
                          f"({card['confidence']})", file=sys.stderr)
    summary = {
        "folds": args.folds, "seed": args.seed, "train_options": args.train_option, "thresholds": thresholds,
        "known": totals["known"], "unknown": totals["unknown"],
        "top1": totals["top1"] / max(1, totals["known"]), "top3": totals["top3"] / max(1, totals["known"]),
        "unknown_recall": totals["correct_unknown"] / max(1, totals["unknown"]),
        "unknown_precision": totals["correct_unknown"] / max(1, totals["predicted_unknown"]),
    }
    # How well the scores separate, apart from where each fold's calibration put its threshold: the
    # known top-1 at the one pooled threshold that reaches each unknown recall.
    unknown_ps = sorted(p for truth, _, p in pooled if truth is None)
    known = [(correct, p) for truth, correct, p in pooled if truth is not None]
    summary["pooled_threshold"] = {}
    for recall in (0.90, 0.93, 0.95):
        # The lowest threshold under which `recall` of the unknown cards' top probabilities fall.
        t = unknown_ps[min(len(unknown_ps) - 1, int(recall * len(unknown_ps) + 0.999999) - 1)] + 1e-9
        top1 = sum(correct and p >= t for correct, p in known) / max(1, len(known))
        summary["pooled_threshold"][f"unknown_recall_{recall:.2f}"] = {"threshold": round(t, 3), "top1": top1}
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
