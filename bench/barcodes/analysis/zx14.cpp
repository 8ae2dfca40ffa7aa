// A ctypes door to Debian's zxing-cpp 1.4 (libzxing-dev) for the analysis scripts: the same
// library the product links, so figures marked "1.4" here are the product's decoder, not the
// stronger 2.x/3.x wheel. Built by zx14.py with g++ (no Swift build). A failed assert() inside the
// library is caught by a SIGABRT handler and reported as an "aborted" line, as Snapsort does.
#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

namespace {
thread_local sigjmp_buf *guardBuf = nullptr;
void OnAbort(int) {
  if (guardBuf) { sigjmp_buf *g = guardBuf; guardBuf = nullptr; siglongjmp(*g, 1); }
  signal(SIGABRT, SIG_DFL); raise(SIGABRT);
}
std::string Hex(const std::string &s) {
  static const char *d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) { out += d[c >> 4]; out += d[c & 15]; }
  return out;
}
}

extern "C" const char *zx14_version() { return ZXING_VERSION_MAJOR == 1 ? "1.4" : "other"; }

// One result per line, tab-separated: format, error type (0 none, 1 format, 2 checksum,
// 3 unsupported), text as hex, bytes as hex, 8 position coordinates, orientation, line count,
// symbology identifier. Returns the number of bytes written, -1 when aborted, -2 on exception.
extern "C" int zx14_read(const unsigned char *gray, int w, int h, int stride, int tryHarder, int tryRotate,
                         int binarizer, int isPure, int returnErrors, int formats, int code39ext,
                         int downscale, int maxSymbols, int minLineCount, char *out, int outLen) {
  static bool installed = false;
  if (!installed) { signal(SIGABRT, OnAbort); installed = true; }
  sigjmp_buf buf;
  if (sigsetjmp(buf, 1) != 0) return -1;
  guardBuf = &buf;
  std::string text;
  try {
    ZXing::DecodeHints hints;
    hints.setTryHarder(tryHarder).setTryRotate(tryRotate).setTryDownscale(downscale).setIsPure(isPure)
        .setReturnErrors(returnErrors).setTryCode39ExtendedMode(code39ext)
        .setMaxNumberOfSymbols(maxSymbols > 0 ? maxSymbols : 1);
    if (minLineCount > 0) hints.setMinLineCount(minLineCount);
    hints.setBinarizer(binarizer == 1 ? ZXing::Binarizer::GlobalHistogram
                       : binarizer == 2 ? ZXing::Binarizer::FixedThreshold
                       : binarizer == 3 ? ZXing::Binarizer::BoolCast
                                        : ZXing::Binarizer::LocalAverage);
    if (formats) hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(formats)));
    ZXing::ImageView view(gray, w, h, ZXing::ImageFormat::Lum, stride);
    ZXing::Results results = maxSymbols > 1 ? ZXing::ReadBarcodes(view, hints)
                                            : ZXing::Results{ZXing::ReadBarcode(view, hints)};
    for (const auto &r : results) {
      if (r.format() == ZXing::BarcodeFormat::None && !r.error()) continue;
      const auto &p = r.position();
      char line[256];
      std::string bytes(r.bytes().begin(), r.bytes().end());
      text += ZXing::ToString(r.format());
      std::snprintf(line, sizeof line, "\t%d\t", static_cast<int>(r.error().type()));
      text += line;
      text += Hex(r.text()) + "\t" + Hex(bytes);
      std::snprintf(line, sizeof line, "\t%d %d %d %d %d %d %d %d\t%d\t%d\t%s\t", p[0].x, p[0].y, p[1].x,
                    p[1].y, p[2].x, p[2].y, p[3].x, p[3].y, r.orientation(), r.lineCount(),
                    r.symbologyIdentifier().c_str());
      text += line;
      text += Hex(r.error().msg()) + "\n";
    }
  } catch (...) {
    guardBuf = nullptr;
    return -2;
  }
  guardBuf = nullptr;
  int n = static_cast<int>(text.size());
  if (n >= outLen) n = outLen - 1;
  std::memcpy(out, text.data(), n);
  out[n] = 0;
  return n;
}
