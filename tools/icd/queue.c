/* queue.c -- command queues: one worker thread per queue runs its commands in order, each once
** the events of its wait list are complete (an out-of-order queue runs in order too: a correct
** order).  Markers, barriers, flush, finish. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

static void *queue_worker(void *arg);

static void queue_free(cl_command_queue q) {
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->cond);
    free(q->props_array);
    icd_context_release(q->context);
    free(q);
}

static cl_command_queue queue_new(cl_context context, cl_device_id device, cl_command_queue_properties props,
                                  const cl_queue_properties *props_array, cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!icd_is(device, ICD_DEVICE) || !icd_context_has_device(context, device))
        return icd_fail(errcode_ret, CL_INVALID_DEVICE);
    if (props & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                               CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
        return icd_fail(errcode_ret, CL_INVALID_VALUE);
    /* a device queue "must also" be out of order, and only a device queue is the default one
    ** (CL_QUEUE_PROPERTIES in clCreateCommandQueueWithProperties): not valid, CL_INVALID_VALUE;
    ** a valid device queue is not supported here, CL_INVALID_QUEUE_PROPERTIES */
    bool on_device = props & CL_QUEUE_ON_DEVICE;
    if ((on_device && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) ||
        (!on_device && (props & CL_QUEUE_ON_DEVICE_DEFAULT)))
        return icd_fail(errcode_ret, CL_INVALID_VALUE);
    if (on_device) return icd_fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
    cl_command_queue q = calloc(1, sizeof *q);
    if (!q || icd_copy_props(props_array, &q->props_array, &q->nprops)) {
        free(q);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    icd_object_init(&q->obj, ICD_QUEUE);
    q->context = context;
    q->device = device;
    q->props = props;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->cond, NULL);
    icd_retain(context);
    pthread_t worker;
    if (pthread_create(&worker, NULL, queue_worker, q)) {
        queue_free(q);
        return icd_fail(errcode_ret, CL_OUT_OF_RESOURCES);
    }
    pthread_detach(worker);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return q;
}

cl_command_queue icd_CreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                                        cl_int *errcode_ret) {
    return queue_new(context, device, properties, NULL, errcode_ret);
}

cl_command_queue icd_CreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                      const cl_queue_properties *properties, cl_int *errcode_ret) {
    cl_command_queue_properties props = 0;
    for (size_t i = 0; properties && properties[i]; i += 2) {
        switch (properties[i]) {
        case CL_QUEUE_PROPERTIES: props = (cl_command_queue_properties)properties[i + 1]; break;
        case CL_QUEUE_SIZE: return icd_fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES); /* on-device queues only */
        case CL_QUEUE_PRIORITY_KHR:
        case CL_QUEUE_THROTTLE_KHR: break; /* hints */
        default: return icd_fail(errcode_ret, CL_INVALID_VALUE);
        }
    }
    return queue_new(context, device, props, properties, errcode_ret);
}

cl_int icd_RetainCommandQueue(cl_command_queue q) { return icd_retain_checked(q, ICD_QUEUE, CL_INVALID_COMMAND_QUEUE); }

/* The last reference: the worker ends (and frees the queue) once every command has run, as the
** specification wants (release does not wait for them). */
void icd_queue_release(cl_command_queue q) {
    if (!icd_unref(q)) return;
    pthread_mutex_lock(&q->lock);
    q->stop = true;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

cl_int icd_ReleaseCommandQueue(cl_command_queue q) {
    return icd_is(q, ICD_QUEUE) ? (icd_queue_release(q), CL_SUCCESS) : CL_INVALID_COMMAND_QUEUE;
}

cl_int icd_GetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size, void *value,
                               size_t *size_ret) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    switch (param) {
    case CL_QUEUE_CONTEXT: return ICD_INFO(cl_context, q->context);
    case CL_QUEUE_DEVICE: return ICD_INFO(cl_device_id, q->device);
    case CL_QUEUE_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&q->obj.refs));
    case CL_QUEUE_PROPERTIES: return ICD_INFO(cl_command_queue_properties, q->props);
    case CL_QUEUE_PROPERTIES_ARRAY:
        return icd_info(size, value, size_ret, q->props_array, q->nprops * sizeof *q->props_array);
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE; /* not a device queue */
    case CL_QUEUE_DEVICE_DEFAULT: return ICD_INFO(cl_command_queue, NULL);
    default: return CL_INVALID_VALUE;
    }
}

/* Runs one command: waits for its wait list, then runs it unless an event there failed. */
static void run_command(cl_event ev) {
    icd_command *cmd = ev->cmd;
    cl_int status = CL_COMPLETE;
    for (cl_uint i = 0; i < cmd->nwait; i++)
        if (icd_event_wait(cmd->wait[i]) < 0) status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (status == CL_COMPLETE) {
        icd_event_set_status(ev, CL_RUNNING);
        if (cmd->run) status = cmd->run(cmd);
    }
    for (cl_uint i = 0; i < cmd->nwait; i++) icd_event_release(cmd->wait[i]);
    free(cmd->wait);
    cmd->wait = NULL;
    if (cmd->done) cmd->done(cmd);
    ev->cmd = NULL;
    icd_event_set_status(ev, status);
}

static void *queue_worker(void *arg) {
    cl_command_queue q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (!q->head && !q->stop) pthread_cond_wait(&q->cond, &q->lock);
        if (!q->head) break;
        cl_event ev = q->head;
        q->head = ev->next;
        if (!q->head) q->tail = NULL;
        pthread_mutex_unlock(&q->lock);
        run_command(ev);
        icd_event_release(ev); /* the queue's reference (may be the queue's last, setting stop) */
        pthread_mutex_lock(&q->lock);
        q->pending--;
        pthread_cond_broadcast(&q->cond);
    }
    pthread_mutex_unlock(&q->lock);
    queue_free(q);
    return NULL;
}

cl_int icd_enqueue(cl_command_queue q, cl_command_type type, icd_command *cmd, cl_uint nwait, const cl_event *wait,
                   cl_event *event_out, bool blocking) {
    cl_event ev = icd_event_new(q->context, q, type, CL_QUEUED);
    cmd->wait = nwait ? malloc(nwait * sizeof *cmd->wait) : NULL;
    if (!ev || (nwait && !cmd->wait)) {
        if (ev) icd_event_release(ev);
        free(cmd->wait);
        if (cmd->done) cmd->done(cmd);
        return CL_OUT_OF_HOST_MEMORY;
    }
    cmd->nwait = nwait;
    for (cl_uint i = 0; i < nwait; i++) {
        cmd->wait[i] = wait[i];
        icd_retain(wait[i]);
    }
    ev->cmd = cmd;
    icd_retain(ev); /* the caller's (released below when it wants none) */
    ev->status = CL_SUBMITTED; /* the worker has it: commands are submitted at once */
    pthread_mutex_lock(&q->lock);
    if (q->tail) q->tail->next = ev;
    else q->head = ev;
    q->tail = ev;
    q->pending++;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
    cl_int rc = CL_SUCCESS;
    if (blocking && icd_event_wait(ev) < 0) rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (event_out) *event_out = ev;
    else icd_event_release(ev);
    return rc;
}

cl_int icd_Flush(cl_command_queue q) {
    return icd_is(q, ICD_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE; /* the worker has every command */
}

cl_int icd_Finish(cl_command_queue q) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    pthread_mutex_lock(&q->lock);
    while (q->pending) pthread_cond_wait(&q->cond, &q->lock);
    pthread_mutex_unlock(&q->lock);
    return CL_SUCCESS;
}

/* A command that only waits: markers and barriers (the queue runs in order, so a barrier waits for
** everything before it by being there). */
static cl_int enqueue_wait(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list, cl_event *event) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    cl_int rc = icd_check_wait_list(q->context, n, list);
    if (rc) return rc;
    icd_command *cmd = calloc(1, sizeof *cmd);
    if (!cmd) return CL_OUT_OF_HOST_MEMORY;
    cmd->done = (void (*)(icd_command *))free;
    return icd_enqueue(q, type, cmd, n, list, event, false);
}

cl_int icd_EnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list, cl_event *event) {
    return enqueue_wait(q, CL_COMMAND_MARKER, n, list, event);
}

cl_int icd_EnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list, cl_event *event) {
    return enqueue_wait(q, CL_COMMAND_BARRIER, n, list, event);
}

cl_int icd_EnqueueMarker(cl_command_queue q, cl_event *event) {
    if (!event) return CL_INVALID_VALUE;
    return enqueue_wait(q, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int icd_EnqueueBarrier(cl_command_queue q) { return enqueue_wait(q, CL_COMMAND_BARRIER, 0, NULL, NULL); }

cl_int icd_EnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
    if (!n || !list) return CL_INVALID_VALUE;
    cl_int rc = enqueue_wait(q, CL_COMMAND_BARRIER, n, list, NULL);
    return rc == CL_INVALID_EVENT_WAIT_LIST ? CL_INVALID_EVENT : rc;
}

/* Buffers live in host memory: migrating them is a marker. */
cl_int icd_EnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects, const cl_mem *mem_objects,
                                    cl_mem_migration_flags flags, cl_uint n, const cl_event *list, cl_event *event) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!num_mem_objects || !mem_objects ||
        (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!icd_is(mem_objects[i], ICD_MEM)) return CL_INVALID_MEM_OBJECT;
        if (mem_objects[i]->context != q->context) return CL_INVALID_CONTEXT;
    }
    return enqueue_wait(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, list, event);
}
