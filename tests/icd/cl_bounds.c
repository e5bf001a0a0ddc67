/* cl_bounds.c -- a host whose kernels go wrong or not, for `visa cl --check` to tell
** (tests/icd/cl_report.sh).  It exits 0 whenever the API calls succeed (and, for chain, the copy
** holds what fill wrote): whether a kernel went wrong is for the checks to say.
**   oob, clean   bounds_write writes 16 ints from an offset: 4 ints past its 16-int buffer, or
**                within it (--check=memcheck: C-MEMCHECK-OOB naming bounds_write, or nothing)
**   chain        fill writes a buffer the host never wrote, copy then reads it; fill is held back by
**                a user event until both are in the queue (as a scan's kernels are enqueued back
**                to back), so copy was enqueued before fill ran (--check=initcheck: nothing)
**   unwritten    copy reads that buffer with nothing writing it (--check=initcheck: C-INITCHECK
**                naming copy) */
#include <stdio.h>
#include <string.h>

#include "cltest.h"

enum { N = 16 };

static const char source[] =
    "kernel void bounds_write(global int *out, int offset) {\n"
    "    out[get_global_id(0) + offset] = (int)get_global_id(0);\n"
    "}\n"
    "kernel void fill(global int *buf) { buf[get_global_id(0)] = 3 * (int)get_global_id(0); }\n"
    "kernel void copy(global const int *src, global int *dst) {\n"
    "    dst[get_global_id(0)] = src[get_global_id(0)];\n"
    "}\n";

static void run_bounds(cltest *t, cl_program prog, int offset) {
    cl_kernel k = cltest_kernel(prog, "bounds_write");
    cl_int err;
    cl_mem out = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CHECK_OK(err);
    if (k && out) {
        size_t global = N;
        CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
        CHECK_OK(clSetKernelArg(k, 1, sizeof offset, &offset));
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clFinish(t->queue));
    }
    if (out) clReleaseMemObject(out);
    if (k) clReleaseKernel(k);
}

static void run_copy(cltest *t, cl_program prog, bool chain) {
    cl_kernel fill = cltest_kernel(prog, "fill"), copy = cltest_kernel(prog, "copy");
    cl_int err, err2, err3;
    cl_mem buf = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    cl_mem out = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err2);
    cl_event hold = clCreateUserEvent(t->ctx, &err3);
    CHECK_OK(err), CHECK_OK(err2), CHECK_OK(err3);
    if (fill && copy && buf && out && hold) {
        size_t global = N;
        CHECK_OK(clSetKernelArg(fill, 0, sizeof buf, &buf));
        CHECK_OK(clSetKernelArg(copy, 0, sizeof buf, &buf));
        CHECK_OK(clSetKernelArg(copy, 1, sizeof out, &out));
        if (chain) CHECK_OK(clEnqueueNDRangeKernel(t->queue, fill, 1, NULL, &global, NULL, 1, &hold, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, copy, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clSetUserEventStatus(hold, CL_COMPLETE));
        int got[N];
        CHECK_OK(clEnqueueReadBuffer(t->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        for (int i = 0; chain && i < N; i++) CHECK(got[i] == 3 * i, "copy[%d] = %d, fill wrote %d", i, got[i], 3 * i);
    }
    if (hold) clReleaseEvent(hold);
    if (out) clReleaseMemObject(out);
    if (buf) clReleaseMemObject(buf);
    if (copy) clReleaseKernel(copy);
    if (fill) clReleaseKernel(fill);
}

int main(int argc, char **argv) {
    static const char *const modes[] = {"oob", "clean", "chain", "unwritten"};
    int mode = -1;
    for (int i = 0; argc >= 2 && i < 4; i++)
        if (!strcmp(argv[1], modes[i])) mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: cl_bounds oob|clean|chain|unwritten\n");
        return 2;
    }
    cltest t;
    if (cltest_open_first(&t, argv[0])) {
        cl_program prog = cltest_build(&t, source, NULL);
        if (prog && mode < 2) run_bounds(&t, prog, mode == 0 ? 4 : 0);
        else if (prog) run_copy(&t, prog, mode == 2);
        if (prog) clReleaseProgram(prog);
    }
    cltest_close(&t);
    return cltest_report();
}
