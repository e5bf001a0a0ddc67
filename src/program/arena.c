/* arena.c -- the program models' memory: blocks from the context's allocator, handed out in
** 16-byte-aligned pieces and freed together.  A model is built once and then only read, so
** nothing is freed alone. */
#include <string.h>

#include "program_int.h"

#define VP_ARENA_BLOCK 16384u
#define VP_ARENA_ALIGN 16u

struct vp_arena_block {
    vp_arena_block *next;
    size_t size, used; /* bytes of data[] */
    _Alignas(16) unsigned char data[];
};

void vp_arena_init(vp_arena *a, visa_ctx *ctx) {
    memset(a, 0, sizeof *a);
    a->ctx = ctx;
}

void *vp_arena_alloc(vp_arena *a, size_t size) {
    size_t need = (size + VP_ARENA_ALIGN - 1) & ~(size_t)(VP_ARENA_ALIGN - 1);
    if (need < size || a->failed) {
        a->failed = true;
        return NULL;
    }
    vp_arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        /* a large piece gets a block of its own behind the current one, which stays in use */
        size_t data = need > VP_ARENA_BLOCK / 4 ? need : VP_ARENA_BLOCK;
        if (data > SIZE_MAX - sizeof *b) {
            a->failed = true;
            return NULL;
        }
        b = vx_alloc(a->ctx, sizeof *b + data);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        b->size = data;
        if (data == need && a->head) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *p = b->data + b->used;
    b->used += need;
    memset(p, 0, need);
    return p;
}

void *vp_arena_array(vp_arena *a, size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) {
        a->failed = true;
        return NULL;
    }
    return vp_arena_alloc(a, n && size ? n * size : 1);
}

char *vp_arena_strndup(vp_arena *a, const char *s, size_t n) {
    if (n == SIZE_MAX) {
        a->failed = true;
        return NULL;
    }
    char *p = vp_arena_alloc(a, n + 1);
    if (p && n) memcpy(p, s, n);
    return p;
}

void vp_arena_free(vp_arena *a) {
    for (vp_arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        vx_free(a->ctx, b, sizeof *b + b->size);
    }
    a->head = NULL;
}
