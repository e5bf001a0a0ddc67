/* corpus_attention.c -- runs IGC's two XeTLA paged-attention kernels (../shared/corpus/igc-dumps,
** built from mayuyuace/Xetla_From_IPEX paged_attention_kernel_v2.hpp with
** paged_attention_policy_v2<128, 64>, half data, uint32 block tables, Xe2) on meaningful inputs
** and compares every output with a small C model of paged attention written here.
**
** What the kernels compute (read from that source and checked against the kernel text):
**   head size 128, KV block 64 tokens, partition 512 tokens, 8 threads per group (one 64-token
**   block each), 8 query heads per KV head.  Group (x, y, z) = (partition, sequence, KV head).
**   Attention kernel arguments, in order:
**     0 max_logits f32 [seq][head][partition]     1 exp_sums f32 [seq][head][partition]
**     2 out hf [seq][head][partition][128]        3 tem_out hf [seq][head][partition*512]
**     4 query hf [seq][head][128]                 5 key_cache hf [block][64][kv_head][128]
**     6 value_cache hf (as key_cache)             7 alibi_slopes (unused by this build)
**     8 block_tables u32 [seq][max_blocks]        9 context_lens u32 [seq]
**     scalars: num_queries_per_tokens, sm_scale (both unused by this build: no scaling),
**     num_seqs (unused), num_heads, num_kv_heads, max_blocks_per_seq, softcap (unused).
**   Per (seq, head, partition): s = q.k over the partition's 512 tokens, m = max s,
**   e = sum exp(s - m), p = exp(s - m) / e (stored as hf in tem_out), out = p.V (hf).
**   Reduce kernel arguments: out hf [seq][head][128], tmp_out (the attention kernel's out),
**   max_logits, exp_sums, context_lens, scalars num_seqs, num_heads, max_num_partitions; group
**   (x, y, z) = (1, head, sequence); out = sum_p w_p tmp_out_p, w_p = e_p exp(m_p - M) / sum.
**
** The kernel computes neither a context-length mask nor a barrier for threads without a block
** (the barrier sits inside the per-block loop), so context lengths are whole partitions.
**
** Tolerances (from the kernels' arithmetic): Q and K are multiples of 1/64 in [-1, 1], so every
** product and partial sum of a score is exact in f32 (19 significant bits): max_logits must be
** exact.  exp_sums are f32 sums of 512 f32 exponentials: relative 1e-5.  tem_out is a
** probability rounded to hf: |p| 2^-10 + 2^-24 (one hf rounding, subnormals near 0, slack for
** the f32 exp).  A partition's out is sum p_t v_t with p_t rounded to hf, f32 accumulation, then
** hf: 2^-10 sum |p_t v_t| + 2^-11 |out| + 2^-15 (512 subnormal roundings of 2^-25).  The final
** out: the weighted partition tolerances + 2^-11 |out| + 1e-5; it is also checked against the
** model applied to the attention kernel's own hf outputs (f32 math then hf: 2^-11 |out| + 1e-5)
** to tell a reduce-kernel error from an attention-kernel one.
**
** Usage: test_corpus_attention CORPUS_DIR (exit 77 = skipped when the corpus is absent). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "attention_case.h"
#include "visa/visa.h"

enum { D = PA_D, BS = PA_BS, PART = PA_PART, GROUP = PA_GROUP, NS = PA_NS, NH = PA_NH, NP = PA_NP };

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
}

/* Worst error over a case, reported whether or not it passes. */
typedef struct {
    double worst, worst_ratio;
    int bad;
} errstat;
static void check_val(errstat *s, const char *what, int i, double got, double want, double tol) {
    double err = fabs(got - want);
    if (!(err <= tol)) { /* NaN fails too */
        if (s->bad++ < 5) fprintf(stderr, "  %s[%d] = %.9g, model %.9g (tolerance %.3g)\n", what, i, got, want, tol);
    }
    if (err > s->worst || got != got) s->worst = got != got ? INFINITY : err;
    if (tol > 0 && err / tol > s->worst_ratio) s->worst_ratio = err / tol;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/paged_attention_kernel.a.visaasm", argv[1]);
    FILE *pf = fopen(probe, "rb");
    if (!pf) {
        th_skip("IGC corpus", probe);
        return th_finish();
    }
    fclose(pf);
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;
    visa_module *mk = pa_load(ctx, argv[1], "paged_attention_kernel.a.visaasm");
    visa_module *mr = pa_load(ctx, argv[1], "paged_attention_reduce.a.visaasm");
    CASE_BEGIN();
    CHECK(mk && mr);
    CASE_END("parse both kernels");
    if (!mk || !mr) return th_finish();

    pa_case *c = malloc(sizeof *c);
    if (!c) return 1;
    pa_init(c);
    visa_run_opts ro;
    pa_run_opts(&ro, 0, 2);
    CASE_BEGIN();
    visa_status st = visa_module_run(mk, &ro, c->ka, 17, c->kb, 10, NULL);
    CHECKF(st == VISA_OK, "attention kernel: %s", visa_status_str(st));
    CASE_END("attention kernel runs");
    if (st != VISA_OK) return th_finish();

    /* model of the attention kernel, in double from the exact inputs */
    static double m_max[NS][NH][NP], m_sum[NS][NH][NP], m_out[NS][NH][NP][D], m_tol[NS][NH][NP][D];
    static double m_p[PART];
    errstat es_max = {0}, es_sum = {0}, es_tem = {0}, es_out = {0};
    for (int s = 0; s < NS; s++)
        for (int h = 0; h < NH; h++) {
            int g = h / GROUP;
            for (int p = 0; p < NP; p++) {
                if ((uint32_t)p * PART >= c->ctx_len[s]) continue; /* no such partition */
                double mx = -INFINITY, sum = 0;
                for (int t = 0; t < PART; t++) {
                    int tok = p * PART + t, blk = (int)c->btab[s][tok / BS];
                    double sc = 0;
                    for (int d = 0; d < D; d++) sc += (double)c->q[s][h][d] * c->k[blk][tok % BS][g][d];
                    m_p[t] = sc;
                    if (sc > mx) mx = sc;
                }
                for (int t = 0; t < PART; t++) sum += m_p[t] = exp(m_p[t] - mx);
                for (int t = 0; t < PART; t++) m_p[t] /= sum;
                m_max[s][h][p] = mx, m_sum[s][h][p] = sum;
                check_val(&es_max, "max_logits", (s * NH + h) * NP + p, c->max_logits[s][h][p], mx, 0);
                check_val(&es_sum, "exp_sums", (s * NH + h) * NP + p, c->exp_sums[s][h][p], sum, sum * 1e-5);
                for (int t = 0; t < PART; t++)
                    check_val(&es_tem, "tem_out", ((s * NH + h) * NP + p) * PART + t,
                              pa_from_hf(c->tem[s][h][p * PART + t]), m_p[t], m_p[t] / 1024 + ldexp(1, -24));
                for (int d = 0; d < D; d++) {
                    double o = 0, mag = 0;
                    for (int t = 0; t < PART; t++) {
                        int tok = p * PART + t, blk = (int)c->btab[s][tok / BS];
                        o += m_p[t] * c->v[blk][tok % BS][g][d];
                        mag += fabs(m_p[t] * c->v[blk][tok % BS][g][d]);
                    }
                    m_out[s][h][p][d] = o;
                    m_tol[s][h][p][d] = mag / 1024 + fabs(o) / 2048 + ldexp(1, -15);
                    check_val(&es_out, "out", ((s * NH + h) * NP + p) * D + d, pa_from_hf(c->out_p[s][h][p][d]), o,
                              m_tol[s][h][p][d]);
                }
            }
        }
    /* a group whose partition lies past the context returns before writing anything */
    CASE_BEGIN();
    for (int s = 0; s < NS; s++)
        for (int h = 0; h < NH; h++)
            for (int p = 0; p < NP; p++) {
                if ((uint32_t)p * PART < c->ctx_len[s]) continue;
                int kept = c->max_logits[s][h][p] == 1000 && c->exp_sums[s][h][p] == 1000;
                for (int d = 0; d < D; d++) kept &= c->out_p[s][h][p][d] == pa_to_hf(PA_SENTINEL);
                for (int t = 0; t < PART; t++) kept &= c->tem[s][h][p * PART + t] == pa_to_hf(PA_SENTINEL);
                CHECKF(kept, "sequence %d head %d partition %d was written", s, h, p);
            }
    CASE_END("no output for partitions past the context");
    const struct {
        const char *name;
        errstat *e;
    } ks[] = {{"attention max_logits", &es_max},
              {"attention exp_sums", &es_sum},
              {"attention tem_out (softmax)", &es_tem},
              {"attention out (per partition)", &es_out}};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        CASE_BEGIN();
        CHECKF(!ks[i].e->bad, "%d elements outside tolerance", ks[i].e->bad);
        CASE_END(ks[i].name);
        printf("%-32s max |error| %.3g (%.2f of tolerance)\n", ks[i].name, ks[i].e->worst, ks[i].e->worst_ratio);
    }

    /* reduce kernel on the attention kernel's outputs */
    pa_run_opts(&ro, 1, 2);
    CASE_BEGIN();
    st = visa_module_run(mr, &ro, c->ra, 8, c->rb, 5, NULL);
    CHECKF(st == VISA_OK, "reduce kernel: %s", visa_status_str(st));
    CASE_END("reduce kernel runs");
    if (st != VISA_OK) return th_finish();

    errstat es_fin = {0}, es_red = {0};
    for (int s = 0; s < NS; s++)
        for (int h = 0; h < NH; h++) {
            int np = (int)((c->ctx_len[s] + PART - 1) / PART);
            double gm = -INFINITY, gk = -INFINITY, tot = 0, totk = 0, w[NP], wk[NP];
            for (int p = 0; p < np; p++) {
                if (m_max[s][h][p] > gm) gm = m_max[s][h][p];
                if (c->max_logits[s][h][p] > gk) gk = c->max_logits[s][h][p];
            }
            for (int p = 0; p < np; p++) {
                tot += w[p] = m_sum[s][h][p] * exp(m_max[s][h][p] - gm);
                totk += wk[p] = c->exp_sums[s][h][p] * exp(c->max_logits[s][h][p] - gk);
            }
            for (int d = 0; d < D; d++) {
                double o = 0, tol = 0, ok = 0, mag = 0;
                for (int p = 0; p < np; p++) {
                    o += w[p] / tot * m_out[s][h][p][d];
                    tol += w[p] / tot * m_tol[s][h][p][d];
                    double t = wk[p] / totk * pa_from_hf(c->out_p[s][h][p][d]);
                    ok += t, mag += fabs(t);
                }
                double got = pa_from_hf(c->out[s][h][d]);
                check_val(&es_fin, "out", (s * NH + h) * D + d, got, o, tol + fabs(o) / 2048 + 1e-5);
                check_val(&es_red, "reduce", (s * NH + h) * D + d, got, ok, fabs(ok) / 2048 + mag * 1e-5 + 1e-6);
            }
        }
    CASE_BEGIN();
    CHECKF(!es_red.bad, "%d elements outside tolerance", es_red.bad);
    CASE_END("reduce vs model of the kernel's own partials");
    printf("%-32s max |error| %.3g (%.2f of tolerance)\n", "reduce (same partials)", es_red.worst, es_red.worst_ratio);
    CASE_BEGIN();
    CHECKF(!es_fin.bad, "%d elements outside tolerance", es_fin.bad);
    CASE_END("final attention output vs model");
    printf("%-32s max |error| %.3g (%.2f of tolerance)\n", "final out (end to end)", es_fin.worst, es_fin.worst_ratio);

    free(c);
    visa_module_destroy(mk);
    visa_module_destroy(mr);
    visa_ctx_destroy(ctx);
    return th_finish();
}
