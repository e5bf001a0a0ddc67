/* fast.h -- specialised ALU handlers (fast.c): one per (op, type, operand shapes) for the common
** cases, picked at lowering for the host's vector units; the generic path (alu.c) does the rest. */
#ifndef VISA_EMU_FAST_H
#define VISA_EMU_FAST_H

#include "emu.h"

/* A specialised handler for a lowered ALU op, or NULL for the generic path; built for the
** program's ISA level (p->isa). */
emu_handler emu_fast_handler(const emu_program *p, const emu_op *op);
/* A specialised CMP into a predicate, or NULL. */
emu_handler emu_fast_cmp(const emu_program *p, const emu_op *op);
/* The best EMU_ISA_* level the host has, or the one VISA_EMU_ISA=baseline|avx2|avx512 asks for
** (never above the host's).  Read once when a program is lowered. */
unsigned emu_isa_select(void);

#endif
