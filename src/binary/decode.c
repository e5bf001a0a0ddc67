/* decode.c -- vISA object bytes to the module IR.  Every read is bounds-checked; counts are
** checked against the bytes that remain (each entry needs at least one byte), so hostile input
** can neither overrun nor make us allocate more than the input justifies.  Errors report the byte
** offset.  Versions: 4.1 is the layout IGC wrote; 3.x objects use narrower ids and are read where
** the difference is known (formats.md section 1.13); anything else is refused clearly.
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct rd {
    const uint8_t *p;
    size_t len, pos;
    bool err;
    diag_sink *ds;
    visa_ctx *ctx;
    uint8_t major, minor;
    unsigned grf;
    size_t inst_fail_at; /* where an instruction did not decode (0: none did not) */
    size_t insts_at, insts_end, insts_read; /* that routine's instructions, and how many read */
    bool igc1_cut; /* read instructions as IGC 1.0.x's writer cut them (igc1_note) */
} rd;

static void fail(rd *r, size_t at, const char *what) {
    if (!r->err) diag_at_offset(r->ds, VISA_SEV_ERROR, "E-BINARY", at, "%s", what);
    r->err = true;
}

static bool need(rd *r, size_t n, const char *what) {
    if (r->err) return false;
    if (r->pos > r->len || r->len - r->pos < n) {
        char msg[160];
        snprintf(msg, sizeof msg, "truncated %s (need %zu bytes, %zu left)", what, n, r->len - r->pos);
        fail(r, r->pos, msg);
        return false;
    }
    return true;
}

static uint8_t u8(rd *r, const char *what) {
    if (!need(r, 1, what)) return 0;
    return r->p[r->pos++];
}
static uint16_t u16(rd *r, const char *what) {
    if (!need(r, 2, what)) return 0;
    uint16_t v = (uint16_t)(r->p[r->pos] | (r->p[r->pos + 1] << 8));
    r->pos += 2;
    return v;
}
static uint32_t u32(rd *r, const char *what) {
    if (!need(r, 4, what)) return 0;
    uint32_t v = (uint32_t)r->p[r->pos] | ((uint32_t)r->p[r->pos + 1] << 8) | ((uint32_t)r->p[r->pos + 2] << 16) |
                 ((uint32_t)r->p[r->pos + 3] << 24);
    r->pos += 4;
    return v;
}
static uint64_t u64(rd *r, const char *what) {
    uint64_t lo = u32(r, what);
    return lo | ((uint64_t)u32(r, what) << 32);
}
/* "id4": 4 bytes from version 3.4 on, 2 before */
static uint32_t id4(rd *r, const char *what) {
    return (r->major > 3 || (r->major == 3 && r->minor >= 4)) ? u32(r, what) : u16(r, what);
}

/* A count whose entries each take at least min_bytes must fit in what is left. */
/* A count read at `at` whose entries each take at least min_bytes must fit in what is left (every
** caller passes 1: the point is to bound allocations by the input size, while a short table is
** reported where its first missing field is). */
static bool count_ok(rd *r, size_t at, uint64_t count, size_t min_bytes, const char *what) {
    if (r->err) return false;
    if (count > (r->len - r->pos) / (min_bytes ? min_bytes : 1)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s count %llu is larger than the remaining input allows", what,
                 (unsigned long long)count);
        fail(r, at, msg);
        return false;
    }
    return true;
}

static bool check_string(rd *r, const ir_routine *rt, uint32_t idx, size_t at, const char *what) {
    if (idx < rt->strings.len) return true;
    char msg[160];
    snprintf(msg, sizeof msg, "%s string index %u out of range (%u strings)", what, idx, rt->strings.len);
    fail(r, at, msg);
    return false;
}

static bool read_attrs_(rd *r, ir_routine *rt, ir_attr_list *list, unsigned count);

/* Read attributes into list; on failure the list is freed (the caller owns nothing). */
static bool read_attrs(rd *r, ir_routine *rt, ir_attr_list *list, unsigned count) {
    if (read_attrs_(r, rt, list, count)) return true;
    vx_free(r->ctx, list->items, (size_t)list->count * sizeof(ir_attr));
    list->items = NULL;
    list->count = 0;
    return false;
}

static bool read_attrs_(rd *r, ir_routine *rt, ir_attr_list *list, unsigned count) {
    if (!count_ok(r, r->pos - 1, count, 1, "attribute")) return false;
    for (unsigned i = 0; i < count && !r->err; i++) {
        ir_attr a;
        memset(&a, 0, sizeof a);
        size_t at = r->pos;
        a.name = id4(r, "attribute name");
        if (!check_string(r, rt, a.name, at, "attribute name")) return false;
        a.size = u8(r, "attribute size");
        if (!need(r, a.size, "attribute value")) return false;
        memcpy(a.value, r->p + r->pos, a.size);
        r->pos += a.size;
        /* IGC decides by name: only these attributes hold strings */
        a.is_str = !strcmp(ir_str(rt, a.name), "OutputAsmPath") || !strcmp(ir_str(rt, a.name), "AsmName");
        if (!ir_attr_list_push(r->ctx, list, &a)) {
            fail(r, at, "out of memory");
            return false;
        }
    }
    return !r->err;
}

static bool read_state_list(rd *r, ir_routine *rt, void *vecp, size_t count_at, uint32_t count, const char *what) {
    VEC(ir_state_var) *v = vecp;
    if (!count_ok(r, count_at, count, 1, what) || !vec_reserve(r->ctx, v, count)) return false;
    for (uint32_t i = 0; i < count && !r->err; i++) {
        ir_state_var s;
        memset(&s, 0, sizeof s);
        s.trivia.eol = -1;
        size_t at = r->pos;
        s.name = id4(r, what);
        if (!check_string(r, rt, s.name, at, what)) return false;
        s.num_elts = u16(r, what);
        unsigned na = u8(r, "attribute count");
        if (!read_attrs(r, rt, &s.attrs, na)) return false;
        v->data[v->len++] = s;
    }
    return !r->err;
}

/* -- Operands --------------------------------------------------------------------------------- */
static bool read_vec(rd *r, const ir_routine *rt, ir_vec *v, bool addrof_pos) {
    memset(v, 0, sizeof *v);
    size_t at = r->pos;
    uint8_t tag = u8(r, "operand tag");
    v->cls = tag & 7;
    v->mod = (tag >> 3) & 7;
    if (tag >> 6) {
        fail(r, at, "operand tag has reserved bits set");
        return false;
    }
    if (v->mod > VM_NOT) {
        fail(r, at, "invalid operand modifier");
        return false;
    }
    switch (v->cls) {
    case VC_GENERAL:
        v->id = id4(r, "general operand");
        v->row = u8(r, "general operand");
        v->col = u8(r, "general operand");
        v->region = u16(r, "general operand");
        if (r->err) return false;
        if (v->id >= ISA_NUM_PREDEF_VARS + rt->vars.len ||
            (v->id >= isa_predef_var_count && v->id < ISA_NUM_PREDEF_VARS)) {
            fail(r, at + 1, "general operand refers to an undefined variable");
            return false;
        }
        if ((v->region & 0xF000) || IR_REGION_V(v->region) > 7 || IR_REGION_W(v->region) > 7 ||
            IR_REGION_H(v->region) > 7) {
            fail(r, at + 7, "invalid region encoding");
            return false;
        }
        if (addrof_pos) {
            /* an address-of keeps its row and column: the bytes depend on the GRF size */
            if (v->region != IR_REGION(1, 2, 1)) {
                fail(r, at + 7, "address-of operand must have region <0;1,0>");
                return false;
            }
            v->cls = VC_ADDROF;
            v->region = 0;
        }
        return true;
    case VC_ADDRESS:
        v->id = u16(r, "address operand");
        v->row = u8(r, "address operand");
        v->col = u8(r, "address operand");
        if (r->err) return false;
        if (v->id >= rt->addrs.len) {
            fail(r, at + 1, "address operand refers to an undefined address variable");
            return false;
        }
        if (v->col > 5) {
            fail(r, at + 4, "invalid address operand width");
            return false;
        }
        return true;
    case VC_PREDICATE: {
        uint16_t w = u16(r, "predicate operand");
        v->id = ir_pred_id(w); /* a predicate operand is a predicate word (5_operands) */
        if (!r->err && (v->id == 0 || v->id > rt->preds.len)) {
            fail(r, at + 1, "predicate operand refers to an undefined predicate");
            return false;
        }
        return !r->err;
    }
    case VC_INDIRECT: {
        v->id = u16(r, "indirect operand");
        v->addr_elem = u8(r, "indirect operand");
        v->ind_off = (int16_t)u16(r, "indirect operand");
        uint8_t bp = u8(r, "indirect operand");
        v->region = u16(r, "indirect operand");
        if (r->err) return false;
        int t = isa_type_from_code(bp & 0xF);
        if (t < 0 || (bp >> 4)) {
            fail(r, at + 6, "invalid indirect operand type");
            return false;
        }
        v->type = (uint8_t)t;
        if (v->id >= rt->addrs.len) {
            fail(r, at + 1, "indirect operand refers to an undefined address variable");
            return false;
        }
        if ((v->region & 0xF000) || IR_REGION_V(v->region) > 7 || IR_REGION_W(v->region) > 7 ||
            IR_REGION_H(v->region) > 7) {
            fail(r, at + 7, "invalid region encoding");
            return false;
        }
        return true;
    }
    case VC_IMMEDIATE: {
        uint8_t tb = u8(r, "immediate");
        int t = isa_type_from_code(tb & 0xF);
        if (r->err) return false;
        if (t < 0 || (tb >> 4)) {
            fail(r, at + 1, "invalid immediate type");
            return false;
        }
        v->type = (uint8_t)t;
        v->imm =
            (t == VISA_TYPE_DF || t == VISA_TYPE_Q || t == VISA_TYPE_UQ) ? u64(r, "immediate") : u32(r, "immediate");
        return !r->err;
    }
    case VC_STATE:
        v->state_cls = u8(r, "state operand");
        v->id = u16(r, "state operand");
        v->row = u8(r, "state operand");
        if (r->err) return false;
        if (v->state_cls > VS_SAMPLER) {
            fail(r, at + 1, "invalid state operand class");
            return false;
        }
        if (v->state_cls == VS_SURFACE ? v->id >= ISA_NUM_PREDEF_SURFS + rt->surfaces.len
                                       : (v->id >= rt->samplers.len && v->id != 31)) {
            fail(r, at + 2, "state operand refers to an undefined surface or sampler");
            return false;
        }
        return true;
    default:
        fail(r, at,
             v->cls == VC_ADDROF ? "address-of operand class is not valid in an object" : "invalid operand class");
        return false;
    }
}

static bool read_raw(rd *r, const ir_routine *rt, ir_raw *raw) {
    size_t at = r->pos;
    raw->id = id4(r, "raw operand");
    raw->offset = u16(r, "raw operand");
    if (r->err) return false;
    if (raw->id >= ISA_NUM_PREDEF_VARS + rt->vars.len ||
        (raw->id >= isa_predef_var_count && raw->id < ISA_NUM_PREDEF_VARS)) {
        fail(r, at, "raw operand refers to an undefined variable");
        return false;
    }
    return true;
}

static bool read_opnd(rd *r, const ir_routine *rt, ir_opnd *o, char kind) {
    o->kind = kind;
    size_t at = r->pos;
    switch (kind) {
    case 'V':
    case 'v':
    case '&': return read_vec(r, rt, &o->u.vec, kind == '&');
    case 'R': return read_raw(r, rt, &o->u.raw);
    case 'L':
        o->u.label = u16(r, "label");
        if (!r->err && o->u.label >= rt->labels.len) {
            fail(r, at, "label id out of range");
            return false;
        }
        return !r->err;
    case 'b': o->u.num = u8(r, "operand"); return !r->err;
    case 'w': o->u.num = u16(r, "operand"); return !r->err;
    case 'd': o->u.num = u32(r, "operand"); return !r->err;
    case 'i': o->u.num = (int32_t)u32(r, "operand"); return !r->err;
    case 's':
    case 'S':
        o->u.str = kind == 's' ? u16(r, "string operand") : id4(r, "string operand");
        return !r->err && check_string(r, rt, o->u.str, at, "operand");
    default: fail(r, at, "internal: unknown layout code"); return false;
    }
}

/* How many fields of a layout IGC 1.0.x's writer wrote: it stopped after as many as the
** instruction has operands, counting the exec size and the predicate among them. */
static int igc1_fields(const char *layout) {
    int n = 0;
    for (const char *c = layout; *c; c++) n += !strchr("EP*", *c);
    return n;
}

static bool read_inst(rd *r, ir_routine *rt, ir_inst *inst) {
    memset(inst, 0, sizeof *inst);
    inst->trivia.eol = -1;
    inst->offset = r->pos;
    size_t at = r->pos;
    uint8_t op = u8(r, "opcode");
    int form = isa_form_by_opcode(op);
    if (r->err) return false;
    if (form < 0) {
        char msg[64];
        snprintf(msg, sizeof msg, "unknown opcode 0x%02x", op);
        fail(r, at, msg);
        return false;
    }
    /* pass 1: find the form (sub-opcode) and collect the operand kinds */
    char kinds[80];
    unsigned nk = 0;
    const char *layout = isa_forms[form].layout;
    int left = r->igc1_cut ? igc1_fields(layout) : INT_MAX;
    ir_opnd tmp[80];
    size_t exec_at = at, pred_at = at;
    unsigned list_count = 0;
    bool has_list = false;
    for (const char *c = layout; *c && !r->err; c++) {
        if (*c != '*' && left-- <= 0) break;
        switch (*c) {
        case 'E':
            exec_at = r->pos;
            inst->exec = u8(r, "exec size");
            break;
        case 'P':
            pred_at = r->pos;
            inst->pred = u16(r, "predicate");
            break;
        case 'o': {
            size_t sat = r->pos;
            uint8_t sub = u8(r, "sub-opcode");
            if (r->err) return false; /* truncated: no sub-opcode to select a form with */
            int sf = isa_form_sub(form, sub);
            if (sf < 0) {
                char msg[80];
                snprintf(msg, sizeof msg, "unknown sub-opcode 0x%02x of %s", sub, isa_forms[form].name);
                fail(r, sat, msg);
                return false;
            }
            form = sf;
            c = isa_forms[form].layout - 1;
            if (r->igc1_cut) left += igc1_fields(isa_forms[form].layout);
            break;
        }
        case '#':
            list_count = u8(r, "list count");
            has_list = true;
            break;
        case '*':
            if (!has_list) list_count = 0;
            for (unsigned k = 0; k < list_count && nk < 80 && !r->err; k++) {
                if (!read_opnd(r, rt, &tmp[nk], c[1])) return false;
                kinds[nk++] = c[1];
            }
            c++;
            break;
        case '!': {
            /* the mode is the first integer field of the instruction (isa_mode_tail) */
            unsigned mode = 0;
            for (unsigned k = 0; k < nk; k++)
                if (strchr("bwd", kinds[k])) {
                    mode = (unsigned)tmp[k].u.num;
                    break;
                }
            char tail[32];
            for (const char *t = isa_mode_tail(isa_forms[form].opcode, mode, tail); *t && !r->err; t++) {
                if (!read_opnd(r, rt, &tmp[nk], *t)) return false;
                kinds[nk++] = *t;
            }
            break;
        }
        default:
            if (nk >= 80) {
                fail(r, at, "internal: too many operands");
                return false;
            }
            if (!read_opnd(r, rt, &tmp[nk], *c)) return false;
            kinds[nk++] = *c;
        }
    }
    if (r->err) return false;
    /* exec byte: a valid size code */
    if ((isa_layout_has(isa_forms[form].layout, 'E') ||
         (isa_forms[form].parent >= 0 && isa_layout_has(isa_forms[isa_forms[form].parent].layout, 'E'))) &&
        !ir_exec_code_valid(inst->exec)) {
        fail(r, exec_at, "invalid execution size code");
        return false;
    }
    if (inst->pred &&
        (ir_pred_id(inst->pred) == 0 || ir_pred_id(inst->pred) > rt->preds.len || !ir_pred_bits_valid(inst->pred))) {
        fail(r, pred_at, "invalid predicate");
        return false;
    }
    inst->form = (uint16_t)form;
    inst->nopnd = (uint16_t)nk;
    inst->opnd = nk ? ir_opnds_alloc(r->ctx, nk) : NULL;
    if (nk && !inst->opnd) {
        fail(r, at, "out of memory");
        return false;
    }
    if (nk) memcpy(inst->opnd, tmp, nk * sizeof(ir_opnd));
    return true;
}

/* -- Routines --------------------------------------------------------------------------------- */
/* The string pool: a count, then that many NUL-terminated strings. */
static bool read_strings(rd *sub, ir_routine *rt, size_t start) {
    uint32_t ns = id4(sub, "string count");
    if (!count_ok(sub, start, ns, 1, "string") || !vec_reserve(sub->ctx, &rt->strings, ns)) return false;
    for (uint32_t i = 0; i < ns && !sub->err; i++) {
        const uint8_t *s = sub->p + sub->pos;
        const uint8_t *e = memchr(s, 0, sub->len - sub->pos);
        if (!e) {
            fail(sub, sub->pos, "truncated string pool (a string has no terminating NUL)");
            return false;
        }
        if (ir_string_add(sub->ctx, rt, (const char *)s, (size_t)(e - s)) == UINT32_MAX) {
            fail(sub, sub->pos, "out of memory");
            return false;
        }
        sub->pos += (size_t)(e - s) + 1;
    }
    return true;
}

/* Variable i of the routine (its user variables are numbered from 0). */
static bool read_var(rd *sub, ir_routine *rt, uint32_t i) {
    ir_var v;
    memset(&v, 0, sizeof v);
    v.trivia.eol = -1;
    size_t at = sub->pos;
    v.name = id4(sub, "variable");
    if (!check_string(sub, rt, v.name, at, "variable name")) return false;
    /* 4.2 splits 4.1's packed type/alignment byte into a type byte and an alignment byte
    ** (docs/binary-format.md), so that type codes past 0xF fit */
    int t;
    if (sub->major == 4 && sub->minor >= 2) {
        t = isa_type_from_code(u8(sub, "variable"));
        v.align = u8(sub, "variable");
    } else {
        uint8_t bits = u8(sub, "variable");
        t = isa_type_from_code(bits & 0xF);
        v.align = bits >> 4;
    }
    if (!sub->err && (t < 0 || v.align > 9)) {
        fail(sub, at + 4, "invalid variable type or alignment");
        return false;
    }
    v.type = (uint8_t)(t < 0 ? 0 : t);
    v.num_elts = u16(sub, "variable");
    size_t aat = sub->pos;
    uint32_t alias = id4(sub, "variable alias");
    v.alias_off = u16(sub, "variable alias");
    uint8_t scope = u8(sub, "variable alias scope");
    if (sub->err) return false;
    if (scope) {
        fail(sub, aat + 6, "file-scope alias is not supported");
        return false;
    }
    if (!alias && v.alias_off) {
        fail(sub, aat + 4, "alias offset without an alias variable");
        return false;
    }
    if (alias) {
        /* the parent must already exist: predefined or an earlier variable */
        if (alias >= ISA_NUM_PREDEF_VARS + i || (alias >= isa_predef_var_count && alias < ISA_NUM_PREDEF_VARS)) {
            fail(sub, aat, "variable alias refers to an undefined variable");
            return false;
        }
        v.has_alias = 1;
        v.alias_id = alias;
    }
    unsigned na = u8(sub, "attribute count");
    if (!read_attrs(sub, rt, &v.attrs, na)) return false;
    rt->vars.data[rt->vars.len++] = v;
    return true;
}

static bool read_vars(rd *sub, ir_routine *rt) {
    size_t at = sub->pos;
    uint32_t nv = id4(sub, "variable count");
    if (!count_ok(sub, at, nv, 1, "variable") || !vec_reserve(sub->ctx, &rt->vars, nv)) return false;
    for (uint32_t i = 0; i < nv && !sub->err; i++)
        if (!read_var(sub, rt, i)) return false;
    return true;
}

static bool read_labels(rd *sub, ir_routine *rt) {
    size_t at = sub->pos;
    uint32_t nl = u16(sub, "label count");
    if (!count_ok(sub, at, nl, 1, "label") || !vec_reserve(sub->ctx, &rt->labels, nl)) return false;
    for (uint32_t i = 0; i < nl && !sub->err; i++) {
        ir_label l;
        memset(&l, 0, sizeof l);
        at = sub->pos;
        l.name = id4(sub, "label");
        if (!check_string(sub, rt, l.name, at, "label name")) return false;
        l.kind = u8(sub, "label");
        uint8_t na = u8(sub, "label");
        if (sub->err) return false;
        if (l.kind > 4 || na) {
            fail(sub, l.kind > 4 ? at + 4 : at + 5,
                 l.kind > 4 ? "invalid label kind" : "label attributes are not supported");
            return false;
        }
        l.defined = 1;
        rt->labels.data[rt->labels.len++] = l;
    }
    return true;
}

/* Samplers, surfaces and the (empty) VME list. */
static bool read_samplers_surfaces(rd *sub, ir_routine *rt) {
    size_t at = sub->pos;
    uint8_t nsamp = u8(sub, "sampler count");
    if (!sub->err && nsamp >= 32) {
        fail(sub, at, "sampler count must be below 32");
        return false;
    }
    if (!read_state_list(sub, rt, &rt->samplers, at, nsamp, "sampler")) return false;
    at = sub->pos;
    if (!read_state_list(sub, rt, &rt->surfaces, at, u8(sub, "surface count"), "surface")) return false;
    at = sub->pos;
    if (u8(sub, "vme count") && !sub->err) {
        fail(sub, at, "VME variables are not supported (count must be 0)");
        return false;
    }
    return true;
}

/* A kernel's inputs; *input_count_off: where their count stands, from the routine's start. */
static bool read_inputs(rd *sub, ir_routine *rt, size_t start, size_t *input_count_off) {
    size_t at = sub->pos;
    *input_count_off = sub->pos - start;
    uint32_t ni =
        (sub->major > 3 || (sub->major == 3 && sub->minor >= 5)) ? u32(sub, "input count") : u8(sub, "input count");
    if (!count_ok(sub, at, ni, 1, "input") || !vec_reserve(sub->ctx, &rt->inputs, ni)) return false;
    for (uint32_t i = 0; i < ni && !sub->err; i++) {
        ir_input in;
        memset(&in, 0, sizeof in);
        in.trivia.eol = -1;
        at = sub->pos;
        in.kind = u8(sub, "input");
        in.id = id4(sub, "input");
        in.offset = (int16_t)u16(sub, "input");
        in.size = u16(sub, "input");
        if (sub->err) return false;
        unsigned cls = in.kind & 7;
        bool bad = cls == IN_GENERAL   ? in.id >= ISA_NUM_PREDEF_VARS + rt->vars.len
                   : cls == IN_SAMPLER ? in.id >= rt->samplers.len
                   : cls == IN_SURFACE ? in.id >= ISA_NUM_PREDEF_SURFS + rt->surfaces.len
                                       : true;
        if (bad) {
            fail(sub, at + 1, "input refers to an undefined variable");
            return false;
        }
        in.implicit_syntax = (in.kind >> 3) != 0;
        rt->inputs.data[rt->inputs.len++] = in;
    }
    return true;
}

/* The routine's attributes (each read as an attribute list of one). */
static bool read_routine_attrs(rd *sub, ir_routine *rt) {
    size_t natt_at = sub->pos;
    uint32_t natt = u16(sub, "attribute count");
    if (!count_ok(sub, natt_at, natt, 1, "attribute") || !vec_reserve(sub->ctx, &rt->attrs, natt)) return false;
    for (uint32_t i = 0; i < natt && !sub->err; i++) {
        ir_attr_list tmp = {0, NULL};
        if (!read_attrs(sub, rt, &tmp, 1)) return false;
        ir_attr a = tmp.items[0];
        a.trivia.eol = -1;
        vx_free(sub->ctx, tmp.items, sizeof(ir_attr));
        rt->attrs.data[rt->attrs.len++] = a;
    }
    return true;
}

/* The instructions, up to `end` (bounded by the file's length file_len). */
static bool read_insts(rd *sub, ir_routine *rt, size_t end, size_t file_len) {
    sub->len = end <= file_len ? end : file_len; /* a cut file reads as truncated instructions */
    while (sub->pos < end && !sub->err) {
        ir_inst inst;
        if (!read_inst(sub, rt, &inst)) return false;
        if (!vec_push(sub->ctx, &rt->insts, inst)) {
            vx_free(sub->ctx, inst.opnd, inst.nopnd * sizeof(ir_opnd));
            fail(sub, inst.offset, "out of memory");
            return false;
        }
    }
    return true;
}

/* Read one routine object.  start/size come from the header; a size reaching past the end of the
** file shows up as a truncated field, and a size that does not match the object as read is
** reported at the header's size field (size_at). */
static bool read_routine(rd *r, ir_routine *rt, bool is_kernel, size_t start, size_t size, size_t size_at,
                         size_t *input_count_off) {
    rt->is_kernel = is_kernel;
    rt->trivia.eol = -1;
    rd sub = *r;
    /* a routine may not read past its own object (nor past the file) */
    sub.len = size <= r->len - start ? start + size : r->len;
    sub.pos = start;
    if (!read_strings(&sub, rt, start)) goto out;
    size_t at = sub.pos;
    rt->name = id4(&sub, "routine name");
    if (!check_string(&sub, rt, rt->name, at, "routine name")) goto out;
    if (!read_vars(&sub, rt)) goto out;
    at = sub.pos;
    if (!read_state_list(&sub, rt, &rt->addrs, at, u16(&sub, "address count"), "address variable")) goto out;
    at = sub.pos;
    if (!read_state_list(&sub, rt, &rt->preds, at, u16(&sub, "predicate count"), "predicate variable")) goto out;
    if (!read_labels(&sub, rt) || !read_samplers_surfaces(&sub, rt)) goto out;
    if (is_kernel && !read_inputs(&sub, rt, start, input_count_off)) goto out;
    at = sub.pos;
    uint32_t isize = u32(&sub, "instruction size");
    uint32_t entry = u32(&sub, "entry");
    if (!is_kernel) {
        rt->input_size = u8(&sub, "input size");
        rt->return_size = u8(&sub, "return size");
    }
    if (!read_routine_attrs(&sub, rt)) goto out;
    if (sub.err) goto out;
    if (entry != sub.pos - start) {
        char msg[120];
        snprintf(msg, sizeof msg, "entry offset %u does not match the header size %zu", entry, sub.pos - start);
        fail(&sub, at + 4, msg);
        goto out;
    }
    if (sub.pos + (uint64_t)isize != start + (uint64_t)size) {
        /* blame the field that disagrees with the file: a header size that fits the file makes
        ** the instruction size wrong, otherwise the header size is */
        if (start + (uint64_t)size <= r->len)
            fail(&sub, at, "instruction size does not match the routine size in the header");
        else
            fail(&sub, size_at,
                 "routine size in the header does not match the object (entry + "
                 "instruction size) or reaches outside the file");
        goto out;
    }
    size_t insts_at = sub.pos;
    if (!read_insts(&sub, rt, sub.pos + isize, r->len)) {
        r->inst_fail_at = sub.pos;
        r->insts_at = insts_at;
        r->insts_end = insts_at + isize;
        r->insts_read = rt->insts.len;
    }
out:
    r->err = sub.err;
    return !sub.err;
}

/* A kernel's native code (gen_binary_info rows at `at`: platform ub, offset ud, size ud), copied. */
static bool read_gen_binaries(rd *r, ir_routine *rt, size_t at, unsigned n) {
    if (!n) return true;
    if (!vec_reserve(r->ctx, &rt->gen_binaries, n)) {
        fail(r, at, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < n; i++, at += 9) {
        rd row = *r;
        row.pos = at;
        ir_gen_binary g = {u8(&row, "gen binary platform"), 0, NULL};
        size_t off = u32(&row, "gen binary offset");
        g.size = u32(&row, "gen binary size");
        if (off > r->len || r->len - off < g.size) {
            fail(r, at + 1, "gen binary lies outside the file");
            return false;
        }
        g.bytes = g.size ? vx_alloc(r->ctx, g.size) : NULL;
        if (g.size && !g.bytes) {
            fail(r, at, "out of memory");
            return false;
        }
        if (g.size) memcpy(g.bytes, r->p + off, g.size);
        rt->gen_binaries.data[rt->gen_binaries.len++] = g;
    }
    return true;
}

/* IGC 1.0.x wrote objects with native code whose instructions each lack their last fields (as
** many as the instruction has execution-size and predicate fields: its writer counted those among
** the operands), then left the rest of the instruction size as memory held it; nothing reads them
** back (IGC's own GenX_IR crashes on them).  Where a kernel with native code fails in its
** instructions, read them again cut that way (quietly, into the failed module): more of them
** reading so is the sign of that writer, and the note says so. */
static void igc1_note(rd *r, ir_routine *rt) {
    diag_sink quiet = *r->ds;
    quiet.suppressed = true;
    rd cut = *r;
    cut.ds = &quiet;
    cut.err = false;
    cut.igc1_cut = true;
    cut.pos = r->insts_at;
    uint32_t before = rt->insts.len;
    (void)read_insts(&cut, rt, r->insts_end, r->len);
    uint32_t n = rt->insts.len - before;
    if (n <= r->insts_read) return;
    diag_at_offset(r->ds, VISA_SEV_ERROR, "E-BIN-IGC1", r->insts_at,
                   "this kernel carries native code and its first %u instructions read only as IGC "
                   "1.0.x's writer cut them (it dropped as many trailing fields of each instruction "
                   "as it has exec-size and predicate fields): the operands are lost and the object "
                   "cannot be disassembled; use the .visaasm IGC dumped beside it",
                   n);
}

visa_status visa_module_decode(visa_ctx *ctx, const char *name, const void *bytes, size_t len, visa_platform platform,
                               visa_module **out) {
    if (!ctx || !out || (!bytes && len) || (unsigned)platform >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    *out = NULL;
    diag_sink ds;
    diag_init(&ds, ctx, name, NULL, 0);
    rd r;
    memset(&r, 0, sizeof r);
    r.p = bytes;
    r.len = len;
    r.ds = &ds;
    /* every allocation of the reader goes through the guard: one failure fails the decode */
    vx_guard guard;
    vx_guard_init(&guard, ctx, &ds);
    r.ctx = &guard.ctx;
    r.grf = visa_platform_grf_bytes(platform);
    visa_module *m = ir_module_new(ctx);
    if (!m) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    m->platform = platform;
    m->has_version = 1;
    ctx = &guard.ctx; /* m->ctx stays the caller's context */
    m->name = vx_strndup(ctx, ds.file, strlen(ds.file));
    uint32_t magic = u32(&r, "header");
    if (!r.err && magic != 0x41534943u) fail(&r, 0, "not a vISA object (bad magic, expected \"CISA\")");
    r.major = u8(&r, "header");
    r.minor = u8(&r, "header");
    if (!r.err && !(r.major == 4 && r.minor <= 2) && !(r.major == 3 && r.minor >= 4)) {
        char msg[120];
        snprintf(msg, sizeof msg, "unsupported object version %u.%u (this reader handles 3.4 to 4.2)", r.major,
                 r.minor);
        fail(&r, r.major == 4 || r.major == 3 ? 5 : 4, msg);
    }
    m->major = r.major;
    m->minor = r.minor;
    /* header tables */
    typedef struct entry {
        size_t off, size, off_at, size_at, input_off, input_off_at;
        size_t gen_at; /* the gen_binary_info table */
        unsigned ngen;
        bool kernel;
    } entry;
    VEC(entry) ents = {0};
    size_t nk_at = r.pos;
    uint32_t nk = u16(&r, "kernel count");
    for (int pass = 0; pass < 2 && !r.err; pass++) {
        if (pass == 1) {
            size_t at = r.pos;
            if (u16(&r, "file-scope variable count") && !r.err) {
                fail(&r, at, "file-scope variables are not supported (count must be 0)");
                break;
            }
            nk_at = r.pos;
            nk = u16(&r, "function count");
        }
        if (!count_ok(&r, nk_at, nk, 1, pass ? "function" : "kernel")) break;
        for (uint32_t i = 0; i < nk && !r.err; i++) {
            entry e;
            memset(&e, 0, sizeof e);
            e.kernel = pass == 0;
            if (pass == 1) u8(&r, "function linkage");
            bool old_names = r.major == 3 && r.minor < 7;
            uint32_t nl = old_names ? u8(&r, "name length") : u16(&r, "name length");
            if (!need(&r, nl, "routine name")) break;
            r.pos += nl;
            e.off_at = r.pos;
            e.off = u32(&r, "routine offset");
            e.size_at = r.pos;
            e.size = u32(&r, "routine size");
            if (pass == 0) {
                e.input_off_at = r.pos;
                e.input_off = u32(&r, "input offset");
            }
            for (int k = 0; k < 2 && !r.err; k++) {
                size_t sat = r.pos;
                if (u16(&r, "relocation symbol count") && !r.err)
                    fail(&r, sat, "relocation symbols are not supported (counts must be 0)");
            }
            if (pass == 0) {
                size_t ng_at = r.pos;
                unsigned ng = u8(&r, "gen binary count");
                if (!count_ok(&r, ng_at, ng, 1, "gen binary")) break;
                if (!need(&r, (size_t)ng * 9, "gen binary table")) break;
                e.gen_at = r.pos;
                e.ngen = ng;
                r.pos += (size_t)ng * 9;
            }
            if (!vec_push(ctx, &ents, e)) fail(&r, e.off_at, "out of memory");
        }
    }
    if (!r.err && !vec_reserve(ctx, &m->routines, ents.len)) fail(&r, 0, "out of memory");
    for (uint32_t i = 0; i < ents.len && !r.err; i++) {
        ir_routine *rt = &m->routines.data[m->routines.len++];
        memset(rt, 0, sizeof *rt);
        const entry *e = &ents.data[i];
        size_t input_count_off = 0;
        if (e->off > r.len || e->off < r.pos) {
            fail(&r, e->off_at, "routine offset lies outside the file or inside the header");
            break;
        }
        if (!read_routine(&r, rt, e->kernel, e->off, e->size, e->size_at, &input_count_off)) {
            if (e->ngen && r.inst_fail_at) igc1_note(&r, rt);
            continue;
        }
        if (!read_gen_binaries(&r, rt, e->gen_at, e->ngen)) break;
        if (e->kernel && e->input_off != e->off + input_count_off)
            fail(&r, e->input_off_at, "input offset in the header does not point at the input count");
        else if (!ir_routine_finalize_attrs(ctx, rt)) fail(&r, e->off, "out of memory");
    }
    vec_free(ctx, &ents);
    if (!r.err && !m->routines.len) fail(&r, 0, "object has no kernels or functions");
    if (r.err || guard.failed) {
        visa_module_destroy(m);
        if (guard.failed) return VISA_E_NOMEM;
        return ds.errors ? VISA_E_BINARY : VISA_E_NOMEM;
    }
    *out = m;
    return VISA_OK;
}
