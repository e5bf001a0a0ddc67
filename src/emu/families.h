/* families.h -- the handlers and lowering hooks that the semantics table (sem.def, expanded in
** exec.c) names, each family in its own file: alu.c, flow.c, lsc.c, dataport.c, dpas.c, sync.c,
** send.c.  A family reads and writes thread state through access.h, lowers its operands through
** opnd.h, maps memory through mem.h and reports to observers and checkers through probe.h.
*/
#ifndef VISA_EMU_FAMILIES_H
#define VISA_EMU_FAMILIES_H

#include "emu.h"

#define EMU_HANDLER(name) void name(emu_thread *t, const emu_op *op)
#define EMU_LOWER(name) bool name(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds)

/* alu.c: the generic ALU and the ALU forms with shapes of their own */
EMU_HANDLER(h_alu);
EMU_HANDLER(h_sel);
EMU_HANDLER(h_cmp);
EMU_HANDLER(h_carry);
EMU_HANDLER(h_madw);
EMU_HANDLER(h_add3o);
EMU_HANDLER(h_sad2);
EMU_HANDLER(h_line);
EMU_HANDLER(h_plane);
EMU_HANDLER(h_setp);
EMU_HANDLER(h_math_eo);
EMU_HANDLER(h_bits_cvt);
EMU_LOWER(lower_bits_cvt); /* fcvt / srnd: the conversion from the operand types */
/* The generic paths the fast handlers (fast.c) fall back to under a non-default %cr0. */
EMU_HANDLER(emu_alu_generic);
EMU_HANDLER(emu_cmp_generic);
/* The calc function of an ALU form (sem.def EMU_ALU), NULL for other forms. */
emu_calc_fn emu_alu_calc(unsigned form);

/* flow.c: control flow */
EMU_HANDLER(emu_end_handler); /* ends the thread: a kernel's end op */
EMU_HANDLER(h_nop);
EMU_HANDLER(h_jmp);
EMU_HANDLER(h_goto);
EMU_HANDLER(h_call);
EMU_HANDLER(h_ret);
EMU_HANDLER(h_fcall);
EMU_HANDLER(h_ifcall);
EMU_HANDLER(h_faddr); /* a function's address (op->info), or an external symbol's */
EMU_HANDLER(h_no_function); /* fcall / faddr of a name the module does not define */
EMU_HANDLER(h_switchjmp);

/* lsc.c: LSC untyped/typed messages and fences; dataport.c: the legacy data-port and SVM
** messages; dpas.c: the systolic instructions; sync.c: barriers and waits; send.c: raw sends. */
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
    unsigned sfid; /* the platform's SFID value (messages.md section 1) */
    uint32_t desc, exdesc; /* message descriptor and extended descriptor */
    unsigned nsrc0, nsrc1; /* payload sizes in GRFs */
    unsigned ndst; /* response size in GRFs */
    bool eot;
} emu_send_desc;
bool emu_dataport_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d,
                             diag_sink *ds); /* dataport.c: legacy HDC messages (messages.md 5) */
bool emu_sync_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d,
                         diag_sink *ds); /* sync.c: gateway messages (barrier signal, ...) */
/* lsc.c: the op is a SIMT or transposed LSC load or store that only moves data (no EOT): its
** handler leaves control at the next op or faults, so compiled code may call it (jit.c). */
bool emu_lsc_moves_data(const emu_op *op);
/* lsc.c: the op is a plain load that compiled code may do itself (jit.c): d32 or d64 elements
** (simt_plain's case), A64 or A32 addresses, its payload inside the file.  The load then is: every
** lane's address (A64: a * scale + imm; A32: the same in 32 bits; SLM: emu_slm_offset of it), the
** window emu_lsc_window gives for the first enabled lane's, and when every enabled lane's elems *
** bytes are inside it, element k of each enabled lane copied to its lane of the destination's
** block k; else the handler does the message (and reports the fault). */
typedef struct emu_lsc_plain {
    bool slm, a64;
    unsigned bytes; /* of an element: 4 or 8 */
    unsigned elems; /* per lane (the vector size) */
    uint32_t stride; /* bytes from one element's block of the destination to the next */
} emu_lsc_plain;
bool emu_lsc_plain_load(const emu_program *p, const emu_op *op, emu_lsc_plain *d);
/* lsc.c: the window of a plain load's space holding its lane at address a (SLM and a surface:
** whole; global: the buffer holding a); false without one (scratch, an unbound surface, a
** predefined surface without memory), where the handler does the message.  Reports nothing. */
struct emu_window;
bool emu_lsc_window(emu_thread *t, const emu_op *op, uint64_t a, struct emu_window *w);
/* lsc.c: LSC messages sent raw (SFIDs UGM, UGML, SLM and TGM) */
bool emu_lsc_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds);

#endif
