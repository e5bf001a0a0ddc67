/* context.c -- contexts: their devices, properties and destructor callbacks. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* CL_CONTEXT_PLATFORM must name this platform; CL_CONTEXT_INTEROP_USER_SYNC is accepted; each
** property once. */
static cl_int check_context_props(const cl_context_properties *props) {
    for (size_t i = 0; props && props[i]; i += 2) {
        for (size_t j = 0; j < i; j += 2)
            if (props[j] == props[i]) return CL_INVALID_PROPERTY;
        if (props[i] == CL_CONTEXT_PLATFORM) {
            if ((cl_platform_id)props[i + 1] != &icd_platform) return CL_INVALID_PLATFORM;
        } else if (props[i] != CL_CONTEXT_INTEROP_USER_SYNC) {
            return CL_INVALID_PROPERTY;
        }
    }
    return CL_SUCCESS;
}

cl_context icd_CreateContext(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                             void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
                             cl_int *errcode_ret) {
    if (!num_devices || !devices || (!pfn_notify && user_data)) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    cl_int rc = check_context_props(properties);
    if (rc) return icd_fail(errcode_ret, rc);
    for (cl_uint i = 0; i < num_devices; i++)
        if (!icd_is(devices[i], ICD_DEVICE)) return icd_fail(errcode_ret, CL_INVALID_DEVICE);
    cl_context c = calloc(1, sizeof *c);
    if (!c) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    c->devices = malloc(num_devices * sizeof *c->devices);
    if (!c->devices || icd_copy_props((const cl_ulong *)properties, (cl_ulong **)&c->props, &c->nprops)) {
        free(c->devices);
        free(c);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    /* a device named twice is one device of the context */
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_uint j = 0;
        while (j < c->ndevices && c->devices[j] != devices[i]) j++;
        if (j == c->ndevices) c->devices[c->ndevices++] = devices[i];
    }
    icd_object_init(&c->obj, ICD_CONTEXT);
    c->notify = pfn_notify;
    c->notify_data = user_data;
    pthread_mutex_init(&c->lock, NULL);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return c;
}

cl_context icd_CreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                     void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                     void *user_data, cl_int *errcode_ret) {
    if (!pfn_notify && user_data) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    cl_int rc = check_context_props(properties);
    if (rc) return icd_fail(errcode_ret, rc);
    cl_device_id devices[16];
    cl_uint n = 0;
    rc = icd_GetDeviceIDs(&icd_platform, device_type, 16, devices, &n);
    if (rc) return icd_fail(errcode_ret, rc);
    return icd_CreateContext(properties, n < 16 ? n : 16, devices, pfn_notify, user_data, errcode_ret);
}

cl_int icd_RetainContext(cl_context context) { return icd_retain_checked(context, ICD_CONTEXT, CL_INVALID_CONTEXT); }

void icd_context_release(cl_context c) {
    if (!icd_unref(c)) return;
    /* destructor callbacks: the last registered first */
    ICD_RUN_CALLBACKS(c->destructors, cl_context, c)
    pthread_mutex_destroy(&c->lock);
    free(c->devices);
    free(c->props);
    free(c);
}

cl_int icd_ReleaseContext(cl_context context) {
    return icd_is(context, ICD_CONTEXT) ? (icd_context_release(context), CL_SUCCESS) : CL_INVALID_CONTEXT;
}

cl_int icd_GetContextInfo(cl_context context, cl_context_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return CL_INVALID_CONTEXT;
    switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&context->obj.refs));
    case CL_CONTEXT_NUM_DEVICES: return ICD_INFO(cl_uint, context->ndevices);
    case CL_CONTEXT_DEVICES:
        return icd_info(size, value, size_ret, context->devices, context->ndevices * sizeof *context->devices);
    case CL_CONTEXT_PROPERTIES:
        return icd_info(size, value, size_ret, context->props, context->nprops * sizeof *context->props);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_SetContextDestructorCallback(cl_context context, void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                        void *user_data) {
    if (!icd_is(context, ICD_CONTEXT)) return CL_INVALID_CONTEXT;
    if (!pfn_notify) return CL_INVALID_VALUE;
    return icd_callback_push(&context->destructors, &context->lock, (void(CL_CALLBACK *)(void))pfn_notify, user_data);
}

bool icd_context_has_device(cl_context ctx, cl_device_id dev) { return icd_context_device_index(ctx, dev) >= 0; }

int icd_context_device_index(cl_context ctx, cl_device_id dev) {
    for (cl_uint i = 0; i < ctx->ndevices; i++)
        if (ctx->devices[i] == dev) return (int)i;
    return -1;
}
