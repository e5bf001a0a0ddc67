/* diags.h -- src/program's diagnostics catalogue (diags.def): a site names its row, which gives
** the stable id and the severity; the message is the site's own, printf-checked there.
**
** A site writes vp_diag_offset(ds, PDIAG_X, offset, fmt, ...) (a byte of the zebin, or
** VISA_DIAG_NO_OFFSET), vp_diag_at(ds, PDIAG_X, line, col, fmt, ...) (a position in .ze_info), or
** a reader's wrapper that forwards to vp_diag_vat.  A name that is not a row does not compile.
*/
#ifndef VISA_PROGRAM_DIAGS_H
#define VISA_PROGRAM_DIAGS_H

#include "core/core.h"

typedef enum vp_diag_id {
#define PDIAG(Name, id, sev, meaning) PDIAG_##Name,
#include "diags.def"
#undef PDIAG
    PDIAG__COUNT
} vp_diag_id;

/* The row's severity is an error (a reader that reports it fails). */
bool vp_diag_is_error(vp_diag_id d);

/* Report row d at a text position (line/col 1-based) or at a binary offset. */
void vp_diag_vat(diag_sink *ds, vp_diag_id d, uint32_t line, uint32_t col, uint64_t offset, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));
void vp_diag_at(diag_sink *ds, vp_diag_id d, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void vp_diag_offset(diag_sink *ds, vp_diag_id d, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
