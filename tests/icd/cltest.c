/* cltest.c -- checks, error names, platform and device choice, builds and the info-query protocol
** shared by the OpenCL API tests (see cltest.h). */
#include "cltest.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int checks_passed, checks_failed, pocl_deviations; /* the threads test counts from two threads */
static bool platform_is_pocl;

static void check_failed(const char *word, const char *file, int line, const char *fmt, va_list ap,
                         const char *reason) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    const char *base = strrchr(file, '/');
    printf("%s %s:%d: %s%s%s\n", word, base ? base + 1 : file, line, msg, reason ? " -- " : "", reason ? reason : "");
    fflush(stdout);
}

void cltest_check(bool ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        atomic_fetch_add(&checks_passed, 1);
        return;
    }
    atomic_fetch_add(&checks_failed, 1);
    va_list ap;
    va_start(ap, fmt);
    check_failed("FAIL", file, line, fmt, ap, NULL);
    va_end(ap);
}

void cltest_check_pocl(bool ok, const char *reason, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        atomic_fetch_add(&checks_passed, 1);
        return;
    }
    atomic_fetch_add(platform_is_pocl ? &pocl_deviations : &checks_failed, 1);
    va_list ap;
    va_start(ap, fmt);
    check_failed(platform_is_pocl ? "POCL DEVIATES" : "FAIL", file, line, fmt, ap, reason);
    va_end(ap);
}

void cltest_check_err(cl_int got, cl_int want, const char *what, const char *file, int line) {
    cltest_check(got == want, file, line, "%s: %s (%d), expected %s", what, cltest_err_name(got), got,
                 cltest_err_name(want));
}

bool cltest_platform_is_pocl(void) { return platform_is_pocl; }

int cltest_failures(void) { return atomic_load(&checks_failed); }

int cltest_report(void) {
    if (atomic_load(&pocl_deviations))
        printf("(%d known deviations of pocl from the specification)\n", atomic_load(&pocl_deviations));
    printf("%d passed, %d failed\n", atomic_load(&checks_passed), atomic_load(&checks_failed));
    return atomic_load(&checks_failed) ? 1 : 0;
}

#define CLTEST_ERRORS(X)                                                                                              \
    X(CL_SUCCESS)                                                                                                     \
    X(CL_DEVICE_NOT_FOUND)                                                                                            \
    X(CL_DEVICE_NOT_AVAILABLE)                                                                                        \
    X(CL_COMPILER_NOT_AVAILABLE)                                                                                      \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE)                                                                               \
    X(CL_OUT_OF_RESOURCES)                                                                                            \
    X(CL_OUT_OF_HOST_MEMORY)                                                                                          \
    X(CL_PROFILING_INFO_NOT_AVAILABLE)                                                                                \
    X(CL_MEM_COPY_OVERLAP)                                                                                            \
    X(CL_IMAGE_FORMAT_MISMATCH)                                                                                       \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED)                                                                                  \
    X(CL_BUILD_PROGRAM_FAILURE)                                                                                       \
    X(CL_MAP_FAILURE)                                                                                                 \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                                                                \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                                                                   \
    X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINKER_NOT_AVAILABLE) X(CL_LINK_PROGRAM_FAILURE) X(CL_DEVICE_PARTITION_FAILED) \
        X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(CL_INVALID_VALUE) X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM)      \
            X(CL_INVALID_DEVICE) X(CL_INVALID_CONTEXT) X(CL_INVALID_QUEUE_PROPERTIES) X(CL_INVALID_COMMAND_QUEUE)     \
                X(CL_INVALID_HOST_PTR) X(CL_INVALID_MEM_OBJECT) X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                 \
                    X(CL_INVALID_IMAGE_SIZE) X(CL_INVALID_SAMPLER) X(CL_INVALID_BINARY) X(CL_INVALID_BUILD_OPTIONS)   \
                        X(CL_INVALID_PROGRAM) X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME) X(           \
                            CL_INVALID_KERNEL_DEFINITION) X(CL_INVALID_KERNEL) X(CL_INVALID_ARG_INDEX)                \
                            X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE) X(CL_INVALID_KERNEL_ARGS) X(               \
                                CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE) X(CL_INVALID_WORK_ITEM_SIZE) \
                                X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST) X(CL_INVALID_EVENT)         \
                                    X(CL_INVALID_OPERATION) X(CL_INVALID_GL_OBJECT) X(CL_INVALID_BUFFER_SIZE)         \
                                        X(CL_INVALID_MIP_LEVEL) X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_INVALID_PROPERTY) \
                                            X(CL_INVALID_IMAGE_DESCRIPTOR) X(CL_INVALID_COMPILER_OPTIONS)             \
                                                X(CL_INVALID_LINKER_OPTIONS) X(CL_INVALID_DEVICE_PARTITION_COUNT)     \
                                                    X(CL_INVALID_PIPE_SIZE) X(CL_INVALID_DEVICE_QUEUE)                \
                                                        X(CL_INVALID_SPEC_ID) X(CL_MAX_SIZE_RESTRICTION_EXCEEDED)

const char *cltest_err_name(cl_int err) {
#define CLTEST_ERROR_CASE(name) \
    case name: return #name;
    switch (err) { CLTEST_ERRORS(CLTEST_ERROR_CASE) }
#undef CLTEST_ERROR_CASE
    return "an unknown code";
}

static const char *arg_or_env(int argc, char **argv, int index, const char *env, const char *fallback) {
    if (argc > index && argv[index][0]) return argv[index];
    const char *e = getenv(env);
    return e && e[0] ? e : fallback;
}

cl_platform_id cltest_platform(int argc, char **argv, bool *is_visa) {
    const char *want = arg_or_env(argc, argv, 1, "CLTEST_PLATFORM", "visa");
    cl_uint n = 0;
    cl_platform_id ids[16];
    if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS) n = 0; /* ocl-icd: CL_PLATFORM_NOT_FOUND_KHR */
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL) != CL_SUCCESS) continue;
        if (!strstr(name, want)) continue;
        *is_visa = strstr(name, "visa") != NULL;
        platform_is_pocl = strstr(name, "Portable Computing Language") != NULL;
        printf("platform: %s\n", name);
        return ids[i];
    }
    printf("SKIPPED: no OpenCL platform whose name contains \"%s\" (OCL_ICD_VENDORS=%s)\n", want,
           getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "unset");
    exit(77);
}

const char *cltest_device_filter(int argc, char **argv) { return arg_or_env(argc, argv, 2, "CLTEST_DEVICE", NULL); }

void *cltest_device_info(cl_device_id dev, cl_device_info param, size_t *size) {
    size_t n = 0;
    if (clGetDeviceInfo(dev, param, 0, NULL, &n) != CL_SUCCESS) return NULL;
    char *v = calloc(1, n + 1);
    if (v && clGetDeviceInfo(dev, param, n, v, NULL) != CL_SUCCESS) {
        free(v);
        return NULL;
    }
    if (size) *size = n;
    return v;
}

bool cltest_has_extension(cl_device_id dev, const char *name) {
    char *ext = cltest_device_info(dev, CL_DEVICE_EXTENSIONS, NULL);
    bool found = false;
    size_t len = strlen(name);
    for (const char *p = ext; p && (p = strstr(p, name)) != NULL; p += len)
        if ((p == ext || p[-1] == ' ') && (p[len] == ' ' || p[len] == 0)) found = true;
    free(ext);
    return found;
}

unsigned char *cltest_spirv_example(cl_device_id dev, size_t *size) {
    cl_uint bits = 0;
    clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
    char path[128];
    snprintf(path, sizeof path, "/usr/share/doc/python-pyopencl-doc/examples/add-vectors-%u.spv", bits);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    enum { MAX = 1 << 20 };
    unsigned char *bytes = malloc(MAX);
    *size = bytes ? fread(bytes, 1, MAX, f) : 0;
    fclose(f);
    return bytes;
}

/* The newest OpenCL C of version 2.0 or newer the device lists (CL_DEVICE_OPENCL_C_ALL_VERSIONS):
** the -cl-std= a program needs for non-uniform work-groups. */
static void newest_cl_std(cltest *t) {
    size_t size = 0;
    cl_name_version *all = cltest_device_info(t->device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &size);
    cl_version best = 0;
    for (size_t i = 0; all && i < size / sizeof *all; i++)
        if (CL_VERSION_MAJOR(all[i].version) >= 2 && all[i].version > best) best = all[i].version;
    free(all);
    t->cl_std[0] = 0;
    if (best) snprintf(t->cl_std, sizeof t->cl_std, "CL%u.%u", CL_VERSION_MAJOR(best), CL_VERSION_MINOR(best));
}

bool cltest_open(cltest *t, cl_platform_id platform, cl_device_id device, bool is_visa) {
    memset(t, 0, sizeof *t);
    t->platform = platform;
    t->device = device;
    t->is_visa = is_visa;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof t->device_name, t->device_name, NULL);
    char version[128] = "";
    unsigned major = 0, minor = 0;
    clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
    if (sscanf(version, "OpenCL %u.%u", &major, &minor) == 2) t->version = major * 10 + minor;
    cl_bool non_uniform = CL_FALSE;
    if (t->version >= 20)
        clGetDeviceInfo(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof non_uniform, &non_uniform, NULL);
    t->non_uniform = non_uniform;
    newest_cl_std(t);
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    t->ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && t->ctx, "clCreateContext for %s: %s", t->device_name, cltest_err_name(err));
    if (!t->ctx) return false;
    cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    t->queue = clCreateCommandQueueWithProperties(t->ctx, device, qprops, &err);
    CHECK(err == CL_SUCCESS && t->queue, "clCreateCommandQueueWithProperties: %s", cltest_err_name(err));
    printf("device: %s (OpenCL %u.%u, OpenCL C for 2.0+ programs: %s, non-uniform work-groups: %s)\n", t->device_name,
           t->version / 10, t->version % 10, t->cl_std[0] ? t->cl_std : "none", t->non_uniform ? "yes" : "no");
    return t->queue != NULL;
}

bool cltest_open_first(cltest *t, char *argv0) {
    bool is_visa = false;
    char *args[] = {argv0, NULL};
    cl_platform_id platform = cltest_platform(1, args, &is_visa);
    cl_device_id device = NULL;
    CHECK_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    return device && cltest_open(t, platform, device, is_visa);
}

void cltest_close(cltest *t) {
    if (t->queue) clReleaseCommandQueue(t->queue);
    if (t->ctx) clReleaseContext(t->ctx);
    t->queue = NULL;
    t->ctx = NULL;
}

char *cltest_build_log(cltest *t, cl_program prog) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    if (log && n) clGetProgramBuildInfo(prog, t->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    return log;
}

cl_program cltest_build(cltest *t, const char *src, const char *options) {
    cl_int err;
    cl_program prog = clCreateProgramWithSource(t->ctx, 1, &src, NULL, &err);
    CHECK(err == CL_SUCCESS && prog, "clCreateProgramWithSource: %s", cltest_err_name(err));
    if (!prog) return NULL;
    err = clBuildProgram(prog, 1, &t->device, options, NULL, NULL);
    if (err == CL_SUCCESS) return prog;
    char *log = cltest_build_log(t, prog);
    if (log && (strstr(log, "libocloc") || strstr(log, "intel-opencl-icd"))) {
        printf("SKIPPED: the ICD has no compiler: %s\n", log);
        if (cltest_failures()) exit(cltest_report()); /* a skip must not hide what failed before */
        exit(77);
    }
    CHECK(false, "clBuildProgram(%s): %s; log:\n%s", options ? options : "", cltest_err_name(err), log ? log : "");
    free(log);
    clReleaseProgram(prog);
    return NULL;
}

cl_kernel cltest_kernel(cl_program prog, const char *name) {
    if (!prog) return NULL;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    CHECK(err == CL_SUCCESS && k, "clCreateKernel(%s): %s", name, cltest_err_name(err));
    return k;
}

/* One query's protocol (see cltest.h). */
static void info_param_protocol(const char *what, cltest_info_fn fn, const void *obj, const cltest_info_param *p) {
    size_t size = (size_t)-1;
    cl_int err = fn(obj, p->id, 0, NULL, &size);
    CHECK(err == CL_SUCCESS, "%s %s: size query: %s", what, p->name, cltest_err_name(err));
    if (err != CL_SUCCESS) return;
    if (p->kind == CLTEST_FIXED)
        CHECK_POCL(p->pocl_wrong, size == p->size, "%s %s: param_value_size_ret %zu, the type has %zu", what, p->name,
                   size, p->size);
    if (p->kind == CLTEST_STRING) CHECK(size >= 1, "%s %s: a string of size %zu", what, p->name, size);
    if (p->kind == CLTEST_ARRAY)
        CHECK(size % p->size == 0, "%s %s: %zu bytes, not whole %zu-byte elements", what, p->name, size, p->size);
    if (size > (1u << 20)) return;
    enum { GUARD = 16 };
    unsigned char *buf = malloc(size + GUARD);
    memset(buf, 0xA5, size + GUARD);
    size_t again = (size_t)-1;
    CHECK_ERR(fn(obj, p->id, size, buf, &again), CL_SUCCESS);
    CHECK(again == size, "%s %s: size %zu, then %zu", what, p->name, size, again);
    bool guard_intact = true;
    for (size_t i = size; i < size + GUARD; i++) guard_intact &= buf[i] == 0xA5;
    CHECK(guard_intact, "%s %s: wrote past param_value_size %zu", what, p->name, size);
    if (p->kind == CLTEST_STRING && size >= 1)
        CHECK(buf[size - 1] == 0 && strlen((char *)buf) == size - 1, "%s %s: not a string of size %zu", what, p->name,
              size);
    if (size > 0) {
        err = fn(obj, p->id, size - 1, buf, NULL);
        CHECK(err == CL_INVALID_VALUE, "%s %s: param_value_size %zu (one short): %s, expected CL_INVALID_VALUE", what,
              p->name, size - 1, cltest_err_name(err));
    }
    CHECK(fn(obj, p->id, size + GUARD, buf, NULL) == CL_SUCCESS, "%s %s: a larger param_value_size refused", what,
          p->name);
    free(buf);
}

cl_uint cltest_refs(cltest_info_fn fn, const void *obj, cl_uint param) {
    cl_uint refs = 0;
    return fn(obj, param, sizeof refs, &refs, NULL) == CL_SUCCESS ? refs : 0;
}

void cltest_info_protocol(const char *what, cltest_info_fn fn, const void *obj, const cltest_info_param *params,
                          size_t count) {
    for (size_t i = 0; i < count; i++) info_param_protocol(what, fn, obj, &params[i]);
    char buf[64];
    size_t size;
    cl_int err = fn(obj, 0x7ff0, sizeof buf, buf, &size); /* no query of the core or of an extension */
    CHECK(err == CL_INVALID_VALUE, "%s: unknown param_name 0x7ff0: %s, expected CL_INVALID_VALUE", what,
          cltest_err_name(err));
}
