/* inputs.c -- a kernel's launch ABI as data (docs/launch.md): the model (CM or OpenCL), the
** per-thread payload and inline-data window, and each input's role, element type and whether any
** instruction reads it.
*/
#include <stdio.h>
#include <string.h>

#include "abi.h"

static uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

void emu_abi_of(const ir_routine *r, visa_platform plat, uint32_t per_thread, emu_abi *abi) {
    memset(abi, 0, sizeof *abi);
    abi->opencl = ir_attr_u32(r, "Target", 0) == 1;
    abi->simd = ir_attr_u32(r, "SimdSize", 0);
    abi->ptis = ir_attr_u32(r, "PerThreadInputSize", 0);
    if (!abi->ptis && abi->opencl && per_thread) {
        abi->ptis = per_thread;
        abi->ptis_runtime = true;
    }
    abi->grf = visa_platform_grf_bytes(plat);
    /* compute-runtime local_id_gen: a row is 64 bytes for SIMD32 or a 64-byte GRF, else 32 */
    unsigned simd = abi->simd ? abi->simd : 1;
    abi->row = round_up(2 * simd, abi->grf);
    /* the per-thread payload is loaded from r1 (vISA PayloadLoader), whole GRFs */
    abi->pt_begin = abi->pt_end = abi->grf;
    if (abi->ptis) abi->pt_end = abi->grf + round_up(abi->ptis, abi->grf);
    /* IGC's OpenCL kernels on XeHP and later get their first cross-thread bytes as inline data,
    ** in the GRF after the per-thread payload */
    if (abi->opencl && plat >= VISA_PLATFORM_XEHP) {
        abi->inl_begin = abi->pt_end;
        abi->inl_end = abi->pt_end + EMU_INLINE_DATA_BYTES;
    }
}

visa_input_role emu_input_role(const emu_abi *abi, const ir_input *in, int *dim) {
    *dim = -1;
    if ((in->kind & 7) == IN_SURFACE) return VISA_INPUT_SURFACE;
    if ((in->kind & 7) != IN_GENERAL) return VISA_INPUT_SAMPLER;
    if (in->kind >> 3) return VISA_INPUT_IMPLICIT;
    uint32_t off = in->offset < 0 ? UINT32_MAX : (uint32_t)in->offset;
    if (off >= abi->pt_begin && off < abi->pt_end) {
        *dim = (int)((off - abi->pt_begin) / abi->row);
        return VISA_INPUT_PER_THREAD;
    }
    if (off >= abi->inl_begin && off < abi->inl_end) return VISA_INPUT_INLINE;
    return VISA_INPUT_CROSS_THREAD;
}

const char *emu_input_name(const ir_routine *r, const ir_input *in, char *buf, size_t cap) {
    unsigned cls = in->kind & 7;
    if (cls == IN_GENERAL) {
        if (in->id < isa_predef_var_count) return isa_predef_vars[in->id].name;
        if (in->id >= ISA_NUM_PREDEF_VARS && in->id - ISA_NUM_PREDEF_VARS < r->vars.len)
            return ir_str(r, r->vars.data[in->id - ISA_NUM_PREDEF_VARS].name);
        snprintf(buf, cap, "V%u", in->id);
        return buf;
    }
    /* state inputs: their v_name (the text calls them T<n> / S<n>) */
    const ir_state_var *sv = NULL;
    if (cls == IN_SURFACE && in->id >= ISA_NUM_PREDEF_SURFS && in->id - ISA_NUM_PREDEF_SURFS < r->surfaces.len)
        sv = &r->surfaces.data[in->id - ISA_NUM_PREDEF_SURFS];
    if (cls == IN_SAMPLER && in->id < r->samplers.len) sv = &r->samplers.data[in->id];
    if (sv && *ir_str(r, sv->name)) return ir_str(r, sv->name);
    snprintf(buf, cap, "%c%u", cls == IN_SURFACE ? 'T' : 'S', in->id);
    return buf;
}

/* The variable an alias chain ends in (the input it may share bytes with). */
static uint32_t alias_root(const ir_routine *r, uint32_t id) {
    for (unsigned hops = 0; hops < 64 && id >= ISA_NUM_PREDEF_VARS && id - ISA_NUM_PREDEF_VARS < r->vars.len; hops++) {
        const ir_var *v = &r->vars.data[id - ISA_NUM_PREDEF_VARS];
        if (!v->has_alias) break;
        id = v->alias_id;
    }
    return id;
}

/* Whether an operand of some instruction names the input (or, for a general input, an alias of
** it).  Inputs are read-only, so a mention is a read. */
static bool input_read(const ir_routine *r, const ir_input *in) {
    unsigned cls = in->kind & 7;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *inst = &r->insts.data[i];
        for (unsigned k = 0; k < inst->nopnd; k++) {
            const ir_opnd *o = &inst->opnd[k];
            if (o->kind == 'R') {
                if (cls == IN_GENERAL && o->u.raw.id && alias_root(r, o->u.raw.id) == in->id) return true;
            } else if (o->kind == 'V' || o->kind == 'v' || o->kind == '&') {
                const ir_vec *v = &o->u.vec;
                if ((v->cls == VC_GENERAL || v->cls == VC_ADDROF) && cls == IN_GENERAL &&
                    alias_root(r, v->id) == in->id)
                    return true;
                if (v->cls == VC_STATE && cls != IN_GENERAL && v->id == in->id &&
                    (v->state_cls == VS_SURFACE) == (cls == IN_SURFACE))
                    return true;
            }
        }
    }
    return false;
}

size_t visa_kernel_input_count(const visa_module *m, const char *kernel) {
    const ir_routine *r = ir_find_kernel(m, kernel);
    return r ? r->inputs.len : 0;
}

visa_status visa_kernel_get_info(const visa_module *m, const char *kernel, visa_platform plat, visa_kernel_info *out) {
    const ir_routine *r = ir_find_kernel(m, kernel);
    if (!r || !out || out->struct_size < sizeof *out || (unsigned)plat >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    emu_abi abi;
    emu_abi_of(r, plat, 0, &abi);
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->name = ir_str(r, r->name);
    out->opencl = abi.opencl;
    out->simd_size = abi.simd;
    out->per_thread_input_size = abi.ptis;
    out->local_id_row_bytes = abi.row;
    out->input_count = r->inputs.len;
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        int dim;
        out->arg_count += emu_role_takes_arg(emu_input_role(&abi, &r->inputs.data[i], &dim));
    }
    return VISA_OK;
}

visa_status visa_kernel_input_at(const visa_module *m, const char *kernel, visa_platform plat, size_t index,
                                 visa_input_info *out) {
    const ir_routine *r = ir_find_kernel(m, kernel);
    if (!r || !out || index >= r->inputs.len || (unsigned)plat >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    emu_abi abi;
    emu_abi_of(r, plat, 0, &abi);
    const ir_input *in = &r->inputs.data[index];
    memset(out, 0, sizeof *out);
    int dim;
    out->role = emu_input_role(&abi, in, &dim);
    out->local_id_dim = dim;
    out->takes_arg = emu_role_takes_arg(out->role);
    out->index = (uint32_t)index;
    out->offset = in->offset;
    out->size = in->size;
    out->implicit_kind = in->kind >> 3;
    if (out->implicit_kind) out->implicit_name = isa_enum_text(VISA_EN_implicit_input, out->implicit_kind);
    out->type = "";
    out->elements = 1;
    if ((in->kind & 7) == IN_GENERAL) {
        int t = ir_var_type(r, in->id);
        if (t >= 0) {
            out->type = isa_types[t].name;
            out->elements = isa_types[t].bytes ? in->size / isa_types[t].bytes : 1;
        }
    }
    char buf[16];
    out->name = emu_input_name(r, in, buf, sizeof buf);
    if (out->name == buf) out->name = ""; /* no name of its own: the pointer must outlive this call */
    out->read = input_read(r, in);
    return VISA_OK;
}
