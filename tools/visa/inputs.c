/* inputs.c -- `visa run --list-inputs` (what each input of a kernel is and what --arg it takes)
** and the check of --kernel NAME. */
#include <string.h>

#include "../observe/outfile.h"
#include "run.h"

static char local_id_axis(const visa_input_info *ii) {
    return "xyz?"[ii->local_id_dim >= 0 && ii->local_id_dim < 3 ? ii->local_id_dim : 3];
}

/* The --arg of an input that takes one element (or none, or a buffer or index). */
static void describe_scalar_arg(const visa_input_info *ii, char *buf, size_t cap) {
    if (ii->role == VISA_INPUT_PER_THREAD) {
        snprintf(buf, cap, "none (per-thread local_id_%c)", local_id_axis(ii));
    } else if (ii->role == VISA_INPUT_IMPLICIT) {
        if (ii->implicit_name) snprintf(buf, cap, "none (implicit %s)", ii->implicit_name);
        else snprintf(buf, cap, "none (implicit kind %u)", ii->implicit_kind);
    } else if (ii->role == VISA_INPUT_SURFACE) {
        snprintf(buf, cap, "a buffer: buf:SIZE[:INIT] or @N");
    } else if (ii->role == VISA_INPUT_SAMPLER) {
        snprintf(buf, cap, "an index: N");
    } else if (ii->size == 8 && (!strcmp(ii->type, "uq") || !strcmp(ii->type, "q"))) {
        snprintf(buf, cap, "%s: N, or a pointer: buf:SIZE[:INIT] or @N", ii->type);
    } else if (ii->size == 4 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d"))) {
        snprintf(buf, cap, "%s: N or work_dim", ii->type);
    } else {
        snprintf(buf, cap, "%s: N", ii->type);
    }
}

/* The --arg a listed input takes. */
static void describe_arg(const visa_input_info *ii, char *buf, size_t cap) {
    bool value_input = ii->role == VISA_INPUT_CROSS_THREAD || ii->role == VISA_INPUT_INLINE;
    if (!value_input || ii->elements <= 1) {
        describe_scalar_arg(ii, buf, cap);
        return;
    }
    /* one value per element; the runtime's 3 x 4-byte and 8 x 4-byte values by keyword */
    char vals[64];
    if (ii->elements <= 4) {
        size_t n = 0;
        for (uint32_t k = 0; k < ii->elements; k++)
            n += (size_t)snprintf(vals + n, sizeof vals - n, "%s%c", k ? "," : "", 'A' + k);
    } else {
        snprintf(vals, sizeof vals, "V1,...,V%u", ii->elements);
    }
    bool ud4 = ii->size == 12 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d"));
    bool hdr = ii->size == 32 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d"));
    snprintf(buf, cap, "%u x %s: %s%s", ii->elements, ii->type, vals,
             ud4   ? " or local_size, global_size, group_count, global_offset, enqueued_local_size"
             : hdr ? " or payload_header"
                   : "");
}

static const char *role_name(const visa_input_info *ii, char *buf, size_t cap) {
    switch (ii->role) {
    case VISA_INPUT_PER_THREAD: snprintf(buf, cap, "per-thread (local_id_%c)", local_id_axis(ii)); return buf;
    case VISA_INPUT_INLINE: return "cross-thread inline";
    case VISA_INPUT_CROSS_THREAD: return "cross-thread";
    case VISA_INPUT_IMPLICIT:
        if (ii->implicit_name) snprintf(buf, cap, "implicit %s", ii->implicit_name);
        else snprintf(buf, cap, "implicit kind %u", ii->implicit_kind);
        return buf;
    case VISA_INPUT_SURFACE: return "surface";
    default: return "sampler";
    }
}

/* The role as one word, for JSON. */
static const char *role_key(visa_input_role role) {
    switch (role) {
    case VISA_INPUT_PER_THREAD: return "per-thread";
    case VISA_INPUT_INLINE: return "inline";
    case VISA_INPUT_CROSS_THREAD: return "cross-thread";
    case VISA_INPUT_IMPLICIT: return "implicit";
    case VISA_INPUT_SURFACE: return "surface";
    default: return "sampler";
    }
}

static void print_header(FILE *f, const visa_kernel_info *ki, visa_platform platform) {
    fprintf(f, "kernel '%s': Target=\"%s\" (%s model)", ki->name, ki->opencl ? "3d" : "cm",
            ki->opencl ? "OpenCL" : "CM");
    if (ki->simd_size) fprintf(f, ", SimdSize=%u", ki->simd_size);
    if (ki->per_thread_input_size) fprintf(f, ", PerThreadInputSize=%u", ki->per_thread_input_size);
    fprintf(f, "; %s: %u-byte GRF", visa_platform_name(platform), visa_platform_grf_bytes(platform));
    if (ki->opencl) fprintf(f, ", local-id rows of %u bytes", ki->local_id_row_bytes);
    fprintf(f, "; %u input%s, %u take an --arg\n", ki->input_count, ki->input_count == 1 ? "" : "s", ki->arg_count);
}

static void print_inputs(FILE *f, const visa_module *m, const char *kernel, visa_platform platform,
                         const visa_kernel_info *ki) {
    int wname = 4;
    for (uint32_t i = 0; i < ki->input_count; i++) {
        visa_input_info ii;
        if (visa_kernel_input_at(m, kernel, platform, i, &ii) == VISA_OK && (int)strlen(ii.name) > wname)
            wname = (int)strlen(ii.name);
    }
    fprintf(f, "%3s  %-*s  %6s  %4s  %-8s  %-24s  %-4s  %s\n", "#", wname, "name", "offset", "size", "type", "role",
            "read", "--arg");
    for (uint32_t i = 0; i < ki->input_count; i++) {
        visa_input_info ii;
        if (visa_kernel_input_at(m, kernel, platform, i, &ii) != VISA_OK) continue;
        char type[32], rb[48], ab[160];
        if (!*ii.type) snprintf(type, sizeof type, "-");
        else if (ii.elements > 1) snprintf(type, sizeof type, "%u x %s", ii.elements, ii.type);
        else snprintf(type, sizeof type, "%s", ii.type);
        describe_arg(&ii, ab, sizeof ab);
        fprintf(f, "%3u  %-*s  %6d  %4u  %-8s  %-24s  %-4s  %s\n", i, wname, ii.name, ii.offset, ii.size, type,
                role_name(&ii, rb, sizeof rb), ii.read ? "yes" : "no", ab);
    }
}

/* --json: the same facts as members "kernel" and "inputs". */
static void report_inputs(const visa_module *m, const char *kernel, visa_platform platform,
                          const visa_kernel_info *ki) {
    strbuf *b = report_field("kernel");
    sb_json_member(b, "{", "name", ki->name);
    sb_printf(b,
              ", \"target\": \"%s\", \"model\": \"%s\", \"simd_size\": %u, \"per_thread_input_size\": %u, "
              "\"grf_bytes\": %u, \"local_id_row_bytes\": %u, \"input_count\": %u, \"arg_count\": %u}",
              ki->opencl ? "3d" : "cm", ki->opencl ? "OpenCL" : "CM", ki->simd_size, ki->per_thread_input_size,
              visa_platform_grf_bytes(platform), ki->local_id_row_bytes, ki->input_count, ki->arg_count);
    b = report_field("inputs");
    sb_puts(b, "[");
    for (uint32_t i = 0; i < ki->input_count; i++) {
        visa_input_info ii;
        if (visa_kernel_input_at(m, kernel, platform, i, &ii) != VISA_OK) continue;
        char ab[160], rb[48];
        describe_arg(&ii, ab, sizeof ab);
        sb_printf(b, "%s{\"index\": %u", i ? ",\n    " : "\n    ", ii.index);
        sb_json_member(b, ", ", "name", ii.name);
        sb_printf(b, ", \"offset\": %d, \"size\": %u", ii.offset, ii.size);
        sb_json_member(b, ", ", "type", *ii.type ? ii.type : NULL);
        sb_printf(b, ", \"elements\": %u", ii.elements);
        sb_json_member(b, ", ", "role", role_key(ii.role));
        sb_json_member(b, ", ", "role_text", role_name(&ii, rb, sizeof rb));
        if (ii.role == VISA_INPUT_PER_THREAD) sb_printf(b, ", \"local_id\": \"%c\"", local_id_axis(&ii));
        if (ii.role == VISA_INPUT_IMPLICIT) {
            sb_printf(b, ", \"implicit_kind\": %u", ii.implicit_kind);
            sb_json_member(b, ", ", "implicit_name", ii.implicit_name);
        }
        sb_printf(b, ", \"read\": %s, \"takes_arg\": %s", ii.read ? "true" : "false", ii.takes_arg ? "true" : "false");
        sb_json_member(b, ", ", "arg", ab);
        sb_puts(b, "}");
    }
    sb_puts(b, ki->input_count ? "\n  ]" : "]");
}

int list_inputs(const visa_module *m, const char *kernel, visa_platform platform) {
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    if (visa_kernel_get_info(m, kernel, platform, &ki) != VISA_OK) {
        cli_error("E-NO-KERNEL", NULL, "%s", kernel ? "no such kernel" : "the module has no kernel");
        return EXIT_DIAG;
    }
    if (report_json()) {
        report_inputs(m, kernel, platform, &ki);
        return 0;
    }
    print_header(out_stdout(), &ki, platform);
    print_inputs(out_stdout(), m, kernel, platform, &ki);
    return 0;
}

int check_kernel(const visa_module *m, const char *file, const char *name) {
    if (!name) return 0;
    bool is_kernel;
    const char *n;
    suggester g;
    suggest_init(&g, name);
    for (size_t i = 0; (n = visa_module_routine_name(m, i, &is_kernel)); i++) {
        if (is_kernel && !strcmp(n, name)) return 0;
        if (is_kernel) suggest_try(&g, n);
    }
    strbuf msg = {0};
    sb_printf(&msg, "no kernel named '%s'", name);
    if (g.best) sb_printf(&msg, " (did you mean '%s'?)", g.best);
    const char *sep = "; its kernels: ";
    for (size_t i = 0; (n = visa_module_routine_name(m, i, &is_kernel)); i++)
        if (is_kernel) {
            sb_printf(&msg, "%s%s", sep, n);
            sep = ", ";
        }
    sb_puts(&msg, *sep == ';' ? "; it has no kernel" : "");
    cli_file_error("E-NO-KERNEL", file, "%s", msg.s ? msg.s : "no such kernel");
    sb_free(&msg);
    return EXIT_DIAG;
}
