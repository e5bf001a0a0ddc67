/* api_programs.c -- programs and kernels through the OpenCL API: from source with build options,
** a failing build and its log, from the binary of a build, from SPIR-V when the device takes IL;
** kernel, argument and work-group queries; arguments of every kind set and used by a kernel whose
** result the test computes in C. */
#include "cltest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_int program_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetProgramInfo((cl_program)obj, param, size, value, ret);
}
static cl_int build_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    const cltest_pair *p = obj;
    return clGetProgramBuildInfo((cl_program)p->a, (cl_device_id)p->b, param, size, value, ret);
}
static cl_int kernel_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetKernelInfo((cl_kernel)obj, param, size, value, ret);
}
static cl_int work_group_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    const cltest_pair *p = obj;
    return clGetKernelWorkGroupInfo((cl_kernel)p->a, (cl_device_id)p->b, param, size, value, ret);
}
static cl_int arg_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    const cltest_pair *p = obj;
    return clGetKernelArgInfo((cl_kernel)p->a, (cl_uint)(size_t)p->b, param, size, value, ret);
}

/* CL_PROGRAM_BINARIES is left out: its value is an array of pointers the caller fills in, which
** the implementation writes through (binary_program queries it). */
static const cltest_info_param program_params[] = {
    CLTEST_FIXED_P(CL_PROGRAM_REFERENCE_COUNT, cl_uint),
    CLTEST_FIXED_P(CL_PROGRAM_CONTEXT, cl_context),
    CLTEST_FIXED_P(CL_PROGRAM_NUM_DEVICES, cl_uint),
    CLTEST_ARRAY_P(CL_PROGRAM_DEVICES, cl_device_id),
    CLTEST_STRING_P(CL_PROGRAM_SOURCE),
    CLTEST_ARRAY_P(CL_PROGRAM_IL, char),
    CLTEST_ARRAY_P(CL_PROGRAM_BINARY_SIZES, size_t),
    CLTEST_FIXED_P(CL_PROGRAM_NUM_KERNELS, size_t),
    CLTEST_STRING_P(CL_PROGRAM_KERNEL_NAMES),
    CLTEST_FIXED_P(CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, cl_bool),
    CLTEST_FIXED_P(CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, cl_bool),
};

static const cltest_info_param build_params[] = {
    CLTEST_FIXED_P(CL_PROGRAM_BUILD_STATUS, cl_build_status),
    CLTEST_STRING_P(CL_PROGRAM_BUILD_OPTIONS),
    CLTEST_STRING_P(CL_PROGRAM_BUILD_LOG),
    CLTEST_FIXED_P(CL_PROGRAM_BINARY_TYPE, cl_program_binary_type),
    CLTEST_FIXED_P(CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, size_t),
};

static const cltest_info_param kernel_params[] = {
    CLTEST_STRING_P(CL_KERNEL_FUNCTION_NAME),           CLTEST_FIXED_P(CL_KERNEL_NUM_ARGS, cl_uint),
    CLTEST_FIXED_P(CL_KERNEL_REFERENCE_COUNT, cl_uint), CLTEST_FIXED_P(CL_KERNEL_CONTEXT, cl_context),
    CLTEST_FIXED_P(CL_KERNEL_PROGRAM, cl_program),      CLTEST_STRING_P(CL_KERNEL_ATTRIBUTES),
};

static const cltest_info_param work_group_params[] = {
    CLTEST_FIXED_P(CL_KERNEL_WORK_GROUP_SIZE, size_t),
    {CL_KERNEL_COMPILE_WORK_GROUP_SIZE, "CL_KERNEL_COMPILE_WORK_GROUP_SIZE", CLTEST_FIXED, 3 * sizeof(size_t), NULL},
    CLTEST_FIXED_P(CL_KERNEL_LOCAL_MEM_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
    CLTEST_FIXED_P(CL_KERNEL_PRIVATE_MEM_SIZE, cl_ulong),
};

static const cltest_info_param arg_params[] = {
    CLTEST_FIXED_P(CL_KERNEL_ARG_ADDRESS_QUALIFIER, cl_kernel_arg_address_qualifier),
    CLTEST_FIXED_P(CL_KERNEL_ARG_ACCESS_QUALIFIER, cl_kernel_arg_access_qualifier),
    CLTEST_STRING_P(CL_KERNEL_ARG_TYPE_NAME),
    CLTEST_FIXED_P(CL_KERNEL_ARG_TYPE_QUALIFIER, cl_kernel_arg_type_qualifier),
    CLTEST_STRING_P(CL_KERNEL_ARG_NAME),
};

/* out[i] = SCALE * in[i] + OFFSET, the two given by -D; and a second kernel for the name list. */
static const char *scale_source_head = "kernel void scale(global const int *in, global int *out) {\n";
static const char *scale_source_tail = "    size_t i = get_global_id(0);\n    out[i] = SCALE * in[i] + OFFSET;\n}\n"
                                       "kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n";

/* Runs scale over n ints and checks out against SCALE * in + OFFSET. */
static void run_scale(cltest *t, cl_program prog, int scale, int offset, const char *what) {
    enum { N = 300 };
    cl_kernel k = cltest_kernel(prog, "scale");
    if (!k) return;
    int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = i * 5 - 700;
    cl_mem a = clCreateBuffer(t->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
    cl_mem b = clCreateBuffer(t->ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, NULL);
    size_t global = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 1, sizeof b, &b));
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(t->queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
        if (out[i] != scale * in[i] + offset) bad = i;
    CHECK(bad < 0, "%s: out[%d] = %d, expected %d", what, bad, bad >= 0 ? out[bad] : 0,
          bad >= 0 ? scale * in[bad] + offset : 0);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

/* From source in two strings (one with its length), built with -D options. */
static cl_program source_program(cltest *t) {
    const char *strings[] = {scale_source_head, scale_source_tail};
    size_t lengths[] = {strlen(scale_source_head), 0}; /* 0: NUL-terminated */
    cl_int err;
    cl_program prog = clCreateProgramWithSource(t->ctx, 2, strings, lengths, &err);
    CHECK(prog && err == CL_SUCCESS, "clCreateProgramWithSource of two strings: %s", cltest_err_name(err));
    if (!prog) return NULL;
    cl_build_status status = 1;
    CHECK_OK(clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_BUILD_NONE, "build status before a build: %d", status);
    size_t kernels = 0;
    CHECK_ERR(clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, NULL),
              CL_INVALID_PROGRAM_EXECUTABLE);
    char *source = malloc(strlen(scale_source_head) + strlen(scale_source_tail) + 1);
    sprintf(source, "%s%s", scale_source_head, scale_source_tail);
    char got[1024] = "";
    CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_SOURCE, sizeof got, got, NULL));
    CHECK(strcmp(got, source) == 0, "CL_PROGRAM_SOURCE is not the strings concatenated: \"%s\"", got);
    free(source);
    const char *options = "-D SCALE=3 -DOFFSET=-11";
    err = clBuildProgram(prog, 1, &t->device, options, NULL, NULL);
    if (err != CL_SUCCESS) { /* cltest_build's skip when the compiler is missing */
        clReleaseProgram(prog);
        return cltest_build(t, "kernel void k(void) {}", NULL);
    }
    CHECK_OK(clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_OPTIONS, sizeof got, got, NULL));
    CHECK(strstr(got, "-D SCALE=3") && strstr(got, "-DOFFSET=-11"), "CL_PROGRAM_BUILD_OPTIONS \"%s\"", got);
    CHECK_OK(clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    cl_program_binary_type type = 0;
    CHECK_OK(clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    CHECK(status == CL_BUILD_SUCCESS && type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "after a build: status %d, type %u",
          status, type);
    CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, NULL));
    CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof got, got, NULL));
    CHECK(kernels == 2 && (!strcmp(got, "scale;twice") || !strcmp(got, "twice;scale")),
          "%zu kernels, CL_PROGRAM_KERNEL_NAMES \"%s\"", kernels, got);
    run_scale(t, prog, 3, -11, "a program built with -D SCALE=3 -DOFFSET=-11");
    cltest_info_protocol("clGetProgramInfo", program_info, prog, program_params, CLTEST_COUNT(program_params));
    cltest_pair pair = {prog, t->device};
    cltest_info_protocol("clGetProgramBuildInfo", build_info, &pair, build_params, CLTEST_COUNT(build_params));
    return prog;
}

/* A program that does not compile: CL_BUILD_PROGRAM_FAILURE, CL_BUILD_ERROR, a log saying why. */
static void failing_build(cltest *t) {
    const char *src = "kernel void broken(global int *p) { p[0] = undeclared_name + ; }\n";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(t->ctx, 1, &src, NULL, &err);
    if (!prog) return;
    CHECK_ERR(clBuildProgram(prog, 1, &t->device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status status = 0;
    clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    char *log = cltest_build_log(t, prog);
    CHECK(status == CL_BUILD_ERROR, "build status after a failed build: %d", status);
    CHECK(log && strlen(log) > 0, "a failed build leaves a log");
    CHECK(log && strstr(log, "undeclared_name"), "the build log names the undeclared identifier: \"%s\"",
          log ? log : "");
    free(log);
    cl_kernel k = clCreateKernel(prog, "broken", &err);
    CHECK(!k && err == CL_INVALID_PROGRAM_EXECUTABLE, "a kernel of a failed build: %s", cltest_err_name(err));
    clReleaseProgram(prog);
}

/* The binary of a build, made into a program again (a program cache's path), built and run. */
static void binary_program(cltest *t, cl_program built) {
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    CHECK(size > 0, "CL_PROGRAM_BINARY_SIZES of a built program: %zu", size);
    if (!size) return;
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    CHECK_OK(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    const unsigned char *cbins[1] = {bin};
    cl_int status = 1, err;
    cl_program prog = clCreateProgramWithBinary(t->ctx, 1, &t->device, &size, cbins, &status, &err);
    CHECK(prog && err == CL_SUCCESS && status == CL_SUCCESS, "clCreateProgramWithBinary: %s, binary status %s",
          cltest_err_name(err), cltest_err_name(status));
    free(bin);
    if (!prog) return;
    CHECK_OK(clBuildProgram(prog, 1, &t->device, NULL, NULL, NULL));
    run_scale(t, prog, 3, -11, "a program from the binary of a -D SCALE=3 build");
    clReleaseProgram(prog);
}

/* From SPIR-V (pyopencl's add-vectors-64.spv: kernel sum(a, b, res), res = a + b) when the device
** lists SPIR-V in CL_DEVICE_IL_VERSION and the file is installed. */
static void il_program(cltest *t) {
    char *il = cltest_device_info(t->device, CL_DEVICE_IL_VERSION, NULL);
    bool spirv = il && strstr(il, "SPIR-V");
    free(il);
    size_t len = 0;
    unsigned char *spv = spirv ? cltest_spirv_example(t->device, &len) : NULL;
    if (!spv) {
        printf("  (program from IL not tested: %s)\n",
               spirv ? "no pyopencl SPIR-V example" : "the device takes no SPIR-V");
        return;
    }
    cl_int err;
    cl_program prog = clCreateProgramWithIL(t->ctx, spv, len, &err);
    CHECK(prog && err == CL_SUCCESS, "clCreateProgramWithIL: %s", cltest_err_name(err));
    free(spv);
    if (!prog) return;
    CHECK_OK(clBuildProgram(prog, 1, &t->device, NULL, NULL, NULL));
    size_t il_size = 0;
    CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == len, "CL_PROGRAM_IL: %zu bytes of the %zu given", il_size, len);
    cl_kernel k = cltest_kernel(prog, "sum");
    enum { N = 1000 };
    float a[N], b[N], res[N];
    for (int i = 0; i < N; i++) a[i] = (float)i * 0.5f, b[i] = 1000.0f - (float)i;
    cl_mem ma = clCreateBuffer(t->ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, NULL);
    cl_mem mb = clCreateBuffer(t->ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, NULL);
    cl_mem mr = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, sizeof res, NULL, NULL);
    size_t global = N;
    if (k) {
        clSetKernelArg(k, 0, sizeof ma, &ma);
        clSetKernelArg(k, 1, sizeof mb, &mb);
        clSetKernelArg(k, 2, sizeof mr, &mr);
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_OK(clEnqueueReadBuffer(t->queue, mr, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
        int bad = -1;
        for (int i = 0; i < N && bad < 0; i++)
            if (res[i] != a[i] + b[i]) bad = i;
        CHECK(bad < 0, "the SPIR-V kernel sum: res[%d] = %g", bad, bad >= 0 ? res[bad] : 0);
        clReleaseKernel(k);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mr);
    clReleaseProgram(prog);
}

void test_programs(cltest *t) {
    cl_program prog = source_program(t);
    failing_build(t);
    if (prog) binary_program(t, prog);
    il_program(t);
    if (prog) clReleaseProgram(prog);
}

/* Arguments of every kind: a buffer (or NULL), __local memory, a scalar, a vector, a struct. */
static const char *args_source =
    "struct pair { int a; float b; long c; };\n"
    "kernel __attribute__((reqd_work_group_size(8, 1, 1)))\n"
    "void fixed(global int *p) { p[get_global_id(0)] = (int)get_local_size(0); }\n"
    "kernel void every_arg(global int *restrict out, global const int *maybe, local int *scratch,\n"
    "                      int scalar, int4 vec, struct pair s, constant int *table) {\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = (int)i * 2;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int base = maybe ? maybe[i] : -1000;\n"
    "    out[i] = base + scalar + vec.x + vec.y * 10 + vec.z * 100 + vec.w * 1000\n"
    "             + s.a + (int)s.b + (int)(s.c >> 32) * 7 + (int)(s.c & 0xffff)\n"
    "             + scratch[n - 1 - l] * 100000 + table[i % 4];\n"
    "}\n";

typedef struct pair_arg {
    cl_int a;
    cl_float b;
    cl_long c;
} pair_arg;

/* every_arg over EVERY_N items in groups of EVERY_LOCAL, its arguments 2..6 as set by
** set_every_arg and maybe given (maybe_host) or NULL; out checked against the same sums in C. */
enum { EVERY_N = 64, EVERY_LOCAL = 16 };
static const int every_table[4] = {5, -6, 7, -8};
static const cl_int4 every_vec = {{1, 2, 3, 4}};
static const pair_arg every_pair = {-50, 25.75f, (5ll << 32) + 4321};

static void run_every_arg(cltest *t, cl_kernel k, cl_mem out, const int *maybe_host, const char *what) {
    size_t global = EVERY_N, local = EVERY_LOCAL;
    CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    int got[EVERY_N];
    CHECK_OK(clEnqueueReadBuffer(t->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = -1, want = 0;
    for (int i = 0; i < EVERY_N && bad < 0; i++) {
        int l = i % EVERY_LOCAL, mirrored = i - l + EVERY_LOCAL - 1 - l; /* scratch[n - 1 - l] */
        want = (maybe_host ? maybe_host[i] : -1000) + 77 + every_vec.s[0] + every_vec.s[1] * 10 + every_vec.s[2] * 100 +
               every_vec.s[3] * 1000 + every_pair.a + (int)every_pair.b + (int)(every_pair.c >> 32) * 7 +
               (int)(every_pair.c & 0xffff) + mirrored * 2 * 100000 + every_table[i % 4];
        if (got[i] != want) bad = i;
    }
    CHECK(bad < 0, "every_arg with %s: out[%d] = %d, expected %d", what, bad, bad >= 0 ? got[bad] : 0, want);
}

/* Sets every kind of argument and runs the kernel with a buffer, with arg_value NULL and with
** arg_value pointing to NULL for the pointer maybe. */
static void set_every_arg(cltest *t, cl_kernel k) {
    int maybe_host[EVERY_N];
    for (int i = 0; i < EVERY_N; i++) maybe_host[i] = i * i;
    cl_mem out = clCreateBuffer(t->ctx, CL_MEM_WRITE_ONLY, EVERY_N * sizeof(int), NULL, NULL);
    cl_mem maybe = clCreateBuffer(t->ctx, CL_MEM_COPY_HOST_PTR, sizeof maybe_host, maybe_host, NULL);
    cl_mem table =
        clCreateBuffer(t->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof every_table, (void *)every_table, NULL);
    cl_int scalar = 77;
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 1, sizeof maybe, &maybe));
    CHECK_OK(clSetKernelArg(k, 2, EVERY_LOCAL * sizeof(int), NULL));
    CHECK_OK(clSetKernelArg(k, 3, sizeof scalar, &scalar));
    CHECK_OK(clSetKernelArg(k, 4, sizeof every_vec, &every_vec));
    CHECK_OK(clSetKernelArg(k, 5, sizeof every_pair, &every_pair));
    CHECK_OK(clSetKernelArg(k, 6, sizeof table, &table));
    run_every_arg(t, k, out, maybe_host, "a buffer");
    CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_mem), NULL));
    run_every_arg(t, k, out, NULL, "arg_value NULL for a pointer");
    CHECK_OK(clSetKernelArg(k, 1, sizeof maybe, &maybe));
    run_every_arg(t, k, out, maybe_host, "the buffer set again");
    cl_mem none = NULL;
    CHECK_OK(clSetKernelArg(k, 1, sizeof none, &none));
    run_every_arg(t, k, out, NULL, "arg_value pointing to NULL");
    /* the argument values are copied at clSetKernelArg: changing scalar now changes nothing */
    scalar = 1;
    run_every_arg(t, k, out, NULL, "the scalar's variable changed after clSetKernelArg");
    clReleaseMemObject(out);
    clReleaseMemObject(maybe);
    clReleaseMemObject(table);
}

static void arg_infos(cl_kernel k) {
    static const struct {
        cl_kernel_arg_address_qualifier address;
        const char *type, *name;
        cl_kernel_arg_type_qualifier qualifier;
    } want[] = {
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*", "out", CL_KERNEL_ARG_TYPE_RESTRICT},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*", "maybe", CL_KERNEL_ARG_TYPE_CONST},
        {CL_KERNEL_ARG_ADDRESS_LOCAL, "int*", "scratch", CL_KERNEL_ARG_TYPE_NONE},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, "int", "scalar", CL_KERNEL_ARG_TYPE_NONE},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, "int4", "vec", CL_KERNEL_ARG_TYPE_NONE},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, "pair", "s", CL_KERNEL_ARG_TYPE_NONE},
        {CL_KERNEL_ARG_ADDRESS_CONSTANT, "int*", "table", CL_KERNEL_ARG_TYPE_CONST},
    };
    for (cl_uint i = 0; i < CLTEST_COUNT(want); i++) {
        cltest_pair pair = {k, (void *)(size_t)i};
        cltest_info_protocol("clGetKernelArgInfo", arg_info, &pair, arg_params, CLTEST_COUNT(arg_params));
        cl_kernel_arg_address_qualifier address = 0;
        cl_kernel_arg_access_qualifier access = 0;
        cl_kernel_arg_type_qualifier qualifier = 0;
        char type[64] = "", name[64] = "";
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, NULL);
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL);
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier, NULL);
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
        /* "the argument type name as it was declared with any whitespace removed": a struct is
        ** spelt "struct pair" by some and "pair" by others; the name's end is what is checked. */
        size_t tl = strlen(type), wl = strlen(want[i].type);
        bool type_ok = tl >= wl && strcmp(type + tl - wl, want[i].type) == 0 && (i == 5 || tl == wl);
        CHECK(address == want[i].address && access == CL_KERNEL_ARG_ACCESS_NONE && qualifier == want[i].qualifier &&
                  type_ok && !strcmp(name, want[i].name),
              "arg %u: address 0x%x, access 0x%x, qualifiers 0x%llx, type \"%s\", name \"%s\"", i, address, access,
              (unsigned long long)qualifier, type, name);
    }
    char name[64];
    CHECK_ERR(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof name, name, NULL), CL_INVALID_ARG_INDEX);
}

/* Work-group queries: the protocol, the required size of a reqd_work_group_size kernel, local
** memory counting a __local argument, and the preferred multiple (a SIMD width on visa's GPUs). */
static void work_group_infos(cltest *t, cl_kernel every, cl_kernel fixed) {
    cltest_pair pair = {every, t->device};
    cltest_info_protocol("clGetKernelWorkGroupInfo", work_group_info, &pair, work_group_params,
                         CLTEST_COUNT(work_group_params));
    size_t size = 0, multiple = 0, device_max = 0, compiled[3] = {9, 9, 9};
    cl_ulong local = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max, &device_max, NULL);
    CHECK_OK(clGetKernelWorkGroupInfo(every, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, NULL));
    CHECK_OK(clGetKernelWorkGroupInfo(every, t->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                      &multiple, NULL));
    CHECK(size >= 1 && size <= device_max && multiple >= 1 && multiple <= size,
          "CL_KERNEL_WORK_GROUP_SIZE %zu (device %zu), PREFERRED_WORK_GROUP_SIZE_MULTIPLE %zu", size, device_max,
          multiple);
    if (t->is_visa) /* an Intel GPU runs a work-group as SIMD8, SIMD16 or SIMD32 threads */
        CHECK(multiple == 8 || multiple == 16 || multiple == 32, "visa: preferred multiple %zu is no SIMD width",
              multiple);
    CHECK_OK(
        clGetKernelWorkGroupInfo(every, t->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled, NULL));
    CHECK(!compiled[0] && !compiled[1] && !compiled[2], "no reqd_work_group_size: %zu %zu %zu", compiled[0],
          compiled[1], compiled[2]);
    CHECK_OK(
        clGetKernelWorkGroupInfo(fixed, t->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled, NULL));
    CHECK(compiled[0] == 8 && compiled[1] == 1 && compiled[2] == 1, "reqd_work_group_size(8, 1, 1): %zu %zu %zu",
          compiled[0], compiled[1], compiled[2]);
    CHECK_OK(clSetKernelArg(every, 2, 4096, NULL));
    CHECK_OK(clGetKernelWorkGroupInfo(every, t->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL));
    CHECK(local >= 4096, "CL_KERNEL_LOCAL_MEM_SIZE %llu with a 4096-byte __local argument", (unsigned long long)local);
    size_t global[3];
    CHECK_ERR(clGetKernelWorkGroupInfo(every, t->device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, NULL),
              CL_INVALID_VALUE); /* only for custom devices and built-in kernels */
    /* Sub-groups: a device that reports none answers CL_INVALID_OPERATION. */
    cl_uint subgroups = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof subgroups, &subgroups, NULL);
    size_t local_size = 16, sg_size = 0;
    cl_int err = clGetKernelSubGroupInfo(every, t->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local_size,
                                         &local_size, sizeof sg_size, &sg_size, NULL);
    if (!subgroups)
        CHECK(err == CL_INVALID_OPERATION, "sub-group info on a device without sub-groups: %s", cltest_err_name(err));
    else
        CHECK(err == CL_SUCCESS && sg_size >= 1, "max sub-group size for 16 work-items: %zu (%s)", sg_size,
              cltest_err_name(err));
    if (t->is_visa) /* a sub-group is a SIMD8, SIMD16 or SIMD32 hardware thread */
        CHECK(sg_size == 8 || sg_size == 16 || sg_size == 32, "visa: a sub-group size of %zu", sg_size);
}

void test_kernels(cltest *t) {
    cl_program prog = cltest_build(t, args_source, "-cl-kernel-arg-info");
    if (!prog) return;
    cl_uint n = 0;
    CHECK_OK(clCreateKernelsInProgram(prog, 0, NULL, &n));
    cl_kernel all[2] = {NULL, NULL};
    CHECK(n == 2, "clCreateKernelsInProgram counts %u kernels, not 2", n);
    CHECK_OK(clCreateKernelsInProgram(prog, 2, all, NULL));
    char names[2][64] = {"", ""};
    for (int i = 0; i < 2; i++)
        if (all[i]) clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME, sizeof names[i], names[i], NULL);
    CHECK((!strcmp(names[0], "fixed") && !strcmp(names[1], "every_arg")) ||
              (!strcmp(names[1], "fixed") && !strcmp(names[0], "every_arg")),
          "clCreateKernelsInProgram: \"%s\", \"%s\"", names[0], names[1]);
    for (int i = 0; i < 2; i++)
        if (all[i]) clReleaseKernel(all[i]);
    cl_kernel every = cltest_kernel(prog, "every_arg"), fixed = cltest_kernel(prog, "fixed");
    if (every && fixed) {
        cltest_info_protocol("clGetKernelInfo", kernel_info, every, kernel_params, CLTEST_COUNT(kernel_params));
        cl_uint args = 0;
        cl_program owner = NULL;
        cl_context ctx = NULL;
        clGetKernelInfo(every, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL);
        clGetKernelInfo(every, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
        clGetKernelInfo(every, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, NULL);
        CHECK(args == 7 && owner == prog && ctx == t->ctx, "kernel info: %u args, program %p, context %p", args,
              (void *)owner, (void *)ctx);
        /* CL_KERNEL_ATTRIBUTES: the attributes "as they were declared inside __attribute__((...))";
        ** spaces inside vary (pocl keeps the __attribute__ too), so they are compared without. */
        char attributes[256] = "", packed[256];
        clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof attributes, attributes, NULL);
        size_t len = 0;
        for (const char *p = attributes; *p; p++)
            if (*p != ' ') packed[len++] = *p;
        packed[len] = 0;
        CHECK(strstr(packed, "reqd_work_group_size(8,1,1)") != NULL, "CL_KERNEL_ATTRIBUTES \"%s\"", attributes);
        cl_uint refs = cltest_refs(kernel_info, every, CL_KERNEL_REFERENCE_COUNT);
        CHECK_OK(clRetainKernel(every));
        CHECK(cltest_refs(kernel_info, every, CL_KERNEL_REFERENCE_COUNT) == refs + 1,
              "clRetainKernel: not one more than %u", refs);
        CHECK_OK(clReleaseKernel(every));
        arg_infos(every);
        set_every_arg(t, every);
        work_group_infos(t, every, fixed);
    }
    if (every) clReleaseKernel(every);
    if (fixed) clReleaseKernel(fixed);
    clReleaseProgram(prog);
}
