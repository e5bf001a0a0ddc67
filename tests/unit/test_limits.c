/* test_limits.c -- the encoder refuses what the object format cannot hold.  Inputs one past a
** 16-bit field (a kernel name of 65536 bytes, 65536 labels, 65536 address variables, 65536
** kernels) are generated here; encoding them fails with VISA_E_UNSUPPORTED and a diagnostic
** naming the field and its width.  One less (65535) encodes and decodes back to the same count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

static char last_msg[600];
static int limit_diags;

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    if (!strcmp(d->code, "E-LIMIT")) limit_diags++;
    snprintf(last_msg, sizeof last_msg, "%s", d->message);
}

enum shape { NAME, LABELS, ADDRS, KERNELS };

static char *generate(enum shape s, unsigned n, size_t *len) {
    size_t cap = (size_t)n * 48 + 1024, at = 0;
    char *t = malloc(cap);
    at += (size_t)snprintf(t + at, cap - at, ".version 4.1\n");
    switch (s) {
    case NAME:
        at += (size_t)snprintf(t + at, cap - at, ".kernel \"");
        memset(t + at, 'k', n);
        at += n;
        at += (size_t)snprintf(t + at, cap - at, "\"\n    ret (M1, 1)\n");
        break;
    case LABELS:
        at += (size_t)snprintf(t + at, cap - at, ".kernel \"k\"\n");
        for (unsigned i = 0; i < n; i++) at += (size_t)snprintf(t + at, cap - at, "L%u:\n", i);
        at += (size_t)snprintf(t + at, cap - at, "    ret (M1, 1)\n");
        break;
    case ADDRS:
        at += (size_t)snprintf(t + at, cap - at, ".kernel \"k\"\n");
        for (unsigned i = 0; i < n; i++) at += (size_t)snprintf(t + at, cap - at, ".decl A%u v_type=A num_elts=1\n", i);
        at += (size_t)snprintf(t + at, cap - at, "    ret (M1, 1)\n");
        break;
    case KERNELS:
        for (unsigned i = 0; i < n; i++)
            at += (size_t)snprintf(t + at, cap - at, ".kernel \"k%u\"\n    ret (M1, 1)\n", i);
        break;
    }
    *len = at;
    return t;
}

/* The object's 16-bit count read back by hand (header: magic, version, kernel count; the first
** kernel's name length; in the kernel object the address and label counts are not needed here:
** decode and the routine count check those). */
static unsigned u16_at(const uint8_t *p, size_t at) { return (unsigned)p[at] | (unsigned)p[at + 1] << 8; }

int main(void) {
    static const struct {
        enum shape shape;
        const char *name;
        const char *want; /* in the diagnostic */
    } cases[] = {
        {NAME, "kernel name of 65536 bytes",
         "kernel name of 65536 bytes exceeds the object format's 16-bit length field"},
        {LABELS, "65536 labels", "label count of 65536 exceeds the object format's 16-bit field"},
        {ADDRS, "65536 address variables", "address variable count of 65536 exceeds the object format's 16-bit field"},
        {KERNELS, "65536 kernels", "kernel count of 65536 exceeds the object format's 16-bit field"},
    };
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 2;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (unsigned n = 65535; n <= 65536; n++) {
            size_t len;
            char *text = generate(cases[c].shape, n, &len);
            visa_module *m = NULL;
            limit_diags = 0;
            last_msg[0] = 0;
            visa_status st = visa_module_parse_text(ctx, "limits", text, len, VISA_PLATFORM_XE2, &m);
            uint8_t *obj = (uint8_t *)1;
            size_t obj_len = 0;
            visa_status es = m ? visa_module_encode(m, VISA_PLATFORM_XE2, &obj, &obj_len) : VISA_E_ARG;
            char name[128];
            snprintf(name, sizeof name, "%s%s", n == 65536 ? "" : "one less than ", cases[c].name);
            CASE_BEGIN();
            CHECKF(st == VISA_OK, "parse: %s: %s", visa_status_str(st), last_msg);
            if (n == 65536) {
                CHECKF(es == VISA_E_UNSUPPORTED, "encode: %s", visa_status_str(es));
                CHECK(obj == NULL && obj_len == 0);
                CHECK(limit_diags == 1);
                CHECKF(strstr(last_msg, cases[c].want) != NULL, "message: %s", last_msg);
            } else {
                CHECKF(es == VISA_OK, "encode: %s: %s", visa_status_str(es), last_msg);
                visa_module *back = NULL;
                if (es == VISA_OK) {
                    if (cases[c].shape == KERNELS) CHECK(u16_at(obj, 6) == 65535);
                    if (cases[c].shape == NAME) CHECK(u16_at(obj, 8) == 65535);
                    CHECK(visa_module_decode(ctx, "limits", obj, obj_len, VISA_PLATFORM_XE2, &back) == VISA_OK);
                    CHECK(visa_module_routine_count(back) == (cases[c].shape == KERNELS ? 65535u : 1u));
                    visa_module_destroy(back);
                    visa_free(ctx, obj, obj_len);
                }
            }
            CASE_END(name);
            visa_module_destroy(m);
            free(text);
        }
    }
    /* a 4.1 variable's type shares a byte with its alignment: tf32 (type code 16) cannot be
    ** written, bf (12) can */
    static const char *const decl_types[] = {"tf32", "bf"};
    for (size_t c = 0; c < 2; c++) {
        char text[200];
        int len = snprintf(text, sizeof text,
                           ".version 4.1\n.kernel \"k\"\n.decl T v_type=G type=%s num_elts=8\n    ret (M1, 1)\n",
                           decl_types[c]);
        visa_module *m = NULL;
        limit_diags = 0;
        last_msg[0] = 0;
        uint8_t *obj = NULL;
        size_t obj_len = 0;
        CASE_BEGIN();
        CHECKF(visa_module_parse_text(ctx, "limits", text, (size_t)len, VISA_PLATFORM_XE2, &m) == VISA_OK, "parse: %s",
               last_msg);
        visa_status es = m ? visa_module_encode(m, VISA_PLATFORM_XE2, &obj, &obj_len) : VISA_E_ARG;
        if (c == 0) {
            CHECKF(es == VISA_E_UNSUPPORTED && limit_diags == 1 && strstr(last_msg, "variable type code") &&
                       strstr(last_msg, "4-bit field"),
                   "tf32 in 4.1: %s: %s", visa_status_str(es), last_msg);
        } else {
            CHECKF(es == VISA_OK, "bf in 4.1: %s: %s", visa_status_str(es), last_msg);
        }
        if (obj) visa_free(ctx, obj, obj_len);
        CASE_END(decl_types[c]);
        visa_module_destroy(m);
    }
    visa_ctx_destroy(ctx);
    printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed != 0;
}
