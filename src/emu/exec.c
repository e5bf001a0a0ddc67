/* exec.c -- the interpreter: operand loaders and storers, the channel-enable algorithm, the
** generic ALU handler and the control-flow handlers.
**
** A generic instruction runs in three phases over lane arrays: every source is loaded into its
** compute class (int64 or double) by a loader chosen at lowering time for its type and shape, the
** operation's calc function runs over the arrays (plain loops the compiler vectorises), and the
** destination storer converts back, saturates and writes only the enabled lanes.  No name, type
** or declaration is looked up while running; the only per-lane branches are the enable mask.
*/
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convert.h"
#include "exec.h"
#include "jit.h"

void emu_fault(emu_thread *t, unsigned lane, const char *fmt, ...) {
    if (t->fault) return;
    t->fault = 1;
    t->fault_lane = lane;
    va_list ap;
    va_start(ap, fmt);
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
#define ELEM_TYPES(X)                    \
    X(UD, uint32_t, 0, 0xFFFFFFFFll)     \
    X(D, int32_t, INT32_MIN, INT32_MAX)  \
    X(UW, uint16_t, 0, 0xFFFF)           \
    X(W, int16_t, INT16_MIN, INT16_MAX)  \
    X(UB, uint8_t, 0, 0xFF)              \
    X(B, int8_t, INT8_MIN, INT8_MAX)     \
    X(Q, int64_t, INT64_MIN, INT64_MAX)

/* Read element k of an operand (byte address p) into the compute class. */
#define DEF_INT_RW(N, CT, LO, HI)                                                              \
    static inline emu_val rd_##N##_i(const uint8_t *p) {                                      \
        CT v;                                                                                  \
        memcpy(&v, p, sizeof v);                                                               \
        emu_val r;                                                                             \
        r.i = (int64_t)v;                                                                      \
        return r;                                                                              \
    }                                                                                          \
    static inline emu_val rd_##N##_f(const uint8_t *p) {                                      \
        CT v;                                                                                  \
        memcpy(&v, p, sizeof v);                                                               \
        emu_val r;                                                                             \
        r.f = i_to_d((emu_i128)v);                                                             \
        return r;                                                                              \
    }                                                                                          \
    static inline void wr_##N##_i(uint8_t *p, emu_val v, bool sat) {                           \
        emu_i128 x = v.i;                                                                      \
        if (sat) x = x < (emu_i128)(LO) ? (emu_i128)(LO) : x > (emu_i128)(HI) ? (emu_i128)(HI) : x; \
        CT c = (CT)(uint64_t)x;                                                                \
        memcpy(p, &c, sizeof c);                                                               \
    }                                                                                          \
    static inline void wr_##N##_f(uint8_t *p, emu_val v, bool sat) {                           \
        (void)sat;                                                                             \
        CT c = (CT)f_to_i(v.f, (int64_t)(LO), (int64_t)(HI));                                  \
        memcpy(p, &c, sizeof c);                                                               \
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

#define FLOAT_TYPES(X)                                                                       \
    X(F, float, (double)v_, (float)x_, f_, 4)                                                \
    X(DF, double, v_, x_, f_, 8)                                                             \
    X(HF, uint16_t, hf_to_d(v_), d_to_hf(x_), f_, 2)                                         \
    X(BF, uint16_t, bf_to_d(v_), d_to_bf(x_), f_, 2)

#define DEF_FLT_RW(N, ST, TO_D, FROM_D, unused, SZ)                                          \
    static inline emu_val rd_##N##_f(const uint8_t *p) {                                    \
        ST v_;                                                                               \
        memcpy(&v_, p, SZ);                                                                  \
        emu_val r;                                                                           \
        r.f = TO_D;                                                                          \
        return r;                                                                            \
    }                                                                                        \
    static inline emu_val rd_##N##_i(const uint8_t *p) {                                    \
        emu_val r = rd_##N##_f(p);                                                           \
        r.i = f_to_i(r.f, INT64_MIN, INT64_MAX);                                             \
        return r;                                                                            \
    }                                                                                        \
    static inline void wr_##N##_f(uint8_t *p, emu_val v, bool sat) {                         \
        double x_ = sat ? sat01(v.f) : v.f;                                                  \
        ST c = FROM_D;                                                                       \
        memcpy(p, &c, SZ);                                                                   \
    }                                                                                        \
    static inline void wr_##N##_i(uint8_t *p, emu_val v, bool sat) {                         \
        emu_val f;                                                                           \
        f.f = int_to_float_value(v.i, VISA_TYPE_##N);                                        \
        wr_##N##_f(p, f, sat);                                                               \
    }
FLOAT_TYPES(DEF_FLT_RW)

/* -- Loaders and storers per (type, compute class) ------------------------------------------------ */

#define DEF_LOAD(N, C)                                                                           \
    static void ld_##N##_##C(const emu_thread *t, const emu_opnd *o, unsigned n, emu_val *out) {  \
        const uint8_t *f = t->file;                                                              \
        switch (o->shape) {                                                                      \
        case EO_CONTIG:                                                                          \
            for (unsigned i = 0; i < n; i++) out[i] = rd_##N##_##C(f + o->off + i * N##_SZ);     \
            return;                                                                              \
        case EO_SCALAR: {                                                                        \
            emu_val v = rd_##N##_##C(f + o->off);                                                \
            for (unsigned i = 0; i < n; i++) out[i] = v;                                         \
            return;                                                                              \
        }                                                                                        \
        case EO_IMM: {                                                                           \
            uint8_t b[8];                                                                        \
            memcpy(b, &o->imm, 8);                                                               \
            emu_val v = rd_##N##_##C(b);                                                         \
            for (unsigned i = 0; i < n; i++) out[i] = v;                                         \
            return;                                                                              \
        }                                                                                        \
        case EO_GENERAL: { /* direct: lowering proved every lane inside the file */          \
            const uint16_t *lo = t->prog->lane_off.data + (size_t)o->lanes * EMU_MAX_LANES;     \
            for (unsigned i = 0; i < n; i++) out[i] = rd_##N##_##C(f + o->off + lo[i]);          \
            return;                                                                              \
        }                                                                                        \
        default:                                                                                 \
            for (unsigned i = 0; i < n; i++) {                                                   \
                uint32_t b = emu_region_byte(t, o, i);                                               \
                if (b == UINT32_MAX) {                                                           \
                    emu_fault((emu_thread *)t, i, "indirect operand outside the register file"); \
                    b = 0;                                                                       \
                }                                                                                \
                out[i] = rd_##N##_##C(f + b);                                                    \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    static void st_##N##_##C(emu_thread *t, const emu_opnd *o, unsigned n, uint32_t mask,       \
                             const emu_val *in) {                                                \
        bool sat = o->mod == VM_SAT;                                                             \
        uint8_t *f = t->file;                                                                    \
        if (o->shape == EO_CONTIG && mask == (n == 32 ? 0xFFFFFFFFu : (1u << n) - 1)) {          \
            for (unsigned i = 0; i < n; i++) wr_##N##_##C(f + o->off + i * N##_SZ, in[i], sat);  \
            return;                                                                              \
        }                                                                                        \
        if (o->shape == EO_GENERAL) { /* direct: lanes proved inside the file at lowering */     \
            const uint16_t *lo = t->prog->lane_off.data + (size_t)o->lanes * EMU_MAX_LANES;      \
            for (unsigned i = 0; i < n; i++)                                                     \
                if (mask >> i & 1) wr_##N##_##C(f + o->off + lo[i], in[i], sat);                 \
            return;                                                                              \
        }                                                                                        \
        for (unsigned i = 0; i < n; i++) {                                                       \
            if (!(mask >> i & 1)) continue;                                                      \
            uint32_t b = o->shape == EO_SCALAR ? o->off : emu_region_byte(t, o, i);                  \
            if (b == UINT32_MAX) {                                                               \
                emu_fault(t, i, "indirect destination outside the register file");               \
                return;                                                                          \
            }                                                                                    \
            wr_##N##_##C(f + b, in[i], sat);                                                     \
        }                                                                                        \
    }

enum { UD_SZ = 4, D_SZ = 4, UW_SZ = 2, W_SZ = 2, UB_SZ = 1, B_SZ = 1, Q_SZ = 8, UQ_SZ = 8, F_SZ = 4,
       DF_SZ = 8, HF_SZ = 2, BF_SZ = 2 };

#define DEF_LOADS(N) DEF_LOAD(N, i) DEF_LOAD(N, f)
DEF_LOADS(UD) DEF_LOADS(D) DEF_LOADS(UW) DEF_LOADS(W) DEF_LOADS(UB) DEF_LOADS(B) DEF_LOADS(Q)
DEF_LOADS(UQ) DEF_LOADS(F) DEF_LOADS(DF) DEF_LOADS(HF) DEF_LOADS(BF)

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

/* The unsigned integer type of each element size: raw bit patterns. */
static const uint8_t same_size_uint[9] = {0, VISA_TYPE_UB, VISA_TYPE_UW, 0, VISA_TYPE_UD, 0, 0, 0, VISA_TYPE_UQ};

static bool is_float_type(unsigned t) { return t < VISA_TYPE__COUNT && isa_types[t].cls == TC_FLOAT; }

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

/* Packed-vector immediates (v, uv, vf): element i of the 8 (or 4) packed values. */
static void load_packed(const emu_opnd *o, unsigned n, unsigned cls, emu_val *out) {
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

/* -- Channel enable (spec 5_operands, EvaluateChEn) ----------------------------------------------- */
static inline uint32_t lanes_mask(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

/* -- Generic ALU ------------------------------------------------------------------------------ */
static void apply_mod(emu_val *v, unsigned n, unsigned mod, unsigned cls) {
    if (!mod) return;
    for (unsigned i = 0; i < n; i++) {
        if (cls == EC_FLT) {
            if (mod == VM_ABS || mod == VM_NEG_ABS) v[i].f = fabs(v[i].f);
            if (mod == VM_NEG || mod == VM_NEG_ABS) v[i].f = -v[i].f;
        } else {
            if (mod == VM_ABS || mod == VM_NEG_ABS) v[i].i = v[i].i < 0 ? -v[i].i : v[i].i;
            if (mod == VM_NEG || mod == VM_NEG_ABS) v[i].i = -v[i].i;
            if (mod == VM_NOT) v[i].i = ~v[i].i;
        }
    }
}

static void load_src(const emu_thread *t, const emu_op *op, unsigned k, emu_val *out) {
    const emu_opnd *o = &op->src[k];
    if (!o->load) load_packed(o, op->exec, op->cls, out);
    else o->load(t, o, op->exec, out);
    apply_mod(out, op->exec, o->mod, op->cls);
}

static void h_alu_cr0(emu_thread *t, const emu_op *op);


static void h_alu(emu_thread *t, const emu_op *op) {
    if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {
        h_alu_cr0(t, op);
        return;
    }
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    for (unsigned k = 0; k < op->nsrc; k++) load_src(t, op, k, s[k]);
    op->calc(op, op->exec, d, s);
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}

void emu_alu_generic(emu_thread *t, const emu_op *op) { h_alu(t, op); }
static void h_cmp(emu_thread *t, const emu_op *op);
void emu_cmp_generic(emu_thread *t, const emu_op *op) { h_cmp(t, op); }

/* Smallest normal magnitude of a float type (denormals are below it). */
static double min_normal(unsigned type) {
    switch (type) {
    case VISA_TYPE_DF: return 0x1p-1022;
    case VISA_TYPE_F: return 0x1p-126;
    case VISA_TYPE_HF: return 0x1p-14;
    default: return 0x1p-126; /* BF */
    }
}

/* Denormal float sources read as signed zero when %cr0 flushes their type's denormals. */
static void flush_denormals(uint32_t cr0, unsigned type, emu_val *v, unsigned n) {
    if (emu_cr0_keep_denorms(cr0, (isa_type)type)) return;
    double lim = min_normal(type);
    for (unsigned i = 0; i < n; i++)
        if (v[i].f != 0 && fabs(v[i].f) < lim) v[i].f = copysign(0.0, v[i].f);
}

/* A float ALU op under a non-default %cr0 (spec 4_visa_header V14, 2_datatypes "Floating Point
** Mode"): denormal sources of a type whose denorm mode is "flush" read as signed zero; the
** operation runs in the host's matching rounding direction (a directed rounding to double and then
** to the destination is the same as one directed rounding); the result is rounded to the
** destination in the %cr0 mode, flushed if the destination's denormals are, and in ALT mode an
** infinite F result becomes the largest finite F, and log, rsqrt and sqrt read |src|. */
static void h_alu_cr0(emu_thread *t, const emu_op *op) {
    uint32_t cr0 = emu_cr0_modes(t), mask = emu_chen(t, op), n = op->exec;
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    bool alt = emu_cr0_alt(cr0);
    for (unsigned k = 0; k < op->nsrc && k < 4; k++) {
        load_src(t, op, k, s[k]);
        unsigned ty = op->src[k].type;
        if (op->cls != EC_FLT || !is_float_type(ty)) continue;
        flush_denormals(cr0, ty, s[k], n);
        if (alt && ty == VISA_TYPE_F &&
            (op->form == VISA_FORM_LOG || op->form == VISA_FORM_RSQRT || op->form == VISA_FORM_SQRT))
            for (unsigned i = 0; i < n; i++) s[k][i].f = fabs(s[k][i].f);
    }
    emu_round rm = emu_cr0_round(cr0);
    static const int host_mode[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    int saved = fegetround();
    fesetround(host_mode[rm]);
    op->calc(op, n, d, s);
    fesetround(saved);
    unsigned dt = op->dst.type;
    if (!is_float_type(dt) || op->dst.shape == EO_PRED) {
        op->dst.store(t, &op->dst, n, mask, d);
        t->pc++;
        return;
    }
    uint32_t flags = (uint32_t)rm | (op->sat ? EMU_CVT_SAT : 0) |
                     (emu_cr0_keep_denorms(cr0, (isa_type)dt) ? 0 : EMU_CVT_FTZ_OUT) |
                     (alt && dt == VISA_TYPE_F ? EMU_CVT_SATFINITE : 0);
    for (unsigned i = 0; i < n; i++) {
        uint64_t out = 0;
        if (op->cls == EC_FLT) {
            /* a DF result is already in its format: the conversion would be a raw move */
            if (dt == VISA_TYPE_DF && (flags & EMU_CVT_FTZ_OUT) && fabs(d[i].f) < 0x1p-1022) d[i].f = copysign(0.0, d[i].f);
            emu_convert((isa_type)dt, &out, VISA_TYPE_DF, &d[i].f, flags);
        } else { /* an exact integer result headed for a float destination */
            emu_i128 v = d[i].i;
            if (v >= INT64_MIN && v <= INT64_MAX) out = emu_s64_to_float((isa_type)dt, (int64_t)v, flags);
            else out = emu_u64_to_float((isa_type)dt, (uint64_t)v, flags);
            if (op->sat) emu_convert((isa_type)dt, &out, (isa_type)dt, &out, flags);
        }
        d[i].i = (emu_i128)out;
    }
    /* store the converted bit patterns unchanged */
    emu_opnd raw = op->dst;
    raw.mod = VM_NONE;
    raw.store = rw_of_type[same_size_uint[raw.size]].st[EC_INT];
    raw.store(t, &raw, n, mask, d);
    t->pc++;
}

/* SEL (SEL page): EM[i] ? (Pred[i] ? src0 : src1); the predicate selects, it does not mask the
** write.  Pred[i] is PMask of EvaluateChEn, so .any / .all and '!' apply as for any op. */
static void h_sel(emu_thread *t, const emu_op *op) {
    uint32_t n = op->exec;
    uint32_t em = emu_exec_enables(t, op), pm = emu_pred_bits(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    load_src(t, op, 0, s[0]);
    load_src(t, op, 1, s[1]);
    for (unsigned i = 0; i < n; i++) d[i] = (pm >> i & 1) ? s[0][i] : s[1][i];
    op->dst.store(t, &op->dst, n, em, d);
    t->pc++;
}

/* CMP: the relation per lane, into a predicate (bit) or a general destination (all ones / 0). */
/* CMP relations (cond & 7: eq ne gt ge lt le) from the three-way order; an unordered (NaN) pair
** has all three false, so only ne holds, as IEEE requires. */
static bool rel_holds(unsigned rel, bool lt, bool eq, bool gt) {
    switch (rel) {
    case 0: return eq;
    case 1: return !eq;
    case 2: return gt;
    case 3: return gt || eq;
    case 4: return lt;
    default: return lt || eq;
    }
}

static void h_cmp(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    load_src(t, op, 0, s[0]);
    load_src(t, op, 1, s[1]);
    if (op->cls == EC_FLT && op->fenv) {
        uint32_t cr0 = emu_cr0_modes(t);
        if (cr0 != EMU_CR0_FAST)
            for (unsigned k = 0; k < 2; k++)
                if (is_float_type(op->src[k].type)) flush_denormals(cr0, op->src[k].type, s[k], op->exec);
    }
    unsigned rel = op->cond & 7;
    bool nan_aware = (op->cond & 0x80) != 0;
    for (unsigned i = 0; i < op->exec; i++) {
        bool r;
        if (op->cls == EC_FLT) {
            double a = s[0][i].f, b = s[1][i].f;
            r = rel_holds(rel, a < b, a == b, a > b);
            if (nan_aware && rel != 1 && (a != a || b != b)) r = true;
        } else {
            emu_i128 a = s[0][i].i, b = s[1][i].i;
            r = rel_holds(rel, a < b, a == b, a > b);
        }
        d[i].i = op->dst.shape == EO_PRED ? r : r ? -1 : 0; /* all ones or zeros (CMP notes) */
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}

/* -- Control flow ------------------------------------------------------------------------------ */
void emu_end_handler(emu_thread *t, const emu_op *op) {
    (void)op;
    t->done = true;
}

static void h_nop(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++;
}

/* jmp (JMP page): exec size 1, "the first element of the predicate" decides; taken as PMask[0]
** (the bit at the mask offset), like every other op's first channel.  A wider jmp (the table
** does not allow one) is decided the same way. */
static void h_jmp(emu_thread *t, const emu_op *op) { t->pc = emu_uniform_pred(t, op) ? op->target : t->pc + 1; }

/* Next op at or after pc where lanes wait to be re-enabled; the end op if none. */
static uint32_t next_waiting(const emu_thread *t, uint32_t pc) {
    uint32_t n = t->prog->ops.len;
    for (uint32_t k = pc; k < n; k++)
        if (t->wait_mask[k]) return k;
    return n - 1;
}

/* goto (GOTO page, spec 3_execution_model Branch Instructions).  Exec size 1 is a uniform branch:
** every active channel branches, or none, on the predicate's value (NoMask does not change which
** channels are active then).  Wider: the channels whose ChEn is set branch. */
static void h_goto(emu_thread *t, const emu_op *op) {
    uint32_t active, taken;
    if (op->exec == 1) {
        active = t->em;
        taken = emu_uniform_pred(t, op) ? active : 0;
    } else {
        active = op->nomask ? lanes_mask(op->exec) << op->mask_off : t->em;
        taken = emu_chen(t, op) << op->mask_off;
    }
    if (op->target > t->pc) {
        /* forward: the taken lanes wait at the target */
        t->wait_mask[op->target] |= taken;
        t->em &= ~taken;
        t->pc = t->em ? t->pc + 1 : next_waiting(t, t->pc + 1);
    } else if (taken) {
        /* backward: the lanes not taken wait after the goto, the taken ones loop */
        uint32_t stay = active & ~taken;
        t->wait_mask[t->pc + 1] |= stay;
        t->em = taken | (t->em & ~active);
        t->pc = op->target;
    } else {
        t->pc++;
    }
}

/* call / ret (spec 3_execution_model, RET notes): the callee runs with the call-site lanes that
** are enabled and predicated; a predicated ret turns its lanes off, and the call returns when no
** lane is left, giving the caller back its mask. */
static void h_call(emu_thread *t, const emu_op *op) {
    /* a scalar call (exec size 1, IGC's usual form) takes every active lane when its predicate
    ** holds (CALL page); a wider one the lanes whose ChEn is set */
    uint32_t lanes = op->exec == 1 ? (emu_uniform_pred(t, op) ? t->em : 0) : emu_chen(t, op) << op->mask_off;
    if (!lanes) {
        t->pc++;
        return;
    }
    if (t->call_depth >= sizeof t->call_stack / sizeof t->call_stack[0]) {
        emu_fault(t, 0, "call stack overflow (more than %zu nested calls)",
                  sizeof t->call_stack / sizeof t->call_stack[0]);
        return;
    }
    t->call_stack[t->call_depth].ret_pc = t->pc + 1;
    t->call_stack[t->call_depth].em = t->em;
    t->call_stack[t->call_depth].func = UINT32_MAX;
    t->call_depth++;
    t->em = lanes;
    t->pc = op->target;
}

static void h_ret(emu_thread *t, const emu_op *op) {
    uint32_t lanes = !op->pred_id ? t->em
                     : op->exec == 1 ? (emu_uniform_pred(t, op) ? t->em : 0)
                                     : emu_chen(t, op) << op->mask_off;
    t->em &= ~lanes;
    if (op->pred_id && t->em) {
        t->pc++; /* other lanes go on in the subroutine */
        return;
    }
    if (!t->call_depth) {
        t->done = true;
        return;
    }
    t->call_depth--;
    t->em = t->call_stack[t->call_depth].em;
    t->pc = t->call_stack[t->call_depth].ret_pc;
}

/* -- Arithmetic calc functions ------------------------------------------------------------------ */
/* Float ops with an F destination compute in float (a + b rounds once, to float); the others in
** double, which holds every HF/BF/F operation's exact sum and product before the final rounding. */
#define CALC(NAME, IEXPR, FEXPR)                                                                 \
    static void NAME(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {   \
        if (op->cls == EC_FLT && op->fsingle)                                                    \
            for (unsigned i = 0; i < n; i++) {                                                   \
                float a = (float)s[0][i].f, b = (float)s[1][i].f, c = (float)s[2][i].f;          \
                (void)a, (void)b, (void)c;                                                       \
                d[i].f = (float)(FEXPR);                                                         \
            }                                                                                    \
        else if (op->cls == EC_FLT)                                                              \
            for (unsigned i = 0; i < n; i++) {                                                   \
                double a = s[0][i].f, b = s[1][i].f, c = s[2][i].f;                              \
                (void)a, (void)b, (void)c;                                                       \
                d[i].f = FEXPR;                                                                  \
            }                                                                                    \
        else                                                                                     \
            for (unsigned i = 0; i < n; i++) {                                                   \
                emu_i128 a = s[0][i].i, b = s[1][i].i, c = s[2][i].i;                            \
                (void)a, (void)b, (void)c;                                                       \
                d[i].i = IEXPR;                                                                  \
            }                                                                                    \
    }

/* Integer results are exact in 128 bits (products of 64-bit values wrap in unsigned 128-bit
** arithmetic only when they cannot be represented, which only .sat on uq * uq can observe). */
#define U(x) ((emu_u128)(x))
CALC(c_mov, a, a)
CALC(c_add, a + b, a + b)
CALC(c_mul, (emu_i128)(U(a) * U(b)), a * b)
CALC(c_mad_wide, (emu_i128)(U(a) * U(b) + U(c)), fma(a, b, c))

/* A float mad must round once to float: fma in double and then to float can land on a tie
** (a = b = 1+2^-12, c = 2^-60) and round differently from fmaf.  Sources no wider than 32 bits
** are float operands of the execution type, so the single-precision fma is the exact answer. */
/* fma in double rounded to odd: a later rounding to a format of at most 51 bits (hf, bf) is then
** the single rounding of the exact result (a*b is exact for sources no wider than f; TwoSum gives
** the error of the sum). Only valid in round-to-nearest, where TwoSum is exact; the directed
** modes need no help, as two roundings in one direction equal one. */
static double fma_odd(double a, double b, double c) {
    double p = a * b, r = p + c;
    if (!isfinite(r)) return r;
    double bb = r - p, err = (p - (r - bb)) + (c - bb);
    uint64_t u;
    memcpy(&u, &r, sizeof u);
    if (err != 0 && !(u & 1)) r = nextafter(r, err > 0 ? INFINITY : -INFINITY);
    return r;
}
static void c_mad(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    bool narrow = op->cls == EC_FLT;
    for (unsigned k = 0; narrow && k < 3; k++)
        narrow = op->src[k].size <= 4;
    bool single = narrow && op->dst.type == VISA_TYPE_F;
    if (narrow && (op->dst.type == VISA_TYPE_HF || op->dst.type == VISA_TYPE_BF) && fegetround() == FE_TONEAREST) {
        /* one rounding to hf / bf, not fma-to-double then to the destination */
        for (unsigned i = 0; i < n; i++) d[i].f = fma_odd(s[0][i].f, s[1][i].f, s[2][i].f);
        return;
    }
    if (!single) {
        c_mad_wide(op, n, d, s);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        d[i].f = fmaf((float)s[0][i].f, (float)s[1][i].f, (float)s[2][i].f);
}
CALC(c_add3, a + b + c, a + b + c)
CALC(c_avg, (a + b + 1) >> 1, (a + b) / 2)
/* MIN_MAX.md: a NaN operand gives the other operand, signalling NaNs included (C's fmin may
** return NaN for a signalling one); two NaNs give src1. */
static inline double nan_min(double a, double b) { return isnan(b) ? a : isnan(a) ? b : fmin(a, b); }
static inline double nan_max(double a, double b) { return isnan(b) ? a : isnan(a) ? b : fmax(a, b); }
CALC(c_min, a < b ? a : b, nan_min(a, b))
CALC(c_max, a > b ? a : b, nan_max(a, b))
CALC(c_and, a & b, 0)
CALC(c_or, a | b, 0)
CALC(c_xor, a ^ b, 0)
CALC(c_not, ~a, 0)
CALC(c_inv, 0, 1.0 / a)
CALC(c_sqrt, 0, sqrt(a))
CALC(c_rsqrt, 0, 1.0 / sqrt(a))
CALC(c_exp, 0, exp2(a))
CALC(c_log, 0, log2(a))
CALC(c_sin, 0, sin(a))
CALC(c_cos, 0, cos(a))
CALC(c_pow, 0, pow(a, b))
CALC(c_rndd, a, floor(a))
CALC(c_rndu, a, ceil(a))
CALC(c_rnde, a, nearbyint(a))
CALC(c_rndz, a, trunc(a))
CALC(c_frc, 0, a - floor(a))
CALC(c_div, b ? a / b : 0, a / b)
CALC(c_mod, b ? a % b : 0, fmod(a, b))
/* LRP (spec page): src1 * src0 + src2 * (1 - src0) */
CALC(c_lrp, 0, (double)b * a + (double)c * (1.0 - (double)a)) /* products exact, one rounding */
CALC(c_tanh, 0, tanh(a))
CALC(c_sigm, 0, 1 / (1 + exp(-a)))
#undef U

/* Shift counts use the low 5 bits, or 6 when the destination is a 64-bit type (SHL, SHR, ASR
** notes).  The shifted value keeps the source's width: shl's result is exact (for .sat). */
static unsigned shift_bits(const emu_op *op) { return isa_types[op->dst.type].bytes == 8 ? 63 : 31; }
static unsigned src_bits(const emu_op *op) { return 8u * isa_types[op->src[0].type].bytes; }

static void c_shl(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned m = shift_bits(op);
    for (unsigned i = 0; i < n; i++) {
        unsigned c = (unsigned)(s[1][i].i & m);
        d[i].i = s[0][i].i * ((emu_i128)1 << c); /* exact: a 64-bit value times at most 2^63 */
    }
}
static void c_shr(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned m = shift_bits(op), bits = src_bits(op);
    emu_u128 keep = bits >= 64 ? (emu_u128)UINT64_MAX : ((emu_u128)1 << bits) - 1;
    for (unsigned i = 0; i < n; i++)
        d[i].i = (emu_i128)(((emu_u128)s[0][i].i & keep) >> (s[1][i].i & m));
}
static void c_asr(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned m = shift_bits(op);
    for (unsigned i = 0; i < n; i++) {
        emu_i128 a = s[0][i].i;
        unsigned c = (unsigned)(s[1][i].i & m);
        d[i].i = a < 0 ? ~(~a >> c) : a >> c;
    }
}

/* Bit operations on 32-bit lanes (spec pages CBIT, FBL, FBH, LZD, BFREV, BFE, BFI, MULH). */
static bool is_signed_type(unsigned t) { return t < VISA_TYPE__COUNT && isa_types[t].cls == TC_SINT; }

static void c_cbit(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    (void)op; /* the page's pseudo-code returns the shifted-out value; the count is meant */
    for (unsigned i = 0; i < n; i++) d[i].i = __builtin_popcount((uint32_t)s[0][i].i);
}
static void c_fbl(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    (void)op;
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = (uint32_t)s[0][i].i;
        d[i].i = v ? (int64_t)__builtin_ctz(v) : 0xFFFFFFFF;
    }
}
static void c_fbh(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    bool sgn = is_signed_type(op->src[0].type);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = (uint32_t)s[0][i].i;
        if (sgn && (v == 0 || v == 0xFFFFFFFFu)) d[i].i = 0xFFFFFFFF;
        else if (sgn) d[i].i = __builtin_clz((v >> 31) ? ~v : v); /* bits equal to the sign bit */
        else d[i].i = v ? (int64_t)__builtin_clz(v) : 0xFFFFFFFF;
    }
}
static void c_lzd(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    (void)op;
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = (uint32_t)s[0][i].i;
        d[i].i = v ? __builtin_clz(v) : 32;
    }
}
static void c_bfrev(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    (void)op;
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = (uint32_t)s[0][i].i, r = 0;
        for (int b = 0; b < 32; b++) r |= ((v >> b) & 1u) << (31 - b);
        d[i].i = r;
    }
}
static void c_bfe(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    bool sgn = is_signed_type(op->src[2].type);
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = (uint32_t)s[0][i].i & 31, off = (uint32_t)s[1][i].i & 31;
        uint32_t v = sgn ? (uint32_t)((int32_t)s[2][i].i >> off) : (uint32_t)s[2][i].i >> off;
        uint32_t f = v & ((1u << w) - 1);
        /* BFE.md Notes: a D result is sign-extended from the field's top bit */
        if (sgn && w && (f >> (w - 1)) & 1) f |= ~((1u << w) - 1);
        d[i].i = f;
    }
}
static void c_bfi(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    (void)op;
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = (uint32_t)s[0][i].i & 31, off = (uint32_t)s[1][i].i & 31;
        uint32_t mask = ((1u << w) - 1) << off;
        d[i].i = (((uint32_t)s[2][i].i << off) & mask) | ((uint32_t)s[3][i].i & ~mask);
    }
}
static void c_mulh(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    bool sgn = is_signed_type(op->src[0].type) || is_signed_type(op->src[1].type);
    for (unsigned i = 0; i < n; i++)
        d[i].i = sgn ? (int64_t)((int64_t)(int32_t)s[0][i].i * (int32_t)s[1][i].i) >> 32
                     : (int64_t)(((uint64_t)(uint32_t)s[0][i].i * (uint32_t)s[1][i].i) >> 32);
}

/* ROL / ROR: rotate within the width of src0's type; the count's low log2(width) bits. */
static void c_rotate(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned bits = src_bits(op), m = bits - 1;
    uint64_t keep = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    bool left = op->form == VISA_FORM_ROL;
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = (uint64_t)s[0][i].i & keep;
        unsigned c = (unsigned)(s[1][i].i & m);
        if (!left) c = (bits - c) & m;
        uint64_t r = c ? ((v << c) | (v >> (bits - c))) & keep : v;
        /* the rotated bits are the destination's pattern: sign-extend for a signed source type */
        d[i].i = is_signed_type(op->src[0].type) && bits < 64 && (r >> (bits - 1) & 1) ? (emu_i128)r - ((emu_i128)1 << bits)
                 : bits == 64 && is_signed_type(op->src[0].type) ? (emu_i128)(int64_t)r : (emu_i128)r;
    }
}

/* BFN: each result bit is bit (s0 + 2*s1 + 4*s2) of the 8-bit truth table (op->cond). */
static void c_bfn(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned table = op->cond;
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = (uint64_t)s[0][i].i, b = (uint64_t)s[1][i].i, c = (uint64_t)s[2][i].i, r = 0;
        for (unsigned k = 0; k < 8; k++)
            if (table >> k & 1) r |= (k & 1 ? a : ~a) & (k & 2 ? b : ~b) & (k & 4 ? c : ~c);
        d[i].i = (emu_i128)(int64_t)r; /* the destination keeps its width's low bits */
    }
}

/* DP4A: src0 + the dot product of the four bytes of src1 and src2, each byte signed when its
** source type is signed; exact, then wrapped or saturated to the destination. */
static void c_dp4a(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    bool sg1 = is_signed_type(op->src[1].type), sg2 = is_signed_type(op->src[2].type);
    for (unsigned i = 0; i < n; i++) {
        uint32_t x = (uint32_t)s[1][i].i, y = (uint32_t)s[2][i].i;
        emu_i128 acc = s[0][i].i;
        for (unsigned k = 0; k < 4; k++) {
            int64_t bx = (x >> (8 * k)) & 0xFF, by = (y >> (8 * k)) & 0xFF;
            if (sg1 && bx > 127) bx -= 256;
            if (sg2 && by > 127) by -= 256;
            acc += bx * by;
        }
        d[i].i = acc;
    }
}

/* DP2 / DP3 / DP4 / DPH (Gen PRM): per group of four lanes, the dot product of the first 2, 3
** or 4 components (DPH: 3, plus src1's fourth) written to all four lanes; F only. */
static void c_dp(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) {
    unsigned comps = op->form == VISA_FORM_DP2 ? 2 : op->form == VISA_FORM_DP4 ? 4 : 3;
    for (unsigned g = 0; g + 4 <= n; g += 4) {
        float acc = 0;
        for (unsigned k = 0; k < comps; k++) acc = fmaf((float)s[0][g + k].f, (float)s[1][g + k].f, acc);
        if (op->form == VISA_FORM_DPH) acc += (float)s[1][g + 3].f;
        for (unsigned k = 0; k < 4; k++) d[g + k].f = acc;
    }
}

/* ADDC / SUBB: dst and a second destination receiving the carry / borrow (0 or 1). */
static void h_carry(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES], c[EMU_MAX_LANES];
    load_src(t, op, 0, s[0]);
    load_src(t, op, 1, s[1]);
    bool sub = op->form == VISA_FORM_SUBB;
    for (unsigned i = 0; i < op->exec; i++) {
        uint32_t a = (uint32_t)s[0][i].i, b = (uint32_t)s[1][i].i;
        d[i].i = sub ? (uint32_t)(a - b) : (uint32_t)(a + b);
        c[i].i = sub ? a < b : (uint32_t)(a + b) < a;
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    op->dst2.store(t, &op->dst2, op->exec, mask, c);
    t->pc++;
}

/* MADW: the exact 64-bit src0 * src1 + src2; the low dwords go to dst, the high dwords to the
** same region one GRF-rounded span later (dst2, set at lowering). */
static void h_madw(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES], hi[EMU_MAX_LANES];
    for (unsigned k = 0; k < 3; k++) load_src(t, op, k, s[k]);
    op->calc(op, op->exec, d, s);
    for (unsigned i = 0; i < op->exec; i++) hi[i].i = (emu_i128)(int64_t)((uint64_t)d[i].i >> 32);
    op->dst.store(t, &op->dst, op->exec, mask, d);
    op->dst2.store(t, &op->dst2, op->exec, mask, hi);
    t->pc++;
}

/* ADD3O: dst = src0 + src1 + src2 (wrapped) and the predicate (dst2) = whether the exact sum
** does not fit the destination type. */
static void h_add3o(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES], ov[EMU_MAX_LANES];
    for (unsigned k = 0; k < 3; k++) load_src(t, op, k, s[k]);
    emu_i128 lo = emu_int_min((isa_type)op->dst.type), hi = (emu_i128)emu_int_max((isa_type)op->dst.type);
    for (unsigned i = 0; i < op->exec; i++) {
        d[i].i = s[0][i].i + s[1][i].i + s[2][i].i;
        ov[i].i = d[i].i < lo || d[i].i > hi;
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    op->dst2.store(t, &op->dst2, op->exec, mask, ov);
    t->pc++;
}

/* SAD2 / SAD2ADD: per pair of lanes, |a0 - b0| + |a1 - b1| (+ src2) into the even lane; the odd
** lanes' values are undefined by the spec and left unchanged here. */
static void h_sad2(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op) & 0x55555555u;
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    for (unsigned k = 0; k < op->nsrc && k < 3; k++) load_src(t, op, k, s[k]);
    for (unsigned i = 0; i < op->exec; i++) {
        unsigned j = i | 1u;
        emu_i128 x = s[0][i].i - s[1][i].i, y = j < op->exec ? s[0][j].i - s[1][j].i : 0;
        d[i].i = (x < 0 ? -x : x) + (y < 0 ? -y : y) + (op->nsrc > 2 ? s[2][i].i : 0);
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}

/* First byte of an operand whose region the instruction ignores (PLANE, LINE src0). */
static bool flat_floats(emu_thread *t, const emu_opnd *o, unsigned count, float *out) {
    uint32_t b = (o->shape == EO_INDIRECT || o->shape == EO_VXH) ? emu_region_byte(t, o, 0) : o->off;
    if (b == UINT32_MAX || (uint64_t)b + 4u * count > t->prog->lay.file_bytes) {
        emu_fault(t, 0, "operand reaches outside the register file");
        return false;
    }
    memcpy(out, t->file + b, 4u * count);
    return true;
}

/* LINE: dst = src0[0] * src1 + src0[3] (src0's region ignored: four floats), one rounding. */
static void h_line(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    float p[4];
    if (!flat_floats(t, &op->src[0], 4, p)) return;
    emu_val s[EMU_MAX_LANES], d[EMU_MAX_LANES];
    op->src[1].load(t, &op->src[1], op->exec, s);
    apply_mod(s, op->exec, op->src[1].mod, EC_FLT);
    for (unsigned i = 0; i < op->exec; i++) d[i].f = fmaf(p[0], (float)s[i].f, p[3]);
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}

/* PLANE (PLN page): dst[i] = p * u[i] + q * v[i] + r with p, q, r = src0[0], src0[1], src0[3] and
** u, v eight-float blocks of src1 (lanes 8..15 use the second pair); both regions ignored.  The
** products are exact in double; the sum is rounded once to float. */
static void h_plane(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    float p[4], uv[32];
    unsigned n = op->exec;
    if (!flat_floats(t, &op->src[0], 4, p) || !flat_floats(t, &op->src[1], n > 8 ? 32 : 16, uv)) return;
    emu_val d[EMU_MAX_LANES];
    for (unsigned i = 0; i < n; i++) {
        const float *blk = uv + (i / 8) * 16;
        d[i].f = (float)((double)p[0] * blk[i % 8] + (double)p[1] * blk[8 + i % 8] + p[3]);
    }
    op->dst.store(t, &op->dst, n, mask, d);
    t->pc++;
}

/* SETP: a scalar source gives one bit per lane from its bits (every lane written); a vector
** source gives the low bit of each enabled lane. */
static void h_setp(emu_thread *t, const emu_op *op) {
    unsigned n = op->exec;
    emu_val s[EMU_MAX_LANES], d[EMU_MAX_LANES];
    load_src(t, op, 0, s);
    uint32_t mask;
    if (op->src[0].shape == EO_SCALAR || op->src[0].shape == EO_IMM) {
        uint64_t v = (uint64_t)s[0].i;
        for (unsigned i = 0; i < n; i++) d[i].i = (v >> i) & 1;
        mask = lanes_mask(n);
    } else {
        for (unsigned i = 0; i < n; i++) d[i].i = s[i].i & 1;
        mask = emu_chen(t, op);
    }
    op->dst.store(t, &op->dst, n, mask, d);
    t->pc++;
}

/* INVM / RSQTM: the quotient or reciprocal square root (computed exactly rounded: a valid
** "initial approximation" that any refinement keeps), and the early-out predicate (dst2): the
** result is a NaN, an infinity or a zero. */
static void h_math_eo(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES], eo[EMU_MAX_LANES];
    for (unsigned k = 0; k < op->nsrc && k < 2; k++) load_src(t, op, k, s[k]);
    op->calc(op, op->exec, d, s);
    for (unsigned i = 0; i < op->exec; i++) eo[i].i = isnan(d[i].f) || isinf(d[i].f) || d[i].f == 0;
    op->dst.store(t, &op->dst, op->exec, mask, d);
    op->dst2.store(t, &op->dst2, op->exec, mask, eo);
    t->pc++;
}

/* FCVT / SRND: raw bit patterns in and out (the operands were retyped to same-size unsigned
** integers at lowering); op->cond selects the conversion. */
enum { CV_BF8_HF = 1, CV_HF_BF8, CV_HF8_HF, CV_HF_HF8, CV_TF32_F, CV_F_TF32, CV_SRND_F_HF, CV_SRND_HF_BF8 };

static void h_bits_cvt(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[2][EMU_MAX_LANES], d[EMU_MAX_LANES];
    op->src[0].load(t, &op->src[0], op->exec, s[0]);
    if (op->nsrc > 1) op->src[1].load(t, &op->src[1], op->exec, s[1]);
    for (unsigned i = 0; i < op->exec; i++) {
        uint64_t x = (uint64_t)s[0][i].i, r = 0;
        switch (op->cond) {
        case CV_BF8_HF: r = emu_bf8_to_hf((uint8_t)x, 0); break;
        case CV_HF_BF8: r = emu_hf_to_bf8((uint16_t)x, EMU_RNE); break;
        case CV_HF8_HF: r = emu_hf8_to_hf((uint8_t)x, 0); break;
        case CV_HF_HF8: r = emu_hf_to_hf8((uint16_t)x, EMU_RNE); break;
        case CV_TF32_F: r = (uint32_t)x; break;
        case CV_F_TF32: r = emu_f_to_tf32((uint32_t)x, EMU_RNE | EMU_CVT_FTZ_IN | EMU_CVT_FTZ_OUT); break;
        case CV_SRND_F_HF: r = emu_srnd_f_to_hf((uint32_t)x, (uint32_t)s[1][i].i); break;
        default: r = emu_srnd_hf_to_bf8((uint16_t)x, (uint32_t)s[1][i].i); break;
        }
        d[i].i = (emu_i128)r;
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}

/* -- Functions and multiway branches ------------------------------------------------------------ */

/* Enter the function starting at op `start` with `lanes` (fcall, ifcall).  A function's variables
** have one copy per thread, so a function already on the call stack cannot be entered again. */
static void enter_function(emu_thread *t, uint32_t start, uint32_t lanes) {
    if (!lanes) {
        t->pc++;
        return;
    }
    for (uint32_t k = 0; k < t->call_depth; k++)
        if (t->call_stack[k].func == start) {
            emu_fault(t, 0, "recursive call of a function (the emulator keeps one copy of a function's variables per thread)");
            return;
        }
    if (t->call_depth >= sizeof t->call_stack / sizeof t->call_stack[0]) {
        emu_fault(t, 0, "call stack overflow (more than %zu nested calls)",
                  sizeof t->call_stack / sizeof t->call_stack[0]);
        return;
    }
    t->call_stack[t->call_depth].ret_pc = t->pc + 1;
    t->call_stack[t->call_depth].em = t->em;
    t->call_stack[t->call_depth].func = start;
    t->call_depth++;
    t->em = lanes;
    t->pc = start;
}

/* Callee mask (FCALL page): a scalar call that is taken starts with all (dispatched) lanes on;
** a SIMD call with the active lanes whose predicate is set.  %arg, %retval, %sp and %fp are one
** per thread, so passing them needs no copy. */
static uint32_t callee_lanes(const emu_thread *t, const emu_op *op) {
    return op->exec == 1 ? (emu_uniform_pred(t, op) ? t->dispatch : 0) : emu_chen(t, op) << op->mask_off;
}

static void h_fcall(emu_thread *t, const emu_op *op) { enter_function(t, op->target, callee_lanes(t, op)); }

static void h_ifcall(emu_thread *t, const emu_op *op) {
    emu_val a[EMU_MAX_LANES];
    op->src[0].load(t, &op->src[0], 1, a);
    uint64_t fa = (uint64_t)a[0].i;
    const emu_program *p = t->prog;
    if (fa == 0 || fa > p->nroutines || p->func_op[fa - 1] == UINT32_MAX || p->m->routines.data[fa - 1].is_kernel) {
        emu_fault(t, 0, "ifcall to 0x%llx, which is not the address of a function of this module (see faddr)",
                  (unsigned long long)fa);
        return;
    }
    enter_function(t, p->func_op[fa - 1], callee_lanes(t, op));
}

/* FADDR: a function's address is its routine index plus one (op->info); a symbol outside the
** module gets EXTERNAL_SYMBOL_ADDRESS. */
#define EXTERNAL_SYMBOL_ADDRESS 0xFFFF000000000000ull

static void h_faddr(emu_thread *t, const emu_op *op) {
    emu_val v[EMU_MAX_LANES];
    v[0].i = op->info ? op->info : (emu_i128)EXTERNAL_SYMBOL_ADDRESS;
    op->dst.store(t, &op->dst, 1, 1, v);
    t->pc++;
}

/* fcall / faddr of a name that is not a function of the module: an error when it runs. */
static void h_no_function(emu_thread *t, const emu_op *op) {
    emu_fault(t, 0, "'%s' is not a function of this module (external functions cannot be emulated)",
              (const char *)op->aux);
}

static void h_switchjmp(emu_thread *t, const emu_op *op) {
    emu_val v[EMU_MAX_LANES];
    op->src[0].load(t, &op->src[0], 1, v);
    if (v[0].i < 0 || v[0].i >= op->imm) {
        emu_fault(t, 0, "switchjmp index %lld is outside the table of %d labels", (long long)v[0].i, op->imm);
        return;
    }
    t->pc = t->prog->targets.data[op->info + (uint32_t)v[0].i];
}

/* -- Table of semantics, keyed by form (sem.def) ------------------------------------------------ */
typedef struct sem_row {
    emu_sem sem;
    void (*calc)(const emu_op *, unsigned, emu_val *, emu_val[][EMU_MAX_LANES]); /* EMU_ALU rows */
    uint8_t int_only, flt_only;
    const char *not_emulated; /* EMU_NOT rows: why */
} sem_row;

static bool lower_alu(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_madw(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_add3o(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_bits_cvt(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_function_ref(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_scalar_src(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);

static const sem_row sem_table[VISA_FORM__COUNT] = {
#define EMU_ALU(F, fn, ndst, lower, calc, int_only, flt_only) \
    [VISA_FORM_##F] = {{fn, ndst, lower}, calc, int_only, flt_only, NULL},
#define EMU_SEM(F, fn, ndst, lower) [VISA_FORM_##F] = {{fn, ndst, lower}, NULL, 0, 0, NULL},
#define EMU_NOT(F, why) [VISA_FORM_##F] = {{NULL, 0, NULL}, NULL, 0, 0, why},
#include "sem.def"
#undef EMU_ALU
#undef EMU_SEM
#undef EMU_NOT
};

const emu_sem *emu_sem_of(unsigned form) {
    return form < VISA_FORM__COUNT && sem_table[form].sem.fn ? &sem_table[form].sem : NULL;
}

const char *emu_not_emulated(unsigned form) {
    return form < VISA_FORM__COUNT ? sem_table[form].not_emulated : NULL;
}

static bool lower_alu(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    const sem_row *a = &sem_table[in->form];
    /* compute class: the execution type comes from the sources (float if any source is a float,
    ** integer otherwise; an integer result is then converted to a float destination, rounding
    ** once); math functions always compute in float */
    bool flt = a->flt_only;
    if (!a->int_only) {
        for (unsigned k = 0; k < op->nsrc; k++)
            if (is_float_type(op->src[k].type) || (op->src[k].shape == EO_IMM && op->src[k].type == VISA_TYPE_VF))
                flt = true;
    }
    /* MOV and SEL within one float type, without modifiers or saturation, copy bits (signalling
    ** NaNs and payloads included): no float operation happens */
    if ((in->form == VISA_FORM_MOV || in->form == VISA_FORM_SEL) && flt && !op->sat && is_float_type(op->dst.type)) {
        bool copy = true;
        for (unsigned k = 0; k < op->nsrc; k++)
            copy = copy && op->src[k].type == op->dst.type && op->src[k].mod == VM_NONE;
        if (copy) {
            flt = false;
            op->dst.type = same_size_uint[op->dst.size];
            for (unsigned k = 0; k < op->nsrc; k++) op->src[k].type = same_size_uint[op->src[k].size];
        }
    }
    op->cls = flt ? EC_FLT : EC_INT;
    op->calc = a->calc;
    /* single precision when the destination is F and no source is wider */
    op->fsingle = flt && op->dst.type == VISA_TYPE_F;
    for (unsigned k = 0; k < op->nsrc; k++)
        if (op->src[k].size > 4) op->fsingle = 0;
    /* %cr0 rounding and denormal modes matter when a float is read or written */
    op->fenv = flt || is_float_type(op->dst.type);
    op->dst.mod = op->sat ? VM_SAT : VM_NONE;
    bool ok = emu_bind_opnd(&op->dst, op->cls) && (a->sem.ndst < 2 || emu_bind_opnd(&op->dst2, op->cls));
    for (unsigned k = 0; k < op->nsrc; k++) ok = ok && emu_bind_opnd(&op->src[k], op->cls);
    if (!ok) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                "operand types of '%s' are not supported by the emulator yet", isa_forms[in->form].name);
        return false;
    }
    if (in->form == VISA_FORM_MOV && op->nsrc == 1 && op->src[0].shape == EO_PRED && op->dst.shape != EO_PRED) {
        /* a flag copy: the whole predicate as a ud value (it read lane 0's bit, 0 or 1) */
        op->src[0].type = VISA_TYPE_UD;
        op->src[0].size = 4;
        op->src[0].load = ld_pred_value;
    }
    if (in->form == VISA_FORM_SEL) op->pred_selects = 1;
    if (in->form == VISA_FORM_CMP && op->dst.shape != EO_PRED && is_float_type(op->dst.type)) {
        /* the result is a bit pattern (all ones or zeros): store it as the same-size integer */
        op->dst.type = same_size_uint[op->dst.size];
        op->dst.store = rw_of_type[op->dst.type].st[EC_INT];
    }
    emu_handler fast = op->fn == h_alu ? emu_fast_handler(p, op) : op->fn == h_cmp ? emu_fast_cmp(p, op) : NULL;
    if (fast) op->fn = fast;
    return true;
}

/* MADW's high dwords: the destination region moved by its span rounded up to whole GRFs. */
static bool lower_madw(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    if (!lower_alu(p, in, op, ds)) return false;
    const emu_opnd *d = &op->dst;
    uint32_t span;
    if (d->shape == EO_CONTIG) span = op->exec * d->size;
    else if (d->shape == EO_SCALAR) span = d->size;
    else if (d->shape == EO_GENERAL) span = p->lane_off.data[d->lanes * EMU_MAX_LANES + op->exec - 1] + d->size;
    else {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "madw with an indirect destination is not supported by the emulator");
        return false;
    }
    uint32_t grf = p->cur->grf_bytes, hi = (span + grf - 1) / grf * grf;
    op->dst2 = op->dst;
    op->dst2.off += hi;
    if (op->dst2.off + span > p->cur->file_bytes) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                "madw's high half (%u bytes after the destination) reaches outside the register file", hi);
        return false;
    }
    return true;
}

/* ADD3O: the instruction's predicate field names the overflow destination, not a condition. */
static bool lower_add3o(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    uint32_t id = op->pred_id; /* already rebased onto the routine's predicates */
    op->pred_id = 0;
    op->pred_ctrl = 0;
    op->pred_inv = 0;
    if (!lower_alu(p, in, op, ds)) return false;
    memset(&op->dst2, 0, sizeof op->dst2);
    op->dst2.shape = EO_PRED;
    op->dst2.type = VISA_TYPE_BOOL;
    op->dst2.size = 1;
    op->dst2.off = id;
    op->dst2.bitoff = op->mask_off;
    return emu_bind_opnd(&op->dst2, EC_INT);
}

/* FCVT and SRND: pick the conversion from the operand types and read / write raw bits. */
static bool lower_bits_cvt(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    (void)p;
    unsigned d = op->dst.type, s0 = op->src[0].type, kind = 0;
    if (in->form == VISA_FORM_FCVT) {
        kind = d == VISA_TYPE_HF && s0 == VISA_TYPE_UB   ? CV_BF8_HF
               : d == VISA_TYPE_UB && s0 == VISA_TYPE_HF ? CV_HF_BF8
               : d == VISA_TYPE_HF && s0 == VISA_TYPE_B  ? CV_HF8_HF
               : d == VISA_TYPE_B && s0 == VISA_TYPE_HF  ? CV_HF_HF8
               : d == VISA_TYPE_F && s0 == VISA_TYPE_UD  ? CV_TF32_F
               : d == VISA_TYPE_UD && s0 == VISA_TYPE_F  ? CV_F_TF32
                                                          : 0;
    } else {
        kind = d == VISA_TYPE_HF && s0 == VISA_TYPE_F    ? CV_SRND_F_HF
               : d == VISA_TYPE_UB && s0 == VISA_TYPE_HF ? CV_SRND_HF_BF8
                                                          : 0;
    }
    if (!kind) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "%s from %s to %s is not defined",
                isa_forms[in->form].mnem, isa_types[s0].name, isa_types[d].name);
        return false;
    }
    op->cond = (uint8_t)kind;
    op->cls = EC_INT;
    emu_opnd *all[] = {&op->dst, &op->src[0], &op->src[1]};
    for (unsigned k = 0; k < 1u + op->nsrc && k < 3; k++) {
        all[k]->type = same_size_uint[all[k]->size];
        if (!emu_bind_opnd(all[k], EC_INT)) return false;
    }
    return true;
}

/* fcall / faddr: the named function's first op, or a handler that reports it missing. */
static const char *function_name(const emu_program *p, const ir_inst *in) {
    for (unsigned j = 0; j < in->nopnd; j++)
        if (in->opnd[j].kind == 's' || in->opnd[j].kind == 'S') return ir_str(p->cur_r, in->opnd[j].u.str);
    return "";
}

static bool lower_function_ref(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    const char *name = function_name(p, in);
    int f = ir_find_function(p->m, name);
    if ((f < 0 || p->func_op[f] == UINT32_MAX) && in->form == VISA_FORM_FADDR) {
        /* a symbol the module does not define (IGC takes the address of string constants this
        ** way): an address outside emulated memory, so using it as a pointer or calling it is a
        ** run-time error, while computing with it is not */
        op->info = 0;
        op->imm = 0;
        op->target = UINT32_MAX;
        op->aux = name;
        op->fn = h_faddr;
        return emu_bind_opnd(&op->dst, EC_INT);
    }
    if (f < 0 || p->func_op[f] == UINT32_MAX) {
        op->fn = h_no_function;
        op->aux = name;
        return true;
    }
    op->target = p->func_op[f];
    op->info = (uint32_t)f + 1;
    if (in->form == VISA_FORM_FADDR && !emu_bind_opnd(&op->dst, EC_INT)) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "faddr's destination type is not supported");
        return false;
    }
    return true;
}

/* ifcall, switchjmp: a scalar integer source. */
static bool lower_scalar_src(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    (void)p;
    if (op->nsrc < 1 || !emu_bind_opnd(&op->src[0], EC_INT) || is_float_type(op->src[0].type)) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "%s needs an integer operand", isa_forms[in->form].mnem);
        return false;
    }
    return true;
}
