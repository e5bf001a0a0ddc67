/* headers.c -- clCompileProgram's input headers: written under their include names into a
** temporary directory for the build that needs them (IGC reads includes from files; -I names
** the directory). */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "icd.h"

void icd_headers_free(icd_header *h, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(h[i].name);
        free(h[i].source);
    }
    free(h);
}

cl_int icd_headers_add(icd_header **h, size_t *n, const char *name, const char *source) {
    icd_header *grown = realloc(*h, (*n + 1) * sizeof **h);
    if (!grown) return CL_OUT_OF_HOST_MEMORY;
    *h = grown;
    grown[*n].name = icd_strdup(name);
    grown[*n].source = icd_strdup(source);
    if (!grown[*n].name || !grown[*n].source) {
        free(grown[*n].name);
        free(grown[*n].source);
        return CL_OUT_OF_HOST_MEMORY;
    }
    (*n)++;
    return CL_SUCCESS;
}

/* dir/name, its directories made on the way. */
static int write_header(const char *dir, const icd_header *h) {
    size_t len = strlen(dir) + strlen(h->name) + 2;
    char *path = malloc(len);
    if (!path) return -1;
    snprintf(path, len, "%s/%s", dir, h->name);
    for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = strstr(h->name, "..") ? NULL : fopen(path, "w");
    int rc = f && fputs(h->source, f) >= 0 ? 0 : -1;
    if (f && fclose(f)) rc = -1;
    free(path);
    return rc;
}

char *icd_headers_write(const icd_header *h, size_t n) {
    if (!n) return NULL;
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/visa-cl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return NULL;
    for (size_t i = 0; i < n; i++)
        if (write_header(dir, &h[i])) {
            icd_headers_remove(dir);
            return NULL;
        }
    return icd_strdup(dir);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) { return remove(path); }

void icd_headers_remove(const char *dir) {
    if (dir) nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
