/* module.c -- reading an input, loading it as a module (text or object), writing a module. */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../observe/outfile.h"

/* Inputs are read whole; larger ones are refused, and endless input (a pipe) is read only up to
** the limit.  VISA_MAX_INPUT_BYTES lowers it (for tests); documented in the man page/README. */
#define MAX_INPUT_BYTES ((size_t)1 << 30)

static size_t max_input_bytes(void) {
    const char *e = getenv("VISA_MAX_INPUT_BYTES");
    char *end;
    unsigned long long v = e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end && v && v < MAX_INPUT_BYTES ? (size_t)v : MAX_INPUT_BYTES;
}

/* Read f up to one byte past limit: enough to tell that the input exceeds it.  NULL after
** reporting why. */
static char *read_stream(FILE *f, const char *path, size_t limit, size_t *len) {
    size_t cap = limit + 1 < ((size_t)1 << 16) ? limit + 1 : (size_t)1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (n > limit) {
            cli_error("E-INPUT-LIMIT", path, "'%s' is larger than %zu bytes, the limit for an input", path, limit);
            free(buf);
            return NULL;
        }
        size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
        char *nb = realloc(buf, ncap);
        if (!nb) {
            cli_error("E-NOMEM", path, "out of memory reading '%s'", path);
            free(buf);
            return NULL;
        }
        buf = nb;
        cap = ncap;
    }
    *len = n;
    return buf;
}

int read_input(const char *path, char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("E-IO", path, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    char *buf = read_stream(f, path, max_input_bytes(), len);
    int err = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf || err) {
        if (buf) cli_error("E-IO", path, "error reading '%s'", path);
        free(buf);
        return -1;
    }
    *data = buf;
    return 0;
}

/* A regular file is mapped, its pages read in by the one call: no copy, and no page of the heap
** touched for it (a module's input is read whole and kept to the end: diagnostics quote it).
** 1: mapped; 0: not mapped (read it instead); -1: reported (too large). */
static int map_input(const char *path, loaded *L) {
    if (!strcmp(path, "-")) return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0; /* read_input reports why */
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        size_t limit = max_input_bytes();
        if ((uintmax_t)st.st_size > limit) {
            cli_error("E-INPUT-LIMIT", path, "'%s' is larger than %zu bytes, the limit for an input", path, limit);
            rc = -1;
        } else {
            int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
            flags |= MAP_POPULATE;
#endif
            void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
            if (p != MAP_FAILED) {
                L->data = p;
                L->len = (size_t)st.st_size;
                L->mapped = true;
                rc = 1;
            }
        }
    }
    close(fd);
    return rc;
}

static bool is_object(const char *data, size_t len) { return len >= 4 && !memcmp(data, "CISA", 4); }

void unload(loaded *L) {
    visa_module_destroy(L->m);
    visa_ctx_destroy(L->ctx);
    arena_destroy(L->arena);
    if (L->mapped) munmap(L->data, L->len);
    else free(L->data);
    memset(L, 0, sizeof *L);
}

int load_module(const char *path, visa_platform platform, diag_out *o, unsigned flags, loaded *L) {
    memset(L, 0, sizeof *L);
    int mapped = map_input(path, L);
    if (mapped < 0 || (!mapped && read_input(path, &L->data, &L->len))) return EXIT_DIAG;
    L->binary = is_object(L->data, L->len);
    report_input(L->binary);
    if ((flags & LOAD_OBJECT) && !L->binary) { /* a diagnostic (not the text echoed back as if binary) */
        visa_diag d = {VISA_SEV_ERROR,
                       "E-NOT-OBJECT",
                       path,
                       0,
                       0,
                       VISA_DIAG_NO_OFFSET,
                       "not a vISA object (it does not start with \"CISA\"); 'visa fmt' prints text",
                       NULL,
                       0,
                       NULL,
                       0};
        sink_diag(o, &d);
        return EXIT_DIAG;
    }
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, sink_diag, o, LIB_MAX_ERRORS};
    if (flags & LOAD_ARENA) desc.alloc_ud = L->arena = arena_create(L->len, &desc.alloc);
    visa_status st = visa_ctx_create(&desc, &L->ctx);
    if (st != VISA_OK) {
        report_status(st);
        return EXIT_DIAG;
    }
    o->src_file = path;
    o->src = L->binary ? NULL : L->data;
    o->src_len = L->binary ? 0 : L->len;
    st = L->binary ? visa_module_decode(L->ctx, path, L->data, L->len, platform, &L->m)
                   : visa_module_parse_text(L->ctx, path, L->data, L->len, platform, &L->m);
    if (st != VISA_OK) {
        if (st != VISA_E_SYNTAX && st != VISA_E_BINARY) report_status(st);
        return EXIT_DIAG;
    }
    return 0;
}

static visa_status write_out(void *ud, const char *data, size_t len) {
    return out_write(ud, data, len) ? VISA_OK : VISA_E_IO;
}

int write_text(const visa_module *m, const char *out, unsigned flags) {
    out_file of;
    if (out_open(&of, out)) return EXIT_DIAG;
    visa_print_opts po = {sizeof po, flags};
    visa_status st = visa_module_print(m, &po, write_out, &of);
    if (st != VISA_OK && st != VISA_E_IO) report_status(st); /* out_close reports a failed write */
    return out_close(&of, st == VISA_OK || st == VISA_E_IO) ? EXIT_DIAG : 0;
}

int write_bytes(const char *out, const void *data, size_t len) {
    out_file of;
    if (out_open(&of, out)) return EXIT_DIAG;
    out_write(&of, data, len); /* a failure is reported by out_close */
    return out_close(&of, true) ? EXIT_DIAG : 0;
}
