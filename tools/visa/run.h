/* run.h -- the parts of `visa run`: the launch the command line describes (run.c), the values of
** --arg, --print and buffers (runargs.c), the --list-inputs listing and --kernel's check
** (inputs.c), the progress line of a long run (progress.c). */
#ifndef VISA_TOOL_RUN_H
#define VISA_TOOL_RUN_H

#include "cli.h"
#include "../observe/observe.h"

#define RUN_MAX 256 /* --arg values, buffers, --out and --print each */
#define RUN_MAX_ELEMS 4096 /* the elements of vector arguments, together */

typedef struct run_buf {
    uint8_t *data;
    size_t size;
    uint8_t undef; /* buf:SIZE:undef: its bytes start undefined for --check=initcheck */
    uint8_t access; /* buf:...:ro / :wo: a visa_buffer_access for --check=memcheck */
} run_buf;

/* What the command line asks for. */
typedef struct run_cfg {
    const char *in, *plat;
    visa_platform platform;
    visa_run_opts ro;
    visa_arg args[RUN_MAX];
    const char *arg_names[RUN_MAX]; /* NAME=VALUE: NAME; NULL for a positional value */
    char names[RUN_MAX][128];
    bool any_named;
    visa_arg elems[RUN_MAX_ELEMS];
    size_t nelems, nargs, nbufs;
    run_buf bufs[RUN_MAX];
    char launch_error[256]; /* an error about the launch, reported against FILE */
    bool list, want_stats, no_verify, json, progress;
    const char *outs[RUN_MAX], *prints[RUN_MAX];
    size_t nouts, nprints;
    obs_opts obs;
} run_cfg;

/* -- runargs.c ---------------------------------------------------------------------------------- */
#define RUN_MAX_OPTIONS 40 /* options of one kind (valued, switches) a run takes, and the NULL */
/* own (NULL-terminated), then the observation options (observe.h) that take a value (valued) or
** do not: NULL-terminated into out (RUN_MAX_OPTIONS entries). */
void run_options(const char **out, const char *const *own, bool valued);
/* An observation option a (value v; NULL for a switch) into o: 0, -1 when a is none of them, or
** EXIT_USAGE after the usage error. */
int run_observe_option(obs_opts *o, const char *a, const char *v);
/* X[,Y[,Z]]; missing dimensions are `fill`; zero allowed when allow_zero.  0 or -1. */
int parse_dims(const char *s, uint32_t out[3], uint32_t fill, bool allow_zero);
/* Element type by name (s[0..n)): size in bytes, float-ness and signedness; -1 if unknown. */
int elem_type(const char *s, size_t n, unsigned *size, int *is_float, int *is_signed);
/* One --arg VALUE into c->args[c->nargs] (and its buffer or elements); 0 or the exit status. */
int parse_run_arg(run_cfg *c, const char *v);
/* buf:SIZE[:INIT] into b (zeroed, or as INIT says); 0 or the exit status. */
int run_make_buffer(const char *spec, run_buf *b);
/* A decimal, float or 0x number: *is_float says which of dv / iv is exact; 0 or -1. */
int run_parse_number(const char *s, int *is_float, double *dv, long long *iv);
/* One element of `size` bytes (float when is_float; tname hf or bf for 2-byte floats). */
void run_put_elem(uint8_t *p, unsigned size, int is_float, const char *tname, double dv, long long iv);
/* buffer b as TYPE elements, one line. */
void print_buffer(FILE *f, const run_buf *b, const char *tname);

/* -- inputs.c ----------------------------------------------------------------------------------- */
/* --list-inputs: the launch model and one line per input (with --json: "kernel" and "inputs"). */
int list_inputs(const visa_module *m, const char *kernel, visa_platform platform);
/* --kernel NAME must name a kernel of the module; 0 or EXIT_DIAG (the error lists them). */
int check_kernel(const visa_module *m, const char *file, const char *name);

/* -- runcl.c: `visa run` of an OpenCL program (.cl, .spv, zebin) ------------------------------- */
/* Whether FILE (the first operand) is an OpenCL program rather than vISA. */
bool run_is_program(int argc, char **argv);
int run_program(int argc, char **argv);

/* -- progress.c --------------------------------------------------------------------------------- */
typedef struct progress_line progress_line;
/* After VISA_PROGRESS_DELAY_MS (default 1000) the elapsed time; NULL if it cannot be shown. */
progress_line *progress_start(const char *kernel, bool tty);
void progress_stop(progress_line *p);

#endif
