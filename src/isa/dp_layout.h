/* dp_layout.h -- where each field of a legacy data-port, SVM and raw-send instruction is stored:
** operand indices (after the E, P and sub-opcode bytes) in the layouts of ops.def, named after
** the fields of each page's Format table.  The text hooks, the emulator and the verifier (with
** opfacts.def's VISA_SURFACE_OPND / VISA_MSG_FIELD rows) address these fields through the names
** below, so each layout is described once; tests/unit/test_isa_table.c checks every name against
** the operand kind of its layout string.  Companion of lsc_layout.h. */
#ifndef VISA_ISA_DP_LAYOUT_H
#define VISA_ISA_DP_LAYOUT_H

/* OWORD_LD, OWORD_LD_UNALIGNED "bbbVR" */
enum { OWLD_SIZE, OWLD_MOD, OWLD_SURF, OWLD_OFF, OWLD_DST };
/* OWORD_ST "bbVR" */
enum { OWST_SIZE, OWST_SURF, OWST_OFF, OWST_SRC };
/* MEDIA_LD, MEDIA_ST "bbbbbVVR" (DATA: Dst of MEDIA_LD, Src of MEDIA_ST) */
enum { MD_MODE, MD_SURF, MD_PLANE, MD_W, MD_H, MD_X, MD_Y, MD_DATA };
/* GATHER "bbbbVRR" (Num_elts also carries the exec size and mask) */
enum { GA_ESIZE, GA_MOD, GA_NELTS, GA_SURF, GA_GOFF, GA_EOFF, GA_DST };
/* SCATTER "bbbVRR" */
enum { SC_ESIZE, SC_NELTS, SC_SURF, SC_GOFF, SC_EOFF, SC_SRC };
/* GATHER4_TYPED, SCATTER4_TYPED "EPbbRRRRR" */
enum { TY_CHM, TY_SURF, TY_U, TY_V, TY_R, TY_LOD, TY_DATA };
/* GATHER4_SCALED, SCATTER4_SCALED "EPbwbVRR" */
enum { G4_CHM, G4_SCALE, G4_SURF, G4_GOFF, G4_EOFF, G4_DATA };
/* GATHER_SCALED, SCATTER_SCALED "EPbbwbVRR" */
enum { GS_BSIZE, GS_NBLK, GS_SCALE, GS_SURF, GS_GOFF, GS_EOFF, GS_DATA };
/* DWORD_ATOMIC "bEPbRRRR" */
enum { DA_OP, DA_SURF, DA_EOFF, DA_SRC0, DA_SRC1, DA_DST };
/* TYPED_ATOMIC "bEPbRRRRRRR" */
enum { TA_OP, TA_SURF, TA_U, TA_V, TA_R, TA_LOD, TA_SRC0, TA_SRC1, TA_DST };
/* QW_GATHER, QW_SCATTER "EPbbRR" */
enum { QW_NBLK, QW_SURF, QW_OFF, QW_DATA };
/* SVM_BLOCK_LD, SVM_BLOCK_ST "bVR" */
enum { SB_PROPS, SB_ADDR, SB_DATA };
/* SVM_GATHER, SVM_SCATTER "EPbbRR" */
enum { SG_BSIZE, SG_NBLK, SG_ADDRS, SG_DATA };
/* SVM_ATOMIC "EPbRRRR" */
enum { SA_OP, SA_ADDRS, SA_SRC0, SA_SRC1, SA_DST };
/* SVM_GATHER4SCALED, SVM_SCATTER4SCALED "EPbwVRR" */
enum { S4_CHM, S4_SCALE, S4_ADDR, S4_EOFF, S4_DATA };

/* RAW_SEND "bEPdbbVRR" */
enum { RSEND_MOD, RSEND_EXDESC, RSEND_NSRC, RSEND_NDST, RSEND_DESC, RSEND_SRC, RSEND_DST };
/* RAW_SENDS "bEPbbbbVVRRR": the binary order (the page's Format table puts SFID first) */
enum {
    RSENDS_MOD,
    RSENDS_NSRC0,
    RSENDS_NSRC1,
    RSENDS_NDST,
    RSENDS_SFID,
    RSENDS_EXDESC,
    RSENDS_DESC,
    RSENDS_SRC0,
    RSENDS_SRC1,
    RSENDS_DST
};
/* RAW_SENDG "bEdPRdRdRdVVdd": byte lengths follow their operands; the descriptor is two ud halves */
enum {
    RSENDG_MOD,
    RSENDG_SFID,
    RSENDG_DST,
    RSENDG_DST_LEN,
    RSENDG_SRC0,
    RSENDG_SRC0_LEN,
    RSENDG_SRC1,
    RSENDG_SRC1_LEN,
    RSENDG_IND0,
    RSENDG_IND1,
    RSENDG_DESC_LO,
    RSENDG_DESC_HI
};

#endif
