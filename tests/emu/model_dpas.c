/* model_dpas.c -- DPAS / DPASW against an independent C model of the spec's pseudo code.
**
** The model below is written from /work/shared/spec/instructions/DPAS.md and DPASW.md only (not
** from src/emu/dpas.c).  For every precision pair of the spec's precision table (integer u1..s8 x
** u1..s8, bf, hf, tf32, and the fp8 pairs bf8/hf8 of the legal-type table), systolic depths 8, 4,
** 2, 1, repeat counts 1..8, both GRF sizes (SIMD8: XeHP, XeHPG; SIMD16: XeHPC, Xe2), src0 given
** or %null, and every dst/src0 type the type table allows (d/ud; f/bf; f/hf; f), it writes a vISA
** kernel as text (loads A, B, C and a sentinel D with svm_block_ld, one dpas, stores D), runs it
** through visa_module_parse_text + visa_module_run and compares each destination element bit for
** bit (and checks that the bytes after the last row are untouched).  DPASW is run on XeHP and
** XeHPG.
**
** How the model computes (the spec's pseudo code, with the readings below where it is silent):
**  * Layout: Src1 (B) element j of stage d, lane i is at bit (d % S)*OPS*W + j*W of dword i of
**    GRF d / S, S = SRC1_OPERANDS_PER_CHAN = 32 / (OPS*W).  Src2 (A) element k is at bit k*A of
**    the packed Src2 bytes, k running on over the repeats as in the pseudo code (k is never reset),
**    so row r starts at element r*SD*OPS.  (The prose "Src2 is advanced 8*OPS_PER_CHAN" is the
**    same thing for SD 8; for SD < 8 the pseudo code is followed.)
**  * OPS_PER_CHAN: 1 for tf32, 2 for bf/hf, 4 if either precision is 8 bits (int or fp8), else 8.
**  * Integer: exact products, 32-bit two's-complement wrap-around of the accumulator (the spec
**    has no saturation for DPAS); signedness from each precision.
**  * Float: "the output of each stage is a dword ... the accumulated input to the next stage".
**    Reading chosen: each stage computes acc + sum of its OPS products EXACTLY (the dot2/dot4 is
**    one fused operation; the spec gives no intermediate rounding) and rounds that once to fp32,
**    round-to-nearest-even, fp32 subnormals kept (IEEE default; IGC kernels run with denormals
**    kept).  Exact sums use a 640-bit two's-complement fixed-point integer with LSB 2^-300 (all
**    products of the input formats are multiples of 2^-272 and below 2^257), so no MPFR.
**  * Special values (IEEE rules applied to the fused stage): any NaN operand, inf*0 or +inf + -inf
**    gives NaN, written as the canonical quiet NaN 0x7fc00000 (the spec says nothing about NaN
**    payloads; hardware does not propagate them through dot products); an infinite product or
**    accumulator otherwise gives that infinity; an exact zero sum is -0 only when every addend
**    (accumulator and each product) is -0, else +0 (IEEE's sum-of-zeros rule under RNE).
**  * Input formats: hf = IEEE binary16, bf = bfloat16 (E8M7), tf32 = E8M10 in the HIGH 19 bits
**    of the dword (low 13 bits ignored; the page defines tf32 as a 19-bit E8M10 type held in a
**    32-bit element), bf8 = E5M2 with IEEE inf/NaN (FCVT.md), hf8 = E4M3 "FN": bias 7, no
**    infinities, S.1111.111 is NaN, max 448 (the OCP FP8 definition; the DPAS page only names
**    the type).  Subnormal inputs are kept.
**  * hf/bf src0 is widened exactly to fp32; hf/bf dst is the final fp32 accumulator rounded once
**    more (RNE, overflow to inf, NaN -> 0x7e00 / 0x7fc0).  hf/bf dst and src0 rows are N packed
**    elements (N*2 bytes), rows back to back.
**  * DPASW: Src2.R[g] = EU0.Src2.R[g] for g < NGrf_EU0, EU1.Src2.R[g - NGrf_EU0] after, with
**    NGrf computed by the page's formula (32-byte GRFs; DPASW is run with SD 8 only, the depth
**    that formula assumes).  A one-thread launch has no fused partner: the reading (the one
**    tests/emu/cases_dpas.txt uses) is that the thread is its own EU0 and EU1.  Groups of two
**    threads, where the spec takes EU1's GRFs from the other thread (thread 0 is EU0), are run
**    too (check_fused_pairs).
**
** Inputs (deterministic, splitmix64): integers random or at the extremes of each precision with
** src0 near INT_MIN/INT_MAX (wrap-around); floats in seven modes: all bit patterns, moderate
** exponents (cancellation, inexact stages), "ties" (src0 and products placed so the exact stage
** sum is often exactly half an ulp), tiny (subnormal inputs and fp32-subnormal results), huge
** (overflow to inf), sprinkled specials (+-0, inf, NaN, max, min subnormal), small integers
** (exact cancellation to +-0).  The program prints how many ties, overflows, subnormal results,
** NaN/inf/-0 stages the model met, so a change of inputs that loses a class shows.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

/* ---------------------------------------------------------------- precisions (spec table) */

typedef enum { P_UINT, P_SINT, P_BF, P_HF, P_TF32, P_BF8, P_HF8 } pkind;
typedef struct {
    const char *name;
    unsigned bits;
    pkind kind;
} prec;

static const prec PRECS[] = {
    {"u1", 1, P_UINT},    {"s1", 1, P_SINT}, {"u2", 2, P_UINT}, {"s2", 2, P_SINT}, {"u4", 4, P_UINT},
    {"s4", 4, P_SINT},    {"u8", 8, P_UINT}, {"s8", 8, P_SINT}, {"bf", 16, P_BF},  {"hf", 16, P_HF},
    {"tf32", 32, P_TF32}, {"bf8", 8, P_BF8}, {"hf8", 8, P_HF8},
};
#define NPRECS (sizeof PRECS / sizeof PRECS[0])
static const prec *prec_by(const char *n) {
    for (size_t i = 0; i < NPRECS; i++)
        if (!strcmp(PRECS[i].name, n)) return &PRECS[i];
    return NULL;
}
static int is_int(const prec *p) { return p->kind == P_UINT || p->kind == P_SINT; }

/* Float formats: exponent bits, stored mantissa bits, whether the all-ones exponent is inf/NaN
** (IEEE) or only S.1111.111 is NaN (hf8). */
typedef struct {
    int ebits, mbits, ieee;
} ffmt;
static const ffmt F_F32 = {8, 23, 1}, F_HF = {5, 10, 1}, F_BF = {8, 7, 1}, F_TF32 = {8, 10, 1}, F_BF8 = {5, 2, 1},
                  F_HF8 = {4, 3, 0};
static const ffmt *fmt_of(pkind k) {
    switch (k) {
    case P_BF: return &F_BF;
    case P_HF: return &F_HF;
    case P_TF32: return &F_TF32;
    case P_BF8: return &F_BF8;
    case P_HF8: return &F_HF8;
    default: return NULL;
    }
}

/* ---------------------------------------------------------------- exact arithmetic */

enum { C_ZERO, C_FIN, C_INF, C_NAN };
typedef struct {
    int cls, neg;
    uint64_t mant; /* value = mant * 2^exp */
    int exp;
} fval;

static fval decode(const ffmt *f, uint32_t bits) {
    fval v = {C_FIN, (int)(bits >> (f->ebits + f->mbits)) & 1, 0, 0};
    uint32_t e = (bits >> f->mbits) & ((1u << f->ebits) - 1), m = bits & ((1u << f->mbits) - 1);
    int bias = (1 << (f->ebits - 1)) - 1;
    uint32_t emax = (1u << f->ebits) - 1;
    if (f->ieee && e == emax) {
        v.cls = m ? C_NAN : C_INF;
        return v;
    }
    if (!f->ieee && e == emax && m == (1u << f->mbits) - 1) {
        v.cls = C_NAN;
        return v;
    }
    if (e == 0) {
        if (!m) {
            v.cls = C_ZERO;
            return v;
        }
        v.mant = m;
        v.exp = 1 - bias - f->mbits;
    } else {
        v.mant = m | (1u << f->mbits);
        v.exp = (int)e - bias - f->mbits;
    }
    return v;
}

#define BW 10 /* words of the fixed-point accumulator */
#define BIAS 300 /* its LSB is 2^-BIAS */
typedef struct {
    uint64_t w[BW];
} big;

static void big_add(big *a, uint64_t mant, int exp, int neg) {
    big t;
    memset(&t, 0, sizeof t);
    int pos = exp + BIAS;
    if (pos < 0 || pos + 64 > BW * 64 - 2) abort(); /* outside the model's range: a model bug */
    t.w[pos / 64] = mant << (pos % 64);
    if (pos % 64) t.w[pos / 64 + 1] = mant >> (64 - pos % 64);
    unsigned carry = 0;
    for (int i = 0; i < BW; i++) {
        uint64_t x = neg ? ~t.w[i] : t.w[i], s = a->w[i] + x;
        unsigned c1 = s < x;
        uint64_t s2 = s + carry;
        unsigned c2 = s2 < s;
        a->w[i] = s2;
        carry = c1 | c2;
    }
    if (neg) { /* a + ~t + 1 */
        for (int i = 0; i < BW && ++a->w[i] == 0; i++) {}
    }
    (void)carry;
}

/* What the model's roundings met, to show the inputs reach the cases the header lists. */
static long st_ties, st_inexact, st_overflow, st_subnormal, st_nan, st_inf, st_negzero, st_poszero_cancel;

static int big_bit(const big *a, int i) { return (int)(a->w[i / 64] >> (i % 64)) & 1; }

/* Round sign * a * 2^-BIAS to a binary format with p significand bits (incl. the hidden one),
** normal exponents emin..emax and ebits exponent bits; RNE, subnormals, overflow to inf. */
static uint32_t big_round(big a, int p, int emin, int emax, int ebits) {
    int neg = (int)(a.w[BW - 1] >> 63);
    if (neg) {
        for (int i = 0; i < BW; i++) a.w[i] = ~a.w[i];
        for (int i = 0; i < BW && ++a.w[i] == 0; i++) {}
    }
    uint32_t sign = (uint32_t)neg << (ebits + p - 1);
    int h = -1;
    for (int i = BW * 64 - 1; i >= 0; i--)
        if (big_bit(&a, i)) {
            h = i;
            break;
        }
    if (h < 0) return 0; /* exact zero: the caller decides the sign */
    int e = h - BIAS, q = e - (p - 1);
    if (q < emin - (p - 1)) q = emin - (p - 1);
    int s = q + BIAS;
    uint64_t m = 0;
    for (int i = p - 1; i >= 0; i--) m = m << 1 | (uint64_t)(s + i >= 0 ? big_bit(&a, s + i) : 0);
    int guard = s - 1 >= 0 ? big_bit(&a, s - 1) : 0, sticky = 0;
    for (int i = 0; i < s - 1; i++)
        if (big_bit(&a, i)) {
            sticky = 1;
            break;
        }
    if (guard && !sticky) st_ties++;
    if (guard || sticky) st_inexact++;
    if (guard && (sticky || (m & 1))) m++;
    if (m == (1ull << p)) {
        m >>= 1;
        q++;
    }
    uint32_t emask = (1u << ebits) - 1;
    if (m >> (p - 1)) {
        int E = q + (p - 1);
        if (E > emax) {
            st_overflow++;
            return sign | emask << (p - 1);
        }
        return sign | (uint32_t)(E + emax) << (p - 1) | (uint32_t)(m & ((1ull << (p - 1)) - 1));
    }
    if (m) st_subnormal++;
    return sign | (uint32_t)m; /* subnormal (or rounded to zero) */
}

/* One fused stage: acc + sum(prods), exact, rounded once to fp32. */
static uint32_t stage(fval acc, const fval *prods, int n) {
    int nan = acc.cls == C_NAN, pinf = 0, ninf = 0, allnegzero = acc.cls == C_ZERO && acc.neg;
    if (acc.cls == C_INF) *(acc.neg ? &ninf : &pinf) = 1;
    for (int i = 0; i < n; i++) {
        if (prods[i].cls == C_NAN) nan = 1;
        if (prods[i].cls == C_INF) *(prods[i].neg ? &ninf : &pinf) = 1;
        if (!(prods[i].cls == C_ZERO && prods[i].neg)) allnegzero = 0;
    }
    if (nan || (pinf && ninf)) return st_nan++, 0x7fc00000u;
    if (pinf || ninf) return st_inf++, pinf ? 0x7f800000u : 0xff800000u;
    big b;
    memset(&b, 0, sizeof b);
    if (acc.cls == C_FIN) big_add(&b, acc.mant, acc.exp, acc.neg);
    for (int i = 0; i < n; i++)
        if (prods[i].cls == C_FIN) big_add(&b, prods[i].mant, prods[i].exp, prods[i].neg);
    uint32_t r = big_round(b, 24, -126, 127, 8);
    if (r == 0) {
        int zero = 1;
        for (int i = 0; i < BW; i++)
            if (b.w[i]) zero = 0;
        if (zero) {
            int any_nonzero = acc.cls == C_FIN;
            for (int i = 0; i < n; i++) any_nonzero |= prods[i].cls == C_FIN;
            st_negzero += allnegzero;
            st_poszero_cancel += any_nonzero;
            return allnegzero ? 0x80000000u : 0;
        }
    }
    return r;
}

static fval fmul(fval a, fval b) {
    fval r = {C_FIN, a.neg ^ b.neg, 0, 0};
    if (a.cls == C_NAN || b.cls == C_NAN) r.cls = C_NAN;
    else if ((a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF)) r.cls = C_NAN;
    else if (a.cls == C_INF || b.cls == C_INF) r.cls = C_INF;
    else if (a.cls == C_ZERO || b.cls == C_ZERO) r.cls = C_ZERO;
    else {
        r.mant = a.mant * b.mant;
        r.exp = a.exp + b.exp;
    }
    return r;
}

/* fp32 -> hf (p 11) or bf (p 8), RNE. */
static uint32_t f32_to(uint32_t f, int is_hf) {
    fval v = decode(&F_F32, f);
    int ebits = is_hf ? 5 : 8, p = is_hf ? 11 : 8, emax = is_hf ? 15 : 127;
    uint32_t sign = (uint32_t)v.neg << (ebits + p - 1), inf = ((1u << ebits) - 1) << (p - 1);
    if (v.cls == C_NAN) return inf | 1u << (p - 2);
    if (v.cls == C_INF) return sign | inf;
    if (v.cls == C_ZERO) return sign;
    big b;
    memset(&b, 0, sizeof b);
    big_add(&b, v.mant, v.exp, v.neg);
    uint32_t r = big_round(b, p, 1 - emax, emax, ebits);
    return r ? r : sign; /* rounded to zero keeps the sign */
}

/* ---------------------------------------------------------------- the DPAS model */

typedef struct {
    visa_platform plat;
    int wide; /* dpasw */
    int pair; /* run a group of two threads (each with its own data): the fused pair of DPASW */
    const prec *w, *a; /* src1 (W) and src2 (A) precisions */
    int sd, rc;
    const char *dt, *ct; /* dst and src0 types; ct NULL = %null */
    int mode;
    uint64_t seed;
} cfg;

static unsigned type_bytes(const char *t) { return (!strcmp(t, "hf") || !strcmp(t, "bf")) ? 2 : 4; }

static unsigned ops_per_chan(const prec *w, const prec *a) {
    if (w->kind == P_TF32) return 1;
    if (w->bits == 16) return 2;
    if (w->bits == 8 || a->bits == 8) return 4;
    return 8;
}

static uint32_t get_bits(const uint8_t *p, size_t bit, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)((p[(bit + i) / 8] >> ((bit + i) % 8)) & 1) << i;
    return (uint32_t)v;
}

static int64_t int_elem(const prec *p, uint32_t v) {
    if (p->kind == P_SINT && (v >> (p->bits - 1)) & 1) return (int64_t)v - ((int64_t)1 << p->bits);
    return v;
}

static fval float_elem(const prec *p, uint32_t v) {
    if (p->kind == P_TF32) return decode(&F_F32, v & 0xffffe000u);
    return decode(fmt_of(p->kind), v);
}

/* The Src2 byte the instruction reads at position `bit` of its (logical) Src2: DPASW takes GRFs
** below NGrf_EU0 from EU0's Src2 and the rest from the start of EU1's. */
static uint32_t src2_elem(const cfg *c, unsigned ops, const uint8_t *a_eu0, const uint8_t *a_eu1, size_t bit) {
    size_t byte = bit / 8;
    const uint8_t *src = a_eu0;
    if (c->wide) {
        unsigned sz = c->a->bits * ops * c->rc; /* Src2SizeInBytes, the page's formula (SD 8) */
        unsigned ngrf = (sz + 31) / 32, eu0 = (ngrf + 1) / 2;
        size_t g = byte / 32;
        if (g >= eu0) byte = (g - eu0) * 32 + byte % 32, src = a_eu1;
    }
    return get_bits(src, byte * 8 + bit % 8, c->a->bits);
}

static void model(const cfg *c, unsigned N, unsigned grf, const uint8_t *A, const uint8_t *A1, const uint8_t *B,
                  const uint8_t *C, uint8_t *D) {
    unsigned ops = ops_per_chan(c->w, c->a), S = 32 / (ops * c->w->bits);
    unsigned db = type_bytes(c->dt);
    size_t k = 0;
    for (int r = 0; r < c->rc; r++) {
        uint32_t acc[16];
        for (unsigned i = 0; i < N; i++) {
            if (!c->ct) acc[i] = 0;
            else if (type_bytes(c->ct) == 4) memcpy(&acc[i], C + (r * N + i) * 4, 4);
            else {
                uint16_t h;
                memcpy(&h, C + (r * N + i) * 2, 2);
                acc[i] = !strcmp(c->ct, "bf") ? (uint32_t)h << 16 : 0;
                if (!strcmp(c->ct, "hf")) { /* exact widening */
                    fval v = decode(&F_HF, h);
                    if (v.cls == C_NAN) acc[i] = 0x7fc00000u | (uint32_t)v.neg << 31;
                    else if (v.cls == C_INF) acc[i] = v.neg ? 0xff800000u : 0x7f800000u;
                    else if (v.cls == C_ZERO) acc[i] = (uint32_t)v.neg << 31;
                    else {
                        big b;
                        memset(&b, 0, sizeof b);
                        big_add(&b, v.mant, v.exp, v.neg);
                        acc[i] = big_round(b, 24, -126, 127, 8);
                    }
                }
            }
        }
        for (int d = 0; d < c->sd; d++) {
            unsigned m = (unsigned)d / S, n = ((unsigned)d % S) * ops;
            for (unsigned i = 0; i < N; i++) {
                size_t b1 = ((size_t)m * grf + i * 4) * 8 + (size_t)n * c->w->bits;
                if (is_int(c->w)) {
                    int64_t s = (int32_t)acc[i];
                    for (unsigned j = 0; j < ops; j++) {
                        int64_t x = int_elem(c->w, get_bits(B, b1 + j * c->w->bits, c->w->bits));
                        int64_t y = int_elem(c->a, src2_elem(c, ops, A, A1, (k + j) * c->a->bits));
                        s += x * y;
                    }
                    acc[i] = (uint32_t)(uint64_t)s;
                } else {
                    fval prods[8];
                    for (unsigned j = 0; j < ops; j++) {
                        fval x = float_elem(c->w, get_bits(B, b1 + j * c->w->bits, c->w->bits));
                        fval y = float_elem(c->a, src2_elem(c, ops, A, A1, (k + j) * c->a->bits));
                        prods[j] = fmul(x, y);
                    }
                    acc[i] = stage(decode(&F_F32, acc[i]), prods, (int)ops);
                }
            }
            k += ops;
        }
        for (unsigned i = 0; i < N; i++) {
            if (db == 4) memcpy(D + (r * N + i) * 4, &acc[i], 4);
            else {
                uint16_t h = (uint16_t)f32_to(acc[i], !strcmp(c->dt, "hf"));
                memcpy(D + (r * N + i) * 2, &h, 2);
            }
        }
    }
}

/* ---------------------------------------------------------------- inputs */

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rnd(uint64_t *s, unsigned n) { return (unsigned)(rng_next(s) % n); }

enum { M_FULL, M_MID, M_TIES, M_TINY, M_HUGE, M_SPECIAL, M_SMALLINT, M_NFLOATMODES };

/* Exponent (unbiased) around which M_TIES puts a format's values: the products then sit near
** half an ulp of src0 (see gen_src0). */
static int ties_exp(const ffmt *f) { return f == &F_HF8 ? -5 : -12; }

/* A float bit pattern of format f (tf32: the full dword, low bits random). */
static uint32_t gen_float(const ffmt *f, int is_tf32, int mode, uint64_t *s) {
    int bias = (1 << (f->ebits - 1)) - 1, emaxf = (1 << f->ebits) - 1;
    uint32_t sign = (uint32_t)rnd(s, 2), e, m = (uint32_t)rng_next(s) & ((1u << f->mbits) - 1);
    switch (mode) {
    case M_FULL: {
        uint32_t v = (uint32_t)rng_next(s);
        return is_tf32 ? v : (uint32_t)(v & ((1ull << (1 + f->ebits + f->mbits)) - 1));
    }
    case M_MID: e = (uint32_t)(bias - 3 + (int)rnd(s, 7)); break;
    case M_TIES: {
        int x = ties_exp(f) + (int)rnd(s, 3) - 1;
        e = (uint32_t)(x + bias);
        m &= rnd(s, 2) ? (1u << f->mbits) >> 1 : 0; /* 1.0 or 1.5 */
        if (!rnd(s, 6)) e = 0, m = 0;
        break;
    }
    case M_TINY:
        if (f->ebits == 8 && rnd(s, 2)) e = (uint32_t)(bias - 80 + (int)rnd(s, 11));
        else e = rnd(s, 3);
        break;
    case M_HUGE:
        e = (uint32_t)(emaxf - 3 + (int)rnd(s, 4));
        if (f->ieee && e == (uint32_t)emaxf && rnd(s, 4)) e--; /* inf/NaN only now and then */
        break;
    case M_SPECIAL:
        e = (uint32_t)(bias - 3 + (int)rnd(s, 7));
        if (!rnd(s, 8)) {
            uint32_t mall = (1u << f->mbits) - 1;
            switch (rnd(s, 8)) {
            case 0: e = 0, m = 0; break; /* +-0 */
            case 1: e = (uint32_t)emaxf, m = f->ieee ? 0 : 6; break; /* inf (hf8: 448) */
            case 2: e = (uint32_t)emaxf, m = mall; break; /* NaN */
            case 3: e = (uint32_t)emaxf, m = f->ieee ? 1 : 4; break; /* NaN, low payload (hf8: 384) */
            case 4: e = (uint32_t)emaxf - (uint32_t)f->ieee, m = mall - (uint32_t)!f->ieee; break; /* max */
            case 5: e = 0, m = 1; break; /* min subnormal */
            case 6: e = 0, m = mall; break; /* max subnormal */
            default: e = 1, m = 0; break; /* min normal */
            }
        }
        break;
    default: { /* M_SMALLINT: 0, +-0.5, +-1, +-1.5, +-2, +-3 */
        static const int ex[] = {0, -1, 0, 0, 1, 1}, mt[] = {0, 0, 0, 1, 0, 1};
        unsigned i = rnd(s, 6);
        e = i ? (uint32_t)(bias + ex[i]) : 0;
        m = mt[i] ? (1u << f->mbits) >> 1 : 0;
        break;
    }
    }
    uint32_t v = sign << (f->ebits + f->mbits) | e << f->mbits | m;
    if (is_tf32) v = v << 13 | (uint32_t)(rng_next(s) & 0x1fff);
    return v;
}

/* src0 in format f (f32, hf or bf): as gen_float, except M_TIES puts it where the products of
** ties_exp-sized elements are half an ulp. */
static uint32_t gen_src0(const ffmt *f, const cfg *c, uint64_t *s) {
    if (c->mode != M_TIES) return gen_float(f, 0, c->mode, s);
    int x = ties_exp(fmt_of(c->w->kind)) + ties_exp(fmt_of(c->a->kind)) + f->mbits + 1 + (int)rnd(s, 3) - 1;
    int bias = (1 << (f->ebits - 1)) - 1;
    uint32_t m = (uint32_t)rnd(s, 4) | (rnd(s, 2) ? 1u << (f->mbits - 1) : 0);
    return (uint32_t)rnd(s, 2) << (f->ebits + f->mbits) | (uint32_t)(x + bias) << f->mbits | m;
}

static uint32_t gen_int_word(const cfg *c, const prec *p, uint64_t *s) {
    if (c->mode % 2 == 0) return (uint32_t)rng_next(s);
    /* extremes: every element the minimum or maximum of its precision */
    uint32_t v = 0;
    for (unsigned b = 0; b < 32; b += p->bits) {
        uint32_t e = rnd(s, 2) ? (p->kind == P_SINT ? (1u << (p->bits - 1)) : (1u << p->bits) - 1)
                               : (p->kind == P_SINT ? (1u << (p->bits - 1)) - 1 : 0);
        if (!rnd(s, 4)) e = (uint32_t)rng_next(s);
        v |= (e & ((1u << p->bits) - 1)) << b;
    }
    return v;
}

static void fill_src(const cfg *c, const prec *p, uint8_t *buf, size_t bytes, uint64_t *s) {
    for (size_t off = 0; off + 4 <= bytes; off += 4) {
        uint32_t v;
        if (is_int(p)) v = gen_int_word(c, p, s);
        else if (p->kind == P_TF32) v = gen_float(&F_TF32, 1, c->mode, s);
        else {
            v = 0;
            for (unsigned b = 0; b < 32; b += p->bits) v |= gen_float(fmt_of(p->kind), 0, c->mode, s) << b;
        }
        memcpy(buf + off, &v, 4);
    }
}

static void fill_src0(const cfg *c, uint8_t *buf, size_t bytes, uint64_t *s) {
    for (size_t off = 0; off < bytes; off += type_bytes(c->ct)) {
        if (!strcmp(c->ct, "d") || !strcmp(c->ct, "ud")) {
            static const uint32_t ext[] = {0x7fffffffu, 0x80000000u, 0xffffffffu, 0, 0x7ffffff0u, 0x80000010u};
            uint32_t v = c->mode % 2 ? ext[rnd(s, 6)] : (uint32_t)rng_next(s);
            memcpy(buf + off, &v, 4);
        } else if (!strcmp(c->ct, "f")) {
            uint32_t v = gen_src0(&F_F32, c, s);
            memcpy(buf + off, &v, 4);
        } else {
            uint16_t v = (uint16_t)gen_src0(!strcmp(c->ct, "hf") ? &F_HF : &F_BF, c, s);
            memcpy(buf + off, &v, 2);
        }
    }
}

/* ---------------------------------------------------------------- kernel text and running */

typedef struct {
    char *p;
    size_t len, cap;
} sbuf;
static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) abort();
        if (b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
}

static size_t round128(size_t x) { return (x + 127) / 128 * 128; }

/* Load or store var[0, bytes) at BUF + base (+ the thread's offset TO when per_thread). */
static void emit_block(sbuf *t, const char *var, size_t base, size_t bytes, int store, int per_thread) {
    for (size_t off = 0; off < bytes; off += 128) {
        sb_printf(t, "    add (M1_NM, 1) P(0,0)<1> BUF(0,0)<0;1,0> 0x%zx:uq\n", base + off);
        if (per_thread) sb_printf(t, "    add (M1_NM, 1) P(0,0)<1> P(0,0)<0;1,0> TO(0,0)<0;1,0>\n");
        sb_printf(t, "    svm_block_%s.aligned (8) P(0,0)<0;1,0> %s.%zu\n", store ? "st" : "ld", var, off);
    }
}

static int diag_quiet;
static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    if (!diag_quiet) fprintf(stderr, "  diag %s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
}

static long n_elem_checks, n_runs;

static void cfg_name(const cfg *c, char *out, size_t n) {
    snprintf(out, n, "%s%s %s.%s.%s.%d.%d dst=%s src0=%s mode=%d seed=%" PRIu64, visa_platform_name(c->plat),
             c->pair ? " (2 threads)" : "", c->wide ? "dpasw" : "dpas", c->w->name, c->a->name, c->sd, c->rc, c->dt,
             c->ct ? c->ct : "%null", c->mode, c->seed);
}

static void run_case(visa_ctx *ctx, const cfg *c) {
    unsigned grf = visa_platform_grf_bytes(c->plat), N = grf / 4;
    unsigned ops = ops_per_chan(c->w, c->a), S = 32 / (ops * c->w->bits);
    size_t a_bytes = ((size_t)c->rc * c->sd * ops * c->a->bits + 7) / 8;
    size_t b_bytes = (size_t)((c->sd - 1) / (int)S + 1) * grf;
    size_t c_bytes = (size_t)c->rc * N * (c->ct ? type_bytes(c->ct) : 4);
    size_t d_bytes = (size_t)c->rc * N * type_bytes(c->dt);
    size_t a_sz = round128(a_bytes), b_sz = round128(b_bytes), c_sz = round128(c_bytes), d_sz = round128(d_bytes);
    /* one such layout per thread, thread t's at t*stride */
    size_t a_off = 0, b_off = a_sz, c_off = b_off + b_sz, d_off = c_off + c_sz, stride = d_off + d_sz;
    unsigned nthr = c->pair ? 2 : 1;
    size_t total = stride * nthr;
    char name[160];
    cfg_name(c, name, sizeof name);

    uint8_t *buf = calloc(1, total), *want = calloc(nthr, d_sz);
    if (!buf || !want) abort();
    uint64_t s = c->seed;
    for (unsigned th = 0; th < nthr; th++) {
        uint8_t *tb = buf + th * stride;
        fill_src(c, c->a, tb + a_off, a_sz, &s);
        fill_src(c, c->w, tb + b_off, b_sz, &s);
        if (c->ct) fill_src0(c, tb + c_off, c_sz, &s);
        memset(tb + d_off, 0x5a, d_sz);
    }
    memset(want, 0x5a, d_sz * nthr);
    /* EU0 is thread 0 of the pair, EU1 thread 1 (DPASW.md: "thread ID could be used to decide
    ** which one is EU0"); both threads compute with the same shared Src2. */
    for (unsigned th = 0; th < nthr; th++)
        model(c, N, grf, buf + a_off, buf + (nthr - 1) * stride + a_off, buf + th * stride + b_off,
              buf + th * stride + c_off, want + th * d_sz);

    sbuf t = {NULL, 0, 0};
    sb_printf(&t, ".version 4.1\n.kernel \"model_dpas\"\n");
    sb_printf(&t, ".decl BUF v_type=G type=uq num_elts=1\n.decl P v_type=G type=uq num_elts=1\n");
    sb_printf(&t, ".decl A v_type=G type=ud num_elts=%zu align=GRF\n", a_sz / 4);
    sb_printf(&t, ".decl B v_type=G type=ud num_elts=%zu align=GRF\n", b_sz / 4);
    if (c->ct) sb_printf(&t, ".decl C v_type=G type=%s num_elts=%zu align=GRF\n", c->ct, c_sz / type_bytes(c->ct));
    sb_printf(&t, ".decl D v_type=G type=%s num_elts=%zu align=GRF\n", c->dt, d_sz / type_bytes(c->dt));
    sb_printf(&t, ".decl TO v_type=G type=ud num_elts=1\n");
    sb_printf(&t, ".input BUF offset=64 size=8\n.kernel_attr SimdSize=%u\n", N);
    if (c->pair) sb_printf(&t, "    mul (M1_NM, 1) TO(0,0)<1> %%hw_id(0,0)<0;1,0> 0x%zx:ud\n", stride);
    emit_block(&t, "A", a_off, a_sz, 0, c->pair);
    emit_block(&t, "B", b_off, b_sz, 0, c->pair);
    if (c->ct) emit_block(&t, "C", c_off, c_sz, 0, c->pair);
    emit_block(&t, "D", d_off, d_sz, 0, c->pair);
    sb_printf(&t, "    %s.%s.%s.%d.%d (M1, %u) D.0 %s B.0 A(0,0)\n", c->wide ? "dpasw" : "dpas", c->w->name, c->a->name,
              c->sd, c->rc, N, c->ct ? "C.0" : "%null.0");
    emit_block(&t, "D", d_off, d_sz, 1, c->pair);
    sb_printf(&t, "    ret (M1, 1)\n");

    CASE_BEGIN();
    visa_module *m = NULL;
    visa_status st = visa_module_parse_text(ctx, "model_dpas", t.p, t.len, c->plat, &m);
    CHECKF(st == VISA_OK, "%s: parse: %s", name, visa_status_str(st));
    if (st == VISA_OK) {
        visa_arg arg;
        memset(&arg, 0, sizeof arg);
        arg.kind = VISA_ARG_BUFFER;
        visa_buffer vb = {buf, total};
        visa_run_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.struct_size = sizeof ro;
        ro.platform = c->plat;
        ro.group_size[0] = nthr;
        st = visa_module_run(m, &ro, &arg, 1, &vb, 1, NULL);
        CHECKF(st == VISA_OK, "%s: run: %s", name, visa_status_str(st));
        n_runs++;
        if (st == VISA_OK) {
            unsigned db = type_bytes(c->dt);
            int shown = 0;
            for (unsigned th = 0; th < nthr; th++) {
                const uint8_t *gd = buf + th * stride + d_off, *wd = want + th * d_sz;
                for (size_t e = 0; e < d_bytes / db; e++) {
                    uint32_t got = 0, exp = 0;
                    memcpy(&got, gd + e * db, db);
                    memcpy(&exp, wd + e * db, db);
                    n_elem_checks++;
                    if (got != exp && shown++ < 4)
                        CHECKF(0, "%s: thread %u row %zu lane %zu: got 0x%08x want 0x%08x", name, th, e / N, e % N, got,
                               exp);
                    else if (got != exp) th_case_failed = 1;
                }
                CHECKF(!memcmp(gd + d_bytes, wd + d_bytes, d_sz - d_bytes),
                       "%s: thread %u: bytes after the last row were written", name, th);
            }
        }
        visa_module_destroy(m);
    }
    CASE_END(name);
    free(t.p);
    free(buf);
    free(want);
}

/* ---------------------------------------------------------------- the sweep */

/* DPASW in a group of two threads: the spec pairs them (EU1's Src2 GRFs come from the other
** thread); every wide case also runs as such a pair. */
static const int check_fused_pairs = 1;

typedef struct {
    const char *dt, *ct;
} accpair;

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;

    static const visa_platform plats[] = {VISA_PLATFORM_XEHP, VISA_PLATFORM_XEHPG, VISA_PLATFORM_XEHPC,
                                          VISA_PLATFORM_XE2};
    static const int sds[] = {8, 4, 2, 1};
    static const accpair int_acc[] = {{"d", "d"}, {"ud", "ud"}, {"d", NULL}, {"ud", "d"}, {"d", "ud"}, {"ud", NULL}};
    static const accpair bf_acc[] = {{"f", "f"}, {"bf", "bf"}, {"f", NULL}, {"bf", "f"}, {"f", "bf"}, {"bf", NULL}};
    static const accpair hf_acc[] = {{"f", "f"}, {"hf", "hf"}, {"f", NULL}, {"hf", "f"}, {"f", "hf"}, {"hf", NULL}};
    static const accpair f_acc[] = {{"f", "f"}, {"f", NULL}};
    static const char *fpairs[][2] = {{"bf", "bf"},   {"hf", "hf"},   {"tf32", "tf32"}, {"bf8", "bf8"},
                                      {"bf8", "hf8"}, {"hf8", "bf8"}, {"hf8", "hf8"}};
    uint64_t seed = 1;
    for (size_t pi = 0; pi < sizeof plats / sizeof plats[0]; pi++) {
        visa_platform pl = plats[pi];
        int has_dpasw = visa_platform_grf_bytes(pl) == 32;
        /* integer: every src1 x src2 precision */
        for (size_t wi = 0; wi < NPRECS; wi++)
            for (size_t ai = 0; ai < NPRECS; ai++) {
                if (!is_int(&PRECS[wi]) || !is_int(&PRECS[ai])) continue;
                for (size_t si = 0; si < 4; si++)
                    for (int rc = 1; rc <= 8; rc++) {
                        const accpair *ap = &int_acc[(size_t)rc % 6];
                        for (int wide = 0; wide <= (has_dpasw && sds[si] == 8 && rc % 3 == 0); wide++) {
                            cfg c = {pl, wide,   0,      &PRECS[wi],         &PRECS[ai], sds[si],
                                     rc, ap->dt, ap->ct, (int)(rc + wi) % 2, seed++};
                            run_case(ctx, &c);
                            if (wide && check_fused_pairs) { /* and as a fused pair of two threads */
                                c.pair = 1;
                                run_case(ctx, &c);
                            }
                        }
                    }
            }
        /* float pairs */
        for (size_t fi = 0; fi < sizeof fpairs / sizeof fpairs[0]; fi++) {
            const prec *w = prec_by(fpairs[fi][0]), *a = prec_by(fpairs[fi][1]);
            const accpair *accs = w->kind == P_BF ? bf_acc : w->kind == P_HF ? hf_acc : f_acc;
            size_t nacc = (w->kind == P_BF || w->kind == P_HF) ? 6 : 2;
            for (size_t si = 0; si < 4; si++)
                for (int rc = 1; rc <= 8; rc++)
                    for (int mode = 0; mode < M_NFLOATMODES; mode++) {
                        const accpair *ap = &accs[(size_t)(rc + mode) % nacc];
                        for (int wide = 0; wide <= (has_dpasw && sds[si] == 8 && mode == 1); wide++) {
                            cfg c = {pl, wide, 0, w, a, sds[si], rc, ap->dt, ap->ct, mode, seed++};
                            run_case(ctx, &c);
                            if (wide && check_fused_pairs) { /* and as a fused pair of two threads */
                                c.pair = 1;
                                run_case(ctx, &c);
                            }
                        }
                    }
        }
    }
    printf("%ld kernels run, %ld destination elements compared\n", n_runs, n_elem_checks);
    printf("model roundings: %ld ties, %ld inexact, %ld overflows, %ld subnormal results; stages giving "
           "NaN %ld, inf %ld, -0 %ld, +0 by cancellation %ld\n",
           st_ties, st_inexact, st_overflow, st_subnormal, st_nan, st_inf, st_negzero, st_poszero_cancel);
    visa_ctx_destroy(ctx);
    return th_finish();
}
