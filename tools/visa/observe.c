/* observe.c -- `visa run --trace` / `--profile` (docs/observe.md).
**
** Groups may run on several host threads at once; each group's events go to its own buffer
** (group_begin), and group_end hands the finished buffer over.  The trace is written in group
** order as soon as every earlier group has finished, so the output is the same for any
** --threads.  Profile counters are sums, merged at group_end (order does not matter).
*/
#define _POSIX_C_SOURCE 200809L
#include "observe.h"
#include "outfile.h"
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -- Profile counters --------------------------------------------------------------------------- */
typedef struct op_prof {
    uint64_t execs, active, lanes, partial, bytes, ns;
    uint32_t line, exec_size;
    char mnemonic[32];
    bool seen;
} op_prof;

typedef struct prof {
    op_prof *op;
    uint32_t nop;
} prof;

static op_prof *prof_at(prof *p, uint32_t i) {
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

/* Active lanes over executed instructions, per thread (the SVG). */
typedef struct lane_row {
    uint64_t group;
    uint32_t thread;
    uint8_t *active, *size; /* per executed instruction */
    size_t n, cap;
} lane_row;

typedef struct group_buf {
    uint64_t index;
    strbuf out;
    prof p;
    lane_row *rows;
    uint32_t nrows;
    bool done;
} group_buf;

struct obs_state {
    obs_opts o;
    FILE *trace; /* trace_of.f when tracing */
    out_file trace_of;
    pthread_mutex_t lock;
    uint64_t ngroups, next_emit;
    group_buf **done; /* per group: finished, waiting for the groups before it */
    prof total;
    lane_row *rows;
    size_t nrows, caprows;
    bool oom;
};

static unsigned popcount(uint32_t v) {
    unsigned n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}
static uint32_t lanes_mask(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

/* -- Values ------------------------------------------------------------------------------------- */
static float half_to_float(uint16_t h) {
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
    return h >> 15 ? -v : v;
}

static void put_value(strbuf *t, const char *type, const uint8_t *p, unsigned size) {
    uint64_t u = 0;
    memcpy(&u, p, size);
    if (!strcmp(type, "f")) {
        float f;
        memcpy(&f, p, 4);
        sb_printf(t, "%.9g", (double)f);
    } else if (!strcmp(type, "df")) {
        double d;
        memcpy(&d, p, 8);
        sb_printf(t, "%.17g", d);
    } else if (!strcmp(type, "hf")) {
        sb_printf(t, "%.5g", (double)half_to_float((uint16_t)u));
    } else if (!strcmp(type, "bf")) {
        uint32_t b = (uint32_t)u << 16;
        float f;
        memcpy(&f, &b, 4);
        sb_printf(t, "%.4g", (double)f);
    } else if (type[0] == 'u' || size == 0) {
        sb_printf(t, "%" PRIu64, u);
    } else { /* signed integers: b w d q */
        unsigned sh = 64 - 8 * size;
        sb_printf(t, "%" PRId64, (int64_t)(u << sh) >> sh);
    }
}

static void json_str(strbuf *t, const char *s) {
    sb_printf(t, "\"");
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') sb_printf(t, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) sb_printf(t, "\\u%04x", *s);
        else sb_printf(t, "%c", *s);
    }
    sb_printf(t, "\"");
}

/* -- Callbacks ---------------------------------------------------------------------------------- */
static void *on_group_begin(void *ud, uint64_t gi) {
    (void)ud;
    group_buf *g = calloc(1, sizeof *g);
    if (g) g->index = gi;
    return g;
}

static lane_row *row_of(group_buf *g, uint32_t thread) {
    if (thread >= g->nrows) {
        lane_row *r = realloc(g->rows, sizeof *r * (thread + 1));
        if (!r) return NULL;
        memset(r + g->nrows, 0, sizeof *r * (thread + 1 - g->nrows));
        for (uint32_t k = g->nrows; k <= thread; k++) r[k].group = g->index, r[k].thread = k;
        g->rows = r;
        g->nrows = thread + 1;
    }
    return &g->rows[thread];
}

/* SVG rows keep at most this many executed instructions per thread. */
#define ROW_CAP (1u << 22)

/* The real callbacks need the state: the observer's ud is the obs_state, and each group_buf
** points back to it through this wrapper. */
typedef struct group_ctx {
    group_buf *g;
    obs_state *s;
} group_ctx;

static void *cb_group_begin(void *ud, uint64_t gi) {
    group_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->s = ud;
    c->g = on_group_begin(ud, gi);
    if (!c->g) {
        free(c);
        return NULL;
    }
    return c;
}

static void trace_inst(const obs_opts *o, strbuf *t, const visa_inst_event *e) {
    const visa_exec_point *at = &e->at;
    if (o->thread_filter && (at->group_index != o->filter_group || at->thread != o->filter_thread)) return;
    if (at->line < o->line_lo || at->line > o->line_hi) return;
    unsigned digits = e->exec_size >= 4 ? e->exec_size / 4 : 1;
    if (o->trace_json) {
        sb_printf(t, "{\"group\":[%u,%u,%u],\"thread\":%u,\"step\":%" PRIu64 ",\"file\":", at->group[0], at->group[1],
                  at->group[2], at->thread, at->step);
        json_str(t, o->file);
        sb_printf(t, ",\"line\":%u,\"op\":", at->line);
        json_str(t, at->mnemonic);
        sb_printf(t, ",\"exec_size\":%u,\"exec\":\"0x%0*x\"", e->exec_size, (int)digits, e->enabled);
        if (e->dst_bytes) {
            sb_printf(t, ",\"dst\":");
            json_str(t, e->dst_name);
            sb_printf(t, ",\"type\":");
            json_str(t, e->dst_type);
            sb_printf(t, ",\"values\":[");
            bool first = true;
            for (unsigned i = o->lane_lo; i < e->exec_size && i <= o->lane_hi; i++) {
                sb_printf(t, first ? "" : ",");
                first = false;
                if (e->enabled >> i & 1)
                    put_value(t, e->dst_type, e->dst_after + i * e->dst_elem_bytes, e->dst_elem_bytes);
                else sb_printf(t, "null");
            }
            sb_printf(t, "]");
        }
        sb_printf(t, "}\n");
        return;
    }
    sb_printf(t, "G<%u,%u,%u>.T%u %s:%u %s exec=0x%0*x", at->group[0], at->group[1], at->group[2], at->thread, o->file,
              at->line, at->mnemonic, (int)digits, e->enabled);
    if (e->dst_bytes) {
        sb_printf(t, " %s.%s = [", e->dst_name, e->dst_type);
        bool first = true;
        for (unsigned i = o->lane_lo; i < e->exec_size && i <= o->lane_hi; i++) {
            sb_printf(t, first ? "" : " ");
            first = false;
            if (e->enabled >> i & 1) put_value(t, e->dst_type, e->dst_after + i * e->dst_elem_bytes, e->dst_elem_bytes);
            else sb_printf(t, "_");
        }
        sb_printf(t, "]");
    }
    sb_printf(t, "\n");
}

static void cb_inst(void *gud, const visa_inst_event *e) {
    group_ctx *c = gud;
    if (!c) return;
    const obs_opts *o = &c->s->o;
    group_buf *g = c->g;
    if (o->trace) trace_inst(o, &g->out, e);
    if (!o->profile) return;
    op_prof *p = prof_at(&g->p, e->at.op);
    if (!p) {
        g->out.oom = true;
        return;
    }
    unsigned active = popcount(e->enabled);
    p->execs++;
    p->active += active;
    p->lanes += e->exec_size;
    p->partial += e->exec_size > 1 && e->enabled != lanes_mask(e->exec_size);
    p->ns += e->host_ns;
    p->line = e->at.line;
    p->exec_size = e->exec_size;
    p->seen = true;
    snprintf(p->mnemonic, sizeof p->mnemonic, "%s", e->at.mnemonic);
    if (o->profile_svg) {
        lane_row *r = row_of(g, e->at.thread);
        if (r && r->n < ROW_CAP) {
            if (r->n == r->cap) {
                size_t cap = r->cap ? r->cap * 2 : 256;
                uint8_t *a = realloc(r->active, cap), *b = realloc(r->size, cap);
                if (a) r->active = a;
                if (b) r->size = b;
                if (!a || !b) return;
                r->cap = cap;
            }
            r->active[r->n] = (uint8_t)active;
            r->size[r->n++] = (uint8_t)e->exec_size;
        }
    }
}

static void cb_mem(void *gud, const visa_mem_event *e) {
    group_ctx *c = gud;
    if (!c || !c->s->o.profile) return;
    op_prof *p = prof_at(&c->g->p, e->at.op);
    if (p) p->bytes += e->size;
}

static void emit_ready(obs_state *s) {
    while (s->next_emit < s->ngroups && s->done[s->next_emit]) {
        group_buf *g = s->done[s->next_emit];
        if (s->trace && g->out.len) out_write(&s->trace_of, g->out.s, g->out.len);
        free(g->out.s);
        free(g);
        s->done[s->next_emit] = NULL;
        s->next_emit++;
    }
}

static void cb_group_end(void *ud, void *gud, uint64_t gi) {
    obs_state *s = ud;
    group_ctx *c = gud;
    pthread_mutex_lock(&s->lock);
    if (!c) {
        s->oom = true;
    } else {
        group_buf *g = c->g;
        s->oom |= g->out.oom;
        for (uint32_t i = 0; i < g->p.nop; i++) {
            op_prof *from = &g->p.op[i], *to;
            if (!from->seen || !(to = prof_at(&s->total, i))) continue;
            *to = (op_prof){to->execs + from->execs,
                            to->active + from->active,
                            to->lanes + from->lanes,
                            to->partial + from->partial,
                            to->bytes + from->bytes,
                            to->ns + from->ns,
                            from->line,
                            from->exec_size,
                            {0},
                            true};
            memcpy(to->mnemonic, from->mnemonic, sizeof to->mnemonic);
        }
        free(g->p.op);
        for (uint32_t k = 0; k < g->nrows; k++) {
            if (s->nrows == s->caprows) {
                size_t cap = s->caprows ? s->caprows * 2 : 16;
                lane_row *r = realloc(s->rows, sizeof *r * cap);
                if (!r) {
                    s->oom = true;
                    free(g->rows[k].active);
                    free(g->rows[k].size);
                    continue;
                }
                s->rows = r;
                s->caprows = cap;
            }
            s->rows[s->nrows++] = g->rows[k];
        }
        free(g->rows);
        if (gi < s->ngroups) s->done[gi] = g;
        else free(g);
        free(c);
        emit_ready(s);
    }
    pthread_mutex_unlock(&s->lock);
}

/* -- Options ------------------------------------------------------------------------------------ */
int obs_parse_range(const char *s, uint32_t *lo, uint32_t *hi) {
    char *end;
    unsigned long a = strtoul(s, &end, 10), b = a;
    if (end == s) return -1;
    if (*end == '-') {
        const char *t = end + 1;
        b = strtoul(t, &end, 10);
        if (end == t) return -1;
    }
    if (*end || b < a || b > 0xFFFFFFFFul) return -1;
    *lo = (uint32_t)a;
    *hi = (uint32_t)b;
    return 0;
}

int obs_parse_thread(const char *s, uint64_t *group, uint32_t *thread) {
    char *end;
    unsigned long long g = strtoull(s, &end, 10);
    if (end == s || *end != ',') return -1;
    const char *t = end + 1;
    unsigned long th = strtoul(t, &end, 10);
    if (end == t || *end || th > 0xFFFFFFFFul) return -1;
    *group = g;
    *thread = (uint32_t)th;
    return 0;
}

obs_state *obs_start(const obs_opts *opts, uint64_t ngroups, visa_observer *o) {
    obs_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->o = *opts;
    s->ngroups = ngroups;
    s->done = calloc(ngroups ? ngroups : 1, sizeof *s->done);
    if (!s->done) {
        free(s);
        return NULL;
    }
    if (opts->trace) {
        if (out_open(&s->trace_of, opts->trace_out)) {
            free(s->done);
            free(s);
            return NULL;
        }
        s->trace = s->trace_of.f;
    }
    pthread_mutex_init(&s->lock, NULL);
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->flags = opts->profile ? VISA_OBSERVE_TIME : 0;
    o->ud = s;
    o->group_begin = cb_group_begin;
    o->group_end = cb_group_end;
    o->on_inst = cb_inst;
    o->on_mem = opts->profile ? cb_mem : NULL;
    return s;
}

/* -- Profile output ----------------------------------------------------------------------------- */
/* Line `n` (1-based) of the source, NULL if none; *len receives its length. */
static const char *source_line(const obs_opts *o, uint32_t n, size_t *len) {
    if (!o->source || !n) return NULL;
    const char *p = o->source, *end = o->source + o->source_len;
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

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void print_profile(obs_state *s, FILE *f) {
    const prof *p = &s->total;
    uint64_t execs = 0, ns = 0, wide = 0, partial = 0;
    for (uint32_t i = 0; i < p->nop; i++) {
        execs += p->op[i].execs;
        ns += p->op[i].ns;
        if (p->op[i].exec_size > 1) wide += p->op[i].execs, partial += p->op[i].partial;
    }
    /* hottest: by time share, executions breaking ties; at most 5 */
    uint32_t hot[5];
    unsigned nhot = 0;
    for (uint32_t i = 0; i < p->nop; i++) {
        if (!p->op[i].execs) continue;
        unsigned k = nhot < 5 ? nhot++ : 5;
        while (k > 0) {
            const op_prof *a = &p->op[i], *b = &p->op[hot[k - 1]];
            if (a->ns < b->ns || (a->ns == b->ns && a->execs <= b->execs)) break;
            if (k < 5) hot[k] = hot[k - 1];
            k--;
        }
        if (k < 5) hot[k] = i;
    }
    if (s->o.profile_json) {
        fprintf(f, "{\"instructions\":%" PRIu64 ",\"divergence\":%.6f,\"ops\":[", execs, ratio(partial, wide));
        bool first = true;
        for (uint32_t i = 0; i < p->nop; i++) {
            const op_prof *q = &p->op[i];
            if (!q->execs) continue;
            fprintf(f,
                    "%s{\"op\":%u,\"line\":%u,\"mnemonic\":\"%s\",\"executions\":%" PRIu64
                    ",\"exec_size\":%u,\"active_lanes\":%.6f,\"simd_efficiency\":%.6f,\"partial\":%" PRIu64
                    ",\"bytes\":%" PRIu64 ",\"time_share\":%.6f}",
                    first ? "" : ",", i, q->line, q->mnemonic, q->execs, q->exec_size, ratio(q->active, q->execs),
                    ratio(q->active, q->lanes), q->partial, q->bytes, ratio(q->ns, ns));
            first = false;
        }
        fprintf(f, "],\"hottest\":[");
        for (unsigned k = 0; k < nhot; k++) fprintf(f, "%s%u", k ? "," : "", p->op[hot[k]].line);
        fprintf(f, "]}\n");
        return;
    }
    fprintf(f, "%10s %6s %6s %10s %6s  %s\n", "execs", "lanes", "simd%", "bytes", "time%", "line: instruction");
    for (uint32_t i = 0; i < p->nop; i++) {
        const op_prof *q = &p->op[i];
        if (!q->execs) continue;
        size_t len = 0;
        const char *src = source_line(&s->o, q->line, &len);
        fprintf(f, "%10" PRIu64 " %6.2f %6.1f %10" PRIu64 " %6.1f  %u: ", q->execs, ratio(q->active, q->execs),
                100.0 * ratio(q->active, q->lanes), q->bytes, 100.0 * ratio(q->ns, ns), q->line);
        if (src) fprintf(f, "%.*s\n", (int)len, src);
        else fprintf(f, "%s\n", q->mnemonic);
    }
    fprintf(f,
            "\n%" PRIu64 " instructions executed; divergence: %.1f%% of SIMD executions (exec size > 1) "
            "ran with a partial mask (%" PRIu64 " of %" PRIu64 ")\nhottest:",
            execs, 100.0 * ratio(partial, wide), partial, wide);
    for (unsigned k = 0; k < nhot; k++)
        fprintf(f, " %s:%u (%.1f%%, %" PRIu64 " execs)", s->o.file, p->op[hot[k]].line,
                100.0 * ratio(p->op[hot[k]].ns, ns), p->op[hot[k]].execs);
    fprintf(f, "\n");
}

static int cmp_row(const void *a, const void *b) {
    const lane_row *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* One row per thread: x = executed instruction (binned to at most 1000 columns), bar height and
** colour = average active lanes / exec size in the bin. */
static int write_svg(obs_state *s) {
    out_file of;
    if (out_open(&of, s->o.profile_svg)) return 1;
    FILE *f = of.f;
    qsort(s->rows, s->nrows, sizeof *s->rows, cmp_row);
    size_t maxn = 1;
    for (size_t k = 0; k < s->nrows; k++) maxn = s->rows[k].n > maxn ? s->rows[k].n : maxn;
    size_t cols = maxn < 1000 ? maxn : 1000;
    const unsigned rh = 20, left = 110, colw = cols < 250 ? 4 : 1;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"%zu\">\n"
            "<title>active lanes per executed instruction, one row per thread</title>\n",
            left + cols * colw + 10, (size_t)(s->nrows + 1) * rh + 10);
    for (size_t k = 0; k < s->nrows; k++) {
        const lane_row *r = &s->rows[k];
        size_t y = 5 + k * rh;
        fprintf(f, "<g class=\"thread\" data-group=\"%" PRIu64 "\" data-thread=\"%u\">\n", r->group, r->thread);
        fprintf(f, "<text x=\"2\" y=\"%zu\" font-size=\"11\">G%" PRIu64 ".T%u</text>\n", y + 14, r->group, r->thread);
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

int obs_finish(obs_state *s) {
    int rc = 0;
    pthread_mutex_lock(&s->lock);
    /* groups after a fault never ran: write what finished, in order */
    for (uint64_t g = s->next_emit; g < s->ngroups; g++) {
        if (s->done[g]) {
            s->next_emit = g;
            emit_ready(s);
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (s->trace && out_close(&s->trace_of, true)) rc = 1;
    if (s->o.profile) print_profile(s, out_stdout());
    if (s->o.profile_svg && write_svg(s)) rc = 1;
    if (s->oom) {
        cli_error("E-NOMEM", NULL, "out of memory while observing; the trace or profile is incomplete");
        rc = 1;
    }
    for (size_t k = 0; k < s->nrows; k++) free(s->rows[k].active), free(s->rows[k].size);
    free(s->rows);
    free(s->total.op);
    free(s->done);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return rc;
}
