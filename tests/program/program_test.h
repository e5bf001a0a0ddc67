/* program_test.h -- what the src/program tests share: a context whose diagnostics are kept for
** the checks, and an allocator that fails on request. */
#ifndef VISA_PROGRAM_TEST_H
#define VISA_PROGRAM_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "program/program_int.h"

typedef struct pt_diag {
    char code[32];
    visa_severity sev;
    uint32_t line, col;
    uint64_t offset;
    char message[256];
} pt_diag;

typedef struct pt_state {
    pt_diag diags[64];
    unsigned count, errors, warnings;
    long fail_at; /* the allocation (counted from 0) that fails; -1: none */
    long allocs;
    bool verbose;
} pt_state;

static void pt_on_diag(void *ud, const visa_diag *d) {
    pt_state *s = ud;
    if (d->severity == VISA_SEV_ERROR) s->errors++;
    if (d->severity == VISA_SEV_WARNING) s->warnings++;
    if (s->verbose)
        fprintf(stderr, "  %s %s:%u:%u @%llu: %s\n", d->code, d->file, d->line, d->col, (unsigned long long)d->offset,
                d->message);
    if (s->count == sizeof s->diags / sizeof *s->diags) return;
    pt_diag *k = &s->diags[s->count++];
    snprintf(k->code, sizeof k->code, "%s", d->code);
    snprintf(k->message, sizeof k->message, "%s", d->message);
    k->sev = d->severity;
    k->line = d->line;
    k->col = d->col;
    k->offset = d->offset;
}

static void *pt_alloc(void *ud, void *p, size_t old, size_t size) {
    pt_state *s = ud;
    (void)old;
    if (size == 0) {
        free(p);
        return NULL;
    }
    if (s->fail_at >= 0 && s->allocs++ == s->fail_at) return NULL;
    return realloc(p, size);
}

static visa_ctx *pt_ctx(pt_state *s) {
    memset(s, 0, sizeof *s);
    s->fail_at = -1;
    s->verbose = getenv("PT_VERBOSE") != NULL;
    visa_ctx_desc desc = {sizeof desc, pt_alloc, s, pt_on_diag, s, 64};
    visa_ctx *ctx = NULL;
    if (visa_ctx_create(&desc, &ctx) != VISA_OK) {
        fprintf(stderr, "cannot create a context\n");
        exit(1);
    }
    return ctx;
}

static void pt_reset(pt_state *s) { s->count = s->errors = s->warnings = 0; }

/* The first diagnostic with this code, or NULL. */
static const pt_diag *pt_find(const pt_state *s, const char *code) {
    for (unsigned i = 0; i < s->count; i++)
        if (strcmp(s->diags[i].code, code) == 0) return &s->diags[i];
    return NULL;
}

/* Every allocation of run(ctx, arg) fails in turn: each round must give VISA_E_NOMEM with an
** "out of memory" diagnostic, until one past the last allocation succeeds (the sanitizer build
** sees that nothing leaks).  run frees what it built. */
typedef visa_status (*pt_run_fn)(visa_ctx *ctx, const void *arg);
static inline void pt_nomem_rounds(visa_ctx *ctx, pt_state *s, pt_run_fn run, const void *arg) {
    CASE_BEGIN();
    long fail = 0;
    for (;; fail++) {
        pt_reset(s);
        s->allocs = 0;
        s->fail_at = fail;
        visa_status st = run(ctx, arg);
        s->fail_at = -1;
        if (st == VISA_OK) break;
        CHECKF(st == VISA_E_NOMEM && pt_find(s, "E-NOMEM"), "allocation %ld: status %d", fail, st);
        if (fail > 100000) break;
    }
    CHECK(fail > 3);
    CASE_END("allocation failures");
}

#endif
