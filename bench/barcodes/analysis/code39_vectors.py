#!/usr/bin/env python3
"""Code 39 Full ASCII: the shift-pair table (common.code39_full_ascii) printed as markdown, and test vectors
checked against zxing-cpp 1.4 itself: each vector's raw Code 39 text is rendered (zxing-cpp wheel's writer,
which only writes raw Code 39) and read by 1.4 with tryCode39ExtendedMode off (raw text, as zbar reports it)
and on (1.4's own Full ASCII decoding). Also the Code 32 (Italian pharmacode) conversion."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import code39_full_ascii, code32, zx14, zbar, FMT14

NAMES = {0: "NUL", 1: "SOH", 2: "STX", 3: "ETX", 4: "EOT", 5: "ENQ", 6: "ACK", 7: "BEL", 8: "BS", 9: "HT", 10: "LF",
         11: "VT", 12: "FF", 13: "CR", 14: "SO", 15: "SI", 16: "DLE", 17: "DC1", 18: "DC2", 19: "DC3", 20: "DC4",
         21: "NAK", 22: "SYN", 23: "ETB", 24: "CAN", 25: "EM", 26: "SUB", 27: "ESC", 28: "FS", 29: "GS", 30: "RS",
         31: "US", 32: "SP", 127: "DEL"}


def show(c):
    return NAMES.get(ord(c), {"|": "\\|", "`": "&#96;"}.get(c, c)) + f" (0x{ord(c):02X})"


def render(raw):
    import zxingcpp
    b = zxingcpp.create_barcode(raw, zxingcpp.BarcodeFormat.Code39)
    img = np.asarray(b.to_image(scale=2, add_quiet_zones=True, add_hrt=False))
    if img.ndim == 3:
        img = img[..., 0]
    return np.ascontiguousarray(np.repeat(img[:1], 60, axis=0))


def main():
    print("| letter | `$`+letter | `%`+letter | `/`+letter | `+`+letter |")
    print("|---|---|---|---|---|")
    for L in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        cells = []
        for sh in "$%/+":
            d = code39_full_ascii(sh + L)
            cells.append(show(d) if d is not None else "— (invalid)")
        print(f"| {L} | " + " | ".join(cells) + " |")
    print()
    vectors = [("H+E+L+L+O/L W+O+R+L+D/A", "Hello, World!"), ("+A+B+C/D/E/O/K", "abc$%/+"),
               ("A/KB", "A+B"), ("C+O+D+E39/Z+O+K", "Code39:ok"), ("%U$A$Z%A%E", "\x00\x01\x1a\x1b\x1f"),
               ("%F%J%K%O%P%T%V%W", ";?[_{\x7f@`"), ("/A/O/Z", "!/:"), ("-. 09AZ", "-. 09AZ"),
               ("1+2", None), ("AB/5", None), ("PRICE $5", None), ("50%", None)]
    print("| raw Code 39 (zbar, 1.4 default) | Full ASCII (table) | expected | 1.4 tryCode39ExtendedMode=false | 1.4 =true | zbar |")
    print("|---|---|---|---|---|---|")
    for raw, want in vectors:
        got = code39_full_ascii(raw)
        img = render(raw)
        off = [r["text"] for r in zx14(img, code39ext=False, formats=FMT14["code39"]) if not r["err"]]
        on = [r["text"] for r in zx14(img, code39ext=True, formats=FMT14["code39"]) if not r["err"]]
        zb = [r["text"] for r in zbar(img)]
        status = "✓" if got == want else "✗"
        print(f"| `{raw}` | {got!r} {status} | {want!r} | {off!r} | {on!r} | {zb!r} |")
    print()
    print(f"Code 32: raw Code 39 `3PRM8N` → {code32('3PRM8N')!r} (code39-1/code32-1 expects 'A123456788')")


if __name__ == "__main__":
    main()
