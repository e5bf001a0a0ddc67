/* test_tiers.c -- tiering (jit.h, docs/emulator.md "Tiers"): under the default tier a kernel starts
** interpreted and is compiled once its threads have run VISA_EMU_JIT_HOT instructions, in a thread
** of its own (or, with VISA_EMU_JIT_WAIT=1, in the thread that found it hot); running threads
** switch to the compiled code at their next limit check.  Shown here, with every result checked
** against a C model of the kernel and every instruction count against the count worked out by hand:
**   - a run shorter than the threshold compiles nothing;
**   - VISA_EMU_JIT_HOT=0 compiles when the kernel is prepared;
**   - one thread switches in the middle of its loop (WAIT: at a known step), and the compiled part
**     is the rest of the run;
**   - a background compilation while two host threads run 64 groups: every launch bit-exact,
**     then launches in compiled code;
**   - a module destroyed while its kernel compiles (the compilation stops, nothing leaks).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/jit.h"
#include "../harness.h"
#include "visa/visa.h"

/* A linear congruential hash per lane (h = lane + 16 * group), summing the values below 2^31. */
static const char k_tloop[] = ".version 4.1\n"
                              ".kernel \"tloop\"\n"
                              ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                              ".decl N v_type=G type=d num_elts=1 align=dword\n"
                              ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                              ".decl ID v_type=G type=ud num_elts=16 align=GRF\n"
                              ".decl H v_type=G type=ud num_elts=16 align=GRF\n"
                              ".decl S v_type=G type=ud num_elts=16 align=GRF\n"
                              ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"
                              ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                              ".decl P1 v_type=P num_elts=16\n"
                              ".decl P2 v_type=P num_elts=16\n"
                              ".input OUT offset=64 size=8\n"
                              ".input N offset=72 size=4\n"
                              ".kernel_attr SimdSize=16\n"
                              "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"
                              "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:ud\n"
                              "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"
                              "    add (M1, 16) H(0,0)<1> ID(0,0)<1;1,0> G16(0,0)<0;1,0>\n"
                              "    mov (M1, 16) S(0,0)<1> 0x0:ud\n"
                              "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                              "LOOP:\n"
                              "    mul (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x19660d:ud\n"
                              "    add (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x3c6ef35f:ud\n"
                              "    cmp.lt (M1, 16) P2 H(0,0)<1;1,0> 0x80000000:ud\n"
                              "    (P2) add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> H(0,0)<1;1,0>\n"
                              "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                              "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                              "    (P1) jmp (M1, 1) LOOP\n"
                              "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x80:ud\n"
                              "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                              "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  H:d32x16t\n"
                              "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  S:d32x16t\n"
                              "    ret (M1, 1)\n";
/* instructions per thread: 6 before the loop, 8 per trip (the label counts), 5 after */
#define TLOOP_STEPS(n) (6ull + 8ull * (n) + 5ull)
#define MAX_GROUPS 64

static bool model_ok(const uint32_t *out, unsigned groups, int n) {
    for (unsigned g = 0; g < groups; g++)
        for (unsigned l = 0; l < 16; l++) {
            uint32_t h = l + 16 * g, s = 0;
            for (int k = 0; k < n; k++) {
                h = h * 0x19660du + 0x3c6ef35fu;
                if (h < 0x80000000u) s += h;
            }
            if (out[g * 32 + l] != h || out[g * 32 + 16 + l] != s) return false;
        }
    return true;
}

static void set_knobs(const char *hot, bool wait) {
    setenv("VISA_EMU_TIER", "jit", 1);
    if (hot) setenv("VISA_EMU_JIT_HOT", hot, 1);
    else unsetenv("VISA_EMU_JIT_HOT");
    setenv("VISA_EMU_JIT_WAIT", wait ? "1" : "0", 1);
}

static visa_module *parse(visa_ctx *ctx) {
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, "tloop", k_tloop, sizeof k_tloop - 1, VISA_PLATFORM_XE2, &m) != VISA_OK)
        return NULL;
    return m;
}

/* One launch of `groups` groups on `threads` host threads; true when it ran, gave the model's
** results and counted the instructions worked out by hand. */
static bool launch(const visa_module *m, unsigned groups, int n, unsigned threads) {
    static uint32_t out[MAX_GROUPS * 32];
    memset(out, 0xA5, sizeof out);
    visa_buffer buf = {(uint8_t *)out, sizeof out};
    visa_arg args[2];
    memset(args, 0, sizeof args);
    args[0].kind = VISA_ARG_BUFFER;
    args[1].kind = VISA_ARG_INT, args[1].value = n;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = groups;
    ro.threads = threads;
    visa_run_stats st = {0, 0};
    int r = visa_module_run(m, &ro, args, 2, &buf, 1, &st);
    CHECKF(r == VISA_OK, "launch of %u groups, %d trips: %d", groups, n, r);
    CHECKF(st.instructions == groups * TLOOP_STEPS(n), "%llu instructions, expected %llu",
          (unsigned long long)st.instructions, (unsigned long long)(groups * TLOOP_STEPS(n)));
    bool ok = model_ok(out, groups, n);
    CHECKF(ok, "%u groups, %d trips: results differ from the model", groups, n);
    return r == VISA_OK && ok && st.instructions == groups * TLOOP_STEPS(n);
}

static visa_prepare_stats stats_of(const visa_module *m) {
    visa_prepare_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    CHECKF(visa_module_prepare_stats(m, &s) == VISA_OK, "prepare stats");
    return s;
}

/* Below the default threshold nothing is compiled; VISA_EMU_JIT_HOT=0 compiles at preparation. */
static void test_short_and_eager(visa_ctx *ctx) {
    set_knobs(NULL, false);
    visa_module *m = parse(ctx);
    CHECKF(m != NULL, "tloop does not parse");
    if (!m) return;
    for (int i = 0; i < 3; i++) launch(m, 4, 1000, 1); /* 3 x 32 K instructions */
    visa_prepare_stats s = stats_of(m);
    CHECKF(s.compilations == 0 && s.compiled_instructions == 0, "short runs: %llu compilations, %llu compiled",
          (unsigned long long)s.compilations, (unsigned long long)s.compiled_instructions);
    visa_module_destroy(m);

    set_knobs("0", false);
    m = parse(ctx);
    const visa_kernel *k = NULL;
    CHECKF(m && visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &k) == VISA_OK, "prepare");
    if (!m) return;
    s = stats_of(m);
    CHECKF(s.compilations == 1, "VISA_EMU_JIT_HOT=0: %llu compilations after preparing",
          (unsigned long long)s.compilations);
    launch(m, 1, 1000, 1);
    s = stats_of(m);
    /* the loop block: 1000 trips but the last (its jmp runs in the run loop), 8 ops each */
    CHECKF(s.compiled_instructions >= 8 * 999, "compiled from the start: %llu compiled instructions",
          (unsigned long long)s.compiled_instructions);
    visa_module_destroy(m);
}

/* One thread, hot after 100,000 instructions, compiled in its own thread (WAIT): the heat is
** noted at limit checks (every 65,536 instructions), so it switches at the second check, 131,072
** instructions in, and the rest of its loop runs compiled. */
static void test_switch_mid_run(visa_ctx *ctx) {
    set_knobs("100000", true);
    visa_module *m = parse(ctx);
    CHECKF(m != NULL, "tloop does not parse");
    if (!m) return;
    const int n = 40000; /* 320 K instructions */
    launch(m, 1, n, 1);
    visa_prepare_stats s = stats_of(m);
    uint64_t all = TLOOP_STEPS(n);
    CHECKF(s.compilations == 1, "%llu compilations", (unsigned long long)s.compilations);
    CHECKF(s.compiled_instructions > all - 131072 - 64 && s.compiled_instructions <= all - 131072,
          "%llu of %llu instructions compiled, expected all but the first 131,072 and the last trip's",
          (unsigned long long)s.compiled_instructions, (unsigned long long)all);
    visa_module_destroy(m);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Hot after 50,000 instructions, compiled in the background while two host threads run 64 groups:
** every launch is checked, until the compiled code is in (bounded by time: a sanitizer build
** compiles slowly); then a launch runs compiled. */
static void test_background(visa_ctx *ctx) {
    set_knobs("50000", false);
    visa_module *m = parse(ctx);
    CHECKF(m != NULL, "tloop does not parse");
    if (!m) return;
    double until = now_s() + 120;
    unsigned launches = 0;
    while (stats_of(m).compilations == 0 && now_s() < until && launch(m, MAX_GROUPS, 2000, 2)) launches++;
    visa_prepare_stats s = stats_of(m);
    CHECKF(s.compilations == 1, "not compiled after %u launches", launches);
    uint64_t before = s.compiled_instructions;
    launch(m, MAX_GROUPS, 2000, 2);
    s = stats_of(m);
    /* each thread's loop but its last trip runs in the block */
    CHECKF(s.compiled_instructions - before >= MAX_GROUPS * 8ull * 1999,
          "a launch after compiling: %llu compiled instructions",
          (unsigned long long)(s.compiled_instructions - before));
    visa_module_destroy(m);
}

/* Released while compiling: the destroy stops the compilation between its steps and waits for it;
** the sanitizer builds see what it frees. */
static void test_destroy_while_compiling(visa_ctx *ctx) {
    set_knobs("1000", false);
    for (int i = 0; i < 3; i++) {
        visa_module *m = parse(ctx);
        CHECKF(m != NULL, "tloop does not parse");
        if (!m) return;
        launch(m, 2, 2000, 1);
        visa_module_destroy(m);
    }
}

int main(void) {
    if (!emu_jit_available()) {
        printf("SKIPPED: built without the compiled tier (LLVM 19)\n");
        return TH_SKIP_CODE;
    }
    visa_ctx *ctx;
    if (visa_ctx_create(NULL, &ctx) != VISA_OK) return 2;
    CASE_BEGIN();
    test_short_and_eager(ctx);
    CASE_END("short runs and VISA_EMU_JIT_HOT=0");
    CASE_BEGIN();
    test_switch_mid_run(ctx);
    CASE_END("switch in the middle of a run");
    CASE_BEGIN();
    test_background(ctx);
    CASE_END("background compilation, two host threads");
    CASE_BEGIN();
    test_destroy_while_compiling(ctx);
    CASE_END("destroyed while compiling");
    visa_ctx_destroy(ctx);
    return th_finish();
}
