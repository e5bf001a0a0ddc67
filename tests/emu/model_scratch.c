/* model_scratch.c -- scratch space (visa_run_opts.scratch_size / scratch_buffer, docs/launch.md
** "Scratch space") through the public API, against a model written here.
**
** The kernel addresses its scratch the way IGC's vISA does: on XeLP at offset r0.5 & 0xFFFFFC00
** of the stateless surface %scratch (scatter4_scaled / gather4_scaled), from XeHPG on through the
** scratch surface ss(r0.5 >> 4) with offsets from 0 (lsc_store / lsc_load).  Thread T (group id x
** THREADS + thread index) stores dword i of lane l as T * 1000 + 16i + l for i < ELEMS, waits at
** the group's barrier (so every thread of the group has written before any reads: overlapping
** slices would show), then reads element (5i + 1) % ELEMS back and writes it to OUT at
** ((T * ELEMS + i) * 16 + l) * 4, and writes its r0.5 at R05_AT + 4T.  A second kernel reads one
** slice past its own: E-RUN-OOB-SCRATCH.  Launch errors: a buffer too small for the threads, and
** on XeLP a slice size that leaves no room for the thread id in r0.5 bits 9:0. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

#define ELEMS 6u
#define THREADS 4u /* per group */
#define GROUPS 3u
#define R05_AT (GROUPS * THREADS * ELEMS * 64u)
#define OUT_BYTES (R05_AT + GROUPS * THREADS * 4u)

static char diag_codes[1024];
static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    size_t n = strlen(diag_codes);
    snprintf(diag_codes + n, sizeof diag_codes - n, "%s ", d->code);
    if (getenv("MS_VERBOSE")) fprintf(stderr, "  %s: %s\n", d->code, d->message);
}

static visa_ctx *ctx;

/* OFF = lane * 4 + the slice base (XeLP) + byte `plus`. */
static void lane_offsets(FILE *t, bool lsc, unsigned plus) {
    fprintf(t, "    shl (M1, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> 0x2:ud\n");
    if (!lsc) fprintf(t, "    add (M1, 16) OFF(0,0)<1> OFF(0,0)<1;1,0> B(0,0)<0;1,0>\n");
    fprintf(t, "    add (M1, 16) OFF(0,0)<1> OFF(0,0)<1;1,0> 0x%x:ud\n", plus);
}

/* One dword per lane between DAT and the scratch space at OFF. */
static void scratch_access(FILE *t, bool lsc, bool store) {
    if (lsc && store) fprintf(t, "    lsc_store.ugm (M1, 16)  ss(B)[OFF]:a32  DAT:d32\n");
    else if (lsc) fprintf(t, "    lsc_load.ugm (M1, 16)  DAT:d32  ss(B)[OFF]:a32\n");
    else fprintf(t, "    %s.R (M1, 16) %%scratch 0x0:ud OFF.0 DAT.0\n", store ? "scatter4_scaled" : "gather4_scaled");
}

static void out_store(FILE *t, bool lsc, const char *mask) {
    if (lsc) fprintf(t, "    lsc_store.ugm (%s, 16)  bti(0x0)[OFF]:a32  DAT:d32\n", mask);
    else fprintf(t, "    scatter4_scaled.R (%s, 16) T6 0x0:ud OFF.0 DAT.0\n", mask);
}

/* The kernel (module above); past_slice: the read phase reads one slice further. */
static void build_kernel(FILE *t, bool lsc, unsigned past_slice) {
    fprintf(t, ".version 4.1\n.kernel \"scr\"\n.decl T6 v_type=T num_elts=1\n");
    fprintf(t, ".decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%%r0, 0>\n");
    static const char *const scalars[] = {"T", "B", "U"};
    for (int k = 0; k < 3; k++) fprintf(t, ".decl %s v_type=G type=ud num_elts=1 align=dword\n", scalars[k]);
    static const char *const vectors[] = {"LANE", "OFF", "DAT"};
    for (int k = 0; k < 3; k++) fprintf(t, ".decl %s v_type=G type=ud num_elts=16 align=GRF\n", vectors[k]);
    fprintf(t, ".input T6 offset=0 size=4\n.kernel_attr SimdSize=16\n");
    fprintf(t, "    mov (M1_NM, 8) LANE(0,0)<1> 0x76543210:uv\n");
    fprintf(t, "    add (M1_NM, 8) LANE(0,8)<1> LANE(0,0)<1;1,0> 0x8:ud\n");
    fprintf(t, "    and (M1_NM, 1) T(0,0)<1> R0(0,2)<0;1,0> 0xff:ud\n");
    fprintf(t, "    mul (M1_NM, 1) U(0,0)<1> R0(0,1)<0;1,0> 0x%x:ud\n", THREADS);
    fprintf(t, "    add (M1_NM, 1) T(0,0)<1> T(0,0)<0;1,0> U(0,0)<0;1,0>\n");
    if (lsc) fprintf(t, "    shr (M1_NM, 1) B(0,0)<1> R0(0,5)<0;1,0> 0x4:ud\n");
    else fprintf(t, "    and (M1_NM, 1) B(0,0)<1> R0(0,5)<0;1,0> 0xfffffc00:ud\n");
    for (unsigned i = 0; i < ELEMS; i++) {
        lane_offsets(t, lsc, 64 * i);
        fprintf(t, "    mul (M1, 16) DAT(0,0)<1> T(0,0)<0;1,0> 0x3e8:ud\n");
        fprintf(t, "    add (M1, 16) DAT(0,0)<1> DAT(0,0)<1;1,0> LANE(0,0)<1;1,0>\n");
        fprintf(t, "    add (M1, 16) DAT(0,0)<1> DAT(0,0)<1;1,0> 0x%x:ud\n", 16 * i);
        scratch_access(t, lsc, true);
    }
    fprintf(t, "    barrier\n");
    fprintf(t, "    mul (M1_NM, 1) U(0,0)<1> T(0,0)<0;1,0> 0x%x:ud\n", ELEMS * 64);
    for (unsigned i = 0; i < ELEMS; i++) {
        lane_offsets(t, lsc, 64 * ((5 * i + 1) % ELEMS) + past_slice);
        scratch_access(t, lsc, false);
        fprintf(t, "    shl (M1, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> 0x2:ud\n");
        fprintf(t, "    add (M1, 16) OFF(0,0)<1> OFF(0,0)<1;1,0> U(0,0)<0;1,0>\n");
        fprintf(t, "    add (M1, 16) OFF(0,0)<1> OFF(0,0)<1;1,0> 0x%x:ud\n", 64 * i);
        out_store(t, lsc, "M1");
    }
    fprintf(t, "    mov (M1_NM, 16) DAT(0,0)<1> R0(0,5)<0;1,0>\n");
    fprintf(t, "    shl (M1_NM, 1) U(0,0)<1> T(0,0)<0;1,0> 0x2:ud\n");
    fprintf(t, "    add (M1_NM, 16) OFF(0,0)<1> U(0,0)<0;1,0> 0x%x:ud\n", R05_AT);
    out_store(t, lsc, "M1_NM");
    fprintf(t, "    ret (M1, 1)\n");
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Run the kernel with `slice` bytes per thread in a buffer of `scratch_bytes`; the status. */
static visa_status run(visa_platform pf, unsigned past_slice, uint32_t slice, size_t scratch_bytes, unsigned threads,
                       uint8_t *out) {
    char *text = NULL;
    size_t len = 0;
    FILE *t = open_memstream(&text, &len);
    if (!t) return VISA_E_NOMEM;
    build_kernel(t, pf >= VISA_PLATFORM_XEHPG, past_slice);
    fclose(t);
    visa_module *m = NULL;
    visa_status st = visa_module_parse_text(ctx, "scr", text, len, pf, &m);
    free(text);
    CHECKF(st == VISA_OK, "%s: parse (%s)", visa_platform_name(pf), diag_codes);
    uint8_t *scratch = malloc(scratch_bytes ? scratch_bytes : 1);
    memset(scratch, 0xEE, scratch_bytes);
    memset(out, 0xFF, OUT_BYTES);
    visa_buffer bufs[2] = {{out, OUT_BYTES}, {scratch, scratch_bytes}};
    visa_arg arg;
    memset(&arg, 0, sizeof arg);
    arg.kind = VISA_ARG_BUFFER, arg.buffer = 0;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = pf;
    ro.groups[0] = GROUPS;
    ro.group_size[0] = THREADS;
    ro.threads = threads;
    ro.scratch_size = slice;
    ro.scratch_buffer = 1;
    if (st == VISA_OK) st = visa_module_run(m, &ro, &arg, 1, bufs, 2, NULL);
    free(scratch);
    visa_module_destroy(m);
    return st;
}

static void check_platform(visa_platform pf, uint32_t slice) {
    char name[96];
    snprintf(name, sizeof name, "%s, %u-byte slices", visa_platform_name(pf), slice);
    CASE_BEGIN();
    static uint8_t out[OUT_BYTES];
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        diag_codes[0] = 0;
        visa_status st = run(pf, 0, slice, (size_t)threads * THREADS * slice, threads, out);
        CHECKF(st == VISA_OK, "%s, %u host threads: run (%d): %s", name, threads, st, diag_codes);
        for (unsigned T = 0; st == VISA_OK && T < GROUPS * THREADS; T++)
            for (unsigned i = 0; i < ELEMS; i++)
                for (unsigned l = 0; l < 16; l++) {
                    uint32_t got = rd32(out + ((T * ELEMS + i) * 16 + l) * 4);
                    uint32_t want = T * 1000 + 16 * ((5 * i + 1) % ELEMS) + l;
                    CHECKF(got == want, "%s: thread %u element %u lane %u = %u, want %u", name, T, i, l, got, want);
                }
        /* one host thread: group g's thread k runs in hardware-thread slot k */
        for (unsigned T = 0; st == VISA_OK && threads == 1 && T < GROUPS * THREADS; T++) {
            uint32_t k = T % THREADS, got = rd32(out + R05_AT + 4 * T);
            uint32_t want = pf >= VISA_PLATFORM_XEHP ? 1u << 4 : k * slice | k;
            CHECKF(got == want, "%s: thread %u r0.5 = 0x%x, want 0x%x", name, T, got, want);
        }
    }
    diag_codes[0] = 0;
    visa_status st = run(pf, slice, slice, (size_t)THREADS * slice, 1, out);
    CHECKF(st == VISA_E_RUNTIME && strstr(diag_codes, "E-RUN-OOB-SCRATCH"), "%s: read past the slice: %d %s", name, st,
           diag_codes);
    diag_codes[0] = 0;
    st = run(pf, 0, slice, (size_t)THREADS * slice - 4, 1, out);
    CHECKF(st == VISA_E_ARG && strstr(diag_codes, "E-LAUNCH-SCRATCH-BUFFER"), "%s: small buffer: %d %s", name, st,
           diag_codes);
    CASE_END(name);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    visa_ctx_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.on_diag = on_diag;
    if (visa_ctx_create(&d, &ctx) != VISA_OK) return 1;
    check_platform(VISA_PLATFORM_XELP, 1024);
    check_platform(VISA_PLATFORM_XELP, 4096);
    check_platform(VISA_PLATFORM_XEHPG, 512);
    check_platform(VISA_PLATFORM_XEHPC, 64 * ELEMS);
    CASE_BEGIN();
    static uint8_t out[OUT_BYTES];
    diag_codes[0] = 0;
    visa_status st = run(VISA_PLATFORM_XELP, 0, 512, THREADS * 512, 1, out);
    CHECKF(st == VISA_E_ARG && strstr(diag_codes, "E-LAUNCH-SCRATCH-SIZE"), "XeLP, 512-byte slices: %d %s", st,
           diag_codes);
    CASE_END("XeLP slices below 1 KiB");
    visa_ctx_destroy(ctx);
    return th_finish();
}
