/* operand.c -- one vector operand written alone, outside a program (`visa region`): parsed by
** the same operand parser as instructions (tp_vec_operand), over a parser whose only name is the
** operand's own variable.  The variable's type is not declared anywhere, so it is the caller's
** (or a trailing ":type").
*/
#include <string.h>

#include "text.h"

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

visa_status txt_parse_lone_operand(visa_ctx *ctx, const char *file, const char *text, size_t len, visa_platform platform,
                            ir_vec *out, int *type) {
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
            tp_error(&tp, tp.buf.data, "expected a general operand V(row,col)<region> or an indirect one r[A(k),off]<region>:type");
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
