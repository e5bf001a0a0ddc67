/* jit.h -- the compiled tier: runs of ALU instructions and LSC loads and stores (and the loops
** they form) compiled to host code with LLVM's ORC JIT when the library is built with it
** (VISA_JIT), else nothing.  The
** interpreter stays the reference: a compiled block computes exactly what the fast handlers
** compute (fast.c), and every execution test runs on both tiers.  docs/emulator.md "Tiers".
*/
#ifndef VISA_EMU_JIT_H
#define VISA_EMU_JIT_H

#include "emu.h"

/* Which tier a program runs on: VISA_EMU_TIER=interp | jit (the default: loops and long runs,
** compiled once the kernel is hot, in the background) | jit-all (every compilable run, compiled
** when the kernel is prepared: the tests). */
enum { EMU_TIER_INTERP = 0, EMU_TIER_JIT = 1, EMU_TIER_JIT_ALL = 2 };
unsigned emu_tier_select(void);

/* When the default tier compiles: once the kernel's threads have run this many instructions
** interpreted (all launches of the prepared kernel together).  About 10-20 ms of interpretation,
** against 15 ms to load LLVM and 10-30 ms to compile a kernel's loops: a run that ends before it
** never waits for LLVM.  VISA_EMU_JIT_HOT=N sets it (0: compile when the kernel is prepared). */
#define EMU_JIT_HOT_DEFAULT (1ull << 20)
/* *hot from VISA_EMU_JIT_HOT; *wait from VISA_EMU_JIT_WAIT=1: compile in the thread that finds the
** kernel hot, which waits for it (the tests: the switch then happens at a known step). */
void emu_jit_knobs(uint64_t *hot, bool *wait);

/* True when the library was built with the compiled tier. */
bool emu_jit_available(void);

/* Plan the program's blocks for its tier (p->tier) and ISA level (p->isa): p->jit holds them when
** there are any.  Under jit-all, or with hot 0, they are compiled now (jit-all: a failure is an
** error, as that tier exists to test the compiled code); else when the kernel has run `hot`
** instructions, in a thread of its own unless `wait`.  When LLVM refuses, the program runs
** interpreted (emu_jit_error says why). */
visa_status emu_jit_build(emu_program *p, uint64_t hot, bool wait, diag_sink *ds);
/* Stops a compilation under way between its steps (and waits for that step), then frees. */
void emu_jit_free(emu_program *p);

/* The op array of the compiled code (a copy of p->ops whose block starts run their block, so a
** thread can switch to it at any pc), NULL until compiled. */
const emu_op *emu_jit_ops(const emu_program *p);
/* Add the thread's interpreted steps since the last call to its program's heat, starting the
** compilation when that reaches the threshold; true when the compiled op array is ready.
** p->jit must be set.  Called at the run loop's limit checks and when a slice ends. */
bool emu_jit_heat(emu_thread *t);
/* Add the thread's compiled steps (t->jit_steps) to its program's count. */
void emu_jit_note_compiled(emu_thread *t);
/* Whether the program's blocks are compiled; steps its threads ran in compiled blocks; why the
** compiled tier is not used ("" when it is, or was not tried). */
bool emu_jit_compiled(const emu_program *p);
uint64_t emu_jit_compiled_steps(const emu_program *p);
const char *emu_jit_error(const emu_program *p);

/* The handler that marks a block's first op in the compiled op array, and what the run loop calls
** for it: runs the block (steps: the count including the block's first op; check: the run loop's
** next limit check), sets pc, returns the step count after it. */
void emu_jit_block_op(emu_thread *t, const emu_op *op);
uint64_t emu_jit_exec(emu_thread *t, const emu_op *op, uint64_t steps, uint64_t check);

#endif
