#!/usr/bin/env bash
# Re-runs the barcode miss analysis behind bench/barcodes/FINDINGS.md and writes results/*.md.
# Needs: Debian libzxing-dev (1.4) + g++ (zx14.cpp is compiled on first use), libzbar0, libdmtx0b
# (apt-get install libdmtx0b libdmtx-dev dmtx-utils), a Python venv with bench/requirements.txt,
# the records of the snapsort binary under test in $SNAP_RECORDS (barcodes-screenshots.records.jsonl,
# barcodes-default.records.jsonl; default /work/snap/before) and the data in $BARCODE_DATA
# (default /work/shared/data/barcodes). About 10 minutes on one core; run_preps.py is most of it.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PY:-../../.venv/bin/python}
if [ ! -x "$PY" ]; then
  python3 -m venv ../../.venv
  ../../.venv/bin/pip install -q -r ../../requirements.txt
fi
mkdir -p results
"$PY" analyse_misses.py > results/analyse_misses.log
"$PY" run_preps.py > results/run_preps.log
"$PY" tables.py > results/tables.md
"$PY" simulate.py > results/simulate.md
"$PY" confirm.py > results/confirm.log
"$PY" confirm_summary.py > results/confirm_summary.md
"$PY" extra_checks.py > results/extra.md
if "$PY" -c 'import pylibdmtx.pylibdmtx' 2>/dev/null; then
  "$PY" dmtx.py > results/dmtx.log
  "$PY" dmtx_summary.py > results/dmtx.md
fi
"$PY" code39_vectors.py > results/code39_vectors.md
gzip -kf results/preps.jsonl
echo "results in $(pwd)/results"
