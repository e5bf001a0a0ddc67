/* cl_profile.c -- a host for `visa cl --profile` and `--trace` (tests/icd/cl_observe.sh): the kernel
** scale (work-groups of 16 in SIMD16: one thread per group) runs twice over 64 work-items, once on
** each of two queues (the launches may run at once), so its profile adds up 2 launches x 4
** threads; the kernel shift runs once.  The program is built with -g, so IGC's vISA gives the
** source lines.  It prints the results on standard output (what observing must leave alone) and
** exits 0 when the API calls succeed.  `cl_profile --source` prints the program's source. */
#include <stdio.h>
#include <string.h>

#include "cltest.h"

/* cl_observe.sh counts on these lines: scale's load is line 4, its store line 5, shift's line 8. */
static const char source[] =
    "__attribute__((reqd_work_group_size(16, 1, 1))) __attribute__((intel_reqd_sub_group_size(16)))\n"
    "kernel void scale(global const int *in, global int *out, int k) {\n"
    "    int i = get_global_id(0);\n"
    "    int v = in[i];\n"
    "    out[i] = v * k;\n"
    "}\n"
    "kernel void shift(global int *out) {\n"
    "    out[get_global_id(0)] += 1;\n"
    "}\n";

enum { N = 64 };

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--source")) {
        fputs(source, stdout);
        return 0;
    }
    cltest t;
    if (!cltest_open_first(&t, argv[0])) return cltest_report();
    cl_program prog = cltest_build(&t, source, "-g");
    cl_kernel scale = cltest_kernel(prog, "scale"), scale2 = cltest_kernel(prog, "scale");
    cl_kernel shift = cltest_kernel(prog, "shift");
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueue(t.ctx, t.device, 0, &err);
    CHECK_OK(err);
    int in[N], out2[N], out3[N];
    for (int i = 0; i < N; i++) in[i] = i;
    cl_mem bin = clCreateBuffer(t.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CHECK_OK(err);
    cl_mem b2 = clCreateBuffer(t.ctx, CL_MEM_READ_WRITE, sizeof out2, NULL, &err);
    CHECK_OK(err);
    cl_mem b3 = clCreateBuffer(t.ctx, CL_MEM_READ_WRITE, sizeof out3, NULL, &err);
    CHECK_OK(err);
    if (scale && scale2 && shift && q2 && bin && b2 && b3) {
        size_t global = N, local = 16;
        int k2 = 2, k3 = 3;
        CHECK_OK(clSetKernelArg(scale, 0, sizeof bin, &bin));
        CHECK_OK(clSetKernelArg(scale, 1, sizeof b2, &b2));
        CHECK_OK(clSetKernelArg(scale, 2, sizeof k2, &k2));
        CHECK_OK(clSetKernelArg(scale2, 0, sizeof bin, &bin));
        CHECK_OK(clSetKernelArg(scale2, 1, sizeof b3, &b3));
        CHECK_OK(clSetKernelArg(scale2, 2, sizeof k3, &k3));
        CHECK_OK(clSetKernelArg(shift, 0, sizeof b3, &b3));
        /* the two launches of scale may run at once, one per queue */
        CHECK_OK(clEnqueueNDRangeKernel(t.queue, scale, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(q2, scale2, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK_OK(clEnqueueNDRangeKernel(q2, shift, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(t.queue, b2, CL_TRUE, 0, sizeof out2, out2, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(q2, b3, CL_TRUE, 0, sizeof out3, out3, 0, NULL, NULL));
        long sum2 = 0, sum3 = 0;
        for (int i = 0; i < N; i++) sum2 += out2[i], sum3 += out3[i];
        printf("scale by 2: %d %d ... %d (sum %ld)\n", out2[0], out2[1], out2[N - 1], sum2);
        printf("scale by 3, shift: %d %d ... %d (sum %ld)\n", out3[0], out3[1], out3[N - 1], sum3);
    }
    if (bin) clReleaseMemObject(bin);
    if (b2) clReleaseMemObject(b2);
    if (b3) clReleaseMemObject(b3);
    if (q2) clReleaseCommandQueue(q2);
    if (scale) clReleaseKernel(scale);
    if (scale2) clReleaseKernel(scale2);
    if (shift) clReleaseKernel(shift);
    if (prog) clReleaseProgram(prog);
    cltest_close(&t);
    return cltest_report();
}
