"""Scores the page-mask probe (bench/speed/page_mask_probe.patch, issue #28 item 3: read with
tesseract only the regions TextLineFinder finds): a binary built with the patch, run twice on the
same rendered cards with the cards preset, `SNAPSORT_PAGE_MASK=off` and another mode, stderr kept.
The probe writes, for each card crop, the first page reading's thread CPU, the finder's CPU and the
share of the page the mask keeps; every mode but `off` reads the page with everything else painted
the page's median grey. Modes: `on` keeps the finder's line boxes widened by half their height,
`on1` by their height; `band` keeps the full-width rows of those boxes widened by half their height
(nothing in a kept row is cut at a box's side), `band1` by their height (speed28b).

    python bench/speed/page_mask_probe.py IMAGES OFF_RUN OFF_STDERR ON_RUN ON_STDERR

Prints the CPU figures, score_cards.py's names, issuer, payment and codes for both runs, how many
suggested names changed, and which payment cards were lost or gained."""
import json
import os
import subprocess
import sys

images, off_run, off_log, on_run, on_log = sys.argv[1:6]


def cpu(log):
    rows = [line.rstrip("\n").split("\t") for line in open(log, errors="replace") if line.startswith("PAGEMASK\t")]
    rows = [r for r in rows if len(r) >= 5 and r[3] and r[4]]  # card crops only
    n = max(1, len(rows))
    return (len(rows), sum(float(r[2]) for r in rows) / n, sum(float(r[3]) for r in rows) / n,
            sum(float(r[4]) for r in rows) / n)


def scores(run):
    out = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "..", "gen", "score_cards.py"),
                          images, run + "/records.jsonl"], capture_output=True, text=True).stdout.splitlines()
    head = [c.strip() for c in out[4].split("|")]
    row = [c.strip() for c in out[6].split("|")]
    return {k: v for k, v in zip(head, row) if k in ("name exact", "name ≥0.8", "issuer", "issuer false", "payment", "code exact")}


def suggested(run):
    names = {}
    for line in open(run + "/records.jsonl"):
        r = json.loads(line)
        names[r["file"]] = (((r.get("card") or {}).get("name") or {}).get("suggested"),
                            (r.get("card") or {}).get("payment"))
    return names


for label, run, log in (("off", off_run, off_log), ("on", on_run, on_log)):
    n, page, finder, kept = cpu(log)
    print(f"{label}: {n} crops, page reading {page:.1f} ms/crop, finder {finder:.1f} ms/crop, boxes keep {kept:.0%}; "
          + ", ".join(f"{k} {v}" for k, v in scores(run).items()))
a, b = suggested(off_run), suggested(on_run)
print(f"suggested names changed {sum(1 for k in a if a[k][0] != b.get(k, (None,))[0])}/{len(a)}, "
      f"payment changed {sum(1 for k in a if a[k][1] != b.get(k, (None, None))[1])}")
changed = [(k, "lost" if a[k][1] else "gained") for k in a if a[k][1] != b.get(k, (None, None))[1]]
print("payment " + (", ".join(f"{what} {k}" for k, what in changed) or "unchanged"))
