/* test_convert.c -- the emulator's conversion library (src/emu/convert.c) against independent
** references:
**   - hand-computed bit patterns for the boundary cases (max finite, overflow, smallest
**     denormal, ties to even both ways, NaN payloads, -0.0, every integer type's saturation
**     edges, float -> int clamping and NaN -> 0), checked beforehand with Python's struct 'e';
**   - exhaustive half -> float -> half and bf16 -> float -> bf16 round trips;
**   - a slow table reference for rounding into HF, BF, HF8 and BF8: every finite value of the
**     format computed as a double from the definition, binary search for the neighbours of the
**     input, explicit distance comparison (a different algorithm from the library's shift and
**     round), over millions of deterministic pseudo-random inputs in all four rounding modes;
**   - the host FPU (default round-to-nearest) plus nextafter for F and DF destinations.
** Prints "N passed, N failed"; exits nonzero on failure. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "../harness.h"
#include "emu/convert.h"

/* -- Helpers ------------------------------------------------------------------------------------ */
static uint32_t fb(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static float bf_(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static uint64_t db(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static double bd(uint64_t b) {
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd64(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Convert through the generic API: src bits of type st -> bits of type dt. */
static uint64_t cvt(isa_type dt, isa_type st, uint64_t src_bits, uint32_t flags) {
    unsigned char in[8] = {0}, out[8] = {0};
    emu_store_bits(st, in, src_bits);
    if (emu_convert(dt, out, st, in, flags) != 0) return 0xDEADDEADDEADDEADu;
    return emu_load_bits(dt, out);
}

static const uint32_t MODES[4] = {EMU_RNE, EMU_RU, EMU_RD, EMU_RTZ};
static const char *MODE_NAME[4] = {"rne", "ru", "rd", "rtz"};

/* -- Slow table reference ------------------------------------------------------------------------
** A format's non-negative finite values in code order (code == index, increasing), the "virtual"
** value just above the largest finite one and whether its code would be even.  */
typedef struct reftab {
    double *val;
    uint32_t maxcode; /* largest finite positive code */
    double virt; /* next value above max in an unbounded-exponent format */
    int virt_even;
    uint32_t signbit;
    uint32_t overflow; /* code for "rounded beyond max": inf (IEEE) or NaN (HF8) */
    uint32_t minnorm; /* smallest normal code */
} reftab;

static double hf_val(uint32_t i) {
    uint32_t e = i >> 10, m = i & 0x3FF;
    return e ? ldexp(1024.0 + m, (int)e - 25) : ldexp(m, -24);
}
static double bf_val(uint32_t i) {
    uint32_t e = i >> 7, m = i & 0x7F;
    return e ? ldexp(128.0 + m, (int)e - 134) : ldexp(m, -133);
}
static double hf8_val(uint32_t i) {
    uint32_t e = i >> 3, m = i & 7;
    return e ? ldexp(8.0 + m, (int)e - 10) : ldexp(m, -9);
}
static double bf8_val(uint32_t i) {
    uint32_t e = i >> 2, m = i & 3;
    return e ? ldexp(4.0 + m, (int)e - 17) : ldexp(m, -16);
}

static void reftab_init(reftab *t, double (*val)(uint32_t), uint32_t maxcode, double virt, int virt_even,
                        uint32_t signbit, uint32_t overflow, uint32_t minnorm) {
    t->val = malloc(sizeof(double) * (maxcode + 1));
    for (uint32_t i = 0; i <= maxcode; i++) t->val[i] = val(i);
    t->maxcode = maxcode;
    t->virt = virt;
    t->virt_even = virt_even;
    t->signbit = signbit;
    t->overflow = overflow;
    t->minnorm = minnorm;
}

/* Round |x| (x >= 0, finite, exact in double) into the table; dir 0 = nearest-even, 1 = away
** from zero, 2 = toward zero.  Returns the code, or -1 when the result lies beyond max. */
static int64_t ref_pick(const reftab *t, double x, int dir) {
    if (x >= t->virt) return dir == 2 ? (int64_t)t->maxcode : -1;
    uint32_t lo = 0, hi = t->maxcode; /* largest i with val[i] <= x */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (t->val[mid] <= x) lo = mid;
        else hi = mid - 1;
    }
    if (t->val[lo] == x) return lo;
    double vlo = t->val[lo], vhi;
    int hi_even, hi_virtual = lo == t->maxcode;
    if (hi_virtual) {
        vhi = t->virt;
        hi_even = t->virt_even;
    } else {
        vhi = t->val[lo + 1];
        hi_even = ((lo + 1) & 1) == 0;
    }
    int pick_hi;
    if (dir == 1) pick_hi = 1;
    else if (dir == 2) pick_hi = 0;
    else {
        double d1 = x - vlo, d2 = vhi - x; /* exact: Sterbenz / small-integer multiples */
        pick_hi = d2 < d1 || (d2 == d1 && hi_even);
    }
    if (!pick_hi) return lo;
    return hi_virtual ? -1 : (int64_t)lo + 1;
}

/* Expected result of rounding finite double x into the table's format. */
static uint32_t ref_round(const reftab *t, double x, unsigned mode, int ftz_out, int satfinite) {
    int neg = signbit(x) != 0;
    double a = fabs(x);
    int dir = mode == EMU_RNE ? 0 : mode == EMU_RTZ ? 2 : (mode == EMU_RU) != neg ? 1 : 2;
    int64_t c = ref_pick(t, a, dir);
    uint32_t code;
    if (c < 0) code = satfinite ? t->maxcode : t->overflow;
    else code = (uint32_t)c;
    if (ftz_out && c >= 0 && code < t->minnorm) code = 0; /* denormal result -> signed zero */
    return (neg ? t->signbit : 0) | code;
}

static reftab T_HF, T_BF, T_HF8, T_BF8;

/* -- Expected F -> HF / BF per the reference --------------------------------------------------- */
static uint16_t ref_f_to_hf(uint32_t f, unsigned mode, int ftz_out) {
    uint32_t sign = (f >> 16) & 0x8000u, a = f & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return (uint16_t)(sign | 0x7E00u | ((a & 0x7FFFFFu) >> 13));
    if (a == 0x7F800000u) return (uint16_t)(sign | 0x7C00u);
    return (uint16_t)ref_round(&T_HF, (double)bf_(f), mode, ftz_out, 0);
}

static uint16_t ref_f_to_bf(uint32_t f, unsigned mode, int ftz_out) {
    uint32_t sign = (f >> 16) & 0x8000u, a = f & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return (uint16_t)(sign | 0x7FC0u | ((a & 0x7FFFFFu) >> 16));
    if (a == 0x7F800000u) return (uint16_t)(sign | 0x7F80u);
    return (uint16_t)ref_round(&T_BF, (double)bf_(f), mode, ftz_out, 0);
}

/* Random F bit pattern, biased toward the HF/BF interesting ranges and exact ties. */
static uint32_t rand_f32(int bias_lo, int bias_hi, int tie_bits) {
    uint64_t r = rnd64();
    uint32_t f;
    switch (r & 3) {
    case 0: /* any pattern */ f = (uint32_t)(r >> 32); break;
    default: { /* exponent in [bias_lo, bias_hi] */
        uint32_t e = (uint32_t)(bias_lo + (int)((r >> 8) % (uint64_t)(bias_hi - bias_lo + 1)));
        f = (uint32_t)((r >> 40) & 1) << 31 | e << 23 | ((uint32_t)(r >> 16) & 0x7FFFFFu);
        if (((r >> 4) & 3) == 0) { /* exact tie or near-tie on the dropped bits */
            uint32_t drop = (1u << tie_bits) - 1, half = 1u << (tie_bits - 1);
            uint32_t v = half + (uint32_t)((r >> 6) % 3) - 1; /* half-1, half, half+1 */
            f = (f & ~drop) | (v & drop);
        }
        break;
    }
    }
    return f;
}

/* ============================================================================================ */
static void test_hf_boundaries(void) {
    CASE_BEGIN();
    /* F -> HF, RNE */
    CHECK(emu_f_to_hf(0x3F800000u, EMU_RNE) == 0x3C00); /* 1.0 */
    CHECK(emu_f_to_hf(0x477FE000u, EMU_RNE) == 0x7BFF); /* 65504 = max finite */
    CHECK(emu_f_to_hf(0x477FEFFFu, EMU_RNE) == 0x7BFF); /* just below the overflow tie */
    CHECK(emu_f_to_hf(0x477FF000u, EMU_RNE) == 0x7C00); /* 65520: tie -> inf */
    CHECK(emu_f_to_hf(0x7F7FFFFFu, EMU_RNE) == 0x7C00); /* FLT_MAX -> inf */
    CHECK(emu_f_to_hf(0x33800000u, EMU_RNE) == 0x0001); /* 2^-24 smallest denormal */
    CHECK(emu_f_to_hf(0x33000000u, EMU_RNE) == 0x0000); /* 2^-25: tie, even is 0 */
    CHECK(emu_f_to_hf(0x33000001u, EMU_RNE) == 0x0001); /* just above the tie */
    CHECK(emu_f_to_hf(0xB3000000u, EMU_RNE) == 0x8000); /* -2^-25 -> -0 */
    CHECK(emu_f_to_hf(0x33C00000u, EMU_RNE) == 0x0002); /* 1.5 * 2^-24: tie, up to even */
    CHECK(emu_f_to_hf(0x3F801000u, EMU_RNE) == 0x3C00); /* 1 + 2^-11: tie, down to even */
    CHECK(emu_f_to_hf(0x3F803000u, EMU_RNE) == 0x3C02); /* 1 + 3*2^-11: tie, up to even */
    CHECK(emu_f_to_hf(0x387FE000u, EMU_RNE) == 0x0400); /* max denormal + half ulp -> min normal */
    CHECK(emu_f_to_hf(0x387FC000u, EMU_RNE) == 0x03FF); /* max denormal exactly */
    CHECK(emu_f_to_hf(0x38800000u, EMU_RNE) == 0x0400); /* 2^-14 min normal */
    CHECK(emu_f_to_hf(0x80000000u, EMU_RNE) == 0x8000); /* -0.0 */
    CHECK(emu_f_to_hf(0x00000001u, EMU_RNE) == 0x0000); /* F denormal -> 0 */
    CHECK(emu_f_to_hf(0x7F800000u, EMU_RNE) == 0x7C00);
    CHECK(emu_f_to_hf(0xFF800000u, EMU_RNE) == 0xFC00);
    /* directed modes */
    CHECK(emu_f_to_hf(0x477FF000u, EMU_RTZ) == 0x7BFF); /* overflow, toward zero -> max */
    CHECK(emu_f_to_hf(0x477FE001u, EMU_RU) == 0x7C00); /* just above max, up -> inf */
    CHECK(emu_f_to_hf(0x477FE001u, EMU_RD) == 0x7BFF);
    CHECK(emu_f_to_hf(0xC77FE001u, EMU_RD) == 0xFC00); /* negative, down -> -inf */
    CHECK(emu_f_to_hf(0xC77FE001u, EMU_RU) == 0xFBFF);
    CHECK(emu_f_to_hf(0x00000001u, EMU_RU) == 0x0001); /* tiny positive, up -> 2^-24 */
    CHECK(emu_f_to_hf(0x80000001u, EMU_RU) == 0x8000); /* tiny negative, up -> -0 */
    CHECK(emu_f_to_hf(0x80000001u, EMU_RD) == 0x8001);
    CHECK(emu_f_to_hf(0x3F801FFFu, EMU_RTZ) == 0x3C00);
    CHECK(emu_f_to_hf(0x3F800001u, EMU_RU) == 0x3C01);
    CHECK(emu_f_to_hf(0xBF800001u, EMU_RD) == 0xBC01);
    CHECK(emu_f_to_hf(0xBF800001u, EMU_RU) == 0xBC00);
    /* NaN: quiet, sign and high payload kept */
    CHECK(emu_f_to_hf(0x7FC00001u, EMU_RNE) == 0x7E00); /* low payload bits lost */
    CHECK(emu_f_to_hf(0x7F800001u, EMU_RNE) == 0x7E00); /* sNaN -> qNaN */
    CHECK(emu_f_to_hf(0x7FA00000u, EMU_RNE) == 0x7F00); /* sNaN payload 0x100 -> 0x300 */
    CHECK(emu_f_to_hf(0xFFC12000u, EMU_RNE) == 0xFE09);
    CHECK(emu_f_to_hf(0x7FC00000u, EMU_RTZ) == 0x7E00);
    /* denormal flushing */
    CHECK(emu_f_to_hf(0x33800000u, EMU_CVT_FTZ_OUT) == 0x0000);
    CHECK(emu_f_to_hf(0xB3800000u, EMU_CVT_FTZ_OUT) == 0x8000);
    CHECK(emu_f_to_hf(0x387FE000u, EMU_CVT_FTZ_OUT) == 0x0400); /* rounds to normal: kept */
    CHECK(emu_f_to_hf(0x387FC000u, EMU_CVT_FTZ_OUT) == 0x0000);
    CHECK(emu_f_to_hf(0x38800000u, EMU_CVT_FTZ_OUT) == 0x0400);
    /* SATFINITE (ALT-style) */
    CHECK(emu_f_to_hf(0x7F800000u, EMU_CVT_SATFINITE) == 0x7BFF);
    CHECK(emu_f_to_hf(0xC77FF000u, EMU_CVT_SATFINITE) == 0xFBFF);

    /* HF -> F, exact */
    CHECK(emu_hf_to_f(0x0001, 0) == 0x33800000u);
    CHECK(emu_hf_to_f(0x03FF, 0) == 0x387FC000u);
    CHECK(emu_hf_to_f(0x0400, 0) == 0x38800000u);
    CHECK(emu_hf_to_f(0x7BFF, 0) == 0x477FE000u);
    CHECK(emu_hf_to_f(0x7C00, 0) == 0x7F800000u);
    CHECK(emu_hf_to_f(0x8000, 0) == 0x80000000u);
    CHECK(emu_hf_to_f(0x7C01, 0) == 0x7FC02000u); /* sNaN quieted, payload kept */
    CHECK(emu_hf_to_f(0xFE00, 0) == 0xFFC00000u);
    CHECK(emu_hf_to_f(0x7E55, 0) == 0x7FCAA000u);
    CHECK(emu_hf_to_f(0x0001, EMU_CVT_FTZ_IN) == 0x00000000u);
    CHECK(emu_hf_to_f(0x83FF, EMU_CVT_FTZ_IN) == 0x80000000u);
    CHECK(emu_hf_to_f(0x0400, EMU_CVT_FTZ_IN) == 0x38800000u);
    CHECK(emu_hf_to_df(0x0001, 0) == 0x3E70000000000000u); /* 2^-24 */
    CHECK(emu_hf_to_df(0xFC00, 0) == 0xFFF0000000000000u);
    CASE_END("hf boundaries");
}

static void test_df_boundaries(void) {
    CASE_BEGIN();
    /* DF -> HF rounds once: 1 + 2^-11 + 2^-40 is above the tie (through F it would be a tie) */
    CHECK(emu_df_to_hf(db(1.0 + 0x1p-11 + 0x1p-40), EMU_RNE) == 0x3C01);
    CHECK(emu_df_to_hf(db(1.0 + 0x1p-11), EMU_RNE) == 0x3C00);
    CHECK(emu_df_to_hf(db(65520.0), EMU_RNE) == 0x7C00);
    CHECK(emu_df_to_hf(db(1e300), EMU_RTZ) == 0x7BFF);
    CHECK(emu_df_to_hf(0x0000000000000001u, EMU_RU) == 0x0001); /* DF min denormal, up */
    CHECK(emu_df_to_hf(0x0000000000000001u, EMU_RU | EMU_CVT_FTZ_IN) == 0x0000);
    CHECK(emu_df_to_bf(db(1.0 + 0x1p-8 + 0x1p-40), EMU_RNE) == 0x3F81);
    CHECK(emu_df_to_bf(db(1.0 + 0x1p-8), EMU_RNE) == 0x3F80);
    /* DF -> F */
    CHECK(emu_df_to_f(0x3FF0000010000000u, EMU_RNE) == 0x3F800000u); /* 1 + 2^-24: tie down */
    CHECK(emu_df_to_f(0x3FF0000030000000u, EMU_RNE) == 0x3F800002u); /* 1 + 3*2^-24: tie up */
    CHECK(emu_df_to_f(0x3FF0000010000001u, EMU_RNE) == 0x3F800001u);
    CHECK(emu_df_to_f(0x7FEFFFFFFFFFFFFFu, EMU_RNE) == 0x7F800000u); /* DBL_MAX -> inf */
    CHECK(emu_df_to_f(0x7FEFFFFFFFFFFFFFu, EMU_RTZ) == 0x7F7FFFFFu);
    CHECK(emu_df_to_f(0xFFEFFFFFFFFFFFFFu, EMU_RU) == 0xFF7FFFFFu);
    CHECK(emu_df_to_f(0xFFEFFFFFFFFFFFFFu, EMU_RD) == 0xFF800000u);
    CHECK(emu_df_to_f(db(0x1p-149), EMU_RNE) == 0x00000001u); /* F min denormal */
    CHECK(emu_df_to_f(db(0x1p-150), EMU_RNE) == 0x00000000u); /* tie -> even 0 */
    CHECK(emu_df_to_f(db(0x1.8p-150), EMU_RNE) == 0x00000001u);
    CHECK(emu_df_to_f(db(0x1.8p-149), EMU_RNE) == 0x00000002u); /* tie -> even 2 */
    CHECK(emu_df_to_f(0x0000000000000001u, EMU_RNE) == 0x00000000u);
    CHECK(emu_df_to_f(0x0000000000000001u, EMU_RU) == 0x00000001u);
    CHECK(emu_df_to_f(0x8000000000000001u, EMU_RD) == 0x80000001u);
    CHECK(emu_df_to_f(0x8000000000000001u, EMU_RU) == 0x80000000u);
    CHECK(emu_df_to_f(db(0x1p-149), EMU_CVT_FTZ_OUT) == 0x00000000u);
    CHECK(emu_df_to_f(db(0x1p-126), EMU_CVT_FTZ_OUT) == 0x00800000u);
    CHECK(emu_df_to_f(0x7FF0000000000001u, 0) == 0x7FC00000u); /* sNaN, payload in low bits */
    CHECK(emu_df_to_f(0xFFF4000000000000u, 0) == 0xFFE00000u); /* sNaN payload top bit kept */
    CHECK(emu_df_to_f(0x8000000000000000u, 0) == 0x80000000u);
    /* F -> DF exact */
    CHECK(emu_f_to_df(0x00000001u, 0) == 0x36A0000000000000u); /* 2^-149 */
    CHECK(emu_f_to_df(0x00000001u, EMU_CVT_FTZ_IN) == 0);
    CHECK(emu_f_to_df(0x7F800001u, 0) == 0x7FF8000020000000u); /* quieted, payload kept */
    CHECK(emu_f_to_df(0xFF7FFFFFu, 0) == 0xC7EFFFFFE0000000u);
    CASE_END("df boundaries");
}

static void test_bf_tf32_boundaries(void) {
    CASE_BEGIN();
    CHECK(emu_f_to_bf(0x3F800000u, EMU_RNE) == 0x3F80);
    CHECK(emu_f_to_bf(0x3F808000u, EMU_RNE) == 0x3F80); /* tie, down to even */
    CHECK(emu_f_to_bf(0x3F818000u, EMU_RNE) == 0x3F82); /* tie, up to even */
    CHECK(emu_f_to_bf(0x3F808001u, EMU_RNE) == 0x3F81);
    CHECK(emu_f_to_bf(0x7F7FFFFFu, EMU_RNE) == 0x7F80); /* FLT_MAX -> inf */
    CHECK(emu_f_to_bf(0x7F7F7FFFu, EMU_RNE) == 0x7F7F); /* BF max finite */
    CHECK(emu_f_to_bf(0x7F7F8000u, EMU_RNE) == 0x7F80); /* tie above max -> inf */
    CHECK(emu_f_to_bf(0x7F7FFFFFu, EMU_RTZ) == 0x7F7F);
    CHECK(emu_f_to_bf(0xFF7FFFFFu, EMU_RU) == 0xFF7F);
    CHECK(emu_f_to_bf(0x7F800001u, EMU_RNE) == 0x7FC0); /* sNaN quieted */
    CHECK(emu_f_to_bf(0xFF812345u, EMU_RNE) == 0xFFC1);
    CHECK(emu_f_to_bf(0x00000001u, EMU_RNE) == 0x0000);
    CHECK(emu_f_to_bf(0x00000001u, EMU_RU) == 0x0001); /* BF smallest denormal 2^-133 */
    CHECK(emu_f_to_bf(0x00008000u, EMU_RNE) == 0x0000);
    CHECK(emu_f_to_bf(0x00018000u, EMU_RNE) == 0x0002);
    CHECK(emu_f_to_bf(0x00400000u, EMU_CVT_FTZ_IN) == 0x0000);
    CHECK(emu_f_to_bf(0x00400000u, 0) == 0x0040);
    CHECK(emu_f_to_bf(0x00400000u, EMU_CVT_FTZ_OUT) == 0x0000);
    CHECK(emu_f_to_bf(0x80000000u, 0) == 0x8000);
    CHECK(emu_bf_to_f(0x0001, 0) == 0x00010000u);
    CHECK(emu_bf_to_f(0x7F81, 0) == 0x7FC10000u);
    CHECK(emu_bf_to_f(0x0001, EMU_CVT_FTZ_IN) == 0);
    CHECK(emu_bf_to_df(0x3F80, 0) == 0x3FF0000000000000u);
    /* TF32 (RNE, denormals flushed, as FCVT) */
    const uint32_t tf = EMU_RNE | EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT;
    CHECK(emu_f_to_tf32(0x3F801000u, tf) == 0x3F800000u); /* tie down */
    CHECK(emu_f_to_tf32(0x3F803000u, tf) == 0x3F804000u); /* tie up */
    CHECK(emu_f_to_tf32(0x3F801001u, tf) == 0x3F802000u);
    CHECK(emu_f_to_tf32(0x7F7FFFFFu, tf) == 0x7F800000u);
    CHECK(emu_f_to_tf32(0x7F7FE000u, tf) == 0x7F7FE000u); /* TF32 max */
    CHECK(emu_f_to_tf32(0x00400000u, tf) == 0x00000000u);
    CHECK(emu_f_to_tf32(0x80400000u, tf) == 0x80000000u);
    CHECK(emu_f_to_tf32(0x7F800001u, tf) == 0x7FC00000u);
    CHECK(emu_f_to_tf32(0xFFFFFFFFu, tf) == 0xFFFFE000u);
    CASE_END("bf/tf32 boundaries");
}

static void test_fp8_boundaries(void) {
    CASE_BEGIN();
    /* BF8 (E5M2) */
    CHECK(emu_hf_to_bf8(0x3C00, EMU_RNE) == 0x3C);
    CHECK(emu_hf_to_bf8(0x3C80, EMU_RNE) == 0x3C); /* 1.125 tie down to even */
    CHECK(emu_hf_to_bf8(0x3D80, EMU_RNE) == 0x3E); /* 1.375 tie up to even */
    CHECK(emu_hf_to_bf8(0x7B00, EMU_RNE) == 0x7B); /* 57344 max finite */
    CHECK(emu_hf_to_bf8(0x7B7F, EMU_RNE) == 0x7B);
    CHECK(emu_hf_to_bf8(0x7B80, EMU_RNE) == 0x7C); /* 61440 tie -> inf */
    CHECK(emu_hf_to_bf8(0x7BFF, EMU_CVT_SATFINITE) == 0x7B);
    CHECK(emu_hf_to_bf8(0x7C00, EMU_CVT_SATFINITE) == 0x7B);
    CHECK(emu_hf_to_bf8(0xFC00, 0) == 0xFC);
    CHECK(emu_hf_to_bf8(0x0100, EMU_RNE) == 0x01); /* 2^-16 smallest denormal */
    CHECK(emu_hf_to_bf8(0x0080, EMU_RNE) == 0x00); /* tie -> 0 */
    CHECK(emu_hf_to_bf8(0x0081, EMU_RNE) == 0x01);
    CHECK(emu_hf_to_bf8(0x0180, EMU_RNE) == 0x02);
    CHECK(emu_hf_to_bf8(0x8000, EMU_RNE) == 0x80);
    CHECK(emu_hf_to_bf8(0x7C01, EMU_RNE) == 0x7E); /* NaN quieted */
    CHECK(emu_hf_to_bf8(0xFD00, EMU_RNE) == 0xFF); /* payload 01 kept + quiet */
    CHECK(emu_bf8_to_hf(0x01, 0) == 0x0100);
    CHECK(emu_bf8_to_hf(0x7B, 0) == 0x7B00);
    CHECK(emu_bf8_to_hf(0x7D, 0) == 0x7F00); /* sNaN quieted */
    CHECK(emu_bf8_to_hf(0xFC, 0) == 0xFC00);
    /* HF8 (E4M3, FN) */
    CHECK(emu_hf8_to_hf(0x7E, 0) == 0x5F00); /* 448 */
    CHECK(emu_hf8_to_hf(0x01, 0) == 0x1800); /* 2^-9 */
    CHECK(emu_hf8_to_hf(0x08, 0) == 0x2400); /* 2^-6 min normal */
    CHECK(emu_hf8_to_hf(0x7F, 0) == 0x7F80); /* the NaN */
    CHECK(emu_hf8_to_hf(0xFF, 0) == 0xFF80);
    CHECK(emu_hf8_to_hf(0x78, 0) == 0x5C00); /* 256: exponent 15 is finite */
    CHECK(emu_hf_to_hf8(0x5F00, EMU_RNE) == 0x7E);
    CHECK(emu_hf_to_hf8(0x5F40, EMU_RNE) == 0x7E); /* 464 tie -> 448 (even) */
    CHECK(emu_hf_to_hf8(0x5F44, EMU_RNE) == 0x7F); /* 465 -> overflow -> NaN */
    CHECK(emu_hf_to_hf8(0x5F44, EMU_CVT_SATFINITE) == 0x7E);
    CHECK(emu_hf_to_hf8(0x7C00, EMU_RNE) == 0x7F); /* inf -> NaN (no inf in E4M3) */
    CHECK(emu_hf_to_hf8(0xFC00, EMU_RNE) == 0xFF);
    CHECK(emu_hf_to_hf8(0xFC00, EMU_CVT_SATFINITE) == 0xFE);
    CHECK(emu_hf_to_hf8(0x5F44, EMU_RTZ) == 0x7E);
    CHECK(emu_hf_to_hf8(0x1400, EMU_RNE) == 0x00); /* 2^-10: tie -> 0 */
    CHECK(emu_hf_to_hf8(0x1A00, EMU_RNE) == 0x02); /* 1.5 * 2^-9: tie -> 2 */
    CHECK(emu_hf_to_hf8(0x1400, EMU_RU) == 0x01);
    CHECK(emu_hf_to_hf8(0x7E00, EMU_RNE) == 0x7F);
    CHECK(emu_hf_to_hf8(0x3C00, EMU_RNE) == 0x38);
    CHECK(cvt(VISA_TYPE_HF8, VISA_TYPE_D, 17, EMU_RNE) == 0x58); /* 17 -> 16 (tie, even) */
    CHECK(cvt(VISA_TYPE_HF8, VISA_TYPE_D, 19, EMU_RNE) == 0x5A); /* 19 -> 20 */
    CASE_END("fp8 boundaries");
}

static void test_srnd(void) {
    CASE_BEGIN();
    CHECK(emu_srnd_f_to_hf(0x3F800000u, 0) == 0x3C00);
    CHECK(emu_srnd_f_to_hf(0x3F800000u, 0x1FFF) == 0x3C00);
    CHECK(emu_srnd_f_to_hf(0x3F801000u, 0x1000) == 0x3C01);
    CHECK(emu_srnd_f_to_hf(0x3F801000u, 0x0FFF) == 0x3C00);
    CHECK(emu_srnd_f_to_hf(0xBF801000u, 0x1000) == 0xBC01);
    CHECK(emu_srnd_f_to_hf(0x3F801000u, 0xE000) == 0x3C00); /* only rnd[12:0] used */
    CHECK(emu_srnd_f_to_hf(0x477FF000u, 0x1000) == 0x7C00); /* past max -> inf */
    CHECK(emu_srnd_f_to_hf(0x477FF000u, 0x0FFF) == 0x7BFF);
    CHECK(emu_srnd_f_to_hf(0x7F800001u, 0x1FFF) == 0x7E00);
    CHECK(emu_srnd_f_to_hf(0xFF800000u, 0x1FFF) == 0xFC00);
    CHECK(emu_srnd_f_to_hf(0x33800000u, 0) == 0x0001); /* denormals kept */
    CHECK(emu_srnd_hf_to_bf8(0x3C80, 0x80) == 0x3D);
    CHECK(emu_srnd_hf_to_bf8(0x3C80, 0x7F) == 0x3C);
    CHECK(emu_srnd_hf_to_bf8(0x7BFF, 0x01) == 0x7C);
    CHECK(emu_srnd_hf_to_bf8(0xFBFF, 0x00) == 0xFB);
    CHECK(emu_srnd_hf_to_bf8(0x0001, 0xFF) == 0x01);
    CASE_END("srnd");
}

static void test_float_sat(void) {
    CASE_BEGIN();
    CHECK(emu_f_to_hf(fb(2.0f), EMU_CVT_SAT) == 0x3C00);
    CHECK(emu_f_to_hf(fb(-1.0f), EMU_CVT_SAT) == 0x0000);
    CHECK(emu_f_to_hf(fb(0.5f), EMU_CVT_SAT) == 0x3800);
    CHECK(emu_f_to_hf(0x80000000u, EMU_CVT_SAT) == 0x0000); /* -0.0 -> +0.0 */
    CHECK(emu_f_to_hf(0x7FC00000u, EMU_CVT_SAT) == 0x0000); /* NaN -> 0 */
    CHECK(emu_f_to_hf(0x7F800000u, EMU_CVT_SAT) == 0x3C00);
    CHECK(emu_f_to_hf(0xFF800000u, EMU_CVT_SAT) == 0x0000);
    CHECK(emu_f_to_hf(0x3F7FFFFFu, EMU_CVT_SAT) == 0x3C00); /* rounds to 1.0 */
    CHECK(emu_f_to_hf(0x3F7FFFFFu, EMU_CVT_SAT | EMU_RTZ) == 0x3BFF);
    CHECK(emu_sat_f32(1.0000001f) == 1.0f);
    CHECK(fb(emu_sat_f32(-0.0f)) == 0);
    CHECK(fb(emu_sat_f32(bf_(0x7FC00000u))) == 0);
    CHECK(emu_sat_f32(0.25f) == 0.25f);
    CHECK(emu_sat_f32(bf_(0x7F800000u)) == 1.0f);
    CHECK(db(emu_sat_f64(-0.0)) == 0);
    CHECK(emu_sat_f64(1e300) == 1.0);
    CHECK(emu_sat_f64(-1e-300) == 0.0);
    CHECK(emu_sat_f64(0x1p-1074) == 0x1p-1074);
    CHECK(emu_float_sat(VISA_TYPE_HF, 0x3C01) == 0x3C00);
    CHECK(emu_float_sat(VISA_TYPE_HF, 0x7E00) == 0x0000);
    CHECK(emu_float_sat(VISA_TYPE_HF, 0x0001) == 0x0001);
    CHECK(emu_float_sat(VISA_TYPE_BF, 0x3F81) == 0x3F80);
    CHECK(emu_float_sat(VISA_TYPE_BF, 0xBF81) == 0x0000);
    CHECK(emu_float_sat(VISA_TYPE_HF8, 0x40) == 0x38);
    CHECK(emu_float_sat(VISA_TYPE_HF8, 0x7F) == 0x00);
    CHECK(emu_float_sat(VISA_TYPE_HF8, 0x37) == 0x37);
    CHECK(emu_float_sat(VISA_TYPE_BF8, 0x7C) == 0x3C);
    CHECK(emu_float_sat(VISA_TYPE_BF8, 0x7E) == 0x00);
    CHECK(emu_float_sat(VISA_TYPE_DF, 0x3FF0000000000001u) == 0x3FF0000000000000u);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_D, 5, EMU_CVT_SAT) == 0x3F800000u);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_D, (uint64_t)-5, EMU_CVT_SAT) == 0);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x7FC00000u, EMU_CVT_SAT) == 0);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x7FC00000u, 0) == 0x7FC00000u);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x7F800001u, 0) == 0x7F800001u); /* raw move keeps sNaN */
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x00000001u, EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT) == 1);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x00000001u, EMU_CVT_SAT | EMU_CVT_FTZ_IN) == 0);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_F, 0x00000001u, EMU_CVT_SAT) == 1);
    CASE_END("float saturation");
}

/* Float -> integer: clamping and NaN -> 0 for every integer type. */
static void test_float_to_int(void) {
    static const isa_type ints[8] = {VISA_TYPE_B, VISA_TYPE_UB, VISA_TYPE_W, VISA_TYPE_UW,
                                     VISA_TYPE_D, VISA_TYPE_UD, VISA_TYPE_Q, VISA_TYPE_UQ};
    /* hand-written ranges: min (as bit pattern of the type), max */
    static const uint64_t tmin[8] = {0x80, 0, 0x8000, 0, 0x80000000u, 0, 0x8000000000000000u, 0};
    static const uint64_t tmax[8] = {
        0x7F, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0xFFFFFFFFFFFFFFFFu};
    for (int i = 0; i < 8; i++) {
        isa_type t = ints[i];
        CASE_BEGIN();
        for (int s = 0; s < 4; s++) { /* from DF, F, HF, BF */
            isa_type st = s == 0 ? VISA_TYPE_DF : s == 1 ? VISA_TYPE_F : s == 2 ? VISA_TYPE_HF : VISA_TYPE_BF;
            uint64_t pinf = s == 0 ? 0x7FF0000000000000u : s == 1 ? 0x7F800000u : s == 2 ? 0x7C00u : 0x7F80u;
            uint64_t signb = s == 0 ? 0x8000000000000000u : s == 1 ? 0x80000000u : 0x8000u;
            uint64_t qnan = s == 0 ? 0x7FF8000000000000u : s == 1 ? 0x7FC00000u : s == 2 ? 0x7E00u : 0x7FC0u;
            uint64_t snan = pinf | 1;
            CHECKF(cvt(t, st, pinf, 0) == tmax[i], "t=%d s=%d +inf", i, s);
            CHECKF(cvt(t, st, pinf | signb, 0) == tmin[i], "t=%d s=%d -inf", i, s);
            CHECKF(cvt(t, st, qnan, 0) == 0, "t=%d s=%d qnan", i, s);
            CHECKF(cvt(t, st, snan | signb, 0) == 0, "t=%d s=%d -snan", i, s);
            CHECKF(cvt(t, st, qnan, EMU_CVT_SAT) == 0, "t=%d s=%d qnan sat", i, s);
            CHECKF(cvt(t, st, signb, 0) == 0, "t=%d s=%d -0", i, s);
            CHECKF(cvt(t, st, signb | 1, 0) == 0, "t=%d s=%d -denorm", i, s);
            CHECKF(cvt(t, st, 1, 0) == 0, "t=%d s=%d +denorm", i, s);
        }
        /* from DF: values around the type's limits */
        double max_d = (double)tmax[i], huge = 1e300;
        CHECKF(cvt(t, VISA_TYPE_DF, db(huge), 0) == tmax[i], "t=%d huge", i);
        CHECKF(cvt(t, VISA_TYPE_DF, db(-huge), 0) == tmin[i], "t=%d -huge", i);
        CHECKF(cvt(t, VISA_TYPE_DF, db(2.9), 0) == 2, "t=%d 2.9", i);
        CHECKF(cvt(t, VISA_TYPE_DF, db(-2.9), 0) == (tmin[i] ? emu_int_wrap(t, (uint64_t)-2) : 0), "t=%d -2.9", i);
        CHECKF(cvt(t, VISA_TYPE_DF, db(-0.99), 0) == 0, "t=%d -0.99", i);
        if (i < 6) { /* exact in double */
            CHECKF(cvt(t, VISA_TYPE_DF, db(max_d + 0.75), 0) == tmax[i], "t=%d max+.75", i);
            CHECKF(cvt(t, VISA_TYPE_DF, db(max_d + 1.0), 0) == tmax[i], "t=%d max+1", i);
            CHECKF(cvt(t, VISA_TYPE_DF, db(max_d - 0.25), 0) == tmax[i] - 1, "t=%d max-.25", i);
            double min_d = tmin[i] ? -(double)(tmax[i] + 1) : 0.0;
            CHECKF(cvt(t, VISA_TYPE_DF, db(min_d - 0.75), 0) == tmin[i], "t=%d min-.75", i);
            CHECKF(cvt(t, VISA_TYPE_DF, db(min_d - 1.0), 0) == tmin[i], "t=%d min-1", i);
            CHECKF(cvt(t, VISA_TYPE_DF, db(min_d), 0) == tmin[i], "t=%d min", i);
        }
        CASE_END("float->int clamp");
    }
    CASE_BEGIN();
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_F, 0x4EFFFFFFu, 0) == 0x7FFFFF80u); /* 2147483520 */
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_F, 0x4F000000u, 0) == 0x7FFFFFFFu); /* 2^31 */
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_F, 0xCF000000u, 0) == 0x80000000u); /* -2^31 exact */
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_F, 0xCF000001u, 0) == 0x80000000u);
    CHECK(cvt(VISA_TYPE_UD, VISA_TYPE_F, 0x4F7FFFFFu, 0) == 0xFFFFFF00u);
    CHECK(cvt(VISA_TYPE_UD, VISA_TYPE_F, 0x4F800000u, 0) == 0xFFFFFFFFu);
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_DF, 0x43DFFFFFFFFFFFFFu, 0) == 0x7FFFFFFFFFFFFC00u);
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_DF, 0x43E0000000000000u, 0) == 0x7FFFFFFFFFFFFFFFu); /* 2^63 */
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_DF, 0xC3E0000000000000u, 0) == 0x8000000000000000u); /* -2^63 */
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_DF, 0xC3E0000000000001u, 0) == 0x8000000000000000u);
    CHECK(cvt(VISA_TYPE_UQ, VISA_TYPE_DF, 0x43EFFFFFFFFFFFFFu, 0) == 0xFFFFFFFFFFFFF800u);
    CHECK(cvt(VISA_TYPE_UQ, VISA_TYPE_DF, 0x43F0000000000000u, 0) == 0xFFFFFFFFFFFFFFFFu); /* 2^64 */
    CHECK(cvt(VISA_TYPE_UQ, VISA_TYPE_F, 0x5F800000u, 0) == 0xFFFFFFFFFFFFFFFFu);
    CHECK(cvt(VISA_TYPE_W, VISA_TYPE_HF, 0x7BFF, 0) == 0x7FFF); /* 65504 -> W max */
    CHECK(cvt(VISA_TYPE_UW, VISA_TYPE_HF, 0x7BFF, 0) == 65504);
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_HF, 0xD800, 0) == 0x80); /* -128 */
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_HF, 0xD808, 0) == 0x80); /* -129 */
    CHECK(cvt(VISA_TYPE_UB, VISA_TYPE_BF, 0x4380, 0) == 0xFF); /* 256 */
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_HF8, 0x7E, 0) == 448);
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_HF8, 0xFF, 0) == 0); /* NaN */
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_BF8, 0xFC, 0) == 0x80000000u); /* -inf */
    CHECK(emu_float_to_int(VISA_TYPE_UB, VISA_TYPE_F, fb(-3.5f), 0) == 0);
    CHECK(emu_float_to_int(VISA_TYPE_W, VISA_TYPE_F, fb(-3.5f), 0) == 0xFFFD);
    CASE_END("float->int specific");
}

/* Random float -> int against host truncation with explicit bounds. */
static void test_float_to_int_random(void) {
    static const isa_type ints[8] = {VISA_TYPE_B, VISA_TYPE_UB, VISA_TYPE_W, VISA_TYPE_UW,
                                     VISA_TYPE_D, VISA_TYPE_UD, VISA_TYPE_Q, VISA_TYPE_UQ};
    CASE_BEGIN();
    int bad = 0;
    for (int n = 0; n < 400000 && bad < 10; n++) {
        uint64_t r = rnd64();
        /* exponent around the integer ranges: 2^-2 .. 2^66 */
        uint64_t e = 1021 + (r >> 56) % 69;
        double d = bd((r & 0x800FFFFFFFFFFFFFu) | e << 52);
        if ((n & 15) == 0) d = trunc(d) + ((r >> 7) & 1 ? 0.5 : 0.0); /* ties are irrelevant but exercise .5 */
        for (int i = 0; i < 8; i++) {
            isa_type t = ints[i];
            int w = 8 * (int)(i < 2 ? 1 : i < 4 ? 2 : i < 6 ? 4 : 8);
            int sgn = (i & 1) == 0;
            double tr = trunc(d);
            uint64_t want;
            if (sgn) {
                double hi = ldexp(1.0, w - 1); /* 2^(w-1) */
                if (tr >= hi) want = ((uint64_t)1 << (w - 1)) - 1;
                else if (tr < -hi) want = (uint64_t)1 << (w - 1);
                else want = (uint64_t)(int64_t)tr;
            } else {
                double hi = ldexp(1.0, w);
                if (tr >= hi) want = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
                else if (tr <= 0) want = 0;
                else want = (uint64_t)tr;
            }
            want &= w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
            uint64_t got = cvt(t, VISA_TYPE_DF, db(d), 0);
            if (got != want) {
                bad++;
                fprintf(stderr, "DF %a -> type %d: got %llx want %llx\n", d, (int)t, (unsigned long long)got,
                        (unsigned long long)want);
            }
            /* through F as well (when exact) */
            float f = (float)d;
            if ((double)f == d) {
                uint64_t g2 = cvt(t, VISA_TYPE_F, fb(f), 0);
                if (g2 != want) {
                    bad++;
                    fprintf(stderr, "F %a -> type %d: got %llx want %llx\n", d, (int)t, (unsigned long long)g2,
                            (unsigned long long)want);
                }
            }
        }
    }
    CHECK(bad == 0);
    CASE_END("float->int random vs host");
}

/* Integer -> float: hand cases and random against the host (RNE) plus nextafter (directed). */
static void test_int_to_float(void) {
    CASE_BEGIN();
    CHECK(emu_s64_to_float(VISA_TYPE_DF, 9007199254740993, EMU_RNE) == 0x4340000000000000u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, 9007199254740995, EMU_RNE) == 0x4340000000000002u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, 9007199254740993, EMU_RU) == 0x4340000000000001u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, -9007199254740993, EMU_RD) == 0xC340000000000001u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, -9007199254740993, EMU_RU) == 0xC340000000000000u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, INT64_MIN, EMU_RNE) == 0xC3E0000000000000u);
    CHECK(emu_s64_to_float(VISA_TYPE_DF, 0, EMU_RNE) == 0);
    CHECK(emu_u64_to_float(VISA_TYPE_DF, UINT64_MAX, EMU_RNE) == 0x43F0000000000000u);
    CHECK(emu_u64_to_float(VISA_TYPE_DF, UINT64_MAX, EMU_RTZ) == 0x43EFFFFFFFFFFFFFu);
    CHECK(emu_u64_to_float(VISA_TYPE_F, UINT64_MAX, EMU_RNE) == 0x5F800000u);
    CHECK(emu_u64_to_float(VISA_TYPE_F, UINT64_MAX, EMU_RD) == 0x5F7FFFFFu);
    CHECK(emu_s64_to_float(VISA_TYPE_F, 16777217, EMU_RNE) == 0x4B800000u);
    CHECK(emu_s64_to_float(VISA_TYPE_F, 16777219, EMU_RNE) == 0x4B800002u);
    CHECK(emu_s64_to_float(VISA_TYPE_F, 16777217, EMU_RU) == 0x4B800001u);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_UD, 0xFFFFFFFFu, EMU_RNE) == 0x4F800000u);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_UD, 0xFFFFFFFFu, EMU_RTZ) == 0x4F7FFFFFu);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_D, 0x80000000u, EMU_RNE) == 0xCF000000u);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_D, 65520, EMU_RNE) == 0x7C00);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_D, 65519, EMU_RNE) == 0x7BFF);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_D, 65520, EMU_RTZ) == 0x7BFF);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_W, 2049, EMU_RNE) == 0x6800);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_W, 2051, EMU_RNE) == 0x6802);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_W, 0x8000, EMU_RNE) == 0xF800); /* -32768 */
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_UQ, UINT64_MAX, EMU_RNE) == 0x7C00);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_UQ, UINT64_MAX, EMU_RTZ) == 0x7BFF);
    CHECK(cvt(VISA_TYPE_HF, VISA_TYPE_Q, (uint64_t)INT64_MIN, EMU_RU) == 0xFBFF);
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_D, 257, EMU_RNE) == 0x4380);
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_D, 259, EMU_RNE) == 0x4382);
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_UB, 255, EMU_RNE) == 0x437F); /* 8 bits: exact */
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_UW, 511, EMU_RNE) == 0x4400); /* tie 510|512 -> 512 */
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_UW, 509, EMU_RNE) == 0x43FE); /* tie 508|510 -> 508 */
    CHECK(cvt(VISA_TYPE_BF, VISA_TYPE_B, 0x81, EMU_RNE) == 0xC2FE); /* -127 */
    CHECK(cvt(VISA_TYPE_TF32, VISA_TYPE_D, 2049, EMU_RNE) == 0x45000000u);
    CASE_END("int->float specific");

    CASE_BEGIN();
    int bad = 0;
    for (int n = 0; n < 300000 && bad < 10; n++) {
        uint64_t r = rnd64();
        int sh = (int)(rnd64() % 64);
        int64_t v = (int64_t)(r >> sh);
        if (rnd64() & 1) v = -v;
        uint64_t u = r >> sh;
        for (int m = 0; m < 4; m++) {
            unsigned mode = MODES[m];
            /* DF from signed */
            double d = (double)v;
            double dlo, dhi;
            int exact;
            { /* exact comparison of d and v through integers */
                int cmp;
                if (d >= 0x1p63) cmp = 1;
                else if (d < -0x1p63) cmp = -1;
                else {
                    int64_t di = (int64_t)d;
                    cmp = di < v ? -1 : di > v;
                }
                exact = cmp == 0;
                dlo = cmp <= 0 ? d : nextafter(d, -INFINITY);
                dhi = cmp >= 0 ? d : nextafter(d, INFINITY);
            }
            double want_d = mode == EMU_RNE || exact ? d
                            : mode == EMU_RU         ? dhi
                            : mode == EMU_RD         ? dlo
                                                     : (v < 0 ? dhi : dlo);
            uint64_t got = emu_s64_to_float(VISA_TYPE_DF, v, mode);
            if (got != db(want_d)) {
                bad++;
                fprintf(stderr, "s64 %lld -> DF %s: got %llx want %llx\n", (long long)v, MODE_NAME[m],
                        (unsigned long long)got, (unsigned long long)db(want_d));
            }
            /* F from unsigned */
            float f = (float)u;
            float flo, fhi;
            int cmpu;
            if (f >= 0x1p64f) cmpu = 1;
            else {
                uint64_t fi = (uint64_t)f;
                cmpu = fi < u ? -1 : fi > u;
            }
            flo = cmpu <= 0 ? f : nextafterf(f, 0.0f);
            fhi = cmpu >= 0 ? f : nextafterf(f, INFINITY);
            float want_f = mode == EMU_RNE || cmpu == 0 ? f : mode == EMU_RU ? fhi : flo;
            uint64_t gf = emu_u64_to_float(VISA_TYPE_F, u, mode);
            if (gf != fb(want_f)) {
                bad++;
                fprintf(stderr, "u64 %llu -> F %s: got %llx want %x\n", (unsigned long long)u, MODE_NAME[m],
                        (unsigned long long)gf, fb(want_f));
            }
            /* HF / BF from a 32-bit value through the table reference (exact in double) */
            int32_t v32 = (int32_t)(uint32_t)(r >> (sh & 31));
            uint64_t gh = cvt(VISA_TYPE_HF, VISA_TYPE_D, (uint32_t)v32, mode);
            uint32_t wh = ref_round(&T_HF, (double)v32, mode, 0, 0);
            if (gh != wh) {
                bad++;
                fprintf(stderr, "d %d -> HF %s: got %llx want %x\n", v32, MODE_NAME[m], (unsigned long long)gh, wh);
            }
            uint64_t gb = cvt(VISA_TYPE_BF, VISA_TYPE_D, (uint32_t)v32, mode);
            uint32_t wb = ref_round(&T_BF, (double)v32, mode, 0, 0);
            if (gb != wb) {
                bad++;
                fprintf(stderr, "d %d -> BF %s: got %llx want %x\n", v32, MODE_NAME[m], (unsigned long long)gb, wb);
            }
        }
    }
    CHECK(bad == 0);
    CASE_END("int->float random vs host/table");
}

/* Integer wrap and saturation, every type, from 64-bit and wide intermediates. */
static void test_int_sat(void) {
    static const isa_type ints[8] = {VISA_TYPE_B, VISA_TYPE_UB, VISA_TYPE_W, VISA_TYPE_UW,
                                     VISA_TYPE_D, VISA_TYPE_UD, VISA_TYPE_Q, VISA_TYPE_UQ};
    static const int64_t smin[8] = {-128, 0, -32768, 0, -2147483647 - 1, 0, INT64_MIN, 0};
    static const uint64_t smax[8] = {127, 255, 32767, 65535, 2147483647, 4294967295u, INT64_MAX, UINT64_MAX};
    static const uint64_t mask[8] = {0xFF, 0xFF, 0xFFFF, 0xFFFF, 0xFFFFFFFFu, 0xFFFFFFFFu, UINT64_MAX, UINT64_MAX};
    for (int i = 0; i < 8; i++) {
        isa_type t = ints[i];
        CASE_BEGIN();
        uint64_t minb = (uint64_t)smin[i] & mask[i];
        CHECK(emu_int_min(t) == smin[i]);
        CHECK(emu_int_max(t) == smax[i]);
        CHECK(emu_int_sat_s64(t, INT64_MIN) == minb);
        CHECK(emu_int_sat_s64(t, INT64_MAX) == (smax[i] > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : smax[i]));
        CHECK(emu_int_sat_s64(t, -1) == (smin[i] ? mask[i] : 0));
        CHECK(emu_int_sat_s64(t, 0) == 0);
        CHECK(emu_int_sat_u64(t, UINT64_MAX) == smax[i]);
        CHECK(emu_int_sat_u64(t, smax[i]) == smax[i]);
        if (i < 6) {
            CHECK(emu_int_sat_s64(t, (int64_t)smax[i]) == smax[i]);
            CHECK(emu_int_sat_s64(t, (int64_t)smax[i] + 1) == smax[i]);
            CHECK(emu_int_sat_u64(t, smax[i] + 1) == smax[i]);
            CHECK(emu_int_sat_s64(t, smin[i]) == minb);
            CHECK(emu_int_sat_s64(t, smin[i] - 1) == minb);
            CHECK(emu_int_wrap(t, smax[i] + 1) == (smin[i] ? minb : 0)); /* wraps to min / 0 */
            CHECK(emu_int_wrap(t, (uint64_t)(smin[i] - 1)) == (smin[i] ? smax[i] : mask[i]));
        }
        /* wide: 2^64 + small and -(2^64) saturate to the ends, wrap keeps the low bits */
        emu_wide big = emu_wide_add(emu_wide_u64(UINT64_MAX), emu_wide_u64(6)); /* 2^64 + 5 */
        CHECK(big.hi == 1 && big.lo == 5 && !big.neg);
        CHECK(emu_wide_sat(t, big) == smax[i]);
        CHECK(emu_wide_wrap(t, big) == 5);
        CHECK(emu_wide_sat(t, emu_wide_neg(big)) == minb);
        CHECK(emu_wide_wrap(t, emu_wide_neg(big)) == ((uint64_t)-5 & mask[i]));
        CHECK(emu_wide_sat(t, emu_wide_s64(-1)) == (smin[i] ? mask[i] : 0));
        CHECK(emu_wide_sat(t, emu_wide_u64(smax[i])) == smax[i]);
        CHECK(emu_wide_sat(t, emu_wide_add(emu_wide_u64(smax[i]), emu_wide_u64(1))) == smax[i]);
        CHECK(emu_wide_sat(t, emu_wide_s64(smin[i])) == minb);
        CHECK(emu_wide_sat(t, emu_wide_sub(emu_wide_s64(smin[i]), emu_wide_u64(1))) == minb);
        /* MOV int -> int: wrap without .sat, clamp with it */
        CHECK(cvt(t, VISA_TYPE_Q, (uint64_t)-1, 0) == mask[i]);
        CHECK(cvt(t, VISA_TYPE_Q, (uint64_t)-1, EMU_CVT_SAT) == (smin[i] ? mask[i] : 0));
        CHECK(cvt(t, VISA_TYPE_UQ, UINT64_MAX, EMU_CVT_SAT) == smax[i]);
        CHECK(cvt(t, VISA_TYPE_Q, (uint64_t)INT64_MIN, EMU_CVT_SAT) == minb);
        CHECK(cvt(t, VISA_TYPE_B, 0x80, 0) == (0xFFFFFFFFFFFFFF80u & mask[i])); /* sign extension */
        CHECK(cvt(t, VISA_TYPE_UB, 0x80, 0) == 0x80); /* zero extension */
        CASE_END("int saturation edges");
    }
    CASE_BEGIN();
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_Q, 0x1FF, 0) == 0xFF);
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_Q, 0x1FF, EMU_CVT_SAT) == 0x7F);
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_D, (uint32_t)-129, 0) == 0x7F);
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_D, (uint32_t)-129, EMU_CVT_SAT) == 0x80);
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_UQ, UINT64_MAX, EMU_CVT_SAT) == 0x7FFFFFFFFFFFFFFFu);
    CHECK(cvt(VISA_TYPE_Q, VISA_TYPE_UQ, UINT64_MAX, 0) == UINT64_MAX);
    CHECK(cvt(VISA_TYPE_UQ, VISA_TYPE_Q, (uint64_t)-1, EMU_CVT_SAT) == 0);
    CHECK(cvt(VISA_TYPE_D, VISA_TYPE_UD, 0xFFFFFFFFu, EMU_CVT_SAT) == 0x7FFFFFFFu);
    CHECK(cvt(VISA_TYPE_UD, VISA_TYPE_D, 0xFFFFFFFFu, EMU_CVT_SAT) == 0);
    CHECK(cvt(VISA_TYPE_B, VISA_TYPE_UB, 255, EMU_CVT_SAT) == 0x7F);
    CHECK(cvt(VISA_TYPE_UW, VISA_TYPE_B, 0xFF, 0) == 0xFFFF);
    CHECK(cvt(VISA_TYPE_UW, VISA_TYPE_B, 0xFF, EMU_CVT_SAT) == 0);
    CHECK(cvt(VISA_TYPE_UB, VISA_TYPE_UB, 0xAB, EMU_CVT_SAT) == 0xAB);
    CHECK(emu_int_extend(VISA_TYPE_W, 0x8000) == 0xFFFFFFFFFFFF8000u);
    CHECK(emu_int_extend(VISA_TYPE_UW, 0x18000) == 0x8000);
    emu_wide big = emu_wide_add(emu_wide_u64(UINT64_MAX), emu_wide_u64(6)); /* 2^64 + 5 */
    /* wide products: (2^64-1)^2 + (2^64-1) = 2^128 - 2^64 */
    emu_wide p = emu_wide_mul(emu_wide_u64(UINT64_MAX), emu_wide_u64(UINT64_MAX));
    CHECK(p.hi == 0xFFFFFFFFFFFFFFFEu && p.lo == 1 && !p.neg);
    p = emu_wide_add(p, emu_wide_u64(UINT64_MAX));
    CHECK(p.hi == UINT64_MAX && p.lo == 0);
    CHECK(emu_wide_sat(VISA_TYPE_UQ, p) == UINT64_MAX);
    CHECK(emu_wide_wrap(VISA_TYPE_UQ, p) == 0);
    p = emu_wide_mul(emu_wide_s64(INT64_MIN), emu_wide_s64(-1)); /* 2^63 */
    CHECK(p.hi == 0 && p.lo == 0x8000000000000000u && !p.neg);
    CHECK(emu_wide_sat(VISA_TYPE_Q, p) == 0x7FFFFFFFFFFFFFFFu);
    CHECK(emu_wide_wrap(VISA_TYPE_Q, p) == 0x8000000000000000u);
    p = emu_wide_mul(emu_wide_s64(INT64_MIN), emu_wide_s64(INT64_MIN)); /* 2^126 */
    CHECK(p.hi == 0x4000000000000000u && p.lo == 0 && !p.neg);
    p = emu_wide_mul(emu_wide_s64(INT64_MIN), emu_wide_u64(UINT64_MAX)); /* -(2^127 - 2^63) */
    CHECK(p.neg && p.hi == 0x7FFFFFFFFFFFFFFFu && p.lo == 0x8000000000000000u);
    CHECK(emu_wide_sat(VISA_TYPE_Q, p) == 0x8000000000000000u);
    CHECK(emu_wide_wrap(VISA_TYPE_Q, p) == 0x8000000000000000u);
    p = emu_wide_mul(big, emu_wide_s64(-3)); /* (2^64 + 5) * -3: a wide operand */
    CHECK(p.neg && p.hi == 3 && p.lo == 15);
    p = emu_wide_mul(emu_wide_s64(7), emu_wide_shl(emu_wide_u64(0x8000000000000001u), 1));
    CHECK(!p.neg && p.hi == 7 && p.lo == 14);
    p = emu_wide_mul(emu_wide_s64(-3), emu_wide_s64(0));
    CHECK(!p.neg && p.lo == 0 && p.hi == 0);
    CHECK(emu_wide_cmp(emu_wide_s64(-1), emu_wide_u64(0)) < 0);
    CHECK(emu_wide_cmp(emu_wide_s64(-2), emu_wide_s64(-1)) < 0);
    p = emu_wide_sub(emu_wide_s64(-7), emu_wide_s64(-7));
    CHECK(emu_wide_cmp(p, emu_wide_u64(0)) == 0 && !p.neg);
    CHECK(emu_wide_cmp(emu_wide_u64(UINT64_MAX), emu_wide_shl(emu_wide_u64(1), 64)) < 0);
    /* SHL with saturation (SHL page: the shifted result is kept to 33 bits) */
    CHECK(emu_wide_sat(VISA_TYPE_D, emu_wide_shl(emu_wide_s64(0x40000000), 1)) == 0x7FFFFFFFu);
    CHECK(emu_wide_wrap(VISA_TYPE_D, emu_wide_shl(emu_wide_s64(0x40000000), 1)) == 0x80000000u);
    CHECK(emu_wide_sat(VISA_TYPE_UD, emu_wide_shl(emu_wide_u64(0x80000000u), 1)) == 0xFFFFFFFFu);
    CHECK(emu_wide_wrap(VISA_TYPE_UD, emu_wide_shl(emu_wide_u64(0x80000000u), 1)) == 0);
    CHECK(emu_wide_sat(VISA_TYPE_D, emu_wide_shl(emu_wide_s64(-1), 31)) == 0x80000000u);
    CHECK(emu_wide_sat(VISA_TYPE_D, emu_wide_shl(emu_wide_s64(-1), 32)) == 0x80000000u);
    CHECK(emu_wide_sat(VISA_TYPE_W, emu_wide_shl(emu_wide_s64(-1), 15)) == 0x8000u);
    CHECK(emu_wide_sat(VISA_TYPE_W, emu_wide_shl(emu_wide_s64(-1), 16)) == 0x8000u);
    p = emu_wide_shl(emu_wide_u64(UINT64_MAX), 63);
    CHECK(p.hi == 0x7FFFFFFFFFFFFFFFu && p.lo == 0x8000000000000000u);
    p = emu_wide_shl(emu_wide_u64(3), 100);
    CHECK(p.hi == (uint64_t)3 << 36 && p.lo == 0);
    CHECK(emu_wide_of(VISA_TYPE_B, 0xFF).neg && emu_wide_of(VISA_TYPE_B, 0xFF).lo == 1);
    CHECK(!emu_wide_of(VISA_TYPE_UB, 0xFF).neg && emu_wide_of(VISA_TYPE_UB, 0xFF).lo == 255);
    CASE_END("int specific and wide");

#if defined(__SIZEOF_INT128__)
    CASE_BEGIN();
    int bad = 0;
    for (int n = 0; n < 200000 && bad < 10; n++) {
        int64_t a = (int64_t)(rnd64() >> (rnd64() % 64)), b = (int64_t)(rnd64() >> (rnd64() % 64));
        int64_t c = (int64_t)rnd64();
        if (rnd64() & 1) a = -a;
        if (rnd64() & 1) b = -b;
        __int128 ref = (__int128)a * b + c;
        emu_wide w = emu_wide_add(emu_wide_mul(emu_wide_s64(a), emu_wide_s64(b)), emu_wide_s64(c));
        unsigned __int128 mag = ref < 0 ? (unsigned __int128)0 - (unsigned __int128)ref : (unsigned __int128)ref;
        if (w.neg != (ref < 0) || w.lo != (uint64_t)mag || w.hi != (uint64_t)(mag >> 64)) bad++;
        for (int i = 0; i < 8; i++) {
            isa_type t = ints[i];
            __int128 lo = smin[i], hi = (__int128)smax[i];
            uint64_t want = (uint64_t)(ref < lo ? lo : ref > hi ? hi : ref) & mask[i];
            if (emu_wide_sat(t, w) != want) bad++;
            if (emu_wide_wrap(t, w) != ((uint64_t)ref & mask[i])) bad++;
        }
    }
    CHECK(bad == 0);
    CASE_END("wide mad vs __int128");
#endif
}

/* Exhaustive: every half -> F -> half (and -> DF -> half) is the identity for non-NaN, in every
** rounding mode; NaNs come back quiet with payload; values match the definition. */
static void test_hf_exhaustive(void) {
    CASE_BEGIN();
    int bad = 0;
    for (uint32_t h = 0; h < 65536 && bad < 10; h++) {
        uint32_t f = emu_hf_to_f((uint16_t)h, 0);
        uint64_t d = emu_hf_to_df((uint16_t)h, 0);
        int nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
        if (nan) {
            if (emu_f_to_hf(f, 0) != (h | 0x200) || !isnan(bf_(f)) || !isnan(bd(d))) bad++;
            continue;
        }
        double v = (h & 0x7C00) == 0x7C00 ? INFINITY : hf_val(h & 0x7FFF);
        if (h & 0x8000) v = -v;
        if ((double)bf_(f) != v || bd(d) != v || (signbit(v) != 0) != (int)(f >> 31)) bad++;
        for (int m = 0; m < 4; m++) {
            if (emu_f_to_hf(f, MODES[m]) != h) bad++;
            if (emu_df_to_hf(d, MODES[m]) != h) bad++;
        }
        if (bad) fprintf(stderr, "half %04x\n", h);
    }
    CHECK(bad == 0);
    CASE_END("half exhaustive round trip");

    CASE_BEGIN();
    bad = 0;
    for (uint32_t b = 0; b < 65536 && bad < 10; b++) {
        uint32_t f = emu_bf_to_f((uint16_t)b, 0);
        int nan = (b & 0x7F80) == 0x7F80 && (b & 0x7F);
        if (nan) {
            if (emu_f_to_bf(f, 0) != (b | 0x40)) bad++;
            continue;
        }
        if (f != b << 16) bad++; /* bf16 is the top half of an F */
        for (int m = 0; m < 4; m++)
            if (emu_f_to_bf(f, MODES[m]) != b) bad++;
        if (emu_bf_to_f((uint16_t)b, EMU_CVT_FTZ_IN) != (((b & 0x7F80) == 0) ? (b & 0x8000u) << 16 : b << 16)) bad++;
        if (bad) fprintf(stderr, "bf16 %04x\n", b);
    }
    CHECK(bad == 0);
    CASE_END("bf16 exhaustive round trip");
}

/* F -> HF and F -> BF over millions of pseudo-random floats against the table reference. */
static void test_f_to_hf_random(void) {
    CASE_BEGIN();
    int bad = 0;
    const int N = 4000000;
    for (int n = 0; n < N && bad < 10; n++) {
        uint32_t f = rand_f32(127 - 27, 127 + 17, 13);
        uint16_t got = emu_f_to_hf(f, EMU_RNE), want = ref_f_to_hf(f, EMU_RNE, 0);
        if (got != want) {
            bad++;
            fprintf(stderr, "F %08x -> HF rne: got %04x want %04x\n", f, got, want);
        }
    }
    for (int m = 0; m < 4; m++) {
        for (int n = 0; n < 1000000 && bad < 10; n++) {
            uint32_t f = rand_f32(127 - 27, 127 + 17, 13);
            int ftz = n & 1;
            uint32_t fl = MODES[m] | (ftz ? EMU_CVT_FTZ_OUT : 0);
            uint16_t got = emu_f_to_hf(f, fl), want = ref_f_to_hf(f, MODES[m], ftz);
            if (got != want) {
                bad++;
                fprintf(stderr, "F %08x -> HF %s ftz=%d: got %04x want %04x\n", f, MODE_NAME[m], ftz, got, want);
            }
        }
    }
    CHECK(bad == 0);
    CASE_END("F->HF random vs table reference");

    CASE_BEGIN();
    bad = 0;
    for (int n = 0; n < 3000000 && bad < 10; n++) {
        uint32_t f = rand_f32(1, 254, 16);
        if (n % 7 == 0) f &= 0x807FFFFFu; /* F denormals (BF denormal range) */
        unsigned m = (unsigned)(n >> 1) & 3;
        int ftz = (n & 1) && (n % 3 == 0);
        uint16_t got = emu_f_to_bf(f, MODES[m] | (ftz ? EMU_CVT_FTZ_OUT : 0));
        uint16_t want = ref_f_to_bf(f, MODES[m], ftz);
        if (got != want) {
            bad++;
            fprintf(stderr, "F %08x -> BF %s ftz=%d: got %04x want %04x\n", f, MODE_NAME[m], ftz, got, want);
        }
    }
    CHECK(bad == 0);
    CASE_END("F->BF random vs table reference");

    /* DF -> HF / BF: one rounding from the double (the table reference is exact for doubles) */
    CASE_BEGIN();
    bad = 0;
    for (int n = 0; n < 1000000 && bad < 10; n++) {
        uint64_t r = rnd64();
        int toHF = n & 1;
        uint64_t e = toHF ? 1023 - 27 + (r >> 56) % 45 : 1023 - 136 + (r >> 52) % 266;
        uint64_t d = (r & 0x800FFFFFFFFFFFFFu) | e << 52;
        if ((n & 6) == 0) d = (d & ~(((uint64_t)1 << 42) - 1)) | ((uint64_t)1 << 41); /* exact ties (HF) */
        unsigned m = (unsigned)(r >> 4) & 3;
        uint64_t got = toHF ? emu_df_to_hf(d, MODES[m]) : emu_df_to_bf(d, MODES[m]);
        uint32_t want = ref_round(toHF ? &T_HF : &T_BF, bd(d), MODES[m], 0, 0);
        if (got != want) {
            bad++;
            fprintf(stderr, "DF %016llx -> %s %s: got %llx want %x\n", (unsigned long long)d, toHF ? "HF" : "BF",
                    MODE_NAME[m], (unsigned long long)got, want);
        }
    }
    CHECK(bad == 0);
    CASE_END("DF->HF/BF random vs table reference");
}

/* DF -> F against the host conversion (RNE) and nextafterf for the directed modes. */
static void test_df_to_f_random(void) {
    CASE_BEGIN();
    int bad = 0;
    for (int n = 0; n < 2000000 && bad < 10; n++) {
        uint64_t r = rnd64();
        uint64_t e = 1023 - 155 + (r >> 55) % 290;
        uint64_t d = (r & 0x800FFFFFFFFFFFFFu) | e << 52;
        if ((n & 7) == 0) d = (d & ~(((uint64_t)1 << 29) - 1)) | ((uint64_t)1 << 28); /* ties */
        double x = bd(d);
        unsigned m = (unsigned)n & 3;
        float f = (float)x; /* host: round to nearest even */
        float lo, hi;
        if ((double)f == x) lo = hi = f;
        else if ((double)f < x) lo = f, hi = nextafterf(f, INFINITY);
        else hi = f, lo = nextafterf(f, -INFINITY);
        float want = MODES[m] == EMU_RNE ? f : MODES[m] == EMU_RU ? hi : MODES[m] == EMU_RD ? lo : (x < 0 ? hi : lo);
        uint32_t got = emu_df_to_f(d, MODES[m]);
        if (got != fb(want)) {
            bad++;
            fprintf(stderr, "DF %a -> F %s: got %08x want %08x\n", x, MODE_NAME[m], got, fb(want));
        }
        if (emu_f_to_df(got, 0) != db((double)bf_(got))) bad++;
    }
    CHECK(bad == 0);
    CASE_END("DF->F random vs host");
}

/* HF -> BF8 / HF8 exhaustively against the table reference, all modes, with/without SATFINITE. */
static void test_fp8_exhaustive(void) {
    CASE_BEGIN();
    int bad = 0;
    for (uint32_t h = 0; h < 65536 && bad < 10; h++) {
        uint32_t sign8 = (h >> 8) & 0x80;
        int nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF), inf = (h & 0x7FFF) == 0x7C00;
        for (int m = 0; m < 4; m++) {
            for (int sf = 0; sf < 2; sf++) {
                uint32_t fl = MODES[m] | (sf ? EMU_CVT_SATFINITE : 0);
                uint32_t wb, wh;
                if (nan) {
                    wb = sign8 | 0x7E | ((h >> 8) & 1);
                    wh = sign8 | 0x7F;
                } else if (inf) {
                    wb = sign8 | (sf ? 0x7B : 0x7C);
                    wh = sign8 | (sf ? 0x7E : 0x7F);
                } else {
                    double v = hf_val(h & 0x7FFF) * ((h & 0x8000) ? -1 : 1);
                    if (h == 0x8000) v = -0.0;
                    wb = ref_round(&T_BF8, v, MODES[m], 0, sf);
                    wh = ref_round(&T_HF8, v, MODES[m], 0, sf);
                }
                uint8_t gb = emu_hf_to_bf8((uint16_t)h, fl), gh = emu_hf_to_hf8((uint16_t)h, fl);
                if (gb != wb || gh != wh) {
                    bad++;
                    fprintf(stderr, "HF %04x %s sf=%d: bf8 got %02x want %02x, hf8 got %02x want %02x\n", h,
                            MODE_NAME[m], sf, gb, wb, gh, wh);
                }
            }
        }
    }
    /* fp8 -> HF exact, round trip */
    for (uint32_t b = 0; b < 256; b++) {
        uint16_t h1 = emu_bf8_to_hf((uint8_t)b, 0), h2 = emu_hf8_to_hf((uint8_t)b, 0);
        int nan1 = (b & 0x7C) == 0x7C && (b & 3), nan2 = (b & 0x7F) == 0x7F;
        if (!nan1) {
            if (h1 != b << 8 || emu_hf_to_bf8(h1, 0) != b) bad++;
        } else if (h1 != ((b << 8) | 0x200)) bad++;
        if (!nan2) {
            double v = hf8_val(b & 0x7F) * ((b & 0x80) ? -1.0 : 1.0);
            if (bd(emu_hf_to_df(h2, 0)) != v || emu_hf_to_hf8(h2, 0) != b) bad++;
            if ((b == 0x80) != (h2 == 0x8000)) bad++;
        } else if ((h2 & 0x7FFF) != 0x7F80) bad++;
        if (bad) {
            fprintf(stderr, "fp8 byte %02x\n", b);
            break;
        }
    }
    CHECK(bad == 0);
    CASE_END("fp8 exhaustive vs table reference");
}

/* TF32 against an independent bit-neighbour reference (truncate, +1 ulp, compare in double). */
static void test_tf32_random(void) {
    CASE_BEGIN();
    int bad = 0;
    const uint32_t fl = EMU_RNE | EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT;
    for (int n = 0; n < 1000000 && bad < 10; n++) {
        uint32_t f = rand_f32(1, 254, 13);
        uint32_t a = f & 0x7FFFFFFFu, want;
        if (a > 0x7F800000u) want = (f & 0xFFFFE000u) | 0x00400000u;
        else if (a == 0x7F800000u || a < 0x00800000u) want = a < 0x00800000u ? f & 0x80000000u : f;
        else {
            uint32_t lo = f & 0xFFFFE000u, hi = lo + 0x2000u;
            double x = fabs((double)bf_(f)), dlo = fabs((double)bf_(lo)), dhi = fabs((double)bf_(hi));
            if ((hi & 0x7FFFFFFFu) == 0x7F800000u) dhi = 0x1p128;
            if (x - dlo < dhi - x) want = lo;
            else if (x - dlo > dhi - x) want = hi;
            else want = (lo & 0x2000u) ? hi : lo;
        }
        uint32_t got = emu_f_to_tf32(f, fl);
        if (got != want) {
            bad++;
            fprintf(stderr, "F %08x -> TF32: got %08x want %08x\n", f, got, want);
        }
    }
    CHECK(bad == 0);
    CASE_END("F->TF32 random vs reference");
}

/* emu_convert_select agrees with emu_convert on every supported pair and several flag sets. */
static void test_select(void) {
    static const uint32_t flagsets[] = {0,
                                        EMU_CVT_SAT,
                                        EMU_RU | EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT,
                                        EMU_RD | EMU_CVT_SAT | EMU_CVT_SATFINITE,
                                        EMU_RTZ,
                                        EMU_RNE | EMU_CVT_FTZ_OUT};
    CASE_BEGIN();
    int bad = 0, pairs = 0;
    for (int d = 0; d < VISA_TYPE__COUNT; d++) {
        for (int s = 0; s < VISA_TYPE__COUNT; s++) {
            int ok = emu_convert_supported((isa_type)d) && emu_convert_supported((isa_type)s);
            for (unsigned k = 0; k < sizeof flagsets / sizeof flagsets[0]; k++) {
                emu_convert_fn fn = emu_convert_select((isa_type)d, (isa_type)s, flagsets[k]);
                if (!ok) {
                    unsigned char in[8] = {0}, out[8];
                    if (fn != NULL || emu_convert((isa_type)d, out, (isa_type)s, in, 0) != -1) bad++;
                    continue;
                }
                if (!fn) {
                    bad++;
                    continue;
                }
                pairs++;
                for (int n = 0; n < 300; n++) {
                    uint64_t r = rnd64();
                    if (n < 8)
                        r = (uint64_t[]){0,      1,           0x8000000000000000u, 0x7FF0000000000000u,
                                         0x7C00, 0x7F800000u, 0xFFFFFFFFFFFFFFFFu, 0x3C00}[n];
                    unsigned char in[8], o1[8] = {0}, o2[8] = {0};
                    memcpy(in, &r, 8);
                    fn(o1, in, flagsets[k]);
                    if (emu_convert((isa_type)d, o2, (isa_type)s, in, flagsets[k]) != 0) bad++;
                    if (memcmp(o1, o2, 8) != 0) bad++;
                }
            }
        }
    }
    CHECK(bad == 0);
    CHECK(pairs == 15 * 15 * 6);
    CHECK(!emu_convert_supported(VISA_TYPE_E2M1));
    CHECK(!emu_convert_supported(VISA_TYPE_BOOL));
    CHECK(!emu_convert_supported(VISA_TYPE_VF));
    CHECK(!emu_convert_supported((isa_type)VISA_TYPE__COUNT));
    CASE_END("select == reference, all pairs");
}

static void test_cr0(void) {
    CASE_BEGIN();
    CHECK(emu_cr0_round(0x00) == EMU_RNE);
    CHECK(emu_cr0_round(0x10) == EMU_RU);
    CHECK(emu_cr0_round(0x20) == EMU_RD);
    CHECK(emu_cr0_round(0x30) == EMU_RTZ);
    CHECK(emu_cr0_round(0xFFFFFFCFu) == EMU_RNE);
    CHECK(emu_cr0_alt(1) && !emu_cr0_alt(0x4F0));
    CHECK(emu_cr0_keep_denorms(0x40, VISA_TYPE_DF) && !emu_cr0_keep_denorms(0x40, VISA_TYPE_F));
    CHECK(emu_cr0_keep_denorms(0x80, VISA_TYPE_F) && !emu_cr0_keep_denorms(0x80, VISA_TYPE_HF));
    CHECK(emu_cr0_keep_denorms(0x400, VISA_TYPE_HF) && !emu_cr0_keep_denorms(0x400, VISA_TYPE_DF));
    CHECK(emu_cr0_keep_denorms(0, VISA_TYPE_BF) && !emu_cr0_keep_denorms(0x4F0, VISA_TYPE_TF32));
    /* MOV F -> HF with cr0 = RTZ, F denorms kept, HF denorms flushed */
    CHECK(emu_cr0_cvt_flags(0x30 | 0x80, VISA_TYPE_HF, VISA_TYPE_F) == (EMU_RTZ | EMU_CVT_FTZ_OUT));
    CHECK(emu_cr0_cvt_flags(0, VISA_TYPE_HF, VISA_TYPE_F) == (EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT));
    CHECK(emu_cr0_cvt_flags(0x4C0, VISA_TYPE_F, VISA_TYPE_DF) == 0);
    CHECK(emu_cr0_cvt_flags(0x4C1, VISA_TYPE_F, VISA_TYPE_DF) == EMU_CVT_SATFINITE);
    CHECK(emu_cr0_cvt_flags(0x20, VISA_TYPE_D, VISA_TYPE_Q) == EMU_RD);
    CHECK(emu_cr0_cvt_flags(0x20, VISA_TYPE_F, VISA_TYPE_D) == (EMU_RD | EMU_CVT_FTZ_OUT));
    CHECK(emu_cr0_cvt_flags(0x30, VISA_TYPE_BF8, VISA_TYPE_HF) == EMU_RNE); /* FCVT: RTE */
    CHECK(emu_cr0_cvt_flags(0x30, VISA_TYPE_HF, VISA_TYPE_BF8) == EMU_RNE);
    CHECK(emu_cr0_cvt_flags(0x4F0, VISA_TYPE_TF32, VISA_TYPE_F) == (EMU_CVT_FTZ_OUT));
    CHECK(emu_cr0_cvt_flags(0x30, VISA_TYPE_TF32, VISA_TYPE_F) == (EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT));
    CHECK(emu_cr0_cvt_flags(0x30, VISA_TYPE_F, VISA_TYPE_TF32) == 0);
    /* an HF denormal under the default %cr0 (flush) */
    uint32_t fl = emu_cr0_cvt_flags(0, VISA_TYPE_F, VISA_TYPE_HF);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_HF, 0x0001, fl) == 0);
    fl = emu_cr0_cvt_flags(EMU_CR0_HF_DENORM, VISA_TYPE_F, VISA_TYPE_HF);
    CHECK(cvt(VISA_TYPE_F, VISA_TYPE_HF, 0x0001, fl) == 0x33800000u);
    CASE_END("cr0");
}

static void test_packed(void) {
    CASE_BEGIN();
    CHECK(emu_v_elem(0x000000F8u, 0) == -8);
    CHECK(emu_v_elem(0x000000F8u, 1) == -1);
    CHECK(emu_v_elem(0x70000000u, 7) == 7);
    CHECK(emu_uv_elem(0xF0000000u, 7) == 15);
    CHECK(emu_uv_elem(0x00000080u, 1) == 8);
    CHECK(emu_vf_elem(0x00000000u, 0) == 0x00000000u);
    CHECK(emu_vf_elem(0x00008000u, 1) == 0x80000000u);
    CHECK(emu_vf_elem(0x00300000u, 2) == 0x3F800000u); /* 1.0 */
    CHECK(emu_vf_elem(0x7F000000u, 3) == 0x41F80000u); /* 31.0 */
    CHECK(emu_vf_elem(0xFF000000u, 3) == 0xC1F80000u); /* -31.0 */
    CHECK(emu_vf_elem(0x00000001u, 0) == 0x3E080000u); /* 1.0625 * 2^-3 */
    CHECK(emu_vf_elem(0x00000040u, 0) == 0x40000000u); /* 2.0 */
    CASE_END("packed immediates");
}

int main(void) {
    reftab_init(&T_HF, hf_val, 0x7BFF, 65536.0, 1, 0x8000, 0x7C00, 0x400);
    reftab_init(&T_BF, bf_val, 0x7F7F, 0x1p128, 1, 0x8000, 0x7F80, 0x80);
    reftab_init(&T_HF8, hf8_val, 0x7E, 480.0, 0, 0x80, 0x7F, 0x08); /* next above 448 is S.1111.111 */
    reftab_init(&T_BF8, bf8_val, 0x7B, 65536.0, 1, 0x80, 0x7C, 0x04);

    test_hf_boundaries();
    test_df_boundaries();
    test_bf_tf32_boundaries();
    test_fp8_boundaries();
    test_srnd();
    test_float_sat();
    test_float_to_int();
    test_float_to_int_random();
    test_int_to_float();
    test_int_sat();
    test_hf_exhaustive();
    test_f_to_hf_random();
    test_df_to_f_random();
    test_fp8_exhaustive();
    test_tf32_random();
    test_select();
    test_cr0();
    test_packed();

    free(T_HF.val);
    free(T_BF.val);
    free(T_HF8.val);
    free(T_BF8.val);
    return th_finish();
}
