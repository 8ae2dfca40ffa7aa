"""The installed fonts, grouped into typeface families, with their glyph coverage.

A family is every weight, width and style of one typeface (DejaVu Sans, DejaVu Sans Condensed and
DejaVu Sans Bold are one family), so holding a family out holds out all of its files. Families come
from the fonts' name tables; the split each family belongs to comes from bench/gen/splits.json, never
from what happens to be installed, so a new font package cannot move a family between splits.
"""
import hashlib
import json
import os
import re
import sys

FONT_DIRS = ["/usr/share/fonts"]
HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.path.dirname(HERE), "work", "gen-fonts-cache.json")

# Words that name a weight, width or style rather than a typeface.
STYLE_WORDS = {
    "thin", "hairline", "extralight", "ultralight", "light", "book", "regular", "normal", "medium",
    "semibold", "demibold", "demi", "bold", "extrabold", "ultrabold", "black", "heavy", "extra", "ultra",
    "semi", "italic", "oblique", "slanted", "condensed", "semicondensed", "extracondensed", "narrow",
    "compressed", "expanded", "extended", "wide", "variable", "vf", "it", "sc", "caps", "smallcaps",
    "display", "text", "caption", "subhead", "titling", "poster", "deck", "hinted", "unhinted", "nerd",
    "retina", "one", "inline", "shadow", "outline", "rounded", "ot", "otf", "ttf", "pro", "std",
}

# Noto: only these typefaces (the rest of fonts-noto-core covers other scripts, not our text).
NOTO_KEEP = {"noto sans", "noto serif", "noto sans mono", "noto sans display", "noto serif display"}

# Family -> category (for balancing and for the README). Unlisted families are "sans".
CATEGORY_HINTS = [
    ("script", ["dancing", "kaushan", "leckerli", "kristi", "lobster", "dkg", "z003", "chancery", "handwriting", "essays"]),
    ("mono", ["mono", "code", "hack", "courier", "ocr", "inconsolata", "nimbus mono"]),
    ("rounded", ["comfortaa", "quicksand", "cherry", "rocknroll", "reggae", "comic", "averia gruesa", "averia libre", "averia sans", "dosis", "nunito", "jura", "varela"]),
    ("condensed", ["bebas", "yanone", "league spartan", "beteckna", "oswald", "national park", "allerta", "play"]),
    ("serif", ["serif", "garamond", "libertine", "vollkorn", "cardo", "old standard", "quattrocento", "yrsa", "rasa", "caladea",
               "baskervald", "nimbus roman", "p052", "c059", "bookman", "roman", "tinos", "liberation serif", "pt serif", "freeserif",
               "averia serif", "slab", "gentium", "linux biolinum"]),
    ("display", ["sora", "manrope", "league", "urw gothic", "b612", "cabin", "karla", "gillius", "switzera", "play", "lobster two"]),
]


# Typefaces that are one design under several names (metric clones, forks, sub-families): held out
# together, or a held-out design would leak into training through its twin.
ALIASES = {
    "Arimo": "Liberation Sans", "Tinos": "Liberation Serif", "Cousine": "Liberation Mono",
    "FreeSans": "Nimbus Sans", "FreeSerif": "Nimbus Roman", "FreeMono": "Nimbus Mono PS",
    "BetecknaGS": "Beteckna", "BetecknaGSCondensed": "Beteckna", "Gillius ADF No2": "Gillius ADF",
    "Courier Prime Code": "Courier Prime", "Courier Prime Sans": "Courier Prime",
    "Averia Sans GWF": "Averia GWF", "Averia Serif GWF": "Averia GWF",
    "Linux Libertine Mono O": "Linux Libertine O", "Linux Biolinum O": "Linux Libertine O",
    "Lobster": "Lobster Two",
}
# Symbol and keyboard fonts: never for text.
EXCLUDE = {"D050000L", "Standard Symbols PS", "DejaVu Math TeX Gyre", "Linux Biolinum Keyboard O"}


def family_key(name):
    words = re.split(r"[\s_\-]+", name.strip())
    kept = [w for w in words if w and w.lower() not in STYLE_WORDS]
    key = " ".join(kept) if kept else name.strip()
    return ALIASES.get(key, key)


def category(family):
    low = family.lower()
    for cat, hints in CATEGORY_HINTS:
        if any(h in low for h in hints):
            return cat
    return "sans"


def _font_files():
    """The font files a scan reads, sorted: cheap to list, so the cache can tell when a font
    package was installed or removed since it was written."""
    paths = []
    for base in FONT_DIRS:
        for root, _, files in os.walk(base):
            for fn in files:
                if not fn.lower().endswith((".ttf", ".otf")):
                    continue
                if "/noto/" in root.lower() + "/" and not re.match(r"^Noto(Sans|Serif)(Mono|Display)?-", fn):
                    continue
                paths.append(os.path.join(root, fn))
    return sorted(paths)


def _scan(paths):
    from fontTools.ttLib import TTFont

    entries = []
    for path in paths:
        fn = os.path.basename(path)
        try:
            font = TTFont(path, lazy=True, fontNumber=0)
            names = font["name"]
            fam = names.getDebugName(16) or names.getDebugName(1) or fn
            cmap = font.getBestCmap() or {}
        except Exception:
            continue
        key = family_key(fam)
        if key.lower().startswith("noto") and key.lower() not in NOTO_KEEP:
            continue
        entries.append({"path": path, "family": key, "name": names.getDebugName(4) or fn,
                        "cmap": _ranges(sorted(cmap))})
    return entries


def _ranges(codes):
    out = []
    for c in codes:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def load(refresh=False):
    """All usable font files: [{path, family, name, cmap(ranges)}], cached in bench/work/.

    The cache holds only while the same font files are installed: a font package installed after
    the cache was written (a held-out family among them) would otherwise be left out of every
    render without a word, and the same seed would render a different set on another machine."""
    paths = _font_files()
    if not refresh and os.path.exists(CACHE):
        with open(CACHE, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("dirs") == FONT_DIRS and data.get("files") == paths:
            return data["fonts"]
    fonts = _scan(paths)
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    with open(CACHE, "w", encoding="utf-8") as f:
        json.dump({"dirs": FONT_DIRS, "files": paths, "fonts": fonts}, f)
    return fonts


class Coverage:
    def __init__(self, ranges):
        self.ranges = ranges
        self.cache = {}

    def has(self, ch):
        c = ord(ch)
        r = self.cache.get(c)
        if r is None:
            lo, hi = 0, len(self.ranges)
            r = False
            while lo < hi:
                mid = (lo + hi) // 2
                a, b = self.ranges[mid]
                if c < a:
                    hi = mid
                elif c > b:
                    lo = mid + 1
                else:
                    r = True
                    break
            self.cache[c] = r
        return r

    def covers(self, text):
        return all(ch.isspace() or self.has(ch) for ch in text)


# A family is usable for card text only when it covers basic Latin letters and digits.
BASIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def families(fonts=None):
    """{family: [font entries]} of the families that can set basic Latin text."""
    fonts = fonts if fonts is not None else load()
    out = {}
    for e in fonts:
        if e["family"] in EXCLUDE:
            continue
        cov = Coverage(e["cmap"])
        if not cov.covers(BASIC):
            continue
        e = dict(e)
        e["coverage"] = cov
        out.setdefault(e["family"], []).append(e)
    for k in out:
        out[k].sort(key=lambda e: e["path"])
    return out


def style_of(entry):
    """Rough weight of a file from its name: 'bold', 'regular', 'light', 'italic' flags."""
    low = (entry["name"] + " " + os.path.basename(entry["path"])).lower()
    return {
        "bold": any(w in low for w in ("bold", "black", "heavy", "semibold", "extrabold")),
        "light": any(w in low for w in ("light", "thin", "hairline")),
        "italic": any(w in low for w in ("italic", "oblique")),
        "condensed": any(w in low for w in ("condensed", "narrow", "compressed")),
    }


def held_out(names, kind, fraction=0.25):
    """The split rule: within a group of names, the round(n × fraction) names whose
    sha256('snapsort-gen:KIND:NAME') sort first are held out."""
    ranked = sorted(names, key=lambda n: hashlib.sha256(f"snapsort-gen:{kind}:{n}".encode()).hexdigest())
    return set(ranked[:round(len(ranked) * fraction)])


if __name__ == "__main__":
    fams = families(load(refresh="--refresh" in sys.argv))
    for k in sorted(fams):
        print(f"{category(k):10s} {k:40s} {len(fams[k]):3d}  cyr={fams[k][0]['coverage'].covers('Жё')} pl={fams[k][0]['coverage'].covers('ŁłŚźżą')}")
    print(len(fams), "families")
