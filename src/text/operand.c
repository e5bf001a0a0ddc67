/* operand.c -- the operand syntax of the text front end: vector operands (general, indirect,
** address, predicate, state, address-of, immediate) with their regions and types, raw operands,
** execution sizes; and one vector operand written alone, outside a program (`visa region`).
*/
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* -- Variable names and execution sizes ---------------------------------------------------------- */
bool tp_general_var(txt_parser *tp, uint32_t *id) {
    const char *name;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, tp->p, "expected a variable name");
        return false;
    }
    txt_name *e = tp_name_find(tp, name, n);
    if (e && e->kind == TN_VAR) {
        *id = e->id;
        return true;
    }
    tp_error(tp, name, "undefined variable '%.*s'", (int)n, name);
    return false;
}

bool tp_state_var(txt_parser *tp, uint8_t *cls, uint32_t *id) {
    const char *name;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, tp->p, "expected a surface or sampler name");
        return false;
    }
    txt_name *e = tp_name_find(tp, name, n);
    if (e && (e->kind == TN_SURFACE || e->kind == TN_SAMPLER)) {
        *cls = e->kind == TN_SURFACE ? VS_SURFACE : VS_SAMPLER;
        *id = e->id;
        return true;
    }
    tp_error(tp, name, "undefined surface or sampler '%.*s'", (int)n, name);
    return false;
}

bool tp_exec(txt_parser *tp, uint8_t *exec) {
    const char *at = (tp_skip_ws(tp), tp->p);
    if (!tp_accept(tp, "(")) {
        tp_error(tp, at, "expected an execution size such as (M1, 16)");
        return false;
    }
    uint32_t mask = 0;
    tp_skip_ws(tp);
    if ((*tp->p >= 'A' && *tp->p <= 'Z') || (*tp->p >= 'a' && *tp->p <= 'z')) {
        const char *w;
        size_t n = tp_word(tp, &w);
        if (!txt_enum_parse(&tp->emask, VISA_EN_emask, w, n, &mask)) {
            tp_error(tp, w, "unknown execution mask '%.*s'", (int)n, w);
            return false;
        }
        if (!tp_expect(tp, ",")) return false;
    }
    tp_skip_ws(tp);
    const char *sz_at = tp->p;
    int64_t size;
    if (!tp_int_expr(tp, &size)) return false;
    int code = size > 0 ? ir_exec_code_of((uint64_t)size) : -1;
    if (code < 0) {
        tp_error(tp, sz_at, "invalid execution size %lld (expected 1, 2, 4, 8, 16 or 32)", (long long)size);
        return false;
    }
    if (!tp_expect(tp, ")")) return false;
    *exec = ir_exec_make((unsigned)code, mask);
    return true;
}

/* -- Regions, types and immediates --------------------------------------------------------------- */
static bool parse_region(txt_parser *tp, uint16_t *region) {
    /* <h> | <w,h> | <v;w,h> */
    const char *at = tp->p;
    if (!tp_accept(tp, "<")) {
        tp_error(tp, at, "expected a region");
        return false;
    }
    int64_t a, b = 0, c = 0;
    int parts = 1;
    tp_skip_ws(tp);
    const char *va = tp->p;
    if (!tp_int_expr_in_angle(tp, &a)) return false;
    const char *vb = NULL, *vc = NULL;
    bool semi = false;
    tp_skip_ws(tp);
    tp->region_sep_at = tp->p; /* a ';' or ',' here makes it a source region */
    if (tp_accept(tp, ";")) {
        semi = true;
        tp_skip_ws(tp);
        vb = tp->p;
        if (!tp_int_expr_in_angle(tp, &b) || !tp_expect(tp, ",")) return false;
        tp_skip_ws(tp);
        vc = tp->p;
        if (!tp_int_expr_in_angle(tp, &c)) return false;
        parts = 3;
    } else if (tp_accept(tp, ",")) {
        tp_skip_ws(tp);
        vb = tp->p;
        if (!tp_int_expr_in_angle(tp, &b)) return false;
        parts = 2;
    }
    if (!tp_expect(tp, ">")) return false;
    (void)semi;
    int ca = a >= 0 && a <= 32 ? ir_region_code((unsigned)a) : -1;
    int cb = b >= 0 && b <= 32 ? ir_region_code((unsigned)b) : -1;
    int cc = c >= 0 && c <= 32 ? ir_region_code((unsigned)c) : -1;
    if (parts == 1) {
        if (ca < 0 || a > 4) {
            tp_error(tp, va, "invalid horizontal stride %lld (expected 0, 1, 2 or 4)", (long long)a);
            return false;
        }
        *region = IR_REGION(0, 0, ca);
    } else if (parts == 2) {
        if (ca < 0 || a > 16) {
            tp_error(tp, va, "invalid region width %lld", (long long)a);
            return false;
        }
        if (cb < 0 || b > 4) {
            tp_error(tp, vb, "invalid horizontal stride %lld (expected 0, 1, 2 or 4)", (long long)b);
            return false;
        }
        *region = IR_REGION(0, ca, cb);
    } else {
        if (ca < 0) {
            tp_error(tp, va, "invalid vertical stride %lld (expected 0, 1, 2, 4, 8, 16 or 32)", (long long)a);
            return false;
        }
        if (cb < 0 || b > 16) {
            tp_error(tp, vb, "invalid region width %lld (expected 1, 2, 4, 8 or 16)", (long long)b);
            return false;
        }
        if (cc < 0 || c > 4) {
            tp_error(tp, vc, "invalid horizontal stride %lld (expected 0, 1, 2 or 4)", (long long)c);
            return false;
        }
        *region = IR_REGION(ca, cb, cc);
    }
    return true;
}

static bool parse_type_suffix(txt_parser *tp, uint8_t *type) {
    const char *at = tp->p;
    if (!tp_accept_nows(tp, ":")) {
        tp_error(tp, at, "expected ':' and a type");
        return false;
    }
    const char *w;
    size_t n = tp_word(tp, &w);
    int t = n ? isa_type_from_name(w, n) : -1;
    if (t < 0) {
        tp_error(tp, w, "unknown type '%.*s'", (int)n, w);
        return false;
    }
    *type = (uint8_t)t;
    return true;
}

/* Does the cursor start a floating-point literal (digits with a '.' fraction or exponent)? */
static size_t float_literal_len(const char *s) {
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) return 0;
    const char *d = p;
    while (*p >= '0' && *p <= '9') p++;
    bool frac = false, expo = false;
    if (*p == '.') {
        frac = true;
        p++;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (p == d || (p == d + 1 && frac)) return 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (*q >= '0' && *q <= '9') {
            expo = true;
            while (*q >= '0' && *q <= '9') q++;
            p = q;
        }
    }
    return (frac || expo) ? (size_t)(p - s) : 0;
}

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t f64_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Store an immediate the way IGC's text path does (CISA_create_immed): q/uq keep 64 bits and
** df its 64-bit pattern; every other type keeps the literal's low 32 bits, unextended. */
static uint64_t imm_canonical(uint8_t type, uint64_t v) {
    if (type == VISA_TYPE_Q || type == VISA_TYPE_UQ || type == VISA_TYPE_DF) return v;
    return (uint32_t)v;
}

static bool parse_immediate(txt_parser *tp, ir_vec *v) {
    tp_skip_ws(tp);
    const char *at = tp->p;
    size_t fl = float_literal_len(tp->p);
    v->cls = VC_IMMEDIATE;
    if (fl) {
        char tmp[128];
        if (fl >= sizeof tmp) {
            tp_error(tp, at, "floating-point literal too long");
            return false;
        }
        memcpy(tmp, tp->p, fl);
        tmp[fl] = 0;
        tp->p += fl;
        double d = strtod(tmp, NULL);
        if (!parse_type_suffix(tp, &v->type)) return false;
        if (v->type == VISA_TYPE_F) v->imm = f32_bits((float)d);
        else if (v->type == VISA_TYPE_DF) v->imm = f64_bits(d);
        else {
            tp_error(tp, at, "a floating-point literal needs type :f or :df");
            return false;
        }
        return true;
    }
    int64_t x;
    if (!tp_int_expr(tp, &x)) return false;
    if (!parse_type_suffix(tp, &v->type)) return false;
    if (v->type >= VISA_TYPE_TF32) {
        tp_error(tp, at, "immediates of type %s are not supported", isa_types[v->type].name);
        return false;
    }
    v->imm = imm_canonical(v->type, (uint64_t)x);
    return true;
}

/* -- Vector operands ----------------------------------------------------------------------------- */
/* r[A(k),off]<region>:type, the cursor after "r[". */
static bool vec_indirect(txt_parser *tp, ir_vec *v) {
    const char *name;
    size_t n = tp_ident(tp, &name);
    txt_name *e = n ? tp_name_find(tp, name, n) : NULL;
    if (!e || e->kind != TN_ADDR) {
        tp_error(tp, n ? name : tp->p, "expected an address variable in indirect operand");
        return false;
    }
    v->cls = VC_INDIRECT;
    v->id = e->id;
    int64_t x = 0;
    if (tp_accept(tp, "(")) {
        if (!tp_int_expr(tp, &x) || !tp_expect(tp, ")")) return false;
        if (x < 0 || x > 255) {
            tp_error(tp, name, "address element %lld out of range", (long long)x);
            return false;
        }
    }
    v->addr_elem = (uint8_t)x;
    x = 0;
    if (tp_accept(tp, ",")) {
        tp_skip_ws(tp);
        const char *oat = tp->p;
        if (!tp_int_expr(tp, &x)) return false;
        if (x < -32768 || x > 32767) {
            tp_error(tp, oat, "indirect offset %lld out of range", (long long)x);
            return false;
        }
    }
    v->ind_off = (int16_t)x;
    if (!tp_expect(tp, "]")) return false;
    tp_skip_ws(tp);
    if (!parse_region(tp, &v->region)) return false;
    return parse_type_suffix(tp, &v->type);
}

/* The "[off]" of an address-of, in bytes: a state operand stores dwords, a variable row (GRFs)
** and column (elements). */
static bool addrof_offset(txt_parser *tp, ir_vec *v) {
    int64_t x;
    tp_skip_ws(tp);
    const char *oat = tp->p;
    if (!tp_int_expr(tp, &x) || !tp_expect(tp, "]")) return false;
    if (x < 0 || x > 65535) {
        tp_error(tp, oat, "address-of offset %lld out of range", (long long)x);
        return false;
    }
    if (v->cls == VC_STATE) {
        /* a state operand's offset counts dwords (IGC prints it times 4) */
        if (x % 4 || x / 4 > 255) {
            tp_error(tp, oat, "surface address-of offset must be a multiple of 4 below 1024");
            return false;
        }
        v->row = (uint8_t)(x / 4);
        return true;
    }
    /* the GRF size is the platform's */
    unsigned grf = visa_platform_grf_bytes(tp->m->platform);
    int t = ir_var_type(tp->r, v->id);
    unsigned size = t >= 0 ? isa_types[t].bytes : 1;
    if ((x % grf) % size || x / grf > 255) {
        tp_error(tp, oat,
                 "address-of offset %lld is not a multiple of the element size "
                 "or lies beyond 255 GRFs",
                 (long long)x);
        return false;
    }
    v->row = (uint8_t)(x / grf);
    v->col = (uint8_t)((x % grf) / size);
    return true;
}

/* &V or &V[off], the cursor at '&'; at: the operand's start (its modifier). */
static bool vec_addrof(txt_parser *tp, ir_vec *v, bool allow_addrof, const char *at) {
    if (!allow_addrof) {
        tp_error(tp, tp->p, "address-of operand not allowed here");
        return false;
    }
    tp->p++;
    const char *name;
    size_t n = tp_ident(tp, &name);
    txt_name *e = n ? tp_name_find(tp, name, n) : NULL;
    if (!e || (e->kind != TN_VAR && e->kind != TN_SURFACE && e->kind != TN_SAMPLER)) {
        tp_error(tp, n ? name : tp->p, "undefined variable '%.*s' in address-of", (int)n, n ? name : "");
        return false;
    }
    if (e->kind != TN_VAR) {
        if (v->mod) { /* stored nowhere in a state operand, so never printed (fuzz_parse) */
            tp_error(tp, at, "a surface or sampler operand takes no source modifier");
            return false;
        }
        v->cls = VC_STATE;
        v->state_cls = e->kind == TN_SURFACE ? VS_SURFACE : VS_SAMPLER;
    } else {
        v->cls = VC_ADDROF;
    }
    v->id = e->id;
    return !tp_accept_nows(tp, "[") || addrof_offset(tp, v);
}

static bool starts_immediate(const char *p) {
    return (*p >= '0' && *p <= '9') || *p == '-' || *p == '~' || *p == '(' || *p == '!' || *p == '.' ||
           strncmp(p, "%sizeof", 7) == 0 || strncmp(p, "%DispatchSimd", 13) == 0;
}

/* A(k)<width> of address variable e (name: where it is written). */
static bool vec_address(txt_parser *tp, ir_vec *v, const txt_name *e, const char *name) {
    int64_t a = 0, b = 0;
    v->cls = VC_ADDRESS;
    v->id = e->id;
    if (!tp_expect(tp, "(") || !tp_int_expr(tp, &a) || !tp_expect(tp, ")")) return false;
    if (a < 0 || a > 255) {
        tp_error(tp, name, "address element %lld out of range", (long long)a);
        return false;
    }
    v->row = (uint8_t)a;
    if (!tp_expect(tp, "<")) return false;
    tp_skip_ws(tp);
    const char *wat = tp->p;
    if (!tp_int_expr_in_angle(tp, &b) || !tp_expect(tp, ">")) return false;
    int code = -1;
    for (int c = 0; c <= 5; c++)
        if (b == (1 << c)) code = c;
    if (code < 0) {
        tp_error(tp, wat, "invalid address operand width %lld (expected 1, 2, 4, 8, 16 or 32)", (long long)b);
        return false;
    }
    v->col = (uint8_t)code;
    return true;
}

/* T3(k) or S1(k): surface or sampler e (name: where it is written; at: the operand's start). */
static bool vec_state(txt_parser *tp, ir_vec *v, const txt_name *e, const char *name, const char *at) {
    /* IGC's grammar (CISA.y SrcStateOperand, DstStateOperand: Var(IntExp)) has no modifier */
    if (v->mod) {
        tp_error(tp, at, "a surface or sampler operand takes no source modifier");
        return false;
    }
    int64_t a = 0;
    v->cls = VC_STATE;
    v->state_cls = e->kind == TN_SURFACE ? VS_SURFACE : VS_SAMPLER;
    v->id = e->id;
    if (!tp_expect(tp, "(") || !tp_int_expr(tp, &a) || !tp_expect(tp, ")")) return false;
    if (a < 0 || a > 255) {
        tp_error(tp, name, "state operand offset %lld out of range", (long long)a);
        return false;
    }
    v->row = (uint8_t)a;
    return true;
}

/* V(row,col)<region> of general variable id; both parts may be left out. */
static bool vec_general(txt_parser *tp, ir_vec *v, uint32_t id) {
    int64_t a = 0, b = 0;
    v->cls = VC_GENERAL;
    v->id = id;
    if (tp_accept_nows(tp, "(")) {
        const char *ra = (tp_skip_ws(tp), tp->p);
        if (!tp_int_expr(tp, &a) || !tp_expect(tp, ",")) return false;
        const char *ca = (tp_skip_ws(tp), tp->p);
        if (!tp_int_expr(tp, &b) || !tp_expect(tp, ")")) return false;
        if (a < 0 || a > 255) {
            tp_error(tp, ra, "row offset %lld out of range", (long long)a);
            return false;
        }
        if (b < 0 || b > 255) {
            tp_error(tp, ca, "column offset %lld out of range", (long long)b);
            return false;
        }
        v->row = (uint8_t)a;
        v->col = (uint8_t)b;
    }
    tp_skip_ws(tp);
    if (*tp->p == '<') return parse_region(tp, &v->region);
    v->region = 0; /* no region written (only dpas-style operands may omit it) */
    return true;
}

bool tp_vec_operand(txt_parser *tp, ir_vec *v, bool allow_addrof) {
    memset(v, 0, sizeof *v);
    tp_skip_ws(tp);
    const char *at = tp->p;
    /* source modifier */
    if (tp_accept_nows(tp, "(-abs)")) v->mod = VM_NEG_ABS;
    else if (tp_accept_nows(tp, "(abs)")) v->mod = VM_ABS;
    else if (tp_accept_nows(tp, "(-)")) v->mod = VM_NEG;
    else if (tp_accept_nows(tp, "(~)")) v->mod = VM_NOT;
    tp_skip_ws(tp);
    const char *op_at = tp->p;
    if (tp->p[0] == 'r' && tp->p[1] == '[') {
        tp->p += 2;
        return vec_indirect(tp, v);
    }
    if (*tp->p == '&') return vec_addrof(tp, v, allow_addrof, at);
    if (starts_immediate(tp->p)) {
        if (v->mod) {
            tp_error(tp, at, "source modifier on an immediate");
            return false;
        }
        return parse_immediate(tp, v);
    }
    const char *name;
    size_t n = tp_ident(tp, &name);
    if (!n) {
        tp_error(tp, op_at, "expected an operand");
        return false;
    }
    txt_name *e = tp_name_find(tp, name, n);
    if (!e) {
        tp_error(tp, name, "undefined variable '%.*s'", (int)n, name);
        return false;
    }
    switch (e->kind) {
    case TN_PRED:
        v->cls = VC_PREDICATE;
        v->id = e->id;
        return true;
    case TN_ADDR: return vec_address(tp, v, e, name);
    case TN_SURFACE:
    case TN_SAMPLER: return vec_state(tp, v, e, name, at);
    case TN_VAR: return vec_general(tp, v, e->id);
    default: tp_error(tp, name, "'%.*s' is not a variable", (int)n, name); return false;
    }
}

/* -- Raw operands -------------------------------------------------------------------------------- */
bool tp_raw_operand(txt_parser *tp, ir_raw *raw) {
    const char *name = (tp_skip_ws(tp), tp->p);
    if (!tp_general_var(tp, &raw->id)) return false;
    size_t n = (size_t)(tp->p - name);
    raw->offset = 0;
    if (!tp_accept_nows(tp, ".")) {
        tp_error(tp, tp->p, "expected '.' and a byte offset after raw operand '%.*s'", (int)n, name);
        return false;
    }
    int64_t off;
    const char *oat = tp->p;
    if (*tp->p == '(') {
        if (!tp_int_expr(tp, &off)) return false;
    } else {
        uint64_t u;
        if (!tp_uint_dec(tp, &u)) return false;
        off = (int64_t)u;
    }
    if (off < 0 || off > 0xFFFF) {
        tp_error(tp, oat, "raw operand offset %lld out of range", (long long)off);
        return false;
    }
    raw->offset = (uint16_t)off;
    return true;
}

/* -- One operand alone -------------------------------------------------------------------------
** Parsed by the same operand parser as instructions (tp_vec_operand), over a parser whose only
** name is the operand's own variable.  The variable's type is not declared anywhere, so it is the
** caller's (or a trailing ":type"). */
/* The name an operand starts with (after a source modifier; inside r[...] for an indirect one). */
static size_t lead_name(txt_parser *tp, const char **name, bool *indirect) {
    tp_skip_ws(tp);
    if (*tp->p == '(') {
        const char *close = strchr(tp->p, ')');
        if (close) tp->p = close + 1;
    }
    tp_skip_ws(tp);
    *indirect = tp->p[0] == 'r' && tp->p[1] == '[';
    if (*indirect) tp->p += 2;
    return tp_ident(tp, name);
}

visa_status txt_parse_lone_operand(visa_ctx *ctx, const char *file, const char *text, size_t len,
                                   visa_platform platform, ir_vec *out, int *type) {
    txt_parser tp;
    memset(&tp, 0, sizeof tp);
    visa_module m;
    memset(&m, 0, sizeof m);
    ir_routine r;
    memset(&r, 0, sizeof r);
    m.ctx = ctx;
    m.platform = platform;
    tp.ctx = ctx;
    tp.m = &m;
    tp.r = &r;
    tp.line_no = 1;
    diag_init(&tp.ds, ctx, file, text, len);
    *type = -1;
    bool ok = true, oom = false;
    for (size_t i = 0; ok && i <= len; i++) {
        char c = i < len ? text[i] : 0;
        if (c == '\n' || c == '\r' || (i < len && c == 0)) c = 0x7f; /* reported below */
        ok = tp_buf_append(&tp, &c, 1, 1, (uint32_t)i + 1);
    }
    if (!ok) {
        diag_oom(&tp.ds);
        oom = true;
    } else {
        tp.buf.len--; /* the terminator stays in the buffer, outside the line */
        tp.p = tp.buf.data;
        const char *bad = memchr(tp.buf.data, 0x7f, tp.buf.len);
        const char *name;
        bool indirect;
        size_t n;
        if (bad) {
            tp_error(&tp, bad, "an operand is one line of printable text");
            ok = false;
        } else if ((n = lead_name(&tp, &name, &indirect)) != 0) {
            /* the operand's own name is its variable (an address variable in r[...]) */
            ok = tp_name_add(&tp, name, n, indirect ? TN_ADDR : TN_VAR, indirect ? 0 : ISA_NUM_PREDEF_VARS);
            if (!ok) diag_oom(&tp.ds), oom = true;
        }
        tp.p = tp.buf.data;
        if (ok) ok = tp_vec_operand(&tp, out, false);
        if (ok && out->cls != VC_GENERAL && out->cls != VC_INDIRECT) {
            tp_error(&tp, tp.buf.data,
                     "expected a general operand V(row,col)<region> or an indirect one r[A(k),off]<region>:type");
            ok = false;
        }
        if (ok && out->cls == VC_GENERAL && !out->region) {
            tp_skip_ws(&tp);
            tp_error(&tp, tp.p, "expected a region: <VertStride;Width,HorzStride> or <HorzStride>");
            ok = false;
        }
        if (ok && out->cls == VC_INDIRECT) *type = out->type;
        if (ok && out->cls == VC_GENERAL && tp_accept(&tp, ":")) {
            const char *w;
            size_t wn = tp_word(&tp, &w);
            *type = wn ? isa_type_from_name(w, wn) : -1;
            if (*type < 0) {
                tp_error(&tp, wn ? w : tp.p, "unknown type '%.*s'", (int)wn, wn ? w : "");
                ok = false;
            }
        }
        if (ok) {
            tp_skip_ws(&tp);
            if (*tp.p) {
                tp_error(&tp, tp.p, "unexpected text after the operand");
                ok = false;
            }
        }
    }
    vec_free(ctx, &tp.buf);
    vec_free(ctx, &tp.segs);
    if (tp.buckets) vx_free(ctx, tp.buckets, sizeof(uint32_t) * (tp.bucket_mask + 1));
    vec_free(ctx, &tp.names);
    vec_free(ctx, &tp.name_store);
    ir_routine_free(ctx, &r);
    return ok ? VISA_OK : oom ? VISA_E_NOMEM : VISA_E_SYNTAX;
}
