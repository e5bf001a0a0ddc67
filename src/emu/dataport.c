/* dataport.c -- the legacy data-port and SVM messages (spec pages OWORD_LD, OWORD_LD_UNALIGNED,
** OWORD_ST, MEDIA_LD, MEDIA_ST, GATHER, SCATTER, GATHER_SCALED, SCATTER_SCALED, GATHER4_SCALED,
** SCATTER4_SCALED, GATHER4_TYPED, SCATTER4_TYPED, DWORD_ATOMIC, TYPED_ATOMIC, QW_GATHER,
** QW_SCATTER, SVM_BLOCK_LD/ST, SVM_GATHER/SCATTER, SVM_GATHER4_SCALED/SCATTER4_SCALED,
** SVM_ATOMIC), and the legacy HDC messages of raw sends (notes/messages.md section 5).
**
** Memory model (this comment is its reference; tests: tests/emu/dp_*.visaasm, cases_dataport.txt; raw
** sends: tests/emu/dpraw_*.visaasm, cases_dpraw.txt and the section before emu_dataport_lower_send):
**  * Surfaces.  A surface operand is a state variable; its slot holds a buffer index.  T0 (%slm)
**    is the group's shared local memory (an error when SLMSize is 0).  Every other surface --
**    user surfaces and the predefined T1, T2, T3 (TSS), T4 (%bss) and T5 (%scratch, the stateless
**    surface T255) -- is the buffer whose index its slot holds.  Predefined surfaces are not
**    kernel inputs, so their slot is 0 (buffer 0) unless MOVS writes it: for T5 this models a
**    general-state base address at the start of that buffer, 32-bit stateless offsets being byte
**    offsets into it.  A slot naming no buffer is a run-time error.  With scratch space
**    (visa_run_opts.scratch_size) T5 holds the scratch buffer before XeHP and r0.5 the thread's
**    slice offset (launch.c init_scratch): any surface bound to that buffer is the running thread's
**    slice [r0.5 offset, + scratch_size); leaving it is E-RUN-OOB-SCRATCH.
**  * Out of bounds on a surface: an access unit (the element of GATHER/SCATTER, the num_blocks
**    bytes of the *_SCALED forms, one dword channel of the 4-channel forms, one oword of OWORD_*,
**    one qword of QW_*, the dword of an atomic) reads as 0 and is not written unless all of its
**    bytes are inside the surface (spec "Out-of-bound Access").  Offsets of A32 messages add in
**    32 bits (the pseudo-code's UD arithmetic).
**  * SVM (A64) addresses go through emu_global; the spec leaves out-of-bounds SVM accesses
**    implementation-defined: here they are run-time errors, like misaligned addresses wherever
**    a page states an alignment.
**  * 2D and typed surfaces are linear buffers described by attributes of the surface
**    declaration: Width (pixels), Height (rows, default 1), Depth (slices, default 1), Pitch
**    (bytes per row, default Width * pixel bytes) and Channels (32-bit channels per pixel, 1..4,
**    default 1: R32_UINT; 4 is R32G32B32A32_UINT; no format conversion).  Without Width the
**    surface is 1D and as wide as the buffer.  Typed reads outside the surface (or at a LOD other
**    than 0) return 0 in R, G, B and 1 in A; channels the format lacks read the same defaults
**    and are not written.  MEDIA_LD clamps out-of-bounds coordinates to the nearest edge pixel
**    (X and Y offsets read as signed); MEDIA_ST drops out-of-bounds bytes.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convert.h"
#include "desc_fields.h"
#include "dp_layout.h"
#include "probe.h"
#include "mem.h"
#include "access.h"
#include "families.h"
#include "opnd.h"

/* -- Packed op fields ----------------------------------------------------------------------------
** op->info: [1:0] surface kind, [11:4] A, [19:12] B, [27:20] C, [31:28] flags.
** op->target: the surface's state slot; op->cond: the surface id (for messages).
** Operand slots: the instruction's V and R operands in layout order, slot k = src[k] (k < 5),
** slot 5 = dst, slot 6 = dst2; the slot of a dp_layout.h position is its distance from the
** family's first V/R position (SLOT).  Raw-send lowering fills the same slots. */
#define SLOT(first, pos) ((unsigned)((pos) - (first)))
#define NSLOTS(first, last) (SLOT(first, last) + 1u)
/* the slots of the atomics' Src0 (Src1 and Dst follow) and of the typed messages' data */
#define TYPED_ATOMIC_SRC0 SLOT(TA_U, TA_SRC0)
#define ATOMIC_SRC0 SLOT(DA_EOFF, DA_SRC0)
#define TYPED_DATA SLOT(TY_U, TY_DATA)
_Static_assert(SLOT(SA_ADDRS, SA_SRC0) == ATOMIC_SRC0 && SLOT(DA_SRC0, DA_DST) == SLOT(TA_SRC0, TA_DST) &&
                   SLOT(SA_SRC0, SA_DST) == SLOT(DA_SRC0, DA_DST),
               "DWORD_ATOMIC and SVM_ATOMIC share one run-time function and slot arrangement");
enum { SK_NONE = 0, SK_SLM = 1, SK_BUF = 2, SK_BTI = 3 }; /* SK_BTI (raw sends): op->target is the buffer index */
#define F_SURF(i) ((i)&3u)
#define F_A(i) (((i) >> 4) & 0xFFu)
#define F_B(i) (((i) >> 12) & 0xFFu)
#define F_C(i) (((i) >> 20) & 0xFFu)
#define F_FL(i) (((i) >> 28) & 0xFu)
#define INFO(sk, a, b, c, fl) \
    ((uint32_t)(sk) | (uint32_t)(a) << 4 | (uint32_t)(b) << 12 | (uint32_t)(c) << 20 | (uint32_t)(fl) << 28)

/* Lanes of a message: the instruction's execution size, or for a raw send the SIMD width its
** descriptor names (op->imm; the execution mask still covers the instruction's lanes only). */
static inline unsigned lanes(const emu_op *op) { return op->imm > 0 ? (unsigned)op->imm : op->exec; }

static inline const emu_opnd *slot(const emu_op *op, unsigned k) {
    return k < 5 ? &op->src[k] : k == 5 ? &op->dst : &op->dst2;
}
static inline emu_opnd *slot_w(emu_op *op, unsigned k) { return k < 5 ? &op->src[k] : k == 5 ? &op->dst : &op->dst2; }

static inline uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline uint64_t rdn(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    memcpy(&v, p, n); /* little-endian host */
    return v;
}
static inline void wrn(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

/* -- Lowering helpers ---------------------------------------------------------------------------- */

static bool lerr(diag_sink *ds, const ir_inst *in, const char *why) {
    emu_diag(ds, EDIAG_LOWER_DATAPORT, in->line, in->col, isa_forms[in->form].name, why);
    return false;
}

/* Re-lower every V/R operand into its slot (lower_inst keeps only five): vector operands keep
** what lower_vec made (they come first in every layout here) and get an integer loader. */
static bool lower_slots(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds, unsigned *count) {
    unsigned j = 0;
    for (unsigned k = 0; k < in->nopnd; k++) {
        const ir_opnd *o = &in->opnd[k];
        if (o->kind == 'V') {
            if (j >= 5 || !emu_bind_opnd(&op->src[j], EC_INT)) return lerr(ds, in, "has an unsupported vector operand");
            j++;
        } else if (o->kind == 'R') {
            if (j >= 7) return lerr(ds, in, "has too many operands");
            if (!emu_lower_raw(p, in, &o->u.raw, slot_w(op, j++), ds)) return false;
        }
    }
    *count = j;
    return true;
}

static bool num_at(const ir_inst *in, unsigned k, unsigned *v) {
    if (k >= in->nopnd) return false;
    *v = (unsigned)in->opnd[k].u.num;
    return true;
}

/* Surface field k: kind, slot (op->target) and id (op->cond). */
static bool lower_surface(emu_program *p, const ir_inst *in, emu_op *op, unsigned k, diag_sink *ds, unsigned *kind) {
    unsigned id;
    if (!num_at(in, k, &id) || id >= p->cur->nsurfs) return lerr(ds, in, "names an unknown surface");
    op->target = p->cur->surf_slot[id];
    op->cond = (uint8_t)id;
    *kind = id == VISA_PREDEF_SURF_SLM ? SK_SLM : SK_BUF;
    return true;
}

static uint32_t surf_attr(const ir_routine *r, unsigned id, const char *name, uint32_t dflt) {
    if (id < ISA_NUM_PREDEF_SURFS || id - ISA_NUM_PREDEF_SURFS >= r->surfaces.len) return dflt;
    const ir_attr_list *l = &r->surfaces.data[id - ISA_NUM_PREDEF_SURFS].attrs;
    for (unsigned i = 0; i < l->count; i++) {
        const ir_attr *a = &l->items[i];
        if (a->is_str || strcmp(ir_str(r, a->name), name)) continue;
        uint32_t v = 0;
        for (int b = (a->size > 4 ? 4 : a->size) - 1; b >= 0; b--) v = v << 8 | a->value[b];
        return v;
    }
    return dflt;
}

/* Geometry of a 2D/typed surface, kept in the otherwise unused imm fields of slots 5 and 6
** (dst.imm = Width | Height << 32, dst2.imm = Depth | Pitch << 32) and channels in info A. */
static bool lower_geometry(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds, unsigned *chans) {
    unsigned id = op->cond;
    const ir_routine *r = p->cur_r;
    uint32_t w = surf_attr(r, id, "Width", 0), h = surf_attr(r, id, "Height", 1), d = surf_attr(r, id, "Depth", 1),
             c = surf_attr(r, id, "Channels", 1);
    if (c < 1 || c > 4) return lerr(ds, in, "uses a surface whose Channels attribute is not 1..4");
    uint64_t pitch = surf_attr(r, id, "Pitch", (uint32_t)((uint64_t)w * 4 * c <= UINT32_MAX ? w * 4 * c : 0));
    if (w && pitch < (uint64_t)w * 4 * c)
        return lerr(ds, in, "uses a surface whose Pitch is below Width * pixel bytes");
    if (!h || !d) return lerr(ds, in, "uses a surface with a zero Height or Depth");
    op->dst.imm = (uint64_t)w | (uint64_t)h << 32;
    op->dst2.imm = (uint64_t)d | pitch << 32;
    *chans = c;
    return true;
}

typedef struct geom {
    uint64_t w, h, d, pitch; /* pixels, rows, slices, bytes per row */
    unsigned pb; /* pixel bytes */
} geom;

static void geometry(const emu_op *op, uint64_t size, unsigned chans, geom *g) {
    g->pb = 4 * chans;
    g->w = op->dst.imm & 0xFFFFFFFFu;
    g->h = op->dst.imm >> 32;
    g->d = op->dst2.imm & 0xFFFFFFFFu;
    g->pitch = op->dst2.imm >> 32;
    if (!g->w) { /* 1D: the whole buffer */
        g->w = size / g->pb;
        g->h = g->d = 1;
        g->pitch = g->w * g->pb;
    }
}

/* -- Run-time helpers ---------------------------------------------------------------------------- */

typedef struct dp_mem {
    uint8_t *base;
    uint64_t lo, size; /* the accessible bytes [lo, size): lo is 0 but on the scratch space */
    unsigned space; /* VISA_MEM_SLM or VISA_MEM_SURFACE (observation) */
    uint32_t index; /* the surface's buffer */
    const emu_mem *mem;
    emu_thread *scratch; /* on the scratch space: the thread whose slice [lo, size) is, else NULL */
} dp_mem;

/* Report an access at byte `off` of the surface to the observer (exec.h's emu_observe_mem); one
** outside the thread's scratch slice is the fault at() reports instead. */
static inline void dp_observe(emu_thread *t, const dp_mem *m, uint64_t off, uint32_t size, unsigned lane,
                              unsigned kind) {
    if (t->obs && m->scratch && (off < m->lo || off > m->size || size > m->size - off)) return;
    emu_observe_mem(t, m->space, m->index, m->space == VISA_MEM_SLM ? emu_slm_offset(off) : off, size, lane, kind);
}

static bool surface_mem(emu_thread *t, const emu_op *op, dp_mem *m) {
    emu_mem *mem = t->mem;
    m->mem = mem;
    if (F_SURF(op->info) == SK_SLM) {
        if (!mem->slm || !mem->slm_size) {
            emu_fault(t, EDIAG_RUN_NO_SLM, 0);
            return false;
        }
        m->base = mem->slm;
        m->size = mem->slm_size;
        m->space = VISA_MEM_SLM;
        m->index = 0;
        m->lo = 0;
        m->scratch = NULL;
        return true;
    }
    uint32_t idx = F_SURF(op->info) == SK_BTI ? op->target : t->state[op->target];
    if (idx >= mem->nbufs) {
        if (F_SURF(op->info) == SK_BTI) emu_fault(t, EDIAG_RUN_UNBOUND_BTI, 0, idx, mem->nbufs);
        else emu_fault(t, EDIAG_RUN_UNBOUND_SURFACE, 0, op->cond, idx, mem->nbufs);
        return false;
    }
    uint64_t bytes = 0;
    m->base = emu_surface(mem, idx, 0, 0, &bytes);
    m->lo = 0;
    m->size = bytes;
    m->space = VISA_MEM_SURFACE;
    m->index = idx;
    m->scratch = NULL;
    if (emu_is_scratch(mem, idx)) { /* the offsets include the thread's slice start (launch.c, r0.5) */
        m->lo = t->scratch_base;
        m->size = t->scratch_base + mem->scratch_size < bytes ? t->scratch_base + mem->scratch_size : bytes;
        m->scratch = t;
    }
    return true;
}

/* An access outside the thread's scratch slice: another thread's private memory, a run-time error
** (memcheck's finding under memcheck). */
static uint8_t *scratch_fault(const dp_mem *m, uint64_t off, uint64_t n) {
    emu_fault(m->scratch, EDIAG_RUN_OOB_SCRATCH, 0, "access", (unsigned long long)n, (unsigned long long)off, m->index,
              (unsigned long long)m->lo, (unsigned long long)m->size - 1);
    m->scratch->fault_finding = EDIAG_C_MEMCHECK_OOB;
    return NULL;
}

static inline uint8_t *at(const dp_mem *m, uint64_t off, uint64_t n) {
    if (m->space == VISA_MEM_SLM) off = emu_slm_offset(off);
    if (off <= m->size && n <= m->size - off && off >= m->lo) return m->base + off;
    return m->scratch ? scratch_fault(m, off, n) : emu_oob_sink(m->mem, n);
}

/* The register bytes [0, bytes) of a raw slot; NULL (and a fault) when they leave the file. */
static uint8_t *regs(emu_thread *t, const emu_opnd *o, uint64_t bytes) {
    if ((uint64_t)o->off + bytes > t->prog->lay.file_bytes) {
        emu_fault(t, EDIAG_RUN_PAYLOAD_BYTES_FILE, 0, (unsigned long long)bytes, o->off);
        return NULL;
    }
    return t->file + o->off;
}

static inline uint64_t scalar(const emu_thread *t, const emu_opnd *o) {
    emu_val v[EMU_MAX_LANES];
    o->load(t, o, 1, v);
    return (uint64_t)v[0].i;
}

/* Dword pitch of one channel block (seed pages: ch_start = ch_pos * max(exec_size, GRF/4)). */
static inline unsigned ch_pitch(const emu_thread *t, const emu_op *op) {
    unsigned g = t->prog->lay.grf_bytes / 4, n = lanes(op);
    return n > g ? n : g;
}

/* -- OWORD_LD, OWORD_LD_UNALIGNED, OWORD_ST ------------------------------------------------------ */
/* info A = owords; flags 1 = byte offset (unaligned), 2 = store */

bool emu_dp_lower_oword(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    bool st = in->form == VISA_FORM_OWORD_ST;
    unsigned size, kind, n;
    if (!num_at(in, st ? OWST_SIZE : OWLD_SIZE, &size) || (size & 7) > 4)
        return lerr(ds, in, "has an invalid oword count");
    if (!lower_surface(p, in, op, st ? OWST_SURF : OWLD_SURF, ds, &kind) || !lower_slots(p, in, op, ds, &n))
        return false;
    if (n != (st ? NSLOTS(OWST_OFF, OWST_SRC) : NSLOTS(OWLD_OFF, OWLD_DST)))
        return lerr(ds, in, "has unexpected operands");
    if ((size & 7) == 4 && kind != SK_SLM) return lerr(ds, in, "reads or writes 16 owords, which only T0 (SLM) allows");
    op->info = INFO(kind, 1u << (size & 7), 0, 0, (in->form == VISA_FORM_OWORD_LD_UNALIGNED ? 1 : 0) | (st ? 2 : 0));
    return true;
}

void emu_dp_oword(emu_thread *t, const emu_op *op) {
    unsigned n = F_A(op->info), fl = F_FL(op->info);
    dp_mem m;
    if (!surface_mem(t, op, &m)) return;
    uint64_t off = scalar(t, &op->src[0]) & 0xFFFFFFFFu;
    if (fl & 1) {
        if (off & 3) {
            emu_fault(t, EDIAG_RUN_ALIGN_OWORD, 0, (unsigned long long)off);
            t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
            return;
        }
    } else {
        off *= 16;
    }
    uint8_t *r = regs(t, &op->src[1], (uint64_t)n * 16);
    if (!r) return;
    for (unsigned k = 0; k < n; k++) {
        dp_observe(t, &m, off + 16u * k, 16, 0, fl & 2 ? VISA_MEM_WRITE : VISA_MEM_READ);
        uint8_t *q = at(&m, off + 16u * k, 16);
        emu_check_xfer(t, r + 16 * k, 16, q, 16, 0, fl & 2); /* initcheck (check.h) */
        if (fl & 2) {
            if (q) memcpy(q, r + 16 * k, 16);
        } else if (q) {
            memcpy(r + 16 * k, q, 16);
        } else {
            memset(r + 16 * k, 0, 16);
        }
    }
    t->pc++;
}

/* -- MEDIA_LD, MEDIA_ST ---------------------------------------------------------------------------- */
/* info A = channels, B = block width, C = block height, flags: field (0 frame, 1 top, 2 bottom) | 4 store */

bool emu_dp_lower_media(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    bool st = in->form == VISA_FORM_MEDIA_ST;
    unsigned mods, plane, w, h, kind, n, chans;
    if (!num_at(in, MD_MODE, &mods) || !num_at(in, MD_PLANE, &plane) || !num_at(in, MD_W, &w) || !num_at(in, MD_H, &h))
        return lerr(ds, in, "is malformed");
    if (!lower_surface(p, in, op, MD_SURF, ds, &kind) || !lower_slots(p, in, op, ds, &n)) return false;
    if (n != NSLOTS(MD_X, MD_DATA)) return lerr(ds, in, "has unexpected operands");
    if (op->cond == 0 || op->cond == 5) return lerr(ds, in, "needs a 2D surface (not T0 or T5)");
    if (plane != 0) return lerr(ds, in, "is supported by the emulator on plane 0 only (surfaces are not planar)");
    if (w < 1 || w > 64 || h < 1 || h > 64) return lerr(ds, in, "has a block width or height outside 1..64");
    unsigned pitch = w <= 4 ? 4 : w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
    if (pitch * h > 256) return lerr(ds, in, "has a block larger than the legal width/height combinations (256 bytes)");
    unsigned field;
    mods &= 7;
    if (st) {
        if (mods > 3 || mods == 1) return lerr(ds, in, "has a reserved modifier");
        field = mods == 2 ? 1 : mods == 3 ? 2 : 0;
    } else {
        if (mods > 5) return lerr(ds, in, "has an unknown modifier");
        /* 'modified' only asks for the latest write, which every read sees here */
        field = mods == 2 || mods == 4 ? 1 : mods == 3 || mods == 5 ? 2 : 0;
    }
    if (!lower_geometry(p, in, op, ds, &chans)) return false;
    op->info = INFO(kind, chans, w, h, field | (st ? 4 : 0));
    return true;
}

void emu_dp_media(emu_thread *t, const emu_op *op) {
    unsigned bw = F_B(op->info), bh = F_C(op->info), field = F_FL(op->info) & 3;
    bool st = F_FL(op->info) & 4;
    dp_mem m;
    if (!surface_mem(t, op, &m)) return;
    geom g;
    geometry(op, m.size, F_A(op->info), &g);
    int64_t x = (int32_t)(uint32_t)scalar(t, &op->src[0]), y = (int32_t)(uint32_t)scalar(t, &op->src[1]);
    if (st && (x & 3)) {
        emu_fault(t, EDIAG_RUN_ALIGN_MEDIA, 0, (long long)x);
        t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
        return;
    }
    unsigned rp = bw <= 4 ? 4 : bw <= 8 ? 8 : bw <= 16 ? 16 : bw <= 32 ? 32 : 64;
    uint8_t *r = regs(t, &op->src[2], (uint64_t)rp * bh);
    if (!r) return;
    int64_t wb = (int64_t)(g.w * g.pb); /* row bytes */
    int64_t rows = field == 0 ? (int64_t)g.h : field == 1 ? (int64_t)(g.h + 1) / 2 : (int64_t)g.h / 2;
    if ((uint64_t)(g.h - 1) * g.pitch + (uint64_t)wb > m.size && wb && rows) {
        emu_fault(t, EDIAG_RUN_SURFACE_SIZE, 0, op->cond, (unsigned long long)g.w, (unsigned long long)g.h,
                  (unsigned long long)g.pitch, (unsigned long long)m.size);
        return;
    }
    int64_t pb = g.pb;
    for (unsigned i = 0; i < bh; i++) {
        for (unsigned j = 0; j < bw; j++) {
            int64_t fy = y + i, bx = x + j;
            uint8_t *reg = r + (size_t)i * rp + j;
            if (st) {
                if (fy < 0 || fy >= rows || bx < 0 || bx >= wb) continue; /* dropped */
            } else {
                if (!wb || !rows) { /* an empty surface has no edge to clamp to */
                    *reg = 0;
                    continue;
                }
                /* clamp to the nearest edge pixel, keeping the byte's place within the pixel */
                if (fy < 0) fy = 0;
                if (fy >= rows) fy = rows - 1;
                if (bx < 0) bx = ((bx % pb) + pb) % pb;
                else if (bx >= wb) bx = wb - pb + bx % pb;
            }
            int64_t row = field == 0 ? fy : field == 1 ? 2 * fy : 2 * fy + 1;
            dp_observe(t, &m, (uint64_t)row * g.pitch + (uint64_t)bx, 1, 0, st ? VISA_MEM_WRITE : VISA_MEM_READ);
            uint8_t *q = m.base + (uint64_t)row * g.pitch + (uint64_t)bx;
            if (st) *q = *reg;
            else *reg = *q;
        }
    }
    t->pc++;
}

/* -- GATHER, SCATTER, GATHER_SCALED, SCATTER_SCALED, QW_GATHER, QW_SCATTER -------------------------
** info A = element bytes, B = blocks (QW), flags: 1 store, 2 offsets in element units (GATHER),
** 4 qword blocks (QW_*: data j*exec+i, 8 bytes) */

bool emu_dp_lower_scattered(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    unsigned kind, n, esize = 0, blocks = 1, fl = 0, sk;
    switch (in->form) {
    case VISA_FORM_GATHER:
    case VISA_FORM_SCATTER: {
        bool g = in->form == VISA_FORM_GATHER;
        unsigned es, ne;
        if (!num_at(in, g ? GA_ESIZE : SC_ESIZE, &es) || !num_at(in, g ? GA_NELTS : SC_NELTS, &ne))
            return lerr(ds, in, "is malformed");
        if ((es & 3) > 2 || (ne & 3) > 2) return lerr(ds, in, "has an invalid element size or count");
        esize = 1u << (es & 3);
        op->exec = (uint8_t)((ne & 3) == 0 ? 8 : (ne & 3) == 1 ? 16 : 1);
        op->mask_off = (uint8_t)ir_exec_mask_offset((uint8_t)ne); /* num_elts carries the emask */
        op->nomask = ir_exec_nomask((uint8_t)ne);
        op->pred_id = 0;
        sk = g ? GA_SURF : SC_SURF;
        fl = 2 | (g ? 0 : 1);
        break;
    }
    case VISA_FORM_GATHER_SCALED:
    case VISA_FORM_SCATTER_SCALED: {
        unsigned nb;
        if (!num_at(in, GS_NBLK, &nb)) return lerr(ds, in, "is malformed");
        if ((nb & 3) > 2) return lerr(ds, in, "reads or writes 8 blocks; the spec allows 1, 2 or 4");
        esize = 1u << (nb & 3);
        sk = GS_SURF;
        fl = in->form == VISA_FORM_SCATTER_SCALED ? 1 : 0;
        break;
    }
    default: { /* QW_GATHER, QW_SCATTER */
        unsigned nb;
        if (!num_at(in, QW_NBLK, &nb)) return lerr(ds, in, "is malformed");
        esize = 8;
        blocks = 1u << (nb & 3);
        sk = QW_SURF;
        fl = 4 | (in->form == VISA_FORM_QW_SCATTER ? 1 : 0);
        break;
    }
    }
    if (!lower_surface(p, in, op, sk, ds, &kind) || !lower_slots(p, in, op, ds, &n)) return false;
    unsigned want = in->form == VISA_FORM_GATHER    ? NSLOTS(GA_GOFF, GA_DST)
                    : in->form == VISA_FORM_SCATTER ? NSLOTS(SC_GOFF, SC_SRC)
                    : (fl & 4)                      ? NSLOTS(QW_OFF, QW_DATA)
                                                    : NSLOTS(GS_GOFF, GS_DATA);
    if (n != want) return lerr(ds, in, "has unexpected operands");
    op->info = INFO(kind, esize, blocks, 0, fl);
    return true;
}

void emu_dp_scattered(emu_thread *t, const emu_op *op) {
    unsigned es = F_A(op->info), blocks = F_B(op->info), fl = F_FL(op->info), n = lanes(op);
    bool st = fl & 1, qw = fl & 4;
    dp_mem m;
    if (!surface_mem(t, op, &m)) return;
    uint64_t go = qw ? 0 : scalar(t, &op->src[0]) & 0xFFFFFFFFu;
    const emu_opnd *ofs = &op->src[qw ? 0 : 1], *data = &op->src[qw ? 1 : 2];
    uint8_t *ro = regs(t, ofs, (uint64_t)n * 4);
    if (!ro) return;
    uint8_t *rd = regs(t, data, qw ? (uint64_t)blocks * n * 8 : (uint64_t)n * 4);
    if (!rd) return;
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint32_t e = (uint32_t)(go + rd32(ro + 4 * i)); /* UD arithmetic */
        uint64_t byte = (fl & 2) ? (uint64_t)e * es : e;
        for (unsigned j = 0; j < blocks; j++) {
            dp_observe(t, &m, byte + (uint64_t)j * es, es, i, st ? VISA_MEM_WRITE : VISA_MEM_READ);
            uint8_t *q = at(&m, byte + (uint64_t)j * es, es);
            uint8_t *reg = qw ? rd + ((size_t)j * n + i) * 8 : rd + (size_t)i * 4;
            emu_check_xfer(t, reg, st ? es : qw ? 8 : 4, q, es, i, st); /* initcheck (check.h) */
            if (st) {
                if (q) memcpy(q, reg, es);
            } else if (qw) {
                wrn(reg, q ? rdn(q, 8) : 0, 8);
            } else {
                wrn(reg, q ? rdn(q, es) : 0, 4); /* the upper bytes of 1/2-byte reads: zero */
            }
        }
    }
    t->pc++;
}

/* -- GATHER4_SCALED, SCATTER4_SCALED, SVM_GATHER4_SCALED, SVM_SCATTER4_SCALED ------------------
** info A = channel mask, flags: 1 store, 2 SVM */

bool emu_dp_lower_4scaled(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    bool svm = in->form == VISA_FORM_SVM_GATHER4SCALED || in->form == VISA_FORM_SVM_SCATTER4SCALED;
    bool st = in->form == VISA_FORM_SCATTER4_SCALED || in->form == VISA_FORM_SVM_SCATTER4SCALED;
    unsigned chm, kind = SK_NONE, n;
    if (!num_at(in, svm ? S4_CHM : G4_CHM, &chm) || !(chm & 0xF)) return lerr(ds, in, "enables no channel");
    if (!svm && !lower_surface(p, in, op, G4_SURF, ds, &kind)) return false;
    if (!lower_slots(p, in, op, ds, &n)) return false;
    if (n != (svm ? NSLOTS(S4_ADDR, S4_DATA) : NSLOTS(G4_GOFF, G4_DATA)))
        return lerr(ds, in, "has unexpected operands");
    op->info = INFO(kind, chm & 0xF, 0, 0, (st ? 1 : 0) | (svm ? 2 : 0));
    return true;
}

void emu_dp_4scaled(emu_thread *t, const emu_op *op) {
    unsigned chm = F_A(op->info), fl = F_FL(op->info), n = lanes(op), nch = 0;
    bool st = fl & 1, svm = fl & 2;
    for (unsigned c = 0; c < 4; c++) nch += chm >> c & 1;
    dp_mem m = {0};
    if (!svm && !surface_mem(t, op, &m)) return;
    uint64_t base = scalar(t, &op->src[0]);
    if (!svm) base &= 0xFFFFFFFFu;
    unsigned ob = svm ? 8 : 4, cp = ch_pitch(t, op);
    uint8_t *ro = regs(t, &op->src[1], (uint64_t)n * ob);
    if (!ro) return;
    uint8_t *rd = regs(t, &op->src[2], (uint64_t)((nch - 1) * cp + n) * 4);
    if (!rd) return;
    uint32_t mask = emu_chen(t, op);
    unsigned pos = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(chm >> c & 1)) continue;
        for (unsigned i = 0; i < n; i++) {
            if (!(mask >> i & 1)) continue;
            uint8_t *reg = rd + ((size_t)pos * cp + i) * 4;
            uint64_t a = svm ? base + rd64(ro + 8 * i) : (uint32_t)(base + rd32(ro + 4 * i));
            if (a & 3) {
                emu_fault(t, EDIAG_RUN_ALIGN_DWORD, i, (unsigned long long)a);
                t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
                return;
            }
            a += 4u * c;
            uint8_t *q;
            if (svm) {
                emu_observe_mem(t, VISA_MEM_GLOBAL, 0, a, 4, i, st ? VISA_MEM_WRITE : VISA_MEM_READ);
                q = emu_global(t->mem, a, 4);
                if (!q) {
                    char w[80];
                    emu_fault(t, EDIAG_RUN_OOB_GLOBAL, i, st ? "store" : "load", 4u,
                              emu_global_where(t->mem, a, w, sizeof w));
                    return;
                }
            } else {
                dp_observe(t, &m, a, 4, i, st ? VISA_MEM_WRITE : VISA_MEM_READ);
                q = at(&m, a, 4);
            }
            emu_check_xfer(t, reg, 4, q, 4, i, st);
            if (st) {
                if (q) memcpy(q, reg, 4);
            } else {
                wrn(reg, q ? rd32(q) : 0, 4);
            }
        }
        pos++;
    }
    t->pc++;
}

/* -- GATHER4_TYPED, SCATTER4_TYPED ---------------------------------------------------------------
** info A = channels of the format, B = channel mask, flags 1 = store */

bool emu_dp_lower_typed(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    bool st = in->form == VISA_FORM_SCATTER4_TYPED;
    unsigned chm, kind, n, chans;
    if (!num_at(in, TY_CHM, &chm) || !(chm & 0xF)) return lerr(ds, in, "enables no channel");
    if (!lower_surface(p, in, op, TY_SURF, ds, &kind) || !lower_slots(p, in, op, ds, &n)) return false;
    if (n != NSLOTS(TY_U, TY_DATA)) return lerr(ds, in, "has unexpected operands");
    if (op->cond == 0 || op->cond == 5) return lerr(ds, in, "needs a 1D, 2D or 3D surface (not T0 or T5)");
    if (!lower_geometry(p, in, op, ds, &chans)) return false;
    op->info = INFO(kind, chans, chm & 0xF, 0, st ? 1 : 0);
    return true;
}

/* Byte offset of pixel (u, v, r) at LOD lod, or -1 when outside the surface; faults (-2) when
** the declared geometry leaves the buffer. */
static int64_t pixel_at(emu_thread *t, const emu_op *op, const geom *g, const dp_mem *m, unsigned lane, uint32_t u,
                        uint32_t v, uint32_t r, uint32_t lod) {
    if (lod != 0 || u >= g->w || v >= g->h || r >= g->d) return -1;
    uint64_t off = ((uint64_t)r * g->h + v) * g->pitch + (uint64_t)u * g->pb;
    if (!at(m, off, g->pb)) {
        emu_fault(t, EDIAG_RUN_OOB_PIXEL, lane, u, v, r, op->cond, (unsigned long long)m->size);
        return -2;
    }
    return (int64_t)off;
}

/* U, V, R, LOD of lane i from slots 0..3 (%null: 0). */
static bool uvrl(emu_thread *t, const emu_op *op, unsigned n, uint8_t *p[4]) {
    for (unsigned k = 0; k < 4; k++) {
        p[k] = NULL;
        if (op->src[k].shape == EO_NONE) continue;
        if (!(p[k] = regs(t, &op->src[k], (uint64_t)n * 4))) return false;
    }
    return true;
}
static inline uint32_t lane_u32(uint8_t *p, unsigned i) { return p ? rd32(p + 4 * i) : 0; }

void emu_dp_typed(emu_thread *t, const emu_op *op) {
    unsigned chans = F_A(op->info), chm = F_B(op->info), n = lanes(op), nch = 0, cp = ch_pitch(t, op);
    bool st = F_FL(op->info) & 1;
    for (unsigned c = 0; c < 4; c++) nch += chm >> c & 1;
    dp_mem m;
    if (!surface_mem(t, op, &m)) return;
    geom g;
    geometry(op, m.size, chans, &g);
    uint8_t *c4[4];
    if (!uvrl(t, op, n, c4)) return;
    if (!c4[0]) {
        emu_fault(t, EDIAG_RUN_TYPED_U_NULL, 0);
        return;
    }
    uint8_t *rd = regs(t, &op->src[TYPED_DATA], (uint64_t)((nch - 1) * cp + n) * 4);
    if (!rd) return;
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        int64_t px =
            pixel_at(t, op, &g, &m, i, lane_u32(c4[0], i), lane_u32(c4[1], i), lane_u32(c4[2], i), lane_u32(c4[3], i));
        if (px == -2) return;
        unsigned pos = 0;
        for (unsigned c = 0; c < 4; c++) {
            if (!(chm >> c & 1)) continue;
            uint8_t *reg = rd + ((size_t)pos++ * cp + i) * 4;
            bool have = px >= 0 && c < chans;
            if (have) dp_observe(t, &m, (uint64_t)px + 4 * c, 4, i, st ? VISA_MEM_WRITE : VISA_MEM_READ);
            emu_check_xfer(t, reg, 4, have ? m.base + px + 4 * c : NULL, 4, i, st);
            if (st) {
                if (have) memcpy(m.base + px + 4 * c, reg, 4);
            } else {
                wrn(reg, have ? rd32(m.base + px + 4 * c) : c == 3 ? 1 : 0, 4);
            }
        }
    }
    t->pc++;
}

/* -- Atomics: DWORD_ATOMIC, TYPED_ATOMIC, SVM_ATOMIC ----------------------------------------------
** Operation codes: enums.def's atomic_op (VISA_ATOMIC_*, the DWORD_ATOMIC table with IGC's fadd and
** fsub); raw HDC messages add one.  info A = op, B = bits (16, 32, 64), flags: 1 typed, 2 SVM */
enum { EMU_AOP_REVSUB = 24 /* raw HDC messages only (hardware AOP 9): new = src0 - old */ };

static bool aop_valid(unsigned a) { return isa_enum_text(VISA_EN_atomic_op, a) != NULL; }
static unsigned aop_srcs(unsigned a) {
    int n = isa_enum_attr(VISA_EN_atomic_op, a); /* data sources; EMU_AOP_REVSUB takes one */
    return n < 0 ? 1 : (unsigned)n;
}
static bool aop_signed(unsigned a) {
    return a == VISA_ATOMIC_MINSINT || a == VISA_ATOMIC_MAXSINT || a == VISA_ATOMIC_PREDEC;
}

static double fbits_to_d(uint64_t v, unsigned bits) {
    if (bits == 16) {
        uint32_t f = emu_hf_to_f((uint16_t)v, 0);
        float x;
        memcpy(&x, &f, 4);
        return x;
    }
    if (bits == 32) {
        float x;
        uint32_t f = (uint32_t)v;
        memcpy(&x, &f, 4);
        return x;
    }
    double d;
    memcpy(&d, &v, 8);
    return d;
}

/* maxNum/minNum: a NaN operand yields the other one; -0 orders below +0. */
static uint64_t fminmax(uint64_t old, uint64_t s, unsigned bits, bool max) {
    double a = fbits_to_d(old, bits), b = fbits_to_d(s, bits);
    if (isnan(b)) return old;
    if (isnan(a)) return s;
    if (a == b) {
        if (a != 0 || signbit(a) == signbit(b)) return old;
        return (max ? !signbit(b) : signbit(b)) ? s : old;
    }
    return (max ? b > a : b < a) ? s : old;
}

static uint64_t faddsub(uint64_t old, uint64_t s, unsigned bits, bool sub) {
    if (bits == 32) {
        float a, b, r;
        uint32_t x = (uint32_t)old, y = (uint32_t)s, z;
        memcpy(&a, &x, 4);
        memcpy(&b, &y, 4);
        r = sub ? a - b : a + b;
        memcpy(&z, &r, 4);
        return z;
    }
    double a = fbits_to_d(old, bits), b = fbits_to_d(s, bits), r = sub ? a - b : a + b; /* exact for hf */
    uint64_t z;
    memcpy(&z, &r, 8);
    return bits == 16 ? emu_df_to_hf(z, EMU_RNE) : z;
}

static inline int64_t sext(uint64_t v, unsigned bits) {
    return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* new value of the location; *ret receives the value returned to dst */
static uint64_t aop_apply(unsigned a, unsigned bits, uint64_t old, uint64_t s0, uint64_t s1, uint64_t *ret) {
    uint64_t mk = bits == 64 ? ~0ull : (1ull << bits) - 1, nv;
    old &= mk, s0 &= mk, s1 &= mk;
    switch (a) {
    case VISA_ATOMIC_ADD: nv = old + s0; break;
    case VISA_ATOMIC_SUB: nv = old - s0; break;
    case VISA_ATOMIC_INC: nv = old + 1; break;
    case VISA_ATOMIC_DEC:
    case VISA_ATOMIC_PREDEC: nv = old - 1; break;
    case VISA_ATOMIC_MIN: nv = s0 < old ? s0 : old; break;
    case VISA_ATOMIC_MAX: nv = s0 > old ? s0 : old; break;
    case VISA_ATOMIC_XCHG: nv = s0; break;
    case VISA_ATOMIC_CMPXCHG: nv = old == s1 ? s0 : old; break; /* new = (old == src1) ? src0 : old */
    case VISA_ATOMIC_AND: nv = old & s0; break;
    case VISA_ATOMIC_OR: nv = old | s0; break;
    case VISA_ATOMIC_XOR: nv = old ^ s0; break;
    case VISA_ATOMIC_MINSINT: nv = sext(s0, bits) < sext(old, bits) ? s0 : old; break;
    case VISA_ATOMIC_MAXSINT: nv = sext(s0, bits) > sext(old, bits) ? s0 : old; break;
    case VISA_ATOMIC_FMAX: nv = fminmax(old, s0, bits, true); break;
    case VISA_ATOMIC_FMIN: nv = fminmax(old, s0, bits, false); break;
    case VISA_ATOMIC_FCMPWR:
        nv = fbits_to_d(s0, bits) == fbits_to_d(old, bits) ? s1 : old;
        break; /* (src0 == old) ? src1 : old */
    case EMU_AOP_REVSUB: nv = s0 - old; break;
    case VISA_ATOMIC_FADD: nv = faddsub(old, s0, bits, false); break;
    default: nv = faddsub(old, s0, bits, true); break; /* VISA_ATOMIC_FSUB */
    }
    nv &= mk;
    uint64_t r = a == VISA_ATOMIC_PREDEC ? nv : old;
    /* 16-bit results go back unpacked in dwords: sign-extended for the signed operations */
    if (bits == 16 && aop_signed(a)) r = (uint64_t)(uint32_t)(int32_t)sext(r, 16);
    *ret = r;
    return nv;
}

bool emu_dp_lower_atomic(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    unsigned code, kind = SK_NONE, n, fl, bits;
    bool svm = in->form == VISA_FORM_SVM_ATOMIC, typed = in->form == VISA_FORM_TYPED_ATOMIC;
    if (!num_at(in, svm ? SA_OP : typed ? TA_OP : DA_OP, &code)) return lerr(ds, in, "is malformed");
    unsigned a = code & 0x1F;
    if (!aop_valid(a)) return lerr(ds, in, "has an unknown atomic operation");
    if (svm) bits = (code >> 5 & 3) == 1 ? 16 : (code >> 5 & 3) == 2 ? 64 : (code >> 5 & 3) == 0 ? 32 : 0;
    else bits = code & 0x20 ? 16 : 32;
    if (!bits) return lerr(ds, in, "has an invalid data width");
    if (!svm && !lower_surface(p, in, op, typed ? TA_SURF : DA_SURF, ds, &kind)) return false;
    if (!lower_slots(p, in, op, ds, &n)) return false;
    unsigned want = typed ? NSLOTS(TA_U, TA_DST) : svm ? NSLOTS(SA_ADDRS, SA_DST) : NSLOTS(DA_EOFF, DA_DST);
    unsigned s0 = typed ? TYPED_ATOMIC_SRC0 : ATOMIC_SRC0;
    if (n != want) return lerr(ds, in, "has unexpected operands");
    if (typed && (op->cond == 0 || op->cond == 5)) return lerr(ds, in, "needs a typed surface (not T0 or T5)");
    unsigned ns = aop_srcs(a);
    if (ns >= 1 && slot(op, s0)->shape == EO_NONE) return lerr(ds, in, "needs src0 for this operation");
    if (ns >= 2 && slot(op, s0 + 1)->shape == EO_NONE) return lerr(ds, in, "needs src1 for this operation");
    unsigned chans = 1;
    if (typed && !lower_geometry(p, in, op, ds, &chans)) return false;
    /* the typed geometry lives in dst/dst2 imm; DWORD/SVM slots 5, 6 are unused */
    fl = (typed ? 1 : 0) | (svm ? 2 : 0);
    op->info = INFO(kind, a, bits, chans, fl);
    if (kind != SK_SLM) p->global_atomics = true;
    return true;
}

void emu_dp_atomic(emu_thread *t, const emu_op *op) {
    unsigned a = F_A(op->info), bits = F_B(op->info), fl = F_FL(op->info), n = lanes(op);
    bool typed = fl & 1, svm = fl & 2;
    unsigned mb = bits / 8, rb = bits == 64 ? 8 : 4; /* memory bytes, register bytes per lane */
    unsigned s0k = typed ? TYPED_ATOMIC_SRC0 : ATOMIC_SRC0, ns = aop_srcs(a);
    dp_mem m = {0};
    geom g;
    uint8_t *c4[4] = {0};
    if (!svm) {
        if (!surface_mem(t, op, &m)) return;
        if (typed) {
            geometry(op, m.size, F_C(op->info), &g);
            if (!uvrl(t, op, n, c4)) return;
            if (!c4[0]) {
                emu_fault(t, EDIAG_RUN_TYPED_U_NULL, 0);
                return;
            }
        }
    }
    uint8_t *ra = NULL;
    if (!typed && !(ra = regs(t, &op->src[0], (uint64_t)n * (svm ? 8 : 4)))) return;
    uint8_t *r0 = NULL, *r1 = NULL, *rdst = NULL;
    if (ns >= 1 && !(r0 = regs(t, slot(op, s0k), (uint64_t)n * rb))) return;
    if (ns >= 2 && !(r1 = regs(t, slot(op, s0k + 1), (uint64_t)n * rb))) return;
    const emu_opnd *d = slot(op, s0k + 2);
    if (d->shape != EO_NONE && !(rdst = regs(t, d, (uint64_t)n * rb))) return;
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint8_t *q;
        if (typed) {
            int64_t px = pixel_at(t, op, &g, &m, i, lane_u32(c4[0], i), lane_u32(c4[1], i), lane_u32(c4[2], i),
                                  lane_u32(c4[3], i));
            if (px == -2) return;
            q = px >= 0 ? m.base + px : NULL; /* channel R, low 16 bits for .16 */
            if (q) dp_observe(t, &m, (uint64_t)px, mb, i, VISA_MEM_ATOMIC);
        } else {
            uint64_t addr = svm ? rd64(ra + 8 * i) : rd32(ra + 4 * i);
            if (addr % mb) {
                emu_fault(t, EDIAG_RUN_ALIGN_ATOMIC, i, (unsigned long long)addr, mb);
                t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
                return;
            }
            if (svm) {
                emu_observe_mem(t, VISA_MEM_GLOBAL, 0, addr, mb, i, VISA_MEM_ATOMIC);
                q = emu_global(t->mem, addr, mb);
                if (!q) {
                    char w[80];
                    emu_fault(t, EDIAG_RUN_OOB_GLOBAL, i, "atomic", mb, emu_global_where(t->mem, addr, w, sizeof w));
                    return;
                }
            } else {
                dp_observe(t, &m, addr, mb, i, VISA_MEM_ATOMIC);
                q = at(&m, addr, mb);
            }
        }
        uint64_t old = q ? rdn(q, mb) : 0, ret;
        uint64_t nv =
            aop_apply(a, bits, old, r0 ? rdn(r0 + (size_t)rb * i, rb) : 0, r1 ? rdn(r1 + (size_t)rb * i, rb) : 0, &ret);
        if (q) wrn(q, nv, mb); /* out of bounds: dropped, 0 returned */
        else ret = 0;
        if (rdst) {
            wrn(rdst + (size_t)rb * i, ret, rb);
            /* initcheck: the returned value is defined, as the LSC atomics' (lsc.c) */
            emu_check_xfer(t, rdst + (size_t)rb * i, rb, NULL, mb, i, false);
        }
    }
    t->pc++;
}

/* -- SVM_BLOCK_LD, SVM_BLOCK_ST -------------------------------------------------------------------
** info A = owords, flags 1 store, 2 dword alignment suffices */

bool emu_dp_lower_svm_block(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    bool st = in->form == VISA_FORM_SVM_BLOCK_ST;
    unsigned props, n;
    if (!num_at(in, SB_PROPS, &props) || (props & 7) > 4) return lerr(ds, in, "has an invalid oword count");
    if (!lower_slots(p, in, op, ds, &n)) return false;
    if (n != NSLOTS(SB_ADDR, SB_DATA)) return lerr(ds, in, "has unexpected operands");
    /* unaligned: spec bit 3; IGC's builder and printer use bit 7.  Stores are always oword-aligned. */
    bool unal = !st && (props & 0x88);
    op->info = INFO(SK_NONE, 1u << (props & 7), 0, 0, (st ? 1 : 0) | (unal ? 2 : 0));
    return true;
}

void emu_dp_svm_block(emu_thread *t, const emu_op *op) {
    unsigned n = F_A(op->info), fl = F_FL(op->info);
    uint64_t a = scalar(t, &op->src[0]);
    unsigned al = fl & 2 ? 4 : 16;
    if (a % al) {
        emu_fault(t, EDIAG_RUN_ALIGN_BLOCK, 0, (unsigned long long)a, al == 4 ? "dword" : "oword");
        t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
        return;
    }
    uint8_t *r = regs(t, &op->src[1], (uint64_t)n * 16);
    if (!r) return;
    emu_observe_mem(t, VISA_MEM_GLOBAL, 0, a, n * 16, 0, fl & 1 ? VISA_MEM_WRITE : VISA_MEM_READ);
    uint8_t *q = emu_global(t->mem, a, n * 16);
    if (!q) {
        char w[80];
        emu_fault(t, EDIAG_RUN_OOB_GLOBAL, 0, fl & 1 ? "store" : "load", n * 16,
                  emu_global_where(t->mem, a, w, sizeof w));
        return;
    }
    emu_check_xfer(t, r, n * 16, q, n * 16, 0, fl & 1);
    if (fl & 1) memcpy(q, r, (size_t)n * 16);
    else memcpy(r, q, (size_t)n * 16);
    t->pc++;
}

/* -- SVM_GATHER, SVM_SCATTER ----------------------------------------------------------------------
** info A = block bytes, B = blocks, flags 1 store */

bool emu_dp_lower_svm_gs(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    unsigned bs, nb, n;
    if (!num_at(in, SG_BSIZE, &bs) || !num_at(in, SG_NBLK, &nb)) return lerr(ds, in, "is malformed");
    /* block size 0 = 1 byte, 1 = 4 bytes, 8 bytes: 2 (VISA_SVM_Block_Type, SVM_SCATTER page) or 3
    ** (SVM_GATHER page) */
    unsigned bytes = (bs & 3) == 0 ? 1 : (bs & 3) == 1 ? 4 : 8;
    if (!lower_slots(p, in, op, ds, &n)) return false;
    if (n != NSLOTS(SG_ADDRS, SG_DATA)) return lerr(ds, in, "has unexpected operands");
    op->info = INFO(SK_NONE, bytes, 1u << (nb & 3), 0, in->form == VISA_FORM_SVM_SCATTER ? 1 : 0);
    return true;
}

void emu_dp_svm_gs(emu_thread *t, const emu_op *op) {
    unsigned bs = F_A(op->info), nb = F_B(op->info), n = lanes(op);
    bool st = F_FL(op->info) & 1;
    unsigned mbs = nb < 4 ? 4 : nb; /* 1-byte blocks: bytes per lane in the register */
    uint8_t *ra = regs(t, &op->src[0], (uint64_t)n * 8);
    if (!ra) return;
    uint8_t *rd = regs(t, &op->src[1], bs == 1 ? (uint64_t)n * mbs : (uint64_t)nb * n * bs);
    if (!rd) return;
    uint32_t mask = emu_chen(t, op);
    for (unsigned i = 0; i < n; i++) {
        if (!(mask >> i & 1)) continue;
        uint64_t a = rd64(ra + 8 * i);
        if (a % bs) {
            emu_fault(t, EDIAG_RUN_ALIGN_BLOCK_SIZE, i, (unsigned long long)a, bs);
            t->fault_finding = EDIAG_C_MEMCHECK_ALIGN;
            return;
        }
        uint32_t span = bs == 1 ? nb : bs;
        for (unsigned j = 0; j < (bs == 1 ? 1u : nb); j++) {
            uint64_t aj = a + (uint64_t)j * bs;
            emu_observe_mem(t, VISA_MEM_GLOBAL, 0, aj, span, i, st ? VISA_MEM_WRITE : VISA_MEM_READ);
            uint8_t *q = emu_global(t->mem, aj, span);
            if (!q) {
                char w[80];
                emu_fault(t, EDIAG_RUN_OOB_GLOBAL, i, st ? "store" : "load", span,
                          emu_global_where(t->mem, aj, w, sizeof w));
                return;
            }
            uint8_t *reg = bs == 1 ? rd + (size_t)i * mbs : rd + ((size_t)j * n + i) * bs;
            emu_check_xfer(t, reg, span, q, span, i, st);
            if (st) {
                memcpy(q, reg, span);
            } else {
                if (bs == 1) memset(reg, 0, mbs); /* bytes past num_blocks: zero */
                memcpy(reg, q, span);
            }
        }
    }
    t->pc++;
}

/* -- Raw HDC messages: raw_send / raw_sends to DC0, DC1 and DCRO (messages.md 5) ---------------------
** Descriptor: BTI [7:0], message-specific control [13:8], message type [18:14], header [19], response
** length [24:20], message length [28:25]; the extended descriptor is not used.  The payload is src0
** (message length GRFs) followed by src1 (NumSrc1 GRFs; raw_send: none): [header] addresses [operands
** or data], every per-lane block rounded up to whole GRFs.  Each message runs on the handler of the
** vISA instruction IGC's vISA builder lowers to it (visa/VisaToG4/TranslateSendLdStLegacy.cpp), with
** the SIMD width from the descriptor (op->imm) and the instruction's execution mask and predicate:
**   DC0/DCRO 0x00 OWord block read, offset header dword 2 in owords     -> OWORD_LD
**   DC0/DCRO 0x01 (unaligned) OWord block read, byte offset             -> OWORD_LD_UNALIGNED
**   DC0 0x08 OWord block write, offset in owords                        -> OWORD_ST
**   DC0 0x04 / 0x0C byte scattered read / write ([11:10] 1, 2, 4 bytes) -> GATHER_SCALED / SCATTER_SCALED
**   DC0/DCRO 0x03, DC0 0x0B dword scattered read / write, dword offsets -> GATHER / SCATTER .4
**     (byte and dword scattered: optional header, dword 2 = global offset in bytes / dwords)
**   DC0 0x05 / 0x0D qword scattered read / write ([11:10] qwords/lane)  -> QW_GATHER / QW_SCATTER
**   DC0 0x07 memory fence                                               -> nothing (coherent memory)
**   DC1 0x01 / 0x09 untyped surface read / write (channel-disable mask) -> GATHER4_SCALED / SCATTER4_SCALED
**   DC1 0x11 / 0x19 A64 untyped surface read / write                    -> SVM_GATHER4_SCALED / SVM_SCATTER4_SCALED
**   DC1 0x10 / 0x1A A64 byte / dword / qword scattered read / write     -> SVM_GATHER / SVM_SCATTER
**   DC1 0x14 / 0x15 A64 OWord / HWord block read / write (header qword 0 = address) -> SVM_BLOCK_LD / ST
**   DC1 0x02 / 0x03 / 0x12 / 0x13 untyped integer atomics (A32 / A64, 32 / 16 / 64 bits) and
**       0x1B / 0x1C / 0x1D / 0x1E untyped float atomics                 -> DWORD_ATOMIC / SVM_ATOMIC
**   DC1 0x05 / 0x0D / 0x06 / 0x07 typed read / write / atomic           -> GATHER4_TYPED / SCATTER4_TYPED / TYPED_ATOMIC
** Surfaces: BTI 0xFE = SLM (T0); 0xFF and 0xFD (stateless) = T5 for A32 messages (the buffer T5's
** slot holds), flat global memory for A64 ones; any other index below 0xF0 is the buffer of that
** index (as a bti LSC surface, lsc.c).  A raw typed message has no surface declaration: its surface
** is 1D R32_UINT as wide as the buffer (U only; V, R, LOD must be 0 to be in bounds).
** Atomic operations: hardware AOP codes (and, or, xor, mov, inc, dec, add, sub, revsub, imax, imin,
** umax, umin, cmpwr, predec; float fmax, fmin, fcmpwr, fadd, fsub) map onto the DWORD_ATOMIC ones;
** the payload's first operand of cmpwr is the compare value, the second the new value.  A32 block
** addresses need dword alignment whatever the subtype (IGA and vISA name subtypes 0 and 1 oppositely).
** On XeHPC the SIMD8 encodings of the SM2 fields mean SIMD16 and typed/A64-atomic messages are SIMD16
** (IGA's MessageDecoderHDC); Xe2 and later have no HDC data port.  Anything else is a lowering error
** naming the SFID, message type, BTI and descriptor. */

typedef struct hdc {
    emu_program *p;
    const ir_inst *in;
    diag_sink *ds;
    const emu_send_desc *d;
    unsigned bti, mt, grf, nsrc0, nsrc1, rlen;
    bool hdr, xehpc;
    emu_opnd src0, src1, dst;
} hdc;

static bool herr(const hdc *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool herr(const hdc *h, const char *fmt, ...) {
    char why[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    unsigned sf = h->d->sfid;
    const char *name = sf == VISA_SFID_DC0    ? "DC0"
                       : sf == VISA_SFID_DC1  ? "DC1"
                       : sf == VISA_SFID_DCRO ? "DCRO"
                                              : "DC2";
    emu_diag(h->ds, EDIAG_LOWER_HDC_SEND, h->in->line, h->in->col, sf, name, h->mt, h->bti, h->d->desc, why);
    return false;
}

static inline unsigned blk(const hdc *h, unsigned bytes) { return (bytes + h->grf - 1) / h->grf; }

/* Bytes [off, off + len) of the message (src0 then src1) as one register range. */
static bool part(const hdc *h, unsigned off, unsigned len, emu_opnd *o, const char *what) {
    unsigned b0 = h->nsrc0 * h->grf;
    if (off + len <= b0) {
        *o = h->src0;
    } else if (off >= b0 && off - b0 + len <= h->nsrc1 * h->grf) {
        *o = h->src1;
        off -= b0;
    } else {
        return herr(h, "its %s (payload bytes %u..%u) straddle src0 (%u GRFs) and src1 (%u GRFs)", what, off,
                    off + len - 1, h->nsrc0, h->nsrc1);
    }
    o->off += off;
    return true;
}

/* The payload sizes the message needs: msg GRFs in src0 + src1, rlen GRFs of response. */
static bool sizes(const hdc *h, unsigned msg, unsigned rlen) {
    if (h->nsrc0 + h->nsrc1 != msg)
        return herr(h, "the message needs %u GRFs of payload (header, addresses, data) but src0 + src1 have %u + %u",
                    msg, h->nsrc0, h->nsrc1);
    if (h->rlen != rlen) return herr(h, "the response length is %u GRFs; this message returns %u", h->rlen, rlen);
    return true;
}

static void hdr_scalar(emu_opnd *o, const emu_opnd *src0, unsigned byte, unsigned type) {
    *o = *src0;
    o->shape = EO_SCALAR;
    o->type = (uint8_t)type;
    o->size = (uint8_t)isa_types[type].bytes;
    o->off += byte;
    emu_bind_opnd(o, EC_INT);
}

static void imm_zero(emu_opnd *o) {
    memset(o, 0, sizeof *o);
    o->shape = EO_IMM;
    o->type = VISA_TYPE_UD;
    o->size = 4;
    emu_bind_opnd(o, EC_INT);
}

/* The surface of an A32 message (SLM, T5 for stateless, or a buffer index); A64: BTI 0xFF / 0xFD. */
static bool hdc_surface(const hdc *h, emu_op *op, bool a64, bool typed, unsigned *kind) {
    unsigned b = h->bti;
    if (a64) {
        if (b != 0xFF && b != 0xFD) return herr(h, "A64 messages take BTI 0xFF or 0xFD (stateless)");
        *kind = SK_NONE;
        return true;
    }
    if (typed && b >= 0xF0) return herr(h, "typed messages need a binding table index naming a buffer (< 0xF0)");
    if (b == 0xFE) {
        *kind = SK_SLM;
        op->cond = 0;
    } else if (b == 0xFF || b == 0xFD) {
        *kind = SK_BUF; /* stateless A32: T5, as for the vISA instructions */
        op->target = h->p->cur->surf_slot[5];
        op->cond = 5;
    } else if (b >= 0xF0) {
        return herr(h, "special binding table index 0x%02x is not supported by the emulator", b);
    } else {
        *kind = SK_BTI;
        op->target = b;
        op->cond = (uint8_t)b;
    }
    return true;
}

/* SIMD width of the one-bit SM2 fields (IGA decodeMDC_SM2X): XeHPC doubles SIMD8 and forbids SIMD16. */
static bool sm2x(const hdc *h, bool b, unsigned bit, bool reversed, unsigned *n) {
    unsigned simd = (b ^ reversed) ? 16 : 8;
    if (h->xehpc) {
        if (simd == 16) return herr(h, "the SIMD16 encoding of bit %u is invalid on XeHPC", bit);
        simd = 16;
    }
    *n = simd;
    return true;
}

static bool sm3(const hdc *h, unsigned *n) {
    unsigned b = desc_hdc_simd_mode(h->d->desc);
    if (b != 1 && b != 2) return herr(h, "SIMD mode [13:12] = %u is not SIMD16 (1) or SIMD8 (2)", b);
    if (b == 2 && h->xehpc) return herr(h, "SIMD8 (SIMD mode 2) is invalid on XeHPC");
    *n = b == 1 ? 16 : 8;
    return true;
}

static unsigned popcount4(unsigned m) { return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1); }

static void h_fence(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++;
}

/* OWord block read / write (DC0, DCRO) and A64 OWord / HWord block read / write (DC1). */
static bool hdc_block(const hdc *h, emu_op *op, bool st, bool bytes_off, bool a64) {
    unsigned ctl = desc_hdc_block_size(h->d->desc), owords, hi = 0;
    bool hword = a64 && desc_hdc_a64_block(h->d->desc) == 3;
    if (a64 && desc_hdc_a64_block(h->d->desc) == 2) return herr(h, "A64 dual-block messages are not supported");
    if (hword) {
        if (ctl > 3) return herr(h, "HWord block count code %u is not 0..3", ctl);
        owords = 2u << ctl;
    } else {
        if (ctl > 5 || (ctl == 5 && h->p->plat < VISA_PLATFORM_XEHPG))
            return herr(h, "OWord block size code %u is invalid on this platform", ctl);
        owords = ctl < 2 ? 1 : 1u << (ctl - 1);
        hi = ctl == 1 ? 16 : 0; /* 1H: the high oword of the GRF */
    }
    if (!h->hdr) return herr(h, "block messages need a header (descriptor bit 19)");
    unsigned bytes = owords * 16, kind = SK_NONE;
    if (!sizes(h, 1 + (st ? blk(h, bytes) : 0), st ? 0 : blk(h, bytes))) return false;
    if (!hdc_surface(h, op, a64, false, &kind)) return false;
    hdr_scalar(&op->src[0], &h->src0, a64 ? 0 : 8, a64 ? VISA_TYPE_UQ : VISA_TYPE_UD);
    if (st) {
        if (!part(h, h->grf + hi, bytes, &op->src[1], "data")) return false;
    } else {
        op->src[1] = h->dst;
        op->src[1].off += hi;
    }
    if (a64) {
        op->info = INFO(SK_NONE, owords, 0, 0, (st ? 1 : 0) | 2);
        op->fn = emu_dp_svm_block;
    } else {
        op->info = INFO(kind, owords, 0, 0, (bytes_off ? 1 : 0) | (st ? 2 : 0));
        op->fn = emu_dp_oword;
    }
    return true;
}

/* Byte / dword scattered (DC0, DCRO) and qword scattered (DC0). */
static bool hdc_scattered(const hdc *h, emu_op *op, bool st, unsigned what /* 1 byte, 4 dword, 8 qword */) {
    uint32_t desc = h->d->desc;
    unsigned n = desc_hdc_scattered_simd16(desc) ? 16 : 8, es = 4, nb = 1, kind, hb = h->hdr;
    if (what == 1) {
        unsigned c = desc_hdc_scattered_size(desc);
        if (c == 3) return herr(h, "byte scattered data size [11:10] = 3 is reserved");
        es = 1u << c;
    } else {
        if (!desc_hdc_scattered_legacy(desc)) return herr(h, "bit 9 (legacy SIMD mode) must be 1");
        if (what == 4 && desc_hdc_scattered_size(desc))
            return herr(h, "dword scattered control bits [11:10] must be 0");
        if (what == 8) {
            if (hb) return herr(h, "qword scattered messages with a header are not supported");
            es = 8;
            nb = 1u << desc_hdc_scattered_size(desc);
        }
    }
    unsigned ab = blk(h, 4 * n), db = what == 8 ? nb * blk(h, 8 * n) : blk(h, 4 * n);
    if (!sizes(h, hb + ab + (st ? db : 0), st ? 0 : db) || !hdc_surface(h, op, false, false, &kind)) return false;
    emu_opnd *ofs = &op->src[what == 8 ? 0 : 1], *data = &op->src[what == 8 ? 1 : 2];
    if (what != 8) {
        if (hb) hdr_scalar(&op->src[0], &h->src0, 8, VISA_TYPE_UD); /* global offset */
        else imm_zero(&op->src[0]);
    }
    if (!part(h, hb * h->grf, 4 * n, ofs, "offsets")) return false;
    if (st) {
        if (!part(h, (hb + ab) * h->grf, db * h->grf, data, "data")) return false;
    } else {
        *data = h->dst;
    }
    op->info = INFO(kind, es, nb, 0, (st ? 1 : 0) | (what == 4 ? 2 : 0) | (what == 8 ? 4 : 0));
    op->imm = (int32_t)n;
    op->fn = emu_dp_scattered;
    return true;
}

/* Untyped surface read / write, A32 and A64 (DC1). */
static bool hdc_untyped(const hdc *h, emu_op *op, bool st, bool a64) {
    unsigned chm = ~desc_hdc_chdis(h->d->desc) & 0xF, n, kind = SK_NONE, hb = h->hdr;
    if (!chm) return herr(h, "the channel-disable mask [11:8] = 0xf disables every channel");
    if (!sm3(h, &n)) return false;
    if (a64 && hb) return herr(h, "A64 untyped messages forbid a header");
    unsigned nch = popcount4(chm), ab = blk(h, (a64 ? 8 : 4) * n), cb = blk(h, 4 * n);
    if (!sizes(h, hb + ab + (st ? nch * cb : 0), st ? 0 : nch * cb)) return false;
    if (!hdc_surface(h, op, a64, false, &kind)) return false;
    imm_zero(&op->src[0]);
    if (!part(h, hb * h->grf, (a64 ? 8 : 4) * n, &op->src[1], "addresses")) return false;
    if (st) {
        if (!part(h, (hb + ab) * h->grf, nch * cb * h->grf, &op->src[2], "data")) return false;
    } else {
        op->src[2] = h->dst;
    }
    op->info = INFO(kind, chm, 0, 0, (st ? 1 : 0) | (a64 ? 2 : 0));
    op->imm = (int32_t)n;
    op->fn = emu_dp_4scaled;
    return true;
}

/* A64 byte / dword / qword scattered read / write (DC1 0x10 / 0x1A). */
static bool hdc_a64_scattered(const hdc *h, emu_op *op, bool st) {
    uint32_t desc = h->d->desc;
    unsigned sub = desc_hdc_a64_subtype(desc), cnt = 1u << desc_hdc_a64_count(desc), bs, data;
    unsigned n = desc_hdc_a64_simd16(desc) ? 16 : 8;
    if (sub == 3) return herr(h, "A64 byte scattered read with status return is not supported");
    if (h->hdr) return herr(h, "A64 scattered messages forbid a header");
    if (sub == 0) {
        bs = 1;
        data = blk(h, (cnt == 8 ? 8 : 4) * n);
    } else {
        bs = sub == 1 ? 4 : 8;
        if (cnt > 1 && (bs * n) % h->grf)
            return herr(h, "%u blocks of %u-byte elements at SIMD%u do not fill whole GRFs (layout unknown)", cnt, bs,
                        n);
        data = cnt * blk(h, bs * n);
    }
    unsigned ab = blk(h, 8 * n);
    if (!sizes(h, ab + (st ? data : 0), st ? 0 : data)) return false;
    unsigned kind;
    if (!hdc_surface(h, op, true, false, &kind) || !part(h, 0, 8 * n, &op->src[0], "addresses")) return false;
    if (st) {
        if (!part(h, ab * h->grf, data * h->grf, &op->src[1], "data")) return false;
    } else {
        op->src[1] = h->dst;
    }
    op->info = INFO(SK_NONE, bs, cnt, 0, st ? 1 : 0);
    op->imm = (int32_t)n;
    op->fn = emu_dp_svm_gs;
    return true;
}

/* Slot group of a typed message: SG8L (XeHPC: SIMD16), or SG8U = lanes 8..15 of a SIMD16 send. */
static bool slot_group(const hdc *h, emu_op *op, unsigned sg, bool two_bits) {
    if (two_bits && (sg == 0 || sg == 3))
        return herr(h, "slot group [13:12] = %u (SIMD4x2 or reserved) is not supported", sg);
    bool upper = two_bits ? sg == 2 : sg == 1;
    if (upper) {
        if (h->xehpc) return herr(h, "the upper slot group is invalid on XeHPC");
        if (op->exec != 16) return herr(h, "the upper slot group (lanes 8..15) needs a SIMD16 send");
        op->mask_off = (uint8_t)(op->mask_off + 8);
    }
    return true;
}

/* Typed surface read / write (DC1 0x05 / 0x0D). */
static bool hdc_typed(const hdc *h, emu_op *op, bool st) {
    unsigned chm = ~desc_hdc_chdis(h->d->desc) & 0xF, n = h->xehpc ? 16 : 8, kind, hb = h->hdr;
    if (!chm) return herr(h, "the channel-disable mask [11:8] = 0xf disables every channel");
    if (!slot_group(h, op, desc_hdc_typed_slot_group(h->d->desc), true)) return false;
    unsigned nch = popcount4(chm), cb = blk(h, 4 * n), total = h->nsrc0 + h->nsrc1;
    unsigned rest = total - hb - (st ? nch * cb : 0), nc = rest / cb;
    if (total < hb + (st ? nch * cb : 0) || rest % cb || nc < 1 || nc > 4)
        return herr(h, "the payload (%u GRFs) is not [header] + 1..4 address blocks%s", total, st ? " + data" : "");
    if (!sizes(h, total, st ? 0 : nch * cb) || !hdc_surface(h, op, false, true, &kind)) return false;
    for (unsigned k = 0; k < nc; k++)
        if (!part(h, (hb + k * cb) * h->grf, 4 * n, &op->src[k], "coordinates")) return false;
    if (st) {
        if (!part(h, (hb + nc * cb) * h->grf, nch * cb * h->grf, &op->src[TYPED_DATA], "data")) return false;
    } else {
        op->src[TYPED_DATA] = h->dst;
    }
    op->dst.imm = 0; /* geometry: 1D, the whole buffer, one channel */
    op->dst2.imm = 0;
    op->info = INFO(kind, 1, chm, 0, st ? 1 : 0);
    op->imm = (int32_t)n;
    op->fn = emu_dp_typed;
    return true;
}

/* Hardware integer AOP [11:8] -> DWORD_ATOMIC operation (0x0, the 64-bit cmpwr inside the 32-bit
** message, is not supported: -1). */
static const int8_t hw_int_aop[16] = {-1,
                                      VISA_ATOMIC_AND,
                                      VISA_ATOMIC_OR,
                                      VISA_ATOMIC_XOR,
                                      VISA_ATOMIC_XCHG,
                                      VISA_ATOMIC_INC,
                                      VISA_ATOMIC_DEC,
                                      VISA_ATOMIC_ADD,
                                      VISA_ATOMIC_SUB,
                                      EMU_AOP_REVSUB,
                                      VISA_ATOMIC_MAXSINT,
                                      VISA_ATOMIC_MINSINT,
                                      VISA_ATOMIC_MAX,
                                      VISA_ATOMIC_MIN,
                                      VISA_ATOMIC_CMPXCHG,
                                      VISA_ATOMIC_PREDEC};

/* Untyped and typed atomics (DC1). */
static bool hdc_atomic(const hdc *h, emu_op *op) {
    uint32_t desc = h->d->desc;
    unsigned mt = h->mt, n = 8, bits = 32, a, kind = SK_NONE, hb = h->hdr;
    bool typed = mt == 0x06 || mt == 0x07, a64 = mt == 0x12 || mt == 0x13 || mt == 0x1D || mt == 0x1E;
    bool flt = mt == 0x1B || mt == 0x1C || mt == 0x1D || mt == 0x1E, ret = desc_hdc_atomic_return(desc);
    if (mt == 0x03 || mt == 0x13 || mt == 0x1C || mt == 0x1E || mt == 0x07) {
        if (h->p->plat < VISA_PLATFORM_XELP) return herr(h, "16-bit atomics exist from XeLP on");
        bits = 16;
    }
    if (flt) {
        unsigned c = desc_hdc_float_aop(desc);
        static const int8_t fop[8] = {
            -1, VISA_ATOMIC_FMAX, VISA_ATOMIC_FMIN, VISA_ATOMIC_FCMPWR, VISA_ATOMIC_FADD, VISA_ATOMIC_FSUB, -1, -1};
        if (fop[c] < 0)
            return herr(h, "float atomic operation %u is not supported (1 fmax, 2 fmin, 3 fcmpwr, 4 fadd, 5 fsub)", c);
        if ((fop[c] == VISA_ATOMIC_FADD || fop[c] == VISA_ATOMIC_FSUB) && h->p->plat < VISA_PLATFORM_XEHP)
            return herr(h, "float atomic add / subtract exist from XeHP on");
        a = (unsigned)fop[c];
    } else {
        unsigned c = desc_hdc_aop(desc);
        if (hw_int_aop[c] < 0)
            return herr(h, "atomic operation 0 (64-bit compare-and-write in the 32-bit message) is not supported");
        a = (unsigned)hw_int_aop[c];
    }
    if (typed) {
        n = h->xehpc ? 16 : 8;
        if (!slot_group(h, op, desc_hdc_atomic_slot_group(desc), false)) return false;
    } else if (mt == 0x12) {
        bits = desc_hdc_atomic_qword(desc) ? 64 : 32;
        n = h->xehpc ? 16 : 8;
    } else if (!sm2x(h, desc_hdc_atomic_simd(desc), 12, !(mt == 0x1D || mt == 0x1E), &n)) {
        return false;
    }
    if (a64 && hb) return herr(h, "A64 atomics forbid a header");
    unsigned rb = bits == 64 ? 8 : 4, ob = blk(h, rb * n), ns = aop_srcs(a), cb = blk(h, 4 * n), nc = 1, ab;
    unsigned total = h->nsrc0 + h->nsrc1;
    if (typed) {
        unsigned rest = total - hb - ns * ob;
        nc = rest / cb;
        if (total < hb + ns * ob || rest % cb || nc < 1 || nc > 4)
            return herr(h, "the payload (%u GRFs) is not [header] + 1..4 address blocks + %u operand(s)", total, ns);
        ab = nc * cb;
    } else {
        ab = blk(h, (a64 ? 8 : 4) * n);
    }
    if (!sizes(h, hb + ab + ns * ob, ret ? ob : 0)) return false;
    if (!hdc_surface(h, op, a64, typed, &kind)) return false;
    /* operands in payload order; cmpwr: compare value first, new value second (vISA: src1, src0) */
    emu_opnd o[2];
    memset(o, 0, sizeof o);
    for (unsigned k = 0; k < ns; k++)
        if (!part(h, (hb + ab + k * ob) * h->grf, rb * n, &o[k], "operands")) return false;
    bool swap = a == VISA_ATOMIC_CMPXCHG;
    unsigned s0k = typed ? TYPED_ATOMIC_SRC0 : ATOMIC_SRC0;
    *slot_w(op, s0k) = swap ? o[1] : o[0];
    *slot_w(op, s0k + 1) = swap ? o[0] : o[1];
    if (ret) *slot_w(op, s0k + 2) = h->dst;
    if (typed) {
        for (unsigned k = 0; k < nc; k++)
            if (!part(h, (hb + k * cb) * h->grf, 4 * n, &op->src[k], "coordinates")) return false;
        op->dst.imm = 0; /* geometry: 1D, the whole buffer, one channel */
        op->dst2.imm = 0;
    } else if (!part(h, hb * h->grf, (a64 ? 8 : 4) * n, &op->src[0], "addresses")) {
        return false;
    }
    op->info = INFO(kind, a, bits, 1, (typed ? 1 : 0) | (a64 ? 2 : 0));
    op->imm = (int32_t)n;
    op->fn = emu_dp_atomic;
    if (kind != SK_SLM) h->p->global_atomics = true;
    return true;
}

bool emu_dataport_lower_send(emu_program *p, const ir_inst *in, emu_op *op, const emu_send_desc *d, diag_sink *ds) {
    uint32_t desc = d->desc;
    hdc h = {.p = p,
             .in = in,
             .ds = ds,
             .d = d,
             .bti = desc_hdc_bti(desc),
             .mt = desc_hdc_type(desc),
             .grf = p->cur->grf_bytes,
             .nsrc0 = d->nsrc0,
             .nsrc1 = d->nsrc1,
             .rlen = desc_rlen(desc),
             .hdr = desc_hdc_header(desc),
             .xehpc = p->plat >= VISA_PLATFORM_XEHPC};
    h.src0 = op->src[RS_SRC0];
    h.src1 = op->src[RS_SRC1];
    h.dst = op->src[RS_DST];
    unsigned mlen = desc_mlen(desc);
    if (p->plat >= VISA_PLATFORM_XE2) return herr(&h, "Xe2 and later have no HDC data port (LSC messages only)");
    if (d->sfid == VISA_SFID_DC2) return herr(&h, "DC2 messages are not supported (IGA: not used after SKL)");
    if (d->eot) return herr(&h, "EOT on a data-port message is not supported");
    if (mlen != d->nsrc0) return herr(&h, "the descriptor's message length is %u GRFs but src0 has %u", mlen, d->nsrc0);
    if (h.rlen > d->ndst)
        return herr(&h, "the descriptor's response length is %u GRFs but dst has %u", h.rlen, d->ndst);
    if (d->nsrc0 && h.src0.shape == EO_NONE) return herr(&h, "src0 is %%null");
    if (d->nsrc1 && h.src1.shape == EO_NONE) return herr(&h, "src1 is %%null");
    if (h.rlen && h.dst.shape == EO_NONE) return herr(&h, "the response (%u GRFs) goes to %%null", h.rlen);
    if (!h.rlen) h.dst.shape = EO_NONE;
    memset(op->src, 0, sizeof op->src);
    memset(&op->dst, 0, sizeof op->dst);
    memset(&op->dst2, 0, sizeof op->dst2);
    op->imm = 0;
    unsigned mt = h.mt;
    if (d->sfid == VISA_SFID_DC0 || d->sfid == VISA_SFID_DCRO) {
        bool ro = d->sfid == VISA_SFID_DCRO;
        switch (mt) {
        case 0x00: return hdc_block(&h, op, false, false, false);
        case 0x01:
            if (!ro && p->plat >= VISA_PLATFORM_XEHPG && desc_hdc_hword_aligned(desc))
                return herr(&h, "the HWord aligned block read is not supported");
            return hdc_block(&h, op, false, true, false);
        case 0x03: return hdc_scattered(&h, op, false, 4);
        case 0x04:
            if (!ro) return hdc_scattered(&h, op, false, 1);
            break;
        case 0x05:
            if (!ro) return hdc_scattered(&h, op, false, 8);
            break;
        case 0x07:
            if (ro) break;
            if (h.bti != 0 && h.bti != 0xFE) return herr(&h, "a fence takes BTI 0 (global) or 0xFE (SLM)");
            if (h.rlen > 1) return herr(&h, "a fence returns at most 1 GRF");
            op->fn = h_fence; /* memory is coherent and accesses happen in program order */
            return true;
        case 0x08:
            if (!ro) return hdc_block(&h, op, true, false, false);
            break;
        case 0x0B:
            if (!ro) return hdc_scattered(&h, op, true, 4);
            break;
        case 0x0C:
            if (!ro) return hdc_scattered(&h, op, true, 1);
            break;
        case 0x0D:
            if (!ro) return hdc_scattered(&h, op, true, 8);
            break;
        default: break;
        }
    } else { /* DC1 */
        switch (mt) {
        case 0x01: return hdc_untyped(&h, op, false, false);
        case 0x09: return hdc_untyped(&h, op, true, false);
        case 0x11: return hdc_untyped(&h, op, false, true);
        case 0x19: return hdc_untyped(&h, op, true, true);
        case 0x10: return hdc_a64_scattered(&h, op, false);
        case 0x1A: return hdc_a64_scattered(&h, op, true);
        case 0x14: return hdc_block(&h, op, false, true, true);
        case 0x15: return hdc_block(&h, op, true, true, true);
        case 0x05: return hdc_typed(&h, op, false);
        case 0x0D: return hdc_typed(&h, op, true);
        case 0x02:
        case 0x03:
        case 0x12:
        case 0x13:
        case 0x1B:
        case 0x1C:
        case 0x1D:
        case 0x1E:
        case 0x06:
        case 0x07: return hdc_atomic(&h, op);
        default: break;
        }
    }
    return herr(&h, "this message type is not supported by the emulator");
}
