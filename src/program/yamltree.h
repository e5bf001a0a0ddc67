/* yamltree.h -- a YAML document as a tree of nodes, read with libyaml's event parser, for
** zeinfo.c.  Only what .ze_info uses is accepted: one document of mappings, sequences and
** scalars.  Aliases are refused (a few of them can make a tree exponentially large), and so are
** nesting deeper than VP_ZEINFO_MAX_DEPTH and more than VP_ZEINFO_MAX_NODES nodes.
** Diagnostics: E-ZEINFO-YAML (libyaml's syntax errors), E-ZEINFO-ALIAS, E-ZEINFO-LIMIT,
** E-ZEINFO-TYPE (a key that is not a scalar), E-ZEINFO-EMPTY, at the YAML line and column.
*/
#ifndef VISA_PROGRAM_YAMLTREE_H
#define VISA_PROGRAM_YAMLTREE_H

#include "program_int.h"

typedef enum vp_ynode_kind { VP_YNODE_SCALAR, VP_YNODE_SEQ, VP_YNODE_MAP } vp_ynode_kind;

typedef struct vp_ynode vp_ynode;
struct vp_ynode {
    vp_ynode_kind kind;
    bool quoted; /* a scalar written quoted or as a block: a string, not a number */
    uint32_t line, col; /* 1-based */
    const char *text; /* a scalar's text, NUL-terminated */
    size_t len;
    vp_ynode **items; /* a sequence's items; a mapping's keys and values, alternating */
    uint32_t count; /* items (a mapping has count / 2 pairs) */
};

/* Parse `text` into nodes allocated from `arena`; *root is NULL on error (diagnostics on ds). */
visa_status vp_yaml_read(vp_arena *arena, diag_sink *ds, const char *text, size_t len, vp_ynode **root);

#endif
