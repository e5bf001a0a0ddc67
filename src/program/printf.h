/* printf.h -- OpenCL printf through IGC's printf buffer (printf.c, docs/program.md "printf"). */
#ifndef VISA_PROGRAM_PRINTF_H
#define VISA_PROGRAM_PRINTF_H

#include "program_int.h"

/* The printf buffer a launch gives a kernel (compute-runtime gives 4 MiB). */
#define VP_PRINTF_BUFFER_BYTES (4u << 20)

/* Set up a fresh buffer as the runtime does before a launch. */
void vp_printf_buffer_init(uint8_t *buf, size_t size);
/* Format what the kernel wrote into the buffer and hand it to out (NULL: dropped).  Malformed
** records are W-PROGRAM-PRINTF diagnostics; the output stops at them. */
visa_status vp_printf_output(const visa_program *prog, const uint8_t *buf, size_t size, diag_sink *ds,
                             visa_write_fn out, void *ud);

#endif
