/* launch.c -- clEnqueueNDRangeKernel: the specification's checks of the ND-range, then a command
** that runs the kernel on the emulator (visa_program_run) with the arguments as they were set
** when it was enqueued. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

typedef struct launch_cmd {
    icd_command base;
    cl_kernel kernel; /* retained */
    icd_build *build;
    visa_cl_launch launch;
    cl_uint nargs;
    visa_cl_arg *args;
    cl_mem *mems; /* per argument: its buffer (retained), or NULL */
    uint8_t *undef, *access;
    uint8_t **values; /* copies of the value arguments */
} launch_cmd;

static visa_status print_stdout(void *ud, const char *data, size_t len) {
    (void)ud;
    return fwrite(data, 1, len, stdout) == len ? VISA_OK : VISA_E_IO;
}

static cl_int launch_run(icd_command *c) {
    launch_cmd *L = (launch_cmd *)c;
    icd_build *b = L->build;
    icd_observing w;
    icd_observe_start(&w, b, L->kernel, &L->launch);
    pthread_mutex_lock(&b->run_lock);
    b->running_kernel = L->kernel->name;
    /* which buffers are undefined to initcheck: decided now, not at enqueue, for the kernels
    ** that ran before this one (still queued when it was enqueued) have written theirs */
    for (cl_uint i = 0; i < L->nargs; i++) L->undef[i] = L->mems[i] && !icd_mem_defined(L->mems[i]);
    visa_status st = visa_program_run(b->vp, &L->launch, L->args, L->nargs, NULL);
    fflush(stdout);
    b->running_kernel = NULL;
    pthread_mutex_unlock(&b->run_lock);
    icd_observe_end(&w, b, L->kernel, st);
    /* the kernel may have written every buffer it got: none is undefined to initcheck from now on */
    for (cl_uint i = 0; i < L->nargs; i++)
        if (L->mems[i] && !(L->mems[i]->flags & CL_MEM_READ_ONLY)) icd_mem_mark_defined(L->mems[i]);
    if (st == VISA_OK) return CL_COMPLETE;
    icd_count_failed_launch();
    /* check findings: the run went on past them, as on Oclgrind; the launch itself completed */
    if (st == VISA_E_RUNTIME && L->launch.checks) return CL_COMPLETE;
    return CL_OUT_OF_RESOURCES;
}

static void launch_done(icd_command *c) {
    launch_cmd *L = (launch_cmd *)c;
    for (cl_uint i = 0; i < L->nargs; i++) {
        if (L->mems && L->mems[i]) icd_mem_release(L->mems[i]);
        if (L->values) free(L->values[i]);
    }
    free(L->args);
    free(L->mems);
    free(L->undef);
    free(L->access);
    free(L->values);
    if (L->kernel) icd_ReleaseKernel(L->kernel);
    free(L);
}

/* The kernel's arguments as visa_program_run takes them; CL_INVALID_KERNEL_ARGS when one is not
** set.  Which buffers are undefined to initcheck is decided when the launch runs (launch_run). */
static cl_int snapshot_args(launch_cmd *L, cl_kernel k) {
    cl_uint n = L->nargs = k->nargs;
    size_t m = n ? n : 1;
    L->args = calloc(m, sizeof *L->args);
    L->mems = calloc(m, sizeof *L->mems);
    L->undef = calloc(m, 1);
    L->access = calloc(m, 1);
    L->values = calloc(m, sizeof *L->values);
    if (!L->args || !L->mems || !L->undef || !L->access || !L->values) return CL_OUT_OF_HOST_MEMORY;
    cl_int rc = CL_SUCCESS;
    pthread_mutex_lock(&k->lock);
    for (cl_uint i = 0; i < n && !rc; i++) {
        const icd_arg_value *v = &k->args[i];
        visa_cl_arg *a = &L->args[i];
        a->kind = k->arg_info[i].kind;
        if (!v->set) {
            rc = CL_INVALID_KERNEL_ARGS;
        } else if (a->kind == VISA_CL_ARG_BUFFER && v->mem) {
            if (!icd_is(v->mem, ICD_MEM)) rc = CL_INVALID_KERNEL_ARGS; /* released since */
            else {
                L->mems[i] = v->mem;
                icd_retain(v->mem);
                a->data = v->mem->data;
                a->size = v->mem->size;
                L->access[i] = v->mem->flags & CL_MEM_READ_ONLY    ? VISA_BUFFER_READ_ONLY
                               : v->mem->flags & CL_MEM_WRITE_ONLY ? VISA_BUFFER_WRITE_ONLY
                                                                   : VISA_BUFFER_READ_WRITE;
            }
        } else if (a->kind == VISA_CL_ARG_LOCAL) {
            a->size = v->size;
        } else if (a->kind == VISA_CL_ARG_VALUE) {
            /* IGC's payload slot may be wider than the type (a char's is 4 bytes): zeros after it */
            size_t room = v->size > k->arg_info[i].size ? v->size : k->arg_info[i].size;
            L->values[i] = calloc(1, room);
            if (!L->values[i]) rc = CL_OUT_OF_HOST_MEMORY;
            else memcpy(L->values[i], v->bytes, v->size);
            a->data = L->values[i];
            a->size = room;
        }
    }
    pthread_mutex_unlock(&k->lock);
    return rc;
}

/* The ND-range's checks (clEnqueueNDRangeKernel's errors, in the specification's order). */
static cl_int check_range(const visa_cl_kernel_info *ki, cl_device_id dev, const icd_build *b, cl_uint dim,
                          const size_t *offset, const size_t *global, const size_t *local) {
    if (dim < 1 || dim > 3) return CL_INVALID_WORK_DIMENSION;
    /* OpenCL 2.1 on (every device here is 3.0): a NULL global size is an empty range, which
    ** "trivially succeeds" (clEnqueueNDRangeKernel; CL_INVALID_GLOBAL_WORK_SIZE for it is
    ** deprecated by 2.1) */
    if (!global) return CL_SUCCESS;
    for (cl_uint d = 0; d < dim; d++)
        if (offset && global[d] > SIZE_MAX - offset[d]) return CL_INVALID_GLOBAL_OFFSET;
    const uint32_t *req = ki->required_work_group_size;
    bool has_req = req[0] || req[1] || req[2];
    if (!local) return has_req && dim && global[0] % req[0] ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
    size_t total = 1;
    for (cl_uint d = 0; d < dim; d++) {
        if (!local[d]) return CL_INVALID_WORK_GROUP_SIZE;
        if (local[d] > dev->max_work_group_size) return CL_INVALID_WORK_ITEM_SIZE;
        if (has_req && local[d] != req[d]) return CL_INVALID_WORK_GROUP_SIZE;
        if (icd_build_uniform_groups(b) && global[d] % local[d]) return CL_INVALID_WORK_GROUP_SIZE;
        total *= local[d];
    }
    for (cl_uint d = dim; has_req && d < 3; d++)
        if (req[d] != 1) return CL_INVALID_WORK_GROUP_SIZE;
    if (total > icd_kernel_max_group(ki, dev)) return CL_INVALID_WORK_GROUP_SIZE;
    return CL_SUCCESS;
}

static void fill_launch(visa_cl_launch *l, const visa_cl_kernel_info *ki, cl_uint dim, const size_t *offset,
                        const size_t *global, const size_t *local) {
    const icd_run_options *o = icd_options();
    memset(l, 0, sizeof *l);
    l->struct_size = sizeof *l;
    l->work_dim = dim;
    for (cl_uint d = 0; d < 3; d++) {
        l->global_size[d] = d < dim ? global[d] : 1;
        l->global_offset[d] = d < dim && offset ? offset[d] : 0;
        l->local_size[d] = d < dim && local ? local[d] : local ? 1 : 0;
    }
    /* no local size: reqd_work_group_size where the kernel has one, else the library chooses */
    if (!local && ki->required_work_group_size[0])
        for (int d = 0; d < 3; d++) l->local_size[d] = ki->required_work_group_size[d];
    l->threads = o->threads;
    l->checks = o->checks;
    l->max_steps = o->max_steps;
    l->timeout_seconds = o->timeout_seconds;
    l->printf_out = print_stdout;
}

cl_int icd_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint work_dim, const size_t *global_work_offset,
                                const size_t *global_work_size, const size_t *local_work_size, cl_uint n,
                                const cl_event *list, cl_event *event) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!icd_is(k, ICD_KERNEL)) return CL_INVALID_KERNEL;
    if (k->program->context != q->context) return CL_INVALID_CONTEXT;
    icd_build *b = icd_program_build_for(k->program, q->device);
    visa_cl_kernel_info ki;
    if (!b || icd_kernel_info(k, q->device, &ki)) return CL_INVALID_PROGRAM_EXECUTABLE;
    cl_int rc = check_range(&ki, q->device, b, work_dim, global_work_offset, global_work_size, local_work_size);
    if (rc) return rc;
    if ((rc = icd_check_wait_list(q->context, n, list))) return rc;
    launch_cmd *L = calloc(1, sizeof *L);
    if (!L) return CL_OUT_OF_HOST_MEMORY;
    L->base.run = launch_run;
    L->base.done = launch_done;
    rc = snapshot_args(L, k);
    if (rc) {
        launch_done(&L->base);
        return rc;
    }
    L->kernel = k;
    icd_retain(k);
    L->build = b;
    static const size_t empty[3] = {0, 0, 0};
    if (!global_work_size) global_work_size = empty;
    fill_launch(&L->launch, &ki, work_dim, global_work_offset, global_work_size, local_work_size);
    L->launch.kernel = k->name;
    L->launch.arg_undef = L->undef;
    L->launch.arg_access = L->access;
    /* an empty ND-range (OpenCL 2.1: a global size of 0) runs nothing */
    for (cl_uint d = 0; d < work_dim; d++)
        if (!global_work_size[d]) L->base.run = NULL;
    return icd_enqueue(q, CL_COMMAND_NDRANGE_KERNEL, &L->base, n, list, event, false);
}

cl_int icd_EnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list, cl_event *event) {
    const size_t one = 1;
    return icd_EnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, list, event);
}
