/* zeinfo.c -- .ze_info, the YAML IGC writes into a zebin to say how each kernel is launched, into
** the model of program_int.h.  The records and their ranges are zeinfo.def's rows; one reader
** (read_record) reads every kind of record from them.  After reading, each kernel is checked as
** a whole: simd size, payload bytes within VP_ZEINFO_MAX_PAYLOAD and not overlapping, explicit
** arguments with an index, no argument described twice, binding table entries unique.
**
** Diagnostics, at the YAML line and column: E-ZEINFO-TYPE (a value of the wrong type),
** -RANGE (a number outside its range), -VALUE (a name its table lacks), -MISSING (a required
** key), -DUP (a key, kernel, argument or table entry given twice), -OVERLAP (payload bytes two
** arguments share), -VERSION, -YAML, -ALIAS, -LIMIT, -EMPTY (yamltree.c); warnings
** W-ZEINFO-UNKNOWN (a key the schema lacks: ignored), W-ZEINFO-VERSION, W-ZEINFO-MISC.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yamltree.h"

/* -- The schema as data ------------------------------------------------------------------------ */
enum { K_INT, K_BOOL, K_STR, K_INT3, K_ENUM };
#define VP_K_INT K_INT
#define VP_K_BOOL K_BOOL
#define VP_K_STR K_STR
#define VP_K_INT3 K_INT3
#define VP_K_ENUM K_ENUM
#define VP_NAMEOFF_INT(T, m) 0
#define VP_NAMEOFF_BOOL(T, m) 0
#define VP_NAMEOFF_STR(T, m) 0
#define VP_NAMEOFF_INT3(T, m) 0
#define VP_NAMEOFF_ENUM(T, m) offsetof(T, m##_name)

typedef struct field {
    const char *key;
    uint8_t kind, table;
    bool required;
    int32_t def, lo, hi;
    size_t off, name_off;
} field;

typedef struct record {
    const char *what;
    const field *fields;
    uint32_t count;
    size_t present_off, line_off; /* offsetof present and line (col follows line) */
} record;

#define ROW(T, m, kind, table, def, lo, hi, req) \
    {#m, VP_K_##kind, VP_TAB_##table, req, def, lo, hi, offsetof(T, m), VP_NAMEOFF_##kind(T, m)},
#define RECORD(T, what, rows) \
    { what, rows, sizeof rows / sizeof *rows, offsetof(T, present), offsetof(T, line) }

static const field env_fields[] = {
#define VP_ENV(m, kind, table, def, lo, hi, req) ROW(vp_exec_env, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field uattr_fields[] = {
#define VP_UATTR(m, kind, table, def, lo, hi, req) ROW(vp_user_attrs, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field parg_fields[] = {
#define VP_PARG(m, kind, table, def, lo, hi, req) ROW(vp_payload_arg, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field ptarg_fields[] = {
#define VP_PTARG(m, kind, table, def, lo, hi, req) ROW(vp_per_thread_arg, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field bti_fields[] = {
#define VP_BTI(m, kind, table, def, lo, hi, req) ROW(vp_bti, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field ptmb_fields[] = {
#define VP_PTMB(m, kind, table, def, lo, hi, req) ROW(vp_thread_buffer, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field isamp_fields[] = {
#define VP_ISAMP(m, kind, table, def, lo, hi, req) ROW(vp_inline_sampler, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field arginfo_fields[] = {
#define VP_ARGINFO(m, kind, table, def, lo, hi, req) ROW(vp_arg_info, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};
static const field hostacc_fields[] = {
#define VP_HOSTACC(m, kind, table, def, lo, hi, req) ROW(vp_host_access, m, kind, table, def, lo, hi, req)
#include "zeinfo.def"
};

static const record env_rec = RECORD(vp_exec_env, "execution_env", env_fields);
static const record uattr_rec = RECORD(vp_user_attrs, "user_attributes", uattr_fields);
static const record parg_rec = RECORD(vp_payload_arg, "payload argument", parg_fields);
static const record ptarg_rec = RECORD(vp_per_thread_arg, "per-thread payload argument", ptarg_fields);
static const record bti_rec = RECORD(vp_bti, "binding table index", bti_fields);
static const record ptmb_rec = RECORD(vp_thread_buffer, "per-thread memory buffer", ptmb_fields);
static const record isamp_rec = RECORD(vp_inline_sampler, "inline sampler", isamp_fields);
static const record arginfo_rec = RECORD(vp_arg_info, "args_info entry", arginfo_fields);
static const record hostacc_rec = RECORD(vp_host_access, "global_host_access_table entry", hostacc_fields);

/* Name tables: names_<TABLE>[code], code 0 being "unknown" */
static const char *const names_ARG[] = {
    "unknown",
#define VP_ARG(code, spelling, explicit_arg) spelling,
#include "zeinfo.def"
};
static const char *const names_ADDRMODE[] = {
    "unknown",
#define VP_ADDRMODE(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_ADDRSPACE[] = {
    "unknown",
#define VP_ADDRSPACE(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_ACCESS[] = {
    "unknown",
#define VP_ACCESS(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_IMAGE[] = {
    "unknown",
#define VP_IMAGE(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_SAMPLER[] = {
    "unknown",
#define VP_SAMPLER(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_BUFTYPE[] = {
    "unknown",
#define VP_BUFTYPE(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_BUFUSE[] = {
    "unknown",
#define VP_BUFUSE(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_SCHED[] = {
    "unknown",
#define VP_SCHED(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_SAMPADDR[] = {
    "unknown",
#define VP_SAMPADDR(code, spelling) spelling,
#include "zeinfo.def"
};
static const char *const names_SAMPFILTER[] = {
    "unknown",
#define VP_SAMPFILTER(code, spelling) spelling,
#include "zeinfo.def"
};

static const struct {
    const char *const *names;
    uint32_t count;
    bool open;
} tables[VP_TAB__COUNT] = {
#define VP_TABLE(table, open) [VP_TAB_##table] = {names_##table, sizeof names_##table / sizeof *names_##table, open},
#include "zeinfo.def"
};

static const bool arg_explicit[VP_ARG__COUNT] = {
#define VP_ARG(code, spelling, explicit_arg) [VP_ARG_##code] = explicit_arg,
#include "zeinfo.def"
};

const char *vp_zeinfo_name(vp_table_id table, int32_t code) {
    if (table <= VP_TAB_NONE || table >= VP_TAB__COUNT || code < 0 || (uint32_t)code >= tables[table].count)
        return "unknown";
    return tables[table].names[code];
}

bool vp_arg_type_is_explicit(vp_arg_type type) { return (unsigned)type < VP_ARG__COUNT && arg_explicit[type]; }

/* -- Reading values ---------------------------------------------------------------------------- */
typedef struct zi_reader {
    vp_zeinfo *zi;
    diag_sink *ds;
    bool err;
} zi_reader;

/* Report row d at line:col of the YAML text; an error row fails the read. */
static void zdiag_at(zi_reader *z, uint32_t line, uint32_t col, vp_diag_id d, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void zdiag_at(zi_reader *z, uint32_t line, uint32_t col, vp_diag_id d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vp_diag_vat(z->ds, d, line, col, 0, fmt, ap);
    va_end(ap);
    if (vp_diag_is_error(d)) z->err = true;
}

/* ... at a node */
#define zdiag(z, node, d, ...) zdiag_at(z, (node)->line, (node)->col, d, __VA_ARGS__)

/* What a node is, for messages. */
static const char *node_what(const vp_ynode *n) {
    if (n->kind == VP_YNODE_MAP) return "a mapping";
    if (n->kind == VP_YNODE_SEQ) return "a sequence";
    return n->quoted ? "a quoted string" : "a scalar";
}

static bool read_int(zi_reader *z, const vp_ynode *n, const char *key, int32_t lo, int32_t hi, int32_t *out) {
    if (n->kind != VP_YNODE_SCALAR || n->quoted) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected an integer, got %s", key, node_what(n));
        return false;
    }
    const char *s = n->text;
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    int64_t v = 0;
    size_t digits = strspn(s, "0123456789");
    if (!digits || s[digits]) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected an integer, got '%.40s'", key, n->text);
        return false;
    }
    for (size_t i = 0; i < digits && i < 12; i++) v = v * 10 + (s[i] - '0'); /* 12 digits fit */
    if (neg) v = -v;
    if (digits > 12 || v < lo || v > hi) {
        zdiag(z, n, PDIAG_ZEINFO_RANGE, "%s: %.40s is outside %d..%d", key, n->text, lo, hi);
        return false;
    }
    *out = (int32_t)v;
    return true;
}

static bool read_bool(zi_reader *z, const vp_ynode *n, const char *key, bool *out) {
    if (n->kind == VP_YNODE_SCALAR && !n->quoted) {
        if (strcmp(n->text, "true") == 0) return *out = true;
        if (strcmp(n->text, "false") == 0) return !(*out = false);
    }
    zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected true or false, got %s%s%.40s%s", key, node_what(n),
          n->kind == VP_YNODE_SCALAR ? " '" : "", n->kind == VP_YNODE_SCALAR ? n->text : "",
          n->kind == VP_YNODE_SCALAR ? "'" : "");
    return false;
}

static const char *read_str(zi_reader *z, const vp_ynode *n, const char *key) {
    if (n->kind != VP_YNODE_SCALAR) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected a string, got %s", key, node_what(n));
        return NULL;
    }
    return vp_arena_strndup(&z->zi->arena, n->text, n->len);
}

static bool read_int3(zi_reader *z, const vp_ynode *n, const field *f, int32_t *out) {
    if (n->kind != VP_YNODE_SEQ || n->count != 3) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected a sequence of 3 integers, got %s", f->key, node_what(n));
        return false;
    }
    bool ok = true;
    for (unsigned i = 0; i < 3; i++) ok &= read_int(z, n->items[i], f->key, f->lo, f->hi, &out[i]);
    return ok;
}

static bool read_enum(zi_reader *z, const vp_ynode *n, const field *f, int32_t *code, const char **name) {
    if (n->kind != VP_YNODE_SCALAR) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s: expected a name, got %s", f->key, node_what(n));
        return false;
    }
    *name = vp_arena_strndup(&z->zi->arena, n->text, n->len);
    for (uint32_t i = 1; i < tables[f->table].count; i++) {
        if (strcmp(tables[f->table].names[i], n->text) == 0) {
            *code = (int32_t)i;
            return true;
        }
    }
    if (tables[f->table].open) return true; /* kept as unknown, with its spelling */
    zdiag(z, n, PDIAG_ZEINFO_VALUE, "%s: unknown value '%.40s'", f->key, n->text);
    return false;
}

static void read_value(zi_reader *z, const vp_ynode *n, const field *f, char *rec) {
    switch (f->kind) {
    case K_INT: read_int(z, n, f->key, f->lo, f->hi, (int32_t *)(void *)(rec + f->off)); break;
    case K_BOOL: read_bool(z, n, f->key, (bool *)(rec + f->off)); break;
    case K_STR: *(const char **)(void *)(rec + f->off) = read_str(z, n, f->key); break;
    case K_INT3: read_int3(z, n, f, (int32_t *)(void *)(rec + f->off)); break;
    default: read_enum(z, n, f, (int32_t *)(void *)(rec + f->off), (const char **)(void *)(rec + f->name_off)); break;
    }
}

/* The value of `key` in mapping `n` is given twice: report the second one.  Keys are few per
** mapping in .ze_info; the search is linear in the keys before. */
static bool key_repeated(zi_reader *z, const vp_ynode *n, uint32_t k) {
    for (uint32_t j = 0; j < k; j += 2) {
        if (strcmp(n->items[j]->text, n->items[k]->text) == 0) {
            zdiag(z, n->items[k], PDIAG_ZEINFO_DUP, "key '%.60s' given twice (first on line %u)", n->items[k]->text,
                  n->items[j]->line);
            return true;
        }
    }
    return false;
}

/* One record of `rec`'s kind from mapping `n` into `out`.  required: enforce required keys. */
static void read_record(zi_reader *z, const vp_ynode *n, const record *rec, void *out, bool required) {
    char *base = out;
    for (uint32_t i = 0; i < rec->count; i++)
        if (rec->fields[i].kind == K_INT) *(int32_t *)(void *)(base + rec->fields[i].off) = rec->fields[i].def;
    uint32_t *pos = (uint32_t *)(void *)(base + rec->line_off);
    pos[0] = n->line;
    pos[1] = n->col;
    if (n->kind != VP_YNODE_MAP) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "a %s must be a mapping, not %s", rec->what, node_what(n));
        return;
    }
    uint64_t *present = (uint64_t *)(void *)(base + rec->present_off);
    for (uint32_t k = 0; k < n->count; k += 2) {
        const vp_ynode *key = n->items[k], *value = n->items[k + 1];
        uint32_t i = 0;
        while (i < rec->count && strcmp(rec->fields[i].key, key->text) != 0) i++;
        if (i == rec->count) {
            zdiag(z, key, PDIAG_W_ZEINFO_UNKNOWN, "unknown key '%.60s' in a %s (ignored)", key->text, rec->what);
        } else if (!(*present >> i & 1)) {
            *present |= 1ull << i;
            read_value(z, value, &rec->fields[i], base);
        } else {
            key_repeated(z, n, k);
        }
    }
    for (uint32_t i = 0; required && i < rec->count; i++)
        if (rec->fields[i].required && !(*present >> i & 1))
            zdiag(z, n, PDIAG_ZEINFO_MISSING, "a %s without '%s'", rec->what, rec->fields[i].key);
}

/* A sequence of records of `rec`'s kind into a new array of `size`-byte items. */
static void *read_list(zi_reader *z, const vp_ynode *n, const record *rec, size_t size, uint32_t *count) {
    *count = 0;
    if (n->kind != VP_YNODE_SEQ) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "expected a sequence of %ss, got %s", rec->what, node_what(n));
        return NULL;
    }
    char *items = vp_arena_array(&z->zi->arena, n->count, size);
    if (!items) return NULL;
    for (uint32_t i = 0; i < n->count; i++) read_record(z, n->items[i], rec, items + i * size, true);
    *count = n->count;
    return items;
}

/* -- Kernels ----------------------------------------------------------------------------------- */
/* The lists of a kernel: key, record, item size, where the array and its count go. */
static const struct kernel_list {
    const char *key;
    const record *rec;
    size_t size, array_off, count_off;
} kernel_lists[] = {
    {"payload_arguments", &parg_rec, sizeof(vp_payload_arg), offsetof(vp_zeinfo_kernel, args),
     offsetof(vp_zeinfo_kernel, arg_count)},
    {"per_thread_payload_arguments", &ptarg_rec, sizeof(vp_per_thread_arg), offsetof(vp_zeinfo_kernel, thread_args),
     offsetof(vp_zeinfo_kernel, thread_arg_count)},
    {"binding_table_indices", &bti_rec, sizeof(vp_bti), offsetof(vp_zeinfo_kernel, btis),
     offsetof(vp_zeinfo_kernel, bti_count)},
    {"per_thread_memory_buffers", &ptmb_rec, sizeof(vp_thread_buffer), offsetof(vp_zeinfo_kernel, buffers),
     offsetof(vp_zeinfo_kernel, buffer_count)},
    {"inline_samplers", &isamp_rec, sizeof(vp_inline_sampler), offsetof(vp_zeinfo_kernel, samplers),
     offsetof(vp_zeinfo_kernel, sampler_count)},
};
#define N_KERNEL_LISTS (sizeof kernel_lists / sizeof *kernel_lists)

static bool ignored(const char *where, const char *key) {
#define VP_IGNORE(w, k) \
    if (strcmp(where, #w) == 0 && strcmp(key, k) == 0) return true;
#include "zeinfo.def"
    return false;
}

/* Reads the keys of mapping `n` that `keys` names into `found` (NULL when absent); reports
** repeated keys and warns of unknown ones.  false when `n` is not a mapping. */
static bool split_mapping(zi_reader *z, const vp_ynode *n, const char *what, const char *where, const char *const *keys,
                          size_t nkeys, const vp_ynode **found) {
    memset(found, 0, nkeys * sizeof *found);
    if (n->kind != VP_YNODE_MAP) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "%s must be a mapping, not %s", what, node_what(n));
        return false;
    }
    for (uint32_t k = 0; k < n->count; k += 2) {
        const char *key = n->items[k]->text;
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i], key) != 0) i++;
        if (i < nkeys && found[i]) key_repeated(z, n, k);
        else if (i < nkeys) found[i] = n->items[k + 1];
        else if (!ignored(where, key))
            zdiag(z, n->items[k], PDIAG_W_ZEINFO_UNKNOWN, "unknown key '%.60s' in %s (ignored)", key, what);
    }
    return true;
}

enum { KK_NAME, KK_ENV, KK_ATTRS, KK_LISTS };

static void read_kernel(zi_reader *z, const vp_ynode *n, vp_zeinfo_kernel *k) {
    const char *keys[KK_LISTS + N_KERNEL_LISTS] = {"name", "execution_env", "user_attributes"};
    for (size_t i = 0; i < N_KERNEL_LISTS; i++) keys[KK_LISTS + i] = kernel_lists[i].key;
    const vp_ynode *v[KK_LISTS + N_KERNEL_LISTS];
    k->line = n->line;
    k->col = n->col;
    if (!split_mapping(z, n, "a kernel", "KERNEL", keys, KK_LISTS + N_KERNEL_LISTS, v)) return;
    if (v[KK_NAME]) k->name = read_str(z, v[KK_NAME], "name");
    else zdiag(z, n, PDIAG_ZEINFO_MISSING, "a kernel without 'name'");
    if (v[KK_ENV]) read_record(z, v[KK_ENV], &env_rec, &k->env, true);
    else zdiag(z, n, PDIAG_ZEINFO_MISSING, "kernel %s without 'execution_env'", k->name ? k->name : "?");
    if (v[KK_ATTRS]) read_record(z, v[KK_ATTRS], &uattr_rec, &k->attrs, true);
    for (size_t i = 0; i < N_KERNEL_LISTS; i++) {
        if (!v[KK_LISTS + i]) continue;
        const struct kernel_list *l = &kernel_lists[i];
        char *base = (char *)k;
        *(void **)(void *)(base + l->array_off) =
            read_list(z, v[KK_LISTS + i], l->rec, l->size, (uint32_t *)(void *)(base + l->count_off));
    }
}

/* -- Whole-kernel checks ----------------------------------------------------------------------- */
/* A sort key with the index of what it came from; sorted, equal neighbours are duplicates. */
typedef struct skey {
    int64_t a, b, c;
    uint32_t index;
} skey;

static int cmp_skey(const void *x, const void *y) {
    const skey *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

static skey *sorted_keys(zi_reader *z, uint32_t n) { return vp_arena_array(&z->zi->arena, n ? n : 1, sizeof(skey)); }

/* Argument descriptions that say the same thing twice: one arg_bypointer per (index, addrmode),
** one arg_byvalue piece per (index, source_offset), one buffer_address / buffer_offset /
** buffer_size per index, and no argument both by value and by pointer. */
static void check_arg_duplicates(zi_reader *z, const vp_zeinfo_kernel *k) {
    skey *keys = sorted_keys(z, k->arg_count);
    if (!keys) return;
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        if (!vp_arg_type_is_explicit(a->arg_type) || a->arg_index < 0) continue;
        /* by value and by pointer sort together, so that an argument that is both is seen */
        bool byref = a->arg_type == VP_ARG_ARG_BYPOINTER || a->arg_type == VP_ARG_ARG_BYVALUE;
        int64_t second = a->arg_type == VP_ARG_ARG_BYPOINTER ? a->addrmode
                         : a->arg_type == VP_ARG_ARG_BYVALUE ? a->source_offset
                                                             : 0;
        keys[n++] = (skey){a->arg_index, byref ? -1 : a->arg_type, second, i};
    }
    qsort(keys, n, sizeof *keys, cmp_skey);
    for (uint32_t i = 1; i < n; i++) {
        const vp_payload_arg *a = &k->args[keys[i].index], *b = &k->args[keys[i - 1].index];
        if (keys[i].a != keys[i - 1].a || keys[i].b != keys[i - 1].b) continue;
        if (a->arg_type != b->arg_type)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_DUP,
                     "kernel %s: argument %d is both by value "
                     "and by pointer (lines %u and %u)",
                     k->name, a->arg_index, b->line, a->line);
        else if (keys[i].c == keys[i - 1].c)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_DUP,
                     "kernel %s: argument %d's %s repeats "
                     "line %u",
                     k->name, a->arg_index, a->arg_type_name, b->line);
    }
}

/* Sized payload arguments lie within the limit and share no byte. */
static void check_payload_bytes(zi_reader *z, vp_zeinfo_kernel *k) {
    skey *keys = sorted_keys(z, k->arg_count);
    if (!keys) return;
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        uint32_t end = (uint32_t)a->offset + (uint32_t)a->size;
        if (end > VP_ZEINFO_MAX_PAYLOAD)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_RANGE,
                     "kernel %s: payload argument ends at "
                     "byte %u, past the %u-byte payload limit",
                     k->name, end, VP_ZEINFO_MAX_PAYLOAD);
        if (end > k->payload_size) k->payload_size = end;
        if (a->size > 0) keys[n++] = (skey){a->offset, (int64_t)end, 0, i};
    }
    qsort(keys, n, sizeof *keys, cmp_skey);
    for (uint32_t i = 1; i < n; i++) {
        const vp_payload_arg *a = &k->args[keys[i].index];
        if (keys[i].a < keys[i - 1].b)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_OVERLAP,
                     "kernel %s: payload bytes %lld..%lld "
                     "overlap bytes %lld..%lld (line %u)",
                     k->name, (long long)keys[i].a, (long long)keys[i].b, (long long)keys[i - 1].a,
                     (long long)keys[i - 1].b, k->args[keys[i - 1].index].line);
    }
}

/* Equal values of one int32 field among n records (stride bytes apart) are duplicates. */
static void check_unique(zi_reader *z, const char *kernel, const char *what, const void *items, uint32_t n,
                         size_t stride, size_t off, size_t line_off) {
    skey *keys = sorted_keys(z, n);
    if (!keys) return;
    const char *base = items;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (skey){*(const int32_t *)(const void *)(base + i * stride + off), 0, 0, i};
    qsort(keys, n, sizeof *keys, cmp_skey);
    for (uint32_t i = 1; i < n; i++) {
        if (keys[i].a != keys[i - 1].a) continue;
        const uint32_t *pos = (const uint32_t *)(const void *)(base + keys[i].index * stride + line_off);
        const uint32_t *first = (const uint32_t *)(const void *)(base + keys[i - 1].index * stride + line_off);
        zdiag_at(z, pos[0], pos[1], PDIAG_ZEINFO_DUP, "kernel %s: %s %lld given twice (first on line %u)", kernel, what,
                 (long long)keys[i].a, first[0]);
    }
}

static void note_index(vp_zeinfo_kernel *k, int32_t index) {
    if (index >= 0 && (uint32_t)index + 1 > k->explicit_args) k->explicit_args = (uint32_t)index + 1;
}

static void check_kernel(zi_reader *z, vp_zeinfo_kernel *k) {
    int32_t simd = k->env.simd_size;
    if (VP_PRESENT(&k->env, VP_ENV_simd_size) && simd != 1 && simd != 8 && simd != 16 && simd != 32)
        zdiag_at(z, k->env.line, k->env.col, PDIAG_ZEINFO_RANGE, "kernel %s: simd_size %d is not 1, 8, 16 or 32",
                 k->name, simd);
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        if (vp_arg_type_is_explicit(a->arg_type) && a->arg_index < 0)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_MISSING, "kernel %s: %s without 'arg_index'", k->name,
                     a->arg_type_name ? a->arg_type_name : "argument");
        if (a->slm_alignment & (a->slm_alignment - 1))
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_RANGE,
                     "kernel %s: slm_alignment %d is not a "
                     "power of two",
                     k->name, a->slm_alignment);
        note_index(k, a->arg_index);
    }
    for (uint32_t i = 0; i < k->thread_arg_count; i++) {
        const vp_per_thread_arg *a = &k->thread_args[i];
        if (a->offset + a->size > VP_ZEINFO_MAX_PER_THREAD)
            zdiag_at(z, a->line, a->col, PDIAG_ZEINFO_RANGE,
                     "kernel %s: per-thread payload argument "
                     "ends at byte %d, past the %u-byte limit",
                     k->name, a->offset + a->size, VP_ZEINFO_MAX_PER_THREAD);
    }
    for (uint32_t i = 0; i < k->bti_count; i++) note_index(k, k->btis[i].arg_index);
    check_payload_bytes(z, k);
    check_arg_duplicates(z, k);
    check_unique(z, k->name, "binding table index", k->btis, k->bti_count, sizeof *k->btis, offsetof(vp_bti, bti_value),
                 offsetof(vp_bti, line));
    check_unique(z, k->name, "binding table entry for argument", k->btis, k->bti_count, sizeof *k->btis,
                 offsetof(vp_bti, arg_index), offsetof(vp_bti, line));
}

/* -- Top level --------------------------------------------------------------------------------- */
static void read_version(zi_reader *z, const vp_ynode *n) {
    const char *s = read_str(z, n, "version");
    if (!s) return;
    unsigned major = 0, minor = 0;
    int used = 0;
    if (sscanf(s, "%3u.%3u%n", &major, &minor, &used) != 2 || s[used] || !strchr("0123456789", *s))
        zdiag(z, n, PDIAG_ZEINFO_VERSION, "version '%.40s' is not MAJOR.MINOR", s);
    else if (major != 1) zdiag(z, n, PDIAG_ZEINFO_VERSION, "version %u.%u: only .ze_info 1.x is read", major, minor);
    z->zi->version_major = major;
    z->zi->version_minor = minor;
}

static int cmp_kernel_name(const void *x, const void *y) {
    const vp_zeinfo_kernel *const *p = x, *const *q = y;
    int c = strcmp((*p)->name, (*q)->name);
    return c ? c : ((*p)->line > (*q)->line) - ((*p)->line < (*q)->line);
}

static void read_kernels(zi_reader *z, const vp_ynode *n) {
    if (n->kind != VP_YNODE_SEQ) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "kernels must be a sequence, not %s", node_what(n));
        return;
    }
    vp_zeinfo_kernel *ks = vp_arena_array(&z->zi->arena, n->count, sizeof *ks);
    const vp_zeinfo_kernel **by_name = vp_arena_array(&z->zi->arena, n->count, sizeof *by_name);
    if (!ks || !by_name) return;
    for (uint32_t i = 0; i < n->count; i++) {
        read_kernel(z, n->items[i], &ks[i]);
        if (!ks[i].name) ks[i].name = "";
        check_kernel(z, &ks[i]);
        by_name[i] = &ks[i];
    }
    z->zi->kernels = ks;
    z->zi->kernel_count = n->count;
    qsort(by_name, n->count, sizeof *by_name, cmp_kernel_name);
    for (uint32_t i = 1; i < n->count; i++)
        if (strcmp(by_name[i]->name, by_name[i - 1]->name) == 0)
            zdiag_at(z, by_name[i]->line, by_name[i]->col, PDIAG_ZEINFO_DUP,
                     "a second kernel named '%.60s' (the first is on line %u)", by_name[i]->name, by_name[i - 1]->line);
}

static void read_functions(zi_reader *z, const vp_ynode *n) {
    if (n->kind != VP_YNODE_SEQ) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "functions must be a sequence, not %s", node_what(n));
        return;
    }
    vp_zeinfo_function *fs = vp_arena_array(&z->zi->arena, n->count, sizeof *fs);
    if (!fs) return;
    static const char *const keys[] = {"name", "execution_env"};
    for (uint32_t i = 0; i < n->count; i++) {
        const vp_ynode *v[2];
        fs[i].line = n->items[i]->line;
        fs[i].col = n->items[i]->col;
        fs[i].name = "";
        if (!split_mapping(z, n->items[i], "a function", "FUNCTION", keys, 2, v)) continue;
        if (v[0]) fs[i].name = read_str(z, v[0], "name");
        else zdiag(z, n->items[i], PDIAG_ZEINFO_MISSING, "a function without 'name'");
        if (v[1]) read_record(z, v[1], &env_rec, &fs[i].env, false);
        if (!fs[i].name) fs[i].name = "";
    }
    z->zi->functions = fs;
    z->zi->function_count = n->count;
}

/* kernels_misc_info: each entry's args_info goes to the kernel of its name. */
static void read_misc_info(zi_reader *z, const vp_ynode *n) {
    if (n->kind != VP_YNODE_SEQ) {
        zdiag(z, n, PDIAG_ZEINFO_TYPE, "kernels_misc_info must be a sequence, not %s", node_what(n));
        return;
    }
    static const char *const keys[] = {"name", "args_info"};
    bool *seen = vp_arena_array(&z->zi->arena, z->zi->kernel_count, sizeof *seen);
    if (!seen) return;
    for (uint32_t i = 0; i < n->count; i++) {
        const vp_ynode *v[2];
        if (!split_mapping(z, n->items[i], "a kernels_misc_info entry", "MISC", keys, 2, v)) continue;
        if (!v[0]) {
            zdiag(z, n->items[i], PDIAG_ZEINFO_MISSING, "a kernels_misc_info entry without 'name'");
            continue;
        }
        const char *name = read_str(z, v[0], "name");
        vp_zeinfo_kernel *k = name ? (vp_zeinfo_kernel *)vp_zeinfo_kernel_by_name(z->zi, name) : NULL;
        if (!name) continue;
        if (!k) {
            zdiag(z, v[0], PDIAG_W_ZEINFO_MISC, "kernels_misc_info names '%.60s', which is not a kernel", name);
            continue;
        }
        if (seen[k - z->zi->kernels]) {
            zdiag(z, v[0], PDIAG_ZEINFO_DUP, "a second kernels_misc_info entry for kernel %.60s", name);
            continue;
        }
        seen[k - z->zi->kernels] = true;
        if (!v[1]) continue;
        k->arg_infos = read_list(z, v[1], &arginfo_rec, sizeof *k->arg_infos, &k->arg_info_count);
        check_unique(z, k->name, "args_info index", k->arg_infos, k->arg_info_count, sizeof *k->arg_infos,
                     offsetof(vp_arg_info, index), offsetof(vp_arg_info, line));
        for (uint32_t a = 0; a < k->arg_info_count; a++) note_index(k, k->arg_infos[a].index);
    }
}

enum { TK_VERSION, TK_KERNELS, TK_FUNCTIONS, TK_HOST_ACCESS, TK_MISC, TK__COUNT };

static void read_document(zi_reader *z, const vp_ynode *root) {
    static const char *const keys[TK__COUNT] = {"version", "kernels", "functions", "global_host_access_table",
                                                "kernels_misc_info"};
    const vp_ynode *v[TK__COUNT];
    if (!split_mapping(z, root, ".ze_info", "TOP", keys, TK__COUNT, v)) return;
    if (v[TK_VERSION]) read_version(z, v[TK_VERSION]);
    else zdiag(z, root, PDIAG_W_ZEINFO_VERSION, ".ze_info without 'version': read as 1.x");
    if (v[TK_KERNELS]) read_kernels(z, v[TK_KERNELS]);
    else zdiag(z, root, PDIAG_ZEINFO_MISSING, ".ze_info without 'kernels'");
    if (v[TK_FUNCTIONS]) read_functions(z, v[TK_FUNCTIONS]);
    if (v[TK_HOST_ACCESS])
        z->zi->host_access =
            read_list(z, v[TK_HOST_ACCESS], &hostacc_rec, sizeof(vp_host_access), &z->zi->host_access_count);
    if (v[TK_MISC]) read_misc_info(z, v[TK_MISC]);
}

visa_status vp_zeinfo_parse(visa_ctx *ctx, const char *name, const char *text, size_t len, vp_zeinfo **out) {
    if (!ctx || !out || (!text && len)) return VISA_E_ARG;
    *out = NULL;
    diag_sink ds;
    diag_init(&ds, ctx, name, text, len);
    if (len > VP_ZEINFO_MAX_TEXT) {
        vp_diag_at(&ds, PDIAG_ZEINFO_LIMIT, 1, 1, ".ze_info of %zu bytes (at most %u)", len, VP_ZEINFO_MAX_TEXT);
        return VISA_E_SYNTAX;
    }
    vp_zeinfo *zi = vx_alloc(ctx, sizeof *zi);
    if (!zi) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    zi->ctx = ctx;
    vp_arena_init(&zi->arena, ctx);
    vp_arena tree;
    vp_arena_init(&tree, ctx);
    vp_ynode *root;
    visa_status st = vp_yaml_read(&tree, &ds, text ? text : "", len, &root);
    if (st == VISA_OK) {
        zi_reader z = {.zi = zi, .ds = &ds};
        read_document(&z, root);
    }
    vp_arena_free(&tree);
    if (zi->arena.failed || tree.failed) {
        diag_oom(&ds);
        st = VISA_E_NOMEM;
    } else if (ds.errors && st == VISA_OK) {
        st = VISA_E_SYNTAX;
    }
    if (st != VISA_OK) {
        vp_zeinfo_free(zi);
        return st;
    }
    *out = zi;
    return VISA_OK;
}

void vp_zeinfo_free(vp_zeinfo *zi) {
    if (!zi) return;
    vp_arena_free(&zi->arena);
    vx_free(zi->ctx, zi, sizeof *zi);
}

const vp_zeinfo_kernel *vp_zeinfo_kernel_by_name(const vp_zeinfo *zi, const char *name) {
    for (uint32_t i = 0; i < zi->kernel_count; i++)
        if (zi->kernels[i].name && strcmp(zi->kernels[i].name, name) == 0) return &zi->kernels[i];
    return NULL;
}
