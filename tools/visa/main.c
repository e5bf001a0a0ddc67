/* main.c -- the `visa` command-line tool: a thin driver over the public C API. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include "visa/visa.h"
#include "check.h"
#include "observe.h"
#include "region.h"
#include "outfile.h"

#define EXIT_DIAG 1
#define EXIT_USAGE 2

static const char *prog = "visa";

/* -- Diagnostics: file:line:col: error: message, then the source line and a caret ----------- */
/* The source line and a caret under the column (at most 160 columns, around the caret). */
static void print_source_caret(const visa_diag *d) {
    size_t col = d->col ? d->col - 1 : 0, from = 0, to = d->source_line_len;
    if (col > 100) from = col - 80;
    if (to - from > 160) to = from + 160;
    fputs(from ? "    ..." : "    ", stderr);
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)d->source_line[i];
        fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', stderr);
    }
    fputs(to < d->source_line_len ? "...\n    " : "\n    ", stderr);
    if (from) fputs("   ", stderr);
    for (size_t i = from; i < col && i < d->source_line_len; i++)
        fputc(d->source_line[i] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

/* file:line:col: error: message (ud non-NULL: error[CODE], as `visa verify` prints rule ids),
** then the source line and a caret; objects give +0xOFFSET instead of line:col. */
static void print_diag(void *ud, const visa_diag *d) {
    const char *sev = d->severity == VISA_SEV_ERROR ? "error" : d->severity == VISA_SEV_WARNING
                                                                    ? "warning" : "note";
    char tag[96];
    if (ud || !strncmp(d->code, "C-", 2)) snprintf(tag, sizeof tag, "%s[%s]", sev, d->code); /* checks: visa run --check */
    else snprintf(tag, sizeof tag, "%s", sev);
    if (d->line) fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, tag, d->message);
    else if (d->offset == VISA_DIAG_NO_OFFSET) fprintf(stderr, "%s: %s: %s\n", d->file, tag, d->message);
    else fprintf(stderr, "%s:+0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, tag,
                 d->message);
    if (d->source_line) print_source_caret(d);
}

typedef struct json_diags {
    char *buf;
    size_t len, cap;
    unsigned n;
} json_diags;

static void jputs(json_diags *j, const char *s, size_t n) {
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < j->len + n + 1) cap *= 2;
        char *nb = realloc(j->buf, cap);
        if (!nb) return;
        j->buf = nb;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = 0;
}

static void jstr(json_diags *j, const char *s, size_t n) {
    jputs(j, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c;
            jputs(j, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            jputs(j, esc, 6);
        } else {
            jputs(j, (const char *)&s[i], 1);
        }
    }
    jputs(j, "\"", 1);
}

static const char *sev_name(visa_severity s) {
    return s == VISA_SEV_ERROR ? "error" : s == VISA_SEV_WARNING ? "warning" : "note";
}

static void json_diag(void *ud, const visa_diag *d) {
    json_diags *j = ud;
    char num[96];
    const char *open = j->n++ ? ",\n    {" : "\n    {";
    jputs(j, open, strlen(open));
    jputs(j, "\"severity\": ", 12);
    jstr(j, sev_name(d->severity), strlen(sev_name(d->severity)));
    jputs(j, ", \"rule\": ", 10);
    jstr(j, d->code, strlen(d->code));
    jputs(j, ", \"file\": ", 10);
    jstr(j, d->file, strlen(d->file));
    if (d->line) snprintf(num, sizeof num, ", \"line\": %u, \"col\": %u", d->line, d->col);
    else if (d->offset == VISA_DIAG_NO_OFFSET) num[0] = 0;
    else snprintf(num, sizeof num, ", \"offset\": %llu", (unsigned long long)d->offset);
    jputs(j, num, strlen(num));
    jputs(j, ", \"message\": ", 13);
    jstr(j, d->message, strlen(d->message));
    if (d->source_line) {
        jputs(j, ", \"source\": ", 12);
        jstr(j, d->source_line, d->source_line_len);
    }
    jputs(j, "}", 1);
}

/* -- Where diagnostics go -----------------------------------------------------------------------
** Every command's context reports into a diag_out: it counts errors and warnings (what --json and
** the summaries say), prints the first `limit` errors as text (file:line:col, the source line, a
** caret) or collects them all as JSON, and says how many more there were. */
#define LIB_MAX_ERRORS 100000u /* what the library reports at most; the tool prints fewer */
#define TEXT_MAX_ERRORS 20u    /* errors printed as text by fmt, asm, dis and run */

typedef struct diag_out {
    bool rule_ids;      /* error[RULE] (verify, and run's verification) */
    bool json;          /* collect as JSON instead of printing */
    bool drop_warnings; /* run's verification: warnings neither shown nor counted */
    unsigned limit;     /* errors printed as text; 0: all */
    unsigned errors, warnings, hidden_errors, hidden_warnings;
    const char *src_file, *src; /* the text input, for run-time diagnostics that lack their line */
    size_t src_len;
    json_diags j;
} diag_out;

static void diag_out_init(diag_out *o, unsigned limit, bool json) {
    memset(o, 0, sizeof *o);
    o->limit = limit;
    o->json = json;
}

/* The source line `line` of the text input, for a diagnostic the library gave without it. */
static void add_source_line(const diag_out *o, visa_diag *d) {
    if (d->source_line || !d->line || !o->src || !o->src_file || strcmp(d->file, o->src_file)) return;
    const char *p = o->src, *end = o->src + o->src_len;
    for (uint32_t l = 1; l < d->line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n && p[n - 1] == '\r') n--;
    d->source_line = p;
    d->source_line_len = n;
}

static void progress_clear(void);

static void sink_diag(void *ud, const visa_diag *in) {
    diag_out *o = ud;
    bool err = in->severity == VISA_SEV_ERROR;
    if (!err && o->drop_warnings) return;
    if (err) o->errors++;
    else if (in->severity == VISA_SEV_WARNING) o->warnings++;
    visa_diag d = *in;
    add_source_line(o, &d);
    if (o->json) {
        json_diag(&o->j, &d);
    } else if (o->limit && o->errors > o->limit) { /* past the limit: counted, not shown */
        if (err) o->hidden_errors++;
        else o->hidden_warnings++;
    } else {
        progress_clear();
        print_diag(o->rule_ids ? (void *)o : NULL, &d);
    }
}

/* After a command: how many diagnostics were not shown. */
static void diag_out_finish(const diag_out *o, const char *file) {
    if (o->json || !(o->hidden_errors + o->hidden_warnings)) return;
    fprintf(stderr, "%s: ... and %s%u more error%s", file, o->errors >= LIB_MAX_ERRORS ? "at least " : "",
            o->hidden_errors, o->hidden_errors == 1 ? "" : "s");
    if (o->hidden_warnings)
        fprintf(stderr, " and %u more warning%s", o->hidden_warnings, o->hidden_warnings == 1 ? "" : "s");
    fputs("\n", stderr);
}

/* --json: one object with the counts and the diagnostics. */
static void json_report(FILE *f, const char *command, const char *file, visa_platform platform, bool binary,
                        int rc, diag_out *o) {
    json_diags hd = {NULL, 0, 0, 0};
    jstr(&hd, file, strlen(file));
    fprintf(f,
            "{\n  \"command\": \"%s\",\n  \"file\": %s,\n  \"platform\": \"%s\",\n  \"input\": \"%s\",\n"
            "  \"status\": \"%s\",\n  \"errors\": %u,\n  \"warnings\": %u,\n  \"diagnostics\": [%s%s]\n}\n",
            command, hd.buf ? hd.buf : "\"\"", visa_platform_name(platform), binary ? "binary" : "text",
            rc ? "invalid" : "ok", o->errors, o->warnings, o->j.buf ? o->j.buf : "", o->j.n ? "\n  " : "");
    free(hd.buf);
    free(o->j.buf);
    memset(&o->j, 0, sizeof o->j);
}

/* Inputs are read whole; larger ones are refused, and endless input (a pipe) is read only up to
** the limit.  VISA_MAX_INPUT_BYTES lowers it (for tests); documented in the man page/README. */
#define MAX_INPUT_BYTES ((size_t)1 << 30)

static size_t max_input_bytes(void) {
    const char *e = getenv("VISA_MAX_INPUT_BYTES");
    char *end;
    unsigned long long v = e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end && v && v < MAX_INPUT_BYTES ? (size_t)v : MAX_INPUT_BYTES;
}

static int read_file(const char *path, char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open '%s': %s\n", prog, path, strerror(errno));
        return -1;
    }
    size_t limit = max_input_bytes();
    size_t cap = limit + 1 < ((size_t)1 << 16) ? limit + 1 : (size_t)1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (n > limit) {
            fprintf(stderr, "%s: '%s' is larger than %zu bytes, the limit for an input\n", prog,
                    path, limit);
            free(buf);
            buf = NULL;
            break;
        }
        /* grow to at most one byte past the limit: enough to tell that the input exceeds it */
        size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
        char *nb = realloc(buf, ncap);
        if (!nb) {
            fprintf(stderr, "%s: out of memory reading '%s'\n", prog, path);
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap = ncap;
    }
    int err = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf || err) {
        if (buf) fprintf(stderr, "%s: error reading '%s'\n", prog, path);
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

static visa_status write_stream(void *ud, const char *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)ud) == len ? VISA_OK : VISA_E_IO;
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return EXIT_USAGE;
}

/* A program read and loaded: its context, module and, for text, the text (diagnostics quote it). */
typedef struct loaded {
    visa_ctx *ctx;
    visa_module *m;
    char *data;
    size_t len;
    bool binary;
} loaded;

static bool is_object(const char *data, size_t len) { return len >= 4 && !memcmp(data, "CISA", 4); }

static void unload(loaded *L) {
    visa_module_destroy(L->m);
    visa_ctx_destroy(L->ctx);
    free(L->data);
    memset(L, 0, sizeof *L);
}

/* Load a module from text or a binary object (recognised by its "CISA" magic); want_object: the
** input must be an object (dis).  Diagnostics go to o; the text stays in L->data. */
static int load_module(const char *path, visa_platform platform, diag_out *o, bool want_object, loaded *L) {
    memset(L, 0, sizeof *L);
    if (read_file(path, &L->data, &L->len)) return EXIT_DIAG;
    L->binary = is_object(L->data, L->len);
    if (want_object && !L->binary) { /* a diagnostic (not the text echoed back as if binary) */
        visa_diag d = {VISA_SEV_ERROR, "E-NOT-OBJECT", path, 0, 0, VISA_DIAG_NO_OFFSET,
                       "not a vISA object (it does not start with \"CISA\"); 'visa fmt' prints text", NULL, 0};
        sink_diag(o, &d);
        return EXIT_DIAG;
    }
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, sink_diag, o, LIB_MAX_ERRORS};
    if (visa_ctx_create(&desc, &L->ctx) != VISA_OK) return EXIT_DIAG;
    o->src_file = path;
    o->src = L->binary ? NULL : L->data;
    o->src_len = L->binary ? 0 : L->len;
    visa_status st = L->binary ? visa_module_decode(L->ctx, path, L->data, L->len, platform, &L->m)
                               : visa_module_parse_text(L->ctx, path, L->data, L->len, platform, &L->m);
    if (st != VISA_OK) {
        if (st != VISA_E_SYNTAX && st != VISA_E_BINARY) fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
        return EXIT_DIAG;
    }
    return 0;
}

static visa_status write_out(void *ud, const char *data, size_t len) {
    return out_write(ud, data, len) ? VISA_OK : VISA_E_IO;
}

/* A library failure other than the diagnostics it reported (and other than a failed write, which
** out_close reports with the path). */
static void report_status(visa_status st) {
    if (st != VISA_OK && st != VISA_E_IO) fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
}

/* Print m as text to out (standard output when NULL); the exit code of fmt and dis. */
static int write_text(const visa_module *m, const char *out, unsigned flags) {
    out_file of;
    if (out_open(&of, out)) return EXIT_DIAG;
    visa_print_opts po = {sizeof po, flags};
    visa_status st = visa_module_print(m, &po, write_out, &of);
    report_status(st);
    return out_close(&of, st == VISA_OK || st == VISA_E_IO) ? EXIT_DIAG : 0;
}

/* -- "did you mean" ------------------------------------------------------------------------------ */
/* Edit distance (insertions, deletions, substitutions, transpositions) of two short strings. */
static size_t edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63) return SIZE_MAX;
    size_t d[64][64];
    for (size_t i = 0; i <= n; i++) d[i][0] = i;
    for (size_t j = 0; j <= m; j++) d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

/* The candidate closest to word, if it is close enough to be a likely typo (NULL otherwise). */
typedef struct suggester {
    const char *word, *best;
    size_t dist;
} suggester;

static void suggest_init(suggester *g, const char *word) {
    g->word = word;
    g->best = NULL;
    size_t n = strlen(word);
    g->dist = n <= 4 ? 2 : n / 3 + 1; /* strictly below this */
}

static void suggest_try(suggester *g, const char *cand) {
    size_t d = edit_distance(g->word, cand);
    if (d < g->dist) {
        g->dist = d;
        g->best = cand;
    }
}

/* "unknown option '--jsn' (did you mean '--json'?)" */
static int unknown_option(const char *a, const char *const *known, size_t n) {
    suggester g;
    suggest_init(&g, a);
    for (size_t k = 0; k < n; k++)
        if (known[k]) suggest_try(&g, known[k]);
    fprintf(stderr, "%s: unknown option '%s'", prog, a);
    if (g.best) fprintf(stderr, " (did you mean '%s'?)", g.best);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return EXIT_USAGE;
}

/* -- visa fmt ---------------------------------------------------------------------------------- */
static const char fmt_help[] =
    "usage: visa fmt FILE [-o OUT] [--strip-comments] [--asm-text] [--platform P] [--json]\n"
    "\n"
    "Parse vISA assembly and print it exactly as IGC prints it. Your comments are kept where\n"
    "they stood; instruction ids (/// $N) and the predefined-variable block are regenerated.\n"
    "A file in IGC's asm-text style (no predefined-variable block, as IGC 2.x dumps OpenCL and\n"
    "SYCL kernels) keeps that style.\n"
    "\n"
    "  -o OUT              write to OUT instead of standard output (-o FILE formats FILE in place)\n"
    "  --strip-comments    print IGC's canonical form (no user comments): its disassembly print\n"
    "  --asm-text          print as IGC's asm-text mode (vISA_IsaAssembly): no predefined-\n"
    "                      variable block, no blank header lines\n"
    "  --platform P        target platform (GRF size for %sizeof GRF); default Xe2\n"
    "  --json              diagnostics as one JSON object on standard error (counts and all of\n"
    "                      them; as text, the first 20 errors are shown)\n"
    "\n"
    "Exit status: 0 ok, 1 input has errors, 2 usage error.\n";

/* Options shared by fmt, asm, dis and verify: one input FILE, -o OUT (when out != NULL),
** --platform P, --help; `flags` lists the command's own switches, each setting its bit in *set
** (the `standalone` ones need no FILE).
** Returns -1 to go on, or the exit status (after --help or a usage error). */
typedef struct cmd_opts {
    const char *in, *out;
    visa_platform platform;
    unsigned set; /* bit k: flags[k] was given */
} cmd_opts;

static int parse_cmd_opts(int argc, char **argv, const char *name, const char *help, bool takes_out,
                          const char *const *flags, unsigned standalone, cmd_opts *o) {
    const char *plat = "Xe2";
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int flag = -1;
        for (int k = 0; flags && flags[k]; k++)
            if (!strcmp(a, flags[k])) flag = k;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(help, stdout);
            return 0;
        } else if (flag >= 0) {
            o->set |= 1u << flag;
        } else if ((takes_out && !strcmp(a, "-o")) || !strcmp(a, "--platform")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", a);
            if (a[1] == 'o') o->out = argv[i];
            else plat = argv[i];
        } else if (a[0] == '-' && a[1]) {
            const char *known[16] = {"--help", "--platform", takes_out ? "-o" : NULL};
            size_t n = 3;
            for (int k = 0; flags && flags[k] && n < 16; k++) known[n++] = flags[k];
            return unknown_option(a, known, n);
        } else if (o->in) {
            return usage_error("unexpected argument '%s'", a);
        } else {
            o->in = a;
        }
    }
    if (!o->in && !(o->set & standalone)) return usage_error("%s needs an input file", name);
    if (visa_platform_from_name(plat, &o->platform) != VISA_OK) return usage_error("unknown platform '%s'", plat);
    return -1;
}

/* The end of fmt, asm and dis: the summary or the JSON report. */
static int finish_cmd(const char *command, const cmd_opts *o, const loaded *L, diag_out *d, int rc) {
    if (d->json) json_report(stderr, command, o->in, o->platform, L->binary, rc, d);
    else diag_out_finish(d, o->in);
    return rc;
}

static int cmd_fmt(int argc, char **argv) {
    static const char *const flags[] = {"--strip-comments", "--json", "--asm-text", NULL};
    cmd_opts o;
    int early = parse_cmd_opts(argc, argv, "fmt", fmt_help, true, flags, 0, &o);
    if (early >= 0) return early;
    diag_out d;
    diag_out_init(&d, TEXT_MAX_ERRORS, o.set & 2);
    loaded L;
    int rc = load_module(o.in, o.platform, &d, false, &L);
    if (!rc) rc = write_text(L.m, o.out, (o.set & 1 ? VISA_PRINT_STRIP_COMMENTS : 0) | (o.set & 4 ? VISA_PRINT_ASM_TEXT : 0));
    rc = finish_cmd("fmt", &o, &L, &d, rc);
    unload(&L);
    return rc;
}

/* -- visa asm / visa dis ------------------------------------------------------------------------ */
static const char asm_help[] =
    "usage: visa asm FILE [-o OUT.isa] [--platform P] [--json]\n"
    "\n"
    "Assemble vISA text (or re-encode an object) into a version 4.1 vISA object, byte for byte\n"
    "what IGC's writer produced. --platform (default Xe2) decides the GRF size used for\n"
    "address-of offsets. Without -o the object goes to FILE with its extension replaced by .isa;\n"
    "an output that is the input file itself is refused. --json: diagnostics as one JSON object\n"
    "on standard error.\n";
static const char dis_help[] =
    "usage: visa dis FILE.isa [-o OUT.visaasm] [--platform P] [--json]\n"
    "\n"
    "Disassemble a vISA object into text exactly as IGC prints it (standard output by default).\n"
    "FILE must be an object (it starts with \"CISA\"); an output that is the input file itself is\n"
    "refused. --json: diagnostics as one JSON object on standard error.\n";

static int cmd_asm_dis(int argc, char **argv, bool is_asm) {
    static const char *const flags[] = {"--json", NULL};
    cmd_opts o;
    int early = parse_cmd_opts(argc, argv, is_asm ? "asm" : "dis", is_asm ? asm_help : dis_help, true, flags, 0, &o);
    if (early >= 0) return early;
    const char *in = o.in, *out = o.out;
    visa_platform platform = o.platform;
    char default_out[4096];
    if (is_asm && !out) {
        const char *dot = strrchr(in, '.');
        const char *slash = strrchr(in, '/');
        size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - in) : strlen(in);
        if (stem + 5 >= sizeof default_out || !strcmp(in, "-")) out = "-";
        else {
            snprintf(default_out, sizeof default_out, "%.*s.isa", (int)stem, in);
            out = default_out;
        }
    }
    if (out && !strcmp(out, "-")) out = NULL;
    /* the output would be something else than the input: never write it over the input */
    if (out_is_input(out, in)) return EXIT_DIAG;
    diag_out d;
    diag_out_init(&d, TEXT_MAX_ERRORS, o.set & 1);
    loaded L;
    int rc = load_module(in, platform, &d, !is_asm, &L);
    if (!rc) {
        if (!is_asm) rc = write_text(L.m, out, VISA_PRINT_STRIP_COMMENTS);
        else {
            uint8_t *bytes;
            size_t len;
            visa_status st = visa_module_encode(L.m, platform, &bytes, &len);
            out_file of;
            if (st != VISA_OK) {
                report_status(st);
                rc = EXIT_DIAG;
            } else if (out_open(&of, out)) {
                rc = EXIT_DIAG;
            } else {
                out_write(&of, bytes, len); /* a failure is reported by out_close */
                rc = out_close(&of, true) ? EXIT_DIAG : 0;
            }
            if (st == VISA_OK) visa_free(L.ctx, bytes, len);
        }
    }
    rc = finish_cmd(is_asm ? "asm" : "dis", &o, &L, &d, rc);
    unload(&L);
    return rc;
}

/* -- visa run ---------------------------------------------------------------------------------- */
static const char run_help[] =
    "usage: visa run FILE [--kernel NAME] [--platform P] [--groups X[,Y[,Z]]]\n"
    "                [--local-size X[,Y[,Z]] | --group-size X[,Y[,Z]]] [--global-offset X,Y,Z]\n"
    "                [--arg [NAME=]VALUE]... [--out N=PATH]... [--print N:TYPE]...\n"
    "                [--threads N] [--max-steps N] [--timeout SECONDS] [--cr0 VALUE] [--stats]\n"
    "                [--no-verify] [--json] [--progress]\n"
    "       visa run FILE --list-inputs [--kernel NAME] [--platform P]\n"
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
    "                       --check=initcheck); @N: the address of buffer N again;\n"
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
    "  --json               diagnostics as one JSON object on standard error\n"
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

typedef struct run_buf {
    uint8_t *data;
    size_t size;
    uint8_t undef; /* buf:SIZE:undef: its bytes start undefined for --check=initcheck */
} run_buf;

/* X[,Y[,Z]]; missing dimensions are `fill`; zero allowed when allow_zero. */
static int parse_dims_ex(const char *s, uint32_t out[3], uint32_t fill, bool allow_zero) {
    out[0] = out[1] = out[2] = fill;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || *s == '-' || errno || (v == 0 && !allow_zero) || v > 1u << 20) return -1;
        out[k] = (uint32_t)v;
        if (!*end) return 0;
        if (*end != ',') return -1;
        s = end + 1;
    }
    return -1;
}

static int parse_dims(const char *s, uint32_t out[3]) { return parse_dims_ex(s, out, 1, false); }

/* Element type by name: size in bytes, float-ness and signedness. */
static int elem_type(const char *s, size_t n, unsigned *size, int *is_float, int *is_signed) {
    static const struct { const char *name; unsigned size; int flt, sgn; } types[] = {
        {"ub", 1, 0, 0}, {"b", 1, 0, 1}, {"uw", 2, 0, 0}, {"w", 2, 0, 1}, {"ud", 4, 0, 0},
        {"d", 4, 0, 1}, {"uq", 8, 0, 0}, {"q", 8, 0, 1}, {"hf", 2, 1, 0}, {"bf", 2, 1, 0},
        {"f", 4, 1, 0}, {"df", 8, 1, 0}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && !memcmp(types[i].name, s, n)) {
            *size = types[i].size;
            *is_float = types[i].flt;
            *is_signed = types[i].sgn;
            return (int)i;
        }
    return -1;
}

static uint16_t to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t s = (x >> 16) & 0x8000, e = (x >> 23) & 0xFF, m = x & 0x7FFFFF;
    if (e == 0xFF) return (uint16_t)(s | 0x7C00 | (m ? 0x200 : 0));
    int ee = (int)e - 112;
    if (ee >= 31) return (uint16_t)(s | 0x7C00);
    if (ee <= 0) {
        if (ee < -10) return (uint16_t)s;
        m |= 0x800000;
        unsigned sh = (unsigned)(14 - ee);
        uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (uint16_t)(s | q);
    }
    uint32_t q = ((uint32_t)ee << 10) | (m >> 13), rem = m & 0x1FFF;
    if (rem > 0x1000 || (rem == 0x1000 && (q & 1))) q++;
    return (uint16_t)(s | q);
}

static float from_half(uint16_t h) {
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1F, m = h & 0x3FF, bits;
    if (e == 0x1F) bits = s | 0x7F800000u | (m << 13);
    else if (e) bits = s | ((e + 112) << 23) | (m << 13);
    else if (!m) bits = s;
    else {
        int sh = 0;
        while (!(m & 0x400)) m <<= 1, sh++;
        bits = s | ((uint32_t)(113 - sh) << 23) | ((m & 0x3FF) << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Store one element of a numeric value (text) into p. */
static int put_elem(uint8_t *p, unsigned size, int is_float, const char *tname, double dv, long long iv) {
    if (is_float) {
        if (size == 8) memcpy(p, &dv, 8);
        else if (size == 4) {
            float f = (float)dv;
            memcpy(p, &f, 4);
        } else if (!strcmp(tname, "hf")) {
            uint16_t h = to_half((float)dv);
            memcpy(p, &h, 2);
        } else { /* bf: round to nearest even */
            float f = (float)dv;
            uint32_t x;
            memcpy(&x, &f, 4);
            x += 0x7FFF + ((x >> 16) & 1);
            uint16_t b = (uint16_t)(x >> 16);
            memcpy(p, &b, 2);
        }
    } else {
        uint64_t u = (uint64_t)iv;
        for (unsigned k = 0; k < size; k++) p[k] = (uint8_t)(u >> (8 * k));
    }
    return 0;
}

static int parse_number(const char *s, int *is_float, double *dv, long long *iv) {
    char *end;
    errno = 0;
    if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
        (s[0] == '-' && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'))) {
        unsigned long long u = strtoull(s[0] == '-' ? s + 1 : s, &end, 16);
        if (*end || errno) return -1;
        *iv = (long long)(s[0] == '-' ? 0 - u : u); /* -(long long)u overflows for 2^63 */
        *dv = (double)*iv;
        *is_float = 0;
        return 0;
    }
    if (strpbrk(s, ".eEnN")) {
        *dv = strtod(s, &end);
        if (*end || end == s) return -1;
        /* converting a double outside long long's range (inf, nan, 1e30) is undefined */
        *iv = *dv >= -0x1p63 && *dv < 0x1p63 ? (long long)*dv : 0;
        *is_float = 1;
        return 0;
    }
    *iv = strtoll(s, &end, 10);
    if (*end || end == s || errno) {
        if (errno == ERANGE && s[0] != '-') {
            errno = 0;
            *iv = (long long)strtoull(s, &end, 10);
            if (*end || errno) return -1;
        } else {
            return -1;
        }
    }
    *dv = (double)*iv;
    *is_float = 0;
    return 0;
}

/* buf:SIZE[:INIT] */
static int make_buffer(const char *spec, run_buf *b) {
    const char *s = spec + 4;
    char *end;
    errno = 0;
    unsigned long long size = strtoull(s, &end, 0);
    if (end == s || errno || size > (1ull << 32)) return usage_error("bad buffer size in '%s'", spec);
    b->size = (size_t)size;
    b->data = calloc(1, b->size ? b->size : 1);
    if (!b->data) {
        fprintf(stderr, "%s: cannot allocate %llu bytes\n", prog, size);
        return EXIT_DIAG;
    }
    if (!*end || !strcmp(end, ":zero")) return 0;
    if (!strcmp(end, ":undef")) { /* zeroed, but undefined to initcheck */
        b->undef = 1;
        return 0;
    }
    if (*end != ':') return usage_error("bad buffer specification '%s'", spec);
    const char *init = end + 1;
    if (!strncmp(init, "file=", 5)) {
        char *data;
        size_t len;
        if (read_file(init + 5, &data, &len)) return EXIT_DIAG;
        memcpy(b->data, data, len < b->size ? len : b->size);
        free(data);
        return 0;
    }
    int iota = !strncmp(init, "iota:", 5);
    if (!iota && strncmp(init, "fill:", 5)) return usage_error("unknown buffer initialiser in '%s'", spec);
    const char *t = init + 5;
    const char *colon = strchr(t, ':');
    size_t tn = colon ? (size_t)(colon - t) : strlen(t);
    unsigned size_e;
    int flt, sgn;
    char tname[8];
    if (elem_type(t, tn, &size_e, &flt, &sgn) < 0 || tn >= sizeof tname)
        return usage_error("unknown element type in '%s'", spec);
    memcpy(tname, t, tn);
    tname[tn] = 0;
    double dv = 0;
    long long iv = 0;
    if (!iota) {
        int nf;
        if (!colon || parse_number(colon + 1, &nf, &dv, &iv))
            return usage_error("fill needs TYPE:VALUE in '%s'", spec);
        if (!flt && nf) iv = (long long)dv;
    } else if (colon) {
        return usage_error("iota takes only a type in '%s'", spec);
    }
    for (size_t i = 0; i + size_e <= b->size; i += size_e) {
        if (iota) {
            iv = (long long)(i / size_e);
            dv = (double)iv;
        }
        put_elem(b->data + i, size_e, flt, tname, dv, iv);
    }
    return 0;
}

/* Shortest decimal that reads back to the same value. */
static void print_float(double v, int single) {
    char buf[64];
    if (v != v || isinf(v)) {
        fputs(v != v ? "nan" : v < 0 ? "-inf" : "inf", stdout);
        return;
    }
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)v : back == v) break;
    }
    /* positional unless the exponent is far out: an integral value prints all its digits (-10,
    ** 4294967296, not -1e+01 or 4.2949673e+09), others the shortest digits (0.1, 12.5) */
    int exp10 = atoi(strchr(buf, 'e') + 1);
    if (exp10 >= -5 && exp10 < 17) snprintf(buf, sizeof buf, "%.*f", prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, v);
    else snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (!strcmp(buf, "-0") && !signbit(v)) strcpy(buf, "0");
    fputs(buf, stdout);
}

static void print_buffer(const run_buf *b, const char *tname, unsigned size, int flt, int sgn) {
    for (size_t i = 0; i + size <= b->size; i += size) {
        if (i) putchar(' ');
        const uint8_t *p = b->data + i;
        if (flt) {
            double v;
            if (size == 8) memcpy(&v, p, 8);
            else if (size == 4) {
                float f;
                memcpy(&f, p, 4);
                v = f;
            } else {
                uint16_t h;
                memcpy(&h, p, 2);
                if (!strcmp(tname, "hf")) v = from_half(h);
                else {
                    uint32_t x = (uint32_t)h << 16;
                    float f;
                    memcpy(&f, &x, 4);
                    v = f;
                }
            }
            print_float(v, size != 8);
        } else {
            uint64_t u = 0;
            for (unsigned k = 0; k < size; k++) u |= (uint64_t)p[k] << (8 * k);
            if (sgn && size < 8 && (u >> (8 * size - 1)) & 1) u |= ~0ull << (8 * size);
            if (sgn) printf("%lld", (long long)u);
            else printf("%llu", (unsigned long long)u);
        }
    }
    putchar('\n');
}

/* The keyword kind of a --arg value, -1 if it is no keyword. */
static int arg_keyword_kind(const char *v) {
    for (int k = 0; k < 32; k++) {
        const char *kw = visa_arg_keyword((visa_arg_kind)k);
        if (kw && !strcmp(kw, v)) return k;
    }
    return -1;
}

static bool is_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* One number of a --arg: hex gives raw bits; decimal and float literals are numbers. */
static int parse_arg_number(const char *v, visa_arg *out) {
    int flt;
    double dv;
    long long iv;
    if (parse_number(v, &flt, &dv, &iv)) return -1;
    bool hex = strstr(v, "0x") || strstr(v, "0X");
    out->kind = flt ? VISA_ARG_FLOAT : hex ? VISA_ARG_SCALAR : VISA_ARG_INT;
    out->value = (uint64_t)iv;
    out->fvalue = dv;
    return 0;
}

/* The --arg a listed input takes. */
static void describe_arg(const visa_input_info *ii, char *buf, size_t cap) {
    if (ii->role == VISA_INPUT_PER_THREAD) {
        snprintf(buf, cap, "none (per-thread local_id_%c)", "xyz?"[ii->local_id_dim >= 0 && ii->local_id_dim < 3 ? ii->local_id_dim : 3]);
    } else if (ii->role == VISA_INPUT_IMPLICIT) {
        if (ii->implicit_name) snprintf(buf, cap, "none (implicit %s)", ii->implicit_name);
        else snprintf(buf, cap, "none (implicit kind %u)", ii->implicit_kind);
    } else if (ii->role == VISA_INPUT_SURFACE) {
        snprintf(buf, cap, "a buffer: buf:SIZE[:INIT] or @N");
    } else if (ii->role == VISA_INPUT_SAMPLER) {
        snprintf(buf, cap, "an index: N");
    } else if (ii->elements <= 1) {
        if (ii->size == 8 && (!strcmp(ii->type, "uq") || !strcmp(ii->type, "q")))
            snprintf(buf, cap, "%s: N, or a pointer: buf:SIZE[:INIT] or @N", ii->type);
        else if (ii->size == 4 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d")))
            snprintf(buf, cap, "%s: N or work_dim", ii->type);
        else
            snprintf(buf, cap, "%s: N", ii->type);
    } else {
        /* one value per element; the runtime's 3 x 4-byte and 8 x 4-byte values by keyword */
        char vals[64];
        if (ii->elements <= 4) {
            size_t n = 0;
            for (uint32_t k = 0; k < ii->elements; k++) n += (size_t)snprintf(vals + n, sizeof vals - n, "%s%c", k ? "," : "", 'A' + k);
        } else {
            snprintf(vals, sizeof vals, "V1,...,V%u", ii->elements);
        }
        bool ud4 = ii->size == 12 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d"));
        bool hdr = ii->size == 32 && (!strcmp(ii->type, "ud") || !strcmp(ii->type, "d"));
        snprintf(buf, cap, "%u x %s: %s%s", ii->elements, ii->type, vals,
                 ud4 ? " or local_size, global_size, group_count, global_offset, enqueued_local_size"
                 : hdr ? " or payload_header" : "");
    }
}

static const char *role_name(const visa_input_info *ii, char *buf, size_t cap) {
    switch (ii->role) {
    case VISA_INPUT_PER_THREAD:
        snprintf(buf, cap, "per-thread (local_id_%c)", "xyz?"[ii->local_id_dim >= 0 && ii->local_id_dim < 3 ? ii->local_id_dim : 3]);
        return buf;
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

/* visa run --list-inputs: a header line about the launch model, then one line per input. */
static int list_inputs(const visa_module *m, const char *kernel, visa_platform platform) {
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    if (visa_kernel_get_info(m, kernel, platform, &ki) != VISA_OK) {
        fprintf(stderr, "%s: %s\n", prog, kernel ? "no such kernel" : "the module has no kernel");
        return EXIT_DIAG;
    }
    printf("kernel '%s': Target=\"%s\" (%s model)", ki.name, ki.opencl ? "3d" : "cm", ki.opencl ? "OpenCL" : "CM");
    if (ki.simd_size) printf(", SimdSize=%u", ki.simd_size);
    if (ki.per_thread_input_size) printf(", PerThreadInputSize=%u", ki.per_thread_input_size);
    printf("; %s: %u-byte GRF", visa_platform_name(platform), visa_platform_grf_bytes(platform));
    if (ki.opencl) printf(", local-id rows of %u bytes", ki.local_id_row_bytes);
    printf("; %u input%s, %u take an --arg\n", ki.input_count, ki.input_count == 1 ? "" : "s", ki.arg_count);
    int wname = 4;
    for (uint32_t i = 0; i < ki.input_count; i++) {
        visa_input_info ii;
        if (visa_kernel_input_at(m, kernel, platform, i, &ii) == VISA_OK && (int)strlen(ii.name) > wname)
            wname = (int)strlen(ii.name);
    }
    printf("%3s  %-*s  %6s  %4s  %-8s  %-24s  %-4s  %s\n", "#", wname, "name", "offset", "size", "type", "role", "read",
           "--arg");
    for (uint32_t i = 0; i < ki.input_count; i++) {
        visa_input_info ii;
        if (visa_kernel_input_at(m, kernel, platform, i, &ii) != VISA_OK) continue;
        char type[32], rb[48], ab[160];
        if (!*ii.type) snprintf(type, sizeof type, "-");
        else if (ii.elements > 1) snprintf(type, sizeof type, "%u x %s", ii.elements, ii.type);
        else snprintf(type, sizeof type, "%s", ii.type);
        describe_arg(&ii, ab, sizeof ab);
        printf("%3u  %-*s  %6d  %4u  %-8s  %-24s  %-4s  %s\n", i, wname, ii.name, ii.offset, ii.size, type,
               role_name(&ii, rb, sizeof rb), ii.read ? "yes" : "no", ab);
    }
    return 0;
}

/* --kernel NAME must name a kernel of the module; the error lists them (and the likely one). */
static int check_kernel(const visa_module *m, const char *file, const char *name) {
    if (!name) return 0;
    bool is_kernel;
    const char *n;
    suggester g;
    suggest_init(&g, name);
    for (size_t i = 0; (n = visa_module_routine_name(m, i, &is_kernel)); i++) {
        if (is_kernel && !strcmp(n, name)) return 0;
        if (is_kernel) suggest_try(&g, n);
    }
    fprintf(stderr, "%s: error: no kernel named '%s'", file, name);
    if (g.best) fprintf(stderr, " (did you mean '%s'?)", g.best);
    const char *sep = "; its kernels: ";
    for (size_t i = 0; (n = visa_module_routine_name(m, i, &is_kernel)); i++)
        if (is_kernel) {
            fprintf(stderr, "%s%s", sep, n);
            sep = ", ";
        }
    fputs(*sep == ';' ? "; it has no kernel\n" : "\n", stderr);
    return EXIT_DIAG;
}

/* The progress line of a long run: after VISA_PROGRESS_DELAY_MS (default 1000; a test hook) the
** elapsed time, redrawn in place on a terminal; elsewhere (--progress) one line per second and a
** last line when the run ends. */
typedef struct progress_line {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool done, tty, shown;
    const char *kernel;
    struct timespec t0;
    double delay;
} progress_line;

static progress_line *active_progress; /* the line on the terminal, if any */

/* Before a diagnostic is printed: take the progress line off the terminal. */
static void progress_clear(void) {
    progress_line *p = active_progress;
    if (!p || !p->tty) return;
    pthread_mutex_lock(&p->lock);
    if (p->shown) fputs("\r\033[K", stderr);
    p->shown = false;
    pthread_mutex_unlock(&p->lock);
}

static double seconds_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void *progress_main(void *ud) {
    progress_line *p = ud;
    pthread_mutex_lock(&p->lock);
    double next = p->delay;
    while (!p->done) {
        struct timespec until = p->t0;
        until.tv_sec += (time_t)next;
        until.tv_nsec += (long)((next - (double)(time_t)next) * 1e9);
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->done) break;
        double t = seconds_since(&p->t0);
        if (t < next) continue;
        fprintf(stderr, p->tty ? "\r%s: running kernel '%s': %.0f s " : "%s: running kernel '%s': %.0f s\n", prog,
                p->kernel, t);
        fflush(stderr);
        p->shown = true;
        next = t + (p->tty ? 0.5 : 1.0);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void progress_start(progress_line *p, const char *kernel, bool tty) {
    memset(p, 0, sizeof *p);
    p->kernel = kernel;
    p->tty = tty;
    const char *e = getenv("VISA_PROGRESS_DELAY_MS");
    char *end;
    unsigned long ms = e && *e ? strtoul(e, &end, 10) : 1000;
    p->delay = e && *e && !*end ? (double)ms / 1000 : 1.0;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    pthread_mutex_init(&p->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) p->done = true;
    active_progress = p;
}

static void progress_stop(progress_line *p) {
    pthread_mutex_lock(&p->lock);
    bool started = !p->done;
    p->done = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (started) pthread_join(p->thread, NULL);
    active_progress = NULL;
    double t = seconds_since(&p->t0);
    if (p->tty && p->shown) fputs("\r\033[K", stderr); /* the line goes away */
    else if (!p->tty && t >= p->delay) fprintf(stderr, "%s: kernel '%s' ran for %.1f s\n", prog, p->kernel, t);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
}

/* A usage error inside cmd_run's option loop: leave the loop so the buffers made so far are freed. */
#define RUN_USAGE_ERROR(...)              \
    {                                     \
        rc = usage_error(__VA_ARGS__);    \
        break;                            \
    }

static int cmd_run(int argc, char **argv) {
    const char *in = NULL, *plat = "Xe2";
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    visa_arg args[256];
    const char *arg_names[256];
    bool any_named = false;
    static visa_arg elems[4096]; /* the elements of vector arguments */
    size_t nelems = 0;
    run_buf bufs[256];
    size_t nargs = 0, nbufs = 0;
    char launch_error[256] = ""; /* an error about the launch, reported against FILE */
    bool list = false;
    const char *outs[256], *prints[256];
    size_t nouts = 0, nprints = 0;
    bool want_stats = false, no_verify = false, json = false, progress = false;
    obs_opts obs;
    memset(&obs, 0, sizeof obs);
    obs.lane_hi = 31;
    obs.line_hi = UINT32_MAX;
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(run_help, stdout);
            return 0;
        }
        static const char *const with_value[] = {"--kernel", "--platform", "--groups", "--group-size",
                                                 "--threads", "--max-steps", "--timeout", "--arg", "--out", "--print",
                                                 "--cr0", "--local-size", "--global-offset", "--trace-thread",
                                                 "--trace-lanes", "--trace-lines", "--trace-format", "--trace-out",
                                                 "--profile-format", "--profile-svg"};
        bool takes = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) takes |= !strcmp(a, with_value[k]);
        if (!strcmp(a, "--stats") || !strcmp(a, "--list-inputs")) {
            if (a[2] == 's') want_stats = true;
            else list = true;
            continue;
        }
        if (!strcmp(a, "--trace") || !strcmp(a, "--profile")) {
            *(a[2] == 't' ? &obs.trace : &obs.profile) = true;
            continue;
        }
        if (!strncmp(a, "--check=", 8)) {
            if (check_parse(a + 8, &ro.checks))
                RUN_USAGE_ERROR("bad --check '%s' (memcheck, initcheck, racecheck, synccheck or all, comma-separated)", a + 8);
            continue;
        }
        static const char *const switches[] = {"--stats", "--list-inputs", "--trace", "--profile", "--no-verify",
                                               "--json", "--progress", "--help"};
        int sw = -1;
        for (int k = 4; k < 7; k++)
            if (!strcmp(a, switches[k])) sw = k;
        if (sw >= 0) {
            *(sw == 4 ? &no_verify : sw == 5 ? &json : &progress) = true;
            continue;
        }
        if (!takes && a[0] == '-' && a[1]) {
            const char *known[64];
            size_t n = 0;
            for (size_t k = 0; k < sizeof with_value / sizeof with_value[0] && n < 56; k++) known[n++] = with_value[k];
            for (size_t k = 0; k < sizeof switches / sizeof switches[0]; k++) known[n++] = switches[k];
            rc = unknown_option(a, known, n);
            break;
        }
        if (takes && !val) RUN_USAGE_ERROR("option '%s' needs an argument", a);
        if (!strcmp(a, "--kernel")) ro.kernel = argv[++i];
        else if (!strcmp(a, "--platform")) plat = argv[++i];
        else if (!strcmp(a, "--groups")) {
            if (parse_dims(argv[++i], ro.groups)) RUN_USAGE_ERROR("bad --groups '%s'", argv[i]);
        } else if (!strcmp(a, "--group-size")) {
            if (parse_dims(argv[++i], ro.group_size)) RUN_USAGE_ERROR("bad --group-size '%s'", argv[i]);
        } else if (!strcmp(a, "--local-size")) {
            /* a zero is the launch's error (exit 1), not a usage error */
            if (parse_dims_ex(argv[++i], ro.local_size, 1, true)) RUN_USAGE_ERROR("bad --local-size '%s'", argv[i]);
            if ((!ro.local_size[0] || !ro.local_size[1] || !ro.local_size[2]) && !*launch_error)
                snprintf(launch_error, sizeof launch_error, "local size %u,%u,%u: every dimension must be at least 1",
                         ro.local_size[0], ro.local_size[1], ro.local_size[2]);
        } else if (!strcmp(a, "--global-offset")) {
            if (parse_dims_ex(argv[++i], ro.global_offset, 0, true)) RUN_USAGE_ERROR("bad --global-offset '%s'", argv[i]);
        } else if (!strcmp(a, "--threads") || !strcmp(a, "--max-steps")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(argv[++i], &end, 10);
            if (*end || errno || (!v && a[2] == 't')) RUN_USAGE_ERROR("bad number '%s'", argv[i]);
            if (a[2] == 't') {
                if (v > 256) RUN_USAGE_ERROR("--threads %s: at most 256", argv[i]);
                ro.threads = (uint32_t)v;
            } else {
                /* 0: unlimited, per thread and in total (bound the run with --timeout) */
                ro.max_steps = v ? v : VISA_UNLIMITED;
                ro.max_total_steps = v ? 0 : VISA_UNLIMITED;
            }
        } else if (!strcmp(a, "--timeout")) {
            char *end;
            errno = 0;
            double v = strtod(argv[++i], &end);
            if (*end || errno || !(v > 0) || v > 1e9) RUN_USAGE_ERROR("bad --timeout '%s' (seconds, > 0)", argv[i]);
            ro.timeout_seconds = v;
        } else if (!strcmp(a, "--cr0")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(argv[++i], &end, 0);
            if (*end || errno || v > 0xFFFFFFFFull) RUN_USAGE_ERROR("bad --cr0 '%s'", argv[i]);
            ro.set_cr0 = true;
            ro.cr0 = (uint32_t)v;
        } else if (!strcmp(a, "--arg")) {
            const char *v = argv[++i];
            if (nargs == 256) RUN_USAGE_ERROR("%s", "too many --arg");
            visa_arg *arg = &args[nargs];
            memset(arg, 0, sizeof *arg);
            /* NAME=VALUE: NAME an input variable's name (no ':' or ',' before the '=') */
            static char names[256][128];
            arg_names[nargs] = NULL;
            const char *eq = strchr(v, '=');
            if (eq && eq > v && (size_t)(eq - v) < sizeof names[0] && strcspn(v, ":,@") > (size_t)(eq - v) &&
                !(v[0] >= '0' && v[0] <= '9') && v[0] != '-') {
                memcpy(names[nargs], v, (size_t)(eq - v));
                names[nargs][eq - v] = 0;
                arg_names[nargs] = names[nargs];
                any_named = true;
                v = eq + 1;
            }
            int kw = arg_keyword_kind(v);
            if (kw >= 0) {
                arg->kind = (visa_arg_kind)kw;
            } else if (!strncmp(v, "buf:", 4)) {
                if (nbufs == 256) RUN_USAGE_ERROR("%s", "too many buffers");
                rc = make_buffer(v, &bufs[nbufs]);
                arg->kind = VISA_ARG_BUFFER;
                arg->buffer = (uint32_t)nbufs++;
            } else if (v[0] == '@') {
                char *end;
                errno = 0;
                unsigned long n = strtoul(v + 1, &end, 10);
                if (end == v + 1 || *end || errno || n >= nbufs)
                    RUN_USAGE_ERROR("bad --arg '%s' (@N: buffer N of an earlier buf: argument, counting from 0)", v);
                arg->kind = VISA_ARG_BUFFER;
                arg->buffer = (uint32_t)n;
            } else if (strchr(v, ',')) {
                /* A,B,C: one number per element */
                arg->kind = VISA_ARG_VECTOR;
                arg->value = nelems;
                for (const char *p = v;; ) {
                    size_t n = strcspn(p, ",");
                    char num[64];
                    if (!n || n >= sizeof num || nelems == sizeof elems / sizeof elems[0])
                        RUN_USAGE_ERROR("bad --arg value '%s'", v);
                    memcpy(num, p, n);
                    num[n] = 0;
                    memset(&elems[nelems], 0, sizeof elems[nelems]);
                    if (parse_arg_number(num, &elems[nelems])) RUN_USAGE_ERROR("bad --arg value '%s'", v);
                    nelems++;
                    arg->buffer++;
                    if (!p[n]) break;
                    p += n + 1;
                }
                if (rc) break;
            } else if (parse_arg_number(v, arg)) {
                if (!is_identifier(v)) RUN_USAGE_ERROR("bad --arg value '%s'", v);
                if (!*launch_error)
                    snprintf(launch_error, sizeof launch_error,
                             "unknown --arg keyword '%.64s' (local_size, global_size, group_count, global_offset, "
                             "enqueued_local_size, work_dim, payload_header)", v);
            }
            nargs++;
        } else if (!strcmp(a, "--trace-thread")) {
            if (obs_parse_thread(argv[++i], &obs.filter_group, &obs.filter_thread))
                return usage_error("bad --trace-thread '%s' (G,T: group index, thread index)", argv[i]);
            obs.thread_filter = obs.trace = true;
        } else if (!strcmp(a, "--trace-lanes") || !strcmp(a, "--trace-lines")) {
            bool lanes = !strcmp(a, "--trace-lanes");
            if (obs_parse_range(argv[++i], lanes ? &obs.lane_lo : &obs.line_lo, lanes ? &obs.lane_hi : &obs.line_hi))
                return usage_error(lanes ? "bad --trace-lanes '%s' (A-B)" : "bad --trace-lines '%s' (A-B)", argv[i]);
            obs.trace = true;
        } else if (!strcmp(a, "--trace-format") || !strcmp(a, "--profile-format")) {
            const char *f = argv[++i];
            if (strcmp(f, "json") && strcmp(f, "text")) return usage_error("bad format '%s' (text or json)", f);
            if (a[2] == 't') obs.trace_json = obs.trace = !strcmp(f, "json") || obs.trace;
            else obs.profile_json = obs.profile = !strcmp(f, "json") || obs.profile;
        } else if (!strcmp(a, "--trace-out")) {
            obs.trace_out = argv[++i];
            obs.trace = true;
        } else if (!strcmp(a, "--profile-svg")) {
            obs.profile_svg = argv[++i];
            obs.profile = true;
        } else if (!strcmp(a, "--out")) {
            if (nouts == 256) RUN_USAGE_ERROR("%s", "too many --out");
            outs[nouts++] = argv[++i];
        } else if (!strcmp(a, "--print")) {
            if (nprints == 256) RUN_USAGE_ERROR("%s", "too many --print");
            prints[nprints++] = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            RUN_USAGE_ERROR("unknown option '%s'", a);
        } else if (in) {
            RUN_USAGE_ERROR("unexpected argument '%s'", a);
        } else {
            in = a;
        }
    }
    if (!rc && !in) return usage_error("%s", "run needs an input file");
    if (!rc && *launch_error && !list) {
        fprintf(stderr, "%s: error: %s\n", in, launch_error);
        rc = EXIT_DIAG;
    }
    visa_platform platform;
    if (!rc && visa_platform_from_name(plat, &platform) != VISA_OK)
        return usage_error("unknown platform '%s'", plat);
    /* validate --out / --print before running */
    for (size_t k = 0; !rc && k < nouts + nprints; k++) {
        const char *s = k < nouts ? outs[k] : prints[k - nouts];
        char *end;
        unsigned long n = strtoul(s, &end, 10);
        char sep = k < nouts ? '=' : ':';
        if (end == s || *end != sep || n >= nbufs)
            rc = usage_error(k < nouts ? "bad --out '%s' (N=PATH with N a buffer number)"
                                       : "bad --print '%s' (N:TYPE with N a buffer number)", s);
        unsigned size;
        int flt, sgn;
        if (!rc && k >= nouts && elem_type(end + 1, strlen(end + 1), &size, &flt, &sgn) < 0)
            rc = usage_error("unknown element type in --print '%s'", s);
        if (!rc && k < nouts && out_is_input(end + 1, in)) rc = EXIT_DIAG;
    }
    if (!rc && (out_is_input(obs.trace_out, in) || out_is_input(obs.profile_svg, in))) rc = EXIT_DIAG;
    diag_out d;
    diag_out_init(&d, TEXT_MAX_ERRORS, json);
    loaded L;
    memset(&L, 0, sizeof L);
    if (!rc) {
        rc = load_module(in, platform, &d, false, &L);
        if (rc && !json) diag_out_finish(&d, in);
    }
    if (!rc) rc = check_kernel(L.m, in, ro.kernel);
    if (!rc && list) {
        rc = list_inputs(L.m, ro.kernel, platform);
    } else if (!rc && !no_verify) {
        /* what the verifier rejects is not run (its warnings do not stop it: 'visa verify' shows them) */
        d.rule_ids = d.drop_warnings = true;
        visa_verify_opts vo = {sizeof vo, platform, 0, L.binary ? NULL : L.data, L.binary ? 0 : L.len};
        visa_status vs = visa_module_verify(L.m, &vo, NULL);
        d.rule_ids = d.drop_warnings = false;
        if (vs != VISA_OK) {
            if (vs != VISA_E_VERIFY) fprintf(stderr, "%s: %s\n", prog, visa_status_str(vs));
            else if (!json) {
                diag_out_finish(&d, in);
                fprintf(stderr, "%s: %u error%s on %s: not run (--no-verify runs it anyway)\n", in, d.errors,
                        d.errors == 1 ? "" : "s", visa_platform_name(platform));
            }
            rc = EXIT_DIAG;
        }
    }
    if (!rc && !list) {
        ro.platform = platform;
        ro.arg_names = any_named ? arg_names : NULL;
        ro.vector_elems = elems;
        ro.nvector_elems = nelems;
        visa_buffer vb[256];
        uint8_t undef[256];
        bool any_undef = false;
        for (size_t k = 0; k < nbufs; k++) {
            vb[k].data = bufs[k].data;
            vb[k].size = bufs[k].size;
            undef[k] = bufs[k].undef;
            any_undef |= bufs[k].undef != 0;
        }
        ro.undef_buffers = any_undef ? undef : NULL;
        visa_run_stats stats;
        visa_observer observer;
        obs_state *os = NULL;
        if (obs.trace || obs.profile) {
            obs.file = in;
            if (!L.binary && L.len && memchr(L.data, 0, L.len) == NULL) {
                obs.source = L.data;
                obs.source_len = L.len;
            }
            uint64_t ngroups = 1;
            for (int k = 0; k < 3; k++) ngroups *= ro.groups[k] ? ro.groups[k] : 1;
            if (!(os = obs_start(&obs, ngroups, &observer))) rc = EXIT_DIAG;
            ro.observer = os ? &observer : NULL;
        }
        /* the progress line: on a terminal (unless the trace goes there too), or when asked */
        bool show = progress || (isatty(2) && !(obs.trace && !obs.trace_out && isatty(1)));
        visa_kernel_info ki;
        memset(&ki, 0, sizeof ki);
        ki.struct_size = sizeof ki;
        if (visa_kernel_get_info(L.m, ro.kernel, platform, &ki) != VISA_OK) ki.name = ro.kernel ? ro.kernel : "?";
        progress_line pl;
        if (show) progress_start(&pl, ki.name, isatty(2));
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        visa_status st = visa_module_run(L.m, &ro, args, nargs, vb, nbufs, &stats);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (show) progress_stop(&pl);
        if (os && obs_finish(os)) rc = EXIT_DIAG;
        if (want_stats) {
            double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
            fprintf(stderr, "%s: %llu vISA instructions in %llu threads, %.3f s (%.1f M instructions/s)\n", prog,
                    (unsigned long long)stats.instructions, (unsigned long long)stats.threads, secs,
                    secs > 0 ? (double)stats.instructions / secs * 1e-6 : 0.0);
        }
        if (st != VISA_OK) {
            if (st != VISA_E_RUNTIME && st != VISA_E_UNSUPPORTED && st != VISA_E_ARG)
                fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
            rc = EXIT_DIAG; /* a bad launch (VISA_E_ARG) has its diagnostic too */
        } else {
            for (size_t k = 0; k < nouts && !rc; k++) {
                char *end;
                unsigned long n = strtoul(outs[k], &end, 10);
                out_file of;
                if (out_open(&of, end + 1)) {
                    rc = EXIT_DIAG;
                } else {
                    out_write(&of, bufs[n].data, bufs[n].size); /* a failure is reported by out_close */
                    if (out_close(&of, true)) rc = EXIT_DIAG;
                }
            }
            for (size_t k = 0; k < nprints; k++) {
                char *end;
                unsigned long n = strtoul(prints[k], &end, 10);
                unsigned size;
                int flt, sgn;
                elem_type(end + 1, strlen(end + 1), &size, &flt, &sgn);
                print_buffer(&bufs[n], end + 1, size, flt, sgn);
            }
        }
        if (!json) diag_out_finish(&d, in);
    }
    if (json && in && L.data) json_report(stderr, "run", in, platform, L.binary, rc, &d);
    unload(&L);
    for (size_t k = 0; k < nbufs; k++) free(bufs[k].data);
    return rc;
}

/* -- visa info --------------------------------------------------------------------------------- */
static const char info_help[] =
    "usage: visa info MNEMONIC\n"
    "       visa info --list\n"
    "\n"
    "Describe what the instruction table knows about an instruction: opcode, sub-opcode,\n"
    "binary operand layout, legal types, exec sizes, platforms and text syntax.  MNEMONIC may\n"
    "carry its sub-operation suffix (cmp.lt, lsc_load.ugm) or be the table row's name (LSC_LOAD).\n"
    "\n"
    "  --list    every mnemonic (with its sub-operation suffixes), its table row and a summary\n";

typedef struct text_buf {
    char *s;
    size_t len, cap;
} text_buf;

static visa_status append_text(void *ud, const char *data, size_t len) {
    text_buf *b = ud;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16384;
        while (cap < b->len + len + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) return VISA_E_NOMEM;
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, data, len);
    b->len += len;
    b->s[b->len] = 0;
    return VISA_OK;
}

/* "unknown instruction 'ad' (did you mean 'add'?)": the candidates are visa_list_instructions'
** first column. */
static void unknown_instruction(const char *mn) {
    text_buf b = {NULL, 0, 0};
    suggester g;
    suggest_init(&g, mn);
    char best[96] = "";
    if (visa_list_instructions(append_text, &b) == VISA_OK && b.s) {
        for (char *line = b.s; *line;) {
            char *nl = strchr(line, '\n');
            size_t n = strcspn(line, " \n");
            char word[96];
            if (n < sizeof word) {
                memcpy(word, line, n);
                word[n] = 0;
                suggest_try(&g, word);
                if (g.best == word) {
                    memcpy(best, word, n + 1);
                    g.best = best;
                }
            }
            if (!nl) break;
            line = nl + 1;
        }
    }
    fprintf(stderr, "%s: unknown instruction '%s'", prog, mn);
    if (g.best) fprintf(stderr, " (did you mean '%s'?)", g.best);
    fprintf(stderr, "; 'visa info --list' lists them\n");
    free(b.s);
}

static int cmd_info(int argc, char **argv) {
    const char *mn = NULL;
    bool list = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(info_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--list")) {
            list = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            static const char *const known[] = {"--list", "--help"};
            return unknown_option(argv[i], known, 2);
        } else if (mn) {
            return usage_error("unexpected argument '%s'", argv[i]);
        } else {
            mn = argv[i];
        }
    }
    if (list) return mn ? usage_error("%s", "--list takes no mnemonic") : visa_list_instructions(write_stream, stdout) == VISA_OK ? 0 : EXIT_DIAG;
    if (!mn) return usage_error("%s", "info needs a mnemonic (or --list)");
    visa_status st = visa_describe_instruction(mn, write_stream, stdout);
    if (st == VISA_E_ARG) {
        unknown_instruction(mn);
        return EXIT_DIAG;
    }
    return st == VISA_OK ? 0 : EXIT_DIAG;
}

/* -- visa verify ------------------------------------------------------------------------------- */
static const char verify_help[] =
    "usage: visa verify FILE [--platform P] [--json] [--werror] [--list-rules]\n"
    "\n"
    "Check a program (text or object) against every rule of the vISA spec for a platform:\n"
    "regions, operand classes, type maps, saturation and modifiers, exec sizes and masks,\n"
    "predicates, declarations, inputs, labels, raw operands and platform availability.\n"
    "Each diagnostic names its rule:\n"
    "    FILE:LINE:COL: error[V-REGION-WIDTH]: message      (text: the source line and a caret)\n"
    "    FILE:+0xOFFSET: error[V-PLATFORM]: message          (objects: the byte offset)\n"
    "\n"
    "  --platform P    target platform (Gen9 Gen11 XeLP XeHP XeHPG XeHPC Xe2 Xe3); default Xe2\n"
    "  --json          print the diagnostics as one JSON object on standard output\n"
    "  --werror        treat warnings as errors\n"
    "  --list-rules    list the rules (id, severity, spec section, statement) and exit\n"
    "\n"
    "Exit status: 0 no errors, 1 errors (or unreadable input), 2 usage error.\n";

static int cmd_verify(int argc, char **argv) {
    static const char *const flags[] = {"--json", "--werror", "--list-rules", NULL};
    cmd_opts o;
    int early = parse_cmd_opts(argc, argv, "verify", verify_help, false, flags, 4, &o);
    if (early >= 0) return early;
    if (o.set & 4) {
        for (size_t k = 0; k < visa_verify_rule_count(); k++) {
            const visa_verify_rule *r = visa_verify_rule_at(k);
            printf("%-22s %-7s %s  [%s]\n", r->id, sev_name(r->severity), r->summary, r->spec);
        }
        return 0;
    }
    const char *in = o.in;
    bool json = o.set & 1, werror = o.set & 2;
    visa_platform platform = o.platform;
    diag_out d;
    diag_out_init(&d, 0, json);
    d.rule_ids = true;
    loaded L;
    int rc = load_module(in, platform, &d, false, &L);
    visa_status st = VISA_OK;
    if (!rc) {
        visa_verify_opts vo = {sizeof vo, platform, werror ? VISA_VERIFY_WERROR : 0u, L.binary ? NULL : L.data,
                               L.binary ? 0 : L.len};
        st = visa_module_verify(L.m, &vo, NULL);
        rc = st == VISA_OK ? 0 : EXIT_DIAG;
        if (st != VISA_OK && st != VISA_E_VERIFY) fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
    }
    if (json) {
        if (L.data || !rc) json_report(stdout, "verify", in, platform, L.binary, rc, &d);
    } else {
        diag_out_finish(&d, in);
        if (d.errors || d.warnings)
            fprintf(stderr, "%s: %u error%s, %u warning%s\n", in, d.errors, d.errors == 1 ? "" : "s", d.warnings,
                    d.warnings == 1 ? "" : "s");
    }
    unload(&L);
    return rc;
}

static const char main_help[] =
    "usage: visa COMMAND [ARGS]\n"
    "\n"
    "An independent toolchain for Intel's vISA (the virtual ISA of IGC).\n"
    "\n"
    "Commands:\n"
    "  fmt FILE [-o OUT]   parse and print vISA assembly as IGC prints it\n"
    "  asm FILE [-o OUT]   assemble text into a vISA 4.1 object (.isa)\n"
    "  dis FILE [-o OUT]   disassemble a vISA object into text\n"
    "  run FILE [ARGS]     run a kernel on the CPU ('visa run --help')\n"
    "  verify FILE         check a program against the spec's rules ('visa verify --help')\n"
    "  info MNEMONIC       describe an instruction from the instruction table ('info --list')\n"
    "  region OPERAND      draw an operand's region over the GRFs ('visa region --help')\n"
    "\n"
    "Every command that reads a program accepts text (.visaasm) or an object (.isa), and\n"
    "--json for its diagnostics.  Outputs are written whole or not at all ('man visa').\n"
    "\n"
    "  --version           print the version\n"
    "  --help              this help; 'visa COMMAND --help' for a command\n"
    "\n"
    "Exit status: 0 ok, 1 diagnostics (errors in the input), 2 usage error.\n";

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(main_help, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("visa %s\n", VISA_VERSION_STRING);
        return 0;
    }
    if (!strcmp(cmd, "fmt")) return cmd_fmt(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "asm")) return cmd_asm_dis(argc - 2, argv + 2, true);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "dis")) return cmd_asm_dis(argc - 2, argv + 2, false);
    if (!strcmp(cmd, "verify")) return cmd_verify(argc - 2, argv + 2);
    if (!strcmp(cmd, "region")) return cmd_region(argc - 2, argv + 2);
    return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char **argv) {
    int rc = dispatch(argc, argv);
    /* what went to standard output must have arrived (a full disk, a closed pipe) */
    if (out_close_stdout() && !rc) rc = EXIT_DIAG;
    return rc;
}
