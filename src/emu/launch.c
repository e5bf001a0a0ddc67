/* launch.c -- runs a kernel over an ND-range: builds each thread's payload (r0, group and local
** ids, explicit arguments and implicit inputs), runs the threads of each group, spreads groups
** over host threads, and reports the first run-time fault deterministically (lowest group, then
** lowest thread), so the outcome never depends on the host thread count.
*/
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "exec.h"

#define DEFAULT_MAX_STEPS 100000000ull

uint64_t visa_buffer_address(size_t index) { return (uint64_t)(index + 1) << 32; }

uint8_t *emu_global(emu_mem *mem, uint64_t addr, uint32_t size) {
    uint64_t i = (addr >> 32);
    if (i == 0 || i > mem->nbufs) return NULL;
    const visa_buffer *b = &mem->bufs[i - 1];
    uint64_t off = addr & 0xFFFFFFFFu;
    if (off > b->size || size > b->size - off) return NULL;
    return b->data + off;
}

uint8_t *emu_surface(emu_mem *mem, uint32_t index, uint64_t off, uint32_t size, uint64_t *bytes) {
    if (index >= mem->nbufs) {
        if (bytes) *bytes = 0;
        return NULL;
    }
    const visa_buffer *b = &mem->bufs[index];
    if (bytes) *bytes = b->size;
    if (off > b->size || size > b->size - off) return NULL;
    return b->data + off;
}

/* Scratch buffers for implicit pointer inputs of kinds the emulator does not define. */
#define SCRATCH_BYTES (64u * 1024u)

static size_t scratch_pointer_count(const ir_routine *r) {
    size_t n = 0;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        unsigned kind = r->inputs.data[i].kind >> 3;
        n += (r->inputs.data[i].kind & 7) == IN_GENERAL && kind > 3 && r->inputs.data[i].size == 8;
    }
    return n;
}

typedef struct launch {
    const emu_program *prog;
    const visa_run_opts *opts;
    const visa_arg *args;
    size_t nargs;
    visa_buffer *bufs;
    size_t nbufs;         /* the caller's, then one scratch buffer per undefined implicit pointer */
    size_t nuser_bufs;
    uint32_t groups[3], gsize[3];
    uint32_t simd;        /* dispatch width: initial execution mask */
    uint32_t slm_bytes;
    uint64_t max_steps;
    uint32_t cr0;         /* initial %cr0 */
    /* work distribution and the first fault */
    pthread_mutex_t lock;
    uint64_t next_group, ngroups;
    uint64_t fault_group; /* lowest faulting group index, UINT64_MAX if none */
    uint32_t fault_thread;
    uint32_t fault_op;
    uint32_t fault_lane;
    char fault_msg[256];
    bool oom;
    uint64_t steps, threads_run;
    emu_obs_run *obs;     /* the observer's prepared run, NULL when nobody observes */
} launch;

static uint32_t attr_u32(const ir_routine *r, const char *name, uint32_t dflt) {
    for (uint32_t i = 0; i < r->attrs.len; i++) {
        const ir_attr *a = &r->attrs.data[i];
        if (strcmp(ir_str(r, a->name), name) || a->is_str || !a->size) continue;
        uint32_t v = 0;
        for (int k = a->size - 1; k >= 0; k--) v = (v << 8) | a->value[k];
        return v;
    }
    return dflt;
}

static void put(uint8_t *p, uint64_t v, unsigned bytes) {
    for (unsigned k = 0; k < bytes; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* The thread's payload: r0, predefined ids and every input. */
/* An input that takes the next --arg: a surface or sampler input, or an explicit (user) general
** input; implicit inputs are filled by the launch. */
static bool input_takes_arg(const ir_input *in) { return (in->kind & 7) != IN_GENERAL || (in->kind >> 3) == 0; }

static void init_thread(const launch *L, emu_thread *t, const uint32_t g[3], const uint32_t l[3]) {
    const emu_program *p = L->prog;
    const ir_routine *r = p->r;
    const uint32_t *off = p->lay.var_off;
    uint8_t *f = t->file;
    /* r0 (GPGPU payload): dword 1 group id x, dwords 6, 7 group ids y, z */
    put(f + off[VISA_PREDEF_R0] + 4, g[0], 4);
    put(f + off[VISA_PREDEF_R0] + 24, g[1], 4);
    put(f + off[VISA_PREDEF_R0] + 28, g[2], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_X], g[0], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_Y], g[1], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_Z], g[2], 4);
    put(f + off[VISA_PREDEF_THREAD_X], l[0], 2);
    put(f + off[VISA_PREDEF_THREAD_Y], l[1], 2);
    put(f + off[VISA_PREDEF_SR0] + 8, t->dispatch, 4);            /* %sr0.2: DMask, the dispatch mask */
    put(f + off[VISA_PREDEF_HW_ID], l[0] + L->gsize[0] * (l[1] + L->gsize[1] * l[2]), 4); /* %hw_id: thread in group */
    put(f + p->cr0_off, L->cr0, 4);
    unsigned explicit_index = 0, scratch_index = 0;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        /* its argument, taken whether or not the input can be written (visa_module_run checked
        ** there is one per input) */
        const visa_arg *a = input_takes_arg(in) ? &L->args[explicit_index++] : NULL;
        if ((in->kind & 7) != IN_GENERAL) {
            /* a surface or sampler input: a surface bound to buffer i holds i (its binding-table
            ** index), a number gives the index itself */
            const emu_layout *lay = &p->lay;
            bool surf = (in->kind & 7) == IN_SURFACE;
            if (in->id >= (surf ? lay->nsurfs : lay->nsamps)) continue;
            uint32_t v = a->kind == VISA_ARG_BUFFER ? a->buffer
                         : a->kind == VISA_ARG_FLOAT ? (uint32_t)a->fvalue : (uint32_t)a->value;
            t->state[(surf ? lay->surf_slot : lay->samp_slot)[in->id]] = v;
            continue;
        }
        if (in->offset < 0) continue;
        uint8_t *dst = f + (uint32_t)in->offset;
        unsigned size = in->size;
        if ((uint32_t)in->offset + size > p->lay.file_bytes) continue;
        switch (in->kind >> 3) {
        case 0: { /* explicit argument */
            uint64_t v = a->kind == VISA_ARG_BUFFER ? visa_buffer_address(a->buffer) : a->value;
            if (a->kind == VISA_ARG_FLOAT || a->kind == VISA_ARG_INT) {
                /* a number: the input variable's type decides the encoding */
                int ty = ir_var_type(r, in->id);
                double dv = a->kind == VISA_ARG_FLOAT ? a->fvalue : (double)(int64_t)a->value;
                if (ty == VISA_TYPE_DF) memcpy(&v, &dv, 8);
                else if (ty == VISA_TYPE_F) {
                    float fv = (float)dv;
                    uint32_t b;
                    memcpy(&b, &fv, 4);
                    v = b;
                } else if (a->kind == VISA_ARG_FLOAT) {
                    v = (uint64_t)(int64_t)dv;
                }
            }
            put(dst, v, size < 8 ? size : 8);
            break;
        }
        case 1: /* LOCAL_SIZE: 3 x ud */
            for (unsigned k = 0; k < 3 && 4 * k + 4 <= size; k++) put(dst + 4 * k, L->gsize[k], 4);
            break;
        case 2: /* GROUP_COUNT: 3 x ud */
            for (unsigned k = 0; k < 3 && 4 * k + 4 <= size; k++) put(dst + 4 * k, L->groups[k], 4);
            break;
        case 3: { /* LOCAL_ID: 3 x uw (or 3 x ud when 12 bytes) */
            unsigned w = size >= 12 ? 4 : 2;
            for (unsigned k = 0; k < 3 && w * k + w <= size; k++) put(dst + w * k, l[k], w);
            break;
        }
        default:
            /* a pointer the emulator does not define (IGC's printf / assert buffers): its own
            ** zeroed scratch buffer, after the caller's */
            if (size == 8) put(dst, visa_buffer_address(L->nuser_bufs + scratch_index++), 8);
            break; /* other implicit kinds carry no data the emulator defines: zero */
        }
    }
}

/* The per-worker state of one thread group: every thread's registers side by side, so the
** threads can take turns at barriers. */
typedef struct group_mem {
    uint32_t nthreads;
    emu_thread *t;
    uint8_t *file;
    uint32_t *addr, *pred, *state, *wait;
    uint8_t *slm;
    emu_group_sync sync;
} group_mem;

static size_t n_addr(const emu_program *p) { return p->lay.naddr_slots + 1; }
static size_t n_pred(const emu_program *p) { return p->lay.npreds + 1; }
static size_t n_state(const emu_program *p) { return p->nstate + 1; }

static bool group_mem_alloc(visa_ctx *ctx, const launch *L, group_mem *g) {
    const emu_program *p = L->prog;
    size_t n = g->nthreads = L->gsize[0] * L->gsize[1] * L->gsize[2];
    g->t = vx_alloc(ctx, sizeof(emu_thread) * n);
    g->file = vx_alloc(ctx, (size_t)p->lay.file_bytes * n);
    g->addr = vx_alloc(ctx, sizeof(uint32_t) * n_addr(p) * n);
    g->pred = vx_alloc(ctx, sizeof(uint32_t) * n_pred(p) * n);
    g->state = vx_alloc(ctx, sizeof(uint32_t) * n_state(p) * n);
    g->wait = vx_alloc(ctx, sizeof(uint32_t) * p->ops.len * n);
    g->slm = L->slm_bytes ? vx_alloc(ctx, L->slm_bytes) : NULL;
    return g->t && g->file && g->addr && g->pred && g->state && g->wait && (!L->slm_bytes || g->slm);
}

static void group_mem_free(visa_ctx *ctx, const launch *L, group_mem *g) {
    const emu_program *p = L->prog;
    size_t n = g->nthreads;
    vx_free(ctx, g->t, sizeof(emu_thread) * n);
    vx_free(ctx, g->file, (size_t)p->lay.file_bytes * n);
    vx_free(ctx, g->addr, sizeof(uint32_t) * n_addr(p) * n);
    vx_free(ctx, g->pred, sizeof(uint32_t) * n_pred(p) * n);
    vx_free(ctx, g->state, sizeof(uint32_t) * n_state(p) * n);
    vx_free(ctx, g->wait, sizeof(uint32_t) * p->ops.len * n);
    vx_free(ctx, g->slm, L->slm_bytes);
}

/* Record a fault of thread ti of group gi if it is the lowest so far. */
static void record_fault(launch *L, uint64_t gi, uint32_t ti, const emu_thread *t) {
    pthread_mutex_lock(&L->lock);
    if (gi < L->fault_group || (gi == L->fault_group && ti < L->fault_thread)) {
        L->fault_group = gi;
        L->fault_thread = ti;
        L->fault_op = t->pc;
        L->fault_lane = t->fault_lane;
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s", t->fault_msg);
    }
    pthread_mutex_unlock(&L->lock);
}

/* Run one group: its threads take turns in index order, each until it ends or waits at a barrier,
** until all have ended.  A round in which no thread gets past its barrier is a deadlock.  The
** order is fixed, so the result never depends on the host.  Returns false on a fault. */
static bool run_group(launch *L, uint64_t gi, group_mem *gm) {
    const emu_program *p = L->prog;
    uint32_t g[3] = {(uint32_t)(gi % L->groups[0]), (uint32_t)(gi / L->groups[0] % L->groups[1]),
                     (uint32_t)(gi / L->groups[0] / L->groups[1])};
    emu_mem mem = {L->bufs, L->nbufs, gm->slm, L->slm_bytes};
    if (gm->slm) memset(gm->slm, 0, L->slm_bytes);
    uint32_t n = gm->nthreads;
    emu_obs_group og;
    emu_observe_group_begin(L->obs, &og, gi, g);
    memset(&gm->sync, 0, sizeof gm->sync);
    gm->sync.nthreads = n;
    gm->sync.threads = gm->t;
    for (uint32_t ti = 0; ti < n; ti++) {
        uint32_t l[3] = {ti % L->gsize[0], ti / L->gsize[0] % L->gsize[1], ti / L->gsize[0] / L->gsize[1]};
        emu_thread *t = &gm->t[ti];
        memset(t, 0, sizeof *t);
        t->prog = p;
        t->file = gm->file + (size_t)ti * p->lay.file_bytes;
        t->addr = gm->addr + (size_t)ti * n_addr(p);
        t->pred = gm->pred + (size_t)ti * n_pred(p);
        t->state = gm->state + (size_t)ti * n_state(p);
        t->wait_mask = gm->wait + (size_t)ti * p->ops.len;
        memset(t->file, 0, p->lay.file_bytes);
        memset(t->addr, 0, sizeof(uint32_t) * n_addr(p));
        memset(t->pred, 0, sizeof(uint32_t) * n_pred(p));
        memset(t->state, 0, sizeof(uint32_t) * n_state(p));
        memset(t->wait_mask, 0, sizeof(uint32_t) * p->ops.len);
        t->mem = &mem;
        t->sync = &gm->sync;
        t->index = ti;
        t->obs = L->obs ? &og : NULL;
        t->em = L->simd >= 32 ? 0xFFFFFFFFu : (1u << L->simd) - 1;
        t->dispatch = t->em;
        t->max_steps = L->max_steps;
        memcpy(t->group_id, g, sizeof g);
        memcpy(t->local_id, l, sizeof l);
        init_thread(L, t, g, l);
    }
    bool ok = true;
    for (;;) {
        bool progress = false;
        uint32_t live = 0, first_blocked = UINT32_MAX;
        for (uint32_t ti = 0; ti < n && ok; ti++) {
            emu_thread *t = &gm->t[ti];
            if (t->done && !t->blocked) continue;
            uint64_t steps0 = t->steps;
            t->blocked = false;
            t->done = false;
            emu_run_thread(t);
            if (t->fault) {
                record_fault(L, gi, ti, t);
                ok = false;
                break;
            }
            if (t->blocked) {
                t->steps--; /* the waiting op has not completed */
                if (first_blocked == UINT32_MAX) first_blocked = ti;
            }
            if (t->steps != steps0 || !t->blocked) progress = true; /* got past an op, or ended */
            if (t->blocked) live++;
        }
        if (!ok || !live) break;
        if (!progress) {
            emu_thread *t = &gm->t[first_blocked];
            uint32_t ended = 0;
            for (uint32_t ti = 0; ti < n; ti++) ended += gm->t[ti].done && !gm->t[ti].blocked;
            t->fault = 1;
            t->fault_lane = 0;
            snprintf(t->fault_msg, sizeof t->fault_msg,
                     "deadlock: %u threads wait at barriers that can never complete; %u of the group's %u "
                     "threads have ended", live, ended, n);
            record_fault(L, gi, first_blocked, t);
            ok = false;
            break;
        }
    }
    emu_observe_group_end(&og);
    uint64_t steps = 0;
    for (uint32_t ti = 0; ti < n; ti++) steps += gm->t[ti].steps;
    pthread_mutex_lock(&L->lock);
    L->steps += steps;
    L->threads_run += n;
    pthread_mutex_unlock(&L->lock);
    return ok;
}

static void *worker(void *arg) {
    launch *L = arg;
    visa_ctx *ctx = L->prog->ctx;
    group_mem gm;
    memset(&gm, 0, sizeof gm);
    if (!group_mem_alloc(ctx, L, &gm)) {
        pthread_mutex_lock(&L->lock);
        L->oom = true;
        pthread_mutex_unlock(&L->lock);
    } else {
        for (;;) {
            pthread_mutex_lock(&L->lock);
            uint64_t gi = L->next_group;
            /* groups after a known fault cannot change the reported (lowest) one */
            bool stop = gi >= L->ngroups || gi > L->fault_group || L->oom;
            if (!stop) L->next_group++;
            pthread_mutex_unlock(&L->lock);
            if (stop) break;
            run_group(L, gi, &gm);
        }
    }
    group_mem_free(ctx, L, &gm);
    return NULL;
}

visa_status visa_module_run(const visa_module *m, const visa_run_opts *opts, const visa_arg *args,
                            size_t nargs, visa_buffer *bufs, size_t nbufs, visa_run_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
    visa_run_opts o;
    if (!m || !opts || visa__run_opts_read(opts, &o) != VISA_OK) return VISA_E_ARG;
    opts = &o; /* complete: the fields an older caller lacks are 0 */
    if ((unsigned)opts->platform >= VISA_PLATFORM__COUNT || (nargs && !args) || (nbufs && !bufs))
        return VISA_E_ARG;
    visa_ctx *ctx = m->ctx;
    diag_sink ds;
    diag_init(&ds, ctx, m->name ? m->name : "<module>", NULL, 0);
    /* the kernel */
    const ir_routine *r = NULL;
    for (uint32_t i = 0; i < m->routines.len && !r; i++) {
        const ir_routine *c = &m->routines.data[i];
        if (c->is_kernel && (!opts->kernel || !strcmp(ir_str(c, c->name), opts->kernel))) r = c;
    }
    if (!r) {
        diag_at_offset(&ds, VISA_SEV_ERROR, "E-RUN", VISA_DIAG_NO_OFFSET, opts->kernel ? "no kernel named '%s'" : "%s",
                opts->kernel ? opts->kernel : "the module has no kernel");
        return VISA_E_ARG;
    }
    /* one argument per explicit input (general, surface or sampler), in declaration order: a
    ** missing one would leave an input silently zero.  Arguments past the inputs can only be
    ** buffers (messages reach them by binding-table index); a number there is a mistake. */
    size_t nexplicit = 0;
    for (uint32_t i = 0; i < r->inputs.len; i++) nexplicit += input_takes_arg(&r->inputs.data[i]);
    size_t extra_scalar = nargs;
    for (size_t i = nexplicit; i < nargs; i++)
        if (args[i].kind != VISA_ARG_BUFFER) {
            extra_scalar = i;
            break;
        }
    if (nargs < nexplicit || extra_scalar < nargs) {
        diag_at_offset(&ds, VISA_SEV_ERROR, "E-RUN", VISA_DIAG_NO_OFFSET,
                       nargs < nexplicit ? "kernel '%s' takes %zu argument%s (its .input variables), %zu given"
                                         : "kernel '%s' takes %zu argument%s (its .input variables); argument %zu "
                                           "is a number, and arguments past the inputs can only be buffers",
                       ir_str(r, r->name), nexplicit, nexplicit == 1 ? "" : "s",
                       nargs < nexplicit ? nargs : extra_scalar + 1);
        return VISA_E_ARG;
    }
    for (size_t i = 0; i < nargs; i++)
        if (args[i].kind == VISA_ARG_BUFFER && args[i].buffer >= nbufs) return VISA_E_ARG;
    launch *L = vx_alloc(ctx, sizeof *L);
    emu_program *prog = vx_alloc(ctx, sizeof *prog);
    if (!L || !prog) {
        vx_free(ctx, L, sizeof *L);
        vx_free(ctx, prog, sizeof *prog);
        return VISA_E_NOMEM;
    }
    visa_status st = emu_lower(ctx, m, r, opts->platform, prog, &ds);
    visa_buffer *all_bufs = NULL;
    memset(L, 0, sizeof *L);
    if (st == VISA_OK) {
        L->prog = prog;
        L->opts = opts;
        L->args = args;
        L->nargs = nargs;
        L->nuser_bufs = nbufs;
        L->bufs = bufs;
        L->nbufs = nbufs;
        size_t nscratch = scratch_pointer_count(r);
        if (nscratch) {
            all_bufs = vx_alloc(ctx, sizeof(visa_buffer) * (nbufs + nscratch));
            if (all_bufs) memset(all_bufs, 0, sizeof(visa_buffer) * (nbufs + nscratch));
            for (size_t i = 0; all_bufs && i < nbufs; i++) all_bufs[i] = bufs[i];
            for (size_t i = 0; all_bufs && i < nscratch; i++) {
                all_bufs[nbufs + i].data = vx_alloc(ctx, SCRATCH_BYTES);
                all_bufs[nbufs + i].size = all_bufs[nbufs + i].data ? SCRATCH_BYTES : 0;
                if (all_bufs[nbufs + i].data) memset(all_bufs[nbufs + i].data, 0, SCRATCH_BYTES);
                else st = VISA_E_NOMEM;
            }
            if (!all_bufs) st = VISA_E_NOMEM;
            L->bufs = all_bufs;
            L->nbufs = nbufs + nscratch;
        }
    }
    if (st == VISA_OK) {
        L->ngroups = 1;
        for (int k = 0; k < 3; k++) {
            L->groups[k] = opts->groups[k] ? opts->groups[k] : 1;
            L->gsize[k] = opts->group_size[k] ? opts->group_size[k] : 1;
            L->ngroups *= L->groups[k];
        }
        L->simd = attr_u32(r, "SimdSize", 16);
        if (L->simd != 8 && L->simd != 16 && L->simd != 32) L->simd = 16;
        L->slm_bytes = attr_u32(r, "SLMSize", 0) * 1024u;
        L->max_steps = opts->max_steps ? opts->max_steps : DEFAULT_MAX_STEPS;
        L->cr0 = opts->set_cr0 ? opts->cr0 : EMU_CR0_FAST;
        L->fault_group = UINT64_MAX;
        st = emu_observe_prepare(prog, opts->observer, L->groups, &L->obs);
    }
    if (st == VISA_OK) {
        pthread_mutex_init(&L->lock, NULL);
        unsigned nt = opts->threads ? opts->threads : 1;
        if (prog->global_atomics) nt = 1; /* see emu_program.global_atomics */
        if (nt > 256) nt = 256;
        if (nt > L->ngroups) nt = (unsigned)L->ngroups;
        pthread_t tids[256];
        unsigned started = 0;
        for (unsigned k = 1; k < nt; k++)
            if (pthread_create(&tids[started], NULL, worker, L) == 0) started++;
        worker(L);
        for (unsigned k = 0; k < started; k++) pthread_join(tids[k], NULL);
        pthread_mutex_destroy(&L->lock);
        if (stats) {
            stats->instructions = L->steps;
            stats->threads = L->threads_run;
        }
        if (L->oom) st = VISA_E_NOMEM;
        else if (L->fault_group != UINT64_MAX) {
            const emu_op *op = &prog->ops.data[L->fault_op < prog->ops.len ? L->fault_op : 0];
            const char *mn = isa_forms[op->form].mnem;
            size_t mn_len = strcspn(mn, "|");
            if (mn[0] == '%') mn = isa_forms[op->form].name, mn_len = strlen(mn);
            diag_at(&ds, VISA_SEV_ERROR, "E-RUN", op->line, op->col,
                    "runtime error in '%.*s': %s [group %llu, thread %u, lane %u]", (int)mn_len, mn,
                    L->fault_msg, (unsigned long long)L->fault_group, L->fault_thread, L->fault_lane);
            st = VISA_E_RUNTIME;
        }
    }
    if (all_bufs) {
        for (size_t i = nbufs; i < L->nbufs; i++) vx_free(ctx, all_bufs[i].data, all_bufs[i].size);
        vx_free(ctx, all_bufs, sizeof(visa_buffer) * L->nbufs);
    }
    emu_observe_free(prog, L->obs);
    emu_program_free(prog);
    vx_free(ctx, prog, sizeof *prog);
    vx_free(ctx, L, sizeof *L);
    return st;
}
