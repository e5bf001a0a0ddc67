/* harness.h -- a minimal C test harness: CHECK() records failures, each test program ends with
** the line "N passed, N failed" and exits non-zero on any failure. */
#ifndef VISA_TEST_HARNESS_H
#define VISA_TEST_HARNESS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int th_passed, th_failed, th_case_failed __attribute__((unused)),
    th_skipped; /* unused where a file only reads inputs (bench_attention) */

/* Exit status CTest reports as "Skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). */
#define TH_SKIP_CODE 77

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            th_case_failed = 1;                                                      \
        }                                                                            \
    } while (0)

#define CHECKF(cond, ...)                                                            \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
            th_case_failed = 1;                                                      \
        }                                                                            \
    } while (0)

/* Run one test case: a block of checks counted as one pass or failure. */
#define CASE_BEGIN() (th_case_failed = 0)
#define CASE_END(name)                            \
    do {                                          \
        if (th_case_failed) {                     \
            th_failed++;                          \
            fprintf(stderr, "FAIL %s\n", (name)); \
        } else {                                  \
            th_passed++;                          \
        }                                         \
    } while (0)

/* Missing third-party data (../shared) skips a test visibly instead of passing it empty. */
static inline void th_skip(const char *why, const char *path) {
    printf("SKIPPED: %s (%s not found)\n", why, path);
    th_skipped = 1;
}

static inline int th_finish(void) {
    printf("%d passed, %d failed\n", th_passed, th_failed);
    if (th_failed) return 1;
    return th_skipped && !th_passed ? TH_SKIP_CODE : 0;
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

static inline int th_cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names of the files in dir ending in ext (caller frees each and the array); -1 if dir
** cannot be opened. */
static inline int th_list_dir(const char *dir, const char *ext, char ***out) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0, cap = 64;
    char **names = malloc(sizeof(char *) * (size_t)cap);
    struct dirent *e;
    size_t el = strlen(ext);
    while (names && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= el || strcmp(e->d_name + l - el, ext)) continue;
        if (n == cap) {
            char **grown = realloc(names, sizeof(char *) * (size_t)(cap *= 2));
            if (!grown) break;
            names = grown;
        }
        size_t sz = l + 1;
        if (!(names[n] = malloc(sz))) break;
        memcpy(names[n++], e->d_name, sz);
    }
    closedir(d);
    if (!names) return -1;
    qsort(names, (size_t)n, sizeof *names, th_cmp_names);
    *out = names;
    return n;
}

#endif
