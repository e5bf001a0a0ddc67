/* hooks_core.c -- text syntax of the irregular core families: labels and subroutines, calls,
** debug info and lifetime, fences and barriers, raw sends and the systolic (dpas) family.
** Facts: docs/text-syntax/flow-sync-send.md; IGC IsaDisassembly.cpp printInstructionControlFlow,
** printInstructionMisc, printInstructionCommon (Sync group).
*/
#include <stdio.h>
#include <string.h>

#include "dp_layout.h"
#include "text.h"

static const ir_string *label_str(const ir_routine *r, uint32_t label) {
    static const ir_string empty = {(char *)"", 0};
    if (label >= r->labels.len || r->labels.data[label].name >= r->strings.len) return &empty;
    return &r->strings.data[r->labels.data[label].name];
}

/* -- LABEL and SUBROUTINE --------------------------------------------------------------------
** LABEL prints "\nNAME:"; SUBROUTINE prints "\n\n.function \"NAME_<id>\"\nNAME_<id>:" where the
** "_<label id>" suffix is appended unless the name already ends with it, and '.'/'$' become '_'.
*/
static void label_print(txt_printer *pr, const ir_inst *inst) {
    uint32_t id = inst->opnd[0].u.label;
    strbuf *o = pr->out;
    if (inst->form == VISA_FORM_LABEL) {
        /* the disassembly print leaves a blank line before a label; the asm-text print does not */
        if (!pr->asm_text || !o->len || o->data[o->len - 1] != '\n') sb_putc(o, '\n');
        pr_own_comments(pr, &inst->trivia);
        pr_label(pr, id);
        sb_putc(o, ':');
        return;
    }
    /* IGC 1.0 put the blank line between .function and its label */
    sb_puts(o, pr->asm_text || pr->igc1 ? "\n" : "\n\n");
    pr_own_comments(pr, &inst->trivia);
    sb_puts(o, ".function ");
    size_t at = o->len;
    pr_label(pr, id);
    size_t n = o->len - at;
    char *name = vx_strndup(o->ctx, o->data + at, n);
    o->len = at;
    if (name) pr_string_lit(pr, name, n);
    if (id < pr->r->labels.len && pr->label_renamed && pr->label_renamed[id]) {
        const ir_string *s = label_str(pr->r, id);
        sb_puts(o, " /// Original Name: ");
        pr_string_lit(pr, s->s, s->len);
    }
    sb_puts(o, pr->igc1 ? "\n\n" : "\n");
    if (name) sb_putn(o, name, n);
    vx_free(o->ctx, name, n + 1);
    sb_putc(o, ':');
}

const txt_hook txt_hook_label = {label_print, NULL};

/* -- Calls ------------------------------------------------------------------------------------ */
static void call_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    const ir_routine *r = pr->r;
    switch (isa_forms[inst->form].opcode) {
    case VISA_OP_CALL: {
        uint32_t id = inst->opnd[0].u.label;
        bool fc = id < r->labels.len && r->labels.data[id].kind == 2;
        sb_puts(o, fc ? "fccall " : "call ");
        pr_exec(pr, inst->exec);
        sb_putc(o, ' ');
        pr_label(pr, id);
        break;
    }
    case VISA_OP_IFCALL:
        sb_puts(o, "ifcall");
        if (inst->opnd[0].u.num & 1) sb_puts(o, ".uniform");
        sb_putc(o, ' ');
        pr_exec(pr, inst->exec);
        sb_putc(o, ' ');
        pr_vec(pr, &inst->opnd[1].u.vec, true);
        sb_printf(o, " %lld %lld", (long long)inst->opnd[2].u.num, (long long)inst->opnd[3].u.num);
        break;
    case VISA_OP_FADDR: {
        /* IGC prints "faddr " + exec (none) + symbol: no space before the symbol */
        sb_puts(o, "faddr ");
        pr_template(pr, "%0 %1", inst);
        break;
    }
    case VISA_OP_FCALL: {
        sb_puts(o, "fcall ");
        pr_exec(pr, inst->exec);
        sb_putc(o, ' ');
        const ir_string *s = inst->opnd[0].u.str < r->strings.len ? &r->strings.data[inst->opnd[0].u.str] : NULL;
        if (s) pr_label_text(pr, s->s, s->len);
        sb_printf(o, " %lld %lld", (long long)inst->opnd[1].u.num, (long long)inst->opnd[2].u.num);
        break;
    }
    case VISA_OP_SWITCHJMP:
        sb_puts(o, "switchjmp ");
        pr_exec(pr, inst->exec);
        sb_putc(o, ' ');
        pr_vec(pr, &inst->opnd[0].u.vec, true);
        sb_puts(o, " (");
        for (unsigned k = 1; k < inst->nopnd; k++) {
            if (k > 1) sb_puts(o, ", ");
            pr_label(pr, inst->opnd[k].u.label); /* IGC prints these raw; see pr_label_text */
        }
        sb_putc(o, ')');
        break;
    default: break;
    }
}

static bool word_is(const char *w, size_t n, const char *s) { return strlen(s) == n && memcmp(w, s, n) == 0; }

/* A vector operand whose general form must carry a region (as IGC prints it). */
static bool vec_operand(txt_parser *tp, ir_vec *v) {
    if (!tp_vec_operand(tp, v, false)) return false;
    if ((v->cls == VC_GENERAL || v->cls == VC_INDIRECT) && v->region == 0) {
        tp_error(tp, tp->p, "expected a region such as <0;1,0>");
        return false;
    }
    return true;
}

static bool call_parse(txt_parser *tp, int form, ir_inst *inst) {
    const char *w;
    size_t n = tp_word(tp, &w);
    inst->form = (uint16_t)form;
    switch (isa_forms[form].opcode) {
    case VISA_OP_CALL: {
        bool fc = word_is(w, n, "fccall");
        if (!tp_exec(tp, &inst->exec) || !tp_inst_alloc(tp, inst, 1)) return false;
        const char *name;
        size_t ln = tp_ident(tp, &name);
        if (!ln) {
            tp_error(tp, tp->p, "expected a subroutine name");
            return false;
        }
        inst->opnd[0].kind = 'L';
        if (!tp_label_ref(tp, name, ln, fc ? 2 : 1, &inst->opnd[0].u.label)) return false;
        ir_label *lab = &tp->r->labels.data[inst->opnd[0].u.label];
        if (fc) lab->kind = 2;
        else if (lab->kind == 0) lab->kind = 1;
        return true;
    }
    case VISA_OP_IFCALL: {
        if (!tp_inst_alloc(tp, inst, 4)) return false;
        inst->opnd[0].kind = 'b';
        for (;;) {
            if (tp_accept_nows(tp, ".uniform")) inst->opnd[0].u.num |= 1;
            else if (tp_accept_nows(tp, ".noreturn")) inst->opnd[0].u.num |= 2;
            else break;
        }
        if (!tp_exec(tp, &inst->exec)) return false;
        return tp_parse_opnd(tp, inst, 1, 'V', 0, -1) && tp_parse_opnd(tp, inst, 2, 'b', 0, -1) &&
               tp_parse_opnd(tp, inst, 3, 'b', 0, -1);
    }
    case VISA_OP_FADDR:
        return tp_inst_alloc(tp, inst, 2) && tp_parse_opnd(tp, inst, 0, 's', 0, -1) &&
               tp_parse_opnd(tp, inst, 1, 'V', 0, -1);
    case VISA_OP_FCALL:
        if (!tp_exec(tp, &inst->exec) || !tp_inst_alloc(tp, inst, 3)) return false;
        return tp_parse_opnd(tp, inst, 0, 's', 0, -1) && tp_parse_opnd(tp, inst, 1, 'b', 0, -1) &&
               tp_parse_opnd(tp, inst, 2, 'b', 0, -1);
    case VISA_OP_SWITCHJMP: {
        ir_vec idx;
        if (!tp_exec(tp, &inst->exec) || !vec_operand(tp, &idx)) return false;
        if (!tp_expect(tp, "(")) return false;
        VEC(uint32_t) labels = {0};
        bool ok = true;
        do {
            const char *name;
            size_t ln = tp_ident(tp, &name);
            uint32_t id;
            if (!ln) {
                tp_error(tp, tp->p, "expected a label");
                ok = false;
                break;
            }
            if (!tp_label_ref(tp, name, ln, 0, &id) || !vec_push(tp->ctx, &labels, id)) {
                ok = false;
                break;
            }
        } while (tp_accept(tp, ","));
        if (ok && labels.len > 32) {
            tp_error(tp, tp->p, "switchjmp takes at most 32 labels");
            ok = false;
        }
        ok = ok && tp_expect(tp, ")") && tp_inst_alloc(tp, inst, 1 + labels.len);
        if (ok) {
            inst->opnd[0].kind = 'V';
            inst->opnd[0].u.vec = idx;
            for (uint32_t k = 0; k < labels.len; k++) {
                inst->opnd[1 + k].kind = 'L';
                inst->opnd[1 + k].u.label = labels.data[k];
            }
        }
        vec_free(tp->ctx, &labels);
        return ok;
    }
    default: tp_error(tp, w, "unexpected instruction"); return false;
    }
}

const txt_hook txt_hook_call = {call_print, call_parse};

/* -- FILE, LOC, LIFETIME ---------------------------------------------------------------------- */
static void debug_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    switch (isa_forms[inst->form].opcode) {
    case VISA_OP_FILE: {
        sb_puts(o, "FILE ");
        uint32_t s = inst->opnd[0].u.str;
        if (s < pr->r->strings.len) pr_string_lit(pr, pr->r->strings.data[s].s, pr->r->strings.data[s].len);
        else sb_puts(o, "\"\"");
        break;
    }
    case VISA_OP_LOC: sb_printf(o, "LOC %u", (unsigned)inst->opnd[0].u.num); break;
    default: { /* LIFETIME */
        unsigned props = (unsigned)inst->opnd[0].u.num;
        uint32_t id = (uint32_t)inst->opnd[1].u.num;
        sb_puts(o, (props & 1) ? "lifetime.end " : "lifetime.start ");
        unsigned cls = (props >> 4) & 3;
        if (cls == VC_GENERAL) pr_var_name(pr, id);
        else sb_printf(o, "%c%u", cls == VC_ADDRESS ? 'A' : 'P', id);
        break;
    }
    }
}

static bool debug_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    const char *w;
    if (*tp->p == '.') tp->p++;
    tp_word(tp, &w);
    switch (isa_forms[form].opcode) {
    case VISA_OP_FILE: {
        char *s;
        size_t n;
        if (!tp_inst_alloc(tp, inst, 1) || !tp_string(tp, &s, &n)) return false;
        inst->opnd[0].kind = 'S';
        inst->opnd[0].u.str = ir_string_add(tp->ctx, tp->r, s, n);
        vx_free(tp->ctx, s, n + 1);
        return inst->opnd[0].u.str != UINT32_MAX;
    }
    case VISA_OP_LOC: return tp_inst_alloc(tp, inst, 1) && tp_parse_opnd(tp, inst, 0, 'd', 0, -1);
    default: {
        if (!tp_inst_alloc(tp, inst, 2)) return false;
        inst->opnd[0].kind = 'b';
        inst->opnd[1].kind = 'd';
        if (tp_accept_nows(tp, ".start")) inst->opnd[0].u.num = 0;
        else if (tp_accept_nows(tp, ".end")) inst->opnd[0].u.num = 1;
        else {
            tp_error(tp, tp->p, "expected lifetime.start or lifetime.end");
            return false;
        }
        const char *name;
        size_t n = tp_ident(tp, &name);
        txt_name *e = n ? tp_name_find(tp, name, n) : NULL;
        if (!e || (e->kind != TN_VAR && e->kind != TN_ADDR && e->kind != TN_PRED)) {
            tp_error(tp, n ? name : tp->p, "expected a general, address or predicate variable");
            return false;
        }
        unsigned cls = e->kind == TN_VAR ? VC_GENERAL : e->kind == TN_ADDR ? VC_ADDRESS : VC_PREDICATE;
        inst->opnd[0].u.num |= (int64_t)(cls << 4);
        inst->opnd[1].u.num = e->id;
        return true;
    }
    }
}

const txt_hook txt_hook_debug = {debug_print, debug_parse};

/* -- FENCE, SBARRIER, NBARRIER ---------------------------------------------------------------- */
static void sync_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    unsigned v = (unsigned)inst->opnd[0].u.num;
    switch (isa_forms[inst->form].opcode) {
    case VISA_OP_FENCE:
        if (v & 0x80) {
            sb_puts(o, "fence_sw");
            break;
        }
        sb_puts(o, (v & 0x20) ? "fence_local" : "fence_global");
        if (v) {
            sb_putc(o, '.');
            static const char *const letters[8] = {"E", "I", "S", "C", "R", "", "L1", ""};
            for (int b = 0; b < 8; b++)
                if (v & (1u << b)) sb_puts(o, letters[b]);
        }
        break;
    case VISA_OP_SBARRIER: sb_puts(o, v ? "sbarrier.signal" : "sbarrier.wait"); break;
    default: /* NBARRIER: wait id | signal id count | signal id type prod cons */
        sb_puts(o, v ? "nbarrier.signal " : "nbarrier.wait ");
        pr_vec(pr, &inst->opnd[1].u.vec, true);
        if (v == 1) {
            sb_putc(o, ' ');
            pr_vec(pr, &inst->opnd[3].u.vec, true);
        } else if (v) {
            for (int k = 2; k <= 4; k++) {
                sb_putc(o, ' ');
                pr_vec(pr, &inst->opnd[k].u.vec, true);
            }
        }
        break;
    }
}

static bool sync_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    const char *w;
    size_t n = tp_word(tp, &w);
    switch (isa_forms[form].opcode) {
    case VISA_OP_FENCE: {
        if (!tp_inst_alloc(tp, inst, 1)) return false;
        inst->opnd[0].kind = 'b';
        unsigned mask = 0;
        if (word_is(w, n, "fence_sw")) mask = 0x80;
        else {
            if (word_is(w, n, "fence_local")) mask = 0x20;
            if (tp_accept_nows(tp, ".")) {
                /* letters E I S C R L1 in this order, each optional */
                static const struct {
                    const char *s;
                    unsigned bit;
                } opts[] = {{"E", 1}, {"I", 2}, {"S", 4}, {"C", 8}, {"R", 16}, {"L1", 64}};
                for (unsigned k = 0; k < 6; k++)
                    if (tp_accept_nows(tp, opts[k].s)) mask |= opts[k].bit;
            }
        }
        inst->opnd[0].u.num = mask;
        return true;
    }
    case VISA_OP_SBARRIER:
        if (!tp_inst_alloc(tp, inst, 1)) return false;
        inst->opnd[0].kind = 'b';
        if (tp_accept_nows(tp, ".signal")) inst->opnd[0].u.num = 1;
        else if (tp_accept_nows(tp, ".wait")) inst->opnd[0].u.num = 0;
        else {
            tp_error(tp, tp->p, "expected sbarrier.signal or sbarrier.wait");
            return false;
        }
        return true;
    default: {
        /* operands follow isa_mode_tail(): wait = mode id id; signal = mode id type prod cons */
        bool signal;
        if (tp_accept_nows(tp, ".signal")) signal = true;
        else if (tp_accept_nows(tp, ".wait")) signal = false;
        else {
            tp_error(tp, tp->p, "expected nbarrier.signal or nbarrier.wait");
            return false;
        }
        ir_vec id, a;
        if (!vec_operand(tp, &id)) return false;
        if (!signal) {
            if (!tp_inst_alloc(tp, inst, 3)) return false;
            inst->opnd[0].kind = 'b';
            inst->opnd[0].u.num = 0;
            inst->opnd[1].kind = inst->opnd[2].kind = 'V';
            inst->opnd[1].u.vec = inst->opnd[2].u.vec = id; /* IGC pads with the id */
            return true;
        }
        if (!vec_operand(tp, &a) || !tp_inst_alloc(tp, inst, 5)) return false;
        inst->opnd[0].kind = 'b';
        for (int k = 1; k <= 4; k++) inst->opnd[k].kind = 'V';
        inst->opnd[1].u.vec = id;
        if (tp_at_end(tp)) {
            /* signal id count: type 0:uw, producers = consumers = count */
            inst->opnd[0].u.num = 1;
            memset(&inst->opnd[2].u.vec, 0, sizeof(ir_vec));
            inst->opnd[2].u.vec.cls = VC_IMMEDIATE;
            inst->opnd[2].u.vec.type = VISA_TYPE_UW;
            inst->opnd[3].u.vec = a;
            inst->opnd[4].u.vec = a;
            return true;
        }
        inst->opnd[0].u.num = 2;
        inst->opnd[2].u.vec = a;
        return vec_operand(tp, &inst->opnd[3].u.vec) && vec_operand(tp, &inst->opnd[4].u.vec);
    }
    }
}

const txt_hook txt_hook_sync = {sync_print, sync_parse};

/* -- RAW_SEND, RAW_SENDS, RAW_SENDG ------------------------------------------------------------- */
static void send_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    _Static_assert((int)RSEND_MOD == (int)RSENDS_MOD && (int)RSEND_MOD == (int)RSENDG_MOD, "Modifiers: one position");
    unsigned mod = (unsigned)inst->opnd[RSEND_MOD].u.num;
    switch (isa_forms[inst->form].opcode) {
    case VISA_OP_RAW_SEND:
        /* raw_send[c] (E) 0x<exdesc> numSrc numDst desc src dst */
        sb_puts(o, mod == 1 ? "raw_sendc " : "raw_send ");
        pr_exec(pr, inst->exec);
        sb_printf(o, " 0x%x %u %u  ", (unsigned)inst->opnd[RSEND_EXDESC].u.num, (unsigned)inst->opnd[RSEND_NSRC].u.num,
                  (unsigned)inst->opnd[RSEND_NDST].u.num);
        pr_vec(pr, &inst->opnd[RSEND_DESC].u.vec, true);
        sb_putc(o, ' ');
        pr_raw(pr, &inst->opnd[RSEND_SRC].u.raw);
        sb_putc(o, ' ');
        pr_raw(pr, &inst->opnd[RSEND_DST].u.raw);
        break;
    case VISA_OP_RAW_SENDS: {
        static const char *const names[4] = {"raw_sends.", "raw_sendsc.", "raw_sends_eot.", "raw_sendsc_eot."};
        sb_puts(o, names[mod & 3]);
        /* SFID.NSRC0.NSRC1.NDST (IGC's most frequent send: digits by hand) */
        static const int fields[4] = {RSENDS_SFID, RSENDS_NSRC0, RSENDS_NSRC1, RSENDS_NDST};
        for (int k = 0; k < 4; k++) {
            sb_putu(o, (unsigned)inst->opnd[fields[k]].u.num);
            sb_putc(o, k < 3 ? '.' : ' ');
        }
        pr_exec(pr, inst->exec);
        sb_putc(o, ' ');
        for (int k = RSENDS_EXDESC; k <= RSENDS_DESC; k++) {
            sb_putc(o, ' ');
            pr_vec(pr, &inst->opnd[k].u.vec, true);
        }
        for (int k = RSENDS_SRC0; k <= RSENDS_DST; k++) {
            sb_putc(o, ' ');
            pr_raw(pr, &inst->opnd[k].u.raw);
        }
        break;
    }
    default: { /* RAW_SENDG */
        static const char *const names[4] = {"raw_sendg.", "raw_sendgc.", "raw_sendg_eot.", "raw_sendgc_eot."};
        sb_puts(o, names[mod & 3]);
        sb_printf(o, "0x%X ", (unsigned)inst->opnd[RSENDG_SFID].u.num);
        pr_exec(pr, inst->exec);
        for (int k = RSENDG_DST; k <= RSENDG_SRC1; k += 2) { /* each operand, then its length */
            sb_putc(o, ' ');
            pr_raw(pr, &inst->opnd[k].u.raw);
            sb_printf(o, "/%u", (unsigned)inst->opnd[k + 1].u.num);
        }
        for (int k = RSENDG_IND0; k <= RSENDG_IND1; k++) {
            sb_putc(o, ' ');
            pr_vec(pr, &inst->opnd[k].u.vec, true);
        }
        uint64_t desc =
            ((uint64_t)(uint32_t)inst->opnd[RSENDG_DESC_HI].u.num << 32) | (uint32_t)inst->opnd[RSENDG_DESC_LO].u.num;
        sb_printf(o, " 0x%llX", (unsigned long long)desc);
        break;
    }
    }
}

static bool dot_num(txt_parser *tp, ir_opnd *o, int64_t max) {
    uint64_t v;
    if (!tp_accept_nows(tp, ".")) {
        tp_error(tp, tp->p, "expected '.' and a number");
        return false;
    }
    const char *at = tp->p;
    if (!tp_uint_dec(tp, &v)) return false;
    if ((int64_t)v > max) {
        tp_error(tp, at, "value %llu out of range (at most %lld)", (unsigned long long)v, (long long)max);
        return false;
    }
    o->kind = 'b';
    o->u.num = (int64_t)v;
    return true;
}

static bool send_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    const char *w;
    size_t n = tp_word(tp, &w);
    unsigned op = isa_forms[form].opcode;
    if (op == VISA_OP_RAW_SEND) {
        if (!tp_inst_alloc(tp, inst, RSEND_DST + 1)) return false;
        inst->opnd[RSEND_MOD].kind = 'b';
        inst->opnd[RSEND_MOD].u.num = word_is(w, n, "raw_sendc");
        inst->opnd[RSEND_EXDESC].kind = 'd';
        inst->opnd[RSEND_NSRC].kind = inst->opnd[RSEND_NDST].kind = 'b';
        if (!tp_exec(tp, &inst->exec)) return false;
        return tp_parse_opnd(tp, inst, RSEND_EXDESC, 'd', 0, -1) && tp_parse_opnd(tp, inst, RSEND_NSRC, 'b', 0, -1) &&
               tp_parse_opnd(tp, inst, RSEND_NDST, 'b', 0, -1) && tp_parse_opnd(tp, inst, RSEND_DESC, 'V', 0, -1) &&
               tp_parse_opnd(tp, inst, RSEND_SRC, 'R', 0, -1) && tp_parse_opnd(tp, inst, RSEND_DST, 'R', 0, -1);
    }
    if (op == VISA_OP_RAW_SENDS) {
        if (!tp_inst_alloc(tp, inst, RSENDS_DST + 1)) return false;
        unsigned mod = 0;
        if (word_is(w, n, "raw_sendsc") || word_is(w, n, "raw_sendsc_eot")) mod |= 1;
        if (word_is(w, n, "raw_sends_eot") || word_is(w, n, "raw_sendsc_eot")) mod |= 2;
        inst->opnd[RSENDS_MOD].kind = 'b';
        inst->opnd[RSENDS_MOD].u.num = mod;
        /* 4 numbers sfid.src0.src1.dst; IGC's parser takes 3 (no sfid) for raw_sendsc */
        /* .SFID.NUMSRC0.NUMSRC1.NUMDST; IGC's parser also takes raw_sendsc with 3 numbers
        ** (no SFID, stored as 0) while its printer writes 4 */
        ir_opnd nums[4];
        int count = 0;
        const char *sfid_at = tp->p + 1;
        while (count < 4 && tp->p[0] == '.' && tp->p[1] >= '0' && tp->p[1] <= '9') {
            if (!dot_num(tp, &nums[count], count == 0 ? 255 : 255)) return false;
            count++;
        }
        if (count < 3 || (count == 3 && !(mod & 1))) {
            tp_skip_ws(tp);
            tp_error(tp, tp->p, "expected .SFID.NUMSRC0.NUMSRC1.NUMDST");
            return false;
        }
        int b = count == 4 ? 1 : 0;
        inst->opnd[RSENDS_SFID] = count == 4 ? nums[0] : (ir_opnd){.kind = 'b'};
        inst->opnd[RSENDS_NSRC0] = nums[b];
        inst->opnd[RSENDS_NSRC1] = nums[b + 1];
        inst->opnd[RSENDS_NDST] = nums[b + 2];
        if (inst->opnd[RSENDS_SFID].u.num > 15) {
            tp_error(tp, sfid_at, "SFID %lld out of range (0..15)", (long long)inst->opnd[RSENDS_SFID].u.num);
            return false;
        }
        if (!tp_exec(tp, &inst->exec)) return false;
        return tp_parse_opnd(tp, inst, RSENDS_EXDESC, 'V', 0, -1) && tp_parse_opnd(tp, inst, RSENDS_DESC, 'V', 0, -1) &&
               tp_parse_opnd(tp, inst, RSENDS_SRC0, 'R', 0, -1) && tp_parse_opnd(tp, inst, RSENDS_SRC1, 'R', 0, -1) &&
               tp_parse_opnd(tp, inst, RSENDS_DST, 'R', 0, -1);
    }
    /* RAW_SENDG: raw_sendg[c][_eot].SFID (E) dst/len src0/len src1/len ind0 ind1 desc64 */
    if (!tp_inst_alloc(tp, inst, RSENDG_DESC_HI + 1)) return false;
    unsigned mod = 0;
    if (word_is(w, n, "raw_sendgc") || word_is(w, n, "raw_sendgc_eot")) mod |= 1;
    if (word_is(w, n, "raw_sendg_eot") || word_is(w, n, "raw_sendgc_eot")) mod |= 2;
    inst->opnd[RSENDG_MOD].kind = 'b';
    inst->opnd[RSENDG_MOD].u.num = mod;
    inst->opnd[RSENDG_SFID].kind = 'd';
    if (!tp_accept_nows(tp, ".")) {
        tp_error(tp, tp->p, "expected .SFID");
        return false;
    }
    static const struct {
        const char *s;
        unsigned v;
    } sfids[] = {{"ugm", 0xF}, {"slm", 0xE}, {"tgm", 0xD}, {"null", 0}, {"smpl", 2},
                 {"gtwy", 3},  {"rc", 5},    {"btd", 7},   {"rta", 8}};
    bool named = false;
    for (unsigned k = 0; k < sizeof sfids / sizeof sfids[0]; k++)
        if (tp_accept_word(tp, sfids[k].s)) {
            inst->opnd[RSENDG_SFID].u.num = sfids[k].v;
            named = true;
            break;
        }
    if (!named) {
        int64_t v;
        const char *at = tp->p;
        if (!tp_int_expr(tp, &v)) return false;
        if (v < 0 || v > 15) {
            tp_error(tp, at, "SFID %lld out of range (0..15)", (long long)v);
            return false;
        }
        inst->opnd[RSENDG_SFID].u.num = v;
    }
    if (!tp_exec(tp, &inst->exec)) return false;
    for (int k = RSENDG_DST; k <= RSENDG_SRC1; k += 2) {
        if (!tp_parse_opnd(tp, inst, (unsigned)k, 'R', 0, -1) || !tp_expect(tp, "/") ||
            !tp_parse_opnd(tp, inst, (unsigned)k + 1, 'd', 0, -1))
            return false;
    }
    if (!tp_parse_opnd(tp, inst, RSENDG_IND0, 'V', 0, -1) || !tp_parse_opnd(tp, inst, RSENDG_IND1, 'V', 0, -1))
        return false;
    uint64_t desc;
    if (!tp_uint_dec(tp, &desc)) return false;
    inst->opnd[RSENDG_DESC_LO].kind = inst->opnd[RSENDG_DESC_HI].kind = 'd';
    inst->opnd[RSENDG_DESC_LO].u.num = (uint32_t)desc;
    inst->opnd[RSENDG_DESC_HI].u.num = (uint32_t)(desc >> 32);
    return true;
}

const txt_hook txt_hook_send = {send_print, send_parse};

/* -- DPAS, DPASW, BDPAS --------------------------------------------------------------------------
** dpas.<W>.<A>.<depth>.<repeat> (E) dst.off src0.off src1.off src2(r,c); info = W | A<<8 |
** depth<<16 | repeat<<24.  bdpas adds src2 raw and two scale vectors. */
static void dpas_print(txt_printer *pr, const ir_inst *inst) {
    strbuf *o = pr->out;
    unsigned info = (unsigned)inst->opnd[inst->nopnd - 1].u.num;
    const char *w = isa_enum_text(VISA_EN_precision, info & 0xFF);
    const char *a = isa_enum_text(VISA_EN_precision, (info >> 8) & 0xFF);
    const char *m = isa_forms[inst->form].mnem;
    sb_printf(o, "%s.%s.%s.%u.%u ", m, w ? w : "?", a ? a : "?", (info >> 16) & 0xFF, info >> 24);
    pr_exec(pr, inst->exec);
    for (unsigned k = 0; k + 1 < inst->nopnd; k++) {
        sb_putc(o, ' ');
        if (inst->opnd[k].kind == 'R') pr_raw(pr, &inst->opnd[k].u.raw);
        else pr_vec(pr, &inst->opnd[k].u.vec, false);
    }
}

static bool dpas_parse(txt_parser *tp, int form, ir_inst *inst) {
    inst->form = (uint16_t)form;
    const char *w;
    tp_word(tp, &w);
    char full[64];
    const char *layout = isa_form_layout(form, full);
    unsigned n = isa_layout_opnds(layout);
    if (!tp_inst_alloc(tp, inst, n)) return false;
    uint32_t prec[2];
    for (int k = 0; k < 2; k++) {
        const char *s;
        if (!tp_accept_nows(tp, ".")) {
            tp_error(tp, tp->p, "expected '.' and a precision");
            return false;
        }
        size_t sn = tp_word(tp, &s);
        /* IGC's lexer accepts the first letter in either case */
        char tmp[8];
        if (sn == 0 || sn >= sizeof tmp) {
            tp_error(tp, s, "expected a precision (u8, s8, bf, hf, tf32, ...)");
            return false;
        }
        memcpy(tmp, s, sn);
        tmp[0] = (char)(tmp[0] >= 'A' && tmp[0] <= 'Z' ? tmp[0] + 32 : tmp[0]);
        if (!isa_enum_parse(VISA_EN_precision, tmp, sn, &prec[k])) {
            tp_error(tp, s, "unknown precision '%.*s'", (int)sn, s);
            return false;
        }
    }
    ir_opnd depth, rep;
    const char *dat = tp->p + 1;
    if (!dot_num(tp, &depth, 8)) return false;
    if (depth.u.num != 1 && depth.u.num != 2 && depth.u.num != 4 && depth.u.num != 8) {
        tp_error(tp, dat, "systolic depth must be 1, 2, 4 or 8");
        return false;
    }
    const char *rat = tp->p + 1;
    if (!dot_num(tp, &rep, 8)) return false;
    if (rep.u.num < 1) {
        tp_error(tp, rat, "repeat count must be 1 to 8");
        return false;
    }
    if (!tp_exec(tp, &inst->exec)) return false;
    for (unsigned k = 0; k + 1 < n; k++) {
        if (!tp_parse_opnd(tp, inst, k, isa_layout_kind(layout, k), 0, -1)) return false;
    }
    inst->opnd[n - 1].kind = 'd';
    inst->opnd[n - 1].u.num =
        (int64_t)(prec[0] | (prec[1] << 8) | ((uint32_t)depth.u.num << 16) | ((uint32_t)rep.u.num << 24));
    return true;
}

const txt_hook txt_hook_dpas = {dpas_print, dpas_parse};
