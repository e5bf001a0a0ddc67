/* bench_scale.c -- growth of fmt (parse + print) and verify time with the number of kernels and
** of labels: 25k, 50k and 100k minimal kernels, and one kernel with 25k, 50k and 100k labels.
** Linear code doubles its time per doubling (ratio ~2); a quadratic step shows as ~4. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "visa/visa.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static visa_status discard(void *ud, const char *data, size_t len) {
    (void)data;
    *(size_t *)ud += len;
    return VISA_OK;
}

/* kernels: n kernels of one instruction; labels: one kernel with n labels, each jumped to */
static char *generate(int kernels, unsigned n, size_t *len) {
    size_t cap = (size_t)n * 64 + 256, at = 0;
    char *t = malloc(cap);
    at += (size_t)snprintf(t + at, cap - at, ".version 4.1\n");
    if (kernels) {
        for (unsigned i = 0; i < n; i++)
            at += (size_t)snprintf(t + at, cap - at, ".kernel \"k%u\"\n    ret (M1, 1)\n", i);
    } else {
        at += (size_t)snprintf(t + at, cap - at, ".kernel \"labels\"\n");
        for (unsigned i = 0; i < n; i++) at += (size_t)snprintf(t + at, cap - at, "    jmp (M1, 1) L%u\nL%u:\n", i, i);
        at += (size_t)snprintf(t + at, cap - at, "    ret (M1, 1)\n");
    }
    *len = at;
    return t;
}

int main(void) {
    visa_ctx *ctx;
    if (visa_ctx_create(NULL, &ctx) != VISA_OK) return 1;
    static const unsigned sizes[] = {25000, 50000, 100000};
    for (int kernels = 1; kernels >= 0; kernels--) {
        double prev_fmt = 0, prev_verify = 0;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t len, out = 0;
            char *text = generate(kernels, sizes[s], &len);
            double t0 = now();
            visa_module *m = NULL;
            visa_status st = visa_module_parse_text(ctx, "scale", text, len, VISA_PLATFORM_XE2, &m);
            if (st == VISA_OK) st = visa_module_print(m, NULL, discard, &out);
            double t1 = now();
            visa_verify_opts vo;
            memset(&vo, 0, sizeof vo);
            vo.struct_size = sizeof vo;
            vo.platform = VISA_PLATFORM_XE2;
            visa_status vs = m ? visa_module_verify(m, &vo, NULL) : VISA_E_ARG;
            double t2 = now();
            printf("%7u %-7s  fmt %7.3f s  verify %7.3f s  (%s, %s)\n", sizes[s], kernels ? "kernels" : "labels",
                   t1 - t0, t2 - t1, visa_status_str(st), visa_status_str(vs));
            if (prev_fmt > 0)
                printf("%17s  ratio %.2f         ratio %.2f\n", "", (t1 - t0) / prev_fmt, (t2 - t1) / prev_verify);
            prev_fmt = t1 - t0;
            prev_verify = t2 - t1;
            visa_module_destroy(m);
            free(text);
        }
    }
    visa_ctx_destroy(ctx);
    return 0;
}
