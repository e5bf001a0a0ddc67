/* main.c -- the `visa` command-line tool: a thin driver over the public C API. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa.h"

#define EXIT_DIAG 1
#define EXIT_USAGE 2

static const char *prog = "visa";

/* -- Diagnostics: file:line:col: error: message, then the source line and a caret ----------- */
static void print_diag(void *ud, const visa_diag *d) {
    (void)ud;
    const char *sev = d->severity == VISA_SEV_ERROR ? "error" : d->severity == VISA_SEV_WARNING
                                                                    ? "warning" : "note";
    if (d->line) fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, sev, d->message);
    else fprintf(stderr, "%s:+0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, sev,
                 d->message);
    if (d->source_line) {
        /* show at most 160 columns of the line, around the caret */
        size_t col = d->col ? d->col - 1 : 0, from = 0, to = d->source_line_len;
        if (col > 100) from = col - 80;
        if (to - from > 160) to = from + 160;
        fputs(from ? "    ..." : "    ", stderr);
        for (size_t i = from; i < to; i++) {
            unsigned char c = (unsigned char)d->source_line[i];
            fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', stderr);
        }
        fputs(to < d->source_line_len ? "...\n    " : "\n    ", stderr);
        if (from) fputs("   ", stderr);
        for (size_t i = from; i < col && i < d->source_line_len; i++)
            fputc(d->source_line[i] == '\t' ? '\t' : ' ', stderr);
        fputs("^\n", stderr);
    }
}

static int read_file(const char *path, char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open '%s': %s\n", prog, path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= ((size_t)1 << 31)) {
            fprintf(stderr, "%s: '%s' is too large\n", prog, path);
            free(buf);
            buf = NULL;
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int err = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf || err) {
        if (buf) fprintf(stderr, "%s: error reading '%s'\n", prog, path);
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

static visa_status write_stream(void *ud, const char *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)ud) == len ? VISA_OK : VISA_E_IO;
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return EXIT_USAGE;
}

/* Load a module from text or a binary object (recognised by its "CISA" magic). */
static int load_module(const char *path, visa_platform platform, visa_ctx **ctx_out,
                       visa_module **out) {
    char *data;
    size_t len;
    *out = NULL;
    *ctx_out = NULL;
    if (read_file(path, &data, &len)) return EXIT_DIAG;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, print_diag, NULL, 0};
    if (visa_ctx_create(&desc, ctx_out) != VISA_OK) {
        free(data);
        return EXIT_DIAG;
    }
    visa_status st;
    if (len >= 4 && !memcmp(data, "CISA", 4))
        st = visa_module_decode(*ctx_out, path, data, len, platform, out);
    else
        st = visa_module_parse_text(*ctx_out, path, data, len, platform, out);
    free(data);
    if (st != VISA_OK) {
        if (st != VISA_E_SYNTAX && st != VISA_E_BINARY)
            fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
        return EXIT_DIAG;
    }
    return 0;
}

static FILE *open_out(const char *out) {
    FILE *f = out ? fopen(out, "wb") : stdout;
    if (!f) fprintf(stderr, "%s: cannot write '%s': %s\n", prog, out, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *out, visa_status st) {
    if (out && fclose(f) != 0) st = VISA_E_IO;
    if (st != VISA_OK) {
        fprintf(stderr, "%s: %s\n", prog, visa_status_str(st));
        return EXIT_DIAG;
    }
    return 0;
}

/* -- visa fmt ---------------------------------------------------------------------------------- */
static const char fmt_help[] =
    "usage: visa fmt FILE [-o OUT] [--strip-comments] [--platform P]\n"
    "\n"
    "Parse vISA assembly and print it exactly as IGC prints it. Your comments are kept where\n"
    "they stood; instruction ids (/// $N) and the predefined-variable block are regenerated.\n"
    "\n"
    "  -o OUT              write to OUT instead of standard output\n"
    "  --strip-comments    print IGC's canonical form (no user comments)\n"
    "  --platform P        target platform (GRF size for %sizeof GRF); default Xe2\n"
    "\n"
    "Exit status: 0 ok, 1 input has errors, 2 usage error.\n";

static int cmd_fmt(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *plat = "Xe2";
    unsigned flags = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(fmt_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", "-o");
            out = argv[i];
        } else if (!strcmp(argv[i], "--strip-comments")) {
            flags |= VISA_PRINT_STRIP_COMMENTS;
        } else if (!strcmp(argv[i], "--platform")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", "--platform");
            plat = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error("unknown option '%s'", argv[i]);
        } else if (in) {
            return usage_error("unexpected argument '%s'", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in) return usage_error("%s", "fmt needs an input file");
    visa_platform platform;
    if (visa_platform_from_name(plat, &platform) != VISA_OK)
        return usage_error("unknown platform '%s'", plat);
    visa_ctx *ctx;
    visa_module *m;
    int rc = load_module(in, platform, &ctx, &m);
    if (!rc) {
        FILE *f = open_out(out);
        if (!f) rc = EXIT_DIAG;
        else {
            visa_print_opts po = {sizeof po, flags};
            rc = close_out(f, out, visa_module_print(m, &po, write_stream, f));
        }
    }
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return rc;
}

/* -- visa asm / visa dis ------------------------------------------------------------------------ */
static const char asm_help[] =
    "usage: visa asm FILE [-o OUT.isa] [--platform P]\n"
    "\n"
    "Assemble vISA text (or re-encode an object) into a version 4.1 vISA object, byte for byte\n"
    "what IGC's writer produced. --platform (default Xe2) decides the GRF size used for\n"
    "address-of offsets. Without -o the object goes to FILE with its extension replaced by .isa.\n";
static const char dis_help[] =
    "usage: visa dis FILE.isa [-o OUT.visaasm] [--platform P]\n"
    "\n"
    "Disassemble a vISA object into text exactly as IGC prints it (standard output by default).\n";

static int cmd_asm_dis(int argc, char **argv, bool is_asm) {
    const char *in = NULL, *out = NULL, *plat = "Xe2";
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(is_asm ? asm_help : dis_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", "-o");
            out = argv[i];
        } else if (!strcmp(argv[i], "--platform")) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", "--platform");
            plat = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error("unknown option '%s'", argv[i]);
        } else if (in) {
            return usage_error("unexpected argument '%s'", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in) return usage_error("%s", is_asm ? "asm needs an input file" : "dis needs an input file");
    visa_platform platform;
    if (visa_platform_from_name(plat, &platform) != VISA_OK)
        return usage_error("unknown platform '%s'", plat);
    char default_out[4096];
    if (is_asm && !out) {
        const char *dot = strrchr(in, '.');
        const char *slash = strrchr(in, '/');
        size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - in) : strlen(in);
        if (stem + 5 >= sizeof default_out || !strcmp(in, "-")) out = "-";
        else {
            snprintf(default_out, sizeof default_out, "%.*s.isa", (int)stem, in);
            out = default_out;
        }
    }
    if (out && !strcmp(out, "-")) out = NULL;
    visa_ctx *ctx;
    visa_module *m;
    int rc = load_module(in, platform, &ctx, &m);
    if (!rc) {
        FILE *f = open_out(out);
        if (!f) rc = EXIT_DIAG;
        else if (is_asm) {
            uint8_t *bytes;
            size_t len;
            visa_status st = visa_module_encode(m, platform, &bytes, &len);
            if (st == VISA_OK) {
                if (fwrite(bytes, 1, len, f) != len) st = VISA_E_IO;
                visa_free(ctx, bytes, len);
            }
            rc = close_out(f, out, st);
        } else {
            visa_print_opts po = {sizeof po, VISA_PRINT_STRIP_COMMENTS};
            rc = close_out(f, out, visa_module_print(m, &po, write_stream, f));
        }
    }
    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return rc;
}

/* -- visa info --------------------------------------------------------------------------------- */
static const char info_help[] =
    "usage: visa info MNEMONIC\n"
    "\n"
    "Describe what the instruction table knows about an instruction: opcode, sub-opcode,\n"
    "binary operand layout, legal types, exec sizes, platforms and text syntax.\n";

static int cmd_info(int argc, char **argv) {
    const char *mn = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(info_help, stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error("unknown option '%s'", argv[i]);
        } else if (mn) {
            return usage_error("unexpected argument '%s'", argv[i]);
        } else {
            mn = argv[i];
        }
    }
    if (!mn) return usage_error("%s", "info needs a mnemonic");
    visa_status st = visa_describe_instruction(mn, write_stream, stdout);
    if (st == VISA_E_ARG) {
        fprintf(stderr, "%s: unknown instruction '%s'\n", prog, mn);
        return EXIT_DIAG;
    }
    return st == VISA_OK ? 0 : EXIT_DIAG;
}

static const char main_help[] =
    "usage: visa COMMAND [ARGS]\n"
    "\n"
    "An independent toolchain for Intel's vISA (the virtual ISA of IGC).\n"
    "\n"
    "Commands:\n"
    "  fmt FILE [-o OUT]   parse and print vISA assembly as IGC prints it\n"
    "  asm FILE [-o OUT]   assemble text into a vISA 4.1 object (.isa)\n"
    "  dis FILE [-o OUT]   disassemble a vISA object into text\n"
    "  info MNEMONIC       describe an instruction from the instruction table\n"
    "\n"
    "Every command that reads a program accepts text (.visaasm) or an object (.isa).\n"
    "\n"
    "  --version           print the version\n"
    "  --help              this help; 'visa COMMAND --help' for a command\n"
    "\n"
    "Exit status: 0 ok, 1 diagnostics (errors in the input), 2 usage error.\n";

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(main_help, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("visa %s\n", VISA_VERSION_STRING);
        return 0;
    }
    if (!strcmp(cmd, "fmt")) return cmd_fmt(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "asm")) return cmd_asm_dis(argc - 2, argv + 2, true);
    if (!strcmp(cmd, "dis")) return cmd_asm_dis(argc - 2, argv + 2, false);
    return usage_error("unknown command '%s'", cmd);
}
