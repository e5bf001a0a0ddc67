/* launch.c -- runs a kernel over an ND-range: builds each thread's payload (r0, group and local
** ids, explicit arguments and implicit inputs), runs the threads of each group, spreads groups
** over host threads, and reports the first run-time fault deterministically (lowest group, then
** lowest thread), so the outcome never depends on the host thread count.
*/
#define _POSIX_C_SOURCE 200809L /* pthread */
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "abi.h"
#include "convert.h"
#include "check.h"
#include "mem.h"
#include "access.h"
#include "prepare.h"
#include "observe.h"
#include "run.h"

#define DEFAULT_MAX_STEPS 100000000ull
/* Limits of a launch (docs/launch.md, "Limits"). */
#define MAX_LAUNCH_THREADS (1ull << 40) /* groups x threads per group that a launch may start */
#define MAX_GROUP_BYTES (1ull << 30) /* one group's emulated state: registers, SLM, tables */
#define MAX_LAUNCH_BYTES (4ull << 30) /* all host threads' group state together */

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
    size_t nbufs; /* the caller's, then one scratch buffer per undefined implicit pointer */
    size_t nuser_bufs;
    uint32_t groups[3], gsize[3]; /* gsize: threads per group (OpenCL model: nthreads, 1, 1) */
    uint32_t local[3]; /* work-items per group (CM model: gsize, one work-item per thread) */
    uint32_t global_offset[3];
    uint32_t nthreads; /* threads per group */
    uint64_t items; /* work-items per group */
    emu_abi abi;
    emu_items work_items; /* the OpenCL model's work-items (launch_shape), for local ids and findings */
    const visa_arg **bound; /* per input: its argument, NULL if the launch fills it */
    uint32_t simd; /* dispatch width: initial execution mask */
    uint32_t slm_bytes;
    uint64_t max_steps;
    emu_budget budget; /* the launch-wide limits every thread checks (emu_limits_check) */
    unsigned host_threads;
    uint32_t cr0; /* initial %cr0 */
    /* work distribution and the first fault */
    pthread_mutex_t lock;
    uint64_t next_group, ngroups;
    uint64_t fault_group; /* lowest faulting group index, UINT64_MAX if none */
    uint32_t fault_thread;
    uint32_t fault_op;
    uint32_t fault_lane;
    emu_diag_id fault_diag; /* its row (diags.def) */
    char fault_msg[512];
    bool oom;
    uint64_t steps, threads_run;
    uint32_t workers; /* host workers started so far */
    uint64_t *symbols; /* per emu_program.extern_syms: its address (launch_symbols), NULL when none */
    emu_obs_run *obs; /* the observer's prepared run, NULL when nobody observes */
    emu_check_run *chk; /* run checks (check.c), NULL when none */
} launch;

static void put(uint8_t *p, uint64_t v, unsigned bytes) {
    for (unsigned k = 0; k < bytes; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* A number's bits in an input's element type t (a float type converts, rounding to nearest
** even; an integer type takes the integer, a float truncated toward zero). */
static uint64_t encode_number(int t, const visa_arg *a) {
    if (a->kind == VISA_ARG_SCALAR) return a->value;
    double dv = a->kind == VISA_ARG_FLOAT ? a->fvalue : (double)(int64_t)a->value;
    uint64_t dbits;
    memcpy(&dbits, &dv, 8);
    switch (t) {
    case VISA_TYPE_DF: return dbits;
    case VISA_TYPE_F: return emu_df_to_f(dbits, EMU_RNE);
    case VISA_TYPE_HF: return emu_df_to_hf(dbits, EMU_RNE);
    case VISA_TYPE_BF: return emu_df_to_bf(dbits, EMU_RNE);
    default:
        if (a->kind != VISA_ARG_FLOAT) return a->value;
        if (dv != dv) return 0;
        if (dv >= 18446744073709551616.0) return UINT64_MAX;
        if (dv >= 9223372036854775808.0) return (uint64_t)dv;
        if (dv < -9223372036854775808.0) return (uint64_t)INT64_MIN;
        return (uint64_t)(int64_t)dv;
    }
}

/* The work dimension a runtime reports: the highest dimension with more than one work-item. */
static uint32_t work_dim(const launch *L) {
    for (int k = 2; k > 0; k--)
        if ((uint64_t)L->groups[k] * L->local[k] > 1) return (uint32_t)k + 1;
    return 1;
}

/* An argument's bytes (visa_module_run checked it fits the input). */
static void write_arg(const launch *L, const ir_input *in, const visa_arg *a, uint8_t *dst) {
    const ir_routine *r = L->prog->r;
    int ty = ir_var_type(r, in->id);
    unsigned eb = ty >= 0 ? isa_types[ty].bytes : 1, size = in->size;
    uint32_t v3[8] = {0};
    unsigned n3 = 3;
    switch (a->kind) {
    case VISA_ARG_BUFFER: put(dst, visa_buffer_address(a->buffer), size < 8 ? size : 8); return;
    case VISA_ARG_VECTOR:
        for (uint32_t k = 0; k < a->buffer; k++)
            put(dst + k * eb, encode_number(ty, &L->opts->vector_elems[a->value + k]), eb);
        return;
    case VISA_ARG_SCALAR:
    case VISA_ARG_INT:
    case VISA_ARG_FLOAT:
        /* one number: its bits in the element type, into the input's low bytes (up to 8) */
        put(dst, encode_number(ty, a), size < 8 ? size : 8);
        return;
    case VISA_ARG_LOCAL_SIZE:
    case VISA_ARG_ENQUEUED_LOCAL_SIZE: memcpy(v3, L->local, 12); break;
    case VISA_ARG_GROUP_COUNT: memcpy(v3, L->groups, 12); break;
    case VISA_ARG_GLOBAL_OFFSET: memcpy(v3, L->global_offset, 12); break;
    case VISA_ARG_GLOBAL_SIZE:
        for (int k = 0; k < 3; k++) v3[k] = L->groups[k] * L->local[k];
        break;
    case VISA_ARG_WORK_DIM: v3[0] = work_dim(L), n3 = 1; break;
    case VISA_ARG_PAYLOAD_HEADER:
        memcpy(v3, L->global_offset, 12);
        memcpy(v3 + 3, L->local, 12);
        n3 = 8;
        break;
    default: return;
    }
    for (unsigned k = 0; k < n3; k++) put(dst + 4 * k, v3[k], 4);
}

/* The bytes of a per-thread input: the local ids of thread ti's lanes (compute-runtime
** local_id_gen): row c (x, y, z) holds one uw per SIMD lane, lane l belongs to work-item
** n = ti * SIMD + l counted x fastest; x wraps at the local size in x, y at the local size in y,
** z keeps counting, so lanes past the group's end get the runtime's wrapped values.  Row bytes
** past the SIMD lanes are padding (zero). */
static void fill_local_ids(const launch *L, uint32_t ti, const ir_input *in, uint8_t *dst) {
    const emu_abi *abi = &L->abi;
    const uint32_t *local = L->work_items.local;
    /* every lane's ids, counted on from lane 0's as emu_local_id counts (x fastest, z unwrapped):
    ** a thread start's cost, so no division per lane or byte */
    uint16_t ids[3][EMU_MAX_LANES];
    uint32_t id[3], lanes = L->simd < EMU_MAX_LANES ? L->simd : EMU_MAX_LANES;
    emu_local_id(&L->work_items, ti, 0, id);
    for (uint32_t lane = 0; lane < lanes; lane++) {
        for (unsigned c = 0; c < 3; c++) ids[c][lane] = (uint16_t)id[c];
        if (++id[0] == local[0] && (id[0] = 0, ++id[1] == local[1])) id[1] = 0, id[2]++;
    }
    uint32_t rel = (uint32_t)in->offset - abi->pt_begin, c = rel / abi->row, at = rel % abi->row;
    for (uint32_t b = 0; b < in->size; b++, rel++) {
        uint32_t lane = at / 2;
        dst[b] = (uint8_t)(c < 3 && lane < lanes ? ids[c][lane] >> (8 * (rel & 1)) : 0);
        if (++at == abi->row) at = 0, c++;
    }
}

/* The thread's payload: r0, predefined ids and every input. */
/* The hardware thread id an OpenCL kernel computes from %sr0 (XeHP and later) or %hw_id (XeLP and
** earlier; the finalizer reads it from r0.5 bits 9:0), for slot k.  IGC's CShader::GetHWTID takes
** %sr0's thread fields and removes the bits that are not a thread number there (bit 6 then bit 3
** on XeHP/XeHPG, bits 7:6 then bit 3 on XeHPC and later), and indexes private memory by the
** result: giving every thread that runs at the same time its own k keeps their private memory
** apart.  Here the zero bits are put back in. */
static uint32_t sr0_thread_bits(visa_platform plat, uint32_t k) {
    uint32_t y = (k & 7u) | ((k & ~7u) << 1); /* a zero at bit 3 */
    unsigned gap = plat >= VISA_PLATFORM_XEHPC ? 2 : 1;
    return (y & 0x3Fu) | ((y & ~0x3Fu) << gap); /* zeros at bit 6 (and 7) */
}

/* Scratch space (visa_run_opts.scratch_size, docs/launch.md): hardware-thread slot k owns bytes
** [k x size, (k + 1) x size) of the scratch buffer.  Before XeHP the hardware gives a thread its
** scratch offset in r0.5 bits 31:10 (bits 9:0 hold the thread id that %hw_id reads) and kernels
** add it to their offsets on the stateless surface T5 (%scratch), which is the scratch buffer here;
** from XeHP on r0.5 locates the scratch surface, which IGC addresses as ss(r0.5 >> 4) and which is
** the thread's own slice (lsc.c): r0.5 >> 4 names the scratch buffer. */
static void init_scratch(const launch *L, emu_thread *t, uint32_t k) {
    const emu_program *p = L->prog;
    uint32_t size = L->opts->scratch_size, buffer = L->opts->scratch_buffer;
    uint8_t *r0_5 = t->file + p->lay.var_off[VISA_PREDEF_R0] + 20;
    t->scratch_base = (uint64_t)k * size;
    if (L->opts->platform >= VISA_PLATFORM_XEHP) {
        put(r0_5, (uint64_t)buffer << 4, 4);
        return;
    }
    put(r0_5, t->scratch_base | (k & 0x3FFu), 4);
    t->state[p->lay.surf_slot[VISA_PREDEF_SURF_SCRATCH]] = buffer;
}

static void init_thread(const launch *L, emu_thread *t, const uint32_t g[3], const uint32_t l[3], uint32_t hw_thread) {
    const emu_program *p = L->prog;
    const ir_routine *r = p->r;
    const uint32_t *off = p->lay.var_off;
    uint8_t *f = t->file;
    /* r0 (GPGPU payload): dword 1 group id x, dwords 6, 7 group ids y, z; dword 2 the number of
    ** threads in the group (bits 31:24) and this thread's index (bits 7:0) */
    put(f + off[VISA_PREDEF_R0] + 4, g[0], 4);
    put(f + off[VISA_PREDEF_R0] + 8, (L->nthreads & 0xFFu) << 24 | (t->index & 0xFFu), 4);
    put(f + off[VISA_PREDEF_R0] + 24, g[1], 4);
    put(f + off[VISA_PREDEF_R0] + 28, g[2], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_X], g[0], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_Y], g[1], 4);
    put(f + off[VISA_PREDEF_GROUP_ID_Z], g[2], 4);
    put(f + off[VISA_PREDEF_THREAD_X], l[0], 2);
    put(f + off[VISA_PREDEF_THREAD_Y], l[1], 2);
    put(f + off[VISA_PREDEF_SR0] + 8, t->dispatch, 4); /* %sr0.2: DMask, the dispatch mask */
    uint32_t in_group = l[0] + L->gsize[0] * (l[1] + L->gsize[1] * l[2]);
    if (L->abi.opencl) {
        /* %hw_id / %sr0: the hardware thread (sr0_thread_bits) */
        put(f + off[VISA_PREDEF_HW_ID], hw_thread, 4);
        if (L->opts->platform >= VISA_PLATFORM_XEHP)
            put(f + off[VISA_PREDEF_SR0], sr0_thread_bits(L->opts->platform, hw_thread), 4);
    } else {
        put(f + off[VISA_PREDEF_HW_ID], in_group, 4); /* %hw_id: thread in group */
    }
    put(f + p->cr0_off, L->cr0, 4);
    if (L->opts->scratch_size) init_scratch(L, t, hw_thread);
    /* a runtime's payload image: the cross-thread data from the end of the per-thread payload
    ** (launch_limits checked that it fits) */
    if (L->opts->payload) memcpy(f + L->abi.pt_end, L->opts->payload, L->opts->payload_size);
    unsigned scratch_index = 0;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        const visa_arg *a = L->bound[i];
        int dim;
        visa_input_role role = emu_input_role(&L->abi, in, &dim);
        if (role == VISA_INPUT_SURFACE || role == VISA_INPUT_SAMPLER) {
            /* a surface bound to buffer i holds i (its binding-table index), a number gives the
            ** index itself */
            const emu_layout *lay = &p->lay;
            bool surf = role == VISA_INPUT_SURFACE;
            if (in->id >= (surf ? lay->nsurfs : lay->nsamps)) continue;
            uint32_t v = a->kind == VISA_ARG_BUFFER  ? a->buffer
                         : a->kind == VISA_ARG_FLOAT ? (uint32_t)a->fvalue
                                                     : (uint32_t)a->value;
            t->state[(surf ? lay->surf_slot : lay->samp_slot)[in->id]] = v;
            continue;
        }
        if (in->offset < 0) continue;
        uint8_t *dst = f + (uint32_t)in->offset;
        unsigned size = in->size;
        if ((uint32_t)in->offset + size > p->lay.file_bytes) continue;
        if (role == VISA_INPUT_PER_THREAD) {
            fill_local_ids(L, t->index, in, dst);
            continue;
        }
        if (role != VISA_INPUT_IMPLICIT) {
            if (a) write_arg(L, in, a, dst); /* else the payload image's */
            continue;
        }
        switch (in->kind >> 3) {
        case 1: /* LOCAL_SIZE: 3 x ud */
            for (unsigned k = 0; k < 3 && 4 * k + 4 <= size; k++) put(dst + 4 * k, L->local[k], 4);
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
    uint32_t worker; /* the host worker running the group: its hardware-thread slots (hw_thread_id) */
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
        L->fault_op = t->pc; /* the run loops put pc back to the faulting op (or the back-edge) */
        L->fault_lane = t->fault_lane;
        L->fault_diag = t->fault_diag;
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s", t->fault_msg);
    }
    pthread_mutex_unlock(&L->lock);
}

/* A limit stopped thread ti: add where the group's other unfinished threads were. */
static void note_other_threads(const launch *L, const group_mem *gm, uint32_t ti, emu_thread *t) {
    size_t len = strlen(t->fault_msg), shown = 0, more = 0;
    for (uint32_t k = 0; k < gm->nthreads; k++) {
        const emu_thread *o = &gm->t[k];
        if (k == ti || (o->done && !o->blocked) || !o->steps) continue; /* ended, or not started */
        if (shown == 4 || len + 40 >= sizeof t->fault_msg) {
            more++;
            continue;
        }
        const emu_op *op = &L->prog->ops.data[o->pc < L->prog->ops.len ? o->pc : 0];
        len += (size_t)snprintf(t->fault_msg + len, sizeof t->fault_msg - len, "%s thread %u at %u:%u%s",
                                shown++ ? "," : "; other threads of the group:", k, op->line, op->col,
                                o->blocked ? " (waiting)" : "");
    }
    if (more && len + 24 < sizeof t->fault_msg)
        snprintf(t->fault_msg + len, sizeof t->fault_msg - len, " and %zu more", more);
}

/* The ids of the group with linear index gi (x fastest, from visa_run_opts.group_base). */
static void group_ids(const launch *L, uint64_t gi, uint32_t g[3]) {
    const uint32_t *base = L->opts->group_base;
    g[0] = base[0] + (uint32_t)(gi % L->groups[0]);
    g[1] = base[1] + (uint32_t)(gi / L->groups[0] % L->groups[1]);
    g[2] = base[2] + (uint32_t)(gi / L->groups[0] / L->groups[1]);
}

/* Run one group: its threads take turns in index order, each until it ends or waits at a barrier,
** until all have ended.  A round in which no thread gets past its barrier is a deadlock.  The
** order is fixed, so the result never depends on the host.  Returns false on a fault. */
static bool run_group(launch *L, uint64_t gi, group_mem *gm) {
    const emu_program *p = L->prog;
    uint32_t g[3];
    group_ids(L, gi, g);
    emu_mem mem = {.bufs = L->bufs, /* the sink: emu_check_group_begin */
                   .nbufs = L->nbufs,
                   .slm = gm->slm,
                   .slm_size = L->slm_bytes,
                   .symbols = L->symbols,
                   .scratch_buffer = L->opts->scratch_buffer,
                   .scratch_size = L->opts->scratch_size};
    if (gm->slm) memset(gm->slm, 0, L->slm_bytes);
    uint32_t n = gm->nthreads;
    emu_obs_group og;
    emu_observe_group_begin(L->obs, &og, gi, g);
    emu_check_group *cg = NULL;
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
        t->obs = L->obs || L->chk ? &og : NULL;
        t->em = L->simd >= 32 ? 0xFFFFFFFFu : (1u << L->simd) - 1;
        /* OpenCL model: the last thread's lanes past the group's work-items are off from the
        ** start (the walker's right execution mask; docs/launch.md) */
        uint32_t tail = (uint32_t)(L->items % L->simd);
        if (L->abi.opencl && ti == n - 1 && tail) t->em = (1u << tail) - 1;
        t->dispatch = t->em;
        t->max_steps = L->max_steps;
        t->budget = &L->budget;
        memcpy(t->group_id, g, sizeof g);
        memcpy(t->local_id, l, sizeof l);
        init_thread(L, t, g, l, gm->worker * L->nthreads + ti);
    }
    bool ok = emu_check_group_begin(L->chk, &cg, gi, g, gm->t, n, L->slm_bytes);
    og.chk = cg;
    if (!ok) {
        pthread_mutex_lock(&L->lock);
        L->oom = true;
        pthread_mutex_unlock(&L->lock);
    }
    while (ok) {
        bool progress = false;
        uint32_t live = 0, first_blocked = UINT32_MAX;
        for (uint32_t ti = 0; ti < n && ok; ti++) {
            emu_thread *t = &gm->t[ti];
            if (t->done && !t->blocked) continue;
            uint64_t steps0 = t->steps;
            t->blocked = false;
            t->done = false;
            emu_run_thread(t);
            /* the launch's total counts every slice (a thread's loop only checks now and then) */
            if (!t->fault) emu_limits_check(t, t->steps);
            if (t->fault) {
                if (t->fault == EMU_FAULT_LIMIT) note_other_threads(L, gm, ti, t);
                if (!emu_check_fault(cg, t)) record_fault(L, gi, ti, t);
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
        if (!progress && emu_check_deadlock(cg)) break;
        if (!progress) {
            emu_thread *t = &gm->t[first_blocked];
            uint32_t ended = 0;
            for (uint32_t ti = 0; ti < n; ti++) ended += gm->t[ti].done && !gm->t[ti].blocked;
            emu_fault(t, EDIAG_RUN_DEADLOCK, 0, live, ended, n);
            record_fault(L, gi, first_blocked, t);
            ok = false;
            break;
        }
    }
    emu_observe_group_end(&og);
    emu_check_group_end(cg);
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
    /* The emulator's float arithmetic assumes the default environment (round to nearest, no
    ** flush-to-zero or denormals-are-zero: x86's MXCSR is part of it); the caller's is put back. */
    fenv_t host_env;
    fegetenv(&host_env);
    fesetenv(FE_DFL_ENV);
    group_mem gm;
    memset(&gm, 0, sizeof gm);
    pthread_mutex_lock(&L->lock);
    gm.worker = L->workers++;
    pthread_mutex_unlock(&L->lock);
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
    fesetenv(&host_env);
    return NULL;
}

static const char *const arg_keyword[] = {[VISA_ARG_LOCAL_SIZE] = "local_size",
                                          [VISA_ARG_GLOBAL_SIZE] = "global_size",
                                          [VISA_ARG_GROUP_COUNT] = "group_count",
                                          [VISA_ARG_GLOBAL_OFFSET] = "global_offset",
                                          [VISA_ARG_ENQUEUED_LOCAL_SIZE] = "enqueued_local_size",
                                          [VISA_ARG_WORK_DIM] = "work_dim",
                                          [VISA_ARG_PAYLOAD_HEADER] = "payload_header"};

const char *visa_arg_keyword(visa_arg_kind kind) {
    return (unsigned)kind < sizeof arg_keyword / sizeof arg_keyword[0] ? arg_keyword[kind] : NULL;
}

static const char *role_text(visa_input_role role, int dim, unsigned implicit_kind, char *buf, size_t cap) {
    if (role == VISA_INPUT_PER_THREAD) snprintf(buf, cap, "per-thread (local_id_%c)", dim < 3 ? "xyz"[dim] : '?');
    else if (role == VISA_INPUT_IMPLICIT) {
        const char *t = isa_enum_text(VISA_EN_implicit_input, implicit_kind);
        if (t) snprintf(buf, cap, "implicit (%s)", t);
        else snprintf(buf, cap, "implicit (kind %u)", implicit_kind);
    } else snprintf(buf, cap, "%s", role == VISA_INPUT_SURFACE ? "a surface" : "a sampler");
    return buf;
}

/* Whether an input called `name` is input `in` (general inputs by their variable's name, state
** inputs by their v_name or as the text writes them, T<n> / S<n>). */
static bool input_named(const ir_routine *r, const ir_input *in, const char *name) {
    char buf[16];
    if (!strcmp(emu_input_name(r, in, buf, sizeof buf), name)) return true;
    if ((in->kind & 7) == IN_GENERAL) return false;
    snprintf(buf, sizeof buf, "%c%u", (in->kind & 7) == IN_SURFACE ? 'T' : 'S', in->id);
    return !strcmp(buf, name);
}

/* A number or buffer for an input of type ty whose argument fills `bytes` bytes (a single number
** fills the input's low bytes, up to 8; a vector element its element): NaN, infinities and values
** outside the bytes' integer range (signed or unsigned) are refused for integer inputs, raw bits
** wider than the bytes for any input, and a buffer's 64-bit address for an input that cannot hold
** it (a float type, or under 8 bytes).  False after a diagnostic; `what` names the argument. */
static bool check_arg_value(diag_sink *ds, const char *what, int ty, unsigned bytes, const visa_arg *a) {
    bool flt = ty >= 0 && isa_types[ty].cls == TC_FLOAT;
    const char *tn = ty >= 0 ? isa_types[ty].name : "?";
    if (bytes > 8) bytes = 8;
    if (a->kind == VISA_ARG_BUFFER) {
        if (flt || bytes < 8) {
            emu_diag_offset(ds, EDIAG_INPUT_BUFFER_ADDRESS, VISA_DIAG_NO_OFFSET, what, tn, bytes);
            return false;
        }
        return true;
    }
    unsigned bits = 8 * bytes;
    if (a->kind == VISA_ARG_SCALAR) {
        if (bits < 64 && a->value >> bits) {
            emu_diag_offset(ds, EDIAG_INPUT_BITS, VISA_DIAG_NO_OFFSET, what, tn, (unsigned long long)a->value, bits);
            return false;
        }
        return true;
    }
    if (flt) return true; /* a float input takes any number (rounded to nearest even) */
    /* an integer input: the range of its bytes, read as signed or as unsigned */
    double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits); /* [lo, hi) */
    if (a->kind == VISA_ARG_FLOAT) {
        double v = trunc(a->fvalue);
        if (v != v || v < lo || v >= hi) {
            emu_diag_offset(ds, EDIAG_INPUT_NOT_INTEGER, VISA_DIAG_NO_OFFSET, what, tn, a->fvalue, lo, hi - 1);
            return false;
        }
        return true;
    }
    int64_t v = (int64_t)a->value; /* VISA_ARG_INT */
    if (bits < 64 && (v < (int64_t)lo || v >= (int64_t)hi)) {
        emu_diag_offset(ds, EDIAG_INPUT_RANGE, VISA_DIAG_NO_OFFSET, what, tn, (long long)v, lo, hi - 1);
        return false;
    }
    return true;
}

/* Give every input that takes an argument its argument (visa_arg's binding rule), and check that
** each fits its input.  False after a diagnostic. */
/* Whether an input of this role takes an argument: with a payload image the cross-thread and
** inline inputs are the image's. */
static bool arg_taken(const visa_run_opts *o, visa_input_role role) {
    if (o->payload && (role == VISA_INPUT_CROSS_THREAD || role == VISA_INPUT_INLINE)) return false;
    return emu_role_takes_arg(role);
}

static bool bind_args(diag_sink *ds, const ir_routine *r, const emu_abi *abi, const visa_run_opts *o,
                      const visa_arg *args, size_t nargs, size_t nbufs, const visa_arg **bound) {
    const char *const *names = o->arg_names;
    const char *kname = ir_str(r, r->name);
    char nb[16], rb[64];
    size_t nnamed = 0;
    for (size_t j = 0; j < nargs; j++) {
        const visa_arg *a = &args[j];
        const char *aname = names ? names[j] : NULL;
        if (!aname) continue;
        nnamed++;
        uint32_t i = 0;
        while (i < r->inputs.len && !input_named(r, &r->inputs.data[i], aname)) i++;
        if (i == r->inputs.len) {
            emu_diag_offset(ds, EDIAG_INPUT_UNKNOWN_NAME, VISA_DIAG_NO_OFFSET, kname, aname);
            return false;
        }
        int dim;
        visa_input_role role = emu_input_role(abi, &r->inputs.data[i], &dim);
        if (!arg_taken(o, role)) {
            emu_diag_offset(ds, EDIAG_INPUT_FILLED_BY_LAUNCH, VISA_DIAG_NO_OFFSET, aname,
                            role_text(role, dim, r->inputs.data[i].kind >> 3, rb, sizeof rb));
            return false;
        }
        if (bound[i]) {
            emu_diag_offset(ds, EDIAG_INPUT_TWICE, VISA_DIAG_NO_OFFSET, aname);
            return false;
        }
        bound[i] = a;
    }
    /* positional arguments fill the remaining inputs that take one, in declaration order */
    size_t need = 0, j = 0;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        int dim;
        if (bound[i] || !arg_taken(o, emu_input_role(abi, &r->inputs.data[i], &dim))) continue;
        need++;
        while (j < nargs && names && names[j]) j++;
        if (j < nargs) bound[i] = &args[j++];
    }
    size_t npos = nargs - nnamed, extra_scalar = 0;
    for (; j < nargs; j++)
        if (!(names && names[j]) && args[j].kind != VISA_ARG_BUFFER && !extra_scalar) {
            /* its number among the positional arguments */
            extra_scalar = 1;
            for (size_t k = 0; k < j; k++) extra_scalar += !(names && names[k]);
        }
    if (npos < need || extra_scalar) {
        const char *s = need == 1 ? "" : "s";
        if (nnamed && npos < need)
            emu_diag_offset(ds, EDIAG_INPUT_COUNT_NAMED, VISA_DIAG_NO_OFFSET, kname, need, s, nnamed, npos);
        else if (nnamed)
            emu_diag_offset(ds, EDIAG_INPUT_EXTRA_NUMBER_NAMED, VISA_DIAG_NO_OFFSET, kname, need, s, nnamed,
                            extra_scalar);
        else if (npos < need) emu_diag_offset(ds, EDIAG_INPUT_COUNT, VISA_DIAG_NO_OFFSET, kname, need, s, npos);
        else emu_diag_offset(ds, EDIAG_INPUT_EXTRA_NUMBER, VISA_DIAG_NO_OFFSET, kname, need, s, extra_scalar);
        return false;
    }
    for (size_t k = 0; k < nargs; k++)
        if (args[k].kind == VISA_ARG_BUFFER && args[k].buffer >= nbufs) {
            emu_diag_offset(ds, EDIAG_INPUT_BUFFER_INDEX, VISA_DIAG_NO_OFFSET, k + 1, args[k].buffer, nbufs);
            return false;
        }
    /* each argument fits its input */
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const visa_arg *a = bound[i];
        if (!a) continue;
        const ir_input *in = &r->inputs.data[i];
        const char *name = emu_input_name(r, in, nb, sizeof nb);
        bool general = (in->kind & 7) == IN_GENERAL;
        int ty = general ? ir_var_type(r, in->id) : -1;
        unsigned eb = ty >= 0 ? isa_types[ty].bytes : 1, elems = eb ? in->size / eb : 1;
        if ((unsigned)a->kind > VISA_ARG_PAYLOAD_HEADER) {
            emu_diag_offset(ds, EDIAG_INPUT_ARG_KIND, VISA_DIAG_NO_OFFSET, name, (unsigned)a->kind);
            return false;
        }
        char what[48];
        snprintf(what, sizeof what, "input %s", name);
        if (general && a->kind <= VISA_ARG_INT && !check_arg_value(ds, what, ty, in->size, a)) return false;
        if (a->kind <= VISA_ARG_INT) continue;
        if (!general) {
            emu_diag_offset(ds, EDIAG_INPUT_STATE_ARG, VISA_DIAG_NO_OFFSET, name,
                            (in->kind & 7) == IN_SURFACE ? "a surface" : "a sampler");
            return false;
        }
        if (a->kind == VISA_ARG_VECTOR) {
            if (a->buffer != elems) {
                emu_diag_offset(ds, EDIAG_INPUT_VECTOR_COUNT, VISA_DIAG_NO_OFFSET, name, elems,
                                ty >= 0 ? isa_types[ty].name : "?", a->buffer, a->buffer == 1 ? "" : "s");
                return false;
            }
            if (a->value > o->nvector_elems || a->buffer > o->nvector_elems - a->value ||
                (a->buffer && !o->vector_elems)) {
                emu_diag_offset(ds, EDIAG_INPUT_VECTOR_ELEMS, VISA_DIAG_NO_OFFSET, name);
                return false;
            }
            const visa_arg *el = o->vector_elems + a->value;
            for (uint32_t k = 0; k < a->buffer; k++) {
                if (el[k].kind > VISA_ARG_INT || el[k].kind == VISA_ARG_BUFFER) {
                    emu_diag_offset(ds, EDIAG_INPUT_VECTOR_ELEMENT, VISA_DIAG_NO_OFFSET, name, k + 1);
                    return false;
                }
                snprintf(what, sizeof what, "input %s element %u", name, k + 1);
                if (!check_arg_value(ds, what, ty, eb, &el[k])) return false;
            }
            continue;
        }
        /* a value the runtime supplies: 3 x ud, 1 x ud (work_dim) or 8 x ud (payload header) */
        unsigned want = a->kind == VISA_ARG_WORK_DIM ? 4 : a->kind == VISA_ARG_PAYLOAD_HEADER ? 32 : 12;
        if (in->size != want || eb != 4) {
            emu_diag_offset(ds, EDIAG_INPUT_KEYWORD_SIZE, VISA_DIAG_NO_OFFSET, name, elems,
                            ty >= 0 ? isa_types[ty].name : "?", in->size, arg_keyword[a->kind], want / 4);
            return false;
        }
    }
    return true;
}

/* The launch's shape: the model, work-items and threads per group, and the checks a runtime
** makes against the kernel's attributes.  False after a diagnostic. */
static bool launch_shape_of(diag_sink *ds, const ir_routine *r, const visa_run_opts *o, launch *L) {
    const char *kname = ir_str(r, r->name);
    const emu_abi *abi = &L->abi;
    bool local_given = o->local_size[0] || o->local_size[1] || o->local_size[2];
    bool group_given = o->group_size[0] || o->group_size[1] || o->group_size[2];
    if (local_given && group_given) {
        emu_diag_offset(ds, EDIAG_LAUNCH_SIZES_BOTH, VISA_DIAG_NO_OFFSET);
        return false;
    }
    if (local_given && (!o->local_size[0] || !o->local_size[1] || !o->local_size[2])) {
        emu_diag_offset(ds, EDIAG_LAUNCH_LOCAL_ZERO, VISA_DIAG_NO_OFFSET, o->local_size[0], o->local_size[1],
                        o->local_size[2]);
        return false;
    }
    L->ngroups = 1;
    for (int k = 0; k < 3; k++) {
        L->groups[k] = o->groups[k] ? o->groups[k] : 1;
        /* saturates: three 32-bit counts can exceed 64 bits, and the bound below is far lower */
        L->ngroups = L->ngroups > UINT64_MAX / L->groups[k] ? UINT64_MAX : L->ngroups * L->groups[k];
        L->global_offset[k] = o->global_offset[k];
    }
    if (!abi->opencl) {
        /* CM: a thread is one work-item (SIMD1), so a local size is a group size */
        for (int k = 0; k < 3; k++) {
            uint32_t v = local_given ? o->local_size[k] : o->group_size[k];
            L->gsize[k] = L->local[k] = v ? v : 1;
        }
        L->simd = abi->simd == 8 || abi->simd == 16 || abi->simd == 32 ? abi->simd : 16;
        L->items = (uint64_t)L->gsize[0] * L->gsize[1] * L->gsize[2];
        if (L->items > (1u << 20)) {
            emu_diag_offset(ds, EDIAG_LAUNCH_GROUP_THREADS, VISA_DIAG_NO_OFFSET, (unsigned long long)L->items,
                            1u << 20);
            return false;
        }
        L->nthreads = (uint32_t)L->items;
        return true;
    }
    if (abi->simd != 8 && abi->simd != 16 && abi->simd != 32) {
        if (abi->simd) emu_diag_offset(ds, EDIAG_LAUNCH_SIMD_SIZE, VISA_DIAG_NO_OFFSET, kname, abi->simd);
        else emu_diag_offset(ds, EDIAG_LAUNCH_SIMD_MISSING, VISA_DIAG_NO_OFFSET, kname);
        return false;
    }
    L->simd = abi->simd;
    if (abi->ptis && !abi->ptis_runtime && (abi->ptis % abi->row || abi->ptis / abi->row > 3)) {
        emu_diag_offset(ds, EDIAG_LAUNCH_PER_THREAD_INPUT, VISA_DIAG_NO_OFFSET, kname, abi->ptis, abi->row, abi->simd,
                        abi->grf);
        return false;
    }
    for (int k = 0; k < 3; k++) {
        /* --group-size on an OpenCL kernel: that many whole SIMD threads */
        uint32_t g = o->group_size[k] ? o->group_size[k] : 1;
        L->local[k] = local_given ? o->local_size[k] : group_given ? (k ? g : g * L->simd) : (k ? 1 : L->simd);
    }
    L->items = (uint64_t)L->local[0] * L->local[1] * L->local[2];
    uint64_t threads = (L->items + L->simd - 1) / L->simd;
    if (threads > 255) {
        emu_diag_offset(ds, EDIAG_LAUNCH_LOCAL_THREADS, VISA_DIAG_NO_OFFSET, L->local[0], L->local[1], L->local[2],
                        (unsigned long long)L->items, (unsigned long long)threads, L->simd);
        return false;
    }
    L->nthreads = (uint32_t)threads;
    L->gsize[0] = L->nthreads;
    L->gsize[1] = L->gsize[2] = 1;
    return true;
}

/* The shape, and the bound on the threads a launch starts: a launch past it could never finish. */
static bool launch_shape(diag_sink *ds, const ir_routine *r, const visa_run_opts *o, launch *L) {
    if (!launch_shape_of(ds, r, o, L)) return false;
    emu_items *it = &L->work_items;
    it->opencl = L->abi.opencl;
    it->simd = L->simd;
    bool enqueued = o->enqueued_local_size[0] || o->enqueued_local_size[1] || o->enqueued_local_size[2];
    for (int k = 0; k < 3; k++) {
        it->local[k] = L->local[k];
        it->enqueued[k] = enqueued ? o->enqueued_local_size[k] : L->local[k];
        it->global_offset[k] = L->global_offset[k];
    }
    if (L->ngroups > MAX_LAUNCH_THREADS / L->nthreads) {
        emu_diag_offset(ds, EDIAG_LAUNCH_TOTAL_THREADS, VISA_DIAG_NO_OFFSET, L->groups[0], L->groups[1], L->groups[2],
                        L->nthreads, L->nthreads == 1 ? "" : "s", (unsigned long long)MAX_LAUNCH_THREADS);
        return false;
    }
    return true;
}

static const uint32_t max_slm_kb[VISA_PLATFORM__COUNT] = {
#define VISA_PLAT(N, text, grf, slm_kb, lsc_simd, caps, aliases) slm_kb,
#include "isa/platforms.def"
#undef VISA_PLAT
};

/* The scratch buffer holds one slice per hardware thread running at once (init_scratch): fewer
** host threads when it holds fewer groups' worth than L->host_threads.  False after a diagnostic. */
static bool scratch_limits(diag_sink *ds, const visa_run_opts *o, launch *L) {
    uint64_t bytes = o->scratch_buffer < L->nuser_bufs ? L->bufs[o->scratch_buffer].size : 0;
    uint64_t group = (uint64_t)o->scratch_size * L->nthreads;
    if (o->platform < VISA_PLATFORM_XEHP && o->scratch_size % 1024u) {
        emu_diag_offset(ds, EDIAG_LAUNCH_SCRATCH_SIZE, VISA_DIAG_NO_OFFSET, o->scratch_size,
                        visa_platform_name(o->platform));
        return false;
    }
    if (bytes < group) {
        emu_diag_offset(ds, EDIAG_LAUNCH_SCRATCH_BUFFER, VISA_DIAG_NO_OFFSET, o->scratch_buffer,
                        (unsigned long long)bytes, L->nuser_bufs, o->scratch_size, L->nthreads);
        return false;
    }
    if (L->host_threads > bytes / group) L->host_threads = (unsigned)(bytes / group);
    return true;
}

/* The launch's memory and step limits (docs/launch.md, "Limits").  False after a diagnostic. */
static bool launch_limits(diag_sink *ds, const ir_routine *r, const visa_run_opts *o, launch *L) {
    const emu_program *p = L->prog;
    uint32_t slm_kb = ir_attr_u32(r, "SLMSize", 0);
    if (slm_kb > max_slm_kb[o->platform]) {
        emu_diag_offset(ds, EDIAG_LAUNCH_SLM_SIZE, VISA_DIAG_NO_OFFSET, slm_kb, max_slm_kb[o->platform],
                        visa_platform_name(o->platform));
        return false;
    }
    L->slm_bytes = slm_kb * 1024u;
    if (o->slm_size > L->slm_bytes) {
        if (o->slm_size > max_slm_kb[o->platform] * 1024u) {
            emu_diag_offset(ds, EDIAG_LAUNCH_SLM_BYTES, VISA_DIAG_NO_OFFSET, o->slm_size, max_slm_kb[o->platform],
                            visa_platform_name(o->platform));
            return false;
        }
        L->slm_bytes = o->slm_size;
    }
    uint64_t grf_file = (uint64_t)p->lay.num_grf * p->lay.grf_bytes;
    if (o->payload && (uint64_t)L->abi.pt_end + o->payload_size > grf_file) {
        emu_diag_offset(ds, EDIAG_LAUNCH_PAYLOAD_GRF, VISA_DIAG_NO_OFFSET, o->payload_size, L->abi.pt_end,
                        p->lay.num_grf);
        return false;
    }
    /* one group's state: every thread's registers and tables, and its SLM */
    uint64_t per_thread = sizeof(emu_thread) + (uint64_t)p->lay.file_bytes +
                          sizeof(uint32_t) * ((uint64_t)n_addr(p) + n_pred(p) + n_state(p) + p->ops.len);
    uint64_t group = per_thread * L->nthreads + L->slm_bytes;
    if (group > MAX_GROUP_BYTES) {
        emu_diag_offset(ds, EDIAG_LAUNCH_GROUP_MEMORY, VISA_DIAG_NO_OFFSET, L->nthreads,
                        (unsigned long long)(group >> 20), (unsigned long long)per_thread, slm_kb,
                        (unsigned long long)(MAX_GROUP_BYTES >> 20));
        return false;
    }
    /* each host thread holds one group's state: fewer host threads rather than more memory */
    unsigned nt = o->threads ? o->threads : 1;
    if (nt > MAX_LAUNCH_BYTES / group) nt = (unsigned)(MAX_LAUNCH_BYTES / group);
    L->host_threads = nt ? nt : 1;
    if (o->scratch_size && !scratch_limits(ds, o, L)) return false;
    L->max_steps = o->max_steps ? o->max_steps : DEFAULT_MAX_STEPS;
    L->budget.max_total = o->max_total_steps                                   ? o->max_total_steps
                          : L->max_steps > UINT64_MAX / EMU_TOTAL_STEPS_FACTOR ? UINT64_MAX
                                                                               : L->max_steps * EMU_TOTAL_STEPS_FACTOR;
    if (o->timeout_seconds != 0) {
        if (!(o->timeout_seconds > 0) || !isfinite(o->timeout_seconds)) {
            emu_diag_offset(ds, EDIAG_LAUNCH_TIMEOUT_VALUE, VISA_DIAG_NO_OFFSET, o->timeout_seconds);
            return false;
        }
        double ns = o->timeout_seconds * 1e9;
        uint64_t start = vx_now_ns();
        L->budget.timeout_s = o->timeout_seconds;
        L->budget.deadline_ns = ns >= (double)(UINT64_MAX - start) ? UINT64_MAX : start + (uint64_t)ns;
    }
    return true;
}

/* The caller's buffers, then one zeroed scratch buffer per implicit pointer input the emulator
** does not define (scratch_pointer_count); L->bufs is the caller's array when there are none. */
static visa_status launch_buffers(visa_ctx *ctx, launch *L, visa_buffer *bufs, size_t nbufs) {
    L->nuser_bufs = L->nbufs = nbufs;
    L->bufs = bufs;
    size_t nscratch = scratch_pointer_count(L->prog->r);
    if (!nscratch) return VISA_OK;
    visa_buffer *all = vx_alloc(ctx, sizeof(visa_buffer) * (nbufs + nscratch));
    if (!all) return VISA_E_NOMEM;
    memset(all, 0, sizeof(visa_buffer) * (nbufs + nscratch));
    for (size_t i = 0; i < nbufs; i++) all[i] = bufs[i];
    L->bufs = all;
    L->nbufs = nbufs + nscratch;
    for (size_t i = nbufs; i < L->nbufs; i++) {
        all[i].data = vx_alloc(ctx, SCRATCH_BYTES);
        if (!all[i].data) return VISA_E_NOMEM;
        all[i].size = SCRATCH_BYTES;
        memset(all[i].data, 0, SCRATCH_BYTES);
    }
    return VISA_OK;
}

static void launch_buffers_free(visa_ctx *ctx, launch *L) {
    if (L->bufs == NULL || L->nbufs == L->nuser_bufs) return;
    for (size_t i = L->nuser_bufs; i < L->nbufs; i++) vx_free(ctx, L->bufs[i].data, L->bufs[i].size);
    vx_free(ctx, L->bufs, sizeof(visa_buffer) * L->nbufs);
}

/* The run's first fault at its instruction, its source position and its thread (and work-item). */
static void report_fault(const launch *L, diag_sink *ds) {
    const emu_program *prog = L->prog;
    uint32_t pc = L->fault_op < prog->ops.len ? L->fault_op : 0;
    const emu_op *op = &prog->ops.data[pc];
    size_t mn_len;
    const char *mn = isa_form_mnem_or_name(op->form, &mn_len);
    uint32_t g[3];
    group_ids(L, L->fault_group, g);
    char item[EMU_WHO_BYTES];
    emu_work_item(&L->work_items, g, L->fault_thread, L->fault_lane, item, sizeof item);
    const char *src_file;
    uint32_t src_line = emu_src_of(prog, pc, &src_file);
    emu_diag_report_src(ds, L->fault_diag, EFRAME_FAULT_FMT, op->line, op->col, src_file, src_line, (int)mn_len, mn,
                        L->fault_msg, item, (unsigned long long)L->fault_group, L->fault_thread, L->fault_lane);
}

/* Run every group on the host threads the launch may use, then report the first fault (lowest
** group, then thread) at its instruction. */
static visa_status launch_groups(launch *L, diag_sink *ds, visa_run_stats *stats) {
    const emu_program *prog = L->prog;
    pthread_mutex_init(&L->lock, NULL);
    unsigned nt = L->host_threads;
    if (prog->global_atomics || L->chk) nt = 1; /* see emu_program.global_atomics; checks: check.c */
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
    if (L->oom) return VISA_E_NOMEM;
    if (L->fault_group == UINT64_MAX) return VISA_OK;
    report_fault(L, ds);
    return VISA_E_RUNTIME;
}

/* The addresses the caller gives the module's external faddr names (program-scope data, printf's
** strings); a name it does not give keeps the external-symbol address. */
static visa_status launch_symbols(visa_ctx *ctx, launch *L) {
    const emu_program *p = L->prog;
    const visa_run_opts *o = L->opts;
    if (!p->extern_syms || !o->symbols || !o->nsymbols) return VISA_OK;
    L->symbols = vx_alloc(ctx, sizeof *L->symbols * p->extern_syms);
    if (!L->symbols) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < p->extern_syms; i++) L->symbols[i] = EMU_EXTERNAL_SYMBOL_ADDRESS;
    for (size_t i = 0; i < p->ops.len; i++) {
        const emu_op *op = &p->ops.data[i];
        if (op->form != VISA_FORM_FADDR || op->info || op->imm <= 0 || (uint32_t)op->imm > p->extern_syms) continue;
        for (size_t s = 0; s < o->nsymbols; s++)
            if (o->symbols[s].name && !strcmp(o->symbols[s].name, (const char *)op->aux))
                L->symbols[op->imm - 1] = o->symbols[s].address;
    }
    return VISA_OK;
}

/* Everything of one launch but its groups: shape, arguments, buffers, limits, observer, checks. */
static visa_status launch_setup(visa_ctx *ctx, launch *L, diag_sink *ds, const visa_arg *args, size_t nargs,
                                visa_buffer *bufs, size_t nbufs) {
    const emu_program *prog = L->prog;
    const ir_routine *r = prog->r;
    const visa_run_opts *opts = L->opts;
    emu_abi_of(r, opts->platform, opts->per_thread_size, &L->abi);
    if (!launch_shape(ds, r, opts, L) || !bind_args(ds, r, &L->abi, opts, args, nargs, nbufs, L->bound))
        return VISA_E_ARG;
    L->args = args;
    L->nargs = nargs;
    visa_status st = launch_buffers(ctx, L, bufs, nbufs);
    if (st == VISA_OK) st = launch_symbols(ctx, L);
    if (st != VISA_OK) return st;
    if (!launch_limits(ds, r, opts, L)) return VISA_E_ARG;
    L->cr0 = opts->set_cr0 ? opts->cr0 : EMU_CR0_FAST;
    L->fault_group = UINT64_MAX;
    st = emu_observe_prepare(prog, opts->observer, L->groups, &L->obs);
    if (st != VISA_OK) return st;
    st = emu_check_prepare(prog, opts->checks, ds, L->bufs, nbufs, opts->undef_buffers, opts->buffer_access, &L->chk);
    emu_check_set_items(L->chk, &L->work_items);
    return st;
}

visa_status visa_kernel_run(const visa_kernel *k, const visa_run_opts *opts_in, const visa_arg *args, size_t nargs,
                            visa_buffer *bufs, size_t nbufs, visa_run_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
    visa_run_opts opts;
    if (!k || !opts_in || visa__run_opts_read(opts_in, &opts) != VISA_OK || (nargs && !args) || (nbufs && !bufs))
        return VISA_E_ARG;
    opts.platform = k->plat; /* the prepared kernel's, whatever the caller's options say */
    const emu_program *prog = &k->prog;
    visa_ctx *ctx = prog->ctx;
    diag_sink ds;
    diag_init(&ds, ctx, prog->m->name ? prog->m->name : "<module>", NULL, 0);
    emu_prepared_note_launch(k);
    launch *L = vx_alloc(ctx, sizeof *L);
    size_t bound_bytes = sizeof(const visa_arg *) * (prog->r->inputs.len ? prog->r->inputs.len : 1);
    const visa_arg **bound = vx_alloc(ctx, bound_bytes);
    visa_status st = L && bound ? VISA_OK : VISA_E_NOMEM;
    if (st == VISA_OK) {
        memset(L, 0, sizeof *L);
        memset(bound, 0, bound_bytes);
        L->prog = prog;
        L->opts = &opts;
        L->bound = bound;
        st = launch_setup(ctx, L, &ds, args, nargs, bufs, nbufs);
        if (st == VISA_OK) st = launch_groups(L, &ds, stats);
        launch_buffers_free(ctx, L);
        if (L->symbols) vx_free(ctx, L->symbols, sizeof *L->symbols * prog->extern_syms);
        if (emu_check_finish(L->chk) && st == VISA_OK) st = VISA_E_RUNTIME; /* findings were reported */
        emu_observe_free(prog, L->obs);
    }
    vx_free(ctx, bound, bound_bytes);
    vx_free(ctx, L, sizeof *L);
    if (st == VISA_E_NOMEM) diag_oom(&ds);
    return st;
}

visa_status visa_module_run(const visa_module *m, const visa_run_opts *opts_in, const visa_arg *args, size_t nargs,
                            visa_buffer *bufs, size_t nbufs, visa_run_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
    visa_run_opts opts;
    if (!m || !opts_in || visa__run_opts_read(opts_in, &opts) != VISA_OK) return VISA_E_ARG;
    if ((unsigned)opts.platform >= VISA_PLATFORM__COUNT || (nargs && !args) || (nbufs && !bufs)) return VISA_E_ARG;
    const visa_kernel *k;
    visa_status st = visa_kernel_prepare(m, opts.kernel, opts.platform, &k);
    return st == VISA_OK ? visa_kernel_run(k, opts_in, args, nargs, bufs, nbufs, stats) : st;
}
