/* vadd.c -- a smoke test of libvisa-opencl.so through the ICD loader (-lOpenCL): on every device
** of the visa platform, c = a + b over 1000 floats (a global size no multiple of the chosen local
** size in OpenCL C 1.2 is avoided: 1024 work-items, the kernel guards n), printf from one
** work-item, an event's profiling times.  Exit 0 when every device computes every element. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src = "__kernel void vadd(__global const float *a, __global const float *b,\n"
                         "                   __global float *c, int n) {\n"
                         "    int i = get_global_id(0);\n"
                         "    if (i < n) c[i] = a[i] + b[i];\n"
                         "    if (i == 0) printf(\"hello from work-item %d\\n\", i);\n"
                         "}\n";

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        cl_int rc_ = (x);                                                                                              \
        if (rc_) {                                                                                                     \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, rc_);                                         \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

static int run_on(cl_platform_id plat, cl_device_id dev) {
    enum { N = 1000 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i, c[i] = -1;
    char name[256];
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
    cl_int rc;
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &rc);
    CHECK(rc);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &rc);
    CHECK(rc);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
    CHECK(rc);
    rc = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    if (rc) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", rc, log);
        return 1;
    }
    cl_kernel k = clCreateKernel(p, "vadd", &rc);
    CHECK(rc);
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &rc);
    CHECK(rc);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof b, b, &rc);
    CHECK(rc);
    cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &rc);
    CHECK(rc);
    int n = N;
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t global = 1024, local = 64;
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 1, &ev, NULL));
    cl_ulong t0, t1;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != 1.5f * (float)i;
    printf("%s: %s (%d wrong), kernel %.3f ms\n", name, bad ? "FAIL" : "ok", bad, (double)(t1 - t0) * 1e-6);
    clReleaseEvent(ev);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad != 0;
}

int main(void) {
    cl_platform_id plats[8];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(8, plats, &np));
    int failed = 0, ran = 0;
    for (cl_uint i = 0; i < np; i++) {
        char name[256];
        CHECK(clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (!strstr(name, "visa")) continue;
        cl_device_id devs[8];
        cl_uint nd = 0;
        CHECK(clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 8, devs, &nd));
        for (cl_uint d = 0; d < nd; d++, ran++) failed += run_on(plats[i], devs[d]);
    }
    if (!ran) fprintf(stderr, "no visa platform\n");
    return failed || !ran;
}
