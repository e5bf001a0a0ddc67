/* hooks_sampler.c -- text syntax of the sampler / 3D / media / VME / VA family.
** Facts: docs/text-syntax/sampler-media.md; IGC IsaDisassembly.cpp printInstructionSampler,
** printInstructionMisc (VME, URB write), printInstructionDataport (RT write); CISA.y rules.
**
** Two kinds of rows:
**  * Rows with a text template in ops.def (SAMPLE_UNORM, AVS, VA and VA_SKL_PLUS sub rows, VME_*,
**    URB_WRITE3D) are printed and parsed by template.c, in its message dialect (TPL_MESSAGE: the
**    field, surface, sampler and channel directives are documented there).
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
static unsigned onum(const ir_inst *inst, unsigned k) { return k < inst->nopnd ? (unsigned)inst->opnd[k].u.num : 0; }

/* " " + operand k printed by its kind (IGC's printOperand). */
static void put_opnd(txt_printer *pr, const ir_inst *inst, unsigned k) {
    if (k >= inst->nopnd) return;
    const ir_opnd *o = &inst->opnd[k];
    sb_putc(pr->out, ' ');
    switch (o->kind) {
    case 'V':
    case 'v':
    case '&': pr_vec(pr, &o->u.vec, true); break;
    case 'R': pr_raw(pr, &o->u.raw); break;
    default: sb_printf(pr->out, "%u", (unsigned)o->u.num); break;
    }
}

static void put_surface(txt_printer *pr, unsigned id) { pr_state_name(pr, VS_SURFACE, id); }

/* '.' and channel letters (blanks may precede the '.': it starts a token in IGC's lexer). */
static bool p_channels(txt_parser *tp, unsigned *mask) {
    tp_skip_ws(tp);
    if (*tp->p != '.') {
        tp_error(tp, tp->p, "expected '.' and channel letters (R, G, B, A)");
        return false;
    }
    tp->p++;
    return tp_channel_letters(tp, mask);
}

/* IGC's SamplerAddrOperand: Var or "( Var , index )" (index dropped; must be 0 if zero_idx). */
static bool p_sampler_addr(txt_parser *tp, ir_opnd *o, bool zero_idx) {
    o->kind = 'b';
    if (!tp_accept(tp, "(")) return tp_state_id(tp, &o->u.num);
    if (!tp_state_id(tp, &o->u.num) || !tp_expect(tp, ",")) return false;
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
        pr_channel_letters(pr, ch);
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
    sb_putn(o, F->mnem, isa_mnem_len(F->mnem));
    sb_putc(o, '.');
    unsigned ch = onum(inst, 0) & 0xF;
    if (ch) pr_channel_letters(pr, ch);
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
    if (!tp_mnemonic(tp, form) || !tp_inst_alloc(tp, inst, count)) return false;
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
    sb_putn(o, F->mnem, isa_mnem_len(F->mnem));
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
    if (!tp_mnemonic(tp, form)) return false;
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
    if (!tp_state_id(tp, &inst->opnd[1].u.num)) return false;
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
    sb_putn(o, F->mnem, isa_mnem_len(F->mnem));
    sb_putc(o, '.');
    pr_channel_letters(pr, mode & 0xF);
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
    if (!tp_mnemonic(tp, form) || !tp_inst_alloc(tp, inst, count)) return false;
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
    for (unsigned k = 0; k < count; k++) inst->opnd[k].kind = isa_layout_kind(layout, k);
    inst->opnd[0].u.num = mask | simd << 4;
    int64_t a, b;
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (!tp_state_id(tp, &a)) return false;
    /* a second name (not NAME.offset) follows when both sampler and surface are given */
    const char *save = tp->p, *name;
    size_t n = tp_ident(tp, &name);
    bool two = n && *tp->p != '.';
    tp->p = save;
    if (two && !tp_state_id(tp, &b)) return false;
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
        pr_template(pr, F->text, inst);
        return;
    }
    switch (F->opcode) {
    case VISA_OP_SAMPLE3D:
    case VISA_OP_LOAD3D:
    case VISA_OP_GATHER4_3D: print_3d(pr, inst); break;
    case VISA_OP_INFO3D: print_info(pr, inst); break;
    case VISA_OP_RT_WRITE3D: print_rt(pr, inst); break;
    case VISA_OP_SAMPLE:
    case VISA_OP_LOAD: print_legacy(pr, inst); break;
    default: sb_printf(pr->out, "%s <no text form>", F->name); break;
    }
}

static bool sampler_parse(txt_parser *tp, int form, ir_inst *inst) {
    const isa_form *F = &isa_forms[form];
    if (F->text) return tp_parse_template(tp, form, F->text, TPL_MESSAGE, inst);
    switch (F->opcode) {
    case VISA_OP_SAMPLE3D:
    case VISA_OP_LOAD3D:
    case VISA_OP_GATHER4_3D: return parse_3d(tp, form, inst);
    case VISA_OP_INFO3D: return parse_info(tp, form, inst);
    case VISA_OP_RT_WRITE3D: return parse_rt(tp, form, inst);
    case VISA_OP_SAMPLE:
    case VISA_OP_LOAD: return parse_legacy(tp, form, inst);
    default: tp_error(tp, tp->p, "'%s' has no text form", F->name); return false;
    }
}

const txt_hook txt_hook_sampler = {sampler_print, sampler_parse};
