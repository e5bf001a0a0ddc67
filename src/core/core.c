/* core.c -- context, allocator, arrays, string buffers, diagnostics, the clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t vx_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* -- Context ---------------------------------------------------------------------------------- */
static void *default_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    (void)ud;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

visa_status visa_ctx_create(const visa_ctx_desc *desc, visa_ctx **out) {
    if (!out) return VISA_E_ARG;
    *out = NULL;
    visa_ctx_desc d;
    if (desc && visa__ctx_desc_read(desc, &d) != VISA_OK) return VISA_E_ARG;
    desc = desc ? &d : NULL;
    visa_realloc_fn fn = desc && desc->alloc ? desc->alloc : default_alloc;
    void *ud = desc && desc->alloc ? desc->alloc_ud : NULL;
    visa_ctx *ctx = fn(ud, NULL, 0, sizeof *ctx);
    if (!ctx) return VISA_E_NOMEM;
    memset(ctx, 0, sizeof *ctx);
    for (unsigned i = 0; i < VX_CACHE__COUNT; i++) atomic_init(&ctx->cache[i], NULL);
    ctx->alloc = fn;
    ctx->alloc_ud = ud;
    if (desc) {
        ctx->on_diag = desc->on_diag;
        ctx->diag_ud = desc->diag_ud;
        ctx->max_errors = desc->max_errors;
    }
    if (!ctx->max_errors) ctx->max_errors = 20;
    *out = ctx;
    return VISA_OK;
}

void visa_ctx_destroy(visa_ctx *ctx) {
    if (!ctx) return;
    for (unsigned i = 0; i < VX_CACHE__COUNT; i++) {
        vx_cached *c = atomic_load(&ctx->cache[i]);
        if (c) c->release(ctx, c);
    }
    ctx->alloc(ctx->alloc_ud, ctx, sizeof *ctx, 0);
}

vx_cached *vx_cache_get(visa_ctx *ctx, unsigned slot) {
    return atomic_load_explicit(&ctx->cache[slot], memory_order_acquire);
}

vx_cached *vx_cache_publish(visa_ctx *ctx, unsigned slot, vx_cached *c) {
    vx_cached *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&ctx->cache[slot], &expected, c, memory_order_acq_rel,
                                                memory_order_acquire))
        return c;
    c->release(ctx, c);
    return expected;
}

/* -- Version, status names -------------------------------------------------------------------- */
const char *visa_version(unsigned *major, unsigned *minor, unsigned *patch) {
    if (major) *major = VISA_VERSION_MAJOR;
    if (minor) *minor = VISA_VERSION_MINOR;
    if (patch) *patch = VISA_VERSION_PATCH;
    return VISA_VERSION_STRING;
}

const char *visa_status_str(visa_status s) {
    switch (s) {
    case VISA_OK: return "ok";
    case VISA_E_NOMEM: return "out of memory";
    case VISA_E_ARG: return "invalid argument";
    case VISA_E_IO: return "i/o error";
    case VISA_E_SYNTAX: return "syntax error";
    case VISA_E_BINARY: return "malformed binary";
    case VISA_E_VERIFY: return "verification failed";
    case VISA_E_UNSUPPORTED: return "unsupported";
    case VISA_E_RUNTIME: return "runtime error";
    default: return "unknown status";
    }
}

void *vx_alloc(visa_ctx *ctx, size_t size) {
    void *p = ctx->alloc(ctx->alloc_ud, NULL, 0, size ? size : 1);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void *vx_realloc(visa_ctx *ctx, void *p, size_t old_size, size_t new_size) {
    return ctx->alloc(ctx->alloc_ud, p, old_size, new_size);
}

void vx_free(visa_ctx *ctx, void *p, size_t size) {
    if (p) ctx->alloc(ctx->alloc_ud, p, size, 0);
}

void visa_free(visa_ctx *ctx, void *ptr, size_t size) {
    if (ctx) vx_free(ctx, ptr, size);
}

char *vx_strndup(visa_ctx *ctx, const char *s, size_t len) {
    char *p = ctx->alloc(ctx->alloc_ud, NULL, 0, len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = 0;
    return p;
}

static void *guard_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    vx_guard *g = ud;
    void *p = g->outer->alloc(g->outer->alloc_ud, ptr, old_size, new_size);
    if (!p && new_size) {
        g->failed = true;
        if (g->ds) diag_oom(g->ds);
    }
    return p;
}

void vx_guard_init(vx_guard *g, visa_ctx *outer, diag_sink *ds) {
    /* field by field: the caches stay with `outer` (the guard's copy has none) */
    memset(&g->ctx, 0, sizeof g->ctx);
    for (unsigned i = 0; i < VX_CACHE__COUNT; i++) atomic_init(&g->ctx.cache[i], NULL);
    g->ctx.on_diag = outer->on_diag;
    g->ctx.diag_ud = outer->diag_ud;
    g->ctx.max_errors = outer->max_errors;
    g->ctx.alloc = guard_alloc;
    g->ctx.alloc_ud = g;
    g->outer = outer;
    g->ds = ds;
    g->failed = false;
}

bool vec_grow_(visa_ctx *ctx, void **data, uint32_t *cap, size_t elem, uint32_t need) {
    if (need > (1u << 28)) return false; /* refuse absurd sizes */
    uint32_t ncap = *cap ? *cap : 8;
    while (ncap < need) ncap *= 2;
    void *p = vx_realloc(ctx, *data, (size_t)*cap * elem, (size_t)ncap * elem);
    if (!p) return false;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *data = p;
    *cap = ncap;
    return true;
}

/* -- String buffer ---------------------------------------------------------------------------- */
void sb_init(strbuf *sb, visa_ctx *ctx) {
    memset(sb, 0, sizeof *sb);
    sb->ctx = ctx;
}

void sb_free(strbuf *sb) {
    vx_free(sb->ctx, sb->data, sb->cap);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

bool sb_grow(strbuf *sb, size_t extra) {
    if (sb->oom) return false;
    if (sb->len + extra + 1 <= sb->cap) return true;
    size_t ncap = sb->cap ? sb->cap : 256;
    while (ncap < sb->len + extra + 1) ncap *= 2;
    char *p = vx_realloc(sb->ctx, sb->data, sb->cap, ncap);
    if (!p) {
        sb->oom = true;
        return false;
    }
    sb->data = p;
    sb->cap = ncap;
    return true;
}

/* Inline, so that each caller divides by its constant base (a division by a variable is slow). */
static inline void sb_put_radix(strbuf *sb, uint64_t v, unsigned base, const char *digits) {
    char tmp[24];
    size_t n = sizeof tmp;
    do {
        tmp[--n] = digits[v % base];
        v /= base;
    } while (v);
    sb_putn(sb, tmp + n, sizeof tmp - n);
}

void sb_putu(strbuf *sb, uint64_t v) {
    if (v < 10) sb_putc(sb, (char)('0' + v)); /* most of what the printer writes */
    else sb_put_radix(sb, v, 10, "0123456789");
}

void sb_putx(strbuf *sb, uint64_t v) { sb_put_radix(sb, v, 16, "0123456789abcdef"); }

/* Format fmt into sb when it uses only the directives formatted here: %s %c %d %u %x %X, with l or
** ll, and %%; false (sb partly written, ap partly read) at any other (flags, widths, precisions,
** other conversions), for vsnprintf.  The printer makes hundreds of thousands of these calls, and
** vsnprintf costs more than what it formats. */
static bool sb_vformat_simple(strbuf *sb, const char *fmt, va_list ap) {
    for (const char *f = fmt;;) {
        const char *lit = f;
        while (*f && *f != '%') f++;
        if (f > lit) sb_putn(sb, lit, (size_t)(f - lit));
        if (!*f) return true;
        f++;
        int lng = 0;
        while (*f == 'l' && lng < 2) lng++, f++;
        char c = *f++;
        if (c == '%' && !lng) {
            sb_putc(sb, '%');
        } else if (c == 's' && !lng) {
            const char *str = va_arg(ap, const char *);
            sb_puts(sb, str ? str : "(null)");
        } else if (c == 'c' && !lng) {
            sb_putc(sb, (char)va_arg(ap, int));
        } else if (c == 'd') {
            int64_t v = lng ? (lng == 1 ? va_arg(ap, long) : va_arg(ap, long long)) : va_arg(ap, int);
            if (v < 0) sb_putc(sb, '-');
            sb_put_radix(sb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10, "0123456789");
        } else if (c == 'u' || c == 'x' || c == 'X') {
            uint64_t v =
                lng ? (lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned long long)) : va_arg(ap, unsigned);
            if (c == 'u') sb_put_radix(sb, v, 10, "0123456789");
            else sb_put_radix(sb, v, 16, c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef");
        } else {
            return false;
        }
    }
}

void sb_printf(strbuf *sb, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t start = sb->len;
    bool done = sb_vformat_simple(sb, fmt, ap);
    va_end(ap);
    if (!done) {
        sb->len = start;
        char tmp[256];
        va_list ap3;
        va_copy(ap3, ap2);
        int n = vsnprintf(tmp, sizeof tmp, fmt, ap2);
        if (n >= 0 && (size_t)n < sizeof tmp) {
            sb_putn(sb, tmp, (size_t)n);
        } else if (n >= 0 && sb_reserve(sb, (size_t)n)) {
            vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap3);
            sb->len += (size_t)n;
        }
        va_end(ap3);
    }
    va_end(ap2);
}

void sb_pad_to(strbuf *sb, size_t line_start, size_t column) {
    size_t have = sb->len - line_start;
    if (have >= column || !sb_reserve(sb, column - have)) return;
    memset(sb->data + sb->len, ' ', column - have);
    sb->len += column - have;
}

const char *sb_cstr(strbuf *sb) {
    if (!sb_reserve(sb, 0)) return "";
    sb->data[sb->len] = 0;
    return sb->data;
}

/* -- Diagnostics ------------------------------------------------------------------------------ */
void diag_init(diag_sink *ds, visa_ctx *ctx, const char *file, const char *text, size_t len) {
    memset(ds, 0, sizeof *ds);
    ds->ctx = ctx;
    ds->file = file ? file : "<input>";
    ds->text = text;
    ds->text_len = len;
}

void diag_vat(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, uint64_t offset,
              const char *fmt, va_list ap) {
    diag_vat_src(ds, sev, code, line, col, offset, NULL, 0, fmt, ap);
}

void diag_vat_src(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, uint64_t offset,
                  const char *src_file, uint32_t src_line, const char *fmt, va_list ap) {
    if (sev == VISA_SEV_ERROR) ds->errors++;
    else if (sev == VISA_SEV_WARNING) ds->warnings++;
    if (ds->suppressed) return;
    if (sev == VISA_SEV_ERROR && ds->errors > ds->ctx->max_errors) {
        ds->suppressed = true;
        return;
    }
    if (!ds->ctx->on_diag) return;
    char msg[768];
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    /* the program's source position ends the message, so every reader of the text sees it */
    if (src_line && len >= 0 && (size_t)len < sizeof msg) {
        if (src_file) snprintf(msg + len, sizeof msg - (size_t)len, " at %s:%u", src_file, src_line);
        else snprintf(msg + len, sizeof msg - (size_t)len, " at source line %u", src_line);
    }
    visa_diag d;
    memset(&d, 0, sizeof d);
    d.severity = sev;
    d.code = code ? code : "E";
    d.file = ds->file;
    d.line = line;
    d.col = col;
    d.offset = offset;
    d.message = msg;
    d.src_file = src_line ? src_file : NULL;
    d.src_line = src_line;
    if (ds->text && line > 0) {
        /* find the line in the source */
        const char *p = ds->text, *end = ds->text + ds->text_len;
        uint32_t l = 1;
        while (p < end && l < line) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl) {
                p = end;
                break;
            }
            p = nl + 1;
            l++;
        }
        if (l == line) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (n && p[n - 1] == '\r') n--;
            d.source_line = p;
            d.source_line_len = n;
        }
    }
    ds->ctx->on_diag(ds->ctx->diag_ud, &d);
}

void diag_oom(diag_sink *ds) {
    if (ds->oom) return;
    ds->oom = true;
    ds->errors++;
    if (ds->ctx->on_diag) {
        visa_diag d;
        memset(&d, 0, sizeof d);
        d.severity = VISA_SEV_ERROR;
        d.code = "E-NOMEM";
        d.file = ds->file;
        d.offset = VISA_DIAG_NO_OFFSET;
        d.message = "out of memory";
        ds->ctx->on_diag(ds->ctx->diag_ud, &d);
    }
    ds->suppressed = true;
}

void diag_at(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vat(ds, sev, code, line, col, 0, fmt, ap);
    va_end(ap);
}

void diag_at_offset(diag_sink *ds, visa_severity sev, const char *code, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vat(ds, sev, code, 0, 0, offset, fmt, ap);
    va_end(ap);
}
