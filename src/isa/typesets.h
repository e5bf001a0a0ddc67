/* typesets.h -- type-set ids used by the table's typeset column, one per VISA_TMSET row of
** typemaps.def (the maps themselves are expanded in isa.c: isa_typemaps[]). */
#ifndef VISA_TYPESETS_H
#define VISA_TYPESETS_H
typedef enum isa_typeset {
#define VISA_TMSET(N, what) N,
#define VISA_TM(N, plat_min, plat_max, dst, src)
#include "typemaps.def"
#undef VISA_TMSET
#undef VISA_TM
    TM__COUNT
} isa_typeset;
#endif
