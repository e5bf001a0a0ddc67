/* convert.c -- exact conversions between vISA scalar types (see convert.h).
**
** One engine does every float rounding: a source is unpacked into (sign, class, integer
** significand m, exponent e) with value m * 2^e -- exact for every vISA type, floats and 64-bit
** integers alike -- and packed into a destination format described by (exponent bits, fraction
** bits, "FN" = no infinity with only the all-ones encoding as NaN).  Packing computes the
** quantum of the result, shifts the significand to it, rounds per mode on the dropped bits and
** lets a carry ripple into the exponent; overflow and denormal flushing are decided on the
** rounded result.  Integer destinations truncate toward zero and clamp.
**
** The per-pair functions handed out by emu_convert_select are the same inline code instantiated
** with constant types (and, for flags == 0, constant flags), so the switches fold away.
*/
#include "emu/convert.h"

#include <string.h>

#if defined(__GNUC__)
#define CV_INLINE static inline __attribute__((always_inline))
#else
#define CV_INLINE static inline
#endif

/* -- Type properties (switches, so constant types fold) ---------------------------------------- */
CV_INLINE unsigned ty_bytes(isa_type t) {
    switch (t) {
    case VISA_TYPE_UB:
    case VISA_TYPE_B:
    case VISA_TYPE_HF8:
    case VISA_TYPE_BF8:
    case VISA_TYPE_E2M1:
    case VISA_TYPE_BOOL: return 1;
    case VISA_TYPE_UW:
    case VISA_TYPE_W:
    case VISA_TYPE_HF:
    case VISA_TYPE_BF: return 2;
    case VISA_TYPE_UQ:
    case VISA_TYPE_Q:
    case VISA_TYPE_DF: return 8;
    default: return 4;
    }
}

CV_INLINE bool ty_is_int(isa_type t) {
    switch (t) {
    case VISA_TYPE_UB:
    case VISA_TYPE_B:
    case VISA_TYPE_UW:
    case VISA_TYPE_W:
    case VISA_TYPE_UD:
    case VISA_TYPE_D:
    case VISA_TYPE_UQ:
    case VISA_TYPE_Q: return true;
    default: return false;
    }
}

CV_INLINE bool ty_is_signed(isa_type t) {
    return t == VISA_TYPE_B || t == VISA_TYPE_W || t == VISA_TYPE_D || t == VISA_TYPE_Q;
}

CV_INLINE bool ty_is_float(isa_type t) {
    switch (t) {
    case VISA_TYPE_DF:
    case VISA_TYPE_F:
    case VISA_TYPE_HF:
    case VISA_TYPE_BF:
    case VISA_TYPE_TF32:
    case VISA_TYPE_HF8:
    case VISA_TYPE_BF8: return true;
    default: return false;
    }
}

/* Float format of t: exponent bits, fraction bits, FN (no inf; NaN only all-ones). */
typedef struct ffmt {
    int eb, mb;
    bool fn;
} ffmt;

CV_INLINE ffmt ty_fmt(isa_type t) {
    switch (t) {
    case VISA_TYPE_DF: return (ffmt){11, 52, false};
    case VISA_TYPE_HF: return (ffmt){5, 10, false};
    case VISA_TYPE_BF: return (ffmt){8, 7, false};
    case VISA_TYPE_TF32: return (ffmt){8, 10, false}; /* stored in an F, low 13 bits zero */
    case VISA_TYPE_HF8: return (ffmt){4, 3, true};
    case VISA_TYPE_BF8: return (ffmt){5, 2, false};
    default: return (ffmt){8, 23, false}; /* F */
    }
}

CV_INLINE int clz64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* -- Raw element access ------------------------------------------------------------------------- */
CV_INLINE uint64_t load_raw(isa_type t, const void *src) {
    switch (ty_bytes(t)) {
    case 1: {
        uint8_t v;
        memcpy(&v, src, 1);
        return v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, src, 2);
        return v;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, src, 8);
        return v;
    }
    default: {
        uint32_t v;
        memcpy(&v, src, 4);
        return v;
    }
    }
}

CV_INLINE void store_raw(isa_type t, void *dst, uint64_t bits) {
    switch (ty_bytes(t)) {
    case 1: {
        uint8_t v = (uint8_t)bits;
        memcpy(dst, &v, 1);
        break;
    }
    case 2: {
        uint16_t v = (uint16_t)bits;
        memcpy(dst, &v, 2);
        break;
    }
    case 8: memcpy(dst, &bits, 8); break;
    default: {
        uint32_t v = (uint32_t)bits;
        memcpy(dst, &v, 4);
        break;
    }
    }
}

CV_INLINE uint64_t width_mask(isa_type t) {
    unsigned b = ty_bytes(t);
    return b == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * b)) - 1);
}

/* Sign- or zero-extend a t-width pattern. */
CV_INLINE uint64_t int_extend(isa_type t, uint64_t bits) {
    unsigned w = 8 * ty_bytes(t);
    bits &= width_mask(t);
    if (ty_is_signed(t) && w < 64 && (bits >> (w - 1)) & 1) bits |= ~(uint64_t)0 << w;
    return bits;
}

/* Clamp the value (neg ? -mag : mag) to t's range; `over` means |value| >= 2^64. */
CV_INLINE uint64_t int_clamp(isa_type t, bool neg, uint64_t mag, bool over) {
    unsigned w = 8 * ty_bytes(t);
    if (ty_is_signed(t)) {
        uint64_t lim = (uint64_t)1 << (w - 1); /* |min|; max = lim - 1 */
        uint64_t v;
        if (neg) v = (over || mag >= lim) ? (uint64_t)0 - lim : (uint64_t)0 - mag;
        else v = (over || mag >= lim) ? lim - 1 : mag;
        return v & width_mask(t);
    }
    if (neg) return 0;
    return (over || mag > width_mask(t)) ? width_mask(t) : mag;
}

/* -- Unpacked values ---------------------------------------------------------------------------- */
enum { U_ZERO, U_FIN, U_INF, U_NAN };

typedef struct unp {
    uint64_t mant; /* U_FIN: nonzero significand, value = mant * 2^exp; U_NAN: fraction
                      left-aligned (bit 63 = the quiet bit) */
    int32_t exp;
    uint8_t cls, neg;
} unp;

CV_INLINE unp unpack_float(uint64_t bits, ffmt f, bool ftz) {
    unp u;
    const int bias = (1 << (f.eb - 1)) - 1;
    const uint64_t fracall = ((uint64_t)1 << f.mb) - 1;
    const unsigned expall = (1u << f.eb) - 1;
    uint64_t frac = bits & fracall;
    unsigned e = (unsigned)(bits >> f.mb) & expall;
    u.neg = (uint8_t)((bits >> (f.eb + f.mb)) & 1);
    u.exp = 0;
    u.mant = 0;
    if (e == expall && (!f.fn || frac == fracall)) {
        if (!f.fn && frac == 0) {
            u.cls = U_INF;
        } else {
            u.cls = U_NAN;
            u.mant = frac << (64 - f.mb);
        }
    } else if (e == 0) {
        if (frac == 0 || ftz) {
            u.cls = U_ZERO;
        } else {
            u.cls = U_FIN;
            u.mant = frac;
            u.exp = 1 - bias - f.mb;
        }
    } else {
        u.cls = U_FIN;
        u.mant = frac | ((uint64_t)1 << f.mb);
        u.exp = (int32_t)e - bias - f.mb;
    }
    return u;
}

CV_INLINE unp unpack_int(bool neg, uint64_t mag) {
    unp u;
    u.neg = (uint8_t)neg;
    u.exp = 0;
    u.mant = mag;
    u.cls = mag ? U_FIN : U_ZERO;
    if (!mag) u.neg = 0;
    return u;
}

/* Load element of type t as an unpacked value (FTZ_IN flushes float denormals). */
CV_INLINE unp load_unp(isa_type t, const void *src, uint32_t flags) {
    uint64_t raw = load_raw(t, src);
    if (ty_is_int(t)) {
        uint64_t v = int_extend(t, raw);
        bool neg = ty_is_signed(t) && (int64_t)v < 0;
        return unpack_int(neg, neg ? (uint64_t)0 - v : v);
    }
    if (t == VISA_TYPE_TF32) t = VISA_TYPE_F; /* a TF32 is a valid F */
    return unpack_float(raw, ty_fmt(t), (flags & EMU_CVT_FTZ_IN) != 0);
}

/* Pack u into format f with rounding; returns the format's bit pattern. */
CV_INLINE uint64_t pack_float(const unp *u, ffmt f, uint32_t flags) {
    const int bias = (1 << (f.eb - 1)) - 1;
    const uint64_t expall = ((uint64_t)1 << f.eb) - 1;
    const uint64_t fracall = ((uint64_t)1 << f.mb) - 1;
    const uint64_t maxfin = f.fn ? ((expall << f.mb) | (fracall - 1)) : (((expall - 1) << f.mb) | fracall);
    const uint64_t infbits = f.fn ? ((expall << f.mb) | fracall) : (expall << f.mb); /* FN: NaN */
    const uint64_t sign = (uint64_t)u->neg << (f.eb + f.mb);
    const unsigned rm = flags & EMU_CVT_RM_MASK;
    const bool neg = u->neg != 0;

    switch (u->cls) {
    case U_ZERO: return sign;
    case U_NAN:
        if (f.fn) return sign | (expall << f.mb) | fracall;
        return sign | (expall << f.mb) | (u->mant >> (64 - f.mb)) | ((uint64_t)1 << (f.mb - 1));
    case U_INF: return sign | ((flags & EMU_CVT_SATFINITE) ? maxfin : infbits);
    default: break;
    }

    const int emax = f.fn ? (int)expall - bias : (int)expall - 1 - bias;
    const int emin = 1 - bias;
    const int p = 64 - clz64(u->mant); /* significant bits */
    const int E = u->exp + p - 1; /* exponent of the leading bit */
    uint64_t mag;
    if (E > emax) goto overflow;
    {
        const int q = (E > emin ? E : emin) - f.mb; /* exponent of the result's last bit */
        const int sh = q - u->exp;
        uint64_t r;
        if (sh <= 0) {
            r = u->mant << -sh; /* exact: at most mb + 1 bits */
        } else {
            uint64_t rem, half;
            if (sh > 64) {
                r = 0, rem = 1, half = 2; /* nonzero, below half an ulp */
            } else if (sh == 64) {
                r = 0, rem = u->mant, half = (uint64_t)1 << 63;
            } else {
                r = u->mant >> sh;
                rem = u->mant & (((uint64_t)1 << sh) - 1);
                half = (uint64_t)1 << (sh - 1);
            }
            bool up;
            switch (rm) {
            case EMU_RNE: up = rem > half || (rem == half && (r & 1)); break;
            case EMU_RU: up = rem != 0 && !neg; break;
            case EMU_RD: up = rem != 0 && neg; break;
            default: up = false; break;
            }
            r += up;
        }
        /* (biased exponent - 1) << mb plus r: r's hidden bit adds the missing 1 for normals,
        ** denormals have q + mb + bias - 1 == 0, and a rounding carry bumps the exponent. */
        mag = ((uint64_t)(q + f.mb + bias - 1) << f.mb) + r;
    }
    if (mag > maxfin) goto overflow;
    if ((flags & EMU_CVT_FTZ_OUT) && mag <= fracall) mag = 0;
    return sign | mag;
overflow:;
    const bool to_max = (flags & EMU_CVT_SATFINITE) || rm == EMU_RTZ || (rm == EMU_RU && neg) || (rm == EMU_RD && !neg);
    return sign | (to_max ? maxfin : infbits);
}

/* Saturate a bit pattern of format f to [0.0, 1.0]; NaN and anything negative give +0. */
CV_INLINE uint64_t sat_float(uint64_t bits, ffmt f) {
    const int bias = (1 << (f.eb - 1)) - 1;
    const uint64_t fracall = ((uint64_t)1 << f.mb) - 1;
    const uint64_t expall = ((uint64_t)1 << f.eb) - 1;
    const uint64_t one = (uint64_t)bias << f.mb;
    uint64_t mag = bits & ((expall << f.mb) | fracall);
    bool nan = f.fn ? mag == ((expall << f.mb) | fracall) : mag > (expall << f.mb);
    if (nan || ((bits >> (f.eb + f.mb)) & 1)) return 0;
    return mag > one ? one : mag;
}

/* Truncate toward zero and clamp an unpacked float to integer type t; NaN -> 0. */
CV_INLINE uint64_t unp_to_int(isa_type t, const unp *u) {
    switch (u->cls) {
    case U_NAN:
    case U_ZERO: return 0;
    case U_INF: return int_clamp(t, u->neg, 0, true);
    default: break;
    }
    uint64_t mag = 0;
    bool over = false;
    if (u->exp >= 0) {
        int p = 64 - clz64(u->mant);
        if (p + u->exp > 64) over = true;
        else mag = u->mant << u->exp;
    } else if (-u->exp < 64) {
        mag = u->mant >> -u->exp;
    }
    return int_clamp(t, u->neg, mag, over);
}

CV_INLINE uint64_t unp_to_float(isa_type t, const unp *u, uint32_t flags) {
    uint64_t bits = pack_float(u, ty_fmt(t), flags);
    if (flags & EMU_CVT_SAT) bits = sat_float(bits, ty_fmt(t));
    if (t == VISA_TYPE_TF32) bits <<= 13; /* E8M10 in the top 19 bits of an F */
    return bits;
}

/* -- The conversion, for inlining with constant types ----------------------------------------- */
CV_INLINE void convert_inline(isa_type dt, void *dst, isa_type st, const void *src, uint32_t flags) {
    if (dt == st && !(flags & EMU_CVT_SAT)) { /* raw move: bits unchanged */
        store_raw(dt, dst, load_raw(st, src));
        return;
    }
    if (ty_is_int(dt) && ty_is_int(st)) {
        uint64_t v = int_extend(st, load_raw(st, src));
        if (flags & EMU_CVT_SAT) {
            bool neg = ty_is_signed(st) && (int64_t)v < 0;
            v = int_clamp(dt, neg, neg ? (uint64_t)0 - v : v, false);
        }
        store_raw(dt, dst, v);
        return;
    }
    unp u = load_unp(st, src, flags);
    if (ty_is_int(dt)) store_raw(dt, dst, unp_to_int(dt, &u));
    else store_raw(dt, dst, unp_to_float(dt, &u, flags));
}

/* -- Per-pair instances ------------------------------------------------------------------------- */
#define CV_TYPES(X) X(UD) X(D) X(UW) X(W) X(UB) X(B) X(DF) X(F) X(UQ) X(Q) X(HF) X(BF) X(TF32) X(HF8) X(BF8)
#define CV_SRCS(M, DT)                                                                                       \
    M(DT, UD)                                                                                                \
    M(DT, D) M(DT, UW) M(DT, W) M(DT, UB) M(DT, B) M(DT, DF) M(DT, F) M(DT, UQ) M(DT, Q) M(DT, HF) M(DT, BF) \
        M(DT, TF32) M(DT, HF8) M(DT, BF8)

/* Generic in flags, and flags == 0 (RNE, no FTZ, no saturation) with the flags folded. */
#define CV_DEF(DT, ST)                                                \
    static void cv_##DT##_##ST(void *d, const void *s, uint32_t f) {  \
        convert_inline(VISA_TYPE_##DT, d, VISA_TYPE_##ST, s, f);      \
    }                                                                 \
    static void cv0_##DT##_##ST(void *d, const void *s, uint32_t f) { \
        (void)f;                                                      \
        convert_inline(VISA_TYPE_##DT, d, VISA_TYPE_##ST, s, 0);      \
    }
#define CV_DEF_ROW(DT) CV_SRCS(CV_DEF, DT)
CV_TYPES(CV_DEF_ROW)

#define CV_ENT(DT, ST) [VISA_TYPE_##DT][VISA_TYPE_##ST] = cv_##DT##_##ST,
#define CV_ENT_ROW(DT) CV_SRCS(CV_ENT, DT)
static const emu_convert_fn cv_table[VISA_TYPE__COUNT][VISA_TYPE__COUNT] = {CV_TYPES(CV_ENT_ROW)};

#define CV_ENT0(DT, ST) [VISA_TYPE_##DT][VISA_TYPE_##ST] = cv0_##DT##_##ST,
#define CV_ENT0_ROW(DT) CV_SRCS(CV_ENT0, DT)
static const emu_convert_fn cv0_table[VISA_TYPE__COUNT][VISA_TYPE__COUNT] = {CV_TYPES(CV_ENT0_ROW)};

static void cv_copy1(void *d, const void *s, uint32_t f) {
    (void)f;
    memcpy(d, s, 1);
}
static void cv_copy2(void *d, const void *s, uint32_t f) {
    (void)f;
    memcpy(d, s, 2);
}
static void cv_copy4(void *d, const void *s, uint32_t f) {
    (void)f;
    memcpy(d, s, 4);
}
static void cv_copy8(void *d, const void *s, uint32_t f) {
    (void)f;
    memcpy(d, s, 8);
}

bool emu_convert_supported(isa_type t) { return (unsigned)t < VISA_TYPE__COUNT && cv_table[t][t] != NULL; }

int emu_convert(isa_type dst_type, void *dst, isa_type src_type, const void *src, uint32_t flags) {
    if (!emu_convert_supported(dst_type) || !emu_convert_supported(src_type)) return -1;
    /* The reference path: one out-of-line instance, types dispatched at run time. */
    switch (dst_type) {
#define CV_REF_DST(DT)                                                      \
    case VISA_TYPE_##DT:                                                    \
        switch (src_type) { CV_SRCS(CV_REF_CASE, DT) default : return -1; } \
        return 0;
#define CV_REF_CASE(DT, ST) \
    case VISA_TYPE_##ST: cv_##DT##_##ST(dst, src, flags); break;
        CV_TYPES(CV_REF_DST)
    default: return -1;
    }
}

emu_convert_fn emu_convert_select(isa_type dst_type, isa_type src_type, uint32_t flags) {
    if (!emu_convert_supported(dst_type) || !emu_convert_supported(src_type)) return NULL;
    if (dst_type == src_type && !(flags & EMU_CVT_SAT)) {
        switch (ty_bytes(dst_type)) {
        case 1: return cv_copy1;
        case 2: return cv_copy2;
        case 8: return cv_copy8;
        default: return cv_copy4;
        }
    }
    return flags == 0 ? cv0_table[dst_type][src_type] : cv_table[dst_type][src_type];
}

/* -- %cr0 ---------------------------------------------------------------------------------------- */
emu_round emu_cr0_round(uint32_t cr0) { return (emu_round)((cr0 & EMU_CR0_RM_MASK) >> EMU_CR0_RM_SHIFT); }

bool emu_cr0_alt(uint32_t cr0) { return (cr0 & EMU_CR0_ALT_F) != 0; }

bool emu_cr0_keep_denorms(uint32_t cr0, isa_type t) {
    switch (t) {
    case VISA_TYPE_DF: return (cr0 & EMU_CR0_DF_DENORM) != 0;
    case VISA_TYPE_F: return (cr0 & EMU_CR0_F_DENORM) != 0;
    case VISA_TYPE_HF: return (cr0 & EMU_CR0_HF_DENORM) != 0;
    case VISA_TYPE_TF32: return false; /* FCVT: "Denorms are flushed to zero" */
    default: return true; /* BF, HF8, BF8: no %cr0 bit; kept */
    }
}

uint32_t emu_cr0_cvt_flags(uint32_t cr0, isa_type dst, isa_type src) {
    if (src == VISA_TYPE_TF32 && dst == VISA_TYPE_F) return 0; /* FCVT: a no-op */
    uint32_t f = (uint32_t)emu_cr0_round(cr0);
    bool fp8 = dst == VISA_TYPE_HF8 || dst == VISA_TYPE_BF8 || src == VISA_TYPE_HF8 || src == VISA_TYPE_BF8;
    if (fp8 || dst == VISA_TYPE_TF32) f = EMU_RNE; /* FCVT: RTE, fp8 denorms retained */
    if (!fp8) {
        if (ty_is_float(src) && !emu_cr0_keep_denorms(cr0, src)) f |= EMU_CVT_FTZ_IN;
        if (ty_is_float(dst) && !emu_cr0_keep_denorms(cr0, dst)) f |= EMU_CVT_FTZ_OUT;
    }
    if (dst == VISA_TYPE_F && emu_cr0_alt(cr0)) f |= EMU_CVT_SATFINITE;
    return f;
}

/* -- Named float conversions ---------------------------------------------------------------------- */
#define CV_NAMED(name, DT, dty, ST, sty)                                 \
    dty name(sty x, uint32_t flags) {                                    \
        dty out;                                                         \
        convert_inline(VISA_TYPE_##DT, &out, VISA_TYPE_##ST, &x, flags); \
        return out;                                                      \
    }
CV_NAMED(emu_f_to_hf, HF, uint16_t, F, uint32_t)
CV_NAMED(emu_hf_to_f, F, uint32_t, HF, uint16_t)
CV_NAMED(emu_df_to_hf, HF, uint16_t, DF, uint64_t)
CV_NAMED(emu_hf_to_df, DF, uint64_t, HF, uint16_t)
CV_NAMED(emu_f_to_bf, BF, uint16_t, F, uint32_t)
CV_NAMED(emu_bf_to_f, F, uint32_t, BF, uint16_t)
CV_NAMED(emu_df_to_bf, BF, uint16_t, DF, uint64_t)
CV_NAMED(emu_bf_to_df, DF, uint64_t, BF, uint16_t)
CV_NAMED(emu_df_to_f, F, uint32_t, DF, uint64_t)
CV_NAMED(emu_f_to_df, DF, uint64_t, F, uint32_t)
CV_NAMED(emu_f_to_tf32, TF32, uint32_t, F, uint32_t)
CV_NAMED(emu_hf_to_bf8, BF8, uint8_t, HF, uint16_t)
CV_NAMED(emu_bf8_to_hf, HF, uint16_t, BF8, uint8_t)
CV_NAMED(emu_hf_to_hf8, HF8, uint8_t, HF, uint16_t)
CV_NAMED(emu_hf8_to_hf, HF, uint16_t, HF8, uint8_t)

/* -- Stochastic rounding (SRND) ------------------------------------------------------------------ */
uint16_t emu_srnd_f_to_hf(uint32_t f, uint32_t rnd) {
    uint32_t a = f & 0x7FFFFFFFu;
    uint16_t sign = (uint16_t)((f >> 16) & 0x8000u);
    if (a >= 0x7F800000u) return emu_f_to_hf(f, EMU_RNE); /* NaN (quieted) and inf */
    a += rnd & 0x1FFFu; /* a carry out of the fraction normalises into the exponent */
    if (a >= 0x47800000u) return (uint16_t)(sign | 0x7C00u); /* >= 2^16: beyond HF, inf */
    return (uint16_t)(sign | emu_f_to_hf(a, EMU_RTZ));
}

uint8_t emu_srnd_hf_to_bf8(uint16_t h, uint32_t rnd) {
    uint32_t a = h & 0x7FFFu;
    uint8_t sign = (uint8_t)((h >> 8) & 0x80u);
    if (a >= 0x7C00u) return emu_hf_to_bf8(h, EMU_RNE); /* NaN (quieted) and inf */
    a += rnd & 0xFFu;
    if (a >= 0x7C00u) return (uint8_t)(sign | 0x7Cu);
    return (uint8_t)(sign | (a >> 8)); /* BF8 is the top byte of an HF: truncation */
}

/* -- Integer <-> float ---------------------------------------------------------------------------- */
uint64_t emu_s64_to_float(isa_type dst, int64_t v, uint32_t flags) {
    unsigned char out[8];
    if (!ty_is_float(dst) || emu_convert(dst, out, VISA_TYPE_Q, &v, flags)) return 0;
    return load_raw(dst, out);
}

uint64_t emu_u64_to_float(isa_type dst, uint64_t v, uint32_t flags) {
    unsigned char out[8];
    if (!ty_is_float(dst) || emu_convert(dst, out, VISA_TYPE_UQ, &v, flags)) return 0;
    return load_raw(dst, out);
}

uint64_t emu_float_to_int(isa_type dst, isa_type src, uint64_t bits, uint32_t flags) {
    unsigned char in[8], out[8];
    if (!ty_is_int(dst) || !ty_is_float(src)) return 0;
    store_raw(src, in, bits);
    if (emu_convert(dst, out, src, in, flags)) return 0;
    return load_raw(dst, out);
}

/* -- Integer narrowing and saturation ------------------------------------------------------------- */
int64_t emu_int_min(isa_type t) {
    if (!ty_is_signed(t)) return 0;
    return (int64_t)int_extend(t, (uint64_t)1 << (8 * ty_bytes(t) - 1));
}

uint64_t emu_int_max(isa_type t) { return ty_is_signed(t) ? width_mask(t) >> 1 : width_mask(t); }

uint64_t emu_int_wrap(isa_type t, uint64_t v) { return v & width_mask(t); }

uint64_t emu_int_sat_s64(isa_type t, int64_t v) {
    return int_clamp(t, v < 0, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, false);
}

uint64_t emu_int_sat_u64(isa_type t, uint64_t v) { return int_clamp(t, false, v, false); }

uint64_t emu_int_extend(isa_type t, uint64_t bits) { return int_extend(t, bits); }

uint64_t emu_load_bits(isa_type t, const void *src) { return load_raw(t, src); }

void emu_store_bits(isa_type t, void *dst, uint64_t bits) { store_raw(t, dst, bits); }

/* -- Wide integers -------------------------------------------------------------------------------- */
static emu_wide wide_norm(emu_wide a) {
    if (!a.lo && !a.hi) a.neg = false;
    return a;
}

emu_wide emu_wide_s64(int64_t v) {
    emu_wide w = {v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, 0, v < 0};
    return w;
}

emu_wide emu_wide_u64(uint64_t v) {
    emu_wide w = {v, 0, false};
    return w;
}

emu_wide emu_wide_of(isa_type t, uint64_t bits) {
    uint64_t v = int_extend(t, bits);
    return ty_is_signed(t) ? emu_wide_s64((int64_t)v) : emu_wide_u64(v);
}

emu_wide emu_wide_neg(emu_wide a) {
    a.neg = !a.neg;
    return wide_norm(a);
}

/* Compare magnitudes. */
static int mag_cmp(emu_wide a, emu_wide b) {
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

emu_wide emu_wide_add(emu_wide a, emu_wide b) {
    emu_wide r;
    if (a.neg == b.neg) {
        r.lo = a.lo + b.lo;
        r.hi = a.hi + b.hi + (r.lo < a.lo);
        r.neg = a.neg;
    } else {
        if (mag_cmp(a, b) < 0) {
            emu_wide t = a;
            a = b;
            b = t;
        }
        r.lo = a.lo - b.lo;
        r.hi = a.hi - b.hi - (a.lo < b.lo);
        r.neg = a.neg;
    }
    return wide_norm(r);
}

emu_wide emu_wide_sub(emu_wide a, emu_wide b) { return emu_wide_add(a, emu_wide_neg(b)); }

/* 64 x 64 -> 128 unsigned. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

emu_wide emu_wide_mul(emu_wide a, emu_wide b) {
    emu_wide r;
    mul64(a.lo, b.lo, &r.hi, &r.lo);
    r.hi += a.hi * b.lo + a.lo * b.hi;
    r.neg = a.neg != b.neg;
    return wide_norm(r);
}

emu_wide emu_wide_shl(emu_wide a, unsigned n) {
    n &= 127;
    if (n >= 64) {
        a.hi = a.lo << (n - 64);
        a.lo = 0;
    } else if (n) {
        a.hi = (a.hi << n) | (a.lo >> (64 - n));
        a.lo <<= n;
    }
    return wide_norm(a);
}

int emu_wide_cmp(emu_wide a, emu_wide b) {
    if (a.neg != b.neg) return a.neg ? -1 : 1;
    int c = mag_cmp(a, b);
    return a.neg ? -c : c;
}

uint64_t emu_wide_wrap(isa_type t, emu_wide a) { return (a.neg ? (uint64_t)0 - a.lo : a.lo) & width_mask(t); }

uint64_t emu_wide_sat(isa_type t, emu_wide a) { return int_clamp(t, a.neg, a.lo, a.hi != 0); }

/* -- Float saturation ----------------------------------------------------------------------------- */
uint64_t emu_float_sat(isa_type t, uint64_t bits) {
    if (!ty_is_float(t)) return bits;
    if (t == VISA_TYPE_TF32) return sat_float(bits, ty_fmt(VISA_TYPE_F));
    return sat_float(bits, ty_fmt(t));
}

float emu_sat_f32(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    b = (uint32_t)sat_float(b, ty_fmt(VISA_TYPE_F));
    memcpy(&x, &b, 4);
    return x;
}

double emu_sat_f64(double x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    b = sat_float(b, ty_fmt(VISA_TYPE_DF));
    memcpy(&x, &b, 8);
    return x;
}

/* -- Packed immediates ---------------------------------------------------------------------------- */
int8_t emu_v_elem(uint32_t imm, unsigned i) {
    int v = (int)((imm >> (4 * (i & 7))) & 0xFu);
    return (int8_t)(v >= 8 ? v - 16 : v);
}

uint8_t emu_uv_elem(uint32_t imm, unsigned i) { return (uint8_t)((imm >> (4 * (i & 7))) & 0xFu); }

uint32_t emu_vf_elem(uint32_t imm, unsigned i) {
    uint32_t vf = (imm >> (8 * (i & 3))) & 0xFFu;
    uint32_t sign = (vf >> 7) << 31;
    if ((vf & 0x7Fu) == 0) return sign; /* +-0 */
    uint32_t e = (vf >> 4) & 7u, m = vf & 0xFu;
    return sign | ((e + 127u - 3u) << 23) | (m << 19);
}
