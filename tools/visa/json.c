/* json.c -- the pieces of JSON the tool writes (members, base64) into growable text; strings are
** strbuf.c's (shared with tools/observe). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
