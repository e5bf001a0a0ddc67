/* api_events.c -- events through the OpenCL API: their info, wait lists within and across
** queues, callbacks, user events holding commands back (and failing them), profiling times,
** markers and barriers with wait lists, an out-of-order queue, clFlush / clFinish. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "cltest.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL); }

static cl_int event_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetEventInfo((cl_event)obj, param, size, value, ret);
}
static cl_int profiling_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetEventProfilingInfo((cl_event)obj, param, size, value, ret);
}

static const cltest_info_param event_params[] = {
    CLTEST_FIXED_P(CL_EVENT_COMMAND_QUEUE, cl_command_queue), CLTEST_FIXED_P(CL_EVENT_CONTEXT, cl_context),
    CLTEST_FIXED_P(CL_EVENT_COMMAND_TYPE, cl_command_type),   CLTEST_FIXED_P(CL_EVENT_COMMAND_EXECUTION_STATUS, cl_int),
    CLTEST_FIXED_P(CL_EVENT_REFERENCE_COUNT, cl_uint),
};

static const cltest_info_param profiling_params[] = {
    CLTEST_FIXED_P(CL_PROFILING_COMMAND_QUEUED, cl_ulong),   CLTEST_FIXED_P(CL_PROFILING_COMMAND_SUBMIT, cl_ulong),
    CLTEST_FIXED_P(CL_PROFILING_COMMAND_START, cl_ulong),    CLTEST_FIXED_P(CL_PROFILING_COMMAND_END, cl_ulong),
    CLTEST_FIXED_P(CL_PROFILING_COMMAND_COMPLETE, cl_ulong),
};

static cl_int status_of(cl_event e) {
    cl_int status = 99;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return status;
}

static cl_command_type type_of(cl_event e) {
    cl_command_type type = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    return type;
}

/* out[i] = in[i] * 3 + 1: the kernel the events order. */
static const char *advance_source = "kernel void advance(global const int *in, global int *out) {\n"
                                    "    size_t i = get_global_id(0); out[i] = in[i] * 3 + 1; }\n";

typedef struct events_env {
    cltest *t;
    cl_program prog;
    cl_kernel step;
    cl_mem a, b;
} events_env;

enum { EV_N = 1024 };

static void expect_step(events_env *e, cl_command_queue q, const int *in, const char *what) {
    int out[EV_N];
    CHECK_OK(clEnqueueReadBuffer(q, e->b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = -1;
    for (int i = 0; i < EV_N && bad < 0; i++)
        if (out[i] != in[i] * 3 + 1) bad = i;
    CHECK(bad < 0, "%s: out[%d] = %d, expected %d", what, bad, bad >= 0 ? out[bad] : 0, bad >= 0 ? in[bad] * 3 + 1 : 0);
}

static void fill_input(int *in, int seed) {
    for (int i = 0; i < EV_N; i++) in[i] = i * seed - 17;
}

/* A write, a kernel and a read chained by events; info and command types of each. */
static void event_chain(events_env *e) {
    cltest *t = e->t;
    int in[EV_N];
    fill_input(in, 2);
    size_t global = EV_N;
    cl_event w, k, r;
    int out[EV_N];
    CHECK_OK(clEnqueueWriteBuffer(t->queue, e->a, CL_FALSE, 0, sizeof in, in, 0, NULL, &w));
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, e->step, 1, NULL, &global, NULL, 1, &w, &k));
    CHECK_OK(clEnqueueReadBuffer(t->queue, e->b, CL_FALSE, 0, sizeof out, out, 1, &k, &r));
    CHECK_OK(clFlush(t->queue));
    cl_event all[] = {w, k, r};
    CHECK_OK(clWaitForEvents(3, all));
    int bad = -1;
    for (int i = 0; i < EV_N && bad < 0; i++)
        if (out[i] != in[i] * 3 + 1) bad = i;
    CHECK(bad < 0, "write -> kernel -> read by events: out[%d] = %d", bad, bad >= 0 ? out[bad] : 0);
    CHECK(status_of(w) == CL_COMPLETE && status_of(k) == CL_COMPLETE && status_of(r) == CL_COMPLETE,
          "statuses after clWaitForEvents: %d %d %d", status_of(w), status_of(k), status_of(r));
    CHECK(type_of(w) == CL_COMMAND_WRITE_BUFFER && type_of(k) == CL_COMMAND_NDRANGE_KERNEL &&
              type_of(r) == CL_COMMAND_READ_BUFFER,
          "command types 0x%x 0x%x 0x%x", type_of(w), type_of(k), type_of(r));
    cltest_info_protocol("clGetEventInfo", event_info, k, event_params, CLTEST_COUNT(event_params));
    cl_command_queue q = NULL;
    cl_context ctx = NULL;
    clGetEventInfo(k, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL);
    clGetEventInfo(k, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL);
    CHECK(q == t->queue && ctx == t->ctx, "event info: queue %p, context %p", (void *)q, (void *)ctx);
    cl_uint refs = cltest_refs(event_info, k, CL_EVENT_REFERENCE_COUNT);
    CHECK_OK(clRetainEvent(k));
    CHECK(cltest_refs(event_info, k, CL_EVENT_REFERENCE_COUNT) == refs + 1, "clRetainEvent: not one more than %u",
          refs);
    CHECK_OK(clReleaseEvent(k));
    /* the other commands' types */
    cl_event c, f, m, u;
    int zero = 0;
    CHECK_OK(clEnqueueCopyBuffer(t->queue, e->a, e->b, 0, 0, 64, 0, NULL, &c));
    CHECK_OK(clEnqueueFillBuffer(t->queue, e->b, &zero, sizeof zero, 0, 64, 0, NULL, &f));
    cl_int err;
    void *p = clEnqueueMapBuffer(t->queue, e->a, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, &m, &err);
    if (p) CHECK_OK(clEnqueueUnmapMemObject(t->queue, e->a, p, 0, NULL, &u));
    CHECK_OK(clFinish(t->queue));
    CHECK(type_of(c) == CL_COMMAND_COPY_BUFFER && type_of(f) == CL_COMMAND_FILL_BUFFER &&
              type_of(m) == CL_COMMAND_MAP_BUFFER && (!p || type_of(u) == CL_COMMAND_UNMAP_MEM_OBJECT),
          "command types of copy, fill, map, unmap: 0x%x 0x%x 0x%x", type_of(c), type_of(f), type_of(m));
    cl_event more[] = {w, k, r, c, f, m};
    for (size_t i = 0; i < CLTEST_COUNT(more); i++) clReleaseEvent(more[i]);
    if (p) clReleaseEvent(u);
}

typedef struct callback_log {
    atomic_int calls[3]; /* by registered status: CL_COMPLETE (0), CL_RUNNING (1), CL_SUBMITTED (2) */
    atomic_int wrong_status; /* calls whose event_command_status differs from the registered type */
    atomic_int wrong_event;
    cl_event event;
} callback_log;

static void CL_CALLBACK on_status(cl_event ev, cl_int status, void *user_data, cl_int registered) {
    callback_log *log = user_data;
    if (ev != log->event) atomic_fetch_add(&log->wrong_event, 1);
    if (status != registered) atomic_fetch_add(&log->wrong_status, 1);
    atomic_fetch_add(&log->calls[registered], 1);
}
static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *user_data) {
    on_status(ev, status, user_data, CL_COMPLETE);
}
static void CL_CALLBACK on_running(cl_event ev, cl_int status, void *user_data) {
    on_status(ev, status, user_data, CL_RUNNING);
}
static void CL_CALLBACK on_submitted(cl_event ev, cl_int status, void *user_data) {
    on_status(ev, status, user_data, CL_SUBMITTED);
}

static bool wait_calls(callback_log *log, int complete, int running, int submitted) {
    for (int i = 0; i < 2000; i++) {
        if (atomic_load(&log->calls[CL_COMPLETE]) >= complete && atomic_load(&log->calls[CL_RUNNING]) >= running &&
            atomic_load(&log->calls[CL_SUBMITTED]) >= submitted)
            return true;
        sleep_ms(1);
    }
    return false;
}

/* A user event holds a write and a kernel back: they stay incomplete (and a read on another
** queue still sees the old contents) until clSetUserEventStatus; callbacks registered before
** are called with their own status, one registered after completion is called too. */
static void user_events(events_env *e) {
    cltest *t = e->t;
    cl_int err;
    cl_event user = clCreateUserEvent(t->ctx, &err);
    CHECK(user && err == CL_SUCCESS, "clCreateUserEvent: %s", cltest_err_name(err));
    if (!user) return;
    CHECK(status_of(user) == CL_SUBMITTED && type_of(user) == CL_COMMAND_USER, "a new user event: status %d, type 0x%x",
          status_of(user), type_of(user));
    cl_command_queue other = clCreateCommandQueueWithProperties(t->ctx, t->device, NULL, &err);
    int old[EV_N], in[EV_N], seen[EV_N];
    fill_input(old, 5);
    fill_input(in, 7);
    CHECK_OK(clEnqueueWriteBuffer(t->queue, e->a, CL_TRUE, 0, sizeof old, old, 0, NULL, NULL));
    cl_event w, k;
    size_t global = EV_N;
    CHECK_OK(clEnqueueWriteBuffer(t->queue, e->a, CL_FALSE, 0, sizeof in, in, 1, &user, &w));
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, e->step, 1, NULL, &global, NULL, 0, NULL, &k));
    callback_log log = {.event = k};
    CHECK_OK(clSetEventCallback(k, CL_COMPLETE, on_complete, &log));
    CHECK_OK(clSetEventCallback(k, CL_RUNNING, on_running, &log));
    CHECK_OK(clSetEventCallback(k, CL_SUBMITTED, on_submitted, &log));
    CHECK_OK(clFlush(t->queue));
    sleep_ms(50);
    CHECK(status_of(w) > CL_COMPLETE && status_of(k) > CL_COMPLETE, "held by a user event: statuses %d, %d",
          status_of(w), status_of(k));
    CHECK(atomic_load(&log.calls[CL_COMPLETE]) == 0, "CL_COMPLETE callback of a held command");
    if (other) {
        CHECK_OK(clEnqueueReadBuffer(other, e->a, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL));
        CHECK(memcmp(seen, old, sizeof old) == 0, "a read on another queue while the write is held");
        clReleaseCommandQueue(other);
    }
    CHECK_OK(clSetUserEventStatus(user, CL_COMPLETE));
    CHECK_ERR(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    CHECK_OK(clFinish(t->queue));
    expect_step(e, t->queue, in, "the kernel after the user event completed");
    CHECK(wait_calls(&log, 1, 1, 1), "callbacks: %d complete, %d running, %d submitted",
          atomic_load(&log.calls[CL_COMPLETE]), atomic_load(&log.calls[CL_RUNNING]),
          atomic_load(&log.calls[CL_SUBMITTED]));
    CHECK_OK(clSetEventCallback(k, CL_COMPLETE, on_complete, &log)); /* on a complete event */
    CHECK(wait_calls(&log, 2, 1, 1), "a callback registered on a complete event was not called");
    CHECK(!atomic_load(&log.wrong_status) && !atomic_load(&log.wrong_event),
          "callbacks: %d with a status other than registered, %d with another event", atomic_load(&log.wrong_status),
          atomic_load(&log.wrong_event));
    CHECK(status_of(user) == CL_COMPLETE, "the user event's status %d", status_of(user));
    clReleaseEvent(w);
    clReleaseEvent(k);
    clReleaseEvent(user);
}

/* A user event set to an error: clWaitForEvents on it answers
** CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and a marker waiting for it is terminated with a
** negative status.  In a context of its own: a terminated command may take its queues with it. */
static void failed_user_event(cltest *t) {
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    cl_command_queue q = ctx ? clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err) : NULL;
    cl_event user = ctx ? clCreateUserEvent(ctx, &err) : NULL;
    cl_event marker = NULL;
    if (q && user) CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &user, &marker));
    if (user) CHECK_OK(clSetUserEventStatus(user, -12345));
    if (user) CHECK_ERR(clWaitForEvents(1, &user), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    if (user) CHECK(status_of(user) == -12345, "a user event set to -12345 has status %d", status_of(user));
    if (marker) {
        CHECK_ERR(clWaitForEvents(1, &marker), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK(status_of(marker) < 0, "a marker waiting for a failed user event: status %d", status_of(marker));
        clReleaseEvent(marker);
    }
    if (user) clReleaseEvent(user);
    if (q) clReleaseCommandQueue(q);
    if (ctx) clReleaseContext(ctx);
}

/* Profiling times of a kernel, ordered; none for a queue without profiling or a user event. */
static void profiling(events_env *e) {
    cltest *t = e->t;
    size_t global = EV_N;
    cl_event k;
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, e->step, 1, NULL, &global, NULL, 0, NULL, &k));
    CHECK_OK(clWaitForEvents(1, &k));
    cltest_info_protocol("clGetEventProfilingInfo", profiling_info, k, profiling_params,
                         CLTEST_COUNT(profiling_params));
    cl_ulong times[5] = {0};
    static const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                               CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                               CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; i++) CHECK_OK(clGetEventProfilingInfo(k, names[i], sizeof times[i], &times[i], NULL));
    CHECK(times[0] <= times[1] && times[1] <= times[2] && times[2] <= times[3] && times[3] <= times[4] && times[0],
          "profiling: queued %llu, submit %llu, start %llu, end %llu, complete %llu", (unsigned long long)times[0],
          (unsigned long long)times[1], (unsigned long long)times[2], (unsigned long long)times[3],
          (unsigned long long)times[4]);
    clReleaseEvent(k);
    cl_int err;
    cl_command_queue plain = clCreateCommandQueueWithProperties(t->ctx, t->device, NULL, &err);
    cl_ulong when = 0;
    if (plain) {
        CHECK_OK(clEnqueueNDRangeKernel(plain, e->step, 1, NULL, &global, NULL, 0, NULL, &k));
        CHECK_OK(clWaitForEvents(1, &k));
        CHECK_ERR(clGetEventProfilingInfo(k, CL_PROFILING_COMMAND_END, sizeof when, &when, NULL),
                  CL_PROFILING_INFO_NOT_AVAILABLE);
        clReleaseEvent(k);
        clReleaseCommandQueue(plain);
    }
    cl_event user = clCreateUserEvent(t->ctx, &err);
    if (user) {
        CHECK_ERR(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_END, sizeof when, &when, NULL),
                  CL_PROFILING_INFO_NOT_AVAILABLE);
        clSetUserEventStatus(user, CL_COMPLETE);
        clReleaseEvent(user);
    }
}

/* Markers and barriers, with and without wait lists, on the queue and across queues. */
static void markers_barriers(events_env *e) {
    cltest *t = e->t;
    int in[EV_N];
    fill_input(in, 11);
    cl_event w, marker, user, held, barrier;
    cl_int err;
    CHECK_OK(clEnqueueWriteBuffer(t->queue, e->a, CL_FALSE, 0, sizeof in, in, 0, NULL, &w));
    CHECK_OK(clEnqueueMarkerWithWaitList(t->queue, 0, NULL, &marker));
    CHECK_OK(clWaitForEvents(1, &marker)); /* a marker without a wait list waits for all before it */
    CHECK(status_of(w) == CL_COMPLETE && type_of(marker) == CL_COMMAND_MARKER,
          "after a marker: the write's status %d, the marker's type 0x%x", status_of(w), type_of(marker));
    clReleaseEvent(w);
    clReleaseEvent(marker);
    user = clCreateUserEvent(t->ctx, &err);
    cl_command_queue other = clCreateCommandQueueWithProperties(t->ctx, t->device, NULL, &err);
    if (!user || !other) goto done;
    CHECK_OK(clEnqueueMarkerWithWaitList(t->queue, 1, &user, &held));
    /* on the other queue: a barrier waiting for the held marker, then the kernel */
    CHECK_OK(clEnqueueBarrierWithWaitList(other, 1, &held, &barrier));
    size_t global = EV_N;
    cl_event k;
    CHECK_OK(clEnqueueNDRangeKernel(other, e->step, 1, NULL, &global, NULL, 0, NULL, &k));
    CHECK_OK(clFlush(other));
    CHECK_OK(clFlush(t->queue));
    sleep_ms(30);
    CHECK(status_of(held) > CL_COMPLETE && status_of(barrier) > CL_COMPLETE && status_of(k) > CL_COMPLETE,
          "held by a user event: marker %d, barrier on another queue %d, kernel after it %d", status_of(held),
          status_of(barrier), status_of(k));
    CHECK_OK(clSetUserEventStatus(user, CL_COMPLETE));
    CHECK_OK(clFinish(other));
    CHECK(status_of(held) == CL_COMPLETE && type_of(barrier) == CL_COMMAND_BARRIER && status_of(k) == CL_COMPLETE,
          "released: marker %d, barrier type 0x%x, kernel %d", status_of(held), type_of(barrier), status_of(k));
    expect_step(e, other, in, "a kernel behind a barrier on another queue");
    CHECK_OK(clEnqueueBarrierWithWaitList(t->queue, 0, NULL, NULL));
    CHECK_OK(clFinish(t->queue));
    clReleaseEvent(held);
    clReleaseEvent(barrier);
    clReleaseEvent(k);
done:
    if (user) clReleaseEvent(user);
    if (other) clReleaseCommandQueue(other);
}

/* An out-of-order queue (when the device reports one): commands ordered by wait lists and a
** barrier only. */
static void out_of_order(events_env *e) {
    cltest *t = e->t;
    cl_command_queue_properties supported = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported, &supported, NULL);
    if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) return;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(t->ctx, t->device, props, &err);
    if (!q) return;
    int in[EV_N], out[EV_N];
    fill_input(in, 13);
    cl_event w, k, r;
    size_t global = EV_N;
    CHECK_OK(clEnqueueWriteBuffer(q, e->a, CL_FALSE, 0, sizeof in, in, 0, NULL, &w));
    CHECK_OK(clEnqueueNDRangeKernel(q, e->step, 1, NULL, &global, NULL, 1, &w, &k));
    CHECK_OK(clEnqueueReadBuffer(q, e->b, CL_FALSE, 0, sizeof out, out, 1, &k, &r));
    CHECK_OK(clWaitForEvents(1, &r));
    int bad = -1;
    for (int i = 0; i < EV_N && bad < 0; i++)
        if (out[i] != in[i] * 3 + 1) bad = i;
    CHECK(bad < 0, "an out-of-order queue ordered by events: out[%d] = %d", bad, bad >= 0 ? out[bad] : 0);
    fill_input(in, 17);
    CHECK_OK(clEnqueueWriteBuffer(q, e->a, CL_FALSE, 0, sizeof in, in, 0, NULL, NULL));
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    CHECK_OK(clEnqueueNDRangeKernel(q, e->step, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    expect_step(e, q, in, "an out-of-order queue ordered by barriers");
    CHECK_OK(clFinish(q));
    clReleaseEvent(w);
    clReleaseEvent(k);
    clReleaseEvent(r);
    clReleaseCommandQueue(q);
}

void test_events(cltest *t) {
    events_env e = {t, cltest_build(t, advance_source, NULL), NULL, NULL, NULL};
    e.step = cltest_kernel(e.prog, "advance");
    if (e.step) {
        e.a = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, EV_N * sizeof(int), NULL, NULL);
        e.b = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, EV_N * sizeof(int), NULL, NULL);
        CHECK_OK(clSetKernelArg(e.step, 0, sizeof e.a, &e.a));
        CHECK_OK(clSetKernelArg(e.step, 1, sizeof e.b, &e.b));
        event_chain(&e);
        user_events(&e);
        profiling(&e);
        markers_barriers(&e);
        out_of_order(&e);
        clReleaseMemObject(e.a);
        clReleaseMemObject(e.b);
        clReleaseKernel(e.step);
    }
    failed_user_event(t);
    if (e.prog) clReleaseProgram(e.prog);
}
