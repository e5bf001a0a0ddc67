/* abi.h -- the launch ABI of a kernel (docs/launch.md): which model it follows, where its
** per-thread payload and inline data lie, and what role each input plays.  Shared by the launch
** (launch.c) and the input listing (inputs.c), so both read the payload the same way.
*/
#ifndef VISA_EMU_ABI_H
#define VISA_EMU_ABI_H

#include "emu.h"

typedef struct emu_abi {
    bool opencl; /* Target="3d" */
    uint32_t simd; /* SimdSize attribute, 0 if absent */
    uint32_t ptis; /* PerThreadInputSize attribute, 0 if absent; or the runtime's per-thread size */
    bool ptis_runtime; /* ptis is visa_run_opts.per_thread_size (.ze_info's, which the launch trusts) */
    uint32_t grf; /* GRF bytes of the platform */
    uint32_t row; /* one local-id row: 2 bytes x SIMD lanes, rounded up to a GRF */
    uint32_t pt_begin, pt_end; /* the per-thread payload's GRF bytes [begin, end) (empty: equal) */
    uint32_t inl_begin, inl_end; /* the inline-data window (empty: equal) */
} emu_abi;

/* Inline data delivered with each thread on XeHP and later (IGC getInlineDataSize). */
#define EMU_INLINE_DATA_BYTES 32u

/* per_thread: the per-thread payload's size when the kernel's text has no PerThreadInputSize
** (visa_run_opts.per_thread_size; 0: none) */
void emu_abi_of(const ir_routine *r, visa_platform plat, uint32_t per_thread, emu_abi *abi);
/* An input's role; *dim receives the local-id row of a per-thread input, else -1. */
visa_input_role emu_input_role(const emu_abi *abi, const ir_input *in, int *dim);
static inline bool emu_role_takes_arg(visa_input_role role) {
    return role != VISA_INPUT_PER_THREAD && role != VISA_INPUT_IMPLICIT;
}
/* The name of an input's variable (general, surface or sampler), written into buf when it has
** no name of its own. */
const char *emu_input_name(const ir_routine *r, const ir_input *in, char *buf, size_t cap);

#endif
