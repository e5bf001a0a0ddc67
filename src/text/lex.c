/* lex.c -- logical lines, cursor helpers, names and integer expressions of the text front end.
** A logical line is one statement: comments are cut out (and kept as trivia), backslash-newline
** continuations are joined, and each character remembers its source line and column.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* -- Character classes -------------------------------------------------------------------------
** One table lookup instead of a chain of compares: the scan of a line and the identifier and
** number readers classify every character of the input. */
enum {
    CC_PLAIN = 1, /* copied into the logical line a run at a time (see plain_char) */
    CC_RUN = 2, /* plain, or a tab */
    CC_IDENT_START = 4, /* [A-Za-z_$@?] */
    CC_IDENT = 8, /* [A-Za-z0-9_$@?-] */
    CC_WORD = 16, /* [A-Za-z0-9_] */
};
#define CC_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define CC_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define CC_PLAIN_OF(c) ((c) >= 0x20 && (c) < 0x7F && (c) != '/' && (c) != '\\' && (c) != '"')
#define CC_START_OF(c) (CC_ALPHA(c) || (c) == '_' || (c) == '$' || (c) == '@' || (c) == '?')
#define CC_OF(c)                                                                                            \
    ((CC_PLAIN_OF(c) ? CC_PLAIN : 0) | (CC_PLAIN_OF(c) || (c) == '\t' ? CC_RUN : 0) |                       \
     (CC_START_OF(c) ? CC_IDENT_START : 0) | (CC_START_OF(c) || CC_DIGIT(c) || (c) == '-' ? CC_IDENT : 0) | \
     (CC_ALPHA(c) || CC_DIGIT(c) || (c) == '_' ? CC_WORD : 0))
#define CC_4(c) CC_OF(c), CC_OF(c + 1), CC_OF(c + 2), CC_OF(c + 3)
#define CC_16(c) CC_4(c), CC_4(c + 4), CC_4(c + 8), CC_4(c + 12)
#define CC_64(c) CC_16(c), CC_16(c + 16), CC_16(c + 32), CC_16(c + 48)
static const uint8_t char_class[256] = {CC_64(0), CC_64(64), CC_64(128), CC_64(192)};

static inline bool has_class(int c, unsigned cls) { return char_class[(unsigned char)c] & cls; }

/* -- An enum's rows ---------------------------------------------------------------------------- */
void txt_enum_load(txt_enum *e, isa_enum_id en) {
    e->n = 0;
    uint32_t v;
    const char *t;
    unsigned i = 0;
    for (; isa_enum_at(en, i, &v, &t); i++) {
        if (i == TXT_ENUM_ROWS || strlen(t) > UINT8_MAX) return; /* n stays 0: the tables */
        e->text[i] = t, e->len[i] = (uint8_t)strlen(t), e->value[i] = v;
    }
    e->n = i;
}

bool txt_enum_parse(const txt_enum *e, isa_enum_id en, const char *s, size_t len, uint32_t *value) {
    if (!e->n) return isa_enum_parse(en, s, len, value);
    for (unsigned i = 0; i < e->n; i++)
        if (e->len[i] == len && !memcmp(e->text[i], s, len)) {
            *value = e->value[i];
            return true;
        }
    return false;
}

const char *txt_enum_text(const txt_enum *e, isa_enum_id en, uint32_t value) {
    if (!e->n) return isa_enum_text(en, value);
    for (unsigned i = 0; i < e->n; i++)
        if (e->value[i] == value) return e->text[i];
    return NULL;
}

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
    if (tp->segs.len <= 1) return tp->segs.len ? tp->segs.data : NULL; /* most lines */
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

/* -- Reading a logical line ------------------------------------------------------------------- */
#define MAX_LINE_CHARS (1u << 20)

/* Comments IGC's printer generates (they are printed again, so not kept as trivia). */
static bool is_generated_comment(const char *c, size_t n, bool eol) {
    if (eol && n > 20 && memcmp(c, "/// Original Name: \"", 20) == 0) return true; /* .function */
    if (eol) {
        if (n > 5 && memcmp(c, "/// $", 5) == 0) {
            for (size_t i = 5; i < n; i++)
                if (c[i] < '0' || c[i] > '9') return false;
            return true;
        }
        return false;
    }
    if (n == 29 && memcmp(c, "/// VISA Predefined Variables", 29) == 0) return true;
    if (n > 9 && memcmp(c, "// .decl ", 9) == 0) {
        /* "// .decl V<n> v_type=G v_name=..." or "// .decl T<n> v_type=T v_name=..." */
        const char *p = c + 9;
        const char *end = c + n;
        char k = *p++;
        if (k != 'V' && k != 'T') return false;
        if (p >= end || *p < '0' || *p > '9') return false;
        while (p < end && *p >= '0' && *p <= '9') p++;
        const char *want = k == 'V' ? " v_type=G v_name=" : " v_type=T v_name=";
        return (size_t)(end - p) > strlen(want) && memcmp(p, want, strlen(want)) == 0;
    }
    return false;
}

static int32_t add_comment(txt_parser *tp, const char *c, size_t n, size_t id_len, bool blank_before) {
    ir_comment cm;
    cm.text = vx_strndup(tp->ctx, c, n);
    cm.len = (uint32_t)n;
    cm.id_len = (uint32_t)id_len;
    cm.blank_before = blank_before;
    if (!cm.text || !vec_push(tp->ctx, &tp->m->comments, cm)) {
        vx_free(tp->ctx, cm.text, n + 1);
        return -1;
    }
    return (int32_t)tp->m->comments.len - 1;
}

/* One character of the logical line; false when the line is too long or memory ran out. */
static bool buf_push(txt_parser *tp, char c, uint32_t line, uint32_t col) {
    if (tp->buf.len >= MAX_LINE_CHARS) return false;
    return tp_buf_append(tp, &c, 1, line, col);
}

/* Characters copied as they are, a run at a time: all but comment starts, continuations,
** strings, CRs and control or non-ASCII bytes (the cases tp_next_line looks at one by one). */
static bool plain_char(unsigned char c) { return has_class(c, CC_PLAIN); }

/* Comments, by index into the module's comments. */
typedef VEC(uint32_t) comment_list;

/* Where the scan of one logical line stands, and what it found so far.  (The own-line comments
** are a list beside it, not in it: so that the scan's fields can stay in registers.) */
typedef struct line_scan {
    size_t i; /* next source byte */
    size_t line_start; /* first byte of the current source line */
    uint32_t line, col; /* source line; column of the character last looked at */
    bool content; /* a character of a statement was seen (not only blanks and comments) */
    bool blank; /* nothing at all: no content and no comment */
    bool too_long; /* longer than MAX_LINE_CHARS (or out of memory) */
    int32_t eol; /* the end-of-line comment, -1 if none */
    comment_list *own; /* comments before any content: own-line comments */
} line_scan;

/* Whether any of the 8 bytes at s is not plain (plain_char; a tab counts as not plain here). */
static bool any_not_plain(const char *s) {
    const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
    uint64_t x;
    memcpy(&x, s, 8);
#define ANY_ZERO(v) (((v)-ones) & ~(v)&highs)
    uint64_t below = (x - ones * 0x20) & ~x & highs; /* a byte below 0x20 */
    uint64_t above = ((x + ones * (0x7F - 0x7E)) | x) & highs; /* a byte above 0x7E */
    bool special = ANY_ZERO(x ^ (ones * '/')) || ANY_ZERO(x ^ (ones * '\\')) || ANY_ZERO(x ^ (ones * '"'));
#undef ANY_ZERO
    return below || above || special;
}

static void scan_plain_run(txt_parser *tp, line_scan *ls) {
    const char *s = tp->src;
    size_t i = ls->i, j = i;
    /* blanks until the first content, then a tighter loop: 8 bytes at a time, then one */
    while (!ls->content && j < tp->len && (s[j] == ' ' || s[j] == '\t')) j++;
    if (j < tp->len && plain_char((unsigned char)s[j]) && s[j] != ' ') ls->content = true;
    while (j + 8 <= tp->len && !any_not_plain(s + j)) j += 8;
    while (j < tp->len && has_class(s[j], CC_RUN)) j++;
    size_t n = j - i;
    if (tp->buf.len + n > MAX_LINE_CHARS) {
        n = MAX_LINE_CHARS - tp->buf.len;
        ls->too_long = true;
    }
    if (!tp_buf_append(tp, s + i, n, ls->line, ls->col)) ls->too_long = true;
    if (ls->content) ls->blank = false;
    ls->col = (uint32_t)(j - 1 - ls->line_start) + 1;
    ls->i = j;
}

/* A comment kept as trivia (k: its index, -1 when it could not be stored). */
static void keep_comment(txt_parser *tp, line_scan *ls, int32_t k) {
    if (k < 0) return;
    if (ls->content) ls->eol = k;
    else (void)vec_push(tp->ctx, ls->own, (uint32_t)k);
}

/* A // comment: it runs to the end of the source line. */
static void scan_line_comment(txt_parser *tp, line_scan *ls) {
    const char *s = tp->src;
    size_t i = ls->i, j = i;
    while (j < tp->len && s[j] != '\n') j++;
    size_t n = j;
    while (n > i && s[n - 1] == '\r') n--; /* CRLF, and CRs before the end of input */
    /* an end-of-line comment ends at its last non-blank: the printer may put text after
    ** it (IGC's indent of a first .function on the last header line), which would
    ** otherwise join the comment and grow it on every print (fuzz_parse) */
    if (ls->content)
        while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    size_t cs = i;
    if (ls->content) {
        /* "/// $N" is generated; anything after it on the line is the user's comment */
        size_t k = i;
        if (n - i > 5 && memcmp(s + i, "/// $", 5) == 0) {
            k = i + 5;
            while (k < n && s[k] >= '0' && s[k] <= '9') k++;
            if (k > i + 5 && (k == n || s[k] == ' ' || s[k] == '\t')) {
                while (k < n && (s[k] == ' ' || s[k] == '\t')) k++;
                cs = k;
            }
        }
    } else {
        /* own-line comment: keep its indentation */
        while (cs > ls->line_start && (s[cs - 1] == ' ' || s[cs - 1] == '\t')) cs--;
    }
    bool gen = cs == n || is_generated_comment(s + i, n - i, ls->content);
    if (!ls->content && n - i == 29 && memcmp(s + i, "/// VISA Predefined Variables", 29) == 0)
        tp->saw_predef_block = true;
    if (gen && !ls->content && n - i > 10 && memcmp(s + i, "// .decl V", 10) == 0) {
        /* how many predefined variables the block lists tells IGC 1.0 (21) from 2.x */
        unsigned v = 0;
        for (size_t k = i + 10; k < n && s[k] >= '0' && s[k] <= '9' && v < 1000; k++)
            v = v * 10 + (unsigned)(s[k] - '0');
        if (v + 1 > tp->predef_vars_listed) tp->predef_vars_listed = v + 1;
    }
    if (!gen) {
        /* an end-of-line comment is kept whole: where no id is printed before it (a label,
        ** a declaration) its "/// $N " prefix is what makes it a comment (fuzz_parse) */
        size_t from = ls->content ? i : cs;
        keep_comment(tp, ls, add_comment(tp, s + from, n - from, cs > i ? cs - i : 0, false));
    }
    ls->blank = false;
    ls->i = j;
}

/* A block comment, which may span source lines; false when it is not terminated (reported). */
static bool scan_block_comment(txt_parser *tp, line_scan *ls) {
    const char *s = tp->src;
    size_t i = ls->i, j = i + 2;
    uint32_t l2 = ls->line;
    size_t ls2 = ls->line_start;
    while (j + 1 < tp->len && !(s[j] == '*' && s[j + 1] == '/')) {
        if (s[j] == '\n') {
            l2++;
            ls2 = j + 1;
        }
        j++;
    }
    if (j + 1 >= tp->len) {
        diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", ls->line, ls->col, "unterminated comment");
        tp->failed = true;
        ls->i = tp->len;
        return false;
    }
    j += 2;
    size_t cs = i;
    if (!ls->content)
        while (cs > ls->line_start && (s[cs - 1] == ' ' || s[cs - 1] == '\t')) cs--;
    keep_comment(tp, ls, add_comment(tp, s + cs, j - cs, 0, false));
    ls->blank = false;
    /* a block comment separates tokens like a space */
    if (!buf_push(tp, ' ', ls->line, ls->col)) ls->too_long = true;
    ls->line = l2;
    ls->line_start = ls2;
    ls->i = j;
    return true;
}

/* A string literal, copied verbatim (it may contain // or slash-star). */
static void scan_string(txt_parser *tp, line_scan *ls) {
    const char *s = tp->src;
    size_t j = ls->i;
    uint32_t line = ls->line;
    if (!buf_push(tp, '"', line, ls->col)) ls->too_long = true;
    j++;
    while (j < tp->len && s[j] != '"' && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < tp->len && s[j + 1] != '\n') {
            if (!buf_push(tp, s[j], line, (uint32_t)(j - ls->line_start) + 1)) ls->too_long = true;
            j++;
        }
        if (!buf_push(tp, s[j], line, (uint32_t)(j - ls->line_start) + 1)) ls->too_long = true;
        j++;
    }
    if (j < tp->len && s[j] == '"') {
        if (!buf_push(tp, '"', line, (uint32_t)(j - ls->line_start) + 1)) ls->too_long = true;
        j++;
    }
    ls->content = true;
    ls->blank = false;
    ls->i = j;
}

/* Any other character: a control or non-ASCII byte is an error and reads as a blank. */
static void scan_char(txt_parser *tp, line_scan *ls, char c) {
    if (((unsigned char)c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
        if (!tp->failed)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", ls->line, ls->col, "invalid character 0x%02x in input",
                    (unsigned char)c);
        tp->failed = true;
        c = ' ';
    } else if ((unsigned char)c >= 0x80) {
        if (!tp->failed)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", ls->line, ls->col,
                    "invalid byte 0x%02x outside a string or comment", (unsigned char)c);
        tp->failed = true;
        c = ' ';
    }
    if (c != ' ' && c != '\t') {
        ls->content = true;
        ls->blank = false;
    }
    if (!buf_push(tp, c, ls->line, ls->col)) ls->too_long = true;
    ls->i++;
}

/* The line is read: NUL-terminate it and hand its comments on. */
static void end_line(txt_parser *tp, line_scan *ls) {
    if (ls->i < tp->len) ls->i++; /* the newline */
    tp->pos = ls->i;
    tp->line_no = ls->line + 1;
    if (ls->too_long) {
        if (!tp->failed)
            diag_at(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", ls->line, 1, "statement longer than %u characters",
                    MAX_LINE_CHARS);
        tp->failed = true;
        tp->buf.len = tp->segs.len = 0;
    }
    bool nul = buf_push(tp, 0, ls->line, ls->col + 1);
    if (!nul) {
        tp->buf.len = tp->segs.len = 0;
        nul = buf_push(tp, 0, ls->line, 1);
    }
    if (nul) tp->buf.len--; /* keep the NUL outside len */
    else tp->failed = true; /* out of memory: the guard reports it */
    tp->p = nul ? tp->buf.data : "";
    /* own-line comments: pending for the next statement, or standalone */
    for (uint32_t k = 0; k < ls->own->len; k++) {
        if (tp->blank_pending && k == 0) tp->m->comments.data[ls->own->data[k]].blank_before = 1;
        (void)vec_push(tp->ctx, &tp->pending_comments, ls->own->data[k]);
    }
    if (ls->own->len) tp->blank_pending = false;
    vec_free(tp->ctx, ls->own);
    tp->pending_eol = ls->eol;
}

bool tp_next_line(txt_parser *tp, bool *blank) {
    tp->buf.len = tp->segs.len = 0;
    tp->failed = false;
    *blank = true;
    if (tp->pos >= tp->len) return false;
    const char *s = tp->src;
    comment_list own = {0};
    line_scan ls = {
        .i = tp->pos, .line_start = tp->pos, .line = tp->line_no, .col = 1, .blank = true, .eol = -1, .own = &own};
    while (ls.i < tp->len && s[ls.i] != '\n') {
        size_t i = ls.i;
        char c = s[i];
        ls.col = (uint32_t)(i - ls.line_start) + 1;
        if (plain_char((unsigned char)c) || c == '\t') {
            scan_plain_run(tp, &ls);
        } else if (c == '/' && i + 1 < tp->len && s[i + 1] == '/') {
            scan_line_comment(tp, &ls);
            break;
        } else if (c == '/' && i + 1 < tp->len && s[i + 1] == '*') {
            if (!scan_block_comment(tp, &ls)) break;
        } else if (c == '\\' && i + 1 < tp->len &&
                   (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < tp->len && s[i + 2] == '\n'))) {
            /* a continuation: the next source line goes on with this logical line */
            ls.i += s[i + 1] == '\n' ? 2 : 3;
            ls.line++;
            ls.line_start = ls.i;
        } else if (c == '"') {
            scan_string(tp, &ls);
        } else if (c == '\r' && i + 1 < tp->len && s[i + 1] == '\n') {
            ls.i++;
        } else {
            scan_char(tp, &ls, c);
        }
    }
    end_line(tp, &ls);
    *blank = ls.blank;
    return true;
}

/* -- Diagnostics ------------------------------------------------------------------------------ */
void tp_pos_of(txt_parser *tp, const char *at, uint32_t *line, uint32_t *col) {
    size_t i = (size_t)(at - tp->buf.data), n = pos_count(tp);
    if (n == 0) {
        *line = tp->line_no;
        *col = 1;
        return;
    }
    bool past = i >= n;
    if (past) i = n - 1;
    const txt_seg *g = seg_of(tp, i);
    *line = tp->buf.len == 0 ? tp->line_no : g->line;
    *col = g->col + (uint32_t)(i - g->off) + (past ? 1 : 0);
}

uint32_t tp_line_of(txt_parser *tp, const char *at) {
    uint32_t line, col;
    tp_pos_of(tp, at, &line, &col);
    return line;
}

uint32_t tp_col_of(txt_parser *tp, const char *at) {
    uint32_t line, col;
    tp_pos_of(tp, at, &line, &col);
    return col;
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
        diag_vat(&tp->ds, VISA_SEV_ERROR, "E-SYNTAX", tp_line_of(tp, at), tp_col_of(tp, at), 0, fmt, ap);
    }
    tp->failed = true;
    va_end(ap);
}

/* -- Cursor ----------------------------------------------------------------------------------- */
static bool is_ident_start(int c) { return has_class(c, CC_IDENT_START); }
static bool is_ident_char(int c) { return has_class(c, CC_IDENT); }
static bool is_word_char(int c) { return has_class(c, CC_WORD); }

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
            case '\'':
            case '"':
            case '\\':
            case '?': c = e; break;
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
                    for (int k = 0; k < 2 && *tp->p >= '0' && *tp->p <= '7'; k++) v = v * 8 + (*tp->p++ - '0');
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
            if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10)) {
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

/* Whether q can follow a number that is an expression by itself (in_angle: tp_int_expr_in_angle's,
** where '>' closes the angle).  The list is of what ends an expression, not of the grammar's
** operators: a character missing here only sends the text through the descent, never changes it. */
static bool ends_lone_number(const char *q, bool in_angle) {
    char c = *q;
    if (c == 0 || c == ',' || c == ')' || c == ';' || c == ']' || c == ':' || c == '\n') return true;
    if (c == '>') return in_angle;
    if (c == '%') return is_ident_start((unsigned char)q[1]);
    return is_ident_start((unsigned char)c);
}

/* Most expressions are one number: read it, and when what follows ends an expression, that is the
** value, as the descent through every precedence level would find (it too stops after the blanks
** that follow).  Otherwise the descent starts over.  Returns 1 done, 0 failed (reported), -1 not
** a lone number. */
static int lone_number(txt_parser *tp, int64_t *out, bool in_angle) {
    tp_skip_ws(tp);
    const char *start = tp->p;
    if (*start < '0' || *start > '9') return -1;
    if (ends_lone_number(start + 1, in_angle) && start[1] != ':' && !is_ident_start((unsigned char)start[1])) {
        *out = *start - '0'; /* one digit before a separator: a region's, an operand's offsets */
        tp->p++;
        return 1;
    }
    uint64_t u;
    if (!tp_uint_dec(tp, &u)) return 0;
    tp_skip_ws(tp);
    if (!ends_lone_number(tp->p, in_angle)) {
        tp->p = start;
        return -1;
    }
    *out = (int64_t)u;
    return 1;
}

bool tp_int_expr(txt_parser *tp, int64_t *out) {
    int lone = lone_number(tp, out, false);
    return lone >= 0 ? lone == 1 : expr_cond(tp, out, 0);
}

/* Inside <...> (regions, alias=<V, off>) a '>' closes the bracket: additive expressions only. */
bool tp_int_expr_in_angle(txt_parser *tp, int64_t *out) {
    int lone = lone_number(tp, out, true);
    return lone >= 0 ? lone == 1 : expr_add(tp, out, 0);
}

/* -- Names ------------------------------------------------------------------------------------ */
bool tp_name_add(txt_parser *tp, const char *s, size_t len, uint8_t kind, uint32_t id) {
    txt_name e;
    e.hash = vx_hash(s, len);
    e.kind = kind;
    e.id = id;
    e.name = tp->name_store.len;
    e.len = (uint32_t)len;
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
    uint32_t h = vx_hash(s, len);
    if (!tp->buckets) return NULL;
    for (uint32_t i = tp->buckets[h & tp->bucket_mask]; i; i = tp->names.data[i - 1].prev) {
        txt_name *e = &tp->names.data[i - 1];
        const char *n = tp->name_store.data + e->name;
        if (e->hash == h && e->len == len && memcmp(n, s, len) == 0) return e;
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
