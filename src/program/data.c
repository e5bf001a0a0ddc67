/* data.c -- a program's own memory: its constant and global data (.data.const, .data.global,
** .data.global_const, each followed by its .bss part) and printf's strings (.data.const.string),
** each a buffer at a fixed slot of every launch (VP_SLOT_*), so a pointer stored in a global keeps
** meaning from one launch to the next.  The kernels reach them by name: `faddr sym` of a symbol of
** .symtab gets the slot's address plus the symbol's value (compute-runtime relocates symbols to
** the segment's address + st_value the same way, Program::linkBinary).  Pointers inside the data
** (.rel.data.* / .rela.data.*: R_ZE_SYM_ADDR, _32, _32_HI) are patched once, when the program is
** made: the stored value (.rel) or the addend (.rela) plus the symbol's address (Linker::
** patchDataSegments).
*/
#include <string.h>

#include "program_api.h"

/* The sections of each segment: data, then its zero-initialised part. */
static const struct {
    size_t data, bss; /* offsetof(vp_zebin, ...); bss 0: none */
} segment_sections[VP_DATA_SEGMENTS] = {
    [VP_SEG_CONST] = {offsetof(vp_zebin, data_const), offsetof(vp_zebin, bss_const)},
    [VP_SEG_GLOBAL] = {offsetof(vp_zebin, data_global), offsetof(vp_zebin, bss_global)},
    [VP_SEG_GLOBAL_CONST] = {offsetof(vp_zebin, data_global_const), 0},
    [VP_SEG_STRINGS] = {offsetof(vp_zebin, data_const_string), 0},
};

static const vp_zebin_section *section_at(const vp_zebin *zb, size_t off) {
    return off ? *(const vp_zebin_section *const *)((const char *)zb + off) : NULL;
}

/* The segment a section index belongs to and the section's start in it; false when none. */
static bool segment_of(const visa_program *p, uint32_t shndx, unsigned *seg, uint64_t *start) {
    const vp_zebin *zb = p->prog->zebin;
    for (unsigned s = 0; s < VP_DATA_SEGMENTS; s++) {
        const vp_zebin_section *d = section_at(zb, segment_sections[s].data);
        const vp_zebin_section *b = section_at(zb, segment_sections[s].bss);
        if (d && d->index == shndx) return *seg = s, *start = 0, true;
        if (b && b->index == shndx) return *seg = s, *start = d ? d->size : 0, true;
    }
    return false;
}

uint64_t vp_segment_address(unsigned seg) { return visa_buffer_address(VP_SLOT_SEGMENTS + seg); }

/* Each segment's bytes: the data, then zeros for the .bss part. */
static visa_status copy_segments(visa_program *p) {
    const vp_zebin *zb = p->prog->zebin;
    for (unsigned s = 0; s < VP_DATA_SEGMENTS; s++) {
        const vp_zebin_section *d = section_at(zb, segment_sections[s].data);
        const vp_zebin_section *b = section_at(zb, segment_sections[s].bss);
        uint64_t size = (d ? d->size : 0) + (b ? b->size : 0);
        if (!size) continue;
        uint8_t *bytes = vp_arena_alloc(&p->arena, (size_t)size); /* zeroed */
        if (!bytes) return VISA_E_NOMEM;
        if (d && d->data) memcpy(bytes, d->data, (size_t)d->size);
        p->segments[s] = (visa_buffer){bytes, (size_t)size};
    }
    return VISA_OK;
}

/* The symbols faddr can name: every symbol defined in a segment. */
static visa_status collect_symbols(visa_program *p) {
    const vp_zebin *zb = p->prog->zebin;
    visa_symbol *syms = vp_arena_array(&p->arena, zb->symbol_count ? zb->symbol_count : 1, sizeof *syms);
    if (!syms) return VISA_E_NOMEM;
    size_t n = 0;
    for (uint32_t i = 1; i < zb->symbol_count; i++) {
        const vp_zebin_symbol *sym = &zb->symbols[i];
        unsigned seg;
        uint64_t start;
        if (!sym->name || !*sym->name || !segment_of(p, sym->shndx, &seg, &start)) continue;
        syms[n++] = (visa_symbol){sym->name, vp_segment_address(seg) + start + sym->value};
    }
    p->symbols = syms;
    p->nsymbols = n;
    return VISA_OK;
}

static uint64_t read_le(const uint8_t *b, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void write_le(uint8_t *b, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
}

/* One relocation of segment seg at byte start + r->offset. */
static bool apply_reloc(visa_program *p, unsigned seg, uint64_t start, bool rela, const vp_zebin_reloc *r) {
    const vp_zebin *zb = p->prog->zebin;
    visa_buffer *b = &p->segments[seg];
    unsigned width = r->type == VP_R_ZE_SYM_ADDR ? 8 : 4;
    if (r->type != VP_R_ZE_SYM_ADDR && r->type != VP_R_ZE_SYM_ADDR_32 && r->type != VP_R_ZE_SYM_ADDR_32_HI)
        return false;
    if (r->symbol >= zb->symbol_count || start + r->offset + width > b->size) return false;
    unsigned sseg;
    uint64_t sstart;
    const vp_zebin_symbol *sym = &zb->symbols[r->symbol];
    if (!segment_of(p, sym->shndx, &sseg, &sstart)) return false;
    uint8_t *at = b->data + start + r->offset;
    uint64_t addend = rela ? (uint64_t)r->addend : read_le(at, width);
    uint64_t v = vp_segment_address(sseg) + sstart + sym->value + addend;
    write_le(at, r->type == VP_R_ZE_SYM_ADDR_32_HI ? v >> 32 : v, width);
    return true;
}

static visa_status relocate_segments(visa_program *p, diag_sink *ds) {
    const vp_zebin *zb = p->prog->zebin;
    for (uint32_t t = 0; t < zb->reloc_table_count; t++) {
        const vp_zebin_reloc_table *rt = &zb->reloc_tables[t];
        unsigned seg;
        uint64_t start;
        if (!segment_of(p, rt->target, &seg, &start) || !p->segments[seg].data) continue; /* code: not ours */
        for (uint32_t i = 0; i < rt->count; i++) {
            if (apply_reloc(p, seg, start, rt->rela, &rt->relocs[i])) continue;
            vp_diag_offset(ds, PDIAG_PROGRAM_RELOC, zb->sections[rt->section].offset,
                           "relocation %u of %s (type %u, symbol %u, offset %llu) cannot be applied to program data", i,
                           zb->sections[rt->section].name, rt->relocs[i].type, rt->relocs[i].symbol,
                           (unsigned long long)rt->relocs[i].offset);
            return VISA_E_BINARY;
        }
    }
    return VISA_OK;
}

visa_status vp_data_build(visa_program *p, diag_sink *ds) {
    visa_status st = copy_segments(p);
    if (st == VISA_OK) st = collect_symbols(p);
    if (st == VISA_OK) st = relocate_segments(p, ds);
    return st;
}

const char *vp_data_string(const visa_program *p, uint64_t address, size_t *max_len) {
    const visa_buffer *b = &p->segments[VP_SEG_STRINGS];
    uint64_t base = vp_segment_address(VP_SEG_STRINGS);
    if (!b->data || address < base || address - base >= b->size) return NULL;
    *max_len = (size_t)(b->size - (address - base));
    return (const char *)b->data + (address - base);
}
