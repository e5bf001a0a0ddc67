/* alu.c -- the generic ALU: lane-wise instructions in three phases over lane arrays.  Every source
** is loaded into its compute class by the loader chosen at lowering (access.c), the op's calc
** function runs over the arrays (plain loops the compiler vectorises), and the destination's
** storer converts back, saturates and writes only the enabled lanes.  Also the ALU forms with
** their own shape (sel, cmp, carry/borrow, madw, add3o, sad2, line, plane, setp, math with
** exponent output, fcvt/srnd) and the %cr0-aware path the fast handlers (fast.c) fall back to.
*/
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "access.h"
#include "convert.h"
#include "families.h"

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
    if (!o->load) emu_load_packed(o, op->exec, op->cls, out);
    else o->load(t, o, op->exec, out);
    apply_mod(out, op->exec, o->mod, op->cls);
}

static void h_alu_cr0(emu_thread *t, const emu_op *op);


void h_alu(emu_thread *t, const emu_op *op) {
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
        if (op->cls != EC_FLT || !emu_is_float_type(ty)) continue;
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
    if (!emu_is_float_type(dt) || op->dst.shape == EO_PRED) {
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
            if (dt == VISA_TYPE_DF && (flags & EMU_CVT_FTZ_OUT) && fabs(d[i].f) < 0x1p-1022)
                d[i].f = copysign(0.0, d[i].f);
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
    raw.store = emu_bits_store(raw.size);
    raw.store(t, &raw, n, mask, d);
    t->pc++;
}

/* SEL (SEL page): EM[i] ? (Pred[i] ? src0 : src1); the predicate selects, it does not mask the
** write.  Pred[i] is PMask of EvaluateChEn, so .any / .all and '!' apply as for any op. */
void h_sel(emu_thread *t, const emu_op *op) {
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

void h_cmp(emu_thread *t, const emu_op *op) {
    uint32_t mask = emu_chen(t, op);
    emu_val s[4][EMU_MAX_LANES], d[EMU_MAX_LANES];
    load_src(t, op, 0, s[0]);
    load_src(t, op, 1, s[1]);
    if (op->cls == EC_FLT && op->fenv) {
        uint32_t cr0 = emu_cr0_modes(t);
        if (cr0 != EMU_CR0_FAST)
            for (unsigned k = 0; k < 2; k++)
                if (emu_is_float_type(op->src[k].type)) flush_denormals(cr0, op->src[k].type, s[k], op->exec);
    }
    unsigned rel = op->cond & 7;
    bool nan_aware = (op->cond & 0x80) != 0;
    for (unsigned i = 0; i < op->exec; i++) {
        bool r;
        if (op->cls == EC_FLT) {
            double a = s[0][i].f, b = s[1][i].f;
            r = rel_holds(rel, a<b, a == b, a> b);
            if (nan_aware && rel != 1 && (a != a || b != b)) r = true;
        } else {
            emu_i128 a = s[0][i].i, b = s[1][i].i;
            r = rel_holds(rel, a<b, a == b, a> b);
        }
        d[i].i = op->dst.shape == EO_PRED ? r : r ? -1 : 0; /* all ones or zeros (CMP notes) */
    }
    op->dst.store(t, &op->dst, op->exec, mask, d);
    t->pc++;
}


/* -- Arithmetic calc functions ------------------------------------------------------------------ */
/* Float ops with an F destination compute in float (a + b rounds once, to float); the others in
** double, which holds every HF/BF/F operation's exact sum and product before the final rounding. */
#define CALC(NAME, IEXPR, FEXPR)                                                             \
    static void NAME(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]) { \
        if (op->cls == EC_FLT && op->fsingle)                                                \
            for (unsigned i = 0; i < n; i++) {                                               \
                float a = (float)s[0][i].f, b = (float)s[1][i].f, c = (float)s[2][i].f;      \
                (void)a, (void)b, (void)c;                                                   \
                d[i].f = (float)(FEXPR);                                                     \
            }                                                                                \
        else if (op->cls == EC_FLT)                                                          \
            for (unsigned i = 0; i < n; i++) {                                               \
                double a = s[0][i].f, b = s[1][i].f, c = s[2][i].f;                          \
                (void)a, (void)b, (void)c;                                                   \
                d[i].f = FEXPR;                                                              \
            }                                                                                \
        else                                                                                 \
            for (unsigned i = 0; i < n; i++) {                                               \
                emu_i128 a = s[0][i].i, b = s[1][i].i, c = s[2][i].i;                        \
                (void)a, (void)b, (void)c;                                                   \
                d[i].i = IEXPR;                                                              \
            }                                                                                \
    }

/* Integer results are exact in 128 bits (products of 64-bit values wrap in unsigned 128-bit
** arithmetic only when they cannot be represented, which only .sat on uq * uq can observe). */
#define U(x) ((emu_u128)(x))
CALC(c_mov, a, a)
CALC(c_add, a + b, a + b)
CALC(c_mul, (emu_i128)(U(a) * U(b)), a *b)
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
    for (unsigned k = 0; narrow && k < 3; k++) narrow = op->src[k].size <= 4;
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
    for (unsigned i = 0; i < n; i++) d[i].f = fmaf((float)s[0][i].f, (float)s[1][i].f, (float)s[2][i].f);
}
CALC(c_add3, a + b + c, a + b + c)
CALC(c_avg, (a + b + 1) >> 1, (a + b) / 2)
/* MIN_MAX.md: a NaN operand gives the other operand, signalling NaNs included (C's fmin may
** return NaN for a signalling one); two NaNs give src1. */
static inline double nan_min(double a, double b) { return isnan(b) ? a : isnan(a) ? b : fmin(a, b); }
static inline double nan_max(double a, double b) { return isnan(b) ? a : isnan(a) ? b : fmax(a, b); }
CALC(c_min, a < b ? a : b, nan_min(a, b))
CALC(c_max, a > b ? a : b, nan_max(a, b))
CALC(c_and, a &b, 0)
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
CALC(c_lrp, 0, (double)b *a + (double)c * (1.0 - (double)a)) /* products exact, one rounding */
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
    for (unsigned i = 0; i < n; i++) d[i].i = (emu_i128)(((emu_u128)s[0][i].i & keep) >> (s[1][i].i & m));
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
        d[i].i = is_signed_type(op->src[0].type) && bits < 64 && (r >> (bits - 1) & 1)
                     ? (emu_i128)r - ((emu_i128)1 << bits)
                 : bits == 64 && is_signed_type(op->src[0].type) ? (emu_i128)(int64_t)r
                                                                 : (emu_i128)r;
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
void h_carry(emu_thread *t, const emu_op *op) {
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
void h_madw(emu_thread *t, const emu_op *op) {
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
void h_add3o(emu_thread *t, const emu_op *op) {
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
void h_sad2(emu_thread *t, const emu_op *op) {
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
        emu_fault(t, EDIAG_RUN_OPERAND_FILE, 0);
        return false;
    }
    memcpy(out, t->file + b, 4u * count);
    return true;
}

/* LINE: dst = src0[0] * src1 + src0[3] (src0's region ignored: four floats), one rounding. */
void h_line(emu_thread *t, const emu_op *op) {
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
void h_plane(emu_thread *t, const emu_op *op) {
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
void h_setp(emu_thread *t, const emu_op *op) {
    unsigned n = op->exec;
    emu_val s[EMU_MAX_LANES], d[EMU_MAX_LANES];
    load_src(t, op, 0, s);
    uint32_t mask;
    if (op->src[0].shape == EO_SCALAR || op->src[0].shape == EO_IMM) {
        uint64_t v = (uint64_t)s[0].i;
        for (unsigned i = 0; i < n; i++) d[i].i = (v >> i) & 1;
        mask = emu_lanes_mask(n);
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
void h_math_eo(emu_thread *t, const emu_op *op) {
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

/* FCVT and SRND: pick the conversion from the operand types and read / write raw bits. */
bool lower_bits_cvt(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
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
        emu_diag(ds, EDIAG_LOWER_CONVERSION, in->line, in->col, isa_forms[in->form].mnem, isa_types[s0].name,
                 isa_types[d].name);
        return false;
    }
    op->cond = (uint8_t)kind;
    op->cls = EC_INT;
    emu_opnd *all[] = {&op->dst, &op->src[0], &op->src[1]};
    for (unsigned k = 0; k < 1u + op->nsrc && k < 3; k++) {
        all[k]->type = emu_bits_type(all[k]->size);
        if (!emu_bind_opnd(all[k], EC_INT)) return false;
    }
    return true;
}

void h_bits_cvt(emu_thread *t, const emu_op *op) {
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


/* The calc function of each ALU form (sem.def's EMU_ALU rows). */
static void (*const calc_of[VISA_FORM__COUNT])(const emu_op *, unsigned, emu_val *, emu_val[][EMU_MAX_LANES]) = {
#define EMU_ALU(F, fn, lower, calc, int_only, flt_only) [VISA_FORM_##F] = calc,
#define EMU_SEM(F, fn, lower)
#define EMU_NOT(F, why)
#include "sem.def"
#undef EMU_ALU
#undef EMU_SEM
#undef EMU_NOT
};

emu_calc_fn emu_alu_calc(unsigned form) { return form < VISA_FORM__COUNT ? calc_of[form] : NULL; }
