/* stubs.c -- the dispatch entries of what visa does not offer: each answers with the error the
** OpenCL 3.0 specification names for it on a device like these (no images, samplers, pipes, SVM,
** native kernels, sub-devices, built-in kernels or GL / EGL sharing), never a NULL entry. */
#include "icd.h"

/* The Direct3D / DX9 entries (void * in the header: their types are Windows'); never called on
** Linux, where the loader does not offer them. */
cl_int icd_unavailable(void) { return CL_INVALID_OPERATION; }

/* No image formats: the list is empty (images are not supported). */
cl_int icd_GetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                    cl_uint num_entries, cl_image_format *image_formats, cl_uint *num_image_formats) {
    if (!icd_is(context, ICD_CONTEXT)) return CL_INVALID_CONTEXT;
    if (image_formats && !num_entries) return CL_INVALID_VALUE;
    if (num_image_formats) *num_image_formats = 0;
    return CL_SUCCESS;
}

/* The compiler (libocloc) stays loaded: nothing to unload. */
cl_int icd_UnloadCompiler(void) { return CL_SUCCESS; }
cl_int icd_UnloadPlatformCompiler(cl_platform_id platform) {
    return platform == &icd_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int icd_SetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                                   cl_bool enable, cl_command_queue_properties *old_properties) {
    return CL_INVALID_OPERATION;
}

cl_mem icd_CreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                         size_t image_width, size_t image_height, size_t image_row_pitch, void *host_ptr,
                         cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_mem icd_CreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                         size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch,
                         size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_int icd_GetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void *param_value,
                        size_t *param_value_size_ret) {
    return CL_INVALID_MEM_OBJECT;
}

cl_sampler icd_CreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                             cl_filter_mode filter_mode, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_int icd_RetainSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }

cl_int icd_ReleaseSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }

cl_int icd_GetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret) {
    return CL_INVALID_SAMPLER;
}

cl_int icd_EnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t *origin,
                            const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

cl_int icd_EnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin,
                             const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

cl_int icd_EnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                            const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

cl_int icd_EnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                                    const size_t *src_origin, const size_t *region, size_t dst_offset,
                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

cl_int icd_EnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                                    size_t src_offset, const size_t *dst_origin, const size_t *region,
                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

void *icd_EnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags,
                          const size_t *origin, const size_t *region, size_t *image_row_pitch,
                          size_t *image_slice_pitch, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                          cl_event *event, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_MEM_OBJECT);
}

cl_int icd_EnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *), void *args,
                               size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
                               const void **args_mem_loc, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_mem icd_CreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj, int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_mem icd_CreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                                 cl_GLuint texture, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_mem icd_CreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                                 cl_GLuint texture, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_mem icd_CreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer,
                                    cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_int icd_GetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type, cl_GLuint *gl_object_name) {
    return CL_INVALID_GL_OBJECT;
}

cl_int icd_GetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret) {
    return CL_INVALID_GL_OBJECT;
}

cl_int icd_EnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_GL_OBJECT;
}

cl_int icd_EnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_GL_OBJECT;
}

cl_int icd_GetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name,
                               size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
    return CL_INVALID_OPERATION;
}

cl_int icd_CreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext *partition_properties,
                               cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices) {
    return CL_INVALID_OPERATION;
}

cl_int icd_RetainDeviceEXT(cl_device_id device) { return CL_INVALID_OPERATION; }

cl_int icd_ReleaseDeviceEXT(cl_device_id device) { return CL_INVALID_OPERATION; }

cl_event icd_CreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_mem icd_CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                       const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_int icd_EnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                            const size_t origin[3], const size_t region[3], cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_MEM_OBJECT;
}

cl_mem icd_CreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                               cl_GLuint texture, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
}

cl_mem icd_CreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR display, CLeglImageKHR image, cl_mem_flags flags,
                                 const cl_egl_image_properties_khr *properties, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_int icd_EnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_event icd_CreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync, CLeglDisplayKHR display,
                                       cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_mem icd_CreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                      const cl_pipe_properties *properties, cl_int *errcode_ret) {
    return NULL;
}

cl_int icd_GetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
                       size_t *param_value_size_ret) {
    return CL_INVALID_MEM_OBJECT;
}

void *icd_SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, unsigned int alignment) { return NULL; }

void icd_SVMFree(cl_context context, void *svm_pointer) {}

cl_int icd_EnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void **svm_pointers,
                          void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                           void **svm_pointers, void *user_data),
                          void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                          cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr, const void *src_ptr,
                            size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                            cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern, size_t pattern_size,
                             size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                             cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags map_flags, void *svm_ptr,
                         size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                         cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_SetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
    return CL_INVALID_OPERATION;
}

cl_int icd_SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                             const void *param_value) {
    return CL_INVALID_OPERATION;
}

cl_int icd_EnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
                                const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event) {
    return CL_INVALID_OPERATION;
}

cl_int icd_SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue) {
    return CL_INVALID_OPERATION;
}

cl_mem icd_CreateImageWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                                     const cl_image_format *image_format, const cl_image_desc *image_desc,
                                     void *host_ptr, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_program icd_CreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                               const char *kernel_names, cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_VALUE); /* CL_DEVICE_BUILT_IN_KERNELS is empty */
}

cl_sampler icd_CreateSamplerWithProperties(cl_context context, const cl_sampler_properties *sampler_properties,
                                           cl_int *errcode_ret) {
    return icd_fail(errcode_ret, CL_INVALID_OPERATION);
}

cl_int icd_SetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                            const void *spec_value) {
    return CL_INVALID_OPERATION;
}
