"""tesseract's C API through ctypes for the bench/speed probes (page_word_cost.py,
page_mask_bound.py): one `eng` engine without the system dictionary, as the ocr stage reads the
page, and tesseract's progress-callback type for timing each word. Importing it sends the
process's stderr to /dev/null: leptonica and tesseract print diagnostics for specks, and the
figures are on stdout."""
import ctypes
import os
import re
import time

t = ctypes.CDLL("libtesseract.so.5")
V = ctypes.c_void_p
for name, args, res in [
    ("TessBaseAPICreate", [], V), ("TessBaseAPIInit3", [V, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_int),
    ("TessBaseAPISetImage", [V, ctypes.c_char_p] + [ctypes.c_int] * 4, None),
    ("TessBaseAPISetPageSegMode", [V, ctypes.c_int], None), ("TessBaseAPIRecognize", [V, V], ctypes.c_int),
    ("TessBaseAPIClear", [V], None), ("TessBaseAPISetVariable", [V, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_int),
    ("TessBaseAPISetSourceResolution", [V, ctypes.c_int], None), ("TessMonitorCreate", [], V),
    ("TessMonitorSetProgressFunc", [V, V], None), ("TessBaseAPIGetIterator", [V], V),
    ("TessResultIteratorGetPageIterator", [V], V), ("TessResultIteratorGetUTF8Text", [V, ctypes.c_int], V),
    ("TessDeleteText", [V], None),
    ("TessPageIteratorBoundingBox", [V, ctypes.c_int] + [ctypes.POINTER(ctypes.c_int)] * 4, ctypes.c_int),
    ("TessResultIteratorConfidence", [V, ctypes.c_int], ctypes.c_float),
    ("TessPageIteratorNext", [V, ctypes.c_int], ctypes.c_int), ("TessResultIteratorDelete", [V], None)]:
    f = getattr(t, name); f.argtypes = args; f.restype = res
api = t.TessBaseAPICreate()
assert t.TessBaseAPIInit3(api, b"/usr/share/tesseract-ocr/5/tessdata", b"eng") == 0
t.TessBaseAPISetVariable(api, b"load_system_dawg", b"0")
os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
PROG = ctypes.CFUNCTYPE(ctypes.c_bool, V, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
# A word of bar-like glyphs only: a barcode's bars read as text.
bar = re.compile(r"^[|Il1!\[\](){}ij:;.,'\"_\-—~]+$")


def words():
    """The last reading's words: (text, confidence, (left, top, right, bottom)) in reading order."""
    out = []
    it = t.TessBaseAPIGetIterator(api)
    if not it:
        return out
    page = t.TessResultIteratorGetPageIterator(it)
    while True:
        raw = t.TessResultIteratorGetUTF8Text(it, 3)
        if raw:
            text = ctypes.string_at(raw).decode("utf8", "replace").strip()
            t.TessDeleteText(raw)
            a, b, c, d = (ctypes.c_int() for _ in range(4))
            t.TessPageIteratorBoundingBox(page, 3, a, b, c, d)
            out.append((text, t.TessResultIteratorConfidence(it, 3), (a.value, b.value, c.value, d.value)))
        if not t.TessPageIteratorNext(page, 3):
            break
    t.TessResultIteratorDelete(it)
    return out


def read_page(grey, callback):
    """Reads a 2-D uint8 array with psm 11 at 300 dpi, tesseract calling `callback` (a PROG) before
    each word; returns the thread CPU seconds (start, end) around the recognition. The result stays
    in `api` for `words()` until `t.TessBaseAPIClear(api)`."""
    h, w = grey.shape
    t.TessBaseAPISetPageSegMode(api, 11)
    t.TessBaseAPISetImage(api, grey.tobytes(), w, h, 1, w)
    t.TessBaseAPISetSourceResolution(api, 300)
    monitor = t.TessMonitorCreate()
    t.TessMonitorSetProgressFunc(monitor, ctypes.cast(callback, V))
    start = time.thread_time()
    t.TessBaseAPIRecognize(api, monitor)
    return start, time.thread_time()
