/* lex.c -- logical lines, cursor helpers, names and integer expressions of the text front end.
** A logical line is one statement: comments are cut out (and kept as trivia), backslash-newline
** continuations are joined, and each character remembers its source line and column.
*/
#include <stdio.h>
#include <string.h>

#include "text.h"

/* -- The logical line and its source positions ------------------------------------------- */
bool tp_buf_append(txt_parser *tp, const char *c, size_t n, uint32_t line, uint32_t col) {
    if (!n) return true;
    const txt_seg *last = tp->segs.len ? &tp->segs.data[tp->segs.len - 1] : NULL;
    if (!last || last->line != line || last->col + (tp->buf.len - last->off) != col) {
        txt_seg g = {tp->buf.len, line, col};
        if (!vec_push(tp->ctx, &tp->segs, g)) return false;
    }
    if (!vec_reserve(tp->ctx, &tp->buf, tp->buf.len + (uint32_t)n)) return false;
    memcpy(tp->buf.data + tp->buf.len, c, n);
    tp->buf.len += (uint32_t)n;
    return true;
}

/* The segment holding buf[i] (the last one for i past the end), NULL if none. */
static const txt_seg *seg_of(const txt_parser *tp, size_t i) {
    if (!tp->segs.len) return NULL;
    uint32_t lo = 0, hi = tp->segs.len; /* first segment with off > i */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (tp->segs.data[mid].off <= i) lo = mid + 1;
        else hi = mid;
    }
    return &tp->segs.data[lo ? lo - 1 : 0];
}

/* Characters pushed to the line, its NUL included (the NUL stays outside buf.len). */
static size_t pos_count(const txt_parser *tp) { return tp->segs.len ? (size_t)tp->buf.len + 1 : 0; }

/* -- Diagnostics ------------------------------------------------------------------------------ */
uint32_t tp_line_of(txt_parser *tp, const char *at) {
    size_t i = (size_t)(at - tp->buf.data), n = pos_count(tp);
    if (tp->buf.len == 0 || n == 0) return tp->line_no;
    if (i >= n) i = n - 1;
    return seg_of(tp, i)->line;
}

uint32_t tp_col_of(txt_parser *tp, const char *at) {
    size_t i = (size_t)(at - tp->buf.data), n = pos_count(tp);
    if (n == 0) return 1;
    bool past = i >= n;
    if (past) i = n - 1;
    const txt_seg *g = seg_of(tp, i);
    return g->col + (uint32_t)(i - g->off) + (past ? 1 : 0);
}

void tp_error(txt_parser *tp, const char *at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (tp->quiet) {
        uint32_t off = (uint32_t)(at - tp->buf.data);
        if (off >= tp->quiet_err_off || !tp->quiet_msg[0]) {
            tp->quiet_err_off = off;
            vsnprintf(tp->quiet_msg, sizeof tp->quiet_msg, fmt, ap);
        }
    } else if (!tp->failed) {
        diag_vat(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", tp_line_of(tp, at), tp_col_of(tp, at), 0,
                 fmt, ap);
    }
    tp->failed = true;
    va_end(ap);
}

/* -- Cursor ----------------------------------------------------------------------------------- */
static bool is_ident_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '@' ||
           c == '?';
}
static bool is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-'; }
static bool is_word_char(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

/* A '}' inside a scope also ends a statement: IGC's grammar lets the closing brace follow the
** last statement of a scope on the same line (CISA.y: Scope, NewlinesOpt). */
bool tp_at_end(txt_parser *tp) {
    tp_skip_ws(tp);
    return *tp->p == 0 || (*tp->p == '}' && tp->scope_marks.len);
}

bool tp_accept_word(txt_parser *tp, const char *word) {
    tp_skip_ws(tp);
    if (*tp->p != *word) return false;
    size_t n = strlen(word);
    if (strncmp(tp->p, word, n) != 0 || is_ident_char((unsigned char)tp->p[n])) return false;
    tp->p += n;
    return true;
}

bool tp_expect(txt_parser *tp, const char *lit) {
    if (tp_accept(tp, lit)) return true;
    tp_error(tp, tp->p, "expected '%s'", lit);
    return false;
}

size_t tp_ident(txt_parser *tp, const char **start) {
    tp_skip_ws(tp);
    const char *s = tp->p;
    if (*s == '%') s++;
    if (!is_ident_start((unsigned char)*s)) return 0;
    while (is_ident_char((unsigned char)*s)) s++;
    *start = tp->p;
    size_t n = (size_t)(s - tp->p);
    tp->p = s;
    return n;
}

size_t tp_word(txt_parser *tp, const char **start) {
    tp_skip_ws(tp);
    const char *s = tp->p;
    while (is_word_char((unsigned char)*s)) s++;
    *start = tp->p;
    size_t n = (size_t)(s - tp->p);
    tp->p = s;
    return n;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool tp_string(txt_parser *tp, char **out, size_t *out_len) {
    tp_skip_ws(tp);
    if (*tp->p != '"') {
        tp_error(tp, tp->p, "expected a string literal");
        return false;
    }
    const char *start = tp->p++;
    VEC(char) s = {0};
    bool ok = true;
    while (ok && *tp->p && *tp->p != '"') {
        char c = *tp->p++;
        if (c == '\\') {
            char e = *tp->p++;
            switch (e) {
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'e': c = 0x1B; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'v': c = '\v'; break;
            case '\'': case '"': case '\\': case '?': c = e; break;
            case 'x': {
                int v = hexval((unsigned char)*tp->p);
                if (v < 0) {
                    tp_error(tp, tp->p - 2, "invalid \\x escape");
                    ok = false;
                    break;
                }
                tp->p++;
                int v2 = hexval((unsigned char)*tp->p);
                if (v2 >= 0) {
                    v = v * 16 + v2;
                    tp->p++;
                }
                c = (char)v;
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    int v = e - '0';
                    for (int k = 0; k < 2 && *tp->p >= '0' && *tp->p <= '7'; k++)
                        v = v * 8 + (*tp->p++ - '0');
                    c = (char)v;
                } else {
                    tp_error(tp, tp->p - 2, "invalid escape sequence");
                    ok = false;
                }
            }
        }
        if (ok && !vec_push(tp->ctx, &s, c)) ok = false;
    }
    if (ok && *tp->p != '"') {
        tp_error(tp, start, "unterminated string literal");
        ok = false;
    }
    if (!ok) {
        vec_free(tp->ctx, &s);
        return false;
    }
    tp->p++;
    *out_len = s.len;
    *out = vx_strndup(tp->ctx, s.data ? s.data : "", s.len);
    vec_free(tp->ctx, &s);
    return *out != NULL;
}

/* -- Numbers and integer expressions ----------------------------------------------------------
** IGC's grammar precedence, lowest first: ?:  &  ^  |  == !=  < > <= >=  << >> >>>  + -  * / %
** unary (- ~ !).  (Note & ^ | bind looser than comparisons and in that unusual order.)      */
bool tp_uint_dec(txt_parser *tp, uint64_t *out) {
    tp_skip_ws(tp);
    const char *s = tp->p;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        if (hexval((unsigned char)*s) < 0) {
            tp_error(tp, tp->p, "malformed hexadecimal literal");
            return false;
        }
        int n = 0;
        while (hexval((unsigned char)*s) >= 0) {
            if (++n > 16) {
                tp_error(tp, tp->p, "hexadecimal literal does not fit in 64 bits");
                return false;
            }
            v = v * 16 + (uint64_t)hexval((unsigned char)*s++);
        }
    } else if (*s >= '0' && *s <= '9') {
        while (*s >= '0' && *s <= '9') {
            uint64_t d = (uint64_t)(*s - '0');
            if (v > (UINT64_MAX - d) / 10) {
                tp_error(tp, tp->p, "integer literal does not fit in 64 bits");
                return false;
            }
            v = v * 10 + d;
            s++;
        }
    } else {
        tp_error(tp, tp->p, "expected a number");
        return false;
    }
    if (is_word_char((unsigned char)*s)) {
        tp_error(tp, tp->p, "malformed number");
        return false;
    }
    tp->p = s;
    *out = v;
    return true;
}

static bool expr_cond(txt_parser *tp, int64_t *v, int depth);

static bool expr_primary(txt_parser *tp, int64_t *v, int depth) {
    if (depth > 64) {
        tp_error(tp, tp->p, "expression nested too deeply");
        return false;
    }
    tp_skip_ws(tp);
    const char *at = tp->p;
    if (tp_accept(tp, "(")) {
        if (!expr_cond(tp, v, depth + 1)) return false;
        return tp_expect(tp, ")");
    }
    if (tp_accept(tp, "-")) {
        if (!expr_primary(tp, v, depth + 1)) return false;
        *v = (int64_t)(0 - (uint64_t)*v);
        return true;
    }
    if (tp_accept(tp, "~")) {
        if (!expr_primary(tp, v, depth + 1)) return false;
        *v = ~*v;
        return true;
    }
    if (tp_accept(tp, "!")) {
        if (!expr_primary(tp, v, depth + 1)) return false;
        *v = !*v;
        return true;
    }
    if (tp_accept_word(tp, "%sizeof")) {
        bool paren = tp_accept(tp, "(");
        const char *name;
        size_t n = tp_ident(tp, &name);
        if (!n) {
            tp_error(tp, tp->p, "expected a variable name after %%sizeof");
            return false;
        }
        if (n == 3 && memcmp(name, "GRF", 3) == 0) {
            *v = visa_platform_grf_bytes(tp->m->platform);
        } else {
            txt_name *e = tp_name_find(tp, name, n);
            if (!e || e->kind != TN_VAR) {
                tp_error(tp, name, "%%sizeof of unknown variable '%.*s'", (int)n, name);
                return false;
            }
            *v = ir_var_bytes(tp->r, e->id);
        }
        return paren ? tp_expect(tp, ")") : true;
    }
    if (tp_accept_word(tp, "%DispatchSimd")) {
        *v = 0;
        for (uint32_t i = 0; tp->r && i < tp->r->attrs.len; i++) {
            const ir_attr *a = &tp->r->attrs.data[i];
            if (strcmp(ir_str(tp->r, a->name), "SimdSize") == 0 && !a->is_str) {
                int64_t x = 0;
                for (int k = a->size - 1; k >= 0; k--) x = (x << 8) | a->value[k];
                *v = x;
            }
        }
        return true;
    }
    uint64_t u;
    if (!tp_uint_dec(tp, &u)) return false;
    (void)at;
    *v = (int64_t)u;
    return true;
}

static bool expr_mul(txt_parser *tp, int64_t *v, int d) {
    if (!expr_primary(tp, v, d)) return false;
    for (;;) {
        tp_skip_ws(tp);
        const char *at = tp->p;
        char op = *tp->p;
        if (op != '*' && op != '/' && op != '%') return true;
        if (op == '%' && is_ident_start((unsigned char)tp->p[1])) return true;
        tp->p++;
        int64_t r;
        if (!expr_primary(tp, &r, d)) return false;
        if (op == '*') *v = (int64_t)((uint64_t)*v * (uint64_t)r);
        else if (r == 0 || (r == -1 && *v == INT64_MIN)) {
            tp_error(tp, at, "division by zero in expression");
            return false;
        } else *v = op == '/' ? *v / r : *v % r;
    }
}

static bool expr_add(txt_parser *tp, int64_t *v, int d) {
    if (!expr_mul(tp, v, d)) return false;
    for (;;) {
        tp_skip_ws(tp);
        char op = *tp->p;
        if (op != '+' && op != '-') return true;
        tp->p++;
        int64_t r;
        if (!expr_mul(tp, &r, d)) return false;
        *v = (int64_t)(op == '+' ? (uint64_t)*v + (uint64_t)r : (uint64_t)*v - (uint64_t)r);
    }
}

static bool expr_shift(txt_parser *tp, int64_t *v, int d) {
    if (!expr_add(tp, v, d)) return false;
    for (;;) {
        int kind = tp_accept(tp, ">>>") ? 3 : tp_accept(tp, "<<") ? 1 : tp_accept(tp, ">>") ? 2 : 0;
        if (!kind) return true;
        int64_t r;
        if (!expr_add(tp, &r, d)) return false;
        unsigned s = (unsigned)(r & 63);
        if (kind == 1) *v = (int64_t)((uint64_t)*v << s);
        else if (kind == 2) *v = *v < 0 ? ~(~*v >> s) : *v >> s;
        else *v = (int64_t)((uint64_t)*v >> s);
    }
}

static bool expr_rel(txt_parser *tp, int64_t *v, int d) {
    if (!expr_shift(tp, v, d)) return false;
    for (;;) {
        int kind = tp_accept(tp, "<=") ? 1 : tp_accept(tp, ">=") ? 2 : 0;
        if (!kind) {
            tp_skip_ws(tp);
            if (tp->p[0] == '<' && tp->p[1] != '<') kind = 3, tp->p++;
            else if (tp->p[0] == '>' && tp->p[1] != '>') kind = 4, tp->p++;
        }
        if (!kind) return true;
        int64_t r;
        if (!expr_shift(tp, &r, d)) return false;
        *v = kind == 1 ? *v <= r : kind == 2 ? *v >= r : kind == 3 ? *v < r : *v > r;
    }
}

static bool expr_eq(txt_parser *tp, int64_t *v, int d) {
    if (!expr_rel(tp, v, d)) return false;
    for (;;) {
        int kind = tp_accept(tp, "==") ? 1 : tp_accept(tp, "!=") ? 2 : 0;
        if (!kind) return true;
        int64_t r;
        if (!expr_rel(tp, &r, d)) return false;
        *v = kind == 1 ? *v == r : *v != r;
    }
}

/* | binds tighter than ^, which binds tighter than & (IGC's grammar). */
static bool expr_or(txt_parser *tp, int64_t *v, int d) {
    if (!expr_eq(tp, v, d)) return false;
    while (tp_accept(tp, "|")) {
        int64_t r;
        if (!expr_eq(tp, &r, d)) return false;
        *v |= r;
    }
    return true;
}

static bool expr_xor(txt_parser *tp, int64_t *v, int d) {
    if (!expr_or(tp, v, d)) return false;
    while (tp_accept(tp, "^")) {
        int64_t r;
        if (!expr_or(tp, &r, d)) return false;
        *v ^= r;
    }
    return true;
}

static bool expr_and(txt_parser *tp, int64_t *v, int d) {
    if (!expr_xor(tp, v, d)) return false;
    for (;;) {
        tp_skip_ws(tp);
        if (tp->p[0] != '&' || tp->p[1] == '&') return true;
        tp->p++;
        int64_t r;
        if (!expr_xor(tp, &r, d)) return false;
        *v &= r;
    }
}

static bool expr_cond(txt_parser *tp, int64_t *v, int d) {
    if (!expr_and(tp, v, d)) return false;
    if (!tp_accept(tp, "?")) return true;
    int64_t a, b;
    if (!expr_cond(tp, &a, d + 1) || !tp_expect(tp, ":") || !expr_cond(tp, &b, d + 1)) return false;
    *v = *v ? a : b;
    return true;
}

bool tp_int_expr(txt_parser *tp, int64_t *out) { return expr_cond(tp, out, 0); }

/* Inside <...> (regions, alias=<V, off>) a '>' closes the bracket: additive expressions only. */
bool tp_int_expr_in_angle(txt_parser *tp, int64_t *out) { return expr_add(tp, out, 0); }

/* -- Names ------------------------------------------------------------------------------------ */
static uint32_t hash_name(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

bool tp_name_add(txt_parser *tp, const char *s, size_t len, uint8_t kind, uint32_t id) {
    txt_name e;
    e.hash = hash_name(s, len);
    e.kind = kind;
    e.id = id;
    e.name = tp->name_store.len;
    if (!vec_reserve(tp->ctx, &tp->name_store, tp->name_store.len + (uint32_t)len + 1)) return false;
    memcpy(tp->name_store.data + tp->name_store.len, s, len);
    tp->name_store.len += (uint32_t)len;
    tp->name_store.data[tp->name_store.len++] = 0;
    if (!tp->buckets || tp->names.len >= 2 * (tp->bucket_mask + 1)) {
        /* twice the buckets, the chains rebuilt in entry order (what LIFO removal expects):
        ** lookups stay O(1) however many names a routine declares */
        uint32_t n = tp->buckets ? 2 * (tp->bucket_mask + 1) : 1024;
        uint32_t *nb = vx_alloc(tp->ctx, sizeof(uint32_t) * n);
        if (!nb) return false;
        if (tp->buckets) vx_free(tp->ctx, tp->buckets, sizeof(uint32_t) * (tp->bucket_mask + 1));
        tp->buckets = nb;
        tp->bucket_mask = n - 1;
        for (uint32_t i = 0; i < tp->names.len; i++) {
            txt_name *o = &tp->names.data[i];
            o->prev = nb[o->hash & tp->bucket_mask];
            nb[o->hash & tp->bucket_mask] = i + 1;
        }
    }
    uint32_t b = e.hash & tp->bucket_mask;
    e.prev = tp->buckets[b];
    if (!vec_push(tp->ctx, &tp->names, e)) return false;
    tp->buckets[b] = tp->names.len; /* index + 1 */
    return true;
}

txt_name *tp_name_find(txt_parser *tp, const char *s, size_t len) {
    uint32_t h = hash_name(s, len);
    if (!tp->buckets) return NULL;
    for (uint32_t i = tp->buckets[h & tp->bucket_mask]; i; i = tp->names.data[i - 1].prev) {
        txt_name *e = &tp->names.data[i - 1];
        const char *n = tp->name_store.data + e->name;
        if (e->hash == h && strlen(n) == len && memcmp(n, s, len) == 0) return e;
    }
    return NULL;
}

bool tp_label_ref(txt_parser *tp, const char *s, size_t len, uint8_t kind, uint32_t *id) {
    txt_name *e = tp_name_find(tp, s, len);
    if (e && e->kind == TN_LABEL) {
        *id = e->id;
        return true;
    }
    ir_routine *r = tp->r;
    ir_label lab;
    memset(&lab, 0, sizeof lab);
    lab.name = ir_string_add(tp->ctx, r, s, len);
    lab.kind = kind;
    lab.line = tp_line_of(tp, s);
    lab.col = tp_col_of(tp, s);
    if (lab.name == UINT32_MAX || !vec_push(tp->ctx, &r->labels, lab)) return false;
    *id = r->labels.len - 1;
    /* labels live at routine scope: add below any open { } scope marks is not needed since
    ** labels are looked up first by name; keep them in the table until the routine ends */
    return tp_name_add(tp, s, len, TN_LABEL, *id);
}
