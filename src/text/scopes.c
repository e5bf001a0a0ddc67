/* scopes.c -- where the printer puts each variable declaration (docs/text-syntax/scopes.md).
** IGC's printer hoists every declaration to the routine header, so two variables of one routine
** that share a name (declared in different { } scopes) print ambiguously and do not read back.
** The plan keeps IGC's hoisted print whenever names are unique; otherwise each same-named
** variable is declared in its own { } scope around the instructions from its first to its last
** reference, and when no such nesting reads back as the same module, the later duplicates are
** renamed.  The plan depends on the IR alone, so fmt, fmt --strip-comments and dis agree.  The
** parser uses the same plan to order a routine's string pool as a parse of the print would.
*/
#include <stdio.h>
#include <string.h>

#include "text.h"

static bool name_eq(const ir_routine *r, uint32_t a, uint32_t b) {
    const ir_var *x = &r->vars.data[a], *y = &r->vars.data[b];
    if (x->name == y->name) return true;
    if (x->name >= r->strings.len || y->name >= r->strings.len) return false;
    const ir_string *s = &r->strings.data[x->name], *t = &r->strings.data[y->name];
    return s->len == t->len && !memcmp(s->s, t->s, s->len);
}

static void ref_var(txt_scope_plan *p, uint32_t id, uint32_t at) {
    if (id < ISA_NUM_PREDEF_VARS || id - ISA_NUM_PREDEF_VARS >= p->nvars) return;
    uint32_t v = id - ISA_NUM_PREDEF_VARS;
    if (p->first[v] == UINT32_MAX) p->first[v] = at;
    p->end[v] = at + 1;
}

static bool in_range(const txt_scope_plan *p, uint32_t v, uint32_t at) { return at >= p->first[v] && at < p->end[v]; }

/* Does the scope of v (interval [first, end)) contain the scope of w?  Equal intervals nest in
** print order: the later one is inside. */
static bool contains(const txt_scope_plan *p, uint32_t v, uint32_t w) {
    return p->first[v] <= p->first[w] && p->end[w] <= p->end[v] &&
           (p->first[v] != p->first[w] || p->end[v] != p->end[w] || v < w);
}

/* Print order of the scoped variables: by opening slot; among those opening together the
** outer (longer) first; an unreferenced variable's empty scope comes first at slot 0. */
static int order_cmp(const txt_scope_plan *p, uint32_t a, uint32_t b) {
    if (p->first[a] != p->first[b]) return p->first[a] < p->first[b] ? -1 : 1;
    bool ea = p->first[a] == p->end[a], eb = p->first[b] == p->end[b];
    if (ea != eb) return ea ? -1 : 1;
    if (p->end[a] != p->end[b]) return p->end[a] > p->end[b] ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
}

static bool scopes_work(const ir_routine *r, txt_scope_plan *p) {
    uint32_t n = p->nvars;
    /* inputs print in the header: their variables must be there */
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        if ((in->kind & 7) == IN_GENERAL && in->id >= ISA_NUM_PREDEF_VARS && in->id - ISA_NUM_PREDEF_VARS < n &&
            p->scoped[in->id - ISA_NUM_PREDEF_VARS])
            return false;
    }
    for (uint32_t v = 0; v < n; v++) {
        const ir_var *x = &r->vars.data[v];
        if (!x->has_alias || x->alias_id < ISA_NUM_PREDEF_VARS) continue;
        uint32_t parent = x->alias_id - ISA_NUM_PREDEF_VARS;
        if (parent >= n || !p->scoped[parent]) continue;
        /* an alias of a scoped variable is declared inside its scope */
        if (!p->scoped[v] || !contains(p, parent, v)) return false;
    }
    /* scopes nest (or are apart); names resolve to the right declaration */
    for (uint32_t a = 0; a < n; a++) {
        if (!p->scoped[a]) continue;
        for (uint32_t b = 0; b < n; b++) {
            if (!p->scoped[b] || a == b) continue;
            bool apart = p->end[a] <= p->first[b] || p->end[b] <= p->first[a] || p->first[a] == p->end[a] ||
                         p->first[b] == p->end[b];
            if (!apart && !contains(p, a, b) && !contains(p, b, a)) return false;
            if (!apart && contains(p, a, b) && name_eq(r, a, b)) {
                /* a reference to a inside b's scope would find b */
                for (uint32_t i = p->first[b]; i < p->end[b]; i++)
                    if (p->refs[a] && in_range(p, a, i)) {
                        const ir_inst *inst = &r->insts.data[i];
                        for (unsigned k = 0; k < inst->nopnd; k++) {
                            const ir_opnd *o = &inst->opnd[k];
                            uint32_t id = UINT32_MAX;
                            if ((o->kind == 'V' || o->kind == 'v' || o->kind == '&') &&
                                (o->u.vec.cls == VC_GENERAL || o->u.vec.cls == VC_ADDROF))
                                id = o->u.vec.id;
                            else if (o->kind == 'R') id = o->u.raw.id;
                            if (id == a + ISA_NUM_PREDEF_VARS) return false;
                        }
                    }
            }
        }
    }
    /* declarations print in id order (ids are creation order when read back) */
    uint32_t last = 0;
    bool any = false;
    for (uint32_t v = 0; v < n; v++)
        if (!p->scoped[v]) last = v, any = true;
    for (uint32_t k = 0; k < p->norder; k++) {
        uint32_t v = p->order[k];
        if (any && v < last) return false;
        last = v;
        any = true;
    }
    return true;
}

static void plan_free_names(visa_ctx *ctx, txt_scope_plan *p) {
    if (!p->renamed) return;
    for (uint32_t v = 0; v < p->nvars; v++)
        if (p->renamed[v]) vx_free(ctx, p->renamed[v], strlen(p->renamed[v]) + 1);
    vx_free(ctx, p->renamed, sizeof(char *) * p->nvars);
    p->renamed = NULL;
}

void txt_scope_plan_free(visa_ctx *ctx, txt_scope_plan *p) {
    plan_free_names(ctx, p);
    size_t n = p->nvars ? p->nvars : 1;
    vx_free(ctx, p->scoped, n);
    vx_free(ctx, p->refs, n);
    vx_free(ctx, p->first, sizeof(uint32_t) * n);
    vx_free(ctx, p->end, sizeof(uint32_t) * n);
    vx_free(ctx, p->order, sizeof(uint32_t) * n);
    memset(p, 0, sizeof *p);
}

static bool name_taken(const ir_routine *r, const txt_scope_plan *p, const char *s) {
    for (uint32_t v = 0; v < p->nvars; v++) {
        const char *t = p->renamed && p->renamed[v] ? p->renamed[v] : ir_str(r, r->vars.data[v].name);
        if (!strcmp(t, s)) return true;
    }
    return false;
}

bool txt_scope_plan_build(visa_ctx *ctx, const ir_routine *r, txt_scope_plan *p) {
    memset(p, 0, sizeof *p);
    uint32_t n = r->vars.len;
    p->nvars = n;
    size_t m = n ? n : 1;
    p->scoped = vx_alloc(ctx, m);
    p->refs = vx_alloc(ctx, m);
    p->first = vx_alloc(ctx, sizeof(uint32_t) * m);
    p->end = vx_alloc(ctx, sizeof(uint32_t) * m);
    p->order = vx_alloc(ctx, sizeof(uint32_t) * m);
    if (!p->scoped || !p->refs || !p->first || !p->end || !p->order) {
        txt_scope_plan_free(ctx, p);
        return false;
    }
    /* same-named variables (names hashed into buckets so large routines stay linear; as many
    ** buckets as the routine needs, as this runs for every routine parsed and printed) */
    bool dup = false;
    {
        uint32_t nbuckets = 16;
        while (nbuckets < 2 * m && nbuckets < (1u << 20)) nbuckets *= 2;
        uint32_t *head = vx_alloc(ctx, sizeof(uint32_t) * nbuckets), *next = vx_alloc(ctx, sizeof(uint32_t) * m);
        if (!head || !next) {
            vx_free(ctx, head, sizeof(uint32_t) * nbuckets);
            vx_free(ctx, next, sizeof(uint32_t) * m);
            txt_scope_plan_free(ctx, p);
            return false;
        }
        memset(head, 0xFF, sizeof(uint32_t) * nbuckets);
        for (uint32_t v = 0; v < n; v++) {
            const char *s = ir_str(r, r->vars.data[v].name);
            uint32_t h = vx_hash_str(s) & (nbuckets - 1);
            for (uint32_t w = head[h]; w != UINT32_MAX; w = next[w])
                if (name_eq(r, v, w)) p->scoped[v] = p->scoped[w] = 1, dup = true;
            next[v] = head[h];
            head[h] = v;
        }
        vx_free(ctx, head, sizeof(uint32_t) * nbuckets);
        vx_free(ctx, next, sizeof(uint32_t) * m);
    }
    if (!dup) return true;
    p->any_scoped = true;
    /* variables declared after the first scoped one print in scopes too, or they would be
    ** declared (and numbered, when read back) before it */
    for (uint32_t v = 0, seen = 0; v < n; v++) {
        if (seen) p->scoped[v] = 1;
        seen |= p->scoped[v];
    }
    for (uint32_t v = 0; v < n; v++) p->first[v] = UINT32_MAX, p->end[v] = 0;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *inst = &r->insts.data[i];
        for (unsigned k = 0; k < inst->nopnd; k++) {
            const ir_opnd *o = &inst->opnd[k];
            if ((o->kind == 'V' || o->kind == 'v' || o->kind == '&') &&
                (o->u.vec.cls == VC_GENERAL || o->u.vec.cls == VC_ADDROF))
                ref_var(p, o->u.vec.id, i);
            else if (o->kind == 'R') ref_var(p, o->u.raw.id, i);
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        p->refs[v] = p->first[v] != UINT32_MAX;
        if (!p->refs[v]) p->first[v] = p->end[v] = 0;
    }
    /* an alias's scope lies within its parent's: widen the parent over its aliases; and scopes
    ** that partly overlap widen to their union (below), until nothing changes */
    for (uint32_t pass = 0; pass < 16; pass++) {
        bool changed = false;
        for (uint32_t v = n; v-- > 0;) {
            const ir_var *x = &r->vars.data[v];
            if (!p->scoped[v] || !x->has_alias || x->alias_id < ISA_NUM_PREDEF_VARS) continue;
            uint32_t q = x->alias_id - ISA_NUM_PREDEF_VARS;
            if (q >= n || !p->scoped[q] || p->first[v] == p->end[v]) continue;
            if (p->first[q] == p->end[q]) p->first[q] = p->first[v], p->end[q] = p->end[v], changed = true;
            if (p->first[v] < p->first[q]) p->first[q] = p->first[v], changed = true;
            if (p->end[v] > p->end[q]) p->end[q] = p->end[v], changed = true;
        }
        /* declarations print in id order, so of two overlapping scopes the lower id's must contain
        ** the other; when it does not (they partly overlap, or the later one is wider), widen both
        ** to their union, which prints as scopes opening and closing together (tvisa's regmap:
        ** alias_0f, alias_0w, aw).  Same-named variables are left apart; scopes_work decides. */
        for (uint32_t a = 0; a < n; a++) {
            if (!p->scoped[a] || p->first[a] == p->end[a]) continue;
            for (uint32_t b = a + 1; b < n; b++) {
                if (!p->scoped[b] || p->first[b] == p->end[b] || name_eq(r, a, b)) continue;
                bool apart = p->end[a] <= p->first[b] || p->end[b] <= p->first[a];
                if (apart || contains(p, a, b)) continue;
                uint32_t f = p->first[a] < p->first[b] ? p->first[a] : p->first[b];
                uint32_t e = p->end[a] > p->end[b] ? p->end[a] : p->end[b];
                p->first[a] = p->first[b] = f;
                p->end[a] = p->end[b] = e;
                changed = true;
            }
        }
        if (!changed) break;
    }
    /* print order: insertion sort (duplicates are few) */
    for (uint32_t v = 0; v < n; v++) {
        if (!p->scoped[v]) continue;
        uint32_t k = p->norder++;
        while (k > 0 && order_cmp(p, p->order[k - 1], v) > 0) {
            p->order[k] = p->order[k - 1];
            k--;
        }
        p->order[k] = v;
    }
    if (scopes_work(r, p)) return true;
    /* fall back: hoist everything; the second and later variables of a name become
    ** NAME_<id>, with "_<id>" repeated until the name is unused */
    p->any_scoped = false;
    p->norder = 0;
    memset(p->scoped, 0, m);
    p->renamed = vx_alloc(ctx, sizeof(char *) * n);
    if (!p->renamed) {
        txt_scope_plan_free(ctx, p);
        return false;
    }
    memset(p->renamed, 0, sizeof(char *) * n);
    for (uint32_t v = 0; v < n; v++) {
        bool later = false;
        for (uint32_t w = 0; w < v && !later; w++) later = name_eq(r, v, w);
        if (!later) continue;
        strbuf sb;
        sb_init(&sb, ctx);
        sb_puts(&sb, ir_str(r, r->vars.data[v].name));
        for (int guard = 0; guard < 64; guard++) {
            sb_printf(&sb, "_%u", v + ISA_NUM_PREDEF_VARS);
            if (sb.oom || !name_taken(r, p, sb_cstr(&sb))) break;
        }
        p->renamed[v] = sb.oom ? NULL : vx_strndup(ctx, sb.data, sb.len);
        sb_free(&sb);
        if (!p->renamed[v]) {
            txt_scope_plan_free(ctx, p);
            return false;
        }
    }
    return true;
}
