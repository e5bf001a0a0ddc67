/* bench_cl.c -- OpenCL kernels of the usual kinds as users write them, compiled by IGC (libocloc)
** for dg2 and pvc and run by visa with IGC's launch ABI (visa_program_*), beside the same source
** on pocl and on Oclgrind (issue 26).
**
** Kernels (OpenCL C below): the naive matmul c[i*n+j] = sum a[i*n+k]*b[k*n+j], one work-item per
** element; the same with 16 x 16 tiles in __local memory and barriers; the same with a row of 4
** outputs per work-item (vload4 / vstore4); a matrix-vector product, one work-item per row; a
** 5-point 2D stencil; a sum reduction (a strided loop, then a tree in __local memory with barriers,
** one partial sum per group).  Inputs are multiples of 1/4 in [-2, 2] and the stencil's weights
** powers of two, so every product and sum is exact in f32 whether or not a compiler fuses a*b + c:
** every implementation must give the bits of the C model here, which is checked before any time
** is printed (a wrong result fails the bench; a missed speed goal is reported, not a failure).
**
** Timing: wall time of one launch (visa_program_run; clEnqueueNDRangeKernel + clFinish), inputs
** already in place, averaged over runs filling at least --seconds; each side first runs once
** untimed, so neither IGC's nor pocl's compilation nor visa's preparation of the kernel
** (lowering) is counted; visa compiles a kernel in the background once it is hot (tiering), so
** the first timed launches may run partly interpreted; outputs start as NaNs and are checked.
** visa runs on one host thread, pocl with POCL_MAX_PTHREAD_COUNT=1 (set before the first OpenCL
** call), both in this process.
** Oclgrind (Debian oclgrind) runs a smaller size in a child process, `/usr/bin/oclgrind bench_cl
** --oclgrind-child KERNEL` (one untimed build, one timed launch), whose time is scaled to the big
** size by the work (MACs, points or elements).  Goals (issue 26): visa <= 5x pocl's time and
** >= 100x faster than Oclgrind; and two host threads >= 1.8x one on the naive matmul (pvc) with
** bit-identical results.  pocl and Oclgrind are each skipped with a notice when absent.
** Usage: bench_cl [--seconds S] [--device dg2-g10|pvc] [--no-refs] [KERNEL]...  (the last two for
** profiling: one device, visa alone)
*/
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "visa/visa.h"

#ifndef VISA_BENCH_OPENCL
#define VISA_BENCH_OPENCL 0 /* built without OpenCL's headers and loader: visa alone */
#endif
#if VISA_BENCH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#define GOAL_POCL 5.0 /* visa's time / pocl's at most */
#define GOAL_OCLGRIND 100.0 /* Oclgrind's (scaled) time / visa's at least */
#define GOAL_THREADS 1.8 /* one thread's time / two threads' at least */
#define OCLGRIND "/usr/bin/oclgrind"

static const char k_source[] =
    "__kernel void matmul_naive(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "    int i = get_global_id(1), j = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];\n"
    "    c[i * n + j] = s;\n"
    "}\n"
    "#define TS 16\n"
    "__kernel void matmul_tiled(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "    __local float at[TS][TS], bt[TS][TS];\n"
    "    int li = get_local_id(1), lj = get_local_id(0);\n"
    "    int i = get_global_id(1), j = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int k0 = 0; k0 < n; k0 += TS) {\n"
    "        at[li][lj] = a[i * n + k0 + lj];\n"
    "        bt[li][lj] = b[(k0 + li) * n + j];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TS; k++) s += at[li][k] * bt[k][lj];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[i * n + j] = s;\n"
    "}\n"
    "__kernel void matmul_vec4(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "    int i = get_global_id(1), j = get_global_id(0) * 4;\n"
    "    float4 s = 0.0f;\n"
    "    for (int k = 0; k < n; k++) s += a[i * n + k] * vload4(0, b + k * n + j);\n"
    "    vstore4(s, 0, c + i * n + j);\n"
    "}\n"
    "__kernel void matvec(__global const float *a, __global const float *x, __global float *y, int n) {\n"
    "    int i = get_global_id(0);\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];\n"
    "    y[i] = s;\n"
    "}\n"
    "__kernel void stencil5(__global const float *in, __global float *out, int w, int h) {\n"
    "    int x = get_global_id(0), y = get_global_id(1), i = y * w + x;\n"
    "    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {\n"
    "        out[i] = in[i];\n"
    "        return;\n"
    "    }\n"
    "    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);\n"
    "}\n"
    "__kernel void reduce_sum(__global const float *in, __global float *out, __local float *tmp, int n) {\n"
    "    int l = get_local_id(0), L = get_local_size(0);\n"
    "    float s = 0.0f;\n"
    "    for (int i = get_global_id(0); i < n; i += get_global_size(0)) s += in[i];\n"
    "    tmp[l] = s;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int o = L / 2; o > 0; o >>= 1) {\n"
    "        if (l < o) tmp[l] += tmp[l + o];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

/* One launch of a kernel at one size, with its inputs and the C model's output. */
typedef struct problem {
    unsigned n;
    unsigned dims;
    size_t global[2], local[2];
    float *in[2];
    size_t in_bytes[2];
    float *expect;
    size_t out_bytes;
    int ints[2];
    size_t local_bytes; /* the __local argument's size */
    double work; /* MACs, points or elements: what Oclgrind's time scales by */
} problem;

typedef struct kernel_def {
    const char *name;
    const char *args; /* one letter per OpenCL argument: I input buffer, O the output, L __local, S int */
    const char *unit; /* what problem.work counts */
    unsigned size, small; /* n for visa and pocl; n for Oclgrind */
    void (*setup)(problem *p); /* p->n given: inputs, launch geometry, the C model's output */
} kernel_def;

/* multiples of 1/4 in [-2, 2] from a xorshift sequence */
static float *quarters(size_t count, uint32_t seed) {
    float *v = malloc(count * sizeof *v);
    if (!v) return NULL;
    uint32_t x = seed;
    for (size_t i = 0; i < count; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        v[i] = (float)((int)(x % 17) - 8) * 0.25f;
    }
    return v;
}

static void set_2d(problem *p, size_t gx, size_t gy) {
    p->dims = 2;
    p->global[0] = gx, p->global[1] = gy;
    p->local[0] = p->local[1] = 16;
}

static void setup_matmul(problem *p, size_t gx) {
    size_t n = p->n, nn = n * n;
    p->in[0] = quarters(nn, 0x2545F491u), p->in[1] = quarters(nn, 0x9E3779B9u);
    p->in_bytes[0] = p->in_bytes[1] = p->out_bytes = nn * sizeof(float);
    p->expect = calloc(nn, sizeof(float));
    if (!p->in[0] || !p->in[1] || !p->expect) return;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++)
            for (size_t j = 0; j < n; j++) p->expect[i * n + j] += p->in[0][i * n + k] * p->in[1][k * n + j];
    p->ints[0] = (int)n;
    p->work = (double)n * n * n;
    set_2d(p, gx, n);
}
static void setup_matmul_1(problem *p) { setup_matmul(p, p->n); }
static void setup_matmul_4(problem *p) { setup_matmul(p, p->n / 4); }

static void setup_matvec(problem *p) {
    size_t n = p->n;
    p->in[0] = quarters(n * n, 0x2545F491u), p->in[1] = quarters(n, 0x9E3779B9u);
    p->in_bytes[0] = n * n * sizeof(float), p->in_bytes[1] = p->out_bytes = n * sizeof(float);
    p->expect = calloc(n, sizeof(float));
    if (!p->in[0] || !p->in[1] || !p->expect) return;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) p->expect[i] += p->in[0][i * n + j] * p->in[1][j];
    p->ints[0] = (int)n;
    p->work = (double)n * n;
    p->dims = 1, p->global[0] = n, p->local[0] = 64;
}

static void setup_stencil(problem *p) {
    size_t n = p->n, nn = n * n;
    p->in[0] = quarters(nn, 0x2545F491u);
    p->in_bytes[0] = p->out_bytes = nn * sizeof(float);
    p->expect = malloc(nn * sizeof(float));
    if (!p->in[0] || !p->expect) return;
    const float *in = p->in[0];
    for (size_t y = 0; y < n; y++)
        for (size_t x = 0; x < n; x++) {
            size_t i = y * n + x;
            if (x == 0 || y == 0 || x == n - 1 || y == n - 1) p->expect[i] = in[i];
            else p->expect[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
        }
    p->ints[0] = p->ints[1] = (int)n;
    p->work = (double)nn;
    set_2d(p, n, n);
}

/* n elements, 8 per work-item, 256 work-items per group; the tree in the kernel's order */
enum { REDUCE_PER_ITEM = 8, REDUCE_GROUP = 256 };
static void setup_reduce(problem *p) {
    size_t n = p->n, items = n / REDUCE_PER_ITEM, groups = items / REDUCE_GROUP;
    p->in[0] = quarters(n, 0x2545F491u);
    p->in_bytes[0] = n * sizeof(float), p->out_bytes = groups * sizeof(float);
    p->expect = malloc(p->out_bytes);
    float *tmp = malloc(REDUCE_GROUP * sizeof(float));
    if (!p->in[0] || !p->expect || !tmp) {
        free(tmp);
        return;
    }
    for (size_t g = 0; g < groups; g++) {
        for (size_t l = 0; l < REDUCE_GROUP; l++) {
            float s = 0.0f;
            for (size_t i = g * REDUCE_GROUP + l; i < n; i += items) s += p->in[0][i];
            tmp[l] = s;
        }
        for (size_t o = REDUCE_GROUP / 2; o > 0; o >>= 1)
            for (size_t l = 0; l < o; l++) tmp[l] += tmp[l + o];
        p->expect[g] = tmp[0];
    }
    free(tmp);
    p->ints[0] = (int)n;
    p->local_bytes = REDUCE_GROUP * sizeof(float);
    p->work = (double)n;
    p->dims = 1, p->global[0] = items, p->local[0] = REDUCE_GROUP;
}

static const kernel_def kernels[] = {
    {"matmul_naive", "IIOS", "MAC", 256, 96, setup_matmul_1},
    {"matmul_tiled", "IIOS", "MAC", 256, 96, setup_matmul_1},
    {"matmul_vec4", "IIOS", "MAC", 256, 128, setup_matmul_4},
    {"matvec", "IIOS", "MAC", 2048, 1024, setup_matvec},
    {"stencil5", "IOSS", "point", 1024, 512, setup_stencil},
    {"reduce_sum", "IOLS", "element", 1u << 22, 1u << 19, setup_reduce},
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0] };

static const char *const devices[] = {"dg2-g10", "pvc"};
enum { NDEVICES = sizeof devices / sizeof devices[0] };

static double g_min_seconds = 0.25;
static const char *g_device; /* --device: only this one of devices[] (profiling); NULL: both */
static int g_no_refs; /* --no-refs: visa alone (profiling) */
static unsigned g_rows[2], g_met[2]; /* per goal (pocl, Oclgrind): rows measured, goals met */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int problem_make(problem *p, const kernel_def *k, unsigned n) {
    memset(p, 0, sizeof *p);
    p->n = n;
    k->setup(p);
    return p->expect != NULL && p->in[0] != NULL && (k->args[1] != 'I' || p->in[1] != NULL);
}
static void problem_free(problem *p) { free(p->in[0]), free(p->in[1]), free(p->expect); }

/* 1 when got holds the model's bits; else prints the first difference */
static int check_output(const char *who, const kernel_def *k, const problem *p, const float *got) {
    if (!memcmp(got, p->expect, p->out_bytes)) return 1;
    for (size_t i = 0; i < p->out_bytes / sizeof(float); i++)
        if (memcmp(&got[i], &p->expect[i], sizeof(float))) {
            printf("%s: %s n=%u: WRONG RESULT at element %zu: %g, the C model %g\n", who, k->name, p->n, i,
                   (double)got[i], (double)p->expect[i]);
            break;
        }
    return 0;
}

/* -- visa ---------------------------------------------------------------------------------------- */

typedef struct visa_result {
    double seconds; /* per launch */
    uint64_t instructions; /* vISA instructions per launch */
} visa_result;

/* Runs k on visa (`threads` host threads) into out: once checked, then timed. 1 when right. */
static int visa_measure(const visa_program *prog, const kernel_def *k, const problem *p, unsigned threads, float *out,
                        visa_result *r) {
    visa_cl_arg args[4];
    size_t nargs = strlen(k->args), nin = 0, nint = 0;
    for (size_t a = 0; a < nargs; a++) {
        visa_cl_arg *ca = &args[a];
        switch (k->args[a]) {
        case 'I': *ca = (visa_cl_arg){VISA_CL_ARG_BUFFER, p->in[nin], p->in_bytes[nin]}, nin++; break;
        case 'O': *ca = (visa_cl_arg){VISA_CL_ARG_BUFFER, out, p->out_bytes}; break;
        case 'L': *ca = (visa_cl_arg){VISA_CL_ARG_LOCAL, NULL, p->local_bytes}; break;
        default: *ca = (visa_cl_arg){VISA_CL_ARG_VALUE, (void *)&p->ints[nint++], sizeof(int)}; break;
        }
    }
    visa_cl_launch l;
    memset(&l, 0, sizeof l);
    l.struct_size = sizeof l;
    l.kernel = k->name;
    l.work_dim = p->dims;
    for (unsigned d = 0; d < p->dims; d++) l.global_size[d] = p->global[d], l.local_size[d] = p->local[d];
    l.threads = threads;
    memset(out, 0xff, p->out_bytes); /* NaNs: an output the kernel does not write shows */
    visa_run_stats st;
    if (visa_program_run(prog, &l, args, nargs, &st) != VISA_OK) {
        printf("visa: %s n=%u: the launch failed\n", k->name, p->n);
        return 0;
    }
    if (!check_output("visa", k, p, out)) return 0;
    r->instructions = st.instructions;
    double total = 0;
    int runs = 0;
    do {
        double t0 = now();
        visa_status s = visa_program_run(prog, &l, args, nargs, NULL);
        total += now() - t0, runs++;
        if (s != VISA_OK) return 0;
    } while (total < g_min_seconds);
    r->seconds = total / runs;
    /* the timed runs rewrite what the first one wrote: poison it again and check one more run */
    memset(out, 0xff, p->out_bytes);
    return visa_program_run(prog, &l, args, nargs, NULL) == VISA_OK && check_output("visa", k, p, out);
}

/* -- pocl and Oclgrind through the OpenCL API ---------------------------------------------------- */

typedef enum ref_status { REF_OK, REF_WRONG, REF_SKIPPED } ref_status;

#if VISA_BENCH_OPENCL
typedef struct cl_side {
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
    cl_mem mem[3];
} cl_side;

static void cl_side_release(cl_side *s) {
    for (int i = 0; i < 3; i++)
        if (s->mem[i]) clReleaseMemObject(s->mem[i]);
    if (s->kernel) clReleaseKernel(s->kernel);
    if (s->program) clReleaseProgram(s->program);
    if (s->queue) clReleaseCommandQueue(s->queue);
    if (s->ctx) clReleaseContext(s->ctx);
}

/* The first device of the platform whose name contains `part`; 0 when there is none. */
static cl_device_id cl_find_device(const char *part, char *name, size_t name_size) {
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS) return 0;
    for (cl_uint i = 0; i < np && i < 16; i++) {
        char pname[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        cl_device_id dev;
        if (strstr(pname, part) && clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS) {
            clGetDeviceInfo(dev, CL_DEVICE_NAME, name_size, name, NULL);
            return dev;
        }
    }
    return 0;
}

/* Context, program, kernel, buffers and arguments of k on dev; 1 when all were made.  The output
** starts as `poison` (NaNs, as visa's: an element the kernel does not write shows). */
static int cl_side_open(cl_side *s, cl_device_id dev, const kernel_def *k, const problem *p, void *poison) {
    cl_int err;
    s->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!s->ctx) return 0;
    s->queue = clCreateCommandQueue(s->ctx, dev, 0, &err);
    const char *src = k_source;
    s->program = clCreateProgramWithSource(s->ctx, 1, &src, NULL, &err);
    if (!s->queue || !s->program || clBuildProgram(s->program, 1, &dev, "", NULL, NULL) != CL_SUCCESS) return 0;
    s->kernel = clCreateKernel(s->program, k->name, &err);
    if (!s->kernel) return 0;
    size_t nin = 0, nint = 0;
    for (cl_uint a = 0; k->args[a]; a++) {
        switch (k->args[a]) {
        case 'I':
            s->mem[nin] =
                clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, p->in_bytes[nin], p->in[nin], &err);
            err = s->mem[nin] ? clSetKernelArg(s->kernel, a, sizeof(cl_mem), &s->mem[nin]) : err;
            nin++;
            break;
        case 'O':
            s->mem[2] = clCreateBuffer(s->ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, p->out_bytes, poison, &err);
            err = s->mem[2] ? clSetKernelArg(s->kernel, a, sizeof(cl_mem), &s->mem[2]) : err;
            break;
        case 'L': err = clSetKernelArg(s->kernel, a, p->local_bytes, NULL); break;
        default: err = clSetKernelArg(s->kernel, a, sizeof(int), &p->ints[nint++]); break;
        }
        if (err != CL_SUCCESS) return 0;
    }
    return 1;
}

static int cl_launch(cl_side *s, const problem *p) {
    return clEnqueueNDRangeKernel(s->queue, s->kernel, p->dims, NULL, p->global, p->local, 0, NULL, NULL) ==
               CL_SUCCESS &&
           clFinish(s->queue) == CL_SUCCESS;
}

/* Runs k on the platform named by `part`: `untimed` runs, timed runs filling min_seconds (at least
** one), then one more on a poisoned output, checked.  *seconds: per launch. */
static ref_status cl_measure(const char *part, const kernel_def *k, const problem *p, int untimed, double min_seconds,
                             double *seconds) {
    char dname[256] = "";
    cl_device_id dev = cl_find_device(part, dname, sizeof dname);
    if (!dev) return REF_SKIPPED;
    cl_side s;
    memset(&s, 0, sizeof s);
    float *out = malloc(p->out_bytes);
    ref_status rs = REF_WRONG;
    if (out) memset(out, 0xff, p->out_bytes);
    if (!out || !cl_side_open(&s, dev, k, p, out)) {
        printf("%s: %s: the OpenCL build or setup failed\n", part, k->name);
        goto done;
    }
    int launched = 1;
    for (int i = 0; i < untimed; i++) launched = launched && cl_launch(&s, p);
    double total = 0;
    int runs = 0;
    do {
        double t0 = now();
        launched = launched && cl_launch(&s, p);
        total += now() - t0, runs++;
    } while (launched && total < min_seconds);
    *seconds = total / runs;
    /* the timed runs rewrite what an earlier one wrote: poison the output again, check one more run */
    const cl_uint poison = 0xffffffffu;
    launched =
        launched &&
        clEnqueueFillBuffer(s.queue, s.mem[2], &poison, sizeof poison, 0, p->out_bytes, 0, NULL, NULL) == CL_SUCCESS &&
        cl_launch(&s, p);
    if (!launched) printf("%s: %s: the launch failed\n", part, k->name);
    else if (clEnqueueReadBuffer(s.queue, s.mem[2], CL_TRUE, 0, p->out_bytes, out, 0, NULL, NULL) == CL_SUCCESS &&
             check_output(dname, k, p, out))
        rs = REF_OK;
done:
    free(out);
    cl_side_release(&s);
    return rs;
}

/* The pocl device's name and compute units (1 when POCL_MAX_PTHREAD_COUNT=1 took). */
static int pocl_describe(char *name, size_t size) {
    cl_device_id dev = cl_find_device("Portable", name, size);
    cl_uint units = 0;
    if (dev) clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    return dev ? (int)units : -1;
}
#else
static ref_status cl_measure(const char *part, const kernel_def *k, const problem *p, int untimed, double min_seconds,
                             double *seconds) {
    (void)part, (void)k, (void)p, (void)untimed, (void)min_seconds, (void)seconds;
    return REF_SKIPPED;
}
static int pocl_describe(char *name, size_t size) {
    (void)name, (void)size;
    return -1;
}
#endif

/* The child under Oclgrind: k at its small size, one timed launch; prints "seconds S". */
static int oclgrind_child(const char *name) {
    for (int i = 0; i < NKERNELS; i++) {
        if (strcmp(kernels[i].name, name)) continue;
        problem p;
        double s = 0;
        ref_status rs = REF_WRONG;
        /* no untimed launch: Oclgrind's one-off work is in the build, and a second launch would
        ** double a run of tens of seconds */
        if (problem_make(&p, &kernels[i], kernels[i].small)) rs = cl_measure("Oclgrind", &kernels[i], &p, 0, 0, &s);
        problem_free(&p);
        if (rs == REF_OK) printf("seconds %.9f\n", s);
        return rs == REF_OK ? 0 : 1;
    }
    return 2;
}

/* Runs `self --oclgrind-child NAME` under Oclgrind; its launch time (at the small size) in *seconds. */
static ref_status oclgrind_measure(const char *self, const kernel_def *k, double *seconds) {
    if (!VISA_BENCH_OPENCL || access(OCLGRIND, X_OK) != 0) return REF_SKIPPED;
    int fds[2];
    if (pipe(fds) != 0) return REF_WRONG;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = {(char *)OCLGRIND, (char *)self, (char *)"--oclgrind-child", (char *)k->name, NULL};
    extern char **environ;
    pid_t pid;
    int spawned = posix_spawn(&pid, OCLGRIND, &fa, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    char line[256] = "";
    FILE *f = fdopen(fds[0], "r");
    int got = 0;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "seconds %lf", seconds) == 1) got = 1;
            else fputs(line, stdout); /* the child's findings */
        fclose(f);
    } else close(fds[0]);
    int status = 0;
    if (spawned) waitpid(pid, &status, 0);
    return spawned && got && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? REF_OK : REF_WRONG;
}

/* -- the table ----------------------------------------------------------------------------------- */

typedef struct ref_times {
    ref_status pocl, oclgrind;
    double pocl_s, oclgrind_s; /* oclgrind_s scaled to the big size */
} ref_times;

static void print_header(void) {
    printf("%-12s %-7s %7s %13s %9s %9s %9s %12s %18s %10s\n", "kernel", "device", "n", "work", "vISA M/s", "visa ms",
           "pocl ms", "visa/pocl", "Oclgrind ms", "Ogr/visa");
}

static void print_row(const kernel_def *k, const char *dev, const problem *p, const visa_result *v,
                      const ref_times *rt) {
    char work[32], pocl[32] = "-", ratio_p[40] = "skipped", ogr[32] = "-", ratio_o[40] = "skipped";
    snprintf(work, sizeof work, "%.3g %s", p->work, k->unit);
    if (rt->pocl == REF_OK) {
        double r = v->seconds / rt->pocl_s;
        snprintf(pocl, sizeof pocl, "%.3f", rt->pocl_s * 1e3);
        snprintf(ratio_p, sizeof ratio_p, "%.1fx %s", r, r <= GOAL_POCL ? "met" : "MISS");
        g_rows[0]++, g_met[0] += r <= GOAL_POCL;
    }
    if (rt->oclgrind == REF_OK) {
        double r = rt->oclgrind_s / v->seconds;
        snprintf(ogr, sizeof ogr, "%.0f (n=%u)", rt->oclgrind_s * 1e3, k->small);
        snprintf(ratio_o, sizeof ratio_o, "%.0fx %s", r, r >= GOAL_OCLGRIND ? "met" : "MISS");
        g_rows[1]++, g_met[1] += r >= GOAL_OCLGRIND;
    }
    printf("%-12s %-7s %7u %13s %9.1f %9.2f %9s %12s %18s %10s\n", k->name, dev, p->n, work,
           (double)v->instructions / v->seconds / 1e6, v->seconds * 1e3, pocl, ratio_p, ogr, ratio_o);
}

/* The naive matmul on pvc again on two host threads: same bits as one thread, and the speed-up. */
static int bench_threads(const visa_program *prog, const problem *p, const visa_result *one, const float *one_out) {
    float *out = malloc(p->out_bytes);
    visa_result two = {0, 0};
    int ok = out && visa_measure(prog, &kernels[0], p, 2, out, &two) && !memcmp(out, one_out, p->out_bytes);
    if (ok) {
        double x = one->seconds / two.seconds;
        printf("threads: %s on pvc, n=%u: %.2f ms on 1 host thread, %.2f ms on 2: x%.2f (goal >= %.1fx: %s), "
               "bit-identical\n",
               kernels[0].name, p->n, one->seconds * 1e3, two.seconds * 1e3, x, GOAL_THREADS,
               x >= GOAL_THREADS ? "met" : "MISS");
    } else printf("threads: %s on 2 host threads: WRONG RESULT or failed launch\n", kernels[0].name);
    free(out);
    return ok;
}

static void diag_print(void *ud, const visa_diag *d) {
    (void)ud;
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, d->code, d->message);
}

/* The two programs (IGC's builds for each device); 0 with a notice when libocloc is missing. */
static int build_programs(visa_ctx *ctx, visa_program *progs[NDEVICES], int *failed) {
    for (int d = 0; d < NDEVICES; d++) {
        if (g_device && strcmp(g_device, devices[d])) continue;
        visa_program_opts po = {sizeof po, VISA_PROGRAM_OPENCL_C, devices[d], NULL, NULL};
        double t0 = now();
        visa_status s = visa_program_create(ctx, "bench_cl.cl", k_source, strlen(k_source), &po, &progs[d]);
        if (s == VISA_E_UNSUPPORTED) {
            printf("bench_cl: skipped: no IGC (libocloc; Debian intel-opencl-icd) to compile the kernels\n");
            return 0;
        }
        if (s != VISA_OK) {
            printf("bench_cl: IGC's build for %s failed:\n%s\n", devices[d],
                   progs[d] ? visa_program_build_log(progs[d]) : "");
            *failed = 1;
            return 0;
        }
        printf("IGC built the kernels for %s (%s) in %.2f s\n", devices[d], visa_program_device(progs[d]), now() - t0);
    }
    return 1;
}

/* The references of one kernel, each printed as a notice when skipped. */
static int measure_refs(const char *self, const kernel_def *k, const problem *p, ref_times *rt) {
    if (g_no_refs) {
        rt->pocl = rt->oclgrind = REF_SKIPPED;
        return 1;
    }
    rt->pocl = cl_measure("Portable", k, p, 1, g_min_seconds, &rt->pocl_s);
    double small_s = 0;
    rt->oclgrind = oclgrind_measure(self, k, &small_s);
    if (rt->oclgrind == REF_OK) {
        problem sp;
        if (problem_make(&sp, k, k->small)) rt->oclgrind_s = small_s * p->work / sp.work;
        problem_free(&sp);
    }
    return rt->pocl != REF_WRONG && rt->oclgrind != REF_WRONG;
}

static int bench_kernel(const char *self, visa_program *progs[NDEVICES], const kernel_def *k) {
    problem p;
    int ok = problem_make(&p, k, k->size);
    float *out = ok ? malloc(p.out_bytes) : NULL;
    ref_times rt;
    memset(&rt, 0, sizeof rt);
    int refs_ok = out && measure_refs(self, k, &p, &rt);
    ok = out != NULL;
    for (int d = 0; ok && d < NDEVICES; d++) {
        if (!progs[d]) continue;
        visa_result v = {0, 0};
        if (!visa_measure(progs[d], k, &p, 1, out, &v)) ok = 0;
        else print_row(k, devices[d], &p, &v, &rt);
        if (ok && k == &kernels[0] && d == NDEVICES - 1) ok = bench_threads(progs[d], &p, &v, out);
    }
    ok = ok && refs_ok;
    if (!out) printf("%s: out of memory\n", k->name);
    free(out);
    problem_free(&p);
    return ok;
}

static void print_intro(void) {
    char pname[256] = "";
    int units = pocl_describe(pname, sizeof pname);
    printf("bench_cl: OpenCL C kernels built by IGC, run by visa on 1 host thread with IGC's ABI, beside pocl "
           "(POCL_MAX_PTHREAD_COUNT=1) and Oclgrind\n");
    printf("times: one launch, inputs in place, after an untimed run (no compilation counted), "
           "averaged over >= %.2f s; every result checked bit for bit against a C model\n",
           g_min_seconds);
    printf("goals: visa/pocl <= %.0fx; Oclgrind (small n, scaled by the work) / visa >= %.0fx\n", GOAL_POCL,
           GOAL_OCLGRIND);
    if (!VISA_BENCH_OPENCL) printf("pocl, Oclgrind: skipped (bench_cl built without ocl-icd-opencl-dev)\n");
    else if (units < 0)
        printf("pocl: skipped (no OpenCL platform \"Portable Computing Language\": Debian pocl-opencl-icd)\n");
    else printf("pocl: %s, %d compute unit%s\n", pname, units, units == 1 ? "" : "s");
    if (VISA_BENCH_OPENCL && access(OCLGRIND, X_OK) != 0)
        printf("Oclgrind: skipped (no %s: Debian oclgrind)\n", OCLGRIND);
}

/* This program's file, for Oclgrind to run (argv[0] when /proc/self/exe cannot be read). */
static const char *self_path(const char *argv0) {
    static char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return argv0;
    path[n] = 0;
    return path;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--oclgrind-child")) return oclgrind_child(argv[2]);
    int want[NKERNELS] = {0}, any = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seconds") && a + 1 < argc) {
            g_min_seconds = atof(argv[++a]);
            continue;
        }
        if (!strcmp(argv[a], "--device") && a + 1 < argc) {
            g_device = argv[++a];
            continue;
        }
        if (!strcmp(argv[a], "--no-refs")) {
            g_no_refs = 1;
            continue;
        }
        int found = 0;
        for (int k = 0; k < NKERNELS; k++)
            if (!strcmp(argv[a], kernels[k].name)) want[k] = found = any = 1;
        if (!found) {
            fprintf(
                stderr,
                "usage: bench_cl [--seconds S] [--device dg2-g10|pvc] [--no-refs] [KERNEL]...  (kernels: matmul_naive matmul_tiled "
                "matmul_vec4 matvec stencil5 reduce_sum)\n");
            return 2;
        }
    }
    int known = !g_device;
    for (int d = 0; d < NDEVICES; d++) known |= g_device && !strcmp(g_device, devices[d]);
    if (!known) {
        fprintf(stderr, "bench_cl: --device: dg2-g10 or pvc\n");
        return 2;
    }
    setenv("POCL_MAX_PTHREAD_COUNT", "1", 1); /* before the first OpenCL call */
    visa_ctx_desc desc = {.struct_size = sizeof desc, .on_diag = diag_print};
    visa_ctx *ctx;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) return 1;
    visa_program *progs[NDEVICES] = {NULL};
    int failed = 0;
    print_intro();
    if (build_programs(ctx, progs, &failed)) {
        print_header();
        for (int k = 0; k < NKERNELS; k++)
            if (!any || want[k]) failed += !bench_kernel(self_path(argv[0]), progs, &kernels[k]);
        printf("goals met: visa/pocl <= %.0fx on %u of %u rows, Oclgrind/visa >= %.0fx on %u of %u; results %s\n",
               GOAL_POCL, g_met[0], g_rows[0], GOAL_OCLGRIND, g_met[1], g_rows[1], failed ? "WRONG" : "all right");
    }
    for (int d = 0; d < NDEVICES; d++) visa_program_destroy(progs[d]);
    visa_ctx_destroy(ctx);
    return failed ? 1 : 0;
}
