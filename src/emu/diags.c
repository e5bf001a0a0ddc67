/* diags.c -- the emulator's diagnostics catalogue (diags.def) and the one place its rows are
** reported: id and severity come from the row.
*/
#include "diags.h"

static const emu_diag_row rows[EDIAG__COUNT] = {
#define E VISA_SEV_ERROR
#define W VISA_SEV_WARNING
#define N VISA_SEV_NOTE
#define EDIAG(Name, id, sev, fmt) [EDIAG_##Name] = {id, sev, fmt},
#define EFRAME(Name, fmt)
#include "diags.def"
#undef EFRAME
#undef EDIAG
#undef N
#undef W
#undef E
};

const emu_diag_row *emu_diag_row_of(emu_diag_id d) { return &rows[(unsigned)d < EDIAG__COUNT ? d : EDIAG_NONE]; }

void emu_diag_vreport(diag_sink *ds, emu_diag_id d, uint32_t line, uint32_t col, uint64_t offset, const char *fmt,
                      va_list ap) {
    const emu_diag_row *row = emu_diag_row_of(d);
    diag_vat(ds, row->severity, row->id, line, col, offset, fmt, ap);
}

void emu_diag_vreport_src(diag_sink *ds, emu_diag_id d, uint32_t line, uint32_t col, const char *src_file,
                          uint32_t src_line, const char *fmt, va_list ap) {
    const emu_diag_row *row = emu_diag_row_of(d);
    diag_vat_src(ds, row->severity, row->id, line, col, 0, src_file, src_line, fmt, ap);
}

void emu_diag_report(diag_sink *ds, emu_diag_id d, const char *fmt, uint32_t line, uint32_t col, ...) {
    va_list ap;
    va_start(ap, col);
    emu_diag_vreport(ds, d, line, col, 0, fmt, ap);
    va_end(ap);
}

void emu_diag_report_src(diag_sink *ds, emu_diag_id d, const char *fmt, uint32_t line, uint32_t col,
                         const char *src_file, uint32_t src_line, ...) {
    va_list ap;
    va_start(ap, src_line);
    emu_diag_vreport_src(ds, d, line, col, src_file, src_line, fmt, ap);
    va_end(ap);
}

void emu_diag_report_offset(diag_sink *ds, emu_diag_id d, const char *fmt, uint64_t offset, ...) {
    va_list ap;
    va_start(ap, offset);
    emu_diag_vreport(ds, d, 0, 0, offset, fmt, ap);
    va_end(ap);
}
