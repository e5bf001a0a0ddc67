/* platform.c -- the platforms of platforms.def: the one table of their names, IGC aliases and GRF
** sizes behind the public platform API, and the tie between visa.h's hand-written visa_platform
** (the installed header stands alone, so it cannot expand the .def) and the table's P_* order. */
#include <string.h>

#include "isa.h"

#define VISA_PLAT(N, text, grf, slm_kb, lsc_simd, caps, aliases) \
    _Static_assert((int)VISA_PLATFORM_##N == (int)P_##N,         \
                   "visa.h: VISA_PLATFORM_" #N " is not the value of its platforms.def row");
#include "platforms.def"
#undef VISA_PLAT
_Static_assert((int)VISA_PLATFORM__COUNT == (int)P__COUNT,
               "visa.h: visa_platform is not one value per platforms.def row");

static const struct {
    const char *name;
    unsigned grf;
    unsigned caps;
    const char *aliases;
} platforms[P__COUNT] = {
#define VISA_PLAT(N, text, grf, slm_kb, lsc_simd, caps, aliases) {text, grf, caps, aliases},
#include "platforms.def"
#undef VISA_PLAT
};

static int ieq(const char *a, size_t an, const char *b) {
    if (strlen(b) != an) return 0;
    for (size_t i = 0; i < an; i++) {
        int x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y) return 0;
    }
    return 1;
}

visa_status visa_platform_from_name(const char *name, visa_platform *out) {
    if (!name || !out) return VISA_E_ARG;
    size_t n = strlen(name);
    for (int p = 0; p < P__COUNT; p++) {
        if (ieq(name, n, platforms[p].name)) {
            *out = (visa_platform)p;
            return VISA_OK;
        }
        for (const char *a = platforms[p].aliases; *a;) {
            const char *e = strchr(a, ' ');
            size_t len = e ? (size_t)(e - a) : strlen(a);
            char tmp[32];
            if (len < sizeof tmp) {
                memcpy(tmp, a, len);
                tmp[len] = 0;
                if (ieq(name, n, tmp)) {
                    *out = (visa_platform)p;
                    return VISA_OK;
                }
            }
            a += len + (e ? 1 : 0);
        }
    }
    return VISA_E_ARG;
}

const char *visa_platform_name(visa_platform p) { return (unsigned)p < P__COUNT ? platforms[p].name : "?"; }

unsigned visa_platform_grf_bytes(visa_platform p) { return (unsigned)p < P__COUNT ? platforms[p].grf : 32; }

bool isa_platform_has(unsigned plat, unsigned caps) { return plat < P__COUNT && (platforms[plat].caps & caps) == caps; }
