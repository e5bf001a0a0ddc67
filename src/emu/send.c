/* send.c -- RAW_SEND and RAW_SENDS (spec pages RAW_SEND, RAW_SENDS; messages.md sections 0-1):
** decodes the SFID, the immediate descriptor and extended descriptor, puts the payload operands
** into op->src[RS_DST], op->src[RS_SRC0], op->src[RS_SRC1] and hands the message to its family:
** LSC (UGM, UGML, SLM, TGM) to lsc.c, the gateway to sync.c, the legacy HDC data ports (DC0, DC1,
** DC2, DCRO) to dataport.c.  SFID 0 (NULL) does nothing (with EOT it only ends the thread).
**
** SFID numbering per platform (messages.md 1.2): LSC (0xD TGM, 0xE SLM, 0xF UGM) from XeHPG on,
** 0x1 UGML on XeHPC only; before XeHPG 0xD is CRE and 0xE / 0xF are unused.
**
** Descriptors held in registers are rejected: the emulator decodes messages when it lowers them.
** RAW_SENDG (Xe3's 64-bit descriptors) is rejected: its descriptor format is not documented in the
** spec or the notes.
*/
#include <string.h>

#include "access.h"
#include "desc_fields.h"
#include "dp_layout.h"
#include "families.h"
#include "opnd.h"

/* -- Raw sends ---------------------------------------------------------------------------------- */
static void h_null_msg(emu_thread *t, const emu_op *op) {
    if (op->info & 1) t->done = true; /* EOT */
    else t->pc++;
}

/* An immediate descriptor operand (ud); false with a diagnostic for a register descriptor. */
static bool imm_desc(const ir_inst *in, unsigned k, const char *what, uint32_t *out, diag_sink *ds) {
    const ir_vec *v = &in->opnd[k].u.vec;
    if (in->opnd[k].kind != 'V' || v->cls != VC_IMMEDIATE) {
        emu_diag(ds, EDIAG_LOWER_SEND_IMMEDIATE, in->line, in->col, what, what);
        return false;
    }
    *out = (uint32_t)v->imm;
    return true;
}

bool emu_send_lower_raw(emu_program *p, const ir_inst *in, emu_op *op, diag_sink *ds) {
    emu_send_desc d;
    memset(&d, 0, sizeof d);
    emu_opnd dst, src0, src1;
    memset(&src1, 0, sizeof src1);
    if (in->form == VISA_FORM_RAW_SEND) {
        /* SFID in ExDesc[3:0], EOT ExDesc[5] */
        d.exdesc = (uint32_t)in->opnd[RSEND_EXDESC].u.num;
        d.nsrc0 = (unsigned)in->opnd[RSEND_NSRC].u.num;
        d.ndst = (unsigned)in->opnd[RSEND_NDST].u.num;
        if (!imm_desc(in, RSEND_DESC, "message descriptor", &d.desc, ds)) return false;
        if (!emu_msg_raw(p, in, RSEND_SRC, &src0, ds) || !emu_msg_raw(p, in, RSEND_DST, &dst, ds)) return false;
        d.sfid = exdesc_sfid(d.exdesc);
        d.eot = exdesc_eot(d.exdesc);
        d.exdesc &= ~(exdesc_sfid_mask() | exdesc_eot_mask()); /* the families see ExDesc without them */
    } else { /* RAW_SENDS (sem.def: RAW_SENDG is not emulated) */
        d.nsrc0 = (unsigned)in->opnd[RSENDS_NSRC0].u.num;
        d.nsrc1 = (unsigned)in->opnd[RSENDS_NSRC1].u.num;
        d.ndst = (unsigned)in->opnd[RSENDS_NDST].u.num;
        d.sfid = (unsigned)in->opnd[RSENDS_SFID].u.num;
        d.eot = ((unsigned)in->opnd[RSENDS_MOD].u.num >> 1) & 1;
        if (!imm_desc(in, RSENDS_EXDESC, "extended message descriptor", &d.exdesc, ds) ||
            !imm_desc(in, RSENDS_DESC, "message descriptor", &d.desc, ds))
            return false;
        if (!emu_msg_raw(p, in, RSENDS_SRC0, &src0, ds) || !emu_msg_raw(p, in, RSENDS_SRC1, &src1, ds) ||
            !emu_msg_raw(p, in, RSENDS_DST, &dst, ds))
            return false;
    }
    /* payload sizes must fit in the register file */
    uint32_t grf = p->cur->grf_bytes;
    const struct {
        const emu_opnd *o;
        unsigned n;
        const char *name;
    } pl[3] = {{&src0, d.nsrc0, "src0"}, {&src1, d.nsrc1, "src1"}, {&dst, d.ndst, "dst"}};
    for (unsigned k = 0; k < 3; k++) {
        if (pl[k].o->shape == EO_NONE || !pl[k].n) continue;
        if ((uint64_t)pl[k].o->off + (uint64_t)pl[k].n * grf > p->cur->file_bytes) {
            emu_diag(ds, EDIAG_LOWER_SEND_PAYLOAD_FILE, in->line, in->col, pl[k].name, pl[k].n);
            return false;
        }
    }
    if (d.sfid > 15) {
        emu_diag(ds, EDIAG_LOWER_SEND_SFID, in->line, in->col, d.sfid);
        return false;
    }
    op->src[RS_DST] = dst;
    op->src[RS_SRC0] = src0;
    op->src[RS_SRC1] = src1;
    memset(&op->src[3], 0, sizeof op->src[3] * 2);
    op->nsrc = 3;
    op->cond = 0;
    bool lsc = p->plat >= VISA_PLATFORM_XEHPG &&
               (d.sfid == VISA_SFID_UGM || d.sfid == VISA_SFID_SLM || d.sfid == VISA_SFID_TGM ||
                (d.sfid == VISA_SFID_UGML && p->plat == VISA_PLATFORM_XEHPC));
    if (lsc) return emu_lsc_lower_send(p, in, op, &d, ds);
    switch (d.sfid) {
    case VISA_SFID_GATEWAY: return emu_sync_lower_send(p, in, op, &d, ds);
    case VISA_SFID_DC0:
    case VISA_SFID_DC1:
    case VISA_SFID_DC2:
    case VISA_SFID_DCRO: return emu_dataport_lower_send(p, in, op, &d, ds);
    case VISA_SFID_NULL:
        op->fn = h_null_msg;
        op->info = d.eot;
        return true;
    default:
        emu_diag(ds, EDIAG_LOWER_SEND_UNSUPPORTED, in->line, in->col, d.sfid, isa_enum_text(VISA_EN_sfid, d.sfid),
                 d.desc, d.exdesc, d.nsrc0, d.nsrc1, d.ndst, d.eot ? ", EOT" : "");
        return false;
    }
}

void emu_send_unlowered(emu_thread *t, const emu_op *op) {
    (void)op;
    emu_fault(t, EDIAG_RUN_SEND_UNDECODED, 0);
}
