/* lower.c -- turns a routine's IR into the emulator's compact program: every operand resolved to
** a byte offset in the thread's flat array with its shape (contiguous, broadcast, general region,
** immediate, indirect), every branch target to an op index, and every instruction to a handler
** chosen from its opcode family and operand types.  Unsupported instructions are reported here,
** with their source position, before anything runs.
*/
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "exec.h"
#include "jit.h"
#include "lower.h"

/* Every index an operand takes from the input (variable, address, predicate and state ids,
** element offsets) is checked here, where it is decoded into a byte offset or a slot, so the
** handlers never need to and the emulator never depends on the verifier having run. */
static bool bad_index(const ir_inst *in, diag_sink *ds, const char *what, unsigned v, unsigned count) {
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "%s%u does not exist (the routine declares %u)", what, v,
            count);
    return false;
}

static bool bad_addr_elems(const ir_inst *in, diag_sink *ds, const char *what, unsigned id, unsigned first,
                           unsigned used, unsigned elems) {
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
            "%s A%u(%u) uses element%s %u..%u, past the end of A%u (%u element%s)", what, id, first,
            used == 1 ? "" : "s", first, first + used - 1, id, elems, elems == 1 ? "" : "s");
    return false;
}

static bool check_span(emu_program *p, const ir_inst *in, diag_sink *ds, uint64_t lo, uint64_t hi) {
    if (hi <= p->cur->file_bytes && lo <= hi) return true;
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
            "operand region reaches outside the register file (bytes %llu..%llu of %u)",
            (unsigned long long)lo, (unsigned long long)hi, p->cur->file_bytes);
    return false;
}

/* Resolve one vector operand.  is_dst: destination region <h>. */
static bool lower_vec(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst,
                      emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    const emu_layout *lay = p->cur;
    const ir_routine *r = p->cur_r;
    o->mod = v->mod == VM_SAT ? VM_NONE : v->mod;
    if ((v->cls == VC_IMMEDIATE || v->cls == VC_INDIRECT) && v->type >= VISA_TYPE__COUNT) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "operand type %u is not a vISA type", v->type);
        return false;
    }
    switch (v->cls) {
    case VC_IMMEDIATE:
        o->shape = EO_IMM;
        o->type = v->type;
        o->size = isa_types[v->type].bytes;
        o->imm = v->imm;
        return true;
    case VC_PREDICATE:
        if (v->id > lay->npreds) return bad_index(in, ds, "predicate P", v->id, lay->npreds);
        o->shape = EO_PRED;
        o->type = VISA_TYPE_BOOL;
        o->size = 1;
        o->off = lay->pred_base + v->id;
        return true;
    case VC_ADDRESS: {
        if (v->id >= r->addrs.len) return bad_index(in, ds, "address variable A", v->id, r->addrs.len);
        o->shape = EO_ADDR;
        o->type = VISA_TYPE_UW;
        o->size = 2;
        o->off = lay->addr_base[v->id] + v->row;
        o->hs = is_dst ? 1 : (uint16_t)(1u << v->col) > 1 ? 1 : 0;
        /* a destination writes exec consecutive elements, a source reads exec or one */
        unsigned elems = r->addrs.data[v->id].num_elts, used = o->hs ? exec : 1;
        if ((unsigned)v->row + used > elems) {
            return bad_addr_elems(in, ds, "address operand", v->id, v->row, used, elems);
        }
        return true;
    }
    case VC_STATE: {
        bool surf = v->state_cls == VS_SURFACE;
        if (v->id >= (surf ? lay->nsurfs : lay->nsamps)) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "operand refers to an unknown %s",
                    surf ? "surface" : "sampler");
            return false;
        }
        o->shape = EO_STATE;
        o->type = VISA_TYPE_UD;
        o->size = 4;
        o->off = (surf ? lay->surf_slot : lay->samp_slot)[v->id] + v->row;
        o->hs = 1; /* MOVS copies exec_size consecutive elements */
        if (o->off + exec > lay->state_end) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "state operand offset %u is past the variable", v->row);
            return false;
        }
        return true;
    }
    case VC_ADDROF: {
        if (v->id >= lay->nvars || ir_var_type(r, v->id) < 0)
            return bad_index(in, ds, "general variable #", v->id, lay->nvars);
        o->shape = EO_IMM;
        o->type = VISA_TYPE_UD;
        o->size = 4;
        o->imm = lay->var_off[v->id] + ir_addrof_bytes(p->cur_r, v, lay->grf_bytes);
        return true;
    }
    case VC_INDIRECT: {
        unsigned vs = ir_region_value(IR_REGION_V(v->region)), w = ir_region_value(IR_REGION_W(v->region)),
                 hs = ir_region_value(IR_REGION_H(v->region));
        if (v->id >= r->addrs.len) return bad_index(in, ds, "address variable A", v->id, r->addrs.len);
        if (!is_dst && IR_REGION_W(v->region) != 0 && w == 0) {
            /* <0;0,h> or <0,h> (the verifier's V-REGION-WIDTH): no lanes per row (fuzz_run: the
            ** VxH row count divided by it) */
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "indirect operand's region has width 0");
            return false;
        }
        unsigned elems = r->addrs.data[v->id].num_elts;
        o->type = v->type;
        o->size = isa_types[v->type].bytes;
        o->off = lay->addr_base[v->id] + v->addr_elem;
        o->ind_off = v->ind_off;
        if (is_dst || IR_REGION_W(v->region) == 0) {
            o->shape = EO_INDIRECT;
            o->vs = (uint16_t)(hs * (is_dst ? 1 : 1));
            o->w = 1;
            o->hs = (uint16_t)hs;
            if (!is_dst) {
                /* <h> on a source: a 1D region */
                o->vs = (uint16_t)(exec * hs);
                o->w = (uint16_t)exec;
            }
        } else if (IR_REGION_V(v->region) == 0) {
            o->shape = EO_VXH; /* one address per row of w elements */
            o->w = (uint16_t)w;
            o->hs = (uint16_t)hs;
        } else {
            o->shape = EO_INDIRECT;
            o->vs = (uint16_t)vs;
            o->w = (uint16_t)(w ? w : 1);
            o->hs = (uint16_t)hs;
        }
        /* Vx1 / VxH read one address element per row of w lanes, the others one */
        unsigned used = o->shape == EO_VXH ? (exec + o->w - 1) / o->w : 1;
        if ((unsigned)v->addr_elem + used > elems) {
            return bad_addr_elems(in, ds, "indirect operand's address", v->id, v->addr_elem, used, elems);
        }
        return true;
    }
    case VC_GENERAL: {
        int t = ir_var_type(p->cur_r, v->id);
        if (t < 0 || v->id >= lay->nvars) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "operand refers to an unknown variable");
            return false;
        }
        o->type = (uint8_t)t;
        o->size = isa_types[t].bytes;
        if (v->id == VISA_PREDEF_CE0) {
            /* %ce0: the execution mask, read when the instruction runs */
            if (is_dst) {
                diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "%%ce0 is read-only");
                return false;
            }
            o->shape = EO_CE0;
            return true;
        }
        uint64_t base = (uint64_t)lay->var_off[v->id] + (uint64_t)v->row * lay->grf_bytes +
                        (uint64_t)v->col * o->size;
        unsigned vs, w, hs;
        if (is_dst || IR_REGION_W(v->region) == 0) {
            hs = ir_region_value(IR_REGION_H(v->region));
            vs = exec * hs;
            w = exec;
        } else {
            vs = ir_region_value(IR_REGION_V(v->region));
            w = ir_region_value(IR_REGION_W(v->region));
            hs = ir_region_value(IR_REGION_H(v->region));
            if (w == 0 || w > exec) w = exec;
        }
        o->off = (uint32_t)base;
        if (exec == 1 || (vs == 0 && hs == 0) || (w == 1 && vs == 0)) {
            o->shape = EO_SCALAR;
            return check_span(p, in, ds, base, base + o->size);
        }
        uint64_t last = 0;
        uint16_t lanes[EMU_MAX_LANES];
        bool contig = true;
        for (unsigned i = 0; i < exec; i++) {
            uint64_t e = (uint64_t)(i / w) * vs + (uint64_t)(i % w) * hs;
            uint64_t b = base + e * o->size;
            if (b + o->size > last) last = b + o->size;
            if (e != i) contig = false;
            if (e * o->size > 0xFFFF) {
                diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                        "region spans more than 64 KiB (lane %u at byte %llu)", i,
                        (unsigned long long)(e * o->size));
                return false;
            }
            lanes[i] = (uint16_t)(e * o->size);
        }
        if (!check_span(p, in, ds, base, last)) return false;
        if (contig) {
            o->shape = EO_CONTIG;
            return true;
        }
        o->shape = EO_GENERAL;
        o->lanes = p->lane_off.len / EMU_MAX_LANES;
        /* a region whose lanes are evenly spaced reads as a plain stride on the fast paths */
        bool uniform = lanes[1] && lanes[1] % o->size == 0 && lanes[1] / o->size <= 0xFFFF;
        for (unsigned i = 2; i < exec && uniform; i++) uniform = lanes[i] == (uint32_t)i * lanes[1];
        o->ustride = uniform ? (uint16_t)(lanes[1] / o->size) : 0;
        for (unsigned i = 0; i < EMU_MAX_LANES; i++)
            if (!vec_push(p->ctx, &p->lane_off, i < exec ? lanes[i] : 0)) return false;
        return true;
    }
    default:
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                "operand class %u is not supported by the emulator", v->cls);
        return false;
    }
}

bool emu_lower_raw(emu_program *p, const ir_inst *in, const ir_raw *raw, emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    if (raw->id >= p->cur->nvars || (raw->id != VISA_PREDEF_NULL && ir_var_type(p->cur_r, raw->id) < 0)) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "raw operand refers to an unknown variable");
        return false;
    }
    o->shape = raw->id == VISA_PREDEF_NULL ? EO_NONE : EO_CONTIG;
    o->type = VISA_TYPE_UB;
    o->size = 1;
    uint64_t off = (uint64_t)p->cur->var_off[raw->id] + raw->offset;
    if (!check_span(p, in, ds, off, off)) return false;
    o->off = (uint32_t)off;
    return true;
}

static visa_status lower_inst(emu_program *p, const ir_inst *in, uint32_t *label_op, diag_sink *ds) {
    emu_op op;
    memset(&op, 0, sizeof op);
    op.form = in->form;
    op.line = in->line;
    op.col = in->col;
    emu_op_set_exec(&op, in->exec);
    if (ir_pred_id(in->pred)) {
        /* predicates of a function follow the kernel's */
        if (ir_pred_id(in->pred) > p->cur->npreds) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "predicate P%u is out of range (the routine has %u)",
                    ir_pred_id(in->pred), p->cur->npreds);
            return VISA_E_UNSUPPORTED;
        }
        uint32_t id = ir_pred_id(in->pred) + p->cur->pred_base;
        if (id > UINT16_MAX) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "too many predicate variables in the module");
            return VISA_E_UNSUPPORTED;
        }
        op.pred_id = (uint16_t)id;
        op.pred_ctrl = (uint8_t)ir_pred_ctrl(in->pred);
        op.pred_inv = ir_pred_inverse(in->pred);
    }
    const emu_sem *sem = emu_sem_of(in->form);
    if (!sem) {
        const char *why = emu_not_emulated(in->form);
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "'%s' is not emulated: %s", isa_forms[in->form].name,
                why ? why : "it has no row in src/emu/sem.def");
        return VISA_E_UNSUPPORTED;
    }
    op.fn = sem->fn;
    op.aux = sem;
    /* operands in layout order: the first vector operand of an ALU form is the destination */
    unsigned nv = 0;
    for (unsigned k = 0; k < in->nopnd; k++) {
        const ir_opnd *o = &in->opnd[k];
        switch (o->kind) {
        case 'V': case 'v': case '&': {
            bool is_dst = nv < sem->ndst;
            emu_opnd *slot = nv == 0 && sem->ndst >= 1 ? &op.dst
                             : nv == 1 && sem->ndst == 2 ? &op.dst2
                                                         : &op.src[op.nsrc < 5 ? op.nsrc : 4];
            if (!lower_vec(p, in, &o->u.vec, op.exec, is_dst, slot, ds)) return VISA_E_UNSUPPORTED;
            if (!is_dst) op.nsrc++;
            if (is_dst && o->u.vec.mod == VM_SAT) op.sat = 1;
            nv++;
            break;
        }
        case 'R': {
            emu_opnd *slot = &op.src[op.nsrc < 5 ? op.nsrc : 4];
            if (!emu_lower_raw(p, in, &o->u.raw, slot, ds)) return VISA_E_UNSUPPORTED;
            op.nsrc++;
            break;
        }
        case 'L': {
            /* every label operand goes to the target table (switchjmp has a list of them); a
            ** single-target branch also keeps its target in op.target */
            uint32_t target = o->u.label < p->cur_r->labels.len ? label_op[o->u.label] : UINT32_MAX;
            if (target == UINT32_MAX) {
                diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "branch to an undefined label");
                return VISA_E_UNSUPPORTED;
            }
            if (!op.imm) {
                op.target = target;
                op.info = p->targets.len;
            }
            op.imm++;
            if (!vec_push(p->ctx, &p->targets, target)) return VISA_E_NOMEM;
            break;
        }
        default:
            /* integer fields: kept for the handler in cond (first byte field) */
            if (k < 8) op.cond = op.cond ? op.cond : (uint8_t)o->u.num;
            break;
        }
    }
    if (isa_forms[in->form].parent >= 0) op.cond = (uint8_t)isa_forms[in->form].sub;
    /* predicate operands start at the instruction's mask offset (5_operands) */
    emu_opnd *all[] = {&op.dst, &op.dst2, &op.src[0], &op.src[1], &op.src[2], &op.src[3], &op.src[4]};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        if (all[k]->shape == EO_PRED) all[k]->bitoff = op.mask_off;
    if (sem->lower && !sem->lower(p, in, &op, ds)) return VISA_E_UNSUPPORTED;
    emu_origin from = {p->cur_r, in};
    return vec_push(p->ctx, &p->ops, op) && vec_push(p->ctx, &p->origin, from) ? VISA_OK : VISA_E_NOMEM;
}

/* The routines a kernel can reach: itself, then every function named by an fcall or faddr of a
** routine already in the list (breadth first).  Returns the count. */
static uint32_t reachable_routines(const visa_module *m, uint32_t kernel, uint32_t *order) {
    uint32_t n = 0;
    order[n++] = kernel;
    for (uint32_t k = 0; k < n; k++) {
        const ir_routine *r = &m->routines.data[order[k]];
        for (uint32_t i = 0; i < r->insts.len; i++) {
            const ir_inst *in = &r->insts.data[i];
            if (in->form != VISA_FORM_FCALL && in->form != VISA_FORM_FADDR) continue;
            for (unsigned j = 0; j < in->nopnd; j++) {
                if (in->opnd[j].kind != 's' && in->opnd[j].kind != 'S') continue;
                int f = ir_find_function(m, ir_str(r, in->opnd[j].u.str));
                bool seen = f < 0;
                for (uint32_t q = 0; q < n && !seen; q++) seen = order[q] == (uint32_t)f;
                if (!seen) order[n++] = (uint32_t)f;
            }
        }
    }
    return n;
}

/* Lower one routine whose first op will be op index `base`; ends with an op that ends the thread
** (kernel) or returns (function) when control falls off the end. */
static visa_status lower_routine(emu_program *p, uint32_t base, diag_sink *ds) {
    const ir_routine *r = p->cur_r;
    visa_ctx *ctx = p->ctx;
    /* label id -> op index: a label's op is the LABEL/SUBROUTINE instruction itself */
    uint32_t *label_op = vx_alloc(ctx, sizeof(uint32_t) * (r->labels.len + 1));
    if (!label_op) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < r->labels.len; i++) label_op[i] = UINT32_MAX;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *in = &r->insts.data[i];
        if ((isa_forms[in->form].flags & VF_LABEL_DEF) && in->nopnd && in->opnd[0].u.label < r->labels.len)
            label_op[in->opnd[0].u.label] = base + i;
    }
    visa_status st = VISA_OK;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        visa_status s = lower_inst(p, &r->insts.data[i], label_op, ds);
        if (s != VISA_OK && st == VISA_OK) st = s;
        if (s == VISA_E_NOMEM) break;
    }
    vx_free(ctx, label_op, sizeof(uint32_t) * (r->labels.len + 1));
    if (st == VISA_OK) {
        emu_op end;
        memset(&end, 0, sizeof end);
        end.fn = r->is_kernel ? emu_end_handler : emu_sem_of(VISA_FORM_FRET)->fn;
        end.form = r->is_kernel ? VISA_FORM_RET : VISA_FORM_FRET;
        end.line = r->line;
        emu_origin from = {r, NULL};
        if (!vec_push(ctx, &p->ops, end) || !vec_push(ctx, &p->origin, from)) st = VISA_E_NOMEM;
    }
    return st;
}

visa_status emu_lower(visa_ctx *ctx, const visa_module *m, const ir_routine *r, visa_platform plat,
                      emu_program *p, diag_sink *ds) {
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->m = m;
    p->r = r;
    p->plat = plat;
    const char *generic = getenv("VISA_EMU_GENERIC"); /* read here once, kept in the program */
    p->generic = generic && *generic && strcmp(generic, "0") != 0;
    p->isa = (uint8_t)emu_isa_select();
    p->tier = (uint8_t)emu_tier_select();
    uint32_t nr = m->routines.len;
    p->nroutines = nr;
    p->func_op = vx_alloc(ctx, sizeof(uint32_t) * nr);
    uint32_t *order = vx_alloc(ctx, sizeof(uint32_t) * nr);
    emu_layout *lays = vx_alloc(ctx, sizeof(emu_layout) * nr);
    if (!p->func_op || !order || !lays) {
        vx_free(ctx, order, sizeof(uint32_t) * nr);
        vx_free(ctx, lays, sizeof(emu_layout) * nr);
        emu_program_free(p);
        return VISA_E_NOMEM;
    }
    memset(lays, 0, sizeof(emu_layout) * nr);
    for (uint32_t i = 0; i < nr; i++) p->func_op[i] = UINT32_MAX;
    uint32_t n = reachable_routines(m, (uint32_t)(r - m->routines.data), order);
    /* op indices are known before lowering: one op per instruction plus the end op */
    for (uint32_t k = 0, base = 0; k < n; k++) {
        p->func_op[order[k]] = base;
        base += m->routines.data[order[k]].insts.len + 1;
    }
    visa_status st = VISA_OK;
    uint32_t built = 0;
    for (uint32_t k = 0; k < n && st == VISA_OK; k++, built++)
        st = emu_layout_build(ctx, &m->routines.data[order[k]], plat, k ? &lays[k - 1] : NULL, &lays[k], ds);
    if (st == VISA_OK) p->cr0_off = lays[0].var_off[VISA_PREDEF_CR0];
    for (uint32_t k = 0; k < n && st == VISA_OK; k++) {
        p->cur = &lays[k];
        p->cur_r = &m->routines.data[order[k]];
        st = lower_routine(p, p->func_op[order[k]], ds);
    }
    p->cur = NULL;
    p->cur_r = NULL;
    /* where goto leaves lanes waiting: its target (forward) or the op after it (backward) */
    for (uint32_t i = 0; st == VISA_OK && i < p->ops.len; i++) {
        if (p->ops.data[i].form != VISA_FORM_GOTO) continue;
        if (p->ops.data[i].target < p->ops.len) p->ops.data[p->ops.data[i].target].join = 1;
        if (i + 1 < p->ops.len) p->ops.data[i + 1].join = 1;
    }
    if (st == VISA_OK) {
        /* the thread's state spans every routine's */
        const emu_layout *last = &lays[n - 1];
        uint32_t file = last->file_bytes, slots = last->addr_slot0 + last->naddr_slots,
                 preds = last->pred_base + last->npreds, nstate = last->state_end;
        p->lay = lays[0];
        memset(&lays[0], 0, sizeof lays[0]); /* now owned by p->lay */
        p->lay.file_bytes = file;
        p->lay.naddr_slots = slots;
        p->lay.npreds = preds;
        p->nstate = nstate;
    }
    for (uint32_t k = 0; k < built; k++) emu_layout_free(ctx, &lays[k]);
    vx_free(ctx, order, sizeof(uint32_t) * nr);
    vx_free(ctx, lays, sizeof(emu_layout) * nr);
    if (st == VISA_OK) st = emu_jit_build(p, ds);
    if (st != VISA_OK) emu_program_free(p);
    return st;
}

void emu_program_free(emu_program *p) {
    if (!p->ctx) return;
    emu_jit_free(p);
    emu_layout_free(p->ctx, &p->lay);
    vec_free(p->ctx, &p->ops);
    vec_free(p->ctx, &p->lane_off);
    vec_free(p->ctx, &p->targets);
    vec_free(p->ctx, &p->origin);
    vx_free(p->ctx, p->func_op, sizeof(uint32_t) * p->nroutines);
    p->func_op = NULL;
}
