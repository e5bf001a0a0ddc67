/* ir.h -- the module IR: routines (kernels and functions), their declarations, inputs,
** attributes and instructions.  It mirrors the binary object closely (ids, string pool, operand
** layouts from ops.def) so that text and binary both map onto it losslessly; the text front end
** keeps names, source positions and comments on the side.
*/
#ifndef VISA_IR_H
#define VISA_IR_H

#include "core/core.h"
#include "isa/isa.h"
#include "ir/ctrl.h"

/* Vector operand classes (binary tag bits 0-2; ADDROF is text/IR only, encoded as GENERAL). */
enum {
    VC_GENERAL = 0,
    VC_ADDRESS = 1,
    VC_PREDICATE = 2,
    VC_INDIRECT = 3,
    VC_ADDROF = 4,
    VC_IMMEDIATE = 5,
    VC_STATE = 6
};
/* Modifiers (tag bits 3-5). */
enum { VM_NONE = 0, VM_ABS = 1, VM_NEG = 2, VM_NEG_ABS = 3, VM_SAT = 4, VM_NOT = 5 };
/* State operand classes. */
enum { VS_SURFACE = 0, VS_SAMPLER = 1 };

/* Region codes (binary nibbles): 0 = absent, 1..7 = 0,1,2,4,8,16,32. */
#define IR_REGION(v, w, h) ((uint16_t)((v) | ((w) << 4) | ((h) << 8)))
#define IR_REGION_V(r) ((r)&0xF)
#define IR_REGION_W(r) (((r) >> 4) & 0xF)
#define IR_REGION_H(r) (((r) >> 8) & 0xF)
int ir_region_code(unsigned value); /* value -> code (1..7), -1 if not representable */
unsigned ir_region_value(unsigned code);

typedef struct ir_vec {
    uint8_t cls; /* VC_* */
    uint8_t mod; /* VM_* */
    uint8_t type; /* isa_type: immediates, indirect access type */
    uint8_t row, col; /* general and address-of: row (GRF units) and column (elements of the
                       ** variable's type); address: element and width code; state: offset */
    uint8_t addr_elem; /* indirect: element of the address variable */
    uint8_t state_cls; /* state: VS_* */
    uint16_t region; /* region codes (general/indirect) */
    int16_t ind_off; /* indirect: byte offset */
    uint32_t id; /* variable id in its class (general: full id incl. 32 predefined) */
    uint64_t imm; /* immediate bits (sign-extended to 32 for b/w/d) */
} ir_vec;

typedef struct ir_raw {
    uint32_t id; /* full general-variable id, 0 = %null */
    uint16_t offset; /* bytes */
} ir_raw;

/* One operand; `kind` is the ops.def layout code it came from (V v & R L b w d i s S). */
typedef struct ir_opnd {
    char kind;
    uint8_t line_off; /* text: source line of the operand minus the instruction's line (<= 255) */
    uint16_t col; /* text: 1-based source column of the operand; 0 = unknown (binary, hooks) */
    union {
        ir_vec vec;
        ir_raw raw;
        uint32_t label; /* label id */
        int64_t num; /* b w d i */
        uint32_t str; /* string index (s S) */
    } u;
} ir_opnd;

/* Text trivia attached to a statement: own-line comments before it, and one trailing comment. */
typedef struct ir_trivia {
    uint32_t first; /* index into module comments */
    uint16_t count; /* own-line comments before the statement */
    int32_t eol; /* trailing comment index, -1 if none */
} ir_trivia;

typedef struct ir_inst {
    uint16_t form; /* isa_form_id */
    uint8_t exec; /* exec byte (layout E; ctrl.h decodes it) */
    uint16_t pred; /* predicate word (layout P; ctrl.h), 0 = none */
    uint16_t nopnd;
    ir_opnd *opnd; /* layout order, excluding E, P, o and # */
    uint32_t line, col; /* source position (0 if not from text) */
    uint64_t offset; /* binary offset (if decoded) */
    ir_trivia trivia;
} ir_inst;

typedef struct ir_attr {
    uint32_t name; /* string index */
    uint8_t size; /* value bytes */
    uint8_t is_str; /* value is a string */
    uint8_t value[255];
    uint32_t line, col; /* text: position of the attribute's name (kernel attributes) */
    ir_trivia trivia;
} ir_attr;

typedef struct ir_attr_list {
    uint16_t count;
    ir_attr *items;
} ir_attr_list;

typedef struct ir_var {
    uint32_t name; /* string index */
    uint8_t type; /* isa_type */
    uint8_t align; /* VISA_Align code */
    uint16_t num_elts;
    uint32_t alias_id; /* full id of the parent, 0 = none (see has_alias) */
    uint16_t alias_off; /* bytes */
    uint8_t has_alias;
    ir_attr_list attrs;
    uint32_t line, col;
    ir_trivia trivia;
} ir_var;

/* Address, predicate, sampler and surface declarations share one shape (state_info). */
typedef struct ir_state_var {
    uint32_t name;
    uint16_t num_elts;
    ir_attr_list attrs;
    uint32_t line, col;
    ir_trivia trivia;
} ir_state_var;

typedef struct ir_label {
    uint32_t name;
    uint8_t kind; /* label_kind enum */
    uint8_t defined; /* text: a definition was seen */
    uint32_t line, col; /* first mention */
} ir_label;

enum { IN_GENERAL = 0, IN_SAMPLER = 1, IN_SURFACE = 2 };
typedef struct ir_input {
    uint8_t kind; /* bits 0-2 class, bits 3-7 implicit kind */
    uint32_t id; /* id in its class */
    int16_t offset; /* bytes from r0 */
    uint16_t size;
    uint8_t implicit_syntax; /* text: written with .implicit_* */
    uint32_t line, col;
    uint32_t off_col, size_col; /* text: columns of the offset and size values (0 = absent) */
    ir_trivia trivia;
} ir_input;

typedef struct ir_string {
    char *s;
    uint32_t len;
} ir_string;

/* Native code a kernel's header entry points at (gen_binary_info: platform, offset, size).  Text
** cannot hold it: only a decoded object has some, and encoding writes it back after the kernel. */
typedef struct ir_gen_binary {
    uint8_t platform; /* the writer's platform code, kept as stored */
    uint32_t size;
    uint8_t *bytes;
} ir_gen_binary;

typedef struct ir_routine {
    uint8_t is_kernel;
    uint32_t name; /* string index */
    VEC(ir_string) strings;
    VEC(ir_var) vars; /* user variables: entry k is id 32+k */
    VEC(ir_state_var) addrs, preds, samplers, surfaces; /* preds: P1.., surfaces: T6.. */
    VEC(ir_label) labels;
    VEC(ir_input) inputs;
    VEC(ir_attr) attrs;
    VEC(ir_inst) insts;
    VEC(ir_gen_binary) gen_binaries; /* kernels: the object's native code, in header order */
    uint8_t input_size, return_size; /* functions */
    VEC(uint32_t) funcdecls; /* text .funcdecl names (string indices), informational */
    ir_trivia trivia; /* comments before the .kernel line */
    uint32_t line;
} ir_routine;

typedef struct ir_comment {
    char *text; /* the comment including its // or slash-star delimiters */
    uint32_t len;
    uint32_t id_len; /* an end-of-line "/// $N " that an instruction's printed id replaces */
    uint8_t blank_before; /* an empty line preceded it */
} ir_comment;

struct visa_module {
    visa_ctx *ctx;
    char *name; /* input name given when parsed or decoded (diagnostics) */
    uint8_t major, minor;
    uint8_t has_version;
    visa_platform platform;
    VEC(ir_routine) routines;
    VEC(ir_comment) comments;
    ir_trivia version_trivia;
    ir_trivia tail_trivia; /* comments after the last statement */
    uint8_t no_final_newline; /* source ended without a newline after the tail comments */
    uint8_t dialect; /* visa_dialect the text was written in, which `visa fmt` keeps:
                              ** IGC 2.x's disassembly print (also a decoded object's), its
                              ** asm-text print (vISA_IsaAssembly: no blank lines around the
                              ** header, no predefined-variable block) or IGC 1.0.x's dump */
    /* what the emulator prepared from this module (its kernels, lowered and compiled once;
    ** src/emu/prepare.c), released with the module; NULL until a kernel is prepared */
    vx_cached *_Atomic prepared;
};

visa_module *ir_module_new(visa_ctx *ctx);
void ir_routine_free(visa_ctx *ctx, ir_routine *r);
/* Append a string to a routine's pool; returns its index or UINT32_MAX on OOM. */
uint32_t ir_string_add(visa_ctx *ctx, ir_routine *r, const char *s, size_t len);
const char *ir_str(const ir_routine *r, uint32_t index); /* "" if out of range */
ir_opnd *ir_opnds_alloc(visa_ctx *ctx, unsigned n);
bool ir_attr_list_push(visa_ctx *ctx, ir_attr_list *list, const ir_attr *a);

/* IGC gives every routine a Target attribute (CM) when it has none, when building from text
** and when reading an object; returns false on OOM. */
bool ir_routine_finalize_attrs(visa_ctx *ctx, ir_routine *r);
/* Byte offset of an address-of operand (row * GRF bytes + col * element size). */
uint32_t ir_addrof_bytes(const ir_routine *r, const ir_vec *v, unsigned grf_bytes);
/* Type of a general variable by full id (predefined ids included); -1 if unknown. */
int ir_var_type(const ir_routine *r, uint32_t id);
/* Size in bytes of a general variable by full id; 0 if unknown. */
uint32_t ir_var_bytes(const ir_routine *r, uint32_t id);

/* Module queries.  The routine index of the function called `name`, -1 if none (a function's
** address, faddr / ifcall, is that index plus one); the kernel called `name` (NULL: the first
** kernel), NULL if none; an integer attribute of a routine, dflt if it is absent or a string. */
int ir_find_function(const visa_module *m, const char *name);
const ir_routine *ir_find_kernel(const visa_module *m, const char *name);
uint32_t ir_attr_u32(const ir_routine *r, const char *name, uint32_t dflt);

/* Structural equality of everything the binary encodes (not positions or comments). */
bool ir_module_equal(const visa_module *a, const visa_module *b);

#endif
