/* visa.h -- public C API of the visa toolchain (vISA assembler, printer, codec, verifier, emulator).
**
** Everything goes through a context (visa_ctx) that owns the allocator hook and the diagnostic
** sink; the library has no global mutable state and never prints or exits.  Every fallible call
** returns a visa_status and hands results back through out-parameters.
*/
#ifndef VISA_VISA_H
#define VISA_VISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* VISA_VERSION_MAJOR/MINOR/PATCH/STRING: written by CMake from its project() version. */
#include "visa/version.h"

/* Every public function carries VISA_API: the shared library is built with hidden visibility
** and exports only these. */
#if defined(__GNUC__) || defined(__clang__)
#define VISA_API __attribute__((visibility("default")))
#else
#define VISA_API
#endif

/** The library's version ("0.1.0"), and its numbers through the pointers that are not NULL.
**  This is the library actually linked; VISA_VERSION_* are the header compiled against. */
VISA_API const char *visa_version(unsigned *major, unsigned *minor, unsigned *patch);

/* Options structs grow: each starts with struct_size, which the caller sets to sizeof the struct
** of the visa.h it was compiled with.  The library reads a field only when it lies wholly below
** struct_size, and gives the fields an older caller lacks their default (what 0 means in that
** field).  A struct_size smaller than the struct's first version is VISA_E_ARG.  New fields are
** only ever appended, after the previous version's sizeof. */

/** Status codes. 0 is success; values are stable (ABI). */
typedef enum visa_status {
    VISA_OK = 0,
    VISA_E_NOMEM, /**< allocation failed or a size limit was hit */
    VISA_E_ARG, /**< bad argument to an API call */
    VISA_E_IO, /**< file could not be read or written */
    VISA_E_SYNTAX, /**< text input has errors (see diagnostics) */
    VISA_E_BINARY, /**< binary input is malformed (see diagnostics) */
    VISA_E_VERIFY, /**< module failed verification */
    VISA_E_UNSUPPORTED, /**< valid input this build cannot handle */
    VISA_E_RUNTIME, /**< emulated program faulted */
    VISA__STATUS_FORCE32 = 0x7fffffff
} visa_status;

/** Human-readable name of a status code (static string). */
VISA_API const char *visa_status_str(visa_status status);

typedef enum visa_severity { VISA_SEV_NOTE = 0, VISA_SEV_WARNING, VISA_SEV_ERROR } visa_severity;

/** One diagnostic, delivered as data.  All pointers are valid only during the callback. */
typedef struct visa_diag {
    visa_severity severity;
    const char *code; /**< stable id such as "E-SYNTAX" or a verifier rule id; never NULL */
    const char *file; /**< input name given by the caller, or "<input>" */
    uint32_t line, col; /**< 1-based position in text input; 0 when not applicable */
    uint64_t offset; /**< byte offset in binary input (valid when line == 0), or
                                  VISA_DIAG_NO_OFFSET when the diagnostic has no position */
    const char *message; /**< formatted message, no trailing newline */
    const char *source_line; /**< the source line (not NUL-terminated) or NULL */
    size_t source_line_len;
    /* Added at the end (the library fills the struct; a reader built against the older header
    ** reads the fields above unchanged): the position in the program's own source that the
    ** diagnostic's vISA instruction came from (IGC's FILE / LOC of a -g build; vISA has no column).
    ** The message already ends with it (" at FILE:LINE"); these give it as data. */
    const char *src_file; /**< the FILE name, or NULL (none, or LOC without FILE) */
    uint32_t src_line; /**< the LOC line; 0 when the instruction has no source position */
} visa_diag;

/** visa_diag.offset of a diagnostic about the whole input (a launch's arguments, say). */
#define VISA_DIAG_NO_OFFSET UINT64_MAX

typedef void (*visa_diag_fn)(void *ud, const visa_diag *diag);

/** Lua-style allocator: new_size == 0 frees and returns NULL; otherwise acts like realloc. */
typedef void *(*visa_realloc_fn)(void *ud, void *ptr, size_t old_size, size_t new_size);

typedef struct visa_ctx_desc {
    uint32_t struct_size; /**< sizeof(visa_ctx_desc), for ABI growth */
    visa_realloc_fn alloc; /**< NULL: the C library allocator */
    void *alloc_ud;
    visa_diag_fn on_diag; /**< NULL: diagnostics are counted but dropped */
    void *diag_ud;
    uint32_t max_errors; /**< stop reporting after this many errors; 0 means 20 */
} visa_ctx_desc;

typedef struct visa_ctx visa_ctx;
typedef struct visa_module visa_module;

/** A context may serve several threads at once when its allocator and diagnostic callback are
**  thread-safe (the default allocator is).  Tables it derives from the instruction set on first
**  use (the parser's mnemonic index) stay with it until visa_ctx_destroy. */
VISA_API visa_status visa_ctx_create(const visa_ctx_desc *desc, visa_ctx **out);
VISA_API void visa_ctx_destroy(visa_ctx *ctx);

/** Platforms (GRF size 32 bytes up to XeHPG, 64 bytes from XeHPC on). */
typedef enum visa_platform {
    /* the rows of the library's platforms.def, in order: src/isa/platform.c asserts it */
    VISA_PLATFORM_GEN9 = 0,
    VISA_PLATFORM_GEN11,
    VISA_PLATFORM_XELP,
    VISA_PLATFORM_XEHP,
    VISA_PLATFORM_XEHPG,
    VISA_PLATFORM_XEHPC,
    VISA_PLATFORM_XE2,
    VISA_PLATFORM_XE3,
    VISA_PLATFORM__COUNT
} visa_platform;

/** Platform by name ("Gen9", "XeHPC", "Xe2", case-insensitive, IGC aliases such as "PVC"). */
VISA_API visa_status visa_platform_from_name(const char *name, visa_platform *out);
VISA_API const char *visa_platform_name(visa_platform platform);
VISA_API unsigned visa_platform_grf_bytes(visa_platform platform);

/** Parse vISA assembly text.  name is used in diagnostics.  On error *out is NULL and the
**  diagnostics explain why. */
VISA_API visa_status visa_module_parse_text(visa_ctx *ctx, const char *name, const char *text, size_t len,
                                            visa_platform platform, visa_module **out);
VISA_API void visa_module_destroy(visa_module *module);

typedef visa_status (*visa_write_fn)(void *ud, const char *data, size_t len);

enum {
    VISA_PRINT_STRIP_COMMENTS = 1u << 0, /**< IGC's canonical form: drop the user's comments */
    VISA_PRINT_ASM_TEXT = 1u << 1, /**< IGC's asm-text print (what its vISA_IsaAssembly dumps,
                                              e.g. IGC 2.x's OpenCL/SYCL .visaasm files, look like):
                                              no predefined-variable block, no blank header lines.
                                              Without STRIP_COMMENTS a module parsed from text in
                                              that style prints in it anyway (a formatter keeps the
                                              file's style). */
};

/** Text dialects: which IGC's print a text looks like.  Every dialect parses; a module remembers
**  the one its text was written in (a decoded object: VISA_DIALECT_IGC2). */
typedef enum visa_dialect {
    VISA_DIALECT_KEEP = 0, /**< printing: the module's own dialect (see VISA_PRINT_*) */
    VISA_DIALECT_IGC2, /**< "igc2": IGC 2.x's disassembly print (blank line after .version,
                                 22 predefined variables, a blank line before .function) */
    VISA_DIALECT_ASM_TEXT, /**< "asm-text": IGC 2.x's asm-text print (VISA_PRINT_ASM_TEXT) */
    VISA_DIALECT_IGC1, /**< "igc1": IGC 1.0.x's dump (1.0.12504, Debian 12's ocloc): no
                                 blank line after .version, 21 predefined variables (no
                                 %scratchloc), a blank line after .function, LSC sizes d8c32 and
                                 d16c32, SVM block messages without .aligned/.unaligned */
    VISA_DIALECT__COUNT
} visa_dialect;

/** Dialect by name ("igc2", "asm-text", "igc1"); VISA_E_ARG for an unknown name. */
VISA_API visa_status visa_dialect_from_name(const char *name, visa_dialect *out);
/** The name of a dialect ("igc2"...); "keep" for VISA_DIALECT_KEEP, NULL if out of range. */
VISA_API const char *visa_dialect_name(visa_dialect dialect);
/** The dialect the module's text was written in (IGC2 for a decoded object). */
VISA_API visa_dialect visa_module_dialect(const visa_module *module);

/** Print flag choosing the dialect: VISA_PRINT_DIALECT(VISA_DIALECT_IGC1).  Without one (KEEP) a
**  module prints in its own dialect, except that VISA_PRINT_ASM_TEXT selects asm-text and
**  VISA_PRINT_STRIP_COMMENTS turns asm-text into igc2 (IGC 2.x's canonical print).  A dialect
**  that contradicts VISA_PRINT_ASM_TEXT, or an unknown one, is VISA_E_ARG. */
#define VISA_PRINT_DIALECT(d) ((uint32_t)(d) << 8)
#define VISA_PRINT_DIALECT_OF(flags) ((visa_dialect)(((flags) >> 8) & 0xFu))

typedef struct visa_print_opts {
    uint32_t struct_size; /**< sizeof(visa_print_opts) */
    uint32_t flags; /**< VISA_PRINT_*, VISA_PRINT_DIALECT(d) */
} visa_print_opts;

/** Print a module as IGC prints it.  opts may be NULL (keep comments). */
VISA_API visa_status visa_module_print(const visa_module *module, const visa_print_opts *opts, visa_write_fn write,
                                       void *ud);

/** Convenience: print into a buffer allocated with the context allocator; free with
**  visa_free(ctx, *out, *out_len + 1).  The buffer is NUL-terminated. */
VISA_API visa_status visa_module_print_to_buffer(const visa_module *module, const visa_print_opts *opts, char **out,
                                                 size_t *out_len);
VISA_API void visa_free(visa_ctx *ctx, void *ptr, size_t size);

/** The name the module was parsed or decoded with (what its diagnostics give as their file; a
**  program's kernel: "PROGRAM:KERNEL.visaasm"); valid while the module lives. */
VISA_API const char *visa_module_name(const visa_module *module);

/** Number of kernels + functions in the module. */
VISA_API size_t visa_module_routine_count(const visa_module *module);

/* -- Binary objects (.isa, version 4.1) ---------------------------------------------------- */

/** Encode a module as a vISA object.  Bytes that depend on the GRF size (address-of offsets,
**  stored as GRF rows and columns) were fixed for the platform the module was parsed or decoded
**  for; `platform` must be a valid platform.  *out is allocated with the context allocator: free
**  it with visa_free(ctx, *out, *out_len). */
VISA_API visa_status visa_module_encode(const visa_module *module, visa_platform platform, uint8_t **out,
                                        size_t *out_len);

/** Decode a vISA object.  Every count, offset and index is checked: malformed input gets
**  diagnostics with byte offsets and VISA_E_BINARY, never a crash or an allocation larger than the
**  input justifies. */
VISA_API visa_status visa_module_decode(visa_ctx *ctx, const char *name, const void *bytes, size_t len,
                                        visa_platform platform, visa_module **out);

/** The context a module was created with. */
VISA_API visa_ctx *visa_module_ctx(const visa_module *module);

/* -- Verifier ------------------------------------------------------------------------------ */

enum {
    VISA_VERIFY_WERROR = 1u << 0, /**< count warnings as errors (the status becomes VISA_E_VERIFY) */
};

typedef struct visa_verify_opts {
    uint32_t struct_size; /**< sizeof(visa_verify_opts) */
    visa_platform platform; /**< the target: availability, type maps, GRF size */
    uint32_t flags; /**< VISA_VERIFY_* */
    const char *source; /**< optional: the text the module was parsed from, so that
                                 diagnostics carry their source line; NULL for none */
    size_t source_len;
} visa_verify_opts;

typedef struct visa_verify_stats {
    uint32_t errors; /**< rule violations reported as errors */
    uint32_t warnings; /**< reported as warnings */
} visa_verify_stats;

/** Check a module (from text or binary) against every rule of the spec for a platform.  Each
**  violation is a diagnostic whose `code` is the rule's stable id ("V-REGION-WIDTH"), at the
**  operand's line and column for text input, at the instruction's byte offset for binary input.
**  Returns VISA_OK when there are no errors (warnings allowed unless VISA_VERIFY_WERROR),
**  VISA_E_VERIFY otherwise, VISA_E_ARG for bad arguments.  stats may be NULL. */
VISA_API visa_status visa_module_verify(const visa_module *module, const visa_verify_opts *opts,
                                        visa_verify_stats *stats);

/** The verifier's rules, for listings and documentation: a stable id, the default severity,
**  the spec section it comes from, a one-line statement and what IGC's own vISA verifier
**  (IGC 1.0.12504, IsaVerification.cpp) does about it ("no check" when nothing). */
typedef struct visa_verify_rule {
    const char *id;
    visa_severity severity;
    const char *spec;
    const char *summary;
    const char *igc;
} visa_verify_rule;

VISA_API size_t visa_verify_rule_count(void);
/** The i-th rule, NULL past the end. */
VISA_API const visa_verify_rule *visa_verify_rule_at(size_t i);

/* -- Operand regions (5_operands: Region-based Addressing; docs/text-syntax/regions.md) ------- */
/** Lanes of a region: at most the largest execution size. */
#define VISA_REGION_MAX_LANES 32
/** Region rules one operand can break at once (the verifier's V-REGION-* and V-INDIRECT-MULTI-DST). */
#define VISA_REGION_MAX_BROKEN 6
typedef struct visa_region_opts {
    uint32_t struct_size; /**< sizeof(visa_region_opts) */
    const char *type; /**< element type ("w", "f"); NULL: the operand's own ":type" */
    uint32_t exec_size; /**< 1, 2, 4, 8, 16 or 32 */
    visa_platform platform; /**< the GRF size (32 bytes up to XeHPG, 64 from XeHPC) */
    const uint32_t *addrs; /**< indirect: the values of the address elements AN(k), AN(k+1), ...
                                 (byte offsets into the register file); NULL: AN(k) is 0.  A
                                 multi-address operand needs one per row. */
    size_t naddrs;
} visa_region_opts;
/** One broken rule. */
typedef struct visa_region_break {
    const char *id; /**< the verifier's rule id ("V-REGION-EXEC"), static */
    visa_severity severity; /**< the rule's severity (visa_verify_rule_at) */
    char message[160]; /**< e.g. "src has region width 8 above the execution size 4" */
} visa_region_break;
/** Where each lane's element lies, and the rules the region breaks. */
typedef struct visa_region {
    uint32_t struct_size; /**< sizeof(visa_region), set by the caller */
    uint32_t exec_size;
    uint32_t type_bytes; /**< element size */
    uint32_t grf_bytes;
    char type[8]; /**< the element type's name */
    bool destination; /**< written <HorzStride> (the destination form) */
    bool indirect; /**< r[A(k),off]: offsets count from register byte 0, through the addresses */
    bool multi_address; /**< indirect <Width,HorzStride>: one address per row */
    uint32_t row, col; /**< a general operand's origin (GRFs, elements) */
    /** Byte offset of lane i's element: from the start of the variable (a general operand; the
    **  variable starts on a GRF, as the JIT places every variable of a GRF or more), or from
    **  register byte 0 (an indirect operand: AN(k) + offset + ...). */
    int64_t lane_byte[VISA_REGION_MAX_LANES];
    uint32_t nbroken;
    visa_region_break broken[VISA_REGION_MAX_BROKEN];
} visa_region;
/** Lay out one operand written as in vISA text: "V(1,2)<8;4,2>" (a source), "V(0,0)<2>" (a
**  destination), "r[A0(0),16]<8;8,1>:w" (indirect).  Its name is not looked up: any name is the
**  variable.  Computes each lane's element (the spec's pseudo-code) and checks the region rules the
**  verifier checks (V-REGION-WIDTH, -VSTRIDE, -HSTRIDE, -EXEC, -DST-HSTRIDE, -COL, -GRF-SPAN,
**  V-INDIRECT-MULTI-DST); broken rules are data in *out, not diagnostics, and not a failure.
**  Text the operand parser rejects is VISA_E_SYNTAX with an E-SYNTAX diagnostic at its column
**  (file "<operand>", line 1); a bad type, execution size or platform, or a missing address, is
**  VISA_E_ARG with a diagnostic. */
VISA_API visa_status visa_region_layout(visa_ctx *ctx, const char *operand, const visa_region_opts *opts,
                                        visa_region *out);
/* -- Emulator ------------------------------------------------------------------------------------ */

typedef enum visa_arg_kind {
    VISA_ARG_SCALAR = 0, /**< raw bits in value */
    VISA_ARG_BUFFER = 1, /**< the address of buffers[buffer] */
    VISA_ARG_FLOAT = 2, /**< the number fvalue, converted to the input variable's type */
    VISA_ARG_INT = 3, /**< the integer value (two's complement), converted to the input's type */
    VISA_ARG_VECTOR = 4, /**< one SCALAR, INT or FLOAT per element of the input, each converted to
                              the input's element type: `buffer` elements from
                              visa_run_opts.vector_elems[value]; `buffer` must be the input's element
                              count (its size / its type's size) */
    /* Values a runtime supplies, computed from the launch (docs/launch.md); 3 x ud unless said */
    VISA_ARG_LOCAL_SIZE = 5, /**< work-items per group */
    VISA_ARG_GLOBAL_SIZE = 6, /**< groups x local size */
    VISA_ARG_GROUP_COUNT = 7, /**< groups */
    VISA_ARG_GLOBAL_OFFSET = 8, /**< visa_run_opts.global_offset */
    VISA_ARG_ENQUEUED_LOCAL_SIZE = 9, /**< the local size (every group is whole) */
    VISA_ARG_WORK_DIM = 10, /**< 1 x ud: 1, 2 or 3, the highest dimension above 1 */
    VISA_ARG_PAYLOAD_HEADER = 11 /**< 8 x ud: global offset, local size, 0, 0 */
} visa_arg_kind;

/** One kernel argument, for the kernel's explicit inputs (.input) in declaration order. */
typedef struct visa_arg {
    visa_arg_kind kind;
    uint64_t value; /**< scalar: its bits, little-endian, truncated to the input's size */
    uint32_t buffer; /**< buffer: index into the buffer array; the input receives its address */
    double fvalue; /**< float: the value */
} visa_arg;

/** A buffer of emulated global memory (owned by the caller; the kernel reads and writes it). */
typedef struct visa_buffer {
    uint8_t *data;
    size_t size;
} visa_buffer;

typedef struct visa_run_opts {
    uint32_t struct_size; /**< sizeof(visa_run_opts) */
    const char *kernel; /**< kernel name, NULL for the first kernel */
    visa_platform platform; /**< GRF size and platform rules */
    uint32_t groups[3]; /**< thread groups in x, y, z (0 counts as 1) */
    uint32_t group_size[3]; /**< threads per group in x, y, z (0 counts as 1) */
    uint32_t threads; /**< host threads running groups in parallel (0 counts as 1) */
    uint64_t max_steps; /**< instructions per emulated thread before giving up; 0 = 100 million,
                                 VISA_UNLIMITED = no limit (checked at back-edges, docs/launch.md) */
    bool set_cr0; /**< start every thread with %cr0 = cr0 instead of the default */
    uint32_t cr0; /**< initial %cr0 when set_cr0; the default is 0x4C0: IEEE mode, round
                                 to nearest even, F/DF/HF denormals kept (what IGC kernels set) */
    uint32_t local_size[3]; /**< work-items per group in x, y, z (the OpenCL model, docs/launch.md);
                                    all 0: not given.  Give it or group_size, not both. */
    uint32_t global_offset[3]; /**< what VISA_ARG_GLOBAL_OFFSET and the payload header give */
    const char *const *arg_names; /**< NULL, or one per argument: NULL for a positional argument, else
                                       the name of the input it goes to (V0040; T6 or a v_name).
                                       Named arguments go to their inputs first; positional ones then
                                       fill, in declaration order, the inputs that take an argument
                                       (visa_input_info.takes_arg) and were not named; positional
                                       arguments past those can only be buffers. */
    const visa_arg *vector_elems; /**< the elements VISA_ARG_VECTOR arguments refer to */
    size_t nvector_elems;
    const struct visa_observer *observer; /**< NULL: no observation (and no cost); see below */
    double timeout_seconds; /**< stop the launch with an error after this much wall time; 0 = none
                                   (version 4) */
    uint64_t max_total_steps; /**< instructions of all threads of the launch together; 0 = 100 x the
                                   per-thread limit (unlimited when that is), VISA_UNLIMITED = none
                                   (version 4) */
    uint32_t checks; /**< VISA_CHECK_* run checks (docs/observe.md); 0: none (and no cost)
                                   (version 4) */
    const uint8_t *undef_buffers; /**< NULL, or one flag per buffer of the run: nonzero means the
                                       buffer's bytes start undefined for VISA_CHECK_INITCHECK
                                       (memory the host never wrote); ignored without initcheck
                                       (version 5) */
    /* A launch by a runtime that knows the kernel's payload layout (IGC's .ze_info: the
    ** visa_program_* functions below), docs/launch.md "A payload image" (version 6). */
    const uint8_t *payload; /**< NULL, or the cross-thread payload as the runtime lays it out: copied into
                                   every thread at the kernel's cross-thread start (after the per-thread
                                   payload); cross-thread and inline inputs then take no argument */
    uint32_t payload_size; /**< bytes of payload */
    uint32_t per_thread_size; /**< bytes of per-thread payload (local ids) of a Target="3d" kernel whose text
                                   has no PerThreadInputSize (IGC 1.0's); 0: the kernel's attribute */
    uint32_t slm_size; /**< bytes of shared local memory per group when more than the kernel's
                                   SLMSize (OpenCL __local arguments); 0: SLMSize */
    uint32_t group_base[3]; /**< the first group's id in x, y, z (a remainder region of a non-uniform
                                   ND-range); 0: groups count from 0 */
    const struct visa_symbol *symbols; /**< addresses of the names `faddr` takes that the module does not
                                            define (program-scope data, printf's strings); NULL: none */
    size_t nsymbols;
    /* Scratch space: each hardware thread's private memory as IGC's per_thread_memory_buffers of
    ** type scratch use it, docs/launch.md "Scratch space" (version 7). */
    uint32_t scratch_size; /**< bytes of scratch space per hardware thread; 0: none (and no cost) */
    uint32_t scratch_buffer; /**< the buffer holding every hardware thread's scratch space: thread slot
                                  k (host worker x threads per group + thread in group) at byte
                                  k x scratch_size; it must hold threads x threads per group of them */
    const uint8_t *buffer_access; /**< NULL, or one visa_buffer_access per buffer of the run: what the
                                       host allowed the kernel (OpenCL's CL_MEM_READ_ONLY /
                                       WRITE_ONLY); VISA_CHECK_MEMCHECK reports stores to read-only
                                       buffers (version 7) */
    uint32_t enqueued_local_size[3]; /**< the ND-range's local size when this launch is a remainder region
                                          with smaller groups (group_base): findings name a work-item's
                                          global id as group x this + local id + global_offset; all 0:
                                          local_size (version 8) */
} visa_run_opts;

/** What the host lets a kernel do with a buffer (visa_run_opts.buffer_access). */
typedef enum visa_buffer_access {
    VISA_BUFFER_READ_WRITE = 0,
    VISA_BUFFER_READ_ONLY = 1, /**< a store or atomic is a memcheck finding */
    VISA_BUFFER_WRITE_ONLY = 2 /**< not judged by memcheck: IGC's own code reads write-only buffers
                                    (a store to part of a vector is a load and a store of the whole) */
} visa_buffer_access;

/** A symbol outside the module and its emulated address (visa_run_opts.symbols). */
typedef struct visa_symbol {
    const char *name;
    uint64_t address;
} visa_symbol;

/** visa_run_opts.max_steps / max_total_steps: no limit. */
#define VISA_UNLIMITED UINT64_MAX

/* Run checks (visa_run_opts.checks, docs/observe.md "Run checks").  Each finding is an error
** diagnostic with a C-<CHECK>-<RULE> code at the instruction's source position, naming group,
** thread, lane and the address or register bytes; the run goes on after a finding (an
** out-of-bounds access reads 0 and drops writes) and visa_module_run returns VISA_E_RUNTIME when
** there was any.  At most 100 are reported, then a note "and N more".  Groups run one after
** another on one host thread while checking. */
enum {
    VISA_CHECK_MEMCHECK = 1u << 0, /**< out-of-bounds and misaligned accesses, bad indirect/address registers */
    VISA_CHECK_INITCHECK =
        1u << 1, /**< undefined register / SLM / global bytes stored, used as addresses or deciding branches */
    VISA_CHECK_RACECHECK = 1u << 2, /**< conflicting SLM / global accesses without a barrier between */
    VISA_CHECK_SYNCCHECK = 1u << 3, /**< barrier misuse and deadlocks */
    VISA_CHECK_ALL = 0xFu
};

/** The checks a comma-separated list names ("memcheck,racecheck", "all": what `visa run --check=`
**  and the OpenCL ICD's VISA_CL_CHECK take); VISA_E_ARG (and *out 0) for a name that is none. */
VISA_API visa_status visa_checks_from_names(const char *list, uint32_t *out);


/* -- Observing a run (docs/observe.md) ---------------------------------------------------------
** An observer sees every executed instruction and every memory access of a run.  The events of
** one thread group are delivered on one host thread, between its group_begin and group_end, in
** execution order (threads take turns at barriers, see docs/emulator.md); different groups may
** be observed on different host threads at the same time (--threads), so a consumer that wants
** one ordered stream buffers per group (group_begin's result is passed to that group's events).
** Without an observer the emulator runs its unobserved loop: observation costs nothing then. */

/** Where memory lives. */
typedef enum visa_mem_space {
    VISA_MEM_GLOBAL = 0, /**< flat (A64 / stateless) global memory: the caller's buffers */
    VISA_MEM_SLM, /**< the group's shared local memory */
    VISA_MEM_SCRATCH, /**< private scratch memory (no message of the emulator uses it yet) */
    VISA_MEM_SURFACE /**< a surface (binding-table / surface-state access) bound to a buffer */
} visa_mem_space;

typedef enum visa_mem_kind { VISA_MEM_READ = 0, VISA_MEM_WRITE, VISA_MEM_ATOMIC } visa_mem_kind;

/** Who executes: one emulated thread at one instruction. */
typedef struct visa_exec_point {
    uint64_t group_index; /**< linear group index: x + X * (y + Y * z) */
    uint32_t group[3]; /**< group id x, y, z */
    uint32_t thread; /**< thread index in the group */
    uint64_t step; /**< the thread's executed instructions before this one */
    uint32_t op; /**< instruction index: the kernel's instructions (labels count) in order,
                               then one end op, then each called function's the same way */
    const char *mnemonic; /**< e.g. "add", "lsc_load", "label" */
    uint32_t line, col; /**< source position (text input; 0 when unknown) */
} visa_exec_point;

/** One executed instruction (reported after it executed; an instruction that waits at a barrier
**  is reported once, when it completes). */
typedef struct visa_inst_event {
    visa_exec_point at;
    uint32_t exec_size; /**< channels */
    uint32_t mask_offset; /**< first channel (M1 = 0, M5 = 4, ...) */
    uint32_t enabled; /**< channel enables at execution (execution mask and predicate): bit n = channel n */
    uint64_t host_ns; /**< host time spent executing it, when the observer asks (VISA_OBSERVE_TIME) */
    /* The destination (dst_bytes 0 when the instruction has no register destination, e.g. a
    ** branch or a message: messages report their memory accesses instead).  dst_before and
    ** dst_after hold exec_size elements gathered from the destination region, element i (channel
    ** i) at i * dst_elem_bytes; disabled channels hold their unchanged bytes. */
    const char *dst_name; /**< variable name as printed (V35, %null, ...) */
    const char *dst_type; /**< element type as printed (d, f, hf, ...) */
    uint32_t dst_elem_bytes;
    uint32_t dst_row, dst_col; /**< the operand's (row, column) in the variable */
    uint32_t dst_bytes; /**< exec_size * dst_elem_bytes, or 0 */
    const uint8_t *dst_before, *dst_after;
} visa_inst_event;

/** One memory access of one lane (each lane of a message reports its own; a block message
**  reports its contiguous runs, lane 0). */
typedef struct visa_mem_event {
    visa_exec_point at;
    visa_mem_space space;
    visa_mem_kind kind;
    uint64_t address; /**< global: the emulated address; SLM: byte offset; surface: byte offset
                           in the surface */
    uint32_t buffer; /**< global / surface: the buffer index, UINT32_MAX when none holds the
                           address; SLM: UINT32_MAX */
    uint64_t offset; /**< byte offset in the buffer (or SLM) */
    uint32_t size; /**< bytes */
    uint32_t lane; /**< the message's lane (channel) */
    bool in_bounds; /**< false: the access faults, reads a default or is dropped (reported first) */
} visa_mem_event;

enum {
    VISA_OBSERVE_TIME = 1u << 0 /**< measure visa_inst_event.host_ns (a clock read per instruction) */
};

typedef struct visa_observer {
    uint32_t struct_size; /**< sizeof(visa_observer) */
    uint32_t flags; /**< VISA_OBSERVE_* */
    void *ud;
    /** A group starts; returns the user pointer its events receive (NULL callback: ud). */
    void *(*group_begin)(void *ud, uint64_t group_index);
    /** The group ended (every thread ended, or one faulted). */
    void (*group_end)(void *ud, void *group_ud, uint64_t group_index);
    void (*on_inst)(void *group_ud, const visa_inst_event *e); /**< may be NULL */
    void (*on_mem)(void *group_ud, const visa_mem_event *e); /**< may be NULL */
} visa_observer;

/** Run a kernel over an ND-range.  Results are bit-identical for any host thread count.
**  Run-time errors (unsupported instruction, out-of-bounds access, step limit) are reported
**  through the diagnostic callback with the instruction's source line and lane, and return
**  VISA_E_RUNTIME; instructions the emulator cannot run are reported before anything runs
**  (VISA_E_UNSUPPORTED). */
typedef struct visa_run_stats {
    uint64_t instructions; /**< vISA instructions executed, all threads */
    uint64_t threads; /**< emulated threads run */
} visa_run_stats;

VISA_API visa_status visa_module_run(const visa_module *module, const visa_run_opts *opts, const visa_arg *args,
                                     size_t nargs, visa_buffer *buffers, size_t nbuffers,
                                     visa_run_stats *stats /* may be NULL */);

/* -- Prepared kernels ----------------------------------------------------------------------------
** A launch needs its kernel lowered for the emulator.  That happens once per (module, kernel,
** platform) and is kept on the module: the first visa_module_run or visa_kernel_prepare of a
** kernel pays it, every later launch of it does not.  The compiled tier compiles a kept kernel
** once its launches have run about a million instructions, in a thread of its own, and later
** instructions run compiled (docs/emulator.md "Tiers").  The emulator's environment settings
** (VISA_EMU_TIER, VISA_EMU_ISA, VISA_EMU_GENERIC, VISA_EMU_JIT_HOT, VISA_EMU_JIT_WAIT) are part
** of what is kept: a change of them prepares the kernel again. */
typedef struct visa_kernel visa_kernel;

/** The prepared kernel `kernel` (NULL: the first kernel) of a module for a platform, lowered now
**  or found among those the module keeps; valid until the module is destroyed.  Instructions the
**  emulator cannot run: VISA_E_UNSUPPORTED with their diagnostics (a failed preparation is not
**  kept).  No such kernel: VISA_E_ARG.  Safe to call from several threads. */
VISA_API visa_status visa_kernel_prepare(const visa_module *module, const char *kernel, visa_platform platform,
                                         const visa_kernel **out);
/** Launch a prepared kernel: as visa_module_run, except that opts->kernel and opts->platform are
**  not read (the prepared kernel's are used).  A prepared kernel may run on several threads at once. */
VISA_API visa_status visa_kernel_run(const visa_kernel *kernel, const visa_run_opts *opts, const visa_arg *args,
                                     size_t nargs, visa_buffer *buffers, size_t nbuffers, visa_run_stats *stats);
/** The program's source position of op `op` of a prepared kernel (visa_exec_point.op of its runs):
**  the last FILE and LOC instructions before it in its routine, which IGC writes for a program
**  built with -g.  *line is 0 when there is none (LOC 0 ends a line's code); *file is NULL when no
**  FILE names one, else valid while the module lives.  VISA_E_ARG for an op past the kernel's
**  last (its ops are numbered 0, 1, ... without gaps), with *file NULL and *line 0. */
VISA_API visa_status visa_kernel_op_source(const visa_kernel *kernel, uint32_t op, const char **file, uint32_t *line);

/** What a module's emulator state has done (tests and benchmarks: one lowering per kernel however
**  often it runs). */
typedef struct visa_prepare_stats {
    uint32_t struct_size; /**< sizeof(visa_prepare_stats), set by the caller */
    uint64_t kernels; /**< prepared kernels the module keeps */
    uint64_t lowerings; /**< kernels lowered (one per kept kernel, plus failed attempts) */
    uint64_t compilations; /**< kept kernels whose code the compiled tier has compiled (by default
                            **  once a kernel is hot, in the background: docs/emulator.md "Tiers") */
    uint64_t launches; /**< launches of the module's kernels (visa_module_run and visa_kernel_run) */
    uint64_t compiled_instructions; /**< instructions the kept kernels ran in compiled code, of all
                                     **  their launches (the rest ran interpreted) */
} visa_prepare_stats;
VISA_API visa_status visa_module_prepare_stats(const visa_module *module, visa_prepare_stats *out);

/** Emulated global address of buffer `index` (what a pointer input receives). */
VISA_API uint64_t visa_buffer_address(size_t index);

/** How a launch fills an input (docs/launch.md). */
typedef enum visa_input_role {
    VISA_INPUT_CROSS_THREAD = 0, /**< an argument in the cross-thread payload: takes a visa_arg */
    VISA_INPUT_INLINE = 1, /**< an argument in the inline-data window (Target="3d", XeHP and
                                      later): takes a visa_arg */
    VISA_INPUT_PER_THREAD = 2, /**< inside the per-thread payload (local ids): the launch fills it */
    VISA_INPUT_IMPLICIT = 3, /**< .implicit_* (CM): the launch fills it */
    VISA_INPUT_SURFACE = 4, /**< a surface: takes a buffer (its binding-table index) */
    VISA_INPUT_SAMPLER = 5 /**< a sampler: takes an index */
} visa_input_role;

/** One input of a kernel, as data. */
typedef struct visa_input_info {
    const char *name; /**< the variable's name (V0041, T6); valid while the module lives */
    uint32_t index; /**< position among the kernel's inputs (declaration order) */
    int32_t offset; /**< bytes from r0 (.input offset=) */
    uint32_t size; /**< bytes */
    const char *type; /**< the variable's element type ("d", "uq"); "" for state inputs */
    uint32_t elements; /**< size / element size: the values a vector argument gives */
    visa_input_role role;
    int32_t local_id_dim; /**< per-thread: 0, 1, 2 for the x, y, z row it starts in; else -1 */
    uint32_t implicit_kind; /**< implicit: its kind (1 LOCAL_SIZE, 2 GROUP_COUNT, 3 LOCAL_ID, ...) */
    const char *implicit_name; /**< implicit: the kind's name (LOCAL_SIZE), NULL if it has none */
    bool read; /**< some instruction operand names the variable or an alias of it */
    bool takes_arg; /**< cross-thread, inline, surface and sampler inputs take an argument */
} visa_input_info;

/** What decides a kernel's launch. */
typedef struct visa_kernel_info {
    uint32_t struct_size; /**< sizeof(visa_kernel_info) */
    const char *name; /**< valid while the module lives */
    bool opencl; /**< Target="3d": the OpenCL model (SIMD threads, local ids) */
    uint32_t simd_size; /**< SimdSize, 0 if absent */
    uint32_t per_thread_input_size; /**< PerThreadInputSize, 0 if absent */
    uint32_t local_id_row_bytes; /**< bytes of one local-id row: 2 x SIMD rounded up to a GRF */
    uint32_t input_count;
    uint32_t arg_count; /**< inputs that take an argument */
} visa_kernel_info;

/** A kernel's launch facts for a platform (kernel NULL: the first kernel); VISA_E_ARG if there is
**  no such kernel or out->struct_size is too small. */
VISA_API visa_status visa_kernel_get_info(const visa_module *module, const char *kernel, visa_platform platform,
                                          visa_kernel_info *out);
/** Number of inputs of a kernel (0 if there is no such kernel). */
VISA_API size_t visa_kernel_input_count(const visa_module *module, const char *kernel);
/** Input `index` of a kernel; VISA_E_ARG past the end or if there is no such kernel. */
VISA_API visa_status visa_kernel_input_at(const visa_module *module, const char *kernel, visa_platform platform,
                                          size_t index, visa_input_info *out);
/** The keyword of a value a runtime supplies (VISA_ARG_LOCAL_SIZE: "local_size"), NULL for other
**  kinds. */
VISA_API const char *visa_arg_keyword(visa_arg_kind kind);

/* -- Programs: what IGC builds from OpenCL C or SPIR-V, run with IGC's launch ABI ----------------
** A program is a zebin (the ELF file IGC's offline compiler writes: native code, each kernel's
** vISA text, and .ze_info, which says how each kernel is launched), read from bytes or built from
** OpenCL C / SPIR-V through libocloc (Debian intel-opencl-icd, loaded at run time).  A launch
** takes OpenCL arguments (buffers, __local sizes, values), builds the payload .ze_info describes
** (docs/program.md) and runs the kernel's vISA on the emulator for the zebin's device.
** A program is immutable once made: several threads may launch its kernels at once. */
typedef struct visa_program visa_program;

typedef enum visa_program_input {
    VISA_PROGRAM_ZEBIN = 0, /**< a zebin (IGC built it with -cl-intel-emit-zebin-visa-sections) */
    VISA_PROGRAM_OPENCL_C = 1, /**< OpenCL C source, compiled through libocloc */
    VISA_PROGRAM_SPIRV = 2 /**< a SPIR-V module, compiled through libocloc */
} visa_program_input;

typedef struct visa_program_opts {
    uint32_t struct_size; /**< sizeof(visa_program_opts) */
    visa_program_input input;
    const char *device; /**< ocloc's -device for OpenCL C and SPIR-V: "tgllp", "dg2-g10", "pvc",
                                   "mtl", ...; NULL: "dg2-g10".  A zebin names its own device. */
    const char *options; /**< OpenCL build options ("-cl-std=CL2.0 -DN=4"); NULL: none */
    /** IGC internal options added to visa's own (a runtime's, such as compute-runtime's
    **  "-cl-ext=-all,+cl_khr_fp16,..."); NULL: none (version 2: a caller's struct_size without it
    **  is version 1) */
    const char *internal_options;
} visa_program_opts;

/** Make a program from `len` bytes of `data` (copied).  A failed OpenCL C / SPIR-V build returns
**  VISA_E_SYNTAX with IGC's messages as an E-OCLOC-BUILD diagnostic and still sets *out to a program
**  without kernels whose visa_program_build_log holds the log (the caller destroys it); any other
**  failure leaves *out NULL.  libocloc missing: VISA_E_UNSUPPORTED (E-OCLOC-LOAD, naming the Debian
**  package).  A malformed zebin or .ze_info: VISA_E_BINARY / VISA_E_SYNTAX with E-ZEBIN-* and
**  E-ZEINFO-* diagnostics. */
VISA_API visa_status visa_program_create(visa_ctx *ctx, const char *name, const void *data, size_t len,
                                         const visa_program_opts *opts, visa_program **out);
VISA_API void visa_program_destroy(visa_program *program);
/** IGC's build messages ("" for a zebin read as it is). */
VISA_API const char *visa_program_build_log(const visa_program *program);
/** The build options the zebin records (IGC's .misc.buildOptions: the OpenCL options it was built
**  with), "" when it records none. */
VISA_API const char *visa_program_build_options(const visa_program *program);
/** The zebin (what was read, or what IGC built), *len its size; NULL after a failed build. */
VISA_API const void *visa_program_binary(const visa_program *program, size_t *len);
/** The vISA platform the zebin's device runs, and the device's name as the zebin gives it
**  ("DG2", "PVC", "TIGERLAKE_LP"). */
VISA_API visa_platform visa_program_platform(const visa_program *program);
VISA_API const char *visa_program_device(const visa_program *program);
VISA_API size_t visa_program_kernel_count(const visa_program *program);
/** Kernel `index`'s name; NULL past the end. */
VISA_API const char *visa_program_kernel_name(const visa_program *program, size_t index);
/** A kernel's vISA module (its text from the zebin, parsed): for fmt, verify, --list-inputs and
**  observers.  NULL when there is no such kernel.  Owned by the program. */
VISA_API const visa_module *visa_program_kernel_module(const visa_program *program, const char *kernel);

/** What an OpenCL argument is. */
typedef enum visa_cl_arg_kind {
    VISA_CL_ARG_BUFFER = 0, /**< a __global or __constant pointer: a buffer (or NULL) */
    VISA_CL_ARG_LOCAL = 1, /**< a __local pointer: bytes of shared local memory */
    VISA_CL_ARG_VALUE = 2, /**< a value (scalar, vector or struct) */
    VISA_CL_ARG_SAMPLER = 3, /**< a sampler (not emulated) */
    VISA_CL_ARG_IMAGE = 4 /**< an image (not emulated) */
} visa_cl_arg_kind;

/** A kernel's facts from .ze_info. */
typedef struct visa_cl_kernel_info {
    uint32_t struct_size; /**< sizeof(visa_cl_kernel_info), set by the caller */
    const char *name;
    uint32_t arg_count; /**< OpenCL arguments */
    uint32_t simd_size; /**< 8, 16 or 32: the sub-group size */
    uint32_t slm_size; /**< bytes of __local memory the kernel itself declares */
    uint32_t private_size; /**< bytes of private memory per work-item (or per thread, see docs) */
    uint32_t required_work_group_size[3]; /**< reqd_work_group_size, or 0s */
    uint32_t grf_count;
    bool has_printf;
    /** Version 2 (a caller's struct_size without these gets version 1's fields only): */
    uint32_t required_sub_group_size; /**< intel_reqd_sub_group_size, or 0 */
    /** the kernel's OpenCL attributes as .ze_info's user_attributes give them, as compute-runtime
    **  reports CL_KERNEL_ATTRIBUTES: "name(value)" each, values with ",", separated by spaces
    **  ("reqd_work_group_size(8,1,1) vec_type_hint(uint4)"); "" for none */
    const char *attributes;
} visa_cl_kernel_info;
VISA_API visa_status visa_program_kernel_info(const visa_program *program, const char *kernel,
                                              visa_cl_kernel_info *out);

/** One OpenCL argument's facts (.ze_info's kernels_misc_info and payload_arguments). */
typedef struct visa_cl_arg_info {
    const char *name; /**< "" when IGC recorded none */
    const char *type_name; /**< "float*", "int4", "struct S", ... ("" when unknown) */
    const char *address_qualifier; /**< "__global", "__local", "__constant", "__private" */
    const char *access_qualifier; /**< "NONE", "read_only", ... */
    const char *type_qualifiers; /**< "const volatile", ... ("" for none) */
    visa_cl_arg_kind kind;
    uint32_t size; /**< bytes a VALUE takes (the struct's size: its largest source offset +
                                     size); 8 for pointers */
    const char *elem_type; /**< the vISA type ("f", "ud", ...) of a value's elements or of what a
                                pointer points to; "" for structs, images and unknown types */
    uint32_t elem_count; /**< elements of a value (a vector's width; 1 for a scalar); 0 with "" */
} visa_cl_arg_info;
VISA_API visa_status visa_program_kernel_arg(const visa_program *program, const char *kernel, size_t index,
                                             visa_cl_arg_info *out);

/** An OpenCL argument of a launch. */
typedef struct visa_cl_arg {
    visa_cl_arg_kind kind;
    void *data; /**< BUFFER: its bytes, read and written by the kernel (NULL: a NULL pointer);
                      VALUE: the value's bytes (read); LOCAL: unused */
    size_t size; /**< BUFFER: bytes; LOCAL: bytes of shared local memory; VALUE: bytes at data */
} visa_cl_arg;

typedef struct visa_cl_launch {
    uint32_t struct_size; /**< sizeof(visa_cl_launch) */
    const char *kernel; /**< the kernel's name */
    uint32_t work_dim; /**< 1, 2 or 3 */
    uint64_t global_size[3]; /**< work-items (dimensions past work_dim: 1) */
    uint64_t local_size[3]; /**< work-items per group; all 0: chosen (docs/program.md) */
    uint64_t global_offset[3];
    uint32_t threads; /**< host threads; 0: 1 */
    uint32_t checks; /**< VISA_CHECK_* */
    uint64_t max_steps; /**< as visa_run_opts */
    double timeout_seconds;
    const struct visa_observer *observer;
    /** printf's output, written after the launch, in the order the work-items' printf calls
    **  reached the buffer; NULL: printf output is dropped. */
    visa_write_fn printf_out;
    void *printf_ud;
    const uint8_t *arg_undef; /**< NULL, or one flag per argument: nonzero for a BUFFER whose bytes
                                   start undefined to VISA_CHECK_INITCHECK (memory the host never
                                   wrote) (version 2) */
    const uint8_t *arg_access; /**< NULL, or one visa_buffer_access per argument (BUFFER arguments:
                                    the cl_mem's READ_ONLY / WRITE_ONLY flags) (version 2) */
} visa_cl_launch;

/** Launch a kernel: args[i] is OpenCL argument i (nargs must be the kernel's arg_count, each of the
**  kind its visa_cl_arg_info says).  Bad arguments are VISA_E_ARG with an E-PROGRAM-ARG diagnostic
**  naming the argument; the rest as visa_module_run. */
VISA_API visa_status visa_program_run(const visa_program *program, const visa_cl_launch *launch,
                                      const visa_cl_arg *args, size_t nargs, visa_run_stats *stats);

/* -- Instruction table queries (for tools such as `visa info`) ---------------------------- */

/** Write a human-readable description of the instruction(s) with this mnemonic (opcode,
**  layout, types, exec sizes, platforms, text syntax).  Returns VISA_E_ARG if unknown. */
VISA_API visa_status visa_describe_instruction(const char *mnemonic, visa_write_fn write, void *ud);

/** Bytes of a vISA element type by its text name ("ub" 1, "hf" 2, "f" 4, "df" 8; the elem_type of
**  visa_cl_arg_info); 0 for a name that is no type. */
VISA_API unsigned visa_type_bytes(const char *name);

/** Write one line per mnemonic the text syntax accepts, with its sub-operation suffix where it
**  takes one (cmp.lt, lsc_load.ugm): the mnemonic, the table row's name and a one-line summary.
**  visa_describe_instruction accepts each of these mnemonics. */
VISA_API visa_status visa_list_instructions(visa_write_fn write, void *ud);

/** The name of routine `index` (kernels and functions in module order) and whether it is a
**  kernel (is_kernel may be NULL); NULL past the end.  Valid while the module lives. */
VISA_API const char *visa_module_routine_name(const visa_module *module, size_t index, bool *is_kernel);

#ifdef __cplusplus
}
#endif
#endif /* VISA_VISA_H */
