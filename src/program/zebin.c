/* zebin.c -- IGC's zebin, an ELF64 relocatable (or ET_ZEBIN_*) file: section table, string
** tables, symbols, relocations, the IntelGT notes, kernels (.text.<name>) and their vISA text.
**
** Every offset and size is checked against the file before it is used, and the model refers
** into the reader's own copy of the bytes; the arrays it allocates are bounded by the counts the
** file's sizes allow, so hostile input cannot make it allocate more than a few times its size.
** Diagnostics: E-ZEBIN-HEADER, -SECTION, -OVERLAP, -STRTAB, -SYMTAB, -RELOC, -NOTE, -KERNEL,
** -VISAASM, -LIMIT (errors, at the byte offset of what is wrong) and W-ZEBIN-DEVICE.
**
** vISA text: IGC 1.0.12504 writes one section named ".visaasm" per kernel (each saying
** `.kernel "kernel"`), in the order in which it adds kernels, which is also the order of the
** .text.<kernel> sections (ZEBinaryBuilder::createKernel adds both for one kernel before the
** next); later IGCs name them ".visaasm.<kernel>".  Named sections are matched by name, unnamed
** ones in order to the kernels left, and their count must match.
*/
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_int.h"

/* IGC's ELF machine (EM_INTELGT, 205; older elf.h lacks the name) */
#define VP_EM_INTELGT 205
/* compute-runtime's zebin ELF types */
#define VP_ET_ZEBIN_REL 0xff11
#define VP_ET_ZEBIN_EXE 0xff12
#define VP_ET_ZEBIN_DYN 0xff13
/* ZebinTargetFlags bit 15: e_machine holds the gfx core, not the product family */
#define VP_TARGET_MACHINE_IS_CORE (1u << 15)

typedef struct zr {
    vp_zebin *zb;
    diag_sink *ds;
    const uint8_t *p;
    size_t len;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh;
    vp_zebin_section *secs;
    uint32_t shnum, shstrndx;
    bool err;
} zr;

static void zfail(zr *r, vp_diag_id d, uint64_t offset, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void zfail(zr *r, vp_diag_id d, uint64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vp_diag_vat(r->ds, d, 0, 0, offset, fmt, ap);
    va_end(ap);
    r->err = true;
}

/* [offset, offset + size) lies in the file */
static bool in_file(const zr *r, uint64_t offset, uint64_t size) { return offset <= r->len && size <= r->len - offset; }

static uint64_t sh_at(const zr *r, uint32_t i) { return r->eh.e_shoff + (uint64_t)i * sizeof(Elf64_Shdr); }

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* -- Header and section table ------------------------------------------------------------------ */
static bool elf_type_ok(uint16_t t) {
    return t == ET_REL || t == ET_EXEC || t == ET_DYN || t == VP_ET_ZEBIN_REL || t == VP_ET_ZEBIN_EXE ||
           t == VP_ET_ZEBIN_DYN;
}

static bool read_header(zr *r) {
    const uint16_t probe = 1;
    uint8_t host_le;
    memcpy(&host_le, &probe, 1);
    if (!host_le) { /* the ELF types are read in place: a little-endian host reads them as is */
        zfail(r, PDIAG_ZEBIN_HEADER, 0, "zebins are read on little-endian hosts only");
        return false;
    }
    if (r->len < sizeof(Elf64_Ehdr) || memcmp(r->p, ELFMAG, SELFMAG) != 0) {
        zfail(r, PDIAG_ZEBIN_HEADER, 0, "not an ELF file (%zu bytes, no ELF magic)", r->len);
        return false;
    }
    memcpy(&r->eh, r->p, sizeof r->eh);
    const Elf64_Ehdr *e = &r->eh;
    if (e->e_ident[EI_CLASS] != ELFCLASS64)
        zfail(r, PDIAG_ZEBIN_HEADER, EI_CLASS, "ELF class %u: only 64-bit zebins are read", e->e_ident[EI_CLASS]);
    else if (e->e_ident[EI_DATA] != ELFDATA2LSB)
        zfail(r, PDIAG_ZEBIN_HEADER, EI_DATA, "ELF data encoding %u: zebins are little-endian", e->e_ident[EI_DATA]);
    else if (e->e_ident[EI_VERSION] != EV_CURRENT || e->e_version != EV_CURRENT)
        zfail(r, PDIAG_ZEBIN_HEADER, EI_VERSION, "ELF version %u, expected %u", e->e_ident[EI_VERSION], EV_CURRENT);
    else if (!elf_type_ok(e->e_type))
        zfail(r, PDIAG_ZEBIN_HEADER, offsetof(Elf64_Ehdr, e_type), "ELF type 0x%x is not a zebin's", e->e_type);
    else if (e->e_ehsize != sizeof(Elf64_Ehdr))
        zfail(r, PDIAG_ZEBIN_HEADER, offsetof(Elf64_Ehdr, e_ehsize), "ELF header size %u, expected %zu", e->e_ehsize,
              sizeof(Elf64_Ehdr));
    else if (e->e_shoff == 0) zfail(r, PDIAG_ZEBIN_HEADER, offsetof(Elf64_Ehdr, e_shoff), "no section table");
    else if (e->e_shentsize != sizeof(Elf64_Shdr))
        zfail(r, PDIAG_ZEBIN_HEADER, offsetof(Elf64_Ehdr, e_shentsize), "section header size %u, expected %zu",
              e->e_shentsize, sizeof(Elf64_Shdr));
    else if (e->e_phnum && (e->e_phentsize != sizeof(Elf64_Phdr) || e->e_phoff > r->len ||
                            e->e_phnum > (r->len - e->e_phoff) / sizeof(Elf64_Phdr)))
        zfail(r, PDIAG_ZEBIN_HEADER, offsetof(Elf64_Ehdr, e_phoff),
              "program header table (%u entries at %llu) is not in the file", e->e_phnum,
              (unsigned long long)e->e_phoff);
    return !r->err;
}

static bool read_section_table(zr *r) {
    const Elf64_Ehdr *e = &r->eh;
    if (!in_file(r, e->e_shoff, sizeof(Elf64_Shdr))) {
        zfail(r, PDIAG_ZEBIN_SECTION, offsetof(Elf64_Ehdr, e_shoff),
              "section table at %llu is past the end of the file (%zu bytes)", (unsigned long long)e->e_shoff, r->len);
        return false;
    }
    Elf64_Shdr first;
    memcpy(&first, r->p + e->e_shoff, sizeof first);
    /* extended numbering: counts too large for the header live in section 0 */
    uint64_t n = e->e_shnum ? e->e_shnum : first.sh_size;
    uint64_t strndx = e->e_shstrndx == SHN_XINDEX ? first.sh_link : e->e_shstrndx;
    if (n == 0 || n > (r->len - e->e_shoff) / sizeof(Elf64_Shdr)) {
        zfail(r, PDIAG_ZEBIN_SECTION, offsetof(Elf64_Ehdr, e_shnum),
              "section table of %llu entries at %llu does not fit in the file (%zu bytes)", (unsigned long long)n,
              (unsigned long long)e->e_shoff, r->len);
        return false;
    }
    if (strndx == SHN_UNDEF || strndx >= n) {
        zfail(r, PDIAG_ZEBIN_STRTAB, offsetof(Elf64_Ehdr, e_shstrndx),
              "section name table index %llu is not a section (%llu sections)", (unsigned long long)strndx,
              (unsigned long long)n);
        return false;
    }
    r->shnum = (uint32_t)n;
    r->shstrndx = (uint32_t)strndx;
    r->sh = vp_arena_array(&r->zb->arena, n, sizeof *r->sh);
    r->secs = vp_arena_array(&r->zb->arena, n, sizeof *r->secs);
    if (!r->sh || !r->secs) return false;
    memcpy(r->sh, r->p + e->e_shoff, n * sizeof *r->sh);
    return true;
}

/* Each section's bytes lie in the file; a NOBITS section's size is bounded. */
static void check_section_ranges(zr *r) {
    for (uint32_t i = 1; i < r->shnum; i++) {
        const Elf64_Shdr *s = &r->sh[i];
        if (s->sh_type == SHT_NOBITS) {
            if (s->sh_size > VP_ZEBIN_MAX_BSS)
                zfail(r, PDIAG_ZEBIN_LIMIT, sh_at(r, i) + offsetof(Elf64_Shdr, sh_size),
                      "section %u: %llu bytes of zeroed memory (at most %u)", i, (unsigned long long)s->sh_size,
                      VP_ZEBIN_MAX_BSS);
        } else if (s->sh_type != SHT_NULL && !in_file(r, s->sh_offset, s->sh_size)) {
            zfail(r, PDIAG_ZEBIN_SECTION, sh_at(r, i) + offsetof(Elf64_Shdr, sh_offset),
                  "section %u: bytes %llu..%llu are past the end of the file (%zu bytes)", i,
                  (unsigned long long)s->sh_offset, (unsigned long long)s->sh_offset + s->sh_size, r->len);
        }
    }
}

typedef struct span {
    uint64_t start, end;
    int64_t section; /* -1: the ELF header, -2: the section table */
} span;

static int cmp_span(const void *a, const void *b) {
    const span *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->section > y->section) - (x->section < y->section);
}

static const char *span_name(const span *s, char *buf, size_t n) {
    if (s->section == -1) return "the ELF header";
    if (s->section == -2) return "the section table";
    snprintf(buf, n, "section %lld", (long long)s->section);
    return buf;
}

/* No two sections' bytes overlap each other, the ELF header or the section table. */
static void check_overlaps(zr *r) {
    span *spans = vp_arena_array(&r->zb->arena, (size_t)r->shnum + 2, sizeof *spans);
    if (!spans) return;
    size_t n = 0;
    spans[n++] = (span){0, sizeof(Elf64_Ehdr), -1};
    spans[n++] = (span){r->eh.e_shoff, sh_at(r, r->shnum), -2};
    for (uint32_t i = 1; i < r->shnum; i++) {
        const Elf64_Shdr *s = &r->sh[i];
        if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && s->sh_size)
            spans[n++] = (span){s->sh_offset, s->sh_offset + s->sh_size, i};
    }
    qsort(spans, n, sizeof *spans, cmp_span);
    for (size_t i = 1; i < n; i++) {
        if (spans[i].start < spans[i - 1].end) {
            char a[32], b[32];
            zfail(r, PDIAG_ZEBIN_OVERLAP, spans[i].start, "%s (bytes %llu..%llu) overlaps %s",
                  span_name(&spans[i], a, sizeof a), (unsigned long long)spans[i].start,
                  (unsigned long long)spans[i].end, span_name(&spans[i - 1], b, sizeof b));
            return;
        }
    }
}

/* The NUL-terminated string at `index` of string table section `tab`, or NULL. */
static const char *table_string(const zr *r, uint32_t tab, uint64_t index) {
    const Elf64_Shdr *s = &r->sh[tab];
    if (s->sh_type != SHT_STRTAB || index >= s->sh_size) return NULL;
    const char *start = (const char *)r->p + s->sh_offset + index;
    return memchr(start, 0, s->sh_size - index) ? start : NULL;
}

static void read_section_names(zr *r) {
    if (r->sh[r->shstrndx].sh_type != SHT_STRTAB) {
        zfail(r, PDIAG_ZEBIN_STRTAB, sh_at(r, r->shstrndx) + offsetof(Elf64_Shdr, sh_type),
              "section name table (section %u) has type %u, not SHT_STRTAB", r->shstrndx, r->sh[r->shstrndx].sh_type);
        return;
    }
    for (uint32_t i = 0; i < r->shnum; i++) {
        const Elf64_Shdr *s = &r->sh[i];
        vp_zebin_section *d = &r->secs[i];
        const char *name = i ? table_string(r, r->shstrndx, s->sh_name) : "";
        if (!name) {
            zfail(r, PDIAG_ZEBIN_STRTAB, sh_at(r, i) + offsetof(Elf64_Shdr, sh_name),
                  "section %u: name index %u is outside the name table or unterminated", i, s->sh_name);
            name = "";
        }
        *d = (vp_zebin_section){.name = name,
                                .index = i,
                                .type = s->sh_type,
                                .link = s->sh_link,
                                .info = s->sh_info,
                                .flags = s->sh_flags,
                                .offset = s->sh_offset,
                                .size = s->sh_size,
                                .entsize = s->sh_entsize,
                                .addralign = s->sh_addralign};
        if (i && s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && s->sh_size) d->data = r->p + s->sh_offset;
    }
}

/* -- Symbols and relocations ------------------------------------------------------------------- */
static bool table_shape(zr *r, uint32_t i, size_t entsize, vp_diag_id d, const char *what) {
    const Elf64_Shdr *s = &r->sh[i];
    if (s->sh_entsize != entsize || s->sh_size % entsize) {
        zfail(r, d, sh_at(r, i) + offsetof(Elf64_Shdr, sh_entsize),
              "%s section %u: entry size %llu and size %llu, expected entries of %zu bytes", what, i,
              (unsigned long long)s->sh_entsize, (unsigned long long)s->sh_size, entsize);
        return false;
    }
    return true;
}

static void read_symbol(zr *r, uint32_t tab, uint32_t strtab, uint64_t k, vp_zebin_symbol *out) {
    Elf64_Sym sym;
    uint64_t at = r->sh[tab].sh_offset + k * sizeof sym;
    memcpy(&sym, r->p + at, sizeof sym);
    const char *name = table_string(r, strtab, sym.st_name);
    if (!name) {
        zfail(r, PDIAG_ZEBIN_SYMTAB, at, "symbol %llu: name index %u is outside the string table or unterminated",
              (unsigned long long)k, sym.st_name);
        name = "";
    }
    *out = (vp_zebin_symbol){
        name,         sym.st_value, sym.st_size, ELF64_ST_BIND(sym.st_info), ELF64_ST_TYPE(sym.st_info),
        sym.st_other, sym.st_shndx};
    if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS || sym.st_shndx == SHN_COMMON) return;
    if (sym.st_shndx >= r->shnum) {
        zfail(r, PDIAG_ZEBIN_SYMTAB, at + offsetof(Elf64_Sym, st_shndx),
              "symbol %llu (%s): section index %u is not a section", (unsigned long long)k, name, sym.st_shndx);
        return;
    }
    uint64_t size = r->sh[sym.st_shndx].sh_size;
    if (sym.st_value > size || sym.st_size > size - sym.st_value)
        zfail(r, PDIAG_ZEBIN_SYMTAB, at + offsetof(Elf64_Sym, st_value),
              "symbol %llu (%s): bytes %llu..%llu are outside section %u (%llu bytes)", (unsigned long long)k, name,
              (unsigned long long)sym.st_value, (unsigned long long)(sym.st_value + sym.st_size), sym.st_shndx,
              (unsigned long long)size);
}

static uint32_t read_symbols(zr *r) {
    uint32_t tab = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        if (r->sh[i].sh_type != SHT_SYMTAB) continue;
        if (tab) {
            zfail(r, PDIAG_ZEBIN_SYMTAB, sh_at(r, i), "a second symbol table (section %u)", i);
            return 0;
        }
        tab = i;
    }
    if (!tab || !table_shape(r, tab, sizeof(Elf64_Sym), PDIAG_ZEBIN_SYMTAB, "symbol table")) return 0;
    uint32_t strtab = r->sh[tab].sh_link;
    if (strtab == 0 || strtab >= r->shnum || r->sh[strtab].sh_type != SHT_STRTAB) {
        zfail(r, PDIAG_ZEBIN_STRTAB, sh_at(r, tab) + offsetof(Elf64_Shdr, sh_link),
              "symbol table's string table (section %u) is not a string table", strtab);
        return 0;
    }
    uint64_t n = r->sh[tab].sh_size / sizeof(Elf64_Sym);
    vp_zebin_symbol *syms = vp_arena_array(&r->zb->arena, n, sizeof *syms);
    if (!syms) return 0;
    for (uint64_t k = 0; k < n; k++) read_symbol(r, tab, strtab, k, &syms[k]);
    r->zb->symbols = syms;
    r->zb->symbol_count = (uint32_t)n;
    return tab;
}

/* Bytes a relocation of `type` patches (0: unknown to us, kept for the launch to judge). */
static unsigned reloc_width(uint32_t type) {
    switch (type) {
    case VP_R_ZE_SYM_ADDR: return 8;
    case VP_R_ZE_SYM_ADDR_32:
    case VP_R_ZE_SYM_ADDR_32_HI:
    case VP_R_PER_THREAD_PAYLOAD_OFFSET: return 4;
    default: return 0;
    }
}

static bool read_reloc_table(zr *r, uint32_t i, uint32_t symtab, vp_zebin_reloc_table *t) {
    const Elf64_Shdr *s = &r->sh[i];
    bool rela = s->sh_type == SHT_RELA;
    size_t entsize = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    if (!table_shape(r, i, entsize, PDIAG_ZEBIN_RELOC, "relocation")) return false;
    if (!symtab || s->sh_link != symtab) {
        zfail(r, PDIAG_ZEBIN_RELOC, sh_at(r, i) + offsetof(Elf64_Shdr, sh_link),
              "relocation section %u links section %u, not the symbol table", i, s->sh_link);
        return false;
    }
    if (s->sh_info == 0 || s->sh_info >= r->shnum || r->sh[s->sh_info].sh_type == SHT_NOBITS) {
        zfail(r, PDIAG_ZEBIN_RELOC, sh_at(r, i) + offsetof(Elf64_Shdr, sh_info),
              "relocation section %u patches section %u, which has no bytes to patch", i, s->sh_info);
        return false;
    }
    uint64_t n = s->sh_size / entsize, target_size = r->sh[s->sh_info].sh_size;
    vp_zebin_reloc *rel = vp_arena_array(&r->zb->arena, n, sizeof *rel);
    if (!rel) return false;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t at = s->sh_offset + k * entsize;
        Elf64_Rela e = {0};
        memcpy(&e, r->p + at, entsize);
        rel[k] = (vp_zebin_reloc){e.r_offset, ELF64_R_SYM(e.r_info), ELF64_R_TYPE(e.r_info), rela ? e.r_addend : 0};
        unsigned width = reloc_width(rel[k].type);
        if (rel[k].symbol >= r->zb->symbol_count)
            zfail(r, PDIAG_ZEBIN_RELOC, at + offsetof(Elf64_Rel, r_info),
                  "relocation %llu of section %u: symbol %u is not in the symbol table", (unsigned long long)k, i,
                  rel[k].symbol);
        else if (e.r_offset > target_size || width > target_size - e.r_offset)
            zfail(r, PDIAG_ZEBIN_RELOC, at,
                  "relocation %llu of section %u patches bytes %llu..%llu of section %u (%llu bytes)",
                  (unsigned long long)k, i, (unsigned long long)e.r_offset, (unsigned long long)e.r_offset + width,
                  s->sh_info, (unsigned long long)target_size);
    }
    *t = (vp_zebin_reloc_table){i, s->sh_info, rela, rel, (uint32_t)n};
    return true;
}

static void read_relocations(zr *r, uint32_t symtab) {
    uint32_t n = 0;
    for (uint32_t i = 1; i < r->shnum; i++) n += r->sh[i].sh_type == SHT_REL || r->sh[i].sh_type == SHT_RELA;
    if (!n) return;
    vp_zebin_reloc_table *t = vp_arena_array(&r->zb->arena, n, sizeof *t);
    if (!t) return;
    uint32_t k = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        if (r->sh[i].sh_type != SHT_REL && r->sh[i].sh_type != SHT_RELA) continue;
        if (read_reloc_table(r, i, symtab, &t[k])) k++;
    }
    r->zb->reloc_tables = t;
    r->zb->reloc_table_count = k;
}

/* -- The IntelGT notes and the device ---------------------------------------------------------- */
enum { NOTE_PRODUCT_FAMILY = 1, NOTE_GFX_CORE, NOTE_TARGET_METADATA, NOTE_ZEBIN_VERSION };

static void read_note(zr *r, uint64_t at, uint32_t type, const uint8_t *desc, uint32_t descsz) {
    vp_zebin_device *d = &r->zb->device;
    if (type == NOTE_ZEBIN_VERSION) {
        if (!descsz || !memchr(desc, 0, descsz))
            zfail(r, PDIAG_ZEBIN_NOTE, at, "IntelGT zebin version note is not a NUL-terminated string");
        else d->zebin_version = (const char *)desc;
        return;
    }
    if (type < NOTE_PRODUCT_FAMILY || type > NOTE_TARGET_METADATA) return; /* ABI versions etc. */
    if (descsz != 4) {
        zfail(r, PDIAG_ZEBIN_NOTE, at, "IntelGT note type %u has %u bytes, expected 4", type, descsz);
        return;
    }
    uint32_t v = rd32(desc);
    if (type == NOTE_PRODUCT_FAMILY) d->product_family = v, d->has_product_family = true;
    if (type == NOTE_GFX_CORE) d->gfx_core = v, d->has_gfx_core = v != 0;
    if (type == NOTE_TARGET_METADATA) d->target_metadata = v, d->has_target_metadata = true;
}

static void read_notes(zr *r, const vp_zebin_section *s) {
    static const char owner[] = "IntelGT";
    uint64_t pos = 0, size = s->size;
    while (pos < size) {
        uint64_t at = s->offset + pos;
        if (size - pos < sizeof(Elf64_Nhdr)) {
            zfail(r, PDIAG_ZEBIN_NOTE, at, "%llu stray bytes after the last note of %s",
                  (unsigned long long)(size - pos), s->name);
            return;
        }
        Elf64_Nhdr nh;
        memcpy(&nh, s->data + pos, sizeof nh);
        uint64_t name_at = pos + sizeof nh, desc_at = name_at + (((uint64_t)nh.n_namesz + 3) & ~3ull);
        uint64_t end = desc_at + (((uint64_t)nh.n_descsz + 3) & ~3ull);
        if (desc_at > size || end > size || nh.n_descsz > size - desc_at) {
            zfail(r, PDIAG_ZEBIN_NOTE, at, "note (name %u bytes, data %u bytes) runs past the end of %s", nh.n_namesz,
                  nh.n_descsz, s->name);
            return;
        }
        if (nh.n_namesz == sizeof owner && memcmp(s->data + name_at, owner, sizeof owner) == 0)
            read_note(r, at, nh.n_type, s->data + desc_at, nh.n_descsz);
        pos = end;
    }
}

static bool platform_of_product(uint32_t family, visa_platform *out, const char **name) {
    switch (family) {
#define VP_PRODUCT(n, number, plat)  \
    case number:                     \
        *out = VISA_PLATFORM_##plat; \
        *name = #n;                  \
        return true;
#include "devices.def"
    default: return false;
    }
}

static bool platform_of_core(uint32_t core, visa_platform *out) {
    switch (core) {
#define VP_CORE(n, number, plat)     \
    case number:                     \
        *out = VISA_PLATFORM_##plat; \
        return true;
#include "devices.def"
    default: return false;
    }
}

static void resolve_device(zr *r) {
    vp_zebin_device *d = &r->zb->device;
    const Elf64_Ehdr *e = &r->eh;
    if (e->e_machine != VP_EM_INTELGT) { /* older zebins: the device in e_machine */
        if (e->e_flags & VP_TARGET_MACHINE_IS_CORE) {
            if (!d->has_gfx_core) d->gfx_core = e->e_machine, d->has_gfx_core = e->e_machine != 0;
        } else if (!d->has_product_family) {
            d->product_family = e->e_machine, d->has_product_family = e->e_machine != 0;
        }
        if (!d->has_target_metadata) d->target_metadata = e->e_flags, d->has_target_metadata = true;
    }
    d->min_revision = (d->target_metadata >> 8) & 31;
    d->max_revision = (d->target_metadata >> 16) & 31;
    d->generator = (d->target_metadata >> 21) & 7;
    if (d->has_product_family && platform_of_product(d->product_family, &d->platform, &d->product_name))
        d->has_platform = true;
    else if (d->has_gfx_core && platform_of_core(d->gfx_core, &d->platform)) d->has_platform = true;
    if (!d->has_platform)
        vp_diag_offset(r->ds, PDIAG_W_ZEBIN_DEVICE, offsetof(Elf64_Ehdr, e_machine),
                       "the zebin's device (product family %u, gfx core %u) has no vISA platform "
                       "here",
                       d->product_family, d->gfx_core);
}

/* -- Kernels, vISA text, program-scope sections ------------------------------------------------ */
static const char *name_after(const char *name, const char *prefix) {
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 ? name + n : NULL;
}

static void read_kernels(zr *r) {
    uint32_t n = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        const char *k = name_after(r->secs[i].name, ".text.");
        n += k && *k;
    }
    vp_zebin_kernel *ks = vp_arena_array(&r->zb->arena, n, sizeof *ks);
    if (!ks) return;
    uint32_t c = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        const vp_zebin_section *s = &r->secs[i];
        const char *k = name_after(s->name, ".text.");
        if (!k || !*k) continue;
        if (s->type != SHT_PROGBITS) {
            zfail(r, PDIAG_ZEBIN_KERNEL, sh_at(r, i) + offsetof(Elf64_Shdr, sh_type),
                  "kernel section %s has type %u, not SHT_PROGBITS", s->name, s->type);
            continue;
        }
        for (uint32_t j = 0; j < c; j++)
            if (strcmp(ks[j].name, k) == 0)
                zfail(r, PDIAG_ZEBIN_KERNEL, sh_at(r, i), "a second code section for kernel %s", k);
        ks[c++] = (vp_zebin_kernel){.name = k,
                                    .text_section = i,
                                    .code = s->data,
                                    .code_size = s->size,
                                    .symbol_table = strcmp(k, VP_ZEBIN_SYMBOL_TABLE_KERNEL) == 0};
    }
    r->zb->kernels = ks;
    r->zb->kernel_count = c;
}

static void attach_visaasm(vp_zebin_kernel *k, const vp_zebin_section *s) {
    k->visaasm_section = s->index;
    k->visaasm = s->data ? (const char *)s->data : "";
    k->visaasm_len = s->data ? s->size : 0;
}

/* Named .visaasm.<kernel> sections by name, then unnamed .visaasm sections in order. */
static void map_visaasm(zr *r) {
    vp_zebin_kernel *ks = (vp_zebin_kernel *)r->zb->kernels;
    uint32_t unnamed = 0, left = 0, first_unnamed = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        const vp_zebin_section *s = &r->secs[i];
        const char *k = name_after(s->name, ".visaasm");
        if (!k || (*k && *k != '.')) continue;
        if (!*k) {
            if (!unnamed++) first_unnamed = i;
            continue;
        }
        for (uint32_t j = 0; j < r->zb->kernel_count; j++)
            if (strcmp(ks[j].name, k + 1) == 0) attach_visaasm(&ks[j], s);
    }
    if (!unnamed) return;
    for (uint32_t j = 0; j < r->zb->kernel_count; j++) left += !ks[j].visaasm_section;
    if (unnamed != left) {
        zfail(r, PDIAG_ZEBIN_VISAASM, sh_at(r, first_unnamed),
              "%u unnamed .visaasm sections for %u kernels without vISA text: which is whose "
              "is unknown",
              unnamed, left);
        return;
    }
    uint32_t j = 0;
    for (uint32_t i = 1; i < r->shnum; i++) {
        if (strcmp(r->secs[i].name, ".visaasm") != 0) continue;
        while (ks[j].visaasm_section) j++;
        attach_visaasm(&ks[j++], &r->secs[i]);
    }
}

static const struct {
    const char *name;
    size_t field; /* offsetof the pointer in vp_zebin */
    uint32_t type; /* the section type it must have; SHT_NULL: any */
} program_sections[] = {
    {".ze_info", offsetof(vp_zebin, ze_info), VP_SHT_ZEBIN_ZEINFO},
    {".spv", offsetof(vp_zebin, spirv), SHT_NULL},
    {".misc.buildOptions", offsetof(vp_zebin, build_options), SHT_NULL},
    {".data.const", offsetof(vp_zebin, data_const), SHT_PROGBITS},
    {".data.global", offsetof(vp_zebin, data_global), SHT_PROGBITS},
    {".data.global_const", offsetof(vp_zebin, data_global_const), SHT_PROGBITS},
    {".data.const.string", offsetof(vp_zebin, data_const_string), SHT_PROGBITS},
    {".bss.const", offsetof(vp_zebin, bss_const), SHT_NOBITS},
    {".bss.global", offsetof(vp_zebin, bss_global), SHT_NOBITS},
};

static void find_program_sections(zr *r) {
    for (size_t t = 0; t < sizeof program_sections / sizeof *program_sections; t++) {
        const vp_zebin_section **slot = (const vp_zebin_section **)((char *)r->zb + program_sections[t].field);
        for (uint32_t i = 1; i < r->shnum; i++) {
            const vp_zebin_section *s = &r->secs[i];
            if (strcmp(s->name, program_sections[t].name) != 0) continue;
            if (*slot) zfail(r, PDIAG_ZEBIN_SECTION, sh_at(r, i), "a second %s section (section %u)", s->name, i);
            else if (program_sections[t].type != SHT_NULL && s->type != program_sections[t].type)
                zfail(r, PDIAG_ZEBIN_SECTION, sh_at(r, i) + offsetof(Elf64_Shdr, sh_type),
                      "%s has section type 0x%x, expected 0x%x", s->name, s->type, program_sections[t].type);
            else *slot = s;
        }
    }
    for (uint32_t i = 1; i < r->shnum; i++)
        if (r->secs[i].type == SHT_NOTE && strcmp(r->secs[i].name, ".note.intelgt.compat") == 0)
            read_notes(r, &r->secs[i]);
}

static void read_all(zr *r) {
    if (!read_header(r)) return;
    r->zb->elf_type = r->eh.e_type;
    r->zb->machine = r->eh.e_machine;
    r->zb->elf_flags = r->eh.e_flags;
    if (!read_section_table(r)) return;
    check_section_ranges(r);
    if (r->err) return;
    check_overlaps(r);
    read_section_names(r);
    if (r->err) return;
    r->zb->sections = r->secs;
    r->zb->section_count = r->shnum;
    uint32_t symtab = read_symbols(r);
    read_relocations(r, symtab);
    read_kernels(r);
    if (r->zb->kernels) map_visaasm(r);
    find_program_sections(r);
    if (!r->err) resolve_device(r);
}

visa_status vp_zebin_read(visa_ctx *ctx, const char *name, const void *data, size_t len, vp_zebin **out) {
    if (!ctx || !out || (!data && len)) return VISA_E_ARG;
    *out = NULL;
    diag_sink ds;
    diag_init(&ds, ctx, name, NULL, 0);
    vp_zebin *zb = vx_alloc(ctx, sizeof *zb);
    if (!zb) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    zb->ctx = ctx;
    vp_arena_init(&zb->arena, ctx);
    uint8_t *copy = vp_arena_alloc(&zb->arena, len ? len : 1);
    if (copy) {
        if (len) memcpy(copy, data, len);
        zb->bytes = copy;
        zb->len = len;
        zr r = {.zb = zb, .ds = &ds, .p = copy, .len = len};
        read_all(&r);
    }
    if (zb->arena.failed) diag_oom(&ds);
    if (ds.errors) {
        visa_status st = zb->arena.failed ? VISA_E_NOMEM : VISA_E_BINARY;
        vp_zebin_free(zb);
        return st;
    }
    *out = zb;
    return VISA_OK;
}

void vp_zebin_free(vp_zebin *zb) {
    if (!zb) return;
    vp_arena_free(&zb->arena);
    vx_free(zb->ctx, zb, sizeof *zb);
}

const vp_zebin_section *vp_zebin_section_by_name(const vp_zebin *zb, const char *name) {
    for (uint32_t i = 0; i < zb->section_count; i++)
        if (strcmp(zb->sections[i].name, name) == 0) return &zb->sections[i];
    return NULL;
}

const vp_zebin_kernel *vp_zebin_kernel_by_name(const vp_zebin *zb, const char *name) {
    for (uint32_t i = 0; i < zb->kernel_count; i++)
        if (strcmp(zb->kernels[i].name, name) == 0) return &zb->kernels[i];
    return NULL;
}

const vp_zebin_reloc_table *vp_zebin_relocs_for(const vp_zebin *zb, uint32_t target) {
    for (uint32_t i = 0; i < zb->reloc_table_count; i++)
        if (zb->reloc_tables[i].target == target) return &zb->reloc_tables[i];
    return NULL;
}
