/* test_gemm.c -- runs examples/gemm.visaasm (2D block loads, dpas, 2D block store) through the
** public API for several matrix sizes and compares C with a plain C matrix product.  The inputs
** are small multiples of 1/4 and 1/8, so every product and partial sum is exact in float and the
** comparison is bit for bit, whatever order the systolic array adds in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa.h"

/* float -> half bits for values exactly representable as normal halves (or zero) */
static uint16_t to_hf(float f) {
    if (f == 0) return 0;
    int e;
    float m = frexpf(fabsf(f), &e); /* f = m * 2^e, m in [0.5, 1) */
    uint16_t mant = (uint16_t)((m * 2 - 1) * 1024);
    return (uint16_t)((f < 0 ? 0x8000 : 0) | (uint16_t)(e - 1 + 15) << 10 | mant);
}

static char *read_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) n = 0;
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    size_t len;
    char *text = read_file(argv[1], &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    visa_module *m = NULL;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK ||
        visa_module_parse_text(ctx, argv[1], text, len, VISA_PLATFORM_XE2, &m) != VISA_OK)
        return 1;
    static const unsigned sizes[][3] = {{8, 16, 16}, {16, 32, 48}, {24, 48, 64}, {64, 64, 128}};
    int pass = 0, fail = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
        uint16_t *a = malloc(sizeof(uint16_t) * M * K), *b = malloc(sizeof(uint16_t) * K * N);
        float *af = malloc(sizeof(float) * M * K), *bf = malloc(sizeof(float) * K * N);
        float *c = calloc((size_t)M * N, sizeof(float));
        for (unsigned i = 0; i < M; i++)
            for (unsigned k = 0; k < K; k++) {
                af[i * K + k] = (float)((int)((i * 7 + k * 3 + s) % 11) - 5) / 4;
                a[i * K + k] = to_hf(af[i * K + k]);
            }
        for (unsigned k = 0; k < K; k++)
            for (unsigned j = 0; j < N; j++) {
                bf[k * N + j] = (float)((int)((k * 5 + j * 2 + s) % 9) - 4) / 8;
                b[k * N + j] = to_hf(bf[k * N + j]);
            }
        visa_buffer bufs[3] = {{(uint8_t *)a, sizeof(uint16_t) * M * K},
                               {(uint8_t *)b, sizeof(uint16_t) * K * N},
                               {(uint8_t *)c, sizeof(float) * M * N}};
        visa_arg args[6];
        memset(args, 0, sizeof args);
        for (int k = 0; k < 3; k++) args[k].kind = VISA_ARG_BUFFER, args[k].buffer = (uint32_t)k;
        args[3].kind = args[4].kind = args[5].kind = VISA_ARG_INT;
        args[3].value = M, args[4].value = N, args[5].value = K;
        visa_run_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.struct_size = sizeof ro;
        ro.platform = VISA_PLATFORM_XE2;
        ro.groups[0] = N / 16;
        ro.groups[1] = M / 8;
        ro.threads = 2;
        visa_status st = visa_module_run(m, &ro, args, 6, bufs, 3, NULL);
        unsigned bad = 0;
        for (unsigned i = 0; st == VISA_OK && i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                double ref = 0;
                for (unsigned k = 0; k < K; k++) ref += (double)af[i * K + k] * bf[k * N + j];
                float want = (float)ref;
                if (memcmp(&want, &c[i * N + j], 4) && bad++ < 3)
                    fprintf(stderr, "  C[%u][%u] = %g, expected %g\n", i, j, c[i * N + j], want);
            }
        if (st == VISA_OK && !bad) pass++;
        else {
            fail++;
            fprintf(stderr, "FAIL gemm %ux%ux%u: %s, %u wrong elements\n", M, N, K, visa_status_str(st), bad);
        }
        free(a), free(b), free(af), free(bf), free(c);
    }
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    free(text);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
