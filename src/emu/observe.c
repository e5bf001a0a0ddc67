/* observe.c -- a run's observer (visa_observer, docs/observe.md): the hooks of the observed thread
** loop (run.c), which report every completed instruction with its channel enables and its
** destination before and after, and the memory accesses message handlers report through
** emu_observe_mem (probe.h).
**
** Nothing here runs without an observer: emu_run_thread takes the observed loop only when the
** thread's group is observed (one test per scheduling slice, not per instruction), and message handlers
** test emu_thread.obs once per access (exec.h).  Per-op facts an event needs (mnemonic,
** destination variable name and type) are worked out once, when the run is prepared.
*/
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mem.h"
#include "access.h"
#include "exec.h"
#include "observe.h"
#include "probe.h"

struct emu_obs_op {
    char mnemonic[32];
    char dst_name[48];
    const char *dst_type;
    uint32_t dst_row, dst_col;
    uint8_t has_dst; /* a register destination the trace can show */
};

/* The mnemonic as printed: the first spelling of the form, or its name for forms printed by a
** hook (spelled from '%'). */
static void form_mnemonic(unsigned form, char *out, size_t cap) {
    size_t n;
    const char *mn = isa_form_mnem_or_name((int)form, &n);
    snprintf(out, cap, "%.*s", (int)n, mn);
    for (char *c = out; *c; c++) /* names are upper case (CMP): print them as mnemonics */
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
}

static void var_name(const ir_routine *r, uint32_t id, char *out, size_t cap) {
    if (id < isa_predef_var_count) {
        snprintf(out, cap, "%s", isa_predef_vars[id].name);
        return;
    }
    if (id >= ISA_NUM_PREDEF_VARS && id - ISA_NUM_PREDEF_VARS < r->vars.len) {
        uint32_t n = r->vars.data[id - ISA_NUM_PREDEF_VARS].name;
        if (n < r->strings.len) {
            snprintf(out, cap, "%.*s", (int)r->strings.data[n].len, r->strings.data[n].s);
            return;
        }
    }
    snprintf(out, cap, "V%u", id);
}

static bool region_shape(unsigned s) {
    return s == EO_CONTIG || s == EO_SCALAR || s == EO_GENERAL || s == EO_INDIRECT || s == EO_VXH;
}

static void describe_op(const emu_program *p, uint32_t i, emu_obs_op *d) {
    const emu_op *op = &p->ops.data[i];
    const emu_origin *from = &p->origin.data[i];
    form_mnemonic(op->form, d->mnemonic, sizeof d->mnemonic);
    const emu_sem *sem = emu_sem_of(op->form);
    if (!from->in || !sem || isa_form_ndst(op->form) < 1 || !op->dst.store || !region_shape(op->dst.shape)) return;
    const ir_inst *in = from->in;
    for (unsigned k = 0; k < in->nopnd; k++) {
        const ir_opnd *o = &in->opnd[k];
        if (o->kind != 'V' && o->kind != 'v' && o->kind != '&') continue;
        const ir_vec *v = &o->u.vec;
        if (v->cls != VC_GENERAL && v->cls != VC_INDIRECT) return;
        if (v->cls == VC_GENERAL) var_name(from->r, v->id, d->dst_name, sizeof d->dst_name);
        else snprintf(d->dst_name, sizeof d->dst_name, "r[A%u]", v->id); /* indirect: the address variable */
        d->dst_type = isa_types[op->dst.type].name;
        d->dst_row = v->row;
        d->dst_col = v->col;
        d->has_dst = 1;
        return;
    }
}

visa_status emu_observe_prepare(const emu_program *p, const visa_observer *o, const uint32_t groups[3],
                                emu_obs_run **out) {
    *out = NULL;
    if (!o) return VISA_OK;
    emu_obs_run *run = vx_alloc(p->ctx, sizeof *run);
    if (!run) return VISA_E_NOMEM;
    memset(run, 0, sizeof *run);
    if (visa__observer_read(o, &run->o) != VISA_OK) {
        vx_free(p->ctx, run, sizeof *run);
        return VISA_E_ARG;
    }
    memcpy(run->groups, groups, sizeof run->groups);
    run->nops = p->ops.len;
    run->ops = vx_alloc(p->ctx, sizeof(emu_obs_op) * (run->nops + 1));
    if (!run->ops) {
        vx_free(p->ctx, run, sizeof *run);
        return VISA_E_NOMEM;
    }
    memset(run->ops, 0, sizeof(emu_obs_op) * (run->nops + 1));
    for (uint32_t i = 0; i < run->nops; i++) describe_op(p, i, &run->ops[i]);
    *out = run;
    return VISA_OK;
}

void emu_observe_free(const emu_program *p, emu_obs_run *run) {
    if (!run) return;
    vx_free(p->ctx, run->ops, sizeof(emu_obs_op) * (run->nops + 1));
    vx_free(p->ctx, run, sizeof *run);
}

static const emu_probe observe_probe; /* below, with the functions it names */

void emu_observe_group_begin(const emu_obs_run *run, emu_obs_group *g, uint64_t gi, const uint32_t group[3]) {
    memset(g, 0, sizeof *g);
    g->probe = &observe_probe;
    if (!run) return;
    g->run = run;
    g->index = gi;
    memcpy(g->group, group, sizeof g->group);
    g->ud = run->o.group_begin ? run->o.group_begin(run->o.ud, gi) : run->o.ud;
}

void emu_observe_group_end(emu_obs_group *g) {
    if (g->run && g->run->o.group_end) g->run->o.group_end(g->run->o.ud, g->ud, g->index);
}

static void exec_point(const emu_thread *t, const emu_obs_group *g, visa_exec_point *at) {
    const emu_op *op = &t->prog->ops.data[g->pc];
    at->group_index = g->index;
    memcpy(at->group, g->group, sizeof at->group);
    at->thread = t->index;
    at->step = g->step;
    at->op = g->pc;
    at->mnemonic = g->run->ops[g->pc].mnemonic;
    at->line = op->line;
    at->col = op->col;
}

static void probe_mem(emu_thread *t, unsigned space, uint32_t buffer, uint64_t addr, uint32_t size, unsigned lane,
                      unsigned kind) {
    emu_obs_group *g = t->obs;
    /* a thread's scratch slice is its own: no races, and leaving it faults (dataport.c, lsc.c); a
    ** hardware thread's next group reuses it, which racecheck would take for a race */
    bool scratch = space == VISA_MEM_SURFACE && emu_is_scratch(t->mem, buffer);
    if (g->chk && !scratch) emu_check_mem(t, space, buffer, addr, size, lane, kind);
    if (!g->run || !g->run->o.on_mem) return;
    visa_mem_event e;
    memset(&e, 0, sizeof e);
    exec_point(t, g, &e.at);
    e.space = (visa_mem_space)space;
    e.kind = (visa_mem_kind)kind;
    e.address = addr;
    e.size = size;
    e.lane = lane;
    uint64_t limit;
    emu_mem_locate(t->mem, space, buffer, addr, &e.buffer, &e.offset, &limit);
    e.in_bounds = e.offset <= limit && size <= limit - e.offset;
    g->run->o.on_mem(g->ud, &e);
}

/* What the handlers report through (probe.h): memory events here, the checks' reports to check.c. */
static const emu_probe observe_probe = {
    .mem = probe_mem,
    .misaligned = emu_check_misaligned,
    .xfer = emu_check_xfer_report,
    .addr = emu_check_addr_report,
    .barrier = emu_check_barrier_report,
    .origin = emu_check_origin_report,
    .define = emu_check_define_report,
};

/* Element i of a destination region (zero when it leaves the file: the handler faults then). */
static void gather_dst(const emu_thread *t, const emu_op *op, uint8_t *out) {
    const emu_opnd *d = &op->dst;
    uint32_t n = (uint32_t)op->exec * d->size;
    if (d->shape == EO_CONTIG && d->off + n <= t->prog->lay.file_bytes) { /* the common case: one copy */
        memcpy(out, t->file + d->off, n);
        return;
    }
    for (unsigned i = 0; i < op->exec; i++) {
        uint32_t b = emu_region_byte(t, d, i);
        if (b == UINT32_MAX) memset(out + i * d->size, 0, d->size);
        else memcpy(out + i * d->size, t->file + b, d->size);
    }
}

void emu_observe_op_begin(emu_thread *t, uint32_t pc, uint64_t steps, emu_obs_step *s) {
    emu_obs_group *g = t->obs;
    const emu_obs_run *run = g->run; /* NULL when the group is only checked */
    const emu_op *op = &t->prog->ops.data[pc];
    /* the channel enables as the handler sees them, before it changes the mask or predicate */
    s->enabled = emu_chen(t, op);
    s->show_dst = run && run->o.on_inst && run->ops[pc].has_dst;
    if (s->show_dst) gather_dst(t, op, s->before);
    g->pc = pc;
    g->step = steps;
    s->t0 = run && (run->o.flags & VISA_OBSERVE_TIME) ? vx_now_ns() : 0;
    if (g->chk) emu_check_before(t, op);
}

void emu_observe_op_end(emu_thread *t, uint32_t pc, emu_obs_step *s) {
    emu_obs_group *g = t->obs;
    if (g->chk) emu_check_after(t, &t->prog->ops.data[pc]);
    s->t1 = s->t0 ? vx_now_ns() : 0;
}

void emu_observe_op_report(emu_thread *t, uint32_t pc, const emu_obs_step *s) {
    emu_obs_group *g = t->obs;
    const emu_obs_run *run = g->run;
    if (!run || !run->o.on_inst) return;
    const emu_op *op = &t->prog->ops.data[pc];
    const emu_obs_op *d = &run->ops[pc];
    uint8_t after[EMU_MAX_LANES * 8];
    visa_inst_event e;
    memset(&e, 0, sizeof e);
    exec_point(t, g, &e.at);
    e.exec_size = op->exec;
    e.mask_offset = op->mask_off;
    e.enabled = s->enabled;
    e.host_ns = s->t1 - s->t0;
    if (s->show_dst) {
        gather_dst(t, op, after);
        e.dst_name = d->dst_name;
        e.dst_type = d->dst_type;
        e.dst_elem_bytes = op->dst.size;
        e.dst_row = d->dst_row;
        e.dst_col = d->dst_col;
        e.dst_bytes = op->exec * op->dst.size;
        e.dst_before = s->before;
        e.dst_after = after;
    }
    run->o.on_inst(g->ud, &e);
}
