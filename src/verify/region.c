/* region.c -- the region rules of 5_operands (Region Restrictions) as data: each check takes one
** region with what it is checked against (execution size, element size, GRF size) and returns
** the rules it breaks.  The verifier reports them at the operand (insts.c); `visa region` and
** visa_region_layout list them for an operand written alone.
*/
#include <stdio.h>

#include "verify_int.h"

/* Region code -> value; -1 for null (0) or an invalid code. */
static int rval(unsigned code) { return code >= 1 && code <= 7 ? (int)ir_region_value(code) : -1; }

static unsigned add(vf_issue *out, unsigned n, vrule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static unsigned add(vf_issue *out, unsigned n, vrule_id rule, const char *fmt, ...) {
    if (n >= VF_REGION_MAX_ISSUES) return n;
    out[n].rule = rule;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out[n].msg, sizeof out[n].msg, fmt, ap);
    va_end(ap);
    return n + 1;
}

unsigned vf_region_shape(unsigned region, bool is_dst, bool indirect, unsigned exec, vf_issue *out) {
    unsigned vc = IR_REGION_V(region), wc = IR_REGION_W(region), hc = IR_REGION_H(region), n = 0;
    int h = rval(hc);
    if (is_dst) {
        if (indirect && wc && !vc) n = add(out, n, VR_INDIRECT_MULTI_DST, "is a multi-address indirect operand");
        if (h < 0 || h > 4) n = add(out, n, VR_REGION_HSTRIDE, "has an invalid horizontal stride");
        else if (h == 0) n = add(out, n, VR_REGION_DST_HSTRIDE, "has horizontal stride 0");
        return n;
    }
    if (indirect && !vc && !wc) return n; /* an indirect source written <HorzStride> (IGC's 1D form) */
    int w = rval(wc);
    if (w < 1 || w > 16)
        n = add(out, n, VR_REGION_WIDTH, "has region width %s", w < 0 ? "null or invalid" : w == 0 ? "0" : "32");
    else if ((unsigned)w > exec)
        n = add(out, n, VR_REGION_EXEC, "has region width %d above the execution size %u", w, exec);
    if (vc > 7 || (vc == 0 && !indirect))
        n = add(out, n, VR_REGION_VSTRIDE, "has %s vertical stride", vc ? "an invalid" : "a null");
    if (h < 0 || h > 4)
        n = add(out, n, VR_REGION_HSTRIDE, "has horizontal stride %s",
                h < 0     ? "null or invalid"
                : h == 8  ? "8"
                : h == 16 ? "16"
                          : "32");
    return n;
}

bool vf_region_last_index(unsigned region, bool is_dst, unsigned exec, uint64_t *last) {
    if (is_dst) {
        int h = rval(IR_REGION_H(region));
        if (h < 0) return false;
        *last = (uint64_t)(exec - 1) * (unsigned)h;
        return true;
    }
    int vs = rval(IR_REGION_V(region)), w = rval(IR_REGION_W(region)), h = rval(IR_REGION_H(region));
    if (vs < 0 || w < 1 || h < 0) return false;
    unsigned width = (unsigned)w < exec ? (unsigned)w : exec, rows = exec / width;
    *last = (uint64_t)(rows - 1) * (unsigned)vs + (uint64_t)(width - 1) * (unsigned)h;
    return true;
}

bool vf_region_col(unsigned col, unsigned type_bytes, unsigned grf, const char *name, vf_issue *out) {
    if (col * type_bytes < grf) return false;
    out->rule = VR_REGION_COL;
    if (name)
        snprintf(out->msg, sizeof out->msg, "column offset %u of '%s' (%u bytes) crosses the %u-byte GRF", col, name,
                 col * type_bytes, grf);
    else
        snprintf(out->msg, sizeof out->msg, "column offset %u (%u bytes) crosses the %u-byte GRF", col,
                 col * type_bytes, grf);
    return true;
}

bool vf_region_span(uint64_t first, uint64_t last, unsigned grf, bool split, vf_issue *out) {
    uint64_t grfs = last / grf - first / grf + 1;
    if (grfs <= 2) return false;
    out->rule = split ? VR_REGION_GRF_SPAN_SPLIT : VR_REGION_GRF_SPAN;
    snprintf(out->msg, sizeof out->msg, "spans %llu GRFs of %u bytes (at most 2%s)", (unsigned long long)grfs, grf,
             split ? "; vISA splits it" : "");
    return true;
}

/* -- One operand written alone (visa_region_layout) -------------------------------------------- */
#include <string.h>

#include "ir/ctrl.h"
#include "text/text.h"

static void put_issue(visa_region *out, const char *what, const char *sep, const vf_issue *is) {
    if (out->nbroken >= VISA_REGION_MAX_BROKEN) return;
    visa_region_break *b = &out->broken[out->nbroken++];
    const visa_verify_rule *rule = visa_verify_rule_at(is->rule);
    b->id = rule->id;
    b->severity = rule->severity;
    snprintf(b->message, sizeof b->message, "%s%s%s", what, sep, is->msg);
}

visa_status visa_region_layout(visa_ctx *ctx, const char *operand, const visa_region_opts *opts_in, visa_region *out) {
    if (!ctx || !operand || !opts_in || !out || out->struct_size < sizeof *out) return VISA_E_ARG;
    visa_region_opts o;
    if (visa__region_opts_read(opts_in, &o) != VISA_OK) return VISA_E_ARG;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    size_t len = strlen(operand);
    diag_sink ds;
    diag_init(&ds, ctx, "<operand>", operand, len);
    if ((unsigned)o.platform >= VISA_PLATFORM__COUNT) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "unknown platform %d", (int)o.platform);
        return VISA_E_ARG;
    }
    if (ir_exec_code_of(o.exec_size) < 0) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "invalid execution size %u (expected 1, 2, 4, 8, 16 or 32)",
                o.exec_size);
        return VISA_E_ARG;
    }
    int want = -1;
    if (o.type && (want = isa_type_from_name(o.type, strlen(o.type))) < 0) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "unknown type '%s'", o.type);
        return VISA_E_ARG;
    }
    ir_vec x;
    int written;
    visa_status st = txt_parse_lone_operand(ctx, "<operand>", operand, len, o.platform, &x, &written);
    if (st != VISA_OK) return st;
    if (want >= 0 && written >= 0 && want != written) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "the operand's type is %s, the type given is %s",
                isa_types[written].name, isa_types[want].name);
        return VISA_E_ARG;
    }
    int t = want >= 0 ? want : written;
    if (t < 0) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "no element type: give one, or write the operand with :type");
        return VISA_E_ARG;
    }
    if (isa_types[t].cls == TC_PACKED || isa_types[t].cls == TC_BOOL) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1, "type %s is not a register element type", isa_types[t].name);
        return VISA_E_ARG;
    }
    const unsigned exec = o.exec_size, ts = isa_types[t].bytes, grf = visa_platform_grf_bytes(o.platform);
    const unsigned vc = IR_REGION_V(x.region), wc = IR_REGION_W(x.region);
    const unsigned vs = ir_region_value(vc), hs = ir_region_value(IR_REGION_H(x.region));
    unsigned w = ir_region_value(wc);
    out->exec_size = exec;
    out->type_bytes = ts;
    out->grf_bytes = grf;
    snprintf(out->type, sizeof out->type, "%s", isa_types[t].name);
    out->destination = !vc && !wc; /* <HorzStride> */
    out->indirect = x.cls == VC_INDIRECT;
    out->multi_address = out->indirect && !vc && wc;
    out->row = x.row;
    out->col = x.col;
    if (out->destination) w = exec;
    if (!w || w > exec) w = exec; /* a null or too wide row (a broken rule): one row */
    const unsigned rows = exec / w;
    if (out->indirect && o.naddrs < (out->multi_address ? rows : 0)) {
        diag_at(&ds, VISA_SEV_ERROR, "E-ARG", 1, 1,
                "a multi-address operand takes a row address from each of %u address elements; %zu given", rows,
                o.naddrs);
        return VISA_E_ARG;
    }
    /* the spec's pseudo-code: element i*VertStride + j*HorzStride of row i, lane j of the row;
    ** a destination is one row of exec lanes, HorzStride apart */
    const int64_t first =
        out->indirect ? (int64_t)(o.naddrs ? o.addrs[0] : 0) + x.ind_off : (int64_t)x.row * grf + (int64_t)x.col * ts;
    for (unsigned i = 0; i < exec; i++) {
        unsigned r = i / w, j = i % w;
        if (out->multi_address) out->lane_byte[i] = (int64_t)o.addrs[r] + x.ind_off + (int64_t)j * hs * ts;
        else out->lane_byte[i] = first + ((int64_t)r * (out->destination ? 0 : vs) + (int64_t)j * hs) * ts;
    }
    /* the rules, as the verifier checks them: the shape of every region, and the column and GRF
    ** span of a general operand (its variable GRF-aligned, the JIT's placement) */
    const char *what = out->destination ? "the destination" : "the source";
    vf_issue is[VF_REGION_MAX_ISSUES];
    unsigned n = vf_region_shape(x.region, out->destination, out->indirect, exec, is);
    for (unsigned i = 0; i < n; i++) put_issue(out, what, " ", &is[i]);
    uint64_t last_idx;
    if (!out->indirect) {
        if (vf_region_col(x.col, ts, grf, NULL, &is[0])) put_issue(out, what, ": ", &is[0]);
        if (vf_region_last_index(x.region, out->destination, exec, &last_idx) &&
            vf_region_span((uint64_t)first, (uint64_t)first + last_idx * ts + ts - 1, grf, false, &is[0]))
            put_issue(out, what, " ", &is[0]);
    }
    return VISA_OK;
}
