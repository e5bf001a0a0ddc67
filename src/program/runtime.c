/* runtime.c -- what a runtime provides a launch beside the caller's arguments (docs/program.md):
** private memory, the printf buffer and printf's output, and the checks of what the kernel asks
** of the runtime that the emulator cannot give.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_launch.h"
#include "printf.h"

static bool env_error(cl_plan *P, const char *what) {
    vp_diag_offset(P->ds, PDIAG_PROGRAM_UNSUPPORTED, VISA_DIAG_NO_OFFSET, "kernel %s: %s", P->kx->k->name, what);
    return false;
}

visa_status vp_launch_check_env(cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    const vp_exec_env *env = &k->env;
    const int32_t *walk = env->work_group_walk_order_dimensions;
    if (VP_PRESENT(env, VP_ENV_work_group_walk_order_dimensions) && (walk[0] != 0 || walk[1] != 1 || walk[2] != 2))
        return env_error(P, "a work-group walk order other than x, y, z is not emulated"), VISA_E_UNSUPPORTED;
    if (P->simd != 8 && P->simd != 16 && P->simd != 32)
        return env_error(P, "its SIMD size is not 8, 16 or 32"), VISA_E_UNSUPPORTED;
    for (uint32_t i = 0; i < k->thread_arg_count; i++)
        if (k->thread_args[i].arg_type != VP_ARG_LOCAL_ID)
            return env_error(P, "a per-thread payload other than local ids (packed local ids) is not emulated"),
                   VISA_E_UNSUPPORTED;
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        switch (a->arg_type) {
        case VP_ARG_IMPLICIT_ARG_BUFFER:
        case VP_ARG_SYNC_BUFFER:
        case VP_ARG_RT_GLOBAL_BUFFER:
        case VP_ARG_ASSERT_BUFFER:
        case VP_ARG_INDIRECT_DATA_POINTER:
        case VP_ARG_SCRATCH_POINTER:
        case VP_ARG_REGION_GROUP_DIMENSION:
        case VP_ARG_CONST_BASE:
        case VP_ARG_GLOBAL_BASE: {
            char why[160];
            snprintf(why, sizeof why, "the payload argument %s is not provided by the emulator's launch yet",
                     a->arg_type_name ? a->arg_type_name : "?");
            return env_error(P, why), VISA_E_UNSUPPORTED;
        }
        default: break;
        }
    }
    return VISA_OK;
}

/* Private memory (per_thread_memory_buffers, usage private_space): `size` bytes per work-item
** (is_simt_thread) or per thread.  IGC addresses it as private_base + HWTID x (bytes per thread)
** + lane x size (PrivateMemoryResolution), HWTID being the hardware thread's number, which the
** emulator gives each thread running at the same time (worker x threads per group + thread in
** group: launch.c sr0_thread_bits).  So the buffer holds one slice per such thread. */
static uint64_t private_per_thread(const cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    uint64_t per_thread = 0;
    for (uint32_t i = 0; i < k->buffer_count; i++) {
        const vp_thread_buffer *b = &k->buffers[i];
        if (b->usage == VP_BUFUSE_PRIVATE_SPACE) per_thread += (uint64_t)b->size * (b->is_simt_thread ? P->simd : 1);
    }
    return per_thread;
}

/* Private memory on scratch space (per_thread_memory_buffers type scratch, usage single_space):
** `size` bytes per hardware thread, which compute-runtime rounds up to a power of two of at least
** 1 KiB before XeHP and 64 bytes from XeHP on (zebin_decoder's PerThreadMemoryBuffer,
** getMinimalScratchSpaceSize).  The hardware gives each thread its slice (r0.5, or the scratch
** surface from XeHP on); the emulator does the same with visa_run_opts.scratch_size, numbering the
** threads as for private memory.  (usage spill_fill_space is the finalizer's, not vISA's.) */
static uint64_t scratch_per_thread(const cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    uint64_t size = 0;
    for (uint32_t i = 0; i < k->buffer_count; i++) {
        const vp_thread_buffer *b = &k->buffers[i];
        if (b->type == VP_BUFTYPE_SCRATCH && b->usage == VP_BUFUSE_SINGLE_SPACE)
            size += (uint64_t)b->size * (b->is_simt_thread ? P->simd : 1);
    }
    if (!size) return 0;
    uint64_t pow2 = P->program->platform >= VISA_PLATFORM_XEHP ? 64 : 1024;
    while (pow2 < size) pow2 <<= 1;
    return pow2;
}

/* The most hardware-thread numbers IGC's decoding gives back (r0.5 bits 9:0 on XeLP; 12 bits of
** %sr0 after the removed bits on XeHP and later). */
static uint64_t max_hw_threads(visa_platform plat) { return plat >= VISA_PLATFORM_XEHP ? 4096 : 1024; }

static bool wants(const vp_zeinfo_kernel *k, vp_arg_type type) {
    for (uint32_t i = 0; i < k->arg_count; i++)
        if (k->args[i].arg_type == (int32_t)type) return true;
    return false;
}

/* A zeroed buffer of per_thread bytes for each hardware thread running at once (host threads x
** threads per group), added to the buffer table at *slot. */
static visa_status alloc_per_thread(cl_plan *P, uint64_t per_thread, const char *what, uint8_t **mem, size_t *bytes,
                                    uint32_t *slot) {
    uint64_t items = P->local[0] * P->local[1] * P->local[2];
    uint64_t slots = (uint64_t)(P->launch->threads ? P->launch->threads : 1) * ((items + P->simd - 1) / P->simd);
    if (slots > max_hw_threads(P->program->platform) || per_thread > UINT32_MAX ||
        per_thread * slots > ((uint64_t)1 << 32)) {
        vp_diag_offset(P->ds, PDIAG_PROGRAM_LAUNCH, VISA_DIAG_NO_OFFSET,
                       "kernel %s: %llu host threads x threads per group need %llu hardware threads of "
                       "%s (%llu bytes each); at most %llu and 4 GiB: use fewer host threads",
                       P->kx->k->name, (unsigned long long)(P->launch->threads ? P->launch->threads : 1),
                       (unsigned long long)slots, what, (unsigned long long)per_thread,
                       (unsigned long long)max_hw_threads(P->program->platform));
        return VISA_E_ARG;
    }
    *bytes = (size_t)(per_thread * slots);
    *mem = vx_alloc(P->ctx, *bytes);
    if (!*mem) return VISA_E_NOMEM;
    memset(*mem, 0, *bytes);
    *slot = (uint32_t)P->nbufs;
    P->bufs[P->nbufs++] = (visa_buffer){*mem, *bytes};
    return VISA_OK;
}

visa_status vp_launch_own_buffers(cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    P->private_slot = P->scratch_slot = P->printf_slot = UINT32_MAX;
    uint64_t per_thread = private_per_thread(P), scratch = scratch_per_thread(P);
    visa_status st = VISA_OK;
    if (per_thread)
        st = alloc_per_thread(P, per_thread, "private memory", &P->private_mem, &P->private_bytes, &P->private_slot);
    if (st == VISA_OK && scratch) {
        P->scratch_size = (uint32_t)scratch;
        st = alloc_per_thread(P, scratch, "scratch space", &P->scratch_mem, &P->scratch_bytes, &P->scratch_slot);
    }
    if (st != VISA_OK) return st;
    if (wants(k, VP_ARG_PRINTF_BUFFER)) {
        P->printf_bytes = VP_PRINTF_BUFFER_BYTES;
        P->printf_mem = vx_alloc(P->ctx, P->printf_bytes);
        if (!P->printf_mem) return VISA_E_NOMEM;
        vp_printf_buffer_init(P->printf_mem, P->printf_bytes);
        P->printf_slot = (uint32_t)P->nbufs;
        P->bufs[P->nbufs++] = (visa_buffer){P->printf_mem, P->printf_bytes};
    }
    return VISA_OK;
}

bool vp_launch_own_undef(const cl_plan *P, uint8_t *flags) {
    /* initcheck: private memory starts undefined (a kernel's uninitialised private variables) */
    if (flags && P->private_mem) flags[P->private_slot] = 1;
    if (flags && P->scratch_mem) flags[P->scratch_slot] = 1;
    return P->private_mem || P->scratch_mem;
}

void vp_launch_fill_own(cl_plan *P, const vp_payload_arg *a, uint8_t *dst) {
    if (a->arg_type == VP_ARG_PRIVATE_BASE_STATELESS && P->private_slot != UINT32_MAX)
        vp_put_le(dst, visa_buffer_address(P->private_slot), (unsigned)a->size);
    if (a->arg_type == VP_ARG_PRINTF_BUFFER && P->printf_slot != UINT32_MAX)
        vp_put_le(dst, visa_buffer_address(P->printf_slot), (unsigned)a->size);
}

visa_status vp_launch_finish(cl_plan *P) {
    if (!P->printf_mem) return VISA_OK;
    return vp_printf_output(P->program, P->printf_mem, P->printf_bytes, P->ds, P->launch->printf_out,
                            P->launch->printf_ud);
}

void vp_launch_own_free(cl_plan *P) {
    if (P->private_mem) vx_free(P->ctx, P->private_mem, P->private_bytes);
    if (P->scratch_mem) vx_free(P->ctx, P->scratch_mem, P->scratch_bytes);
    if (P->printf_mem) vx_free(P->ctx, P->printf_mem, P->printf_bytes);
}
