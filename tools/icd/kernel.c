/* kernel.c -- kernels: their arguments (checked against what IGC's .ze_info says of each) and
** what the info queries report (visa_program_kernel_info, visa_program_kernel_arg). */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* The executable build a kernel's facts come from: the first device built. */
static const icd_build *first_build(cl_program p) {
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].vp && p->builds[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) return &p->builds[i];
    return NULL;
}

static bool has_kernel(const visa_program *vp, const char *name) {
    for (size_t i = 0; i < visa_program_kernel_count(vp); i++)
        if (!strcmp(visa_program_kernel_name(vp, i), name)) return true;
    return false;
}

static void kernel_free(cl_kernel k) {
    for (cl_uint i = 0; k->args && i < k->nargs; i++) free(k->args[i].bytes);
    free(k->args);
    free(k->arg_info);
    free(k->name);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

static cl_kernel kernel_new(cl_program p, const visa_program *vp, const char *name, cl_int *errcode_ret) {
    visa_cl_kernel_info ki = {.struct_size = sizeof ki};
    if (visa_program_kernel_info(vp, name, &ki) != VISA_OK) return icd_fail(errcode_ret, CL_INVALID_KERNEL_DEFINITION);
    cl_kernel k = calloc(1, sizeof *k);
    if (!k) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    pthread_mutex_init(&k->lock, NULL);
    k->name = icd_strdup(name);
    k->nargs = ki.arg_count;
    k->arg_info = calloc(ki.arg_count ? ki.arg_count : 1, sizeof *k->arg_info);
    k->args = calloc(ki.arg_count ? ki.arg_count : 1, sizeof *k->args);
    if (!k->name || !k->arg_info || !k->args) {
        kernel_free(k);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    for (cl_uint i = 0; i < k->nargs; i++) visa_program_kernel_arg(vp, name, i, &k->arg_info[i]);
    icd_object_init(&k->obj, ICD_KERNEL);
    k->program = p;
    icd_retain(p);
    atomic_fetch_add(&p->kernels, 1);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return k;
}

cl_kernel icd_CreateKernel(cl_program p, const char *kernel_name, cl_int *errcode_ret) {
    if (!icd_is(p, ICD_PROGRAM)) return icd_fail(errcode_ret, CL_INVALID_PROGRAM);
    const icd_build *b = first_build(p);
    if (!b) return icd_fail(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
    if (!kernel_name) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    if (!has_kernel(b->vp, kernel_name)) return icd_fail(errcode_ret, CL_INVALID_KERNEL_NAME);
    return kernel_new(p, b->vp, kernel_name, errcode_ret);
}

cl_int icd_CreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_kernels_ret) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    const icd_build *b = first_build(p);
    if (!b) return CL_INVALID_PROGRAM_EXECUTABLE;
    cl_uint n = (cl_uint)visa_program_kernel_count(b->vp);
    if (kernels && num_kernels < n) return CL_INVALID_VALUE;
    for (cl_uint i = 0; kernels && i < n; i++) {
        cl_int rc;
        kernels[i] = kernel_new(p, b->vp, visa_program_kernel_name(b->vp, i), &rc);
        if (rc) {
            while (i--) icd_ReleaseKernel(kernels[i]);
            return rc;
        }
    }
    if (num_kernels_ret) *num_kernels_ret = n;
    return CL_SUCCESS;
}

cl_kernel icd_CloneKernel(cl_kernel source, cl_int *errcode_ret) {
    if (!icd_is(source, ICD_KERNEL)) return icd_fail(errcode_ret, CL_INVALID_KERNEL);
    cl_kernel k = kernel_new(source->program, first_build(source->program)->vp, source->name, errcode_ret);
    if (!k) return NULL;
    pthread_mutex_lock(&source->lock);
    for (cl_uint i = 0; i < k->nargs; i++) {
        k->args[i] = source->args[i];
        k->args[i].bytes = NULL;
        if (source->args[i].bytes && (k->args[i].bytes = malloc(source->args[i].size)))
            memcpy(k->args[i].bytes, source->args[i].bytes, source->args[i].size);
    }
    pthread_mutex_unlock(&source->lock);
    return k;
}

cl_int icd_RetainKernel(cl_kernel k) { return icd_retain_checked(k, ICD_KERNEL, CL_INVALID_KERNEL); }

cl_int icd_ReleaseKernel(cl_kernel k) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    if (!icd_unref(k)) return CL_SUCCESS;
    cl_program p = k->program;
    atomic_fetch_sub(&p->kernels, 1);
    kernel_free(k);
    icd_program_release(p);
    return CL_SUCCESS;
}

/* The size a value argument takes: its OpenCL type's (sizeof(char) is 1 where IGC's payload slot
** holds 4; a 3-element vector takes 4 elements' room); a struct at least the bytes IGC reads of
** it. */
static bool value_size_ok(const visa_cl_arg_info *ai, size_t size) {
    unsigned esize = visa_type_bytes(ai->elem_type);
    if (!esize || !ai->elem_count) return size >= ai->size;
    return size == (size_t)esize * (ai->elem_count == 3 ? 4 : ai->elem_count);
}

cl_int icd_SetKernelArg(cl_kernel k, cl_uint arg_index, size_t arg_size, const void *arg_value) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    if (arg_index >= k->nargs) return CL_INVALID_ARG_INDEX;
    const visa_cl_arg_info *ai = &k->arg_info[arg_index];
    icd_arg_value v = {.set = true, .size = arg_size};
    switch (ai->kind) {
    case VISA_CL_ARG_BUFFER:
        if (arg_size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
        v.mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (v.mem && (!icd_is(v.mem, ICD_MEM) || v.mem->context != k->program->context)) return CL_INVALID_MEM_OBJECT;
        break;
    case VISA_CL_ARG_LOCAL:
        if (arg_value) return CL_INVALID_ARG_VALUE;
        if (!arg_size) return CL_INVALID_ARG_SIZE;
        break;
    case VISA_CL_ARG_VALUE:
        if (!arg_value) return CL_INVALID_ARG_VALUE;
        if (!value_size_ok(ai, arg_size)) return CL_INVALID_ARG_SIZE;
        v.bytes = malloc(arg_size);
        if (!v.bytes) return CL_OUT_OF_HOST_MEMORY;
        memcpy(v.bytes, arg_value, arg_size);
        break;
    case VISA_CL_ARG_SAMPLER: return CL_INVALID_SAMPLER; /* no sampler can exist: images are not supported */
    default: return CL_INVALID_MEM_OBJECT; /* an image */
    }
    pthread_mutex_lock(&k->lock);
    free(k->args[arg_index].bytes);
    k->args[arg_index] = v;
    pthread_mutex_unlock(&k->lock);
    return CL_SUCCESS;
}

cl_int icd_GetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return ICD_INFO_STR(k->name);
    case CL_KERNEL_NUM_ARGS: return ICD_INFO(cl_uint, k->nargs);
    case CL_KERNEL_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&k->obj.refs));
    case CL_KERNEL_CONTEXT: return ICD_INFO(cl_context, k->program->context);
    case CL_KERNEL_PROGRAM: return ICD_INFO(cl_program, k->program);
    case CL_KERNEL_ATTRIBUTES: { /* .ze_info's user_attributes, as compute-runtime reports them */
        const icd_build *b = first_build(k->program);
        visa_cl_kernel_info ki = {.struct_size = sizeof ki};
        if (!b || visa_program_kernel_info(b->vp, k->name, &ki) != VISA_OK) return CL_INVALID_KERNEL;
        return ICD_INFO_STR(ki.attributes);
    }
    default: return CL_INVALID_VALUE;
    }
}

static cl_kernel_arg_address_qualifier address_qualifier(const char *q) {
    if (!strcmp(q, "__global")) return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    if (!strcmp(q, "__local")) return CL_KERNEL_ARG_ADDRESS_LOCAL;
    if (!strcmp(q, "__constant")) return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

static cl_kernel_arg_type_qualifier type_qualifiers(const visa_cl_arg_info *ai) {
    cl_kernel_arg_type_qualifier q = 0;
    if (strstr(ai->type_qualifiers, "const") || !strcmp(ai->address_qualifier, "__constant"))
        q |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(ai->type_qualifiers, "restrict")) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(ai->type_qualifiers, "volatile")) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (strstr(ai->type_qualifiers, "pipe")) q |= CL_KERNEL_ARG_TYPE_PIPE;
    return q;
}

cl_int icd_GetKernelArgInfo(cl_kernel k, cl_uint arg_index, cl_kernel_arg_info param, size_t size, void *value,
                            size_t *size_ret) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    if (arg_index >= k->nargs) return CL_INVALID_ARG_INDEX;
    const visa_cl_arg_info *ai = &k->arg_info[arg_index];
    switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        return ICD_INFO(cl_kernel_arg_address_qualifier, address_qualifier(ai->address_qualifier));
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
        const char *a = ai->access_qualifier;
        cl_kernel_arg_access_qualifier q = !strcmp(a, "read_only")    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                                           : !strcmp(a, "write_only") ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                                           : !strcmp(a, "read_write") ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                                      : CL_KERNEL_ARG_ACCESS_NONE;
        return ICD_INFO(cl_kernel_arg_access_qualifier, q);
    }
    case CL_KERNEL_ARG_TYPE_NAME:
        if (!*ai->type_name) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        return ICD_INFO_STR(ai->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: return ICD_INFO(cl_kernel_arg_type_qualifier, type_qualifiers(ai));
    case CL_KERNEL_ARG_NAME:
        if (!*ai->name) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        return ICD_INFO_STR(ai->name);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_kernel_info(cl_kernel k, cl_device_id dev, visa_cl_kernel_info *out) {
    if (!dev) {
        if (k->program->context->ndevices != 1) return CL_INVALID_DEVICE;
        dev = k->program->context->devices[0];
    }
    if (!icd_is(dev, ICD_DEVICE) || !icd_context_has_device(k->program->context, dev)) return CL_INVALID_DEVICE;
    icd_build *b = icd_program_build_for(k->program, dev);
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    if (!b || visa_program_kernel_info(b->vp, k->name, out) != VISA_OK) return CL_INVALID_PROGRAM_EXECUTABLE;
    return CL_SUCCESS;
}

/* compute-runtime's kernel limit: the threads of a subslice (half of them with 256 GRFs), times
** the SIMD width, within the device's maximum. */
size_t icd_kernel_max_group(const visa_cl_kernel_info *ki, cl_device_id dev) {
    size_t threads = (size_t)dev->facts->eus_per_subslice * dev->facts->threads_per_eu;
    if (ki->grf_count > 128) threads /= 2;
    size_t n = threads * (ki->simd_size ? ki->simd_size : dev->facts->min_simd);
    return n < dev->max_work_group_size ? n : dev->max_work_group_size;
}

static size_t local_args_bytes(cl_kernel k) {
    size_t n = 0;
    pthread_mutex_lock(&k->lock);
    for (cl_uint i = 0; i < k->nargs; i++)
        if (k->arg_info[i].kind == VISA_CL_ARG_LOCAL && k->args[i].set) n += k->args[i].size;
    pthread_mutex_unlock(&k->lock);
    return n;
}

cl_int icd_GetKernelWorkGroupInfo(cl_kernel k, cl_device_id device, cl_kernel_work_group_info param, size_t size,
                                  void *value, size_t *size_ret) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    visa_cl_kernel_info ki;
    cl_int rc = icd_kernel_info(k, device, &ki);
    if (rc) return rc;
    if (!device) device = k->program->context->devices[0];
    switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return ICD_INFO(size_t, icd_kernel_max_group(&ki, device));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        size_t s[3] = {ki.required_work_group_size[0], ki.required_work_group_size[1], ki.required_work_group_size[2]};
        return icd_info(size, value, size_ret, s, sizeof s);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: return ICD_INFO(cl_ulong, ki.slm_size + local_args_bytes(k));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return ICD_INFO(size_t, ki.simd_size);
    case CL_KERNEL_PRIVATE_MEM_SIZE: return ICD_INFO(cl_ulong, ki.private_size);
    case CL_KERNEL_SPILL_MEM_SIZE_INTEL: return ICD_INFO(cl_ulong, 0);
    default: return CL_INVALID_VALUE; /* CL_KERNEL_GLOBAL_WORK_SIZE: not a built-in kernel */
    }
}

static size_t product(const size_t *v, size_t n) {
    size_t p = 1;
    for (size_t i = 0; i < n; i++) p *= v[i];
    return p;
}

cl_int icd_GetKernelSubGroupInfo(cl_kernel k, cl_device_id device, cl_kernel_sub_group_info param, size_t in_size,
                                 const void *in_value, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    visa_cl_kernel_info ki;
    cl_int rc = icd_kernel_info(k, device, &ki);
    if (rc) return rc;
    if (!device) device = k->program->context->devices[0];
    size_t simd = ki.simd_size ? ki.simd_size : device->facts->min_simd, max = icd_kernel_max_group(&ki, device);
    const size_t *in = in_value;
    bool ndrange = param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE || param == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE;
    if (ndrange && (!in || !in_size || in_size % sizeof(size_t) || in_size > 3 * sizeof(size_t)))
        return CL_INVALID_VALUE;
    switch (param) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: return ICD_INFO(size_t, simd);
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        size_t n = product(in, in_size / sizeof(size_t));
        return ICD_INFO(size_t, (n + simd - 1) / simd);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!in || in_size != sizeof(size_t)) return CL_INVALID_VALUE;
        size_t dims = size / sizeof(size_t), out[3] = {0, 0, 0};
        if (value && (!dims || dims > 3 || size % sizeof(size_t))) return CL_INVALID_VALUE;
        if (*in * simd <= max) out[0] = *in * simd, out[1] = out[2] = 1;
        return icd_info(size, value, size_ret, out, (value ? dims : 3) * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: return ICD_INFO(size_t, (max + simd - 1) / simd);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return ICD_INFO(size_t, 0);
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: return ICD_INFO(size_t, ki.required_sub_group_size);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetKernelSubGroupInfoKHR(cl_kernel k, cl_device_id device, cl_kernel_sub_group_info param, size_t in_size,
                                    const void *in_value, size_t size, void *value, size_t *size_ret) {
    return icd_GetKernelSubGroupInfo(k, device, param, in_size, in_value, size, value, size_ret);
}
