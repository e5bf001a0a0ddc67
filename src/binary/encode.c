/* encode.c -- module IR to a vISA 4.1 object, byte for byte what IGC's last writer produced
** (formats.md section 1), or to our 4.2 layout (4.1 with the variable type and alignment in a
** byte each; docs/binary-format.md): header, then each kernel object, then each function object.  The
** instruction operands are written by walking the form's layout codes from ops.def; nothing
** here knows individual opcodes except the few codec quirks listed in docs/binary-quirks.md.
*/
#include <string.h>

#include "ir/ir.h"

static void put8(strbuf *b, unsigned v) { sb_putc(b, (char)(v & 0xFF)); }
static void put16(strbuf *b, unsigned v) {
    put8(b, v);
    put8(b, v >> 8);
}
static void put32(strbuf *b, uint32_t v) {
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}
static void put64(strbuf *b, uint64_t v) {
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}
static void patch32(strbuf *b, size_t at, uint32_t v) {
    if (b->oom || at + 4 > b->len) return;
    for (int i = 0; i < 4; i++) b->data[at + (size_t)i] = (char)((v >> (8 * i)) & 0xFF);
}

static void put_attrs(strbuf *b, const ir_attr *a, unsigned n, bool count16) {
    if (count16) put16(b, n);
    else put8(b, n);
    for (unsigned i = 0; i < n; i++) {
        put32(b, a[i].name);
        put8(b, a[i].size);
        sb_putn(b, (const char *)a[i].value, a[i].size);
    }
}

static void put_vec(strbuf *b, const ir_vec *v) {
    unsigned tag = (unsigned)(v->mod & 7) << 3;
    switch (v->cls) {
    case VC_GENERAL:
        put8(b, tag | VC_GENERAL);
        put32(b, v->id);
        put8(b, v->row);
        put8(b, v->col);
        put16(b, v->region);
        break;
    case VC_ADDROF: /* written as a general operand <0;1,0> */
        put8(b, tag | VC_GENERAL);
        put32(b, v->id);
        put8(b, v->row);
        put8(b, v->col);
        put16(b, IR_REGION(1, 2, 1));
        break;
    case VC_ADDRESS:
        put8(b, tag | VC_ADDRESS);
        put16(b, v->id);
        put8(b, v->row);
        put8(b, v->col);
        break;
    case VC_PREDICATE:
        put8(b, tag | VC_PREDICATE);
        put16(b, ir_pred_make(v->id, IR_PRED_SEQ, false));
        break;
    case VC_INDIRECT:
        put8(b, tag | VC_INDIRECT);
        put16(b, v->id);
        put8(b, v->addr_elem);
        put16(b, (uint16_t)v->ind_off);
        put8(b, isa_types[v->type].code & 0xF);
        put16(b, v->region);
        break;
    case VC_IMMEDIATE:
        put8(b, tag | VC_IMMEDIATE);
        put8(b, isa_types[v->type].code & 0xF);
        if (v->type == VISA_TYPE_DF || v->type == VISA_TYPE_Q || v->type == VISA_TYPE_UQ) put64(b, v->imm);
        else put32(b, (uint32_t)v->imm);
        break;
    case VC_STATE:
        put8(b, tag | VC_STATE);
        put8(b, v->state_cls);
        put16(b, v->id);
        put8(b, v->row);
        break;
    }
}

/* Write one instruction by its layout. */
static void put_inst(strbuf *b, const ir_inst *inst) {
    const isa_form *F = &isa_forms[inst->form];
    put8(b, F->opcode);
    const char *layout = F->parent >= 0 ? isa_forms[F->parent].layout : F->layout;
    unsigned k = 0;
    unsigned fixed = 0; /* stored operands before a trailing list */
    for (const char *c = layout; *c; c++) {
        if (*c == 'o') {
            put8(b, (unsigned)F->sub);
            layout = F->layout; /* continue with the sub-row's codes */
            c = layout - 1;
            continue;
        }
        switch (*c) {
        case 'E': put8(b, inst->exec); break;
        case 'P': put16(b, inst->pred); break;
        case '#': {
            const char *star = strchr(c, '*');
            fixed = 0;
            for (const char *d = layout; d < star; d++)
                if (!strchr("EPo#!", *d)) fixed++;
            put8(b, inst->nopnd > fixed ? inst->nopnd - fixed : 0);
            break;
        }
        case '*':
            c++; /* the list: every remaining operand */
            /* fall through */
        case '!':
            while (k < inst->nopnd) {
                const ir_opnd *o = &inst->opnd[k++];
                switch (o->kind) {
                case 'R':
                    put32(b, o->u.raw.id);
                    put16(b, o->u.raw.offset);
                    break;
                case 'L': put16(b, o->u.label); break;
                case 'V':
                case 'v':
                case '&': put_vec(b, &o->u.vec); break;
                case 'w': put16(b, (unsigned)o->u.num); break;
                case 'd':
                case 'i': put32(b, (uint32_t)o->u.num); break;
                default: put8(b, (unsigned)o->u.num); break;
                }
            }
            return;
        default: {
            if (k >= inst->nopnd) return;
            const ir_opnd *o = &inst->opnd[k++];
            switch (*c) {
            case 'V':
            case 'v':
            case '&': put_vec(b, &o->u.vec); break;
            case 'R':
                put32(b, o->u.raw.id);
                put16(b, o->u.raw.offset);
                break;
            case 'L': put16(b, o->u.label); break;
            case 'b': put8(b, (unsigned)o->u.num); break;
            case 'w': put16(b, (unsigned)o->u.num); break;
            case 'd':
            case 'i': put32(b, (uint32_t)o->u.num); break;
            case 's': put16(b, o->u.str); break;
            case 'S': put32(b, o->u.str); break;
            }
        }
        }
    }
}

static void put_state_list(strbuf *b, const ir_state_var *v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        put32(b, v[i].name);
        put16(b, v[i].num_elts);
        put_attrs(b, v[i].attrs.items, v[i].attrs.count, false);
    }
}

/* One routine object; *input_off receives the offset of input_count within it (kernels). */
static void put_routine(strbuf *b, const ir_routine *r, size_t *input_off, bool split_type_align) {
    size_t start = b->len;
    put32(b, r->strings.len);
    for (uint32_t i = 0; i < r->strings.len; i++) {
        sb_putn(b, r->strings.data[i].s, r->strings.data[i].len);
        put8(b, 0);
    }
    put32(b, r->name);
    put32(b, r->vars.len);
    for (uint32_t i = 0; i < r->vars.len; i++) {
        const ir_var *v = &r->vars.data[i];
        put32(b, v->name);
        if (split_type_align) { /* 4.2: type and alignment in a byte each */
            put8(b, isa_types[v->type].code);
            put8(b, v->align);
        } else {
            put8(b, (isa_types[v->type].code & 0xF) | (unsigned)(v->align << 4));
        }
        put16(b, v->num_elts);
        put32(b, v->has_alias ? v->alias_id : 0);
        put16(b, v->has_alias ? v->alias_off : 0);
        put8(b, 0); /* alias scope: file scope is gone */
        put_attrs(b, v->attrs.items, v->attrs.count, false);
    }
    put16(b, r->addrs.len);
    put_state_list(b, r->addrs.data, r->addrs.len);
    put16(b, r->preds.len);
    put_state_list(b, r->preds.data, r->preds.len);
    put16(b, r->labels.len);
    for (uint32_t i = 0; i < r->labels.len; i++) {
        put32(b, r->labels.data[i].name);
        put8(b, r->labels.data[i].kind);
        put8(b, 0);
    }
    put8(b, r->samplers.len);
    put_state_list(b, r->samplers.data, r->samplers.len);
    put8(b, r->surfaces.len);
    put_state_list(b, r->surfaces.data, r->surfaces.len);
    put8(b, 0); /* vme count */
    if (r->is_kernel) {
        *input_off = b->len - start;
        put32(b, r->inputs.len);
        for (uint32_t i = 0; i < r->inputs.len; i++) {
            const ir_input *in = &r->inputs.data[i];
            put8(b, in->kind);
            put32(b, in->id);
            put16(b, (uint16_t)in->offset);
            put16(b, in->size);
        }
    }
    size_t size_at = b->len;
    put32(b, 0); /* size, patched */
    put32(b, 0); /* entry, patched */
    if (!r->is_kernel) {
        put8(b, r->input_size);
        put8(b, r->return_size);
    }
    put16(b, r->attrs.len);
    for (uint32_t i = 0; i < r->attrs.len; i++) {
        put32(b, r->attrs.data[i].name);
        put8(b, r->attrs.data[i].size);
        sb_putn(b, (const char *)r->attrs.data[i].value, r->attrs.data[i].size);
    }
    size_t entry = b->len - start;
    for (uint32_t i = 0; i < r->insts.len; i++) put_inst(b, &r->insts.data[i]);
    patch32(b, size_at, (uint32_t)(b->len - start - entry));
    patch32(b, size_at + 4, (uint32_t)entry);
}

/* -- What the object format can hold ------------------------------------------------------- */
/* A count or length the writer stores in `bits` bits; false (with a diagnostic naming the field
** and its limit) when it does not fit. */
static bool fits(diag_sink *ds, const ir_routine *r, uint64_t value, unsigned bits, const char *what) {
    uint64_t max = (UINT64_C(1) << bits) - 1;
    if (value <= max) return true;
    const ir_string *name = r ? &r->strings.data[r->name < r->strings.len ? r->name : 0] : NULL;
    diag_at_offset(ds, VISA_SEV_ERROR, "E-LIMIT", VISA_DIAG_NO_OFFSET,
                   "%s%.*s%s%s of %llu exceeds the object format's %u-bit field (at most %llu)",
                   r ? (r->is_kernel ? "kernel \"" : "function \"") : "",
                   name ? (int)(name->len > 64 ? 64 : name->len) : 0, name ? name->s : "",
                   name && name->len > 64 ? "...\": "
                   : r                    ? "\": "
                                          : "",
                   what, (unsigned long long)value, bits, (unsigned long long)max);
    return false;
}

/* Every count, length and index the writer stores in a narrow field, checked before writing. */
static bool check_limits(const visa_module *m, diag_sink *ds) {
    uint32_t nk = 0, nf = 0;
    bool ok = true;
    for (uint32_t i = 0; i < m->routines.len; i++) {
        const ir_routine *r = &m->routines.data[i];
        if (r->is_kernel) nk++;
        else nf++;
        const ir_string *name = &r->strings.data[r->name < r->strings.len ? r->name : 0];
        if (name->len > 0xFFFF) {
            diag_at_offset(ds, VISA_SEV_ERROR, "E-LIMIT", VISA_DIAG_NO_OFFSET,
                           "%s name of %u bytes exceeds the object format's 16-bit length field",
                           r->is_kernel ? "kernel" : "function", name->len);
            ok = false;
        }
        ok &= fits(ds, r, r->addrs.len, 16, "address variable count");
        ok &= fits(ds, r, r->preds.len, 16, "predicate variable count");
        ok &= fits(ds, r, r->labels.len, 16, "label count");
        ok &= fits(ds, r, r->samplers.len, 8, "sampler count");
        ok &= fits(ds, r, r->surfaces.len, 8, "surface count");
        ok &= fits(ds, r, r->attrs.len, 16, "attribute count");
        ok &= fits(ds, r, r->gen_binaries.len, 8, "gen binary count");
        for (uint32_t k = 0; k < r->vars.len; k++)
            ok &= fits(ds, r, r->vars.data[k].attrs.count, 8, "variable attribute count");
        /* before 4.2 a variable's type shares a byte with its alignment: 4 bits, types 0..15 */
        for (uint32_t k = 0; !(m->major == 4 && m->minor >= 2) && k < r->vars.len; k++)
            ok &= fits(ds, r, isa_types[r->vars.data[k].type].code, 4, "variable type code (vISA 4.2 has 8 bits)");
        const VEC(ir_state_var) *const lists[4] = {(const void *)&r->addrs, (const void *)&r->preds,
                                                   (const void *)&r->samplers, (const void *)&r->surfaces};
        for (int l = 0; l < 4; l++)
            for (uint32_t k = 0; k < lists[l]->len; k++)
                ok &= fits(ds, r, lists[l]->data[k].attrs.count, 8, "variable attribute count");
        /* operands written in 16 bits: string indices ('s'), label ids ('L') */
        for (uint32_t k = 0; k < r->insts.len; k++)
            for (unsigned o = 0; o < r->insts.data[k].nopnd; o++) {
                const ir_opnd *op = &r->insts.data[k].opnd[o];
                if (op->kind == 's') ok &= fits(ds, r, op->u.str, 16, "string index operand");
            }
        if (ds->errors > 20) break; /* enough said */
    }
    ok &= fits(ds, NULL, nk, 16, "kernel count");
    ok &= fits(ds, NULL, nf, 16, "function count");
    return ok;
}

visa_status visa_module_encode(const visa_module *m, visa_platform platform, uint8_t **out, size_t *out_len) {
    if (!m || !out || !out_len || (unsigned)platform >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    *out = NULL;
    *out_len = 0;
    diag_sink ds;
    diag_init(&ds, m->ctx, m->name, NULL, 0);
    if (!check_limits(m, &ds)) return VISA_E_UNSUPPORTED;
    /* every allocation of the writer goes through the guard: one failure fails the encode */
    vx_guard guard;
    vx_guard_init(&guard, m->ctx, &ds);
    strbuf hdr, body;
    sb_init(&hdr, &guard.ctx);
    sb_init(&body, &guard.ctx);
    uint32_t nk = 0, nf = 0;
    for (uint32_t i = 0; i < m->routines.len; i++) {
        if (m->routines.data[i].is_kernel) nk++;
        else nf++;
    }
    /* header with placeholder offsets: kernels then functions */
    put32(&hdr, 0x41534943u);
    put8(&hdr, m->major);
    put8(&hdr, m->minor);
    put16(&hdr, nk);
    size_t *slot = vx_alloc(&guard.ctx, sizeof(size_t) * (m->routines.len + 1));
    if (!slot) {
        sb_free(&hdr);
        return VISA_E_NOMEM;
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            put16(&hdr, 0); /* file-scope variables */
            put16(&hdr, nf);
        }
        for (uint32_t i = 0; i < m->routines.len; i++) {
            const ir_routine *r = &m->routines.data[i];
            if (r->is_kernel != (pass == 0)) continue;
            const ir_string *name = &r->strings.data[r->name < r->strings.len ? r->name : 0];
            if (pass == 1) put8(&hdr, 0); /* linkage */
            put16(&hdr, name->len);
            sb_putn(&hdr, name->s, name->len);
            slot[i] = hdr.len;
            put32(&hdr, 0); /* offset */
            put32(&hdr, 0); /* size */
            if (pass == 0) put32(&hdr, 0); /* input offset */
            put16(&hdr, 0);
            put16(&hdr, 0);
            if (pass == 0) { /* gen binaries: platform, offset (patched), size */
                put8(&hdr, r->gen_binaries.len);
                for (uint32_t g = 0; g < r->gen_binaries.len; g++) {
                    put8(&hdr, r->gen_binaries.data[g].platform);
                    put32(&hdr, 0);
                    put32(&hdr, r->gen_binaries.data[g].size);
                }
            }
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < m->routines.len; i++) {
            const ir_routine *r = &m->routines.data[i];
            if (r->is_kernel != (pass == 0)) continue;
            size_t start = body.len, input_off = 0;
            put_routine(&body, r, &input_off, m->major == 4 && m->minor >= 2);
            uint32_t off = (uint32_t)(hdr.len + start);
            patch32(&hdr, slot[i], off);
            patch32(&hdr, slot[i] + 4, (uint32_t)(body.len - start));
            if (pass == 0) patch32(&hdr, slot[i] + 8, off + (uint32_t)input_off);
            /* the kernel's native code follows it (IGC's finalizeCisaBinary order) */
            for (uint32_t g = 0; g < r->gen_binaries.len; g++) {
                const ir_gen_binary *gb = &r->gen_binaries.data[g];
                patch32(&hdr, slot[i] + 18 + 9 * g, (uint32_t)(hdr.len + body.len));
                if (gb->size) sb_putn(&body, (const char *)gb->bytes, gb->size);
            }
        }
    }
    vx_free(m->ctx, slot, sizeof(size_t) * (m->routines.len + 1));
    sb_putn(&hdr, body.data ? body.data : "", body.len);
    bool oom = body.oom || guard.failed;
    sb_free(&body);
    if (!oom && !fits(&ds, NULL, hdr.len, 32, "object size (routine offsets)")) {
        sb_free(&hdr);
        return VISA_E_UNSUPPORTED;
    }
    uint8_t *p = oom || hdr.oom ? NULL : vx_realloc(&guard.ctx, hdr.data, hdr.cap, hdr.len ? hdr.len : 1);
    if (!p) {
        sb_free(&hdr);
        return VISA_E_NOMEM;
    }
    *out = p;
    *out_len = hdr.len;
    return VISA_OK;
}

visa_ctx *visa_module_ctx(const visa_module *m) { return m ? m->ctx : NULL; }
