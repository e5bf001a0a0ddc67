/* check.c -- `visa run --check=LIST`: the list of run checks.  Findings are the library's
** diagnostics (C-<CHECK>-<RULE>), printed like every other diagnostic; docs/observe.md. */
#include "check.h"


#include "visa/visa.h"

int check_parse(const char *list, uint32_t *out) { return visa_checks_from_names(list, out) == VISA_OK ? 0 : -1; }
