/* parse.c -- the vISA assembly parser: statements, declarations, routines and instructions.
** Accepts what IGC prints and what IGC's parser (CISA.l/CISA.y) accepts.  Logical lines come
** from lex.c, operands from operand.c; instruction syntax comes from the table: a form's text
** template (template.c) or its family hook (hooks_*.c).
** Errors are reported with file:line:col and parsing resumes at the next line.
*/
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* -- Trivia ----------------------------------------------------------------------------------- */
/* Attach the pending own-line comments and end-of-line comment to a statement. */
static void attach_trivia(txt_parser *tp, ir_trivia *t) {
    t->first = 0;
    t->count = 0;
    t->eol = -1;
    if (tp->pending_comments.len) {
        t->first = tp->pending_comments.data[0];
        t->count = (uint16_t)tp->pending_comments.len;
        tp->pending_comments.len = 0;
    }
    t->eol = tp->pending_eol;
    tp->pending_eol = -1;
}

/* -- Declarations ----------------------------------------------------------------------------- */
static bool parse_attr_value(txt_parser *tp, ir_attr *a, const char *name, size_t n) {
    /* after '=': "string" | int-expr */
    tp_skip_ws(tp);
    if (*tp->p == '"') {
        char *s;
        size_t len;
        if (!tp_string(tp, &s, &len)) return false;
        if (n == 6 && memcmp(name, "Target", 6) == 0 && (strcmp(s, "cm") == 0 || strcmp(s, "3d") == 0)) {
            a->size = 1;
            a->value[0] = s[0] == 'c' ? 0 : 1;
        } else if (len == 0) {
            /* IGC's printOneAttribute writes an empty string attribute as its bare name, and the
            ** object does not tell them apart: stored as the bare name (fuzz_parse) */
            a->size = 0;
        } else if (len > 255) {
            vx_free(tp->ctx, s, len + 1);
            tp_error(tp, tp->p, "attribute string longer than 255 bytes");
            return false;
        } else {
            a->is_str = 1;
            a->size = (uint8_t)len;
            memcpy(a->value, s, len);
        }
        vx_free(tp->ctx, s, len + 1);
        return true;
    }
    if (tp_at_end(tp) || *tp->p == ',' || *tp->p == '}') {
        a->size = 0;
        return true;
    }
    int64_t x;
    const char *at = tp->p;
    if (!tp_int_expr(tp, &x)) return false;
    if (x < INT32_MIN || x > UINT32_MAX) {
        tp_error(tp, at, "attribute value %lld does not fit in 32 bits", (long long)x);
        return false;
    }
    a->size = 4;
    for (int k = 0; k < 4; k++) a->value[k] = (uint8_t)((uint64_t)x >> (8 * k));
    return true;
}

static void attrs_drop(visa_ctx *ctx, ir_attr_list *l) {
    vx_free(ctx, l->items, (size_t)l->count * sizeof *l->items);
    l->items = NULL;
    l->count = 0;
}

/* attrs={A, B=3, C="s"} */
static bool parse_attrs(txt_parser *tp, ir_attr_list *list) {
    if (!tp_expect(tp, "{")) return false;
    if (tp_accept(tp, "}")) return true;
    do {
        const char *name;
        size_t n = tp_ident(tp, &name);
        if (!n) {
            tp_error(tp, tp->p, "expected an attribute name");
            return false;
        }
        ir_attr a;
        memset(&a, 0, sizeof a);
        a.name = ir_string_add(tp->ctx, tp->r, name, n);
        if (tp_accept(tp, "=") && !parse_attr_value(tp, &a, name, n)) return false;
        if (!ir_attr_list_push(tp->ctx, list, &a)) return false;
    } while (tp_accept(tp, ","));
    return tp_expect(tp, "}");
}

static bool key_eq(txt_parser *tp, const char *key) {
    /* "key=" allowing spaces around '=' */
    tp_skip_ws(tp);
    const char *save = tp->p;
    size_t n = strlen(key);
    if (strncmp(tp->p, key, n) == 0) {
        tp->p += n;
        if (tp_accept(tp, "=")) return true;
    }
    tp->p = save;
    return false;
}

static bool parse_num_elts(txt_parser *tp, uint16_t *out, unsigned max) {
    if (!key_eq(tp, "num_elts")) {
        tp_error(tp, tp->p, "expected num_elts=");
        return false;
    }
    tp_skip_ws(tp);
    const char *at = tp->p;
    int64_t x;
    if (!tp_int_expr(tp, &x)) return false;
    if (x < 1 || x > (int64_t)max) {
        tp_error(tp, at, "num_elts %lld out of range (1..%u)", (long long)x, max);
        return false;
    }
    *out = (uint16_t)x;
    return true;
}

/* align=NAME (an align enum name) or align=BYTES. */
static bool parse_align(txt_parser *tp, uint8_t *align) {
    tp_skip_ws(tp);
    const char *a = tp->p;
    uint32_t code;
    const char *w;
    size_t wn = tp_word(tp, &w);
    if (wn && isa_enum_parse(VISA_EN_align, w, wn, &code)) {
        *align = (uint8_t)code;
        return true;
    }
    tp->p = a;
    int64_t bytes;
    if (!((*a >= '0' && *a <= '9') || *a == '(')) {
        tp_error(tp, a,
                 "invalid alignment '%.*s' (expected byte, word, dword, qword, "
                 "oword, GRF, GRFx2, hword, wordx32, wordx64 or a byte count)",
                 (int)(wn ? wn : 1), a);
        return false;
    }
    if (!tp_int_expr(tp, &bytes)) return false;
    static const int64_t by[] = {1, 2, 4, 8, 16, 32, 64, 128};
    static const uint8_t codes[] = {0, 1, 2, 3, 4, 7, 8, 9};
    int found = -1;
    for (int i = 0; i < 8; i++)
        if (by[i] == bytes) found = i;
    if (found < 0) {
        tp_error(tp, a, "invalid alignment");
        return false;
    }
    *align = codes[found];
    return true;
}

/* alias=<PARENT, OFFSET> */
static bool parse_alias(txt_parser *tp, ir_var *var) {
    if (!tp_expect(tp, "<")) return false;
    uint32_t pid;
    if (!tp_general_var(tp, &pid)) return false;
    if (!tp_expect(tp, ",")) return false;
    tp_skip_ws(tp);
    const char *oat = tp->p;
    int64_t off;
    if (!tp_int_expr_in_angle(tp, &off) || !tp_expect(tp, ">")) return false;
    if (off < 0 || off > 65535) {
        tp_error(tp, oat, "alias offset %lld out of range", (long long)off);
        return false;
    }
    var->has_alias = 1;
    var->alias_id = pid;
    var->alias_off = (uint16_t)off;
    return true;
}

/* The rest of ".decl NAME v_type=G": type=, num_elts=, then optional align=, alias=, attrs=. */
static bool parse_decl_general(txt_parser *tp, const char *name, size_t n) {
    ir_routine *r = tp->r;
    ir_var var;
    memset(&var, 0, sizeof var);
    var.line = tp_line_of(tp, name);
    var.col = tp_col_of(tp, name);
    if (!key_eq(tp, "type")) {
        tp_error(tp, tp->p, "expected type=");
        return false;
    }
    const char *t;
    size_t tn = tp_word(tp, &t);
    int ty = tn ? isa_type_from_name(t, tn) : -1;
    if (ty < 0 || ty == VISA_TYPE_V || ty == VISA_TYPE_VF || ty == VISA_TYPE_UV) {
        tp_error(tp, t, "invalid variable type '%.*s'", (int)tn, t);
        return false;
    }
    var.type = (uint8_t)ty;
    if (!parse_num_elts(tp, &var.num_elts, 65535)) return false;
    if (key_eq(tp, "align") && !parse_align(tp, &var.align)) return false;
    if (key_eq(tp, "alias") && !parse_alias(tp, &var)) return false;
    var.name = ir_string_add(tp->ctx, r, name, n);
    bool ok = !key_eq(tp, "attrs") || parse_attrs(tp, &var.attrs);
    if (ok && !tp_at_end(tp)) {
        tp_error(tp, tp->p, "unexpected text in declaration");
        ok = false;
    }
    if (ok) attach_trivia(tp, &var.trivia);
    if (!ok || r->vars.len >= 0x10000000u || !vec_push(tp->ctx, &r->vars, var)) {
        attrs_drop(tp->ctx, &var.attrs);
        return false;
    }
    return tp_name_add(tp, name, n, TN_VAR, ISA_NUM_PREDEF_VARS + r->vars.len - 1);
}

/* Store a state variable declaration in its list; its id through *id. */
static bool add_state_var(txt_parser *tp, uint8_t kind, const ir_state_var *sv, const char *name, uint32_t *id) {
    ir_routine *r = tp->r;
    bool ok;
    switch (kind) {
    case TN_ADDR:
        ok = vec_push(tp->ctx, &r->addrs, *sv);
        *id = r->addrs.len - 1;
        break;
    case TN_PRED:
        ok = vec_push(tp->ctx, &r->preds, *sv);
        *id = r->preds.len;
        break;
    case TN_SAMPLER:
        ok = r->samplers.len < 31 && vec_push(tp->ctx, &r->samplers, *sv);
        *id = r->samplers.len - 1;
        if (!ok) tp_error(tp, name, "too many samplers (at most 31)");
        break;
    default:
        ok = r->surfaces.len < 250 && vec_push(tp->ctx, &r->surfaces, *sv);
        *id = ISA_NUM_PREDEF_SURFS + r->surfaces.len - 1;
        if (!ok) tp_error(tp, name, "too many surfaces");
        break;
    }
    return ok;
}

/* The rest of ".decl NAME v_type=A|P|S|T" (vt; k: where it is written, kn its length):
** num_elts=, then optional v_name= (samplers and surfaces) and attrs=. */
static bool parse_decl_state(txt_parser *tp, const char *name, size_t n, char vt, const char *k, size_t kn) {
    ir_routine *r = tp->r;
    ir_state_var sv;
    memset(&sv, 0, sizeof sv);
    sv.line = tp_line_of(tp, name);
    sv.col = tp_col_of(tp, name);
    uint8_t kind;
    uint32_t id;
    switch (vt) {
    case 'A':
        kind = TN_ADDR;
        if (!parse_num_elts(tp, &sv.num_elts, 16)) return false;
        break;
    case 'P':
        kind = TN_PRED;
        if (!parse_num_elts(tp, &sv.num_elts, 32)) return false;
        break;
    case 'S':
        kind = TN_SAMPLER;
        if (!parse_num_elts(tp, &sv.num_elts, 128)) return false;
        break;
    case 'T':
        kind = TN_SURFACE;
        if (!parse_num_elts(tp, &sv.num_elts, 256)) return false;
        break;
    default: tp_error(tp, kn ? k : tp->p, "invalid v_type (expected G, A, P, S or T)"); return false;
    }
    const char *vname = name;
    size_t vn = n;
    if ((kind == TN_SAMPLER || kind == TN_SURFACE) && key_eq(tp, "v_name")) {
        vn = tp_ident(tp, &vname);
        if (!vn) {
            tp_error(tp, tp->p, "expected a name after v_name=");
            return false;
        }
    }
    /* IGC prints address and predicate variables as A<id> and P<id> whatever their declared
    ** name; the object holds that name too, so that an object and its print agree */
    char idname[16];
    if (kind == TN_ADDR || kind == TN_PRED) {
        int len = snprintf(idname, sizeof idname, "%c%u", kind == TN_ADDR ? 'A' : 'P',
                           kind == TN_ADDR ? r->addrs.len : r->preds.len + 1);
        vname = idname;
        vn = (size_t)len;
    }
    sv.name = ir_string_add(tp->ctx, r, vname, vn);
    if ((key_eq(tp, "attrs") && !parse_attrs(tp, &sv.attrs)) ||
        (!tp_at_end(tp) && (tp_error(tp, tp->p, "unexpected text in declaration"), true))) {
        attrs_drop(tp->ctx, &sv.attrs);
        return false;
    }
    attach_trivia(tp, &sv.trivia);
    bool ok = add_state_var(tp, kind, &sv, name, &id);
    if (!ok) attrs_drop(tp->ctx, &sv.attrs);
    if (kind == TN_PRED && r->preds.len > IR_PRED_MAX_ID) {
        tp_error(tp, name, "too many predicate variables");
        return false;
    }
    return ok && tp_name_add(tp, name, n, kind, id);
}

static bool parse_decl(txt_parser *tp) {
    const char *name;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, tp->p, "expected a declaration name");
        return false;
    }
    txt_name *prev = tp_name_find(tp, name, n);
    if (prev && prev->kind != TN_LABEL) {
        /* shadowing is allowed only in an inner scope */
        uint32_t mark = tp->scope_marks.len ? tp->scope_marks.data[tp->scope_marks.len - 1] : 0;
        if ((uint32_t)(prev - tp->names.data) >= mark) {
            tp_error(tp, name, "redefinition of '%.*s'", (int)n, name);
            return false;
        }
    }
    if (!key_eq(tp, "v_type")) {
        tp_error(tp, tp->p, "expected v_type=");
        return false;
    }
    const char *k;
    size_t kn = tp_word(tp, &k);
    char vt = kn == 1 ? k[0] : 0;
    if (vt == 'G') return parse_decl_general(tp, name, n);
    return parse_decl_state(tp, name, n, vt, k, kn);
}

static bool parse_input(txt_parser *tp, const char *dir, size_t dn) {
    ir_input in;
    memset(&in, 0, sizeof in);
    const char *name;
    bool implicit = dn > 9 && memcmp(dir, ".implicit", 9) == 0;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, tp->p, "expected an input variable name");
        return false;
    }
    in.line = tp_line_of(tp, dir);
    in.col = tp_col_of(tp, dir);
    txt_name *e = tp_name_find(tp, name, n);
    if (!e || (e->kind != TN_VAR && e->kind != TN_SAMPLER && e->kind != TN_SURFACE)) {
        tp_error(tp, name, "undefined variable '%.*s'", (int)n, name);
        return false;
    }
    uint8_t cls = e->kind == TN_VAR ? IN_GENERAL : e->kind == TN_SAMPLER ? IN_SAMPLER : IN_SURFACE;
    uint32_t kind = 0;
    if (implicit) {
        const char *suffix = dir + 9;
        size_t sn = dn - 9;
        if (sn && *suffix == '_') suffix++, sn--;
        if (sn > 10 && memcmp(suffix, "UNDEFINED_", 10) == 0) {
            uint64_t u = 0;
            for (size_t i = 10; i < sn; i++) {
                if (suffix[i] < '0' || suffix[i] > '9' || u > 31) {
                    tp_error(tp, dir, "invalid implicit input kind");
                    return false;
                }
                u = u * 10 + (uint64_t)(suffix[i] - '0');
            }
            if (u > 31) {
                tp_error(tp, dir, "implicit input kind %llu out of range", (unsigned long long)u);
                return false;
            }
            kind = (uint32_t)u;
        } else if (!isa_enum_parse(VISA_EN_implicit_input, suffix, sn, &kind)) {
            kind = 5; /* IGC: an unknown implicit name gets kind 5 */
        }
        in.implicit_syntax = 1;
    }
    in.kind = (uint8_t)(cls | (kind << 3));
    in.id = e->id;
    int64_t off = 0, size = -1;
    if (key_eq(tp, "offset")) {
        tp_skip_ws(tp);
        const char *at = tp->p;
        in.off_col = tp_col_of(tp, at);
        if (!tp_int_expr(tp, &off)) return false;
        if (off < -32768 || off > 32767) {
            tp_error(tp, at, "input offset %lld out of range", (long long)off);
            return false;
        }
    }
    if (key_eq(tp, "size")) {
        tp_skip_ws(tp);
        const char *at = tp->p;
        in.size_col = tp_col_of(tp, at);
        if (!tp_int_expr(tp, &size)) return false;
        if (size < 0 || size > 65535) {
            tp_error(tp, at, "input size %lld out of range", (long long)size);
            return false;
        }
    }
    if (size < 0) size = cls == IN_GENERAL ? ir_var_bytes(tp->r, e->id) : 0;
    in.offset = (int16_t)off;
    in.size = (uint16_t)size;
    if (!tp_at_end(tp)) {
        tp_error(tp, tp->p, "unexpected text after input declaration");
        return false;
    }
    attach_trivia(tp, &in.trivia);
    return vec_push(tp->ctx, &tp->r->inputs, in);
}

static bool parse_kernel_attr(txt_parser *tp) {
    const char *name;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, tp->p, "expected an attribute name");
        return false;
    }
    ir_attr a;
    memset(&a, 0, sizeof a);
    a.line = tp_line_of(tp, name);
    a.col = tp_col_of(tp, name);
    a.name = ir_string_add(tp->ctx, tp->r, name, n);
    if (tp_accept(tp, "=") && !parse_attr_value(tp, &a, name, n)) return false;
    if (!tp_at_end(tp)) {
        tp_error(tp, tp->p, "unexpected text after attribute");
        return false;
    }
    attach_trivia(tp, &a.trivia);
    return vec_push(tp->ctx, &tp->r->attrs, a);
}

/* -- Routines --------------------------------------------------------------------------------- */
/* String pool order follows IGC: routine name, predefined variable names V0..V20, predefined
** surface names, the bindless sampler S31, then user items in creation order. */
/* "V12", "T3": a letter and a number below 1000 */
static size_t letter_number(char *buf, char letter, unsigned i) {
    buf[0] = letter;
    return 1 + txt_small_decimal(buf + 1, i);
}

static bool begin_routine(txt_parser *tp, bool is_kernel, const char *name, size_t n, uint32_t line) {
    /* labels of the previous routine go out of scope */
    for (uint32_t i = 0; i < tp->names.len && tp->buckets; i++)
        tp->buckets[tp->names.data[i].hash & tp->bucket_mask] = 0;
    tp->names.len = 0;
    tp->name_store.len = 0;
    tp->scope_marks.len = 0;
    ir_routine r;
    memset(&r, 0, sizeof r);
    r.is_kernel = is_kernel;
    r.line = line;
    if (!vec_push(tp->ctx, &tp->m->routines, r)) return false;
    tp->r = &tp->m->routines.data[tp->m->routines.len - 1];
    attach_trivia(tp, &tp->r->trivia);
    tp->r->name = ir_string_add(tp->ctx, tp->r, name, n);
    for (unsigned i = 0; i < isa_predef_var_count; i++) {
        const char *pn = isa_predef_vars[i].name;
        if (i < 21 && ir_string_add(tp->ctx, tp->r, pn, strlen(pn)) == UINT32_MAX) return false;
        if (!tp_name_add(tp, pn, strlen(pn), TN_VAR, i)) return false;
        char vname[8];
        if (!tp_name_add(tp, vname, letter_number(vname, 'V', i), TN_VAR, i)) return false;
    }
    for (unsigned i = 0; i < ISA_NUM_PREDEF_SURFS; i++) {
        const char *sn = isa_predef_surf_names[i];
        if (ir_string_add(tp->ctx, tp->r, sn, strlen(sn)) == UINT32_MAX) return false;
        if (!tp_name_add(tp, sn, strlen(sn), TN_SURFACE, i)) return false;
        char tname[8];
        size_t tn = letter_number(tname, 'T', i);
        if (!tp_name_find(tp, tname, tn) && !tp_name_add(tp, tname, tn, TN_SURFACE, i)) return false;
    }
    if (ir_string_add(tp->ctx, tp->r, "S31", 3) == UINT32_MAX) return false;
    return tp->r->name != UINT32_MAX;
}

static bool parse_routine_name(txt_parser *tp, char **name, size_t *n) {
    tp_skip_ws(tp);
    if (*tp->p == '"') return tp_string(tp, name, n);
    const char *s;
    size_t len = tp_ident(tp, &s);
    if (!len) {
        tp_error(tp, tp->p, "expected a name");
        return false;
    }
    *name = vx_strndup(tp->ctx, s, len);
    *n = len;
    return *name != NULL;
}

/* -- Instructions ----------------------------------------------------------------------------- */

bool tp_inst_alloc(txt_parser *tp, ir_inst *inst, unsigned n) {
    inst->nopnd = (uint16_t)n;
    inst->opnd = n ? ir_opnds_alloc(tp->ctx, n) : NULL;
    return n == 0 || inst->opnd != NULL;
}

/* Mnemonic index: base word (up to the first '.') -> forms.  Derived from the static tables
** once per context (vx_cache_get), not once per parse. */
typedef struct mn_entry {
    const char *word;
    uint8_t len;
    int16_t form;
} mn_entry;

static int mn_cmp(const void *a, const void *b) {
    const mn_entry *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->word, y->word, n);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->form - y->form;
}

typedef struct mn_index {
    vx_cached base;
    VEC(mn_entry) e; /* sorted by word */
    uint32_t *slots; /* by hash of the word (open addressing): its first entry + 1; 0 = empty */
    uint32_t mask; /* slots - 1 */
} mn_index;

static void mn_release(visa_ctx *ctx, vx_cached *self) {
    mn_index *ix = (mn_index *)self;
    vec_free(ctx, &ix->e);
    if (ix->slots) vx_free(ctx, ix->slots, sizeof(uint32_t) * (ix->mask + 1));
    vx_free(ctx, ix, sizeof *ix);
}

static bool mn_is(const mn_entry *e, const char *w, size_t n) { return e->len == n && !memcmp(e->word, w, n); }

static bool mn_add(visa_ctx *ctx, mn_index *ix, const char *w, size_t n, int form) {
    size_t b = 0;
    while (b < n && w[b] != '.') b++;
    mn_entry e = {w, (uint8_t)b, (int16_t)form};
    return vec_push(ctx, &ix->e, e);
}

static bool mn_build(visa_ctx *ctx, mn_index *ix) {
    for (int f = 0; f < VISA_FORM__COUNT; f++) {
        const isa_form *F = &isa_forms[f];
        if (strchr(F->layout, 'o')) continue; /* parents: their sub-rows are indexed */
        if (F->mnem[0] == '%') {
            int en = isa_enum_by_name(F->mnem + 1, strlen(F->mnem + 1));
            uint32_t v;
            const char *t;
            for (unsigned i = 0; en >= 0 && isa_enum_at((isa_enum_id)en, i, &v, &t); i++)
                if (!mn_add(ctx, ix, t, strlen(t), f)) return false;
            continue;
        }
        const char *s;
        size_t n;
        for (const char *cur = F->mnem; isa_mnem_next(&cur, &s, &n);)
            if (!mn_add(ctx, ix, s, n, f)) return false;
    }
    qsort(ix->e.data, ix->e.len, sizeof *ix->e.data, mn_cmp);
    /* one entry per (base word, form): "cmp.eq" and "cmp.ne" both index CMP under "cmp" */
    uint32_t k = 0;
    for (uint32_t i = 0; i < ix->e.len; i++)
        if (!k || mn_cmp(&ix->e.data[k - 1], &ix->e.data[i]) != 0) ix->e.data[k++] = ix->e.data[i];
    ix->e.len = k;
    /* the hash of each word's first entry */
    uint32_t nslots = 16;
    while (nslots < 2 * ix->e.len) nslots *= 2;
    ix->slots = vx_alloc(ctx, sizeof(uint32_t) * nslots);
    if (!ix->slots) return false;
    ix->mask = nslots - 1;
    for (uint32_t i = 0; i < ix->e.len; i++) {
        const mn_entry *e = &ix->e.data[i];
        if (i && mn_is(&ix->e.data[i - 1], e->word, e->len)) continue;
        uint32_t h = vx_hash(e->word, e->len) & ix->mask;
        while (ix->slots[h]) h = (h + 1) & ix->mask;
        ix->slots[h] = i + 1;
    }
    return true;
}

/* The context's index, built on first use (allocations through `alloc`, the parse's guard; the
** index belongs to `owner`, which releases it).  NULL when out of memory. */
static const mn_index *mn_index_get(visa_ctx *owner, visa_ctx *alloc) {
    vx_cached *c = vx_cache_get(owner, VX_CACHE_MNEMONICS);
    if (c) return (const mn_index *)c;
    mn_index *ix = vx_alloc(alloc, sizeof *ix);
    if (!ix) return NULL;
    ix->base.release = mn_release;
    if (!mn_build(alloc, ix)) {
        mn_release(owner, &ix->base);
        return NULL;
    }
    return (const mn_index *)vx_cache_publish(owner, VX_CACHE_MNEMONICS, &ix->base);
}

/* The entries of word w: [*first, *first + *count). */
static void mn_find(const mn_index *ix, const char *w, size_t n, uint32_t *first, uint32_t *count) {
    *first = *count = 0;
    for (uint32_t h = vx_hash(w, n) & ix->mask; ix->slots[h]; h = (h + 1) & ix->mask) {
        uint32_t k = ix->slots[h] - 1;
        if (!mn_is(&ix->e.data[k], w, n)) continue;
        *first = k;
        while (k < ix->e.len && mn_is(&ix->e.data[k], w, n)) k++;
        *count = k - *first;
        return;
    }
}

static bool parse_pred(txt_parser *tp, uint16_t *pred) {
    /* ( [!] P [.any|.all] ) */
    const char *at = tp->p;
    tp->p++; /* '(' */
    bool inverse = tp_accept(tp, "!");
    const char *name;
    size_t n = tp_ident(tp, &name);
    txt_name *e = n ? tp_name_find(tp, name, n) : NULL;
    if (!e || e->kind != TN_PRED) {
        tp_error(tp, n ? name : tp->p, "expected a predicate variable");
        return false;
    }
    unsigned ctrl = IR_PRED_SEQ;
    if (tp_accept_nows(tp, ".any")) ctrl = IR_PRED_ANY;
    else if (tp_accept_nows(tp, ".all")) ctrl = IR_PRED_ALL;
    if (!tp_accept(tp, ")")) {
        tp_error(tp, tp->p, "expected ')' after predicate");
        return false;
    }
    (void)at;
    *pred = ir_pred_make(e->id, ctrl, inverse);
    return true;
}

/* What IGC's parser and builder store for some instructions (CISA.y alternatives feeding
** BuildCISAIRImpl.cpp / VISAKernelImpl.cpp), so that the IR and its print are IGC's:
** - a flag copy "mov V P" (AppendVISAPredicateMove) keeps no predicate and no .sat and runs
**   (M1_NM, 1) whatever was written;
** - and/or/xor/not on predicate variables keep their mask and size but drop the predicate and
**   .sat; other logic ops reject predicate variables;
** - .sat on a logic op other than shl/shr/asr is an error (CISA_create_logic_instruction). */
static bool normalize_instruction(txt_parser *tp, ir_inst *inst, const char *mn, size_t wn) {
    unsigned op = isa_forms[inst->form].opcode;
    bool pred_opnd = false;
    for (unsigned k = 0; k < inst->nopnd; k++)
        if (inst->opnd[k].kind == 'V' && inst->opnd[k].u.vec.cls == VC_PREDICATE) pred_opnd = true;
    ir_vec *dst = inst->nopnd && inst->opnd[0].kind == 'V' ? &inst->opnd[0].u.vec : NULL;
    if (op == VISA_OP_MOV) {
        if (!pred_opnd || !dst || dst->cls == VC_PREDICATE) return true;
        uint32_t nm;
        if (!isa_enum_parse(VISA_EN_emask, "M1_NM", 5, &nm)) return true;
        inst->pred = 0;
        inst->exec = (uint8_t)(nm << 4); /* size code 0: one channel */
        if (dst->mod == VM_SAT) dst->mod = VM_NONE;
        return true;
    }
    bool logic = op == VISA_OP_AND || op == VISA_OP_OR || op == VISA_OP_XOR || op == VISA_OP_NOT;
    bool shift = op == VISA_OP_SHL || op == VISA_OP_SHR || op == VISA_OP_ASR;
    bool other = op == VISA_OP_ROL || op == VISA_OP_ROR || op == VISA_OP_CBIT || op == VISA_OP_FBH ||
                 op == VISA_OP_FBL || op == VISA_OP_BFREV || op == VISA_OP_BFE || op == VISA_OP_BFI;
    if (!logic && !shift && !other) return true;
    if (pred_opnd) {
        if (!logic) {
            tp_error(tp, mn, "predicate variables are not supported for '%.*s'", (int)wn, mn);
            return false;
        }
        inst->pred = 0;
        if (dst && dst->mod == VM_SAT) dst->mod = VM_NONE;
        return true;
    }
    if (!shift && dst && dst->mod == VM_SAT) {
        tp_error(tp, mn + wn, "saturation is not supported on '%.*s'", (int)wn, mn);
        return false;
    }
    return true;
}

static bool parse_instruction(txt_parser *tp, const mn_index *ix) {
    ir_inst inst;
    memset(&inst, 0, sizeof inst);
    tp_skip_ws(tp);
    tp_pos_of(tp, tp->p, &inst.line, &inst.col);
    uint16_t pred = 0;
    const char *pred_at = NULL;
    if (*tp->p == '(') {
        pred_at = tp->p;
        if (!parse_pred(tp, &pred)) return false;
    }
    tp_skip_ws(tp);
    const char *mn = tp->p;
    const char *w;
    size_t wn = tp_word(tp, &w);
    tp->p = mn;
    if (!wn) {
        tp_error(tp, mn, "expected an instruction");
        return false;
    }
    uint32_t first, count;
    mn_find(ix, w, wn, &first, &count);
    if (!count) {
        tp_error(tp, mn, "unknown instruction '%.*s'", (int)wn, w);
        return false;
    }
    int chosen = -1;
    if (count > 1) {
        /* speculative: pick the first form that parses the whole line */
        uint32_t best_off = 0;
        char best_msg[200] = "";
        for (uint32_t k = 0; k < count && chosen < 0; k++) {
            int f = ix->e.data[first + k].form;
            ir_inst trial;
            memset(&trial, 0, sizeof trial);
            trial.pred = pred;
            tp->quiet = true;
            tp->quiet_msg[0] = 0;
            tp->quiet_err_off = 0;
            tp->failed = false;
            tp->p = mn;
            const isa_form *F = &isa_forms[f];
            bool ok = F->hook == TH_NONE          ? tp_parse_template(tp, f, F->text, TPL_INST, &trial)
                      : txt_hooks[F->hook]->parse ? txt_hooks[F->hook]->parse(tp, f, &trial)
                                                  : false;
            if (ok && !tp_at_end(tp))
                ok = false, tp->quiet_err_off = (uint32_t)(tp->p - tp->buf.data),
                snprintf(tp->quiet_msg, sizeof tp->quiet_msg, "unexpected text after instruction");
            vx_free(tp->ctx, trial.opnd, (size_t)trial.nopnd * sizeof(ir_opnd));
            tp->quiet = false;
            if (ok) chosen = f;
            else if (tp->quiet_err_off >= best_off) {
                best_off = tp->quiet_err_off;
                memcpy(best_msg, tp->quiet_msg, sizeof best_msg);
            }
        }
        tp->failed = false;
        if (chosen < 0) {
            tp_error(tp, tp->buf.data + best_off, "%s", best_msg[0] ? best_msg : "invalid instruction");
            return false;
        }
    } else {
        chosen = ix->e.data[first].form;
    }
    const isa_form *F = &isa_forms[chosen];
    inst.form = (uint16_t)chosen;
    inst.pred = pred;
    tp->p = mn;
    bool ok;
    if (F->hook == TH_NONE) ok = tp_parse_template(tp, chosen, F->text, TPL_INST, &inst);
    else if (txt_hooks[F->hook]->parse) ok = txt_hooks[F->hook]->parse(tp, chosen, &inst);
    else {
        tp_error(tp, mn, "'%.*s' is not supported by the text front end yet", (int)wn, w);
        ok = false;
    }
    if (ok && !tp_at_end(tp)) {
        tp_error(tp, tp->p, "unexpected text after instruction");
        ok = false;
    }
    char full[64];
    if (ok && pred && !strchr(isa_form_layout(chosen, full), 'P')) {
        tp_error(tp, pred_at, "instruction '%.*s' cannot be predicated", (int)wn, w);
        ok = false;
    }
    if (ok) ok = normalize_instruction(tp, &inst, w, wn);
    if (!ok) {
        vx_free(tp->ctx, inst.opnd, (size_t)inst.nopnd * sizeof(ir_opnd));
        return false;
    }
    attach_trivia(tp, &inst.trivia);
    if (tp->r->insts.len >= 0x1000000u || !vec_push(tp->ctx, &tp->r->insts, inst)) {
        vx_free(tp->ctx, inst.opnd, (size_t)inst.nopnd * sizeof(ir_opnd));
        tp_error(tp, mn, "too many instructions");
        return false;
    }
    return true;
}

/* Label definition "NAME:" at the start of a line. */
static bool parse_label_def(txt_parser *tp, const char *name, size_t n) {
    uint32_t id;
    /* IGC's text reader creates every block label as kind 0 (LABEL_BLOCK), whether a branch or
    ** its definition names it first (CISA_IR_Builder::CISA_create_label in IGC's
    ** visa/BuildCISAIRImpl.cpp); only the name test below and call targets give other kinds. */
    if (!tp_label_ref(tp, name, n, 0, &id)) return false;
    ir_label *lab = &tp->r->labels.data[id];
    if (lab->defined) {
        tp_error(tp, name, "duplicate label '%.*s'", (int)n, name);
        return false;
    }
    lab->defined = 1;
    lab->line = tp_line_of(tp, name);
    lab->col = tp_col_of(tp, name);
    /* a name containing "__opt_resource_loo" marks a divergent resource loop (IGC's parser) */
    for (size_t i = 0; i + 18 <= n; i++)
        if (memcmp(name + i, "__opt_resource_loo", 18) == 0) lab->kind = 4;
    ir_inst inst;
    memset(&inst, 0, sizeof inst);
    inst.form = VISA_FORM_LABEL;
    inst.line = lab->line;
    inst.col = lab->col;
    if (!tp_inst_alloc(tp, &inst, 1)) return false;
    inst.opnd[0].kind = 'L';
    inst.opnd[0].u.label = id;
    attach_trivia(tp, &inst.trivia);
    if (vec_push(tp->ctx, &tp->r->insts, inst)) return true;
    vx_free(tp->ctx, inst.opnd, sizeof(ir_opnd));
    return false;
}

/* .function "name": a SUBROUTINE; IGC then prints (and accepts) "name:" on the next line. */
static bool parse_function(txt_parser *tp) {
    char *name;
    size_t n;
    const char *at = (tp_skip_ws(tp), tp->p);
    if (!parse_routine_name(tp, &name, &n)) return false;
    uint32_t id;
    bool ok = tp_label_ref(tp, name, n, 1, &id);
    if (ok) {
        ir_label *lab = &tp->r->labels.data[id];
        if (lab->defined) {
            tp_error(tp, at, "duplicate subroutine '%s'", name);
            ok = false;
        } else {
            lab->defined = 2; /* defined by .function; the "name:" line may follow */
            lab->kind = 1;
            ir_inst inst;
            memset(&inst, 0, sizeof inst);
            inst.form = VISA_FORM_SUBROUTINE;
            inst.line = tp_line_of(tp, at);
            inst.col = tp_col_of(tp, at);
            ok = tp_inst_alloc(tp, &inst, 1);
            if (ok) {
                inst.opnd[0].kind = 'L';
                inst.opnd[0].u.label = id;
                attach_trivia(tp, &inst.trivia);
                ok = vec_push(tp->ctx, &tp->r->insts, inst);
                if (!ok) vx_free(tp->ctx, inst.opnd, sizeof(ir_opnd));
            }
        }
    }
    vx_free(tp->ctx, name, n + 1);
    return ok;
}

static void scope_pop(txt_parser *tp) {
    uint32_t mark = tp->scope_marks.data[--tp->scope_marks.len];
    tp->scope_open_line.len--;
    tp->scope_open_col.len--;
    /* remove names declared in the scope (labels stay: they are routine-wide) */
    VEC(txt_name) keep = {0};
    while (tp->names.len > mark) {
        txt_name e = tp->names.data[tp->names.len - 1];
        tp->buckets[e.hash & tp->bucket_mask] = e.prev;
        tp->names.len--;
        if (e.kind == TN_LABEL) (void)vec_push(tp->ctx, &keep, e);
    }
    for (uint32_t i = keep.len; i-- > 0;) {
        txt_name e = keep.data[i];
        e.prev = tp->buckets[e.hash & tp->bucket_mask];
        if (vec_push(tp->ctx, &tp->names, e)) tp->buckets[e.hash & tp->bucket_mask] = tp->names.len;
    }
    vec_free(tp->ctx, &keep);
}

/* One statement.  After '{', '}' or "label:" another statement may follow on the same line;
** *more tells the caller to continue (a loop, not recursion: lines can hold thousands). */
static bool parse_statement(txt_parser *tp, const mn_index *ix, bool *more) {
    *more = false;
    tp_skip_ws(tp);
    const char *start = tp->p;
    if (*start == 0) return true;
    if (*start == '{' || *start == '}') {
        tp->p++;
        if (!tp->r) {
            tp_error(tp, start, "scope outside a kernel or function");
            return false;
        }
        if (*start == '{') {
            if (tp->scope_marks.len > 256) {
                tp_error(tp, start, "scopes nested too deeply");
                return false;
            }
            if (!vec_push(tp->ctx, &tp->scope_marks, tp->names.len) ||
                !vec_push(tp->ctx, &tp->scope_open_line, tp_line_of(tp, start)) ||
                !vec_push(tp->ctx, &tp->scope_open_col, tp_col_of(tp, start)))
                return false;
        } else {
            if (!tp->scope_marks.len) {
                tp_error(tp, start, "'}' without a matching '{'");
                return false;
            }
            scope_pop(tp);
        }
        *more = !tp_at_end(tp); /* more statements may follow on the line */
        return true;
    }
    if (*start == '.') {
        const char *d;
        tp->p++;
        size_t dn = tp_ident(tp, &d);
        d = start;
        dn += 1;
#define DIR(s) (dn == strlen(s) && memcmp(d, s, dn) == 0)
        if (DIR(".version")) {
            if (tp->m->routines.len || tp->m->has_version) {
                tp_error(tp, start, ".version must be the first statement");
                return false;
            }
            uint64_t maj, min;
            if (!tp_uint_dec(tp, &maj) || !tp_accept_nows(tp, ".") || !tp_uint_dec(tp, &min)) {
                if (!tp->failed) tp_error(tp, tp->p, "expected MAJOR.MINOR");
                return false;
            }
            if (maj > 255 || min > 255) {
                tp_error(tp, start, "invalid version %llu.%llu", (unsigned long long)maj, (unsigned long long)min);
                return false;
            }
            tp->m->major = (uint8_t)maj;
            tp->m->minor = (uint8_t)min;
            tp->m->has_version = 1;
            attach_trivia(tp, &tp->m->version_trivia);
            return tp_at_end(tp) || (tp_error(tp, tp->p, "unexpected text after .version"), false);
        }
        if (DIR(".kernel") || DIR(".global_function")) {
            if (tp->scope_marks.len) {
                diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", tp->scope_open_line.data[tp->scope_marks.len - 1],
                        tp->scope_open_col.data[tp->scope_marks.len - 1], "'{' is not closed before the next routine");
                tp->scope_marks.len = tp->scope_open_line.len = tp->scope_open_col.len = 0;
            }
            char *name;
            size_t n;
            if (!parse_routine_name(tp, &name, &n)) return false;
            bool ok = begin_routine(tp, d[1] == 'k', name, n, tp_line_of(tp, start));
            vx_free(tp->ctx, name, n + 1);
            if (ok && !tp_at_end(tp)) {
                tp_error(tp, tp->p, "unexpected text after routine name");
                ok = false;
            }
            return ok;
        }
        if (!tp->r) {
            tp_error(tp, start, "'%.*s' outside a kernel or function", (int)dn, d);
            return false;
        }
        if (DIR(".funcdecl")) {
            /* informational only (IGC ignores it); the printer derives it from the module */
            char *name;
            size_t n;
            if (!parse_routine_name(tp, &name, &n)) return false;
            vx_free(tp->ctx, name, n + 1);
            return tp_at_end(tp) || (tp_error(tp, tp->p, "unexpected text after .funcdecl"), false);
        }
        if (DIR(".decl")) return parse_decl(tp);
        if (DIR(".input") || (dn > 9 && memcmp(d, ".implicit", 9) == 0)) return parse_input(tp, d, dn);
        if (DIR(".kernel_attr")) return parse_kernel_attr(tp);
        if (DIR(".function")) {
            if (!parse_function(tp)) return false;
            return tp_at_end(tp) || (tp_error(tp, tp->p, "unexpected text after .function"), false);
        }
        if (DIR(".file") || DIR(".loc")) {
            tp->p = start;
            return parse_instruction(tp, ix);
        }
        tp_error(tp, start, "unknown directive '%.*s'", (int)dn, d);
        return false;
#undef DIR
    }
    if (!tp->r) {
        tp_error(tp, start, "instruction outside a kernel or function");
        return false;
    }
    /* label definition: IDENT ':' at the start of the statement */
    {
        const char *name;
        size_t n = tp_ident(tp, &name);
        if (n && *name != '%' && tp->p[0] == ':' && tp->p[1] != ':') {
            tp->p++;
            /* the "name:" line IGC prints after ".function name" re-states the subroutine */
            txt_name *e = tp_name_find(tp, name, n);
            if (e && e->kind == TN_LABEL && tp->r->labels.data[e->id].defined == 2 && tp->r->insts.len &&
                tp->r->insts.data[tp->r->insts.len - 1].form == VISA_FORM_SUBROUTINE &&
                tp->r->insts.data[tp->r->insts.len - 1].opnd[0].u.label == e->id) {
                tp->r->labels.data[e->id].defined = 1;
                if (tp->pending_eol >= 0 || tp->pending_comments.len)
                    attach_trivia(tp, &tp->r->insts.data[tp->r->insts.len - 1].trivia);
            } else if (!parse_label_def(tp, name, n)) {
                return false;
            }
            *more = !tp_at_end(tp);
            return true;
        }
        tp->p = start;
    }
    return parse_instruction(tp, ix);
}

/* Out of memory before the parser exists: the diagnostic still goes out. */
static visa_status nomem_early(visa_ctx *ctx, const char *name) {
    diag_sink ds;
    diag_init(&ds, ctx, name, NULL, 0);
    diag_oom(&ds);
    return VISA_E_NOMEM;
}

static void report_undefined_labels(txt_parser *tp, ir_routine *r) {
    for (uint32_t i = 0; i < r->labels.len; i++) {
        ir_label *lab = &r->labels.data[i];
        if (!lab->defined && lab->kind != 2 && lab->kind != 3)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", lab->line, lab->col, "undefined label '%s'",
                    ir_str(r, lab->name));
    }
}

/* -- String pool order --------------------------------------------------------------------------
** A routine's strings are numbered in creation order, so text that declares variables after
** instructions or attributes, or in scopes, would give another object than its print does.
** Renumber them in the order a parse of the print creates them (routine name and predefined
** names, header declarations, kernel attributes, then per instruction the declarations of the
** scopes it opens, its label names at first mention and its strings): the object then depends on
** the module alone, and asm(dis(asm(x))) == asm(x).  Canonical text keeps its order. */
typedef struct str_walk {
    uint32_t *map; /* old index -> new index, UINT32_MAX = not yet placed */
    uint32_t next;
    uint32_t n;
} str_walk;

static void walk_str(str_walk *w, uint32_t i) {
    if (i < w->n && w->map[i] == UINT32_MAX) w->map[i] = w->next++;
}

static void walk_attrs(str_walk *w, const ir_attr_list *l) {
    for (uint16_t k = 0; k < l->count; k++) walk_str(w, l->items[k].name);
}

static void walk_var(str_walk *w, const ir_var *v) {
    walk_str(w, v->name);
    walk_attrs(w, &v->attrs);
}

static void remap_attrs(const uint32_t *map, uint32_t n, ir_attr_list *l) {
    for (uint16_t k = 0; k < l->count; k++)
        if (l->items[k].name < n) l->items[k].name = map[l->items[k].name];
}

static bool canon_strings(visa_ctx *ctx, ir_routine *r) {
    uint32_t n = r->strings.len;
    if (!n) return true;
    txt_scope_plan plan;
    if (!txt_scope_plan_build(ctx, r, &plan)) return false;
    str_walk w = {vx_alloc(ctx, sizeof(uint32_t) * n), 0, n};
    uint8_t *label_seen = vx_alloc(ctx, r->labels.len + 1);
    ir_string *tmp = vx_alloc(ctx, sizeof(ir_string) * n);
    bool ok = w.map && label_seen && tmp;
    if (ok) {
        memset(w.map, 0xFF, sizeof(uint32_t) * n);
        memset(label_seen, 0, r->labels.len + 1);
        walk_str(&w, r->name);
        for (uint32_t i = 0; i < n && i < 29; i++) walk_str(&w, i); /* begin_routine's names */
        for (uint32_t v = 0; v < r->vars.len; v++)
            if (!plan.any_scoped || !plan.scoped[v]) walk_var(&w, &r->vars.data[v]);
        const VEC(ir_state_var) *
            lists[4] = {(void *)&r->addrs, (void *)&r->preds, (void *)&r->samplers, (void *)&r->surfaces};
        for (int l = 0; l < 4; l++)
            for (uint32_t i = 0; i < lists[l]->len; i++) {
                walk_str(&w, lists[l]->data[i].name);
                walk_attrs(&w, &lists[l]->data[i].attrs);
            }
        for (uint32_t i = 0; i < r->attrs.len; i++) walk_str(&w, r->attrs.data[i].name);
        uint32_t next = 0;
        for (uint32_t i = 0; i < r->insts.len; i++) {
            for (; next < plan.norder && plan.first[plan.order[next]] == i; next++)
                walk_var(&w, &r->vars.data[plan.order[next]]);
            const ir_inst *inst = &r->insts.data[i];
            for (unsigned k = 0; k < inst->nopnd; k++) {
                const ir_opnd *o = &inst->opnd[k];
                if (o->kind == 'L' && o->u.label < r->labels.len && !label_seen[o->u.label]) {
                    label_seen[o->u.label] = 1;
                    walk_str(&w, r->labels.data[o->u.label].name);
                } else if (o->kind == 's' || o->kind == 'S') {
                    walk_str(&w, o->u.str);
                }
            }
        }
        for (; next < plan.norder; next++) walk_var(&w, &r->vars.data[plan.order[next]]);
        for (uint32_t i = 0; i < r->labels.len; i++) walk_str(&w, r->labels.data[i].name);
        for (uint32_t i = 0; i < n; i++) walk_str(&w, i); /* anything else keeps its order */
        const uint32_t *map = w.map;
        if (r->name < n) r->name = map[r->name];
        for (uint32_t v = 0; v < r->vars.len; v++) {
            if (r->vars.data[v].name < n) r->vars.data[v].name = map[r->vars.data[v].name];
            remap_attrs(map, n, &r->vars.data[v].attrs);
        }
        VEC(ir_state_var) *
            mlists[4] = {(void *)&r->addrs, (void *)&r->preds, (void *)&r->samplers, (void *)&r->surfaces};
        for (int l = 0; l < 4; l++)
            for (uint32_t i = 0; i < mlists[l]->len; i++) {
                if (mlists[l]->data[i].name < n) mlists[l]->data[i].name = map[mlists[l]->data[i].name];
                remap_attrs(map, n, &mlists[l]->data[i].attrs);
            }
        for (uint32_t i = 0; i < r->attrs.len; i++)
            if (r->attrs.data[i].name < n) r->attrs.data[i].name = map[r->attrs.data[i].name];
        for (uint32_t i = 0; i < r->labels.len; i++)
            if (r->labels.data[i].name < n) r->labels.data[i].name = map[r->labels.data[i].name];
        for (uint32_t i = 0; i < r->funcdecls.len; i++)
            if (r->funcdecls.data[i] < n) r->funcdecls.data[i] = map[r->funcdecls.data[i]];
        for (uint32_t i = 0; i < r->insts.len; i++) {
            ir_inst *inst = &r->insts.data[i];
            for (unsigned k = 0; k < inst->nopnd; k++)
                if ((inst->opnd[k].kind == 's' || inst->opnd[k].kind == 'S') && inst->opnd[k].u.str < n)
                    inst->opnd[k].u.str = map[inst->opnd[k].u.str];
        }
        for (uint32_t i = 0; i < n; i++) tmp[map[i]] = r->strings.data[i];
        memcpy(r->strings.data, tmp, sizeof(ir_string) * n);
    }
    vx_free(ctx, w.map, sizeof(uint32_t) * n);
    vx_free(ctx, label_seen, r->labels.len + 1);
    vx_free(ctx, tmp, sizeof(ir_string) * n);
    txt_scope_plan_free(ctx, &plan);
    return ok;
}

visa_status visa_module_parse_text(visa_ctx *ctx, const char *name, const char *text, size_t len,
                                   visa_platform platform, visa_module **out) {
    if (!ctx || !out || (!text && len)) return VISA_E_ARG;
    *out = NULL;
    if ((unsigned)platform >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    txt_parser *tp = vx_alloc(ctx, sizeof *tp);
    if (!tp) return nomem_early(ctx, name);
    diag_init(&tp->ds, ctx, name, text, len);
    /* every allocation of the parse goes through the guard: one failure fails the parse */
    vx_guard guard;
    vx_guard_init(&guard, ctx, &tp->ds);
    tp->ctx = &guard.ctx;
    tp->m = ir_module_new(ctx);
    const mn_index *ix = tp->m ? mn_index_get(ctx, tp->ctx) : NULL;
    visa_status st = VISA_OK;
    if (!ix) st = VISA_E_NOMEM;
    if (st == VISA_OK) {
        tp->m->platform = platform;
        tp->m->name = vx_strndup(tp->ctx, tp->ds.file, strlen(tp->ds.file));
        tp->src = text ? text : "";
        tp->len = len;
        tp->line_no = 1;
        tp->pending_eol = -1;
        txt_enum_load(&tp->emask, VISA_EN_emask);
        bool blank;
        while (tp_next_line(tp, &blank) && !guard.failed) {
            if (tp->failed) continue;
            if (blank) {
                tp->blank_pending = true;
                continue;
            }
            tp_skip_ws(tp);
            if (*tp->p == 0) {
                /* comment-only line: trivia stays pending; an eol comment on an empty line
                ** is an own-line comment */
                if (tp->pending_eol >= 0) {
                    (void)vec_push(ctx, &tp->pending_comments, (uint32_t)tp->pending_eol);
                    tp->pending_eol = -1;
                }
                continue;
            }
            tp->blank_pending = false;
            bool more = true;
            while (more && !tp->failed && !guard.failed) {
                (void)parse_statement(tp, ix, &more);
                /* a statement ended by the '}' of its scope: the brace is the next statement */
                if (!more && !tp->failed && !guard.failed && tp_at_end(tp) && *tp->p == '}') more = true;
            }
            if (tp->pending_eol >= 0 || tp->pending_comments.len) {
                /* statement did not take its trivia (error or no attachable node) */
                tp->pending_eol = -1;
            }
            if (tp->ds.suppressed) break;
        }
        if (tp->r && tp->scope_marks.len)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", tp->scope_open_line.data[tp->scope_marks.len - 1],
                    tp->scope_open_col.data[tp->scope_marks.len - 1], "'{' is not closed before the end of input");
        for (uint32_t i = 0; i < tp->m->routines.len; i++) {
            report_undefined_labels(tp, &tp->m->routines.data[i]);
            if (!ir_routine_finalize_attrs(ctx, &tp->m->routines.data[i]) ||
                (!tp->ds.errors && !canon_strings(ctx, &tp->m->routines.data[i])))
                st = VISA_E_NOMEM;
        }
        attach_trivia(tp, &tp->m->tail_trivia);
        tp->m->no_final_newline = len > 0 && text[len - 1] != '\n';
        /* IGC 2.x's asm-text print has .version and no predefined-variable block; IGC 1.0's
        ** block stops before %scratchloc, which came later */
        if (tp->m->has_version && !tp->saw_predef_block) tp->m->dialect = VISA_DIALECT_ASM_TEXT;
        else if (tp->saw_predef_block && tp->predef_vars_listed == VISA_PREDEF_SCRATCHLOC)
            tp->m->dialect = VISA_DIALECT_IGC1;
        if (!tp->m->routines.len && !tp->ds.errors)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", tp->line_no > 1 ? tp->line_no - 1 : 1, 1,
                    "no .kernel or .global_function in input");
        if (tp->ds.errors) st = VISA_E_SYNTAX;
    }
    if (guard.failed || st == VISA_E_NOMEM) {
        diag_oom(&tp->ds);
        st = VISA_E_NOMEM;
    }
    vec_free(ctx, &tp->buf);
    vec_free(ctx, &tp->segs);
    if (tp->buckets) vx_free(ctx, tp->buckets, sizeof(uint32_t) * (tp->bucket_mask + 1));
    vec_free(ctx, &tp->names);
    vec_free(ctx, &tp->name_store);
    vec_free(ctx, &tp->scope_marks);
    vec_free(ctx, &tp->scope_open_line);
    vec_free(ctx, &tp->scope_open_col);
    vec_free(ctx, &tp->label_names);
    vec_free(ctx, &tp->pending_comments);
    if (st == VISA_OK) *out = tp->m;
    else visa_module_destroy(tp->m);
    vx_free(ctx, tp, sizeof *tp);
    return st;
}
