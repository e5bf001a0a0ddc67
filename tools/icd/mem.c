/* mem.c -- buffers and sub-buffers: host memory the emulated kernels read and write (a
** CL_MEM_USE_HOST_PTR buffer is the application's memory itself). */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
#define ICD_BUFFER_ALIGN 128

static const cl_mem_flags access_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_access_flags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static const cl_mem_flags host_ptr_flags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static bool one_bit_at_most(cl_mem_flags f) { return !(f & (f - 1)); }

static cl_int check_flags(cl_mem_flags flags) {
    if (flags & ~(access_flags | host_access_flags | host_ptr_flags | CL_MEM_KERNEL_READ_AND_WRITE))
        return CL_INVALID_VALUE;
    if (!one_bit_at_most(flags & access_flags) || !one_bit_at_most(flags & host_access_flags) ||
        ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
        return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

static cl_mem mem_new(cl_context context, cl_mem_flags flags) {
    cl_mem m = calloc(1, sizeof *m);
    if (!m) return NULL;
    icd_object_init(&m->obj, ICD_MEM);
    m->context = context;
    m->flags = flags;
    pthread_mutex_init(&m->lock, NULL);
    icd_retain(context);
    return m;
}

cl_mem icd_CreateBufferWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                                      size_t size, void *host_ptr, cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (properties && properties[0]) return icd_fail(errcode_ret, CL_INVALID_PROPERTY); /* none are known */
    if (check_flags(flags)) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    /* no access flag means CL_MEM_READ_WRITE, but CL_MEM_FLAGS reports the flags as given */
    uint64_t max = 0;
    for (cl_uint i = 0; i < context->ndevices; i++)
        if (context->devices[i]->max_alloc > max) max = context->devices[i]->max_alloc;
    if (!size || size > max) return icd_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_ptr != (host_ptr != NULL)) return icd_fail(errcode_ret, CL_INVALID_HOST_PTR);
    cl_mem m = mem_new(context, flags);
    if (!m) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    m->size = size;
    if (icd_copy_props(properties, &m->props, &m->nprops)) {
        icd_mem_release(m);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    if (flags & CL_MEM_USE_HOST_PTR) {
        m->data = host_ptr;
        m->host_ptr = host_ptr;
    } else {
        void *p = NULL;
        if (posix_memalign(&p, ICD_BUFFER_ALIGN, size)) {
            icd_mem_release(m);
            return icd_fail(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        m->data = p;
        m->own_data = true;
        /* a new buffer starts zero-filled so runs are deterministic (initcheck still reports
        ** reads of bytes the host never wrote: they stay undefined to it, see defined) */
        if (flags & CL_MEM_COPY_HOST_PTR) memcpy(m->data, host_ptr, size);
        else memset(m->data, 0, size);
    }
    atomic_init(&m->defined, wants_ptr);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return m;
}

cl_mem icd_CreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
    return icd_CreateBufferWithProperties(context, NULL, flags, size, host_ptr, errcode_ret);
}

/* A sub-buffer's flags: its own access and host access, or its parent's; the parent's host-pointer
** flags (CL_INVALID_VALUE for a sub-buffer's own, or access its parent forbids). */
static cl_int sub_buffer_flags(cl_mem parent, cl_mem_flags *flags) {
    cl_mem_flags f = *flags, p = parent->flags;
    if (check_flags(f) || (f & host_ptr_flags)) return CL_INVALID_VALUE;
    if (((p & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((p & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((p & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) ||
        ((p & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) ||
        ((p & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return CL_INVALID_VALUE;
    if (!(f & access_flags)) f |= p & access_flags;
    if (!(f & host_access_flags)) f |= p & host_access_flags;
    *flags = f | (p & host_ptr_flags);
    return CL_SUCCESS;
}

cl_mem icd_CreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                           cl_int *errcode_ret) {
    if (!icd_is(buffer, ICD_MEM) || buffer->parent) return icd_fail(errcode_ret, CL_INVALID_MEM_OBJECT);
    cl_int rc = sub_buffer_flags(buffer, &flags);
    if (rc) return icd_fail(errcode_ret, rc);
    if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    const cl_buffer_region *r = info;
    if (!r->size) return icd_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
    if (r->origin > buffer->size || r->size > buffer->size - r->origin) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    if (r->origin % ICD_BUFFER_ALIGN) return icd_fail(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_mem m = mem_new(buffer->context, flags);
    if (!m) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    m->parent = buffer;
    icd_retain(buffer);
    m->origin = r->origin;
    m->size = r->size;
    m->data = buffer->data + r->origin;
    m->host_ptr = buffer->host_ptr ? (uint8_t *)buffer->host_ptr + r->origin : NULL;
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return m;
}

cl_int icd_RetainMemObject(cl_mem m) { return icd_retain_checked(m, ICD_MEM, CL_INVALID_MEM_OBJECT); }

void icd_mem_release(cl_mem m) {
    if (!icd_unref(m)) return;
    ICD_RUN_CALLBACKS(m->destructors, cl_mem, m)
    if (m->own_data) free(m->data);
    if (m->parent) icd_mem_release(m->parent);
    icd_context_release(m->context);
    pthread_mutex_destroy(&m->lock);
    free(m->props);
    free(m);
}

cl_int icd_ReleaseMemObject(cl_mem m) {
    return icd_is(m, ICD_MEM) ? (icd_mem_release(m), CL_SUCCESS) : CL_INVALID_MEM_OBJECT;
}

cl_int icd_SetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *pfn_notify)(cl_mem, void *), void *user_data) {
    if (!icd_is(m, ICD_MEM)) return CL_INVALID_MEM_OBJECT;
    if (!pfn_notify) return CL_INVALID_VALUE;
    return icd_callback_push(&m->destructors, &m->lock, (void(CL_CALLBACK *)(void))pfn_notify, user_data);
}

cl_int icd_GetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(m, ICD_MEM)) return CL_INVALID_MEM_OBJECT;
    switch (param) {
    case CL_MEM_TYPE: return ICD_INFO(cl_mem_object_type, CL_MEM_OBJECT_BUFFER);
    case CL_MEM_FLAGS: return ICD_INFO(cl_mem_flags, m->flags);
    case CL_MEM_SIZE: return ICD_INFO(size_t, m->size);
    case CL_MEM_HOST_PTR: return ICD_INFO(void *, m->host_ptr);
    case CL_MEM_MAP_COUNT: return ICD_INFO(cl_uint, atomic_load(&m->map_count));
    case CL_MEM_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&m->obj.refs));
    case CL_MEM_CONTEXT: return ICD_INFO(cl_context, m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return ICD_INFO(cl_mem, m->parent);
    case CL_MEM_OFFSET: return ICD_INFO(size_t, m->origin);
    case CL_MEM_USES_SVM_POINTER: return ICD_INFO(cl_bool, CL_FALSE);
    case CL_MEM_PROPERTIES: return icd_info(size, value, size_ret, m->props, m->nprops * sizeof *m->props);
    default: return CL_INVALID_VALUE;
    }
}

/* The buffer whose bytes a sub-buffer shares (initcheck's "defined" flag lives there). */
static cl_mem mem_root(cl_mem m) { return m->parent ? m->parent : m; }

void icd_mem_mark_defined(cl_mem m) { atomic_store(&mem_root(m)->defined, true); }
bool icd_mem_defined(cl_mem m) { return atomic_load(&mem_root(m)->defined); }
