/* strbuf.h -- growable text: what the `visa` tool and visa's OpenCL ICD build their output in. */
#ifndef VISA_TOOL_STRBUF_H
#define VISA_TOOL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "visa/visa.h"

typedef struct strbuf {
    char *s; /* NUL-terminated once anything was added; NULL before */
    size_t len, cap;
    bool oom;
} strbuf;

void sb_put(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void sb_free(strbuf *b);
/* A visa_write_fn appending to the strbuf at ud (VISA_E_NOMEM once it ran out of memory). */
visa_status sb_write(void *ud, const char *data, size_t len);

/* A JSON string of s[0..n) (bytes that are not UTF-8 become U+FFFD); sb_json_cstr: NULL is null. */
void sb_json_str(strbuf *b, const char *s, size_t n);
void sb_json_cstr(strbuf *b, const char *s);
/* Whether s[0..n) is UTF-8 text. */
bool is_utf8_text(const char *s, size_t n);

#endif
