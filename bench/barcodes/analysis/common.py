"""Shared helpers for the barcode analysis scripts (bench/barcodes/analysis).

Three decoders behind one result shape:
  zx14  - Debian's zxing-cpp 1.4 (the library the product links), through zx14.cpp + ctypes;
  zx3   - the zxing-cpp wheel from PyPI (3.x: a stronger detector than 1.4; figures that use it say so);
  zbar  - libzbar 0.23 through pyzbar (the product's second decoder).
A result is a dict: dec, fmt, text, raw (bytes), err (None or a string), quad (4 (x, y)), lines, ori.
"""
import base64, ctypes, json, os, subprocess, sys, time
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("BARCODE_DATA", "/work/shared/data/barcodes")
RECORDS = os.environ.get("SNAP_RECORDS", "/work/snap/before")
LIB = os.environ.get("ZX14_LIB", "/tmp/snapsort-bench/libzx14.so")

FOLDER_FORMAT = {
    "aztec": "Aztec", "code128": "Code128", "code39": "Code39", "datamatrix": "DataMatrix",
    "ean13": "EAN13", "itf": "ITF", "pdf417": "PDF417", "qrcode": "QRCode", "upca": "UPCA", "upce": "UPCE",
}
LINEAR = {"Code128", "Code39", "EAN13", "EAN8", "ITF", "UPCA", "UPCE", "Codabar", "Code93"}
RETAIL = {"EAN13", "EAN8", "UPCA", "UPCE"}
IMAGE_EXT = (".png", ".webp", ".jpg", ".jpeg")


# ---------------------------------------------------------------- data set
def samples(root=DATA):
    out = []
    for folder in sorted(os.listdir(root)):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.lower().endswith(IMAGE_EXT):
                continue
            stem = os.path.join(d, os.path.splitext(name)[0])
            s = {"file": f"{folder}/{name}", "path": os.path.join(d, name), "folder": folder,
                 "format": FOLDER_FORMAT[folder.split("-")[0]], "text": None, "bytes": None}
            if os.path.exists(stem + ".txt"):
                s["text"] = open(stem + ".txt", encoding="utf-8", newline="").read()
            elif os.path.exists(stem + ".bin"):
                s["bytes"] = open(stem + ".bin", "rb").read()
            out.append(s)
    return out


def load_gray(path):
    im = Image.open(path)
    if im.mode in ("RGBA", "LA", "P", "PA"):
        im = im.convert("RGBA").convert("RGB")  # alpha ignored, as zxing-cpp's test loader does
    return np.ascontiguousarray(np.asarray(im.convert("L"), dtype=np.uint8))


# ---------------------------------------------------------------- values
def upce_to_upca(v):
    """8-digit UPC-E (number system, 6 digits, check) to its 12-digit UPC-A."""
    if len(v) != 8:
        return None
    ns, d, chk = v[0], v[1:7], v[7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return ns + body + chk


def gtin_ok(v):
    if not v.isdigit() or len(v) not in (8, 12, 13, 14):
        return False
    digits = [int(c) for c in v]
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits[:-1])))
    return (10 - total % 10) % 10 == digits[-1]


def gtin13(fmt, v):
    if not v.isdigit():
        return None
    if fmt == "UPCE" and len(v) == 8:
        v = upce_to_upca(v)
    if fmt in ("UPCA", "UPCE", "EAN13") and len(v) == 12:
        return "0" + v
    if fmt in ("EAN13", "UPCA") and len(v) == 13:
        return v
    return None


CODE32_ALPHABET = "0123456789BCDFGHJKLMNPQRSTUVWXYZ"


def code32(raw):
    """Italian pharmacode: 6 Code 39 characters, base 32, to 'A' + 9 digits (None if not one)."""
    if len(raw) != 6 or any(c not in CODE32_ALPHABET for c in raw):
        return None
    n = 0
    for c in raw:
        n = n * 32 + CODE32_ALPHABET.index(c)
    s = f"{n:09d}"
    if len(s) != 9:
        return None
    odd = sum(int(c) for c in s[0:8:2])
    even = sum(sum(divmod(2 * int(c), 10)) for c in s[1:8:2])
    return "A" + s if (odd + even) % 10 == int(s[8]) else None


def code39_full_ascii(raw):
    """Code 39 Full ASCII: shift pairs ($A.. %A.. /A.. +A..) to ASCII; None when a pair is invalid."""
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        if c in "$%/+":
            if i + 1 >= len(raw):
                return None
            n = raw[i + 1]
            i += 2
            if c == "+" and "A" <= n <= "Z":
                out.append(chr(ord(n) + 32))
            elif c == "$" and "A" <= n <= "Z":
                out.append(chr(ord(n) - 64))
            elif c == "%":
                if "A" <= n <= "E": out.append(chr(ord(n) - 38))
                elif "F" <= n <= "J": out.append(chr(ord(n) - 11))
                elif "K" <= n <= "O": out.append(chr(ord(n) + 16))
                elif "P" <= n <= "T": out.append(chr(ord(n) + 43))
                elif n == "U": out.append("\x00")
                elif n == "V": out.append("@")
                elif n == "W": out.append("`")
                elif n in "XYZ": out.append("\x7f")
                else: return None
            elif c == "/":
                if "A" <= n <= "O": out.append(chr(ord(n) - 32))
                elif n == "Z": out.append(":")
                else: return None
            else:
                return None
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matches(sample, r):
    """Whether a decoded result is the sample's expected value (value, GTIN, or raw bytes)."""
    if r.get("err"):
        return False
    t = r["text"]
    if sample["bytes"] is not None:
        return r["raw"] == sample["bytes"] or t.encode("utf-8", "surrogatepass") == sample["bytes"]
    e = sample["text"]
    if t == e:
        return True
    g = gtin13(r["fmt"], t)
    return g is not None and g == e


def any_match(sample, results):
    return any(matches(sample, r) for r in results)


def identity(r):
    g = gtin13(r["fmt"], r["text"])
    return ("gtin", g) if g else (r["fmt"], r["text"])


# ---------------------------------------------------------------- zxing-cpp 1.4 (Debian)
FMT14 = {"aztec": 1, "codabar": 2, "code39": 4, "code93": 8, "code128": 16, "databar": 32, "databarexp": 64,
         "datamatrix": 128, "ean8": 256, "ean13": 512, "itf": 1024, "maxicode": 2048, "pdf417": 4096,
         "qrcode": 8192, "upca": 16384, "upce": 32768}
WALLET14 = sum(FMT14[k] for k in ("aztec", "codabar", "code39", "code93", "code128", "datamatrix", "ean8",
                                   "ean13", "itf", "pdf417", "qrcode", "upca", "upce"))
BINARIZERS = {"local": 0, "global": 1, "fixed": 2, "boolcast": 3}
_lib = None


def _build_lib():
    os.makedirs(os.path.dirname(LIB), exist_ok=True)
    src = os.path.join(HERE, "zx14.cpp")
    if not os.path.exists(LIB) or os.path.getmtime(LIB) < os.path.getmtime(src):
        flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "zxing"], text=True).split()
        subprocess.check_call(["g++", "-O2", "-shared", "-fPIC", "-o", LIB, src] + flags)


def _lib14():
    global _lib
    if _lib is None:
        _build_lib()
        _lib = ctypes.CDLL(LIB)
        _lib.zx14_read.restype = ctypes.c_int
        _lib.zx14_read.argtypes = [ctypes.c_void_p] + [ctypes.c_int] * 13 + [ctypes.c_char_p, ctypes.c_int]
    return _lib


_buf = ctypes.create_string_buffer(1 << 20)
NAME14 = {"EAN-13": "EAN13", "EAN-8": "EAN8", "UPC-A": "UPCA", "UPC-E": "UPCE", "Code128": "Code128",
          "Code39": "Code39", "QRCode": "QRCode", "DataMatrix": "DataMatrix", "Aztec": "Aztec",
          "PDF417": "PDF417", "ITF": "ITF", "Codabar": "Codabar", "Code93": "Code93"}


def zx14(gray, try_harder=True, try_rotate=True, binarizer="local", pure=False, errors=False,
         formats=None, code39ext=False, downscale=False, max_symbols=1, min_lines=0):
    gray = np.ascontiguousarray(gray, dtype=np.uint8)
    h, w = gray.shape
    lib = _lib14()
    n = lib.zx14_read(gray.ctypes.data, w, h, w, int(try_harder), int(try_rotate), BINARIZERS[binarizer],
                      int(pure), int(errors), formats or WALLET14, int(code39ext), int(downscale),
                      max_symbols, min_lines, _buf, len(_buf))
    if n < 0:
        return [{"dec": "zx14", "fmt": "None", "text": "", "raw": b"", "err": "aborted" if n == -1 else "exception",
                 "quad": None, "lines": 0, "ori": 0}]
    out = []
    for line in _buf.value.decode().splitlines():
        f = line.split("\t")
        c = [int(x) for x in f[4].split()]
        err = {"0": None, "1": "format", "2": "checksum", "3": "unsupported"}[f[1]]
        out.append({"dec": "zx14", "fmt": NAME14.get(f[0], f[0]),
                    "text": bytes.fromhex(f[2]).decode("utf-8", "replace"), "raw": bytes.fromhex(f[3]),
                    "err": err, "quad": [(c[0], c[1]), (c[2], c[3]), (c[4], c[5]), (c[6], c[7])],
                    "ori": int(f[5]), "lines": int(f[6]), "si": f[7]})
    return out


# ---------------------------------------------------------------- zxing-cpp wheel (3.x)
def zx3(gray, errors=False, try_rotate=True, try_invert=True, try_downscale=True, binarizer=None, pure=False):
    import zxingcpp
    kw = dict(try_rotate=try_rotate, try_invert=try_invert, try_downscale=try_downscale, is_pure=pure,
              return_errors=errors, text_mode=zxingcpp.TextMode.Plain)
    if binarizer:
        kw["binarizer"] = {"local": zxingcpp.Binarizer.LocalAverage, "global": zxingcpp.Binarizer.GlobalHistogram,
                           "fixed": zxingcpp.Binarizer.FixedThreshold}[binarizer]
    res = zxingcpp.read_barcodes(gray, **kw)
    out = []
    for b in res:
        p = b.position
        fmt = b.format.name
        err = None
        if b.error is not None and str(b.error):
            err = str(b.error.type).split(".")[-1].lower()
        out.append({"dec": "zx3", "fmt": fmt, "text": b.text, "raw": bytes(b.bytes), "err": err,
                     "quad": [(p.top_left.x, p.top_left.y), (p.top_right.x, p.top_right.y),
                              (p.bottom_right.x, p.bottom_right.y), (p.bottom_left.x, p.bottom_left.y)],
                     "ori": b.orientation, "lines": getattr(b, "line_count", 0), "obj": b})
    return out


# ---------------------------------------------------------------- zbar
ZBAR_FMT = {"EAN13": "EAN13", "UPCA": "UPCA", "UPCE": "UPCE", "EAN8": "EAN8", "CODE128": "Code128",
            "CODE39": "Code39", "QRCODE": "QRCode", "I25": "ITF", "CODABAR": "Codabar", "CODE93": "Code93",
            "PDF417": "PDF417", "DATABAR": "DataBar", "DATABAR_EXP": "DataBarExpanded", "ISBN13": "EAN13"}


def zbar(gray):
    from pyzbar import pyzbar
    h, w = gray.shape
    res = pyzbar.decode((np.ascontiguousarray(gray).tobytes(), w, h))
    out = []
    for s in res:
        pts = [(p.x, p.y) for p in s.polygon]
        xs, ys = [p[0] for p in pts] or [0], [p[1] for p in pts] or [0]
        raw = s.data
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        out.append({"dec": "zbar", "fmt": ZBAR_FMT.get(s.type, s.type), "text": text, "raw": raw, "err": None,
                    "quad": [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))],
                    "ori": 0, "lines": s.quality, "poly": pts})
    return out


def cpu_ms(fn, *a, **k):
    t = time.process_time()
    r = fn(*a, **k)
    return r, (time.process_time() - t) * 1000


# ---------------------------------------------------------------- snapsort records
def snapsort_records(preset):
    out = {}
    path = os.path.join(RECORDS, f"barcodes-{preset}.records.jsonl")
    for line in open(path):
        r = json.loads(line)
        out[r["file"]] = (r.get("card") or {}).get("barcodes") or []
    return out


def record_matches(sample, b):
    if sample["bytes"] is not None:
        return b.get("bytes") == base64.b64encode(sample["bytes"]).decode() or b["value"].encode() == sample["bytes"]
    return b["value"] == sample["text"] or b.get("gtin") == sample["text"]
