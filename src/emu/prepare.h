/* prepare.h -- prepared kernels (prepare.c): a kernel lowered, and compiled where the compiled tier
** takes it, once per (module, kernel, platform, lowering knobs) and kept on the module, so every
** launch after the first pays neither lowering nor LLVM. */
#ifndef VISA_EMU_PREPARE_H
#define VISA_EMU_PREPARE_H

#include "lower.h"

struct visa_kernel {
    struct visa_kernel *next; /* the module's prepared kernels */
    struct emu_prepared *set; /* the module's set, which counts its launches */
    const ir_routine *r;
    visa_platform plat;
    emu_knobs knobs;
    emu_program prog; /* immutable once prepared: launches on any thread read it */
};

/* Count one launch of k (visa_module_prepare_stats). */
void emu_prepared_note_launch(const visa_kernel *k);

#endif
