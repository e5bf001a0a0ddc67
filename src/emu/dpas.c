/* dpas.c -- the systolic instructions DPAS and DPASW (spec pages DPAS, DPASW; messages.md
** section 6).  BDPAS has no spec page, so it is not implemented (lowering reports it).
**
** D (RC x N) = C (RC x N) + A (RC x K) x B (K x N), A = src2, B = src1, K = SD * OPS, with the
** register layouts of the spec's pseudo code:
**   dst, src0  row r = N elements of the operand's type at byte r * N * size (one GRF for 32-bit
**              types); src0 %null is a zero accumulator.
**   src1 (B)   rows of N dwords (one GRF: N = GRF bytes / 4); systolic stage d of lane n reads
**              dword n of row d / S, S = 32 / (OPS * bitsB), and uses its OPS consecutive
**              elements starting at element (d % S) * OPS (element j at bit j * bitsB).
**   src2 (A)   packed densely from the operand's first byte: element k of row r at bit
**              (r * SD * OPS + k) * bitsA (the pseudo code's k runs on across rows; IGC's src2
**              footprint is bitsA * OPS / 8 * SD * RC bytes).  For SD = 8 a row is
**              8 * OPS * bitsA / 8 bytes, as the spec's closing note says.
** OPS (elements per lane per stage): 1 for tf32, 2 for bf/hf, 4 if either source has 8-bit
** elements (int8, bf8, hf8), else 8 (both sources are 1-, 2- or 4-bit integers).
**
** Integer DPAS: each element sign- or zero-extended by its own precision; stage sums are exact
** and the accumulator is a 32-bit integer that wraps (vISA DPAS has no saturation); D or UD.
**
** Float DPAS (bf, hf, tf32, bf8, hf8): every systolic stage is one fused operation
**     acc = round_f32(acc + sum over j < OPS of A[r][d*OPS+j] * B[d*OPS+j][n])
** computed exactly and rounded once to F, round to nearest even, denormals kept (inputs and
** results; %cr0 is not consulted).  This is the spec's "temp.F[i] += dot2(...)" with "the output
** of each stage is a dword ... the accumulated input to the next systolic stage": a stage hands a
** 32-bit float to the next one, nothing inside a stage is rounded.  tf32 elements are the high 19
** bits of their dword (E8M10); the low 13 bits are ignored.  A NaN operand, inf * 0 or inf - inf
** gives the quiet NaN 0x7FC00000; an exactly zero sum is -0 only if every term is -0.  Src0 of
** type HF/BF is widened exactly; a HF/BF destination gets the final F accumulator rounded to
** nearest even (emu_f_to_hf / emu_f_to_bf).
**
** DPASW (XeHP, EU fusion): src2 rows are shared between two fused threads: the first
** NGrf_EU0 = ceil(NGrf / 2) 32-byte GRFs of the virtual src2 come from EU0's src2, the rest from
** EU1's src2 starting at its first GRF (NGrf = ceil(src2 bytes / 32)).  Threads 2k (EU0) and
** 2k + 1 (EU1) of a group are the fused pair and execute each dpasw together (h_dpasw_pair); the
** page requires an even number of threads per group, so an unpaired thread is a run-time error,
** except in a one-thread group, where the thread is its own partner (virtual src2 GRF g reads its
** src2 GRF g, or g - NGrf_EU0 past EU0's share).  Everything else is DPAS.
**
** Channel enables: the instruction's execution mask and M1..M8 / NoMask select the lanes
** (columns) whose destination elements are written, in every row.  Every source is read before
** the destination is written.
*/
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "convert.h"
#include "access.h"
#include "families.h"
#include "opnd.h"

/* -- Precisions (enums.def's precision: its VISA_PRECISION_* codes and element bits) ------------ */
typedef struct prec_info {
    uint8_t bits; /* element bits in the register (tf32: its 32-bit container) */
    uint8_t fl; /* float: 0 integer, 1 float */
    uint8_t sgn; /* integer: signed */
    uint8_t ebits; /* float: exponent bits */
    uint8_t mbits; /* float: fraction bits used */
    uint8_t mshift; /* float: fraction starts at this bit (tf32: 13) */
    uint8_t noinf; /* float: all-ones exponent is finite except all-ones fraction (hf8) */
} prec_info;

/* The format of a precision the emulator computes in (*buf, with `bits`: the table's, which
** lowering looks up once and keeps in emu_op.prec_bits), or NULL. */
static const prec_info *prec_of(unsigned code, int bits, prec_info *buf) {
    enum { KNOWN = 1 }; /* .bits marks a row here; the value used is the table's */
    static const prec_info fmt[16] = {
        [VISA_PRECISION_U1] = {KNOWN, 0, 0, 0, 0, 0, 0},  [VISA_PRECISION_S1] = {KNOWN, 0, 1, 0, 0, 0, 0},
        [VISA_PRECISION_U2] = {KNOWN, 0, 0, 0, 0, 0, 0},  [VISA_PRECISION_S2] = {KNOWN, 0, 1, 0, 0, 0, 0},
        [VISA_PRECISION_U4] = {KNOWN, 0, 0, 0, 0, 0, 0},  [VISA_PRECISION_S4] = {KNOWN, 0, 1, 0, 0, 0, 0},
        [VISA_PRECISION_U8] = {KNOWN, 0, 0, 0, 0, 0, 0},  [VISA_PRECISION_S8] = {KNOWN, 0, 1, 0, 0, 0, 0},
        [VISA_PRECISION_BF] = {KNOWN, 1, 0, 8, 7, 0, 0},  [VISA_PRECISION_HF] = {KNOWN, 1, 0, 5, 10, 0, 0},
        [VISA_PRECISION_BF8] = {KNOWN, 1, 0, 5, 2, 0, 0}, [VISA_PRECISION_TF32] = {KNOWN, 1, 0, 8, 10, 13, 0},
        [VISA_PRECISION_HF8] = {KNOWN, 1, 0, 4, 3, 0, 1},
    };
    if (code >= 16 || !fmt[code].bits || bits <= 0) return NULL;
    *buf = fmt[code];
    buf->bits = (uint8_t)bits;
    return buf;
}

/* At lowering: the precision's format with the table's bits. */
static const prec_info *prec_lookup(unsigned code, prec_info *buf) {
    return prec_of(code, isa_enum_attr(VISA_EN_precision, code), buf);
}

static unsigned ops_per_chan(unsigned wp, const prec_info *pw, const prec_info *pa) {
    if (wp == VISA_PRECISION_TF32) return 1;
    if (wp == VISA_PRECISION_BF || wp == VISA_PRECISION_HF) return 2;
    if (pw->bits == 8 || pa->bits == 8) return 4;
    return 8;
}

/* op->info: W | A << 8 | SD << 16 | RC << 24 (the instruction's field);
** op->imm: dst type | src0 type << 8 | DPASW << 16 (src0 type unused when %null). */
#define F_W(i) ((i)&0xFFu)
#define F_A(i) (((i) >> 8) & 0xFFu)
#define F_SD(i) (((i) >> 16) & 0xFFu)
#define F_RC(i) ((i) >> 24)
#define IMM_DST(m) ((unsigned)(m)&0xFFu)
#define IMM_SRC0(m) (((unsigned)(m) >> 8) & 0xFFu)
#define IMM_W(m) (((unsigned)(m) >> 16) & 1u)

enum { O_DST = 0, O_SRC0 = 1, O_SRC1 = 2, O_SRC2 = 3 };

/* Footprints in bytes. */
static uint32_t src1_bytes(unsigned n, unsigned sd, unsigned ops, unsigned bitsb) {
    unsigned s = 32 / (ops * bitsb);
    return (uint32_t)((sd + s - 1) / s) * n * 4;
}
/* src2 bytes the virtual (full) operand spans */
static uint32_t src2_vbytes(unsigned rc, unsigned sd, unsigned ops, unsigned bitsa) {
    return (uint32_t)((rc * sd * ops * bitsa + 7) / 8);
}
/* DPASW: 32-byte GRFs provided by EU0 */
static uint32_t dpasw_eu0_grfs(uint32_t vbytes) {
    uint32_t ngrf = (vbytes + 31) / 32;
    return (ngrf + 1) / 2;
}
/* src2 bytes read from the thread's own registers */
static uint32_t src2_pbytes(bool w, uint32_t vbytes) {
    if (!w) return vbytes;
    uint32_t eu0 = dpasw_eu0_grfs(vbytes) * 32;
    return vbytes < eu0 ? vbytes : eu0;
}

static bool acc_type_ok(unsigned wp, isa_type t) {
    prec_info buf;
    const prec_info *p = prec_lookup(wp, &buf);
    if (!p->fl) return t == VISA_TYPE_D || t == VISA_TYPE_UD;
    if (t == VISA_TYPE_F) return true;
    if (wp == VISA_PRECISION_BF) return t == VISA_TYPE_BF;
    if (wp == VISA_PRECISION_HF) return t == VISA_TYPE_HF;
    return false;
}

typedef struct dpas_fast dpas_fast;
static const dpas_fast *fast_pick(unsigned isa, unsigned wp, unsigned ap, unsigned n);

bool emu_dpas_lower(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    const char *name = isa_forms[in->form].name;
    bool w = in->form == VISA_FORM_DPASW;
    const ir_raw *raw[3] = {NULL, NULL, NULL};
    unsigned nraw = 0;
    uint32_t info = 0;
    for (unsigned k = 0; k < in->nopnd; k++) {
        if (in->opnd[k].kind == 'R' && nraw < 3) raw[nraw++] = &in->opnd[k].u.raw;
        else if (in->opnd[k].kind == 'd') info = (uint32_t)in->opnd[k].u.num;
    }
    unsigned wp = F_W(info), ap = F_A(info), sd = F_SD(info), rc = F_RC(info);
    prec_info bw, ba;
    const prec_info *pw = prec_lookup(wp, &bw), *pa = prec_lookup(ap, &ba);
    const emu_layout *lay = p->cur;
    unsigned grf = lay->grf_bytes, n = op->exec;
    char why[160];
    why[0] = 0;
    if (nraw != 3 || op->nsrc != 4 || op->src[O_SRC2].shape == EO_NONE) snprintf(why, sizeof why, "malformed operands");
    else if (!pw || !pa)
        snprintf(why, sizeof why, "precision %s.%s is not one of u1..s8, bf, hf, bf8, hf8, tf32",
                 isa_enum_text(VISA_EN_precision, wp) ? isa_enum_text(VISA_EN_precision, wp) : "?",
                 isa_enum_text(VISA_EN_precision, ap) ? isa_enum_text(VISA_EN_precision, ap) : "?");
    else if (pw->fl != pa->fl || (pw->fl && wp != ap && !(pw->bits == 8 && pa->bits == 8))) /* bf8/hf8 mix */
        snprintf(why, sizeof why, "src1/src2 precisions must both be integer, the same bf/hf/tf32, or bf8/hf8");
    else if (sd != 1 && sd != 2 && sd != 4 && sd != 8)
        snprintf(why, sizeof why, "systolic depth %u is not 1, 2, 4 or 8", sd);
    else if (rc < 1 || rc > 8) snprintf(why, sizeof why, "repeat count %u is not 1..8", rc);
    else if (w && grf != 32) snprintf(why, sizeof why, "dpasw needs EU fusion (XeHP/XeHPG, 32-byte GRFs)");
    else if (n != grf / 4)
        snprintf(why, sizeof why, "execution size must be %u with %u-byte GRFs (8 on XeHP/XeHPG, 16 on XeHPC/Xe2+)",
                 grf / 4, grf);
    if (why[0]) {
        emu_diag(ds, EDIAG_LOWER_DPAS_FIELDS, in->line, in->col, name, why);
        return false;
    }
    /* accumulator types */
    int dt = ir_var_type(p->cur_r, raw[0]->id), st = raw[1]->id ? ir_var_type(p->cur_r, raw[1]->id) : dt;
    if (raw[0]->id == VISA_PREDEF_NULL || dt < 0 || st < 0 || !acc_type_ok(wp, (isa_type)dt) ||
        !acc_type_ok(wp, (isa_type)st)) {
        emu_diag(ds, EDIAG_LOWER_DPAS_ACC_TYPE, in->line, in->col, name,
                 !pw->fl                   ? "d or ud"
                 : wp == VISA_PRECISION_BF ? "f or bf"
                 : wp == VISA_PRECISION_HF ? "f or hf"
                                           : "f",
                 isa_enum_text(VISA_EN_precision, wp));
        return false;
    }
    op->prec_bits[0] = pw->bits, op->prec_bits[1] = pa->bits;
    unsigned ops = ops_per_chan(wp, pw, pa);
    if (32 % (ops * pw->bits) || ops * pw->bits > 32 || ops * pa->bits > 32) {
        emu_diag(ds, EDIAG_LOWER_DPAS_PRECISION_MIX, in->line, in->col, name);
        return false;
    }
    /* alignment (spec Notes): dst, src0, src1 GRF aligned; src2 SD / (32 / (bitsA * OPS)) dwords */
    uint32_t a2 = sd / (32 / (pa->bits * ops)) * 4;
    const emu_opnd *o = op->src;
    if (o[O_DST].off % grf || (o[O_SRC0].shape != EO_NONE && o[O_SRC0].off % grf) || o[O_SRC1].off % grf ||
        (a2 > 1 && o[O_SRC2].off % a2)) {
        emu_diag(ds, EDIAG_LOWER_DPAS_ALIGN, in->line, in->col, name, a2 > 1 ? a2 : 1);
        return false;
    }
    /* footprints */
    uint64_t fb = lay->file_bytes;
    uint64_t dend = o[O_DST].off + (uint64_t)rc * n * isa_types[dt].bytes;
    uint64_t s0end = o[O_SRC0].shape == EO_NONE ? 0 : o[O_SRC0].off + (uint64_t)rc * n * isa_types[st].bytes;
    uint64_t s1end = o[O_SRC1].off + (uint64_t)src1_bytes(n, sd, ops, pw->bits);
    uint64_t s2end = o[O_SRC2].off + (uint64_t)src2_pbytes(w, src2_vbytes(rc, sd, ops, pa->bits));
    if (dend > fb || s0end > fb || s1end > fb || s2end > fb) {
        emu_diag(ds, EDIAG_LOWER_DPAS_FILE, in->line, in->col, name, lay->file_bytes);
        return false;
    }
    op->info = info;
    op->imm = (int32_t)((unsigned)dt | (unsigned)st << 8 | (w ? 1u : 0u) << 16);
    op->cond = 0;
    op->aux = p->generic ? NULL : fast_pick(p->isa, wp, ap, n);
    return true;
}

/* -- Element access ------------------------------------------------------------------------------ */
/* `bits` (1..32) bits at bit `pos` from byte `off` of the file, little endian. */
static uint32_t get_bits(const uint8_t *file, uint32_t off, uint32_t pos, unsigned bits) {
    const uint8_t *b = file + off + pos / 8;
    unsigned sh = pos % 8, nb = (sh + bits + 7) / 8;
    uint64_t v = 0;
    for (unsigned i = 0; i < nb; i++) v |= (uint64_t)b[i] << (8 * i);
    v >>= sh;
    return bits >= 32 ? (uint32_t)v : (uint32_t)(v & ((1u << bits) - 1));
}


/* -- Exact fused float stage --------------------------------------------------------------------
** Terms are m * 2^e with m < 2^25 and e >= -ACC_LSB; the exact sum lives in two magnitude
** accumulators (positive and negative terms) of NL 64-bit limbs with bit 0 = 2^-ACC_LSB.  The
** smallest term is a tf32 subnormal product (2^-136 * 2^-136) and the largest a bf or tf32
** product below 2^256 (nine terms below 2^260), so 272 + 261 bits suffice. */
enum { ACC_LSB = 272, NL = 9 };

typedef struct fterm {
    uint32_t m; /* integer significand */
    int e; /* exponent of its unit */
    bool neg;
} fterm;

/* Decode a float element of precision p: class 0 finite, 1 inf, 2 NaN. */
static int fdecode(const prec_info *p, uint32_t bits, fterm *t) {
    unsigned e_all = (1u << p->ebits) - 1, bias = e_all >> 1;
    unsigned total = 1 + p->ebits + p->mbits;
    uint32_t v = bits >> p->mshift;
    uint32_t f = v & ((1u << p->mbits) - 1), ex = (v >> p->mbits) & e_all;
    t->neg = (v >> (total - 1)) & 1;
    if (ex == e_all) {
        if (p->noinf) {
            if (f == (1u << p->mbits) - 1) return 2;
        } else return f ? 2 : 1;
    }
    if (ex == 0) {
        t->m = f;
        t->e = 1 - (int)bias - (int)p->mbits;
    } else {
        t->m = f | 1u << p->mbits;
        t->e = (int)ex - (int)bias - (int)p->mbits;
    }
    return 0;
}

static void acc_add(uint64_t *a, uint64_t m, int e) {
    if (!m) return;
    unsigned sh = (unsigned)(e + ACC_LSB), li = sh / 64, bi = sh % 64;
    uint64_t part[2] = {m << bi, bi ? m >> (64 - bi) : 0};
    uint64_t c = 0;
    for (unsigned k = li; k < NL; k++) {
        uint64_t add = k - li < 2 ? part[k - li] : 0;
        uint64_t x = a[k] + add, c1 = x < add;
        uint64_t y = x + c, c2 = y < c;
        a[k] = y;
        c = c1 | c2;
        if (k > li && !c) break;
    }
}

/* a - b for a >= b */
static void acc_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t borrow = 0;
    for (unsigned k = 0; k < NL; k++) {
        uint64_t d = a[k] - b[k] - borrow;
        borrow = (a[k] < b[k]) || (a[k] - b[k] < borrow);
        r[k] = d;
    }
}

static int acc_cmp(const uint64_t *a, const uint64_t *b) {
    for (unsigned k = NL; k-- > 0;)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
}

static unsigned acc_bit(const uint64_t *a, int i) { return i < 0 ? 0 : (unsigned)(a[i / 64] >> (i % 64)) & 1u; }

/* any bit below position i (exclusive) */
static bool acc_any_below(const uint64_t *a, int i) {
    if (i <= 0) return false;
    for (int k = 0; k < i / 64; k++)
        if (a[k]) return true;
    return (i % 64) && (a[i / 64] & ((1ull << (i % 64)) - 1));
}

/* Round the magnitude a (bit 0 = 2^-ACC_LSB) with sign neg to F, nearest even, denormals kept. */
static uint32_t acc_to_f(const uint64_t *a, bool neg) {
    uint32_t s = neg ? 0x80000000u : 0;
    int h = -1;
    for (int k = NL - 1; k >= 0 && h < 0; k--)
        if (a[k]) h = k * 64 + 63 - __builtin_clzll(a[k]);
    if (h < 0) return s;
    const int sub_lsb = ACC_LSB - 149; /* bit of 2^-149 */
    int lsb = h - 23 > sub_lsb ? h - 23 : sub_lsb;
    uint64_t q = 0;
    for (int i = h; i >= lsb; i--) q = q << 1 | acc_bit(a, i);
    unsigned rbit = acc_bit(a, lsb - 1);
    bool sticky = acc_any_below(a, lsb - 1);
    if (rbit && (sticky || (q & 1))) q++;
    if (q >> 24) {
        q >>= 1;
        lsb++;
    }
    if (q < (1u << 23)) return s | (uint32_t)q; /* subnormal (lsb is 2^-149) */
    int be = lsb - ACC_LSB + 23 + 127;
    if (be >= 255) return s | 0x7F800000u;
    return s | (uint32_t)be << 23 | ((uint32_t)q & 0x7FFFFFu);
}

/* One fused stage: round_f32(acc + sum a[j] * b[j]). */
static uint32_t fstage(uint32_t acc, const prec_info *pa, const uint32_t *av, const prec_info *pb, const uint32_t *bv,
                       unsigned nops) {
    static const prec_info pf = {32, 1, 0, 8, 23, 0, 0};
    fterm ta, tb, tc;
    int cc = fdecode(&pf, acc, &tc);
    bool nan = cc == 2, pinf = cc == 1 && !tc.neg, ninf = cc == 1 && tc.neg;
    bool allnegzero = cc == 0 && tc.m == 0 && tc.neg;
    fterm terms[9];
    unsigned nt = 0;
    if (cc == 0) terms[nt++] = tc;
    for (unsigned j = 0; j < nops; j++) {
        int ca = fdecode(pa, av[j], &ta), cb = fdecode(pb, bv[j], &tb);
        bool neg = ta.neg != tb.neg;
        if (ca == 2 || cb == 2) nan = true;
        else if (ca == 1 || cb == 1) {
            if ((ca == 0 && ta.m == 0) || (cb == 0 && tb.m == 0)) nan = true; /* inf * 0 */
            else if (neg) ninf = true;
            else pinf = true;
        } else {
            fterm t = {ta.m * tb.m, ta.e + tb.e, neg};
            if (t.m || !neg) allnegzero = false;
            terms[nt++] = t;
        }
    }
    if (nan || (pinf && ninf)) return 0x7FC00000u;
    if (pinf) return 0x7F800000u;
    if (ninf) return 0xFF800000u;
    uint64_t pos[NL], negs[NL], r[NL];
    memset(pos, 0, sizeof pos);
    memset(negs, 0, sizeof negs);
    for (unsigned k = 0; k < nt; k++) acc_add(terms[k].neg ? negs : pos, terms[k].m, terms[k].e);
    int c = acc_cmp(pos, negs);
    if (c == 0) return allnegzero ? 0x80000000u : 0;
    if (c > 0) acc_sub(r, pos, negs);
    else acc_sub(r, negs, pos);
    return acc_to_f(r, c < 0);
}

/* The operand bounds every path checks before reading (the layout may have been lowered for a
** thread whose file is the same size, so this cannot fail after lowering; kept as a guard). */
static bool dpas_bounds(emu_thread *t, const emu_op *op) {
    uint32_t info = op->info;
    unsigned wp = F_W(info), ap = F_A(info), sd = F_SD(info), rc = F_RC(info), n = op->exec;
    prec_info bw, ba;
    const prec_info *pw = prec_of(wp, op->prec_bits[0], &bw), *pa = prec_of(ap, op->prec_bits[1], &ba);
    unsigned ops = ops_per_chan(wp, pw, pa);
    unsigned dsz = isa_types[IMM_DST(op->imm)].bytes, ssz = isa_types[IMM_SRC0(op->imm)].bytes;
    const emu_opnd *o = op->src;
    uint64_t fb = t->prog->lay.file_bytes;
    uint32_t vbytes = src2_vbytes(rc, sd, ops, pa->bits);
    if (o[O_DST].off + (uint64_t)rc * n * dsz > fb ||
        (o[O_SRC0].shape != EO_NONE && o[O_SRC0].off + (uint64_t)rc * n * ssz > fb) ||
        o[O_SRC1].off + (uint64_t)src1_bytes(n, sd, ops, pw->bits) > fb ||
        o[O_SRC2].off + (uint64_t)src2_pbytes(IMM_W(op->imm), vbytes) > fb) {
        emu_fault(t, EDIAG_RUN_DPAS_FILE, 0);
        return false;
    }
    return true;
}

/* src0 element (r, ln) as the F / D accumulator's bits (0 for %null). */
static uint32_t src0_acc(const uint8_t *file, const emu_op *op, unsigned r, unsigned ln) {
    const emu_opnd *o = &op->src[O_SRC0];
    if (o->shape == EO_NONE) return 0;
    isa_type st = (isa_type)IMM_SRC0(op->imm);
    unsigned ssz = isa_types[st].bytes;
    const uint8_t *p = file + o->off + ((size_t)r * op->exec + ln) * ssz;
    uint32_t acc;
    if (ssz == 4) memcpy(&acc, p, 4);
    else {
        uint16_t h;
        memcpy(&h, p, 2);
        acc = st == VISA_TYPE_HF ? emu_hf_to_f(h, EMU_RNE) : emu_bf_to_f(h, EMU_RNE);
    }
    return acc;
}

/* The generic path: result (r, ln) element by element, each stage decoded from the registers.
** eu0 / eu1: the register files whose src2 GRFs give the first NGrf_EU0 and the remaining 32-byte
** GRFs of a DPASW's virtual src2 (both the thread's file for DPAS). */
static uint32_t dpas_cell(const uint8_t *file, const emu_op *op, const uint8_t *eu0, const uint8_t *eu1, unsigned r,
                          unsigned ln) {
    uint32_t info = op->info;
    unsigned wp = F_W(info), ap = F_A(info), sd = F_SD(info), rc = F_RC(info), n = op->exec;
    prec_info bw, ba;
    const prec_info *pw = prec_of(wp, op->prec_bits[0], &bw), *pa = prec_of(ap, op->prec_bits[1], &ba);
    unsigned ops = ops_per_chan(wp, pw, pa), s = 32 / (ops * pw->bits);
    const emu_opnd *o = op->src;
    /* an element never straddles the EU0/EU1 boundary: it is a multiple of 256 bits */
    uint32_t eu0_bits = IMM_W(op->imm) ? dpasw_eu0_grfs(src2_vbytes(rc, sd, ops, pa->bits)) * 32 * 8 : UINT32_MAX;
    uint32_t acc = src0_acc(file, op, r, ln);
    for (unsigned d = 0; d < sd; d++) {
        uint32_t boff = o[O_SRC1].off + (uint32_t)((d / s) * n + ln) * 4;
        uint32_t bpos = (d % s) * ops * pw->bits;
        uint32_t kbase = (r * sd + d) * ops;
        uint32_t av[8], bv[8];
        for (unsigned j = 0; j < ops; j++) {
            uint32_t vpos = (kbase + j) * pa->bits;
            bv[j] = get_bits(file, boff, bpos + j * pw->bits, pw->bits);
            av[j] = vpos < eu0_bits ? get_bits(eu0, o[O_SRC2].off, vpos, pa->bits)
                                    : get_bits(eu1, o[O_SRC2].off, vpos - eu0_bits, pa->bits);
        }
        if (pw->fl) acc = fstage(acc, pa, av, pw, bv, ops);
        else {
            int64_t dot = 0;
            for (unsigned j = 0; j < ops; j++) {
                int64_t a = av[j], b = bv[j];
                if (pa->sgn && (av[j] >> (pa->bits - 1) & 1)) a -= (int64_t)1 << pa->bits;
                if (pw->sgn && (bv[j] >> (pw->bits - 1) & 1)) b -= (int64_t)1 << pw->bits;
                dot += a * b;
            }
            acc += (uint32_t)dot; /* 32-bit wrap */
        }
    }
    return acc;
}

static bool dpas_compute_generic(emu_thread *t, const emu_op *op, const uint8_t *eu0, const uint8_t *eu1,
                                 uint32_t res[8][EMU_MAX_LANES]) {
    if (!dpas_bounds(t, op)) return false;
    unsigned rc = F_RC(op->info), n = op->exec;
    for (unsigned r = 0; r < rc; r++)
        for (unsigned ln = 0; ln < n; ln++) res[r][ln] = dpas_cell(t->file, op, eu0, eu1, r, ln);
    return true;
}

/* -- Fast paths -----------------------------------------------------------------------------------
** Chosen at lowering by class (integer / float), OPS and lane count (op->aux, a dpas_fast row),
** unless the program was lowered with the generic path forced (VISA_EMU_GENERIC).  They decode
** src1 (B, K x N) and src2 (A, RC x K) once per instruction into host numbers, then accumulate
** column blocks of lanes with vector arithmetic.  Both give the generic path's bits:
**
** Integer: every element is exact in int32 and the generic accumulator is a sum modulo 2^32 of
** the products (each stage's exact dot truncated to 32 bits, added with wrap), so the order does
** not matter: acc = src0 + sum over k of A[r][k] * B[k][n] in uint32 arithmetic is the same.
**
** Float: every element is a double exactly (at most 11 significant bits, exponents within
** 2^-136 .. 2^15 for tf32/bf, less for the others); a product has at most 22 significant bits and
** lies within 2^-272 .. 2^256, so it is exact in double.  A stage adds acc and its OPS products
** one after another in double, and flags the lane when an addition t = s + p is not exact:
** (t - s) == p and (t - p) == s both hold iff t = s + p exactly (Fast2Sum: for the operand of
** larger magnitude, x, t - x is computed exactly, so it equals the other operand iff no rounding
** happened; an inf or NaN anywhere fails a comparison).  The kernels test (t - s) - p and
** (t - p) - s for +0 bits instead: x - y is +0 exactly when x == y (gradual underflow: a difference
** of unequal finite doubles is never 0), NaN when an inf or NaN is involved, and -0 only for
** -0 - +0, a false alarm the generic path settles.  When every addition of a stage is exact,
** the double is the exact stage sum and one conversion to float rounds it to nearest even,
** denormals kept, overflow to inf, as fstage does; the sign of an exactly zero sum follows IEEE
** addition in round to nearest: -0 only when every term is -0, fstage's rule.  A flagged lane
** (a rounded addition, inf, NaN) is recomputed by the generic path. */
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));

enum { FK_MAX = 32, IK_MAX = 64, LN_MAX = 16 }; /* float / integer K, lanes of the fast paths */

/* A[r][k] at A[r * K + k]; B[k][ln] at B[k * N + ln] (N: the kernel's lanes); acc, bad: [r * LN_MAX + ln] */
typedef void (*dpas_fk)(const float *A, const double *B, unsigned rc, unsigned sd, double *acc, int64_t *bad);
typedef void (*dpas_ik)(const uint32_t *A, const uint32_t *B, unsigned rc, unsigned k, uint32_t *acc);

typedef void (*dpas_flt)(const prec_info *p, const uint32_t *raw, uint32_t count, float *out);

struct dpas_fast {
    dpas_fk fk; /* float, or NULL */
    dpas_ik ik; /* integer, or NULL */
    dpas_flt flt; /* flt_values_body for this ISA level */
};
static inline __attribute__((always_inline)) void flt_values_body(const prec_info *p, const uint32_t *raw,
                                                                  uint32_t count, float *out);

/* One stage chain: rows r0 .. r0 + RB - 1, all column blocks of 8 lanes, interleaved so that the
** RB x n/8 independent dependency chains (each stage's additions are sequential) overlap. */
static inline __attribute__((always_inline)) void fk_rows(const float *A, const double *B, unsigned r0, unsigned sd,
                                                          double *acc, int64_t *bad, unsigned ops, unsigned n,
                                                          unsigned RB) {
    enum { NBMAX = LN_MAX / 8, RBMAX = 2 };
    unsigned kk = sd * ops, nb = n / 8;
    v8d a[RBMAX][NBMAX];
    v8l flag[RBMAX][NBMAX];
    for (unsigned rr = 0; rr < RB; rr++)
        for (unsigned cb = 0; cb < nb; cb++) {
            memcpy(&a[rr][cb], acc + (r0 + rr) * LN_MAX + cb * 8, sizeof a[rr][cb]);
            flag[rr][cb] = (v8l){0, 0, 0, 0, 0, 0, 0, 0};
        }
    for (unsigned d = 0; d < sd; d++) {
        v8d s[RBMAX][NBMAX];
        for (unsigned rr = 0; rr < RB; rr++)
            for (unsigned cb = 0; cb < nb; cb++) s[rr][cb] = a[rr][cb];
        for (unsigned j = 0; j < ops; j++) {
            unsigned k = d * ops + j;
            v8d b[NBMAX];
            for (unsigned cb = 0; cb < nb; cb++) memcpy(&b[cb], B + k * n + cb * 8, sizeof b[cb]);
            for (unsigned rr = 0; rr < RB; rr++) {
                double x = A[(r0 + rr) * kk + k];
                for (unsigned cb = 0; cb < nb; cb++) {
                    v8d p = b[cb] * x, t = s[rr][cb] + p; /* x: broadcast */
                    /* exact iff both differences are +0; as bits, OR-ed, so no vector compare
                    ** (GCC lowers a v8d != to scalar code) */
                    flag[rr][cb] |= (v8l)((t - s[rr][cb]) - p) | (v8l)((t - p) - s[rr][cb]);
                    s[rr][cb] = t;
                }
            }
        }
        for (unsigned rr = 0; rr < RB; rr++)
            for (unsigned cb = 0; cb < nb; cb++)
                a[rr][cb] = __builtin_convertvector(__builtin_convertvector(s[rr][cb], v8f), v8d);
    }
    for (unsigned rr = 0; rr < RB; rr++)
        for (unsigned cb = 0; cb < nb; cb++) {
            memcpy(acc + (r0 + rr) * LN_MAX + cb * 8, &a[rr][cb], sizeof a[rr][cb]);
            memcpy(bad + (r0 + rr) * LN_MAX + cb * 8, &flag[rr][cb], sizeof flag[rr][cb]);
        }
}

/* RB rows at a time: 2 where 32 vector registers hold the chains (AVX-512), else 1 */
static inline __attribute__((always_inline)) void fk_body(const float *A, const double *B, unsigned rc, unsigned sd,
                                                          double *acc, int64_t *bad, unsigned ops, unsigned n,
                                                          unsigned RB) {
    unsigned r = 0;
    for (; RB == 2 && r + 2 <= rc; r += 2) fk_rows(A, B, r, sd, acc, bad, ops, n, 2);
    for (; r < rc; r++) fk_rows(A, B, r, sd, acc, bad, ops, n, 1);
}

static inline __attribute__((always_inline)) void ik_body(const uint32_t *A, const uint32_t *B, unsigned rc,
                                                          unsigned kk, uint32_t *acc, unsigned n) {
    for (unsigned r = 0; r < rc; r++) {
        for (unsigned c = 0; c < n; c += 8) {
            v8u a;
            memcpy(&a, acc + r * LN_MAX + c, sizeof a);
            for (unsigned k = 0; k < kk; k++) {
                uint32_t x = A[r * kk + k];
                v8u b;
                memcpy(&b, B + k * n + c, sizeof b);
                a += (v8u){x, x, x, x, x, x, x, x} * b;
            }
            memcpy(acc + r * LN_MAX + c, &a, sizeof a);
        }
    }
}

/* One kernel per class, OPS and lane count; again for AVX2 and AVX-512 hosts (picked at lowering). */
#define FK(name, attr, ops, n, rb)                                                                                \
    attr static void name(const float *A, const double *B, unsigned rc, unsigned sd, double *acc, int64_t *bad) { \
        fk_body(A, B, rc, sd, acc, bad, ops, n, rb);                                                              \
    }
#define IK(name, attr, n)                                                                                 \
    attr static void name(const uint32_t *A, const uint32_t *B, unsigned rc, unsigned k, uint32_t *acc) { \
        ik_body(A, B, rc, k, acc, n);                                                                     \
    }
#define KERNELS(sfx, attr, rb)                                                                       \
    attr static void flt##sfx(const prec_info *p, const uint32_t *raw, uint32_t count, float *out) { \
        flt_values_body(p, raw, count, out);                                                         \
    }                                                                                                \
    FK(fk1_8##sfx, attr, 1, 8, rb)                                                                   \
    FK(fk2_8##sfx, attr, 2, 8, rb) FK(fk4_8##sfx, attr, 4, 8, rb) FK(fk1_16##sfx, attr, 1, 16, rb)   \
        FK(fk2_16##sfx, attr, 2, 16, rb) FK(fk4_16##sfx, attr, 4, 16, rb) IK(ik_8##sfx, attr, 8)     \
            IK(ik_16##sfx, attr, 16) static const dpas_fast fast_rows##sfx[2][4] = {                 \
                {{fk1_8##sfx, NULL, flt##sfx},                                                       \
                 {fk2_8##sfx, NULL, flt##sfx},                                                       \
                 {fk4_8##sfx, NULL, flt##sfx},                                                       \
                 {NULL, ik_8##sfx, flt##sfx}},                                                       \
                {{fk1_16##sfx, NULL, flt##sfx},                                                      \
                 {fk2_16##sfx, NULL, flt##sfx},                                                      \
                 {fk4_16##sfx, NULL, flt##sfx},                                                      \
                 {NULL, ik_16##sfx, flt##sfx}},                                                      \
    };
KERNELS(, , 1)
#if defined(__x86_64__) && defined(__GNUC__)
#define DPAS_AVX2 1
KERNELS(_avx2, __attribute__((target("avx2"))), 1)
KERNELS(_avx512, __attribute__((target("avx512f"))), 2)
#else
#define DPAS_AVX2 0
#endif

/* The fast kernels for a lowered dpas at the program's ISA level (emu_isa_select: the host's best or
** VISA_EMU_ISA's), NULL for the generic path. */
static const dpas_fast *fast_pick(unsigned isa, unsigned wp, unsigned ap, unsigned n) {
    prec_info bw, ba;
    const prec_info *pw = prec_lookup(wp, &bw), *pa = prec_lookup(ap, &ba);
    unsigned ops = ops_per_chan(wp, pw, pa), col = pw->fl ? (ops == 1 ? 0 : ops == 2 ? 1 : 2) : 3;
    if ((n != 8 && n != 16) || (pw->fl && ops > 4) || sizeof(double) != 8) return NULL;
    (void)pa;
#if DPAS_AVX2
    if (isa == EMU_ISA_AVX512) return &fast_rows_avx512[n == 16][col];
    if (isa == EMU_ISA_AVX2) return &fast_rows_avx2[n == 16][col];
#else
    (void)isa;
#endif
    return &fast_rows[n == 16][col];
}

/* `count` elements of a packed `bits`-bit array (1, 2, 4, 8, 16 or 32) at src, from element 0. */
static void unpack(const uint8_t *src, uint32_t count, unsigned bits, uint32_t *out) {
    if (bits == 32) memcpy(out, src, (size_t)count * 4);
    else if (bits == 16)
        for (uint32_t i = 0; i < count; i++) out[i] = (uint32_t)src[2 * i] | (uint32_t)src[2 * i + 1] << 8;
    else if (bits == 8)
        for (uint32_t i = 0; i < count; i++) out[i] = src[i];
    else {
        unsigned per = 8 / bits, mask = (1u << bits) - 1;
        for (uint32_t i = 0; i < count; i++) out[i] = (uint32_t)(src[i / per] >> (i % per * bits)) & mask;
    }
}

/* Integers of precision p, sign- or zero-extended, in place. */
static void int_values(const prec_info *p, uint32_t *v, uint32_t count) {
    if (!p->sgn) return;
    uint32_t top = 1u << (p->bits - 1);
    for (uint32_t i = 0; i < count; i++) v[i] = (v[i] ^ top) - top;
}

/* Floats of precision p as their exact float values.  The magnitude's exponent and fraction
** fields, placed at the top of a binary32's, read as binary32 are the value times 2^(bias - 127)
** (normal and subnormal alike), so one exact multiplication by 2^(127 - bias) gives the value;
** all-ones exponents (hf8: only with an all-ones fraction) are inf or NaN. */
static inline __attribute__((always_inline)) void flt_values_body(const prec_info *p, const uint32_t *raw,
                                                                  uint32_t count, float *out) {
    unsigned nb = p->ebits + p->mbits, sh = 23 - p->mbits, ms = p->mshift, mb = p->mbits;
    uint32_t signbit = 1u << nb, mmask = (1u << mb) - 1, e_all = (1u << p->ebits) - 1, noinf = p->noinf;
    uint32_t bias = e_all >> 1, sbits = (254u - bias) << 23, ibits, nbits;
    float scale, inf = __builtin_inff(), nan = __builtin_nanf("");
    memcpy(&scale, &sbits, 4);
    memcpy(&ibits, &inf, 4);
    memcpy(&nbits, &nan, 4);
    uint32_t i = 0;
    if (p->ebits == 8 && p->mbits == 7 && ms == 0) { /* bf: the top half of a binary32, inf and NaN included */
        for (; i < count; i++) {
            uint32_t b = raw[i] << 16;
            memcpy(&out[i], &b, 4);
        }
        return;
    }
    /* eight at a time, without branches: special (inf / NaN) lanes are selected by masks */
    for (; i + 8 <= count; i += 8) {
        v8u v, one = {1, 1, 1, 1, 1, 1, 1, 1};
        memcpy(&v, raw + i, sizeof v);
        v >>= ms;
        v8u mag = v & (signbit - 1);
        v8f x = (v8f)(mag << sh) * scale;
        v8u xb = (v8u)x;
        v8u special = noinf ? (v8u)(mag == signbit - 1) : (v8u)((mag >> mb) == e_all);
        v8u isnan = special & (noinf ? ~(v8u){0} : (v8u)((mag & mmask) != 0));
        xb = (xb & ~special) | (isnan & nbits) | (special & ~isnan & ibits);
        xb |= ((v >> nb) & one) << 31;
        memcpy(out + i, &xb, sizeof xb);
    }
    for (; i < count; i++) {
        uint32_t v = raw[i] >> ms, mag = v & (signbit - 1), fb = mag << sh;
        float x;
        memcpy(&x, &fb, 4);
        x *= scale;
        if (noinf ? mag == signbit - 1 : mag >> mb == e_all) x = noinf || (mag & mmask) ? nan : inf;
        out[i] = v & signbit ? -x : x;
    }
}

static bool dpas_compute_fast(emu_thread *t, const emu_op *op, const uint8_t *eu0, const uint8_t *eu1,
                              uint32_t res[8][EMU_MAX_LANES]) {
    if (!dpas_bounds(t, op)) return false;
    const dpas_fast *fast = op->aux;
    uint32_t info = op->info;
    unsigned wp = F_W(info), ap = F_A(info), sd = F_SD(info), rc = F_RC(info), n = op->exec;
    prec_info bw, ba;
    const prec_info *pw = prec_of(wp, op->prec_bits[0], &bw), *pa = prec_of(ap, op->prec_bits[1], &ba);
    unsigned ops = ops_per_chan(wp, pw, pa), kk = sd * ops, epd = 32 / pw->bits;
    const uint8_t *file = t->file;
    const emu_opnd *o = op->src;
    /* B[k][ln]: element k % epd of dword (k / epd) * n + ln of src1 */
    uint32_t braw[IK_MAX * LN_MAX], araw[8 * IK_MAX], word[IK_MAX];
    const uint8_t *b1 = file + o[O_SRC1].off;
    if (pw->bits == 16 && kk % 2 == 0) { /* hf, bf: two per dword, no call per dword */
        for (unsigned q = 0; q < kk / 2; q++)
            for (unsigned ln = 0; ln < n; ln++) {
                uint32_t d;
                memcpy(&d, b1 + (q * n + ln) * 4, 4);
                braw[(2 * q) * n + ln] = d & 0xFFFFu;
                braw[(2 * q + 1) * n + ln] = d >> 16;
            }
    } else
        for (unsigned q = 0; q * epd < kk; q++)
            for (unsigned ln = 0; ln < n; ln++) {
                unsigned cnt = kk - q * epd < epd ? kk - q * epd : epd;
                unpack(b1 + (q * n + ln) * 4, cnt, pw->bits, word);
                for (unsigned e = 0; e < cnt; e++) braw[(q * epd + e) * n + ln] = word[e];
            }
    /* A[r][k]: element r * K + k of the virtual src2; DPASW: past EU0's GRFs from EU1's (an EU's
    ** share is whole GRFs, so it holds whole bytes of elements) */
    uint32_t na = rc * kk, eu0_elems = na;
    if (IMM_W(op->imm)) {
        uint32_t e0 = dpasw_eu0_grfs(src2_vbytes(rc, sd, ops, pa->bits)) * 32 * 8 / pa->bits;
        if (e0 < na) eu0_elems = e0;
    }
    unpack(eu0 + o[O_SRC2].off, eu0_elems, pa->bits, araw);
    if (eu0_elems < na) unpack(eu1 + o[O_SRC2].off, na - eu0_elems, pa->bits, araw + eu0_elems);
    if (fast->ik) {
        uint32_t acc[8 * LN_MAX];
        int_values(pw, braw, kk * n);
        int_values(pa, araw, na);
        for (unsigned r = 0; r < rc; r++)
            for (unsigned ln = 0; ln < n; ln++) acc[r * LN_MAX + ln] = src0_acc(file, op, r, ln);
        fast->ik(araw, braw, rc, kk, acc);
        for (unsigned r = 0; r < rc; r++) memcpy(res[r], acc + r * LN_MAX, n * 4);
        return true;
    }
    float A[8 * FK_MAX], B[FK_MAX * LN_MAX];
    double acc[8 * LN_MAX], Bd[FK_MAX * LN_MAX]; /* B in double once, not once per row */
    int64_t bad[8 * LN_MAX];
    fast->flt(pw, braw, kk * n, B);
    for (unsigned i = 0; i < kk * n; i++) Bd[i] = B[i];
    fast->flt(pa, araw, na, A);
    if (o[O_SRC0].shape != EO_NONE && isa_types[IMM_SRC0(op->imm)].bytes == 4) /* an f accumulator: rows as they lie */
        for (unsigned r = 0; r < rc; r++) {
            float f[LN_MAX];
            memcpy(f, file + o[O_SRC0].off + (size_t)r * n * 4, n * 4);
            for (unsigned ln = 0; ln < n; ln++) acc[r * LN_MAX + ln] = f[ln];
        }
    else
        for (unsigned r = 0; r < rc; r++)
            for (unsigned ln = 0; ln < n; ln++) {
                uint32_t a = src0_acc(file, op, r, ln);
                float f;
                memcpy(&f, &a, 4);
                acc[r * LN_MAX + ln] = f;
            }
    fast->fk(A, Bd, rc, sd, acc, bad);
    for (unsigned r = 0; r < rc; r++)
        for (unsigned ln = 0; ln < n; ln++) {
            if (bad[r * LN_MAX + ln]) {
                res[r][ln] = dpas_cell(file, op, eu0, eu1, r, ln);
                continue;
            }
            float f = (float)acc[r * LN_MAX + ln];
            memcpy(&res[r][ln], &f, 4);
        }
    return true;
}

/* One thread's results (the path chosen at lowering).  False after a fault. */
static bool dpas_compute(emu_thread *t, const emu_op *op, const uint8_t *eu0, const uint8_t *eu1,
                         uint32_t res[8][EMU_MAX_LANES]) {
    return op->aux ? dpas_compute_fast(t, op, eu0, eu1, res) : dpas_compute_generic(t, op, eu0, eu1, res);
}

/* initcheck: the origin of the first undefined byte of the thread's sources (their footprints
** as dpas_bounds has them; a DPASW's src2 only its own share), 0 when all are defined.  The
** destination is judged as a whole: defined when every source byte is. */
static uint32_t dpas_src_origin(emu_thread *t, const emu_op *op) {
    uint32_t info = op->info;
    unsigned wp = F_W(info), ap = F_A(info), sd = F_SD(info), rc = F_RC(info), n = op->exec;
    prec_info bw, ba;
    const prec_info *pw = prec_of(wp, op->prec_bits[0], &bw), *pa = prec_of(ap, op->prec_bits[1], &ba);
    unsigned ops = ops_per_chan(wp, pw, pa), ssz = isa_types[IMM_SRC0(op->imm)].bytes;
    const emu_opnd *o = op->src;
    uint32_t org = 0;
    if (o[O_SRC0].shape != EO_NONE) org = emu_check_origin(t, t->file + o[O_SRC0].off, rc * n * ssz);
    if (!org) org = emu_check_origin(t, t->file + o[O_SRC1].off, src1_bytes(n, sd, ops, pw->bits));
    if (!org)
        org = emu_check_origin(t, t->file + o[O_SRC2].off,
                               src2_pbytes(IMM_W(op->imm), src2_vbytes(rc, sd, ops, pa->bits)));
    return org;
}

/* Write one thread's results to its enabled lanes. */
static void dpas_store(emu_thread *t, const emu_op *op, uint32_t res[8][EMU_MAX_LANES]) {
    unsigned rc = F_RC(op->info), n = op->exec;
    isa_type dt = (isa_type)IMM_DST(op->imm);
    unsigned dsz = isa_types[dt].bytes;
    uint32_t mask = emu_chen(t, op);
    uint8_t *dst = t->file + op->src[O_DST].off;
    bool chk = emu_checked(t);
    uint32_t org = chk ? dpas_src_origin(t, op) : 0; /* before the destination (maybe src0) is written */
    for (unsigned r = 0; r < rc; r++)
        for (unsigned ln = 0; ln < n; ln++) {
            if (!(mask >> ln & 1)) continue;
            uint8_t *p = dst + ((size_t)r * n + ln) * dsz;
            if (chk) emu_check_define(t, p, dsz, org);
            if (dsz == 4) memcpy(p, &res[r][ln], 4);
            else {
                uint16_t h = dt == VISA_TYPE_HF ? emu_f_to_hf(res[r][ln], EMU_RNE) : emu_f_to_bf(res[r][ln], EMU_RNE);
                memcpy(p, &h, 2);
            }
        }
}

/* DPASW in a group of several threads: threads 2k (EU0) and 2k + 1 (EU1) are a fused pair and
** execute the dpasw together, as the fused EUs do: the first to arrive waits (the group's
** scheduler runs the others); the second reads both threads' sources, then writes both
** destinations, so neither sees the other's result in place of a source.  A partner that never
** arrives at the same dpasw is reported as a deadlock by the scheduler. */
static void h_dpasw_pair(emu_thread *t, const emu_op *op) {
    emu_group_sync *gs = t->sync;
    uint32_t at = t->pc + 1, pi = t->index ^ 1u;
    if (t->pair_done == at) { /* the partner executed this dpasw for both */
        t->pair_done = 0;
        t->pc++;
        return;
    }
    if (pi >= gs->nthreads) {
        emu_fault(t, EDIAG_RUN_DPASW_PARTNER, 0, t->index, gs->nthreads);
        return;
    }
    emu_thread *pt = &gs->threads[pi];
    if (pt->pair_wait != at) {
        t->pair_wait = at;
        t->blocked = true;
        t->done = true; /* leaves the run loop; the scheduler comes back to this op */
        return;
    }
    const uint8_t *eu0 = (t->index & 1) ? pt->file : t->file, *eu1 = (t->index & 1) ? t->file : pt->file;
    uint32_t mine[8][EMU_MAX_LANES], theirs[8][EMU_MAX_LANES];
    if (!dpas_compute(t, op, eu0, eu1, mine)) return;
    /* the same op in the same layout: the partner's operands pass the bounds check too */
    (void)dpas_compute(pt, op, eu0, eu1, theirs);
    dpas_store(t, op, mine);
    dpas_store(pt, op, theirs);
    pt->pair_wait = 0;
    pt->pair_done = at;
    t->pc++;
}

void emu_dpas_run(emu_thread *t, const emu_op *op) {
    if (IMM_W(op->imm) && t->sync && t->sync->nthreads > 1) {
        h_dpasw_pair(t, op);
        return;
    }
    /* DPAS, or DPASW in a one-thread group: the thread is its own fused partner */
    uint32_t res[8][EMU_MAX_LANES];
    if (!dpas_compute(t, op, t->file, t->file, res)) return;
    dpas_store(t, op, res);
    t->pc++;
}
