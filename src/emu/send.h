/* send.h -- messages: RAW_SEND / RAW_SENDS decoding (send.c) and the hooks between send.c and
** the LSC family (lsc.c).  Internal to the emulator. */
#ifndef VISA_EMU_SEND_H
#define VISA_EMU_SEND_H

#include "exec.h"

/* LSC messages sent raw (lsc.c): SFIDs UGM, UGML, SLM and TGM.  Same contract as
** emu_dataport_lower_send (exec.h): payloads already in op->src[RS_*]. */
bool emu_lsc_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds);

/* Operand helpers shared by the message families' lowering. */
/* The raw operand in->opnd[k] as an EO_CONTIG byte offset into the thread's file (EO_NONE for
** %null); false with a diagnostic if it is not a raw operand of a known variable. */
bool emu_msg_raw(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds);
/* The vector operand in->opnd[k] as a scalar: EO_IMM (imm), EO_SCALAR (general variable element at
** off, type/size set) or EO_STATE (state slot off); false with a diagnostic otherwise. */
bool emu_msg_scalar(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds);
/* Run-time value of an operand made by emu_msg_scalar (sign- or zero-extended by its type). */
int64_t emu_msg_scalar_value(const emu_thread *t, const emu_opnd *o);

#endif
