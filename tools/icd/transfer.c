/* transfer.c -- the buffer commands: read, write, copy, fill (and their rect forms), map and unmap.
** A buffer's bytes are host memory: a command is a memmove when its turn comes. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* A box of bytes: region[0] bytes per row, region[1] rows per slice, region[2] slices. */
typedef struct rect {
    uint8_t *base;
    size_t row, slice; /* pitches */
} rect;

typedef struct transfer_cmd {
    icd_command base;
    cl_mem mem[2]; /* retained */
    rect dst, src;
    size_t region[3];
    uint8_t pattern[128]; /* fill: pattern_size bytes */
    size_t pattern_size;
} transfer_cmd;

static cl_int transfer_run(icd_command *c) {
    transfer_cmd *t = (transfer_cmd *)c;
    for (size_t z = 0; z < t->region[2]; z++)
        for (size_t y = 0; y < t->region[1]; y++) {
            uint8_t *d = t->dst.base + z * t->dst.slice + y * t->dst.row;
            if (t->pattern_size) {
                for (size_t x = 0; x < t->region[0]; x += t->pattern_size) memcpy(d + x, t->pattern, t->pattern_size);
            } else {
                memmove(d, t->src.base + z * t->src.slice + y * t->src.row, t->region[0]);
            }
        }
    return CL_COMPLETE;
}

static void transfer_done(icd_command *c) {
    transfer_cmd *t = (transfer_cmd *)c;
    for (int i = 0; i < 2; i++)
        if (t->mem[i]) icd_mem_release(t->mem[i]);
    free(t);
}

static transfer_cmd *transfer_new(cl_mem a, cl_mem b) {
    transfer_cmd *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->base.run = transfer_run;
    t->base.done = transfer_done;
    t->mem[0] = a;
    t->mem[1] = b;
    if (a) icd_retain(a);
    if (b) icd_retain(b);
    t->region[1] = t->region[2] = 1;
    return t;
}

/* The checks every buffer command starts with. */
static cl_int check_command(cl_command_queue q, cl_mem m, cl_uint n, const cl_event *list) {
    if (!icd_is(q, ICD_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!icd_is(m, ICD_MEM)) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
    return icd_check_wait_list(q->context, n, list);
}

static bool in_bounds(const cl_mem m, size_t offset, size_t size) {
    return offset <= m->size && size <= m->size - offset;
}

/* Host access a command wants against CL_MEM_HOST_*: CL_INVALID_OPERATION when forbidden. */
static cl_int host_may(cl_mem m, bool read, bool write) {
    if ((m->flags & CL_MEM_HOST_NO_ACCESS) || (read && (m->flags & CL_MEM_HOST_WRITE_ONLY)) ||
        (write && (m->flags & CL_MEM_HOST_READ_ONLY)))
        return CL_INVALID_OPERATION;
    return CL_SUCCESS;
}

static cl_int enqueue_transfer(cl_command_queue q, cl_command_type type, transfer_cmd *t, bool blocking, cl_uint n,
                               const cl_event *list, cl_event *event) {
    if (!t) return CL_OUT_OF_HOST_MEMORY;
    return icd_enqueue(q, type, &t->base, n, list, event, blocking);
}

cl_int icd_EnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size, void *ptr,
                             cl_uint n, const cl_event *list, cl_event *event) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return rc;
    if (!ptr || !size || !in_bounds(m, offset, size)) return CL_INVALID_VALUE;
    if ((rc = host_may(m, true, false))) return rc;
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) {
        t->dst.base = ptr;
        t->src.base = m->data + offset;
        t->region[0] = size;
    }
    return enqueue_transfer(q, CL_COMMAND_READ_BUFFER, t, blocking, n, list, event);
}

cl_int icd_EnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
                              const void *ptr, cl_uint n, const cl_event *list, cl_event *event) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return rc;
    if (!ptr || !size || !in_bounds(m, offset, size)) return CL_INVALID_VALUE;
    if ((rc = host_may(m, false, true))) return rc;
    icd_mem_mark_defined(m);
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) {
        t->dst.base = m->data + offset;
        t->src.base = (uint8_t *)(uintptr_t)ptr;
        t->region[0] = size;
    }
    return enqueue_transfer(q, CL_COMMAND_WRITE_BUFFER, t, blocking, n, list, event);
}

/* Two ranges of the same memory overlap (sub-buffers of one buffer included). */
static bool overlap(cl_mem a, size_t a_off, size_t a_size, cl_mem b, size_t b_off, size_t b_size) {
    const uint8_t *pa = a->data + a_off, *pb = b->data + b_off;
    return pa < pb + b_size && pb < pa + a_size;
}

cl_int icd_EnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                             size_t size, cl_uint n, const cl_event *list, cl_event *event) {
    cl_int rc = check_command(q, src, n, list);
    if (rc) return rc;
    if (!icd_is(dst, ICD_MEM)) return CL_INVALID_MEM_OBJECT;
    if (dst->context != q->context) return CL_INVALID_CONTEXT;
    if (!size || !in_bounds(src, src_offset, size) || !in_bounds(dst, dst_offset, size)) return CL_INVALID_VALUE;
    if (overlap(src, src_offset, size, dst, dst_offset, size)) return CL_MEM_COPY_OVERLAP;
    icd_mem_mark_defined(dst);
    transfer_cmd *t = transfer_new(src, dst);
    if (t) {
        t->dst.base = dst->data + dst_offset;
        t->src.base = src->data + src_offset;
        t->region[0] = size;
    }
    return enqueue_transfer(q, CL_COMMAND_COPY_BUFFER, t, false, n, list, event);
}

cl_int icd_EnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size, size_t offset,
                             size_t size, cl_uint n, const cl_event *list, cl_event *event) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return rc;
    if (!pattern || !pattern_size || pattern_size > 128 || (pattern_size & (pattern_size - 1)) ||
        offset % pattern_size || size % pattern_size || !in_bounds(m, offset, size))
        return CL_INVALID_VALUE;
    icd_mem_mark_defined(m);
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) {
        t->dst.base = m->data + offset;
        t->region[0] = size;
        memcpy(t->pattern, pattern, pattern_size);
        t->pattern_size = pattern_size;
    }
    return enqueue_transfer(q, CL_COMMAND_FILL_BUFFER, t, false, n, list, event);
}

/* A rect command's pitches (0: tight) and bounds, as the specification checks them; r gets the
** box's first byte at base + origin. */
static cl_int rect_at(uint8_t *base, size_t limit, const size_t origin[3], const size_t region[3], size_t row,
                      size_t slice, rect *r) {
    if (!row) row = region[0];
    if (!slice) slice = region[1] * row;
    if (row < region[0] || slice < region[1] * row || slice % row) return CL_INVALID_VALUE;
    size_t first = origin[2] * slice + origin[1] * row + origin[0];
    size_t end = first + (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
    if (limit && end > limit) return CL_INVALID_VALUE;
    *r = (rect){base + first, row, slice};
    return CL_SUCCESS;
}

static bool region_ok(const size_t *region) { return region && region[0] && region[1] && region[2]; }

/* Read (to_host) or write a rect between a buffer and host memory. */
static cl_int rect_host(cl_command_queue q, cl_mem m, bool to_host, cl_bool blocking, const size_t *buffer_origin,
                        const size_t *host_origin, const size_t *region, size_t buffer_row, size_t buffer_slice,
                        size_t host_row, size_t host_slice, void *ptr, cl_uint n, const cl_event *list,
                        cl_event *event) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return rc;
    if (!ptr || !buffer_origin || !host_origin || !region_ok(region)) return CL_INVALID_VALUE;
    if ((rc = host_may(m, to_host, !to_host))) return rc;
    rect buf, host;
    if ((rc = rect_at(m->data, m->size, buffer_origin, region, buffer_row, buffer_slice, &buf)) ||
        (rc = rect_at(ptr, 0, host_origin, region, host_row, host_slice, &host)))
        return rc;
    if (!to_host) icd_mem_mark_defined(m);
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) {
        t->dst = to_host ? host : buf;
        t->src = to_host ? buf : host;
        memcpy(t->region, region, sizeof t->region);
    }
    return enqueue_transfer(q, to_host ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, t, blocking, n,
                            list, event);
}

cl_int icd_EnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *buffer_origin,
                                 const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                 size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                 cl_uint n, const cl_event *list, cl_event *event) {
    return rect_host(q, m, true, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                     host_row_pitch, host_slice_pitch, ptr, n, list, event);
}

cl_int icd_EnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *buffer_origin,
                                  const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                  size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                                  const void *ptr, cl_uint n, const cl_event *list, cl_event *event) {
    return rect_host(q, m, false, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                     host_row_pitch, host_slice_pitch, (void *)(uintptr_t)ptr, n, list, event);
}

cl_int icd_EnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin,
                                 const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                 size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint n,
                                 const cl_event *list, cl_event *event) {
    cl_int rc = check_command(q, src, n, list);
    if (rc) return rc;
    if (!icd_is(dst, ICD_MEM)) return CL_INVALID_MEM_OBJECT;
    if (dst->context != q->context) return CL_INVALID_CONTEXT;
    if (!src_origin || !dst_origin || !region_ok(region)) return CL_INVALID_VALUE;
    rect s, d;
    if ((rc = rect_at(src->data, src->size, src_origin, region, src_row_pitch, src_slice_pitch, &s)) ||
        (rc = rect_at(dst->data, dst->size, dst_origin, region, dst_row_pitch, dst_slice_pitch, &d)))
        return rc;
    /* the same buffer: its pitches must be equal, and the boxes' extents apart */
    if (src == dst && (s.row != d.row || s.slice != d.slice)) return CL_INVALID_VALUE;
    size_t s_len = (region[2] - 1) * s.slice + (region[1] - 1) * s.row + region[0];
    size_t d_len = (region[2] - 1) * d.slice + (region[1] - 1) * d.row + region[0];
    if (overlap(src, (size_t)(s.base - src->data), s_len, dst, (size_t)(d.base - dst->data), d_len))
        return CL_MEM_COPY_OVERLAP;
    icd_mem_mark_defined(dst);
    transfer_cmd *t = transfer_new(src, dst);
    if (t) {
        t->dst = d;
        t->src = s;
        memcpy(t->region, region, sizeof t->region);
    }
    return enqueue_transfer(q, CL_COMMAND_COPY_BUFFER_RECT, t, false, n, list, event);
}

/* Mapping gives the buffer's own bytes: the command only orders it in the queue. */
void *icd_EnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags map_flags, size_t offset,
                           size_t size, cl_uint n, const cl_event *list, cl_event *event, cl_int *errcode_ret) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return icd_fail(errcode_ret, rc);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!size || !in_bounds(m, offset, size) || (map_flags & ~known) ||
        ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return icd_fail(errcode_ret, CL_INVALID_VALUE);
    bool writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
    if ((rc = host_may(m, map_flags & CL_MAP_READ, writes))) return icd_fail(errcode_ret, rc);
    if (writes) icd_mem_mark_defined(m);
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) t->base.run = NULL;
    rc = enqueue_transfer(q, CL_COMMAND_MAP_BUFFER, t, blocking, n, list, event);
    if (rc) return icd_fail(errcode_ret, rc);
    atomic_fetch_add(&m->map_count, 1);
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return m->data + offset;
}

cl_int icd_EnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *mapped_ptr, cl_uint n, const cl_event *list,
                                 cl_event *event) {
    cl_int rc = check_command(q, m, n, list);
    if (rc) return rc;
    uint8_t *p = mapped_ptr;
    if (!p || p < m->data || p > m->data + m->size || !atomic_load(&m->map_count)) return CL_INVALID_VALUE;
    atomic_fetch_sub(&m->map_count, 1);
    transfer_cmd *t = transfer_new(m, NULL);
    if (t) t->base.run = NULL;
    return enqueue_transfer(q, CL_COMMAND_UNMAP_MEM_OBJECT, t, false, n, list, event);
}
