/* flow.c -- control flow: jumps, SIMD goto and its join points, subroutine call / ret, function
** calls (fcall, ifcall, faddr) and multiway branches (switchjmp), as the spec's execution model
** (3_execution_model) describes them for one thread's execution mask.
*/
#include <string.h>

#include "access.h"
#include "families.h"
#include "mem.h"

/* -- Control flow ------------------------------------------------------------------------------ */
void emu_end_handler(emu_thread *t, const emu_op *op) {
    (void)op;
    t->done = true;
}

void h_nop(emu_thread *t, const emu_op *op) {
    (void)op;
    t->pc++;
}

/* jmp (JMP page): exec size 1, "the first element of the predicate" decides; taken as PMask[0]
** (the bit at the mask offset), like every other op's first channel.  A wider jmp (the table
** does not allow one) is decided the same way. */
void h_jmp(emu_thread *t, const emu_op *op) { t->pc = emu_uniform_pred(t, op) ? op->target : t->pc + 1; }

/* Next op at or after pc where lanes wait to be re-enabled; the end op if none. */
static uint32_t next_waiting(const emu_thread *t, uint32_t pc) {
    uint32_t n = t->prog->ops.len;
    for (uint32_t k = pc; k < n; k++)
        if (t->wait_mask[k]) return k;
    return n - 1;
}

/* goto (GOTO page, spec 3_execution_model Branch Instructions).  Exec size 1 is a uniform branch:
** every active channel branches, or none, on the predicate's value (NoMask does not change which
** channels are active then).  Wider: the channels whose ChEn is set branch. */
void h_goto(emu_thread *t, const emu_op *op) {
    uint32_t active, taken;
    if (op->exec == 1) {
        active = t->em;
        taken = emu_uniform_pred(t, op) ? active : 0;
    } else {
        active = op->nomask ? emu_lanes_mask(op->exec) << op->mask_off : t->em;
        taken = emu_chen(t, op) << op->mask_off;
    }
    if (op->target > t->pc) {
        /* forward: the taken lanes wait at the target */
        t->wait_mask[op->target] |= taken;
        t->em &= ~taken;
        t->pc = t->em ? t->pc + 1 : next_waiting(t, t->pc + 1);
    } else if (taken) {
        /* backward: the lanes not taken wait after the goto, the taken ones loop */
        uint32_t stay = active & ~taken;
        t->wait_mask[t->pc + 1] |= stay;
        t->em = taken | (t->em & ~active);
        t->pc = op->target;
    } else {
        t->pc++;
    }
}

/* Enter code at op `start` with `lanes` on, returning to the op after the current one (call,
** fcall, ifcall).  func: the function's first op, which may not be on the stack already (a
** function's variables have one copy per thread), or UINT32_MAX for a subroutine (call). */
static void push_frame(emu_thread *t, uint32_t start, uint32_t lanes, uint32_t func) {
    if (!lanes) {
        t->pc++;
        return;
    }
    for (uint32_t k = 0; func != UINT32_MAX && k < t->call_depth; k++)
        if (t->call_stack[k].func == func) {
            emu_fault(t, EDIAG_RUN_RECURSION, 0);
            return;
        }
    if (t->call_depth >= sizeof t->call_stack / sizeof t->call_stack[0]) {
        emu_fault(t, EDIAG_RUN_CALL_DEPTH, 0, sizeof t->call_stack / sizeof t->call_stack[0]);
        return;
    }
    t->call_stack[t->call_depth].ret_pc = t->pc + 1;
    t->call_stack[t->call_depth].em = t->em;
    t->call_stack[t->call_depth].func = func;
    t->call_depth++;
    t->em = lanes;
    t->pc = start;
}

/* call / ret (spec 3_execution_model, RET notes): the callee runs with the call-site lanes that
** are enabled and predicated; a predicated ret turns its lanes off, and the call returns when no
** lane is left, giving the caller back its mask. */
void h_call(emu_thread *t, const emu_op *op) {
    /* a scalar call (exec size 1, IGC's usual form) takes every active lane when its predicate
    ** holds (CALL page); a wider one the lanes whose ChEn is set */
    uint32_t lanes = op->exec == 1 ? (emu_uniform_pred(t, op) ? t->em : 0) : emu_chen(t, op) << op->mask_off;
    push_frame(t, op->target, lanes, UINT32_MAX);
}

void h_ret(emu_thread *t, const emu_op *op) {
    uint32_t lanes = !op->pred_id    ? t->em
                     : op->exec == 1 ? (emu_uniform_pred(t, op) ? t->em : 0)
                                     : emu_chen(t, op) << op->mask_off;
    t->em &= ~lanes;
    if (op->pred_id && t->em) {
        t->pc++; /* other lanes go on in the subroutine */
        return;
    }
    if (!t->call_depth) {
        t->done = true;
        return;
    }
    t->call_depth--;
    t->em = t->call_stack[t->call_depth].em;
    t->pc = t->call_stack[t->call_depth].ret_pc;
}

/* -- Functions and multiway branches ------------------------------------------------------------ */

/* Callee mask (FCALL page): a scalar call that is taken starts with all (dispatched) lanes on;
** a SIMD call with the active lanes whose predicate is set.  %arg, %retval, %sp and %fp are one
** per thread, so passing them needs no copy. */
static uint32_t callee_lanes(const emu_thread *t, const emu_op *op) {
    return op->exec == 1 ? (emu_uniform_pred(t, op) ? t->dispatch : 0) : emu_chen(t, op) << op->mask_off;
}

void h_fcall(emu_thread *t, const emu_op *op) { push_frame(t, op->target, callee_lanes(t, op), op->target); }

void h_ifcall(emu_thread *t, const emu_op *op) {
    emu_val a[EMU_MAX_LANES];
    op->src[0].load(t, &op->src[0], 1, a);
    uint64_t fa = (uint64_t)a[0].i;
    const emu_program *p = t->prog;
    if (fa == 0 || fa > p->nroutines || p->func_op[fa - 1] == UINT32_MAX || p->m->routines.data[fa - 1].is_kernel) {
        emu_fault(t, EDIAG_RUN_IFCALL_TARGET, 0, (unsigned long long)fa);
        return;
    }
    push_frame(t, p->func_op[fa - 1], callee_lanes(t, op), p->func_op[fa - 1]);
}

/* FADDR: a function's address is its routine index plus one (op->info); a symbol outside the
** module (op->imm its number) has the address the launch gives it (visa_run_opts.symbols), else
** EMU_EXTERNAL_SYMBOL_ADDRESS. */

void h_faddr(emu_thread *t, const emu_op *op) {
    emu_val v[EMU_MAX_LANES];
    const uint64_t *sym = t->mem->symbols;
    v[0].i = op->info ? op->info : sym && op->imm ? (emu_i128)sym[op->imm - 1] : (emu_i128)EMU_EXTERNAL_SYMBOL_ADDRESS;
    op->dst.store(t, &op->dst, 1, 1, v);
    t->pc++;
}

/* fcall / faddr of a name that is not a function of the module: an error when it runs. */
void h_no_function(emu_thread *t, const emu_op *op) { emu_fault(t, EDIAG_RUN_EXTERN_CALL, 0, (const char *)op->aux); }

void h_switchjmp(emu_thread *t, const emu_op *op) {
    emu_val v[EMU_MAX_LANES];
    op->src[0].load(t, &op->src[0], 1, v);
    if (v[0].i < 0 || v[0].i >= op->imm) {
        emu_fault(t, EDIAG_RUN_SWITCH_INDEX, 0, (long long)v[0].i, op->imm);
        return;
    }
    t->pc = t->prog->targets.data[op->info + (uint32_t)v[0].i];
}
