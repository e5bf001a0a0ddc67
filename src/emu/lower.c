/* lower.c -- turns a routine's IR into the emulator's compact program: every operand resolved to
** a byte offset in the thread's flat array with its shape (contiguous, broadcast, general region,
** immediate, indirect), every branch target to an op index, and every instruction to a handler
** chosen from its opcode family and operand types.  Unsupported instructions are reported here,
** with their source position, before anything runs.
*/
#include <stdlib.h>
#include <string.h>

#include "lower.h"

#include "exec.h"
#include "families.h"
#include "fast.h"
#include "jit.h"
#include "opnd.h"

/* The source position ops take while lowering a routine: IGC's FILE and LOC instructions. */
typedef struct src_pos {
    uint32_t file, line; /* as emu_origin.src_file, src_line */
} src_pos;

/* Follow a FILE or LOC instruction: a FILE name goes into the program's table once. */
static bool src_pos_step(emu_program *p, const ir_inst *in, src_pos *at) {
    if (in->form == VISA_FORM_LOC && in->nopnd) at->line = (uint32_t)in->opnd[0].u.num;
    if (in->form != VISA_FORM_FILE || !in->nopnd) return true;
    const char *name = ir_str(p->cur_r, in->opnd[0].u.str);
    for (uint32_t k = 0; k < p->src_files.len; k++)
        if (!strcmp(p->src_files.data[k], name)) return at->file = k + 1, true;
    at->file = p->src_files.len + 1;
    return vec_push(p->ctx, &p->src_files, name);
}

static visa_status lower_inst(emu_program *p, const ir_inst *in, uint32_t *label_op, const src_pos *at, diag_sink *ds) {
    emu_op op;
    memset(&op, 0, sizeof op);
    op.form = in->form;
    op.line = in->line;
    op.col = in->col;
    emu_op_set_exec(&op, in->exec);
    if (ir_pred_id(in->pred)) {
        /* predicates of a function follow the kernel's */
        if (ir_pred_id(in->pred) > p->cur->npreds) {
            emu_diag(ds, EDIAG_LOWER_PRED_RANGE, in->line, in->col, ir_pred_id(in->pred), p->cur->npreds);
            return VISA_E_UNSUPPORTED;
        }
        uint32_t id = ir_pred_id(in->pred) + p->cur->pred_base;
        if (id > UINT16_MAX) {
            emu_diag(ds, EDIAG_LOWER_PRED_COUNT, in->line, in->col);
            return VISA_E_UNSUPPORTED;
        }
        op.pred_id = (uint16_t)id;
        op.pred_ctrl = (uint8_t)ir_pred_ctrl(in->pred);
        op.pred_inv = ir_pred_inverse(in->pred);
    }
    const emu_sem *sem = emu_sem_of(in->form);
    if (!sem) {
        const char *why = emu_not_emulated(in->form);
        emu_diag(ds, EDIAG_LOWER_NOT_EMULATED, in->line, in->col, isa_forms[in->form].name,
                 why ? why : "it has no row in src/emu/sem.def");
        return VISA_E_UNSUPPORTED;
    }
    op.fn = sem->fn;
    op.aux = sem;
    /* operands in layout order: the leading vector operands the table calls destinations
    ** (isa_form_ndst: one for an ALU form) go to dst and dst2 */
    unsigned nv = 0, ndst = isa_form_ndst(in->form);
    for (unsigned k = 0; k < in->nopnd; k++) {
        const ir_opnd *o = &in->opnd[k];
        switch (o->kind) {
        case 'V':
        case 'v':
        case '&': {
            bool is_dst = nv < ndst;
            emu_opnd *slot = nv == 0 && ndst >= 1   ? &op.dst
                             : nv == 1 && ndst == 2 ? &op.dst2
                                                    : &op.src[op.nsrc < 5 ? op.nsrc : 4];
            if (!emu_lower_vec(p, in, &o->u.vec, op.exec, is_dst, slot, ds)) return VISA_E_UNSUPPORTED;
            if (!is_dst) op.nsrc++;
            if (is_dst && o->u.vec.mod == VM_SAT) op.sat = 1;
            nv++;
            break;
        }
        case 'R': {
            emu_opnd *slot = &op.src[op.nsrc < 5 ? op.nsrc : 4];
            if (!emu_lower_raw(p, in, &o->u.raw, slot, ds)) return VISA_E_UNSUPPORTED;
            op.nsrc++;
            break;
        }
        case 'L': {
            /* every label operand goes to the target table (switchjmp has a list of them); a
            ** single-target branch also keeps its target in op.target */
            uint32_t target = o->u.label < p->cur_r->labels.len ? label_op[o->u.label] : UINT32_MAX;
            if (target == UINT32_MAX) {
                emu_diag(ds, EDIAG_LOWER_LABEL_UNDEFINED, in->line, in->col);
                return VISA_E_UNSUPPORTED;
            }
            if (!op.imm) {
                op.target = target;
                op.info = p->targets.len;
            }
            op.imm++;
            if (!vec_push(p->ctx, &p->targets, target)) return VISA_E_NOMEM;
            break;
        }
        default:
            /* integer fields: kept for the handler in cond (first byte field) */
            if (k < 8) op.cond = op.cond ? op.cond : (uint8_t)o->u.num;
            break;
        }
    }
    if (isa_forms[in->form].parent >= 0) op.cond = (uint8_t)isa_forms[in->form].sub;
    /* predicate operands start at the instruction's mask offset (5_operands) */
    emu_opnd *all[] = {&op.dst, &op.dst2, &op.src[0], &op.src[1], &op.src[2], &op.src[3], &op.src[4]};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        if (all[k]->shape == EO_PRED) all[k]->bitoff = op.mask_off;
    if (sem->lower && !sem->lower(p, in, &op, ds)) return VISA_E_UNSUPPORTED;
    emu_origin from = {p->cur_r, in, at->line, at->file};
    return vec_push(p->ctx, &p->ops, op) && vec_push(p->ctx, &p->origin, from) ? VISA_OK : VISA_E_NOMEM;
}

/* The routines a kernel can reach: itself, then every function named by an fcall or faddr of a
** routine already in the list (breadth first).  Returns the count. */
static uint32_t reachable_routines(const visa_module *m, uint32_t kernel, uint32_t *order) {
    uint32_t n = 0;
    order[n++] = kernel;
    for (uint32_t k = 0; k < n; k++) {
        const ir_routine *r = &m->routines.data[order[k]];
        for (uint32_t i = 0; i < r->insts.len; i++) {
            const ir_inst *in = &r->insts.data[i];
            if (in->form != VISA_FORM_FCALL && in->form != VISA_FORM_FADDR) continue;
            for (unsigned j = 0; j < in->nopnd; j++) {
                if (in->opnd[j].kind != 's' && in->opnd[j].kind != 'S') continue;
                int f = ir_find_function(m, ir_str(r, in->opnd[j].u.str));
                bool seen = f < 0;
                for (uint32_t q = 0; q < n && !seen; q++) seen = order[q] == (uint32_t)f;
                if (!seen) order[n++] = (uint32_t)f;
            }
        }
    }
    return n;
}

/* Lower one routine whose first op will be op index `base`; ends with an op that ends the thread
** (kernel) or returns (function) when control falls off the end. */
static visa_status lower_routine(emu_program *p, uint32_t base, diag_sink *ds) {
    const ir_routine *r = p->cur_r;
    visa_ctx *ctx = p->ctx;
    /* label id -> op index: a label's op is the LABEL/SUBROUTINE instruction itself */
    uint32_t *label_op = vx_alloc(ctx, sizeof(uint32_t) * (r->labels.len + 1));
    if (!label_op) return VISA_E_NOMEM;
    for (uint32_t i = 0; i < r->labels.len; i++) label_op[i] = UINT32_MAX;
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *in = &r->insts.data[i];
        if ((isa_forms[in->form].flags & VF_LABEL_DEF) && in->nopnd && in->opnd[0].u.label < r->labels.len)
            label_op[in->opnd[0].u.label] = base + i;
    }
    visa_status st = VISA_OK;
    src_pos at = {0, 0}; /* a routine's positions start unknown (IGC gives each its FILE) */
    for (uint32_t i = 0; i < r->insts.len; i++) {
        if (!src_pos_step(p, &r->insts.data[i], &at)) {
            st = VISA_E_NOMEM;
            break;
        }
        visa_status s = lower_inst(p, &r->insts.data[i], label_op, &at, ds);
        if (s != VISA_OK && st == VISA_OK) st = s;
        if (s == VISA_E_NOMEM) break;
    }
    vx_free(ctx, label_op, sizeof(uint32_t) * (r->labels.len + 1));
    if (st == VISA_OK) {
        emu_op end;
        memset(&end, 0, sizeof end);
        end.fn = r->is_kernel ? emu_end_handler : emu_sem_of(VISA_FORM_FRET)->fn;
        end.form = r->is_kernel ? VISA_FORM_RET : VISA_FORM_FRET;
        end.line = r->line;
        emu_origin from = {r, NULL, at.line, at.file};
        if (!vec_push(ctx, &p->ops, end) || !vec_push(ctx, &p->origin, from)) st = VISA_E_NOMEM;
    }
    return st;
}

void emu_knobs_read(emu_knobs *k) {
    const char *generic = getenv("VISA_EMU_GENERIC");
    k->generic = generic && *generic && strcmp(generic, "0") != 0;
    k->isa = (uint8_t)emu_isa_select();
    k->tier = (uint8_t)emu_tier_select();
    emu_jit_knobs(&k->jit_hot, &k->jit_wait);
}

visa_status emu_lower(visa_ctx *ctx, const visa_module *m, const ir_routine *r, visa_platform plat,
                      const emu_knobs *knobs, emu_program *p, diag_sink *ds) {
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->m = m;
    p->r = r;
    p->plat = plat;
    emu_knobs env;
    if (!knobs) emu_knobs_read(&env), knobs = &env;
    p->generic = knobs->generic;
    p->isa = knobs->isa;
    p->tier = knobs->tier;
    uint32_t nr = m->routines.len;
    p->nroutines = nr;
    p->func_op = vx_alloc(ctx, sizeof(uint32_t) * nr);
    uint32_t *order = vx_alloc(ctx, sizeof(uint32_t) * nr);
    emu_layout *lays = vx_alloc(ctx, sizeof(emu_layout) * nr);
    if (!p->func_op || !order || !lays) {
        vx_free(ctx, order, sizeof(uint32_t) * nr);
        vx_free(ctx, lays, sizeof(emu_layout) * nr);
        emu_program_free(p);
        return VISA_E_NOMEM;
    }
    memset(lays, 0, sizeof(emu_layout) * nr);
    for (uint32_t i = 0; i < nr; i++) p->func_op[i] = UINT32_MAX;
    uint32_t n = reachable_routines(m, (uint32_t)(r - m->routines.data), order);
    /* op indices are known before lowering: one op per instruction plus the end op */
    for (uint32_t k = 0, base = 0; k < n; k++) {
        p->func_op[order[k]] = base;
        base += m->routines.data[order[k]].insts.len + 1;
    }
    visa_status st = VISA_OK;
    uint32_t built = 0;
    for (uint32_t k = 0; k < n && st == VISA_OK; k++, built++)
        st = emu_layout_build(ctx, &m->routines.data[order[k]], plat, k ? &lays[k - 1] : NULL, &lays[k], ds);
    if (st == VISA_OK) p->cr0_off = lays[0].var_off[VISA_PREDEF_CR0];
    for (uint32_t k = 0; k < n && st == VISA_OK; k++) {
        p->cur = &lays[k];
        p->cur_r = &m->routines.data[order[k]];
        st = lower_routine(p, p->func_op[order[k]], ds);
    }
    p->cur = NULL;
    p->cur_r = NULL;
    /* where goto leaves lanes waiting: its target (forward) or the op after it (backward) */
    for (uint32_t i = 0; st == VISA_OK && i < p->ops.len; i++) {
        if (p->ops.data[i].form != VISA_FORM_GOTO) continue;
        if (p->ops.data[i].target < p->ops.len) p->ops.data[p->ops.data[i].target].join = 1;
        if (i + 1 < p->ops.len) p->ops.data[i + 1].join = 1;
    }
    if (st == VISA_OK) {
        /* the thread's state spans every routine's */
        const emu_layout *last = &lays[n - 1];
        uint32_t file = last->file_bytes, slots = last->addr_slot0 + last->naddr_slots,
                 preds = last->pred_base + last->npreds, nstate = last->state_end;
        p->lay = lays[0];
        memset(&lays[0], 0, sizeof lays[0]); /* now owned by p->lay */
        p->lay.file_bytes = file;
        p->lay.naddr_slots = slots;
        p->lay.npreds = preds;
        p->nstate = nstate;
    }
    for (uint32_t k = 0; k < built; k++) emu_layout_free(ctx, &lays[k]);
    vx_free(ctx, order, sizeof(uint32_t) * nr);
    vx_free(ctx, lays, sizeof(emu_layout) * nr);
    if (st == VISA_OK) st = emu_jit_build(p, knobs->jit_hot, knobs->jit_wait, ds);
    if (st != VISA_OK) emu_program_free(p);
    return st;
}

void emu_program_free(emu_program *p) {
    if (!p->ctx) return;
    emu_jit_free(p);
    emu_layout_free(p->ctx, &p->lay);
    vec_free(p->ctx, &p->ops);
    vec_free(p->ctx, &p->lane_off);
    vec_free(p->ctx, &p->targets);
    vec_free(p->ctx, &p->origin);
    vec_free(p->ctx, &p->src_files);
    vx_free(p->ctx, p->func_op, sizeof(uint32_t) * p->nroutines);
    p->func_op = NULL;
}
