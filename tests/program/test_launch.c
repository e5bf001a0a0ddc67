/* test_launch.c -- OpenCL C compiled by IGC (libocloc) and run with IGC's launch ABI through the
** public API (visa_program_*), on tgllp, dg2-g10 and pvc.  Every expected value comes from a C
** model in this file.  Skipped (77) without libocloc, and under AddressSanitizer (libocloc dlopens
** IGC with RTLD_DEEPBIND, which the sanitizer refuses).
**   reduce        by-value, buffers and a __local argument; barriers
**   geometry      2D NDRange with a global offset: global, local and group ids, sizes, work_dim
**   nonuniform    a global size that is no multiple of the local size (-cl-std=CL2.0)
**   byvalue       a struct argument split by .ze_info's source offsets
**   private       a private array indexed at run time (private memory where IGC puts it there)
**   scratch       private arrays on scratch space (tgllp, pvc): slices per hardware thread, and
**                 E-RUN-OOB-SCRATCH past the slice
**   globals       program-scope constant and global data, kept from one launch to the next
**   printf        printf's output: integers, floats, strings, vectors
**   errors        argument count and kinds, work_dim, reqd_work_group_size: E-PROGRAM-* each
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

#if defined(__SANITIZE_ADDRESS__)
#define TL_ASAN 1
#else
#define TL_ASAN 0
#endif

typedef struct tl_state {
    char codes[32][32];
    unsigned ncodes;
    bool no_ocloc;
} tl_state;

static void on_diag(void *ud, const visa_diag *d) {
    tl_state *s = ud;
    if (!strcmp(d->code, "E-OCLOC-LOAD")) s->no_ocloc = true;
    if (getenv("TL_VERBOSE")) fprintf(stderr, "  %s: %s\n", d->code, d->message);
    if (s->ncodes < 32) snprintf(s->codes[s->ncodes++], sizeof s->codes[0], "%s", d->code);
}

static bool saw(const tl_state *s, const char *code) {
    for (unsigned i = 0; i < s->ncodes; i++)
        if (!strcmp(s->codes[i], code)) return true;
    return false;
}

static visa_ctx *ctx;
static tl_state st;
static const char *device;

static visa_program *build(const char *src, const char *options) {
    visa_program_opts o = {sizeof o, VISA_PROGRAM_OPENCL_C, device, options, NULL};
    visa_program *p = NULL;
    st.ncodes = 0;
    visa_status s = visa_program_create(ctx, "test.cl", src, strlen(src), &o, &p);
    if (s == VISA_E_UNSUPPORTED && st.no_ocloc) {
        printf("SKIPPED: libocloc cannot be loaded\n");
        exit(TH_SKIP_CODE);
    }
    CHECKF(s == VISA_OK, "%s: build failed (%d): %s", device, s, p ? visa_program_build_log(p) : "");
    if (s != VISA_OK) {
        visa_program_destroy(p);
        return NULL;
    }
    return p;
}

static visa_cl_launch launch_1d(const char *kernel, uint64_t global, uint64_t local) {
    visa_cl_launch l;
    memset(&l, 0, sizeof l);
    l.struct_size = sizeof l;
    l.kernel = kernel;
    l.work_dim = 1;
    l.global_size[0] = global;
    l.local_size[0] = local;
    return l;
}

static void test_reduce(void) {
    CASE_BEGIN();
    visa_program *p = build(
        "kernel void reduce(uint n, global uint *data, global uint *result, local uint *tmp) {\n"
        "  uint gid = get_global_id(0), lid = get_local_id(0), gsz = get_global_size(0);\n"
        "  uint lsz = get_local_size(0), sum = 0;\n"
        "  for (uint i = gid; i < n; i += gsz) sum += data[i];\n"
        "  tmp[lid] = sum;\n"
        "  for (uint o = lsz / 2; o > 0; o /= 2) { barrier(CLK_LOCAL_MEM_FENCE); if (lid < o) tmp[lid] += tmp[lid + o]; }\n"
        "  if (lid == 0) result[get_group_id(0)] = tmp[0]; }\n",
        NULL);
    if (p) {
        uint32_t n = 1000, data[1000], result[8] = {0}, want[8] = {0};
        for (uint32_t i = 0; i < n; i++) data[i] = i * 7 + 1;
        for (uint32_t g = 0; g < 8; g++)
            for (uint32_t l = 0; l < 16; l++)
                for (uint32_t i = g * 16 + l; i < n; i += 128) want[g] += data[i];
        visa_cl_arg args[4] = {{VISA_CL_ARG_VALUE, &n, 4},
                               {VISA_CL_ARG_BUFFER, data, sizeof data},
                               {VISA_CL_ARG_BUFFER, result, sizeof result},
                               {VISA_CL_ARG_LOCAL, NULL, 16 * 4}};
        visa_cl_launch l = launch_1d("reduce", 128, 16);
        CHECKF(visa_program_run(p, &l, args, 4, NULL) == VISA_OK, "%s: reduce run", device);
        CHECKF(!memcmp(result, want, sizeof want), "%s: reduce: %u %u .. %u, want %u %u .. %u", device, result[0],
               result[1], result[7], want[0], want[1], want[7]);
    }
    visa_program_destroy(p);
    CASE_END("reduce");
}

static void test_geometry(void) {
    CASE_BEGIN();
    visa_program *p =
        build("kernel void geo(global uint *o) {\n"
              "  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);\n"
              "  global uint *e = o + 8 * (y * get_global_size(0) + x);\n"
              "  e[0] = get_global_id(0); e[1] = get_global_id(1); e[2] = get_local_id(0); e[3] = get_local_id(1);\n"
              "  e[4] = get_group_id(0); e[5] = get_group_id(1); e[6] = get_num_groups(0) * 100 + get_num_groups(1);\n"
              "  e[7] = get_work_dim() * 1000 + get_local_size(0) * 10 + get_local_size(1); }\n",
              NULL);
    if (p) {
        enum { GX = 12, GY = 6, LX = 4, LY = 3, OX = 5, OY = 2 };
        static uint32_t o[GX * GY * 8];
        memset(o, 0xff, sizeof o);
        visa_cl_arg arg = {VISA_CL_ARG_BUFFER, o, sizeof o};
        visa_cl_launch l = launch_1d("geo", GX, LX);
        l.work_dim = 2;
        l.global_size[1] = GY;
        l.local_size[1] = LY;
        l.global_offset[0] = OX;
        l.global_offset[1] = OY;
        CHECKF(visa_program_run(p, &l, &arg, 1, NULL) == VISA_OK, "%s: geometry run", device);
        unsigned bad = 0;
        for (uint32_t y = 0; y < GY; y++)
            for (uint32_t x = 0; x < GX; x++) {
                const uint32_t *e = o + 8 * (y * GX + x);
                uint32_t want[8] = {
                    x + OX, y + OY, x % LX, y % LY, x / LX, y / LY, (GX / LX) * 100 + GY / LY, 2000 + LX * 10 + LY};
                if (memcmp(e, want, sizeof want) && bad++ < 3)
                    CHECKF(0, "%s: work-item (%u,%u): %u %u %u %u %u %u %u %u", device, x, y, e[0], e[1], e[2], e[3],
                           e[4], e[5], e[6], e[7]);
            }
        CHECKF(bad == 0, "%s: %u work-items wrong", device, bad);
        /* no local size: x's is chosen (a divisor of GX), y's is 1 (docs/program.md) */
        memset(o, 0xff, sizeof o);
        l.local_size[0] = l.local_size[1] = 0;
        CHECKF(visa_program_run(p, &l, &arg, 1, NULL) == VISA_OK, "%s: geometry run, local size chosen", device);
        uint32_t lx = (o[7] - 2001) / 10;
        CHECKF(o[7] % 10 == 1 && lx >= 1 && GX % lx == 0, "%s: chosen local size %u (x %u)", device, o[7], lx);
        for (uint32_t y = 0, bad_chosen = 0; lx >= 1 && y < GY; y++)
            for (uint32_t x = 0; x < GX; x++) {
                const uint32_t *e = o + 8 * (y * GX + x);
                uint32_t want[8] = {x + OX, y + OY, x % lx, 0, x / lx, y, (GX / lx) * 100 + GY, 2000 + lx * 10 + 1};
                if (memcmp(e, want, sizeof want) && bad_chosen++ < 3)
                    CHECKF(0, "%s: chosen: work-item (%u,%u): %u %u %u %u %u %u %u %u", device, x, y, e[0], e[1], e[2],
                           e[3], e[4], e[5], e[6], e[7]);
            }
    }
    visa_program_destroy(p);
    CASE_END("geometry");
}

static void test_nonuniform(void) {
    CASE_BEGIN();
    visa_program *p = build(
        "kernel void nu(global uint *o) {\n"
        "  size_t i = get_global_id(0);\n"
        "  o[3 * i] = get_local_size(0); o[3 * i + 1] = get_enqueued_local_size(0); o[3 * i + 2] = get_group_id(0); }\n",
        "-cl-std=CL2.0");
    if (p) {
        uint32_t o[3 * 10];
        visa_cl_arg arg = {VISA_CL_ARG_BUFFER, o, sizeof o};
        visa_cl_launch l = launch_1d("nu", 10, 4);
        CHECKF(visa_program_run(p, &l, &arg, 1, NULL) == VISA_OK, "%s: non-uniform run", device);
        for (uint32_t i = 0; i < 10; i++)
            CHECKF(o[3 * i] == (i < 8 ? 4u : 2u) && o[3 * i + 1] == 4 && o[3 * i + 2] == i / 4,
                   "%s: work-item %u: local size %u, enqueued %u, group %u", device, i, o[3 * i], o[3 * i + 1],
                   o[3 * i + 2]);
    }
    visa_program_destroy(p);
    CASE_END("nonuniform");
}

static void test_byvalue(void) {
    CASE_BEGIN();
    visa_program *p = build(
        "typedef struct { char c; int a; float b; short s[3]; } S;\n"
        "kernel void bv(S s, int k, global float *o) { o[get_global_id(0)] = s.c + s.a * 2 + s.b + s.s[0] - s.s[2] * k; }\n"
        "kernel void vec(ushort3 v, global uint *o) { o[0] = v.x + v.z * 100; }\n",
        NULL);
    if (p) {
        /* the element the library reads from each OpenCL type name (cl_types.def) */
        static const struct {
            const char *kernel;
            size_t index;
            const char *elem;
            uint32_t count;
        } elems[] = {{"bv", 0, "", 0}, {"bv", 1, "d", 1}, {"bv", 2, "f", 1}, {"vec", 0, "uw", 3}, {"vec", 1, "ud", 1}};
        for (size_t i = 0; i < sizeof elems / sizeof *elems; i++) {
            visa_cl_arg_info ai;
            CHECKF(visa_program_kernel_arg(p, elems[i].kernel, elems[i].index, &ai) == VISA_OK &&
                       !strcmp(ai.elem_type, elems[i].elem) && ai.elem_count == elems[i].count,
                   "%s: %s argument %zu (%s) reads as %s x %u, want %s x %u", device, elems[i].kernel, elems[i].index,
                   ai.type_name, ai.elem_type, ai.elem_count, elems[i].elem, elems[i].count);
        }
        uint16_t v[4] = {5, 6, 7, 0};
        uint32_t vo = 0;
        visa_cl_arg vargs[2] = {{VISA_CL_ARG_VALUE, v, sizeof v}, {VISA_CL_ARG_BUFFER, &vo, sizeof vo}};
        visa_cl_launch vl = launch_1d("vec", 1, 1);
        CHECKF(visa_program_run(p, &vl, vargs, 2, NULL) == VISA_OK && vo == 705, "%s: vec gives %u, want 705", device,
               vo);
        struct {
            char c;
            int a;
            float b;
            short s[3];
        } s = {3, 40, 0.5f, {7, 8, 9}};
        int k = 2;
        float o[16];
        visa_cl_arg args[3] = {
            {VISA_CL_ARG_VALUE, &s, sizeof s}, {VISA_CL_ARG_VALUE, &k, 4}, {VISA_CL_ARG_BUFFER, o, sizeof o}};
        visa_cl_launch l = launch_1d("bv", 16, 16);
        CHECKF(visa_program_run(p, &l, args, 3, NULL) == VISA_OK, "%s: byvalue run", device);
        float want = 3 + 40 * 2 + 0.5f + 7 - 9 * 2;
        for (int i = 0; i < 16; i++) CHECKF(o[i] == want, "%s: o[%d] = %g, want %g", device, i, o[i], want);
    }
    visa_program_destroy(p);
    CASE_END("byvalue");
}

static void test_private(void) {
    CASE_BEGIN();
    visa_program *p = build("kernel void pv(global int *o, int n) { int a[64];\n"
                            "  for (int i = 0; i < 64; i++) a[i] = i * n + (int)get_global_id(0);\n"
                            "  o[get_global_id(0)] = a[(get_global_id(0) * 7 + n) % 64]; }\n",
                            NULL);
    if (p) {
        int o[256], n = 3;
        visa_cl_arg args[2] = {{VISA_CL_ARG_BUFFER, o, sizeof o}, {VISA_CL_ARG_VALUE, &n, 4}};
        visa_cl_launch l = launch_1d("pv", 256, 64);
        l.threads = 2;
        visa_status s = visa_program_run(p, &l, args, 2, NULL);
        CHECKF(s == VISA_OK, "%s: private run (%d)", device, s);
        for (int i = 0; i < 256; i++)
            CHECKF(o[i] == ((i * 7 + n) % 64) * n + i, "%s: o[%d] = %d, want %d", device, i, o[i],
                   ((i * 7 + n) % 64) * n + i);
    }
    visa_program_destroy(p);
    CASE_END("private");
}

/* The slot of a[] that a(i, g) writes last: a[(5i + g) % 64] = i * g + n for i < 64 (5 is odd, so
** every slot is written once: i = 13 (s - g) mod 64, 13 being 5's inverse mod 64). */
static int scattered_value(int slot, int g, int n) { return ((slot - g) * 13 % 64 + 64) % 64 * g + n; }

/* Private arrays written and read at indices known only at run time: on tgllp and pvc IGC puts them
** on scratch space (docs/program.md), on dg2 in a private_space buffer.  Each hardware thread's
** slice must be its own (the barrier makes every thread of a group write before any reads); reading past the array's end (a[64]: past the slice, the array filling
** it) is E-RUN-OOB-SCRATCH where the array is on scratch. */
static void test_scratch(void) {
    CASE_BEGIN();
    bool on_scratch = strcmp(device, "dg2-g10") != 0; /* IGC Platform::useScratchSpaceForOCL */
    visa_program *p = build("kernel void sc(global int *out, int n) { int g = get_global_id(0); int a[64];\n"
                            "  for (int i = 0; i < 64; i++) a[(i * 5 + g) % 64] = i * g + n;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE); /* all of the group's threads write first */\n"
                            "  out[g] = a[(g * 7) % 64] + a[(g + n) % 64]; }\n"
                            "kernel void past(global int *out, int n) { int g = get_global_id(0); int a[64];\n"
                            "  for (int i = 0; i < 64; i++) a[i] = i + g;\n"
                            "  out[g] = a[n]; }\n",
                            NULL);
    if (p) {
        static int out[512];
        int n = 3;
        visa_cl_arg args[2] = {{VISA_CL_ARG_BUFFER, out, sizeof out}, {VISA_CL_ARG_VALUE, &n, 4}};
        visa_cl_launch l = launch_1d("sc", 512, 128); /* 4 groups of 4 SIMD32 threads (tgllp, pvc) */
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            l.threads = threads;
            memset(out, 0, sizeof out);
            CHECKF(visa_program_run(p, &l, args, 2, NULL) == VISA_OK, "%s: sc run, %u host threads", device, threads);
            for (int g = 0; g < 512; g++) {
                int want = scattered_value(g * 7 % 64, g, n) + scattered_value((g + n) % 64, g, n);
                CHECKF(out[g] == want, "%s: out[%d] = %d, want %d", device, g, out[g], want);
            }
        }
        l = launch_1d("past", 64, 32);
        n = 64;
        visa_status s = visa_program_run(p, &l, args, 2, NULL);
        if (on_scratch)
            CHECKF(s == VISA_E_RUNTIME && saw(&st, "E-RUN-OOB-SCRATCH"), "%s: a[64] on scratch: %d", device, s);
        n = 63;
        CHECKF(visa_program_run(p, &l, args, 2, NULL) == VISA_OK && out[5] == 68, "%s: past with a[63]: %d", device,
               out[5]);
    }
    visa_program_destroy(p);
    CASE_END("scratch");
}

static void test_globals(void) {
    CASE_BEGIN();
    visa_program *p = build("constant int tbl[4] = {10, 20, 30, 40};\n"
                            "global int g = 5;\n"
                            "global int *gp = &g;\n"
                            "kernel void set(int v) { *gp = v; }\n"
                            "kernel void get(global int *o) { size_t i = get_global_id(0); o[i] = tbl[i & 3] + g; }\n",
                            "-cl-std=CL2.0");
    if (p) {
        int o[8], v = 1000;
        visa_cl_arg out = {VISA_CL_ARG_BUFFER, o, sizeof o}, val = {VISA_CL_ARG_VALUE, &v, 4};
        visa_cl_launch get = launch_1d("get", 8, 8), set = launch_1d("set", 1, 1);
        CHECKF(visa_program_run(p, &get, &out, 1, NULL) == VISA_OK, "%s: globals get", device);
        for (int i = 0; i < 8; i++) CHECKF(o[i] == 10 * (i % 4 + 1) + 5, "%s: o[%d] = %d", device, i, o[i]);
        CHECKF(visa_program_run(p, &set, &val, 1, NULL) == VISA_OK, "%s: globals set", device);
        CHECKF(visa_program_run(p, &get, &out, 1, NULL) == VISA_OK, "%s: globals get again", device);
        for (int i = 0; i < 8; i++)
            CHECKF(o[i] == 10 * (i % 4 + 1) + 1000, "%s: after set, o[%d] = %d", device, i, o[i]);
    }
    visa_program_destroy(p);
    CASE_END("globals");
}

typedef struct text_out {
    char s[4096];
    size_t len;
} text_out;

static visa_status collect(void *ud, const char *data, size_t len) {
    text_out *t = ud;
    if (len > sizeof t->s - 1 - t->len) return VISA_E_IO;
    memcpy(t->s + t->len, data, len);
    t->len += len;
    t->s[t->len] = 0;
    return VISA_OK;
}

static void test_printf(void) {
    CASE_BEGIN();
    visa_program *p = build("kernel void pf(int i, float f) { size_t g = get_global_id(0);\n"
                            "  printf(\"%d: i=%d f=%.2f s=%s\\n\", (int)g, i, f, \"lit\");\n"
                            "  if (g == 1) printf(\"v=%v4d x=%#x c=%c%%\\n\", (int4)(1, -2, 3, 4), 255, 'q'); }\n",
                            NULL);
    if (p) {
        int i = -7;
        float f = 2.5f;
        visa_cl_arg args[2] = {{VISA_CL_ARG_VALUE, &i, 4}, {VISA_CL_ARG_VALUE, &f, 4}};
        text_out t = {{0}, 0};
        visa_cl_launch l = launch_1d("pf", 2, 2);
        l.printf_out = collect;
        l.printf_ud = &t;
        CHECKF(visa_program_run(p, &l, args, 2, NULL) == VISA_OK, "%s: printf run", device);
        const char *want = "0: i=-7 f=2.50 s=lit\n1: i=-7 f=2.50 s=lit\nv=1,-2,3,4 x=0xff c=q%\n";
        CHECKF(!strcmp(t.s, want), "%s: printf printed [%s]", device, t.s);
    }
    visa_program_destroy(p);
    CASE_END("printf");
}

static void expect_error(visa_program *p, visa_cl_launch *l, const visa_cl_arg *args, size_t n, const char *code,
                         const char *what) {
    st.ncodes = 0;
    visa_status s = visa_program_run(p, l, args, n, NULL);
    CHECKF(s != VISA_OK && saw(&st, code), "%s: %s: status %d, no %s", device, what, s, code);
}

/* The first `needle` in [hay, hay + len), or NULL. */
static char *find_text(char *hay, size_t len, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (!memcmp(hay + i, needle, n)) return hay + i;
    return NULL;
}

static void test_errors(void) {
    CASE_BEGIN();
    visa_program *p =
        build("kernel __attribute__((reqd_work_group_size(8, 1, 1))) void k(global int *o, int v, local int *t) {\n"
              "  t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = t[0]; }\n",
              NULL);
    if (p) {
        int o[8], v = 1;
        visa_cl_arg good[3] = {
            {VISA_CL_ARG_BUFFER, o, sizeof o}, {VISA_CL_ARG_VALUE, &v, 4}, {VISA_CL_ARG_LOCAL, NULL, 32}};
        visa_cl_launch l = launch_1d("k", 8, 8);
        CHECKF(visa_program_run(p, &l, good, 3, NULL) == VISA_OK && o[7] == 1, "%s: the good launch", device);
        expect_error(p, &l, good, 2, "E-PROGRAM-ARG", "two arguments of three");
        visa_cl_arg swapped[3] = {good[1], good[0], good[2]};
        expect_error(p, &l, swapped, 3, "E-PROGRAM-ARG", "a value for a buffer");
        visa_cl_arg small[3] = {good[0], {VISA_CL_ARG_VALUE, &v, 2}, good[2]};
        expect_error(p, &l, small, 3, "E-PROGRAM-ARG", "a 2-byte int");
        visa_cl_launch bad_dim = l;
        bad_dim.work_dim = 4;
        expect_error(p, &bad_dim, good, 3, "E-PROGRAM-LAUNCH", "work_dim 4");
        visa_cl_launch bad_local = launch_1d("k", 16, 4);
        expect_error(p, &bad_local, good, 3, "E-PROGRAM-LAUNCH", "a local size against reqd_work_group_size");
        visa_cl_launch no_kernel = launch_1d("nope", 8, 8);
        expect_error(p, &no_kernel, good, 3, "E-PROGRAM-KERNEL", "no such kernel");
        CHECKF(visa_program_run(NULL, &l, good, 3, NULL) == VISA_E_ARG, "NULL program");
        /* the zebin again with .ze_info saying the int takes 0 bytes: the input the vISA reads is
        ** no payload argument's (layout.c), an error when the program is made */
        size_t len;
        const char *bin = visa_program_binary(p, &len);
        char *edited = bin ? malloc(len) : NULL;
        char *byvalue = NULL, *size = NULL;
        if (edited) {
            memcpy(edited, bin, len);
            byvalue = find_text(edited, len, "arg_byvalue");
            size = byvalue ? find_text(byvalue, len - (size_t)(byvalue - edited), "size:") : NULL;
        }
        CHECKF(size, "%s: the zebin's .ze_info has a by-value argument with a size", device);
        if (size) {
            char *digit = size + 5 + strspn(size + 5, " ");
            CHECKF(*digit == '4', "%s: the int's size reads %c", device, *digit);
            *digit = '0';
            visa_program_opts zo = {sizeof zo, VISA_PROGRAM_ZEBIN, NULL, NULL, NULL};
            visa_program *q = NULL;
            st.ncodes = 0;
            CHECKF(visa_program_create(ctx, "edited.zebin", edited, len, &zo, &q) == VISA_E_BINARY &&
                       saw(&st, "E-PROGRAM-INPUT"),
                   "%s: an input .ze_info does not describe", device);
            visa_program_destroy(q);
        }
        free(edited);
    }
    visa_program_destroy(p);
    CASE_END("errors");
}

int main(void) {
    if (TL_ASAN) {
        printf("SKIPPED: libocloc cannot be loaded under AddressSanitizer\n");
        return TH_SKIP_CODE;
    }
    visa_ctx_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.on_diag = on_diag;
    d.diag_ud = &st;
    if (visa_ctx_create(&d, &ctx) != VISA_OK) return 1;
    static const char *const devices[] = {"tgllp", "dg2-g10", "pvc"};
    for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
        device = devices[i];
        test_reduce();
        test_geometry();
        test_nonuniform();
        test_byvalue();
        test_private();
        test_scratch();
        test_globals();
        test_printf();
        test_errors();
    }
    visa_ctx_destroy(ctx);
    return th_finish();
}
