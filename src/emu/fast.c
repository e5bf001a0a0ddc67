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

#define FAST(NAME, T, NSRC, EXPR)                                                          \
    static void NAME(emu_thread *t, const emu_op *op) {                                    \
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
FAST(f_mad, float, 3, fmaf(a, b, c)) /* one rounding, like the hardware */
FAST(f_min, float, 2, fminf(a, b))
FAST(f_max, float, 2, fmaxf(a, b))
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
    for (unsigned k = 0; k < op->nsrc; k++) {
        const emu_opnd *s = &op->src[k];
        if (s->type != ty || s->mod) return NULL;
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
