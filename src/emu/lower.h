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
/* Lower kernel r of module m for a platform into *prog (which owns what it allocates afterwards,
** compiled code included); unsupported instructions are reported to ds with their positions. */
visa_status emu_lower(visa_ctx *ctx, const visa_module *m, const ir_routine *r, visa_platform plat,
                      emu_program *prog, diag_sink *ds);
void emu_program_free(emu_program *prog);

#endif
