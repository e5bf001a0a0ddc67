/* check.c -- run checks (visa_run_opts.checks, docs/observe.md "Run checks").
**
** A checked run goes through observe.c's loop (chosen per scheduling slice, like an observer):
** the plain loop never tests for checks.  Hooks:
**   * emu_check_before / emu_check_after around each instruction: address registers and
**     indirect operands (memcheck);
**   * emu_check_mem for each memory access, before it happens (exec.h's emu_observe_mem):
**     bounds (memcheck) and the per-byte shadow of SLM and global memory (racecheck);
**   * emu_check_align from the LSC handlers (their alignment rule: the data size);
**   * emu_check_signal / complete / pass from sync.c (racecheck's happens-before);
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
** address not aligned to its data size is reported and the access goes on at that address.  A
** legacy data-port alignment violation (per message: dword / oword / block size) is reported and
** ends the group (the emulator cannot say what the hardware would read).  An address register
** read before any instruction of the thread set it, and an indirect operand whose bytes leave the
** variable the address register pointed into when it was set (the kernel's non-alias variables;
** an address pointing into none is not judged), are reported.
**
** racecheck.  Each thread has a vector clock over its group's threads; its own entry counts the
** barrier signals it made.  A producer's signal joins its clock into the barrier's; a consumer
** that passes its wait joins the completed phase's clock into its own.  Each SLM byte (per
** group) and global byte (per buffer, for the whole run) remembers its last write and its last
** read: group, thread, the thread's own clock then, the instruction.  Two accesses of different
** threads conflict when at least one is a non-atomic write; they race unless they are in the
** same group and the earlier one's clock entry is covered by the later thread's clock (a barrier
** between them).  Across groups any conflict is a race.  Only the last read is remembered, so a
** race with an earlier reader can go unreported (never the reverse).  Each pair of instructions
** is reported once.
**
** initcheck is reserved (VISA_CHECK_INITCHECK is accepted and finds nothing yet).
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
#include "exec.h"

#define CHECK_LIMIT 100      /* findings reported (or the context's max_errors if lower); the rest are counted */
#define OOB_SINK_BYTES 4096u /* the largest single access of any message (a 2D block row, a block) */
#define SHADOW_PAGE 4096u    /* global shadow: bytes per page */

/* The last write or read of one byte (racecheck). */
typedef struct race_acc {
    uint32_t group; /* linear group index + 1; 0: none */
    uint32_t clock; /* the thread's own clock entry then */
    uint32_t op;    /* instruction index */
    uint16_t thread;
    uint8_t atomic;
} race_acc;
typedef struct race_cell {
    race_acc w, r;
} race_cell;

typedef struct var_range {
    uint32_t lo, hi;
} var_range;

struct emu_check_run {
    const emu_program *p;
    uint32_t checks;
    diag_sink *ds;
    uint64_t found;
    uint64_t limit;       /* CHECK_LIMIT or the context's max_errors */
    size_t *buf_size;     /* the caller's buffers' sizes (the emulator's scratch buffers are not checked) */
    size_t nbufs;
    race_cell ***gshadow; /* per buffer, pages of SHADOW_PAGE cells allocated at their first access */
    uint64_t *pairs;     /* reported race pairs (op << 32 | other op), a small set */
    size_t npairs, cap_pairs;
    var_range *vars;     /* the kernel's non-alias variables */
    size_t nvars;
    bool oom;
};

struct emu_check_group {
    emu_check_run *run;
    uint64_t gi;
    uint32_t group[3];
    emu_thread *threads;
    uint32_t n;
    uint32_t naddr;                  /* address slots per thread */
    uint8_t *addr_set;               /* n x naddr: the slot was written */
    var_range *addr_var;             /* n x naddr: the variable it pointed into when written */
    uint32_t *vc;                    /* n x n vector clocks */
    uint32_t *bar_acc, *bar_done;    /* 32 x n per barrier: the current phase's, the completed one's */
    race_cell *slm;
    uint32_t slm_bytes;
    uint8_t sink[OOB_SINK_BYTES];
};

/* -- Findings ------------------------------------------------------------------------------------ */

static void finding(emu_check_run *R, uint32_t pc, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void finding(emu_check_run *R, uint32_t pc, const char *code, const char *fmt, ...) {
    if (++R->found > R->limit) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const emu_op *op = pc < R->p->ops.len ? &R->p->ops.data[pc] : NULL;
    diag_at(R->ds, VISA_SEV_ERROR, code, op ? op->line : 0, op ? op->col : 0, "%s", msg);
}

static uint32_t cur_pc(const emu_thread *t) { return t->obs->pc; }

/* "group 1 (1,0,0), thread 2" */
static void who(const emu_check_group *g, uint32_t thread, char *out, size_t cap) {
    snprintf(out, cap, "group %llu (%u,%u,%u), thread %u", (unsigned long long)g->gi, g->group[0], g->group[1],
             g->group[2], thread);
}

static void op_pos(const emu_check_run *R, uint32_t op, char *out, size_t cap) {
    const emu_op *o = op < R->p->ops.len ? &R->p->ops.data[op] : NULL;
    if (o && o->line) snprintf(out, cap, "line %u:%u", o->line, o->col);
    else snprintf(out, cap, "instruction %u", op);
}

/* -- Setup --------------------------------------------------------------------------------------- */

static int range_cmp(const void *a, const void *b) {
    const var_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

visa_status emu_check_prepare(const emu_program *p, uint32_t checks, diag_sink *ds, const visa_buffer *bufs,
                              size_t nbufs, emu_check_run **out) {
    *out = NULL;
    checks &= VISA_CHECK_ALL;
    if (!checks) return VISA_OK;
    emu_check_run *R = vx_alloc(p->ctx, sizeof *R);
    if (!R) return VISA_E_NOMEM;
    memset(R, 0, sizeof *R);
    R->p = p;
    R->checks = checks;
    R->ds = ds;
    R->limit = p->ctx->max_errors && p->ctx->max_errors < CHECK_LIMIT ? p->ctx->max_errors : CHECK_LIMIT;
    R->nbufs = nbufs; /* past them: zeroed stand-ins for IGC's printf / assert buffers */
    if (R->nbufs) {
        R->gshadow = vx_alloc(p->ctx, sizeof(race_cell **) * R->nbufs);
        R->buf_size = vx_alloc(p->ctx, sizeof(size_t) * R->nbufs);
        if (!R->gshadow || !R->buf_size) goto oom;
        memset(R->gshadow, 0, sizeof(race_cell **) * R->nbufs);
        for (size_t i = 0; i < R->nbufs; i++) R->buf_size[i] = bufs[i].size;
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
            R->vars[R->nvars++] = (var_range){lo, lo + (uint32_t)v->num_elts * isa_types[v->type].bytes};
        }
        qsort(R->vars, R->nvars, sizeof *R->vars, range_cmp);
    }
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
        diag_at_offset(R->ds, VISA_SEV_NOTE, "C-MORE", VISA_DIAG_NO_OFFSET, "and %llu more findings",
                       (unsigned long long)(R->found - R->limit));
    bool found = R->found > 0;
    for (size_t i = 0; R->gshadow && i < R->nbufs; i++) {
        if (!R->gshadow[i]) continue;
        size_t np = npages(R->buf_size[i]);
        for (size_t k = 0; k < np; k++)
            if (R->gshadow[i][k]) vx_free(ctx, R->gshadow[i][k], sizeof(race_cell) * SHADOW_PAGE);
        vx_free(ctx, R->gshadow[i], sizeof(race_cell *) * np);
    }
    if (R->gshadow) vx_free(ctx, R->gshadow, sizeof(race_cell **) * R->nbufs);
    if (R->buf_size) vx_free(ctx, R->buf_size, sizeof(size_t) * R->nbufs);
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
    if (g->vc) vx_free(ctx, g->vc, sizeof(uint32_t) * n * n);
    if (g->bar_acc) vx_free(ctx, g->bar_acc, sizeof(uint32_t) * 32 * n);
    if (g->bar_done) vx_free(ctx, g->bar_done, sizeof(uint32_t) * 32 * n);
    if (g->slm) vx_free(ctx, g->slm, sizeof(race_cell) * g->slm_bytes);
    vx_free(ctx, g, sizeof *g);
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
    if (ok && (R->checks & VISA_CHECK_RACECHECK)) {
        g->vc = vx_alloc(ctx, sizeof(uint32_t) * n * n);
        g->bar_acc = vx_alloc(ctx, sizeof(uint32_t) * 32 * n);
        g->bar_done = vx_alloc(ctx, sizeof(uint32_t) * 32 * n);
        g->slm_bytes = slm_bytes;
        g->slm = slm_bytes ? vx_alloc(ctx, sizeof(race_cell) * slm_bytes) : NULL;
        ok = g->vc && g->bar_acc && g->bar_done && (!slm_bytes || g->slm);
        if (ok) {
            memset(g->vc, 0, sizeof(uint32_t) * n * n);
            for (uint32_t i = 0; i < n; i++) g->vc[(size_t)i * n + i] = 1;
            memset(g->bar_acc, 0, sizeof(uint32_t) * 32 * n);
            memset(g->bar_done, 0, sizeof(uint32_t) * 32 * n);
            if (g->slm) memset(g->slm, 0, sizeof(race_cell) * slm_bytes);
        }
    }
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
    return (var_range){0, 0};
}

static bool addr_slot_ok(emu_thread *t, const emu_check_group *g, uint32_t slot) {
    if (slot >= g->naddr) return true;
    if (g->addr_set[(size_t)t->index * g->naddr + slot]) return true;
    char name[64], w[96];
    addr_name(t->prog, slot, name, sizeof name);
    who(g, t->index, w, sizeof w);
    finding(g->run, cur_pc(t), "C-MEMCHECK-ADDR-UNSET", "address register %s is read before this thread set it [%s]",
            name, w);
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
        char name[64], w[96];
        addr_name(t->prog, slot, name, sizeof name);
        who(g, t->index, w, sizeof w);
        if (b == UINT32_MAX)
            finding(g->run, cur_pc(t), "C-MEMCHECK-INDIRECT",
                    "indirect %s through %s leaves the register file [%s, lane %u]", dst ? "destination" : "source",
                    name, w, i);
        else
            finding(g->run, cur_pc(t), "C-MEMCHECK-INDIRECT",
                    "indirect %s through %s reaches register bytes %u..%u, outside the variable it points into "
                    "(bytes %u..%u) [%s, lane %u]",
                    dst ? "destination" : "source", name, b, b + o->size - 1, v.lo, v.hi - 1, w, i);
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

void emu_check_before(emu_thread *t, const emu_op *op) {
    emu_check_group *g = t->obs->chk;
    if (!(g->run->checks & VISA_CHECK_MEMCHECK) || t->blocked_at == t->pc + 1) return;
    uint32_t lanes = emu_chen(t, op);
    check_opnd(t, g, op, &op->dst, lanes, true);
    for (unsigned k = 0; k < 5; k++) check_opnd(t, g, op, &op->src[k], lanes, false);
}

void emu_check_after(emu_thread *t, const emu_op *op) {
    emu_check_group *g = t->obs->chk;
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

/* Where an access lands: buffer index (UINT32_MAX: none), offset and the space's size. */
static void locate(const emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t *buf,
                   uint64_t *off, uint64_t *limit) {
    const emu_mem *m = t->mem;
    *buf = UINT32_MAX;
    *limit = 0;
    if (space == VISA_MEM_GLOBAL) {
        uint64_t i = addr >> 32;
        if (i >= 1 && i <= m->nbufs) *buf = (uint32_t)(i - 1);
        *off = addr & 0xFFFFFFFFu;
    } else if (space == VISA_MEM_SURFACE) {
        if (buffer < m->nbufs) *buf = buffer;
        *off = addr;
    } else {
        *off = addr;
        *limit = m->slm ? m->slm_size : 0;
        return;
    }
    if (*buf != UINT32_MAX) *limit = m->bufs[*buf].size;
}

static void report_oob(emu_thread *t, emu_check_group *g, unsigned space, uint32_t buf, uint64_t addr, uint64_t off,
                       uint64_t limit, uint32_t size, unsigned lane, unsigned kind) {
    char w[96], where[160];
    who(g, t->index, w, sizeof w);
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
    finding(g->run, cur_pc(t), "C-MEMCHECK-OOB", "out-of-bounds %s of %u bytes at %s [%s, lane %u]",
            kind_word(kind), size, where, w, lane);
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

/* Does `prev` happen before the current access of thread t in group g? */
static bool ordered(const emu_check_group *g, const emu_thread *t, const race_acc *prev) {
    if (prev->group != g->gi + 1) return false;
    if (prev->thread == t->index) return true;
    return g->vc[(size_t)t->index * g->n + prev->thread] >= prev->clock;
}

static void report_race(emu_thread *t, emu_check_group *g, unsigned space, uint64_t off, uint32_t buf, unsigned kind,
                        unsigned lane, const race_acc *prev, bool prev_write) {
    emu_check_run *R = g->run;
    uint32_t pc = cur_pc(t);
    if (!pair_new(R, pc, prev->op)) return;
    char w[96], other[96], pos[48], where[96];
    who(g, t->index, w, sizeof w);
    op_pos(R, prev->op, pos, sizeof pos);
    if (prev->group == g->gi + 1) snprintf(other, sizeof other, "thread %u", prev->thread);
    else snprintf(other, sizeof other, "group %u, thread %u", prev->group - 1, prev->thread);
    if (space == VISA_MEM_SLM) snprintf(where, sizeof where, "SLM byte 0x%llx", (unsigned long long)off);
    else snprintf(where, sizeof where, "byte %llu of buffer %u", (unsigned long long)off, buf);
    finding(R, pc, space == VISA_MEM_SLM ? "C-RACECHECK-SLM" : "C-RACECHECK-GLOBAL",
            "%s of %s [%s, lane %u] races with the %s%s by %s at %s: no barrier between them",
            kind == VISA_MEM_READ ? "read" : kind == VISA_MEM_ATOMIC ? "atomic" : "write", where, w, lane,
            prev_write && prev->atomic ? "atomic " : "", prev_write ? "write" : "read", other, pos);
}

static void race_access(emu_thread *t, emu_check_group *g, uint64_t off, uint64_t n, unsigned space, uint32_t buf,
                        unsigned kind, unsigned lane) {
    race_acc me = {(uint32_t)(g->gi + 1), g->vc[(size_t)t->index * g->n + t->index], cur_pc(t), (uint16_t)t->index,
                   kind == VISA_MEM_ATOMIC};
    bool reported = false;
    for (uint64_t k = 0; k < n; k++) {
        race_cell *c = space == VISA_MEM_SLM ? &g->slm[off + k] : global_cell(g->run, buf, off + k);
        if (!c) return;
        if (kind == VISA_MEM_READ) {
            if (!reported && c->w.group && !c->w.atomic && !ordered(g, t, &c->w)) {
                report_race(t, g, space, off + k, buf, kind, lane, &c->w, true);
                reported = true;
            }
            c->r = me;
            continue;
        }
        if (!reported && c->w.group && !(me.atomic && c->w.atomic) && !ordered(g, t, &c->w)) {
            report_race(t, g, space, off + k, buf, kind, lane, &c->w, true);
            reported = true;
        }
        if (!reported && !me.atomic && c->r.group && !ordered(g, t, &c->r)) {
            report_race(t, g, space, off + k, buf, kind, lane, &c->r, false);
            reported = true;
        }
        c->w = me;
        c->r.group = 0;
    }
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

void emu_check_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                   unsigned kind) {
    emu_check_group *g = t->obs->chk;
    uint32_t buf;
    uint64_t off, limit;
    locate(t, space, buffer, addr, &buf, &off, &limit);
    bool in = off <= limit && size <= limit - off;
    if (!in) {
        if (g->run->checks & VISA_CHECK_MEMCHECK) report_oob(t, g, space, buf, addr, off, limit, size, lane, kind);
        return;
    }
    if (!(g->run->checks & VISA_CHECK_RACECHECK) || !size) return;
    if (space != VISA_MEM_SLM || g->slm) race_access(t, g, off, size, space, buf, kind, lane);
}

void emu_check_misaligned(emu_thread *t, uint64_t addr, uint32_t align, unsigned lane) {
    emu_check_group *g = t->obs->chk;
    if (!(g->run->checks & VISA_CHECK_MEMCHECK)) return;
    char w[96];
    who(g, t->index, w, sizeof w);
    finding(g->run, cur_pc(t), "C-MEMCHECK-ALIGN", "address 0x%llx is not aligned to %u bytes [%s, lane %u]",
            (unsigned long long)addr, align, w, lane);
}

/* -- racecheck: barriers ------------------------------------------------------------------------- */

void emu_check_signal(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->vc || id >= 32) return;
    uint32_t *acc = &g->bar_acc[(size_t)id * g->n], *mine = &g->vc[(size_t)t->index * g->n];
    for (uint32_t i = 0; i < g->n; i++)
        if (mine[i] > acc[i]) acc[i] = mine[i];
    mine[t->index]++;
}

void emu_check_complete(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->vc || id >= 32) return;
    memcpy(&g->bar_done[(size_t)id * g->n], &g->bar_acc[(size_t)id * g->n], sizeof(uint32_t) * g->n);
    memset(&g->bar_acc[(size_t)id * g->n], 0, sizeof(uint32_t) * g->n);
}

void emu_check_pass(emu_thread *t, unsigned id) {
    emu_check_group *g = emu_chk(t);
    if (!g || !g->vc || id >= 32) return;
    const uint32_t *done = &g->bar_done[(size_t)id * g->n];
    uint32_t *mine = &g->vc[(size_t)t->index * g->n];
    for (uint32_t i = 0; i < g->n; i++)
        if (done[i] > mine[i]) mine[i] = done[i];
}

/* -- synccheck and faults that are findings -------------------------------------------------------- */

bool emu_check_fault(emu_check_group *g, emu_thread *t) {
    if (!g || !t->fault_rule) return false;
    uint32_t need = !strncmp(t->fault_rule, "C-SYNCCHECK", 11) ? VISA_CHECK_SYNCCHECK
                    : !strncmp(t->fault_rule, "C-MEMCHECK", 10) ? VISA_CHECK_MEMCHECK
                                                                 : 0;
    if (!(g->run->checks & need)) return false;
    char w[96];
    who(g, t->index, w, sizeof w);
    finding(g->run, t->pc, t->fault_rule, "%s [%s, lane %u]; the group stops here", t->fault_msg, w, t->fault_lane);
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
        char pos[48];
        op_pos(R, t->pc, pos, sizeof pos);
        bool waits = t->blocked;
        if (waits && first == UINT32_MAX) first = i;
        if (!waits) ended++;
        len += (size_t)snprintf(list + len, sizeof list - len, "%sthread %u %s %s", i ? ", " : "", i,
                                waits ? "waits at" : "ended at", pos);
    }
    if (len >= sizeof list - 64) snprintf(list + len, sizeof list - len, ", ...");
    if (first == UINT32_MAX) return false;
    char w[96];
    who(g, first, w, sizeof w);
    if (ended)
        finding(R, g->threads[first].pc, "C-SYNCCHECK-EXIT",
                "%u of the group's %u threads ended while others wait at a barrier that can never complete [%s]: %s",
                ended, g->n, w, list);
    else
        finding(R, g->threads[first].pc, "C-SYNCCHECK-DEADLOCK",
                "deadlock: every thread of the group waits at a barrier that can never complete [%s]: %s", w, list);
    return true;
}
