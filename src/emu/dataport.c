/* dataport.c -- the legacy data-port and SVM messages (spec pages OWORD_LD, OWORD_ST, MEDIA_LD,
** MEDIA_ST, GATHER, SCATTER, GATHER_SCALED, SCATTER_SCALED, GATHER4_SCALED, SCATTER4_SCALED,
** GATHER4_TYPED, SCATTER4_TYPED, DWORD_ATOMIC, TYPED_ATOMIC, QW_GATHER, QW_SCATTER, SVM_*). */
#include "exec.h"

const emu_sem *emu_sem_dataport(unsigned form) {
    (void)form;
    return NULL;
}
