#!/usr/bin/env python3
"""Fits the warp stage's `square_upright_degrees` (a bench tool, never the product): a crop whose
quad is square to the image's axes within that many degrees is a card drawn on a screen, which
shows it upright, so when no barcode says which way is up it is kept as detected without the
text readings (`text_orientation_height`) or the layout.

    python bench/speed/fit_square_orientation.py LOG=DIR ... [--degrees D]

LOG is the warp stage's `orientation_log` over the cards rendered in DIR (bench/names/orientation.sh
writes them; `--split train` renders only for the fit). Each tilt in the grid is scored with the
shipped order after it (bench/names/fit_orientation.py's text, then layout, with the shipped lead
and sure count): crops right, and crops whose readings it skips. The fitted tilt is the largest
that stays below the least tilted crop that lies upside down, makes the most training crops right
and skips the readings of the most: the smallest such tilt (a screen's card found square to the
pixels is square to them exactly); `--degrees` only reports the one given (held-out logs).
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "names"))
import fit_orientation as O  # noqa: E402

LEAD, SURE_AT = 4, 9
GRID = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0]


def tilt(quad):
    """Largest angle, in degrees, between a side and the nearer axis (Quad.isSquareToAxes)."""
    worst = 0.0
    for k in range(4):
        dx = abs(quad[(k + 1) % 4][0] - quad[k][0])
        dy = abs(quad[(k + 1) % 4][1] - quad[k][1])
        worst = max(worst, math.degrees(math.atan2(min(dx, dy), max(dx, dy))))
    return worst


def decide(e, degrees):
    if e["barcodeDown"] == e["barcodeUp"] and degrees is not None and tilt(e["quad"]) <= degrees:
        return False, e.get("text") is not None
    return O.decide(e, "text+layout", LEAD, SURE_AT)[0], False


def score(rows, degrees):
    right = sum(decide(e, degrees)[0] == turned for e, turned, _ in rows)
    skipped = sum(decide(e, degrees)[1] for e, _, _ in rows)
    return right, skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+")
    ap.add_argument("--degrees", type=float)
    args = ap.parse_args()
    rows = O.load(args.pairs)
    read = sum(1 for e, _, _ in rows if e.get("text") and e["barcodeUp"] == e["barcodeDown"])
    base, _ = score(rows, None)
    print(f"{len(rows)} crops, {sum(t for _, t, _ in rows)} upside down, {read} read for which way is up; "
          f"shipped order {base} right")
    if args.degrees is not None:
        right, skipped = score(rows, args.degrees)
        print(f"given square_upright_degrees {args.degrees}: {right} right, readings skipped on {skipped}")
        return
    least = min((tilt(e["quad"]) for e, turned, _ in rows if turned), default=90.0)
    scored = [(d, *score(rows, d)) for d in GRID if d < least]
    for d, right, skipped in scored:
        print(f"square within {d:4.2f}°: {right} right, readings skipped on {skipped}")
    best = max((right, skipped) for _, right, skipped in scored)
    fitted = min(d for d, right, skipped in scored if (right, skipped) == best)
    print(f"least tilted upside-down crop {least:.2f}°; fitted square_upright_degrees {fitted}")


if __name__ == "__main__":
    main()
