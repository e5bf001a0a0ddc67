/* run.c -- the thread loop (run.h).
**
** One body, run_loop, instantiated three times with constant flags so that each copy keeps only
** what it needs: the interpreter's (ops one at a time through their handlers), the compiled tier's
** (a block's first op hands the block to emu_jit_exec, which returns the step count after it) and
** the observed one (observe.c's hooks before and after each op, for observers and run checks).
** The plain copies never test for an observer: emu_run_thread picks the copy once per slice.
** Under the default tier a program starts interpreted and is compiled once hot (jit.h): the
** interpreter's copy then hands over to the compiled one at its next limit check.
**
** Limits are checked only at back-edges (an op after which pc did not advance: every endless run
** passes one again and again), and there only once every EMU_CHECK_STEPS instructions of the
** thread, so the loop costs one compare per taken backward branch.  A limit is reported at the
** back-edge that reached it.
*/
#include <stdatomic.h>

#include "run.h"

#include "access.h"
#include "jit.h"
#include "observe.h"

/* The next step count at which the loop checks the limits again. */
static inline uint64_t next_check(const emu_thread *t, uint64_t steps) {
    uint64_t next = steps + EMU_CHECK_STEPS;
    return next < t->max_steps && next > steps ? next : t->max_steps;
}

static uint64_t limit_fault(emu_thread *t) {
    t->fault = EMU_FAULT_LIMIT;
    return 0;
}

uint64_t emu_limits_check(emu_thread *t, uint64_t steps) {
    if (steps > t->max_steps) {
        emu_fault(t, EDIAG_RUN_STEP_LIMIT, 0, (unsigned long long)t->max_steps);
        return limit_fault(t);
    }
    emu_budget *b = t->budget;
    if (b) {
        uint64_t add = steps > t->reported ? steps - t->reported : 0;
        t->reported = steps;
        uint64_t total = atomic_fetch_add_explicit(&b->total, add, memory_order_relaxed) + add;
        if (total > b->max_total) {
            emu_fault(t, EDIAG_RUN_TOTAL_STEPS, 0, (unsigned long long)b->max_total, EMU_TOTAL_STEPS_FACTOR);
            return limit_fault(t);
        }
        if (b->deadline_ns && vx_now_ns() >= b->deadline_ns) {
            emu_fault(t, EDIAG_RUN_TIMEOUT, 0, b->timeout_s);
            return limit_fault(t);
        }
    }
    return next_check(t, steps);
}

/* Runs the thread until it ends, blocks or faults; the interpreter's copy also stops (true) at a
** limit check once its program's compiled op array is ready (tiered: jit.h emu_jit_heat). */
static inline __attribute__((always_inline)) bool run_loop(emu_thread *t, const emu_op *ops, const bool compiled,
                                                           const bool observed) {
    uint64_t steps = t->steps; /* in a register: handlers never read it */
    uint64_t check = next_check(t, steps);
    const bool tiered = !compiled && !observed && t->prog->jit;
    emu_obs_step seen;
    while (!t->done) {
        const uint32_t at = t->pc;
        const emu_op *op = &ops[at];
        if (op->join && t->wait_mask[at]) {
            /* lanes that branched here (goto) are enabled again */
            t->em |= t->wait_mask[at];
            t->wait_mask[at] = 0;
        }
        if (observed) emu_observe_op_begin(t, at, steps, &seen);
        steps++;
        if (compiled && op->fn == emu_jit_block_op) {
            uint64_t before = steps - 1;
            steps = emu_jit_exec(t, op, steps, check);
            t->jit_steps += steps - before;
        } else op->fn(t, op);
        if (observed) emu_observe_op_end(t, at, &seen);
        if (__builtin_expect(t->done, 0)) {
            /* a thread past its step limit without a back-edge since (straight-line code) ends in error */
            if (!t->fault && !t->blocked && steps > t->max_steps) emu_limits_check(t, steps);
            /* the op that faulted, whether or not its handler moved on; in a compiled block the
            ** block left pc at it (jit.c) */
            if (t->fault && !(compiled && op->fn == emu_jit_block_op)) t->pc = at;
        } else if (__builtin_expect(t->pc <= at && steps > check, 0)) {
            if (!(check = emu_limits_check(t, steps))) {
                t->pc = at; /* a limit: named at the branch that jumped back */
                break;
            }
            t->steps = steps;
            if (tiered && emu_jit_heat(t)) return true; /* the arrays are parallel: go on at pc there */
        }
        /* an op that waits at a barrier is reported when it completes */
        if (observed && !t->blocked && !t->fault) emu_observe_op_report(t, at, &seen);
    }
    t->steps = steps;
    return false;
}

void emu_run_thread(emu_thread *t) {
    const emu_program *p = t->prog;
    if (t->obs) {
        run_loop(t, p->ops.data, false, true);
        return;
    }
    if (!p->jit) {
        run_loop(t, p->ops.data, false, false);
        return;
    }
    const emu_op *compiled = emu_jit_ops(p);
    if (!compiled) {
        if (!run_loop(t, p->ops.data, false, false)) { /* the thread ended, blocked or faulted */
            emu_jit_heat(t); /* the slice's steps count too */
            return;
        }
        compiled = emu_jit_ops(p);
    }
    run_loop(t, compiled, true, false);
    emu_jit_note_compiled(t);
}
