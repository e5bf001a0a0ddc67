/* probe.h -- what message and barrier handlers tell whoever watches a run: each memory access (an
** observer's visa_mem_event, memcheck and racecheck), register <-> memory transfers and address
** registers (initcheck), misaligned addresses (memcheck) and barrier events (racecheck's
** happens-before).
**
** The handlers sit below observation and checking (observe.c, check.c), so they do not call them:
** an observed group's emu_obs_group carries a table of functions (emu_probe) that observe.c fills,
** and the wrappers below call through it.  Unobserved, each wrapper is one predictable branch on
** emu_thread.obs; the check wrappers test emu_obs_group.chk too.
*/
#ifndef VISA_EMU_PROBE_H
#define VISA_EMU_PROBE_H

#include "emu.h"

enum { EMU_BARRIER_SIGNAL, EMU_BARRIER_COMPLETE, EMU_BARRIER_PASS };

struct emu_probe {
    void (*mem)(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                unsigned kind);
    /* the rest only when the group is checked (emu_obs_group.chk) */
    void (*misaligned)(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane);
    void (*xfer)(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn, unsigned lane, bool store);
    void (*addr)(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane);
    void (*barrier)(emu_thread *t, unsigned event, unsigned id);
    uint32_t (*origin)(emu_thread *t, const uint8_t *reg, unsigned n);
    void (*define)(emu_thread *t, uint8_t *reg, unsigned n, uint32_t origin);
};

/* The thread's group is checked (some visa_run_opts.checks). */
static inline bool emu_checked(const emu_thread *t) { return __builtin_expect(t->obs != NULL, 0) && t->obs->chk; }

/* A memory access of one lane (visa_mem_event): space VISA_MEM_*, kind VISA_MEM_READ / WRITE /
** ATOMIC; addr is the emulated global address (GLOBAL), or the byte offset in the surface bound to
** buffer `buffer` (SURFACE) or in SLM (SLM; buffer unused).  Called before the access, so an access
** that faults is reported too. */
static inline void emu_observe_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size,
                                   unsigned lane, unsigned kind) {
    if (__builtin_expect(t->obs != NULL, 0)) t->obs->probe->mem(t, space, buffer, addr, size, lane, kind);
}

/* LSC's alignment rule (messages.md: an address is aligned to the data size): memcheck only. */
static inline void emu_check_align(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane) {
    if (emu_checked(t) && align > 1 && (addr & (align - 1))) t->obs->probe->misaligned(t, addr, align, lane);
}

/* initcheck: a message handler's register <-> memory transfer of one element for lane `lane`
** (reg: rn bytes in the thread's file; mem: mn host bytes of SLM or a buffer), and register bytes
** it uses as an address. */
static inline void emu_check_xfer(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn,
                                  unsigned lane, bool store) {
    if (emu_checked(t)) t->obs->probe->xfer(t, reg, rn, mem, mn, lane, store);
}
static inline void emu_check_addr(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane) {
    if (emu_checked(t)) t->obs->probe->addr(t, reg, n, lane);
}

/* initcheck for ops without per-element transfers (DPAS): the origin of register bytes' first
** undefined byte (0: all defined), and the definedness (origin 0: defined) of bytes an op wrote. */
static inline uint32_t emu_check_origin(emu_thread *t, const uint8_t *reg, unsigned n) {
    return emu_checked(t) ? t->obs->probe->origin(t, reg, n) : 0;
}
static inline void emu_check_define(emu_thread *t, uint8_t *reg, unsigned n, uint32_t origin) {
    if (emu_checked(t)) t->obs->probe->define(t, reg, n, origin);
}

/* racecheck: a producer signalled barrier id, its phase completed, a consumer passed its wait. */
static inline void emu_check_barrier(emu_thread *t, unsigned event, unsigned id) {
    if (emu_checked(t)) t->obs->probe->barrier(t, event, id);
}

#endif
