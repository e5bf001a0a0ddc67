/* test_nomem.c -- allocation failure propagates.  For parse, verify, print, encode, decode and
** run of the examples (run as the README's `visa run` lines do), an allocator fails the Nth
** allocation (mode "once") or every allocation from the Nth on (mode "from"), for every N up to
** the number the operation makes.  Each round must return VISA_E_NOMEM with an "out of memory"
** diagnostic and no result, or the result of a round without failures; and every block the
** library allocated must be freed again (counted here, and by ASan's leak checker). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

typedef struct alloc_state {
    atomic_long count; /* allocations made (new blocks and growing reallocs) */
    atomic_long live; /* blocks allocated and not freed */
    long fail_at; /* 0: never fail */
    int fail_from; /* fail every allocation from fail_at on */
    atomic_long failed; /* failures injected */
} alloc_state;

static void *test_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    alloc_state *a = ud;
    (void)old_size;
    if (new_size == 0) {
        if (ptr) atomic_fetch_sub(&a->live, 1);
        free(ptr);
        return NULL;
    }
    long n = atomic_fetch_add(&a->count, 1) + 1;
    if (a->fail_at && (n == a->fail_at || (a->fail_from && n > a->fail_at))) {
        atomic_fetch_add(&a->failed, 1);
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p && !ptr) atomic_fetch_add(&a->live, 1);
    return p;
}

typedef struct diag_state {
    int nomem_diags; /* diagnostics that say "out of memory" */
    int diags;
} diag_state;

static void on_diag(void *ud, const visa_diag *d) {
    diag_state *s = ud;
    s->diags++;
    if (strstr(d->message, "out of memory")) s->nomem_diags++;
}

static char *read_all(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) n = 0;
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

typedef struct outbuf {
    char *data;
    size_t len;
} outbuf;

static visa_status collect(void *ud, const char *data, size_t len) {
    outbuf *o = ud;
    char *p = realloc(o->data, o->len + len + 1);
    if (!p) return VISA_E_IO;
    memcpy(p + o->len, data, len);
    o->data = p;
    o->len += len;
    return VISA_OK;
}

/* One example and its launch (the README's `visa run` line). */
typedef struct example {
    const char *file;
    uint32_t groups[3];
    size_t nbuf;
    size_t buf_size[3];
    size_t nargs;
    visa_arg args[6];
} example;

/* Buffers as the README's --arg buf:... give them. */
static void fill_buffers(const char *name, visa_buffer *bufs, size_t nbuf, const size_t *sizes) {
    for (size_t i = 0; i < nbuf; i++) {
        bufs[i].size = sizes[i];
        bufs[i].data = calloc(1, sizes[i]);
    }
    if (!strcmp(name, "saxpy")) { /* buf:64:iota:f, buf:64:fill:f:1 */
        float *x = (float *)bufs[0].data, *y = (float *)bufs[1].data;
        for (int i = 0; i < 16; i++) x[i] = (float)i, y[i] = 1.0f;
    } else { /* buf:256:fill:hf:1, buf:1024:fill:hf:0.5, buf:1024 */
        uint16_t *a = (uint16_t *)bufs[0].data, *b = (uint16_t *)bufs[1].data;
        for (int i = 0; i < 128; i++) a[i] = 0x3C00;
        for (int i = 0; i < 512; i++) b[i] = 0x3800;
    }
}

enum op { OP_PARSE, OP_VERIFY, OP_PRINT, OP_ENCODE, OP_DECODE, OP_RUN, OP__COUNT };
static const char *const op_names[OP__COUNT] = {"parse", "verify", "print", "encode", "decode", "run"};

typedef struct result {
    visa_status st;
    char *bytes; /* printed text, object, or buffers (by op) */
    size_t len;
    int out_null; /* the out pointer was NULL after a failure */
} result;

typedef struct fixture {
    const example *ex;
    const char *name;
    const char *text;
    size_t text_len;
    visa_module *module; /* parsed without failures, in ctx_ok */
    uint8_t *object; /* encoded without failures */
    size_t object_len;
    visa_ctx *ctx_ok;
} fixture;

/* Text of a module printed with an allocator that does not fail. */
static char *print_ok(const visa_module *m, size_t *len) {
    outbuf o = {NULL, 0};
    visa_print_opts po = {sizeof po, 0};
    visa_status st = visa_module_print(m, &po, collect, &o);
    *len = o.len;
    if (st != VISA_OK) {
        free(o.data);
        return NULL;
    }
    return o.data;
}

/* Run one operation in a context using allocator state a. */
static result run_op(const fixture *fx, enum op op, alloc_state *a, diag_state *ds) {
    result r = {VISA_OK, NULL, 0, 1};
    visa_ctx *ctx = NULL;
    visa_ctx_desc desc = {sizeof desc, test_alloc, a, on_diag, ds, 0};
    long fail_at = a->fail_at;
    a->fail_at = 0; /* the context itself is not under test */
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) abort();
    /* operations on an existing module: give it to this context's allocator by parsing anew */
    visa_module *m = NULL;
    uint8_t *obj = NULL;
    size_t obj_len = 0;
    if (op != OP_PARSE && op != OP_DECODE &&
        visa_module_parse_text(ctx, fx->name, fx->text, fx->text_len, VISA_PLATFORM_XE2, &m) != VISA_OK)
        abort();
    a->count = 0;
    a->failed = 0;
    a->fail_at = fail_at;
    switch (op) {
    case OP_PARSE:
        m = (visa_module *)1;
        r.st = visa_module_parse_text(ctx, fx->name, fx->text, fx->text_len, VISA_PLATFORM_XE2, &m);
        r.out_null = m == NULL;
        a->fail_at = 0;
        if (r.st == VISA_OK) r.bytes = print_ok(m, &r.len);
        break;
    case OP_DECODE:
        m = (visa_module *)1;
        r.st = visa_module_decode(ctx, fx->name, fx->object, fx->object_len, VISA_PLATFORM_XE2, &m);
        r.out_null = m == NULL;
        a->fail_at = 0;
        if (r.st == VISA_OK) r.bytes = print_ok(m, &r.len);
        break;
    case OP_VERIFY: {
        visa_verify_opts vo;
        memset(&vo, 0, sizeof vo);
        vo.struct_size = sizeof vo;
        vo.platform = VISA_PLATFORM_XE2;
        vo.source = fx->text;
        vo.source_len = fx->text_len;
        visa_verify_stats vs = {0, 0};
        r.st = visa_module_verify(m, &vo, &vs);
        r.bytes = malloc(16);
        r.len = (size_t)snprintf(r.bytes, 16, "%u %u", vs.errors, vs.warnings);
        break;
    }
    case OP_PRINT: {
        char *out = (char *)1;
        size_t len = 0;
        visa_print_opts po = {sizeof po, 0};
        r.st = visa_module_print_to_buffer(m, &po, &out, &len);
        r.out_null = out == NULL;
        a->fail_at = 0;
        if (r.st == VISA_OK) {
            r.bytes = malloc(len + 1);
            memcpy(r.bytes, out, len);
            r.len = len;
            visa_free(ctx, out, len + 1);
        }
        break;
    }
    case OP_ENCODE:
        obj = (uint8_t *)1;
        r.st = visa_module_encode(m, VISA_PLATFORM_XE2, &obj, &obj_len);
        r.out_null = obj == NULL;
        a->fail_at = 0;
        if (r.st == VISA_OK) {
            r.bytes = malloc(obj_len);
            memcpy(r.bytes, obj, obj_len);
            r.len = obj_len;
            visa_free(ctx, obj, obj_len);
        }
        break;
    case OP_RUN: {
        const example *ex = fx->ex;
        visa_buffer bufs[3];
        fill_buffers(fx->name, bufs, ex->nbuf, ex->buf_size);
        visa_run_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.struct_size = sizeof ro;
        ro.platform = VISA_PLATFORM_XE2;
        memcpy(ro.groups, ex->groups, sizeof ro.groups);
        ro.threads = 1;
        r.st = visa_module_run(m, &ro, ex->args, ex->nargs, bufs, ex->nbuf, NULL);
        size_t total = 0;
        for (size_t i = 0; i < ex->nbuf; i++) total += bufs[i].size;
        r.bytes = malloc(total);
        for (size_t i = 0; i < ex->nbuf; i++) {
            memcpy(r.bytes + r.len, bufs[i].data, bufs[i].size);
            r.len += bufs[i].size;
            free(bufs[i].data);
        }
        break;
    }
    default: break;
    }
    a->fail_at = 0;
    if (m && m != (visa_module *)1) visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return r;
}

static int rounds_tried, nomem_rounds;

/* Every N for one operation, both modes. */
static void sweep(const fixture *fx, enum op op) {
    alloc_state a;
    memset(&a, 0, sizeof a);
    diag_state ds = {0, 0};
    result base = run_op(fx, op, &a, &ds);
    long total = a.count;
    char name[96];
    snprintf(name, sizeof name, "%s %s baseline (%ld allocations)", fx->name, op_names[op], total);
    fprintf(stderr, "%s\n", name);
    CASE_BEGIN();
    CHECKF(base.st == VISA_OK, "%s", visa_status_str(base.st));
    CHECK(a.live == 0);
    CASE_END(name);
    for (int from = 0; from < 2; from++) {
        int bad = 0;
        for (long n = 1; n <= total + 1; n++) {
            memset(&a, 0, sizeof a);
            a.fail_at = n;
            a.fail_from = from;
            ds.nomem_diags = ds.diags = 0;
            result r = run_op(fx, op, &a, &ds);
            rounds_tried++;
            const char *why = NULL;
            if (a.live != 0) why = "leaked blocks";
            else if (r.st == VISA_E_NOMEM) {
                nomem_rounds++;
                if (!a.failed) why = "VISA_E_NOMEM without an allocation failure";
                else if (!r.out_null) why = "out pointer not NULL after VISA_E_NOMEM";
                else if (op != OP_PRINT && op != OP_ENCODE && !ds.nomem_diags) why = "no \"out of memory\" diagnostic";
            } else if (r.st != base.st) why = visa_status_str(r.st);
            else if (r.len != base.len || (r.len && memcmp(r.bytes, base.bytes, r.len)))
                why = "result differs from the baseline";
            if (why && bad++ < 5)
                fprintf(stderr, "%s %s fail %s %ld: %s (live %ld)\n", fx->name, op_names[op], from ? "from" : "once", n,
                        why, (long)a.live);
            free(r.bytes);
        }
        snprintf(name, sizeof name, "%s %s: fail allocation %s N, N = 1..%ld", fx->name, op_names[op],
                 from ? "from" : "", total + 1);
        CASE_BEGIN();
        CHECKF(bad == 0, "%d bad rounds", bad);
        CASE_END(name);
    }
    free(base.bytes);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    static const example examples[] = {
        {"saxpy",
         {1, 1, 1},
         2,
         {64, 64, 0},
         4,
         {{VISA_ARG_BUFFER, 0, 0, 0},
          {VISA_ARG_BUFFER, 0, 1, 0},
          {VISA_ARG_FLOAT, 0, 0, 2.5},
          {VISA_ARG_INT, 10, 0, 0}}},
        {"gemm",
         {2, 1, 1},
         3,
         {256, 1024, 1024},
         6,
         {{VISA_ARG_BUFFER, 0, 0, 0},
          {VISA_ARG_BUFFER, 0, 1, 0},
          {VISA_ARG_BUFFER, 0, 2, 0},
          {VISA_ARG_INT, 8, 0, 0},
          {VISA_ARG_INT, 32, 0, 0},
          {VISA_ARG_INT, 16, 0, 0}}},
    };
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        fixture fx;
        memset(&fx, 0, sizeof fx);
        fx.ex = &examples[e];
        fx.name = examples[e].file;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.visaasm", argv[1], fx.name);
        char *text = read_all(path, &fx.text_len);
        if (!text) {
            fprintf(stderr, "cannot read %s\n", path);
            return 2;
        }
        fx.text = text;
        visa_ctx_desc desc = {sizeof desc, NULL, NULL, NULL, NULL, 0};
        if (visa_ctx_create(&desc, &fx.ctx_ok) != VISA_OK ||
            visa_module_parse_text(fx.ctx_ok, fx.name, text, fx.text_len, VISA_PLATFORM_XE2, &fx.module) != VISA_OK ||
            visa_module_encode(fx.module, VISA_PLATFORM_XE2, &fx.object, &fx.object_len) != VISA_OK)
            return 2;
        /* the baseline runs compute what the README says they print (checked by hand) */
        alloc_state a;
        memset(&a, 0, sizeof a);
        diag_state ds = {0, 0};
        result run = run_op(&fx, OP_RUN, &a, &ds);
        CASE_BEGIN();
        CHECK(run.st == VISA_OK);
        if (!strcmp(fx.name, "saxpy")) {
            const float *y = (const float *)(run.bytes + 64);
            for (int i = 0; i < 16; i++) CHECK(y[i] == (i < 10 ? 2.5f * (float)i + 1 : 1.0f));
        } else {
            const float *c = (const float *)(run.bytes + 256 + 1024);
            for (int i = 0; i < 256; i++) CHECK(c[i] == 8.0f); /* 16 * 1 * 0.5 */
        }
        free(run.bytes);
        CASE_END("baseline run computes the README's values");
        for (int op = 0; op < OP__COUNT; op++) sweep(&fx, (enum op)op);
        visa_free(fx.ctx_ok, fx.object, fx.object_len);
        visa_module_destroy(fx.module);
        visa_ctx_destroy(fx.ctx_ok);
        free(text);
    }
    fprintf(stderr, "%d rounds, %d returned VISA_E_NOMEM\n", rounds_tried, nomem_rounds);
    printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed != 0;
}
