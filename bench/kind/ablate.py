#!/usr/bin/env python3
"""Which features earn their place, judged on training data alone (a bench tool, never the
product): cross-validates fit_kind.py's model on the SROIE receipts by their shop folds and on the
generated training sets in five seeded folds, with all features or some dropped, and counts the
misses by group. With --fit-without, the photos of those training parts (e.g. cards-train-dense)
are left out of every fit but still scored in their folds: what a new training set adds, on the
same photos and folds. It never reads a held-out set.

    bench/.venv/bin/python bench/kind/ablate.py --evidence bench/work/kind [--drop FEATURE ...] \
        [--fit-without PART ...]
"""
import argparse
import math
import os
import random
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_kind as F  # noqa: E402


def matrix(rows, keep, degree):
    out = []
    for _, e, _, _ in rows:
        base = [F.features(e)[i] for i in keep]
        values = list(base)
        if degree == 2:
            values += [base[i] * base[j] for i in range(len(base)) for j in range(i, len(base))]
        out.append(values)
    return np.array(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evidence", required=True)
    ap.add_argument("--drop", nargs="*", default=[])
    ap.add_argument("--fit-without", nargs="*", default=[], metavar="PART")
    args = ap.parse_args()
    keep = [i for i, name in enumerate(F.FEATURES) if name not in args.drop]
    sets = F.load_sets(args.evidence)
    sroie, synthetic = sets["sroie"], sets["rcpt-train"] + sets["cards-train"]
    rng = random.Random(20261125)
    folds = {id(r): rng.randrange(5) for r in synthetic}
    for degree in (1, 2):
        for c in (0.1, 1.0, 10.0):
            wrong, loss = [], 0.0
            for k in range(5):
                train = [r for r in sroie if r[3] != k] + [
                    r for r in synthetic if folds[id(r)] != k and r[0].split("/")[0] not in args.fit_without]
                test = [r for r in sroie if r[3] == k] + [r for r in synthetic if folds[id(r)] == k]
                x = matrix(train, keep, degree)
                scaler = StandardScaler().fit(x)
                model = LogisticRegression(C=c, class_weight="balanced", max_iter=20000)
                model.fit(scaler.transform(x), [r[2] for r in train])
                p = model.predict_proba(scaler.transform(matrix(test, keep, degree)))[:, 1]
                wrong += [r for r, q in zip(test, p) if (q >= 0.5) != (r[2] == 1)]
                q = np.clip(p, 1e-6, 1 - 1e-6)
                loss -= sum(math.log(v if r[2] == 1 else 1 - v) for r, v in zip(test, q))
            real = [r for r in wrong if r[3] is not None]
            by_variant = {v: sum(1 for r in real if F.variant(r[0]) == v) for v in ("original", "margins", "half")}
            rendered = sum(1 for r in wrong if r[3] is None and r[2] == 1)
            cards = sum(1 for r in wrong if r[2] == 0)
            parts = {part: sum(1 for r in wrong if r[0].startswith(part + "/")) for part in args.fit_without}
            print(f"degree {degree}, C {c:4}: {len(wrong)} wrong of {len(sroie) + len(synthetic)}, log-loss {loss:.1f}: "
                  f"SROIE {by_variant}, "
                  f"rendered receipts {rendered}/{len(sets['rcpt-train'])}, cards {cards}/{len(sets['cards-train'])}"
                  + (f", of which in {parts}" if parts else ""))


if __name__ == "__main__":
    main()
