#!/usr/bin/env python3
"""Re-reads page lines read as junk over a missed name's printed line (a bench tool, never the
product; `--split train` renders only): each line under confidence 75 of a cards-preset run's
records whose box lies on the name's line (half its height, half its width) and whose text is not
within 0.8 of it, cut from the edge-kept flattened crop (line_prep.flattened_edges) by its page box
and by the box NameLineBox rebuilds from its ink (line_box.fitted), scaled to 48 px and read with
`tesseract -l Latin --psm 7`. Card crops only (a pass's crop is not in card units).

    python bench/names/junk_lines.py GEN_DIR RUN_OUT   # RUN_OUT holds records.jsonl and cards/
"""
import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_names as F  # noqa: E402
import line_box as B  # noqa: E402
import line_prep as P  # noqa: E402


def junk_line(truth, record):
    """(printed line text, page line) of the first junk page line over one of the name's lines."""
    for printed in truth["name_lines"]:
        if not printed.get("card_box"):
            continue
        x0, y0, x1, y1 = printed["card_box"]
        for line in record["card"]["text"]:
            bx, by, bw, bh = line["box"]
            vertical, horizontal = min(by + bh, y1) - max(by, y0), min(bx + bw, x1) - max(bx, x0)
            if (vertical > 0.5 * (y1 - y0) and horizontal > 0.5 * (x1 - x0) and line["confidence"] < 75
                    and F.ratio(F.fold(line["text"]), F.fold(printed["text"])) < 0.8):
                return printed["text"], line
    return None


def main():
    gen, out = sys.argv[1], sys.argv[2]
    items = []
    with open(os.path.join(out, "records.jsonl"), encoding="utf-8") as f:
        for row in f:
            record = json.loads(row)
            with open(os.path.join(gen, record["file"].rsplit(".", 1)[0] + ".json"), encoding="utf-8") as t:
                truth = json.load(t)
            got = ((record["card"] or {}).get("name") or {}).get("suggested") or ""
            if not truth["name"] or not truth.get("quad") or F.norm(got) == F.norm(truth["name"]):
                continue
            found = junk_line(truth, record)
            if found:
                gray = np.array(Image.open(os.path.join(out, record["card"]["crop"])).convert("L"))
                page = P.flattened_edges(gray)
                items.append((record["file"], found, page, B.fitted(page, found[1]["box"], **B.DEFAULTS)))
    fitted = P.read_all([P.cut(page, box, 48) for _, _, page, box in items], "Latin")
    as_is = P.read_all([P.cut(page, found[1]["box"], 48) for _, found, page, _ in items], "Latin")
    right = [0, 0]
    for (file, (printed, line), _, box), a, b in zip(items, fitted, as_is):
        ok = [F.ratio(F.fold(text), F.fold(printed)) >= 0.8 for text in (a, b)]
        right = [r + o for r, o in zip(right, ok)]
        print(f"{file} {printed!r}: page {line['text']!r} {line['box']} -> rebuilt {a!r} {ok[0]}, as is {b!r} {ok[1]}")
    print(f"{len(items)} junk lines over a missed name; within 0.8 of the printed line: rebuilt box {right[0]}, "
          f"page box {right[1]}")


if __name__ == "__main__":
    main()
