/* insts.c -- the verifier's instruction rules: availability, exec size and mask, predicates,
** operand classes, modifiers, type maps, regions, indirect/address/raw operands (5_operands,
** 3_execution_model, each instruction page).  Facts come from the table (src/isa).
*/
#include <stdio.h>
#include <string.h>

#include "verify_int.h"

static const char *mnem(const ir_inst *inst, char *buf, size_t n) {
    const isa_form *F = &isa_forms[inst->form];
    const char *s = F->mnem;
    if (*s == '%') s = F->name;
    size_t i = 0;
    while (s[i] && s[i] != '|' && i + 1 < n) {
        buf[i] = s[i];
        i++;
    }
    buf[i] = 0;
    return buf;
}

static unsigned class_bit(unsigned cls) {
    switch (cls) {
    case VC_GENERAL: case VC_ADDROF: return OC_G;
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
    case VC_INDIRECT: case VC_IMMEDIATE: return x->type < VISA_TYPE__COUNT ? x->type : -1;
    case VC_PREDICATE: return VISA_TYPE_BOOL;
    default: return -1;
    }
}

/* Read-only predefined variables (4_visa_header: the R/W column). */
static bool predef_readonly(uint32_t id) {
    return id == 1 || id == 2 || id == 3 || id == 4 || id == 5 || id == 7 || id == 12 || id == 15 ||
           id == 17;
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
        if (code == 'E' || code == 'o' || code == '#') { pos += 1; continue; }
        if (code == 'P') { pos += 2; continue; }
        if (code == '*' || code == '!') { list = true; c--; continue; }
        if (j >= inst->nopnd) break;
        const ir_opnd *o = &inst->opnd[j];
        if (j == k) return pos;
        switch (o->kind) {
        case 'b': pos += 1; break;
        case 'w': case 's': case 'L': pos += 2; break;
        case 'd': case 'i': case 'S': pos += 4; break;
        case 'R': pos += 6; break;
        case 'V': case 'v': case '&':
            switch (o->u.vec.cls) {
            case VC_GENERAL: case VC_ADDROF: case VC_INDIRECT: pos += 9; break;
            case VC_ADDRESS: case VC_STATE: pos += 5; break;
            case VC_PREDICATE: pos += 3; break;
            case VC_IMMEDIATE:
                pos += o->u.vec.type == VISA_TYPE_DF || o->u.vec.type == VISA_TYPE_Q ||
                               o->u.vec.type == VISA_TYPE_UQ ? 10 : 6;
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

#define AT(rule, k, ...)                                                                     \
    do {                                                                                     \
        if (inst->line) vf_at_inst(v, rule, inst, k, __VA_ARGS__);                           \
        else vf_report(v, rule, 0, 0, opnd_offset(inst, k), __VA_ARGS__);                    \
    } while (0)

void vf_at_opnd(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *msg) {
    AT(rule, k, "%s", msg);
}

static void check_general_region(vf *v, const ir_inst *inst, int k, const ir_vec *x, bool is_dst,
                                 unsigned exec, const char *what) {
    unsigned vc = IR_REGION_V(x->region), wc = IR_REGION_W(x->region), hc = IR_REGION_H(x->region);
    bool ind = x->cls == VC_INDIRECT;
    int h = rval(hc);
    if (is_dst) {
        if (ind && wc && !vc)
            AT(VR_INDIRECT_MULTI_DST, k, "%s is a multi-address indirect operand", what);
        if (h < 0 || h > 4) AT(VR_REGION_HSTRIDE, k, "%s has an invalid horizontal stride", what);
        else if (h == 0) AT(VR_REGION_DST_HSTRIDE, k, "%s has horizontal stride 0", what);
        return;
    }
    if (ind && !vc && !wc) return; /* an indirect source written <HorzStride> (IGC's 1D form) */
    int w = rval(wc);
    if (w < 1 || w > 16) AT(VR_REGION_WIDTH, k, "%s has region width %s", what,
                            w < 0 ? "null or invalid" : w == 0 ? "0" : "32");
    else if ((unsigned)w > exec) AT(VR_REGION_EXEC, k, "%s has region width %d above the execution size %u",
                                    what, w, exec);
    if (vc > 7 || (vc == 0 && !ind))
        AT(VR_REGION_VSTRIDE, k, "%s has %s vertical stride", what, vc ? "an invalid" : "a null");
    if (h < 0 || h > 4) AT(VR_REGION_HSTRIDE, k, "%s has horizontal stride %s", what,
                           h < 0 ? "null or invalid" : h == 8 ? "8" : h == 16 ? "16" : "32");
}

/* Elements of a direct general operand: bounds, column offset, GRF span (5_operands rule 6). */
static void check_general_extent(vf *v, const ir_inst *inst, int k, const ir_vec *x, bool is_dst,
                                 unsigned exec, const char *what) {
    if (x->id == 0) return; /* %null */
    int t = vf_var_type(v, x->id);
    uint32_t bytes = vf_var_bytes(v, x->id);
    if (t < 0 || !bytes) return;
    unsigned ts = isa_types[t].bytes;
    char nb[32];
    const char *name = vf_var_name(v, x->id, nb, sizeof nb);
    if ((unsigned)x->col * ts >= v->grf)
        AT(VR_REGION_COL, k, "%s: column offset %u of '%s' (%u bytes) crosses the %u-byte GRF", what,
           x->col, name, x->col * ts, v->grf);
    uint64_t first = (uint64_t)x->row * v->grf + (uint64_t)x->col * ts, last_idx;
    if (is_dst) {
        int h = rval(IR_REGION_H(x->region));
        if (h < 0) return;
        last_idx = (uint64_t)(exec - 1) * (unsigned)h;
    } else {
        int vs = rval(IR_REGION_V(x->region)), w = rval(IR_REGION_W(x->region)),
            h = rval(IR_REGION_H(x->region));
        if (vs < 0 || w < 1 || h < 0) return;
        unsigned width = (unsigned)w < exec ? (unsigned)w : exec, rows = exec / width;
        last_idx = (uint64_t)(rows - 1) * (unsigned)vs + (uint64_t)(width - 1) * (unsigned)h;
    }
    uint64_t last = first + last_idx * ts + ts - 1;
    if (last >= bytes) {
        AT(VR_OPND_BOUNDS, k, "%s reaches byte %llu of '%s', which has %u bytes", what,
           (unsigned long long)last, name, bytes);
        return;
    }
    if (inst->form == VISA_FORM_MADW && is_dst) return; /* its page defines a two-part result */
    uint32_t root, roff;
    if (!vf_var_root(v, x->id, &root, &roff) || vf_var_bytes(v, root) < v->grf) return;
    uint64_t s = roff + first, e = roff + last;
    if (e / v->grf - s / v->grf + 1 > 2)
        AT(VR_REGION_GRF_SPAN, k, "%s spans %llu GRFs of %u bytes (at most 2)", what,
           (unsigned long long)(e / v->grf - s / v->grf + 1), v->grf);
}

static void check_inst(vf *v, const ir_inst *inst) {
    const ir_routine *r = v->r;
    const int form = inst->form;
    const isa_form *F = &isa_forms[form];
    char mb[48], lbuf[64], what[32];
    const char *mn = mnem(inst, mb, sizeof mb);
    const char *lay = isa_form_layout(form, lbuf);
    const bool alu = alu_form(form);
    const bool has_e = strchr(lay, 'E') != NULL && F->exec != EX_NONE;
    const unsigned code = ir_exec_code(inst->exec), exec = ir_exec_code_valid(inst->exec) ? ir_exec_lanes(inst->exec) : 1;
    const unsigned moff = ir_exec_mask_offset(inst->exec);
    const bool nomask = ir_exec_nomask(inst->exec);
    const char *plats[] = {
#define VISA_PLAT(N, text, grf, aliases) text,
#include "platforms.def"
#undef VISA_PLAT
    };

    /* availability */
    if (!vf_form_on_platform(form, v->plat))
        AT(VR_PLATFORM, -1, "'%s' is not available on %s", mn, plats[v->plat]);

    /* exec size and mask */
    if (has_e) {
        if (!ir_exec_code_valid(inst->exec) || !(F->exec & (1u << code)))
            AT(VR_EXEC_SIZE, -1, "'%s' does not allow execution size %u", mn, ir_exec_lanes(inst->exec));
        else if ((!nomask || inst->pred) && (moff % exec || moff + exec > 32))
            AT(VR_EXEC_MASK, -1, "mask offset %u (M%u) is not aligned to execution size %u or runs past "
               "channel 32", moff, moff / 4 + 1, exec);
    }

    /* predicate */
    if (inst->pred) {
        unsigned pid = ir_pred_id(inst->pred);
        if (!pid || pid > r->preds.len || !ir_pred_bits_valid(inst->pred)) {
            AT(VR_PRED_CTRL, -1, "invalid predicate control 0x%04x", inst->pred);
        } else if (has_e && ir_exec_code_valid(inst->exec) && r->preds.data[pid - 1].num_elts < moff + exec) {
            AT(VR_PRED_SIZE, -1, "predicate '%s' has %u elements; channels %u..%u need %u",
               ir_str(r, r->preds.data[pid - 1].name), r->preds.data[pid - 1].num_elts, moff,
               moff + exec - 1, moff + exec);
        }
    }

    /* legacy surface ids */
    int sk = vf_form_surface_opnd(form);
    if (sk >= 0 && sk < inst->nopnd && inst->opnd[sk].kind == 'b') {
        int64_t sid = inst->opnd[sk].u.num;
        if (sid < 0 || (uint64_t)sid >= ISA_NUM_PREDEF_SURFS + (uint64_t)r->surfaces.len)
            AT(VR_SURFACE_UNDEFINED, sk, "surface T%lld is not declared", (long long)sid);
    }

    /* operands */
    const unsigned ndst = alu ? vf_form_ndst(form) : 0;
    const bool typed = F->typeset != TM_NONE && !(F->flags & (VF_SEND | VF_SYSTOLIC)) && !strchr(lay, 'R');
    int dst_type = -1, dst_k = -1;
    int src_k[8], src_t[8];
    unsigned nsrc = 0, vk = 0;
    bool any_pred = false, all_pred = true;
    int first_nonpred = -1;
    for (int k = 0; k < inst->nopnd; k++) {
        const ir_opnd *o = &inst->opnd[k];
        if (o->kind == 'R') {
            const ir_raw *rw = &o->u.raw;
            if (!vf_var_exists(v, rw->id) || (rw->id >= isa_predef_var_count && rw->id < ISA_NUM_PREDEF_VARS)) {
                AT(VR_OPND_UNDEFINED, k, "raw operand names undeclared variable V%u", (unsigned)rw->id);
                continue;
            }
            if (rw->id == 0) continue;
            uint32_t bytes = vf_var_bytes(v, rw->id);
            char nb[32];
            if (bytes && rw->offset >= bytes) {
                AT(VR_RAW_BOUNDS, k, "raw operand offset %u lies outside '%s' (%u bytes)", rw->offset,
                   vf_var_name(v, rw->id, nb, sizeof nb), bytes);
                continue;
            }
            uint32_t root, roff;
            if (vf_var_root(v, rw->id, &root, &roff) && vf_var_bytes(v, root) >= v->grf &&
                (roff + rw->offset) % v->grf)
                AT(VR_RAW_ALIGN, k, "raw operand '%s.%u' is not GRF-aligned (byte %u of a GRF)",
                   vf_var_name(v, rw->id, nb, sizeof nb), rw->offset, (roff + rw->offset) % v->grf);
            continue;
        }
        if (o->kind != 'V' && o->kind != 'v' && o->kind != '&') continue;
        const ir_vec *x = &o->u.vec;
        const unsigned my_vk = vk++;
        const bool is_dst = alu ? my_vk < ndst : false;
        if (alu) opnd_label(what, sizeof what, my_vk, ndst);
        else snprintf(what, sizeof what, "operand %u", my_vk);

        /* declared? */
        bool defined = true;
        switch (x->cls) {
        case VC_GENERAL: case VC_ADDROF:
            defined = vf_var_exists(v, x->id) && !(x->id >= isa_predef_var_count && x->id < ISA_NUM_PREDEF_VARS);
            break;
        case VC_ADDRESS: case VC_INDIRECT: defined = x->id < r->addrs.len; break;
        case VC_PREDICATE: defined = x->id >= 1 && x->id <= r->preds.len; break;
        case VC_STATE:
            if (x->state_cls == VS_SURFACE ? x->id >= ISA_NUM_PREDEF_SURFS + r->surfaces.len
                                           : x->id >= r->samplers.len) {
                AT(VR_SURFACE_UNDEFINED, k, "%s %u is not declared",
                   x->state_cls == VS_SURFACE ? "surface" : "sampler", (unsigned)x->id);
                defined = false;
                continue;
            }
            break;
        default: break;
        }
        if (!defined) {
            AT(VR_OPND_UNDEFINED, k, "%s names an undeclared or reserved variable", what);
            continue;
        }

        /* class */
        unsigned allowed = vf_opnd_classes(form, my_vk);
        if (allowed && !(allowed & class_bit(x->cls)))
            AT(VR_OPND_CLASS, k, "%s of '%s' cannot be %s operand", what, mn, class_name(x->cls));
        if (x->cls == VC_PREDICATE) any_pred = true;
        else if (all_pred) all_pred = false, first_nonpred = k;

        /* modifiers */
        if (x->mod == VM_SAT) {
            if (!is_dst && alu) AT(VR_SRC_MOD, k, "%s cannot be saturated", what);
            else if (!(F->flags & VF_SAT)) AT(VR_SAT, k, "'%s' does not support saturation", mn);
        } else if (x->mod) {
            bool logic = x->mod == VM_NOT;
            if (is_dst) AT(VR_SRC_MOD, k, "a destination takes no source modifier");
            else if (x->cls != VC_GENERAL && x->cls != VC_INDIRECT)
                AT(VR_SRC_MOD, k, "source modifiers apply to general and indirect operands only");
            else if (!(F->flags & (logic ? VF_SMOD_LOGIC : VF_SMOD_ARITH)))
                AT(VR_SRC_MOD, k, "'%s' does not take the %s source modifier", mn, logic ? "(~)" : "arithmetic");
        }

        /* immediates, indirect and address operands */
        if (x->cls == VC_IMMEDIATE && x->type == VISA_TYPE_BOOL)
            AT(VR_IMM_TYPE, k, "an immediate cannot have type bool");
        if (x->cls == VC_INDIRECT) {
            if (x->type == VISA_TYPE_V || x->type == VISA_TYPE_UV || x->type == VISA_TYPE_VF ||
                x->type == VISA_TYPE_BOOL)
                AT(VR_INDIRECT_TYPE, k, "an indirect operand cannot have type %s", isa_types[x->type].name);
            if (x->ind_off < -512 || x->ind_off > 511)
                AT(VR_INDIRECT_OFFSET, k, "indirect offset %d is outside [-512, 511]", x->ind_off);
            unsigned n = r->addrs.data[x->id].num_elts, need = 1;
            if (alu && !IR_REGION_V(x->region) && IR_REGION_W(x->region) && !is_dst) {
                int w = rval(IR_REGION_W(x->region));
                need = w >= 1 && (unsigned)w <= exec ? exec / (unsigned)w : 1;
            }
            if ((unsigned)x->addr_elem + need > n)
                AT(VR_ADDR_OPND, k, "address elements %u..%u of A%u (%u elements) are used", x->addr_elem,
                   x->addr_elem + need - 1, (unsigned)x->id, n);
        }
        if (x->cls == VC_ADDRESS) {
            unsigned n = r->addrs.data[x->id].num_elts, wc = x->col;
            unsigned width = wc <= 5 ? 1u << wc : 0;
            bool dst_addr = my_vk == 0 && form == VISA_FORM_ADDR_ADD;
            if (!dst_addr && (wc >= 5 || x->row + width > n))
                AT(VR_ADDR_OPND, k, "address operand A%u(%u)<%u> exceeds its %u elements or has width 32",
                   (unsigned)x->id, x->row, width, n);
            else if (dst_addr && x->row >= n)
                AT(VR_ADDR_OPND, k, "address element %u of A%u (%u elements)", x->row, (unsigned)x->id, n);
        }

        /* regions and extents (instructions whose operands follow the execution size) */
        if (alu && has_e && ir_exec_code_valid(inst->exec) && (x->cls == VC_GENERAL || x->cls == VC_INDIRECT) && x->region) {
            check_general_region(v, inst, k, x, is_dst, exec, what);
            if (x->cls == VC_GENERAL) check_general_extent(v, inst, k, x, is_dst, exec, what);
        }
        if (is_dst && x->cls == VC_GENERAL && predef_readonly(x->id))
            AT(VR_PREDEF_WRITE, k, "predefined variable %s is read-only", isa_predef_vars[x->id].name);
        if (is_dst && x->cls == VC_GENERAL && x->id == 6 && !(x->row == 0 && x->col == 4 && exec == 1))
            AT(VR_PREDEF_WRITE, k, "only the pause counter %%tsc(0,4) of %%tsc may be written");

        /* types */
        if (form == VISA_FORM_ADDR_ADD && my_vk == 2) {
            int t = vec_type(v, x);
            if (t >= 0 && t != VISA_TYPE_UW)
                AT(VR_ADDR_ADD_SRC1, k, "addr_add's second source has type %s (must be uw)", isa_types[t].name);
        }
        if (typed) {
            int t = vec_type(v, x);
            if (t < 0) continue;
            if (my_vk == 0 && (alu ? ndst > 0 : false)) {
                if (x->cls == VC_GENERAL && x->id == 0) continue; /* %null takes any type */
                dst_type = t, dst_k = k;
                if (!isa_type_legal(F->typeset, v->plat, true, (unsigned)t))
                    AT(VR_TYPE_SUPPORTED, k, "'%s' does not support destination type %s on %s", mn,
                       isa_types[t].name, plats[v->plat]);
            } else if (my_vk >= ndst && nsrc < 8) {
                src_k[nsrc] = k, src_t[nsrc++] = t;
                if (!isa_type_legal(F->typeset, v->plat, false, (unsigned)t))
                    AT(VR_TYPE_SUPPORTED, k, "'%s' does not support source type %s on %s", mn,
                       isa_types[t].name, plats[v->plat]);
            }
        }
    }
    (void)dst_k;

    /* type maps: one map must admit the dst and every source together */
    if (typed && (dst_type >= 0 || nsrc)) {
        uint32_t mask = 0;
        bool each = true;
        for (unsigned i = 0; i < nsrc; i++) {
            mask |= 1u << src_t[i];
            each = each && isa_type_legal(F->typeset, v->plat, false, (unsigned)src_t[i]);
        }
        if (each && (dst_type < 0 || isa_type_legal(F->typeset, v->plat, true, (unsigned)dst_type)) &&
            !isa_types_legal(F->typeset, v->plat, dst_type, mask)) {
            int at = -1;
            for (unsigned i = 0; i < nsrc && at < 0; i++)
                if (!isa_types_legal(F->typeset, v->plat, dst_type, 1u << src_t[i])) at = src_k[i];
            if (at < 0) at = nsrc ? src_k[nsrc - 1] : -1;
            char types[96] = "";
            size_t len = 0;
            for (unsigned i = 0; i < nsrc && len < sizeof types - 8; i++)
                len += (size_t)snprintf(types + len, sizeof types - len, "%s%s", i ? ", " : "",
                                        isa_types[src_t[i]].name);
            AT(VR_TYPE_MAP, at, "no type map of '%s' has destination %s with sources %s", mn,
               dst_type >= 0 ? isa_types[dst_type].name : "(none)", types);
        }
    }

    /* predicate operands */
    if ((F->flags & VF_PRED_OPND) && isa_form_group(form) == G_LOGIC && any_pred) {
        if (!all_pred) AT(VR_PRED_OPND_MODE, first_nonpred, "'%s' on predicates: every operand must be a predicate", mn);
        if (inst->pred) AT(VR_PRED_OPND_MODE, -1, "'%s' on predicates cannot be predicated", mn);
    }
    if (form == VISA_FORM_MOV && inst->nopnd >= 2 && inst->opnd[1].u.vec.cls == VC_PREDICATE) {
        const ir_vec *d = &inst->opnd[0].u.vec;
        int t = vec_type(v, d);
        unsigned pid = inst->opnd[1].u.vec.id;
        unsigned pn = pid >= 1 && pid <= r->preds.len ? r->preds.data[pid - 1].num_elts : 0;
        if (ir_exec_lanes(inst->exec) != 1) AT(VR_PRED_OPND_MODE, -1, "mov from a predicate needs execution size 1");
        else if (inst->pred) AT(VR_PRED_OPND_MODE, -1, "mov from a predicate cannot be predicated");
        else if (d->mod == VM_SAT) AT(VR_PRED_OPND_MODE, 0, "mov from a predicate cannot saturate");
        else if (t >= 0 && !(d->cls == VC_GENERAL && d->id == 0) &&
                 ((t != VISA_TYPE_UB && t != VISA_TYPE_UW && t != VISA_TYPE_UD) || isa_types[t].bytes * 8u < pn))
            AT(VR_PRED_OPND_MODE, 0, "mov from a %u-element predicate needs a ub, uw or ud destination of at "
               "least %u bits", pn, pn);
    }

    /* per-page notes of the message, systolic and control-flow instructions (msgs.c) */
    vf_check_notes(v, inst);
}

void vf_check_insts(vf *v) {
    for (uint32_t i = 0; i < v->r->insts.len; i++) check_inst(v, &v->r->insts.data[i]);
}
