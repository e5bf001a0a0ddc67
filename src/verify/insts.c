/* insts.c -- the verifier's instruction rules: availability, exec size and mask, predicates,
** operand classes, modifiers, type maps, regions, indirect/address/raw operands (5_operands,
** 3_execution_model, each instruction page).  Facts come from the table (src/isa).
*/
#include <stdio.h>
#include <string.h>

#include "verify_int.h"

static const char *mnem(const ir_inst *inst, char *buf, size_t n) {
    size_t len;
    const char *s = isa_form_mnem_or_name(inst->form, &len);
    snprintf(buf, n, "%.*s", (int)len, s);
    return buf;
}

static unsigned class_bit(unsigned cls) {
    switch (cls) {
    case VC_GENERAL:
    case VC_ADDROF: return OC_G;
    case VC_INDIRECT: return OC_I;
    case VC_IMMEDIATE: return OC_M;
    case VC_PREDICATE: return OC_P;
    case VC_ADDRESS: return OC_A;
    case VC_STATE: return OC_S;
    default: return 0;
    }
}

static const char *class_name(unsigned cls) {
    switch (cls) {
    case VC_GENERAL: return "a general";
    case VC_ADDROF: return "an address-of";
    case VC_INDIRECT: return "an indirect";
    case VC_IMMEDIATE: return "an immediate";
    case VC_PREDICATE: return "a predicate";
    case VC_ADDRESS: return "an address";
    case VC_STATE: return "a state";
    default: return "an unknown";
    }
}

static void opnd_label(char *buf, size_t n, unsigned vk, unsigned ndst) {
    if (vk < ndst) snprintf(buf, n, vk ? "destination %u" : "the destination", vk + 1);
    else snprintf(buf, n, "src%u", vk - ndst);
}

/* Region code -> value; -1 for null (0) or an invalid code. */
static int rval(unsigned code) { return code >= 1 && code <= 7 ? (int)ir_region_value(code) : -1; }

static bool alu_form(int form) {
    unsigned g = isa_form_group(form);
    return g == G_MOV || g == G_ARITH || g == G_LOGIC || g == G_COMPARE || g == G_ADDRESS;
}

/* Type of a vector operand for the type maps; -1 when it has none (address, state, &var). */
static int vec_type(const vf *v, const ir_vec *x) {
    switch (x->cls) {
    case VC_GENERAL: return vf_var_type(v, x->id);
    case VC_INDIRECT:
    case VC_IMMEDIATE: return x->type < VISA_TYPE__COUNT ? x->type : -1;
    case VC_PREDICATE: return VISA_TYPE_BOOL;
    default: return -1;
    }
}

/* Byte offset of stored operand k in an object (binary input); the instruction's offset when the
** layout does not say. */
static uint64_t opnd_offset(const ir_inst *inst, int k) {
    if (k < 0 || inst->line) return inst->offset;
    char buf[64];
    const char *lay = isa_form_layout(inst->form, buf);
    uint64_t pos = inst->offset + 1;
    int j = 0;
    bool list = false;
    for (const char *c = lay; *c || list; c++) {
        char code = list ? 0 : *c;
        if (code == 'E' || code == 'o' || code == '#') {
            pos += 1;
            continue;
        }
        if (code == 'P') {
            pos += 2;
            continue;
        }
        if (code == '*' || code == '!') {
            list = true;
            c--;
            continue;
        }
        if (j >= inst->nopnd) break;
        const ir_opnd *o = &inst->opnd[j];
        if (j == k) return pos;
        switch (o->kind) {
        case 'b': pos += 1; break;
        case 'w':
        case 's':
        case 'L': pos += 2; break;
        case 'd':
        case 'i':
        case 'S': pos += 4; break;
        case 'R': pos += 6; break;
        case 'V':
        case 'v':
        case '&':
            switch (o->u.vec.cls) {
            case VC_GENERAL:
            case VC_ADDROF:
            case VC_INDIRECT: pos += 9; break;
            case VC_ADDRESS:
            case VC_STATE: pos += 5; break;
            case VC_PREDICATE: pos += 3; break;
            case VC_IMMEDIATE:
                pos += o->u.vec.type == VISA_TYPE_DF || o->u.vec.type == VISA_TYPE_Q || o->u.vec.type == VISA_TYPE_UQ
                           ? 10
                           : 6;
                break;
            default: return inst->offset;
            }
            break;
        default: return inst->offset;
        }
        j++;
        if (list) c--; /* stay on the list */
    }
    return inst->offset;
}

#define AT(rule, k, ...)                                                  \
    do {                                                                  \
        if (inst->line) vf_at_inst(v, rule, inst, k, __VA_ARGS__);        \
        else vf_report(v, rule, 0, 0, opnd_offset(inst, k), __VA_ARGS__); \
    } while (0)

void vf_at_opnd(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *msg) { AT(rule, k, "%s", msg); }

static void check_general_region(vf *v, const ir_inst *inst, int k, const ir_vec *x, bool is_dst, unsigned exec,
                                 const char *what) {
    vf_issue is[VF_REGION_MAX_ISSUES];
    unsigned n = vf_region_shape(x->region, is_dst, x->cls == VC_INDIRECT, exec, is);
    for (unsigned i = 0; i < n; i++) AT(is[i].rule, k, "%s %s", what, is[i].msg);
}

/* Elements of a direct general operand: bounds, column offset, GRF span (5_operands rule 6). */
static void check_general_extent(vf *v, const ir_inst *inst, int k, const ir_vec *x, bool is_dst, unsigned exec,
                                 const char *what) {
    if (x->id == 0) return; /* %null */
    int t = vf_var_type(v, x->id);
    uint32_t bytes = vf_var_bytes(v, x->id);
    if (t < 0 || !bytes) return;
    unsigned ts = isa_types[t].bytes;
    char nb[32];
    const char *name = vf_var_name(v, x->id, nb, sizeof nb);
    vf_issue is;
    if (vf_region_col(x->col, ts, v->grf, name, &is)) AT(is.rule, k, "%s: %s", what, is.msg);
    uint64_t first = (uint64_t)x->row * v->grf + (uint64_t)x->col * ts, last_idx;
    if (!vf_region_last_index(x->region, is_dst, exec, &last_idx)) return;
    uint64_t last = first + last_idx * ts + ts - 1;
    if (last >= bytes) {
        AT(VR_OPND_BOUNDS, k, "%s reaches byte %llu of '%s', which has %u bytes", what, (unsigned long long)last, name,
           bytes);
        return;
    }
    if (inst->form == VISA_FORM_MADW && is_dst) return; /* its page defines a two-part result */
    uint32_t root, roff;
    if (!vf_var_root(v, x->id, &root, &roff) || vf_var_bytes(v, root) < v->grf) return;
    /* IGC (IsaVerification.cpp verifyRegion) skips both 2-GRF checks for the Mov, Logic,
    ** Compare and Arith classes: vISA splits them (InstSplit.cpp), so there it is a warning */
    unsigned g = isa_form_group(inst->form);
    bool split = g == G_MOV || g == G_LOGIC || g == G_COMPARE || g == G_ARITH;
    if (vf_region_span(roff + first, roff + last, v->grf, split, &is)) AT(is.rule, k, "%s %s", what, is.msg);
}

/* -- One instruction ---------------------------------------------------------------------------
** What every rule of an instruction reads, computed once; then one function per topic, called in
** the order the diagnostics are reported. */
typedef struct ictx {
    const ir_routine *r;
    int form;
    const isa_form *F;
    const char *mn;
    const char *lay;
    bool alu; /* an ALU group: operands follow the execution size, classes have defaults */
    bool has_e; /* an execution size field that the table constrains */
    unsigned code; /* execution size code */
    unsigned exec; /* execution size (1 for an invalid code) */
    unsigned moff; /* mask offset (channels) */
    bool nomask;
    unsigned ndst; /* leading vector destinations (ALU forms) */
    bool typed; /* operand types checked against the form's type set */
} ictx;

/* Types the operand walk collects for the type maps. */
typedef struct itypes {
    int dst_type;
    int src_k[8], src_t[8];
    unsigned nsrc;
    bool spec_warned; /* an operand type got V-TYPE-SPEC: check the maps against IGC's set only */
} itypes;

static void check_platform(vf *v, const ir_inst *inst, const ictx *c) {
    const char *pn = visa_platform_name((visa_platform)v->plat);
    if (vf_form_needs_madm(c->form) && !isa_platform_has(v->plat, PF_MADM))
        AT(VR_IEEE_MACRO, -1, "'%s' is an IEEE macro, built on madm, which %s does not have", c->mn, pn);
    else if (!vf_form_on_platform(c->form, v->plat)) AT(VR_PLATFORM, -1, "'%s' is not available on %s", c->mn, pn);
}

static void check_exec(vf *v, const ir_inst *inst, const ictx *c) {
    const unsigned code = c->code, exec = c->exec, moff = c->moff;
    const bool nomask = c->nomask;
    if (!c->has_e) return;
    if (!ir_exec_code_valid(inst->exec)) {
        AT(VR_EXEC_SIZE, -1, "invalid execution size code %u", code);
        return;
    }
    if (!(vf_form_igc_exec(c->form, v->plat) & (1u << code)))
        AT(VR_EXEC_SIZE, -1, "'%s' does not allow execution size %u on %s", c->mn, exec,
           visa_platform_name((visa_platform)v->plat));
    else if (!(c->F->exec & (1u << code))) /* the page's list, where IGC takes more: a warning */
        AT(VR_EXEC_SIZE_PAGE, -1, "'%s' does not allow execution size %u (its page's list)", c->mn, exec);
    if ((!nomask || inst->pred) && moff + exec > 32)
        AT(VR_EXEC_MASK, -1, "mask offset %u (M%u) and execution size %u run past channel 32", moff, moff / 4 + 1,
           exec);
    else if ((!nomask || inst->pred) && moff % exec) /* IGC checks the sum only: a warning */
        AT(VR_EXEC_MASK_ALIGN, -1, "mask offset %u (M%u) is not aligned to execution size %u", moff, moff / 4 + 1,
           exec);
}

static void check_predicate(vf *v, const ir_inst *inst, const ictx *c) {
    const ir_routine *r = c->r;
    const unsigned exec = c->exec, moff = c->moff;
    const bool has_e = c->has_e;
    if (!inst->pred) return;
    unsigned pid = ir_pred_id(inst->pred);
    if (!pid || pid > r->preds.len || !ir_pred_bits_valid(inst->pred)) {
        AT(VR_PRED_CTRL, -1, "invalid predicate control 0x%04x", inst->pred);
    } else if (has_e && ir_exec_code_valid(inst->exec) && r->preds.data[pid - 1].num_elts < moff + exec) {
        AT(VR_PRED_SIZE, -1, "predicate '%s' has %u elements; channels %u..%u need %u",
           ir_str(r, r->preds.data[pid - 1].name), r->preds.data[pid - 1].num_elts, moff, moff + exec - 1, moff + exec);
    }
}

/* Legacy surface ids (opfacts.def VISA_SURFACE_OPND). */
static void check_surface_id(vf *v, const ir_inst *inst, const ictx *c) {
    int sk = vf_form_surface_opnd(c->form);
    if (sk >= 0 && sk < inst->nopnd && inst->opnd[sk].kind == 'b') {
        int64_t sid = inst->opnd[sk].u.num;
        if (sid < 0 || (uint64_t)sid >= ISA_NUM_PREDEF_SURFS + (uint64_t)c->r->surfaces.len)
            AT(VR_SURFACE_UNDEFINED, sk, "surface T%lld is not declared", (long long)sid);
    }
}

/* A raw operand: declared, inside its variable, GRF-aligned. */
static void check_raw(vf *v, const ir_inst *inst, int k, const ir_raw *rw) {
    if (!vf_var_exists(v, rw->id) || (rw->id >= isa_predef_var_count && rw->id < ISA_NUM_PREDEF_VARS)) {
        AT(VR_OPND_UNDEFINED, k, "raw operand names undeclared variable V%u", (unsigned)rw->id);
        return;
    }
    if (rw->id == VISA_PREDEF_NULL) return;
    uint32_t bytes = vf_var_bytes(v, rw->id);
    char nb[32];
    if (bytes && rw->offset >= bytes) {
        AT(VR_RAW_BOUNDS, k, "raw operand offset %u lies outside '%s' (%u bytes)", rw->offset,
           vf_var_name(v, rw->id, nb, sizeof nb), bytes);
        return;
    }
    /* IGC (IsaVerification.cpp verifyRawOperand): the offset summed along the alias chain is a
    ** multiple of the GRF when the chain's last declared variable (the root, or the alias of a
    ** predefined variable) is at least one GRF; predefined variables themselves are not checked */
    if (rw->id < ISA_NUM_PREDEF_VARS) return;
    uint32_t root, roff, sized = rw->id;
    if (!vf_var_root(v, rw->id, &root, &roff)) return;
    while (sized >= ISA_NUM_PREDEF_VARS && v->r->vars.data[sized - ISA_NUM_PREDEF_VARS].has_alias &&
           v->r->vars.data[sized - ISA_NUM_PREDEF_VARS].alias_id >= ISA_NUM_PREDEF_VARS)
        sized = v->r->vars.data[sized - ISA_NUM_PREDEF_VARS].alias_id;
    if (vf_var_bytes(v, sized) >= v->grf && (roff + rw->offset) % v->grf)
        AT(VR_RAW_ALIGN, k, "raw operand '%s.%u' is not GRF-aligned (byte %u of a GRF)",
           vf_var_name(v, rw->id, nb, sizeof nb), rw->offset, (roff + rw->offset) % v->grf);
}

/* A vector operand names a declared, non-reserved variable / address / predicate / state. */
static bool check_declared(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x, const char *what) {
    const ir_routine *r = c->r;
    bool defined = true;
    switch (x->cls) {
    case VC_GENERAL:
    case VC_ADDROF:
        defined = vf_var_exists(v, x->id) && !(x->id >= isa_predef_var_count && x->id < ISA_NUM_PREDEF_VARS);
        break;
    case VC_ADDRESS:
    case VC_INDIRECT: defined = x->id < r->addrs.len; break;
    case VC_PREDICATE: defined = x->id >= 1 && x->id <= r->preds.len; break;
    case VC_STATE:
        if (x->state_cls == VS_SURFACE ? x->id >= ISA_NUM_PREDEF_SURFS + r->surfaces.len : x->id >= r->samplers.len) {
            AT(VR_SURFACE_UNDEFINED, k, "%s %u is not declared", x->state_cls == VS_SURFACE ? "surface" : "sampler",
               (unsigned)x->id);
            return false;
        }
        break;
    default: break;
    }
    if (!defined) AT(VR_OPND_UNDEFINED, k, "%s names an undeclared or reserved variable", what);
    return defined;
}

static void check_class(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x, unsigned vk,
                        const char *what) {
    unsigned allowed = vf_opnd_classes(c->form, vk);
    if (allowed && !(allowed & class_bit(x->cls))) /* a warning where IGC takes the class */
        AT(vf_opnd_igc_classes(c->form, vk) & class_bit(x->cls) ? VR_OPND_CLASS_PAGE : VR_OPND_CLASS, k,
           "%s of '%s' cannot be %s operand", what, c->mn, class_name(x->cls));
}

static void check_modifiers(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x, bool is_dst,
                            const char *what) {
    if (x->mod == VM_SAT) {
        if (!is_dst && c->alu) AT(VR_SRC_MOD, k, "%s cannot be saturated", what);
        else if (!(c->F->flags & VF_SAT)) AT(VR_SAT, k, "'%s' does not support saturation", c->mn);
    } else if (x->mod) {
        bool logic = x->mod == VM_NOT;
        if (is_dst) AT(VR_SRC_MOD, k, "a destination takes no source modifier");
        else if (x->cls != VC_GENERAL && x->cls != VC_INDIRECT)
            AT(VR_SRC_MOD, k, "source modifiers apply to general and indirect operands only");
        else if (!(c->F->flags & (logic ? VF_SMOD_LOGIC : VF_SMOD_ARITH)))
            AT(VR_SRC_MOD, k, "'%s' does not take the %s source modifier", c->mn, logic ? "(~)" : "arithmetic");
    }
}

/* Immediate types, indirect operands (type, offset, address elements) and address operands. */
static void check_imm_ind_addr(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x, unsigned vk,
                               bool is_dst) {
    const ir_routine *r = c->r;
    if (x->cls == VC_IMMEDIATE && x->type == VISA_TYPE_BOOL) AT(VR_IMM_TYPE, k, "an immediate cannot have type bool");
    if (x->cls == VC_INDIRECT) {
        if (x->type == VISA_TYPE_V || x->type == VISA_TYPE_UV || x->type == VISA_TYPE_VF || x->type == VISA_TYPE_BOOL)
            AT(VR_INDIRECT_TYPE, k, "an indirect operand cannot have type %s", isa_types[x->type].name);
        if (x->ind_off < -512 || x->ind_off > 511)
            AT(VR_INDIRECT_OFFSET, k, "indirect offset %d is outside [-512, 511]", x->ind_off);
        unsigned n = r->addrs.data[x->id].num_elts, need = 1;
        if (c->alu && !IR_REGION_V(x->region) && IR_REGION_W(x->region) && !is_dst) {
            int w = rval(IR_REGION_W(x->region));
            need = w >= 1 && (unsigned)w <= c->exec ? c->exec / (unsigned)w : 1;
        }
        if ((unsigned)x->addr_elem + need > n)
            AT(VR_ADDR_OPND, k, "address elements %u..%u of A%u (%u elements) are used", x->addr_elem,
               x->addr_elem + need - 1, (unsigned)x->id, n);
    }
    if (x->cls == VC_ADDRESS) {
        unsigned n = r->addrs.data[x->id].num_elts, wc = x->col;
        unsigned width = wc <= 5 ? 1u << wc : 0;
        bool dst_addr = vk == 0 && c->form == VISA_FORM_ADDR_ADD;
        if (!dst_addr && (wc >= 5 || x->row + width > n))
            AT(VR_ADDR_OPND, k, "address operand A%u(%u)<%u> exceeds its %u elements or has width 32", (unsigned)x->id,
               x->row, width, n);
        else if (dst_addr && x->row >= n)
            AT(VR_ADDR_OPND, k, "address element %u of A%u (%u elements)", x->row, (unsigned)x->id, n);
    }
}

/* Writes to predefined variables (predefined.def's access column). */
static void check_predef_write(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x) {
    if (x->cls != VC_GENERAL || x->id >= isa_predef_var_count) return;
    unsigned access = isa_predef_vars[x->id].access;
    if (access == PV_RO) AT(VR_PREDEF_WRITE, k, "predefined variable %s is read-only", isa_predef_vars[x->id].name);
    if (access == PV_PAUSE && !(x->row == 0 && x->col == 4 && c->exec == 1))
        AT(VR_PREDEF_WRITE, k, "only the pause counter %%tsc(0,4) of %%tsc may be written");
}

/* One operand's type: IGC's verifier decides errors where its set is known (opfacts.def
** VISA_IGC_TYPESET), the page's set alone elsewhere; a type IGC accepts and the page does not is
** a V-TYPE-SPEC warning. */
static void check_one_type(vf *v, const ir_inst *inst, const ictx *c, int k, int t, bool dst, itypes *ty) {
    const unsigned igc = vf_form_igc_typeset(c->form, v->plat);
    const bool page = isa_type_legal(c->F->typeset, v->plat, dst, (unsigned)t);
    const bool igc_ok = igc == TM_NONE ? page : isa_type_legal(igc, v->plat, dst, (unsigned)t);
    if (page && igc_ok) return;
    AT(igc_ok ? VR_TYPE_SPEC : VR_TYPE_SUPPORTED, k, "'%s' does not support %s type %s on %s%s", c->mn,
       dst ? "destination" : "source", isa_types[t].name, visa_platform_name((visa_platform)v->plat),
       igc_ok ? " (IGC accepts it)"
       : page ? " (IGC's verifier rejects it)"
              : "");
    ty->spec_warned = ty->spec_warned || igc_ok;
}

/* Each operand's type against the type set; collects the types for check_type_maps. */
static void check_opnd_type(vf *v, const ir_inst *inst, const ictx *c, int k, const ir_vec *x, unsigned vk,
                            itypes *ty) {
    if (c->form == VISA_FORM_ADDR_ADD && vk == 2) {
        int t = vec_type(v, x);
        if (t >= 0 && t != VISA_TYPE_UW)
            AT(VR_ADDR_ADD_SRC1, k, "addr_add's second source has type %s (must be uw)", isa_types[t].name);
    }
    if (!c->typed) return;
    int t = vec_type(v, x);
    if (t < 0) return;
    if (vk == 0 && (c->alu ? c->ndst > 0 : false)) {
        if (x->cls == VC_GENERAL && x->id == VISA_PREDEF_NULL) return; /* %null takes any type */
        ty->dst_type = t;
        check_one_type(v, inst, c, k, t, true, ty);
    } else if (vk >= c->ndst && ty->nsrc < 8) {
        ty->src_k[ty->nsrc] = k, ty->src_t[ty->nsrc++] = t;
        check_one_type(v, inst, c, k, t, false, ty);
    }
}

/* Per-operand rules over the stored operands; predicate-operand facts for check_pred_opnds. */
static void check_operands(vf *v, const ir_inst *inst, const ictx *c, itypes *ty, bool *any_pred, bool *all_pred,
                           int *first_nonpred) {
    char what[32];
    unsigned vk = 0;
    for (int k = 0; k < inst->nopnd; k++) {
        const ir_opnd *o = &inst->opnd[k];
        if (o->kind == 'R') {
            check_raw(v, inst, k, &o->u.raw);
            continue;
        }
        if (o->kind != 'V' && o->kind != 'v' && o->kind != '&') continue;
        const ir_vec *x = &o->u.vec;
        const unsigned my_vk = vk++;
        const bool is_dst = c->alu ? my_vk < c->ndst : false;
        if (c->alu) opnd_label(what, sizeof what, my_vk, c->ndst);
        else snprintf(what, sizeof what, "operand %u", my_vk);

        if (!check_declared(v, inst, c, k, x, what)) continue;
        check_class(v, inst, c, k, x, my_vk, what);
        if (x->cls == VC_PREDICATE) *any_pred = true;
        else if (*all_pred) *all_pred = false, *first_nonpred = k;
        check_modifiers(v, inst, c, k, x, is_dst, what);
        check_imm_ind_addr(v, inst, c, k, x, my_vk, is_dst);
        /* regions and extents (instructions whose operands follow the execution size) */
        if (c->alu && c->has_e && ir_exec_code_valid(inst->exec) && (x->cls == VC_GENERAL || x->cls == VC_INDIRECT) &&
            x->region) {
            check_general_region(v, inst, k, x, is_dst, c->exec, what);
            if (x->cls == VC_GENERAL) check_general_extent(v, inst, k, x, is_dst, c->exec, what);
        }
        if (is_dst) check_predef_write(v, inst, c, k, x);
        check_opnd_type(v, inst, c, k, x, my_vk, ty);
    }
}

/* Type maps: one map must admit the dst and every source together (IGC's set where it is known,
** the page's elsewhere; the page's maps alone missed: V-TYPE-SPEC). */
static void check_type_maps(vf *v, const ir_inst *inst, const ictx *c, const itypes *ty) {
    const int dst_type = ty->dst_type;
    const unsigned nsrc = ty->nsrc;
    if (!c->typed || (dst_type < 0 && !nsrc)) return;
    const unsigned page = c->F->typeset, igc = vf_form_igc_typeset(c->form, v->plat);
    const unsigned set = igc != TM_NONE ? igc : page;
    uint32_t mask = 0;
    bool each = true;
    for (unsigned i = 0; i < nsrc; i++) {
        mask |= 1u << ty->src_t[i];
        each = each && isa_type_legal(set, v->plat, false, (unsigned)ty->src_t[i]);
    }
    if (!each || (dst_type >= 0 && !isa_type_legal(set, v->plat, true, (unsigned)dst_type))) return; /* reported */
    const bool ok = isa_types_legal(set, v->plat, dst_type, mask);
    const bool page_ok = set == page ? ok : isa_types_legal(page, v->plat, dst_type, mask);
    if (ok && (page_ok || ty->spec_warned)) return;
    int at = -1;
    for (unsigned i = 0; i < nsrc && at < 0; i++)
        if (!isa_types_legal(ok ? page : set, v->plat, dst_type, 1u << ty->src_t[i])) at = ty->src_k[i];
    if (at < 0) at = nsrc ? ty->src_k[nsrc - 1] : -1;
    char types[96] = "";
    size_t len = 0;
    for (unsigned i = 0; i < nsrc && len < sizeof types - 8; i++)
        len += (size_t)snprintf(types + len, sizeof types - len, "%s%s", i ? ", " : "", isa_types[ty->src_t[i]].name);
    AT(ok ? VR_TYPE_SPEC : VR_TYPE_MAP, at, "no type map of '%s' has destination %s with sources %s%s", c->mn,
       dst_type >= 0 ? isa_types[dst_type].name : "(none)", types,
       ok        ? " (IGC accepts it)"
       : page_ok ? " (IGC's verifier rejects it)"
                 : "");
}

/* Logic operations on predicates: all operands predicates, no predication. */
static void check_pred_opnds(vf *v, const ir_inst *inst, const ictx *c, bool any_pred, bool all_pred,
                             int first_nonpred) {
    if ((c->F->flags & VF_PRED_OPND) && isa_form_group(c->form) == G_LOGIC && any_pred) {
        if (!all_pred)
            AT(VR_PRED_OPND_MODE, first_nonpred, "'%s' on predicates: every operand must be a predicate", c->mn);
        if (inst->pred) AT(VR_PRED_OPND_MODE, -1, "'%s' on predicates cannot be predicated", c->mn);
    }
}

/* mov from a predicate: SIMD1, unpredicated, no saturation, an unsigned dst wide enough. */
static void check_mov_from_pred(vf *v, const ir_inst *inst, const ictx *c) {
    const ir_routine *r = c->r;
    if (c->form != VISA_FORM_MOV || inst->nopnd < 2 || inst->opnd[1].u.vec.cls != VC_PREDICATE) return;
    const ir_vec *d = &inst->opnd[0].u.vec;
    int t = vec_type(v, d);
    unsigned pid = inst->opnd[1].u.vec.id;
    unsigned pn = pid >= 1 && pid <= r->preds.len ? r->preds.data[pid - 1].num_elts : 0;
    if (ir_exec_lanes(inst->exec) != 1) AT(VR_PRED_OPND_MODE, -1, "mov from a predicate needs execution size 1");
    else if (inst->pred) AT(VR_PRED_OPND_MODE, -1, "mov from a predicate cannot be predicated");
    else if (d->mod == VM_SAT) AT(VR_PRED_OPND_MODE, 0, "mov from a predicate cannot saturate");
    else if (t >= 0 && !(d->cls == VC_GENERAL && d->id == VISA_PREDEF_NULL) &&
             ((t != VISA_TYPE_UB && t != VISA_TYPE_UW && t != VISA_TYPE_UD) || isa_types[t].bytes * 8u < pn))
        AT(VR_PRED_MOV_DST, 0,
           "mov from a %u-element predicate needs a ub, uw or ud destination of at "
           "least %u bits",
           pn, pn);
}

/* srnd is NoMask (its page's notes; IGC verifyInstructionSrnd: "srnd must use noMask") */
static void check_srnd_nomask(vf *v, const ir_inst *inst, const ictx *c) {
    if (c->form == VISA_FORM_SRND && !c->nomask) AT(VR_SRND_NOMASK, -1, "'%s' must be NoMask", c->mn);
}

static void check_inst(vf *v, const ir_inst *inst) {
    char mb[48], lbuf[64];
    ictx c;
    c.r = v->r;
    c.form = inst->form;
    c.F = &isa_forms[c.form];
    c.mn = mnem(inst, mb, sizeof mb);
    c.lay = isa_form_layout(c.form, lbuf);
    c.alu = alu_form(c.form);
    c.has_e = strchr(c.lay, 'E') != NULL && c.F->exec != EX_NONE;
    const unsigned code = ir_exec_code(inst->exec),
                   exec = ir_exec_code_valid(inst->exec) ? ir_exec_lanes(inst->exec) : 1;
    const unsigned moff = ir_exec_mask_offset(inst->exec);
    const bool nomask = ir_exec_nomask(inst->exec);
    c.code = code, c.exec = exec, c.moff = moff, c.nomask = nomask;
    c.ndst = c.alu ? isa_form_ndst(c.form) : 0;
    c.typed = c.F->typeset != TM_NONE && !(c.F->flags & (VF_SEND | VF_SYSTOLIC)) && !strchr(c.lay, 'R');

    check_platform(v, inst, &c);
    check_exec(v, inst, &c);
    check_predicate(v, inst, &c);
    check_surface_id(v, inst, &c);
    itypes ty = {.dst_type = -1, .nsrc = 0, .spec_warned = false};
    bool any_pred = false, all_pred = true;
    int first_nonpred = -1;
    check_operands(v, inst, &c, &ty, &any_pred, &all_pred, &first_nonpred);
    check_type_maps(v, inst, &c, &ty);
    check_pred_opnds(v, inst, &c, any_pred, all_pred, first_nonpred);
    check_mov_from_pred(v, inst, &c);
    check_srnd_nomask(v, inst, &c);
    /* per-page notes of the message, systolic and control-flow instructions (msgs.c) */
    vf_check_notes(v, inst);
}

void vf_check_insts(vf *v) {
    for (uint32_t i = 0; i < v->r->insts.len; i++) check_inst(v, &v->r->insts.data[i]);
}
