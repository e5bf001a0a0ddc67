/* text.h -- internals of the text front end and printer, shared with the family hooks
** (hooks_*.c).  The parser works on one logical line at a time (comments removed, continuation
** lines joined); every character keeps its source position for diagnostics.
*/
#ifndef VISA_TEXT_H
#define VISA_TEXT_H

#include <string.h>

#include "ir/ir.h"

/* -- An enum's rows, looked up once per parse or print ---------------------------------------
** For the execution mask, which every instruction parses and prints: the tables' own lookups
** search for the enum's rows on each call.  Rows in the tables' order; n = 0 (not loaded, or more
** rows than fit) falls back to the tables. */
#define TXT_ENUM_ROWS 24
typedef struct txt_enum {
    unsigned n;
    const char *text[TXT_ENUM_ROWS];
    uint8_t len[TXT_ENUM_ROWS];
    uint32_t value[TXT_ENUM_ROWS];
} txt_enum;
void txt_enum_load(txt_enum *e, isa_enum_id en);
/* isa_enum_parse and isa_enum_text through e (en: the enum e holds). */
bool txt_enum_parse(const txt_enum *e, isa_enum_id en, const char *s, size_t len, uint32_t *value);
const char *txt_enum_text(const txt_enum *e, isa_enum_id en, uint32_t value);

/* -- Parser ---------------------------------------------------------------------------------- */
typedef struct txt_name {
    uint32_t hash;
    uint32_t prev; /* previous entry in the same bucket chain (+1), 0 = end */
    uint32_t name; /* offset into the parser's name storage (NUL-terminated) */
    uint32_t len; /* of the name */
    uint8_t kind; /* TN_* */
    uint32_t id;
} txt_name;

enum { TN_VAR = 1, TN_ADDR, TN_PRED, TN_SAMPLER, TN_SURFACE, TN_LABEL };

/* Source positions of a logical line, a run at a time: buf[off + k] stood at line:col + k, up to
** the next segment (a continuation, a block comment or a skipped CR starts a new one). */
typedef struct txt_seg {
    uint32_t off, line, col;
} txt_seg;

typedef struct txt_parser {
    visa_ctx *ctx;
    diag_sink ds;
    visa_module *m;
    ir_routine *r; /* current routine, NULL before .kernel */
    const char *src;
    size_t len;
    size_t pos; /* next unread source byte */
    uint32_t line_no, line_col_base;

    /* current logical line */
    VEC(char) buf; /* characters, NUL-terminated */
    VEC(txt_seg) segs; /* where buf's characters (the NUL too) come from */
    const char *p; /* cursor into buf.data */
    bool failed; /* an error was reported on this line */
    bool quiet; /* speculative parse: suppress diagnostics */
    uint32_t quiet_err_off; /* furthest error offset while quiet */
    char quiet_msg[200];

    /* names: chained hash with LIFO removal for { } scopes */
    VEC(txt_name) names;
    VEC(char) name_store;
    uint32_t *buckets; /* bucket_mask + 1 chains (index + 1); grows with the names */
    uint32_t bucket_mask;
    VEC(uint32_t) scope_marks;
    VEC(uint32_t) scope_open_line, scope_open_col; /* where each open '{' stands */
    VEC(uint32_t) label_names; /* label id -> name entry (labels are routine-wide) */

    const char *region_sep_at; /* position after the first value of the last region */
    uint8_t pending_sat;
    uint32_t stmt_index;
    VEC(uint32_t) pending_comments; /* own-line comments waiting for the next statement */
    bool blank_pending;
    bool saw_predef_block; /* the "/// VISA Predefined Variables" block IGC's disassembly prints */
    txt_enum emask; /* the execution masks (tp_exec) */
    unsigned predef_vars_listed; /* V<n> lines of that block: one past the highest n */
    int32_t pending_eol;
} txt_parser;

/* Cursor helpers over the current logical line. */
/* Inline: they are called for every operator an expression might continue with; the first
** character rejects almost every attempt before any strlen or strncmp. */
static inline void tp_skip_ws(txt_parser *tp) {
    while (*tp->p == ' ' || *tp->p == '\t') tp->p++;
}
static inline bool tp_accept_nows(txt_parser *tp, const char *lit) { /* no leading ws */
    if (*tp->p != *lit) return false;
    if (*lit && !lit[1]) { /* one character: most literals (tp_expect's are not constants) */
        tp->p++;
        return true;
    }
    size_t n = strlen(lit);
    if (strncmp(tp->p, lit, n) != 0) return false;
    tp->p += n;
    return true;
}
static inline bool tp_accept(txt_parser *tp, const char *lit) { /* skips leading ws; exact match */
    tp_skip_ws(tp);
    return tp_accept_nows(tp, lit);
}
/* The decimal digits of v (below 1000) at buf, without a NUL; returns how many.  By hand: the
** callers run per instruction or per routine, where snprintf would cost more than their work. */
static inline size_t txt_small_decimal(char *buf, unsigned v) {
    size_t n = 0;
    if (v >= 100) buf[n++] = (char)('0' + v / 100 % 10);
    if (v >= 10) buf[n++] = (char)('0' + v / 10 % 10);
    buf[n++] = (char)('0' + v % 10);
    return n;
}
/* Read the next logical line into tp->buf, its comments into the module's trivia (pending for
** the next statement); false at the end of input.  *blank: the line is empty (no comment either). */
bool tp_next_line(txt_parser *tp, bool *blank);
bool tp_at_end(txt_parser *tp); /* end of line, or a '}' closing an open scope */
/* Append n characters that stood at line:col onwards to the logical line (false when out of
** memory); the caller bounds the line's length. */
bool tp_buf_append(txt_parser *tp, const char *c, size_t n, uint32_t line, uint32_t col);
bool tp_expect(txt_parser *tp, const char *lit); /* error if absent */
bool tp_accept_word(txt_parser *tp, const char *word); /* literal not followed by ident char */
/* An identifier [A-Za-z_$@?%][A-Za-z0-9_$@?-]* (% only first); returns length, 0 if none. */
size_t tp_ident(txt_parser *tp, const char **start);
/* A word of [A-Za-z0-9_] characters. */
size_t tp_word(txt_parser *tp, const char **start);
bool tp_string(txt_parser *tp, char **out, size_t *out_len); /* quoted string, unescaped */
bool tp_int_expr(txt_parser *tp, int64_t *out); /* IGC integer expression */
bool tp_int_expr_in_angle(txt_parser *tp, int64_t *out); /* additive only (inside <>) */
bool tp_uint_dec(txt_parser *tp, uint64_t *out); /* plain decimal/hex number */
void tp_error(txt_parser *tp, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint32_t tp_line_of(txt_parser *tp, const char *at);
uint32_t tp_col_of(txt_parser *tp, const char *at);
void tp_pos_of(txt_parser *tp, const char *at, uint32_t *line, uint32_t *col); /* both at once */

/* Names. */
bool tp_name_add(txt_parser *tp, const char *s, size_t len, uint8_t kind, uint32_t id);
txt_name *tp_name_find(txt_parser *tp, const char *s, size_t len);
/* Label id by name, creating it (with kind) on first mention. */
bool tp_label_ref(txt_parser *tp, const char *s, size_t len, uint8_t kind, uint32_t *id);

/* Operands. */
bool tp_vec_operand(txt_parser *tp, ir_vec *v, bool allow_addrof);
bool tp_raw_operand(txt_parser *tp, ir_raw *raw);
bool tp_exec(txt_parser *tp, uint8_t *exec);
bool tp_general_var(txt_parser *tp, uint32_t *id); /* general variable name -> full id */
bool tp_state_var(txt_parser *tp, uint8_t *cls, uint32_t *id); /* surface/sampler name */

/* One vector operand written alone (`visa region`): general V(row,col)<region>[:type] or
** indirect r[A(k),off]<region>:type, its leading name taken as the variable.  *type: the type
** written (-1 if none).  Errors (E-SYNTAX, at columns of `text`) go to ctx's diagnostics:
** VISA_E_SYNTAX, or VISA_E_NOMEM. */
visa_status txt_parse_lone_operand(visa_ctx *ctx, const char *file, const char *text, size_t len,
                                   visa_platform platform, ir_vec *out, int *type);

/* Parse operand k of kind `kind` (layout code) into inst->opnd[k]; fmt/en as in templates. */
bool tp_parse_opnd(txt_parser *tp, ir_inst *inst, unsigned k, char kind, char fmt, int en);
/* How a template is read (template.c): the instruction rows' syntax, or the sampler/media
** message rows' (blanks before any literal, one exact mnemonic, enum operands as fields). */
typedef enum txt_tpl_dialect { TPL_INST, TPL_MESSAGE } txt_tpl_dialect;
/* Template-driven parse of the instruction text after the predicate (tmpl NULL: generic). */
bool tp_parse_template(txt_parser *tp, int form, const char *tmpl, txt_tpl_dialect dialect, ir_inst *inst);
/* Tokens of the message dialect, for the hooks that parse such rows by hand:
** channel letters, a non-empty subsequence of R G B A in that order, either case, at the cursor
** (IGC's SAMPLER_CHANNEL token after its '.'); */
bool tp_channel_letters(txt_parser *tp, unsigned *mask);
/* a surface or sampler name (IGC resolves either kind in either slot), its id a byte; */
bool tp_state_id(txt_parser *tp, int64_t *id);
/* one of the form's spellings, exactly (not followed by a word character). */
bool tp_mnemonic(txt_parser *tp, int form);

/* -- Declaration placement (scopes.c) --------------------------------------------------------
** Which variables print in a { } scope around their references (instructions [first, end);
** first == end: an empty scope before instruction `first`), in what order, and which print
** renamed (the fallback when no nesting reads back).  A function of the IR only. */
typedef struct txt_scope_plan {
    uint32_t nvars;
    bool any_scoped;
    uint8_t *scoped; /* per user variable */
    uint8_t *refs; /* per user variable: referenced by an instruction */
    uint32_t *first, *end;
    uint32_t *order; /* scoped variables in print order */
    uint32_t norder;
    char **renamed; /* per user variable, NULL = its own name; NULL array = none */
} txt_scope_plan;
bool txt_scope_plan_build(visa_ctx *ctx, const ir_routine *r, txt_scope_plan *p);
void txt_scope_plan_free(visa_ctx *ctx, txt_scope_plan *p);

/* -- Printer --------------------------------------------------------------------------------- */
typedef struct txt_printer {
    const visa_module *m;
    const ir_routine *r;
    strbuf *out;
    bool keep_comments;
    bool asm_text; /* IGC 2.x's asm-text print (VISA_DIALECT_ASM_TEXT) */
    bool igc1; /* IGC 1.0.x's dump print (VISA_DIALECT_IGC1) */
    char **label_names; /* printed name of every label of the routine (pr_label) */
    uint8_t *label_renamed; /* the name had bytes rewritten (IGC's "Original Name" comment) */
    txt_scope_plan plan; /* where declarations go (scopes.c) */
    uint32_t nfuncs; /* functions in the module (each kernel lists them as .funcdecl) */
    strbuf predef_block; /* the predefined-variable comments, once written (print.c) */
    txt_enum emask; /* the execution masks (pr_exec) */
} txt_printer;

void pr_vec(txt_printer *pr, const ir_vec *v, bool region);
void pr_raw(txt_printer *pr, const ir_raw *raw);
void pr_exec(txt_printer *pr, uint8_t exec);
void pr_pred(txt_printer *pr, uint16_t pred);
void pr_var_name(txt_printer *pr, uint32_t id);
void pr_state_name(txt_printer *pr, unsigned state_cls, uint32_t id); /* T6, %slm, S0 */
void pr_label(txt_printer *pr, uint32_t label);
bool pr_label_text(txt_printer *pr, const char *s, size_t len); /* sanitised label name */
void pr_string_lit(txt_printer *pr, const char *s, size_t len);
void pr_hex(txt_printer *pr, uint64_t v);
void pr_template(txt_printer *pr, const char *tmpl, const ir_inst *inst);
void pr_channel_letters(txt_printer *pr, unsigned mask); /* RGBA letters of mask bits 0-3 */
/* Own-line comments of a statement, each on its own line (no-op when comments are stripped). */
void pr_own_comments(txt_printer *pr, const ir_trivia *t);

/* -- Family hooks ---------------------------------------------------------------------------
** print: append the instruction text (after the 4-space indent, before the id padding).
** parse: called with the cursor at the mnemonic (predicate already consumed into inst->pred);
**        return false on error (diagnostic reported).                                        */
typedef struct txt_hook {
    void (*print)(txt_printer *pr, const ir_inst *inst);
    bool (*parse)(txt_parser *tp, int form, ir_inst *inst);
} txt_hook;

extern const txt_hook *const txt_hooks[TH__COUNT]; /* hooks.def; NULL for TH_NONE */
#define TXT_HOOK(H, object) extern const txt_hook object;
#include "hooks.def"
#undef TXT_HOOK

/* Allocate inst->opnd for the form's layout (n operands). */
bool tp_inst_alloc(txt_parser *tp, ir_inst *inst, unsigned n);

#endif
