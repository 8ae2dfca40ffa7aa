# The README's two commands: `make run` and `make test`. Both install missing Debian packages
# first (only when a pkg-config module or tessdata file is missing).
SWIFT ?= swift
OUT ?= out
JOBS ?= $(shell nproc)
export OMP_THREAD_LIMIT = 1

.PHONY: deps build release run test test-cluster samples bench format lint clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## Runs the default pipeline over samples/ into out/.
run: release
	.build/release/snapsort run samples --out $(OUT) --jobs $(JOBS); status=$$?; \
	echo "records: $(OUT)/records.jsonl   summary: $(OUT)/run.json   crops: $(OUT)/cards/"; \
	[ $$status -le 1 ] || exit $$status

## Runs the whole test suite (unit, golden over samples/, CLI end to end). Optimised build: the
## stages are pixel loops that run 10-50x slower unoptimised; -enable-testing keeps @testable.
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test
test: deps
	@scripts/ensure-deps.sh chromium  # the report test renders report.html in headless Chromium
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	$(SWIFT) test --skip-build $(TEST_FLAGS)

## A real single-node Slurm cluster runs samples/ as 4 array shards; merged == single run.
test-cluster: release
	scripts/test-cluster.sh

## Re-renders samples/ from scripts/render_samples.py (needs Python with Pillow; a dev tool).
samples:
	python3 -m pip install --quiet --disable-pip-version-check pillow numpy
	python3 scripts/render_samples.py

bench: release
	bench/run.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build .build-test $(OUT)
