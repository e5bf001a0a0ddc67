/* bench_launch.c -- what a launch of a small kernel costs besides its instructions, the overhead a
** runtime that launches one kernel thousands of times pays per launch.  Two kernels: saxpy
** (examples/saxpy.visaasm: one SIMD16 thread, a dozen instructions, nothing to compile) and a
** SIMD16 loop of 4 trips whose body the compiled tier takes; each in three ways on the default tier:
**   first: the first launch of a freshly parsed module: lowering plus the launch (the compiled
**          tier compiles a kernel only once it is hot: neither kernel gets there); before
**          prepared kernels every launch paid this;
**   again: each later launch of the same module (the prepared kernel is reused);
**   parse: parsing the module alone, for scale.
** Each result is checked (saxpy: y = 2.5 x + y on the first 10 lanes; the loop: its closed form),
** and the module's preparation counters must show one lowering for all the launches. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "visa/visa.h"

#define AGAIN 20000
#define FIRST 100

#define LOOP_N 4

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

/* One launch of saxpy; true when y holds 2.5 x + 1 on lanes 0..9 and 1 above. */
static bool launch_saxpy(const visa_module *m) {
    float x[16], y[16];
    for (int i = 0; i < 16; i++) x[i] = (float)i, y[i] = 1;
    visa_buffer bufs[] = {{(uint8_t *)x, sizeof x}, {(uint8_t *)y, sizeof y}};
    visa_arg args[] = {{.kind = VISA_ARG_BUFFER, .buffer = 0},
                       {.kind = VISA_ARG_BUFFER, .buffer = 1},
                       {.kind = VISA_ARG_FLOAT, .fvalue = 2.5},
                       {.kind = VISA_ARG_INT, .value = 10}};
    visa_run_opts ro = {.struct_size = sizeof ro, .platform = VISA_PLATFORM_XE2};
    if (visa_module_run(m, &ro, args, 4, bufs, 2, NULL) != VISA_OK) return false;
    for (int i = 0; i < 16; i++)
        if (y[i] != (i < 10 ? 2.5f * (float)i + 1 : 1)) return false;
    return true;
}

/* One launch of the loop; true when every lane holds its closed form. */
static bool launch_loop(const visa_module *m) {
    int32_t out[16];
    visa_buffer buf = {(uint8_t *)out, sizeof out};
    visa_arg args[] = {{.kind = VISA_ARG_BUFFER, .buffer = 0}, {.kind = VISA_ARG_INT, .value = LOOP_N}};
    visa_run_opts ro = {.struct_size = sizeof ro, .platform = VISA_PLATFORM_XE2};
    if (visa_module_run(m, &ro, args, 2, &buf, 1, NULL) != VISA_OK) return false;
    for (int lane = 0; lane < 16; lane++)
        if (out[lane] != 3 * lane * LOOP_N + LOOP_N * (LOOP_N - 1) / 2) return false;
    return true;
}

/* first / again / parse for one kernel; false when a result is wrong. */
static bool measure(visa_ctx *ctx, const char *name, const char *text, size_t len,
                    bool (*launch)(const visa_module *)) {
    bool ok = true;
    double parse_s = 0, first_s = 0;
    for (int i = 0; i < FIRST && ok; i++) {
        visa_module *m = NULL;
        double t0 = now();
        ok = visa_module_parse_text(ctx, name, text, len, VISA_PLATFORM_XE2, &m) == VISA_OK;
        double t1 = now();
        ok = ok && launch(m);
        double t2 = now();
        parse_s += t1 - t0;
        first_s += t2 - t1;
        visa_module_destroy(m);
    }
    visa_module *m = NULL;
    ok = ok && visa_module_parse_text(ctx, name, text, len, VISA_PLATFORM_XE2, &m) == VISA_OK && launch(m);
    double t0 = now();
    for (int i = 0; i < AGAIN && ok; i++) ok = launch(m);
    double again_s = now() - t0;
    visa_prepare_stats st = {.struct_size = sizeof st};
    ok = ok && visa_module_prepare_stats(m, &st) == VISA_OK && st.lowerings == 1 && st.launches == AGAIN + 1;
    printf("%-6s first launch of a module (lowering%s + launch) %9.1f us; each later launch %6.1f us (%d launches, "
           "%llu lowering); parse %6.1f us; overhead %.1fx lower%s\n",
           name, st.compilations ? ", compiling" : "", first_s / FIRST * 1e6, again_s / AGAIN * 1e6, AGAIN,
           (unsigned long long)st.lowerings, parse_s / FIRST * 1e6, first_s / FIRST / (again_s / AGAIN),
           ok ? "" : "  RESULTS WRONG");
    visa_module_destroy(m);
    return ok;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "examples/saxpy.visaasm";
    size_t len = 0;
    const char *text = read_all(path, &len);
    visa_ctx *ctx;
    if (!text || visa_ctx_create(NULL, &ctx) != VISA_OK) {
        fprintf(stderr, "bench_launch: cannot read %s\n", path);
        return 1;
    }
    printf("bench_launch: per-launch cost of small kernels, Xe2, one SIMD16 thread, default tier\n");
    bool ok = measure(ctx, "saxpy", text, len, launch_saxpy);
    /* the loop the prepared-kernel test runs (tests/emu/acc_loop.visaasm) */
    size_t loop_len = 0;
    const char *loop = read_all(ACC_LOOP_PATH, &loop_len);
    ok = loop && measure(ctx, "loop", loop, loop_len, launch_loop) && ok;
    visa_ctx_destroy(ctx);
    return ok ? 0 : 1;
}
