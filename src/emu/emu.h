/* emu.h -- internals of the emulator: the per-routine machine layout, the lowered program
** (one compact emu_op per instruction) and the per-thread state the interpreter runs on.
** See docs/emulator.md for the design.
*/
#ifndef VISA_EMU_H
#define VISA_EMU_H

#include <string.h>

#include "ir/ir.h"
#include "diags.h"

#define EMU_MAX_LANES 32

/* The largest per-thread variable array the emulator lays out (every variable of the kernel and
** the functions it calls); a module needing more is refused at lowering. */
#define EMU_MAX_FILE_BYTES (256u << 20)

/* -- Machine layout --------------------------------------------------------------------------- */
typedef struct emu_layout {
    uint32_t grf_bytes; /* 32 or 64 */
    uint32_t num_grf; /* NumGRF attribute (default 128) */
    uint32_t file_bytes; /* size of the flat per-thread variable array */
    uint32_t *var_off; /* byte offset of every general variable id (predefined + user) */
    uint32_t nvars;
    uint32_t *addr_base; /* first slot of each address variable in the address array */
    uint32_t naddrs;
    uint32_t addr_slot0; /* first address slot of this routine (functions follow the kernel) */
    uint32_t naddr_slots;
    uint32_t pred_base; /* predicate id k of this routine is thread predicate pred_base + k */
    uint32_t npreds; /* predicate ids 1..npreds */
    /* state variables: one ud slot per element holding its index value (MOVS; a surface input
    ** bound to buffer i holds i).  Predefined surfaces T0..T5 are the kernel's in every routine. */
    uint32_t *surf_slot; /* per surface id (T0.. incl. predefined) */
    uint32_t nsurfs;
    uint32_t *samp_slot; /* per sampler id */
    uint32_t nsamps;
    uint32_t state_end; /* slots used up to and including this routine's */
} emu_layout;

/* -- Lowered operands ------------------------------------------------------------------------- */
enum { EO_NONE, EO_CONTIG, EO_SCALAR, EO_GENERAL, EO_IMM, EO_INDIRECT, EO_VXH, EO_PRED, EO_ADDR, EO_STATE, EO_CE0 };

/* 128-bit integers hold every 64-bit value of either signedness and the exact sum or product
** of two of them, so q/uq arithmetic saturates and compares exactly (a GCC/Clang extension). */
__extension__ typedef __int128 emu_i128;
__extension__ typedef unsigned __int128 emu_u128;

typedef union emu_val {
    emu_i128 i; /* integer compute class: every integer type, exactly */
    double f; /* float compute class: every float type widened to double */
} emu_val;

struct emu_opnd;
typedef struct emu_thread emu_thread;
/* Read the exec lanes of an operand into compute-class values / write enabled lanes back. */
typedef void (*emu_load_fn)(const emu_thread *t, const struct emu_opnd *o, unsigned n, emu_val *out);
typedef void (*emu_store_fn)(emu_thread *t, const struct emu_opnd *o, unsigned n, uint32_t mask, const emu_val *in);

typedef struct emu_opnd {
    emu_load_fn load; /* chosen at lowering from type, shape and compute class */
    emu_store_fn store;
    uint8_t shape; /* EO_* */
    uint8_t type; /* isa_type of the elements */
    uint8_t mod; /* source modifier (VM_*) */
    uint8_t size; /* element bytes */
    uint32_t off; /* byte offset (direct), address slot (indirect/address), pred id */
    int32_t ind_off; /* indirect: byte offset added to the address */
    uint16_t vs, w, hs; /* region (elements) for general/indirect */
    uint8_t bitoff; /* predicate operands: first bit (the instruction's mask offset) */
    uint32_t lanes; /* EO_GENERAL: index of the lane-offset table in emu_program.lane_off */
    uint16_t ustride; /* EO_GENERAL: lane i is element i * ustride (e.g. <16;8,2>), else 0 */
    uint64_t imm; /* EO_IMM: raw bits */
} emu_opnd;

typedef struct emu_op emu_op;
typedef void (*emu_handler)(emu_thread *t, const emu_op *op);
/* An ALU form's per-lane computation over compute-class arrays (alu.c). */
typedef void (*emu_calc_fn)(const emu_op *op, unsigned n, emu_val *d, emu_val s[][EMU_MAX_LANES]);

struct emu_op {
    emu_handler fn;
    uint16_t form; /* isa_form_id, for diagnostics */
    /* the exec byte and predicate word, decoded once at lowering (emu_op_set_ctrl); handlers get
    ** channel enables and predicate bits from exec.h (emu_chen, emu_pred_bits, emu_uniform_pred) */
    uint8_t exec; /* lanes */
    uint8_t mask_off; /* first channel of the mask group (M1..M8), also the predicate's first bit */
    uint8_t nomask;
    uint8_t sat;
    uint8_t pred_selects; /* the predicate picks between sources (sel) instead of masking */
    uint8_t join; /* goto lanes can wait here (a goto target, or the op after a goto) */
    uint16_t pred_id; /* thread predicate index (rebased onto the routine's), 0 = no predicate */
    uint8_t pred_ctrl; /* IR_PRED_SEQ / IR_PRED_ANY / IR_PRED_ALL */
    uint8_t pred_inv; /* '!' */
    uint8_t nsrc;
    uint8_t cond; /* compare relation, sub-operation */
    uint32_t target; /* branch target op index */
    uint32_t info; /* message fields packed by the family's lowering (e.g. LSC) */
    int32_t imm; /* message immediate offset; ops with label operands: how many */
    uint32_t line, col; /* source position for run-time errors */
    uint8_t cls; /* compute class: EC_INT or EC_FLT */
    uint8_t fsingle; /* EC_FLT computed in single precision (an F destination, no DF source) */
    uint8_t fenv; /* a float operand: %cr0 modes other than EMU_CR0_FAST take the slow path */
    uint8_t prec_bits[2]; /* dpas: element bits of src1's and src2's precision (the table's, at lowering) */
    emu_opnd dst, dst2, src[5];
    emu_calc_fn calc;
    const void *aux; /* per-op data of message handlers */
};

enum { EC_INT = 0, EC_FLT = 1 };

/* An op's lanes, mask offset and NoMask from an exec byte (an invalid size code runs one lane). */
static inline void emu_op_set_exec(emu_op *op, uint8_t exec) {
    op->exec = (uint8_t)(ir_exec_code_valid(exec) ? ir_exec_lanes(exec) : 1);
    op->mask_off = (uint8_t)ir_exec_mask_offset(exec);
    op->nomask = ir_exec_nomask(exec);
}

/* The instruction an op was lowered from (in NULL for a routine's end op), and the program's
** source position it came from: the last FILE and LOC before it in its routine (IGC emits them for
** a -g build; LOC 0 ends a line's code).  Read only when reporting: the run loops never look. */
typedef struct emu_origin {
    const ir_routine *r;
    const ir_inst *in;
    uint32_t src_line; /* LOC; 0: none */
    uint32_t src_file; /* 1 + index into emu_program.src_files; 0: no FILE */
} emu_origin;

typedef struct emu_program {
    visa_ctx *ctx;
    const visa_module *m;
    const ir_routine *r;
    emu_layout lay;
    VEC(emu_op) ops;
    VEC(uint16_t) lane_off; /* 32 byte offsets per general-region operand */
    VEC(uint32_t) targets; /* label operands of every op: op.info is the first, op.imm the count */
    uint32_t cr0_off; /* byte offset of %cr0 in the thread's file */
    uint32_t nstate; /* state variable slots of all routines */
    visa_platform plat;
    bool generic; /* VISA_EMU_GENERIC set at lowering: no fast paths for ALU ops, dpas,
                            ** LSC loads / stores and 2D blocks (the reference the fast paths are
                            ** checked against) */
    uint8_t isa; /* EMU_ISA_*: the host vector units the fast ALU handlers use, picked once
                            ** at lowering (emu_isa_select; VISA_EMU_ISA forces a level) */
    uint8_t tier; /* EMU_TIER_* (jit.h): VISA_EMU_TIER, read once at lowering */
    struct emu_jit *jit; /* the compiled tier's blocks, their op array and code (jit.c): NULL when
                            ** no block is planned; freed with the program */
    uint32_t jit_blocks; /* blocks planned for compilation */
    bool global_atomics; /* set by message lowering: groups then run one after another, in
                            ** order, so atomics' returned values are the same for any --threads */
    uint32_t *func_op; /* per module routine: op index of its first op, UINT32_MAX if not lowered */
    uint32_t extern_syms; /* faddr ops of names the module does not define: their op->imm is 1..this,
                            ** the launch's visa_run_opts.symbols give their addresses (emu_mem.symbols) */
    VEC(emu_origin) origin; /* per op: the instruction it came from (observation, diagnostics) */
    VEC(const char *) src_files; /* FILE names of the lowered routines, each once (the module's strings) */
    uint32_t nroutines;
    /* while lowering: the routine being lowered and its layout */
    const ir_routine *cur_r;
    const emu_layout *cur;
} emu_program;

/* The source position of op pc (emu_origin): its LOC line (0: none) and *file its FILE or NULL. */
static inline uint32_t emu_src_of(const emu_program *p, uint32_t pc, const char **file) {
    const emu_origin *o = pc < p->origin.len ? &p->origin.data[pc] : NULL;
    *file = o && o->src_line && o->src_file ? p->src_files.data[o->src_file - 1] : NULL;
    return o ? o->src_line : 0;
}

/* How a launch's lanes are OpenCL work-items (docs/launch.md, "Threads per group"): with the
** OpenCL model (Target="3d") lane l of thread t is the group's work-item n = t x simd + l,
** counted x fastest; x wraps at the local size in x, y at the local size in y, z keeps counting
** (lanes past the group's end get the runtime's wrapped values).  Not opencl: a thread is one
** work-item and findings name threads only. */
typedef struct emu_items {
    bool opencl;
    uint32_t simd;
    uint32_t local[3]; /* this launch's work-items per group */
    uint32_t enqueued[3]; /* the ND-range's local size (a remainder region's groups are smaller) */
    uint32_t global_offset[3];
} emu_items;
static inline void emu_local_id(const emu_items *it, uint32_t thread, uint32_t lane, uint32_t id[3]) {
    uint64_t n = (uint64_t)thread * it->simd + lane;
    id[0] = (uint32_t)(n % it->local[0]);
    id[1] = (uint32_t)(n / it->local[0] % it->local[1]);
    id[2] = (uint32_t)(n / it->local[0] / it->local[1]);
}
#define EMU_NO_LANE UINT32_MAX /* emu_work_item (check.h): the thread, not one of its lanes */

/* Host ISA levels the fast ALU handlers are built for (fast.c). */
enum { EMU_ISA_BASELINE = 0, EMU_ISA_AVX2 = 1, EMU_ISA_AVX512 = 2 };

/* %cr0 bits the fast paths assume: IEEE mode, round to nearest even, F/DF/HF denormals kept.
** Any other value of the defined bits sends float ALU ops through the %cr0-aware path. */
#define EMU_CR0_FAST 0x4C0u
#define EMU_CR0_MODE_BITS 0x4F1u

/* -- Memory (mem.h) ---------------------------------------------------------------------------- */
typedef struct emu_mem emu_mem;

/* -- Synchronisation inside a thread group (sync.c) ------------------------------------------------
** Every barrier is a named barrier (messages.md 7.1: the workgroup barrier is id 0 with all the
** group's threads as producers and consumers).  A phase completes when its P producers have
** signalled; each consumer that signalled in it then passes its wait; after C have passed, the id
** is free again. */
typedef struct emu_nbarrier {
    uint32_t producers, consumers; /* of the current phase, from its first signal (0: idle) */
    uint32_t arrived; /* producers that signalled in the current phase */
    uint32_t phase; /* current phase number, from 1 */
    uint32_t completed; /* last completed phase */
    uint32_t passed; /* consumers of the completed phase that passed their wait */
} emu_nbarrier;

typedef struct emu_group_sync {
    emu_nbarrier bar[32];
    uint32_t nthreads;
    struct emu_thread *threads; /* the group's threads by index (DPASW pairs 2k and 2k + 1) */
} emu_group_sync;

/* -- Launch limits ------------------------------------------------------------------------------
** The thread loop checks them at back-edges, once every EMU_CHECK_STEPS instructions (run.c). */
#define EMU_CHECK_STEPS 65536u
/* Without a launch-wide bound on instructions, a launch may run this many times the per-thread limit. */
#define EMU_TOTAL_STEPS_FACTOR 100u
typedef struct emu_budget {
    uint64_t max_total; /* instructions of the whole launch, UINT64_MAX: unlimited */
    uint64_t deadline_ns; /* CLOCK_MONOTONIC deadline, 0: none */
    double timeout_s; /* what the deadline came from (for the message) */
    _Atomic uint64_t total; /* instructions reported so far by every thread */
} emu_budget;
enum { EMU_FAULT = 1, EMU_FAULT_LIMIT = 2 }; /* emu_thread.fault: a limit, not the kernel's error */

/* -- Per-thread state -------------------------------------------------------------------------- */

struct emu_thread {
    const emu_program *prog;
    uint8_t *file; /* flat variable array */
    uint32_t *addr; /* address variable slots */
    uint32_t *pred; /* predicate masks by id */
    uint32_t *state; /* state variable slots (emu_layout.surf_slot / samp_slot) */
    uint32_t pc;
    uint32_t em; /* execution mask */
    uint32_t dispatch; /* dispatch mask (SimdSize lanes): a scalar fcall's callee mask */
    uint32_t *wait_mask; /* per op index: lanes waiting to be re-enabled there (goto) */
    struct {
        uint32_t ret_pc, em, func;
    } call_stack[64]; /* return op, the caller's mask, callee start (fcall) */
    uint32_t call_depth;
    uint64_t steps, max_steps;
    emu_budget *budget; /* the launch's limits (NULL: only max_steps) */
    uint64_t reported; /* steps already added to budget->total */
    uint64_t heat_noted; /* steps already added to the program's heat (jit.c: when to compile) */
    uint64_t jit_steps; /* steps run by compiled blocks, not yet added to the program's count */
    emu_mem *mem;
    uint64_t scratch_base; /* the byte of the scratch buffer where this thread's slice starts (mem.h) */
    uint32_t group_id[3], local_id[3];
    bool done;
    /* synchronisation: a handler that must wait sets blocked (and done, which leaves the run
    ** loop); the group's scheduler resumes it at the same op */
    bool blocked;
    uint32_t blocked_at; /* pc + 1 of the op that blocked, 0 if none */
    emu_group_sync *sync;
    uint32_t nb_phase[32]; /* per barrier id: the phase this thread waits for as a consumer, 0 none */
    uint32_t index; /* thread index in the group */
    uint32_t pair_wait; /* DPASW: pc + 1 of the dpasw at which this thread waits for its partner */
    uint32_t pair_done; /* DPASW: pc + 1 of the dpasw the partner executed for this thread too */
    /* fault: set by a handler (emu_fault), stops the thread */
    int fault;
    char fault_msg[512];
    uint32_t fault_lane;
    emu_diag_id fault_diag; /* the fault's row (diags.def): its id is the run's diagnostic's */
    emu_diag_id fault_finding; /* the finding a run check turns the fault into (C-SYNCCHECK-NBARRIER,
                               ** C-MEMCHECK-ALIGN; check.c), EDIAG_NONE if none */
    struct emu_obs_group *obs; /* the observed group (observe.c), NULL when nobody observes */
};

/* -- Observation (observe.c, docs/observe.md) ------------------------------------------------------
** A run with a visa_observer prepares one emu_obs_run (per-op names and destination facts); each
** group gets an emu_obs_group that its threads point to (emu_thread.obs).  emu_run_thread then
** takes the observed loop; the plain loop never tests for an observer.  Functions: observe.h. */
typedef struct emu_obs_op emu_obs_op;
typedef struct emu_obs_run {
    visa_observer o;
    uint32_t groups[3];
    emu_obs_op *ops; /* per op of the program */
    uint32_t nops;
} emu_obs_run;
typedef struct emu_probe emu_probe; /* probe.h */
typedef struct emu_obs_group {
    const emu_probe *probe; /* what handlers report through (probe.h) */
    const emu_obs_run *run;
    void *ud; /* group_begin's result */
    uint64_t index;
    uint32_t group[3];
    uint32_t pc; /* the op being executed (memory events name it) */
    uint64_t step;
    struct emu_check_group *chk; /* run checks (check.c), NULL when none; run is NULL when only checking */
} emu_obs_group;

#endif
