#!/usr/bin/env python3
"""Fits the card-name model (Sources/SnapsortStages/Resources/name-model.json): which of a card's
candidate lines is its name. A bench tool, never the product.

Input: candidate logs written by the ocr stage's `name_candidates_file` (bench/names/dump.json,
made by bench/names/fit.sh) over generated cards with ground truth (bench/gen/cards.py), each log
given as LOG=CARDS_DIR. Fit only on `--split train` sets; `--heldout` sets are scored, never fitted.

A candidate is positive when its page text, its Latin re-reading or its Cyrillic reading is the
printed name within a difflib ratio of 0.8 once case and diacritics are folded. The fit is a
logistic regression on standardised features (NameLineCandidates.featureNames, Swift computes
them). `threshold`, under which the best candidate is no name at all, makes the most training
cards right (`choose_threshold`); cards rendered without a name (bench/gen/cards.py --no-name,
truth name "") given in `--train` count as right when nothing is suggested. Without them (as
name-model.json is fitted: with them it lost 5 held-out exact names and the samples' Lidl Plus,
bench/names/README.md) it is the highest threshold that costs no training card its right name.
In `--heldout` they are scored: on how many a name is suggested.

    python bench/names/fit_names.py --train LOG=DIR ... [--heldout LOG=DIR ...] [--write MODEL] [--objective card]
        [--keep-cyrillic OLD_MODEL]
"""
import argparse
import difflib
import json
import os
import re
import unicodedata

import numpy as np
from scipy import optimize
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

FEATURES = [
    "height", "height_to_tallest", "height_rank", "top", "lines_above", "centre_offset", "width",
    "confidence", "weakest_word", "log_letters", "letter_share", "kept_share", "words", "capitals",
    "digits", "boilerplate", "programme", "given_name", "person_name", "lines", "strokes_only",
    "word_like", "coarse_reading", "line_gap", "image_line",
]


def norm(s):
    """score_cards.py's comparison: NFC, whitespace collapsed, case folded, diacritics kept."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", s or "")).strip().casefold()


def fold(s):
    s = unicodedata.normalize("NFKD", norm(s))
    s = "".join(c for c in s if not unicodedata.combining(c))
    return s.replace("ł", "l").replace("ø", "o").replace("ß", "ss")


def ratio(a, b):
    return difflib.SequenceMatcher(None, a, b).ratio()


def logged_with_truth(pairs):
    """(entry, truth, cards folder) for each line of each LOG=DIR pair: a JSON Lines log a run over
    rendered cards wrote (one photo a line, its `file` named) and the folder of those cards, whose
    truth files sit beside them."""
    for pair in pairs:
        log, cards = pair.split("=", 1)
        with open(log, encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
                stem = os.path.splitext(os.path.basename(entry["file"]))[0]
                with open(os.path.join(cards, stem + ".json"), encoding="utf-8") as t:
                    yield entry, json.load(t), cards


def load(pairs):
    """[(truth, candidates)] per photo."""
    return [(truth, kept(entry["candidates"])) for entry, truth, _ in logged_with_truth(pairs)]


STROKES = set("ilmnwvthu")


def is_noise(text):
    """NameLineCandidates.isNoise: under three letters, or up to four vertical strokes."""
    letters = [c for c in fold(text) if c.isalpha()]
    return len(letters) < 3 or (len(letters) <= 4 and all(c in STROKES for c in letters))


def kept(candidates):
    """The candidates NameLineCandidates keeps: not noise, not small print through and through.
    (Logs written before that filter hold them all.)"""
    return [c for c in candidates if not is_noise(c["text"]) and c["features"].get("boilerplate", 0) < 1]


def matrix(candidates):
    return np.array([[c["features"].get(n, 0.0) for n in FEATURES] for c in candidates], dtype=float)


def labels(truth, candidates):
    """1 for the name's line: its page text, or its Latin or Cyrillic reading on its own, is within
    0.8 of the name (the page reading, `eng`, reads no Cyrillic and misreads large type)."""
    want = fold(truth["name"])
    return np.array([any(ratio(fold(r["text"]), want) >= 0.8 for r in (c, c.get("reread"), c.get("cyrillic")) if r)
                     for c in candidates], dtype=int)


def text_of(candidate, how, cyrillic=None, reconcile=0.0):
    """The name text: `page`, `reconciled` (CardNameReconciler), or a number: the re-reading when
    its confidence is at least that, else the reconciled text (the page text when the re-reading's
    confidence is under `reconcile`: fit_reconcile.py's replay, not in the product); then the
    Cyrillic packs' reading when the `cyrillic` choice (CyrillicChoice) takes it."""
    reconciled = candidate.get("reconciled") or candidate["text"]
    if how == "page":
        return candidate["text"]
    if how == "reconciled":
        return reconciled
    if cyrillic is not None and candidate.get("cyrillic") and cyrillic.takes(candidate):
        return candidate["cyrillic"]["text"]
    reread = candidate.get("reread")
    if reread and reread["confidence"] >= how:
        return reread["text"]
    return reconciled if reconcile <= 0 or (reread and reread["confidence"] >= reconcile) else candidate["text"]


CYRILLIC_FEATURES = [
    "cyrillic_confidence", "latin_confidence", "confidence_margin", "page_confidence", "cyrillic_share",
    "cyrillic_letters", "latin_letters", "latin_diacritics",
]


def fold_letter(c):
    """IssuerText.fold of one letter."""
    d = "".join(x for x in unicodedata.normalize("NFKD", c.lower()) if unicodedata.category(x) not in ("Mn", "Mc", "Me"))
    return {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i"}.get(d, d)


def has_diacritics(text):
    """CardNameReconciler.hasDiacritics."""
    return any(c.isalpha() and not c.isascii() and fold_letter(c) != c.lower() for c in text)


def cyrillic_measurements(candidate):
    """CyrillicChoice.measurements of a logged candidate. Keep in step with the Swift."""
    cyrillic, latin = candidate["cyrillic"], candidate.get("reread")
    letters = [c for c in cyrillic["text"] if c.isalpha()]
    latin_text = latin["text"] if latin else ""
    latin_confidence = latin["confidence"] if latin else 0.0
    return {
        "cyrillic_confidence": cyrillic["confidence"] / 100,
        "latin_confidence": latin_confidence / 100,
        "confidence_margin": (cyrillic["confidence"] - latin_confidence) / 100,
        "page_confidence": candidate["features"].get("confidence", 0.0),
        "cyrillic_share": sum(0x400 <= ord(c) <= 0x4FF for c in letters) / max(1, len(letters)),
        "cyrillic_letters": float(np.log1p(len(letters))),
        "latin_letters": float(np.log1p(sum(c.isalpha() for c in latin_text))),
        "latin_diacritics": 1.0 if has_diacritics(latin_text) else 0.0,
    }


class CyrillicFit:
    """A fitted CyrillicChoice: logistic regression, and the probability from which it takes."""

    def __init__(self, rows, ys, C):
        x = np.array([[r[n] for n in CYRILLIC_FEATURES] for r in rows], dtype=float)
        self.scaler = StandardScaler().fit(x)
        self.model = LogisticRegression(C=C, max_iter=2000).fit(self.scaler.transform(x), ys)
        self.threshold = 1.01

    def probability(self, measurements):
        x = np.array([[measurements[n] for n in CYRILLIC_FEATURES]], dtype=float)
        return float(self.model.predict_proba(self.scaler.transform(x))[0, 1])

    def takes(self, candidate):
        return self.probability(cyrillic_measurements(candidate)) >= self.threshold

    def to_json(self, examples):
        return {
            "features": CYRILLIC_FEATURES,
            "mean": [float(v) for v in self.scaler.mean_],
            "scale": [float(v) for v in self.scaler.scale_],
            "weights": [float(v) for v in self.model.coef_[0]],
            "bias": float(self.model.intercept_[0]),
            "threshold": round(self.threshold, 6),
            "examples": [{"features": m, "probability": round(self.probability(m), 6)} for m in examples],
        }


def fit_cyrillic(photos, model, scaler, threshold, reread_confidence, C):
    """The Cyrillic choice, fitted on the training cards' lines that have a Cyrillic reading: each
    card's best candidate, and any line whose Latin or Cyrillic reading is within 0.8 of the name.
    Label: the Cyrillic reading is nearer the printed name than the Latin text. The threshold is
    the probability that gives the most exact names on those cards."""
    rows, ys = [], []
    for truth, candidates in photos:
        # A card without a name has no reading nearer to it: it says nothing about the choice.
        if not candidates or not truth["name"]:
            continue
        want = norm(truth["name"])
        p = model.predict_proba(scaler.transform(matrix(candidates)))[:, 1]
        for i, c in enumerate(candidates):
            if not c.get("cyrillic"):
                continue
            latin = ratio(norm(text_of(c, reread_confidence)), want)
            cyrillic = ratio(norm(c["cyrillic"]["text"]), want)
            if i == int(np.argmax(p)) or max(latin, cyrillic) >= 0.8:
                rows.append(cyrillic_measurements(c))
                ys.append(int(cyrillic > latin))
    if len(set(ys)) < 2:
        return None
    fit = CyrillicFit(rows, ys, C)
    best = (score(photos, model, scaler, threshold, reread_confidence, fit)[0], 1.01)
    for t in sorted({round(fit.probability(r), 3) for r in rows}):
        fit.threshold = t
        e = score(photos, model, scaler, threshold, reread_confidence, fit)[0]
        if e > best[0] or (e == best[0] and abs(t - 0.5) < abs(best[1] - 0.5)):
            best = (e, t)
    fit.threshold = best[1]
    print(f"cyrillic choice: {len(rows)} lines, {sum(ys)} nearer in Cyrillic; threshold {fit.threshold:.3f}")
    return fit


def choose_reread_confidence(photos, model, scaler, threshold):
    """The re-reading confidence above which its text beats the reconciled one on training cards
    (101: never)."""
    best = (score(photos, model, scaler, threshold, "reconciled")[0], 101.0)
    for c in range(0, 100, 5):
        e = score(photos, model, scaler, threshold, float(c))[0]
        if e > best[0]:
            best = (e, float(c))
    return best[1]


def picked(candidates, model, scaler, threshold):
    """The most probable candidate, or None when there is none or it is below the threshold."""
    if not candidates:
        return None
    p = model.predict_proba(scaler.transform(matrix(candidates)))[:, 1]
    i = int(np.argmax(p))
    return candidates[i] if p[i] >= threshold else None


def score(photos, model, scaler, threshold, how, cyrillic=None, reconcile=0.0):
    """exact, fuzzy, none, n over photos with the best candidate's text taken `how`."""
    exact = fuzzy = none = 0
    for truth, candidates in photos:
        best = picked(candidates, model, scaler, threshold)
        got = text_of(best, how, cyrillic, reconcile) if best else ""
        none += best is None
        exact += norm(got) == norm(truth["name"])
        fuzzy += ratio(norm(got), norm(truth["name"])) >= 0.8
    return exact, fuzzy, none, len(photos)


def candidate_exists(photos):
    """Cards with a candidate whose page text (`page`), or any of its readings (`read`), is within
    0.8 of the name, case and diacritics folded: what ranking can reach at best."""
    page = read = 0
    for truth, candidates in photos:
        want = fold(truth["name"])
        page += any(ratio(fold(c["text"]), want) >= 0.8 for c in candidates)
        read += any(ratio(fold(r["text"]), want) >= 0.8
                    for c in candidates for r in (c, c.get("reread"), c.get("cyrillic")) if r)
    return page, read


def choose_threshold(photos, model, scaler):
    """The "no name" threshold: the probability under which the best candidate is dropped, chosen
    to make the most training cards right: a named card whose best candidate is its name (by any
    reading, as `labels`) and kept, or a card without a name (bench/gen/cards.py --no-name) with
    nothing kept. Of equal counts the highest; with no card without a name that is the highest
    threshold that costs no card its right name."""
    tops = []
    for truth, candidates in photos:
        if not candidates:
            continue
        p = model.predict_proba(scaler.transform(matrix(candidates)))[:, 1]
        i = int(np.argmax(p))
        tops.append((p[i], bool(truth["name"]) and bool(labels(truth, [candidates[i]])[0]), not truth["name"]))
    # A threshold t keeps the tops with p >= t; the candidates are 0 and just above each top.
    best = (-1, 0.0)
    for t in sorted({0.0} | {float(np.nextafter(p, 1.0)) for p, _, _ in tops}):
        right = sum(r for p, r, _ in tops if p >= t) + sum(n for p, _, n in tops if p < t)
        if right >= best[0]:
            best = (right, t)
    return best[1]


def nameless(photos, model, scaler, threshold):
    """Cards without a name, and those of them the model still suggests a name for."""
    cards = [c for t, c in photos if not t["name"]]
    junk = 0
    for candidates in cards:
        if candidates:
            p = model.predict_proba(scaler.transform(matrix(candidates)))[:, 1]
            junk += p.max() >= threshold
    return len(cards), junk


class CardLogit:
    """A line model fitted card by card (a conditional logit): the weights make a card's name lines
    outscore its other lines, the loss of each card with a name line being -log of the name lines'
    share of the card's softmax, with sklearn's L2 penalty (|w|^2 / 2C). Only the ranking within a
    card is learnt, so a one-feature logistic regression over the scores, across all candidates,
    then scales them into probabilities: the weights and bias stay those of one logistic model,
    which NameModel evaluates as it is."""

    def __init__(self, cards, C):
        cards = [(z, y) for z, y in cards if y.any()]
        w = optimize.minimize(self.loss, np.zeros(cards[0][0].shape[1]), args=(cards, C), jac=True,
                              method="L-BFGS-B").x
        scores = np.concatenate([z @ w for z, _ in cards]).reshape(-1, 1)
        platt = LogisticRegression(C=1e6, max_iter=2000).fit(scores, np.concatenate([y for _, y in cards]))
        self.coef_ = (platt.coef_[0, 0] * w).reshape(1, -1)
        self.intercept_ = platt.intercept_

    @staticmethod
    def loss(w, cards, C):
        total, grad = float(w @ w) / (2 * C), w / C
        for z, y in cards:
            s = z @ w
            p_all = np.exp(s - s.max())
            p_all /= p_all.sum()
            p_pos = np.where(y == 1, p_all, 0.0)
            p_pos /= p_pos.sum()
            total -= np.log(np.sum(np.exp(s[y == 1] - s.max()))) - np.log(np.sum(np.exp(s - s.max())))
            grad = grad - z.T @ (p_pos - p_all)
        return total, grad

    def predict_proba(self, z):
        p = 1 / (1 + np.exp(-(z @ self.coef_[0] + self.intercept_[0])))
        return np.column_stack([1 - p, p])


def fit(train, C, objective="candidate"):
    """The line model (fitted per `candidate`, a logistic regression, or per `card`, CardLogit), its
    threshold, the re-reading confidence and the Cyrillic choice."""
    x = np.vstack([matrix(c) for _, c in train if c])
    y = np.concatenate([labels(t, c) for t, c in train if c])
    scaler = StandardScaler().fit(x)
    if objective == "card":
        model = CardLogit([(scaler.transform(matrix(c)), labels(t, c)) for t, c in train if c], C)
    else:
        model = LogisticRegression(C=C, max_iter=2000).fit(scaler.transform(x), y)
    threshold = choose_threshold(train, model, scaler)
    reread_confidence = choose_reread_confidence(train, model, scaler, threshold)
    cyrillic = fit_cyrillic(train, model, scaler, threshold, reread_confidence, C)
    return model, scaler, threshold, reread_confidence, cyrillic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--heldout", nargs="*", default=[])
    ap.add_argument("--write")
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--objective", choices=["candidate", "card"], default="candidate",
                    help="fit per candidate line or per card (CardLogit); bench/names/cv_names.py compares them")
    ap.add_argument("--keep-cyrillic", metavar="MODEL",
                    help="keep this name-model.json's Cyrillic choice (CyrillicChoice) instead of refitting it")
    args = ap.parse_args()
    train = load(args.train)
    model, scaler, threshold, reread_confidence, cyrillic = fit(train, args.C, args.objective)
    kept = None
    if args.keep_cyrillic:
        import cv_names  # noqa: E402 (it imports this file)

        with open(args.keep_cyrillic, encoding="utf-8") as f:
            kept = json.load(f)["cyrillic"]
        cyrillic = cv_names.Choice(kept)
    y = np.concatenate([labels(t, c) for t, c in train if c])
    print(f"train: {len(train)} cards, {len(y)} candidates, {y.sum()} positive; threshold {threshold:.3f}; "
          f"re-reading taken from confidence {reread_confidence:.0f}")
    for name, photos in [("train", train)] + [(p, load([p])) for p in args.heldout]:
        cards, junk = nameless(photos, model, scaler, threshold)
        if cards:
            print(f"{name}: a name suggested on {junk}/{cards} cards without a name")
        photos = [(t, c) for t, c in photos if t["name"]]
        page, read = candidate_exists(photos)
        print(f"{name}: a candidate within 0.8 exists on {page}/{len(photos)} (page text), "
              f"{read}/{len(photos)} (any reading)")
        for how, choice in [("page", None), ("reconciled", None), (reread_confidence, None),
                            (reread_confidence, cyrillic)]:
            e, f, n, total = score(photos, model, scaler, threshold, how, choice)
            label = f"{how}{' +cyrillic' if choice else ''}"
            print(f"{name} [{label}]: exact {e}/{total} ({100 * e / max(1, total):.1f} %), "
                  f"fuzzy≥0.8 {f}/{total} ({100 * f / max(1, total):.1f} %), none {n}")
    for name, w in sorted(zip(FEATURES, model.coef_[0]), key=lambda t: -abs(t[1])):
        print(f"  {name:18s} {w:+.3f}")
    if args.write:
        examples = []
        for truth, candidates in train[:4]:
            for c in candidates[:3]:
                p = model.predict_proba(scaler.transform(matrix([c])))[0, 1]
                examples.append({"features": {n: c["features"].get(n, 0.0) for n in FEATURES},
                                 "probability": round(float(p), 6)})
        out = {
            "version": 1,
            "features": FEATURES,
            "mean": [float(v) for v in scaler.mean_],
            "scale": [float(v) for v in scaler.scale_],
            "weights": [float(v) for v in model.coef_[0]],
            "bias": float(model.intercept_[0]),
            "threshold": round(threshold, 6),
            "reread_confidence": reread_confidence,
            "training": {
                "fitted_by": "bench/names/fit_names.py",
                "data": ", ".join(p.split("=", 1)[1] for p in args.train),
                "cards": str(len(train)),
                "candidates": str(len(y)),
                "objective": args.objective,
                "C": str(args.C),
                **({"cyrillic": "kept from " + os.path.basename(args.keep_cyrillic) + ", not refitted"} if kept else {}),
            },
            "examples": examples,
        }
        if kept:
            out["cyrillic"] = kept
        elif cyrillic is not None:
            logged = [cyrillic_measurements(c) for _, cs in train for c in cs if c.get("cyrillic")]
            out["cyrillic"] = cyrillic.to_json(logged[:6])
        with open(args.write, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
