/* run.h -- the thread loop (run.c): one loop body, instantiated for the interpreter, the compiled
** tier and observed (traced, profiled or checked) threads, with the step budget, the launch's
** limits and its clock.  docs/emulator.md "The run loop". */
#ifndef VISA_EMU_RUN_H
#define VISA_EMU_RUN_H

#include "emu.h"

/* Run thread t from its pc until it ends, faults, waits at a barrier (blocked) or a limit stops
** it; t->steps counts what it executed. */
void emu_run_thread(emu_thread *t);

/* At a back-edge past the check point: the thread's step limit, the launch's total and its
** deadline.  Returns the next check point, or 0 after a fault (EMU_FAULT_LIMIT). */
uint64_t emu_limits_check(emu_thread *t, uint64_t steps);

#endif
