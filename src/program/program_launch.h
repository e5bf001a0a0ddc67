/* program_launch.h -- one OpenCL launch as launch.c plans it, and what runtime.c adds to it: the
** buffers a runtime provides (private memory, printf), their payload arguments, the checks of the
** kernel's execution environment, and printf's output after the run. */
#ifndef VISA_PROGRAM_LAUNCH_H
#define VISA_PROGRAM_LAUNCH_H

#include "program_api.h"

/* Buffers the launch adds after the arguments' (runtime.c): private memory, scratch space, printf. */
#define VP_LAUNCH_OWN_BUFFERS 3

/* n bytes of v, little-endian, into a payload (at most 8). */
static inline void vp_put_le(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n && i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

typedef struct cl_plan {
    visa_ctx *ctx;
    const visa_program *program;
    const vp_program_kernel_ex *kx;
    const visa_cl_launch *launch;
    const visa_cl_arg *args;
    size_t nargs;
    diag_sink *ds;
    uint32_t simd, per_thread_size;
    uint64_t global[3], local[3], offset[3]; /* local: the enqueued work-group size */
    uint64_t whole[3], rest[3], groups[3]; /* per dimension: whole groups, the remainder's size, all groups */
    uint32_t *arg_slot; /* per argument: its buffer's slot, UINT32_MAX for none */
    uint32_t *slm_offset; /* per argument: a __local argument's SLM offset */
    uint32_t slm_bytes;
    visa_buffer *bufs;
    size_t nbufs, nbufs_cap;
    /* per buffer slot (nbufs_cap): buf_undef, memory no one wrote (the launch's arg_undef and the
    ** runtime's private memory: visa_run_opts.undef_buffers), buf_access, the launch's arg_access
    ** of its argument; NULL when there is none */
    uint8_t *buf_undef, *buf_access;
    uint8_t *payload;
    uint32_t payload_size;
    /* runtime.c's */
    uint32_t private_slot, scratch_slot, printf_slot;
    uint8_t *private_mem, *scratch_mem, *printf_mem;
    size_t private_bytes, scratch_bytes, printf_bytes;
    uint32_t scratch_size; /* bytes of scratch space per hardware thread (visa_run_opts.scratch_size) */
} cl_plan;

/* The execution environment's demands the emulator cannot meet: a clear error each. */
visa_status vp_launch_check_env(cl_plan *P);
/* Add the runtime's buffers the kernel's payload asks for. */
visa_status vp_launch_own_buffers(cl_plan *P);
/* Whether the runtime's buffers include memory that starts undefined (private, scratch); with
** flags (one per buffer slot) also mark them there. */
bool vp_launch_own_undef(const cl_plan *P, uint8_t *flags);
/* Fill a payload argument that is the runtime's (private base, printf buffer, ...). */
void vp_launch_fill_own(cl_plan *P, const vp_payload_arg *a, uint8_t *dst);
/* After the run: printf's output. */
visa_status vp_launch_finish(cl_plan *P);
void vp_launch_own_free(cl_plan *P);

#endif
