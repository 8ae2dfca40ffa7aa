#ifndef SNAPSORT_ZXING_H
#define SNAPSORT_ZXING_H

/* A C interface to zxing-cpp 1.4 (Debian's libzxing-dev ships only its C++ API). Grey pixels
 * in, a heap-allocated result list out, freed by snapsort_zxing_free. No input aborts the
 * process: sizes are checked first, C++ exceptions are caught, and a failed assertion inside
 * the library (1.4 is built with assertions on) is caught on the calling thread and reported as
 * SNAPSORT_ZXING_ABORTED. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  SNAPSORT_ZXING_OK = 0,
  SNAPSORT_ZXING_INVALID_INPUT = 1,
  SNAPSORT_ZXING_EXCEPTION = 2,
  SNAPSORT_ZXING_ABORTED = 3,
  SNAPSORT_ZXING_OUT_OF_MEMORY = 4,
};

/* The library's binarisers (ZXing::Binarizer). */
enum {
  SNAPSORT_ZXING_LOCAL_AVERAGE = 0,
  SNAPSORT_ZXING_GLOBAL_HISTOGRAM = 1,
  SNAPSORT_ZXING_FIXED_THRESHOLD = 2,
};

typedef struct snapsort_zxing_options {
  /* ZXing::BarcodeFormat bits; 0 means every format the library reads. */
  uint32_t formats;
  int try_harder;
  int try_rotate;
  int try_downscale;
  int is_pure;
  int binarizer;
  /* Use ReadBarcodes (several codes per call). 1.4's ReadBarcodes fails an assertion on some
   * images; the guard turns that into SNAPSORT_ZXING_ABORTED, but ReadBarcode is the safe
   * default. */
  int multiple;
} snapsort_zxing_options;

typedef struct snapsort_zxing_symbol {
  /* One ZXing::BarcodeFormat bit. */
  uint32_t format;
  /* The decoded text as UTF-8 (character sets and ECI applied), NUL-terminated. */
  char *text;
  size_t text_length;
  /* The payload's bytes before any character-set conversion. */
  uint8_t *bytes;
  size_t bytes_length;
  /* ZXing::ContentType: 0 text, 1 binary, 2 mixed, 3 GS1, 4 ISO 15434, 5 unknown ECI. */
  int content_type;
  /* Corners x0 y0 … x3 y3 in the input's pixels: top-left, top-right, bottom-right, bottom-left
   * of the symbol as read. */
  int points[8];
  /* The ISO symbology identifier, e.g. "]E0". */
  char symbology_identifier[8];
  int line_count;
} snapsort_zxing_symbol;

typedef struct snapsort_zxing_results {
  int status;
  /* A message for a status other than OK, NUL-terminated. */
  char message[160];
  int count;
  snapsort_zxing_symbol *symbols;
} snapsort_zxing_results;

/* Reads barcodes from an 8-bit grey image of width × height pixels whose rows are row_stride
 * bytes apart. Always returns a list (NULL only when even that allocation fails); free it with
 * snapsort_zxing_free. */
snapsort_zxing_results *snapsort_zxing_read(
    const uint8_t *gray, int width, int height, int row_stride, const snapsort_zxing_options *options);

void snapsort_zxing_free(snapsort_zxing_results *results);

/* Calls abort() under the same guard as snapsort_zxing_read, so that tests can prove the guard
 * turns an abort into SNAPSORT_ZXING_ABORTED on any thread. Freed by snapsort_zxing_free. */
snapsort_zxing_results *snapsort_zxing_abort_for_testing(void);

/* The library's version, "1.4.0". */
const char *snapsort_zxing_version(void);

#ifdef __cplusplus
}
#endif

#endif
