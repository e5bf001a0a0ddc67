/* opts.c -- reading the caller's options structs (visa.h: "Options structs grow").
**
** One rule for all of them: the caller says how many bytes it filled in (struct_size, the
** sizeof of the visa.h it was compiled with).  A field is read only when it lies entirely below
** struct_size; a field past it gets its default, which is 0 for every field (the consumers give
** 0 its documented meaning).  struct_size below the end of the struct's first version is a bad
** argument: no caller ever had a smaller struct.  A larger struct_size (a newer caller) is
** accepted and the fields this library does not know are ignored.
**
** Each reader copies into a zeroed full-size struct, so the code behind the API only ever sees
** a complete struct.
*/
#include "core.h"

#include <string.h>

/* Offset just past `field`: the smallest struct_size that covers it. */
#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* The end of each struct's first version (its last field then); a new field is added after the
** previous version's sizeof, never in its tail padding. */
#define CTX_DESC_V1 END_OF(visa_ctx_desc, max_errors)
#define PRINT_OPTS_V1 END_OF(visa_print_opts, flags)
#define VERIFY_OPTS_V1 END_OF(visa_verify_opts, source_len)
#define RUN_OPTS_V1 \
    END_OF(visa_run_opts, max_steps) /* set_cr0 and cr0 came in version 2, observer in 3,
                                                        ** timeout_seconds, max_total_steps
                                                        ** and checks in 4, undef_buffers in 5,
                                                        ** payload .. nsymbols in 6, scratch and
                                                        ** buffer_access in 7 */
#define OBSERVER_V1 END_OF(visa_observer, on_mem)
#define CL_LAUNCH_V1 END_OF(visa_cl_launch, printf_ud) /* arg_undef and arg_access came in version 2 */
#define REGION_OPTS_V1 END_OF(visa_region_opts, naddrs)

/* Start a reader: reject a too-small struct, then zero the copy. */
#define OPTS_BEGIN(in, out, v1)                          \
    do {                                                 \
        if ((in)->struct_size < (v1)) return VISA_E_ARG; \
        memset((out), 0, sizeof *(out));                 \
        (out)->struct_size = (uint32_t)sizeof *(out);    \
    } while (0)

/* Copy one field when the caller's struct covers it whole. */
#define TAKE(in, out, field)                                   \
    do {                                                       \
        if (VX_OPT_HAS(in, field)) (out)->field = (in)->field; \
    } while (0)

visa_status visa__ctx_desc_read(const visa_ctx_desc *in, visa_ctx_desc *out) {
    OPTS_BEGIN(in, out, CTX_DESC_V1);
    TAKE(in, out, alloc);
    TAKE(in, out, alloc_ud);
    TAKE(in, out, on_diag);
    TAKE(in, out, diag_ud);
    TAKE(in, out, max_errors);
    return VISA_OK;
}

visa_status visa__print_opts_read(const visa_print_opts *in, visa_print_opts *out) {
    OPTS_BEGIN(in, out, PRINT_OPTS_V1);
    TAKE(in, out, flags);
    return VISA_OK;
}

visa_status visa__verify_opts_read(const visa_verify_opts *in, visa_verify_opts *out) {
    OPTS_BEGIN(in, out, VERIFY_OPTS_V1);
    TAKE(in, out, platform);
    TAKE(in, out, flags);
    TAKE(in, out, source);
    TAKE(in, out, source_len);
    return VISA_OK;
}

visa_status visa__run_opts_read(const visa_run_opts *in, visa_run_opts *out) {
    OPTS_BEGIN(in, out, RUN_OPTS_V1);
    TAKE(in, out, kernel);
    TAKE(in, out, platform);
    for (int k = 0; k < 3; k++) {
        TAKE(in, out, groups[k]);
        TAKE(in, out, group_size[k]);
    }
    TAKE(in, out, threads);
    TAKE(in, out, max_steps);
    TAKE(in, out, set_cr0);
    TAKE(in, out, cr0);
    for (int k = 0; k < 3; k++) {
        TAKE(in, out, local_size[k]);
        TAKE(in, out, global_offset[k]);
    }
    TAKE(in, out, arg_names);
    TAKE(in, out, vector_elems);
    TAKE(in, out, nvector_elems);
    TAKE(in, out, observer); /* version 3 */
    TAKE(in, out, timeout_seconds); /* version 4 */
    TAKE(in, out, max_total_steps);
    TAKE(in, out, checks);
    TAKE(in, out, undef_buffers); /* version 5 */
    TAKE(in, out, payload); /* version 6 */
    TAKE(in, out, payload_size);
    TAKE(in, out, per_thread_size);
    TAKE(in, out, slm_size);
    for (int k = 0; k < 3; k++) TAKE(in, out, group_base[k]);
    TAKE(in, out, symbols);
    TAKE(in, out, nsymbols);
    TAKE(in, out, scratch_size); /* version 7 */
    TAKE(in, out, scratch_buffer);
    TAKE(in, out, buffer_access);
    for (int k = 0; k < 3; k++) TAKE(in, out, enqueued_local_size[k]); /* version 8 */
    return VISA_OK;
}

visa_status visa__observer_read(const visa_observer *in, visa_observer *out) {
    OPTS_BEGIN(in, out, OBSERVER_V1);
    TAKE(in, out, flags);
    TAKE(in, out, ud);
    TAKE(in, out, group_begin);
    TAKE(in, out, group_end);
    TAKE(in, out, on_inst);
    TAKE(in, out, on_mem);
    return VISA_OK;
}

visa_status visa__region_opts_read(const visa_region_opts *in, visa_region_opts *out) {
    OPTS_BEGIN(in, out, REGION_OPTS_V1);
    TAKE(in, out, type);
    TAKE(in, out, exec_size);
    TAKE(in, out, platform);
    TAKE(in, out, addrs);
    TAKE(in, out, naddrs);
    return VISA_OK;
}

visa_status visa__cl_launch_read(const visa_cl_launch *in, visa_cl_launch *out) {
    OPTS_BEGIN(in, out, CL_LAUNCH_V1);
    TAKE(in, out, kernel);
    TAKE(in, out, work_dim);
    for (int k = 0; k < 3; k++) {
        TAKE(in, out, global_size[k]);
        TAKE(in, out, local_size[k]);
        TAKE(in, out, global_offset[k]);
    }
    TAKE(in, out, threads);
    TAKE(in, out, checks);
    TAKE(in, out, max_steps);
    TAKE(in, out, timeout_seconds);
    TAKE(in, out, observer);
    TAKE(in, out, printf_out);
    TAKE(in, out, printf_ud);
    TAKE(in, out, arg_undef); /* version 2 */
    TAKE(in, out, arg_access);
    return VISA_OK;
}
