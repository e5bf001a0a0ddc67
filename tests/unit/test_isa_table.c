/* test_isa_table.c -- consistency of the instruction table (src/isa/ops.def), the type sets
** (src/isa/typemaps.def) and coverage of the spec pages.  Self-contained: needs only isa.c.
**
**   gcc -std=c17 -Wall -Wextra -Werror -Iinclude -Isrc -Isrc/isa \
**       tests/unit/test_isa_table.c src/isa/isa.c -o test_isa_table
**   ./test_isa_table [SPEC_INSTRUCTIONS_DIR]      (default: ../shared/spec/instructions)
**
** Prints one line per failure and "N passed, N failed" at the end; exits nonzero on failure.
** A missing spec directory is reported ("spec not found, skipping") and is not a failure.  */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_layout.h"
#include "isa.h"
#include "lsc_layout.h"

static unsigned n_passed, n_failed;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool
check(bool ok, const char *fmt, ...) {
    if (ok) {
        n_passed++;
        return true;
    }
    n_failed++;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    return false;
}

static const char *form_name(int f) { return f >= 0 && f < VISA_FORM__COUNT ? isa_forms[f].name : "?"; }
static bool is_parent(int f) { return strchr(isa_forms[f].layout, 'o') != NULL; }

/* -- Raw row values, before any narrowing into isa_form fields ------------------------------- */
typedef struct raw_row {
    const char *name;
    long code; /* opcode (sub rows: the parent's) */
    long sub; /* -1 for opcode rows */
} raw_row;

static const raw_row raw_rows[] = {
#define VISA_OP(N, code, mnem, grp, layout, text, hook, flags, ts, plat, ex, sem) {#N, code, -1},
#define VISA_SUB(P, N, sub, mnem, layout, text, hook, flags, ts, plat, ex, sem) {#N, VISA_OP_##P, sub},
#include "ops.def"
#undef VISA_OP
#undef VISA_SUB
};
#define N_RAW_ROWS (sizeof raw_rows / sizeof raw_rows[0])

/* -- 1. Opcodes and sub-opcodes --------------------------------------------------------------- */
static void test_codes(void) {
    /* the enum lookups find an enum's rows by binary search: enums.def must keep them grouped */
    check(isa_enum_table_sorted(), "enums.def: an enum's value rows are not together, in VISA_ENUM order");
    check(N_RAW_ROWS == VISA_FORM__COUNT, "raw row count %zu != VISA_FORM__COUNT %d", N_RAW_ROWS, VISA_FORM__COUNT);
    for (size_t i = 0; i < N_RAW_ROWS; i++) {
        const raw_row *r = &raw_rows[i];
        check(r->code >= 1 && r->code <= 0xFF, "%s: opcode 0x%lX outside 0x01..0xFF", r->name, r->code);
        if (r->sub >= 0) check(r->sub <= 0xFF, "%s: sub-opcode 0x%lX does not fit a byte", r->name, r->sub);
    }
    /* opcode codes unique among VISA_OP rows */
    for (int i = 0; i < VISA_FORM__COUNT; i++) {
        if (isa_forms[i].parent >= 0) continue;
        for (int j = i + 1; j < VISA_FORM__COUNT; j++)
            if (isa_forms[j].parent < 0)
                check(isa_forms[i].opcode != isa_forms[j].opcode, "opcode 0x%02X used by both %s and %s",
                      isa_forms[i].opcode, form_name(i), form_name(j));
        check(isa_form_by_opcode(isa_forms[i].opcode) == i, "isa_form_by_opcode(0x%02X) is not %s", isa_forms[i].opcode,
              form_name(i));
    }
    /* sub codes unique within a parent; sub rows follow their parent (isa_form_sub relies on it) */
    for (int i = 0; i < VISA_FORM__COUNT; i++) {
        const isa_form *f = &isa_forms[i];
        if (f->parent < 0) continue;
        if (!check(f->parent < i && isa_forms[f->parent].parent < 0, "%s: parent %s is not an opcode row before it",
                   f->name, form_name(f->parent)))
            continue;
        for (int j = f->parent + 1; j < i; j++)
            check(isa_forms[j].parent == f->parent, "%s: sub row is separated from its parent %s by %s", f->name,
                  form_name(f->parent), form_name(j));
        for (int j = i + 1; j < VISA_FORM__COUNT; j++)
            if (isa_forms[j].parent == f->parent)
                check(isa_forms[j].sub != f->sub, "%s: sub-opcode 0x%02X used by both %s and %s", form_name(f->parent),
                      f->sub, f->name, form_name(j));
        check(isa_form_sub(f->parent, (unsigned)f->sub) == i, "isa_form_sub(%s, 0x%02X) is not %s",
              form_name(f->parent), f->sub, f->name);
        check(f->opcode == isa_forms[f->parent].opcode, "%s: opcode differs from its parent's", f->name);
    }
}

/* -- 2. Layout strings ------------------------------------------------------------------------ */
#define LAYOUT_CODES "EPoVv&RLbwidsS#*!"
#define LIST_CODES "Vv&RLbwidsS" /* what may follow '*' */

static void check_layout(const char *who, const char *l) {
    size_t n = strlen(l);
    for (size_t k = 0; k < n; k++)
        check(strchr(LAYOUT_CODES, l[k]) != NULL, "%s: layout \"%s\" has undocumented code '%c'", who, l, l[k]);
    const char *star = strchr(l, '*');
    if (star)
        check(star == l + n - 2 && strchr(LIST_CODES, star[1]) != NULL,
              "%s: layout \"%s\": '*' must be followed by exactly one operand code at the end", who, l);
    const char *hash = strchr(l, '#');
    if (hash) {
        check(strchr(hash + 1, '#') == NULL, "%s: layout \"%s\" has more than one '#'", who, l);
        check(star && star > hash, "%s: layout \"%s\": '#' without a trailing '*' list", who, l);
    }
    const char *o = strchr(l, 'o');
    if (o) check(strchr(o + 1, 'o') == NULL, "%s: layout \"%s\" has more than one 'o'", who, l);
}

static void test_layouts(void) {
    for (int i = 0; i < VISA_FORM__COUNT; i++) {
        const isa_form *f = &isa_forms[i];
        check_layout(f->name, f->layout);
        char buf[64];
        const char *full = isa_form_layout(i, buf);
        if (f->parent >= 0) {
            check_layout(f->name, full);
            check(strchr(isa_forms[f->parent].layout, 'o') != NULL, "%s: parent %s has no 'o' in its layout", f->name,
                  form_name(f->parent));
            check(strchr(f->layout, 'o') == NULL, "%s: sub row layout \"%s\" has an 'o' (no nested subs)", f->name,
                  f->layout);
        }
        /* other row columns the typing work touched */
        check(f->plat < P__COUNT, "%s: platform %u out of range", f->name, f->plat);
        check((f->exec & ~EX_ALL) == 0, "%s: exec mask 0x%02X has bits beyond 32 lanes", f->name, f->exec);
        if (!is_parent(i) && !strchr(full, 'E'))
            check(f->exec == EX_NONE, "%s: no exec byte in layout \"%s\" but exec is not EX_NONE", f->name, full);
    }
}

/* -- 3. Mnemonic spellings -------------------------------------------------------------------- */
/* The parser (src/text/parse.c) indexes every non-parent form by the base word of each spelling
** (text before the first '.'; all names of a '%enum'); parent rows ('o' in the layout) are not
** indexed, their sub rows are.  A base word must select one form, except for these deliberate
** sharings (each must match exactly the set of forms sharing the word, and must still occur). */
#define MAX_SHARE 16
typedef struct shared_group {
    const char *why;
    int forms[MAX_SHARE + 1]; /* -1 terminated */
    bool seen;
} shared_group;
#define SHARE(why, ...) \
    { why, {__VA_ARGS__, -1}, false }
#define LSC_PAIR(U, T) SHARE("LSC untyped/typed pair (.tgm selects the typed row)", VISA_FORM_##U, VISA_FORM_##T)

static shared_group shared_groups[] = {
    SHARE("add3 / add3.o base word (the .o suffix selects ADD3O)", VISA_FORM_ADD3, VISA_FORM_ADD3O),
    LSC_PAIR(LSC_LOAD_QUAD, LSC_T_LOAD_QUAD),
    LSC_PAIR(LSC_LOAD_BLOCK2D, LSC_T_LOAD_BLOCK2D),
    LSC_PAIR(LSC_STORE_QUAD, LSC_T_STORE_QUAD),
    LSC_PAIR(LSC_STORE_BLOCK2D, LSC_T_STORE_BLOCK2D),
    LSC_PAIR(LSC_ATOMIC_IINC, LSC_T_ATOMIC_IINC),
    LSC_PAIR(LSC_ATOMIC_IDEC, LSC_T_ATOMIC_IDEC),
    LSC_PAIR(LSC_ATOMIC_LOAD, LSC_T_ATOMIC_LOAD),
    LSC_PAIR(LSC_ATOMIC_STORE, LSC_T_ATOMIC_STORE),
    LSC_PAIR(LSC_ATOMIC_IADD, LSC_T_ATOMIC_IADD),
    LSC_PAIR(LSC_ATOMIC_ISUB, LSC_T_ATOMIC_ISUB),
    LSC_PAIR(LSC_ATOMIC_SMIN, LSC_T_ATOMIC_SMIN),
    LSC_PAIR(LSC_ATOMIC_SMAX, LSC_T_ATOMIC_SMAX),
    LSC_PAIR(LSC_ATOMIC_UMIN, LSC_T_ATOMIC_UMIN),
    LSC_PAIR(LSC_ATOMIC_UMAX, LSC_T_ATOMIC_UMAX),
    LSC_PAIR(LSC_ATOMIC_ICAS, LSC_T_ATOMIC_ICAS),
    LSC_PAIR(LSC_ATOMIC_FADD, LSC_T_ATOMIC_FADD),
    LSC_PAIR(LSC_ATOMIC_FSUB, LSC_T_ATOMIC_FSUB),
    LSC_PAIR(LSC_ATOMIC_FMIN, LSC_T_ATOMIC_FMIN),
    LSC_PAIR(LSC_ATOMIC_FMAX, LSC_T_ATOMIC_FMAX),
    LSC_PAIR(LSC_ATOMIC_FCAS, LSC_T_ATOMIC_FCAS),
    LSC_PAIR(LSC_ATOMIC_AND, LSC_T_ATOMIC_AND),
    LSC_PAIR(LSC_ATOMIC_OR, LSC_T_ATOMIC_OR),
    LSC_PAIR(LSC_ATOMIC_XOR, LSC_T_ATOMIC_XOR),
    /* 3D_SAMPLE/3D_LOAD/3D_GATHER4 all spell their op as %sampler3d_op; the op value picks the
    ** opcode.  That enum also names resinfo/sampleinfo (values 10/11), which are 3D_INFO subs. */
    SHARE("sampler3d_op names shared by the three 3D sampler opcodes", VISA_FORM_SAMPLE3D, VISA_FORM_LOAD3D,
          VISA_FORM_GATHER4_3D),
    SHARE("resinfo: sampler3d_op value 10 and the 3D_INFO sub row", VISA_FORM_SAMPLE3D, VISA_FORM_LOAD3D,
          VISA_FORM_GATHER4_3D, VISA_FORM_RESINFO),
    SHARE("sampleinfo: sampler3d_op value 11 and the 3D_INFO sub row", VISA_FORM_SAMPLE3D, VISA_FORM_LOAD3D,
          VISA_FORM_GATHER4_3D, VISA_FORM_SAMPLEINFO),
    /* va.<function>: the VA sub rows share the base word "va" (the suffix picks the row) */
    SHARE("va.<function> sub rows", VISA_FORM_VA_CONVOLVE, VISA_FORM_VA_MINMAX, VISA_FORM_VA_MINMAXFILTER,
          VISA_FORM_VA_ERODE, VISA_FORM_VA_DILATE, VISA_FORM_VA_BOOLCENTROID, VISA_FORM_VA_CENTROID),
    /* va_skl_plus.<function>: likewise for the VA_SKL_PLUS sub rows */
    SHARE("va_skl_plus.<function> sub rows", VISA_FORM_VA_1D_CONVOLVE_VERTICAL, VISA_FORM_VA_1D_CONVOLVE_HORIZONTAL,
          VISA_FORM_VA_1PIXEL_CONVOLVE, VISA_FORM_VA_FLOOD_FILL, VISA_FORM_VA_LBP_CREATION,
          VISA_FORM_VA_LBP_CORRELATION, VISA_FORM_VA_CORRELATION_SEARCH, VISA_FORM_VA_HDC_CONV, VISA_FORM_VA_HDC_MMF,
          VISA_FORM_VA_HDC_ERODE, VISA_FORM_VA_HDC_DILATE, VISA_FORM_VA_HDC_LBPCORRELATION,
          VISA_FORM_VA_HDC_LBPCREATION, VISA_FORM_VA_HDC_1DCONV_H, VISA_FORM_VA_HDC_1DCONV_V,
          VISA_FORM_VA_HDC_1PIXELCONV),
};
#define N_SHARED (sizeof shared_groups / sizeof shared_groups[0])

typedef struct mn_key {
    char word[48];
    int form;
} mn_key;

static mn_key mn_keys[4096];
static size_t n_mn_keys;

static void add_spelling(int form, const char *s, size_t n) {
    if (!check(n > 0, "%s: empty mnemonic spelling in \"%s\"", form_name(form), isa_forms[form].mnem)) return;
    size_t b = s[0] == '.' ? 1 : 0; /* directives (".function", ".file") keep their dot */
    while (b < n && s[b] != '.') b++;
    if (!check(b < sizeof mn_keys[0].word, "%s: spelling too long", form_name(form))) return;
    for (size_t i = 0; i < n_mn_keys; i++)
        if (mn_keys[i].form == form && strlen(mn_keys[i].word) == b && !memcmp(mn_keys[i].word, s, b)) return;
    if (!check(n_mn_keys < sizeof mn_keys / sizeof mn_keys[0], "too many spellings")) return;
    memcpy(mn_keys[n_mn_keys].word, s, b);
    mn_keys[n_mn_keys].word[b] = 0;
    mn_keys[n_mn_keys].form = form;
    n_mn_keys++;
}

static int mn_cmp(const void *a, const void *b) {
    const mn_key *x = a, *y = b;
    int c = strcmp(x->word, y->word);
    return c ? c : x->form - y->form;
}

static bool group_matches(const shared_group *g, const mn_key *k, size_t n) {
    size_t gn = 0;
    while (g->forms[gn] >= 0) gn++;
    if (gn != n) return false;
    for (size_t i = 0; i < n; i++) {
        bool in = false;
        for (size_t j = 0; j < gn; j++) in |= g->forms[j] == k[i].form;
        if (!in) return false;
    }
    return true;
}

/* -- 3b. Named LSC operand positions (lsc_layout.h) against the layouts --------------------------
** Each named position must hold the operand kind the family's text and semantics assume (by hand
** from the LSC_UNTYPED / LSC_TYPED / LSC_FENCE pages' field lists); a layout edit in ops.def that
** shifts a field fails here instead of silently reading the wrong operand. */
typedef struct named_pos {
    const char *what;
    unsigned k;
    char kind;
    const char *field; /* dp_layout.h: the page's Format field ("Dst/Src": either), NULL: unchecked */
} named_pos;

static void check_positions(const char *family, const char *layout, const named_pos *pos, size_t n, unsigned count) {
    check(isa_layout_opnds(layout) == count, "%s: layout %s has %u operands, its layout header names %u", family,
          layout, isa_layout_opnds(layout), count);
    for (size_t i = 0; i < n; i++)
        check(isa_layout_kind(layout, pos[i].k) == pos[i].kind, "%s: %s (operand %u) is '%c' in %s, expected '%c'",
              family, pos[i].what, pos[i].k,
              isa_layout_kind(layout, pos[i].k) ? isa_layout_kind(layout, pos[i].k) : '-', layout, pos[i].kind);
}

#define POS(name, kind) \
    { #name, name, kind, NULL }
#define POSF(name, kind, field) \
    { #name, name, kind, field }
static void test_lsc_positions(void) {
    static const named_pos u[] = {
        POS(U_SFID, 'b'), POS(U_L1, 'b'),  POS(U_L3, 'b'),   POS(U_AT, 'b'),    POS(U_SCALE, 'w'), POS(U_OFF, 'i'),
        POS(U_AS, 'b'),   POS(U_DS, 'b'),  POS(U_ORD, 'b'),  POS(U_ELEMS, 'b'), POS(U_CHM, 'b'),   POS(U_SURF, 'V'),
        POS(U_SIDX, 'd'), POS(U_DST, 'R'), POS(U_SRC0, 'R'), POS(U_SRC1, 'R'),  POS(U_SRC2, 'R')};
    static const named_pos us[] = {POS(U_SRC0, 'R'), POS(U_SRC1, 'V'), POS(U_SRC2, 'R')}; /* pitch: a vector */
    static const named_pos b[] = {POS(B_SFID, 'b'), POS(B_L1, 'b'),     POS(B_L3, 'b'),   POS(B_DS, 'b'),
                                  POS(B_ORD, 'b'),  POS(B_BLOCKS, 'b'), POS(B_W, 'w'),    POS(B_H, 'w'),
                                  POS(B_VNNI, 'b'), POS(B_DST, 'R'),    POS(B_BASE, 'V'), POS(B_SW, 'V'),
                                  POS(B_SH, 'V'),   POS(B_SP, 'V'),     POS(B_X, 'V'),    POS(B_XOFF, 'i'),
                                  POS(B_Y, 'V'),    POS(B_YOFF, 'i'),   POS(B_SRC1, 'R')};
    static const named_pos a[] = {POS(A_SFID, 'b'), POS(A_L1, 'b'),   POS(A_L3, 'b'),    POS(A_AT, 'b'),
                                  POS(A_DS, 'b'),   POS(A_ORD, 'b'),  POS(A_ELEMS, 'b'), POS(A_CHM, 'b'),
                                  POS(A_SURF, 'V'), POS(A_SIDX, 'd'), POS(A_DST, 'R'),   POS(A_SRC, 'R')};
    static const named_pos t[] = {POS(T_L1, 'b'),   POS(T_L3, 'b'),   POS(T_AT, 'b'),    POS(T_AS, 'b'),
                                  POS(T_DS, 'b'),   POS(T_ORD, 'b'),  POS(T_ELEMS, 'b'), POS(T_CHM, 'b'),
                                  POS(T_SURF, 'V'), POS(T_SIDX, 'd'), POS(T_DST, 'R'),   POS(T_U, 'R'),
                                  POS(T_UOFF, 'i'), POS(T_V, 'R'),    POS(T_VOFF, 'i'),  POS(T_R, 'R'),
                                  POS(T_ROFF, 'i'), POS(T_LOD, 'R'),  POS(T_SRC1, 'R'),  POS(T_SRC2, 'R')};
    static const named_pos tb[] = {POS(TB_L1, 'b'),  POS(TB_L3, 'b'),   POS(TB_AT, 'b'),   POS(TB_W, 'w'),
                                   POS(TB_H, 'w'),   POS(TB_SURF, 'V'), POS(TB_SIDX, 'd'), POS(TB_DST, 'R'),
                                   POS(TB_X, 'V'),   POS(TB_XOFF, 'i'), POS(TB_Y, 'V'),    POS(TB_YOFF, 'i'),
                                   POS(TB_SRC1, 'R')};
    static const named_pos f[] = {POS(F_SFID, 'b'), POS(F_OP, 'b'), POS(F_SCOPE, 'b')};
#define N(x) (sizeof(x) / sizeof((x)[0]))
    check_positions("LSC_U_GEN", LSC_U_GEN, u, N(u), U_SRC2 + 1);
    check_positions("LSC_U_STRIDED", LSC_U_STRIDED, us, N(us), U_SRC2 + 1);
    check_positions("LSC_U_BLOCK2D", LSC_U_BLOCK2D, b, N(b), B_SRC1 + 1);
    check_positions("LSC_U_APNDCTR", LSC_U_APNDCTR, a, N(a), A_SRC + 1);
    check_positions("LSC_T_GEN", LSC_T_GEN, t, N(t), T_SRC2 + 1);
    check_positions("LSC_T_BLOCK2D", LSC_T_BLOCK2D, tb, N(tb), TB_SRC1 + 1);
    check_positions("LSC_FENCE", isa_forms[VISA_FORM_LSC_FENCE].layout, f, N(f), F_SCOPE + 1);
#undef N
    /* every LSC sub-row uses one of the described layouts */
    for (int i = 0; i < VISA_FORM__COUNT; i++) {
        const char *l = isa_forms[i].layout;
        if (isa_form_group(i) != G_LSC || isa_forms[i].parent < 0) continue;
        check(!strcmp(l, LSC_U_GEN) || !strcmp(l, LSC_U_STRIDED) || !strcmp(l, LSC_U_BLOCK2D) ||
                  !strcmp(l, LSC_U_APNDCTR) || !strcmp(l, LSC_T_GEN) || !strcmp(l, LSC_T_BLOCK2D),
              "%s: layout %s is none of lsc_layout.h's", form_name(i), l);
    }
}

/* -- 3c. Named data-port, SVM and raw-send positions (dp_layout.h) against the layouts -----------
** Kinds by hand from each page's Format table (Surface, sizes, masks and ops are ub fields, Scale
** a uw, Offset / Address a vector, per-lane offsets, addresses, coordinates and data raw
** operands); with the spec present, each name must also sit at its field's place in that table
** (so a swap of two fields of one kind fails too).  Every form of the legacy data-port text hook and of the raw-send hook must belong to
** a family described here, and opfacts.def's surface and limited-field rows must name 'b' fields
** (the surface row of each family being its named surface). */
typedef struct dp_family {
    const char *name;
    int forms[3]; /* -1 terminated */
    const named_pos *pos;
    size_t n;
    unsigned count;
    int surf; /* the named surface position, -1 for none (SVM, sends) */
} dp_family;

static const struct {
    int form, k;
} surface_rows[] = {
#define VISA_SURFACE_OPND(N, k) {VISA_FORM_##N, k},
#include "opfacts.def"
};
static const struct {
    int form;
    const char *field;
    int k;
} field_rows[] = {
#define VISA_MSG_FIELD(N, field, k) {VISA_FORM_##N, #field, k},
#include "opfacts.def"
};

/* The stored fields of a page's "## Format" table in order: the cells after the opcode (and
** sub-opcode) cells, without Exec_size and Pred (the E and P bytes).  -1 if the page is absent. */
enum { MAX_FIELDS = 16 };
static char *read_file(const char *path);
static int format_fields(const char *dir, const char *page, char fields[MAX_FIELDS][32]) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.md", dir, page);
    char *text = read_file(path);
    if (!text) return -1;
    int n = 0;
    const char *p = strstr(text, "## Format");
    for (p = p ? strchr(p, '\n') : NULL; p && *++p && strncmp(p, "## ", 3);) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        for (const char *c = p; *p == '|' && c < e;) { /* each cell between two '|' */
            const char *d = memchr(c + 1, '|', (size_t)(e - c - 1));
            if (!d) break;
            const char *a = c + 1, *b = d;
            while (a < b && *a == ' ') a++;
            while (b > a && b[-1] == ' ') b--;
            size_t len = (size_t)(b - a);
            bool skip = !len || *a == '-' || !strncmp(a, "0x", 2) || (len == 9 && !strncmp(a, "Exec_size", 9)) ||
                        (len == 4 && !strncmp(a, "Pred", 4));
            if (!skip && n < MAX_FIELDS && len < 32) {
                memcpy(fields[n], a, len);
                fields[n++][len] = 0;
            }
            c = d;
        }
        p = *e ? e : NULL;
    }
    free(text);
    return n;
}

/* "Dst/Src": either name */
static bool field_is(const char *want, const char *got) {
    for (const char *w = want;;) {
        const char *e = strchr(w, '/');
        size_t n = e ? (size_t)(e - w) : strlen(w);
        if (strlen(got) == n && !strncmp(w, got, n)) return true;
        if (!e) return false;
        w = e + 1;
    }
}

/* The named fields of one form against its page (forms without named fields: not checked). */
static void check_format(const char *spec, const char *who, const char *page, const named_pos *pos, size_t n,
                         unsigned count) {
    bool named = false;
    for (size_t j = 0; j < n; j++) named |= pos[j].field != NULL;
    if (!named) return;
    char fields[MAX_FIELDS][32];
    int nf = format_fields(spec, page, fields);
    if (!check(nf >= 0, "%s: no spec page %s.md", who, page)) return;
    check((unsigned)nf == count, "%s: page %s.md has %d stored fields, the layout %u", who, page, nf, count);
    for (size_t j = 0; j < n; j++)
        if (pos[j].field)
            check(pos[j].k < (unsigned)nf && field_is(pos[j].field, fields[pos[j].k]),
                  "%s: %s (operand %u) is %s on page %s.md, expected %s", who, pos[j].what, pos[j].k,
                  pos[j].k < (unsigned)nf ? fields[pos[j].k] : "(none)", page, pos[j].field);
}

static void test_dp_positions(const char *spec) {
    static const named_pos owld[] = {POSF(OWLD_SIZE, 'b', "Size"), POSF(OWLD_MOD, 'b', "Is_modified"),
                                     POSF(OWLD_SURF, 'b', "Surface"), POSF(OWLD_OFF, 'V', "Offset"),
                                     POSF(OWLD_DST, 'R', "Dst")};
    static const named_pos owst[] = {POSF(OWST_SIZE, 'b', "Size"), POSF(OWST_SURF, 'b', "Surface"),
                                     POSF(OWST_OFF, 'V', "Offset"), POSF(OWST_SRC, 'R', "Src")};
    static const named_pos md[] = {POSF(MD_MODE, 'b', "Modifiers"), POSF(MD_SURF, 'b', "Surface"),
                                   POSF(MD_PLANE, 'b', "Plane"),    POSF(MD_W, 'b', "Block_width"),
                                   POSF(MD_H, 'b', "Block_height"), POSF(MD_X, 'V', "X_offset"),
                                   POSF(MD_Y, 'V', "Y_offset"),     POSF(MD_DATA, 'R', "Dst/Src")};
    static const named_pos ga[] = {
        POSF(GA_ESIZE, 'b', "Elt_size"), POSF(GA_MOD, 'b', "Is_modified"),    POSF(GA_NELTS, 'b', "Num_elts"),
        POSF(GA_SURF, 'b', "Surface"),   POSF(GA_GOFF, 'V', "Global_offset"), POSF(GA_EOFF, 'R', "Element_offset"),
        POSF(GA_DST, 'R', "Dst")};
    static const named_pos sc[] = {POSF(SC_ESIZE, 'b', "Elt_size"),      POSF(SC_NELTS, 'b', "Num_elts"),
                                   POSF(SC_SURF, 'b', "Surface"),        POSF(SC_GOFF, 'V', "Global_offset"),
                                   POSF(SC_EOFF, 'R', "Element_offset"), POSF(SC_SRC, 'R', "Src")};
    static const named_pos ty[] = {POSF(TY_CHM, 'b', "Channels"), POSF(TY_SURF, 'b', "Surface"),
                                   POSF(TY_U, 'R', "U"),          POSF(TY_V, 'R', "V"),
                                   POSF(TY_R, 'R', "R"),          POSF(TY_LOD, 'R', "LOD"),
                                   POSF(TY_DATA, 'R', "Dst/Src")};
    static const named_pos g4[] = {POSF(G4_CHM, 'b', "Channels"),        POSF(G4_SCALE, 'w', "Scale"),
                                   POSF(G4_SURF, 'b', "Surface"),        POSF(G4_GOFF, 'V', "Offset"),
                                   POSF(G4_EOFF, 'R', "Element_offset"), POSF(G4_DATA, 'R', "Dst/Src")};
    static const named_pos gs[] = {POSF(GS_BSIZE, 'b', "Block_size"), POSF(GS_NBLK, 'b', "Num_blocks"),
                                   POSF(GS_SCALE, 'w', "Scale"),      POSF(GS_SURF, 'b', "Surface"),
                                   POSF(GS_GOFF, 'V', "Offset"),      POSF(GS_EOFF, 'R', "Element_offset"),
                                   POSF(GS_DATA, 'R', "Dst/Src")};
    static const named_pos da[] = {
        POSF(DA_OP, 'b', "Op"),     POSF(DA_SURF, 'b', "Surface"), POSF(DA_EOFF, 'R', "Element_offset"),
        POSF(DA_SRC0, 'R', "Src0"), POSF(DA_SRC1, 'R', "Src1"),    POSF(DA_DST, 'R', "Dst")};
    static const named_pos ta[] = {POSF(TA_OP, 'b', "Op"),     POSF(TA_SURF, 'b', "Surface"), POSF(TA_U, 'R', "U"),
                                   POSF(TA_V, 'R', "V"),       POSF(TA_R, 'R', "R"),          POSF(TA_LOD, 'R', "LOD"),
                                   POSF(TA_SRC0, 'R', "Src0"), POSF(TA_SRC1, 'R', "Src1"),    POSF(TA_DST, 'R', "Dst")};
    static const named_pos qw[] = {POSF(QW_NBLK, 'b', "Num_blocks"), POSF(QW_SURF, 'b', "Surface"),
                                   POSF(QW_OFF, 'R', "Offset"), POSF(QW_DATA, 'R', "Dst/Src")};
    static const named_pos sb[] = {POSF(SB_PROPS, 'b', "Properties"), POSF(SB_ADDR, 'V', "Address"),
                                   POSF(SB_DATA, 'R', "Dst/Src")};
    static const named_pos sg[] = {POSF(SG_BSIZE, 'b', "Block_size"), POSF(SG_NBLK, 'b', "Num_blocks"),
                                   POSF(SG_ADDRS, 'R', "Addresses"), POSF(SG_DATA, 'R', "Dst/Src")};
    static const named_pos sa[] = {POSF(SA_OP, 'b', "Op"), POSF(SA_ADDRS, 'R', "Addresses"), POSF(SA_SRC0, 'R', "Src0"),
                                   POSF(SA_SRC1, 'R', "Src1"), POSF(SA_DST, 'R', "Dst")};
    static const named_pos s4[] = {POSF(S4_CHM, 'b', "Channels"), POSF(S4_SCALE, 'w', "Scale"),
                                   POSF(S4_ADDR, 'V', "Address"), POSF(S4_EOFF, 'R', "Element_offset"),
                                   POSF(S4_DATA, 'R', "Dst/Src")};
    static const named_pos rs[] = {POSF(RSEND_MOD, 'b', "Modifiers"), POSF(RSEND_EXDESC, 'd', "ExMsgDesc"),
                                   POSF(RSEND_NSRC, 'b', "NumSrc"),   POSF(RSEND_NDST, 'b', "NumDst"),
                                   POSF(RSEND_DESC, 'V', "Desc"),     POSF(RSEND_SRC, 'R', "Src"),
                                   POSF(RSEND_DST, 'R', "Dst")};
    /* RAW_SENDS: the page's Format table lists SFID before the lengths; the binary (IGC's
    ** reader and writer) stores it after them, so the fields are not checked against the page */
    static const named_pos rss[] = {POS(RSENDS_MOD, 'b'),  POS(RSENDS_NSRC0, 'b'), POS(RSENDS_NSRC1, 'b'),
                                    POS(RSENDS_NDST, 'b'), POS(RSENDS_SFID, 'b'),  POS(RSENDS_EXDESC, 'V'),
                                    POS(RSENDS_DESC, 'V'), POS(RSENDS_SRC0, 'R'),  POS(RSENDS_SRC1, 'R'),
                                    POS(RSENDS_DST, 'R')};
    /* RAW_SENDG (Xe3) has no page */
    static const named_pos rsg[] = {POS(RSENDG_MOD, 'b'),     POS(RSENDG_SFID, 'd'),     POS(RSENDG_DST, 'R'),
                                    POS(RSENDG_DST_LEN, 'd'), POS(RSENDG_SRC0, 'R'),     POS(RSENDG_SRC0_LEN, 'd'),
                                    POS(RSENDG_SRC1, 'R'),    POS(RSENDG_SRC1_LEN, 'd'), POS(RSENDG_IND0, 'V'),
                                    POS(RSENDG_IND1, 'V'),    POS(RSENDG_DESC_LO, 'd'),  POS(RSENDG_DESC_HI, 'd')};
#define N(x) (sizeof(x) / sizeof((x)[0]))
#define FAM(name, pos, last, surf, ...) \
    { name, {__VA_ARGS__, -1}, pos, N(pos), (last) + 1, surf }
    static const dp_family fams[] = {
        FAM("OWORD_LD", owld, OWLD_DST, OWLD_SURF, VISA_FORM_OWORD_LD, VISA_FORM_OWORD_LD_UNALIGNED),
        FAM("OWORD_ST", owst, OWST_SRC, OWST_SURF, VISA_FORM_OWORD_ST),
        FAM("MEDIA", md, MD_DATA, MD_SURF, VISA_FORM_MEDIA_LD, VISA_FORM_MEDIA_ST),
        FAM("GATHER", ga, GA_DST, GA_SURF, VISA_FORM_GATHER),
        FAM("SCATTER", sc, SC_SRC, SC_SURF, VISA_FORM_SCATTER),
        FAM("4_TYPED", ty, TY_DATA, TY_SURF, VISA_FORM_GATHER4_TYPED, VISA_FORM_SCATTER4_TYPED),
        FAM("4_SCALED", g4, G4_DATA, G4_SURF, VISA_FORM_GATHER4_SCALED, VISA_FORM_SCATTER4_SCALED),
        FAM("_SCALED", gs, GS_DATA, GS_SURF, VISA_FORM_GATHER_SCALED, VISA_FORM_SCATTER_SCALED),
        FAM("DWORD_ATOMIC", da, DA_DST, DA_SURF, VISA_FORM_DWORD_ATOMIC),
        FAM("TYPED_ATOMIC", ta, TA_DST, TA_SURF, VISA_FORM_TYPED_ATOMIC),
        FAM("QW", qw, QW_DATA, QW_SURF, VISA_FORM_QW_GATHER, VISA_FORM_QW_SCATTER),
        FAM("SVM_BLOCK", sb, SB_DATA, -1, VISA_FORM_SVM_BLOCK_LD, VISA_FORM_SVM_BLOCK_ST),
        FAM("SVM_GATHER/SCATTER", sg, SG_DATA, -1, VISA_FORM_SVM_GATHER, VISA_FORM_SVM_SCATTER),
        FAM("SVM_ATOMIC", sa, SA_DST, -1, VISA_FORM_SVM_ATOMIC),
        FAM("SVM_4SCALED", s4, S4_DATA, -1, VISA_FORM_SVM_GATHER4SCALED, VISA_FORM_SVM_SCATTER4SCALED),
        FAM("RAW_SEND", rs, RSEND_DST, -1, VISA_FORM_RAW_SEND),
        FAM("RAW_SENDS", rss, RSENDS_DST, -1, VISA_FORM_RAW_SENDS),
        FAM("RAW_SENDG", rsg, RSENDG_DESC_HI, -1, VISA_FORM_RAW_SENDG),
    };
#undef FAM
#undef N
    DIR *sd = opendir(spec);
    bool have_spec = sd != NULL;
    if (sd) closedir(sd);
    int fam_of[VISA_FORM__COUNT];
    for (int i = 0; i < VISA_FORM__COUNT; i++) fam_of[i] = -1;
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        for (const int *i = fams[f].forms; *i >= 0; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s (%s)", fams[f].name, form_name(*i));
            check_positions(name, isa_forms[*i].layout, fams[f].pos, fams[f].n, fams[f].count);
            /* the names against the page's Format table (the SVM pages spell 4_SCALED) */
            const char *page = *i == VISA_FORM_SVM_GATHER4SCALED    ? "SVM_GATHER4_SCALED"
                               : *i == VISA_FORM_SVM_SCATTER4SCALED ? "SVM_SCATTER4_SCALED"
                                                                    : form_name(*i);
            if (have_spec) check_format(spec, name, page, fams[f].pos, fams[f].n, fams[f].count);
            check(fam_of[*i] < 0, "%s is in two dp_layout.h families", form_name(*i));
            fam_of[*i] = (int)f;
            /* the verifier's surface row is the family's named surface */
            int k = -1;
            for (size_t r = 0; r < sizeof surface_rows / sizeof surface_rows[0]; r++)
                if (surface_rows[r].form == *i) k = surface_rows[r].k;
            check(k == fams[f].surf, "%s: opfacts.def surface operand %d, dp_layout.h names %d", form_name(*i), k,
                  fams[f].surf);
        }
    }
    /* every form of the data-port and raw-send text hooks is described */
    for (int i = 0; i < VISA_FORM__COUNT; i++) {
        if (is_parent(i) || (isa_forms[i].hook != TH_DATAPORT && isa_forms[i].hook != TH_SEND)) continue;
        check(fam_of[i] >= 0, "%s: data-port / send form without a dp_layout.h family", form_name(i));
    }
    for (size_t r = 0; r < sizeof surface_rows / sizeof surface_rows[0]; r++)
        check(isa_layout_kind(isa_forms[surface_rows[r].form].layout, (unsigned)surface_rows[r].k) == 'b',
              "%s: opfacts.def surface operand %d is not a ub field", form_name(surface_rows[r].form),
              surface_rows[r].k);
    for (size_t r = 0; r < sizeof field_rows / sizeof field_rows[0]; r++)
        check(isa_layout_kind(isa_forms[field_rows[r].form].layout, (unsigned)field_rows[r].k) == 'b',
              "%s: opfacts.def field %s (operand %d) is not a ub field", form_name(field_rows[r].form),
              field_rows[r].field, field_rows[r].k);
}
#undef POS

static void test_mnemonics(void) {
    for (int f = 0; f < VISA_FORM__COUNT; f++) {
        const isa_form *F = &isa_forms[f];
        if (is_parent(f)) continue;
        if (F->mnem[0] == '%') {
            int en = isa_enum_by_name(F->mnem + 1, strlen(F->mnem + 1));
            if (!check(en >= 0, "%s: mnemonic names unknown enum \"%s\"", F->name, F->mnem)) continue;
            uint32_t v;
            const char *t;
            unsigned i = 0;
            for (; isa_enum_at((isa_enum_id)en, i, &v, &t); i++) add_spelling(f, t, strlen(t));
            check(i > 0, "%s: enum \"%s\" has no names", F->name, F->mnem);
            continue;
        }
        for (const char *s = F->mnem;;) {
            const char *e = strchr(s, '|');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            add_spelling(f, s, n);
            if (!e) break;
            s = e + 1;
        }
    }
    qsort(mn_keys, n_mn_keys, sizeof mn_keys[0], mn_cmp);
    for (size_t i = 0; i < n_mn_keys;) {
        size_t j = i + 1;
        while (j < n_mn_keys && !strcmp(mn_keys[j].word, mn_keys[i].word)) j++;
        if (j - i > 1) {
            bool allowed = false;
            for (size_t g = 0; g < N_SHARED; g++)
                if (group_matches(&shared_groups[g], &mn_keys[i], j - i)) {
                    shared_groups[g].seen = allowed = true;
                    break;
                }
            if (!allowed) {
                char list[512] = "";
                for (size_t k = i; k < j; k++) {
                    strncat(list, k > i ? ", " : "", sizeof list - strlen(list) - 1);
                    strncat(list, form_name(mn_keys[k].form), sizeof list - strlen(list) - 1);
                }
                check(false, "mnemonic \"%s\" selects several forms (%s) and is not an allowed sharing",
                      mn_keys[i].word, list);
            } else {
                check(true, "shared");
            }
        } else {
            check(true, "unique");
        }
        i = j;
    }
    for (size_t g = 0; g < N_SHARED; g++)
        check(shared_groups[g].seen, "allowed sharing \"%s\" (%s, ...) no longer occurs; update the list",
              shared_groups[g].why, form_name(shared_groups[g].forms[0]));
}

/* -- 4. Type sets ----------------------------------------------------------------------------- */
#define VT_PACKED (VT_V | VT_UV | VT_VF)

static void test_typesets(void) {
    check(isa_typeset_map_count(TM_NONE) == 0, "TM_NONE has maps");
    for (unsigned ts = 0; ts < TM__COUNT; ts++) {
        const char *nm = isa_typeset_name(ts);
        check(nm && !strncmp(nm, "TM_", 3) && isa_typeset_what(ts), "type set %u has no name/description", ts);
        if (ts != TM_NONE) check(isa_typeset_map_count(ts) > 0, "%s declares no maps", nm ? nm : "?");
    }
    check(isa_typeset_name(TM__COUNT) == NULL, "isa_typeset_name accepts TM__COUNT");
    for (unsigned i = 0; i < isa_typemap_count; i++) {
        const isa_typemap *m = &isa_typemaps[i];
        const char *nm = isa_typeset_name(m->set);
        if (!check(m->set < TM__COUNT && m->set != TM_NONE, "map %u: bad set %u", i, m->set)) continue;
        check(m->plat_min <= m->plat_max && m->plat_max < P__COUNT, "map %u of %s: bad platform range %u..%u", i, nm,
              m->plat_min, m->plat_max);
        check(!(m->dst & ~(uint32_t)VT_ANY) && !(m->src & ~(uint32_t)VT_ANY), "map %u of %s: bits beyond types", i, nm);
        check(!((m->dst | m->src) & VT_PACKED), "map %u of %s lists a packed immediate type (V/UV/VF)", i, nm);
        check(m->dst | m->src, "map %u of %s admits nothing", i, nm);
    }
    for (int f = 0; f < VISA_FORM__COUNT; f++) {
        unsigned ts = isa_forms[f].typeset;
        if (!check(ts < TM__COUNT, "%s: typeset %u does not exist", form_name(f), ts)) continue;
        if (ts != TM_NONE)
            check(isa_typeset_map_count(ts) > 0, "%s: typeset %s has no maps", form_name(f), isa_typeset_name(ts));
    }

    /* isa_type_legal / isa_types_legal on known facts of the sets */
    static const struct {
        unsigned ts, plat;
        bool dst;
        unsigned type;
        bool want;
    } cases[] = {
        {TM_NONE, P_GEN9, true, VISA_TYPE_BF8, true},
        {TM_INT_ALL, P_GEN11, false, VISA_TYPE_Q, false}, /* no int64 on ICL */
        {TM_INT_ALL, P_GEN9, false, VISA_TYPE_Q, true},
        {TM_INT_ALL, P_XEHPC, true, VISA_TYPE_UQ, true},
        {TM_INT_ALL, P_XEHPG, true, VISA_TYPE_Q, false},
        {TM_INT_ALL, P_XE2, true, VISA_TYPE_F, false},
        {TM_HF_F_DF, P_XE2, true, VISA_TYPE_DF, true},
        {TM_HF_F_DF, P_XE2, true, VISA_TYPE_BF, false},
        {TM_INT8_32, P_XE2, false, VISA_TYPE_V, true}, /* V as a signed int */
        {TM_INT8_32, P_XE2, false, VISA_TYPE_UV, true},
        {TM_INT8_32, P_XE2, false, VISA_TYPE_VF, false},
        {TM_INT8_32, P_XE2, true, VISA_TYPE_V, false}, /* never a dst */
        {TM_F_ONLY, P_XE2, false, VISA_TYPE_VF, true},
        {TM_UD_ONLY, P_XE2, false, VISA_TYPE_V, false}, /* V is signed */
        {TM_MSG_ST_D_F, P_XE2, true, VISA_TYPE_UD, false}, /* stores have no dst */
        {TM_INT64_FP_UNMIXED, P_XELP, true, VISA_TYPE_BF, false},
        {TM_INT64_FP_UNMIXED, P_XEHP, true, VISA_TYPE_BF, true},
        {TM_BF8_TF32_CVT, P_XEHPG, true, VISA_TYPE_HF, false},
        {TM_BF8_TF32_CVT, P_XEHPC, true, VISA_TYPE_HF, true},
        {TM__COUNT, P_XE2, true, VISA_TYPE_UD, false},
        {TM_INT8_32, P__COUNT, true, VISA_TYPE_UD, false},
        {TM_INT8_32, P_XE2, true, VISA_TYPE__COUNT, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check(isa_type_legal(cases[i].ts, cases[i].plat, cases[i].dst, cases[i].type) == cases[i].want,
              "isa_type_legal case %zu (%s, plat %u, %s, type %u) is not %s", i,
              cases[i].ts < TM__COUNT ? isa_typeset_name(cases[i].ts) : "TM__COUNT", cases[i].plat,
              cases[i].dst ? "dst" : "src", cases[i].type, cases[i].want ? "true" : "false");
    check(!isa_types_legal(TM_HF_F_DF, P_XE2, VISA_TYPE_DF, VT_F), "df dst with f src accepted (df is alone)");
    check(isa_types_legal(TM_HF_F_DF, P_XE2, VISA_TYPE_DF, VT_DF), "df dst with df src rejected");
    check(isa_types_legal(TM_HF_F_DF, P_XE2, VISA_TYPE_F, VT_HF | VT_F), "f dst with hf/f srcs rejected");
    check(isa_types_legal(TM_INT_QDD_HF_F_BF_DF, P_XEHPC, VISA_TYPE_Q, VT_D), "mul q = d * d rejected");
    check(!isa_types_legal(TM_INT_QDD_HF_F_BF_DF, P_XEHPC, VISA_TYPE_Q, VT_Q), "mul q = q * q accepted");
    check(isa_types_legal(TM_INT8_32, P_GEN9, -1, VT_V | VT_UD), "no-dst check with V/UD srcs rejected");

    /* the text description */
    char buf[1024];
    for (unsigned ts = 0; ts < TM__COUNT; ts++) {
        size_t n = isa_typeset_describe(ts, buf, sizeof buf);
        const char *nm = isa_typeset_name(ts);
        check(n > 0 && n < sizeof buf && strlen(buf) == n && !strncmp(buf, nm, strlen(nm)),
              "isa_typeset_describe(%s) gave \"%s\"", nm, buf);
        char small[8];
        memset(small, 'x', sizeof small);
        check(isa_typeset_describe(ts, small, sizeof small) == n && strlen(small) == sizeof small - 1,
              "isa_typeset_describe(%s) mishandles a short buffer", nm);
        check(isa_typeset_describe(ts, NULL, 0) == n, "isa_typeset_describe(%s, NULL, 0) != full length", nm);
    }
    isa_typeset_describe(TM_INT_ALL, buf, sizeof buf);
    check(strstr(buf, "\n  all ") && strstr(buf, "\n  Gen9 ") && strstr(buf, "\n  XeHPC+ ") && strstr(buf, " uq"),
          "TM_INT_ALL description lacks its platform lines:\n%s", buf);
}

/* -- 5. Spec pages ---------------------------------------------------------------------------- */
static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *read_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + len, 1, cap - len - 1, fp)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *t = realloc(s, cap * 2);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(fp);
    if (s) s[len] = 0;
    return s;
}

/* Parse "## Opcode": lines "NAME = 0xNN" (a second line is the sub-opcode).  Returns count. */
static int parse_opcode_section(const char *text, char names[2][64], unsigned codes[2]) {
    const char *p = strstr(text, "## Opcode");
    if (!p) return 0;
    p = strchr(p, '\n');
    int n = 0;
    while (p && *p && n < 2) {
        p++;
        if (!strncmp(p, "## ", 3)) break;
        const char *e = strchr(p, '\n');
        char line[160];
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        if (sscanf(line, " %63[A-Za-z0-9_] = %x", names[n], &codes[n]) == 2) n++;
        p = e;
    }
    return n;
}

static void test_spec_pages(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        printf("spec not found, skipping (%s)\n", dir);
        return;
    }
    char *names[512];
    size_t nn = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && nn < sizeof names / sizeof names[0]) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".md")) {
            names[nn] = malloc(l + 1);
            if (names[nn]) memcpy(names[nn++], de->d_name, l + 1);
        }
    }
    closedir(d);
    qsort(names, nn, sizeof names[0], str_cmp);
    check(nn > 0, "no spec pages (*.md) in %s", dir);
    unsigned checked = 0;
    for (size_t i = 0; i < nn; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = read_file(path);
        if (!check(text != NULL, "%s: cannot read", path)) continue;
        char nm[2][64];
        unsigned code[2];
        int n = parse_opcode_section(text, nm, code);
        free(text);
        if (!check(n > 0, "%s: no \"NAME = 0xNN\" line in its \"## Opcode\" section", names[i])) continue;
        checked++;
        /* Known exception: the spec has a page for RT_READ = 0x90, but IGC has no such opcode
        ** (ISA_RESERVED_90) and no reader/printer for it, so the table has no row. */
        if (code[0] == 0x90 && !strcmp(nm[0], "RT_READ") && n == 1) {
            check(isa_form_by_opcode(0x90) < 0, "RT_READ exception is stale: 0x90 now has a row");
            continue;
        }
        int f = isa_form_by_opcode(code[0]);
        if (!check(f >= 0, "%s: %s = 0x%02X has no VISA_OP row", names[i], nm[0], code[0])) continue;
        if (n == 2)
            check(isa_form_sub(f, code[1]) >= 0, "%s: %s sub-opcode %s = 0x%02X has no VISA_SUB row of %s", names[i],
                  nm[0], nm[1], code[1], form_name(f));
    }
    printf("spec: %u pages checked in %s\n", checked, dir);
    for (size_t i = 0; i < nn; i++) free(names[i]);
}

int main(int argc, char **argv) {
    const char *spec = argc > 1 ? argv[1] : "../shared/spec/instructions";
    test_codes();
    test_layouts();
    test_lsc_positions();
    test_dp_positions(spec);
    test_mnemonics();
    test_typesets();
    test_spec_pages(spec);
    printf("%u passed, %u failed\n", n_passed, n_failed);
    return n_failed ? 1 : 0;
}
