#include "snapsort_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

struct error_manager {
  struct jpeg_error_mgr base;
  jmp_buf escape;
  char *message;
  size_t message_size;
};

static void record_message(j_common_ptr cinfo) {
  struct error_manager *err = (struct error_manager *)cinfo->err;
  if (err->message && err->message_size > 0) {
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(err->message, err->message_size, "%s", buffer);
  }
}

static void error_exit(j_common_ptr cinfo) {
  struct error_manager *err = (struct error_manager *)cinfo->err;
  record_message(cinfo);
  longjmp(err->escape, 1);
}

/* libjpeg prints warnings to stderr by default; count them silently instead, keeping the first
   one's text (corrupt data, a premature end) for the record to name. */
static void emit_message(j_common_ptr cinfo, int msg_level) {
  if (msg_level < 0) {
    if (cinfo->err->num_warnings == 0) record_message(cinfo);
    cinfo->err->num_warnings++;
  }
}

static void output_silently(j_common_ptr cinfo) { (void)cinfo; }

static void install_errors(struct jpeg_decompress_struct *cinfo, struct error_manager *err,
                           char *message, size_t message_size) {
  cinfo->err = jpeg_std_error(&err->base);
  err->base.error_exit = error_exit;
  err->base.emit_message = emit_message;
  err->base.output_message = output_silently;
  err->message = message;
  err->message_size = message_size;
  if (message && message_size) message[0] = 0;
}

static void configure_output(struct jpeg_decompress_struct *cinfo, int scale_denom) {
  cinfo->scale_num = 1;
  cinfo->scale_denom = (unsigned int)(scale_denom > 0 ? scale_denom : 1);
  cinfo->dct_method = JDCT_ISLOW;
  switch (cinfo->jpeg_color_space) {
  case JCS_GRAYSCALE:
    cinfo->out_color_space = JCS_GRAYSCALE;
    break;
  case JCS_CMYK:
  case JCS_YCCK:
    cinfo->out_color_space = JCS_CMYK;
    break;
  default:
    cinfo->out_color_space = JCS_RGB;
    break;
  }
}

/* Called after setjmp: a libjpeg error longjmps back to the caller's handler. */
static void read_header(struct jpeg_decompress_struct *cinfo, const uint8_t *data, size_t size,
                        int scale_denom) {
  jpeg_create_decompress(cinfo);
  jpeg_mem_src(cinfo, data, (unsigned long)size);
  jpeg_read_header(cinfo, TRUE);
  configure_output(cinfo, scale_denom);
}

int snapsort_jpeg_probe(const uint8_t *data, size_t size, int scale_denom,
                        snapsort_jpeg_info *info, char *message, size_t message_size) {
  struct jpeg_decompress_struct cinfo;
  struct error_manager err;
  install_errors(&cinfo, &err, message, message_size);
  if (setjmp(err.escape)) {
    jpeg_destroy_decompress(&cinfo);
    return SNAPSORT_JPEG_ERROR;
  }
  read_header(&cinfo, data, size, scale_denom);
  jpeg_calc_output_dimensions(&cinfo);
  info->source_width = (int)cinfo.image_width;
  info->source_height = (int)cinfo.image_height;
  info->output_width = (int)cinfo.output_width;
  info->output_height = (int)cinfo.output_height;
  info->output_channels = cinfo.out_color_space == JCS_GRAYSCALE ? 1 : 3;
  info->source_colorspace = (int)cinfo.jpeg_color_space;
  info->progressive = cinfo.progressive_mode ? 1 : 0;
  jpeg_destroy_decompress(&cinfo);
  return SNAPSORT_JPEG_OK;
}

int snapsort_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, uint8_t *pixels,
                         size_t pixels_size, int *warnings, char *message, size_t message_size) {
  struct jpeg_decompress_struct cinfo;
  struct error_manager err;
  /* volatile: assigned after setjmp and freed on the longjmp path. */
  JSAMPLE *volatile cmyk_row = NULL;
  install_errors(&cinfo, &err, message, message_size);
  if (setjmp(err.escape)) {
    free(cmyk_row);
    jpeg_destroy_decompress(&cinfo);
    return SNAPSORT_JPEG_ERROR;
  }
  read_header(&cinfo, data, size, scale_denom);
  jpeg_start_decompress(&cinfo);

  int is_cmyk = cinfo.out_color_space == JCS_CMYK;
  int channels = cinfo.out_color_space == JCS_GRAYSCALE ? 1 : 3;
  size_t stride = (size_t)cinfo.output_width * (size_t)channels;
  if (stride * cinfo.output_height > pixels_size) {
    snprintf(message, message_size, "output buffer too small");
    jpeg_destroy_decompress(&cinfo);
    return SNAPSORT_JPEG_ERROR;
  }
  if (is_cmyk) {
    cmyk_row = malloc((size_t)cinfo.output_width * 4);
    if (!cmyk_row) {
      snprintf(message, message_size, "out of memory");
      jpeg_destroy_decompress(&cinfo);
      return SNAPSORT_JPEG_ERROR;
    }
  }
  /* Adobe writes CMYK inverted (0 = full ink); other writers do not. */
  int inverted = cinfo.saw_Adobe_marker;
  while (cinfo.output_scanline < cinfo.output_height) {
    uint8_t *row = pixels + stride * cinfo.output_scanline;
    if (is_cmyk) {
      JSAMPROW rows[1] = {cmyk_row};
      jpeg_read_scanlines(&cinfo, rows, 1);
      for (JDIMENSION x = 0; x < cinfo.output_width; x++) {
        int c = cmyk_row[4 * x], m = cmyk_row[4 * x + 1], y = cmyk_row[4 * x + 2],
            k = cmyk_row[4 * x + 3];
        if (!inverted) {
          c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        row[3 * x] = (uint8_t)((c * k + 127) / 255);
        row[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        row[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
      }
    } else {
      JSAMPROW rows[1] = {row};
      jpeg_read_scanlines(&cinfo, rows, 1);
    }
  }
  if (warnings) *warnings = (int)cinfo.err->num_warnings;
  jpeg_finish_decompress(&cinfo);
  free(cmyk_row);
  jpeg_destroy_decompress(&cinfo);
  return SNAPSORT_JPEG_OK;
}

int snapsort_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, int quality,
                         int progressive, uint8_t **out, unsigned long *out_size, char *message,
                         size_t message_size) {
  struct jpeg_compress_struct cinfo;
  struct error_manager err;
  cinfo.err = jpeg_std_error(&err.base);
  err.base.error_exit = error_exit;
  err.base.output_message = output_silently;
  err.message = message;
  err.message_size = message_size;
  *out = NULL;
  *out_size = 0;
  if (setjmp(err.escape)) {
    jpeg_destroy_compress(&cinfo);
    free(*out);
    *out = NULL;
    return SNAPSORT_JPEG_ERROR;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, out, out_size);
  cinfo.image_width = (JDIMENSION)width;
  cinfo.image_height = (JDIMENSION)height;
  cinfo.input_components = channels;
  cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : (channels == 4 ? JCS_CMYK : JCS_RGB);
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  if (progressive) jpeg_simple_progression(&cinfo);
  jpeg_start_compress(&cinfo, TRUE);
  size_t stride = (size_t)width * (size_t)channels;
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW rows[1] = {(JSAMPROW)(pixels + stride * cinfo.next_scanline)};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return SNAPSORT_JPEG_OK;
}
