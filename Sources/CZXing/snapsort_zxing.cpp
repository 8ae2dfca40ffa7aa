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
#include <mutex>

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

bool Append(snapsort_zxing_results *results, const ZXing::Result &result) {
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
    symbol.points[2 * i] = position[i].x;
    symbol.points[2 * i + 1] = position[i].y;
  }
  std::snprintf(symbol.symbology_identifier, sizeof symbol.symbology_identifier, "%s",
                result.symbologyIdentifier().c_str());
  symbol.line_count = result.lineCount();
  results->count += 1;
  return true;
}

void Decode(snapsort_zxing_results *results, const uint8_t *gray, int width, int height, int rowStride,
            const snapsort_zxing_options &options) {
  try {
    ZXing::ImageView view(gray, width, height, ZXing::ImageFormat::Lum, rowStride);
    ZXing::DecodeHints hints;
    hints.setTryHarder(options.try_harder != 0)
        .setTryRotate(options.try_rotate != 0)
        .setTryDownscale(options.try_downscale != 0)
        .setIsPure(options.is_pure != 0);
    switch (options.binarizer) {
    case SNAPSORT_ZXING_GLOBAL_HISTOGRAM: hints.setBinarizer(ZXing::Binarizer::GlobalHistogram); break;
    case SNAPSORT_ZXING_FIXED_THRESHOLD: hints.setBinarizer(ZXing::Binarizer::FixedThreshold); break;
    default: hints.setBinarizer(ZXing::Binarizer::LocalAverage); break;
    }
    if (options.formats != 0) {
      hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(options.formats)));
    }
    if (options.multiple) {
      for (const ZXing::Result &result : ZXing::ReadBarcodes(view, hints)) {
        if (!Append(results, result)) return SetMessage(results, SNAPSORT_ZXING_OUT_OF_MEMORY, "out of memory");
      }
    } else if (!Append(results, ZXing::ReadBarcode(view, hints))) {
      SetMessage(results, SNAPSORT_ZXING_OUT_OF_MEMORY, "out of memory");
    }
  } catch (const std::exception &error) {
    SetMessage(results, SNAPSORT_ZXING_EXCEPTION, error.what());
  } catch (...) {
    SetMessage(results, SNAPSORT_ZXING_EXCEPTION, "zxing-cpp threw an unknown exception");
  }
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
  std::call_once(installOnce, InstallAbortHandler);
  sigjmp_buf guard;
  if (sigsetjmp(guard, 1) != 0) {
    // Whatever the library had allocated in the abandoned frames is leaked; that is the price of
    // keeping the process (and every other photo of the run) alive.
    SetMessage(results, SNAPSORT_ZXING_ABORTED, "zxing-cpp failed an internal assertion");
    return results;
  }
  activeGuard = &guard;
  Decode(results, gray, width, height, row_stride, *options);
  activeGuard = nullptr;
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
