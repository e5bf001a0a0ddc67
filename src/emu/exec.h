/* exec.h -- instruction semantics as the lowering sees them: for each emulated form, the handler
** that executes it, how many destination operands it has, and an optional lowering hook (one
** table, sem.def). */
#ifndef VISA_EMU_EXEC_H
#define VISA_EMU_EXEC_H

#include <string.h>

#include "emu.h"

typedef struct emu_sem {
    emu_handler fn;
    uint8_t ndst; /* leading vector operands that are destinations */
    bool (*lower)(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
} emu_sem;

/* Stop thread t with a run-time error at lane `lane` (the first fault of the thread is kept). */
void emu_fault(emu_thread *t, unsigned lane, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Semantics of a form (sem.def), NULL if the emulator does not implement it. */
const emu_sem *emu_sem_of(unsigned form);
/* Why a form is not emulated (sem.def EMU_NOT), NULL if it is emulated or has no row. */
const char *emu_not_emulated(unsigned form);
void emu_end_handler(emu_thread *t, const emu_op *op);
/* Pick an operand's loader and storer for a compute class (EC_INT / EC_FLT); false if its type
** is not supported. */
bool emu_bind_opnd(emu_opnd *o, unsigned cls);
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

/* A raw operand (message payload): shape EO_CONTIG at the variable's byte offset plus the raw
** offset (EO_NONE for %null), size UB; false with a diagnostic if it is outside the file. */
bool emu_lower_raw(emu_program *p, const ir_inst *in, const ir_raw *raw, emu_opnd *o, diag_sink *ds);

/* The generic ALU handler (fast handlers fall back to it under a non-default %cr0). */
void emu_alu_generic(emu_thread *t, const emu_op *op);
void emu_cmp_generic(emu_thread *t, const emu_op *op);
/* %cr0's mode bits for the thread (EMU_CR0_MODE_BITS). */
static inline uint32_t emu_cr0_modes(const emu_thread *t) {
    uint32_t v;
    memcpy(&v, t->file + t->prog->cr0_off, 4);
    return v & EMU_CR0_MODE_BITS;
}

/* A specialised handler for a lowered ALU op, or NULL for the generic path (fast.c); built for
** the program's ISA level (p->isa). */
emu_handler emu_fast_handler(const emu_program *p, const emu_op *op);
/* A specialised CMP into a predicate, or NULL (fast.c). */
emu_handler emu_fast_cmp(const emu_program *p, const emu_op *op);
/* The best EMU_ISA_* level the host has, or the one VISA_EMU_ISA=baseline|avx2|avx512 asks for
** (never above the host's).  Read once when a program is lowered. */
unsigned emu_isa_select(void);

/* Handlers and lowering hooks that sem.def names from the families in their own files.  lsc.c:
** LSC untyped/typed messages and fences; dataport.c: the legacy data-port and SVM messages;
** dpas.c: the systolic instructions; sync.c: barriers and waits; send.c: raw sends. */
#define EMU_HANDLER(name) void name(emu_thread *t, const emu_op *op)
#define EMU_LOWER(name) bool name(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds)
EMU_HANDLER(emu_lsc_fence);
EMU_HANDLER(emu_lsc_nothing); /* the lowering hook picks the handler */
EMU_LOWER(emu_lsc_lower_untyped);
EMU_LOWER(emu_lsc_lower_typed);
EMU_HANDLER(emu_dp_oword);
EMU_LOWER(emu_dp_lower_oword);
EMU_HANDLER(emu_dp_media);
EMU_LOWER(emu_dp_lower_media);
EMU_HANDLER(emu_dp_scattered);
EMU_LOWER(emu_dp_lower_scattered);
EMU_HANDLER(emu_dp_4scaled);
EMU_LOWER(emu_dp_lower_4scaled);
EMU_HANDLER(emu_dp_typed);
EMU_LOWER(emu_dp_lower_typed);
EMU_HANDLER(emu_dp_atomic);
EMU_LOWER(emu_dp_lower_atomic);
EMU_HANDLER(emu_dp_svm_block);
EMU_LOWER(emu_dp_lower_svm_block);
EMU_HANDLER(emu_dp_svm_gs);
EMU_LOWER(emu_dp_lower_svm_gs);
EMU_HANDLER(emu_dpas_run);
EMU_LOWER(emu_dpas_lower);
EMU_HANDLER(emu_sync_barrier);
EMU_HANDLER(emu_sync_sbarrier);
EMU_HANDLER(emu_sync_nbarrier);
EMU_LOWER(emu_sync_lower_nbarrier);
EMU_HANDLER(emu_sync_wait);
EMU_HANDLER(emu_send_unlowered); /* the lowering hook hands the message to its family */
EMU_LOWER(emu_send_lower_raw);

/* RAW_SEND / RAW_SENDS / RAW_SENDG (send.c) decode the message and hand it to its family.  When
** the family's lower function runs, the payloads are already lowered raw operands in
** op->src[RS_DST], op->src[RS_SRC0], op->src[RS_SRC1] (shape EO_NONE when absent or %null); the
** family sets op->fn (and op->info / op->aux as it likes) or reports why it cannot and returns
** false. */
enum { RS_DST = 0, RS_SRC0 = 1, RS_SRC1 = 2 };
typedef struct emu_send_desc {
    unsigned sfid;           /* the platform's SFID value (messages.md section 1) */
    uint32_t desc, exdesc;   /* message descriptor and extended descriptor */
    unsigned nsrc0, nsrc1;   /* payload sizes in GRFs */
    unsigned ndst;           /* response size in GRFs */
    bool eot;
} emu_send_desc;
bool emu_dataport_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d,
                             diag_sink *ds); /* dataport.c: legacy HDC messages (messages.md 5) */
bool emu_sync_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d,
                         diag_sink *ds); /* sync.c: gateway messages (barrier signal, ...) */

#endif
