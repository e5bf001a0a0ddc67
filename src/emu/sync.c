/* sync.c -- synchronisation inside a thread group: BARRIER, SBARRIER, NBARRIER, the gateway
** barrier message of raw sends, WAIT and YIELD (spec pages BARRIER, SBARRIER, NBARRIER, WAIT,
** YIELD; messages.md section 7).
**
** Every barrier is a named barrier (emu_group_sync in emu.h): the workgroup barrier is id 0 with
** all of the group's threads as producers and consumers, as on XeHPG and later.  A phase of
** barrier `id` completes when its producers and its consumers have all signalled (a
** producer-consumer thread counts as both); a consumer's wait then passes.  A handler that cannot
** go on blocks: the group's scheduler (launch.c) runs the other threads and comes back to the
** same op.
*/
#include <stdio.h>

#include "probe.h"
#include "access.h"
#include "desc_fields.h"
#include "families.h"
#include "opnd.h"

enum { ROLE_BOTH = 0, ROLE_PRODUCER = 1, ROLE_CONSUMER = 2 };

/* Signal barrier `id`; false after a fault. */
static bool nb_signal(emu_thread *t, unsigned id, unsigned role, unsigned np, unsigned nc) {
    emu_group_sync *gs = t->sync;
    if (id >= 32 || role > 2) {
        emu_fault(t, EDIAG_RUN_NBARRIER_ID_ROLE, 0, id, role);
        return false;
    }
    if (np < 1 || nc < 1 || np > gs->nthreads || nc > gs->nthreads) {
        emu_fault(t, EDIAG_RUN_NBARRIER_GROUP, 0, id, np, nc, gs->nthreads);
        return false;
    }
    emu_nbarrier *b = &gs->bar[id];
    if (!b->phase) b->phase = 1;
    if (!b->producers) {
        b->producers = np; /* the first signal of a phase sets its counts */
        b->consumers = nc;
    } else if (b->producers != np || b->consumers != nc) {
        emu_fault(t, EDIAG_RUN_NBARRIER_COUNTS, 0, id, np, nc, b->producers, b->consumers);
        t->fault_finding = EDIAG_C_SYNCCHECK_NBARRIER;
        return false;
    }
    if (role != ROLE_CONSUMER) b->arrived++;
    if (role != ROLE_PRODUCER) {
        if (t->nb_phase[id]) {
            emu_fault(t, EDIAG_RUN_NBARRIER_RESIGNAL, 0, id);
            t->fault_finding = EDIAG_C_SYNCCHECK_NBARRIER;
            return false;
        }
        t->nb_phase[id] = b->phase;
        b->passed++; /* consumers that signalled in this phase */
    }
    if (b->arrived > b->producers || b->passed > b->consumers) {
        emu_fault(t, EDIAG_RUN_NBARRIER_OVERFLOW, 0, id, b->producers, b->consumers);
        t->fault_finding = EDIAG_C_SYNCCHECK_NBARRIER;
        return false;
    }
    if (role != ROLE_CONSUMER) emu_check_barrier(t, EMU_BARRIER_SIGNAL, id); /* racecheck's happens-before */
    if (b->arrived == b->producers && b->passed == b->consumers) {
        /* the phase is complete: its consumers may pass; the id is free for the next phase */
        b->completed = b->phase++;
        emu_check_barrier(t, EMU_BARRIER_COMPLETE, id);
        b->arrived = b->passed = 0;
        b->producers = b->consumers = 0;
    }
    return true;
}

/* Wait on barrier `id`: true if the thread may go on, false if it blocks (or faulted). */
static bool nb_wait(emu_thread *t, const emu_op *op, unsigned id) {
    if (id >= 32) {
        emu_fault(t, EDIAG_RUN_NBARRIER_ID, 0, id);
        return false;
    }
    uint32_t ph = t->nb_phase[id];
    if (!ph) {
        emu_fault(t, EDIAG_RUN_NBARRIER_UNSIGNALLED, 0, id);
        t->fault_finding = EDIAG_C_SYNCCHECK_NBARRIER;
        return false;
    }
    if (t->sync->bar[id].completed >= ph) {
        t->nb_phase[id] = 0;
        emu_check_barrier(t, EMU_BARRIER_PASS, id);
        return true;
    }
    t->blocked = true;
    t->done = true; /* leaves the run loop; the scheduler resumes at this op */
    t->blocked_at = t->pc + 1; /* the op being executed (not op's place: the compiled tier runs a copy) */
    return false;
}

/* True when this execution of the op resumes it after a block (its signal part already ran). */
static bool resuming(emu_thread *t) {
    bool r = t->blocked_at == t->pc + 1;
    t->blocked_at = 0;
    return r;
}

void emu_sync_barrier(emu_thread *t, const emu_op *op) {
    unsigned n = t->sync->nthreads;
    if (!resuming(t) && !nb_signal(t, 0, ROLE_BOTH, n, n)) return;
    if (nb_wait(t, op, 0)) t->pc++;
}

/* SBARRIER: mode 1 signal, 0 wait (split workgroup barrier). */
void emu_sync_sbarrier(emu_thread *t, const emu_op *op) {
    unsigned n = t->sync->nthreads;
    if (op->cond & 1) {
        if (nb_signal(t, 0, ROLE_BOTH, n, n)) t->pc++;
        return;
    }
    resuming(t);
    if (nb_wait(t, op, 0)) t->pc++;
}

/* NBARRIER: mode 0 wait (src0 = id); 1 (one count) or 2 (general) signal: src0 id, src1 role,
** src2 producers, src3 consumers. */
static uint32_t scalar_u32(emu_thread *t, const emu_opnd *o) {
    emu_val v[EMU_MAX_LANES];
    o->load(t, o, 1, v);
    return (uint32_t)v[0].i;
}

void emu_sync_nbarrier(emu_thread *t, const emu_op *op) {
    unsigned id = scalar_u32(t, &op->src[0]);
    if (op->cond) {
        if (nb_signal(t, id, scalar_u32(t, &op->src[1]), scalar_u32(t, &op->src[2]), scalar_u32(t, &op->src[3])))
            t->pc++;
        return;
    }
    resuming(t);
    if (nb_wait(t, op, id)) t->pc++;
}

bool emu_sync_lower_nbarrier(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    (void)p;
    unsigned need = op->cond ? 4 : 1;
    bool ok = op->nsrc >= need;
    for (unsigned k = 0; ok && k < need; k++) ok = emu_bind_opnd(&op->src[k], EC_INT);
    if (!ok) emu_diag(ds, EDIAG_LOWER_NBARRIER_OPERANDS, in->line, in->col);
    return ok;
}

/* WAIT clears thread dependencies of a media-walker thread space; launches here have none, so
** there is nothing to wait for (WAIT page: only valid TDR entries are waited on). */
void emu_sync_wait(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++;
}

/* -- The gateway barrier message of raw sends (messages.md 7.1) --------------------------------
** Desc[3:0] = 4 signals a barrier.  XeHPG and later: payload dword 2 holds the id [7:0], the role
** [15:14] and the producer [23:16] and consumer [31:24] counts.  Earlier platforms: the workgroup
** barrier with all of the group's threads. */
enum { GW_BARRIER_SIGNAL = 4 };

static void h_gateway_barrier(emu_thread *t, const emu_op *op) {
    const emu_opnd *pl = &op->src[RS_SRC0];
    unsigned n = t->sync->nthreads;
    if (op->info) { /* XeHPG+ payload */
        if (pl->shape == EO_NONE || pl->off + 12u > t->prog->lay.file_bytes) {
            emu_fault(t, EDIAG_RUN_BARRIER_PAYLOAD_FILE, 0);
            return;
        }
        uint32_t d2;
        memcpy(&d2, t->file + pl->off + 8, 4);
        if (nb_signal(t, d2 & 0xFF, (d2 >> 14) & 3, (d2 >> 16) & 0xFF, d2 >> 24)) t->pc++;
        return;
    }
    if (nb_signal(t, 0, ROLE_BOTH, n, n)) t->pc++;
}

bool emu_sync_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds) {
    if (desc_gateway_opcode(d->desc) == GW_BARRIER_SIGNAL) {
        op->fn = h_gateway_barrier;
        op->info = p->plat >= VISA_PLATFORM_XEHPG;
        return true;
    }
    emu_diag(ds, EDIAG_LOWER_GATEWAY_MESSAGE, in->line, in->col, desc_gateway_opcode(d->desc), d->desc);
    return false;
}
