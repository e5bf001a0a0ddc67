/* test_binary.c -- binary codec tests:
**   roundtrip DIR  for every DIR/<PAGE>.visaasm: text -> object -> text equals the canonical
**                  print, and object -> text -> object is byte-identical
**   golden DIR     IGC's corpus: `asm` of each F.visaasm equals the golden F.isa byte for byte,
**                  and `dis` of F.isa equals the canonical print of F.visaasm
**   golden_bytes DIR  X.visaasm assembles to the instruction bytes in X.hex (worked out by hand)
**   object DIR     X.visaasm assembles to the whole object in X.hex (worked out by hand), the hex
**                  decodes and prints as X.visaasm, and re-encodes byte for byte
**   corrupt DIR    every case in DIR/cases.txt is rejected with an error at the expected byte
**                  offset (cases are hex files)
**   native DIR     objects carrying native code (a gen-binary table): X.hex decodes, prints as
**                  X.visaasm and re-encodes byte for byte (table and native code included), and
**                  X.visaasm assembles to the same kernel object; X_igc1.hex (instructions cut as
**                  IGC 1.0.x's writer cut them) is refused with E-BIN-IGC1, X_corrupt.hex
**                  (instructions broken otherwise) without it
*/
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>

#include "../harness.h"
#include "ir/ir.h"
#include "visa/visa.h"

typedef struct capture {
    int count;
    uint64_t offset;
    char msg[512];
    int verbose;
    int igc1; /* E-BIN-IGC1 diagnostics */
} capture;

static void on_diag(void *ud, const visa_diag *d) {
    capture *c = ud;
    c->igc1 += !strcmp(d->code, "E-BIN-IGC1");
    if (c->count++ == 0) {
        c->offset = d->line ? 0 : d->offset;
        snprintf(c->msg, sizeof c->msg, "%s", d->message);
    }
    if (c->verbose)
        fprintf(stderr, "  %s:%u:%u:+0x%llx: %s\n", d->file, d->line, d->col, (unsigned long long)d->offset,
                d->message);
}

static visa_ctx *new_ctx(capture *c) {
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, c, 0};
    visa_ctx *ctx = NULL;
    visa_ctx_create(&desc, &ctx);
    return ctx;
}

static char *print_stripped(visa_module *m, size_t *len) {
    visa_print_opts po = {sizeof po, VISA_PRINT_STRIP_COMMENTS};
    char *out = NULL;
    return visa_module_print_to_buffer(m, &po, &out, len) == VISA_OK ? out : NULL;
}

static void first_diff(const char *what, const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    size_t i = 0;
    while (i < al && i < bl && a[i] == b[i]) i++;
    fprintf(stderr, "  %s: first difference at byte 0x%zx (lengths %zu vs %zu)\n", what, i, al, bl);
}

static void test_roundtrip(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = th_read_file(path, &len);
        capture c = {0};
        c.verbose = 1;
        visa_ctx *ctx = new_ctx(&c);
        visa_module *m = NULL, *m2 = NULL, *m3 = NULL;
        CASE_BEGIN();
        if (visa_module_parse_text(ctx, path, text, len, VISA_PLATFORM_XE2, &m) != VISA_OK) {
            CHECKF(0, "%s does not parse", names[i]);
        } else {
            uint8_t *b1 = NULL, *b2 = NULL;
            size_t l1 = 0, l2 = 0, pl = 0, dl = 0;
            CHECKF(visa_module_encode(m, VISA_PLATFORM_XE2, &b1, &l1) == VISA_OK, "%s: encode", names[i]);
            CHECKF(b1 && visa_module_decode(ctx, names[i], b1, l1, VISA_PLATFORM_XE2, &m2) == VISA_OK,
                   "%s: decode of our own object failed", names[i]);
            if (m2) {
                char *p = print_stripped(m, &pl), *q = print_stripped(m2, &dl);
                bool same = p && q && pl == dl && !memcmp(p, q, pl);
                CHECKF(same, "%s: text -> object -> text differs from the canonical print", names[i]);
                if (!same && p && q) first_diff("text", (const uint8_t *)p, pl, (const uint8_t *)q, dl);
                visa_free(ctx, p, pl + 1);
                visa_free(ctx, q, dl + 1);
                CHECKF(visa_module_encode(m2, VISA_PLATFORM_XE2, &b2, &l2) == VISA_OK, "%s: re-encode", names[i]);
                same = b2 && l1 == l2 && !memcmp(b1, b2, l1);
                CHECKF(same, "%s: object -> text -> object is not byte-identical", names[i]);
                if (!same && b2) first_diff("object", b1, l1, b2, l2);
                /* the re-decoded module must equal the first decode too */
                if (b2 && visa_module_decode(ctx, names[i], b2, l2, VISA_PLATFORM_XE2, &m3) == VISA_OK)
                    CHECKF(ir_module_equal(m2, m3), "%s: decode is not stable", names[i]);
            }
            visa_free(ctx, b1, l1);
            visa_free(ctx, b2, l2);
        }
        CASE_END(names[i]);
        visa_module_destroy(m);
        visa_module_destroy(m2);
        visa_module_destroy(m3);
        visa_ctx_destroy(ctx);
        free(text);
        free(names[i]);
    }
    free(names);
}

static void test_golden(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        th_skip("golden object tests", dir);
        return;
    }
    for (int i = 0; i < n; i++) {
        char tpath[4096], bpath[4096];
        snprintf(tpath, sizeof tpath, "%s/%s", dir, names[i]);
        snprintf(bpath, sizeof bpath, "%s/%.*s.isa", dir, (int)(strlen(names[i]) - 8), names[i]);
        size_t tl = 0, bl = 0;
        char *text = th_read_file(tpath, &tl);
        uint8_t *gold = (uint8_t *)th_read_file(bpath, &bl);
        if (!gold) {
            printf("NOTICE: %s has no golden object; skipped\n", names[i]);
            free(text);
            free(names[i]);
            continue;
        }
        capture c = {0};
        c.verbose = 1;
        visa_ctx *ctx = new_ctx(&c);
        visa_module *m = NULL, *d = NULL;
        CASE_BEGIN(); /* asm --platform XeHPC F.visaasm == F.isa */
        if (visa_module_parse_text(ctx, tpath, text, tl, VISA_PLATFORM_XEHPC, &m) == VISA_OK) {
            uint8_t *b = NULL;
            size_t l = 0;
            CHECK(visa_module_encode(m, VISA_PLATFORM_XEHPC, &b, &l) == VISA_OK);
            bool same = b && l == bl && !memcmp(b, gold, bl);
            CHECKF(same, "%s: asm differs from the golden object", names[i]);
            if (!same && b) first_diff("asm", gold, bl, b, l);
            visa_free(ctx, b, l);
        } else {
            CHECKF(0, "%s does not parse", names[i]);
        }
        CASE_END(names[i]);
        CASE_BEGIN(); /* dis F.isa == canonical print of F.visaasm */
        if (visa_module_decode(ctx, bpath, gold, bl, VISA_PLATFORM_XEHPC, &d) == VISA_OK && m) {
            size_t pl = 0, ql = 0;
            char *p = print_stripped(m, &pl), *q = print_stripped(d, &ql);
            bool same = p && q && pl == ql && !memcmp(p, q, pl);
            CHECKF(same, "%s: dis of the golden object differs from the canonical text", names[i]);
            if (!same && p && q) first_diff("dis", (const uint8_t *)p, pl, (const uint8_t *)q, ql);
            visa_free(ctx, p, pl + 1);
            visa_free(ctx, q, ql + 1);
        } else {
            CHECKF(0, "%s: golden object does not decode", names[i]);
        }
        CASE_END(names[i]);
        visa_module_destroy(m);
        visa_module_destroy(d);
        visa_ctx_destroy(ctx);
        free(text);
        free(gold);
        free(names[i]);
    }
    free(names);
}

/* Read a whitespace-separated hex byte file ('#' starts a comment to end of line). */
static uint8_t *read_hex(const char *path, size_t *len) {
    size_t tl;
    char *text = th_read_file(path, &tl);
    if (!text) return NULL;
    uint8_t *out = malloc(tl / 2 + 1);
    size_t n = 0;
    for (char *p = text; *p;) {
        if (*p == '#') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') {
            p++;
            continue;
        }
        unsigned v;
        if (sscanf(p, "%2x", &v) != 1 || !p[1]) {
            free(out);
            free(text);
            return NULL;
        }
        out[n++] = (uint8_t)v;
        p += 2;
    }
    free(text);
    *len = n;
    return out;
}

/* golden_bytes DIR: for each X.visaasm with X.hex, the instruction stream of the first routine in
** `visa asm` output must equal X.hex, which was worked out by hand from the spec and formats.md. */
static void test_golden_bytes(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char tpath[4096], hpath[4096];
        snprintf(tpath, sizeof tpath, "%s/%s", dir, names[i]);
        snprintf(hpath, sizeof hpath, "%s/%.*s.hex", dir, (int)(strlen(names[i]) - 8), names[i]);
        CASE_BEGIN();
        size_t tl = 0, hl = 0;
        char *text = th_read_file(tpath, &tl);
        uint8_t *want = read_hex(hpath, &hl);
        CHECKF(want != NULL, "%s: missing or bad hex file", names[i]);
        capture c = {0};
        c.verbose = 1;
        visa_ctx *ctx = new_ctx(&c);
        visa_module *m = NULL, *d = NULL;
        uint8_t *b = NULL;
        size_t bl = 0;
        if (want && visa_module_parse_text(ctx, tpath, text, tl, VISA_PLATFORM_XE2, &m) == VISA_OK &&
            visa_module_encode(m, VISA_PLATFORM_XE2, &b, &bl) == VISA_OK &&
            visa_module_decode(ctx, "enc", b, bl, VISA_PLATFORM_XE2, &d) == VISA_OK) {
            /* routine 0: header gives its offset and size; instructions run to its end */
            size_t nl = (size_t)(b[8] | (b[9] << 8));
            size_t off = (size_t)b[10 + nl] | ((size_t)b[11 + nl] << 8) | ((size_t)b[12 + nl] << 16) |
                         ((size_t)b[13 + nl] << 24);
            size_t size = (size_t)b[14 + nl] | ((size_t)b[15 + nl] << 8) | ((size_t)b[16 + nl] << 16) |
                          ((size_t)b[17 + nl] << 24);
            const ir_routine *r = &d->routines.data[0];
            size_t start = r->insts.len ? (size_t)r->insts.data[0].offset : off + size;
            size_t got = off + size - start;
            bool same = got == hl && !memcmp(b + start, want, hl);
            CHECKF(same, "%s: instruction bytes differ from the hand-computed ones", names[i]);
            if (!same) {
                first_diff("instructions", want, hl, b + start, got);
                fprintf(stderr, "  got:");
                for (size_t k = 0; k < got && k < 96; k++) fprintf(stderr, " %02x", b[start + k]);
                fprintf(stderr, "\n");
            }
        } else {
            CHECKF(0, "%s: does not parse/encode/decode", names[i]);
        }
        visa_free(ctx, b, bl);
        visa_module_destroy(m);
        visa_module_destroy(d);
        visa_ctx_destroy(ctx);
        free(text);
        free(want);
        CASE_END(names[i]);
        free(names[i]);
    }
    free(names);
}

/* The object `want` decodes, prints as `text` and re-encodes byte for byte. */
static void check_object_reads_back(visa_ctx *ctx, const char *name, const char *hpath, const uint8_t *want, size_t hl,
                                    const char *text, size_t tl) {
    visa_module *d = NULL;
    CHECKF(visa_module_decode(ctx, hpath, want, hl, VISA_PLATFORM_XE2, &d) == VISA_OK,
           "%s: hand-computed object does not decode", name);
    if (!d) return;
    size_t pl = 0, bl = 0;
    char *p = print_stripped(d, &pl);
    CHECKF(p && pl == tl && !memcmp(p, text, tl), "%s: dis differs from the text", name);
    if (p) visa_free(ctx, p, pl + 1);
    uint8_t *b = NULL;
    CHECK(visa_module_encode(d, VISA_PLATFORM_XE2, &b, &bl) == VISA_OK);
    CHECKF(b && bl == hl && !memcmp(b, want, hl), "%s: re-encoding differs", name);
    if (b && !(bl == hl && !memcmp(b, want, hl))) first_diff("object", want, hl, b, bl);
    visa_free(ctx, b, bl);
    visa_module_destroy(d);
}

/* object DIR: whole objects worked out by hand (X.hex) for canonical kernels (X.visaasm). */
static void test_object(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".visaasm", &names);
    if (n < 0) {
        fprintf(stderr, "cannot open %s\n", dir);
        th_failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char tpath[4096], hpath[4096];
        snprintf(tpath, sizeof tpath, "%s/%s", dir, names[i]);
        snprintf(hpath, sizeof hpath, "%s/%.*s.hex", dir, (int)(strlen(names[i]) - 8), names[i]);
        CASE_BEGIN();
        size_t tl = 0, hl = 0;
        char *text = th_read_file(tpath, &tl);
        uint8_t *want = read_hex(hpath, &hl);
        CHECKF(text && want, "%s: missing text or hex file", names[i]);
        capture c = {0};
        c.verbose = 1;
        visa_ctx *ctx = new_ctx(&c);
        visa_module *m = NULL;
        uint8_t *b = NULL;
        size_t bl = 0;
        if (text && want) {
            CHECKF(visa_module_parse_text(ctx, tpath, text, tl, VISA_PLATFORM_XE2, &m) == VISA_OK &&
                       visa_module_encode(m, VISA_PLATFORM_XE2, &b, &bl) == VISA_OK,
                   "%s: does not parse/encode", names[i]);
            if (b) {
                bool same = bl == hl && !memcmp(b, want, hl);
                CHECKF(same, "%s: object differs from the hand-computed bytes", names[i]);
                if (!same) first_diff("object", want, hl, b, bl);
            }
            check_object_reads_back(ctx, names[i], hpath, want, hl, text, tl);
        }
        visa_free(ctx, b, bl);
        visa_module_destroy(m);
        visa_ctx_destroy(ctx);
        free(text);
        free(want);
        CASE_END(names[i]);
        free(names[i]);
    }
    free(names);
}

/* corrupt DIR: cases.txt lines "FILE.hex<TAB>0xOFFSET<TAB>message substring": decoding the bytes
** must fail with the first error at that byte offset. */
static void test_corrupt(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cases.txt", dir);
    size_t len = 0;
    char *manifest = th_read_file(path, &len);
    if (!manifest) {
        fprintf(stderr, "cannot read %s\n", path);
        th_failed++;
        return;
    }
    for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0]) continue;
        char file[256], want[512] = "";
        unsigned long long off;
        if (sscanf(line, "%255[^\t]\t%lli\t%511[^\n]", file, &off, want) < 2) {
            fprintf(stderr, "bad manifest line: %s\n", line);
            th_failed++;
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, file);
        CASE_BEGIN();
        size_t bl = 0;
        uint8_t *bytes = read_hex(path, &bl);
        CHECKF(bytes != NULL, "cannot read %s", path);
        if (bytes) {
            capture c = {0};
            visa_ctx *ctx = new_ctx(&c);
            visa_module *m = NULL;
            visa_status st = visa_module_decode(ctx, file, bytes, bl, VISA_PLATFORM_XE2, &m);
            CHECKF(st == VISA_E_BINARY && !m, "%s: accepted (status %d)", file, (int)st);
            CHECKF(c.count > 0 && c.offset == off, "%s: error at +0x%llx, expected +0x%llx (%s)", file,
                   (unsigned long long)c.offset, off, c.msg);
            CHECKF(!want[0] || strstr(c.msg, want), "%s: message '%s' lacks '%s'", file, c.msg, want);
            visa_module_destroy(m);
            visa_ctx_destroy(ctx);
            free(bytes);
        }
        CASE_END(file);
    }
    free(manifest);
}

/* The kernel object of a one-kernel object: [offset, offset + size) from its header entry. */
static bool kernel_object(const uint8_t *b, size_t len, size_t *off, size_t *size) {
    if (len < 10) return false;
    size_t at = 10 + (size_t)(b[8] | b[9] << 8); /* past the name */
    if (at + 8 > len) return false;
    *off = (size_t)b[at] | (size_t)b[at + 1] << 8 | (size_t)b[at + 2] << 16 | (size_t)b[at + 3] << 24;
    *size = (size_t)b[at + 4] | (size_t)b[at + 5] << 8 | (size_t)b[at + 6] << 16 | (size_t)b[at + 7] << 24;
    return *off <= len && len - *off >= *size;
}

static void native_case(const char *dir, const char *name) {
    char tpath[4096], hpath[4096];
    size_t stem = strlen(name) - 4;
    bool igc1 = stem > 5 && !memcmp(name + stem - 5, "_igc1", 5);
    bool corrupt = stem > 8 && !memcmp(name + stem - 8, "_corrupt", 8);
    snprintf(hpath, sizeof hpath, "%s/%s", dir, name);
    snprintf(tpath, sizeof tpath, "%s/%.*s.visaasm", dir, (int)stem, name);
    size_t tl = 0, hl = 0, ko = 0, ks = 0, to = 0, ts = 0, tbl = 0;
    uint8_t *want = read_hex(hpath, &hl), *t = NULL;
    char *text = igc1 || corrupt ? NULL : th_read_file(tpath, &tl);
    CHECKF(want && (igc1 || corrupt || text), "%s: missing hex or text file", name);
    capture c = {0};
    visa_ctx *ctx = new_ctx(&c);
    visa_module *d = NULL, *m = NULL;
    if ((igc1 || corrupt) && want) {
        visa_status st = visa_module_decode(ctx, hpath, want, hl, VISA_PLATFORM_XE2, &d);
        CHECKF(st == VISA_E_BINARY && c.igc1 == igc1, "%s: status %d, %d E-BIN-IGC1 (%s)", name, (int)st, c.igc1,
               c.msg);
    } else if (want && text) {
        check_object_reads_back(ctx, name, hpath, want, hl, text, tl);
        /* text holds no native code: the same kernel object, without the table */
        CHECK(visa_module_parse_text(ctx, tpath, text, tl, VISA_PLATFORM_XE2, &m) == VISA_OK &&
              visa_module_encode(m, VISA_PLATFORM_XE2, &t, &tbl) == VISA_OK);
        CHECKF(t && kernel_object(want, hl, &ko, &ks) && kernel_object(t, tbl, &to, &ts) && ks == ts &&
                   !memcmp(want + ko, t + to, ks) && tbl == to + ts,
               "%s: the text's object is not the same kernel object alone", name);
    }
    visa_free(ctx, t, tbl);
    visa_module_destroy(d);
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    free(want);
    free(text);
}

static void test_native(const char *dir) {
    char **names;
    int n = th_list_dir(dir, ".hex", &names);
    CHECKF(n > 0, "no objects in %s", dir);
    for (int i = 0; i < n; i++) {
        CASE_BEGIN();
        native_case(dir, names[i]);
        CASE_END(names[i]);
        free(names[i]);
    }
    if (n > 0) free(names);
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "roundtrip")) test_roundtrip(argv[i + 1]);
        else if (!strcmp(argv[i], "golden")) test_golden(argv[i + 1]);
        else if (!strcmp(argv[i], "golden_bytes")) test_golden_bytes(argv[i + 1]);
        else if (!strcmp(argv[i], "object")) test_object(argv[i + 1]);
        else if (!strcmp(argv[i], "corrupt")) test_corrupt(argv[i + 1]);
        else if (!strcmp(argv[i], "native")) test_native(argv[i + 1]);
        else {
            fprintf(stderr, "unknown mode %s\n", argv[i]);
            return 2;
        }
    }
    return th_finish();
}
