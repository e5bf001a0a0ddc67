/* isa.c -- expands the .def tables into const data and small lookups.  Owns no state. */
#include "isa.h"

#include <string.h>

const isa_type_info isa_types[VISA_TYPE__COUNT] = {
#define VISA_TYPE(N, text, code, bytes, cls) {text, code, bytes, cls},
#include "types.def"
#undef VISA_TYPE
};

int isa_type_from_code(unsigned code) {
    for (int i = 0; i < VISA_TYPE__COUNT; i++)
        if (isa_types[i].code == code) return i;
    return -1;
}

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

int isa_type_from_name(const char *s, size_t len) {
    for (int i = 0; i < VISA_TYPE__COUNT; i++) {
        const char *n = isa_types[i].name;
        size_t k = 0;
        while (k < len && n[k] && lower((unsigned char)s[k]) == n[k]) k++;
        if (k == len && n[k] == 0) return i;
    }
    return -1;
}

/* -- Predefined ------------------------------------------------------------------------------ */
const isa_predef_var isa_predef_vars[] = {
#define VISA_PREDEF_VAR(id, ID, name, type, n, access) [id] = {name, VISA_TYPE_##type, access, n},
#define VISA_PREDEF_SURF(id, ID, name, hw)
#include "predefined.def"
#undef VISA_PREDEF_VAR
#undef VISA_PREDEF_SURF
};
const unsigned isa_predef_var_count = sizeof isa_predef_vars / sizeof isa_predef_vars[0];

const char *const isa_predef_surf_names[ISA_NUM_PREDEF_SURFS] = {
#define VISA_PREDEF_VAR(id, ID, name, type, n, access)
#define VISA_PREDEF_SURF(id, ID, name, hw) [id] = name,
#include "predefined.def"
#undef VISA_PREDEF_VAR
#undef VISA_PREDEF_SURF
};

/* -- Enums ----------------------------------------------------------------------------------- */
typedef struct enum_val {
    uint8_t en;
    bool has_attr; /* a VISA_ENUM_ID row */
    int16_t attr;
    uint8_t len; /* of text: the lookups compare lengths first */
    uint32_t value;
    const char *text;
} enum_val;

static const enum_val enum_vals[] = {
#define VISA_ENUM(name, desc)
#define VISA_ENUM_VAL(name, value, text) {VISA_EN_##name, false, 0, sizeof(text) - 1, value, text},
#define VISA_ENUM_ID(name, id, value, text, attr) {VISA_EN_##name, true, attr, sizeof(text) - 1, value, text},
#include "enums.def"
#undef VISA_ENUM
#undef VISA_ENUM_VAL
#undef VISA_ENUM_ID
};
static const char *const enum_names[] = {
#define VISA_ENUM(name, desc) #name,
#define VISA_ENUM_VAL(name, value, text)
#define VISA_ENUM_ID(name, id, value, text, attr)
#include "enums.def"
#undef VISA_ENUM
#undef VISA_ENUM_VAL
#undef VISA_ENUM_ID
};
#define N_ENUM_VALS (sizeof enum_vals / sizeof enum_vals[0])

/* enums.def lists each enum's rows together, in the enums' order (isa_enum_table_sorted checks
** it), so an enum's rows start where a binary search on en finds them. */
static size_t enum_first(isa_enum_id en) {
    size_t lo = 0, hi = N_ENUM_VALS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (enum_vals[mid].en < en) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

bool isa_enum_table_sorted(void) {
    for (size_t i = 1; i < N_ENUM_VALS; i++)
        if (enum_vals[i].en < enum_vals[i - 1].en) return false;
    return true;
}

const char *isa_enum_text(isa_enum_id en, uint32_t value) {
    for (size_t i = enum_first(en); i < N_ENUM_VALS && enum_vals[i].en == en; i++)
        if (enum_vals[i].value == value) return enum_vals[i].text;
    return NULL;
}

bool isa_enum_parse(isa_enum_id en, const char *s, size_t len, uint32_t *value) {
    for (size_t i = enum_first(en); i < N_ENUM_VALS && enum_vals[i].en == en; i++) {
        const enum_val *e = &enum_vals[i];
        if (e->len == len && memcmp(e->text, s, len) == 0) {
            *value = e->value;
            return true;
        }
    }
    return false;
}

size_t isa_enum_longest_at(isa_enum_id en, const char *p, bool (*stop)(char next), uint32_t *value) {
    size_t best = 0;
    for (size_t i = enum_first(en); i < N_ENUM_VALS && enum_vals[i].en == en; i++) {
        const enum_val *e = &enum_vals[i];
        if (e->len > best && e->text[0] == p[0] && strncmp(p, e->text, e->len) == 0 && (!stop || stop(p[e->len]))) {
            best = e->len;
            *value = e->value;
        }
    }
    return best;
}

int isa_enum_by_name(const char *s, size_t len) {
    for (int i = 0; i < VISA_EN__COUNT; i++)
        if (strlen(enum_names[i]) == len && memcmp(enum_names[i], s, len) == 0) return i;
    return -1;
}

int isa_enum_attr(isa_enum_id en, uint32_t value) {
    for (size_t i = enum_first(en); i < N_ENUM_VALS && enum_vals[i].en == en; i++)
        if (enum_vals[i].value == value && enum_vals[i].has_attr) return enum_vals[i].attr;
    return -1;
}

uint32_t isa_align_bytes(unsigned code, uint32_t grf) {
    if (code == VISA_ALIGN_GRF) return grf;
    if (code == VISA_ALIGN_2GRF) return 2 * grf;
    int b = isa_enum_attr(VISA_EN_align, code);
    return b > 0 ? (uint32_t)b : 1;
}

bool isa_enum_at(isa_enum_id en, unsigned i, uint32_t *value, const char **text) {
    size_t j = enum_first(en) + i;
    if (j >= N_ENUM_VALS || enum_vals[j].en != en) return false;
    *value = enum_vals[j].value;
    *text = enum_vals[j].text;
    return true;
}

/* -- Type sets (typemaps.def) ------------------------------------------------------------------ */
_Static_assert(TM_NONE == 0, "TM_NONE must be the first VISA_TMSET row of typemaps.def");
_Static_assert(TM__COUNT <= 0xFFFF, "isa_form.typeset is 16 bits");
_Static_assert(VISA_TYPE__COUNT <= 32, "type masks are 32 bits");

const isa_typemap isa_typemaps[] = {
#define VISA_TMSET(N, what)
#define VISA_TM(N, plat_min, plat_max, dst, src) {N, plat_min, plat_max, (uint32_t)(dst), (uint32_t)(src)},
#include "typemaps.def"
#undef VISA_TMSET
#undef VISA_TM
};
const unsigned isa_typemap_count = sizeof isa_typemaps / sizeof isa_typemaps[0];

static const char *const typeset_names[TM__COUNT] = {
#define VISA_TMSET(N, what) #N,
#define VISA_TM(N, plat_min, plat_max, dst, src)
#include "typemaps.def"
#undef VISA_TMSET
#undef VISA_TM
};
static const char *const typeset_whats[TM__COUNT] = {
#define VISA_TMSET(N, what) what,
#define VISA_TM(N, plat_min, plat_max, dst, src)
#include "typemaps.def"
#undef VISA_TMSET
#undef VISA_TM
};
const char *isa_typeset_name(unsigned typeset) { return typeset < TM__COUNT ? typeset_names[typeset] : NULL; }

const char *isa_typeset_what(unsigned typeset) { return typeset < TM__COUNT ? typeset_whats[typeset] : NULL; }

unsigned isa_typeset_map_count(unsigned typeset) {
    unsigned n = 0;
    for (unsigned i = 0; i < isa_typemap_count; i++) n += isa_typemaps[i].set == typeset;
    return n;
}

/* Type bits a source of this type may match: packed immediates stand for their element types. */
static uint32_t src_type_bits(unsigned type) {
    switch (type) {
    case VISA_TYPE_V: return VT_B | VT_W | VT_D | VT_Q;
    case VISA_TYPE_UV: return VT_UB | VT_UW | VT_UD | VT_UQ;
    case VISA_TYPE_VF: return VT_F;
    default: return 1u << type;
    }
}

static bool map_applies(const isa_typemap *m, unsigned typeset, unsigned platform) {
    return m->set == typeset && platform >= m->plat_min && platform <= m->plat_max;
}

bool isa_type_legal(unsigned typeset, unsigned platform, bool dst, unsigned type) {
    if (typeset >= TM__COUNT || platform >= P__COUNT || type >= VISA_TYPE__COUNT) return false;
    if (typeset == TM_NONE) return true;
    uint32_t bits = dst ? 1u << type : src_type_bits(type);
    for (unsigned i = 0; i < isa_typemap_count; i++) {
        const isa_typemap *m = &isa_typemaps[i];
        if (map_applies(m, typeset, platform) && ((dst ? m->dst : m->src) & bits)) return true;
    }
    return false;
}

bool isa_types_legal(unsigned typeset, unsigned platform, int dst_type, uint32_t src_types) {
    if (typeset >= TM__COUNT || platform >= P__COUNT || dst_type >= VISA_TYPE__COUNT ||
        (src_types >> VISA_TYPE__COUNT) != 0)
        return false;
    if (typeset == TM_NONE) return true;
    for (unsigned i = 0; i < isa_typemap_count; i++) {
        const isa_typemap *m = &isa_typemaps[i];
        if (!map_applies(m, typeset, platform)) continue;
        if (dst_type >= 0 && !(m->dst & (1u << dst_type))) continue;
        bool ok = true;
        for (unsigned t = 0; ok && t < VISA_TYPE__COUNT; t++)
            if ((src_types & (1u << t)) && !(m->src & src_type_bits(t))) ok = false;
        if (ok) return true;
    }
    return false;
}

typedef struct text_buf {
    char *p;
    size_t size, len;
} text_buf;

static void tb_put(text_buf *b, const char *s) {
    size_t n = strlen(s);
    if (b->size && b->len < b->size - 1) {
        size_t room = b->size - 1 - b->len;
        memcpy(b->p + b->len, s, n < room ? n : room);
    }
    b->len += n;
}

static void tb_types(text_buf *b, uint32_t mask) {
    if (!mask) {
        tb_put(b, " -");
        return;
    }
    for (unsigned t = 0; t < VISA_TYPE__COUNT; t++)
        if (mask & (1u << t)) {
            tb_put(b, " ");
            tb_put(b, isa_types[t].name);
        }
}

size_t isa_typeset_describe(unsigned typeset, char *buf, size_t size) {
    text_buf b = {buf, buf ? size : 0, 0};
    if (typeset >= TM__COUNT) {
        tb_put(&b, "(unknown type set)\n");
    } else {
        tb_put(&b, typeset_names[typeset]);
        tb_put(&b, ": ");
        tb_put(&b, typeset_whats[typeset]);
        tb_put(&b, "\n");
        for (unsigned i = 0; i < isa_typemap_count; i++) {
            const isa_typemap *m = &isa_typemaps[i];
            if (m->set != typeset) continue;
            char plats[40] = "";
            size_t k = 0;
            const char *lo = visa_platform_name((visa_platform)m->plat_min);
            const char *hi = visa_platform_name((visa_platform)m->plat_max);
            if (m->plat_min == P_MIN && m->plat_max == P_MAX) k = strlen(strcpy(plats, "all"));
            else if (m->plat_min == m->plat_max) k = strlen(strcpy(plats, lo));
            else if (m->plat_max == P_MAX) k = strlen(strcat(strcpy(plats, lo), "+"));
            else k = strlen(strcat(strcat(strcpy(plats, lo), "-"), hi));
            while (k < 12) plats[k++] = ' ';
            plats[k] = 0;
            tb_put(&b, "  ");
            tb_put(&b, plats);
            tb_put(&b, " dst");
            tb_types(&b, m->dst);
            tb_put(&b, " <- src");
            tb_types(&b, m->src);
            tb_put(&b, "\n");
        }
    }
    if (b.size) b.p[b.len < b.size - 1 ? b.len : b.size - 1] = 0;
    return b.len;
}

/* -- Instruction table ------------------------------------------------------------------------ */
const isa_form isa_forms[VISA_FORM__COUNT] = {
#define VISA_OP(N, code, mnem, grp, layout, text, hook, flags, ts, plat, ex, sem) \
    {#N, mnem, layout, text, sem, flags, ts, -1, -1, code, grp, hook, plat, ex},
#define VISA_SUB(P, N, sub, mnem, layout, text, hook, flags, ts, plat, ex, sem) \
    {#N, mnem, layout, text, sem, flags, ts, VISA_FORM_##P, sub, VISA_OP_##P, GROUP_OF_PARENT, hook, plat, ex},
#define GROUP_OF_PARENT 0xFF /* resolved by isa_form_group() */
#include "ops.def"
#undef VISA_OP
#undef VISA_SUB
};

/* Opcode byte -> opcode form + 1 (0 = unknown). */
static const int16_t form_of_opcode[256] = {
#define VISA_OP(N, code, mnem, grp, layout, text, hook, flags, ts, plat, ex, sem) [code] = VISA_FORM_##N + 1,
#define VISA_SUB(P, N, sub, mnem, layout, text, hook, flags, ts, plat, ex, sem)
#include "ops.def"
#undef VISA_OP
#undef VISA_SUB
};

int isa_form_by_opcode(unsigned opcode) { return opcode < 256 ? form_of_opcode[opcode] - 1 : -1; }

int isa_form_sub(int parent_form, unsigned sub) {
    for (int i = parent_form + 1; i < VISA_FORM__COUNT && isa_forms[i].parent == parent_form; i++)
        if ((unsigned)isa_forms[i].sub == sub) return i;
    return -1;
}

unsigned isa_form_group(int form) {
    const isa_form *f = &isa_forms[form];
    return f->group == GROUP_OF_PARENT ? isa_forms[f->parent].group : f->group;
}

static const struct {
    int16_t form;
    uint8_t n;
} ndst_rows[] = {
#define VISA_NDST(N, n) {VISA_FORM_##N, n},
#include "opfacts.def"
};

unsigned isa_form_ndst(int form) {
    for (size_t i = 0; i < sizeof ndst_rows / sizeof ndst_rows[0]; i++)
        if (ndst_rows[i].form == form) return ndst_rows[i].n;
    return isa_form_group(form) <= G_ADDRESS; /* G_MOV, G_ARITH, G_LOGIC, G_COMPARE, G_ADDRESS */
}

const char *isa_form_layout(int form, char *buf) {
    const isa_form *f = &isa_forms[form];
    if (f->parent < 0) return f->layout;
    const char *pl = isa_forms[f->parent].layout;
    size_t n = 0;
    while (pl[n] && pl[n] != 'o') n++;
    size_t m = strlen(f->layout);
    if (n + m >= 64) m = 63 - n;
    memcpy(buf, pl, n);
    memcpy(buf + n, f->layout, m);
    buf[n + m] = 0;
    return buf;
}

bool isa_layout_has(const char *layout, char code) { return strchr(layout, code) != NULL; }

/* Codes that are fields of the instruction but not stored operands. */
static bool not_an_operand(char c) { return c == 'E' || c == 'P' || c == 'o' || c == '#' || c == '!'; }

unsigned isa_layout_opnds(const char *layout) {
    unsigned n = 0;
    for (const char *c = layout; *c; c++)
        if (*c != '*' && !not_an_operand(*c)) n++;
    return n;
}

char isa_layout_next_kind(const char **cursor) {
    for (const char *c = *cursor; *c; c++) {
        if (*c == '*') {
            *cursor = c; /* list items repeat their kind */
            return c[1];
        }
        if (not_an_operand(*c)) continue;
        *cursor = c + 1;
        return *c;
    }
    return 0;
}

char isa_layout_kind(const char *layout, unsigned k) {
    char code = isa_layout_next_kind(&layout);
    while (code && k--) code = isa_layout_next_kind(&layout);
    return code;
}
