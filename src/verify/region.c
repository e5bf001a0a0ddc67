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
                h < 0 ? "null or invalid" : h == 8 ? "8" : h == 16 ? "16" : "32");
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
