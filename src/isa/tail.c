/* tail.c -- the mode-dependent operand tails of the two rows whose layout ends in '!'.
** Their remaining operands depend on the first integer field of the same instruction:
**   NBARRIER (b!)    mode 0 (wait): V(id) V(id again, IGC's padding); signal: V(id) V(type)
**                    V(producers) V(consumers)      (what IGC's writer wrote; formats.md 2.10.12)
**   3D_RT_WRITE (EPwb!) mode word bits select optional operands (formats.md 2.10.9):
**                    R(header) [V sample index: bit 11] [V cps counter: bit 8] [V rt index: bit 2]
**                    [R s0a: bit 3] [R oMask: bit 4] R R R R (RGBA) [R depth: bit 5]
**                    [R stencil: bit 6]                                                        */
#include "isa.h"

const char *isa_mode_tail(unsigned opcode, unsigned mode, char *buf) {
    size_t n = 0;
    if (opcode == VISA_OP_NBARRIER) {
        buf[n++] = 'V';
        buf[n++] = 'V';
        if (mode) buf[n++] = 'V', buf[n++] = 'V';
    } else if (opcode == VISA_OP_RT_WRITE3D) {
        buf[n++] = 'R';
        if (mode & (1u << 11)) buf[n++] = 'V';
        if (mode & (1u << 8)) buf[n++] = 'V';
        if (mode & (1u << 2)) buf[n++] = 'V';
        if (mode & (1u << 3)) buf[n++] = 'R';
        if (mode & (1u << 4)) buf[n++] = 'R';
        for (int k = 0; k < 4; k++) buf[n++] = 'R';
        if (mode & (1u << 5)) buf[n++] = 'R';
        if (mode & (1u << 6)) buf[n++] = 'R';
    }
    buf[n] = 0;
    return buf;
}
