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
** undef: NULL or a flag per buffer, nonzero when its bytes start undefined (initcheck). */
visa_status emu_check_prepare(const emu_program *p, uint32_t checks, diag_sink *ds, const visa_buffer *bufs,
                              size_t nbufs, const uint8_t *undef, emu_check_run **out);
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

/* Hooks of the checked loop (observe.c) and of the message and barrier handlers. */
void emu_check_before(emu_thread *t, const emu_op *op);
void emu_check_after(emu_thread *t, const emu_op *op);
void emu_check_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                   unsigned kind);
void emu_check_misaligned(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane);
void emu_check_signal(emu_thread *t, unsigned id);   /* a producer signalled barrier id */
void emu_check_complete(emu_thread *t, unsigned id); /* barrier id's phase completed */
void emu_check_pass(emu_thread *t, unsigned id);     /* a consumer passed its wait on barrier id */

static inline emu_check_group *emu_chk(const emu_thread *t) { return t->obs ? t->obs->chk : NULL; }

/* LSC's alignment rule (messages.md: an address is aligned to the data size): checked under
** memcheck only. */
static inline void emu_check_align(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane) {
    if (__builtin_expect(t->obs != NULL, 0) && t->obs->chk && align > 1 && (addr & (align - 1)))
        emu_check_misaligned(t, addr, align, lane);
}

/* initcheck (check.c): a message handler's register <-> memory transfer of one element for lane
** `lane` (reg: rn bytes in the thread's file; mem: mn host bytes of SLM or a buffer), and register
** bytes it uses as an address.  One predictable branch when unchecked. */
void emu_check_xfer_report(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn, unsigned lane,
                           bool store);
void emu_check_addr_report(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane);
static inline void emu_check_xfer(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn,
                                  unsigned lane, bool store) {
    if (__builtin_expect(t->obs != NULL, 0) && t->obs->chk) emu_check_xfer_report(t, reg, rn, mem, mn, lane, store);
}
static inline void emu_check_addr(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane) {
    if (__builtin_expect(t->obs != NULL, 0) && t->obs->chk) emu_check_addr_report(t, reg, n, lane);
}

/* initcheck for ops without per-element transfers (DPAS): the origin of register bytes' first
** undefined byte (0: all defined), and the definedness (origin 0: defined) of bytes an op wrote. */
uint32_t emu_check_origin_report(emu_thread *t, const uint8_t *reg, unsigned n);
void emu_check_define_report(emu_thread *t, uint8_t *reg, unsigned n, uint32_t origin);

#endif
