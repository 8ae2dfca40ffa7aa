#!/usr/bin/env python3
"""Measure how tesseract reads brand names on rendered cards (dev tool, not part of the product).

With --records FILE it also writes what the pipeline would record for each rendered card, as a
`records.jsonl` that `snapsort train-issuers --records` and `eval-issuers --records` read:
`file` is `<issuer-id>/<k>.jpg` (`unknown/<k>.jpg` for invented issuers in no catalog),
`card.text` the tesseract lines, `card.colors` a 4-colour k-means palette in CIELAB (fixed seed).
With --images DIR the rendered cards are kept as a labelled folder DIR/<issuer-id>/<k>.jpg.

Renders one card per catalog issuer (brand colour background, the name in large type, the
programme name, a card number and a holder's name; slight rotation, blur and JPEG loss), runs the
tesseract CLI (eng, PSM 11, as the OCR stage does) and reports, over all cards:
- the share where the brand is missed (no window of the OCR text reaches trigram Dice 0.5
  with the name), which SyntheticCards calls missNameRate;
- the character error rate of the best window where it is found (charErrorRate).

Usage: OMP_THREAD_LIMIT=1 scripts/issuer_ocr_noise.py [--per-issuer N] [--unknown N]
         [--records records.jsonl] [--images DIR] [--seed S]
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, unicodedata, concurrent.futures
import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageFilter

SYLLABLES = ["ka", "lo", "mi", "ver", "tan", "dra", "mo", "shi", "rel", "qua", "bor", "nix", "zen", "pa",
             "lu", "fen", "gro", "tri", "vol", "sa", "ber", "kor", "mel", "dun", "ra", "sto", "vix", "el"]
SUFFIXES = ["", "", " Market", " Store", " Club", " Mart", " Bank", " Pharma", " Shop"]


def invented(rng, k):
    name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
    name = name.capitalize() + rng.choice(SUFFIXES)
    colours = ["#%06x" % rng.randrange(0x1000000) for _ in range(rng.randint(1, 2))] + ["#ffffff"]
    return {"id": "unknown", "name": name, "colors": colours, "program": None}


def palette(path, k=4, seed=1):
    """k-means in CIELAB on a reduced copy, as the palette stage does: [(hex, share)]."""
    im = np.asarray(Image.open(path).convert("RGB").resize((96, 60)), dtype=np.float64) / 255
    rgb = im.reshape(-1, 3)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    lab = np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)
    r = np.random.default_rng(seed)
    centres = lab[r.choice(len(lab), k, replace=False)]
    for _ in range(15):
        d = ((lab[:, None, :] - centres[None]) ** 2).sum(-1)
        a = d.argmin(1)
        centres = np.array([lab[a == j].mean(0) if (a == j).any() else centres[j] for j in range(k)])
    shares = np.bincount(a, minlength=k) / len(a)
    out = []
    for j in np.argsort(-shares):
        if shares[j] < 0.01:
            continue
        rgb_c = (rgb[a == j].mean(0) * 255).round().astype(int)
        out.append({"hex": "#%02x%02x%02x" % tuple(rgb_c), "share": round(float(shares[j]), 3)})
    return out

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "Sources/SnapsortStages/Resources/issuers.json")
FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
]
FONTS = [f for f in FONTS if os.path.exists(f)]


def fold(s):
    s = unicodedata.normalize("NFKD", s.lower())
    s = "".join(c for c in s if not unicodedata.combining(c))
    for a, b in (("ł", "l"), ("ß", "ss"), ("ø", "o"), ("æ", "ae"), ("œ", "oe")):
        s = s.replace(a, b)
    s = s.replace("'", "").replace("’", "")
    return "".join(c if c.isalnum() or c == "&" else " " for c in s)


def grams(s, n=3):
    s = "\x02" + s + "\x03"
    return {s[i:i + n] for i in range(len(s) - n + 1)}


def dice(a, b):
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def best_window(name, lines):
    target = fold(name).replace(" ", "")
    tg = grams(target)
    k = max(1, len(fold(name).split()))
    best = (0.0, "")
    for line in lines:
        words = fold(line).split()
        for i in range(len(words)):
            for n in range(max(1, k - 1), k + 2):
                if i + n > len(words):
                    continue
                w = "".join(words[i:i + n])
                d = dice(tg, grams(w))
                if d > best[0]:
                    best = (d, w)
    return best, target


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def render(issuer, rng, path):
    colours = [hex_rgb(c) for c in issuer["colors"]]
    bg = colours[0]
    fg = next((c for c in colours[1:] if abs(luminance(c) - luminance(bg)) > 90),
              (255, 255, 255) if luminance(bg) < 128 else (20, 20, 20))
    im = Image.new("RGB", (1012, 638), bg)
    d = ImageDraw.Draw(im)
    if len(colours) > 1 and rng.random() < 0.6:
        d.rectangle([0, 470, 1012, 638], fill=colours[1])
    font = ImageFont.truetype(rng.choice(FONTS), rng.randint(56, 110))
    name = issuer["name"]
    d.text((rng.randint(40, 120), rng.randint(40, 120)), name, font=font, fill=fg)
    small = ImageFont.truetype(FONTS[0], rng.randint(26, 36))
    if issuer.get("program"):
        d.text((60, 260), issuer["program"], font=small, fill=fg)
    d.text((60, 360), " ".join("%04d" % rng.randint(0, 9999) for _ in range(4)), font=small, fill=fg)
    d.text((60, 410), rng.choice(["ANNA KOWALSKA", "MAX MUSTERMANN", "JOHN SMITH", "MARIE DUBOIS"]), font=small, fill=fg)
    im = im.rotate(rng.uniform(-3, 3), resample=Image.BICUBIC, expand=False, fillcolor=bg)
    im = im.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1.6)))
    im.save(path, quality=rng.randint(40, 90))


def ocr(path):
    out = subprocess.run(["tesseract", path, "-", "-l", "eng", "--psm", "11"], capture_output=True, text=True,
                         env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    return [l for l in out.stdout.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-issuer", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--records")
    ap.add_argument("--images")
    ap.add_argument("--unknown", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    issuers = json.load(open(CATALOG))["issuers"]
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="issuer-ocr-")
    jobs = []
    for issuer in issuers:
        for k in range(args.per_issuer):
            path = os.path.join(tmp, "%s-%d.jpg" % (issuer["id"], k))
            render(issuer, rng, path)
            jobs.append((issuer, path, "%s/%d.jpg" % (issuer["id"], k)))
    for k in range(args.unknown):
        issuer = invented(rng, k)
        path = os.path.join(tmp, "unknown-%d.jpg" % k)
        render(issuer, rng, path)
        jobs.append((issuer, path, "unknown/%d.jpg" % k))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda j: (j[0], ocr(j[1])), jobs))
    if args.records:
        with open(args.records, "w") as f:
            for (issuer, path, name), (_, lines) in sorted(zip(jobs, results), key=lambda x: x[0][2]):
                card = {"text": [{"text": l, "box": [0, 0, 0, 0], "confidence": 0} for l in lines],
                        "colors": palette(path), "barcodes": []}
                f.write(json.dumps({"file": name, "sha256": "", "kind": "card", "status": "ok", "card": card},
                                   ensure_ascii=False) + "\n")
    if args.images:
        for issuer, path, name in jobs:
            os.makedirs(os.path.join(args.images, os.path.dirname(name)), exist_ok=True)
            shutil.copy(path, os.path.join(args.images, name))
    results = [(i, l) for (i, l) in results if i["id"] != "unknown"]
    missed, errors, chars, rows = 0, 0, 0, []
    latin = 0
    for issuer, lines in results:
        (score, window), target = best_window(issuer["name"], lines)
        is_latin = all(ord(c) < 0x400 for c in issuer["name"])
        latin += is_latin
        if is_latin:
            if score < 0.5:
                missed += 1
            else:
                errors += lev(window, target)
                chars += len(target)
        rows.append({"id": issuer["id"], "lines": lines, "dice": round(score, 3)})
    print("cards: %d with Latin-script names (Cyrillic names are not read by eng and are left out)" % latin)
    print("brand missed (best Dice < 0.5): %.1f %%" % (100.0 * missed / latin))
    print("character error rate where found: %.1f %%" % (100.0 * errors / max(1, chars)))
    if args.out:
        with open(args.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
