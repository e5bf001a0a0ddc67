/* api.c -- the public program object (visa.h "Programs"): a zebin read or built by IGC, each
** kernel's vISA text parsed into a module for the zebin's platform, and each kernel's OpenCL
** arguments as .ze_info describes them.
**
** Everything is made when the program is created and never changed after, so launches on several
** host threads share it without a lock.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_api.h"

/* ocloc's device when the caller names none: DG2 (XeHPG) is the most common discrete Intel GPU
** and what IGC's own documentation builds for */
#define VP_DEFAULT_DEVICE "dg2-g10"

static const char *arg_kind_of_qualifier(const char *q, visa_cl_arg_kind *kind) {
    if (!q) q = "";
    *kind = !strcmp(q, "__local")                                ? VISA_CL_ARG_LOCAL
            : !strcmp(q, "__global") || !strcmp(q, "__constant") ? VISA_CL_ARG_BUFFER
                                                                 : VISA_CL_ARG_VALUE;
    return q;
}

/* What .ze_info's payload arguments say of explicit argument `index`: its kind and, for a
** value, the bytes it spans (the largest source_offset + size of its pieces). */
static bool arg_from_payload(const vp_zeinfo_kernel *k, uint32_t index, visa_cl_arg_info *out) {
    bool found = false;
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        if (a->arg_index != (int32_t)index) continue;
        switch (a->arg_type) {
        case VP_ARG_ARG_BYVALUE: {
            uint32_t end = (uint32_t)(a->source_offset > 0 ? a->source_offset : 0) + (uint32_t)a->size;
            if (!found || out->kind == VISA_CL_ARG_VALUE) out->kind = VISA_CL_ARG_VALUE;
            if (end > out->size) out->size = end;
            found = true;
            break;
        }
        case VP_ARG_ARG_BYPOINTER:
            out->kind = a->addrspace == VP_ADDRSPACE_LOCAL     ? VISA_CL_ARG_LOCAL
                        : a->addrspace == VP_ADDRSPACE_IMAGE   ? VISA_CL_ARG_IMAGE
                        : a->addrspace == VP_ADDRSPACE_SAMPLER ? VISA_CL_ARG_SAMPLER
                                                               : VISA_CL_ARG_BUFFER;
            out->size = 8;
            found = true;
            break;
        default: break;
        }
    }
    return found;
}

/* "float4", "uint*": the vISA type of the element (a vector's lane, what a pointer points to) and
** the vector's width; "" and 0 for structs, images and what the table does not name. */
static void elem_of_type(const char *type_name, visa_cl_arg_info *a) {
    static const struct {
        const char *cl, *visa;
    } scalars[] = {
#define CL_SCALAR(cl, visa) {cl, visa},
#include "cl_types.def"
#undef CL_SCALAR
    };
    a->elem_type = "";
    a->elem_count = 0;
    size_t n = strcspn(type_name, "*"), digits = n;
    while (digits > 0 && type_name[digits - 1] >= '0' && type_name[digits - 1] <= '9') digits--;
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
        if (strlen(scalars[i].cl) == digits && !strncmp(type_name, scalars[i].cl, digits)) {
            a->elem_type = scalars[i].visa;
            a->elem_count = digits < n ? (uint32_t)strtoul(type_name + digits, NULL, 10) : 1;
            return;
        }
}

/* The kernel's OpenCL arguments: kernels_misc_info's names and types, payload_arguments' kinds. */
static visa_status describe_args(visa_program *p, vp_program_kernel_ex *kx) {
    const vp_zeinfo_kernel *k = kx->k->info;
    uint32_t n = k->explicit_args;
    for (uint32_t i = 0; i < k->arg_info_count; i++)
        if ((uint32_t)k->arg_infos[i].index + 1 > n) n = (uint32_t)k->arg_infos[i].index + 1;
    visa_cl_arg_info *args = vp_arena_array(&p->arena, n ? n : 1, sizeof *args);
    if (!args) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        visa_cl_arg_info *a = &args[i];
        a->name = a->type_name = a->access_qualifier = a->type_qualifiers = "";
        a->address_qualifier = "";
        for (uint32_t j = 0; j < k->arg_info_count; j++) {
            const vp_arg_info *ai = &k->arg_infos[j];
            if ((uint32_t)ai->index != i) continue;
            if (ai->name) a->name = ai->name;
            if (ai->type_name) {
                /* IGC writes "float4;16": the type, then its size in bytes */
                const char *semi = strchr(ai->type_name, ';');
                a->type_name =
                    semi ? vp_arena_strndup(&p->arena, ai->type_name, (size_t)(semi - ai->type_name)) : ai->type_name;
                if (!a->type_name) return VISA_E_NOMEM;
                if (semi && atoi(semi + 1) > 0) a->size = (uint32_t)atoi(semi + 1);
            }
            if (ai->access_qualifier) a->access_qualifier = ai->access_qualifier;
            if (ai->type_qualifiers) a->type_qualifiers = ai->type_qualifiers;
            a->address_qualifier = arg_kind_of_qualifier(ai->address_qualifier, &a->kind);
        }
        /* an argument the kernel never reads has no payload argument: the qualifier says */
        uint32_t type_size = a->size;
        arg_from_payload(k, i, a);
        if (a->kind == VISA_CL_ARG_VALUE && type_size > a->size) a->size = type_size; /* the whole type */
        if (a->kind != VISA_CL_ARG_VALUE) a->size = 8;
        elem_of_type(a->type_name, a);
    }
    kx->args = args;
    kx->arg_count = n;
    return VISA_OK;
}

/* user_attributes as compute-runtime reports CL_KERNEL_ATTRIBUTES: "name(value)" for each one
** present (in zeinfo.def's order), an INT3's values joined by ",", separated by spaces. */
#define VP_ATTR_TEXT_INT(v, buf, n) snprintf(buf, n, "%d", (int)(v))
#define VP_ATTR_TEXT_INT3(v, buf, n) snprintf(buf, n, "%d,%d,%d", (int)(v)[0], (int)(v)[1], (int)(v)[2])
#define VP_ATTR_TEXT_STR(v, buf, n) snprintf(buf, n, "%s", (v) ? (v) : "")
static visa_status describe_attributes(visa_program *p, vp_program_kernel_ex *kx) {
    const vp_user_attrs *a = &kx->k->info->attrs;
    char text[1024] = "", value[512];
    size_t len = 0;
#define VP_UATTR(m, kind, table, def, lo, hi, req)                                                     \
    if (VP_PRESENT(a, VP_UATTR_##m) && len < sizeof text) {                                            \
        VP_ATTR_TEXT_##kind(a->m, value, sizeof value);                                                \
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s(%s)", len ? " " : "", #m, value); \
    }
#include "zeinfo.def"
    if (len >= sizeof text) len = sizeof text - 1;
    kx->attributes = vp_arena_strndup(&p->arena, text, len);
    return kx->attributes ? VISA_OK : VISA_E_NOMEM;
}

/* Each kernel's vISA text as a module for the program's platform. */
static visa_status parse_kernels(visa_program *p, diag_sink *ds) {
    const vp_program *vp = p->prog;
    p->kernels = vp_arena_array(&p->arena, vp->kernel_count ? vp->kernel_count : 1, sizeof *p->kernels);
    if (!p->kernels) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < vp->kernel_count; i++) {
        vp_program_kernel_ex *kx = &p->kernels[p->kernel_count];
        kx->k = &vp->kernels[i];
        if (!kx->k->code || kx->k->code->symbol_table) continue;
        p->kernel_count++;
        visa_status st = describe_args(p, kx);
        if (st == VISA_OK) st = describe_attributes(p, kx);
        if (st != VISA_OK) return st;
        const vp_zebin_kernel *code = kx->k->code;
        if (!code->visaasm) continue; /* a launch says why it cannot run */
        char name[512];
        snprintf(name, sizeof name, "%s:%s.visaasm", p->name, kx->k->name);
        st = visa_module_parse_text(p->ctx, name, code->visaasm, code->visaasm_len, p->platform, &kx->module);
        if (st != VISA_OK) {
            vp_diag_offset(ds, PDIAG_PROGRAM_VISAASM, VISA_DIAG_NO_OFFSET,
                           "kernel %s: its vISA text does not parse (the diagnostics above)", kx->k->name);
            return st;
        }
        st = vp_check_inputs(p, kx, ds);
        if (st != VISA_OK) return st;
    }
    return VISA_OK;
}

static visa_status adopt_zebin(visa_program *p, diag_sink *ds) {
    visa_status st = vp_program_read(p->ctx, p->name, p->binary, p->binary_len, &p->prog);
    if (st != VISA_OK) return st;
    const vp_zebin_device *dev = &p->prog->zebin->device;
    if (!dev->has_platform) {
        vp_diag_offset(ds, PDIAG_PROGRAM_DEVICE, VISA_DIAG_NO_OFFSET,
                       "the zebin's device (%s, product family %u) has no vISA platform the emulator knows",
                       dev->product_name ? dev->product_name : "unknown", dev->product_family);
        return VISA_E_UNSUPPORTED;
    }
    p->platform = dev->platform;
    p->device = dev->product_name ? dev->product_name : visa_platform_name(p->platform);
    const vp_zebin_section *opts = p->prog->zebin->build_options;
    p->build_options = "";
    if (opts) { /* its text, up to a NUL if it has one */
        const char *text = (const char *)p->prog->zebin->bytes + opts->offset;
        const char *nul = memchr(text, 0, opts->size);
        p->build_options = vp_arena_strndup(&p->arena, text, nul ? (size_t)(nul - text) : opts->size);
        if (!p->build_options) return VISA_E_NOMEM;
    }
    st = vp_data_build(p, ds);
    return st == VISA_OK ? parse_kernels(p, ds) : st;
}

static char *copy_text(visa_ctx *ctx, const char *s, size_t len) {
    char *c = vx_alloc(ctx, len + 1);
    if (!c) return NULL;
    memcpy(c, s, len);
    c[len] = 0;
    return c;
}

/* OpenCL C or SPIR-V through libocloc; the zebin and the log become the program's. */
static visa_status build(visa_program *p, const visa_program_opts *o, const void *data, size_t len) {
    bool v2 = o->struct_size >= offsetof(visa_program_opts, internal_options) + sizeof o->internal_options;
    vp_ocloc_request req = {o->device && *o->device ? o->device : VP_DEFAULT_DEVICE,
                            o->options,
                            data,
                            len,
                            o->input == VISA_PROGRAM_SPIRV,
                            p->name,
                            v2 ? o->internal_options : NULL};
    vp_ocloc_result res;
    visa_status st = vp_ocloc_compile(p->ctx, &req, &res);
    if (res.log) {
        p->log = copy_text(p->ctx, res.log, res.log_len);
        p->log_len = res.log_len;
        if (!p->log) st = VISA_E_NOMEM;
    }
    if (st == VISA_OK && res.zebin) {
        p->binary = vx_alloc(p->ctx, res.zebin_len ? res.zebin_len : 1);
        if (p->binary) memcpy(p->binary, res.zebin, res.zebin_len);
        p->binary_len = res.zebin_len;
        if (!p->binary) st = VISA_E_NOMEM;
    }
    vp_ocloc_result_free(p->ctx, &res);
    return st;
}

visa_status visa_program_create(visa_ctx *ctx, const char *name, const void *data, size_t len,
                                const visa_program_opts *opts, visa_program **out) {
    if (out) *out = NULL;
    if (!ctx || !out || !opts || opts->struct_size < offsetof(visa_program_opts, internal_options) || (!data && len) ||
        (unsigned)opts->input > VISA_PROGRAM_SPIRV)
        return VISA_E_ARG;
    visa_program *p = vx_alloc(ctx, sizeof *p);
    if (!p) return VISA_E_NOMEM;
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    vp_arena_init(&p->arena, ctx);
    p->name = vp_arena_strndup(&p->arena, name ? name : "<program>", strlen(name ? name : "<program>"));
    diag_sink ds;
    diag_init(&ds, ctx, p->name ? p->name : "<program>", NULL, 0);
    visa_status st = p->name ? VISA_OK : VISA_E_NOMEM;
    if (st == VISA_OK && opts->input == VISA_PROGRAM_ZEBIN) {
        p->binary = vx_alloc(ctx, len ? len : 1);
        if (p->binary) memcpy(p->binary, data, len);
        p->binary_len = len;
        st = p->binary ? VISA_OK : VISA_E_NOMEM;
    } else if (st == VISA_OK) {
        st = build(p, opts, data, len);
    }
    if (st == VISA_OK) st = adopt_zebin(p, &ds);
    if (st == VISA_E_NOMEM) diag_oom(&ds);
    if (st == VISA_E_SYNTAX && !p->binary && p->log) { /* a failed build: the log is the caller's to read */
        *out = p;
        return st;
    }
    if (st != VISA_OK) {
        visa_program_destroy(p);
        return st;
    }
    *out = p;
    return VISA_OK;
}

void visa_program_destroy(visa_program *p) {
    if (!p) return;
    for (uint32_t i = 0; p->kernels && i < p->kernel_count; i++) visa_module_destroy(p->kernels[i].module);
    vp_program_free(p->prog);
    if (p->binary) vx_free(p->ctx, p->binary, p->binary_len ? p->binary_len : 1);
    if (p->log) vx_free(p->ctx, p->log, p->log_len + 1);
    vp_arena_free(&p->arena);
    vx_free(p->ctx, p, sizeof *p);
}

const char *visa_program_build_log(const visa_program *p) { return p && p->log ? p->log : ""; }

const char *visa_program_build_options(const visa_program *p) { return p && p->build_options ? p->build_options : ""; }

const void *visa_program_binary(const visa_program *p, size_t *len) {
    if (len) *len = p && p->binary ? p->binary_len : 0;
    return p ? p->binary : NULL;
}

visa_platform visa_program_platform(const visa_program *p) { return p ? p->platform : VISA_PLATFORM_XEHPG; }

const char *visa_program_device(const visa_program *p) { return p && p->device ? p->device : ""; }

size_t visa_program_kernel_count(const visa_program *p) { return p ? p->kernel_count : 0; }

const char *visa_program_kernel_name(const visa_program *p, size_t index) {
    return p && index < p->kernel_count ? p->kernels[index].k->name : NULL;
}

const vp_program_kernel_ex *vp_kernel_find(const visa_program *p, const char *name) {
    for (uint32_t i = 0; p && name && i < p->kernel_count; i++)
        if (!strcmp(p->kernels[i].k->name, name)) return &p->kernels[i];
    return NULL;
}

const visa_module *visa_program_kernel_module(const visa_program *p, const char *kernel) {
    const vp_program_kernel_ex *kx = vp_kernel_find(p, kernel);
    return kx ? kx->module : NULL;
}

/* Version 1's fields of visa_cl_kernel_info. */
static void kernel_info_v1(const vp_program_kernel_ex *kx, const vp_exec_env *env, visa_cl_kernel_info *out) {
    out->name = kx->k->name;
    out->arg_count = kx->arg_count;
    out->simd_size = (uint32_t)env->simd_size;
    out->slm_size = (uint32_t)env->slm_size;
    out->private_size = (uint32_t)env->private_size;
    for (int d = 0; d < 3; d++) out->required_work_group_size[d] = (uint32_t)env->required_work_group_size[d];
    out->grf_count = (uint32_t)env->grf_count;
    out->has_printf = env->has_printf_calls;
    for (uint32_t i = 0; i < kx->k->info->arg_count; i++)
        out->has_printf |= kx->k->info->args[i].arg_type == VP_ARG_PRINTF_BUFFER;
}

visa_status visa_program_kernel_info(const visa_program *p, const char *kernel, visa_cl_kernel_info *out) {
    const vp_program_kernel_ex *kx = vp_kernel_find(p, kernel);
    /* version 1 ends at has_printf: its callers get its fields only */
    size_t v1 = offsetof(visa_cl_kernel_info, has_printf) + sizeof out->has_printf;
    if (!kx || !out || out->struct_size < v1) return VISA_E_ARG;
    const vp_exec_env *env = &kx->k->info->env;
    visa_cl_kernel_info ki = {0};
    ki.struct_size = out->struct_size < sizeof ki ? out->struct_size : (uint32_t)sizeof ki;
    kernel_info_v1(kx, env, &ki);
    const vp_user_attrs *attrs = &kx->k->info->attrs;
    ki.required_sub_group_size =
        (uint32_t)(VP_PRESENT(attrs, VP_UATTR_intel_reqd_sub_group_size) ? attrs->intel_reqd_sub_group_size
                                                                         : env->required_sub_group_size);
    ki.attributes = kx->attributes;
    memcpy(out, &ki, ki.struct_size);
    return VISA_OK;
}

visa_status visa_program_kernel_arg(const visa_program *p, const char *kernel, size_t index, visa_cl_arg_info *out) {
    const vp_program_kernel_ex *kx = vp_kernel_find(p, kernel);
    if (!kx || !out || index >= kx->arg_count) return VISA_E_ARG;
    *out = kx->args[index];
    return VISA_OK;
}
