/* json.c -- the pieces of JSON the tool writes (strings, base64) into growable text (strbuf.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

void sb_json_member(strbuf *b, const char *sep, const char *key, const char *value) {
    sb_puts(b, sep);
    sb_json_cstr(b, key);
    sb_puts(b, ": ");
    sb_json_cstr(b, value);
}

void sb_json_base64(strbuf *b, const unsigned char *s, size_t n) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    sb_put(b, "\"", 1);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
        char q[4] = {digits[v >> 18], digits[v >> 12 & 63], i + 1 < n ? digits[v >> 6 & 63] : '=',
                     i + 2 < n ? digits[v & 63] : '='};
        sb_put(b, q, 4);
    }
    sb_put(b, "\"", 1);
}
