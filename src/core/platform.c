/* platform.c -- platform names and GRF sizes (platforms.def). */
#include <string.h>

#include "core.h"
#include "isa/isa.h"

static const struct {
    const char *name;
    unsigned grf;
    const char *aliases;
} platforms[VISA_PLATFORM__COUNT] = {
#define VISA_PLAT(N, text, grf, slm_kb, aliases) {text, grf, aliases},
#include "isa/platforms.def"
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
    for (int p = 0; p < VISA_PLATFORM__COUNT; p++) {
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

const char *visa_platform_name(visa_platform p) {
    return (unsigned)p < VISA_PLATFORM__COUNT ? platforms[p].name : "?";
}

unsigned visa_platform_grf_bytes(visa_platform p) {
    return (unsigned)p < VISA_PLATFORM__COUNT ? platforms[p].grf : 32;
}
