/* Reads many small PGM crops with one tesseract engine (eng, page segmentation 7), so a line
 * height sweep does not pay a process start per crop. Input on stdin, one crop a line:
 * "N path" (no whitelist) or "W path" (digits and punctuation only). Output: one line of text
 * per crop, in order, tab-separated from the mean word confidence.
 * Build: cc read_crops.c $(pkg-config --cflags --libs tesseract lept) -o read_crops */
#include <leptonica/allheaders.h>
#include <stdio.h>
#include <string.h>
#include <tesseract/capi.h>

int main(void) {
  TessBaseAPI *api = TessBaseAPICreate();
  if (TessBaseAPIInit3(api, "/usr/share/tesseract-ocr/5/tessdata", "eng") != 0) return 1;
  TessBaseAPISetVariable(api, "load_system_dawg", "0");
  TessBaseAPISetVariable(api, "debug_file", "/dev/null");
  char line[4096];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    if (strlen(line) < 3) continue;
    TessBaseAPISetVariable(api, "tessedit_char_whitelist", line[0] == 'W' ? "0123456789.,-/:" : "");
    PIX *pix = pixRead(line + 2);
    if (!pix) { printf("\t0\n"); fflush(stdout); continue; }
    TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE);
    TessBaseAPISetImage2(api, pix);
    TessBaseAPISetSourceResolution(api, 300);
    char *text = TessBaseAPIGetUTF8Text(api);
    int conf = TessBaseAPIMeanTextConf(api);
    for (char *c = text; c && *c; c++) if (*c == '\n' || *c == '\t') *c = ' ';
    printf("%s\t%d\n", text ? text : "", conf);
    fflush(stdout);
    TessDeleteText(text);
    TessBaseAPIClear(api);
    pixDestroy(&pix);
  }
  TessBaseAPIEnd(api);
  TessBaseAPIDelete(api);
  return 0;
}
