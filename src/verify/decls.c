/* decls.c -- the verifier's module, declaration, input and label rules (4_visa_header,
** 3_execution_model).  Declarations decoded from an object have no source position: their
** diagnostics carry byte offset 0 and name the variable.
*/
#include <string.h>

#include "verify_int.h"

/* -- Module ------------------------------------------------------------------------------------ */
static uint64_t attr_int(const ir_attr *a) {
    uint64_t x = 0;
    for (unsigned i = 0; i < a->size && i < 8; i++) x |= (uint64_t)a->value[i] << (8 * i);
    return x;
}

void vf_check_module(vf *v) {
    const visa_module *m = v->m;
    /* routine names seen so far, by hash (open addressing, index + 1, 0 = empty): the duplicate
    ** check is linear in the number of routines */
    uint32_t nslots = 16;
    while (nslots < 2 * (m->routines.len + 1)) nslots *= 2;
    uint32_t *slots = vx_alloc(m->ctx, sizeof(uint32_t) * nslots);
    if (!slots) {
        diag_oom(&v->ds);
        return;
    }
    for (uint32_t i = 0; i < m->routines.len; i++) {
        const ir_routine *r = &m->routines.data[i];
        v->r = r;
        const char *name = ir_str(r, r->name);
        uint32_t at = vx_hash_str(name) & (nslots - 1);
        for (; slots[at]; at = (at + 1) & (nslots - 1)) {
            const ir_routine *q = &m->routines.data[slots[at] - 1];
            if (strcmp(ir_str(q, q->name), name) == 0) {
                vf_report(v, VR_ROUTINE_DUP, r->line, 1, 0, "%s '%s' has the same name as the %s on line %u",
                          r->is_kernel ? "kernel" : "function", name, q->is_kernel ? "kernel" : "function",
                          (unsigned)q->line);
                break;
            }
        }
        if (!slots[at]) slots[at] = i + 1; /* the first routine of a name stays the one cited */
        if (strlen(name) > 1023)
            vf_report(v, VR_NAME_LENGTH, r->line, 1, 0, "routine name is %zu characters long (at most 1023)",
                      strlen(name));
        for (uint32_t k = 0; k < r->attrs.len; k++) {
            const ir_attr *a = &r->attrs.data[k];
            const char *an = ir_str(r, a->name);
            if (a->is_str) continue;
            uint64_t x = attr_int(a);
            const char *why = NULL;
            if (!strcmp(an, "SimdSize") && a->size && x != 8 && x != 16 && x != 32) why = "is 8, 16 or 32";
            else if (!strcmp(an, "SLMSize") && x > 64) why = "is 0-64 (KB)";
            else if (!strcmp(an, "ArgSize") && x > 32) why = "is 0-32 (GRFs)";
            else if (!strcmp(an, "RetValSize") && x > 12) why = "is 0-12 (GRFs)";
            else if (!strcmp(an, "SpillMemOffset") && x % v->grf) why = "is a multiple of the GRF size";
            if (why)
                vf_report(v, VR_ATTR_VALUE, a->line, a->col, 0, "attribute %s=%llu: the value %s", an,
                          (unsigned long long)x, why);
        }
        if (!r->is_kernel && (r->input_size > 32 || r->return_size > 12))
            vf_report(v, VR_FUNC_ARG_SIZE, r->line, 1, 0,
                      "function '%s' has input size %u and return size %u GRFs (at most 32 and 12)", name,
                      r->input_size, r->return_size);
    }
    vx_free(m->ctx, slots, sizeof(uint32_t) * nslots);
    v->r = NULL;
}

/* -- Declarations ------------------------------------------------------------------------------ */
static bool predef_aliasable(uint32_t id) { return id == 7 || id == 8 || id == 9 || id == 18 || id == 19; }

void vf_check_decls(vf *v) {
    const ir_routine *r = v->r;
    char nb[32], pb[32];
    for (uint32_t k = 0; k < r->vars.len; k++) {
        const ir_var *x = &r->vars.data[k];
        uint32_t id = ISA_NUM_PREDEF_VARS + k;
        const char *name = vf_var_name(v, id, nb, sizeof nb);
        uint32_t line = x->line, col = x->col;
        if (strlen(name) > 64)
            vf_report(v, VR_NAME_LENGTH, line, col, 0, "variable name is %zu characters long (at most 64)",
                      strlen(name));
        unsigned t = x->type;
        /* IGC's verifyVariableDecl refuses the immediate-only types (packed vectors, bool); the
        ** spec's list is UD..F and BF from XeHP, without the newer tf32, hf8, bf8, e2m1 (a
        ** warning: IGC declares them, and a bf operand before XeHP is V-TYPE-SUPPORTED) */
        bool igc_ok = t < VISA_TYPE__COUNT && isa_types[t].cls != TC_PACKED && isa_types[t].cls != TC_BOOL;
        bool spec_ok = t <= VISA_TYPE_BF && (t != VISA_TYPE_BF || v->plat >= P_XEHP);
        if (!igc_ok || !spec_ok)
            vf_report(v, igc_ok ? VR_DECL_TYPE_SPEC : VR_DECL_TYPE, line, col, 0,
                      "variable '%s' has type %s, which %s%s", name, t < VISA_TYPE__COUNT ? isa_types[t].name : "?",
                      igc_ok ? "the spec does not give a general variable" : "a general variable may not have",
                      t == VISA_TYPE_BF ? " before XeHP" : "");
        if (x->num_elts < 1 || x->num_elts > 4096)
            vf_report(v, VR_DECL_NUM_ELTS, line, col, 0, "variable '%s' has %u elements (1-4096)", name, x->num_elts);
        uint32_t bytes = t < VISA_TYPE__COUNT ? (uint32_t)x->num_elts * isa_types[t].bytes : 0;
        if (bytes > 4096)
            vf_report(v, VR_DECL_SIZE, line, col, 0, "variable '%s' is %u bytes (at most 4096)", name, bytes);
        if (x->align > 9)
            vf_report(v, VR_DECL_ALIGN, line, col, 0, "variable '%s' has alignment code %u (0-9)", name, x->align);
        if (!x->has_alias) continue;
        if (x->alias_id == 0) {
            if (x->alias_off)
                vf_report(v, VR_ALIAS_PARENT, line, col, 0,
                          "variable '%s' is not an alias (parent %%null) but has alias offset %u", name, x->alias_off);
            continue;
        }
        if (x->alias_id == id || !vf_var_exists(v, x->alias_id)) {
            vf_report(v, VR_ALIAS_PARENT, line, col, 0, "variable '%s' aliases %s", name,
                      x->alias_id == id ? "itself" : "an undeclared variable");
            continue;
        }
        uint32_t root, roff;
        if (!vf_var_root(v, id, &root, &roff)) {
            vf_report(v, VR_ALIAS_PARENT, line, col, 0, "variable '%s' is part of an alias cycle", name);
            continue;
        }
        const char *pname = vf_var_name(v, x->alias_id, pb, sizeof pb);
        if (x->alias_id < ISA_NUM_PREDEF_VARS && !predef_aliasable(x->alias_id))
            vf_report(v, VR_ALIAS_PREDEF, line, col, 0, "predefined variable %s cannot be aliased", pname);
        uint32_t pbytes = vf_var_bytes(v, x->alias_id);
        /* IGC (IsaVerification.cpp verifyVariableDecl) bounds-checks an alias only while its
        ** parent is a declared variable, so an alias of a predefined one is only a warning */
        /* and only its start: an alias that starts inside its parent and runs past the end is
        ** V-ALIAS-END (a warning) */
        vrule_id bounds = x->alias_id < ISA_NUM_PREDEF_VARS ? VR_ALIAS_PREDEF_BOUNDS
                          : x->alias_off < pbytes           ? VR_ALIAS_END
                                                            : VR_ALIAS_BOUNDS;
        if (bytes && pbytes && (uint64_t)x->alias_off + bytes > pbytes)
            vf_report(v, bounds, line, col, 0, "alias '%s' covers bytes %u..%u of '%s', which has %u bytes", name,
                      x->alias_off, x->alias_off + bytes - 1, pname, pbytes);
        if (t < VISA_TYPE__COUNT && x->alias_off % isa_types[t].bytes)
            vf_report(v, VR_ALIAS_ALIGN, line, col, 0, "alias offset %u is not a multiple of %u (type %s)",
                      x->alias_off, isa_types[t].bytes, isa_types[t].name);
    }
    if (r->vars.len > 65536 - ISA_NUM_PREDEF_VARS) {
        const ir_var *x = &r->vars.data[65536 - ISA_NUM_PREDEF_VARS];
        vf_report(v, VR_DECL_COUNT, x->line, x->col, 0, "more than 65536 general variables");
    }
    struct {
        const char *what;
        const ir_state_var *d;
        uint32_t n, max;
    } cls[4] = {{"address", r->addrs.data, r->addrs.len, 4096},
                {"predicate", r->preds.data, r->preds.len, IR_PRED_MAX_ID},
                {"sampler", r->samplers.data, r->samplers.len, 32},
                {"surface", r->surfaces.data, r->surfaces.len, 256 - ISA_NUM_PREDEF_SURFS}};
    for (int c = 0; c < 4; c++) {
        for (uint32_t k = 0; k < cls[c].n; k++) {
            const ir_state_var *s = &cls[c].d[k];
            unsigned n = s->num_elts;
            bool ok = c == 0   ? n >= 1 && n <= 16
                      : c == 1 ? n == 1 || n == 2 || n == 4 || n == 8 || n == 16 || n == 32
                               : n >= 1;
            if (!ok)
                vf_report(v, VR_DECL_NUM_ELTS, s->line, s->col, 0, "%s variable '%s' has %u elements (%s)", cls[c].what,
                          ir_str(r, s->name), n,
                          c == 0   ? "1-16"
                          : c == 1 ? "1, 2, 4, 8, 16 or 32"
                                   : "at least 1");
            if (strlen(ir_str(r, s->name)) > 64)
                vf_report(v, VR_NAME_LENGTH, s->line, s->col, 0, "variable name is %zu characters long (at most 64)",
                          strlen(ir_str(r, s->name)));
        }
        if (cls[c].n > cls[c].max) {
            const ir_state_var *s = &cls[c].d[cls[c].max];
            vf_report(v, VR_DECL_COUNT, s->line, s->col, 0, "more than %u %s variables", cls[c].max, cls[c].what);
        }
    }
}

/* -- Inputs ------------------------------------------------------------------------------------ */
void vf_check_inputs(vf *v) {
    const ir_routine *r = v->r;
    char nb[32];
    bool seen_implicit = false;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        uint32_t line = in->line, col = in->col;
        uint32_t ocol = in->off_col ? in->off_col : col, scol = in->size_col ? in->size_col : col;
        if (i == 256) vf_report(v, VR_INPUT_COUNT, line, col, 0, "more than 256 inputs");
        unsigned cat = in->kind & 3, prov = in->kind >> 3;
        if (prov) seen_implicit = true;
        else if (seen_implicit) vf_report(v, VR_INPUT_ORDER, line, col, 0, "user input after an implicit input");
        bool exists = cat == IN_GENERAL   ? in->id >= ISA_NUM_PREDEF_VARS && vf_var_exists(v, in->id)
                      : cat == IN_SAMPLER ? in->id < r->samplers.len
                      : cat == IN_SURFACE
                          ? in->id >= ISA_NUM_PREDEF_SURFS && in->id - ISA_NUM_PREDEF_SURFS < r->surfaces.len
                          : false;
        if ((in->kind & 4) || !exists) {
            vf_report(v, VR_INPUT_VAR, line, col, 0, "input %u: %s", i,
                      (in->kind & 4) ? "kind bit 2 is reserved"
                      : cat == 3     ? "category 3 is reserved"
                                     : "no such variable");
            continue;
        }
        const char *name = cat == IN_GENERAL   ? vf_var_name(v, in->id, nb, sizeof nb)
                           : cat == IN_SAMPLER ? ir_str(r, r->samplers.data[in->id].name)
                                               : ir_str(r, r->surfaces.data[in->id - ISA_NUM_PREDEF_SURFS].name);
        if (in->offset < 0) {
            vf_report(v, VR_INPUT_OFFSET, line, ocol, 0, "input '%s' has negative offset %d", name, in->offset);
            continue;
        }
        unsigned align = 4, want = 0;
        if (cat == IN_GENERAL) {
            int t = vf_var_type(v, in->id);
            align = t >= 0 ? isa_types[t].bytes : 1;
            want = vf_var_bytes(v, in->id);
            const ir_var *x = &r->vars.data[in->id - ISA_NUM_PREDEF_VARS];
            if (x->has_alias && x->alias_id) vf_report(v, VR_INPUT_ALIAS, line, col, 0, "input '%s' is an alias", name);
        } else {
            want = 4u * (cat == IN_SAMPLER ? r->samplers.data[in->id].num_elts
                                           : r->surfaces.data[in->id - ISA_NUM_PREDEF_SURFS].num_elts);
        }
        if (in->offset % align)
            vf_report(v, VR_INPUT_ALIGN, line, ocol, 0, "input '%s' at offset %d is not %u-byte aligned", name,
                      in->offset, align);
        if (in->size != want)
            vf_report(v, VR_INPUT_SIZE, line, scol, 0, "input '%s' has size %u; its variable has %u bytes", name,
                      in->size, want);
        if (cat == IN_GENERAL && in->size) {
            unsigned off = (unsigned)in->offset, sz = in->size;
            /* IGC checks the straddling of a smaller input only: a misaligned larger one is
            ** V-INPUT-GRF-ALIGN (a warning) */
            if (sz >= v->grf ? off % v->grf != 0 : off / v->grf != (off + sz - 1) / v->grf)
                vf_report(v, sz >= v->grf ? VR_INPUT_GRF_ALIGN : VR_INPUT_GRF, line, ocol, 0,
                          sz >= v->grf ? "input '%s' (%u bytes) is not GRF-aligned at offset %u"
                                       : "input '%s' (%u bytes) crosses a GRF boundary at offset %u",
                          name, sz, off);
        }
        for (uint32_t j = 0; j < i; j++) {
            const ir_input *o = &r->inputs.data[j];
            if (o->offset < 0 || !o->size || !in->size) continue;
            int a0 = in->offset, a1 = in->offset + in->size, b0 = o->offset, b1 = o->offset + o->size;
            if (a0 < b1 && b0 < a1) {
                vf_report(v, VR_INPUT_OVERLAP, line, ocol, 0,
                          "input '%s' (bytes %d..%d) overlaps input %u (bytes %d..%d)", name, a0, a1 - 1, j, b0,
                          b1 - 1);
                break;
            }
        }
    }
}

/* -- Labels ------------------------------------------------------------------------------------- */
void vf_check_labels(vf *v) {
    const ir_routine *r = v->r;
    uint32_t n = r->labels.len;
    if (!n) return;
    /* definitions: LABEL and SUBROUTINE instructions */
    uint8_t *def = vx_alloc(v->m->ctx, n);
    if (!def) {
        diag_oom(&v->ds);
        return;
    }
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *inst = &r->insts.data[i];
        if (!(isa_forms[inst->form].flags & VF_LABEL_DEF) || inst->nopnd < 1) continue;
        uint32_t l = inst->opnd[0].u.label;
        if (l >= n) continue;
        if (def[l])
            vf_at_inst(v, VR_LABEL_DUP, inst, 0, "label '%s' is defined twice", ir_str(r, r->labels.data[l].name));
        def[l] = 1;
        unsigned want = inst->form == VISA_FORM_SUBROUTINE ? 1 : 0, kind = r->labels.data[l].kind;
        bool ok = want == 1 ? kind == 1 || kind == 2 || kind == 3 : kind == 0 || kind == 4;
        if (!ok)
            vf_at_inst(v, VR_LABEL_KIND, inst, 0, "%s defines '%s', a %s label",
                       want ? "a subroutine" : "a block label", ir_str(r, r->labels.data[l].name),
                       isa_enum_text(VISA_EN_label_kind, kind) ? isa_enum_text(VISA_EN_label_kind, kind) : "?");
    }
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *inst = &r->insts.data[i];
        if (isa_forms[inst->form].flags & VF_LABEL_DEF) continue;
        bool call = inst->form == VISA_FORM_CALL;
        for (uint16_t k = 0; k < inst->nopnd; k++) {
            if (inst->opnd[k].kind != 'L') continue;
            uint32_t l = inst->opnd[k].u.label;
            if (l >= n) {
                vf_at_inst(v, VR_LABEL_UNDEFINED, inst, k, "label id %u is not declared", l);
                continue;
            }
            const char *ln = ir_str(r, r->labels.data[l].name);
            if (!def[l] && r->labels.data[l].kind != 2) /* fc targets live elsewhere */
                vf_at_inst(v, VR_LABEL_UNDEFINED, inst, k, "label '%s' is never defined", ln);
            unsigned kind = r->labels.data[l].kind;
            if (call ? !(kind == 1 || kind == 2) : !(kind == 0 || kind == 4))
                vf_at_inst(v, VR_LABEL_KIND, inst, k, "%s targets '%s', a %s label", call ? "a call" : "a branch", ln,
                           isa_enum_text(VISA_EN_label_kind, kind) ? isa_enum_text(VISA_EN_label_kind, kind) : "?");
        }
    }
    vx_free(v->m->ctx, def, n);
}
