/* dpas.c -- the systolic instructions (spec pages DPAS, DPASW; messages.md section 6). */
#include "exec.h"

const emu_sem *emu_sem_dpas(unsigned form) {
    (void)form;
    return NULL;
}
