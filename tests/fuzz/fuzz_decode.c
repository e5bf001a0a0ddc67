/* fuzz_decode.c -- libFuzzer harness for the binary decoder.  Any bytes must decode or be
** rejected with diagnostics (never crash or over-allocate); an accepted object must re-encode,
** and the re-encoded bytes must decode to an equal module and re-encode to the same bytes.
** (Printing is not checked here: an object may hold what IGC's text cannot say, such as a
** modifier on a surface operand, which both printers drop.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "visa/visa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    visa_ctx *ctx;
    if (visa_ctx_create(NULL, &ctx) != VISA_OK) abort();
    visa_module *m = NULL;
    if (visa_module_decode(ctx, "fuzz", data, size, VISA_PLATFORM_XE2, &m) == VISA_OK) {
        uint8_t *b1, *b2;
        size_t l1, l2;
        if (visa_module_encode(m, VISA_PLATFORM_XE2, &b1, &l1) != VISA_OK) abort();
        visa_module *m2 = NULL;
        if (visa_module_decode(ctx, "re", b1, l1, VISA_PLATFORM_XE2, &m2) != VISA_OK) abort();
        if (!ir_module_equal(m, m2)) abort();
        if (visa_module_encode(m2, VISA_PLATFORM_XE2, &b2, &l2) != VISA_OK) abort();
        if (l1 != l2 || memcmp(b1, b2, l1)) abort();
        visa_free(ctx, b1, l1);
        visa_free(ctx, b2, l2);
        visa_module_destroy(m2);
    }
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return 0;
}
