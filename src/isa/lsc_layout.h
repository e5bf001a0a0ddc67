/* lsc_layout.h -- where each field of an LSC instruction is stored: operand indices (after the
** E, P and sub-opcode bytes) in the LSC_* layouts of ops.def.  The text hooks, the emulator and
** the verifier all address LSC fields through these, so the layouts are described once. */
#ifndef VISA_ISA_LSC_LAYOUT_H
#define VISA_ISA_LSC_LAYOUT_H

/* LSC_U_GEN, LSC_U_STRIDED (strided: U_SRC0 = address base, U_SRC1 = pitch, U_SRC2 = store data) */
enum {
    U_SFID,
    U_L1,
    U_L3,
    U_AT,
    U_SCALE,
    U_OFF,
    U_AS,
    U_DS,
    U_ORD,
    U_ELEMS,
    U_CHM,
    U_SURF,
    U_SIDX,
    U_DST,
    U_SRC0,
    U_SRC1,
    U_SRC2
};
/* LSC_U_BLOCK2D */
enum {
    B_SFID,
    B_L1,
    B_L3,
    B_DS,
    B_ORD,
    B_BLOCKS,
    B_W,
    B_H,
    B_VNNI,
    B_DST,
    B_BASE,
    B_SW,
    B_SH,
    B_SP,
    B_X,
    B_XOFF,
    B_Y,
    B_YOFF,
    B_SRC1
};
/* LSC_U_APNDCTR */
enum { A_SFID, A_L1, A_L3, A_AT, A_DS, A_ORD, A_ELEMS, A_CHM, A_SURF, A_SIDX, A_DST, A_SRC };
/* LSC_T_GEN */
enum {
    T_L1,
    T_L3,
    T_AT,
    T_AS,
    T_DS,
    T_ORD,
    T_ELEMS,
    T_CHM,
    T_SURF,
    T_SIDX,
    T_DST,
    T_U,
    T_UOFF,
    T_V,
    T_VOFF,
    T_R,
    T_ROFF,
    T_LOD,
    T_SRC1,
    T_SRC2
};
/* LSC_T_BLOCK2D */
enum { TB_L1, TB_L3, TB_AT, TB_W, TB_H, TB_SURF, TB_SIDX, TB_DST, TB_X, TB_XOFF, TB_Y, TB_YOFF, TB_SRC1 };
/* LSC_FENCE */
enum { F_SFID, F_OP, F_SCOPE };

#endif
