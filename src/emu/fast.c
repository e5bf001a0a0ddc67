/* fast.c -- specialised handlers for the common case: one element type on every operand (every
** integer width, f, df, hf, bf), contiguous, broadcast, immediate or strided sources, a contiguous
** (or scalar) destination, source modifiers and float saturation folded in.  They compute exactly
** what the generic path computes, without widening lanes into arrays:
**  - integers run modulo 2^32 (b..ud) or 2^64 (q, uq); b, ub, w, uw widen to 32 bits first, so
**    their modifiers, compares and shifts see the exact value; on d..uq, modifiers are taken only
**    by operations whose low bits do not depend on the lost carry (mov add mul mad and or xor shl);
**  - f computes in float (one rounding; mad is fmaf), df in double (fma);
**  - hf and bf widen to float by bit tricks (exact) and round back to nearest even by bit tricks
**    (branch-free, vectorisable, no call per lane); 16 contiguous lanes go as a block through
**    float arrays, converted by F16C (hf) or AVX-512 shifts (bf) where the level has them.  add
**    and mul round once in float, then to hf / bf: for + - * a rounding to p' >= 2p + 2 bits
**    followed by one to p bits is one rounding (24 >= 2*11+2; bf products and sums are exact or
**    out of range in float).  mad rounds the exact sum to odd (TwoSum) and then to nearest: in
**    float for hf (the product is exact there) and for bf lanes whose product is exact in float,
**    in double for the other bf lanes.
** Chosen at lowering, and the host's vector units too: each handler is built for baseline x86-64,
** AVX2+FMA+F16C and AVX-512, and the level is picked once per program (emu_isa_select: the best the CPU
** has, or VISA_EMU_ISA).  Everything else takes the generic path.
*/
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "families.h"
#include "fast.h"
#include "fast_ops.h"
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#endif

/* Pointer and stride (elements) of a source: contiguous, broadcast or immediate; a direct
** strided region (lowering proved it inside the file) is read as a stride, any other general
** region is gathered into buf_ first. */
#define SRC(T, k, p, s)                                                                               \
    const T *p;                                                                                       \
    unsigned s;                                                                                       \
    T buf_##p[EMU_MAX_LANES];                                                                         \
    do {                                                                                              \
        const emu_opnd *o_ = &op->src[k];                                                             \
        if (o_->shape == EO_IMM) {                                                                    \
            p = (const T *)(const void *)&o_->imm;                                                    \
            s = 0;                                                                                    \
        } else if (o_->shape == EO_GENERAL && o_->ustride) { /* lane i at i * ustride */              \
            p = (const T *)(const void *)(t->file + o_->off);                                         \
            s = o_->ustride;                                                                          \
        } else if (o_->shape == EO_GENERAL) {                                                         \
            const uint16_t *lo_ = t->prog->lane_off.data + (size_t)o_->lanes * EMU_MAX_LANES;         \
            const uint8_t *b_ = t->file + o_->off;                                                    \
            for (unsigned i_ = 0; i_ < op->exec; i_++) memcpy(&buf_##p[i_], b_ + lo_[i_], sizeof(T)); \
            p = buf_##p;                                                                              \
            s = 1;                                                                                    \
        } else {                                                                                      \
            p = (const T *)(const void *)(t->file + o_->off);                                         \
            s = o_->shape == EO_CONTIG;                                                               \
        }                                                                                             \
    } while (0)

#define AI static inline __attribute__((always_inline, unused)) /* unused: clang warns of unused static inline */

/* -- Integer type traits: storage, 32/64-bit unsigned compute value, signed / unsigned order ---- */
AI uint32_t imod32(uint32_t x, unsigned m) { /* VM_ABS 1, VM_NEG 2, VM_NEG_ABS 3 on the exact value */
    uint32_t s = (m & 1) ? (uint32_t)((int32_t)x >> 31) : 0, n = (m & 2) ? 0xFFFFFFFFu : 0;
    x = (x ^ s) - s;
    return (x ^ n) - n;
}
AI uint64_t imod64(uint64_t x, unsigned m) {
    uint64_t s = (m & 1) ? (uint64_t)((int64_t)x >> 63) : 0, n = (m & 2) ? ~(uint64_t)0 : 0;
    x = (x ^ s) - s;
    return (x ^ n) - n;
}
/* unsigned types: abs is the identity (their values are not negative) */
AI uint32_t umod32(uint32_t x, unsigned m) { return (m & 2) ? 0u - x : x; }
AI uint64_t umod64(uint64_t x, unsigned m) { return (m & 2) ? 0u - x : x; }

#define INT_TRAITS(TY, ST, CT, SCT, LDX, KEEP, SHM, MOD, SIGNED_ORDER)                     \
    typedef ST TY##_ST;                                                                    \
    typedef CT TY##_CT;                                                                    \
    enum { TY##_IS_HF = 0, TY##_IS_BF = 0 };                                               \
    AI CT TY##_LD(ST x) { return (CT)(LDX); }                                              \
    AI ST TY##_SV(CT x) { return (ST)x; }                                                  \
    AI CT TY##_MOD(CT x, unsigned m) { return MOD(x, m); }                                 \
    AI int TY##_LT(CT a, CT b) { return SIGNED_ORDER ? (SCT)a < (SCT)b : a < b; }          \
    AI int TY##_LE(CT a, CT b) { return SIGNED_ORDER ? (SCT)a <= (SCT)b : a <= b; }        \
    AI CT TY##_ASR(CT a, unsigned c) { return SIGNED_ORDER ? (CT)((SCT)a >> c) : a >> c; } \
    AI CT TY##_SAT(CT x) { return x; }                                                     \
    static const CT TY##_KEEP = KEEP, TY##_SHM = SHM;
/* b..uw widen to 32 bits exactly, so even their unsigned values order as signed ones */
INT_TRAITS(B, int8_t, uint32_t, int32_t, (int32_t)x, 0xFFu, 31, imod32, 1)
INT_TRAITS(UB, uint8_t, uint32_t, int32_t, x, 0xFFu, 31, imod32, 1)
INT_TRAITS(W, int16_t, uint32_t, int32_t, (int32_t)x, 0xFFFFu, 31, imod32, 1)
INT_TRAITS(UW, uint16_t, uint32_t, int32_t, x, 0xFFFFu, 31, imod32, 1)
INT_TRAITS(D, int32_t, uint32_t, int32_t, (uint32_t)x, 0xFFFFFFFFu, 31, imod32, 1)
INT_TRAITS(UD, uint32_t, uint32_t, int32_t, x, 0xFFFFFFFFu, 31, umod32, 0)
INT_TRAITS(Q, int64_t, uint64_t, int64_t, (uint64_t)x, ~(uint64_t)0, 63, imod64, 1)
INT_TRAITS(UQ, uint64_t, uint64_t, int64_t, x, ~(uint64_t)0, 63, umod64, 0)

/* -- Float type traits -------------------------------------------------------------------------- */
AI uint32_t fbits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
AI float bitsf(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
AI uint64_t dbits(double f) {
    uint64_t b;
    memcpy(&b, &f, 8);
    return b;
}
AI double bitsd(uint64_t b) {
    double f;
    memcpy(&f, &b, 8);
    return f;
}
/* VM_ABS clears the sign, VM_NEG flips it, VM_NEG_ABS sets it */
AI float fmodf_(float x, unsigned m) {
    return bitsf((fbits(x) & ((m & 1) ? 0x7FFFFFFFu : ~0u)) ^ ((m & 2) ? 0x80000000u : 0));
}
AI double fmodd_(double x, unsigned m) {
    return bitsd((dbits(x) & ((m & 1) ? ~(1ull << 63) : ~0ull)) ^ ((m & 2) ? 1ull << 63 : 0));
}
/* .sat: [0.0, 1.0], NaN gives 0 (as the generic path's sat01) */
AI float fsat(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
AI double dsat(double x) { return x != x ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* All-ones when C holds.  Selects are written as masks so that a lane loop stays one basic
** block: a chain of ?: becomes a many-way PHI that GCC's if-conversion refuses, and the loop
** then runs scalar (7x slower on hf). */
AI uint32_t mask32(bool c) { return 0u - (uint32_t)c; }
AI uint64_t mask64(bool c) { return 0u - (uint64_t)c; }
AI uint32_t sel32(bool c, uint32_t x, uint32_t y) { return (x & mask32(c)) | (y & ~mask32(c)); }

/* hf <-> float: exact widening; narrowing rounds to nearest even, a NaN is quieted keeping its
** sign and high payload bits (convert.h's NaN rule). */
AI float hf_to_f(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3FFu;
    uint32_t norm = s | sel32(e == 31, 0x7F800000u, (e + 112) << 23) | m << 13;
    uint32_t sub = s | fbits((float)m * 0x1p-24f); /* exact */
    return bitsf(sel32(e != 0, norm, sub));
}
AI uint16_t f_to_hf(float f) {
    uint32_t b = fbits(f), s = (b >> 16) & 0x8000, a = b & 0x7FFFFFFFu;
    /* below 2^-14 the sum with 0.5 rounds |f| to a multiple of 2^-24, nearest even */
    uint32_t sub = fbits(bitsf(a) + 0.5f) - 0x3F000000u;
    uint32_t norm = (a + 0xFFFu + (a >> 13 & 1) - 0x38000000u) >> 13;
    uint32_t r = sel32(a < 0x38800000u, sub, norm);
    r = sel32(a >= 0x477FF000u, 0x7C00u, r);
    r = sel32(a > 0x7F800000u, 0x7E00u | (a >> 13 & 0x3FFu), r);
    return (uint16_t)(s | r);
}
AI float bf_to_f(uint16_t h) { return bitsf((uint32_t)h << 16); }
AI uint16_t f_to_bf(float f) {
    uint32_t b = fbits(f);
    return (uint16_t)sel32((b & 0x7FFFFFFFu) > 0x7F800000u, (b >> 16) | 0x40, (b + 0x7FFFu + (b >> 16 & 1)) >> 16);
}
/* a*b + c rounded to odd in float, for a product exact in float: TwoSum gives the sum's error
** exactly, and a lane with an error and an even result moves to its odd neighbour on the error's
** side.  Rounding that to a format of p <= 22 bits is the one rounding of the exact a*b + c. */
AI float f_mad_odd(float a, float b, float c) {
    float p = a * b, r = p + c, bb = r - p, err = (p - (r - bb)) + (c - bb);
    uint32_t u = fbits(r);
    bool adj = err != 0 && !(u & 1) && (u & 0x7F800000u) != 0x7F800000u;
    /* to the odd neighbour on err's side: away from zero (+1) when err has r's sign */
    uint32_t away = (uint32_t)(err > 0) ^ (u >> 31);
    u += mask32(adj) & (away ? 1u : 0xFFFFFFFFu);
    return bitsf(u);
}
/* hf mad: an hf product (22 bits, 2^-48 .. 2^32) is always exact in float */
AI float hf_mad_odd(float a, float b, float c) { return f_mad_odd(a, b, c); }
/* bf mad on a host that fuses: r = fmaf(a, b, c) is a*b + c rounded once to float, and rounding
** r to bf is the one rounding of a*b + c unless r is an inexact midpoint of bf: every midpoint is a
** float, so the rounding to float may land on one but never crosses one, and only from a midpoint
** it reached by rounding is the tie broken wrongly.  r is exact when the product p is (in float's
** normal range) and r - p == c and r - c == p (Fast2Sum: whichever of p, c is larger, its
** difference with r is exact).  True when r may be narrowed: exact, or neither a midpoint nor a
** zero, and not NaN or infinite (whose bits the odd path decides).  An inexact zero (a product
** below float's range, c zero) keeps the odd path: its odd rounding is the smallest subnormal of
** the sum's sign, which .sat takes to +0 where a -0 from the fma would stay -0 (found by review).
** jit.c fused_mad tests hf the same way. */
AI bool bf_fused_ok(float a, float b, float c, float r) {
    float p = a * b;
    uint32_t u = fbits(r); /* bf is float's top half, subnormals too: ulp bit 16, midpoint bit 15 */
    bool exact = (r - p == c) & (r - c == p) & (fabsf(p) >= 0x1p-126f);
    return (exact | (((u & 0xFFFFu) != 0x8000u) & (r != 0))) & ((u & 0x7F800000u) != 0x7F800000u);
}
/* a bf product (16 bits) is exact in float unless it leaves float's normal range (bf has float's
** exponents); zero, infinite and NaN factors give the same product in float as in double */
AI bool bf_product_exact(float a, float b) {
    float p = a * b;
    /* & and |, not && and ||: no branch, so the lane loop stays vectorisable */
    bool finite = (fabsf(a) <= 0x1.fffffep127f) & (fabsf(b) <= 0x1.fffffep127f);
    bool out = (fabsf(p) < 0x1p-126f) | (fabsf(p) > 0x1.fffffep127f);
    return !(finite & (a != 0) & (b != 0) & out);
}
/* bf mad in general: a*b exact in double, the sum rounded to odd in double, then to odd in float */
AI float bf_mad_odd(float a, float b, float c) {
    double p = (double)a * b, q = c, r = p + q, bb = r - p, err = (p - (r - bb)) + (q - bb);
    uint64_t u = dbits(r);
    bool adj = err != 0 && !(u & 1) && (u & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
    uint64_t away = (uint64_t)(err > 0) ^ (u >> 63);
    u += mask64(adj) & (away ? 1u : ~(uint64_t)0);
    r = bitsd(u);
    float f = (float)r;
    uint32_t w = fbits(f);
    bool adj2 = (double)f != r && !(w & 1) && (w & 0x7F800000u) != 0x7F800000u;
    w += mask32(adj2) & (fabs(r) > fabs((double)f) ? 1u : 0xFFFFFFFFu);
    return bitsf(w);
}

#define FLT_TRAITS(TY, ST, CT, LDX, SVX, MOD, SAT, IS_HF, IS_BF) \
    typedef ST TY##_ST;                                          \
    typedef CT TY##_CT;                                          \
    enum { TY##_IS_HF = IS_HF, TY##_IS_BF = IS_BF };             \
    AI CT TY##_LD(ST x) { return LDX; }                          \
    AI ST TY##_SV(CT x) { return SVX; }                          \
    AI CT TY##_MOD(CT x, unsigned m) { return MOD(x, m); }       \
    AI CT TY##_SAT(CT x) { return SAT(x); }                      \
    AI int TY##_LT(CT a, CT b) { return a < b; }                 \
    AI int TY##_LE(CT a, CT b) { return a <= b; }
FLT_TRAITS(F, float, float, x, x, fmodf_, fsat, 0, 0)
FLT_TRAITS(DF, double, double, x, x, fmodd_, dsat, 0, 0)
FLT_TRAITS(HF, uint16_t, float, hf_to_f(x), f_to_hf(x), fmodf_, fsat, 1, 0)
FLT_TRAITS(BF, uint16_t, float, bf_to_f(x), f_to_bf(x), fmodf_, fsat, 0, 1)

/* -- The handler sets, one per ISA level --------------------------------------------------------- */
enum { FT_B, FT_UB, FT_W, FT_UW, FT_D, FT_UD, FT_Q, FT_UQ, FT__INT };
enum { FF_F, FF_DF, FF_HF, FF_BF, FF__COUNT };
enum { FC_F, FC_D, FC_UD, FC_W, FC_UW, FC_HF, FC__COUNT };

typedef struct fast_set {
    const emu_handler (*ints[FT__INT])[FO__COUNT]; /* [plain, modifiers][op] */
    const emu_handler (*flts[FF__COUNT])[4]; /* [float row][plain, mods, sat, mods + sat] */
    emu_handler cmp[FC__COUNT];
} fast_set;

#define FB_SFX _base
#define FB_ATTR
#define FB_F16C 0
#define FB_FMA 0
#define FB_VEC512 0
#include "fast_body.h"
#undef FB_SFX
#undef FB_ATTR
#undef FB_F16C
#undef FB_FMA
#undef FB_VEC512
#if defined(__x86_64__) && defined(__GNUC__)
#define FAST_X86 1
#define FB_SFX _avx2
#define FB_ATTR __attribute__((target("avx2,fma,f16c")))
#define FB_F16C 1
#define FB_FMA 1
#define FB_VEC512 0
#include "fast_body.h"
#undef FB_SFX
#undef FB_ATTR
#undef FB_VEC512
#define FB_SFX _avx512
#if defined(__clang__) /* clang has no prefer-vector-width target string (it would drop the attribute) */
#define FB_ATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c"), min_vector_width(512)))
#else
#define FB_ATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c,prefer-vector-width=512")))
#endif
#define FB_VEC512 1
#include "fast_body.h"
#undef FB_SFX
#undef FB_ATTR
#undef FB_F16C
#undef FB_FMA
#undef FB_VEC512
#else
#define FAST_X86 0
#endif

static const fast_set *set_of(unsigned isa) {
#if FAST_X86
    if (isa == EMU_ISA_AVX512) return &fast_set__avx512;
    if (isa == EMU_ISA_AVX2) return &fast_set__avx2;
#endif
    (void)isa;
    return &fast_set__base;
}

/* The host's best level.  CPUID is a constant of the machine but not a cheap question: under a
** hypervisor every CPUID instruction traps (measured 15 us a call on a Firecracker guest, more
** than a small kernel's whole launch), so it is asked once per process and kept.  The cached
** value is the same for every caller; a race only computes it twice. */
static unsigned host_level(void) {
    static _Atomic int cached = -1;
    int level = atomic_load_explicit(&cached, memory_order_relaxed);
    if (level >= 0) return (unsigned)level;
    level = EMU_ISA_BASELINE;
#if FAST_X86
    __builtin_cpu_init();
    /* F16C: CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports does not know it) */
    unsigned eax, ebx, ecx = 0, edx;
    bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c) level = EMU_ISA_AVX2;
    if (level == EMU_ISA_AVX2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        level = EMU_ISA_AVX512;
#endif
    atomic_store_explicit(&cached, level, memory_order_relaxed);
    return (unsigned)level;
}

unsigned emu_isa_select(void) {
    unsigned best = host_level();
    /* VISA_EMU_ISA=baseline|avx2|avx512 forces a level (never one the host lacks) */
    const char *want = getenv("VISA_EMU_ISA");
    if (want && !strcmp(want, "baseline")) return EMU_ISA_BASELINE;
    if (want && !strcmp(want, "avx2") && best >= EMU_ISA_AVX2) return EMU_ISA_AVX2;
    return best;
}

static int int_index(unsigned ty) {
    switch (ty) {
    case VISA_TYPE_B: return FT_B;
    case VISA_TYPE_UB: return FT_UB;
    case VISA_TYPE_W: return FT_W;
    case VISA_TYPE_UW: return FT_UW;
    case VISA_TYPE_D: return FT_D;
    case VISA_TYPE_UD: return FT_UD;
    case VISA_TYPE_Q: return FT_Q;
    case VISA_TYPE_UQ: return FT_UQ;
    default: return -1;
    }
}
static int flt_index(unsigned ty) {
    return ty == VISA_TYPE_F    ? FF_F
           : ty == VISA_TYPE_DF ? FF_DF
           : ty == VISA_TYPE_HF ? FF_HF
           : ty == VISA_TYPE_BF ? FF_BF
                                : -1;
}

/* Source shapes the loops read: contiguous, broadcast, immediate, direct general region. */
static bool fast_src_shape(const emu_opnd *s) {
    if (s->shape != EO_CONTIG && s->shape != EO_SCALAR && s->shape != EO_IMM && s->shape != EO_GENERAL) return false;
    return s->shape == EO_IMM || s->off % s->size == 0; /* typed pointers: aligned elements only */
}

emu_handler emu_fast_cmp(const emu_program *p, const emu_op *op) {
    unsigned ty = op->src[0].type;
    int c = ty == VISA_TYPE_F    ? FC_F
            : ty == VISA_TYPE_D  ? FC_D
            : ty == VISA_TYPE_UD ? FC_UD
            : ty == VISA_TYPE_W  ? FC_W
            : ty == VISA_TYPE_UW ? FC_UW
            : ty == VISA_TYPE_HF ? FC_HF
                                 : -1;
    if (p->generic || c < 0 || op->dst.shape != EO_PRED || (op->cond & 0x80) || op->nsrc != 2) return NULL;
    for (unsigned k = 0; k < 2; k++) {
        const emu_opnd *s = &op->src[k];
        if (s->type != ty || s->mod || !fast_src_shape(s)) return NULL;
    }
    return set_of(p->isa)->cmp[c];
}

/* A source the loops read exactly: its shape is one they take, and the destination (contiguous
** or scalar) does not overlap it other than lane for lane: the loops write lane i before reading
** lane i + 1, where the generic path reads every source whole first. */
static bool fast_src_ok(const emu_program *p, const emu_op *op, const emu_opnd *s) {
    if (!fast_src_shape(s)) return false;
    if (op->exec <= 1 || (s->shape != EO_CONTIG && s->shape != EO_SCALAR && s->shape != EO_GENERAL)) return true;
    uint32_t dlo = op->dst.off, dhi = dlo + (uint32_t)op->exec * op->dst.size;
    uint32_t span = s->shape == EO_CONTIG ? (uint32_t)op->exec * s->size
                    : s->shape == EO_SCALAR
                        ? s->size
                        : p->lane_off.data[(size_t)s->lanes * EMU_MAX_LANES + op->exec - 1] + s->size;
    uint32_t slo = s->off, shi = slo + span;
    return !(slo < dhi && dlo < shi && !(s->shape == EO_CONTIG && slo == dlo && s->size == op->dst.size));
}

/* mov between integer types (IGC widens 32-bit indices to 64 bits for a64 addresses, narrows
** them back, widens b / w to d): the value read with its source type's sign and stored modulo
** the destination's size, as the generic path does; without modifiers or saturation. */
#define CVT_HANDLER(ST, DT)                                         \
    static void cvt_##ST##_##DT(emu_thread *t, const emu_op *op) {  \
        uint32_t mask = emu_chen(t, op);                            \
        unsigned n = op->exec;                                      \
        DT *d = (DT *)(void *)(t->file + op->dst.off);              \
        SRC(ST, 0, s0, k0);                                         \
        if (mask == emu_lanes_mask(n))                              \
            for (unsigned i = 0; i < n; i++) d[i] = (DT)s0[i * k0]; \
        else                                                        \
            for (unsigned i = 0; i < n; i++)                        \
                if (mask >> i & 1) d[i] = (DT)s0[i * k0];           \
        t->pc++;                                                    \
    }
/* the source types in FT_ order, each to a 4- and an 8-byte destination */
#define CVT_SOURCES(X) X(int8_t) X(uint8_t) X(int16_t) X(uint16_t) X(int32_t) X(uint32_t) X(int64_t) X(uint64_t)
#define CVT_PAIR(ST) CVT_HANDLER(ST, uint32_t) CVT_HANDLER(ST, uint64_t)
CVT_SOURCES(CVT_PAIR)
#define CVT_ROW(ST) {cvt_##ST##_uint32_t, cvt_##ST##_uint64_t},
static const emu_handler cvt_handlers[FT__INT][2] = {CVT_SOURCES(CVT_ROW)};
#undef CVT_ROW
#undef CVT_PAIR
#undef CVT_SOURCES
#undef CVT_HANDLER

static emu_handler fast_convert(const emu_program *p, const emu_op *op) {
    const emu_opnd *s = &op->src[0];
    int si = int_index(s->type);
    if (op->nsrc != 1 || si < 0 || s->mod || op->dst.size < 4 || !fast_src_ok(p, op, s)) return NULL;
    return cvt_handlers[si][op->dst.size == 8];
}

emu_handler emu_fast_handler(const emu_program *p, const emu_op *op) {
    int fo = emu_fast_op_of(op->form);
    unsigned ty = op->dst.type;
    int ii = int_index(ty), fi = flt_index(ty);
    if (p->generic || fo < 0 || (ii < 0 && fi < 0) || (fi >= 0 && !emu_fast_op_facts[fo].flt) || op->pred_selects)
        return NULL;
    if (op->dst.shape != EO_CONTIG && op->dst.shape != EO_SCALAR) return NULL;
    if (op->dst.shape == EO_SCALAR && op->exec != 1) return NULL;
    if (op->dst.off % op->dst.size) return NULL;
    if (op->sat && ii >= 0) return NULL; /* integer saturation: the generic path */
    /* the compute class must be the type's own (a float op on integers converts) */
    if (op->cls != (fi >= 0 ? EC_FLT : EC_INT)) return NULL;
    if (ii >= 0 && fo == FO_MOV && op->src[0].type != ty) return fast_convert(p, op);
    bool mods = false;
    for (unsigned k = 0; k < op->nsrc; k++) {
        const emu_opnd *s = &op->src[k];
        if (s->type != ty || s->mod > VM_NEG_ABS || !fast_src_ok(p, op, s)) return NULL;
        mods |= s->mod != VM_NONE;
    }
    const fast_set *set = set_of(p->isa);
    if (fi >= 0) return set->flts[fi][fo][(mods ? 1 : 0) + (op->sat ? 2 : 0)];
    /* 32- and 64-bit integers wrap: a modifier's exact value (-INT_MIN) only survives operations
    ** whose low bits do not depend on it */
    if (mods && ii >= FT_D && !emu_fast_op_facts[fo].wide_mods) return NULL;
    return set->ints[ii][mods][fo];
}
