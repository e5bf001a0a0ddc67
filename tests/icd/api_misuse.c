/* api_misuse.c -- every misuse answered with the error code the OpenCL 3.0 specification names
** for it, never a crash: one table, MISUSE_CASES, of (name, expected code, why pocl answers
** otherwise or NULL, the call).  A case whose precondition the device lacks (a second device, IL,
** a size it cannot exceed) answers SKIPPED instead of a code.  Invalid objects are passed two
** ways: NULL, which the ICD loader itself refuses, and an object of another type, which the loader
** hands to the ICD (its dispatch table is valid) and only the ICD can refuse. */
#include "cltest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SKIPPED = 1 }; /* no OpenCL code is positive */

typedef struct misuse_env {
    cltest *t;
    cl_context ctx, ctx2; /* ctx2: a second context on the same device */
    cl_command_queue q, q2;
    cl_mem buf, buf2, wo, no_access, host_ro, host_wo;
    cl_program unbuilt, built, built2;
    cl_kernel take, fixed, bare, take2; /* bare: take without arguments; take2: of ctx2 */
    cl_event done, done2, user, null_event;
    cl_device_id other_device; /* of the platform, not in ctx; NULL if there is none */
    bool has_il;
    unsigned char *spirv; /* well-formed SPIR-V (cltest_spirv_example), or NULL */
    size_t spirv_size;
    cl_uint max_dims;
    size_t max_item[3], kernel_wg;
    cl_ulong max_alloc;
    cl_int err;
    bool object_with_error; /* a create call returned an object and an error code */
    int host[64];
    cl_uint u;
    size_t origin[3], region[3];
    cl_buffer_region sub;
    const char *src;
    size_t length;
    unsigned char garbage[64];
    const unsigned char *garbage_ptr;
    cl_context_properties props[8];
    cl_queue_properties qprops[8];
    size_t global[4], local[4], offset[4];
} misuse_env;

/* A create call's answer: its errcode_ret, after releasing any object it made. */
static cl_int made(misuse_env *e, void *obj, cl_int (*release)(void *)) {
    if (obj) {
        if (e->err != CL_SUCCESS) e->object_with_error = true;
        release(obj);
    }
    return e->err;
}
static cl_int release_mem(void *o) { return clReleaseMemObject(o); }
static cl_int release_program(void *o) { return clReleaseProgram(o); }
static cl_int release_kernel(void *o) { return clReleaseKernel(o); }
static cl_int release_event(void *o) { return clReleaseEvent(o); }
static cl_int release_context(void *o) { return clReleaseContext(o); }
static cl_int release_queue(void *o) { return clReleaseCommandQueue(o); }
#define MEM(call) made(e, (call), release_mem)
#define PROGRAM(call) made(e, (call), release_program)
#define KERNEL(call) made(e, (call), release_kernel)
#define EVENT(call) made(e, (call), release_event)
#define CONTEXT(call) made(e, (call), release_context)
#define QUEUE(call) made(e, (call), release_queue)
#define ONLY_IF(cond, call) ((cond) ? (call) : SKIPPED)

static cl_int map_answer(misuse_env *e, cl_mem m, void *p) {
    if (p) {
        if (e->err != CL_SUCCESS) e->object_with_error = true;
        clEnqueueUnmapMemObject(e->q, m, p, 0, NULL, NULL);
        clFinish(e->q);
    }
    return e->err;
}
static cl_int launch(misuse_env *e, cl_kernel k, cl_uint dim, const size_t *offset, const size_t *local) {
    return clEnqueueNDRangeKernel(e->q, k, dim, offset, e->global, local, 0, NULL, NULL);
}
static void CL_CALLBACK ignore_event(cl_event ev, cl_int status, void *user_data) {
    (void)ev, (void)status, (void)user_data;
}
#define SET_GLOBAL(a, b, c) (e->global[0] = (a), e->global[1] = (b), e->global[2] = (c), e->global[3] = 1)
#define SET_LOCAL(a, b, c) (e->local[0] = (a), e->local[1] = (b), e->local[2] = (c), e->local[3] = 1)
#define SET_ORIGIN(a, b, c) (e->origin[0] = (a), e->origin[1] = (b), e->origin[2] = (c))
#define SET_REGION(a, b, c) (e->region[0] = (a), e->region[1] = (b), e->region[2] = (c))
#define ZERO_ORIGIN (SET_ORIGIN(0, 0, 0), e->origin)
#define SET_SUB(o, s) (e->sub.origin = (o), e->sub.size = (s), &e->sub)
#define SUB(parent, flags, type, info) MEM(clCreateSubBuffer((parent), (flags), (type), (info), &e->err))
#define PROPS3(a, b, c) (e->props[0] = (a), e->props[1] = (b), e->props[2] = (c), e->props)
#define PROPS5(a, b, c, d, f) (e->props[3] = (d), e->props[4] = (f), PROPS3(a, b, c))
#define QPROPS3(a, b, c) (e->qprops[0] = (a), e->qprops[1] = (b), e->qprops[2] = (c), e->qprops)
#define PLATFORM ((cl_context_properties)e->t->platform)
#define READ(q, m, off, size, ptr, n, list) \
    clEnqueueReadBuffer((q), (m), CL_TRUE, (off), (size), (ptr), (n), (list), NULL)
#define BUFFER(flags, size, host) MEM(clCreateBuffer(e->ctx, (flags), (size), (host), &e->err))
#define SOURCE(n, strings, lengths) PROGRAM(clCreateProgramWithSource(e->ctx, (n), (strings), (lengths), &e->err))
#define BINARY(lengths, bins) \
    PROGRAM(clCreateProgramWithBinary(e->ctx, 1, &e->t->device, (lengths), (bins), NULL, &e->err))
#define DEV (&e->t->device)
#define GARBAGE (e->garbage_ptr = e->garbage, &e->garbage_ptr)

/* An object of another type where one is expected: pocl does not look at the type (the call
** succeeds or crashes), so these cases do not run on pocl. */
static const char POCL_NO_TYPES[] = "pocl 3.1 does not check an object's type";
/* Other misuses pocl does not survive (so they do not run on pocl either). */
static const char POCL_CRASHES[] = "pocl 3.1 crashes";
/* clGetDeviceIDs and clCreateContextFromType disagree with pocl on one point: */
#define POCL_DEVICE_TYPE "pocl 3.1 answers CL_DEVICE_NOT_FOUND for a bit no device type has"

/* X(name, expected, pocl_reason, call): the misuse cases. */
#define MISUSE_CASES(X)                                                                                                \
    /* invalid objects: NULL (the loader answers) and another object's type (the ICD answers) */                       \
    X(context_null, CL_INVALID_CONTEXT, NULL, clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, 4, &e->u, NULL))          \
    X(context_is_queue, CL_INVALID_CONTEXT, POCL_NO_TYPES,                                                             \
      clGetContextInfo((cl_context)e->q, CL_CONTEXT_NUM_DEVICES, 4, &e->u, NULL))                                      \
    X(queue_null, CL_INVALID_COMMAND_QUEUE, NULL, clFinish(NULL))                                                      \
    X(queue_is_context, CL_INVALID_COMMAND_QUEUE, POCL_NO_TYPES, clFinish((cl_command_queue)e->ctx))                   \
    X(mem_null, CL_INVALID_MEM_OBJECT, NULL, clGetMemObjectInfo(NULL, CL_MEM_SIZE, 8, e->host, NULL))                  \
    X(mem_is_queue, CL_INVALID_MEM_OBJECT, POCL_NO_TYPES,                                                              \
      clGetMemObjectInfo((cl_mem)e->q, CL_MEM_SIZE, 8, e->host, NULL))                                                 \
    X(kernel_null, CL_INVALID_KERNEL, NULL, clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, 4, &e->u, NULL))                 \
    X(kernel_is_buffer, CL_INVALID_KERNEL, POCL_NO_TYPES,                                                              \
      clGetKernelInfo((cl_kernel)e->buf, CL_KERNEL_NUM_ARGS, 4, &e->u, NULL))                                          \
    X(program_null, CL_INVALID_PROGRAM, NULL, clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL))                         \
    X(program_is_kernel, CL_INVALID_PROGRAM, POCL_NO_TYPES,                                                            \
      clGetProgramInfo((cl_program)e->take, CL_PROGRAM_NUM_DEVICES, 4, &e->u, NULL))                                   \
    X(event_null, CL_INVALID_EVENT, NULL, clGetEventInfo(NULL, CL_EVENT_COMMAND_TYPE, 4, &e->u, NULL))                 \
    X(event_is_buffer, CL_INVALID_EVENT, POCL_NO_TYPES,                                                                \
      clGetEventInfo((cl_event)e->buf, CL_EVENT_COMMAND_TYPE, 4, &e->u, NULL))                                         \
    X(device_is_context, CL_INVALID_DEVICE, POCL_NO_TYPES,                                                             \
      clGetDeviceInfo((cl_device_id)e->ctx, CL_DEVICE_VENDOR_ID, 4, &e->u, NULL))                                      \
    X(wait_for_null_event, CL_INVALID_EVENT, NULL, clWaitForEvents(1, &e->null_event))                                 \
    X(buffer_of_null_context, CL_INVALID_CONTEXT, NULL, MEM(clCreateBuffer(NULL, 0, 64, NULL, &e->err)))               \
    X(buffer_of_queue, CL_INVALID_CONTEXT, POCL_NO_TYPES, MEM(clCreateBuffer((cl_context)e->q, 0, 64, NULL, &e->err))) \
    X(read_null_buffer, CL_INVALID_MEM_OBJECT, NULL, READ(e->q, NULL, 0, 4, e->host, 0, NULL))                         \
    X(read_kernel_as_buffer, CL_INVALID_MEM_OBJECT, POCL_NO_TYPES,                                                     \
      READ(e->q, (cl_mem)e->take, 0, 4, e->host, 0, NULL))                                                             \
    X(read_on_context, CL_INVALID_COMMAND_QUEUE, POCL_NO_TYPES,                                                        \
      READ((cl_command_queue)e->ctx, e->buf, 0, 4, e->host, 0, NULL))                                                  \
    X(set_arg_null_kernel, CL_INVALID_KERNEL, NULL, clSetKernelArg(NULL, 0, sizeof e->buf, &e->buf))                   \
    X(kernel_of_null_program, CL_INVALID_PROGRAM, NULL, KERNEL(clCreateKernel(NULL, "take", &e->err)))                 \
    X(user_event_null_context, CL_INVALID_CONTEXT, NULL, EVENT(clCreateUserEvent(NULL, &e->err)))                      \
    X(release_null_buffer, CL_INVALID_MEM_OBJECT, NULL, clReleaseMemObject(NULL))                                      \
    X(retain_queue_as_event, CL_INVALID_EVENT, POCL_NO_TYPES, clRetainEvent((cl_event)e->q))                           \
    /* memory flags and sizes */                                                                                       \
    X(flags_read_and_write_only, CL_INVALID_VALUE, NULL, BUFFER(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL))       \
    X(flags_read_write_and_read_only, CL_INVALID_VALUE, NULL, BUFFER(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL))  \
    X(flags_use_and_alloc_host_ptr, CL_INVALID_VALUE, NULL,                                                            \
      BUFFER(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, e->host))                                                \
    X(flags_use_and_copy_host_ptr, CL_INVALID_VALUE, NULL,                                                             \
      BUFFER(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, e->host))                                                 \
    X(flags_host_read_and_write_only, CL_INVALID_VALUE, NULL,                                                          \
      BUFFER(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, NULL))                                                \
    X(flags_host_no_access_and_read_only, CL_INVALID_VALUE, NULL,                                                      \
      BUFFER(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, 64, NULL))                                                 \
    X(flags_unknown_bit, CL_INVALID_VALUE, NULL, BUFFER((cl_mem_flags)1 << 40, 64, NULL))                              \
    X(buffer_size_zero, CL_INVALID_BUFFER_SIZE, NULL, BUFFER(CL_MEM_READ_WRITE, 0, NULL))                              \
    X(buffer_size_over_max_alloc, CL_INVALID_BUFFER_SIZE, NULL,                                                        \
      ONLY_IF(e->max_alloc < SIZE_MAX, BUFFER(CL_MEM_READ_WRITE, (size_t)e->max_alloc + 1, NULL)))                     \
    X(copy_host_ptr_null, CL_INVALID_HOST_PTR, NULL, BUFFER(CL_MEM_COPY_HOST_PTR, 64, NULL))                           \
    X(use_host_ptr_null, CL_INVALID_HOST_PTR, NULL, BUFFER(CL_MEM_USE_HOST_PTR, 64, NULL))                             \
    X(host_ptr_without_use_or_copy, CL_INVALID_HOST_PTR, NULL, BUFFER(CL_MEM_READ_WRITE, 64, e->host))                 \
    /* transfers out of range, NULL pointers, wait lists, host access flags, other contexts */                         \
    X(read_past_end, CL_INVALID_VALUE, NULL, READ(e->q, e->buf, 250, 8, e->host, 0, NULL))                             \
    X(read_offset_at_end, CL_INVALID_VALUE, NULL, READ(e->q, e->buf, 256, 1, e->host, 0, NULL))                        \
    X(read_into_null, CL_INVALID_VALUE, NULL, READ(e->q, e->buf, 0, 4, NULL, 0, NULL))                                 \
    X(write_past_end, CL_INVALID_VALUE, NULL,                                                                          \
      clEnqueueWriteBuffer(e->q, e->buf, CL_TRUE, 200, 64, e->host, 0, NULL, NULL))                                    \
    X(copy_overlapping, CL_MEM_COPY_OVERLAP, NULL,                                                                     \
      clEnqueueCopyBuffer(e->q, e->buf, e->buf, 0, 16, 32, 0, NULL, NULL))                                             \
    X(copy_past_end, CL_INVALID_VALUE, NULL, clEnqueueCopyBuffer(e->q, e->buf, e->wo, 240, 0, 32, 0, NULL, NULL))      \
    X(copy_from_other_context, CL_INVALID_CONTEXT, NULL,                                                               \
      clEnqueueCopyBuffer(e->q, e->buf2, e->buf, 0, 0, 16, 0, NULL, NULL))                                             \
    X(fill_pattern_size_3, CL_INVALID_VALUE, NULL,                                                                     \
      clEnqueueFillBuffer(e->q, e->buf, e->host, 3, 0, 48, 0, NULL, NULL))                                             \
    X(fill_pattern_null, CL_INVALID_VALUE, NULL, clEnqueueFillBuffer(e->q, e->buf, NULL, 4, 0, 48, 0, NULL, NULL))     \
    X(fill_offset_not_multiple, CL_INVALID_VALUE, NULL,                                                                \
      clEnqueueFillBuffer(e->q, e->buf, e->host, 4, 2, 16, 0, NULL, NULL))                                             \
    X(fill_past_end, CL_INVALID_VALUE, NULL, clEnqueueFillBuffer(e->q, e->buf, e->host, 4, 128, 256, 0, NULL, NULL))   \
    X(map_past_end, CL_INVALID_VALUE, NULL,                                                                            \
      map_answer(e, e->buf, clEnqueueMapBuffer(e->q, e->buf, CL_TRUE, CL_MAP_READ, 200, 100, 0, NULL, NULL, &e->err))) \
    X(map_size_0, CL_INVALID_VALUE, NULL,                                                                              \
      map_answer(e, e->buf, clEnqueueMapBuffer(e->q, e->buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &e->err)))     \
    X(map_host_no_access, CL_INVALID_OPERATION, NULL,                                                                  \
      map_answer(e, e->no_access,                                                                                      \
                 clEnqueueMapBuffer(e->q, e->no_access, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e->err)))         \
    X(map_read_and_invalidate, CL_INVALID_VALUE, "pocl 3.1 maps CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION",         \
      map_answer(e, e->buf,                                                                                            \
                 clEnqueueMapBuffer(e->q, e->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0,     \
                                    NULL, NULL, &e->err)))                                                             \
    X(unmap_what_was_not_mapped, CL_INVALID_VALUE, NULL,                                                               \
      clEnqueueUnmapMemObject(e->q, e->buf, e->host, 0, NULL, NULL))                                                   \
    X(wait_list_null_with_count, CL_INVALID_EVENT_WAIT_LIST, NULL, READ(e->q, e->buf, 0, 4, e->host, 1, NULL))         \
    X(wait_list_with_count_0, CL_INVALID_EVENT_WAIT_LIST, NULL, READ(e->q, e->buf, 0, 4, e->host, 0, &e->done))        \
    X(wait_list_holding_null, CL_INVALID_EVENT_WAIT_LIST, NULL, READ(e->q, e->buf, 0, 4, e->host, 1, &e->null_event))  \
    X(wait_list_of_other_context, CL_INVALID_CONTEXT, NULL, READ(e->q, e->buf, 0, 4, e->host, 1, &e->done2))           \
    X(read_buffer_of_other_context, CL_INVALID_CONTEXT, NULL, READ(e->q, e->buf2, 0, 4, e->host, 0, NULL))             \
    X(read_host_no_access, CL_INVALID_OPERATION, NULL, READ(e->q, e->no_access, 0, 4, e->host, 0, NULL))               \
    X(read_host_write_only, CL_INVALID_OPERATION, NULL, READ(e->q, e->host_wo, 0, 4, e->host, 0, NULL))                \
    X(write_host_read_only, CL_INVALID_OPERATION, NULL,                                                                \
      clEnqueueWriteBuffer(e->q, e->host_ro, CL_TRUE, 0, 4, e->host, 0, NULL, NULL))                                   \
    X(rect_row_pitch_below_region, CL_INVALID_VALUE, NULL,                                                             \
      clEnqueueReadBufferRect(e->q, e->buf, CL_TRUE, ZERO_ORIGIN, e->origin, (SET_REGION(8, 2, 1), e->region), 4, 0,   \
                              0, 0, e->host, 0, NULL, NULL))                                                           \
    X(rect_region_with_0, CL_INVALID_VALUE, NULL,                                                                      \
      clEnqueueReadBufferRect(e->q, e->buf, CL_TRUE, ZERO_ORIGIN, e->origin, (SET_REGION(0, 2, 1), e->region), 0, 0,   \
                              0, 0, e->host, 0, NULL, NULL))                                                           \
    X(rect_slice_pitch_below_rows, CL_INVALID_VALUE, NULL,                                                             \
      clEnqueueReadBufferRect(e->q, e->buf, CL_TRUE, ZERO_ORIGIN, e->origin, (SET_REGION(8, 4, 2), e->region), 8, 20,  \
                              0, 0, e->host, 0, NULL, NULL))                                                           \
    X(rect_past_end, CL_INVALID_VALUE, NULL,                                                                           \
      clEnqueueReadBufferRect(e->q, e->buf, CL_TRUE, ZERO_ORIGIN, e->origin, (SET_REGION(16, 17, 1), e->region), 16,   \
                              0, 0, 0, e->host, 0, NULL, NULL))                                                        \
    /* sub-buffers */                                                                                                  \
    X(sub_buffer_misaligned, CL_MISALIGNED_SUB_BUFFER_OFFSET, NULL,                                                    \
      SUB(e->buf, 0, CL_BUFFER_CREATE_TYPE_REGION, SET_SUB(4, 16)))                                                    \
    X(sub_buffer_past_end, CL_INVALID_VALUE, NULL, SUB(e->buf, 0, CL_BUFFER_CREATE_TYPE_REGION, SET_SUB(0, 257)))      \
    X(sub_buffer_size_0, CL_INVALID_BUFFER_SIZE, NULL, SUB(e->buf, 0, CL_BUFFER_CREATE_TYPE_REGION, SET_SUB(0, 0)))    \
    X(sub_buffer_bad_type, CL_INVALID_VALUE, NULL, SUB(e->buf, 0, 0x7ff0, SET_SUB(0, 16)))                             \
    X(sub_buffer_info_null, CL_INVALID_VALUE, NULL, SUB(e->buf, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL))                \
    X(sub_buffer_use_host_ptr, CL_INVALID_VALUE, NULL,                                                                 \
      SUB(e->buf, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, SET_SUB(0, 16)))                                  \
    X(sub_buffer_read_write_of_write_only, CL_INVALID_VALUE, NULL,                                                     \
      SUB(e->wo, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, SET_SUB(0, 16)))                                     \
    /* programs */                                                                                                     \
    X(source_count_0, CL_INVALID_VALUE, NULL, SOURCE(0, &e->src, NULL))                                                \
    X(source_strings_null, CL_INVALID_VALUE, POCL_CRASHES, SOURCE(1, NULL, NULL))                                      \
    X(source_string_null, CL_INVALID_VALUE, NULL, SOURCE(1, (e->src = NULL, &e->src), NULL))                           \
    X(build_unknown_option, CL_INVALID_BUILD_OPTIONS, NULL,                                                            \
      clBuildProgram(e->unbuilt, 1, DEV, "-cl-no-such-option-exists", NULL, NULL))                                     \
    X(build_user_data_without_callback, CL_INVALID_VALUE, NULL,                                                        \
      clBuildProgram(e->unbuilt, 1, DEV, NULL, NULL, e->host))                                                         \
    X(build_device_list_null_with_count, CL_INVALID_VALUE, NULL,                                                       \
      clBuildProgram(e->unbuilt, 1, NULL, NULL, NULL, NULL))                                                           \
    X(build_device_list_with_count_0, CL_INVALID_VALUE, NULL, clBuildProgram(e->unbuilt, 0, DEV, NULL, NULL, NULL))    \
    X(binary_garbage, CL_INVALID_BINARY, NULL, BINARY((e->length = sizeof e->garbage, &e->length), GARBAGE))           \
    X(binary_lengths_null, CL_INVALID_VALUE, NULL, BINARY(NULL, GARBAGE))                                              \
    X(binary_length_0, CL_INVALID_VALUE, NULL, BINARY((e->length = 0, &e->length), GARBAGE))                           \
    X(il_garbage, CL_INVALID_VALUE, NULL,                                                                              \
      ONLY_IF(e->has_il, PROGRAM(clCreateProgramWithIL(e->ctx, e->garbage, sizeof e->garbage, &e->err))))              \
    X(il_without_il_device, CL_INVALID_OPERATION, "pocl 3.1, which takes no IL, answers CL_INVALID_VALUE",             \
      ONLY_IF(!e->has_il && e->spirv, PROGRAM(clCreateProgramWithIL(e->ctx, e->spirv, e->spirv_size, &e->err))))       \
    X(kernel_of_unbuilt_program, CL_INVALID_PROGRAM_EXECUTABLE, NULL,                                                  \
      KERNEL(clCreateKernel(e->unbuilt, "take", &e->err)))                                                             \
    X(kernels_of_unbuilt_program, CL_INVALID_PROGRAM_EXECUTABLE, NULL,                                                 \
      clCreateKernelsInProgram(e->unbuilt, 0, NULL, &e->u))                                                            \
    X(num_kernels_of_unbuilt_program, CL_INVALID_PROGRAM_EXECUTABLE, NULL,                                             \
      clGetProgramInfo(e->unbuilt, CL_PROGRAM_NUM_KERNELS, sizeof e->length, &e->length, NULL))                        \
    X(kernel_name_unknown, CL_INVALID_KERNEL_NAME, NULL, KERNEL(clCreateKernel(e->built, "no_such_kernel", &e->err)))  \
    X(kernel_name_null, CL_INVALID_VALUE, NULL, KERNEL(clCreateKernel(e->built, NULL, &e->err)))                       \
    X(kernels_in_program_too_few, CL_INVALID_VALUE, NULL,                                                              \
      clCreateKernelsInProgram(e->built, 1, (cl_kernel *)e->host, NULL))                                               \
    X(build_info_of_other_device, CL_INVALID_DEVICE, NULL,                                                             \
      ONLY_IF(e->other_device != NULL,                                                                                 \
              clGetProgramBuildInfo(e->built, e->other_device, CL_PROGRAM_BUILD_STATUS, 4, &e->u, NULL)))              \
    /* kernel arguments: take(global int *out, local int *tmp, int n, int4 v, struct pair s) */                        \
    X(arg_index_past_last, CL_INVALID_ARG_INDEX, NULL, clSetKernelArg(e->take, 5, 4, e->host))                         \
    X(arg_int_given_8_bytes, CL_INVALID_ARG_SIZE, NULL, clSetKernelArg(e->take, 2, 8, e->host))                        \
    X(arg_int4_given_8_bytes, CL_INVALID_ARG_SIZE, NULL, clSetKernelArg(e->take, 3, 8, e->host))                       \
    X(arg_struct_given_15_bytes, CL_INVALID_ARG_SIZE, "pocl 3.1 does not check a struct argument's size",              \
      clSetKernelArg(e->take, 4, 15, e->host))                                                                         \
    X(arg_buffer_given_4_bytes, CL_INVALID_ARG_SIZE, NULL, clSetKernelArg(e->take, 0, 4, &e->buf))                     \
    X(arg_local_size_0, CL_INVALID_ARG_SIZE, NULL, clSetKernelArg(e->take, 1, 0, NULL))                                \
    X(arg_local_with_value, CL_INVALID_ARG_VALUE, NULL, clSetKernelArg(e->take, 1, 64, e->host))                       \
    X(arg_int_value_null, CL_INVALID_ARG_VALUE, NULL, clSetKernelArg(e->take, 2, 4, NULL))                             \
    X(arg_buffer_is_queue, CL_INVALID_MEM_OBJECT, POCL_NO_TYPES, clSetKernelArg(e->take, 0, sizeof e->q, &e->q))       \
    /* launches (take has every argument set; fixed has reqd_work_group_size(8, 1, 1)) */                              \
    X(launch_with_args_unset, CL_INVALID_KERNEL_ARGS, NULL, (SET_GLOBAL(16, 1, 1), launch(e, e->bare, 1, NULL, NULL))) \
    X(launch_local_not_dividing, CL_INVALID_WORK_GROUP_SIZE, NULL,                                                     \
      (SET_GLOBAL(10, 1, 1), SET_LOCAL(4, 1, 1), launch(e, e->take, 1, NULL, e->local)))                               \
    X(launch_local_over_kernel_size, CL_INVALID_WORK_GROUP_SIZE, NULL,                                                 \
      ONLY_IF(e->max_item[0] >= e->kernel_wg && e->max_item[1] >= 2,                                                   \
              (SET_GLOBAL(e->kernel_wg, 2, 1), SET_LOCAL(e->kernel_wg, 2, 1), launch(e, e->take, 2, NULL, e->local)))) \
    X(launch_local_over_item_size, CL_INVALID_WORK_ITEM_SIZE, NULL,                                                    \
      ONLY_IF(e->max_item[2] < e->kernel_wg,                                                                           \
              (SET_GLOBAL(1, 1, e->max_item[2] + 1), SET_LOCAL(1, 1, e->max_item[2] + 1),                              \
               launch(e, e->take, 3, NULL, e->local))))                                                                \
    X(launch_local_0, CL_INVALID_WORK_GROUP_SIZE, POCL_CRASHES,                                                        \
      (SET_GLOBAL(16, 1, 1), SET_LOCAL(0, 1, 1), launch(e, e->take, 1, NULL, e->local)))                               \
    X(launch_local_not_required, CL_INVALID_WORK_GROUP_SIZE, NULL,                                                     \
      (SET_GLOBAL(16, 1, 1), SET_LOCAL(4, 1, 1), launch(e, e->fixed, 1, NULL, e->local)))                              \
    X(task_of_required_size_8, CL_INVALID_WORK_GROUP_SIZE, NULL, clEnqueueTask(e->q, e->fixed, 0, NULL, NULL))         \
    X(launch_work_dim_0, CL_INVALID_WORK_DIMENSION, NULL, (SET_GLOBAL(16, 1, 1), launch(e, e->take, 0, NULL, NULL)))   \
    X(launch_work_dim_past_max, CL_INVALID_WORK_DIMENSION, NULL,                                                       \
      ONLY_IF(e->max_dims < 4, (SET_GLOBAL(16, 1, 1), launch(e, e->take, e->max_dims + 1, NULL, NULL))))               \
    X(launch_offset_overflowing, CL_INVALID_GLOBAL_OFFSET, "pocl 3.1 launches ids past SIZE_MAX",                      \
      (SET_GLOBAL(16, 1, 1), e->offset[0] = SIZE_MAX - 4, launch(e, e->take, 1, e->offset, NULL)))                     \
    X(launch_kernel_of_other_context, CL_INVALID_CONTEXT, NULL,                                                        \
      (SET_GLOBAL(16, 1, 1), launch(e, e->take2, 1, NULL, NULL)))                                                      \
    X(launch_wait_list_null_with_count, CL_INVALID_EVENT_WAIT_LIST, POCL_CRASHES,                                      \
      (SET_GLOBAL(16, 1, 1), clEnqueueNDRangeKernel(e->q, e->take, 1, NULL, e->global, NULL, 1, NULL, NULL)))          \
    /* events */                                                                                                       \
    X(wait_for_0_events, CL_INVALID_VALUE, NULL, clWaitForEvents(0, NULL))                                             \
    X(wait_for_null_list, CL_INVALID_VALUE, NULL, clWaitForEvents(1, NULL))                                            \
    X(user_status_running, CL_INVALID_VALUE, NULL, clSetUserEventStatus(e->user, CL_RUNNING))                          \
    X(user_status_of_kernel_event, CL_INVALID_EVENT, NULL, clSetUserEventStatus(e->done, CL_COMPLETE))                 \
    X(callback_null, CL_INVALID_VALUE, NULL, clSetEventCallback(e->done, CL_COMPLETE, NULL, NULL))                     \
    X(callback_for_queued, CL_INVALID_VALUE, NULL, clSetEventCallback(e->done, CL_QUEUED, ignore_event, NULL))         \
    X(marker_wait_list_null_with_count, CL_INVALID_EVENT_WAIT_LIST, NULL,                                              \
      clEnqueueMarkerWithWaitList(e->q, 2, NULL, NULL))                                                                \
    X(barrier_wait_list_of_other_context, CL_INVALID_CONTEXT, NULL,                                                    \
      clEnqueueBarrierWithWaitList(e->q, 1, &e->done2, NULL))                                                          \
    /* contexts and queues */                                                                                          \
    X(context_of_0_devices, CL_INVALID_VALUE, NULL,                                                                    \
      CONTEXT(clCreateContext(PROPS3(CL_CONTEXT_PLATFORM, PLATFORM, 0), 0, DEV, NULL, NULL, &e->err)))                 \
    X(context_devices_null, CL_INVALID_VALUE, NULL,                                                                    \
      CONTEXT(clCreateContext(PROPS3(CL_CONTEXT_PLATFORM, PLATFORM, 0), 1, NULL, NULL, NULL, &e->err)))                \
    X(context_user_data_without_callback, CL_INVALID_VALUE, NULL,                                                      \
      CONTEXT(clCreateContext(PROPS3(CL_CONTEXT_PLATFORM, PLATFORM, 0), 1, DEV, NULL, e->host, &e->err)))              \
    X(context_unknown_property, CL_INVALID_PROPERTY, NULL,                                                             \
      CONTEXT(clCreateContext(PROPS5(CL_CONTEXT_PLATFORM, PLATFORM, 0x7ff0, 1, 0), 1, DEV, NULL, NULL, &e->err)))      \
    X(context_property_twice, CL_INVALID_PROPERTY, NULL,                                                               \
      CONTEXT(clCreateContext(PROPS5(CL_CONTEXT_PLATFORM, PLATFORM, CL_CONTEXT_PLATFORM, PLATFORM, 0), 1, DEV, NULL,   \
                              NULL, &e->err)))                                                                         \
    X(context_of_unknown_device_type, CL_INVALID_DEVICE_TYPE, POCL_DEVICE_TYPE,                                        \
      CONTEXT(clCreateContextFromType(PROPS3(CL_CONTEXT_PLATFORM, PLATFORM, 0), (cl_device_type)1 << 40, NULL, NULL,   \
                                      &e->err)))                                                                       \
    X(queue_unknown_property, CL_INVALID_VALUE, NULL,                                                                  \
      QUEUE(clCreateCommandQueueWithProperties(e->ctx, e->t->device, QPROPS3(0x7ff0, 0, 0), &e->err)))                 \
    X(queue_unknown_property_bit, CL_INVALID_VALUE, NULL,                                                              \
      QUEUE(clCreateCommandQueueWithProperties(e->ctx, e->t->device, QPROPS3(CL_QUEUE_PROPERTIES, 1 << 20, 0),         \
                                               &e->err)))                                                              \
    X(queue_on_device_in_order, CL_INVALID_VALUE, POCL_CRASHES,                                                        \
      QUEUE(clCreateCommandQueueWithProperties(e->ctx, e->t->device,                                                   \
                                               QPROPS3(CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0), &e->err)))         \
    X(queue_of_device_not_in_context, CL_INVALID_DEVICE, NULL,                                                         \
      ONLY_IF(e->other_device != NULL,                                                                                 \
              QUEUE(clCreateCommandQueueWithProperties(e->ctx, e->other_device, NULL, &e->err))))                      \
    X(queue_size_of_host_queue, CL_INVALID_COMMAND_QUEUE, NULL,                                                        \
      clGetCommandQueueInfo(e->q, CL_QUEUE_SIZE, sizeof e->u, &e->u, NULL))

#define MISUSE_FUNCTION(name, expected, pocl, call) \
    static cl_int misuse_##name(misuse_env *e) {    \
        (void)e;                                    \
        return (call);                              \
    }
MISUSE_CASES(MISUSE_FUNCTION)

static const struct misuse_case {
    const char *name;
    cl_int expected;
    const char *pocl; /* why pocl answers otherwise, or NULL */
    cl_int (*call)(misuse_env *);
} misuse_cases[] = {
#define MISUSE_ROW(name, expected, pocl, call) {#name, expected, pocl, misuse_##name},
    MISUSE_CASES(MISUSE_ROW)
#undef MISUSE_ROW
};

static const char *misuse_source =
    "struct pair { int a; float b; long c; };\n"
    "kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global int *p) { p[get_global_id(0)] = 1; }\n"
    "kernel void take(global int *out, local int *tmp, int n, int4 v, struct pair s) {\n"
    "    tmp[get_local_id(0)] = n + v.x + s.a;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0) % 64] = tmp[0];\n"
    "}\n";

static cl_mem env_buffer(misuse_env *e, cl_context ctx, cl_mem_flags flags) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, flags, 256, NULL, &err);
    CHECK(m != NULL, "misuse setup: a buffer with flags 0x%llx: %s", (unsigned long long)flags, cltest_err_name(err));
    (void)e;
    return m;
}

/* The objects the cases misuse: a second context with a buffer, an event and a kernel; buffers
** of each access; programs built and not; take with every argument set. */
static bool env_open(misuse_env *e, cltest *t) {
    memset(e, 0, sizeof *e);
    e->t = t, e->ctx = t->ctx, e->q = t->queue;
    cl_int err;
    e->ctx2 = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    e->q2 = e->ctx2 ? clCreateCommandQueueWithProperties(e->ctx2, t->device, NULL, &err) : NULL;
    if (!e->q2) return false;
    e->buf = env_buffer(e, e->ctx, CL_MEM_READ_WRITE), e->buf2 = env_buffer(e, e->ctx2, CL_MEM_READ_WRITE);
    e->wo = env_buffer(e, e->ctx, CL_MEM_WRITE_ONLY), e->no_access = env_buffer(e, e->ctx, CL_MEM_HOST_NO_ACCESS);
    e->host_ro = env_buffer(e, e->ctx, CL_MEM_HOST_READ_ONLY),
    e->host_wo = env_buffer(e, e->ctx, CL_MEM_HOST_WRITE_ONLY);
    e->built = cltest_build(t, misuse_source, NULL);
    e->src = misuse_source;
    e->unbuilt = clCreateProgramWithSource(e->ctx, 1, &e->src, NULL, &err);
    e->built2 = clCreateProgramWithSource(e->ctx2, 1, &e->src, NULL, &err);
    if (!e->built || !e->unbuilt || !e->built2 || clBuildProgram(e->built2, 1, &t->device, NULL, NULL, NULL))
        return false;
    e->take = cltest_kernel(e->built, "take"), e->fixed = cltest_kernel(e->built, "fixed");
    e->take2 = cltest_kernel(e->built2, "take"), e->bare = cltest_kernel(e->built, "take");
    if (!e->take || !e->fixed || !e->take2 || !e->bare) return false;
    for (size_t i = 0; i < sizeof e->garbage; i++) e->garbage[i] = (unsigned char)(i * 37 + 11); /* no format's magic */
    struct {
        cl_int a;
        cl_float b;
        cl_long c;
    } pair = {1, 2, 3};
    cl_int4 v = {{1, 2, 3, 4}};
    CHECK_OK(clSetKernelArg(e->take, 0, sizeof e->buf, &e->buf));
    CHECK_OK(clSetKernelArg(e->take, 1, 64 * sizeof(int), NULL));
    CHECK_OK(clSetKernelArg(e->take, 2, sizeof(cl_int), &pair.a));
    CHECK_OK(clSetKernelArg(e->take, 3, sizeof v, &v));
    CHECK_OK(clSetKernelArg(e->take, 4, sizeof pair, &pair));
    CHECK_OK(clSetKernelArg(e->fixed, 0, sizeof e->buf, &e->buf));
    CHECK_OK(clEnqueueMarkerWithWaitList(e->q, 0, NULL, &e->done));
    CHECK_OK(clEnqueueMarkerWithWaitList(e->q2, 0, NULL, &e->done2));
    e->user = clCreateUserEvent(e->ctx, &err);
    clFinish(e->q), clFinish(e->q2);
    char *il = cltest_device_info(t->device, CL_DEVICE_IL_VERSION, NULL);
    e->has_il = il && il[0];
    free(il);
    e->spirv = cltest_spirv_example(t->device, &e->spirv_size);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof e->max_dims, &e->max_dims, NULL);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof e->max_item, e->max_item, NULL);
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof e->max_alloc, &e->max_alloc, NULL);
    clGetKernelWorkGroupInfo(e->take, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof e->kernel_wg, &e->kernel_wg, NULL);
    cl_device_id all[16];
    cl_uint n = 0;
    clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 16, all, &n);
    for (cl_uint i = 0; i < n && i < 16; i++)
        if (all[i] != t->device) e->other_device = all[i];
    return e->user != NULL;
}

static void env_close(misuse_env *e) {
    if (e->user) clSetUserEventStatus(e->user, CL_COMPLETE);
    cl_event events[] = {e->done, e->done2, e->user};
    for (size_t i = 0; i < CLTEST_COUNT(events); i++)
        if (events[i]) clReleaseEvent(events[i]);
    cl_kernel kernels[] = {e->take, e->fixed, e->bare, e->take2};
    for (size_t i = 0; i < CLTEST_COUNT(kernels); i++)
        if (kernels[i]) clReleaseKernel(kernels[i]);
    cl_program programs[] = {e->built, e->unbuilt, e->built2};
    for (size_t i = 0; i < CLTEST_COUNT(programs); i++)
        if (programs[i]) clReleaseProgram(programs[i]);
    cl_mem mems[] = {e->buf, e->buf2, e->wo, e->no_access, e->host_ro, e->host_wo};
    for (size_t i = 0; i < CLTEST_COUNT(mems); i++)
        if (mems[i]) clReleaseMemObject(mems[i]);
    if (e->q2) clReleaseCommandQueue(e->q2);
    if (e->ctx2) clReleaseContext(e->ctx2);
    free(e->spirv);
}

void test_misuse(cltest *t) {
    misuse_env e;
    bool ready = env_open(&e, t);
    CHECK(ready, "misuse: the objects to misuse could not be made");
    int skipped = 0;
    for (size_t i = 0; ready && i < CLTEST_COUNT(misuse_cases); i++) {
        const struct misuse_case *c = &misuse_cases[i];
        e.err = 12345;
        e.object_with_error = false;
        e.src = misuse_source;
        if ((c->pocl == POCL_NO_TYPES || c->pocl == POCL_CRASHES) && cltest_platform_is_pocl()) {
            skipped++;
            continue;
        }
        cl_int got = c->call(&e);
        if (got == SKIPPED) {
            skipped++;
            continue;
        }
        if (c->pocl)
            CHECK_POCL(c->pocl, got == c->expected, "misuse %s: %s (%d), expected %s", c->name, cltest_err_name(got),
                       got, cltest_err_name(c->expected));
        else
            CHECK(got == c->expected, "misuse %s: %s (%d), expected %s", c->name, cltest_err_name(got), got,
                  cltest_err_name(c->expected));
        if (c->pocl)
            CHECK_POCL(c->pocl, !e.object_with_error, "misuse %s: an object returned with an error code", c->name);
        else CHECK(!e.object_with_error, "misuse %s: an object returned with an error code", c->name);
    }
    /* the queue still works after every misuse */
    CHECK_OK(clFinish(e.q));
    printf("  misuse: %zu cases, %d not applicable to this device\n", CLTEST_COUNT(misuse_cases), skipped);
    env_close(&e);
}
