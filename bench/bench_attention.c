/* bench_attention.c -- IGC's paged-attention kernels from the corpus (attention + reduce, Xe2,
** the case test_corpus_attention checks: tests/emu/attention_case.h) emulated on one host thread,
** against native C doing the same work in f32: the scores q.k (exact in f32 on these inputs), the
** partition maximum, exp, the sum, the probabilities rounded to hf, p.V accumulated in f32 and
** rounded to hf, then the reduction over partitions.  Compiled plain -O2 and, when the host has
** them, again with target("avx2,fma") (the second column).  The emulated outputs must match the
** native ones: max_logits exactly, the rest within a few hf roundings (the kernels' exp and
** summation order differ from C's).
** Usage: bench_attention [--seconds S] CORPUS_DIR   (prints a note and exits 0 without the corpus) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/emu/attention_case.h"
#include "visa/visa.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The kernels' work in f32, into c's outputs. */
#define NATIVE_BODY                                                                                              \
    float sc[PA_PART];                                                                                           \
    for (int s = 0; s < PA_NS; s++)                                                                              \
        for (int h = 0; h < PA_NH; h++) {                                                                        \
            int g = h / PA_GROUP, np = (int)((c->ctx_len[s] + PA_PART - 1) / PA_PART);                           \
            for (int p = 0; p < np; p++) {                                                                       \
                float mx = -INFINITY, sum = 0;                                                                   \
                for (int t = 0; t < PA_PART; t++) {                                                              \
                    int tok = p * PA_PART + t, blk = (int)c->btab[s][tok / PA_BS];                               \
                    const float *kk = c->k[blk][tok % PA_BS][g];                                                 \
                    float a = 0;                                                                                 \
                    for (int d = 0; d < PA_D; d++) a += c->q[s][h][d] * kk[d];                                   \
                    sc[t] = a;                                                                                   \
                    mx = a > mx ? a : mx;                                                                        \
                }                                                                                                \
                for (int t = 0; t < PA_PART; t++) sum += sc[t] = expf(sc[t] - mx);                               \
                for (int t = 0; t < PA_PART; t++) c->tem[s][h][p * PA_PART + t] = pa_to_hf(sc[t] / sum);         \
                c->max_logits[s][h][p] = mx, c->exp_sums[s][h][p] = sum;                                         \
                float o[PA_D] = {0};                                                                             \
                for (int t = 0; t < PA_PART; t++) {                                                              \
                    int tok = p * PA_PART + t, blk = (int)c->btab[s][tok / PA_BS];                               \
                    float pt = pa_from_hf(c->tem[s][h][p * PA_PART + t]);                                        \
                    const float *vv = c->v[blk][tok % PA_BS][g];                                                 \
                    for (int d = 0; d < PA_D; d++) o[d] += pt * vv[d];                                           \
                }                                                                                                \
                for (int d = 0; d < PA_D; d++) c->out_p[s][h][p][d] = pa_to_hf(o[d]);                            \
            }                                                                                                    \
            float gm = -INFINITY, tot = 0, w[PA_NP];                                                             \
            for (int p = 0; p < np; p++) gm = c->max_logits[s][h][p] > gm ? c->max_logits[s][h][p] : gm;         \
            for (int p = 0; p < np; p++) tot += w[p] = c->exp_sums[s][h][p] * expf(c->max_logits[s][h][p] - gm); \
            for (int d = 0; d < PA_D; d++) {                                                                     \
                float o = 0;                                                                                     \
                for (int p = 0; p < np; p++) o += w[p] / tot * pa_from_hf(c->out_p[s][h][p][d]);                 \
                c->out[s][h][d] = pa_to_hf(o);                                                                   \
            }                                                                                                    \
        }

__attribute__((noinline)) static void native_attention(pa_case *c) { NATIVE_BODY }
#if defined(__x86_64__) && defined(__GNUC__)
#define NATIVE_HW 1
__attribute__((noinline, target("avx2,fma"))) static void native_attention_hw(pa_case *c) { NATIVE_BODY }
static int host_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
#define NATIVE_HW 0
static void native_attention_hw(pa_case *c) { native_attention(c); }
static int host_has_avx2(void) { return 0; }
#endif

/* Emulated vs native outputs: max_logits exact, exp_sums within 1e-5 relative, hf outputs within
** 4 hf ulps of the larger plus 2^-14 absolute.  Returns the number of elements outside. */
static int compare(const pa_case *e, const pa_case *n) {
    int bad = 0;
#define HF_CLOSE(a, b) \
    (fabsf(pa_from_hf(a) - pa_from_hf(b)) <= fmaxf(fabsf(pa_from_hf(a)), fabsf(pa_from_hf(b))) / 256 + 0x1p-14f)
    for (int s = 0; s < PA_NS; s++)
        for (int h = 0; h < PA_NH; h++) {
            int np = (int)((e->ctx_len[s] + PA_PART - 1) / PA_PART);
            for (int p = 0; p < np; p++) {
                bad += e->max_logits[s][h][p] != n->max_logits[s][h][p];
                bad += !(fabsf(e->exp_sums[s][h][p] - n->exp_sums[s][h][p]) <= n->exp_sums[s][h][p] * 1e-5f);
                for (int t = 0; t < PA_PART; t++)
                    bad += !HF_CLOSE(e->tem[s][h][p * PA_PART + t], n->tem[s][h][p * PA_PART + t]);
                for (int d = 0; d < PA_D; d++) bad += !HF_CLOSE(e->out_p[s][h][p][d], n->out_p[s][h][p][d]);
            }
            for (int d = 0; d < PA_D; d++) bad += !HF_CLOSE(e->out[s][h][d], n->out[s][h][d]);
        }
#undef HF_CLOSE
    return bad;
}

int main(int argc, char **argv) {
    double min_s = 1.0;
    const char *dir = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seconds") && a + 1 < argc) min_s = atof(argv[++a]);
        else dir = argv[a];
    }
    if (!dir) {
        fprintf(stderr, "usage: bench_attention [--seconds S] CORPUS_DIR\n");
        return 2;
    }
    visa_ctx *ctx;
    if (visa_ctx_create(NULL, &ctx) != VISA_OK) return 1;
    visa_module *mk = pa_load(ctx, dir, "paged_attention_kernel.a.visaasm");
    visa_module *mr = pa_load(ctx, dir, "paged_attention_reduce.a.visaasm");
    if (!mk || !mr) {
        printf("bench_attention: no paged-attention kernels in %s (skipped)\n", dir);
        visa_module_destroy(mk), visa_module_destroy(mr), visa_ctx_destroy(ctx);
        return 0;
    }
    pa_case *e = malloc(sizeof *e), *n = malloc(sizeof *n);
    if (!e || !n) return 1;
    pa_init(e);
    pa_init(n);
    int hw = NATIVE_HW && host_has_avx2();
    visa_run_opts ka, ra;
    pa_run_opts(&ka, 0, 1);
    pa_run_opts(&ra, 1, 1);
    /* alternate emulated and native slices so both see the same machine load */
    double te = 0, tn = 0, th = 0;
    int re = 0, rn = 0, rh = 0;
    visa_status st = VISA_OK;
    do {
        pa_init(e); /* fresh sentinels: each run writes every output again */
        double t0 = now();
        st = visa_module_run(mk, &ka, e->ka, 17, e->kb, 10, NULL);
        if (st == VISA_OK) st = visa_module_run(mr, &ra, e->ra, 8, e->rb, 5, NULL);
        te += now() - t0, re++;
        if (st != VISA_OK) break;
        for (int side = 0; side <= hw; side++) {
            double t1 = now(), t;
            do {
                (side ? native_attention_hw : native_attention)(n);
                *(side ? &rh : &rn) += 1;
                t = now();
            } while (t - t1 < 0.05);
            *(side ? &th : &tn) += t - t1;
        }
    } while (te < min_s);
    int bad = st == VISA_OK ? compare(e, n) : -1;
    double es = te / re, ns = tn / rn, hs = rh ? th / rh : 0;
    /* multiply-adds of the work: q.k and p.V over every token of every live partition, per head */
    double macs = 0;
    for (int s = 0; s < PA_NS; s++) macs += 2.0 * PA_NH * e->ctx_len[s] * PA_D;
    printf("bench_attention: paged attention (XeTLA, IGC 2.x dump), %d seqs x %d heads, %u + %u tokens, "
           "1 host thread\n",
           PA_NS, PA_NH, e->ctx_len[0], e->ctx_len[1]);
    printf("%-10s %10s %10s %9s %10s %9s  %s\n", "kernel", "emu ms", "native ms", "emu/nat", "hw ms", "emu/hw",
           "check");
    char hwcol[48] = "         -         -";
    if (hs > 0) snprintf(hwcol, sizeof hwcol, "%10.3f %8.2fx", hs * 1e3, es / hs);
    printf("%-10s %10.3f %10.3f %8.2fx %s  %s (%.1f M MAC/s emulated)\n", "attention", es * 1e3, ns * 1e3, es / ns,
           hwcol,
           st != VISA_OK ? visa_status_str(st)
           : bad         ? "DIFFER"
                         : "agree",
           macs / es / 1e6);
    if (bad > 0) printf("  %d outputs differ from the native ones beyond the tolerance\n", bad);
    free(e), free(n);
    visa_module_destroy(mk), visa_module_destroy(mr), visa_ctx_destroy(ctx);
    return bad ? 1 : 0;
}
