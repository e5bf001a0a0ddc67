/* cli.h -- what the `visa` tool's commands share: the command table, the command's report
** (diagnostics and, with --json, the one JSON document it prints), option parsing with "did you
** mean", loading a module.  Each command lives in its own file (fmt.c, asm.c, run.c, ...). */
#ifndef VISA_TOOL_CLI_H
#define VISA_TOOL_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "visa/visa.h"

#include "../observe/strbuf.h"

#define EXIT_DIAG 1 /* diagnostics: errors in the input, a failed read or write */
#define EXIT_USAGE 2 /* a bad command line */

/* -- The commands (commands.def): cmd_NAME(argc, argv) gets the arguments after NAME -------- */
#define VISA_COMMAND(name, args, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef VISA_COMMAND

/* -- JSON into growable text (json.c; strings, sb_write and is_utf8_text: strbuf.h) -------------- */
/* SEP"KEY": VALUE, VALUE a JSON string (NULL: null): one member of an object being written. */
void sb_json_member(strbuf *b, const char *sep, const char *key, const char *value);
/* Base64 of s[0..n) as a JSON string. */
void sb_json_base64(strbuf *b, const unsigned char *s, size_t n);

/* -- Diagnostics (diag.c) ------------------------------------------------------------------------
** Every command's context reports into the command's diag_out (report_diags()): it counts errors
** and warnings (what --json and the summaries say), prints the first `limit` errors as text
** (file:line:col, the source line, a caret) or collects them all for the JSON document, and says
** how many more there were. */
#define LIB_MAX_ERRORS 100000u /* what the library reports at most; the tool prints fewer */
#define TEXT_MAX_ERRORS 20u /* errors printed as text by fmt, asm, dis and run */

typedef struct diag_out {
    bool rule_ids; /* error[RULE] (verify, and run's verification) */
    bool json; /* collect for the JSON document instead of printing */
    bool drop_warnings; /* run's verification: warnings neither shown nor counted */
    unsigned limit; /* errors printed as text; 0: all */
    unsigned errors, warnings, hidden_errors, hidden_warnings;
    const char *src_file, *src; /* the text input, for run-time diagnostics that lack their line */
    size_t src_len;
    strbuf j; /* the JSON objects so far, comma-separated */
    unsigned n; /* how many */
} diag_out;

/* The visa_diag_fn of every context: ud is a diag_out. */
void sink_diag(void *ud, const visa_diag *d);
/* After a command, as text: how many diagnostics were not shown. */
void diag_out_finish(const diag_out *o, const char *file);
/* One diagnostic as a JSON object. */
void diag_json(strbuf *b, const visa_diag *d);
const char *severity_name(visa_severity s);

/* The tool's own errors (not the library's).  As text they print as they always did; with
** --json each is a diagnostic of the document with a stable id:
**   E-USAGE           a bad command line (exit 2): file "<command line>", the column of the word
**   E-IO              a file that cannot be opened, read or written
**   E-INPUT-LIMIT     an input larger than the limit (VISA_MAX_INPUT_BYTES)
**   E-OUTPUT-IS-INPUT an output that would replace its input
**   E-NOMEM           out of memory in the tool
**   E-LIBRARY         a library call failed without a diagnostic of its own (its status)
**   E-NO-KERNEL       run --kernel names no kernel of the module
**   E-LAUNCH          run: a launch the command line already shows is wrong
**   E-UNKNOWN-INSTRUCTION  info: no such instruction
** cli_error prints "visa: MESSAGE" (the command's label, report_label), cli_file_error
** "FILE: error: MESSAGE". */
void cli_error(const char *id, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cli_file_error(const char *id, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A library status without a diagnostic of its own (E-LIBRARY: "visa: out of memory"). */
void report_status(visa_status st);
/* "visa: MESSAGE\nTry 'visa --help'." (E-USAGE); returns EXIT_USAGE.  fmt has one %s, arg; when
** arg points into the command line, the JSON diagnostic's column is where it stands. */
int usage_error(const char *fmt, const char *arg);
int usage_errorf(const char *arg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* -- The command's report (report.c) ------------------------------------------------------------
** main starts it, the command fills it in, main ends it: with --json that prints the one JSON
** document on standard output (whatever the command printed to standard output is captured into
** it, see out_stdout), without it nothing. */
void report_begin(const char *command, int argc, char **argv);
/* The command's first step: --json among its arguments (not as the value of one of `valued`, a
** NULL-terminated list of the options that take a value) turns JSON on. */
void report_scan_json(int argc, char **argv, const char *const *valued);
bool report_json(void);
/* The label of messages ("visa"; `visa region` says "visa region"). */
void report_set_label(const char *label);
const char *report_label(void);
diag_out *report_diags(void);
void report_file(const char *file);
void report_platform(visa_platform p);
void report_input(bool binary);
/* A member of the document after the diagnostics: returns the buffer to write KEY's JSON value into. */
strbuf *report_field(const char *key);
/* The command line as one line ("visa fmt --frob x"), and the 1-based column of arg in it (past
** its end when arg is not part of it). */
uint32_t report_arg_column(const char *arg, strbuf *line);
/* Print the document (with --json) and return rc. */
int report_end(int rc);

/* -- Options (options.c) ------------------------------------------------------------------------ */
/* "unknown option '--jsn' (did you mean '--json'?)", the candidates `known` (NULL entries skipped). */
int unknown_option(const char *arg, const char *const *known, size_t n);
/* The candidate closest to word, if it is close enough to be a likely typo. */
typedef struct suggester {
    const char *word, *best;
    size_t dist;
} suggester;
void suggest_init(suggester *g, const char *word);
void suggest_try(suggester *g, const char *cand);
bool is_help(const char *arg);

/* Options shared by fmt, asm, dis and verify: one input FILE, -o OUT (when takes_out), --platform
** P, --help; `flags` lists the command's own switches (--json among them), each setting its bit in
** set (the `standalone` ones need no FILE).  Returns -1 to go on, or the exit status (after --help or a
** usage error). */
typedef struct cmd_opts {
    const char *in, *out;
    visa_platform platform;
    visa_dialect dialect; /* --dialect NAME (commands that list it among their flags); KEEP if absent */
    bool json;
    unsigned set; /* bit k: flags[k] was given */
} cmd_opts;
int parse_cmd_opts(int argc, char **argv, const char *name, const char *help, bool takes_out, const char *const *flags,
                   unsigned standalone, cmd_opts *o);
/* --help: the command's help on standard output; returns 0. */
int print_help(const char *help);

/* -- Modules (module.c) ------------------------------------------------------------------------- */
/* Read a whole file ("-": standard input) up to the input limit; 0, or -1 after reporting why. */
int read_input(const char *path, char **data, size_t *len);

/* -- The allocator of a command that loads, prints or checks a module and exits (arena.c) ----- */
typedef struct arena arena;
/* An arena for a module read from input_len bytes, and its allocator function (*fn, ud the
** arena); NULL (use the C library's) when it cannot be had or under AddressSanitizer. */
arena *arena_create(size_t input_len, visa_realloc_fn *fn);
void arena_destroy(arena *A); /* after the context that allocates from it */

/* A program read and loaded: its context, module and, for text, the text (diagnostics quote it). */
typedef struct loaded {
    visa_ctx *ctx;
    visa_module *m;
    char *data;
    size_t len;
    bool binary;
    bool mapped; /* data is the file mapped (munmap), else malloc'd */
    arena *arena; /* LOAD_ARENA: what the context allocates from, or NULL */
} loaded;

enum {
    LOAD_OBJECT = 1, /* the input must be an object (dis) */
    LOAD_ARENA = 2, /* the context allocates from an arena (arena.c), for a command that loads,
                    ** prints or checks and exits (not run's launches, which free as they go) */
};
/* Load text or an object (recognised by its "CISA" magic) as flags (LOAD_*) say.  Diagnostics go
** to o; returns 0 or EXIT_DIAG. */
int load_module(const char *path, visa_platform platform, diag_out *o, unsigned flags, loaded *L);
void unload(loaded *L);
/* Print m as text to out (standard output when NULL); 0 or EXIT_DIAG. */
int write_text(const visa_module *m, const char *out, unsigned flags);
/* Write bytes to out (standard output when NULL) whole; 0 or EXIT_DIAG. */
int write_bytes(const char *out, const void *data, size_t len);

/* -- run's progress line (progress.c), which diagnostics take off the terminal first -------- */
void progress_clear(void);

#endif
