/* observe.c -- `--trace` / `--profile` (docs/observe.md): options, sessions, launches, the
** observer's callbacks and the trace.
**
** Groups may run on several host threads at once; each group's events go to its own buffer
** (group_begin), and group_end hands the finished buffer over.  A launch's trace is written in
** group order as soon as every earlier group has finished, so the output is the same for any
** --threads.  Profile counters are sums, merged into the kernel's at group_end (order does not
** matter).  The session's lock covers the merging and the writing: launches of several host
** threads (the ICD's queues) share it.
*/
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "observe.h"
#include "outfile.h"
#include "profile.h"
#include "strbuf.h"

struct obs_session {
    obs_opts o;
    pthread_mutex_t lock; /* everything below */
    bool tracing, finished, oom;
    out_file trace_of;
    obs_kern *kernels, **last;
    uint64_t launches;
    lane_row *rows;
    size_t nrows, caprows;
};

/* One group's events until it ends. */
typedef struct group_buf {
    obs_launch *l;
    uint64_t index;
    uint32_t id[3]; /* its group id, from its first event */
    uint32_t nthreads; /* threads that executed anything */
    strbuf out;
    prof p;
    lane_row *rows;
    uint32_t nrows;
} group_buf;

struct obs_launch {
    obs_session *s;
    obs_kern *k;
    uint64_t number; /* in the session, from 1 */
    uint64_t ngroups, next_emit; /* ngroups 0: not known (the trace is held until the launch ends) */
    group_buf **done; /* ngroups known: per group index, finished and waiting for the groups before
                         it; else every finished group, in the order they finished */
    size_t ndone, capdone;
};

/* -- Options ------------------------------------------------------------------------------------ */
const obs_option obs_options[] = {
    {"--trace", false},      {"--trace-thread", true},   {"--trace-lanes", true},
    {"--trace-lines", true}, {"--trace-format", true},   {"--trace-out", true},
    {"--profile", false},    {"--profile-format", true}, {"--profile-svg", true},
};
const unsigned obs_option_count = sizeof obs_options / sizeof *obs_options;

void obs_opts_init(obs_opts *o) {
    memset(o, 0, sizeof *o);
    o->lane_hi = 31;
    o->line_hi = UINT32_MAX;
}

void obs_env_name(const char *option, char *out, size_t cap) {
    int n = snprintf(out, cap, "VISA_CL_%s", option + 2);
    for (char *c = out + 8; n > 0 && *c; c++) *c = *c == '-' ? '_' : (char)toupper((unsigned char)*c);
}

static int parse_range(const char *s, uint32_t *lo, uint32_t *hi) {
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

static int parse_thread(const char *s, uint64_t *group, uint32_t *thread) {
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

int obs_parse_option(obs_opts *o, const char *a, const char *v, char *why, size_t cap) {
    *why = 0;
    if (!strcmp(a, "--trace")) {
        o->trace = true;
    } else if (!strcmp(a, "--profile")) {
        o->profile = true;
    } else if (!strcmp(a, "--trace-thread")) {
        if (parse_thread(v, &o->filter_group, &o->filter_thread))
            snprintf(why, cap, "bad --trace-thread '%s' (G,T: group index, thread index)", v);
        o->thread_filter = o->trace = true;
    } else if (!strcmp(a, "--trace-lanes") || !strcmp(a, "--trace-lines")) {
        bool lanes = !strcmp(a, "--trace-lanes");
        if (parse_range(v, lanes ? &o->lane_lo : &o->line_lo, lanes ? &o->lane_hi : &o->line_hi))
            snprintf(why, cap, "bad %s '%s' (A-B)", a, v);
        o->trace = true;
    } else if (!strcmp(a, "--trace-format") || !strcmp(a, "--profile-format")) {
        if (strcmp(v, "json") && strcmp(v, "text")) snprintf(why, cap, "bad format '%s' (text or json)", v);
        if (a[2] == 't') o->trace_json = o->trace = !strcmp(v, "json") || o->trace;
        else o->profile_json = o->profile = !strcmp(v, "json") || o->profile;
    } else if (!strcmp(a, "--trace-out")) {
        o->trace_out = v;
        o->trace = true;
    } else if (!strcmp(a, "--profile-svg")) {
        o->profile_svg = v;
        o->profile = true;
    } else {
        return -1;
    }
    return *why ? 1 : 0;
}

/* -- Values ------------------------------------------------------------------------------------- */
static unsigned popcount(uint32_t v) {
    unsigned n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}
static uint32_t lanes_mask(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

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

/* -- Kernels ------------------------------------------------------------------------------------ */
static char *copy_of(const char *s, size_t n) {
    char *c = malloc(n + 1);
    if (c) memcpy(c, s, n), c[n] = 0;
    return c;
}

/* The index + 1 of FILE name in k->files, added if new; 0 when out of memory. */
static uint32_t file_index(obs_kern *k, const char *name) {
    for (uint32_t i = 0; i < k->nfiles; i++)
        if (!strcmp(k->files[i], name)) return i + 1;
    char **f = realloc(k->files, sizeof *f * (k->nfiles + 1));
    if (!f) return 0;
    k->files = f;
    if (!(f[k->nfiles] = copy_of(name, strlen(name)))) return 0;
    return ++k->nfiles;
}

/* Every op's source position (copied: the module may go before the session); false when out of
** memory. */
static bool copy_positions(obs_kern *k, const visa_kernel *prepared) {
    const char *file;
    uint32_t line, cap = 0;
    for (uint32_t op = 0; prepared && visa_kernel_op_source(prepared, op, &file, &line) == VISA_OK; op++) {
        if (op == cap) {
            cap = cap ? 2 * cap : 256;
            op_src *src = realloc(k->src, sizeof *src * cap);
            if (!src) return false;
            k->src = src;
        }
        k->src[op] = (op_src){file ? file_index(k, file) : 0, line};
        if (file && !k->src[op].file) return false;
        k->nsrc = op + 1;
    }
    return true;
}

static void kern_free(obs_kern *k) {
    for (uint32_t i = 0; i < k->nfiles; i++) free(k->files[i]);
    free(k->files);
    free(k->src);
    free(k->name);
    free(k->file);
    free(k->text);
    free(k->source_name);
    free(k->source_text);
    free(k->total.op);
    free(k);
}

static bool same_kernel(const obs_kern *a, const obs_kernel *b) {
    return !strcmp(a->name, b->name) && a->text_len == (b->text ? b->text_len : 0) &&
           (!a->text_len || !memcmp(a->text, b->text, a->text_len));
}

/* The session's kernel k is (a copy of it added on its first launch); NULL when out of memory.
** Called with the session locked. */
static obs_kern *obs_kern_of(obs_session *s, const obs_kernel *k) {
    for (obs_kern *e = s->kernels; e; e = e->next)
        if (same_kernel(e, k)) return e;
    obs_kern *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->name = copy_of(k->name, strlen(k->name));
    e->file = copy_of(k->file, strlen(k->file));
    e->text_len = k->text ? k->text_len : 0;
    e->text = copy_of(k->text ? k->text : "", e->text_len);
    bool ok = e->name && e->file && e->text;
    if (ok && k->source_name && k->source_text) {
        e->source_name = copy_of(k->source_name, strlen(k->source_name));
        e->source_text = copy_of(k->source_text, k->source_len);
        e->source_len = k->source_len;
        ok = e->source_name && e->source_text;
    }
    if (!ok) {
        kern_free(e);
        return NULL;
    }
    *s->last = e;
    s->last = &e->next;
    return e;
}

static void obs_kerns_free(obs_session *s) {
    for (obs_kern *k = s->kernels, *next; k; k = next) {
        next = k->next;
        kern_free(k);
    }
    s->kernels = NULL;
    s->last = &s->kernels;
}

/* -- Callbacks ---------------------------------------------------------------------------------- */
static void *cb_group_begin(void *ud, uint64_t gi) {
    group_buf *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->l = ud;
    g->index = gi;
    return g;
}

static lane_row *row_of(group_buf *g, uint32_t thread) {
    if (thread >= g->nrows) {
        lane_row *r = realloc(g->rows, sizeof *r * (thread + 1));
        if (!r) return NULL;
        for (uint32_t k = g->nrows; k <= thread; k++)
            r[k] = (lane_row){.launch = g->l->number, .group = g->index, .thread = k};
        g->rows = r;
        g->nrows = thread + 1;
    }
    return &g->rows[thread];
}

/* SVG rows keep at most this many executed instructions per thread. */
#define ROW_CAP (1u << 22)

static void trace_inst(const obs_opts *o, const char *file, strbuf *t, const visa_inst_event *e) {
    const visa_exec_point *at = &e->at;
    if (o->thread_filter && (at->group_index != o->filter_group || at->thread != o->filter_thread)) return;
    if (at->line < o->line_lo || at->line > o->line_hi) return;
    unsigned digits = e->exec_size >= 4 ? e->exec_size / 4 : 1;
    if (o->trace_json) {
        sb_printf(t, "{\"group\":[%u,%u,%u],\"thread\":%u,\"step\":%" PRIu64 ",\"file\":", at->group[0], at->group[1],
                  at->group[2], at->thread, at->step);
        sb_json_cstr(t, file);
        sb_printf(t, ",\"line\":%u,\"op\":", at->line);
        sb_json_cstr(t, at->mnemonic);
        sb_printf(t, ",\"exec_size\":%u,\"exec\":\"0x%0*x\"", e->exec_size, (int)digits, e->enabled);
        if (e->dst_bytes) {
            sb_printf(t, ",\"dst\":");
            sb_json_cstr(t, e->dst_name);
            sb_printf(t, ",\"type\":");
            sb_json_cstr(t, e->dst_type);
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
    sb_printf(t, "G<%u,%u,%u>.T%u %s:%u %s exec=0x%0*x", at->group[0], at->group[1], at->group[2], at->thread, file,
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

static void count_inst(group_buf *g, const visa_inst_event *e, bool svg) {
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
    if (!p->seen) { /* an op's line, width and mnemonic do not change: copied once */
        p->line = e->at.line;
        p->exec_size = e->exec_size;
        p->seen = true;
        snprintf(p->mnemonic, sizeof p->mnemonic, "%s", e->at.mnemonic);
    }
    if (!svg) return;
    lane_row *r = row_of(g, e->at.thread);
    if (!r || r->n >= ROW_CAP) return;
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

static void cb_inst(void *gud, const visa_inst_event *e) {
    group_buf *g = gud;
    if (!g) return;
    const obs_opts *o = &g->l->s->o;
    if (!g->nthreads) memcpy(g->id, e->at.group, sizeof g->id);
    if (e->at.thread >= g->nthreads) g->nthreads = e->at.thread + 1;
    if (o->trace) trace_inst(o, g->l->k->file, &g->out, e);
    if (o->profile) count_inst(g, e, o->profile_svg != NULL);
}

static void cb_mem(void *gud, const visa_mem_event *e) {
    group_buf *g = gud;
    if (!g || !g->l->s->o.profile) return;
    op_prof *p = prof_at(&g->p, e->at.op);
    if (p) p->bytes += e->size;
}

/* The group's trace to the session's output, and the group freed. */
static void emit(obs_session *s, group_buf *g) {
    if (s->tracing && g->out.len) out_write(&s->trace_of, g->out.s, g->out.len);
    free(g->out.s);
    free(g);
}

static void emit_ready(obs_launch *l) {
    while (l->next_emit < l->ngroups && l->done[l->next_emit]) {
        emit(l->s, l->done[l->next_emit]);
        l->done[l->next_emit++] = NULL;
    }
}

/* The group's counts into its kernel's profile, its SVG rows into the session's. */
static void merge_group(obs_session *s, group_buf *g) {
    obs_kern *k = g->l->k;
    k->threads += g->nthreads;
    for (uint32_t i = 0; i < g->p.nop; i++) {
        op_prof *from = &g->p.op[i], *to;
        if (!from->seen || !(to = prof_at(&k->total, i))) {
            s->oom |= from->seen;
            continue;
        }
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
    for (uint32_t r = 0; r < g->nrows; r++) {
        if (s->nrows == s->caprows) {
            size_t cap = s->caprows ? s->caprows * 2 : 16;
            lane_row *rows = realloc(s->rows, sizeof *rows * cap);
            if (!rows) {
                s->oom = true;
                free(g->rows[r].active);
                free(g->rows[r].size);
                continue;
            }
            s->rows = rows;
            s->caprows = cap;
        }
        s->rows[s->nrows++] = g->rows[r];
    }
    free(g->rows);
}

/* A finished group waits in l->done for its turn; false when out of memory. */
static bool hold(obs_launch *l, group_buf *g) {
    if (l->ngroups) {
        if (g->index >= l->ngroups) return false;
        l->done[g->index] = g;
        return true;
    }
    if (l->ndone == l->capdone) {
        size_t cap = l->capdone ? l->capdone * 2 : 16;
        group_buf **d = realloc(l->done, sizeof *d * cap);
        if (!d) return false;
        l->done = d;
        l->capdone = cap;
    }
    l->done[l->ndone++] = g;
    return true;
}

static void cb_group_end(void *ud, void *gud, uint64_t gi) {
    obs_launch *l = ud;
    obs_session *s = l->s;
    group_buf *g = gud;
    (void)gi;
    pthread_mutex_lock(&s->lock);
    if (!g) {
        s->oom = true;
    } else if (s->finished) { /* too late to count */
        free(g->p.op);
        for (uint32_t r = 0; r < g->nrows; r++) free(g->rows[r].active), free(g->rows[r].size);
        free(g->rows);
        free(g->out.s);
        free(g);
    } else {
        s->oom |= g->out.oom;
        merge_group(s, g);
        g->p.op = NULL;
        g->rows = NULL;
        if (!hold(l, g)) {
            s->oom = true;
            free(g->out.s);
            free(g);
        }
        if (l->ngroups) emit_ready(l);
    }
    pthread_mutex_unlock(&s->lock);
}

/* -- Sessions and launches ---------------------------------------------------------------------- */
obs_session *obs_session_start(const obs_opts *opts) {
    obs_session *s = calloc(1, sizeof *s);
    if (!s) {
        tool_error("E-NOMEM", NULL, "out of memory");
        return NULL;
    }
    s->o = *opts;
    s->last = &s->kernels;
    if (opts->trace) {
        if (!opts->trace_out) out_open_stream(&s->trace_of, opts->stream ? opts->stream : out_stdout());
        else if (opts->in_place ? out_open_direct(&s->trace_of, opts->trace_out)
                                : out_open(&s->trace_of, opts->trace_out)) {
            free(s);
            return NULL;
        }
        s->tracing = true;
    }
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

obs_launch *obs_launch_start(obs_session *s, const obs_kernel *k, uint64_t ngroups, visa_observer *o) {
    obs_launch *l = calloc(1, sizeof *l);
    if (l && ngroups && !(l->done = calloc(ngroups, sizeof *l->done))) {
        free(l);
        l = NULL;
    }
    if (!l) {
        tool_error("E-NOMEM", NULL, "out of memory: a launch is not observed");
        return NULL;
    }
    pthread_mutex_lock(&s->lock);
    l->k = s->finished ? NULL : obs_kern_of(s, k);
    if (l->k) l->number = ++s->launches, l->k->launches++;
    else s->oom |= !s->finished;
    pthread_mutex_unlock(&s->lock);
    if (!l->k) {
        free(l->done);
        free(l);
        return NULL;
    }
    l->s = s;
    l->ngroups = ngroups;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->flags = s->o.profile ? VISA_OBSERVE_TIME : 0;
    o->ud = l;
    o->group_begin = cb_group_begin;
    o->group_end = cb_group_end;
    o->on_inst = cb_inst;
    o->on_mem = s->o.profile ? cb_mem : NULL;
    return l;
}

bool obs_program_kernel(const visa_program *p, const char *kernel, obs_kernel *k, char **text) {
    const visa_module *m = visa_program_kernel_module(p, kernel);
    strbuf t = {0};
    memset(k, 0, sizeof *k);
    *text = NULL;
    if (!m) return false; /* the launch says why it cannot run */
    if (visa_module_print(m, NULL, sb_write, &t) != VISA_OK) {
        sb_free(&t);
        tool_error("E-NOMEM", NULL, "out of memory: a launch is not observed");
        return false;
    }
    k->name = kernel;
    k->file = visa_module_name(m);
    k->text = *text = t.s;
    k->text_len = t.len;
    return true;
}

const visa_kernel *obs_prepared(const visa_module *m, const char *kernel, visa_platform platform,
                                visa_status run_status) {
    const visa_kernel *k = NULL;
    if (m && (run_status == VISA_OK || run_status == VISA_E_RUNTIME) &&
        visa_kernel_prepare(m, kernel, platform, &k) != VISA_OK)
        k = NULL;
    return k;
}

const visa_kernel *obs_program_prepared(const visa_program *p, const char *kernel, visa_status run_status) {
    /* a program's launch prepares its kernel's module's first kernel */
    return obs_prepared(visa_program_kernel_module(p, kernel), NULL, visa_program_platform(p), run_status);
}

uint64_t obs_program_groups(const visa_cl_launch *l) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < l->work_dim && d < 3; d++) {
        if (!l->local_size[d] || l->global_size[d] % l->local_size[d]) return 0;
        n *= l->global_size[d] / l->local_size[d];
    }
    return n;
}

/* Group id order: z, then y, then x. */
static int cmp_group(const void *a, const void *b) {
    const group_buf *x = *(group_buf *const *)a, *y = *(group_buf *const *)b;
    for (int d = 2; d >= 0; d--)
        if (x->id[d] != y->id[d]) return x->id[d] < y->id[d] ? -1 : 1;
    return 0;
}

void obs_launch_finish(obs_launch *l, const visa_kernel *prepared) {
    if (!l) return;
    obs_session *s = l->s;
    pthread_mutex_lock(&s->lock);
    /* the positions of the kernel's first launch that has them (every launch's are the same) */
    if (!l->k->nsrc && !s->finished && !copy_positions(l->k, prepared)) s->oom = true;
    if (l->ngroups) {
        /* groups after a fault never ran: write what finished, in order */
        for (uint64_t g = l->next_emit; g < l->ngroups; g++) {
            if (l->done[g]) emit(s, l->done[g]);
        }
    } else {
        qsort(l->done, l->ndone, sizeof *l->done, cmp_group);
        for (size_t i = 0; i < l->ndone; i++) emit(s, l->done[i]);
    }
    pthread_mutex_unlock(&s->lock);
    free(l->done);
    free(l);
}

int obs_session_finish(obs_session *s) {
    int rc = 0;
    pthread_mutex_lock(&s->lock); /* a launch still running (a host program's exit) adds no more */
    if (!s->finished) {
        s->finished = true;
        if (s->tracing && out_close(&s->trace_of, true)) rc = 1;
        s->tracing = false;
        if (s->o.profile) {
            FILE *f = s->o.stream ? s->o.stream : out_stdout();
            for (const obs_kern *k = s->kernels; k; k = k->next) {
                if (k != s->kernels && !s->o.profile_json) fputc('\n', f);
                prof_print_kernel(k, s->o.profile_json, f);
            }
        }
        if (s->o.profile_svg && prof_write_svg(s->rows, s->nrows, s->launches > 1, s->o.profile_svg, s->o.in_place))
            rc = 1;
        if (s->oom) {
            tool_error("E-NOMEM", NULL, "out of memory while observing; the trace or profile is incomplete");
            rc = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void obs_session_free(obs_session *s) {
    if (!s) return;
    for (size_t k = 0; k < s->nrows; k++) free(s->rows[k].active), free(s->rows[k].size);
    free(s->rows);
    obs_kerns_free(s);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
