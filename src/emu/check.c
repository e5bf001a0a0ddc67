/* check.c -- run checks (visa_run_opts.checks, docs/observe.md "Run checks").
**
** A checked run goes through observe.c's loop (chosen per scheduling slice, like an observer):
** the plain loop never tests for checks.  Hooks:
**   * emu_check_before / emu_check_after around each instruction: address registers and
**     indirect operands (memcheck);
**   * emu_check_mem for each memory access, before it happens (probe.h's emu_observe_mem):
**     bounds (memcheck) and the per-byte shadow of SLM and global memory (racecheck);
**   * emu_check_align from the LSC handlers (atomics: the data size; block loads and stores:
**     min(data size, 4); the per-lane form has no rule, see below);
**   * emu_check_barrier_report from sync.c (probe.h's emu_check_barrier) (racecheck's happens-before);
**   * emu_check_fault / emu_check_deadlock from the group scheduler (synccheck; memcheck for
**     the legacy data-port alignment faults).
**
** Findings are error diagnostics with a C-<CHECK>-<RULE> code at the instruction's position.
** Groups run one after another on one host thread while checking (launch.c), so the findings
** come in a fixed order and the global shadow needs no lock.
**
** memcheck.  An access outside its buffer, surface or SLM is reported and then reads zeros and
** drops its writes (launch.c's getters hand out emu_mem.oob_sink instead of faulting), as the
** hardware does for stateful surfaces; every such access is reported, lane by lane.  An LSC
** atomic address not aligned to its data size, or a block (transposed) address not aligned to
** min(data size, 4), is reported and the access goes on at that address.  The per-lane form
** takes any byte address: IGC 1.0.12504 itself loads and stores a packed struct's int fields
** (LLVM align 1) with per-lane d32 messages on ugm and slm (and gather_scaled.4 / scatter_scaled.4
** before LSC), while for a uniform one it avoids the block form.  A
** legacy data-port alignment violation (per message: dword / oword / block size) is reported and
** ends the group (the emulator cannot say what the hardware would read).  An address register
** read before any instruction of the thread set it, and an indirect operand whose bytes leave the
** variable the address register pointed into when it was set (the kernel's non-alias variables;
** an address pointing into none is not judged), are reported.
**
** racecheck.  Each thread has a vector clock per memory (SLM, global) over its group's threads;
** its own entry counts the barrier signals it made that order that memory: those the thread's
** fences since its previous barrier cover (all memory when no fence precedes).  A producer's
** signal joins its clocks into the barrier's; a consumer that passes its wait joins the completed
** phase's clocks into its own.  Each SLM byte (per group) and global byte (per buffer, for the
** whole run) remembers its last write, its last read and the last read of an earlier group:
** group, thread, work-items, the thread's own clock then, the instruction.  Two accesses conflict
** when one writes and they are not both atomic; they race unless they are the same work-item's or
** in the same group with the earlier one's clock entry covered by the later thread's clock (a
** barrier between them).  Across groups any conflict is a race.  Two plain writes of equal bytes
** are no race (Oclgrind's uniform writes).  Only the last read per group is remembered, so a race
** with an earlier reader can go unreported (never the reverse).  Each pair of instructions is
** reported once.
**
** initcheck: see the section below (init_*).
**
** synccheck.  The named-barrier faults of sync.c (counts that disagree with the phase's, more
** signals than producers and consumers) and a group in which no thread can make progress become
** findings: C-SYNCCHECK-EXIT when some threads of the group ended while others wait at a barrier,
** C-SYNCCHECK-DEADLOCK otherwise, listing every thread's position.  The group stops there; the run
** goes on with the next group.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "probe.h"
#include "mem.h"
#include "access.h"
#include "exec.h"

#define CHECK_LIMIT 100 /* findings reported (or the context's max_errors if lower); the rest are counted */
#define OOB_SINK_BYTES 4096u /* the largest single access of any message (a 2D block row, a block) */
#define SHADOW_PAGE 4096u /* global shadow: bytes per page */
#define EMU_POS_BYTES 320 /* op_pos: a vISA line and a source file path */

/* racecheck's memory spaces: SLM, and global memory (buffers, surfaces).  A barrier orders those
** the fences its thread made since its previous barrier cover (RACE_FENCED_*). */
enum { RACE_SLM, RACE_GLOBAL, RACE_SPACES };
#define RACE_FENCED_SLM (1u << RACE_SLM)
#define RACE_FENCED_GLOBAL (1u << RACE_GLOBAL)

/* The last write or read of one byte (racecheck). */
typedef struct race_acc {
    uint32_t group; /* linear group index + 1; 0: none */
    uint32_t clock; /* the thread's own clock entry of the space then */
    uint32_t op; /* instruction index */
    /* an OpenCL kernel's work-items (lanes of the thread, emu_check_run.lanes_are_items) on whose
    ** behalf the access was made: one lane's, or a NoMask op's (all the thread's enabled work-items:
    ** IGC's scalarised uniform loads, stores and atomics); 0: no one's (a block message's element) */
    uint32_t items;
    uint16_t thread;
    uint8_t atomic;
    uint8_t lane; /* the first of items (the finding names it) */
} race_acc;
/* w: the last plain write, or atomic when no plain write is unordered with it; r: the last read;
** rx: the last read of a group before r's (any conflict across groups is a race, so a read of an
** earlier group must not be forgotten when a later group reads). */
typedef struct race_cell {
    race_acc w, r, rx;
} race_cell;

/* A plain write that conflicts with another plain write: a race unless both store the same bytes
** (Oclgrind's uniform writes), which the message's transfer hook tells (emu_check_xfer_report). */
#define RACE_PENDING_BYTES 64u /* the widest plain write deferred so (a larger one is reported) */
typedef struct race_pending {
    bool on, compared, differs;
    unsigned space, kind, lane;
    uint32_t buf;
    uint64_t off;
    race_acc prev;
    const uint8_t *host; /* the write's memory: n bytes, which held `old` before it */
    uint32_t n;
    uint8_t old[RACE_PENDING_BYTES];
} race_pending;

typedef struct var_range {
    uint32_t lo, hi;
    uint32_t id; /* the variable's id (initcheck names it) */
} var_range;

/* initcheck's shadow of one byte (register, SLM or global) or predicate bit: 0 defined;
** INIT_RAW undefined and not yet read by any instruction; else undefined, first read undefined by
** op (value - 1), the origin a finding names. */
#define INIT_RAW UINT32_MAX
/* What initcheck does around an op (emu_check_run.iclass). */
enum { IC_NONE, IC_ALU, IC_BRANCH, IC_OTHER };

struct emu_check_run {
    const emu_program *p;
    uint32_t checks;
    diag_sink *ds;
    uint64_t found;
    uint64_t limit; /* CHECK_LIMIT or the context's max_errors */
    size_t *buf_size; /* the caller's buffers' sizes (the emulator's scratch buffers are not checked) */
    uint8_t *access; /* NULL or the caller's buffers' visa_buffer_access (memcheck) */
    size_t nbufs;
    race_cell ***gshadow; /* per buffer, pages of SHADOW_PAGE cells allocated at their first access */
    uint64_t *pairs; /* reported race pairs (op << 32 | other op), a small set */
    size_t npairs, cap_pairs;
    var_range *vars; /* the kernel's non-alias variables */
    size_t nvars;
    bool oom;
    /* initcheck */
    uint32_t **ginit; /* per caller's buffer: a shadow word per byte */
    uint8_t *iclass; /* per op: IC_* */
    uint32_t npred; /* predicate ids per thread (launch.c's n_pred) */
    /* An OpenCL kernel's lanes are its work-items (Target="3d"): two lanes of one thread are two
    ** work-items, unordered unless a barrier lies between them, although the hardware runs them
    ** in lockstep (the OpenCL memory model, which another SIMD width or device would expose). */
    bool lanes_are_items;
    emu_items items; /* how findings name work-items (emu_check_set_items) */
    uint8_t *fence_of; /* per op: RACE_FENCED_* a fence covers (racecheck) */
};

struct emu_check_group {
    emu_check_run *run;
    uint64_t gi;
    uint32_t group[3];
    emu_thread *threads;
    uint32_t n;
    uint32_t naddr; /* address slots per thread */
    uint8_t *addr_set; /* n x naddr: the slot was written */
    var_range *addr_var; /* n x naddr: the variable it pointed into when written */
    /* per space (RACE_*): n x n vector clocks; 32 x n per barrier: the current phase's, the
    ** completed one's */
    uint32_t *vc[RACE_SPACES], *bar_acc[RACE_SPACES], *bar_done[RACE_SPACES];
    uint8_t *fenced; /* per thread: RACE_FENCED_* of its fences since its last barrier */
    race_pending pending;
    race_cell *slm;
    uint32_t slm_bytes;
    /* initcheck: shadows of each thread's register file and predicates, of the group's SLM */
    uint32_t *ireg, *ipred, *islm;
    uint32_t file_bytes, islm_bytes;
    uint8_t *snap; /* the file before an IC_OTHER op */
    uint32_t lane_org[EMU_MAX_LANES]; /* the current op's per-lane origin of undefined sources */
    /* a plain mov copies bytes: the current op's source bytes' origins per lane, when bytewise */
    uint32_t lane_bytes[EMU_MAX_LANES][8];
    bool bytewise;
    uint32_t enabled; /* its channel enables before it ran */
    bool hooked; /* a message handler reported its transfers (emu_check_xfer) */
    uint8_t sink[OOB_SINK_BYTES];
};

/* -- Findings ------------------------------------------------------------------------------------ */

/* Finding d (a C-* row of diags.def) at instruction pc, and at its source position when it has
** one: finding(R, EDIAG_C_X, pc, args...). */
static void finding_report(emu_check_run *R, emu_diag_id d, const char *fmt, uint32_t pc, ...)
    __attribute__((format(printf, 3, 5)));
static void finding_report(emu_check_run *R, emu_diag_id d, const char *fmt, uint32_t pc, ...) {
    if (++R->found > R->limit) return;
    const emu_op *op = pc < R->p->ops.len ? &R->p->ops.data[pc] : NULL;
    const char *src_file;
    uint32_t src_line = emu_src_of(R->p, pc, &src_file);
    va_list ap;
    va_start(ap, pc);
    emu_diag_vreport_src(R->ds, d, op ? op->line : 0, op ? op->col : 0, src_file, src_line, fmt, ap);
    va_end(ap);
}
#define finding(R, d, ...) finding_report(R, d, d##_FMT, __VA_ARGS__)

static uint32_t cur_pc(const emu_thread *t) { return t->obs->pc; }

size_t emu_work_item(const emu_items *it, const uint32_t group[3], uint32_t thread, uint32_t lane, char *out,
                     size_t cap) {
    *out = 0;
    if (!it || !it->opencl || lane == EMU_NO_LANE) return 0;
    uint32_t l[3];
    uint64_t gl[3];
    emu_local_id(it, thread, lane, l);
    for (int k = 0; k < 3; k++) gl[k] = (uint64_t)group[k] * it->enqueued[k] + l[k] + it->global_offset[k];
    int n = snprintf(out, cap, "work-item (%llu,%llu,%llu) local (%u,%u,%u), ", (unsigned long long)gl[0],
                     (unsigned long long)gl[1], (unsigned long long)gl[2], l[0], l[1], l[2]);
    if (n < 0 || (size_t)n >= cap) return *out = 0, 0;
    return (size_t)n;
}

void emu_check_set_items(emu_check_run *R, const emu_items *items) {
    if (R && items) R->items = *items;
}

/* "work-item (8,0,0) local (8,0,0), group 0 (0,0,0), thread 0": the thread of group g, and its
** lane's work-item (emu_work_item; lane EMU_NO_LANE: the thread only). */
static void who(const emu_check_group *g, uint32_t thread, uint32_t lane, char *out, size_t cap) {
    size_t n = emu_work_item(&g->run->items, g->group, thread, lane, out, cap);
    snprintf(out + n, cap - n, "group %llu (%u,%u,%u), thread %u", (unsigned long long)g->gi, g->group[0], g->group[1],
             g->group[2], thread);
}

/* "line 105:5" (and " (/tmp/oob.cl:4)" when the op has a source position), or "instruction N" */
static void op_pos(const emu_check_run *R, uint32_t op, char *out, size_t cap) {
    const emu_op *o = op < R->p->ops.len ? &R->p->ops.data[op] : NULL;
    const char *src_file;
    uint32_t src_line = emu_src_of(R->p, op, &src_file);
    int n = o && o->line ? snprintf(out, cap, "line %u:%u", o->line, o->col) : snprintf(out, cap, "instruction %u", op);
    if (!src_line || n < 0 || (size_t)n >= cap) return;
    if (src_file) snprintf(out + n, cap - (size_t)n, " (%s:%u)", src_file, src_line);
    else snprintf(out + n, cap - (size_t)n, " (source line %u)", src_line);
}

/* -- Setup --------------------------------------------------------------------------------------- */

static int range_cmp(const void *a, const void *b) {
    const var_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static bool init_prepare(emu_check_run *R, const visa_buffer *bufs, const uint8_t *undef);

/* The memory each fence op orders (racecheck): fence_local SLM, fence_global global memory (a
** software-only fence nothing); lsc_fence its shared function's (slm, or ugm / ugml / tgm). */
static bool race_prepare(emu_check_run *R) {
    const emu_program *p = R->p;
    R->fence_of = vx_alloc(p->ctx, p->ops.len ? p->ops.len : 1);
    if (!R->fence_of) return false;
    memset(R->fence_of, 0, p->ops.len ? p->ops.len : 1);
    for (uint32_t i = 0; i < p->ops.len; i++) {
        const ir_inst *in = p->origin.data[i].in;
        if (!in || !in->nopnd) continue;
        unsigned v = (unsigned)in->opnd[0].u.num;
        if (in->form == VISA_FORM_FENCE && !(v & 0x80))
            R->fence_of[i] = v & 0x20 ? RACE_FENCED_SLM : RACE_FENCED_GLOBAL;
        else if (in->form == VISA_FORM_LSC_FENCE)
            R->fence_of[i] = v == VISA_LSC_SFID_SLM ? RACE_FENCED_SLM : RACE_FENCED_GLOBAL;
    }
    return true;
}

visa_status emu_check_prepare(const emu_program *p, uint32_t checks, diag_sink *ds, const visa_buffer *bufs,
                              size_t nbufs, const uint8_t *undef, const uint8_t *access, emu_check_run **out) {
    *out = NULL;
    checks &= VISA_CHECK_ALL;
    if (!checks) return VISA_OK;
    emu_check_run *R = vx_alloc(p->ctx, sizeof *R);
    if (!R) return VISA_E_NOMEM;
    memset(R, 0, sizeof *R);
    R->p = p;
    R->checks = checks;
    R->lanes_are_items = ir_attr_u32(p->r, "Target", 0) == 1;
    R->ds = ds;
    R->limit = p->ctx->max_errors && p->ctx->max_errors < CHECK_LIMIT ? p->ctx->max_errors : CHECK_LIMIT;
    R->nbufs = nbufs; /* past them: zeroed stand-ins for IGC's printf / assert buffers */
    if (R->nbufs) {
        R->gshadow = vx_alloc(p->ctx, sizeof(race_cell **) * R->nbufs);
        R->buf_size = vx_alloc(p->ctx, sizeof(size_t) * R->nbufs);
        if (!R->gshadow || !R->buf_size) goto oom;
        memset(R->gshadow, 0, sizeof(race_cell **) * R->nbufs);
        for (size_t i = 0; i < R->nbufs; i++) R->buf_size[i] = bufs[i].size;
        if (access && (checks & VISA_CHECK_MEMCHECK)) {
            if (!(R->access = vx_alloc(p->ctx, R->nbufs))) goto oom;
            memcpy(R->access, access, R->nbufs);
        }
    }
    const ir_routine *r = p->r;
    if (r->vars.len) {
        R->vars = vx_alloc(p->ctx, sizeof(var_range) * r->vars.len);
        if (!R->vars) goto oom;
        for (uint32_t k = 0; k < r->vars.len; k++) {
            const ir_var *v = &r->vars.data[k];
            uint32_t id = ISA_NUM_PREDEF_VARS + k;
            if (v->has_alias || id >= p->lay.nvars) continue;
            uint32_t lo = p->lay.var_off[id];
            R->vars[R->nvars++] = (var_range){lo, lo + (uint32_t)v->num_elts * isa_types[v->type].bytes, id};
        }
        qsort(R->vars, R->nvars, sizeof *R->vars, range_cmp);
    }
    if ((checks & VISA_CHECK_RACECHECK) && !race_prepare(R)) goto oom;
    if ((checks & VISA_CHECK_INITCHECK) && !init_prepare(R, bufs, undef)) goto oom;
    *out = R;
    return VISA_OK;
oom:
    emu_check_finish(R);
    return VISA_E_NOMEM;
}

static size_t npages(size_t bytes) { return (bytes + SHADOW_PAGE - 1) / SHADOW_PAGE; }

bool emu_check_finish(emu_check_run *R) {
    if (!R) return false;
    visa_ctx *ctx = R->p->ctx;
    if (R->found > R->limit)
        emu_diag_offset(R->ds, EDIAG_C_MORE, VISA_DIAG_NO_OFFSET, (unsigned long long)(R->found - R->limit));
    bool found = R->found > 0;
    for (size_t i = 0; R->gshadow && i < R->nbufs; i++) {
        if (!R->gshadow[i]) continue;
        size_t np = npages(R->buf_size[i]);
        for (size_t k = 0; k < np; k++)
            if (R->gshadow[i][k]) vx_free(ctx, R->gshadow[i][k], sizeof(race_cell) * SHADOW_PAGE);
        vx_free(ctx, R->gshadow[i], sizeof(race_cell *) * np);
    }
    if (R->gshadow) vx_free(ctx, R->gshadow, sizeof(race_cell **) * R->nbufs);
    for (size_t i = 0; R->ginit && i < R->nbufs; i++)
        if (R->ginit[i]) vx_free(ctx, R->ginit[i], sizeof(uint32_t) * R->buf_size[i]);
    if (R->ginit) vx_free(ctx, R->ginit, sizeof(uint32_t *) * R->nbufs);
    if (R->iclass) vx_free(ctx, R->iclass, R->p->ops.len);
    if (R->fence_of) vx_free(ctx, R->fence_of, R->p->ops.len ? R->p->ops.len : 1);
    if (R->buf_size) vx_free(ctx, R->buf_size, sizeof(size_t) * R->nbufs);
    if (R->access) vx_free(ctx, R->access, R->nbufs);
    if (R->vars) vx_free(ctx, R->vars, sizeof(var_range) * R->p->r->vars.len);
    if (R->pairs) vx_free(ctx, R->pairs, sizeof(uint64_t) * R->cap_pairs);
    vx_free(ctx, R, sizeof *R);
    return found;
}

static void group_free(emu_check_group *g) {
    visa_ctx *ctx = g->run->p->ctx;
    size_t n = g->n, na = g->naddr;
    if (g->addr_set) vx_free(ctx, g->addr_set, n * na);
    if (g->addr_var) vx_free(ctx, g->addr_var, sizeof(var_range) * n * na);
    for (unsigned s = 0; s < RACE_SPACES; s++) {
        if (g->vc[s]) vx_free(ctx, g->vc[s], sizeof(uint32_t) * n * n);
        if (g->bar_acc[s]) vx_free(ctx, g->bar_acc[s], sizeof(uint32_t) * 32 * n);
        if (g->bar_done[s]) vx_free(ctx, g->bar_done[s], sizeof(uint32_t) * 32 * n);
    }
    if (g->fenced) vx_free(ctx, g->fenced, n);
    if (g->slm) vx_free(ctx, g->slm, sizeof(race_cell) * g->slm_bytes);
    if (g->ireg) vx_free(ctx, g->ireg, sizeof(uint32_t) * n * g->file_bytes);
    if (g->ipred) vx_free(ctx, g->ipred, sizeof(uint32_t) * n * g->run->npred * 32);
    if (g->islm) vx_free(ctx, g->islm, sizeof(uint32_t) * g->islm_bytes);
    if (g->snap) vx_free(ctx, g->snap, g->file_bytes);
    vx_free(ctx, g, sizeof *g);
}

static bool init_group(emu_check_group *g, uint32_t slm_bytes);

/* racecheck's state of a group: each thread's clocks start at 1 for itself, 0 for the others. */
static bool race_group(emu_check_group *g, uint32_t slm_bytes) {
    visa_ctx *ctx = g->run->p->ctx;
    size_t n = g->n;
    bool ok = (g->fenced = vx_alloc(ctx, n)) != NULL;
    for (unsigned s = 0; ok && s < RACE_SPACES; s++) {
        g->vc[s] = vx_alloc(ctx, sizeof(uint32_t) * n * n);
        g->bar_acc[s] = vx_alloc(ctx, sizeof(uint32_t) * 32 * n);
        g->bar_done[s] = vx_alloc(ctx, sizeof(uint32_t) * 32 * n);
        ok = g->vc[s] && g->bar_acc[s] && g->bar_done[s];
        if (!ok) break;
        memset(g->vc[s], 0, sizeof(uint32_t) * n * n);
        for (size_t i = 0; i < n; i++) g->vc[s][i * n + i] = 1;
        memset(g->bar_acc[s], 0, sizeof(uint32_t) * 32 * n);
        memset(g->bar_done[s], 0, sizeof(uint32_t) * 32 * n);
    }
    g->slm_bytes = slm_bytes;
    g->slm = ok && slm_bytes ? vx_alloc(ctx, sizeof(race_cell) * slm_bytes) : NULL;
    if (!ok || (slm_bytes && !g->slm)) return false;
    memset(g->fenced, 0, n);
    if (g->slm) memset(g->slm, 0, sizeof(race_cell) * slm_bytes);
    return true;
}

bool emu_check_group_begin(emu_check_run *R, emu_check_group **out, uint64_t gi, const uint32_t group[3],
                           emu_thread *threads, uint32_t n, uint32_t slm_bytes) {
    *out = NULL;
    if (!R) return true;
    visa_ctx *ctx = R->p->ctx;
    emu_check_group *g = vx_alloc(ctx, sizeof *g);
    if (!g) return false;
    memset(g, 0, sizeof *g);
    g->run = R;
    g->gi = gi;
    memcpy(g->group, group, sizeof g->group);
    g->threads = threads;
    g->n = n;
    g->naddr = R->p->lay.naddr_slots + 1;
    size_t na = (size_t)n * g->naddr;
    bool ok = true;
    if (R->checks & VISA_CHECK_MEMCHECK) {
        g->addr_set = vx_alloc(ctx, na);
        g->addr_var = vx_alloc(ctx, sizeof(var_range) * na);
        ok = g->addr_set && g->addr_var;
        if (ok) {
            memset(g->addr_set, 0, na);
            memset(g->addr_var, 0, sizeof(var_range) * na);
        }
    }
    if (ok && (R->checks & VISA_CHECK_RACECHECK)) ok = race_group(g, slm_bytes);
    if (ok && (R->checks & VISA_CHECK_INITCHECK)) ok = init_group(g, slm_bytes);
    if (!ok) {
        group_free(g);
        return false;
    }
    if (R->checks & VISA_CHECK_MEMCHECK)
        for (uint32_t i = 0; i < n; i++) {
            threads[i].mem->oob_sink = g->sink;
            threads[i].mem->oob_sink_bytes = OOB_SINK_BYTES;
        }
    *out = g;
    return true;
}

void emu_check_group_end(emu_check_group *g) {
    if (g) group_free(g);
}

static void set_defined(uint32_t *sh, uint32_t size, uint32_t off, uint32_t n) {
    if (off < size) memset(sh + off, 0, sizeof(uint32_t) * (n < size - off ? n : size - off));
}

/* -- memcheck: address registers and indirect operands -------------------------------------------- */

static void addr_name(const emu_program *p, uint32_t slot, char *out, size_t cap) {
    const ir_routine *r = p->r;
    for (uint32_t i = 0; i < r->addrs.len && i < p->lay.naddrs; i++) {
        uint32_t b = p->lay.addr_base[i];
        if (slot >= b && slot < b + r->addrs.data[i].num_elts) {
            snprintf(out, cap, "%s(%u)", ir_str(r, r->addrs.data[i].name), slot - b);
            return;
        }
    }
    snprintf(out, cap, "address slot %u", slot);
}

static var_range var_at(const emu_check_run *R, uint32_t byte) {
    size_t lo = 0, hi = R->nvars;
    while (lo < hi) { /* the last range starting at or below byte */
        size_t mid = (lo + hi) / 2;
        if (R->vars[mid].lo <= byte) lo = mid + 1;
        else hi = mid;
    }
    if (lo && byte < R->vars[lo - 1].hi) return R->vars[lo - 1];
    return (var_range){0, 0, 0};
}

static bool addr_slot_ok(emu_thread *t, const emu_check_group *g, uint32_t slot) {
    if (slot >= g->naddr) return true;
    if (g->addr_set[(size_t)t->index * g->naddr + slot]) return true;
    char name[64], w[EMU_WHO_BYTES];
    addr_name(t->prog, slot, name, sizeof name);
    who(g, t->index, EMU_NO_LANE, w, sizeof w);
    finding(g->run, EDIAG_C_MEMCHECK_ADDR_UNSET, cur_pc(t), name, w);
    g->addr_set[(size_t)t->index * g->naddr + slot] = 1; /* once per slot */
    return false;
}

static void check_indirect(emu_thread *t, emu_check_group *g, const emu_op *op, const emu_opnd *o, uint32_t lanes,
                           bool dst) {
    for (unsigned i = 0; i < op->exec; i++) {
        if (!(lanes >> i & 1)) continue;
        uint32_t slot = o->shape == EO_VXH ? o->off + i / o->w : o->off;
        if (!addr_slot_ok(t, g, slot) || slot >= g->naddr) return;
        var_range v = g->addr_var[(size_t)t->index * g->naddr + slot];
        if (v.hi == v.lo) continue; /* it pointed into no variable we know */
        uint32_t b = emu_region_byte(t, o, i);
        if (b != UINT32_MAX && b >= v.lo && b + o->size <= v.hi) continue;
        char name[64], w[EMU_WHO_BYTES], where[112];
        addr_name(t->prog, slot, name, sizeof name);
        who(g, t->index, i, w, sizeof w);
        if (b == UINT32_MAX) snprintf(where, sizeof where, "leaves the register file");
        else
            snprintf(where, sizeof where,
                     "reaches register bytes %u..%u, outside the variable it points into (bytes %u..%u)", b,
                     b + o->size - 1, v.lo, v.hi - 1);
        finding(g->run, EDIAG_C_MEMCHECK_INDIRECT, cur_pc(t), dst ? "destination" : "source", name, where, w, i);
        return; /* one finding per operand */
    }
}

static void check_opnd(emu_thread *t, emu_check_group *g, const emu_op *op, const emu_opnd *o, uint32_t lanes,
                       bool dst) {
    switch (o->shape) {
    case EO_ADDR:
        if (dst) return;
        for (unsigned i = 0; i < (o->hs ? op->exec : 1u); i++)
            if (!addr_slot_ok(t, g, o->off + i * o->hs)) return;
        return;
    case EO_INDIRECT:
    case EO_VXH: check_indirect(t, g, op, o, lanes, dst); return;
    default: return;
    }
}

static void init_before(emu_thread *t, emu_check_group *g, const emu_op *op);
static void init_after(emu_thread *t, emu_check_group *g, const emu_op *op);

static void race_pending_flush(emu_thread *t, emu_check_group *g);

void emu_check_before(emu_thread *t, const emu_op *op) {
    emu_check_group *g = t->obs->chk;
    if (t->blocked_at == t->pc + 1) return;
    if (g->fenced) g->fenced[t->index] |= g->run->fence_of[t->pc];
    if (g->ireg) init_before(t, g, op);
    if (!(g->run->checks & VISA_CHECK_MEMCHECK)) return;
    uint32_t lanes = emu_chen(t, op);
    check_opnd(t, g, op, &op->dst, lanes, true);
    for (unsigned k = 0; k < 5; k++) check_opnd(t, g, op, &op->src[k], lanes, false);
}

void emu_check_after(emu_thread *t, const emu_op *op) {
    emu_check_group *g = t->obs->chk;
    race_pending_flush(t, g);
    if (g->ireg && !t->fault && !t->blocked) init_after(t, g, op);
    if (!(g->run->checks & VISA_CHECK_MEMCHECK) || op->dst.shape != EO_ADDR || t->fault || t->blocked) return;
    for (unsigned i = 0; i < op->exec; i++) {
        uint32_t slot = op->dst.off + i * (op->dst.hs ? op->dst.hs : 1);
        if (slot >= g->naddr) break;
        size_t k = (size_t)t->index * g->naddr + slot;
        g->addr_set[k] = 1;
        g->addr_var[k] = var_at(g->run, t->addr[slot]);
    }
}

/* -- memcheck: memory accesses ------------------------------------------------------------------- */

static const char *kind_word(unsigned kind) {
    return kind == VISA_MEM_WRITE ? "store" : kind == VISA_MEM_ATOMIC ? "atomic" : "load";
}

static void report_oob(emu_thread *t, emu_check_group *g, unsigned space, uint32_t buf, uint64_t addr, uint64_t off,
                       uint64_t limit, uint32_t size, unsigned lane, unsigned kind) {
    char w[EMU_WHO_BYTES], where[160];
    who(g, t->index, lane, w, sizeof w);
    if (space == VISA_MEM_SLM)
        snprintf(where, sizeof where, "SLM offset 0x%llx (SLM is %llu bytes)", (unsigned long long)off,
                 (unsigned long long)limit);
    else if (buf == UINT32_MAX && space == VISA_MEM_GLOBAL)
        snprintf(where, sizeof where, "address 0x%llx, which lies in no buffer", (unsigned long long)addr);
    else if (buf == UINT32_MAX)
        snprintf(where, sizeof where, "offset 0x%llx of a surface bound to no buffer", (unsigned long long)off);
    else
        snprintf(where, sizeof where, "%s0x%llx: offset %llu of buffer %u (%llu bytes)",
                 space == VISA_MEM_GLOBAL ? "address " : "surface offset ", (unsigned long long)addr,
                 (unsigned long long)off, buf, (unsigned long long)limit);
    finding(g->run, EDIAG_C_MEMCHECK_OOB, cur_pc(t), kind_word(kind), size, where, w, lane);
}

/* -- racecheck ----------------------------------------------------------------------------------- */

static race_cell *global_cell(emu_check_run *R, uint32_t buf, uint64_t off);

static bool pair_new(emu_check_run *R, uint32_t a, uint32_t b) {
    uint64_t key = (uint64_t)a << 32 | b;
    for (size_t i = 0; i < R->npairs; i++)
        if (R->pairs[i] == key) return false;
    if (R->npairs == R->cap_pairs) {
        size_t cap = R->cap_pairs ? R->cap_pairs * 2 : 64;
        uint64_t *np = vx_alloc(R->p->ctx, sizeof(uint64_t) * cap);
        if (!np) return true;
        if (R->pairs) {
            memcpy(np, R->pairs, sizeof(uint64_t) * R->npairs);
            vx_free(R->p->ctx, R->pairs, sizeof(uint64_t) * R->cap_pairs);
        }
        R->pairs = np;
        R->cap_pairs = cap;
    }
    R->pairs[R->npairs++] = key;
    return true;
}

static unsigned race_space(unsigned space) { return space == VISA_MEM_SLM ? RACE_SLM : RACE_GLOBAL; }

/* Does `prev` happen before the current access `me` of thread t in group g, in memory space s?  A
** thread's own earlier accesses do, except another work-item's (lane's) of an OpenCL kernel with no
** barrier ordering s between: the thread's own clock entry counts those barriers. */
static bool ordered(const emu_check_group *g, const emu_thread *t, unsigned s, const race_acc *me,
                    const race_acc *prev) {
    if (prev->group != g->gi + 1) return false;
    const uint32_t *vc = g->vc[s] + (size_t)t->index * g->n;
    if (prev->thread == t->index) {
        uint32_t both = prev->items | me->items;
        return !g->run->lanes_are_items || !prev->items || !me->items || !(both & (both - 1)) ||
               vc[t->index] > prev->clock;
    }
    return vc[prev->thread] >= prev->clock;
}

static void report_race(emu_thread *t, emu_check_group *g, unsigned space, uint64_t off, uint32_t buf, unsigned kind,
                        unsigned lane, const race_acc *prev, bool prev_write) {
    emu_check_run *R = g->run;
    uint32_t pc = cur_pc(t);
    if (!pair_new(R, pc, prev->op)) return;
    char w[EMU_WHO_BYTES], other[EMU_WHO_BYTES], pos[EMU_POS_BYTES], where[96], them[EMU_WHO_BYTES / 2] = "";
    who(g, t->index, lane, w, sizeof w);
    op_pos(R, prev->op, pos, sizeof pos);
    /* an OpenCL kernel's other work-item is a lane too */
    char item[24] = "";
    if (R->lanes_are_items && (prev->items & (prev->items - 1)))
        snprintf(item, sizeof item, ", lanes 0x%x", prev->items); /* a NoMask op's work-items */
    else if (R->lanes_are_items) snprintf(item, sizeof item, ", lane %u", prev->lane);
    /* the other work-item of this group by its ids (the group of another is not kept) */
    if (prev->group == g->gi + 1 && R->lanes_are_items && prev->items && !(prev->items & (prev->items - 1)))
        emu_work_item(&R->items, g->group, prev->thread, prev->lane, them, sizeof them);
    if (prev->group == g->gi + 1) snprintf(other, sizeof other, "%sthread %u%s", them, prev->thread, item);
    else snprintf(other, sizeof other, "group %u, thread %u%s", prev->group - 1, prev->thread, item);
    if (space == VISA_MEM_SLM) snprintf(where, sizeof where, "SLM byte 0x%llx", (unsigned long long)off);
    else snprintf(where, sizeof where, "byte %llu of buffer %u", (unsigned long long)off, buf);
    const char *mine = kind == VISA_MEM_READ ? "read" : kind == VISA_MEM_ATOMIC ? "atomic" : "write";
    const char *theirs = prev_write ? "write" : "read", *atomic = prev->atomic ? "atomic " : "";
    if (space == VISA_MEM_SLM) finding(R, EDIAG_C_RACECHECK_SLM, pc, mine, where, w, lane, atomic, theirs, other, pos);
    else finding(R, EDIAG_C_RACECHECK_GLOBAL, pc, mine, where, w, lane, atomic, theirs, other, pos);
}

/* The plain write-write conflict waiting for its data (race_pending), once the message is done: a
** race unless each byte its transfers wrote equals what the earlier write left there. */
static void race_pending_flush(emu_thread *t, emu_check_group *g) {
    race_pending *pd = &g->pending;
    if (!pd->on) return;
    pd->on = false;
    if (pd->differs || !pd->compared)
        report_race(t, g, pd->space, pd->off, pd->buf, pd->kind, pd->lane, &pd->prev, true);
}

/* A message stores register bytes reg..reg+n-1 at host memory mem: compare what falls inside the
** pending write with the bytes there before it. */
static void race_pending_xfer(emu_check_group *g, const uint8_t *reg, const uint8_t *mem, unsigned n) {
    race_pending *pd = &g->pending;
    if (!pd->on || !mem || mem + n <= pd->host || mem >= pd->host + pd->n) return;
    for (unsigned k = 0; k < n; k++) {
        const uint8_t *m = mem + k;
        if (m < pd->host || m >= pd->host + pd->n) continue;
        pd->compared = true;
        if (reg[k] != pd->old[m - pd->host]) pd->differs = true;
    }
}

/* Defer a plain write-write conflict of the access at host bytes host..host+n-1 to its data. */
static bool race_pending_set(emu_check_group *g, const uint8_t *host, uint32_t n, unsigned space, unsigned kind,
                             unsigned lane, uint32_t buf, uint64_t off, const race_acc *prev) {
    if (!host || n > RACE_PENDING_BYTES) return false;
    race_pending *pd = &g->pending;
    *pd = (race_pending){.on = true,
                         .space = space,
                         .kind = kind,
                         .lane = lane,
                         .buf = buf,
                         .off = off,
                         .prev = *prev,
                         .host = host,
                         .n = n};
    memcpy(pd->old, host, n);
    return true;
}

/* Two accesses conflict when one writes and they are not both atomic (OpenCL's data race). */
static bool conflicts(const race_acc *me, const race_acc *prev, bool prev_write, bool me_write) {
    return prev->group && (prev_write || me_write) && !(me->atomic && prev->atomic);
}

/* The access `me` of n bytes at `off` of `space` (buffer `buf`): each byte's conflicting unordered
** earlier access is a race, the first one found is reported. */
static void race_bytes(emu_thread *t, emu_check_group *g, const race_acc *me, uint64_t off, uint64_t n, unsigned space,
                       uint32_t buf, unsigned kind, unsigned lane, const uint8_t *host) {
    unsigned s = race_space(space);
    bool write = kind != VISA_MEM_READ, reported = false;
    for (uint64_t k = 0; k < n; k++) {
        race_cell *c = space == VISA_MEM_SLM ? &g->slm[off + k] : global_cell(g->run, buf, off + k);
        if (!c) return;
        const race_acc *rd[2] = {&c->r, &c->rx};
        for (unsigned i = 0; i < 2 && write && !reported; i++)
            if (conflicts(me, rd[i], false, true) && !ordered(g, t, s, me, rd[i])) {
                report_race(t, g, space, off + k, buf, kind, lane, rd[i], false);
                reported = true;
            }
        if (!reported && !g->pending.on && conflicts(me, &c->w, true, write) && !ordered(g, t, s, me, &c->w)) {
            if (!write || me->atomic || c->w.atomic ||
                !race_pending_set(g, host, (uint32_t)n, space, kind, lane, buf, off + k, &c->w))
                report_race(t, g, space, off + k, buf, kind, lane, &c->w, true);
            reported = true;
        }
        if (!write) {
            if (c->r.group && c->r.group != me->group) c->rx = c->r;
            c->r = *me;
            continue;
        }
        /* an atomic leaves a plain write it does not replace in place: later accesses of other
        ** work-items race with that write (Oclgrind keeps the plain access over atomic ones) */
        if (!(me->atomic && c->w.group && !c->w.atomic)) c->w = *me;
        if (!me->atomic) c->r.group = c->rx.group = 0;
    }
}

static void race_access(emu_thread *t, emu_check_group *g, uint64_t off, uint64_t n, unsigned space, uint32_t buf,
                        unsigned kind, unsigned lane, const uint8_t *host) {
    /* the work-item: the lane counted from the instruction's mask offset (a SIMD32 kernel's M5 half);
    ** a NoMask op's, all the thread's enabled work-items (IGC's scalarised uniform accesses); no
    ** one where the message's index is no dispatched lane (the elements of a block) */
    const emu_op *op = &t->prog->ops.data[cur_pc(t)];
    unsigned item = lane + op->mask_off;
    uint32_t items = item < 32 && (t->dispatch >> item & 1) ? 1u << item : 0;
    if (op->nomask && (t->em & t->dispatch)) items = t->em & t->dispatch;
    unsigned s = race_space(space);
    race_acc me = {(uint32_t)(g->gi + 1),
                   g->vc[s][(size_t)t->index * g->n + t->index],
                   cur_pc(t),
                   items,
                   (uint16_t)t->index,
                   kind == VISA_MEM_ATOMIC,
                   (uint8_t)(items ? (unsigned)__builtin_ctz(items) : lane)};
    race_bytes(t, g, &me, off, n, space, buf, kind, lane, host);
}

/* The shadow cell of byte `off` of buffer `buf`, NULL when it cannot be had (out of memory:
** racecheck of global memory stops there; nothing false is reported). */
static race_cell *global_cell(emu_check_run *R, uint32_t buf, uint64_t off) {
    if (buf >= R->nbufs || off >= R->buf_size[buf] || R->oom) return NULL;
    size_t np = npages(R->buf_size[buf]);
    if (!R->gshadow[buf]) {
        R->gshadow[buf] = vx_alloc(R->p->ctx, sizeof(race_cell *) * np);
        if (!R->gshadow[buf]) return R->oom = true, NULL;
        memset(R->gshadow[buf], 0, sizeof(race_cell *) * np);
    }
    race_cell **pg = &R->gshadow[buf][off / SHADOW_PAGE];
    if (!*pg) {
        *pg = vx_alloc(R->p->ctx, sizeof(race_cell) * SHADOW_PAGE);
        if (!*pg) return R->oom = true, NULL;
        memset(*pg, 0, sizeof(race_cell) * SHADOW_PAGE);
    }
    return &(*pg)[off % SHADOW_PAGE];
}

/* Once per instruction and rule: a loop storing the same undefined lanes is one finding. */
static bool init_first(emu_check_run *R, uint32_t pc, uint32_t rule) { return pair_new(R, pc, 0xFFFFFF00u | rule); }

/* memcheck: a store or atomic to a buffer the host made read-only; once per instruction and
** buffer.  A load from a write-only buffer is not judged: IGC itself reads write-only memory (a
** store to part of a vector becomes a load of the whole vector and a store of it back). */
static void check_access(emu_thread *t, emu_check_group *g, uint32_t buf, uint64_t off, uint32_t size, unsigned lane,
                         unsigned kind) {
    unsigned a = g->run->access[buf];
    if (a != VISA_BUFFER_READ_ONLY || kind == VISA_MEM_READ || !pair_new(g->run, cur_pc(t), 0xFFFF0000u | buf)) return;
    char w[EMU_WHO_BYTES];
    who(g, t->index, lane, w, sizeof w);
    finding(g->run, EDIAG_C_MEMCHECK_ACCESS, cur_pc(t), kind_word(kind), size, (unsigned long long)off, buf,
            "read-only", w, lane);
}

/* initcheck: an atomic combines the old bytes of memory with its operand and stores the result:
** of undefined old bytes (memory nothing wrote, or none at all) it stores undefined bytes. */
static void init_atomic(emu_thread *t, emu_check_group *g, uint32_t size, unsigned lane, const char *what) {
    if (!init_first(g->run, cur_pc(t), 4)) return;
    char w[EMU_WHO_BYTES];
    who(g, t->index, lane, w, sizeof w);
    finding(g->run, EDIAG_C_INITCHECK_ATOMIC, cur_pc(t), size, what, w, lane);
}

void emu_check_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                   unsigned kind) {
    emu_check_group *g = t->obs->chk;
    uint32_t buf;
    uint64_t off, limit;
    emu_mem_locate(t->mem, space, buffer, addr, &buf, &off, &limit);
    bool in = off <= limit && size <= limit - off;
    if (!in) {
        if (g->run->checks & VISA_CHECK_MEMCHECK) report_oob(t, g, space, buf, addr, off, limit, size, lane, kind);
        if (g->ireg && kind == VISA_MEM_ATOMIC) init_atomic(t, g, size, lane, "outside its memory");
        return;
    }
    if (g->run->access && space != VISA_MEM_SLM && buf < g->run->nbufs) check_access(t, g, buf, off, size, lane, kind);
    if (g->ireg && kind != VISA_MEM_READ) { /* written bytes are defined (an LSC store's hook refines it) */
        uint32_t *sh = space == VISA_MEM_SLM                  ? g->islm
                       : buf < g->run->nbufs && g->run->ginit ? g->run->ginit[buf]
                                                              : NULL;
        uint64_t shn = space == VISA_MEM_SLM ? g->islm_bytes : sh ? g->run->buf_size[buf] : 0;
        bool undef = false;
        for (uint32_t k = 0; kind == VISA_MEM_ATOMIC && k < size && off + k < shn; k++) undef |= sh[off + k] != 0;
        if (undef) init_atomic(t, g, size, lane, "memory nothing wrote"); /* and they stay undefined */
        else if (sh) set_defined(sh, (uint32_t)shn, (uint32_t)off, size);
    }
    if (!(g->run->checks & VISA_CHECK_RACECHECK) || !size) return;
    race_pending_flush(t, g);
    const uint8_t *host = space == VISA_MEM_SLM                           ? t->mem->slm + off
                          : buf < g->run->nbufs && t->mem->bufs[buf].data ? t->mem->bufs[buf].data + off
                                                                          : NULL;
    if (space != VISA_MEM_SLM || g->slm) race_access(t, g, off, size, space, buf, kind, lane, host);
}

void emu_check_misaligned(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane) {
    emu_check_group *g = t->obs->chk;
    if (!(g->run->checks & VISA_CHECK_MEMCHECK)) return;
    char w[EMU_WHO_BYTES];
    who(g, t->index, lane, w, sizeof w);
    finding(g->run, EDIAG_C_MEMCHECK_ALIGN, cur_pc(t), (unsigned long long)addr, align, w, lane);
}

/* -- initcheck ------------------------------------------------------------------------------------ */

static bool init_prepare(emu_check_run *R, const visa_buffer *bufs, const uint8_t *undef) {
    const emu_program *p = R->p;
    visa_ctx *ctx = p->ctx;
    R->npred = p->lay.npreds + 1;
    R->iclass = vx_alloc(ctx, p->ops.len ? p->ops.len : 1);
    if (!R->iclass) return false;
    for (uint32_t i = 0; i < p->ops.len; i++) {
        const emu_op *op = &p->ops.data[i];
        uint8_t c = IC_OTHER;
        switch (op->form) {
        case VISA_FORM_JMP:
        case VISA_FORM_GOTO:
        case VISA_FORM_CALL:
        case VISA_FORM_RET:
        case VISA_FORM_FRET:
        case VISA_FORM_FCALL:
        case VISA_FORM_IFCALL:
        case VISA_FORM_SWITCHJMP: c = IC_BRANCH; break;
        case VISA_FORM_SUBROUTINE:
        case VISA_FORM_LABEL:
        case VISA_FORM_LIFETIME:
        case VISA_FORM_FILE:
        case VISA_FORM_LOC:
        case VISA_FORM_YIELD:
        case VISA_FORM_BREAKPOINT:
        case VISA_FORM_BARRIER:
        case VISA_FORM_SBARRIER:
        case VISA_FORM_NBARRIER:
        case VISA_FORM_WAIT:
        case VISA_FORM_SAMPLR_CACHE_FLUSH:
        case VISA_FORM_FENCE:
        case VISA_FORM_LSC_FENCE: c = IC_NONE; break;
        default:
            if (op->calc || (emu_sem_of(op->form) && isa_form_ndst(op->form) >= 1)) c = IC_ALU;
            else if (!p->origin.data[i].in) c = IC_NONE; /* a routine's end */
            break;
        }
        R->iclass[i] = c;
    }
    if (!R->nbufs) return true;
    R->ginit = vx_alloc(ctx, sizeof(uint32_t *) * R->nbufs);
    if (!R->ginit) return false;
    memset(R->ginit, 0, sizeof(uint32_t *) * R->nbufs);
    for (size_t i = 0; i < R->nbufs; i++) {
        R->ginit[i] = vx_alloc(ctx, sizeof(uint32_t) * (bufs[i].size ? bufs[i].size : 1));
        if (!R->ginit[i]) return false;
        uint32_t v = undef && undef[i] ? INIT_RAW : 0;
        for (size_t k = 0; k < bufs[i].size; k++) R->ginit[i][k] = v;
    }
    return true;
}


/* Every register byte starts undefined but the payload the launch writes: r0, the predefined
** variables, the inputs, %cr0.  SLM starts undefined. */
static bool init_group(emu_check_group *g, uint32_t slm_bytes) {
    const emu_program *p = g->run->p;
    visa_ctx *ctx = p->ctx;
    size_t fb = g->file_bytes = p->lay.file_bytes;
    g->ireg = vx_alloc(ctx, sizeof(uint32_t) * g->n * (fb ? fb : 1));
    g->ipred = vx_alloc(ctx, sizeof(uint32_t) * g->n * g->run->npred * 32);
    g->islm_bytes = slm_bytes;
    g->islm = slm_bytes ? vx_alloc(ctx, sizeof(uint32_t) * slm_bytes) : NULL;
    g->snap = vx_alloc(ctx, fb ? fb : 1);
    if (!g->ireg || !g->ipred || (slm_bytes && !g->islm) || !g->snap) return false;
    for (uint32_t k = 0; k < slm_bytes; k++) g->islm[k] = INIT_RAW;
    for (size_t k = 0; k < (size_t)g->run->npred * 32 * g->n; k++) g->ipred[k] = INIT_RAW;
    const ir_routine *r = p->r;
    uint32_t *sh = g->ireg;
    for (size_t k = 0; k < fb; k++) sh[k] = INIT_RAW;
    set_defined(sh, (uint32_t)fb, 0, p->lay.grf_bytes); /* r0 */
    for (unsigned id = 0; id < isa_predef_var_count && id < p->lay.nvars; id++)
        set_defined(sh, (uint32_t)fb, p->lay.var_off[id],
                    isa_predef_vars[id].num_elts * isa_types[isa_predef_vars[id].type].bytes);
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        if ((in->kind & 7) == IN_GENERAL && in->offset >= 0)
            set_defined(sh, (uint32_t)fb, (uint32_t)in->offset, in->size);
    }
    set_defined(sh, (uint32_t)fb, p->cr0_off, 4);
    for (uint32_t i = 1; i < g->n; i++) memcpy(sh + i * fb, sh, sizeof(uint32_t) * fb);
    return true;
}

static uint32_t *reg_shadow(const emu_thread *t, const emu_check_group *g) {
    return g->ireg + (size_t)t->index * g->file_bytes;
}
static uint32_t *pred_shadow(const emu_thread *t, const emu_check_group *g, uint32_t id) {
    return g->ipred + ((size_t)t->index * g->run->npred + id) * 32;
}
/* An undefined byte's origin as the current op reads it: a byte nobody read yet is first read here. */
static uint32_t org_of(uint32_t s, uint32_t pc) { return s == INIT_RAW ? pc + 1 : s; }

/* The shadow word of a host byte of SLM or a caller's buffer; NULL for anything else (scratch
** buffers, the out-of-bounds sink: defined). */
static uint32_t *mem_shadow(const emu_thread *t, emu_check_group *g, const uint8_t *m) {
    const emu_mem *mem = t->mem;
    if (mem->slm && g->islm && m >= mem->slm && m < mem->slm + g->islm_bytes) return g->islm + (m - mem->slm);
    for (size_t i = 0; g->run->ginit && i < g->run->nbufs; i++)
        if (mem->bufs[i].data && m >= mem->bufs[i].data && m < mem->bufs[i].data + g->run->buf_size[i])
            return g->run->ginit[i] + (m - mem->bufs[i].data);
    return NULL;
}

/* "V35 bytes 12..15" for register bytes lo..lo+n-1 */
static void reg_name(const emu_check_run *R, uint32_t lo, uint32_t n, char *out, size_t cap) {
    var_range v = var_at(R, lo);
    const ir_routine *r = R->p->r;
    if (v.hi > v.lo && v.id >= ISA_NUM_PREDEF_VARS && v.id - ISA_NUM_PREDEF_VARS < r->vars.len)
        snprintf(out, cap, "%s bytes %u..%u", ir_str(r, r->vars.data[v.id - ISA_NUM_PREDEF_VARS].name), lo - v.lo,
                 lo - v.lo + n - 1);
    else snprintf(out, cap, "register bytes %u..%u", lo, lo + n - 1);
}


/* What an initcheck finding on register bytes lo..lo+n-1, first read undefined by op origin - 1,
** names: the thread, the bytes, the origin.  False when the op has a finding of this rule already. */
typedef struct undef_words {
    char who[EMU_WHO_BYTES], reg[96], pos[EMU_POS_BYTES];
} undef_words;
static bool undef_first(emu_thread *t, emu_check_group *g, uint32_t rule, uint32_t lo, uint32_t n, uint32_t origin,
                        unsigned lane, undef_words *u) {
    if (!init_first(g->run, cur_pc(t), rule)) return false;
    who(g, t->index, lane, u->who, sizeof u->who);
    reg_name(g->run, lo, n, u->reg, sizeof u->reg);
    op_pos(g->run, origin - 1, u->pos, sizeof u->pos);
    return true;
}

/* Register bytes reg..reg+n-1 used as a message address: a finding when any is undefined. */
void emu_check_addr_report(emu_thread *t, const uint8_t *reg, unsigned n, unsigned lane) {
    emu_check_group *g = t->obs->chk;
    if (!g->ireg || reg < t->file || reg + n > t->file + g->file_bytes) return;
    uint32_t off = (uint32_t)(reg - t->file), *sh = reg_shadow(t, g) + off;
    for (unsigned k = 0; k < n; k++)
        if (sh[k]) {
            undef_words u;
            if (undef_first(t, g, 1, off, n, org_of(sh[k], cur_pc(t)), lane, &u))
                finding(g->run, EDIAG_C_INITCHECK_ADDR, cur_pc(t), n, u.reg, u.pos, u.who, lane);
            return;
        }
}

/* A message moved n bytes between register bytes `reg` and memory `mem` for lane `lane`: a load
** gives the register bytes the memory's definedness (an undefined one first read here), a store
** of undefined bytes is a finding and passes their definedness on to memory.  Element sizes
** that differ (d8u32: one memory byte, four register bytes) take the element's as a whole. */
void emu_check_xfer_report(emu_thread *t, uint8_t *reg, unsigned rn, const uint8_t *mem, unsigned mn, unsigned lane,
                           bool store) {
    emu_check_group *g = t->obs->chk;
    if (store && rn == mn) race_pending_xfer(g, reg, mem, mn);
    if (!g->ireg || reg < t->file || reg + rn > t->file + g->file_bytes) return;
    g->hooked = true;
    uint32_t off = (uint32_t)(reg - t->file), *rs = reg_shadow(t, g) + off, pc = cur_pc(t);
    uint32_t *ms = mem ? mem_shadow(t, g, mem) : NULL; /* NULL: no memory (a constant, an out-of-bounds read) */
    if (ms && !mem_shadow(t, g, mem + mn - 1)) ms = NULL;
    if (store) {
        /* an element with defined bytes too is data moved with what surrounds it (a struct's
        ** padding copied with its neighbours as dwords): its definedness goes on to memory, the
        ** store is reported only when every byte of the element is undefined */
        uint32_t org = 0;
        unsigned nundef = 0;
        for (unsigned k = 0; k < rn; k++) {
            nundef += rs[k] != 0;
            if (!org && rs[k]) org = org_of(rs[k], pc);
        }
        undef_words u;
        if (nundef == rn && org && undef_first(t, g, 2, off, rn, org, lane, &u))
            finding(g->run, EDIAG_C_INITCHECK_STORE, pc, rn, u.reg, u.pos, u.who, lane);
        if (ms)
            for (unsigned k = 0; k < mn; k++) ms[k] = rn == mn ? (rs[k] ? org_of(rs[k], pc) : 0) : org;
        return;
    }
    /* a load out of bounds (memcheck's sink) reads no memory: undefined, first read here */
    uint32_t org = mem && mem >= g->sink && mem < g->sink + OOB_SINK_BYTES ? pc + 1 : 0;
    for (unsigned k = 0; ms && k < mn && !org; k++) org = ms[k] ? org_of(ms[k], pc) : 0;
    for (unsigned k = 0; k < rn; k++) rs[k] = ms && rn == mn ? (ms[k] ? org_of(ms[k], pc) : 0) : org;
}

/* Ops with no per-element transfer hook (DPAS): the origin of the first undefined byte among
** register bytes reg..reg+n-1 (0: all defined), and setting written bytes' definedness. */
uint32_t emu_check_origin_report(emu_thread *t, const uint8_t *reg, unsigned n) {
    emu_check_group *g = t->obs->chk;
    if (!g->ireg || reg < t->file || reg + n > t->file + g->file_bytes) return 0;
    const uint32_t *sh = reg_shadow(t, g) + (reg - t->file);
    for (unsigned k = 0; k < n; k++)
        if (sh[k]) return org_of(sh[k], cur_pc(t));
    return 0;
}
void emu_check_define_report(emu_thread *t, uint8_t *reg, unsigned n, uint32_t origin) {
    emu_check_group *g = t->obs->chk;
    if (!g->ireg || reg < t->file || reg + n > t->file + g->file_bytes) return;
    g->hooked = true;
    uint32_t *sh = reg_shadow(t, g) + (reg - t->file);
    for (unsigned k = 0; k < n; k++) sh[k] = origin;
}

/* The origin of lane i's undefined source bytes (0: all defined). */
static uint32_t src_origin(const emu_thread *t, const emu_check_group *g, const emu_opnd *o, unsigned i, uint32_t pc) {
    switch (o->shape) {
    case EO_CONTIG:
    case EO_SCALAR:
    case EO_GENERAL:
    case EO_INDIRECT:
    case EO_VXH: {
        uint32_t b = emu_region_byte(t, o, i);
        if (b == UINT32_MAX) return 0;
        const uint32_t *sh = reg_shadow(t, g) + b;
        for (unsigned k = 0; k < o->size; k++)
            if (sh[k]) return org_of(sh[k], pc);
        return 0;
    }
    case EO_PRED: {
        unsigned bit = o->bitoff + i;
        if (o->off >= g->run->npred || bit >= 32) return 0;
        uint32_t s = pred_shadow(t, g, o->off)[bit];
        return s ? org_of(s, pc) : 0;
    }
    default: return 0; /* immediates, address and state registers: defined */
    }
}

static void dst_set(emu_thread *t, emu_check_group *g, const emu_opnd *o, unsigned i, uint32_t org) {
    switch (o->shape) {
    case EO_CONTIG:
    case EO_SCALAR:
    case EO_GENERAL:
    case EO_INDIRECT:
    case EO_VXH: {
        uint32_t b = emu_region_byte(t, o, i);
        if (b == UINT32_MAX) return;
        uint32_t *sh = reg_shadow(t, g) + b;
        for (unsigned k = 0; k < o->size; k++) sh[k] = org;
        return;
    }
    case EO_PRED: {
        unsigned bit = o->bitoff + i;
        if (o->off < g->run->npred && bit < 32) pred_shadow(t, g, o->off)[bit] = org;
        return;
    }
    default: return;
    }
}

/* A branch whose decision reads predicate bits of enabled lanes (or a scalar index) that are
** undefined. */
static void check_branch(emu_thread *t, emu_check_group *g, const emu_op *op, uint32_t pc) {
    uint32_t org = 0;
    unsigned lane = 0;
    if (op->pred_id && op->pred_id < g->run->npred) {
        uint32_t en = emu_exec_enables(t, op);
        const uint32_t *ps = pred_shadow(t, g, op->pred_id);
        for (unsigned i = 0; i < op->exec && !org; i++)
            if ((en >> i & 1) && op->mask_off + i < 32 && ps[op->mask_off + i])
                org = org_of(ps[op->mask_off + i], pc), lane = i;
    }
    if (!org && (op->form == VISA_FORM_IFCALL || op->form == VISA_FORM_SWITCHJMP))
        org = src_origin(t, g, &op->src[0], 0, pc);
    if (!org || !init_first(g->run, pc, 3)) return;
    char w[EMU_WHO_BYTES], pos[EMU_POS_BYTES];
    who(g, t->index, lane, w, sizeof w);
    op_pos(g->run, org - 1, pos, sizeof pos);
    finding(g->run, EDIAG_C_INITCHECK_BRANCH, pc, op->pred_id ? "predicate" : "index", pos, w, lane);
}

static bool reg_shape(unsigned shape) {
    return shape == EO_CONTIG || shape == EO_SCALAR || shape == EO_GENERAL || shape == EO_INDIRECT || shape == EO_VXH;
}

/* A mov that copies each lane's bytes unchanged (same element size, no modifier, no saturation):
** its destination bytes take the source bytes' definedness one by one (a struct's defined bytes
** and undefined padding moved together as dwords stay apart). */
static bool mov_bytewise(const emu_op *op) {
    const emu_opnd *s = &op->src[0];
    return op->form == VISA_FORM_MOV && op->nsrc == 1 && !op->sat && !s->mod && reg_shape(s->shape) &&
           reg_shape(op->dst.shape) && s->size == op->dst.size && s->size <= 8;
}

static void mov_bytes(emu_thread *t, emu_check_group *g, const emu_op *op, uint32_t pc) {
    const emu_opnd *o = &op->src[0];
    for (unsigned i = 0; i < op->exec; i++) {
        uint32_t b = g->enabled >> i & 1 ? emu_region_byte(t, o, i) : UINT32_MAX;
        for (unsigned k = 0; k < o->size; k++) {
            uint32_t sh = b == UINT32_MAX ? 0 : reg_shadow(t, g)[b + k];
            g->lane_bytes[i][k] = sh ? org_of(sh, pc) : 0;
        }
    }
}

static void init_before(emu_thread *t, emu_check_group *g, const emu_op *op) {
    uint32_t pc = t->pc;
    switch (g->run->iclass[pc]) {
    case IC_ALU: {
        g->enabled = op->pred_selects ? emu_exec_enables(t, op) : emu_chen(t, op);
        if ((g->bytewise = mov_bytewise(op))) {
            mov_bytes(t, g, op, pc);
            return;
        }
        const uint32_t *ps = op->pred_selects && op->pred_id < g->run->npred ? pred_shadow(t, g, op->pred_id) : NULL;
        for (unsigned i = 0; i < op->exec; i++) {
            uint32_t org = 0;
            if (g->enabled >> i & 1) {
                for (unsigned k = 0; k < op->nsrc && k < 5 && !org; k++) org = src_origin(t, g, &op->src[k], i, pc);
                if (!org && ps && op->mask_off + i < 32 && ps[op->mask_off + i]) org = org_of(ps[op->mask_off + i], pc);
            }
            g->lane_org[i] = org;
        }
        return;
    }
    case IC_BRANCH: check_branch(t, g, op, pc); return;
    case IC_OTHER:
        memcpy(g->snap, t->file, g->file_bytes);
        g->hooked = false;
        return;
    default: return;
    }
}

static void init_after(emu_thread *t, emu_check_group *g, const emu_op *op) {
    uint32_t pc = cur_pc(t);
    switch (g->run->iclass[pc]) {
    case IC_ALU:
        for (unsigned i = 0; i < op->exec; i++) {
            if (!(g->enabled >> i & 1)) continue;
            if (g->bytewise) {
                uint32_t b = emu_region_byte(t, &op->dst, i);
                if (b != UINT32_MAX) memcpy(reg_shadow(t, g) + b, g->lane_bytes[i], sizeof(uint32_t) * op->dst.size);
                continue;
            }
            dst_set(t, g, &op->dst, i, g->lane_org[i]);
            dst_set(t, g, &op->dst2, i, g->lane_org[i]);
        }
        return;
    case IC_OTHER:
        if (g->hooked) return;
        /* a message or op whose transfers are not reported: the bytes it changed are defined */
        {
            uint32_t *sh = reg_shadow(t, g);
            for (uint32_t b = 0; b < g->file_bytes; b++)
                if (t->file[b] != g->snap[b]) sh[b] = 0;
        }
        return;
    default: return;
    }
}

/* -- racecheck: barriers ------------------------------------------------------------------------- */

/* A producer's signal joins its clocks of the spaces its fences since its last barrier ordered (all
** of them for a barrier no fence precedes: hand-written vISA) into the barrier's, and counts the
** barrier in its own entry of those spaces. */
static void barrier_signal(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->fenced || id >= 32) return;
    unsigned spaces = g->fenced[t->index] ? g->fenced[t->index] : RACE_FENCED_SLM | RACE_FENCED_GLOBAL;
    g->fenced[t->index] = 0;
    for (unsigned s = 0; s < RACE_SPACES; s++) {
        if (!(spaces >> s & 1)) continue;
        uint32_t *acc = &g->bar_acc[s][(size_t)id * g->n], *mine = &g->vc[s][(size_t)t->index * g->n];
        for (uint32_t i = 0; i < g->n; i++)
            if (mine[i] > acc[i]) acc[i] = mine[i];
        mine[t->index]++;
    }
}

static void barrier_complete(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->fenced || id >= 32) return;
    for (unsigned s = 0; s < RACE_SPACES; s++) {
        memcpy(&g->bar_done[s][(size_t)id * g->n], &g->bar_acc[s][(size_t)id * g->n], sizeof(uint32_t) * g->n);
        memset(&g->bar_acc[s][(size_t)id * g->n], 0, sizeof(uint32_t) * g->n);
    }
}

static void barrier_pass(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->fenced || id >= 32) return;
    for (unsigned s = 0; s < RACE_SPACES; s++) {
        const uint32_t *done = &g->bar_done[s][(size_t)id * g->n];
        uint32_t *mine = &g->vc[s][(size_t)t->index * g->n];
        for (uint32_t i = 0; i < g->n; i++)
            if (done[i] > mine[i]) mine[i] = done[i];
    }
}

/* synccheck: every work-item of an OpenCL work-group reaches each work-group barrier, so a thread
** signals one with all its dispatched lanes on; lanes off there are work-items that branched
** around it (OpenCL's barrier divergence, which the hardware does not see: it counts threads). */
static void barrier_divergence(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !(g->run->checks & VISA_CHECK_SYNCCHECK) || !g->run->lanes_are_items || id != 0) return;
    uint32_t off = t->dispatch & ~t->em;
    if (!off) return;
    char w[EMU_WHO_BYTES];
    who(g, t->index, EMU_NO_LANE, w, sizeof w);
    finding(g->run, EDIAG_C_SYNCCHECK_DIVERGENCE, cur_pc(t), (unsigned)__builtin_popcount(t->dispatch & t->em),
            (unsigned)__builtin_popcount(t->dispatch), off, w);
}

void emu_check_barrier_report(emu_thread *t, unsigned event, unsigned id) {
    if (event == EMU_BARRIER_SIGNAL) barrier_divergence(t, id);
    if (event == EMU_BARRIER_SIGNAL) barrier_signal(t, id);
    else if (event == EMU_BARRIER_COMPLETE) barrier_complete(t, id);
    else barrier_pass(t, id);
}

/* -- synccheck and faults that are findings -------------------------------------------------------- */

/* The run checks by name: what visa_checks_from_names takes, and the second word of their
** findings' ids (C-MEMCHECK-ALIGN: memcheck). */
static const struct {
    const char *name;
    uint32_t bit;
} check_names[] = {{"memcheck", VISA_CHECK_MEMCHECK},
                   {"initcheck", VISA_CHECK_INITCHECK},
                   {"racecheck", VISA_CHECK_RACECHECK},
                   {"synccheck", VISA_CHECK_SYNCCHECK},
                   {"all", VISA_CHECK_ALL}};
#define CHECK_NAMES (sizeof check_names / sizeof *check_names)

visa_status visa_checks_from_names(const char *list, uint32_t *out) {
    if (!out) return VISA_E_ARG;
    *out = 0;
    uint32_t bits = 0;
    for (const char *p = list ? list : "";;) {
        size_t n = strcspn(p, ","), k = 0;
        while (k < CHECK_NAMES && (strlen(check_names[k].name) != n || strncmp(p, check_names[k].name, n))) k++;
        if (k == CHECK_NAMES) return VISA_E_ARG;
        bits |= check_names[k].bit;
        if (!p[n]) break;
        p += n + 1;
    }
    *out = bits;
    return VISA_OK;
}

/* The run check a finding's row belongs to: its id's second word, C-<NAME>-. */
static uint32_t check_of(emu_diag_id d) {
    const char *id = emu_diag_row_of(d)->id;
    if (!id || strncmp(id, "C-", 2)) return 0;
    for (size_t i = 0; i < CHECK_NAMES; i++) {
        const char *name = check_names[i].name;
        size_t k = 0;
        while (name[k] && id[2 + k] == name[k] - 'a' + 'A') k++;
        if (!name[k] && id[2 + k] == '-') return check_names[i].bit;
    }
    return 0;
}

bool emu_check_fault(emu_check_group *g, emu_thread *t) {
    if (!g || !(g->run->checks & check_of(t->fault_finding))) return false;
    char w[EMU_WHO_BYTES];
    who(g, t->index, t->fault_lane, w, sizeof w);
    finding_report(g->run, t->fault_finding, EFRAME_FINDING_FMT, t->pc, t->fault_msg, w, t->fault_lane);
    return true;
}

bool emu_check_deadlock(emu_check_group *g) {
    if (!g || !(g->run->checks & VISA_CHECK_SYNCCHECK)) return false;
    emu_check_run *R = g->run;
    char list[400];
    size_t len = 0;
    uint32_t first = UINT32_MAX, ended = 0;
    for (uint32_t i = 0; i < g->n && len < sizeof list - 64; i++) {
        const emu_thread *t = &g->threads[i];
        char pos[EMU_POS_BYTES];
        op_pos(R, t->pc, pos, sizeof pos);
        bool waits = t->blocked;
        if (waits && first == UINT32_MAX) first = i;
        if (!waits) ended++;
        len += (size_t)snprintf(list + len, sizeof list - len, "%sthread %u %s %s", i ? ", " : "", i,
                                waits ? "waits at" : "ended at", pos);
    }
    if (len >= sizeof list - 64) snprintf(list + len, sizeof list - len, ", ...");
    if (first == UINT32_MAX) return false;
    char w[EMU_WHO_BYTES];
    who(g, first, EMU_NO_LANE, w, sizeof w);
    if (ended) finding(R, EDIAG_C_SYNCCHECK_EXIT, g->threads[first].pc, ended, g->n, w, list);
    else finding(R, EDIAG_C_SYNCCHECK_DEADLOCK, g->threads[first].pc, w, list);
    return true;
}
