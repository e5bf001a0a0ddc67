#define _POSIX_C_SOURCE 200809L
/* test_inline_asm.c -- inline vISA written by others (issue 12), through the built `visa` CLI.
**
** ../shared/corpus/inline-asm holds the asm statements of intel/compute-samples (OpenCL),
** intel/llvm sycl/test-e2e/InlineAsm (SYCL) and CaoZhongZ/tvisa, each wrapped into a complete
** kernel; each folder's manifest.json gives the platform, whether the kernel must be rejected,
** and the `visa run` arguments.  For every kernel file of the three manifests:
**   fmt        fmt(fmt(x)) == fmt(x)                       (fmt-strip: with --strip-comments)
**   dis        dis(asm(x)) == fmt --strip-comments x
**   reasm      asm(dis(asm(x))) is byte-identical to asm(x)
**   verify     expect valid: `visa verify` exits 0; expect error: rejected (exit 1) with a first
**              diagnostic FILE:LINE:COL: error... pointing into that file (and at the bad line
**              where the test knows it); IGC's wording, where given, is logged next to ours
**   run        run not false and expect valid: `visa run` exits 0
**   print      the printed buffers equal what the source program computes (table below)
** Files the parser rejects (expect error) have no fmt/dis/reasm check ("n/a").
** Usage: test_inline_asm VISA_BINARY CORPUS_DIR     exits 77 when CORPUS_DIR is absent. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* ---- known failures ---------------------------------------------------------------------
** Checks that fail today for a reason tracked elsewhere: reported as "expected failure" and
** counted apart.  A check listed here that passes is reported (XPASS) so the entry is removed.
** The coordinator empties this list as the fixes merge. */
typedef struct known_failure {
    const char *file; /* folder/file */
    const char *check; /* check name, or "*" for every check of the file */
    const char *reason;
} known_failure;

static const known_failure KNOWN_FAILING[] = {
    /* any file whose re-assembled object differs from asm(x) but disassembles to the same text */
    {"(any file: string pool order)", "reasm",
     "issue 12: a .decl inside the function body enters asm(x)'s string pool after the labels and "
     "attributes, but dis prints it with the other .decl, so asm(dis(asm(x))) pools names in another order"},
    /* the manifest says valid, IGC's verifier (1.0.12504 and v2.x, LscInstVerifier::verifyDataShape)
    ** rejects: with 64-byte GRFs a SIMD32 d32x8 message is 16 GRFs, "this message accesses more
    ** than 8 registers" (V-LSC-PAYLOAD; GenX_IR -platform PVC agrees line by line) */
    {"tvisa/lsc_ugm_load_sg32.visaasm", "verify",
     "the manifest's 'valid' is wrong: IGC rejects SIMD32 d32x8 (V-LSC-PAYLOAD)"},
    {"tvisa/lsc_ugm_prefetch_sg32.visaasm", "verify",
     "the manifest's 'valid' is wrong: IGC rejects SIMD32 d32x8 (V-LSC-PAYLOAD)"},
    {"tvisa/lsc_ugm_store_sg32.visaasm", "verify",
     "the manifest's 'valid' is wrong: IGC rejects SIMD32 d32x8 (V-LSC-PAYLOAD)"},
};
#define STRING_POOL_ORDER "(any file: string pool order)"

/* ---- a tiny JSON reader, enough for the manifests ---------------------------------------- */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jval {
    jtype t;
    int b;
    double num;
    char *s; /* J_STR */
    int n; /* J_ARR/J_OBJ element count */
    char **keys; /* J_OBJ */
    struct jval **items; /* J_ARR/J_OBJ */
} jval;

typedef struct jreader {
    const char *p;
    int bad;
} jreader;

static void jskip(jreader *r) {
    while (*r->p && isspace((unsigned char)*r->p)) r->p++;
}

static char *jstring(jreader *r) {
    if (*r->p != '"') {
        r->bad = 1;
        return NULL;
    }
    r->p++;
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    while (*r->p && *r->p != '"') {
        char c = *r->p++;
        if (c == '\\') {
            c = *r->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': /* the manifests are ASCII; keep a marker for anything else */
                for (int k = 0; k < 4 && *r->p; k++) r->p++;
                c = '?';
                break;
            case 0:
                r->bad = 1;
                free(out);
                return NULL;
            default: break; /* \" \\ \/ */
            }
        }
        if (len + 2 > cap) out = realloc(out, cap *= 2);
        out[len++] = c;
    }
    if (*r->p != '"') {
        r->bad = 1;
        free(out);
        return NULL;
    }
    r->p++;
    out[len] = 0;
    return out;
}

static jval *jparse(jreader *r);

static void jpush(jval *v, char *key, jval *item) {
    v->items = realloc(v->items, sizeof *v->items * (size_t)(v->n + 1));
    if (v->t == J_OBJ) v->keys = realloc(v->keys, sizeof *v->keys * (size_t)(v->n + 1)), v->keys[v->n] = key;
    v->items[v->n++] = item;
}

static jval *jparse(jreader *r) {
    jskip(r);
    jval *v = calloc(1, sizeof *v);
    char c = *r->p;
    if (c == '{' || c == '[') {
        v->t = c == '{' ? J_OBJ : J_ARR;
        char close = c == '{' ? '}' : ']';
        r->p++;
        jskip(r);
        if (*r->p == close) {
            r->p++;
            return v;
        }
        for (;;) {
            char *key = NULL;
            jskip(r);
            if (v->t == J_OBJ) {
                key = jstring(r);
                jskip(r);
                if (r->bad || *r->p != ':') {
                    r->bad = 1;
                    free(key);
                    return v;
                }
                r->p++;
            }
            jpush(v, key, jparse(r));
            if (r->bad) return v;
            jskip(r);
            if (*r->p == ',') {
                r->p++;
                continue;
            }
            if (*r->p == close) {
                r->p++;
                return v;
            }
            r->bad = 1;
            return v;
        }
    }
    if (c == '"') {
        v->t = J_STR;
        v->s = jstring(r);
        return v;
    }
    if (!strncmp(r->p, "true", 4)) {
        v->t = J_BOOL;
        v->b = 1;
        r->p += 4;
        return v;
    }
    if (!strncmp(r->p, "false", 5)) {
        v->t = J_BOOL;
        r->p += 5;
        return v;
    }
    if (!strncmp(r->p, "null", 4)) {
        r->p += 4;
        return v;
    }
    char *end;
    v->t = J_NUM;
    v->num = strtod(r->p, &end);
    if (end == r->p) r->bad = 1;
    r->p = end;
    return v;
}

static void jfree(jval *v) {
    if (!v) return;
    for (int i = 0; i < v->n; i++) {
        jfree(v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->s);
    free(v);
}

static jval *jget(const jval *obj, const char *key) {
    if (!obj || obj->t != J_OBJ) return NULL;
    for (int i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key)) return obj->items[i];
    return NULL;
}

static const char *jstr(const jval *obj, const char *key) {
    jval *v = jget(obj, key);
    return v && v->t == J_STR ? v->s : NULL;
}

static const char *run_extra; /* one more `visa run` option (main's third argument) */

/* ---- bookkeeping ------------------------------------------------------------------------- */
enum { C_FMT, C_FMT_STRIP, C_DIS, C_REASM, C_VERIFY, C_RUN, C_PRINT, C_COUNT };
static const char *check_names[C_COUNT] = {"fmt", "fmt-strip", "dis", "reasm", "verify", "run", "print"};
static int n_pass[C_COUNT], n_fail[C_COUNT], n_xfail[C_COUNT], n_na[C_COUNT];

static const known_failure *known(const char *file, int check) {
    for (size_t i = 0; i < sizeof KNOWN_FAILING / sizeof *KNOWN_FAILING; i++)
        if (!strcmp(KNOWN_FAILING[i].file, file) &&
            (!strcmp(KNOWN_FAILING[i].check, "*") || !strcmp(KNOWN_FAILING[i].check, check_names[check])))
            return &KNOWN_FAILING[i];
    return NULL;
}

/* Records one check of file; a failure is expected if KNOWN_FAILING lists known_key. */
static void report_as(const char *file, const char *known_key, int check, int ok, const char *why) {
    const known_failure *k = known(known_key, check);
    if (ok) {
        n_pass[check]++;
        if (k) printf("XPASS %s %s: passes now; remove it from KNOWN_FAILING\n", file, check_names[check]);
    } else if (k) {
        n_xfail[check]++;
        printf("expected failure (%s) %s %s: %s\n", k->reason, file, check_names[check], why);
    } else {
        n_fail[check]++;
        printf("FAIL %s %s: %s\n", file, check_names[check], why);
        show_stderr();
    }
}

static void report(const char *file, int check, int ok, const char *why) { report_as(file, file, check, ok, why); }

/* ---- what the source programs compute ----------------------------------------------------
** The wrapping (the folders' README.md) loads each per-lane asm operand from its own buffer,
** in operand order, lane i reading element i, and stores outputs back the same way; scalar
** operands are kernel arguments.  So with the manifests' run_args (iota: element i = i), each
** expected value below is the asm's formula from the source applied to those inputs; the
** formula is quoted from the source (its C comment or its host-side reference check). */
typedef double (*expect_fn)(long i);

static double iota_d(long i) { return (double)i; }
static double sevens(long i) {
    (void)i;
    return 7;
}
static double zero(long i) {
    (void)i;
    return 0;
}
/* constraints_float: "sf = -sf" on the float operand */
static double neg_f(long i) { return (double)-(float)i; }
/* constraints_immediate: "dst |= 1 << (sizeof(int) * 8 - 1) | 0x42" */
static double or_imm(long i) { return (double)(int32_t)((uint32_t)i | 0x80000000u | 0x42u); }
/* constraints_load_store_pointer: "dst = src + tid", src = s[tid] = i */
static double twice(long i) { return 2.0 * (double)i; }
/* constraints_multiple_inputs: "dst = src1 - 0xa55a" (the immediate is 0xffff5aa6) */
static double minus_a55a(long i) { return (double)(i - 0xa55a); }
/* constraints_multiple_outputs: operands (dst2, dst3, dst1); "dst1 <<= 8; dst2 <<= 16; dst3 <<= 24" */
static double shl16(long i) { return (double)(int32_t)((uint32_t)i << 16); }
static double shl24(long i) { return (double)(int32_t)((uint32_t)i << 24); }
static double shl8(long i) { return (double)(int32_t)((uint32_t)i << 8); }
/* same_io_plus "dst *= dst"; template_no_inputs "dst = dst * dst"; malloc_shared_32 b = a * c */
static double square(long i) { return (double)(i * i); }
/* constraints_single_output: "dst = - dst - dst" */
static double neg_twice(long i) { return -2.0 * (double)i; }
/* func_body: foo1_in_asm(x0, x1, x2) on x2 = s3[i] = i, in 32-bit unsigned arithmetic:
** v0 = (x2 >> 31) - x2; v0 *= 0x9e5bd9d; v0 = ~v0; v0 *= 0xffac0a */
static double foo1_in_asm(long i) {
    uint32_t x2 = (uint32_t)i, v0 = (x2 >> 31) - x2;
    v0 *= 0x9e5bd9du;
    v0 = ~v0;
    v0 *= 0xffac0au;
    return (double)v0;
}
/* pragma_unroll: "res = mx_el * vec_el", vec_el = V[i] the uniform scalar argument 3;
** asm_loop: C = A * B with B = 3; asm_mul: A * B with B = 3 */
static double times3(long i) { return 3.0 * (double)i; }
/* template_no_outputs: "tmp += 0x42" */
static double plus_42(long i) { return (double)(i + 0x42); }
/* template_var_scope: "dst = src2 * dst - src1; dst = dst + src1 * src2" with all three = i */
static double var_scope(long i) { return (double)(i * i - i + i * i); }
/* tf32_cvt: intel_convert_f32_to_tf32 keeps the float layout with the mantissa rounded to 10
** bits, to nearest even */
static double tf32_of_i(long i) {
    float f = (float)i;
    uint32_t b;
    memcpy(&b, &f, 4);
    b += 0xfffu + ((b >> 13) & 1u);
    b &= ~0x1fffu;
    return (double)(int32_t)b;
}
/* The 3x3 median filters (for_loop, whole_kernel, single_basic_block's if branch): the image
** is pSrc = iota, width 32 pixels, the 16 lanes are pixels x = 1..16 of row y = 1, so lane i
** writes pixel 33 + i with the per-byte-channel median of its 3x3 aperture; nothing else is
** written. */
static uint32_t median9_channels(const uint32_t px[9]) {
    uint32_t result = 0;
    for (int ch = 0; ch < 4; ch++) {
        uint32_t v[9];
        for (int k = 0; k < 9; k++) v[k] = (px[k] >> (8 * ch)) & 0xffu;
        for (int a = 1; a < 9; a++) /* insertion sort; v[4] is the median */
            for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
                uint32_t t = v[b];
                v[b] = v[b - 1];
                v[b - 1] = t;
            }
        result |= v[4] << (8 * ch);
    }
    return result;
}
static double median_image(long i) {
    const long width = 32, lane = i - 33;
    if (lane < 0 || lane >= 16) return 0;
    uint32_t px[9];
    int k = 0;
    for (long dy = -1; dy <= 1; dy++)
        for (long dx = -1; dx <= 1; dx++) px[k++] = (uint32_t)(i + dy * width + dx);
    return (double)median9_channels(px);
}
/* region: the median filter between the asm statements is replaced by a store of the iNext
** operand (lane + 65 in the wrapping, note column); lanes with iNext + x + 1 < height * width
** (3 * 32) take it, the others (lane 15) copy pSrc[33 + lane]. */
static double region(long i) {
    long lane = i - 33;
    if (lane < 0 || lane >= 16) return 0;
    long inext = lane + 65, x = lane + 1;
    return inext + x + 1 < 3 * 32 ? (double)inext : (double)i;
}
/* gemm: "C[glob_col * M + glob_row] = alpha * acc + beta * C[...]", acc = sum over n < N of
** A[n * M + glob_row] * B[glob_col * N + n]; alpha 2, beta 0.5, N 4, M 16, glob_col 0,
** A = iota, B = 1, C = 1 (buffers 2, 1, 0: the asm operand order) */
static double gemm_c(long r) {
    float acc = 0;
    for (long n = 0; n < 4; n++) acc += (float)(n * 16 + r) * 1.0f;
    return (double)(2.0f * acc + 0.5f * 1.0f);
}
/* asm_arbitrary_ops_order: D = A * B + C, C = 16 */
static double mad_16(long i) { return (double)(i * i + 16); }
/* asm_float_add: A + B, B = 2 */
static double plus2_f(long i) { return (double)((float)i + 2.0f); }
/* asm_float_imm_arg: A * 0.5 (the "i" operand 0x3f000000) */
static double half_f(long i) { return (double)((float)i * 0.5f); }
/* asm_imm_arg: A + 0xabc */
static double plus_abc(long i) { return (double)(i + 0xabc); }
/* asm_multiple_instructions: A += B; A += C; D = A with C = 16 (both D and A printed) */
static double two_i_16(long i) { return (double)(2 * i + 16); }
/* asm_plus_mod: "+rw"(b) += a with b = 16 */
static double plus16(long i) { return (double)(i + 16); }
/* letter_example: a[i]++ */
static double plus1(long i) { return (double)(i + 1); }
/* malloc_shared_in_out_dif: b += tmp with b = -1 and tmp the operand buffer (iota; the C
** statement tmp += 1 is outside the asm and not part of the wrapping) */
static double minus1(long i) { return (double)(i - 1); }


typedef struct expectation {
    const char *file;
    int buf;
    expect_fn fn;
} expectation;

static const expectation EXPECT[] = {
    {"compute-samples-visa-injection/constraints_float.visaasm", 0, neg_f},
    {"compute-samples-visa-injection/constraints_immediate.visaasm", 0, or_imm},
    {"compute-samples-visa-injection/constraints_load_store_pointer.visaasm", 1, twice},
    {"compute-samples-visa-injection/constraints_multiple_inputs.visaasm", 0, minus_a55a},
    {"compute-samples-visa-injection/constraints_multiple_outputs.visaasm", 0, shl16},
    {"compute-samples-visa-injection/constraints_multiple_outputs.visaasm", 1, shl24},
    {"compute-samples-visa-injection/constraints_multiple_outputs.visaasm", 2, shl8},
    {"compute-samples-visa-injection/constraints_same_io_equal.visaasm", 0, twice}, /* dst += dst */
    {"compute-samples-visa-injection/constraints_same_io_plus.visaasm", 0, square},
    {"compute-samples-visa-injection/constraints_single_input.visaasm", 0, zero}, /* dst ^= dst */
    {"compute-samples-visa-injection/constraints_single_output.visaasm", 0, neg_twice},
    {"compute-samples-visa-injection/for_loop.visaasm", 1, median_image},
    {"compute-samples-visa-injection/func_body.visaasm", 0, foo1_in_asm},
    {"compute-samples-visa-injection/gemm.visaasm", 0, gemm_c},
    {"compute-samples-visa-injection/gemm_pvc.visaasm", 0, gemm_c},
    {"compute-samples-visa-injection/pragma_unroll.visaasm", 0, times3},
    {"compute-samples-visa-injection/region.visaasm", 0, region},
    /* the else branch "pDst[iOffset + x] = pSrc[iOffset + x]" */
    {"compute-samples-visa-injection/single_basic_block.visaasm", 1, iota_d},
    /* "dst = dst - tmp1; dst = dst * tmp2" with dst, tmp1, tmp2 all i: (i - i) * i */
    {"compute-samples-visa-injection/template_mltpl_insts.visaasm", 0, zero},
    {"compute-samples-visa-injection/template_no_inputs.visaasm", 0, square},
    {"compute-samples-visa-injection/template_no_outputs.visaasm", 0, plus_42},
    /* "dst = src1 - dst" with both i */
    {"compute-samples-visa-injection/template_operands_ao.visaasm", 0, zero},
    /* "dst = dst - src2 * src1; dst = dst * (src2 - src1)": the factor src2 - src1 is 0 */
    {"compute-samples-visa-injection/template_var_decl.visaasm", 0, zero},
    {"compute-samples-visa-injection/template_var_scope.visaasm", 0, var_scope},
    {"compute-samples-visa-injection/tf32_cvt.visaasm", 0, tf32_of_i},
    {"compute-samples-visa-injection/whole_kernel.visaasm", 1, median_image},
    /* asm_16_no_input_int, malloc_shared_no_input: mov 0x7; asm_if with switchField false
    ** and asm_switch with switchField 2: Output = 7 ("verify_all_the_same(..., 7)") */
    {"intel-llvm-inlineasm/asm_16_no_input_int.visaasm", 0, sevens},
    {"intel-llvm-inlineasm/asm_arbitrary_ops_order.visaasm", 0, mad_16},
    {"intel-llvm-inlineasm/asm_decl_in_scope.visaasm", 0, twice},
    {"intel-llvm-inlineasm/asm_float_add.visaasm", 0, plus2_f},
    {"intel-llvm-inlineasm/asm_float_imm_arg.visaasm", 0, half_f},
    {"intel-llvm-inlineasm/asm_float_neg.visaasm", 0, neg_f},
    {"intel-llvm-inlineasm/asm_if.visaasm", 0, sevens},
    {"intel-llvm-inlineasm/asm_imm_arg.visaasm", 0, plus_abc},
    {"intel-llvm-inlineasm/asm_loop.visaasm", 0, times3},
    {"intel-llvm-inlineasm/asm_mul.visaasm", 0, times3},
    {"intel-llvm-inlineasm/asm_multiple_instructions.visaasm", 0, two_i_16},
    {"intel-llvm-inlineasm/asm_multiple_instructions.visaasm", 1, two_i_16},
    {"intel-llvm-inlineasm/asm_plus_mod.visaasm", 0, plus16},
    {"intel-llvm-inlineasm/asm_switch.visaasm", 0, sevens},
    {"intel-llvm-inlineasm/letter_example.visaasm", 0, plus1},
    {"intel-llvm-inlineasm/malloc_shared_32.visaasm", 0, square},
    {"intel-llvm-inlineasm/malloc_shared_in_out_dif.visaasm", 0, minus1},
    {"intel-llvm-inlineasm/malloc_shared_no_input.visaasm", 0, sevens},
};

static expect_fn find_expect(const char *file, int buf) {
    for (size_t i = 0; i < sizeof EXPECT / sizeof *EXPECT; i++)
        if (!strcmp(EXPECT[i].file, file) && EXPECT[i].buf == buf) return EXPECT[i].fn;
    return NULL;
}

/* ---- where a rejection must point ---------------------------------------------------------
** Beyond "a line of the file": the negative tests' bad line follows `.decl tmp2` (the
** make_simple_asm_kernel shape); for the others, a word of the offending line, from the
** manifest's note. */
typedef struct marker {
    const char *file;
    const char *word;
} marker;

static const marker MARKERS[] = {
    {"tvisa/arithmetic_add_half.visaasm", "alias="},
    {"tvisa/dubious_fence_system.visaasm", ".system"},
    {"tvisa/dubious_lsc_ugm_load_ra_sg16.visaasm", ".ra."},
    {"tvisa/dubious_lsc_ugm_load_ra_sg32.visaasm", ".ra."},
    {"tvisa/dubious_lsc_ugm_load_ra_sg8.visaasm", ".ra."},
    {"tvisa/dubious_lsc_ugm_prefetch_ra_sg16.visaasm", ".ra."},
    {"tvisa/dubious_lsc_ugm_prefetch_ra_sg32.visaasm", ".ra."},
    {"tvisa/dubious_lsc_ugm_prefetch_ra_sg8.visaasm", ".ra."},
    {"tvisa/systolic_dp4a.visaasm", "dp4a"},
    {"compute-samples-visa-injection/neg_divm_icllp.visaasm", "divm"},
    {"compute-samples-visa-injection/neg_rol_cfl.visaasm", "rol"},
};

/* Line n (1-based) of text, copied into out; 0 if there is none. */
static int nth_line(const char *text, long n, char *out, size_t cap) {
    const char *p = text;
    for (long k = 1; k < n && p; k++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p) return 0;
    size_t len = strcspn(p, "\n");
    if (len >= cap) len = cap - 1;
    memcpy(out, p, len);
    out[len] = 0;
    return 1;
}

static long line_of(const char *text, const char *needle) {
    const char *hit = strstr(text, needle);
    if (!hit) return 0;
    long line = 1;
    for (const char *p = text; p < hit; p++) line += *p == '\n';
    return line;
}

/* Checks the first diagnostic of a rejection; fills why on failure. */
static int rejection_ok(const char *key, const char *path, const char *msg_igc, char *why, size_t cap) {
    char *err = read_file(scratch("stderr"), NULL), *src = read_file(path, NULL);
    int ok = 0;
    if (!err || !src) {
        snprintf(why, cap, "no diagnostics");
        goto done;
    }
    size_t pl = strlen(path);
    char *d = err; /* first line FILE:LINE:COL: error */
    if (strncmp(d, path, pl) || d[pl] != ':') {
        snprintf(why, cap, "first diagnostic does not start with '%.300s:LINE:COL:': %.120s", path, d);
        goto done;
    }
    char *end;
    long line = strtol(d + pl + 1, &end, 10), col = 0;
    if (*end == ':') col = strtol(end + 1, &end, 10);
    if (line < 1 || col < 1 || strncmp(end, ": error", 7)) {
        snprintf(why, cap, "first diagnostic is not FILE:LINE:COL: error...: %.120s", d);
        goto done;
    }
    char text[4096];
    if (!nth_line(src, line, text, sizeof text) || (size_t)col > strlen(text) + 1) {
        snprintf(why, cap, "%ld:%ld is not a position in the file", line, col);
        goto done;
    }
    long tmp2 = line_of(src, ".decl tmp2 ");
    if (tmp2 && line <= tmp2) {
        snprintf(why, cap, "points at line %ld, not at the bad line after .decl tmp2 (line %ld)", line, tmp2);
        goto done;
    }
    for (size_t i = 0; i < sizeof MARKERS / sizeof *MARKERS; i++)
        if (!strcmp(MARKERS[i].file, key) && !strstr(text, MARKERS[i].word)) {
            snprintf(why, cap, "points at line %ld ('%.300s'), which has no '%s'", line, text, MARKERS[i].word);
            goto done;
        }
    ok = 1;
    /* IGC's wording is information, not a requirement */
    char *msg = strstr(end, ": error");
    msg = msg ? strchr(msg + 2, ':') : NULL;
    if (msg_igc && *msg_igc) {
        size_t ml = msg ? strcspn(msg + 1, "\n") : 0;
        char ours[512];
        snprintf(ours, sizeof ours, "%.*s", (int)ml, msg ? msg + 1 : "");
        int same = 0;
        for (const char *p = ours; *p && !same; p++) same = !strncasecmp(p, msg_igc, strlen(msg_igc));
        printf("  message %s: IGC/manifest \"%s\"; ours%s \"%s\" (line %ld)\n", key, msg_igc,
               same ? " (same words)" : " (differs)", ours[0] == ' ' ? ours + 1 : ours, line);
    }
done:
    free(err);
    free(src);
    return ok;
}

/* ---- printed values ---------------------------------------------------------------------- */
static int print_ok(const char *key, const char *out, const jval *prints, char *why, size_t cap) {
    const char *line = out;
    for (int k = 0; k < prints->n; k++) {
        const char *spec = prints->items[k]->s;
        int buf = atoi(spec);
        const char *type = strchr(spec, ':');
        type = type ? type + 1 : "";
        expect_fn fn = find_expect(key, buf);
        if (!fn) {
            snprintf(why, cap, "no reference values for --print %s", spec);
            return 0;
        }
        if (!line || !*line) {
            snprintf(why, cap, "no output line for --print %s", spec);
            return 0;
        }
        size_t len = strcspn(line, "\n");
        char *copy = strndup(line, len);
        line = line[len] ? line + len + 1 : line + len;
        long i = 0;
        char *p = copy, *end;
        int bad = 0;
        while (*p) {
            while (*p == ' ') p++;
            if (!*p) break;
            double got = strtod(p, &end);
            if (end == p) {
                bad = 1;
                snprintf(why, cap, "buffer %d: unparsable '%.20s'", buf, p);
                break;
            }
            double want = fn(i);
            int same = !strcmp(type, "f") ? ((float)got == (float)want && signbit(got) == signbit(want)) : got == want;
            if (!same) {
                bad = 1;
                snprintf(why, cap, "buffer %d element %ld: got %.9g, the source computes %.9g", buf, i, got, want);
                break;
            }
            i++;
            p = end;
        }
        free(copy);
        if (bad) return 0;
        if (i == 0) {
            snprintf(why, cap, "buffer %d printed no values", buf);
            return 0;
        }
    }
    return 1;
}

/* ---- one kernel file --------------------------------------------------------------------- */
static int is_ident(const char *s) {
    if (!s || !*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

static void test_file(const char *corpus, const char *folder, const char *name, const jval *e) {
    char key[512], path[1024], why[1024];
    snprintf(key, sizeof key, "%s/%s", folder, name);
    snprintf(path, sizeof path, "%s/%s/%s", corpus, folder, name);
    const char *platform = jstr(e, "platform");
    const char *expect = jstr(e, "expect");
    int valid = expect && !strcmp(expect, "valid");
    if (!platform || !expect) {
        for (int c = 0; c < C_COUNT; c++) report(key, c, 0, "manifest entry without platform/expect");
        return;
    }

    /* 1. fmt fixpoint, with and without comments */
    int parsed = 1;
    for (int strip = 0; strip < 2; strip++) {
        int c = strip ? C_FMT_STRIP : C_FMT;
        char *a = scratch(strip ? "fmt_s1" : "fmt1"), *b = scratch(strip ? "fmt_s2" : "fmt2");
        const char *args1[] = {"fmt", path, "--platform", platform, strip ? "--strip-comments" : NULL, NULL};
        int rc = visa(a, args1);
        if (rc == 1 && !valid) {
            parsed = 0;
            n_na[c]++;
            continue;
        }
        if (rc != 0) {
            snprintf(why, sizeof why, "visa fmt exit %d", rc);
            report(key, c, 0, why);
            parsed = 0;
            continue;
        }
        const char *args2[] = {"fmt", a, "--platform", platform, strip ? "--strip-comments" : NULL, NULL};
        rc = visa(b, args2);
        if (rc != 0) snprintf(why, sizeof why, "fmt of fmt's output: exit %d", rc);
        else snprintf(why, sizeof why, "fmt(fmt(x)) differs from fmt(x)");
        report(key, c, rc == 0 && same_files(a, b), why);
    }

    /* 2. asm -> dis -> asm round trip */
    if (!parsed && valid) {
        report(key, C_DIS, 0, "does not parse");
        report(key, C_REASM, 0, "does not parse");
    } else if (!parsed) {
        n_na[C_DIS]++;
        n_na[C_REASM]++;
    } else {
        char *obj1 = scratch("x1.isa"), *dis = scratch("dis.visaasm"), *obj2 = scratch("x2.isa");
        const char *a1[] = {"asm", path, "--platform", platform, "-o", obj1, NULL};
        int rc = visa(NULL, a1);
        if (rc != 0) {
            snprintf(why, sizeof why, "visa asm exit %d", rc);
            report(key, C_DIS, 0, why);
            report(key, C_REASM, 0, why);
        } else {
            const char *d[] = {"dis", obj1, "--platform", platform, NULL};
            rc = visa(dis, d);
            if (rc != 0) snprintf(why, sizeof why, "visa dis exit %d", rc);
            else snprintf(why, sizeof why, "dis(asm(x)) differs from fmt --strip-comments x");
            report(key, C_DIS, rc == 0 && same_files(dis, scratch("fmt_s1")), why);
            const char *a2[] = {"asm", dis, "--platform", platform, "-o", obj2, NULL};
            int rc2 = rc == 0 ? visa(NULL, a2) : -1;
            int same = rc2 == 0 && same_files(obj1, obj2);
            if (rc2 != 0) snprintf(why, sizeof why, "visa asm of the disassembly: exit %d", rc2);
            else snprintf(why, sizeof why, "asm(dis(asm(x))) differs from asm(x)");
            if (rc2 == 0 && !same) { /* the same program with its names pooled in another order? */
                char *dis2 = scratch("dis2.visaasm");
                const char *d2[] = {"dis", obj2, "--platform", platform, NULL};
                if (visa(dis2, d2) == 0 && same_files(dis, dis2)) {
                    snprintf(why, sizeof why, "the objects differ but disassemble to the same text");
                    report_as(key, STRING_POOL_ORDER, C_REASM, 0, why);
                    goto reasm_done;
                }
            }
            report(key, C_REASM, same, why);
        reasm_done:;
        }
    }

    /* 3. verify */
    const char *v[] = {"verify", path, "--platform", platform, NULL};
    int rc = visa(NULL, v);
    if (valid) {
        snprintf(why, sizeof why, "visa verify exit %d on a kernel IGC accepts", rc);
        report(key, C_VERIFY, rc == 0, why);
    } else if (rc != 1) {
        snprintf(why, sizeof why, "visa verify exit %d on a kernel that must be rejected", rc);
        report(key, C_VERIFY, 0, why);
    } else {
        report(key, C_VERIFY, rejection_ok(key, path, jstr(e, "expected_message"), why, sizeof why), why);
    }

    /* 4. run, and the printed values */
    jval *run = jget(e, "run");
    if (!valid || (run && run->t == J_BOOL && !run->b)) {
        n_na[C_RUN]++;
        n_na[C_PRINT]++;
        return;
    }
    const char *args[64];
    int n = 0;
    char prints_buf[16][32];
    args[n++] = "run";
    args[n++] = path;
    args[n++] = "--no-verify"; /* the verify check judges verification; this one execution */
    args[n++] = "--platform";
    args[n++] = platform;
    const char *kernel = jstr(e, "kernel");
    char kname[256] = "";
    if (kernel) { /* "test_call_func2 (foo1_in_asm inlined)": the name is the first word */
        snprintf(kname, sizeof kname, "%.*s", (int)strcspn(kernel, " "), kernel);
        if (is_ident(kname)) {
            args[n++] = "--kernel";
            args[n++] = kname;
        }
    }
    jval *ra = jget(e, "run_args");
    for (int k = 0; ra && k < ra->n && n < 56; k++) {
        args[n++] = "--arg";
        args[n++] = ra->items[k]->s;
    }
    jval *pr = jget(e, "print");
    for (int k = 0; pr && k < pr->n && k < 16 && n < 60; k++) {
        snprintf(prints_buf[k], sizeof prints_buf[k], "%s", pr->items[k]->s);
        args[n++] = "--print";
        args[n++] = prints_buf[k];
    }
    if (run_extra) args[n++] = run_extra;
    args[n] = NULL;
    char *out = scratch("run.out");
    rc = visa(out, args);
    snprintf(why, sizeof why, "visa run exit %d", rc);
    report(key, C_RUN, rc == 0, why);
    if (!pr || pr->n == 0) {
        n_na[C_PRINT]++;
        return;
    }
    if (rc != 0) {
        report(key, C_PRINT, 0, "nothing printed (run failed)");
        return;
    }
    char *text = read_file(out, NULL);
    report(key, C_PRINT, text && print_ok(key, text, pr, why, sizeof why), why);
    free(text);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: test_inline_asm VISA_BINARY CORPUS_DIR [RUN_OPTION]\n");
        return 2;
    }
    run_extra = argc == 4 ? argv[3] : NULL; /* --check=all: the runs must find nothing */
    visa_bin = argv[1];
    const char *corpus = argv[2];
    static const char *const folders[] = {"tvisa", "compute-samples-visa-injection", "intel-llvm-inlineasm"};
    struct stat st;
    char mpath[1024];
    snprintf(mpath, sizeof mpath, "%s/%s/manifest.json", corpus, folders[0]);
    if (stat(mpath, &st) != 0) {
        printf("SKIPPED: inline-asm corpus tests (%s not found)\n0 passed, 0 failed\n", mpath);
        return 77;
    }
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/visa-inline-asm-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }

    int files = 0, bad_manifest = 0;
    for (size_t f = 0; f < sizeof folders / sizeof *folders; f++) {
        snprintf(mpath, sizeof mpath, "%s/%s/manifest.json", corpus, folders[f]);
        char *text = read_file(mpath, NULL);
        jreader r = {text ? text : "", !text};
        jval *m = text ? jparse(&r) : NULL;
        if (r.bad || !m || m->t != J_OBJ) {
            printf("FAIL %s: unreadable manifest\n", mpath);
            bad_manifest++;
        } else {
            for (int k = 0; k < m->n; k++, files++) test_file(corpus, folders[f], m->keys[k], m->items[k]);
        }
        jfree(m);
        free(text);
    }

    static const char *const names[] = {"stdout", "stderr", "fmt1",        "fmt2",         "fmt_s1", "fmt_s2",
                                        "x1.isa", "x2.isa", "dis.visaasm", "dis2.visaasm", "run.out"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) remove(scratch(names[k]));
    rmdir(tmpdir);

    int pass = 0, fail = bad_manifest, xfail = 0;
    printf("\n%d kernel files\n%-10s %6s %6s %9s %5s\n", files, "check", "passed", "failed", "expected", "n/a");
    for (int c = 0; c < C_COUNT; c++) {
        printf("%-10s %6d %6d %9d %5d\n", check_names[c], n_pass[c], n_fail[c], n_xfail[c], n_na[c]);
        pass += n_pass[c];
        fail += n_fail[c];
        xfail += n_xfail[c];
    }
    printf("%d expected failures (KNOWN_FAILING, issue 12)\n", xfail);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
