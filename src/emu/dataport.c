/* dataport.c -- the legacy data-port and SVM messages (spec pages OWORD_LD, OWORD_ST, MEDIA_LD,
** MEDIA_ST, GATHER, SCATTER, GATHER_SCALED, SCATTER_SCALED, GATHER4_SCALED, SCATTER4_SCALED,
** GATHER4_TYPED, SCATTER4_TYPED, DWORD_ATOMIC, TYPED_ATOMIC, QW_GATHER, QW_SCATTER, SVM_*). */
#include "exec.h"

const emu_sem *emu_sem_dataport(unsigned form) {
    (void)form;
    return NULL;
}

bool emu_dataport_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds) {
    (void)p, (void)op;
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
            "send to SFID %u with descriptor 0x%08x is not supported by the emulator", d->sfid, d->desc);
    return false;
}
