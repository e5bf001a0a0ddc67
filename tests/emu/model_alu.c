/* model_alu.c -- reference-model test of the emulator's ALU instructions.
**
** For each ALU instruction and each operand type combination the table allows (src/isa/ops.def
** typeset column, typemaps.def), build a small kernel through the public API, run it on many
** lanes (boundary values: 0, -0, 1, -1, type min/max, quiet and signalling NaNs, infinities,
** denormals, rounding ties, plus a deterministic pseudo-random set) and compare every lane bit for
** bit with a C model written here from the spec (2_datatypes.md for conversion, rounding,
** saturation, denormals; each instruction page's Semantics and Notes).  The model does not look
** at the emulator's sources.
**
** Readings of the spec this model takes (the spec is silent or ambiguous there):
**  - %cr0 is the run default (IEEE, round to nearest even, F/DF/HF denormals kept), so denormals
**    are kept everywhere, HF included (2_datatypes says HF denormals are flushed in IEEE mode,
**    but that is the cr0 HF-denorm bit being clear; the API documents it set by default).
**  - NaN results are compared as "some NaN": the spec defines no payload propagation.  A
**    same-type mov without modifiers is a copy and is compared exactly, NaN payloads included.
**  - Float saturation clamps to [0, 1] and NaN -> +0; -0 may come out as -0 or +0 (the spec says
**    "negative values saturate to 0.0" and does not say whether -0 counts as negative).
**  - Integer execution has extra precision (2_datatypes "Type Conversion"): sources are widened
**    (with their source modifiers applied in that wider precision), the operation is exact, then
**    the result is truncated to the destination (or clamped with .sat).
**  - Float -> unsigned integer of a negative value gives 0 (the table's "qNaN Indefinite" entry
**    cannot be stored in an integer; 0 is the clamp to Imin the signed table applies).
**  - Mixed hf/f (and f/bf) sources: the exact result is rounded once to the destination type.
**  - Transcendental math (and float div, which DIV.md says is x * INV(y)) is not correctly
**    rounded on the hardware and this spec states no precision, so those compare within a
**    tolerance: see math_tol() below.  Special values (zeros, infinities, NaN) stay exact.
**  - %cr0 (4_visa_header V14, 2_datatypes): RU/RD/RTZ apply to every float rounding, integer ->
**    float included ("by default" nearest even); a denormal-flush bit flushes that type's
**    denormal sources to signed zero and a result that is denormal after rounding (a value that
**    rounds up to the smallest normal stays); bit 10 governs HF (the API default keeps HF
**    denormals); ALT (F only): +-inf results become +-FLT_MAX, sqrt/rsqrt/log read |src|, and
**    lanes with NaN, inf or denormal sources are not checked ("must not be passed").
**  - divm/sqrtm are IEEE-exact (their pages): correctly rounded in the %cr0 mode, no tolerance.
**    invm/rsqtm: only the early-out flag and the special (NaN/inf/zero) results are defined;
**    see m_invm().  lrp, line, dp2-dp4, dph, plane: rounding steps unstated, 2-ulp bound (sum_terms).
**  - add3.o overflow: the exact sum does not fit the destination type (m_add3o).
**  - fcvt/srnd: bit-level models of FCVT.md / SRND.md (m_fcvt, m_srnd).
**  - VF immediates: exponent 0 is a normal exponent (range +-[0.125, 31], no denormals).
**
** Not covered: HF8 (fcvt/srnd with b: no page defines the format), bf sources of srnd,
** multi-address indirect operands,
** exec sizes other than 16 (and 8/4 for packed immediates), M5..M8 masks, the other cr0 bits.
*/
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa.h"
#include "../harness.h"

__extension__ typedef __int128 i128;

/* ------------------------------------------------------------------ types */
enum { T_UB, T_B, T_UW, T_W, T_UD, T_D, T_UQ, T_Q, T_HF, T_BF, T_F, T_DF, T__N, T_NONE = -1 };
static const char *const tname[T__N] = {"ub", "b", "uw", "w", "ud", "d", "uq", "q", "hf", "bf", "f", "df"};
static const int tsize[T__N] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
static int is_flt(int t) { return t >= T_HF; }
static int is_signed(int t) { return t == T_B || t == T_W || t == T_D || t == T_Q; }
static uint64_t tmask(int t) { return tsize[t] == 8 ? ~0ull : (1ull << (8 * tsize[t])) - 1; }

/* Float formats: exponent and mantissa bits. */
static int fexp(int t) { return t == T_HF ? 5 : t == T_DF ? 11 : 8; }
static int fman(int t) { return t == T_HF ? 10 : t == T_BF ? 7 : t == T_F ? 23 : 52; }

static i128 ival(int t, uint64_t b) {
    b &= tmask(t);
    if (is_signed(t) && tsize[t] < 8 && (b >> (8 * tsize[t] - 1)) & 1) b |= ~tmask(t);
    return is_signed(t) ? (i128)(int64_t)b : (i128)b;
}
static i128 imin(int t) { return is_signed(t) ? -((i128)1 << (8 * tsize[t] - 1)) : 0; }
static i128 imax(int t) { return is_signed(t) ? ((i128)1 << (8 * tsize[t] - 1)) - 1 : (i128)tmask(t); }

static int isnan_bits(int t, uint64_t b) {
    int eb = fexp(t), mb = fman(t);
    uint64_t e = (b >> mb) & ((1ull << eb) - 1), m = b & ((1ull << mb) - 1);
    return e == (1ull << eb) - 1 && m != 0;
}

/* Exact value of float bits as a double (hf, bf, f all fit). */
static double fval(int t, uint64_t b) {
    if (t == T_DF) {
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    int eb = fexp(t), mb = fman(t), bias = (1 << (eb - 1)) - 1;
    int sign = (int)((b >> (eb + mb)) & 1);
    int64_t e = (int64_t)((b >> mb) & ((1u << eb) - 1));
    uint64_t m = b & ((1ull << mb) - 1);
    double v;
    if (e == (1 << eb) - 1) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mb);
    else v = ldexp((double)(m | (1ull << mb)), (int)e - bias - mb);
    return sign ? -v : v;
}

/* The %cr0 modes the model evaluates under (4_visa_header.md, V14): RM bits 5:4 (0 RTNE, 1 RU,
** 2 RD, 3 RTZ), ALT bit 0, denormal-keep bits 6 (DF), 7 (F), 10 (HF).  Set only around the model
** evaluation of a combo, so value pools are built in the default mode. */
static int RM, ALT, FLUSH[T__N];
static void set_mode(uint32_t cr0) {
    RM = (int)(cr0 >> 4) & 3;
    ALT = (int)(cr0 & 1);
    memset(FLUSH, 0, sizeof FLUSH);
    FLUSH[T_DF] = !((cr0 >> 6) & 1);
    FLUSH[T_F] = !((cr0 >> 7) & 1);
    FLUSH[T_HF] = !((cr0 >> 10) & 1);
}
static int is_denorm_bits(int t, uint64_t b) {
    int mb = fman(t);
    return ((b >> mb) & ((1ull << fexp(t)) - 1)) == 0 && (b & ((1ull << mb) - 1)) != 0;
}

/* Round sign * M * 2^E to format t in the current rounding mode RM (2_datatypes: RTNE is the
** default; "Float to Float with Lower Precision" uses the control register's mode), then flush a
** denormal result to signed zero when t's denormal mode says so (reading: the flush looks at the
** rounded result).
** sticky: -1/0/+1 for "a little below / exactly / a little above" M*2^E in magnitude. */
static uint64_t fmt_round(int t, int sign, uint64_t M, int E, int sticky) {
    int eb = fexp(t), mb = fman(t), bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    uint64_t sbit = (uint64_t)sign << (eb + mb);
    if (M == 0) return sbit;
    if (sticky) {
        /* make room for two guard bits so the sticky nudge can never be lost */
        while (M >> 61) {
            sticky |= (M & 1) ? 1 : 0;
            M >>= 1;
            E++;
        } /* not reached for our inputs */
        M = (M << 2) + (uint64_t)(int64_t)sticky;
        E -= 2;
    }
    int p = 63 - __builtin_clzll(M);
    int e = p + E;
    int q = (e < emin ? emin : e) - mb;
    int shift = q - E;
    uint64_t r;
    if (shift <= 0) r = M << -shift;
    else {
        uint64_t rem, half;
        int gt, eq;
        if (shift > 64) {
            r = 0;
            rem = M;
            gt = 0;
            eq = 0;
        } else {
            if (shift == 64) {
                r = 0;
                rem = M;
                half = 1ull << 63;
            } else {
                r = M >> shift;
                rem = M & ((1ull << shift) - 1);
                half = 1ull << (shift - 1);
            }
            gt = rem > half;
            eq = rem == half;
        }
        if (rem) {
            int up = RM == 0 ? (gt || (eq && (r & 1))) : RM == 1 ? !sign : RM == 2 ? sign : 0;
            if (up) r++;
        }
    }
    if (r >> (mb + 1)) {
        r >>= 1;
        q++;
    }
    uint64_t out;
    if (r >> mb) {
        int64_t biased = q + mb + bias;
        if (biased >= (1 << eb) - 1) {
            /* overflow: infinity, or the largest finite value when the mode rounds toward zero */
            int to_max = RM == 3 || (RM == 1 && sign) || (RM == 2 && !sign);
            return sbit | ((((1ull << eb) - 1) << mb) - (uint64_t)to_max);
        }
        out = sbit | ((uint64_t)biased << mb) | (r & ((1ull << mb) - 1));
    } else out = sbit | r;
    if (FLUSH[t] && is_denorm_bits(t, out)) out = sbit;
    return out;
}
static uint64_t qnan_bits(int t) { return ((1ull << (fexp(t) + 1)) - 1) << (fman(t) - 1); }
static uint64_t inf_bits(int t, int neg) {
    return ((uint64_t)neg << (fexp(t) + fman(t))) | (((1ull << fexp(t)) - 1) << fman(t));
}
/* double -> t with one rounding (plus a sticky nudge, see fmt_round). */
static uint64_t d2f(int t, double v, int sticky) {
    if (isnan(v)) return qnan_bits(t);
    int neg = signbit(v) != 0;
    if (isinf(v)) return inf_bits(t, neg);
    if (t == T_DF && !sticky) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return FLUSH[T_DF] && is_denorm_bits(T_DF, b) ? b & (1ull << 63) : b;
    }
    int ex;
    double m = frexp(fabs(v), &ex);
    uint64_t M = (uint64_t)ldexp(m, 53);
    return fmt_round(t, neg, M, ex - 53, sticky);
}
/* integer -> float: nearest even from the exact integer (2_datatypes "Integer to Float"). */
static uint64_t i2f(int t, i128 v) {
    int neg = v < 0;
    unsigned __int128 mag = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    /* |v| < 2^64 always (q/uq sources); mag fits 64 bits */
    return fmt_round(t, neg, (uint64_t)mag, 0, 0);
}

/* Saturation and conversion of an exact integer result to the destination (2_datatypes
** "Integer to Integer with Lower Precision": bit truncation; "Saturation": clamping). */
static uint64_t i2dst(int dt, i128 v, int sat) {
    if (is_flt(dt)) {
        uint64_t b = i2f(dt, v);
        if (sat) {
            if (v <= 0) return 0;
            return d2f(dt, 1.0, 0);
        }
        return b;
    }
    if (sat) {
        if (v < imin(dt)) v = imin(dt);
        if (v > imax(dt)) v = imax(dt);
    }
    return (uint64_t)v & tmask(dt);
}
/* float -> integer (2_datatypes "Float to Integer"): truncate, clamp, NaN -> 0. */
static uint64_t f2i(int dt, double v) {
    if (isnan(v)) return 0;
    double tr = trunc(v);
    i128 lo = imin(dt), hi = imax(dt);
    if (tr <= (double)lo) return (uint64_t)lo & tmask(dt);
    if (tr >= (double)hi) return (uint64_t)hi & tmask(dt); /* (double)hi may round up: still >= */
    return (uint64_t)(i128)tr & tmask(dt);
}

/* ------------------------------------------------------------------ expectations */
enum { X_EXACT, X_ANYNAN, X_SKIP, X_TOL };
typedef struct expect {
    int kind;
    uint64_t v, alt; /* alt: a second accepted value (== v when there is none) */
    double tol; /* X_TOL: absolute tolerance around the exact double value ref */
    double ref;
    int nan_as; /* X_ANYNAN on an integer-typed dst: 1 = f bits (tf32), 2 = bf8 (E5M2) bits */
} expect;
static void ex_exact(expect *e, uint64_t v) {
    e->kind = X_EXACT;
    e->v = e->alt = v;
}

/* A float result (exact double r, rounded once to dt, saturated if asked). */
static void ex_float(expect *e, int dt, double r, int sat, int sticky) {
    if (isnan(r)) {
        if (sat) {
            ex_exact(e, 0);
            return;
        }
        e->kind = X_ANYNAN;
        e->v = e->alt = qnan_bits(dt);
        return;
    }
    uint64_t b = d2f(dt, r, sticky);
    if (ALT && dt == T_F && (b & 0x7fffffffu) == 0x7f800000u) b -= 1; /* ALT: +-inf results -> +-fmax */
    if (sat) {
        double rv = fval(dt, b);
        if (rv > 1.0) b = d2f(dt, 1.0, 0);
        else if (rv < 0.0) b = 0;
        else if (rv == 0.0) {
            ex_exact(e, 0);
            e->alt = d2f(dt, -0.0, 0);
            return;
        }
    }
    ex_exact(e, b);
}

/* ------------------------------------------------------------------ value pools */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

#define POOL_MAX 96
typedef struct pool {
    int n;
    uint64_t v[POOL_MAX];
} pool;
static void pool_add(pool *p, uint64_t v) {
    if (p->n < POOL_MAX) p->v[p->n++] = v;
}

/* Boundary values of a type (raw bits). */
static void specials(int t, pool *p) {
    p->n = 0;
    if (!is_flt(t)) {
        const int64_t small[] = {0,  1,  -1, 2,   -2,   3,   5,   7,   8,   15,     16,     31,     32,     33,
                                 63, 64, 65, 100, -100, 127, 128, 255, 256, 0x5555, 0x7fff, 0x8000, 0xffff, 0x10000};
        for (size_t i = 0; i < sizeof small / sizeof *small; i++) pool_add(p, (uint64_t)small[i] & tmask(t));
        pool_add(p, (uint64_t)imin(t) & tmask(t));
        pool_add(p, (uint64_t)imax(t) & tmask(t));
        pool_add(p, (uint64_t)(imin(t) + 1) & tmask(t));
        pool_add(p, (uint64_t)(imax(t) - 1) & tmask(t));
        pool_add(p, 0x5555555555555555ull & tmask(t));
        pool_add(p, 0xaaaaaaaaaaaaaaaaull & tmask(t));
        pool_add(p, 0x80000000ull & tmask(t));
        pool_add(p, 0x7fffffffull & tmask(t));
        pool_add(p, 0x123456789abcdef0ull & tmask(t));
        return;
    }
    const double vals[] = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           -0.5,
                           1.5,
                           -1.5,
                           2.5,
                           -2.5,
                           3.5,
                           0.25,
                           0.75,
                           2.0,
                           3.0,
                           0.1,
                           -0.3,
                           1e-3,
                           100.0,
                           -100.5,
                           65504.0,
                           65520.0,
                           -65520.0,
                           65519.0,
                           1e5,
                           1e10,
                           -1e10,
                           2147483647.0,
                           2147483648.0,
                           -2147483648.0,
                           -2147483904.0,
                           4294967295.0,
                           4294967296.0,
                           9.2233720368547758e18,
                           1.8446744073709552e19,
                           -9.3e18,
                           3.0e38,
                           -3.4e38,
                           1e300,
                           8388608.5,
                           8388607.5,
                           16777217.0,
                           255.5,
                           127.5,
                           -128.5,
                           32767.5,
                           -32768.5,
                           65535.5,
                           3.14159265358979323846,
                           -3.14159265358979323846,
                           7.0e-45,
                           1.1754942e-38,
                           1.1754944e-38,
                           6.0e-8,
                           6.1e-5,
                           1e-310};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) pool_add(p, d2f(t, vals[i], 0));
    int eb = fexp(t), mb = fman(t);
    uint64_t expall = ((1ull << eb) - 1) << mb, sgn = 1ull << (eb + mb);
    pool_add(p, expall); /* +inf */
    pool_add(p, expall | sgn); /* -inf */
    pool_add(p, expall | (1ull << (mb - 1))); /* qNaN */
    pool_add(p, expall | sgn | (1ull << (mb - 1)) | 5); /* -qNaN with payload */
    pool_add(p, expall | 1); /* sNaN */
    pool_add(p, expall | ((1ull << (mb - 1)) - 1)); /* sNaN, large payload */
    pool_add(p, 1); /* smallest denormal */
    pool_add(p, sgn | 1);
    pool_add(p, (1ull << mb) - 1); /* largest denormal */
    pool_add(p, 1ull << mb); /* smallest normal */
    pool_add(p, expall - 1); /* largest finite */
    pool_add(p, sgn | (expall - 1));
}

/* A pseudo-random value: raw bits, or a float with a moderate exponent (so arithmetic on it is
** interesting), or a small integer. */
static uint64_t rand_val(int t) {
    uint64_t r = rnd();
    if (!is_flt(t)) {
        switch (r & 3) {
        case 0: return (r >> 8) & 0xff & tmask(t);
        case 1: return (uint64_t)((int64_t)(r >> 2) >> 55) & tmask(t);
        default: return (r >> 4) & tmask(t);
        }
    }
    if ((r & 3) == 0) return (r >> 8) & tmask(t);
    double m = (double)((r >> 11) & 0xfffff) / 1048576.0 + 1.0;
    int e = (int)((r >> 40) % 24) - 12;
    if (t == T_HF) e = (int)((r >> 40) % 20) - 10;
    double v = ldexp(m, e) * ((r >> 50) & 1 ? -1 : 1);
    if ((r & 3) == 1) v = (double)(int)((r >> 20) % 200) - 100 + ((r >> 30) & 1 ? 0.5 : 0);
    return d2f(t, v, 0);
}

/* ------------------------------------------------------------------ kernels */
#define LANES_PER_GROUP 16
enum { MAXL = 8192 };
static uint64_t VALS[4][MAXL]; /* the lanes' source values; src1 of plane holds 2 per lane */
static int RUN_SMUL1 = 1; /* elements of S1 per lane (plane reads 32 per SIMD16 group) */
#define CR0_SET 0x80000000u /* marks a %cr0 value as given (0 itself is a mode: flush all, RTNE) */
static uint32_t RUN_CR0; /* CR0_SET | %cr0 for run_body; 0: the API default */
typedef struct runner {
    visa_ctx *ctx;
    char diag[1024];
} runner;

static void on_diag(void *ud, const visa_diag *d) {
    runner *r = ud;
    size_t l = strlen(r->diag);
    if (l < sizeof r->diag - 1) snprintf(r->diag + l, sizeof r->diag - l, "%u:%u: %s\n", d->line, d->col, d->message);
}

static int dwords(int t, int elts) {
    int b = tsize[t] * elts;
    return b < 4 ? 1 : b / 4;
}

/* Run `body` (instructions on S0..S3 -> D [, D2]) over nlanes lanes (a multiple of 16).
** src[k] holds nlanes elements of type st[k]; out gets nlanes*dmul elements of dt, out2 nlanes
** of dt2. Returns 0 on success. */
static int run_body(runner *R, const char *body, int nsrc, const int *st, int dt, int dmul, int dt2, int nlanes,
                    uint8_t *const *src, uint8_t *out, uint8_t *out2) {
    char text[8192];
    int n = 0;
    n += snprintf(text + n, sizeof text - (size_t)n, ".version 4.1\n.kernel \"m\"\n");
    const char *ptrs[6] = {"OUT", "OUT2", "IN0", "IN1", "IN2", "IN3"};
    for (int i = 0; i < 6; i++)
        n +=
            snprintf(text + n, sizeof text - (size_t)n,
                     ".decl %s v_type=G type=uq num_elts=1\n.decl A%s v_type=G type=uq num_elts=1\n", ptrs[i], ptrs[i]);
    for (int k = 0; k < nsrc; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, ".decl S%d v_type=G type=%s num_elts=%d align=GRF\n", k,
                      tname[st[k]], k == 1 ? 16 * RUN_SMUL1 : 16);
    n += snprintf(text + n, sizeof text - (size_t)n, ".decl D v_type=G type=%s num_elts=%d align=GRF\n", tname[dt],
                  16 * dmul);
    if (dt2 != T_NONE)
        n += snprintf(text + n, sizeof text - (size_t)n, ".decl D2 v_type=G type=%s num_elts=16 align=GRF\n",
                      tname[dt2]);
    n += snprintf(text + n, sizeof text - (size_t)n,
                  ".decl PR v_type=P num_elts=16\n.decl P1 v_type=P num_elts=16\n"
                  ".decl P2 v_type=P num_elts=16\n.decl P3 v_type=P num_elts=16\n.decl AX v_type=A num_elts=2\n");
    for (int i = 0; i < 6; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, ".input %s offset=%d size=8\n", ptrs[i], 64 + 8 * i);
    n += snprintf(text + n, sizeof text - (size_t)n, ".kernel_attr SimdSize=16\n");
    int bytes[6] = {tsize[dt] * 16 * dmul, dt2 != T_NONE ? tsize[dt2] * 16 : 0, 0, 0, 0, 0};
    for (int k = 0; k < nsrc; k++) bytes[2 + k] = tsize[st[k]] * 16 * (k == 1 ? RUN_SMUL1 : 1);
    for (int i = 0; i < 6; i++) {
        if (!bytes[i]) continue;
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "    mul (M1_NM, 1) A%s(0,0)<1> %%group_id_x(0,0)<0;1,0> 0x%x:uq\n"
                      "    add (M1_NM, 1) A%s(0,0)<1> A%s(0,0)<0;1,0> %s(0,0)<0;1,0>\n",
                      ptrs[i], bytes[i], ptrs[i], ptrs[i], ptrs[i]);
    }
    for (int k = 0; k < nsrc; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, "    lsc_load.ugm (M1_NM, 1) S%d:d32x%dt flat[AIN%d]:a64\n", k,
                      dwords(st[k], k == 1 ? 16 * RUN_SMUL1 : 16), k);
    n += snprintf(text + n, sizeof text - (size_t)n, "%s\n", body);
    n += snprintf(text + n, sizeof text - (size_t)n, "    lsc_store.ugm (M1_NM, 1) flat[AOUT]:a64 D:d32x%dt\n",
                  dwords(dt, 16 * dmul));
    if (dt2 != T_NONE)
        n += snprintf(text + n, sizeof text - (size_t)n, "    lsc_store.ugm (M1_NM, 1) flat[AOUT2]:a64 D2:d32x%dt\n",
                      dwords(dt2, 16));
    n += snprintf(text + n, sizeof text - (size_t)n, "    ret (M1, 1)\n");

    R->diag[0] = 0;
    visa_module *m = NULL;
    visa_status s = visa_module_parse_text(R->ctx, "model_alu", text, (size_t)n, VISA_PLATFORM_XE3, &m);
    if (s != VISA_OK) {
        fprintf(stderr, "parse failed (%s):\n%s%s\n", visa_status_str(s), R->diag, body);
        return -1;
    }
    int groups = nlanes / LANES_PER_GROUP;
    static uint8_t dummy[4][64];
    visa_buffer bufs[6] = {
        {out, (size_t)(tsize[dt] * dmul * nlanes)},
        {out2 ? out2 : dummy[0], out2 ? (size_t)(tsize[dt2] * nlanes) : 64},
    };
    for (int k = 0; k < 4; k++) {
        if (k < nsrc) {
            bufs[2 + k].data = src[k];
            bufs[2 + k].size = (size_t)(tsize[st[k]] * nlanes * (k == 1 ? RUN_SMUL1 : 1));
        } else {
            bufs[2 + k].data = dummy[k];
            bufs[2 + k].size = 64;
        }
    }
    visa_arg args[6];
    for (int i = 0; i < 6; i++) {
        memset(&args[i], 0, sizeof args[i]);
        args[i].kind = VISA_ARG_BUFFER;
        args[i].buffer = (uint32_t)i;
    }
    visa_run_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.platform = VISA_PLATFORM_XE3;
    o.groups[0] = (uint32_t)groups;
    if (RUN_CR0) {
        o.set_cr0 = true;
        o.cr0 = RUN_CR0 & ~CR0_SET;
    }
    s = visa_module_run(m, &o, args, 6, bufs, 6, NULL);
    visa_module_destroy(m);
    if (s != VISA_OK) {
        fprintf(stderr, "run failed (%s):\n%s%s\n", visa_status_str(s), R->diag, body);
        return -1;
    }
    return 0;
}

static uint64_t get_elt(const uint8_t *buf, int t, int i) {
    uint64_t v = 0;
    memcpy(&v, buf + (size_t)i * (size_t)tsize[t], (size_t)tsize[t]);
    return v;
}
static void put_elt(uint8_t *buf, int t, int i, uint64_t v) {
    memcpy(buf + (size_t)i * (size_t)tsize[t], &v, (size_t)tsize[t]);
}

/* ------------------------------------------------------------------ combos */
struct combo;
/* Model of one lane: s[k] raw source bits; fills e (dst) and e2 (second dst if any). */
typedef void (*model_fn)(const struct combo *c, const uint64_t *s, expect *e, expect *e2);
/* Model of one lane that needs other lanes' sources (dp4, line, plane, scalar setp): VALS. */
typedef void (*vmodel_fn)(const struct combo *c, int lane, expect *e);

typedef struct combo {
    const char *op; /* mnemonic as written (may include a suffix such as ".lt") */
    int nsrc;
    int dt, st[4];
    int sat;
    const char *mod[4]; /* source modifier text: "", "(-)", "(abs)", "(-abs)", "(~)" */
    model_fn model;
    int param; /* op-specific (bfn table, ...) */
    const char *body; /* NULL: generic "op[.sat] (M1, 16) D S0 S1 ..." */
    int dmul, dt2; /* madw: 2 dst elements per lane; addc/subb: carry type */
    int lanes_stride; /* sad2: only even lanes defined */
    uint32_t cr0; /* CR0_SET | the initial %cr0 of the run (visa_run_opts.cr0); 0: the default 0x4C0 */
    vmodel_fn vmodel; /* instead of model */
    int smul1; /* plane: 2 src1 elements per lane */
    uint32_t imm; /* setp: the immediate source */
    int cr0_mov; /* the kernel writes cr0 itself (mov %cr0) instead of the run option */
    int hard_mad; /* lanes from mad_hard() (hf or bf mad), not the pools */
} combo;

static long n_combos, n_lanes;
static runner RUN;

static int ulp_ok(int dt, uint64_t got, const expect *e) {
    if (e->kind != X_TOL) return 0;
    if (isnan_bits(dt, got)) return 0;
    double g = fval(dt, got);
    if (isinf(e->ref) || isinf(g)) return g == e->ref || fabs(e->ref) > 1e300;
    return fabs(g - e->ref) <= e->tol;
}

static int check_lane(const combo *c, int dt, uint64_t got, const expect *e, int lane, const uint64_t *s,
                      const char *which) {
    if (e->kind == X_SKIP) return 1;
    n_lanes++;
    int ok;
    if (e->kind == X_ANYNAN && e->nan_as == 2) ok = (got & 0x7c) == 0x7c && (got & 3);
    else if (e->kind == X_ANYNAN) ok = e->nan_as == 1 ? isnan_bits(T_F, got) : is_flt(dt) && isnan_bits(dt, got);
    else if (e->kind == X_TOL) ok = got == e->v || got == e->alt || ulp_ok(dt, got, e);
    else ok = got == e->v || got == e->alt;
    if (!ok) {
        char srcs[200] = "";
        for (int k = 0; k < c->nsrc; k++)
            snprintf(srcs + strlen(srcs), sizeof srcs - strlen(srcs), " %s%s:0x%llx", c->mod[k] ? c->mod[k] : "",
                     tname[c->st[k]], (unsigned long long)s[k]);
        fprintf(stderr, "  %s%s %s%s lane %d:%s -> got 0x%llx want 0x%llx%s", c->op, c->sat ? ".sat" : "", tname[dt],
                which, lane, srcs, (unsigned long long)got, (unsigned long long)e->v,
                e->kind == X_ANYNAN ? " (any NaN)" : "");
        if (e->kind == X_TOL) fprintf(stderr, " (ref %.17g tol %g, got %.17g)", e->ref, e->tol, fval(dt, got));
        if (is_flt(dt) && e->kind != X_TOL) fprintf(stderr, " (%.9g vs %.9g)", fval(dt, got), fval(dt, e->v));
        fputc('\n', stderr);
    }
    return ok;
}

/* Is float r (as a double) halfway between two neighbours of type t? */
static int is_midpoint(int t, double r) {
    uint64_t b = d2f(t, r, 0);
    double v = fval(t, b);
    if (v == r || !isfinite(v)) return 0;
    double w = fval(t, fabs(v) < fabs(r) ? b + 1 : b - 1); /* the neighbour on r's other side */
    return fabs(r - v) == fabs(w - r);
}
/* A random value of type t: 1.m * 2^e, m random (rounded to t). */
static double rand_at(int t, int e) {
    uint64_t r = rnd();
    double m = 1.0 + (double)(r >> 12) * 0x1p-52;
    return fval(t, d2f(t, ldexp((r & 1) ? -m : m, e), 0));
}
/* Lanes for a fused mad on hf or bf sources and destination where rounding a*b + c to float first
** and then to t would be wrong or is close to it (the cases an emulator that computes in float
** must notice): the float result is a midpoint of t while a*b + c is not (about half the lanes),
** float results that are exact midpoints (the tie goes to even), inexact results in hf's
** subnormal range, results near t's overflow, and plain products.  Found by random search from a
** fixed seed; the expected values come from fused(), like every other mad lane. */
static int mad_hard(int t, uint64_t (*vals)[MAXL], int want) {
    int n = 0, got[4] = {0};
    const int quota[4] = {want / 2, want / 8, t == T_HF ? want / 8 : 0, want / 8};
    int lo = t == T_HF ? -24 : -132, hi = t == T_HF ? 15 : 126;
    for (long tries = 0; tries < 4000000 && n < want - want / 8; tries++) {
        uint64_t r = rnd();
        /* c at 2^ec, a*b at 2^eab: either may dominate, or they may cancel */
        int ec = lo + (int)(r % (uint64_t)(hi - lo + 1)), eab = ec - ((int)((r >> 16) % 50) - 25);
        if ((r >> 32) % 8 == 0) ec = hi, eab = hi - (int)((r >> 40) % 4); /* near overflow */
        int ea = eab / 2 + (int)((r >> 24) % 5) - 2;
        double a = rand_at(t, ea), b = rand_at(t, eab - ea), cc = rand_at(t, ec);
        if (!isfinite(a) || !isfinite(b) || !isfinite(cc)) continue;
        float rf = fmaf((float)a, (float)b, (float)cc);
        double p = a * b, sum = p + cc, bb = sum - p, err = (p - (sum - bb)) + (cc - bb);
        int exact = err == 0 && (double)rf == sum, kind;
        if (is_midpoint(t, rf)) kind = exact ? 1 : 0;
        else if (t == T_HF && !exact && rf != 0 && fabsf(rf) < 0x1p-14f) kind = 2;
        else if (!exact && fabs(sum) > (t == T_HF ? 65000.0 : 0x1.fcp127)) kind = 3;
        else continue;
        if (got[kind] >= quota[kind]) continue;
        got[kind]++;
        vals[0][n] = d2f(t, a, 0), vals[1][n] = d2f(t, b, 0), vals[2][n] = d2f(t, cc, 0);
        n++;
    }
    while (n < want) { /* the rest: plain random triples */
        for (int k = 0; k < 3; k++) vals[k][n] = rand_val(t);
        n++;
    }
    return got[0];
}

/* Build lanes (cross product of the specials for <= 2 sources, then random), run, compare. */
static void run_combo(const combo *c) {
    pool sp[4];
    for (int k = 0; k < c->nsrc; k++) specials(c->st[k], &sp[k]);
    uint64_t(*vals)[MAXL] = VALS;
    int nl = 0;
    int hard_ties = 0;
    if (c->hard_mad) { /* searched once per type, the same lanes for every variant of the combo */
        static uint64_t hard[2][3][512];
        static int hard_n[2] = {-1, -1};
        int h = c->dt == T_BF;
        if (hard_n[h] < 0) {
            static uint64_t tmp[4][MAXL];
            uint64_t saved = rng_state;
            rng_state = 0x2545f4914f6cdd1dull;
            hard_n[h] = mad_hard(c->dt, tmp, 512);
            rng_state = saved;
            for (int k = 0; k < 3; k++) memcpy(hard[h][k], tmp[k], sizeof hard[h][k]);
        }
        for (int k = 0; k < 3; k++) memcpy(vals[k], hard[h][k], sizeof hard[h][k]);
        nl = 512;
        hard_ties = hard_n[h];
    } else if (c->nsrc == 1) {
        for (int i = 0; i < sp[0].n; i++) vals[0][nl++] = sp[0].v[i];
    } else if (c->nsrc == 2) {
        for (int i = 0; i < sp[0].n; i++)
            for (int j = 0; j < sp[1].n && nl < 2800; j++) {
                vals[0][nl] = sp[0].v[i];
                vals[1][nl++] = sp[1].v[j];
            }
    } else {
        for (; nl < 1200; nl++)
            for (int k = 0; k < c->nsrc; k++) vals[k][nl] = sp[k].v[rnd() % (uint64_t)sp[k].n];
    }
    int target = c->hard_mad ? nl : nl + 512;
    for (; nl < target; nl++)
        for (int k = 0; k < c->nsrc; k++)
            vals[k][nl] = (rnd() & 1) ? rand_val(c->st[k]) : sp[k].v[rnd() % (uint64_t)sp[k].n];
    while (nl % LANES_PER_GROUP) {
        for (int k = 0; k < c->nsrc; k++) vals[k][nl] = vals[k][0];
        nl++;
    }

    int smul1 = c->smul1 ? c->smul1 : 1;
    for (int i = nl; i < nl * smul1; i++)
        vals[1][i] = (rnd() & 1) ? rand_val(c->st[1]) : sp[1].v[rnd() % (uint64_t)sp[1].n];
    uint8_t *src[4] = {0};
    for (int k = 0; k < c->nsrc; k++) {
        int ne = k == 1 ? nl * smul1 : nl;
        src[k] = calloc((size_t)ne, 8);
        for (int i = 0; i < ne; i++) put_elt(src[k], c->st[k], i, vals[k][i]);
    }
    int dmul = c->dmul ? c->dmul : 1;
    uint8_t *out = calloc((size_t)nl * (size_t)dmul, 8), *out2 = c->dt2 != T_NONE ? calloc((size_t)nl, 8) : NULL;

    char body[1024];
    if (c->body) {
        snprintf(body, sizeof body, "%s", c->body);
    } else {
        int n = snprintf(body, sizeof body, "    %s%s (M1, 16) D(0,0)<1>", c->op, c->sat ? ".sat" : "");
        for (int k = 0; k < c->nsrc; k++)
            n += snprintf(body + n, sizeof body - (size_t)n, " %sS%d(0,0)<1;1,0>", c->mod[k] ? c->mod[k] : "", k);
    }
    char name[160];
    snprintf(name, sizeof name, "%s%s dst=%s src=%s%s%s%s%s%s%s%s", c->op, c->sat ? ".sat" : "", tname[c->dt],
             c->mod[0] ? c->mod[0] : "", tname[c->st[0]], c->nsrc > 1 ? "," : "",
             c->nsrc > 1 ? (c->mod[1] ? c->mod[1] : "") : "", c->nsrc > 1 ? tname[c->st[1]] : "",
             c->nsrc > 2 ? "," : "", c->nsrc > 2 ? tname[c->st[2]] : "", c->nsrc > 3 ? ",.." : "");
    if (c->cr0)
        snprintf(name + strlen(name), sizeof name - strlen(name), " cr0=0x%x%s", (unsigned)(c->cr0 & ~CR0_SET),
                 c->cr0_mov ? " (mov)" : "");
    CASE_BEGIN();
    n_combos++;
    RUN_CR0 = c->cr0_mov ? 0 : c->cr0;
    RUN_SMUL1 = smul1;
    set_mode(c->cr0 ? c->cr0 & ~CR0_SET : 0x4C0);
    if (run_body(&RUN, body, c->nsrc, c->st, c->dt, dmul, c->dt2, nl, src, out, out2)) {
        CHECKF(0, "%s could not run", name);
    } else {
        int bad = 0;
        for (int i = 0; i < nl && bad < 6; i += c->lanes_stride ? c->lanes_stride : 1) {
            uint64_t s[4] = {0};
            for (int k = 0; k < c->nsrc; k++) s[k] = vals[k][i];
            if (c->lanes_stride == 2)
                for (int k = 0; k < c->nsrc; k++) s[k] |= vals[k][i + 1] << 32; /* pair for sad2 */
            expect e, e2;
            memset(&e, 0, sizeof e);
            memset(&e2, 0, sizeof e2);
            e2.kind = X_SKIP;
            if (c->vmodel) c->vmodel(c, i, &e);
            else c->model(c, s, &e, &e2);
            if (ALT) /* ALT mode: NaN, infinity and denormal inputs must not be passed (2_datatypes) */
                for (int k = 0; k < c->nsrc; k++)
                    if (is_flt(c->st[k]) && (!isfinite(fval(c->st[k], s[k])) || is_denorm_bits(c->st[k], s[k])))
                        e.kind = X_SKIP;
            if (dmul == 2) {
                /* madw: low halves in the first 16 elements of each group, high halves next */
                int g = i / 16, l = i % 16;
                uint64_t lo = get_elt(out, c->dt, g * 32 + l), hi = get_elt(out, c->dt, g * 32 + 16 + l);
                expect el = e, eh = e;
                el.v = el.alt = e.v & 0xffffffffu;
                eh.v = eh.alt = e.v >> 32;
                if (!check_lane(c, c->dt, lo, &el, i, s, "(lo)") || !check_lane(c, c->dt, hi, &eh, i, s, "(hi)")) bad++;
                continue;
            }
            if (!check_lane(c, c->dt, get_elt(out, c->dt, i), &e, i, s, "")) bad++;
            if (out2 && !check_lane(c, c->dt2, get_elt(out2, c->dt2, i), &e2, i, s, "(2nd dst)")) bad++;
        }
        CHECKF(bad == 0, "%s: lanes differ from the model", name);
        CHECKF(!c->hard_mad || hard_ties >= 128, "%s: only %d lanes whose float fma is an inexact midpoint", name,
               hard_ties);
    }
    set_mode(0x4C0);
    RUN_CR0 = 0;
    RUN_SMUL1 = 1;
    CASE_END(name);
    for (int k = 0; k < c->nsrc; k++) free(src[k]);
    free(out);
    free(out2);
}

/* ------------------------------------------------------------------ source reading */
/* Source k as an exact integer, modifier applied in extra precision. */
static i128 isrc(const combo *c, const uint64_t *s, int k) {
    i128 v = ival(c->st[k], s[k]);
    const char *m = c->mod[k] ? c->mod[k] : "";
    if (!strcmp(m, "(-)")) v = -v;
    else if (!strcmp(m, "(abs)")) v = v < 0 ? -v : v;
    else if (!strcmp(m, "(-abs)")) v = v < 0 ? v : -v;
    else if (!strcmp(m, "(~)")) v = ~v;
    return v;
}
/* Source k as a double (exact), modifier applied. */
static double fsrc(const combo *c, const uint64_t *s, int k) {
    double v = fval(c->st[k], s[k]);
    if (FLUSH[c->st[k]] && is_denorm_bits(c->st[k], s[k])) v = v < 0 ? -0.0 : 0.0; /* flushed on input */
    const char *m = c->mod[k] ? c->mod[k] : "";
    if (!strcmp(m, "(-)")) v = -v;
    else if (!strcmp(m, "(abs)")) v = fabs(v);
    else if (!strcmp(m, "(-abs)")) v = -fabs(v);
    return v;
}

/* ------------------------------------------------------------------ models */
/* A float result: the exact value rounded once to the destination (see the header: fused mad
** included, also for hf and bf destinations of f sources). */
static void fused(const combo *c, int dt, double a, double b, double cc, int sat, expect *e);
static double host_rm(double (*f)(double, double, double), double a, double b, double cc);
static double mul_ab(double a, double b, double unused);
static void ex_float_exec(const combo *c, expect *e, double r, int sticky) { ex_float(e, c->dt, r, c->sat, sticky); }
static void m_add(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    if (is_flt(c->dt)) fused(c, c->dt, fsrc(c, s, 0), 1.0, fsrc(c, s, 1), c->sat, e); /* exact sum, one rounding */
    else ex_exact(e, i2dst(c->dt, isrc(c, s, 0) + isrc(c, s, 1), c->sat));
}
static void m_add3(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    ex_exact(e, i2dst(c->dt, isrc(c, s, 0) + isrc(c, s, 1) + isrc(c, s, 2), c->sat));
}
static void m_mul(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    if (is_flt(c->dt)) {
        double a = fsrc(c, s, 0), b = fsrc(c, s, 1), p = a * b; /* exact in double for <= f sources */
        if (c->dt == T_DF) ex_float_exec(c, e, host_rm(mul_ab, a, b, 0), 0); /* rounded in the current mode */
        else if (p == 0 || !isfinite(p)) ex_float_exec(c, e, p, 0);
        else fused(c, c->dt, a, b, -0.0, c->sat, e);
    } else ex_exact(e, i2dst(c->dt, isrc(c, s, 0) * isrc(c, s, 1), c->sat));
}
/* a*b+c rounded once (fused): the product of two <= f values is exact in double; TwoSum gives the
** sum's rounding error, which decides ties when rounding to a narrower type. */
/* A double fma in the host's matching rounding direction: the DF reference under RU/RD/RTZ. */
static double host_rm(double (*f)(double, double, double), double a, double b, double cc) {
    static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    int saved = fegetround();
    volatile double va = a, vb = b, vc = cc; /* volatile: keeps the arithmetic after fesetround */
    fesetround(modes[RM]);
    volatile double r = f(va, vb, vc);
    fesetround(saved);
    return r;
}
static double mul_ab(double a, double b, double unused) {
    (void)unused;
    return a * b;
}
static void fused(const combo *c, int dt, double a, double b, double cc, int sat, expect *e) {
    if (dt == T_DF) {
        ex_float(e, dt, host_rm(fma, a, b, cc), sat, 0);
        return;
    }
    double p = a * b, sum = p + cc;
    double bb = sum - p, err = (p - (sum - bb)) + (cc - bb);
    int sticky = 0;
    if (isfinite(sum) && err != 0) sticky = ((err > 0) == (sum > 0)) ? 1 : -1;
    /* IEEE: an exact zero sum of opposite-signed (or -0 + +0) operands is -0 only when rounding down */
    if (sum == 0 && err == 0 && RM == 2 && (p != 0 || signbit(p) != signbit(cc))) sum = -0.0;
    if (sum == 0 && err != 0) {
        ex_float_exec(c, e, err, 0);
        return;
    }
    ex_float_exec(c, e, sum, sticky);
    (void)sat;
}
static void m_mad(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    if (is_flt(c->dt)) fused(c, c->dt, fsrc(c, s, 0), fsrc(c, s, 1), fsrc(c, s, 2), c->sat, e);
    else ex_exact(e, i2dst(c->dt, isrc(c, s, 0) * isrc(c, s, 1) + isrc(c, s, 2), c->sat));
}
static void m_avg(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    i128 v = isrc(c, s, 0) + isrc(c, s, 1) + 1;
    ex_exact(e, i2dst(c->dt, v >> 1, c->sat)); /* arithmetic shift = floor */
}
static void m_divmod(const combo *c, const uint64_t *s, expect *e, expect *e2, int mod) {
    (void)e2;
    if (is_flt(c->dt)) {
        double a = fsrc(c, s, 0), b = fsrc(c, s, 1), r = a / b;
        ex_float(e, c->dt, r, c->sat, 0);
        /* DIV.md: x * INV(y), not correctly rounded: 2 ulps of the destination */
        if (e->kind == X_EXACT && isfinite(r) && r != 0) {
            e->kind = X_TOL;
            e->ref = r;
            e->tol = 2 * ldexp(1.0, ilogb(r) - fman(c->dt));
            if (c->sat) e->ref = r < 0 ? 0 : r > 1 ? 1 : r;
        }
        return;
    }
    i128 a = isrc(c, s, 0), b = isrc(c, s, 1);
    if (b == 0) {
        e->kind = X_SKIP;
        return;
    } /* undefined */
    ex_exact(e, i2dst(c->dt, mod ? a % b : a / b, c->sat)); /* C truncates: DIV.md sign table */
}
static void m_div(const combo *c, const uint64_t *s, expect *e, expect *e2) { m_divmod(c, s, e, e2, 0); }
static void m_mod(const combo *c, const uint64_t *s, expect *e, expect *e2) { m_divmod(c, s, e, e2, 1); }

/* MIN_MAX.md: IEEE min/max; one NaN -> the other operand; both NaN -> src1. -0 < +0 is not
** stated; either zero is accepted for a (-0, +0) pair. */
static void m_minmax(const combo *c, const uint64_t *s, expect *e, expect *e2, int ismax) {
    (void)e2;
    if (is_flt(c->dt)) {
        double a = fsrc(c, s, 0), b = fsrc(c, s, 1);
        double r;
        if (isnan(a) && isnan(b)) r = b;
        else if (isnan(a)) r = b;
        else if (isnan(b)) r = a;
        else r = ismax ? (a > b ? a : b) : (a < b ? a : b);
        ex_float(e, c->dt, r, c->sat, 0);
        if (a == 0 && b == 0 && !c->sat) {
            e->v = d2f(c->dt, a, 0);
            e->alt = d2f(c->dt, b, 0);
        }
        return;
    }
    i128 a = isrc(c, s, 0), b = isrc(c, s, 1);
    ex_exact(e, i2dst(c->dt, ismax ? (a > b ? a : b) : (a < b ? a : b), c->sat));
}
static void m_min(const combo *c, const uint64_t *s, expect *e, expect *e2) { m_minmax(c, s, e, e2, 0); }
static void m_max(const combo *c, const uint64_t *s, expect *e, expect *e2) { m_minmax(c, s, e, e2, 1); }

static void m_logic(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    i128 a = isrc(c, s, 0), b = c->nsrc > 1 ? isrc(c, s, 1) : 0, r;
    switch (c->param) {
    case 0: r = a & b; break;
    case 1: r = a | b; break;
    case 2: r = a ^ b; break;
    default: r = ~a; break;
    }
    ex_exact(e, i2dst(c->dt, r, 0));
}
/* SHL/SHR/ASR.md: count = low 5 bits of src1 (6 for a q/uq destination). */
static void m_shift(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    int cnt = (int)((uint64_t)ival(c->st[1], s[1]) & (tsize[c->dt] == 8 ? 63 : 31));
    i128 a = isrc(c, s, 0), r;
    if (c->param == 0) r = a * ((i128)1 << cnt); /* no left shift of a negative value */
    else r = a >> cnt; /* shr: src0 unsigned (zero-extended); asr: signed (sign-extended) */
    if (c->sat && c->param == 0) {
        /* SHL.md: with .sat the shifted result must fit in 33 bits, else undefined */
        i128 lim = (i128)1 << 32;
        if (r >= lim || r < -lim) {
            e->kind = X_SKIP;
            return;
        }
    }
    ex_exact(e, i2dst(c->dt, r, c->sat));
}
/* ROL/ROR.md: rotate within src0's width (RotateMask = bits(src0) - 1). */
static void m_rot(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    int w = 8 * tsize[c->st[0]];
    uint64_t m = tmask(c->st[0]), a = s[0] & m;
    int cnt = (int)((uint64_t)ival(c->st[1], s[1]) & (uint64_t)(w - 1));
    uint64_t r = cnt ? ((a << cnt) | (a >> (w - cnt))) & m : a;
    if (c->param) r = cnt ? ((a >> cnt) | (a << (w - cnt))) & m : a;
    ex_exact(e, i2dst(c->dt, ival(c->st[0], r), 0));
}
static void m_cbit(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    ex_exact(e, (uint64_t)__builtin_popcountll(s[0] & tmask(c->st[0])));
}
static void m_fbl(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    uint32_t v = (uint32_t)s[0];
    ex_exact(e, v ? (uint64_t)__builtin_ctz(v) : 0xffffffffu);
}
static void m_fbh(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    uint32_t v = (uint32_t)s[0];
    if (c->st[0] == T_D) {
        if (v == 0 || v == 0xffffffffu) {
            ex_exact(e, 0xffffffffu);
            return;
        }
        ex_exact(e, (uint64_t)__builtin_clz(v >> 31 ? ~v : v)); /* leading bits equal to the sign */
        return;
    }
    ex_exact(e, v ? (uint64_t)__builtin_clz(v) : 0xffffffffu);
}
static void m_lzd(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)c;
    (void)e2;
    uint32_t v = (uint32_t)s[0];
    ex_exact(e, v ? (uint64_t)__builtin_clz(v) : 32);
}
static void m_bfrev(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)c;
    (void)e2;
    uint32_t v = (uint32_t)s[0], r = 0;
    for (int i = 0; i < 32; i++) r |= ((v >> i) & 1u) << (31 - i);
    ex_exact(e, r);
}
/* BFE.md: width = src0 & 31, offset = src1 & 31, field = (src2 >> offset) & ((1 << width) - 1);
** "If <dst> is type D, the results are sign-extended". width 0 gives 0. */
static void m_bfe(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    unsigned w = (unsigned)s[0] & 31, off = (unsigned)s[1] & 31;
    uint32_t v = (uint32_t)s[2];
    uint32_t f = (uint32_t)((v >> off) & ((1ull << w) - 1));
    if (c->dt == T_D && w && off + w <= 32 && ((f >> (w - 1)) & 1)) f |= ~(uint32_t)((1ull << w) - 1);
    if (c->dt == T_D && w && off + w > 32) {
        e->kind = X_SKIP;
        return;
    } /* field runs past bit 31: sign bit unstated */
    ex_exact(e, f);
}
static void m_bfi(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)c;
    (void)e2;
    unsigned w = (unsigned)s[0] & 31, off = (unsigned)s[1] & 31;
    uint32_t mask = (uint32_t)(((1ull << w) - 1) << off);
    ex_exact(e, (((uint32_t)s[2] << off) & mask) | ((uint32_t)s[3] & ~mask));
}
static void m_bfn(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    uint64_t r = 0, a = (uint64_t)isrc(c, s, 0), b = (uint64_t)isrc(c, s, 1), d = (uint64_t)isrc(c, s, 2);
    for (int i = 0; i < 64; i++) {
        int idx = (int)(((a >> i) & 1) | (((b >> i) & 1) << 1) | (((d >> i) & 1) << 2));
        r |= (uint64_t)((c->param >> idx) & 1) << i;
    }
    ex_exact(e, r & tmask(c->dt));
}
static void m_mulh(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    i128 p = isrc(c, s, 0) * isrc(c, s, 1);
    ex_exact(e, (uint64_t)(p >> 32) & 0xffffffffu);
}
static void m_addc(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    uint64_t a = (uint32_t)s[0], b = (uint32_t)s[1], r;
    if (c->param == 0) {
        r = a + b;
        ex_exact(e2, r >> 32);
    } else {
        r = a - b;
        ex_exact(e2, a < b);
    }
    ex_exact(e, r & 0xffffffffu);
}
static void m_madw(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    ex_exact(e, (uint64_t)(isrc(c, s, 0) * isrc(c, s, 1) + isrc(c, s, 2)));
}
static void m_dp4a(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    /* DP4A.md: bytes of src1/src2, signed when the source type is signed */
    i128 acc = isrc(c, s, 0);
    for (int i = 0; i < 4; i++) {
        i128 x = (i128)((s[1] >> (8 * i)) & 0xff), y = (i128)((s[2] >> (8 * i)) & 0xff);
        if (c->st[1] == T_D && x > 127) x -= 256;
        if (c->st[2] == T_D && y > 127) y -= 256;
        acc += x * y;
    }
    ex_exact(e, i2dst(c->dt, acc, c->sat));
}
/* SAD2: dst[i] = |src0[i]-src1[i]| + |src0[i+1]-src1[i+1]| (even lanes only; the odd lanes are
** undefined). The pair is packed as s[k] = lane i | lane i+1 << 32. */
static void m_sad2(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    i128 r = 0;
    for (int h = 0; h < 2; h++) {
        i128 a = ival(c->st[0], s[0] >> (32 * h)), b = ival(c->st[1], s[1] >> (32 * h));
        r += a > b ? a - b : b - a;
    }
    if (c->nsrc == 3) r += ival(c->st[2], s[2]);
    ex_exact(e, i2dst(c->dt, r, c->sat));
}

/* CMP.md: predicate dst bit, or all ones / zero in a general dst; NaN is unordered (ne true,
** everything else false); -0 == +0. param: 0 eq 1 ne 2 gt 3 ge 4 lt 5 le. */
static int rel_of(const combo *c, const uint64_t *s) {
    int r;
    if (is_flt(c->st[0])) {
        double a = fsrc(c, s, 0), b = fsrc(c, s, 1);
        if (isnan(a) || isnan(b)) return c->param == 1;
        r = a < b ? -1 : a > b ? 1 : 0;
    } else {
        i128 a = isrc(c, s, 0), b = isrc(c, s, 1);
        r = a < b ? -1 : a > b ? 1 : 0;
    }
    switch (c->param) {
    case 0: return r == 0;
    case 1: return r != 0;
    case 2: return r > 0;
    case 3: return r >= 0;
    case 4: return r < 0;
    default: return r <= 0;
    }
}
static void m_cmp_pred(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    ex_exact(e, (uint64_t)rel_of(c, s)); /* body: (PR) sel D 1 0 */
}
static void m_cmp_gen(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    ex_exact(e, rel_of(c, s) ? tmask(c->dt) : 0);
}
/* sel with a predicate from (src0 low bit) -- body computes PR from S2. */
static void m_sel(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    int k = (s[2] & 1) ? 0 : 1;
    if (is_flt(c->dt)) {
        double v = fsrc(c, s, k);
        if (!c->sat && (!c->mod[k] || !*c->mod[k])) {
            ex_exact(e, s[k] & tmask(c->dt));
            return;
        } /* a copy */
        ex_float(e, c->dt, v, c->sat, 0);
        if (isnan(v) && !c->sat) e->kind = X_ANYNAN;
        return;
    }
    ex_exact(e, i2dst(c->dt, isrc(c, s, k), c->sat));
}

/* MOV: 2_datatypes conversions. */
static void m_mov(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    int dt = c->dt, st = c->st[0];
    int plain = !c->mod[0] || !*c->mod[0];
    if (!is_flt(st)) {
        ex_exact(e, i2dst(dt, isrc(c, s, 0), c->sat));
        return;
    }
    double v = fsrc(c, s, 0);
    if (is_flt(dt)) {
        if (dt == st && plain && !c->sat) {
            ex_exact(e, s[0] & tmask(dt));
            return;
        } /* a copy */
        ex_float(e, dt, v, c->sat, 0);
        return;
    }
    if (c->sat) { /* float -> int with .sat: the conversion already clamps */
    }
    ex_exact(e, f2i(dt, v));
}

/* RNDD/RNDU/RNDE/RNDZ/FRC (f only). param 0 d, 1 u, 2 e, 3 z, 4 frc. */
static void m_rnd(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    double v = fsrc(c, s, 0), r;
    switch (c->param) {
    case 0: r = floor(v); break;
    case 1: r = ceil(v); break;
    case 2: r = nearbyint(v); break;
    case 3: r = trunc(v); break;
    default: r = v - floor(v); break; /* FRC: src0 - floor(src0), in f */
    }
    if (c->param == 4) {
        /* the subtraction is done in the destination precision */
        float rf = (float)v - (float)floor(v);
        r = rf;
    }
    ex_float(e, c->dt, r, c->sat, 0);
}

/* Transcendental math. Tolerances (the spec gives no precision for these instructions, so these
** are this test's stated bounds, loose enough for any faithful implementation and tight enough to
** catch a wrong function, argument or rounding): f results within 4 ulps (relative 2^-21) for inv,
** sqrt, rsqrt, log, exp, pow, tanh, sigm; sin/cos within 2^-20 absolute for |x| <= 2^10 and not
** checked beyond (range reduction of huge arguments is implementation-defined); hf results within
** 1 hf ulp. Special values (0, inf, NaN, exact powers of two for exp/log) follow IEEE/C99. */
static void math_tol(const combo *c, double r, expect *e, int absolute) {
    int dt = c->dt;
    ex_float(e, dt, r, c->sat, 0);
    if (e->kind != X_EXACT || !isfinite(r)) return;
    double ref = r;
    if (c->sat) ref = r < 0 ? 0 : r > 1 ? 1 : r;
    e->kind = X_TOL;
    e->ref = ref;
    int ulps = dt == T_HF ? 1 : 4;
    double minq = ldexp(1.0, (2 - (1 << (fexp(dt) - 1))) - fman(dt)); /* denormal quantum */
    e->tol = ref == 0 ? minq : fmax(minq, ulps * ldexp(1.0, ilogb(ref) - fman(dt)));
    if (absolute) e->tol = fmax(e->tol, ldexp(1.0, dt == T_HF ? -10 : -20));
}
static void m_math(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    double x = fsrc(c, s, 0), r;
    int absolute = 0;
    if (ALT && (c->param == 1 || c->param == 2 || c->param == 4)) x = fabs(x); /* ALT: sqrt, rsq, log read |src| */
    switch (c->param) {
    case 0: r = 1.0 / x; break; /* inv */
    case 1: r = sqrt(x); break; /* sqrt */
    case 2: r = 1.0 / sqrt(x); break; /* rsqrt */
    case 3: r = exp2(x); break; /* exp: 2**x */
    case 4: r = log2(x); break; /* log: log2 */
    case 5:
        r = sin(x);
        absolute = 1;
        break;
    case 6:
        r = cos(x);
        absolute = 1;
        break;
    case 7:
        r = tanh(x);
        absolute = 1;
        break;
    case 8:
        r = 1.0 / (1.0 + exp(-x));
        absolute = 1;
        break; /* sigm */
    default: r = pow(x, fsrc(c, s, 1)); break; /* pow */
    }
    if ((c->param == 5 || c->param == 6) && fabs(x) > 1024) {
        e->kind = X_SKIP;
        return;
    }
    if (c->param == 9) {
        /* POW: only the IEEE-defined cases are checked; negative bases are implementation-defined */
        double y = fsrc(c, s, 1);
        if (x < 0 || isnan(x) || isnan(y)) {
            e->kind = X_SKIP;
            return;
        }
        if (!isfinite(r) && isfinite(x) && isfinite(y)) {
            e->kind = X_SKIP;
            return;
        } /* overflow edge */
    }
    if (c->param == 3 || c->param == 4) {
        /* exact when the result is exactly representable (exp of an integer, log of a power of 2) */
        math_tol(c, r, e, 0);
        if (c->param == 3 && x == floor(x)) e->tol = 0;
        if (c->param == 4 && r == floor(r)) e->tol = 0;
        return;
    }
    math_tol(c, r, e, absolute);
    if (c->param == 0 && c->dt == T_DF && e->kind == X_TOL && r != 0) { e->tol = ldexp(1.0, ilogb(r) - 52) * 2; }
}

/* ------------------------------------------------------------------ macros and other ops */
static double div_ab(double a, double b, double unused) {
    (void)unused;
    return a / b;
}
static double sqrt_a(double a, double unused, double unused2) {
    (void)unused;
    (void)unused2;
    return sqrt(a);
}
/* DIVM.md / SQRTM.md: IEEE-compliant, so exact: correctly rounded in the %cr0 mode.  F: the
** double quotient / root plus the sign of its exact remainder (fma) decide the one rounding. */
static void m_ieee(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    double a = fsrc(c, s, 0), b = c->param == 0 ? fsrc(c, s, 1) : 0, r, rem;
    int sticky = 0;
    if (c->dt == T_DF) {
        ex_float(e, T_DF, c->param == 0 ? host_rm(div_ab, a, b, 0) : host_rm(sqrt_a, a, 0, 0), c->sat, 0);
        return;
    }
    if (c->param == 0) {
        r = a / b;
        if (isfinite(r) && r != 0 && (rem = fma(-r, b, a)) != 0) sticky = (((rem > 0) == (b > 0)) == (r > 0)) ? 1 : -1;
    } else {
        r = sqrt(a);
        if (isfinite(r) && r > 0 && (rem = fma(-r, r, a)) != 0) sticky = rem > 0 ? 1 : -1;
    }
    ex_float(e, c->dt, r, c->sat, sticky);
}

/* Sums of products whose rounding the spec leaves open (lrp, line, dp2/dp3/dp4/dph, plane: one
** fused rounding or a rounding per step).  Reading: the result must be within 2 ulps of the
** largest term (or of the result) from the exact value; an intermediate beyond the f range may
** give the right result or +-inf (2_datatypes "fused operations"), so such lanes are skipped;
** NaN in, NaN out. */
static void sum_terms(const combo *c, const double *t, int n, expect *e) {
    double r = 0, big = 0;
    for (int i = 0; i < n; i++) {
        r += t[i];
        if (isnan(t[i])) {
            if (c->sat) ex_exact(e, 0);
            else {
                e->kind = X_ANYNAN;
                e->v = e->alt = qnan_bits(c->dt);
            }
            return;
        }
        if (fabs(t[i]) > FLT_MAX) {
            e->kind = X_SKIP;
            return;
        }
        big = fmax(big, fabs(t[i]));
    }
    if (fabs(r) > FLT_MAX * (1 - 0x1p-25)) {
        e->kind = X_SKIP;
        return;
    } /* overflow edge */
    ex_float(e, c->dt, r, c->sat, 0);
    if (e->kind != X_EXACT) return;
    e->kind = X_TOL;
    e->ref = c->sat ? (r < 0 ? 0 : r > 1 ? 1 : r) : r;
    big = fmax(big, fabs(r));
    e->tol = big == 0 ? 0 : 2 * ldexp(1.0, ilogb(big) - fman(c->dt));
    e->tol = fmax(e->tol, ldexp(1.0, -149));
}
static double fsrcb(const combo *c, int k, uint64_t b) {
    uint64_t s[4] = {0};
    s[k] = b;
    return fsrc(c, s, k);
}
/* LRP.md: src1 * src0 + src2 * (1.0 - src0); the lanes (1 - src0) are terms of their own. */
static void m_lrp(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    double a = fsrc(c, s, 0), b = fsrc(c, s, 1), d = fsrc(c, s, 2), om = 1.0 - a;
    if (fabs(om) > FLT_MAX && isfinite(a)) {
        e->kind = X_SKIP;
        return;
    }
    double t[2] = {b * a, d * om};
    sum_terms(c, t, 2, e);
}
/* dp4/dp3/dp2/dph over each group of 4 lanes, replicated (no spec page: ops.def and the Gen
** definition written in tests/emu/ext_dpx.visaasm). param: components (2, 3, 4), 5 = dph. */
static void vm_dp(const combo *c, int lane, expect *e) {
    int b = lane & ~3, n = c->param == 5 ? 3 : c->param;
    double t[4];
    for (int j = 0; j < n; j++) t[j] = fsrcb(c, 0, VALS[0][b + j]) * fsrcb(c, 1, VALS[1][b + j]);
    if (c->param == 5) {
        t[3] = fsrcb(c, 1, VALS[1][b + 3]);
        n = 4;
    }
    sum_terms(c, t, n, e);
}
/* line: src0[0] * src1[i] + src0[3], src0 read from its scalar region's first 4 elements. */
static void vm_line(const combo *c, int lane, expect *e) {
    int g = lane / 16 * 16;
    double t[2] = {fsrcb(c, 0, VALS[0][g]) * fsrcb(c, 1, VALS[1][lane]), fsrcb(c, 0, VALS[0][g + 3])};
    sum_terms(c, t, 2, e);
}
/* PLN.md: src0[0] * u + src0[1] * v + src0[3]; SIMD16 u/v from src1[0:7]/[8:15] for lanes 0-7,
** src1[16:23]/[24:31] for lanes 8-15. */
static void vm_plane(const combo *c, int lane, expect *e) {
    int g = lane / 16, l = lane % 16, ui = 32 * g + (l < 8 ? l : 8 + l);
    double t[3] = {fsrcb(c, 0, VALS[0][16 * g]) * fsrcb(c, 1, VALS[1][ui]),
                   fsrcb(c, 0, VALS[0][16 * g + 1]) * fsrcb(c, 1, VALS[1][ui + 8]), fsrcb(c, 0, VALS[0][16 * g + 3])};
    sum_terms(c, t, 3, e);
}
/* SETP.md: vector src0 -> LSB per lane; scalar (param 1) -> bit i of src0; immediate (param 2)
** -> bit i of the immediate c->imm. */
static void vm_setp(const combo *c, int lane, expect *e) {
    uint64_t v = c->param == 0   ? VALS[0][lane] & 1
                 : c->param == 1 ? (VALS[0][lane / 16 * 16] >> (lane % 16)) & 1
                                 : ((uint64_t)c->imm >> (lane % 16)) & 1;
    ex_exact(e, v);
}
/* ADD3O.md: dst = the sum truncated to dst; P = overflow.  Reading: overflow = the exact sum of
** the (widened, modified) sources does not fit the destination type (unsigned: carry out,
** signed: signed overflow), as 2_datatypes' extra-precision rule computes the sum. */
static void m_add3o(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    i128 v = isrc(c, s, 0) + isrc(c, s, 1) + isrc(c, s, 2);
    ex_exact(e, i2dst(c->dt, v, 0));
    ex_exact(e2, v < imin(c->dt) || v > imax(c->dt));
}
/* INVM.md / RSQTM.md: the predicate dst (early out) is set exactly when the result is a special
** number (NaN, inf, zero); then dst is that IEEE result.  Otherwise dst is an unspecified first
** approximation (not checked) and the flag is 0.  Reading: a finite non-zero input whose exact
** result overflows or underflows is implementation-defined (not an early-out case on inputs),
** so such lanes are skipped. */
static void m_invm(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    double a = fsrc(c, s, 0), b = c->param == 0 ? fsrc(c, s, 1) : 0;
    double r = c->param == 0 ? a / b : 1.0 / sqrt(a);
    int special_in = c->param == 0 ? (!isfinite(a) || !isfinite(b) || a == 0 || b == 0) : (!isfinite(a) || a <= 0);
    if (c->dt == T_F && !isnan(r)) {
        double rf = fval(T_F, d2f(T_F, r, 0));
        if (!special_in && (isinf(rf) || rf == 0)) {
            e->kind = e2->kind = X_SKIP;
            return;
        }
    }
    if (c->dt == T_DF && !special_in && (isinf(r) || r == 0)) {
        e->kind = e2->kind = X_SKIP;
        return;
    }
    ex_exact(e2, special_in);
    if (!special_in) {
        e->kind = X_SKIP;
        return;
    }
    ex_float(e, c->dt, r, 0, 0);
}
/* FCVT.md: hf -> bf8 (E5M2, as ub): round to nearest even, denormals kept; bf8 and hf share the
** exponent layout, so this rounds off the low 8 bits of the hf encoding.  bf8 -> hf exact.
** f -> tf32 (as ud): nearest even to 10 mantissa bits, denormals flushed; tf32 -> f a no-op.
** param: 0 hf->bf8, 1 bf8->hf, 2 f->tf32, 3 tf32->f. */
static void m_fcvt(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    uint64_t x = s[0];
    switch (c->param) {
    case 0: {
        x &= 0xffff;
        if (isnan_bits(T_HF, x)) {
            e->kind = X_ANYNAN;
            e->nan_as = 2;
            return;
        }
        uint64_t r = x >> 8, rem = x & 0xff;
        if (rem > 0x80 || (rem == 0x80 && (r & 1))) r++;
        ex_exact(e, r);
        return;
    }
    case 1:
        if ((x & 0x7c) == 0x7c && (x & 3)) {
            e->kind = X_ANYNAN;
            e->v = e->alt = qnan_bits(T_HF);
            return;
        }
        ex_exact(e, (x & 0xff) << 8);
        return;
    case 2: {
        x &= 0xffffffffu;
        if (isnan_bits(T_F, x)) {
            e->kind = X_ANYNAN;
            e->nan_as = 1;
            return;
        }
        if (is_denorm_bits(T_F, x)) {
            ex_exact(e, x & 0x80000000u);
            return;
        }
        if ((x & 0x7f800000u) == 0x7f800000u) {
            ex_exact(e, x);
            return;
        }
        uint64_t r = x >> 13, rem = x & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (r & 1))) r++;
        ex_exact(e, (r << 13) & 0xffffffffu); /* a carry into the exponent is the next binade / inf */
        return;
    }
    default: ex_exact(e, x & 0xffffffffu); return;
    }
}
/* SRND.md: add the random bits (src1[7:0] for hf -> bf8, src1[12:0] for f -> hf, bit 0 aligned
** with the source mantissa's bit 0) to the source magnitude, then truncate to the destination.
** NaN and inf follow IEEE; denormals kept.  Reading: a finite source whose sum reaches the
** destination's overflow range (all-ones exponent) is left unchecked (the page does not say
** whether that saturates or gives inf). param: 0 f->hf, 1 hf->bf8. */
static void m_srnd(const combo *c, const uint64_t *s, expect *e, expect *e2) {
    (void)e2;
    if (c->param == 1) {
        uint64_t x = s[0] & 0xffff, sg = x & 0x8000, mag = x & 0x7fff;
        if (isnan_bits(T_HF, x)) {
            e->kind = X_ANYNAN;
            e->nan_as = 2;
            return;
        }
        if (mag == 0x7c00) {
            ex_exact(e, (sg >> 8) | 0x7c);
            return;
        }
        uint64_t r = (mag + (s[1] & 0xff)) >> 8;
        if (r >= 0x7c) {
            e->kind = X_SKIP;
            return;
        }
        ex_exact(e, (sg >> 8) | r);
        return;
    }
    uint64_t x = s[0] & 0xffffffffu, sg = x & 0x80000000u, mag = x & 0x7fffffffu;
    if (isnan_bits(T_F, x)) {
        e->kind = X_ANYNAN;
        e->v = e->alt = qnan_bits(T_HF);
        return;
    }
    if (mag == 0x7f800000u) {
        ex_exact(e, (sg >> 16) | 0x7c00);
        return;
    }
    uint64_t sum = mag + (s[1] & 0x1fff);
    if (sum >= 0x7f800000u) {
        e->kind = X_SKIP;
        return;
    } /* far beyond the hf range */
    float f;
    uint32_t fb = (uint32_t)sum;
    memcpy(&f, &fb, 4);
    /* truncate f (exact in double) to hf: round toward zero */
    int saved = RM, saved_fl = FLUSH[T_HF];
    RM = 3;
    FLUSH[T_HF] = 0; /* "Denoms are retained always", whatever %cr0 says */
    uint64_t h = d2f(T_HF, (double)f, 0);
    RM = saved;
    FLUSH[T_HF] = saved_fl;
    if ((h & 0x7fff) >= 0x7bff && (double)f >= 65504.0 + 16) {
        e->kind = X_SKIP;
        return;
    }
    ex_exact(e, (sg >> 16) | h);
}

/* ------------------------------------------------------------------ operand forms */
/* VF element (2_datatypes: 8-bit restricted float, range +-[0.125, 31] and 0): 1 sign, 3 exponent
** bits (bias 3), 4 mantissa bits, exponent 0 normal (no denormals), all zero bits = 0. */
static double vf_val(unsigned b) {
    unsigned e = (b >> 4) & 7, m = b & 15;
    double v = (e == 0 && m == 0) ? 0.0 : ldexp(1.0 + m / 16.0, (int)e - 3);
    return (b & 0x80) ? -v : v;
}
/* Packed immediates (5_operands "Immediate Operands": V/UV = 8-element w/uw vector, VF =
** 4-element f vector, contiguous, no replication beyond the vector).  param: 0 add V, 1 add UV,
** 2 mov V, 3 mov UV, 4 add VF, 5 mov VF; the kernel runs them at exec size 8 (4 for VF). */
static void vm_imm(const combo *c, int lane, expect *e) {
    int l = lane % 16;
    if (c->param >= 4) {
        double v = vf_val((c->imm >> (8 * (l % 4))) & 0xff);
        if (c->param == 5) {
            ex_float(e, T_F, v, 0, 0);
            return;
        }
        fused(c, T_F, fsrcb(c, 0, VALS[0][lane]), 1.0, v, 0, e);
        return;
    }
    i128 el = (c->imm >> (4 * (l % 8))) & 15;
    if (!(c->param & 1) && el > 7) el -= 16;
    if (c->param >= 2) {
        ex_exact(e, i2dst(c->dt, el, 0));
        return;
    }
    ex_exact(e, i2dst(c->dt, ival(c->st[0], VALS[0][lane]) + el, 0));
}
/* Source regions (5_operands: element (i / width) * vstride + (i % width) * hstride from the
** offset) on src1 of add; param indexes REGIONS. */
static const struct {
    int off, vs, w, hs;
} REGIONS[] = {
    {0, 8, 4, 2},
    {0, 0, 4, 1},
    {0, 4, 4, 0},
    {5, 0, 1, 0},
    {0, 16, 8, 2},
    {3, 1, 1, 0},
    {1, 4, 2, 2},
    {2, 2, 2, 1},
    /* indirect (5_operands: r[A(0), imm]<region>, the address variable holds a byte address) */
    {1, 2, 1, 0},
    {4, 0, 1, 0},
    {7, 1, 1, 0},
};
static void vm_region(const combo *c, int lane, expect *e) {
    int g = lane / 16, l = lane % 16, p = c->param;
    int idx = REGIONS[p].off + (l / REGIONS[p].w) * REGIONS[p].vs + (l % REGIONS[p].w) * REGIONS[p].hs;
    uint64_t s[4] = {VALS[0][lane], VALS[1][32 * g + idx], 0, 0};
    m_add(c, s, e, NULL);
}
/* Destination stride param (exec size 16 / stride): elements between the written ones keep the
** fill value c->imm written first. */
static void vm_dstride(const combo *c, int lane, expect *e) {
    int g = lane / 16, l = lane % 16, st = c->param;
    if (l % st) {
        ex_exact(e, c->imm & tmask(c->dt));
        return;
    }
    uint64_t s[4] = {VALS[0][16 * g + l / st], VALS[1][16 * g + l / st], 0, 0};
    m_add(c, s, e, NULL);
}
/* Predicate operands: P1 = LSB of S0, P2 = LSB of S1 (setp); param 0-3: P3 = P1 and/or/xor P2,
** not P1, dst = P3; 4/5: (P1) / (!P1) add over a filled dst (disabled lanes keep the fill). */
static void vm_pred(const combo *c, int lane, expect *e) {
    int p1 = (int)(VALS[0][lane] & 1), p2 = (int)(VALS[1][lane] & 1), r;
    switch (c->param) {
    case 0: r = p1 & p2; break;
    case 1: r = p1 | p2; break;
    case 2: r = p1 ^ p2; break;
    case 3: r = !p1; break;
    default: {
        int on = (int)(VALS[2][lane] & 1) ^ (c->param == 5);
        if (!on) {
            ex_exact(e, c->imm & tmask(c->dt));
            return;
        }
        uint64_t s[4] = {VALS[0][lane], VALS[1][lane], 0, 0};
        m_add(c, s, e, NULL);
        return;
    }
    }
    ex_exact(e, (uint64_t)r);
}

/* ------------------------------------------------------------------ driver */
static combo C0(const char *op, int nsrc, int dt, int s0, int s1, int s2, model_fn m) {
    combo c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.nsrc = nsrc;
    c.dt = dt;
    c.st[0] = s0;
    c.st[1] = s1;
    c.st[2] = s2;
    c.st[3] = s2;
    c.model = m;
    c.dt2 = T_NONE;
    return c;
}

static const int INTS[] = {T_UB, T_B, T_UW, T_W, T_UD, T_D, T_UQ, T_Q};
static const int INT32S[] = {T_UB, T_B, T_UW, T_W, T_UD, T_D};

/* Integer ops over every (dst, src) type pair in `ts`, plus mixed-source cases. */
static void int_binary(const char *op, model_fn m, int param, const int *ts, int nt, int with_sat,
                       const char *const *mods) {
    for (int i = 0; i < nt; i++) {
        int t = ts[i];
        combo c = C0(op, 2, t, t, t, t, m);
        c.param = param;
        run_combo(&c);
        if (with_sat) {
            c.sat = 1;
            run_combo(&c);
            c.sat = 0;
        }
        /* mixed: each source another type, dst a third */
        c.st[0] = ts[(i + 1) % nt];
        c.st[1] = ts[(i + 3) % nt];
        run_combo(&c);
        if (with_sat) {
            c.sat = 1;
            run_combo(&c);
            c.sat = 0;
        }
        if (mods) {
            c.st[0] = c.st[1] = t;
            c.mod[0] = mods[0];
            c.mod[1] = mods[1];
            run_combo(&c);
            c.mod[0] = mods[2];
            c.mod[1] = NULL;
            run_combo(&c);
        }
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    visa_ctx_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.on_diag = on_diag;
    d.diag_ud = &RUN;
    if (visa_ctx_create(&d, &RUN.ctx) != VISA_OK) {
        fprintf(stderr, "no context\n");
        return 1;
    }
    set_mode(0x4C0);

    static const char *const amods[] = {"(-)", "(abs)", "(-abs)"};
    static const int FLTS[] = {T_HF, T_F, T_DF};
    combo c;

    /* ---- integer arithmetic: add avg mul mad div mod min max (ub..q per the typesets) */
    int_binary("add", m_add, 0, INTS, 8, 1, amods);
    int_binary("avg", m_avg, 0, INT32S, 6, 1, amods);
    int_binary("mul", m_mul, 0, INT32S, 6, 1, amods);
    int_binary("div", m_div, 0, INT32S, 6, 1, amods);
    int_binary("mod", m_mod, 0, INT32S, 6, 1, NULL);
    int_binary("min", m_min, 0, INTS, 8, 1, amods);
    int_binary("max", m_max, 0, INTS, 8, 1, amods);
    /* mul q = d * d (TM_INT_QDD) */
    for (int dq = T_UQ; dq <= T_Q; dq++)
        for (int a = T_UD; a <= T_D; a++) {
            c = C0("mul", 2, dq, a, a ^ (dq == T_Q), 0, m_mul);
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
        }
    for (int i = 0; i < 6; i++) {
        int t = INT32S[i];
        c = C0("mad", 3, t, t, t, t, m_mad);
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.st[0] = INT32S[(i + 2) % 6];
        c.st[2] = INT32S[(i + 5) % 6];
        run_combo(&c);
        c.mod[1] = "(-)";
        run_combo(&c);
    }
    for (int t = T_UW; t <= T_D; t++) {
        c = C0("add3", 3, t, t, t, t, m_add3);
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.st[1] = t ^ 1;
        c.st[2] = t >= T_UD ? t - 2 : t + 2;
        c.mod[2] = "(-)";
        run_combo(&c);
    }
    for (int t = T_UD; t <= T_D; t++) {
        c = C0("mulh", 2, t, t, t, 0, m_mulh);
        run_combo(&c);
        c = C0("madw", 3, t, t, t, t, m_madw);
        c.dmul = 2;
        run_combo(&c);
        c.st[2] = t ^ 1;
        run_combo(&c);
    }
    c = C0("addc", 2, T_UD, T_UD, T_UD, 0, m_addc);
    c.dt2 = T_UD;
    c.body = "    addc (M1, 16) D(0,0)<1> D2(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
    run_combo(&c);
    c.op = "subb";
    c.param = 1;
    c.body = "    subb (M1, 16) D(0,0)<1> D2(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
    run_combo(&c);

    /* ---- float arithmetic: add mul mad min max div, hf/f/df (+ bf with f), .sat, modifiers */
    for (int i = 0; i < 3; i++) {
        int t = FLTS[i];
        const char *ops[] = {"add", "mul", "min", "max", "div"};
        model_fn fns[] = {m_add, m_mul, m_min, m_max, m_div};
        for (int o = 0; o < 5; o++) {
            c = C0(ops[o], 2, t, t, t, 0, fns[o]);
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
            c.sat = 0;
            c.mod[0] = "(-)";
            c.mod[1] = "(abs)";
            run_combo(&c);
            c.mod[0] = "(-abs)";
            c.mod[1] = NULL;
            run_combo(&c);
        }
        c = C0("mad", 3, t, t, t, t, m_mad);
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.mod[2] = "(-)";
        run_combo(&c);
    }
    /* mixed hf/f sources (TM_HF_F mixable), f/bf (from XeHP) */
    {
        const char *ops[] = {"mul", "mad", "min", "max"};
        model_fn fns[] = {m_mul, m_mad, m_min, m_max};
        for (int o = 0; o < 4; o++) {
            int ns = o == 1 ? 3 : 2;
            c = C0(ops[o], ns, T_F, T_HF, T_F, T_HF, fns[o]);
            run_combo(&c);
            c = C0(ops[o], ns, T_HF, T_HF, T_F, T_HF, fns[o]);
            run_combo(&c);
            if (o < 2) {
                c = C0(ops[o], ns, T_F, T_BF, T_F, T_BF, fns[o]);
                run_combo(&c);
                c = C0(ops[o], ns, T_BF, T_BF, T_BF, T_BF, fns[o]);
                run_combo(&c);
                c = C0(ops[o], ns, T_BF, T_F, T_BF, T_F, fns[o]);
                run_combo(&c);
            }
        }
        c = C0("add", 2, T_BF, T_BF, T_BF, 0, m_add);
        run_combo(&c);
        c = C0("add", 2, T_F, T_BF, T_F, 0, m_add);
        run_combo(&c);
    }
    /* hf and bf mad on the lanes where a float fma rounded again to hf / bf goes wrong (mad_hard):
    ** plain, saturated, and with src0 and src2 negated (which negates a*b + c, ties and all) */
    for (int i = 0; i < 2; i++) {
        int t = i ? T_BF : T_HF;
        c = C0("mad", 3, t, t, t, t, m_mad);
        c.hard_mad = 1;
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.mod[0] = "(-)";
        c.mod[2] = "(-)";
        run_combo(&c);
    }

    /* ---- logic and shifts */
    {
        static const char *const lmods[] = {"(~)", "(~)", "(~)"};
        int_binary("and", m_logic, 0, INTS, 8, 0, lmods);
        int_binary("or", m_logic, 1, INTS, 8, 0, lmods);
        int_binary("xor", m_logic, 2, INTS, 8, 0, lmods);
        for (int i = 0; i < 8; i++) {
            c = C0("not", 1, INTS[i], INTS[i], 0, 0, m_logic);
            c.param = 3;
            run_combo(&c);
            c.st[0] = INTS[(i + 3) % 8];
            run_combo(&c);
        }
        for (int i = 0; i < 8; i++) {
            int t = INTS[i];
            c = C0("shl", 2, t, t, INTS[(i + 5) % 8], 0, m_shift);
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
            c.sat = 0;
            c.st[0] = INTS[(i + 2) % 8];
            run_combo(&c);
            if (!is_signed(t)) {
                c = C0("shr", 2, t, t, t, 0, m_shift);
                c.param = 1;
                run_combo(&c);
                c.st[1] = INTS[(i + 3) % 8];
                c.st[0] = t == T_UB ? T_UB : t - 2;
                run_combo(&c);
                c.st[0] = t;
                c.sat = 1;
                run_combo(&c);
            } else {
                c = C0("asr", 2, t, t, t, 0, m_shift);
                c.param = 2;
                run_combo(&c);
                c.st[1] = INTS[(i + 3) % 8];
                c.st[0] = t == T_B ? T_B : t - 2;
                run_combo(&c);
            }
        }
        for (int rot = 0; rot < 2; rot++) {
            const int ts[] = {T_UW, T_W, T_UD, T_D, T_UQ, T_Q};
            for (int i = 0; i < 6; i++) {
                c = C0(rot ? "ror" : "rol", 2, ts[i], ts[i], ts[i], 0, m_rot);
                c.param = rot;
                run_combo(&c);
                if (i < 4) {
                    c.st[1] = ts[(i + 1) % 4];
                    run_combo(&c);
                }
            }
        }
    }

    /* ---- bit operations */
    for (int t = T_UB; t <= T_UD; t += 2) {
        c = C0("cbit", 1, T_UD, t, 0, 0, m_cbit);
        run_combo(&c);
    }
    for (int t = T_UD; t <= T_D; t++) {
        c = C0("fbl", 1, T_UD, t, 0, 0, m_fbl);
        run_combo(&c);
        c = C0("fbh", 1, T_UD, t, 0, 0, m_fbh);
        run_combo(&c);
        c = C0("bfe", 3, t, t, t, t, m_bfe);
        run_combo(&c);
        c = C0("bfi", 4, t, t, t, t, m_bfi);
        c.st[3] = t;
        run_combo(&c);
    }
    c = C0("lzd", 1, T_UD, T_UD, 0, 0, m_lzd);
    run_combo(&c);
    c = C0("bfrev", 1, T_UD, T_UD, 0, 0, m_bfrev);
    run_combo(&c);
    {
        const int fns[] = {0x00, 0xff, 0x80, 0xfe, 0x96, 0xca, 0xe8, 0x01, 0x5a, 0x3c};
        const int ts[] = {T_UW, T_W, T_UD, T_D};
        char bodies[10][160];
        char ops[10][16];
        for (int f = 0; f < 10; f++) {
            int t = ts[f % 4];
            snprintf(ops[f], sizeof ops[f], "bfn.x%x", fns[f]);
            c = C0(ops[f], 3, t, t, ts[(f + 1) % 4], t, m_bfn);
            c.param = fns[f];
            snprintf(bodies[f], sizeof bodies[f],
                     "    bfn.x%x (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0> S2(0,0)<1;1,0>", fns[f]);
            c.body = bodies[f];
            run_combo(&c);
        }
    }

    /* ---- dp4a, sad2, sad2add */
    for (int a = T_UD; a <= T_D; a++)
        for (int b = T_UD; b <= T_D; b++) {
            c = C0("dp4a", 3, a, a, b, b ^ (a == T_D), m_dp4a);
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
        }
    for (int dt = T_UW; dt <= T_W; dt++)
        for (int st = T_UB; st <= T_B; st++) {
            c = C0("sad2", 2, dt, st, st, 0, m_sad2);
            c.lanes_stride = 2;
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
            c = C0("sad2add", 3, dt, st, st, dt, m_sad2);
            c.lanes_stride = 2;
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
        }

    /* ---- compare and select */
    {
        static const char *const rels[] = {"eq", "ne", "gt", "ge", "lt", "le"};
        static char ops[6][12], bodies[6][256];
        const int ts[] = {T_UB, T_B, T_UW, T_W, T_UD, T_D, T_UQ, T_Q, T_HF, T_F, T_DF, T_BF};
        for (int r = 0; r < 6; r++) {
            snprintf(ops[r], sizeof ops[r], "cmp.%s", rels[r]);
            snprintf(bodies[r], sizeof bodies[r],
                     "    cmp.%s (M1, 16) PR S0(0,0)<1;1,0> S1(0,0)<1;1,0>\n"
                     "    mov (M1, 16) D(0,0)<1> 0x0:ud\n"
                     "    (PR) mov (M1, 16) D(0,0)<1> 0x1:ud",
                     rels[r]);
            for (int i = 0; i < 12; i++) {
                int t = ts[i];
                c = C0(ops[r], 2, T_UD, t, t, 0, m_cmp_pred);
                c.param = r;
                c.body = bodies[r];
                run_combo(&c);
                /* general dst: all ones / zero; float sources need the same dst type */
                c = C0(ops[r], 2, t, t, t, 0, m_cmp_gen);
                c.param = r;
                run_combo(&c);
                if (!is_flt(t)) {
                    c.st[1] = INTS[(i + 3) % 8];
                    c.dt = T_UD;
                    run_combo(&c);
                } else if (t != T_BF) {
                    c.mod[0] = "(-)";
                    c.mod[1] = "(abs)";
                    run_combo(&c);
                }
            }
            c = C0(ops[r], 2, T_F, T_HF, T_F, 0, m_cmp_gen);
            c.param = r;
            c.dt = T_UD;
            c.body = NULL;
            c.dt = T_F;
            run_combo(&c);
        }
        static const char *const selbody = "    and (M1, 16) D(0,0)<1> S2(0,0)<1;1,0> 0x1:ud\n"
                                           "    cmp.ne (M1, 16) PR D(0,0)<1;1,0> 0x0:ud\n"
                                           "    (PR) sel (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
        static const char *const selsatbody = "    and (M1, 16) D(0,0)<1> S2(0,0)<1;1,0> 0x1:ud\n"
                                              "    cmp.ne (M1, 16) PR D(0,0)<1;1,0> 0x0:ud\n"
                                              "    (PR) sel.sat (M1, 16) D(0,0)<1> (-)S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
        for (int i = 0; i < 12; i++) {
            int t = ts[i];
            if (tsize[t] < 4) continue; /* D doubles as the predicate source below: 32-bit and wider */
            c = C0("sel", 3, t, t, t, T_UD, m_sel);
            c.body = selbody;
            run_combo(&c);
            if (t != T_BF) {
                c.body = selsatbody;
                c.sat = 1;
                c.mod[0] = "(-)";
                run_combo(&c);
            }
        }
    }

    /* ---- mov between every pair of numeric types (TM_NUM_CVT: bf only with f), .sat, modifiers */
    {
        const int ts[] = {T_UB, T_B, T_UW, T_W, T_UD, T_D, T_UQ, T_Q, T_HF, T_F, T_DF};
        for (int i = 0; i < 11; i++)
            for (int j = 0; j < 11; j++) {
                c = C0("mov", 1, ts[i], ts[j], 0, 0, m_mov);
                run_combo(&c);
                c.sat = 1;
                run_combo(&c);
                c.sat = 0;
                if (i == j) {
                    c.mod[0] = is_flt(ts[j]) ? "(-abs)" : "(-)";
                    run_combo(&c);
                }
            }
        int bfp[][2] = {{T_BF, T_F}, {T_F, T_BF}, {T_BF, T_BF}};
        for (int i = 0; i < 3; i++) {
            c = C0("mov", 1, bfp[i][0], bfp[i][1], 0, 0, m_mov);
            run_combo(&c);
            c.sat = 1;
            run_combo(&c);
        }
    }

    /* ---- rounding (f only) */
    {
        const char *ops[] = {"rndd", "rndu", "rnde", "rndz", "frc"};
        for (int o = 0; o < 5; o++) {
            c = C0(ops[o], 1, T_F, T_F, 0, 0, m_rnd);
            c.param = o;
            run_combo(&c);
            if (o < 4) {
                c.sat = 1;
                run_combo(&c);
                c.sat = 0;
            }
            c.mod[0] = "(-)";
            run_combo(&c);
        }
    }

    /* ---- math */
    {
        const char *ops[] = {"inv", "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tanh", "sigm"};
        for (int o = 0; o < 9; o++) {
            for (int t = T_HF; t <= T_F; t += 2) {
                c = C0(ops[o], 1, t, t, 0, 0, m_math);
                c.param = o;
                run_combo(&c);
                c.sat = 1;
                run_combo(&c);
                c.sat = 0;
                c.mod[0] = "(abs)";
                run_combo(&c);
            }
            c = C0(ops[o], 1, T_F, T_HF, 0, 0, m_math);
            c.param = o;
            run_combo(&c);
        }
        c = C0("inv", 1, T_DF, T_DF, 0, 0, m_math);
        c.param = 0;
        run_combo(&c);
        for (int t = T_HF; t <= T_F; t += 2) {
            c = C0("pow", 2, t, t, t, 0, m_math);
            c.param = 9;
            run_combo(&c);
        }
    }

    /* ---- IEEE macros: divm, sqrtm (exact), invm, rsqtm (early-out flag and special results) */
    for (int t = T_F; t <= T_DF; t++) {
        c = C0("divm", 2, t, t, t, 0, m_ieee);
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.mod[0] = "(-)";
        c.mod[1] = "(abs)";
        run_combo(&c);
        c.mod[0] = c.mod[1] = NULL;
        c.cr0 = CR0_SET | 0x4D0;
        run_combo(&c);
        c.cr0 = CR0_SET | 0x4F0;
        run_combo(&c);
        c = C0("sqrtm", 1, t, t, 0, 0, m_ieee);
        c.param = 1;
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.mod[0] = "(abs)";
        run_combo(&c);
        c.mod[0] = NULL;
        c.cr0 = CR0_SET | 0x4E0;
        run_combo(&c);
        c = C0("invm", 2, t, t, t, 0, m_invm);
        c.dt2 = T_UD;
        c.body = "    invm (M1, 16) D(0,0)<1> PR S0(0,0)<1;1,0> S1(0,0)<1;1,0>\n"
                 "    mov (M1, 16) D2(0,0)<1> 0x0:ud\n    (PR) mov (M1, 16) D2(0,0)<1> 0x1:ud";
        run_combo(&c);
        c.body = "    invm (M1, 16) D(0,0)<1> PR (-)S0(0,0)<1;1,0> (abs)S1(0,0)<1;1,0>\n"
                 "    mov (M1, 16) D2(0,0)<1> 0x0:ud\n    (PR) mov (M1, 16) D2(0,0)<1> 0x1:ud";
        c.mod[0] = "(-)";
        c.mod[1] = "(abs)";
        run_combo(&c);
        c = C0("rsqtm", 1, t, t, 0, 0, m_invm);
        c.dt2 = T_UD;
        c.param = 1;
        c.body = "    rsqtm (M1, 16) D(0,0)<1> PR S0(0,0)<1;1,0>\n"
                 "    mov (M1, 16) D2(0,0)<1> 0x0:ud\n    (PR) mov (M1, 16) D2(0,0)<1> 0x1:ud";
        run_combo(&c);
    }

    /* ---- lrp, line, dp2/dp3/dp4/dph, plane (f only) */
    {
        c = C0("lrp", 3, T_F, T_F, T_F, T_F, m_lrp);
        run_combo(&c);
        c.sat = 1;
        run_combo(&c);
        c.sat = 0;
        c.mod[0] = "(abs)";
        c.mod[2] = "(-)";
        run_combo(&c);
        static const char *const dpn[] = {"dp2", "dp3", "dp4", "dph"};
        static char dpb[4][2][160];
        for (int o = 0; o < 4; o++)
            for (int sat = 0; sat < 2; sat++) {
                c = C0(dpn[o], 2, T_F, T_F, T_F, 0, NULL);
                c.vmodel = vm_dp;
                c.param = o < 3 ? o + 2 : 5;
                c.sat = sat;
                if (sat) {
                    c.mod[0] = "(-)";
                    c.mod[1] = "(abs)";
                }
                snprintf(dpb[o][sat], sizeof dpb[o][sat],
                         "    %s%s (M1, 16) D(0,0)<1> %sS0(0,0)<1;1,0> %sS1(0,0)<1;1,0>", dpn[o], sat ? ".sat" : "",
                         sat ? "(-)" : "", sat ? "(abs)" : "");
                c.body = dpb[o][sat];
                run_combo(&c);
            }
        c = C0("line", 2, T_F, T_F, T_F, 0, NULL);
        c.vmodel = vm_line;
        c.body = "    line (M1, 16) D(0,0)<1> S0(0,0)<0;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        c.sat = 1;
        c.body = "    line.sat (M1, 16) D(0,0)<1> S0(0,0)<0;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        c = C0("plane", 2, T_F, T_F, T_F, 0, NULL);
        c.vmodel = vm_plane;
        c.smul1 = 2;
        c.body = "    plane (M1, 16) D(0,0)<1> S0(0,0)<0;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        c.sat = 1;
        c.body = "    plane.sat (M1, 16) D(0,0)<1> S0(0,0)<0;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
    }

    /* ---- setp (vector LSBs, scalar bits, immediate), add3.o (sum + overflow predicate) */
    {
        static const char *const pb = "    mov (M1, 16) D(0,0)<1> 0x0:ud\n    (PR) mov (M1, 16) D(0,0)<1> 0x1:ud";
        static char b[6][300];
        const int ts[] = {T_UB, T_UW, T_UD};
        for (int i = 0; i < 3; i++) {
            c = C0("setp", 1, T_UD, ts[i], 0, 0, NULL);
            c.vmodel = vm_setp;
            snprintf(b[i], sizeof b[i], "    setp (M1_NM, 16) PR S0(0,0)<1;1,0>\n%s", pb);
            c.body = b[i];
            run_combo(&c);
            if (ts[i] != T_UB) {
                c.param = 1;
                snprintf(b[3 + i], sizeof b[3 + i], "    setp (M1_NM, 16) PR S0(0,0)<0;1,0>\n%s", pb);
                c.body = b[3 + i];
                run_combo(&c);
            }
        }
        static char ib[4][300];
        for (int i = 0; i < 4; i++) {
            c = C0("setp", 1, T_UD, T_UW, 0, 0, NULL);
            c.vmodel = vm_setp;
            c.param = 2;
            c.imm = (uint32_t)rnd() & 0xffff;
            snprintf(ib[i], sizeof ib[i], "    setp (M1_NM, 16) PR 0x%x:uw\n%s", (unsigned)c.imm, pb);
            c.body = ib[i];
            run_combo(&c);
        }
        static char ab[8][400];
        const int at[] = {T_UW, T_W, T_UD, T_D};
        for (int i = 0; i < 4; i++)
            for (int v = 0; v < 2; v++) {
                int t = at[i];
                c = C0("add3.o", 3, t, t, v ? at[(i + 1) % 4] : t, v ? at[(i + 3) % 4] : t, m_add3o);
                c.dt2 = T_UD;
                if (v) c.mod[1] = "(-)";
                snprintf(ab[2 * i + v], sizeof ab[2 * i + v],
                         "    (PR) add3.o (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> %sS1(0,0)<1;1,0> S2(0,0)<1;1,0>\n"
                         "    mov (M1, 16) D2(0,0)<1> 0x0:ud\n    (PR) mov (M1, 16) D2(0,0)<1> 0x1:ud",
                         v ? "(-)" : "");
                c.body = ab[2 * i + v];
                run_combo(&c);
            }
    }

    /* ---- fcvt (hf <-> bf8, f <-> tf32), srnd (f -> hf, hf -> bf8) */
    {
        c = C0("fcvt", 1, T_UB, T_HF, 0, 0, m_fcvt);
        c.param = 0;
        c.body = "    fcvt (M1_NM, 16) D(0,0)<1> S0(0,0)<1;1,0>";
        run_combo(&c);
        c = C0("fcvt", 1, T_HF, T_UB, 0, 0, m_fcvt);
        c.param = 1;
        run_combo(&c);
        c = C0("fcvt", 1, T_UD, T_F, 0, 0, m_fcvt);
        c.param = 2;
        run_combo(&c);
        c = C0("fcvt", 1, T_F, T_UD, 0, 0, m_fcvt);
        c.param = 3;
        run_combo(&c);
        c = C0("srnd", 2, T_HF, T_F, T_UW, 0, m_srnd);
        c.param = 0;
        c.body = "    srnd (M1_NM, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        c = C0("srnd", 2, T_UB, T_HF, T_UB, 0, m_srnd);
        c.param = 1;
        c.body = "    srnd (M1_NM, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        /* the pages fix the denormal handling of these conversions ("retained" for bf8 and srnd,
        ** "flushed" for tf32): a flush-all / keep-all %cr0 must not change them */
        c.cr0 = CR0_SET | 0x000;
        run_combo(&c);
        c = C0("srnd", 2, T_HF, T_F, T_UW, 0, m_srnd);
        c.param = 0;
        c.cr0 = CR0_SET | 0x000;
        c.body = "    srnd (M1_NM, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>";
        run_combo(&c);
        c = C0("fcvt", 1, T_UB, T_HF, 0, 0, m_fcvt);
        c.param = 0;
        c.cr0 = CR0_SET | 0x000;
        c.body = "    fcvt (M1_NM, 16) D(0,0)<1> S0(0,0)<1;1,0>";
        run_combo(&c);
        c = C0("fcvt", 1, T_HF, T_UB, 0, 0, m_fcvt);
        c.param = 1;
        c.cr0 = CR0_SET | 0x000;
        run_combo(&c);
        c = C0("fcvt", 1, T_UD, T_F, 0, 0, m_fcvt);
        c.param = 2;
        c.cr0 = CR0_SET | 0x4C0;
        run_combo(&c);
    }

    /* ---- operand forms: V / UV / VF immediates, source regions, destination strides,
    ** predicate logic and predicated execution */
    {
        static char b[64][400];
        int nb = 0;
        const int vt[] = {T_D, T_W, T_B, T_UD, T_UW, T_UB, T_F};
        for (int i = 0; i < 7; i++)
            for (int p = 0; p < 4; p++) {
                int t = vt[i], uv = p & 1;
                if (t == T_F && p < 2) continue; /* V/UV into float arithmetic: integer/float mix */
                if (p < 2 && (uv != !is_signed(t))) continue; /* V goes with signed, UV with unsigned */
                c = C0(p < 2 ? "add" : "mov", p < 2 ? 1 : 0, t, t, 0, 0, NULL);
                c.vmodel = vm_imm;
                c.param = p;
                c.imm = (uint32_t)rnd();
                if (c.nsrc == 0) {
                    c.nsrc = 1;
                    c.st[0] = T_UD;
                } /* an unused loaded source keeps the runner simple */
                snprintf(
                    b[nb], sizeof b[nb],
                    p < 2
                        ? "    add (M1, 8) D(0,0)<1> S0(0,0)<1;1,0> 0x%x:%s\n    add (M1, 8) D(0,8)<1> S0(0,8)<1;1,0> 0x%x:%s"
                        : "    mov (M1, 8) D(0,0)<1> 0x%x:%s\n    mov (M1, 8) D(0,8)<1> 0x%x:%s",
                    (unsigned)c.imm, uv ? "uv" : "v", (unsigned)c.imm, uv ? "uv" : "v");
                c.body = b[nb++];
                run_combo(&c);
            }
        for (int p = 4; p < 6; p++) {
            c = C0(p == 4 ? "add" : "mov", 1, T_F, p == 4 ? T_F : T_UD, 0, 0, NULL);
            c.vmodel = vm_imm;
            c.param = p;
            c.imm = (uint32_t)rnd();
            int n = 0;
            for (int k = 0; k < 16; k += 4)
                n += snprintf(b[nb] + n, sizeof b[nb] - (size_t)n,
                              p == 4 ? "    add (M1, 4) D(0,%d)<1> S0(0,%d)<1;1,0> 0x%x:vf\n"
                                     : "    mov (M1, 4) D(0,%d)<1> 0x%x:vf\n",
                              k, p == 4 ? k : (int)c.imm, c.imm);
            c.body = b[nb++];
            run_combo(&c);
        }
        const int rt[] = {T_D, T_UW, T_F, T_HF};
        static char rb[4][8][200];
        for (int i = 0; i < 4; i++)
            for (int r = 0; r < 8; r++) {
                c = C0("add", 2, rt[i], rt[i], rt[i], 0, NULL);
                c.vmodel = vm_region;
                c.param = r;
                c.smul1 = 2;
                snprintf(rb[i][r], sizeof rb[i][r], "    add (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,%d)<%d;%d,%d>",
                         REGIONS[r].off, REGIONS[r].vs, REGIONS[r].w, REGIONS[r].hs);
                c.body = rb[i][r];
                run_combo(&c);
            }
        /* indirect sources (region from the address register's byte address) and destination */
        static char xb[3][3][300], xd[3][300];
        for (int i = 0; i < 3; i++) {
            int t = rt[i == 0 ? 0 : i + 1]; /* d, f, hf */
            for (int r = 8; r < 11; r++) {
                c = C0("add", 2, t, t, t, 0, NULL);
                c.vmodel = vm_region;
                c.param = r;
                c.smul1 = 2;
                if (r == 9 && t != T_D) c.mod[1] = "(-)";
                snprintf(
                    xb[i][r - 8], sizeof xb[i][r - 8],
                    "    addr_add (M1_NM, 1) AX(0)<1> &S1[%d] 0x0:uw\n    add (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> %sr[AX(0),0]<%d;%d,%d>:%s",
                    REGIONS[r].off * tsize[t], c.mod[1] ? c.mod[1] : "", REGIONS[r].vs, REGIONS[r].w, REGIONS[r].hs,
                    tname[t]);
                c.body = xb[i][r - 8];
                run_combo(&c);
            }
            c = C0("add", 2, t, t, t, 0, m_add);
            snprintf(
                xd[i], sizeof xd[i],
                "    addr_add (M1_NM, 1) AX(1)<1> &D[0] 0x0:uw\n    add (M1, 16) r[AX(1),0]<1>:%s S0(0,0)<1;1,0> S1(0,0)<1;1,0>",
                tname[t]);
            c.body = xd[i];
            run_combo(&c);
        }
        const int dt[] = {T_D, T_W, T_F, T_UB};
        static char db[4][2][300];
        for (int i = 0; i < 4; i++)
            for (int st = 2; st <= 4; st += 2) {
                c = C0("add", 2, dt[i], dt[i], dt[i], 0, NULL);
                c.vmodel = vm_dstride;
                c.param = st;
                c.imm = dt[i] == T_F ? 0x3f800000u : 0x57;
                snprintf(
                    db[i][st / 4], sizeof db[i][st / 4],
                    "    mov (M1, 16) D(0,0)<1> 0x%x:%s\n    add (M1, %d) D(0,0)<%d> S0(0,0)<1;1,0> S1(0,0)<1;1,0>",
                    (unsigned)c.imm, tname[dt[i]], 16 / st, st);
                c.body = db[i][st / 4];
                run_combo(&c);
            }
        static const char *const pops[] = {"and", "or", "xor", "not"};
        static char pb[6][400];
        for (int p = 0; p < 6; p++) {
            if (p < 4) {
                c = C0(pops[p], 2, T_UD, T_UD, T_UD, 0, NULL);
                snprintf(
                    pb[p], sizeof pb[p],
                    "    setp (M1_NM, 16) P1 S0(0,0)<1;1,0>\n    setp (M1_NM, 16) P2 S1(0,0)<1;1,0>\n    %s (M1, 16) P3 P1%s\n"
                    "    mov (M1, 16) D(0,0)<1> 0x0:ud\n    (P3) mov (M1, 16) D(0,0)<1> 0x1:ud",
                    pops[p], p == 3 ? "" : " P2");
            } else {
                c = C0(p == 4 ? "(P1) add" : "(!P1) add", 3, T_D, T_D, T_W, T_UD, NULL);
                c.imm = 0x57;
                snprintf(pb[p], sizeof pb[p],
                         "    setp (M1_NM, 16) P1 S2(0,0)<1;1,0>\n    mov (M1, 16) D(0,0)<1> 0x57:d\n"
                         "    (%sP1) add (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>",
                         p == 5 ? "!" : "");
            }
            c.vmodel = vm_pred;
            c.param = p;
            c.body = pb[p];
            run_combo(&c);
        }
    }

    /* ---- %cr0 modes (initial value through visa_run_opts.cr0): directed rounding, denormal
    ** flushing per type, ALT */
    {
        static const uint32_t modes[] = {0x4D0, 0x4E0, 0x4F0, 0x000, 0x0B0, 0x440, 0x4C1};
        for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
            uint32_t m = modes[mi];
            int alt = m & 1;
            for (int i = 0; i < 3; i++) {
                int t = FLTS[i];
                if (alt && t != T_F) continue; /* ALT is single precision only */
                const char *ops[] = {"add", "mul", "min", "max"};
                model_fn fns[] = {m_add, m_mul, m_min, m_max};
                for (int o = 0; o < 4; o++) {
                    c = C0(ops[o], 2, t, t, t, 0, fns[o]);
                    c.cr0 = m | CR0_SET;
                    run_combo(&c);
                    if (o == 0) {
                        c.mod[1] = "(-)";
                        c.sat = 1;
                        run_combo(&c);
                    }
                }
                c = C0("mad", 3, t, t, t, t, m_mad);
                c.cr0 = m | CR0_SET;
                run_combo(&c);
                c = C0("cmp.lt", 2, t, t, t, 0, m_cmp_gen);
                c.param = 4;
                c.cr0 = m | CR0_SET;
                run_combo(&c);
                c = C0("cmp.eq", 2, t, t, t, 0, m_cmp_gen);
                c.param = 0;
                c.cr0 = m | CR0_SET;
                run_combo(&c);
            }
            if (!alt) {
                /* the kernel writes %cr0 itself (4_visa_header V14: R/W, "for subsequent instructions") */
                static char mb[8][2][300];
                snprintf(
                    mb[mi][0], sizeof mb[mi][0],
                    "    mov (M1_NM, 1) %%cr0(0,0)<1> 0x%x:ud\n    add (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0>",
                    (unsigned)m);
                snprintf(
                    mb[mi][1], sizeof mb[mi][1],
                    "    mov (M1_NM, 1) %%cr0(0,0)<1> 0x%x:ud\n    mad (M1, 16) D(0,0)<1> S0(0,0)<1;1,0> S1(0,0)<1;1,0> S2(0,0)<1;1,0>",
                    (unsigned)m);
                c = C0("add", 2, T_F, T_F, T_F, 0, m_add);
                c.cr0 = m | CR0_SET;
                c.cr0_mov = 1;
                c.body = mb[mi][0];
                run_combo(&c);
                c = C0("mad", 3, T_HF, T_HF, T_HF, T_HF, m_mad);
                c.cr0 = m | CR0_SET;
                c.cr0_mov = 1;
                c.body = mb[mi][1];
                run_combo(&c);
            }
            if (!alt) {
                /* conversions: narrowing floats use the mode, integer -> float too, float -> int truncates */
                const int cv[][2] = {{T_F, T_DF}, {T_HF, T_F},  {T_HF, T_DF}, {T_F, T_D},  {T_F, T_UD},
                                     {T_F, T_Q},  {T_DF, T_UQ}, {T_HF, T_W},  {T_HF, T_D}, {T_DF, T_F},
                                     {T_F, T_HF}, {T_D, T_F},   {T_UQ, T_DF}};
                for (int i = 0; i < (int)(sizeof cv / sizeof *cv); i++) {
                    c = C0("mov", 1, cv[i][0], cv[i][1], 0, 0, m_mov);
                    c.cr0 = m | CR0_SET;
                    run_combo(&c);
                }
                c = C0("mul", 2, T_F, T_HF, T_F, 0, m_mul);
                c.cr0 = m | CR0_SET;
                run_combo(&c);
                c = C0("mad", 3, T_HF, T_HF, T_F, T_HF, m_mad);
                c.cr0 = m | CR0_SET;
                run_combo(&c);
            } else {
                const char *ops[] = {"sqrt", "rsqrt", "log", "inv", "exp"};
                const int par[] = {1, 2, 4, 0, 3};
                for (int o = 0; o < 5; o++) {
                    c = C0(ops[o], 1, T_F, T_F, 0, 0, m_math);
                    c.param = par[o];
                    c.cr0 = m | CR0_SET;
                    run_combo(&c);
                }
            }
        }
    }

    visa_ctx_destroy(RUN.ctx);
    fprintf(stderr, "model_alu: %ld instruction x type combinations, %ld lane checks\n", n_combos, n_lanes);
    printf("model_alu: %ld instruction x type combinations, %ld lane checks\n", n_combos, n_lanes);
    return th_finish();
}
