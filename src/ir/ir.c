/* ir.c -- module IR construction and teardown helpers. */
#include "ir.h"

#include <stdatomic.h>
#include <string.h>

static const uint8_t region_values[8] = {0, 0, 1, 2, 4, 8, 16, 32};

int ir_region_code(unsigned value) {
    for (int c = 1; c < 8; c++)
        if (region_values[c] == value) return c;
    return -1;
}

unsigned ir_region_value(unsigned code) { return code < 8 ? region_values[code] : 0; }

visa_module *ir_module_new(visa_ctx *ctx) {
    visa_module *m = vx_alloc(ctx, sizeof *m);
    if (!m) return NULL;
    m->ctx = ctx;
    m->major = 4;
    m->minor = 1;
    m->platform = VISA_PLATFORM_XE2;
    m->dialect = VISA_DIALECT_IGC2;
    m->version_trivia.eol = -1;
    m->tail_trivia.eol = -1;
    return m;
}

static void attrs_free(visa_ctx *ctx, ir_attr_list *l) { vx_free(ctx, l->items, (size_t)l->count * sizeof *l->items); }

void ir_routine_free(visa_ctx *ctx, ir_routine *r) {
    for (uint32_t i = 0; i < r->strings.len; i++) vx_free(ctx, r->strings.data[i].s, r->strings.data[i].len + 1);
    vec_free(ctx, &r->strings);
    for (uint32_t i = 0; i < r->vars.len; i++) attrs_free(ctx, &r->vars.data[i].attrs);
    vec_free(ctx, &r->vars);
    ir_state_var *const lists[4] = {r->addrs.data, r->preds.data, r->samplers.data, r->surfaces.data};
    const uint32_t lens[4] = {r->addrs.len, r->preds.len, r->samplers.len, r->surfaces.len};
    for (int k = 0; k < 4; k++)
        for (uint32_t i = 0; i < lens[k]; i++) attrs_free(ctx, &lists[k][i].attrs);
    vec_free(ctx, &r->addrs);
    vec_free(ctx, &r->preds);
    vec_free(ctx, &r->samplers);
    vec_free(ctx, &r->surfaces);
    vec_free(ctx, &r->labels);
    vec_free(ctx, &r->inputs);
    vec_free(ctx, &r->attrs);
    for (uint32_t i = 0; i < r->insts.len; i++)
        vx_free(ctx, r->insts.data[i].opnd, (size_t)r->insts.data[i].nopnd * sizeof(ir_opnd));
    vec_free(ctx, &r->insts);
    for (uint32_t i = 0; i < r->gen_binaries.len; i++)
        vx_free(ctx, r->gen_binaries.data[i].bytes, r->gen_binaries.data[i].size);
    vec_free(ctx, &r->gen_binaries);
    vec_free(ctx, &r->funcdecls);
}

void visa_module_destroy(visa_module *m) {
    if (!m) return;
    visa_ctx *ctx = m->ctx;
    vx_cached *prepared = atomic_load(&m->prepared);
    if (prepared) prepared->release(ctx, prepared);
    for (uint32_t i = 0; i < m->routines.len; i++) ir_routine_free(ctx, &m->routines.data[i]);
    vec_free(ctx, &m->routines);
    for (uint32_t i = 0; i < m->comments.len; i++) vx_free(ctx, m->comments.data[i].text, m->comments.data[i].len + 1);
    vec_free(ctx, &m->comments);
    if (m->name) vx_free(ctx, m->name, strlen(m->name) + 1);
    vx_free(ctx, m, sizeof *m);
}

int ir_find_function(const visa_module *m, const char *name) {
    for (uint32_t i = 0; i < m->routines.len; i++) {
        const ir_routine *c = &m->routines.data[i];
        if (!c->is_kernel && !strcmp(ir_str(c, c->name), name)) return (int)i;
    }
    return -1;
}

const ir_routine *ir_find_kernel(const visa_module *m, const char *name) {
    for (uint32_t i = 0; m && i < m->routines.len; i++) {
        const ir_routine *c = &m->routines.data[i];
        if (c->is_kernel && (!name || !strcmp(ir_str(c, c->name), name))) return c;
    }
    return NULL;
}

uint32_t ir_attr_u32(const ir_routine *r, const char *name, uint32_t dflt) {
    for (uint32_t i = 0; i < r->attrs.len; i++) {
        const ir_attr *a = &r->attrs.data[i];
        if (strcmp(ir_str(r, a->name), name) || a->is_str || !a->size) continue;
        uint32_t v = 0;
        for (int k = a->size - 1; k >= 0; k--) v = (v << 8) | a->value[k];
        return v;
    }
    return dflt;
}

size_t visa_module_routine_count(const visa_module *m) { return m ? m->routines.len : 0; }

const char *visa_module_name(const visa_module *m) { return m && m->name ? m->name : "<module>"; }

const char *visa_module_routine_name(const visa_module *m, size_t index, bool *is_kernel) {
    if (!m || index >= m->routines.len) return NULL;
    const ir_routine *r = &m->routines.data[index];
    if (is_kernel) *is_kernel = r->is_kernel;
    return ir_str(r, r->name);
}

uint32_t ir_string_add(visa_ctx *ctx, ir_routine *r, const char *s, size_t len) {
    ir_string str;
    str.s = vx_strndup(ctx, s, len);
    str.len = (uint32_t)len;
    if (!str.s || !vec_push(ctx, &r->strings, str)) {
        if (str.s) vx_free(ctx, str.s, len + 1);
        return UINT32_MAX;
    }
    return r->strings.len - 1;
}

const char *ir_str(const ir_routine *r, uint32_t index) {
    return index < r->strings.len ? r->strings.data[index].s : "";
}

ir_opnd *ir_opnds_alloc(visa_ctx *ctx, unsigned n) { return vx_alloc(ctx, n * sizeof(ir_opnd)); }

bool ir_attr_list_push(visa_ctx *ctx, ir_attr_list *list, const ir_attr *a) {
    ir_attr *p = vx_realloc(ctx, list->items, (size_t)list->count * sizeof *p, (size_t)(list->count + 1) * sizeof *p);
    if (!p) return false;
    p[list->count++] = *a;
    list->items = p;
    return true;
}

bool ir_routine_finalize_attrs(visa_ctx *ctx, ir_routine *r) {
    for (uint32_t i = 0; i < r->attrs.len; i++)
        if (!strcmp(ir_str(r, r->attrs.data[i].name), "Target")) return true;
    ir_attr a;
    memset(&a, 0, sizeof a);
    a.trivia.eol = -1;
    a.name = ir_string_add(ctx, r, "Target", 6);
    a.size = 1;
    a.value[0] = 0; /* CM */
    return a.name != UINT32_MAX && vec_push(ctx, &r->attrs, a);
}

uint32_t ir_addrof_bytes(const ir_routine *r, const ir_vec *v, unsigned grf_bytes) {
    int t = ir_var_type(r, v->id);
    return (uint32_t)v->row * grf_bytes + (uint32_t)v->col * (t >= 0 ? isa_types[t].bytes : 1u);
}

int ir_var_type(const ir_routine *r, uint32_t id) {
    if (id < isa_predef_var_count) return isa_predef_vars[id].type;
    if (id < ISA_NUM_PREDEF_VARS) return -1;
    id -= ISA_NUM_PREDEF_VARS;
    return id < r->vars.len ? r->vars.data[id].type : -1;
}

uint32_t ir_var_bytes(const ir_routine *r, uint32_t id) {
    if (id < isa_predef_var_count) return isa_predef_vars[id].num_elts * isa_types[isa_predef_vars[id].type].bytes;
    if (id < ISA_NUM_PREDEF_VARS) return 0;
    id -= ISA_NUM_PREDEF_VARS;
    if (id >= r->vars.len) return 0;
    return (uint32_t)r->vars.data[id].num_elts * isa_types[r->vars.data[id].type].bytes;
}
