/* mem.c -- the emulated address map (mem.h): a global address holds its buffer's number plus one
** in its high 32 bits and the byte offset in its low 32 bits, so address 0 and every address below
** 4 GiB lie in no buffer (a null or small integer used as a pointer faults). */
#include <stdio.h>

#include "mem.h"

#define BUFFER_SHIFT 32
#define OFFSET_MASK 0xFFFFFFFFu

uint64_t visa_buffer_address(size_t index) { return (uint64_t)(index + 1) << BUFFER_SHIFT; }

uint32_t emu_global_buffer(const emu_mem *mem, uint64_t addr, uint64_t *offset) {
    uint64_t i = addr >> BUFFER_SHIFT;
    *offset = addr & OFFSET_MASK;
    return i >= 1 && i <= mem->nbufs ? (uint32_t)(i - 1) : UINT32_MAX;
}

uint8_t *emu_global(emu_mem *mem, uint64_t addr, uint32_t size) {
    uint64_t off;
    uint32_t i = emu_global_buffer(mem, addr, &off);
    if (i == UINT32_MAX) return emu_oob_sink(mem, size);
    const visa_buffer *b = &mem->bufs[i];
    if (off > b->size || size > b->size - off) return emu_oob_sink(mem, size);
    return b->data + off;
}

bool emu_global_window(const emu_mem *mem, uint64_t addr, emu_window *w) {
    uint64_t off;
    uint32_t i = emu_global_buffer(mem, addr, &off);
    if (i == UINT32_MAX) {
        *w = (emu_window){0, 0, NULL};
        return false;
    }
    *w = (emu_window){addr - off, mem->bufs[i].size, mem->bufs[i].data};
    return true;
}

void emu_slm_window(const emu_mem *mem, emu_window *w) { *w = (emu_window){0, mem->slm ? mem->slm_size : 0, mem->slm}; }

bool emu_surface_window(const emu_mem *mem, uint32_t index, emu_window *w) {
    if (index >= mem->nbufs) {
        *w = (emu_window){0, 0, NULL};
        return false;
    }
    *w = (emu_window){0, mem->bufs[index].size, mem->bufs[index].data};
    return true;
}

const char *emu_global_where(const emu_mem *mem, uint64_t addr, char *buf, size_t cap) {
    uint64_t off;
    uint32_t i = emu_global_buffer(mem, addr, &off);
    if (i == UINT32_MAX) snprintf(buf, cap, "0x%llx (in no buffer)", (unsigned long long)addr);
    else snprintf(buf, cap, "buffer %u (%zu bytes) + %llu", i, mem->bufs[i].size, (unsigned long long)off);
    return buf;
}

uint8_t *emu_surface(emu_mem *mem, uint32_t index, uint64_t off, uint32_t size, uint64_t *bytes) {
    if (index >= mem->nbufs) {
        if (bytes) *bytes = 0;
        return NULL;
    }
    const visa_buffer *b = &mem->bufs[index];
    if (bytes) *bytes = b->size;
    if (off > b->size || size > b->size - off) return size ? emu_oob_sink(mem, size) : NULL;
    return b->data + off;
}

void emu_mem_locate(const emu_mem *mem, unsigned space, uint32_t buffer, uint64_t addr, uint32_t *buf, uint64_t *offset,
                    uint64_t *limit) {
    *limit = 0;
    if (space == VISA_MEM_GLOBAL) {
        *buf = emu_global_buffer(mem, addr, offset);
    } else if (space == VISA_MEM_SURFACE) {
        *buf = buffer < mem->nbufs ? buffer : UINT32_MAX;
        *offset = addr;
    } else {
        *buf = UINT32_MAX;
        *offset = addr;
        *limit = mem->slm ? mem->slm_size : 0;
        return;
    }
    if (*buf != UINT32_MAX) *limit = mem->bufs[*buf].size;
}
