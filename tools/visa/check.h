/* check.h -- `visa run --check=LIST` (the checks themselves are the library's: src/emu/check.c). */
#ifndef VISA_TOOL_CHECK_H
#define VISA_TOOL_CHECK_H

#include <stdint.h>

/* Parse "memcheck,racecheck" / "all" into VISA_CHECK_* bits; -1 on an unknown name. */
int check_parse(const char *list, uint32_t *out);

#endif
