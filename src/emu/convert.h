/* convert.h -- exact type conversion and arithmetic-semantics helpers of the emulator: every
** vISA scalar type to every other (spec 2_datatypes "Type Conversion", "Saturation"), half /
** bfloat16 / tf32 / fp8 rounding in the four IEEE modes, float -> integer clamping, integer
** saturation and wrapping from an overflow-safe wide intermediate, and the %cr0 control-register
** fields (spec 4_visa_header, V14 %cr0).
**
** Everything is bit-exact integer arithmetic on bit patterns: the host FPU, its rounding mode and
** its denormal handling are never used.  No global mutable state, no allocation.
**
** Values travel as raw bit patterns (uint16_t for HF/BF, uint32_t for F/TF32, uint64_t for DF,
** uint8_t for HF8/BF8), so signalling NaNs survive host calling conventions.
**
** NaN rule: a NaN result is the source NaN made quiet (top fraction bit set), keeping the sign
** and as many high payload bits as the destination holds (low bits dropped, zeros appended).
** HF8 (E4M3, no infinity) has one NaN per sign, S.1111.111; it also stands for overflow.
**
** Types without a conversion here: BOOL, the packed immediates V/UV/VF (see emu_*_elem) and
** E2M1 (not defined by the spec).
*/
#ifndef VISA_EMU_CONVERT_H
#define VISA_EMU_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"

/* -- Rounding modes and conversion flags ------------------------------------------------------ */
/* Rounding mode; the values are the %cr0 bits 5:4 encoding. */
typedef enum emu_round {
    EMU_RNE = 0, /* round to nearest, ties to even */
    EMU_RU = 1, /* round up, toward +inf */
    EMU_RD = 2, /* round down, toward -inf */
    EMU_RTZ = 3 /* round toward zero */
} emu_round;

/* Conversion flags (uint32_t): a rounding mode in bits 1:0 plus these bits. */
enum {
    EMU_CVT_RM_MASK = 0x3u, /* emu_round; used by float->float and int->float only */
    EMU_CVT_SAT = 1u << 2, /* saturate: ints to the dst range, floats to [0.0, 1.0] */
    EMU_CVT_FTZ_IN = 1u << 3, /* flush a denormal float source to signed zero */
    EMU_CVT_FTZ_OUT = 1u << 4, /* flush a denormal float result (after rounding) to signed zero */
    EMU_CVT_SATFINITE = 1u << 5 /* float dst: +-inf results (overflow or inf source) become
                                   +-max finite (ALT mode for F; the "_sat" fp8 conversions) */
};

/* -- %cr0 (spec 4_visa_header.md, predefined variable V14 %cr0) --------------------------------
** bit 0      F mode: 0 IEEE, 1 ALT (+-inf results flushed to +-fmax)
** bits 5:4   FPU rounding mode: 00 RTNE, 01 RU, 10 RD, 11 RTZ
** bit 6      DF denorm mode: 0 flush denorms to zero, 1 allow
** bit 7      F denorm mode:  0 flush, 1 allow
** bit 10     HF denorm mode: 0 flush, 1 allow
** All other bits are reserved. */
#define EMU_CR0_ALT_F 0x001u
#define EMU_CR0_RM_SHIFT 4
#define EMU_CR0_RM_MASK 0x030u
#define EMU_CR0_DF_DENORM 0x040u
#define EMU_CR0_F_DENORM 0x080u
#define EMU_CR0_HF_DENORM 0x400u
#define EMU_CR0_DEFINED_BITS 0x4F1u

/* Rounding mode of %cr0 (bits 5:4). */
emu_round emu_cr0_round(uint32_t cr0);
/* True if %cr0 selects ALT mode for F (bit 0). */
bool emu_cr0_alt(uint32_t cr0);
/* True if %cr0 keeps denormals of float type t (DF bit 6, F bit 7, HF bit 10; BF/HF8/BF8 always, TF32 never). */
bool emu_cr0_keep_denorms(uint32_t cr0, isa_type t);
/* Flags for a MOV-style conversion src->dst under %cr0 (rounding, FTZ per type, ALT for F dst); no SAT. */
uint32_t emu_cr0_cvt_flags(uint32_t cr0, isa_type dst, isa_type src);

/* -- Generic conversion ------------------------------------------------------------------------ */
/* A conversion of one element: reads src, writes dst (host byte order, the type's size). */
typedef void (*emu_convert_fn)(void *dst, const void *src, uint32_t flags);

/* True if t takes part in emu_convert (all integer and float types except E2M1). */
bool emu_convert_supported(isa_type t);
/* Reference conversion of one scalar src->dst with flags; 0 on success, -1 for an unsupported type. */
int emu_convert(isa_type dst_type, void *dst, isa_type src_type, const void *src, uint32_t flags);
/* The conversion specialised for (dst, src, flags), or NULL if unsupported; call it with the same flags. */
emu_convert_fn emu_convert_select(isa_type dst_type, isa_type src_type, uint32_t flags);

/* -- Float <-> float (bit patterns; flags: rounding mode, FTZ_IN, FTZ_OUT, SAT, SATFINITE) ------ */
/* F -> HF with rounding. */
uint16_t emu_f_to_hf(uint32_t f, uint32_t flags);
/* HF -> F, exact. */
uint32_t emu_hf_to_f(uint16_t h, uint32_t flags);
/* DF -> HF with rounding (one rounding, no double rounding through F). */
uint16_t emu_df_to_hf(uint64_t d, uint32_t flags);
/* HF -> DF, exact. */
uint64_t emu_hf_to_df(uint16_t h, uint32_t flags);
/* F -> BF with rounding. */
uint16_t emu_f_to_bf(uint32_t f, uint32_t flags);
/* BF -> F, exact. */
uint32_t emu_bf_to_f(uint16_t b, uint32_t flags);
/* DF -> BF with rounding. */
uint16_t emu_df_to_bf(uint64_t d, uint32_t flags);
/* BF -> DF, exact. */
uint64_t emu_bf_to_df(uint16_t b, uint32_t flags);
/* DF -> F with rounding. */
uint32_t emu_df_to_f(uint64_t d, uint32_t flags);
/* F -> DF, exact. */
uint64_t emu_f_to_df(uint32_t f, uint32_t flags);
/* F -> TF32 (E8M10, held in an F with the low 13 bits zero); FCVT uses RNE + FTZ_IN|FTZ_OUT. */
uint32_t emu_f_to_tf32(uint32_t f, uint32_t flags);
/* HF -> BF8 (E5M2, IEEE-like: has inf and NaNs); FCVT uses RNE, denormals kept. */
uint8_t emu_hf_to_bf8(uint16_t h, uint32_t flags);
/* BF8 -> HF, exact. */
uint16_t emu_bf8_to_hf(uint8_t b, uint32_t flags);
/* HF -> HF8 (E4M3 "FN": bias 7, max 448, no inf, NaN S.1111.111); overflow -> NaN, or 448 with SATFINITE. */
uint8_t emu_hf_to_hf8(uint16_t h, uint32_t flags);
/* HF8 -> HF, exact. */
uint16_t emu_hf8_to_hf(uint8_t b, uint32_t flags);

/* SRND F -> HF: add rnd[12:0] to the F magnitude bits, truncate to HF; overflow -> inf, denormals kept. */
uint16_t emu_srnd_f_to_hf(uint32_t f, uint32_t rnd);
/* SRND HF -> BF8: add rnd[7:0] to the HF magnitude bits, truncate to BF8; overflow -> inf, denormals kept. */
uint8_t emu_srnd_hf_to_bf8(uint16_t h, uint32_t rnd);

/* -- Integer <-> float -------------------------------------------------------------------------- */
/* Signed 64-bit integer -> float type dst (DF F HF BF TF32 HF8 BF8) bit pattern, rounded per flags. */
uint64_t emu_s64_to_float(isa_type dst, int64_t v, uint32_t flags);
/* Unsigned 64-bit integer -> float type dst bit pattern, rounded per flags. */
uint64_t emu_u64_to_float(isa_type dst, uint64_t v, uint32_t flags);
/* Float bits of type src -> integer type dst: truncate toward zero, NaN -> 0, clamp to dst's range. */
uint64_t emu_float_to_int(isa_type dst, isa_type src, uint64_t bits, uint32_t flags);

/* -- Integer narrowing and saturation ----------------------------------------------------------
** Integer results are bit patterns of the destination type, zero-extended to 64 bits. */
/* Smallest value of integer type t (0 for unsigned). */
int64_t emu_int_min(isa_type t);
/* Largest value of integer type t. */
uint64_t emu_int_max(isa_type t);
/* Truncate a 64-bit two's complement value to t's width (spec: "only the lower bits are kept"). */
uint64_t emu_int_wrap(isa_type t, uint64_t v);
/* Clamp a signed 64-bit value to t's range. */
uint64_t emu_int_sat_s64(isa_type t, int64_t v);
/* Clamp an unsigned 64-bit value to t's range. */
uint64_t emu_int_sat_u64(isa_type t, uint64_t v);
/* Sign- (signed t) or zero-extend a t-width bit pattern to 64 bits. */
uint64_t emu_int_extend(isa_type t, uint64_t bits);
/* Read one element of type t (1, 2, 4 or 8 bytes, host order) as a zero-extended bit pattern. */
uint64_t emu_load_bits(isa_type t, const void *src);
/* Write the low bytes of bits as one element of type t (host order). */
void emu_store_bits(isa_type t, void *dst, uint64_t bits);

/* An exact wide integer: sign and 128-bit magnitude, range +-(2^128 - 1).  Holds any product of
** two 64-bit integers plus a few 64-bit addends (MUL, MAD, ADD3, SHL of 64-bit values), so the
** spec's "extra precision" integer result can be saturated or wrapped once at the end.
** Zero is always non-negative. */
typedef struct emu_wide {
    uint64_t lo, hi; /* magnitude */
    bool neg;
} emu_wide;

/* Wide value of a signed 64-bit integer. */
emu_wide emu_wide_s64(int64_t v);
/* Wide value of an unsigned 64-bit integer. */
emu_wide emu_wide_u64(uint64_t v);
/* Wide value of a t-width bit pattern of integer type t (sign-extended if t is signed). */
emu_wide emu_wide_of(isa_type t, uint64_t bits);
/* -a. */
emu_wide emu_wide_neg(emu_wide a);
/* a + b (exact while the magnitude stays below 2^128; wraps modulo 2^128 beyond). */
emu_wide emu_wide_add(emu_wide a, emu_wide b);
/* a - b (exact while the magnitude stays below 2^128). */
emu_wide emu_wide_sub(emu_wide a, emu_wide b);
/* a * b (exact while the product magnitude is below 2^128, e.g. any two 64-bit values). */
emu_wide emu_wide_mul(emu_wide a, emu_wide b);
/* a * 2^n for n < 128 (exact while the magnitude stays below 2^128; bits beyond are lost). */
emu_wide emu_wide_shl(emu_wide a, unsigned n);
/* -1, 0 or 1 as a <, ==, > b. */
int emu_wide_cmp(emu_wide a, emu_wide b);
/* Low bits of a in two's complement, truncated to t's width (no saturation). */
uint64_t emu_wide_wrap(isa_type t, emu_wide a);
/* a clamped to integer type t's range. */
uint64_t emu_wide_sat(isa_type t, emu_wide a);

/* -- Float saturation (spec "Saturation": [0.0, 1.0]; NaN, -0.0 and negatives -> +0.0) ---------- */
/* Saturate a float bit pattern of type t (DF F HF BF TF32 HF8 BF8). */
uint64_t emu_float_sat(isa_type t, uint64_t bits);
/* Saturate an F value. */
float emu_sat_f32(float x);
/* Saturate a DF value. */
double emu_sat_f64(double x);

/* -- Packed immediates (spec 2_datatypes) ------------------------------------------------------ */
/* Element i (0..7) of a V immediate: signed 4-bit, [-8, 7]. */
int8_t emu_v_elem(uint32_t imm, unsigned i);
/* Element i (0..7) of a UV immediate: unsigned 4-bit, [0, 15]. */
uint8_t emu_uv_elem(uint32_t imm, unsigned i);
/* Element i (0..3) of a VF immediate as F bits: 1-3-4 restricted float, bias 3, 0x00/0x80 = +-0. */
uint32_t emu_vf_elem(uint32_t imm, unsigned i);

#endif
