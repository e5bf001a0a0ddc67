/* test_region.c -- visa_region_layout against the operands chapter (5_operands): the worked
** examples of its two figures (images/fig3.svg, fig4.svg: each lane's byte written down here by
** hand from the figure), the example of `visa region --help`, and the Region Restrictions each
** broken once.  The GRF is 32 bytes (XeHPG) in the figures' examples, as the figures draw it.
*/
#include "../harness.h"
#include "visa/visa.h"

static char last_code[32];
static uint32_t last_col;

static void on_diag(void *ud, const visa_diag *d) {
    (void)ud;
    snprintf(last_code, sizeof last_code, "%s", d->code);
    last_col = d->col;
}

static visa_ctx *ctx;

static visa_status layout(const char *opnd, const char *type, unsigned exec, visa_platform p, const uint32_t *addrs,
                          size_t naddrs, visa_region *r) {
    visa_region_opts o = {sizeof o, type, exec, p, addrs, naddrs};
    r->struct_size = sizeof *r;
    last_code[0] = 0;
    last_col = 0;
    return visa_region_layout(ctx, opnd, &o, r);
}

/* The lanes land on `want` (bytes), and no rule is broken. */
static void expect_lanes(const char *name, const char *opnd, const char *type, unsigned exec, visa_platform p,
                         const uint32_t *addrs, size_t naddrs, const int64_t *want) {
    CASE_BEGIN();
    visa_region r;
    visa_status st = layout(opnd, type, exec, p, addrs, naddrs, &r);
    CHECKF(st == VISA_OK, "%s: status %d", opnd, (int)st);
    if (st == VISA_OK) {
        CHECK(r.exec_size == exec);
        for (unsigned i = 0; i < exec; i++)
            CHECKF(r.lane_byte[i] == want[i], "%s lane %u: byte %lld, want %lld", opnd, i, (long long)r.lane_byte[i],
                   (long long)want[i]);
        CHECKF(r.nbroken == 0, "%s: %u rules broken (%s)", opnd, r.nbroken, r.nbroken ? r.broken[0].id : "");
    }
    CASE_END(name);
}

/* The operand breaks exactly the rules `ids` (space separated, in order). */
static void expect_broken(const char *name, const char *opnd, const char *type, unsigned exec, visa_platform p,
                          const char *ids) {
    CASE_BEGIN();
    visa_region r;
    visa_status st = layout(opnd, type, exec, p, NULL, 0, &r);
    CHECKF(st == VISA_OK, "%s: status %d", opnd, (int)st);
    if (st == VISA_OK) {
        char got[256] = "";
        for (uint32_t i = 0; i < r.nbroken; i++) {
            if (i) strcat(got, " ");
            strcat(got, r.broken[i].id);
            CHECK(r.broken[i].message[0] != 0);
        }
        CHECKF(!strcmp(got, ids), "%s: broken '%s', want '%s'", opnd, got, ids);
    }
    CASE_END(name);
}

int main(void) {
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, NULL, 0};
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;
    const visa_platform HPG = VISA_PLATFORM_XEHPG, XE2 = VISA_PLATFORM_XE2;

    /* Figure 3: add(16) V3(0,0)<2> V1(0,1)<16;8,2> V2(1,0)<0;1,0>.  V1 (ub): the yellow cells
    ** are the odd bytes of both 16-byte rows drawn; V2 (ub): every lane reads the one purple
    ** byte, the first of the second GRF (row 1); V3 (w): the red words are every other word. */
    static const int64_t fig3_v1[16] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
    static const int64_t fig3_v2[16] = {32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32};
    static const int64_t fig3_v3[16] = {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60};
    expect_lanes("fig3 V1", "V1(0,1)<16;8,2>", "ub", 16, HPG, NULL, 0, fig3_v1);
    expect_lanes("fig3 V2", "V2(1,0)<0;1,0>", "ub", 16, HPG, NULL, 0, fig3_v2);
    expect_lanes("fig3 V3", "V3(0,0)<2>", "w", 16, HPG, NULL, 0, fig3_v3);

    /* Figure 4: add(4) V3(0,0)<1> r[A0(0),0]<4;4,1> r[A1(0),0]<1,0>, f.  A0(0) points at V1's
    ** third float (byte 8): four consecutive floats.  A1's four elements point at one float each
    ** of V2: the second of its first row, the last of its second, the third of its third, the
    ** second of its fourth (16-byte rows drawn): bytes 4, 28, 40, 52. */
    static const uint32_t a0[1] = {8}, a1[4] = {4, 28, 40, 52};
    static const int64_t fig4_v1[4] = {8, 12, 16, 20}, fig4_v2[4] = {4, 28, 40, 52}, fig4_v3[4] = {0, 4, 8, 12};
    expect_lanes("fig4 V1", "r[A0(0),0]<4;4,1>:f", NULL, 4, HPG, a0, 1, fig4_v1);
    expect_lanes("fig4 V2", "r[A1(0),0]<1,0>:f", NULL, 4, HPG, a1, 4, fig4_v2);
    expect_lanes("fig4 V3", "V3(0,0)<1>", "f", 4, HPG, NULL, 0, fig4_v3);
    /* the indirect offset adds to the address: A0(0) = 8, +8 bytes */
    static const int64_t ind_off[4] = {16, 20, 24, 28};
    expect_lanes("indirect offset", "r[A0(0),8]<4;4,1>:f", "f", 4, HPG, a0, 1, ind_off);

    /* V(1,2)<8;4,2>, w, SIMD16 on Xe2 (64-byte GRF): origin 64 + 2*2 = 68; rows of 4 words
    ** 2 words apart, rows 8 words (16 bytes) apart */
    static const int64_t help_ex[16] = {68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124, 128};
    expect_lanes("V(1,2)<8;4,2> Xe2", "V(1,2)<8;4,2>", "w", 16, XE2, NULL, 0, help_ex);
    /* a modifier and a trailing :type are part of the text syntax */
    static const int64_t neg[8] = {0, 4, 8, 12, 16, 20, 24, 28};
    expect_lanes("(-) and :d", "(-)V(0,0)<8;8,1>:d", NULL, 8, XE2, NULL, 0, neg);

    /* Region Restrictions, each broken: the verifier's rule ids */
    expect_broken("rule 6: 3 GRFs", "V(1,2)<8;4,2>", "w", 16, HPG, "V-REGION-GRF-SPAN"); /* bytes 36..97 */
    expect_broken("rule 4: width > exec", "V(0,0)<8;16,1>", "d", 8, XE2, "V-REGION-EXEC");
    expect_broken("rule 1: width 0", "V(0,0)<0;0,1>", "d", 8, XE2, "V-REGION-WIDTH");
    expect_broken("rule 5: dst hstride 0", "V(0,0)<0>", "w", 8, XE2, "V-REGION-DST-HSTRIDE");
    expect_broken("rule 2: null vstride (direct)", "V(0,0)<4,1>", "w", 8, XE2, "V-REGION-VSTRIDE");
    expect_broken("column past the GRF", "V(0,20)<1;1,0>", "d", 1, HPG, "V-REGION-COL");
    expect_broken("rule 4: one row of 8", "V(0,0)<32;16,1>", "d", 8, HPG, "V-REGION-EXEC");
    expect_broken("vstride 32 over 4 rows", "V(0,0)<32;2,1>", "b", 8, HPG, "V-REGION-GRF-SPAN");
    expect_broken("broadcast is legal", "V(3,7)<0;1,0>", "df", 32, XE2, "");
    expect_broken("2 GRFs exactly", "V(0,0)<8;8,1>", "f", 16, HPG, "");

    /* malformed text: E-SYNTAX at the column the parser stopped at */
    CASE_BEGIN();
    visa_region r;
    CHECK(layout("V(1,2)<8;4,2", "w", 16, XE2, NULL, 0, &r) == VISA_E_SYNTAX);
    CHECK(!strcmp(last_code, "E-SYNTAX") && last_col == 13);
    CHECK(layout("V(0,0)<8;8,8>", "w", 8, XE2, NULL, 0, &r) == VISA_E_SYNTAX); /* HorzStride 8 */
    CHECK(last_col == 12);
    CHECK(layout("V(0,0)<8;8,1> junk", "w", 8, XE2, NULL, 0, &r) == VISA_E_SYNTAX);
    CHECK(last_col == 15);
    CHECK(layout("7:w", "w", 8, XE2, NULL, 0, &r) == VISA_E_SYNTAX);
    CHECK(layout("V(0,0)\n<1>", "w", 8, XE2, NULL, 0, &r) == VISA_E_SYNTAX);
    CASE_END("syntax errors");

    /* bad arguments: VISA_E_ARG with a diagnostic */
    CASE_BEGIN();
    CHECK(layout("V(0,0)<1>", "w", 12, XE2, NULL, 0, &r) == VISA_E_ARG && last_code[0]);
    CHECK(layout("V(0,0)<1>", "nope", 8, XE2, NULL, 0, &r) == VISA_E_ARG);
    CHECK(layout("V(0,0)<1>", NULL, 8, XE2, NULL, 0, &r) == VISA_E_ARG); /* no type at all */
    CHECK(layout("V(0,0)<1>", "vf", 8, XE2, NULL, 0, &r) == VISA_E_ARG); /* an immediate type */
    CHECK(layout("r[A0(0),0]<1>:f", "d", 8, XE2, NULL, 0, &r) == VISA_E_ARG); /* types disagree */
    CHECK(layout("r[A0(0),0]<2,1>:f", NULL, 8, XE2, a1, 3, &r) == VISA_E_ARG); /* 4 rows, 3 addresses */
    visa_region_opts o = {sizeof o, "w", 8, XE2, NULL, 0};
    r.struct_size = sizeof r - 1;
    CHECK(visa_region_layout(ctx, "V(0,0)<1>", &o, &r) == VISA_E_ARG);
    r.struct_size = sizeof r;
    o.struct_size = 4;
    CHECK(visa_region_layout(ctx, "V(0,0)<1>", &o, &r) == VISA_E_ARG);
    CHECK(visa_region_layout(NULL, "V(0,0)<1>", &o, &r) == VISA_E_ARG);
    CASE_END("bad arguments");

    visa_ctx_destroy(ctx);
    return th_finish();
}
