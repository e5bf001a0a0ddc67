/* access.h -- how handlers touch a thread's state: operand loaders and storers (chosen at
** lowering by emu_bind_opnd), channel enables and predicate bits, region bytes, %cr0's modes, and
** run-time faults.  Every handler of every family reads and writes operands through these. */
#ifndef VISA_EMU_ACCESS_H
#define VISA_EMU_ACCESS_H

#include <string.h>

#include "emu.h"

/* Stop thread t with a run-time error at lane `lane` (the first fault of the thread is kept):
** emu_fault(t, EDIAG_RUN_X, lane, args...) with row EDIAG_RUN_X's template (diags.h). */
void emu_fault_report(emu_thread *t, emu_diag_id d, const char *fmt, unsigned lane, ...)
    __attribute__((format(printf, 3, 5)));
#define emu_fault(t, d, ...) emu_fault_report(t, d, d##_FMT, __VA_ARGS__)

/* Pick an operand's loader and storer for a compute class (EC_INT / EC_FLT); false if its type
** is not supported. */
bool emu_bind_opnd(emu_opnd *o, unsigned cls);
/* A predicate source read as one unsigned value (MOV's flag copy) instead of a bit per lane. */
void emu_bind_pred_value(emu_opnd *o);
/* The storer that writes integer compute-class values as raw bits of `size`-byte elements. */
emu_store_fn emu_bits_store(unsigned size);
/* Packed-vector immediates (v, uv, vf): element i of the 8 (or 4) packed values. */
void emu_load_packed(const emu_opnd *o, unsigned n, unsigned cls, emu_val *out);

static inline bool emu_is_float_type(unsigned t) { return t < VISA_TYPE__COUNT && isa_types[t].cls == TC_FLOAT; }
/* The unsigned integer type of an element size (raw bit patterns), 0 for other sizes. */
static inline uint8_t emu_bits_type(unsigned size) {
    return size == 1   ? VISA_TYPE_UB
           : size == 2 ? VISA_TYPE_UW
           : size == 4 ? VISA_TYPE_UD
           : size == 8 ? VISA_TYPE_UQ
                       : 0;
}

static inline uint32_t emu_lanes_mask(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

/* Channel enables and predicate bits (spec 5_operands "Predication", EvaluateChEn).  Every
** handler takes them from these three functions; none reads the predicate's bits itself.  Bit n
** of a result is the op's channel n, i.e. machine lane mask_off + n. */

/* PMask[0 .. exec-1]: the predicate's bits from the mask offset, then .any / .all over exactly
** those exec bits (bits beyond the exec size do not count), then '!'.  All ones without a
** predicate.  SEL selects with it. */
static inline uint32_t emu_pred_bits(const emu_thread *t, const emu_op *op) {
    uint32_t all = emu_lanes_mask(op->exec);
    if (!op->pred_id) return all;
    uint32_t pm = (t->pred[op->pred_id] >> op->mask_off) & all;
    if (op->pred_ctrl == IR_PRED_ANY) pm = pm ? all : 0;
    else if (op->pred_ctrl == IR_PRED_ALL) pm = pm == all ? all : 0;
    return op->pred_inv ? ~pm & all : pm;
}

/* The execution-mask half of ChEn: EM from the mask offset, all exec lanes with NoMask. */
static inline uint32_t emu_exec_enables(const emu_thread *t, const emu_op *op) {
    uint32_t all = emu_lanes_mask(op->exec);
    return op->nomask ? all : (t->em >> op->mask_off) & all;
}

/* ChEn = the execution-mask enables AND PMask. */
static inline uint32_t emu_chen(const emu_thread *t, const emu_op *op) {
    uint32_t em = emu_exec_enables(t, op);
    return op->pred_id ? em & emu_pred_bits(t, op) : em;
}

/* The condition of a uniform branch (exec size 1: jmp, goto, call, ret, fcall, ifcall, fret):
** PMask[0], i.e. the predicate's bit at the mask offset after .any / .all (over that one bit)
** and '!'; true without a predicate.  It decides for every channel at once. */
static inline bool emu_uniform_pred(const emu_thread *t, const emu_op *op) {
    return !op->pred_id || (emu_pred_bits(t, op) & 1);
}

/* The value of address slot `slot` (a byte offset into the file). */
static inline uint32_t emu_addr_slot(const emu_thread *t, uint32_t slot) { return t->addr[slot]; }

/* Byte address of lane i of a region operand, or UINT32_MAX when it leaves the file. */
static inline uint32_t emu_region_byte(const emu_thread *t, const emu_opnd *o, unsigned i) {
    uint64_t b;
    switch (o->shape) {
    case EO_CONTIG: b = o->off + (uint64_t)i * o->size; break;
    case EO_GENERAL: b = o->off + t->prog->lane_off.data[o->lanes * EMU_MAX_LANES + i]; break;
    case EO_INDIRECT:
        b = (uint64_t)emu_addr_slot(t, o->off) + (int64_t)o->ind_off +
            ((uint64_t)(i / o->w) * o->vs + (uint64_t)(i % o->w) * o->hs) * o->size;
        break;
    case EO_VXH:
        b = (uint64_t)emu_addr_slot(t, o->off + i / o->w) + (int64_t)o->ind_off +
            (uint64_t)(i % o->w) * o->hs * o->size;
        break;
    default: b = o->off; break;
    }
    /* b wraps when an indirect offset goes below r0: compare without adding to it */
    uint32_t file = t->prog->lay.file_bytes;
    return b < file && o->size <= file - b ? (uint32_t)b : UINT32_MAX;
}

/* %cr0's mode bits for the thread (EMU_CR0_MODE_BITS). */
static inline uint32_t emu_cr0_modes(const emu_thread *t) {
    uint32_t v;
    memcpy(&v, t->file + t->prog->cr0_off, 4);
    return v & EMU_CR0_MODE_BITS;
}

#endif
