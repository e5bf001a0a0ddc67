/* hooks_lsc.c -- text syntax of the LSC family: LSC_UNTYPED (0x89) and LSC_TYPED (0x8A) sub-rows
** and LSC_FENCE (0x8B).
** Facts: docs/text-syntax/memory.md §4; IGC IsaDisassembly.cpp class LscInstFormatter (printer),
** CISA.y Lsc* rules and CISA.l LSC tokens (parser).
**
** Operands are stored in the binary layout order of ops.def (LSC_U_GEN, LSC_U_STRIDED,
** LSC_U_BLOCK2D, LSC_U_APNDCTR, LSC_T_GEN, LSC_T_BLOCK2D, LSC_FENCE), with the values IGC's
** builders store for the text (defaults: scale 1, surface imm 0:ud, %null raw operands, and the
** elems and channel-mask bytes both holding the LSC_DATA_SHAPE union value).
**
** Printing models the single std::stringstream IGC formats one LSC instruction into: std::hex and
** std::uppercase are sticky on it, which decides the case of later hex digits and the base of
** typed coordinate offsets (memory.md §4.4).
**
** The block2d payload form "flat[V + (x,y)]" has no field of its own in the 4.1 layout.  It is
** stored as: base = the payload register, surface width/height/pitch and block X/Y = %null
** (general operand V0(0,0)<0;1,0>), X/Y immediate offsets = x and y; the sfid is UGM (IGC's
** builder forces it).  The printer prints the payload form exactly when those five operands are
** all %null.
*/
#include <stdio.h>
#include <string.h>

#include "lsc_layout.h"
#include "text.h"

/* -- Forms ------------------------------------------------------------------------------------- */
enum lsc_shape {
    SH_U_GEN, /* untyped load/store/atomic (formatUntypedSimple) */
    SH_U_STRIDED, /* untyped strided load/store */
    SH_U_BLOCK2D, /* untyped 2D block load/store */
    SH_U_APNDCTR, /* append-counter atomics */
    SH_U_ECC, /* lsc_extended_cache_ctrl */
    SH_T_GEN, /* typed quad load/store and atomics */
    SH_T_RSI, /* lsc_read_state_info */
    SH_T_BLOCK2D, /* typed 2D block load/store */
    SH_FENCE
};
enum lsc_kind { K_LOAD, K_STORE, K_ATOMIC };


static int lsc_shape(int form) {
    const isa_form *F = &isa_forms[form];
    if (F->opcode == VISA_OP_LSC_FENCE) return SH_FENCE;
    if (F->opcode == VISA_OP_LSC_TYPED) {
        if (form == VISA_FORM_LSC_T_READ_STATE_INFO) return SH_T_RSI;
        return strcmp(F->layout, LSC_T_BLOCK2D) == 0 ? SH_T_BLOCK2D : SH_T_GEN;
    }
    if (form == VISA_FORM_LSC_EXTENDED_CACHE_CTRL) return SH_U_ECC;
    if (strcmp(F->layout, LSC_U_STRIDED) == 0) return SH_U_STRIDED;
    if (strcmp(F->layout, LSC_U_BLOCK2D) == 0) return SH_U_BLOCK2D;
    if (strcmp(F->layout, LSC_U_APNDCTR) == 0) return SH_U_APNDCTR;
    return SH_U_GEN;
}

/* Operand count each shape's indices assume (guards against a layout edit in ops.def). */
static unsigned shape_count(int shape) {
    static const unsigned count[] = {U_SRC2 + 1, U_SRC2 + 1, B_SRC1 + 1,  A_SRC + 1,  U_SRC2 + 1,
                                     T_SRC2 + 1, T_SRC2 + 1, TB_SRC1 + 1, F_SCOPE + 1};
    return count[shape];
}

/* LscOpInfo kind.  lsc_ccs_update (kind "other") lexes as a store mnemonic in IGC and is
** printed here as a store; lsc_read_state_info and lsc_extended_cache_ctrl are loads. */
static int lsc_kind(int form) {
    const isa_form *F = &isa_forms[form];
    if (F->flags & (VF_ATOMIC0 | VF_ATOMIC1 | VF_ATOMIC2)) return K_ATOMIC;
    if ((F->flags & VF_LOAD) || form == VISA_FORM_LSC_T_READ_STATE_INFO || form == VISA_FORM_LSC_EXTENDED_CACHE_CTRL)
        return K_LOAD;
    return K_STORE;
}

/* LscOpInfo::hasChMask: the quad load/store sub-opcodes (typed and untyped). */
static bool lsc_has_chmask(int form) { return isa_forms[form].flags & VF_CHMASK; }

/* IGC's lexer returns LSC_LOAD_MNEMONIC (which takes .ov) for these untyped loads. */
static bool lsc_takes_ov(int form) {
    return form == VISA_FORM_LSC_LOAD || form == VISA_FORM_LSC_LOAD_QUAD || form == VISA_FORM_LSC_LOAD_STATUS;
}

static const char *mnem_of(int form, size_t *n) {
    const char *m = isa_forms[form].mnem;
    *n = isa_mnem_len(m);
    return m;
}

/* Value of a spelling of an enum (the spellings are the table's, the names here select). */
static uint32_t ev(isa_enum_id en, const char *name) {
    uint32_t v = 0;
    (void)isa_enum_parse(en, name, strlen(name), &v);
    return v;
}


/* -- Printing: a model of IGC's std::stringstream -------------------------------------------- */
typedef struct lsc_os {
    txt_printer *pr;
    strbuf *o;
    bool hex; /* std::hex is set */
    bool upper; /* std::uppercase is set */
} lsc_os;

static void os_hexdigits(lsc_os *s, uint64_t v) { sb_printf(s->o, s->upper ? "%llX" : "%llx", (unsigned long long)v); }

/* operator<< on an int with the current base. */
static void os_i32(lsc_os *s, int32_t v) {
    if (s->hex) os_hexdigits(s, (uint32_t)v);
    else sb_printf(s->o, "%d", v);
}

/* formatBadEnum */
static void os_bad(lsc_os *s, uint64_t v) {
    sb_puts(s->o, "<<");
    s->upper = true;
    os_hexdigits(s, v);
    sb_puts(s->o, "?>>");
    s->hex = false;
}

/* ".text" of an enum value, or the bad-enum text. */
static void os_dot_enum(lsc_os *s, isa_enum_id en, uint64_t v) {
    const char *t = v <= 0xFF ? isa_enum_text(en, (uint32_t)v) : NULL;
    sb_putc(s->o, '.');
    if (t) sb_puts(s->o, t);
    else os_bad(s, v);
}

static uint64_t imm_lval(const ir_vec *v) {
    if (v->type == VISA_TYPE_Q || v->type == VISA_TYPE_UQ || v->type == VISA_TYPE_DF) return v->imm;
    return v->imm & 0xFFFFFFFFu;
}

static bool vec_has_rc(const ir_vec *v) { return v->row != 0 || v->col != 0; }

/* formatVectorOperand */
static void os_vec(lsc_os *s, const ir_vec *v) {
    switch (v->cls) {
    case VC_IMMEDIATE:
        sb_puts(s->o, "0x");
        s->upper = true;
        os_hexdigits(s, imm_lval(v));
        s->hex = false;
        break;
    case VC_GENERAL:
        pr_var_name(s->pr, v->id);
        if (vec_has_rc(v)) {
            s->hex = false;
            sb_printf(s->o, "(%u,%u)", v->row, v->col);
        }
        break;
    default: sb_puts(s->o, "<<BAD_OPERAND_VECTOR_KIND>>"); break;
    }
}

/* formatRawOperand */
static void os_raw(lsc_os *s, const ir_raw *r) {
    pr_var_name(s->pr, r->id);
    if (r->offset) {
        s->hex = false;
        sb_printf(s->o, ".%d", (int)r->offset);
    }
}

static void os_sfid(lsc_os *s, uint64_t sfid) {
    if (sfid == ev(VISA_EN_lsc_sfid, "urb")) { /* IGC's printer has no name for URB */
        sb_putc(s->o, '.');
        os_bad(s, sfid);
        return;
    }
    os_dot_enum(s, VISA_EN_lsc_sfid, sfid);
}

/* formatCachingOpts: nothing when both levels are default */
static void os_cache(lsc_os *s, uint64_t l1, uint64_t l3) {
    if (l1 == 0 && l3 == 0) return;
    os_dot_enum(s, VISA_EN_lsc_cache, l1);
    os_dot_enum(s, VISA_EN_lsc_cache, l3);
}

static void os_mnem(lsc_os *s, int form) {
    size_t n;
    const char *m = mnem_of(form, &n);
    sb_putn(s->o, m, n);
}

static void os_exec(lsc_os *s, uint8_t exec) {
    sb_putc(s->o, ' ');
    pr_exec(s->pr, exec);
}

static void os_asize(lsc_os *s, uint64_t as) {
    const char *t = as <= 0xFF ? isa_enum_text(VISA_EN_lsc_addr_size, (uint32_t)as) : NULL;
    sb_putc(s->o, ':');
    if (t) sb_puts(s->o, t);
    else os_bad(s, as);
}

/* IGC 1.0 spelled the zero-extending sizes dNcM (d8c32, d16c32, d16c32h) where 2.x prints
** dNuM: the accepted spelling of the same value that starts with 'd' and has a 'c' */
static const char *igc1_dsize(uint32_t ds) {
    uint32_t v;
    const char *t;
    for (unsigned i = 0; isa_enum_at(VISA_EN_lsc_data_size, i, &v, &t); i++)
        if (v == ds && t[0] == 'd' && strchr(t, 'c')) return t;
    return NULL;
}

static void os_dsize(lsc_os *s, uint64_t ds) {
    const char *t = ds <= 0xFF && s->pr->igc1 ? igc1_dsize((uint32_t)ds) : NULL;
    if (!t && ds <= 0xFF) t = isa_enum_text(VISA_EN_lsc_data_size, (uint32_t)ds);
    sb_putc(s->o, ':');
    if (t) sb_puts(s->o, t);
    else os_bad(s, ds);
}

/* formatDataShape: size, then the channel mask (quad ops) or elems and transpose */
static void os_shape(lsc_os *s, int form, uint64_t ds, uint64_t order, uint64_t elems, uint64_t chm) {
    os_dsize(s, ds);
    if (lsc_has_chmask(form)) {
        sb_putc(s->o, '.');
        if (chm & ~(uint64_t)0xF) {
            os_bad(s, chm);
        } else {
            static const char letters[4] = {'x', 'y', 'z', 'w'};
            for (int b = 0; b < 4; b++)
                if (chm & (1u << b)) sb_putc(s->o, letters[b]);
        }
        return;
    }
    const char *t = elems <= 0xFF ? isa_enum_text(VISA_EN_lsc_elems, (uint32_t)elems) : NULL;
    if (!t) os_bad(s, elems);
    else if (elems != 1) sb_printf(s->o, "x%s", t);
    if (order == VISA_LSC_ORDER_TRANSPOSE) sb_putc(s->o, 't');
    else if (order != VISA_LSC_ORDER_NONTRANSPOSE) os_bad(s, order);
}

/* formatAddrType + formatAddrTypeArgs */
static void os_model(lsc_os *s, uint64_t at, const ir_vec *surf, uint32_t idx) {
    const char *t = at <= 0xFF ? isa_enum_text(VISA_EN_lsc_addr_type, (uint32_t)at) : NULL;
    if (t) sb_puts(s->o, t);
    else os_bad(s, at);
    switch (surf->cls) {
    case VC_IMMEDIATE: {
        bool zero = imm_lval(surf) == 0 && idx == 0;
        bool flat_or_arg = at == ev(VISA_EN_lsc_addr_type, "flat") || at == ev(VISA_EN_lsc_addr_type, "arg");
        if (!zero || !flat_or_arg) {
            sb_puts(s->o, "(0x");
            s->upper = true;
            os_hexdigits(s, imm_lval(surf));
            s->hex = false;
            if (idx) {
                sb_puts(s->o, ",0x");
                s->hex = true; /* and it stays so (no std::dec after the index) */
                os_hexdigits(s, idx);
            }
            sb_putc(s->o, ')');
        }
        break;
    }
    case VC_GENERAL:
        sb_putc(s->o, '(');
        pr_var_name(s->pr, surf->id);
        if (vec_has_rc(surf)) {
            s->hex = false;
            sb_printf(s->o, "(%u,%u)", surf->row, surf->col);
            if (idx) { /* a surface index is only printed after (row,col) */
                sb_puts(s->o, ",0x");
                s->upper = true;
                s->hex = true;
                os_hexdigits(s, idx);
            }
        }
        sb_putc(s->o, ')');
        break;
    default: sb_puts(s->o, "(<<BAD_OPERAND_VECTOR_KIND>>)"); break;
    }
}

static const ir_raw *op_raw(const ir_inst *in, unsigned k) { return &in->opnd[k].u.raw; }
static const ir_vec *op_vec(const ir_inst *in, unsigned k) { return &in->opnd[k].u.vec; }
static uint64_t op_num(const ir_inst *in, unsigned k) { return (uint64_t)in->opnd[k].u.num; }

/* [scale*]base[+-off][, pitch]]:asize after the model */
static void os_untyped_addr(lsc_os *s, const ir_inst *in, bool strided) {
    os_model(s, op_num(in, U_AT), op_vec(in, U_SURF), (uint32_t)op_num(in, U_SIDX));
    sb_putc(s->o, '[');
    unsigned scale = (uint16_t)op_num(in, U_SCALE);
    if (scale > 1) {
        sb_puts(s->o, "0x");
        s->hex = true;
        os_hexdigits(s, scale);
        sb_putc(s->o, '*');
    }
    os_raw(s, op_raw(in, U_SRC0));
    int32_t off = (int32_t)op_num(in, U_OFF);
    if (off != 0) {
        sb_putc(s->o, off < 0 ? '-' : '+');
        sb_puts(s->o, "0x");
        s->hex = true;
        os_hexdigits(s, off < 0 ? 0u - (uint32_t)off : (uint32_t)off);
    }
    /* IGC tests "is the pitch V0?" by reading the address-base raw operand as a vector operand
    ** (isVectorOpV0): its tag is the low byte of the raw variable id, so the pitch is left out
    ** whenever that id is a multiple of 8 (memory.md H3). */
    if (strided && (op_raw(in, U_SRC0)->id & 7) != 0) {
        sb_puts(s->o, ", ");
        os_vec(s, op_vec(in, U_SRC1));
    }
    sb_putc(s->o, ']');
    os_asize(s, op_num(in, U_AS));
}

static void os_data(lsc_os *s, int form, const ir_inst *in, unsigned k, unsigned ds) {
    os_raw(s, op_raw(in, k));
    os_shape(s, form, op_num(in, ds), op_num(in, ds + 1), op_num(in, ds + 2), op_num(in, ds + 3));
}

static void print_untyped(lsc_os *s, const ir_inst *in, int form, bool strided) {
    os_mnem(s, form);
    os_sfid(s, op_num(in, U_SFID));
    os_cache(s, op_num(in, U_L1), op_num(in, U_L3));
    os_exec(s, in->exec);
    sb_puts(s->o, "  ");
    switch (lsc_kind(form)) {
    case K_LOAD:
        os_data(s, form, in, U_DST, U_DS);
        sb_puts(s->o, "  ");
        os_untyped_addr(s, in, strided);
        break;
    case K_STORE:
        os_untyped_addr(s, in, strided);
        sb_puts(s->o, "  ");
        os_data(s, form, in, strided ? U_SRC2 : U_SRC1, U_DS);
        break;
    default:
        os_data(s, form, in, U_DST, U_DS);
        sb_puts(s->o, "  ");
        os_untyped_addr(s, in, strided);
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, U_SRC1));
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, U_SRC2));
        break;
    }
}

/* formatExtendedCacheCtrlInst: the 4.1 layout has no cache-control op/size fields; IGC's text
** path always stores "reset" and 64B, which print as ".reset.64B". */
static void print_ecc(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    os_sfid(s, op_num(in, U_SFID));
    os_cache(s, op_num(in, U_L1), op_num(in, U_L3));
    sb_puts(s->o, ".reset.64B");
    os_exec(s, in->exec);
    if (op_num(in, U_AT) == ev(VISA_EN_lsc_addr_type, "flat")) sb_puts(s->o, " flat");
    else os_bad(s, op_num(in, U_AT));
    sb_putc(s->o, '[');
    os_raw(s, op_raw(in, U_SRC0));
    sb_putc(s->o, ']');
    os_asize(s, op_num(in, U_AS));
}

static bool block2d_is_payload(const ir_inst *in) {
    for (unsigned k = B_SW; k <= B_Y; k++) {
        if (k == B_XOFF) continue;
        const ir_vec *v = op_vec(in, k);
        if (v->cls != VC_GENERAL || v->id != 0 || vec_has_rc(v)) return false;
    }
    return true;
}

/* block2d X/Y immediate offsets: IGC reads them as int16 and prints "+n" / "-n" */
static void os_imm_off(lsc_os *s, uint64_t raw) {
    int16_t v = (int16_t)(uint16_t)raw;
    if (v == 0) return;
    if (v > 0) sb_putc(s->o, '+');
    os_i32(s, v);
}

static void os_shape2d(lsc_os *s, const ir_inst *in) {
    os_dsize(s, op_num(in, B_DS));
    sb_putc(s->o, '.');
    s->hex = false;
    unsigned blocks = (uint8_t)op_num(in, B_BLOCKS);
    if (blocks != 1) sb_printf(s->o, "%ux", blocks);
    sb_printf(s->o, "%ux%u", (unsigned)(uint16_t)op_num(in, B_W), (unsigned)(uint16_t)op_num(in, B_H));
    sb_putc(s->o, op_num(in, B_ORD) == VISA_LSC_ORDER_TRANSPOSE ? 't' : 'n');
    sb_putc(s->o, (uint8_t)op_num(in, B_VNNI) ? 't' : 'n');
}

static void os_block2d_addr(lsc_os *s, const ir_inst *in) {
    sb_puts(s->o, "flat[");
    if (block2d_is_payload(in)) {
        os_vec(s, op_vec(in, B_BASE));
        sb_puts(s->o, " + (");
        os_i32(s, (int16_t)(uint16_t)op_num(in, B_XOFF));
        sb_putc(s->o, ',');
        os_i32(s, (int16_t)(uint16_t)op_num(in, B_YOFF));
        sb_puts(s->o, ")]");
        return;
    }
    for (unsigned k = B_BASE; k <= B_SP; k++) {
        os_vec(s, op_vec(in, k));
        sb_putc(s->o, ',');
    }
    os_vec(s, op_vec(in, B_X));
    os_imm_off(s, op_num(in, B_XOFF));
    sb_putc(s->o, ',');
    os_vec(s, op_vec(in, B_Y));
    os_imm_off(s, op_num(in, B_YOFF));
    sb_putc(s->o, ']');
}

static void print_block2d(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    os_sfid(s, op_num(in, B_SFID));
    os_cache(s, op_num(in, B_L1), op_num(in, B_L3));
    os_exec(s, in->exec);
    sb_puts(s->o, "  ");
    if (lsc_kind(form) == K_LOAD) {
        os_raw(s, op_raw(in, B_DST));
        os_shape2d(s, in);
        sb_puts(s->o, "  ");
        os_block2d_addr(s, in);
    } else {
        os_block2d_addr(s, in);
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, B_SRC1));
        os_shape2d(s, in);
    }
}

static void print_apndctr(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    os_sfid(s, op_num(in, A_SFID));
    os_cache(s, op_num(in, A_L1), op_num(in, A_L3));
    os_exec(s, in->exec);
    sb_puts(s->o, "  ");
    os_data(s, form, in, A_DST, A_DS);
    sb_puts(s->o, "  ");
    os_model(s, op_num(in, A_AT), op_vec(in, A_SURF), (uint32_t)op_num(in, A_SIDX));
    sb_puts(s->o, "  ");
    os_data(s, form, in, A_SRC, A_DS);
}

static void os_typed_addr(lsc_os *s, const ir_inst *in) {
    os_model(s, op_num(in, T_AT), op_vec(in, T_SURF), (uint32_t)op_num(in, T_SIDX));
    sb_putc(s->o, '[');
    static const unsigned coord[4] = {T_U, T_V, T_R, T_LOD};
    for (int i = 0; i < 4; i++) {
        const ir_raw *r = op_raw(in, coord[i]);
        if (r->id == 0) break; /* the list stops at the first %null */
        if (i) sb_putc(s->o, ',');
        os_raw(s, r);
        if (i < 3) {
            int32_t off = (int32_t)op_num(in, coord[i] + 1);
            if (off > 0) {
                sb_putc(s->o, '+');
                os_i32(s, off);
            } else if (off < 0) {
                sb_putc(s->o, '-');
                os_i32(s, (int32_t)(0u - (uint32_t)off));
            }
        }
    }
    sb_putc(s->o, ']');
    os_asize(s, op_num(in, T_AS));
}

static void print_typed(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    sb_puts(s->o, ".tgm");
    os_cache(s, op_num(in, T_L1), op_num(in, T_L3));
    os_exec(s, in->exec);
    sb_puts(s->o, "  ");
    switch (lsc_kind(form)) {
    case K_LOAD:
        os_data(s, form, in, T_DST, T_DS);
        sb_puts(s->o, "  ");
        os_typed_addr(s, in);
        break;
    case K_STORE:
        os_typed_addr(s, in);
        sb_puts(s->o, "  ");
        os_data(s, form, in, T_SRC1, T_DS);
        break;
    default:
        os_data(s, form, in, T_DST, T_DS);
        sb_puts(s->o, "  ");
        os_typed_addr(s, in);
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, T_SRC1));
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, T_SRC2));
        break;
    }
}

/* formatTypedRSI: no exec size, no address size */
static void print_rsi(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    sb_puts(s->o, ".tgm");
    os_cache(s, op_num(in, T_L1), op_num(in, T_L3));
    sb_puts(s->o, "  ");
    os_raw(s, op_raw(in, T_DST));
    sb_puts(s->o, "  ");
    os_model(s, op_num(in, T_AT), op_vec(in, T_SURF), (uint32_t)op_num(in, T_SIDX));
    sb_putc(s->o, '[');
    os_raw(s, op_raw(in, T_U));
    sb_putc(s->o, ']');
}

/* formatTypedBlock2D: no exec size; shape ":<W>x<H>" */
static void print_typed_block2d(lsc_os *s, const ir_inst *in, int form) {
    os_mnem(s, form);
    sb_puts(s->o, ".tgm");
    os_cache(s, op_num(in, TB_L1), op_num(in, TB_L3));
    sb_puts(s->o, "  ");
    bool load = lsc_kind(form) == K_LOAD;
    if (load) {
        os_raw(s, op_raw(in, TB_DST));
        s->hex = false;
        sb_printf(s->o, ":%ux%u", (unsigned)(uint16_t)op_num(in, TB_W), (unsigned)(uint16_t)op_num(in, TB_H));
        sb_puts(s->o, "  ");
    }
    os_model(s, op_num(in, TB_AT), op_vec(in, TB_SURF), (uint32_t)op_num(in, TB_SIDX));
    sb_putc(s->o, '[');
    os_vec(s, op_vec(in, TB_X));
    os_imm_off(s, op_num(in, TB_XOFF));
    sb_putc(s->o, ',');
    os_vec(s, op_vec(in, TB_Y));
    os_imm_off(s, op_num(in, TB_YOFF));
    sb_putc(s->o, ']');
    if (!load) {
        sb_puts(s->o, "  ");
        os_raw(s, op_raw(in, TB_SRC1));
        s->hex = false;
        sb_printf(s->o, ":%ux%u", (unsigned)(uint16_t)op_num(in, TB_W), (unsigned)(uint16_t)op_num(in, TB_H));
    }
}

/* formatFence: unknown op/scope values print ".???" */
static void print_fence(lsc_os *s, const ir_inst *in) {
    sb_puts(s->o, "lsc_fence");
    os_sfid(s, op_num(in, F_SFID));
    uint64_t opv = op_num(in, F_OP), scv = op_num(in, F_SCOPE);
    const char *op = opv <= 0xFF ? isa_enum_text(VISA_EN_lsc_fence_op, (uint32_t)opv) : NULL;
    const char *sc = scv <= 0xFF ? isa_enum_text(VISA_EN_lsc_scope, (uint32_t)scv) : NULL;
    sb_printf(s->o, ".%s.%s", op ? op : "???", sc ? sc : "???");
}

static void lsc_print(txt_printer *pr, const ir_inst *inst) {
    lsc_os s = {pr, pr->out, false, false};
    int form = inst->form;
    char full[64];
    if (inst->nopnd != isa_layout_opnds(isa_form_layout(form, full)) || !inst->opnd ||
        inst->nopnd != shape_count(lsc_shape(form))) {
        sb_printf(pr->out, "%s <malformed operands>", isa_forms[form].name);
        return;
    }
    switch (lsc_shape(form)) {
    case SH_U_GEN: print_untyped(&s, inst, form, false); break;
    case SH_U_STRIDED: print_untyped(&s, inst, form, true); break;
    case SH_U_BLOCK2D: print_block2d(&s, inst, form); break;
    case SH_U_APNDCTR: print_apndctr(&s, inst, form); break;
    case SH_U_ECC: print_ecc(&s, inst, form); break;
    case SH_T_GEN: print_typed(&s, inst, form); break;
    case SH_T_RSI: print_rsi(&s, inst, form); break;
    case SH_T_BLOCK2D: print_typed_block2d(&s, inst, form); break;
    default: print_fence(&s, inst); break;
    }
}

/* -- Parsing ----------------------------------------------------------------------------------- */
static bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '@' || c == '?';
}
static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Longest spelling of an enum at the cursor (no skipping); when `whole`, it must not be followed
** by a word character.  Returns the spelling length, 0 if none matches. */
static bool not_word(char c) { return !is_word(c); }

static size_t enum_at(const char *p, isa_enum_id en, bool whole, uint32_t *value) {
    return isa_enum_longest_at(en, p, whole ? not_word : NULL, value);
}

/* ".name" of an enum; `what` names it in the error. */
static bool p_dot_enum(txt_parser *tp, isa_enum_id en, uint32_t *value, const char *what) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    size_t n = *tp->p == '.' ? enum_at(tp->p + 1, en, true, value) : 0;
    if (!n) {
        uint32_t v;
        const char *t;
        char list[160];
        size_t len = 0;
        list[0] = 0;
        for (unsigned i = 0; isa_enum_at(en, i, &v, &t) && len + strlen(t) + 3 < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s.%s", i ? " " : "", t);
        tp_error(tp, at, "expected %s (%s)", what, list);
        return false;
    }
    tp->p += 1 + n;
    return true;
}

static bool p_mnemonic(txt_parser *tp, int form) {
    size_t n;
    const char *m = mnem_of(form, &n);
    const char *w;
    size_t wn = tp_word(tp, &w);
    if (wn != n || memcmp(w, m, n) != 0) {
        tp_error(tp, w, "expected '%.*s'", (int)n, m);
        return false;
    }
    return true;
}

/* Does another LSC row share this form's mnemonic (the untyped/typed pairs)? */
static bool has_twin(int form) {
    for (int f = 0; f < VISA_FORM__COUNT; f++)
        if (f != form && isa_forms[f].hook == TH_LSC && strcmp(isa_forms[f].mnem, isa_forms[form].mnem) == 0)
            return true;
    return false;
}

/* SFID: untyped forms take .ugm .ugml .slm, typed forms .tgm, fences any of them. */
enum { SF_UNTYPED, SF_TYPED, SF_ANY };
static bool p_sfid(txt_parser *tp, int form, int which, uint32_t *sfid) {
    static const char *const expect[3] = {"an SFID (.ugm, .ugml or .slm)", "the SFID .tgm",
                                          "an SFID (.ugm, .ugml, .slm or .tgm)"};
    tp_skip_ws(tp);
    const char *at = tp->p;
    size_t len = *tp->p == '.' ? enum_at(tp->p + 1, VISA_EN_lsc_sfid, true, sfid) : 0;
    if (!len || *sfid == ev(VISA_EN_lsc_sfid, "urb")) { /* IGC has no token for URB */
        tp_error(tp, at, "expected %s", expect[has_twin(form) ? SF_ANY : which]);
        return false;
    }
    tp->p += 1 + len;
    size_t n;
    const char *m = mnem_of(form, &n);
    uint32_t tgm = ev(VISA_EN_lsc_sfid, "tgm");
    if (which == SF_UNTYPED && *sfid == tgm) {
        tp_error(tp, at, "'%.*s' has no typed (.tgm) form", (int)n, m);
        return false;
    }
    if (which == SF_TYPED && *sfid != tgm) {
        tp_error(tp, at, "'%.*s' with .ugm/.ugml/.slm has no untyped form; expected .tgm", (int)n, m);
        return false;
    }
    return true;
}

/* LscCacheOpts: none, or two options (.L1.L3). */
static bool p_cache(txt_parser *tp, ir_inst *in, unsigned l1, unsigned l3) {
    uint32_t v[3];
    int count = 0;
    const char *at = NULL;
    for (;;) {
        tp_skip_ws(tp);
        size_t n = *tp->p == '.' ? enum_at(tp->p + 1, VISA_EN_lsc_cache, true, &v[count < 3 ? count : 2]) : 0;
        if (!n) break;
        if (!at) at = tp->p;
        tp->p += 1 + n;
        if (++count > 3) break;
    }
    if (count == 1) {
        tp_error(tp, at, "expected two cache options (.L1.L3), e.g. .uc.uc or .df.df");
        return false;
    }
    if (count >= 3) {
        tp_error(tp, at,
                 "three cache options (.L1.L2.L3) belong to the efficient64b dialect, "
                 "which the 4.1 format cannot hold");
        return false;
    }
    in->opnd[l1].u.num = count ? v[0] : 0;
    in->opnd[l3].u.num = count ? v[1] : 0;
    return true;
}

/* A variable name as IGC's lexer reads it (no '-' inside, unlike .decl names). */
static size_t p_name(txt_parser *tp, const char **start) {
    tp_skip_ws(tp);
    const char *s = tp->p;
    if (*s == '%') s++;
    if (!is_name_start(*s)) return 0;
    while (is_name_char(*s)) s++;
    *start = tp->p;
    size_t n = (size_t)(s - tp->p);
    tp->p = s;
    return n;
}

static bool p_var(txt_parser *tp, uint32_t *id, bool nonnull, const char *what) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    const char *name;
    size_t n = p_name(tp, &name);
    if (!n) {
        tp_error(tp, at, "expected %s", what);
        return false;
    }
    txt_name *e = tp_name_find(tp, name, n);
    if (!e || e->kind != TN_VAR) {
        tp_error(tp, name, e ? "'%.*s' is not a general variable" : "undefined variable '%.*s'", (int)n, name);
        return false;
    }
    if (nonnull && e->id == 0) {
        tp_error(tp, name, "%s cannot be %%null", what);
        return false;
    }
    *id = e->id;
    return true;
}

/* LscPayloadReg: VAR | VAR.offset | VAR.(expr) */
static bool p_raw(txt_parser *tp, ir_raw *r, bool nonnull, const char *what) {
    r->offset = 0;
    if (!p_var(tp, &r->id, nonnull, what)) return false;
    if (*tp->p == '.' && (is_digit(tp->p[1]) || tp->p[1] == '(')) {
        tp->p++;
        const char *at = tp->p;
        int64_t off;
        if (*tp->p == '(') {
            if (!tp_int_expr(tp, &off)) return false;
        } else {
            uint64_t u;
            if (!tp_uint_dec(tp, &u)) return false;
            off = u > 0x10000 ? -1 : (int64_t)u;
        }
        if (off < 0 || off > 0xFFFF) {
            tp_error(tp, at, "raw operand offset out of range (0..65535)");
            return false;
        }
        r->offset = (uint16_t)off;
    }
    return true;
}

/* -- integer expressions at the precedence levels IGC's LSC rules use */
static bool x_unr(txt_parser *tp, int64_t *v, int depth);
static bool x_prim(txt_parser *tp, int64_t *v) {
    tp_skip_ws(tp);
    if (*tp->p == '(') {
        tp->p++;
        if (!tp_int_expr(tp, v)) return false;
        return tp_expect(tp, ")");
    }
    uint64_t u;
    if (!tp_uint_dec(tp, &u)) return false;
    *v = (int64_t)u;
    return true;
}
static bool x_unr(txt_parser *tp, int64_t *v, int depth) {
    tp_skip_ws(tp);
    char c = *tp->p;
    if (c == '-' || c == '~' || c == '!') {
        if (depth > 64) {
            tp_error(tp, tp->p, "expression nested too deeply");
            return false;
        }
        tp->p++;
        if (!x_unr(tp, v, depth + 1)) return false;
        *v = c == '-' ? (int64_t)(0 - (uint64_t)*v) : c == '~' ? ~*v : !*v;
        return true;
    }
    return x_prim(tp, v);
}
static bool x_mul(txt_parser *tp, int64_t *v) {
    if (!x_unr(tp, v, 0)) return false;
    for (;;) {
        tp_skip_ws(tp);
        const char *at = tp->p;
        char op = *tp->p;
        if (op != '*' && op != '/' && op != '%') return true;
        if (op == '%' && is_name_start(tp->p[1])) return true;
        tp->p++;
        int64_t r;
        if (!x_unr(tp, &r, 0)) return false;
        if (op == '*') *v = (int64_t)((uint64_t)*v * (uint64_t)r);
        else if (r == 0 || (r == -1 && *v == INT64_MIN)) {
            tp_error(tp, at, "division by zero in expression");
            return false;
        } else *v = op == '/' ? *v / r : *v % r;
    }
}

static bool in_i32(txt_parser *tp, const char *at, int64_t v, const char *what) {
    if (v < INT32_MIN || v > INT32_MAX) {
        tp_error(tp, at, "%s %lld out of range", what, (long long)v);
        return false;
    }
    return true;
}

/* LscAddrImmOffsetOpt: "+ IntExpAdd" | "- IntExpMul" | nothing (mul_only: typed "+ IntExpMul"). */
static bool p_imm_off(txt_parser *tp, int64_t *off, bool mul_only, const char *what) {
    *off = 0;
    tp_skip_ws(tp);
    char c = *tp->p;
    if (c != '+' && c != '-') return true;
    tp->p++;
    tp_skip_ws(tp);
    const char *at = tp->p;
    int64_t v;
    if (c == '+' && !mul_only) {
        if (!tp_int_expr_in_angle(tp, &v)) return false;
    } else if (!x_mul(tp, &v)) {
        return false;
    }
    *off = c == '-' ? (int64_t)(0 - (uint64_t)v) : v;
    return in_i32(tp, at, *off, what);
}

static void set_null_vec(ir_vec *v) {
    memset(v, 0, sizeof *v);
    v->cls = VC_GENERAL;
    v->region = IR_REGION(1, 2, 1); /* <0;1,0> as LscVectorOpReg builds it */
}

static void set_imm(ir_vec *v, uint64_t x, bool imm64) {
    memset(v, 0, sizeof *v);
    v->cls = VC_IMMEDIATE;
    v->type = imm64 ? VISA_TYPE_UQ : VISA_TYPE_UD;
    v->imm = imm64 ? x : (uint32_t)x;
}

static bool at_expr_start(const char *p) {
    return is_digit(*p) || *p == '(' || *p == '-' || *p == '~' || *p == '!' || strncmp(p, "%sizeof", 7) == 0 ||
           strncmp(p, "%DispatchSimd", 13) == 0;
}

/* LscVectorOpReg (VAR | VAR.col | VAR(row,col)) or, when allowed, an immediate :ud (:uq). */
static bool p_reg_or_imm(txt_parser *tp, ir_vec *v, bool allow_imm, bool imm64, const char *what) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (at_expr_start(tp->p)) {
        if (!allow_imm) {
            tp_error(tp, at, "%s must be a register here", what);
            return false;
        }
        int64_t x;
        if (!tp_int_expr(tp, &x)) return false;
        set_imm(v, (uint64_t)x, imm64);
        return true;
    }
    set_null_vec(v);
    if (!p_var(tp, &v->id, false, what)) return false;
    if (*tp->p == '.' && is_digit(tp->p[1])) {
        tp->p++;
        const char *cat = tp->p;
        uint64_t c;
        if (!tp_uint_dec(tp, &c)) return false;
        if (c > 255) {
            tp_error(tp, cat, "column offset out of range (0..255)");
            return false;
        }
        v->col = (uint8_t)c;
    } else if (*tp->p == '(') {
        tp->p++;
        int64_t r, c;
        tp_skip_ws(tp);
        const char *rat = tp->p;
        if (!tp_int_expr(tp, &r) || !tp_expect(tp, ",")) return false;
        tp_skip_ws(tp);
        const char *cat = tp->p;
        if (!tp_int_expr(tp, &c) || !tp_expect(tp, ")")) return false;
        if (r < 0 || r > 255) {
            tp_error(tp, rat, "row offset out of range (0..255)");
            return false;
        }
        if (c < 0 || c > 255) {
            tp_error(tp, cat, "column offset out of range (0..255)");
            return false;
        }
        v->row = (uint8_t)r;
        v->col = (uint8_t)c;
    }
    return true;
}

/* Address model and surface: LscAddrModelOpt (stateful_only: LscAddrModelStateful). */
static bool p_model(txt_parser *tp, bool stateful_only, bool allow_empty, uint32_t *at_out, ir_vec *surf,
                    uint32_t *idx) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint32_t flat = ev(VISA_EN_lsc_addr_type, "flat"), arg = ev(VISA_EN_lsc_addr_type, "arg");
    uint32_t surfm = ev(VISA_EN_lsc_addr_type, "surf");
    *idx = 0;
    set_imm(surf, 0, false); /* no surface: immediate 0:ud */
    if (*tp->p == '[' && allow_empty && !stateful_only) {
        *at_out = flat;
        return true;
    }
    uint32_t v;
    size_t n = enum_at(tp->p, VISA_EN_lsc_addr_type, true, &v);
    if (!n) {
        tp_error(tp, at, "expected an address model: %sbss(...), ss(...), bti(...) or surf(...)",
                 stateful_only ? "" : "flat, arg, ");
        return false;
    }
    if (stateful_only && (v == flat || v == arg)) {
        tp_error(tp, at, "this instruction takes a stateful address model (bss, ss, bti or surf)");
        return false;
    }
    tp->p += n;
    *at_out = v;
    if (v == arg) return true;
    tp_skip_ws(tp);
    if (*tp->p != '(') {
        if (v == flat) return true;
        tp_error(tp, tp->p, "expected '(' and a surface after '%.*s'", (int)n, at);
        return false;
    }
    tp->p++;
    bool imm64 = v == flat || v == surfm;
    if (!p_reg_or_imm(tp, surf, true, imm64, "a surface")) return false;
    if (v != flat && tp_accept(tp, ",")) {
        tp_skip_ws(tp);
        const char *iat = tp->p;
        int64_t x;
        if (!tp_int_expr(tp, &x)) return false;
        if (x < INT32_MIN || x > UINT32_MAX) {
            tp_error(tp, iat, "surface index out of range");
            return false;
        }
        *idx = (uint32_t)x;
    }
    return tp_expect(tp, ")");
}

/* ":a16" ... ":a32s" */
static bool p_asize(txt_parser *tp, uint32_t *as) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    size_t n = *tp->p == ':' ? enum_at(tp->p + 1, VISA_EN_lsc_addr_size, true, as) : 0;
    if (!n) {
        tp_error(tp, at, "expected an address size (:a16, :a32, :a64, :a32u or :a32s)");
        return false;
    }
    tp->p += 1 + n;
    return true;
}

/* LscDataOperand shape: ":<size>[x<n>][t]" or ":<size>.<xyzw>"; *un is the LSC_DATA_SHAPE union
** (elems code, or channel mask), which IGC stores in both the elems and the chmask byte. */
static bool p_shape(txt_parser *tp, uint32_t *ds, uint32_t *order, uint32_t *un) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    size_t n = *tp->p == ':' ? enum_at(tp->p + 1, VISA_EN_lsc_data_size, false, ds) : 0;
    if (!n) {
        tp_error(tp, at, "expected a data type such as :d32, :d64x4t or :d32.xyzw");
        return false;
    }
    const char *p = tp->p + 1 + n;
    *order = VISA_LSC_ORDER_NONTRANSPOSE;
    if (*p == '.') {
        /* channel mask: letters x y z w, in that order, at least one */
        static const char letters[4] = {'x', 'y', 'z', 'w'};
        p++;
        unsigned mask = 0;
        for (int b = 0; b < 4; b++)
            if (*p == letters[b]) {
                mask |= 1u << b;
                p++;
            }
        if (!mask) {
            tp_error(tp, p, "expected a channel mask (x, y, z, w in this order)");
            return false;
        }
        *un = mask;
    } else {
        *un = 1;
        if (*p == 'x') {
            uint32_t e;
            size_t en = enum_at(p + 1, VISA_EN_lsc_elems, false, &e);
            if (!en) {
                tp_error(tp, p, "expected elements per address x1, x2, x3, x4, x8, x16, x32 or x64");
                return false;
            }
            *un = e;
            p += 1 + en;
        }
        if (*p == 't') {
            *order = VISA_LSC_ORDER_TRANSPOSE;
            p++;
        }
    }
    if (is_word(*p)) {
        tp_error(tp, at, "malformed data type");
        return false;
    }
    tp->p = p;
    return true;
}

/* [1-9][0-9]* */
static bool p_pos_dec(txt_parser *tp, const char **p, uint32_t max, uint32_t *out) {
    const char *s = *p;
    if (*s < '1' || *s > '9') {
        tp_error(tp, s, "expected a positive decimal number");
        return false;
    }
    uint64_t v = 0;
    while (is_digit(*s) && v <= max) v = v * 10 + (uint64_t)(*s++ - '0');
    if (v > max) {
        tp_error(tp, *p, "number out of range (1..%u)", max);
        return false;
    }
    *out = (uint32_t)v;
    *p = s;
    return true;
}

/* LSC_DATA_SHAPE_TK_BLOCK2D: ":<size>.[<blocks>x]<width>x<height>[n|t][n|t]" */
static bool p_shape2d(txt_parser *tp, ir_inst *in) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    uint32_t ds;
    size_t n = *tp->p == ':' ? enum_at(tp->p + 1, VISA_EN_lsc_data_size, false, &ds) : 0;
    if (!n || tp->p[1 + n] != '.') {
        tp_error(tp, at, "expected a 2D block shape such as :d16.2x32x32nn");
        return false;
    }
    const char *p = tp->p + 2 + n;
    uint32_t a, b, c = 0;
    if (!p_pos_dec(tp, &p, 0xFFFF, &a)) return false;
    if (*p != 'x') {
        tp_error(tp, p, "expected 'x' in the 2D block shape");
        return false;
    }
    p++;
    if (!p_pos_dec(tp, &p, 0xFFFF, &b)) return false;
    uint32_t blocks = 1, w = a, h = b;
    if (*p == 'x') {
        p++;
        if (!p_pos_dec(tp, &p, 0xFFFF, &c)) return false;
        if (a > 0xFF) {
            tp_error(tp, at, "block count %u out of range", a);
            return false;
        }
        blocks = a, w = b, h = c;
    }
    uint32_t order = VISA_LSC_ORDER_NONTRANSPOSE, vnni = 0;
    if (*p == 'n' || *p == 't') {
        order = *p++ == 't' ? VISA_LSC_ORDER_TRANSPOSE : VISA_LSC_ORDER_NONTRANSPOSE;
        if (*p == 'n' || *p == 't') vnni = *p++ == 't';
    }
    if (is_word(*p)) {
        tp_error(tp, at, "malformed 2D block shape");
        return false;
    }
    tp->p = p;
    in->opnd[B_DS].u.num = ds;
    in->opnd[B_ORD].u.num = order;
    in->opnd[B_BLOCKS].u.num = blocks;
    in->opnd[B_W].u.num = w;
    in->opnd[B_H].u.num = h;
    in->opnd[B_VNNI].u.num = vnni;
    return true;
}

/* data operand of the general forms; shape fields at ds .. ds+3 (size order elems chmask) */
static bool p_data(txt_parser *tp, ir_inst *in, unsigned k, unsigned ds) {
    uint32_t size, order, un;
    if (!p_raw(tp, &in->opnd[k].u.raw, false, "a data operand") || !p_shape(tp, &size, &order, &un)) return false;
    in->opnd[ds].u.num = size;
    in->opnd[ds + 1].u.num = order;
    in->opnd[ds + 2].u.num = un;
    in->opnd[ds + 3].u.num = un;
    return true;
}

/* Natural stride of a strided access without a pitch (builder default): data bytes x elems. */
static uint32_t natural_stride(const ir_inst *in) {
    static const uint8_t bytes[8] = {0, 1, 2, 4, 8, 1, 2, 2}; /* d8 d16 d32 d64 d8u32 d16u32 d16u32h */
    static const uint8_t count[9] = {0, 1, 2, 3, 4, 8, 16, 32, 64};
    uint64_t ds = op_num(in, U_DS), el = op_num(in, U_ELEMS);
    return (ds < 8 ? bytes[ds] : 0) * (el < 9 ? count[el] : 0);
}

/* LscUntypedAddrOperand / LscUntypedStridedAddrOperand */
static bool p_untyped_addr(txt_parser *tp, ir_inst *in, bool strided) {
    uint32_t at, idx;
    if (!p_model(tp, false, true, &at, &in->opnd[U_SURF].u.vec, &idx)) return false;
    in->opnd[U_AT].u.num = at;
    in->opnd[U_SIDX].u.num = idx;
    if (!tp_expect(tp, "[")) return false;
    tp_skip_ws(tp);
    int64_t scale = 1;
    if (is_digit(*tp->p) || *tp->p == '(') {
        const char *sat = tp->p;
        if (!x_prim(tp, &scale)) return false;
        if (scale < 0 || scale > 0xFFFF) {
            tp_error(tp, sat, "address scale %lld out of range (0..65535)", (long long)scale);
            return false;
        }
        if (!tp_expect(tp, "*")) return false;
    }
    in->opnd[U_SCALE].u.num = scale;
    if (!p_raw(tp, &in->opnd[U_SRC0].u.raw, true, "an address register")) return false;
    int64_t off;
    if (!p_imm_off(tp, &off, false, "address offset")) return false;
    in->opnd[U_OFF].u.num = off;
    if (strided) {
        if (tp_accept(tp, ",")) {
            if (!p_reg_or_imm(tp, &in->opnd[U_SRC1].u.vec, true, false, "a pitch")) return false;
        } else {
            in->opnd[U_SRC1].u.vec.cls = 0xFF; /* filled in once the data shape is known */
        }
    }
    uint32_t as;
    if (!tp_expect(tp, "]") || !p_asize(tp, &as)) return false;
    in->opnd[U_AS].u.num = as;
    return true;
}

static void null_raws(ir_inst *in, const char *layout) {
    for (unsigned k = 0; k < in->nopnd; k++) {
        in->opnd[k].kind = isa_layout_next_kind(&layout);
        if (in->opnd[k].kind == 'R') in->opnd[k].u.raw = (ir_raw){0, 0};
    }
}

static bool parse_untyped(txt_parser *tp, int form, ir_inst *in, int shape) {
    uint32_t sfid;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_UNTYPED, &sfid)) return false;
    in->opnd[U_SFID].u.num = sfid;
    if (!p_cache(tp, in, U_L1, U_L3)) return false;
    if (shape == SH_U_ECC) {
        /* .set|.reset and the size; the 4.1 layout has no field for them */
        tp_skip_ws(tp);
        if (!tp_accept_nows(tp, ".reset") && !tp_accept_nows(tp, ".set")) {
            tp_error(tp, tp->p, "expected .set or .reset");
            return false;
        }
        static const char *const sizes[4] = {".64B", ".128B", ".192B", ".256B"};
        bool ok = false;
        tp_skip_ws(tp);
        for (int i = 0; i < 4 && !ok; i++)
            if (strncmp(tp->p, sizes[i], strlen(sizes[i])) == 0 && !is_word(tp->p[strlen(sizes[i])])) {
                tp->p += strlen(sizes[i]);
                ok = true;
            }
        if (!ok) {
            tp_error(tp, tp->p, "expected a cache-control size (.64B, .128B, .192B or .256B)");
            return false;
        }
    }
    if (lsc_takes_ov(form)) {
        /* .ov is kept only in IGC's memory (not in the 4.1 object): accepted and dropped */
        tp_skip_ws(tp);
        if (strncmp(tp->p, ".ov", 3) == 0 && !is_word(tp->p[3])) tp->p += 3;
    }
    if (!tp_exec(tp, &in->exec)) return false;
    bool strided = shape == SH_U_STRIDED;
    in->opnd[U_SCALE].u.num = 1;
    switch (shape == SH_U_ECC ? K_LOAD : lsc_kind(form)) {
    case K_LOAD:
        if (shape == SH_U_ECC) {
            if (!p_untyped_addr(tp, in, false)) return false;
            break;
        }
        if (!p_data(tp, in, U_DST, U_DS) || !p_untyped_addr(tp, in, strided)) return false;
        break;
    case K_STORE:
        if (!p_untyped_addr(tp, in, strided) || !p_data(tp, in, strided ? U_SRC2 : U_SRC1, U_DS)) return false;
        break;
    default:
        if (!p_data(tp, in, U_DST, U_DS) || !p_untyped_addr(tp, in, false) ||
            !p_raw(tp, &in->opnd[U_SRC1].u.raw, false, "an atomic source (or %null)") ||
            !p_raw(tp, &in->opnd[U_SRC2].u.raw, false, "a second atomic source (or %null)"))
            return false;
        break;
    }
    if (strided && in->opnd[U_SRC1].u.vec.cls == 0xFF) set_imm(&in->opnd[U_SRC1].u.vec, natural_stride(in), false);
    return true;
}

/* One block2d X/Y operand: register [+-offset] or immediate. */
static bool p_block_xy(txt_parser *tp, ir_inst *in, unsigned k, const char *what) {
    if (!p_reg_or_imm(tp, &in->opnd[k].u.vec, true, false, what)) return false;
    int64_t off = 0;
    if (in->opnd[k].u.vec.cls == VC_GENERAL && !p_imm_off(tp, &off, false, "block offset")) return false;
    in->opnd[k + 1].u.num = off;
    return true;
}

/* LscUntypedBlock2dAddrOperand */
static bool p_block2d_addr(txt_parser *tp, ir_inst *in) {
    tp_skip_ws(tp);
    if (!tp_accept_word(tp, "flat")) {
        tp_error(tp, tp->p, "expected flat[...] (2D block addresses are flat)");
        return false;
    }
    if (!tp_expect(tp, "[")) return false;
    if (!p_reg_or_imm(tp, &in->opnd[B_BASE].u.vec, false, false, "the surface base")) return false;
    if (tp_accept(tp, "+")) {
        /* payload form: flat[V + (x,y)] (see the file comment) */
        int64_t x, y;
        tp_skip_ws(tp);
        const char *xat = tp->p;
        if (!tp_expect(tp, "(") || !x_unr(tp, &x, 0) || !in_i32(tp, xat, x, "x offset") || !tp_expect(tp, ","))
            return false;
        tp_skip_ws(tp);
        const char *yat = tp->p;
        if (!x_unr(tp, &y, 0) || !in_i32(tp, yat, y, "y offset") || !tp_expect(tp, ")")) return false;
        for (unsigned k = B_SW; k <= B_Y; k++)
            if (k != B_XOFF) set_null_vec(&in->opnd[k].u.vec);
        in->opnd[B_XOFF].u.num = x;
        in->opnd[B_YOFF].u.num = y;
        in->opnd[B_SFID].u.num = ev(VISA_EN_lsc_sfid, "ugm"); /* IGC's builder forces UGM */
        return tp_expect(tp, "]");
    }
    static const char *const names[3] = {"the surface width", "the surface height", "the surface pitch"};
    for (unsigned k = B_SW; k <= B_SP; k++)
        if (!tp_expect(tp, ",") || !p_reg_or_imm(tp, &in->opnd[k].u.vec, true, false, names[k - B_SW])) return false;
    if (!tp_expect(tp, ",") || !p_block_xy(tp, in, B_X, "block x") || !tp_expect(tp, ",") ||
        !p_block_xy(tp, in, B_Y, "block y"))
        return false;
    return tp_expect(tp, "]");
}

static bool parse_block2d(txt_parser *tp, int form, ir_inst *in) {
    uint32_t sfid;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_UNTYPED, &sfid)) return false;
    in->opnd[B_SFID].u.num = sfid;
    if (!p_cache(tp, in, B_L1, B_L3) || !tp_exec(tp, &in->exec)) return false;
    if (lsc_kind(form) == K_LOAD)
        return p_raw(tp, &in->opnd[B_DST].u.raw, false, "a destination") && p_shape2d(tp, in) && p_block2d_addr(tp, in);
    return p_block2d_addr(tp, in) && p_raw(tp, &in->opnd[B_SRC1].u.raw, false, "the stored data") && p_shape2d(tp, in);
}

static bool parse_apndctr(txt_parser *tp, int form, ir_inst *in) {
    uint32_t sfid, at, idx, size, order, un;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_UNTYPED, &sfid)) return false;
    in->opnd[A_SFID].u.num = ev(VISA_EN_lsc_sfid, "ugm"); /* IGC's builder stores UGM */
    if (!p_cache(tp, in, A_L1, A_L3) || !tp_exec(tp, &in->exec) || !p_data(tp, in, A_DST, A_DS) ||
        !p_model(tp, true, false, &at, &in->opnd[A_SURF].u.vec, &idx))
        return false;
    in->opnd[A_AT].u.num = at;
    in->opnd[A_SIDX].u.num = idx;
    /* the source's shape is parsed but IGC keeps only the destination's */
    return p_raw(tp, &in->opnd[A_SRC].u.raw, false, "a source") && p_shape(tp, &size, &order, &un);
}

/* LscTypedAddrOperandWithOffsets */
static bool p_typed_addr(txt_parser *tp, ir_inst *in) {
    uint32_t at, idx, as;
    if (!p_model(tp, true, false, &at, &in->opnd[T_SURF].u.vec, &idx)) return false;
    in->opnd[T_AT].u.num = at;
    in->opnd[T_SIDX].u.num = idx;
    if (!tp_expect(tp, "[")) return false;
    static const unsigned coord[4] = {T_U, T_V, T_R, T_LOD};
    for (int i = 0; i < 4; i++) {
        if (i && !tp_accept(tp, ",")) break;
        if (!p_raw(tp, &in->opnd[coord[i]].u.raw, true, "a coordinate register")) return false;
        if (i < 3) {
            int64_t off;
            if (!p_imm_off(tp, &off, true, "coordinate offset")) return false;
            in->opnd[coord[i] + 1].u.num = off;
        } else if (tp_skip_ws(tp), *tp->p == '+' || *tp->p == '-') {
            tp_error(tp, tp->p, "the fourth coordinate (LOD) takes no offset");
            return false;
        }
    }
    if (!tp_expect(tp, "]") || !p_asize(tp, &as)) return false;
    in->opnd[T_AS].u.num = as;
    return true;
}

static bool parse_typed(txt_parser *tp, int form, ir_inst *in) {
    uint32_t sfid;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_TYPED, &sfid) || !p_cache(tp, in, T_L1, T_L3) ||
        !tp_exec(tp, &in->exec))
        return false;
    switch (lsc_kind(form)) {
    case K_LOAD: return p_data(tp, in, T_DST, T_DS) && p_typed_addr(tp, in);
    case K_STORE: return p_typed_addr(tp, in) && p_data(tp, in, T_SRC1, T_DS);
    default:
        return p_data(tp, in, T_DST, T_DS) && p_typed_addr(tp, in) &&
               p_raw(tp, &in->opnd[T_SRC1].u.raw, false, "an atomic source (or %null)") &&
               p_raw(tp, &in->opnd[T_SRC2].u.raw, false, "a second atomic source (or %null)");
    }
}

/* lsc_read_state_info.tgm DST MODEL[COORD]: IGC stores SIMD1 NoMask, d32 x16 transposed, a32 */
static bool parse_rsi(txt_parser *tp, int form, ir_inst *in) {
    uint32_t sfid, at, idx;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_TYPED, &sfid) ||
        !p_raw(tp, &in->opnd[T_DST].u.raw, false, "a destination") ||
        !p_model(tp, true, false, &at, &in->opnd[T_SURF].u.vec, &idx) || !tp_expect(tp, "[") ||
        !p_raw(tp, &in->opnd[T_U].u.raw, true, "a coordinate register") || !tp_expect(tp, "]"))
        return false;
    in->exec = IR_EXEC_SIMD1_NOMASK;
    in->opnd[T_AT].u.num = at;
    in->opnd[T_SIDX].u.num = idx;
    in->opnd[T_AS].u.num = ev(VISA_EN_lsc_addr_size, "a32");
    in->opnd[T_DS].u.num = ev(VISA_EN_lsc_data_size, "d32");
    in->opnd[T_ORD].u.num = VISA_LSC_ORDER_TRANSPOSE;
    in->opnd[T_ELEMS].u.num = in->opnd[T_CHM].u.num = ev(VISA_EN_lsc_elems, "16");
    return true;
}

/* ":<W>x<H>" (typed block2d; IGC's lexer never produces this token, H4) */
static bool p_shape_typed2d(txt_parser *tp, ir_inst *in) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (*tp->p != ':') {
        tp_error(tp, at, "expected a typed 2D block shape such as :64x4");
        return false;
    }
    const char *p = tp->p + 1;
    uint32_t w, h;
    if (!p_pos_dec(tp, &p, 0xFFFF, &w)) return false;
    if (*p != 'x') {
        tp_error(tp, p, "expected 'x' in the block shape");
        return false;
    }
    p++;
    if (!p_pos_dec(tp, &p, 0xFFFF, &h)) return false;
    if (is_word(*p)) {
        tp_error(tp, at, "malformed typed 2D block shape");
        return false;
    }
    tp->p = p;
    in->opnd[TB_W].u.num = w;
    in->opnd[TB_H].u.num = h;
    return true;
}

static bool p_typed_block2d_addr(txt_parser *tp, ir_inst *in) {
    uint32_t at, idx;
    if (!p_model(tp, true, false, &at, &in->opnd[TB_SURF].u.vec, &idx) || !tp_expect(tp, "[")) return false;
    in->opnd[TB_AT].u.num = at;
    if (!p_block_xy(tp, in, TB_X, "block x") || !tp_expect(tp, ",") || !p_block_xy(tp, in, TB_Y, "block y") ||
        !tp_expect(tp, "]"))
        return false;
    /* the immediate-coordinates rule of IGC's grammar drops the surface index */
    bool imm = in->opnd[TB_X].u.vec.cls == VC_IMMEDIATE && in->opnd[TB_Y].u.vec.cls == VC_IMMEDIATE;
    in->opnd[TB_SIDX].u.num = imm ? 0 : idx;
    return true;
}

static bool parse_typed_block2d(txt_parser *tp, int form, ir_inst *in) {
    uint32_t sfid;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_TYPED, &sfid) || !p_cache(tp, in, TB_L1, TB_L3)) return false;
    in->pred = 0; /* IGC's grammar parses a predicate here and drops it */
    in->exec = IR_EXEC_SIMD1_NOMASK; /* no exec size in the text: SIMD1 NoMask */
    if (lsc_kind(form) == K_LOAD)
        return p_raw(tp, &in->opnd[TB_DST].u.raw, false, "a destination") && p_shape_typed2d(tp, in) &&
               p_typed_block2d_addr(tp, in);
    return p_typed_block2d_addr(tp, in) && p_raw(tp, &in->opnd[TB_SRC1].u.raw, false, "the stored data") &&
           p_shape_typed2d(tp, in);
}

static bool parse_fence(txt_parser *tp, int form, ir_inst *in) {
    const char *at = (tp_skip_ws(tp), tp->p);
    if (in->pred) {
        tp_error(tp, at, "lsc_fence cannot be predicated");
        return false;
    }
    uint32_t sfid, op, scope;
    if (!p_mnemonic(tp, form) || !p_sfid(tp, form, SF_ANY, &sfid) ||
        !p_dot_enum(tp, VISA_EN_lsc_fence_op, &op, "a fence operation") ||
        !p_dot_enum(tp, VISA_EN_lsc_scope, &scope, "a fence scope"))
        return false;
    in->exec = IR_EXEC_SIMD1_NOMASK; /* IGC's builder: (M1_NM, 1) */
    in->opnd[F_SFID].u.num = sfid;
    in->opnd[F_OP].u.num = op;
    in->opnd[F_SCOPE].u.num = scope;
    return true;
}

static bool lsc_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned n = isa_layout_opnds(layout);
    if (n != shape_count(lsc_shape(form))) {
        tp_error(tp, tp->p, "internal error: the ops.def layout of %s does not match its text hook",
                 isa_forms[form].name);
        return false;
    }
    if (!tp_inst_alloc(tp, inst, n)) return false;
    null_raws(inst, layout);
    tp_skip_ws(tp);
    switch (lsc_shape(form)) {
    case SH_U_GEN: return parse_untyped(tp, form, inst, SH_U_GEN);
    case SH_U_STRIDED: return parse_untyped(tp, form, inst, SH_U_STRIDED);
    case SH_U_ECC: return parse_untyped(tp, form, inst, SH_U_ECC);
    case SH_U_BLOCK2D: return parse_block2d(tp, form, inst);
    case SH_U_APNDCTR: return parse_apndctr(tp, form, inst);
    case SH_T_GEN: return parse_typed(tp, form, inst);
    case SH_T_RSI: return parse_rsi(tp, form, inst);
    case SH_T_BLOCK2D: return parse_typed_block2d(tp, form, inst);
    default: return parse_fence(tp, form, inst);
    }
}

const txt_hook txt_hook_lsc = {lsc_print, lsc_parse};
