#!/usr/bin/env python3
"""Where a receipts run's CPU goes, by pipeline part: perf samples attributed by their call stacks
(a bench tool, never the product; issues #23 and #28).

    OMP_THREAD_LIMIT=1 perf record -F 100 --call-graph dwarf,16384 -o run.data \\
        snapsort run DIR --preset receipts --jobs 1 --out OUT --fresh --quiet
    perf script -i run.data -F tid,time,ip,sym > run.txt
    python3 bench/receipts/perf_split.py run.txt [--inside]

Parts: receipt_warp's steps; in the receipt stage the page's reading and the raw scan's second
reading (told apart by the call site of `read` in `process`: the first one in the code is the
page's), each split into its page OCR (`readPage`'s tesseract calls, grey and binarised),
orientation check, date block reread, total line rereads, logo rereads and extraction; Sauvola
binarisation; tesseract's inverted retry of unsure lines (the second `Series::Forward` inside
`LSTMRecognizer::RecognizeLine`, after `pixInvert`), counted again on its own line. Shares are of
all samples, process start and model loads included. `--inside` also splits the page OCR by
tesseract's phases (`TESSERACT_PHASES`).
"""
import collections
import sys

WARP_STEPS = [("deskewedProbe", "deskew probe"), ("printRunsDown", "turned check"),
              ("paperQuad", "paper outline"), ("textScale", "text scale"),
              ("clearDarkBorders", "dark borders"), ("evenlyLit", "even lighting"),
              ("stretched", "contrast stretch"), ("flatten", "flatten"), ("grayscale", "grey")]
# Inside tesseract's Recognize, by phase (the first that matches a sample's stack). The line
# images: tesseract 5.3 stores each line it recognises as a PNG in memory (ImageData::SetPixInternal,
# pixWriteMemPng) and decodes it again, so that cost grows with the page's pixels, as layout does;
# the network's does not (each line is scaled to the model's input height).
TESSERACT_PHASES = [("RecognizeLine", "LSTM recognition of lines"),
                    ("ImageData::SetPixInternal", "line images stored as PNG"),
                    ("FindAndRemoveLines", "layout: ruling-line removal (morphology)"),
                    ("SetupPageSegAndDetectOrientation", "layout: components, images"),
                    ("FindBlocks", "layout: blocks and partitions"),
                    ("SegmentPage", "layout: rows and words"),
                    ("Threshold", "thresholding"),
                    ("RecogAllWordsPassN", "word recognition, other")]
REREADS = [("uprightTurn", "orientation check"), ("recheckDate", "date block reread"),
           ("rereadTotal", "total line rereads"), ("rereadLogo", "logo rereads")]


def stacks(path):
    stack = None
    for line in open(path, errors="replace"):
        if not line.strip():
            if stack:
                yield stack
            stack = None
        elif line[0] in "\t " and stack is not None:
            parts = line.split(None, 1)
            if len(parts) == 2:
                stack.append((parts[0], parts[1].strip()))
        else:
            stack = []
    if stack:
        yield stack


def has(stack, name):
    return any(name in symbol for _, symbol in stack)


def read_site(stack):
    """The address in `process` that called `read`, or None."""
    for (_, symbol), (caller_ip, caller) in zip(stack, stack[1:]):
        if "ReceiptStageC4read" in symbol and "ReceiptStageC7process" in caller:
            return int(caller_ip, 16)
    return None


def part(stack, page_site):
    if has(stack, "ReceiptWarpStageC7process"):
        return "receipt_warp: " + next((n for key, n in WARP_STEPS if has(stack, key)), "other")
    if not has(stack, "ReceiptStageC7process"):
        return "load, start, models, other"
    site = read_site(stack)
    if site is None:
        return "receipt: outside the readings"
    reading = "page reading" if site == page_site else "raw reading"
    if has(stack, "sauvola") and not has(stack, "lineCrops"):
        return "binarisation (Sauvola)"
    for key, name in REREADS:
        if has(stack, key):
            return f"{reading}: {name}"
    if has(stack, "readPage") and has(stack, "TesseractEngineC9recognize"):
        return f"{reading}: page OCR"
    return f"{reading}: extraction and other"


def main():
    samples = list(stacks(sys.argv[1]))
    sites = sorted({s for s in map(read_site, samples) if s is not None})
    parts = collections.Counter(part(stack, sites[0] if sites else None) for stack in samples)
    total = len(samples)
    print(f"| part | share of {total} samples |\n|---|---|")
    for name, count in parts.most_common():
        print(f"| {name} | {100 * count / total:.1f} % |")
    # The inverted retry runs the network from the same call site after pixInvert; perf's stack of
    # a sample inside it holds the second Forward's return address, so it is counted by address.
    forwards = collections.Counter()
    for stack in samples:
        for (_, symbol), (caller_ip, caller) in zip(stack, stack[1:]):
            if "Series::Forward" in symbol and "LSTMRecognizer::RecognizeLine" in caller:
                forwards[caller_ip] += 1
                break
    if len(forwards) >= 2:
        retry = min(forwards.values())
        print(f"| (of which tesseract's inverted retry of unsure lines) | {100 * retry / total:.1f} % |")
    if "--inside" in sys.argv:
        print_tesseract_phases(samples)


def print_tesseract_phases(samples):
    """The page OCR's samples (both readings) by tesseract phase."""
    ocr = [s for s in samples if has(s, "readPage") and has(s, "TesseractEngineC9recognize")]
    phases = collections.Counter(
        next((name for key, name in TESSERACT_PHASES if has(stack, key)), "other") for stack in ocr)
    print(f"\n| page OCR, inside tesseract | share of {len(ocr)} samples |\n|---|---|")
    for name, count in phases.most_common():
        print(f"| {name} | {100 * count / max(1, len(ocr)):.1f} % |")


if __name__ == "__main__":
    main()
