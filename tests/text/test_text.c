#define _POSIX_C_SOURCE 200809L
/* test_text.c -- text front end and printer tests:
**   ops DIR       every DIR/<PAGE>.visaasm is canonical: parse + print reproduces it byte for
**                 byte, the printed text parses to an equal module, and print is a fixpoint
**   corpus DIR    IGC's own dumps: `fmt` reproduces each file; --strip-comments reproduces it
**                 without the trailing //Platform: and //Build option: lines
**   fmt DIR       files with user comments: fmt keeps them; --strip-comments drops them
**   malformed DIR every case in DIR/cases.txt fails with an error at the expected line:col
**   pairs DIR     every DIR/X.in.visaasm prints (--strip-comments) as DIR/X.out.visaasm, written
**                 by hand from IGC's rules, which is a fixpoint and parses to the same module
**                 (except for rename*: the printer's fallback renames variables)
**   dialects DIR  DIR/<D>.visaasm for each dialect D (igc2, asm-text, igc1) is one program:
**                 each parses as dialect D, prints as itself and, converted, as each other one;
**                 contradicting or unknown dialect flags are VISA_E_ARG
** Usage: test_text ops DIR | corpus DIR | malformed DIR   (several pairs allowed)
*/
#include <stdint.h>

#include "../harness.h"
#include "ir/ir.h"
#include "visa/visa.h"

typedef struct diag_capture {
    int count;
    uint32_t line, col;
    char msg[512];
    int verbose;
} diag_capture;

static void capture(void *ud, const visa_diag *d) {
    diag_capture *c = ud;
    if (c->count++ == 0) {
        c->line = d->line;
        c->col = d->col;
        snprintf(c->msg, sizeof c->msg, "%s", d->message);
    }
    if (c->verbose) fprintf(stderr, "  %s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
}

static visa_ctx *new_ctx(diag_capture *c) {
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, capture, c, 0};
    visa_ctx *ctx = NULL;
    visa_ctx_create(&desc, &ctx);
    return ctx;
}

static char *print_module(visa_module *m, unsigned flags, size_t *len) {
    visa_print_opts po = {sizeof po, flags};
    char *out = NULL;
    if (visa_module_print_to_buffer(m, &po, &out, len) != VISA_OK) return NULL;
    return out;
}

static void report_first_difference(const char *a, size_t al, const char *b, size_t bl) {
    size_t i = 0, line = 1;
    while (i < al && i < bl && a[i] == b[i]) {
        if (a[i] == '\n') line++;
        i++;
    }
    fprintf(stderr, "  first difference at byte %zu (line %zu)\n", i, line);
    size_t s = i;
    while (s > 0 && a[s - 1] != '\n') s--;
    fprintf(stderr, "  expected: %.*s\n", (int)(strchr(a + s, '\n') ? strchr(a + s, '\n') - (a + s) : (long)(al - s)),
            a + s);
    if (s <= bl)
        fprintf(stderr, "  actual:   %.*s\n",
                (int)(memchr(b + s, '\n', bl - s) ? (char *)memchr(b + s, '\n', bl - s) - (b + s) : (long)(bl - s)),
                b + s);
}

static void test_ops(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CASE_BEGIN();
        size_t len = 0;
        char *text = th_read_file(path, &len);
        diag_capture dc = {0};
        dc.verbose = 1;
        visa_ctx *ctx = new_ctx(&dc);
        visa_module *m1 = NULL, *m2 = NULL;
        visa_status st = visa_module_parse_text(ctx, path, text, len, VISA_PLATFORM_XE2, &m1);
        CHECKF(st == VISA_OK, "%s does not parse", names[i]);
        if (m1) {
            size_t l1, l2;
            char *p1 = print_module(m1, VISA_PRINT_STRIP_COMMENTS, &l1);
            CHECK(p1 != NULL);
            if (p1) {
                bool same = l1 == len && memcmp(p1, text, len) == 0;
                CHECKF(same, "%s: print is not the canonical input", names[i]);
                if (!same) report_first_difference(text, len, p1, l1);
                st = visa_module_parse_text(ctx, "<printed>", p1, l1, VISA_PLATFORM_XE2, &m2);
                CHECKF(st == VISA_OK, "%s: printed text does not parse", names[i]);
                if (m2) {
                    if (strncmp(names[i], "rename", 6) != 0)
                        CHECKF(ir_module_equal(m1, m2), "%s: reparsed module differs", names[i]);
                    char *p2 = print_module(m2, VISA_PRINT_STRIP_COMMENTS, &l2);
                    CHECKF(p2 && l2 == l1 && memcmp(p1, p2, l1) == 0, "%s: print is not a fixpoint", names[i]);
                    visa_free(ctx, p2, l2 + 1);
                }
                visa_free(ctx, p1, l1 + 1);
            }
        }
        visa_module_destroy(m1);
        visa_module_destroy(m2);
        visa_ctx_destroy(ctx);
        free(text);
        CASE_END(names[i]);
        free(names[i]);
    }
    free(names);
}

static void test_corpus(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        th_skip("corpus golden tests", dir);
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = th_read_file(path, &len);
        diag_capture dc = {0};
        dc.verbose = 1;
        visa_ctx *ctx = new_ctx(&dc);
        visa_module *m = NULL;
        CASE_BEGIN();
        visa_status st = visa_module_parse_text(ctx, path, text, len, VISA_PLATFORM_XE2, &m);
        CHECKF(st == VISA_OK, "%s does not parse", names[i]);
        if (m) {
            size_t l;
            char *p = print_module(m, 0, &l);
            bool same = p && l == len && memcmp(p, text, len) == 0;
            CHECKF(same, "%s: fmt is not byte-identical", names[i]);
            if (!same && p) report_first_difference(text, len, p, l);
            visa_free(ctx, p, l + 1);
        }
        CASE_END(names[i]);
        CASE_BEGIN();
        if (m) {
            /* IGC's standalone tool: the file without the driver's trailing lines */
            size_t cut = len;
            const char *pl = strstr(text, "\n//Platform:");
            if (pl) cut = (size_t)(pl - text) + 1; /* up to the last instruction line */
            while (cut >= 2 && text[cut - 1] == '\n' && text[cut - 2] == '\n') cut--;
            size_t l;
            char *p = print_module(m, VISA_PRINT_STRIP_COMMENTS, &l);
            bool same = p && l == cut && memcmp(p, text, cut) == 0;
            CHECKF(same, "%s: --strip-comments is not IGC's canonical form", names[i]);
            if (!same && p) report_first_difference(text, cut, p, l);
            visa_free(ctx, p, l + 1);
        }
        CASE_END(names[i]);
        visa_module_destroy(m);
        visa_ctx_destroy(ctx);
        free(text);
        free(names[i]);
    }
    free(names);
}

/* fmt DIR: files with user comments; `fmt` keeps them byte for byte, --strip-comments drops
** them and still gives an equal module. */
static void test_fmt(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CASE_BEGIN();
        size_t len = 0;
        char *text = th_read_file(path, &len);
        diag_capture dc = {0};
        dc.verbose = 1;
        visa_ctx *ctx = new_ctx(&dc);
        visa_module *m = NULL, *m2 = NULL;
        CHECKF(visa_module_parse_text(ctx, path, text, len, VISA_PLATFORM_XE2, &m) == VISA_OK, "%s does not parse",
               names[i]);
        if (m) {
            size_t l;
            char *p = print_module(m, 0, &l);
            bool same = p && l == len && memcmp(p, text, len) == 0;
            CHECKF(same, "%s: fmt does not keep the comments in place", names[i]);
            if (!same && p) report_first_difference(text, len, p, l);
            visa_free(ctx, p, l + 1);
            p = print_module(m, VISA_PRINT_STRIP_COMMENTS, &l);
            /* every user comment in the fixtures contains the word "comment" */
            CHECKF(p && !strstr(p, "comment"), "%s: comments left after strip", names[i]);
            if (p && visa_module_parse_text(ctx, "<stripped>", p, l, VISA_PLATFORM_XE2, &m2) == VISA_OK)
                CHECKF(ir_module_equal(m, m2), "%s: stripped module differs", names[i]);
            else CHECKF(0, "%s: stripped text does not parse", names[i]);
            visa_free(ctx, p, l + 1);
        }
        visa_module_destroy(m);
        visa_module_destroy(m2);
        visa_ctx_destroy(ctx);
        free(text);
        CASE_END(names[i]);
        free(names[i]);
    }
    free(names);
}

/* dialects DIR: one program in every dialect (visa.h visa_dialect). */
static void test_dialects(const char *dir) {
    char *text[VISA_DIALECT__COUNT] = {0};
    size_t len[VISA_DIALECT__COUNT] = {0};
    diag_capture dc = {0};
    dc.verbose = 1;
    visa_ctx *ctx = new_ctx(&dc);
    for (int d = VISA_DIALECT_KEEP + 1; d < VISA_DIALECT__COUNT; d++) {
        const char *name = visa_dialect_name((visa_dialect)d);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.visaasm", dir, name);
        text[d] = th_read_file(path, &len[d]);
        CASE_BEGIN();
        visa_dialect back = VISA_DIALECT_KEEP;
        CHECKF(visa_dialect_from_name(name, &back) == VISA_OK && back == (visa_dialect)d, "%s: name", name);
        visa_module *m = NULL;
        CHECKF(text[d] && visa_module_parse_text(ctx, path, text[d], len[d], VISA_PLATFORM_XE2, &m) == VISA_OK,
               "%s does not parse", path);
        CHECKF(visa_module_dialect(m) == (visa_dialect)d, "%s: parsed as dialect %d", name,
               (int)visa_module_dialect(m));
        for (int to = VISA_DIALECT_KEEP; m && to < VISA_DIALECT__COUNT && text[to ? to : d]; to++) {
            size_t l = 0;
            char *p = print_module(m, VISA_PRINT_DIALECT(to), &l);
            int want = to ? to : d;
            bool same = p && l == len[want] && !memcmp(p, text[want], l);
            CHECKF(same, "%s printed as %s differs", name, visa_dialect_name((visa_dialect)to));
            if (!same && p) report_first_difference(text[want], len[want], p, l);
            if (p) visa_free(ctx, p, l + 1);
        }
        if (m) {
            size_t l = 0;
            visa_print_opts po = {sizeof po, VISA_PRINT_ASM_TEXT | VISA_PRINT_DIALECT(VISA_DIALECT_IGC1)};
            char *p = NULL;
            CHECK(visa_module_print_to_buffer(m, &po, &p, &l) == VISA_E_ARG && !p);
            po.flags = VISA_PRINT_DIALECT(VISA_DIALECT__COUNT);
            CHECK(visa_module_print_to_buffer(m, &po, &p, &l) == VISA_E_ARG && !p);
        }
        visa_module_destroy(m);
        CASE_END(name);
    }
    visa_dialect none;
    CHECK(visa_dialect_from_name("keep", &none) == VISA_E_ARG && visa_dialect_name(VISA_DIALECT__COUNT) == NULL);
    for (int d = 0; d < VISA_DIALECT__COUNT; d++) free(text[d]);
    visa_ctx_destroy(ctx);
}

/* pairs DIR: X.in.visaasm -> X.out.visaasm (IGC's normalisations, scopes). */
static void test_pairs(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".in.visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char ipath[4096], opath[4096];
        snprintf(ipath, sizeof ipath, "%s/%s", dir, names[i]);
        snprintf(opath, sizeof opath, "%s/%.*s.out.visaasm", dir, (int)(strlen(names[i]) - 11), names[i]);
        CASE_BEGIN();
        size_t il = 0, ol = 0;
        char *in = th_read_file(ipath, &il), *want = th_read_file(opath, &ol);
        CHECKF(in && want, "%s: missing input or expected output", names[i]);
        diag_capture dc = {0};
        dc.verbose = 1;
        visa_ctx *ctx = new_ctx(&dc);
        visa_module *m1 = NULL, *m2 = NULL;
        if (in && want && visa_module_parse_text(ctx, ipath, in, il, VISA_PLATFORM_XE2, &m1) == VISA_OK) {
            size_t l1 = 0, l2 = 0;
            char *p1 = print_module(m1, VISA_PRINT_STRIP_COMMENTS, &l1);
            bool same = p1 && l1 == ol && !memcmp(p1, want, ol);
            CHECKF(same, "%s: print differs from the expected output", names[i]);
            if (!same && p1) report_first_difference(want, ol, p1, l1);
            if (p1 && visa_module_parse_text(ctx, "<printed>", p1, l1, VISA_PLATFORM_XE2, &m2) == VISA_OK) {
                if (strncmp(names[i], "rename", 6) != 0)
                    CHECKF(ir_module_equal(m1, m2), "%s: reparsed module differs", names[i]);
                char *p2 = print_module(m2, VISA_PRINT_STRIP_COMMENTS, &l2);
                CHECKF(p2 && l2 == l1 && !memcmp(p1, p2, l1), "%s: print is not a fixpoint", names[i]);
                if (p2) visa_free(ctx, p2, l2 + 1);
            } else {
                CHECKF(0, "%s: printed text does not parse", names[i]);
            }
            if (p1) visa_free(ctx, p1, l1 + 1);
        } else {
            CHECKF(0, "%s does not parse", names[i]);
        }
        visa_module_destroy(m1);
        visa_module_destroy(m2);
        visa_ctx_destroy(ctx);
        free(in);
        free(want);
        CASE_END(names[i]);
        free(names[i]);
    }
    free(names);
}

/* cases.txt lines: FILE <tab> LINE:COL <tab> message substring   ('#' starts a comment) */
static void test_malformed(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cases.txt", dir);
    size_t len;
    char *manifest = th_read_file(path, &len);
    if (!manifest) {
        fprintf(stderr, "cannot read %s\n", path);
        th_failed++;
        return;
    }
    for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0]) continue;
        char file[256], want[512] = "";
        unsigned wl, wc;
        if (sscanf(line, "%255[^\t]\t%u:%u\t%511[^\n]", file, &wl, &wc, want) < 3) {
            fprintf(stderr, "bad manifest line: %s\n", line);
            th_failed++;
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, file);
        CASE_BEGIN();
        size_t tl;
        char *text = th_read_file(path, &tl);
        CHECKF(text != NULL, "cannot read %s", path);
        if (text) {
            diag_capture dc = {0};
            visa_ctx *ctx = new_ctx(&dc);
            visa_module *m = NULL;
            visa_status st = visa_module_parse_text(ctx, file, text, tl, VISA_PLATFORM_XE2, &m);
            CHECKF(st != VISA_OK && m == NULL, "%s: accepted", file);
            CHECKF(dc.count > 0, "%s: no diagnostic", file);
            CHECKF(dc.line == wl && dc.col == wc, "%s: error at %u:%u, expected %u:%u (%s)", file, dc.line, dc.col, wl,
                   wc, dc.msg);
            CHECKF(!want[0] || strstr(dc.msg, want), "%s: message '%s' lacks '%s'", file, dc.msg, want);
            visa_module_destroy(m);
            visa_ctx_destroy(ctx);
            free(text);
        }
        CASE_END(file);
    }
    free(manifest);
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "ops")) test_ops(argv[i + 1]);
        else if (!strcmp(argv[i], "corpus")) test_corpus(argv[i + 1]);
        else if (!strcmp(argv[i], "malformed")) test_malformed(argv[i + 1]);
        else if (!strcmp(argv[i], "fmt")) test_fmt(argv[i + 1]);
        else if (!strcmp(argv[i], "pairs")) test_pairs(argv[i + 1]);
        else if (!strcmp(argv[i], "dialects")) test_dialects(argv[i + 1]);
        else {
            fprintf(stderr, "unknown mode %s\n", argv[i]);
            return 2;
        }
    }
    return th_finish();
}
