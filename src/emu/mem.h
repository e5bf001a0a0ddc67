/* mem.h -- the emulated memory a thread sees: the caller's buffers as flat global memory (buffer i
** at visa_buffer_address(i)) and as surfaces (a surface's state value is its buffer index), and the
** group's shared local memory.  The message families (lsc.c, dataport.c) translate every access
** through these getters, which bound-check it; nothing else maps emulated addresses.
*/
#ifndef VISA_EMU_MEM_H
#define VISA_EMU_MEM_H

#include <string.h>

#include "emu.h"

struct emu_mem {
    visa_buffer *bufs; /* global memory: buffer i lives at visa_buffer_address(i) */
    size_t nbufs;
    uint8_t *slm; /* shared local memory of the thread's group */
    uint32_t slm_size;
    /* memcheck (check.c): an out-of-bounds access gets these zeroed bytes instead of faulting, so
    ** reads return 0 and writes are dropped; NULL otherwise */
    uint8_t *oob_sink;
    uint32_t oob_sink_bytes;
    const uint64_t *symbols; /* the addresses of emu_program.extern_syms symbols, NULL: none given */
    /* scratch space (visa_run_opts.scratch_size): buffer scratch_buffer holds every hardware
    ** thread's slice of scratch_size bytes, the thread's at emu_thread.scratch_base; 0: none */
    uint32_t scratch_buffer, scratch_size;
};

/* A surface access to the scratch buffer: a hardware thread's own slice (launch.c). */
static inline bool emu_is_scratch(const emu_mem *mem, uint32_t index) {
    return mem->scratch_size && index == mem->scratch_buffer;
}

/* An SLM address as the hardware takes it: IGC tags __local pointers that are used as values with
** bit 28 (InlineLocalsResolution's VALID_LOCAL_HIGH_BITS, so that no __local pointer is 0) and
** accesses SLM with the tagged address, so the bits from 28 up are no part of the offset.  Every
** SLM access of the message families goes through this. */
#define EMU_SLM_OFFSET_MASK 0x0FFFFFFFull
static inline uint64_t emu_slm_offset(uint64_t addr) { return addr & EMU_SLM_OFFSET_MASK; }

/* The address faddr gives a name outside the module that the launch gives no address: outside
** every buffer, so using it as a pointer is an error and computing with it is not. */
#define EMU_EXTERNAL_SYMBOL_ADDRESS 0xFFFF000000000000ull

/* The zeroed sink for an out-of-bounds access of `size` bytes under memcheck, else NULL. */
static inline uint8_t *emu_oob_sink(const emu_mem *mem, uint64_t size) {
    if (!mem->oob_sink || size > mem->oob_sink_bytes) return NULL;
    memset(mem->oob_sink, 0, (size_t)size);
    return mem->oob_sink;
}

/* Host pointer for an emulated global access of `size` bytes, NULL if it is out of bounds. */
uint8_t *emu_global(emu_mem *mem, uint64_t addr, uint32_t size);
/* A run of emulated memory that an access can be bound-checked against without a call: emulated
** addresses [lo, lo + size) are the host bytes host[0, size).  The message families' fast paths
** translate a message's lanes through one. */
typedef struct emu_window {
    uint64_t lo, size;
    uint8_t *host;
} emu_window;
/* The window of the global buffer holding addr; false (and an empty window) when none does. */
bool emu_global_window(const emu_mem *mem, uint64_t addr, emu_window *w);
/* The group's SLM (offsets from 0; empty without SLM), and the surface bound to buffer `index`
** (false when unbound). */
void emu_slm_window(const emu_mem *mem, emu_window *w);
bool emu_surface_window(const emu_mem *mem, uint32_t index, emu_window *w);
/* Host pointer of the n bytes at emulated address a, NULL unless they are all inside w. */
static inline uint8_t *emu_window_at(const emu_window *w, uint64_t a, uint32_t n) {
    uint64_t o = a - w->lo; /* below lo: wraps past size */
    return o <= w->size && n <= w->size - o ? w->host + o : NULL;
}
/* An emulated global address as a message says it: "buffer N (SIZE bytes) + OFFSET" (N counts
** the caller's buffers from 0), or "0xADDR (in no buffer)"; written into buf, which is returned. */
const char *emu_global_where(const emu_mem *mem, uint64_t addr, char *buf, size_t cap);
/* The buffer index holding global address addr (UINT32_MAX when none) and the offset in it. */
uint32_t emu_global_buffer(const emu_mem *mem, uint64_t addr, uint64_t *offset);
/* Where an access of a message lands (an observer's or checker's view): for space VISA_MEM_GLOBAL
** the buffer holding emulated address addr, for VISA_MEM_SURFACE the buffer `buffer` (addr is the
** offset), for VISA_MEM_SLM the group's SLM (*buf UINT32_MAX); *buf is UINT32_MAX when no buffer
** holds it; *limit is the size of what holds it (0 for none). */
void emu_mem_locate(const emu_mem *mem, unsigned space, uint32_t buffer, uint64_t addr, uint32_t *buf, uint64_t *offset,
                    uint64_t *limit);
/* Host pointer for `size` bytes at byte `off` of the surface bound to buffer `index` (a surface
** variable's state value), NULL if out of bounds or unbound; *bytes (may be NULL) receives the
** surface's size, 0 when unbound. */
uint8_t *emu_surface(emu_mem *mem, uint32_t index, uint64_t off, uint32_t size, uint64_t *bytes);

#endif
