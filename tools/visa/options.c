/* options.c -- command-line options the commands share, and "did you mean" for a mistyped word. */
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

/* Edit distance (insertions, deletions, substitutions, transpositions) of two short strings. */
static size_t edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63) return SIZE_MAX;
    size_t d[64][64];
    for (size_t i = 0; i <= n; i++) d[i][0] = i;
    for (size_t j = 0; j <= m; j++) d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

void suggest_init(suggester *g, const char *word) {
    g->word = word;
    g->best = NULL;
    size_t n = strlen(word);
    g->dist = n <= 4 ? 2 : n / 3 + 1; /* strictly below this */
}

void suggest_try(suggester *g, const char *cand) {
    size_t d = edit_distance(g->word, cand);
    if (d < g->dist) {
        g->dist = d;
        g->best = cand;
    }
}

int unknown_option(const char *arg, const char *const *known, size_t n) {
    suggester g;
    suggest_init(&g, arg);
    for (size_t k = 0; k < n; k++)
        if (known[k]) suggest_try(&g, known[k]);
    if (g.best) return usage_errorf(arg, "unknown option '%s' (did you mean '%s'?)", arg, g.best);
    return usage_error("unknown option '%s'", arg);
}

bool is_help(const char *arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

int print_help(const char *help) {
    fputs(help, out_stdout());
    return 0;
}

int parse_cmd_opts(int argc, char **argv, const char *name, const char *help, bool takes_out, const char *const *flags,
                   unsigned standalone, cmd_opts *o) {
    const char *plat = "Xe2";
    memset(o, 0, sizeof *o);
    static const char *const valued[] = {"-o", "--platform", "--dialect", NULL};
    report_scan_json(argc, argv, takes_out ? valued : valued + 1);
    o->json = report_json();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int flag = -1;
        for (int k = 0; flags && flags[k]; k++)
            if (!strcmp(a, flags[k])) flag = k;
        if (is_help(a)) {
            return print_help(help);
        } else if (flag >= 0 && !strcmp(a, "--dialect")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", a);
            if (visa_dialect_from_name(argv[i], &o->dialect) != VISA_OK)
                return usage_error("unknown dialect '%s' (igc2, asm-text or igc1)", argv[i]);
            o->set |= 1u << flag;
        } else if (flag >= 0) {
            o->set |= 1u << flag;
        } else if ((takes_out && !strcmp(a, "-o")) || !strcmp(a, "--platform")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", a);
            if (a[1] == 'o') o->out = argv[i];
            else plat = argv[i];
        } else if (a[0] == '-' && a[1]) {
            const char *known[16] = {"--help", "--platform", takes_out ? "-o" : NULL};
            size_t n = 3;
            for (int k = 0; flags && flags[k] && n < 16; k++) known[n++] = flags[k];
            return unknown_option(a, known, n);
        } else if (o->in) {
            return usage_error("unexpected argument '%s'", a);
        } else {
            o->in = a;
            report_file(a);
        }
    }
    if (!o->in && !(o->set & standalone)) return usage_errorf(NULL, "%s needs an input file", name);
    if (visa_platform_from_name(plat, &o->platform) != VISA_OK) return usage_error("unknown platform '%s'", plat);
    report_platform(o->platform);
    return -1;
}
