/* template.c -- text templates of the instruction table, used both to print and to parse.
**
** A template is the text of one instruction form after the predicate:
**   %M        the form's mnemonic (first spelling)
**   %S        ".sat" when the first vector operand carries the saturation modifier
**   %E        execution size "(M1, 16)"; parses "(16)", "(M1_NM, 1)", "(NoMask, 8)" too
**   %N        operand N (0-based, in layout order without E P o #), printed by its kind
**   %N:enum   integer operand N through a named enum of enums.def (e.g. %0:cmp_op); on a vector
**             operand, an immediate whose value has a name prints as the name (IGC's va.minmax
**             mode), and parsing a name gives a :ub immediate
**   %Nx       integer operand N as lower-case hex digits without "0x"
**   %Nt       surface id printed by name (%slm T1 T2 TSS %bss %scratch, else T<id>)
**   %NT       surface id printed "T<id>" even for predefined surfaces (IGC's VME printers)
**   %Ns       sampler id printed "S<id>"
**   %Nc       channel mask letters of bits 0-3 in RGBA order (parse: 1-4 letters in that order,
**             either case, right after the text before it)
**   %N[lo+w]:enum   bit field lo..lo+w-1 of integer operand N through an enum; several fields
**             may share an operand (parse ORs them).  A value without a name prints in decimal
**             (IGC would read past its table) and a decimal parses back.
**   %N[lo+w]?:enum  same, but a value without a name prints nothing, not even the blank before
**             it (IGC's 1D convolve mode 1); parsing a missing name gives that value.
**   ' '       one space when printing; any amount of white space when parsing
**   other     literal text
** A NULL template means the generic form "%M%S %E %0 %1 ..." (no %E without an exec byte).
**
** Printing is the same for every template; parsing has two dialects (txt_tpl_dialect, text.h):
** the instruction rows' (TPL_INST) and the sampler/media message rows' (TPL_MESSAGE), whose
** syntax follows other IGC grammar rules: blanks may come before any literal (IGC's lexer makes
** ".RGBA", "(", "," separate tokens), the mnemonic is one exact spelling, and an enum-valued
** integer operand is a field (a name ending at a token boundary, or a decimal), as bit fields are
** in either dialect.
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

static int first_vec(const ir_inst *inst) {
    for (unsigned k = 0; k < inst->nopnd; k++)
        if (strchr("Vv&", inst->opnd[k].kind)) return (int)k;
    return -1;
}

/* An operand directive, after its '%'. */
typedef struct tdir {
    unsigned k; /* operand, in layout order */
    unsigned lo, w; /* bit field lo..lo+w-1 of an integer operand (w = 0: the whole operand) */
    bool opt; /* '?': a value without a name prints nothing */
    int en; /* enum, -1 if none */
    char fmt; /* 'x' 't' 'T' 's' 'c', or 0 */
} tdir;

static unsigned decimal(const char **t) {
    unsigned v = 0;
    while (**t >= '0' && **t <= '9') v = v * 10 + (unsigned)(*(*t)++ - '0');
    return v;
}

/* Decode the operand directive at t (after the '%'); returns the position after it. */
static const char *directive(const char *t, tdir *d) {
    d->lo = d->w = 0;
    d->opt = false;
    d->en = -1;
    d->fmt = 0;
    d->k = decimal(&t);
    if (*t == '[') {
        t++;
        d->lo = decimal(&t);
        if (*t == '+') t++;
        d->w = decimal(&t);
        if (*t == ']') t++;
    }
    if (*t == '?') {
        d->opt = true;
        t++;
    }
    if (*t == ':') {
        const char *s = ++t;
        while ((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_') t++;
        d->en = isa_enum_by_name(s, (size_t)(t - s));
    } else if (*t == 'x' || *t == 't' || *t == 'T' || *t == 's' || *t == 'c') {
        d->fmt = *t++;
    }
    return t;
}

static unsigned field_mask(const tdir *d) { return d->w ? (d->w >= 32 ? ~0u : (1u << d->w) - 1) : 0xFFFFFFFFu; }

/* -- Printing ---------------------------------------------------------------------------------- */
static bool is_identifier(const char *s, size_t n) {
    if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
              (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

void pr_channel_letters(txt_printer *pr, unsigned mask) {
    for (unsigned b = 0; b < 4; b++)
        if (mask & (1u << b)) sb_puts(pr->out, isa_enum_text(VISA_EN_sampler_channel, b));
}

/* An integer operand: whole, or the bit field of d, by the enum's name where it has one. */
static void print_int(txt_printer *pr, int64_t num, const tdir *d) {
    strbuf *o = pr->out;
    if (d->en < 0) {
        if (d->fmt == 'x') sb_printf(o, "%llx", (unsigned long long)num);
        else sb_printf(o, "%lld", (long long)num);
        return;
    }
    uint32_t f = d->w ? ((uint32_t)num >> d->lo) & field_mask(d) : (uint32_t)num;
    const char *t = isa_enum_text((isa_enum_id)d->en, f);
    if (t) sb_puts(o, t);
    else if (d->opt) {
        if (o->len && o->data[o->len - 1] == ' ') o->len--;
    } else if (d->w) sb_printf(o, "%u", f);
    else sb_printf(o, "%lld", (long long)num);
}

static void print_opnd(txt_printer *pr, const ir_inst *inst, const tdir *d) {
    if (d->k >= inst->nopnd) return;
    const ir_opnd *o = &inst->opnd[d->k];
    switch (d->fmt) {
    case 't': pr_state_name(pr, VS_SURFACE, (unsigned)o->u.num); return;
    case 'T': sb_printf(pr->out, "T%u", (unsigned)o->u.num); return;
    case 's': sb_printf(pr->out, "S%u", (unsigned)o->u.num); return;
    case 'c': pr_channel_letters(pr, (unsigned)o->u.num); return;
    default: break;
    }
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
    case 'V': {
        const char *name = NULL;
        if (d->en >= 0 && o->u.vec.cls == VC_IMMEDIATE && o->u.vec.imm <= 0xFFFFFFFFu)
            name = isa_enum_text((isa_enum_id)d->en, (uint32_t)o->u.vec.imm);
        if (name) sb_puts(pr->out, name);
        else pr_vec(pr, &o->u.vec, true);
        break;
    }
    case 'v': pr_vec(pr, &o->u.vec, false); break;
    case 'R': pr_raw(pr, &o->u.raw); break;
    case 'L': pr_label(pr, o->u.label); break;
    case 's':
    case 'S': {
        const ir_string *s = o->u.str < pr->r->strings.len ? &pr->r->strings.data[o->u.str] : NULL;
        if (!s) sb_puts(pr->out, "\"\"");
        else if (is_identifier(s->s, s->len)) sb_putn(pr->out, s->s, s->len);
        else pr_string_lit(pr, s->s, s->len);
        break;
    }
    default: print_int(pr, o->u.num, d);
    }
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
            sb_putn(pr->out, F->mnem, isa_mnem_len(F->mnem));
            t++;
        } else if (*t == 'S') {
            int v = first_vec(inst);
            if (v >= 0 && inst->opnd[v].u.vec.mod == VM_SAT) sb_puts(pr->out, ".sat");
            t++;
        } else if (*t == 'E') {
            pr_exec(pr, inst->exec);
            t++;
        } else {
            tdir d;
            t = directive(t, &d);
            print_opnd(pr, inst, &d);
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

/* -- Parsing: the message dialect's tokens ----------------------------------------------------- */
static bool is_word_c(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static bool is_tok_c(char c) { return is_word_c(c) || c == '-'; }
static bool ends_token(char c) { return !is_tok_c(c); }

bool tp_channel_letters(txt_parser *tp, unsigned *mask) {
    const char *at = tp->p;
    unsigned m = 0;
    for (unsigned b = 0; b < 4; b++) {
        const char *letter = isa_enum_text(VISA_EN_sampler_channel, b);
        char c = *tp->p;
        if (c == letter[0] || c == letter[0] + ('a' - 'A')) {
            m |= 1u << b;
            tp->p++;
        }
    }
    if (!m || is_tok_c(*tp->p)) {
        tp_error(tp, at, "expected channel letters R, G, B, A (in this order)");
        return false;
    }
    *mask = m;
    return true;
}

bool tp_state_id(txt_parser *tp, int64_t *id) {
    uint8_t cls;
    uint32_t v;
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (!tp_state_var(tp, &cls, &v)) return false;
    if (v > 0xFF) {
        tp_error(tp, at, "surface/sampler id %u does not fit the operand byte", (unsigned)v);
        return false;
    }
    *id = v;
    return true;
}

bool tp_mnemonic(txt_parser *tp, int form) {
    tp_skip_ws(tp);
    const char *m;
    size_t n;
    for (const char *cur = isa_forms[form].mnem; isa_mnem_next(&cur, &m, &n);) {
        if (strncmp(tp->p, m, n) == 0 && !is_word_c(tp->p[n])) {
            tp->p += n;
            return true;
        }
    }
    /* report at the first differing character: the function suffix of "va.xxx" rows */
    const char *at = tp->p;
    m = isa_forms[form].mnem;
    size_t i = 0;
    n = isa_mnem_len(m);
    while (i < n && at[i] == m[i]) i++;
    while (i > 0 && at[i - 1] != '.') i--;
    size_t w = 0;
    while (is_tok_c(at[i + w])) w++;
    if (i > 0) tp_error(tp, at + i, "unknown '%.*s' function '%.*s'", (int)(i - 1), at, (int)w, at + i);
    else tp_error(tp, at, "expected '%.*s'", (int)n, m);
    return false;
}

static void enum_error(txt_parser *tp, const char *at, int en) {
    char list[240];
    size_t n = 0;
    uint32_t v;
    const char *text;
    list[0] = 0;
    for (unsigned i = 0; isa_enum_at((isa_enum_id)en, i, &v, &text) && n + 8 < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", text);
    if (n >= sizeof list) n = sizeof list - 1;
    tp_error(tp, at, "expected one of: %s", list);
}

/* The bit field of d in integer operand o (ORed in): a name ending at a token boundary, or a
** decimal; for '?', nothing stands for the value IGC prints as nothing. */
static bool parse_enum_field(txt_parser *tp, ir_opnd *o, const tdir *d) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint32_t v = 0;
    unsigned mask = field_mask(d);
    size_t len = isa_enum_longest_at((isa_enum_id)d->en, tp->p, ends_token, &v);
    if (len) {
        tp->p += len;
    } else {
        size_t n = 0;
        while (is_tok_c(at[n])) n++;
        bool digits = n > 0;
        for (size_t i = 0; i < n; i++) digits &= at[i] >= '0' && at[i] <= '9';
        if (digits) {
            uint64_t u;
            if (!tp_uint_dec(tp, &u)) return false;
            if (u > mask || (d->w == 0 && u > 0xFF)) {
                tp_error(tp, at, "value %llu out of range for this field", (unsigned long long)u);
                return false;
            }
            v = (uint32_t)u;
        } else if (d->opt) {
            /* the value IGC prints as nothing */
            while (v <= mask && isa_enum_text((isa_enum_id)d->en, v)) v++;
        } else {
            enum_error(tp, at, d->en);
            return false;
        }
    }
    o->u.num |= (int64_t)((uint64_t)v << d->lo);
    return true;
}

/* -- Parsing ----------------------------------------------------------------------------------- */
/* An integer operand through enum en (the instruction dialect): the longest name at the cursor. */
static bool parse_enum_opnd(txt_parser *tp, ir_opnd *o, int en) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint32_t val;
    size_t best = isa_enum_longest_at((isa_enum_id)en, tp->p, NULL, &val);
    if (best) {
        tp->p += best;
        o->u.num = val;
        return true;
    }
    /* point at the first character no spelling accepts */
    const char *text;
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
            ln += (size_t)snprintf(list + ln, sizeof list - ln, "%s%s", ln ? ", " : "", text + reach);
    const char *bad = at + reach;
    size_t bn = 0;
    while (bad[bn] && bad[bn] != ' ' && bad[bn] != '\t' && bad[bn] != '(' && bn < 32) bn++;
    tp_error(tp, bad, "unknown '%.*s' (expected one of: %s)", (int)bn, bad, list);
    return false;
}

static bool parse_int_opnd(txt_parser *tp, ir_opnd *o, char kind, char fmt, int en) {
    if (en >= 0) return parse_enum_opnd(tp, o, en);
    tp_skip_ws(tp);
    const char *at = tp->p;
    int64_t v;
    if (fmt == 'x') {
        uint64_t u = 0;
        int n = 0;
        while (1) {
            char c = *tp->p;
            int d = (c >= '0' && c <= '9')   ? c - '0'
                    : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                             : -1;
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
    default:
        lo = INT32_MIN;
        hi = INT32_MAX;
        break;
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
        uint32_t line, col;
        tp_pos_of(tp, at, &line, &col);
        o->line_off = line >= inst->line && line - inst->line <= 255 ? (uint8_t)(line - inst->line) : 0;
        o->col = col <= 0xFFFF ? (uint16_t)col : 0;
    }
    switch (kind) {
    case 'V':
    case 'v':
    case '&':
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
    case 's':
    case 'S': {
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

/* %M: one of the form's '|' spellings, the longest that matches (instruction dialect). */
static bool parse_mnemonic(txt_parser *tp, const isa_form *F) {
    const char *s;
    size_t n, best = 0;
    for (const char *cur = F->mnem; isa_mnem_next(&cur, &s, &n);)
        if (n > best && strncmp(tp->p, s, n) == 0) best = n;
    if (!best || is_word_c(tp->p[best])) {
        tp_error(tp, tp->p, "expected mnemonic '%s'", F->mnem);
        return false;
    }
    tp->p += best;
    return true;
}

/* Operand directive d into inst->opnd[d->k]. */
static bool parse_directive_opnd(txt_parser *tp, ir_inst *inst, const tdir *d, txt_tpl_dialect dialect) {
    ir_opnd *o = &inst->opnd[d->k];
    if (d->fmt == 'c') { /* part of the token before it: no blanks */
        unsigned m;
        if (!tp_channel_letters(tp, &m)) return false;
        o->u.num |= m;
        return true;
    }
    if (d->fmt == 't' || d->fmt == 'T' || d->fmt == 's') return tp_state_id(tp, &o->u.num);
    if (d->en >= 0 && o->kind == 'V') {
        uint32_t v;
        tp_skip_ws(tp);
        size_t len = isa_enum_longest_at((isa_enum_id)d->en, tp->p, ends_token, &v);
        if (!len) return tp_parse_opnd(tp, inst, d->k, 'V', 0, -1);
        tp->p += len;
        memset(&o->u.vec, 0, sizeof o->u.vec);
        o->u.vec.cls = VC_IMMEDIATE;
        o->u.vec.type = VISA_TYPE_UB;
        o->u.vec.imm = v;
        return true;
    }
    if (d->en >= 0 && (d->w || d->opt || dialect == TPL_MESSAGE)) return parse_enum_field(tp, o, d);
    return tp_parse_opnd(tp, inst, d->k, o->kind, d->fmt, d->en);
}

bool tp_parse_template(txt_parser *tp, int form, const char *tmpl, txt_tpl_dialect dialect, ir_inst *inst) {
    const isa_form *F = &isa_forms[form];
    char full[64], gen[160];
    const char *layout = isa_form_layout(form, full);
    if (!tmpl) tmpl = generic_template(layout, gen, sizeof gen);
    unsigned count = isa_layout_opnds(layout);
    inst->form = (uint16_t)form;
    if (!tp_inst_alloc(tp, inst, count)) return false;
    const char *at = layout;
    for (unsigned k = 0; k < count; k++) inst->opnd[k].kind = isa_layout_next_kind(&at);
    bool sat = false;
    tp_skip_ws(tp);
    for (const char *t = tmpl; *t;) {
        if (*t == ' ') {
            tp_skip_ws(tp);
            t++;
            continue;
        }
        if (*t != '%') {
            if (dialect == TPL_MESSAGE) tp_skip_ws(tp);
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
            if (!(dialect == TPL_MESSAGE ? tp_mnemonic(tp, form) : parse_mnemonic(tp, F))) return false;
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
            tdir d;
            t = directive(t, &d);
            if (d.k >= count) return false; /* a table error */
            if (!parse_directive_opnd(tp, inst, &d, dialect)) return false;
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
