/* cl_initcheck.c -- a host whose kernel `copy` copies 16 ints from a buffer the host never wrote:
** `cl_initcheck chain` first lets the kernel `fill` write that buffer, enqueued just before the
** copy but held back by a user event until both are in the queue (as a scan's three kernels are
** enqueued back to back), so the copy reads what fill wrote; `cl_initcheck unwritten` copies
** without filling, reading undefined bytes.  It exits 0 whenever the API calls succeed and the
** copy holds what it must: whether bytes were undefined is for `visa cl --check=initcheck` to say
** (tests/icd/cl_report.sh: no finding after chain, C-INITCHECK naming copy after unwritten). */
#include <stdio.h>
#include <string.h>

#include "cltest.h"

static const char source[] =
    "kernel void fill(global int *buf) { buf[get_global_id(0)] = 3 * (int)get_global_id(0); }\n"
    "kernel void copy(global const int *src, global int *dst) {\n"
    "    dst[get_global_id(0)] = src[get_global_id(0)];\n"
    "}\n";

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "chain") && strcmp(argv[1], "unwritten"))) {
        fprintf(stderr, "usage: cl_initcheck chain|unwritten\n");
        return 2;
    }
    enum { N = 16 };
    bool chain = !strcmp(argv[1], "chain"), is_visa = false;
    char *platform_args[] = {argv[0], NULL};
    cl_platform_id platform = cltest_platform(1, platform_args, &is_visa);
    cl_device_id device;
    CHECK_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cltest t;
    if (cltest_open(&t, platform, device, is_visa)) {
        cl_program prog = cltest_build(&t, source, NULL);
        cl_kernel fill = cltest_kernel(prog, "fill"), copy = cltest_kernel(prog, "copy");
        cl_int err, err2, err3;
        cl_mem buf = clCreateBuffer(t.ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
        cl_mem out = clCreateBuffer(t.ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err2);
        cl_event hold = clCreateUserEvent(t.ctx, &err3);
        CHECK_OK(err), CHECK_OK(err2), CHECK_OK(err3);
        if (fill && copy && buf && out && hold) {
            size_t global = N;
            CHECK_OK(clSetKernelArg(fill, 0, sizeof buf, &buf));
            CHECK_OK(clSetKernelArg(copy, 0, sizeof buf, &buf));
            CHECK_OK(clSetKernelArg(copy, 1, sizeof out, &out));
            if (chain) CHECK_OK(clEnqueueNDRangeKernel(t.queue, fill, 1, NULL, &global, NULL, 1, &hold, NULL));
            CHECK_OK(clEnqueueNDRangeKernel(t.queue, copy, 1, NULL, &global, NULL, 0, NULL, NULL));
            CHECK_OK(clSetUserEventStatus(hold, CL_COMPLETE));
            int got[N];
            CHECK_OK(clEnqueueReadBuffer(t.queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
            for (int i = 0; chain && i < N; i++)
                CHECK(got[i] == 3 * i, "copy[%d] = %d, fill wrote %d", i, got[i], 3 * i);
        }
        if (hold) clReleaseEvent(hold);
        if (out) clReleaseMemObject(out);
        if (buf) clReleaseMemObject(buf);
        if (copy) clReleaseKernel(copy);
        if (fill) clReleaseKernel(fill);
        if (prog) clReleaseProgram(prog);
    }
    cltest_close(&t);
    return cltest_report();
}
