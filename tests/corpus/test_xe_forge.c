#define _POSIX_C_SOURCE 200809L
/* test_xe_forge.c -- IGC's Xe2 dumps of MLIR kernels (../shared/corpus/xe-forge, issue 12).
**
** Part 1, run: every one of the 27 kernels runs through the public API with the OpenCL launch
** model (docs/launch.md) on Xe2: several work-groups, real inputs (negatives, fractions, signed
** zeros, the values that take each kernel's special paths), and every element of every buffer is
** compared with a reference computed here from what the kernel's vISA computes (read from the
** file, not from its one-line summary: see each ref_* below).  Elements a kernel must not write
** (past a tail mask, p1's unused slots) must keep their fill, and input buffers must be unchanged.
**
** Arguments follow IGC's layout of MLIR memrefs (notes: igc-research 1.3, docs/launch.md): each
** memref is (allocated ptr, aligned ptr, offset, sizes..., strides...); pointers come first, in
** memref order, then the by-value integers, then local_size where the kernel reads it.
**
** Exact operations must match bit for bit.  The transcendental instructions (exp, inv, rsqrt,
** sqrt) have no precision in the spec; this test uses the bound tests/emu/model_alu.c states for
** them (math_tol): a float result within MATH_ULPS = 4 units in the last place of the exact value,
** at least the denormal quantum 2^-149.  A kernel that applies exact operations to such a result
** (ew_div's x * inv(y) * scale, ew_exp's exp(n) * exp(r)) is checked against the interval those
** operations map the allowed results to: rounding is monotone, so the interval's ends are the
** ends' images.
**
** Part 2, text and objects: for every xe-forge and igc-dumps file, through the built `visa` CLI:
**   fmt        fmt(fmt(x)) == fmt(x)                       (fmt-strip: with --strip-comments)
**   canonical  (xe-forge) fmt --strip-comments x == x without Xe-Forge's 4-line // header, modulo
**              IGC's print mode (see canonical_form())
**   identical  (xe-forge) fmt x == x byte for byte: the formatter keeps IGC's asm-text style
**   asm-text   (xe-forge) fmt --strip-comments --asm-text x == x without the 4-line header
**   dis        dis(asm(x)) == fmt --strip-comments x       (on Xe2)
**   reasm      asm(dis(asm(x))) is byte-identical to asm(x)
**   verify     visa verify --platform Xe2 reports no errors
**
** Usage: test_xe_forge VISA_BINARY CORPUS_DIR    (CORPUS_DIR holds xe-forge/ and igc-dumps/);
** exits 77 when CORPUS_DIR/xe-forge is absent. */
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "visa/visa.h"

/* ---- known failures ---------------------------------------------------------------------
** Checks that fail today for a reason tracked elsewhere: reported as "expected failure" and
** counted apart.  A listed check that passes is reported (XPASS) so the entry is removed. */
typedef struct known_failure {
    const char *file; /* file name (ew_add.visaasm) */
    const char *check; /* check name (run, fmt, ...) */
    const char *reason;
} known_failure;

static const known_failure KNOWN_FAILING[] = {
    {"(none today; C has no empty initializer)", "", ""},
};

static int n_pass, n_fail, n_xfail;

static const known_failure *known(const char *file, const char *check) {
    for (size_t i = 0; i < sizeof KNOWN_FAILING / sizeof *KNOWN_FAILING; i++)
        if (!strcmp(KNOWN_FAILING[i].file, file) && !strcmp(KNOWN_FAILING[i].check, check)) return &KNOWN_FAILING[i];
    return NULL;
}

static void report(const char *file, const char *check, int ok, const char *why) {
    const known_failure *k = known(file, check);
    if (ok) {
        n_pass++;
        if (k) printf("XPASS %s %s: passes now; remove it from KNOWN_FAILING\n", file, check);
    } else if (k) {
        n_xfail++;
        printf("expected failure (%s) %s %s: %s\n", k->reason, file, check, why);
    } else {
        n_fail++;
        printf("FAIL %s %s: %s\n", file, check, why);
    }
}

/* ---- floats --------------------------------------------------------------------------------- */
static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float fval(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* What one output element must be. */
typedef enum { W_EXACT, W_RANGE, W_UNTOUCHED } want_kind;
typedef struct want {
    want_kind kind;
    uint32_t bits; /* W_EXACT */
    float lo, hi; /* W_RANGE: lo <= result <= hi */
} want;

static want exact(float f) { return (want){W_EXACT, fbits(f), 0, 0}; }
static want range(float a, float b) {
    float lo = a < b ? a : b, hi = a < b ? b : a;
    if (fbits(lo) == fbits(hi)) return exact(lo);
    return (want){W_RANGE, 0, lo, hi};
}

#define MATH_ULPS 4 /* tests/emu/model_alu.c math_tol: f results of inv, sqrt, rsqrt, exp */

static float float_at_least(double v) {
    float f = (float)v;
    if ((double)f < v) f = nextafterf(f, INFINITY);
    return f;
}
static float float_at_most(double v) {
    float f = (float)v;
    if ((double)f > v) f = nextafterf(f, -INFINITY);
    return f;
}
/* The floats a math instruction may return for the exact value ref (> 0 or an exact zero). */
static void math_range(double ref, float *lo, float *hi) {
    if (ref == 0 || isinf(ref)) {
        *lo = *hi = (float)ref;
        return;
    }
    double tol = fmax(0x1p-149, MATH_ULPS * ldexp(1.0, ilogb(ref) - 23));
    *lo = float_at_least(ref - tol);
    *hi = ref + tol >= 0x1p128 ? INFINITY : float_at_most(ref + tol); /* rounds to inf there */
    if (ref > 0 && *lo < 0) *lo = 0; /* exp, sqrt, rsqrt of these inputs are not negative */
}

/* f32 -> bf16 -> f32, to nearest even (the kernel's %cr0 rounding; no NaN inputs here) */
static float bf16_round(float y) {
    uint32_t u = fbits(y);
    u += 0x7fffu + ((u >> 16) & 1u);
    return fval(u & 0xffff0000u);
}
/* f32 -> f16 -> f32, to nearest even, f16 denormals kept (%cr0 0x4c0), overflow to inf */
static float f16_round(float y) {
    float a = fabsf(y), q;
    if (a >= 65520.0f) q = INFINITY; /* half way between 65504 and 2^16 and above */
    else if (a < 0x1p-14f) q = rintf(a * 0x1p24f) * 0x1p-24f; /* denormal step 2^-24 */
    else {
        float step = ldexpf(1.0f, ilogbf(a) - 10);
        q = rintf(a / step) * step;
    }
    return copysignf(q, y);
}

/* ---- what the kernels compute ---------------------------------------------------------------
** Each ref_* follows the kernel's instructions; the comment quotes them. */

/* ew_add: add a, b; add r, 0.0 (so -0 + -0 gives +0) */
static want ref_add(float a, float b) { return exact((a + b) + 0.0f); }
/* ew_sub: add a, (-)b; add 0.0 */
static want ref_sub(float a, float b) { return exact((a + -b) + 0.0f); }
/* ew_mul: mul a, b; add 0.0 */
static want ref_mul(float a, float b) { return exact((a * b) + 0.0f); }
/* ew_max: max a, b; add 0.0 (the inputs have no NaN; a zero max of either sign becomes +0) */
static want ref_max(float a, float b) { return exact((a > b ? a : b) + 0.0f); }
/* ew_div:
**   e = bits(b) & 0x7f800000; s = e == 0 ? 2^32 : 1; if (e >= 0x64000000) s = 2^-32
**   q = (inv(b * s) * a) * s
**   r = (a == b && e != 0 && mantissa(b) != 0) ? 1.0 : q;  add r, 0.0 */
static want ref_div(float a, float b) {
    uint32_t e = fbits(b) & 0x7f800000u, mant = fbits(b) & 0x7fffffu;
    float s = e == 0 ? fval(0x4f800000u) : 1.0f;
    if (e >= 0x64000000u) s = fval(0x2f800000u);
    if (a == b && !(e == 0 || mant == 0)) return exact(1.0f + 0.0f);
    float t = b * s, ilo, ihi;
    double inv = 1.0 / (double)t;
    math_range(fabs(inv), &ilo, &ihi);
    if (inv < 0) { /* inv's range of a negative t, as a range */
        float x = -ihi;
        ihi = -ilo;
        ilo = x;
    }
    return range((ilo * a) * s + 0.0f, (ihi * a) * s + 0.0f);
}
/* ew_exp, ew_exp_masked_loop:
**   t = x * log2e (0x3fb8aa3b); n = rndz(t)
**   r = mad(n, 0xbf317200, x); r = mad(n, 0xb5bfbe8e, r); r = r * log2e   (mad is fused)
**   y = exp(n) * exp(r); x < -105 ? 0 : y; x > 105 ? inf : y  (exp is 2^x) */
static want ref_exp(float x) {
    if (x > 105.0f) return exact(INFINITY);
    if (x < -105.0f) return exact(0.0f);
    const float log2e = fval(0x3fb8aa3bu);
    float n = truncf(x * log2e);
    float r = fmaf(n, fval(0xbf317200u), x);
    r = fmaf(n, fval(0xb5bfbe8eu), r) * log2e;
    float plo, phi, elo, ehi;
    math_range(exp2((double)n), &plo, &phi);
    math_range(exp2((double)r), &elo, &ehi);
    return range(plo * elo, phi * ehi);
}
/* ew_floor_int: mov f -> d (toward zero), mov d -> f (inputs within +-2^31) */
static want ref_floor_int(float x) { return exact((float)(int32_t)x); }
/* ew_neg_abs: mov (-abs)x */
static want ref_neg_abs(float x) { return exact(-fabsf(x)); }
/* ew_rsqrt: add (abs)x, 1.0; rsqrt */
static want ref_rsqrt(float x) {
    float lo, hi;
    math_range(1.0 / sqrt((double)(fabsf(x) + 1.0f)), &lo, &hi);
    return range(lo, hi);
}
/* ew_sqrt: sqrt (abs)x */
static want ref_sqrt(float x) {
    float lo, hi;
    math_range(sqrt((double)fabsf(x)), &lo, &hi);
    return range(lo, hi);
}
/* ew_select_neg: h = x * 0.5; x < 0 ? h : x; add 0.0 */
static want ref_select_neg(float x) { return exact((x < 0 ? x * 0.5f : x) + 0.0f); }
/* convert_bf16 / convert_f16: mul x, 3.3 (0x40533333); mov f -> bf/hf; mov back to f */
static want ref_convert_bf16(float x) { return exact(bf16_round(x * fval(0x40533333u))); }
static want ref_convert_f16(float x) { return exact(f16_round(x * fval(0x40533333u))); }
/* p2_one_subgroup, p3_two_subgroups: mul x, 2.0 */
static want ref_twice(float x) { return exact(x * 2.0f); }
/* transpose_2d copies */
static want ref_copy(float x) { return exact(x); }

/* ---- inputs ------------------------------------------------------------------------------ */
static uint32_t hash(uint32_t mem, uint32_t i) {
    uint32_t h = i * 2654435761u ^ (mem + 1) * 0x9e3779b9u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return h;
}
/* Mixed floats: random sign, exponents -20..20 with full mantissas, short values k/4, and signed
** zeros at fixed indices (the same in every buffer, so a + b meets -0 + -0). */
static float gen_mixed(int mem, size_t i) {
    if (i % 29 == 3) return -0.0f;
    if (i % 31 == 5) return 0.0f;
    uint32_t h = hash((uint32_t)mem, (uint32_t)i);
    float v;
    if ((h & 3) == 0) v = (float)((int)((h >> 8) % 41) - 20) * 0.25f;
    else v = ldexpf(1.0f + (float)((h >> 9) & 0x7fffff) * 0x1p-23f, (int)((h >> 2) % 41) - 20);
    return (h & 0x80) ? -v : v;
}
/* ew_div's divisor: no zero; some equal to the dividend (the 1.0 path), some denormal (scaled by
** 2^32), some at least 2^73 (scaled by 2^-32), some powers of two (mantissa 0: no 1.0 path). */
static float gen_div(int mem, size_t i) {
    float a = gen_mixed(0, i);
    if (mem == 0) return a;
    switch (i % 11) {
    case 2: return a == 0 ? 3.0f : a;
    case 4: return (i & 16) ? -0x1.8p-140f : 0x1.234p-130f;
    case 6: return (i & 16) ? 0x1.5p80f : -0x1p100f;
    case 8: return ldexpf((i & 16) ? -1.0f : 1.0f, (int)(i % 7) - 3);
    default: break;
    }
    float b = gen_mixed(1, i);
    return b == 0 ? -1.75f : b;
}
/* exp: mostly -20..20, plus the saturation edges and values near them */
static float gen_exp(int mem, size_t i) {
    static const float edge[] = {0.0f,   -0.0f,   1.0f,    -1.0f,   0.5f,   -100.0f, 88.5f,  -87.25f,
                                 105.5f, -105.5f, 104.75f, -104.0f, 200.0f, -200.0f, 100.0f, -0.0001f};
    (void)mem;
    if (i % 5 == 1) return edge[(i / 5) % (sizeof edge / sizeof *edge)];
    uint32_t h = hash(7, (uint32_t)i);
    return ((float)(int)(h % 40001) - 20000.0f) / 1000.0f + (float)(h >> 24) * 0x1p-20f;
}
/* floor_int: fractions of both signs within +-1e6, halves, small magnitudes */
static float gen_floor(int mem, size_t i) {
    static const float edge[] = {-2.5f, 2.5f, -0.3f, 0.7f, -1.0f, 1000000.5f, -7.999f, -0.0f, 0.0f, -1e6f};
    (void)mem;
    if (i % 4 == 1) return edge[(i / 4) % (sizeof edge / sizeof *edge)];
    uint32_t h = hash(3, (uint32_t)i);
    float v = (float)(h % 2000001) / 2.0f * ((h & 0x100) ? 0.001f : 1.0f);
    return (h & 0x80) ? -v : v;
}
/* convert: mixed, plus f16 denormals and underflow, f16 overflow, and exact ties of both
** roundings (x with x * 3.3 exactly half way between two bf16 or f16 values) */
static float tie_input(uint32_t h, uint32_t half, int exp) {
    for (int tries = 0; tries < 16; tries++, h = hash(h, 99)) {
        uint32_t mant = (h & 0x7fffffu & ~(2 * half - 1)) | half;
        float target = fval((uint32_t)(exp + 127) << 23 | mant);
        float x = target / fval(0x40533333u);
        for (int d = -3; d <= 3; d++) {
            float c = x;
            for (int k = 0; k < (d < 0 ? -d : d); k++) c = nextafterf(c, d < 0 ? -INFINITY : INFINITY);
            if (c * fval(0x40533333u) == target) return (h & 0x100) ? -c : c;
        }
    }
    return 1.0f;
}
static float gen_convert_bf16(int mem, size_t i) {
    static const float edge[] = {1e-6f, -1e-9f, 20000.0f, -19860.0f, 1.0f, 0.1f, -0.3f, 1e30f, -0.0f, 3e-39f};
    if (i % 5 == 1) return edge[(i / 5) % (sizeof edge / sizeof *edge)];
    if (i % 5 == 3) return tie_input(hash(11, (uint32_t)i), 0x8000u, (int)(i % 9) - 4);
    return gen_mixed(mem, i);
}
static float gen_convert_f16(int mem, size_t i) {
    static const float edge[] = {1e-6f, -1e-9f, 20000.0f, -19860.0f, 1.0f, 0.1f, -0.3f, 4e-6f, -0.0f, 19849.0f};
    if (i % 5 == 1) return edge[(i / 5) % (sizeof edge / sizeof *edge)];
    if (i % 5 == 3) return tie_input(hash(13, (uint32_t)i), 0x1000u, (int)(i % 9) - 4);
    return gen_mixed(mem, i);
}
/* sub-group reductions: no zeros (the sign of a zero max of -0 and +0 is not the point here);
** sub-group 1 all negative, sub-group 2 all positive, the rest mixed */
static float gen_sg(int mem, size_t i) {
    float v = gen_mixed(mem, i);
    if (v == 0) v = (i & 1) ? 0.625f : -0.625f;
    if (i / 16 == 1) v = -fabsf(v);
    if (i / 16 == 2) v = fabsf(v);
    return v;
}

/* ---- the kernels --------------------------------------------------------------------------- */
enum { MAXMEM = 3 };
typedef struct kcase kcase;
typedef void (*expect_fn)(const kcase *k, uint8_t *const *in, want *w);
struct kcase {
    const char *file; /* xe-forge file */
    const char *kernel; /* its .kernel name */
    const char *computes; /* for the log */
    unsigned lx, gx, gy; /* local size x, groups x and y */
    int nmem; /* memrefs */
    size_t rows[MAXMEM]; /* elements per memref (1-D), rows (2-D) */
    size_t cols[MAXMEM]; /* 0 for a 1-D memref, else columns */
    unsigned esize; /* bytes per element of memrefs other than the output (4 or 2) */
    int out; /* the memref the kernel writes */
    int local_size_arg; /* the kernel reads local_size (the last input) */
    float (*gen)(int mem, size_t i);
    want (*ew1)(float); /* elementwise: out[i] = ew1(in0[i]) ... */
    want (*ew2)(float, float); /* ... or ew2(in0[i], in1[i]), for i < bound */
    size_t bound; /* elementwise: elements written; the rest keep their fill */
    expect_fn expect; /* the others */
};

#define FILL 0x7fbadbadu /* a NaN no kernel computes: output elements it must not write */

static float in_f(uint8_t *const *in, int mem, size_t i) {
    float f;
    memcpy(&f, in[mem] + 4 * i, 4);
    return f;
}
static size_t elems(const kcase *k, int mem) { return k->rows[mem] * (k->cols[mem] ? k->cols[mem] : 1); }

static void expect_elementwise(const kcase *k, uint8_t *const *in, want *w) {
    for (size_t i = 0; i < elems(k, k->out); i++) {
        if (i >= k->bound) w[i] = (want){W_UNTOUCHED, FILL, 0, 0};
        else if (k->ew2) w[i] = k->ew2(in_f(in, 0, i), in_f(in, 1, i));
        else w[i] = k->ew1(in_f(in, 0, i));
    }
}
/* p1_scalar_store: lid == 0: out[group] = float(r0.1) + 42.0 (mov d -> f; add 0x42280000) */
static void expect_p1(const kcase *k, uint8_t *const *in, want *w) {
    (void)in;
    for (size_t g = 0; g < elems(k, k->out); g++)
        w[g] = g < k->gx ? exact((float)g + 42.0f) : (want){W_UNTOUCHED, FILL, 0, 0};
}
/* p4_subgroup_sum: v = 0 (NoMask), v = x (the enabled lanes); s8[i] = v[i] + v[i+8];
** s4[i] = s8[i] + s8[i+4]; s2[i] = s4[i] + s4[i+2]; out[group] = s2[0] + s2[1] (lid 0) */
static void expect_p4(const kcase *k, uint8_t *const *in, want *w) {
    for (size_t g = 0; g < elems(k, k->out); g++) {
        if (g >= k->gx) {
            w[g] = (want){W_UNTOUCHED, FILL, 0, 0};
            continue;
        }
        float v[16];
        for (unsigned l = 0; l < 16; l++) v[l] = l < k->lx ? in_f(in, 0, g * k->lx + l) : 0.0f;
        for (unsigned width = 8; width >= 1; width /= 2)
            for (unsigned l = 0; l < width; l++) v[l] = v[l] + v[l + width];
        w[g] = exact(v[0]);
    }
}
/* sg_max / sg_min: v = -inf / +inf (NoMask), v = x; max (min) tree 8, 4, 2, 1; the lanes with
** (lid & 15) == 0 store it at out + ((gid >> 2) & ~3): out[gid / 16] */
static void expect_sg(const kcase *k, uint8_t *const *in, want *w, int is_max) {
    size_t subgroups = (size_t)k->gx * k->lx / 16;
    for (size_t s = 0; s < elems(k, k->out); s++) {
        if (s >= subgroups) {
            w[s] = (want){W_UNTOUCHED, FILL, 0, 0};
            continue;
        }
        float m = is_max ? -INFINITY : INFINITY;
        for (unsigned l = 0; l < 16; l++) {
            float x = in_f(in, 0, s * 16 + l);
            m = is_max ? (x > m ? x : m) : (x < m ? x : m);
        }
        w[s] = exact(m);
    }
}
static void expect_sg_max(const kcase *k, uint8_t *const *in, want *w) { expect_sg(k, in, w, 1); }
static void expect_sg_min(const kcase *k, uint8_t *const *in, want *w) { expect_sg(k, in, w, 0); }
/* transpose_2d: i = group x * lx + lid, j = group y (r0.6): out[j * 32 + i] = in[i * 8 + j]
** (load at in + i * 32 + j * 4, store at out + j * 128 + i * 4) */
static void expect_transpose(const kcase *k, uint8_t *const *in, want *w) {
    size_t n = (size_t)k->gx * k->lx;
    for (size_t j = 0; j < k->gy; j++)
        for (size_t i = 0; i < n; i++) w[j * n + i] = ref_copy(in_f(in, 0, i * k->gy + j));
}
/* dpas_gemm_bf16 / _f16: group (x, y) loads the 8 x 16 tile of C (32 x 32 f32) at rows 8x,
** columns 16y, adds A (32 x 64) rows 8x times B (64 x 32) columns 16y in four dpas steps of
** K = 16, and stores the tile back.  The inputs are small multiples of 2^-3 and 2^-2 (exact in
** bf16 and f16), so every partial sum is exact in f32 and the result does not depend on dpas's
** order of summation: the reference is the exact sum, compared bit for bit. */
static double dpas_in(const kcase *k, uint8_t *const *in, int mem, size_t i) {
    uint16_t h;
    memcpy(&h, in[mem] + 2 * i, 2);
    if (!strcmp(k->kernel, "dpas_gemm_bf16")) return (double)fval((uint32_t)h << 16);
    /* f16: the generator wrote only normal values k * 2^-3 / 2^-2 */
    int e = (h >> 10) & 31;
    double v = e == 0 ? ldexp(h & 1023, -24) : ldexp(1024 + (h & 1023), e - 25);
    return (h & 0x8000) ? -v : v;
}
static void expect_dpas(const kcase *k, uint8_t *const *in, want *w) {
    size_t M = k->rows[2], N = k->cols[2], K = k->cols[0];
    for (size_t m = 0; m < M; m++)
        for (size_t n = 0; n < N; n++) {
            double acc = in_f(in, 2, m * N + n);
            for (size_t kk = 0; kk < K; kk++) acc += dpas_in(k, in, 0, m * K + kk) * dpas_in(k, in, 1, kk * N + n);
            w[m * N + n] = exact((float)acc);
        }
}

/* -- the table: launch and inputs of each kernel -- */
#define MEM1(n) \
    {n, n, n}, { 0, 0, 0 }
static const kcase KERNELS[] = {
    {"ew_add.visaasm", "ew_add", "c = (a + b) + 0.0", 32, 3, 1, 3, MEM1(96), 4, 2, 1, gen_mixed, NULL, ref_add, 96,
     NULL},
    {"ew_sub.visaasm", "ew_sub", "c = (a + -b) + 0.0", 32, 3, 1, 3, MEM1(96), 4, 2, 1, gen_mixed, NULL, ref_sub, 96,
     NULL},
    {"ew_mul.visaasm", "ew_mul", "c = a * b + 0.0", 32, 3, 1, 3, MEM1(96), 4, 2, 1, gen_mixed, NULL, ref_mul, 96, NULL},
    {"ew_max.visaasm", "ew_max", "c = max(a, b) + 0.0", 32, 3, 1, 3, MEM1(96), 4, 2, 1, gen_mixed, NULL, ref_max, 96,
     NULL},
    {"ew_div.visaasm", "ew_div", "c = a / b as scaled x * inv(y), 1.0 when a == b", 32, 3, 1, 3, MEM1(96), 4, 2, 1,
     gen_div, NULL, ref_div, 96, NULL},
    {"ew_add_masked.visaasm", "ew_add_masked", "c = (a + b) + 0.0 for i < 219", 64, 4, 1, 3, MEM1(256), 4, 2, 1,
     gen_mixed, NULL, ref_add, 219, NULL},
    {"ew_sub_masked.visaasm", "ew_sub_masked", "c = (a + -b) + 0.0 for i < 219", 64, 4, 1, 3, MEM1(256), 4, 2, 1,
     gen_mixed, NULL, ref_sub, 219, NULL},
    {"ew_mul_masked.visaasm", "ew_mul_masked", "c = a * b + 0.0 for i < 219", 64, 4, 1, 3, MEM1(256), 4, 2, 1,
     gen_mixed, NULL, ref_mul, 219, NULL},
    {"ew_max_masked.visaasm", "ew_max_masked", "c = max(a, b) + 0.0 for i < 219", 64, 4, 1, 3, MEM1(256), 4, 2, 1,
     gen_mixed, NULL, ref_max, 219, NULL},
    {"ew_exp.visaasm", "ew_exp", "b = 2^n * 2^r (x = n ln2 + r), 0 below -105, inf above 105; 2 per work-item", 16, 3,
     1, 2, MEM1(96), 4, 1, 1, gen_exp, ref_exp, NULL, 96, NULL},
    {"ew_exp_masked_loop.visaasm", "ew_exp_masked_loop", "as ew_exp for i < 219; 4 per work-item", 16, 4, 1, 2,
     MEM1(256), 4, 1, 1, gen_exp, ref_exp, NULL, 219, NULL},
    {"ew_floor_int.visaasm", "ew_floor_int", "b = float(int(a)), toward zero; 2 per work-item", 16, 3, 1, 2, MEM1(96),
     4, 1, 1, gen_floor, ref_floor_int, NULL, 96, NULL},
    {"ew_neg_abs.visaasm", "ew_neg_abs", "b = -|a|; 2 per work-item", 16, 3, 1, 2, MEM1(96), 4, 1, 1, gen_mixed,
     ref_neg_abs, NULL, 96, NULL},
    {"ew_rsqrt.visaasm", "ew_rsqrt", "b = rsqrt(|a| + 1); 2 per work-item", 16, 3, 1, 2, MEM1(96), 4, 1, 1, gen_mixed,
     ref_rsqrt, NULL, 96, NULL},
    {"ew_sqrt.visaasm", "ew_sqrt", "b = sqrt(|a|); 2 per work-item", 16, 3, 1, 2, MEM1(96), 4, 1, 1, gen_mixed,
     ref_sqrt, NULL, 96, NULL},
    {"ew_select_neg.visaasm", "ew_select_neg", "b = (a < 0 ? a * 0.5 : a) + 0.0; 2 per work-item", 16, 3, 1, 2,
     MEM1(96), 4, 1, 1, gen_mixed, ref_select_neg, NULL, 96, NULL},
    {"convert_bf16.visaasm", "convert_bf16", "b = f32(bf16(a * 3.3))", 32, 3, 1, 2, MEM1(96), 4, 1, 1, gen_convert_bf16,
     ref_convert_bf16, NULL, 96, NULL},
    {"convert_f16.visaasm", "convert_f16", "b = f32(f16(a * 3.3))", 32, 3, 1, 2, MEM1(96), 4, 1, 1, gen_convert_f16,
     ref_convert_f16, NULL, 96, NULL},
    {"p1_scalar_store.visaasm", "scalar_store", "out[group] = group + 42.0 (work-item 0)", 32, 4, 1, 2, MEM1(8), 4, 1,
     0, gen_mixed, NULL, NULL, 0, expect_p1},
    {"p2_one_subgroup.visaasm", "p2_one_subgroup", "out = 2 * in", 16, 3, 1, 2, MEM1(48), 4, 1, 1, gen_mixed, ref_twice,
     NULL, 48, NULL},
    {"p3_two_subgroups.visaasm", "p3_two_subgroups", "out = 2 * in", 32, 3, 1, 2, MEM1(96), 4, 1, 1, gen_mixed,
     ref_twice, NULL, 96, NULL},
    {"p4_subgroup_sum.visaasm",
     "p4_subgroup_sum",
     "out[group] = tree sum of the group's 16",
     16,
     4,
     1,
     2,
     {64, 8, 0},
     {0, 0, 0},
     4,
     1,
     1,
     gen_mixed,
     NULL,
     NULL,
     0,
     expect_p4},
    /* a partial sub-group: lanes 12-15 are off (the dispatch mask) and keep the NoMask 0 */
    {"p4_subgroup_sum.visaasm",
     "p4_subgroup_sum",
     "out[group] = tree sum of the group's 12 and four zeros",
     12,
     3,
     1,
     2,
     {36, 8, 0},
     {0, 0, 0},
     4,
     1,
     1,
     gen_mixed,
     NULL,
     NULL,
     0,
     expect_p4},
    {"sg_max.visaasm",
     "sg_max",
     "out[s] = max of sub-group s's 16",
     32,
     3,
     1,
     2,
     {96, 8, 0},
     {0, 0, 0},
     4,
     1,
     1,
     gen_sg,
     NULL,
     NULL,
     0,
     expect_sg_max},
    {"sg_min.visaasm",
     "sg_min",
     "out[s] = min of sub-group s's 16",
     32,
     3,
     1,
     2,
     {96, 8, 0},
     {0, 0, 0},
     4,
     1,
     1,
     gen_sg,
     NULL,
     NULL,
     0,
     expect_sg_min},
    {"transpose_2d.visaasm",
     "transpose_2d",
     "out (8 x 32) = transpose of in (32 x 8)",
     16,
     2,
     8,
     2,
     {256, 256, 0},
     {0, 0, 0},
     4,
     1,
     1,
     gen_mixed,
     NULL,
     NULL,
     0,
     expect_transpose},
    {"dpas_gemm_bf16.visaasm",
     "dpas_gemm_bf16",
     "C (32 x 32 f32) += A (32 x 64 bf16) * B (64 x 32 bf16)",
     16,
     4,
     2,
     3,
     {32, 64, 32},
     {64, 32, 32},
     2,
     2,
     0,
     NULL,
     NULL,
     NULL,
     0,
     expect_dpas},
    {"dpas_gemm_f16.visaasm",
     "dpas_gemm_f16",
     "C (32 x 32 f32) += A (32 x 64 f16) * B (64 x 32 f16)",
     16,
     4,
     2,
     3,
     {32, 64, 32},
     {64, 32, 32},
     2,
     2,
     0,
     NULL,
     NULL,
     NULL,
     0,
     expect_dpas},
};

/* dpas inputs: A = k * 2^-3, B = k * 2^-2 with k in -8..8 (hashed), C = k * 2^-1 */
static uint16_t to_half(const kcase *k, double v) {
    if (!strcmp(k->kernel, "dpas_gemm_bf16")) return (uint16_t)(fbits((float)v) >> 16);
    if (v == 0) return 0;
    int e = ilogb(v);
    uint16_t m = (uint16_t)(ldexp(fabs(v), 10 - e) - 1024); /* exact: at most 4 significant bits */
    return (uint16_t)((v < 0 ? 0x8000 : 0) | (e + 15) << 10 | m);
}
static void fill_dpas(const kcase *k, uint8_t **buf) {
    for (int mem = 0; mem < 2; mem++)
        for (size_t i = 0; i < elems(k, mem); i++) {
            int q = (int)(hash((uint32_t)mem + 20, (uint32_t)i) % 17) - 8;
            uint16_t h = to_half(k, ldexp(q, mem == 0 ? -3 : -2));
            memcpy(buf[mem] + 2 * i, &h, 2);
        }
    for (size_t i = 0; i < elems(k, 2); i++) {
        float c = (float)((int)(hash(22, (uint32_t)i) % 17) - 8) * 0.5f;
        memcpy(buf[2] + 4 * i, &c, 4);
    }
}

/* ---- running one kernel ---------------------------------------------------------------------- */
static char diag_text[4096];
static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    size_t n = strlen(diag_text);
    if (n + 200 < sizeof diag_text)
        snprintf(diag_text + n, sizeof diag_text - n, "  %u:%u: %s\n", d->line, d->col, d->message);
}

static const char *fmt_f(char *s, size_t cap, uint32_t bits) {
    snprintf(s, cap, "%.9g (0x%08x)", (double)fval(bits), bits);
    return s;
}

static void run_kernel(visa_ctx *ctx, const char *dir, const kcase *k) {
    char path[2200], why[2048], detail[1536], label[256];
    snprintf(path, sizeof path, "%s/%s", dir, k->file);
    snprintf(label, sizeof label, "run (local %u, groups %u,%u)", k->lx, k->gx, k->gy);
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        report(k->file, "run", 0, "cannot read the file");
        return;
    }
    diag_text[0] = 0;
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, k->file, text, len, VISA_PLATFORM_XE2, &m) != VISA_OK) {
        snprintf(why, sizeof why, "does not parse:\n%s", diag_text);
        report(k->file, "run", 0, why);
        free(text);
        return;
    }
    free(text);

    /* the buffers: inputs generated, outputs filled */
    uint8_t *buf[MAXMEM], *snap[MAXMEM];
    visa_buffer vb[MAXMEM];
    for (int mem = 0; mem < k->nmem; mem++) {
        unsigned es = mem == k->out ? 4 : k->esize;
        size_t bytes = elems(k, mem) * es;
        buf[mem] = malloc(bytes);
        snap[mem] = malloc(bytes);
        for (size_t i = 0; i < elems(k, mem); i++) {
            uint32_t u = mem != k->out && k->gen ? fbits(k->gen(mem, i)) : FILL;
            if (es == 4) memcpy(buf[mem] + 4 * i, &u, 4);
        }
        vb[mem] = (visa_buffer){buf[mem], bytes};
    }
    if (k->expect == expect_dpas) fill_dpas(k, buf);
    for (int mem = 0; mem < k->nmem; mem++) memcpy(snap[mem], buf[mem], vb[mem].size);

    /* the arguments: pointers (allocated, aligned) per memref, then offset, sizes, strides per
    ** memref, then local_size */
    visa_arg args[32];
    size_t nargs = 0;
    memset(args, 0, sizeof args);
    for (int mem = 0; mem < k->nmem; mem++)
        for (int twice = 0; twice < 2; twice++)
            args[nargs].kind = VISA_ARG_BUFFER, args[nargs++].buffer = (uint32_t)mem;
    for (int mem = 0; mem < k->nmem; mem++) {
        uint64_t vals[5] = {0, k->rows[mem], 1, 0, 0};
        int nv = 3;
        if (k->cols[mem]) vals[2] = k->cols[mem], vals[3] = k->cols[mem], vals[4] = 1, nv = 5;
        for (int v = 0; v < nv; v++) args[nargs].kind = VISA_ARG_INT, args[nargs++].value = vals[v];
    }
    if (k->local_size_arg) args[nargs++].kind = VISA_ARG_LOCAL_SIZE;

    visa_kernel_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    int ok = visa_kernel_get_info(m, NULL, VISA_PLATFORM_XE2, &info) == VISA_OK;
    if (!ok || !info.opencl || info.simd_size != 16 || info.arg_count != nargs) {
        snprintf(why, sizeof why,
                 "ABI: the kernel takes %u arguments (opencl %d, SIMD %u), the memref layout gives %zu", info.arg_count,
                 info.opencl, info.simd_size, nargs);
        report(k->file, "run", 0, why);
        goto done;
    }
    if (k->local_size_arg) { /* local_size is the last input: 3 x 4 bytes */
        visa_input_info last;
        memset(&last, 0, sizeof last);
        if (visa_kernel_input_at(m, NULL, VISA_PLATFORM_XE2, info.input_count - 1, &last) != VISA_OK ||
            last.size != 12) {
            report(k->file, "run", 0, "ABI: the last input is not 12 bytes (local_size)");
            goto done;
        }
    }

    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = k->gx, ro.groups[1] = k->gy, ro.groups[2] = 1;
    ro.local_size[0] = k->lx, ro.local_size[1] = 1, ro.local_size[2] = 1;
    diag_text[0] = 0;
    visa_status st = visa_module_run(m, &ro, args, nargs, vb, (size_t)k->nmem, NULL);
    if (st != VISA_OK) {
        snprintf(why, sizeof why, "visa_module_run: %s\n%s", visa_status_str(st), diag_text);
        report(k->file, "run", 0, why);
        goto done;
    }

    /* compare every element of every buffer */
    size_t nout = elems(k, k->out), n_exact = 0, n_range = 0, n_untouched = 0, bad = 0;
    want *w = calloc(nout, sizeof *w);
    if (k->expect) k->expect(k, snap, w);
    else expect_elementwise(k, snap, w);
    detail[0] = 0;
    for (size_t i = 0; i < nout; i++) {
        uint32_t got;
        memcpy(&got, buf[k->out] + 4 * i, 4);
        float g = fval(got);
        int good = w[i].kind == W_RANGE ? !isnan(g) && g >= w[i].lo && g <= w[i].hi : got == w[i].bits;
        n_exact += w[i].kind == W_EXACT, n_range += w[i].kind == W_RANGE, n_untouched += w[i].kind == W_UNTOUCHED;
        if (!good && bad++ < 4) {
            char a[64], b[64], c[64];
            size_t n = strlen(detail);
            if (w[i].kind == W_RANGE)
                snprintf(detail + n, sizeof detail - n, "\n  out[%zu] = %s, want within [%s, %s]", i, fmt_f(a, 64, got),
                         fmt_f(b, 64, fbits(w[i].lo)), fmt_f(c, 64, fbits(w[i].hi)));
            else
                snprintf(detail + n, sizeof detail - n, "\n  out[%zu] = %s, want %s%s", i, fmt_f(a, 64, got),
                         fmt_f(b, 64, w[i].bits), w[i].kind == W_UNTOUCHED ? " (not written)" : "");
        }
    }
    for (int mem = 0; mem < k->nmem; mem++)
        if (mem != k->out && memcmp(buf[mem], snap[mem], vb[mem].size)) {
            size_t n = strlen(detail);
            snprintf(detail + n, sizeof detail - n, "\n  input memref %d was written", mem);
            bad++;
        }
    free(w);
    printf("%s %s: %s, %s; %zu exact, %zu within %d ulps of a math result, %zu not written\n", bad ? "    " : "ok  ",
           k->file, label, k->computes, n_exact, n_range, MATH_ULPS, n_untouched);
    snprintf(why, sizeof why, "%zu wrong element(s) of %zu:%s", bad, nout, detail);
    report(k->file, "run", !bad, why);
done:
    for (int mem = 0; mem < k->nmem; mem++) free(buf[mem]), free(snap[mem]);
    visa_module_destroy(m);
}

/* ---- part 2: text and objects through the CLI ------------------------------------------------ */

/* IGC prints a kernel two ways (visa/IsaDisassembly.cpp printKernelHeader): as a disassembly,
** with blank lines between sections and the predefined variables as a "/// VISA Predefined
** Variables" block of "// .decl" comments, and in asm-text mode (option vISA_IsaAssembly, how
** IGC v2.41.5 wrote the xe-forge dumps) without both.  `visa fmt` prints the first; this drops
** the blank lines and that block from its output, so the rest must match byte for byte. */
static char *canonical_form(const char *printed) {
    size_t n = strlen(printed);
    char *out = malloc(n + 1), *o = out;
    int in_block = 0;
    for (const char *p = printed; *p;) {
        size_t len = strcspn(p, "\n");
        int nl = p[len] == '\n';
        if (len == 0) in_block = 0;
        else if (len == 29 && !strncmp(p, "/// VISA Predefined Variables", 29)) in_block = 1;
        else if (in_block && !strncmp(p, "// .decl ", 9)) {
        } else {
            in_block = 0;
            memcpy(o, p, len + nl);
            o += len + nl;
        }
        p += len + nl;
    }
    *o = 0;
    return out;
}

/* x without its first four lines (Xe-Forge's // header) */
static const char *skip_lines(const char *s, int lines) {
    for (int i = 0; i < lines && s; i++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    return s ? s : "";
}

static void text_checks(const char *dir, const char *name, int xe_forge) {
    char path[2200], why[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *pf = "Xe2";
    for (int strip = 0; strip < 2; strip++) {
        char *a = scratch(strip ? "fmt_s1" : "fmt1"), *b = scratch(strip ? "fmt_s2" : "fmt2");
        const char *args1[] = {"fmt", path, "--platform", pf, strip ? "--strip-comments" : NULL, NULL};
        int rc = visa(a, args1), rc2 = -1;
        if (rc == 0) {
            const char *args2[] = {"fmt", a, "--platform", pf, strip ? "--strip-comments" : NULL, NULL};
            rc2 = visa(b, args2);
        }
        snprintf(why, sizeof why,
                 rc    ? "visa fmt exit %d"
                 : rc2 ? "fmt of fmt's output: exit %d"
                       : "fmt(fmt(x)) differs from fmt(x)",
                 rc ? rc : rc2);
        report(name, strip ? "fmt-strip" : "fmt", rc == 0 && rc2 == 0 && same_files(a, b), why);
        if (rc) show_stderr();
    }
    if (xe_forge) {
        char *src = read_file(path, NULL), *printed = read_file(scratch("fmt_s1"), NULL);
        char *canon = printed ? canonical_form(printed) : NULL;
        const char *body = src ? skip_lines(src, 4) : "";
        int same = canon && src && !strcmp(canon, body);
        snprintf(why, sizeof why, "fmt --strip-comments x differs from x without its 4-line header");
        if (!same && canon && src) {
            size_t i = 0;
            long line = 5;
            while (canon[i] && canon[i] == body[i]) line += canon[i++] == '\n';
            snprintf(why + strlen(why), sizeof why - strlen(why), " (first at line %ld of the file)", line);
        }
        report(name, "canonical", same, why);
        /* IGC's asm-text print itself: the formatter keeps the file's style, so fmt(x) is x (its
        ** header comments included); --strip-comments --asm-text is x without them */
        char *kept = scratch("fmt_keep"), *asmt = scratch("fmt_asmtext");
        const char *ak[] = {"fmt", path, "--platform", pf, NULL};
        const char *at[] = {"fmt", path, "--platform", pf, "--strip-comments", "--asm-text", NULL};
        char *k = visa(kept, ak) == 0 ? read_file(kept, NULL) : NULL;
        char *t = visa(asmt, at) == 0 ? read_file(asmt, NULL) : NULL;
        report(name, "identical", k && src && !strcmp(k, src), "visa fmt x differs from x (IGC's asm-text print)");
        report(name, "asm-text", t && src && !strcmp(t, body),
               "visa fmt --strip-comments --asm-text x differs from x without its 4-line header");
        free(k), free(t);
        free(src), free(printed), free(canon);
    }
    char *obj1 = scratch("x1.isa"), *dis = scratch("dis.visaasm"), *obj2 = scratch("x2.isa");
    const char *a1[] = {"asm", path, "--platform", pf, "-o", obj1, NULL};
    int rc = visa(NULL, a1);
    if (rc != 0) {
        snprintf(why, sizeof why, "visa asm exit %d", rc);
        report(name, "dis", 0, why);
        report(name, "reasm", 0, why);
        show_stderr();
    } else {
        const char *d[] = {"dis", obj1, "--platform", pf, NULL};
        rc = visa(dis, d);
        snprintf(why, sizeof why, rc ? "visa dis exit %d" : "dis(asm(x)) differs from fmt --strip-comments x", rc);
        report(name, "dis", rc == 0 && same_files(dis, scratch("fmt_s1")), why);
        const char *a2[] = {"asm", dis, "--platform", pf, "-o", obj2, NULL};
        int rc2 = rc == 0 ? visa(NULL, a2) : -1;
        snprintf(why, sizeof why, rc2 ? "visa asm of the disassembly: exit %d" : "asm(dis(asm(x))) differs from asm(x)",
                 rc2);
        report(name, "reasm", rc2 == 0 && same_files(obj1, obj2), why);
    }
    const char *v[] = {"verify", path, "--platform", pf, NULL};
    rc = visa(NULL, v);
    char *err = read_file(scratch("stderr"), NULL);
    int errors = err && strstr(err, ": error") != NULL;
    snprintf(why, sizeof why, "visa verify --platform Xe2 exit %d%s", rc, errors ? " with errors" : "");
    report(name, "verify", rc == 0 && !errors, why);
    if (rc != 0 || errors) show_stderr();
    free(err);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t list_visaasm(const char *dir, char ***out) {
    DIR *d = opendir(dir);
    size_t n = 0;
    *out = NULL;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 8 && !strcmp(e->d_name + len - 8, ".visaasm")) {
            *out = realloc(*out, sizeof **out * (n + 1));
            (*out)[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(*out, n, sizeof **out, by_name);
    return n;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_xe_forge VISA_BINARY CORPUS_DIR\n");
        return 2;
    }
    visa_bin = argv[1];
    char xf[1024], igc[1024];
    snprintf(xf, sizeof xf, "%s/xe-forge", argv[2]);
    snprintf(igc, sizeof igc, "%s/igc-dumps", argv[2]);
    struct stat st;
    if (stat(xf, &st) != 0) {
        printf("SKIPPED: xe-forge corpus tests (%s not found)\n0 passed, 0 failed\n", xf);
        return 77;
    }
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/visa-xe-forge-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }

    /* part 1: run every kernel */
    visa_ctx_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.struct_size = sizeof cd;
    cd.on_diag = on_diag;
    visa_ctx *ctx = NULL;
    if (visa_ctx_create(&cd, &ctx) != VISA_OK) return 1;
    char **names;
    size_t nfiles = list_visaasm(xf, &names);
    for (size_t f = 0; f < nfiles; f++) { /* every file of the corpus has a launch here */
        int covered = 0;
        for (size_t i = 0; i < sizeof KERNELS / sizeof *KERNELS; i++) covered |= !strcmp(KERNELS[i].file, names[f]);
        if (!covered) report(names[f], "run", 0, "no launch in this test's table");
    }
    for (size_t i = 0; i < sizeof KERNELS / sizeof *KERNELS; i++) run_kernel(ctx, xf, &KERNELS[i]);
    visa_ctx_destroy(ctx);

    /* part 2: fmt, asm/dis, verify */
    printf("text: %zu xe-forge files: fmt, fmt-strip, canonical, identical, asm-text, dis, reasm, verify\n", nfiles);
    for (size_t f = 0; f < nfiles; f++) text_checks(xf, names[f], 1);
    for (size_t f = 0; f < nfiles; f++) free(names[f]);
    free(names);
    nfiles = list_visaasm(igc, &names);
    if (!nfiles) printf("note: no igc-dumps files in %s; their text checks are skipped\n", igc);
    else printf("text: %zu igc-dumps files: fmt, fmt-strip, dis, reasm, verify\n", nfiles);
    for (size_t f = 0; f < nfiles; f++) text_checks(igc, names[f], 0);
    for (size_t f = 0; f < nfiles; f++) free(names[f]);
    free(names);

    static const char *const scratch_names[] = {"stdout", "stderr", "fmt1",   "fmt2",       "fmt_s1",
                                                "fmt_s2", "x1.isa", "x2.isa", "dis.visaasm"};
    for (size_t k = 0; k < sizeof scratch_names / sizeof *scratch_names; k++) remove(scratch(scratch_names[k]));
    rmdir(tmpdir);
    printf("%d expected failures (KNOWN_FAILING)\n", n_xfail);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
