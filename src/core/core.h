/* core.h -- context, allocation, growable arrays, string buffers and diagnostics shared by all
** parts of the library.  Nothing here is global: everything hangs off a visa_ctx.
*/
#ifndef VISA_CORE_H
#define VISA_CORE_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "visa/visa.h"

/* What a part derives once and keeps for later calls: from the static ISA tables once per context
** (the text parser's mnemonic index), or from a module once per module (the emulator's prepared
** kernels, src/emu/prepare.c, on visa_module.prepared): built on first use, published with a
** compare-and-swap (a context or module may be shared by threads), released with its owner. */
typedef struct vx_cached vx_cached;
struct vx_cached {
    void (*release)(visa_ctx *ctx, vx_cached *self);
};
enum { VX_CACHE_MNEMONICS, VX_CACHE__COUNT };

struct visa_ctx {
    visa_realloc_fn alloc;
    void *alloc_ud;
    visa_diag_fn on_diag;
    void *diag_ud;
    uint32_t max_errors;
    vx_cached *_Atomic cache[VX_CACHE__COUNT];
};

/* The object in `slot`, or NULL if none was published yet. */
vx_cached *vx_cache_get(visa_ctx *ctx, unsigned slot);
/* Publish `c` in `slot` and return it; if another thread published first, release `c` and
** return that one. */
vx_cached *vx_cache_publish(visa_ctx *ctx, unsigned slot, vx_cached *c);

/* CLOCK_MONOTONIC in nanoseconds (the emulator's deadlines and per-op times). */
uint64_t vx_now_ns(void);
void *vx_alloc(visa_ctx *ctx, size_t size); /* zeroed; NULL on failure */
void *vx_realloc(visa_ctx *ctx, void *p, size_t old_size, size_t new_size);
void vx_free(visa_ctx *ctx, void *p, size_t size);
char *vx_strndup(visa_ctx *ctx, const char *s, size_t len); /* NUL-terminated copy */

/* An allocation guard: a context that allocates through `outer`'s allocator and, when an
** allocation fails, sets `failed` and reports "out of memory" on `ds` (when not NULL).  A pass
** (parse, decode, verify) allocates through guard.ctx, so that no failure goes unnoticed even
** where a call's result only steers a local fallback; the pass ends with VISA_E_NOMEM when
** `failed` is set.  Objects built through it belong to `outer` (same allocator): set their ctx
** to outer.  Single-threaded: one guard per thread. */
typedef struct diag_sink diag_sink;
typedef struct vx_guard {
    visa_ctx ctx;
    visa_ctx *outer;
    diag_sink *ds;
    bool failed;
} vx_guard;
void vx_guard_init(vx_guard *g, visa_ctx *outer, diag_sink *ds);

/* -- Options structs (opts.c): the caller's struct_size says which fields it has ----------- */
/* True when the caller's struct covers `field` whole (visa.h, "Options structs grow"). */
#define VX_OPT_HAS(opts, field) \
    ((size_t)((const char *)&(opts)->field - (const char *)(opts)) + sizeof(opts)->field <= (opts)->struct_size)
/* Copy the caller's struct into a complete one (fields it lacks are 0, their default);
** VISA_E_ARG when struct_size is below the struct's first version. */
visa_status visa__ctx_desc_read(const visa_ctx_desc *in, visa_ctx_desc *out);
visa_status visa__print_opts_read(const visa_print_opts *in, visa_print_opts *out);
visa_status visa__verify_opts_read(const visa_verify_opts *in, visa_verify_opts *out);
visa_status visa__run_opts_read(const visa_run_opts *in, visa_run_opts *out);
visa_status visa__observer_read(const visa_observer *in, visa_observer *out);
visa_status visa__region_opts_read(const visa_region_opts *in, visa_region_opts *out);
visa_status visa__cl_launch_read(const visa_cl_launch *in, visa_cl_launch *out);

/* -- Growable array: VEC(T) v; vec_push(ctx, &v, x) --------------------------------------- */
#define VEC(T)             \
    struct {               \
        T *data;           \
        uint32_t len, cap; \
    }
bool vec_grow_(visa_ctx *ctx, void **data, uint32_t *cap, size_t elem, uint32_t need);
#define vec_reserve(ctx, v, n) \
    ((n) <= (v)->cap || vec_grow_((ctx), (void **)&(v)->data, &(v)->cap, sizeof *(v)->data, (n)))
#define vec_push(ctx, v, x) (vec_reserve(ctx, v, (v)->len + 1) ? ((v)->data[(v)->len++] = (x), true) : false)
#define vec_free(ctx, v)                                                 \
    do {                                                                 \
        vx_free((ctx), (v)->data, (size_t)(v)->cap * sizeof *(v)->data); \
        (v)->data = NULL;                                                \
        (v)->len = (v)->cap = 0;                                         \
    } while (0)

/* -- String buffer ---------------------------------------------------------------------------- */
typedef struct strbuf {
    visa_ctx *ctx;
    char *data;
    size_t len, cap;
    bool oom;
} strbuf;

/* FNV-1a of s[0..n) (vx_hash_str: of the NUL-terminated s): the name tables' hash. */
static inline uint32_t vx_hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}
static inline uint32_t vx_hash_str(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

void sb_init(strbuf *sb, visa_ctx *ctx);
void sb_free(strbuf *sb);
/* Room for extra more bytes and a NUL (growing the buffer); false when out of memory. */
bool sb_grow(strbuf *sb, size_t extra);
/* The appends are inline: the printer makes several per operand, and the room is almost always
** there already (one compare), so a call each would cost more than the copy. */
static inline bool sb_reserve(strbuf *sb, size_t extra) {
    return (!sb->oom && sb->len + extra + 1 <= sb->cap) || sb_grow(sb, extra);
}
static inline void sb_putn(strbuf *sb, const char *s, size_t n) {
    if (!sb_reserve(sb, n)) return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
}
static inline void sb_puts(strbuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }
static inline void sb_putc(strbuf *sb, char c) {
    if (!sb_reserve(sb, 1)) return;
    sb->data[sb->len++] = c;
}
void sb_putu(strbuf *sb, uint64_t v); /* decimal, as %llu (the printer's hot path avoids printf) */
void sb_putx(strbuf *sb, uint64_t v); /* lower-case hex without 0x, as %llx */
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_pad_to(strbuf *sb, size_t line_start, size_t column); /* pad the current line */
const char *sb_cstr(strbuf *sb); /* NUL-terminated view */

/* -- Diagnostics ------------------------------------------------------------------------------ */
typedef struct diag_sink {
    visa_ctx *ctx;
    const char *file;
    const char *text; /* text input (for source lines) or NULL */
    size_t text_len;
    uint32_t errors, warnings;
    bool suppressed; /* max_errors reached */
    bool oom; /* an allocation failed: "out of memory" was reported */
} diag_sink;

void diag_init(diag_sink *ds, visa_ctx *ctx, const char *file, const char *text, size_t len);
/* Report at a text position (line/col 1-based). */
void diag_at(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Report at a binary byte offset. */
void diag_at_offset(diag_sink *ds, visa_severity sev, const char *code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Report "out of memory" (once, whatever max_errors says) and drop later diagnostics: what
** follows a failed allocation (an undefined name, a lost label) would only mislead. */
void diag_oom(diag_sink *ds);
void diag_vat(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, uint64_t offset,
              const char *fmt, va_list ap);
/* diag_vat with the program's source position (visa_diag.src_file, src_line; src_line 0: none),
** which the message then ends with: " at FILE:LINE" (" at source line LINE" without a file). */
void diag_vat_src(diag_sink *ds, visa_severity sev, const char *code, uint32_t line, uint32_t col, uint64_t offset,
                  const char *src_file, uint32_t src_line, const char *fmt, va_list ap);

#endif
