/* fast_ops.h -- THE list of the ALU operations with specialised handlers (fast.c, fast_body.h) and
** compiled code (jit.c), in the order of the handler tables.  Each of those expands it: fast.c to
** map forms to operations and read their facts, fast_body.h to build every operation's handlers
** from its expressions FB_INT_<name> / FB_FLT_<name>, jit.c to build its code from JIT_INT_<name>
** / JIT_FLT_<name>; a row without those expressions does not compile.
**
** EMU_FAST_OPS(X, A) calls X(A, Form, name, nsrc, flt, wide_mods, shift) for each row:
**   Form       the instruction, VISA_FORM_<Form>
**   name       the handlers' name (fast_body.h: B_add, F_add_ms, ...)
**   nsrc       sources
**   flt        1: handlers for f, df, hf and bf too (these rows come first); 0: integers only
**   wide_mods  1: source modifiers on d..uq are taken: the operation's low bits do not depend on
**              the carry that a modifier's exact value (-INT_MIN) loses in 32 or 64 bits
**   shift      1: src1 is a shift count, masked to the element's width
** A is passed through to X (fast_body.h: the type). */
#ifndef VISA_EMU_FAST_OPS_H
#define VISA_EMU_FAST_OPS_H

#include <stdint.h>

#include "isa.h"

#define EMU_FAST_OPS(X, A)     \
    X(A, MOV, mov, 1, 1, 1, 0) \
    X(A, ADD, add, 2, 1, 1, 0) \
    X(A, MUL, mul, 2, 1, 1, 0) \
    X(A, MAD, mad, 3, 1, 1, 0) \
    X(A, MIN, min, 2, 1, 0, 0) \
    X(A, MAX, max, 2, 1, 0, 0) \
    X(A, AND, and, 2, 0, 1, 0) \
    X(A, OR, or, 2, 0, 1, 0)   \
    X(A, XOR, xor, 2, 0, 1, 0) \
    X(A, SHL, shl, 2, 0, 1, 1) \
    X(A, SHR, shr, 2, 0, 0, 1) \
    X(A, ASR, asr, 2, 0, 0, 1) \
    X(A, ADD3, add3, 3, 0, 1, 0)

/* EMU_FAST_IF_##flt(...): its arguments for a float row, nothing for the others */
#define EMU_FAST_IF_1(...) __VA_ARGS__
#define EMU_FAST_IF_0(...)

typedef enum emu_fast_op {
#define FO_ENUM(A, F, name, nsrc, flt, wide_mods, shift) FO_##F,
    EMU_FAST_OPS(FO_ENUM, ~)
#undef FO_ENUM
} emu_fast_op;

/* outside emu_fast_op, so that a switch over it names exactly the rows */
#define FO_PLUS_ONE(A, F, name, nsrc, flt, wide_mods, shift) +1
#define FO_PLUS_FLT(A, F, name, nsrc, flt, wide_mods, shift) +(flt)
enum { FO__COUNT = 0 EMU_FAST_OPS(FO_PLUS_ONE, ~), FO__FLT = 0 EMU_FAST_OPS(FO_PLUS_FLT, ~) };
#undef FO_PLUS_ONE
#undef FO_PLUS_FLT
/* the float handler tables are indexed by the operation: the float rows come first */
#define FO_FLT_FIRST(A, F, name, nsrc, flt, wide_mods, shift) \
    _Static_assert(((int)FO_##F < (int)FO__FLT) == (flt), "fast_ops.h: " #F ": the float rows come first");
EMU_FAST_OPS(FO_FLT_FIRST, ~)
#undef FO_FLT_FIRST

static const struct emu_fast_op_facts {
    uint8_t flt, wide_mods, shift;
} emu_fast_op_facts[FO__COUNT] = {
#define FO_FACTS(A, F, name, nsrc, flt, wide_mods, shift) {flt, wide_mods, shift},
    EMU_FAST_OPS(FO_FACTS, ~)
#undef FO_FACTS
};

/* The operation of a form, -1 if it has no specialised handlers. */
static inline int emu_fast_op_of(unsigned form) {
    switch (form) {
#define FO_CASE(A, F, name, nsrc, flt, wide_mods, shift) \
    case VISA_FORM_##F: return FO_##F;
        EMU_FAST_OPS(FO_CASE, ~)
#undef FO_CASE
    default: return -1;
    }
}

#endif
