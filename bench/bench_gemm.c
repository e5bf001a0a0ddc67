/* bench_gemm.c -- emulated DPAS GEMM against native C doing the same GEMM in f32, one host thread.
**
** C (M x N, f) = A (M x K) * B (K x N), A and B bf16 or hf, row-major, M = N = K = 256 or 512.
** The vISA kernel (examples/gemm.visaasm scaled to any size) gives each thread an 8 x 16 tile of
** C: per 16-wide step of K a 2D block load of A (plain, dpas's src2 layout), a 2D block load of B
** (VNNI, dpas's src1 layout) and one dpas.P.P.8.8; then a 2D block store of the tile.
** The native side is the naive i-k-j loop over floats (the same values), compiled plain -O2 for
** baseline x86-64 and, when the host has them, again with target("avx2,fma") (the second column;
** floating-point contraction is off in ISO C mode, so both round every product and sum).
** Inputs are multiples of 1/4 in [-2, 2]: every product and partial sum is exact in f32 and in
** DPAS's per-stage rounding, so both sides give identical bits, which the benchmark checks.
** Reported: M MAC/s and the ratio emulated / native time.  Target (issue 14): <= 3x native -O2.
** Usage: bench_gemm [--seconds S] [bf256|hf256|bf512|hf512]...
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "visa/visa.h"

#define TARGET_RATIO 3.0

static const char k_gemm[] = ".version 4.1\n"
                             ".kernel \"gemm\"\n"
                             ".decl A v_type=G type=uq num_elts=1\n"
                             ".decl B v_type=G type=uq num_elts=1\n"
                             ".decl C v_type=G type=uq num_elts=1\n"
                             ".decl M v_type=G type=ud num_elts=1\n"
                             ".decl N v_type=G type=ud num_elts=1\n"
                             ".decl K v_type=G type=ud num_elts=1\n"
                             ".decl AW v_type=G type=ud num_elts=1\n"
                             ".decl AH v_type=G type=ud num_elts=1\n"
                             ".decl BW v_type=G type=ud num_elts=1\n"
                             ".decl BH v_type=G type=ud num_elts=1\n"
                             ".decl CW v_type=G type=ud num_elts=1\n"
                             ".decl M0 v_type=G type=ud num_elts=1\n"
                             ".decl N0 v_type=G type=ud num_elts=1\n"
                             ".decl K0 v_type=G type=ud num_elts=1\n"
                             ".decl AT v_type=G type=d num_elts=64 align=GRF\n"
                             ".decl BT v_type=G type=d num_elts=128 align=GRF\n"
                             ".decl ACC v_type=G type=f num_elts=128 align=GRF\n"
                             ".decl P1 v_type=P num_elts=1\n"
                             ".input A offset=64 size=8\n"
                             ".input B offset=72 size=8\n"
                             ".input C offset=80 size=8\n"
                             ".input M offset=88 size=4\n"
                             ".input N offset=92 size=4\n"
                             ".input K offset=96 size=4\n"
                             ".kernel_attr SimdSize=16\n"
                             "    shl (M1_NM, 1) AW(0,0)<1> K(0,0)<0;1,0> 0x1:ud\n"
                             "    add (M1_NM, 1) AW(0,0)<1> AW(0,0)<0;1,0> 0xffffffff:ud\n"
                             "    add (M1_NM, 1) AH(0,0)<1> M(0,0)<0;1,0> 0xffffffff:ud\n"
                             "    shl (M1_NM, 1) BW(0,0)<1> N(0,0)<0;1,0> 0x1:ud\n"
                             "    add (M1_NM, 1) BW(0,0)<1> BW(0,0)<0;1,0> 0xffffffff:ud\n"
                             "    add (M1_NM, 1) BH(0,0)<1> K(0,0)<0;1,0> 0xffffffff:ud\n"
                             "    shl (M1_NM, 1) CW(0,0)<1> N(0,0)<0;1,0> 0x2:ud\n"
                             "    add (M1_NM, 1) CW(0,0)<1> CW(0,0)<0;1,0> 0xffffffff:ud\n"
                             "    shl (M1_NM, 1) N0(0,0)<1> %%group_id_x(0,0)<0;1,0> 0x4:ud\n"
                             "    shl (M1_NM, 1) M0(0,0)<1> %%group_id_y(0,0)<0;1,0> 0x3:ud\n"
                             "    mov (M1_NM, 1) K0(0,0)<1> 0x0:ud\n"
                             "    mov (M1_NM, 16) ACC(0,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(1,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(2,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(3,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(4,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(5,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(6,0)<1> 0x0:f\n"
                             "    mov (M1_NM, 16) ACC(7,0)<1> 0x0:f\n"
                             "KLOOP:\n"
                             "    lsc_load_block2d.ugm (M1, 1)  AT:d16.16x8nn  flat[A,AW,AH,AW,K0,M0]\n"
                             "    lsc_load_block2d.ugm (M1, 1)  BT:d16.16x16nt  flat[B,BW,BH,BW,N0,K0]\n"
                             "    dpas.%s.%s.8.8 (M1, 16) ACC.0 ACC.0 BT.0 AT(0,0)\n"
                             "    add (M1_NM, 1) K0(0,0)<1> K0(0,0)<0;1,0> 0x10:ud\n"
                             "    cmp.lt (M1_NM, 1) P1 K0(0,0)<0;1,0> K(0,0)<0;1,0>\n"
                             "    (P1) jmp (M1, 1) KLOOP\n"
                             "    lsc_store_block2d.ugm (M1, 1)  flat[C,CW,AH,CW,N0,M0]  ACC:d32.16x8nn\n"
                             "    ret (M1, 1)\n";

typedef struct gemm_def {
    const char *name, *prec; /* prec: the dpas precision, bf or hf */
    unsigned size;
} gemm_def;

static const gemm_def gemms[] = {
    {"bf256", "bf", 256},
    {"hf256", "hf", 256},
    {"bf512", "bf", 512},
    {"hf512", "hf", 512},
};
enum { NGEMM = sizeof gemms / sizeof gemms[0] };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* v = q / 4 for q in -8..8: bf16 is the float's high half; hf by its fields */
static uint16_t to_bf(int q) {
    float f = (float)q * 0.25f;
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)(b >> 16);
}
static uint16_t to_hf(int q) {
    if (q == 0) return 0;
    unsigned s = q < 0, m = (unsigned)(s ? -q : q) * 64; /* |v| * 256, v = m * 2^-8 */
    int e = 0;
    while (m >= 2048) m >>= 1, e++;
    while (m < 1024) m <<= 1, e--;
    /* value = m * 2^(e - 8) = (m / 1024) * 2^(e + 2) */
    return (uint16_t)(s << 15 | (unsigned)(e + 2 + 15) << 10 | (m & 1023));
}

#define NATIVE_BODY                                            \
    for (unsigned i = 0; i < n; i++) {                         \
        float *c = C + (size_t)i * n;                          \
        for (unsigned j = 0; j < n; j++) c[j] = 0.0f;          \
        for (unsigned k = 0; k < n; k++) {                     \
            float a = A[(size_t)i * n + k];                    \
            const float *b = B + (size_t)k * n;                \
            for (unsigned j = 0; j < n; j++) c[j] += a * b[j]; \
        }                                                      \
    }

__attribute__((noinline)) static void native_gemm(float *restrict C, const float *restrict A, const float *restrict B,
                                                  unsigned n) {
    NATIVE_BODY
}
#if defined(__x86_64__) && defined(__GNUC__)
#define NATIVE_HW 1
__attribute__((noinline, target("avx2,fma"))) static void native_gemm_hw(float *restrict C, const float *restrict A,
                                                                         const float *restrict B, unsigned n) {
    NATIVE_BODY
}
static int host_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
#define NATIVE_HW 0
static void native_gemm_hw(float *restrict C, const float *restrict A, const float *restrict B, unsigned n) {
    native_gemm(C, A, B, n);
}
static int host_has_avx2(void) { return 0; }
#endif

static void diag_print(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, d->code, d->message);
}

/* Seconds per run of f, over repeated runs for at least min_s (at least one run). */
typedef struct timer {
    double total;
    int runs;
} timer;

static double g_min_seconds = 1.0;

/* One GEMM on `threads` host threads; prints its row; returns 1 if the results agree (bit for
** bit with the native GEMM); *mmacs: the emulated M MAC/s. */
static int bench_one(visa_ctx *ctx, const gemm_def *gd, int hw, unsigned threads, double *mmacs) {
    unsigned n = gd->size;
    size_t nn = (size_t)n * n;
    char text[sizeof k_gemm + 16];
    snprintf(text, sizeof text, k_gemm, gd->prec, gd->prec);
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, gd->name, text, strlen(text), VISA_PLATFORM_XE2, &m) != VISA_OK) {
        printf("%-6s the kernel text does not parse\n", gd->name);
        return 0;
    }
    uint16_t *a16 = malloc(nn * 2), *b16 = malloc(nn * 2);
    float *af = malloc(nn * 4), *bf = malloc(nn * 4), *cn = malloc(nn * 4), *ce = calloc(nn, 4);
    int ok = a16 && b16 && af && bf && cn && ce;
    uint32_t x = 0x2545F491u;
    for (size_t i = 0; ok && i < 2 * nn; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        int q = (int)(x % 17) - 8;
        uint16_t h = gd->prec[0] == 'b' ? to_bf(q) : to_hf(q);
        if (i < nn) a16[i] = h, af[i] = (float)q * 0.25f;
        else b16[i - nn] = h, bf[i - nn] = (float)q * 0.25f;
    }
    if (!ok) {
        printf("%-6s out of memory\n", gd->name);
        free(a16), free(b16), free(af), free(bf), free(cn), free(ce);
        visa_module_destroy(m);
        return 0;
    }
    visa_buffer bufs[3] = {{(uint8_t *)a16, nn * 2}, {(uint8_t *)b16, nn * 2}, {(uint8_t *)ce, nn * 4}};
    visa_arg args[6];
    memset(args, 0, sizeof args);
    for (int i = 0; i < 3; i++) args[i].kind = VISA_ARG_BUFFER, args[i].buffer = (uint32_t)i;
    for (int i = 3; i < 6; i++) args[i].kind = VISA_ARG_SCALAR, args[i].value = n;
    visa_run_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.platform = VISA_PLATFORM_XE2;
    opts.groups[0] = n / 16;
    opts.groups[1] = n / 8;
    opts.threads = threads;
    opts.max_steps = 1000000000ull;

    /* alternate slices of emulated and native runs so both see the same machine load */
    timer te = {0, 0}, tn = {0, 0}, th = {0, 0};
    visa_status s = VISA_OK;
    volatile unsigned nv = n;
    do {
        double t0 = now();
        s = visa_module_run(m, &opts, args, 6, bufs, 3, NULL);
        te.total += now() - t0, te.runs++;
        if (s != VISA_OK) break;
        for (int side = 0; side <= hw; side++) {
            timer *tt = side ? &th : &tn;
            t0 = now();
            double t;
            do {
                (side ? native_gemm_hw : native_gemm)(cn, af, bf, nv);
                tt->runs++;
                t = now();
            } while (t - t0 < 0.1);
            tt->total += t - t0;
        }
    } while (te.total < g_min_seconds);
    double macs = (double)n * n * n;
    double es = te.total / te.runs, ns = tn.total / tn.runs, hs = th.runs ? th.total / th.runs : 0;
    if (s != VISA_OK) ok = 0;
    else ok = !memcmp(ce, cn, nn * 4);
    if (s == VISA_OK && !ok) {
        for (size_t i = 0; i < nn; i++)
            if (memcmp(&ce[i], &cn[i], 4)) {
                printf("  %s: MISMATCH at C[%zu][%zu]: emulated %g, native %g\n", gd->name, i / n, i % n, (double)ce[i],
                       (double)cn[i]);
                break;
            }
    }
    char hwcol[64] = "-              -";
    if (hs > 0) snprintf(hwcol, sizeof hwcol, "%9.1f %8.2fx", macs / hs / 1e6, es / hs);
    printf("%-6s %5u %10.1f %10.1f %8.2fx %s  %s%s\n", gd->name, n, macs / es / 1e6, macs / ns / 1e6, es / ns, hwcol,
           s != VISA_OK ? "RUN FAILED"
           : ok         ? "agree"
                        : "DIFFER",
           threads == 1 && es / ns > TARGET_RATIO ? ", MISS ratio" : "");
    *mmacs = macs / es / 1e6;
    free(a16), free(b16), free(af), free(bf), free(cn), free(ce);
    visa_module_destroy(m);
    return ok;
}

int main(int argc, char **argv) {
    int want[NGEMM] = {0}, any = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seconds") && a + 1 < argc) {
            g_min_seconds = atof(argv[++a]);
            continue;
        }
        int found = 0;
        for (int k = 0; k < NGEMM; k++)
            if (!strcmp(argv[a], gemms[k].name)) want[k] = found = any = 1;
        if (!found) {
            fprintf(stderr, "usage: bench_gemm [--seconds S] [bf256|hf256|bf512|hf512]...\n");
            return 2;
        }
    }
    visa_ctx_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.on_diag = diag_print;
    visa_ctx *ctx;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;
    int hw = NATIVE_HW && host_has_avx2();
    printf("bench_gemm: dpas GEMM with 2D block loads, %s, 1 host thread, >= %.2f s emulated; target <= %.0fx "
           "native -O2\n",
           visa_platform_name(VISA_PLATFORM_XE2), g_min_seconds, TARGET_RATIO);
    printf("native: f32 i-k-j, plain -O2%s\n",
           hw ? "; hw: -O2 with target(\"avx2,fma\")" : "; no AVX2 (hw column empty)");
    printf("%-6s %5s %10s %10s %9s %9s %9s  %s\n", "gemm", "size", "emu MMAC/s", "nat MMAC/s", "emu/nat", "hw MMAC/s",
           "emu/hw", "check");
    int failed = 0, last = -1;
    double mm1 = 0, mm2 = 0;
    for (int k = 0; k < NGEMM; k++)
        if (!any || want[k]) failed += !bench_one(ctx, &gemms[k], hw, 1, &mm1), last = k;
    /* scaling: the last GEMM again on two host threads (groups spread over them); its results must
    ** still be the native bits, so the same as on one thread */
    if (last >= 0) {
        printf("scaling: %s with --threads 2 (the ratio columns are against one native thread)\n", gemms[last].name);
        failed += !bench_one(ctx, &gemms[last], hw, 2, &mm2);
        printf("scaling: %s %.1f -> %.1f M MAC/s from 1 to 2 host threads (x%.2f), bit-identical results\n",
               gemms[last].name, mm1, mm2, mm1 > 0 ? mm2 / mm1 : 0);
    }
    visa_ctx_destroy(ctx);
    return failed ? 1 : 0;
}
