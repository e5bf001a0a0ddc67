/* compare.c -- structural equality of modules (round-trip tests, fuzzers).  Source positions,
** binary offsets and comments are not compared, and neither are label names: IGC's printer
** rewrites them ('.' and '$' become '_', subroutines get a "_<id>" suffix), and instructions
** refer to labels by id.  Everything else the binary encodes is compared, but for the native code
** (gen binaries) a decoded kernel may carry, which text cannot hold. */
#include <string.h>

#include "ir.h"

static bool attrs_eq(const ir_attr_list *a, const ir_attr_list *b, const ir_routine *ra, const ir_routine *rb) {
    if (a->count != b->count) return false;
    for (uint16_t i = 0; i < a->count; i++) {
        const ir_attr *x = &a->items[i], *y = &b->items[i];
        if (strcmp(ir_str(ra, x->name), ir_str(rb, y->name)) || x->size != y->size || x->is_str != y->is_str ||
            memcmp(x->value, y->value, x->size))
            return false;
    }
    return true;
}

static bool state_eq(const ir_state_var *a, const ir_state_var *b, uint32_t n, const ir_routine *ra,
                     const ir_routine *rb, bool names) {
    for (uint32_t i = 0; i < n; i++) {
        if (a[i].num_elts != b[i].num_elts || !attrs_eq(&a[i].attrs, &b[i].attrs, ra, rb)) return false;
        if (names && strcmp(ir_str(ra, a[i].name), ir_str(rb, b[i].name))) return false;
    }
    return true;
}

static bool vec_eq(const ir_vec *a, const ir_vec *b) {
    if (a->cls != b->cls || a->mod != b->mod || a->id != b->id) return false;
    switch (a->cls) {
    case VC_GENERAL: return a->row == b->row && a->col == b->col && a->region == b->region;
    case VC_ADDRESS: return a->row == b->row && a->col == b->col;
    case VC_PREDICATE: return true;
    case VC_INDIRECT:
        return a->addr_elem == b->addr_elem && a->ind_off == b->ind_off && a->type == b->type && a->region == b->region;
    case VC_ADDROF: return a->row == b->row && a->col == b->col;
    case VC_IMMEDIATE: return a->type == b->type && a->imm == b->imm;
    case VC_STATE: return a->state_cls == b->state_cls && a->row == b->row;
    default: return false;
    }
}

static bool opnd_eq(const ir_opnd *a, const ir_opnd *b, const ir_routine *ra, const ir_routine *rb) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case 'V':
    case 'v':
    case '&': return vec_eq(&a->u.vec, &b->u.vec);
    case 'R': return a->u.raw.id == b->u.raw.id && a->u.raw.offset == b->u.raw.offset;
    case 'L': return a->u.label == b->u.label;
    case 's':
    case 'S': {
        /* call targets print with '.' and '$' rewritten to '_' (IGC) */
        const char *x = ir_str(ra, a->u.str), *y = ir_str(rb, b->u.str);
        for (; *x && *y; x++, y++)
            if (*x != *y && !((*x == '.' || *x == '$' || *x == '_') && (*y == '.' || *y == '$' || *y == '_')))
                return false;
        return *x == *y;
    }
    default: return a->u.num == b->u.num;
    }
}

/* Routine names print with '.' replaced by ' ' (IGC), so the two are one character here. */
static bool routine_name_eq(const char *x, const char *y) {
    for (; *x && *y; x++, y++)
        if (*x != *y && !((*x == '.' || *x == ' ') && (*y == '.' || *y == ' '))) return false;
    return *x == *y;
}

static bool routine_eq(const ir_routine *a, const ir_routine *b) {
    if (a->is_kernel != b->is_kernel || !routine_name_eq(ir_str(a, a->name), ir_str(b, b->name)) ||
        a->vars.len != b->vars.len || a->addrs.len != b->addrs.len || a->preds.len != b->preds.len ||
        a->samplers.len != b->samplers.len || a->surfaces.len != b->surfaces.len || a->labels.len != b->labels.len ||
        a->inputs.len != b->inputs.len || a->attrs.len != b->attrs.len || a->insts.len != b->insts.len ||
        a->input_size != b->input_size || a->return_size != b->return_size)
        return false;
    for (uint32_t i = 0; i < a->vars.len; i++) {
        const ir_var *x = &a->vars.data[i], *y = &b->vars.data[i];
        if (strcmp(ir_str(a, x->name), ir_str(b, y->name)) || x->type != y->type || x->align != y->align ||
            x->num_elts != y->num_elts || x->has_alias != y->has_alias || x->alias_id != y->alias_id ||
            x->alias_off != y->alias_off || !attrs_eq(&x->attrs, &y->attrs, a, b))
            return false;
    }
    if (!state_eq(a->addrs.data, b->addrs.data, a->addrs.len, a, b, false) ||
        !state_eq(a->preds.data, b->preds.data, a->preds.len, a, b, false) ||
        !state_eq(a->samplers.data, b->samplers.data, a->samplers.len, a, b, true) ||
        !state_eq(a->surfaces.data, b->surfaces.data, a->surfaces.len, a, b, true))
        return false;
    for (uint32_t i = 0; i < a->labels.len; i++)
        if (a->labels.data[i].kind != b->labels.data[i].kind) return false;
    for (uint32_t i = 0; i < a->inputs.len; i++) {
        const ir_input *x = &a->inputs.data[i], *y = &b->inputs.data[i];
        if (x->kind != y->kind || x->id != y->id || x->offset != y->offset || x->size != y->size) return false;
    }
    for (uint32_t i = 0; i < a->attrs.len; i++) {
        const ir_attr *x = &a->attrs.data[i], *y = &b->attrs.data[i];
        if (strcmp(ir_str(a, x->name), ir_str(b, y->name)) || x->size != y->size || x->is_str != y->is_str ||
            memcmp(x->value, y->value, x->size))
            return false;
    }
    for (uint32_t i = 0; i < a->insts.len; i++) {
        const ir_inst *x = &a->insts.data[i], *y = &b->insts.data[i];
        if (x->form != y->form || x->exec != y->exec || x->pred != y->pred || x->nopnd != y->nopnd) return false;
        for (unsigned k = 0; k < x->nopnd; k++)
            if (!opnd_eq(&x->opnd[k], &y->opnd[k], a, b)) return false;
    }
    return true;
}

bool ir_module_equal(const visa_module *a, const visa_module *b) {
    if (a->major != b->major || a->minor != b->minor || a->routines.len != b->routines.len) return false;
    for (uint32_t i = 0; i < a->routines.len; i++)
        if (!routine_eq(&a->routines.data[i], &b->routines.data[i])) return false;
    return true;
}
