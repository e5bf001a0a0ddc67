/* check.c -- `visa run --check=LIST`: the list of run checks.  Findings are the library's
** diagnostics (C-<CHECK>-<RULE>), printed like every other diagnostic; docs/observe.md. */
#include "check.h"

#include <string.h>

#include "visa/visa.h"

int check_parse(const char *list, uint32_t *out) {
    static const struct {
        const char *name;
        uint32_t bit;
    } names[] = {{"memcheck", VISA_CHECK_MEMCHECK},
                 {"initcheck", VISA_CHECK_INITCHECK},
                 {"racecheck", VISA_CHECK_RACECHECK},
                 {"synccheck", VISA_CHECK_SYNCCHECK},
                 {"all", VISA_CHECK_ALL}};
    *out = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] && (strlen(names[k].name) != n || strncmp(p, names[k].name, n))) k++;
        if (k == sizeof names / sizeof names[0]) return -1;
        *out |= names[k].bit;
        if (!p[n]) return 0;
        p += n + 1;
    }
}
