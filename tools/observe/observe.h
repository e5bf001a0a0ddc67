/* observe.h -- `--trace` and `--profile` (docs/observe.md): a visa_observer that formats what
** kernels did, shared by `visa run` and visa's OpenCL ICD (`visa cl`).
**
** A session is one run of the tool or one OpenCL program: it owns the trace's output and one
** profile per kernel, summed over the kernel's launches and printed when the session finishes.
** Each launch gets its own observer (obs_launch_start).  Launches may run at once on several host
** threads (the ICD's queues): the session's lock covers what they share.  The trace is written as
** groups finish, in group order within a launch. */
#ifndef VISA_TOOL_OBSERVE_H
#define VISA_TOOL_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "visa/visa.h"

typedef struct obs_opts {
    bool trace, trace_json;
    const char *trace_out; /* NULL: `stream` */
    bool thread_filter;
    uint64_t filter_group; /* --trace-thread G,T */
    uint32_t filter_thread;
    uint32_t lane_lo, lane_hi; /* --trace-lanes A-B (default 0-31) */
    uint32_t line_lo, line_hi; /* --trace-lines A-B (default all) */
    bool profile, profile_json;
    const char *profile_svg; /* NULL: none */
    FILE *stream; /* the trace without trace_out, and the profiles; NULL: standard output (out_stdout) */
    bool in_place; /* write trace_out and profile_svg in place, not through a temporary file renamed
                      over them (outfile.h): the ICD lives in a host program, whose signals are its own */
} obs_opts;

/* The observation options as `visa run` and `visa cl` take them, in the order the help lists them;
** the ICD reads each from the environment variable VISA_CL_ + its name upper-cased with '-' as '_'
** (obs_env_name: --trace-lines is VISA_CL_TRACE_LINES; a switch's value is "1"). */
typedef struct obs_option {
    const char *name;
    bool valued;
} obs_option;
extern const obs_option obs_options[];
extern const unsigned obs_option_count;

/* The defaults: everything off, all lanes, all lines. */
void obs_opts_init(obs_opts *o);
/* Option `name` with its value (NULL for a switch) into o; it turns its observation on.  0; -1 when
** name is not an observation option; 1 when the value is bad (*why: the message, e.g. "bad
** --trace-lanes 'x' (A-B)"). */
int obs_parse_option(obs_opts *o, const char *name, const char *value, char *why, size_t cap);
/* The environment variable of an option (VISA_CL_TRACE_LINES for --trace-lines) into out. */
void obs_env_name(const char *option, char *out, size_t cap);

/* A kernel as a launch gives it.  The session copies what it keeps: a kernel is the same one again
** when both its name and its text are. */
typedef struct obs_kernel {
    const char *name;
    const char *file; /* its vISA's name in FILE:LINE (the input file, visa_module_name) */
    const char *text; /* the vISA text the instructions' lines count in (NULL: none) */
    size_t text_len;
    /* An OpenCL source that is no file: a FILE position whose last path component is source_name
    ** has the text source_text (the ICD names its programs' sources "program.cl"); NULL: none,
    ** FILE names are read from the file system. */
    const char *source_name, *source_text;
    size_t source_len;
} obs_kernel;

/* Kernel `kernel` of a program as a launch of it names it (no source_name): *text receives its vISA
** text, printed (the zebin's text, line for line), to free() after the launch.  false (reported)
** when out of memory or the program has no vISA for the kernel. */
bool obs_program_kernel(const visa_program *p, const char *kernel, obs_kernel *k, char **text);
/* The thread groups of a program's launch, 0 when the launch chooses its work-group size or the
** global size is no multiple of it (remainder groups run as launches of their own). */
uint64_t obs_program_groups(const visa_cl_launch *l);
/* The prepared kernel of a program's launch that ran (obs_prepared). */
const visa_kernel *obs_program_prepared(const visa_program *p, const char *kernel, visa_status run_status);

typedef struct obs_session obs_session;
typedef struct obs_launch obs_launch;

/* Opens the trace's output; NULL on failure (reported). */
obs_session *obs_session_start(const obs_opts *opts);
/* A launch of k over ngroups thread groups (0: not known, as when a program's launch chooses its
** work-group size or runs remainder groups: the launch's trace is then held and written in group
** id order when it ends).  Fills *o, the observer to give the launch; NULL when out of memory
** (reported) or after obs_session_finish (the launch runs unobserved). */
obs_launch *obs_launch_start(obs_session *s, const obs_kernel *k, uint64_t ngroups, visa_observer *o);
/* After the launch: its trace written, its counts in its kernel's profile; frees l.  prepared: the
** launch's prepared kernel, whose ops' program source positions the profile gives (NULL: none). */
void obs_launch_finish(obs_launch *l, const visa_kernel *prepared);
/* The prepared kernel of a launch of module m that ran (run_status VISA_OK or VISA_E_RUNTIME: the
** run prepared it, so this reports nothing again), else NULL.  kernel NULL: the first. */
const visa_kernel *obs_prepared(const visa_module *m, const char *kernel, visa_platform platform,
                                visa_status run_status);
/* Print the profiles (one per kernel, in the order they first ran), write the SVG, close the
** trace; 0, or 1 after reporting a failure.  Launches after this are not observed. */
int obs_session_finish(obs_session *s);
void obs_session_free(obs_session *s);

#endif
