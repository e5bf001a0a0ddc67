/* run.c -- `visa run`: run a kernel on the CPU.  The command line becomes a run_cfg (options,
** then their checks), the program is loaded, checked for the kernel and verified, then run with
** the launch built from the configuration; the results are written and printed. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../observe/outfile.h"
#include "run.h"

static const char run_help[] =
    "usage: visa run FILE [--kernel NAME] [--platform P] [--groups X[,Y[,Z]]]\n"
    "                [--local-size X[,Y[,Z]] | --group-size X[,Y[,Z]]] [--global-offset X,Y,Z]\n"
    "                [--arg [NAME=]VALUE]... [--out N=PATH]... [--print N:TYPE]...\n"
    "                [--threads N] [--max-steps N] [--timeout SECONDS] [--cr0 VALUE] [--stats]\n"
    "                [--no-verify] [--json] [--progress]\n"
    "       visa run FILE --list-inputs [--kernel NAME] [--platform P] [--json]\n"
    "\n"
    "Run a kernel on the CPU (the launch model: docs/launch.md).\n"
    "  --groups X,Y,Z       work-groups (thread groups) in x, y, z (default 1)\n"
    "  --local-size X,Y,Z   work-items per group.  Target=\"3d\" (OpenCL) kernels: each group runs\n"
    "                       ceil(X*Y*Z / SimdSize) threads, lane l of thread t is work-item\n"
    "                       t*SimdSize+l (x fastest), the per-thread payload gets the local ids,\n"
    "                       lanes past the group's end are off in the last thread's dispatch mask.\n"
    "                       Target=\"cm\" kernels: one thread per work-item (SIMD1), as --group-size\n"
    "  --group-size X,Y,Z   threads per group (the CM model); on a 3d kernel, X*SimdSize,Y,Z\n"
    "                       work-items.  Not together with --local-size.  Default: one thread\n"
    "  --global-offset X,Y,Z  what the global_offset keyword gives (default 0,0,0)\n"
    "  --arg VALUE          one per input that takes an argument (see --list-inputs), in\n"
    "                       declaration order; inputs in the per-thread payload (local ids) and\n"
    "                       .implicit_* inputs are filled by the launch and take none.  VALUE is\n"
    "                       a number (decimal or a float such as 1.5, converted to the input's\n"
    "                       type; 0x hex gives raw bits); A,B,C: one number per element of the\n"
    "                       input (12 bytes of d: 3 values); buf:SIZE[:INIT]: a new buffer, the\n"
    "                       input receives its address (INIT: zero (default), file=PATH,\n"
    "                       iota:TYPE, fill:TYPE:VALUE, or undef: zeroed but undefined to\n"
    "                       --check=initcheck), then :ro or :wo for a buffer the kernel may\n"
    "                       only read or only write (--check=memcheck reports a store to :ro);\n"
    "                       @N: the address of buffer N again;\n"
    "                       or a keyword for a value a runtime supplies, computed from the\n"
    "                       launch: local_size, global_size, group_count, global_offset,\n"
    "                       enqueued_local_size (3 x ud), work_dim (1 x ud), payload_header\n"
    "                       (8 x ud: global offset, local size, 0, 0)\n"
    "  --arg NAME=VALUE     the argument of the input called NAME (its variable: V0040, T6).\n"
    "                       Named arguments go to their inputs first; positional ones then fill\n"
    "                       the other inputs that take one, in declaration order\n"
    "  --list-inputs        list the kernel's inputs: name, offset, size, type, payload role,\n"
    "                       whether the kernel reads it and the --arg it takes; run nothing\n"
    "  --out N=PATH         write buffer N's final bytes (buffers count from 0 in --arg order)\n"
    "  --print N:TYPE       print buffer N as TYPE elements (ub b uw w ud d uq q hf bf f df)\n"
    "  --threads N          host threads (results are identical for any N)\n"
    "  --max-steps N        instructions per thread before stopping with an error (default 100\n"
    "                       million; the launch's total is bounded by 100 x N); 0: no limit\n"
    "  --timeout SECONDS    stop the launch with an error after this much wall time\n"
    "  --stats              print the instructions executed, threads and time to stderr\n"
    "  --no-verify          run without verifying first (by default the verifier's errors for\n"
    "                       the platform stop the run; its warnings do not, 'visa verify' shows them)\n"
    "  --json               print one JSON document on standard output whatever happens: the\n"
    "                       diagnostics (of the input, the launch, the run), what the run\n"
    "                       prints (\"output\"), --stats (\"stats\"); with --list-inputs the\n"
    "                       kernel and its inputs (\"kernel\", \"inputs\")\n"
    "  --progress           the progress line even when standard error is no terminal (on a\n"
    "                       terminal it shows by itself once a run takes more than a second)\n"
    "  --cr0 VALUE          initial %cr0 of every thread (default 0x4c0: IEEE, round to nearest\n"
    "                       even, denormals kept; bits 5:4 rounding mode, 6/7/10 DF/F/HF denorms)\n"
    "  --platform P         Gen9 Gen11 XeLP XeHP XeHPG XeHPC Xe2 Xe3 (default Xe2)\n"
    "\n"
    "Seeing what the kernel did (docs/observe.md):\n"
    "  --trace            one line per executed instruction, in group, thread, step order:\n"
    "                     G<x,y,z>.T<t> FILE:LINE mnemonic exec=<channel enables, hex>, then\n"
    "                     the destination's new value per channel, '_' for a disabled channel:\n"
    "                     V35.d = [3 5 _ 9]\n"
    "  --trace-thread G,T only group G (linear index x + X*(y + Y*z)) thread T (index in group)\n"
    "  --trace-lanes A-B  only channels A..B of destination values\n"
    "  --trace-lines A-B  only instructions on source lines A..B\n"
    "  --trace-format F   text (default) or json (one object per line, the same fields;\n"
    "                     null for a disabled channel)\n"
    "  --trace-out PATH   write the trace to PATH instead of stdout\n"
    "  --profile          the executed instructions annotated with executions, average active\n"
    "                     lanes, SIMD efficiency (active lanes / exec size), bytes moved by\n"
    "                     messages and time share (measured host time per instruction); then\n"
    "                     the hottest lines and the divergence (share of SIMD executions with a\n"
    "                     partial mask)\n"
    "  --profile-format F text (default) or json\n"
    "  --profile-svg PATH active lanes over executed instructions, one row per thread\n"
    "  --check=LIST       run checks, comma-separated (or all): memcheck (out-of-bounds and\n"
    "                     misaligned accesses, bad indirect operands and address registers),\n"
    "                     initcheck (undefined bytes stored, used as addresses or deciding\n"
    "                     branches), racecheck (SLM / global accesses\n"
    "                     without a barrier\n"
    "                     between), synccheck (barrier misuse, deadlocks).  Each finding is an\n"
    "                     error[C-<CHECK>-<RULE>] at its instruction; the run goes on (at most\n"
    "                     100 are shown) and exits 1 when anything was found\n"
    "\n"
    "Exit status: 0 ok, 1 errors in the input, the launch or at run time, 2 usage error.\n";

/* The options that take a value, then the switches, each list followed by the observation options
** of its kind (observe.h, run_options): "did you mean" offers them in this order. */
static const char *const own_valued[] = {
    "--kernel", "--platform", "--groups", "--group-size", "--threads",    "--max-steps",     "--timeout",
    "--arg",    "--out",      "--print",  "--cr0",        "--local-size", "--global-offset", NULL};
static const char *const own_switches[] = {"--stats",    "--list-inputs", "--no-verify", "--json",
                                           "--progress", "--help",        NULL};

static bool is_one_of(const char *a, const char *const *list) {
    for (size_t k = 0; list[k]; k++)
        if (!strcmp(a, list[k])) return true;
    return false;
}

/* A switch (or --check=LIST): true when a is one; *rc: a usage error. */
static bool parse_switch(run_cfg *c, const char *a, int *rc) {
    if (!strncmp(a, "--check=", 8)) {
        if (visa_checks_from_names(a + 8, &c->ro.checks) != VISA_OK)
            *rc = usage_error("bad --check '%s' (memcheck, initcheck, racecheck, synccheck or all, comma-separated)",
                              a + 8);
        return true;
    }
    if (!strcmp(a, "--trace") || !strcmp(a, "--profile")) return run_observe_option(&c->obs, a, NULL) == 0;
    bool *flag = !strcmp(a, "--stats")         ? &c->want_stats
                 : !strcmp(a, "--list-inputs") ? &c->list
                 : !strcmp(a, "--no-verify")   ? &c->no_verify
                 : !strcmp(a, "--json")        ? &c->json
                 : !strcmp(a, "--progress")    ? &c->progress
                                               : NULL;
    if (flag) *flag = true;
    return flag != NULL;
}

/* --threads N / --max-steps N */
static int parse_count(run_cfg *c, const char *a, const char *v) {
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    bool threads = a[2] == 't';
    if (*end || errno || (!n && threads)) return usage_error("bad number '%s'", v);
    if (threads) {
        if (n > 256) return usage_error("--threads %s: at most 256", v);
        c->ro.threads = (uint32_t)n;
    } else {
        /* 0: unlimited, per thread and in total (bound the run with --timeout) */
        c->ro.max_steps = n ? n : VISA_UNLIMITED;
        c->ro.max_total_steps = n ? 0 : VISA_UNLIMITED;
    }
    return 0;
}

/* What shapes the launch: --kernel, --platform, the sizes, limits and %cr0.  -1: not one of them. */
static int parse_launch_option(run_cfg *c, const char *a, const char *v) {
    visa_run_opts *ro = &c->ro;
    if (!strcmp(a, "--kernel")) {
        ro->kernel = v;
    } else if (!strcmp(a, "--platform")) {
        c->plat = v;
    } else if (!strcmp(a, "--groups") || !strcmp(a, "--group-size")) {
        if (parse_dims(v, !strcmp(a, "--groups") ? ro->groups : ro->group_size, 1, false))
            return usage_errorf(v, "bad %s '%s'", a, v);
    } else if (!strcmp(a, "--local-size")) {
        /* a zero is the launch's error (exit 1), not a usage error */
        if (parse_dims(v, ro->local_size, 1, true)) return usage_error("bad --local-size '%s'", v);
        if ((!ro->local_size[0] || !ro->local_size[1] || !ro->local_size[2]) && !*c->launch_error)
            snprintf(c->launch_error, sizeof c->launch_error, "local size %u,%u,%u: every dimension must be at least 1",
                     ro->local_size[0], ro->local_size[1], ro->local_size[2]);
    } else if (!strcmp(a, "--global-offset")) {
        if (parse_dims(v, ro->global_offset, 0, true)) return usage_error("bad --global-offset '%s'", v);
    } else if (!strcmp(a, "--threads") || !strcmp(a, "--max-steps")) {
        return parse_count(c, a, v);
    } else if (!strcmp(a, "--timeout")) {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (*end || errno || !(t > 0) || t > 1e9) return usage_error("bad --timeout '%s' (seconds, > 0)", v);
        ro->timeout_seconds = t;
    } else if (!strcmp(a, "--cr0")) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 0);
        if (*end || errno || n > 0xFFFFFFFFull) return usage_error("bad --cr0 '%s'", v);
        ro->set_cr0 = true;
        ro->cr0 = (uint32_t)n;
    } else {
        return -1;
    }
    return 0;
}

/* An option that takes a value and its value; 0 or the exit status. */
static int parse_valued(run_cfg *c, const char *a, const char *v) {
    int rc = parse_launch_option(c, a, v);
    if (rc < 0) rc = run_observe_option(&c->obs, a, v);
    if (rc >= 0) return rc;
    if (!strcmp(a, "--arg")) return parse_run_arg(c, v);
    bool out = !strcmp(a, "--out");
    size_t *n = out ? &c->nouts : &c->nprints;
    if (*n == RUN_MAX) return usage_error("%s", out ? "too many --out" : "too many --print");
    (out ? c->outs : c->prints)[(*n)++] = v;
    return 0;
}

/* The command line into *c; -1 to go on, else the exit status (0 after --help). */
static int parse_run_options(int argc, char **argv, run_cfg *c) {
    const char *with_value[RUN_MAX_OPTIONS], *switches[RUN_MAX_OPTIONS];
    run_options(with_value, own_valued, true);
    run_options(switches, own_switches, false);
    report_scan_json(argc, argv, with_value);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (is_help(a)) return print_help(run_help);
        if (parse_switch(c, a, &rc)) {
            if (rc) return rc;
            continue;
        }
        bool takes = is_one_of(a, with_value);
        if (!takes && a[0] == '-' && a[1]) {
            const char *known[2 * RUN_MAX_OPTIONS];
            size_t n = 0;
            for (size_t k = 0; with_value[k]; k++) known[n++] = with_value[k];
            for (size_t k = 0; switches[k]; k++) known[n++] = switches[k];
            return unknown_option(a, known, n);
        }
        if (takes) {
            if (i + 1 >= argc) return usage_error("option '%s' needs an argument", a);
            if ((rc = parse_valued(c, a, argv[++i]))) return rc;
        } else if (c->in) {
            return usage_error("unexpected argument '%s'", a);
        } else {
            c->in = a;
            report_file(a);
        }
    }
    if (!c->in) return usage_error("%s", "run needs an input file");
    return -1;
}

/* What the options say before anything is read: the launch's own error, the platform, the
** buffers --out and --print name, outputs that would replace the input.  0 or the exit status. */
static int check_run_options(run_cfg *c) {
    if (*c->launch_error && !c->list) {
        cli_file_error("E-LAUNCH", c->in, "%s", c->launch_error);
        return EXIT_DIAG;
    }
    if (visa_platform_from_name(c->plat, &c->platform) != VISA_OK) return usage_error("unknown platform '%s'", c->plat);
    report_platform(c->platform);
    for (size_t k = 0; k < c->nouts + c->nprints; k++) {
        bool out = k < c->nouts;
        const char *s = out ? c->outs[k] : c->prints[k - c->nouts];
        char *end;
        unsigned long n = strtoul(s, &end, 10);
        if (end == s || *end != (out ? '=' : ':') || n >= c->nbufs)
            return usage_error(out ? "bad --out '%s' (N=PATH with N a buffer number)"
                                   : "bad --print '%s' (N:TYPE with N a buffer number)",
                               s);
        unsigned size;
        int flt, sgn;
        if (!out && elem_type(end + 1, strlen(end + 1), &size, &flt, &sgn) < 0)
            return usage_error("unknown element type in --print '%s'", s);
        if (out && out_is_input(end + 1, c->in)) return EXIT_DIAG;
    }
    if (out_is_input(c->obs.trace_out, c->in) || out_is_input(c->obs.profile_svg, c->in)) return EXIT_DIAG;
    return 0;
}

/* What the verifier rejects is not run (its warnings do not stop it: 'visa verify' shows them). */
static int verify_before_run(const run_cfg *c, const loaded *L, diag_out *d) {
    d->rule_ids = d->drop_warnings = true;
    visa_verify_opts vo = {sizeof vo, c->platform, 0, L->binary ? NULL : L->data, L->binary ? 0 : L->len};
    visa_status vs = visa_module_verify(L->m, &vo, NULL);
    d->rule_ids = d->drop_warnings = false;
    if (vs == VISA_OK) return 0;
    if (vs != VISA_E_VERIFY) {
        report_status(vs);
    } else if (!report_json()) {
        diag_out_finish(d, c->in);
        fprintf(stderr, "%s: %u error%s on %s: not run (--no-verify runs it anyway)\n", c->in, d->errors,
                d->errors == 1 ? "" : "s", visa_platform_name(c->platform));
    }
    return EXIT_DIAG;
}

/* The buffers and options as visa_module_run takes them. */
static void build_launch(run_cfg *c, visa_buffer *vb, uint8_t *undef, uint8_t *access) {
    c->ro.platform = c->platform;
    c->ro.arg_names = c->any_named ? c->arg_names : NULL;
    c->ro.vector_elems = c->elems;
    c->ro.nvector_elems = c->nelems;
    bool any_undef = false, any_access = false;
    for (size_t k = 0; k < c->nbufs; k++) {
        vb[k].data = c->bufs[k].data;
        vb[k].size = c->bufs[k].size;
        undef[k] = c->bufs[k].undef;
        access[k] = c->bufs[k].access;
        any_undef |= c->bufs[k].undef != 0;
        any_access |= c->bufs[k].access != 0;
    }
    c->ro.undef_buffers = any_undef ? undef : NULL;
    c->ro.buffer_access = any_access ? access : NULL;
}

/* --trace / --profile: the observer over the launch's groups; NULL when not asked (or failed: *rc). */
static obs_session *start_observing(run_cfg *c, const loaded *L, visa_observer *observer, obs_launch **launch,
                                    int *rc) {
    *launch = NULL;
    if (!c->obs.trace && !c->obs.profile) return NULL;
    obs_session *os = obs_session_start(&c->obs);
    if (!os) {
        *rc = EXIT_DIAG;
        return NULL;
    }
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    obs_kernel k;
    memset(&k, 0, sizeof k);
    k.name = visa_kernel_get_info(L->m, c->ro.kernel, c->platform, &ki) == VISA_OK ? ki.name : "?";
    k.file = c->in;
    if (!L->binary && L->len && memchr(L->data, 0, L->len) == NULL) {
        k.text = L->data;
        k.text_len = L->len;
    }
    uint64_t ngroups = 1;
    for (int d = 0; d < 3; d++) ngroups *= c->ro.groups[d] ? c->ro.groups[d] : 1;
    *launch = obs_launch_start(os, &k, ngroups, observer);
    if (!*launch) *rc = EXIT_DIAG;
    c->ro.observer = *launch ? observer : NULL;
    return os;
}

/* --stats: on standard error, or with --json the "stats" member; how many of the instructions ran
** in compiled code (the module's only launch: all its kernels' count). */
static void report_stats(const visa_module *m, const visa_run_stats *stats, double secs) {
    double rate = secs > 0 ? (double)stats->instructions / secs * 1e-6 : 0.0;
    visa_prepare_stats ps;
    memset(&ps, 0, sizeof ps);
    ps.struct_size = sizeof ps;
    visa_module_prepare_stats(m, &ps);
    unsigned long long compiled = ps.compiled_instructions;
    if (report_json())
        sb_printf(report_field("stats"),
                  "{\"instructions\": %llu, \"threads\": %llu, \"seconds\": %.6f, \"compiled_instructions\": %llu}",
                  (unsigned long long)stats->instructions, (unsigned long long)stats->threads, secs, compiled);
    else
        fprintf(stderr, "visa: %llu vISA instructions in %llu threads, %.3f s (%.1f M instructions/s), %llu compiled\n",
                (unsigned long long)stats->instructions, (unsigned long long)stats->threads, secs, rate, compiled);
}

/* After a run: --out files (none after a failure: rc), then --print lines; returns rc or EXIT_DIAG. */
static int write_results(const run_cfg *c, int rc) {
    for (size_t k = 0; k < c->nouts && !rc; k++) {
        char *end;
        unsigned long n = strtoul(c->outs[k], &end, 10);
        rc = write_bytes(end + 1, c->bufs[n].data, c->bufs[n].size);
    }
    for (size_t k = 0; k < c->nprints; k++) {
        char *end;
        unsigned long n = strtoul(c->prints[k], &end, 10);
        print_buffer(out_stdout(), &c->bufs[n], end + 1);
    }
    return rc;
}

static int run_kernel(run_cfg *c, const loaded *L) {
    visa_buffer vb[RUN_MAX];
    uint8_t undef[RUN_MAX], access[RUN_MAX];
    build_launch(c, vb, undef, access);
    int rc = 0;
    visa_observer observer;
    obs_launch *ol;
    obs_session *os = start_observing(c, L, &observer, &ol, &rc);
    /* the progress line: on a terminal (unless the trace goes there too), or when asked */
    bool show = c->progress || (isatty(2) && !(c->obs.trace && !c->obs.trace_out && isatty(1)));
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    if (visa_kernel_get_info(L->m, c->ro.kernel, c->platform, &ki) != VISA_OK)
        ki.name = c->ro.kernel ? c->ro.kernel : "?";
    progress_line *pl = show ? progress_start(ki.name, isatty(2)) : NULL;
    visa_run_stats stats;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    report_diags()->rule_ids = true; /* the emulator's diagnostics show their ids (src/emu/diags.def) */
    visa_status st = visa_module_run(L->m, &c->ro, c->args, c->nargs, vb, c->nbufs, &stats);
    report_diags()->rule_ids = false;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    progress_stop(pl);
    obs_launch_finish(ol, ol ? obs_prepared(L->m, c->ro.kernel, c->platform, st) : NULL);
    if (os && obs_session_finish(os)) rc = EXIT_DIAG;
    obs_session_free(os);
    if (c->want_stats) report_stats(L->m, &stats, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (st == VISA_OK) return write_results(c, rc);
    /* a bad launch (VISA_E_ARG) and run-time errors have their diagnostics */
    if (st != VISA_E_RUNTIME && st != VISA_E_UNSUPPORTED && st != VISA_E_ARG) report_status(st);
    return EXIT_DIAG;
}

static int load_and_run(run_cfg *c) {
    diag_out *d = report_diags();
    d->limit = TEXT_MAX_ERRORS;
    loaded L;
    int rc = load_module(c->in, c->platform, d, 0, &L);
    if (rc) diag_out_finish(d, c->in);
    if (!rc) rc = check_kernel(L.m, c->in, c->ro.kernel);
    if (!rc && c->list) {
        rc = list_inputs(L.m, c->ro.kernel, c->platform);
    } else if (!rc && !c->no_verify) {
        rc = verify_before_run(c, &L, d);
    }
    if (!rc && !c->list) {
        rc = run_kernel(c, &L);
        diag_out_finish(d, c->in);
    }
    unload(&L);
    return rc;
}

int cmd_run(int argc, char **argv) {
    if (run_is_program(argc, argv)) return run_program(argc, argv); /* OpenCL: runcl.c */
    run_cfg *c = calloc(1, sizeof *c); /* large: the arguments' names and vector elements */
    if (!c) {
        cli_error("E-NOMEM", NULL, "out of memory");
        return EXIT_DIAG;
    }
    c->plat = "Xe2";
    c->ro.struct_size = sizeof c->ro;
    obs_opts_init(&c->obs);
    int rc = parse_run_options(argc, argv, c);
    if (rc < 0) {
        rc = check_run_options(c);
        if (!rc) rc = load_and_run(c);
    }
    for (size_t k = 0; k < c->nbufs; k++) free(c->bufs[k].data);
    free(c);
    return rc;
}
