/* fuzz_run.c -- libFuzzer harness for the emulator.  Any text that parses is run (first kernel,
** 2 groups of 2 threads, a step limit): every explicit 8-byte input gets its own 4 KiB buffer
** (bytes 0, 1, 2, ...), narrower inputs the value 3.  The run must end with a status (never a
** crash, hang or sanitizer report), on 2 host threads too, and running it twice on one host
** thread must give the same status and bytes (no uninitialised state).  Comparing 1 with 2 host
** threads is left to the tests: random kernels' groups race on the same bytes, whose final value
** the hardware does not define either.
** Built with FUZZ_TIERS (fuzz_tiers, a build with the compiled tier: -DVISA_JIT=ON), the two
** one-thread runs are the interpreter's and the compiled tier's with everything compiled
** (VISA_EMU_TIER=interp, jit-all): they must agree on status and every byte. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "visa/visa.h"

enum { MAX_ARGS = 16, BUF_BYTES = 4096 };

static visa_status run(const visa_module *m, unsigned threads, visa_arg *args, size_t nargs, visa_buffer *bufs,
                       size_t nbufs) {
    for (size_t i = 0; i < nbufs; i++)
        for (size_t k = 0; k < BUF_BYTES; k++) bufs[i].data[k] = (uint8_t)k;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = 2;
    ro.group_size[0] = 2;
    ro.threads = threads;
    ro.max_steps = 20000;
    return visa_module_run(m, &ro, args, nargs, bufs, nbufs, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, NULL, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) abort();
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, "fuzz", (const char *)data, size, VISA_PLATFORM_XE2, &m) == VISA_OK) {
        visa_arg args[MAX_ARGS];
        visa_buffer a[MAX_ARGS], b[MAX_ARGS];
        size_t nargs = 0, nbufs = 0;
        const ir_routine *k = NULL;
        for (uint32_t i = 0; i < m->routines.len && !k; i++)
            if (m->routines.data[i].is_kernel) k = &m->routines.data[i];
        for (uint32_t i = 0; k && i < k->inputs.len && nargs < MAX_ARGS; i++) {
            const ir_input *in = &k->inputs.data[i];
            if (in->kind >> 3) continue; /* implicit */
            memset(&args[nargs], 0, sizeof args[nargs]);
            if ((in->kind & 7) != 0 || in->size == 8) {
                args[nargs].kind = VISA_ARG_BUFFER;
                args[nargs].buffer = (uint32_t)nbufs;
                a[nbufs].data = malloc(BUF_BYTES);
                b[nbufs].data = malloc(BUF_BYTES);
                a[nbufs].size = b[nbufs].size = BUF_BYTES;
                nbufs++;
            } else {
                args[nargs].kind = VISA_ARG_INT;
                args[nargs].value = 3;
            }
            nargs++;
        }
        if (k) {
#ifdef FUZZ_TIERS
            setenv("VISA_EMU_TIER", "interp", 1);
#else
            (void)run(m, 2, args, nargs, a, nbufs);
#endif
            visa_status s1 = run(m, 1, args, nargs, a, nbufs);
#ifdef FUZZ_TIERS
            setenv("VISA_EMU_TIER", "jit-all", 1);
#endif
            visa_status s2 = run(m, 1, args, nargs, b, nbufs);
            if (s1 != s2) abort(); /* the same run twice: the same outcome */
            for (size_t i = 0; i < nbufs; i++)
                if (memcmp(a[i].data, b[i].data, BUF_BYTES)) abort();
        }
        for (size_t i = 0; i < nbufs; i++) free(a[i].data), free(b[i].data);
        visa_module_destroy(m);
    }
    visa_ctx_destroy(ctx);
    return 0;
}
