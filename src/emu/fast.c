/* fast.c -- specialised handlers for the common case: one element type (f, d or ud) on every
** operand, contiguous, broadcast or immediate sources, a contiguous (or scalar) destination, no
** source modifier and no saturation.  They compute exactly what the generic path computes (same
** rounding: single-precision ops are exact in double before the final rounding, mad is fused),
** without widening lanes into arrays.  Chosen at lowering; everything else takes the generic path.
*/
#include <math.h>
#include <string.h>

#include "exec.h"

/* Pointer and stride (elements) of a source: contiguous, broadcast or immediate; a direct
** strided region (lowering proved it inside the file) is gathered into buf_ first. */
#define SRC(T, k, p, s)                                                                    \
    const T *p;                                                                            \
    unsigned s;                                                                            \
    T buf_##p[EMU_MAX_LANES];                                                              \
    do {                                                                                   \
        const emu_opnd *o_ = &op->src[k];                                                  \
        if (o_->shape == EO_IMM) {                                                         \
            p = (const T *)(const void *)&o_->imm;                                         \
            s = 0;                                                                         \
        } else if (o_->shape == EO_GENERAL && o_->ustride) { /* lane i at i * ustride */  \
            p = (const T *)(const void *)(t->file + o_->off);                              \
            s = o_->ustride;                                                               \
        } else if (o_->shape == EO_GENERAL) {                                              \
            const uint16_t *lo_ = t->prog->lane_off.data + (size_t)o_->lanes * EMU_MAX_LANES; \
            const uint8_t *b_ = t->file + o_->off;                                         \
            for (unsigned i_ = 0; i_ < op->exec; i_++) memcpy(&buf_##p[i_], b_ + lo_[i_], sizeof(T)); \
            p = buf_##p;                                                                   \
            s = 1;                                                                         \
        } else {                                                                           \
            p = (const T *)(const void *)(t->file + o_->off);                              \
            s = o_->shape == EO_CONTIG;                                                    \
        }                                                                                  \
    } while (0)

/* Hosts with an FMA unit run the fused multiply-add in hardware; the others call fmaf.  Both
** round once, so the results are the same bits.  Not under TSan: the clones' resolver (an ifunc,
** run while the program is relocated) would be instrumented and crash before TSan starts. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

#define LOOP_CC(N, T, EXPR)                                                                \
    for (unsigned i = 0; i < (N); i++) {                                                   \
        T a = s0[i], b = s1[i], c = s2[i];                                                 \
        (void)b, (void)c;                                                                  \
        d[i] = (EXPR);                                                                     \
    }
#define LOOP_CB(N, T, EXPR)                                                                \
    {                                                                                      \
        const T b = s1[0];                                                                 \
        (void)b;                                                                           \
        for (unsigned i = 0; i < (N); i++) {                                               \
            T a = s0[i], c = s2[i];                                                        \
            (void)c;                                                                       \
            d[i] = (EXPR);                                                                 \
        }                                                                                  \
    }

#define FAST(NAME, T, NSRC, EXPR) FAST_ATTR(NAME, T, NSRC, EXPR, )
#define FAST_ATTR(NAME, T, NSRC, EXPR, ATTR)                                               \
    ATTR static void NAME(emu_thread *t, const emu_op *op) {                               \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                \
            emu_alu_generic(t, op); /* rounding / denormal modes: the %cr0-aware path */   \
            return;                                                                        \
        }                                                                                  \
        uint32_t mask = emu_chen(t, op);                                                   \
        unsigned n = op->exec;                                                             \
        T *d = (T *)(void *)(t->file + op->dst.off);                                       \
        SRC(T, 0, s0, k0);                                                                 \
        SRC(T, NSRC > 1 ? 1 : 0, s1, k1);                                                  \
        SRC(T, NSRC > 2 ? 2 : 0, s2, k2);                                                  \
        (void)s1, (void)k1, (void)s2, (void)k2;                                            \
        if (mask == (n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1)) {                             \
            /* SIMD16 gets a constant trip count: the compiler vectorises it whole */      \
            if (k0 == 1 && k1 == 1 && k2 == 1) { /* all contiguous (unused ones alias src0) */ \
                if (n == 16) LOOP_CC(16, T, EXPR) else LOOP_CC(n, T, EXPR)                 \
            } else if (k0 == 1 && k1 == 0 && k2 == 1) { /* src1 broadcast (an immediate) */ \
                if (n == 16) LOOP_CB(16, T, EXPR) else LOOP_CB(n, T, EXPR)                 \
            } else if (k0 == 2 && k1 == 2 && k2 == 2 && n == 16) { /* pairwise <2;1,0>, <16;8,2> */ \
                for (unsigned i = 0; i < 16; i++) {                                        \
                    T a = s0[2 * i], b = s1[2 * i], c = s2[2 * i];                         \
                    (void)b, (void)c;                                                      \
                    d[i] = (EXPR);                                                         \
                }                                                                          \
            } else                                                                         \
            for (unsigned i = 0; i < n; i++) {                                             \
                T a = s0[i * k0], b = s1[i * k1], c = s2[i * k2];                          \
                (void)b, (void)c;                                                          \
                d[i] = (EXPR);                                                             \
            }                                                                              \
        } else {                                                                           \
            for (unsigned i = 0; i < n; i++) {                                             \
                if (!(mask >> i & 1)) continue;                                            \
                T a = s0[i * k0], b = s1[i * k1], c = s2[i * k2];                          \
                (void)b, (void)c;                                                          \
                d[i] = (EXPR);                                                             \
            }                                                                              \
        }                                                                                  \
        t->pc++;                                                                           \
    }

typedef uint32_t u32;
typedef int32_t i32;
FAST(f_mov, float, 1, a)
FAST(f_add, float, 2, a + b)
FAST(f_mul, float, 2, a * b)
FAST_ATTR(f_mad, float, 3, fmaf(a, b, c), FMA_CLONES) /* one rounding, like the hardware */
/* MIN_MAX.md: a NaN operand (signalling too) gives the other one; fminf may not */
FAST(f_min, float, 2, isnan(b) ? a : isnan(a) ? b : fminf(a, b))
FAST(f_max, float, 2, isnan(b) ? a : isnan(a) ? b : fmaxf(a, b))
FAST(d_mov, i32, 1, a)
FAST(d_add, i32, 2, (i32)((u32)a + (u32)b))
FAST(d_mul, i32, 2, (i32)((u32)a * (u32)b))
FAST(d_mad, i32, 3, (i32)((u32)a * (u32)b + (u32)c))
FAST(d_min, i32, 2, a < b ? a : b)
FAST(d_max, i32, 2, a > b ? a : b)
FAST(d_and, i32, 2, a & b)
FAST(d_or, i32, 2, a | b)
FAST(d_xor, i32, 2, a ^ b)
FAST(d_shl, i32, 2, (i32)((u32)a << (b & 31)))
FAST(d_shr, i32, 2, (i32)((u32)a >> (b & 31)))
FAST(d_asr, i32, 2, a >> (b & 31))
FAST(ud_mov, u32, 1, a)
FAST(ud_add, u32, 2, a + b)
FAST(ud_mul, u32, 2, a * b)
FAST(ud_mad, u32, 3, a * b + c)
FAST(ud_min, u32, 2, a < b ? a : b)
FAST(ud_max, u32, 2, a > b ? a : b)
FAST(ud_and, u32, 2, a & b)
FAST(ud_or, u32, 2, a | b)
FAST(ud_xor, u32, 2, a ^ b)
FAST(ud_shl, u32, 2, a << (b & 31))
FAST(ud_shr, u32, 2, a >> (b & 31))

/* CMP into a predicate: the relation's C operator per lane (IEEE: with a NaN only ne holds),
** the bits merged into the predicate at the op's mask offset. */
#define FAST_CMP(NAME, T)                                                                  \
    static void NAME(emu_thread *t, const emu_op *op) {                                    \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                \
            emu_cmp_generic(t, op); /* denormal flushing */                                \
            return;                                                                        \
        }                                                                                  \
        uint32_t mask = emu_chen(t, op), bits = 0;                                         \
        unsigned n = op->exec;                                                             \
        SRC(T, 0, s0, k0);                                                                 \
        SRC(T, 1, s1, k1);                                                                 \
        switch (op->cond & 7) {                                                            \
        case 0: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] == s1[i * k1]) << i; break; \
        case 1: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] != s1[i * k1]) << i; break; \
        case 2: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] > s1[i * k1]) << i; break;  \
        case 3: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] >= s1[i * k1]) << i; break; \
        case 4: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] < s1[i * k1]) << i; break;  \
        default: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(s0[i * k0] <= s1[i * k1]) << i; break; \
        }                                                                                  \
        unsigned b = op->dst.bitoff;                                                       \
        uint32_t m = b < 32 ? mask << b : 0;                                               \
        t->pred[op->dst.off] = (t->pred[op->dst.off] & ~m) | ((b < 32 ? bits << b : 0) & m); \
        t->pc++;                                                                           \
    }
FAST_CMP(cmp_f, float)
FAST_CMP(cmp_d, i32)
FAST_CMP(cmp_ud, u32)

emu_handler emu_fast_cmp(const emu_op *op) {
    unsigned ty = op->src[0].type;
    emu_handler h = ty == VISA_TYPE_F ? cmp_f : ty == VISA_TYPE_D ? cmp_d : ty == VISA_TYPE_UD ? cmp_ud : NULL;
    if (!h || op->dst.shape != EO_PRED || (op->cond & 0x80) || op->nsrc != 2) return NULL;
    for (unsigned k = 0; k < 2; k++) {
        const emu_opnd *s = &op->src[k];
        if (s->type != ty || s->mod || (s->shape != EO_IMM && s->off % s->size)) return NULL;
        if (s->shape != EO_CONTIG && s->shape != EO_SCALAR && s->shape != EO_IMM && s->shape != EO_GENERAL)
            return NULL;
    }
    return h;
}

typedef struct fast_row {
    emu_handler f, d, ud;
} fast_row;

static const fast_row fast_rows[VISA_FORM__COUNT] = {
    [VISA_FORM_MOV] = {f_mov, d_mov, ud_mov}, [VISA_FORM_ADD] = {f_add, d_add, ud_add},
    [VISA_FORM_MUL] = {f_mul, d_mul, ud_mul}, [VISA_FORM_MAD] = {f_mad, d_mad, ud_mad},
    [VISA_FORM_MIN] = {f_min, d_min, ud_min}, [VISA_FORM_MAX] = {f_max, d_max, ud_max},
    [VISA_FORM_AND] = {NULL, d_and, ud_and},  [VISA_FORM_OR] = {NULL, d_or, ud_or},
    [VISA_FORM_XOR] = {NULL, d_xor, ud_xor},  [VISA_FORM_SHL] = {NULL, d_shl, ud_shl},
    [VISA_FORM_SHR] = {NULL, d_shr, ud_shr},  [VISA_FORM_ASR] = {NULL, d_asr, NULL},
};

emu_handler emu_fast_handler(const emu_op *op) {
    const fast_row *row = &fast_rows[op->form];
    unsigned ty = op->dst.type;
    emu_handler h = ty == VISA_TYPE_F ? row->f : ty == VISA_TYPE_D ? row->d : ty == VISA_TYPE_UD ? row->ud : NULL;
    if (!h || op->sat || op->pred_selects) return NULL;
    if (op->dst.shape != EO_CONTIG && op->dst.shape != EO_SCALAR) return NULL;
    if (op->dst.shape == EO_SCALAR && op->exec != 1) return NULL;
    uint32_t dlo = op->dst.off, dhi = dlo + (uint32_t)op->exec * op->dst.size;
    if (dlo % op->dst.size) return NULL; /* the loops use typed pointers: aligned elements only */
    for (unsigned k = 0; k < op->nsrc; k++) {
        const emu_opnd *s = &op->src[k];
        if (s->type != ty || s->mod) return NULL;
        if (s->shape != EO_IMM && s->off % s->size) return NULL;
        /* the loops write lane i before reading lane i + 1: a source the destination overlaps
        ** (other than lane for lane) must be read whole first, as the generic path does */
        if (op->exec > 1 && (s->shape == EO_CONTIG || s->shape == EO_SCALAR)) {
            uint32_t slo = s->off, shi = slo + (s->shape == EO_CONTIG ? (uint32_t)op->exec * s->size : s->size);
            if (slo < dhi && dlo < shi && !(s->shape == EO_CONTIG && slo == dlo)) return NULL;
        }
        if (s->shape != EO_CONTIG && s->shape != EO_SCALAR && s->shape != EO_IMM && s->shape != EO_GENERAL)
            return NULL;
    }
    return h;
}
