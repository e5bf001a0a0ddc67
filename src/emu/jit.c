/* jit.c -- the compiled tier (jit.h).
**
** What is compiled: a block is a maximal run of consecutive ops that the fast handlers take
** (emu_fast_handler / emu_fast_cmp accept them) on integer, f or df elements with contiguous,
** broadcast or immediate sources, or that compiled code may hand to their interpreter handler
** (callable: the other lane-wise ALU ops, and LSC loads and stores that only move data), optionally
** opened by a label; when the op after the run is a jmp back to the run's first op, or a scalar
** goto back to it (exec size 1: a uniform branch, which h_goto takes exactly as a jmp: every
** active lane or none), the block is the whole loop.  A handler called from compiled code runs on
** the thread's state as in the run loop; when it faults, the function returns at once with pc at
** that op, and the run loop reports the fault there.  By default such loops and runs of 16 ops or
** more are compiled, once the kernel is hot (jit.h: tiering); VISA_EMU_TIER=jit-all compiles
** every run when the kernel is prepared (the tests).  A run never continues past a
** label or an op where goto lanes join, so control enters a block only at its first op.  Each
** block becomes two LLVM functions over the thread's file and predicates: one that assumes every
** op's execution-mask lanes are on (the common case: no select against the old destination) and
** one that takes the enables from the mask.  Both compute what fast.c's handlers compute, op by op
** and in order (the same widening, modifiers, wrap-around, IEEE operations, fma where fast.c uses
** fmaf / fma), so the bits equal the interpreter's.
**
** How a block runs: the compiled run loop (exec.c) hands the block's first op to emu_jit_exec,
** which calls the compiled function and returns the step count with every op it executed.  A
** loop block runs as many trips as end at or before the run loop's next limit check; the trip
** that passes it runs
** interpreted and leaves its jmp to the run loop, so limits are checked at the same step and named
** at the same jmp as in the interpreter.  Under a non-default %cr0 a block with float ops runs
** interpreted (the fast handlers fall back to the %cr0-aware path there too).  Observed and checked
** runs use the interpreter's op array and never see a block.
*/
#include "jit.h"

#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "families.h"
#include "fast.h"
#include "fast_ops.h"
#include "mem.h"

unsigned emu_tier_select(void) {
    const char *s = getenv("VISA_EMU_TIER");
    if (s && !strcmp(s, "interp")) return EMU_TIER_INTERP;
    if (s && !strcmp(s, "jit-all")) return EMU_TIER_JIT_ALL;
    return EMU_TIER_JIT;
}

void emu_jit_knobs(uint64_t *hot, bool *wait) {
    const char *h = getenv("VISA_EMU_JIT_HOT"), *w = getenv("VISA_EMU_JIT_WAIT");
    char *end = NULL;
    unsigned long long n = h && *h ? strtoull(h, &end, 10) : 0;
    *hot = end && !*end ? (uint64_t)n : EMU_JIT_HOT_DEFAULT; /* not a number: the default */
    *wait = w && *w && strcmp(w, "0") != 0;
}

#if !VISA_HAVE_JIT
bool emu_jit_available(void) { return false; }
visa_status emu_jit_build(emu_program *p, uint64_t hot, bool wait, diag_sink *ds) {
    (void)p, (void)hot, (void)wait, (void)ds;
    return VISA_OK;
}
void emu_jit_free(emu_program *p) { (void)p; }
const emu_op *emu_jit_ops(const emu_program *p) {
    (void)p;
    return NULL;
}
bool emu_jit_heat(emu_thread *t) {
    (void)t;
    return false;
}
void emu_jit_note_compiled(emu_thread *t) { (void)t; }
bool emu_jit_compiled(const emu_program *p) {
    (void)p;
    return false;
}
uint64_t emu_jit_compiled_steps(const emu_program *p) {
    (void)p;
    return 0;
}
const char *emu_jit_error(const emu_program *p) {
    (void)p;
    return "";
}
void emu_jit_block_op(emu_thread *t, const emu_op *op) { (void)t, (void)op; }
uint64_t emu_jit_exec(emu_thread *t, const emu_op *op, uint64_t steps, uint64_t check) {
    (void)t, (void)op, (void)check;
    return steps;
}
#else

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "llvm_dl.h"
#include "llvm_dl_calls.h" /* generated: each LLVM function below is llvm_dl.c's loaded pointer */

bool emu_jit_available(void) { return true; }

/* A compiled function: runs the block's body once, or (a loop) up to max_trips times while its
** jmp is taken; returns the trips run, bit 63 set when the last jmp was taken. */
typedef uint64_t (*jit_fn)(uint8_t *file, uint32_t *pred, uint32_t em, uint64_t max_trips, emu_thread *t);
#define JIT_TAKEN (1ull << 63)
#define JIT_STOPPED (1ull << 62) /* a called handler faulted: t->pc is its op */
/* a SIMD goto back-edge that some active lanes do not take: the last trip's body ran, the run
** loop takes the goto */
#define JIT_AT_EDGE (1ull << 61)
#define JIT_TRIPS (JIT_AT_EDGE - 1)

typedef struct emu_jit_block {
    jit_fn full; /* every op's execution-mask lanes on: (em & need) == need */
    jit_fn masked; /* enables from the execution mask */
    uint32_t need; /* the em bits `full` assumes */
    uint32_t first; /* body: ops [first, body_end) */
    uint32_t body_end; /* a loop: the jmp back to first */
    bool loop;
    bool fenv; /* a float op: %cr0 modes other than EMU_CR0_FAST run interpreted */
    bool calls; /* an op runs by its interpreter handler (callable) */
} emu_jit_block;

/* Where a program's compilation is (emu_jit.state). */
enum { JIT_PLANNED, JIT_COMPILING, JIT_READY, JIT_FAILED };

struct emu_jit {
    emu_jit_block *blocks;
    uint32_t nblocks, cap;
    emu_op *ops; /* the compiled op array, made when planning; ready once the code is in */
    _Atomic(const emu_op *) ready; /* ops, published (release) when every block has its code */
    _Atomic unsigned state; /* JIT_*: PLANNED -> COMPILING once, by the thread that finds it hot */
    _Atomic uint64_t heat; /* instructions run interpreted, all threads and launches */
    uint64_t hot; /* heat at which the compilation starts */
    bool wait; /* compile in the thread that finds the kernel hot */
    bool threaded; /* a thread of its own compiles: joined when the program is freed */
    pthread_t thread;
    _Atomic bool abandon; /* the program is being freed: the compilation stops at its next step */
    _Atomic uint64_t compiled_steps; /* steps run in compiled blocks (emu_jit_note_compiled) */
    LLVMOrcLLJITRef code; /* the compiled code, owned by the prepared program (lowered once per kernel) */
    char error[160]; /* why the compiled tier is not used: written before state turns FAILED */
};

/* -- Running a block ---------------------------------------------------------------------------- */

/* Ops [from, to) with their interpreter handlers; pc ends at `to`, or at the op that faulted.
** Returns the ops run. */
static uint32_t run_interpreted(emu_thread *t, uint32_t from, uint32_t to) {
    const emu_op *ops = t->prog->ops.data;
    for (uint32_t pc = from; pc < to; pc++) {
        t->pc = pc;
        ops[pc].fn(t, &ops[pc]);
        if (t->done) { /* a fault: the run loop reports it at pc, whether or not its handler moved on */
            t->pc = pc;
            return pc - from + 1;
        }
    }
    t->pc = to;
    return to - from;
}

/* A block's first op in p->jit_ops: the compiled run loop calls emu_jit_exec for it (this
** handler only marks it). */
void emu_jit_block_op(emu_thread *t, const emu_op *op) { t->steps = emu_jit_exec(t, op, t->steps + 1, t->steps + 1); }

uint64_t emu_jit_exec(emu_thread *t, const emu_op *op, uint64_t steps_in, uint64_t check) {
    const emu_jit_block *b = op->aux;
    uint64_t steps = steps_in - 1; /* before the block */
    uint32_t body = b->body_end - b->first;
    if (b->fenv && emu_cr0_modes(t) != EMU_CR0_FAST)
        return steps + run_interpreted(t, b->first, b->body_end); /* a loop's jmp is left to the run loop */
    jit_fn fn = (t->em & b->need) == b->need ? b->full : b->masked;
    if (!b->loop) {
        if (fn(t->file, t->pred, t->em, 1, t) & JIT_STOPPED) return steps + (t->pc - b->first + 1);
        t->pc = b->body_end;
        return steps + body;
    }
    /* trips that end at or before the check point: the run loop checks at a back-edge once the
    ** steps pass it, so no compiled trip may end past it with its jmp taken */
    uint64_t trip = (uint64_t)body + 1;
    uint64_t max = check >= steps ? (check - steps) / trip : 0;
    if (max) {
        uint64_t r = fn(t->file, t->pred, t->em, max, t);
        steps += (r & JIT_TRIPS) * trip;
        if (r & JIT_STOPPED) return steps + (t->pc - b->first + 1);
        if (r & JIT_AT_EDGE) {
            t->pc = b->body_end;
            return steps - trip + body;
        }
        if (!(r & JIT_TAKEN)) {
            t->pc = b->body_end + 1;
            return steps;
        }
    }
    /* the trip whose back-edge reaches the check point: its jmp runs in the run loop */
    return steps + run_interpreted(t, b->first, b->body_end);
}

/* -- Which ops compile ---------------------------------------------------------------------------- */

static bool int_type(unsigned ty) {
    switch (ty) {
    case VISA_TYPE_B:
    case VISA_TYPE_UB:
    case VISA_TYPE_W:
    case VISA_TYPE_UW:
    case VISA_TYPE_D:
    case VISA_TYPE_UD:
    case VISA_TYPE_Q:
    case VISA_TYPE_UQ: return true;
    default: return false;
    }
}
static bool jit_type(unsigned ty) {
    return int_type(ty) || ty == VISA_TYPE_F || ty == VISA_TYPE_DF || ty == VISA_TYPE_HF || ty == VISA_TYPE_BF;
}

/* The op's register destination overlaps %cr0: a write there would change the modes a later op
** of the block was entered with. */
static bool writes_cr0(const emu_program *p, const emu_op *op) {
    if (op->dst.shape == EO_NONE || op->dst.shape == EO_PRED) return false;
    uint32_t span = (uint32_t)(op->exec ? op->exec : 1) * op->dst.size;
    return op->dst.off < p->cr0_off + 4 && p->cr0_off < op->dst.off + span;
}

/* An ALU op or compare the block compiler takes (a label and a jmp are handled by the caller). */
static bool compilable(const emu_program *p, const emu_op *op) {
    bool cmp = op->form == VISA_FORM_CMP;
    if (cmp ? !emu_fast_cmp(p, op) : !emu_fast_handler(p, op)) return false;
    if (!jit_type(cmp ? op->src[0].type : op->dst.type)) return false;
    if (op->exec > EMU_MAX_LANES || op->exec == 0) return false;
    /* lanes past channel 31 (the verifier's V-EXEC-MASK; an unverified module may have them):
    ** the full-mask function's lane set would not fit the 32-bit mask */
    if ((unsigned)op->mask_off + op->exec > 32) return false;
    for (unsigned k = 0; k < op->nsrc; k++) {
        unsigned s = op->src[k].shape;
        if (s != EO_CONTIG && s != EO_SCALAR && s != EO_IMM) return false;
        /* gen_alu reads every source as the destination's type: not fast.c's converting movs */
        if (!cmp && op->src[k].type != op->dst.type) return false;
    }
    return cmp || !writes_cr0(p, op);
}

/* An op compiled code hands to its interpreter handler: one that only computes lanes or moves
** data, so it leaves control where it was (pc + 1, or a fault): the lane-wise ALU forms (sem.def
** EMU_ALU) and LSC's plain loads and stores.  Not a write to %cr0 (see compilable). */
static bool callable(const emu_program *p, const emu_op *op) {
    if (emu_lsc_moves_data(op)) return true;
    return emu_alu_calc(op->form) && !writes_cr0(p, op);
}

/* The op that closes a loop whose body starts at op `first`: a jmp, a goto back to it.  A SIMD
** goto (exec size > 1) loops compiled only while every active lane takes it, which h_goto does
** as a jmp (no lane waits, the mask stays); else the run loop takes it (gen_function).  Not a
** NoMask one: that can enable lanes. */
static bool back_edge(const emu_op *op, uint32_t first) {
    bool edge = op->form == VISA_FORM_JMP || (op->form == VISA_FORM_GOTO && (op->exec == 1 || !op->nomask));
    return edge && op->target == first && !op->join;
}

/* -- Code generation ----------------------------------------------------------------------------- */

typedef struct jit_gen {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMValueRef file, pred, em, thread;
    LLVMValueRef trips; /* a loop function's trips before this one, NULL: straight-line */
    LLVMValueRef window; /* an emu_window on the stack (gen_lsc_load), NULL in a block without calls */
    LLVMBasicBlockRef stop; /* returns JIT_STOPPED (made by the first call of a handler) */
    LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, ptr;
    bool full;
    unsigned nconst; /* opaque constants made so far (their names) */
    bool vec512; /* the ISA level is AVX-512 */
    bool f16c; /* the ISA level has F16C: hf converts with vcvtph2ps / vcvtps2ph, as fast.c's blocks do */
    bool fused; /* the ISA level has FMA: hf and bf mad as fast.c's FB_FMA blocks */
} jit_gen;

static LLVMValueRef c32(jit_gen *g, uint32_t v) { return LLVMConstInt(g->i32, v, 0); }

static LLVMValueRef at_file(jit_gen *g, uint32_t off) {
    LLVMValueRef idx = LLVMConstInt(g->i64, off, 0);
    return LLVMBuildGEP2(g->b, g->i8, g->file, &idx, 1, "");
}
static LLVMValueRef at_pred(jit_gen *g, uint32_t id) {
    LLVMValueRef idx = LLVMConstInt(g->i64, id, 0);
    return LLVMBuildGEP2(g->b, g->i32, g->pred, &idx, 1, "");
}
static LLVMValueRef load(jit_gen *g, LLVMTypeRef ty, LLVMValueRef ptr) {
    LLVMValueRef v = LLVMBuildLoad2(g->b, ty, ptr, "");
    LLVMSetAlignment(v, 1);
    return v;
}
static void store(jit_gen *g, LLVMValueRef v, LLVMValueRef ptr) { LLVMSetAlignment(LLVMBuildStore(g->b, v, ptr), 1); }

static LLVMValueRef splat(jit_gen *g, LLVMValueRef v, unsigned n) {
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), n);
    LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetPoison(vt), v, c32(g, 0), "");
    return LLVMBuildShuffleVector(g->b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(g->i32, n)), "");
}

/* Storage type of an element type. */
static LLVMTypeRef elem_type(jit_gen *g, unsigned ty) {
    switch (ty) {
    case VISA_TYPE_B:
    case VISA_TYPE_UB: return g->i8;
    case VISA_TYPE_W:
    case VISA_TYPE_UW:
    case VISA_TYPE_HF:
    case VISA_TYPE_BF: return g->i16;
    case VISA_TYPE_D:
    case VISA_TYPE_UD: return g->i32;
    case VISA_TYPE_F: return g->f32;
    case VISA_TYPE_DF: return g->f64;
    default: return g->i64;
    }
}

static bool is_float_class(unsigned ty) {
    return ty == VISA_TYPE_F || ty == VISA_TYPE_DF || ty == VISA_TYPE_HF || ty == VISA_TYPE_BF;
}

/* A constant the optimiser cannot see, as type ty (loaded from a global with external linkage, so
** no pass may assume it unchanged; the load leaves loops).  Float immediates and the modifiers'
** sign masks go through it: LLVM takes NaN signs and quieting as unspecified, and with them
** visible InstCombine rewrites (-a)*(-b) to a*b, x*-1.0 to -x, x*1.0 to x and folds constant
** operations in software, each of which changes some NaN's bits from what the host's
** instructions (the interpreter's) give. */
static LLVMValueRef opaque(jit_gen *g, LLVMValueRef bits, LLVMTypeRef ty) {
    char name[32];
    snprintf(name, sizeof name, "visa_k%u", g->nconst++);
    LLVMValueRef gv = LLVMAddGlobal(g->m, LLVMTypeOf(bits), name);
    LLVMSetInitializer(gv, bits);
    LLVMValueRef v = LLVMBuildLoad2(g->b, LLVMTypeOf(bits), gv, "");
    return LLVMTypeOf(bits) == ty ? v : LLVMBuildBitCast(g->b, v, ty, "");
}

/* The exec lanes of source k as a vector of its storage type. */
static LLVMValueRef load_src(jit_gen *g, const emu_op *op, unsigned k, LLVMTypeRef st) {
    const emu_opnd *o = &op->src[k];
    unsigned n = op->exec;
    if (o->shape == EO_IMM) {
        LLVMValueRef bits = LLVMConstInt(LLVMIntTypeInContext(g->c, o->size * 8), o->imm, 0);
        if (!is_float_class(op->src[k].type)) return splat(g, LLVMConstBitCast(bits, st), n);
        return splat(g, opaque(g, bits, st), n);
    }
    if (o->shape == EO_SCALAR) return splat(g, load(g, st, at_file(g, o->off)), n);
    return load(g, LLVMVectorType(st, n), at_file(g, o->off));
}

/* PMask over the exec lanes (exec.h emu_pred_bits), an i32. */
static LLVMValueRef pred_bits(jit_gen *g, const emu_op *op) {
    uint32_t all = emu_lanes_mask(op->exec);
    LLVMValueRef pm = LLVMBuildLoad2(g->b, g->i32, at_pred(g, op->pred_id), "");
    pm = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, pm, c32(g, op->mask_off), ""), c32(g, all), "");
    if (op->pred_ctrl == IR_PRED_ANY)
        pm = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntNE, pm, c32(g, 0), ""), c32(g, all), c32(g, 0), "");
    else if (op->pred_ctrl == IR_PRED_ALL)
        pm = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, pm, c32(g, all), ""), c32(g, all), c32(g, 0), "");
    if (op->pred_inv) pm = LLVMBuildXor(g->b, pm, c32(g, all), "");
    return pm;
}

/* ChEn (exec.h emu_chen) as an i32; NULL when it is all exec lanes by construction. */
static LLVMValueRef enables(jit_gen *g, const emu_op *op) {
    uint32_t all = emu_lanes_mask(op->exec);
    LLVMValueRef em = NULL;
    if (!op->nomask && !g->full)
        em = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, g->em, c32(g, op->mask_off), ""), c32(g, all), "");
    if (!op->pred_id) return em;
    LLVMValueRef pm = pred_bits(g, op);
    return em ? LLVMBuildAnd(g->b, em, pm, "") : pm;
}

/* Write the enabled lanes of v (storage vector) to the destination. */
static void store_dst(jit_gen *g, const emu_op *op, LLVMValueRef v, LLVMValueRef chen) {
    LLVMValueRef ptr = at_file(g, op->dst.off);
    if (chen) {
        unsigned n = op->exec;
        LLVMValueRef old = load(g, LLVMTypeOf(v), ptr);
        LLVMValueRef bits = n < 32 ? LLVMBuildTrunc(g->b, chen, LLVMIntTypeInContext(g->c, n), "") : chen;
        LLVMValueRef mask = LLVMBuildBitCast(g->b, bits, LLVMVectorType(g->i1, n), "");
        v = LLVMBuildSelect(g->b, mask, v, old, "");
    }
    store(g, v, ptr);
}

static bool signed_order(unsigned ty) { return ty != VISA_TYPE_UD && ty != VISA_TYPE_UQ; } /* fast.c INT_TRAITS */
static bool sign_extends(unsigned ty) { return ty == VISA_TYPE_B || ty == VISA_TYPE_W; }

/* fast.c's TY_LD: b..uw widen to 32 bits (b, w with their sign), d..uq stay. */
static LLVMValueRef int_widen(jit_gen *g, LLVMValueRef v, unsigned ty, LLVMTypeRef ct) {
    if (LLVMTypeOf(v) == ct) return v;
    return sign_extends(ty) ? LLVMBuildSExt(g->b, v, ct, "") : LLVMBuildZExt(g->b, v, ct, "");
}
/* fast.c imod32 / imod64 (abs, then negate) and umod (unsigned: negate only). */
static LLVMValueRef int_mod(jit_gen *g, LLVMValueRef x, unsigned m, unsigned ty) {
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
    if ((m & 1) && signed_order(ty))
        x = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, x, zero, ""), LLVMBuildSub(g->b, zero, x, ""), x, "");
    if (m & 2) x = LLVMBuildSub(g->b, zero, x, "");
    return x;
}
static LLVMValueRef int_lt(jit_gen *g, LLVMValueRef a, LLVMValueRef b, unsigned ty) {
    return LLVMBuildICmp(g->b, signed_order(ty) ? LLVMIntSLT : LLVMIntULT, a, b, "");
}
static LLVMValueRef int_le(jit_gen *g, LLVMValueRef a, LLVMValueRef b, unsigned ty) {
    return LLVMBuildICmp(g->b, signed_order(ty) ? LLVMIntSLE : LLVMIntULE, a, b, "");
}

/* fast.c fmodf_ / fmodd_: abs clears the sign bit, negate flips it, on the bits. */
static LLVMValueRef flt_mod(jit_gen *g, LLVMValueRef x, unsigned m) {
    if (!m) return x;
    LLVMTypeRef vt = LLVMTypeOf(x);
    unsigned n = LLVMGetVectorSize(vt), w = LLVMGetElementType(vt) == g->f32 ? 32 : 64;
    LLVMTypeRef et = LLVMIntTypeInContext(g->c, w), it = LLVMVectorType(et, n);
    LLVMValueRef i = LLVMBuildBitCast(g->b, x, it, "");
    uint64_t sign = 1ull << (w - 1);
    /* opaque masks: a visible sign-bit xor becomes fneg, and fneg feeds NaN-changing folds */
    if (m & 1) i = LLVMBuildAnd(g->b, i, splat(g, opaque(g, LLVMConstInt(et, ~sign, 0), et), n), "");
    if (m & 2) i = LLVMBuildXor(g->b, i, splat(g, opaque(g, LLVMConstInt(et, sign, 0), et), n), "");
    return LLVMBuildBitCast(g->b, i, vt, "");
}
static LLVMValueRef is_nan(jit_gen *g, LLVMValueRef x) { return LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, ""); }

/* A call of the intrinsic `name` overloaded on the types tys[0..ntys). */
static LLVMValueRef intrinsic_of(jit_gen *g, const char *name, LLVMTypeRef *tys, unsigned ntys, LLVMValueRef *args,
                                 unsigned n) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->m, id, tys, ntys);
    return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->c, id, tys, ntys), fn, args, n, "");
}
static LLVMValueRef intrinsic(jit_gen *g, const char *name, LLVMTypeRef ty, LLVMValueRef *args, unsigned n) {
    return intrinsic_of(g, name, &ty, 1, args, n);
}

/* -- hf and bf: fast.c's bit tricks, lane for lane (no fpext / fptrunc: their NaN handling and,
** without F16C, their library calls are not fast.c's) -- */
static LLVMValueRef vi32(jit_gen *g, uint32_t v, unsigned n) { return splat(g, c32(g, v), n); }
static LLVMValueRef sel(jit_gen *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildSelect(g->b, c, a, b, "");
}
static LLVMValueRef ucmp(jit_gen *g, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildICmp(g->b, p, a, b, "");
}
static LLVMValueRef as_f32(jit_gen *g, LLVMValueRef v, unsigned n) {
    return LLVMBuildBitCast(g->b, v, LLVMVectorType(g->f32, n), "");
}
static LLVMValueRef as_i32(jit_gen *g, LLVMValueRef v, unsigned n) {
    return LLVMBuildBitCast(g->b, v, LLVMVectorType(g->i32, n), "");
}

/* fast.c hf_to_f: exact widening (with F16C the host's converter, as fast.c's blocks: a signalling
** NaN comes in quieted, which no result can tell) */
static LLVMValueRef hf_widen(jit_gen *g, LLVMValueRef h16, unsigned n) {
    if (g->f16c)
        return LLVMBuildFPExt(g->b, LLVMBuildBitCast(g->b, h16, LLVMVectorType(g->f16, n), ""),
                              LLVMVectorType(g->f32, n), "");
    LLVMValueRef h = LLVMBuildZExt(g->b, h16, LLVMVectorType(g->i32, n), "");
    LLVMValueRef s = LLVMBuildShl(g->b, LLVMBuildAnd(g->b, h, vi32(g, 0x8000, n), ""), vi32(g, 16, n), "");
    LLVMValueRef e = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, h, vi32(g, 10, n), ""), vi32(g, 31, n), "");
    LLVMValueRef m = LLVMBuildAnd(g->b, h, vi32(g, 0x3FF, n), "");
    LLVMValueRef ex = sel(g, ucmp(g, LLVMIntEQ, e, vi32(g, 31, n)), vi32(g, 0x7F800000, n),
                          LLVMBuildShl(g->b, LLVMBuildAdd(g->b, e, vi32(g, 112, n), ""), vi32(g, 23, n), ""));
    LLVMValueRef norm = LLVMBuildOr(g->b, LLVMBuildOr(g->b, s, ex, ""), LLVMBuildShl(g->b, m, vi32(g, 13, n), ""), "");
    LLVMValueRef mf = LLVMBuildFMul(g->b, LLVMBuildUIToFP(g->b, m, LLVMVectorType(g->f32, n), ""),
                                    splat(g, LLVMConstReal(g->f32, 0x1p-24), n), "");
    LLVMValueRef sub = LLVMBuildOr(g->b, s, as_i32(g, mf, n), "");
    return as_f32(g, sel(g, ucmp(g, LLVMIntNE, e, vi32(g, 0, n)), norm, sub), n);
}
/* fast.c f_to_hf: to nearest even, NaN quieted keeping sign and high payload.  Always the bit
** trick, never fptrunc: InstCombine folds fptrunc(fpext x) to x, which would leave a signalling
** NaN that the host's converters (fast.c's blocks) quiet; integer operations it cannot change. */
static LLVMValueRef hf_narrow(jit_gen *g, LLVMValueRef f, unsigned n) {
    LLVMValueRef b = as_i32(g, f, n);
    LLVMValueRef s = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, b, vi32(g, 16, n), ""), vi32(g, 0x8000, n), "");
    LLVMValueRef a = LLVMBuildAnd(g->b, b, vi32(g, 0x7FFFFFFF, n), "");
    LLVMValueRef half = LLVMBuildFAdd(g->b, as_f32(g, a, n), splat(g, LLVMConstReal(g->f32, 0.5), n), "");
    LLVMValueRef sub = LLVMBuildSub(g->b, as_i32(g, half, n), vi32(g, 0x3F000000, n), "");
    LLVMValueRef odd = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, a, vi32(g, 13, n), ""), vi32(g, 1, n), "");
    LLVMValueRef norm = LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, a, vi32(g, 0xFFF, n), ""), odd, "");
    norm = LLVMBuildLShr(g->b, LLVMBuildSub(g->b, norm, vi32(g, 0x38000000, n), ""), vi32(g, 13, n), "");
    LLVMValueRef r = sel(g, ucmp(g, LLVMIntULT, a, vi32(g, 0x38800000, n)), sub, norm);
    r = sel(g, ucmp(g, LLVMIntUGE, a, vi32(g, 0x477FF000, n)), vi32(g, 0x7C00, n), r);
    LLVMValueRef qnan =
        LLVMBuildOr(g->b, vi32(g, 0x7E00, n),
                    LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, a, vi32(g, 13, n), ""), vi32(g, 0x3FF, n), ""), "");
    r = sel(g, ucmp(g, LLVMIntUGT, a, vi32(g, 0x7F800000, n)), qnan, r);
    return LLVMBuildTrunc(g->b, LLVMBuildOr(g->b, s, r, ""), LLVMVectorType(g->i16, n), "");
}
/* fast.c bf_to_f / f_to_bf */
static LLVMValueRef bf_widen(jit_gen *g, LLVMValueRef h16, unsigned n) {
    LLVMValueRef h = LLVMBuildZExt(g->b, h16, LLVMVectorType(g->i32, n), "");
    return as_f32(g, LLVMBuildShl(g->b, h, vi32(g, 16, n), ""), n);
}
static LLVMValueRef bf_narrow(jit_gen *g, LLVMValueRef f, unsigned n) {
    LLVMValueRef b = as_i32(g, f, n), hi = LLVMBuildLShr(g->b, b, vi32(g, 16, n), "");
    LLVMValueRef nan = ucmp(g, LLVMIntUGT, LLVMBuildAnd(g->b, b, vi32(g, 0x7FFFFFFF, n), ""), vi32(g, 0x7F800000, n));
    LLVMValueRef rne = LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, b, vi32(g, 0x7FFF, n), ""),
                                    LLVMBuildAnd(g->b, hi, vi32(g, 1, n), ""), "");
    rne = LLVMBuildLShr(g->b, rne, vi32(g, 16, n), "");
    LLVMValueRef r = sel(g, nan, LLVMBuildOr(g->b, hi, vi32(g, 0x40, n), ""), rne);
    return LLVMBuildTrunc(g->b, r, LLVMVectorType(g->i16, n), "");
}
/* fast.c f_mad_odd: a*b + c with the sum rounded to odd (TwoSum), for a product exact in float */
static LLVMValueRef mad_odd_f(jit_gen *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, unsigned n) {
    LLVMValueRef p = LLVMBuildFMul(g->b, a, b, ""), r = LLVMBuildFAdd(g->b, p, c, "");
    LLVMValueRef bb = LLVMBuildFSub(g->b, r, p, "");
    LLVMValueRef err = LLVMBuildFAdd(g->b, LLVMBuildFSub(g->b, p, LLVMBuildFSub(g->b, r, bb, ""), ""),
                                     LLVMBuildFSub(g->b, c, bb, ""), "");
    LLVMValueRef u = as_i32(g, r, n), zero = LLVMConstNull(LLVMVectorType(g->f32, n));
    LLVMValueRef adj = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealUNE, err, zero, ""),
                                    ucmp(g, LLVMIntEQ, LLVMBuildAnd(g->b, u, vi32(g, 1, n), ""), vi32(g, 0, n)), "");
    adj = LLVMBuildAnd(
        g->b, adj, ucmp(g, LLVMIntNE, LLVMBuildAnd(g->b, u, vi32(g, 0x7F800000, n), ""), vi32(g, 0x7F800000, n)), "");
    /* toward err's side: away from zero (+1) when err has r's sign */
    LLVMValueRef away = LLVMBuildXor(
        g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, err, zero, ""),
        LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, u, vi32(g, 31, n), ""), LLVMVectorType(g->i1, n), ""), "");
    LLVMValueRef step = sel(g, adj, sel(g, away, vi32(g, 1, n), vi32(g, 0xFFFFFFFF, n)), vi32(g, 0, n));
    return as_f32(g, LLVMBuildAdd(g->b, u, step, ""), n);
}
/* fast.c bf_product_exact: a bf product is exact in float unless it leaves float's normal range */
static LLVMValueRef bf_exact(jit_gen *g, LLVMValueRef a, LLVMValueRef b, unsigned n) {
    LLVMTypeRef vt = LLVMVectorType(g->f32, n);
    LLVMValueRef p = LLVMBuildFMul(g->b, a, b, ""), zero = LLVMConstNull(vt);
    LLVMValueRef mx = splat(g, LLVMConstReal(g->f32, 0x1.fffffep127), n),
                 mn = splat(g, LLVMConstReal(g->f32, 0x1p-126), n);
    LLVMValueRef fa = intrinsic(g, "llvm.fabs", vt, &a, 1), fb = intrinsic(g, "llvm.fabs", vt, &b, 1),
                 fp = intrinsic(g, "llvm.fabs", vt, &p, 1);
    LLVMValueRef finite = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealOLE, fa, mx, ""),
                                       LLVMBuildFCmp(g->b, LLVMRealOLE, fb, mx, ""), "");
    LLVMValueRef out = LLVMBuildOr(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, fp, mn, ""),
                                   LLVMBuildFCmp(g->b, LLVMRealOGT, fp, mx, ""), "");
    LLVMValueRef nz = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealUNE, a, zero, ""),
                                   LLVMBuildFCmp(g->b, LLVMRealUNE, b, zero, ""), "");
    return LLVMBuildNot(g->b, LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, finite, nz, ""), out, ""), "");
}
/* fast.c bf_mad_odd: the exact product in double, the sum rounded to odd in double, then to odd in float */
static LLVMValueRef bf_mad_odd(jit_gen *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, unsigned n) {
    LLVMTypeRef dt = LLVMVectorType(g->f64, n), it = LLVMVectorType(g->i64, n);
    LLVMValueRef p = LLVMBuildFMul(g->b, LLVMBuildFPExt(g->b, a, dt, ""), LLVMBuildFPExt(g->b, b, dt, ""), "");
    LLVMValueRef q = LLVMBuildFPExt(g->b, c, dt, ""), r = LLVMBuildFAdd(g->b, p, q, "");
    LLVMValueRef bb = LLVMBuildFSub(g->b, r, p, "");
    LLVMValueRef err = LLVMBuildFAdd(g->b, LLVMBuildFSub(g->b, p, LLVMBuildFSub(g->b, r, bb, ""), ""),
                                     LLVMBuildFSub(g->b, q, bb, ""), "");
    LLVMValueRef u = LLVMBuildBitCast(g->b, r, it, ""), dz = LLVMConstNull(dt);
    LLVMValueRef one = splat(g, LLVMConstInt(g->i64, 1, 0), n),
                 exp = splat(g, LLVMConstInt(g->i64, 0x7FF0000000000000ull, 0), n);
    LLVMValueRef adj = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealUNE, err, dz, ""),
                                    ucmp(g, LLVMIntEQ, LLVMBuildAnd(g->b, u, one, ""), LLVMConstNull(it)), "");
    adj = LLVMBuildAnd(g->b, adj, ucmp(g, LLVMIntNE, LLVMBuildAnd(g->b, u, exp, ""), exp), "");
    LLVMValueRef away =
        LLVMBuildXor(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, err, dz, ""),
                     LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, u, splat(g, LLVMConstInt(g->i64, 63, 0), n), ""),
                                    LLVMVectorType(g->i1, n), ""),
                     "");
    LLVMValueRef step = sel(g, adj, sel(g, away, one, splat(g, LLVMConstInt(g->i64, ~0ull, 0), n)), LLVMConstNull(it));
    r = LLVMBuildBitCast(g->b, LLVMBuildAdd(g->b, u, step, ""), dt, "");
    LLVMValueRef f = LLVMBuildFPTrunc(g->b, r, LLVMVectorType(g->f32, n), ""), fd = LLVMBuildFPExt(g->b, f, dt, "");
    LLVMValueRef w = as_i32(g, f, n);
    LLVMValueRef adj2 = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealUNE, fd, r, ""),
                                     ucmp(g, LLVMIntEQ, LLVMBuildAnd(g->b, w, vi32(g, 1, n), ""), vi32(g, 0, n)), "");
    adj2 = LLVMBuildAnd(
        g->b, adj2, ucmp(g, LLVMIntNE, LLVMBuildAnd(g->b, w, vi32(g, 0x7F800000, n), ""), vi32(g, 0x7F800000, n)), "");
    LLVMValueRef up = LLVMBuildFCmp(g->b, LLVMRealOGT, intrinsic(g, "llvm.fabs", dt, &r, 1),
                                    intrinsic(g, "llvm.fabs", dt, &fd, 1), "");
    LLVMValueRef step2 = sel(g, adj2, sel(g, up, vi32(g, 1, n), vi32(g, 0xFFFFFFFF, n)), vi32(g, 0, n));
    return as_f32(g, LLVMBuildAdd(g->b, w, step2, ""), n);
}

/* bf mad as fast.c's blocks: in float where every lane's product is exact there (the common
** case, one test of all lanes), else the other lanes in double. */
static LLVMValueRef bf_mad(jit_gen *g, LLVMValueRef *s, unsigned n) {
    LLVMValueRef fast = mad_odd_f(g, s[0], s[1], s[2], n), exact = bf_exact(g, s[0], s[1], n);
    LLVMValueRef all = intrinsic(g, "llvm.vector.reduce.and", LLVMVectorType(g->i1, n), &exact, 1);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
    LLVMValueRef fn = LLVMGetBasicBlockParent(from);
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->c, fn, "bf_wide"),
                      join = LLVMAppendBasicBlockInContext(g->c, fn, "bf_join");
    LLVMBuildCondBr(g->b, all, join, slow);
    LLVMPositionBuilderAtEnd(g->b, slow);
    LLVMValueRef mixed = sel(g, exact, fast, bf_mad_odd(g, s[0], s[1], s[2], n));
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    LLVMValueRef r = LLVMBuildPhi(g->b, LLVMTypeOf(fast), "");
    LLVMValueRef vals[2] = {fast, mixed};
    LLVMBasicBlockRef blocks[2] = {from, slow};
    LLVMAddIncoming(r, vals, blocks, 2);
    return r;
}

/* fast.c fsat: [0, 1], NaN gives 0 */
static LLVMValueRef flt_sat(jit_gen *g, LLVMValueRef x, LLVMTypeRef st, unsigned n) {
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(st, n)), one = splat(g, LLVMConstReal(st, 1.0), n);
    LLVMValueRef r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOGT, x, one, ""), one, x, "");
    r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOLT, x, zero, ""), zero, r, "");
    return LLVMBuildSelect(g->b, is_nan(g, x), zero, r, "");
}

/* a*b + c on 16 float lanes, rounded toward -inf (mode 9), +inf (10) or zero (11): AVX-512's
** embedded rounding, which leaves MXCSR alone */
static LLVMValueRef fma16_toward(jit_gen *g, LLVMValueRef *s, unsigned mode) {
    static const char name[] = "llvm.x86.avx512.vfmadd.ps.512";
    unsigned id = LLVMLookupIntrinsicID(name, sizeof name - 1);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->m, id, NULL, 0);
    LLVMValueRef args[4] = {s[0], s[1], s[2], c32(g, mode)};
    return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->c, id, NULL, 0), fn, args, 4, "");
}

/* hf or bf mad where the level fuses: a*b + c in float with a rounding that narrows correctly to
** nearest even, in one block when no lane needs the round-to-odd path of fast.c (mad_odd_f,
** bf_mad), else every lane by that path.  The narrow result, to store.
**  - AVX-512, 16 lanes: round to odd directly (fast.c mad_odd16): the fma rounded toward zero,
**    its last bit set where the fmas rounded down and up differ (a*b + c is not a float).  That
**    24-bit odd rounding narrows to hf's 11 or bf's 8 bits as a*b + c would.  A NaN lane goes
**    the odd path, for fast.c's NaN bits.
**  - Else: the fma rounded to nearest, r, narrows to the one rounding of a*b + c unless r is an
**    inexact midpoint of the narrow format.  Every midpoint is a float, so rounding to float may
**    land on one but never crosses one, and only from a midpoint reached by rounding is the tie
**    broken wrongly.  Whichever of the product p and c is larger, its difference with r is exact
**    (Fast2Sum), so r is exact when r - p == c and r - c == p, with p exact (hf: always; bf: in
**    float's normal range).  hf's midpoint test (bit 12 set, none below) holds from 2^-14 up;
**    any inexact r below that (for bf an inexact zero), and NaN or infinite r, go the odd path
**    (fast.c bf_fused_ok is the bf test in C and says why the zero). */
static LLVMValueRef fused_mad(jit_gen *g, const emu_op *op, LLVMValueRef *s, unsigned n, bool hf) {
    LLVMTypeRef vt = LLVMVectorType(g->f32, n), it = LLVMVectorType(g->i32, n), bt = LLVMVectorType(g->i1, n);
    LLVMValueRef f, odd;
    if (g->vec512 && n == 16) {
        LLVMValueRef rd = fma16_toward(g, s, 9), ru = fma16_toward(g, s, 10);
        odd = LLVMBuildFCmp(g->b, LLVMRealUNO, rd, rd, "");
        LLVMValueRef inexact = LLVMBuildZExt(g->b, LLVMBuildFCmp(g->b, LLVMRealONE, rd, ru, ""), it, "");
        LLVMValueRef rz = fma16_toward(g, s, 11); /* an exact zero sum: +0 unless rounding down */
        f = as_f32(g, LLVMBuildOr(g->b, as_i32(g, rz, n), inexact, ""), n);
    } else {
        f = intrinsic(g, "llvm.fma", vt, s, 3);
        LLVMValueRef u = as_i32(g, f, n), p = LLVMBuildFMul(g->b, s[0], s[1], "");
        LLVMValueRef m = LLVMBuildAnd(g->b, u, vi32(g, 0x7FFFFFFF, n), "");
        LLVMValueRef exact =
            LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealOEQ, LLVMBuildFSub(g->b, f, p, ""), s[2], ""),
                         LLVMBuildFCmp(g->b, LLVMRealOEQ, LLVMBuildFSub(g->b, f, s[2], ""), p, ""), "");
        LLVMValueRef tie;
        if (hf) {
            tie = ucmp(g, LLVMIntEQ, LLVMBuildAnd(g->b, u, vi32(g, 0x1FFF, n), ""), vi32(g, 0x1000, n));
            tie = LLVMBuildOr(g->b, tie,
                              ucmp(g, LLVMIntULT, LLVMBuildSub(g->b, m, vi32(g, 1, n), ""), vi32(g, 0x38800000 - 1, n)),
                              "");
        } else {
            tie = ucmp(g, LLVMIntEQ, LLVMBuildAnd(g->b, u, vi32(g, 0xFFFF, n), ""), vi32(g, 0x8000, n));
            tie =
                LLVMBuildOr(g->b, tie, ucmp(g, LLVMIntEQ, m, vi32(g, 0, n)), ""); /* inexact zero: fast.c bf_fused_ok */
            LLVMValueRef pm = LLVMBuildAnd(g->b, as_i32(g, p, n), vi32(g, 0x7FFFFFFF, n), "");
            exact = LLVMBuildAnd(g->b, exact, ucmp(g, LLVMIntUGE, pm, vi32(g, 0x00800000, n)), "");
        }
        odd = LLVMBuildAnd(g->b, tie, LLVMBuildNot(g->b, exact, ""), "");
        odd = LLVMBuildOr(g->b, odd, ucmp(g, LLVMIntUGE, m, vi32(g, 0x7F800000, n)), "");
    }
    LLVMValueRef any = intrinsic(g, "llvm.vector.reduce.or", bt, &odd, 1);
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(g->c, fn, "mad_fused"),
                      slow = LLVMAppendBasicBlockInContext(g->c, fn, "mad_odd"),
                      join = LLVMAppendBasicBlockInContext(g->c, fn, "mad_join");
    LLVMBuildCondBr(g->b, any, slow, fast);

    LLVMPositionBuilderAtEnd(g->b, fast);
    LLVMValueRef r = op->sat ? flt_sat(g, f, g->f32, n) : f, rf;
    if (hf && g->f16c) /* no NaN reaches it, so fptrunc's NaN rule (see hf_narrow) cannot matter */
        rf = LLVMBuildBitCast(g->b, LLVMBuildFPTrunc(g->b, r, LLVMVectorType(g->f16, n), ""), LLVMVectorType(g->i16, n),
                              "");
    else if (hf) rf = hf_narrow(g, r, n);
    else { /* bf_narrow without its NaN lanes: to nearest even */
        LLVMValueRef b = as_i32(g, r, n),
                     lsb = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, b, vi32(g, 16, n), ""), vi32(g, 1, n), "");
        b = LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, b, vi32(g, 0x7FFF, n), ""), lsb, "");
        rf = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, b, vi32(g, 16, n), ""), LLVMVectorType(g->i16, n), "");
    }
    LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, join);

    LLVMPositionBuilderAtEnd(g->b, slow);
    r = hf ? mad_odd_f(g, s[0], s[1], s[2], n) : bf_mad(g, s, n);
    if (op->sat) r = flt_sat(g, r, g->f32, n);
    LLVMValueRef rs = hf ? hf_narrow(g, r, n) : bf_narrow(g, r, n);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, join);

    LLVMPositionBuilderAtEnd(g->b, join);
    LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMVectorType(g->i16, n), "");
    LLVMValueRef vals[2] = {rf, rs};
    LLVMBasicBlockRef from[2] = {fast_end, slow_end};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

/* MIN_MAX.md as fast.c: a NaN gives the other operand, ties give src0 (pred: OLT min, OGT max). */
static LLVMValueRef flt_min_max(jit_gen *g, LLVMValueRef *s, LLVMRealPredicate pred) {
    LLVMValueRef r = LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, pred, s[1], s[0], ""), s[1], s[0], "");
    r = LLVMBuildSelect(g->b, is_nan(g, s[0]), s[1], r, "");
    return LLVMBuildSelect(g->b, is_nan(g, s[1]), s[0], r, "");
}

/* The operations of fast_ops.h, as fast_body.h's FB_INT_<name> / FB_FLT_<name> compute them, on
** gen_alu's widened sources s[] (cnt: the masked shift count, keep: the type's bits). */
#define JIT_INT_mov s[0]
#define JIT_INT_add LLVMBuildAdd(g->b, s[0], s[1], "")
#define JIT_INT_mul LLVMBuildMul(g->b, s[0], s[1], "")
#define JIT_INT_mad LLVMBuildAdd(g->b, LLVMBuildMul(g->b, s[0], s[1], ""), s[2], "")
#define JIT_INT_add3 LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, s[0], s[1], ""), s[2], "")
#define JIT_INT_min LLVMBuildSelect(g->b, int_lt(g, s[0], s[1], ty), s[0], s[1], "")
#define JIT_INT_max LLVMBuildSelect(g->b, int_lt(g, s[1], s[0], ty), s[0], s[1], "")
#define JIT_INT_and LLVMBuildAnd(g->b, s[0], s[1], "")
#define JIT_INT_or LLVMBuildOr(g->b, s[0], s[1], "")
#define JIT_INT_xor LLVMBuildXor(g->b, s[0], s[1], "")
#define JIT_INT_shl LLVMBuildShl(g->b, s[0], cnt, "")
#define JIT_INT_shr LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, s[0], splat(g, LLVMConstInt(cs, keep, 0), n), ""), cnt, "")
/* arithmetic on the widened value where the type orders as signed */
#define JIT_INT_asr (signed_order(ty) ? LLVMBuildAShr(g->b, s[0], cnt, "") : LLVMBuildLShr(g->b, s[0], cnt, ""))
#define JIT_FLT_mov s[0]
#define JIT_FLT_add LLVMBuildFAdd(g->b, s[0], s[1], "")
#define JIT_FLT_mul LLVMBuildFMul(g->b, s[0], s[1], "")
/* an hf product is exact in float */
#define JIT_FLT_mad (hf ? mad_odd_f(g, s[0], s[1], s[2], n) : bf ? bf_mad(g, s, n) : intrinsic(g, "llvm.fma", vt, s, 3))
#define JIT_FLT_min flt_min_max(g, s, LLVMRealOLT)
#define JIT_FLT_max flt_min_max(g, s, LLVMRealOGT)
#define JIT_INT_CASE(A, F, name, nsrc, flt, wide_mods, shift) \
    case FO_##F:                                              \
        r = JIT_INT_##name;                                   \
        break;
#define JIT_FLT_CASE(A, F, name, nsrc, flt, wide_mods, shift) \
    EMU_FAST_IF_##flt(case FO_##F : r = JIT_FLT_##name; break;)

/* One ALU op (emu_fast_handler took it: every operand of the destination's type). */
static void gen_alu(jit_gen *g, const emu_op *op) {
    unsigned ty = op->dst.type, n = op->exec;
    emu_fast_op fo = (emu_fast_op)emu_fast_op_of(op->form);
    LLVMTypeRef st = elem_type(g, ty);
    LLVMValueRef s[3];
    for (unsigned k = 0; k < op->nsrc && k < 3; k++) s[k] = load_src(g, op, k, st);
    LLVMValueRef r = NULL;
    if (int_type(ty)) {
        LLVMTypeRef ct = LLVMVectorType(op->dst.size == 8 ? g->i64 : g->i32, n);
        LLVMTypeRef cs = LLVMGetElementType(ct);
        for (unsigned k = 0; k < op->nsrc && k < 3; k++)
            s[k] = int_mod(g, int_widen(g, s[k], ty, ct), op->src[k].mod, ty);
        unsigned shm = op->dst.size == 8 ? 63 : 31;
        uint64_t keep = op->dst.size == 8   ? ~0ull
                        : op->dst.size == 4 ? 0xFFFFFFFFull
                        : op->dst.size == 2 ? 0xFFFF
                                            : 0xFF;
        LLVMValueRef cnt = NULL;
        if (emu_fast_op_facts[fo].shift) cnt = LLVMBuildAnd(g->b, s[1], splat(g, LLVMConstInt(cs, shm, 0), n), "");
        switch (fo) { EMU_FAST_OPS(JIT_INT_CASE, ~) }
        if (cs != st) r = LLVMBuildTrunc(g->b, r, LLVMVectorType(st, n), "");
    } else {
        /* hf and bf compute in float (fast.c: widened exactly, rounded once back) */
        bool hf = ty == VISA_TYPE_HF, bf = ty == VISA_TYPE_BF;
        LLVMTypeRef ct = hf || bf ? g->f32 : st, vt = LLVMVectorType(ct, n);
        for (unsigned k = 0; k < op->nsrc && k < 3; k++) {
            if (hf) s[k] = hf_widen(g, s[k], n);
            else if (bf) s[k] = bf_widen(g, s[k], n);
            s[k] = flt_mod(g, s[k], op->src[k].mod);
        }
        st = ct;
        if ((hf || bf) && fo == FO_MAD && g->fused) {
            store_dst(g, op, fused_mad(g, op, s, n, hf), enables(g, op));
            return;
        }
        switch (fo) {
            EMU_FAST_OPS(JIT_FLT_CASE, ~)
        default: break; /* no float handlers: emu_fast_handler never takes the row on floats */
        }
        if (op->sat) r = flt_sat(g, r, st, n); /* fast.c fsat / dsat */
        if (hf) r = hf_narrow(g, r, n);
        else if (bf) r = bf_narrow(g, r, n);
    }
    store_dst(g, op, r, enables(g, op));
}

/* CMP into a predicate (emu_fast_cmp took it): fast.c FB_CMP. */
static void gen_cmp(jit_gen *g, const emu_op *op) {
    unsigned ty = op->src[0].type, n = op->exec;
    LLVMTypeRef st = elem_type(g, ty);
    LLVMValueRef a = load_src(g, op, 0, st), b = load_src(g, op, 1, st), c;
    if (int_type(ty)) {
        LLVMTypeRef ct = LLVMVectorType(op->src[0].size == 8 ? g->i64 : g->i32, n);
        a = int_widen(g, a, ty, ct);
        b = int_widen(g, b, ty, ct);
        switch (op->cond & 7) {
        case 0: c = LLVMBuildICmp(g->b, LLVMIntEQ, a, b, ""); break;
        case 1: c = LLVMBuildICmp(g->b, LLVMIntNE, a, b, ""); break;
        case 2: c = int_lt(g, b, a, ty); break;
        case 3: c = int_le(g, b, a, ty); break;
        case 4: c = int_lt(g, a, b, ty); break;
        default: c = int_le(g, a, b, ty); break;
        }
    } else { /* IEEE: with a NaN only ne holds */
        if (ty == VISA_TYPE_HF) a = hf_widen(g, a, n), b = hf_widen(g, b, n);
        switch (op->cond & 7) {
        case 0: c = LLVMBuildFCmp(g->b, LLVMRealOEQ, a, b, ""); break;
        case 1: c = LLVMBuildFCmp(g->b, LLVMRealUNE, a, b, ""); break;
        case 2: c = LLVMBuildFCmp(g->b, LLVMRealOLT, b, a, ""); break;
        case 3: c = LLVMBuildFCmp(g->b, LLVMRealOLE, b, a, ""); break;
        case 4: c = LLVMBuildFCmp(g->b, LLVMRealOLT, a, b, ""); break;
        default: c = LLVMBuildFCmp(g->b, LLVMRealOLE, a, b, ""); break;
        }
    }
    unsigned bo = op->dst.bitoff;
    if (bo >= 32) return; /* bits past the predicate are dropped (fast.c) */
    LLVMValueRef bits = LLVMBuildBitCast(g->b, c, LLVMIntTypeInContext(g->c, n), "");
    if (n < 32) bits = LLVMBuildZExt(g->b, bits, g->i32, "");
    LLVMValueRef chen = enables(g, op);
    if (!chen) chen = c32(g, emu_lanes_mask(n));
    LLVMValueRef m = LLVMBuildShl(g->b, chen, c32(g, bo), "");
    LLVMValueRef ptr = at_pred(g, op->dst.off);
    LLVMValueRef old = LLVMBuildLoad2(g->b, g->i32, ptr, "");
    LLVMValueRef v = LLVMBuildOr(g->b, LLVMBuildAnd(g->b, old, LLVMBuildNot(g->b, m, ""), ""),
                                 LLVMBuildAnd(g->b, LLVMBuildShl(g->b, bits, c32(g, bo), ""), m, ""), "");
    LLVMBuildStore(g->b, v, ptr);
}

/* Op `index` by its interpreter handler: pc set to it (a fault names it), the handler called, and
** the function left with JIT_STOPPED when the handler ended the thread. */
static LLVMValueRef thread_field(jit_gen *g, size_t offset) {
    return LLVMBuildGEP2(g->b, g->i8, g->thread, (LLVMValueRef[]){LLVMConstInt(g->i64, offset, 0)}, 1, "");
}

static void gen_call(jit_gen *g, const emu_program *p, uint32_t index) {
    const emu_op *op = &p->ops.data[index];
    LLVMValueRef pc = thread_field(g, offsetof(emu_thread, pc));
    LLVMBuildStore(g->b, c32(g, index), pc);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->c), (LLVMTypeRef[]){g->ptr, g->ptr}, 2, 0);
    LLVMValueRef fn = LLVMConstIntToPtr(LLVMConstInt(g->i64, (uintptr_t)op->fn, 0), g->ptr);
    LLVMValueRef at = LLVMConstIntToPtr(LLVMConstInt(g->i64, (uintptr_t)op, 0), g->ptr);
    LLVMBuildCall2(g->b, fty, fn, (LLVMValueRef[]){g->thread, at}, 2, "");
    LLVMValueRef done = thread_field(g, offsetof(emu_thread, done));
    LLVMValueRef ended =
        LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildLoad2(g->b, g->i8, done, ""), LLVMConstInt(g->i8, 0, 0), "");
    LLVMValueRef fn_ir = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    LLVMBasicBlockRef go_on = LLVMAppendBasicBlockInContext(g->c, fn_ir, "on");
    if (!g->stop) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
        g->stop = LLVMAppendBasicBlockInContext(g->c, fn_ir, "stop");
        LLVMPositionBuilderAtEnd(g->b, g->stop);
        LLVMValueRef flag = LLVMConstInt(g->i64, JIT_STOPPED, 0);
        LLVMBuildRet(g->b, g->trips ? LLVMBuildOr(g->b, g->trips, flag, "") : flag);
        LLVMPositionBuilderAtEnd(g->b, here);
    }
    LLVMBasicBlockRef fault = LLVMAppendBasicBlockInContext(g->c, fn_ir, "fault");
    LLVMBuildCondBr(g->b, ended, fault, go_on);
    LLVMPositionBuilderAtEnd(g->b, fault); /* pc at the op, whether or not its handler moved on */
    LLVMBuildStore(g->b, c32(g, index), pc);
    LLVMBuildBr(g->b, g->stop);
    LLVMPositionBuilderAtEnd(g->b, go_on);
}

/* A call of C function fn (by its address) of type fty. */
static LLVMValueRef call_c(jit_gen *g, LLVMTypeRef fty, const void *fn, LLVMValueRef *args, unsigned n) {
    LLVMValueRef f = LLVMConstIntToPtr(LLVMConstInt(g->i64, (uintptr_t)fn, 0), g->ptr);
    return LLVMBuildCall2(g->b, fty, f, args, n, "");
}

static LLVMValueRef at_window(jit_gen *g, size_t offset) {
    return LLVMBuildGEP2(g->b, g->i8, g->window, (LLVMValueRef[]){LLVMConstInt(g->i64, offset, 0)}, 1, "");
}

/* Op `index`, a plain load (emu_lsc_plain_load, which says what it does) in compiled code: the
** lanes' addresses and the window check in vector form, then a masked gather into the enabled
** lanes; no enabled lane does nothing (as the handler); no window or a lane outside it goes to the
** handler, which does the message (and reports the fault) as the interpreter would. */
static void gen_lsc_load(jit_gen *g, const emu_program *p, uint32_t index, const emu_lsc_plain *d) {
    const emu_op *op = &p->ops.data[index];
    unsigned n = op->exec;
    LLVMTypeRef v64 = LLVMVectorType(g->i64, n), et = d->bytes == 4 ? g->i32 : g->i64, vt = LLVMVectorType(et, n);
    LLVMValueRef a;
    if (d->a64) { /* lane_addr: a * scale + imm */
        a = load(g, v64, at_file(g, op->src[1].off));
        if (op->target != 1) a = LLVMBuildMul(g->b, a, splat(g, LLVMConstInt(g->i64, op->target, 0), n), "");
        a = LLVMBuildAdd(g->b, a, splat(g, LLVMConstInt(g->i64, (uint64_t)(int64_t)op->imm, 0), n), "");
    } else { /* the same in 32 bits */
        LLVMValueRef a32 = load(g, LLVMVectorType(g->i32, n), at_file(g, op->src[1].off));
        a32 = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, a32, vi32(g, op->target, n), ""), vi32(g, (uint32_t)op->imm, n), "");
        a = LLVMBuildZExt(g->b, a32, v64, "");
    }
    if (d->slm) a = LLVMBuildAnd(g->b, a, splat(g, LLVMConstInt(g->i64, EMU_SLM_OFFSET_MASK, 0), n), "");
    LLVMValueRef chen = enables(g, op);
    if (!chen) chen = c32(g, emu_lanes_mask(n));
    LLVMValueRef fn_ir = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    LLVMBasicBlockRef some = LLVMAppendBasicBlockInContext(g->c, fn_ir, "lanes"),
                      fast = LLVMAppendBasicBlockInContext(g->c, fn_ir, "gather"),
                      slow = LLVMAppendBasicBlockInContext(g->c, fn_ir, "handler"),
                      next = LLVMAppendBasicBlockInContext(g->c, fn_ir, "loaded");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, chen, c32(g, 0), ""), some, next);
    LLVMPositionBuilderAtEnd(g->b, some);
    /* the window holding the first enabled lane (C's bool comes back in the low byte) */
    LLVMValueRef first = intrinsic(g, "llvm.cttz", g->i32, (LLVMValueRef[]){chen, LLVMConstInt(g->i1, 1, 0)}, 2);
    LLVMValueRef a0 = LLVMBuildExtractElement(g->b, a, first, "");
    LLVMValueRef at_op = LLVMConstIntToPtr(LLVMConstInt(g->i64, (uintptr_t)op, 0), g->ptr);
    LLVMTypeRef fty = LLVMFunctionType(g->i8, (LLVMTypeRef[]){g->ptr, g->ptr, g->i64, g->ptr}, 4, 0);
    LLVMValueRef found = call_c(g, fty, (const void *)emu_lsc_window, (LLVMValueRef[]){g->thread, at_op, a0, g->window}, 4);
    LLVMValueRef ok = LLVMBuildICmp(g->b, LLVMIntNE, found, LLVMConstInt(g->i8, 0, 0), "");
    LLVMValueRef lo = LLVMBuildLoad2(g->b, g->i64, at_window(g, offsetof(emu_window, lo)), "");
    LLVMValueRef size = LLVMBuildLoad2(g->b, g->i64, at_window(g, offsetof(emu_window, size)), "");
    LLVMValueRef host = LLVMBuildLoad2(g->b, g->ptr, at_window(g, offsetof(emu_window, host)), "");
    LLVMValueRef bytes = LLVMConstInt(g->i64, (uint64_t)d->elems * d->bytes, 0);
    LLVMValueRef off = LLVMBuildSub(g->b, a, splat(g, lo, n), "");
    LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULE, off, splat(g, LLVMBuildSub(g->b, size, bytes, ""), n), "");
    LLVMValueRef bits = n < 32 ? LLVMBuildTrunc(g->b, chen, LLVMIntTypeInContext(g->c, n), "") : chen;
    LLVMValueRef lanes = LLVMBuildBitCast(g->b, bits, LLVMVectorType(g->i1, n), "");
    LLVMValueRef out = LLVMBuildAnd(g->b, lanes, LLVMBuildNot(g->b, in, ""), "");
    LLVMValueRef any_out = intrinsic(g, "llvm.vector.reduce.or", LLVMVectorType(g->i1, n), &out, 1);
    ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, size, bytes, ""), "");
    LLVMBuildCondBr(g->b, LLVMBuildAnd(g->b, ok, LLVMBuildNot(g->b, any_out, ""), ""), fast, slow);
    LLVMPositionBuilderAtEnd(g->b, fast);
    for (unsigned k = 0; k < d->elems; k++) {
        LLVMValueRef ek = k ? LLVMBuildAdd(g->b, off, splat(g, LLVMConstInt(g->i64, (uint64_t)k * d->bytes, 0), n), "")
                            : off;
        LLVMValueRef ptrs = LLVMBuildGEP2(g->b, g->i8, host, &ek, 1, "");
        LLVMValueRef dst = at_file(g, op->src[0].off + k * d->stride);
        LLVMValueRef args[4] = {ptrs, c32(g, 1), lanes, load(g, vt, dst)};
        LLVMTypeRef tys[2] = {vt, LLVMVectorType(g->ptr, n)};
        store(g, intrinsic_of(g, "llvm.masked.gather", tys, 2, args, 4), dst);
    }
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, slow);
    gen_call(g, p, index);
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
}

static void gen_body(jit_gen *g, const emu_program *p, const emu_jit_block *blk) {
    for (uint32_t i = blk->first; i < blk->body_end; i++) {
        const emu_op *op = &p->ops.data[i];
        emu_lsc_plain load;
        if (op->form == VISA_FORM_LABEL) continue;
        if (compilable(p, op)) op->form == VISA_FORM_CMP ? gen_cmp(g, op) : gen_alu(g, op);
        else if (emu_lsc_plain_load(p, op, &load)) gen_lsc_load(g, p, i, &load);
        else gen_call(g, p, i);
    }
}

/* One function for block blk: straight-line, or the loop closed by its jmp. */
static void gen_function(jit_gen *g, const emu_program *p, const emu_jit_block *blk, const char *name, bool full) {
    LLVMTypeRef params[5] = {g->ptr, g->ptr, g->i32, g->i64, g->ptr};
    LLVMValueRef fn = LLVMAddFunction(g->m, name, LLVMFunctionType(g->i64, params, 5, 0));
    /* file and predicates are separate arrays: nothing a store to one changes is read from the
    ** other; unless a handler is called, which reaches both through the thread */
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    if (!blk->calls) {
        LLVMAddAttributeAtIndex(fn, 1, LLVMCreateEnumAttribute(g->c, noalias, 0));
        LLVMAddAttributeAtIndex(fn, 2, LLVMCreateEnumAttribute(g->c, noalias, 0));
    }
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(g->c, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
    if (g->vec512) { /* 16 f / 32 hf lanes per register: the width the AVX-512 handlers use (fast.c) */
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(g->c, "prefer-vector-width", 19, "512", 3));
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(g->c, "min-legal-vector-width", 22, "512", 3));
    }
    g->file = LLVMGetParam(fn, 0);
    g->pred = LLVMGetParam(fn, 1);
    g->em = LLVMGetParam(fn, 2);
    g->thread = LLVMGetParam(fn, 4);
    g->trips = NULL;
    g->stop = NULL;
    g->full = full;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry");
    LLVMPositionBuilderAtEnd(g->b, entry);
    g->window = blk->calls ? LLVMBuildAlloca(g->b, LLVMVectorType(g->i64, 4), "window") : NULL; /* 32 >= its bytes */
    if (!blk->loop) {
        gen_body(g, p, blk);
        LLVMBuildRet(g->b, LLVMConstInt(g->i64, 1, 0));
        return;
    }
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->c, fn, "trip");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->c, fn, "out");
    LLVMBuildBr(g->b, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef trips = g->trips = LLVMBuildPhi(g->b, g->i64, "trips");
    gen_body(g, p, blk);
    const emu_op *jmp = &p->ops.data[blk->body_end];
    LLVMValueRef taken = LLVMConstInt(g->i1, 1, 0), split = LLVMConstInt(g->i1, 0, 0);
    if (jmp->form == VISA_FORM_GOTO && jmp->exec > 1) {
        /* h_goto's lanes: ChEn at the mask offset; taken when they are every active lane, split
        ** (JIT_AT_EDGE) when some */
        LLVMValueRef chen = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, g->em, c32(g, jmp->mask_off), ""),
                                         c32(g, emu_lanes_mask(jmp->exec)), "");
        if (jmp->pred_id) chen = LLVMBuildAnd(g->b, chen, pred_bits(g, jmp), "");
        LLVMValueRef lanes = LLVMBuildShl(g->b, chen, c32(g, jmp->mask_off), "");
        taken = LLVMBuildICmp(g->b, LLVMIntEQ, lanes, g->em, "");
        split =
            LLVMBuildAnd(g->b, LLVMBuildNot(g->b, taken, ""), LLVMBuildICmp(g->b, LLVMIntNE, lanes, c32(g, 0), ""), "");
    } else if (jmp->pred_id) { /* emu_uniform_pred: PMask[0] */
        taken = LLVMBuildTrunc(g->b, pred_bits(g, jmp), g->i1, "");
    }
    LLVMValueRef next = LLVMBuildAdd(g->b, trips, LLVMConstInt(g->i64, 1, 0), "");
    LLVMValueRef more = LLVMBuildAnd(g->b, taken, LLVMBuildICmp(g->b, LLVMIntULT, next, LLVMGetParam(fn, 3), ""), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMBuildCondBr(g->b, more, body, out);
    LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0);
    LLVMValueRef in_v[2] = {zero, next};
    LLVMBasicBlockRef in_b[2] = {entry, latch};
    LLVMAddIncoming(trips, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(g->b, out);
    LLVMValueRef flag = LLVMBuildShl(g->b, LLVMBuildZExt(g->b, taken, g->i64, ""), LLVMConstInt(g->i64, 63, 0), "");
    LLVMValueRef at_edge = LLVMBuildShl(g->b, LLVMBuildZExt(g->b, split, g->i64, ""), LLVMConstInt(g->i64, 61, 0), "");
    LLVMBuildRet(g->b, LLVMBuildOr(g->b, LLVMBuildOr(g->b, next, flag, ""), at_edge, ""));
}

/* -- Building ------------------------------------------------------------------------------------ */

/* The host CPU for the program's ISA level: the host itself at its best level, else a generic CPU
** with exactly the level's units (VISA_EMU_ISA), as the fast handlers are built. */
static LLVMTargetMachineRef target_machine(const emu_program *p, const char *triple, char *err, size_t cap) {
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        snprintf(err, cap, "%s", msg ? msg : "no target");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    char *cpu = NULL, *feat = NULL;
    const char *c = "x86-64", *f = "";
#if defined(__x86_64__)
    if (p->isa == EMU_ISA_AVX512) c = cpu = LLVMGetHostCPUName(), f = feat = LLVMGetHostCPUFeatures();
    else if (p->isa == EMU_ISA_AVX2) f = "+avx2,+fma,+f16c,+bmi,+bmi2,+popcnt";
#else
    c = cpu = LLVMGetHostCPUName(), f = feat = LLVMGetHostCPUFeatures();
#endif
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, c, f, LLVMCodeGenLevelAggressive,
                                                      LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(feat);
    if (!tm) snprintf(err, cap, "no target machine for %s", triple);
    return tm;
}

static void error_text(LLVMErrorRef e, char *err, size_t cap) {
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, cap, "%s", msg);
    LLVMDisposeErrorMessage(msg);
}

/* Blocks per LLVM module: a compilation checks between modules whether it is still wanted, so
** freeing a program waits for one module's compilation at most. */
#define JIT_CHUNK_OPS 256u

static void new_types(jit_gen *g, LLVMContextRef c) {
    g->c = c;
    g->i1 = LLVMInt1TypeInContext(c), g->i8 = LLVMInt8TypeInContext(c), g->i16 = LLVMInt16TypeInContext(c);
    g->i32 = LLVMInt32TypeInContext(c), g->i64 = LLVMInt64TypeInContext(c);
    g->f16 = LLVMHalfTypeInContext(c), g->f32 = LLVMFloatTypeInContext(c), g->f64 = LLVMDoubleTypeInContext(c);
    g->ptr = LLVMPointerTypeInContext(c, 0);
}

/* Blocks [first, last) as one module: generated, verified, optimised, added to jit and looked up
** (which compiles them) into their blocks' functions (read only once the op array is published). */
static bool compile_chunk(const emu_program *p, struct emu_jit *j, jit_gen *g, LLVMOrcThreadSafeContextRef tsc,
                          LLVMTargetMachineRef tm, const char *triple, uint32_t first, uint32_t last) {
    char *err = j->error, name[32];
    size_t cap = sizeof j->error;
    LLVMModuleRef m = g->m = LLVMModuleCreateWithNameInContext("visa", g->c);
    LLVMSetTarget(m, triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    for (uint32_t i = first; i < last; i++) {
        snprintf(name, sizeof name, "visa_b%u_full", i);
        gen_function(g, p, &j->blocks[i], name, true);
        snprintf(name, sizeof name, "visa_b%u_mask", i);
        gen_function(g, p, &j->blocks[i], name, false);
    }
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        snprintf(err, cap, "generated code does not verify: %.200s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(m);
        return false;
    }
    LLVMDisposeMessage(msg);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "default<O3>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e) e = LLVMOrcLLJITAddLLVMIRModule(j->code, LLVMOrcLLJITGetMainJITDylib(j->code),
                                            LLVMOrcCreateNewThreadSafeModule(m, tsc)); /* m is LLVM's either way */
    else LLVMDisposeModule(m);
    for (uint32_t i = 2 * first; !e && i < 2 * last; i++) {
        LLVMOrcExecutorAddress a;
        snprintf(name, sizeof name, i % 2 ? "visa_b%u_mask" : "visa_b%u_full", i / 2);
        if (!(e = LLVMOrcLLJITLookup(j->code, &a, name))) /* an executor address is the function's host address */
            *(i % 2 ? &j->blocks[i / 2].masked : &j->blocks[i / 2].full) = (jit_fn)(uintptr_t)a;
    }
    if (e) error_text(e, err, cap);
    return !e;
}

/* Compile every block into j->code and the blocks' functions, a module of about JIT_CHUNK_OPS ops at a time.
** False with a reason in j->error when LLVM refuses or the program is being freed. */
static bool compile(const emu_program *p, struct emu_jit *j) {
    char *err = j->error;
    size_t cap = sizeof j->error;
    const char *why = emu_llvm_load(); /* the library and its native target, once per process */
    if (why) {
        snprintf(err, cap, "%s", why);
        return false;
    }
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetMachineRef tm = target_machine(p, triple, err, cap),
                         tm_jit = tm ? target_machine(p, triple, err, cap) : NULL;
    LLVMOrcThreadSafeContextRef tsc = NULL;
    LLVMBuilderRef b = NULL;
    bool ok = false;
    if (!tm || !tm_jit) goto done;
    LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm_jit));
    tm_jit = NULL; /* owned by the builder now */
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->code, jb);
    if (e) {
        error_text(e, err, cap);
        j->code = NULL;
        goto done;
    }
    tsc = LLVMOrcCreateNewThreadSafeContext();
    jit_gen g = {0};
    new_types(&g, LLVMOrcThreadSafeContextGetContext(tsc));
    g.b = b = LLVMCreateBuilderInContext(g.c);
#if defined(__x86_64__)
    g.f16c = g.fused = p->isa >= EMU_ISA_AVX2;
    g.vec512 = p->isa == EMU_ISA_AVX512;
#endif
    ok = true;
    for (uint32_t first = 0, last; ok && first < j->nblocks; first = last) {
        uint32_t ops = 0;
        for (last = first; last < j->nblocks && (last == first || ops < JIT_CHUNK_OPS); last++)
            ops += j->blocks[last].body_end - j->blocks[last].first;
        if (atomic_load_explicit(&j->abandon, memory_order_relaxed)) {
            snprintf(err, cap, "not compiled: the kernel was released first");
            ok = false;
        } else ok = compile_chunk(p, j, &g, tsc, tm, triple, first, last);
    }
done:
    if (b) LLVMDisposeBuilder(b);
    if (tsc) LLVMOrcDisposeThreadSafeContext(tsc);
    if (tm) LLVMDisposeTargetMachine(tm);
    if (tm_jit) LLVMDisposeTargetMachine(tm_jit);
    LLVMDisposeMessage(triple);
    if (!ok && j->code) {
        LLVMOrcDisposeLLJIT(j->code);
        j->code = NULL;
    }
    return ok;
}

/* Compile the planned blocks and publish the op array that runs them. */
static void compile_now(const emu_program *p) {
    struct emu_jit *j = p->jit;
    emu_llvm_busy(true);
    bool ok = compile(p, j);
    emu_llvm_busy(false);
    if (ok) atomic_store_explicit(&j->ready, j->ops, memory_order_release);
    atomic_store_explicit(&j->state, ok ? JIT_READY : JIT_FAILED, memory_order_release);
}

static void *compile_thread(void *arg) {
    compile_now(arg);
    return NULL;
}

/* The kernel is hot: its blocks are compiled once, by the first thread to get here (which starts
** a thread for it unless the program says wait, or no thread can be had). */
static void start_compile(const emu_program *p) {
    struct emu_jit *j = p->jit;
    unsigned planned = JIT_PLANNED;
    if (!atomic_compare_exchange_strong(&j->state, &planned, JIT_COMPILING)) return;
    if (!j->wait && !pthread_create(&j->thread, NULL, compile_thread, (void *)p)) {
        j->threaded = true;
        return;
    }
    compile_now(p);
}

const emu_op *emu_jit_ops(const emu_program *p) {
    return p->jit ? atomic_load_explicit(&p->jit->ready, memory_order_acquire) : NULL;
}

bool emu_jit_heat(emu_thread *t) {
    struct emu_jit *j = t->prog->jit;
    uint64_t add = t->steps > t->heat_noted ? t->steps - t->heat_noted : 0;
    t->heat_noted = t->steps;
    if (atomic_load_explicit(&j->state, memory_order_relaxed) == JIT_PLANNED &&
        atomic_fetch_add_explicit(&j->heat, add, memory_order_relaxed) + add >= j->hot)
        start_compile(t->prog);
    return atomic_load_explicit(&j->ready, memory_order_acquire) != NULL;
}

void emu_jit_note_compiled(emu_thread *t) {
    if (!t->jit_steps) return;
    atomic_fetch_add_explicit(&t->prog->jit->compiled_steps, t->jit_steps, memory_order_relaxed);
    t->jit_steps = 0;
}

bool emu_jit_compiled(const emu_program *p) { return emu_jit_ops(p) != NULL; }

uint64_t emu_jit_compiled_steps(const emu_program *p) {
    return p->jit ? atomic_load_explicit(&p->jit->compiled_steps, memory_order_relaxed) : 0;
}

const char *emu_jit_error(const emu_program *p) {
    return p->jit && atomic_load_explicit(&p->jit->state, memory_order_acquire) == JIT_FAILED ? p->jit->error : "";
}

/* The blocks the tier compiles, in program order.  A straight-line run is worth compiling by
** default when it is long: below that, calling it costs about what the dispatches it saves do. */
#define JIT_MIN_RUN_OPS 16u
typedef VEC(emu_jit_block) jit_block_vec;
static visa_status plan_blocks(const emu_program *p, jit_block_vec *blocks) {
    uint32_t n = p->ops.len;
    for (uint32_t i = 0; i < n;) {
        const emu_op *op = &p->ops.data[i];
        bool label = op->form == VISA_FORM_LABEL;
        if (!label && !compilable(p, op) && !callable(p, op)) {
            i++;
            continue;
        }
        /* a run: an optional label, then compilable or callable ops none of which control can enter */
        uint32_t end = i + 1, ops = !label;
        while (end < n && !p->ops.data[end].join && p->ops.data[end].form != VISA_FORM_LABEL &&
               (compilable(p, &p->ops.data[end]) || callable(p, &p->ops.data[end])))
            end++, ops++;
        emu_jit_block blk = {.first = i, .body_end = end};
        const emu_op *next = end < n ? &p->ops.data[end] : NULL;
        blk.loop = next && back_edge(next, i);
        bool worth = p->tier == EMU_TIER_JIT_ALL ? ops >= 1 : blk.loop || ops >= JIT_MIN_RUN_OPS;
        if (ops && worth) {
            for (uint32_t k = i; k < end; k++) {
                const emu_op *o = &p->ops.data[k];
                if (!o->nomask && o->form != VISA_FORM_LABEL) blk.need |= emu_lanes_mask(o->exec) << o->mask_off;
                blk.fenv |= o->fenv != 0;
                blk.calls |= o->form != VISA_FORM_LABEL && !compilable(p, o);
            }
            if (!vec_push(p->ctx, blocks, blk)) return VISA_E_NOMEM;
        }
        i = end;
    }
    return VISA_OK;
}

static void free_jit(visa_ctx *ctx, struct emu_jit *j, uint32_t nops) {
    if (j->code) LLVMOrcDisposeLLJIT(j->code);
    vx_free(ctx, j->blocks, sizeof(emu_jit_block) * j->cap);
    vx_free(ctx, j->ops, sizeof(emu_op) * nops);
    vx_free(ctx, j, sizeof *j);
}

visa_status emu_jit_build(emu_program *p, uint64_t hot, bool wait, diag_sink *ds) {
    if (p->tier == EMU_TIER_INTERP || p->generic || !p->ops.len) return VISA_OK;
    uint32_t n = p->ops.len;
    jit_block_vec blocks = {0};
    if (plan_blocks(p, &blocks) != VISA_OK) {
        vec_free(p->ctx, &blocks);
        return VISA_E_NOMEM;
    }
    if (!blocks.len) return VISA_OK;
    struct emu_jit *j = vx_alloc(p->ctx, sizeof *j);
    if (j) {
        memset(j, 0, sizeof *j);
        j->blocks = blocks.data, j->nblocks = blocks.len, j->cap = blocks.cap;
        j->ops = vx_alloc(p->ctx, sizeof(emu_op) * n);
    }
    if (!j || !j->ops) {
        if (j) free_jit(p->ctx, j, n);
        else vec_free(p->ctx, &blocks);
        return VISA_E_NOMEM;
    }
    memcpy(j->ops, p->ops.data, sizeof(emu_op) * n);
    for (uint32_t i = 0; i < j->nblocks; i++) {
        j->ops[j->blocks[i].first].fn = emu_jit_block_op;
        j->ops[j->blocks[i].first].aux = &j->blocks[i];
    }
    j->hot = hot;
    j->wait = wait;
    p->jit = j;
    p->jit_blocks = j->nblocks;
    if (p->tier != EMU_TIER_JIT_ALL && hot) return VISA_OK; /* compiled when hot (emu_jit_heat) */
    atomic_store(&j->state, JIT_COMPILING);
    compile_now(p);
    if (emu_jit_compiled(p) || p->tier != EMU_TIER_JIT_ALL) return VISA_OK; /* else interpreted: emu_jit_error */
    emu_diag(ds, EDIAG_JIT_FAILED, 0, 0, j->error);
    return VISA_E_UNSUPPORTED;
}

void emu_jit_free(emu_program *p) {
    struct emu_jit *j = p->jit;
    if (!j) return;
    if (j->threaded) {
        atomic_store(&j->abandon, true);
        pthread_join(j->thread, NULL);
    }
    free_jit(p->ctx, j, p->ops.len);
    p->jit = NULL;
}
#endif
