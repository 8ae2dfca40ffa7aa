#!/usr/bin/env bash
# Regenerates the README's stage table from the registry (`snapsort list-stages --markdown`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build >/dev/null
table=$(.build/debug/snapsort list-stages --markdown)
python3 - "$table" <<'PY'
import re, sys
table = sys.argv[1]
text = open("README.md").read()
text = re.sub(r"<!-- stages:begin -->.*<!-- stages:end -->",
              "<!-- stages:begin -->\n" + table.rstrip() + "\n<!-- stages:end -->", text, flags=re.S)
open("README.md", "w").write(text)
PY
