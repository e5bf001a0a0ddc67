/* bench_emu.c -- emulator throughput on ALU-bound SIMD16 kernels, against native C doing the same
** math per lane in the same order (same rounding), in the same process, one host thread.
**
** Every kernel runs over GROUPS thread groups of one thread; each emulated thread loops ITERS
** times.  The native function computes the same per-lane values into the same output layout; the
** benchmark checks the outputs are bit-identical before timing and again after.  Each side is
** timed over repeated runs for at least 0.5 s (--seconds; CLOCK_MONOTONIC).
**
** Usage: bench_emu [--seconds S] [KERNEL...]   (kernels: fma hash reduce hfma bfma int16 int8 mods;
**        default all)
** Reported per kernel: vISA instructions executed per run (visa_run_stats; a loop's label counts
** as an executed instruction, as the emulator executes it), millions of emulated vISA
** instructions per second, native time per run and the ratio emulated / native time.  The two
** sides are timed in alternating slices of about 0.1 s, so a busy machine slows both about equally.
** Targets (issue 14): >= 150 M vISA instructions/s on one core, <= 3x native -O2 time; hf and bf
** within 1.5x of the same kernel on f.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "visa/visa.h"

#define TARGET_MIPS 150.0
#define TARGET_RATIO 3.0
#define TARGET_NARROW 1.5 /* hf and bf kernels: at most this times the f kernel's time */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------------------------------
** (1) FMA loop: four independent accumulators per lane, a = a*m + c (fused), 8 mads per trip.
**     x = group*16 + lane, a_k = x + k, m = 0.999, c = x/1024 + 0.5.  Output: a0..a3, 256 bytes.
** ------------------------------------------------------------------------------------------- */
static const char k_fma[] = ".version 4.1\n"
                            ".kernel \"fma_loop\"\n"
                            ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                            ".decl N v_type=G type=d num_elts=1 align=dword\n"
                            ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                            ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"
                            ".decl ID v_type=G type=ud num_elts=16 align=GRF\n"
                            ".decl X v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl M v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl C v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl A0 v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl A1 v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl A2 v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl A3 v_type=G type=f num_elts=16 align=GRF\n"
                            ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                            ".decl P1 v_type=P num_elts=16\n"
                            ".input OUT offset=64 size=8\n"
                            ".input N offset=72 size=4\n"
                            ".kernel_attr SimdSize=16\n"
                            "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"
                            "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:ud\n"
                            "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"
                            "    add (M1, 16) ID(0,0)<1> ID(0,0)<1;1,0> G16(0,0)<0;1,0>\n"
                            "    mov (M1, 16) X(0,0)<1> ID(0,0)<1;1,0>\n"
                            "    add (M1, 16) A0(0,0)<1> X(0,0)<1;1,0> 0x0:f\n"
                            "    add (M1, 16) A1(0,0)<1> X(0,0)<1;1,0> 0x3f800000:f\n"
                            "    add (M1, 16) A2(0,0)<1> X(0,0)<1;1,0> 0x40000000:f\n"
                            "    add (M1, 16) A3(0,0)<1> X(0,0)<1;1,0> 0x40400000:f\n"
                            "    mov (M1, 16) M(0,0)<1> 0x3f7fbe77:f\n"
                            "    mul (M1, 16) C(0,0)<1> X(0,0)<1;1,0> 0x3a800000:f\n"
                            "    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x3f000000:f\n"
                            "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                            "LOOP:\n"
                            "    mad (M1, 16) A0(0,0)<1> A0(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A1(0,0)<1> A1(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A2(0,0)<1> A2(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A3(0,0)<1> A3(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A0(0,0)<1> A0(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A1(0,0)<1> A1(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A2(0,0)<1> A2(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    mad (M1, 16) A3(0,0)<1> A3(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                            "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                            "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                            "    (P1) jmp (M1, 1) LOOP\n"
                            "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x100:uq\n"
                            "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  A0:d32x16t\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  A1:d32x16t\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x80]:a64  A2:d32x16t\n"
                            "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0xc0]:a64  A3:d32x16t\n"
                            "    ret (M1, 1)\n";

static float bits_f(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* The emulator's float mad rounds once (fmaf), like the hardware; native uses fmaf too, and the
** output check compares them bit for bit (tests/emu mad_tie covers the double-rounding case). */
static inline __attribute__((always_inline)) void native_fma_body(float *out, unsigned groups, int iters) {
    const float m = bits_f(0x3f7fbe77u);
    for (unsigned g = 0; g < groups; g++) {
        float a0[16], a1[16], a2[16], a3[16], c[16];
        for (unsigned i = 0; i < 16; i++) {
            float x = (float)(g * 16 + i);
            a0[i] = x + 0.0f;
            a1[i] = x + 1.0f;
            a2[i] = x + 2.0f;
            a3[i] = x + 3.0f;
            c[i] = x * 0x1p-10f;
            c[i] = c[i] + 0.5f;
        }
        int cnt = iters;
        do {
            for (unsigned i = 0; i < 16; i++) a0[i] = fmaf(a0[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a1[i] = fmaf(a1[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a2[i] = fmaf(a2[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a3[i] = fmaf(a3[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a0[i] = fmaf(a0[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a1[i] = fmaf(a1[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a2[i] = fmaf(a2[i], m, c[i]);
            for (unsigned i = 0; i < 16; i++) a3[i] = fmaf(a3[i], m, c[i]);
            cnt--;
        } while (cnt > 0);
        float *o = out + (size_t)g * 64;
        memcpy(o, a0, 64);
        memcpy(o + 16, a1, 64);
        memcpy(o + 32, a2, 64);
        memcpy(o + 48, a3, 64);
    }
}

/* ---------------------------------------------------------------------------------------------
** (2) Integer hash on ud: murmur3's fmix32 plus a Weyl step, chained ITERS times per lane, with a
**     running sum.  h = group*16 + lane.  Output: h and the sum, 128 bytes.
** ------------------------------------------------------------------------------------------- */
static const char k_hash[] = ".version 4.1\n"
                             ".kernel \"hash_loop\"\n"
                             ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                             ".decl N v_type=G type=d num_elts=1 align=dword\n"
                             ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                             ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"
                             ".decl H v_type=G type=ud num_elts=16 align=GRF\n"
                             ".decl T v_type=G type=ud num_elts=16 align=GRF\n"
                             ".decl S v_type=G type=ud num_elts=16 align=GRF\n"
                             ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                             ".decl P1 v_type=P num_elts=16\n"
                             ".input OUT offset=64 size=8\n"
                             ".input N offset=72 size=4\n"
                             ".kernel_attr SimdSize=16\n"
                             "    mov (M1, 8) H(0,0)<1> 0x76543210:uv\n"
                             "    add (M1, 8) H(0,8)<1> H(0,0)<1;1,0> 0x8:ud\n"
                             "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"
                             "    add (M1, 16) H(0,0)<1> H(0,0)<1;1,0> G16(0,0)<0;1,0>\n"
                             "    mov (M1, 16) S(0,0)<1> 0x0:ud\n"
                             "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                             "LOOP:\n"
                             "    shr (M1, 16) T(0,0)<1> H(0,0)<1;1,0> 0x10:ud\n"
                             "    xor (M1, 16) H(0,0)<1> H(0,0)<1;1,0> T(0,0)<1;1,0>\n"
                             "    mul (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x85ebca6b:ud\n"
                             "    shr (M1, 16) T(0,0)<1> H(0,0)<1;1,0> 0xd:ud\n"
                             "    xor (M1, 16) H(0,0)<1> H(0,0)<1;1,0> T(0,0)<1;1,0>\n"
                             "    mul (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0xc2b2ae35:ud\n"
                             "    shr (M1, 16) T(0,0)<1> H(0,0)<1;1,0> 0x10:ud\n"
                             "    xor (M1, 16) H(0,0)<1> H(0,0)<1;1,0> T(0,0)<1;1,0>\n"
                             "    add (M1, 16) H(0,0)<1> H(0,0)<1;1,0> 0x9e3779b9:ud\n"
                             "    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> H(0,0)<1;1,0>\n"
                             "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                             "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                             "    (P1) jmp (M1, 1) LOOP\n"
                             "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x80:uq\n"
                             "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  H:d32x16t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  S:d32x16t\n"
                             "    ret (M1, 1)\n";

static inline __attribute__((always_inline)) void native_hash_body(uint32_t *out, unsigned groups, int iters) {
    for (unsigned g = 0; g < groups; g++) {
        uint32_t h[16], t[16], s[16];
        for (unsigned i = 0; i < 16; i++) h[i] = g * 16 + i, s[i] = 0;
        int cnt = iters;
        do {
            for (unsigned i = 0; i < 16; i++) t[i] = h[i] >> 16;
            for (unsigned i = 0; i < 16; i++) h[i] ^= t[i];
            for (unsigned i = 0; i < 16; i++) h[i] *= 0x85ebca6bu;
            for (unsigned i = 0; i < 16; i++) t[i] = h[i] >> 13;
            for (unsigned i = 0; i < 16; i++) h[i] ^= t[i];
            for (unsigned i = 0; i < 16; i++) h[i] *= 0xc2b2ae35u;
            for (unsigned i = 0; i < 16; i++) t[i] = h[i] >> 16;
            for (unsigned i = 0; i < 16; i++) h[i] ^= t[i];
            for (unsigned i = 0; i < 16; i++) h[i] += 0x9e3779b9u;
            for (unsigned i = 0; i < 16; i++) s[i] += h[i];
            cnt--;
        } while (cnt > 0);
        memcpy(out + (size_t)g * 32, h, 64);
        memcpy(out + (size_t)g * 32 + 16, s, 64);
    }
}

/* ---------------------------------------------------------------------------------------------
** (3) Region-heavy reduction: each thread loads 256 floats (D, 16 rows of 16 on a 64-byte GRF)
**     and, ITERS times, sums them pairwise: 256 -> 128 with <16;8,2>, 128 -> 64 with <2;1,0>,
**     64 -> 32 with <16;8,2>, 32 -> 16 row + row, then a tree through (0,8), (0,4), (0,2), (0,1)
**     offsets; the sum is accumulated and fed back into row 0 (d0 = d0*0.5 + sum/256) so every
**     trip differs.  Output: row 0 of D and the accumulated sum, 128 bytes.
** ------------------------------------------------------------------------------------------- */
static const char k_reduce[] = ".version 4.1\n"
                               ".kernel \"reduce_loop\"\n"
                               ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                               ".decl IN v_type=G type=uq num_elts=1 align=qword\n"
                               ".decl N v_type=G type=d num_elts=1 align=dword\n"
                               ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                               ".decl IADDR v_type=G type=uq num_elts=1 align=qword\n"
                               ".decl D v_type=G type=f num_elts=256 align=GRF\n"
                               ".decl T v_type=G type=f num_elts=128 align=GRF\n"
                               ".decl U v_type=G type=f num_elts=64 align=GRF\n"
                               ".decl V v_type=G type=f num_elts=32 align=GRF\n"
                               ".decl W v_type=G type=f num_elts=16 align=GRF\n"
                               ".decl ACC v_type=G type=f num_elts=16 align=GRF\n"
                               ".decl S2 v_type=G type=f num_elts=1 align=dword\n"
                               ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                               ".decl P1 v_type=P num_elts=16\n"
                               ".input OUT offset=64 size=8\n"
                               ".input IN offset=72 size=8\n"
                               ".input N offset=80 size=4\n"
                               ".kernel_attr SimdSize=16\n"
                               "    mul (M1_NM, 1) IADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x400:uq\n"
                               "    add (M1_NM, 1) IADDR(0,0)<1> IADDR(0,0)<0;1,0> IN(0,0)<0;1,0>\n"
                               "    lsc_load.ugm (M1_NM, 1)  D:d32x64t  flat[IADDR]:a64\n"
                               "    lsc_load.ugm (M1_NM, 1)  D.256:d32x64t  flat[IADDR+0x100]:a64\n"
                               "    lsc_load.ugm (M1_NM, 1)  D.512:d32x64t  flat[IADDR+0x200]:a64\n"
                               "    lsc_load.ugm (M1_NM, 1)  D.768:d32x64t  flat[IADDR+0x300]:a64\n"
                               "    mov (M1, 16) ACC(0,0)<1> 0x0:f\n"
                               "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                               "LOOP:\n"
                               "    add (M1, 16) T(0,0)<1> D(0,0)<16;8,2> D(0,1)<16;8,2>\n"
                               "    add (M1, 16) T(1,0)<1> D(2,0)<16;8,2> D(2,1)<16;8,2>\n"
                               "    add (M1, 16) T(2,0)<1> D(4,0)<16;8,2> D(4,1)<16;8,2>\n"
                               "    add (M1, 16) T(3,0)<1> D(6,0)<16;8,2> D(6,1)<16;8,2>\n"
                               "    add (M1, 16) T(4,0)<1> D(8,0)<16;8,2> D(8,1)<16;8,2>\n"
                               "    add (M1, 16) T(5,0)<1> D(10,0)<16;8,2> D(10,1)<16;8,2>\n"
                               "    add (M1, 16) T(6,0)<1> D(12,0)<16;8,2> D(12,1)<16;8,2>\n"
                               "    add (M1, 16) T(7,0)<1> D(14,0)<16;8,2> D(14,1)<16;8,2>\n"
                               "    add (M1, 16) U(0,0)<1> T(0,0)<2;1,0> T(0,1)<2;1,0>\n"
                               "    add (M1, 16) U(1,0)<1> T(2,0)<2;1,0> T(2,1)<2;1,0>\n"
                               "    add (M1, 16) U(2,0)<1> T(4,0)<2;1,0> T(4,1)<2;1,0>\n"
                               "    add (M1, 16) U(3,0)<1> T(6,0)<2;1,0> T(6,1)<2;1,0>\n"
                               "    add (M1, 16) V(0,0)<1> U(0,0)<16;8,2> U(0,1)<16;8,2>\n"
                               "    add (M1, 16) V(1,0)<1> U(2,0)<16;8,2> U(2,1)<16;8,2>\n"
                               "    add (M1, 16) W(0,0)<1> V(0,0)<1;1,0> V(1,0)<1;1,0>\n"
                               "    add (M1, 8) W(0,0)<1> W(0,0)<1;1,0> W(0,8)<1;1,0>\n"
                               "    add (M1, 4) W(0,0)<1> W(0,0)<1;1,0> W(0,4)<1;1,0>\n"
                               "    add (M1, 2) W(0,0)<1> W(0,0)<1;1,0> W(0,2)<1;1,0>\n"
                               "    add (M1, 1) W(0,0)<1> W(0,0)<0;1,0> W(0,1)<0;1,0>\n"
                               "    add (M1, 1) ACC(0,0)<1> ACC(0,0)<0;1,0> W(0,0)<0;1,0>\n"
                               "    mul (M1, 1) S2(0,0)<1> W(0,0)<0;1,0> 0x3b800000:f\n"
                               "    mad (M1, 16) D(0,0)<1> D(0,0)<1;1,0> 0x3f000000:f S2(0,0)<0;1,0>\n"
                               "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                               "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                               "    (P1) jmp (M1, 1) LOOP\n"
                               "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x80:uq\n"
                               "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                               "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  D:d32x16t\n"
                               "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  ACC:d32x16t\n"
                               "    ret (M1, 1)\n";

static inline __attribute__((always_inline)) void native_reduce_body(float *out, const float *in, unsigned groups,
                                                                     int iters) {
    for (unsigned g = 0; g < groups; g++) {
        float d[256], t[128], u[64], v[32], w[16], acc[16];
        memcpy(d, in + (size_t)g * 256, sizeof d);
        for (unsigned i = 0; i < 16; i++) acc[i] = 0.0f;
        int cnt = iters;
        do {
            /* <16;8,2> over two rows and <2;1,0> both pick every other element */
            for (unsigned j = 0; j < 128; j++) t[j] = d[2 * j] + d[2 * j + 1];
            for (unsigned j = 0; j < 64; j++) u[j] = t[2 * j] + t[2 * j + 1];
            for (unsigned j = 0; j < 32; j++) v[j] = u[2 * j] + u[2 * j + 1];
            for (unsigned j = 0; j < 16; j++) w[j] = v[j] + v[16 + j];
            for (unsigned j = 0; j < 8; j++) w[j] = w[j] + w[j + 8];
            for (unsigned j = 0; j < 4; j++) w[j] = w[j] + w[j + 4];
            for (unsigned j = 0; j < 2; j++) w[j] = w[j] + w[j + 2];
            w[0] = w[0] + w[1];
            acc[0] = acc[0] + w[0];
            float s2 = w[0] * 0x1p-8f;
            for (unsigned j = 0; j < 16; j++) d[j] = fmaf(d[j], 0.5f, s2);
            cnt--;
        } while (cnt > 0);
        memcpy(out + (size_t)g * 32, d, 64);
        memcpy(out + (size_t)g * 32 + 16, acc, 64);
    }
}

/* ---------------------------------------------------------------------------------------------
** (4, 5) The FMA loop on hf and on bf: the same program as (1) with every float variable of the
**     narrow type (16 lanes = one 32-byte half of a GRF).  m = 0.999 rounded to the type.
**     Output: a0..a3, 128 bytes.  Native does the same per-lane work: the exact a*m + c rounded
**     once to the type (the product is exact in float for hf and in double for bf; the sum is
**     rounded to odd, then to nearest even in the narrow type).
** ------------------------------------------------------------------------------------------- */
#define NARROW_FMA(T, ONE, TWO, THREE, M, SCALE, HALF)                         \
    ".version 4.1\n"                                                           \
    ".kernel \"" T "_fma_loop\"\n"                                             \
    ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"                      \
    ".decl N v_type=G type=d num_elts=1 align=dword\n"                         \
    ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"                     \
    ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"                      \
    ".decl ID v_type=G type=ud num_elts=16 align=GRF\n"                        \
    ".decl X v_type=G type=" T " num_elts=16 align=GRF\n"                      \
    ".decl M v_type=G type=" T " num_elts=16 align=GRF\n"                      \
    ".decl C v_type=G type=" T " num_elts=16 align=GRF\n"                      \
    ".decl A0 v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl A1 v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl A2 v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl A3 v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl CNT v_type=G type=d num_elts=1 align=dword\n"                       \
    ".decl P1 v_type=P num_elts=16\n"                                          \
    ".input OUT offset=64 size=8\n"                                            \
    ".input N offset=72 size=4\n"                                              \
    ".kernel_attr SimdSize=16\n"                                               \
    "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"                               \
    "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:ud\n"                       \
    "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"         \
    "    add (M1, 16) ID(0,0)<1> ID(0,0)<1;1,0> G16(0,0)<0;1,0>\n"             \
    "    mov (M1, 16) X(0,0)<1> ID(0,0)<1;1,0>\n"                              \
    "    mov (M1, 16) A0(0,0)<1> X(0,0)<1;1,0>\n"                              \
    "    add (M1, 16) A1(0,0)<1> X(0,0)<1;1,0> " ONE ":" T "\n"                \
    "    add (M1, 16) A2(0,0)<1> X(0,0)<1;1,0> " TWO ":" T "\n"                \
    "    add (M1, 16) A3(0,0)<1> X(0,0)<1;1,0> " THREE ":" T "\n"              \
    "    mov (M1, 16) M(0,0)<1> " M ":" T "\n"                                 \
    "    mul (M1, 16) C(0,0)<1> X(0,0)<1;1,0> " SCALE ":" T "\n"               \
    "    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> " HALF ":" T "\n"                \
    "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"                           \
    "LOOP:\n"                                                                  \
    "    mad (M1, 16) A0(0,0)<1> A0(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A1(0,0)<1> A1(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A2(0,0)<1> A2(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A3(0,0)<1> A3(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A0(0,0)<1> A0(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A1(0,0)<1> A1(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A2(0,0)<1> A2(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    mad (M1, 16) A3(0,0)<1> A3(0,0)<1;1,0> M(0,0)<1;1,0> C(0,0)<1;1,0>\n" \
    "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"            \
    "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"                         \
    "    (P1) jmp (M1, 1) LOOP\n"                                              \
    "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x80:uq\n"        \
    "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"       \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  A0:d32x8t\n"                \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x20]:a64  A1:d32x8t\n"           \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  A2:d32x8t\n"           \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x60]:a64  A3:d32x8t\n"           \
    "    ret (M1, 1)\n"
static const char k_hfma[] = NARROW_FMA("hf", "0x3c00", "0x4000", "0x4200", "0x3bfe", "0x1400", "0x3800");
static const char k_bfma[] = NARROW_FMA("bf", "0x3f80", "0x4000", "0x4040", "0x3f7f", "0x3a80", "0x3f00");

/* Narrow formats by bit tricks (round to nearest even; a NaN is quieted). */
static inline uint32_t f_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static inline float hf_f(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
    if (e == 31) return bits_f(s | 0x7f800000u | m << 13);
    if (e) return bits_f(s | (e + 112) << 23 | m << 13);
    float v = (float)m * 0x1p-24f;
    return s ? -v : v;
}
static inline uint16_t f_hf(float f) {
    uint32_t b = f_bits(f), s = (b >> 16) & 0x8000, a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(s | 0x7e00 | (a >> 13 & 0x3ff));
    if (a >= 0x477ff000u) return (uint16_t)(s | 0x7c00); /* rounds to inf */
    if (a < 0x38800000u) { /* hf subnormal: the float adds with the right quantum */
        float v = bits_f(a) + 0.5f;
        return (uint16_t)(s | (f_bits(v) - 0x3f000000u));
    }
    return (uint16_t)(s | ((a + 0xfffu + (a >> 13 & 1)) - 0x38000000u) >> 13);
}
static inline float bf_f(uint16_t h) { return bits_f((uint32_t)h << 16); }
static inline uint16_t f_bf(float f) {
    uint32_t b = f_bits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40);
    return (uint16_t)((b + 0x7fffu + (b >> 16 & 1)) >> 16);
}
/* a*b + c for hf sources: the product is exact in float; the sum rounded to odd (TwoSum) */
static inline uint16_t hf_mad(uint16_t a, uint16_t b, uint16_t c) {
    float p = hf_f(a) * hf_f(b), q = hf_f(c), r = p + q, bb = r - p, err = (p - (r - bb)) + (q - bb);
    uint32_t u = f_bits(r);
    if (err != 0 && !(u & 1) && (u & 0x7f800000u) != 0x7f800000u) u += ((err > 0) == !(u >> 31)) ? 1 : -1u;
    return f_hf(bits_f(u));
}
static inline double bits_d(uint64_t b) {
    double d;
    memcpy(&d, &b, 8);
    return d;
}
/* a*b + c for bf sources: exact product in double, the sum rounded to odd in double and then in
** float, then to nearest even in bf */
static inline uint16_t bf_mad(uint16_t a, uint16_t b, uint16_t c) {
    double p = (double)bf_f(a) * bf_f(b), q = bf_f(c), r = p + q, bb = r - p, err = (p - (r - bb)) + (q - bb);
    uint64_t u;
    memcpy(&u, &r, 8);
    if (err != 0 && !(u & 1) && (u & 0x7ff0000000000000ull) != 0x7ff0000000000000ull)
        u += ((err > 0) == !(u >> 63)) ? 1 : (uint64_t)-1;
    r = bits_d(u);
    float f = (float)r;
    uint32_t w = f_bits(f);
    if ((double)f != r && !(w & 1) && (w & 0x7f800000u) != 0x7f800000u) w += (fabs(r) > fabs((double)f)) ? 1 : -1u;
    return f_bf(bits_f(w));
}

#define NATIVE_NARROW_FMA(NAME, TO, FROM, MAD, M)                                                       \
    static inline __attribute__((always_inline)) void NAME(uint16_t *out, unsigned groups, int iters) { \
        const uint16_t m = M;                                                                           \
        for (unsigned g = 0; g < groups; g++) {                                                         \
            uint16_t a0[16], a1[16], a2[16], a3[16], c[16];                                             \
            for (unsigned i = 0; i < 16; i++) {                                                         \
                float x = FROM(TO((float)(g * 16 + i)));                                                \
                a0[i] = TO(x);                                                                          \
                a1[i] = TO(x + 1.0f);                                                                   \
                a2[i] = TO(x + 2.0f);                                                                   \
                a3[i] = TO(x + 3.0f);                                                                   \
                c[i] = TO(FROM(TO(x * 0x1p-10f)) + 0.5f);                                               \
            }                                                                                           \
            int cnt = iters;                                                                            \
            do {                                                                                        \
                for (unsigned i = 0; i < 16; i++) a0[i] = MAD(a0[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a1[i] = MAD(a1[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a2[i] = MAD(a2[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a3[i] = MAD(a3[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a0[i] = MAD(a0[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a1[i] = MAD(a1[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a2[i] = MAD(a2[i], m, c[i]);                          \
                for (unsigned i = 0; i < 16; i++) a3[i] = MAD(a3[i], m, c[i]);                          \
                cnt--;                                                                                  \
            } while (cnt > 0);                                                                          \
            uint16_t *o = out + (size_t)g * 64;                                                         \
            memcpy(o, a0, 32);                                                                          \
            memcpy(o + 16, a1, 32);                                                                     \
            memcpy(o + 32, a2, 32);                                                                     \
            memcpy(o + 48, a3, 32);                                                                     \
        }                                                                                               \
    }
NATIVE_NARROW_FMA(native_hfma_body, f_hf, hf_f, hf_mad, 0x3bfe)
NATIVE_NARROW_FMA(native_bfma_body, f_bf, bf_f, bf_mad, 0x3f7f)

/* ---------------------------------------------------------------------------------------------
** (6, 7) Small integers: an LCG step and an xorshift on w (and on ub), with a running sum.
**     h = group*16 + lane.  Output: h and the sum (64 bytes on w, 32 on ub).
** ------------------------------------------------------------------------------------------- */
#define SMALL_INT(T, MUL, ADD, SH, MUL2, ST)                                  \
    ".version 4.1\n"                                                          \
    ".kernel \"" T "_loop\"\n"                                                \
    ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"                     \
    ".decl N v_type=G type=d num_elts=1 align=dword\n"                        \
    ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"                    \
    ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"                     \
    ".decl ID v_type=G type=ud num_elts=16 align=GRF\n"                       \
    ".decl H v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl T v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl S v_type=G type=" T " num_elts=16 align=GRF\n"                     \
    ".decl CNT v_type=G type=d num_elts=1 align=dword\n"                      \
    ".decl P1 v_type=P num_elts=16\n"                                         \
    ".input OUT offset=64 size=8\n"                                           \
    ".input N offset=72 size=4\n"                                             \
    ".kernel_attr SimdSize=16\n"                                              \
    "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"                              \
    "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:ud\n"                      \
    "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"        \
    "    add (M1, 16) ID(0,0)<1> ID(0,0)<1;1,0> G16(0,0)<0;1,0>\n"            \
    "    mov (M1, 16) H(0,0)<1> ID(0,0)<1;1,0>\n"                             \
    "    mov (M1, 16) S(0,0)<1> 0x0:" T "\n"                                  \
    "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"                          \
    "LOOP:\n"                                                                 \
    "    mul (M1, 16) H(0,0)<1> H(0,0)<1;1,0> " MUL ":" T "\n"                \
    "    add (M1, 16) H(0,0)<1> H(0,0)<1;1,0> " ADD ":" T "\n"                \
    "    shr (M1, 16) T(0,0)<1> H(0,0)<1;1,0> " SH ":" T "\n"                 \
    "    xor (M1, 16) H(0,0)<1> H(0,0)<1;1,0> T(0,0)<1;1,0>\n"                \
    "    mad (M1, 16) H(0,0)<1> H(0,0)<1;1,0> " MUL2 ":" T " T(0,0)<1;1,0>\n" \
    "    max (M1, 16) T(0,0)<1> H(0,0)<1;1,0> S(0,0)<1;1,0>\n"                \
    "    and (M1, 16) T(0,0)<1> T(0,0)<1;1,0> 0x3f:" T "\n"                   \
    "    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> H(0,0)<1;1,0>\n"                \
    "    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> T(0,0)<1;1,0>\n"                \
    "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"           \
    "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"                        \
    "    (P1) jmp (M1, 1) LOOP\n"                                             \
    "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x40:uq\n"       \
    "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"      \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  H:" ST "\n"                \
    "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x20]:a64  S:" ST "\n"           \
    "    ret (M1, 1)\n"
/* ST: H and S whole (16 lanes of 2 or 1 bytes), no byte past them (initcheck) */
static const char k_int16[] = SMALL_INT("w", "0x6255", "0x3619", "0x5", "0x7", "d32x8t");
static const char k_int8[] = SMALL_INT("ub", "0x6d", "0x25", "0x3", "0x5", "d32x4t");

/* shr reads the source's own width: a logical shift of the 16 (8) bits */
#define NATIVE_SMALL_INT(NAME, T, UT, MUL, ADD, SH, MUL2, OUTSTRIDE)                                        \
    static inline __attribute__((always_inline)) void NAME(uint8_t *out, unsigned groups, int iters) {      \
        for (unsigned g = 0; g < groups; g++) {                                                             \
            T h[16], t[16], s[16];                                                                          \
            for (unsigned i = 0; i < 16; i++) h[i] = (T)(UT)(g * 16 + i), s[i] = 0;                         \
            int cnt = iters;                                                                                \
            do {                                                                                            \
                for (unsigned i = 0; i < 16; i++) h[i] = (T)(UT)((unsigned)h[i] * (MUL));                   \
                for (unsigned i = 0; i < 16; i++) h[i] = (T)(UT)((unsigned)h[i] + (ADD));                   \
                for (unsigned i = 0; i < 16; i++) t[i] = (T)(UT)((UT)h[i] >> (SH));                         \
                for (unsigned i = 0; i < 16; i++) h[i] = (T)(h[i] ^ t[i]);                                  \
                for (unsigned i = 0; i < 16; i++) h[i] = (T)(UT)((unsigned)h[i] * (MUL2) + (unsigned)t[i]); \
                for (unsigned i = 0; i < 16; i++) t[i] = h[i] > s[i] ? h[i] : s[i];                         \
                for (unsigned i = 0; i < 16; i++) t[i] = (T)(t[i] & 0x3f);                                  \
                for (unsigned i = 0; i < 16; i++) s[i] = (T)(UT)((unsigned)s[i] + (unsigned)h[i]);          \
                for (unsigned i = 0; i < 16; i++) s[i] = (T)(UT)((unsigned)s[i] + (unsigned)t[i]);          \
                cnt--;                                                                                      \
            } while (cnt > 0);                                                                              \
            memcpy(out + (size_t)g * (OUTSTRIDE), h, sizeof h);                                             \
            memcpy(out + (size_t)g * (OUTSTRIDE) + 32, s, sizeof s);                                        \
        }                                                                                                   \
    }
NATIVE_SMALL_INT(native_int16_body, int16_t, uint16_t, 0x6255u, 0x3619u, 5, 7u, 64)
NATIVE_SMALL_INT(native_int8_body, uint8_t, uint8_t, 0x6du, 0x25u, 3, 5u, 64)

/* ---------------------------------------------------------------------------------------------
** (8) Source modifiers: f and w operations with (-), (abs) and (-abs) sources.  a_k as in (1).
**     Output: a0..a3 and the w lane values, 320 bytes.
** ------------------------------------------------------------------------------------------- */
static const char k_mods[] = ".version 4.1\n"
                             ".kernel \"mods_loop\"\n"
                             ".decl OUT v_type=G type=uq num_elts=1 align=qword\n"
                             ".decl N v_type=G type=d num_elts=1 align=dword\n"
                             ".decl ADDR v_type=G type=uq num_elts=1 align=qword\n"
                             ".decl G16 v_type=G type=ud num_elts=1 align=dword\n"
                             ".decl ID v_type=G type=ud num_elts=16 align=GRF\n"
                             ".decl X v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl M v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl C v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl A0 v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl A1 v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl A2 v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl A3 v_type=G type=f num_elts=16 align=GRF\n"
                             ".decl W v_type=G type=w num_elts=16 align=GRF\n"
                             ".decl V v_type=G type=w num_elts=16 align=GRF\n"
                             ".decl CNT v_type=G type=d num_elts=1 align=dword\n"
                             ".decl P1 v_type=P num_elts=16\n"
                             ".input OUT offset=64 size=8\n"
                             ".input N offset=72 size=4\n"
                             ".kernel_attr SimdSize=16\n"
                             "    mov (M1, 8) ID(0,0)<1> 0x76543210:uv\n"
                             "    add (M1, 8) ID(0,8)<1> ID(0,0)<1;1,0> 0x8:ud\n"
                             "    mul (M1_NM, 1) G16(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud\n"
                             "    add (M1, 16) ID(0,0)<1> ID(0,0)<1;1,0> G16(0,0)<0;1,0>\n"
                             "    mov (M1, 16) X(0,0)<1> ID(0,0)<1;1,0>\n"
                             "    mov (M1, 16) W(0,0)<1> ID(0,0)<1;1,0>\n"
                             "    mov (M1, 16) V(0,0)<1> 0x3:w\n"
                             "    add (M1, 16) A0(0,0)<1> X(0,0)<1;1,0> 0x0:f\n"
                             "    add (M1, 16) A1(0,0)<1> X(0,0)<1;1,0> 0x3f800000:f\n"
                             "    add (M1, 16) A2(0,0)<1> X(0,0)<1;1,0> 0x40000000:f\n"
                             "    add (M1, 16) A3(0,0)<1> X(0,0)<1;1,0> 0x40400000:f\n"
                             "    mov (M1, 16) M(0,0)<1> 0x3f7fbe77:f\n"
                             "    mul (M1, 16) C(0,0)<1> X(0,0)<1;1,0> 0x3a800000:f\n"
                             "    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x3f000000:f\n"
                             "    mov (M1_NM, 1) CNT(0,0)<1> N(0,0)<0;1,0>\n"
                             "LOOP:\n"
                             "    add (M1, 16) A0(0,0)<1> (-)A0(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                             "    mad (M1, 16) A1(0,0)<1> (abs)A1(0,0)<1;1,0> M(0,0)<1;1,0> (-)C(0,0)<1;1,0>\n"
                             "    mul (M1, 16) A2(0,0)<1> (-abs)A2(0,0)<1;1,0> M(0,0)<1;1,0>\n"
                             "    add (M1, 16) A3(0,0)<1> (abs)A3(0,0)<1;1,0> (-)A0(0,0)<1;1,0>\n"
                             "    add (M1, 16) W(0,0)<1> (-)W(0,0)<1;1,0> V(0,0)<1;1,0>\n"
                             "    mad (M1, 16) A0(0,0)<1> (-)A0(0,0)<1;1,0> (-abs)M(0,0)<1;1,0> C(0,0)<1;1,0>\n"
                             "    add (M1, 16) A2(0,0)<1> (-)A2(0,0)<1;1,0> (abs)A1(0,0)<1;1,0>\n"
                             "    add (M1, 16) V(0,0)<1> (abs)W(0,0)<1;1,0> (-)V(0,0)<1;1,0>\n"
                             "    add (M1_NM, 1) CNT(0,0)<1> CNT(0,0)<0;1,0> 0xffffffff:d\n"
                             "    cmp.gt (M1_NM, 1) P1 CNT(0,0)<0;1,0> 0x0:d\n"
                             "    (P1) jmp (M1, 1) LOOP\n"
                             "    mul (M1_NM, 1) ADDR(0,0)<1> %group_id_x(0,0)<0;1,0> 0x140:uq\n"
                             "    add (M1_NM, 1) ADDR(0,0)<1> ADDR(0,0)<0;1,0> OUT(0,0)<0;1,0>\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR]:a64  A0:d32x16t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x40]:a64  A1:d32x16t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x80]:a64  A2:d32x16t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0xc0]:a64  A3:d32x16t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x100]:a64  W:d32x8t\n"
                             "    lsc_store.ugm (M1_NM, 1)  flat[ADDR+0x120]:a64  V:d32x8t\n"
                             "    ret (M1, 1)\n";

static inline __attribute__((always_inline)) void native_mods_body(uint8_t *out, unsigned groups, int iters) {
    const float m = bits_f(0x3f7fbe77u);
    for (unsigned g = 0; g < groups; g++) {
        float a0[16], a1[16], a2[16], a3[16], c[16];
        int16_t w[16], v[16];
        for (unsigned i = 0; i < 16; i++) {
            float x = (float)(g * 16 + i);
            a0[i] = x + 0.0f;
            a1[i] = x + 1.0f;
            a2[i] = x + 2.0f;
            a3[i] = x + 3.0f;
            c[i] = x * 0x1p-10f;
            c[i] = c[i] + 0.5f;
            w[i] = (int16_t)(g * 16 + i);
            v[i] = 3;
        }
        int cnt = iters;
        do {
            for (unsigned i = 0; i < 16; i++) a0[i] = -a0[i] + c[i];
            for (unsigned i = 0; i < 16; i++) a1[i] = fmaf(fabsf(a1[i]), m, -c[i]);
            for (unsigned i = 0; i < 16; i++) a2[i] = -fabsf(a2[i]) * m;
            for (unsigned i = 0; i < 16; i++) a3[i] = fabsf(a3[i]) + -a0[i];
            for (unsigned i = 0; i < 16; i++) w[i] = (int16_t)(uint16_t)(-(unsigned)w[i] + (unsigned)v[i]);
            for (unsigned i = 0; i < 16; i++) a0[i] = fmaf(-a0[i], -fabsf(m), c[i]);
            for (unsigned i = 0; i < 16; i++) a2[i] = -a2[i] + fabsf(a1[i]);
            for (unsigned i = 0; i < 16; i++)
                v[i] = (int16_t)(uint16_t)((unsigned)(w[i] < 0 ? -w[i] : w[i]) - (unsigned)v[i]);
            cnt--;
        } while (cnt > 0);
        uint8_t *o = out + (size_t)g * 320;
        memcpy(o, a0, 64);
        memcpy(o + 64, a1, 64);
        memcpy(o + 128, a2, 64);
        memcpy(o + 192, a3, 64);
        memcpy(o + 256, w, 32);
        memcpy(o + 288, v, 32);
    }
}

/* Each native kernel is compiled twice: as plain -O2 for the baseline x86-64 (the issue's
** comparison; fmaf is a maths-library call there) and, where the host has AVX2 and FMA, as -O2
** -march with target("avx2,fma") (fmaf inline, 256-bit vectors): the emulator picks its handlers
** for the host's vector units too (VISA_EMU_ISA), so the second column is the stricter one. */
#if defined(__x86_64__) && defined(__GNUC__)
#define NATIVE_HW 1
#define HW_ATTR __attribute__((noinline, target("avx2,fma")))
#else
#define NATIVE_HW 0
#define HW_ATTR __attribute__((noinline))
#endif
typedef void (*native_fn)(uint8_t *out, const float *in, unsigned groups, int iters);
#define NATIVE_PAIR(NAME, CALL)                                                                  \
    __attribute__((noinline)) static void NAME(uint8_t *o, const float *in, unsigned g, int n) { \
        (void)in;                                                                                \
        CALL;                                                                                    \
    }                                                                                            \
    HW_ATTR static void NAME##_hw(uint8_t *o, const float *in, unsigned g, int n) {              \
        (void)in;                                                                                \
        CALL;                                                                                    \
    }
NATIVE_PAIR(native_fma, native_fma_body((float *)(void *)o, g, n))
NATIVE_PAIR(native_hash, native_hash_body((uint32_t *)(void *)o, g, n))
NATIVE_PAIR(native_reduce, native_reduce_body((float *)(void *)o, in, g, n))
NATIVE_PAIR(native_hfma, native_hfma_body((uint16_t *)(void *)o, g, n))
NATIVE_PAIR(native_bfma, native_bfma_body((uint16_t *)(void *)o, g, n))
NATIVE_PAIR(native_int16, native_int16_body(o, g, n))
NATIVE_PAIR(native_int8, native_int8_body(o, g, n))
NATIVE_PAIR(native_mods, native_mods_body(o, g, n))

static int host_has_fma(void) {
#if NATIVE_HW
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* -- Harness -------------------------------------------------------------------------------- */
enum { K_FMA, K_HASH, K_REDUCE, K_HFMA, K_BFMA, K_INT16, K_INT8, K_MODS, K__COUNT };

typedef struct kernel_def {
    const char *name, *what, *text;
    unsigned groups; /* emulated threads per run (one per group) */
    int iters; /* loop trips per thread */
    size_t out_bytes; /* per thread */
    int floats; /* output is float (report the first mismatch as float) */
    native_fn native, native_hw;
} kernel_def;

static const kernel_def kernels[K__COUNT] = {
    {"fma", "mad f, 4 accumulators", k_fma, 32, 2000, 256, 1, native_fma, native_fma_hw},
    {"hash", "fmix32 ud shr/xor/mul", k_hash, 32, 2000, 128, 0, native_hash, native_hash_hw},
    {"reduce", "256-float region tree", k_reduce, 32, 1000, 128, 1, native_reduce, native_reduce_hw},
    {"hfma", "mad hf, 4 accumulators", k_hfma, 32, 2000, 128, 0, native_hfma, native_hfma_hw},
    {"bfma", "mad bf, 4 accumulators", k_bfma, 32, 2000, 128, 0, native_bfma, native_bfma_hw},
    {"int16", "w mul/add/shr/xor/mad/max", k_int16, 32, 2000, 64, 0, native_int16, native_int16_hw},
    {"int8", "ub mul/add/shr/xor/mad/max", k_int8, 32, 2000, 64, 0, native_int8, native_int8_hw},
    {"mods", "f/w ops, (-) (abs) (-abs)", k_mods, 32, 2000, 320, 0, native_mods, native_mods_hw},
};

typedef struct result {
    uint64_t instr; /* vISA instructions per run */
    double emu_s, native_s, hw_s; /* seconds per run (hw_s: native on the FMA unit, or 0) */
    int emu_runs, native_runs, hw_runs;
    int ok;
    double obs_s; /* seconds per run with a no-op observer (docs/observe.md) */
    double chk_s[4]; /* seconds per run under each check (VISA_CHECK_* bit k); < 0: it found something */
} result;

/* A no-op observer: what observation itself costs (every instruction event built, nothing done). */
static void noop_inst(void *ud, const visa_inst_event *e) { (void)ud, (void)e; }
static void noop_mem(void *ud, const visa_mem_event *e) { (void)ud, (void)e; }

static double g_min_seconds = 0.5;
static volatile uint32_t g_sink; /* keeps every native result observable */

static void diag_print(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, d->code, d->message);
}

static uint32_t fold(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void native_run(int k, int hw, uint8_t *out, const float *in, unsigned groups, int iters) {
    (hw ? kernels[k].native_hw : kernels[k].native)(out, in, groups, iters);
}

/* Compare emulated and native outputs; print the first difference. */
static int same(const kernel_def *kd, const uint8_t *emu, const uint8_t *nat, size_t bytes) {
    if (!memcmp(emu, nat, bytes)) return 1;
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        uint32_t a, b;
        memcpy(&a, emu + i, 4);
        memcpy(&b, nat + i, 4);
        if (a == b) continue;
        if (kd->floats)
            printf("  %s: MISMATCH at thread %zu word %zu: emulated %a (0x%08x), native %a (0x%08x)\n", kd->name,
                   i / kd->out_bytes, i % kd->out_bytes / 4, (double)bits_f(a), a, (double)bits_f(b), b);
        else
            printf("  %s: MISMATCH at thread %zu word %zu: emulated 0x%08x, native 0x%08x\n", kd->name,
                   i / kd->out_bytes, i % kd->out_bytes / 4, a, b);
        break;
    }
    return 0;
}

static int bench_kernel(visa_ctx *ctx, int k, int hw, result *res) {
    const kernel_def *kd = &kernels[k];
    memset(res, 0, sizeof *res);
    visa_module *m = NULL;
    if (visa_module_parse_text(ctx, kd->name, kd->text, strlen(kd->text), VISA_PLATFORM_XE2, &m) != VISA_OK) {
        printf("  %s: the kernel text does not parse\n", kd->name);
        return 0;
    }
    size_t bytes = kd->out_bytes * kd->groups;
    uint8_t *emu_out = calloc(1, bytes), *nat_out = calloc(1, bytes);
    float *in = NULL;
    size_t in_bytes = 0;
    if (k == K_REDUCE) {
        /* 256 floats per thread in [0.5, 1.5), 24 random mantissa bits (fixed seed) */
        in_bytes = (size_t)kd->groups * 256 * sizeof(float);
        in = malloc(in_bytes);
        uint32_t x = 0x12345678u;
        for (size_t i = 0; in && i < (size_t)kd->groups * 256; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            in[i] = 0.5f + (float)(x >> 8) * 0x1p-24f;
        }
    }
    if (!emu_out || !nat_out || (k == K_REDUCE && !in)) {
        printf("  %s: out of memory\n", kd->name);
        free(emu_out), free(nat_out), free(in);
        visa_module_destroy(m);
        return 0;
    }
    visa_buffer bufs[2] = {{emu_out, bytes}, {(uint8_t *)in, in_bytes}};
    visa_arg args[3];
    memset(args, 0, sizeof args);
    size_t nargs = 0;
    args[nargs].kind = VISA_ARG_BUFFER, args[nargs++].buffer = 0;
    if (k == K_REDUCE) args[nargs].kind = VISA_ARG_BUFFER, args[nargs++].buffer = 1;
    args[nargs].kind = VISA_ARG_SCALAR, args[nargs++].value = (uint64_t)kd->iters;
    visa_run_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.platform = VISA_PLATFORM_XE2;
    opts.groups[0] = kd->groups;
    opts.threads = 1;
    opts.max_steps = 1000000000ull;
    visa_run_stats st;

    /* correctness first: one run each, bit-exact comparison */
    visa_status s = visa_module_run(m, &opts, args, nargs, bufs, k == K_REDUCE ? 2 : 1, &st);
    if (s != VISA_OK) {
        printf("  %s: visa_module_run failed: %s\n", kd->name, visa_status_str(s));
        free(emu_out), free(nat_out), free(in);
        visa_module_destroy(m);
        return 0;
    }
    res->instr = st.instructions;
    volatile int iters_v = kd->iters; /* the native trip count is not a compile-time constant */
    native_run(k, 0, nat_out, in, kd->groups, iters_v);
    res->ok = same(kd, emu_out, nat_out, bytes);
    if (hw) {
        native_run(k, 1, nat_out, in, kd->groups, iters_v);
        res->ok &= same(kd, emu_out, nat_out, bytes);
    }

    /* Timing: rounds of about 0.1 s of emulated runs then 0.1 s of native runs, until each side
    ** has at least g_min_seconds, so both sides see the same machine load on average.  Every
    ** native result is folded into a sink. */
    double slice = g_min_seconds < 0.1 ? g_min_seconds : 0.1, emu_total = 0, nat_total = 0, hw_total = 0;
    uint32_t h = 0;
    do {
        double t0 = now(), t;
        do {
            s = visa_module_run(m, &opts, args, nargs, bufs, k == K_REDUCE ? 2 : 1, &st);
            res->emu_runs++;
            t = now();
        } while (s == VISA_OK && st.instructions == res->instr && t - t0 < slice);
        emu_total += t - t0;
        if (s != VISA_OK || st.instructions != res->instr) {
            res->ok = 0;
            break;
        }
        for (int side = 0; side <= hw; side++) {
            t0 = now();
            do {
                native_run(k, side, nat_out, in, kd->groups, iters_v);
                h ^= fold(nat_out, 64);
                if (side) res->hw_runs++;
                else res->native_runs++;
                t = now();
            } while (t - t0 < slice);
            *(side ? &hw_total : &nat_total) += t - t0;
        }
    } while (emu_total < g_min_seconds || nat_total < g_min_seconds || (hw && hw_total < g_min_seconds));
    res->emu_s = emu_total / res->emu_runs;
    res->native_s = res->native_runs ? nat_total / res->native_runs : 1e30;
    res->hw_s = res->hw_runs ? hw_total / res->hw_runs : 0;
    g_sink ^= h;
    /* the same kernel under a no-op observer, for a third of the time (its cost, not a target) */
    visa_observer ob;
    memset(&ob, 0, sizeof ob);
    ob.struct_size = sizeof ob;
    ob.on_inst = noop_inst;
    ob.on_mem = noop_mem;
    opts.observer = &ob;
    int obs_runs = 0;
    double t0 = now(), t1 = t0;
    do {
        s = visa_module_run(m, &opts, args, nargs, bufs, k == K_REDUCE ? 2 : 1, &st);
        obs_runs++;
        t1 = now();
    } while (s == VISA_OK && t1 - t0 < g_min_seconds / 3);
    if (s != VISA_OK || st.instructions != res->instr) res->ok = 0;
    res->obs_s = (t1 - t0) / obs_runs;
    opts.observer = NULL;
    /* each run check on its own (docs/observe.md, "Run checks"): its cost, not a target */
    for (int c = 0; c < 4; c++) {
        opts.checks = 1u << c;
        int runs = 0;
        t0 = now();
        do {
            s = visa_module_run(m, &opts, args, nargs, bufs, k == K_REDUCE ? 2 : 1, &st);
            runs++;
            t1 = now();
        } while (s == VISA_OK && t1 - t0 < g_min_seconds / 6);
        res->chk_s[c] = s == VISA_OK ? (t1 - t0) / runs : -1;
    }
    opts.checks = 0;
    /* and once more: the outputs after timing still agree */
    if (res->ok && !same(kd, emu_out, nat_out, bytes)) res->ok = 0;

    free(emu_out), free(nat_out), free(in);
    visa_module_destroy(m);
    return 1;
}

int main(int argc, char **argv) {
    int want[K__COUNT] = {0}, any = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seconds") && a + 1 < argc) {
            g_min_seconds = atof(argv[++a]);
            continue;
        }
        int found = 0;
        for (int k = 0; k < K__COUNT; k++)
            if (!strcmp(argv[a], kernels[k].name)) want[k] = found = any = 1;
        if (!found) {
            fprintf(stderr, "usage: bench_emu [--seconds S] [fma|hash|reduce|hfma|bfma|int16|int8|mods]...\n");
            return 2;
        }
    }
    if (!any)
        for (int k = 0; k < K__COUNT; k++) want[k] = 1;

    visa_ctx_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.on_diag = diag_print;
    visa_ctx *ctx;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;

    printf("bench_emu: SIMD16 kernels, %s GRF, 1 host thread, >= %.2f s per side; targets: >= %.0f M "
           "vISA instr/s, <= %.0fx native time\n",
           visa_platform_name(VISA_PLATFORM_XE2), g_min_seconds, TARGET_MIPS, TARGET_RATIO);
    int hw = host_has_fma();
    printf("native: plain -O2 (baseline x86-64, the targets' reference)%s\n",
           hw ? "; hw: -O2 with target(\"avx2,fma\")" : "; no AVX2+FMA");
    printf("%-7s %-24s %8s %12s %10s %9s %11s %9s %9s %9s  %s\n", "kernel", "what", "threads", "instr/run", "emu ms",
           "M instr/s", "native ms", "emu/nat", "hw ms", "emu/hw", "check / targets");
    int failed = 0, n = 0;
    double min_mips = 1e30, max_mips = 0, min_ratio = 1e30, max_ratio = 0, max_hw = 0;
    char missing[256] = "";
    double emu_s_of[K__COUNT] = {0};
    for (int k = 0; k < K__COUNT; k++) {
        if (!want[k]) continue;
        result r;
        if (!bench_kernel(ctx, k, hw, &r)) {
            failed++;
            continue;
        }
        const kernel_def *kd = &kernels[k];
        emu_s_of[k] = r.emu_s;
        double mips = (double)r.instr / r.emu_s / 1e6, ratio = r.emu_s / r.native_s;
        int slow = mips<TARGET_MIPS, far = ratio> TARGET_RATIO;
        char hwms[32] = "-", hwratio[32] = "-";
        if (r.hw_s > 0) {
            snprintf(hwms, sizeof hwms, "%.3f", r.hw_s * 1e3);
            snprintf(hwratio, sizeof hwratio, "%.2fx", r.emu_s / r.hw_s);
            if (r.emu_s / r.hw_s > max_hw) max_hw = r.emu_s / r.hw_s;
        }
        printf("%-7s %-24s %8u %12llu %10.3f %9.1f %11.3f %8.2fx %9s %9s  %s%s%s\n", kd->name, kd->what, kd->groups,
               (unsigned long long)r.instr, r.emu_s * 1e3, mips, r.native_s * 1e3, ratio, hwms, hwratio,
               r.ok ? "agree" : "DIFFER", slow ? ", MISS instr/s" : "", far ? ", MISS ratio" : "");
        printf("%-7s   with a no-op observer: %.3f ms per run, %.1f M instr/s (%.2fx the unobserved time)\n", kd->name,
               r.obs_s * 1e3, (double)r.instr / r.obs_s / 1e6, r.obs_s / r.emu_s);
        static const char *const check_names[4] = {"memcheck", "initcheck", "racecheck", "synccheck"};
        printf("%-7s   --check:", kd->name);
        for (int c = 0; c < 4; c++) {
            if (r.chk_s[c] < 0) printf(" %s FOUND SOMETHING", check_names[c]);
            else printf(" %s %.2fx", check_names[c], r.chk_s[c] / r.emu_s);
        }
        printf(" (the unchecked time)\n");
        if (!r.ok) failed++;
        if (slow || far) {
            size_t l = strlen(missing);
            snprintf(missing + l, sizeof missing - l, "%s%s(%s%s%s)", l ? " " : "", kd->name, slow ? "instr/s" : "",
                     slow && far ? "," : "", far ? "ratio" : "");
        }
        n++;
        if (mips < min_mips) min_mips = mips;
        if (mips > max_mips) max_mips = mips;
        if (ratio < min_ratio) min_ratio = ratio;
        if (ratio > max_ratio) max_ratio = ratio;
    }
    /* hf and bf beside f: the same loop, so the time ratio is the cost of the narrow type */
    for (int k = 0; k < K__COUNT; k++) {
        if ((k != K_HFMA && k != K_BFMA) || !emu_s_of[k] || !emu_s_of[K_FMA]) continue;
        double x = emu_s_of[k] / emu_s_of[K_FMA];
        printf("%-7s   %.2fx the time of fma on f (target <= %.1fx)%s\n", kernels[k].name, x, TARGET_NARROW,
               x > TARGET_NARROW ? ", MISS" : "");
        if (x > TARGET_NARROW) {
            size_t l = strlen(missing);
            snprintf(missing + l, sizeof missing - l, "%s%s(vs f)", l ? " " : "", kernels[k].name);
        }
    }
    if (n)
        printf("summary: %d kernels, %s; emulated %.1f..%.1f M vISA instr/s (target >= %.0f), "
               "%.2fx..%.2fx native -O2 time (target <= %.0fx); missing targets: %s; "
               "at most %.2fx the FMA-unit native time\n",
               n, failed ? "RESULTS DIFFER" : "all agree with native", min_mips, max_mips, TARGET_MIPS, min_ratio,
               max_ratio, TARGET_RATIO, missing[0] ? missing : "none", max_hw);
    else printf("summary: no kernel ran\n");
    visa_ctx_destroy(ctx);
    return failed ? 1 : 0;
}
