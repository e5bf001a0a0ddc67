/* opnd.h -- lowering operands (opnd.c), for the lowering driver (lower.c) and the families'
** lowering hooks. */
#ifndef VISA_EMU_OPND_H
#define VISA_EMU_OPND_H

#include "emu.h"

/* Resolve one vector operand into *o (shape, type, offset, region); is_dst: the destination
** region <h>.  False with a diagnostic when it is out of range or not supported. */
bool emu_lower_vec(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst, emu_opnd *o,
                   diag_sink *ds);
/* A raw operand (message payload): shape EO_CONTIG at the variable's byte offset plus the raw
** offset (EO_NONE for %null), size UB; false with a diagnostic if it is outside the file. */
bool emu_lower_raw(emu_program *p, const ir_inst *in, const ir_raw *raw, emu_opnd *o, diag_sink *ds);
/* The raw operand in->opnd[k] as an EO_CONTIG byte offset into the thread's file (EO_NONE for
** %null); false with a diagnostic if it is not a raw operand of a known variable. */
bool emu_msg_raw(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds);
/* The vector operand in->opnd[k] as a scalar: EO_IMM (imm), EO_SCALAR (general variable element at
** off, type/size set) or EO_STATE (state slot off); false with a diagnostic otherwise. */
bool emu_msg_scalar(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds);
/* Run-time value of an operand made by emu_msg_scalar (sign- or zero-extended by its type). */
int64_t emu_msg_scalar_value(const emu_thread *t, const emu_opnd *o);

#endif
