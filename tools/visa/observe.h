/* observe.h -- `visa run --trace` and `--profile`: a visa_observer that formats what a kernel
** did (docs/observe.md).  run.c parses the options into obs_opts and wires the observer. */
#ifndef VISA_TOOL_OBSERVE_H
#define VISA_TOOL_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "visa/visa.h"

typedef struct obs_opts {
    bool trace, trace_json;
    const char *trace_out; /* NULL: standard output (out_stdout) */
    bool thread_filter;
    uint64_t filter_group; /* --trace-thread G,T */
    uint32_t filter_thread;
    uint32_t lane_lo, lane_hi; /* --trace-lanes A-B (default 0-31) */
    uint32_t line_lo, line_hi; /* --trace-lines A-B (default all) */
    bool profile, profile_json;
    const char *profile_svg; /* NULL: none */
    const char *file; /* the input, for FILE:LINE and the listing */
    const char *source; /* its text when it is a text file (else NULL) */
    size_t source_len;
} obs_opts;

typedef struct obs_state obs_state;

/* Parse "A-B" (or "A") into lo, hi; -1 if malformed. */
int obs_parse_range(const char *s, uint32_t *lo, uint32_t *hi);
/* Parse "G,T"; -1 if malformed. */
int obs_parse_thread(const char *s, uint64_t *group, uint32_t *thread);

/* Start: fills *o (the observer to put in visa_run_opts); ngroups is the launch's group count.
** NULL on failure (message printed). */
obs_state *obs_start(const obs_opts *opts, uint64_t ngroups, visa_observer *o);
/* After the run: flush the trace, print the profile, write the SVG; returns 0 or a failure. */
int obs_finish(obs_state *s);

#endif
