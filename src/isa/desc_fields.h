/* desc_fields.h -- a getter per send descriptor field of desc_fields.def: desc_<name>(desc) and
** exdesc_<name>(exdesc) give bits [hi:lo] shifted down (sign-extended for a DESC_SFIELD row),
** <word>_<name>_mask() the field's bits in place.  Nowhere else is a descriptor shifted or masked
** (tests/unit/grep_desc.sh). */
#ifndef VISA_ISA_DESC_FIELDS_H
#define VISA_ISA_DESC_FIELDS_H

#include <stdint.h>

#define DESC_BITS(hi, lo) ((0xFFFFFFFFu >> (31 - (hi))) & (0xFFFFFFFFu << (lo)))
#define DESC_FIELD(word, name, hi, lo)                                                           \
    static inline uint32_t word##_##name(uint32_t v) { return (v & DESC_BITS(hi, lo)) >> (lo); } \
    static inline uint32_t word##_##name##_mask(void) { return DESC_BITS(hi, lo); }
/* bit hi to the top, then an arithmetic shift down (as GCC and Clang shift a negative int) */
#define DESC_SFIELD(word, name, hi, lo)                                                                           \
    static inline int32_t word##_##name(uint32_t v) { return (int32_t)(v << (31 - (hi))) >> (31 - (hi) + (lo)); } \
    static inline uint32_t word##_##name##_mask(void) { return DESC_BITS(hi, lo); }
#include "desc_fields.def"
#undef DESC_FIELD
#undef DESC_SFIELD
#undef DESC_BITS

#endif
