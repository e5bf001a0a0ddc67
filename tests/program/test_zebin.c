/* test_zebin.c -- the zebin reader (src/program/zebin.c) and the program model (program.c) on a
** zebin this test writes in IGC 1.0.12504's layout (two kernels, unnamed .visaasm sections, a
** printf string table, relocations, the IntelGT notes), then on hostile mutations of it: each
** must give its diagnostic and nothing worse; then every truncation, byte flips over the headers,
** and every allocation failing in turn. */
#include <elf.h>

#include "program_test.h"

/* -- A zebin writer ------------------------------------------------------------------------------ */
typedef struct wsec {
    const char *name;
    uint32_t type, link, info;
    uint64_t flags, entsize;
    const void *data;
    size_t size;
} wsec;

typedef struct zb_image {
    uint8_t bytes[8192];
    size_t len;
    uint64_t sec_offset[16]; /* where each section's bytes went */
    uint32_t sec_count;
    char strtab[512];
    size_t strtab_len;
} zb_image;

static uint32_t str_add(zb_image *z, const char *s) {
    uint32_t at = (uint32_t)z->strtab_len;
    size_t n = strlen(s) + 1;
    memcpy(z->strtab + at, s, n);
    z->strtab_len += n;
    return at;
}

static uint32_t str_at(const zb_image *z, const char *s) {
    for (size_t i = 0; i < z->strtab_len; i += strlen(z->strtab + i) + 1)
        if (strcmp(z->strtab + i, s) == 0) return (uint32_t)i;
    fprintf(stderr, "no string %s\n", s);
    exit(1);
}

/* The file: ELF header, the sections' bytes in order, the section table last (as IGC writes,
** which does not align them). */
static void zb_write(zb_image *z, const wsec *secs, uint32_t n, uint16_t machine) {
    Elf64_Ehdr eh = {0};
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_ident[EI_ABIVERSION] = 1;
    eh.e_type = ET_REL;
    eh.e_machine = machine;
    eh.e_version = EV_CURRENT;
    eh.e_ehsize = sizeof eh;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = (uint16_t)n;
    eh.e_shstrndx = (uint16_t)(n - 1);
    size_t pos = sizeof eh;
    Elf64_Shdr sh[16] = {{0}};
    for (uint32_t i = 1; i < n; i++) {
        const wsec *s = &secs[i];
        const void *data = s->data;
        size_t size = s->size;
        if (i == n - 1) data = z->strtab, size = z->strtab_len; /* the string table, last */
        pos = (pos + 7) & ~(size_t)7; /* aligned, so that the test may mutate headers in place */
        sh[i] = (Elf64_Shdr){str_at(z, s->name), s->type, s->flags, 0, pos, size, s->link, s->info, 0, s->entsize};
        z->sec_offset[i] = pos;
        memcpy(z->bytes + pos, data, size);
        pos += size;
    }
    pos = (pos + 7) & ~(size_t)7;
    eh.e_shoff = pos;
    memcpy(z->bytes, &eh, sizeof eh);
    memcpy(z->bytes + pos, sh, n * sizeof *sh);
    z->len = pos + n * sizeof *sh;
    z->sec_count = n;
}

static const char ze_info[] =
    "version: '1.20'\n"
    "kernels:\n"
    "  - name: k\n"
    "    execution_env: {grf_count: 128, simd_size: 16}\n"
    "    payload_arguments:\n"
    "      - {arg_type: arg_bypointer, offset: 32, size: 8, arg_index: 0, addrmode: stateless,"
    " addrspace: global, access_type: readwrite}\n"
    "      - {arg_type: printf_buffer, offset: 40, size: 8}\n"
    "  - name: other\n"
    "    execution_env: {grf_count: 256, simd_size: 32}\n"
    "kernels_misc_info:\n"
    "  - name: k\n"
    "    args_info:\n"
    "      - {index: 0, name: out, address_qualifier: __global, type_name: 'int*;8'}\n";
static const char visa_k[] = ".version 4.1\n.kernel \"kernel\"\n.kernel_attr SimdSize=16\n";
static const char visa_other[] = ".version 4.1\n.kernel \"kernel\"\n.kernel_attr SimdSize=32    \n";
static const char strings[] = "hi %d\n\0bye\n";

enum {
    S_TEXT_K = 1,
    S_TEXT_OTHER,
    S_STRINGS,
    S_SYMTAB,
    S_REL,
    S_VISA_K,
    S_VISA_OTHER,
    S_ZEINFO,
    S_NOTE,
    S_STRTAB,
    S_COUNT
};

typedef struct note4 {
    Elf64_Nhdr h;
    char name[8];
    uint8_t desc[8];
} note4;

/* The valid zebin; machine EM_INTELGT (205), product family `family` in the notes. */
static void zb_valid(zb_image *z, uint32_t family) {
    memset(z, 0, sizeof *z);
    static const char *const names[] = {"",
                                        ".text.k",
                                        ".text.other",
                                        ".data.const.string",
                                        ".symtab",
                                        ".rel.text.k",
                                        ".visaasm",
                                        ".ze_info",
                                        ".note.intelgt.compat",
                                        ".strtab",
                                        ".text.spare",
                                        ".zz_info"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) str_add(z, names[i]);
    uint32_t sym_names[4] = {str_add(z, "k"), str_add(z, "other"), str_add(z, ".str"), str_add(z, ".str.1")};
    static uint8_t code_k[64], code_other[32];
    memset(code_k, 0x11, sizeof code_k);
    memset(code_other, 0x22, sizeof code_other);
    static Elf64_Sym syms[5];
    memset(syms, 0, sizeof syms);
    syms[1] = (Elf64_Sym){sym_names[0], ELF64_ST_INFO(STB_LOCAL, STT_FUNC), 0, S_TEXT_K, 0, 64};
    syms[2] = (Elf64_Sym){sym_names[1], ELF64_ST_INFO(STB_LOCAL, STT_FUNC), 0, S_TEXT_OTHER, 0, 32};
    syms[3] = (Elf64_Sym){sym_names[2], ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), 0, S_STRINGS, 0, 7};
    syms[4] = (Elf64_Sym){sym_names[3], ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), 0, S_STRINGS, 7, 5};
    static Elf64_Rel rels[2];
    rels[0] = (Elf64_Rel){16, ELF64_R_INFO(3, VP_R_ZE_SYM_ADDR_32)};
    rels[1] = (Elf64_Rel){24, ELF64_R_INFO(4, VP_R_ZE_SYM_ADDR_32_HI)};
    static note4 notes[3];
    static uint8_t note_bytes[sizeof notes + 32];
    const uint32_t values[3] = {family, 0, 0x00280800};
    for (int i = 0; i < 3; i++) {
        notes[i] = (note4){{8, 4, (uint32_t)i + 1}, "IntelGT", {0}};
        memcpy(notes[i].desc, &values[i], 4);
    }
    size_t nlen = 0;
    for (int i = 0; i < 3; i++) { /* a note is 12 + 8 + 4 bytes */
        memcpy(note_bytes + nlen, &notes[i], 24);
        nlen += 24;
    }
    note4 ver = {{8, 5, 4}, "IntelGT", "1.20"};
    memcpy(note_bytes + nlen, &ver, 28);
    nlen += 28;
    const wsec secs[S_COUNT] = {
        {"", 0, 0, 0, 0, 0, NULL, 0},
        {".text.k", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, 0, code_k, sizeof code_k},
        {".text.other", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, 0, code_other, sizeof code_other},
        {".data.const.string", SHT_PROGBITS, 0, 0, SHF_ALLOC, 0, strings, sizeof strings},
        {".symtab", SHT_SYMTAB, S_STRTAB, 3, 0, sizeof(Elf64_Sym), syms, sizeof syms},
        {".rel.text.k", SHT_REL, S_SYMTAB, S_TEXT_K, 0, sizeof(Elf64_Rel), rels, sizeof rels},
        {".visaasm", VP_SHT_ZEBIN_VISAASM, 0, 0, 0, 0, visa_k, sizeof visa_k - 1},
        {".visaasm", VP_SHT_ZEBIN_VISAASM, 0, 0, 0, 0, visa_other, sizeof visa_other - 1},
        {".ze_info", VP_SHT_ZEBIN_ZEINFO, 0, 0, 0, 0, ze_info, sizeof ze_info - 1},
        {".note.intelgt.compat", SHT_NOTE, 0, 0, 0, 0, note_bytes, nlen},
        {".strtab", SHT_STRTAB, 0, 0, 0, 0, NULL, 0},
    };
    zb_write(z, secs, S_COUNT, 205);
}

/* Pointers into the image's headers, to mutate them */
static Elf64_Ehdr *eh_of(zb_image *z) { return (Elf64_Ehdr *)(void *)z->bytes; }
static Elf64_Shdr *sh_of(zb_image *z, uint32_t i) {
    return (Elf64_Shdr *)(void *)(z->bytes + eh_of(z)->e_shoff + i * sizeof(Elf64_Shdr));
}
static Elf64_Sym *sym_of(zb_image *z, uint32_t i) {
    return (Elf64_Sym *)(void *)(z->bytes + z->sec_offset[S_SYMTAB] + i * sizeof(Elf64_Sym));
}
static Elf64_Rel *rel_of(zb_image *z, uint32_t i) {
    return (Elf64_Rel *)(void *)(z->bytes + z->sec_offset[S_REL] + i * sizeof(Elf64_Rel));
}

/* -- The valid zebin, read whole ------------------------------------------------------------------ */
static void test_valid(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    zb_image z;
    zb_valid(&z, 1270);
    CASE_BEGIN();
    vp_program *p = NULL;
    visa_status st = vp_program_read(ctx, "valid", z.bytes, z.len, &p);
    CHECKF(st == VISA_OK && s.count == 0, "status %d, %u diagnostics (%s)", st, s.count,
           s.count ? s.diags[0].message : "");
    if (p) {
        const vp_zebin *zb = p->zebin;
        CHECK(zb->section_count == S_COUNT && strcmp(zb->sections[S_ZEINFO].name, ".ze_info") == 0);
        CHECK(zb->elf_type == ET_REL && zb->machine == 205);
        CHECK(zb->kernel_count == 2 && strcmp(zb->kernels[0].name, "k") == 0 && zb->kernels[0].code_size == 64 &&
              zb->kernels[0].code[0] == 0x11);
        CHECK(zb->kernels[0].visaasm_section == S_VISA_K && zb->kernels[1].visaasm_section == S_VISA_OTHER);
        CHECK(zb->kernels[1].visaasm_len == sizeof visa_other - 1 &&
              memcmp(zb->kernels[1].visaasm, visa_other, sizeof visa_other - 1) == 0);
        CHECK(zb->symbol_count == 5 && strcmp(zb->symbols[4].name, ".str.1") == 0 && zb->symbols[4].value == 7 &&
              zb->symbols[4].shndx == S_STRINGS && zb->symbols[4].bind == STB_GLOBAL &&
              zb->symbols[1].type == STT_FUNC);
        const vp_zebin_reloc_table *rt = vp_zebin_relocs_for(zb, S_TEXT_K);
        CHECK(rt && rt->count == 2 && !rt->rela && rt->relocs[1].offset == 24 && rt->relocs[1].symbol == 4 &&
              rt->relocs[1].type == VP_R_ZE_SYM_ADDR_32_HI);
        CHECK(zb->device.has_platform && zb->device.platform == VISA_PLATFORM_XEHPG &&
              zb->device.product_family == 1270 && strcmp(zb->device.product_name, "DG2") == 0);
        CHECK(zb->device.zebin_version && strcmp(zb->device.zebin_version, "1.20") == 0);
        CHECK(zb->device.min_revision == 8 && zb->device.max_revision == 8 && zb->device.generator == 1);
        CHECK(zb->data_const_string == &zb->sections[S_STRINGS] && !zb->data_const && !zb->data_global);
        CHECK(vp_zebin_section_by_name(zb, ".symtab") == &zb->sections[S_SYMTAB]);
        CHECK(p->kernel_count == 2 && p->kernels[1].info->env.grf_count == 256 &&
              p->kernels[1].code == &zb->kernels[1]);
        const vp_program_kernel *k = vp_program_kernel_by_name(p, "k");
        CHECK(k && k->info->arg_count == 2 && k->info->arg_info_count == 1 &&
              strcmp(k->info->arg_infos[0].name, "out") == 0);
        CHECK(p->printf_string_count == 2 && strcmp(p->printf_strings[1].text, "bye\n") == 0);
        const vp_printf_string *ps = vp_program_printf_string(p, 7);
        CHECK(ps && ps->len == 4 && vp_program_printf_string(p, 3) == NULL);
    }
    vp_program_free(p);
    CASE_END("valid zebin");

    /* extended numbering: e_shnum 0, the count in section 0's sh_size */
    pt_reset(&s);
    CASE_BEGIN();
    sh_of(&z, 0)->sh_size = eh_of(&z)->e_shnum;
    eh_of(&z)->e_shnum = 0;
    CHECK(vp_program_read(ctx, "extended", z.bytes, z.len, &p) == VISA_OK && p->zebin->section_count == S_COUNT);
    vp_program_free(p);
    CASE_END("extended section numbering");

    /* product family from e_machine (older zebins), a family without a vISA platform */
    for (int i = 0; i < 2; i++) {
        pt_reset(&s);
        CASE_BEGIN();
        zb_valid(&z, i ? 1380 : 0);
        if (!i) { /* no product family note: e_machine is the product family (PVC) */
            eh_of(&z)->e_machine = 1271;
            sh_of(&z, S_NOTE)->sh_type = SHT_PROGBITS;
        }
        CHECK(vp_program_read(ctx, "device", z.bytes, z.len, &p) == VISA_OK);
        if (p && !i) CHECK(p->zebin->device.has_platform && p->zebin->device.platform == VISA_PLATFORM_XEHPC);
        if (p && i) CHECK(!p->zebin->device.has_platform && pt_find(&s, "W-ZEBIN-DEVICE"));
        vp_program_free(p);
        CASE_END(i ? "family without a platform" : "family in e_machine");
    }
    visa_ctx_destroy(ctx);
}

/* -- Hostile mutations ---------------------------------------------------------------------------- */
typedef void (*mutate_fn)(zb_image *z);
#define MUT(name) static void name(zb_image *z)
MUT(m_magic) { z->bytes[1] = 'X'; }
MUT(m_class32) { z->bytes[EI_CLASS] = ELFCLASS32; }
MUT(m_bigendian) { z->bytes[EI_DATA] = ELFDATA2MSB; }
MUT(m_type) { eh_of(z)->e_type = 7; }
MUT(m_shentsize) { eh_of(z)->e_shentsize = 40; }
MUT(m_shoff_past) { eh_of(z)->e_shoff = z->len + 8; }
MUT(m_shnum_past) { eh_of(z)->e_shnum = 200; }
MUT(m_shoff_wrap) { eh_of(z)->e_shoff = UINT64_MAX - 16; }
MUT(m_shstrndx) { eh_of(z)->e_shstrndx = 40; }
MUT(m_shstrndx_type) { eh_of(z)->e_shstrndx = S_ZEINFO; }
MUT(m_offset_past) { sh_of(z, S_ZEINFO)->sh_offset = z->len + 100; }
MUT(m_size_past) { sh_of(z, S_TEXT_K)->sh_size = UINT64_MAX - 8; }
MUT(m_name_past) { sh_of(z, S_TEXT_OTHER)->sh_name = 100000; }
MUT(m_name_unterminated) { z->bytes[z->sec_offset[S_STRTAB] + z->strtab_len - 1] = 'x'; }
MUT(m_overlap) { sh_of(z, S_TEXT_OTHER)->sh_offset = z->sec_offset[S_TEXT_K] + 8; }
MUT(m_overlap_table) {
    sh_of(z, S_ZEINFO)->sh_offset = eh_of(z)->e_shoff - 16;
    sh_of(z, S_ZEINFO)->sh_size = 32;
}
MUT(m_overlap_header) { sh_of(z, S_TEXT_K)->sh_offset = 0; }
MUT(m_bss_huge) {
    sh_of(z, S_STRINGS)->sh_type = SHT_NOBITS;
    sh_of(z, S_STRINGS)->sh_size = 1ull << 40;
}
MUT(m_symtab_entsize) { sh_of(z, S_SYMTAB)->sh_entsize = 16; }
MUT(m_symtab_link) { sh_of(z, S_SYMTAB)->sh_link = S_ZEINFO; }
MUT(m_symtab_twice) { sh_of(z, S_REL)->sh_type = SHT_SYMTAB; }
MUT(m_sym_name) { sym_of(z, 2)->st_name = 5000; }
MUT(m_sym_shndx) { sym_of(z, 3)->st_shndx = 77; }
MUT(m_sym_value) { sym_of(z, 4)->st_value = 10; }
MUT(m_rel_symbol) { rel_of(z, 1)->r_info = ELF64_R_INFO(9, VP_R_ZE_SYM_ADDR_32); }
MUT(m_rel_offset) { rel_of(z, 0)->r_offset = 62; }
MUT(m_rel_target) { sh_of(z, S_REL)->sh_info = 0; }
MUT(m_rel_link) { sh_of(z, S_REL)->sh_link = S_STRTAB; }
MUT(m_rel_entsize) { sh_of(z, S_REL)->sh_entsize = 24; }
MUT(m_note_size) { ((Elf64_Nhdr *)(void *)(z->bytes + z->sec_offset[S_NOTE]))->n_descsz = 4000; }
MUT(m_note_desc) { ((Elf64_Nhdr *)(void *)(z->bytes + z->sec_offset[S_NOTE]))->n_descsz = 2; }
MUT(m_note_stray) { sh_of(z, S_NOTE)->sh_size -= 20; }
MUT(m_visaasm_count) { sh_of(z, S_TEXT_OTHER)->sh_name = str_at(z, ".zz_info"); }
MUT(m_kernel_twice) { sh_of(z, S_TEXT_OTHER)->sh_name = str_at(z, ".text.k"); }
MUT(m_kernel_type) { sh_of(z, S_TEXT_OTHER)->sh_type = SHT_NOTE; }
MUT(m_zeinfo_type) { sh_of(z, S_ZEINFO)->sh_type = SHT_PROGBITS; }
MUT(m_zeinfo_twice) {
    sh_of(z, S_STRINGS)->sh_name = str_at(z, ".ze_info");
    sh_of(z, S_STRINGS)->sh_type = VP_SHT_ZEBIN_ZEINFO;
}
MUT(m_no_zeinfo) { sh_of(z, S_ZEINFO)->sh_name = str_at(z, ".zz_info"); }
MUT(m_no_text) { sh_of(z, S_TEXT_OTHER)->sh_name = str_at(z, ".text.spare"); }
MUT(m_zeinfo_bad) { z->bytes[z->sec_offset[S_ZEINFO] + 40] = '['; }

static const struct {
    const char *name;
    mutate_fn mutate;
    const char *code;
    visa_status status;
} mutations[] = {
    {"bad magic", m_magic, "E-ZEBIN-HEADER", VISA_E_BINARY},
    {"32-bit", m_class32, "E-ZEBIN-HEADER", VISA_E_BINARY},
    {"big-endian", m_bigendian, "E-ZEBIN-HEADER", VISA_E_BINARY},
    {"ELF type", m_type, "E-ZEBIN-HEADER", VISA_E_BINARY},
    {"section header size", m_shentsize, "E-ZEBIN-HEADER", VISA_E_BINARY},
    {"section table past the end", m_shoff_past, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"section count past the end", m_shnum_past, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"section table offset wraps", m_shoff_wrap, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"name table index", m_shstrndx, "E-ZEBIN-STRTAB", VISA_E_BINARY},
    {"name table type", m_shstrndx_type, "E-ZEBIN-STRTAB", VISA_E_BINARY},
    {"section past the end", m_offset_past, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"section size wraps", m_size_past, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"name index past the table", m_name_past, "E-ZEBIN-STRTAB", VISA_E_BINARY},
    {"symbol name unterminated", m_name_unterminated, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"sections overlap", m_overlap, "E-ZEBIN-OVERLAP", VISA_E_BINARY},
    {"section over the section table", m_overlap_table, "E-ZEBIN-OVERLAP", VISA_E_BINARY},
    {"section over the ELF header", m_overlap_header, "E-ZEBIN-OVERLAP", VISA_E_BINARY},
    {"huge .bss", m_bss_huge, "E-ZEBIN-LIMIT", VISA_E_BINARY},
    {"symbol size", m_symtab_entsize, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"symbol strings", m_symtab_link, "E-ZEBIN-STRTAB", VISA_E_BINARY},
    {"two symbol tables", m_symtab_twice, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"symbol name", m_sym_name, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"symbol section", m_sym_shndx, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"symbol past its section", m_sym_value, "E-ZEBIN-SYMTAB", VISA_E_BINARY},
    {"relocation symbol", m_rel_symbol, "E-ZEBIN-RELOC", VISA_E_BINARY},
    {"relocation past its section", m_rel_offset, "E-ZEBIN-RELOC", VISA_E_BINARY},
    {"relocation target", m_rel_target, "E-ZEBIN-RELOC", VISA_E_BINARY},
    {"relocation symbols", m_rel_link, "E-ZEBIN-RELOC", VISA_E_BINARY},
    {"relocation size", m_rel_entsize, "E-ZEBIN-RELOC", VISA_E_BINARY},
    {"note past its section", m_note_size, "E-ZEBIN-NOTE", VISA_E_BINARY},
    {"note of 2 bytes", m_note_desc, "E-ZEBIN-NOTE", VISA_E_BINARY},
    {"stray note bytes", m_note_stray, "E-ZEBIN-NOTE", VISA_E_BINARY},
    {"vISA sections for missing kernels", m_visaasm_count, "E-ZEBIN-VISAASM", VISA_E_BINARY},
    {"kernel twice", m_kernel_twice, "E-ZEBIN-KERNEL", VISA_E_BINARY},
    {"kernel section type", m_kernel_type, "E-ZEBIN-KERNEL", VISA_E_BINARY},
    {".ze_info type", m_zeinfo_type, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"two .ze_info", m_zeinfo_twice, "E-ZEBIN-SECTION", VISA_E_BINARY},
    {"no .ze_info", m_no_zeinfo, "E-PROGRAM-ZEINFO", VISA_E_BINARY},
    {".ze_info kernel without code", m_no_text, "E-PROGRAM-KERNEL", VISA_E_BINARY},
    {".ze_info not YAML", m_zeinfo_bad, "E-ZEINFO-YAML", VISA_E_SYNTAX},
};

static void test_mutations(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
        zb_image z;
        zb_valid(&z, 1270);
        mutations[i].mutate(&z);
        pt_reset(&s);
        CASE_BEGIN();
        vp_program *p = (vp_program *)&s;
        visa_status st = vp_program_read(ctx, mutations[i].name, z.bytes, z.len, &p);
        const pt_diag *d = NULL;
        for (unsigned k = 0; k < s.count && !d; k++)
            if (s.diags[k].sev == VISA_SEV_ERROR) d = &s.diags[k];
        CHECKF(st == mutations[i].status && !p, "%s: status %d", mutations[i].name, st);
        CHECKF(d && strcmp(d->code, mutations[i].code) == 0, "%s: expected %s, got %s (%s)", mutations[i].name,
               mutations[i].code, d ? d->code : "nothing", d ? d->message : "");
        if (d && d->line == 0 && strncmp(d->code, "E-ZEBIN", 7) == 0)
            CHECKF(d->offset < z.len, "%s: offset %llu is not in the file", mutations[i].name,
                   (unsigned long long)d->offset);
        CASE_END(mutations[i].name);
    }
    /* vISA sections swapped: each kernel's text says the other's SIMD size */
    zb_image z;
    zb_valid(&z, 1270);
    uint64_t a = sh_of(&z, S_VISA_K)->sh_offset, b = sh_of(&z, S_VISA_OTHER)->sh_offset;
    uint64_t as = sh_of(&z, S_VISA_K)->sh_size, bs = sh_of(&z, S_VISA_OTHER)->sh_size;
    sh_of(&z, S_VISA_K)->sh_offset = b, sh_of(&z, S_VISA_K)->sh_size = bs;
    sh_of(&z, S_VISA_OTHER)->sh_offset = a, sh_of(&z, S_VISA_OTHER)->sh_size = as;
    pt_reset(&s);
    CASE_BEGIN();
    vp_program *p = NULL;
    CHECK(vp_program_read(ctx, "swapped", z.bytes, z.len, &p) == VISA_OK);
    CHECK(s.warnings == 2 && pt_find(&s, "W-PROGRAM-VISAASM"));
    vp_program_free(p);
    CASE_END("vISA text of another kernel");
    visa_ctx_destroy(ctx);
}

/* Every truncation fails cleanly; flipped header bytes never crash the reader. */
static void test_truncations_and_flips(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    zb_image z;
    zb_valid(&z, 1270);
    CASE_BEGIN();
    for (size_t len = 0; len < z.len; len++) {
        pt_reset(&s);
        vp_zebin *zb = NULL;
        visa_status st = vp_zebin_read(ctx, "cut", z.bytes, len, &zb);
        CHECKF(st == VISA_E_BINARY && !zb && s.errors, "truncated to %zu: status %d", len, st);
        vp_zebin_free(zb);
    }
    CASE_END("truncations");
    CASE_BEGIN();
    static const uint8_t values[] = {0, 1, 0x7f, 0x80, 0xff};
    const size_t table = (size_t)eh_of(&z)->e_shoff;
    unsigned accepted = 0;
    for (size_t pos = 0; pos < z.len; pos++) {
        if (pos >= sizeof(Elf64_Ehdr) && pos < table && (pos < z.sec_offset[S_SYMTAB] || pos >= z.sec_offset[S_VISA_K]))
            continue; /* the headers, symbols, relocations */
        for (size_t v = 0; v < sizeof values; v++) {
            zb_image m = z;
            m.bytes[pos] = values[v];
            pt_reset(&s);
            vp_program *p = NULL;
            visa_status st = vp_program_read(ctx, "flip", m.bytes, m.len, &p);
            CHECKF((st == VISA_OK) == (p != NULL) && (st == VISA_OK || s.errors),
                   "byte %zu = %u: status %d with %u errors", pos, values[v], st, s.errors);
            accepted += st == VISA_OK;
            vp_program_free(p);
        }
    }
    CHECK(accepted > 0);
    CASE_END("byte flips");
    visa_ctx_destroy(ctx);
}

static visa_status read_image(visa_ctx *ctx, const void *arg) {
    const zb_image *z = arg;
    vp_program *p = NULL;
    visa_status st = vp_program_read(ctx, "nomem", z->bytes, z->len, &p);
    vp_program_free(p);
    return st;
}

static void test_nomem(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    static zb_image z;
    zb_valid(&z, 1270);
    pt_nomem_rounds(ctx, &s, read_image, &z);
    visa_ctx_destroy(ctx);
}

int main(void) {
    test_valid();
    test_mutations();
    test_truncations_and_flips();
    test_nomem();
    return th_finish();
}
