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

#include "text.h"

/* IGC's CISAAtomicOpNames has no name for VISA_ATOMIC_PREDEC (the spec's "predec") and its lexer
** has no token for it: it prints "" and cannot be parsed back (memory.md H16). */
#define ATOMIC_16 0x20      /* op byte bit 5: .16 */
#define ATOMIC_64 0x40      /* op byte bit 6: .64 (SVM only in text) */
#define SVM_UNALIGNED 0x80  /* SVM block props: what IGC's builder and printer use */

static const isa_form *form_of(const ir_inst *inst) { return &isa_forms[inst->form]; }

static size_t first_mnem_len(const char *m) {
    const char *e = strchr(m, '|');
    return e ? (size_t)(e - m) : strlen(m);
}

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
    sb_putn(pr->out, m, first_mnem_len(m));
}

static unsigned num(const ir_inst *inst, unsigned k) {
    return k < inst->nopnd ? (unsigned)inst->opnd[k].u.num : 0;
}

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

static void dp_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    put_mnem(pr, inst);
    switch (inst->form) {
    case VISA_FORM_OWORD_LD:
    case VISA_FORM_OWORD_LD_UNALIGNED:
        /* size mod surface offset dst */
        if (num(inst, 1) & 1) sb_puts(o, ".mod");
        put_count(pr, " (", num(inst, 0) & 7);
        sb_putc(o, ')');
        put_surface(pr, num(inst, 2));
        put_msg_opnds(pr, inst, 3);
        break;
    case VISA_FORM_OWORD_ST:
        put_count(pr, " (", num(inst, 0) & 7);
        sb_putc(o, ')');
        put_surface(pr, num(inst, 1));
        put_msg_opnds(pr, inst, 2);
        break;
    case VISA_FORM_MEDIA_LD:
    case VISA_FORM_MEDIA_ST: {
        /* mod surface plane width height x y msg: .mod (w,h) surface plane x y msg */
        unsigned mod = num(inst, 0);
        const char *t = inst->form == VISA_FORM_MEDIA_ST ? isa_enum_text(VISA_EN_media_st_mod, mod) : NULL;
        if (!t) t = isa_enum_text(VISA_EN_media_ld_mod, mod);
        if (t) sb_printf(o, ".%s", t);
        else sb_printf(o, ".%u", mod);
        sb_printf(o, " (%u,%u)", num(inst, 3), num(inst, 4));
        put_surface(pr, num(inst, 1));
        sb_printf(o, " %u", num(inst, 2));
        put_msg_opnds(pr, inst, 5);
        break;
    }
    case VISA_FORM_GATHER:
    case VISA_FORM_SCATTER: {
        /* elt_size [mod] num_elts surface global offsets msg; exec size lives in num_elts */
        bool gather = inst->form == VISA_FORM_GATHER;
        unsigned elt = num(inst, 0) & 3, ne = num(inst, gather ? 2 : 1);
        bool mod = gather && (num(inst, 1) & 1);
        static const unsigned lanes[4] = {8, 16, 1, 0}; /* printExecutionSizeForScatterGather */
        if (mod) sb_puts(o, ".mod");
        sb_printf(o, ".%u ", elt == 3 ? 3u : 1u << elt);
        const char *m = isa_enum_text(VISA_EN_emask, ir_exec_emask((uint8_t)ne));
        sb_printf(o, "(%s, %u)", m ? m : "M?", lanes[ne & 3]);
        if (mod) sb_puts(o, ".mod");
        put_surface(pr, num(inst, gather ? 3 : 2));
        put_msg_opnds(pr, inst, gather ? 4 : 3);
        break;
    }
    case VISA_FORM_GATHER4_TYPED:
    case VISA_FORM_SCATTER4_TYPED:
        /* chmask surface u v r lod msg */
        put_chmask(pr, num(inst, 0), "0000");
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_surface(pr, num(inst, 1));
        put_msg_opnds(pr, inst, 2);
        break;
    case VISA_FORM_GATHER4_SCALED:
    case VISA_FORM_SCATTER4_SCALED:
        /* chmask scale surface global offsets msg */
        put_chmask(pr, num(inst, 0), "0000");
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_surface(pr, num(inst, 2));
        put_msg_opnds(pr, inst, 3);
        break;
    case VISA_FORM_GATHER_SCALED:
    case VISA_FORM_SCATTER_SCALED:
        /* block_size num_blocks scale surface global offsets msg */
        put_count(pr, ".", num(inst, 1));
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_surface(pr, num(inst, 3));
        put_msg_opnds(pr, inst, 4);
        break;
    case VISA_FORM_DWORD_ATOMIC:
    case VISA_FORM_TYPED_ATOMIC:
        /* op surface raws... */
        put_atomic(pr, num(inst, 0));
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_surface(pr, num(inst, 1));
        put_msg_opnds(pr, inst, 2);
        break;
    case VISA_FORM_QW_GATHER:
    case VISA_FORM_QW_SCATTER:
        /* num_blocks surface offsets msg */
        put_count(pr, ".", num(inst, 0));
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_surface(pr, num(inst, 1));
        put_msg_opnds(pr, inst, 2);
        break;
    case VISA_FORM_SVM_BLOCK_LD:
    case VISA_FORM_SVM_BLOCK_ST:
        /* props address msg */
        sb_puts(o, (num(inst, 0) & SVM_UNALIGNED) ? ".unaligned" : ".aligned");
        put_count(pr, " (", num(inst, 0) & 7);
        sb_putc(o, ')');
        put_msg_opnds(pr, inst, 1);
        break;
    case VISA_FORM_SVM_GATHER:
    case VISA_FORM_SVM_SCATTER: {
        /* block_size num_blocks addresses msg */
        const char *t = isa_enum_text(VISA_EN_svm_block_type, num(inst, 0));
        if (t) sb_printf(o, ".%s", t);
        else sb_printf(o, ".?%u", num(inst, 0));
        put_count(pr, ".", num(inst, 1));
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_msg_opnds(pr, inst, 2);
        break;
    }
    case VISA_FORM_SVM_ATOMIC:
        /* op addresses src0 src1 dst; printed addresses dst src0 src1 */
        put_atomic(pr, num(inst, 0));
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_opnd(pr, inst, 1);
        put_opnd(pr, inst, 4);
        put_opnd(pr, inst, 2);
        put_opnd(pr, inst, 3);
        break;
    case VISA_FORM_SVM_GATHER4SCALED:
    case VISA_FORM_SVM_SCATTER4SCALED:
        /* chmask scale address offsets msg */
        put_chmask(pr, num(inst, 0), "");
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        put_msg_opnds(pr, inst, 2);
        break;
    default:
        sb_puts(o, " <unknown data port form>");
        break;
    }
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
            tp_error(tp, wat, widths ? "invalid atomic width %llu (expected 16, 32 or 64)"
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

static bool dp_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned n = isa_layout_opnds(layout);
    if (!tp_inst_alloc(tp, inst, n)) return false;
    for (unsigned k = 0; k < n; k++) inst->opnd[k].kind = kind_at(layout, k);
    ir_opnd *op = inst->opnd;
    const char *w;
    tp_word(tp, &w); /* the mnemonic; its suffixes follow without white space */
    switch (form) {
    case VISA_FORM_OWORD_LD:
    case VISA_FORM_OWORD_LD_UNALIGNED:
    case VISA_FORM_OWORD_ST: {
        bool st = form == VISA_FORM_OWORD_ST;
        skip_mod(tp);
        if (*tp->p == '.') {
            tp_error(tp, tp->p, "unexpected suffix (only .mod is accepted here)");
            return false;
        }
        if (!oword_count(tp, &op[0].u.num) || !surface(tp, &op[st ? 1 : 2])) return false;
        return parse_opnds(tp, inst, st ? 2 : 3);
    }
    case VISA_FORM_MEDIA_LD:
    case VISA_FORM_MEDIA_ST: {
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
            !(form == VISA_FORM_MEDIA_ST && isa_enum_parse(VISA_EN_media_st_mod, m, mn, &mod))) {
            tp_error(tp, m, "unknown media mode '%.*s'", (int)mn, m);
            return false;
        }
        op[0].u.num = mod;
        /* ( width , height ) */
        int64_t wh[2];
        if (!tp_expect(tp, "(")) return false;
        for (int i = 0; i < 2; i++) {
            if (i && !tp_expect(tp, ",")) return false;
            tp_skip_ws(tp);
            const char *vat = tp->p;
            if (!tp_int_expr(tp, &wh[i])) return false;
            if (wh[i] < 0 || wh[i] > 0xFF) {
                tp_error(tp, vat, "block %s %lld out of range (0..255)", i ? "height" : "width",
                         (long long)wh[i]);
                return false;
            }
        }
        if (!tp_expect(tp, ")")) return false;
        op[3].u.num = wh[0];
        op[4].u.num = wh[1];
        if (!surface(tp, &op[1])) return false;
        /* optional plane (a plain decimal; a number followed by ':' is the x immediate) */
        tp_skip_ws(tp);
        op[2].u.num = 0;
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
                op[2].u.num = (int64_t)plane;
            }
        }
        return parse_opnds(tp, inst, 5);
    }
    case VISA_FORM_GATHER:
    case VISA_FORM_SCATTER: {
        bool gather = form == VISA_FORM_GATHER;
        const char *at = tp->p + 1;
        uint64_t eb;
        skip_mod(tp); /* IGC's printer puts .mod here too (H12) */
        if (!dot_number(tp, &eb, "an element size (1, 2 or 4)")) return false;
        if (eb != 1 && eb != 2 && eb != 4) {
            tp_error(tp, at, "invalid element size %llu (expected 1, 2 or 4)", (unsigned long long)eb);
            return false;
        }
        op[0].u.num = eb == 1 ? 0 : eb == 2 ? 1 : 2;
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
        op[gather ? 2 : 1].u.num = ir_exec_make(code == 3 ? 0 : code == 4 ? 1 : 2, ir_exec_emask(ex));
        skip_mod(tp);
        if (!surface(tp, &op[gather ? 3 : 2])) return false;
        return parse_opnds(tp, inst, gather ? 4 : 3);
    }
    case VISA_FORM_GATHER4_TYPED:
    case VISA_FORM_SCATTER4_TYPED:
        if (!dot_chmask(tp, &op[0].u.num) || !tp_exec(tp, &inst->exec) || !surface(tp, &op[1]))
            return false;
        return parse_opnds(tp, inst, 2);
    case VISA_FORM_GATHER4_SCALED:
    case VISA_FORM_SCATTER4_SCALED:
        if (!dot_chmask(tp, &op[0].u.num) || !tp_exec(tp, &inst->exec) || !surface(tp, &op[2]))
            return false;
        return parse_opnds(tp, inst, 3);
    case VISA_FORM_GATHER_SCALED:
    case VISA_FORM_SCATTER_SCALED:
        if (!dot_block_num(tp, &op[1].u.num) || !tp_exec(tp, &inst->exec) || !surface(tp, &op[3]))
            return false;
        return parse_opnds(tp, inst, 4);
    case VISA_FORM_DWORD_ATOMIC:
    case VISA_FORM_TYPED_ATOMIC:
        if (!dot_atomic(tp, &op[0].u.num, false) || !tp_exec(tp, &inst->exec) || !surface(tp, &op[1]))
            return false;
        return parse_opnds(tp, inst, 2);
    case VISA_FORM_QW_GATHER:
    case VISA_FORM_QW_SCATTER:
        if (!dot_block_num(tp, &op[0].u.num) || !tp_exec(tp, &inst->exec) || !surface(tp, &op[1]))
            return false;
        return parse_opnds(tp, inst, 2);
    case VISA_FORM_SVM_BLOCK_LD:
    case VISA_FORM_SVM_BLOCK_ST: {
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
        if (!oword_count(tp, &op[0].u.num)) return false;
        if (unaligned) op[0].u.num |= SVM_UNALIGNED;
        return parse_opnds(tp, inst, 1);
    }
    case VISA_FORM_SVM_GATHER:
    case VISA_FORM_SVM_SCATTER: {
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
        op[0].u.num = code;
        if (!dot_block_num(tp, &op[1].u.num) || !tp_exec(tp, &inst->exec)) return false;
        return parse_opnds(tp, inst, 2);
    }
    case VISA_FORM_SVM_ATOMIC:
        /* text order: addresses dst src0 src1 */
        return dot_atomic(tp, &op[0].u.num, true) && tp_exec(tp, &inst->exec) &&
               tp_parse_opnd(tp, inst, 1, 'R', 0, -1) && tp_parse_opnd(tp, inst, 4, 'R', 0, -1) &&
               tp_parse_opnd(tp, inst, 2, 'R', 0, -1) && tp_parse_opnd(tp, inst, 3, 'R', 0, -1);
    case VISA_FORM_SVM_GATHER4SCALED:
    case VISA_FORM_SVM_SCATTER4SCALED:
        if (!dot_chmask(tp, &op[0].u.num) || !tp_exec(tp, &inst->exec)) return false;
        return parse_opnds(tp, inst, 2);
    default:
        tp_error(tp, w, "unexpected instruction");
        return false;
    }
}

const txt_hook txt_hook_dataport = {dp_print, dp_parse};
