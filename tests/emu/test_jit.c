/* test_jit.c -- the compiled tier (src/emu/jit.c) against C models written here, and against the
** interpreter where the model is the interpreter's own contract (step counts).
**  1. A w loop (mul, add, cmp into a predicate, predicated add and xor, asr, an M3 max on the upper
**     half, a scalar counter, cmp + predicated jmp back): compiled as one loop block.  Run with
**     every lane on and with 12 of 16 lanes waiting at a goto's target (the block's masked
**     function), on both
**     tiers; the results must equal the model, and the executed instruction counts must equal
**     the count by hand.
**  2. An f loop under %cr0 round-toward-+inf (set by the kernel): a block with float ops runs
**     interpreted then, so each add of a tiny value steps one ulp up (by hand: 0x3f800000 + N).
**  3. NaN bits: sign flips through multiplies, quieting, constant operands (by hand, below).
**  4. Channels past 31 (M5 with 32 lanes) write only the lanes the mask enables.
**  5. What gets compiled: the loop kernel has blocks under jit and jit-all; a loop-less kernel
**     has none under jit (nothing worth compiling) and some under jit-all; interp compiles nothing.
**  6. A gather loop as IGC writes it: a d -> q mov (no compiled form: its handler is called), a64
**     address arithmetic, an LSC gather (called), a sum, a NoMask scalar counter and a goto back
**     to the loop's label, either SIMD16 on a per-lane compare (lanes leave at different trips:
**     the compiled loop hands the split goto to the run loop, then runs on with fewer lanes) or
**     scalar (uniform, as a jmp).  Compiled as a loop under jit; sums equal the C model, and
**     instruction counts the interpreter's.  With the input buffer too small the gather faults in
**     a compiled trip: every tier reports the same diagnostic at the same line and column.
** Skipped (77) when the library was built without the compiled tier. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/jit.h"
#include "emu/lower.h"
#include "visa/visa.h"

static int pass, fail;
#define CHECK(c, ...)                                            \
    do {                                                         \
        if (c) pass++;                                           \
        else {                                                   \
            fail++;                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fputc('\n', stderr);                                 \
        }                                                        \
    } while (0)

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%u:%u: %s\n", d->line, d->col, d->message);
}

/* ID = lane; lanes from LANES on wait at DONE (goto), so the loop runs with the others only
** (the block's masked function); H = ID; loop N times. */
static const char k_wloop[] = ".version 4.1\n"
                              ".kernel \"wloop\"\n"
                              ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                              ".decl N v_type=G type=d num_elts=1 align=dword\n"
                              ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                              ".decl ID v_type=G type=uw num_elts=16 align=GRF\n"
                              ".decl H v_type=G type=w num_elts=16 align=GRF\n"
                              ".decl S v_type=G type=w num_elts=16 align=GRF\n"
                              ".decl T v_type=G type=w num_elts=16 align=GRF\n"
                              ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                              ".decl P1 v_type=P num_elts=16\n"
                              ".decl P2 v_type=P num_elts=16\n"
                              ".decl P3 v_type=P num_elts=16\n"
                              ".decl LANES v_type=G type=uw num_elts=1 align=word\n"
                              ".input OUT offset=64 size=8\n"
                              ".input N offset=72 size=4\n"
                              ".input LANES offset=76 size=2\n"
                              ".kernel_attr SimdSize=16\n"
                              "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"
                              "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:uw\n"
                              "    cmp.lt (M1, 16) P3 ID(0,0)<1;1,0> LANES(0,0)<0;1,0>\n"
                              "    (!P3) goto (M1, 16) DONE\n"
                              "    mov (M1, 16) H(0,0)<1> ID(0,0)<1;1,0>\n"
                              "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                              "LOOP:\n"
                              "    mul (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x6255:w\n"
                              "    add (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x3619:w\n"
                              "    cmp.lt (M1, 16) P2 H(0,0)<1;1,0> 0x0:w\n"
                              "    (P2) add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 0x1:w\n"
                              "    (!P2) xor (M1, 16) T(0,0)<1> T(0,0)<1;1,0> H(0,0)<1;1,0>\n"
                              "    asr (M1, 16) T(0,0)<1> T(0,0)<1;1,0> 0x1:w\n"
                              "    max (M3, 8) T(0,8)<1> T(0,8)<1;1,0> (-)S(0,8)<1;1,0>\n"
                              "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                              "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                              "    (P1) jmp (M1, 1) LOOP\n"
                              "DONE:\n"
                              "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x60:uq\n"
                              "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                              "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  H:d32x8t\n"
                              "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x20]:a64  S:d32x8t\n"
                              "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  T:d32x8t\n"
                              "    ret (M1, 1)\n";
/* instructions per thread: 6 before the loop, 11 per trip (the label counts), 7 after */
#define WLOOP_STEPS(n) (6u + 11u * (n) + 7u)

/* The model: lanes below `lanes` run, the others keep the zeroed registers. */
static void model_wloop(int n, unsigned lanes, int16_t h[16], int16_t s[16], int16_t t[16]) {
    for (unsigned i = 0; i < 16; i++) {
        h[i] = s[i] = t[i] = 0;
        if (i >= lanes) continue;
        h[i] = (int16_t)i;
    }
    for (int k = 0; k < n; k++)
        for (unsigned i = 0; i < lanes; i++) {
            h[i] = (int16_t)(uint16_t)((unsigned)(uint16_t)h[i] * 0x6255u);
            h[i] = (int16_t)(uint16_t)((unsigned)(uint16_t)h[i] + 0x3619u);
            if (h[i] < 0) s[i] = (int16_t)(s[i] + 1);
            else t[i] = (int16_t)(t[i] ^ h[i]);
            t[i] = (int16_t)(t[i] >> 1);
            if (i >= 8) {
                int neg = -(int)s[i]; /* the modifier on the widened value */
                t[i] = (int16_t)(t[i] > neg ? t[i] : neg);
            }
        }
}

static visa_module *parse(visa_ctx *ctx, const char *name, const char *text) {
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, name, text, strlen(text), VISA_PLATFORM_XE2, &m) != VISA_OK) return NULL;
    return m;
}

static int run(const visa_module *m, const char *tier, unsigned groups, unsigned lanes, uint8_t *out, size_t out_bytes,
               int32_t n, visa_run_stats *stats) {
    setenv("VISA_EMU_TIER", tier, 1);
    visa_buffer buf = {out, out_bytes};
    visa_arg args[3];
    memset(args, 0, sizeof args);
    args[0].kind = VISA_ARG_BUFFER;
    args[1].kind = VISA_ARG_INT, args[1].value = n;
    args[2].kind = VISA_ARG_INT, args[2].value = lanes;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = groups;
    return visa_module_run(m, &ro, args, 2 + (lanes != 0), &buf, 1, stats);
}

static void test_wloop(visa_ctx *ctx) {
    visa_module *m = parse(ctx, "wloop", k_wloop);
    CHECK(m != NULL, "wloop does not parse");
    if (!m) return;
    static const char *tiers[] = {"interp", "jit", "jit-all"};
    static const int trips[] = {1, 7, 300};
    for (unsigned ti = 0; ti < 3; ti++)
        for (unsigned lanes = 4; lanes <= 16; lanes += 12)
            for (unsigned k = 0; k < 3; k++) {
                uint8_t out[2 * 0x60];
                memset(out, 0, sizeof out);
                visa_run_stats st = {0, 0};
                int r = run(m, tiers[ti], 2, lanes, out, sizeof out, trips[k], &st);
                CHECK(r == VISA_OK, "%s: run failed (%d)", tiers[ti], r);
                CHECK(st.instructions == 2ull * WLOOP_STEPS((unsigned)trips[k]),
                      "%s, %u lanes, %d trips: %llu instructions, expected %u", tiers[ti], lanes, trips[k],
                      (unsigned long long)st.instructions, 2u * WLOOP_STEPS((unsigned)trips[k]));
                int16_t h[16], s[16], t[16];
                model_wloop(trips[k], lanes, h, s, t);
                for (unsigned g = 0; g < 2; g++) {
                    const uint8_t *o = out + g * 0x60;
                    CHECK(!memcmp(o, h, 32) && !memcmp(o + 32, s, 32) && !memcmp(o + 64, t, 32),
                          "%s, %u lanes, %d trips, group %u: H/S/T differ from the model", tiers[ti], lanes, trips[k],
                          g);
                }
            }
    visa_module_destroy(m);
}

/* %cr0 rounding toward +inf (bits 5:4 = 01 over the default 0x4C0): 1 + 2^-30 rounds up one ulp. */
static const char k_cr0[] = ".version 4.1\n"
                            ".kernel \"cr0loop\"\n"
                            ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                            ".decl N v_type=G type=d num_elts=1 align=dword\n"
                            ".decl A v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                            ".decl P1 v_type=P num_elts=16\n"
                            ".input OUT offset=64 size=8\n"
                            ".input N offset=72 size=4\n"
                            ".kernel_attr SimdSize=16\n"
                            "    mov (M1, 16) A(0,0)<1> 0x3f800000:f\n"
                            "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                            "    mov (M1_NM, 1) %cr0(0,0)<1> 0x4d0:ud\n"
                            "LOOP:\n"
                            "    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x30800000:f\n"
                            "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                            "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                            "    (P1) jmp (M1, 1) LOOP\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[OUT]:a64  A:d32x16t\n"
                            "    ret (M1, 1)\n";

static void test_cr0(visa_ctx *ctx) {
    visa_module *m = parse(ctx, "cr0loop", k_cr0);
    CHECK(m != NULL, "cr0loop does not parse");
    if (!m) return;
    static const char *tiers[] = {"interp", "jit", "jit-all"};
    for (unsigned ti = 0; ti < 3; ti++) {
        uint32_t out[16];
        memset(out, 0, sizeof out);
        int r = run(m, tiers[ti], 1, 0, (uint8_t *)out, sizeof out, 50, NULL);
        CHECK(r == VISA_OK, "%s: cr0 run failed (%d)", tiers[ti], r);
        for (unsigned i = 0; i < 16; i++)
            CHECK(out[i] == 0x3f800000u + 50, "%s: lane %u = 0x%08x, expected 0x%08x", tiers[ti], i, out[i],
                  0x3f800000u + 50);
    }
    visa_module_destroy(m);
}

/* NaN bits the compiled code must keep as the host's instructions give them (the interpreter):
** LLVM may fold a sign flip through a multiply or drop a quieting when it sees the constants.
** By hand (x86 SSE, which both tiers run on): (-)qNaN * 1.0 keeps the flipped sign, 0xffc00000;
** qNaN * -1.0 returns the NaN operand, 0x7fc00000; 0.0 * inf is the default NaN, 0xffc00000;
** the hf signalling NaN 0x7c01 plus -0.0 is quieted, 0x7e01 (an optimiser would drop x + -0.0;
** a mov would copy the bits, exec.c's MOV rule); (-abs) on 0x7fc00001 sets the sign. */
static const char k_nan[] = ".version 4.1\n"
                            ".kernel \"nan\"\n"
                            ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                            ".decl A v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl B v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl D v_type=G type=f num_elts=64 align=GRF\n"
                            ".decl H v_type=G type=hf num_elts=16 align=GRF\n"
                            ".decl N v_type=G type=d num_elts=1 align=dword\n"
                            ".input OUT offset=64 size=8\n"
                            ".input N offset=72 size=4\n" /* unused: run() passes it */
                            ".kernel_attr SimdSize=16\n"
                            "    mov (M1, 16) A(0,0)<1> 0x7fc00000:f\n"
                            "    mov (M1, 16) B(0,0)<1> 0x3f800000:f\n"
                            "    mul (M1, 16) D(0,0)<1> (-)A(0,0)<1;1,0> B(0,0)<1;1,0>\n"
                            "    mul (M1, 16) D(1,0)<1> A(0,0)<1;1,0> 0xbf800000:f\n"
                            "    mul (M1, 16) D(2,0)<1> 0x0:f 0x7f800000:f\n"
                            "    mov (M1, 16) A(0,0)<1> 0x7fc00001:f\n"
                            "    mov (M1, 16) D(3,0)<1> (-abs)A(0,0)<1;1,0>\n"
                            "    add (M1, 16) H(0,0)<1> 0x7c01:hf 0x8000:hf\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[OUT]:a64  D:d32x64t\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[OUT+0x100]:a64  H:d32x8t\n"
                            "    ret (M1, 1)\n";

/* Parse `text` and run it once on `tier` (one group), its output buffer zeroed first. */
static bool run_kernel(visa_ctx *ctx, const char *name, const char *text, const char *tier, void *out, size_t bytes) {
    visa_module *m = parse(ctx, name, text);
    memset(out, 0, bytes);
    int r = m ? run(m, tier, 1, 0, out, bytes, 0, NULL) : -1;
    CHECK(r == VISA_OK, "%s on %s: parse or run failed (%d)", name, tier, r);
    if (m) visa_module_destroy(m);
    return r == VISA_OK;
}
static const char *const both_tiers[] = {"interp", "jit-all"};

static void test_nan(visa_ctx *ctx) {
    static const uint32_t want[4] = {0xffc00000u, 0x7fc00000u, 0xffc00000u, 0xffc00001u};
    for (unsigned ti = 0; ti < 2; ti++) {
        uint8_t out[0x120];
        if (!run_kernel(ctx, "nan", k_nan, both_tiers[ti], out, sizeof out)) continue;
        for (unsigned row = 0; row < 4; row++) {
            uint32_t v;
            memcpy(&v, out + row * 64 + 4 * 5, 4); /* lane 5 (every lane is the same) */
            CHECK(v == want[row], "%s: row %u = 0x%08x, expected 0x%08x", both_tiers[ti], row, v, want[row]);
        }
        uint16_t h;
        memcpy(&h, out + 0x100 + 2 * 5, 2);
        CHECK(h == 0x7e01, "%s: hf 0x7c01 + -0.0 = 0x%04x, expected 0x7e01", both_tiers[ti], h);
    }
}

/* An op whose channels pass channel 31 (M5 with 32 lanes: the verifier's V-EXEC-MASK, but an
** unverified module runs): channel n is enabled by EM[n + 16], so only channels 0..15 write.  By
** hand: D[0..15] = 1 + 16, D[16..31] = 1.  (The compiled tier leaves such ops to the interpreter.) */
static const char k_wide[] = ".version 4.1\n"
                             ".kernel \"wide\"\n"
                             ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                             ".decl N v_type=G type=d num_elts=1 align=dword\n"
                             ".decl D v_type=G type=d num_elts=32 align=GRF\n"
                             ".input OUT offset=64 size=8\n"
                             ".input N offset=72 size=4\n" /* unused: run() passes it */
                             ".kernel_attr SimdSize=32\n"
                             "    mov (M1, 32) D(0,0)<1> 0x1:d\n"
                             "    add (M5, 32) D(0,0)<1> D(0,0)<1;1,0> 0x10:d\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[OUT]:a64  D:d32x32t\n"
                             "    ret (M1, 1)\n";

static void test_wide(visa_ctx *ctx) {
    for (unsigned ti = 0; ti < 2; ti++) {
        int32_t out[32];
        if (!run_kernel(ctx, "wide", k_wide, both_tiers[ti], out, sizeof out)) continue;
        for (unsigned i = 0; i < 32; i++)
            CHECK(out[i] == (i < 16 ? 17 : 1), "%s: D[%u] = %d, expected %d", both_tiers[ti], i, out[i],
                  i < 16 ? 17 : 1);
    }
}

/* Blocks compiled for the module's first kernel under `tier`. */
static uint32_t blocks_of(visa_ctx *ctx, visa_module *m, const char *tier, char *err, size_t cap) {
    setenv("VISA_EMU_TIER", tier, 1);
    diag_sink ds;
    diag_init(&ds, ctx, "test", NULL, 0);
    emu_program p;
    if (emu_lower(ctx, m, &m->routines.data[0], VISA_PLATFORM_XE2, NULL, &p, &ds) != VISA_OK) return UINT32_MAX;
    uint32_t n = p.jit_blocks;
    snprintf(err, cap, "%s", emu_jit_error(&p));
    emu_program_free(&p);
    return n;
}

static const char k_straight[] = ".version 4.1\n"
                                 ".kernel \"straight\"\n"
                                 ".decl A v_type=G type=d num_elts=16 align=GRF\n"
                                 ".kernel_attr SimdSize=16\n"
                                 "    mov (M1, 16) A(0,0)<1> 0x5:d\n"
                                 "    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x7:d\n"
                                 "    ret (M1, 1)\n";

static void test_blocks(visa_ctx *ctx) {
    visa_module *loop = parse(ctx, "wloop", k_wloop), *straight = parse(ctx, "straight", k_straight);
    CHECK(loop && straight, "kernels do not parse");
    if (!loop || !straight) return;
    char err[200] = "";
    uint32_t n = blocks_of(ctx, loop, "jit", err, sizeof err);
    CHECK(n >= 1 && n != UINT32_MAX && !err[0], "wloop under jit: %u blocks (%s)", n, err);
    n = blocks_of(ctx, loop, "jit-all", err, sizeof err);
    CHECK(n >= 2 && n != UINT32_MAX && !err[0], "wloop under jit-all: %u blocks (%s)", n, err);
    n = blocks_of(ctx, loop, "interp", err, sizeof err);
    CHECK(n == 0, "wloop under interp: %u blocks", n);
    n = blocks_of(ctx, straight, "jit", err, sizeof err);
    CHECK(n == 0, "straight under jit: %u blocks (nothing in a loop)", n);
    n = blocks_of(ctx, straight, "jit-all", err, sizeof err);
    CHECK(n == 1 && !err[0], "straight under jit-all: %u blocks (%s)", n, err);
    visa_module_destroy(loop);
    visa_module_destroy(straight);
}

/* 6. IN: 16 x maxtrips d (row k = trip k), LIMB: 16 d (lane i loops LIMB[i] times, at least
** once), OUT: 16 d sums.  GOTO is the back-edge's exec size: 16 (per lane) or 1 (lane 0 decides). */
static const char k_gloop_fmt[] = ".version 4.1\n"
                                  ".kernel \"gloop\"\n"
                                  ".decl IN v_type=G type=uq num_elts=1 align=qword\n"
                                  ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                                  ".decl LIMB v_type=G type=uq num_elts=1 align=qword\n"
                                  ".decl ID v_type=G type=uw num_elts=16 align=GRF\n"
                                  ".decl IDD v_type=G type=d num_elts=16 align=GRF\n"
                                  ".decl IDX v_type=G type=d num_elts=16 align=GRF\n"
                                  ".decl A64 v_type=G type=q num_elts=16 align=GRF\n"
                                  ".decl X v_type=G type=d num_elts=16 align=GRF\n"
                                  ".decl S v_type=G type=d num_elts=16 align=GRF\n"
                                  ".decl L v_type=G type=d num_elts=16 align=GRF\n"
                                  ".decl K v_type=G type=d num_elts=1 align=dword\n"
                                  ".decl K16 v_type=G type=d num_elts=1 align=dword\n"
                                  ".decl P1 v_type=P num_elts=16\n"
                                  ".input IN offset=64 size=8\n"
                                  ".input OUT offset=72 size=8\n"
                                  ".input LIMB offset=80 size=8\n"
                                  ".kernel_attr SimdSize=16\n"
                                  "    mov (M1, 8) ID(0,0)<1> 0x76543210:v\n"
                                  "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:uw\n"
                                  "    mov (M1, 16) IDD(0,0)<1> ID(0,0)<1;1,0>\n"
                                  "    mov (M1, 16) A64(0,0)<1> IDD(0,0)<1;1,0>\n"
                                  "    shl (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> 0x2:q\n"
                                  "    add (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> LIMB(0,0)<0;1,0>\n"
                                  "    lsc_load.ugm (M1, 16)  L:d32  flat[A64]:a64\n"
                                  "    mov (M1, 16) S(0,0)<1> 0x0:d\n"
                                  "    mov (M1_NM, 1) K(0,0)<1> 0x0:d\n"
                                  "LOOP:\n"
                                  "    shl (M1_NM, 1) K16(0,0)<1> K(0,0)<0;1,0> 0x4:d\n"
                                  "    add (M1, 16) IDX(0,0)<1> IDD(0,0)<1;1,0> K16(0,0)<0;1,0>\n"
                                  "    mov (M1, 16) A64(0,0)<1> IDX(0,0)<1;1,0>\n"
                                  "    shl (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> 0x2:q\n"
                                  "    add (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> IN(0,0)<0;1,0>\n"
                                  "    lsc_load.ugm (M1, 16)  X:d32  flat[A64]:a64\n"
                                  "    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> X(0,0)<1;1,0>\n"
                                  "    add (M1_NM, 1) K(0,0)<1> K(0,0)<0;1,0> 0x1:d\n"
                                  "    cmp.lt (M1, 16) P1 K(0,0)<0;1,0> L(0,0)<1;1,0>\n"
                                  "    (P1) goto (M1, %u) LOOP\n"
                                  "    mov (M1, 16) A64(0,0)<1> IDD(0,0)<1;1,0>\n"
                                  "    shl (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> 0x2:q\n"
                                  "    add (M1, 16) A64(0,0)<1> A64(0,0)<1;1,0> OUT(0,0)<0;1,0>\n"
                                  "    lsc_store.ugm (M1, 16)  flat[A64]:a64  S:d32\n"
                                  "    ret (M1, 1)\n";
#define GLOOP_FAULT_LINE 35 /* the loop's lsc_load */

typedef struct diag_seen {
    char code[40];
    uint32_t line, col;
    unsigned n;
} diag_seen;
static void keep_diag(void *ud, const visa_diag *d) {
    diag_seen *s = ud;
    if (s->n++) return;
    snprintf(s->code, sizeof s->code, "%s", d->code);
    s->line = d->line, s->col = d->col;
}

static int run_gloop(visa_module *m, const char *tier, int32_t *in, size_t in_bytes, int32_t *lim, int32_t *out,
                     visa_run_stats *st) {
    setenv("VISA_EMU_TIER", tier, 1);
    visa_buffer bufs[3] = {{(uint8_t *)in, in_bytes}, {(uint8_t *)out, 64}, {(uint8_t *)lim, 64}};
    visa_arg args[3];
    memset(args, 0, sizeof args);
    for (unsigned k = 0; k < 3; k++) args[k].kind = VISA_ARG_BUFFER, args[k].buffer = k;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.groups[0] = 1;
    return visa_module_run(m, &ro, args, 3, bufs, 3, st);
}

static void test_gloop(void) {
    static const unsigned widths[] = {16, 1};
    static const char *tiers[] = {"interp", "jit", "jit-all"};
    int32_t lim[16] = {9, 5, 5, 1, 2, 16, 3, 3, 7, 1, 12, 4, 16, 8, 6, 10}, in[16 * 16];
    for (unsigned i = 0; i < 16 * 16; i++) in[i] = (int32_t)(i * 7 + 3) ^ (int32_t)(i << 9);
    for (unsigned w = 0; w < 2; w++) {
        char text[sizeof k_gloop_fmt + 8];
        snprintf(text, sizeof text, k_gloop_fmt, widths[w]);
        diag_seen seen[3];
        uint64_t count[3] = {0, 0, 0};
        for (unsigned ti = 0; ti < 3; ti++) {
            visa_ctx *ctx;
            memset(&seen[ti], 0, sizeof seen[ti]);
            visa_ctx_desc desc = {sizeof desc, NULL, NULL, keep_diag, &seen[ti], 0};
            if (visa_ctx_create(&desc, &ctx) != VISA_OK) return;
            visa_module *m = parse(ctx, "gloop", text);
            CHECK(m != NULL, "gloop does not parse");
            if (!m) {
                visa_ctx_destroy(ctx);
                return;
            }
            if (ti == 1) {
                char err[200] = "";
                uint32_t nb = blocks_of(ctx, m, "jit", err, sizeof err);
                CHECK(nb >= 1 && nb != UINT32_MAX && !err[0], "gloop (goto width %u) under jit: %u blocks (%s)",
                      widths[w], nb, err);
            }
            int32_t out[16];
            memset(out, 0, sizeof out);
            visa_run_stats st = {0, 0};
            int r = run_gloop(m, tiers[ti], in, sizeof in, lim, out, &st);
            CHECK(r == VISA_OK, "gloop %s: run failed (%d)", tiers[ti], r);
            count[ti] = st.instructions;
            for (unsigned i = 0; i < 16; i++) { /* the model: lane i sums rows 0 .. trips - 1 */
                int32_t trips = widths[w] == 1 ? lim[0] : lim[i];
                uint32_t want = 0;
                for (int32_t k = 0; k < trips; k++) want += (uint32_t)in[k * 16 + (int32_t)i];
                CHECK((uint32_t)out[i] == want, "gloop (goto width %u) %s: lane %u = %d, expected %d", widths[w],
                      tiers[ti], i, out[i], (int32_t)want);
            }
            /* too small an IN: the gather of trip 4 is out of bounds */
            memset(&seen[ti], 0, sizeof seen[ti]);
            r = run_gloop(m, tiers[ti], in, 4 * 16 * 4, lim, out, NULL);
            CHECK(r != VISA_OK && seen[ti].line == GLOOP_FAULT_LINE && !strcmp(seen[ti].code, "E-RUN-OOB-GLOBAL"),
                  "gloop (goto width %u) %s: fault %s at line %u, expected E-RUN-OOB-GLOBAL at %u", widths[w],
                  tiers[ti], seen[ti].code, seen[ti].line, GLOOP_FAULT_LINE);
            CHECK(seen[ti].col == seen[0].col, "gloop %s: fault column %u, the interpreter's %u", tiers[ti],
                  seen[ti].col, seen[0].col);
            visa_module_destroy(m);
            visa_ctx_destroy(ctx);
        }
        CHECK(count[1] == count[0] && count[2] == count[0],
              "gloop (goto width %u): %llu / %llu instructions on jit / jit-all, %llu interpreted", widths[w],
              (unsigned long long)count[1], (unsigned long long)count[2], (unsigned long long)count[0]);
    }
}

int main(void) {
    if (!emu_jit_available()) {
        printf("SKIPPED: built without the compiled tier (LLVM 19)\n");
        return 77;
    }
    visa_ctx *ctx;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 2;
    test_wloop(ctx);
    test_cr0(ctx);
    test_nan(ctx);
    test_wide(ctx);
    test_blocks(ctx);
    test_gloop();
    visa_ctx_destroy(ctx);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
