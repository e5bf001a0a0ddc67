/* opnd.c -- lowering operands: every vector, raw and message operand of an instruction resolved
** to a byte offset in the thread's flat variable array (or an address, predicate or state slot)
** with its shape, once, when the kernel is prepared.
**
** Every index an operand takes from the input (variable, address, predicate and state ids,
** element offsets) is checked here, where it is decoded into a byte offset or a slot, so the
** handlers never need to and the emulator never depends on the verifier having run.
*/
#include <string.h>

#include "opnd.h"

static bool bad_index(const ir_inst *in, diag_sink *ds, const char *what, unsigned v, unsigned count) {
    emu_diag(ds, EDIAG_LOWER_ID_RANGE, in->line, in->col, what, v, count);
    return false;
}

static bool bad_addr_elems(const ir_inst *in, diag_sink *ds, const char *what, unsigned id, unsigned first,
                           unsigned used, unsigned elems) {
    emu_diag(ds, EDIAG_LOWER_ADDR_ELEMENTS, in->line, in->col, what, id, first, used == 1 ? "" : "s", first,
             first + used - 1, id, elems, elems == 1 ? "" : "s");
    return false;
}

static bool check_span(emu_program *p, const ir_inst *in, diag_sink *ds, uint64_t lo, uint64_t hi) {
    if (hi <= p->cur->file_bytes && lo <= hi) return true;
    emu_diag(ds, EDIAG_LOWER_REGION_FILE, in->line, in->col, (unsigned long long)lo, (unsigned long long)hi,
             p->cur->file_bytes);
    return false;
}

/* An indirect operand r[A(k),off]<region>: its address element(s) and the region's strides. */
static bool lower_indirect(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst, emu_opnd *o,
                           diag_sink *ds) {
    const emu_layout *lay = p->cur;
    const ir_routine *r = p->cur_r;
    unsigned vs = ir_region_value(IR_REGION_V(v->region)), w = ir_region_value(IR_REGION_W(v->region)),
             hs = ir_region_value(IR_REGION_H(v->region));
    if (v->id >= r->addrs.len) return bad_index(in, ds, "address variable A", v->id, r->addrs.len);
    if (!is_dst && IR_REGION_W(v->region) != 0 && w == 0) {
        /* <0;0,h> or <0,h> (the verifier's V-REGION-WIDTH): no lanes per row (fuzz_run: the
        ** VxH row count divided by it) */
        emu_diag(ds, EDIAG_LOWER_INDIRECT_WIDTH, in->line, in->col);
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

/* A general (direct) operand: a scalar, a contiguous run, or a region with a table of lane offsets. */
static bool lower_general(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst, emu_opnd *o,
                          diag_sink *ds) {
    const emu_layout *lay = p->cur;
    int t = ir_var_type(p->cur_r, v->id);
    if (t < 0 || v->id >= lay->nvars) {
        emu_diag(ds, EDIAG_LOWER_VAR_UNKNOWN, in->line, in->col);
        return false;
    }
    o->type = (uint8_t)t;
    o->size = isa_types[t].bytes;
    if (v->id == VISA_PREDEF_CE0) {
        /* %ce0: the execution mask, read when the instruction runs */
        if (is_dst) {
            emu_diag(ds, EDIAG_LOWER_CE0_WRITE, in->line, in->col);
            return false;
        }
        o->shape = EO_CE0;
        return true;
    }
    uint64_t base = (uint64_t)lay->var_off[v->id] + (uint64_t)v->row * lay->grf_bytes + (uint64_t)v->col * o->size;
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
            emu_diag(ds, EDIAG_LOWER_REGION_SPAN, in->line, in->col, i, (unsigned long long)(e * o->size));
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


/* An immediate operand: its value, of its type. */
static bool lower_imm(emu_opnd *o, const ir_vec *v) {
    o->shape = EO_IMM;
    o->type = v->type;
    o->size = isa_types[v->type].bytes;
    o->imm = v->imm;
    return true;
}

/* Resolve one vector operand.  is_dst: destination region <h>. */
bool emu_lower_vec(emu_program *p, const ir_inst *in, const ir_vec *v, unsigned exec, bool is_dst, emu_opnd *o,
                   diag_sink *ds) {
    memset(o, 0, sizeof *o);
    const emu_layout *lay = p->cur;
    const ir_routine *r = p->cur_r;
    o->mod = v->mod == VM_SAT ? VM_NONE : v->mod;
    if ((v->cls == VC_IMMEDIATE || v->cls == VC_INDIRECT) && v->type >= VISA_TYPE__COUNT) {
        emu_diag(ds, EDIAG_LOWER_OPERAND_TYPE, in->line, in->col, v->type);
        return false;
    }
    switch (v->cls) {
    case VC_IMMEDIATE: return lower_imm(o, v);
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
            emu_diag(ds, EDIAG_LOWER_STATE_UNKNOWN, in->line, in->col, surf ? "surface" : "sampler");
            return false;
        }
        o->shape = EO_STATE;
        o->type = VISA_TYPE_UD;
        o->size = 4;
        o->off = (surf ? lay->surf_slot : lay->samp_slot)[v->id] + v->row;
        o->hs = 1; /* MOVS copies exec_size consecutive elements */
        if (o->off + exec > lay->state_end) {
            emu_diag(ds, EDIAG_LOWER_STATE_OFFSET, in->line, in->col, v->row);
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
    case VC_INDIRECT: return lower_indirect(p, in, v, exec, is_dst, o, ds);
    case VC_GENERAL: return lower_general(p, in, v, exec, is_dst, o, ds);
    default: emu_diag(ds, EDIAG_LOWER_OPERAND_CLASS, in->line, in->col, v->cls); return false;
    }
}

bool emu_lower_raw(emu_program *p, const ir_inst *in, const ir_raw *raw, emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    if (raw->id >= p->cur->nvars || (raw->id != VISA_PREDEF_NULL && ir_var_type(p->cur_r, raw->id) < 0)) {
        emu_diag(ds, EDIAG_LOWER_RAW_UNKNOWN, in->line, in->col);
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

/* -- Message operands --------------------------------------------------------------------------- */
bool emu_msg_raw(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    if (k >= in->nopnd || in->opnd[k].kind != 'R') {
        emu_diag(ds, EDIAG_LOWER_MSG_NOT_RAW, in->line, in->col, k);
        return false;
    }
    if (!emu_lower_raw(p, in, &in->opnd[k].u.raw, o, ds)) return false;
    if (o->shape != EO_NONE && o->off >= p->cur->file_bytes) {
        emu_diag(ds, EDIAG_LOWER_RAW_FILE, in->line, in->col, o->off, p->cur->file_bytes);
        return false;
    }
    return true;
}

bool emu_msg_scalar(emu_program *p, const ir_inst *in, unsigned k, emu_opnd *o, diag_sink *ds) {
    memset(o, 0, sizeof *o);
    if (k >= in->nopnd || (in->opnd[k].kind != 'V' && in->opnd[k].kind != 'v')) {
        emu_diag(ds, EDIAG_LOWER_MSG_NOT_VECTOR, in->line, in->col, k);
        return false;
    }
    const ir_vec *v = &in->opnd[k].u.vec;
    const emu_layout *lay = p->cur;
    if (v->mod != VM_NONE) {
        emu_diag(ds, EDIAG_LOWER_MSG_MODIFIER, in->line, in->col);
        return false;
    }
    switch (v->cls) {
    case VC_IMMEDIATE: return lower_imm(o, v);
    case VC_STATE:
        if (v->state_cls != VS_SURFACE || v->id >= lay->nsurfs) {
            emu_diag(ds, EDIAG_LOWER_MSG_SURFACE_UNKNOWN, in->line, in->col);
            return false;
        }
        o->shape = EO_STATE;
        o->type = VISA_TYPE_UD;
        o->size = 4;
        o->off = lay->surf_slot[v->id] + v->row;
        if (o->off >= lay->state_end) {
            emu_diag(ds, EDIAG_LOWER_MSG_SURFACE_OFFSET, in->line, in->col, v->row);
            return false;
        }
        return true;
    case VC_GENERAL: {
        int ty = ir_var_type(p->cur_r, v->id);
        if (ty < 0 || v->id >= lay->nvars || v->id == VISA_PREDEF_CE0) {
            emu_diag(ds, EDIAG_LOWER_MSG_VAR_UNUSABLE, in->line, in->col);
            return false;
        }
        o->shape = v->id == VISA_PREDEF_NULL ? EO_NONE : EO_SCALAR;
        o->type = (uint8_t)ty;
        o->size = isa_types[ty].bytes;
        uint64_t off = (uint64_t)lay->var_off[v->id] + (uint64_t)v->row * lay->grf_bytes + (uint64_t)v->col * o->size;
        if (off + o->size > lay->file_bytes) {
            emu_diag(ds, EDIAG_LOWER_MSG_FILE, in->line, in->col);
            return false;
        }
        o->off = (uint32_t)off;
        return true;
    }
    default: emu_diag(ds, EDIAG_LOWER_MSG_CLASS, in->line, in->col, v->cls); return false;
    }
}

int64_t emu_msg_scalar_value(const emu_thread *t, const emu_opnd *o) {
    uint64_t bits = 0;
    switch (o->shape) {
    case EO_IMM: bits = o->imm; break;
    case EO_STATE: return t->state[o->off];
    case EO_SCALAR:
        if (o->off + o->size > t->prog->lay.file_bytes) return 0;
        memcpy(&bits, t->file + o->off, o->size);
        break;
    default: return 0;
    }
    unsigned n = o->size >= 8 ? 64 : o->size * 8u;
    if (n < 64) bits &= (1ull << n) - 1;
    if (isa_types[o->type].cls == TC_SINT && n < 64 && (bits >> (n - 1) & 1)) bits |= ~0ull << n;
    return (int64_t)bits;
}
