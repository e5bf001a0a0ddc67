/* outfile.h -- every file the `visa` tool (and visa's OpenCL ICD) writes goes through here: a
** regular file is written to
** a temporary file in its directory and renamed over the target only when complete (an
** interrupted or failed write leaves the old file as it was; out_open_direct writes in place);
** every write, flush and close is checked and a failure is reported with the path ("visa: cannot
** write 'P': REASON", E-IO) through tool_verror.
**
** Test hook: VISA_TEST_FAIL_WRITE_AFTER=N makes out_write fail (EIO) once N bytes have been
** written to one output, so tests can interrupt a write deterministically. */
#ifndef VISA_TOOL_OUTFILE_H
#define VISA_TOOL_OUTFILE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* The program's own error messages (E-IO, E-NOMEM, E-OUTPUT-IS-INPUT: ids as in tools/visa/cli.h):
** each program that links this code defines tool_verror (the CLI: a diagnostic of its report; the
** ICD: "visa-opencl: MESSAGE" on standard error); tool_error calls it. */
void tool_verror(const char *id, const char *file, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
void tool_error(const char *id, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

typedef struct out_file {
    FILE *f; /* write here (fprintf is fine: errors are caught at out_close) */
    const char *path; /* as the user gave it; NULL: standard output */
    char *tmp; /* the temporary file, NULL when writing directly */
    char *target; /* what tmp is renamed over (the path, symlinks resolved) */
    size_t written, fail_after;
    int err; /* first errno of a failed write, 0 if none */
} out_file;

/* Open path for writing (NULL or "-": standard output).  Returns 0, or 1 after reporting why. */
int out_open(out_file *o, const char *path);
/* Open path for writing in place: no temporary file, no signal handlers (what a library inside a
** host program may do).  Returns 0, or 1 after reporting why. */
int out_open_direct(out_file *o, const char *path);
/* Write to a stream the caller owns (flushed at out_close, not closed). */
void out_open_stream(out_file *o, FILE *f);
/* Write len bytes; false (and the error remembered for out_close) on failure. */
bool out_write(out_file *o, const void *data, size_t len);
/* Finish: flush and close, rename the temporary file over the target.  ok false: the caller
** failed to produce the content, so drop it (the target is untouched).  Returns 0, or 1 after
** reporting the failure. */
int out_close(out_file *o, bool ok);

/* 1 (after "visa: output 'OUT' would replace the input 'IN'") when out names the same file as
** in (device and inode: links and other spellings count), else 0. */
int out_is_input(const char *out, const char *in);

/* Standard output as the commands write it: stdout, or while captured (--json) a memory stream. */
FILE *out_stdout(void);
/* Capture what the commands write to standard output from now on; 0, or 1 if it cannot be. */
int out_capture_start(void);
/* End the capture: what was written (malloc'd, *len bytes; NULL if nothing was captured). */
char *out_capture_take(size_t *len);

/* At exit: flush and close standard output; 1 (reported) if anything written to it was lost. */
int out_close_stdout(void);

/* The name of standard output for messages: its path when it is a file, else "standard output". */
const char *out_stdout_name(char *buf, size_t cap);

#endif
