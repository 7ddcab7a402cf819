# The two commands of README.md:
#   make demo   install what is missing, build, run `build/taco demo`
#   make test   install what is missing, build, run every test
# Other targets: make (build), make test-asan (Debug + ASan/UBSan build in build-asan/, tests),
# make bench (benchmarks), make docs-screenshots (pages of `taco publish` in Chromium), make clean,
# make peers-venv (the pinned upstream tools in .venv-peers/, once), make bench-peers (taco-cpp
# side by side with them: build/bench/peers.md and peers.png).
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=

.PHONY: all build deps demo test test-asan bench clean docs-screenshots peers-venv bench-peers

all: build

deps:
	@bash scripts/bootstrap.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/taco demo

# The interoperability matrix (tests/interop, ctest test interop_matrix) needs .venv-peers/;
# TACO_REQUIRE_PEERS makes it fail rather than skip when the venv is missing.
test: build peers-venv
	cd $(BUILD) && TACO_REQUIRE_PEERS=1 ctest --output-on-failure -j $(JOBS)

peers-venv:
	@bash scripts/peers_venv.sh

bench-peers: build peers-venv
	.venv-peers/bin/python bench/peers/peers_bench.py --build $(BUILD) --out $(BUILD)/bench

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTACO_SANITIZE=ON -DTACO_BUILD_BENCH=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

bench: build
	@for b in $(BUILD)/bench/*_bench; do echo "== $$b"; $$b || exit 1; done

docs-screenshots: build
	bash scripts/docs_screenshots.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
