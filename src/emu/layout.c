/* layout.c -- places every variable of a routine in the per-thread flat array (docs/emulator.md):
** inputs at their declared offsets from r0, %r0 at 0, the other user variables first-fit after
** the inputs honouring alignment and the no-GRF-crossing rule, the remaining predefined variables
** after the GRF file.  Aliases share their parent's bytes.
*/
#include <string.h>

#include "lower.h"

static uint32_t align_bytes(unsigned code, uint32_t grf) {
    static const uint32_t fixed[10] = {1, 2, 4, 8, 16, 0, 0, 32, 64, 128};
    if (code == 5) return grf;
    if (code == 6) return 2 * grf;
    return code < 10 ? fixed[code] : 1;
}

static uint32_t round_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* An interval list of used bytes in the GRF file (kept small: inputs and r0). */
typedef struct span {
    uint32_t lo, hi;
} span;

static bool overlaps(const span *s, unsigned n, uint32_t lo, uint32_t hi) {
    for (unsigned i = 0; i < n; i++)
        if (lo < s[i].hi && s[i].lo < hi) return true;
    return false;
}

visa_status emu_layout_build(visa_ctx *ctx, const ir_routine *r, visa_platform plat, const emu_layout *kernel,
                             emu_layout *lay, diag_sink *ds) {
    memset(lay, 0, sizeof *lay);
    lay->grf_bytes = visa_platform_grf_bytes(plat);
    lay->num_grf = 128;
    for (uint32_t i = 0; i < r->attrs.len; i++) {
        const ir_attr *a = &r->attrs.data[i];
        if (!strcmp(ir_str(r, a->name), "NumGRF") && a->size == 4) {
            uint32_t v = (uint32_t)a->value[0] | ((uint32_t)a->value[1] << 8) | ((uint32_t)a->value[2] << 16) |
                         ((uint32_t)a->value[3] << 24);
            if (v >= 1 && v <= 1024) lay->num_grf = v;
        }
    }
    const uint32_t grf = lay->grf_bytes;
    lay->nvars = ISA_NUM_PREDEF_VARS + r->vars.len;
    lay->var_off = vx_alloc(ctx, sizeof(uint32_t) * lay->nvars);
    bool *placed = vx_alloc(ctx, lay->nvars);
    span *used = vx_alloc(ctx, sizeof(span) * (r->inputs.len + 2));
    if (!lay->var_off || !placed || !used) {
        vx_free(ctx, placed, lay->nvars);
        vx_free(ctx, used, sizeof(span) * (r->inputs.len + 2));
        emu_layout_free(ctx, lay);
        return VISA_E_NOMEM;
    }
    unsigned nused = 0;
    uint32_t end = grf;
    visa_status st = VISA_OK;
    if (kernel) {
        /* a function: the predefined variables are the kernel's (one %arg, %retval, %sp, ...
        ** per thread); its own variables go after everything laid out so far */
        for (unsigned id = 0; id < ISA_NUM_PREDEF_VARS && id < kernel->nvars; id++) {
            lay->var_off[id] = kernel->var_off[id];
            placed[id] = true;
        }
        end = kernel->file_bytes;
        lay->num_grf = kernel->num_grf;
        lay->addr_slot0 = kernel->addr_slot0 + kernel->naddr_slots;
        lay->pred_base = kernel->pred_base + kernel->npreds;
    } else {
        /* %r0 is r0 */
        lay->var_off[VISA_PREDEF_R0] = 0;
        placed[VISA_PREDEF_R0] = true;
        used[nused++] = (span){0, grf};
    }
    for (uint32_t i = 0; i < r->inputs.len && !kernel; i++) {
        const ir_input *in = &r->inputs.data[i];
        if ((in->kind & 7) != IN_GENERAL) continue;
        if (in->offset < 0 || in->id >= lay->nvars) {
            emu_diag(ds, EDIAG_LOWER_INPUT_OFFSET, in->line, in->col, in->offset);
            st = VISA_E_UNSUPPORTED;
            continue;
        }
        lay->var_off[in->id] = (uint32_t)in->offset;
        placed[in->id] = true;
        uint32_t hi = (uint32_t)in->offset + ir_var_bytes(r, in->id);
        used[nused++] = (span){(uint32_t)in->offset, hi};
        if (hi > end) end = hi;
    }
    /* user variables: first fit after the inputs, aligned, within one GRF if smaller */
    uint32_t next = round_up(end, grf);
    for (uint32_t i = 0; i < r->vars.len; i++) {
        uint32_t id = ISA_NUM_PREDEF_VARS + i;
        const ir_var *v = &r->vars.data[i];
        if (placed[id] || v->has_alias) continue;
        uint32_t size = (uint32_t)v->num_elts * isa_types[v->type].bytes;
        uint32_t al = align_bytes(v->align, grf);
        if (al < isa_types[v->type].bytes) al = isa_types[v->type].bytes;
        uint32_t off = round_up(next, al);
        if (size <= grf && off / grf != (off + size - 1) / grf) off = round_up(off, grf);
        if (size > grf) off = round_up(off, grf);
        while (overlaps(used, nused, off, off + size)) off += al;
        if ((uint64_t)off + size > EMU_MAX_FILE_BYTES) {
            emu_diag(ds, EDIAG_LOWER_VAR_LIMIT, v->line, v->col, EMU_MAX_FILE_BYTES);
            st = VISA_E_UNSUPPORTED;
            break;
        }
        lay->var_off[id] = off;
        placed[id] = true;
        next = off + size;
    }
    uint32_t file =
        kernel ? next : round_up(next > (uint32_t)lay->num_grf * grf ? next : (uint32_t)lay->num_grf * grf, grf);
    /* remaining predefined variables after the GRF file */
    for (unsigned id = 0; id < isa_predef_var_count; id++) {
        if (placed[id]) continue;
        uint32_t size = isa_predef_vars[id].num_elts * isa_types[isa_predef_vars[id].type].bytes;
        file = round_up(file, 8);
        lay->var_off[id] = file;
        placed[id] = true;
        file += size;
    }
    /* aliases (a parent is always declared before its alias) */
    for (uint32_t i = 0; i < r->vars.len; i++) {
        const ir_var *v = &r->vars.data[i];
        if (!v->has_alias) continue;
        uint32_t id = ISA_NUM_PREDEF_VARS + i;
        uint32_t parent = v->alias_id < lay->nvars ? v->alias_id : 0;
        uint64_t lo = (uint64_t)lay->var_off[parent] + v->alias_off,
                 hi = lo + (uint64_t)v->num_elts * isa_types[v->type].bytes;
        if (hi > EMU_MAX_FILE_BYTES) {
            emu_diag(ds, EDIAG_LOWER_ALIAS_LIMIT, v->line, v->col, (unsigned long long)v->alias_off,
                     EMU_MAX_FILE_BYTES);
            st = VISA_E_UNSUPPORTED;
            break;
        }
        lay->var_off[id] = (uint32_t)lo;
        if (hi > file) file = (uint32_t)hi;
    }
    lay->file_bytes = round_up(file, 64);
    if (st == VISA_OK && lay->file_bytes > EMU_MAX_FILE_BYTES) {
        emu_diag(ds, EDIAG_LOWER_FILE_LIMIT, r->line, 0, lay->file_bytes, EMU_MAX_FILE_BYTES);
        st = VISA_E_UNSUPPORTED;
    }
    /* address variables */
    lay->naddrs = r->addrs.len + 1;
    lay->addr_base = vx_alloc(ctx, sizeof(uint32_t) * lay->naddrs);
    if (!lay->addr_base) st = VISA_E_NOMEM;
    for (uint32_t i = 0; st == VISA_OK && i < r->addrs.len; i++) {
        lay->addr_base[i] = lay->addr_slot0 + lay->naddr_slots;
        lay->naddr_slots += r->addrs.data[i].num_elts;
    }
    lay->npreds = r->preds.len;
    lay->nsurfs = ISA_NUM_PREDEF_SURFS + r->surfaces.len;
    lay->nsamps = r->samplers.len;
    lay->surf_slot = vx_alloc(ctx, sizeof(uint32_t) * lay->nsurfs);
    lay->samp_slot = vx_alloc(ctx, sizeof(uint32_t) * (lay->nsamps + 1));
    if (!lay->surf_slot || !lay->samp_slot) st = VISA_E_NOMEM;
    if (st == VISA_OK) {
        uint32_t slot = kernel ? kernel->state_end : 0;
        for (uint32_t id = 0; id < ISA_NUM_PREDEF_SURFS; id++)
            lay->surf_slot[id] = kernel ? kernel->surf_slot[id] : slot++;
        for (uint32_t i = 0; i < r->surfaces.len; i++) {
            lay->surf_slot[ISA_NUM_PREDEF_SURFS + i] = slot;
            slot += r->surfaces.data[i].num_elts ? r->surfaces.data[i].num_elts : 1;
        }
        for (uint32_t i = 0; i < r->samplers.len; i++) {
            lay->samp_slot[i] = slot;
            slot += r->samplers.data[i].num_elts ? r->samplers.data[i].num_elts : 1;
        }
        lay->state_end = slot;
    }
    vx_free(ctx, placed, lay->nvars);
    vx_free(ctx, used, sizeof(span) * (r->inputs.len + 2));
    if (st != VISA_OK) emu_layout_free(ctx, lay);
    return st;
}

void emu_layout_free(visa_ctx *ctx, emu_layout *lay) {
    vx_free(ctx, lay->var_off, sizeof(uint32_t) * lay->nvars);
    vx_free(ctx, lay->addr_base, sizeof(uint32_t) * lay->naddrs);
    vx_free(ctx, lay->surf_slot, sizeof(uint32_t) * lay->nsurfs);
    vx_free(ctx, lay->samp_slot, sizeof(uint32_t) * (lay->nsamps + 1));
    lay->var_off = NULL;
    lay->addr_base = NULL;
    lay->surf_slot = NULL;
    lay->samp_slot = NULL;
}
