/* strbuf.c -- growable text (strbuf.h). */
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
