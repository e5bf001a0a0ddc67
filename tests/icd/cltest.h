/* cltest.h -- what the OpenCL API tests share: checks counted and reported one line per failure,
** error names, the choice of platform and device (by a substring of the platform's name: argv[1]
** or $CLTEST_PLATFORM, default "visa"; of the device's: argv[2] or $CLTEST_DEVICE), builds that skip
** the run (exit 77) when the ICD cannot reach its compiler, and the param_value_size protocol of
** the clGet*Info queries.  The tests are written against the OpenCL 3.0 specification only, so that
** an independent implementation (pocl) passes them: a check that holds only for visa's emulated
** GPUs is made only when the platform is visa's (cltest.is_visa). */
#ifndef VISA_CLTEST_H
#define VISA_CLTEST_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: hosts still call it */
#include <CL/cl.h>
#include <CL/cl_ext.h> /* CL_PLATFORM_ICD_SUFFIX_KHR */

#include <stdbool.h>
#include <stddef.h>

/* One device under test: the platform, the device, a context holding only it and an in-order
** queue with profiling. */
typedef struct cltest {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    bool is_visa; /* the platform's name contains "visa": GPU-only facts are checked */
    unsigned version; /* the device's OpenCL version, major * 10 + minor */
    char device_name[256];
    char cl_std[16]; /* the newest OpenCL C >= 2.0 the device compiles ("CL3.0"), or "" */
    bool non_uniform; /* CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT */
} cltest;

/* Counting checks.  Each failed check prints one line naming its place; cltest_report prints
** "N passed, M failed" and gives the exit status. */
void cltest_check(bool ok, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void cltest_check_err(cl_int got, cl_int want, const char *what, const char *file, int line);
/* A check the reference implementation (pocl, the platform "Portable Computing Language") is known
** to fail, reason being why the specification says otherwise: on pocl a failure is printed as a
** deviation and not counted, on any other platform it fails. */
void cltest_check_pocl(bool ok, const char *reason, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int cltest_report(void);
bool cltest_platform_is_pocl(void);
int cltest_failures(void);
const char *cltest_err_name(cl_int err);

#define CHECK(cond, ...) cltest_check((cond), __FILE__, __LINE__, __VA_ARGS__)
/* CHECK_ERR(call, CL_INVALID_VALUE): the call answers exactly that code. */
#define CHECK_ERR(call, want) cltest_check_err((call), (want), #call, __FILE__, __LINE__)
#define CHECK_OK(call) CHECK_ERR(call, CL_SUCCESS)
#define CHECK_POCL(reason, cond, ...) cltest_check_pocl((cond), (reason), __FILE__, __LINE__, __VA_ARGS__)

/* The platform whose name contains argv[1] / $CLTEST_PLATFORM / "visa"; exits 77 when none does. */
cl_platform_id cltest_platform(int argc, char **argv, bool *is_visa);
/* The substring a device's name must contain (argv[2] / $CLTEST_DEVICE), NULL for every device. */
const char *cltest_device_filter(int argc, char **argv);
/* Fills t for the device: a context, a profiling in-order queue, its version and OpenCL C. */
bool cltest_open(cltest *t, cl_platform_id platform, cl_device_id device, bool is_visa);
/* cltest_open of the first device of the default platform (cltest_platform with no arguments). */
bool cltest_open_first(cltest *t, char *argv0);
void cltest_close(cltest *t);

/* A program built from source for t's device.  A build that fails because the ICD has no
** compiler (libocloc / intel-opencl-icd absent: the build log says so) ends the run with 77. */
cl_program cltest_build(cltest *t, const char *src, const char *options);
cl_kernel cltest_kernel(cl_program prog, const char *name);
/* The program's build log for t's device, malloc'd. */
char *cltest_build_log(cltest *t, cl_program prog);
/* clGetDeviceInfo of a string (or any variable-size value), malloc'd; NULL on error. */
void *cltest_device_info(cl_device_id dev, cl_device_info param, size_t *size);
bool cltest_has_extension(cl_device_id dev, const char *name);
/* pyopencl's SPIR-V example for the device's address bits (kernel sum(a, b, res): res = a + b),
** malloc'd; NULL when python-pyopencl-doc is not installed. */
unsigned char *cltest_spirv_example(cl_device_id dev, size_t *size);

/* The param_value_size / param_value_size_ret protocol of one query (section 4 and 5 of the
** specification): the size asked with a NULL value; the value with exactly that size (and not a
** byte beyond it written); CL_INVALID_VALUE when param_value_size is one byte short; a fixed-size
** type answering exactly its size; a string NUL-terminated at its size. */
typedef cl_int (*cltest_info_fn)(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret);
typedef enum { CLTEST_FIXED, CLTEST_STRING, CLTEST_ARRAY } cltest_info_kind;
typedef struct cltest_info_param {
    cl_uint id;
    const char *name;
    cltest_info_kind kind;
    size_t size; /* FIXED: the type's size; ARRAY: the element's */
    const char *pocl_wrong; /* why pocl's answer is not the specification's (see CHECK_POCL), or NULL */
} cltest_info_param;
#define CLTEST_FIXED_P(id, type) \
    { id, #id, CLTEST_FIXED, sizeof(type), NULL }
#define CLTEST_FIXED_POCL_P(id, type, why) \
    { id, #id, CLTEST_FIXED, sizeof(type), why }
#define CLTEST_STRING_P(id) \
    { id, #id, CLTEST_STRING, 1, NULL }
#define CLTEST_ARRAY_P(id, type) \
    { id, #id, CLTEST_ARRAY, sizeof(type), NULL }

/* An object's reference count, by its info query (CL_*_REFERENCE_COUNT); 0 on error. */
cl_uint cltest_refs(cltest_info_fn fn, const void *obj, cl_uint param);

/* Checks every row of params, then that an unknown param_name answers CL_INVALID_VALUE. */
void cltest_info_protocol(const char *what, cltest_info_fn fn, const void *obj, const cltest_info_param *params,
                          size_t count);

/* Two-object queries (build info, work-group info, arg info) go through these pairs. */
typedef struct cltest_pair {
    const void *a;
    const void *b;
} cltest_pair;

#define CLTEST_COUNT(a) (sizeof(a) / sizeof *(a))

/* The groups of test_cl_api, one file each. */
void test_platform_device(cltest *t);
void test_contexts_queues(cltest *t);
void test_buffers(cltest *t);
void test_buffer_rects_maps(cltest *t);
void test_programs(cltest *t);
void test_kernels(cltest *t);
void test_ndrange(cltest *t);
void test_events(cltest *t);
void test_misuse(cltest *t);

#endif
