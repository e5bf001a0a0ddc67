/* template.c -- text templates of the instruction table, used both to print and to parse.
**
** A template is the text of one instruction form after the predicate:
**   %M        the form's mnemonic (first spelling)
**   %S        ".sat" when the first vector operand carries the saturation modifier
**   %E        execution size "(M1, 16)"; parses "(16)", "(M1_NM, 1)", "(NoMask, 8)" too
**   %N        operand N (0-based, in layout order without E P o #), printed by its kind
**   %N:enum   integer operand N through a named enum of enums.def (e.g. %0:cmp_op)
**   %Nx       integer operand N as lower-case hex digits without "0x"
**   ' '       one space when printing; any amount of white space when parsing
**   other     literal text
** A NULL template means the generic form "%M%S %E %0 %1 ..." (no %E without an exec byte).
*/
#include <stdio.h>
#include <string.h>

#include "text.h"

static const char *generic_template(const char *layout, char *buf, size_t size) {
    /* built by hand, not with snprintf: this runs for most instructions parsed and printed */
    size_t n = 0;
    const char *head = strchr(layout, 'E') ? "%M%S %E" : "%M%S";
    size_t hl = strlen(head);
    if (hl + 1 > size) return "";
    memcpy(buf, head, hl);
    n = hl;
    unsigned count = isa_layout_opnds(layout);
    for (unsigned k = 0; k < count && n + 6 < size; k++) {
        buf[n++] = ' ';
        buf[n++] = '%';
        n += txt_small_decimal(buf + n, k);
    }
    buf[n] = 0;
    return buf;
}

static void first_mnem(const isa_form *f, const char **s, size_t *n) {
    const char *e = strchr(f->mnem, '|');
    *s = f->mnem;
    *n = e ? (size_t)(e - f->mnem) : strlen(f->mnem);
}

static int first_vec(const ir_inst *inst) {
    for (unsigned k = 0; k < inst->nopnd; k++)
        if (strchr("Vv&", inst->opnd[k].kind)) return (int)k;
    return -1;
}

/* -- Printing ---------------------------------------------------------------------------------- */
static bool is_identifier(const char *s, size_t n) {
    if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
              (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

static void print_opnd(txt_printer *pr, const ir_inst *inst, unsigned k, char fmt, int en) {
    if (k >= inst->nopnd) return;
    const ir_opnd *o = &inst->opnd[k];
    switch (o->kind) {
    case '&':
        if (o->u.vec.cls == VC_STATE) {
            /* IGC prints a surface/sampler address-of with its offset in bytes (dwords * 4) */
            sb_putc(pr->out, '&');
            pr_state_name(pr, o->u.vec.state_cls, o->u.vec.id);
            if (o->u.vec.row) sb_printf(pr->out, "[%u]", o->u.vec.row * 4u);
            break;
        }
        pr_vec(pr, &o->u.vec, true);
        break;
    case 'V': pr_vec(pr, &o->u.vec, true); break;
    case 'v': pr_vec(pr, &o->u.vec, false); break;
    case 'R': pr_raw(pr, &o->u.raw); break;
    case 'L': pr_label(pr, o->u.label); break;
    case 's': case 'S': {
        const ir_string *s = o->u.str < pr->r->strings.len ? &pr->r->strings.data[o->u.str] : NULL;
        if (!s) sb_puts(pr->out, "\"\"");
        else if (is_identifier(s->s, s->len)) sb_putn(pr->out, s->s, s->len);
        else pr_string_lit(pr, s->s, s->len);
        break;
    }
    default:
        if (en >= 0) {
            const char *t = isa_enum_text((isa_enum_id)en, (uint32_t)o->u.num);
            if (t) sb_puts(pr->out, t);
            else sb_printf(pr->out, "%lld", (long long)o->u.num);
        } else if (fmt == 'x') {
            sb_printf(pr->out, "%llx", (unsigned long long)o->u.num);
        } else {
            sb_printf(pr->out, "%lld", (long long)o->u.num);
        }
    }
}

/* Parse "%N[:enum|x]" at t; returns the position after it. */
static const char *directive_operand(const char *t, unsigned *k, char *fmt, int *en) {
    *k = 0;
    while (*t >= '0' && *t <= '9') *k = *k * 10 + (unsigned)(*t++ - '0');
    *fmt = 0;
    *en = -1;
    if (*t == ':') {
        const char *s = ++t;
        while ((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_') t++;
        *en = isa_enum_by_name(s, (size_t)(t - s));
    } else if (*t == 'x') {
        *fmt = 'x';
        t++;
    }
    return t;
}

void pr_template(txt_printer *pr, const char *tmpl, const ir_inst *inst) {
    const isa_form *F = &isa_forms[inst->form];
    char full[64], gen[160];
    if (!tmpl) tmpl = generic_template(isa_form_layout(inst->form, full), gen, sizeof gen);
    for (const char *t = tmpl; *t;) {
        if (*t != '%') {
            sb_putc(pr->out, *t++);
            continue;
        }
        t++;
        if (*t == 'M') {
            const char *s;
            size_t n;
            first_mnem(F, &s, &n);
            sb_putn(pr->out, s, n);
            t++;
        } else if (*t == 'S') {
            int v = first_vec(inst);
            if (v >= 0 && inst->opnd[v].u.vec.mod == VM_SAT) sb_puts(pr->out, ".sat");
            t++;
        } else if (*t == 'E') {
            pr_exec(pr, inst->exec);
            t++;
        } else {
            unsigned k;
            char fmt;
            int en;
            t = directive_operand(t, &k, &fmt, &en);
            print_opnd(pr, inst, k, fmt, en);
        }
    }
}

/* The first vector operand of a move/ALU/compare/address form is its destination. */
static bool is_dst(const ir_inst *inst, unsigned k) {
    unsigned g = isa_form_group(inst->form);
    if (g != G_MOV && g != G_ARITH && g != G_LOGIC && g != G_COMPARE && g != G_ADDRESS) return false;
    for (unsigned i = 0; i < k; i++)
        if (strchr("Vv&", inst->opnd[i].kind)) return false;
    return strchr("Vv&", inst->opnd[k].kind) != NULL;
}

/* -- Parsing ----------------------------------------------------------------------------------- */
static bool parse_int_opnd(txt_parser *tp, ir_opnd *o, char kind, char fmt, int en) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    int64_t v;
    if (en >= 0) {
        /* longest enum spelling that matches here */
        uint32_t val, best_val = 0;
        const char *text;
        size_t best = 0;
        for (unsigned i = 0; isa_enum_at((isa_enum_id)en, i, &val, &text); i++) {
            size_t n = strlen(text);
            if (n > best && strncmp(tp->p, text, n) == 0) {
                best = n;
                best_val = val;
            }
        }
        if (!best) {
            /* point at the first character no spelling accepts */
            size_t reach = 0;
            for (unsigned i = 0; isa_enum_at((isa_enum_id)en, i, &val, &text); i++) {
                size_t k = 0;
                while (text[k] && tp->p[k] == text[k]) k++;
                if (k > reach) reach = k;
            }
            char list[256];
            size_t ln = 0;
            for (unsigned i = 0; isa_enum_at((isa_enum_id)en, i, &val, &text) && ln < 200; i++)
                if (!strncmp(text, at, reach) && text[reach])
                    ln += (size_t)snprintf(list + ln, sizeof list - ln, "%s%s", ln ? ", " : "",
                                           text + reach);
            const char *bad = at + reach;
            size_t bn = 0;
            while (bad[bn] && bad[bn] != ' ' && bad[bn] != '\t' && bad[bn] != '(' && bn < 32) bn++;
            tp_error(tp, bad, "unknown '%.*s' (expected one of: %s)", (int)bn, bad, list);
            return false;
        }
        tp->p += best;
        o->u.num = best_val;
        return true;
    }
    if (fmt == 'x') {
        uint64_t u = 0;
        int n = 0;
        while (1) {
            char c = *tp->p;
            int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
            if (d < 0 || n > 16) break;
            u = u * 16 + (uint64_t)d;
            tp->p++;
            n++;
        }
        if (!n) {
            tp_error(tp, at, "expected hexadecimal digits");
            return false;
        }
        v = (int64_t)u;
    } else if (!tp_int_expr(tp, &v)) {
        return false;
    }
    int64_t lo = 0, hi = 0;
    switch (kind) {
    case 'b': hi = 0xFF; break;
    case 'w': hi = 0xFFFF; break;
    case 'd': hi = 0xFFFFFFFFll; break;
    default: lo = INT32_MIN; hi = INT32_MAX; break;
    }
    if (v < lo || v > hi) {
        tp_error(tp, at, "value %lld out of range for this field", (long long)v);
        return false;
    }
    o->u.num = v;
    return true;
}

bool tp_parse_opnd(txt_parser *tp, ir_inst *inst, unsigned k, char kind, char fmt, int en) {
    ir_opnd *o = &inst->opnd[k];
    o->kind = kind;
    {
        /* where the operand starts (diagnostics such as the verifier's point at it) */
        const char *at = tp->p;
        while (*at == ' ' || *at == '\t') at++;
        uint32_t line = tp_line_of(tp, at), col = tp_col_of(tp, at);
        o->line_off = line >= inst->line && line - inst->line <= 255 ? (uint8_t)(line - inst->line) : 0;
        o->col = col <= 0xFFFF ? (uint16_t)col : 0;
    }
    switch (kind) {
    case 'V': case 'v': case '&':
        if (!tp_vec_operand(tp, &o->u.vec, kind == '&')) return false;
        if (kind == 'v' && o->u.vec.cls == VC_GENERAL && o->u.vec.region == 0)
            o->u.vec.region = IR_REGION(2, 2, 1); /* implicit <1;1,0> */
        else if (kind == 'V' && o->u.vec.cls == VC_GENERAL && o->u.vec.region == 0) {
            tp_error(tp, tp->p, "expected a region such as <1;1,0> or <1>");
            return false;
        }
        if ((o->u.vec.cls == VC_GENERAL || o->u.vec.cls == VC_INDIRECT) && is_dst(inst, k) &&
            (IR_REGION_V(o->u.vec.region) || IR_REGION_W(o->u.vec.region))) {
            tp_error(tp, tp->region_sep_at ? tp->region_sep_at : tp->p,
                     "a destination region has only a horizontal stride, e.g. <1>");
            return false;
        }
        return true;
    case 'R': return tp_raw_operand(tp, &o->u.raw);
    case 'L': {
        const char *name;
        size_t n = tp_ident(tp, &name);
        if (!n || *name == '%') {
            tp_error(tp, tp->p, "expected a label");
            return false;
        }
        return tp_label_ref(tp, name, n, 0, &o->u.label);
    }
    case 's': case 'S': {
        tp_skip_ws(tp);
        char *s;
        size_t n;
        if (*tp->p == '"') {
            if (!tp_string(tp, &s, &n)) return false;
        } else {
            const char *name;
            n = tp_ident(tp, &name);
            if (!n) {
                tp_error(tp, tp->p, "expected a name or string");
                return false;
            }
            s = vx_strndup(tp->ctx, name, n);
            if (!s) return false;
        }
        o->u.str = ir_string_add(tp->ctx, tp->r, s, n);
        vx_free(tp->ctx, s, n + 1);
        return o->u.str != UINT32_MAX;
    }
    default: return parse_int_opnd(tp, o, kind, fmt, en);
    }
}

bool tp_parse_template(txt_parser *tp, int form, const char *tmpl, ir_inst *inst) {
    const isa_form *F = &isa_forms[form];
    char full[64], gen[160];
    const char *layout = isa_form_layout(form, full);
    if (!tmpl) tmpl = generic_template(layout, gen, sizeof gen);
    unsigned count = isa_layout_opnds(layout);
    inst->form = (uint16_t)form;
    if (!tp_inst_alloc(tp, inst, count)) return false;
    for (unsigned k = 0; k < count; k++) inst->opnd[k].kind = isa_layout_kind(layout, k);
    bool sat = false;
    tp_skip_ws(tp);
    for (const char *t = tmpl; *t;) {
        if (*t == ' ') {
            tp_skip_ws(tp);
            t++;
            continue;
        }
        if (*t != '%') {
            if (*tp->p != *t) {
                tp_error(tp, tp->p, "expected '%c'", *t);
                return false;
            }
            tp->p++;
            t++;
            continue;
        }
        t++;
        if (*t == 'M') {
            /* any of the form's '|' spellings; the longest that matches */
            const char *s = F->mnem;
            size_t best = 0;
            while (*s) {
                const char *e = strchr(s, '|');
                size_t n = e ? (size_t)(e - s) : strlen(s);
                if (n > best && strncmp(tp->p, s, n) == 0) best = n;
                s += n + (e ? 1 : 0);
            }
            char c = tp->p[best];
            if (!best || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9') || c == '_') {
                tp_error(tp, tp->p, "expected mnemonic '%s'", F->mnem);
                return false;
            }
            tp->p += best;
            t++;
        } else if (*t == 'S') {
            /* IGC's grammar takes .sat on every ALU form; whether the instruction allows it
            ** is the verifier's rule (VF_SAT), so the text keeps what the user wrote */
            if (strncmp(tp->p, ".sat", 4) == 0) {
                tp->p += 4;
                sat = true;
            }
            t++;
        } else if (*t == 'E') {
            if (!tp_exec(tp, &inst->exec)) return false;
            t++;
        } else {
            unsigned k;
            char fmt;
            int en;
            t = directive_operand(t, &k, &fmt, &en);
            if (k >= count) return false;
            if (!tp_parse_opnd(tp, inst, k, inst->opnd[k].kind, fmt, en)) return false;
        }
    }
    if (sat) {
        int v = first_vec(inst);
        if (v < 0 || inst->opnd[v].u.vec.mod) {
            tp_error(tp, tp->p, "'.sat' needs a destination without modifiers");
            return false;
        }
        inst->opnd[v].u.vec.mod = VM_SAT;
    }
    return true;
}
