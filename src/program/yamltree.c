/* yamltree.c -- libyaml's events to a tree of vp_ynode (yamltree.h).  libyaml allocates with
** malloc (it has no allocator hook); the tree, through the caller's arena, with the context's
** allocator.  Open containers are a stack no deeper than VP_ZEINFO_MAX_DEPTH, so neither this
** reader nor the ones walking its tree recurse past that. */
#include <stdarg.h>
#include <string.h>
#include <yaml.h>

#include "yamltree.h"

typedef struct yframe {
    vp_ynode *node;
    vp_ynode **items; /* children so far (context's allocator, moved to the arena when closed) */
    uint32_t count, cap;
} yframe;

typedef struct yreader {
    vp_arena *arena;
    diag_sink *ds;
    yframe stack[VP_ZEINFO_MAX_DEPTH];
    unsigned depth;
    uint32_t nodes;
    unsigned documents;
    vp_ynode *root;
    bool err;
} yreader;

static void yfail(yreader *y, vp_diag_id d, yaml_mark_t mark, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void yfail(yreader *y, vp_diag_id d, yaml_mark_t mark, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vp_diag_vat(y->ds, d, (uint32_t)mark.line + 1, (uint32_t)mark.column + 1, 0, fmt, ap);
    va_end(ap);
    y->err = true;
}

static vp_ynode *new_node(yreader *y, vp_ynode_kind kind, yaml_mark_t mark) {
    if (++y->nodes > VP_ZEINFO_MAX_NODES) {
        yfail(y, PDIAG_ZEINFO_LIMIT, mark, "more than %u YAML nodes", VP_ZEINFO_MAX_NODES);
        return NULL;
    }
    vp_ynode *n = vp_arena_alloc(y->arena, sizeof *n);
    if (!n) {
        y->err = true;
        return NULL;
    }
    n->kind = kind;
    n->line = (uint32_t)mark.line + 1;
    n->col = (uint32_t)mark.column + 1;
    return n;
}

/* Hand a finished node to the open container, or make it the document. */
static void attach(yreader *y, vp_ynode *n, yaml_mark_t mark) {
    if (!y->depth) {
        y->root = n;
        return;
    }
    yframe *f = &y->stack[y->depth - 1];
    if (f->node->kind == VP_YNODE_MAP && f->count % 2 == 0 && n->kind != VP_YNODE_SCALAR) {
        yfail(y, PDIAG_ZEINFO_TYPE, mark, "a mapping key must be a scalar");
        return;
    }
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 8;
        vp_ynode **items = vx_realloc(y->arena->ctx, f->items, f->cap * sizeof *items, cap * sizeof *items);
        if (!items) {
            y->arena->failed = y->err = true;
            return;
        }
        f->items = items;
        f->cap = cap;
    }
    f->items[f->count++] = n;
}

static void open_container(yreader *y, vp_ynode_kind kind, yaml_mark_t mark) {
    if (y->depth == VP_ZEINFO_MAX_DEPTH) {
        yfail(y, PDIAG_ZEINFO_LIMIT, mark, "YAML nested deeper than %u levels", VP_ZEINFO_MAX_DEPTH);
        return;
    }
    vp_ynode *n = new_node(y, kind, mark);
    if (n) y->stack[y->depth++] = (yframe){.node = n};
}

static void close_container(yreader *y, yaml_mark_t mark) {
    yframe *f = &y->stack[--y->depth];
    vp_ynode *n = f->node;
    n->items = vp_arena_array(y->arena, f->count, sizeof *n->items);
    if (n->items) {
        if (f->count) memcpy(n->items, f->items, f->count * sizeof *n->items);
        n->count = f->count;
    } else {
        y->err = true;
    }
    vx_free(y->arena->ctx, f->items, f->cap * sizeof *f->items);
    if (!y->err) attach(y, n, mark);
}

static void on_scalar(yreader *y, const yaml_event_t *ev) {
    vp_ynode *n = new_node(y, VP_YNODE_SCALAR, ev->start_mark);
    if (!n) return;
    n->text = vp_arena_strndup(y->arena, (const char *)ev->data.scalar.value, ev->data.scalar.length);
    n->len = ev->data.scalar.length;
    n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    if (!n->text) y->err = true;
    else attach(y, n, ev->start_mark);
}

/* One event; false when the stream is over. */
static bool on_event(yreader *y, const yaml_event_t *ev) {
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++y->documents > 1) yfail(y, PDIAG_ZEINFO_YAML, ev->start_mark, ".ze_info has more than one YAML document");
        return true;
    case YAML_ALIAS_EVENT:
        yfail(y, PDIAG_ZEINFO_ALIAS, ev->start_mark, "YAML alias *%s: .ze_info has no aliases",
              (const char *)ev->data.alias.anchor);
        return true;
    case YAML_SCALAR_EVENT: on_scalar(y, ev); return true;
    case YAML_SEQUENCE_START_EVENT: open_container(y, VP_YNODE_SEQ, ev->start_mark); return true;
    case YAML_MAPPING_START_EVENT: open_container(y, VP_YNODE_MAP, ev->start_mark); return true;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: close_container(y, ev->start_mark); return true;
    case YAML_STREAM_END_EVENT: return false;
    default: return true;
    }
}

visa_status vp_yaml_read(vp_arena *arena, diag_sink *ds, const char *text, size_t len, vp_ynode **root) {
    *root = NULL;
    yreader y = {.arena = arena, .ds = ds};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        arena->failed = true;
        return VISA_E_NOMEM;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool more = true;
    while (more && !y.err) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            if (parser.error == YAML_MEMORY_ERROR) arena->failed = true;
            else
                yfail(&y, PDIAG_ZEINFO_YAML, parser.problem_mark, "YAML: %s%s%s",
                      parser.problem ? parser.problem : "syntax error", parser.context ? " " : "",
                      parser.context ? parser.context : "");
            break;
        }
        more = on_event(&y, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    while (y.depth) { /* stopped inside containers: free their child lists */
        yframe *f = &y.stack[--y.depth];
        vx_free(arena->ctx, f->items, f->cap * sizeof *f->items);
    }
    if (arena->failed) return VISA_E_NOMEM;
    if (y.err) return VISA_E_SYNTAX;
    if (!y.root || (y.root->kind == VP_YNODE_SCALAR && !y.root->quoted &&
                    (y.root->len == 0 || strcmp(y.root->text, "~") == 0 || strcmp(y.root->text, "null") == 0))) {
        vp_diag_at(ds, PDIAG_ZEINFO_EMPTY, 1, 1, ".ze_info is empty");
        return VISA_E_SYNTAX;
    }
    *root = y.root;
    return VISA_OK;
}
