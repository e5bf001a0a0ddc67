/* attention_case.h -- the paged-attention case that test_corpus_attention checks and
** bench_attention times: IGC's two XeTLA paged-attention kernels (../shared/corpus/igc-dumps,
** paged_attention_policy_v2<128, 64>, half data, uint32 block tables, Xe2), their shapes, inputs,
** launch arguments and group grids.  What the kernels compute is described in corpus_attention.c.
** Header-only (static functions): the test and the benchmark include it. */
#ifndef VISA_TESTS_ATTENTION_CASE_H
#define VISA_TESTS_ATTENTION_CASE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

enum {
    PA_D = 128, /* head size */
    PA_BS = 64, /* tokens per KV block */
    PA_PART = 512, /* tokens per partition */
    PA_GROUP = 8, /* query heads per KV head = threads per group */
    PA_NS = 2, /* sequences */
    PA_NKV = 2, /* KV heads */
    PA_NH = PA_NKV * PA_GROUP, /* query heads */
    PA_NP = 2, /* max partitions */
    PA_MAXB = PA_NP * PA_PART / PA_BS,
    PA_NBLK = 24 /* physical blocks: 16 for sequence 0 and 8 for sequence 1 */
};

/* Inputs (float values and their hf encodings), outputs and the two launches' arguments. */
typedef struct pa_case {
    uint32_t ctx_len[PA_NS];
    float q[PA_NS][PA_NH][PA_D], k[PA_NBLK][PA_BS][PA_NKV][PA_D], v[PA_NBLK][PA_BS][PA_NKV][PA_D];
    uint16_t qh[PA_NS][PA_NH][PA_D], kh[PA_NBLK][PA_BS][PA_NKV][PA_D], vh[PA_NBLK][PA_BS][PA_NKV][PA_D];
    uint32_t btab[PA_NS][PA_MAXB];
    float max_logits[PA_NS][PA_NH][PA_NP], exp_sums[PA_NS][PA_NH][PA_NP];
    uint16_t out_p[PA_NS][PA_NH][PA_NP][PA_D], tem[PA_NS][PA_NH][PA_NP * PA_PART], out[PA_NS][PA_NH][PA_D];
    float alibi[PA_NH];
    visa_buffer kb[10], rb[5];
    visa_arg ka[17], ra[8];
} pa_case;

/* IEEE binary16 <-> float, round to nearest even (written from the format, not from the emulator) */
static inline uint16_t pa_to_hf(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)(x >> 16 & 0x8000);
    x &= 0x7fffffff;
    if (x >= 0x7f800000) return (uint16_t)(sign | 0x7c00 | (x > 0x7f800000 ? 0x200 : 0));
    if (x >= 0x477ff000) return (uint16_t)(sign | 0x7c00); /* rounds past 65504 */
    if (x < 0x38800000) { /* hf subnormal or zero */
        double v = (double)fabsf(f) * 16777216.0; /* units of 2^-24, exact */
        return (uint16_t)(sign | (uint16_t)nearbyint(v)); /* default mode rounds to even */
    }
    uint32_t mant = x & 0x7fffff, e = (x >> 23) - 127 + 15;
    uint32_t h = e << 10 | mant >> 13, rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}
static inline float pa_from_hf(uint16_t h) {
    int e = h >> 10 & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h & 0x8000 ? -v : v;
}

/* The sentinel every output starts as: it would show up if a kernel used an unwritten element. */
enum { PA_SENTINEL = 100 };

/* Fills the case: inputs (multiples of 1/64 in [-1, 1], so every score is exact in f32),
** scattered block tables, sentinel outputs and both launches' buffers and arguments.  The
** context lengths are whole partitions (the kernels have no context mask). */
static inline void pa_init(pa_case *c) {
    uint32_t rng = 12345;
#define PA_RND64() (rng = rng * 1103515245u + 12345u, (float)((int)(rng >> 16 & 127) - 64) / 64.0f)
    c->ctx_len[0] = 1024, c->ctx_len[1] = 512;
    for (int s = 0; s < PA_NS; s++)
        for (int h = 0; h < PA_NH; h++)
            for (int d = 0; d < PA_D; d++) c->qh[s][h][d] = pa_to_hf(c->q[s][h][d] = PA_RND64());
    for (int b = 0; b < PA_NBLK; b++)
        for (int t = 0; t < PA_BS; t++)
            for (int g = 0; g < PA_NKV; g++)
                for (int d = 0; d < PA_D; d++) {
                    c->kh[b][t][g][d] = pa_to_hf(c->k[b][t][g][d] = PA_RND64());
                    c->vh[b][t][g][d] = pa_to_hf(c->v[b][t][g][d] = PA_RND64());
                }
#undef PA_RND64
    /* logical block j of sequence s -> a scattered physical block (5 is prime to 24) */
    for (int s = 0, j = 0; s < PA_NS; s++)
        for (int i = 0; i < PA_MAXB; i++)
            c->btab[s][i] = i * PA_BS < (int)c->ctx_len[s] ? (uint32_t)((j++ * 5 + 7) % PA_NBLK) : 0;
    for (int s = 0; s < PA_NS; s++)
        for (int h = 0; h < PA_NH; h++) {
            for (int p = 0; p < PA_NP; p++) {
                c->max_logits[s][h][p] = 1000, c->exp_sums[s][h][p] = 1000;
                for (int d = 0; d < PA_D; d++) c->out_p[s][h][p][d] = pa_to_hf(PA_SENTINEL);
            }
            for (int i = 0; i < PA_NP * PA_PART; i++) c->tem[s][h][i] = pa_to_hf(PA_SENTINEL);
            for (int d = 0; d < PA_D; d++) c->out[s][h][d] = pa_to_hf(PA_SENTINEL);
        }
    memset(c->alibi, 0, sizeof c->alibi);
    const visa_buffer kb[10] = {{(uint8_t *)c->max_logits, sizeof c->max_logits},
                                {(uint8_t *)c->exp_sums, sizeof c->exp_sums},
                                {(uint8_t *)c->out_p, sizeof c->out_p},
                                {(uint8_t *)c->tem, sizeof c->tem},
                                {(uint8_t *)c->qh, sizeof c->qh},
                                {(uint8_t *)c->kh, sizeof c->kh},
                                {(uint8_t *)c->vh, sizeof c->vh},
                                {(uint8_t *)c->alibi, sizeof c->alibi},
                                {(uint8_t *)c->btab, sizeof c->btab},
                                {(uint8_t *)c->ctx_len, sizeof c->ctx_len}};
    memcpy(c->kb, kb, sizeof kb);
    memset(c->ka, 0, sizeof c->ka);
    for (int i = 0; i < 10; i++) c->ka[i].kind = VISA_ARG_BUFFER, c->ka[i].buffer = (uint32_t)i;
    /* num_queries_per_tokens, sm_scale, num_seqs, num_heads, num_kv_heads, max_blocks_per_seq, softcap */
    static const uint32_t kscal[7] = {PA_GROUP, 0, PA_NS, PA_NH, PA_NKV, PA_MAXB, 0};
    for (int i = 0; i < 7; i++) c->ka[10 + i].kind = VISA_ARG_INT, c->ka[10 + i].value = kscal[i];
    c->ka[11].kind = VISA_ARG_FLOAT, c->ka[11].fvalue = 1.0; /* sm_scale: unused by this build */
    c->ka[16].kind = VISA_ARG_FLOAT, c->ka[16].fvalue = 0.0; /* softcap */
    const visa_buffer rb[5] = {{(uint8_t *)c->out, sizeof c->out},
                               {(uint8_t *)c->out_p, sizeof c->out_p},
                               {(uint8_t *)c->max_logits, sizeof c->max_logits},
                               {(uint8_t *)c->exp_sums, sizeof c->exp_sums},
                               {(uint8_t *)c->ctx_len, sizeof c->ctx_len}};
    memcpy(c->rb, rb, sizeof rb);
    memset(c->ra, 0, sizeof c->ra);
    for (int i = 0; i < 5; i++) c->ra[i].kind = VISA_ARG_BUFFER, c->ra[i].buffer = (uint32_t)i;
    static const uint32_t rscal[3] = {PA_NS, PA_NH, PA_NP}; /* num_seqs, num_heads, max_num_partitions */
    for (int i = 0; i < 3; i++) c->ra[5 + i].kind = VISA_ARG_INT, c->ra[5 + i].value = rscal[i];
}

/* Run options for the attention kernel (reduce = 0: groups (partition, sequence, KV head)) or
** the reduce kernel (reduce = 1: groups (1, head, sequence)), 8 threads per group. */
static inline void pa_run_opts(visa_run_opts *ro, int reduce, unsigned threads) {
    memset(ro, 0, sizeof *ro);
    ro->struct_size = sizeof *ro;
    ro->platform = VISA_PLATFORM_XE2;
    ro->group_size[0] = PA_GROUP;
    if (reduce) ro->groups[0] = 1, ro->groups[1] = PA_NH, ro->groups[2] = PA_NS;
    else ro->groups[0] = PA_NP, ro->groups[1] = PA_NS, ro->groups[2] = PA_NKV;
    ro->threads = threads;
}

/* One of the two kernels from the corpus directory, parsed for Xe2; NULL if it is not there. */
static inline visa_module *pa_load(visa_ctx *ctx, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    char *text = th_read_file(path, &len);
    if (!text) return NULL;
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, path, text, len, VISA_PLATFORM_XE2, &m) != VISA_OK) m = NULL;
    free(text);
    return m;
}

#endif
