# The two commands of README.md:
#   make demo   install what is missing, build, run `build/taco demo`
#   make test   install what is missing, build, run every test
# Other targets: make (build), make test-asan (Debug + ASan/UBSan build in build-asan/, tests),
# make bench (benchmarks), make docs-screenshots (pages of `taco publish` in Chromium), make clean.
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=

.PHONY: all build deps demo test test-asan bench clean docs-screenshots

all: build

deps:
	@bash scripts/bootstrap.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/taco demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

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
