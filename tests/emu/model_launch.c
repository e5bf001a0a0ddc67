/* model_launch.c -- the OpenCL launch model (docs/launch.md) through the public API, against a
** model written here from the compute-runtime description in the notes: local ids counted the
** way the runtime's generator counts them (x steps, wraps into y, y wraps into z), r0 and %sr0.2
** per thread, the last thread's tail lanes off.
**
** The kernel (built per SIMD width and GRF size) has local-id inputs x, y, z in the per-thread
** payload (IGC's layout: rows of 2 x SIMD bytes rounded up to a GRF, from r1), a pointer and
** group_count in the inline window and local_size, global_size, global_offset and work_dim after
** it.  Each thread writes one record to OUT at (linear group * threads + thread index) * RECORD:
**   dwords 0-15: r0.1, r0.6, r0.7, r0.2, %sr0.2, local_size x3, global_size x3, global_offset x3,
**                work_dim, 0x5EED
**   then six rows of 32 dwords: local ids x, y, z stored with the execution mask (tail lanes must
**   stay untouched), then x, y, z stored with NoMask (tail lanes show the runtime's wrapped ids).
** OUT is prefilled with 0xDEADBEEF, so a lane that must not be written is checked too. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

#define RECORD 832u /* 64 header bytes + 6 rows of 128 */
#define FILL 0xDEADBEEFu

typedef struct {
    char s[32768];
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

/* Input offsets of the kernel for SIMD s on a g-byte GRF (IGC's layout, written out by hand for
** each case in main's table would be the same numbers): rows of max(2s, g) bytes. */
typedef struct {
    unsigned row, lx, ly, lz, out, gc, idx, ls, gs, go, wd, ptis;
} layout_t;
static layout_t layout_of(unsigned s, unsigned g) {
    layout_t L;
    L.row = 2 * s > g ? 2 * s : g;
    L.lx = g;
    L.ly = g + L.row;
    L.lz = g + 2 * L.row;
    L.ptis = 3 * L.row;
    unsigned inl = g + L.ptis; /* the inline window: 32 bytes */
    L.out = inl;
    L.gc = inl + 8;
    L.idx = inl + 24;
    L.ls = inl + g; /* the rest of the cross-thread data from the next GRF */
    L.gs = L.ls + 12;
    L.go = L.ls + 24;
    L.wd = L.ls + 36;
    return L;
}

/* The kernel for SIMD s on a g-byte GRF. */
static void build_kernel(text_t *t, unsigned s, unsigned g) {
    layout_t L = layout_of(s, g);
    t->n = 0;
    emit(t, ".version 4.2\n.kernel \"ids\"\n");
    emit(t, ".decl LX v_type=G type=uw num_elts=%u align=GRF\n", s);
    emit(t, ".decl LY v_type=G type=uw num_elts=%u align=GRF\n", s);
    emit(t, ".decl LZ v_type=G type=uw num_elts=%u align=GRF\n", s);
    emit(t, ".decl OUT v_type=G type=uq num_elts=1 align=qword\n");
    emit(t, ".decl GC v_type=G type=ud num_elts=3 align=dword\n");
    emit(t, ".decl IDX v_type=G type=uq num_elts=1 align=qword\n");
    emit(t, ".decl LS v_type=G type=d num_elts=3 align=dword\n");
    emit(t, ".decl GS v_type=G type=ud num_elts=3 align=dword\n");
    emit(t, ".decl GO v_type=G type=ud num_elts=3 align=dword\n");
    emit(t, ".decl WD v_type=G type=ud num_elts=1 align=dword\n");
    emit(t, ".decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%%r0, 0>\n");
    emit(t, ".decl T v_type=G type=ud num_elts=1 align=dword\n");
    emit(t, ".decl NT v_type=G type=ud num_elts=1 align=dword\n");
    emit(t, ".decl OFF v_type=G type=uq num_elts=1 align=qword\n");
    emit(t, ".decl BASE v_type=G type=uq num_elts=1 align=qword\n");
    emit(t, ".decl HDR v_type=G type=ud num_elts=16 align=GRF\n");
    emit(t, ".decl LANE v_type=G type=ud num_elts=32 align=GRF\n");
    emit(t, ".decl LOFF v_type=G type=uq num_elts=32 align=GRF\n");
    for (int h = 0; h < 2; h++) { /* lanes 0-15 and 16-31: messages address whole variables */
        emit(t, ".decl ADR%d v_type=G type=uq num_elts=16 align=GRF\n", h);
        emit(t, ".decl DAT%d v_type=G type=ud num_elts=16 align=GRF\n", h);
    }
    emit(t, ".input LX offset=%u size=%u\n", L.lx, 2 * s);
    emit(t, ".input LY offset=%u size=%u\n", L.ly, 2 * s);
    emit(t, ".input LZ offset=%u size=%u\n", L.lz, 2 * s);
    emit(t, ".input OUT offset=%u size=8\n", L.out);
    emit(t, ".input GC offset=%u size=12\n", L.gc);
    emit(t, ".input IDX offset=%u size=8\n", L.idx);
    emit(t, ".input LS offset=%u size=12\n", L.ls);
    emit(t, ".input GS offset=%u size=12\n", L.gs);
    emit(t, ".input GO offset=%u size=12\n", L.go);
    emit(t, ".input WD offset=%u size=4\n", L.wd);
    emit(t, ".kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=%u\n.kernel_attr PerThreadInputSize=%u\n", s, L.ptis);
    /* record index = (r0.1 + GC.x * (r0.6 + GC.y * r0.7)) * threads + thread index */
    emit(t, "    shr (M1_NM, 1) NT(0,0)<1> R0(0,2)<0;1,0> 0x18:ud\n");
    emit(t, "    mul (M1_NM, 1) T(0,0)<1> GC(0,1)<0;1,0> R0(0,7)<0;1,0>\n");
    emit(t, "    add (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> R0(0,6)<0;1,0>\n");
    emit(t, "    mul (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> GC(0,0)<0;1,0>\n");
    emit(t, "    add (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> R0(0,1)<0;1,0>\n");
    emit(t, "    mul (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> NT(0,0)<0;1,0>\n");
    emit(t, "    and (M1_NM, 1) NT(0,0)<1> R0(0,2)<0;1,0> 0xff:ud\n");
    emit(t, "    add (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> NT(0,0)<0;1,0>\n");
    emit(t, "    mul (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> 0x%x:ud\n", RECORD);
    emit(t, "    mov (M1_NM, 1) OFF(0,0)<1> T(0,0)<0;1,0>\n");
    emit(t, "    add (M1_NM, 1) BASE(0,0)<1> OUT(0,0)<0;1,0> OFF(0,0)<0;1,0>\n");
    /* the header */
    static const char *const r0f[4] = {"R0(0,1)", "R0(0,6)", "R0(0,7)", "R0(0,2)"};
    for (int k = 0; k < 4; k++) emit(t, "    mov (M1_NM, 1) HDR(0,%d)<1> %s<0;1,0>\n", k, r0f[k]);
    emit(t, "    mov (M1_NM, 1) HDR(0,4)<1> %%sr0(0,2)<0;1,0>\n");
    for (int k = 0; k < 3; k++) {
        emit(t, "    mov (M1_NM, 1) HDR(0,%d)<1> LS(0,%d)<0;1,0>\n", 5 + k, k);
        emit(t, "    mov (M1_NM, 1) HDR(0,%d)<1> GS(0,%d)<0;1,0>\n", 8 + k, k);
        emit(t, "    mov (M1_NM, 1) HDR(0,%d)<1> GO(0,%d)<0;1,0>\n", 11 + k, k);
    }
    emit(t, "    mov (M1_NM, 1) HDR(0,14)<1> WD(0,0)<0;1,0>\n");
    emit(t, "    mov (M1_NM, 1) HDR(0,15)<1> 0x5eed:ud\n");
    emit(t, "    lsc_store.ugm (M1_NM, 1)  flat[BASE]:a64  HDR:d32x16t\n");
    /* lane n's byte offset 4n (the lane numbers come from IDX, a buffer holding 0..31) */
    emit(t, "    lsc_load.ugm (M1_NM, 1)  LANE:d32x32t  flat[IDX]:a64\n");
    for (unsigned h = 0; h < s; h += 16) {
        unsigned n = s - h < 16 ? s - h : 16;
        emit(t, "    shl (M%u_NM, %u) LOFF(0,%u)<1> LANE(0,%u)<1;1,0> 0x2:ud\n", h / 4 + 1, n, h, h);
    }
    static const char *const ids[3] = {"LX", "LY", "LZ"};
    for (unsigned row = 0; row < 6; row++) {
        const char *nm = row < 3 ? "" : "_NM";
        for (unsigned h = 0; h < s; h += 16) {
            unsigned n = s - h < 16 ? s - h : 16, m = h / 4 + 1;
            unsigned v = h / 16;
            emit(t, "    add (M%u_NM, %u) ADR%u(0,0)<1> LOFF(0,%u)<1;1,0> BASE(0,0)<0;1,0>\n", m, n, v, h);
            emit(t, "    add (M%u_NM, %u) ADR%u(0,0)<1> ADR%u(0,0)<1;1,0> 0x%x:uq\n", m, n, v, v, 64 + 128 * row);
            emit(t, "    mov (M%u%s, %u) DAT%u(0,0)<1> %s(0,%u)<1;1,0>\n", m, nm, n, v, ids[row % 3], h);
            emit(t, "    lsc_store.ugm (M%u%s, %u)  flat[ADR%u]:a64  DAT%u:d32\n", m, nm, n, v, v);
        }
    }
    emit(t, "    ret (M1, 1)\n");
}

/* The runtime's local-id generator, as the notes describe it: per thread, per lane, the work-item
** counter steps x; x wraps into y; y wraps into z, which keeps counting. */
static void model_ids(unsigned simd, const unsigned ls[3], unsigned t, unsigned lane, unsigned id[3]) {
    unsigned x = 0, y = 0, z = 0;
    for (unsigned n = 0; n < t * simd + lane; n++) {
        if (++x == ls[0]) {
            x = 0;
            if (++y == ls[1]) {
                y = 0;
                z++;
            }
        }
    }
    id[0] = x, id[1] = y, id[2] = z;
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void run_case(visa_platform pf, unsigned simd, unsigned lx, unsigned ly, unsigned lz, unsigned gx, unsigned gy,
                     unsigned gz) {
    char name[128];
    snprintf(name, sizeof name, "%s SIMD%u local %u,%u,%u groups %u,%u,%u", visa_platform_name(pf), simd, lx, ly, lz,
             gx, gy, gz);
    CASE_BEGIN();
    static text_t t;
    build_kernel(&t, simd, visa_platform_grf_bytes(pf));
    diag_text[0] = 0;
    visa_module *m = NULL;
    visa_status st = visa_module_parse_text(ctx, "ids", t.s, t.n, pf, &m);
    CHECKF(st == VISA_OK, "parse: %s", diag_text);
    const unsigned ls[3] = {lx, ly, lz}, items = lx * ly * lz;
    const unsigned nthreads = (items + simd - 1) / simd, ngroups = gx * gy * gz;
    const size_t out_size = (size_t)ngroups * nthreads * RECORD;
    uint8_t *out = malloc(out_size), idx[128];
    for (size_t i = 0; i < out_size; i += 4) memcpy(out + i, &(uint32_t){FILL}, 4);
    for (uint32_t i = 0; i < 32; i++) memcpy(idx + 4 * i, &i, 4);
    visa_buffer bufs[2] = {{out, out_size}, {idx, sizeof idx}};
    /* OUT, GC, IDX, LS, GS, GO, WD: the per-thread inputs take none */
    visa_arg args[7];
    memset(args, 0, sizeof args);
    args[0].kind = VISA_ARG_BUFFER, args[0].buffer = 0;
    args[1].kind = VISA_ARG_GROUP_COUNT;
    args[2].kind = VISA_ARG_BUFFER, args[2].buffer = 1;
    args[3].kind = VISA_ARG_LOCAL_SIZE;
    args[4].kind = VISA_ARG_GLOBAL_SIZE;
    args[5].kind = VISA_ARG_GLOBAL_OFFSET;
    args[6].kind = VISA_ARG_WORK_DIM;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = pf;
    ro.groups[0] = gx, ro.groups[1] = gy, ro.groups[2] = gz;
    ro.local_size[0] = lx, ro.local_size[1] = ly, ro.local_size[2] = lz;
    ro.global_offset[0] = 7, ro.global_offset[1] = 0, ro.global_offset[2] = 3;
    if (st == VISA_OK) {
        st = visa_module_run(m, &ro, args, 7, bufs, 2, NULL);
        CHECKF(st == VISA_OK, "run: %s", diag_text);
    }
    /* work_dim: the highest dimension with more than one work-item in the ND-range */
    unsigned wd = (gz * lz > 1) ? 3 : (gy * ly > 1) ? 2 : 1;
    unsigned full = simd == 32 ? 0xFFFFFFFFu : (1u << simd) - 1, tail = items % simd;
    for (unsigned g = 0; st == VISA_OK && g < ngroups; g++) {
        unsigned gid[3] = {g % gx, g / gx % gy, g / gx / gy};
        for (unsigned ti = 0; ti < nthreads; ti++) {
            const uint8_t *rec = out + ((size_t)g * nthreads + ti) * RECORD;
            unsigned dmask = ti == nthreads - 1 && tail ? (1u << tail) - 1 : full;
            uint32_t want_hdr[16] = {
                gid[0], gid[1], gid[2], nthreads << 24 | ti, dmask, lx, ly, lz, gx * lx, gy * ly, gz * lz, 7, 0,
                3,      wd,     0x5EED};
            for (int k = 0; k < 16; k++)
                CHECKF(rd32(rec + 4 * k) == want_hdr[k], "%s: group %u thread %u header dword %d = 0x%x, want 0x%x",
                       name, g, ti, k, rd32(rec + 4 * k), want_hdr[k]);
            for (unsigned row = 0; row < 6; row++)
                for (unsigned lane = 0; lane < 32; lane++) {
                    uint32_t got = rd32(rec + 64 + 128 * row + 4 * lane), want = FILL;
                    if (lane < simd && (row >= 3 || (dmask >> lane & 1))) {
                        unsigned id[3];
                        model_ids(simd, ls, ti, lane, id);
                        want = id[row % 3];
                    }
                    CHECKF(got == want, "%s: group %u thread %u row %u lane %u = 0x%x, want 0x%x", name, g, ti, row,
                           lane, got, want);
                }
        }
    }
    free(out);
    visa_module_destroy(m);
    CASE_END(name);
}

/* A few ids worked out by hand against the model, so the model itself is checked. */
static void hand_checks(void) {
    CASE_BEGIN();
    unsigned id[3];
    const unsigned a[3] = {5, 3, 2}; /* 30 work-items, SIMD8: 4 threads, the last with 6 lanes */
    model_ids(8, a, 3, 5, id); /* work-item 29: x = 29 % 5 = 4, y = 29 / 5 % 3 = 2, z = 29 / 15 = 1 */
    CHECK(id[0] == 4 && id[1] == 2 && id[2] == 1);
    model_ids(8, a, 3, 7, id); /* work-item 31, past the end: x 1, y 0, z 2 (z keeps counting) */
    CHECK(id[0] == 1 && id[1] == 0 && id[2] == 2);
    const unsigned b[3] = {40, 1, 1}; /* SIMD32: work-item 63 wraps to x 23 */
    model_ids(32, b, 1, 31, id);
    CHECK(id[0] == 23 && id[1] == 0 && id[2] == 1); /* z counts on: 63 / 40 */
    CASE_END("hand-worked local ids");
}

/* The kernel's inputs as the API lists them (roles by hand from the layout above). */
static void input_list(visa_platform pf, unsigned simd) {
    char name[64];
    snprintf(name, sizeof name, "inputs %s SIMD%u", visa_platform_name(pf), simd);
    CASE_BEGIN();
    static text_t t;
    build_kernel(&t, simd, visa_platform_grf_bytes(pf));
    visa_module *m = NULL;
    CHECK(visa_module_parse_text(ctx, "ids", t.s, t.n, pf, &m) == VISA_OK);
    visa_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.struct_size = sizeof ki;
    CHECK(visa_kernel_get_info(m, NULL, pf, &ki) == VISA_OK);
    layout_t L = layout_of(simd, visa_platform_grf_bytes(pf));
    CHECK(ki.opencl && ki.simd_size == simd && ki.per_thread_input_size == L.ptis && ki.local_id_row_bytes == L.row);
    CHECK(ki.input_count == 10 && ki.arg_count == 7);
    CHECK(visa_kernel_input_count(m, NULL) == 10 && visa_kernel_input_count(m, "nope") == 0);
    static const struct {
        const char *name;
        visa_input_role role;
        int dim;
        const char *type;
        unsigned elems;
        bool read;
    } want[10] = {
        {"LX", VISA_INPUT_PER_THREAD, 0, "uw", 0, true},    {"LY", VISA_INPUT_PER_THREAD, 1, "uw", 0, true},
        {"LZ", VISA_INPUT_PER_THREAD, 2, "uw", 0, true},    {"OUT", VISA_INPUT_INLINE, -1, "uq", 1, true},
        {"GC", VISA_INPUT_INLINE, -1, "ud", 3, true},       {"IDX", VISA_INPUT_INLINE, -1, "uq", 1, true},
        {"LS", VISA_INPUT_CROSS_THREAD, -1, "d", 3, true},  {"GS", VISA_INPUT_CROSS_THREAD, -1, "ud", 3, true},
        {"GO", VISA_INPUT_CROSS_THREAD, -1, "ud", 3, true}, {"WD", VISA_INPUT_CROSS_THREAD, -1, "ud", 1, true}};
    for (size_t i = 0; i < 10; i++) {
        visa_input_info ii;
        CHECK(visa_kernel_input_at(m, NULL, pf, i, &ii) == VISA_OK);
        unsigned elems = want[i].elems ? want[i].elems : simd;
        CHECKF(!strcmp(ii.name, want[i].name) && ii.role == want[i].role && ii.local_id_dim == want[i].dim &&
                   !strcmp(ii.type, want[i].type) && ii.elements == elems && ii.read == want[i].read &&
                   ii.takes_arg == (want[i].role != VISA_INPUT_PER_THREAD) && ii.index == i,
               "%s: input %zu (%s) role %d dim %d type %s x %u read %d", name, i, ii.name, ii.role, ii.local_id_dim,
               ii.type, ii.elements, ii.read);
    }
    visa_input_info ii;
    CHECK(visa_kernel_input_at(m, NULL, pf, 10, &ii) == VISA_E_ARG);
    visa_module_destroy(m);
    CASE_END(name);
}

int main(void) {
    visa_ctx_desc d = {sizeof d, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&d, &ctx) != VISA_OK) return 1;
    hand_checks();
    static const visa_platform plats[2] = {VISA_PLATFORM_XEHPG, VISA_PLATFORM_XE2}; /* 32- and 64-byte GRF */
    static const struct {
        unsigned simd, l[3], g[3];
    } cases[] = {
        {8, {8, 1, 1}, {2, 1, 1}},   {8, {13, 1, 1}, {3, 1, 1}},  {8, {4, 4, 1}, {1, 2, 1}},
        {8, {5, 3, 2}, {2, 1, 2}},   {16, {16, 1, 1}, {2, 1, 1}}, {16, {20, 1, 1}, {1, 1, 1}},
        {16, {3, 5, 1}, {2, 2, 1}},  {16, {4, 2, 2}, {1, 1, 2}},  {16, {1, 1, 1}, {1, 1, 1}},
        {32, {32, 1, 1}, {2, 1, 1}}, {32, {40, 1, 1}, {1, 2, 1}}, {32, {7, 3, 2}, {1, 1, 1}},
        {32, {8, 4, 2}, {2, 1, 1}},  {32, {2, 2, 2}, {1, 1, 3}},
    };
    for (int p = 0; p < 2; p++) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            run_case(plats[p], cases[i].simd, cases[i].l[0], cases[i].l[1], cases[i].l[2], cases[i].g[0], cases[i].g[1],
                     cases[i].g[2]);
        for (unsigned s = 8; s <= 32; s *= 2) input_list(plats[p], s);
    }
    visa_ctx_destroy(ctx);
    return th_finish();
}
