# Thin wrapper over CMake.  `make demo` builds and runs an example; `make check` builds with
# -Werror and runs every test, then runs them again under AddressSanitizer + UBSan.
# Needs: cmake, make, gcc, pkg-config (Debian: apt-get install -y cmake make gcc pkg-config);
# `make fuzz` needs clang.  `make install PREFIX=DIR` installs the tool, libraries, headers,
# pkg-config and CMake files and the man page (cmake --install).
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SHARED ?= $(abspath ../shared)

.PHONY: all build demo check test check-asan check-tsan fuzz fuzz-tiers bench install clean oclgrind-suite

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
	@if command -v ocloc >/dev/null; then \
	  echo "== visa run examples/saxpy.cl --device pvc: OpenCL C compiled by IGC (libocloc), run with IGC's launch ABI"; \
	  $(BUILD)/visa run examples/saxpy.cl --device pvc --global-size 16 --local-size 16 \
	    --arg a=2 --arg x=buf:64:iota:f --arg y=buf:64:fill:f:0.5 --print y; \
	else echo "== (no ocloc: apt-get install intel-opencl-icd to build and run examples/saxpy.cl)"; fi
	@if command -v ocloc >/dev/null && [ -f $(BUILD)/icd/visa.icd ] && /usr/bin/python3 -c 'import pyopencl' 2>/dev/null; then \
	  echo "== visa cl --device dg2-g10 --check=all -- python3 examples/axpb.py: a pyopencl program on visa's OpenCL platform"; \
	  $(BUILD)/visa cl --device dg2-g10 --check=all -- /usr/bin/python3 examples/axpb.py; \
	else echo "== (no OpenCL ICD or pyopencl: apt-get install ocl-icd-opencl-dev python3-pyopencl intel-opencl-icd to run examples/axpb.py)"; fi

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

check-asan:
	@cmake -S . -B $(ASAN_BUILD) -DVISA_WERROR=ON -DVISA_SANITIZE=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	@cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j$(JOBS)

check: test check-asan

# The multi-threaded emulator tests (ctest label "threads": runs on 2, 4 and 8 host threads)
# under ThreadSanitizer.  Not part of `check`: the tests take seconds, but a third build of the
# library does not, and the launch's threading changes rarely; run it when touching launch.c,
# run.c or jit.c's tiering.  The ICD's threads run under TSan in `check` (icd_threads_tsan).
check-tsan:
	@cmake -S . -B $(TSAN_BUILD) -DVISA_WERROR=ON -DVISA_TSAN=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build $(TSAN_BUILD) -j$(JOBS) --target visa-cli test_gemm test_corpus_attention test_api test_prepare test_tiers
	@cd $(TSAN_BUILD) && TSAN_OPTIONS=halt_on_error=1 ctest -L threads -E '^icd_' --output-on-failure -j$(JOBS)

FUZZ_SECONDS ?= 60
FUZZ_RUN = nice -n 19 build-fuzz/tests/fuzz/$(1) -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build-fuzz/$(1)- build-fuzz/corpus-$(1)
# Text parser, binary decoder, emulator and verify-then-run fuzzers, FUZZ_SECONDS each.  Seeds
# (tests/fuzz/seeds.sh): the test kernels and, when $(SHARED)/corpus exists, IGC's dumps,
# xe-forge and the inline-asm kernels, as text and as `visa asm` objects.  New corpus entries
# and crash files stay in build-fuzz/.
fuzz: build
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DVISA_FUZZ=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build build-fuzz -j$(JOBS) --target fuzz_parse fuzz_decode fuzz_run fuzz_verify
	@mkdir -p build-fuzz/corpus-fuzz_parse build-fuzz/corpus-fuzz_decode build-fuzz/corpus-fuzz_run \
	  build-fuzz/corpus-fuzz_verify
	@tests/fuzz/seeds.sh $(BUILD)/visa . $(SHARED) build-fuzz/seeds
	$(call FUZZ_RUN,fuzz_parse) -max_len=262144 build-fuzz/seeds/text
	$(call FUZZ_RUN,fuzz_decode) -max_len=65536 build-fuzz/seeds/obj
	$(call FUZZ_RUN,fuzz_run) -max_len=65536 build-fuzz/seeds/text
	$(call FUZZ_RUN,fuzz_verify) -max_len=65536 build-fuzz/seeds/text build-fuzz/seeds/obj

# The compiled tier against the interpreter on the same inputs (needs clang and llvm-19-dev).
fuzz-tiers: build
	@cmake -S . -B build-fuzz-jit -DCMAKE_C_COMPILER=clang -DVISA_FUZZ=ON -DVISA_JIT=ON -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build build-fuzz-jit -j$(JOBS) --target fuzz_tiers
	@mkdir -p build-fuzz-jit/corpus-fuzz_tiers
	@tests/fuzz/seeds.sh $(BUILD)/visa . $(SHARED) build-fuzz-jit/seeds
	nice -n 19 build-fuzz-jit/tests/fuzz/fuzz_tiers -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=build-fuzz-jit/fuzz_tiers- -max_len=65536 build-fuzz-jit/corpus-fuzz_tiers \
	  build-fuzz-jit/seeds/text

# Oclgrind's kernel suite built by Debian's IGC (intel-opencl-icd) for three devices and run by
# `visa run` with each test's launch and --check=all, against its expected output and findings.
oclgrind-suite: build
	@python3 tests/program/oclgrind_suite.py $(BUILD)/visa $(SHARED) $(BUILD)/oclgrind-suite tgllp dg2-g10 pvc

# `visa fmt`'s start-up is measured against the tool built without the compiled tier.
NOJIT_BUILD ?= $(BUILD)-nojit
bench: build
	@cmake -S . -B $(NOJIT_BUILD) -DVISA_JIT=OFF -DVISA_SHARED=$(SHARED) >/dev/null
	@cmake --build $(NOJIT_BUILD) -j$(JOBS) --target visa-cli >/dev/null
	@echo "parse + print, IGC's and the inline-vISA corpus; visa fmt as a whole process (8 MB and more of that"
	@echo "corpus as one combined dump), its start-up against an interpreter-only build ($(NOJIT_BUILD)):"
	@$(BUILD)/bench/bench_text --cli $(BUILD)/visa --vs-cli $(NOJIT_BUILD)/visa --one examples/saxpy.visaasm \
	  $(SHARED)/corpus/igc-dumps $(SHARED)/corpus/xe-forge \
	  $(SHARED)/corpus/inline-asm/compute-samples-visa-injection \
	  $(SHARED)/corpus/inline-asm/intel-llvm-inlineasm $(SHARED)/corpus/inline-asm/tvisa
	@echo "parse + print, the per-instruction tests (tests/text/ops):"
	@$(BUILD)/bench/bench_text tests/text/ops
	@echo "the ALU kernels on the default tier (compiled loops when built with LLVM 19):"
	@$(BUILD)/bench/bench_emu
	@echo "the same on the interpreter alone (VISA_EMU_TIER=interp):"
	@VISA_EMU_TIER=interp $(BUILD)/bench/bench_emu --seconds 0.3 | grep -v 'observer\|--check'
	@$(BUILD)/bench/bench_tier $(BUILD)/visa bench/tier_loop.visaasm
	@$(BUILD)/bench/bench_scale
	@$(BUILD)/bench/bench_launch examples/saxpy.visaasm
	@$(BUILD)/bench/bench_gemm
	@$(BUILD)/bench/bench_attention $(SHARED)/corpus/igc-dumps
	@$(BUILD)/bench/bench_cl

PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(NOJIT_BUILD) $(ASAN_BUILD) $(TSAN_BUILD) build-fuzz
