/* runcl.c -- `visa run` of an OpenCL program: a zebin IGC wrote, or OpenCL C / SPIR-V that IGC
** compiles on the way (libocloc).  The launch is OpenCL's: NDRange sizes, arguments by name,
** IGC's payload built by the library from .ze_info (visa_program_run, docs/program.md). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strtok_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../observe/outfile.h"
#include "run.h"

static const char program_help[] =
    "usage: visa run FILE.cl|FILE.spv|FILE.zebin [--kernel NAME] [--device DEV] [--build-options OPTS]\n"
    "                --global-size X[,Y[,Z]] [--local-size X[,Y[,Z]]] [--global-offset X[,Y[,Z]]]\n"
    "                [--arg [NAME=]VALUE]... [--out NAME=PATH]... [--print NAME[:TYPE]]...\n"
    "                [--threads N] [--max-steps N] [--timeout SECONDS] [--check=LIST] [--stats] [--json]\n"
    "       visa run FILE.cl|FILE.spv|FILE.zebin --list-inputs [--kernel NAME] [--device DEV] [--json]\n"
    "\n"
    "Run an OpenCL kernel as IGC compiled it (docs/program.md).  .cl and .spv files are compiled by\n"
    "IGC through libocloc (Debian: intel-opencl-icd) with vISA sections; a zebin (an ELF file from\n"
    "'ocloc compile ... -internal_options -cl-intel-emit-zebin-visa-sections') runs on its own device.\n"
    "  --device DEV         ocloc's device: tgllp, dg2-g10, pvc, mtl, ... (default dg2-g10)\n"
    "  --build-options OPTS OpenCL build options (-cl-std=CL2.0 -DN=4 ...)\n"
    "  --kernel NAME        the kernel (needed when the program has more than one)\n"
    "  --global-size X,Y,Z  work-items; the number of values is the work dimension\n"
    "  --local-size X,Y,Z   work-items per group (default: reqd_work_group_size, or chosen); a global\n"
    "                       size that is no multiple runs the remainder as smaller groups (OpenCL 2.0)\n"
    "  --global-offset X,Y,Z\n"
    "  --arg [NAME=]VALUE   an argument (by name, or positional in order): for a __global or\n"
    "                       __constant pointer buf:SIZE[:INIT] (as vISA runs take it) or null; for a\n"
    "                       __local pointer its size in bytes; for a value one number per element\n"
    "                       (1.5, -3, 0x7f; int4: 1,2,3,4), or raw:HEX for any type (a struct's bytes)\n"
    "  --out NAME=PATH      write the buffer argument NAME's final bytes\n"
    "  --print NAME[:TYPE]  print the buffer argument NAME (TYPE: ub b uw w ud d uq q hf bf f df;\n"
    "                       default from its pointer type)\n"
    "  --list-inputs        the kernel's OpenCL arguments: index, name, type, kind, size\n"
    "  --threads N, --max-steps N, --timeout SECONDS, --check=LIST, --stats, --json: as for vISA runs\n"
    "  --trace, --trace-thread G,T, --trace-lanes A-B, --trace-lines A-B, --trace-format F,\n"
    "  --trace-out PATH, --profile, --profile-format F, --profile-svg PATH: as for vISA runs\n"
    "                       (docs/observe.md); lines are the kernel's vISA text's ('visa fmt' of it), and\n"
    "                       a program built with -g is also profiled per line of its OpenCL source\n"
    "printf's output goes to standard output after the launch.\n";

/* The options a program's run takes besides the observation options (observe.h, run_options). */
static const char *const program_valued[] = {
    "--kernel", "--device", "--build-options", "--global-size", "--local-size", "--global-offset",
    "--arg",    "--out",    "--print",         "--threads",     "--max-steps",  "--timeout",
    NULL};
static const char *const program_switches[] = {"--list-inputs", "--stats", "--json", "--help", NULL};

#define CL_MAX_ARGS 128

typedef struct cl_cfg {
    const char *in, *kernel, *device, *options;
    uint64_t global[3], local[3], offset[3];
    uint32_t dim;
    const char *arg_text[CL_MAX_ARGS], *arg_name[CL_MAX_ARGS];
    size_t nargs;
    const char *outs[CL_MAX_ARGS], *prints[CL_MAX_ARGS];
    size_t nouts, nprints;
    visa_cl_launch launch;
    bool list, stats;
    obs_opts obs;
    /* the launch's arguments */
    visa_cl_arg args[CL_MAX_ARGS];
    run_buf bufs[CL_MAX_ARGS];
    uint8_t undef[CL_MAX_ARGS], access[CL_MAX_ARGS]; /* the launch's arg_undef, arg_access */
    uint8_t values[CL_MAX_ARGS][256];
} cl_cfg;

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

static bool valued(const char *a, const char *const *list) {
    for (size_t k = 0; list[k]; k++)
        if (!strcmp(a, list[k])) return true;
    return false;
}

bool run_is_program(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) {
            i += valued(a, program_valued) || !strcmp(a, "--platform") || !strcmp(a, "--groups") ||
                 !strcmp(a, "--group-size") || !strcmp(a, "--cr0") || !strncmp(a, "--trace-", 8) ||
                 !strncmp(a, "--profile-", 10);
            continue;
        }
        if (has_suffix(a, ".cl") || has_suffix(a, ".spv") || has_suffix(a, ".zebin")) return true;
        FILE *f = fopen(a, "rb");
        unsigned char magic[4] = {0};
        size_t n = f ? fread(magic, 1, 4, f) : 0;
        if (f) fclose(f);
        return n == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
    }
    return false;
}

static int parse_dims64(const char *opt, const char *v, uint64_t out[3], uint32_t *dim) {
    out[0] = out[1] = out[2] = 0;
    uint32_t d = 0;
    for (const char *s = v; d < 3; d++) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (end == s || *s == '-' || errno) return usage_errorf(v, "bad %s '%s' (X[,Y[,Z]])", opt, v);
        out[d] = x;
        if (!*end) {
            if (dim) *dim = d + 1;
            return 0;
        }
        if (*end != ',') break;
        s = end + 1;
    }
    return usage_errorf(v, "bad %s '%s' (X[,Y[,Z]])", opt, v);
}

static int parse_count(const char *opt, const char *v, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || *v == '-' || errno) return usage_errorf(v, "bad %s '%s'", opt, v);
    *out = x;
    return 0;
}

static int take_valued(cl_cfg *c, const char *a, const char *v) {
    uint64_t n;
    int rc = 0;
    if (!strcmp(a, "--kernel")) c->kernel = v;
    else if (!strcmp(a, "--device")) c->device = v;
    else if (!strcmp(a, "--build-options")) c->options = v;
    else if (!strcmp(a, "--global-size")) rc = parse_dims64(a, v, c->global, &c->dim);
    else if (!strcmp(a, "--local-size")) rc = parse_dims64(a, v, c->local, NULL);
    else if (!strcmp(a, "--global-offset")) rc = parse_dims64(a, v, c->offset, NULL);
    else if (!strcmp(a, "--out") || !strcmp(a, "--print") || !strcmp(a, "--arg")) {
        size_t *cnt = a[2] == 'o' ? &c->nouts : a[2] == 'p' ? &c->nprints : &c->nargs;
        if (*cnt >= CL_MAX_ARGS) return usage_errorf(v, "at most %d %s options", CL_MAX_ARGS, a);
        if (a[2] == 'o') {
            if (!strchr(v, '=')) return usage_errorf(v, "--out takes NAME=PATH, not '%s'", v);
            c->outs[c->nouts++] = v;
        } else if (a[2] == 'p') {
            c->prints[c->nprints++] = v;
        } else {
            c->arg_text[c->nargs++] = v;
        }
    } else if (!strcmp(a, "--threads") && !(rc = parse_count(a, v, &n))) c->launch.threads = (uint32_t)(n ? n : 1);
    else if (!strcmp(a, "--max-steps") && !(rc = parse_count(a, v, &n))) c->launch.max_steps = n ? n : VISA_UNLIMITED;
    else if (!strcmp(a, "--timeout")) {
        char *end;
        c->launch.timeout_seconds = strtod(v, &end);
        if (end == v || *end || c->launch.timeout_seconds < 0) rc = usage_errorf(v, "bad --timeout '%s'", v);
    }
    return rc;
}

static int parse_program_options(int argc, char **argv, cl_cfg *c) {
    const char *with_value[RUN_MAX_OPTIONS], *switches[RUN_MAX_OPTIONS];
    run_options(with_value, program_valued, true);
    run_options(switches, program_switches, false);
    obs_opts_init(&c->obs);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) return print_help(program_help);
        if (!strncmp(a, "--check=", 8)) {
            if (visa_checks_from_names(a + 8, &c->launch.checks) != VISA_OK)
                return usage_error("bad --check '%s' (memcheck, initcheck, racecheck, synccheck or all)", a + 8);
        } else if (valued(a, with_value)) {
            if (i + 1 >= argc) return usage_error("option '%s' needs a value", a);
            int rc = run_observe_option(&c->obs, a, argv[++i]);
            if (rc < 0) rc = take_valued(c, a, argv[i]);
            if (rc) return rc;
        } else if (run_observe_option(&c->obs, a, NULL) == 0) continue;
        else if (!strcmp(a, "--list-inputs")) c->list = true;
        else if (!strcmp(a, "--stats")) c->stats = true;
        else if (!strcmp(a, "--json")) continue;
        else if (a[0] == '-' && a[1]) {
            const char *known[2 * RUN_MAX_OPTIONS];
            size_t n = 0;
            for (size_t k = 0; with_value[k]; k++) known[n++] = with_value[k];
            for (size_t k = 0; switches[k]; k++) known[n++] = switches[k];
            return unknown_option(a, known, n);
        } else if (c->in) return usage_error("more than one input file ('%s')", a);
        else c->in = a;
    }
    if (!c->in) return usage_error("%s", "run needs an input file");
    if (!c->list && !c->dim) return usage_error("%s", "an OpenCL run needs --global-size");
    return -1;
}

/* The kernel to run: --kernel, or the program's only one. */
static const char *pick_kernel(const visa_program *p, const cl_cfg *c) {
    size_t n = visa_program_kernel_count(p);
    if (c->kernel) {
        for (size_t i = 0; i < n; i++)
            if (!strcmp(visa_program_kernel_name(p, i), c->kernel)) return c->kernel;
    } else if (n == 1) {
        return visa_program_kernel_name(p, 0);
    }
    strbuf names = {0};
    for (size_t i = 0; i < n; i++) sb_printf(&names, "%s%s", i ? ", " : "", visa_program_kernel_name(p, i));
    cli_file_error("E-NO-KERNEL", c->in,
                   c->kernel ? "no kernel named '%s' (the program has: %s)"
                             : "%s the program has several kernels (%s): name one with --kernel",
                   c->kernel ? c->kernel : "", names.s ? names.s : "none");
    sb_free(&names);
    return NULL;
}

static int parse_raw(const char *v, uint8_t *out, size_t size) {
    size_t n = strlen(v);
    if (n != 2 * size) return -1;
    for (size_t i = 0; i < size; i++) {
        char hex[3] = {v[2 * i], v[2 * i + 1], 0}, *end;
        out[i] = (uint8_t)strtoul(hex, &end, 16);
        if (*end) return -1;
    }
    return 0;
}

/* A value argument: raw:HEX, or one number per element of its type. */
static int parse_value(cl_cfg *c, size_t i, const visa_cl_arg_info *ai, const char *v) {
    size_t size = ai->size;
    if (size > sizeof c->values[i])
        return usage_errorf(v, "argument %s: values over %zu bytes are not supported", ai->name, sizeof c->values[i]);
    c->args[i] = (visa_cl_arg){VISA_CL_ARG_VALUE, c->values[i], size};
    if (!strncmp(v, "raw:", 4)) {
        if (parse_raw(v + 4, c->values[i], size))
            return usage_errorf(v, "argument %s takes %zu bytes: raw: needs %zu hex digits", ai->name, size, 2 * size);
        return 0;
    }
    unsigned width = ai->elem_count;
    const char *t = *ai->elem_type ? ai->elem_type : NULL;
    unsigned esize;
    int flt, sgn;
    if (!t || elem_type(t, strlen(t), &esize, &flt, &sgn) < 0)
        return usage_errorf(v, "argument %s is a %s: give its bytes as raw:HEX", ai->name, ai->type_name);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", v);
    unsigned k = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), k++) {
        int nf;
        double dv;
        long long iv;
        if (k >= width || (size_t)(k + 1) * esize > size || run_parse_number(tok, &nf, &dv, &iv))
            return usage_errorf(v, "argument %s (%s) takes %u number%s, not '%s'", ai->name, ai->type_name, width,
                                width == 1 ? "" : "s", v);
        if (!flt && nf) iv = (long long)dv;
        run_put_elem(c->values[i] + (size_t)k * esize, esize, flt, t, dv, iv);
    }
    if (k != width)
        return usage_errorf(v, "argument %s (%s) takes %u number%s, not '%s'", ai->name, ai->type_name, width,
                            width == 1 ? "" : "s", v);
    return 0;
}

static int parse_one_arg(cl_cfg *c, size_t i, const visa_cl_arg_info *ai, const char *v) {
    switch (ai->kind) {
    case VISA_CL_ARG_BUFFER:
        if (!strcmp(v, "null")) {
            c->args[i] = (visa_cl_arg){VISA_CL_ARG_BUFFER, NULL, 0};
            return 0;
        }
        if (strncmp(v, "buf:", 4))
            return usage_errorf(v, "argument %s is a pointer: give buf:SIZE[:INIT] or null, not '%s'", ai->name, v);
        if (run_make_buffer(v, &c->bufs[i])) return EXIT_USAGE;
        c->args[i] = (visa_cl_arg){VISA_CL_ARG_BUFFER, c->bufs[i].data, c->bufs[i].size};
        c->undef[i] = c->bufs[i].undef;
        c->access[i] = c->bufs[i].access;
        return 0;
    case VISA_CL_ARG_LOCAL: {
        uint64_t n;
        const char *s = !strncmp(v, "local:", 6) ? v + 6 : v;
        if (parse_count("local size", s, &n) || !n || n > (1u << 30)) return EXIT_USAGE;
        c->args[i] = (visa_cl_arg){VISA_CL_ARG_LOCAL, NULL, (size_t)n};
        return 0;
    }
    case VISA_CL_ARG_VALUE: return parse_value(c, i, ai, v);
    default: return usage_errorf(v, "argument %s is %s: images and samplers are not emulated", ai->name, ai->type_name);
    }
}

static int arg_index_of(const visa_program *p, const char *kernel, const char *name, size_t n) {
    for (size_t i = 0; i < n; i++) {
        visa_cl_arg_info ai;
        if (visa_program_kernel_arg(p, kernel, i, &ai) == VISA_OK && !strcmp(ai.name, name)) return (int)i;
    }
    return -1;
}

/* --arg values onto the kernel's arguments: named ones first, positional ones fill the rest. */
static int bind_program_args(cl_cfg *c, const visa_program *p, const char *kernel, size_t nk) {
    const char *given[CL_MAX_ARGS] = {0};
    for (size_t j = 0; j < c->nargs; j++) {
        const char *v = c->arg_text[j], *eq = strchr(v, '=');
        if (!eq || eq == v || !strncmp(v, "buf:", 4) || !strncmp(v, "raw:", 4)) continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
        int i = arg_index_of(p, kernel, name, nk);
        if (i < 0) return usage_errorf(v, "kernel %s has no argument named '%s'", kernel, name);
        if (given[i]) return usage_errorf(v, "argument %s is given twice", name);
        given[i] = eq + 1;
        c->arg_text[j] = NULL;
    }
    size_t next = 0;
    for (size_t j = 0; j < c->nargs; j++) {
        if (!c->arg_text[j]) continue;
        while (next < nk && given[next]) next++;
        if (next >= nk)
            return usage_errorf(c->arg_text[j], "kernel %s takes %zu arguments: '%s' is one too many", kernel, nk,
                                c->arg_text[j]);
        given[next++] = c->arg_text[j];
    }
    for (size_t i = 0; i < nk; i++) {
        visa_cl_arg_info ai;
        visa_program_kernel_arg(p, kernel, i, &ai);
        if (!given[i]) return usage_errorf("", "kernel %s: argument %zu (%s) has no --arg", kernel, i, ai.name);
        int rc = parse_one_arg(c, i, &ai, given[i]);
        if (rc) return rc;
    }
    return 0;
}

static const char *kind_text(visa_cl_arg_kind k) {
    static const char *const names[] = {"buffer", "local", "value", "sampler", "image"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static int list_program_args(const visa_program *p, const char *kernel, size_t nk) {
    FILE *out = out_stdout();
    strbuf *j = report_json() ? report_field("inputs") : NULL;
    if (j) sb_puts(j, "[");
    else
        fprintf(out, "kernel %s on %s (%s): %zu arguments\n", kernel, visa_program_device(p),
                visa_platform_name(visa_program_platform(p)), nk);
    for (size_t i = 0; i < nk; i++) {
        visa_cl_arg_info ai;
        visa_program_kernel_arg(p, kernel, i, &ai);
        const char *takes = ai.kind == VISA_CL_ARG_BUFFER  ? "buf:SIZE[:INIT] | null"
                            : ai.kind == VISA_CL_ARG_LOCAL ? "SIZE (bytes)"
                            : ai.kind == VISA_CL_ARG_VALUE ? "numbers | raw:HEX"
                                                           : "(not emulated)";
        if (j) {
            sb_printf(j, "%s{\"index\": %zu", i ? ", " : "", i);
            sb_json_member(j, ", ", "name", ai.name);
            sb_json_member(j, ", ", "type", ai.type_name);
            sb_json_member(j, ", ", "address_space", ai.address_qualifier);
            sb_json_member(j, ", ", "kind", kind_text(ai.kind));
            sb_printf(j, ", \"size\": %u", ai.size);
            sb_json_member(j, ", ", "elem_type", ai.elem_type);
            sb_printf(j, ", \"elem_count\": %u", ai.elem_count);
            sb_json_member(j, ", ", "takes", takes);
            sb_puts(j, "}");
        } else {
            fprintf(out, "  %zu  %-16s %-16s %-10s %-6s %4u bytes  --arg %s=%s\n", i, ai.name, ai.type_name,
                    ai.address_qualifier, kind_text(ai.kind), ai.size, ai.name, takes);
        }
    }
    if (j) sb_puts(j, "]");
    return 0;
}

static visa_status print_output(void *ud, const char *data, size_t len) {
    (void)ud;
    return fwrite(data, 1, len, out_stdout()) == len ? VISA_OK : VISA_E_IO;
}

/* After the run: --out files, then --print lines. */
static int program_results(cl_cfg *c, const visa_program *p, const char *kernel, size_t nk) {
    for (size_t k = 0; k < c->nouts + c->nprints; k++) {
        bool is_out = k < c->nouts;
        const char *spec = is_out ? c->outs[k] : c->prints[k - c->nouts];
        size_t n = strcspn(spec, is_out ? "=" : ":");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, spec);
        int i = arg_index_of(p, kernel, name, nk);
        visa_cl_arg_info ai;
        if (i < 0 || visa_program_kernel_arg(p, kernel, (size_t)i, &ai) != VISA_OK || ai.kind != VISA_CL_ARG_BUFFER ||
            !c->bufs[i].data) {
            cli_file_error("E-LAUNCH", c->in, "%s '%s': kernel %s has no buffer argument named '%s'",
                           is_out ? "--out" : "--print", spec, kernel, name);
            return EXIT_DIAG;
        }
        if (is_out) {
            if (write_bytes(spec + n + 1, c->bufs[i].data, c->bufs[i].size)) return EXIT_DIAG;
            continue;
        }
        const char *t = spec[n] == ':' ? spec + n + 1 : *ai.elem_type ? ai.elem_type : NULL;
        unsigned esize;
        int flt, sgn;
        if (!t || elem_type(t, strlen(t), &esize, &flt, &sgn) < 0) {
            cli_file_error("E-LAUNCH", c->in, "--print %s: give the element type (NAME:TYPE; %s is not one visa knows)",
                           spec, ai.type_name);
            return EXIT_DIAG;
        }
        print_buffer(out_stdout(), &c->bufs[i], t);
    }
    return 0;
}

/* --trace / --profile of a program's launch (observe.h). */
typedef struct observing {
    obs_session *s;
    obs_launch *l;
    visa_observer observer;
    char *text; /* the kernel's vISA text */
} observing;

/* Start observing c->launch when asked; 0, or EXIT_DIAG after reporting why it cannot be. */
static int start_observing(cl_cfg *c, const visa_program *p, const char *kernel, observing *o) {
    if (!c->obs.trace && !c->obs.profile) return 0;
    obs_kernel k;
    if (!obs_program_kernel(p, kernel, &k, &o->text)) return 0; /* the launch says why it cannot run */
    if (!(o->s = obs_session_start(&c->obs))) {
        free(o->text);
        return EXIT_DIAG;
    }
    o->l = obs_launch_start(o->s, &k, obs_program_groups(&c->launch), &o->observer);
    c->launch.observer = o->l ? &o->observer : NULL;
    return 0;
}

/* After the launch (status st): the trace and profile written; 0 or EXIT_DIAG. */
static int finish_observing(observing *o, const visa_program *p, const char *kernel, visa_status st) {
    if (!o->s) return 0;
    obs_launch_finish(o->l, o->l ? obs_program_prepared(p, kernel, st) : NULL);
    int rc = obs_session_finish(o->s) || !o->l ? EXIT_DIAG : 0;
    obs_session_free(o->s);
    free(o->text);
    return rc;
}

static int launch_program(cl_cfg *c, const visa_program *p, const char *kernel) {
    size_t nk;
    visa_cl_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    if (visa_program_kernel_info(p, kernel, &ki) != VISA_OK) return EXIT_DIAG;
    nk = ki.arg_count;
    if (nk > CL_MAX_ARGS) {
        cli_file_error("E-LAUNCH", c->in, "kernel %s has %zu arguments: at most %d", kernel, nk, CL_MAX_ARGS);
        return EXIT_DIAG;
    }
    if (c->list) return list_program_args(p, kernel, nk);
    int rc = bind_program_args(c, p, kernel, nk);
    if (rc) return rc;
    c->launch.struct_size = sizeof c->launch;
    c->launch.kernel = kernel;
    c->launch.work_dim = c->dim;
    for (int d = 0; d < 3; d++) {
        c->launch.global_size[d] = c->global[d];
        c->launch.local_size[d] = c->local[d];
        c->launch.global_offset[d] = c->offset[d];
    }
    c->launch.printf_out = print_output;
    c->launch.arg_undef = c->undef;
    c->launch.arg_access = c->access;
    visa_run_stats stats;
    struct timespec t0, t1;
    observing o = {0};
    if (start_observing(c, p, kernel, &o)) return EXIT_DIAG;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    visa_status st = visa_program_run(p, &c->launch, c->args, nk, &stats);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int rc_obs = finish_observing(&o, p, kernel, st);
    if (c->stats) {
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        if (report_json())
            sb_printf(report_field("stats"), "{\"instructions\": %llu, \"threads\": %llu, \"seconds\": %.6f}",
                      (unsigned long long)stats.instructions, (unsigned long long)stats.threads, secs);
        else
            fprintf(stderr, "visa: %llu vISA instructions in %llu threads, %.3f s\n",
                    (unsigned long long)stats.instructions, (unsigned long long)stats.threads, secs);
    }
    /* a checked run goes on past its findings (memcheck drops the bad accesses): its buffers are
    ** what the kernel computed, and are written as they are (as Oclgrind does) */
    bool findings_only = st == VISA_E_RUNTIME && c->launch.checks;
    if (st != VISA_OK && !findings_only) {
        if (st != VISA_E_RUNTIME && st != VISA_E_UNSUPPORTED && st != VISA_E_ARG) report_status(st);
        return EXIT_DIAG;
    }
    int rc_out = program_results(c, p, kernel, nk);
    return findings_only || rc_obs ? EXIT_DIAG : rc_out;
}

static int load_and_launch(cl_cfg *c) {
    diag_out *d = report_diags();
    d->limit = TEXT_MAX_ERRORS;
    d->rule_ids = true; /* error[E-OCLOC-BUILD], error[E-RUN-...]: every id a run of a program gives */
    char *data;
    size_t len;
    if (read_input(c->in, &data, &len)) return EXIT_DIAG;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, sink_diag, d, LIB_MAX_ERRORS};
    visa_ctx *ctx;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) {
        free(data);
        report_status(VISA_E_NOMEM);
        return EXIT_DIAG;
    }
    visa_program_opts po = {sizeof po, VISA_PROGRAM_ZEBIN, c->device, c->options, NULL};
    if (has_suffix(c->in, ".cl")) po.input = VISA_PROGRAM_OPENCL_C;
    if (has_suffix(c->in, ".spv")) po.input = VISA_PROGRAM_SPIRV;
    report_input(po.input != VISA_PROGRAM_OPENCL_C);
    report_file(c->in);
    visa_program *p = NULL;
    visa_status st = visa_program_create(ctx, c->in, data, len, &po, &p);
    int rc = 0;
    if (st != VISA_OK) {
        if (st == VISA_E_NOMEM || st == VISA_E_IO) report_status(st);
        rc = EXIT_DIAG;
    } else {
        report_platform(visa_program_platform(p));
        const char *kernel = pick_kernel(p, c);
        rc = kernel ? launch_program(c, p, kernel) : EXIT_DIAG;
    }
    diag_out_finish(d, c->in);
    visa_program_destroy(p);
    visa_ctx_destroy(ctx);
    free(data);
    return rc;
}

int run_program(int argc, char **argv) {
    const char *with_value[RUN_MAX_OPTIONS];
    run_options(with_value, program_valued, true);
    report_scan_json(argc, argv, with_value);
    cl_cfg *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("E-NOMEM", NULL, "out of memory");
        return EXIT_DIAG;
    }
    int rc = parse_program_options(argc, argv, c);
    if (rc < 0) rc = load_and_launch(c);
    for (size_t k = 0; k < CL_MAX_ARGS; k++) free(c->bufs[k].data);
    free(c);
    return rc;
}
