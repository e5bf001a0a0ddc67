/* test_prepare.c -- prepared kernels (visa.h "Prepared kernels"): a kernel launched 1,000 times
** through visa_module_run is lowered once and, under VISA_EMU_TIER=jit-all, compiled once; the
** module keeps one prepared kernel per (kernel, platform, lowering settings); a prepared kernel
** runs on two host threads at once; a failed preparation is not kept; misuse is VISA_E_ARG.
** Every launch's result is checked against the loop's closed form, worked out by hand:
** OUT[lane] = sum over k < N of (3 * lane + k) = 3 * lane * N + N * (N - 1) / 2.
*/
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

/* The loop kernel of tests/emu/acc_loop.visaasm (bench_launch times it too): OUT[lane] = sum over
** k < N of (3 lane + k), a loop the compiled tier compiles. */
static char *LOOP_KERNEL;

/* An instruction the emulator does not run (sem.def EMU_NOT): preparing it fails. */
static const char UNSUPPORTED_KERNEL[] = ".version 4.1\n"
                                         ".kernel \"rsi\"\n"
                                         ".decl V40 v_type=G type=ud num_elts=16 align=GRF\n"
                                         ".decl V41 v_type=G type=ud num_elts=8 align=GRF\n"
                                         ".kernel_attr SimdSize=16\n"
                                         "    lsc_read_state_info.tgm  V40  bti(0x4)[V41]\n"
                                         "    ret (M1, 1)\n";

#define LAUNCHES 1000

static int diags;
static void count_diag(void *ud, const visa_diag *d) {
    (void)ud;
    if (d->severity == VISA_SEV_ERROR) diags++;
}

static visa_module *parse(visa_ctx *ctx, const char *text) {
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, "prep", text, strlen(text), VISA_PLATFORM_XE2, &m) != VISA_OK) return NULL;
    return m;
}

/* One launch with N = n; true when every lane holds the closed form. */
static bool run_once(const visa_module *m, const visa_kernel *k, int32_t n) {
    int32_t out[16];
    memset(out, 0xAB, sizeof out);
    visa_buffer buf = {(uint8_t *)out, sizeof out};
    visa_arg args[2] = {{.kind = VISA_ARG_BUFFER, .buffer = 0}, {.kind = VISA_ARG_INT, .value = (uint64_t)n}};
    visa_run_opts o = {.struct_size = sizeof o, .platform = VISA_PLATFORM_XE2};
    visa_status st =
        k ? visa_kernel_run(k, &o, args, 2, &buf, 1, NULL) : visa_module_run(m, &o, args, 2, &buf, 1, NULL);
    if (st != VISA_OK) return false;
    for (int32_t lane = 0; lane < 16; lane++)
        if (out[lane] != 3 * lane * n + n * (n - 1) / 2) return false;
    return true;
}

static visa_prepare_stats stats_of(const visa_module *m) {
    visa_prepare_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    if (visa_module_prepare_stats(m, &s) != VISA_OK) s.kernels = UINT64_MAX;
    return s;
}

/* 1,000 launches, one lowering; under jit-all one compilation, interpreted none. */
static void test_many_launches(visa_ctx *ctx) {
    CASE_BEGIN();
    visa_module *m = parse(ctx, LOOP_KERNEL);
    CHECK(m);
    if (!m) {
        CASE_END("many_launches");
        return;
    }
    unsigned good = 0;
    for (int i = 0; i < LAUNCHES; i++) good += run_once(m, NULL, 1 + i % 50);
    CHECKF(good == LAUNCHES, "%u of %d launches gave the closed form", good, LAUNCHES);
    visa_prepare_stats s = stats_of(m);
    CHECKF(s.kernels == 1 && s.lowerings == 1, "kernels %llu, lowerings %llu", (unsigned long long)s.kernels,
           (unsigned long long)s.lowerings);
    CHECKF(s.launches == LAUNCHES, "launches %llu", (unsigned long long)s.launches);
    const char *tier = getenv("VISA_EMU_TIER");
    if (tier && !strcmp(tier, "jit-all"))
        CHECKF(s.compilations == 1, "compilations %llu", (unsigned long long)s.compilations);
    else if (tier && !strcmp(tier, "interp"))
        CHECKF(s.compilations == 0, "compilations %llu", (unsigned long long)s.compilations);
    else CHECK(s.compilations <= 1);
    visa_module_destroy(m);
    CASE_END("many_launches");
}

/* The same (kernel, platform) gives the same prepared kernel; another platform or another lowering
** setting another one. */
static void test_identity(visa_ctx *ctx) {
    CASE_BEGIN();
    visa_module *m = parse(ctx, LOOP_KERNEL);
    CHECK(m);
    if (!m) {
        CASE_END("identity");
        return;
    }
    const visa_kernel *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    CHECK(visa_kernel_prepare(m, "acc", VISA_PLATFORM_XE2, &a) == VISA_OK && a);
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &b) == VISA_OK && b == a);
    CHECK(visa_kernel_prepare(m, "acc", VISA_PLATFORM_XEHPC, &c) == VISA_OK && c && c != a);
    CHECK(stats_of(m).kernels == 2);
    CHECK(run_once(m, a, 7) && run_once(m, c, 9) && run_once(m, NULL, 11));
    CHECK(stats_of(m).kernels == 2 && stats_of(m).lowerings == 2 && stats_of(m).launches == 3);
    /* the generic path is a lowering setting: a kernel of its own */
    setenv("VISA_EMU_GENERIC", "1", 1);
    CHECK(visa_kernel_prepare(m, "acc", VISA_PLATFORM_XE2, &d) == VISA_OK && d && d != a);
    CHECK(run_once(m, NULL, 5));
    unsetenv("VISA_EMU_GENERIC");
    CHECK(stats_of(m).kernels == 3);
    visa_module_destroy(m);
    CASE_END("identity");
}

typedef struct job {
    const visa_module *m;
    const visa_kernel *k;
    unsigned good;
} job;

static void *run_many(void *arg) {
    job *j = arg;
    for (int i = 0; i < 200; i++) j->good += run_once(j->m, j->k, 1 + (i * 7) % 40);
    return NULL;
}

/* One prepared kernel launched from two host threads at once. */
static void test_threads(visa_ctx *ctx) {
    CASE_BEGIN();
    visa_module *m = parse(ctx, LOOP_KERNEL);
    const visa_kernel *k = NULL;
    CHECK(m && visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &k) == VISA_OK);
    if (!k) {
        CASE_END("threads");
        return;
    }
    job jobs[2] = {{m, k, 0}, {m, NULL, 0}}; /* one through the kernel, one through the module */
    pthread_t t;
    CHECK(pthread_create(&t, NULL, run_many, &jobs[0]) == 0);
    run_many(&jobs[1]);
    pthread_join(t, NULL);
    CHECKF(jobs[0].good == 200 && jobs[1].good == 200, "%u and %u of 200", jobs[0].good, jobs[1].good);
    visa_prepare_stats s = stats_of(m);
    CHECK(s.kernels == 1 && s.lowerings == 1 && s.launches == 400);
    visa_module_destroy(m);
    CASE_END("threads");
}

/* A kernel the emulator cannot run: an error each time, with its diagnostic, nothing kept. */
static void test_failed(visa_ctx *ctx) {
    CASE_BEGIN();
    visa_module *m = parse(ctx, UNSUPPORTED_KERNEL);
    CHECK(m);
    if (!m) {
        CASE_END("failed");
        return;
    }
    const visa_kernel *k = (const visa_kernel *)&k;
    diags = 0;
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &k) == VISA_E_UNSUPPORTED && !k);
    CHECK(diags == 1);
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &k) == VISA_E_UNSUPPORTED && !k);
    CHECK(diags == 2);
    visa_prepare_stats s = stats_of(m);
    CHECK(s.kernels == 0 && s.lowerings == 2 && s.launches == 0);
    visa_module_destroy(m);
    CASE_END("failed");
}

static void test_misuse(visa_ctx *ctx) {
    CASE_BEGIN();
    visa_module *m = parse(ctx, LOOP_KERNEL);
    const visa_kernel *k = NULL;
    CHECK(visa_kernel_prepare(NULL, NULL, VISA_PLATFORM_XE2, &k) == VISA_E_ARG);
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, NULL) == VISA_E_ARG);
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM__COUNT, &k) == VISA_E_ARG && !k);
    diags = 0;
    CHECK(visa_kernel_prepare(m, "nope", VISA_PLATFORM_XE2, &k) == VISA_E_ARG && !k && diags == 1);
    visa_run_opts o = {.struct_size = sizeof o};
    CHECK(visa_kernel_run(NULL, &o, NULL, 0, NULL, 0, NULL) == VISA_E_ARG);
    CHECK(visa_kernel_prepare(m, NULL, VISA_PLATFORM_XE2, &k) == VISA_OK);
    CHECK(visa_kernel_run(k, NULL, NULL, 0, NULL, 0, NULL) == VISA_E_ARG);
    CHECK(visa_kernel_run(k, &o, NULL, 2, NULL, 0, NULL) == VISA_E_ARG);
    visa_prepare_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = 8;
    CHECK(visa_module_prepare_stats(m, &s) == VISA_E_ARG);
    CHECK(visa_module_prepare_stats(NULL, &s) == VISA_E_ARG);
    visa_module_destroy(m);
    CASE_END("misuse");
}

int main(void) {
    visa_ctx_desc d = {.struct_size = sizeof d, .on_diag = count_diag};
    visa_ctx *ctx = NULL;
    size_t loop_len = 0;
    LOOP_KERNEL = th_read_file(ACC_LOOP_PATH, &loop_len);
    if (!LOOP_KERNEL || visa_ctx_create(&d, &ctx) != VISA_OK) return 1;
    test_many_launches(ctx);
    test_identity(ctx);
    test_threads(ctx);
    test_failed(ctx);
    test_misuse(ctx);
    visa_ctx_destroy(ctx);
    free(LOOP_KERNEL);
    return th_finish();
}
