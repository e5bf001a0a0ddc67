/* model_lsc.c -- LSC messages through the public API against a C model written in this file
** from the spec (instructions/LSC_UNTYPED.md pseudo-code) and notes/messages.md sections 2-3
** (descriptors, SIMT payload layout, 2D block layout and out-of-bounds rules).  It shares no code
** with src/emu/lsc.c.  Each case builds a small kernel, runs it on deterministic pseudo-random
** data and compares every byte of the touched buffers (registers are dumped with transposed d32
** stores after being prefilled with 0xEE, so bytes a message must not write are checked too).
**
** Readings taken where the spec leaves room (messages.md marks them [?] / [D]):
**  - SIMT data: component v of lane n at v*CS + n*regE, CS = max(1, Wp*regE/GRF) GRFs with
**    Wp = max(ExecSize, payload width); D8/D16 lanes packed (1/2 B).  The payload width is the
**    half-SIMD one (messages.md 3.1 lists both): 8 on XeHPG (32-byte GRFs), 16 on XeHPC and Xe2.
**    IGC's LSCEnabled emits LSC only for steppings with half-SIMD LSC (DG2 from B0, PVC from XT),
**    and IGC 1.0.12504's vISA for dg2-g10 puts a SIMD8 d32x2's second component one GRF on.
**  - D8U32/D16U32 zero-extend (Xe2); only run on Xe2 since earlier parts leave the top undefined.
**  - Lanes are processed in ascending order (the pseudo-code's loop), which decides atomics on a
**    shared address.
**  - 2D VNNI is only run with H a multiple of the rows per dword (the pseudo-code reads past H
**    otherwise).  2D width is element granular: an element is inside when it lies wholly inside
**    [0, width) bytes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

/* ---- small utilities ------------------------------------------------------------------------ */

static uint32_t rng = 0x12345678u;
static uint32_t rnd(void) { /* xorshift32: deterministic data */
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static void rnd_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}

typedef struct {
    char s[65536];
    size_t n;
} text_t;
static void emit(text_t *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (k > 0) t->n += (size_t)k;
    if (t->n >= sizeof t->s) t->n = sizeof t->s - 1;
}

static char diag_text[4096];
static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    size_t n = strlen(diag_text);
    snprintf(diag_text + n, sizeof diag_text - n, "%u:%u: %s\n", d->line, d->col, d->message);
}

static visa_ctx *ctx;

/* Kernel header: buffers B0..B(nb-1) as uq inputs; the caller adds decls after. */
static void header(text_t *t, int nb) {
    t->n = 0;
    emit(t, ".version 4.1\n.kernel \"k\"\n");
    for (int i = 0; i < nb; i++) emit(t, ".decl B%d v_type=G type=uq num_elts=1\n", i);
}
static void body(text_t *t, int nb, int simd) {
    for (int i = 0; i < nb; i++) emit(t, ".input B%d offset=%d size=8\n", i, 64 + 8 * i);
    emit(t, ".kernel_attr SimdSize=%d\n", simd);
}

static visa_status run(const text_t *t, visa_platform pf, visa_buffer *bufs, int nb) {
    diag_text[0] = 0;
    visa_module *m = NULL;
    visa_status st = visa_module_parse_text(ctx, "k", t->s, t->n, pf, &m);
    if (st != VISA_OK) return st;
    visa_arg args[8];
    memset(args, 0, sizeof args);
    for (int i = 0; i < nb; i++) args[i].kind = VISA_ARG_BUFFER, args[i].buffer = (uint32_t)i;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = pf;
    st = visa_module_run(m, &ro, args, (size_t)nb, bufs, (size_t)nb, NULL);
    visa_module_destroy(m);
    return st;
}

/* Prefill register R (bytes) with 0xEE, 64 bytes per mov (rows of grf bytes). */
static void prefill(text_t *t, const char *r, unsigned bytes, unsigned grf) {
    for (unsigned g = 0; g < bytes / 64; g++) emit(t, "    mov (M1, 16) %s(%u,0)<1> 0xEEEEEEEE:ud\n", r, g * 64 / grf);
}
/* R[0, bytes) -> buffer b at offset off (transposed d32 stores, 256 B at a time). */
static void dump(text_t *t, const char *r, unsigned bytes, int b, unsigned off) {
    for (unsigned o = 0; o < bytes; o += 256) {
        unsigned n = bytes - o >= 256 ? 64 : (bytes - o) / 4;
        emit(t, "    lsc_store.ugm (M1_NM, 1)  flat[B%d+0x%x]:a64  %s.%u:d32x%ut\n", b, off + o, r, o, n);
    }
}
/* buffer b at offset off -> R[0, bytes) (transposed d32 loads). */
static void fill(text_t *t, const char *r, unsigned bytes, int b, unsigned off) {
    for (unsigned o = 0; o < bytes; o += 256) {
        unsigned n = bytes - o >= 256 ? 64 : (bytes - o) / 4;
        emit(t, "    lsc_load.ugm (M1_NM, 1)  %s.%u:d32x%ut  flat[B%d+0x%x]:a64\n", r, o, n, b, off + o);
    }
}

static int bytes_equal(const char *name, const uint8_t *got, const uint8_t *want, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: byte %zu: got 0x%02x, model 0x%02x\n", name, i, got[i], want[i]);
            return 0;
        }
    return 1;
}
static long byte_checks;

static const char *pf_name(visa_platform pf) {
    return pf == VISA_PLATFORM_XE2 ? "Xe2" : pf == VISA_PLATFORM_XEHPG ? "XeHPG" : "XeHPC";
}
static unsigned grf_of(visa_platform pf) { return pf == VISA_PLATFORM_XEHPG ? 32 : 64; }
static unsigned pow2ceil(unsigned v) {
    unsigned p = 1;
    while (p < v) p <<= 1;
    return p;
}

/* ---- 2D blocks (messages.md 3.3, LSC_UNTYPED LOAD_BLOCK2D / STORE_BLOCK2D) ---------------- */

enum { GRF = 64, REGB = 2048 };
static const char *dsname[] = {"d8", "d16", "d32", "d64"};
static unsigned ebytes(int ds) { return 1u << ds; }

typedef struct {
    int ds, blocks, w, h, tr, vnni;
    unsigned sw, sh, sp; /* surface width / pitch in bytes, height in rows */
    int x, y;
} b2d_t;

/* Register image of a load, from the layout table of messages.md 3.3. */
static unsigned model_b2d_load(const b2d_t *c, const uint8_t *surf, uint8_t *reg) {
    unsigned E = ebytes(c->ds), epr = GRF / E, epd = 4 / E;
    unsigned P, blk;
    if (c->tr) P = pow2ceil((unsigned)c->h), blk = P * (unsigned)c->w;
    else if (c->vnni) P = pow2ceil((unsigned)c->w), blk = (((unsigned)c->h + epd - 1) / epd) * P * epd;
    else P = pow2ceil((unsigned)c->w), blk = P * (unsigned)c->h;
    unsigned BP = (blk + epr - 1) / epr * epr;
    memset(reg, 0xEE, REGB);
    memset(reg, 0, (size_t)c->blocks * BP * E);
    for (int b = 0; b < c->blocks; b++)
        for (int y = 0; y < c->h; y++)
            for (int x = 0; x < c->w; x++) {
                unsigned idx;
                if (c->tr) idx = (unsigned)x * P + (unsigned)y;
                else if (c->vnni) idx = ((unsigned)y / epd * P + (unsigned)x) * epd + (unsigned)y % epd;
                else idx = (unsigned)y * P + (unsigned)x;
                idx += (unsigned)b * BP;
                long col = c->x + b * c->w + x, row = c->y + y;
                uint8_t *d = reg + (size_t)idx * E;
                if (col >= 0 && row >= 0 && (unsigned long)(col + 1) * E <= c->sw && (unsigned long)row < c->sh)
                    memcpy(d, surf + (size_t)row * c->sp + (size_t)col * E, E);
            }
    return (unsigned)c->blocks * BP * E; /* response bytes */
}

static void model_b2d_store(const b2d_t *c, const uint8_t *src, uint8_t *surf) {
    unsigned E = ebytes(c->ds), P = pow2ceil((unsigned)c->w);
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            long col = c->x + x, row = c->y + y;
            if (col >= 0 && row >= 0 && (unsigned long)(col + 1) * E <= c->sw && (unsigned long)row < c->sh)
                memcpy(surf + (size_t)row * c->sp + (size_t)col * E, src + ((size_t)y * P + (size_t)x) * E, E);
        }
}

/* form 0: vISA lsc_load_block2d; form 1: raw_sends with the messages.md 2.1 descriptor (on Xe2
** with an ExDesc X/Y offset, 2.4, folded into the model's X/Y). */
static void test_b2d_load(visa_platform pf, b2d_t c, int form) {
    unsigned E = ebytes(c.ds);
    size_t ssz = (size_t)c.sp * c.sh;
    uint8_t *surf = malloc(ssz), *out = malloc(REGB), *want = malloc(REGB);
    rnd_fill(surf, ssz);
    int xo = 0, yo = 0;
    if (form == 1 && pf == VISA_PLATFORM_XE2) xo = (int)(rnd() % 9) - 4, yo = (int)(rnd() % 7) - 3;
    b2d_t m = c;
    m.x += xo, m.y += yo;
    unsigned resp = model_b2d_load(&m, surf, want);
    text_t *t = malloc(sizeof *t);
    header(t, 2);
    emit(t, ".decl R v_type=G type=ud num_elts=512 align=GRF\n");
    emit(t, ".decl XY v_type=G type=d num_elts=16 align=GRF\n");
    emit(t, ".decl P v_type=G type=ud num_elts=16 align=GRF\n");
    emit(t, ".decl PQ v_type=G type=uq num_elts=8 alias=<P, 0>\n");
    body(t, 2, 16);
    prefill(t, "R", REGB, GRF);
    char name[160];
    snprintf(name, sizeof name, "b2d load %s %s.%dx%dx%d%c%c X=%d Y=%d surf %ux%u pitch %u %s", pf_name(pf),
             dsname[c.ds], c.blocks, c.w, c.h, c.tr ? 't' : 'n', c.vnni ? 't' : 'n', m.x, m.y, c.sw, c.sh, c.sp,
             form ? "raw_sends" : "lsc");
    if (form == 0) {
        emit(t, "    mov (M1, 1) XY(0,0)<1> %d:d\n    mov (M1, 1) XY(0,1)<1> %d:d\n", c.x, c.y);
        emit(t, "    lsc_load_block2d.ugm (M1, 1)  R:%s.%dx%dx%d%c%c  flat[B0,0x%x,0x%x,0x%x,XY(0,0),XY(0,1)]\n",
             dsname[c.ds], c.blocks, c.w, c.h, c.tr ? 't' : 'n', c.vnni ? 't' : 'n', c.sw - 1, c.sh - 1, c.sp - 1);
    } else {
        unsigned rlen = resp / GRF;
        uint32_t desc = 3u | (uint32_t)c.vnni << 7 | (uint32_t)c.ds << 9 | (uint32_t)c.tr << 15 |
                        (uint32_t)(rlen == 32 ? 31 : rlen) << 20 | 1u << 25;
        uint32_t exd = ((uint32_t)xo & 0x3ff) << 12 | ((uint32_t)yo & 0x3ff) << 22;
        emit(t, "    mov (M1, 16) P(0,0)<1> 0x0:ud\n    mov (M1, 1) PQ(0,0)<1> B0(0,0)<0;1,0>\n");
        uint32_t shape = (uint32_t)(c.w - 1) | (uint32_t)(c.h - 1) << 8 | (uint32_t)(c.blocks - 1) << 16;
        uint32_t pl[7] = {0, 0, c.sw - 1, c.sh - 1, c.sp - 1, (uint32_t)c.x, (uint32_t)c.y};
        for (int i = 2; i < 7; i++) emit(t, "    mov (M1, 1) P(0,%d)<1> 0x%x:ud\n", i, pl[i]);
        emit(t, "    mov (M1, 1) P(0,7)<1> 0x%x:ud\n", shape);
        emit(t, "    raw_sends.15.1.0.%u (M1, 1)  0x%x:ud 0x%x:ud P.0 %%null.0 R.0\n", rlen, exd, desc);
    }
    dump(t, "R", REGB, 1, 0);
    emit(t, "    ret (M1, 1)\n");
    visa_buffer bufs[2] = {{surf, ssz}, {out, REGB}};
    (void)E;
    CASE_BEGIN();
    visa_status st = run(t, pf, bufs, 2);
    CHECKF(st == VISA_OK, "%s: %s %s", name, visa_status_str(st), diag_text);
    if (st == VISA_OK) {
        CHECK(bytes_equal(name, out, want, REGB));
        byte_checks += REGB;
    }
    CASE_END(name);
    free(t), free(surf), free(out), free(want);
}

static void test_b2d_store(visa_platform pf, b2d_t c, int form) {
    unsigned E = ebytes(c.ds), P = pow2ceil((unsigned)c.w);
    size_t ssz = (size_t)c.sp * c.sh;
    unsigned srcb = ((unsigned)c.h * P * E + GRF - 1) / GRF * GRF;
    uint8_t *surf = malloc(ssz), *want = malloc(ssz), *src = malloc(REGB);
    rnd_fill(surf, ssz);
    rnd_fill(src, REGB);
    memcpy(want, surf, ssz);
    model_b2d_store(&c, src, want);
    text_t *t = malloc(sizeof *t);
    header(t, 2);
    emit(t, ".decl D v_type=G type=ud num_elts=512 align=GRF\n");
    emit(t, ".decl XY v_type=G type=d num_elts=16 align=GRF\n");
    emit(t, ".decl P v_type=G type=ud num_elts=16 align=GRF\n");
    emit(t, ".decl PQ v_type=G type=uq num_elts=8 alias=<P, 0>\n");
    body(t, 2, 16);
    fill(t, "D", REGB, 1, 0);
    char name[160];
    snprintf(name, sizeof name, "b2d store %s %s.%dx%d X=%d Y=%d surf %ux%u pitch %u %s", pf_name(pf), dsname[c.ds],
             c.w, c.h, c.x, c.y, c.sw, c.sh, c.sp, form ? "raw_sends" : "lsc");
    if (form == 0) {
        emit(t, "    mov (M1, 1) XY(0,0)<1> %d:d\n    mov (M1, 1) XY(0,1)<1> %d:d\n", c.x, c.y);
        emit(t, "    lsc_store_block2d.ugm (M1, 1)  flat[B0,0x%x,0x%x,0x%x,XY(0,0),XY(0,1)]  D:%s.%dx%dnn\n", c.sw - 1,
             c.sh - 1, c.sp - 1, dsname[c.ds], c.w, c.h);
    } else {
        uint32_t desc = 7u | (uint32_t)c.ds << 9 | 1u << 25;
        emit(t, "    mov (M1, 16) P(0,0)<1> 0x0:ud\n    mov (M1, 1) PQ(0,0)<1> B0(0,0)<0;1,0>\n");
        uint32_t shape = (uint32_t)(c.w - 1) | (uint32_t)(c.h - 1) << 8;
        uint32_t pl[7] = {0, 0, c.sw - 1, c.sh - 1, c.sp - 1, (uint32_t)c.x, (uint32_t)c.y};
        for (int i = 2; i < 7; i++) emit(t, "    mov (M1, 1) P(0,%d)<1> 0x%x:ud\n", i, pl[i]);
        emit(t, "    mov (M1, 1) P(0,7)<1> 0x%x:ud\n", shape);
        emit(t, "    raw_sends.15.1.%u.0 (M1, 1)  0x0:ud 0x%x:ud P.0 D.0 %%null.0\n", srcb / GRF, desc);
    }
    emit(t, "    ret (M1, 1)\n");
    visa_buffer bufs[2] = {{surf, ssz}, {src, REGB}};
    CASE_BEGIN();
    visa_status st = run(t, pf, bufs, 2);
    CHECKF(st == VISA_OK, "%s: %s %s", name, visa_status_str(st), diag_text);
    if (st == VISA_OK) {
        CHECK(bytes_equal(name, surf, want, ssz));
        byte_checks += (long)ssz;
    }
    CASE_END(name);
    free(t), free(surf), free(want), free(src);
}

/* A random surface and a block position that is inside, across an edge, or wholly outside. */
static void b2d_place(b2d_t *c) {
    unsigned E = ebytes(c->ds);
    c->sw = 64 + 16 * (rnd() % 9);
    c->sh = 4 + rnd() % 40;
    c->sp = c->sw + 16 * (rnd() % 3);
    int cols = (int)(c->sw / E), span = c->blocks * c->w;
    switch (rnd() % 5) {
    case 0: c->x = (int)(rnd() % (unsigned)(cols > span ? cols - span + 1 : 1)), c->y = (int)(rnd() % c->sh); break;
    case 1: c->x = -(int)(rnd() % (unsigned)span) - 1, c->y = -(int)(rnd() % 6); break; /* left / top */
    case 2: c->x = cols - (int)(rnd() % (unsigned)span), c->y = (int)c->sh - 1 - (int)(rnd() % 3); break;
    case 3: c->x = cols + (int)(rnd() % 8), c->y = (int)(rnd() % c->sh); break; /* all right */
    default: c->x = (int)(rnd() % (unsigned)cols), c->y = -(int)c->h - (int)(rnd() % 3); break; /* above */
    }
    if (E == 1) c->x &= ~3; /* X restrictions (messages.md 3.3) */
    if (E == 2) c->x &= ~1;
}

static void suite_b2d(void) {
    /* {ds, blocks, w, h, tr, vnni} -- shapes from the supported-variant families of messages.md
    ** 3.3 (block row <= 64 bytes, transpose d32 W <= 8 / d64 W <= 4 H 8, VNNI d8/d16). */
    static const int shapes[][6] = {
        {0, 1, 4, 1, 0, 0},
        {0, 1, 16, 8, 0, 0},
        {0, 2, 32, 4, 0, 0},
        {0, 4, 16, 16, 0, 0},
        {0, 1, 64, 32, 0, 0},
        {0, 1, 8, 3, 0, 0},
        {1, 1, 2, 1, 0, 0},
        {1, 1, 8, 5, 0, 0},
        {1, 2, 16, 8, 0, 0},
        {1, 1, 32, 32, 0, 0},
        {1, 2, 8, 32, 0, 0},
        {1, 1, 6, 7, 0, 0},
        {2, 1, 1, 1, 0, 0},
        {2, 1, 3, 9, 0, 0},
        {2, 2, 8, 16, 0, 0},
        {2, 1, 16, 32, 0, 0},
        {3, 1, 1, 4, 0, 0},
        {3, 1, 4, 8, 0, 0},
        {3, 1, 8, 16, 0, 0},
        /* VNNI */
        {0, 1, 4, 4, 0, 1},
        {0, 1, 16, 32, 0, 1},
        {0, 2, 16, 8, 0, 1},
        {0, 4, 16, 4, 0, 1},
        {0, 1, 8, 12, 0, 1},
        {1, 1, 16, 16, 0, 1},
        {1, 2, 16, 32, 0, 1},
        {1, 1, 2, 2, 0, 1},
        {1, 1, 8, 6, 0, 1},
        {1, 2, 8, 8, 0, 1},
        /* transposed */
        {2, 1, 1, 1, 1, 0},
        {2, 1, 8, 16, 1, 0},
        {2, 1, 4, 8, 1, 0},
        {2, 1, 8, 32, 1, 0},
        {2, 1, 3, 5, 1, 0},
        {3, 1, 4, 8, 1, 0},
        {3, 1, 2, 8, 1, 0},
        {3, 1, 1, 8, 1, 0},
    };
    static const visa_platform pfs[] = {VISA_PLATFORM_XE2, VISA_PLATFORM_XEHPC};
    for (size_t p = 0; p < 2; p++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int rep = 0; rep < 3; rep++) {
                b2d_t c = {
                    shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], shapes[s][4], shapes[s][5], 0, 0, 0, 0, 0};
                b2d_place(&c);
                test_b2d_load(pfs[p], c, rep == 2);
            }
    static const int st_shapes[][3] = {{0, 4, 1},  {0, 16, 8},  {0, 64, 8}, {0, 12, 5}, {1, 2, 4},
                                       {1, 16, 8}, {1, 32, 16}, {1, 6, 3},  {2, 1, 1},  {2, 8, 8},
                                       {2, 16, 8}, {2, 5, 7},   {3, 1, 3},  {3, 4, 8},  {3, 8, 4}};
    for (size_t p = 0; p < 2; p++)
        for (size_t s = 0; s < sizeof st_shapes / sizeof st_shapes[0]; s++)
            for (int rep = 0; rep < 3; rep++) {
                b2d_t c = {st_shapes[s][0], 1, st_shapes[s][1], st_shapes[s][2], 0, 0, 0, 0, 0, 0, 0};
                b2d_place(&c);
                test_b2d_store(pfs[p], c, rep == 2);
            }
}

/* ---- untyped SIMT / transposed / strided / quad / atomics (LSC_UNTYPED pseudo-code, 3.1-3.2) - */

enum { D8, D16, D32, D64, D8U32, D16U32 };
static const char *udsname[] = {"d8", "d16", "d32", "d64", "d8u32", "d16u32"};
static const unsigned mem_e[] = {1, 2, 4, 8, 1, 2}, reg_e[] = {1, 2, 4, 8, 4, 4};
enum { MEMB = 4096 };

static unsigned min_exec(visa_platform pf) { return pf == VISA_PLATFORM_XEHPG ? 8 : 16; }
static unsigned comp_stride(visa_platform pf, unsigned exec, int ds) {
    unsigned w = exec > min_exec(pf) ? exec : min_exec(pf), grf = grf_of(pf);
    unsigned g = w * reg_e[ds] / grf;
    return (g ? g : 1) * grf;
}
static uint64_t rdle(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static void wrle(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Kernel skeleton for untyped cases: B0 memory, B1 addresses (32 qwords) + data (2048 B at 256),
** B2 output register dump.  A = addresses, D = data, S2 = second atomic operand, R = result. */
static void untyped_head(text_t *t, visa_platform pf, uint32_t mask) {
    header(t, 3);
    emit(t, ".decl A v_type=G type=uq num_elts=32 align=GRF\n");
    emit(t, ".decl D v_type=G type=ud num_elts=512 align=GRF\n");
    emit(t, ".decl S2 v_type=G type=ud num_elts=512 align=GRF\n");
    emit(t, ".decl R v_type=G type=ud num_elts=512 align=GRF\n");
    emit(t, ".decl P1 v_type=P num_elts=32\n");
    body(t, 3, 32);
    fill(t, "A", 256, 1, 0);
    fill(t, "D", REGB, 1, 256);
    fill(t, "S2", REGB, 1, 256 + REGB);
    prefill(t, "R", REGB, grf_of(pf));
    emit(t, "    setp (M1_NM, 32) P1 0x%x:ud\n", mask);
}
enum { AUXB = 256 + 2 * REGB };

static void run_untyped(const char *name, visa_platform pf, text_t *t, uint8_t *mem, uint8_t *aux,
                        const uint8_t *want_mem, const uint8_t *want_reg) {
    uint8_t *out = malloc(REGB);
    memset(out, 0, REGB);
    dump(t, "R", REGB, 2, 0);
    emit(t, "    ret (M1, 1)\n");
    visa_buffer bufs[3] = {{mem, MEMB}, {aux, AUXB}, {out, REGB}};
    CASE_BEGIN();
    visa_status st = run(t, pf, bufs, 3);
    CHECKF(st == VISA_OK, "%s: %s %s", name, visa_status_str(st), diag_text);
    if (st == VISA_OK) {
        CHECK(bytes_equal(name, mem, want_mem, MEMB));
        CHECK(bytes_equal(name, out, want_reg, REGB));
        byte_checks += MEMB + REGB;
    }
    CASE_END(name);
    free(out);
}

/* Random lane byte offsets (aligned to align, room for span bytes); distinct slots when uniq. */
static void lane_offsets(unsigned *off, unsigned n, unsigned align, unsigned span, int uniq) {
    unsigned slot = (span + align - 1) / align * align, nslots = MEMB / slot, perm[MEMB];
    for (unsigned i = 0; i < nslots; i++) perm[i] = i;
    for (unsigned i = 0; i < n; i++) {
        if (uniq) { /* partial Fisher-Yates shuffle: n distinct slots (nslots >= 32 here) */
            unsigned j = i + rnd() % (nslots - i), k = perm[i];
            perm[i] = perm[j], perm[j] = k;
            off[i] = perm[i] * slot;
        } else {
            off[i] = (rnd() % ((MEMB - span) / align + 1)) * align;
        }
    }
}

static void set_addrs(uint8_t *aux, const unsigned *off, unsigned n) {
    uint64_t base = visa_buffer_address(0);
    for (unsigned i = 0; i < n; i++) wrle(aux + 8 * i, base + off[i], 8);
}

/* SIMT load or store: every data size, vector size, exec size, lane mask. */
static void test_simt(visa_platform pf, int store, int ds, unsigned vec, unsigned exec, uint32_t mask) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned E = mem_e[ds], RE = reg_e[ds], CS = comp_stride(pf, exec, ds), off[32];
    lane_offsets(off, exec, E, E * vec, store);
    set_addrs(aux, off, exec);
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    const uint8_t *D = aux + 256;
    for (unsigned n = 0; n < exec; n++) {
        if (!(mask >> n & 1)) continue;
        for (unsigned v = 0; v < vec; v++) {
            uint8_t *m = wmem + off[n] + v * E;
            if (store) memcpy(m, D + v * CS + n * RE, E);
            else wrle(wreg + v * CS + n * RE, rdle(m, E), RE); /* zero-extends u32 forms */
        }
    }
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, mask);
    char vs[16] = "";
    if (vec > 1) snprintf(vs, sizeof vs, "x%u", vec);
    if (store) emit(t, "    (P1) lsc_store.ugm (M1, %u)  flat[A]:a64  D:%s%s\n", exec, udsname[ds], vs);
    else emit(t, "    (P1) lsc_load.ugm (M1, %u)  R:%s%s  flat[A]:a64\n", exec, udsname[ds], vs);
    char name[128];
    snprintf(name, sizeof name, "untyped %s %s (M1, %u) %s%s mask 0x%x", pf_name(pf), store ? "store" : "load", exec,
             udsname[ds], vs, mask);
    run_untyped(name, pf, t, mem, aux, wmem, wreg);
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

/* Transposed (SIMD1 block) load/store of vec elements at one address, lane 0 enabled or not. */
static void test_transposed(visa_platform pf, int store, int ds, unsigned vec, int enabled) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned E = mem_e[ds], off;
    lane_offsets(&off, 1, E < 4 ? 4 : E, E * vec, 0);
    set_addrs(aux, &off, 1);
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    if (enabled) {
        if (store) memcpy(wmem + off, aux + 256, (size_t)E * vec);
        else memcpy(wreg, mem + off, (size_t)E * vec);
    }
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, enabled ? 1u : 0xfffffffeu);
    if (store) emit(t, "    (P1) lsc_store.ugm (M1, 1)  flat[A]:a64  D:%sx%ut\n", udsname[ds], vec);
    else emit(t, "    (P1) lsc_load.ugm (M1, 1)  R:%sx%ut  flat[A]:a64\n", udsname[ds], vec);
    char name[128];
    snprintf(name, sizeof name, "transposed %s %s %sx%ut%s", pf_name(pf), store ? "store" : "load", udsname[ds], vec,
             enabled ? "" : " (lane 0 off)");
    run_untyped(name, pf, t, mem, aux, wmem, wreg);
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

/* Strided: lane n at base + n * pitch (pitch an immediate, 0 = broadcast). */
static void test_strided(visa_platform pf, int store, int ds, unsigned vec, unsigned exec, unsigned pitch,
                         uint32_t mask) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned E = mem_e[ds], RE = reg_e[ds], CS = comp_stride(pf, exec, ds);
    unsigned base = 8 * (rnd() % 8);
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    for (unsigned n = 0; n < exec; n++) {
        if (!(mask >> n & 1)) continue;
        for (unsigned v = 0; v < vec; v++) {
            uint8_t *m = wmem + base + n * pitch + v * E;
            if (store) memcpy(m, aux + 256 + v * CS + n * RE, E);
            else wrle(wreg + v * CS + n * RE, rdle(m, E), RE);
        }
    }
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, mask);
    char vs[16] = "";
    if (vec > 1) snprintf(vs, sizeof vs, "x%u", vec);
    if (store)
        emit(t, "    (P1) lsc_store_strided.ugm (M1, %u)  flat[B0+0x%x, 0x%x]:a64  D:%s%s\n", exec, base, pitch,
             udsname[ds], vs);
    else
        emit(t, "    (P1) lsc_load_strided.ugm (M1, %u)  R:%s%s  flat[B0+0x%x, 0x%x]:a64\n", exec, udsname[ds], vs,
             base, pitch);
    char name[128];
    snprintf(name, sizeof name, "strided %s %s (M1, %u) %s%s pitch %u mask 0x%x", pf_name(pf), store ? "store" : "load",
             exec, udsname[ds], vs, pitch, mask);
    run_untyped(name, pf, t, mem, aux, wmem, wreg);
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

/* Quad: enabled channels (cmask bit c = X..W) packed into consecutive register blocks. */
static void test_quad(visa_platform pf, int store, unsigned cmask, unsigned exec, uint32_t mask) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned CS = comp_stride(pf, exec, D32), off[32];
    lane_offsets(off, exec, 4, 16, store);
    set_addrs(aux, off, exec);
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    for (unsigned n = 0; n < exec; n++) {
        if (!(mask >> n & 1)) continue;
        for (unsigned c = 0, m = 0; c < 4; c++) {
            if (!(cmask >> c & 1)) continue;
            if (store) memcpy(wmem + off[n] + 4 * c, aux + 256 + m * CS + n * 4, 4);
            else memcpy(wreg + m * CS + n * 4, wmem + off[n] + 4 * c, 4);
            m++;
        }
    }
    char cs[5] = "", *p = cs;
    for (int c = 0; c < 4; c++)
        if (cmask >> c & 1) *p++ = "xyzw"[c];
    *p = 0;
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, mask);
    if (store) emit(t, "    (P1) lsc_store_quad.ugm (M1, %u)  flat[A]:a64  D:d32.%s\n", exec, cs);
    else emit(t, "    (P1) lsc_load_quad.ugm (M1, %u)  R:d32.%s  flat[A]:a64\n", exec, cs);
    char name[128];
    snprintf(name, sizeof name, "quad %s %s (M1, %u) .%s mask 0x%x", pf_name(pf), store ? "store" : "load", exec, cs,
             mask);
    run_untyped(name, pf, t, mem, aux, wmem, wreg);
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

/* Atomics (LSC_UNTYPED table, messages.md 2.2): old value returned, lanes in order. */
typedef struct {
    const char *name;
    int args; /* extra operands */
    int fp;
} aop_t;
static const aop_t aops[] = {{"iinc", 0, 0}, {"idec", 0, 0}, {"load", 0, 0}, {"store", 1, 0}, {"iadd", 1, 0},
                             {"isub", 1, 0}, {"smin", 1, 0}, {"smax", 1, 0}, {"umin", 1, 0},  {"umax", 1, 0},
                             {"icas", 2, 0}, {"and", 1, 0},  {"or", 1, 0},   {"xor", 1, 0},   {"fadd", 1, 1},
                             {"fsub", 1, 1}, {"fmin", 1, 1}, {"fmax", 1, 1}, {"fcas", 2, 1}};

static uint64_t atomic_new(const aop_t *o, uint64_t old, uint64_t s1, uint64_t s2, unsigned E) {
    uint64_t mk = E == 8 ? ~0ull : 0xffffffffull;
    int64_t so = E == 8 ? (int64_t)old : (int32_t)old, s = E == 8 ? (int64_t)s1 : (int32_t)s1;
    const char *n = o->name;
    if (!strcmp(n, "iinc")) return (old + 1) & mk;
    if (!strcmp(n, "idec")) return (old - 1) & mk;
    if (!strcmp(n, "load")) return old;
    if (!strcmp(n, "store")) return s1;
    if (!strcmp(n, "iadd")) return (old + s1) & mk;
    if (!strcmp(n, "isub")) return (old - s1) & mk;
    if (!strcmp(n, "smin")) return so < s ? old : s1;
    if (!strcmp(n, "smax")) return so > s ? old : s1;
    if (!strcmp(n, "umin")) return old < s1 ? old : s1;
    if (!strcmp(n, "umax")) return old > s1 ? old : s1;
    if (!strcmp(n, "icas")) return old == s1 ? s2 : old;
    if (!strcmp(n, "and")) return old & s1;
    if (!strcmp(n, "or")) return old | s1;
    if (!strcmp(n, "xor")) return old ^ s1;
    if (E == 4) {
        float a, b, r;
        uint32_t ua = (uint32_t)old, ub = (uint32_t)s1, ur;
        memcpy(&a, &ua, 4), memcpy(&b, &ub, 4);
        if (!strcmp(n, "fcas")) return ua == ub ? s2 : old; /* values are finite, non-zero */
        r = !strcmp(n, "fadd")   ? a + b
            : !strcmp(n, "fsub") ? a - b
            : !strcmp(n, "fmin") ? (a < b ? a : b)
                                 : (a > b ? a : b);
        memcpy(&ur, &r, 4);
        return ur;
    }
    double a, b, r;
    memcpy(&a, &old, 8), memcpy(&b, &s1, 8);
    if (!strcmp(n, "fcas")) return old == s1 ? s2 : old;
    r = !strcmp(n, "fadd")   ? a + b
        : !strcmp(n, "fsub") ? a - b
        : !strcmp(n, "fmin") ? (a < b ? a : b)
                             : (a > b ? a : b);
    uint64_t u;
    memcpy(&u, &r, 8);
    return u;
}

/* A finite float of moderate magnitude (no NaN / zero / denormal questions). */
static uint64_t rnd_fp(unsigned E) {
    double v = ((double)(rnd() % 20001) - 10000.0) / 64.0 + 0.5;
    if (E == 4) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

static void test_atomic(visa_platform pf, const aop_t *o, int ds, unsigned exec, uint32_t mask, int ret) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned E = mem_e[ds], RE = reg_e[ds], CS = comp_stride(pf, exec, ds), off[32];
    /* few distinct addresses so lanes meet */
    unsigned slots[4];
    lane_offsets(slots, 4, E, E, 1);
    for (unsigned n = 0; n < exec; n++) off[n] = slots[rnd() % 4];
    set_addrs(aux, off, exec);
    uint8_t *S1 = aux + 256, *S2 = aux + 256 + REGB;
    if (o->fp) {
        for (unsigned i = 0; i < 4; i++) wrle(mem + slots[i], rnd_fp(E), E);
        for (unsigned n = 0; n < exec; n++) wrle(S1 + n * RE, rnd_fp(E), E), wrle(S2 + n * RE, rnd_fp(E), E);
    }
    /* cas: some compares hit the slot's initial value */
    if (!strcmp(o->name, "icas") || !strcmp(o->name, "fcas"))
        for (unsigned n = 0; n < exec; n += 2) memcpy(S1 + n * RE, mem + off[n], E);
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    for (unsigned n = 0; n < exec; n++) {
        if (!(mask >> n & 1)) continue;
        uint64_t old = rdle(wmem + off[n], E);
        wrle(wmem + off[n], atomic_new(o, old, rdle(S1 + n * RE, E), rdle(S2 + n * RE, E), E), E);
        if (ret) wrle(wreg + n * RE, old, RE);
    }
    (void)CS;
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, mask);
    emit(t, "    (P1) lsc_atomic_%s.ugm (M1, %u)  %s:%s  flat[A]:a64  %s  %s\n", o->name, exec, ret ? "R" : "%null",
         udsname[ds], o->args >= 1 ? "D" : "%null", o->args >= 2 ? "S2" : "%null");
    char name[128];
    snprintf(name, sizeof name, "atomic %s %s (M1, %u) %s mask 0x%x%s", pf_name(pf), o->name, exec, udsname[ds], mask,
             ret ? "" : " no return");
    run_untyped(name, pf, t, mem, aux, wmem, wreg);
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

/* Out of bounds: an enabled lane whose address is past its buffer faults (VISA_E_RUNTIME, the
** emulator's memory model: buffers are the only memory); the same address on a lane that is
** masked off is never accessed. */
static void test_oob(visa_platform pf, int store, int lane_on) {
    uint8_t *mem = malloc(MEMB), *aux = malloc(AUXB), *wmem = malloc(MEMB), *wreg = malloc(REGB);
    rnd_fill(mem, MEMB), rnd_fill(aux, AUXB);
    unsigned off[16];
    lane_offsets(off, 16, 4, 4, 1);
    off[5] = MEMB; /* one past the end */
    set_addrs(aux, off, 16);
    uint32_t mask = lane_on ? 0xffffu : 0xffdfu;
    memcpy(wmem, mem, MEMB);
    memset(wreg, 0xEE, REGB);
    for (unsigned n = 0; n < 16; n++)
        if ((mask >> n & 1) && off[n] < MEMB) { /* the faulting case compares no data */
            if (store) memcpy(wmem + off[n], aux + 256 + n * 4, 4);
            else memcpy(wreg + n * 4, mem + off[n], 4);
        }
    text_t *t = malloc(sizeof *t);
    untyped_head(t, pf, mask);
    if (store) emit(t, "    (P1) lsc_store.ugm (M1, 16)  flat[A]:a64  D:d32\n");
    else emit(t, "    (P1) lsc_load.ugm (M1, 16)  R:d32  flat[A]:a64\n");
    char name[128];
    snprintf(name, sizeof name, "oob %s %s lane 5 %s", pf_name(pf), store ? "store" : "load", lane_on ? "on" : "off");
    if (!lane_on) {
        run_untyped(name, pf, t, mem, aux, wmem, wreg);
    } else {
        uint8_t out[REGB];
        dump(t, "R", REGB, 2, 0);
        emit(t, "    ret (M1, 1)\n");
        visa_buffer bufs[3] = {{mem, MEMB}, {aux, AUXB}, {out, REGB}};
        CASE_BEGIN();
        visa_status st = run(t, pf, bufs, 3);
        CHECKF(st == VISA_E_RUNTIME, "%s: %s", name, visa_status_str(st));
        CASE_END(name);
    }
    free(t), free(mem), free(aux), free(wmem), free(wreg);
}

static void suite_untyped(void) {
    static const unsigned execs[] = {1, 2, 4, 8, 16, 32};
    static const unsigned vecs[] = {1, 2, 3, 4, 8};
    enum { NPF = 3 };
    static const visa_platform pfs[NPF] = {VISA_PLATFORM_XE2, VISA_PLATFORM_XEHPC, VISA_PLATFORM_XEHPG};
    for (int p = 0; p < NPF; p++)
        for (int ds = D8; ds <= D16U32; ds++) {
            if (ds >= D8U32 && pfs[p] != VISA_PLATFORM_XE2) continue;
            for (size_t e = 0; e < 6; e++)
                for (size_t v = 0; v < 5; v++) {
                    unsigned exec = execs[e], vec = vecs[v];
                    if (comp_stride(pfs[p], exec, ds) * vec > REGB) continue;
                    uint32_t mask = rnd() | (e % 2 ? 0 : 1u); /* random lanes */
                    test_simt(pfs[p], 0, ds, vec, exec, mask);
                    test_simt(pfs[p], 1, ds, vec, exec, rnd());
                }
        }
    static const unsigned tvecs[] = {1, 2, 3, 4, 8, 16, 32, 64};
    for (int p = 0; p < NPF; p++)
        for (int ds = D8; ds <= D64; ds++)
            for (size_t v = 0; v < 8; v++)
                for (int st = 0; st < 2; st++) test_transposed(pfs[p], st, ds, tvecs[v], (v % 3) != 2);
    for (int p = 0; p < NPF; p++)
        for (int ds = D8; ds <= D64; ds++) {
            test_strided(pfs[p], 0, ds, 1, 16, mem_e[ds] * 3, rnd());
            test_strided(pfs[p], 0, ds, 2, 8, mem_e[ds] * 2, 0xff);
            test_strided(pfs[p], 0, ds, 1, 32, 0, rnd());
            test_strided(pfs[p], 1, ds, 1, 16, mem_e[ds] * 4, rnd());
            test_strided(pfs[p], 1, ds, 2, 16, mem_e[ds] * 2, 0xffff);
        }
    for (int p = 0; p < NPF; p++)
        for (unsigned cm = 1; cm < 16; cm++) {
            test_quad(pfs[p], 0, cm, cm % 2 ? 16 : 8, rnd());
            test_quad(pfs[p], 1, cm, cm % 3 ? 16 : 32, rnd());
        }
    for (int p = 0; p < NPF; p++)
        for (size_t o = 0; o < sizeof aops / sizeof aops[0]; o++)
            for (int ds = D32; ds <= D64; ds++) {
                test_atomic(pfs[p], &aops[o], ds, 16, rnd() | 1, 1);
                test_atomic(pfs[p], &aops[o], ds, 8, 0xff, o % 2);
            }
    for (int p = 0; p < NPF; p++)
        for (int st = 0; st < 2; st++)
            for (int on = 0; on < 2; on++) test_oob(pfs[p], st, on);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 2;
    suite_b2d();
    suite_untyped();
    visa_ctx_destroy(ctx);
    printf("model_lsc: %ld bytes compared with the model\n", byte_checks);
    return th_finish();
}
