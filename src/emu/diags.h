/* diags.h -- the emulator's diagnostics catalogue (diags.def): every diagnostic a site reports
** names its row, which gives the stable id, the severity and the message template.
**
** A site writes emu_diag(ds, EDIAG_X, line, col, args...), emu_diag_offset(ds, EDIAG_X, offset,
** args...), emu_fault(t, EDIAG_X, lane, args...) (access.h) or check.c's finding(R, EDIAG_X, pc,
** args...); the macro pastes the row's template, EDIAG_X_FMT, from diags_fmt.h (which CMake
** generates from diags.def, one string macro per row), so printf's format check reads the
** arguments against the row's template.  A name that is not a row does not compile.
*/
#ifndef VISA_EMU_DIAGS_H
#define VISA_EMU_DIAGS_H

#include "core/core.h"
#include "diags_fmt.h"

typedef enum emu_diag_id {
    EDIAG_NONE, /* no row: a fault no run check takes over (emu_thread.fault_finding) */
#define EDIAG(Name, id, sev, fmt) EDIAG_##Name,
#define EFRAME(Name, fmt)
#include "diags.def"
#undef EFRAME
#undef EDIAG
    EDIAG__COUNT
} emu_diag_id;

typedef struct emu_diag_row {
    const char *id; /* the stable id, e.g. E-RUN-STEP-LIMIT */
    visa_severity severity;
    const char *fmt;
} emu_diag_row;

/* The row of an id (EDIAG_NONE: a row with a NULL id). */
const emu_diag_row *emu_diag_row_of(emu_diag_id d);

/* Report row d at a text position / at a binary offset (VISA_DIAG_NO_OFFSET: none); fmt is the
** row's template or a frame (EFRAME_X_FMT).  Sites use the macros below. */
void emu_diag_report(diag_sink *ds, emu_diag_id d, const char *fmt, uint32_t line, uint32_t col, ...)
    __attribute__((format(printf, 3, 6)));
void emu_diag_report_offset(diag_sink *ds, emu_diag_id d, const char *fmt, uint64_t offset, ...)
    __attribute__((format(printf, 3, 5)));
void emu_diag_vreport(diag_sink *ds, emu_diag_id d, uint32_t line, uint32_t col, uint64_t offset, const char *fmt,
                      va_list ap) __attribute__((format(printf, 6, 0)));

/* At an instruction's vISA position and its program's source position (src_line 0: none; the
** message then ends " at FILE:LINE", core.h's diag_vat_src). */
void emu_diag_vreport_src(diag_sink *ds, emu_diag_id d, uint32_t line, uint32_t col, const char *src_file,
                          uint32_t src_line, const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));
void emu_diag_report_src(diag_sink *ds, emu_diag_id d, const char *fmt, uint32_t line, uint32_t col,
                         const char *src_file, uint32_t src_line, ...) __attribute__((format(printf, 3, 8)));

#define emu_diag(ds, d, ...) emu_diag_report(ds, d, d##_FMT, __VA_ARGS__)
#define emu_diag_offset(ds, d, ...) emu_diag_report_offset(ds, d, d##_FMT, __VA_ARGS__)

#endif
