#!/usr/bin/env bash
# Installs the Debian packages snapsort needs, only when something is missing, so a second call
# is instant: a pkg-config module, a tesseract language pack a config names, or a tool.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
need_module() { pkg-config --exists "$1" 2>/dev/null || packages+=("$2"); }

command -v pkg-config >/dev/null 2>&1 || packages+=(pkg-config)
need_module libjpeg libjpeg-dev
need_module libpng libpng-dev
need_module libwebp libwebp-dev
need_module libheif libheif-dev
need_module zbar libzbar-dev
need_module tesseract libtesseract-dev
need_module lept libleptonica-dev
need_module zxing libzxing-dev
need_module sqlite3 libsqlite3-dev
# libheif decodes HEVC through this plugin library; without it HEIC photos fail to decode.
[ -e /usr/lib/x86_64-linux-gnu/libde265.so.0 ] || [ -n "$(ls /usr/lib/*/libde265.so.0 2>/dev/null)" ] || packages+=(libde265-0)

tessdata=/usr/share/tesseract-ocr/5/tessdata
# Languages named by pipeline.json and the presets ("languages": "eng+pol+deu", "name_languages":
# "Latin", "cyrillic_languages": "rus,ukr"), plus the defaults of the ocr stage: eng, the Latin
# script model, and the Russian and Ukrainian packs.
languages=$( (echo eng; echo Latin; echo rus; echo ukr
  (grep -ho '"\(name_\|cyrillic_\)\{0,1\}languages"[[:space:]]*:[[:space:]]*"[^"]*"' pipeline.json presets/*.json 2>/dev/null || true) \
  | sed 's/.*:[[:space:]]*"\([^"]*\)"/\1/' | tr '+,' '\n\n') | sort -u)
for lang in $languages; do
  [ -f "$tessdata/$lang.traineddata" ] && continue
  # Script models (capitalised, e.g. Latin) ship as tesseract-ocr-script-<ISO 15924 code>.
  case "$lang" in
    Latin) packages+=(tesseract-ocr-script-latn) ;;
    Cyrillic) packages+=(tesseract-ocr-script-cyrl) ;;
    Greek) packages+=(tesseract-ocr-script-grek) ;;
    *) packages+=("tesseract-ocr-$(echo "$lang" | tr '_' '-' | tr 'A-Z' 'a-z')") ;;
  esac
done

for extra in "$@"; do
  case "$extra" in
    chromium) command -v chromium >/dev/null 2>&1 || packages+=(chromium) ;;
    *) dpkg-query -W -f='${Status}' "$extra" 2>/dev/null | grep -q 'ok installed' || packages+=("$extra") ;;
  esac
done

if [ ${#packages[@]} -gt 0 ]; then
  echo "ensure-deps: installing ${packages[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
