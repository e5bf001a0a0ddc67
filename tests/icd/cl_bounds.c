/* cl_bounds.c -- a host whose one kernel writes 16 ints from an offset: `cl_bounds oob` writes
** past its 16-int buffer (4 ints too far), `cl_bounds clean` within it.  It exits 0 whenever the
** API calls succeed: whether the kernel went wrong is for `visa cl --check=memcheck` to say
** (tests/icd/cl_report.sh: exit 1 and C-MEMCHECK-OOB naming the kernel, or exit 0). */
#include <stdio.h>
#include <string.h>

#include "cltest.h"

static const char source[] = "kernel void bounds_write(global int *out, int offset) {\n"
                             "    out[get_global_id(0) + offset] = (int)get_global_id(0);\n"
                             "}\n";

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "oob") && strcmp(argv[1], "clean"))) {
        fprintf(stderr, "usage: cl_bounds oob|clean\n");
        return 2;
    }
    enum { N = 16 };
    int offset = !strcmp(argv[1], "oob") ? 4 : 0;
    cltest t;
    if (cltest_open_first(&t, argv[0])) {
        cl_program prog = cltest_build(&t, source, NULL);
        cl_kernel k = cltest_kernel(prog, "bounds_write");
        cl_int err;
        cl_mem out = clCreateBuffer(t.ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
        CHECK_OK(err);
        if (k && out) {
            size_t global = N;
            CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
            CHECK_OK(clSetKernelArg(k, 1, sizeof offset, &offset));
            CHECK_OK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
            CHECK_OK(clFinish(t.queue));
        }
        if (out) clReleaseMemObject(out);
        if (k) clReleaseKernel(k);
        if (prog) clReleaseProgram(prog);
    }
    cltest_close(&t);
    return cltest_report();
}
