/* strbuf.c -- growable text and JSON strings in it (strbuf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void sb_put(strbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void sb_puts(strbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
    char small[256];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        sb_put(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = true;
        return;
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    sb_put(b, big, (size_t)n);
    free(big);
}

void sb_printf(strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_free(strbuf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}

visa_status sb_write(void *ud, const char *data, size_t len) {
    strbuf *b = ud;
    sb_put(b, data, len);
    return b->oom ? VISA_E_NOMEM : VISA_OK;
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!len || len > n) return 0;
    /* the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF */
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80, hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return len;
}

bool is_utf8_text(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        if (!k) return false;
        i += k;
    }
    return true;
}

void sb_json_str(strbuf *b, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    sb_put(b, "\"", 1);
    size_t run = 0; /* bytes copied as they are, written in one go */
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = utf8_seq(p + i, n - i);
        if (k && c != '"' && c != '\\' && c >= 0x20 && c != 0x7f) {
            i += k;
            run += k;
            continue;
        }
        sb_put(b, s + i - run, run);
        run = 0;
        if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
        else if (c == '\n' || c == '\t' || c == '\r') sb_printf(b, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
        else if (k) sb_printf(b, "\\u%04x", c); /* another control character */
        else sb_puts(b, "\\ufffd"); /* not UTF-8 */
        i++;
    }
    sb_put(b, s + n - run, run);
    sb_put(b, "\"", 1);
}

void sb_json_cstr(strbuf *b, const char *s) {
    if (s) sb_json_str(b, s, strlen(s));
    else sb_puts(b, "null");
}
