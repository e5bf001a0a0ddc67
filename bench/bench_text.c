/* bench_text.c -- throughput of the text front end, in process (parse, parse + print: MB/s of
** input text) and, with --cli, of `visa fmt` as a whole process.
** Usage: bench_text [--cli VISA [--vs-cli VISA2] [--one FILE]] DIR...
**   DIR...       every *.visaasm in the directories (missing ones are skipped)
**   --cli VISA   also time the command-line tool:
**                - `VISA fmt BIG -o /dev/null`, BIG one file of at least 8 MB made of the inputs
**                  as IGC's combined dump (-dumpcombinedcisa) writes several routines: the first
**                  input whole, every later one without its leading lines up to its .version
**                  (docs/text-syntax/flow-sync-send.md 2.2), repeated; one file per dialect, of
**                  the inputs that parse; its output is checked once against the inputs printed
**                  one by one; the goal is 100 MB/s (wall clock, whole process);
**                - `VISA --version` and `VISA fmt FILE -o /dev/null` (FILE: --one, a one-kernel
**                  file), START_RUNS runs each, and whether fmt loaded LLVM (it must not: LLVM
**                  is loaded on the first compilation; seen with the loader's LD_DEBUG=files);
**   --vs-cli VISA2  the start-ups side by side with VISA2 (an interpreter-only build): the
**                goal is VISA within 1.5x of VISA2 (medians). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "visa/visa.h"

#define MAX_FILES 512
#define BIG_BYTES ((size_t)8 << 20) /* the combined input: at least this */
#define BIG_RUNS 7
#define START_RUNS 200
#define GOAL_MBS 100.0
#define GOAL_START_RATIO 1.5

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct file {
    char *name, *data;
    size_t len;
} file;

/* The whole file, or NULL. */
static char *read_file(const char *path, size_t *len) {
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    char *buf = fstat(fd, &st) == 0 ? malloc((size_t)st.st_size + 1) : NULL;
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (buf && got < (size_t)st.st_size) {
        free(buf);
        return NULL;
    }
    *len = got;
    return buf;
}

static int read_dirs(int argc, char **argv, int first, file *files) {
    int nfiles = 0;
    for (int a = first; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            printf("(skipping %s: not found)\n", argv[a]);
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) && nfiles < MAX_FILES) {
            size_t l = strlen(e->d_name);
            if (l < 9 || strcmp(e->d_name + l - 8, ".visaasm")) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            file *f = &files[nfiles];
            if ((f->data = read_file(path, &f->len))) f->name = strdup(path), nfiles++;
        }
        closedir(d);
    }
    return nfiles;
}

/* Parse only, then parse + print, each for at least one second. */
/* False when a parsed module did not print. */
static bool bench_in_process(visa_ctx *ctx, const file *files, int nfiles) {
    bool ok = true;
    size_t total = 0;
    int rejected = 0;
    for (int i = 0; i < nfiles; i++) total += files[i].len;
    for (int mode = 0; mode < 2; mode++) {
        double t0 = now(), t;
        size_t bytes = 0;
        int iters = 0;
        do {
            for (int i = 0; i < nfiles; i++) {
                visa_module *m = NULL;
                if (visa_module_parse_text(ctx, files[i].name, files[i].data, files[i].len, VISA_PLATFORM_XE2, &m) !=
                    VISA_OK) {
                    if (iters == 0 && mode == 0) rejected++;
                    continue;
                }
                if (mode == 1) {
                    char *out;
                    size_t len;
                    if (visa_module_print_to_buffer(m, NULL, &out, &len) == VISA_OK) visa_free(ctx, out, len + 1);
                    else ok = false, printf("%s: FAILED to print\n", files[i].name);
                }
                visa_module_destroy(m);
                bytes += files[i].len;
            }
            iters++;
            t = now() - t0;
        } while (t < 1.0);
        printf("%-14s %d files, %.1f KiB, %d passes, %.2f s: %.1f MB/s\n", mode ? "parse+print:" : "parse:", nfiles,
               total / 1024.0, iters, t, bytes / t / 1e6);
    }
    if (rejected) printf("(%d files were rejected by the parser and not timed)\n", rejected);
    return ok;
}

/* -- Whole processes ------------------------------------------------------------------------- */
typedef struct run_time {
    double wall, cpu; /* seconds: wall clock, user + system */
    int status;
} run_time;

static double children_cpu(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* Run argv with standard output and error to /dev/null (errfd >= 0: error there), with the
** environment variable env set to "files" when env is not NULL. */
static run_time run(const char *const *argv, const char *env, int errfd) {
    run_time r = {0, 0, -1};
    double c0 = children_cpu(), t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(errfd >= 0 ? errfd : null, 2);
        if (env) setenv(env, "files", 1);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &r.status, 0) != pid) return r;
    r.wall = now() - t0;
    r.cpu = children_cpu() - c0;
    return r;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Where an input's own lines end and the routines begin: past the line holding its .version
** (what IGC's combined dump leaves out of every routine after the first). */
static size_t after_version(const file *f) {
    for (size_t i = 0; i + 8 <= f->len; i++) {
        if ((i == 0 || f->data[i - 1] == '\n') && !memcmp(f->data + i, ".version", 8)) {
            const char *nl = memchr(f->data + i, '\n', f->len - i);
            return nl ? (size_t)(nl - f->data) + 1 : f->len;
        }
    }
    return f->len;
}

typedef struct growbuf {
    char *data;
    size_t len, cap;
} growbuf;

static void gb_put(growbuf *b, const char *s, size_t n) {
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data) abort();
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* The combined input of the files of dialect d that parse (in, at least BIG_BYTES), and what
** `visa fmt` must print for it (want); false when fewer than two files are of that dialect. */
static bool make_big(visa_ctx *ctx, const file *files, int nfiles, visa_dialect d, growbuf *in, growbuf *want,
                     int *kernels) {
    int used = 0;
    *kernels = 0;
    while (in->len < BIG_BYTES) {
        for (int i = 0; i < nfiles; i++) {
            visa_module *m = NULL;
            if (visa_module_parse_text(ctx, files[i].name, files[i].data, files[i].len, VISA_PLATFORM_XE2, &m) !=
                    VISA_OK ||
                visa_module_dialect(m) != d) {
                visa_module_destroy(m);
                continue;
            }
            char *out;
            size_t len;
            if (visa_module_print_to_buffer(m, NULL, &out, &len) != VISA_OK) abort();
            file printed = {NULL, out, len};
            size_t skip = in->len ? after_version(&files[i]) : 0, pskip = in->len ? after_version(&printed) : 0;
            gb_put(in, files[i].data + skip, files[i].len - skip);
            gb_put(want, out + pskip, len - pskip);
            *kernels += (int)visa_module_routine_count(m);
            visa_free(ctx, out, len + 1);
            visa_module_destroy(m);
            used++;
        }
        if (used < 2) return false;
    }
    return true;
}

static bool same_as_file(const char *path, const growbuf *want) {
    size_t len;
    char *got = read_file(path, &len);
    bool same = got && len == want->len && !memcmp(got, want->data, len);
    free(got);
    return same;
}

/* `visa fmt` of the combined input of dialect d: checked once, then timed; true if the goal is met. */
static bool bench_big(visa_ctx *ctx, const char *cli, const file *files, int nfiles, visa_dialect d) {
    growbuf in = {0}, want = {0};
    int kernels;
    if (!make_big(ctx, files, nfiles, d, &in, &want, &kernels)) {
        free(in.data), free(want.data);
        return true;
    }
    char path[] = "/tmp/bench_fmt_XXXXXX", out[] = "/tmp/bench_fmt_out_XXXXXX";
    int fd = mkstemp(path), ofd = mkstemp(out);
    bool ok = fd >= 0 && ofd >= 0 && write(fd, in.data, in.len) == (ssize_t)in.len;
    if (fd >= 0) close(fd);
    if (ofd >= 0) close(ofd);
    const char *check[] = {cli, "fmt", path, "-o", out, NULL};
    ok = ok && run(check, NULL, -1).status == 0 && same_as_file(out, &want);
    double wall[BIG_RUNS], cpu[BIG_RUNS];
    const char *argv[] = {cli, "fmt", path, "-o", "/dev/null", NULL};
    for (int k = 0; ok && k < BIG_RUNS; k++) {
        run_time r = run(argv, NULL, -1);
        ok = r.status == 0;
        wall[k] = r.wall, cpu[k] = r.cpu;
    }
    double mb = in.len / 1e6, w = ok ? median(wall, BIG_RUNS) : 0, c = ok ? median(cpu, BIG_RUNS) : 0;
    if (ok)
        printf("visa fmt, %-8s %.1f MB (%d routines), whole process, median of %d: %.0f ms, %.1f MB/s "
               "(cpu %.0f ms: %.1f MB/s); goal %.0f MB/s: %s\n",
               visa_dialect_name(d), mb, kernels, BIG_RUNS, w * 1e3, mb / w, c * 1e3, mb / c, GOAL_MBS,
               mb / w >= GOAL_MBS ? "met" : "NOT met");
    else
        printf("visa fmt, %s %.1f MB: FAILED (exit status, or the output differs from the inputs printed)\n",
               visa_dialect_name(d), mb);
    unlink(path), unlink(out);
    free(in.data), free(want.data);
    return ok; /* a missed goal is reported, not a failure */
}

/* Does `visa fmt one` load LLVM?  1 yes, 0 no, -1 cannot tell (the loader does not say). */
static int loads_llvm(const char *cli, const char *one) {
    FILE *log = tmpfile();
    if (!log) return -1;
    const char *argv[] = {cli, "fmt", one, "-o", "/dev/null", NULL};
    run(argv, "LD_DEBUG", fileno(log));
    rewind(log);
    char line[4096];
    int seen_visa = 0, seen_llvm = 0;
    while (fgets(line, sizeof line, log)) {
        seen_visa |= strstr(line, "libvisa") != NULL;
        seen_llvm |= strstr(line, "LLVM") != NULL;
    }
    fclose(log);
    return seen_llvm ? 1 : seen_visa ? 0 : -1;
}

/* START_RUNS of argv for cli and (if any) vs in turn; the medians; the goal when vs is given. */
static bool bench_start(const char *what, const char **argv, const char *cli, const char *vs) {
    static double a[START_RUNS], b[START_RUNS];
    int n = 0;
    for (int k = 0; k < START_RUNS; k++, n++) {
        argv[0] = cli;
        run_time r = run(argv, NULL, -1);
        if (r.status != 0) break;
        a[k] = r.wall;
        if (vs) {
            argv[0] = vs;
            r = run(argv, NULL, -1);
            if (r.status != 0) break;
            b[k] = r.wall;
        }
    }
    if (n < START_RUNS) {
        printf("%s: FAILED (exit status)\n", what);
        return false;
    }
    double ma = median(a, n);
    if (!vs) {
        printf("%-28s median of %d: %.2f ms\n", what, n, ma * 1e3);
        return true;
    }
    double mb = median(b, n), ratio = ma / mb;
    printf("%-28s median of %d: %.2f ms; interpreter-only build %.2f ms: %.2fx; goal %.1fx: %s\n", what, n, ma * 1e3,
           mb * 1e3, ratio, GOAL_START_RATIO, ratio <= GOAL_START_RATIO ? "met" : "NOT met");
    return true; /* a missed goal is reported, not a failure */
}

/* False when a run FAILED (an exit status, a wrong output, LLVM loaded by fmt). */
static bool bench_cli(visa_ctx *ctx, const char *cli, const char *vs, const char *one, const file *files, int nfiles) {
    bool ok = true;
    for (int d = VISA_DIALECT_KEEP + 1; d < VISA_DIALECT__COUNT; d++)
        ok &= bench_big(ctx, cli, files, nfiles, (visa_dialect)d);
    const char *version[] = {NULL, "--version", NULL};
    ok &= bench_start("visa --version:", version, cli, vs);
    if (!one) return ok;
    const char *fmt[] = {NULL, "fmt", one, "-o", "/dev/null", NULL};
    ok &= bench_start("visa fmt (one kernel):", fmt, cli, vs);
    int llvm = loads_llvm(cli, one);
    printf("visa fmt loads LLVM: %s\n", llvm < 0 ? "cannot tell (no LD_DEBUG)" : llvm ? "yes (it must not)" : "no");
    return ok && llvm != 1;
}

int main(int argc, char **argv) {
    static file files[MAX_FILES];
    const char *cli = NULL, *vs = NULL, *one = NULL;
    int a = 1;
    for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
        if (!strcmp(argv[a], "--cli")) cli = argv[a + 1];
        else if (!strcmp(argv[a], "--vs-cli")) vs = argv[a + 1];
        else if (!strcmp(argv[a], "--one")) one = argv[a + 1];
        else break;
    }
    int nfiles = read_dirs(argc, argv, a, files);
    if (!nfiles) {
        printf("no input files\n");
        return 1;
    }
    visa_ctx *ctx;
    visa_ctx_create(NULL, &ctx);
    bool ok = bench_in_process(ctx, files, nfiles);
    if (cli) ok &= bench_cli(ctx, cli, vs, one, files, nfiles);
    visa_ctx_destroy(ctx);
    return ok ? 0 : 1;
}
