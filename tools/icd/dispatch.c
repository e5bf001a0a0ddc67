/* dispatch.c -- the loader's dispatch table (entries.def: every member filled) and what every
** object kind shares: references, the *Info protocol, property lists. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "icd.h"

cl_icd_dispatch icd_dispatch = {
#define ICD_FN(name) .cl##name = icd_##name,
#define ICD_NONE(name) .cl##name = (void *)icd_unavailable,
#include "entries.def"
#undef ICD_FN
#undef ICD_NONE
};

void icd_object_init(icd_object *o, icd_kind kind) {
    o->dispatch = &icd_dispatch;
    o->kind = kind;
    atomic_init(&o->refs, 1);
}

bool icd_unref(void *o) {
    icd_object *obj = o;
    if (atomic_fetch_sub(&obj->refs, 1) != 1) return false;
    obj->kind = ICD_DEAD;
    return true;
}

cl_int icd_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n) {
    if (value) {
        if (size < n) return CL_INVALID_VALUE;
        if (n) memcpy(value, src, n);
    }
    if (size_ret) *size_ret = n;
    return CL_SUCCESS;
}

void *icd_fail(cl_int *errcode_ret, cl_int err) {
    if (errcode_ret) *errcode_ret = err;
    return NULL;
}

_Static_assert(sizeof(cl_context_properties) == sizeof(cl_ulong), "64-bit property lists");

cl_int icd_copy_props(const cl_ulong *props, cl_ulong **out, size_t *n) {
    *out = NULL;
    *n = 0;
    if (!props) return CL_SUCCESS;
    size_t k = 0;
    while (props[k]) k += 2;
    *out = malloc((k + 1) * sizeof **out);
    if (!*out) return CL_OUT_OF_HOST_MEMORY;
    memcpy(*out, props, (k + 1) * sizeof **out);
    *n = k + 1;
    return CL_SUCCESS;
}

char *icd_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

cl_int icd_callback_push(icd_callback **list, pthread_mutex_t *lock, void(CL_CALLBACK *fn)(void), void *user_data) {
    icd_callback *cb = calloc(1, sizeof *cb);
    if (!cb) return CL_OUT_OF_HOST_MEMORY;
    cb->fn = fn;
    cb->user_data = user_data;
    pthread_mutex_lock(lock);
    cb->next = *list;
    *list = cb;
    pthread_mutex_unlock(lock);
    return CL_SUCCESS;
}

cl_ulong icd_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (cl_ulong)t.tv_sec * 1000000000u + (cl_ulong)t.tv_nsec;
}
