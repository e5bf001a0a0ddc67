/* verify.c -- the verifier's entry point (visa_module_verify): one run over a module, its rule
** families in order.  No global mutable state: a run lives in a vf.  The rule table and the
** diagnostics are in report.c, the facts the rules share in facts.c.
*/
#include <string.h>

#include "verify_int.h"

/* -- Entry point ------------------------------------------------------------------------------ */
visa_status visa_module_verify(const visa_module *m, const visa_verify_opts *opts, visa_verify_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
    visa_verify_opts o;
    if (!m || !opts || visa__verify_opts_read(opts, &o) != VISA_OK) return VISA_E_ARG;
    opts = &o;
    if ((unsigned)opts->platform >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    vf v;
    memset(&v, 0, sizeof v);
    v.m = m;
    v.plat = (unsigned)opts->platform;
    v.grf = visa_platform_grf_bytes(opts->platform);
    diag_init(&v.ds, m->ctx, m->name, opts->source, opts->source ? opts->source_len : 0);
    vf_check_module(&v);
    for (uint32_t i = 0; i < m->routines.len; i++) {
        v.r = &m->routines.data[i];
        vf_check_decls(&v);
        vf_check_inputs(&v);
        vf_check_labels(&v);
        vf_check_insts(&v);
    }
    if (stats) {
        stats->errors = v.ds.errors;
        stats->warnings = v.ds.warnings;
    }
    if (v.ds.oom) return VISA_E_NOMEM; /* the checks did not all run */
    if (v.ds.errors || ((opts->flags & VISA_VERIFY_WERROR) && v.ds.warnings)) return VISA_E_VERIFY;
    return VISA_OK;
}
