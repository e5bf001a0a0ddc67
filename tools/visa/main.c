/* main.c -- the `visa` command-line tool: a thin driver over the public C API.  The commands are
** the rows of commands.def, each in its own file; main finds the command, starts its report and
** ends it (with --json, the one JSON document on standard output). */
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *args, *summary;
} command;

static const command commands[] = {
#define VISA_COMMAND(name, args, summary) {#name, cmd_##name, args, summary},
#include "commands.def"
#undef VISA_COMMAND
};

static void print_main_help(FILE *f) {
    fputs("usage: visa COMMAND [ARGS]\n"
          "\n"
          "An independent toolchain for Intel's vISA (the virtual ISA of IGC).\n"
          "\n"
          "Commands:\n",
          f);
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        char head[64];
        snprintf(head, sizeof head, "%s %s", commands[k].name, commands[k].args);
        fprintf(f, "  %-20s%s\n", head, commands[k].summary);
    }
    fputs("\n"
          "Every command that reads a program accepts text (.visaasm) or an object (.isa).  With\n"
          "--json every command prints one JSON document on standard output, whatever happens:\n"
          "its diagnostics and what it would have printed.  Outputs are written whole or not at\n"
          "all ('man visa').\n"
          "\n"
          "  --version           print the version\n"
          "  --help              this help; 'visa COMMAND --help' for a command\n"
          "\n"
          "Exit status: 0 ok, 1 diagnostics (errors in the input), 2 usage error.\n",
          f);
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        print_main_help(stdout);
        return 0;
    }
    if (!strcmp(name, "--version")) {
        printf("visa %s\n", VISA_VERSION_STRING);
        return 0;
    }
    report_begin(name, argc, argv);
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(name, commands[k].name)) return report_end(commands[k].fn(argc - 2, argv + 2));
    report_scan_json(argc - 2, argv + 2, NULL); /* the command's options are unknown: any --json */
    return report_end(usage_error("unknown command '%s'", name));
}

int main(int argc, char **argv) {
    int rc = dispatch(argc, argv);
    /* what went to standard output must have arrived (a full disk, a closed pipe) */
    if (out_close_stdout() && !rc) rc = EXIT_DIAG;
    return rc;
}
