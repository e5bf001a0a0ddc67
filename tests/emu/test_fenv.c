/* test_fenv.c -- a library caller's floating-point environment does not reach the emulator
** (issue 13): saxpy (y = a*x + y, one fused mad per lane, %cr0 round to nearest even) run under
** FE_UPWARD must give the same bits as under FE_TONEAREST, and both must equal fmaf computed here
** in round to nearest; the caller's rounding mode is still FE_UPWARD afterwards. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa.h"


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

/* x = i / 3 (inexact), y = 1 + i / 7, a = 0.1: most lanes' mad rounds differently upward */
static int run(visa_module *m, int mode, uint32_t out[16]) {
    float x[16], y[16];
    for (int i = 0; i < 16; i++) x[i] = (float)i / 3.0f, y[i] = 1.0f + (float)i / 7.0f;
    visa_buffer bufs[2] = {{(uint8_t *)x, sizeof x}, {(uint8_t *)y, sizeof y}};
    visa_arg args[4];
    memset(args, 0, sizeof args);
    args[0].kind = args[1].kind = VISA_ARG_BUFFER;
    args[1].buffer = 1;
    args[2].kind = VISA_ARG_FLOAT, args[2].fvalue = 0.1;
    args[3].kind = VISA_ARG_INT, args[3].value = 16;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    fesetround(mode);
    visa_status st = visa_module_run(m, &ro, args, 4, bufs, 2, NULL);
    int after = fegetround();
    fesetround(FE_TONEAREST);
    memcpy(out, y, sizeof y);
    return st == VISA_OK && after == mode ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    size_t len;
    char *text = read_file(argv[1], &len);
    visa_ctx *ctx;
    visa_module *m = NULL;
    if (!text || visa_ctx_create(NULL, &ctx) != VISA_OK ||
        visa_module_parse_text(ctx, argv[1], text, len, VISA_PLATFORM_XE2, &m) != VISA_OK) {
        fprintf(stderr, "cannot load %s\n", argv[1]);
        return 2;
    }
    int pass = 0, fail = 0;
    uint32_t near[16], up[16];
    if (run(m, FE_TONEAREST, near)) fail++, fprintf(stderr, "FAIL run under FE_TONEAREST\n");
    else pass++;
    if (run(m, FE_UPWARD, up)) fail++, fprintf(stderr, "FAIL run under FE_UPWARD (or the mode was not restored)\n");
    else pass++;
    unsigned differ_up = 0;
    for (int i = 0; i < 16; i++) {
        /* the model: one rounding to nearest of a*x + y in float */
        float e = fmaf((float)0.1, (float)i / 3.0f, 1.0f + (float)i / 7.0f);
        uint32_t eb;
        memcpy(&eb, &e, 4);
        fesetround(FE_UPWARD);
        volatile float xi = (float)i / 3.0f, yi = 1.0f + (float)i / 7.0f;
        float u = fmaf((float)0.1, xi, yi);
        fesetround(FE_TONEAREST);
        differ_up += memcmp(&u, &e, 4) != 0;
        if (near[i] == eb && up[i] == eb) pass++;
        else
            fail++, fprintf(stderr, "FAIL lane %d: nearest 0x%08x, upward 0x%08x, expected 0x%08x\n", i, near[i], up[i],
                            eb);
    }
    /* the test can only fail if rounding upward changes some lane */
    if (differ_up) pass++;
    else fail++, fprintf(stderr, "FAIL no lane rounds differently upward: the inputs do not test anything\n");
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    free(text);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
