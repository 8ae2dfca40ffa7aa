#!/usr/bin/env python3
"""Refits only the Cyrillic choice (CyrillicChoice) of a name-model.json on new candidate logs,
keeping its line model, "no name" threshold and re-reading confidence as they are. A bench tool,
never the product. For when the readings change (e.g. the re-read line's box, `name_line_box`)
but the candidates' features do not: fit_names.py would refit the line model too.

    python bench/names/fit_cyrillic.py --model name-model.json --train LOG=DIR ... [--write MODEL]

Prints, per training log, the exact and ≥0.8 names (fit_names.score, the best candidate's text)
with the model's Cyrillic choice and with the refit one. Fit only on `--split train` logs.
"""
import argparse
import json

import cv_names
import fit_names as F


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="the name-model.json whose line model is kept")
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--write")
    args = ap.parse_args()
    shipped = cv_names.Shipped(args.model)
    train = F.load(args.train)
    refit = F.fit_cyrillic(train, shipped, shipped, shipped.threshold, shipped.reread, args.C)
    for name, photos in [("all", train)] + [(p.split("=", 1)[1], F.load([p])) for p in args.train]:
        photos = [(t, c) for t, c in photos if t["name"]]
        for label, choice in [("shipped", shipped.cyrillic), ("refit", refit)]:
            e, z, n, total = F.score(photos, shipped, shipped, shipped.threshold, shipped.reread, choice)
            print(f"{name} [{label} cyrillic]: exact {e}/{total}, ≥0.8 {z}/{total}, none {n}")
    if args.write and refit is not None:
        with open(args.model, encoding="utf-8") as f:
            out = json.load(f)
        logged = [F.cyrillic_measurements(c) for _, cs in train for c in cs if c.get("cyrillic")]
        out["cyrillic"] = refit.to_json(logged[:6])
        data = ", ".join(p.split("=", 1)[1] for p in args.train)
        out["training"]["cyrillic"] = f"bench/names/fit_cyrillic.py, C {args.C}, on {data}"
        with open(args.write, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
