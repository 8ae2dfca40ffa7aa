#!/usr/bin/env python3
"""Seeded, domain-randomised card images with ground truth (a dev tool, never the product).

    python3 bench/gen/cards.py --out DIR --count N --kind photo|screenshot|crop|mixed \
        --split train|heldout --seed S [--jobs J] [--no-name] [--card-lines SHARE] [--detail-rows LO-HI] [--dense-text LO-HI]
    python3 bench/gen/cards.py --write-splits      # add newly installed font families to splits.json

Each image NAME.jpg/png gets NAME.json beside it (schema: bench/gen/README.md). The same arguments
give byte-identical files (given the same installed fonts and library versions). Fonts, layout
families and app families are assigned to train/heldout in bench/gen/splits.json.
"""
import argparse
import io
import json
import math
import multiprocessing
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import art as A  # noqa: E402
import fonts as fontlib  # noqa: E402
import lexicon as lx  # noqa: E402
import scenes as S  # noqa: E402

SPLITS = os.path.join(HERE, "splits.json")
VERSION = 1
RULE = ("Within each group (font families per category; loyalty layouts; payment layouts; app families) "
        "the round(n/4) names whose sha256('snapsort-gen:GROUP:NAME') hex digests sort first are heldout, "
        "the rest train. Decided once and frozen here: a family missing from this file is never used.")


def write_splits():
    fams = fontlib.families(fontlib.load(refresh=True))
    old = {}
    if os.path.exists(SPLITS):
        with open(SPLITS, encoding="utf-8") as f:
            old = json.load(f)
    fonts_old = old.get("fonts", {})
    by_cat = {}
    for name in fams:
        by_cat.setdefault(fontlib.category(name), []).append(name)
    fonts_new = dict(fonts_old)
    for cat, names in sorted(by_cat.items()):
        fresh = [n for n in names if n not in fonts_old]
        if not fresh:
            continue
        held = fontlib.held_out(sorted(names), "font-" + cat)
        for n in fresh:
            fonts_new[n] = {"category": cat, "split": "heldout" if n in held else "train"}
    layouts = old.get("layouts") or {}
    if not layouts:
        for group, names in (("layout-loyalty", A.LOYALTY_LAYOUTS), ("layout-payment", A.PAYMENT_LAYOUTS)):
            held = fontlib.held_out(names, group)
            for n in names:
                layouts[n] = "heldout" if n in held else "train"
    apps = old.get("apps") or {n: ("heldout" if n in fontlib.held_out(S.APP_FAMILIES, "app") else "train") for n in S.APP_FAMILIES}
    lines = old.get("card_lines") or card_lines_split()
    data = {"rule": RULE, "fonts": dict(sorted(fonts_new.items())), "layouts": layouts, "apps": apps, "card_lines": lines}
    with open(SPLITS, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"splits.json: {len(fonts_new)} font families ({sum(v['split'] == 'heldout' for v in fonts_new.values())} heldout), "
          f"layouts heldout {[k for k, v in layouts.items() if v == 'heldout']}, apps heldout {[k for k, v in apps.items() if v == 'heldout']}")


def card_lines_split():
    """The held-out side of the lines set beside the name (art.card_lines): per kind and language the
    phrases, the holders' first and last names, and the placements, by the same rule."""
    held = {k: {lang: sorted(fontlib.held_out(v, f"line-{k}-{lang}")) for lang, v in d.items()} for k, d in lx.CARD_LINES.items()}
    held["first"] = {lang: sorted(fontlib.held_out(v, f"line-first-{lang}")) for lang, v in lx.FIRST.items()}
    held["last"] = {lang: sorted(fontlib.held_out(v, f"line-last-{lang}")) for lang, v in lx.LAST.items()}
    held["placements"] = sorted(fontlib.held_out(A.LINE_PLACEMENTS, "line-placement"))
    return {"heldout": held}


_STATE = {}


def state(split):
    if split not in _STATE:
        with open(SPLITS, encoding="utf-8") as f:
            sp = json.load(f)
        fams = fontlib.families()
        chosen = {k: v for k, v in fams.items() if sp["fonts"].get(k, {}).get("split") == split}
        missing = sorted(k for k, v in sp["fonts"].items() if v["split"] == split and k not in fams)
        if missing:
            print(f"warning: {len(missing)} {split} font families not installed (run scripts/ensure-fonts.sh): {missing[:6]}", file=sys.stderr)
        _STATE[split] = {
            "fams": chosen,
            "loyalty": sorted(k for k in A.LOYALTY_LAYOUTS if sp["layouts"][k] == split),
            "payment": sorted(k for k in A.PAYMENT_LAYOUTS if sp["layouts"][k] == split) or sorted(A.PAYMENT_LAYOUTS),
            "apps": sorted(k for k in S.APP_FAMILIES if sp["apps"][k] == split),
            "lines": A.line_pools(split, sp["card_lines"]["heldout"]),
        }
    return _STATE[split]


def render_one(job):
    seed, split, kind, index, out, no_name, detail_rows, dense_text, line_share = job
    st = state(split)
    rng = random.Random(f"snapsort-gen:{VERSION}:{seed}:{split}:{kind}:{index}")
    nrng = np.random.default_rng(rng.getrandbits(63))
    k = kind if kind != "mixed" else rng.choice(["photo", "screenshot"])
    for attempt in range(12):
        content = A.make_content(rng, st["fams"])
        content["hide_name"] = no_name
        if detail_rows:
            content["detail_rows"] = detail_rows
        if dense_text:
            content["dense_text"] = dense_text
            content["hide_name"] = True
        # Lines beside the name: a stream of their own, so the rest of the card draws as without them.
        lines_seed = f"snapsort-gen:{VERSION}:{seed}:{split}:{kind}:{index}:{attempt}:lines"
        if not content["payment"] and not dense_text:
            pools, placements = st["lines"]
            content["card_lines"] = A.card_lines(random.Random(lines_seed), content["lang"], pools, placements, line_share)
            content["lines_seed"] = lines_seed + ":art"
        layout = rng.choice(st["payment"] if content["payment"] else st["loyalty"])
        app = rng.choice(st["apps"]) if k == "screenshot" else None
        holder = {}

        def make_art(scale, c=None):
            img, gt = A.render_art(rng, nrng, c or content, st["fams"], layout, scale)
            if gt is not None:
                gt["_scale"] = scale
                holder["gt"] = gt
            return img, gt

        if k == "photo":
            img, g = S.render_photo(rng, nrng, make_art)
        elif k == "crop":
            img, g = S.render_crop(rng, nrng, make_art)
        else:
            def make_other(scale):
                other = A.make_content(rng, st["fams"])
                lay = rng.choice(st["payment"] if other["payment"] else st["loyalty"])
                return A.render_art(rng, nrng, other, st["fams"], lay, scale)

            # The pass branch has a seed of its own: the screenshots it leaves alone draw as before.
            prng = random.Random(f"snapsort-gen:{VERSION}:{seed}:{split}:{kind}:{index}:{attempt}:pass")
            img, g = S.render_screenshot(rng, nrng, content, make_art, app, st["fams"], make_other, pass_rng=prng)
        if img is not None:
            break
    else:
        raise RuntimeError(f"no renderable content for {job}")
    ag = g.pop("_gt", None) or holder["gt"]
    name = f"{k}-{index:05d}"
    if k == "crop":
        fmt = "png" if rng.random() < 0.5 else "jpeg"
    elif k == "photo":
        fmt = "jpeg"
    else:
        fmt = "png" if rng.random() < 0.4 else "jpeg"
    quality = rng.randint(60, 95) if fmt == "jpeg" else None
    path = os.path.join(out, name + (".jpg" if fmt == "jpeg" else ".png"))
    # A phone's photo is often stored sideways with an EXIF orientation tag; the ground truth stays in
    # the orientation-corrected pixels (what the records' coordinates use).
    orientation = rng.choice([3, 6, 6, 8]) if k == "photo" and rng.random() < 0.12 else None
    if fmt == "jpeg":
        if orientation:
            stored = img.transpose({3: Image.ROTATE_180, 6: Image.ROTATE_90, 8: Image.ROTATE_270}[orientation])
            exif = Image.Exif()
            exif[0x0112] = orientation
            stored.save(path, "JPEG", quality=quality, exif=exif.tobytes())
        else:
            img.save(path, "JPEG", quality=quality)
    else:
        img.save(path, "PNG", compress_level=3)
    effects = ag.get("effects", []) + g["effects"] + ([f"jpeg_q{quality}"] if quality else []) + ([f"exif_orientation_{orientation}"] if orientation else [])
    truth = {
        "generator": "bench/gen/cards.py", "version": VERSION, "seed": seed, "index": index,
        "kind": k, "split": split, "file": os.path.basename(path),
        "width": img.width, "height": img.height, "format": fmt, "jpeg_quality": quality, "exif_orientation": orientation,
        "language": content["lang"],
        "font_family": ag["font_family"], "font_file": ag["font_file"], "font_category": ag["font_category"],
        "small_font_family": ag.get("small_font_family"),
        "layout_family": ag["layout_family"], "app_family": app,
        "name": ag["name"], "name_lines": g["name_lines"],
        "name_in_catalog": content["in_catalog"], "issuer_id": content["issuer_id"],
        "catalog_name": content.get("catalog_name"),
        "quad": g["quad"], "others": g.get("others", []),
        "colors": ag["colors"], "polarity": ag["polarity"], "name_colour": ag.get("name_colour"),
        "barcode": ({"symbology": g["barcode"]["symbology"], "value": g["barcode"]["value"],
                     "box": g["barcode"].get("box"), "location": g["barcode"].get("location", "card")} if g["barcode"] else None),
        "payment": ({"network": content["payment"]["network"], "last4": content["payment"]["last4"]} if content["payment"] else None),
        "text": {"programme": content["programme"], "holder": content["holder"], "member_number": content["member_number"],
                 "tagline": content["tagline"], "boilerplate": content["boilerplate"], "card_lines": ag.get("card_lines") or []},
        "effects": effects,
    }
    for key in ("corner_radius_px", "shadow", "panel_box", "main_partial", "screen", "pass_box", "rotation_deg", "tilt_deg"):
        if key in g:
            truth[key] = g[key]
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--kind", choices=["photo", "screenshot", "crop", "mixed"], default="mixed")
    ap.add_argument("--split", choices=["train", "heldout"], default="train")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first index (to extend a set)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-name", action="store_true",
                    help="leave the brand's name off every card (truth name \"\"), for learning when a card shows none")
    ap.add_argument("--detail-rows", metavar="LO-HI",
                    help="screenshots list LO to HI detail rows (a card's details, a bank's transactions) "
                    "at a closer pitch instead of 2 to 6, for fitting the card-or-receipt model")
    ap.add_argument("--dense-text", metavar="LO-HI",
                    help="the card's back or a gift card: LO to HI lines of small print (terms, some ending in an amount) "
                    "and no name or code, for fitting the card-or-receipt model")
    ap.add_argument("--card-lines", type=float, default=0.5, metavar="SHARE",
                    help="share of loyalty cards that set one or two lines (programme, instruction, since, slogan, "
                    "holder) beside the name, as large as it or not (0: the renders before these lines, bar the truth's "
                    "empty text.card_lines)")
    ap.add_argument("--write-splits", action="store_true")
    args = ap.parse_args()
    if args.write_splits:
        write_splits()
        return
    if not args.out:
        ap.error("--out is required")
    os.makedirs(args.out, exist_ok=True)
    detail_rows = tuple(int(v) for v in args.detail_rows.split("-")) if args.detail_rows else None
    dense_text = tuple(int(v) for v in args.dense_text.split("-")) if args.dense_text else None
    jobs = [(args.seed, args.split, args.kind, i, args.out, args.no_name, detail_rows, dense_text, args.card_lines)
            for i in range(args.start, args.start + args.count)]
    t0 = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for _ in pool.imap_unordered(render_one, jobs):
                pass
    else:
        for j in jobs:
            render_one(j)
    print(f"{len(jobs)} images in {time.time() - t0:.1f} s -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
