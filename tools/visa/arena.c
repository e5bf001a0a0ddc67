/* arena.c -- the allocator of the context of a command that loads a module, prints or checks it,
** and exits (fmt, asm, dis, verify: LOAD_ARENA).
**
** Such a command keeps what it allocates to its end, and most of its run is spent building the
** module: for a large input, tens of thousands of operand lists and strings, tens of megabytes.
** From the C library each costs a malloc and a free, and every 4 KiB page of them a page fault
** (a quarter of `visa fmt`'s time, measured).  Here they come from one region reserved up front
** and advised for transparent huge pages (where the system has them: one fault per 2 MiB):
** an allocation is a bump of a pointer or a pop from the list of freed ones of its size, a free
** a push on that list (or, for the last allocation, the pointer bumped back, so that what grows
** at the top grows in place).  Freed allocations larger than the lists' sizes (vectors that grew)
** are not reused.  Allocations of ARENA_BIG bytes or more, and any once the region is full, are
** the C library's.  Each allocation starts with its size and where it came from: the old size
** the library passes is not relied on.  Not under AddressSanitizer, which should see every
** allocation and free. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cli.h"

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_OFF 1
#endif
#endif

#ifndef ARENA_OFF
#define ARENA_BIG ((size_t)1 << 18)
#define ARENA_HEAD (2 * sizeof(size_t)) /* size; 1 for the C library's */
#include <stddef.h>
/* what follows the head is aligned as malloc's is only when the head keeps that alignment */
_Static_assert(ARENA_HEAD % _Alignof(max_align_t) == 0, "arena.c: the head breaks max_align_t's alignment");
#define ARENA_LISTS 32 /* freed allocations kept for reuse: up to ARENA_LISTS * ARENA_HEAD bytes */
#define ARENA_HUGE ((size_t)2 << 20) /* the huge page size the region is aligned to */

struct arena {
    char *base; /* the region (ARENA_HUGE-aligned), cap bytes, used of them given out */
    size_t used, cap;
    void *map; /* what mmap returned, map_len bytes */
    size_t map_len;
    void *freed[ARENA_LISTS]; /* freed allocations by size class, each holding the next */
};

static size_t arena_round(size_t n) { return (n + ARENA_HEAD - 1) / ARENA_HEAD * ARENA_HEAD; }

/* The list of freed allocations of n bytes; ARENA_LISTS for none. */
static size_t arena_class(size_t n) {
    size_t c = arena_round(n) / ARENA_HEAD;
    return c && c <= ARENA_LISTS ? c - 1 : ARENA_LISTS;
}

static void *arena_new(arena *A, size_t n) {
    size_t c = arena_class(n);
    if (c < ARENA_LISTS && A->freed[c]) {
        size_t *h = (size_t *)A->freed[c] - 2;
        memcpy(&A->freed[c], h + 2, sizeof(void *));
        h[0] = n;
        return h + 2;
    }
    size_t need = ARENA_HEAD + arena_round(n);
    bool big = n >= ARENA_BIG || need > A->cap - A->used;
    size_t *h = big ? malloc(ARENA_HEAD + n) : (size_t *)(A->base + A->used);
    if (!h) return NULL;
    if (!big) A->used += need;
    h[0] = n, h[1] = big;
    return h + 2;
}

/* Whether ptr, of the region, is its last allocation; *at: where ptr starts in it. */
static bool arena_last(const arena *A, const void *ptr, size_t size, size_t *at) {
    *at = (size_t)((uintptr_t)ptr - (uintptr_t)A->base);
    return *at + arena_round(size) == A->used;
}

static void *arena_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    (void)old_size;
    arena *A = ud;
    if (!ptr) return new_size ? arena_new(A, new_size) : NULL;
    size_t *h = (size_t *)ptr - 2, size = h[0], at;
    if (h[1]) { /* the C library's */
        if (!new_size) {
            free(h);
            return NULL;
        }
        size_t *q = realloc(h, ARENA_HEAD + new_size);
        if (q) q[0] = new_size;
        return q ? q + 2 : NULL;
    }
    bool last = arena_last(A, ptr, size, &at);
    if (last && new_size && new_size < ARENA_BIG && at + arena_round(new_size) <= A->cap) {
        A->used = at + arena_round(new_size);
        h[0] = new_size;
        return ptr;
    }
    /* within its rounded size, or shrinking (a later free files it by its new size): in place */
    if (new_size && (new_size <= size || arena_round(new_size) == arena_round(size))) {
        h[0] = new_size;
        return ptr;
    }
    void *q = new_size ? arena_new(A, new_size) : NULL;
    if (new_size && !q) return NULL;
    if (q) memcpy(q, ptr, size < new_size ? size : new_size);
    size_t c = arena_class(size);
    if (last && A->used == at + arena_round(size)) A->used = at - ARENA_HEAD; /* still the last */
    else if (c < ARENA_LISTS) memcpy(ptr, &A->freed[c], sizeof(void *)), A->freed[c] = ptr;
    return q;
}

arena *arena_create(size_t input_len, visa_realloc_fn *fn) {
    arena *A = calloc(1, sizeof *A);
    if (!A) return NULL;
    /* what a module takes, at most about eight times its text (measured: four), and some room;
    ** reserved, not committed: only the pages used count */
    size_t cap = (input_len < ((size_t)1 << 28) ? input_len * 8 : (size_t)1 << 31) + ((size_t)64 << 20);
    A->map_len = cap + ARENA_HUGE;
    A->map = mmap(NULL, A->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (A->map == MAP_FAILED) {
        free(A);
        return NULL;
    }
    A->base = (char *)(((uintptr_t)A->map + ARENA_HUGE - 1) & ~(uintptr_t)(ARENA_HUGE - 1));
    A->cap = cap;
#ifdef MADV_HUGEPAGE
    (void)madvise(A->base, A->cap, MADV_HUGEPAGE); /* advice: without it, 4 KiB pages */
#endif
    *fn = arena_alloc;
    return A;
}

void arena_destroy(arena *A) {
    if (!A) return;
    munmap(A->map, A->map_len);
    free(A);
}

#else
arena *arena_create(size_t input_len, visa_realloc_fn *fn) {
    (void)input_len, (void)fn;
    return NULL;
}

void arena_destroy(arena *A) { (void)A; }
#endif
