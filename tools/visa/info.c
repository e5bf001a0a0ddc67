/* info.c -- `visa info`: what the instruction table knows about an instruction. */
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

static const char info_help[] =
    "usage: visa info MNEMONIC [--json]\n"
    "       visa info --list [--json]\n"
    "\n"
    "Describe what the instruction table knows about an instruction: opcode, sub-opcode,\n"
    "binary operand layout, legal types, exec sizes, platforms and text syntax.  MNEMONIC may\n"
    "carry its sub-operation suffix (cmp.lt, lsc_load.ugm) or be the table row's name (LSC_LOAD).\n"
    "\n"
    "  --list    every mnemonic (with its sub-operation suffixes), its table row and a summary\n"
    "  --json    one JSON document on standard output: the text as \"output\", the diagnostics\n";

static visa_status write_stream(void *ud, const char *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)ud) == len ? VISA_OK : VISA_E_IO;
}

/* "unknown instruction 'ad' (did you mean 'add'?)": the candidates are visa_list_instructions'
** first column. */
static void unknown_instruction(const char *mn) {
    strbuf b = {0};
    suggester g;
    suggest_init(&g, mn);
    char best[96] = "";
    if (visa_list_instructions(sb_write, &b) == VISA_OK && b.s) {
        for (char *line = b.s; *line;) {
            char *nl = strchr(line, '\n');
            size_t n = strcspn(line, " \n");
            char word[96];
            if (n < sizeof word) {
                memcpy(word, line, n);
                word[n] = 0;
                suggest_try(&g, word);
                if (g.best == word) {
                    memcpy(best, word, n + 1);
                    g.best = best;
                }
            }
            if (!nl) break;
            line = nl + 1;
        }
    }
    if (g.best)
        cli_error("E-UNKNOWN-INSTRUCTION", NULL,
                  "unknown instruction '%s' (did you mean '%s'?); 'visa info --list' lists them", mn, g.best);
    else cli_error("E-UNKNOWN-INSTRUCTION", NULL, "unknown instruction '%s'; 'visa info --list' lists them", mn);
    sb_free(&b);
}

int cmd_info(int argc, char **argv) {
    const char *mn = NULL;
    bool list = false;
    report_scan_json(argc, argv, NULL);
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            return print_help(info_help);
        } else if (!strcmp(argv[i], "--list")) {
            list = true;
        } else if (!strcmp(argv[i], "--json")) {
            continue;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            static const char *const known[] = {"--list", "--help", "--json"};
            return unknown_option(argv[i], known, 3);
        } else if (mn) {
            return usage_error("unexpected argument '%s'", argv[i]);
        } else {
            mn = argv[i];
        }
    }
    if (list) {
        if (mn) return usage_error("%s", "--list takes no mnemonic");
        return visa_list_instructions(write_stream, out_stdout()) == VISA_OK ? 0 : EXIT_DIAG;
    }
    if (!mn) return usage_error("%s", "info needs a mnemonic (or --list)");
    visa_status st = visa_describe_instruction(mn, write_stream, out_stdout());
    if (st == VISA_E_ARG) {
        unknown_instruction(mn);
        return EXIT_DIAG;
    }
    return st == VISA_OK ? 0 : EXIT_DIAG;
}
