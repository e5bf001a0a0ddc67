/* program.c -- a zebin and its .ze_info together: the kernels a launch can run (the .ze_info
** kernels, each with its code section and vISA text), and the printf strings.
**
** Checks across the two: every .ze_info kernel has a .text.<name> section (E-PROGRAM-KERNEL),
** a zebin has one .ze_info (E-PROGRAM-ZEINFO), and where a kernel's vISA text says
** `.kernel_attr SimdSize=N` or `PerThreadInputSize=M`, N is the .ze_info's simd_size and M the
** bytes of its per-thread payload (W-PROGRAM-VISAASM: IGC 1.0.12504's .visaasm sections are
** matched to kernels by order, and this catches a wrong match).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_int.h"

/* The N of the first "\n.kernel_attr NAME=N" of vISA text, or -1. */
static long visa_kernel_attr(const char *text, size_t len, const char *name) {
    char attr[64];
    const size_t n = (size_t)snprintf(attr, sizeof attr, ".kernel_attr %s=", name);
    for (size_t i = 0; i + n < len; i++) {
        if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, attr, n) == 0) {
            long v = 0;
            for (size_t j = i + n; j < len && j < i + n + 6 && text[j] >= '0' && text[j] <= '9'; j++)
                v = v * 10 + (text[j] - '0');
            return v;
        }
    }
    return -1;
}

/* The kernel's vISA text agrees with its .ze_info on the SIMD size and the per-thread payload. */
static void check_visaasm(vp_program *p, diag_sink *ds, const vp_zebin_kernel *code, const vp_zeinfo_kernel *info) {
    if (!code->visaasm) return;
    long simd = visa_kernel_attr(code->visaasm, code->visaasm_len, "SimdSize");
    long per_thread = visa_kernel_attr(code->visaasm, code->visaasm_len, "PerThreadInputSize");
    long want = 0;
    for (uint32_t i = 0; i < info->thread_arg_count; i++) want += info->thread_args[i].size;
    if ((simd >= 0 && simd != info->env.simd_size) || (per_thread >= 0 && per_thread != want))
        vp_diag_offset(ds, PDIAG_W_PROGRAM_VISAASM, p->zebin->sections[code->visaasm_section].offset,
                       "kernel %s: its vISA text (section %u) says SimdSize=%ld "
                       "PerThreadInputSize=%ld, .ze_info %d and %ld: the text may be another "
                       "kernel's",
                       info->name, code->visaasm_section, simd, per_thread, info->env.simd_size, want);
}

static visa_status match_kernels(vp_program *p, diag_sink *ds) {
    const vp_zeinfo *zi = p->zeinfo;
    vp_program_kernel *ks = vp_arena_array(&p->arena, zi->kernel_count, sizeof *ks);
    if (!ks) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < zi->kernel_count; i++) {
        const vp_zeinfo_kernel *info = &zi->kernels[i];
        const vp_zebin_kernel *code = vp_zebin_kernel_by_name(p->zebin, info->name);
        ks[i] = (vp_program_kernel){info->name, code, info};
        if (!code) {
            vp_diag_offset(ds, PDIAG_PROGRAM_KERNEL, VISA_DIAG_NO_OFFSET, ".ze_info kernel %s has no .text.%s section",
                           info->name, info->name);
            continue;
        }
        check_visaasm(p, ds, code, info);
    }
    p->kernels = ks;
    p->kernel_count = zi->kernel_count;
    return VISA_OK;
}

/* The NUL-terminated strings of .data.const.string, in order. */
static visa_status split_strings(vp_program *p) {
    const vp_zebin_section *s = p->zebin->data_const_string;
    if (!s || !s->data) return VISA_OK;
    const char *text = (const char *)s->data;
    uint32_t n = 0;
    for (uint64_t i = 0; i < s->size; i++) n += text[i] == 0;
    vp_printf_string *strs = vp_arena_array(&p->arena, n, sizeof *strs);
    if (!strs) return VISA_E_NOMEM;
    uint32_t k = 0;
    for (uint64_t start = 0, i = 0; i < s->size; i++) {
        if (text[i]) continue;
        strs[k++] = (vp_printf_string){start, text + start, (size_t)(i - start)};
        start = i + 1;
    }
    p->printf_strings = strs;
    p->printf_string_count = k;
    return VISA_OK;
}

static visa_status read_program(vp_program *p, diag_sink *ds, const char *name, const void *data, size_t len) {
    visa_status st = vp_zebin_read(p->ctx, name, data, len, &p->zebin);
    if (st != VISA_OK) return st;
    const vp_zebin_section *zs = p->zebin->ze_info;
    if (!zs) {
        vp_diag_offset(ds, PDIAG_PROGRAM_ZEINFO, VISA_DIAG_NO_OFFSET, "the zebin has no .ze_info section");
        return VISA_E_BINARY;
    }
    char zname[512];
    snprintf(zname, sizeof zname, "%s:.ze_info", name ? name : "<input>");
    st = vp_zeinfo_parse(p->ctx, zname, zs->data ? (const char *)zs->data : "", (size_t)zs->size, &p->zeinfo);
    if (st != VISA_OK) return st;
    st = match_kernels(p, ds);
    if (st == VISA_OK) st = split_strings(p);
    if (st == VISA_OK && ds->errors) st = VISA_E_BINARY;
    return st;
}

visa_status vp_program_read(visa_ctx *ctx, const char *name, const void *data, size_t len, vp_program **out) {
    if (!ctx || !out) return VISA_E_ARG;
    *out = NULL;
    diag_sink ds;
    diag_init(&ds, ctx, name, NULL, 0);
    vp_program *p = vx_alloc(ctx, sizeof *p);
    if (!p) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    p->ctx = ctx;
    vp_arena_init(&p->arena, ctx);
    visa_status st = read_program(p, &ds, name, data, len);
    if (st == VISA_E_NOMEM && p->arena.failed) diag_oom(&ds);
    if (st != VISA_OK) {
        vp_program_free(p);
        return st;
    }
    *out = p;
    return VISA_OK;
}

void vp_program_free(vp_program *prog) {
    if (!prog) return;
    vp_zeinfo_free(prog->zeinfo);
    vp_zebin_free(prog->zebin);
    vp_arena_free(&prog->arena);
    vx_free(prog->ctx, prog, sizeof *prog);
}

const vp_program_kernel *vp_program_kernel_by_name(const vp_program *prog, const char *name) {
    for (uint32_t i = 0; i < prog->kernel_count; i++)
        if (strcmp(prog->kernels[i].name, name) == 0) return &prog->kernels[i];
    return NULL;
}

const vp_printf_string *vp_program_printf_string(const vp_program *prog, uint64_t offset) {
    for (uint32_t i = 0; i < prog->printf_string_count; i++)
        if (prog->printf_strings[i].offset == offset) return &prog->printf_strings[i];
    return NULL;
}
