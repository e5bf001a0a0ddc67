/* observe.c -- `visa cl --trace` / `--profile` (docs/opencl.md, docs/observe.md): the variables
** VISA_CL_TRACE... and VISA_CL_PROFILE... (one per option of tools/observe's obs_options) make one
** observation session for the process, started with the run options; every launch gets its own
** observer, and the profiles (one per kernel, summed over its launches) are printed at exit.  The
** trace and the profiles go to standard error (the program owns standard output) unless a file
** is named, which is written in place (no temporary file: no signal handlers in a host program).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../observe/observe.h"
#include "../observe/outfile.h"
#include "icd.h"

/* What tools/observe reports (a file it cannot write, out of memory): the ICD's messages. */
void tool_verror(const char *id, const char *file, const char *fmt, va_list ap) {
    (void)id, (void)file;
    flockfile(stderr);
    fputs("visa-opencl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
}

static obs_session *session_at_exit;

/* Not freed: a launch of another thread may still be running when the program exits. */
static void finish_at_exit(void) { obs_session_finish(session_at_exit); }

obs_session *icd_observe_init(void) {
    obs_opts o;
    obs_opts_init(&o);
    for (unsigned k = 0; k < obs_option_count; k++) {
        char name[64], why[256];
        obs_env_name(obs_options[k].name, name, sizeof name);
        const char *v = getenv(name);
        if (!v || !*v || (!obs_options[k].valued && !strcmp(v, "0"))) continue;
        if (obs_parse_option(&o, obs_options[k].name, obs_options[k].valued ? v : NULL, why, sizeof why))
            fprintf(stderr, "visa-opencl: %s='%s': %s (ignored)\n", name, v, why);
    }
    if (!o.trace && !o.profile) return NULL;
    o.stream = stderr;
    o.in_place = true;
    session_at_exit = obs_session_start(&o);
    if (session_at_exit) atexit(finish_at_exit);
    return session_at_exit;
}

void icd_observe_start(icd_observing *w, icd_build *b, cl_kernel k, visa_cl_launch *launch) {
    obs_session *s = icd_options()->observe;
    memset(w, 0, sizeof *w);
    obs_kernel ok;
    if (!s || !obs_program_kernel(b->vp, k->name, &ok, &w->text)) return;
    if (k->program->source) { /* the FILE IGC names for it (a -g build) is no file */
        ok.source_name = ICD_PROGRAM_SOURCE_NAME;
        ok.source_text = k->program->source;
        ok.source_len = strlen(k->program->source);
    }
    w->launch = obs_launch_start(s, &ok, obs_program_groups(launch), &w->observer);
    launch->observer = w->launch ? &w->observer : NULL;
}

void icd_observe_end(icd_observing *w, icd_build *b, cl_kernel k, visa_status st) {
    obs_launch_finish(w->launch, w->launch ? obs_program_prepared(b->vp, k->name, st) : NULL);
    free(w->text);
    memset(w, 0, sizeof *w);
}
