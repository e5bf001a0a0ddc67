/* cl.c -- `visa cl [OPTIONS] -- PROGRAM ARGS...`: run an unmodified OpenCL program with visa's
** OpenCL platform (libvisa-opencl.so, tools/icd) as its only platform, like `oclgrind ./app`.
**
** The program reaches the ICD through Debian's ICD loader (ocl-icd): OCL_ICD_VENDORS naming one
** .icd file makes the loader load that ICD alone (libOpenCL(7)).  The options reach the ICD as
** VISA_CL_* environment variables (docs/opencl.md), which it reads once when the program first
** asks for platforms.  The ICD writes the number of kernel launches that failed or had findings
** to the file VISA_CL_REPORT names; a program that exits 0 after such launches makes `visa cl`
** exit 1, so a checked run fails as `visa run --check` does.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../observe/observe.h"

static const char cl_help[] =
    "usage: visa cl [--device DEV] [--check=LIST] [--max-errors N] [--threads N] [--max-steps N]\n"
    "               [--timeout SECONDS] [--trace [--trace-...]] [--profile [--profile-...]]\n"
    "               [--icd FILE] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Run an OpenCL program (a C/C++ host, a pyopencl script, a test suite) with visa's OpenCL\n"
    "platform as its only platform: its kernels are compiled by IGC and run on emulated Intel GPUs\n"
    "(docs/opencl.md).  Each kernel launch gets the run checks and limits given here.\n"
    "\n"
    "  --device DEV       offer only this emulated device (tgllp, dg2-g10, pvc; default: all)\n"
    "  --check=LIST       run checks on every launch, comma-separated (or all): memcheck,\n"
    "                     initcheck, racecheck, synccheck; findings go to stderr, and the run\n"
    "                     exits 1 when there were any although the program exited 0\n"
    "  --max-errors N     findings printed per launch\n"
    "  --threads N        host threads per launch (groups spread over them)\n"
    "  --max-steps N      stop a launch after N instructions per thread\n"
    "  --timeout SECONDS  stop a launch after this much wall time\n"
    "\n"
    "Seeing what the kernels did (docs/observe.md; the program owns standard output, so these\n"
    "write to standard error unless given a file):\n"
    "  --trace            one line per executed instruction of every launch (as 'visa run --trace':\n"
    "                     FILE:LINE is the kernel's vISA, PROGRAM:KERNEL.visaasm), each launch's\n"
    "                     in group order, written as its groups finish\n"
    "  --trace-thread G,T, --trace-lanes A-B, --trace-lines A-B, --trace-format text|json:\n"
    "                     as for 'visa run' (G counts each launch's groups from 0)\n"
    "  --trace-out PATH   write the trace to PATH\n"
    "  --profile          at the program's exit, one profile per kernel summed over its launches:\n"
    "                     its vISA instructions as 'visa run --profile' lists them and, for a\n"
    "                     program built with -g, its OpenCL source lines\n"
    "  --profile-format text|json, --profile-svg PATH: as for 'visa run' (the SVG: every launch)\n"
    "\n"
    "  --icd FILE         the visa.icd to use (default: the build tree's icd/visa.icd beside\n"
    "                     this visa, else PREFIX/etc/OpenCL/vendors/visa.icd)\n"
    "\n"
    "The exit status is the program's (128 + the signal when one ended it), or 1 when it exited 0\n"
    "after launches that failed or had findings.\n";

#define CL_MAX_ENV 32

typedef struct cl_cmd {
    const char *icd;
    const char *env[CL_MAX_ENV][2]; /* VISA_CL_* name, value */
    char obs_env[CL_MAX_ENV][32]; /* obs_options[k]'s variable name (obs_env_name), by k */
    size_t nenv;
    obs_opts obs; /* what those say: checked here, read again by the ICD */
    char **program; /* PROGRAM ARGS..., NULL-terminated (argv's tail) */
    bool help;
} cl_cmd;

/* The options that take a value: option, VISA_CL_* variable. */
static const char *const cl_valued[][2] = {
    {"--device", "VISA_CL_DEVICE"},       {"--max-errors", "VISA_CL_MAX_ERRORS"}, {"--threads", "VISA_CL_THREADS"},
    {"--max-steps", "VISA_CL_MAX_STEPS"}, {"--timeout", "VISA_CL_TIMEOUT"},
};

static bool is_count(const char *v, bool real) {
    char *end;
    errno = 0;
    if (real) (void)strtod(v, &end);
    else (void)strtoull(v, &end, 10);
    return *v && *v != '-' && !*end && !errno;
}

/* The child's variable name = value; 0, or the usage error when there are too many options. */
static int add_env(cl_cmd *c, const char *name, const char *value, const char *a) {
    if (c->nenv == CL_MAX_ENV) return usage_error("too many options (at '%s')", a);
    c->env[c->nenv][0] = name;
    c->env[c->nenv++][1] = value;
    return 0;
}

static int take_valued(cl_cmd *c, const char *a, const char *v) {
    for (size_t k = 0; k < sizeof cl_valued / sizeof *cl_valued; k++) {
        if (strcmp(a, cl_valued[k][0])) continue;
        if (k > 0 && !is_count(v, !strcmp(a, "--timeout"))) return usage_errorf(v, "bad %s '%s'", a, v);
        return add_env(c, cl_valued[k][1], v, a);
    }
    c->icd = v; /* --icd */
    return 0;
}

/* An observation option (observe.h) at argv[*i], its value after it: checked, and passed on as
** its VISA_CL_* variable ("1" for a switch).  -1: not one of them; else 0 or the exit status. */
static int take_observe(cl_cmd *c, int argc, char **argv, int *i) {
    const char *a = argv[*i], *v = NULL;
    unsigned k = 0;
    while (k < obs_option_count && strcmp(a, obs_options[k].name)) k++;
    if (k == obs_option_count) return -1;
    if (obs_options[k].valued && ++*i >= argc) return usage_error("option '%s' needs an argument", a);
    if (obs_options[k].valued) v = argv[*i];
    char why[256];
    if (obs_parse_option(&c->obs, a, v, why, sizeof why)) return usage_errorf(v, "%s", why);
    /* the name is kept per option (a repeated option names the same variable), never per slot */
    if (k >= CL_MAX_ENV) return usage_error("option '%s' has no variable", a);
    obs_env_name(a, c->obs_env[k], sizeof c->obs_env[0]);
    return add_env(c, c->obs_env[k], v ? v : "1", a);
}

static int parse_cl(cl_cmd *c, int argc, char **argv) {
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-') break;
        if (is_help(a)) {
            c->help = true;
            return 0;
        }
        if (!strncmp(a, "--check=", 8)) {
            uint32_t bits;
            if (visa_checks_from_names(a + 8, &bits) != VISA_OK)
                return usage_error(
                    "bad --check '%s' (memcheck, initcheck, racecheck, synccheck or all, comma-separated)", a + 8);
            if (add_env(c, "VISA_CL_CHECK", a + 8, a)) return EXIT_USAGE;
            continue;
        }
        int orc = take_observe(c, argc, argv, &i);
        if (orc >= 0) {
            if (orc) return orc;
            continue;
        }
        bool valued = !strcmp(a, "--icd");
        for (size_t k = 0; k < sizeof cl_valued / sizeof *cl_valued; k++) valued |= !strcmp(a, cl_valued[k][0]);
        if (!valued) return usage_error("unknown option '%s' (visa cl --help)", a);
        if (++i >= argc) return usage_error("option '%s' needs an argument", a);
        int rc = take_valued(c, a, argv[i]);
        if (rc) return rc;
    }
    if (i >= argc) return usage_error("%s", "visa cl needs a program to run: visa cl [OPTIONS] -- PROGRAM [ARGS...]");
    c->program = argv + i;
    return 0;
}

/* The directory this visa lives in (from /proc/self/exe), into dir. */
static bool exe_dir(char *dir, size_t cap) {
    ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
    if (n <= 0) return false;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash) return false;
    *slash = 0;
    return true;
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The visa.icd to load: --icd, the build tree's (BUILD/icd/visa.icd beside BUILD/visa), or the
** installed one (PREFIX/etc/OpenCL/vendors/visa.icd beside PREFIX/bin/visa). */
static const char *find_icd(const cl_cmd *c, char *buf, size_t cap) {
    if (c->icd) return is_file(c->icd) ? c->icd : NULL;
    char dir[PATH_MAX];
    if (!exe_dir(dir, sizeof dir)) return NULL;
    static const char *const beside[] = {"/icd/visa.icd", "/../etc/OpenCL/vendors/visa.icd"};
    for (size_t k = 0; k < sizeof beside / sizeof *beside; k++) {
        if (strlen(dir) + strlen(beside[k]) >= cap) return NULL;
        memcpy(buf, dir, strlen(dir));
        strcpy(buf + strlen(dir), beside[k]);
        if (is_file(buf)) return buf;
    }
    return NULL;
}

/* The count the ICD left in the report file (0 when it wrote none: no launch went wrong). */
static unsigned long read_report(const char *path) {
    FILE *f = fopen(path, "r");
    unsigned long n = 0;
    if (f) {
        if (fscanf(f, "%lu", &n) != 1) n = 0;
        fclose(f);
    }
    return n;
}

static int run_program(const cl_cmd *c, const char *icd, const char *report) {
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "visa cl: cannot start '%s': %s\n", c->program[0], strerror(errno));
        return EXIT_DIAG;
    }
    if (pid == 0) {
        setenv("OCL_ICD_VENDORS", icd, 1);
        setenv("VISA_CL_REPORT", report, 1);
        for (size_t k = 0; k < c->nenv; k++) setenv(c->env[k][0], c->env[k][1], 1);
        execvp(c->program[0], c->program);
        fprintf(stderr, "visa cl: cannot run '%s': %s\n", c->program[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return EXIT_DIAG;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    int rc = WEXITSTATUS(status);
    unsigned long bad = read_report(report);
    if (bad) fprintf(stderr, "visa cl: %lu kernel launch%s failed or had findings\n", bad, bad == 1 ? "" : "es");
    return rc ? rc : bad ? EXIT_DIAG : 0;
}

int cmd_cl(int argc, char **argv) {
    cl_cmd c = {0};
    obs_opts_init(&c.obs);
    int rc = parse_cl(&c, argc, argv);
    if (rc) return rc;
    if (c.help) return print_help(cl_help);
    char buf[PATH_MAX];
    const char *icd = find_icd(&c, buf, sizeof buf);
    if (!icd) {
        if (c.icd) fprintf(stderr, "visa cl: no file '%s' (--icd)\n", c.icd);
        else
            fprintf(stderr,
                    "visa cl: visa's OpenCL ICD (visa.icd) is not beside this visa: build it (it needs Debian's "
                    "ocl-icd-opencl-dev) or give --icd FILE\n");
        return EXIT_DIAG;
    }
    char report[] = "/tmp/visa-cl-XXXXXX";
    int fd = mkstemp(report);
    if (fd < 0) {
        fprintf(stderr, "visa cl: cannot make a report file: %s\n", strerror(errno));
        return EXIT_DIAG;
    }
    close(fd);
    rc = run_program(&c, icd, report);
    unlink(report);
    return rc;
}
