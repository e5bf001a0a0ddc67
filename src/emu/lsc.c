/* lsc.c -- LSC untyped load and store (spec LSC_UNTYPED; formats.md 2.10.4): per-lane addresses
** (a64 / a32) or one transposed block, data sizes d8..d64 and the zero-extending d8u32/d16u32
** forms, 1..64 elements per address, global memory (ugm) and shared local memory (slm).
** Register layout of the data payload: element k of every lane, then element k+1, each element
** run padded to whole GRFs; transposed: elements contiguous.  Out-of-bounds accesses are
** run-time errors naming the lane.
*/
#include <string.h>

#include "exec.h"

enum { SFID_UGM = 0, SFID_UGML = 1, SFID_SLM = 3 };

/* op->info: sfid | addr size << 4 | data size << 8 | order << 12 | elems << 16 | addr type << 24 */
#define F_SFID(i) ((i) & 0xF)
#define F_ASIZE(i) (((i) >> 4) & 0xF)
#define F_DSIZE(i) (((i) >> 8) & 0xF)
#define F_ORDER(i) (((i) >> 12) & 0xF)
#define F_ELEMS(i) (((i) >> 16) & 0xFF)
#define F_ATYPE(i) (((i) >> 24) & 0xF)

static const uint8_t elems_of_code[9] = {0, 1, 2, 3, 4, 8, 16, 32, 64};
/* memory bytes and register bytes per element by data-size code */
static const uint8_t mem_bytes[8] = {0, 1, 2, 4, 8, 1, 2, 2};
static const uint8_t reg_bytes[8] = {0, 1, 2, 4, 8, 4, 4, 4};

static bool lower_lsc(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    /* fields in layout order (ops.def LSC_U_GEN) */
    unsigned sfid = (unsigned)in->opnd[0].u.num, atype = (unsigned)in->opnd[3].u.num,
             asize = (unsigned)in->opnd[6].u.num, dsize = (unsigned)in->opnd[7].u.num,
             order = (unsigned)in->opnd[8].u.num, ecode = (unsigned)in->opnd[9].u.num;
    const char *why = NULL;
    if (sfid != SFID_UGM && sfid != SFID_UGML && sfid != SFID_SLM) why = "only .ugm, .ugml and .slm";
    else if (atype != 1) why = "only flat addressing";
    else if (asize != 2 && asize != 3) why = "only :a32 and :a64 addresses";
    else if (dsize < 1 || dsize > 7 || dsize == 7) why = "data size d16u32h";
    else if (ecode < 1 || ecode > 8) why = "this vector size";
    else if (order != 1 && order != 2) why = "this data order";
    if (why) {
        diag_at(ds, VISA_SEV_ERROR, "E-RUN", in->line, in->col,
                "'%s' is supported by the emulator with %s so far", isa_forms[in->form].name, why);
        return false;
    }
    (void)p;
    op->info = sfid | asize << 4 | dsize << 8 | order << 12 | (unsigned)elems_of_code[ecode] << 16 |
               atype << 24;
    op->imm = (int32_t)in->opnd[5].u.num;
    op->cond = (uint8_t)0; /* unused */
    op->target = (uint32_t)in->opnd[4].u.num ? (uint32_t)in->opnd[4].u.num : 1; /* address scale */
    /* raw operands: dst, src0 (addresses), src1 (store data) in op->src[0..] after the surface */
    return true;
}

static uint8_t *mem_ptr(emu_thread *t, unsigned sfid, uint64_t addr, uint32_t size) {
    if (sfid == SFID_SLM) {
        emu_mem *m = t->mem;
        if (!m->slm || addr > m->slm_size || size > m->slm_size - addr) return NULL;
        return m->slm + addr;
    }
    return emu_global(t->mem, addr, size);
}

/* operand indices: src[0] = surface (vector), src[1] = dst raw, src[2] = address raw, src[3] = data raw */
static void lsc_access(emu_thread *t, const emu_op *op, bool store) {
    unsigned info = op->info, sfid = F_SFID(info), ds = F_DSIZE(info), elems = F_ELEMS(info);
    unsigned mb = mem_bytes[ds], rb = reg_bytes[ds], asz = F_ASIZE(info) == 3 ? 8 : 4;
    unsigned grf = t->prog->lay.grf_bytes;
    uint8_t *file = t->file;
    const emu_opnd *data = store ? &op->src[3] : &op->src[1];
    const emu_opnd *adr = &op->src[2];
    uint32_t fsize = t->prog->lay.file_bytes;
    if (F_ORDER(info) == 2) {
        /* transposed: one address (lane 0), elems contiguous elements */
        uint64_t a = 0;
        memcpy(&a, file + adr->off, asz);
        a = a * op->target + (uint64_t)(int64_t)op->imm;
        uint32_t bytes = elems * mb;
        uint8_t *m = mem_ptr(t, sfid, a, bytes);
        if (!m) {
            emu_fault(t, 0, "%s of %u bytes at 0x%llx is out of bounds", store ? "store" : "load", bytes,
                      (unsigned long long)a);
            return;
        }
        if (data->off + (uint64_t)elems * rb > fsize) {
            emu_fault(t, 0, "data payload outside the register file");
            return;
        }
        for (unsigned k = 0; k < elems; k++) {
            uint8_t *r = file + data->off + k * rb;
            if (store) memcpy(m + k * mb, r, mb);
            else {
                memset(r, 0, rb);
                memcpy(r, m + k * mb, mb);
            }
        }
        t->pc++;
        return;
    }
    uint32_t mask = emu_chen(t, op);
    unsigned n = op->exec;
    uint32_t run = ((n * rb + grf - 1) / grf) * grf; /* one element of every lane, whole GRFs */
    if (data->off + (uint64_t)run * elems > fsize || adr->off + (uint64_t)n * asz > fsize) {
        emu_fault(t, 0, "message payload outside the register file");
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint64_t a = 0;
        memcpy(&a, file + adr->off + i * asz, asz);
        a = a * op->target + (uint64_t)(int64_t)op->imm; /* Base + Scale * Addr + ImmOffset */
        uint8_t *m = mem_ptr(t, sfid, a, elems * mb);
        if (!m) {
            emu_fault(t, i, "%s of %u bytes at 0x%llx is out of bounds", store ? "store" : "load",
                      elems * mb, (unsigned long long)a);
            return;
        }
        for (unsigned k = 0; k < elems; k++) {
            uint8_t *r = file + data->off + k * run + i * rb;
            if (store) memcpy(m + k * mb, r, mb);
            else {
                memset(r, 0, rb);
                memcpy(r, m + k * mb, mb);
            }
        }
    }
    t->pc++;
}

static void h_lsc_load(emu_thread *t, const emu_op *op) { lsc_access(t, op, false); }
static void h_lsc_store(emu_thread *t, const emu_op *op) { lsc_access(t, op, true); }

static const emu_sem sem_lsc_load = {h_lsc_load, 0, lower_lsc};
static const emu_sem sem_lsc_store = {h_lsc_store, 0, lower_lsc};

static void h_fence(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++; /* memory is coherent in the emulator: a fence only orders, which is already so */
}
static const emu_sem sem_fence = {h_fence, 0, NULL};

const emu_sem *emu_sem_lsc(unsigned form) {
    switch (form) {
    case VISA_FORM_LSC_LOAD: return &sem_lsc_load;
    case VISA_FORM_LSC_STORE: return &sem_lsc_store;
    case VISA_FORM_LSC_FENCE: case VISA_FORM_FENCE: return &sem_fence;
    default: return NULL;
    }
}
