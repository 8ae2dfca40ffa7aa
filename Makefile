# The README's two commands: `make run` and `make test`. Both install missing Debian packages
# first (only when a pkg-config module or tessdata file is missing).
SWIFT ?= swift
OUT ?= out
JOBS ?= $(shell nproc)
export OMP_THREAD_LIMIT = 1

.PHONY: deps build release run test test-cluster test-sanitize fuzz samples bench format lint clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## Runs the default pipeline over samples/ into out/.
run: release
	.build/release/snapsort run samples --out $(OUT) --fresh --jobs $(JOBS); status=$$?; \
	echo "records: $(OUT)/records.jsonl   report: $(OUT)/report.html   store: $(OUT)/snapsort.sqlite   summary: $(OUT)/run.json   crops: $(OUT)/cards/"; \
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

## The runner under ThreadSanitizer, the C wrappers (loaders, zbar, zxing, tesseract, the CLI end to
## end on hostile input) under AddressSanitizer, then the AddressSanitizer build of snapsort over
## samples/ with LeakSanitizer (every stage's C handles). The test process itself skips the leak check
## at exit (Tests/TestSanitizerOptions says why); the snapsort processes it starts keep it. Each
## sanitizer builds the package anew in its own folder.
TSAN_TESTS = RunnerTests|ScaleTests|SamplesGoldenTests
ASAN_TESTS = LoadStageTests|ResizeTests|FuzzRegressionTests|FuzzSmokeTests|OCRStageTests|BarcodeDatasetTests|ZXingReaderTests|HostileCorpusTests|SamplesGoldenTests
test-sanitize: deps
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 GOLDEN_SECONDS_PER_IMAGE=900 $(SWIFT) test --skip-build -c release -Xswiftc -enable-testing --sanitize=thread \
	  --scratch-path .build-tsan --filter '$(TSAN_TESTS)'
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing --sanitize=address --scratch-path .build-asan
	GOLDEN_SECONDS_PER_IMAGE=900 ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp \
	  $(SWIFT) test --skip-build -c release -Xswiftc -enable-testing --sanitize=address \
	  --scratch-path .build-asan --filter '$(ASAN_TESTS)'
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp \
	  .build-asan/release/snapsort run samples --out .build-asan/samples-out --fresh --quiet --jobs 2; \
	  status=$$?; [ $$status -le 1 ] || { echo "test-sanitize: snapsort over samples/ exited $$status" >&2; exit 1; }

## libFuzzer on each loader, the config parser and the pixel decoders (zbar, zxing, tesseract) for
## FUZZ_SECONDS each (default 60), or for FUZZ_CPU_SECONDS of CPU time each (the soak:
## FUZZ_CPU_SECONDS=3600, an hour per target even on a busy machine); kept crashes land in
## Fuzz/regressions/ and are replayed by make test, which also mutation-fuzzes every target briefly.
fuzz: deps
	scripts/fuzz.sh

## Re-renders samples/ from scripts/render_samples.py (needs Python with Pillow; a dev tool).
samples:
	python3 -m pip install --quiet --disable-pip-version-check pillow numpy
	python3 scripts/render_samples.py

bench: release
	bench/run.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Fuzz/Package.swift Fuzz/Sources Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Fuzz/Package.swift Fuzz/Sources Package.swift

clean:
	rm -rf .build .build-test .build-tsan .build-asan .build-fuzz $(OUT)
