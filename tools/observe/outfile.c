/* outfile.c -- checked, all-or-nothing output files for the `visa` tool and the ICD (outfile.h). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fchmod, fsync, readlink, realpath, sigaction */
#define _DEFAULT_SOURCE /* realpath with PATH_MAX */
#include "outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The temporary file being written, removed if a signal ends the tool mid-write (the tool writes
** one output at a time). */
static char pending_tmp[PATH_MAX + 32];
static volatile sig_atomic_t pending_set;
static bool stdout_reported; /* a failure on standard output was reported once already */
static FILE *capture; /* standard output's stand-in while captured */
static char *capture_buf;
static size_t capture_len;

FILE *out_stdout(void) { return capture ? capture : stdout; }

int out_capture_start(void) {
    if (!capture) capture = open_memstream(&capture_buf, &capture_len);
    return !capture;
}

char *out_capture_take(size_t *len) {
    *len = 0;
    if (!capture) return NULL;
    bool ok = fclose(capture) == 0;
    capture = NULL;
    if (!ok) { /* out of memory: what was captured is lost */
        free(capture_buf);
        capture_buf = NULL;
        return NULL;
    }
    *len = capture_len;
    char *buf = capture_buf;
    capture_buf = NULL;
    return buf;
}

static void on_fatal_signal(int sig) {
    if (pending_set) unlink(pending_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_fatal_signals(void) {
    static bool done;
    if (done) return;
    done = true;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        /* a signal the caller chose to ignore stays ignored */
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(sigs[k], &sa, NULL);
    }
}

const char *out_stdout_name(char *buf, size_t cap) {
    ssize_t n = readlink("/proc/self/fd/1", buf, cap - 1);
    if (n > 0 && buf[0] == '/') {
        buf[n] = 0;
        return buf;
    }
    return "standard output";
}

void tool_error(const char *id, const char *file, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tool_verror(id, file, fmt, ap);
    va_end(ap);
}

/* f: the stream written when there is no path (its name comes from its descriptor) */
static void report(const char *path, FILE *f, int err) {
    char name[PATH_MAX];
    const char *shown = path                                    ? path
                        : f && f != out_stdout() && f != stdout ? "standard error"
                                                                : out_stdout_name(name, sizeof name);
    tool_error("E-IO", shown, "cannot write '%s': %s", shown, strerror(err ? err : EIO));
}

static size_t fail_after_from_env(void) {
    const char *e = getenv("VISA_TEST_FAIL_WRITE_AFTER");
    char *end;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end ? (size_t)v + 1 : 0; /* stored + 1 so that 0 (fail at once) works */
}

int out_open_direct(out_file *o, const char *path) {
    memset(o, 0, sizeof *o);
    o->fail_after = fail_after_from_env();
    o->path = path;
    o->f = fopen(path, "wb");
    if (!o->f) report(path, NULL, errno);
    return o->f ? 0 : 1;
}

void out_open_stream(out_file *o, FILE *f) {
    memset(o, 0, sizeof *o);
    o->fail_after = fail_after_from_env();
    o->f = f;
}

int out_open(out_file *o, const char *path) {
    out_open_stream(o, out_stdout());
    if (!path || !strcmp(path, "-")) return 0;
    o->path = path;
    o->f = NULL;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) return out_open_direct(o, path); /* /dev/null, a FIFO, a terminal */
    /* rename over the file a symlink names, not over the link */
    o->target = exists ? realpath(path, NULL) : strdup(path);
    if (!o->target) {
        report(path, NULL, errno);
        return 1;
    }
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    const char *slash = strrchr(o->target, '/');
    size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;
    size_t n = strlen(o->target) + 16;
    if (n > sizeof pending_tmp || !(o->tmp = malloc(n))) {
        report(path, NULL, ENAMETOOLONG);
        free(o->target);
        return 1;
    }
    snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, o->target, o->target + dirlen);
    catch_fatal_signals();
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int err = errno;
        free(o->tmp);
        o->tmp = NULL;
        /* a writable file in a directory we may not create files in: write it in place */
        if (exists && (err == EACCES || err == EROFS || err == EPERM) && access(path, W_OK) == 0) {
            free(o->target);
            o->target = NULL;
            if ((o->f = fopen(path, "wb"))) return 0;
            err = errno;
        }
        report(path, NULL, err);
        free(o->target);
        o->target = NULL;
        return 1;
    }
    memcpy(pending_tmp, o->tmp, n);
    pending_set = 1;
    if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "wb"))) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        pending_set = 0;
        report(path, NULL, err);
        free(o->tmp);
        free(o->target);
        return 1;
    }
    return 0;
}

bool out_write(out_file *o, const void *data, size_t len) {
    if (o->err) return false;
    size_t n = len;
    if (o->fail_after && o->written + len >= o->fail_after) n = o->fail_after - 1 - o->written;
    errno = 0;
    size_t put = fwrite(data, 1, n, o->f);
    o->written += put;
    if (put != n) o->err = errno ? errno : EIO;
    else if (n != len) o->err = EIO; /* the test hook */
    return !o->err;
}

int out_close(out_file *o, bool ok) {
    int err = o->err;
    if (!o->path) { /* standard output (or its capture): flushed, not closed */
        errno = 0;
        if (fflush(o->f) != 0 && !err) err = errno ? errno : EIO;
        if (ferror(o->f) && !err) err = EIO;
        if (err && ok && !stdout_reported) report(NULL, o->f, err);
        if (err) stdout_reported = true;
        return err || !ok;
    }
    errno = 0;
    if (fflush(o->f) != 0 && !err) err = errno ? errno : EIO;
    if (ferror(o->f) && !err) err = EIO;
    /* the test hook, for what was written with fprintf */
    if (o->fail_after && !err && ftello(o->f) > (off_t)(o->fail_after - 1)) err = EIO;
    if (o->tmp && ok && !err && fsync(fileno(o->f)) != 0) err = errno;
    if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
    if (o->tmp) {
        if (ok && !err && rename(o->tmp, o->target) != 0) err = errno;
        if (!ok || err) unlink(o->tmp);
        pending_set = 0;
    }
    if (err && ok) report(o->path, NULL, err);
    free(o->tmp);
    free(o->target);
    o->f = NULL;
    o->tmp = o->target = NULL;
    return err || !ok;
}

int out_is_input(const char *out, const char *in) {
    struct stat so, si;
    if (!out || !in || !strcmp(out, "-") || !strcmp(in, "-")) return 0;
    if (stat(out, &so) || stat(in, &si) || so.st_dev != si.st_dev || so.st_ino != si.st_ino) return 0;
    if (!S_ISREG(so.st_mode)) return 0; /* /dev/null as input and output is harmless */
    tool_error("E-OUTPUT-IS-INPUT", out, "output '%s' would replace the input '%s'", out, in);
    return 1;
}

int out_close_stdout(void) {
    int err = 0;
    errno = 0;
    if (fflush(stdout) != 0) err = errno ? errno : EIO;
    if (!err && ferror(stdout)) err = EIO;
    char buf[PATH_MAX];
    const char *name = out_stdout_name(buf, sizeof buf); /* while descriptor 1 is open */
    if (fclose(stdout) != 0 && !err) err = errno ? errno : EIO;
    if (err && !stdout_reported) fprintf(stderr, "visa: cannot write '%s': %s\n", name, strerror(err));
    return err != 0;
}
