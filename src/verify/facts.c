/* facts.c -- what the verifier's rules ask about: the variables of the routine being checked
** (types, sizes, names, alias roots) and the operand facts of forms (src/isa/opfacts.def).
*/
#include <stdio.h>

#include "dp_layout.h"
#include "verify_int.h"

/* -- Variables ------------------------------------------------------------------------------- */
bool vf_var_exists(const vf *v, uint32_t id) {
    if (id < ISA_NUM_PREDEF_VARS) return id < isa_predef_var_count;
    return id - ISA_NUM_PREDEF_VARS < v->r->vars.len;
}

int vf_var_type(const vf *v, uint32_t id) {
    if (!vf_var_exists(v, id)) return -1;
    if (id < ISA_NUM_PREDEF_VARS) return isa_predef_vars[id].type;
    return v->r->vars.data[id - ISA_NUM_PREDEF_VARS].type;
}

uint32_t vf_var_bytes(const vf *v, uint32_t id) {
    if (!vf_var_exists(v, id)) return 0;
    if (id == VISA_PREDEF_ARG) return 32 * v->grf; /* %arg: 32 GRFs (256 dwords before PVC, 512 from PVC) */
    if (id == VISA_PREDEF_RETVAL) return 12 * v->grf; /* %retval: 12 GRFs */
    /* %r0 is the thread's r0, one GRF (IGC's builtinR0: one GRF of ud, BuildIRImpl.cpp
    ** createBuiltinDecls), though the predefined table declares it 8 x ud */
    if (id == VISA_PREDEF_R0) return v->grf;
    int t = vf_var_type(v, id);
    if (t < 0 || t >= VISA_TYPE__COUNT) return 0;
    uint32_t n =
        id < ISA_NUM_PREDEF_VARS ? isa_predef_vars[id].num_elts : v->r->vars.data[id - ISA_NUM_PREDEF_VARS].num_elts;
    return n * isa_types[t].bytes;
}

const char *vf_var_name(const vf *v, uint32_t id, char *buf, size_t n) {
    if (id < ISA_NUM_PREDEF_VARS && id < isa_predef_var_count) return isa_predef_vars[id].name;
    if (vf_var_exists(v, id)) {
        const char *s = ir_str(v->r, v->r->vars.data[id - ISA_NUM_PREDEF_VARS].name);
        if (*s) return s;
    }
    snprintf(buf, n, "V%u", (unsigned)id);
    return buf;
}

bool vf_var_root(const vf *v, uint32_t id, uint32_t *root, uint32_t *offset) {
    uint32_t off = 0;
    for (unsigned steps = 0; steps <= v->r->vars.len + 1; steps++) {
        if (!vf_var_exists(v, id)) return false;
        if (id < ISA_NUM_PREDEF_VARS) break;
        const ir_var *x = &v->r->vars.data[id - ISA_NUM_PREDEF_VARS];
        if (!x->has_alias || x->alias_id == 0) break;
        off += x->alias_off;
        id = x->alias_id;
        if (steps == v->r->vars.len + 1) return false; /* cycle */
    }
    *root = id;
    *offset = off;
    return true;
}

/* -- Operand facts (src/isa/opfacts.def) ------------------------------------------------------ */
typedef struct opclass_row {
    int form;
    const char *classes;
} opclass_row;

static const opclass_row opclass_rows[] = {
#define VISA_OPCLASS(N, classes) {VISA_FORM_##N, classes},
#include "opfacts.def"
};

static const opclass_row igc_opclass_rows[] = {
#define VISA_IGC_OPCLASS(N, classes) {VISA_FORM_##N, classes},
#include "opfacts.def"
};

typedef struct form_num {
    int form;
    int n;
} form_num;

static const form_num surface_rows[] = {
#define VISA_SURFACE_OPND(N, k) {VISA_FORM_##N, k},
#include "opfacts.def"
};

typedef struct msg_field {
    int form, field, k;
} msg_field;

static const msg_field field_rows[] = {
#define VISA_MSG_FIELD(N, field, k) {VISA_FORM_##N, MF_##field, k},
#include "opfacts.def"
};

typedef struct plat_gap {
    int form;
    unsigned from, to;
} plat_gap;

static const plat_gap gap_rows[] = {
#define VISA_PLAT_GAP(N, from, to) {VISA_FORM_##N, from, to},
#include "opfacts.def"
};

typedef struct igc_exec {
    int form;
    unsigned from, to, ex;
} igc_exec;

static const igc_exec igc_exec_rows[] = {
#define VISA_IGC_EXEC(N, from, to, ex) {VISA_FORM_##N, from, to, ex},
#include "opfacts.def"
};

static const int madm_rows[] = {
#define VISA_NEEDS_MADM(N) VISA_FORM_##N,
#include "opfacts.def"
};

static const form_num igc_typeset_rows[] = {
#define VISA_IGC_TYPESET(N, set) {VISA_FORM_##N, set},
#include "opfacts.def"
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

unsigned vf_form_igc_typeset(int form, unsigned plat) {
    for (size_t i = 0; i < COUNT(igc_typeset_rows); i++) {
        if (igc_typeset_rows[i].form != form) continue;
        const unsigned set = (unsigned)igc_typeset_rows[i].n;
        for (unsigned m = 0; m < isa_typemap_count; m++)
            if (isa_typemaps[m].set == set && plat >= isa_typemaps[m].plat_min && plat <= isa_typemaps[m].plat_max)
                return set;
    }
    return TM_NONE;
}

static bool alu_group(int form) {
    unsigned g = isa_form_group(form);
    return g == G_MOV || g == G_ARITH || g == G_LOGIC || g == G_COMPARE || g == G_ADDRESS;
}

int vf_form_surface_opnd(int form) {
    for (size_t i = 0; i < COUNT(surface_rows); i++)
        if (surface_rows[i].form == form) return surface_rows[i].n;
    return -1;
}

int vf_form_msg_field(int form, int field) {
    for (size_t i = 0; i < COUNT(field_rows); i++)
        if (field_rows[i].form == form && field_rows[i].field == field) return field_rows[i].k;
    return -1;
}

/* Group vk of a row's classes ("GI GIM ...") as OC_* bits; 0 past the last group. */
static unsigned classes_at(const char *p, unsigned vk) {
    for (unsigned k = 0; k < vk && *p; k++) { /* skip vk groups */
        while (*p && *p != ' ') p++;
        while (*p == ' ') p++;
    }
    unsigned m = 0;
    for (; *p && *p != ' '; p++)
        m |= *p == 'G'   ? OC_G
             : *p == 'I' ? OC_I
             : *p == 'M' ? OC_M
             : *p == 'P' ? OC_P
             : *p == 'A' ? OC_A
             : *p == 'S' ? OC_S
                         : 0;
    return m;
}

unsigned vf_opnd_classes(int form, unsigned vk) {
    for (size_t i = 0; i < COUNT(opclass_rows); i++)
        if (opclass_rows[i].form == form) return classes_at(opclass_rows[i].classes, vk);
    if (!alu_group(form)) return 0;
    return vk < isa_form_ndst(form) ? OC_G | OC_I : OC_G | OC_I | OC_M;
}

unsigned vf_opnd_igc_classes(int form, unsigned vk) {
    for (size_t i = 0; i < COUNT(igc_opclass_rows); i++)
        if (igc_opclass_rows[i].form == form) return classes_at(igc_opclass_rows[i].classes, vk);
    return vf_opnd_classes(form, vk);
}

unsigned vf_form_igc_exec(int form, unsigned plat) {
    for (size_t i = 0; i < COUNT(igc_exec_rows); i++)
        if (igc_exec_rows[i].form == form && plat >= igc_exec_rows[i].from && plat <= igc_exec_rows[i].to)
            return igc_exec_rows[i].ex;
    return EX_ALL;
}

bool vf_form_needs_madm(int form) {
    for (size_t i = 0; i < COUNT(madm_rows); i++)
        if (madm_rows[i] == form) return true;
    return false;
}

bool vf_form_on_platform(int form, unsigned plat) {
    if (plat < isa_forms[form].plat) return false;
    if (vf_form_needs_madm(form) && !isa_platform_has(plat, PF_MADM)) return false;
    if (isa_forms[form].parent >= 0 && plat < isa_forms[isa_forms[form].parent].plat) return false;
    for (size_t i = 0; i < COUNT(gap_rows); i++)
        if (gap_rows[i].form == form && plat >= gap_rows[i].from && plat <= gap_rows[i].to) return false;
    return true;
}
