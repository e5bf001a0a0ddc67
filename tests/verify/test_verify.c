/* test_verify.c -- the verifier's tests (issue 6).
**
**   test_verify cases DIR      rule cases (see tests/verify/cases/README.md): each file's good
**                              variant verifies clean, its bad variant gives exactly the expected
**                              diagnostics (rule, severity, line:col); the bad variant, encoded
**                              and decoded, gives the same rules at byte offsets; every rule of
**                              the verifier has at least one failing and one passing case
**   test_verify hex DIR        objects written as hex dumps ("# expect: RULE +0xOFFSET")
**   test_verify ops DIR        every per-instruction kernel verifies without errors on the newest
**                              platform that has all its instructions (Xe2 when it can)
**   test_verify corpus DIR     IGC's dumps (.visaasm and .isa) verify clean on Xe2 (77: absent)
**   test_verify xe-forge DIR   IGC v2.41.5's Xe2 dumps verify without errors on Xe2 (warnings are
**                              printed: the spec's stricter rules IGC's verifier lacks; 77: absent)
**   test_verify spec DIR       opfacts.def operand classes against the pages' "Operand class"
**
** Prints one line per failure and "N passed, N failed" at the end.                           */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"

static unsigned n_passed, n_failed;
static unsigned char covered_bad[VR__COUNT], covered_good[VR__COUNT];

__attribute__((format(printf, 2, 3))) static bool check(bool ok, const char *fmt, ...) {
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

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names of DIR's files ending in ext. */
static char **list_dir(const char *dir, const char *ext, size_t *count) {
    DIR *d = opendir(dir);
    *count = 0;
    if (!d) return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    size_t el = strlen(ext);
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n <= el || strcmp(e->d_name + n - el, ext)) continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
        }
        names[(*count)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*count) qsort(names, *count, sizeof *names, cmp_str);
    return names;
}

static void free_list(char **names, size_t n) {
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* -- Collected diagnostics ---------------------------------------------------------------------- */
typedef struct got_diag {
    char rule[32];
    visa_severity sev;
    uint32_t line, col;
    uint64_t offset;
    char msg[160];
} got_diag;

typedef struct diag_log {
    got_diag d[256];
    unsigned n;
} diag_log;

static void collect(void *ud, const visa_diag *d) {
    diag_log *log = ud;
    if (log->n >= 256) return;
    got_diag *g = &log->d[log->n++];
    snprintf(g->rule, sizeof g->rule, "%s", d->code);
    g->sev = d->severity;
    g->line = d->line;
    g->col = d->col;
    g->offset = d->offset;
    snprintf(g->msg, sizeof g->msg, "%s", d->message);
}

static int rule_index(const char *id) {
    for (size_t i = 0; i < visa_verify_rule_count(); i++)
        if (!strcmp(visa_verify_rule_at(i)->id, id)) return (int)i;
    return -1;
}

/* Parse (text) and verify; returns false if the text does not parse. */
static bool verify_text(const char *name, const char *text, size_t len, visa_platform plat, diag_log *log,
                        visa_module **keep) {
    log->n = 0;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, log, 1000};
    visa_ctx *ctx;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return false;
    visa_module *m;
    if (visa_module_parse_text(ctx, name, text, len, plat, &m) != VISA_OK) {
        visa_ctx_destroy(ctx);
        return false;
    }
    visa_verify_opts vo = {sizeof vo, plat, 0, text, len};
    visa_verify_stats st;
    visa_module_verify(m, &vo, &st);
    if (keep) *keep = m;
    else {
        visa_module_destroy(m);
        visa_ctx_destroy(ctx);
    }
    return true;
}

static void drop_module(visa_module *m) {
    visa_ctx *ctx = visa_module_ctx(m);
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
}

/* -- Rule cases ----------------------------------------------------------------------------------
** A case file holds one program with optional variant sections:
**   //@platform NAME          target (default Xe2)
**   //@good ... //@bad ... //@end   lines only in the good / only in the bad variant
**   //! ^ RULE-ID             (own line) an error expected on the previous line, at the caret
**   //? ^ RULE-ID             the same for a warning
**   //! RULE-ID @COL          the same, with the column written out (for columns 1-3)
** Expectation lines are comments, so line numbers are the file's in both variants.            */
typedef struct expect {
    char rule[32];
    visa_severity sev;
    uint32_t line, col;
    bool seen;
} expect;

static void run_case(const char *dir, const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len;
    char *text = read_all(path, &len);
    if (!check(text != NULL, "%s: cannot read", path)) return;
    char *good = malloc(len + 1), *bad = malloc(len + 1);
    expect ex[64];
    unsigned nex = 0;
    visa_platform plat = VISA_PLATFORM_XE2;
    bool has_good = false, has_bad = false;
    int section = 0; /* 0 common, 1 good, 2 bad */
    uint32_t line = 1, last_code_line = 0;
    size_t gl = 0, bl = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n') e++;
        size_t n = e - i;
        const char *s = text + i;
        bool directive = false;
        if (n >= 9 && !strncmp(s, "//@platform", 11)) {
            char pn[32];
            snprintf(pn, sizeof pn, "%.*s", (int)(n - 12 > 31 ? 31 : n - 12), s + 12);
            check(visa_platform_from_name(pn, &plat) == VISA_OK, "%s:%u: unknown platform '%s'", file, line, pn);
            directive = true;
        } else if (n >= 7 && !strncmp(s, "//@good", 7)) section = 1, has_good = true, directive = true;
        else if (n >= 6 && !strncmp(s, "//@bad", 6)) section = 2, has_bad = true, directive = true;
        else if (n >= 6 && !strncmp(s, "//@end", 6)) section = 0, directive = true;
        else if (n >= 3 && (!strncmp(s, "//!", 3) || !strncmp(s, "//?", 3)) && nex < 64) {
            expect *x = &ex[nex];
            memset(x, 0, sizeof *x);
            x->sev = s[2] == '!' ? VISA_SEV_ERROR : VISA_SEV_WARNING;
            x->line = last_code_line;
            const char *caret = memchr(s, '^', n);
            const char *p = caret ? caret + 1 : s + 3;
            while (p < s + n && *p == ' ') p++;
            size_t rn = 0;
            while (p + rn < s + n && p[rn] != ' ') rn++;
            snprintf(x->rule, sizeof x->rule, "%.*s", (int)(rn < 31 ? rn : 31), p);
            if (caret) x->col = (uint32_t)(caret - s) + 1;
            else {
                const char *at = memchr(p, '@', (size_t)(s + n - p));
                x->col = at ? (uint32_t)atoi(at + 1) : 0;
            }
            check(rule_index(x->rule) >= 0 && x->col > 0, "%s:%u: bad expectation '%.*s'", file, line, (int)n, s);
            nex++;
        } else if (n && strncmp(s, "//", 2)) {
            last_code_line = line;
        }
        /* the variants: lines outside the variant become empty */
        bool in_good = !directive && section != 2, in_bad = !directive && section != 1;
        if (in_good) memcpy(good + gl, s, n), gl += n;
        if (in_bad) memcpy(bad + bl, s, n), bl += n;
        good[gl++] = '\n';
        bad[bl++] = '\n';
        i = e < len ? e + 1 : e;
        line++;
    }
    diag_log *log = calloc(1, sizeof *log);
    /* the good variant is clean */
    if (has_good || !nex) {
        bool ok = verify_text(file, good, gl, plat, log, NULL);
        if (check(ok, "%s: good variant does not parse", file)) {
            for (unsigned i = 0; i < log->n; i++)
                check(false, "%s: good variant: unexpected %s[%s] at %u:%u: %s", file,
                      log->d[i].sev == VISA_SEV_ERROR ? "error" : "warning", log->d[i].rule, log->d[i].line,
                      log->d[i].col, log->d[i].msg);
            if (!log->n && has_good)
                for (unsigned i = 0; i < nex; i++) covered_good[rule_index(ex[i].rule)] = 1;
        }
    }
    /* the bad variant gives exactly the expected diagnostics */
    if (nex || has_bad) {
        visa_module *m = NULL;
        bool ok = verify_text(file, bad, bl, plat, log, &m);
        if (check(ok, "%s: bad variant does not parse", file)) {
            for (unsigned i = 0; i < log->n; i++) {
                got_diag *g = &log->d[i];
                bool matched = false;
                for (unsigned k = 0; k < nex && !matched; k++)
                    if (!ex[k].seen && !strcmp(ex[k].rule, g->rule) && ex[k].sev == g->sev && ex[k].line == g->line &&
                        ex[k].col == g->col)
                        ex[k].seen = matched = true;
                check(matched, "%s: unexpected %s[%s] at %u:%u: %s", file,
                      g->sev == VISA_SEV_ERROR ? "error" : "warning", g->rule, g->line, g->col, g->msg);
            }
            for (unsigned k = 0; k < nex; k++) {
                if (check(ex[k].seen, "%s: expected %s[%s] at %u:%u not reported", file,
                          ex[k].sev == VISA_SEV_ERROR ? "error" : "warning", ex[k].rule, ex[k].line, ex[k].col))
                    covered_bad[rule_index(ex[k].rule)] = 1;
            }
            /* the same program as an object: the same rules, at byte offsets */
            uint8_t *bytes;
            size_t blen;
            unsigned text_n = log->n;
            char text_rules[64][32];
            for (unsigned i = 0; i < text_n && i < 64; i++) memcpy(text_rules[i], log->d[i].rule, 32);
            if (visa_module_encode(m, plat, &bytes, &blen) == VISA_OK) {
                diag_log *blog = calloc(1, sizeof *blog);
                visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, blog, 1000};
                visa_ctx *bctx;
                visa_module *bm;
                if (visa_ctx_create(&desc, &bctx) == VISA_OK) {
                    if (visa_module_decode(bctx, file, bytes, blen, plat, &bm) == VISA_OK) {
                        visa_verify_opts vo = {sizeof vo, plat, 0, NULL, 0};
                        visa_module_verify(bm, &vo, NULL);
                        bool same = blog->n == text_n;
                        for (unsigned i = 0; same && i < text_n && i < 64; i++) {
                            same = !strcmp(blog->d[i].rule, text_rules[i]) && blog->d[i].line == 0;
                            if (same && strcmp(blog->d[i].rule, "V-ROUTINE-DUP") && blog->d[i].rule[2] != 'D' &&
                                blog->d[i].rule[2] != 'I' && blog->d[i].rule[2] != 'A' &&
                                strncmp(blog->d[i].rule, "V-NAME", 6))
                                same = blog->d[i].offset > 0; /* instruction rules carry an offset */
                        }
                        check(same, "%s: the object gives %u diagnostics (first %s at +0x%llx), the text %u", file,
                              blog->n, blog->n ? blog->d[0].rule : "-",
                              blog->n ? (unsigned long long)blog->d[0].offset : 0ull, text_n);
                        visa_module_destroy(bm);
                    }
                    visa_ctx_destroy(bctx);
                }
                free(blog);
                visa_free(visa_module_ctx(m), bytes, blen);
            }
            drop_module(m);
        }
    }
    free(log);
    free(good);
    free(bad);
    free(text);
}

/* -- Rules only objects (or other front ends) can break: parse a base, change the IR, verify --- */
static const char base_prog[] = ".version 4.1\n" /* 1 */
                                ".kernel \"k\"\n" /* 2 */
                                ".decl V32 v_type=G type=d num_elts=32 align=GRF\n" /* 3 */
                                ".decl V33 v_type=G type=d num_elts=32 align=GRF\n" /* 4 */
                                ".decl A0 v_type=A num_elts=4\n" /* 5 */
                                ".decl P1 v_type=P num_elts=16\n" /* 6 */
                                ".decl T6 v_type=T num_elts=1 v_name=T6\n" /* 7 */
                                ".input V32 offset=64 size=128\n" /* 8 */
                                "k_BB_0:\n" /* 9 */
                                "    add (M1, 16) V33(0,0)<1> V32(0,0)<1;1,0> 0x1:d\n" /* 10 */
                                "    mov (M1, 8) r[A0(0),0]<1>:d V32(0,0)<1;1,0>\n" /* 11 */
                                "    (P1) add (M1, 16) V33(0,0)<1> r[A0(0),0]<8;8,1>:d 0x1:d\n" /* 12 */
                                "    jmp (M1, 1) L1\n" /* 13 */
                                "L1:\n" /* 14 */
                                "    ret (M1, 1)\n"; /* 15 */

typedef void (*poke_fn)(visa_module *m);

static ir_inst *inst_at(visa_module *m, uint32_t line) {
    ir_routine *r = &m->routines.data[0];
    for (uint32_t i = 0; i < r->insts.len; i++)
        if (r->insts.data[i].line == line) return &r->insts.data[i];
    return NULL;
}

static void poke_vstride(visa_module *m) { /* general source with a null vertical stride */
    ir_inst *i = inst_at(m, 10);
    i->opnd[1].u.vec.region = IR_REGION(0, 2, 1);
}
static void poke_hstride(visa_module *m) { /* horizontal stride 8 (not representable in text) */
    inst_at(m, 10)->opnd[1].u.vec.region = IR_REGION(2, 2, 5);
}
static void poke_multi_dst(visa_module *m) { /* indirect dst <;8,1> (multi-address) */
    ir_inst *i = inst_at(m, 11);
    i->opnd[0].u.vec.region = IR_REGION(0, 5, 2);
}
static void poke_pred(visa_module *m) { inst_at(m, 12)->pred = 7; } /* P7 is not declared */
static void poke_undefined(visa_module *m) { inst_at(m, 10)->opnd[1].u.vec.id = 30; } /* reserved V30 */
static void poke_align(visa_module *m) { m->routines.data[0].vars.data[0].align = 12; }
static void poke_input_kind(visa_module *m) { m->routines.data[0].inputs.data[0].kind = 4; }
static void poke_func_size(visa_module *m) {
    ir_routine *r = &m->routines.data[0];
    r->is_kernel = 0;
    r->input_size = 40;
    r->inputs.len = 0;
}
static void poke_label_dup(visa_module *m) { /* L1: now defines k_BB_0 again (L1 is left undefined) */
    inst_at(m, 14)->opnd[0].u.label = inst_at(m, 9)->opnd[0].u.label;
}
static void poke_label_undefined(visa_module *m) { /* jmp to a declared label nothing defines */
    ir_routine *r = &m->routines.data[0];
    ir_label l = r->labels.data[0];
    l.defined = 0;
    if (vec_push(visa_module_ctx(m), &r->labels, l)) inst_at(m, 13)->opnd[0].u.label = r->labels.len - 1;
}
static void poke_imm_bool(visa_module *m) { inst_at(m, 10)->opnd[2].u.vec.type = VISA_TYPE_BOOL; }

/* A second base for the page-note rules whose failing values the text parser rejects. */
static const char base_msg[] = ".version 4.1\n" /* 1 */
                               ".kernel \"k\"\n" /* 2 */
                               ".decl V32 v_type=G type=d num_elts=128 align=GRF\n" /* 3 */
                               ".decl V33 v_type=G type=d num_elts=128 align=GRF\n" /* 4 */
                               ".decl V34 v_type=G type=ub num_elts=16 align=GRF\n" /* 5 */
                               "k_BB_0:\n" /* 6 */
                               "    dpas.s8.s8.8.8 (M1, 16) V32.0 V32.0 V33.0 V33(0,0)\n" /* 7 */
                               "    lsc_apndctr_atomic_add.ugm (M1, 16)  V32:d32  bti(0xA0)  V33:d32\n" /* 8 */
                               "    switchjmp (M1, 1) V34(0,0)<0;1,0> (L1)\n" /* 9 */
                               "L1:\n" /* 10 */
                               "    ret (M1, 1)\n"; /* 11 */

/* dpas info operand: W | A << 8 | SD << 16 | RC << 24 */
static ir_opnd *dpas_info(visa_module *m) {
    ir_inst *i = inst_at(m, 7);
    for (int k = 0; k < i->nopnd; k++)
        if (i->opnd[k].kind == 'd') return &i->opnd[k];
    return &i->opnd[0];
}
static void poke_dpas_depth(visa_module *m) { /* SD 3 (the text takes 1, 2, 4, 8 only) */
    ir_opnd *o = dpas_info(m);
    o->u.num = (o->u.num & ~(int64_t)0xFF0000) | (3 << 16);
}
static void poke_dpas_repeat(visa_module *m) { /* RC 9 */
    ir_opnd *o = dpas_info(m);
    o->u.num = (o->u.num & 0xFFFFFF) | ((int64_t)9 << 24);
}
static void poke_apndctr_flat(visa_module *m) { /* AddrType flat (the text takes bti/ss/bss) */
    uint32_t flat = 0;
    isa_enum_parse(VISA_EN_lsc_addr_type, "flat", 4, &flat);
    inst_at(m, 8)->opnd[3].u.num = flat;
}
static void poke_switchjmp_empty(visa_module *m) { inst_at(m, 9)->nopnd = 1; } /* no label */

/* A third base for the data-port and LSC field rules (values the text parser rejects). */
static const char base_dp[] = ".version 4.1\n" /* 1 */
                              ".kernel \"k\"\n" /* 2 */
                              ".decl V32 v_type=G type=ud num_elts=16 align=GRF\n" /* 3 */
                              ".decl V33 v_type=G type=ud num_elts=128 align=GRF\n" /* 4 */
                              ".decl V38 v_type=G type=uq num_elts=16 align=GRF\n" /* 5 */
                              ".decl T6 v_type=T num_elts=1 v_name=T6\n" /* 6 */
                              "k_BB_0:\n" /* 7 */
                              "    gather4_scaled.R (M1, 16) T6 V32(0,0)<0;1,0> V32.0 V33.0\n" /* 8 */
                              "    lsc_load.ugm (M1, 16)  V33:d32  flat[V38]:a64\n" /* 9 */
                              "    ret (M1, 1)\n"; /* 10 */

static void poke_channels_none(visa_module *m) { inst_at(m, 8)->opnd[0].u.num = 0; } /* "0000" */
static void poke_lsc_data_size0(visa_module *m) { inst_at(m, 9)->opnd[7].u.num = 0; } /* DataSize invalid */
static void poke_lsc_addr_size0(visa_module *m) { inst_at(m, 9)->opnd[6].u.num = 0; } /* AddrSize invalid */

typedef struct poke_case {
    const char *rule;
    poke_fn poke;
    uint32_t line, col; /* expected position (text) */
    const char *base; /* NULL: base_prog */
} poke_case;

static void run_pokes(void) {
    static const poke_case cases[] = {
        {"V-REGION-VSTRIDE", poke_vstride, 10, 30, NULL},
        {"V-REGION-HSTRIDE", poke_hstride, 10, 30, NULL},
        {"V-INDIRECT-MULTI-DST", poke_multi_dst, 11, 17, NULL},
        {"V-PRED-CTRL", poke_pred, 12, 5, NULL},
        {"V-OPND-UNDEFINED", poke_undefined, 10, 30, NULL},
        {"V-LABEL-DUP", poke_label_dup, 14, 1, NULL},
        {"V-LABEL-UNDEFINED", poke_label_undefined, 13, 17, NULL},
        {"V-DECL-ALIGN", poke_align, 3, 7, NULL},
        {"V-INPUT-VAR", poke_input_kind, 8, 1, NULL},
        {"V-FUNC-ARG-SIZE", poke_func_size, 2, 1, NULL},
        {"V-IMM-TYPE", poke_imm_bool, 10, 46, NULL},
        {"V-DPAS-DEPTH", poke_dpas_depth, 7, 5, base_msg},
        {"V-DPAS-REPEAT", poke_dpas_repeat, 7, 5, base_msg},
        {"V-LSC-APNDCTR-SURFACE", poke_apndctr_flat, 8, 5, base_msg},
        {"V-SWITCHJMP-COUNT", poke_switchjmp_empty, 9, 5, base_msg},
        {"V-DP-CHANNELS", poke_channels_none, 8, 5, base_dp},
        {"V-LSC-ENCODING", poke_lsc_data_size0, 9, 5, base_dp},
        {"V-LSC-ENCODING", poke_lsc_addr_size0, 9, 5, base_dp},
    };
    diag_log *log = calloc(1, sizeof *log);
    /* the base is clean: the passing case of every poked rule */
    bool base_ok = verify_text("base", base_prog, sizeof base_prog - 1, VISA_PLATFORM_XE2, log, NULL);
    check(base_ok && log->n == 0, "poke base: %u diagnostics (first %s: %s)", log->n, log->n ? log->d[0].rule : "-",
          log->n ? log->d[0].msg : "");
    bool msg_ok = verify_text("base_msg", base_msg, sizeof base_msg - 1, VISA_PLATFORM_XE2, log, NULL);
    check(msg_ok && log->n == 0, "poke base_msg: %u diagnostics (first %s: %s)", log->n, log->n ? log->d[0].rule : "-",
          log->n ? log->d[0].msg : "");
    bool dp_ok = verify_text("base_dp", base_dp, sizeof base_dp - 1, VISA_PLATFORM_XE2, log, NULL);
    check(dp_ok && log->n == 0, "poke base_dp: %u diagnostics (first %s: %s)", log->n, log->n ? log->d[0].rule : "-",
          log->n ? log->d[0].msg : "");
    base_ok = base_ok && msg_ok && dp_ok;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        visa_module *m;
        log->n = 0;
        visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, log, 1000};
        visa_ctx *ctx;
        if (visa_ctx_create(&desc, &ctx) != VISA_OK) continue;
        const char *base = cases[c].base ? cases[c].base : base_prog;
        size_t blen = strlen(base);
        if (visa_module_parse_text(ctx, "poke", base, blen, VISA_PLATFORM_XE2, &m) != VISA_OK) {
            check(false, "poke base does not parse");
            visa_ctx_destroy(ctx);
            continue;
        }
        cases[c].poke(m);
        visa_verify_opts vo = {sizeof vo, VISA_PLATFORM_XE2, 0, base, blen};
        visa_status st = visa_module_verify(m, &vo, NULL);
        bool found = false;
        for (unsigned i = 0; i < log->n; i++)
            if (!strcmp(log->d[i].rule, cases[c].rule) && log->d[i].line == cases[c].line &&
                log->d[i].col == cases[c].col)
                found = true;
        if (check(found && st == VISA_E_VERIFY, "poke %s: expected at %u:%u; got %u diagnostics (first %s at %u:%u)",
                  cases[c].rule, cases[c].line, cases[c].col, log->n, log->n ? log->d[0].rule : "-",
                  log->n ? log->d[0].line : 0, log->n ? log->d[0].col : 0) &&
            base_ok) {
            int ri = rule_index(cases[c].rule);
            covered_bad[ri] = covered_good[ri] = 1;
        }
        visa_module_destroy(m);
        visa_ctx_destroy(ctx);
    }
    /* counts: 33 samplers (the text parser stops at 31), generated */
    {
        char *prog = malloc(8192);
        size_t n = (size_t)snprintf(prog, 8192, ".version 4.1\n.kernel \"k\"\n");
        for (int i = 0; i < 33; i++) n += (size_t)snprintf(prog + n, 8192 - n, ".decl S%d v_type=S num_elts=1\n", i);
        n += (size_t)snprintf(prog + n, 8192 - n, "k_BB_0:\n    ret (M1, 1)\n");
        visa_module *m;
        log->n = 0;
        visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, log, 1000};
        visa_ctx *ctx;
        if (visa_ctx_create(&desc, &ctx) == VISA_OK) {
            /* 31 parse; add two more in the IR, as an object could declare them */
            n = (size_t)snprintf(prog, 8192, ".version 4.1\n.kernel \"k\"\n");
            for (int i = 0; i < 31; i++)
                n += (size_t)snprintf(prog + n, 8192 - n, ".decl S%d v_type=S num_elts=1\n", i);
            n += (size_t)snprintf(prog + n, 8192 - n, "k_BB_0:\n    ret (M1, 1)\n");
            if (visa_module_parse_text(ctx, "count", prog, n, VISA_PLATFORM_XE2, &m) == VISA_OK) {
                visa_verify_opts vo = {sizeof vo, VISA_PLATFORM_XE2, 0, prog, n};
                visa_verify_stats st;
                visa_module_verify(m, &vo, &st);
                bool clean = st.errors == 0 && st.warnings == 0;
                ir_routine *r = &m->routines.data[0];
                ir_state_var extra = r->samplers.data[30];
                bool pushed = vec_push(ctx, &r->samplers, extra) && vec_push(ctx, &r->samplers, extra);
                log->n = 0;
                visa_module_verify(m, &vo, &st);
                bool found = false;
                for (unsigned i = 0; i < log->n; i++)
                    found |= !strcmp(log->d[i].rule, "V-DECL-COUNT") && log->d[i].line == 33 && log->d[i].col == 7;
                if (check(clean && pushed && found, "V-DECL-COUNT: 31 samplers clean (%d), 33 reported at 33:7 (%d)",
                          clean, found))
                    covered_bad[rule_index("V-DECL-COUNT")] = covered_good[rule_index("V-DECL-COUNT")] = 1;
                visa_module_destroy(m);
            }
            visa_ctx_destroy(ctx);
        }
        free(prog);
    }
    free(log);
}

/* -- Objects as hex dumps ------------------------------------------------------------------------ */
static void run_hex(const char *dir) {
    size_t n;
    char **names = list_dir(dir, ".hex", &n);
    for (size_t f = 0; f < n; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len;
        char *text = read_all(path, &len);
        if (!check(text != NULL, "%s: cannot read", path)) continue;
        uint8_t *bytes = malloc(len / 2 + 1);
        size_t nb = 0;
        char rule[32] = "";
        unsigned long long want = 0, good_at = 0;
        unsigned good_byte = 0;
        bool has_good = false;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char *hash = strchr(line, '#');
            if (hash) {
                char *ex = strstr(hash, "expect:");
                if (ex) sscanf(ex, "expect: %31s +0x%llx", rule, &want);
                char *gd = strstr(hash, "good:");
                if (gd) has_good = sscanf(gd, "good: +0x%llx = %x", &good_at, &good_byte) == 2;
                *hash = 0;
            }
            for (char *p = line; *p;) {
                char *end;
                unsigned long v = strtoul(p, &end, 16);
                if (end == p) {
                    p++;
                    continue;
                }
                bytes[nb++] = (uint8_t)v;
                p = end;
            }
        }
        diag_log *log = calloc(1, sizeof *log);
        visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, log, 1000};
        visa_ctx *ctx;
        visa_module *m;
        if (visa_ctx_create(&desc, &ctx) == VISA_OK) {
            if (check(visa_module_decode(ctx, names[f], bytes, nb, VISA_PLATFORM_XE2, &m) == VISA_OK,
                      "%s: does not decode", names[f])) {
                visa_verify_opts vo = {sizeof vo, VISA_PLATFORM_XE2, 0, NULL, 0};
                visa_module_verify(m, &vo, NULL);
                bool found = false;
                for (unsigned i = 0; i < log->n; i++)
                    found |= !strcmp(log->d[i].rule, rule) && log->d[i].offset == want && !log->d[i].line;
                check(found, "%s: expected %s at +0x%llx, got %u (first %s at +0x%llx)", names[f], rule, want, log->n,
                      log->n ? log->d[0].rule : "-", log->n ? (unsigned long long)log->d[0].offset : 0ull);
                visa_module_destroy(m);
                int ri = rule_index(rule);
                if (found && ri >= 0) covered_bad[ri] = 1;
                /* the passing case: the same object with the byte made valid */
                if (has_good && good_at < nb) {
                    bytes[good_at] = (uint8_t)good_byte;
                    log->n = 0;
                    bool clean = false;
                    if (visa_module_decode(ctx, names[f], bytes, nb, VISA_PLATFORM_XE2, &m) == VISA_OK) {
                        visa_module_verify(m, &vo, NULL);
                        clean = true; /* the rule no longer fires (the object has findings of its own) */
                        for (unsigned i = 0; i < log->n; i++) clean &= strcmp(log->d[i].rule, rule) != 0;
                        visa_module_destroy(m);
                    }
                    if (check(clean, "%s: with +0x%llx = %#x: %u diagnostics (first %s)", names[f], good_at, good_byte,
                              log->n, log->n ? log->d[0].rule : "-") &&
                        ri >= 0)
                        covered_good[ri] = 1;
                }
            }
            visa_ctx_destroy(ctx);
        }
        free(log);
        free(bytes);
        free(text);
    }
    free_list(names, n);
}

/* -- The per-instruction kernels ------------------------------------------------------------------
** Kernels that other tests (round trips, the emulator) pin down, but that break a rule of IGC's
** verifier (issue 12) or are written for 32-byte GRFs: verified on `plat` instead (-1: the usual
** choice), with errors of `rule` expected (and required: an entry that no longer applies fails). */
static const struct ops_deviation {
    const char *file;
    int plat;
    const char *rule;
    const char *why;
} OPS_DEVIATIONS[] = {
    {"3D_LOAD.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"INFO.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"RAW_SEND.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"RAW_SENDS.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"VME_FBR.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"VME_IDM.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"VME_IME.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"VME_SIC.visaasm", VISA_PLATFORM_XEHPG, NULL, "raw operands at byte 32: written for 32-byte GRFs"},
    {"DIV.visaasm", VISA_PLATFORM_XELP, "V-TYPE-SUPPORTED",
     "integer div: IGC rejects it from XeHP on; df div: IGC rejects it on XeLP (igc_typemaps.def)"},
    {"MOD.visaasm", VISA_PLATFORM_XELP, NULL, "mod: IGC rejects it from XeHP on"},
    {"DPASW.visaasm", -1, "V-DPAS-ALIGN", "src2 at byte 16 (IGC wants 32-byte alignment)"},
    {"GATHER_SCALED.visaasm", -1, "V-DP-SCALED-EXEC", "SIMD32 (IGC's byte gather stops at 16)"},
    {"SCATTER_SCALED.visaasm", -1, "V-DP-SCALED-EXEC", "SIMD32 (IGC's byte scatter stops at 16)"},
    {"LSC_UNTYPED.visaasm", -1, "V-LSC-CHMASK", "lsc_store_quad .yw (IGC wants x, xy, xyz or xyzw)"},
    {"SRND.visaasm", -1, "V-SRND-NOMASK", "srnd without NoMask (IGC: srnd must use noMask)"},
};

static void run_ops(const char *dir) {
    size_t n;
    char **names = list_dir(dir, ".visaasm", &n);
    check(n > 0, "no kernels in %s", dir);
    unsigned warned = 0;
    for (size_t f = 0; f < n; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len;
        char *text = read_all(path, &len);
        if (!check(text != NULL, "%s: cannot read", path)) continue;
        /* the platform: Xe2 when it has every instruction, else the newest one that does */
        diag_log *log = calloc(1, sizeof *log);
        visa_module *m;
        int plat = -1;
        if (verify_text(names[f], text, len, VISA_PLATFORM_XE2, log, &m)) {
            for (int p = VISA_PLATFORM_XE2; p >= 0 && plat < 0; p = p == VISA_PLATFORM_XE2   ? VISA_PLATFORM_XE3
                                                                    : p == VISA_PLATFORM_XE3 ? VISA_PLATFORM_XEHPC
                                                                                             : p - 1) {
                bool all = true;
                for (uint32_t r = 0; r < m->routines.len; r++)
                    for (uint32_t i = 0; i < m->routines.data[r].insts.len; i++)
                        all = all && vf_form_on_platform(m->routines.data[r].insts.data[i].form, (unsigned)p);
                if (all) plat = p;
            }
            drop_module(m);
        }
        const struct ops_deviation *dev = NULL;
        for (size_t d = 0; d < sizeof OPS_DEVIATIONS / sizeof OPS_DEVIATIONS[0]; d++)
            if (!strcmp(OPS_DEVIATIONS[d].file, names[f])) dev = &OPS_DEVIATIONS[d];
        if (dev && dev->plat >= 0) plat = dev->plat;
        if (check(plat >= 0, "%s: no platform has all its instructions", names[f])) {
            verify_text(names[f], text, len, (visa_platform)plat, log, NULL);
            unsigned errors = 0, expected = 0;
            for (unsigned i = 0; i < log->n; i++) {
                if (dev && dev->rule && !strcmp(log->d[i].rule, dev->rule)) {
                    expected++;
                    printf("  expected: %s (%s) %u:%u: %s[%s]: %s (%s)\n", names[f],
                           visa_platform_name((visa_platform)plat), log->d[i].line, log->d[i].col,
                           log->d[i].sev == VISA_SEV_ERROR ? "error" : "warning", log->d[i].rule, log->d[i].msg,
                           dev->why);
                } else if (log->d[i].sev == VISA_SEV_ERROR) {
                    errors++;
                    printf("  %s (%s) %u:%u: error[%s]: %s\n", names[f], visa_platform_name((visa_platform)plat),
                           log->d[i].line, log->d[i].col, log->d[i].rule, log->d[i].msg);
                } else {
                    warned++;
                    printf("  note: %s (%s) %u:%u: warning[%s]: %s\n", names[f],
                           visa_platform_name((visa_platform)plat), log->d[i].line, log->d[i].col, log->d[i].rule,
                           log->d[i].msg);
                }
            }
            check(errors == 0, "%s: %u errors on %s", names[f], errors, visa_platform_name((visa_platform)plat));
            if (dev && dev->rule)
                check(expected > 0, "%s: the deviation '%s' (%s) no longer applies", names[f], dev->rule, dev->why);
        }
        free(log);
        free(text);
    }
    printf("ops: %zu kernels, %u warnings\n", n, warned);
    free_list(names, n);
}

/* -- IGC's dumps ------------------------------------------------------------------------------------ */
static int run_corpus(const char *dir) {
    size_t nt, nb;
    char **texts = list_dir(dir, ".visaasm", &nt), **objs = list_dir(dir, ".isa", &nb);
    if (!nt && !nb) {
        printf("corpus not found in %s, skipping\n", dir);
        return 77;
    }
    for (int pass = 0; pass < 2; pass++) {
        char **names = pass ? objs : texts;
        size_t n = pass ? nb : nt;
        for (size_t f = 0; f < n; f++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, names[f]);
            size_t len;
            char *data = read_all(path, &len);
            if (!check(data != NULL, "%s: cannot read", path)) continue;
            diag_log *log = calloc(1, sizeof *log);
            visa_ctx_desc desc = {sizeof desc, NULL, NULL, collect, log, 1000};
            visa_ctx *ctx;
            visa_module *m;
            if (visa_ctx_create(&desc, &ctx) == VISA_OK) {
                visa_status st = pass ? visa_module_decode(ctx, names[f], data, len, VISA_PLATFORM_XE2, &m)
                                      : visa_module_parse_text(ctx, names[f], data, len, VISA_PLATFORM_XE2, &m);
                if (check(st == VISA_OK, "%s: does not load", names[f])) {
                    visa_verify_opts vo = {sizeof vo, VISA_PLATFORM_XE2, 0, pass ? NULL : data, pass ? 0 : len};
                    visa_verify_stats vs;
                    visa_module_verify(m, &vo, &vs);
                    check(vs.errors == 0 && vs.warnings == 0, "%s: %u errors, %u warnings (first %s at %u:%u: %s)",
                          names[f], vs.errors, vs.warnings, log->n ? log->d[0].rule : "-", log->n ? log->d[0].line : 0,
                          log->n ? log->d[0].col : 0, log->n ? log->d[0].msg : "");
                    printf("corpus: %s verifies clean on Xe2 (%u routines)\n", names[f], (unsigned)m->routines.len);
                    visa_module_destroy(m);
                }
                visa_ctx_destroy(ctx);
            }
            free(log);
            free(data);
        }
    }
    free_list(texts, nt);
    free_list(objs, nb);
    return 0;
}

/* IGC v2.41.5's own output for Xe2 (shared/corpus/xe-forge): no errors (issue 12). */
static int run_xe_forge(const char *dir) {
    size_t n;
    char **names = list_dir(dir, ".visaasm", &n);
    if (!n) {
        printf("xe-forge corpus not found in %s, skipping\n", dir);
        return 77;
    }
    for (size_t f = 0; f < n; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len;
        char *text = read_all(path, &len);
        if (!check(text != NULL, "%s: cannot read", path)) continue;
        diag_log *log = calloc(1, sizeof *log);
        bool ok = verify_text(names[f], text, len, VISA_PLATFORM_XE2, log, NULL);
        unsigned errors = 0;
        for (unsigned i = 0; i < log->n; i++) {
            bool err = log->d[i].sev == VISA_SEV_ERROR;
            errors += err;
            printf("  %s%s %u:%u: %s[%s]: %s\n", err ? "" : "note: ", names[f], log->d[i].line, log->d[i].col,
                   err ? "error" : "warning", log->d[i].rule, log->d[i].msg);
        }
        if (check(ok, "%s: does not parse", names[f]))
            check(errors == 0, "%s: %u errors on Xe2 (IGC printed it for Xe2)", names[f], errors);
        free(log);
        free(text);
    }
    printf("xe-forge: %zu kernels\n", n);
    free_list(names, n);
    return 0;
}

/* -- opfacts.def against the pages -------------------------------------------------------------------- */
static unsigned page_classes(const char *list) {
    unsigned m = 0;
    if (strstr(list, "general")) m |= OC_G;
    if (strstr(list, "indirect")) m |= OC_I;
    if (strstr(list, "immediate")) m |= OC_M;
    if (strstr(list, "predicate")) m |= OC_P;
    if (strstr(list, "address")) m |= OC_A;
    if (strstr(list, "state")) m |= OC_S;
    return m;
}

static int run_spec(const char *dir) {
    size_t n;
    char **names = list_dir(dir, ".md", &n);
    if (!n) {
        printf("spec not found in %s, skipping\n", dir);
        return 77;
    }
    /* deviations documented in opfacts.def and docs/verifier.md: extra classes IGC accepts */
    static const struct {
        int form;
        unsigned vk, extra;
    } dev[] = {{VISA_FORM_CMP, 0, OC_I}, {VISA_FORM_MOV, 0, OC_A}, {VISA_FORM_MOV, 1, OC_A}, {VISA_FORM_MOVS, 1, OC_S}};
    unsigned pages = 0;
    for (size_t f = 0; f < n; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len;
        char *text = read_all(path, &len);
        if (!text) continue;
        const char *op = strstr(text, "## Opcode");
        unsigned code;
        char *lines[16];
        unsigned nl = 0;
        if (!op || sscanf(strstr(op, "= 0x") ? strstr(op, "= 0x") + 2 : "", "%x", &code) != 1 ||
            strstr(text, "Sub-opcode")) {
            free(text);
            continue;
        }
        for (char *p = text; (p = strstr(p, "Operand class:")) && nl < 16; p++) lines[nl++] = p + 14;
        int form = isa_form_by_opcode(code);
        if (!nl || form < 0 || strchr(isa_forms[form].layout, 'o')) {
            free(text);
            continue;
        }
        pages++;
        for (unsigned k = 0; k < nl; k++) {
            char *eol = strchr(lines[k], '\n');
            if (eol) *eol = 0;
            unsigned want = page_classes(lines[k]), have = vf_opnd_classes(form, k);
            for (size_t d = 0; d < sizeof dev / sizeof dev[0]; d++)
                if (dev[d].form == form && dev[d].vk == k) want |= dev[d].extra;
            check(want == have, "%s: operand %u classes %#x on the page (with deviations), %#x in the table", names[f],
                  k, want, have);
        }
        free(text);
    }
    printf("spec: %u pages with operand classes checked\n", pages);
    free_list(names, n);
    return 0;
}

int main(int argc, char **argv) {
    int rc = 0;
    bool cases = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *mode = argv[i], *dir = argv[i + 1];
        if (!strcmp(mode, "cases")) {
            size_t n;
            char **names = list_dir(dir, ".visaasm", &n);
            check(n > 0, "no cases in %s", dir);
            for (size_t f = 0; f < n; f++) run_case(dir, names[f]);
            printf("cases: %zu files\n", n);
            free_list(names, n);
            cases = true;
        } else if (!strcmp(mode, "hex")) {
            run_hex(dir);
        } else if (!strcmp(mode, "ops")) {
            run_ops(dir);
        } else if (!strcmp(mode, "corpus")) {
            rc = run_corpus(dir);
        } else if (!strcmp(mode, "xe-forge")) {
            rc = run_xe_forge(dir);
        } else if (!strcmp(mode, "spec")) {
            rc = run_spec(dir);
        } else {
            fprintf(stderr, "unknown mode %s\n", mode);
            return 2;
        }
    }
    if (cases) {
        run_pokes();
        unsigned both = 0;
        for (size_t r = 0; r < visa_verify_rule_count(); r++) {
            bool ok = covered_bad[r] && covered_good[r];
            both += ok;
            check(ok, "rule %s has %s", visa_verify_rule_at(r)->id,
                  !covered_bad[r] ? (!covered_good[r] ? "no failing and no passing case" : "no failing case")
                                  : "no passing case");
        }
        printf("rules: %u of %zu have a failing and a passing case\n", both, visa_verify_rule_count());
    }
    printf("%u passed, %u failed\n", n_passed, n_failed);
    if (n_failed) return 1;
    return rc == 77 && !n_passed ? 77 : 0;
}
