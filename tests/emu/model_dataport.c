/* model_dataport.c -- an independent C model of the legacy data-port and SVM messages, written
** from the spec pages (shared/spec/instructions) and the seed pages (GATHER_SCALED,
** SVM_SCATTER4_SCALED, RAW_SEND), checked against the emulator through the public API.
**
** Every kernel is generated here with deterministic pseudo-random data given as immediates
** (so no other memory instruction feeds the inputs), run with visa_module_run, and its results
** (the destination registers, stored with lsc_store, and the buffers) are compared byte by byte
** with what the model computes from the pseudo-code.  Bytes a page calls undefined are not
** compared; everything else is.
**
** Readings chosen where the pages leave room (see the report in the commit message):
**  - offset + element_offset is UD arithmetic (wraps mod 2^32) for surface messages; 64-bit for
**    SVM addresses.
**  - out of bounds is decided per access (the <num_blocks> bytes of a lane, one oword, one
**    dword): an access not wholly inside the surface reads 0 / writes nothing.
**  - the M1..M8 offset selects both the execution-mask and the predicate bits (spec 3: "also
**    used to control the predicate variable offset").
**  - MEDIA_LD outside the surface returns the nearest edge pixel (same byte within the pixel),
**    X/Y read as signed; this is the emulator's documented choice for an implementation-defined
**    case.
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

/* -- deterministic random numbers ----------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dull;
}
static uint32_t rndu(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static uint32_t rnd32(void) { return (uint32_t)(rnd() >> 16); }

/* -- text building -------------------------------------------------------------------------- */

typedef struct Str {
    char *p;
    size_t n, cap;
} Str;

static void sf(Str *s, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int need = vsnprintf(s->p ? s->p + s->n : NULL, s->p ? s->cap - s->n : 0, fmt, ap);
        va_end(ap);
        if (need < 0) abort();
        if (s->p && s->n + (size_t)need < s->cap) {
            s->n += (size_t)need;
            return;
        }
        size_t cap = (s->cap + (size_t)need + 1) * 2;
        char *q = realloc(s->p, cap);
        if (!q) abort();
        s->p = q;
        s->cap = cap;
    }
}

/* -- byte comparison ------------------------------------------------------------------------ */

static long byte_checks;

/* Compare n bytes where care[i] (or every byte when care is NULL). */
static void cmp_bytes(const char *what, const uint8_t *got, const uint8_t *exp, const uint8_t *care, size_t n) {
    int shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (care && !care[i]) continue;
        byte_checks++;
        if (got[i] != exp[i]) {
            th_case_failed = 1;
            if (shown++ < 6)
                fprintf(stderr, "  %s: byte %zu (dword %zu) got 0x%02x expected 0x%02x\n", what, i, i / 4, got[i],
                        exp[i]);
        }
    }
}

/* -- kernels -------------------------------------------------------------------------------- */

#define MAXBUF 8
#define MAXARG 16

typedef struct Kern {
    Str decl, input, body;
    visa_platform plat;
    unsigned grf, simd, in_off, labels;
    bool slm;
    visa_arg args[MAXARG];
    size_t nargs;
    visa_buffer bufs[MAXBUF];
    size_t nbufs;
} Kern;

static void k_init(Kern *k, visa_platform p, unsigned simd) {
    memset(k, 0, sizeof *k);
    k->plat = p;
    k->grf = visa_platform_grf_bytes(p);
    k->simd = simd;
    k->in_off = 64;
}

static void k_free(Kern *k) {
    free(k->decl.p);
    free(k->input.p);
    free(k->body.p);
}

static unsigned k_buf(Kern *k, uint8_t *data, size_t size) {
    k->bufs[k->nbufs].data = data;
    k->bufs[k->nbufs].size = size;
    return (unsigned)k->nbufs++;
}

static void k_in(Kern *k, const char *name, const char *what, unsigned size, visa_arg a) {
    k->in_off = (k->in_off + size - 1) / size * size;
    sf(&k->decl, ".decl %s %s\n", name, what);
    sf(&k->input, ".input %s offset=%u size=%u\n", name, k->in_off, size);
    k->in_off += size;
    k->args[k->nargs++] = a;
}

static void k_surf(Kern *k, const char *name, const char *attrs, unsigned buf) {
    char what[160];
    snprintf(what, sizeof what, "v_type=T num_elts=1%s%s", attrs ? " attrs=" : "", attrs ? attrs : "");
    k_in(k, name, what, 4, (visa_arg){VISA_ARG_BUFFER, 0, buf, 0});
}

static void k_ptr(Kern *k, const char *name, unsigned buf) {
    k_in(k, name, "v_type=G type=uq num_elts=1", 8, (visa_arg){VISA_ARG_BUFFER, 0, buf, 0});
}

static void k_scalar(Kern *k, const char *name, const char *type, uint64_t v) {
    char what[64];
    snprintf(what, sizeof what, "v_type=G type=%s num_elts=1", type);
    unsigned size = type[strlen(type) - 1] == 'q' ? 8 : 4;
    k_in(k, name, what, size, (visa_arg){VISA_ARG_SCALAR, v, 0, 0});
}

static void k_vec(Kern *k, const char *name, const char *type, unsigned n) {
    sf(&k->decl, ".decl %s v_type=G type=%s num_elts=%u align=GRF\n", name, type, n);
    /* a ud view, so that immediates fill in the bits of f / d data unconverted */
    if (strcmp(type, "uq") && strcmp(type, "q"))
        sf(&k->decl, ".decl %s_U v_type=G type=ud num_elts=%u alias=<%s, 0>\n", name, n, name);
}

/* Element i of a vector, as (row, col) for an element of esize bytes. */
static void k_fill(Kern *k, const char *name, unsigned esize, const char *type, unsigned n, const void *vals) {
    unsigned per = k->grf / esize;
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = esize == 8 ? ((const uint64_t *)vals)[i] : ((const uint32_t *)vals)[i];
        sf(&k->body, "    mov (M1_NM, 1) %s(%u,%u)<1> 0x%llx:%s\n", name, i / per, i % per, (unsigned long long)v,
           type);
    }
}

static void k_fill32(Kern *k, const char *name, unsigned n, const uint32_t *v) {
    char view[40];
    snprintf(view, sizeof view, "%s_U", name);
    k_fill(k, view, 4, "ud", n, v);
}
static void k_fill64(Kern *k, const char *name, unsigned n, const uint64_t *v) { k_fill(k, name, 8, "uq", n, v); }

/* Store nbytes (a multiple of 4) of var to the dump pointer OUT at byte `at`. */
static void k_dump(Kern *k, const char *var, unsigned nbytes, unsigned at) {
    unsigned off = 0;
    while (off < nbytes) {
        unsigned dw = (nbytes - off) / 4, c = 64;
        while (c > dw) c /= 2;
        sf(&k->body, "    lsc_store.ugm (M1_NM, 1)  flat[OUT+0x%x]:a64  %s.%u:d32x%ut\n", at + off, var, off, c);
        off += c * 4;
    }
}

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "  diag %s %u:%u: %s\n", d->code, d->line, d->col, d->message);
    if (d->source_line) fprintf(stderr, "    | %.*s\n", (int)d->source_line_len, d->source_line);
}

static int dump_kernels; /* set by env MODEL_DP_DUMP: print failing kernels */

/* Parse and run; `out` (out_size bytes) is bound to the dump pointer OUT.  Returns 0 on success. */
static int k_run(Kern *k, const char *what, uint8_t *out, size_t out_size) {
    unsigned ob = k_buf(k, out, out_size);
    k_ptr(k, "OUT", ob);
    Str t = {0};
    sf(&t, ".version 4.1\n.kernel \"k\"\n%s%s.kernel_attr SimdSize=%u\n", k->decl.p, k->input.p, k->simd);
    if (k->slm) sf(&t, ".kernel_attr SLMSize=4\n");
    sf(&t, "%s    ret (M1, 1)\n", k->body.p);
    visa_ctx *ctx = NULL;
    visa_module *m = NULL;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    int rc = 1;
    if (visa_ctx_create(&desc, &ctx) == VISA_OK &&
        visa_module_parse_text(ctx, what, t.p, t.n, k->plat, &m) == VISA_OK) {
        visa_run_opts o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.platform = k->plat;
        visa_status st = visa_module_run(m, &o, k->args, k->nargs, k->bufs, k->nbufs, NULL);
        if (st == VISA_OK) rc = 0;
        else fprintf(stderr, "  %s: run failed: %s\n", what, visa_status_str(st));
    } else {
        fprintf(stderr, "  %s: parse failed\n", what);
    }
    if (rc || dump_kernels) fprintf(stderr, "---- %s\n%s----\n", what, t.p);
    if (rc) th_case_failed = 1;
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    free(t.p);
    return rc;
}

/* -- channel enables ------------------------------------------------------------------------ */

/* The execution control of one instruction: "(P) op (Mk[_NM], n)" and which lanes it enables.
** Divergence comes from a forward goto taken by the lanes outside `em`, so the instruction runs
** with EM = em & dispatch; the predicate is random and maybe inverted.  Picked once per case so
** that the vISA instruction and its raw-send twin run under the same control. */
typedef struct Ctl {
    unsigned exec, off, pn, id;
    bool nm, go, pred, inv;
    uint32_t em, pbits;
    uint32_t chen; /* bit i: lane i of the instruction is enabled */
    char pfx[16], emask[24];
} Ctl;

static void ctl_pick(Ctl *c, unsigned simd, unsigned exec, bool allow_nm, bool allow_pred, bool allow_off) {
    memset(c, 0, sizeof *c);
    c->exec = exec;
    uint32_t all = simd == 32 ? 0xffffffffu : (1u << simd) - 1;
    if (allow_off && exec <= 8 && simd == 32 && rndu(3) == 0) {
        unsigned step = exec < 4 ? 4 : exec;
        c->off = step * rndu((32 - exec) / step); /* off + exec < 32 */
    }
    c->nm = allow_nm && rndu(4) == 0;
    c->em = all;
    if (rndu(2)) { /* goto divergence */
        c->em = rnd32() & all;
        if (!c->em) c->em = 1;
        c->go = true;
    }
    uint32_t pm = 0xffffffffu;
    if (allow_pred && rndu(3)) {
        c->pred = true;
        c->pn = simd >= exec + c->off ? simd : 32;
        c->pbits = rnd32() & (c->pn == 32 ? 0xffffffffu : (1u << c->pn) - 1);
        c->inv = rndu(2);
        pm = c->inv ? ~c->pbits : c->pbits;
    }
    for (unsigned i = 0; i < exec; i++) {
        unsigned ch = c->off + i;
        bool e = c->nm ? true : (ch < 32 && ((c->em >> ch) & 1));
        bool p = ch < 32 && ((pm >> ch) & 1);
        if (e && p) c->chen |= 1u << i;
    }
}

static void ctl_emit(Kern *k, Ctl *c) {
    c->id = k->labels++;
    if (c->go) {
        sf(&k->decl, ".decl PG%u v_type=P num_elts=%u\n", c->id, k->simd);
        sf(&k->body, "    setp (M1_NM, %u) PG%u 0x%x:%s\n", k->simd, c->id, c->em, k->simd == 32 ? "ud" : "uw");
        sf(&k->body, "    (!PG%u) goto (M1, %u) LBL%u\n", c->id, k->simd, c->id);
    }
    c->pfx[0] = 0;
    if (c->pred) {
        sf(&k->decl, ".decl PP%u v_type=P num_elts=%u\n", c->id, c->pn);
        sf(&k->body, "    setp (M1_NM, %u) PP%u 0x%x:%s\n", c->pn, c->id, c->pbits, c->pn == 32 ? "ud" : "uw");
        snprintf(c->pfx, sizeof c->pfx, "(%sPP%u) ", c->inv ? "!" : "", c->id);
    }
    snprintf(c->emask, sizeof c->emask, "M%u%s, %u", c->off / 4 + 1, c->nm ? "_NM" : "", c->exec);
}

static void ctl_end(Kern *k, const Ctl *c) {
    if (c->go) sf(&k->body, "LBL%u:\n", c->id);
}

static const visa_platform plats3[] = {VISA_PLATFORM_GEN9, VISA_PLATFORM_XELP, VISA_PLATFORM_XE2};

static unsigned pick_simd(unsigned exec) {
    /* mostly a dispatch that covers the instruction; sometimes a narrower one (masked lanes) */
    static const unsigned s[] = {8, 16, 32};
    unsigned simd = s[rndu(3)];
    if (simd < exec && rndu(2)) simd = exec < 8 ? 8 : exec;
    return simd;
}

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void fill_rand(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd32();
}

static const char *const dtypes[] = {"ud", "d", "f"};

/* ============================================================================================
** GATHER_SCALED / SCATTER_SCALED (seed page): per enabled lane, <num_blocks> bytes at
** surface[offset + element_offset[i]]; out of bounds reads 0, writes are dropped.  The raw twin
** is DC0 "byte scattered read/write" (messages.md 5.2: type 0x04 / 0x0C, [8] SIMD16, [11:10]
** log2 bytes, header dword 2 = global offset), on 32-byte-GRF platforms.
** ============================================================================================ */

typedef struct ScaledCase {
    visa_platform plat;
    unsigned simd, exec, nb, size;
    bool write, g_imm, raw;
    uint32_t g, e[32], init[48], src[32];
    uint8_t surf[256];
    Ctl ctl;
    const char *dtype;
} ScaledCase;

/* A byte address for one lane: mostly inside, some straddling the end, some past it, some at
** the top of the 32-bit space (the sum wraps or overflows). */
static uint32_t pick_target(uint32_t size, unsigned nb) {
    switch (rndu(10)) {
    case 0: return nb > 1 ? size - nb + 1 + rndu(nb - 1) : size;
    case 1: return size + rndu(40);
    case 2: return 0xffffffffu - rndu(6);
    default: return rndu(size - nb + 1);
    }
}

static void scaled_run(const ScaledCase *c, bool raw, long *variants) {
    Kern k;
    k_init(&k, c->plat, c->simd);
    uint8_t surf[256], out[192];
    memcpy(surf, c->surf, c->size);
    unsigned t6 = k_buf(&k, surf, c->size);
    k_surf(&k, "T6", NULL, t6);
    if (!c->g_imm) k_scalar(&k, "G", "ud", c->g);
    k_vec(&k, "R", c->dtype, 48);
    k_fill32(&k, "R", 48, c->init);
    Ctl ctl = c->ctl;
    char what[160];
    snprintf(what, sizeof what, "%s%s.%u (exec %u, simd %u) %s", raw ? "raw " : "",
             c->write ? "scatter_scaled" : "gather_scaled", c->nb, c->exec, c->simd, visa_platform_name(c->plat));
    unsigned bti = t6, msimd = c->exec <= 8 ? 8 : 16, lg = c->nb == 1 ? 0 : c->nb == 2 ? 1 : 2;
    if (!raw) {
        k_vec(&k, "E", "ud", 32);
        k_fill32(&k, "E", c->exec, c->e);
        if (c->write) {
            k_vec(&k, "S", c->dtype, 32);
            k_fill32(&k, "S", c->exec, c->src);
        }
        char g[32];
        if (c->g_imm) snprintf(g, sizeof g, "0x%x:ud", c->g);
        else snprintf(g, sizeof g, "G(0,0)<0;1,0>");
        ctl_emit(&k, &ctl);
        sf(&k.body, "    %s%s.%u (%s) T6 %s E.0 %s.0\n", ctl.pfx, c->write ? "scatter_scaled" : "gather_scaled", c->nb,
           ctl.emask, g, c->write ? "S" : "R");
    } else {
        /* header (dword 2 = global offset) + one GRF of offsets per 8 lanes */
        uint32_t ph[24] = {0};
        ph[2] = c->g;
        for (unsigned i = 0; i < c->exec; i++) ph[8 + i] = c->e[i];
        k_vec(&k, "PH", "ud", 24);
        k_fill32(&k, "PH", 8 + msimd, ph);
        unsigned mlen = 1 + msimd / 8;
        uint32_t desc = bti | (msimd == 16 ? 1u << 8 : 0) | lg << 10 | 1u << 19 | mlen << 25;
        ctl_emit(&k, &ctl);
        if (!c->write) {
            desc |= 0x04u << 14 | (msimd / 8) << 20;
            sf(&k.body, "    %sraw_send (%s) 0xa %u %u 0x%x:ud PH.0 R.0\n", ctl.pfx, ctl.emask, mlen, msimd / 8, desc);
        } else {
            desc |= 0x0cu << 14;
            k_vec(&k, "S", c->dtype, 16);
            k_fill32(&k, "S", c->exec, c->src);
            sf(&k.body, "    %sraw_sends.10.%u.%u.0 (%s) 0x%x:ud 0x%x:ud PH.0 S.0 %%null.0\n", ctl.pfx, mlen, msimd / 8,
               ctl.emask, (msimd / 8) << 6, desc);
        }
    }
    ctl_end(&k, &ctl);
    k_dump(&k, "R", 192, 0);
    memset(out, 0, sizeof out);
    CASE_BEGIN();
    if (!k_run(&k, what, out, sizeof out)) {
        /* the model */
        uint8_t exp[192], care[192], mem[256];
        memcpy(mem, c->surf, c->size);
        for (unsigned i = 0; i < 48; i++) wr32(exp + 4 * i, c->init[i]);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < c->exec; i++) {
            if (!((ctl.chen >> i) & 1)) continue;
            uint32_t a = c->g + c->e[i]; /* UD arithmetic */
            bool in = (uint64_t)a + c->nb <= c->size;
            if (c->write) {
                if (in)
                    for (unsigned b = 0; b < c->nb; b++) mem[a + b] = (uint8_t)(c->src[i] >> 8 * b);
            } else {
                for (unsigned b = 0; b < 4; b++) {
                    exp[4 * i + b] = b < c->nb && in ? mem[a + b] : 0;
                    care[4 * i + b] = b < c->nb; /* upper bytes of 1/2-byte reads: undefined */
                }
            }
        }
        cmp_bytes(what, out, exp, care, sizeof out);
        cmp_bytes(what, surf, mem, NULL, c->size);
    }
    CASE_END(what);
    (*variants)++;
    k_free(&k);
}

static void test_scaled(int n, bool write, long *variants, long *raws) {
    static const unsigned execs[] = {1, 2, 4, 8, 16, 32}, nbs[] = {1, 2, 4};
    for (int it = 0; it < n; it++) {
        ScaledCase c;
        memset(&c, 0, sizeof c);
        c.write = write;
        c.plat = plats3[rndu(3)];
        c.exec = execs[it % 6];
        c.nb = nbs[(it / 6) % 3];
        c.simd = pick_simd(c.exec);
        c.size = 8 + rndu(120);
        c.dtype = dtypes[rndu(3)];
        c.g_imm = rndu(2);
        fill_rand(c.surf, c.size);
        for (unsigned i = 0; i < 48; i++) c.init[i] = rnd32();
        for (unsigned i = 0; i < 32; i++) c.src[i] = rnd32();
        c.g = rndu(4) == 0 ? 0xffffff00u + rndu(256) : rndu(c.size + 8);
        uint32_t t[32];
        for (unsigned i = 0; i < c.exec; i++) {
            for (int tries = 0;; tries++) {
                t[i] = pick_target(c.size, c.nb);
                if (!write || tries > 50) break;
                /* scatter: no two lanes may touch the same byte (the page leaves it undefined) */
                bool clash = false;
                for (unsigned j = 0; j < i && !clash; j++)
                    clash = (uint64_t)t[i] < (uint64_t)t[j] + c.nb && (uint64_t)t[j] < (uint64_t)t[i] + c.nb;
                if (!clash) break;
                if (tries == 50) t[i] = 0x80000000u + 8 * i; /* far outside: dropped */
            }
            c.e[i] = t[i] - c.g;
        }
        bool raw_ok = c.plat != VISA_PLATFORM_XE2 && c.exec <= 16 && c.simd >= c.exec;
        ctl_pick(&c.ctl, c.simd, c.exec, true, true, !raw_ok);
        scaled_run(&c, false, variants);
        if (raw_ok) scaled_run(&c, true, raws);
    }
}

/* ============================================================================================
** SVM_GATHER4_SCALED / SVM_SCATTER4_SCALED (seed page): for each enabled channel c (RGBA order,
** ch_pos counting the enabled ones) and enabled lane i, the dword at address + element_offset[i]
** + 4c; channel ch_pos lives at dword ch_pos * max(exec_size, GRF_SIZE / 4) of the register
** operand.  Raw twin: DC1 A64 untyped surface read/write (messages.md 5.2: type 0x11 / 0x19,
** [11:8] channel-disable mask, [13:12] 1 = SIMD16, 2 = SIMD8, 8-byte addresses per lane).
** ============================================================================================ */

typedef struct Svm4Case {
    visa_platform plat;
    unsigned simd, exec, mask, size, base;
    bool write;
    uint64_t e[16];
    uint32_t init[80], src[64];
    uint8_t mem[512];
    Ctl ctl;
    const char *dtype;
} Svm4Case;

static void svm4_run(const Svm4Case *c, bool raw, long *variants) {
    Kern k;
    k_init(&k, c->plat, c->simd);
    uint8_t mem[512], out[320];
    memcpy(mem, c->mem, c->size);
    unsigned pb = k_buf(&k, mem, c->size);
    uint64_t paddr = visa_buffer_address(pb);
    k_ptr(&k, "P", pb);
    k_vec(&k, "R", c->dtype, 80);
    k_fill32(&k, "R", 80, c->init);
    unsigned stride = c->exec > k.grf / 4 ? c->exec : k.grf / 4, nch = 0;
    char chs[8] = {0};
    for (unsigned ch = 0; ch < 4; ch++)
        if ((c->mask >> ch) & 1) chs[nch++] = "RGBA"[ch];
    Ctl ctl = c->ctl;
    char what[160];
    snprintf(what, sizeof what, "%s%s.%s (exec %u, simd %u) %s", raw ? "raw " : "",
             c->write ? "svm_scatter4scaled" : "svm_gather4scaled", chs, c->exec, c->simd, visa_platform_name(c->plat));
    k_vec(&k, "S", c->dtype, 64);
    k_fill32(&k, "S", nch * stride, c->src);
    if (!raw) {
        k_vec(&k, "A", "uq", 1);
        sf(&k.body, "    add (M1_NM, 1) A(0,0)<1> P(0,0)<0;1,0> 0x%x:uq\n", c->base);
        k_vec(&k, "EO", "uq", 16);
        k_fill64(&k, "EO", c->exec, c->e);
        ctl_emit(&k, &ctl);
        sf(&k.body, "    %s%s.%s (%s) A(0,0)<0;1,0> EO.0 %s.0\n", ctl.pfx,
           c->write ? "svm_scatter4scaled" : "svm_gather4scaled", chs, ctl.emask, c->write ? "S" : "R");
    } else {
        uint64_t a[16] = {0};
        for (unsigned i = 0; i < c->exec; i++) a[i] = paddr + c->base + c->e[i];
        unsigned msimd = c->exec, mlen = msimd / 4, blk = msimd / 8;
        k_vec(&k, "AQ", "uq", 16);
        k_fill64(&k, "AQ", msimd, a);
        uint32_t desc = 0xffu | ((~c->mask & 0xfu) << 8) | (msimd == 16 ? 1u : 2u) << 12 | mlen << 25;
        ctl_emit(&k, &ctl);
        if (!c->write) {
            desc |= 0x11u << 14 | (nch * blk) << 20;
            sf(&k.body, "    %sraw_send (%s) 0xc %u %u 0x%x:ud AQ.0 R.0\n", ctl.pfx, ctl.emask, mlen, nch * blk, desc);
        } else {
            desc |= 0x19u << 14;
            sf(&k.body, "    %sraw_sends.12.%u.%u.0 (%s) 0x%x:ud 0x%x:ud AQ.0 S.0 %%null.0\n", ctl.pfx, mlen, nch * blk,
               ctl.emask, (nch * blk) << 6, desc);
        }
    }
    ctl_end(&k, &ctl);
    k_dump(&k, "R", 320, 0);
    memset(out, 0, sizeof out);
    CASE_BEGIN();
    if (!k_run(&k, what, out, sizeof out)) {
        uint8_t exp[320], care[320], m[512];
        memcpy(m, c->mem, c->size);
        for (unsigned i = 0; i < 80; i++) wr32(exp + 4 * i, c->init[i]);
        memset(care, 1, sizeof care);
        unsigned pos = 0;
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((c->mask >> ch) & 1)) continue;
            unsigned start = pos * stride;
            /* the rest of a channel's register block is undefined */
            for (unsigned i = c->exec; i < stride; i++) memset(care + 4 * (start + i), 0, 4);
            for (unsigned i = 0; i < c->exec; i++) {
                if (!((ctl.chen >> i) & 1)) continue;
                uint64_t off = c->base + c->e[i] + 4 * ch; /* 64-bit address arithmetic */
                if (c->write) wr32(m + off, c->src[start + i]);
                else wr32(exp + 4 * (start + i), rd32(m + off));
            }
            pos++;
        }
        cmp_bytes(what, out, exp, care, sizeof out);
        cmp_bytes(what, mem, m, NULL, c->size);
    }
    CASE_END(what);
    (*variants)++;
    k_free(&k);
}

static void test_svm4(bool write, long *variants, long *raws) {
    for (unsigned it = 0; it < 2 * 15 * 3; it++) {
        Svm4Case c;
        memset(&c, 0, sizeof c);
        c.write = write;
        c.exec = it % 2 ? 16 : 8;
        c.mask = (it / 2) % 15 + 1;
        c.plat = plats3[it / 30];
        c.simd = pick_simd(c.exec);
        c.size = 384 + 4 * rndu(32);
        c.dtype = dtypes[rndu(3)];
        fill_rand(c.mem, c.size);
        for (unsigned i = 0; i < 80; i++) c.init[i] = rnd32();
        for (unsigned i = 0; i < 64; i++) c.src[i] = rnd32();
        c.base = 4 * rndu(48);
        uint64_t t[16];
        int tries = 0;
        for (unsigned i = 0; i < c.exec; i++) {
            for (;;) {
                if (++tries > 4000) { /* packed too tightly: start the lanes over */
                    tries = 0;
                    i = 0;
                }
                t[i] = 4 * rndu((c.size - 16) / 4 + 1);
                bool clash = false; /* scatter: no dword written twice */
                for (unsigned j = 0; j < i && write && !clash; j++)
                    for (unsigned a = 0; a < 4 && !clash; a++)
                        for (unsigned b = 0; b < 4 && !clash; b++)
                            clash = ((c.mask >> a) & (c.mask >> b) & 1) && t[i] + 4 * a == t[j] + 4 * b;
                if (!clash) break;
            }
            c.e[i] = t[i] - c.base; /* may be "negative": the 64-bit sum wraps */
        }
        bool raw_ok = c.plat != VISA_PLATFORM_XE2 && c.simd >= c.exec;
        ctl_pick(&c.ctl, c.simd, c.exec, true, true, false);
        svm4_run(&c, false, variants);
        if (raw_ok) svm4_run(&c, true, raws);
    }
}

/* ============================================================================================
** One representative of every other family, random data, same comparison.
** ============================================================================================ */

/* Runs k, then compares the dump (n bytes) with exp/care and each buffer with its model. */
typedef struct Check {
    uint8_t *got, *want;
    size_t n;
} Check;

static void finish(Kern *k, const char *what, uint8_t *out, const uint8_t *exp, const uint8_t *care, size_t n,
                   const Check *bufs, size_t nb) {
    CASE_BEGIN();
    if (!k_run(k, what, out, n)) {
        cmp_bytes(what, out, exp, care, n);
        for (size_t i = 0; i < nb; i++) cmp_bytes(what, bufs[i].got, bufs[i].want, NULL, bufs[i].n);
    }
    CASE_END(what);
    k_free(k);
}

static visa_platform any_plat(void) { return plats3[rndu(3)]; }

/* The common tail of a one-buffer case: dump n register bytes, name the case (printf-style,
** the platform appended) and compare the dump and the buffer (got: the kernel's bytes, want:
** the model's). */
static void finish_buf(Kern *k, unsigned n, uint8_t *out, const uint8_t *exp, const uint8_t *care, uint8_t *got,
                       uint8_t *want, size_t size, const char *fmt, ...) {
    k_dump(k, "R", n, 0);
    char what[192];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (len >= 0 && (size_t)len < sizeof what)
        snprintf(what + len, sizeof what - (size_t)len, " %s", visa_platform_name(k->plat));
    Check c = {got, want, size};
    finish(k, what, out, exp, care, n, &c, 1);
}

/* OWORD_LD (offset in owords), OWORD_LD_UNALIGNED (byte offset, dword-aligned), OWORD_ST:
** each oword is one access; one not wholly inside reads 0 / is dropped. */
static void test_oword(int n) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        unsigned kind = it % 3, no = sizes[rndu(4)], size = 16 * (2 + rndu(10)) + 4 * rndu(4);
        uint8_t surf[256], mem[256], out[192], exp[192];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        unsigned t6 = k_buf(&k, surf, size);
        k_surf(&k, "T6", NULL, t6);
        uint32_t init[48], src[32];
        for (unsigned i = 0; i < 48; i++) init[i] = rnd32();
        for (unsigned i = 0; i < 32; i++) src[i] = rnd32();
        k_vec(&k, "R", "ud", 48);
        k_fill32(&k, "R", 48, init);
        uint32_t off = kind == 1 ? 4 * rndu(size / 4 + 8) : rndu(size / 16 + 3);
        if (rndu(8) == 0) off = kind == 1 ? 0x10000 : 0x1000; /* far past the end */
        for (unsigned i = 0; i < 48; i++) wr32(exp + 4 * i, init[i]);
        static const char *const ops[] = {"oword_ld", "oword_ld_unaligned", "oword_st"};
        if (kind == 2) {
            k_vec(&k, "S", "ud", 32);
            k_fill32(&k, "S", no * 4, src);
        }
        sf(&k.body, "    %s (%u) T6 0x%x:ud %s.0\n", ops[kind], no, off, kind == 2 ? "S" : "R");
        for (unsigned i = 0; i < no; i++) {
            uint64_t a = kind == 1 ? (uint64_t)off + 16 * i : ((uint64_t)off + i) * 16;
            bool in = a + 16 <= size;
            for (unsigned b = 0; b < 16; b++) {
                if (kind == 2) {
                    if (in) mem[a + b] = (uint8_t)(src[(16 * i + b) / 4] >> 8 * (b % 4));
                } else {
                    exp[16 * i + b] = in ? surf[a + b] : 0;
                }
            }
        }
        finish_buf(&k, 192, out, exp, NULL, surf, mem, size, "%s (%u) 0x%x size %u", ops[kind], no, off, size);
    }
}

/* MEDIA_LD / MEDIA_ST on a 2D surface (Width pixels of 4 bytes, Height rows, Pitch bytes):
** register rows reg_pitch = max(4, pow2ceil(width)) apart, bytes past the block width untouched.
** Reads outside the surface take the nearest edge pixel (same byte of the pixel); writes outside
** are dropped. */
static void test_media(int n) {
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        bool st = it % 2;
        unsigned W = 2 + rndu(6), H = 2 + rndu(6), pitch = 4 * W + 4 * rndu(3);
        unsigned size = pitch * H;
        uint8_t surf[512], mem[512], out[320], exp[320];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        char attrs[80];
        snprintf(attrs, sizeof attrs, "{Width=%u, Height=%u, Pitch=%u}", W, H, pitch);
        unsigned t6 = k_buf(&k, surf, size);
        k_surf(&k, "T6", attrs, t6);
        unsigned bw = 1 + rndu(st ? 32 : 64);
        if (st) bw = 4 * (1 + rndu(8)) - rndu(3); /* any width; X stays dword-aligned */
        unsigned rp = bw <= 4 ? 4 : bw <= 8 ? 8 : bw <= 16 ? 16 : bw <= 32 ? 32 : 64;
        unsigned bh = 1 + rndu(256 / rp < 8 ? 256 / rp : 8);
        int32_t X = (int32_t)rndu(4 * W + 12) - 8, Y = (int32_t)rndu(H + 5) - 3;
        if (st) X &= ~3;
        k_scalar(&k, "X", "d", (uint32_t)X);
        k_scalar(&k, "Y", "d", (uint32_t)Y);
        uint32_t init[80], src[64];
        for (unsigned i = 0; i < 80; i++) init[i] = rnd32();
        for (unsigned i = 0; i < 64; i++) src[i] = rnd32();
        k_vec(&k, "R", "ud", 80);
        k_fill32(&k, "R", 80, init);
        for (unsigned i = 0; i < 80; i++) wr32(exp + 4 * i, init[i]);
        if (st) {
            k_vec(&k, "S", "ud", 64);
            k_fill32(&k, "S", 64, src);
            sf(&k.body, "    media_st.nomod (%u,%u) T6 0 X(0,0)<0;1,0> Y(0,0)<0;1,0> S.0\n", bw, bh);
        } else {
            sf(&k.body, "    media_ld.nomod (%u,%u) T6 0 X(0,0)<0;1,0> Y(0,0)<0;1,0> R.0\n", bw, bh);
        }
        for (unsigned i = 0; i < bh; i++)
            for (unsigned j = 0; j < bw; j++) {
                int64_t x = (int64_t)X + j, y = (int64_t)Y + i;
                if (st) {
                    if (x >= 0 && x < 4 * (int64_t)W && y >= 0 && y < H)
                        mem[y * pitch + x] = (uint8_t)(src[(i * rp + j) / 4] >> 8 * ((i * rp + j) % 4));
                } else {
                    int64_t px = x >= 0 ? x / 4 : -((-x + 3) / 4), b = x - 4 * px;
                    px = px < 0 ? 0 : px >= W ? W - 1 : px;
                    y = y < 0 ? 0 : y >= H ? H - 1 : y;
                    exp[i * rp + j] = surf[y * pitch + 4 * px + b];
                }
            }
        finish_buf(&k, 320, out, exp, NULL, surf, mem, size, "%s (%u,%u) X=%d Y=%d W=%u H=%u pitch %u",
                   st ? "media_st" : "media_ld", bw, bh, X, Y, W, H, pitch);
    }
}

static void init_dump(Kern *k, const char *type, unsigned ndw, uint32_t *init, uint8_t *exp) {
    for (unsigned i = 0; i < ndw; i++) init[i] = rnd32();
    k_vec(k, "R", type, ndw);
    k_fill32(k, "R", ndw, init);
    for (unsigned i = 0; i < ndw; i++) wr32(exp + 4 * i, init[i]);
}

/* GATHER / SCATTER: offsets in elements of 1, 2 or 4 bytes; 1, 8 or 16 elements. */
static void test_gather(int n) {
    static const unsigned execs[] = {1, 8, 16}, eszs[] = {1, 2, 4};
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        bool wr = it % 2;
        unsigned exec = execs[rndu(3)], esz = eszs[rndu(3)], size = 16 + rndu(100);
        uint8_t surf[128], mem[128], out[128], exp[128], care[128];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        k_surf(&k, "T6", NULL, k_buf(&k, surf, size));
        uint32_t init[32], e[16], src[16], g = rndu(size / esz / 2);
        init_dump(&k, "ud", 32, init, exp);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < exec; i++) {
            for (;;) {
                e[i] = rndu(size / esz + 20);
                bool clash = false; /* scatter: one write per element */
                for (unsigned j = 0; j < i && wr; j++) clash |= e[j] == e[i];
                if (!clash) break;
            }
            src[i] = rnd32();
        }
        k_vec(&k, "E", "ud", 16);
        k_fill32(&k, "E", exec, e);
        k_vec(&k, "S", "ud", 16);
        k_fill32(&k, "S", exec, src);
        Ctl c;
        ctl_pick(&c, 16, exec, true, false, false);
        ctl_emit(&k, &c);
        sf(&k.body, "    %s.%u (%s) T6 0x%x:ud E.0 %s.0\n", wr ? "scatter" : "gather", esz, c.emask, g, wr ? "S" : "R");
        ctl_end(&k, &c);
        for (unsigned i = 0; i < exec; i++) {
            if (!((c.chen >> i) & 1)) continue;
            uint64_t a = ((uint64_t)g + e[i]) * esz;
            bool in = a + esz <= size;
            for (unsigned b = 0; b < esz; b++) {
                if (wr && in) mem[a + b] = (uint8_t)(src[i] >> 8 * b);
                if (!wr) exp[4 * i + b] = in ? surf[a + b] : 0;
            }
            if (!wr)
                for (unsigned b = esz; b < 4; b++) care[4 * i + b] = 0; /* undefined */
        }
        finish_buf(&k, 128, out, exp, care, surf, mem, size, "%s.%u (%s)", wr ? "scatter" : "gather", esz, c.emask);
    }
}

/* GATHER4_SCALED / SCATTER4_SCALED on a surface: channel c of lane i is the dword at
** offset + element_offset[i] + 4c; a dword not inside reads 0 / is dropped. */
static void test_gather4(int n) {
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        bool wr = it % 2;
        unsigned exec = rndu(2) ? 16 : 8, mask = 1 + rndu(15), size = 64 + 4 * rndu(40);
        uint8_t surf[256], mem[256], out[320], exp[320], care[320];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        k_surf(&k, "T6", NULL, k_buf(&k, surf, size));
        uint32_t init[80], e[16], src[64], g = 4 * rndu(8);
        init_dump(&k, "ud", 80, init, exp);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < 64; i++) src[i] = rnd32();
        for (unsigned i = 0; i < exec; i++) /* distinct 16-byte slots: no dword written twice */
            for (;;) {
                e[i] = 16 * rndu(size / 16 + 2) - (rndu(2) ? 0 : 4 * rndu(4));
                bool clash = false;
                for (unsigned j = 0; j < i; j++) clash |= e[j] == e[i];
                if (!clash || !wr) break;
            }
        for (unsigned i = 0; i < exec; i++)
            if (wr)
                for (unsigned j = 0; j < exec; j++) /* keep every lane's span apart */
                    if (j != i && e[j] > e[i] && e[j] < e[i] + 16) e[j] = e[i] + 16 * (1 + j) + 0x1000;
        unsigned stride = exec > k.grf / 4 ? exec : k.grf / 4, nch = 0;
        char chs[8] = {0};
        for (unsigned ch = 0; ch < 4; ch++)
            if ((mask >> ch) & 1) chs[nch++] = "RGBA"[ch];
        k_vec(&k, "E", "ud", 16);
        k_fill32(&k, "E", exec, e);
        k_vec(&k, "S", "ud", 64);
        k_fill32(&k, "S", 64, src);
        Ctl c;
        ctl_pick(&c, 16, exec, true, true, false);
        ctl_emit(&k, &c);
        sf(&k.body, "    %s%s.%s (%s) T6 0x%x:ud E.0 %s.0\n", c.pfx, wr ? "scatter4_scaled" : "gather4_scaled", chs,
           c.emask, g, wr ? "S" : "R");
        ctl_end(&k, &c);
        unsigned pos = 0;
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((mask >> ch) & 1)) continue;
            for (unsigned i = exec; i < stride; i++) memset(care + 4 * (pos * stride + i), 0, 4);
            for (unsigned i = 0; i < exec; i++) {
                if (!((c.chen >> i) & 1)) continue;
                uint64_t a = (uint64_t)(uint32_t)(g + e[i]) + 4 * ch;
                bool in = a + 4 <= size;
                if (wr && in) wr32(mem + a, src[pos * stride + i]);
                if (!wr) wr32(exp + 4 * (pos * stride + i), in ? rd32(surf + a) : 0);
            }
            pos++;
        }
        finish_buf(&k, 320, out, exp, care, surf, mem, size, "%s.%s (%s)", wr ? "scatter4_scaled" : "gather4_scaled",
                   chs, c.emask);
    }
}

/* GATHER4_TYPED / SCATTER4_TYPED on a 2D R32G32B32A32_UINT surface (16-byte pixels, Pitch
** bytes per row): outside the surface reads R = G = B = 0, A = 1 and writes are dropped. */
static void test_typed(int n) {
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        bool wr = it % 2;
        unsigned exec = rndu(2) ? 16 : 8, mask = 1 + rndu(15);
        unsigned W = 2 + rndu(4), H = 2 + rndu(3), pitch = 16 * W + 4 * rndu(4), size = pitch * H;
        uint8_t surf[512], mem[512], out[320], exp[320], care[320];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        char attrs[96];
        snprintf(attrs, sizeof attrs, "{Width=%u, Height=%u, Channels=4, Pitch=%u}", W, H, pitch);
        k_surf(&k, "T6", attrs, k_buf(&k, surf, size));
        uint32_t init[80], u[16], v[16], lod[16] = {0}, src[64];
        init_dump(&k, "ud", 80, init, exp);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < 64; i++) src[i] = rnd32();
        for (unsigned i = 0; i < exec; i++)
            for (;;) {
                u[i] = rndu(W + 2);
                v[i] = rndu(H + 1);
                bool clash = false; /* scatter: one write per pixel */
                for (unsigned j = 0; j < i && wr; j++) clash |= u[j] == u[i] && v[j] == v[i] && u[i] < W && v[i] < H;
                if (!clash) break;
            }
        unsigned stride = exec > k.grf / 4 ? exec : k.grf / 4, nch = 0;
        char chs[8] = {0};
        for (unsigned ch = 0; ch < 4; ch++)
            if ((mask >> ch) & 1) chs[nch++] = "RGBA"[ch];
        k_vec(&k, "U", "ud", 16);
        k_fill32(&k, "U", exec, u);
        k_vec(&k, "V", "ud", 16);
        k_fill32(&k, "V", exec, v);
        k_vec(&k, "LOD", "ud", 16);
        k_fill32(&k, "LOD", exec, lod);
        k_vec(&k, "S", "ud", 64);
        k_fill32(&k, "S", 64, src);
        Ctl c;
        ctl_pick(&c, 16, exec, true, true, false);
        ctl_emit(&k, &c);
        sf(&k.body, "    %s%s.%s (%s) T6 U.0 V.0 %%null.0 LOD.0 %s.0\n", c.pfx, wr ? "scatter4_typed" : "gather4_typed",
           chs, c.emask, wr ? "S" : "R");
        ctl_end(&k, &c);
        unsigned pos = 0;
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((mask >> ch) & 1)) continue;
            for (unsigned i = exec; i < stride; i++) memset(care + 4 * (pos * stride + i), 0, 4);
            for (unsigned i = 0; i < exec; i++) {
                if (!((c.chen >> i) & 1)) continue;
                bool in = u[i] < W && v[i] < H;
                unsigned a = v[i] * pitch + 16 * u[i] + 4 * ch;
                if (wr && in) wr32(mem + a, src[pos * stride + i]);
                if (!wr) wr32(exp + 4 * (pos * stride + i), in ? rd32(surf + a) : ch == 3);
            }
            pos++;
        }
        finish_buf(&k, 320, out, exp, care, surf, mem, size, "%s.%s (%s) %ux%u",
                   wr ? "scatter4_typed" : "gather4_typed", chs, c.emask, W, H);
    }
}

/* The integer operations of the DWORD_ATOMIC table; lanes run in order (the pseudo-code's loop),
** so lanes sharing an address see each other's results.  Returns old (new for predec). */
static uint64_t atomic_op(const char *op, uint64_t old, uint64_t s0, uint64_t s1, unsigned bits) {
    uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    int64_t so = (int64_t)(old << (64 - bits)) >> (64 - bits), ss = (int64_t)(s0 << (64 - bits)) >> (64 - bits);
    old &= m;
    s0 &= m;
    s1 &= m;
    if (!strcmp(op, "add")) return old + s0;
    if (!strcmp(op, "sub")) return old - s0;
    if (!strcmp(op, "inc")) return old + 1;
    if (!strcmp(op, "dec")) return old - 1;
    if (!strcmp(op, "min")) return old < s0 ? old : s0;
    if (!strcmp(op, "max")) return old > s0 ? old : s0;
    if (!strcmp(op, "xchg")) return s0;
    if (!strcmp(op, "cmpxchg")) return old == s1 ? s0 : old;
    if (!strcmp(op, "and")) return old & s0;
    if (!strcmp(op, "or")) return old | s0;
    if (!strcmp(op, "xor")) return old ^ s0;
    if (!strcmp(op, "minsint")) return (uint64_t)(so < ss ? so : ss);
    if (!strcmp(op, "maxsint")) return (uint64_t)(so > ss ? so : ss);
    abort();
}

/* DWORD_ATOMIC (every integer op, out of bounds: returns 0, no write), TYPED_ATOMIC.add on a 1D
** surface, SVM_ATOMIC 32-bit and cmpxchg.64; addresses repeat across lanes. */
static void test_atomic(int n) {
    static const char *const ops[] = {"add",     "sub", "inc", "dec", "min",     "max",    "xchg",
                                      "cmpxchg", "and", "or",  "xor", "minsint", "maxsint"};
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        unsigned kind = it % 4; /* 0, 1 dword_atomic, 2 typed_atomic.add, 3 svm_atomic */
        const char *op = kind >= 2 ? (kind == 3 && rndu(2) ? "cmpxchg" : "add") : ops[rndu(13)];
        bool q = kind == 3 && !strcmp(op, "cmpxchg");
        unsigned exec = kind == 3 ? 8 : rndu(2) ? 16 : 8, size = 32 + 4 * rndu(8), esz = q ? 8 : 4;
        uint8_t surf[128], mem[128], out[128], exp[128], care[128];
        fill_rand(surf, size);
        for (unsigned i = 0; i < size; i += 4) /* small values: compares hit sometimes */
            if (rndu(2)) wr32(surf + i, rndu(4));
        memcpy(mem, surf, size);
        unsigned b = k_buf(&k, surf, size);
        if (kind < 3) k_surf(&k, "T6", NULL, b);
        const char *ty = !strcmp(op, "minsint") || !strcmp(op, "maxsint") ? "d" : q ? "uq" : "ud";
        uint32_t init[32], o[16];
        uint64_t s0[16], s1[16], a[16];
        for (unsigned i = 0; i < 32; i++) init[i] = rnd32();
        k_vec(&k, "R", ty, 32 * 4 / esz);
        uint64_t init64[16];
        memcpy(init64, init, sizeof init64);
        if (q) k_fill64(&k, "R", 16, init64);
        else k_fill32(&k, "R", 32, init);
        for (unsigned i = 0; i < 32; i++) wr32(exp + 4 * i, init[i]);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < exec; i++) {
            o[i] = esz * rndu((size + (kind == 3 ? 0 : 8)) / esz); /* some past the end */
            s0[i] = rndu(2) ? rndu(4) : ((uint64_t)rnd32() << 32 | rnd32());
            s1[i] = rndu(2) ? rndu(4) : rnd32();
            a[i] = visa_buffer_address(b) + o[i];
        }
        k_vec(&k, "X", ty, 16);
        k_vec(&k, "Y", ty, 16);
        uint32_t s0d[16], s1d[16], ud[16];
        for (unsigned i = 0; i < 16; i++) s0d[i] = (uint32_t)s0[i], s1d[i] = (uint32_t)s1[i];
        if (q) {
            k_fill64(&k, "X", exec, s0);
            k_fill64(&k, "Y", exec, s1);
        } else {
            k_fill32(&k, "X", exec, s0d);
            k_fill32(&k, "Y", exec, s1d);
        }
        bool nosrc0 = !strcmp(op, "inc") || !strcmp(op, "dec"), src1 = !strcmp(op, "cmpxchg");
        const char *x = nosrc0 ? "%null.0" : "X.0", *y = src1 ? "Y.0" : "%null.0";
        Ctl c;
        ctl_pick(&c, 16, exec, true, true, false);
        ctl_emit(&k, &c);
        if (kind < 2) {
            k_vec(&k, "O", "ud", 16);
            k_fill32(&k, "O", exec, o);
            sf(&k.body, "    %sdword_atomic.%s (%s) T6 O.0 %s %s R.0\n", c.pfx, op, c.emask, x, y);
        } else if (kind == 2) {
            for (unsigned i = 0; i < exec; i++) ud[i] = o[i] / 4; /* pixel index */
            k_vec(&k, "U", "ud", 16);
            k_fill32(&k, "U", exec, ud);
            sf(&k.body, "    %styped_atomic.add (%s) T6 U.0 %%null.0 %%null.0 %%null.0 X.0 %%null.0 R.0\n", c.pfx,
               c.emask);
        } else {
            k_vec(&k, "A", "uq", 16);
            k_fill64(&k, "A", exec, a);
            sf(&k.body, "    %ssvm_atomic.%s%s (%s) A.0 R.0 %s %s\n", c.pfx, op, q ? ".64" : "", c.emask, x, y);
        }
        ctl_end(&k, &c);
        for (unsigned i = 0; i < exec; i++) {
            if (!((c.chen >> i) & 1)) continue;
            bool in = o[i] + esz <= size;
            uint64_t old = 0;
            if (in) old = q ? (uint64_t)rd32(mem + o[i] + 4) << 32 | rd32(mem + o[i]) : rd32(mem + o[i]);
            if (in) {
                uint64_t nv = atomic_op(op, old, s0[i], s1[i], esz * 8);
                wr32(mem + o[i], (uint32_t)nv);
                if (q) wr32(mem + o[i] + 4, (uint32_t)(nv >> 32));
            }
            wr32(exp + esz * i, (uint32_t)old);
            if (q) wr32(exp + esz * i + 4, (uint32_t)(old >> 32));
        }
        static const char *const kinds[] = {"dword_atomic", "dword_atomic", "typed_atomic", "svm_atomic"};
        finish_buf(&k, 128, out, exp, care, surf, mem, size, "%s.%s%s (%s)", kinds[kind], op, q ? ".64" : "", c.emask);
    }
}

/* QW_GATHER / QW_SCATTER: dst[j*exec + i] = qword at offset[i] + 8j; out of bounds 0 / dropped. */
static void test_qword(int n) {
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 16);
        bool wr = it % 2;
        unsigned exec = rndu(2) ? 8 : 4, nb = rndu(2) ? 2 : 1, size = 64 + 8 * rndu(16);
        uint8_t surf[256], mem[256], out[192], exp[192];
        fill_rand(surf, size);
        memcpy(mem, surf, size);
        k_surf(&k, "T6", NULL, k_buf(&k, surf, size));
        uint32_t init[48], o[8];
        uint64_t src[16];
        for (unsigned i = 0; i < 16; i++) src[i] = (uint64_t)rnd32() << 32 | rnd32();
        for (unsigned i = 0; i < 48; i++) init[i] = rnd32();
        k_vec(&k, "R", "uq", 24);
        uint64_t init64[24];
        memcpy(init64, init, sizeof init64);
        k_fill64(&k, "R", 24, init64);
        for (unsigned i = 0; i < 48; i++) wr32(exp + 4 * i, init[i]);
        for (unsigned i = 0; i < exec; i++)
            for (;;) { /* scatter: lanes' qwords apart */
                o[i] = 16 * rndu(size / 16 + 8);
                bool clash = false;
                for (unsigned j = 0; j < i && wr; j++) clash |= o[j] == o[i];
                if (!clash) break;
            }
        k_vec(&k, "O", "ud", 8);
        k_fill32(&k, "O", exec, o);
        k_vec(&k, "S", "uq", 16);
        k_fill64(&k, "S", 16, src);
        Ctl c;
        ctl_pick(&c, 16, exec, true, true, false);
        ctl_emit(&k, &c);
        sf(&k.body, "    %s%s.%u (%s) T6 O.0 %s.0\n", c.pfx, wr ? "qw_scatter" : "qw_gather", nb, c.emask,
           wr ? "S" : "R");
        ctl_end(&k, &c);
        for (unsigned i = 0; i < exec; i++) {
            if (!((c.chen >> i) & 1)) continue;
            for (unsigned j = 0; j < nb; j++) {
                uint64_t a = (uint64_t)o[i] + 8 * j;
                bool in = a + 8 <= size;
                unsigned d = 8 * (j * exec + i);
                for (unsigned bb = 0; bb < 8; bb++) {
                    if (wr && in) mem[a + bb] = (uint8_t)(src[j * exec + i] >> 8 * bb);
                    if (!wr) exp[d + bb] = in ? surf[a + bb] : 0;
                }
            }
        }
        finish_buf(&k, 192, out, exp, NULL, surf, mem, size, "%s.%u (%s)", wr ? "qw_scatter" : "qw_gather", nb,
                   c.emask);
    }
}

/* SVM_BLOCK_LD/ST (owords at an A64 address, .unaligned: dword-aligned) and SVM_GATHER/
** SVM_SCATTER with 4-byte blocks (dst[j*8 + i] = *(addr[i] + 4j)) and 1-byte blocks
** (dst byte i*max(4, num_blocks) + j). */
static void test_svm(int n) {
    static const unsigned nbs[] = {1, 2, 4};
    for (int it = 0; it < n; it++) {
        Kern k;
        k_init(&k, any_plat(), 8);
        unsigned kind = it % 4; /* 0 block ld, 1 block st, 2 gather, 3 scatter */
        unsigned size = 256, nb = nbs[rndu(3)], bs = rndu(2) ? 4 : 1, no = 1u << rndu(4);
        bool un = kind == 0 && rndu(2); /* only the read has an .unaligned form */
        uint8_t mem[256], m[256], out[192], exp[192], care[192];
        fill_rand(mem, size);
        memcpy(m, mem, size);
        unsigned b = k_buf(&k, mem, size);
        uint64_t base = visa_buffer_address(b);
        uint32_t init[48], src[32];
        init_dump(&k, "ud", 48, init, exp);
        memset(care, 1, sizeof care);
        for (unsigned i = 0; i < 32; i++) src[i] = rnd32();
        k_vec(&k, "S", "ud", 32);
        k_fill32(&k, "S", 32, src);
        char what[96];
        if (kind < 2) {
            uint64_t off = un ? 4 * rndu((size - 16 * no) / 4 + 1) : 16 * rndu((size - 16 * no) / 16 + 1);
            k_vec(&k, "A", "uq", 1);
            k_fill64(&k, "A", 1, (uint64_t[]){base + off});
            sf(&k.body, "    %s%s (%u) A(0,0)<0;1,0> %s.0\n", kind ? "svm_block_st" : "svm_block_ld",
               un ? ".unaligned" : "", no, kind ? "S" : "R");
            for (unsigned x = 0; x < 16 * no; x++) {
                if (kind) m[off + x] = (uint8_t)(src[x / 4] >> 8 * (x % 4));
                else exp[x] = mem[off + x];
            }
            snprintf(what, sizeof what, "%s%s (%u) +%u %s", kind ? "svm_block_st" : "svm_block_ld",
                     un ? ".unaligned" : "", no, (unsigned)off, visa_platform_name(k.plat));
            k_dump(&k, "R", 192, 0);
            Check ck = {mem, m, size};
            finish(&k, what, out, exp, care, 192, &ck, 1);
            continue;
        }
        bool wr = kind == 3;
        uint64_t a[8], o[8];
        for (unsigned i = 0; i < 8; i++) /* lanes 32 bytes apart, shuffled: no overlap */
            for (;;) {
                o[i] = 32 * rndu(8) + bs * rndu((32 - bs * nb) / bs + 1);
                bool clash = false;
                for (unsigned j = 0; j < i; j++) clash |= o[j] / 32 == o[i] / 32;
                if (!clash) break;
            }
        for (unsigned i = 0; i < 8; i++) a[i] = base + o[i];
        k_vec(&k, "A", "uq", 8);
        k_fill64(&k, "A", 8, a);
        Ctl c;
        ctl_pick(&c, 8, 8, true, true, false);
        ctl_emit(&k, &c);
        sf(&k.body, "    %s%s.%u.%u (%s) A.0 %s.0\n", c.pfx, wr ? "svm_scatter" : "svm_gather", bs, nb, c.emask,
           wr ? "S" : "R");
        ctl_end(&k, &c);
        k_dump(&k, "R", 192, 0);
        unsigned mb = nb < 4 ? 4 : nb;
        for (unsigned i = 0; i < 8; i++) {
            if (bs == 1 && !wr)
                for (unsigned j = nb; j < mb; j++) care[i * mb + j] = 0; /* undefined */
            if (!((c.chen >> i) & 1)) continue;
            for (unsigned j = 0; j < nb; j++)
                for (unsigned x = 0; x < bs; x++) {
                    unsigned r = bs == 4 ? 4 * (j * 8 + i) + x : i * mb + j;
                    uint8_t sv = (uint8_t)(src[r / 4] >> 8 * (r % 4));
                    if (wr) m[o[i] + bs * j + x] = sv;
                    else exp[r] = mem[o[i] + bs * j + x];
                }
        }
        snprintf(what, sizeof what, "%s.%u.%u (%s) %s", wr ? "svm_scatter" : "svm_gather", bs, nb, c.emask,
                 visa_platform_name(k.plat));
        Check ck = {mem, m, size};
        finish(&k, what, out, exp, care, 192, &ck, 1);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    dump_kernels = getenv("MODEL_DP_DUMP") != NULL;
    long v = 0, raw = 0;
    test_scaled(72, false, &v, &raw);
    test_scaled(72, true, &v, &raw);
    test_svm4(false, &v, &raw);
    test_svm4(true, &v, &raw);
    printf("seed pages: %ld vISA kernels, %ld raw-send twins; %ld byte checks\n", v, raw, byte_checks);
    test_oword(36);
    test_media(40);
    test_gather(30);
    test_gather4(30);
    test_typed(30);
    test_atomic(60);
    test_qword(20);
    test_svm(40);
    printf("total byte checks: %ld\n", byte_checks);
    return th_finish();
}
