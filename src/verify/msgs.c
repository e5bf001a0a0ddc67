/* msgs.c -- the verifier's rules from the notes of individual pages: DPAS/DPASW precisions,
** depth, repeat count, exec size, types, alignment and footprints; LSC transpose, caching, SFID
** and surface rules; raw send lengths; call argument sizes; switchjmp table size.
** Which instruction a rule applies to is read from the table (flags, layouts);
** operand positions are the named ones of lsc_layout.h, dp_layout.h and opfacts.def.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "lsc_layout.h"
#include "verify_int.h"

static void at(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void at(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *fmt, ...) {
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vf_at_opnd(v, rule, inst, k, msg);
}

static int64_t num(const ir_inst *inst, int k) { return k < inst->nopnd ? inst->opnd[k].u.num : 0; }

static unsigned exec_of(const ir_inst *inst) { return ir_exec_code_valid(inst->exec) ? ir_exec_lanes(inst->exec) : 1; }

/* The first spelling of a form's mnemonic ("raw_send|raw_sendc" -> raw_send). */
static const char *mnem_of(int form, char *buf, size_t n) {
    size_t len;
    const char *s = isa_form_mnem_or_name(form, &len);
    snprintf(buf, n, "%.*s", (int)len, s);
    return buf;
}

/* -- DPAS, DPASW ---------------------------------------------------------------------------------
** Precisions of the DPAS page: integer u1..s8, bf, hf, tf32 (one 32-bit element per channel), bf8
** and hf8; their codes and element bits come from enums.def. */
enum { PC_INT = 1, PC_BF, PC_HF, PC_TF32, PC_F8 };
typedef struct prec {
    int cls;
    unsigned bits;
} prec;

static bool prec_of(int64_t code, prec *p) {
    switch (code) {
    case VISA_PRECISION_U1:
    case VISA_PRECISION_S1:
    case VISA_PRECISION_U2:
    case VISA_PRECISION_S2:
    case VISA_PRECISION_U4:
    case VISA_PRECISION_S4:
    case VISA_PRECISION_U8:
    case VISA_PRECISION_S8: p->cls = PC_INT; break;
    case VISA_PRECISION_BF: p->cls = PC_BF; break;
    case VISA_PRECISION_HF: p->cls = PC_HF; break;
    case VISA_PRECISION_TF32: p->cls = PC_TF32; break;
    case VISA_PRECISION_BF8:
    case VISA_PRECISION_HF8: p->cls = PC_F8; break;
    default: return false; /* not a precision of the spec (e.g. e2m1) */
    }
    p->bits = (unsigned)isa_enum_attr(VISA_EN_precision, (uint32_t)code);
    return true;
}

/* OPS_PER_CHAN of the DPAS page */
static unsigned ops_per_chan(const prec *w, const prec *a) {
    if (w->cls == PC_TF32) return 1;
    if (w->bits == 16) return 2;
    if (w->bits == 8 || a->bits == 8) return 4;
    return 8;
}

static bool acc_type_ok(int cls, int t) {
    switch (cls) {
    case PC_INT: return t == VISA_TYPE_D || t == VISA_TYPE_UD;
    case PC_BF: return t == VISA_TYPE_F || t == VISA_TYPE_BF;
    case PC_HF: return t == VISA_TYPE_F || t == VISA_TYPE_HF;
    default: return t == VISA_TYPE_F;
    }
}

/* The dst and src0 types IGC 1.0.12504 accepts whatever the precision (IsaVerification.cpp
** verifyInstructionMisc, ISA_DPAS): d, ud, f; from PVC on also hf and bf (and w/uw, its old
** spelling of bf).  A type outside them is V-DPAS-TYPE; one inside them that does not fit the
** precision is V-DPAS-ACC-TYPE, a warning. */
static bool igc_acc_type(const vf *v, int t) {
    if (t == VISA_TYPE_D || t == VISA_TYPE_UD || t == VISA_TYPE_F) return true;
    return v->plat >= P_XEHPC && (t == VISA_TYPE_HF || t == VISA_TYPE_BF || t == VISA_TYPE_W || t == VISA_TYPE_UW);
}

static const char *acc_types(int cls) {
    switch (cls) {
    case PC_INT: return "d or ud";
    case PC_BF: return "f or bf";
    case PC_HF: return "f or hf";
    default: return "f";
    }
}

/* Bytes of the GRFs a raw operand's variable occupies past its offset; 0 when unknown or %null.
** Messages and DPAS move whole GRFs, and the JIT gives every variable whole GRFs of its own
** (one of at least a GRF is GRF-aligned, a smaller one sits in one GRF), so the rounded-up size
** of the alias root counts; IGC writes one-GRF responses into 32-byte variables on Xe2. */
static uint32_t raw_room(vf *v, const ir_raw *r) {
    uint32_t root, roff;
    if (!r->id || !vf_var_root(v, r->id, &root, &roff)) return 0;
    uint64_t b = vf_var_bytes(v, root);
    b = (b + v->grf - 1) / v->grf * v->grf;
    return b > (uint64_t)roff + r->offset ? (uint32_t)(b - roff - r->offset) : 0;
}

/* A DPAS operand at byte `off` of variable `id`: its base (the last declared variable of the
** alias chain) must be declared with at least `align` alignment (an input: its offset must be
** a multiple) and the offset within the base a multiple of `align`. */
static void dpas_align(vf *v, const ir_inst *inst, int k, const char *mn, const char *what, uint32_t id, uint64_t off,
                       unsigned align) {
    if (id < ISA_NUM_PREDEF_VARS || !vf_var_exists(v, id)) return; /* %null, predefined: offset 0 */
    uint32_t base = id;
    for (unsigned steps = 0; steps <= v->r->vars.len; steps++) {
        const ir_var *x = &v->r->vars.data[base - ISA_NUM_PREDEF_VARS];
        if (!x->has_alias || x->alias_id == 0) break;
        off += x->alias_off;
        if (x->alias_id < ISA_NUM_PREDEF_VARS || !vf_var_exists(v, x->alias_id)) break;
        base = x->alias_id;
    }
    uint32_t base_align = isa_align_bytes(v->r->vars.data[base - ISA_NUM_PREDEF_VARS].align, v->grf);
    for (uint32_t i = 0; i < v->r->inputs.len; i++) /* an input: its offset is its alignment */
        if (v->r->inputs.data[i].id == base && (v->r->inputs.data[i].kind & 3) == IN_GENERAL)
            base_align = v->r->inputs.data[i].offset;
    char nb[32];
    if (base_align % align)
        at(v, VR_DPAS_ALIGN, inst, k, "'%s': %s's variable '%s' is %u-byte aligned; it must be %u-byte aligned", mn,
           what, vf_var_name(v, base, nb, sizeof nb), base_align, align);
    else if (off % align)
        at(v, VR_DPAS_ALIGN, inst, k, "'%s': %s starts at byte %llu of '%s'; it must be %u-byte aligned", mn, what,
           (unsigned long long)off, vf_var_name(v, base, nb, sizeof nb), align);
}

static void check_dpas(vf *v, const ir_inst *inst) {
    const bool wide = inst->form == VISA_FORM_DPASW;
    int kraw[3], k2 = -1, kinfo = -1;
    unsigned nraw = 0;
    for (int k = 0; k < inst->nopnd; k++) {
        char c = inst->opnd[k].kind;
        if (c == 'R') {
            if (nraw == 3) return; /* not the DPAS layout (dst src0 src1 src2 info) */
            kraw[nraw++] = k;
        } else if (c == 'v' || c == 'V') {
            if (k2 >= 0) return;
            k2 = k;
        } else if (c == 'd') kinfo = k;
    }
    if (nraw != 3 || k2 < 0 || kinfo < 0) return;
    uint32_t info = (uint32_t)num(inst, kinfo);
    unsigned wc = info & 0xFF, ac = info >> 8 & 0xFF, sd = info >> 16 & 0xFF, rc = info >> 24;
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    bool ok = true;

    prec w, a;
    if (!prec_of(wc, &w) || !prec_of(ac, &a)) {
        at(v, VR_DPAS_PRECISION, inst, kinfo, "'%s': precision %u.%u is not a precision of the spec", mn, wc, ac);
        ok = false;
    } else if (wide && (w.cls != PC_INT || a.cls != PC_INT)) {
        at(v, VR_DPAS_PRECISION, inst, kinfo, "'%s' takes integer precisions only", mn);
        ok = false;
    } else if (w.cls != a.cls) {
        at(v, VR_DPAS_PRECISION, inst, kinfo, "'%s': src1 and src2 precisions %s and %s do not form a legal pair", mn,
           isa_enum_text(VISA_EN_precision, wc), isa_enum_text(VISA_EN_precision, ac));
        ok = false;
    }
    if (sd != 1 && sd != 2 && sd != 4 && sd != 8) {
        at(v, VR_DPAS_DEPTH, inst, kinfo, "'%s': systolic depth %u is not 1, 2, 4 or 8", mn, sd);
        ok = false;
    } else if (sd != 8) {
        at(v, VR_DPAS_DEPTH8, inst, kinfo, "'%s': systolic depth %u (XeHP and later support depth 8 only)", mn, sd);
    }
    if (rc < 1 || rc > 8) {
        at(v, VR_DPAS_REPEAT, inst, kinfo, "'%s': repeat count %u is not 1..8", mn, rc);
        ok = false;
    }
    unsigned exec = exec_of(inst);
    if (ir_exec_code_valid(inst->exec) && exec != v->grf / 4)
        at(v, VR_DPAS_EXEC, inst, -1, "'%s' has execution size %u; with %u-byte GRFs it must be %u", mn, exec, v->grf,
           v->grf / 4);

    /* operand types */
    const ir_raw *dst = &inst->opnd[kraw[0]].u.raw, *s0 = &inst->opnd[kraw[1]].u.raw, *s1 = &inst->opnd[kraw[2]].u.raw;
    const ir_vec *s2 = &inst->opnd[k2].u.vec;
    int dt = dst->id ? vf_var_type(v, dst->id) : -1;
    int s0t = s0->id ? vf_var_type(v, s0->id) : -1;
    if (ok) {
        if (dt >= 0 && !acc_type_ok(w.cls, dt))
            at(v, igc_acc_type(v, dt) ? VR_DPAS_ACC_TYPE : VR_DPAS_TYPE, inst, kraw[0],
               "'%s': the destination has type %s; %s precision needs %s", mn, isa_types[dt].name,
               isa_enum_text(VISA_EN_precision, wc), acc_types(w.cls));
        if (s0t >= 0 && !acc_type_ok(w.cls, s0t))
            at(v, igc_acc_type(v, s0t) ? VR_DPAS_ACC_TYPE : VR_DPAS_TYPE, inst, kraw[1],
               "'%s': src0 has type %s; %s precision needs %s", mn, isa_types[s0t].name,
               isa_enum_text(VISA_EN_precision, wc), acc_types(w.cls));
    }
    int s1t = s1->id ? vf_var_type(v, s1->id) : -1;
    int s2t = s2->cls == VC_GENERAL && s2->id ? vf_var_type(v, s2->id) : -1;
    const int opk[2] = {kraw[2], k2}, opt[2] = {s1t, s2t};
    for (int i = 0; i < 2; i++)
        if (opt[i] >= 0 && opt[i] != VISA_TYPE_D && opt[i] != VISA_TYPE_UD && (wide || opt[i] != VISA_TYPE_DF))
            at(v, VR_DPAS_TYPE, inst, opk[i], "'%s': src%d has type %s (must be d or ud%s)", mn, i + 1,
               isa_types[opt[i]].name, wide ? "" : " or df");
    if (!ok) return;

    /* alignment (IGC IsaVerification.cpp verifyInstructionDpas, checkDpasOperandAlignment): dst
    ** and src0 to exec size * type size, src1 to a GRF, src2 to SD * bits(A) * OPS_PER_CHAN / 8
    ** bytes (the page's SD/(32/(bits*OPS)) dwords); both the offset in the base variable and
    ** the base's own alignment count */
    unsigned ops = ops_per_chan(&w, &a);
    unsigned align = sd * a.bits * ops / 8;
    uint64_t s2off = 0;
    if (s2->cls == VC_GENERAL && s2->id && vf_var_type(v, s2->id) >= 0) {
        s2off = (uint64_t)s2->row * v->grf + (uint64_t)s2->col * isa_types[vf_var_type(v, s2->id)].bytes;
        if (align) dpas_align(v, inst, k2, mn, "src2", s2->id, s2off, align);
    }
    const unsigned ralign[3] = {dt >= 0 ? exec * isa_types[dt].bytes : 0, s0t >= 0 ? exec * isa_types[s0t].bytes : 0,
                                v->grf};
    const char *rnames[3] = {"the destination", "src0", "src1"};
    for (int i = 0; i < 3; i++) {
        const ir_raw *r = &inst->opnd[kraw[i]].u.raw;
        if (ralign[i]) dpas_align(v, inst, kraw[i], mn, rnames[i], r->id, r->offset, ralign[i]);
    }

    /* footprints (Semantics): Dst/Src0 one row of exec elements per repeat; Src1 SD depths packed
    ** 32/(OPS*bitsW) to a dword row; Src2 SD*OPS elements per repeat (DPASW: its first half) */
    unsigned s1opc = w.bits * ops >= 32 ? 1 : 32 / (ops * w.bits);
    uint64_t need[3] = {dt >= 0 ? (uint64_t)rc * exec * isa_types[dt].bytes : 0,
                        s0t >= 0 ? (uint64_t)rc * exec * isa_types[s0t].bytes : 0,
                        (uint64_t)((sd + s1opc - 1) / s1opc) * exec * 4};
    const ir_raw *raws[3] = {dst, s0, s1};
    const char *names[3] = {"the destination", "src0", "src1"};
    for (int i = 0; i < 3; i++) {
        uint32_t room = raw_room(v, raws[i]);
        if (room && need[i] > room)
            at(v, VR_DPAS_BOUNDS, inst, kraw[i], "'%s': %s needs %llu bytes; its variable has %u from the offset", mn,
               names[i], (unsigned long long)need[i], room);
    }
    uint64_t s2need = ((uint64_t)rc * sd * ops * a.bits + 7) / 8;
    if (wide) s2need = (((s2need + 31) / 32 + 1) / 2) * 32; /* NGrf_EU0 32-byte GRFs */
    uint32_t s2bytes = s2->cls == VC_GENERAL && s2->id ? vf_var_bytes(v, s2->id) : 0;
    if (s2bytes && s2off < s2bytes && s2off + s2need > s2bytes)
        at(v, VR_DPAS_BOUNDS, inst, k2, "'%s': src2 needs %llu bytes from byte %llu; its variable has %u", mn,
           (unsigned long long)s2need, (unsigned long long)s2off, s2bytes);
}

/* -- LSC -----------------------------------------------------------------------------------------
** Operand positions: lsc_layout.h. */

/* The L1/L3 pairs of the page's PVC table: 1 loads, 2 stores, 3 both. */
static unsigned cache_pair_applies(int64_t l1, int64_t l3) {
    enum {
        DF = VISA_LSC_CACHE_DF,
        UC = VISA_LSC_CACHE_UC,
        CA = VISA_LSC_CACHE_CA,
        WB = VISA_LSC_CACHE_WB,
        WT = VISA_LSC_CACHE_WT,
        ST = VISA_LSC_CACHE_ST,
        RI = VISA_LSC_CACHE_RI
    };
    static const struct {
        uint8_t l1, l3, applies;
    } tab[] = {
        {DF, DF, 3}, {UC, UC, 3}, {ST, UC, 3}, {UC, CA, 1}, {CA, UC, 1}, {CA, CA, 1}, {ST, CA, 1},
        {RI, CA, 1}, {UC, WB, 2}, {WT, UC, 2}, {WT, WB, 2}, {ST, WB, 2}, {WB, WB, 2},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (l1 == tab[i].l1 && l3 == tab[i].l3) return tab[i].applies;
    return 0;
}

static void check_cache(vf *v, const ir_inst *inst, int ksfid, int kl1, int kl3) {
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    int64_t l1 = num(inst, kl1), l3 = num(inst, kl3);
    if (ksfid >= 0 && num(inst, ksfid) == VISA_LSC_SFID_SLM) {
        if (l1 != VISA_LSC_CACHE_DF || l3 != VISA_LSC_CACHE_DF)
            at(v, VR_LSC_SLM_CACHE, inst, kl1, "'%s': an SLM access takes default caching (.df.df)", mn);
        return;
    }
    if (v->plat != P_XEHPC) return; /* the page gives the table for PVC only */
    const uint32_t flags = isa_forms[inst->form].flags;
    bool load = flags & VF_LOAD, store = flags & VF_STORE;
    if (!load && !store) return;
    unsigned ap = cache_pair_applies(l1, l3);
    if (!(ap & (load ? 1u : 2u))) {
        const char *t1 = isa_enum_text(VISA_EN_lsc_cache, (uint32_t)l1),
                   *t3 = isa_enum_text(VISA_EN_lsc_cache, (uint32_t)l3);
        at(v, VR_LSC_CACHE, inst, kl1, "'%s': cache pair .%s.%s is not allowed for %s on XeHPC", mn, t1 ? t1 : "?",
           t3 ? t3 : "?", load ? "loads" : "stores");
    }
}

/* Channel masks of the quad forms (IGC IsaVerification.cpp LscInstVerifier::verifyDataShape):
** not 0, four bits; lsc_store_quad only x, xy, xyz or xyzw (a contiguous run from x). */
static void check_lsc_chmask(vf *v, const ir_inst *inst, const char *mn) {
    int64_t m = num(inst, U_CHM);
    if (m <= 0 || m > 0xF)
        at(v, VR_LSC_CHMASK, inst, U_CHM, "'%s': channel mask %#llx enables none of x, y, z, w or more", mn,
           (unsigned long long)m);
    else if (inst->form == VISA_FORM_LSC_STORE_QUAD && num(inst, U_ORD) != VISA_LSC_ORDER_TRANSPOSE && (m & (m + 1)))
        at(v, VR_LSC_CHMASK, inst, U_CHM, "'%s': channel mask %#llx is not x, xy, xyz or xyzw", mn,
           (unsigned long long)m);
}

/* The data shape of an LSC message: DataSize, DataOrder, DataElemsPerAddr and ChMask, four
** fields in a row from `kds` (U_DS, T_DS, A_DS of lsc_layout.h).  vec: the vector size, or the
** channels a quad form's mask enables; bytes: d8 d16 d32 d64 by their spelling, the d8u32/
** d16u32(h) conversions 4.  False when a field has no valid encoding (V-LSC-ENCODING's case). */
typedef struct lsc_shape {
    unsigned vec, bytes;
    bool transposed;
} lsc_shape;
_Static_assert(U_ORD == U_DS + 1 && U_ELEMS == U_DS + 2 && U_CHM == U_DS + 3, "LSC_U_GEN data shape fields in a row");
_Static_assert(T_ORD == T_DS + 1 && T_ELEMS == T_DS + 2 && T_CHM == T_DS + 3, "LSC_T_GEN data shape fields in a row");
_Static_assert(A_ORD == A_DS + 1 && A_ELEMS == A_DS + 2 && A_CHM == A_DS + 3, "APNDCTR data shape fields in a row");

static bool lsc_shape_of(const ir_inst *inst, int kds, lsc_shape *s) {
    s->vec = 0;
    if (isa_forms[inst->form].flags & VF_CHMASK) {
        for (int64_t m = num(inst, kds + 3) & 0xF; m; m &= m - 1) s->vec++;
    } else {
        const char *t = isa_enum_text(VISA_EN_lsc_elems, (uint32_t)num(inst, kds + 2));
        s->vec = t ? (unsigned)atoi(t) : 0;
    }
    const char *ds = isa_enum_text(VISA_EN_lsc_data_size, (uint32_t)num(inst, kds));
    s->bytes = ds && strchr(ds + 1, 'u') ? 4 : ds ? (unsigned)atoi(ds + 1) / 8 : 0;
    s->transposed = num(inst, kds + 1) == VISA_LSC_ORDER_TRANSPOSE;
    return s->vec && s->bytes;
}

/* Register footprint of an LSC_U_GEN data payload against its variable (a warning: IGC's
** LscInstVerifier only limits the payload to 8 GRFs, V-LSC-PAYLOAD).  Non-transposed: each
** vector element takes max(1, exec size * data bytes / GRF) GRFs; transposed: vector size *
** data bytes. */
static void check_lsc_bounds(vf *v, const ir_inst *inst, const char *mn, const lsc_shape *s) {
    const uint32_t flags = isa_forms[inst->form].flags;
    int k = flags & VF_STORE ? U_SRC1 : U_DST;
    if (k >= inst->nopnd || inst->opnd[k].kind != 'R') return;
    uint64_t need;
    if (s->transposed) {
        need = (uint64_t)s->vec * s->bytes;
    } else {
        uint64_t per = (uint64_t)exec_of(inst) * s->bytes / v->grf;
        need = (uint64_t)s->vec * (per ? per : 1) * v->grf;
    }
    const ir_raw *r = &inst->opnd[k].u.raw;
    uint32_t room = raw_room(v, r);
    char nb[32];
    if (room && need > room)
        at(v, VR_LSC_BOUNDS, inst, k, "'%s': the %s takes %llu bytes; '%s' has %u from the offset", mn,
           flags & VF_STORE ? "store data" : "destination", (unsigned long long)need,
           vf_var_name(v, r->id, nb, sizeof nb), room);
}

/* IGC's cap on an LSC data payload (IsaVerification.cpp LscInstVerifier::verifyDataShape, the
** same in 1.0.12504 and v2.x: untyped, strided, typed and append-counter messages, not block2d):
** at most 8 GRFs, counted from the data shape and the platform's GRF size alone, so a load's
** destination, a store's data and a prefetch (%null destination) alike.  Non-transposed: vector
** size * max(1, exec size * data bytes / GRF); transposed: max(1, vector size * data bytes / GRF)
** (integer division, as IGC's). */
static void check_lsc_payload(vf *v, const ir_inst *inst, const char *mn, const lsc_shape *s) {
    unsigned regs;
    if (s->transposed) {
        regs = s->vec * s->bytes / v->grf;
        regs = regs ? regs : 1;
    } else {
        unsigned per = exec_of(inst) * s->bytes / v->grf;
        regs = s->vec * (per ? per : 1);
    }
    if (regs > 8)
        at(v, VR_LSC_PAYLOAD, inst, -1,
           "'%s': %s%u x %u-byte data at execution size %u is %u GRFs of %u bytes; a message moves at most 8", mn,
           s->transposed ? "transposed " : "", s->vec, s->bytes, exec_of(inst), regs, v->grf);
}

static void check_lsc(vf *v, const ir_inst *inst) {
    const isa_form *F = &isa_forms[inst->form];
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    const char *lay = F->layout;
    bool gen = !strcmp(lay, LSC_U_GEN) || !strcmp(lay, LSC_U_STRIDED);
    bool b2d = !strcmp(lay, LSC_U_BLOCK2D), apc = !strcmp(lay, LSC_U_APNDCTR);
    bool tb2d = !strcmp(lay, LSC_T_BLOCK2D), tgen = !strcmp(lay, LSC_T_GEN);
    unsigned need = gen ? U_CHM + 1 : b2d ? B_L3 + 1 : apc ? A_CHM + 1 : tb2d ? TB_H + 1 : tgen ? T_CHM + 1 : 0;
    if (!need || inst->nopnd < need) return;
    if (gen || b2d || apc) {
        int ksfid = gen ? U_SFID : b2d ? B_SFID : A_SFID;
        if (num(inst, ksfid) == VISA_LSC_SFID_UGML && v->plat != P_XEHPC)
            at(v, VR_LSC_UGML, inst, ksfid, "'%s': .ugml is a PVC (XeHPC) function", mn);
        check_cache(v, inst, ksfid, ksfid + 1, ksfid + 2);
    }
    if (gen) { /* AddrSize, DataSize, DataElemsPerAddr: the page's valid values (0 is "invalid") */
        static const struct {
            int k;
            isa_enum_id en;
            const char *what;
        } enc[] = {
            {U_AS, VISA_EN_lsc_addr_size, "address size"},
            {U_DS, VISA_EN_lsc_data_size, "data size"},
            {U_ELEMS, VISA_EN_lsc_elems, "vector size"},
        };
        /* the quad forms hold a channel mask instead of a vector size (ChMask) */
        size_t nenc = F->flags & VF_CHMASK ? 2 : 3;
        for (size_t i = 0; i < nenc; i++) {
            int64_t x = num(inst, enc[i].k);
            bool ok = x >= 1 && x <= 0xFF && isa_enum_text(enc[i].en, (uint32_t)x);
            if (ok && enc[i].k == U_AS) /* a16, a32, a64: the page's list (enums.def has more) */
                ok = x == VISA_LSC_AS_A16 || x == VISA_LSC_AS_A32 || x == VISA_LSC_AS_A64;
            if (!ok)
                at(v, VR_LSC_ENCODING, inst, enc[i].k, "'%s': %s encoding %lld is not a valid value", mn, enc[i].what,
                   (long long)x);
        }
    }
    if (gen && num(inst, U_ORD) == VISA_LSC_ORDER_TRANSPOSE) {
        if (F->flags & (VF_ATOMIC0 | VF_ATOMIC1 | VF_ATOMIC2))
            at(v, VR_LSC_TRANSPOSE, inst, U_ORD, "'%s': an atomic cannot be transposed", mn);
        else if (ir_exec_lanes(inst->exec) != 1)
            at(v, VR_LSC_TRANSPOSE, inst, -1, "'%s': a transposed access has execution size 1, not %u", mn,
               exec_of(inst));
    }
    if (gen && (F->flags & VF_CHMASK)) check_lsc_chmask(v, inst, mn);
    lsc_shape shape;
    if ((gen || apc || tgen) && lsc_shape_of(inst, gen ? U_DS : apc ? A_DS : T_DS, &shape)) {
        check_lsc_payload(v, inst, mn, &shape);
        if (gen && !strcmp(lay, LSC_U_GEN)) check_lsc_bounds(v, inst, mn, &shape);
    }
    if (apc) {
        int64_t t = num(inst, A_AT);
        if (t != VISA_LSC_AT_BTI && t != VISA_LSC_AT_SS && t != VISA_LSC_AT_BSS)
            at(v, VR_LSC_APNDCTR_SURFACE, inst, A_AT, "'%s' needs a stateful surface (bti, ss or bss)", mn);
    }
    if (tb2d) {
        int64_t bw = num(inst, TB_W), bh = num(inst, TB_H);
        if (bw < 1 || bw > 64 || bh < 1 || bh > 64)
            at(v, VR_LSC_BLOCK2D_TYPED, inst, bw < 1 || bw > 64 ? TB_W : TB_H,
               "'%s': block %lldx%lld; width (bytes) and height are 1..64", mn, (long long)bw, (long long)bh);
    }
}

/* -- Legacy data-port and SVM messages -----------------------------------------------------------
** The limited fields come from opfacts.def (VISA_MSG_FIELD), so no opcode is named here. */
static bool field(const ir_inst *inst, int f, int *k, int64_t *val) {
    *k = vf_form_msg_field(inst->form, f);
    if (*k < 0 || *k >= inst->nopnd || inst->opnd[*k].kind != 'b') return false;
    *val = inst->opnd[*k].u.num;
    return true;
}

static void check_dataport(vf *v, const ir_inst *inst) {
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    int k;
    int64_t x;
    if (field(inst, MF_OWORDS, &k, &x)) {
        /* Size bits 2..0: 1, 2, 4, 8 owords; {XEHP+} 16 "may only be used when surface is T0";
        ** Surface: "T0 (SLM): {ICLLP+} Yes. No for earlier platforms" */
        int ks = vf_form_surface_opnd(inst->form);
        int64_t sid = ks >= 0 && ks < inst->nopnd ? inst->opnd[ks].u.num : -1;
        unsigned code = (unsigned)x & 7;
        if (code > 4)
            at(v, VR_DP_OWORD_BLOCK, inst, k, "'%s': oword count code %u is not 1, 2, 4, 8 or 16 owords", mn, code);
        else if (code == 4 && v->plat < P_XEHP)
            at(v, VR_DP_OWORD_BLOCK, inst, k, "'%s': 16 owords need XeHP or later", mn);
        else if (code == 4 && sid != VISA_PREDEF_SURF_SLM)
            at(v, VR_DP_OWORD_BLOCK, inst, k, "'%s': 16 owords may only be used with surface T0 (SLM)", mn);
        if (sid == VISA_PREDEF_SURF_SLM && v->plat < P_GEN11)
            at(v, VR_DP_OWORD_BLOCK, inst, ks, "'%s' reaches T0 (SLM) from Gen11 on only", mn);
    }
    if (field(inst, MF_SVM_OWORDS, &k, &x) && (x & 7) > 3) /* bits 2..0: 1, 2, 4, 8 owords */
        at(v, VR_DP_OWORD_BLOCK, inst, k, "'%s': oword count code %u is not 1, 2, 4 or 8 owords", mn, (unsigned)x & 7);
    /* Errors where IGC refuses the field: verifyInstructionDataport the element size (1.0.12504
    ** and v2.x), v2.x's translateByteGatherInst/ScatterInst 8 blocks of *_SCALED, its
    ** translateVISASVMScatterRead/WriteInst 8 one-byte SVM blocks without PF_A64_BYTE8; the
    ** page's other limits are V-DP-BLOCKS-PAGE warnings (GenX_IR compiles them) */
    if (field(inst, MF_ELT_SIZE, &k, &x) && (x & 3) == 3)
        at(v, VR_DP_BLOCKS, inst, k, "'%s': element size code 3 is not 1, 2 or 4 bytes", mn);
    if (field(inst, MF_NUM_ELTS, &k, &x) && (x & 3) == 3)
        at(v, VR_DP_BLOCKS_PAGE, inst, k, "'%s': element count code 3 is not 8, 16 or 1 elements", mn);
    if (field(inst, MF_NUM_BLOCKS, &k, &x) && (x & 3) == 3)
        at(v, VR_DP_BLOCKS, inst, k, "'%s': 8 blocks; the page and IGC allow 1, 2 or 4", mn);
    if (field(inst, MF_QW_BLOCKS, &k, &x) && (x & 3) != 0)
        at(v, VR_DP_BLOCKS_PAGE, inst, k, "'%s': %u blocks; the page allows 1", mn, 1u << (x & 3));
    int kb;
    int64_t bs;
    bool has_bs = field(inst, MF_SVM_BLOCK_SIZE, &kb, &bs);
    /* Block_size: 8 bytes is 0b11 on the SVM_GATHER page, 0b10 on SVM_SCATTER's (enums.def: 2), so
    ** every code names a size on some page and only the 8-block restriction is checked */
    (void)kb;
    if (has_bs && field(inst, MF_SVM_NUM_BLOCKS, &k, &x) && (x & 3) == 3) {
        if ((bs & 3) == 0 && !isa_platform_has(v->plat, PF_A64_BYTE8))
            at(v, VR_DP_BLOCKS, inst, k, "'%s': 8 one-byte blocks, which %s does not gather or scatter", mn,
               visa_platform_name((visa_platform)v->plat));
        else if ((bs & 3) != 1 || ir_exec_lanes(inst->exec) != 8)
            at(v, VR_DP_BLOCKS_PAGE, inst, k, "'%s': 8 blocks are only valid for 4-byte blocks and execution size 8",
               mn);
    }
    if (field(inst, MF_CHANNELS, &k, &x) && (x & 0xF) == 0)
        at(v, VR_DP_CHANNELS, inst, k, "'%s': no channel is enabled", mn);
    if (field(inst, MF_MEDIA_PLANE, &k, &x) && (x < 0 || x > 3))
        at(v, VR_MEDIA_BLOCK, inst, k, "'%s': plane %lld is not 0..3", mn, (long long)x);
    int kw, kh;
    int64_t w, h;
    if (field(inst, MF_MEDIA_W, &kw, &w) && (w < 1 || w > 64))
        at(v, VR_MEDIA_BLOCK, inst, kw, "'%s': block width %lld is not 1..64 bytes", mn, (long long)w);
    else if ((field(inst, MF_MEDIA_H, &kh, &h) || field(inst, MF_MEDIA_H_TABLE, &kh, &h)) && (h < 1 || h > 64))
        at(v, VR_MEDIA_BLOCK, inst, kh, "'%s': block height %lld is not 1..64 rows", mn, (long long)h);
    else if (field(inst, MF_MEDIA_W, &kw, &w) && field(inst, MF_MEDIA_H_TABLE, &kh, &h)) {
        /* MEDIA_LD Notes: register pitch 4/8/16/32/64 for widths up to 4/8/16/32/64 bytes; the
        ** pitch times the maximum height is 256 bytes */
        int64_t pitch = 4;
        while (pitch < w) pitch *= 2;
        if (h > 256 / pitch)
            at(v, VR_MEDIA_BLOCK, inst, kh, "'%s': a %lld-byte wide block is at most %lld rows high, not %lld", mn,
               (long long)w, (long long)(256 / pitch), (long long)h);
    }
}

/* dword_atomic (DWORD_ATOMIC page; IGC IsaVerification.cpp verifyInstructionDataport): src0 is
** V0 for the operations without data (inc, dec, predec: atomic_op attr 0), src1 is V0 unless
** the operation takes two (cmpxchg, fcmpwr).  Layout "bEPbRRRR": op, surface, then the raw
** operands offsets, src0, src1, dst. */
static void check_dword_atomic(vf *v, const ir_inst *inst) {
    int kr[4];
    unsigned nr = 0;
    for (int i = 0; i < inst->nopnd && nr < 4; i++)
        if (inst->opnd[i].kind == 'R') kr[nr++] = i;
    if (nr != 4 || inst->opnd[0].kind != 'b') return;
    uint32_t op = (uint32_t)num(inst, 0) & 0x1F; /* bits 0-4: the operation (enums.def atomic_op) */
    int srcs = isa_enum_attr(VISA_EN_atomic_op, op);
    const char *on = isa_enum_text(VISA_EN_atomic_op, op);
    if (srcs < 0) return;
    for (int i = 1; i <= 2; i++)
        if (srcs < i && inst->opnd[kr[i]].u.raw.id != VISA_PREDEF_NULL)
            at(v, VR_DP_ATOMIC_SRC, inst, kr[i], "'dword_atomic.%s': src%d must be %%null (V0)", on ? on : "?", i - 1);
}

/* gather_scaled/scatter_scaled: IGC lowers both through its byte gather/scatter
** (TranslateSendLdStLegacy.cpp translateByteGatherInst/translateByteScatterInst), which
** asserts SIMD1..SIMD16 and aborts the compile otherwise. */
static void check_scaled_exec(vf *v, const ir_inst *inst) {
    char mb[48];
    if (ir_exec_code_valid(inst->exec) && exec_of(inst) > 16)
        at(v, VR_DP_SCALED_EXEC, inst, -1, "'%s' at execution size %u: IGC supports 1..16",
           mnem_of(inst->form, mb, sizeof mb), exec_of(inst));
}

/* -- Raw sends, calls, switchjmp -------------------------------------------------------------- */
/* Number operands of a layout in order (b w d i), with their operand indices. */
static unsigned nums(const ir_inst *inst, int *k, unsigned max) {
    unsigned n = 0;
    for (int i = 0; i < inst->nopnd && n < max; i++) {
        char c = inst->opnd[i].kind;
        if (c == 'b' || c == 'w' || c == 'd' || c == 'i') k[n++] = i;
    }
    return n;
}

static void check_send(vf *v, const ir_inst *inst) {
    /* positions: dp_layout.h (RAW_SENDS stores NumSrc0, NumSrc1, NumDst, SFID: the binary order) */
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    int kr[3];
    unsigned nr;
    uint64_t lens[3];
    if (inst->form == VISA_FORM_RAW_SEND && inst->nopnd == RSEND_DST + 1) {
        int64_t ns = num(inst, RSEND_NSRC), nd = num(inst, RSEND_NDST);
        if (ns < 1 || ns > 15)
            at(v, VR_SEND_LEN, inst, RSEND_NSRC, "'%s': message length %lld is not 1..15", mn, (long long)ns);
        if (nd < 0 || nd > 16)
            at(v, VR_SEND_LEN, inst, RSEND_NDST, "'%s': response length %lld is not 0..16", mn, (long long)nd);
        lens[0] = (uint64_t)ns, lens[1] = (uint64_t)nd;
        kr[0] = RSEND_SRC, kr[1] = RSEND_DST, nr = 2;
    } else if (inst->form == VISA_FORM_RAW_SENDS && inst->nopnd == RSENDS_DST + 1) {
        int64_t sfid = num(inst, RSENDS_SFID);
        if (sfid < 0 || sfid > 15)
            at(v, VR_SEND_LEN, inst, RSENDS_SFID, "'%s': SFID %lld is not 0..15", mn, (long long)sfid);
        lens[0] = (uint64_t)num(inst, RSENDS_NSRC0), lens[1] = (uint64_t)num(inst, RSENDS_NSRC1),
        lens[2] = (uint64_t)num(inst, RSENDS_NDST);
        kr[0] = RSENDS_SRC0, kr[1] = RSENDS_SRC1, kr[2] = RSENDS_DST, nr = 3;
    } else {
        return;
    }
    static const char *const what[2][3] = {{"the payload", "the response", ""},
                                           {"payload 0", "payload 1", "the response"}};
    for (unsigned i = 0; i < nr; i++) {
        if (inst->opnd[kr[i]].kind != 'R') return;
        const ir_raw *r = &inst->opnd[kr[i]].u.raw;
        uint32_t room = raw_room(v, r);
        uint64_t bytes = lens[i] * v->grf;
        if (room && bytes > room)
            at(v, VR_SEND_BOUNDS, inst, kr[i],
               "'%s': %s is %llu GRFs (%llu bytes); its variable has %u from the offset", mn, what[nr == 3][i],
               (unsigned long long)lens[i], (unsigned long long)bytes, room);
    }
}

static void check_call_size(vf *v, const ir_inst *inst) {
    /* FCALL "EPsbb", IFCALL "EPbVbb": the last two numbers are Arg_size and Return_size */
    int k[4];
    unsigned n = nums(inst, k, 4);
    if (n < 2 || k[n - 1] != inst->nopnd - 1 || k[n - 2] != inst->nopnd - 2) return;
    char mb[48];
    const char *mn = mnem_of(inst->form, mb, sizeof mb);
    int64_t as = num(inst, k[n - 2]), rs = num(inst, k[n - 1]);
    if (as < 0 || as > 32)
        at(v, VR_CALL_SIZE, inst, k[n - 2], "'%s': argument size %lld GRFs exceeds %%arg (32 GRFs)", mn, (long long)as);
    if (rs < 0 || rs > 12)
        at(v, VR_CALL_SIZE, inst, k[n - 1], "'%s': return size %lld GRFs exceeds %%retval (12 GRFs)", mn,
           (long long)rs);
}

/* switchjmp: 1..32 labels */
static void check_label_count(vf *v, const ir_inst *inst) {
    char mb[48];
    unsigned labels = 0;
    for (int i = 0; i < inst->nopnd; i++) labels += inst->opnd[i].kind == 'L';
    if (labels < 1 || labels > 32)
        at(v, VR_SWITCHJMP_COUNT, inst, -1, "'%s' has %u labels (1..32)", mnem_of(inst->form, mb, sizeof mb), labels);
}

/* The checks of notes.def whose condition holds for the instruction. */
void vf_check_notes(vf *v, const ir_inst *inst) {
    const int form = inst->form;
    const isa_form *F = &isa_forms[form];
#define VF_NOTE(check, applies) \
    if (applies) check(v, inst);
#include "notes.def"
#undef VF_NOTE
}
