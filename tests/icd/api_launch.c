/* api_launch.c -- launches through the OpenCL API: NDRanges of 1, 2 and 3 dimensions
** with offsets and explicit or NULL local sizes, non-uniform work-groups (OpenCL C 2.0+ programs
** on a device that has them), an empty range, a work-group reduction in __local memory with
** barriers, printf. */
#include "cltest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each work-item writes what the built-ins tell it into a record of REC ints at its linear index
** (counted from the offset): work_dim, global ids, local ids, group ids, local sizes, numbers of
** groups, (OpenCL C 2.0+) the enqueued local sizes, and __OPENCL_C_VERSION__. */
enum { REC = 20 };
static const char *ids_source = "kernel void ids(global int *out) {\n"
                                "    size_t lin = 0, stride = 1;\n"
                                "    for (uint k = 0; k < get_work_dim(); k++) {\n"
                                "        lin += (get_global_id(k) - get_global_offset(k)) * stride;\n"
                                "        stride *= get_global_size(k);\n"
                                "    }\n"
                                "    global int *o = out + lin * 20;\n"
                                "    o[0] = (int)get_work_dim();\n"
                                "    for (uint k = 0; k < 3; k++) {\n"
                                "        o[1 + k] = (int)get_global_id(k);\n"
                                "        o[4 + k] = (int)get_local_id(k);\n"
                                "        o[7 + k] = (int)get_group_id(k);\n"
                                "        o[10 + k] = (int)get_local_size(k);\n"
                                "        o[13 + k] = (int)get_num_groups(k);\n"
                                "#if __OPENCL_C_VERSION__ >= 200\n"
                                "        o[16 + k] = (int)get_enqueued_local_size(k);\n"
                                "#else\n"
                                "        o[16 + k] = -1;\n"
                                "#endif\n"
                                "    }\n"
                                "    o[19] = __OPENCL_C_VERSION__;\n"
                                "}\n";

typedef struct launch {
    cl_uint dim;
    size_t offset[3], global[3], local[3]; /* local[0] == 0: NULL */
    bool offset_given;
} launch;

/* The record work-item idx (per dimension) must hold, given the local size used in each
** dimension (lsz: explicit, or what a NULL local size made of it). */
static void model_record(const launch *l, const size_t idx[3], const size_t lsz[3], int want[REC]) {
    want[0] = (int)l->dim;
    for (unsigned k = 0; k < 3; k++) {
        size_t g = k < l->dim ? l->global[k] : 1, L = k < l->dim ? lsz[k] : 1, off = k < l->dim ? l->offset[k] : 0;
        size_t group = idx[k] / L, full = g / L, rest = g % L;
        want[1 + k] = (int)(off + idx[k]);
        want[4 + k] = (int)(idx[k] % L);
        want[7 + k] = (int)group;
        want[10 + k] = (int)(group == full && rest ? rest : L);
        want[13 + k] = (int)(full + (rest != 0));
        want[16 + k] = (int)L;
    }
}

/* Runs ids with the launch and compares every record with the model; a NULL local size is
** read back from the first work-item's record (and must divide the global size).  A program
** built without -cl-std is OpenCL C 1.x ("the highest OpenCL C 1.x language version supported"),
** one built with -cl-std=CL2.0 or newer is not (cl2: the build's option). */
static void run_ids(cltest *t, cl_kernel k, const launch *l, bool cl2, const char *what) {
    size_t items = 1;
    for (cl_uint d = 0; d < l->dim; d++) items *= l->global[d];
    int *out = malloc(items * REC * sizeof(int));
    cl_mem m = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, items * REC * sizeof(int), NULL, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    cl_int err = clEnqueueNDRangeKernel(t->queue, k, l->dim, l->offset_given ? l->offset : NULL, l->global,
                                        l->local[0] ? l->local : NULL, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "%s: clEnqueueNDRangeKernel: %s", what, cltest_err_name(err));
    CHECK_OK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, items * REC * sizeof(int), out, 0, NULL, NULL));
    size_t lsz[3] = {1, 1, 1};
    for (cl_uint d = 0; d < l->dim; d++) lsz[d] = l->local[0] ? l->local[d] : (size_t)out[10 + d];
    if (!l->local[0])
        for (cl_uint d = 0; d < l->dim; d++)
            CHECK(lsz[d] >= 1 && l->global[d] % lsz[d] == 0, "%s: a NULL local size made %zu of %zu in dimension %u",
                  what, lsz[d], l->global[d], d);
    size_t bad = items, field = 0;
    int want[REC] = {0};
    for (size_t i = 0; i < items && bad == items && err == CL_SUCCESS; i++) {
        size_t idx[3] = {i % l->global[0], l->dim > 1 ? i / l->global[0] % l->global[1] : 0,
                         l->dim > 2 ? i / (l->global[0] * l->global[1]) : 0};
        model_record(l, idx, lsz, want);
        size_t fields = out[i * REC + 19] >= 200 ? 19 : 16; /* get_enqueued_local_size: OpenCL C 2.0+ */
        for (field = 0; field < fields && bad == items; field++)
            if (out[i * REC + field] != want[field]) bad = i;
    }
    CHECK(bad == items, "%s: work-item %zu, field %zu is %d, expected %d", what, bad, field - 1,
          bad < items ? out[bad * REC + field - 1] : 0, bad < items ? want[field - 1] : 0);
    if (err == CL_SUCCESS && cl2)
        CHECK(out[19] >= 200, "%s: __OPENCL_C_VERSION__ %d with -cl-std=%s", what, out[19], t->cl_std);
    if (err == CL_SUCCESS && !cl2)
        CHECK_POCL("pocl 3.1 compiles OpenCL C 3.0 by default", out[19] < 200,
                   "%s: __OPENCL_C_VERSION__ %d without -cl-std (the highest 1.x is the default)", what, out[19]);
    clReleaseMemObject(m);
    free(out);
}

/* A global size not divisible by the local size: run (and checked) when both the device and the
** program allow non-uniform work-groups, CL_INVALID_WORK_GROUP_SIZE otherwise. */
static void non_uniform(cltest *t, cl_kernel k12) {
    launch l = {2, {2, 0, 0}, {10, 7, 0}, {4, 3, 0}, true};
    size_t global[2] = {10, 7}, local[2] = {4, 3};
    CHECK_ERR(clEnqueueNDRangeKernel(t->queue, k12, 2, NULL, global, local, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE); /* an OpenCL C 1.2 program requires uniform groups */
    if (!t->cl_std[0]) return;
    char options[64];
    snprintf(options, sizeof options, "-cl-std=%s", t->cl_std);
    cl_program prog = cltest_build(t, ids_source, options);
    cl_kernel k = cltest_kernel(prog, "ids");
    if (k && t->non_uniform) {
        run_ids(t, k, &l, true, "non-uniform 10x7 in groups of 4x3");
        launch one = {1, {0}, {1000}, {64}, false};
        run_ids(t, k, &one, true, "non-uniform 1000 in groups of 64");
    } else if (k) {
        CHECK_ERR(clEnqueueNDRangeKernel(t->queue, k, 2, NULL, global, local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE); /* the device has no non-uniform work-groups */
    }
    if (k) clReleaseKernel(k);
    if (prog) clReleaseProgram(prog);
    snprintf(options, sizeof options, "-cl-std=%s -cl-uniform-work-group-size", t->cl_std);
    prog = cltest_build(t, ids_source, options);
    k = cltest_kernel(prog, "ids");
    if (k) {
        cl_mem m = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, 70 * REC * sizeof(int), NULL, NULL);
        CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
        CHECK_ERR(clEnqueueNDRangeKernel(t->queue, k, 2, NULL, global, local, 0, NULL, NULL),
                  CL_INVALID_WORK_GROUP_SIZE);
        clReleaseMemObject(m);
        clReleaseKernel(k);
    }
    if (prog) clReleaseProgram(prog);
}

/* A global size of 0 (or NULL): on an OpenCL 2.1+ device the command "trivially succeeds" and
** completes its event; before 2.1 it is CL_INVALID_GLOBAL_WORK_SIZE. */
static void empty_range(cltest *t, cl_kernel k) {
    size_t zero[2] = {0, 4};
    cl_event e = NULL;
    cl_int err = clEnqueueNDRangeKernel(t->queue, k, 2, NULL, zero, NULL, 0, NULL, &e);
    cl_int err_null = clEnqueueNDRangeKernel(t->queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL);
    if (t->version >= 21) {
        CHECK(err == CL_SUCCESS && err_null == CL_SUCCESS, "global size 0 / NULL on OpenCL 2.1+: %s / %s",
              cltest_err_name(err), cltest_err_name(err_null));
        cl_int status = 1;
        if (e) CHECK_OK(clWaitForEvents(1, &e));
        if (e) clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        CHECK(e && status == CL_COMPLETE, "the event of an empty range: status %d", status);
    } else {
        CHECK(err == CL_INVALID_GLOBAL_WORK_SIZE && err_null == CL_INVALID_GLOBAL_WORK_SIZE,
              "global size 0 / NULL before OpenCL 2.1: %s / %s", cltest_err_name(err), cltest_err_name(err_null));
    }
    if (e) clReleaseEvent(e);
}

static void ranges(cltest *t) {
    cl_program prog = cltest_build(t, ids_source, NULL);
    cl_kernel k = cltest_kernel(prog, "ids");
    if (!k) goto done;
    static const launch launches[] = {
        {1, {5}, {96}, {32}, true},
        {2, {3, 100}, {12, 10}, {4, 5}, true},
        {3, {1, 2, 3}, {6, 4, 4}, {3, 2, 2}, true},
        {3, {0, 0, 0}, {6, 4, 4}, {3, 2, 2}, false},
        {1, {0}, {100}, {0}, false},
        {3, {7, 0, 1}, {5, 6, 7}, {0}, true},
    };
    static const char *names[] = {"1D 96 in 32s at offset 5",
                                  "2D 12x10 in 4x5 at offset (3, 100)",
                                  "3D 6x4x4 in 3x2x2 at (1, 2, 3)",
                                  "3D 6x4x4 in 3x2x2, offset NULL",
                                  "1D 100, local NULL",
                                  "3D 5x6x7 at (7, 0, 1), local NULL"};
    for (size_t i = 0; i < CLTEST_COUNT(launches); i++) run_ids(t, k, &launches[i], false, names[i]);
    /* run_ids released its buffer: the refused launches get a live one */
    cl_mem spare = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, 128 * REC * sizeof(int), NULL, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof spare, &spare));
    non_uniform(t, k);
    empty_range(t, k);
    clReleaseMemObject(spare);
    clReleaseKernel(k);
done:
    if (prog) clReleaseProgram(prog);
}

/* A sum per work-group in __local memory (a __local argument and a __local array), with barriers. */
static const char *reduce_source =
    "kernel void reduce(global const int *in, global int *out, local int *tmp) {\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) tmp[l] += tmp[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    "kernel void reduce64(global const int *in, global int *out) {\n"
    "    local int tmp[64];\n"
    "    size_t l = get_local_id(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) { int s = 0; for (int i = 0; i < 64; i++) s += tmp[i] * (i + 1); out[get_group_id(0)] = s; }\n"
    "}\n";

static void reduction(cltest *t) {
    cl_program prog = cltest_build(t, reduce_source, NULL);
    cl_kernel k = cltest_kernel(prog, "reduce"), k64 = cltest_kernel(prog, "reduce64");
    if (!k || !k64) goto done;
    size_t wg = 0;
    clGetKernelWorkGroupInfo(k, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    size_t local = 1;
    while (local * 2 <= wg && local < 256) local *= 2;
    enum { GROUPS = 40 };
    size_t n = GROUPS * local, global = n;
    int *in = malloc(n * sizeof(int)), out[GROUPS];
    for (size_t i = 0; i < n; i++) in[i] = (int)(i * 37 % 1001) - 500;
    cl_mem a = clCreateBuffer(t->ctx, CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, NULL);
    cl_mem b = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, sizeof out, NULL, NULL);
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    CHECK_OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(t->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (size_t g = 0; g < GROUPS; g++) {
        int sum = 0;
        for (size_t i = 0; i < local; i++) sum += in[g * local + i];
        if (out[g] == sum) continue;
        CHECK(false, "reduce in groups of %zu: group %zu sums %d, expected %d", local, g, out[g], sum);
        break;
    }
    size_t wg64 = 0, local64 = 64, global64 = 64 * (n / 64 < GROUPS ? n / 64 : GROUPS);
    clGetKernelWorkGroupInfo(k64, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg64, &wg64, NULL);
    if (wg64 >= 64) {
        clSetKernelArg(k64, 0, sizeof a, &a);
        clSetKernelArg(k64, 1, sizeof b, &b);
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, k64, 1, NULL, &global64, &local64, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(t->queue, b, CL_TRUE, 0, sizeof(int) * (global64 / 64), out, 0, NULL, NULL));
        for (size_t g = 0; g < global64 / 64; g++) {
            int sum = 0;
            for (int i = 0; i < 64; i++) sum += in[g * 64 + (size_t)i] * (i + 1);
            if (out[g] == sum) continue;
            CHECK(false, "reduce64 (a __local array): group %zu sums %d, expected %d", g, out[g], sum);
            break;
        }
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
done:
    for (int i = 0; i < 2; i++)
        if ((i ? k64 : k) != NULL) clReleaseKernel(i ? k64 : k);
    if (prog) clReleaseProgram(prog);
}

/* printf in a kernel: the launch and its completion succeed (the output goes to stdout). */
static void kernel_printf(cltest *t) {
    cl_program prog = cltest_build(
        t,
        "kernel void hello(int n) {\n"
        "    printf(\"printf from work-item %d of %d: %s %.2f %#x\\n\", (int)get_global_id(0), n, \"ok\", 1.5f, 255);\n"
        "}\n",
        NULL);
    cl_kernel k = cltest_kernel(prog, "hello");
    if (k) {
        int n = 2;
        size_t global = 2;
        fflush(stdout);
        CHECK_OK(clSetKernelArg(k, 0, sizeof n, &n));
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clFinish(t->queue));
        clReleaseKernel(k);
    }
    if (prog) clReleaseProgram(prog);
}

void test_ndrange(cltest *t) {
    ranges(t);
    reduction(t);
    kernel_printf(t);
}
