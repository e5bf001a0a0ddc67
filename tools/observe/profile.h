/* profile.h -- the counters of `--profile` and their printing (profile.c), for observe.c, which
** counts and keeps them per kernel of a session. */
#ifndef VISA_TOOL_PROFILE_H
#define VISA_TOOL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "strbuf.h"

/* One op's counters (an op: visa_exec_point.op). */
typedef struct op_prof {
    uint64_t execs, active, lanes, partial, bytes, ns;
    uint32_t line, exec_size;
    char mnemonic[32];
    bool seen;
} op_prof;

typedef struct prof {
    op_prof *op;
    uint32_t nop;
} prof;

/* Op i's counters, the table grown to hold it; NULL when out of memory. */
op_prof *prof_at(prof *p, uint32_t i);

/* An op's program source position: file is 1 + an index into obs_kern.files (0: none). */
typedef struct op_src {
    uint32_t file, line;
} op_src;

/* A kernel of the session and its profile over all its launches. */
typedef struct obs_kern {
    struct obs_kern *next;
    char *name, *file, *text;
    size_t text_len;
    char **files; /* the FILE names of its source positions */
    uint32_t nfiles;
    op_src *src; /* per op */
    uint32_t nsrc;
    char *source_name, *source_text; /* obs_kernel's, when one of the files is named so */
    size_t source_len;
    prof total;
    uint64_t launches, threads;
} obs_kern;

/* Active lanes over executed instructions, per thread (the SVG). */
typedef struct lane_row {
    uint64_t launch; /* the session's launch number, from 1 */
    uint64_t group;
    uint32_t thread;
    uint8_t *active, *size; /* per executed instruction */
    size_t n, cap;
} lane_row;

/* A kernel's profile to f (text or JSON: one object on one line). */
void prof_print_kernel(const obs_kern *k, bool json, FILE *f);
/* --profile-svg PATH (in_place: outfile.h's out_open_direct): one row per thread; rows of several
** launches (name_launches) name theirs.  Sorts rows.  0, or 1 after reporting a failure. */
int prof_write_svg(lane_row *rows, size_t nrows, bool name_launches, const char *path, bool in_place);

#endif
