/* event.c -- events: the status of a command (or a user event), its callbacks, waiting for it,
** its profiling times. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int status) {
    cl_event ev = calloc(1, sizeof *ev);
    if (!ev) return NULL;
    icd_object_init(&ev->obj, ICD_EVENT);
    ev->context = ctx;
    ev->queue = q;
    ev->type = type;
    ev->status = status;
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->cond, NULL);
    icd_retain(ctx);
    if (q) icd_retain(q);
    ev->times[0] = ev->times[1] = icd_now_ns();
    return ev;
}

void icd_event_release(cl_event ev) {
    if (!icd_unref(ev)) return;
    for (icd_callback *cb = ev->callbacks, *next; cb; cb = next) {
        next = cb->next;
        free(cb);
    }
    /* A waiter's pthread_cond_wait may still be leaving the lock when its reference is dropped
    ** (icd_event_wait): taking the lock once more orders its last use before the destruction,
    ** for ThreadSanitizer too, which sees the lock but not the reference count of an ICD built
    ** without it (tests/icd/CMakeLists.txt, icd_threads_tsan). */
    pthread_mutex_lock(&ev->lock);
    pthread_mutex_unlock(&ev->lock);
    pthread_mutex_destroy(&ev->lock);
    pthread_cond_destroy(&ev->cond);
    if (ev->queue) icd_queue_release(ev->queue);
    icd_context_release(ev->context);
    free(ev);
}

typedef void(CL_CALLBACK *event_notify_fn)(cl_event, cl_int, void *);

/* A new status: running (1), complete (0) or failed (< 0).  Callbacks registered for a status the
** event has now reached run here, outside the lock, once each; a failed event runs its
** CL_COMPLETE callbacks with the error. */
void icd_event_set_status(cl_event ev, cl_int status) {
    icd_callback *due = NULL;
    pthread_mutex_lock(&ev->lock);
    ev->status = status;
    cl_ulong now = icd_now_ns();
    if (status == CL_RUNNING) ev->times[2] = now;
    if (status <= CL_COMPLETE) {
        if (!ev->times[2]) ev->times[2] = now;
        ev->times[3] = now;
    }
    for (icd_callback **p = &ev->callbacks; *p;) {
        icd_callback *cb = *p;
        if (status <= cb->type) {
            *p = cb->next;
            cb->next = due;
            due = cb;
        } else {
            p = &cb->next;
        }
    }
    pthread_cond_broadcast(&ev->cond);
    /* the callbacks may release the event: it lives until they return */
    if (due) icd_retain(ev);
    pthread_mutex_unlock(&ev->lock);
    for (icd_callback *cb = due, *next; cb; cb = next) {
        next = cb->next;
        ((event_notify_fn)cb->fn)(ev, status < 0 ? status : cb->type, cb->user_data);
        free(cb);
    }
    if (due) icd_event_release(ev);
}

/* The waiter holds a reference while it waits: another thread may release the event's last
** other reference meanwhile (the queue's worker when the command ends), and its lock and condition
** variable must outlive the wait. */
cl_int icd_event_wait(cl_event ev) {
    icd_retain(ev);
    pthread_mutex_lock(&ev->lock);
    while (ev->status > CL_COMPLETE) pthread_cond_wait(&ev->cond, &ev->lock);
    cl_int status = ev->status;
    pthread_mutex_unlock(&ev->lock);
    icd_event_release(ev);
    return status;
}

cl_int icd_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
    if ((n && !list) || (!n && list)) return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        if (!icd_is(list[i], ICD_EVENT)) return CL_INVALID_EVENT_WAIT_LIST;
        if (ctx && list[i]->context != ctx) return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}

cl_int icd_WaitForEvents(cl_uint num_events, const cl_event *event_list) {
    if (!num_events || !event_list) return CL_INVALID_VALUE;
    cl_int rc = icd_check_wait_list(NULL, num_events, event_list);
    if (rc) return CL_INVALID_EVENT;
    for (cl_uint i = 1; i < num_events; i++)
        if (event_list[i]->context != event_list[0]->context) return CL_INVALID_CONTEXT;
    for (cl_uint i = 0; i < num_events; i++)
        if (icd_event_wait(event_list[i]) < 0) rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return rc;
}

cl_int icd_GetEventInfo(cl_event event, cl_event_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(event, ICD_EVENT)) return CL_INVALID_EVENT;
    switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return ICD_INFO(cl_command_queue, event->queue);
    case CL_EVENT_CONTEXT: return ICD_INFO(cl_context, event->context);
    case CL_EVENT_COMMAND_TYPE: return ICD_INFO(cl_command_type, event->type);
    case CL_EVENT_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&event->obj.refs));
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        pthread_mutex_lock(&event->lock);
        cl_int status = event->status;
        pthread_mutex_unlock(&event->lock);
        return ICD_INFO(cl_int, status);
    }
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(event, ICD_EVENT)) return CL_INVALID_EVENT;
    if (!event->queue || !(event->queue->props & CL_QUEUE_PROFILING_ENABLE)) return CL_PROFILING_INFO_NOT_AVAILABLE;
    pthread_mutex_lock(&event->lock);
    cl_int status = event->status;
    cl_ulong t[4];
    memcpy(t, event->times, sizeof t);
    pthread_mutex_unlock(&event->lock);
    if (status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
    switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: return ICD_INFO(cl_ulong, t[0]);
    case CL_PROFILING_COMMAND_SUBMIT: return ICD_INFO(cl_ulong, t[1]);
    case CL_PROFILING_COMMAND_START: return ICD_INFO(cl_ulong, t[2]);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: return ICD_INFO(cl_ulong, t[3]);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_RetainEvent(cl_event event) { return icd_retain_checked(event, ICD_EVENT, CL_INVALID_EVENT); }

cl_int icd_ReleaseEvent(cl_event event) {
    return icd_is(event, ICD_EVENT) ? (icd_event_release(event), CL_SUCCESS) : CL_INVALID_EVENT;
}

cl_event icd_CreateUserEvent(cl_context context, cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    cl_event ev = icd_event_new(context, NULL, CL_COMMAND_USER, CL_SUBMITTED);
    if (!ev) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return ev;
}

cl_int icd_SetUserEventStatus(cl_event event, cl_int execution_status) {
    if (!icd_is(event, ICD_EVENT) || event->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
    if (execution_status > CL_COMPLETE) return CL_INVALID_VALUE;
    pthread_mutex_lock(&event->lock);
    bool set = event->status <= CL_COMPLETE;
    pthread_mutex_unlock(&event->lock);
    if (set) return CL_INVALID_OPERATION;
    icd_event_set_status(event, execution_status);
    return CL_SUCCESS;
}

cl_int icd_SetEventCallback(cl_event event, cl_int command_exec_callback_type,
                            void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data) {
    if (!icd_is(event, ICD_EVENT)) return CL_INVALID_EVENT;
    if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
                        command_exec_callback_type != CL_COMPLETE))
        return CL_INVALID_VALUE;
    icd_callback *cb = calloc(1, sizeof *cb);
    if (!cb) return CL_OUT_OF_HOST_MEMORY;
    cb->fn = (void(CL_CALLBACK *)(void))pfn_notify;
    cb->user_data = user_data;
    cb->type = command_exec_callback_type;
    pthread_mutex_lock(&event->lock);
    cl_int status = event->status;
    bool now = status <= command_exec_callback_type;
    if (!now) {
        cb->next = event->callbacks;
        event->callbacks = cb;
    }
    pthread_mutex_unlock(&event->lock);
    if (now) {
        pfn_notify(event, status < 0 ? status : command_exec_callback_type, user_data);
        free(cb);
    }
    return CL_SUCCESS;
}
