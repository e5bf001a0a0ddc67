/* layout.c -- a kernel's payload layout: where .ze_info's offsets land in the vISA's GRF file,
** and a check, when a program is made, that every cross-thread input the kernel's vISA reads
** holds bytes .ze_info tells a runtime to write.  An input may be wider than what is written into
** it (IGC declares the 32-byte payload header as one input and reads its first 24 bytes), so the
** check is that some payload argument overlaps it.  The two come from the same compilation, so they agree
** for anything IGC wrote; a zebin whose sections were edited or mixed would otherwise run with
** zeros in an input nobody writes, a silent wrong answer. */
#include <stdio.h>

#include "program_api.h"

uint32_t vp_per_thread_size(const vp_zeinfo_kernel *k, visa_platform platform) {
    uint32_t size = 0;
    for (uint32_t i = 0; i < k->thread_arg_count; i++) size += (uint32_t)k->thread_args[i].size;
    /* without local ids IGC still leaves one GRF of per-thread payload before the cross-thread data
    ** where the runtime loads the payload indirectly, without inline data: before XeHP
    ** (compute-runtime KernelArgs::checkForZeroPerThreadData) */
    if (!size && platform < VISA_PLATFORM_XEHP) size = visa_platform_grf_bytes(platform);
    return size;
}

/* The GRF-file byte where .ze_info's offset 0 lies: after r0 and the per-thread payload. */
static uint32_t cross_thread_start(const vp_zeinfo_kernel *k, visa_platform platform) {
    uint32_t grf = visa_platform_grf_bytes(platform), pts = vp_per_thread_size(k, platform);
    return grf + (pts + grf - 1) / grf * grf;
}

/* Whether a payload argument writes some of the bytes [from, to) of the cross-thread payload. */
static bool overlapped(const vp_zeinfo_kernel *k, int64_t from, int64_t to) {
    for (uint32_t i = 0; i < k->arg_count; i++) {
        int64_t lo = k->args[i].offset, hi = lo + k->args[i].size;
        if (lo < to && hi > from) return true;
    }
    return false;
}

visa_status vp_check_inputs(const visa_program *p, const vp_program_kernel_ex *kx, diag_sink *ds) {
    const vp_zeinfo_kernel *k = kx->k->info;
    int64_t start = cross_thread_start(k, p->platform);
    size_t n = visa_kernel_input_count(kx->module, NULL);
    for (size_t i = 0; i < n; i++) {
        visa_input_info in;
        if (visa_kernel_input_at(kx->module, NULL, p->platform, i, &in) != VISA_OK) continue;
        /* the per-thread payload before `start` (local ids) is .ze_info's per_thread_payload_arguments */
        int64_t rel = (int64_t)in.offset - start;
        if (rel < 0 || !in.read || (in.role != VISA_INPUT_CROSS_THREAD && in.role != VISA_INPUT_INLINE)) continue;
        if (overlapped(k, rel, rel + in.size)) continue;
        vp_diag_offset(ds, PDIAG_PROGRAM_INPUT, VISA_DIAG_NO_OFFSET,
                       "kernel %s: its vISA reads input %s (GRF bytes %d-%u, cross-thread bytes %lld-%lld), which "
                       "no payload argument of its .ze_info describes: a runtime would not write it",
                       kx->k->name, in.name, in.offset, (unsigned)in.offset + in.size - 1, (long long)rel,
                       (long long)rel + in.size - 1);
        return VISA_E_BINARY;
    }
    return VISA_OK;
}
