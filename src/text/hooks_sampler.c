/* hooks_sampler.c -- text syntax of the sampler / 3D / media / VME / VA family.
** Facts: docs/text-syntax/sampler-media.md; IGC IsaDisassembly.cpp printInstructionSampler,
** printInstructionMisc (VME, URB write), printInstructionDataport (RT write); CISA.y rules.
**
** Two kinds of rows:
**  * Rows with a text template in ops.def (SAMPLE_UNORM, AVS, VA and VA_SKL_PLUS sub rows, VME_*,
**    URB_WRITE3D) are printed and parsed by the template interpreter below.  The template
**    language is template.c's (literal text; ' ' = one space when printing, any blanks when
**    parsing; %M mnemonic; %E exec size; %N operand N by its layout kind; %N:enum) plus:
**      %Nt   surface id printed by name (%slm T1 T2 TSS %bss %scratch, else T<id>)
**      %NT   surface id printed "T<id>" even for predefined surfaces (IGC's VME printers)
**      %Ns   sampler id printed "S<id>"
**      %Nc   channel mask letters of bits 0-3 in RGBA order (parse: 1-4 letters in that order,
**            either case)
**      %N[lo+w]:enum   bit field lo..lo+w-1 of integer operand N through an enum; several
**            fields may share an operand (parse ORs them).  A value without a name prints in
**            decimal (IGC would read past its table) and a decimal parses back.
**      %N[lo+w]?:enum  same, but a value without a name prints nothing, not even the blank
**            before it (IGC's 1D convolve mode 1); parsing a missing name gives that value.
**      %N:enum on a vector operand: an immediate whose value has a name prints as the name
**            (IGC's va.minmax mode); parsing a name gives a :ub immediate.
**    Blanks are allowed before any literal (IGC's lexer makes ".RGBA", "(", "," separate tokens);
**    the channel letters of %Nc must follow their '.'.
**    IGC's parser has no rules for VA, VA_SKL_PLUS and VME_IDM; they parse here as printed.
**  * 3D sample/load/gather4, 3D info, 3D RT write and the legacy SAMPLE/LOAD are coded below.
**
** Binary codec for 3D_RT_WRITE (ops.def layout "EPwb!").  inst->opnd holds, in binary order:
**   opnd[0] 'w' mode word, opnd[1] 'b' surface id, then the tail in binary order.  The '!' of
**   this row means: the operands after the surface byte are those of
**   isa_mode_tail(VISA_OP_RT_WRITE3D, mode) where `mode` is the 'w' field (opnd[0]) -- NOT the
**   integer field read just before the '!' (that is the surface byte):
**       R header, [V sample index if bit 11], [V CPS counter if bit 8], [V RT index if bit 2],
**       [R s0a if bit 3], [R oMask if bit 4], R red, R green, R blue, R alpha,
**       [R depth if bit 5], [R stencil if bit 6]
**   (no count byte; bits 7 LRTW, 9 PS, 10 CM, 12 NULLRT select no operand).  The encoder
**   writes opnd[2..] by their kinds; the decoder reads the mode word first and then exactly
**   that tail.  The parser builds the mode from the tags so that tail and mode always agree.
*/
#include <stdio.h>
#include <string.h>

#include "text.h"

/* -- Small helpers ------------------------------------------------------------------------------ */
static bool is_word_c(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static bool is_tok_c(char c) { return is_word_c(c) || c == '-'; }

static size_t mnem_len(const char *m) {
    const char *e = strchr(m, '|');
    return e ? (size_t)(e - m) : strlen(m);
}

static unsigned onum(const ir_inst *inst, unsigned k) {
    return k < inst->nopnd ? (unsigned)inst->opnd[k].u.num : 0;
}

/* " " + operand k printed by its kind (IGC's printOperand). */
static void put_opnd(txt_printer *pr, const ir_inst *inst, unsigned k) {
    if (k >= inst->nopnd) return;
    const ir_opnd *o = &inst->opnd[k];
    sb_putc(pr->out, ' ');
    switch (o->kind) {
    case 'V': case 'v': case '&': pr_vec(pr, &o->u.vec, true); break;
    case 'R': pr_raw(pr, &o->u.raw); break;
    default: sb_printf(pr->out, "%u", (unsigned)o->u.num); break;
    }
}

static void put_letters(txt_printer *pr, unsigned mask) {
    for (unsigned b = 0; b < 4; b++)
        if (mask & (1u << b)) sb_puts(pr->out, isa_enum_text(VISA_EN_sampler_channel, b));
}

static void put_surface(txt_printer *pr, unsigned id) { pr_state_name(pr, VS_SURFACE, id); }

/* Channel letters: a non-empty subsequence of R G B A in that order, either case (IGC's
** SAMPLER_CHANNEL token after its '.'). */
static bool p_letters(txt_parser *tp, unsigned *mask) {
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

/* '.' and channel letters (blanks may precede the '.': it starts a token in IGC's lexer). */
static bool p_channels(txt_parser *tp, unsigned *mask) {
    tp_skip_ws(tp);
    if (*tp->p != '.') {
        tp_error(tp, tp->p, "expected '.' and channel letters (R, G, B, A)");
        return false;
    }
    tp->p++;
    return p_letters(tp, mask);
}

/* A surface or sampler name (IGC resolves either kind of declaration in either slot). */
static bool p_state_id(txt_parser *tp, int64_t *id) {
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

/* IGC's SamplerAddrOperand: Var or "( Var , index )" (index dropped; must be 0 if zero_idx). */
static bool p_sampler_addr(txt_parser *tp, ir_opnd *o, bool zero_idx) {
    o->kind = 'b';
    if (!tp_accept(tp, "(")) return p_state_id(tp, &o->u.num);
    if (!p_state_id(tp, &o->u.num) || !tp_expect(tp, ",")) return false;
    tp_skip_ws(tp);
    const char *at = tp->p;
    int64_t idx;
    if (!tp_int_expr(tp, &idx)) return false;
    if (zero_idx && idx != 0) {
        tp_error(tp, at, "the sampler/surface index must be 0 (it is only used with 64-bit bindless state)");
        return false;
    }
    return tp_expect(tp, ")");
}

/* Exact mnemonic of a form at the cursor (any '|' spelling), not followed by a word character. */
static bool p_mnem(txt_parser *tp, int form) {
    tp_skip_ws(tp);
    const char *m = isa_forms[form].mnem;
    while (*m) {
        size_t n = mnem_len(m);
        if (strncmp(tp->p, m, n) == 0 && !is_word_c(tp->p[n])) {
            tp->p += n;
            return true;
        }
        m += n + (m[n] == '|');
    }
    /* report at the first differing character: the function suffix of "va.xxx" rows */
    const char *at = tp->p;
    m = isa_forms[form].mnem;
    size_t i = 0, n = mnem_len(m);
    while (i < n && at[i] == m[i]) i++;
    while (i > 0 && at[i - 1] != '.') i--;
    size_t w = 0;
    while (is_tok_c(at[i + w])) w++;
    if (i > 0) tp_error(tp, at + i, "unknown '%.*s' function '%.*s'", (int)(i - 1), at, (int)w, at + i);
    else tp_error(tp, at, "expected '%.*s'", (int)n, m);
    return false;
}

/* An operand whose kind is not known in advance: raw (NAME.off) or vector. */
static bool p_any_opnd(txt_parser *tp, ir_opnd *o) {
    tp_skip_ws(tp);
    const char *save = tp->p, *name;
    size_t n = tp_ident(tp, &name);
    bool raw = n && *tp->p == '.';
    tp->p = save;
    if (raw) {
        o->kind = 'R';
        return tp_raw_operand(tp, &o->u.raw);
    }
    o->kind = 'V';
    ir_inst tmp = {0};
    tmp.form = VISA_FORM_SAMPLE3D; /* a message form: no destination-region rule */
    tmp.opnd = o;
    tmp.nopnd = 1;
    return tp_parse_opnd(tp, &tmp, 0, 'V', 0, -1);
}

/* Longest name of an enum at the cursor that ends at a token boundary; false if none. */
static bool p_enum_name(txt_parser *tp, int en, uint32_t *value) {
    uint32_t v, best_v = 0;
    const char *text;
    size_t best = 0;
    for (unsigned i = 0; isa_enum_at((isa_enum_id)en, i, &v, &text); i++) {
        size_t n = strlen(text);
        if (n > best && strncmp(tp->p, text, n) == 0 && !is_tok_c(tp->p[n])) {
            best = n;
            best_v = v;
        }
    }
    if (!best) return false;
    tp->p += best;
    *value = best_v;
    return true;
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

/* -- Template interpreter --------------------------------------------------------------------- */
typedef struct tdir {
    char what;     /* 'M', 'E' or 'o' (operand) */
    unsigned k;    /* operand index */
    unsigned lo, w; /* bit field (w = 0: whole operand) */
    bool opt;      /* '?' */
    int en;        /* enum or -1 */
    char fmt;      /* 't' 'T' 's' 'c' or 0 */
} tdir;

/* Decode the directive after a '%'; returns the position after it. */
static const char *t_dir(const char *t, tdir *d) {
    memset(d, 0, sizeof *d);
    d->en = -1;
    if (*t == 'M' || *t == 'E') {
        d->what = *t;
        return t + 1;
    }
    d->what = 'o';
    while (*t >= '0' && *t <= '9') d->k = d->k * 10 + (unsigned)(*t++ - '0');
    if (*t == '[') {
        t++;
        while (*t >= '0' && *t <= '9') d->lo = d->lo * 10 + (unsigned)(*t++ - '0');
        if (*t == '+') t++;
        while (*t >= '0' && *t <= '9') d->w = d->w * 10 + (unsigned)(*t++ - '0');
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
    } else if (*t && strchr("tTsc", *t)) {
        d->fmt = *t++;
    }
    return t;
}

static unsigned field_mask(const tdir *d) { return d->w ? (d->w >= 32 ? ~0u : (1u << d->w) - 1) : 0xFFFFFFFFu; }

static void tpl_print(txt_printer *pr, const ir_inst *inst, const char *tmpl) {
    const isa_form *F = &isa_forms[inst->form];
    strbuf *o = pr->out;
    for (const char *t = tmpl; *t;) {
        if (*t != '%') {
            sb_putc(o, *t++);
            continue;
        }
        tdir d;
        t = t_dir(t + 1, &d);
        if (d.what == 'M') {
            sb_putn(o, F->mnem, mnem_len(F->mnem));
            continue;
        }
        if (d.what == 'E') {
            pr_exec(pr, inst->exec);
            continue;
        }
        if (d.k >= inst->nopnd) continue;
        const ir_opnd *op = &inst->opnd[d.k];
        unsigned val = (unsigned)op->u.num;
        switch (d.fmt) {
        case 't': put_surface(pr, val); continue;
        case 'T': sb_printf(o, "T%u", val); continue;
        case 's': sb_printf(o, "S%u", val); continue;
        case 'c': put_letters(pr, val); continue;
        default: break;
        }
        if (op->kind == 'V' || op->kind == 'R') {
            const char *name = NULL;
            if (d.en >= 0 && op->kind == 'V' && op->u.vec.cls == VC_IMMEDIATE && op->u.vec.imm <= 0xFFFFFFFFu)
                name = isa_enum_text((isa_enum_id)d.en, (uint32_t)op->u.vec.imm);
            if (name) sb_puts(o, name);
            else if (op->kind == 'V') pr_vec(pr, &op->u.vec, true);
            else pr_raw(pr, &op->u.raw);
            continue;
        }
        if (d.en >= 0) {
            unsigned f = (val >> d.lo) & field_mask(&d);
            const char *name = isa_enum_text((isa_enum_id)d.en, f);
            if (name) sb_puts(o, name);
            else if (d.opt) {
                if (o->len && o->data[o->len - 1] == ' ') o->len--;
            } else sb_printf(o, "%u", f);
            continue;
        }
        sb_printf(o, "%u", val);
    }
}

/* Kind of stored operand k of a layout without lists. */
static char layout_kind(const char *layout, unsigned k) {
    unsigned i = 0;
    for (const char *c = layout; *c; c++) {
        if (strchr("EPo#*!", *c)) continue;
        if (i++ == k) return *c;
    }
    return 0;
}

static bool tpl_parse(txt_parser *tp, int form, const char *tmpl, ir_inst *inst) {
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned count = isa_layout_opnds(layout);
    inst->form = (uint16_t)form;
    if (!tp_inst_alloc(tp, inst, count)) return false;
    for (unsigned k = 0; k < count; k++) {
        memset(&inst->opnd[k], 0, sizeof inst->opnd[k]);
        inst->opnd[k].kind = layout_kind(layout, k);
    }
    tp_skip_ws(tp);
    for (const char *t = tmpl; *t;) {
        if (*t == ' ') {
            tp_skip_ws(tp);
            t++;
            continue;
        }
        if (*t != '%') {
            tp_skip_ws(tp);
            if (*tp->p != *t) {
                tp_error(tp, tp->p, "expected '%c'", *t);
                return false;
            }
            tp->p++;
            t++;
            continue;
        }
        tdir d;
        t = t_dir(t + 1, &d);
        if (d.what == 'M') {
            if (!p_mnem(tp, form)) return false;
            continue;
        }
        if (d.what == 'E') {
            if (!tp_exec(tp, &inst->exec)) return false;
            continue;
        }
        if (d.k >= count) return false; /* table error */
        ir_opnd *op = &inst->opnd[d.k];
        if (d.fmt == 'c') { /* part of the mnemonic token: no blanks before it */
            unsigned m;
            if (!p_letters(tp, &m)) return false;
            op->u.num |= m;
            continue;
        }
        tp_skip_ws(tp);
        const char *at = tp->p;
        if (d.fmt == 't' || d.fmt == 'T' || d.fmt == 's') {
            if (!p_state_id(tp, &op->u.num)) return false;
            continue;
        }
        if (d.en >= 0 && op->kind == 'V') {
            uint32_t v;
            if (p_enum_name(tp, d.en, &v)) {
                memset(&op->u.vec, 0, sizeof op->u.vec);
                op->u.vec.cls = VC_IMMEDIATE;
                op->u.vec.type = VISA_TYPE_UB;
                op->u.vec.imm = v;
                continue;
            }
            if (!tp_parse_opnd(tp, inst, d.k, 'V', 0, -1)) return false;
            continue;
        }
        if (d.en >= 0) {
            uint32_t v = 0;
            unsigned mask = field_mask(&d);
            if (!p_enum_name(tp, d.en, &v)) {
                size_t n = 0;
                while (is_tok_c(at[n])) n++;
                bool digits = n > 0;
                for (size_t i = 0; i < n; i++) digits &= at[i] >= '0' && at[i] <= '9';
                if (digits) {
                    uint64_t u;
                    if (!tp_uint_dec(tp, &u)) return false;
                    if (u > mask || (d.w == 0 && u > 0xFF)) {
                        tp_error(tp, at, "value %llu out of range for this field", (unsigned long long)u);
                        return false;
                    }
                    v = (uint32_t)u;
                } else if (d.opt) {
                    /* the value IGC prints as nothing */
                    while (v <= mask && isa_enum_text((isa_enum_id)d.en, v)) v++;
                } else {
                    enum_error(tp, at, d.en);
                    return false;
                }
            }
            op->u.num |= (int64_t)((uint64_t)v << d.lo);
            continue;
        }
        if (!tp_parse_opnd(tp, inst, d.k, op->kind, 0, -1)) return false;
    }
    return true;
}

/* -- 3D sample / load / gather4 ------------------------------------------------------------------
** [pred] NAME.[pixel_null_mask.][cps.][divS.]CHANNELS (E)  aoffimmi [S<n>] SURF dst paired p...
** op word: bits 0-7 sub-op, 8 pixel null mask, 9 CPS LOD compensation, 10 non-uniform sampler.
** 3D_LOAD and 3D_GATHER4 print neither cps nor divS; 3D_GATHER4 prints one channel (0-3) and
** only one blank after the exec size. */
enum { OP3D_PNM = 1u << 8, OP3D_CPS = 1u << 9, OP3D_DIVS = 1u << 10 };

static const char *op3d_name(const visa_module *m, unsigned sub) {
    const char *s = NULL;
    if (m && m->platform < VISA_PLATFORM_XE2) s = isa_enum_text(VISA_EN_sampler3d_op_pre_xe2, sub);
    if (!s) s = isa_enum_text(VISA_EN_sampler3d_op, sub);
    return s ? s : "sampler_unknown"; /* IGC's name for unnamed values */
}

static void print_3d(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    unsigned opc = isa_forms[inst->form].opcode;
    unsigned op = onum(inst, 0), ch = onum(inst, 1);
    bool has_sampler = opc != VISA_OP_LOAD3D;
    sb_puts(o, op3d_name(pr->m, op & 0xFF));
    sb_putc(o, '.');
    if (op & OP3D_PNM) sb_puts(o, "pixel_null_mask.");
    if (opc == VISA_OP_SAMPLE3D) {
        if (op & OP3D_CPS) sb_puts(o, "cps.");
        if (op & OP3D_DIVS) sb_puts(o, "divS.");
    }
    if (opc == VISA_OP_GATHER4_3D) {
        const char *c = isa_enum_text(VISA_EN_sampler_channel, ch);
        sb_puts(o, c ? c : "illegal");
    } else {
        put_letters(pr, ch);
    }
    sb_putc(o, ' ');
    pr_exec(pr, inst->exec);
    if (opc != VISA_OP_GATHER4_3D) sb_putc(o, ' ');
    put_opnd(pr, inst, 2);
    unsigned k = 3;
    if (has_sampler) sb_printf(o, " S%u", onum(inst, k++));
    sb_putc(o, ' ');
    put_surface(pr, onum(inst, k++));
    for (; k < inst->nopnd; k++) put_opnd(pr, inst, k);
}

#define MAX_3D_PARAMS 16 /* IGC's parser: rawOperandArray[16] */

static bool parse_3d(txt_parser *tp, int form, ir_inst *inst) {
    const isa_form *F = &isa_forms[form];
    unsigned opc = F->opcode;
    inst->form = (uint16_t)form;
    tp_skip_ws(tp);
    const char *at = tp->p, *w;
    size_t n = tp_word(tp, &w);
    /* the name's value, and the row IGC's lexer builds for it (by the Xe2+ value of the name) */
    uint32_t v, xe2_v;
    bool xe2_ok = isa_enum_parse(VISA_EN_sampler3d_op, w, n, &xe2_v);
    bool pre_xe2 = tp->m->platform < VISA_PLATFORM_XE2;
    if (pre_xe2 && isa_enum_parse(VISA_EN_sampler3d_op_pre_xe2, w, n, &v)) {
        /* the pre-Xe2 name of 17/18 */
    } else if (xe2_ok && !(pre_xe2 && isa_enum_text(VISA_EN_sampler3d_op_pre_xe2, xe2_v))) {
        v = xe2_v;
    } else {
        tp_error(tp, at, "unknown 3D sampler operation '%.*s' on this platform", (int)n, w);
        return false;
    }
    const char *cls = xe2_ok ? isa_enum_text(VISA_EN_sampler3d_class, xe2_v) : NULL;
    if (!cls || strcmp(cls, F->name) != 0) {
        tp_error(tp, at, "'%.*s' is not a %s operation", (int)n, w, F->name);
        return false;
    }
    unsigned op = v;
    if (tp_accept(tp, ".pixel_null_mask")) op |= OP3D_PNM;
    if (opc == VISA_OP_SAMPLE3D) {
        if (tp_accept(tp, ".cps")) op |= OP3D_CPS;
        if (tp_accept(tp, ".divS")) op |= OP3D_DIVS;
    }
    unsigned mask;
    tp_skip_ws(tp);
    const char *ch_at = tp->p + 1;
    if (!p_channels(tp, &mask)) return false;
    unsigned ch = mask;
    if (opc == VISA_OP_GATHER4_3D) {
        if (mask & (mask - 1)) {
            tp_error(tp, ch_at, "only one of R, G, B, A may be specified for a sample4 operation");
            return false;
        }
        for (ch = 0; !(mask & (1u << ch)); ch++) {}
    }
    uint8_t exec;
    if (!tp_exec(tp, &exec)) return false;
    ir_opnd fixed[5];
    memset(fixed, 0, sizeof fixed);
    unsigned nfixed = 0;
    ir_inst tmp = {0};
    tmp.form = (uint16_t)form;
    tmp.opnd = &fixed[0];
    tmp.nopnd = 1;
    if (!tp_parse_opnd(tp, &tmp, 0, 'V', 0, -1)) return false; /* aoffimmi */
    nfixed = 1;
    if (opc != VISA_OP_LOAD3D && !p_sampler_addr(tp, &fixed[nfixed++], opc == VISA_OP_SAMPLE3D)) return false;
    if (!p_sampler_addr(tp, &fixed[nfixed++], opc == VISA_OP_SAMPLE3D)) return false;
    for (int r = 0; r < 2; r++) { /* dst, paired surface */
        fixed[nfixed].kind = 'R';
        if (!tp_raw_operand(tp, &fixed[nfixed++].u.raw)) return false;
    }
    ir_raw params[MAX_3D_PARAMS];
    unsigned np = 0;
    while (!tp_at_end(tp)) {
        if (np == MAX_3D_PARAMS) {
            tp_error(tp, tp->p, "at most %d message parameters", MAX_3D_PARAMS);
            return false;
        }
        if (!tp_raw_operand(tp, &params[np++])) return false;
    }
    if (!tp_inst_alloc(tp, inst, 2 + nfixed + np)) return false;
    inst->exec = exec;
    inst->opnd[0].kind = 'w';
    inst->opnd[0].u.num = op;
    inst->opnd[1].kind = 'b';
    inst->opnd[1].u.num = ch;
    for (unsigned k = 0; k < nfixed; k++) inst->opnd[2 + k] = fixed[k];
    for (unsigned k = 0; k < np; k++) {
        inst->opnd[2 + nfixed + k].kind = 'R';
        inst->opnd[2 + nfixed + k].u.raw = params[k];
    }
    return true;
}

/* -- 3D info: resinfo / sampleinfo ---------------------------------------------------------------
** NAME.CHANNELS (E)  SURF [lod] dst; IGC prints ChannelMask's "0000" for an empty mask. */
static void print_info(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    const isa_form *F = &isa_forms[inst->form];
    sb_putn(o, F->mnem, mnem_len(F->mnem));
    sb_putc(o, '.');
    unsigned ch = onum(inst, 0) & 0xF;
    if (ch) put_letters(pr, ch);
    else sb_puts(o, "0000");
    sb_putc(o, ' ');
    pr_exec(pr, inst->exec);
    sb_puts(o, "  ");
    put_surface(pr, onum(inst, 1));
    for (unsigned k = 2; k < inst->nopnd; k++) put_opnd(pr, inst, k);
}

static bool parse_info(txt_parser *tp, int form, ir_inst *inst) {
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned count = isa_layout_opnds(layout);
    inst->form = (uint16_t)form;
    if (!p_mnem(tp, form) || !tp_inst_alloc(tp, inst, count)) return false;
    unsigned mask;
    if (!p_channels(tp, &mask) || !tp_exec(tp, &inst->exec)) return false;
    inst->opnd[0].kind = 'b';
    inst->opnd[0].u.num = mask;
    if (!p_sampler_addr(tp, &inst->opnd[1], false)) return false;
    for (unsigned k = 2; k < count; k++)
        if (!tp_parse_opnd(tp, inst, k, 'R', 0, -1)) return false;
    return true;
}

/* -- 3D render target write ----------------------------------------------------------------------
** [pred] rt_write_3d[.<TAG>...] (E) SURF operands...; tags in mode-bit order (rt_write_tag).
** IGC's parser looks the tags up with strstr (any order; unknown tags ignored), reads the
** operands the tags imply and ignores extra ones.  Unlike IGC (which drops it), <SI> keeps its
** operand and bit 11 so that a binary read with it round-trips. */
static void print_rt(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    const isa_form *F = &isa_forms[inst->form];
    unsigned mode = onum(inst, 0);
    sb_putn(o, F->mnem, mnem_len(F->mnem));
    if (mode) {
        sb_putc(o, '.');
        for (unsigned b = 0; b < 16; b++) {
            const char *t = (mode & (1u << b)) ? isa_enum_text(VISA_EN_rt_write_tag, b) : NULL;
            if (t) sb_puts(o, t);
        }
    }
    sb_putc(o, ' ');
    pr_exec(pr, inst->exec);
    sb_putc(o, ' ');
    put_surface(pr, onum(inst, 1));
    for (unsigned k = 2; k < inst->nopnd; k++) put_opnd(pr, inst, k);
}

static bool parse_rt(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    if (!p_mnem(tp, form)) return false;
    unsigned mode = 0;
    tp_skip_ws(tp);
    if (*tp->p == '.') {
        const char *at = tp->p++;
        if (*tp->p != '<') {
            tp_error(tp, at, "expected mode tags such as .<RTI><Z>");
            return false;
        }
        while (*tp->p == '<') {
            const char *s = tp->p++;
            while ((*tp->p >= 'a' && *tp->p <= 'z') || (*tp->p >= 'A' && *tp->p <= 'Z')) tp->p++;
            if (*tp->p != '>' || tp->p == s + 1) {
                tp_error(tp, s, "malformed mode tag (expected <LETTERS>)");
                return false;
            }
            tp->p++;
            uint32_t bit;
            if (isa_enum_parse(VISA_EN_rt_write_tag, s, (size_t)(tp->p - s), &bit)) mode |= 1u << bit;
        }
    }
    if (!tp_exec(tp, &inst->exec)) return false;
    char tail[32];
    isa_mode_tail(isa_forms[form].opcode, mode, tail);
    unsigned nt = (unsigned)strlen(tail);
    if (!tp_inst_alloc(tp, inst, 2 + nt)) return false;
    inst->opnd[0].kind = 'w';
    inst->opnd[0].u.num = mode;
    inst->opnd[1].kind = 'b';
    tp_skip_ws(tp);
    if (!p_state_id(tp, &inst->opnd[1].u.num)) return false;
    for (unsigned k = 0; k < nt; k++) {
        if (tp_at_end(tp)) {
            tp_error(tp, tp->p, "missing operand: the mode tags need %u operands after the surface", nt);
            return false;
        }
        if (!tp_parse_opnd(tp, inst, 2 + k, tail[k], 0, -1)) return false;
    }
    while (!tp_at_end(tp)) { /* IGC ignores extra operands */
        ir_opnd extra;
        if (!p_any_opnd(tp, &extra)) return false;
    }
    return true;
}

/* -- Legacy SAMPLE / LOAD ---------------------------------------------------------------------------
** sample.CHANNELS (8|16) S<n> SURF u v r dst;   load.CHANNELS (8|16) SURF u v r dst
** mode byte: bits 0-3 channels, bits 4-5 SIMD (0 -> 8, 1 -> 16; 2 and 3 print as is).
** IGC's parser: the SIMD group is optional (SIMD8), (32) means SIMD8, and load accepts and
** ignores a sampler before the surface. */
static void print_legacy(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    const isa_form *F = &isa_forms[inst->form];
    bool sample = F->opcode == VISA_OP_SAMPLE;
    unsigned mode = onum(inst, 0), simd = (mode >> 4) & 3;
    sb_putn(o, F->mnem, mnem_len(F->mnem));
    sb_putc(o, '.');
    put_letters(pr, mode & 0xF);
    sb_printf(o, " (%u)", simd == 0 ? 8u : simd == 1 ? 16u : simd);
    unsigned k = 1;
    if (sample) sb_printf(o, " S%u", onum(inst, k++));
    sb_putc(o, ' ');
    put_surface(pr, onum(inst, k++));
    for (; k < inst->nopnd; k++) put_opnd(pr, inst, k);
}

static bool parse_legacy(txt_parser *tp, int form, ir_inst *inst) {
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned count = isa_layout_opnds(layout);
    bool sample = isa_forms[form].opcode == VISA_OP_SAMPLE;
    inst->form = (uint16_t)form;
    if (!p_mnem(tp, form) || !tp_inst_alloc(tp, inst, count)) return false;
    unsigned mask;
    if (!p_channels(tp, &mask)) return false;
    unsigned simd = 0;
    if (tp_accept(tp, "(")) {
        tp_skip_ws(tp);
        const char *at = tp->p;
        uint64_t n;
        if (!tp_uint_dec(tp, &n)) return false;
        if (n != 8 && n != 16 && n != 32) {
            tp_error(tp, at, "SIMD mode must be 8, 16 or 32");
            return false;
        }
        simd = n == 16;
        if (!tp_expect(tp, ")")) return false;
    }
    for (unsigned k = 0; k < count; k++) inst->opnd[k].kind = layout_kind(layout, k);
    inst->opnd[0].u.num = mask | simd << 4;
    int64_t a, b;
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (!p_state_id(tp, &a)) return false;
    /* a second name (not NAME.offset) follows when both sampler and surface are given */
    const char *save = tp->p, *name;
    size_t n = tp_ident(tp, &name);
    bool two = n && *tp->p != '.';
    tp->p = save;
    if (two && !p_state_id(tp, &b)) return false;
    if (sample) {
        if (!two) {
            tp_error(tp, at, "sample needs a sampler and a surface");
            return false;
        }
        inst->opnd[1].u.num = a;
        inst->opnd[2].u.num = b;
    } else {
        inst->opnd[1].u.num = two ? b : a;
    }
    for (unsigned k = sample ? 3u : 2u; k < count; k++)
        if (!tp_parse_opnd(tp, inst, k, 'R', 0, -1)) return false;
    return true;
}

/* -- Dispatch ------------------------------------------------------------------------------------- */
static void sampler_print(txt_printer *pr, const ir_inst *inst) {
    const isa_form *F = &isa_forms[inst->form];
    if (F->text) {
        tpl_print(pr, inst, F->text);
        return;
    }
    switch (F->opcode) {
    case VISA_OP_SAMPLE3D: case VISA_OP_LOAD3D: case VISA_OP_GATHER4_3D: print_3d(pr, inst); break;
    case VISA_OP_INFO3D: print_info(pr, inst); break;
    case VISA_OP_RT_WRITE3D: print_rt(pr, inst); break;
    case VISA_OP_SAMPLE: case VISA_OP_LOAD: print_legacy(pr, inst); break;
    default: sb_printf(pr->out, "%s <no text form>", F->name); break;
    }
}

static bool sampler_parse(txt_parser *tp, int form, ir_inst *inst) {
    const isa_form *F = &isa_forms[form];
    if (F->text) return tpl_parse(tp, form, F->text, inst);
    switch (F->opcode) {
    case VISA_OP_SAMPLE3D: case VISA_OP_LOAD3D: case VISA_OP_GATHER4_3D: return parse_3d(tp, form, inst);
    case VISA_OP_INFO3D: return parse_info(tp, form, inst);
    case VISA_OP_RT_WRITE3D: return parse_rt(tp, form, inst);
    case VISA_OP_SAMPLE: case VISA_OP_LOAD: return parse_legacy(tp, form, inst);
    default:
        tp_error(tp, tp->p, "'%s' has no text form", F->name);
        return false;
    }
}

const txt_hook txt_hook_sampler = {sampler_print, sampler_parse};
