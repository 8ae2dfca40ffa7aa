#!/usr/bin/env python3
"""Scores snapsort's records.jsonl against bench/gen ground truth (NAME.json beside each image).

    python3 bench/gen/score_cards.py GEN_DIR OUT/records.jsonl [--by kind,app_family,...] [--details FILE]

Per group (all, kind, app family by default; any ground-truth key with --by):
  name exact     suggested name == printed name (case-insensitive, whitespace collapsed, diacritics kept)
  name ≥0.8      difflib ratio of the same normalised strings ≥ 0.8
  quad ≥.90/.95  IoU of the found quad with the ID-1 rectangle (images whose truth has a quad)
  corners        of quads with IoU ≥ 0.5: the first corner is the card's own top-left and the order is clockwise
  pass crop      a pass with no card rectangle (truth quad null, pass_box): the found quad has IoU ≥ 0.9
                 with the whole pass (issue #25 item 2: the whole pass is the crop); no quad counts as a miss
  pass marked    of passes, the record says so (card.shape "pass"); "false pass": images with a card
                 rectangle (a card's screenshot or photo) whose record says "pass"
  colour         CIEDE2000 < 10 between the truth's top colour and the record's first background
                 (card.backgrounds[0], else colors[0]); "colour any": any record colour
  code exact     the truth's code value is among the record's barcodes (UPC-A also as its EAN-13 form)
  false codes    images with a read whose value is neither the truth's nor another visible card's
  other code     images with a read of another card's code (carousel neighbour, stacked pass)
  issuer         card.issuer.id == truth issuer_id (catalog cards only); issuer false: a catalog id
                 given to a card whose brand is not in the catalog
  payment        network and last four digits (payment cards only)
"""
import argparse
import difflib
import json
import math
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cards"))
from eval_cards import ciede2000, lab  # noqa: E402


# --- geometry (exact IoU of convex quads) ---------------------------------------------------------

def area(poly):
    return 0.5 * sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1] for i in range(len(poly)))


def ccw(poly):
    return poly if area(poly) > 0 else poly[::-1]


def clip(subject, clipper):
    """Sutherland–Hodgman: subject ∩ convex clipper (both counter-clockwise in math axes)."""
    out = subject
    for i in range(len(clipper)):
        a, b = clipper[i], clipper[(i + 1) % len(clipper)]
        inside = lambda p: (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
        def cross(p, q):
            x1, y1, x2, y2 = p[0], p[1], q[0], q[1]
            x3, y3, x4, y4 = a[0], a[1], b[0], b[1]
            den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
            if abs(den) < 1e-12:
                return q
            t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
            return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))
        inp, out = out, []
        if not inp:
            break
        prev = inp[-1]
        for cur in inp:
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
            prev = cur
    return out


def iou(a, b):
    a, b = ccw([tuple(p) for p in a]), ccw([tuple(p) for p in b])
    inter = clip(a, b)
    ia = abs(area(inter)) if len(inter) >= 3 else 0.0
    union = abs(area(a)) + abs(area(b)) - ia
    return ia / union if union > 0 else 0.0


def order_ok(truth, found):
    """The first corner is the nearest to the truth's top-left and the winding matches."""
    diag = math.dist(truth[0], truth[2])
    best = min(range(4), key=lambda i: math.dist(found[i], truth[0]))
    same_winding = (area(truth) > 0) == (area(found) > 0)
    return best == 0 and same_winding and math.dist(found[0], truth[0]) < 0.15 * diag


# --- text, codes ----------------------------------------------------------------------------------

def norm(s):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", s or "")).strip().casefold()


def code_forms(sym, value):
    forms = {value}
    if sym == "upca":
        forms.add("0" + value)
    if sym == "ean13" and value.startswith("0"):
        forms.add(value[1:])
    return forms


# --- scoring --------------------------------------------------------------------------------------

def score_one(t, r):
    card = (r or {}).get("card") or {}
    ok = (r or {}).get("status") == "ok"
    s = {"ok": ok}
    name = ((card.get("name") or {}).get("suggested")) or ""
    s["name_found"] = name
    s["name_exact"] = norm(name) == norm(t["name"])
    s["name_fuzzy"] = difflib.SequenceMatcher(None, norm(name), norm(t["name"])).ratio() >= 0.8
    if t.get("quad"):
        found = card.get("quad")
        s["iou"] = iou(t["quad"], found) if found else 0.0
        if found and s["iou"] >= 0.5:
            s["order_ok"] = order_ok(t["quad"], found)
    elif t.get("pass_box"):
        x0, y0, x1, y1 = t["pass_box"]
        found = card.get("quad")
        s["pass_iou"] = iou([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], found) if found else 0.0
        s["pass_marked"] = card.get("shape") == "pass"
    if t.get("quad"):
        s["false_pass"] = card.get("shape") == "pass"
    if t.get("colors"):
        top = t["colors"][0]["hex"]
        first = (card.get("backgrounds") or [None])[0] or ((card.get("colors") or [{}])[0]).get("hex")
        s["colour_ok"] = bool(first) and ciede2000(lab(top), lab(first)) < 10
        s["colour_any"] = any(ciede2000(lab(top), lab(c["hex"])) < 10 for c in card.get("colors") or [])
    reads = [(b.get("symbology"), b.get("value"), b.get("gtin")) for b in card.get("barcodes") or []]
    # Codes of other cards visible in a screenshot (carousel neighbours, stacked passes) are real
    # codes, just not the main card's: counted apart, not as false.
    others = set()
    for o in t.get("others") or []:
        if isinstance(o, dict) and o.get("barcode"):
            others |= code_forms(o["barcode"]["symbology"], o["barcode"]["value"])
    forms = code_forms(t["barcode"]["symbology"], t["barcode"]["value"]) if t.get("barcode") else set()
    if t.get("barcode"):
        s["code_exact"] = any(v in forms or g in forms for _, v, g in reads)
    s["false_code"] = any(v not in forms and g not in forms and v not in others and g not in others for _, v, g in reads)
    s["other_code"] = any((v in others or g in others) and v not in forms for _, v, g in reads)
    issuer = (card.get("issuer") or {}).get("id")
    if t.get("name_in_catalog"):
        s["issuer_ok"] = issuer == t["issuer_id"]
    else:
        s["issuer_false"] = bool(issuer) and issuer != "unknown"
    if t.get("payment"):
        p = card.get("payment") or {}
        s["payment_ok"] = p.get("network") == t["payment"]["network"] and p.get("last4") == t["payment"]["last4"]
    return s


COLUMNS = [
    ("name exact", "name_exact", None), ("name ≥0.8", "name_fuzzy", None),
    ("quad ≥.90", "iou", lambda v: v >= 0.9), ("quad ≥.95", "iou", lambda v: v >= 0.95), ("corners", "order_ok", None),
    ("pass crop", "pass_iou", lambda v: v >= 0.9),
    ("pass marked", "pass_marked", None), ("false pass", "false_pass", None),
    ("colour", "colour_ok", None), ("colour any", "colour_any", None),
    ("code exact", "code_exact", None), ("false codes", "false_code", None), ("other card's code", "other_code", None),
    ("issuer", "issuer_ok", None), ("issuer false", "issuer_false", None), ("payment", "payment_ok", None),
]


def cell(rows, key, f):
    vals = [r[key] for r in rows if key in r]
    if not vals:
        return "–"
    hits = sum(bool(f(v)) if f else bool(v) for v in vals)
    return f"{hits}/{len(vals)} ({100 * hits / len(vals):.0f} %)"


def table(groups, title):
    out = [f"#### {title}", "", "| group | n | ok | " + " | ".join(c[0] for c in COLUMNS) + " |",
           "|---|---|---|" + "---|" * len(COLUMNS)]
    for g, rows in groups:
        out.append(f"| {g} | {len(rows)} | {sum(r['ok'] for r in rows)} | " + " | ".join(cell(rows, k, f) for _, k, f in COLUMNS) + " |")
    return "\n".join(out) + "\n"


def truths(gen_dir):
    """The ground truth of each generated image in `gen_dir` (NAME.json files with a generator), by name."""
    for fn in sorted(os.listdir(gen_dir)):
        if fn.endswith(".json"):
            with open(os.path.join(gen_dir, fn), encoding="utf-8") as f:
                t = json.load(f)
            if "generator" in t:
                yield t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gen_dir")
    ap.add_argument("records")
    ap.add_argument("--by", default="kind,app_family")
    ap.add_argument("--details")
    args = ap.parse_args()
    records = {}
    with open(args.records, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            records[os.path.basename(r["file"])] = r
    scored = []
    for t in truths(args.gen_dir):
        s = score_one(t, records.get(t["file"]))
        s["_t"] = t
        scored.append(s)
    print(f"### Generated cards: {len(scored)} images from {args.gen_dir}, records {args.records}\n")
    print(table([("all", scored)], "all"))
    for key in args.by.split(","):
        values = sorted({str(s["_t"].get(key)) for s in scored})
        groups = [(v, [s for s in scored if str(s["_t"].get(key)) == v]) for v in values]
        print(table(groups, f"by {key}"))
    if args.details:
        with open(args.details, "w", encoding="utf-8") as f:
            for s in scored:
                t = s.pop("_t")
                f.write(json.dumps({"file": t["file"], "kind": t["kind"], "app_family": t.get("app_family"), "name": t["name"], **s},
                                   ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
