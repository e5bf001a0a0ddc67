/* typesets.h -- type-set ids used by the table's typeset column.  Until typemaps.def (the
** per-set legal type maps) is merged, the ids are declared here without their maps. */
#ifndef VISA_TYPESETS_H
#define VISA_TYPESETS_H
typedef enum isa_typeset {
    TM_NONE, TM_ADDR, TM_ARITH_ADD, TM_ARITH_MAD, TM_BFN, TM_BITCOUNT, TM_CMP, TM_DIV, TM_DP4A,
    TM_FBH, TM_FCVT, TM_F_ONLY, TM_INT32, TM_INT_ADD3, TM_INT_AVG, TM_INT_DIVMOD, TM_LOGIC,
    TM_MADW, TM_MATH_F_DF, TM_MATH_HF_F, TM_MATH_HF_F_DF, TM_MINMAX, TM_MOV, TM_MOVS,
    TM_NBARRIER, TM_ROTATE, TM_ROUND, TM_SAD, TM_SEL, TM_SEND_DESC, TM_SETP, TM_SHIFT, TM_SRND,
    TM_SWITCHJMP, TM_UD_ONLY, TM_WAIT, TM__COUNT
} isa_typeset;
#endif
