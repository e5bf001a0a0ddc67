/* print.c -- prints a module exactly as IGC's printer does (IsaDisassembly.cpp): the kernel
** header with the predefined-variable comment block, declarations, inputs, attributes, then one
** line per instruction padded to 80 columns with a "/// $N" id.  With comments kept (visa fmt)
** the user's comments are re-emitted where they stood.
*/
#include <stdio.h>
#include <string.h>

#include "text.h"

/* -- Operands ---------------------------------------------------------------------------------- */
void pr_hex(txt_printer *pr, uint64_t v) {
    sb_puts(pr->out, "0x");
    sb_putx(pr->out, v);
}

void pr_string_lit(txt_printer *pr, const char *s, size_t len) {
    sb_putc(pr->out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\a': sb_puts(pr->out, "\\a"); break;
        case '\b': sb_puts(pr->out, "\\b"); break;
        case 0x1B: sb_puts(pr->out, "\\e"); break;
        case '\f': sb_puts(pr->out, "\\f"); break;
        case '\n': sb_puts(pr->out, "\\n"); break;
        case '\r': sb_puts(pr->out, "\\r"); break;
        case '\t': sb_puts(pr->out, "\\t"); break;
        case '\v': sb_puts(pr->out, "\\v"); break;
        case '\'': sb_puts(pr->out, "\\'"); break;
        case '"': sb_puts(pr->out, "\\\""); break;
        case '\\': sb_puts(pr->out, "\\\\"); break;
        default:
            if (c >= 0x20 && c < 0x7F) sb_putc(pr->out, (char)c);
            else sb_printf(pr->out, "\\x%02x", c);
        }
    }
    sb_putc(pr->out, '"');
}

void pr_var_name(txt_printer *pr, uint32_t id) {
    if (id < isa_predef_var_count) sb_puts(pr->out, isa_predef_vars[id].name);
    else if (pr->plan.renamed && id >= ISA_NUM_PREDEF_VARS && id - ISA_NUM_PREDEF_VARS < pr->plan.nvars &&
             pr->plan.renamed[id - ISA_NUM_PREDEF_VARS])
        sb_puts(pr->out, pr->plan.renamed[id - ISA_NUM_PREDEF_VARS]);
    else if (id >= ISA_NUM_PREDEF_VARS && id - ISA_NUM_PREDEF_VARS < pr->r->vars.len) {
        const ir_string *s = &pr->r->strings.data[0];
        uint32_t n = pr->r->vars.data[id - ISA_NUM_PREDEF_VARS].name;
        if (n < pr->r->strings.len) {
            s = &pr->r->strings.data[n];
            sb_putn(pr->out, s->s, s->len);
        } else {
            sb_putc(pr->out, 'V');
            sb_putu(pr->out, id);
        }
    } else {
        sb_putc(pr->out, 'V');
        sb_putu(pr->out, id);
    }
}

void pr_state_name(txt_printer *pr, unsigned state_cls, uint32_t id) {
    if (state_cls == VS_SAMPLER) sb_printf(pr->out, "S%u", id);
    else if (id < ISA_NUM_PREDEF_SURFS) sb_puts(pr->out, isa_predef_surf_names[id]);
    else sb_printf(pr->out, "T%u", id);
}

/* A label, subroutine or call-target name as printed.  IGC replaces '.' and '$' by '_'; we also
** replace any other byte its parser cannot read back in a label (and print "_" for an empty
** name), so that every printed name parses as the same label.  Returns true if anything changed. */
bool pr_label_text(txt_printer *pr, const char *s, size_t len) {
    bool changed = len == 0;
    if (!len) sb_putc(pr->out, '_');
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '@' || c == '?' ||
                  (i > 0 && ((c >= '0' && c <= '9') || c == '-'));
        sb_putc(pr->out, ok ? c : '_');
        changed |= !ok;
    }
    return changed;
}

/* Printed names of a routine's labels, computed once: IGC's rules (call targets and subroutines
** get a "_<id>" suffix unless the name already ends with it; '.' and '$' become '_'), bytes that
** would not read back replaced, and a name that then collides with an earlier label's printed
** name given its "_<id>" suffix until it is unique (IGC prints such collisions as they fall and
** cannot read its own output). */
static bool label_names_build(txt_printer *pr) {
    const ir_routine *r = pr->r;
    strbuf *saved = pr->out;
    /* names given so far, by hash (open addressing, label id + 1, 0 = empty): the clash check
    ** is linear in the number of labels */
    uint32_t nslots = 16;
    while (nslots < 2 * (r->labels.len + 1)) nslots *= 2;
    uint32_t *slots = vx_alloc(saved->ctx, sizeof(uint32_t) * nslots);
    pr->label_names = vx_alloc(saved->ctx, sizeof(char *) * (r->labels.len + 1));
    pr->label_renamed = vx_alloc(saved->ctx, r->labels.len + 1);
    bool ok = slots && pr->label_names && pr->label_renamed;
    for (uint32_t id = 0; ok && id < r->labels.len; id++) {
        strbuf sb;
        sb_init(&sb, saved->ctx);
        pr->out = &sb;
        const ir_label *lab = &r->labels.data[id];
        const ir_string *s = lab->name < r->strings.len ? &r->strings.data[lab->name] : NULL;
        pr->label_renamed[id] = pr_label_text(pr, s ? s->s : "", s ? s->len : 0);
        char suffix[16];
        int sn = snprintf(suffix, sizeof suffix, "_%u", id);
        bool ends = sb.len >= (size_t)sn && !memcmp(sb.data + sb.len - sn, suffix, (size_t)sn);
        if ((lab->kind == 1 || lab->kind == 2) && !ends) sb_putn(&sb, suffix, (size_t)sn);
        uint32_t at = 0;
        for (int guard = 0; guard < 8 && !sb.oom; guard++) {
            const char *name = sb_cstr(&sb);
            bool clash = false;
            for (at = vx_hash_str(name) & (nslots - 1); slots[at]; at = (at + 1) & (nslots - 1))
                if (!strcmp(pr->label_names[slots[at] - 1], name)) clash = true;
            if (!clash) break;
            sb_putn(&sb, suffix, (size_t)sn);
        }
        if (!sb.oom) {
            /* the 8th suffix may still clash (IGC would print the clash): probe to a free slot */
            for (at = vx_hash_str(sb_cstr(&sb)) & (nslots - 1); slots[at]; at = (at + 1) & (nslots - 1)) {}
            pr->label_names[id] = vx_strndup(saved->ctx, sb.data ? sb.data : "", sb.len);
        }
        ok = !sb.oom && pr->label_names[id];
        if (ok) slots[at] = id + 1;
        sb_free(&sb);
    }
    pr->out = saved;
    vx_free(saved->ctx, slots, sizeof(uint32_t) * nslots);
    return ok;
}

static void label_names_free(txt_printer *pr) {
    visa_ctx *ctx = pr->out->ctx;
    for (uint32_t id = 0; pr->label_names && id < pr->r->labels.len; id++)
        if (pr->label_names[id]) vx_free(ctx, pr->label_names[id], strlen(pr->label_names[id]) + 1);
    vx_free(ctx, pr->label_names, sizeof(char *) * (pr->r->labels.len + 1));
    vx_free(ctx, pr->label_renamed, pr->r->labels.len + 1);
    pr->label_names = NULL;
    pr->label_renamed = NULL;
}

void pr_label(txt_printer *pr, uint32_t label) {
    if (label < pr->r->labels.len && pr->label_names && pr->label_names[label])
        sb_puts(pr->out, pr->label_names[label]);
    else sb_printf(pr->out, "L%u", label);
}

static const char *const modifier_str[8] = {"", "(abs)", "(-)", "(-abs)", "", "(~)", "", ""};

static void pr_region(txt_printer *pr, uint16_t r) {
    unsigned v = IR_REGION_V(r), w = IR_REGION_W(r), h = IR_REGION_H(r);
    strbuf *o = pr->out;
    sb_putc(o, '<');
    if (w != 0 && v != 0) {
        sb_putu(o, ir_region_value(v));
        sb_putc(o, ';');
    }
    if (w != 0) {
        sb_putu(o, ir_region_value(w));
        sb_putc(o, ',');
    }
    sb_putu(o, ir_region_value(h));
    sb_putc(o, '>');
}

void pr_vec(txt_printer *pr, const ir_vec *v, bool region) {
    strbuf *o = pr->out;
    const char *mod = modifier_str[v->mod & 7];
    switch (v->cls) {
    case VC_GENERAL:
        sb_puts(o, mod);
        pr_var_name(pr, v->id);
        sb_putc(o, '(');
        sb_putu(o, v->row);
        sb_putc(o, ',');
        sb_putu(o, v->col);
        sb_putc(o, ')');
        if (region) pr_region(pr, v->region);
        break;
    case VC_ADDRESS: sb_printf(o, "%sA%u(%u)<%u>", mod, v->id, v->row, 1u << (v->col & 7)); break;
    case VC_PREDICATE: sb_printf(o, "%sP%u", mod, v->id); break;
    case VC_INDIRECT:
        sb_printf(o, "%sr[A%u(%u),%d]", mod, v->id, v->addr_elem, v->ind_off);
        pr_region(pr, v->region);
        sb_putc(o, ':');
        sb_puts(o, v->type < VISA_TYPE__COUNT ? isa_types[v->type].name : "?");
        break;
    case VC_ADDROF:
        sb_puts(o, mod);
        sb_putc(o, '&');
        pr_var_name(pr, v->id);
        {
            uint32_t off = ir_addrof_bytes(pr->r, v, visa_platform_grf_bytes(pr->m->platform));
            if (off) sb_printf(o, "[%u]", off);
        }
        break;
    case VC_IMMEDIATE: {
        uint64_t x = v->imm;
        if (v->type != VISA_TYPE_DF && v->type != VISA_TYPE_Q && v->type != VISA_TYPE_UQ) x &= 0xFFFFFFFFu;
        sb_puts(o, "0x");
        sb_putx(o, x);
        sb_putc(o, ':');
        sb_puts(o, v->type < VISA_TYPE__COUNT ? isa_types[v->type].name : "?");
        break;
    }
    case VC_STATE:
        pr_state_name(pr, v->state_cls, v->id);
        sb_printf(o, "(%u)", v->row);
        break;
    default: sb_puts(o, "<bad operand>");
    }
}

void pr_raw(txt_printer *pr, const ir_raw *raw) {
    pr_var_name(pr, raw->id);
    sb_putc(pr->out, '.');
    sb_putu(pr->out, raw->offset);
}

void pr_exec(txt_printer *pr, uint8_t exec) {
    const char *m = txt_enum_text(&pr->emask, VISA_EN_emask, ir_exec_emask(exec));
    sb_putc(pr->out, '(');
    sb_puts(pr->out, m ? m : "M?");
    sb_puts(pr->out, ", ");
    sb_putu(pr->out, ir_exec_lanes(exec));
    sb_putc(pr->out, ')');
}

void pr_pred(txt_printer *pr, uint16_t pred) {
    if (!pred) return;
    sb_printf(pr->out, "(%sP%u%s) ", ir_pred_inverse(pred) ? "!" : "", ir_pred_id(pred),
              ir_pred_ctrl_suffix(ir_pred_ctrl(pred)));
}

/* -- Comments ---------------------------------------------------------------------------------- */
void pr_own_comments(txt_printer *pr, const ir_trivia *t) {
    if (!pr->keep_comments) return;
    for (uint32_t i = 0; i < t->count; i++) {
        const ir_comment *c = &pr->m->comments.data[t->first + i];
        if (c->blank_before && i == 0 && pr->out->len && pr->out->data[pr->out->len - 1] == '\n' &&
            !(pr->out->len >= 2 && pr->out->data[pr->out->len - 2] == '\n'))
            sb_putc(pr->out, '\n');
        sb_putn(pr->out, c->text, c->len);
        sb_putc(pr->out, '\n');
    }
}

/* after_id: an instruction's "/// $id" was just printed, which stands for the comment's own
** "/// $N " prefix (IGC's printed id, replaced by ours) */
static void pr_eol_comment_at(txt_printer *pr, const ir_trivia *t, bool after_id) {
    if (!pr->keep_comments || t->eol < 0) return;
    const ir_comment *c = &pr->m->comments.data[t->eol];
    uint32_t skip = after_id && c->id_len <= c->len ? c->id_len : 0;
    sb_putc(pr->out, ' ');
    sb_putn(pr->out, c->text + skip, c->len - skip);
}

static void pr_eol_comment(txt_printer *pr, const ir_trivia *t) { pr_eol_comment_at(pr, t, false); }

/* A statement line: "\n" + own-line comments + text; used for header lines, which IGC joins
** with leading newlines. */
static void begin_header_line(txt_printer *pr, const ir_trivia *t) {
    sb_putc(pr->out, '\n');
    if (pr->keep_comments && t && t->count) {
        /* comments go on their own lines before the statement */
        pr->out->len--;
        sb_putc(pr->out, '\n');
        for (uint32_t i = 0; i < t->count; i++) {
            const ir_comment *c = &pr->m->comments.data[t->first + i];
            sb_putn(pr->out, c->text, c->len);
            sb_putc(pr->out, '\n');
        }
    }
}

/* -- Declarations ------------------------------------------------------------------------------ */
static void pr_attr_value(txt_printer *pr, const ir_attr *a, bool in_decl) {
    const ir_string *name = &pr->r->strings.data[a->name < pr->r->strings.len ? a->name : 0];
    sb_putn(pr->out, name->s, name->len);
    if (a->is_str) {
        if (a->size > 0) {
            sb_putc(pr->out, '=');
            pr_string_lit(pr, (const char *)a->value, a->size);
        }
        return;
    }
    if (a->size == 0) return; /* boolean */
    int64_t v = 0;
    for (int k = a->size - 1; k >= 0; k--) v = (v << 8) | a->value[k];
    /* sign-extend from the stored width */
    if (a->size < 8 && (a->value[a->size - 1] & 0x80)) v -= (int64_t)1 << (8 * a->size);
    sb_putc(pr->out, '=');
    if (!in_decl && name->len == 6 && memcmp(name->s, "Target", 6) == 0 && (v == 0 || v == 1))
        sb_puts(pr->out, v == 0 ? "\"cm\"" : "\"3d\"");
    else sb_printf(pr->out, "%lld", (long long)v);
}

static void pr_attrs(txt_printer *pr, const ir_attr_list *l) {
    if (!l->count) return;
    sb_puts(pr->out, " attrs={");
    for (uint16_t i = 0; i < l->count; i++) {
        if (i) sb_puts(pr->out, ", ");
        pr_attr_value(pr, &l->items[i], true);
    }
    sb_putc(pr->out, '}');
}

/* ".decl NAME v_type=G ..." of user variable i, without line breaks or comments. */
static void pr_var_decl(txt_printer *pr, uint32_t i) {
    const ir_routine *r = pr->r;
    {
        const ir_var *v = &r->vars.data[i];
        sb_puts(pr->out, ".decl ");
        pr_var_name(pr, ISA_NUM_PREDEF_VARS + i);
        sb_puts(pr->out, " v_type=G type=");
        sb_puts(pr->out, v->type < VISA_TYPE__COUNT ? isa_types[v->type].name : "?");
        sb_puts(pr->out, " num_elts=");
        sb_putu(pr->out, v->num_elts);
        if (v->align) {
            const char *a = isa_enum_text(VISA_EN_align, v->align);
            sb_puts(pr->out, " align=");
            sb_puts(pr->out, a ? a : "?");
        }
        if (v->has_alias) {
            sb_puts(pr->out, " alias=<");
            pr_var_name(pr, v->alias_id);
            sb_printf(pr->out, ", %u>", v->alias_off);
        }
        pr_attrs(pr, &v->attrs);
    }
}

static void pr_decls(txt_printer *pr) {
    const ir_routine *r = pr->r;
    for (uint32_t i = 0; i < r->vars.len; i++) {
        if (pr->plan.any_scoped && pr->plan.scoped[i]) continue; /* printed in its scope */
        begin_header_line(pr, &r->vars.data[i].trivia);
        pr_var_decl(pr, i);
        pr_eol_comment(pr, &r->vars.data[i].trivia);
    }
    for (uint32_t i = 0; i < r->addrs.len; i++) {
        begin_header_line(pr, &r->addrs.data[i].trivia);
        sb_printf(pr->out, ".decl A%u v_type=A num_elts=%u", i, r->addrs.data[i].num_elts);
        pr_attrs(pr, &r->addrs.data[i].attrs);
        pr_eol_comment(pr, &r->addrs.data[i].trivia);
    }
    for (uint32_t i = 0; i < r->preds.len; i++) {
        begin_header_line(pr, &r->preds.data[i].trivia);
        sb_printf(pr->out, ".decl P%u v_type=P num_elts=%u", i + 1, r->preds.data[i].num_elts);
        pr_attrs(pr, &r->preds.data[i].attrs);
        pr_eol_comment(pr, &r->preds.data[i].trivia);
    }
    for (uint32_t i = 0; i < r->samplers.len; i++) {
        const ir_state_var *s = &r->samplers.data[i];
        begin_header_line(pr, &s->trivia);
        sb_printf(pr->out, ".decl S%u v_type=S num_elts=%u v_name=%s", i, s->num_elts, ir_str(r, s->name));
        pr_attrs(pr, &s->attrs);
        pr_eol_comment(pr, &s->trivia);
    }
    for (uint32_t i = 0; i < r->surfaces.len; i++) {
        const ir_state_var *s = &r->surfaces.data[i];
        begin_header_line(pr, &s->trivia);
        sb_printf(pr->out, ".decl T%u v_type=T num_elts=%u v_name=%s", i + ISA_NUM_PREDEF_SURFS, s->num_elts,
                  ir_str(r, s->name));
        pr_attrs(pr, &s->attrs);
        pr_eol_comment(pr, &s->trivia);
    }
    for (uint32_t i = 0; i < r->inputs.len; i++) {
        const ir_input *in = &r->inputs.data[i];
        begin_header_line(pr, &in->trivia);
        unsigned kind = in->kind >> 3, cls = in->kind & 7;
        if (!kind) {
            sb_puts(pr->out, ".input ");
        } else {
            /* IGC's printer maps kinds 1-3 and 4 by name (4 prints as PSEUDO_INPUT), 16 too */
            const char *t = kind == 4 ? "PSEUDO_INPUT" : isa_enum_text(VISA_EN_implicit_input, kind);
            if (t) sb_printf(pr->out, ".implicit_%s ", t);
            else sb_printf(pr->out, ".implicit_UNDEFINED_%u ", kind);
        }
        if (cls == IN_GENERAL) pr_var_name(pr, in->id);
        else sb_printf(pr->out, "%c%u", cls == IN_SAMPLER ? 'S' : 'T', in->id);
        sb_printf(pr->out, " offset=%d size=%u", in->offset, in->size);
        pr_eol_comment(pr, &in->trivia);
    }
}

/* -- Scopes ----------------------------------------------------------------------------------- */
static void end_line(txt_printer *pr) {
    if (pr->out->len && pr->out->data[pr->out->len - 1] != '\n') sb_putc(pr->out, '\n');
}

/* "{" and the declaration of scoped variable v, each on its own line; empty scopes close too. */
static void pr_scope_open(txt_printer *pr, uint32_t v) {
    const ir_var *x = &pr->r->vars.data[v];
    end_line(pr);
    sb_puts(pr->out, "{\n");
    pr_own_comments(pr, &x->trivia);
    pr_var_decl(pr, v);
    pr_eol_comment(pr, &x->trivia);
    sb_putc(pr->out, '\n');
    if (pr->plan.first[v] == pr->plan.end[v]) sb_puts(pr->out, "}\n");
}

/* -- Instructions ----------------------------------------------------------------------------- */
static void pr_instruction(txt_printer *pr, const ir_inst *inst, uint32_t id) {
    const isa_form *F = &isa_forms[inst->form];
    strbuf *o = pr->out;
    size_t line_start = o->len;
    if (inst->form != VISA_FORM_LABEL) sb_puts(o, "    ");
    char full[64];
    if (inst->pred && strchr(isa_form_layout(inst->form, full), 'P') && F->hook != TH_LABEL &&
        !(F->flags & VF_PRED_HIDDEN))
        pr_pred(pr, inst->pred);
    if (F->hook != TH_NONE && txt_hooks[F->hook]->print) txt_hooks[F->hook]->print(pr, inst);
    else if (F->hook != TH_NONE) sb_printf(o, "%s <no text form>", F->name);
    else pr_template(pr, F->text, inst);
    if (!(F->flags & VF_NO_ID)) {
        /* pad the (last) line of the instruction to 80 columns, then the id (few instructions
        ** print several lines: memchr finds that there is no newline at once) */
        size_t start = line_start;
        for (const char *nl; o->data && (nl = memchr(o->data + start, '\n', o->len - start));)
            start = (size_t)(nl - o->data) + 1;
        sb_pad_to(o, start, 80);
        sb_puts(o, " /// $");
        sb_putu(o, id);
    }
    pr_eol_comment_at(pr, &inst->trivia, !(F->flags & VF_NO_ID));
    sb_putc(o, '\n');
}

/* The predefined-variable comment block of the disassembly print, the same for every routine of a
** print: written once (pr->predef_block), copied for each. */
static void pr_predef_block(txt_printer *pr) {
    strbuf *o = &pr->predef_block;
    sb_puts(o, "\n/// VISA Predefined Variables");
    /* IGC 1.0 had the variables before %scratchloc */
    unsigned nvars = pr->igc1 ? VISA_PREDEF_SCRATCHLOC : isa_predef_var_count;
    for (unsigned i = 0; i < nvars; i++) sb_printf(o, "\n// .decl V%u v_type=G v_name=%s", i, isa_predef_vars[i].name);
    for (unsigned i = 0; i < ISA_NUM_PREDEF_SURFS; i++)
        sb_printf(o, "\n// .decl T%u v_type=T v_name=%s", i, isa_predef_surf_names[i]);
    sb_putc(o, '\n');
    if (o->oom) pr->out->oom = true;
}

static void pr_routine(txt_printer *pr, bool print_version) {
    const visa_module *m = pr->m;
    const ir_routine *r = pr->r;
    strbuf *o = pr->out;
    if (print_version) {
        pr_own_comments(pr, &m->version_trivia);
        sb_printf(o, ".version %u.%u", m->major, m->minor);
        pr_eol_comment(pr, &m->version_trivia);
        sb_putc(o, '\n');
    }
    /* the routine's own-line comments go before its blank line; the asm-text style has no
    ** blank line, so the last comment ends its own line there */
    bool comments = pr->keep_comments && r->trivia.count;
    /* the previous routine may end inside a header line (it has no instructions) */
    if ((comments || pr->asm_text) && o->len && o->data[o->len - 1] != '\n') sb_putc(o, '\n');
    /* IGC 1.0 put no blank line between .version and the first .kernel */
    bool blank = !pr->asm_text && !(pr->igc1 && print_version);
    if (comments) {
        if (blank) sb_putc(o, '\n');
        for (uint32_t i = 0; i < r->trivia.count; i++) {
            const ir_comment *c = &m->comments.data[r->trivia.first + i];
            sb_putn(o, c->text, c->len);
            sb_putc(o, '\n');
        }
    }
    if (blank && !comments) sb_putc(o, '\n'); /* the disassembly print's blank line before a routine */
    sb_puts(o, r->is_kernel ? ".kernel " : ".global_function ");
    const ir_string *name = &r->strings.data[r->name < r->strings.len ? r->name : 0];
    /* IGC prints the routine name with every '.' replaced by a space */
    char *tmp = vx_strndup(o->ctx, name->s, name->len);
    if (tmp) {
        for (uint32_t i = 0; i < name->len; i++)
            if (tmp[i] == '.') tmp[i] = ' ';
        pr_string_lit(pr, tmp, name->len);
        vx_free(o->ctx, tmp, name->len + 1);
    }
    pr_eol_comment(pr, &r->trivia);
    sb_putc(o, '\n');
    if (r->is_kernel && pr->nfuncs) {
        for (uint32_t i = 0; i < m->routines.len; i++) {
            const ir_routine *f = &m->routines.data[i];
            if (f->is_kernel) continue;
            sb_puts(o, ".funcdecl ");
            const ir_string *fn = &f->strings.data[f->name < f->strings.len ? f->name : 0];
            pr_string_lit(pr, fn->s, fn->len);
            sb_putc(o, '\n');
        }
    }
    if (!pr->asm_text) {
        if (!pr->predef_block.len) pr_predef_block(pr);
        sb_putn(o, pr->predef_block.data, pr->predef_block.len);
    } else if (o->len && o->data[o->len - 1] == '\n') {
        o->len--; /* each header line starts its own line */
    }
    pr_decls(pr);
    bool target = false;
    for (uint32_t i = 0; i < r->attrs.len; i++) {
        const ir_attr *a = &r->attrs.data[i];
        const char *an = ir_str(r, a->name);
        if (strcmp(an, "OutputAsmPath") == 0 || strcmp(an, "AsmName") == 0) continue;
        if (strcmp(an, "Target") == 0) target = true;
        begin_header_line(pr, &a->trivia);
        sb_puts(o, ".kernel_attr ");
        pr_attr_value(pr, a, false);
        pr_eol_comment(pr, &a->trivia);
    }
    if (!target) sb_puts(o, "\n.kernel_attr Target=\"cm\"");
    /* IGC appends the first instruction directly to the last header line; that only reads
    ** back when it starts with a newline (.function, labels).  Otherwise break the line. */
    if (r->insts.len) {
        const ir_inst *first = &r->insts.data[0];
        if (first->form != VISA_FORM_SUBROUTINE && first->form != VISA_FORM_LABEL) sb_putc(o, '\n');
    }
    const txt_scope_plan *plan = &pr->plan;
    uint32_t next = 0, depth = 0;
    uint32_t *open = plan->norder ? vx_alloc(o->ctx, sizeof(uint32_t) * plan->norder) : NULL;
    if (plan->norder && !open) {
        o->oom = true;
        return;
    }
    if (!r->insts.len)
        for (; next < plan->norder; next++) pr_scope_open(pr, plan->order[next]);
    for (uint32_t i = 0; i < r->insts.len; i++) {
        const ir_inst *inst = &r->insts.data[i];
        for (; next < plan->norder && plan->first[plan->order[next]] == i; next++) {
            uint32_t v = plan->order[next];
            pr_scope_open(pr, v);
            if (plan->first[v] != plan->end[v]) open[depth++] = v;
        }
        if (pr->keep_comments && inst->trivia.count && inst->form != VISA_FORM_SUBROUTINE &&
            inst->form != VISA_FORM_LABEL) {
            /* own-line comments: the line before the instruction must be complete */
            if (o->len && o->data[o->len - 1] != '\n') sb_putc(o, '\n');
            pr_own_comments(pr, &inst->trivia);
        }
        pr_instruction(pr, inst, i);
        while (depth && plan->end[open[depth - 1]] == i + 1) {
            sb_puts(o, "}\n");
            depth--;
        }
    }
    if (open) vx_free(o->ctx, open, sizeof(uint32_t) * plan->norder);
}

/* -- Dialects -------------------------------------------------------------------------------- */
static const char *const dialect_names[VISA_DIALECT__COUNT] = {
    [VISA_DIALECT_KEEP] = "keep",
    [VISA_DIALECT_IGC2] = "igc2",
    [VISA_DIALECT_ASM_TEXT] = "asm-text",
    [VISA_DIALECT_IGC1] = "igc1",
};

visa_status visa_dialect_from_name(const char *name, visa_dialect *out) {
    if (!name || !out) return VISA_E_ARG;
    for (int d = VISA_DIALECT_KEEP + 1; d < VISA_DIALECT__COUNT; d++)
        if (!strcmp(name, dialect_names[d])) {
            *out = (visa_dialect)d;
            return VISA_OK;
        }
    return VISA_E_ARG;
}

const char *visa_dialect_name(visa_dialect d) { return (unsigned)d < VISA_DIALECT__COUNT ? dialect_names[d] : NULL; }

visa_dialect visa_module_dialect(const visa_module *m) { return m ? (visa_dialect)m->dialect : VISA_DIALECT_KEEP; }

/* The dialect a print uses (visa.h visa_print_opts); KEEP for contradicting options. */
static visa_dialect print_dialect(const visa_module *m, const visa_print_opts *o) {
    bool asm_text = o && (o->flags & VISA_PRINT_ASM_TEXT);
    visa_dialect want = o ? VISA_PRINT_DIALECT_OF(o->flags) : VISA_DIALECT_KEEP;
    if (want >= VISA_DIALECT__COUNT) return VISA_DIALECT_KEEP;
    if (want != VISA_DIALECT_KEEP) return asm_text && want != VISA_DIALECT_ASM_TEXT ? VISA_DIALECT_KEEP : want;
    if (asm_text) return VISA_DIALECT_ASM_TEXT;
    /* without comments, IGC 2.x's canonical form is its disassembly print */
    if (m->dialect == VISA_DIALECT_ASM_TEXT && o && (o->flags & VISA_PRINT_STRIP_COMMENTS)) return VISA_DIALECT_IGC2;
    return (visa_dialect)m->dialect;
}

/* The text goes out in blocks of PRINT_BLOCK bytes or more, between routines: the buffer stays
** small (and in cache) however large the module.  The last two bytes stay behind: the next
** routine looks back at them (does the last line end, is there a blank line). */
#define PRINT_BLOCK ((size_t)1 << 18)
#define PRINT_LOOKBACK 2u

static visa_status write_block(strbuf *sb, visa_write_fn write, void *ud, bool last) {
    if (!last && sb->len < PRINT_BLOCK) return VISA_OK;
    size_t n = last ? sb->len : sb->len - PRINT_LOOKBACK;
    visa_status st = write(ud, sb->data ? sb->data : "", n);
    if (n && n < sb->len) memmove(sb->data, sb->data + n, sb->len - n);
    sb->len -= n;
    return st;
}

visa_status visa_module_print(const visa_module *m, const visa_print_opts *opts, visa_write_fn write, void *ud) {
    visa_print_opts o;
    if (!m || !write || (opts && visa__print_opts_read(opts, &o) != VISA_OK)) return VISA_E_ARG;
    /* every allocation of the printer goes through the guard: one failure fails the print */
    diag_sink ds;
    diag_init(&ds, m->ctx, m->name, NULL, 0);
    vx_guard guard;
    vx_guard_init(&guard, m->ctx, &ds);
    strbuf sb;
    sb_init(&sb, &guard.ctx);
    txt_printer pr;
    memset(&pr, 0, sizeof pr);
    pr.m = m;
    pr.out = &sb;
    sb_init(&pr.predef_block, &guard.ctx);
    txt_enum_load(&pr.emask, VISA_EN_emask);
    pr.keep_comments = !(opts && (o.flags & VISA_PRINT_STRIP_COMMENTS));
    visa_dialect d = print_dialect(m, opts ? &o : NULL);
    if (d == VISA_DIALECT_KEEP) return VISA_E_ARG;
    pr.asm_text = d == VISA_DIALECT_ASM_TEXT;
    pr.igc1 = d == VISA_DIALECT_IGC1;
    for (uint32_t i = 0; i < m->routines.len; i++) pr.nfuncs += !m->routines.data[i].is_kernel;
    bool ok = true;
    visa_status st = VISA_OK;
    for (uint32_t i = 0; i < m->routines.len && ok && st == VISA_OK; i++) {
        pr.r = &m->routines.data[i];
        ok = label_names_build(&pr) && txt_scope_plan_build(m->ctx, pr.r, &pr.plan);
        if (ok) pr_routine(&pr, i == 0);
        label_names_free(&pr);
        txt_scope_plan_free(m->ctx, &pr.plan);
        if (ok && !sb.oom && !guard.failed) st = write_block(&sb, write, ud, false);
    }
    if (!ok) sb.oom = true;
    if (pr.keep_comments && m->tail_trivia.count) {
        for (uint32_t i = 0; i < m->tail_trivia.count; i++) {
            const ir_comment *c = &m->comments.data[m->tail_trivia.first + i];
            if (sb.len && sb.data[sb.len - 1] != '\n') sb_putc(&sb, '\n'); /* end the last line */
            if (c->blank_before) sb_putc(&sb, '\n');
            sb_putn(&sb, c->text, c->len);
            if (i + 1 < m->tail_trivia.count || !m->no_final_newline) sb_putc(&sb, '\n');
        }
    }
    if (sb.oom) diag_oom(&ds);
    if (st == VISA_OK) st = sb.oom || guard.failed ? VISA_E_NOMEM : write_block(&sb, write, ud, true);
    sb_free(&sb);
    sb_free(&pr.predef_block);
    return st;
}

typedef struct buf_sink {
    strbuf sb;
} buf_sink;

static visa_status buf_write(void *ud, const char *data, size_t len) {
    buf_sink *s = ud;
    sb_putn(&s->sb, data, len);
    return s->sb.oom ? VISA_E_NOMEM : VISA_OK;
}

visa_status visa_module_print_to_buffer(const visa_module *m, const visa_print_opts *opts, char **out,
                                        size_t *out_len) {
    if (!m || !out || !out_len) return VISA_E_ARG;
    *out = NULL;
    *out_len = 0;
    buf_sink s;
    sb_init(&s.sb, m->ctx);
    visa_status st = visa_module_print(m, opts, buf_write, &s);
    if (st == VISA_OK) sb_cstr(&s.sb);
    /* shrink to exactly len + 1 so the caller can free with that size */
    char *p = st == VISA_OK && !s.sb.oom ? vx_realloc(m->ctx, s.sb.data, s.sb.cap, s.sb.len + 1) : NULL;
    if (!p) {
        if (st == VISA_OK || st == VISA_E_NOMEM) {
            diag_sink ds;
            diag_init(&ds, m->ctx, m->name, NULL, 0);
            diag_oom(&ds);
            st = VISA_E_NOMEM;
        }
        sb_free(&s.sb);
        return st;
    }
    *out = p;
    *out_len = s.sb.len;
    return VISA_OK;
}
