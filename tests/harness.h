/* harness.h -- a minimal C test harness: CHECK() records failures, each test program ends with
** the line "N passed, N failed" and exits non-zero on any failure. */
#ifndef VISA_TEST_HARNESS_H
#define VISA_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int th_passed, th_failed, th_case_failed;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
            th_case_failed = 1;                                                         \
        }                                                                               \
    } while (0)

#define CHECKF(cond, ...)                                                               \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                               \
            fputc('\n', stderr);                                                        \
            th_case_failed = 1;                                                         \
        }                                                                               \
    } while (0)

/* Run one test case: a block of checks counted as one pass or failure. */
#define CASE_BEGIN() (th_case_failed = 0)
#define CASE_END(name)                                                                  \
    do {                                                                                \
        if (th_case_failed) {                                                           \
            th_failed++;                                                                \
            fprintf(stderr, "FAIL %s\n", (name));                                       \
        } else {                                                                        \
            th_passed++;                                                                \
        }                                                                               \
    } while (0)

static inline int th_finish(void) {
    printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed ? 1 : 0;
}

static inline char *th_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

#endif
