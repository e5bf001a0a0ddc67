/* describe.c -- human-readable description of table rows (`visa info`). */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "isa.h"

static const char *const group_names[] = {
    "mov",  "arithmetic",        "logic",           "compare", "address", "control flow", "data port", "sampler",
    "misc", "SIMD control flow", "synchronization", "SVM",     "LSC"};

static const char *layout_code_name(char c) {
    switch (c) {
    case 'E': return "exec(ub)";
    case 'P': return "pred(uw)";
    case 'o': return "subop(ub)";
    case 'V': return "vec";
    case 'v': return "vec(no region)";
    case '&': return "vec|&var";
    case 'R': return "raw";
    case 'L': return "label(uw)";
    case 'b': return "ub";
    case 'w': return "uw";
    case 'd': return "ud";
    case 'i': return "d";
    case 's': return "string(uw)";
    case 'S': return "string(ud)";
    case '#': return "count(ub)";
    case '!': return "(mode-dependent operands)";
    default: return "?";
    }
}

static bool mnem_matches(const isa_form *f, const char *mn) {
    size_t n = strlen(mn);
    if (f->mnem[0] == '%') {
        int en = isa_enum_by_name(f->mnem + 1, strlen(f->mnem + 1));
        uint32_t v;
        const char *t;
        for (unsigned i = 0; en >= 0 && isa_enum_at((isa_enum_id)en, i, &v, &t); i++) {
            size_t tn = strlen(t);
            const char *dot = strchr(t, '.');
            size_t bn = dot ? (size_t)(dot - t) : tn;
            if ((tn == n && !memcmp(t, mn, n)) || (bn == n && !memcmp(t, mn, n))) return true;
        }
        return false;
    }
    const char *s;
    size_t len;
    for (const char *at = f->mnem; isa_mnem_next(&at, &s, &len);)
        if (len == n && !memcmp(s, mn, n)) return true;
    /* the table name too (e.g. "DWORD_ATOMIC"), case-insensitively */
    if (strlen(f->name) == n) {
        size_t i = 0;
        while (i < n && (f->name[i] == mn[i] || f->name[i] + 32 == mn[i])) i++;
        if (i == n) return true;
    }
    return false;
}

/* Does LSC row f take the SFID suffix .sfid?  The text syntax's rule (hooks_lsc.c, p_sfid): typed
** rows .tgm, untyped rows .ugm .ugml .slm, the fence any of them; URB has no token. */
static bool lsc_takes_sfid(int f, const char *sfid) {
    if (!strcmp(sfid, "urb")) return false;
    if (isa_forms[f].parent == VISA_FORM_LSC_TYPED) return !strcmp(sfid, "tgm");
    if (isa_forms[f].parent == VISA_FORM_LSC_UNTYPED) return strcmp(sfid, "tgm") != 0;
    return true;
}

/* mnemonic.sfid names an LSC row: *base_len is the mnemonic's length, *sfid the suffix. */
static bool split_sfid(const char *mn, size_t *base_len, const char **sfid) {
    const char *dot = strrchr(mn, '.');
    if (!dot || dot == mn) return false;
    uint32_t v;
    const char *t;
    for (unsigned i = 0; isa_enum_at(VISA_EN_lsc_sfid, i, &v, &t); i++)
        if (!strcmp(t, dot + 1)) {
            *base_len = (size_t)(dot - mn);
            *sfid = t;
            return true;
        }
    return false;
}

static bool is_parent_row(int f) {
    for (int g = 0; g < VISA_FORM__COUNT; g++)
        if (isa_forms[g].parent == f) return true;
    return false;
}

/* Does form f answer to mnemonic (with an LSC row's SFID suffix: lsc_load.ugm)? */
static bool form_matches(int f, const char *mnemonic) {
    if (mnem_matches(&isa_forms[f], mnemonic)) return true;
    size_t n;
    const char *sfid;
    char base[64];
    if (isa_forms[f].hook != TH_LSC || !split_sfid(mnemonic, &n, &sfid) || n >= sizeof base) return false;
    memcpy(base, mnemonic, n);
    base[n] = 0;
    return lsc_takes_sfid(f, sfid) && mnem_matches(&isa_forms[f], base);
}

static visa_status list_line(visa_write_fn write, void *ud, const char *mn, size_t n, const char *sfid, int f) {
    char buf[256];
    char name[96];
    snprintf(name, sizeof name, "%.*s%s%s", (int)n, mn, sfid ? "." : "", sfid ? sfid : "");
    int k = snprintf(buf, sizeof buf, "%-32s %-26s %s\n", name, isa_forms[f].name, isa_forms[f].sem);
    return write(ud, buf, k > 0 && (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

visa_status visa_list_instructions(visa_write_fn write, void *ud) {
    if (!write) return VISA_E_ARG;
    for (int f = 0; f < VISA_FORM__COUNT; f++) {
        const isa_form *F = &isa_forms[f];
        if (is_parent_row(f)) continue; /* a sub-opcode dispatcher: its rows are listed */
        /* every spelling: "a|b", or each name of "%enum" (cmp.lt) */
        const char *names[64];
        size_t lens[64], count = 0;
        if (F->mnem[0] == '%') {
            int en = isa_enum_by_name(F->mnem + 1, strlen(F->mnem + 1));
            uint32_t v;
            const char *t;
            for (unsigned i = 0; en >= 0 && count < 64 && isa_enum_at((isa_enum_id)en, i, &v, &t); i++)
                names[count] = t, lens[count++] = strlen(t);
        } else {
            const char *at = F->mnem;
            while (count < 64 && isa_mnem_next(&at, &names[count], &lens[count])) count++;
        }
        for (size_t k = 0; k < count; k++) {
            visa_status st = VISA_OK;
            if (F->hook == TH_LSC) {
                uint32_t v;
                const char *t;
                for (unsigned i = 0; st == VISA_OK && isa_enum_at(VISA_EN_lsc_sfid, i, &v, &t); i++)
                    if (lsc_takes_sfid(f, t)) st = list_line(write, ud, names[k], lens[k], t, f);
            } else {
                st = list_line(write, ud, names[k], lens[k], NULL, f);
            }
            if (st != VISA_OK) return st;
        }
    }
    return VISA_OK;
}

visa_status visa_describe_instruction(const char *mnemonic, visa_write_fn write, void *ud) {
    if (!mnemonic || !write) return VISA_E_ARG;
    char buf[4096];
    bool found = false;
    for (int f = 0; f < VISA_FORM__COUNT; f++) {
        const isa_form *F = &isa_forms[f];
        if (!form_matches(f, mnemonic)) continue;
        found = true;
        char full[64];
        const char *layout = isa_form_layout(f, full);
        int n = snprintf(buf, sizeof buf, "%s\n  opcode:     0x%02X", F->name, F->opcode);
        if (F->sub >= 0)
            n +=
                snprintf(buf + n, sizeof buf - (size_t)n, " sub-opcode 0x%02X (%s)", F->sub, isa_forms[F->parent].name);
        n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  mnemonic:   %s\n  group:      %s\n", F->mnem,
                      group_names[isa_form_group(f)]);
        n += snprintf(buf + n, sizeof buf - (size_t)n, "  semantics:  %s\n  layout:     opcode(ub)", F->sem);
        if (F->sub >= 0) {
            /* the sub-opcode byte sits where the parent has 'o' */
            char pre[64];
            size_t k = 0;
            for (const char *c = isa_forms[F->parent].layout; *c && *c != 'o'; c++) pre[k++] = *c;
            pre[k] = 0;
            for (const char *c = pre; *c; c++)
                n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", layout_code_name(*c));
            n += snprintf(buf + n, sizeof buf - (size_t)n, " subop(ub)");
            layout += k;
        }
        for (const char *c = layout; *c && n < (int)sizeof buf - 40; c++) {
            if (*c == '*') {
                n += snprintf(buf + n, sizeof buf - (size_t)n, " %s...", layout_code_name(c[1]));
                break;
            }
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", layout_code_name(*c));
        }
        n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  exec sizes: ");
        if (!F->exec) n += snprintf(buf + n, sizeof buf - (size_t)n, "(none)");
        for (int k = 0; k <= 5; k++)
            if (F->exec & (1 << k)) n += snprintf(buf + n, sizeof buf - (size_t)n, "%d ", 1 << k);
        n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  platforms:  %s and later\n",
                      visa_platform_name((visa_platform)F->plat));
        n += snprintf(
            buf + n, sizeof buf - (size_t)n, "  flags:     %s%s%s%s%s%s%s\n", (F->flags & VF_SAT) ? " sat" : "",
            (F->flags & VF_SMOD_ARITH) ? " (-)(abs)" : "", (F->flags & VF_SMOD_LOGIC) ? " (~)" : "",
            strchr(layout, 'P') || (F->sub >= 0 && strchr(isa_forms[F->parent].layout, 'P')) ? " predicate" : "",
            (F->flags & VF_BRANCH) ? " branch" : "", (F->flags & VF_SEND) ? " send" : "",
            (F->flags & VF_MATH) ? " math" : "");
        if (F->typeset != TM_NONE && n < (int)sizeof buf - 600) {
            n += snprintf(buf + n, sizeof buf - (size_t)n, "  types:      ");
            size_t k = isa_typeset_describe(F->typeset, buf + n, sizeof buf - (size_t)n - 300);
            n += (int)(k < sizeof buf - (size_t)n - 300 ? k : sizeof buf - (size_t)n - 301);
            if (buf[n - 1] != '\n') buf[n++] = '\n';
        }
        if (F->text || F->hook != TH_NONE) {
            n += snprintf(buf + n, sizeof buf - (size_t)n, "  text:       %s\n\n",
                          F->text ? F->text : "family syntax, see docs/text-syntax/");
        } else {
            /* the generic form the template engine prints and parses */
            n += snprintf(buf + n, sizeof buf - (size_t)n, "  text:       %s%.*s%s%s",
                          strchr(layout, 'P') ? "[(<pred>)] " : "", (int)isa_mnem_len(F->mnem), F->mnem,
                          (F->flags & VF_SAT) ? "[.sat]" : "", strchr(layout, 'E') ? " (<emask>, <exec_size>)" : "");
            for (const char *c = layout; *c && n < (int)sizeof buf - 40; c++)
                if (!strchr("EPo#*!", *c))
                    n += snprintf(buf + n, sizeof buf - (size_t)n, " <%s>",
                                  *c == 'V' || *c == '&' ? "vec"
                                  : *c == 'R'            ? "raw"
                                  : *c == 'L'            ? "label"
                                                         : "imm");
            n += snprintf(buf + n, sizeof buf - (size_t)n, "\n\n");
        }
        visa_status st = write(ud, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        if (st != VISA_OK) return st;
    }
    return found ? VISA_OK : VISA_E_ARG;
}

unsigned visa_type_bytes(const char *name) {
    int t = name ? isa_type_from_name(name, strlen(name)) : -1;
    return t < 0 ? 0 : isa_types[t].bytes;
}
