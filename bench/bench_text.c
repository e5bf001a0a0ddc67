/* bench_text.c -- parse + print throughput of the text front end (MB/s of input text).
** Usage: bench_text DIR...   (every *.visaasm in the directories; missing ones are skipped) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "visa/visa.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct file {
    char *name, *data;
    size_t len;
} file;

int main(int argc, char **argv) {
    file files[512];
    int nfiles = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            printf("(skipping %s: not found)\n", argv[a]);
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) && nfiles < 512) {
            size_t l = strlen(e->d_name);
            if (l < 9 || strcmp(e->d_name + l - 8, ".visaasm")) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(path, "rb");
            if (!f) continue;
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            char *buf = malloc((size_t)n);
            if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
                files[nfiles].name = strdup(path);
                files[nfiles].data = buf;
                files[nfiles].len = (size_t)n;
                nfiles++;
            } else {
                free(buf);
            }
            fclose(f);
        }
        closedir(d);
    }
    if (!nfiles) {
        printf("no input files\n");
        return 1;
    }
    visa_ctx *ctx;
    visa_ctx_create(NULL, &ctx);
    size_t total = 0;
    int rejected = 0;
    for (int i = 0; i < nfiles; i++) total += files[i].len;
    /* parse only, then parse + print, each for at least one second */
    for (int mode = 0; mode < 2; mode++) {
        double t0 = now(), t;
        size_t bytes = 0;
        int iters = 0;
        do {
            for (int i = 0; i < nfiles; i++) {
                visa_module *m = NULL;
                if (visa_module_parse_text(ctx, files[i].name, files[i].data, files[i].len, VISA_PLATFORM_XE2, &m) !=
                    VISA_OK) {
                    if (iters == 0 && mode == 0) rejected++;
                    continue;
                }
                if (mode == 1) {
                    char *out;
                    size_t len;
                    if (visa_module_print_to_buffer(m, NULL, &out, &len) == VISA_OK) visa_free(ctx, out, len + 1);
                }
                visa_module_destroy(m);
                bytes += files[i].len;
            }
            iters++;
            t = now() - t0;
        } while (t < 1.0);
        printf("%-14s %d files, %.1f KiB, %d passes, %.2f s: %.1f MB/s\n", mode ? "parse+print:" : "parse:", nfiles,
               total / 1024.0, iters, t, bytes / t / 1e6);
    }
    if (rejected) printf("(%d files were rejected by the parser and not timed)\n", rejected);
    visa_ctx_destroy(ctx);
    return 0;
}
