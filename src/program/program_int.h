/* program_int.h -- IGC's compiled programs, for the launch layer: the zebin (an ELF64 file that
** IGC's offline compiler writes: native code, vISA text, .ze_info), its .ze_info (YAML: how each
** kernel is launched), and IGC's offline compiler itself, driven through libocloc.
**
** zebin.c reads the ELF (every offset checked against the file), zeinfo.c the YAML into the model
** below (schema and ranges: zeinfo.def), ocloc.c compiles OpenCL C or SPIR-V to a zebin,
** program.c puts a zebin and its .ze_info together.  Each reader reports problems as
** diagnostics with stable ids on the context's callback (byte offsets for the ELF, YAML line and
** column for .ze_info) and returns VISA_E_BINARY / VISA_E_SYNTAX; hostile input never crashes
** them nor makes them allocate more than a small multiple of its own size.
** Diagnostic ids: E-ZEBIN-* (zebin.c), E-ZEINFO-* and W-ZEINFO-* (zeinfo.c), E-OCLOC-*
** (ocloc.c), E-PROGRAM-* and W-PROGRAM-* (program.c).
*/
#ifndef VISA_PROGRAM_INT_H
#define VISA_PROGRAM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "diags.h"

/* -- Arena: the models' memory, freed at once -------------------------------------------------- */
typedef struct vp_arena_block vp_arena_block;
typedef struct vp_arena {
    visa_ctx *ctx;
    vp_arena_block *head;
    bool failed; /* an allocation failed (the reader then reports out of memory) */
} vp_arena;
void vp_arena_init(vp_arena *a, visa_ctx *ctx);
void *vp_arena_alloc(vp_arena *a, size_t size); /* zeroed, 16-byte aligned; NULL on failure */
void *vp_arena_array(vp_arena *a, size_t n, size_t size); /* n * size, overflow-checked */
char *vp_arena_strndup(vp_arena *a, const char *s, size_t n);
void vp_arena_free(vp_arena *a);

/* -- Zebin (zebin.c) --------------------------------------------------------------------------- */
/* Zebin section types (compute-runtime's zebin_elf.h) */
enum {
    VP_SHT_ZEBIN_SPIRV = 0xff000009,
    VP_SHT_ZEBIN_ZEINFO = 0xff000011,
    VP_SHT_ZEBIN_GTPIN_INFO = 0xff000012,
    VP_SHT_ZEBIN_VISAASM = 0xff000013,
    VP_SHT_ZEBIN_MISC = 0xff000014,
};
/* Relocation types of zebin code and data sections */
enum {
    VP_R_ZE_NONE = 0,
    VP_R_ZE_SYM_ADDR = 1, /* 64-bit address of the symbol (plus addend) */
    VP_R_ZE_SYM_ADDR_32 = 2, /* its low 32 bits */
    VP_R_ZE_SYM_ADDR_32_HI = 3, /* its high 32 bits */
    VP_R_PER_THREAD_PAYLOAD_OFFSET = 4, /* 32 bits: the per-thread payload's offset */
};
/* The largest .bss section accepted: its size is memory to give, not bytes of the file. */
#define VP_ZEBIN_MAX_BSS (256u << 20)
/* IGC's kernel that carries a program's external functions (not an OpenCL kernel) */
#define VP_ZEBIN_SYMBOL_TABLE_KERNEL "Intel_Symbol_Table_Void_Program"

typedef struct vp_zebin_section {
    const char *name; /* "" for the null section */
    uint32_t index, type, link, info;
    uint64_t flags, offset, size, entsize, addralign;
    const uint8_t *data; /* into the zebin's copy of the file; NULL for SHT_NOBITS and empty ones */
} vp_zebin_section;

typedef struct vp_zebin_symbol {
    const char *name;
    uint64_t value, size;
    uint8_t bind, type, other; /* ELF64_ST_BIND / ELF64_ST_TYPE of st_info, st_other */
    uint16_t shndx; /* the section it is defined in; SHN_UNDEF (0) when undefined */
} vp_zebin_symbol;

typedef struct vp_zebin_reloc {
    uint64_t offset; /* in the target section */
    uint32_t symbol; /* index in vp_zebin.symbols */
    uint32_t type; /* VP_R_* (others kept as they are) */
    int64_t addend; /* 0 for .rel sections */
} vp_zebin_reloc;

typedef struct vp_zebin_reloc_table {
    uint32_t section; /* the .rel.* / .rela.* section */
    uint32_t target; /* the section the relocations patch (sh_info) */
    bool rela;
    const vp_zebin_reloc *relocs;
    uint32_t count;
} vp_zebin_reloc_table;

typedef struct vp_zebin_kernel {
    const char *name; /* the suffix of its .text.<name> section */
    uint32_t text_section;
    const uint8_t *code; /* the native code */
    uint64_t code_size;
    uint32_t visaasm_section; /* 0: the zebin has no vISA text for it */
    const char *visaasm; /* vISA text, visaasm_len bytes, not NUL-terminated */
    size_t visaasm_len;
    bool symbol_table; /* IGC's external-function carrier, VP_ZEBIN_SYMBOL_TABLE_KERNEL */
} vp_zebin_kernel;

/* The device the zebin is for: .note.intelgt.compat, else the ELF header (older zebins put the
** product family, or with target flag bit 15 the gfx core, in e_machine). */
typedef struct vp_zebin_device {
    bool has_product_family, has_gfx_core, has_target_metadata;
    uint32_t product_family; /* PRODUCT_FAMILY (devices.def) */
    uint32_t gfx_core; /* GFXCORE_FAMILY; IGC 1.0.12504 writes 0 (unknown) */
    uint32_t target_metadata; /* compute-runtime's ZebinTargetFlags */
    uint32_t min_revision, max_revision, generator; /* fields of target_metadata (generator 1: IGC) */
    const char *zebin_version; /* "1.20"; NULL when absent */
    const char *product_name; /* devices.def's name of product_family ("DG2"), or NULL */
    bool has_platform; /* the device maps to a vISA platform */
    visa_platform platform;
} vp_zebin_device;

typedef struct vp_zebin {
    visa_ctx *ctx;
    vp_arena arena;
    const uint8_t *bytes; /* the zebin's own copy of the file */
    size_t len;
    uint16_t elf_type, machine;
    uint32_t elf_flags;
    const vp_zebin_section *sections;
    uint32_t section_count;
    const vp_zebin_symbol *symbols; /* .symtab; symbols[0] is the null symbol */
    uint32_t symbol_count;
    const vp_zebin_reloc_table *reloc_tables;
    uint32_t reloc_table_count;
    const vp_zebin_kernel *kernels; /* in the order of their .text sections */
    uint32_t kernel_count;
    /* the program-scope sections, NULL when absent */
    const vp_zebin_section *ze_info, *spirv, *build_options;
    const vp_zebin_section *data_const, *data_global, *data_global_const, *data_const_string;
    const vp_zebin_section *bss_const, *bss_global;
    vp_zebin_device device;
} vp_zebin;

/* Read a zebin; the result owns a copy of the bytes.  name is used in diagnostics.  Errors:
** VISA_E_BINARY (E-ZEBIN-* diagnostics with byte offsets), VISA_E_NOMEM, VISA_E_ARG. */
visa_status vp_zebin_read(visa_ctx *ctx, const char *name, const void *data, size_t len, vp_zebin **out);
void vp_zebin_free(vp_zebin *zb);
const vp_zebin_section *vp_zebin_section_by_name(const vp_zebin *zb, const char *name);
const vp_zebin_kernel *vp_zebin_kernel_by_name(const vp_zebin *zb, const char *name);
/* The relocations that patch section `target`, or NULL. */
const vp_zebin_reloc_table *vp_zebin_relocs_for(const vp_zebin *zb, uint32_t target);

/* -- .ze_info (zeinfo.c; the schema is zeinfo.def) --------------------------------------------- */
/* Limits of the values .ze_info may hold (E-ZEINFO-RANGE past them).  What a platform allows is
** the launch's to check; these only keep hostile numbers out of the model. */
#define VP_ZEINFO_MAX_PAYLOAD \
    4096 /* cross-thread payload bytes: the arguments (OpenCL's
                                           CL_DEVICE_MAX_PARAMETER_SIZE is 1-2 KiB on Intel
                                           GPUs) and IGC's implicit ones, which fit in 256 */
#define VP_ZEINFO_MAX_PER_THREAD \
    256 /* per-thread payload bytes: 3 channels of 32 16-bit local
                                           ids, each padded to a 64-byte GRF, are 192 */
#define VP_ZEINFO_MAX_ARGS 1024 /* explicit kernel arguments */
#define VP_ZEINFO_MAX_BTI 255 /* binding table index */
#define VP_ZEINFO_MAX_SAMPLERS 128
#define VP_ZEINFO_MAX_SIMD 32
#define VP_ZEINFO_MAX_GRF 512
#define VP_ZEINFO_MAX_BARRIERS 32 /* named barriers (XeHPC has 32) */
#define VP_ZEINFO_MAX_EU_THREADS 64
#define VP_ZEINFO_MAX_GROUP 1024 /* work-items in one dimension of a work-group */
#define VP_ZEINFO_MAX_SLM (1 << 20) /* bytes of SLM (PVC gives a work-group 128 KiB) */
#define VP_ZEINFO_MAX_SLM_ALIGN 4096 /* slm_alignment: 0 or a power of two up to this */
#define VP_ZEINFO_MAX_THREAD_BUFFER (1 << 24) /* per-thread scratch/private bytes (hardware: 256 KiB) */
#define VP_ZEINFO_MAX_CODE (1 << 24) /* offsets into a kernel's code */
#define VP_ZEINFO_MAX_TEXT (16u << 20) /* bytes of .ze_info text */
#define VP_ZEINFO_MAX_NODES (1u << 20) /* YAML nodes (scalars, mappings, sequences) */
#define VP_ZEINFO_MAX_DEPTH 16 /* YAML nesting; .ze_info needs 5 */

/* Name tables: enum vp_table_id names them; each value of a table is VP_<TABLE>_<CODE>, and 0,
** VP_<TABLE>_UNKNOWN, means absent (or, for VP_ARG, a name IGC wrote that the table lacks). */
typedef enum vp_table_id {
    VP_TAB_NONE,
#define VP_TABLE(table, open) VP_TAB_##table,
#include "zeinfo.def"
    VP_TAB__COUNT
} vp_table_id;
typedef enum vp_arg_type {
    VP_ARG_UNKNOWN,
#define VP_ARG(code, spelling, explicit_arg) VP_ARG_##code,
#include "zeinfo.def"
    VP_ARG__COUNT
} vp_arg_type;
typedef enum vp_addrmode {
    VP_ADDRMODE_UNKNOWN,
#define VP_ADDRMODE(code, spelling) VP_ADDRMODE_##code,
#include "zeinfo.def"
} vp_addrmode;
typedef enum vp_addrspace {
    VP_ADDRSPACE_UNKNOWN,
#define VP_ADDRSPACE(code, spelling) VP_ADDRSPACE_##code,
#include "zeinfo.def"
} vp_addrspace;
typedef enum vp_access {
    VP_ACCESS_UNKNOWN,
#define VP_ACCESS(code, spelling) VP_ACCESS_##code,
#include "zeinfo.def"
} vp_access;
typedef enum vp_image {
    VP_IMAGE_UNKNOWN,
#define VP_IMAGE(code, spelling) VP_IMAGE_##code,
#include "zeinfo.def"
} vp_image;
typedef enum vp_sampler {
    VP_SAMPLER_UNKNOWN,
#define VP_SAMPLER(code, spelling) VP_SAMPLER_##code,
#include "zeinfo.def"
} vp_sampler;
typedef enum vp_buftype {
    VP_BUFTYPE_UNKNOWN,
#define VP_BUFTYPE(code, spelling) VP_BUFTYPE_##code,
#include "zeinfo.def"
} vp_buftype;
typedef enum vp_bufuse {
    VP_BUFUSE_UNKNOWN,
#define VP_BUFUSE(code, spelling) VP_BUFUSE_##code,
#include "zeinfo.def"
} vp_bufuse;
typedef enum vp_sched {
    VP_SCHED_UNKNOWN,
#define VP_SCHED(code, spelling) VP_SCHED_##code,
#include "zeinfo.def"
} vp_sched;
typedef enum vp_sampaddr {
    VP_SAMPADDR_UNKNOWN,
#define VP_SAMPADDR(code, spelling) VP_SAMPADDR_##code,
#include "zeinfo.def"
} vp_sampaddr;
typedef enum vp_sampfilter {
    VP_SAMPFILTER_UNKNOWN,
#define VP_SAMPFILTER(code, spelling) VP_SAMPFILTER_##code,
#include "zeinfo.def"
} vp_sampfilter;

/* The spelling of value `code` of a table ("unknown" for 0 or out of range). */
const char *vp_zeinfo_name(vp_table_id table, int32_t code);
/* True for the argument types that describe an explicit kernel argument (they carry arg_index). */
bool vp_arg_type_is_explicit(vp_arg_type type);

/* Records: one struct per zeinfo.def record, a member per row: INT int32_t, BOOL bool, STR const
** char *, INT3 int32_t[3], ENUM int32_t (a code of its table) plus <member>_name, the spelling
** IGC wrote (NULL when absent).  `present` has bit VP_<REC>_<member> set for each key the YAML
** had; line/col locate the record in the .ze_info text (1-based). */
#define VP_DECL_INT(m) int32_t m;
#define VP_DECL_BOOL(m) bool m;
#define VP_DECL_STR(m) const char *m;
#define VP_DECL_INT3(m) int32_t m[3];
#define VP_DECL_ENUM(m) \
    int32_t m;          \
    const char *m##_name;
#define VP_RECORD_TAIL \
    uint64_t present;  \
    uint32_t line, col;

typedef struct vp_exec_env {
#define VP_ENV(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_exec_env;
typedef struct vp_user_attrs {
#define VP_UATTR(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_user_attrs;
typedef struct vp_payload_arg {
#define VP_PARG(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_payload_arg;
typedef struct vp_per_thread_arg {
#define VP_PTARG(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_per_thread_arg;
typedef struct vp_bti {
#define VP_BTI(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_bti;
typedef struct vp_thread_buffer {
#define VP_PTMB(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_thread_buffer;
typedef struct vp_inline_sampler {
#define VP_ISAMP(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_inline_sampler;
typedef struct vp_arg_info {
#define VP_ARGINFO(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_arg_info;
typedef struct vp_host_access {
#define VP_HOSTACC(m, kind, table, def, lo, hi, req) VP_DECL_##kind(m)
#include "zeinfo.def"
    VP_RECORD_TAIL
} vp_host_access;

/* Presence bits: VP_<REC>_<member> */
enum {
#define VP_ENV(m, kind, table, def, lo, hi, req) VP_ENV_##m,
#include "zeinfo.def"
    VP_ENV__COUNT
};
enum {
#define VP_UATTR(m, kind, table, def, lo, hi, req) VP_UATTR_##m,
#include "zeinfo.def"
    VP_UATTR__COUNT
};
enum {
#define VP_PARG(m, kind, table, def, lo, hi, req) VP_PARG_##m,
#include "zeinfo.def"
    VP_PARG__COUNT
};
#define VP_PRESENT(record, bit) (((record)->present >> (bit)) & 1u)

typedef struct vp_zeinfo_kernel {
    const char *name;
    uint32_t line, col;
    vp_exec_env env;
    vp_user_attrs attrs; /* present == 0 when the kernel has none */
    const vp_payload_arg *args;
    uint32_t arg_count;
    const vp_per_thread_arg *thread_args;
    uint32_t thread_arg_count;
    const vp_bti *btis;
    uint32_t bti_count;
    const vp_thread_buffer *buffers;
    uint32_t buffer_count;
    const vp_inline_sampler *samplers;
    uint32_t sampler_count;
    const vp_arg_info *arg_infos; /* from kernels_misc_info, by index order as IGC wrote them */
    uint32_t arg_info_count;
    uint32_t explicit_args; /* 1 + the largest arg_index of payload arguments and BTIs */
    uint32_t payload_size; /* the end of the last cross-thread payload argument */
} vp_zeinfo_kernel;

typedef struct vp_zeinfo_function {
    const char *name;
    uint32_t line, col;
    vp_exec_env env;
} vp_zeinfo_function;

typedef struct vp_zeinfo {
    visa_ctx *ctx;
    vp_arena arena;
    uint32_t version_major, version_minor; /* 0.0 when the YAML had no version */
    const vp_zeinfo_kernel *kernels;
    uint32_t kernel_count;
    const vp_zeinfo_function *functions;
    uint32_t function_count;
    const vp_host_access *host_access;
    uint32_t host_access_count;
} vp_zeinfo;

/* Parse .ze_info text.  name is used in diagnostics (with YAML line and column).  Errors:
** VISA_E_SYNTAX (E-ZEINFO-* diagnostics), VISA_E_NOMEM, VISA_E_ARG. */
visa_status vp_zeinfo_parse(visa_ctx *ctx, const char *name, const char *text, size_t len, vp_zeinfo **out);
void vp_zeinfo_free(vp_zeinfo *zi);
const vp_zeinfo_kernel *vp_zeinfo_kernel_by_name(const vp_zeinfo *zi, const char *name);

/* -- IGC's offline compiler (ocloc.c) ----------------------------------------------------------- */
typedef struct vp_ocloc_request {
    const char *device; /* ocloc's -device: "tgllp", "dg2-g10", "pvc", "mtl", ... */
    const char *options; /* OpenCL build options ("-cl-std=CL2.0 -DN=4"); NULL for none */
    const void *source; /* OpenCL C text, or a SPIR-V module when spirv is set */
    size_t source_len;
    bool spirv;
    const char *name; /* the input's name in IGC's messages; NULL: "kernel.cl" / "kernel.spv" */
    const char *internal_options; /* IGC internal options after visa's own; NULL for none */
} vp_ocloc_request;

typedef struct vp_ocloc_result {
    uint8_t *zebin; /* the zebin IGC wrote (NULL when the build failed) */
    size_t zebin_len;
    char *log; /* ocloc's and IGC's messages, NUL-terminated ("" when there were none) */
    size_t log_len; /* bytes before the terminating NUL that log was given */
    int status; /* what oclocInvoke returned (0: success) */
} vp_ocloc_result;

/* Compile through libocloc.so (loaded on first use; VISA_OCLOC_LIB in the environment names
** another file).  The result is the caller's to release with vp_ocloc_result_free, also on
** failure (it then holds the build log).  Errors: VISA_E_UNSUPPORTED when libocloc cannot be
** loaded (E-OCLOC-LOAD), VISA_E_SYNTAX when the build failed (E-OCLOC-BUILD), VISA_E_ARG for a
** bad device or option (E-OCLOC-ARG), VISA_E_NOMEM. */
visa_status vp_ocloc_compile(visa_ctx *ctx, const vp_ocloc_request *req, vp_ocloc_result *out);
void vp_ocloc_result_free(visa_ctx *ctx, vp_ocloc_result *res);

/* -- A program: a zebin and its .ze_info (program.c) -------------------------------------------- */
typedef struct vp_program_kernel {
    const char *name;
    const vp_zebin_kernel *code; /* native code and vISA text */
    const vp_zeinfo_kernel *info; /* execution env, payload, argument metadata */
} vp_program_kernel;

typedef struct vp_printf_string {
    uint64_t offset; /* in .data.const.string */
    const char *text; /* NUL-terminated, in the zebin's copy */
    size_t len;
} vp_printf_string;

typedef struct vp_program {
    visa_ctx *ctx;
    vp_zebin *zebin;
    vp_zeinfo *zeinfo;
    vp_arena arena;
    const vp_program_kernel *kernels; /* in the order of .ze_info */
    uint32_t kernel_count;
    const vp_printf_string *printf_strings; /* the strings of .data.const.string, in order */
    uint32_t printf_string_count;
} vp_program;

/* Read a zebin and parse its .ze_info; every .ze_info kernel must have its code section.
** Errors as vp_zebin_read and vp_zeinfo_parse (the .ze_info diagnostics name "<name>:.ze_info"),
** and E-PROGRAM-* ones. */
visa_status vp_program_read(visa_ctx *ctx, const char *name, const void *data, size_t len, vp_program **out);
void vp_program_free(vp_program *prog);
const vp_program_kernel *vp_program_kernel_by_name(const vp_program *prog, const char *name);
/* The printf string at `offset` of .data.const.string (a format string's address minus the
** section's base), or NULL. */
const vp_printf_string *vp_program_printf_string(const vp_program *prog, uint64_t offset);

#endif
