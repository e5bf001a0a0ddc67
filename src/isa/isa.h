/* isa.h -- the ISA description: types, platforms, predefined variables, enums and the single
** instruction table (ops.def), expanded into const tables.  No other opcode list exists.
*/
#ifndef VISA_ISA_H
#define VISA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "visa/visa.h"

/* -- Data types ----------------------------------------------------------------------------- */
typedef enum isa_type {
#define VISA_TYPE(N, text, code, bytes, cls) VISA_TYPE_##N,
#include "types.def"
#undef VISA_TYPE
    VISA_TYPE__COUNT
} isa_type;

enum { TC_UINT = 1, TC_SINT, TC_FLOAT, TC_PACKED, TC_BOOL };

/* One bit per type, for type sets (typemaps.def). */
#define VISA_TYPE(N, text, code, bytes, cls) VT_##N = 1u << VISA_TYPE_##N,
enum isa_type_bit {
#include "types.def"
    VT__NONE = 0
};
#undef VISA_TYPE
#define VT_INT8_32 (VT_UD | VT_D | VT_UW | VT_W | VT_UB | VT_B)
#define VT_INT64 (VT_UQ | VT_Q)
#define VT_INT (VT_INT8_32 | VT_INT64)
#define VT_FLOAT (VT_F | VT_HF | VT_DF | VT_BF)
#define VT_ANY 0xFFFFFu

typedef struct isa_type_info {
    const char *name; /* text spelling */
    uint8_t code; /* binary encoding */
    uint8_t bytes;
    uint8_t cls; /* TC_* */
} isa_type_info;

extern const isa_type_info isa_types[VISA_TYPE__COUNT];
/* Type by binary code; -1 if none. */
int isa_type_from_code(unsigned code);
/* Type by text spelling (case-insensitive); -1 if none. */
int isa_type_from_name(const char *s, size_t len);

/* -- Platforms ------------------------------------------------------------------------------ */
/* Capabilities of platforms.def's caps column */
enum { PF_MADM = 1, PF_A64_BYTE8 = 2 };
enum {
#define VISA_PLAT(N, text, grf, slm_kb, lsc_simd, caps, aliases) P_##N,
#include "platforms.def"
#undef VISA_PLAT
    P__COUNT,
    P_MIN = 0,
    P_MAX = P__COUNT - 1
};
/* Has the platform every PF_* capability in caps (platforms.def's caps column)? */
bool isa_platform_has(unsigned plat, unsigned caps);

/* -- Predefined variables and surfaces ----------------------------------------------------- */
#define ISA_NUM_PREDEF_VARS 32 /* ids 0..31 reserved; user variables start at 32 */
#define ISA_NUM_PREDEF_SURFS 6 /* T0..T5; user surfaces start at 6 */
/* Access of a predefined variable (predefined.def). */
typedef enum isa_predef_access { PV_RW, PV_RO, PV_NULL, PV_PAUSE } isa_predef_access;
enum isa_predef_id {
#define VISA_PREDEF_VAR(id, ID, name, type, n, access) VISA_PREDEF_##ID = id,
#define VISA_PREDEF_SURF(id, ID, name, hw) VISA_PREDEF_SURF_##ID = id,
#include "predefined.def"
#undef VISA_PREDEF_VAR
#undef VISA_PREDEF_SURF
};
typedef struct isa_predef_var {
    const char *name;
    uint8_t type;
    uint8_t access; /* isa_predef_access */
    uint16_t num_elts;
} isa_predef_var;
extern const isa_predef_var isa_predef_vars[]; /* indexed by id, count isa_predef_var_count */
extern const unsigned isa_predef_var_count; /* 22 */
extern const char *const isa_predef_surf_names[ISA_NUM_PREDEF_SURFS];

/* -- Enums ------------------------------------------------------------------------------------ */
typedef enum isa_enum_id {
#define VISA_ENUM(name, desc) VISA_EN_##name,
#define VISA_ENUM_VAL(name, value, text)
#define VISA_ENUM_ID(name, id, value, text, attr)
#include "enums.def"
#undef VISA_ENUM
#undef VISA_ENUM_VAL
#undef VISA_ENUM_ID
    VISA_EN__COUNT
} isa_enum_id;

/* The values the code names (enums.def VISA_ENUM_ID rows): VISA_PRECISION_BF, VISA_LSC_SFID_SLM,
** VISA_ATOMIC_FADD, VISA_LSC_OP_LOAD, VISA_SFID_UGM, ... */
enum isa_enum_value {
#define VISA_ENUM(name, desc)
#define VISA_ENUM_VAL(name, value, text)
#define VISA_ENUM_ID(name, id, value, text, attr) VISA_##id = value,
#include "enums.def"
#undef VISA_ENUM
#undef VISA_ENUM_VAL
#undef VISA_ENUM_ID
};

/* The printed text of a value, or NULL. */
const char *isa_enum_text(isa_enum_id en, uint32_t value);
/* Parse an exact (case-sensitive) spelling; returns false if unknown. */
bool isa_enum_parse(isa_enum_id en, const char *s, size_t len, uint32_t *value);
/* The longest spelling of `en` that `p` (NUL-terminated) starts with and, if `stop` is given,
** whose next character satisfies it: its length (*value set), 0 if none. */
size_t isa_enum_longest_at(isa_enum_id en, const char *p, bool (*stop)(char next), uint32_t *value);
/* Enum by name ("cmp_op"); -1 if none. */
int isa_enum_by_name(const char *s, size_t len);
/* Iterate the spellings of an enum: returns the i-th (value, text) pair, false when done. */
bool isa_enum_at(isa_enum_id en, unsigned i, uint32_t *value, const char **text);
/* enums.def keeps each enum's rows together, in the enums' order (the lookups rely on it) */
bool isa_enum_table_sorted(void);
/* The per-value fact of a VISA_ENUM_ID row (precision: element bits; atomic_op: data sources);
** -1 for a value without one. */
int isa_enum_attr(isa_enum_id en, uint32_t value);
/* Bytes of a variable alignment code (enums.def align) with `grf`-byte GRFs; 1 if unknown. */
uint32_t isa_align_bytes(unsigned code, uint32_t grf);

/* -- Instruction table ---------------------------------------------------------------------- */
typedef enum isa_group {
    G_MOV,
    G_ARITH,
    G_LOGIC,
    G_COMPARE,
    G_ADDRESS,
    G_FLOW,
    G_DATAPORT,
    G_SAMPLER,
    G_MISC,
    G_SIMDFLOW,
    G_SYNC,
    G_SVM,
    G_LSC
} isa_group;

/* Instruction property flags. */
enum {
    VF_SAT = 1u << 0, /* .sat allowed */
    VF_SMOD_ARITH = 1u << 1, /* source modifiers (-) (abs) (-abs) */
    VF_SMOD_LOGIC = 1u << 2, /* source modifier (~) */
    VF_MATH = 1u << 3, /* extended math unit */
    VF_BRANCH = 1u << 4, /* changes control flow */
    VF_CALL = 1u << 5, /* call-like */
    VF_SEND = 1u << 6, /* message to a shared function */
    VF_SYNC = 1u << 7, /* synchronisation */
    VF_NO_ID = 1u << 8, /* printed without the "/// $N" instruction id */
    VF_LABEL_DEF = 1u << 9, /* defines a label */
    VF_PRED_OPND = 1u << 10, /* operands may be predicate variables */
    VF_SYSTOLIC = 1u << 11, /* dpas family */
    VF_ATOMIC0 = 1u << 12, /* LSC atomic with no data source */
    VF_ATOMIC1 = 1u << 13, /* LSC atomic with one data source */
    VF_ATOMIC2 = 1u << 14, /* LSC atomic with two data sources */
    VF_PRED_HIDDEN = 1u << 15, /* has a predicate IGC's printer never prints (text drops it) */
    VF_LOAD = 1u << 16, /* LSC load (an lsc_load* mnemonic): reads memory into dst */
    VF_STORE = 1u << 17, /* LSC store (an lsc_store* mnemonic): writes memory */
    VF_CHMASK = 1u << 18, /* LSC quad load/store: a channel mask instead of a vector size */
};

/* Legal exec sizes: bit k = exec size code k (1 << k lanes).  Named by content. */
enum {
    EX_NONE = 0, /* no exec size field */
    EX_1 = 0x01,
    EX_8 = 0x08,
    EX_1_2_4_8 = 0x0F,
    EX_16 = 0x10,
    EX_8_16 = 0x18,
    EX_1_8_16 = 0x19,
    EX_1_2_4_8_16 = 0x1F,
    EX_8_16_32 = 0x38,
    EX_4UP = 0x3C, /* 4, 8, 16, 32 */
    EX_1_4_8_16_32 = 0x3D,
    EX_ALL = 0x3F,
};

/* Text hooks: families whose syntax needs code (src/text/hooks_*.c). */
typedef enum isa_text_hook {
    TH_NONE,
    TH_LABEL,
    TH_CALL,
    TH_DEBUG,
    TH_SYNC,
    TH_SEND,
    TH_DPAS,
    TH_DATAPORT,
    TH_SAMPLER,
    TH_LSC,
    TH__COUNT
} isa_text_hook;

#include "typesets.h"

/* -- Type sets (typemaps.def) ------------------------------------------------------------------
** A set is a list of maps; a map admits, on platforms plat_min..plat_max, any dst type in `dst`
** and any type in `src` for every typed source.  TM_NONE has no maps and constrains nothing. */
typedef struct isa_typemap {
    uint16_t set; /* isa_typeset */
    uint8_t plat_min; /* P_*, inclusive */
    uint8_t plat_max; /* P_*, inclusive */
    uint32_t dst; /* VT_* mask; 0 = the set has no dst operand (stores) */
    uint32_t src; /* VT_* mask, union over the typed sources; 0 = no typed source */
} isa_typemap;

extern const isa_typemap isa_typemaps[]; /* grouped by set, in typemaps.def order */
extern const unsigned isa_typemap_count;

/* "TM_INT32" / the one-line description from typemaps.def; NULL if out of range. */
const char *isa_typeset_name(unsigned typeset);
const char *isa_typeset_what(unsigned typeset);
/* Number of maps of a set (0 for TM_NONE and for unknown sets). */
unsigned isa_typeset_map_count(unsigned typeset);
/* May an operand of `type` (VISA_TYPE_*) be the dst (dst=true) or a source of an instruction
** of `typeset` on `platform` (P_*)?  True if some map valid on the platform lists the type.
** Packed immediates (sources only) go through 2_datatypes: V as any signed int, UV as any
** unsigned int, VF as F.  TM_NONE: always true.  Unknown set/platform/type: false. */
bool isa_type_legal(unsigned typeset, unsigned platform, bool dst, unsigned type);
/* Stricter: one single map must admit dst_type (< 0: no dst to check) and every type in
** src_types (a VT_* mask of the source types used; packed immediates mapped as above). */
bool isa_types_legal(unsigned typeset, unsigned platform, int dst_type, uint32_t src_types);
/* Describe a set as text for `visa info`: a "TM_NAME: what" line, then one indented line per
** map ("  XeHP+: dst f bf <- src f bf").  snprintf-style: writes at most size-1 chars plus NUL
** (buf may be NULL when size is 0) and returns the full length. */
size_t isa_typeset_describe(unsigned typeset, char *buf, size_t size);

typedef enum isa_form_id {
#define VISA_OP(N, code, mnem, grp, layout, text, hook, flags, ts, plat, ex, sem) VISA_FORM_##N,
#define VISA_SUB(P, N, sub, mnem, layout, text, hook, flags, ts, plat, ex, sem) VISA_FORM_##N,
#include "ops.def"
#undef VISA_OP
#undef VISA_SUB
    VISA_FORM__COUNT
} isa_form_id;

/* Opcode numbers (ISA_Opcode). */
typedef enum isa_opcode {
#define VISA_OP(N, code, mnem, grp, layout, text, hook, flags, ts, plat, ex, sem) VISA_OP_##N = code,
#define VISA_SUB(P, N, sub, mnem, layout, text, hook, flags, ts, plat, ex, sem)
#include "ops.def"
#undef VISA_OP
#undef VISA_SUB
} isa_opcode;

typedef struct isa_form {
    const char *name; /* table name, e.g. "LSC_LOAD" */
    const char *mnem; /* mnemonic spellings ("a|b", or "%enum") */
    const char *layout; /* binary layout codes after the opcode (sub-rows: after the sub byte) */
    const char *text; /* text template or NULL */
    const char *sem; /* one-line semantics */
    uint32_t flags; /* VF_* */
    uint16_t typeset; /* TM_* */
    int16_t parent; /* form of the parent opcode, -1 for opcode rows */
    int16_t sub; /* sub-opcode, -1 for opcode rows */
    uint8_t opcode;
    uint8_t group; /* isa_group; use isa_form_group() */
    uint8_t hook; /* isa_text_hook */
    uint8_t plat; /* first platform */
    uint8_t exec; /* EX_* */
} isa_form;

extern const isa_form isa_forms[VISA_FORM__COUNT];

/* Mnemonic spellings: an isa_form's mnem is one spelling or several separated by '|'
** ("raw_send|raw_sendc"), the first the one printed; or "%enum" (an enum's texts spell it). */
/* Length of the first spelling of `mnem`. */
static inline size_t isa_mnem_len(const char *mnem) {
    size_t n = 0;
    while (mnem[n] && mnem[n] != '|') n++;
    return n;
}
/* Each spelling in turn: *at is the cursor (set it to the mnem first); *s and *n the spelling;
** false after the last.  for (const char *at = F->mnem, *s; isa_mnem_next(&at, &s, &n);) ... */
static inline bool isa_mnem_next(const char **at, const char **s, size_t *n) {
    if (!**at) return false;
    *s = *at;
    *n = isa_mnem_len(*at);
    *at += *n + ((*at)[*n] == '|');
    return true;
}
/* A form as messages name it: its first spelling, or its table name ("CMP") for a form spelled
** by an enum; *n is the length. */
static inline const char *isa_form_mnem_or_name(int form, size_t *n) {
    const isa_form *f = &isa_forms[form];
    const char *s = f->mnem[0] == '%' ? f->name : f->mnem;
    *n = isa_mnem_len(s);
    return s;
}

/* Form of an opcode byte (the opcode row); -1 for an unknown opcode. */
int isa_form_by_opcode(unsigned opcode);
/* Sub-row of a parent form by sub-opcode value; -1 if none. */
int isa_form_sub(int parent_form, unsigned sub);
/* Group of a form (sub-rows take their parent's). */
unsigned isa_form_group(int form);
/* Leading vector operands of a form that are destinations (opfacts.def VISA_NDST; without a row,
** 1 for the ALU groups G_MOV..G_ADDRESS, 0 for the others). */
unsigned isa_form_ndst(int form);
/* Full layout of a form after the opcode byte: for a sub-row, the parent's codes before
** its 'o' followed by the sub-row's own codes.  buf must hold 64 bytes. */
const char *isa_form_layout(int form, char *buf);
/* Operand codes of a '!' tail given the mode field read before it (src/isa/tail.c);
** buf must hold 32 bytes. */
const char *isa_mode_tail(unsigned opcode, unsigned mode, char *buf);
/* Layout position helpers. */
bool isa_layout_has(const char *layout, char code);
/* Number of stored operands of a layout (without E P o # !; a '*' list counts its one kind). */
unsigned isa_layout_opnds(const char *layout);
/* Layout code of stored operand k (list items repeat the list's kind); 0 past the end. */
char isa_layout_kind(const char *layout, unsigned k);
/* The same for each operand in turn: the code of the stored operand at *cursor (a position in a
** layout), *cursor moved past it; 0 at the end. */
char isa_layout_next_kind(const char **cursor);

#endif
