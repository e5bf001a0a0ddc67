/* program_api.h -- the public program object (api.c) as the launch (launch.c) and printf
** (printf.c) see it. */
#ifndef VISA_PROGRAM_API_H
#define VISA_PROGRAM_API_H

#include "program_int.h"

/* A kernel of a visa_program: its zebin and .ze_info parts, its vISA module (NULL when the zebin
** has no vISA text for it) and its OpenCL arguments. */
typedef struct vp_program_kernel_ex {
    const vp_program_kernel *k;
    visa_module *module;
    const visa_cl_arg_info *args;
    uint32_t arg_count;
    const char *attributes; /* user_attributes as CL_KERNEL_ATTRIBUTES text (visa_cl_kernel_info) */
} vp_program_kernel_ex;

/* The program's data segments (data.c), each a launch buffer at slot VP_SLOT_SEGMENTS + segment:
** past every binding-table index (VP_ZEINFO_MAX_BTI), so the same in every launch. */
enum { VP_SEG_CONST, VP_SEG_GLOBAL, VP_SEG_GLOBAL_CONST, VP_SEG_STRINGS, VP_DATA_SEGMENTS };
#define VP_SLOT_SEGMENTS (VP_ZEINFO_MAX_BTI + 1)

struct visa_program {
    visa_ctx *ctx;
    vp_arena arena;
    const char *name;
    uint8_t *binary; /* the zebin; NULL after a failed build */
    size_t binary_len;
    char *log; /* IGC's build messages, NUL-terminated; NULL for none */
    size_t log_len;
    vp_program *prog;
    visa_platform platform;
    const char *device;
    const char *build_options; /* the zebin's .misc.buildOptions, "" for none */
    vp_program_kernel_ex *kernels; /* the launchable ones: IGC's symbol-table kernel is left out */
    uint32_t kernel_count;
    visa_buffer segments[VP_DATA_SEGMENTS]; /* {NULL, 0} for an absent one; the global one is written by
                                               launches (OpenCL program-scope variables persist) */
    const visa_symbol *symbols; /* the segments' symbols and their addresses */
    size_t nsymbols;
};

const vp_program_kernel_ex *vp_kernel_find(const visa_program *p, const char *name);

/* layout.c: the per-thread payload's bytes (.ze_info's per_thread_payload_arguments, or IGC's one
** GRF before XeHP); that every cross-thread input the kernel's vISA reads is a payload argument */
uint32_t vp_per_thread_size(const vp_zeinfo_kernel *k, visa_platform platform);
visa_status vp_check_inputs(const visa_program *p, const vp_program_kernel_ex *kx, diag_sink *ds);

/* data.c: the segments, their symbols and relocations */
visa_status vp_data_build(visa_program *p, diag_sink *ds);
uint64_t vp_segment_address(unsigned seg);
/* The string at an address in .data.const.string, *max_len the bytes after it; NULL if none. */
const char *vp_data_string(const visa_program *p, uint64_t address, size_t *max_len);

#endif
