/* lsc.c -- LSC messages (spec pages LSC_UNTYPED, LSC_FENCE; messages.md sections 2-3; formats.md
** 2.10.4), from the native instructions and from raw sends (send.c decodes the SFID and hands the
** descriptors to emu_lsc_lower_send).  Both lower to one normalised form (below), run by a handful
** of handlers.
**
** Memory: .slm is the thread group's shared local memory; .ugm / .ugml flat addresses are global
** (emu_global).  Surface address models (bti, bss, ss): the surface operand's value (an immediate,
** a general variable or a surface state variable) plus the surface index field is the index of the
** buffer the surface is bound to (a surface input bound to buffer i holds i, see launch.c); the
** address is a byte offset into that buffer (emu_surface).  A surface state variable that is one
** of the predefined surfaces means: T0 (%slm) shared local memory, T5 (%scratch, "T255"
** stateless) flat global memory; T1..T4 have no meaning here and fault.  Model `arg` is rejected.
** A surface naming the scratch buffer (visa_run_opts.scratch_size; IGC's ss(r0.5 >> 4)) is the
** running thread's scratch slice: addresses are offsets from its start, past its end an error
** (E-RUN-OOB-SCRATCH), as the hardware's per-thread scratch surface.
**
** Addresses: Base + AddrScale * addr + AddrImmOffset, computed at the address size (a16/a32
** offsets wrap at 32 bits, a32s is sign-extended, a64 wraps at 64 bits).
** Register layout (SIMT): component v of lane n at v * CompStride + n * RegElemBytes, CompStride =
** max(1, W * RegElemBytes / GRF) GRFs with W = max(ExecSize, the minimum payload width:
** platforms.def's lsc_simd), as vISA sizes the payload (native
** instructions), or response length / components (raw sends, messages.md 3.1).  Transposed
** (SIMD1): the elements contiguous.  D8 / D16 occupy 1 / 2 register bytes, D8U32 / D16U32 are
** zero-extended to 32 bits, D16U32H sits in the high half.
** Out-of-bounds SIMT, transposed, atomic and status-free accesses are run-time errors naming the
** lane and the address; lsc_load_status reports them as status bits instead.
**
** 2D block messages (messages.md 3.3, spec LOAD_BLOCK2D pseudo-code): payload base, width - 1
** (bytes), height - 1 (rows), pitch - 1 (bytes), X (elements), Y (rows), shape; elements outside
** the surface read as zero and are not stored; register layout plain / VNNI / transposed with
** pow2 row pitch and blocks padded to whole GRFs.  A surface element that lies in no buffer faults.
**
** Atomics return the old value, act on each enabled lane in lane order, on DataSize-bit memory
** values: integer ops wrap; fadd/fsub/fmin/fmax/fcas on hf (d16), f (d32) or df (d64), the bf*
** ops on bf16 (d16), each rounded once to nearest even; fmin/fmax return the non-NaN operand when
** one is NaN and order -0 below +0; fcas compares as floats.  Global atomics make the program run
** its groups in order (emu_program.global_atomics).
**
** Append-counter atomics (lsc_apndctr_atomic_add/sub): the counter is the DataSize element
** at byte 0 of the surface's buffer (the emulator has no auxiliary surface: bind the counter's
** buffer); lanes update it in lane order and receive the old value.
** Typed messages (tgm, native LSC_TYPED only) treat the bound buffer as a 1D surface of texels of 4
** DataSize channels: see emu_lsc_lower_typed.  Typed 2D blocks, read_state_info and the msrt/status forms
** are not emulated, and neither are lsc_ccs_update, lsc_extended_cache_ctrl and
** lsc_apndctr_atomic_store: no spec page defines what they do (src/emu/sem.def says why).
** lsc_load_status: dword 0 of the destination gets bit n = lane n enabled and every element of its
** address in bounds.  Prefetches (loads to %null, rlen 0) and fences do nothing: the emulator's
** memory is coherent and in program order.
*/
#include <math.h>
#include <string.h>

#include "probe.h"
#include "mem.h"
#include "convert.h"
#include "desc_fields.h"
#include "lsc_layout.h"
#include "access.h"
#include "families.h"
#include "opnd.h"

/* -- The normalised message ----------------------------------------------------------------------
** op->info: op [5:0] | sfid [7:6] | addr type [10:8] | addr size [13:11] | data size [16:14] |
**           transposed [17] | vnni [18] | eot [19] | chmask [23:20] | elems - 1 [30:24] | raw [31]
**           (block2d: [20] = address from a payload register, [31] = shape from the payload)
** op->imm: immediate address offset (block2d: X offset [15:0], Y offset [31:16])
** op->target: address scale (block2d: W | H << 9 | blocks << 18 from the instruction, or the raw
**           response / src1 length in bytes)
** op->dst.off: SIMT dst component stride (bytes); op->dst.ind_off: src1 component stride
** op->dst2.lanes: surface index added to the surface value
** SIMT/atomic operands: src[0] dst, src[1] addresses, src[2] data 1, src[3] data 2 (strided: the
** pitch; none in a raw send: the pitch is payload dword 2), src[4] surface.
** block2d operands: src[0] data (dst or stored data), src[1] base or payload, src[2..4] width,
** height, pitch, dst X, dst2 Y. */
#define I_OP(i) ((i)&0x3F)
#define I_SFID(i) (((i) >> 6) & 3)
#define I_ATYPE(i) (((i) >> 8) & 7)
#define I_ASIZE(i) (((i) >> 11) & 7)
#define I_DSIZE(i) (((i) >> 14) & 7)
#define I_TRANSPOSE(i) (((i) >> 17) & 1)
#define I_VNNI(i) (((i) >> 18) & 1)
#define I_EOT(i) (((i) >> 19) & 1)
#define I_CHMASK(i) (((i) >> 20) & 0xF)
#define I_ELEMS(i) ((((i) >> 24) & 0x7F) + 1)
#define I_RAW(i) (((i) >> 31) & 1)
#define I_PAYLOAD(i) (((i) >> 20) & 1)

static uint32_t pack_info(unsigned opc, unsigned sfid, unsigned atype, unsigned asize, unsigned dsize, bool transpose,
                          bool vnni, bool eot, unsigned chmask, unsigned elems, bool raw) {
    return opc | sfid << 6 | atype << 8 | asize << 11 | dsize << 14 | (unsigned)transpose << 17 | (unsigned)vnni << 18 |
           (unsigned)eot << 19 | chmask << 20 | (elems - 1) << 24 | (uint32_t)raw << 31;
}

static const uint8_t elems_of_code[9] = {0, 1, 2, 3, 4, 8, 16, 32, 64};
/* memory bytes and register bytes per element by data-size code */
static const uint8_t mem_bytes[8] = {0, 1, 2, 4, 8, 1, 2, 2};
static const uint8_t reg_bytes[8] = {0, 1, 2, 4, 8, 4, 4, 4};
static const uint8_t addr_bytes[6] = {0, 2, 4, 8, 4, 4};

static unsigned popcount4(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1); }

static bool is_atomic(unsigned opc) {
    return (opc >= VISA_LSC_OP_ATOMIC_IINC && opc <= VISA_LSC_OP_ATOMIC_XOR) ||
           (opc >= VISA_LSC_OP_ATOMIC_BFADD && opc <= VISA_LSC_OP_ATOMIC_BFCAS);
}
static unsigned atomic_nsrc(unsigned opc) {
    if (opc == VISA_LSC_OP_ATOMIC_IINC || opc == VISA_LSC_OP_ATOMIC_IDEC || opc == VISA_LSC_OP_ATOMIC_LOAD) return 0;
    if (opc == VISA_LSC_OP_ATOMIC_ICAS || opc == VISA_LSC_OP_ATOMIC_FCAS || opc == VISA_LSC_OP_ATOMIC_BFCAS) return 2;
    return 1;
}
static bool is_float_atomic(unsigned opc) { return opc >= VISA_LSC_OP_ATOMIC_FADD && opc <= VISA_LSC_OP_ATOMIC_FCAS; }
static bool is_bf_atomic(unsigned opc) { return opc >= VISA_LSC_OP_ATOMIC_BFADD && opc <= VISA_LSC_OP_ATOMIC_BFCAS; }
static bool is_store(unsigned opc) {
    return opc == VISA_LSC_OP_STORE || opc == VISA_LSC_OP_STORE_STRIDED || opc == VISA_LSC_OP_STORE_QUAD ||
           opc == VISA_LSC_OP_STORE_UNCOMPRESSED || opc == VISA_LSC_OP_STORE_UNCOMPRESSED_QUAD;
}
static bool is_quad(unsigned opc) {
    return opc == VISA_LSC_OP_LOAD_QUAD || opc == VISA_LSC_OP_STORE_QUAD || opc == VISA_LSC_OP_STORE_UNCOMPRESSED_QUAD;
}
static bool is_strided(unsigned opc) { return opc == VISA_LSC_OP_LOAD_STRIDED || opc == VISA_LSC_OP_STORE_STRIDED; }

/* Ends the op: the next one, or the end of the thread for an EOT message. */
static inline void lsc_next(emu_thread *t, const emu_op *op) {
    if (I_EOT(op->info)) t->done = true;
    else t->pc++;
}

/* -- Address spaces ------------------------------------------------------------------------------ */
enum { SP_GLOBAL, SP_SLM, SP_SURFACE, SP_SCRATCH };
typedef struct lsc_space {
    unsigned kind;
    uint32_t index; /* SP_SURFACE, SP_SCRATCH: buffer index */
} lsc_space;

/* The message's space; without t (at lowering) only when it is known there: false for a surface
** index of the run; with t, false after reporting a predefined surface that has no memory. */
static bool space_known(const emu_thread *t, const emu_op *op, lsc_space *s) {
    unsigned info = op->info, at = I_ATYPE(info);
    s->index = 0;
    if (I_SFID(info) == VISA_LSC_SFID_SLM) {
        s->kind = SP_SLM;
        return true;
    }
    if (at == VISA_LSC_AT_FLAT) {
        s->kind = SP_GLOBAL;
        return true;
    }
    const emu_opnd *sf = &op->src[4];
    if (sf->shape == EO_STATE && sf->off < ISA_NUM_PREDEF_SURFS) {
        /* a predefined surface (the kernel's state slots 0..5 are T0..T5) */
        s->kind = sf->off == VISA_PREDEF_SURF_SLM ? SP_SLM : SP_GLOBAL;
        return sf->off == VISA_PREDEF_SURF_SLM || sf->off == VISA_PREDEF_SURF_SCRATCH;
    }
    if (!t) return false;
    s->index = (uint32_t)emu_msg_scalar_value(t, sf) + op->dst2.lanes;
    /* the scratch surface: addresses are offsets into the thread's slice (launch.c init_scratch) */
    s->kind = emu_is_scratch(t->mem, s->index) ? SP_SCRATCH : SP_SURFACE;
    return true;
}

static bool space_of(emu_thread *t, const emu_op *op, lsc_space *s) {
    if (space_known(t, op, s)) return true;
    emu_fault(t, EDIAG_RUN_PREDEF_SURFACE, 0, isa_predef_surf_names[op->src[4].off]);
    return false;
}

static inline bool in_scratch(const emu_thread *t, uint64_t addr, uint32_t size) {
    return addr <= t->mem->scratch_size && size <= t->mem->scratch_size - addr;
}

static uint8_t *space_ptr(emu_thread *t, const lsc_space *s, uint64_t addr, uint32_t size) {
    switch (s->kind) {
    case SP_SLM: {
        emu_mem *m = t->mem;
        addr = emu_slm_offset(addr);
        if (!m->slm || addr > m->slm_size || size > m->slm_size - addr) return emu_oob_sink(m, size);
        return m->slm + addr;
    }
    case SP_SURFACE: return emu_surface(t->mem, s->index, addr, size, NULL);
    case SP_SCRATCH: /* outside the slice: never the memcheck sink, oob_fault reports it */
        return in_scratch(t, addr, size) ? emu_surface(t->mem, s->index, t->scratch_base + addr, size, NULL) : NULL;
    default: return emu_global(t->mem, addr, size);
    }
}

/* Report an access to the observer (exec.h: one predictable branch when unobserved). */
static inline void observe(emu_thread *t, const lsc_space *s, uint64_t a, uint32_t size, unsigned lane, unsigned kind) {
    static const unsigned space[] = {[SP_GLOBAL] = VISA_MEM_GLOBAL,
                                     [SP_SLM] = VISA_MEM_SLM,
                                     [SP_SURFACE] = VISA_MEM_SURFACE,
                                     [SP_SCRATCH] = VISA_MEM_SURFACE};
    if (t->obs && s->kind == SP_SCRATCH) { /* the slice's bytes of the scratch buffer; outside it: oob_fault */
        if (in_scratch(t, a, size))
            emu_observe_mem(t, VISA_MEM_SURFACE, s->index, t->scratch_base + a, size, lane, kind);
        return;
    }
    emu_observe_mem(t, space[s->kind], s->index, s->kind == SP_SLM ? emu_slm_offset(a) : a, size, lane, kind);
}

static void oob_fault(emu_thread *t, unsigned lane, const lsc_space *s, const char *what, uint32_t bytes, uint64_t a) {
    uint64_t bytes_bound = 0;
    if (s->kind == SP_SURFACE) emu_surface(t->mem, s->index, 0, 0, &bytes_bound);
    if (s->kind == SP_SCRATCH) {
        emu_fault(t, EDIAG_RUN_OOB_SCRATCH, lane, what, (unsigned long long)bytes,
                  (unsigned long long)(t->scratch_base + a), s->index, (unsigned long long)t->scratch_base,
                  (unsigned long long)(t->scratch_base + t->mem->scratch_size - 1));
        t->fault_finding = EDIAG_C_MEMCHECK_OOB; /* another thread's private memory */
    } else if (s->kind == SP_SURFACE && !bytes_bound)
        emu_fault(t, EDIAG_RUN_UNBOUND_SURFACE_INDEX, lane, what, s->index);
    else if (s->kind == SP_SURFACE)
        emu_fault(t, EDIAG_RUN_OOB_SURFACE, lane, what, bytes, (unsigned long long)a, s->index);
    else if (s->kind == SP_SLM) emu_fault(t, EDIAG_RUN_OOB_SLM, lane, what, bytes, (unsigned long long)a);
    else {
        char w[80];
        emu_fault(t, EDIAG_RUN_OOB_GLOBAL, lane, what, bytes, emu_global_where(t->mem, a, w, sizeof w));
    }
}

/* Lane n's address: Base + Scale * addr + ImmOffset at the address size. */
static uint64_t lane_addr(const uint8_t *p, unsigned asize, uint32_t scale, int32_t imm) {
    switch (asize) {
    case VISA_LSC_AS_A16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return (uint32_t)((uint32_t)v * scale + (uint32_t)imm);
    }
    case VISA_LSC_AS_A64: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v * scale + (uint64_t)(int64_t)imm;
    }
    case VISA_LSC_AS_A32S: {
        int32_t v;
        memcpy(&v, p, 4);
        return (uint64_t)((int64_t)v * scale + imm);
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (uint32_t)(v * scale + (uint32_t)imm);
    }
    }
}

/* -- Element conversion between memory and register ----------------------------------------------- */
static inline void mem_to_reg(uint8_t *r, const uint8_t *m, unsigned ds) {
    switch (ds) {
    case VISA_LSC_DS_D8U32: r[0] = m[0], r[1] = r[2] = r[3] = 0; break;
    case VISA_LSC_DS_D16U32: r[0] = m[0], r[1] = m[1], r[2] = r[3] = 0; break;
    case VISA_LSC_DS_D16U32H: r[0] = r[1] = 0, r[2] = m[0], r[3] = m[1]; break;
    default: memcpy(r, m, mem_bytes[ds]); break;
    }
}
static inline void reg_to_mem(uint8_t *m, const uint8_t *r, unsigned ds) {
    if (ds == VISA_LSC_DS_D16U32H) m[0] = r[2], m[1] = r[3];
    else memcpy(m, r, mem_bytes[ds]);
}

/* initcheck's view of one element's transfer (check.h): a store reads only the register bytes
** reg_to_mem takes. */
static inline void xfer(emu_thread *t, uint8_t *r, const uint8_t *m, unsigned ds, unsigned lane, bool store) {
    if (store) emu_check_xfer(t, r + (ds == VISA_LSC_DS_D16U32H ? 2 : 0), mem_bytes[ds], m, mem_bytes[ds], lane, true);
    else emu_check_xfer(t, r, reg_bytes[ds], m, mem_bytes[ds], lane, false);
}

/* -- SIMT load / store (plain, quad, strided) ---------------------------------------------------- */
static void h_simt(emu_thread *t, const emu_op *op) {
    unsigned info = op->info, opc = I_OP(info), ds = I_DSIZE(info), asize = I_ASIZE(info);
    bool store = is_store(opc), quad = is_quad(opc), strided = is_strided(opc);
    const emu_opnd *data = store ? &op->src[2] : &op->src[0];
    if (data->shape == EO_NONE) { /* a prefetch, or a store of nothing */
        lsc_next(t, op);
        return;
    }
    lsc_space sp;
    if (!space_of(t, op, &sp)) return;
    unsigned mb = mem_bytes[ds], rb = reg_bytes[ds], asz = addr_bytes[asize];
    unsigned n = op->exec, chm = I_CHMASK(info);
    unsigned nelem = quad ? popcount4(chm) : I_ELEMS(info);
    unsigned span = quad ? (chm & 8 ? 4 : chm & 4 ? 3 : chm & 2 ? 2 : 1) * mb : nelem * mb;
    uint32_t stride = store ? (uint32_t)op->dst.ind_off : op->dst.off;
    uint32_t fsize = t->prog->lay.file_bytes;
    const emu_opnd *adr = &op->src[1];
    uint8_t *file = t->file;
    if (data->off + (uint64_t)(nelem - 1) * stride + (uint64_t)n * rb > fsize ||
        adr->off + (uint64_t)(strided ? (I_RAW(info) ? 12 : asz) : n * asz) > fsize) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_FILE, 0);
        return;
    }
    uint64_t base = 0, pitch = 0;
    if (strided) {
        base = lane_addr(file + adr->off, asize, op->target, op->imm);
        if (I_RAW(info)) {
            uint32_t pw;
            memcpy(&pw, file + adr->off + 8, 4); /* pitch in bytes: dword 2 of the payload */
            pitch = pw;
        } else {
            pitch = (uint64_t)emu_msg_scalar_value(t, &op->src[3]);
        }
        if (asize != VISA_LSC_AS_A64 && asize != VISA_LSC_AS_A32S) pitch = (uint32_t)pitch;
    }
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint64_t a = strided ? base + i * pitch : lane_addr(file + adr->off + i * asz, asize, op->target, op->imm);
        if (strided && asize != VISA_LSC_AS_A64 && asize != VISA_LSC_AS_A32S) a = (uint32_t)a;
        observe(t, &sp, a, span, i, store ? VISA_MEM_WRITE : VISA_MEM_READ);
        /* no alignment rule: IGC loads a packed struct's int field with this form (check.c) */
        emu_check_addr(t, file + adr->off + (strided ? 0 : i * asz), asz, i); /* initcheck */
        uint8_t *m = space_ptr(t, &sp, a, span);
        if (!m) {
            oob_fault(t, i, &sp, store ? "store" : "load", span, a);
            return;
        }
        for (unsigned k = 0, c = 0; k < nelem; k++, c++) {
            if (quad)
                while (!(chm >> c & 1)) c++;
            uint8_t *r = file + data->off + k * stride + i * rb;
            if (store) reg_to_mem(m + c * mb, r, ds);
            else mem_to_reg(r, m + c * mb, ds);
            xfer(t, r, m + c * mb, ds, i, store);
        }
    }
    lsc_next(t, op);
}

/* The window holding a message's accesses before any lane is seen (mem.h): SLM or a surface's
** buffer, whole; a global message's is found from its first lane (plain_lane_ptrs).  false: no
** window (scratch, an unbound surface), h_simt's case. */
static bool space_window(emu_thread *t, const lsc_space *sp, emu_window *w) {
    *w = (emu_window){0, 0, NULL};
    switch (sp->kind) {
    case SP_SLM: emu_slm_window(t->mem, w); return true;
    case SP_SURFACE: return emu_surface_window(t->mem, sp->index, w);
    case SP_GLOBAL: return true;
    default: return false;
    }
}

/* Every lane's address (lane_addr's at each address size, one loop per size), SLM's masked. */
static void plain_lane_addrs(const emu_thread *t, const emu_op *op, bool slm, uint64_t a[EMU_MAX_LANES]) {
    const uint8_t *ap = t->file + op->src[1].off;
    unsigned n = op->exec, asize = I_ASIZE(op->info);
    uint32_t scale = op->target;
    int32_t imm = op->imm;
    switch (asize) {
    case VISA_LSC_AS_A64: /* scale 1 (IGC's usual) without the multiply's latency */
        for (unsigned i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, ap + 8 * i, 8);
            a[i] = (scale == 1 ? v : v * scale) + (uint64_t)(int64_t)imm;
        }
        break;
    case VISA_LSC_AS_A32:
        for (unsigned i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, ap + 4 * i, 4);
            a[i] = (uint32_t)(v * scale + (uint32_t)imm);
        }
        break;
    default:
        for (unsigned i = 0; i < n; i++) a[i] = lane_addr(ap + i * addr_bytes[asize], asize, scale, imm);
        break;
    }
    if (slm)
        for (unsigned i = 0; i < n; i++) a[i] = emu_slm_offset(a[i]);
}

/* How a message's lanes lie in memory, by groups of LANE_GROUP lanes (IGC's SIMD32 threads of 2D
** work-groups cover rows of 8 or 16 work-items): a group whose lanes are all enabled is a RUN when
** lane i is at its first lane + i * span (one copy), SAME when every lane is at its first lane's
** address (a broadcast); the others go lane by lane. */
#define LANE_GROUP 8
typedef struct lane_shape {
    uint32_t run, same; /* bit g: group g */
} lane_shape;

/* Every enabled lane's host pointer to `span` bytes, and the groups' shapes; false when a lane's
** bytes are outside memory (h_simt's case).  The common case, every lane in one window, is one
** pass without a branch per lane. */
static bool plain_lane_ptrs(emu_thread *t, const emu_op *op, const lsc_space *sp, emu_window *w, uint32_t mask,
                            unsigned span, uint8_t *hp[EMU_MAX_LANES], lane_shape *shape) {
    unsigned n = op->exec;
    uint64_t a[EMU_MAX_LANES];
    *shape = (lane_shape){0, 0};
    plain_lane_addrs(t, op, sp->kind == SP_SLM, a);
    if (!mask) return true;
    if (sp->kind == SP_GLOBAL && !emu_global_window(t->mem, a[__builtin_ctz(mask)], w)) return false;
    if (w->size >= span) {
        uint64_t far = 0; /* the largest offset of any lane, enabled or not: usually all are in */
        for (unsigned i = 0; i < n; i++) {
            uint64_t o = a[i] - w->lo;
            far = o > far ? o : far;
            hp[i] = (uint8_t *)((uintptr_t)w->host + o); /* used only when in the window: no pointer overflow */
        }
        if (far <= w->size - span) {
            for (unsigned g = 0; g * LANE_GROUP < n; g++) {
                unsigned first = g * LANE_GROUP, m = n - first < LANE_GROUP ? n - first : LANE_GROUP;
                if ((mask >> first & emu_lanes_mask(m)) != emu_lanes_mask(m)) continue;
                const uint64_t *ga = a + first;
                uint64_t run = 0, same = 0;
                for (unsigned k = 0; k < m; k++) run |= ga[k] ^ (ga[0] + k * span), same |= ga[k] ^ ga[0];
                shape->run |= (uint32_t)!run << g;
                shape->same |= (uint32_t)!same << g;
            }
            return true;
        }
    }
    for (unsigned i = 0; i < n; i++) { /* lanes in several buffers, or one out of bounds */
        if (!(mask >> i & 1)) continue;
        uint8_t *h = emu_window_at(w, a[i], span);
        if (!h && sp->kind == SP_GLOBAL && emu_global_window(t->mem, a[i], w)) h = emu_window_at(w, a[i], span);
        if (!h) return false;
        hp[i] = h;
    }
    return true;
}

/* h_simt's plain load or store of d32 or d64 elements (chosen at lowering) when nothing observes
** or checks the thread: every enabled lane's address is translated and bound-checked first, then
** the elements move, eb bytes at a time.  A lane out of bounds, an observer, or a space without a
** window leaves the whole message to h_simt, which does it (and reports the fault) the same way:
** nothing has changed by then. */
static inline __attribute__((always_inline)) void simt_plain(emu_thread *t, const emu_op *op, unsigned eb) {
    unsigned info = op->info, nelem = I_ELEMS(info), n = op->exec;
    bool store = is_store(I_OP(info));
    const emu_opnd *data = store ? &op->src[2] : &op->src[0];
    lsc_space sp;
    emu_window w;
    if (t->obs || data->shape == EO_NONE || !space_of(t, op, &sp) || !space_window(t, &sp, &w)) {
        h_simt(t, op); /* space_of's fault is its first step too: it repeats it */
        return;
    }
    uint32_t stride = store ? (uint32_t)op->dst.ind_off : op->dst.off, fsize = t->prog->lay.file_bytes;
    uint8_t *hp[EMU_MAX_LANES], *r = t->file + data->off;
    uint32_t mask = emu_chen(t, op);
    lane_shape shape;
    if (data->off + (uint64_t)(nelem - 1) * stride + (uint64_t)n * eb > fsize ||
        op->src[1].off + (uint64_t)n * addr_bytes[I_ASIZE(info)] > fsize ||
        !plain_lane_ptrs(t, op, &sp, &w, mask, nelem * eb, hp, &shape)) {
        h_simt(t, op);
        return;
    }
    /* group by group, lane by lane as h_simt (a lane's store may overlap the next lane's bytes, a
    ** later lane's store wins), but a RUN group as one copy (its lanes do not overlap) and a SAME
    ** group's load as one element */
    for (unsigned first = 0, g = 0; first < n; first += LANE_GROUP, g++) {
        unsigned end = n - first < LANE_GROUP ? n : first + LANE_GROUP;
        if (nelem == 1 && (shape.run >> g & 1)) {
            if (store) memcpy(hp[first], r + first * eb, (size_t)(end - first) * eb);
            else memcpy(r + first * eb, hp[first], (size_t)(end - first) * eb);
        } else if (nelem == 1 && (shape.same >> g & 1) && !store) {
            for (unsigned i = first; i < end; i++) memcpy(r + i * eb, hp[first], eb);
        } else {
            for (unsigned i = first; i < end; i++) {
                if (!(mask >> i & 1)) continue;
                for (unsigned k = 0; k < nelem; k++) {
                    if (store) memcpy(hp[i] + k * eb, r + k * stride + i * eb, eb);
                    else memcpy(r + k * stride + i * eb, hp[i] + k * eb, eb);
                }
            }
        }
    }
    lsc_next(t, op);
}
static void h_simt_d32(emu_thread *t, const emu_op *op) { simt_plain(t, op, 4); }
static void h_simt_d64(emu_thread *t, const emu_op *op) { simt_plain(t, op, 8); }

/* -- Transposed (SIMD1 block) load / store ---------------------------------------------------------- */
static void h_transposed(emu_thread *t, const emu_op *op) {
    unsigned info = op->info, opc = I_OP(info), ds = I_DSIZE(info);
    bool store = is_store(opc);
    const emu_opnd *data = store ? &op->src[2] : &op->src[0];
    if (data->shape == EO_NONE || !(emu_chen(t, op) & 1)) {
        lsc_next(t, op);
        return;
    }
    lsc_space sp;
    if (!space_of(t, op, &sp)) return;
    unsigned mb = mem_bytes[ds], rb = reg_bytes[ds], elems = I_ELEMS(info);
    uint32_t fsize = t->prog->lay.file_bytes;
    if (data->off + (uint64_t)elems * rb > fsize || op->src[1].off + 8ull > fsize) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_FILE, 0);
        return;
    }
    uint64_t a = lane_addr(t->file + op->src[1].off, I_ASIZE(info), op->target, op->imm);
    uint32_t bytes = elems * mb;
    observe(t, &sp, a, bytes, 0, store ? VISA_MEM_WRITE : VISA_MEM_READ);
    emu_check_align(t, a, mb < 4 ? mb : 4, 0); /* memcheck: the block form, dword (check.c) */
    emu_check_addr(t, t->file + op->src[1].off, addr_bytes[I_ASIZE(info)], 0);
    uint8_t *m = space_ptr(t, &sp, a, bytes);
    if (!m) {
        oob_fault(t, 0, &sp, store ? "store" : "load", bytes, a);
        return;
    }
    uint8_t *r = t->file + data->off;
    for (unsigned k = 0; k < elems; k++) {
        if (store) reg_to_mem(m + k * mb, r + k * rb, ds);
        else mem_to_reg(r + k * rb, m + k * mb, ds);
        xfer(t, r + k * rb, m + k * mb, ds, 0, store);
    }
    lsc_next(t, op);
}

/* -- Load status ------------------------------------------------------------------------------------- */
static void h_load_status(emu_thread *t, const emu_op *op) {
    unsigned info = op->info, ds = I_DSIZE(info), asize = I_ASIZE(info), asz = addr_bytes[asize];
    lsc_space sp;
    if (!space_of(t, op, &sp)) return;
    unsigned n = op->exec;
    uint32_t fsize = t->prog->lay.file_bytes;
    if (op->src[1].off + (uint64_t)n * asz > fsize || (op->src[0].shape != EO_NONE && op->src[0].off + 4ull > fsize)) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_FILE, 0);
        return;
    }
    uint32_t mask = emu_chen(t, op), bits = 0;
    uint32_t span = I_ELEMS(info) * mem_bytes[ds];
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint64_t a = lane_addr(t->file + op->src[1].off + i * asz, asize, op->target, op->imm);
        if (space_ptr(t, &sp, a, span)) bits |= 1u << i;
    }
    if (op->src[0].shape != EO_NONE) memcpy(t->file + op->src[0].off, &bits, 4);
    lsc_next(t, op);
}

/* -- Atomics ------------------------------------------------------------------------------------------ */
static uint64_t load_mem(const uint8_t *m, unsigned mb) {
    uint64_t v = 0;
    memcpy(&v, m, mb);
    return v;
}
static uint64_t load_reg(const uint8_t *r, unsigned ds) {
    if (ds == VISA_LSC_DS_D16U32H) return (uint64_t)r[2] | (uint64_t)r[3] << 8;
    uint64_t v = 0;
    memcpy(&v, r, mem_bytes[ds]);
    return v;
}

static double fl_of(uint64_t bits, unsigned mb, bool bf) {
    if (mb == 8) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    uint32_t fb = mb == 4 ? (uint32_t)bits : bf ? emu_bf_to_f((uint16_t)bits, 0) : emu_hf_to_f((uint16_t)bits, 0);
    float f;
    memcpy(&f, &fb, 4);
    return f;
}
static uint64_t fl_bits(double d, unsigned mb, bool bf) {
    uint64_t b;
    memcpy(&b, &d, 8);
    if (mb == 8) return b;
    if (mb == 4) return emu_df_to_f(b, 0);
    return bf ? emu_df_to_bf(b, 0) : emu_df_to_hf(b, 0);
}
static bool fl_less(double a, double b) { return a < b || (a == 0 && b == 0 && signbit(a) && !signbit(b)); }

static uint64_t atomic_apply(unsigned opc, uint64_t old, uint64_t s1, uint64_t s2, unsigned mb) {
    uint64_t msk = mb == 8 ? ~0ull : (1ull << (8 * mb)) - 1;
    unsigned sh = 64 - 8 * mb;
    int64_t so = (int64_t)(old << sh) >> sh, s1s = (int64_t)(s1 << sh) >> sh;
    bool bf = is_bf_atomic(opc);
    switch (opc) {
    case VISA_LSC_OP_ATOMIC_IINC: return (old + 1) & msk;
    case VISA_LSC_OP_ATOMIC_IDEC: return (old - 1) & msk;
    case VISA_LSC_OP_ATOMIC_LOAD: return old;
    case VISA_LSC_OP_ATOMIC_STORE: return s1 & msk;
    case VISA_LSC_OP_ATOMIC_IADD: return (old + s1) & msk;
    case VISA_LSC_OP_ATOMIC_ISUB: return (old - s1) & msk;
    case VISA_LSC_OP_ATOMIC_SMIN: return s1s < so ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_SMAX: return s1s > so ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_UMIN: return (s1 & msk) < old ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_UMAX: return (s1 & msk) > old ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_ICAS: return old == (s1 & msk) ? s2 & msk : old;
    case VISA_LSC_OP_ATOMIC_AND: return old & s1;
    case VISA_LSC_OP_ATOMIC_OR: return (old | s1) & msk;
    case VISA_LSC_OP_ATOMIC_XOR: return (old ^ s1) & msk;
    default: break;
    }
    double o = fl_of(old, mb, bf), a = fl_of(s1 & msk, mb, bf);
    switch (opc) {
    case VISA_LSC_OP_ATOMIC_FADD:
    case VISA_LSC_OP_ATOMIC_BFADD:
        if (mb == 4) return fl_bits((double)((float)o + (float)a), 4, false);
        return fl_bits(o + a, mb, bf);
    case VISA_LSC_OP_ATOMIC_FSUB:
    case VISA_LSC_OP_ATOMIC_BFSUB:
        if (mb == 4) return fl_bits((double)((float)o - (float)a), 4, false);
        return fl_bits(o - a, mb, bf);
    case VISA_LSC_OP_ATOMIC_FMIN:
    case VISA_LSC_OP_ATOMIC_BFMIN:
        if (isnan(a)) return old;
        if (isnan(o)) return s1 & msk;
        return fl_less(a, o) ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_FMAX:
    case VISA_LSC_OP_ATOMIC_BFMAX:
        if (isnan(a)) return old;
        if (isnan(o)) return s1 & msk;
        return fl_less(o, a) ? s1 & msk : old;
    case VISA_LSC_OP_ATOMIC_FCAS:
    case VISA_LSC_OP_ATOMIC_BFCAS: return o == a ? s2 & msk : old;
    default: return old;
    }
}

static void h_atomic(emu_thread *t, const emu_op *op) {
    unsigned info = op->info, opc = I_OP(info), ds = I_DSIZE(info), asize = I_ASIZE(info);
    unsigned mb = mem_bytes[ds], rb = reg_bytes[ds], asz = addr_bytes[asize], n = op->exec;
    lsc_space sp;
    if (!space_of(t, op, &sp)) return;
    uint32_t fsize = t->prog->lay.file_bytes;
    const emu_opnd *dst = &op->src[0], *s1 = &op->src[2], *s2 = &op->src[3];
    unsigned nsrc = atomic_nsrc(opc);
    if (op->src[1].off + (uint64_t)n * asz > fsize || (dst->shape != EO_NONE && dst->off + (uint64_t)n * rb > fsize) ||
        (nsrc >= 1 && s1->off + (uint64_t)n * rb > fsize) || (nsrc >= 2 && s2->off + (uint64_t)n * rb > fsize)) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_FILE, 0);
        return;
    }
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint64_t a = lane_addr(t->file + op->src[1].off + i * asz, asize, op->target, op->imm);
        observe(t, &sp, a, mb, i, VISA_MEM_ATOMIC);
        emu_check_align(t, a, mb, i);
        uint8_t *m = space_ptr(t, &sp, a, mb);
        if (!m) {
            oob_fault(t, i, &sp, "atomic", mb, a);
            return;
        }
        uint64_t v1 = nsrc >= 1 && s1->shape != EO_NONE ? load_reg(t->file + s1->off + i * rb, ds) : 0;
        uint64_t v2 = nsrc >= 2 && s2->shape != EO_NONE ? load_reg(t->file + s2->off + i * rb, ds) : 0;
        uint64_t old = load_mem(m, mb);
        uint64_t nv = atomic_apply(opc, old, v1, v2, mb);
        memcpy(m, &nv, mb);
        if (dst->shape != EO_NONE) mem_to_reg(t->file + dst->off + i * rb, (const uint8_t *)&old, ds);
        if (dst->shape != EO_NONE) emu_check_xfer(t, t->file + dst->off + i * rb, rb, NULL, mb, i, false);
    }
    lsc_next(t, op);
}

/* Append-counter atomics: the counter is the element at byte 0 of the surface's buffer. */
static void h_apndctr(emu_thread *t, const emu_op *op) {
    unsigned info = op->info, opc = I_OP(info), ds = I_DSIZE(info);
    unsigned mb = mem_bytes[ds], rb = reg_bytes[ds], n = op->exec;
    lsc_space sp;
    if (!space_of(t, op, &sp)) return;
    uint32_t fsize = t->prog->lay.file_bytes;
    const emu_opnd *dst = &op->src[0], *src = &op->src[2];
    if ((dst->shape != EO_NONE && dst->off + (uint64_t)n * rb > fsize) ||
        (src->shape != EO_NONE && src->off + (uint64_t)n * rb > fsize)) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_FILE, 0);
        return;
    }
    uint8_t *m = space_ptr(t, &sp, 0, mb);
    uint32_t mask = emu_chen(t, op);
    if (!m && mask) {
        oob_fault(t, 0, &sp, "append counter", mb, 0);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        observe(t, &sp, 0, mb, i, VISA_MEM_ATOMIC);
        uint64_t v = src->shape != EO_NONE ? load_reg(t->file + src->off + i * rb, ds) : 0;
        uint64_t old = load_mem(m, mb);
        uint64_t nv = opc == VISA_LSC_OP_APNDCTR_ATOMIC_ADD   ? old + v
                      : opc == VISA_LSC_OP_APNDCTR_ATOMIC_SUB ? old - v
                                                              : v;
        memcpy(m, &nv, mb);
        if (dst->shape != EO_NONE) mem_to_reg(t->file + dst->off + i * rb, (const uint8_t *)&old, ds);
        if (dst->shape != EO_NONE) emu_check_xfer(t, t->file + dst->off + i * rb, rb, NULL, mb, i, false);
    }
    lsc_next(t, op);
}

/* -- 2D block messages ---------------------------------------------------------------------------- */
typedef struct b2d {
    uint64_t base;
    uint64_t width, height, pitch; /* bytes, rows, bytes (minus-one fields + 1) */
    int64_t x, y; /* elements, rows */
    unsigned w, h, blocks;
} b2d;

static unsigned pow2ceil(unsigned v) {
    unsigned p = 1;
    while (p < v) p <<= 1;
    return p;
}

static bool b2d_params(emu_thread *t, const emu_op *op, b2d *g) {
    unsigned info = op->info;
    int16_t xoff = (int16_t)(uint16_t)(op->imm & 0xFFFF), yoff = (int16_t)(uint16_t)((uint32_t)op->imm >> 16);
    if (I_PAYLOAD(info)) {
        uint32_t off = op->src[1].off, dw[8];
        if (off + 32ull > t->prog->lay.file_bytes) {
            emu_fault(t, EDIAG_RUN_BLOCK2D_PAYLOAD_FILE, 0);
            return false;
        }
        memcpy(dw, t->file + off, 32);
        g->base = dw[0] | (uint64_t)dw[1] << 32;
        g->width = (uint64_t)dw[2] + 1;
        g->height = (uint64_t)dw[3] + 1;
        g->pitch = (uint64_t)dw[4] + 1;
        g->x = (int64_t)(int32_t)dw[5] + xoff;
        g->y = (int64_t)(int32_t)dw[6] + yoff;
        if (I_RAW(info)) {
            g->w = (dw[7] & 0xFF) + 1;
            g->h = (dw[7] >> 8 & 0xFF) + 1;
            g->blocks = (dw[7] >> 16 & 0xF) + 1;
            return true;
        }
    } else {
        g->base = (uint64_t)emu_msg_scalar_value(t, &op->src[1]);
        g->width = (uint64_t)(uint32_t)emu_msg_scalar_value(t, &op->src[2]) + 1;
        g->height = (uint64_t)(uint32_t)emu_msg_scalar_value(t, &op->src[3]) + 1;
        g->pitch = (uint64_t)(uint32_t)emu_msg_scalar_value(t, &op->src[4]) + 1;
        g->x = (int64_t)(int32_t)emu_msg_scalar_value(t, &op->dst) + xoff;
        g->y = (int64_t)(int32_t)emu_msg_scalar_value(t, &op->dst2) + yoff;
    }
    g->w = op->target & 0x1FF;
    g->h = op->target >> 9 & 0x1FF;
    g->blocks = op->target >> 18 & 0x1F;
    return true;
}

/* Host pointer of element (row, col) of the surface; NULL if outside the surface (*fault set when
** the element is inside the surface but in no buffer). */
static uint8_t *b2d_elem(emu_thread *t, const b2d *g, int64_t row, int64_t col, unsigned e, bool *fault) {
    if (row < 0 || col < 0 || (uint64_t)row >= g->height || (uint64_t)(col + 1) * e > g->width) return NULL;
    uint64_t a = g->base + (uint64_t)row * g->pitch + (uint64_t)col * e;
    uint8_t *m = emu_global(t->mem, a, e);
    if (!m) {
        *fault = true;
        char w[80];
        emu_fault(t, EDIAG_RUN_OOB_BLOCK2D, 0, (long long)col, (long long)row,
                  emu_global_where(t->mem, a, w, sizeof w));
    }
    return m;
}

/* Where element (x, y) of block b goes in the register block, in elements (plain, VNNI: epd
** consecutive rows per dword, transposed, transposed VNNI). */
static uint64_t b2d_index(bool tr, bool vn, unsigned P, unsigned epd, uint64_t bpitch, unsigned b, unsigned y,
                          unsigned x) {
    uint64_t idx;
    if (!tr && !vn) idx = (uint64_t)y * P + x;
    else if (!tr && vn) idx = (uint64_t)(y / epd) * P * epd + (uint64_t)x * epd + y % epd;
    else if (tr && !vn) idx = (uint64_t)x * P + y;
    else idx = (uint64_t)(x / epd) * P * epd + (uint64_t)y * epd + x % epd;
    return idx + b * bpitch;
}

/* Columns [*x0, *x1) of a block row starting at surface column col0, w wide, that lie inside the
** surface (an element is inside when all its e bytes are within the width). */
static void b2d_clip(const b2d *g, int64_t col0, unsigned w, unsigned e, unsigned *x0, unsigned *x1) {
    int64_t cols = (int64_t)(g->width / e), lo = col0 < 0 ? -col0 : 0, hi = cols - col0;
    if (lo > (int64_t)w) lo = w;
    if (hi > (int64_t)w) hi = w;
    if (hi < lo) hi = lo;
    *x0 = (unsigned)lo;
    *x1 = (unsigned)hi;
}

/* Host pointer of a row's in-surface columns [x0, x1), or NULL when the row is outside the
** surface or not wholly inside one buffer (then the element loop decides, and reports a fault at
** the first element in no buffer, as it always does). */
static uint8_t *b2d_row(emu_thread *t, const b2d *g, int64_t row, int64_t col0, unsigned x0, unsigned x1, unsigned e) {
    if (row < 0 || (uint64_t)row >= g->height || x0 >= x1) return NULL;
    return emu_global(t->mem, g->base + (uint64_t)row * g->pitch + (uint64_t)(col0 + x0) * e, (x1 - x0) * e);
}

/* Copy n elements of e bytes (1, 2, 4 or 8) from src into dst at element stride step (e bytes). */
static void b2d_scatter(uint8_t *dst, const uint8_t *src, unsigned n, unsigned e, uint64_t step) {
#define SCATTER(E)                                                                             \
    for (unsigned i = 0; i < n; i++) memcpy(dst + i * step * (E), src + (size_t)i * (E), (E)); \
    break;
    switch (e) {
    case 1: SCATTER(1)
    case 2: SCATTER(2)
    case 4: SCATTER(4)
    default: SCATTER(8)
    }
#undef SCATTER
}

/* The register block a 2D block load fills: its bytes (the raw response may be shorter) and
** geometry; false after a fault. */
typedef struct b2d_reg {
    uint8_t *r;
    uint64_t limit, bpitch;
    unsigned e, epd, P, W, H, B;
    bool tr, vn;
} b2d_reg;

static bool b2d_reg_of(emu_thread *t, const emu_op *op, const b2d *g, b2d_reg *k) {
    unsigned info = op->info;
    unsigned e = mem_bytes[I_DSIZE(info)], grf = t->prog->lay.grf_bytes, epr = grf / e;
    k->e = e;
    k->epd = e < 4 ? 4 / e : 1;
    k->tr = I_TRANSPOSE(info);
    k->vn = I_VNNI(info);
    k->W = g->w, k->H = g->h, k->B = g->blocks;
    k->P = pow2ceil(k->tr ? k->H : k->W);
    uint64_t bsize = (uint64_t)k->P * (k->tr ? k->W : k->H);
    k->bpitch = (bsize + epr - 1) / epr * epr;
    uint64_t total = k->B * k->bpitch * e; /* bytes */
    k->limit = I_RAW(info) ? op->target : total;
    if (k->limit > total) k->limit = total;
    if (op->src[0].off + k->limit > t->prog->lay.file_bytes) {
        emu_fault(t, EDIAG_RUN_BLOCK2D_FILE, 0, (unsigned long long)k->limit);
        return false;
    }
    k->r = t->file + op->src[0].off;
    memset(k->r, 0, k->limit);
    /* initcheck: every byte of the block is written (clipped elements with zeros: defined); the
    ** elements read from memory then take the memory's definedness, element by element */
    emu_check_xfer(t, k->r, (unsigned)k->limit, NULL, (unsigned)k->limit, 0, false);
    return true;
}

/* Element by element: row y of block b (the generic path, and the fast path's rows that are not
** wholly in one buffer).  False after a fault. */
static bool b2d_load_row_elems(emu_thread *t, const b2d *g, const b2d_reg *k, unsigned b, unsigned y) {
    bool fault = false;
    for (unsigned x = 0; x < k->W; x++) {
        uint64_t idx = b2d_index(k->tr, k->vn, k->P, k->epd, k->bpitch, b, y, x);
        if ((idx + 1) * k->e > k->limit) continue;
        const uint8_t *m = b2d_elem(t, g, g->y + y, g->x + (int64_t)b * k->W + x, k->e, &fault);
        if (fault) return false;
        if (m) memcpy(k->r + idx * k->e, m, k->e);
        if (m) emu_check_xfer(t, k->r + idx * k->e, k->e, m, k->e, 0, false);
    }
    return true;
}

static bool b2d_prefetch(emu_thread *t, const emu_op *op) {
    if (op->src[0].shape != EO_NONE && (emu_chen(t, op) & 1)) return false;
    lsc_next(t, op);
    return true;
}

/* The generic path: every element on its own. */
/* The observer's view of a 2D block message: per block and row, the run of elements inside the
** surface (elements outside it are not accessed), as one access of lane 0. */
static void b2d_observe(emu_thread *t, const b2d *g, unsigned e, unsigned blocks, unsigned kind) {
    lsc_space sp = {SP_GLOBAL, 0};
    for (unsigned b = 0; b < blocks; b++)
        for (unsigned y = 0; y < g->h; y++) {
            int64_t row = g->y + y, c0 = g->x + (int64_t)b * g->w, c1 = c0 + g->w; /* [c0, c1) */
            int64_t cols = (int64_t)(g->width / e);
            if (row < 0 || (uint64_t)row >= g->height) continue;
            if (c0 < 0) c0 = 0;
            if (c1 > cols) c1 = cols;
            if (c0 < c1)
                observe(t, &sp, g->base + (uint64_t)row * g->pitch + (uint64_t)c0 * e, (uint32_t)((c1 - c0) * e), 0,
                        kind);
        }
}

static void h_block2d_load_elems(emu_thread *t, const emu_op *op) {
    b2d g;
    b2d_reg k;
    if (b2d_prefetch(t, op) || !b2d_params(t, op, &g) || !b2d_reg_of(t, op, &g, &k)) return;
    if (t->obs) b2d_observe(t, &g, k.e, k.B, VISA_MEM_READ);
    for (unsigned b = 0; b < k.B; b++)
        for (unsigned y = 0; y < k.H; y++)
            if (!b2d_load_row_elems(t, &g, &k, b, y)) return;
    lsc_next(t, op);
}

/* initcheck: the register elements of row y of block b that came from memory row m (columns
** x0..x1 - 1) take its bytes' definedness. */
static void b2d_init_row(emu_thread *t, const b2d_reg *k, unsigned b, unsigned y, unsigned x0, unsigned x1,
                         const uint8_t *m, uint64_t fit) {
    for (unsigned x = x0; x < x1; x++) {
        uint64_t idx = b2d_index(k->tr, k->vn, k->P, k->epd, k->bpitch, b, y, x);
        if (idx < fit) emu_check_xfer(t, k->r + idx * k->e, k->e, m + (size_t)(x - x0) * k->e, k->e, 0, false);
    }
}

/* By rows: a row's in-surface columns are one range of memory; clipped columns stay zero.  A
** plain row is one memcpy; VNNI and transposed rows go to the register at a fixed stride (VNNI:
** epd elements; transposed: P; transposed VNNI: within and across groups of epd columns). */
static void h_block2d_load(emu_thread *t, const emu_op *op) {
    b2d g;
    b2d_reg k;
    if (b2d_prefetch(t, op) || !b2d_params(t, op, &g) || !b2d_reg_of(t, op, &g, &k)) return;
    if (t->obs) b2d_observe(t, &g, k.e, k.B, VISA_MEM_READ);
    unsigned e = k.e;
    for (unsigned b = 0; b < k.B; b++) {
        int64_t col0 = g.x + (int64_t)b * k.W;
        unsigned x0, x1;
        b2d_clip(&g, col0, k.W, e, &x0, &x1);
        for (unsigned y = 0; y < k.H; y++) {
            const uint8_t *m = b2d_row(t, &g, g.y + y, col0, x0, x1, e);
            if (!m) {
                if (!b2d_load_row_elems(t, &g, &k, b, y)) return;
                continue;
            }
            /* elements whose register bytes are past a raw response's length are not written */
            uint64_t fit = k.limit / e, i0 = b2d_index(k.tr, k.vn, k.P, k.epd, k.bpitch, b, y, x0);
            if (!k.tr && !k.vn) {
                unsigned xe = i0 >= fit ? x0 : (uint64_t)(x1 - x0) > fit - i0 ? x0 + (unsigned)(fit - i0) : x1;
                memcpy(k.r + i0 * e, m, (size_t)(xe - x0) * e);
            } else if (!k.tr || k.epd == 1) {
                uint64_t step = k.tr ? k.P : k.epd; /* transposed (d32, d64: VNNI changes nothing), or VNNI */
                unsigned n = x1 - x0;
                if (i0 >= fit) n = 0;
                else if (n && i0 + (uint64_t)(n - 1) * step >= fit) n = (unsigned)((fit - 1 - i0) / step + 1);
                b2d_scatter(k.r + i0 * e, m, n, e, step);
            } else {
                for (unsigned x = x0; x < x1; x++) {
                    uint64_t idx = b2d_index(true, true, k.P, k.epd, k.bpitch, b, y, x);
                    if (idx < fit) memcpy(k.r + idx * e, m + (size_t)(x - x0) * e, e);
                }
            }
            if (t->obs) b2d_init_row(t, &k, b, y, x0, x1, m, fit);
        }
    }
    lsc_next(t, op);
}

/* A store's checks; the data's bytes, false after a fault. */
static const uint8_t *b2d_store_data(emu_thread *t, const emu_op *op, const b2d *g, unsigned *P) {
    if (g->blocks != 1) {
        emu_fault(t, EDIAG_RUN_BLOCK2D_STORE_BLOCKS, 0, g->blocks);
        return NULL;
    }
    unsigned e = mem_bytes[I_DSIZE(op->info)];
    *P = pow2ceil(g->w);
    uint64_t need = ((uint64_t)(g->h - 1) * *P + g->w) * e;
    if (I_RAW(op->info) && need > op->target) {
        emu_fault(t, EDIAG_RUN_BLOCK2D_STORE_DATA, 0, g->w, g->h, (unsigned long long)need, op->target);
        return NULL;
    }
    if (op->src[0].off + need > t->prog->lay.file_bytes) {
        emu_fault(t, EDIAG_RUN_BLOCK2D_DATA_FILE, 0);
        return NULL;
    }
    return t->file + op->src[0].off;
}

static bool b2d_store_row_elems(emu_thread *t, const b2d *g, const uint8_t *r, unsigned P, unsigned e, unsigned y) {
    bool fault = false;
    for (unsigned x = 0; x < g->w; x++) {
        uint8_t *m = b2d_elem(t, g, g->y + y, g->x + x, e, &fault);
        if (fault) return false;
        if (m) memcpy(m, r + ((uint64_t)y * P + x) * e, e);
        if (m) emu_check_xfer(t, (uint8_t *)r + ((uint64_t)y * P + x) * e, e, m, e, 0, true);
    }
    return true;
}

/* generic: element by element; fast (by_rows): one memcpy per row's in-surface columns */
static void block2d_store(emu_thread *t, const emu_op *op, bool by_rows) {
    b2d g;
    unsigned P;
    if (b2d_prefetch(t, op) || !b2d_params(t, op, &g)) return;
    const uint8_t *r = b2d_store_data(t, op, &g, &P);
    if (!r) return;
    unsigned e = mem_bytes[I_DSIZE(op->info)], x0, x1;
    b2d_clip(&g, g.x, g.w, e, &x0, &x1);
    if (t->obs) b2d_observe(t, &g, e, 1, VISA_MEM_WRITE);
    for (unsigned y = 0; y < g.h; y++) {
        uint8_t *m = by_rows ? b2d_row(t, &g, g.y + y, g.x, x0, x1, e) : NULL;
        if (m) {
            memcpy(m, r + ((uint64_t)y * P + x0) * e, (size_t)(x1 - x0) * e);
            for (unsigned x = x0; t->obs && x < x1; x++) /* initcheck */
                emu_check_xfer(t, (uint8_t *)r + ((uint64_t)y * P + x) * e, e, m + (size_t)(x - x0) * e, e, 0, true);
        } else if (!b2d_store_row_elems(t, &g, r, P, e, y)) return;
    }
    lsc_next(t, op);
}
static void h_block2d_store(emu_thread *t, const emu_op *op) { block2d_store(t, op, true); }
static void h_block2d_store_elems(emu_thread *t, const emu_op *op) { block2d_store(t, op, false); }

/* The handler of a 2D block message: by rows, or element by element when the program was lowered
** with the generic paths forced (VISA_EMU_GENERIC). */
static emu_handler b2d_handler(const emu_program *p, bool store) {
    if (p->generic) return store ? h_block2d_store_elems : h_block2d_load_elems;
    return store ? h_block2d_store : h_block2d_load;
}

void emu_lsc_nothing(emu_thread *t, const emu_op *op) { lsc_next(t, op); }

bool emu_lsc_moves_data(const emu_op *op) {
    bool simt = op->fn == h_simt || op->fn == h_simt_d32 || op->fn == h_simt_d64 || op->fn == h_transposed;
    return simt && !I_EOT(op->info);
}

bool emu_lsc_window(emu_thread *t, const emu_op *op, uint64_t a, emu_window *w) {
    lsc_space sp;
    if (!space_known(t, op, &sp) || !space_window(t, &sp, w)) return false;
    return sp.kind != SP_GLOBAL || emu_global_window(t->mem, a, w);
}

bool emu_lsc_plain_load(const emu_program *p, const emu_op *op, emu_lsc_plain *d) {
    unsigned info = op->info, asize = I_ASIZE(info), n = op->exec;
    bool d32 = op->fn == h_simt_d32;
    if ((!d32 && op->fn != h_simt_d64) || I_EOT(info) || is_store(I_OP(info))) return false;
    if (op->src[0].shape == EO_NONE || n == 0 || n > EMU_MAX_LANES) return false;
    if (asize != VISA_LSC_AS_A64 && asize != VISA_LSC_AS_A32) return false;
    /* SLM's addresses are masked (plain_lane_addrs): known here, or a surface's index of the run */
    lsc_space sp;
    d->slm = space_known(NULL, op, &sp) && sp.kind == SP_SLM;
    d->a64 = asize == VISA_LSC_AS_A64;
    d->bytes = d32 ? 4 : 8;
    d->elems = I_ELEMS(info);
    d->stride = op->dst.off;
    /* simt_plain's payload bounds, known here: outside them the handler reports the fault */
    uint64_t fsize = p->lay.file_bytes;
    return op->src[0].off + (uint64_t)(d->elems - 1) * d->stride + (uint64_t)n * d->bytes <= fsize &&
           op->src[1].off + (uint64_t)n * addr_bytes[asize] <= fsize;
}

/* -- Lowering ---------------------------------------------------------------------------------------- */
static bool lsc_err(const ir_inst *in, diag_sink *ds, const char *why) {
    emu_diag(ds, EDIAG_LOWER_LSC, in->line, in->col, isa_forms[in->form].name, why);
    return false;
}

/* Common checks and handler choice for a SIMT / transposed / atomic / status message whose
** fields are in op->info; sets op->fn and the SIMT strides of native instructions. */
static const uint8_t lsc_min_simd[VISA_PLATFORM__COUNT] = {
#define VISA_PLAT(N, text, grf, slm_kb, lsc_simd, caps, aliases) lsc_simd,
#include "isa/platforms.def"
#undef VISA_PLAT
};

static bool finish_simt(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds, bool native) {
    unsigned info = op->info, opc = I_OP(info), ds_ = I_DSIZE(info), asize = I_ASIZE(info), elems = I_ELEMS(info);
    unsigned grf = p->cur->grf_bytes, rb = reg_bytes[ds_];
    if (ds_ < VISA_LSC_DS_D8 || ds_ > VISA_LSC_DS_D16U32H) return lsc_err(in, ds, "invalid data size");
    if (asize < VISA_LSC_AS_A16 || asize > VISA_LSC_AS_A32S) return lsc_err(in, ds, "invalid address size");
    if (I_ATYPE(info) == VISA_LSC_AT_ARG)
        return lsc_err(in, ds, "the arg address model (indirect data) has no meaning in the emulator");
    if (I_ATYPE(info) < VISA_LSC_AT_FLAT || I_ATYPE(info) > VISA_LSC_AT_BTI)
        return lsc_err(in, ds, "invalid address type");
    if (I_SFID(info) == VISA_LSC_SFID_SLM && I_ATYPE(info) != VISA_LSC_AT_FLAT)
        return lsc_err(in, ds, "SLM messages must use flat addresses");
    if (I_SFID(info) == VISA_LSC_SFID_TGM && !native) return lsc_err(in, ds, "typed (TGM) messages are not supported");
    if (native) {
        /* vISA sizes SIMT payloads for the message's minimum width, not ExecSize: W = max(ExecSize,
        ** platforms.def's lsc_simd), one component = max(1, W * RegElemBytes / GRF) GRFs
        ** (messages.md 3.1, [S] TLSC:169-177,551-584): a SIMD8 kernel's d32x2 on DG2 has its
        ** second component in the next GRF, as IGC's own vISA lays it out. */
        unsigned w = op->exec, wmin = lsc_min_simd[p->plat];
        if (w < wmin) w = wmin;
        uint32_t run = ((w * rb + grf - 1) / grf) * grf;
        op->dst.off = run;
        op->dst.ind_off = (int32_t)run;
    }
    if (is_atomic(opc)) {
        unsigned mb = mem_bytes[ds_];
        if (I_TRANSPOSE(info) || elems != 1)
            return lsc_err(in, ds, "atomics take one element per address, not transposed");
        if (is_float_atomic(opc) && mb == 1) return lsc_err(in, ds, "float atomics need d16, d32 or d64 data");
        if (is_bf_atomic(opc) && mb != 2) return lsc_err(in, ds, "bfloat16 atomics need 16-bit data");
        if (I_SFID(info) != VISA_LSC_SFID_SLM) p->global_atomics = true;
        op->fn = h_atomic;
        return true;
    }
    if (opc == VISA_LSC_OP_LOAD_STATUS) {
        if (I_TRANSPOSE(info)) return lsc_err(in, ds, "load_status cannot be transposed");
        op->fn = h_load_status;
        return true;
    }
    if (is_quad(opc) && (I_TRANSPOSE(info) || !I_CHMASK(info)))
        return lsc_err(in, ds, "quad messages need a channel mask and no transpose");
    if (I_TRANSPOSE(info)) {
        if (op->exec != 1) return lsc_err(in, ds, "transposed messages are SIMD1");
        op->fn = h_transposed;
        return true;
    }
    bool plain = !p->generic && !is_quad(opc) && !is_strided(opc); /* generic: h_simt, the reference */
    op->fn = plain && ds_ == VISA_LSC_DS_D32 ? h_simt_d32 : plain && ds_ == VISA_LSC_DS_D64 ? h_simt_d64 : h_simt;
    return true;
}


static int64_t num(const ir_inst *in, unsigned k) { return k < in->nopnd ? in->opnd[k].u.num : 0; }

bool emu_lsc_lower_untyped(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    unsigned opc = (unsigned)isa_forms[in->form].sub;
    memset(op->src, 0, sizeof op->src);
    memset(&op->dst, 0, sizeof op->dst);
    memset(&op->dst2, 0, sizeof op->dst2);
    unsigned sfid = (unsigned)num(in, U_SFID);
    if (sfid != VISA_LSC_SFID_UGM && sfid != VISA_LSC_SFID_UGML && sfid != VISA_LSC_SFID_SLM)
        return lsc_err(in, ds, "the SFID must be .ugm, .ugml or .slm");

    if (opc == VISA_LSC_OP_LOAD_BLOCK2D || opc == VISA_LSC_OP_STORE_BLOCK2D) {
        bool store = opc == VISA_LSC_OP_STORE_BLOCK2D;
        unsigned dsz = (unsigned)num(in, B_DS), order = (unsigned)num(in, B_ORD), blocks = (unsigned)num(in, B_BLOCKS),
                 w = (unsigned)num(in, B_W), h = (unsigned)num(in, B_H), vnni = (unsigned)num(in, B_VNNI);
        if (sfid == VISA_LSC_SFID_SLM) return lsc_err(in, ds, "2D block messages access global memory (.ugm)");
        if (dsz < VISA_LSC_DS_D8 || dsz > VISA_LSC_DS_D64)
            return lsc_err(in, ds, "2D blocks take d8, d16, d32 or d64 data");
        if (order != VISA_LSC_ORDER_NONTRANSPOSE && order != VISA_LSC_ORDER_TRANSPOSE)
            return lsc_err(in, ds, "invalid data order");
        if (!w || !h || !blocks || w > 256 || h > 256 || blocks > 16)
            return lsc_err(in, ds, "2D block width and height must be 1..256 and blocks 1..16");
        if (store && (blocks != 1 || order == VISA_LSC_ORDER_TRANSPOSE || vnni))
            return lsc_err(in, ds, "store_block2d stores one plain block");
        op->info = pack_info(opc, sfid, VISA_LSC_AT_FLAT, VISA_LSC_AS_A64, dsz, order == VISA_LSC_ORDER_TRANSPOSE,
                             vnni != 0, false, 0, 1, false);
        op->target = w | h << 9 | blocks << 18;
        op->imm = (int32_t)((uint32_t)(uint16_t)num(in, B_XOFF) | (uint32_t)(uint16_t)num(in, B_YOFF) << 16);
        if (!emu_msg_raw(p, in, store ? B_SRC1 : B_DST, &op->src[0], ds)) return false;
        if (!emu_msg_scalar(p, in, B_BASE, &op->src[1], ds) || !emu_msg_scalar(p, in, B_SW, &op->src[2], ds) ||
            !emu_msg_scalar(p, in, B_SH, &op->src[3], ds) || !emu_msg_scalar(p, in, B_SP, &op->src[4], ds) ||
            !emu_msg_scalar(p, in, B_X, &op->dst, ds) || !emu_msg_scalar(p, in, B_Y, &op->dst2, ds))
            return false;
        if (op->src[2].shape == EO_NONE && op->src[3].shape == EO_NONE && op->src[4].shape == EO_NONE &&
            op->dst.shape == EO_NONE && op->dst2.shape == EO_NONE) {
            /* payload form flat[V + (x,y)]: the base operand is the 1-GRF payload */
            if (op->src[1].shape != EO_SCALAR) return lsc_err(in, ds, "the 2D block payload must be a variable");
            op->info |= 1u << 20;
        } else if (op->src[1].shape == EO_NONE) {
            return lsc_err(in, ds, "the 2D block surface base is %null");
        }
        op->fn = b2d_handler(p, store);
        return true;
    }
    if (opc == VISA_LSC_OP_APNDCTR_ATOMIC_ADD || opc == VISA_LSC_OP_APNDCTR_ATOMIC_SUB) {
        unsigned at = (unsigned)num(in, A_AT), dsz = (unsigned)num(in, A_DS);
        if (at != VISA_LSC_AT_BSS && at != VISA_LSC_AT_SS && at != VISA_LSC_AT_BTI)
            return lsc_err(in, ds, "append counters need a bti, bss or ss surface");
        if (dsz != VISA_LSC_DS_D32 && dsz != VISA_LSC_DS_D64 && dsz != VISA_LSC_DS_D16U32 && dsz != VISA_LSC_DS_D8U32)
            return lsc_err(in, ds, "append counters take d32 or d64 data");
        op->info = pack_info(opc, sfid, at, VISA_LSC_AS_A32, dsz, false, false, false, 0, 1, false);
        if (!emu_msg_raw(p, in, A_DST, &op->src[0], ds) || !emu_msg_raw(p, in, A_SRC, &op->src[2], ds) ||
            !emu_msg_scalar(p, in, A_SURF, &op->src[4], ds))
            return false;
        op->dst2.lanes = (uint32_t)num(in, A_SIDX);
        if (sfid != VISA_LSC_SFID_SLM) p->global_atomics = true;
        op->fn = h_apndctr;
        return true;
    }
    unsigned at = (unsigned)num(in, U_AT), asize = (unsigned)num(in, U_AS), dsz = (unsigned)num(in, U_DS),
             order = (unsigned)num(in, U_ORD), ecode = (unsigned)num(in, U_ELEMS), chm = (unsigned)num(in, U_CHM) & 0xF;
    bool quad = is_quad(opc);
    if (order != VISA_LSC_ORDER_NONTRANSPOSE && order != VISA_LSC_ORDER_TRANSPOSE)
        return lsc_err(in, ds, "invalid data order");
    if (!quad && (ecode < 1 || ecode > 8)) return lsc_err(in, ds, "invalid vector size");
    unsigned elems = quad ? 1 : elems_of_code[ecode];
    if (dsz > VISA_LSC_DS_D16U32H) dsz = 0;
    if (asize > VISA_LSC_AS_A32S) asize = 0;
    op->info = pack_info(opc == VISA_LSC_OP_STORE_UNCOMPRESSED ? VISA_LSC_OP_STORE : opc, sfid, at & 7, asize, dsz,
                         order == VISA_LSC_ORDER_TRANSPOSE, false, false, quad ? chm : 0, elems, false);
    uint32_t scale = (uint32_t)(uint16_t)num(in, U_SCALE);
    op->target = scale ? scale : 1;
    op->imm = (int32_t)num(in, U_OFF);
    op->dst2.lanes = (uint32_t)num(in, U_SIDX);
    bool strided = is_strided(opc);
    /* strided: dst, base, pitch (V), data; others: dst, addresses, data 1, data 2 */
    if (!emu_msg_raw(p, in, U_DST, &op->src[0], ds) || !emu_msg_raw(p, in, U_SRC0, &op->src[1], ds) ||
        !emu_msg_raw(p, in, strided ? U_SRC2 : U_SRC1, &op->src[2], ds) ||
        !emu_msg_scalar(p, in, U_SURF, &op->src[4], ds))
        return false;
    if (strided ? !emu_msg_scalar(p, in, U_SRC1, &op->src[3], ds) : !emu_msg_raw(p, in, U_SRC2, &op->src[3], ds))
        return false;
    if (op->src[1].shape == EO_NONE) return lsc_err(in, ds, "the address payload is %null");
    return finish_simt(p, in, op, ds, true);
}

/* LSC_TYPED (tgm) on a linear buffer: the surface is 1D, texel U (+ U offset) is 4 channels of
** DataSize each (X Y Z W, 16 bytes for d32); load_quad / store_quad access the enabled channels,
** atomics channel X.  V, R and LOD must be %null (a linear buffer has no second dimension, array
** slice or mip level).  Lowered to the untyped SIMT / atomic form with scale = texel bytes. */

bool emu_lsc_lower_typed(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    unsigned opc = (unsigned)isa_forms[in->form].sub;
    memset(op->src, 0, sizeof op->src);
    memset(&op->dst, 0, sizeof op->dst);
    memset(&op->dst2, 0, sizeof op->dst2);
    unsigned at = (unsigned)num(in, T_AT), asize = (unsigned)num(in, T_AS), dsz = (unsigned)num(in, T_DS),
             chm = (unsigned)num(in, T_CHM) & 0xF;
    if (at != VISA_LSC_AT_BSS && at != VISA_LSC_AT_SS && at != VISA_LSC_AT_BTI)
        return lsc_err(in, ds, "typed messages need a bti, bss or ss surface");
    if (dsz < VISA_LSC_DS_D8 || dsz > VISA_LSC_DS_D16U32H) return lsc_err(in, ds, "invalid data size");
    if (asize != VISA_LSC_AS_A32 && asize != VISA_LSC_AS_A16 && asize != VISA_LSC_AS_A64)
        return lsc_err(in, ds, "invalid address size");
    emu_opnd v, r, lod;
    if (!emu_msg_raw(p, in, T_V, &v, ds) || !emu_msg_raw(p, in, T_R, &r, ds) || !emu_msg_raw(p, in, T_LOD, &lod, ds))
        return false;
    if (v.shape != EO_NONE || r.shape != EO_NONE || lod.shape != EO_NONE)
        return lsc_err(in, ds, "typed surfaces are 1D linear buffers in the emulator: V, R and LOD must be %null");
    bool quad = opc == VISA_LSC_OP_LOAD_QUAD || opc == VISA_LSC_OP_STORE_QUAD;
    op->info = pack_info(opc, VISA_LSC_SFID_TGM, at, asize, dsz, false, false, false, quad ? chm : 0, 1, false);
    unsigned texel = 4u * mem_bytes[dsz];
    op->target = texel;
    op->imm = (int32_t)((uint32_t)num(in, T_UOFF) * texel);
    op->dst2.lanes = (uint32_t)num(in, T_SIDX);
    if (!emu_msg_raw(p, in, T_DST, &op->src[0], ds) || !emu_msg_raw(p, in, T_U, &op->src[1], ds) ||
        !emu_msg_raw(p, in, T_SRC1, &op->src[2], ds) || !emu_msg_raw(p, in, T_SRC2, &op->src[3], ds) ||
        !emu_msg_scalar(p, in, T_SURF, &op->src[4], ds))
        return false;
    if (op->src[1].shape == EO_NONE) return lsc_err(in, ds, "the U coordinate payload is %null");
    return finish_simt(p, in, op, ds, true);
}

void emu_lsc_fence(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++; /* memory is coherent in the emulator: a fence only orders, which is already so */
}
/* -- Raw sends (messages.md 2.1-2.4, 3) ----------------------------------------------------------- */
bool emu_lsc_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds) {
    uint32_t desc = d->desc, ex = d->exdesc, grf = p->cur->grf_bytes;
    bool xe2 = p->plat >= VISA_PLATFORM_XE2; /* immediate offsets in ExDesc (messages.md 2.4) */
    unsigned opc = desc_lsc_opcode(desc), rlen = desc_rlen(desc), mlen = desc_mlen(desc);
    unsigned sfid = d->sfid == VISA_SFID_UGM    ? VISA_LSC_SFID_UGM
                    : d->sfid == VISA_SFID_UGML ? VISA_LSC_SFID_UGML
                    : d->sfid == VISA_SFID_SLM  ? VISA_LSC_SFID_SLM
                                                : VISA_LSC_SFID_TGM;
    unsigned at = desc_lsc_addr_type(desc) + 1; /* HW 0 flat, 1 bss, 2 ss, 3 bti */
    unsigned dsz = desc_lsc_data_size(desc) + 1;
#define RAW_ERR(d, ...)                                  \
    do {                                                 \
        emu_diag(ds, d, in->line, in->col, __VA_ARGS__); \
        return false;                                    \
    } while (0)
    if (opc == VISA_LSC_OP_FENCE) {
        op->info =
            pack_info(opc, sfid, VISA_LSC_AT_FLAT, VISA_LSC_AS_A32, VISA_LSC_DS_D32, false, false, d->eot, 0, 1, true);
        op->fn = emu_lsc_nothing;
        return true;
    }
    if (sfid == VISA_LSC_SFID_TGM) RAW_ERR(EDIAG_LOWER_LSC_SEND_TYPED, d->sfid, desc);
    if (mlen != d->nsrc0) RAW_ERR(EDIAG_LOWER_LSC_SEND_MLEN, desc, mlen, d->nsrc0);
    if (rlen > d->ndst) RAW_ERR(EDIAG_LOWER_LSC_SEND_RLEN, desc, rlen, d->ndst);
    if (rlen && op->src[RS_DST].shape == EO_NONE) RAW_ERR(EDIAG_LOWER_LSC_SEND_NULL_DST, desc, rlen);
    if (op->src[RS_SRC0].shape == EO_NONE) {
        emu_diag(ds, EDIAG_LOWER_LSC_SEND_NULL_SRC0, in->line, in->col);
        return false;
    }
    if (dsz > VISA_LSC_DS_D16U32H) RAW_ERR(EDIAG_LOWER_LSC_SEND_DATA_SIZE, desc);
    emu_opnd dst = op->src[RS_DST], src0 = op->src[RS_SRC0], src1 = op->src[RS_SRC1];
    if (!rlen) dst.shape = EO_NONE;
    if (!d->nsrc1) src1.shape = EO_NONE;
    memset(op->src, 0, sizeof op->src);
    memset(&op->dst, 0, sizeof op->dst);
    memset(&op->dst2, 0, sizeof op->dst2);

    if (opc == VISA_LSC_OP_LOAD_BLOCK2D || opc == VISA_LSC_OP_STORE_BLOCK2D) {
        bool store = opc == VISA_LSC_OP_STORE_BLOCK2D, vnni = desc_lsc_vnni(desc), tr = desc_lsc_transpose(desc);
        if (sfid == VISA_LSC_SFID_SLM || at != VISA_LSC_AT_FLAT) RAW_ERR(EDIAG_LOWER_LSC_SEND_B2D_FLAT, desc);
        if (dsz > VISA_LSC_DS_D64) RAW_ERR(EDIAG_LOWER_LSC_SEND_B2D_DATA_SIZE, desc, dsz);
        if (store && (vnni || tr)) RAW_ERR(EDIAG_LOWER_LSC_SEND_B2D_STORE, desc);
        int32_t xo = 0, yo = 0;
        if (xe2) {
            xo = exdesc_lsc_block2d_x(ex); /* Xe2 immediate X / Y offsets */
            yo = exdesc_lsc_block2d_y(ex);
            if (exdesc_lsc_low(ex)) RAW_ERR(EDIAG_LOWER_LSC_SEND_B2D_EXDESC_LOW, ex);
        } else if (ex) {
            RAW_ERR(EDIAG_LOWER_LSC_SEND_B2D_EXDESC, ex);
        }
        op->info =
            pack_info(opc, sfid, VISA_LSC_AT_FLAT, VISA_LSC_AS_A64, dsz, tr, vnni, d->eot, 0, 1, true) | 1u << 20;
        op->imm = (int32_t)((uint32_t)(uint16_t)xo | (uint32_t)(uint16_t)yo << 16);
        op->src[0] = store ? src1 : dst;
        op->src[1] = src0;
        /* response (load) or data (store) bytes; a 32-GRF response is encoded as 31 */
        op->target = store ? d->nsrc1 * grf : (rlen == 31 ? 32 : rlen) * grf;
        op->fn = b2d_handler(p, store);
        return true;
    }
    bool quad = is_quad(opc);
    bool known = opc <= VISA_LSC_OP_LOAD_STATUS || opc == VISA_LSC_OP_STORE_UNCOMPRESSED ||
                 opc == VISA_LSC_OP_STORE_UNCOMPRESSED_QUAD || is_bf_atomic(opc) ||
                 opc == VISA_LSC_OP_APNDCTR_ATOMIC_ADD || opc == VISA_LSC_OP_APNDCTR_ATOMIC_SUB;
    if (!known || opc == VISA_LSC_OP_CCS_UPDATE || opc == VISA_LSC_OP_READ_STATE_INFO)
        RAW_ERR(EDIAG_LOWER_LSC_SEND_OPCODE, opc, desc, d->sfid);
    if (opc == VISA_LSC_OP_APNDCTR_ATOMIC_ADD || opc == VISA_LSC_OP_APNDCTR_ATOMIC_SUB)
        RAW_ERR(EDIAG_LOWER_LSC_SEND_APPEND, desc);
    unsigned asize = desc_lsc_addr_size(desc);
    if (!asize) RAW_ERR(EDIAG_LOWER_LSC_SEND_ADDR_SIZE, desc);
    unsigned chm = quad ? desc_lsc_cmask(desc) : 0;
    if (quad && !chm) RAW_ERR(EDIAG_LOWER_LSC_SEND_QUAD_MASK, desc);
    unsigned elems = quad ? 1 : elems_of_code[desc_lsc_vect_size(desc) + 1];
    bool tr = !quad && desc_lsc_transpose(desc);
    int32_t imm = 0;
    /* extended descriptor: surface (bti) and Xe2 immediate offsets (messages.md 2.4) */
    emu_opnd surf;
    memset(&surf, 0, sizeof surf);
    if (at == VISA_LSC_AT_FLAT) {
        if (xe2) {
            if (exdesc_lsc_low(ex)) RAW_ERR(EDIAG_LOWER_LSC_SEND_FLAT_EXDESC_LOW, ex);
            imm = exdesc_lsc_flat_offset(ex);
        } else if (ex) {
            RAW_ERR(EDIAG_LOWER_LSC_SEND_FLAT_EXDESC, ex);
        }
    } else if (at == VISA_LSC_AT_BTI) {
        surf.shape = EO_IMM;
        surf.type = VISA_TYPE_UD;
        surf.size = 4;
        surf.imm = exdesc_lsc_bti(ex);
        if (xe2) imm = exdesc_lsc_bti_offset(ex); /* Xe2: signed byte offset */
        else if (exdesc_lsc_below_bti(ex)) RAW_ERR(EDIAG_LOWER_LSC_SEND_BTI_EXDESC, ex);
    } else {
        RAW_ERR(EDIAG_LOWER_LSC_SEND_SURFACE_STATE, at == VISA_LSC_AT_BSS ? "bss" : "ss", ex);
    }
    if (opc == VISA_LSC_OP_STORE_UNCOMPRESSED) opc = VISA_LSC_OP_STORE;
    op->info = pack_info(opc, sfid, at, asize, dsz, tr, false, d->eot, chm, elems, true);
    op->target = 1;
    op->imm = imm;
    op->src[0] = dst;
    op->src[1] = src0;
    op->src[2] = src1;
    op->src[4] = surf;
    unsigned rb = reg_bytes[dsz], nelem = quad ? popcount4(chm) : elems, n = op->exec;
    if (is_atomic(opc)) {
        unsigned k = atomic_nsrc(opc);
        if (k && d->nsrc1 * grf % k) RAW_ERR(EDIAG_LOWER_LSC_SEND_ATOMIC_SPLIT, d->nsrc1, k);
        uint32_t blk = k ? d->nsrc1 * grf / k : 0;
        if (k && blk < n * rb) RAW_ERR(EDIAG_LOWER_LSC_SEND_ATOMIC_SRC1, d->nsrc1, n);
        if (rlen && rlen * grf < n * rb) RAW_ERR(EDIAG_LOWER_LSC_SEND_ATOMIC_RLEN, rlen, n);
        op->dst.ind_off = (int32_t)blk;
        if (k == 2) {
            op->src[3] = src1;
            op->src[3].off += blk;
        }
    } else if (!tr && opc != VISA_LSC_OP_LOAD_STATUS) {
        bool store = is_store(opc);
        unsigned len = store ? d->nsrc1 : rlen;
        if (len) {
            if (len * grf % nelem) RAW_ERR(EDIAG_LOWER_LSC_SEND_PAYLOAD_SPLIT, store ? "data" : "response", len, nelem);
            uint32_t stride = len * grf / nelem;
            if (stride < n * rb)
                RAW_ERR(EDIAG_LOWER_LSC_SEND_PAYLOAD_LANES, store ? "data" : "response", len, n, nelem);
            if (store) op->dst.ind_off = (int32_t)stride;
            else op->dst.off = stride;
        }
    } else if (tr) {
        unsigned len = is_store(opc) ? d->nsrc1 : rlen;
        if (len && len * grf < elems * rb) RAW_ERR(EDIAG_LOWER_LSC_SEND_PAYLOAD_ELEMS, len, elems);
    }
    if (is_strided(opc) && grf < 12) {
        emu_diag(ds, EDIAG_LOWER_LSC_SEND_STRIDED, in->line, in->col);
        return false;
    }
    return finish_simt(p, in, op, ds, false);
#undef RAW_ERR
}
