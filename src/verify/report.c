/* report.c -- the verifier's rule table (rules.def, listed by visa_verify_rule_at) and its
** diagnostics: every rule file reports through vf_report / vf_at_inst.
*/
#include <stdio.h>

#include "verify_int.h"

static const visa_verify_rule rules[VR__COUNT] = {
#define E VISA_SEV_ERROR
#define W VISA_SEV_WARNING
#define VRULE(En, id, sev, spec, what, igc) {id, sev, spec, what, igc},
#include "rules.def"
#undef VRULE
#undef E
#undef W
};

size_t visa_verify_rule_count(void) { return VR__COUNT; }

const visa_verify_rule *visa_verify_rule_at(size_t i) { return i < VR__COUNT ? &rules[i] : NULL; }

/* -- Diagnostics ------------------------------------------------------------------------------- */
static void vf_vreport(vf *v, vrule_id rule, uint32_t line, uint32_t col, uint64_t offset, const char *fmt,
                       va_list ap) {
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* name the routine when the module has several (binary positions do not say which) */
    const char *rname = v->r ? ir_str(v->r, v->r->name) : "";
    bool named = v->r && v->m->routines.len > 1 && !line;
    if (line) {
        diag_at(&v->ds, rules[rule].severity, rules[rule].id, line, col ? col : 1, "%s", msg);
    } else if (named) {
        diag_at_offset(&v->ds, rules[rule].severity, rules[rule].id, offset, "%s (in '%s')", msg, rname);
    } else {
        diag_at_offset(&v->ds, rules[rule].severity, rules[rule].id, offset, "%s", msg);
    }
}

void vf_report(vf *v, vrule_id rule, uint32_t line, uint32_t col, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vf_vreport(v, rule, line, col, offset, fmt, ap);
    va_end(ap);
}

void vf_at_inst(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *fmt, ...) {
    uint32_t line = inst->line, col = inst->col;
    if (line && k >= 0 && k < inst->nopnd && inst->opnd[k].col) {
        line += inst->opnd[k].line_off;
        col = inst->opnd[k].col;
    }
    va_list ap;
    va_start(ap, fmt);
    vf_vreport(v, rule, line, col, inst->offset, fmt, ap);
    va_end(ap);
}
