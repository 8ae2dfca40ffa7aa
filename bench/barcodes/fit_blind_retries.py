#!/usr/bin/env python3
"""Fits how much of the card crop's retry ladder runs while nothing at all has been read (issue #28
item 2: bound the ladder by what the first passes saw), on training traces only.

When the crop's first looks and the whole image's read nothing and the code gate lets the crop
through, the crop's other passes (other binarisers, squeezed, sharpened, stretched, then the
rescue) run to the end. On training renders most such crops hold no code, or one no pass reads,
and the ladder reads nothing at all. A pass that reads a code the stage will report reads
*something* (a validated read, confirmed or not) on its way; so the ladder can stop once it has
read `blind_retry_megapixels` (each copy's pixels times the decoders reading it, counted as the
rescue budget is, so records do not depend on the machine) without reading anything.

For every traced image whose crop retries ran with nothing read before them, this replays the
ladder: the megapixels read up to and including the first retry pass that read anything (a
*positive*: the bound must let that pass run), and the CPU of the passes a bound would skip on
images whose retries read nothing. The bound is the largest positive's megapixels times MARGIN, for
crops and codes not seen. It does so twice: in the traced order, and with the passes of a greedy
order first (the pass that read the most positives not yet covered, per typical megapixel, then the
next; the order a `retry_order` option would take). Prints the positives, the bound, and for a grid
of bounds the CPU each would skip and the positives it would cut.

The pass-by-pass greedy order was tried and not taken (it lost a held-out code that a deblurred pass
it did not name read); the order by families is the stage's default (bench/barcodes/SPEED.md,
branch speed27).

    fit_blind_retries.py IMAGES_DIR TRACE [IMAGES_DIR TRACE ...]

The traces are `SNAPSORT_BARCODE_TRACE=1` runs of the cards preset up to its barcode stage
(bench/barcodes/false/cards-codes.json) on rendered training cards, `--jobs 1`.
"""
import json
import os
import statistics
import sys
from collections import defaultdict

MARGIN = 2
FIRST_LOOKS = ("plain", "inverted", "try-harder")
NOT_PASSES = ("gate", "regions")
# Passes read by zbar as well as zxing (BarcodeScanner's ladder); every other retry is zxing's alone.
BOTH = ("enlarged", "reduced", "sharpened", "blurred-global", "region-deblurred", "region-sharpened",
        "enlarged1.5")


def readers(name):
    base = name.rstrip("0123456789") if name.startswith("region-") or name.startswith("bullseye") else name
    return 2 if base in BOTH else 1


def cost(p):
    return p["prepare_ms"] + p["zxing_ms"] + p["zbar_ms"]


def ladders(folder, path):
    """Per traced image: (item, has_code, exact, [(pass, megapixels, cpu_ms, read_anything)], cpu of
    every other pass) for images whose crop retries ran with nothing read before them; None else."""
    for line in open(path, errors="replace"):
        if not line.startswith('{"barcode_trace"'):
            continue
        trace = json.loads(line)["barcode_trace"]
        passes = trace["passes"]
        read_by = set()
        for candidate in trace["candidates"]:
            for read in candidate["reads"]:
                scan, name, _ = read.split("/")
                read_by.add((scan, name.split("+")[0]))
        retries = [i for i, p in enumerate(passes)
                   if p["scan"] == "crop" and p["pass"] not in FIRST_LOOKS + NOT_PASSES]
        if not retries:
            continue
        start = retries[0]
        earlier = [p for p in passes[:start] if p["pass"] not in NOT_PASSES]
        if any((p["scan"], p["pass"]) in read_by for p in earlier):
            continue  # something was read before the retries: the bound never applies
        stem = os.path.splitext(trace["item"])[0]
        truth = json.load(open(os.path.join(folder, stem + ".json")))
        ladder = [(passes[i]["pass"], passes[i]["pixels"] * readers(passes[i]["pass"]) / 1e6, cost(passes[i]),
                   ("crop", passes[i]["pass"]) in read_by) for i in retries]
        yield f'{os.path.basename(folder.rstrip("/"))}/{trace["item"]}', bool(truth.get("barcode")), ladder


def family(name):
    """A pass's family: the region passes of one preparation (region-deblurred1-3 read the same blind
    codes at three blur widths) are one; every other pass is its own."""
    return name.rstrip("0123456789") if name.startswith("region-") else name


def greedy_order(rows, typical, grouped=False):
    """Passes that read something on a positive crop, most positives not yet covered per megapixel
    first (the order a bound cuts least with); `grouped`: whole families, each at its members'
    summed typical megapixels and in their ladder order."""
    key = family if grouped else (lambda name: name)
    reads = {item: {key(name) for name, _, _, hit in ladder if hit} for item, _, ladder in rows}
    members = defaultdict(list)
    for name in typical:
        if name not in members[key(name)]:
            members[key(name)].append(name)
    cost = {k: sum(typical[n] for n in names) for k, names in members.items()}
    ladder_order = {}
    for _, _, ladder in rows:
        for index, (name, _, _, _) in enumerate(ladder):
            ladder_order.setdefault(name, index)
    uncovered = {item for item, names in reads.items() if names}
    order = []
    while uncovered:
        gains = defaultdict(int)
        for item in uncovered:
            for k in reads[item]:
                gains[k] += 1
        chosen = max(gains, key=lambda k: (gains[k] / cost[k], gains[k], k))
        order += sorted(members[chosen], key=lambda n: ladder_order.get(n, 99))
        uncovered = {item for item in uncovered if chosen not in reads[item]}
    return order


def reorder(ladder, order, typical):
    """The ladder in the new order: `order` first, the rest as traced; a pass of `order` that did not
    run on this image (its ladder stopped before it) counts with its typical megapixels and no read."""
    by_name = {step[0]: step for step in ladder}
    first = [by_name.get(name, (name, typical[name], 0.0, False)) for name in order]
    return first + [step for step in ladder if step[0] not in order]


def first_read(ladder):
    read = 0.0
    for name, mpx, _, hit in ladder:
        read += mpx
        if hit:
            return read, name
    return None


def skipped(ladder, bound):
    read = 0.0
    for index, (name, mpx, _, hit) in enumerate(ladder):
        if read + mpx > bound:
            return sum(step[2] for step in ladder[index:])
        if hit:
            return 0.0
        read += mpx
    return 0.0


def main(args):
    rows = [row for folder, path in zip(args[0::2], args[1::2]) for row in ladders(folder, path)]
    megapixels = defaultdict(list)
    for _, _, ladder in rows:
        for name, mpx, _, _ in ladder:
            megapixels[name].append(mpx)
    typical = {name: statistics.median(values) for name, values in megapixels.items()}
    total = sum(step[2] for _, _, ladder in rows for step in ladder)
    print(f"{len(rows)} crops whose retries ran with nothing read before them; their retries' CPU "
          f"{total:.0f} ms\n")
    order = greedy_order(rows, typical)
    grouped = greedy_order(rows, typical, grouped=True)
    for title, arrange in [("traced order", lambda ladder: ladder),
                           ("retry_order " + json.dumps(order), lambda ladder: reorder(ladder, order, typical)),
                           ("retry_order by families " + json.dumps(grouped),
                            lambda ladder: reorder(ladder, grouped, typical))]:
        positives = []
        for item, has_code, ladder in rows:
            hit = first_read(arrange(ladder))
            if hit:
                positives.append((hit[0], item, hit[1], has_code))
        largest = max((p[0] for p in positives), default=0)
        bound = MARGIN * largest
        print(f"## {title}\n")
        print("| image | has a code | first retry that read | megapixels read up to it |")
        print("|---|---|---|---:|")
        for read, item, name, has_code in sorted(positives):
            print(f"| {item} | {'yes' if has_code else 'no'} | {name} | {read:.2f} |")
        print(f"\nlargest positive {largest:.2f} Mpx; bound (x{MARGIN}) **{bound:.2f} Mpx**\n")
        print("| bound Mpx | crops cut short | retry CPU skipped ms | positives cut |")
        print("|---:|---:|---:|---|")
        for b in sorted({1, 2, 3, 4, 6, 8, round(bound, 2)}):
            ladders_cut = [skipped(arrange(ladder), b) for _, _, ladder in rows]
            lost = [f"{p[1]} ({p[2]})" for p in positives if p[0] > b]
            print(f"| {b:g} | {sum(1 for x in ladders_cut if x > 0)} | {sum(ladders_cut):.0f} | "
                  f"{', '.join(lost) or '-'} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
