/* ctrl.h -- the two control fields every instruction may carry, and the only place their bit
** layouts are spelled out: the exec byte (layout E) and the predicate word (layout P).
**
** Exec byte (each instruction page, "Exec_size(ub)"): bits 0-3 the size code, size = 1 << code
** for codes 0..5 (bit 3 is reserved, so codes above 5 are invalid); bits 4-7 the execution mask
** control, an `emask` enum value (enums.def): 0-7 = M1..M8, 8-15 = the same with NoMask.  Mk
** starts at channel 4 * (k - 1) (5_operands "Predication": {M3} starts at pred_id(8)).
**
** Predicate word (5_operands "Predication"): bits 0-11 the predicate id (0 = no predicate),
** bit 12 reserved (0), bits 13-14 the combine control (none / .any / .all / reserved), bit 15
** the inverse '!'.  Combine applies before inverse.
*/
#ifndef VISA_IR_CTRL_H
#define VISA_IR_CTRL_H

#include <stdbool.h>
#include <stdint.h>

/* -- Exec byte --------------------------------------------------------------------------------- */
#define IR_EXEC_CODE_MASK 0x0Fu /* bits 0-3: size code */
#define IR_EXEC_MAX_CODE 5u /* 32 channels */
#define IR_EXEC_EMASK_SHIFT 4u /* bits 4-7: emask enum value */
#define IR_EMASK_NOMASK 8u /* emask values 8-15 are the NoMask forms of 0-7 */
#define IR_EMASK_GROUP_LANES 4u /* channels between M(k) and M(k+1) */

static inline unsigned ir_exec_code(uint8_t exec) { return exec & IR_EXEC_CODE_MASK; }
static inline bool ir_exec_code_valid(uint8_t exec) { return ir_exec_code(exec) <= IR_EXEC_MAX_CODE; }
/* Channels (1..32); 0 for an invalid size code. */
static inline unsigned ir_exec_lanes(uint8_t exec) { return ir_exec_code_valid(exec) ? 1u << ir_exec_code(exec) : 0; }
/* The emask enum value (VISA_EN_emask): 0..15. */
static inline unsigned ir_exec_emask(uint8_t exec) { return (unsigned)exec >> IR_EXEC_EMASK_SHIFT; }
static inline bool ir_exec_nomask(uint8_t exec) { return ir_exec_emask(exec) >= IR_EMASK_NOMASK; }
/* First channel of the mask group (0, 4, ..., 28), for Mk and Mk_NM alike. */
static inline unsigned ir_exec_mask_offset(uint8_t exec) {
    return (ir_exec_emask(exec) % IR_EMASK_NOMASK) * IR_EMASK_GROUP_LANES;
}
/* Size code of a channel count, -1 if it is not 1, 2, 4, ..., 32. */
static inline int ir_exec_code_of(uint64_t lanes) {
    for (unsigned c = 0; c <= IR_EXEC_MAX_CODE; c++)
        if (lanes == 1u << c) return (int)c;
    return -1;
}
/* An exec byte from a size code and an emask enum value. */
static inline uint8_t ir_exec_make(unsigned code, unsigned emask) {
    return (uint8_t)((code & IR_EXEC_CODE_MASK) | (emask << IR_EXEC_EMASK_SHIFT));
}

/* (M1_NM, 1): what IGC's builder gives messages whose text has no exec size. */
#define IR_EXEC_SIMD1_NOMASK ((uint8_t)(IR_EMASK_NOMASK << IR_EXEC_EMASK_SHIFT))

/* -- Predicate word ---------------------------------------------------------------------------- */
#define IR_PRED_ID_MASK 0x0FFFu /* bits 0-11 */
#define IR_PRED_MAX_ID IR_PRED_ID_MASK
#define IR_PRED_RESERVED 0x1000u /* bit 12 */
#define IR_PRED_CTRL_SHIFT 13u /* bits 13-14 */
#define IR_PRED_CTRL_MASK 3u
#define IR_PRED_INVERSE 0x8000u /* bit 15 */
enum { IR_PRED_SEQ = 0, IR_PRED_ANY = 1, IR_PRED_ALL = 2, IR_PRED_CTRL_RESERVED = 3 };

static inline unsigned ir_pred_id(uint16_t pred) { return pred & IR_PRED_ID_MASK; }
static inline unsigned ir_pred_ctrl(uint16_t pred) { return (pred >> IR_PRED_CTRL_SHIFT) & IR_PRED_CTRL_MASK; }
static inline bool ir_pred_inverse(uint16_t pred) { return (pred & IR_PRED_INVERSE) != 0; }
/* Reserved bits clear and the combine control not reserved (the id is checked by the caller). */
static inline bool ir_pred_bits_valid(uint16_t pred) {
    return !(pred & IR_PRED_RESERVED) && ir_pred_ctrl(pred) != IR_PRED_CTRL_RESERVED;
}
static inline uint16_t ir_pred_make(unsigned id, unsigned ctrl, bool inverse) {
    return (uint16_t)((id & IR_PRED_ID_MASK) | ((ctrl & IR_PRED_CTRL_MASK) << IR_PRED_CTRL_SHIFT) |
                      (inverse ? IR_PRED_INVERSE : 0));
}
/* ".any" / ".all" / "" for a combine control. */
static inline const char *ir_pred_ctrl_suffix(unsigned ctrl) {
    return ctrl == IR_PRED_ANY ? ".any" : ctrl == IR_PRED_ALL ? ".all" : "";
}

#endif
