/* exec.h -- instruction semantics as the lowering sees them: for each emulated form, the handler
** that executes it and an optional lowering hook (one table, sem.def, expanded in exec.c; how
** many operands are destinations is the instruction table's isa_form_ndst). */
#ifndef VISA_EMU_EXEC_H
#define VISA_EMU_EXEC_H

#include "emu.h"

typedef struct emu_sem {
    emu_handler fn;
    bool (*lower)(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
} emu_sem;

/* Semantics of a form (sem.def), NULL if the emulator does not implement it. */
const emu_sem *emu_sem_of(unsigned form);
/* Why a form is not emulated (sem.def EMU_NOT), NULL if it is emulated or has no row. */
const char *emu_not_emulated(unsigned form);

#endif
