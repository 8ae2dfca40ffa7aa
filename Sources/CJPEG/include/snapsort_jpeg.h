#ifndef SNAPSORT_JPEG_H
#define SNAPSORT_JPEG_H

#include <stddef.h>
#include <stdint.h>

/// Result codes. Errors from libjpeg never longjmp past this boundary.
enum {
  SNAPSORT_JPEG_OK = 0,
  SNAPSORT_JPEG_ERROR = 1,
};

/// What a decode with a given scale will produce, read from the header alone.
typedef struct {
  int source_width;
  int source_height;
  int output_width;   /* after DCT scaling by 1/scale_denom */
  int output_height;
  int output_channels; /* 1 (grey) or 3 (RGB); CMYK/YCCK come out as RGB */
  int source_colorspace; /* libjpeg's J_COLOR_SPACE of the file */
  int progressive;
} snapsort_jpeg_info;

/// Reads the header and computes the output geometry for `scale_denom` (1, 2, 4 or 8).
int snapsort_jpeg_probe(const uint8_t *data, size_t size, int scale_denom,
                        snapsort_jpeg_info *info, char *message, size_t message_size);

/// Decodes into `pixels`, which holds output_width * output_height * output_channels bytes.
/// `warnings` receives libjpeg's warning count: a truncated file can "succeed" with warnings.
/// On success with warnings, `message` holds the first warning's text.
int snapsort_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, uint8_t *pixels,
                         size_t pixels_size, int *warnings, char *message, size_t message_size);

/// Encodes 8-bit grey (1 channel), RGB (3) or CMYK (4) pixels as a baseline JPEG. The caller frees `*out` with free().
int snapsort_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, int quality,
                         int progressive, uint8_t **out, unsigned long *out_size, char *message,
                         size_t message_size);

#endif
