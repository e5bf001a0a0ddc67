/* test_api.c -- the public API's growth rules (visa.h, "Options structs grow") and visa_version.
**
** For each options struct: an older caller (struct_size covering fewer fields) works and gets
** the defaults for the fields it lacks, even when the bytes past its struct_size hold other
** values; a struct_size below the struct's first version is VISA_E_ARG; a newer caller (larger
** struct_size) is accepted.  The first-version ends are written here from the history of visa.h
** (visa_run_opts gained set_cr0 and cr0 after max_steps; the others are unchanged). */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* A kernel that stores its initial %cr0 at the buffer given as its only argument. */
static const char *CR0_KERNEL = ".version 4.1\n"
                                ".kernel \"k\"\n"
                                ".decl V32 v_type=G type=uq num_elts=1 align=qword\n"
                                ".decl V40 v_type=G type=ud num_elts=8 align=GRF\n"
                                ".decl V41 v_type=G type=uq num_elts=8 align=GRF\n"
                                ".input V32 offset=64 size=8\n"
                                ".kernel_attr SimdSize=8\n"
                                ".function \"k_BB_0\"\n"
                                "k_BB_0:\n"
                                "    mov (M1, 8) V40(0,0)<1> %cr0(0,0)<0;1,0>\n"
                                "    mov (M1, 8) V41(0,0)<1> V32(0,0)<0;1,0>\n"
                                "    lsc_store.ugm (M1, 1)  flat[V41]:a64  V40:d32\n"
                                "    ret (M1, 1)\n";

/* A kernel with a user comment, for print. */
static const char *SMALL = ".version 4.1\n"
                           ".kernel \"s\"\n"
                           "// a user comment\n"
                           ".decl V32 v_type=G type=d num_elts=8 align=GRF\n"
                           ".function \"s_BB_0\"\n"
                           "s_BB_0:\n"
                           "    mov (M1, 8) V32(0,0)<1> 0x1:d\n"
                           "    ret (M1, 1)\n";

typedef struct diag_count {
    int errors;
    int with_source_line;
} diag_count;

static void count_diag(void *ud, const visa_diag *d) {
    diag_count *c = ud;
    if (d->severity == VISA_SEV_ERROR) c->errors++;
    if (d->source_line) c->with_source_line++;
}

static visa_module *parse(visa_ctx *ctx, const char *text) {
    visa_module *m = NULL;
    visa_module_parse_text(ctx, "t", text, strlen(text), VISA_PLATFORM_XE2, &m);
    return m;
}

static void test_version(void) {
    CASE_BEGIN();
    unsigned ma = 99, mi = 99, pa = 99;
    const char *s = visa_version(&ma, &mi, &pa);
    CHECKF(s && !strcmp(s, VISA_EXPECT_VERSION), "visa_version() = '%s', CMake says '%s'", s, VISA_EXPECT_VERSION);
    char buf[64];
    snprintf(buf, sizeof buf, "%u.%u.%u", ma, mi, pa);
    CHECKF(!strcmp(buf, VISA_EXPECT_VERSION), "numbers %s", buf);
    CHECK(!strcmp(VISA_VERSION_STRING, VISA_EXPECT_VERSION));
    CHECK(ma == VISA_VERSION_MAJOR && mi == VISA_VERSION_MINOR && pa == VISA_VERSION_PATCH);
    CHECK(visa_version(NULL, NULL, NULL) == s);
    CASE_END("visa_version");
}

static void test_ctx_desc(void) {
    /* an error per bad line; max_errors = 1 lets only the first through */
    const char *bad = ".version 4.1\n.kernel \"k\"\n@@\n@@\n@@\n";
    size_t sizes[] = {END_OF(visa_ctx_desc, max_errors), sizeof(visa_ctx_desc), sizeof(visa_ctx_desc) + 16};
    for (size_t i = 0; i < 3; i++) {
        CASE_BEGIN();
        unsigned char mem[sizeof(visa_ctx_desc) + 16];
        memset(mem, 0xA5, sizeof mem); /* what lies past struct_size must not matter */
        visa_ctx_desc d;
        memset(&d, 0, sizeof d);
        diag_count c = {0, 0};
        d.struct_size = (uint32_t)sizes[i];
        d.on_diag = count_diag;
        d.diag_ud = &c;
        d.max_errors = 1;
        memcpy(mem, &d, END_OF(visa_ctx_desc, max_errors));
        visa_ctx *ctx = NULL;
        CHECKF(visa_ctx_create((visa_ctx_desc *)(void *)mem, &ctx) == VISA_OK, "size %zu", sizes[i]);
        if (ctx) {
            visa_module *m = parse(ctx, bad);
            CHECK(!m);
            CHECKF(c.errors == 1, "size %zu: %d errors reported, max_errors 1", sizes[i], c.errors);
            visa_ctx_destroy(ctx);
        }
        CASE_END("ctx_desc accepted size");
    }
    CASE_BEGIN();
    visa_ctx_desc d;
    memset(&d, 0, sizeof d);
    visa_ctx *ctx = (visa_ctx *)&d;
    d.struct_size = (uint32_t)END_OF(visa_ctx_desc, max_errors) - 1;
    CHECK(visa_ctx_create(&d, &ctx) == VISA_E_ARG && ctx == NULL);
    d.struct_size = 0;
    CHECK(visa_ctx_create(&d, &ctx) == VISA_E_ARG);
    CHECK(visa_ctx_create(NULL, &ctx) == VISA_OK && ctx);
    visa_ctx_destroy(ctx);
    CASE_END("ctx_desc too small");
}

static void test_print_opts(visa_ctx *ctx) {
    visa_module *m = parse(ctx, SMALL);
    CASE_BEGIN();
    CHECK(m);
    visa_print_opts po = {(uint32_t)END_OF(visa_print_opts, flags), VISA_PRINT_STRIP_COMMENTS};
    char *p = NULL;
    size_t n = 0;
    CHECK(visa_module_print_to_buffer(m, &po, &p, &n) == VISA_OK);
    CHECKF(p && !strstr(p, "a user comment"), "flags not read");
    if (p) visa_free(ctx, p, n + 1);
    po.struct_size = (uint32_t)sizeof po + 8; /* newer caller */
    CHECK(visa_module_print_to_buffer(m, &po, &p, &n) == VISA_OK);
    if (p) visa_free(ctx, p, n + 1);
    CHECK(visa_module_print_to_buffer(m, NULL, &p, &n) == VISA_OK && strstr(p, "a user comment"));
    if (p) visa_free(ctx, p, n + 1);
    CASE_END("print_opts v1");
    CASE_BEGIN();
    p = NULL;
    po.struct_size = (uint32_t)END_OF(visa_print_opts, flags) - 1;
    CHECK(visa_module_print_to_buffer(m, &po, &p, &n) == VISA_E_ARG && !p);
    po.struct_size = sizeof(uint32_t);
    CHECK(visa_module_print_to_buffer(m, &po, &p, &n) == VISA_E_ARG && !p);
    CASE_END("print_opts too small");
    visa_module_destroy(m);
}

static void test_verify_opts(void) {
    diag_count c = {0, 0};
    visa_ctx_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.on_diag = count_diag;
    d.diag_ud = &c;
    visa_ctx *ctx = NULL;
    visa_ctx_create(&d, &ctx);
    /* a destination past its variable (one V-OPND-BOUNDS warning): its source line shows that
    ** source and source_len were read */
    const char *text = ".version 4.1\n.kernel \"v\"\n"
                       ".decl V32 v_type=G type=d num_elts=8 align=GRF\n"
                       ".function \"v_BB_0\"\nv_BB_0:\n"
                       "    mov (M1, 8) V32(0,0)<1> V32(0,0)<1;1,0>\n"
                       "    mov (M1, 8) V32(0,4)<1> V32(0,0)<1;1,0>\n"
                       "    ret (M1, 1)\n";
    visa_module *m = parse(ctx, text);
    CASE_BEGIN();
    CHECK(m);
    visa_verify_opts vo;
    memset(&vo, 0, sizeof vo);
    vo.struct_size = (uint32_t)END_OF(visa_verify_opts, source_len);
    vo.platform = VISA_PLATFORM_XE2;
    vo.source = text;
    vo.source_len = strlen(text);
    visa_verify_stats st;
    visa_status s = visa_module_verify(m, &vo, &st);
    CHECKF(s == VISA_OK && st.warnings == 1, "status %d, %u warnings", (int)s, st.warnings);
    CHECKF(c.with_source_line == 1, "source not read");
    vo.struct_size = (uint32_t)sizeof vo + 8;
    vo.flags = VISA_VERIFY_WERROR;
    CHECK(visa_module_verify(m, &vo, &st) == VISA_E_VERIFY); /* flags read */
    CASE_END("verify_opts v1");
    CASE_BEGIN();
    vo.struct_size = (uint32_t)END_OF(visa_verify_opts, source_len) - 1;
    CHECK(visa_module_verify(m, &vo, &st) == VISA_E_ARG);
    vo.struct_size = (uint32_t)END_OF(visa_verify_opts, flags);
    CHECK(visa_module_verify(m, &vo, &st) == VISA_E_ARG);
    CASE_END("verify_opts too small");
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
}

/* Run CR0_KERNEL with set_cr0 = 1 and cr0 = 0x30 in memory, struct_size as given; return the
** %cr0 the kernel saw, or -status on failure. */
static long run_cr0(visa_module *m, uint32_t struct_size) {
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = struct_size;
    ro.platform = VISA_PLATFORM_XE2;
    ro.set_cr0 = true;
    ro.cr0 = 0x30;
    uint32_t out[16];
    memset(out, 0xEE, sizeof out);
    visa_buffer b = {(uint8_t *)out, sizeof out};
    visa_arg a;
    memset(&a, 0, sizeof a);
    a.kind = VISA_ARG_BUFFER;
    a.buffer = 0;
    visa_status s = visa_module_run(m, &ro, &a, 1, &b, 1, NULL);
    return s == VISA_OK ? (long)out[0] : -(long)s;
}

static void test_run_opts(visa_ctx *ctx) {
    visa_module *m = parse(ctx, CR0_KERNEL);
    CASE_BEGIN();
    CHECK(m);
    long full = run_cr0(m, sizeof(visa_run_opts));
    CHECKF(full == 0x30, "full struct: %%cr0 = %#lx, want 0x30", full);
    long newer = run_cr0(m, sizeof(visa_run_opts) + 32);
    CHECKF(newer == 0x30, "newer caller: %%cr0 = %#lx, want 0x30", newer);
    CASE_END("run_opts current");
    CASE_BEGIN();
    /* the first version ends at max_steps: set_cr0 and cr0 past it are not read, so the kernel
    ** starts with the documented default 0x4C0 */
    long v1 = run_cr0(m, (uint32_t)END_OF(visa_run_opts, max_steps));
    CHECKF(v1 == 0x4C0, "v1 caller: %%cr0 = %#lx, want the default 0x4c0", v1);
    /* set_cr0 covered, cr0 not: cr0 takes its default 0 */
    long half = run_cr0(m, (uint32_t)END_OF(visa_run_opts, set_cr0));
    CHECKF(half == 0, "set_cr0 only: %%cr0 = %#lx, want 0", half);
    CASE_END("run_opts older caller");
    CASE_BEGIN();
    long small = run_cr0(m, (uint32_t)END_OF(visa_run_opts, max_steps) - 1);
    CHECKF(small == -(long)VISA_E_ARG, "too small: %ld", small);
    CHECK(run_cr0(m, (uint32_t)offsetof(visa_run_opts, kernel)) == -(long)VISA_E_ARG);
    CASE_END("run_opts too small");
    visa_module_destroy(m);
}

/* One context, parsed and printed from four threads at once: the first parse of each races to
** build and publish the context's mnemonic index (vx_cache_publish); every thread must print
** what one thread alone prints.  Under make check-tsan, ThreadSanitizer checks the publication. */
typedef struct shared_job {
    visa_ctx *ctx;
    char *out;
    size_t len;
    visa_status st;
} shared_job;

static void *shared_parse(void *arg) {
    shared_job *j = arg;
    visa_module *m = NULL;
    j->st = visa_module_parse_text(j->ctx, "t", SMALL, strlen(SMALL), VISA_PLATFORM_XE2, &m);
    if (j->st == VISA_OK) j->st = visa_module_print_to_buffer(m, NULL, &j->out, &j->len);
    visa_module_destroy(m);
    return NULL;
}

static void test_shared_ctx(void) {
    visa_ctx *alone = NULL, *shared = NULL;
    shared_job ref = {0}, jobs[4];
    pthread_t t[4];
    CASE_BEGIN();
    CHECK(visa_ctx_create(NULL, &alone) == VISA_OK && visa_ctx_create(NULL, &shared) == VISA_OK);
    ref.ctx = alone;
    shared_parse(&ref);
    CHECK(ref.st == VISA_OK);
    for (int i = 0; i < 4; i++) {
        jobs[i] = (shared_job){shared, NULL, 0, VISA_E_ARG};
        CHECK(pthread_create(&t[i], NULL, shared_parse, &jobs[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECKF(jobs[i].st == VISA_OK && jobs[i].len == ref.len && !memcmp(jobs[i].out, ref.out, ref.len),
               "thread %d: status %d, %zu bytes", i, (int)jobs[i].st, jobs[i].len);
        visa_free(shared, jobs[i].out, jobs[i].len + 1);
    }
    visa_free(alone, ref.out, ref.len + 1);
    visa_ctx_destroy(alone);
    visa_ctx_destroy(shared);
    CASE_END("one context shared by four threads");
}

int main(void) {
    test_version();
    test_ctx_desc();
    visa_ctx *ctx = NULL;
    visa_ctx_create(NULL, &ctx);
    test_print_opts(ctx);
    test_verify_opts();
    test_run_opts(ctx);
    visa_ctx_destroy(ctx);
    test_shared_ctx();
    return th_finish();
}
