/* check.h -- run checks (visa_run_opts.checks: memcheck, initcheck, racecheck, synccheck; see
** check.c and docs/observe.md).  A checked group's threads point to an emu_obs_group whose chk is
** set, so they run observe.c's loop, which calls the hooks below; an unchecked run never does. */
#ifndef VISA_EMU_CHECK_H
#define VISA_EMU_CHECK_H

#include "emu.h"

typedef struct emu_check_run emu_check_run;
typedef struct emu_check_group emu_check_group;

/* NULL when checks is 0.  Findings go to ds.  VISA_E_NOMEM on failure. */
/* bufs: the caller's nbufs buffers (the emulator's own scratch buffers after them are not checked);
** undef: NULL or a flag per buffer, nonzero when its bytes start undefined (initcheck); access: NULL
** or a visa_buffer_access per buffer (memcheck). */
visa_status emu_check_prepare(const emu_program *p, uint32_t checks, diag_sink *ds, const visa_buffer *bufs,
                              size_t nbufs, const uint8_t *undef, const uint8_t *access, emu_check_run **out);
/* Name the work-items of an OpenCL-model launch in findings (NULL or not opencl: threads only). */
void emu_check_set_items(emu_check_run *run, const emu_items *items);
#define EMU_WHO_BYTES 200 /* room for a finding's "work-item ..., group ..., thread N" */
/* "work-item (8,0,0) local (8,0,0), " of lane `lane` of thread `thread` of the group with ids
** `group`, or "" when it is NULL, not opencl or lane is EMU_NO_LANE; returns the characters written. */
size_t emu_work_item(const emu_items *it, const uint32_t group[3], uint32_t thread, uint32_t lane, char *out,
                     size_t cap);
/* Report "and N more" past the limit; true when anything was found.  Frees the run. */
bool emu_check_finish(emu_check_run *run);
/* The check state of one group (NULL when run is NULL); false on allocation failure. */
bool emu_check_group_begin(emu_check_run *run, emu_check_group **out, uint64_t gi, const uint32_t group[3],
                           emu_thread *threads, uint32_t nthreads, uint32_t slm_bytes);
void emu_check_group_end(emu_check_group *g);
/* A faulted thread: true when the fault is a finding of an enabled check (reported; the group
** stops, the run goes on). */
bool emu_check_fault(emu_check_group *g, emu_thread *t);
/* No thread of the group can make progress: true when synccheck reported it. */
bool emu_check_deadlock(emu_check_group *g);

/* Hooks of the observed loop's checks (observe.c), and what observe.c's probe table (probe.h) hands
** the message, DPAS and barrier handlers' reports to. */
void emu_check_before(emu_thread *t, const emu_op *op);
void emu_check_after(emu_thread *t, const emu_op *op);
void emu_check_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                   unsigned kind);
void emu_check_misaligned(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane);
void emu_check_xfer_report(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn, unsigned lane,
                           bool store);
void emu_check_addr_report(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane);
uint32_t emu_check_origin_report(emu_thread *t, const uint8_t *reg, unsigned n);
void emu_check_define_report(emu_thread *t, uint8_t *reg, unsigned n, uint32_t origin);
/* EMU_BARRIER_SIGNAL / COMPLETE / PASS of barrier id (probe.h) */
void emu_check_barrier_report(emu_thread *t, unsigned event, unsigned id);

static inline emu_check_group *emu_chk(const emu_thread *t) { return t->obs ? t->obs->chk : NULL; }

#endif
