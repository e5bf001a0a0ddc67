/* access.c -- operand loaders and storers (access.h): one per (element type, compute class) and
** per special operand (predicates, address and state variables, %ce0), chosen at lowering.
**
** Every lane is read into its compute class (int64 or double) and written back converted and
** saturated; float to integer truncates toward zero and clamps (NaN gives 0), integer to float
** rounds to nearest even (spec 2_datatypes).  No name, type or declaration is looked up while
** running; the only per-lane branches are the enable mask.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "convert.h"

void emu_fault_report(emu_thread *t, emu_diag_id d, const char *fmt, unsigned lane, ...) {
    if (t->fault) return;
    t->fault = 1;
    t->fault_lane = lane;
    t->fault_diag = d;
    va_list ap;
    va_start(ap, lane);
    vsnprintf(t->fault_msg, sizeof t->fault_msg, fmt, ap);
    va_end(ap);
    t->done = true;
}

/* -- Half and bfloat16: through the conversion library (one rounding from double) ------------- */
static inline double hf_to_d(uint16_t h) {
    uint32_t b = emu_hf_to_f(h, 0);
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline double bf_to_d(uint16_t h) {
    uint32_t b = emu_bf_to_f(h, 0);
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline uint16_t d_to_hf(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return emu_df_to_hf(b, EMU_RNE);
}
static inline uint16_t d_to_bf(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return emu_df_to_bf(b, EMU_RNE);
}

/* -- Element conversions between storage and compute class --------------------------------------
** Float to integer truncates toward zero, clamps to the destination range, NaN gives 0
** (spec 2_datatypes); integer to float rounds to nearest even. */
static int64_t f_to_i(double v, int64_t lo, int64_t hi) {
    if (v != v) return 0;
    if (v <= (double)lo) return lo;
    if (v >= (double)hi) return hi;
    return (int64_t)v;
}

/* An exact integer to a double, rounded once to nearest even (via the conversion library). */
static double i_to_d(emu_i128 v) {
    uint64_t bits;
    if (v >= INT64_MIN && v <= INT64_MAX) bits = emu_s64_to_float(VISA_TYPE_DF, (int64_t)v, EMU_RNE);
    else if (v >= 0 && v <= (emu_i128)UINT64_MAX) bits = emu_u64_to_float(VISA_TYPE_DF, (uint64_t)v, EMU_RNE);
    else return (double)v;
    double d;
    memcpy(&d, &bits, 8);
    return d;
}
static uint64_t f_to_u64(double v) {
    if (v != v || v <= 0) return 0;
    if (v >= 18446744073709551615.0) return UINT64_MAX;
    return (uint64_t)v;
}

/* Integer types up to 32 bits convert to double exactly; q and uq round once (i_to_d). */
#define ELEM_TYPES(X)                   \
    X(UD, uint32_t, 0, 0xFFFFFFFFll)    \
    X(D, int32_t, INT32_MIN, INT32_MAX) \
    X(UW, uint16_t, 0, 0xFFFF)          \
    X(W, int16_t, INT16_MIN, INT16_MAX) \
    X(UB, uint8_t, 0, 0xFF)             \
    X(B, int8_t, INT8_MIN, INT8_MAX)    \
    X(Q, int64_t, INT64_MIN, INT64_MAX)

/* Read element k of an operand (byte address p) into the compute class. */
#define DEF_INT_RW(N, CT, LO, HI)                                                                   \
    static inline emu_val rd_##N##_i(const uint8_t *p) {                                            \
        CT v;                                                                                       \
        memcpy(&v, p, sizeof v);                                                                    \
        emu_val r;                                                                                  \
        r.i = (int64_t)v;                                                                           \
        return r;                                                                                   \
    }                                                                                               \
    static inline emu_val rd_##N##_f(const uint8_t *p) {                                            \
        CT v;                                                                                       \
        memcpy(&v, p, sizeof v);                                                                    \
        emu_val r;                                                                                  \
        r.f = i_to_d((emu_i128)v);                                                                  \
        return r;                                                                                   \
    }                                                                                               \
    static inline void wr_##N##_i(uint8_t *p, emu_val v, bool sat) {                                \
        emu_i128 x = v.i;                                                                           \
        if (sat) x = x < (emu_i128)(LO) ? (emu_i128)(LO) : x > (emu_i128)(HI) ? (emu_i128)(HI) : x; \
        CT c = (CT)(uint64_t)x;                                                                     \
        memcpy(p, &c, sizeof c);                                                                    \
    }                                                                                               \
    static inline void wr_##N##_f(uint8_t *p, emu_val v, bool sat) {                                \
        (void)sat;                                                                                  \
        CT c = (CT)f_to_i(v.f, (int64_t)(LO), (int64_t)(HI));                                       \
        memcpy(p, &c, sizeof c);                                                                    \
    }
ELEM_TYPES(DEF_INT_RW)

static inline emu_val rd_UQ_i(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    emu_val r;
    r.i = (emu_i128)v;
    return r;
}
static inline emu_val rd_UQ_f(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    emu_val r;
    r.f = i_to_d((emu_i128)v);
    return r;
}
static inline void wr_UQ_i(uint8_t *p, emu_val v, bool sat) {
    emu_i128 x = v.i;
    if (sat) x = x < 0 ? 0 : x > (emu_i128)UINT64_MAX ? (emu_i128)UINT64_MAX : x;
    uint64_t u = (uint64_t)x;
    memcpy(p, &u, 8);
}
static inline void wr_UQ_f(uint8_t *p, emu_val v, bool sat) {
    (void)sat;
    uint64_t x = f_to_u64(v.f);
    memcpy(p, &x, 8);
}

static inline double sat01(double x) { return x != x ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* An integer headed for a float destination: for f (and narrower) round the exact integer once
** to that format, so 64-bit integers are not rounded twice through double. */
static double int_to_float_value(emu_i128 v, unsigned dst) {
    if (dst == VISA_TYPE_DF || (v >= -(1ll << 53) && v <= (1ll << 53))) return i_to_d(v);
    uint64_t bits;
    if (v >= INT64_MIN && v <= INT64_MAX) bits = emu_s64_to_float(VISA_TYPE_F, (int64_t)v, EMU_RNE);
    else if (v >= 0 && v <= (emu_i128)UINT64_MAX) bits = emu_u64_to_float(VISA_TYPE_F, (uint64_t)v, EMU_RNE);
    else return (double)v;
    float f;
    uint32_t b32 = (uint32_t)bits;
    memcpy(&f, &b32, 4);
    return f;
}

#define FLOAT_TYPES(X)                               \
    X(F, float, (double)v_, (float)x_, f_, 4)        \
    X(DF, double, v_, x_, f_, 8)                     \
    X(HF, uint16_t, hf_to_d(v_), d_to_hf(x_), f_, 2) \
    X(BF, uint16_t, bf_to_d(v_), d_to_bf(x_), f_, 2)

#define DEF_FLT_RW(N, ST, TO_D, FROM_D, unused, SZ)                  \
    static inline emu_val rd_##N##_f(const uint8_t *p) {             \
        ST v_;                                                       \
        memcpy(&v_, p, SZ);                                          \
        emu_val r;                                                   \
        r.f = TO_D;                                                  \
        return r;                                                    \
    }                                                                \
    static inline emu_val rd_##N##_i(const uint8_t *p) {             \
        emu_val r = rd_##N##_f(p);                                   \
        r.i = f_to_i(r.f, INT64_MIN, INT64_MAX);                     \
        return r;                                                    \
    }                                                                \
    static inline void wr_##N##_f(uint8_t *p, emu_val v, bool sat) { \
        double x_ = sat ? sat01(v.f) : v.f;                          \
        ST c = FROM_D;                                               \
        memcpy(p, &c, SZ);                                           \
    }                                                                \
    static inline void wr_##N##_i(uint8_t *p, emu_val v, bool sat) { \
        emu_val f;                                                   \
        f.f = int_to_float_value(v.i, VISA_TYPE_##N);                \
        wr_##N##_f(p, f, sat);                                       \
    }
FLOAT_TYPES(DEF_FLT_RW)

/* -- Loaders and storers per (type, compute class) ------------------------------------------------ */

#define DEF_LOAD(N, C)                                                                                         \
    static void ld_##N##_##C(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {               \
        const uint8_t *f = t->file;                                                                            \
        switch (o->shape) {                                                                                    \
        case EO_CONTIG:                                                                                        \
            for (unsigned i = 0; i < n; i++) out[i] = rd_##N##_##C(f + o->off + i * N##_SZ);                   \
            return;                                                                                            \
        case EO_SCALAR: {                                                                                      \
            emu_val v = rd_##N##_##C(f + o->off);                                                              \
            for (unsigned i = 0; i < n; i++) out[i] = v;                                                       \
            return;                                                                                            \
        }                                                                                                      \
        case EO_IMM: {                                                                                         \
            uint8_t b[8];                                                                                      \
            memcpy(b, &o->imm, 8);                                                                             \
            emu_val v = rd_##N##_##C(b);                                                                       \
            for (unsigned i = 0; i < n; i++) out[i] = v;                                                       \
            return;                                                                                            \
        }                                                                                                      \
        case EO_GENERAL: { /* direct: lowering proved every lane inside the file */                            \
            const uint16_t *lo = t->prog->lane_off.data + (size_t)o->lanes * EMU_MAX_LANES;                    \
            for (unsigned i = 0; i < n; i++) out[i] = rd_##N##_##C(f + o->off + lo[i]);                        \
            return;                                                                                            \
        }                                                                                                      \
        default:                                                                                               \
            for (unsigned i = 0; i < n; i++) {                                                                 \
                uint32_t b = emu_region_byte(t, o, i);                                                         \
                if (b == UINT32_MAX) {                                                                         \
                    emu_fault((emu_thread *)t, EDIAG_RUN_INDIRECT_SOURCE, i);                                  \
                    b = 0;                                                                                     \
                }                                                                                              \
                out[i] = rd_##N##_##C(f + b);                                                                  \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    static void st_##N##_##C(emu_thread *t, const emu_opnd *o, unsigned n, uint32_t mask, const emu_val *in) { \
        bool sat = o->mod == VM_SAT;                                                                           \
        uint8_t *f = t->file;                                                                                  \
        if (o->shape == EO_CONTIG && mask == (n == 32 ? 0xFFFFFFFFu : (1u << n) - 1)) {                        \
            for (unsigned i = 0; i < n; i++) wr_##N##_##C(f + o->off + i * N##_SZ, in[i], sat);                \
            return;                                                                                            \
        }                                                                                                      \
        if (o->shape == EO_GENERAL) { /* direct: lanes proved inside the file at lowering */                   \
            const uint16_t *lo = t->prog->lane_off.data + (size_t)o->lanes * EMU_MAX_LANES;                    \
            for (unsigned i = 0; i < n; i++)                                                                   \
                if (mask >> i & 1) wr_##N##_##C(f + o->off + lo[i], in[i], sat);                               \
            return;                                                                                            \
        }                                                                                                      \
        for (unsigned i = 0; i < n; i++) {                                                                     \
            if (!(mask >> i & 1)) continue;                                                                    \
            uint32_t b = o->shape == EO_SCALAR ? o->off : emu_region_byte(t, o, i);                            \
            if (b == UINT32_MAX) {                                                                             \
                emu_fault(t, EDIAG_RUN_INDIRECT_DEST, i);                                                      \
                return;                                                                                        \
            }                                                                                                  \
            wr_##N##_##C(f + b, in[i], sat);                                                                   \
        }                                                                                                      \
    }

enum {
    UD_SZ = 4,
    D_SZ = 4,
    UW_SZ = 2,
    W_SZ = 2,
    UB_SZ = 1,
    B_SZ = 1,
    Q_SZ = 8,
    UQ_SZ = 8,
    F_SZ = 4,
    DF_SZ = 8,
    HF_SZ = 2,
    BF_SZ = 2
};

#define DEF_LOADS(N) DEF_LOAD(N, i) DEF_LOAD(N, f)
DEF_LOADS(UD)
DEF_LOADS(D) DEF_LOADS(UW) DEF_LOADS(W) DEF_LOADS(UB) DEF_LOADS(B) DEF_LOADS(Q) DEF_LOADS(UQ) DEF_LOADS(F) DEF_LOADS(DF)
    DEF_LOADS(HF) DEF_LOADS(BF)

    /* Predicate operands: one bit per lane. */
    static void ld_pred(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {
    uint32_t m = t->pred[o->off];
    /* lanes past the predicate's 32 bits (a mask offset with a wide exec size) read 0, as
    ** st_pred drops them (fuzz_run: the shift was undefined) */
    for (unsigned i = 0; i < n; i++) {
        unsigned b = i + o->bitoff;
        out[i].i = b < 32 ? (m >> b) & 1 : 0;
    }
}
/* MOV's predicate source: "the value of the predicate variable is interpreted as an unsigned
** integer, with element 0 corresponding to the LSB, and copied to <dst>" (spec MOV). */
static void ld_pred_value(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {
    for (unsigned i = 0; i < n; i++) out[i].i = t->pred[o->off];
}

static void st_pred(emu_thread *t, const emu_opnd *o, unsigned n, uint32_t mask, const emu_val *in) {
    uint32_t m = t->pred[o->off];
    for (unsigned i = 0; i < n && i + o->bitoff < 32; i++) {
        unsigned b = i + o->bitoff;
        /* bit 0 of the result: a predicate is a 1-bit value, so NOT of a predicate (~1 = ...10)
        ** must give 0, not "non-zero" */
        if (mask >> i & 1) m = (m & ~(1u << b)) | ((uint32_t)(in[i].i & 1) << b);
    }
    t->pred[o->off] = m;
}
/* Address operands: the address variable's elements. */
static void ld_addr(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {
    for (unsigned i = 0; i < n; i++) out[i].i = t->addr[o->off + (o->hs ? i : 0)];
    (void)t;
}
static void st_addr(emu_thread *t, const emu_opnd *o, unsigned n, uint32_t mask, const emu_val *in) {
    for (unsigned i = 0; i < n; i++)
        if (mask >> i & 1) t->addr[o->off + i] = (uint32_t)in[i].i;
}

/* State operands (MOVS): element i of the state variable's slots. */
static void ld_state(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {
    for (unsigned i = 0; i < n; i++) out[i].i = t->state[o->off + (o->hs ? i : 0)];
}
static void st_state(emu_thread *t, const emu_opnd *o, unsigned n, uint32_t mask, const emu_val *in) {
    for (unsigned i = 0; i < n; i++)
        if (mask >> i & 1) t->state[o->off + i] = (uint32_t)in[i].i;
}

/* %ce0: the current execution mask in every lane. */
static void ld_ce0(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {
    (void)o;
    for (unsigned i = 0; i < n; i++) out[i].i = t->em;
}

typedef struct rw_pair {
    emu_load_fn ld[2];
    emu_store_fn st[2];
} rw_pair;

static const rw_pair rw_of_type[VISA_TYPE__COUNT] = {
#define RW(N) [VISA_TYPE_##N] = {{ld_##N##_i, ld_##N##_f}, {st_##N##_i, st_##N##_f}},
    RW(UD) RW(D) RW(UW) RW(W) RW(UB) RW(B) RW(Q) RW(UQ) RW(F) RW(DF) RW(HF) RW(BF)
#undef RW
};


/* Loader/storer for an operand in a compute class; false if the type is not supported. */
bool emu_bind_opnd(emu_opnd *o, unsigned cls) {
    if (o->shape == EO_PRED) {
        o->load = ld_pred;
        o->store = st_pred;
        return true;
    }
    if (o->shape == EO_ADDR) {
        o->load = ld_addr;
        o->store = st_addr;
        return true;
    }
    if (o->shape == EO_CE0) {
        o->load = ld_ce0;
        return cls == EC_INT;
    }
    if (o->shape == EO_STATE) {
        o->load = ld_state;
        o->store = st_state;
        return true;
    }
    unsigned t = o->type;
    if (o->shape == EO_IMM && (t == VISA_TYPE_V || t == VISA_TYPE_UV || t == VISA_TYPE_VF)) return true;
    if (t >= VISA_TYPE__COUNT || !rw_of_type[t].ld[0]) return false;
    o->load = rw_of_type[t].ld[cls];
    o->store = rw_of_type[t].st[cls];
    return true;
}

void emu_load_packed(const emu_opnd *o, unsigned n, unsigned cls, emu_val *out) {
    for (unsigned i = 0; i < n; i++) {
        double fv;
        int64_t iv;
        if (o->type == VISA_TYPE_VF) {
            unsigned b = (unsigned)(o->imm >> (8 * (i & 3))) & 0xFF;
            /* restricted 8-bit float: sign, 3-bit exponent (bias 3), 4-bit mantissa; exponent 0 is
            ** normal (2_datatypes gives the range +-[0.125, 31] and 0: no denormals) */
            unsigned e = (b >> 4) & 7, m = b & 15;
            fv = (e || m) ? ldexp(1.0 + m / 16.0, (int)e - 3) : 0.0;
            if (b & 0x80) fv = -fv;
            iv = (int64_t)fv;
        } else {
            unsigned nib = (unsigned)(o->imm >> (4 * (i & 7))) & 0xF;
            iv = o->type == VISA_TYPE_V && (nib & 8) ? (int64_t)nib - 16 : (int64_t)nib;
            fv = (double)iv;
        }
        if (cls == EC_FLT) out[i].f = fv;
        else out[i].i = iv;
    }
}

void emu_bind_pred_value(emu_opnd *o) {
    o->type = VISA_TYPE_UD;
    o->size = 4;
    o->load = ld_pred_value;
}

emu_store_fn emu_bits_store(unsigned size) { return rw_of_type[emu_bits_type(size)].st[EC_INT]; }
