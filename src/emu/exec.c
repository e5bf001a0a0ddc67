/* exec.c -- the semantics table (sem.def): for each form the handler that runs it and its
** lowering hook, or why it is not emulated; and the lowering hooks of the ALU
** and control-flow forms, which pick each op's compute class, binds its operands' loaders and
** storers and, where fast.c has one, a specialised handler.  The handlers themselves live with
** their families (families.h).
*/
#include <string.h>

#include "access.h"
#include "exec.h"
#include "families.h"
#include "fast.h"

/* -- Table of semantics, keyed by form (sem.def) ------------------------------------------------ */
typedef struct sem_row {
    emu_sem sem;
    uint8_t int_only, flt_only;
    const char *not_emulated; /* EMU_NOT rows: why */
} sem_row;

static bool lower_alu(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_madw(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_add3o(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_function_ref(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);
static bool lower_scalar_src(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds);

static const sem_row sem_table[VISA_FORM__COUNT] = {
#define EMU_ALU(F, fn, lower, calc, int_only, flt_only) [VISA_FORM_##F] = {{fn, lower}, int_only, flt_only, NULL},
#define EMU_SEM(F, fn, lower) [VISA_FORM_##F] = {{fn, lower}, 0, 0, NULL},
#define EMU_NOT(F, why) [VISA_FORM_##F] = {{NULL, NULL}, 0, 0, why},
#include "sem.def"
#undef EMU_ALU
#undef EMU_SEM
#undef EMU_NOT
};

const emu_sem *emu_sem_of(unsigned form) {
    return form < VISA_FORM__COUNT && sem_table[form].sem.fn ? &sem_table[form].sem : NULL;
}

const char *emu_not_emulated(unsigned form) { return form < VISA_FORM__COUNT ? sem_table[form].not_emulated : NULL; }

static bool lower_alu(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    const sem_row *a = &sem_table[in->form];
    /* compute class: the execution type comes from the sources (float if any source is a float,
    ** integer otherwise; an integer result is then converted to a float destination, rounding
    ** once); math functions always compute in float */
    bool flt = a->flt_only;
    if (!a->int_only) {
        for (unsigned k = 0; k < op->nsrc; k++)
            if (emu_is_float_type(op->src[k].type) || (op->src[k].shape == EO_IMM && op->src[k].type == VISA_TYPE_VF))
                flt = true;
    }
    /* MOV and SEL within one float type, without modifiers or saturation, copy bits (signalling
    ** NaNs and payloads included): no float operation happens */
    if ((in->form == VISA_FORM_MOV || in->form == VISA_FORM_SEL) && flt && !op->sat &&
        emu_is_float_type(op->dst.type)) {
        bool copy = true;
        for (unsigned k = 0; k < op->nsrc; k++)
            copy = copy && op->src[k].type == op->dst.type && op->src[k].mod == VM_NONE;
        if (copy) {
            flt = false;
            op->dst.type = emu_bits_type(op->dst.size);
            for (unsigned k = 0; k < op->nsrc; k++) op->src[k].type = emu_bits_type(op->src[k].size);
        }
    }
    op->cls = flt ? EC_FLT : EC_INT;
    op->calc = emu_alu_calc(in->form);
    /* single precision when the destination is F and no source is wider */
    op->fsingle = flt && op->dst.type == VISA_TYPE_F;
    for (unsigned k = 0; k < op->nsrc; k++)
        if (op->src[k].size > 4) op->fsingle = 0;
    /* %cr0 rounding and denormal modes matter when a float is read or written */
    op->fenv = flt || emu_is_float_type(op->dst.type);
    op->dst.mod = op->sat ? VM_SAT : VM_NONE;
    bool ok = emu_bind_opnd(&op->dst, op->cls) && (isa_form_ndst(in->form) < 2 || emu_bind_opnd(&op->dst2, op->cls));
    for (unsigned k = 0; k < op->nsrc; k++) ok = ok && emu_bind_opnd(&op->src[k], op->cls);
    if (!ok) {
        emu_diag(ds, EDIAG_LOWER_OPERAND_TYPES, in->line, in->col, isa_forms[in->form].name);
        return false;
    }
    if (in->form == VISA_FORM_MOV && op->nsrc == 1 && op->src[0].shape == EO_PRED && op->dst.shape != EO_PRED) {
        /* a flag copy: the whole predicate as a ud value (it read lane 0's bit, 0 or 1) */
        emu_bind_pred_value(&op->src[0]);
    }
    if (in->form == VISA_FORM_SEL) op->pred_selects = 1;
    if (in->form == VISA_FORM_CMP && op->dst.shape != EO_PRED && emu_is_float_type(op->dst.type)) {
        /* the result is a bit pattern (all ones or zeros): store it as the same-size integer */
        op->dst.type = emu_bits_type(op->dst.size);
        op->dst.store = emu_bits_store(op->dst.size);
    }
    emu_handler fast = op->fn == h_alu ? emu_fast_handler(p, op) : op->fn == h_cmp ? emu_fast_cmp(p, op) : NULL;
    if (fast) op->fn = fast;
    return true;
}

/* MADW's high dwords: the destination region moved by its span rounded up to whole GRFs. */
static bool lower_madw(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    if (!lower_alu(p, in, op, ds)) return false;
    const emu_opnd *d = &op->dst;
    uint32_t span;
    if (d->shape == EO_CONTIG) span = op->exec * d->size;
    else if (d->shape == EO_SCALAR) span = d->size;
    else if (d->shape == EO_GENERAL) span = p->lane_off.data[d->lanes * EMU_MAX_LANES + op->exec - 1] + d->size;
    else {
        emu_diag(ds, EDIAG_LOWER_MADW_INDIRECT, in->line, in->col);
        return false;
    }
    uint32_t grf = p->cur->grf_bytes, hi = (span + grf - 1) / grf * grf;
    op->dst2 = op->dst;
    op->dst2.off += hi;
    if (op->dst2.off + span > p->cur->file_bytes) {
        emu_diag(ds, EDIAG_LOWER_MADW_FILE, in->line, in->col, hi);
        return false;
    }
    return true;
}

/* ADD3O: the instruction's predicate field names the overflow destination, not a condition. */
static bool lower_add3o(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    uint32_t id = op->pred_id; /* already rebased onto the routine's predicates */
    op->pred_id = 0;
    op->pred_ctrl = 0;
    op->pred_inv = 0;
    if (!lower_alu(p, in, op, ds)) return false;
    memset(&op->dst2, 0, sizeof op->dst2);
    op->dst2.shape = EO_PRED;
    op->dst2.type = VISA_TYPE_BOOL;
    op->dst2.size = 1;
    op->dst2.off = id;
    op->dst2.bitoff = op->mask_off;
    return emu_bind_opnd(&op->dst2, EC_INT);
}

/* fcall / faddr: the named function's first op, or a handler that reports it missing. */
static const char *function_name(const emu_program *p, const ir_inst *in) {
    for (unsigned j = 0; j < in->nopnd; j++)
        if (in->opnd[j].kind == 's' || in->opnd[j].kind == 'S') return ir_str(p->cur_r, in->opnd[j].u.str);
    return "";
}

static bool lower_function_ref(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    const char *name = function_name(p, in);
    int f = ir_find_function(p->m, name);
    if ((f < 0 || p->func_op[f] == UINT32_MAX) && in->form == VISA_FORM_FADDR) {
        /* a symbol the module does not define (IGC takes the address of string constants this
        ** way): an address outside emulated memory, so using it as a pointer or calling it is a
        ** run-time error, while computing with it is not */
        op->info = 0;
        op->imm = ++p->extern_syms;
        op->target = UINT32_MAX;
        op->aux = name;
        op->fn = h_faddr;
        return emu_bind_opnd(&op->dst, EC_INT);
    }
    if (f < 0 || p->func_op[f] == UINT32_MAX) {
        op->fn = h_no_function;
        op->aux = name;
        return true;
    }
    op->target = p->func_op[f];
    op->info = (uint32_t)f + 1;
    if (in->form == VISA_FORM_FADDR && !emu_bind_opnd(&op->dst, EC_INT)) {
        emu_diag(ds, EDIAG_LOWER_FADDR_TYPE, in->line, in->col);
        return false;
    }
    return true;
}

/* ifcall, switchjmp: a scalar integer source. */
static bool lower_scalar_src(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    (void)p;
    if (op->nsrc < 1 || !emu_bind_opnd(&op->src[0], EC_INT) || emu_is_float_type(op->src[0].type)) {
        emu_diag(ds, EDIAG_LOWER_INTEGER_SOURCE, in->line, in->col, isa_forms[in->form].mnem);
        return false;
    }
    return true;
}
