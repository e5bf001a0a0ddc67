/* profile.c -- `--profile` (docs/observe.md): the session's kernels, each one's counters summed
** over its launches, printed per vISA instruction and, when the program was built with -g (IGC's
** FILE and LOC instructions: visa_kernel_op_source), per line of the program's source; and
** `--profile-svg`, the active lanes of every thread over its executed instructions.
*/
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include "outfile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* -- Counters ---------------------------------------------------------------------------------- */
op_prof *prof_at(prof *p, uint32_t i) {
    if (i >= p->nop) {
        uint32_t n = p->nop ? p->nop : 64;
        while (n <= i) n *= 2;
        op_prof *q = realloc(p->op, sizeof *q * n);
        if (!q) return NULL;
        memset(q + p->nop, 0, sizeof *q * (n - p->nop));
        p->op = q;
        p->nop = n;
    }
    return &p->op[i];
}

/* -- Source text -------------------------------------------------------------------------------- */
/* Line `n` (1-based) of text, without its indentation; NULL if none; *len receives its length. */
static const char *text_line(const char *text, size_t text_len, uint32_t n, size_t *len) {
    if (!text || !n) return NULL;
    const char *p = text, *end = text + text_len;
    for (uint32_t k = 1; k < n && p < end; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return NULL;
        p = nl + 1;
    }
    if (p >= end) return NULL;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *len = (size_t)((nl ? nl : end) - p);
    while (*len && (p[*len - 1] == '\r')) (*len)--;
    while (*len && (*p == ' ' || *p == '\t')) p++, (*len)--;
    return p;
}

/* A readable text file's bytes (malloc'd, *len of them), NULL if there is none. */
static char *read_text(const char *path, size_t *len) {
    struct stat st;
    FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (64 << 20) ? fopen(path, "rb") : NULL;
    char *t = f ? malloc((size_t)st.st_size + 1) : NULL;
    *len = t ? fread(t, 1, (size_t)st.st_size, f) : 0;
    if (f) fclose(f);
    if (t && memchr(t, 0, *len)) *len = 0; /* not text */
    if (!*len) {
        free(t);
        return NULL;
    }
    return t;
}

/* The text of each FILE of k (NULL when it cannot be read), texts[i] for k->files[i]; owned[i]
** says whether it was read (and is to be freed). */
static void load_files(const obs_kern *k, const char **texts, size_t *lens, char **owned) {
    for (uint32_t i = 0; i < k->nfiles; i++) {
        const char *slash = strrchr(k->files[i], '/');
        owned[i] = NULL;
        if (k->source_name && !strcmp(slash ? slash + 1 : k->files[i], k->source_name)) {
            texts[i] = k->source_text;
            lens[i] = k->source_len;
        } else {
            texts[i] = owned[i] = read_text(k->files[i], &lens[i]);
        }
    }
}

/* -- Per source line ---------------------------------------------------------------------------- */
typedef struct src_prof {
    op_src at; /* {0, 0}: the ops without a source line */
    uint64_t execs, active, lanes, bytes, ns;
} src_prof;

static int cmp_src(const void *a, const void *b) {
    const op_src *x = &((const src_prof *)a)->at, *y = &((const src_prof *)b)->at;
    bool xn = !x->line, yn = !y->line; /* no line: last */
    if (xn != yn) return xn ? 1 : -1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* k's executed ops summed per source line (sorted by file and line, those without last): the
** count, or 0 when no executed op has a source line (or out of memory). */
static size_t per_source_line(const obs_kern *k, src_prof **out) {
    const prof *p = &k->total;
    src_prof *sp = malloc(sizeof *sp * (p->nop ? p->nop : 1));
    size_t n = 0;
    bool any = false;
    for (uint32_t i = 0; sp && i < p->nop; i++) {
        const op_prof *q = &p->op[i];
        if (!q->execs) continue;
        op_src at = i < k->nsrc && k->src[i].line ? k->src[i] : (op_src){0, 0};
        any |= at.line != 0;
        sp[n++] = (src_prof){at, q->execs, q->active, q->lanes, q->bytes, q->ns};
    }
    if (!any) n = 0;
    if (sp) qsort(sp, n, sizeof *sp, cmp_src);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        src_prof *to =
            m && sp[m - 1].at.file == sp[i].at.file && sp[m - 1].at.line == sp[i].at.line ? &sp[m - 1] : NULL;
        if (!to) {
            sp[m++] = sp[i];
            continue;
        }
        to->execs += sp[i].execs, to->active += sp[i].active, to->lanes += sp[i].lanes;
        to->bytes += sp[i].bytes, to->ns += sp[i].ns;
    }
    *out = sp;
    return m;
}

/* -- Printing ----------------------------------------------------------------------------------- */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

typedef struct totals {
    uint64_t execs, ns, wide, partial;
    uint32_t hot[5]; /* the hottest ops: by time share, executions breaking ties */
    unsigned nhot;
} totals;

static void sum_up(const prof *p, totals *t) {
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < p->nop; i++) {
        const op_prof *q = &p->op[i];
        t->execs += q->execs;
        t->ns += q->ns;
        if (q->exec_size > 1) t->wide += q->execs, t->partial += q->partial;
        if (!q->execs) continue;
        unsigned k = t->nhot < 5 ? t->nhot++ : 5;
        while (k > 0) {
            const op_prof *b = &p->op[t->hot[k - 1]];
            if (q->ns < b->ns || (q->ns == b->ns && q->execs <= b->execs)) break;
            if (k < 5) t->hot[k] = t->hot[k - 1];
            k--;
        }
        if (k < 5) t->hot[k] = i;
    }
}

static const char *file_name(const obs_kern *k, op_src at) { return at.file ? k->files[at.file - 1] : "?"; }

static void print_json(const obs_kern *k, const totals *t, const src_prof *sp, size_t nsp, FILE *f) {
    const prof *p = &k->total;
    strbuf j = {0};
    sb_printf(&j, "{\"instructions\":%" PRIu64 ",\"divergence\":%.6f,\"ops\":[", t->execs, ratio(t->partial, t->wide));
    const char *sep = "";
    for (uint32_t i = 0; i < p->nop; i++) {
        const op_prof *q = &p->op[i];
        if (!q->execs) continue;
        sb_printf(&j, "%s{\"op\":%u,\"line\":%u,\"mnemonic\":", sep, i, q->line);
        sb_json_cstr(&j, q->mnemonic);
        sb_printf(&j,
                  ",\"executions\":%" PRIu64 ",\"exec_size\":%u,\"active_lanes\":%.6f,\"simd_efficiency\":%.6f,"
                  "\"partial\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"time_share\":%.6f}",
                  q->execs, q->exec_size, ratio(q->active, q->execs), ratio(q->active, q->lanes), q->partial, q->bytes,
                  ratio(q->ns, t->ns));
        sep = ",";
    }
    sb_printf(&j, "],\"hottest\":[");
    for (unsigned h = 0; h < t->nhot; h++) sb_printf(&j, "%s%u", h ? "," : "", p->op[t->hot[h]].line);
    sb_printf(&j, "],\"kernel\":");
    sb_json_cstr(&j, k->name);
    sb_printf(&j, ",\"file\":");
    sb_json_cstr(&j, k->file);
    sb_printf(&j, ",\"launches\":%" PRIu64 ",\"threads\":%" PRIu64 ",\"sources\":[", k->launches, k->threads);
    for (size_t i = 0; i < nsp; i++) {
        const src_prof *q = &sp[i];
        sb_printf(&j, "%s{\"file\":", i ? "," : "");
        if (q->at.file) sb_json_cstr(&j, file_name(k, q->at));
        else sb_printf(&j, "null");
        sb_printf(&j,
                  ",\"line\":%u,\"executions\":%" PRIu64 ",\"active_lanes\":%.6f,\"simd_efficiency\":%.6f,"
                  "\"bytes\":%" PRIu64 ",\"time_share\":%.6f}",
                  q->at.line, q->execs, ratio(q->active, q->execs), ratio(q->active, q->lanes), q->bytes,
                  ratio(q->ns, t->ns));
    }
    sb_printf(&j, "]}\n");
    if (j.s) fputs(j.s, f);
    sb_free(&j);
}

/* The columns of a row: executions, average active lanes, SIMD efficiency, bytes, time share. */
static void print_counts(FILE *f, uint64_t execs, uint64_t active, uint64_t lanes, uint64_t bytes, uint64_t ns,
                         uint64_t total_ns) {
    fprintf(f, "%10" PRIu64 " %6.2f %6.1f %10" PRIu64 " %6.1f  ", execs, ratio(active, execs),
            100.0 * ratio(active, lanes), bytes, 100.0 * ratio(ns, total_ns));
}

static void print_sources(const obs_kern *k, const totals *t, const src_prof *sp, size_t nsp, FILE *f) {
    const char **texts = calloc(k->nfiles + 1, sizeof *texts);
    size_t *lens = calloc(k->nfiles + 1, sizeof *lens);
    char **owned = calloc(k->nfiles + 1, sizeof *owned);
    if (texts && lens && owned) load_files(k, texts, lens, owned);
    fprintf(f, "%10s %6s %6s %10s %6s  %s\n", "execs", "lanes", "simd%", "bytes", "time%", "source line");
    for (size_t i = 0; i < nsp; i++) {
        const src_prof *q = &sp[i];
        print_counts(f, q->execs, q->active, q->lanes, q->bytes, q->ns, t->ns);
        if (!q->at.line) {
            fprintf(f, "(no source line)\n");
            continue;
        }
        size_t len = 0;
        uint32_t fi = q->at.file;
        const char *src = fi && texts && lens ? text_line(texts[fi - 1], lens[fi - 1], q->at.line, &len) : NULL;
        fprintf(f, "%s:%u: %.*s\n", file_name(k, q->at), q->at.line, (int)len, src ? src : "");
    }
    for (uint32_t i = 0; owned && i < k->nfiles; i++) free(owned[i]);
    free(texts);
    free(lens);
    free(owned);
}

static void print_text(const obs_kern *k, const totals *t, const src_prof *sp, size_t nsp, FILE *f) {
    const prof *p = &k->total;
    fprintf(f, "kernel %s (%s): %" PRIu64 " launch%s, %" PRIu64 " thread%s\n", k->name, k->file, k->launches,
            k->launches == 1 ? "" : "es", k->threads, k->threads == 1 ? "" : "s");
    fprintf(f, "%10s %6s %6s %10s %6s  %s\n", "execs", "lanes", "simd%", "bytes", "time%", "line: instruction");
    for (uint32_t i = 0; i < p->nop; i++) {
        const op_prof *q = &p->op[i];
        if (!q->execs) continue;
        size_t len = 0;
        const char *src = text_line(k->text, k->text_len, q->line, &len);
        print_counts(f, q->execs, q->active, q->lanes, q->bytes, q->ns, t->ns);
        fprintf(f, "%u: %.*s\n", q->line, (int)(src ? len : strlen(q->mnemonic)), src ? src : q->mnemonic);
    }
    fprintf(f,
            "\n%" PRIu64 " instructions executed; divergence: %.1f%% of SIMD executions (exec size > 1) "
            "ran with a partial mask (%" PRIu64 " of %" PRIu64 ")\nhottest:",
            t->execs, 100.0 * ratio(t->partial, t->wide), t->partial, t->wide);
    for (unsigned h = 0; h < t->nhot; h++)
        fprintf(f, " %s:%u (%.1f%%, %" PRIu64 " execs)", k->file, p->op[t->hot[h]].line,
                100.0 * ratio(p->op[t->hot[h]].ns, t->ns), p->op[t->hot[h]].execs);
    fprintf(f, "\n");
    if (nsp) {
        fprintf(f, "\n");
        print_sources(k, t, sp, nsp, f);
    }
}

void prof_print_kernel(const obs_kern *k, bool json, FILE *f) {
    totals t;
    sum_up(&k->total, &t);
    src_prof *sp = NULL;
    size_t nsp = per_source_line(k, &sp);
    if (json) print_json(k, &t, sp, nsp, f);
    else print_text(k, &t, sp, nsp, f);
    free(sp);
}

/* -- SVG ---------------------------------------------------------------------------------------- */
static int cmp_row(const void *a, const void *b) {
    const lane_row *x = a, *y = b;
    if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* One row per thread: x = executed instruction (binned to at most 1000 columns), bar height and
** colour = average active lanes / exec size in the bin.  Rows of several launches name theirs. */
int prof_write_svg(lane_row *rows, size_t nrows, bool launches, const char *path, bool in_place) {
    out_file of;
    if (in_place ? out_open_direct(&of, path) : out_open(&of, path)) return 1;
    FILE *f = of.f;
    qsort(rows, nrows, sizeof *rows, cmp_row);
    size_t maxn = 1;
    for (size_t k = 0; k < nrows; k++) maxn = rows[k].n > maxn ? rows[k].n : maxn;
    size_t cols = maxn < 1000 ? maxn : 1000;
    const unsigned rh = 20, left = launches ? 170 : 110, colw = cols < 250 ? 4 : 1;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"%zu\">\n"
            "<title>active lanes per executed instruction, one row per thread</title>\n",
            left + cols * colw + 10, (size_t)(nrows + 1) * rh + 10);
    for (size_t k = 0; k < nrows; k++) {
        const lane_row *r = &rows[k];
        size_t y = 5 + k * rh;
        strbuf name = {0};
        if (launches) sb_printf(&name, "L%" PRIu64 " ", r->launch);
        sb_printf(&name, "G%" PRIu64 ".T%u", r->group, r->thread);
        fprintf(f, "<g class=\"thread\" data-launch=\"%" PRIu64 "\" data-group=\"%" PRIu64 "\" data-thread=\"%u\">\n",
                r->launch, r->group, r->thread);
        fprintf(f, "<text x=\"2\" y=\"%zu\" font-size=\"11\">%s</text>\n", y + 14, name.s ? name.s : "");
        sb_free(&name);
        for (size_t c = 0; c < cols && r->n; c++) {
            size_t a = c * maxn / cols, b = (c + 1) * maxn / cols;
            if (a >= r->n) break;
            if (b > r->n) b = r->n;
            if (b <= a) b = a + 1;
            uint64_t act = 0, tot = 0;
            for (size_t i = a; i < b; i++) act += r->active[i], tot += r->size[i];
            double fr = ratio(act, tot);
            unsigned h = (unsigned)(fr * (rh - 4) + 0.5);
            fprintf(f, "<rect x=\"%zu\" y=\"%zu\" width=\"%u\" height=\"%u\" fill=\"hsl(%d,70%%,45%%)\"/>\n",
                    left + c * colw, y + (rh - 4) - h, colw, h ? h : 1, (int)(fr * 120));
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n");
    return out_close(&of, true);
}
