/* observe.h -- observing a run (observe.c, docs/observe.md): a run with a visa_observer or run
** checks prepares one emu_obs_run; each group gets an emu_obs_group (emu.h) its threads point to,
** and the observed copy of the thread loop (run.c) calls the per-op hooks below. */
#ifndef VISA_EMU_OBSERVE_H
#define VISA_EMU_OBSERVE_H

#include "emu.h"

/* NULL (no observer) or a prepared run; VISA_E_NOMEM / VISA_E_ARG on failure. */
visa_status emu_observe_prepare(const emu_program *p, const visa_observer *o, const uint32_t groups[3],
                                emu_obs_run **out);
void emu_observe_free(const emu_program *p, emu_obs_run *run);
/* Start / end observing group gi (no-ops when run is NULL). */
void emu_observe_group_begin(const emu_obs_run *run, emu_obs_group *g, uint64_t gi, const uint32_t group[3]);
void emu_observe_group_end(emu_obs_group *g);

/* What the observed loop keeps of one op between its hooks. */
typedef struct emu_obs_step {
    uint32_t enabled; /* channel enables as the handler sees them */
    bool show_dst; /* the event carries the destination */
    uint64_t t0, t1; /* host clock around the handler (VISA_OBSERVE_TIME) */
    uint8_t before[EMU_MAX_LANES * 8];
} emu_obs_step;
/* Before the op at pc runs (steps: the thread's count before it), after it ran, and, once the loop
** knows it completed (neither faulted nor waiting at a barrier), its event. */
void emu_observe_op_begin(emu_thread *t, uint32_t pc, uint64_t steps, emu_obs_step *s);
void emu_observe_op_end(emu_thread *t, uint32_t pc, emu_obs_step *s);
void emu_observe_op_report(emu_thread *t, uint32_t pc, const emu_obs_step *s);

#endif
