/* lower.h -- lowering (lower.c, layout.c): a kernel and the functions it reaches, from the module's
** IR to the emulator's program (emu.h), once per prepared kernel. */
#ifndef VISA_EMU_LOWER_H
#define VISA_EMU_LOWER_H

#include "emu.h"

/* kernel: NULL for the kernel itself; for a function, the layout laid out just before it (the
** kernel's, or the previous function's), whose predefined variables it shares and after whose
** bytes, address slots and predicates its own go. */
visa_status emu_layout_build(visa_ctx *ctx, const ir_routine *r, visa_platform plat, const emu_layout *kernel,
                             emu_layout *lay, diag_sink *ds);
void emu_layout_free(visa_ctx *ctx, emu_layout *lay);
/* How a program is lowered besides the kernel and platform: read from the environment when a
** kernel is prepared (VISA_EMU_GENERIC: no fast paths; VISA_EMU_ISA: the host vector level of the
** fast handlers; VISA_EMU_TIER: interp, jit or jit-all; VISA_EMU_JIT_HOT and VISA_EMU_JIT_WAIT: when
** and where the default tier compiles), and part of a prepared kernel's key. */
typedef struct emu_knobs {
    bool generic;
    uint8_t isa; /* EMU_ISA_* */
    uint8_t tier; /* EMU_TIER_* (jit.h) */
    bool jit_wait; /* VISA_EMU_JIT_WAIT: compile in the thread that finds the kernel hot (jit.h) */
    uint64_t jit_hot; /* VISA_EMU_JIT_HOT: instructions run before compiling (jit.h) */
} emu_knobs;
void emu_knobs_read(emu_knobs *k);
/* Lower kernel r of module m for a platform into *prog (which owns what it allocates afterwards,
** compiled code included); knobs NULL: from the environment.  Unsupported instructions are
** reported to ds with their positions. */
visa_status emu_lower(visa_ctx *ctx, const visa_module *m, const ir_routine *r, visa_platform plat,
                      const emu_knobs *knobs, emu_program *prog, diag_sink *ds);
void emu_program_free(emu_program *prog);

#endif
