/* test_cl_threads.c -- the OpenCL API from two host threads at once (issue 25: "thread-safe as the
** specification requires"): each thread has its own queue on one shared context, its own kernel
** object (clSetKernelArg is the one call the specification does not make thread-safe on a shared
** kernel) and buffers, and runs kernels and transfers many times, every result checked against C;
** both threads retain, read and release one shared buffer, whose destructor callback runs once
** after the last release.  Built a second time with ThreadSanitizer (test_cl_threads_tsan), which
** sees the races of this program and of the ICD's calls into it, though not inside an ICD that
** is not itself built with TSan.  A TSan process cannot compile through visa's ICD (libocloc opens
** IGC with RTLD_DEEPBIND, which the sanitizer refuses), so the sanitized run takes the program's
** binary, saved by an unsanitized run before it (--save-binary, --binary).
**
** usage: test_cl_threads [--save-binary FILE | --binary FILE] [PLATFORM [DEVICE]]
** (PLATFORM, DEVICE as for test_cl_api; the first matching device) */
#define _POSIX_C_SOURCE 200809L
#include "cltest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { THREADS = 2, N = 512, SHARED_N = 256 };

static const char *source = "kernel void affine(global const int *in, global int *out, int a, int b) {\n"
                            "    size_t i = get_global_id(0);\n"
                            "    out[i] = in[i] * a + b + (int)get_local_id(0);\n"
                            "}\n";

typedef struct worker {
    cltest *t;
    cl_program prog;
    cl_mem shared;
    int id, iterations;
    size_t local;
} worker;

static void expect_shared(cl_command_queue q, cl_mem shared, int id, int iteration) {
    int got[SHARED_N];
    CHECK_OK(clEnqueueReadBuffer(q, shared, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = -1;
    for (int i = 0; i < SHARED_N && bad < 0; i++)
        if (got[i] != i * 7) bad = i;
    CHECK(bad < 0, "thread %d, iteration %d: shared[%d] = %d", id, iteration, bad, bad >= 0 ? got[bad] : 0);
}

/* One iteration: a fresh input buffer written without blocking, the kernel, a copy, a fill of
** part of the copy, and a blocking read checked against the same steps in C. */
static void iteration(worker *w, cl_command_queue q, cl_kernel k, cl_mem out, cl_mem copy, int it) {
    cltest *t = w->t;
    int in[N], got[N];
    for (int i = 0; i < N; i++) in[i] = (i ^ (it * 31)) - w->id * 1000;
    cl_int err;
    cl_mem input = clCreateBuffer(t->ctx, CL_MEM_READ_ONLY, sizeof in, NULL, &err);
    CHECK(input != NULL, "thread %d: clCreateBuffer: %s", w->id, cltest_err_name(err));
    if (!input) return;
    cl_event written;
    CHECK_OK(clEnqueueWriteBuffer(q, input, CL_FALSE, 0, sizeof in, in, 0, NULL, &written));
    int a = it + 2, b = w->id * 100000;
    CHECK_OK(clSetKernelArg(k, 0, sizeof input, &input));
    CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 2, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 3, sizeof b, &b));
    size_t global = N;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &w->local, 1, &written, NULL));
    CHECK_OK(clEnqueueCopyBuffer(q, out, copy, 0, 0, sizeof got, 0, NULL, NULL));
    int pattern = -it;
    CHECK_OK(clEnqueueFillBuffer(q, copy, &pattern, sizeof pattern, 64 * sizeof(int), 32 * sizeof(int), 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(q, copy, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = -1, want = 0;
    for (int i = 0; i < N && bad < 0; i++) {
        want = i >= 64 && i < 96 ? -it : in[i] * a + b + (int)((size_t)i % w->local);
        if (got[i] != want) bad = i;
    }
    CHECK(bad < 0, "thread %d, iteration %d: out[%d] = %d, expected %d", w->id, it, bad, bad >= 0 ? got[bad] : 0, want);
    clReleaseEvent(written);
    clReleaseMemObject(input);
}

static void *work(void *arg) {
    worker *w = arg;
    cltest *t = w->t;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(t->ctx, t->device, NULL, &err);
    cl_kernel k = clCreateKernel(w->prog, "affine", &err);
    cl_mem out = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, NULL);
    cl_mem copy = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, NULL);
    CHECK(q && k && out && copy, "thread %d: its queue, kernel and buffers", w->id);
    for (int it = 0; q && k && out && copy && it < w->iterations; it++) {
        iteration(w, q, k, out, copy, it);
        CHECK_OK(clRetainMemObject(w->shared));
        expect_shared(q, w->shared, w->id, it);
        CHECK_OK(clReleaseMemObject(w->shared));
    }
    CHECK_OK(clFinish(q));
    if (copy) clReleaseMemObject(copy);
    if (out) clReleaseMemObject(out);
    if (k) clReleaseKernel(k);
    if (q) clReleaseCommandQueue(q);
    return NULL;
}

static void CL_CALLBACK shared_gone(cl_mem m, void *user_data) {
    (void)m;
    atomic_fetch_add((atomic_int *)user_data, 1);
}

/* The program from source, or from a binary file when binary_path is given (NULL: no file). */
static cl_program program_for(cltest *t, const char *binary_path) {
    if (!binary_path) return cltest_build(t, source, NULL);
    FILE *f = fopen(binary_path, "rb");
    if (!f) {
        printf("SKIPPED: no program binary %s (its saving run was skipped)\n", binary_path);
        exit(77);
    }
    static unsigned char bytes[1 << 22];
    size_t size = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    const unsigned char *list[1] = {bytes};
    cl_int status, err;
    cl_program prog = clCreateProgramWithBinary(t->ctx, 1, &t->device, &size, list, &status, &err);
    CHECK(prog && err == CL_SUCCESS, "clCreateProgramWithBinary of %s: %s", binary_path, cltest_err_name(err));
    if (prog) CHECK_OK(clBuildProgram(prog, 1, &t->device, NULL, NULL, NULL));
    return prog;
}

static void save_binary(cltest *t, const char *path) {
    cl_program prog = cltest_build(t, source, NULL);
    size_t size = 0;
    if (prog) CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bytes = malloc(size ? size : 1);
    unsigned char *list[1] = {bytes};
    if (size) CHECK_OK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof list, list, NULL));
    FILE *f = size ? fopen(path, "wb") : NULL;
    CHECK(f && fwrite(bytes, 1, size, f) == size && fclose(f) == 0, "writing %zu bytes of binary to %s", size, path);
    free(bytes);
    if (prog) clReleaseProgram(prog);
}

static void run_threads(cltest *t, int iterations, const char *binary_path) {
    cl_program prog = program_for(t, binary_path);
    cl_kernel probe = cltest_kernel(prog, "affine");
    if (!probe) return;
    size_t wg = 0;
    clGetKernelWorkGroupInfo(probe, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clReleaseKernel(probe);
    int values[SHARED_N];
    for (int i = 0; i < SHARED_N; i++) values[i] = i * 7;
    cl_int err;
    cl_mem shared = clCreateBuffer(t->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof values, values, &err);
    atomic_int gone = 0;
    CHECK_OK(clSetMemObjectDestructorCallback(shared, shared_gone, &gone));
    size_t local = 1; /* a power of two dividing N */
    while (local * 2 <= wg && local < 64) local *= 2;
    worker workers[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (worker){t, prog, shared, i, iterations, local};
        CHECK(pthread_create(&threads[i], NULL, work, &workers[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    cl_uint refs = 0;
    clGetMemObjectInfo(shared, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CHECK(refs == 1, "the shared buffer after both threads released what they retained: %u references", refs);
    CHECK(atomic_load(&gone) == 0, "the shared buffer's destructor ran while referenced");
    CHECK_OK(clReleaseMemObject(shared));
    for (int i = 0; i < 2000 && atomic_load(&gone) == 0; i++) nanosleep(&(struct timespec){0, 1000000}, NULL);
    CHECK(atomic_load(&gone) == 1, "the shared buffer's destructor ran %d times", atomic_load(&gone));
    clReleaseProgram(prog);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *save = NULL, *binary = NULL;
    while (argc > 2 && (!strcmp(argv[1], "--save-binary") || !strcmp(argv[1], "--binary"))) {
        *(!strcmp(argv[1], "--binary") ? &binary : &save) = argv[2];
        argc -= 2, argv += 2;
    }
    bool is_visa = false;
    cl_platform_id platform = cltest_platform(argc, argv, &is_visa);
    const char *filter = cltest_device_filter(argc, argv);
    const char *env = getenv("CLTEST_ITERATIONS");
    int iterations = env ? atoi(env) : 100;
    cl_device_id devices[16];
    cl_uint n = 0;
    CHECK_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, devices, &n));
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof name, name, NULL);
        if (filter && !strstr(name, filter)) continue;
        cltest t;
        if (cltest_open(&t, platform, devices[i], is_visa)) {
            if (save) save_binary(&t, save);
            else run_threads(&t, iterations, binary);
        }
        cltest_close(&t);
        break;
    }
    return cltest_report();
}
