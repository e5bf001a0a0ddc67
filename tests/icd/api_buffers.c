#define _POSIX_C_SOURCE 200809L /* nanosleep */
/* api_buffers.c -- buffers through the OpenCL API: creation with and without host memory
** (USE / COPY / ALLOC_HOST_PTR), read / write / copy / fill, the rect variants with pitches, maps
** for reading and writing, sub-buffers, memory-object info and the destructor callback.  Every
** content is checked against the same operation done by the test in C. */
#include "cltest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_int mem_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetMemObjectInfo((cl_mem)obj, param, size, value, ret);
}

static const cltest_info_param mem_params[] = {
    CLTEST_FIXED_P(CL_MEM_TYPE, cl_mem_object_type),
    CLTEST_FIXED_P(CL_MEM_FLAGS, cl_mem_flags),
    CLTEST_FIXED_P(CL_MEM_SIZE, size_t),
    CLTEST_FIXED_P(CL_MEM_HOST_PTR, void *),
    CLTEST_FIXED_P(CL_MEM_MAP_COUNT, cl_uint),
    CLTEST_FIXED_P(CL_MEM_REFERENCE_COUNT, cl_uint),
    CLTEST_FIXED_P(CL_MEM_CONTEXT, cl_context),
    CLTEST_FIXED_P(CL_MEM_ASSOCIATED_MEMOBJECT, cl_mem),
    CLTEST_FIXED_P(CL_MEM_OFFSET, size_t),
    CLTEST_FIXED_P(CL_MEM_USES_SVM_POINTER, cl_bool),
    CLTEST_ARRAY_P(CL_MEM_PROPERTIES, cl_mem_properties),
};

/* Bytes that differ from one offset to the next and from one call's seed to another's. */
static void pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 7 + seed * 13 + (i >> 8));
}

static cl_mem buffer(cltest *t, cl_mem_flags flags, size_t size, void *host) {
    cl_int err;
    cl_mem m = clCreateBuffer(t->ctx, flags, size, host, &err);
    CHECK(err == CL_SUCCESS && m, "clCreateBuffer(flags 0x%llx, %zu bytes, host %p): %s", (unsigned long long)flags,
          size, host, cltest_err_name(err));
    return m;
}

/* The cleanup of a test's two buffers and three host arrays (any may be NULL). */
static void release_two(cl_mem a, cl_mem b, void *p, void *q, void *r) {
    if (a) clReleaseMemObject(a);
    if (b) clReleaseMemObject(b);
    free(p);
    free(q);
    free(r);
}

/* Reads the whole buffer and compares it with want. */
static void expect_contents(cltest *t, cl_mem m, const unsigned char *want, size_t size, const char *what) {
    unsigned char *got = malloc(size);
    memset(got, 0xEE, size);
    CHECK_OK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, size, got, 0, NULL, NULL));
    size_t bad = size;
    for (size_t i = 0; i < size && bad == size; i++)
        if (got[i] != want[i]) bad = i;
    CHECK(bad == size, "%s: byte %zu is 0x%02x, expected 0x%02x", what, bad, bad < size ? got[bad] : 0,
          bad < size ? want[bad] : 0);
    free(got);
}

static void mem_object_info(cltest *t, cl_mem m, cl_mem_flags flags, size_t size, void *host) {
    cltest_info_protocol("clGetMemObjectInfo", mem_info, m, mem_params, CLTEST_COUNT(mem_params));
    cl_mem_object_type type = 0;
    cl_mem_flags got_flags = 0;
    size_t got_size = 0, offset = 1;
    void *got_host = (void *)1;
    cl_context ctx = NULL;
    cl_mem parent = (cl_mem)1;
    clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL);
    clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got_flags, &got_flags, NULL);
    clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof got_size, &got_size, NULL);
    clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof got_host, &got_host, NULL);
    clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL);
    clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
    CHECK(type == CL_MEM_OBJECT_BUFFER && got_flags == flags && got_size == size && ctx == t->ctx && !parent &&
              offset == 0,
          "mem info: type 0x%x, flags 0x%llx (want 0x%llx), size %zu (want %zu), parent %p, offset %zu", type,
          (unsigned long long)got_flags, (unsigned long long)flags, got_size, size, (void *)parent, offset);
    /* CL_MEM_HOST_PTR: the host_ptr of a CL_MEM_USE_HOST_PTR buffer, NULL otherwise. */
    CHECK(got_host == ((flags & CL_MEM_USE_HOST_PTR) ? host : NULL), "CL_MEM_HOST_PTR %p, expected %p", got_host,
          (flags & CL_MEM_USE_HOST_PTR) ? host : NULL);
    cl_uint refs = cltest_refs(mem_info, m, CL_MEM_REFERENCE_COUNT);
    CHECK_OK(clRetainMemObject(m));
    CHECK(cltest_refs(mem_info, m, CL_MEM_REFERENCE_COUNT) == refs + 1, "clRetainMemObject: not one more than %u",
          refs);
    CHECK_OK(clReleaseMemObject(m));
}

/* The ways to create a buffer: without host memory, copying it, using it, allocating host memory. */
static void creation(cltest *t) {
    enum { N = 4096 };
    unsigned char host[N], want[N];
    pattern(host, N, 1);
    memcpy(want, host, N);
    cl_mem plain = buffer(t, CL_MEM_READ_WRITE, N, NULL);
    cl_mem copied = buffer(t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, host);
    cl_mem alloc_copy = buffer(t, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, N, host);
    unsigned char *used_host = malloc(N);
    memcpy(used_host, host, N);
    cl_mem used = buffer(t, CL_MEM_USE_HOST_PTR, N, used_host);
    memset(host, 0, N); /* CL_MEM_COPY_HOST_PTR copied at creation: the buffers keep want */
    if (plain) mem_object_info(t, plain, CL_MEM_READ_WRITE, N, NULL);
    /* CL_MEM_FLAGS: "the flags argument value specified" at creation, nothing added */
    if (used) mem_object_info(t, used, CL_MEM_USE_HOST_PTR, N, used_host);
    if (copied) expect_contents(t, copied, want, N, "CL_MEM_COPY_HOST_PTR");
    if (alloc_copy) expect_contents(t, alloc_copy, want, N, "CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR");
    if (used) expect_contents(t, used, want, N, "CL_MEM_USE_HOST_PTR");
    if (used) {
        /* A map of a CL_MEM_USE_HOST_PTR buffer answers host_ptr + offset, holding the latest bits. */
        pattern(want + 100, 200, 9);
        CHECK_OK(clEnqueueWriteBuffer(t->queue, used, CL_TRUE, 100, 200, want + 100, 0, NULL, NULL));
        cl_int err;
        unsigned char *p = clEnqueueMapBuffer(t->queue, used, CL_TRUE, CL_MAP_READ, 64, 512, 0, NULL, NULL, &err);
        CHECK(err == CL_SUCCESS && p == used_host + 64, "map of a USE_HOST_PTR buffer: %p, host_ptr + 64 is %p (%s)",
              (void *)p, (void *)(used_host + 64), cltest_err_name(err));
        CHECK(p && memcmp(used_host, want, N) == 0, "the host memory of a USE_HOST_PTR buffer after a map");
        if (p) CHECK_OK(clEnqueueUnmapMemObject(t->queue, used, p, 0, NULL, NULL));
        CHECK_OK(clFinish(t->queue));
    }
    cl_mem with_props = clCreateBufferWithProperties(t->ctx, NULL, CL_MEM_READ_WRITE, 64, NULL, NULL);
    CHECK(with_props != NULL, "clCreateBufferWithProperties (OpenCL 3.0)");
    if (with_props) {
        size_t size = 1;
        CHECK_OK(clGetMemObjectInfo(with_props, CL_MEM_PROPERTIES, 0, NULL, &size));
        CHECK(size == 0, "CL_MEM_PROPERTIES of a buffer made without: %zu bytes, not 0", size);
        clReleaseMemObject(with_props);
    }
    cl_mem list[] = {plain, copied, alloc_copy, used};
    for (size_t i = 0; i < CLTEST_COUNT(list); i++)
        if (list[i]) CHECK_OK(clReleaseMemObject(list[i]));
    free(used_host);
}

/* Write, read, copy and fill, blocking and not, against the same steps on a C array. */
static void transfers(cltest *t) {
    enum { N = 8192 };
    unsigned char *model = malloc(N), *src = malloc(N), *got = malloc(N);
    pattern(model, N, 2);
    cl_mem a = buffer(t, CL_MEM_READ_WRITE, N, NULL), b = buffer(t, CL_MEM_READ_WRITE, N, NULL);
    if (!a || !b) goto done;
    cl_event written;
    CHECK_OK(clEnqueueWriteBuffer(t->queue, a, CL_FALSE, 0, N, model, 0, NULL, &written));
    CHECK_OK(clWaitForEvents(1, &written));
    clReleaseEvent(written);
    pattern(src, 1000, 3);
    CHECK_OK(clEnqueueWriteBuffer(t->queue, a, CL_TRUE, 333, 1000, src, 0, NULL, NULL));
    memcpy(model + 333, src, 1000);
    expect_contents(t, a, model, N, "write at offset 333");
    /* copy a -> b whole, then a sub-range of a over b at other offsets */
    CHECK_OK(clEnqueueCopyBuffer(t->queue, a, b, 0, 0, N, 0, NULL, NULL));
    unsigned char *model_b = malloc(N);
    memcpy(model_b, model, N);
    CHECK_OK(clEnqueueCopyBuffer(t->queue, a, b, 17, 4001, 2049, 0, NULL, NULL));
    memmove(model_b + 4001, model + 17, 2049);
    /* a copy within one buffer between regions that do not overlap */
    CHECK_OK(clEnqueueCopyBuffer(t->queue, a, a, 0, 4096, 1024, 0, NULL, NULL));
    memmove(model + 4096, model, 1024);
    expect_contents(t, b, model_b, N, "clEnqueueCopyBuffer between buffers");
    expect_contents(t, a, model, N, "clEnqueueCopyBuffer within a buffer");
    /* fills with each pattern size the specification allows */
    static const size_t sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (size_t k = 0; k < CLTEST_COUNT(sizes); k++) {
        unsigned char pat[128];
        pattern(pat, sizes[k], 20 + (unsigned)k);
        size_t offset = sizes[k] * 3, size = sizes[k] * 9;
        CHECK_OK(clEnqueueFillBuffer(t->queue, b, pat, sizes[k], offset, size, 0, NULL, NULL));
        for (size_t i = 0; i < size; i++) model_b[offset + i] = pat[i % sizes[k]];
    }
    CHECK_OK(clFinish(t->queue));
    expect_contents(t, b, model_b, N, "clEnqueueFillBuffer of pattern sizes 1..128");
    CHECK_OK(clEnqueueReadBuffer(t->queue, b, CL_TRUE, 4000, 100, got, 0, NULL, NULL));
    CHECK(memcmp(got, model_b + 4000, 100) == 0, "a read at offset 4000");
    free(model_b);
done:
    release_two(a, b, model, src, got);
}

static void CL_CALLBACK mem_gone(cl_mem m, void *user_data) {
    (void)m;
    ++*(volatile int *)user_data;
}

/* The destructor callbacks of a buffer run once, when it is deleted; the specification does not
** say on which thread, so the test waits a little for them. */
static void destructor(cltest *t) {
    volatile int gone = 0;
    cl_mem m = buffer(t, CL_MEM_READ_WRITE, 256, NULL);
    if (!m) return;
    CHECK_OK(clSetMemObjectDestructorCallback(m, mem_gone, (void *)&gone));
    CHECK_OK(clSetMemObjectDestructorCallback(m, mem_gone, (void *)&gone));
    CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
    CHECK_OK(clRetainMemObject(m));
    CHECK_OK(clReleaseMemObject(m));
    CHECK(gone == 0, "a destructor callback ran while a reference is left");
    CHECK_OK(clReleaseMemObject(m));
    for (int i = 0; i < 1000 && gone < 2; i++) nanosleep(&(struct timespec){0, 1000000}, NULL);
    CHECK(gone == 2, "two destructor callbacks ran %d times", gone);
}

static const char *sub_source =
    "kernel void add_index(global int *p) { p[get_global_id(0)] += (int)get_global_id(0); }";

/* Sub-buffers at an aligned origin: writes through them land in the parent, a kernel sees the
** sub-buffer's first byte as its pointer, and the info names parent and offset. */
static void sub_buffers(cltest *t) {
    cl_uint align_bits = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8, n = 3 * align / sizeof(int) + 64;
    int *model = malloc(n * sizeof(int)), *values = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++) model[i] = (int)(i * 3 + 1);
    cl_mem parent = buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(int), model);
    cl_int err;
    cl_buffer_region region = {align, align + 32 * sizeof(int)};
    cl_mem sub = parent ? clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) : 0;
    CHECK(sub && err == CL_SUCCESS, "clCreateSubBuffer at origin %zu: %s", align, sub ? "" : cltest_err_name(err));
    if (!sub) goto done;
    cl_mem got_parent = NULL;
    size_t offset = 0, size = 0;
    clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got_parent, &got_parent, NULL);
    clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
    clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, NULL);
    CHECK(got_parent == parent && offset == region.origin && size == region.size,
          "sub-buffer info: parent %p (want %p), offset %zu, size %zu", (void *)got_parent, (void *)parent, offset,
          size);
    for (size_t i = 0; i < 8; i++) values[i] = -(int)i;
    CHECK_OK(clEnqueueWriteBuffer(t->queue, sub, CL_TRUE, 4 * sizeof(int), 8 * sizeof(int), values, 0, NULL, NULL));
    memcpy(model + align / sizeof(int) + 4, values, 8 * sizeof(int));
    cl_program prog = cltest_build(t, sub_source, NULL);
    cl_kernel k = cltest_kernel(prog, "add_index");
    if (k) {
        size_t global = region.size / sizeof(int);
        CHECK_OK(clSetKernelArg(k, 0, sizeof sub, &sub));
        CHECK_OK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        for (size_t i = 0; i < global; i++) model[align / sizeof(int) + i] += (int)i;
        clReleaseKernel(k);
    }
    if (prog) clReleaseProgram(prog);
    CHECK_OK(clEnqueueReadBuffer(t->queue, parent, CL_TRUE, 0, n * sizeof(int), values, 0, NULL, NULL));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (values[i] != model[i]) bad = i;
    CHECK(bad == n, "the parent after writes and a kernel through its sub-buffer: int %zu is %d, expected %d", bad,
          bad < n ? values[bad] : 0, bad < n ? model[bad] : 0);
    cl_buffer_region inner = {0, 16};
    cl_mem subsub = clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err);
    CHECK(!subsub && err == CL_INVALID_MEM_OBJECT, "a sub-buffer of a sub-buffer: %s", cltest_err_name(err));
    clReleaseMemObject(sub);
done:
    if (parent) clReleaseMemObject(parent);
    free(model);
    free(values);
}

void test_buffers(cltest *t) {
    creation(t);
    transfers(t);
    destructor(t);
    sub_buffers(t);
}

/* The C model of a rect transfer: region[0] bytes by region[1] rows by region[2] slices from
** src (origin, row and slice pitch) to dst. */
static void rect_model(unsigned char *dst, const size_t dst_origin[3], size_t dst_row, size_t dst_slice,
                       const unsigned char *src, const size_t src_origin[3], size_t src_row, size_t src_slice,
                       const size_t region[3]) {
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dst + (dst_origin[2] + z) * dst_slice + (dst_origin[1] + y) * dst_row + dst_origin[0],
                   src + (src_origin[2] + z) * src_slice + (src_origin[1] + y) * src_row + src_origin[0], region[0]);
}

static void rects(cltest *t) {
    enum { N = 16384 };
    unsigned char *model = malloc(N), *host = malloc(N), *model_b = malloc(N);
    pattern(model, N, 4);
    pattern(host, N, 5);
    cl_mem a = buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N, model);
    cl_mem b = buffer(t, CL_MEM_READ_WRITE, N, NULL);
    if (!a || !b) goto done;
    /* write: a 13 x 5 x 3 box from host (rows of 40, slices of 400) into a (rows of 64, slices of 1024) */
    size_t region[3] = {13, 5, 3}, buf_origin[3] = {7, 2, 1}, host_origin[3] = {3, 1, 2};
    CHECK_OK(clEnqueueWriteBufferRect(t->queue, a, CL_TRUE, buf_origin, host_origin, region, 64, 1024, 40, 400, host, 0,
                                      NULL, NULL));
    rect_model(model, buf_origin, 64, 1024, host, host_origin, 40, 400, region);
    expect_contents(t, a, model, N, "clEnqueueWriteBufferRect");
    /* read back a 2D box with pitches 0: rows of region[0], slices of region[1] rows */
    size_t box[3] = {24, 6, 1}, origin[3] = {5, 3, 0}, zero[3] = {0, 0, 0};
    unsigned char got[24 * 6], want[24 * 6];
    CHECK_OK(clEnqueueReadBufferRect(t->queue, a, CL_TRUE, origin, zero, box, 100, 0, 0, 0, got, 0, NULL, NULL));
    rect_model(want, zero, 24, 24 * 6, model, origin, 100, 600, box);
    CHECK(memcmp(got, want, sizeof got) == 0, "clEnqueueReadBufferRect with host pitches 0");
    /* copy a 3D box between buffers of different pitches */
    memset(model_b, 0, N);
    CHECK_OK(clEnqueueFillBuffer(t->queue, b, &(unsigned char){0}, 1, 0, N, 0, NULL, NULL));
    size_t src_origin[3] = {9, 1, 2}, dst_origin[3] = {0, 4, 1}, copy[3] = {31, 7, 4};
    CHECK_OK(
        clEnqueueCopyBufferRect(t->queue, a, b, src_origin, dst_origin, copy, 48, 48 * 16, 80, 80 * 10, 0, NULL, NULL));
    rect_model(model_b, dst_origin, 80, 800, model, src_origin, 48, 768, copy);
    expect_contents(t, b, model_b, N, "clEnqueueCopyBufferRect");
done:
    release_two(a, b, model, host, model_b);
}

/* Maps for reading (the contents), for writing (what is written lands at unmap), and
** CL_MAP_WRITE_INVALIDATE_REGION; a map not blocking, waited for by its event. */
static void maps(cltest *t) {
    enum { N = 4096 };
    unsigned char model[N];
    pattern(model, N, 6);
    cl_mem m = buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N, model);
    if (!m) return;
    cl_int err;
    unsigned char *p = clEnqueueMapBuffer(t->queue, m, CL_TRUE, CL_MAP_READ, 1000, 500, 0, NULL, NULL, &err);
    CHECK(p && err == CL_SUCCESS, "map for reading: %s", cltest_err_name(err));
    if (p) {
        CHECK(memcmp(p, model + 1000, 500) == 0, "the contents of a map for reading");
        CHECK_OK(clEnqueueUnmapMemObject(t->queue, m, p, 0, NULL, NULL));
    }
    cl_event mapped;
    p = clEnqueueMapBuffer(t->queue, m, CL_FALSE, CL_MAP_WRITE, 2048, 1024, 0, NULL, &mapped, &err);
    CHECK(p && err == CL_SUCCESS, "map for writing, not blocking: %s", cltest_err_name(err));
    if (p) {
        CHECK_OK(clWaitForEvents(1, &mapped));
        clReleaseEvent(mapped);
        pattern(p, 1024, 7);
        pattern(model + 2048, 1024, 7);
        cl_event unmapped;
        CHECK_OK(clEnqueueUnmapMemObject(t->queue, m, p, 0, NULL, &unmapped));
        CHECK_OK(clWaitForEvents(1, &unmapped));
        clReleaseEvent(unmapped);
    }
    expect_contents(t, m, model, N, "after a map for writing and its unmap");
    p = clEnqueueMapBuffer(t->queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 512, 0, NULL, NULL, &err);
    CHECK(p && err == CL_SUCCESS, "map with CL_MAP_WRITE_INVALIDATE_REGION: %s", cltest_err_name(err));
    if (p) {
        memset(p, 0x5A, 512);
        memset(model, 0x5A, 512);
        CHECK_OK(clEnqueueUnmapMemObject(t->queue, m, p, 0, NULL, NULL));
    }
    expect_contents(t, m, model, N, "after CL_MAP_WRITE_INVALIDATE_REGION");
    CHECK_OK(clReleaseMemObject(m));
}

void test_buffer_rects_maps(cltest *t) {
    rects(t);
    maps(t);
}
