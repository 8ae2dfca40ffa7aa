// The C boundary around zxing-cpp 1.4. Nothing thrown or asserted inside the library may cross
// it: exceptions are caught here, and a failed assert() (which calls abort()) is turned back
// into a return value by a SIGABRT handler that jumps back to the call on the same thread.

#include "snapsort_zxing.h"

#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <algorithm>
#include <climits>
#include <mutex>
#include <vector>

namespace {

// The jump target of the read in progress on this thread, or null outside a read. A plain
// pointer, so the handler's access needs no TLS constructor.
thread_local sigjmp_buf *activeGuard = nullptr;
struct sigaction previousAction;
std::once_flag installOnce;

void HandleAbort(int signal, siginfo_t *info, void *context) {
  if (sigjmp_buf *guard = activeGuard) {
    activeGuard = nullptr;
    // glibc's abort() releases its lock and resets its stage before raising, precisely so that
    // a handler may leave by longjmp and abort() may be called again later.
    siglongjmp(*guard, 1);
  }
  // Not raised inside a read: give it to whoever handled SIGABRT before (the Swift runtime's
  // backtracer, or nobody); abort() then restores the default action and raises again.
  if (previousAction.sa_flags & SA_SIGINFO) {
    if (previousAction.sa_sigaction != nullptr) previousAction.sa_sigaction(signal, info, context);
  } else if (previousAction.sa_handler != SIG_DFL && previousAction.sa_handler != SIG_IGN) {
    previousAction.sa_handler(signal);
  }
}

void InstallAbortHandler() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = HandleAbort;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previousAction);
}

void SetMessage(snapsort_zxing_results *results, int status, const char *message) {
  results->status = status;
  std::snprintf(results->message, sizeof results->message, "%s", message);
}

bool Append(snapsort_zxing_results *results, const ZXing::Result &result, int scale) {
  if (!result.isValid()) return true;
  auto *grown = static_cast<snapsort_zxing_symbol *>(
      std::realloc(results->symbols, sizeof(snapsort_zxing_symbol) * (results->count + 1)));
  if (grown == nullptr) return false;
  results->symbols = grown;
  snapsort_zxing_symbol &symbol = grown[results->count];
  std::memset(&symbol, 0, sizeof symbol);

  const std::string text = result.text();
  const ZXing::ByteArray &bytes = result.bytes();
  symbol.text = static_cast<char *>(std::malloc(text.size() + 1));
  symbol.bytes = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
  if (symbol.text == nullptr || symbol.bytes == nullptr) {
    std::free(symbol.text);
    std::free(symbol.bytes);
    return false;
  }
  std::memcpy(symbol.text, text.data(), text.size());
  symbol.text[text.size()] = '\0';
  symbol.text_length = text.size();
  if (!bytes.empty()) std::memcpy(symbol.bytes, bytes.data(), bytes.size());
  symbol.bytes_length = bytes.size();
  symbol.format = static_cast<uint32_t>(result.format());
  symbol.content_type = static_cast<int>(result.contentType());
  const ZXing::Position &position = result.position();
  for (int i = 0; i < 4; ++i) {
    symbol.points[2 * i] = position[i].x * scale;
    symbol.points[2 * i + 1] = position[i].y * scale;
  }
  std::snprintf(symbol.symbology_identifier, sizeof symbol.symbology_identifier, "%s",
                result.symbologyIdentifier().c_str());
  symbol.line_count = result.lineCount();
  results->count += 1;
  return true;
}

// zxing 1.4's own downscaling (`tryDownscale`) merges the results of its layers with
// `Result::operator==`, which asserts `lineCount() == 1` and so aborts whenever a linear code
// read on several rows of one layer is found again on the next (code128-1/4.png in zxing's own
// test images). The pyramid is therefore built here, as the library builds it (layers averaged
// over factor × factor blocks while the longer side exceeds the threshold), and results are
// merged by format and bytes: no library code asserts, and no abort leaves its frames leaked.
struct Layer {
  std::vector<uint8_t> pixels;
  int width = 0, height = 0, factor = 1;
};

Layer Downscale(const uint8_t *gray, int width, int height, int rowStride, int factor, int totalFactor) {
  Layer layer;
  layer.width = width / factor;
  layer.height = height / factor;
  layer.factor = totalFactor;
  layer.pixels.resize(static_cast<size_t>(layer.width) * layer.height);
  const int area = factor * factor;
  for (int y = 0; y < layer.height; ++y) {
    for (int x = 0; x < layer.width; ++x) {
      int sum = 0;
      for (int dy = 0; dy < factor; ++dy) {
        const uint8_t *row = gray + static_cast<size_t>(y * factor + dy) * rowStride + x * factor;
        for (int dx = 0; dx < factor; ++dx) sum += row[dx];
      }
      layer.pixels[static_cast<size_t>(y) * layer.width + x] = static_cast<uint8_t>((sum + area / 2) / area);
    }
  }
  return layer;
}

bool AlreadyFound(const snapsort_zxing_results *results, const ZXing::Result &result) {
  const ZXing::ByteArray &bytes = result.bytes();
  const std::string text = result.text();
  for (int i = 0; i < results->count; ++i) {
    const snapsort_zxing_symbol &symbol = results->symbols[i];
    if (symbol.format != static_cast<uint32_t>(result.format())) continue;
    if (symbol.bytes_length == bytes.size() && std::memcmp(symbol.bytes, bytes.data(), bytes.size()) == 0 &&
        symbol.text_length == text.size() && std::memcmp(symbol.text, text.data(), text.size()) == 0)
      return true;
  }
  return false;
}

void Decode(snapsort_zxing_results *results, const uint8_t *gray, int width, int height, int rowStride,
            const snapsort_zxing_options &options) {
  try {
    ZXing::DecodeHints hints;
    hints.setTryHarder(options.try_harder != 0)
        .setTryRotate(options.try_rotate != 0)
        .setTryDownscale(false)
        .setIsPure(options.is_pure != 0);
    switch (options.binarizer) {
    case SNAPSORT_ZXING_GLOBAL_HISTOGRAM: hints.setBinarizer(ZXing::Binarizer::GlobalHistogram); break;
    case SNAPSORT_ZXING_FIXED_THRESHOLD: hints.setBinarizer(ZXing::Binarizer::FixedThreshold); break;
    default: hints.setBinarizer(ZXing::Binarizer::LocalAverage); break;
    }
    if (options.formats != 0) {
      hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(options.formats)));
    }
    const int threshold = hints.downscaleThreshold(), factor = hints.downscaleFactor();
    const bool downscale = options.try_downscale != 0 && !hints.isPure();
    const int wanted = options.multiple ? INT_MAX : 1;

    Layer current;  // empty for the full-resolution layer, which is read in place
    const uint8_t *pixels = gray;
    int layerWidth = width, layerHeight = height, stride = rowStride, scale = 1;
    while (true) {
      ZXing::ImageView view(pixels, layerWidth, layerHeight, ZXing::ImageFormat::Lum, stride);
      const ZXing::Results found =
          options.multiple ? ZXing::ReadBarcodes(view, hints) : ZXing::Results{ZXing::ReadBarcode(view, hints)};
      for (const ZXing::Result &result : found) {
        if (!result.isValid() || AlreadyFound(results, result)) continue;
        if (!Append(results, result, scale)) return SetMessage(results, SNAPSORT_ZXING_OUT_OF_MEMORY, "out of memory");
        if (results->count >= wanted) return;
      }
      if (!downscale || std::max(layerWidth, layerHeight) <= threshold || std::min(layerWidth, layerHeight) < factor)
        return;
      current = Downscale(pixels, layerWidth, layerHeight, stride, factor, scale * factor);
      pixels = current.pixels.data();
      layerWidth = current.width;
      layerHeight = current.height;
      stride = current.width;
      scale = current.factor;
    }
  } catch (const std::exception &error) {
    SetMessage(results, SNAPSORT_ZXING_EXCEPTION, error.what());
  } catch (...) {
    SetMessage(results, SNAPSORT_ZXING_EXCEPTION, "zxing-cpp threw an unknown exception");
  }
}

// Runs `body` so that an abort() inside it (a failed assert in the library) returns here with
// SNAPSORT_ZXING_ABORTED instead of ending the process. Whatever the abandoned frames had
// allocated is leaked: the price of keeping every other photo of the run alive. No input is known
// to reach this any more (see Decode); it stays as the net under the next unknown assert.
template <typename Body>
void RunGuarded(snapsort_zxing_results *results, Body body) {
  std::call_once(installOnce, InstallAbortHandler);
  sigjmp_buf guard;
  if (sigsetjmp(guard, 1) != 0) {
    SetMessage(results, SNAPSORT_ZXING_ABORTED, "zxing-cpp failed an internal assertion");
    return;
  }
  activeGuard = &guard;
  body();
  activeGuard = nullptr;
}

}  // namespace

extern "C" snapsort_zxing_results *snapsort_zxing_read(
    const uint8_t *gray, int width, int height, int row_stride, const snapsort_zxing_options *options) {
  auto *results = static_cast<snapsort_zxing_results *>(std::calloc(1, sizeof(snapsort_zxing_results)));
  if (results == nullptr) return nullptr;
  // zxing 1.4 keeps pattern widths in 16 bits for linear codes: larger images throw or overflow.
  if (gray == nullptr || options == nullptr || width < 1 || height < 1 || width > 65535 || height > 65535 ||
      row_stride < width) {
    SetMessage(results, SNAPSORT_ZXING_INVALID_INPUT, "image must be 1…65535 pixels a side with row_stride ≥ width");
    return results;
  }
  RunGuarded(results, [&] { Decode(results, gray, width, height, row_stride, *options); });
  return results;
}

extern "C" snapsort_zxing_results *snapsort_zxing_abort_for_testing(void) {
  auto *results = static_cast<snapsort_zxing_results *>(std::calloc(1, sizeof(snapsort_zxing_results)));
  if (results == nullptr) return nullptr;
  RunGuarded(results, [] { std::abort(); });
  return results;
}

extern "C" void snapsort_zxing_free(snapsort_zxing_results *results) {
  if (results == nullptr) return;
  for (int i = 0; i < results->count; ++i) {
    std::free(results->symbols[i].text);
    std::free(results->symbols[i].bytes);
  }
  std::free(results->symbols);
  std::free(results);
}

#define SNAPSORT_STRING(x) #x
#define SNAPSORT_EXPAND(x) SNAPSORT_STRING(x)

extern "C" const char *snapsort_zxing_version(void) {
  return SNAPSORT_EXPAND(ZXING_VERSION_MAJOR) "." SNAPSORT_EXPAND(ZXING_VERSION_MINOR) "." SNAPSORT_EXPAND(
      ZXING_VERSION_PATCH);
}
