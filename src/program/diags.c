/* diags.c -- src/program's diagnostics catalogue (diags.def) and the one place its rows are
** reported: id and severity come from the row.
*/
#include "diags.h"

typedef struct vp_diag_row {
    const char *id;
    visa_severity severity;
} vp_diag_row;

static const vp_diag_row rows[PDIAG__COUNT] = {
#define E VISA_SEV_ERROR
#define W VISA_SEV_WARNING
#define N VISA_SEV_NOTE
#define PDIAG(Name, id, sev, meaning) [PDIAG_##Name] = {id, sev},
#include "diags.def"
#undef PDIAG
#undef N
#undef W
#undef E
};

bool vp_diag_is_error(vp_diag_id d) { return rows[d].severity == VISA_SEV_ERROR; }

void vp_diag_vat(diag_sink *ds, vp_diag_id d, uint32_t line, uint32_t col, uint64_t offset, const char *fmt,
                 va_list ap) {
    diag_vat(ds, rows[d].severity, rows[d].id, line, col, offset, fmt, ap);
}

void vp_diag_at(diag_sink *ds, vp_diag_id d, uint32_t line, uint32_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vp_diag_vat(ds, d, line, col, 0, fmt, ap);
    va_end(ap);
}

void vp_diag_offset(diag_sink *ds, vp_diag_id d, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vp_diag_vat(ds, d, 0, 0, offset, fmt, ap);
    va_end(ap);
}
