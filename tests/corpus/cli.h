/* cli.h -- driving the built `visa` CLI from a corpus test: files, shell quoting, one command
** with its stdout and stderr in a scratch directory.  Shared by the tests in tests/corpus (each
** is one translation unit; everything here is static). */
#ifndef VISA_TEST_CORPUS_CLI_H
#define VISA_TEST_CORPUS_CLI_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tmpdir[256]; /* the scratch directory (mkdtemp by the test) */
static const char *visa_bin; /* the CLI under test */

/* The whole file, NUL-terminated (len: its length without the NUL); NULL if unreadable. */
static inline char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

static inline int same_files(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    char *x = read_file(a, &la), *y = read_file(b, &lb);
    int same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

/* Appends s to cmd single-quoted for sh. */
static inline void add_arg(char *cmd, size_t cap, const char *s) {
    size_t n = strlen(cmd);
    if (n + 4 >= cap) return;
    cmd[n++] = ' ';
    cmd[n++] = '\'';
    for (; *s && n + 6 < cap; s++) {
        if (*s == '\'') {
            memcpy(cmd + n, "'\\''", 4);
            n += 4;
        } else cmd[n++] = *s;
    }
    cmd[n++] = '\'';
    cmd[n] = 0;
}

/* Path of a scratch file in tmpdir (eight rotating slots, so a few can be live at once). */
static inline char *scratch(const char *name) {
    static char paths[8][512];
    static int next;
    char *p = paths[next++ & 7];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

/* Runs `visa ARGS...` (NULL-terminated) with stdout to OUT (or the scratch file "stdout") and
** stderr to the scratch file "stderr"; returns the exit status, or -1 if it did not exit
** normally. */
static inline int visa(const char *out, const char *const *args) {
    char cmd[8192] = "";
    add_arg(cmd, sizeof cmd, visa_bin);
    for (; *args; args++) add_arg(cmd, sizeof cmd, *args);
    char o[512], e[512];
    snprintf(o, sizeof o, "%s/stdout", tmpdir);
    snprintf(e, sizeof e, "%s/stderr", tmpdir);
    strncat(cmd, " >", sizeof cmd - strlen(cmd) - 1);
    add_arg(cmd, sizeof cmd, out ? out : o);
    strncat(cmd, " 2>", sizeof cmd - strlen(cmd) - 1);
    add_arg(cmd, sizeof cmd, e);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Prints the first six lines of the last command's stderr. */
static inline void show_stderr(void) {
    char *e = read_file(scratch("stderr"), NULL);
    if (e && *e) {
        int lines = 0;
        for (char *p = e; *p && lines < 6; p++) {
            fputc(*p, stdout);
            if (*p == '\n') lines++;
        }
    }
    free(e);
}

#endif
