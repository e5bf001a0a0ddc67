/* consumer.c -- a program outside the tree, built against an installed visa (tests/install/run.sh):
** parse a tiny kernel, print it, verify it, run it, and check what it computed: out[i] = in[i] + 1
** over 8 lanes, worked out here. */
#include <stdio.h>
#include <string.h>

#include <visa/visa.h>

static const char *KERNEL = ".version 4.1\n"
                            ".kernel \"inc\"\n"
                            ".decl V32 v_type=G type=uq num_elts=1 align=qword\n"
                            ".decl V33 v_type=G type=d num_elts=8 align=GRF\n"
                            ".decl V34 v_type=G type=uq num_elts=8 align=GRF\n"
                            ".input V32 offset=64 size=8\n"
                            ".kernel_attr SimdSize=8\n"
                            ".function \"inc_BB_0\"\n"
                            "inc_BB_0:\n"
                            "    mov (M1, 8) V34(0,0)<1> V32(0,0)<0;1,0>\n"
                            "    lsc_load.ugm (M1, 1)  V33:d32x8t  flat[V34]:a64\n"
                            "    add (M1, 8) V33(0,0)<1> V33(0,0)<1;1,0> 0x1:d\n"
                            "    lsc_store.ugm (M1, 1)  flat[V34]:a64  V33:d32x8t\n"
                            "    ret (M1, 1)\n";

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, d->code, d->message);
}

int main(void) {
    int failed = 0;
#define CHECK(c)                                                 \
    do {                                                         \
        if (!(c)) {                                              \
            fprintf(stderr, "consumer: check failed: %s\n", #c); \
            failed++;                                            \
        }                                                        \
    } while (0)
    unsigned major = 99;
    const char *version = visa_version(&major, NULL, NULL);
    CHECK(!strcmp(version, VISA_VERSION_STRING) && major == VISA_VERSION_MAJOR);

    visa_ctx_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.on_diag = on_diag;
    visa_ctx *ctx = NULL;
    CHECK(visa_ctx_create(&desc, &ctx) == VISA_OK);
    visa_module *m = NULL;
    CHECK(visa_module_parse_text(ctx, "inc", KERNEL, strlen(KERNEL), VISA_PLATFORM_XE2, &m) == VISA_OK);
    if (!m) return 1;

    char *text = NULL;
    size_t len = 0;
    visa_print_opts po = {sizeof po, VISA_PRINT_STRIP_COMMENTS};
    CHECK(visa_module_print_to_buffer(m, &po, &text, &len) == VISA_OK);
    CHECK(text && strstr(text, ".kernel \"inc\"") && strstr(text, "add (M1, 8)"));
    visa_free(ctx, text, len + 1);

    visa_verify_opts vo = {sizeof vo, VISA_PLATFORM_XE2, VISA_VERIFY_WERROR, KERNEL, strlen(KERNEL)};
    visa_verify_stats vs;
    CHECK(visa_module_verify(m, &vo, &vs) == VISA_OK && vs.errors == 0 && vs.warnings == 0);

    int32_t data[8];
    for (int i = 0; i < 8; i++) data[i] = 10 * i - 3;
    visa_buffer buf = {(uint8_t *)data, sizeof data};
    visa_arg arg;
    memset(&arg, 0, sizeof arg);
    arg.kind = VISA_ARG_BUFFER;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    visa_run_stats rs;
    CHECK(visa_module_run(m, &ro, &arg, 1, &buf, 1, &rs) == VISA_OK && rs.threads == 1);
    for (int i = 0; i < 8; i++) CHECK(data[i] == 10 * i - 3 + 1);

    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    printf("consumer (visa %s): %s\n", version, failed ? "FAILED" : "ok");
    return failed != 0;
}
