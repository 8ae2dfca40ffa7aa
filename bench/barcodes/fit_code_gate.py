#!/usr/bin/env python3
"""Fits the barcode stage's code gate (issue #28 item 2) on training traces.

The stage's trace (`SNAPSORT_BARCODE_TRACE=1`) gives, for every thorough scan whose first looks
(plain, inverted) read nothing, the size of the largest group of code-like blocks over a grid of
block energies x direction coherences (`gate_features`), and for every code the passes that read
it. A scan is a *positive* when a confirmed code has a read from one of that scan's later passes
(the gate must let it through), a *negative* otherwise (its later passes are work for nothing).

For each grid cell the threshold is half the smallest positive's size (a margin of 2 for images
not seen), and the cell that stops the most negatives is chosen; ties go to the higher margin.
Only the card crop's scans are gated: a crop is a card warped to one size, so a count of blocks
means the same on every image, which it does not on whole images of any size. Run on training
data only (bench/barcodes/SPEED.md):

    fit_code_gate.py TRACE [TRACE...]
"""
import json
import sys

ENERGIES = [4, 6, 8, 12, 16, 24, 32, 48]
COHERENCES = [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
FIRST_LOOKS = ("plain", "inverted", "try-harder")
MARGIN = 2


def scans(paths):
    """(item, scan, features, positive) for every gated scan of every traced image."""
    for path in paths:
        for line in open(path, errors="replace"):
            if not line.startswith('{"barcode_trace"'):
                continue
            trace = json.loads(line)["barcode_trace"]
            confirmed = [c for c in trace["candidates"] if c["confirmation"] != "unconfirmed"]
            for scan, features in trace.get("gate_features", {}).items():
                later = any(
                    read.split("/")[0] == scan and read.split("/")[1].split("+")[0] not in FIRST_LOOKS
                    for c in confirmed for read in c["reads"])
                yield f'{path}:{trace["item"]}', scan, features, later


def main(paths):
    rows = [r for r in scans(paths) if r[1] == "crop"]
    positives = [r for r in rows if r[3]]
    negatives = [r for r in rows if not r[3]]
    print(f"{len(rows)} gated scans: {len(positives)} positive, {len(negatives)} negative")
    best = None
    for i, energy in enumerate(ENERGIES):
        for j, coherence in enumerate(COHERENCES):
            k = i * len(COHERENCES) + j
            smallest = min((r[2][k] for r in positives), default=0)
            threshold = smallest // MARGIN
            if threshold < 1:
                continue
            stopped = sum(1 for r in negatives if r[2][k] < threshold)
            largest_stopped = max((r[2][k] for r in negatives if r[2][k] < threshold), default=0)
            key = (stopped, smallest / max(1, largest_stopped))
            print(f"energy {energy:>2} coherence {coherence:.1f}: smallest positive {smallest:>4}, "
                  f"threshold {threshold:>4}, negatives stopped {stopped}/{len(negatives)}")
            if best is None or key > best[0]:
                best = (key, energy, coherence, threshold, smallest)
    if best:
        (stopped, _), energy, coherence, threshold, smallest = best
        print(f"\nchosen: code_gate_energy {energy}, code_gate_coherence {coherence}, "
              f"code_gate_blocks {threshold} (smallest positive {smallest}); stops {stopped} of "
              f"{len(negatives)} negatives")
        k = ENERGIES.index(energy) * len(COHERENCES) + COHERENCES.index(coherence)
        for r in sorted(positives, key=lambda r: r[2][k])[:5]:
            print(f"  smallest positives: {r[0]} {r[1]} {r[2][k]}")


if __name__ == "__main__":
    main(sys.argv[1:])
