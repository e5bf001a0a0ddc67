/* jit.h -- the compiled tier: runs of ALU instructions and LSC loads and stores (and the loops
** they form) compiled to host code with LLVM's ORC JIT when the library is built with it
** (VISA_JIT), else nothing.  The
** interpreter stays the reference: a compiled block computes exactly what the fast handlers
** compute (fast.c), and every execution test runs on both tiers.  docs/emulator.md "Tiers".
*/
#ifndef VISA_EMU_JIT_H
#define VISA_EMU_JIT_H

#include "emu.h"

/* Which tier a program runs on: VISA_EMU_TIER=interp | jit (the default: loops whose body is one
** compilable run) | jit-all (every compilable run, loop or not: the tests). */
enum { EMU_TIER_INTERP = 0, EMU_TIER_JIT = 1, EMU_TIER_JIT_ALL = 2 };
unsigned emu_tier_select(void);

/* True when the library was built with the compiled tier. */
bool emu_jit_available(void);

/* Compile the program's blocks for its tier (p->tier) and ISA level (p->isa).  On success with
** blocks, p->jit_ops is the op array the plain run loop uses (block starts run the block); NULL
** when nothing was compiled.  When LLVM refuses, the program runs interpreted (p->jit_error says
** why), except under jit-all, which exists to test the compiled tier: that is an error then. */
visa_status emu_jit_build(emu_program *p, diag_sink *ds);
void emu_jit_free(emu_program *p);

/* The handler that marks a block's first op in p->jit_ops, and what the run loop calls for it:
** runs the block (steps: the count including the block's first op; check: the run loop's next
** limit check), sets pc, returns the step count after it. */
void emu_jit_block_op(emu_thread *t, const emu_op *op);
uint64_t emu_jit_exec(emu_thread *t, const emu_op *op, uint64_t steps, uint64_t check);

#endif
