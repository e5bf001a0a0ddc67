/* verify_int.h -- internals of the verifier (issue 6): the rule table, the per-run state and the
** helpers the rule files share.  Every fact about instructions comes from src/isa (ops.def,
** typemaps.def, opfacts.def, predefined.def); the rules live in rules.def.
*/
#ifndef VISA_VERIFY_INT_H
#define VISA_VERIFY_INT_H

#include "core/core.h"
#include "ir/ir.h"

typedef enum vrule_id {
#define VRULE(E, id, sev, spec, what, igc) VR_##E,
#include "rules.def"
#undef VRULE
    VR__COUNT
} vrule_id;

/* One verification run over one module. */
typedef struct vf {
    const visa_module *m;
    const ir_routine *r; /* routine being checked */
    unsigned plat; /* P_* */
    unsigned grf; /* GRF bytes of the platform */
    diag_sink ds;
} vf;

/* Diagnostics (report.c; vf_at_opnd in insts.c).  Report rule `rule` at a text position (line > 0)
** or at a binary offset. */
void vf_report(vf *v, vrule_id rule, uint32_t line, uint32_t col, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* At instruction `inst`, operand k (its own column when the parser recorded one; k < 0: the
** instruction). */
void vf_at_inst(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* At operand k of `inst`: its text column, or its byte offset in an object. */
void vf_at_opnd(vf *v, vrule_id rule, const ir_inst *inst, int k, const char *msg);

/* General variables of the routine being checked, by full id (predefined ids included); facts.c. */
bool vf_var_exists(const vf *v, uint32_t id);
int vf_var_type(const vf *v, uint32_t id); /* isa_type, -1 if unknown */
uint32_t vf_var_bytes(const vf *v, uint32_t id); /* platform-aware for %arg/%retval; 0 unknown */
const char *vf_var_name(const vf *v, uint32_t id, char *buf, size_t n);
/* The root variable of an alias chain and the byte offset of `id` in it; false on a cycle or a
** dangling parent. */
bool vf_var_root(const vf *v, uint32_t id, uint32_t *root, uint32_t *offset);

/* Rule families. */
void vf_check_module(vf *v);
void vf_check_decls(vf *v);
void vf_check_inputs(vf *v);
void vf_check_labels(vf *v);
void vf_check_insts(vf *v);
/* The notes of individual pages (DPAS, LSC, sends, calls): called for every instruction; the
** checks and which instructions each applies to are listed in notes.def. */
void vf_check_notes(vf *v, const ir_inst *inst);

/* Region rules (region.c), as data: a broken rule and a phrase that follows the operand's label
** ("has region width 0"). */
typedef struct vf_issue {
    vrule_id rule;
    char msg[120];
} vf_issue;
enum { VF_REGION_MAX_ISSUES = 4 };
/* Restrictions 1-5, and indirect restriction 1, of one region (IR_REGION codes) at execution size
** exec; fills out[] (at most VF_REGION_MAX_ISSUES) and returns the count. */
unsigned vf_region_shape(unsigned region, bool is_dst, bool indirect, unsigned exec, vf_issue *out);
/* The element index, counted from the first, of the furthest element the region reaches; false
** when a stride or the width is null or invalid. */
bool vf_region_last_index(unsigned region, bool is_dst, unsigned exec, uint64_t *last);
/* The column offset crosses the GRF (name: the variable, or NULL). */
bool vf_region_col(unsigned col, unsigned type_bytes, unsigned grf, const char *name, vf_issue *out);
/* Restriction 6: bytes first..last (from a GRF-aligned root) span more than two GRFs.  split: the
** instruction is one vISA splits (the rule is then V-REGION-GRF-SPAN-SPLIT, a warning). */
bool vf_region_span(uint64_t first, uint64_t last, unsigned grf, bool split, vf_issue *out);

/* Operand facts (opfacts.def; facts.c), shared with the tests. */
enum { OC_G = 1, OC_I = 2, OC_M = 4, OC_P = 8, OC_A = 16, OC_S = 32 };
/* Classes allowed for vector operand number vk (counting V v & operands only) of a form; 0 when
** the verifier does not check classes for the form. */
unsigned vf_opnd_classes(int form, unsigned vk);
/* The classes IGC's verifier takes for that operand: opfacts.def VISA_IGC_OPCLASS where they are
** wider than the page's, else vf_opnd_classes. */
unsigned vf_opnd_igc_classes(int form, unsigned vk);
int vf_form_surface_opnd(int form); /* -1 if none */
/* Is the form on the platform: its first platform, the gaps and, for the IEEE macros, madm
** (opfacts.def VISA_PLAT_GAP, VISA_NEEDS_MADM; platforms.def) */
bool vf_form_on_platform(int form, unsigned plat);
bool vf_form_needs_madm(int form);
/* The execution sizes (EX_* bits) IGC takes for a form on a platform (opfacts.def VISA_IGC_EXEC);
** EX_ALL without a row. */
unsigned vf_form_igc_exec(int form, unsigned plat);
/* The type set IGC's verifier accepts for a form on a platform (opfacts.def VISA_IGC_TYPESET,
** igc_typemaps.def); TM_NONE where it is unknown (no such row, or no map on the platform: Xe2,
** Xe3), and the page's set decides alone. */
unsigned vf_form_igc_typeset(int form, unsigned plat);
/* Limited fields of the legacy data-port and SVM messages (opfacts.def VISA_MSG_FIELD). */
enum {
    MF_OWORDS,
    MF_SVM_OWORDS,
    MF_ELT_SIZE,
    MF_NUM_ELTS,
    MF_NUM_BLOCKS,
    MF_QW_BLOCKS,
    MF_SVM_BLOCK_SIZE,
    MF_SVM_NUM_BLOCKS,
    MF_CHANNELS,
    MF_MEDIA_PLANE,
    MF_MEDIA_W,
    MF_MEDIA_H,
    MF_MEDIA_H_TABLE
};
/* The stored operand of field `field` of a form; -1 if the form has none. */
int vf_form_msg_field(int form, int field);

#endif
