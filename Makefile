# The two commands of README.md:
#   make demo   install what is missing, build, run `build/taco demo`
#   make test   install what is missing, build, run every test
# Other targets: make (build), make test-asan (Debug + ASan/UBSan build in build-asan/, tests),
# make install PREFIX=/opt/taco (the C library libtaco, docs/c.md), make bench (benchmarks),
# make docs-screenshots (pages of `taco publish` and the explorer in Chromium), make clean,
# make peers-venv (the pinned upstream tools in .venv-peers/, once), make bench-peers (taco-cpp
# side by side with them: build/bench/peers.md and peers.png).
# `make` also builds the taco_cpp Python extension (python/, same CMake tree as the library) and
# points the project venv .venv/ at it with a .pth file, so `.venv/bin/python -c "import
# taco_cpp"` works; `make test` runs its pytest suite through ctest (test python_pytest).
# make fuzz (clang + libFuzzer build in build-fuzz/, every target FUZZ_SECONDS seconds),
# make test-tsan (ThreadSanitizer build in build-tsan/, the thread stress tests),
# make wheel (dist/taco_cpp-*.whl from the built module, libduckdb and GDAL bundled by auditwheel;
# no second compile; `make test` builds it for its clean-venv install test, ctest python_wheel),
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
CMAKE_FLAGS ?=
VENV_PYTHON := .venv/bin/python

PREFIX ?= /usr/local

.PHONY: all build deps demo test install wheel test-asan test-tsan fuzz fuzz-deps bench clean docs-screenshots peers-venv bench-peers fixtures format format-check lint

all: build

deps:
	@bash scripts/bootstrap.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)
	@if [ -x $(VENV_PYTHON) ] && [ -d $(BUILD)/python/taco_cpp ]; then \
	  site="$$($(VENV_PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" && \
	  echo "$(abspath $(BUILD))/python" > "$$site/taco_cpp_build.pth"; \
	fi

wheel: build
	bash scripts/make_wheel.sh $(BUILD)

demo: build
	$(BUILD)/taco demo

# The C ABI (capi/, docs/c.md): libtaco.so.1 + libduckdb.so, include/taco/taco.h, taco.pc and
# the CMake package (find_package(taco) -> taco::taco) under $(PREFIX).
install: build
	cmake --install $(BUILD) --component capi --prefix $(PREFIX)

# The interoperability matrix (tests/interop, ctest test interop_matrix) needs .venv-peers/;
# TACO_REQUIRE_PEERS makes it fail rather than skip when the venv is missing.
test: build peers-venv wheel
	cd $(BUILD) && TACO_REQUIRE_PEERS=1 ctest --output-on-failure -j $(JOBS)

peers-venv:
	@bash scripts/peers_venv.sh

# The upstream fixtures in $(BUILD)/fixtures/upstream, written by the pinned tacotoolbox (ctest
# writes them too, as its first step: test upstream_fixtures). Needed by make bench and
# docs-screenshots.
fixtures: peers-venv
	@bash scripts/upstream_fixtures.sh $(BUILD)/fixtures/upstream

bench-peers: build peers-venv
	.venv-peers/bin/python bench/peers/peers_bench.py --build $(BUILD) --out $(BUILD)/bench

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTACO_SANITIZE=ON -DTACO_BUILD_BENCH=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

$(TSAN_BUILD)/build.ninja:
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTACO_TSAN=ON -DTACO_BUILD_BENCH=OFF \
	  -DTACO_FUZZ_REPLAY=OFF $(CMAKE_FLAGS)

# The thread stress tests (tests/remote/thread_stress_test.cc: 8 threads on one Dataset, ZIP
# and FOLDER, local and through nginx; tests/create/ext_threads_cli_test.cc: create --ext on
# 1-3 threads; tests/util: OrderedParallel) under ThreadSanitizer. A skipped test fails the run.
test-tsan: deps $(TSAN_BUILD)/build.ninja
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target taco_cli test_remote test_create test_util
	cd $(TSAN_BUILD) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  ctest --output-on-failure -R 'ThreadStress|OrderedParallel' -j 1 > ctest-tsan.log 2>&1; rc=$$?; cat ctest-tsan.log; \
	  test $$rc -eq 0 && ! grep -q 'Skipped' ctest-tsan.log

$(FUZZ_BUILD)/build.ninja:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTACO_FUZZ=ON \
	  -DTACO_BUILD_TESTS=OFF -DTACO_BUILD_BENCH=OFF $(CMAKE_FLAGS)

fuzz-deps:
	@bash scripts/bootstrap.sh --fuzz

fuzz: fuzz-deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_all
	bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# C++ formatting (.clang-format, clang-format 14 from Debian): format-check lists the files that
# differ, format rewrites them. lint: ruff over the Python layer and the layer include check.
format-check:
	@bash scripts/format-check

format:
	@bash scripts/format-check --fix

lint: deps
	.venv/bin/python -m ruff check
	python3 scripts/check_layers.py

# Every benchmark's output also goes to $(BUILD)/bench/speed.log; bench/speed_table.py then
# prints issue 28's table (ours, reference, ratio, goal) from the lines of that one run.
SPEED_LOG = $(BUILD)/bench/speed.log
SPEED_FAILED = $(BUILD)/bench/speed.failed
bench: build peers-venv fixtures
	@mkdir -p $(BUILD)/bench && : > $(SPEED_LOG) && rm -f $(SPEED_FAILED)
	@for b in $(BUILD)/bench/*_bench; do echo "== $$b"; { $$b || touch $(SPEED_FAILED); } | tee -a $(SPEED_LOG); \
	  test ! -e $(SPEED_FAILED) || exit 1; done
	@echo "== bench/python_bench.py"
	{ PYTHONPATH=$(BUILD)/python $(VENV_PYTHON) bench/python_bench.py --taco $(BUILD)/taco || touch $(SPEED_FAILED); } | tee -a $(SPEED_LOG)
	@echo "== bench/startup_bench.py (load() of the demo ZIP, load() + .data, taco --version / --help / info)"
	{ PYTHONPATH=$(BUILD)/python $(VENV_PYTHON) bench/startup_bench.py --taco $(BUILD)/taco || touch $(SPEED_FAILED); } | tee -a $(SPEED_LOG)
	@test ! -e $(SPEED_FAILED) || { echo "a benchmark failed (see above)"; exit 1; }
	@echo "== bench/r_bench.py (R as.data.frame() vs Python .to_pandas() on a 100,000-row level)"
	PYTHONPATH=$(BUILD)/python $(VENV_PYTHON) bench/r_bench.py --build $(BUILD)
	@echo "== bench/torch_bench.py (DataLoader samples/s; data generated once in $(BUILD)/bench/torch_data)"
	PYTHONPATH=$(BUILD)/python $(VENV_PYTHON) bench/torch_bench.py --out $(BUILD)/bench
	@echo "== bench/explorer_bench.mjs (the explorer page in headless Chromium: 100,000-row ZIP open + first page, 512x512x4 GeoTIFF preview)"
	@if [ -d $(BUILD)/js/explorer ]; then \
	  node=third_party/node/bin/node; [ -x $$node ] || node=node; \
	  $$node bench/explorer_bench.mjs $(BUILD); \
	else echo "explorer_bench: $(BUILD)/js/explorer not built (no emscripten?), skipped"; fi
	@echo "== bench/speed_table.py (issue 28's table from this run)"
	@$(VENV_PYTHON) bench/speed_table.py $(SPEED_LOG)

docs-screenshots: build fixtures
	bash scripts/docs_screenshots.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
