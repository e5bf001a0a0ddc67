# Thin wrapper over CMake.  `make demo` builds and runs an example; `make check` builds with
# -Werror and runs every test, then runs them again under AddressSanitizer + UBSan.
# Needs: cmake, make, gcc, pkg-config (Debian: apt-get install -y cmake make gcc pkg-config);
# `make fuzz` needs clang.  `make install PREFIX=DIR` installs the tool, libraries, headers,
# pkg-config and CMake files and the man page (cmake --install).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SHARED ?= $(abspath ../shared)

.PHONY: all build demo check test check-asan fuzz bench install clean

all: build

build:
	@cmake -S . -B $(BUILD) -DVISA_WERROR=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

demo: build
	@echo "== visa info mad   (what the instruction table knows)"
	@$(BUILD)/visa info mad
	@echo "== visa fmt examples/saxpy.visaasm   (parse and print exactly as IGC prints it)"
	@$(BUILD)/visa fmt examples/saxpy.visaasm
	@echo "== visa asm, then visa dis   (vISA 4.1 object and back)"
	@$(BUILD)/visa asm examples/saxpy.visaasm -o $(BUILD)/saxpy.isa
	@$(BUILD)/visa dis $(BUILD)/saxpy.isa | diff -q - examples/saxpy.visaasm && \
	  echo "$(BUILD)/saxpy.isa: $$(wc -c < $(BUILD)/saxpy.isa) bytes; disassembles to the identical text"
	@echo "== visa run: y = 2.5*x + y over 16 lanes, x = 0..15, y = 1, first 10 lanes enabled"
	@$(BUILD)/visa run $(BUILD)/saxpy.isa --arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2.5 --arg 10 --print 1:f
	@echo "== visa verify examples/gemm.visaasm   (the spec's rules)"
	@$(BUILD)/visa verify examples/gemm.visaasm && echo "no errors"
	@echo "== visa run examples/gemm.visaasm: C (8 x 32) = A (8 x 16, all 1) * B (16 x 32, all 0.5): 2D block loads, dpas"
	@$(BUILD)/visa run examples/gemm.visaasm --groups 2,1 --arg buf:256:fill:hf:1 --arg buf:1024:fill:hf:0.5 \
	  --arg buf:1024 --arg 8 --arg 32 --arg 16 --print 2:f --stats

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

check-asan:
	@cmake -S . -B $(ASAN_BUILD) -DVISA_WERROR=ON -DVISA_SANITIZE=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	@cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j$(JOBS)

check: test check-asan

FUZZ_SECONDS ?= 60
# Text parser, binary decoder and emulator fuzzers, FUZZ_SECONDS each; seeds are the test
# kernels and their objects (written by `visa asm`).  New corpus entries stay in build-fuzz/corpus-*.
fuzz: build
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DVISA_FUZZ=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build build-fuzz -j$(JOBS) --target fuzz_parse fuzz_decode fuzz_run
	@mkdir -p build-fuzz/corpus-parse build-fuzz/corpus-decode build-fuzz/seeds-decode build-fuzz/corpus-run
	@for f in tests/text/ops/*.visaasm; do $(BUILD)/visa asm $$f -o build-fuzz/seeds-decode/$$(basename $$f .visaasm).isa 2>/dev/null || true; done
	build-fuzz/tests/fuzz/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  -rss_limit_mb=2048 -print_final_stats=1 build-fuzz/corpus-parse tests/text/ops tests/text/fmt tests/text/malformed
	build-fuzz/tests/fuzz/fuzz_decode -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  -rss_limit_mb=2048 -print_final_stats=1 build-fuzz/corpus-decode build-fuzz/seeds-decode
	build-fuzz/tests/fuzz/fuzz_run -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 \
	  -rss_limit_mb=2048 -print_final_stats=1 build-fuzz/corpus-run tests/emu

bench: build
	@$(BUILD)/bench/bench_text $(SHARED)/corpus/igc-dumps tests/text/ops
	@$(BUILD)/bench/bench_emu
	@$(BUILD)/bench/bench_scale
	@$(BUILD)/bench/bench_gemm

PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
