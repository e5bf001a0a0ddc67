/* hooks_dataport.c -- text syntax of the legacy data-port messages (OWORD_*, MEDIA_*, GATHER,
** SCATTER, the typed/scaled gathers and scatters, DWORD/TYPED atomics, QW_*) and of the SVM
** sub-opcodes.
** Facts: docs/text-syntax/memory.md §1-§3; IGC IsaDisassembly.cpp printInstructionDataport,
** printInstructionSVM, printAtomicSubOpc; CISA.y rules OwordInstruction, MediaInstruction,
** ScatterInstruction, Scatter*Instruction, *AtomicInstruction, SvmInstruction; builders
** VISAKernelImpl.cpp AppendVISASurfAccess*, AppendVISASvm* (what the parser stores).
**
** Shape of every line: "<mnemonic><suffixes> <size or exec> <surface> <operands>", the operands
** being the V/R fields of the layout in layout order (SVM_ATOMIC prints its dst second).  The
** surface is a bare `ub` surface id (layout code 'b').
*/
#include <stdio.h>
#include <string.h>

#include "dp_layout.h"
#include "text.h"

/* IGC's CISAAtomicOpNames has no name for VISA_ATOMIC_PREDEC (the spec's "predec") and its lexer
** has no token for it: it prints "" and cannot be parsed back (memory.md H16). */
#define ATOMIC_16 0x20 /* op byte bit 5: .16 */
#define ATOMIC_64 0x40 /* op byte bit 6: .64 (SVM only in text) */
#define SVM_UNALIGNED 0x80 /* SVM block props: what IGC's builder and printer use */

static const isa_form *form_of(const ir_inst *inst) { return &isa_forms[inst->form]; }

/* Kind of stored operand k of a layout (E P o # ! are not stored). */
static char kind_at(const char *layout, unsigned k) {
    unsigned i = 0;
    for (const char *c = layout; *c; c++) {
        if (strchr("EPo#*!", *c)) continue;
        if (i++ == k) return *c;
    }
    return 0;
}

/* -- Printing ---------------------------------------------------------------------------------- */
static void put_mnem(txt_printer *pr, const ir_inst *inst) {
    const char *m = form_of(inst)->mnem;
    sb_putn(pr->out, m, isa_mnem_len(m));
}

static unsigned num(const ir_inst *inst, unsigned k) { return k < inst->nopnd ? (unsigned)inst->opnd[k].u.num : 0; }

static void put_surface(txt_printer *pr, unsigned id) {
    sb_putc(pr->out, ' ');
    pr_state_name(pr, VS_SURFACE, id & 0xFF);
}

static void put_opnd(txt_printer *pr, const ir_inst *inst, unsigned k) {
    if (k >= inst->nopnd) return;
    const ir_opnd *o = &inst->opnd[k];
    sb_putc(pr->out, ' ');
    if (o->kind == 'R') pr_raw(pr, &o->u.raw);
    else pr_vec(pr, &o->u.vec, true);
}

/* The V/R operands from index `from` to the end, in layout order. */
static void put_msg_opnds(txt_printer *pr, const ir_inst *inst, unsigned from) {
    for (unsigned k = from; k < inst->nopnd; k++)
        if (inst->opnd[k].kind == 'V' || inst->opnd[k].kind == 'R') put_opnd(pr, inst, k);
}

/* RGBA letters of a channel mask; `zero` is what IGC prints for an empty mask. */
static void put_chmask(txt_printer *pr, unsigned mask, const char *zero) {
    sb_putc(pr->out, '.');
    mask &= 0xF;
    if (!mask) sb_puts(pr->out, zero);
    for (int b = 0; b < 4; b++)
        if (mask & (1u << b)) sb_putc(pr->out, "RGBA"[b]);
}

/* printAtomicSubOpc: ".<op>" then ".16" if (v >> 5) == 1, else ".64" if (v >> 6) == 1. */
static void put_atomic(txt_printer *pr, unsigned v) {
    unsigned op = v & 0x1F;
    const char *t = op == VISA_ATOMIC_PREDEC ? NULL : isa_enum_text(VISA_EN_atomic_op, op);
    sb_putc(pr->out, '.');
    if (t) sb_puts(pr->out, t);
    if ((v >> 5) == 1) sb_puts(pr->out, ".16");
    else if ((v >> 6) == 1) sb_puts(pr->out, ".64");
}

/* VISA_Oword_Num / VISA_SVM_Block_Num codes: n = 1 << code. */
static void put_count(txt_printer *pr, const char *pre, unsigned code) {
    sb_printf(pr->out, "%s%u", pre, code < 8 ? 1u << code : 0u);
}

/* -- Syntax descriptors -------------------------------------------------------------------------
** One descriptor per family: the pieces of its line after the mnemonic, in text order, each with
** the stored operands (dp_layout.h names) it prints from and parses into.  dp_print and dp_parse
** walk the same descriptor, so the two cannot disagree. */
typedef enum dp_piece_kind {
    D_END,
    D_OWORD_MOD, /* a: field whose bit 0 prints ".mod" (-1: never printed); parse accepts ".mod" only */
    D_COUNT, /* a: VISA_Oword_Num code printed " (n)" */
    D_SURFACE, /* a: surface id */
    D_OPNDS, /* a: the V/R operands from a to the end, in layout order */
    D_OPND, /* a: one operand */
    D_EXEC, /* the exec size and mask */
    D_MEDIA_MODE, /* a: MEDIA_LD/ST mode */
    D_MEDIA_WH, /* a, b: block width and height "(w,h)" */
    D_MEDIA_PLANE, /* a: plane (optional in text) */
    D_SCATTER, /* a: element size, b: modifier field (-1: none), c: num_elts (exec and mask) */
    D_CHMASK, /* a: channel mask; b: 1 if an empty mask prints "0000" */
    D_BLOCKS, /* a: VISA_SVM_Block_Num code printed ".n" */
    D_ATOMIC, /* a: atomic op byte; b: 1 if widths .32 and .64 are allowed (SVM) */
    D_SVM_BLOCK, /* a: SVM block props (alignment and oword count) */
    D_SVM_BTYPE, /* a: SVM block type ".1", ".4", ".8" */
} dp_piece_kind;

typedef struct dp_piece {
    uint8_t kind;
    int8_t a, b, c;
} dp_piece;

enum { DP_MAX_PIECES = 7 };
typedef struct dp_syntax {
    dp_piece p[DP_MAX_PIECES];
} dp_syntax;

#define P0(kind) \
    { kind, 0, 0, 0 }
#define P(kind, a) \
    { kind, a, 0, 0 }
#define P2(kind, a, b) \
    { kind, a, b, 0 }
#define P3(kind, a, b, c) \
    { kind, a, b, c }
static const dp_syntax syn_oword_ld = {
    {P(D_OWORD_MOD, OWLD_MOD), P(D_COUNT, OWLD_SIZE), P(D_SURFACE, OWLD_SURF), P(D_OPNDS, OWLD_OFF)}};
static const dp_syntax syn_oword_st = {
    {P(D_OWORD_MOD, -1), P(D_COUNT, OWST_SIZE), P(D_SURFACE, OWST_SURF), P(D_OPNDS, OWST_OFF)}};
static const dp_syntax syn_media = {{P(D_MEDIA_MODE, MD_MODE), P2(D_MEDIA_WH, MD_W, MD_H), P(D_SURFACE, MD_SURF),
                                     P(D_MEDIA_PLANE, MD_PLANE), P(D_OPNDS, MD_X)}};
static const dp_syntax syn_gather = {
    {P3(D_SCATTER, GA_ESIZE, GA_MOD, GA_NELTS), P(D_SURFACE, GA_SURF), P(D_OPNDS, GA_GOFF)}};
static const dp_syntax syn_scatter = {
    {P3(D_SCATTER, SC_ESIZE, -1, SC_NELTS), P(D_SURFACE, SC_SURF), P(D_OPNDS, SC_GOFF)}};
static const dp_syntax syn_typed = {{P2(D_CHMASK, TY_CHM, 1), P0(D_EXEC), P(D_SURFACE, TY_SURF), P(D_OPNDS, TY_U)}};
static const dp_syntax syn_4scaled = {
    {P2(D_CHMASK, G4_CHM, 1), P0(D_EXEC), P(D_SURFACE, G4_SURF), P(D_OPNDS, G4_GOFF)}};
static const dp_syntax syn_scaled = {{P(D_BLOCKS, GS_NBLK), P0(D_EXEC), P(D_SURFACE, GS_SURF), P(D_OPNDS, GS_GOFF)}};
static const dp_syntax syn_dword_atomic = {
    {P2(D_ATOMIC, DA_OP, 0), P0(D_EXEC), P(D_SURFACE, DA_SURF), P(D_OPNDS, DA_EOFF)}};
static const dp_syntax syn_typed_atomic = {
    {P2(D_ATOMIC, TA_OP, 0), P0(D_EXEC), P(D_SURFACE, TA_SURF), P(D_OPNDS, TA_U)}};
static const dp_syntax syn_qw = {{P(D_BLOCKS, QW_NBLK), P0(D_EXEC), P(D_SURFACE, QW_SURF), P(D_OPNDS, QW_OFF)}};
static const dp_syntax syn_svm_block = {{P(D_SVM_BLOCK, SB_PROPS), P(D_OPNDS, SB_ADDR)}};
static const dp_syntax syn_svm_gs = {
    {P(D_SVM_BTYPE, SG_BSIZE), P(D_BLOCKS, SG_NBLK), P0(D_EXEC), P(D_OPNDS, SG_ADDRS)}};
/* text order: addresses dst src0 src1 */
static const dp_syntax syn_svm_atomic = {{P2(D_ATOMIC, SA_OP, 1), P0(D_EXEC), P(D_OPND, SA_ADDRS), P(D_OPND, SA_DST),
                                          P(D_OPND, SA_SRC0), P(D_OPND, SA_SRC1)}};
static const dp_syntax syn_svm_4scaled = {{P2(D_CHMASK, S4_CHM, 0), P0(D_EXEC), P(D_OPNDS, S4_ADDR)}};
#undef P0
#undef P
#undef P2
#undef P3

static const dp_syntax *const dp_syntaxes[VISA_FORM__COUNT] = {
    [VISA_FORM_OWORD_LD] = &syn_oword_ld,
    [VISA_FORM_OWORD_LD_UNALIGNED] = &syn_oword_ld,
    [VISA_FORM_OWORD_ST] = &syn_oword_st,
    [VISA_FORM_MEDIA_LD] = &syn_media,
    [VISA_FORM_MEDIA_ST] = &syn_media,
    [VISA_FORM_GATHER] = &syn_gather,
    [VISA_FORM_SCATTER] = &syn_scatter,
    [VISA_FORM_GATHER4_TYPED] = &syn_typed,
    [VISA_FORM_SCATTER4_TYPED] = &syn_typed,
    [VISA_FORM_GATHER4_SCALED] = &syn_4scaled,
    [VISA_FORM_SCATTER4_SCALED] = &syn_4scaled,
    [VISA_FORM_GATHER_SCALED] = &syn_scaled,
    [VISA_FORM_SCATTER_SCALED] = &syn_scaled,
    [VISA_FORM_DWORD_ATOMIC] = &syn_dword_atomic,
    [VISA_FORM_TYPED_ATOMIC] = &syn_typed_atomic,
    [VISA_FORM_QW_GATHER] = &syn_qw,
    [VISA_FORM_QW_SCATTER] = &syn_qw,
    [VISA_FORM_SVM_BLOCK_LD] = &syn_svm_block,
    [VISA_FORM_SVM_BLOCK_ST] = &syn_svm_block,
    [VISA_FORM_SVM_GATHER] = &syn_svm_gs,
    [VISA_FORM_SVM_SCATTER] = &syn_svm_gs,
    [VISA_FORM_SVM_ATOMIC] = &syn_svm_atomic,
    [VISA_FORM_SVM_GATHER4SCALED] = &syn_svm_4scaled,
    [VISA_FORM_SVM_SCATTER4SCALED] = &syn_svm_4scaled,
};

static const dp_syntax *syntax_of(int form) { return form >= 0 && form < VISA_FORM__COUNT ? dp_syntaxes[form] : NULL; }

static void dp_print_piece(txt_printer *pr, const ir_inst *inst, const dp_piece *d) {
    strbuf *o = pr->out;
    switch (d->kind) {
    case D_OWORD_MOD:
        if (d->a >= 0 && (num(inst, d->a) & 1)) sb_puts(o, ".mod");
        break;
    case D_COUNT:
        put_count(pr, " (", num(inst, d->a) & 7);
        sb_putc(o, ')');
        break;
    case D_SURFACE: put_surface(pr, num(inst, d->a)); break;
    case D_OPNDS: put_msg_opnds(pr, inst, d->a); break;
    case D_OPND: put_opnd(pr, inst, d->a); break;
    case D_EXEC:
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        break;
    case D_MEDIA_MODE: {
        unsigned mod = num(inst, d->a);
        const char *t = inst->form == VISA_FORM_MEDIA_ST ? isa_enum_text(VISA_EN_media_st_mod, mod) : NULL;
        if (!t) t = isa_enum_text(VISA_EN_media_ld_mod, mod);
        if (t) sb_printf(o, ".%s", t);
        else sb_printf(o, ".%u", mod);
        break;
    }
    case D_MEDIA_WH: sb_printf(o, " (%u,%u)", num(inst, d->a), num(inst, d->b)); break;
    case D_MEDIA_PLANE: sb_printf(o, " %u", num(inst, d->a)); break;
    case D_SCATTER: {
        /* elt_size [mod] num_elts: exec size lives in num_elts */
        unsigned elt = num(inst, d->a) & 3, ne = num(inst, d->c);
        bool mod = d->b >= 0 && (num(inst, d->b) & 1);
        static const unsigned lanes[4] = {8, 16, 1, 0}; /* printExecutionSizeForScatterGather */
        if (mod) sb_puts(o, ".mod");
        sb_printf(o, ".%u ", elt == 3 ? 3u : 1u << elt);
        const char *m = isa_enum_text(VISA_EN_emask, ir_exec_emask((uint8_t)ne));
        sb_printf(o, "(%s, %u)", m ? m : "M?", lanes[ne & 3]);
        if (mod) sb_puts(o, ".mod");
        break;
    }
    case D_CHMASK: put_chmask(pr, num(inst, d->a), d->b ? "0000" : ""); break;
    case D_BLOCKS: put_count(pr, ".", num(inst, d->a)); break;
    case D_ATOMIC: put_atomic(pr, num(inst, d->a)); break;
    case D_SVM_BLOCK:
        /* IGC 1.0 printed no alignment (its parser: none means unaligned, as here) */
        if (!pr->igc1) sb_puts(o, (num(inst, d->a) & SVM_UNALIGNED) ? ".unaligned" : ".aligned");
        put_count(pr, " (", num(inst, d->a) & 7);
        sb_putc(o, ')');
        break;
    case D_SVM_BTYPE: {
        const char *t = isa_enum_text(VISA_EN_svm_block_type, num(inst, d->a));
        if (t) sb_printf(o, ".%s", t);
        else sb_printf(o, ".?%u", num(inst, d->a));
        break;
    }
    default: break;
    }
}

static void dp_print(txt_printer *pr, const ir_inst *inst) {
    put_mnem(pr, inst);
    const dp_syntax *syn = syntax_of(inst->form);
    if (!syn) {
        sb_puts(pr->out, " <unknown data port form>");
        return;
    }
    for (const dp_piece *d = syn->p; d < syn->p + DP_MAX_PIECES && d->kind != D_END; d++) dp_print_piece(pr, inst, d);
}

/* -- Parsing ----------------------------------------------------------------------------------- */
static bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* ".<decimal>" right at the cursor. */
static bool dot_number(txt_parser *tp, uint64_t *v, const char *what) {
    const char *at = tp->p;
    if (tp->p[0] != '.' || !(tp->p[1] >= '0' && tp->p[1] <= '9')) {
        tp_error(tp, at, "expected '.' and %s", what);
        return false;
    }
    tp->p++;
    if (!tp_uint_dec(tp, v)) return false;
    if (is_word(*tp->p)) {
        tp_error(tp, at + 1, "malformed %s", what);
        return false;
    }
    return true;
}

/* ".<n>" with n one of 1, 2, 4, 8 (VISA_SVM_Block_Num) -> code 0..3. */
static bool dot_block_num(txt_parser *tp, int64_t *code) {
    const char *at = tp->p + 1;
    uint64_t v;
    if (!dot_number(tp, &v, "a block count (1, 2, 4 or 8)")) return false;
    for (int c = 0; c < 4; c++)
        if (v == (1u << c)) {
            *code = c;
            return true;
        }
    tp_error(tp, at, "invalid block count %llu (expected 1, 2, 4 or 8)", (unsigned long long)v);
    return false;
}

/* SAMPLER_CHANNEL: '.' then R?G?B?A? in that order, each letter in either case, at least one. */
static bool dot_chmask(txt_parser *tp, int64_t *mask) {
    const char *at = tp->p;
    if (*tp->p != '.') {
        tp_error(tp, at, "expected a channel mask such as .RGBA");
        return false;
    }
    tp->p++;
    unsigned m = 0;
    for (int b = 0; b < 4; b++) {
        char c = *tp->p;
        if (c == "RGBA"[b] || c == "rgba"[b]) {
            m |= 1u << b;
            tp->p++;
        }
    }
    if (!m || is_word(*tp->p)) {
        tp_error(tp, at, "invalid channel mask (expected R, G, B, A in that order, e.g. .RGBA)");
        return false;
    }
    *mask = m;
    return true;
}

/* ATOMIC_SUB_OP and the width suffix.  widths: false = only ".16" (DWORD/TYPED_ATOMIC),
** true = ".16", ".32" (stored as nothing) or ".64" (SVM_ATOMIC). */
static bool dot_atomic(txt_parser *tp, int64_t *out, bool widths) {
    const char *at = tp->p;
    if (*tp->p != '.') {
        tp_error(tp, at, "expected an atomic operation such as .add");
        return false;
    }
    tp->p++;
    const char *w = tp->p;
    while (is_word(*tp->p)) tp->p++;
    size_t n = (size_t)(tp->p - w);
    uint32_t op;
    if (!n || !isa_enum_parse(VISA_EN_atomic_op, w, n, &op) || op == VISA_ATOMIC_PREDEC) {
        tp_error(tp, w, "unknown atomic operation '%.*s'", (int)n, w);
        return false;
    }
    if (*tp->p == '.' && tp->p[1] >= '0' && tp->p[1] <= '9') {
        const char *wat = tp->p + 1;
        uint64_t bits;
        if (!dot_number(tp, &bits, "an atomic width")) return false;
        if (bits == 16) op |= ATOMIC_16;
        else if (widths && bits == 64) op |= ATOMIC_64;
        else if (!(widths && bits == 32)) {
            tp_error(tp, wat,
                     widths ? "invalid atomic width %llu (expected 16, 32 or 64)"
                            : "invalid atomic width %llu (only .16 is allowed here)",
                     (unsigned long long)bits);
            return false;
        }
    }
    *out = op;
    return true;
}

/* A declared surface name (predefined %slm, T1, T2, TSS, %bss, %scratch or a .decl'd T). */
static bool surface(txt_parser *tp, ir_opnd *o) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint8_t cls;
    uint32_t id;
    if (!tp_state_var(tp, &cls, &id)) return false;
    if (cls != VS_SURFACE || id > 0xFF) {
        tp_error(tp, at, "expected a surface");
        return false;
    }
    o->u.num = id;
    return true;
}

/* "(n)" or "(emask, n)" giving a count 1, 2, 4, 8 or 16 (VISA_Oword_Num); emask ignored. */
static bool oword_count(txt_parser *tp, int64_t *code) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint8_t ex;
    if (!tp_exec(tp, &ex)) return false;
    if (ir_exec_code(ex) > 4) {
        tp_error(tp, at, "invalid number of owords %u (expected 1, 2, 4, 8 or 16)", ir_exec_lanes(ex));
        return false;
    }
    *code = ir_exec_code(ex);
    return true;
}

static bool parse_opnds(txt_parser *tp, ir_inst *inst, unsigned from) {
    for (unsigned k = from; k < inst->nopnd; k++) {
        char kind = inst->opnd[k].kind;
        if ((kind == 'V' || kind == 'R') && !tp_parse_opnd(tp, inst, k, kind, 0, -1)) return false;
    }
    return true;
}

/* An optional ".mod" (OWORD_MODIFIER): IGC's builders store modifier 0 whatever was written. */
static void skip_mod(txt_parser *tp) {
    if (strncmp(tp->p, ".mod", 4) == 0 && !is_word(tp->p[4])) tp->p += 4;
}

static bool dp_parse_piece(txt_parser *tp, ir_inst *inst, const dp_piece *d) {
    ir_opnd *op = inst->opnd;
    switch (d->kind) {
    case D_OWORD_MOD:
        skip_mod(tp);
        if (*tp->p == '.') {
            tp_error(tp, tp->p, "unexpected suffix (only .mod is accepted here)");
            return false;
        }
        return true;
    case D_COUNT: return oword_count(tp, &op[d->a].u.num);
    case D_SURFACE: return surface(tp, &op[d->a]);
    case D_OPNDS: return parse_opnds(tp, inst, d->a);
    case D_OPND: return tp_parse_opnd(tp, inst, d->a, inst->opnd[d->a].kind, 0, -1);
    case D_EXEC: return tp_exec(tp, &inst->exec);
    case D_MEDIA_MODE: {
        const char *at = tp->p;
        if (*tp->p != '.') {
            tp_error(tp, at, "expected a media mode (.nomod, .modified, .top, .bottom, .top_mod, .bottom_mod)");
            return false;
        }
        const char *m = ++tp->p;
        while (is_word(*tp->p)) tp->p++;
        uint32_t mod;
        size_t mn = (size_t)(tp->p - m);
        /* IGC looks both modes up in media_ld_mod_str; "reserved" is what its printer
        ** shows for MEDIA_ST mode 1, accepted so that printed text reads back */
        if (!isa_enum_parse(VISA_EN_media_ld_mod, m, mn, &mod) &&
            !(inst->form == VISA_FORM_MEDIA_ST && isa_enum_parse(VISA_EN_media_st_mod, m, mn, &mod))) {
            tp_error(tp, m, "unknown media mode '%.*s'", (int)mn, m);
            return false;
        }
        op[d->a].u.num = mod;
        return true;
    }
    case D_MEDIA_WH: {
        /* ( width , height ) */
        int64_t wh[2];
        if (!tp_expect(tp, "(")) return false;
        for (int i = 0; i < 2; i++) {
            if (i && !tp_expect(tp, ",")) return false;
            tp_skip_ws(tp);
            const char *vat = tp->p;
            if (!tp_int_expr(tp, &wh[i])) return false;
            if (wh[i] < 0 || wh[i] > 0xFF) {
                tp_error(tp, vat, "block %s %lld out of range (0..255)", i ? "height" : "width", (long long)wh[i]);
                return false;
            }
        }
        if (!tp_expect(tp, ")")) return false;
        op[d->a].u.num = wh[0];
        op[d->b].u.num = wh[1];
        return true;
    }
    case D_MEDIA_PLANE:
        /* optional plane (a plain decimal; a number followed by ':' is the x immediate) */
        tp_skip_ws(tp);
        op[d->a].u.num = 0;
        if (*tp->p >= '0' && *tp->p <= '9') {
            const char *s = tp->p;
            while (*s >= '0' && *s <= '9') s++;
            const char *after = s;
            while (*after == ' ' || *after == '\t') after++;
            if (!is_word(*s) && *after != ':') {
                const char *pat = tp->p;
                uint64_t plane;
                if (!tp_uint_dec(tp, &plane)) return false;
                if (plane > 15) {
                    tp_error(tp, pat, "plane %llu out of range (0..15)", (unsigned long long)plane);
                    return false;
                }
                op[d->a].u.num = (int64_t)plane;
            }
        }
        return true;
    case D_SCATTER: {
        bool gather = inst->form == VISA_FORM_GATHER;
        const char *at = tp->p + 1;
        uint64_t eb;
        skip_mod(tp); /* IGC's printer puts .mod here too (H12) */
        if (!dot_number(tp, &eb, "an element size (1, 2 or 4)")) return false;
        if (eb != 1 && eb != 2 && eb != 4) {
            tp_error(tp, at, "invalid element size %llu (expected 1, 2 or 4)", (unsigned long long)eb);
            return false;
        }
        op[d->a].u.num = eb == 1 ? 0 : eb == 2 ? 1 : 2;
        tp_skip_ws(tp);
        const char *eat = tp->p;
        uint8_t ex;
        if (!tp_exec(tp, &ex)) return false;
        /* exec size goes to num_elts: 8 -> 0, 16 -> 1, 1 -> 2; emask in bits 4-7 */
        unsigned code = ir_exec_code(ex);
        if (code != 0 && code != 3 && code != 4) {
            tp_error(tp, eat, "invalid execution size %u for %s (expected 1, 8 or 16)", 1u << code,
                     gather ? "gather" : "scatter");
            return false;
        }
        op[d->c].u.num = ir_exec_make(code == 3 ? 0 : code == 4 ? 1 : 2, ir_exec_emask(ex));
        skip_mod(tp);
        return true;
    }
    case D_CHMASK: return dot_chmask(tp, &op[d->a].u.num);
    case D_BLOCKS: return dot_block_num(tp, &op[d->a].u.num);
    case D_ATOMIC: return dot_atomic(tp, &op[d->a].u.num, d->b);
    case D_SVM_BLOCK: {
        /* no suffix means unaligned (f17b225 builder call) */
        bool unaligned = true;
        if (strncmp(tp->p, ".aligned", 8) == 0 && !is_word(tp->p[8])) {
            tp->p += 8;
            unaligned = false;
        } else if (strncmp(tp->p, ".unaligned", 10) == 0 && !is_word(tp->p[10])) {
            tp->p += 10;
        } else if (*tp->p == '.') {
            tp_error(tp, tp->p, "expected .aligned or .unaligned");
            return false;
        }
        if (!oword_count(tp, &op[d->a].u.num)) return false;
        if (unaligned) op[d->a].u.num |= SVM_UNALIGNED;
        return true;
    }
    case D_SVM_BTYPE: {
        const char *at = tp->p + 1;
        uint64_t bs;
        if (!dot_number(tp, &bs, "a block size (1, 4 or 8)")) return false;
        char txt[24];
        int tn = snprintf(txt, sizeof txt, "%llu", (unsigned long long)bs);
        uint32_t code;
        if (!isa_enum_parse(VISA_EN_svm_block_type, txt, (size_t)tn, &code)) {
            tp_error(tp, at, "invalid block size %llu (expected 1, 4 or 8)", (unsigned long long)bs);
            return false;
        }
        op[d->a].u.num = code;
        return true;
    }
    default: return true;
    }
}

static bool dp_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned n = isa_layout_opnds(layout);
    if (!tp_inst_alloc(tp, inst, n)) return false;
    for (unsigned k = 0; k < n; k++) inst->opnd[k].kind = kind_at(layout, k);
    const char *w;
    tp_word(tp, &w); /* the mnemonic; its suffixes follow without white space */
    const dp_syntax *syn = syntax_of(form);
    if (!syn) {
        tp_error(tp, w, "unexpected instruction");
        return false;
    }
    for (const dp_piece *d = syn->p; d < syn->p + DP_MAX_PIECES && d->kind != D_END; d++)
        if (!dp_parse_piece(tp, inst, d)) return false;
    return true;
}

const txt_hook txt_hook_dataport = {dp_print, dp_parse};
