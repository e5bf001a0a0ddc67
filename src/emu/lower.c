/* lower.c -- turns a routine's IR into the emulator's compact program: every operand resolved to
** a byte offset in the thread's flat array with its shape (contiguous, broadcast, general region,
** immediate, indirect), every branch target to an op index, and every instruction to a handler
** chosen from its opcode family and operand types.  Unsupported instructions are reported here,
** with their source position, before anything runs.
*/
#include <string.h>

#include "emu.h"
#include "exec.h"

static bool check_span(emu_program *p, const ir_inst *in, diag_sink *ds, uint64_t lo, uint64_t hi) {
    if (hi <= p->lay.file_bytes && lo <= hi) return true;
    diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
            "operand region reaches outside the register file (bytes %llu..%llu of %u)",
            (unsigned long long)lo, (unsigned long long)hi, p->lay.file_bytes);
    return false;
}

/* Resolve one vector operand.  is_dst: destination region <h>. */
static bool lower_vec(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst,
                      emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    const emu_layout *lay = &p->lay;
    o->mod = v->mod == VM_SAT ? VM_NONE : v->mod;
    switch (v->cls) {
    case VC_IMMEDIATE:
        o->shape = EO_IMM;
        o->type = v->type;
        o->size = isa_types[v->type].bytes;
        o->imm = v->imm;
        return true;
    case VC_PREDICATE:
        o->shape = EO_PRED;
        o->type = VISA_TYPE_BOOL;
        o->size = 1;
        o->off = v->id;
        return true;
    case VC_ADDRESS:
        o->shape = EO_ADDR;
        o->type = VISA_TYPE_UW;
        o->size = 2;
        o->off = lay->addr_base[v->id] + v->row;
        o->hs = is_dst ? 1 : (uint16_t)(1u << v->col) > 1 ? 1 : 0;
        return true;
    case VC_ADDROF: {
        o->shape = EO_IMM;
        o->type = VISA_TYPE_UD;
        o->size = 4;
        o->imm = lay->var_off[v->id] + ir_addrof_bytes(p->r, v, lay->grf_bytes);
        return true;
    }
    case VC_INDIRECT: {
        unsigned vs = ir_region_value(IR_REGION_V(v->region)), w = ir_region_value(IR_REGION_W(v->region)),
                 hs = ir_region_value(IR_REGION_H(v->region));
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
        return true;
    }
    case VC_GENERAL: {
        int t = ir_var_type(p->r, v->id);
        if (t < 0 || v->id >= lay->nvars) {
            diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "operand refers to an unknown variable");
            return false;
        }
        o->type = (uint8_t)t;
        o->size = isa_types[t].bytes;
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
            lanes[i] = (uint16_t)(e * o->size <= 0xFFFF ? e * o->size : 0xFFFF);
        }
        if (!check_span(p, in, ds, base, last)) return false;
        if (contig) {
            o->shape = EO_CONTIG;
            return true;
        }
        o->shape = EO_GENERAL;
        o->lanes = p->lane_off.len / EMU_MAX_LANES;
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

static bool lower_raw(emu_program *p, const ir_inst *in, const ir_raw *raw, emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    if (raw->id >= p->lay.nvars) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "raw operand refers to an unknown variable");
        return false;
    }
    o->shape = raw->id == 0 ? EO_NONE : EO_CONTIG;
    o->type = VISA_TYPE_UB;
    o->size = 1;
    o->off = p->lay.var_off[raw->id] + raw->offset;
    return check_span(p, in, ds, o->off, o->off);
}

static visa_status lower_inst(emu_program *p, const ir_inst *in, uint32_t *label_op, diag_sink *ds) {
    emu_op op;
    memset(&op, 0, sizeof op);
    op.form = in->form;
    op.line = in->line;
    op.col = in->col;
    op.exec = (uint8_t)(1u << (in->exec & 7));
    if ((in->exec & 0xF) > 5) op.exec = 1;
    op.mask_off = (uint8_t)(((in->exec >> 4) & 7) * 4);
    op.nomask = (in->exec >> 4) >= 8;
    op.pred = in->pred;
    const emu_sem *sem = emu_sem_of(in->form);
    if (!sem) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                "'%s' is not supported by the emulator yet", isa_forms[in->form].name);
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
            if (!lower_raw(p, in, &o->u.raw, slot, ds)) return VISA_E_UNSUPPORTED;
            op.nsrc++;
            break;
        }
        case 'L':
            op.target = o->u.label < p->r->labels.len ? label_op[o->u.label] : UINT32_MAX;
            if (op.target == UINT32_MAX) {
                diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col, "branch to an undefined label");
                return VISA_E_UNSUPPORTED;
            }
            break;
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
    return vec_push(p->ctx, &p->ops, op) ? VISA_OK : VISA_E_NOMEM;
}

visa_status emu_lower(visa_ctx *ctx, const visa_module *m, const ir_routine *r, visa_platform plat,
                      emu_program *p, diag_sink *ds) {
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->m = m;
    p->r = r;
    visa_status st = emu_layout_build(ctx, r, plat, &p->lay, ds);
    if (st != VISA_OK) return st;
    /* label id -> op index: a label's op is the LABEL/SUBROUTINE instruction itself */
    uint32_t *label_op = vx_alloc(ctx, sizeof(uint32_t) * (r->labels.len + 1));
    if (!label_op) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < r->labels.len; i++) label_op[i] = UINT32_MAX;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *in = &r->insts.data[i];
        if ((isa_forms[in->form].flags & VF_LABEL_DEF) && in->nopnd && in->opnd[0].u.label < r->labels.len)
            label_op[in->opnd[0].u.label] = i;
    }
    for (uint32_t i = 0; i < r->insts.len; i++) {
        visa_status s = lower_inst(p, &r->insts.data[i], label_op, ds);
        if (s != VISA_OK && st == VISA_OK) st = s;
        if (s == VISA_E_NOMEM) break;
    }
    vx_free(ctx, label_op, sizeof(uint32_t) * (r->labels.len + 1));
    /* a final op that ends the thread if control falls off the end */
    if (st == VISA_OK) {
        emu_op end;
        memset(&end, 0, sizeof end);
        end.fn = emu_end_handler;
        end.form = VISA_FORM_RET;
        if (!vec_push(ctx, &p->ops, end)) st = VISA_E_NOMEM;
    }
    if (st != VISA_OK) emu_program_free(p);
    return st;
}

void emu_program_free(emu_program *p) {
    if (!p->ctx) return;
    emu_layout_free(p->ctx, &p->lay);
    vec_free(p->ctx, &p->ops);
    vec_free(p->ctx, &p->lane_off);
}
