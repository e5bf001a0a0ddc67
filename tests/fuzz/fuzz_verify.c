/* fuzz_verify.c -- libFuzzer harness for the verifier's promise to the emulator.  The input is
** vISA text, or an object when it starts with the magic "CISA".  What parses (decodes) is
** verified for Xe2; what verifies with no errors is run (first kernel, 2 groups of 2 threads, a
** step limit, 1 KiB buffers for 8-byte inputs and surfaces, the value 3 for other inputs).
** Verified code may fail at run time only as a defined run-time error: VISA_E_RUNTIME,
** VISA_E_UNSUPPORTED (or a launch the kernel's attributes reject, VISA_E_ARG) together with an
** error diagnostic.  A crash, a sanitizer report, a hang past the step limit, a failure without
** an error diagnostic or VISA_OK with one is a finding (abort). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa.h"

enum { MAX_ARGS = 32, BUF_BYTES = 1024 };

static void count_errors(void *ud, const visa_diag *d) {
    if (d->severity == VISA_SEV_ERROR) ++*(unsigned *)ud;
}

static void run(const visa_module *m, unsigned *errors) {
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    if (visa_kernel_get_info(m, NULL, VISA_PLATFORM_XE2, &ki) != VISA_OK) return; /* no kernel */
    visa_arg args[MAX_ARGS];
    visa_buffer bufs[MAX_ARGS];
    size_t nargs = 0, nbufs = 0, n = visa_kernel_input_count(m, NULL);
    for (size_t i = 0; i < n && nargs < MAX_ARGS; i++) {
        visa_input_info in;
        if (visa_kernel_input_at(m, NULL, VISA_PLATFORM_XE2, i, &in) != VISA_OK) abort();
        if (!in.takes_arg) continue;
        memset(&args[nargs], 0, sizeof args[nargs]);
        if (in.role == VISA_INPUT_SURFACE || in.size == 8) {
            args[nargs].kind = VISA_ARG_BUFFER;
            args[nargs].buffer = (uint32_t)nbufs;
            bufs[nbufs].data = malloc(BUF_BYTES);
            bufs[nbufs].size = BUF_BYTES;
            for (size_t k = 0; k < BUF_BYTES; k++) bufs[nbufs].data[k] = (uint8_t)k;
            nbufs++;
        } else {
            args[nargs].kind = VISA_ARG_INT;
            args[nargs].value = 3;
        }
        nargs++;
    }
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = 2;
    ro.group_size[0] = 2;
    ro.threads = 1;
    ro.max_steps = 5000;
    *errors = 0;
    visa_status s = visa_module_run(m, &ro, args, nargs, bufs, nbufs, NULL);
    for (size_t i = 0; i < nbufs; i++) free(bufs[i].data);
    if (nargs == MAX_ARGS) return; /* more inputs than we bind: "too few arguments" is fine */
    if (s == VISA_OK && *errors) abort(); /* success with an error diagnostic */
    if (s == VISA_OK || s == VISA_E_NOMEM) return;
    if (s != VISA_E_RUNTIME && s != VISA_E_UNSUPPORTED && s != VISA_E_ARG) abort();
    if (!*errors) abort(); /* a failure must say why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned errors = 0;
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, count_errors, &errors, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) abort();
    visa_module *m = NULL;
    visa_status st = size >= 4 && !memcmp(data, "CISA", 4)
                         ? visa_module_decode(ctx, "fuzz", data, size, VISA_PLATFORM_XE2, &m)
                         : visa_module_parse_text(ctx, "fuzz", (const char *)data, size, VISA_PLATFORM_XE2, &m);
    if (st == VISA_OK) {
        visa_verify_opts vo;
        memset(&vo, 0, sizeof vo);
        vo.struct_size = sizeof vo;
        vo.platform = VISA_PLATFORM_XE2;
        visa_verify_stats vs;
        errors = 0;
        visa_status vst = visa_module_verify(m, &vo, &vs);
        if (vst == VISA_OK && (vs.errors || errors)) abort(); /* "verified" despite errors */
        if (vst != VISA_OK && vst != VISA_E_VERIFY) abort();
        if (vst == VISA_OK) run(m, &errors);
    }
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return 0;
}
