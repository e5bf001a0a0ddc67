/* sync.c -- synchronisation: barriers, named barriers, waits (spec pages BARRIER, SBARRIER,
** NBARRIER, WAIT; messages.md section 7). */
#include "exec.h"

const emu_sem *emu_sem_sync(unsigned form) {
    (void)form;
    return NULL;
}

bool emu_sync_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds) {
    (void)p, (void)op;
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
            "send to SFID %u with descriptor 0x%08x is not supported by the emulator", d->sfid, d->desc);
    return false;
}
