/* asm.c -- `visa asm` (text or an object into a vISA 4.1 object) and `visa dis` (an object into
** text): the same options, the same loading, opposite directions. */
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

static const char asm_help[] =
    "usage: visa asm FILE [-o OUT.isa] [--platform P] [--json]\n"
    "\n"
    "Assemble vISA text (or re-encode an object) into a version 4.1 vISA object, byte for byte\n"
    "what IGC's writer produced. Text in any dialect is read (igc2, asm-text, igc1: see 'visa\n"
    "fmt --help'). --platform (default Xe2) decides the GRF size used for address-of offsets.\n"
    "Without -o the object goes to FILE with its extension replaced by .isa; an output that is\n"
    "the input file itself is refused. --json: one JSON document on standard output (the\n"
    "diagnostics; with -o -, the object as \"output_base64\").\n";
static const char dis_help[] =
    "usage: visa dis FILE.isa [-o OUT.visaasm] [--platform P] [--dialect D] [--json]\n"
    "\n"
    "Disassemble a vISA object into text exactly as IGC prints it (standard output by default).\n"
    "--dialect D: igc2 (IGC 2.x's disassembly print, the default), asm-text (IGC 2.x's\n"
    "vISA_IsaAssembly) or igc1 (IGC 1.0.x's dump).\n"
    "FILE must be an object (it starts with \"CISA\"); an output that is the input file itself is\n"
    "refused. --json: one JSON document on standard output (the diagnostics, the text as \"output\").\n";

/* asm's output without -o: FILE with its extension replaced by .isa (standard output for "-"). */
static const char *default_object(const char *in, char *buf, size_t cap) {
    const char *dot = strrchr(in, '.');
    const char *slash = strrchr(in, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - in) : strlen(in);
    if (stem + 5 >= cap || !strcmp(in, "-")) return "-";
    snprintf(buf, cap, "%.*s.isa", (int)stem, in);
    return buf;
}

static int encode(const loaded *L, visa_platform platform, const char *out) {
    uint8_t *bytes;
    size_t len;
    visa_status st = visa_module_encode(L->m, platform, &bytes, &len);
    if (st != VISA_OK) {
        if (st != VISA_E_IO) report_status(st);
        return EXIT_DIAG;
    }
    int rc = write_bytes(out, bytes, len);
    visa_free(L->ctx, bytes, len);
    return rc;
}

static int asm_dis(int argc, char **argv, bool is_asm) {
    static const char *const flags[] = {"--dialect", "--json", NULL};
    cmd_opts o;
    /* an object holds no text, so only dis prints in a dialect (asm reads every dialect) */
    int early = parse_cmd_opts(argc, argv, is_asm ? "asm" : "dis", is_asm ? asm_help : dis_help, true,
                               is_asm ? flags + 1 : flags, 0, &o);
    if (early >= 0) return early;
    const char *in = o.in, *out = o.out;
    char default_out[4096];
    if (is_asm && !out) out = default_object(in, default_out, sizeof default_out);
    if (out && !strcmp(out, "-")) out = NULL;
    /* the output would be something else than the input: never write it over the input */
    if (out_is_input(out, in)) return EXIT_DIAG;
    diag_out *d = report_diags();
    d->limit = TEXT_MAX_ERRORS;
    loaded L;
    int rc = load_module(in, o.platform, d, (is_asm ? 0 : LOAD_OBJECT) | LOAD_ARENA, &L);
    if (!rc)
        rc = is_asm ? encode(&L, o.platform, out)
                    : write_text(L.m, out, VISA_PRINT_STRIP_COMMENTS | VISA_PRINT_DIALECT(o.dialect));
    diag_out_finish(d, in);
    unload(&L);
    return rc;
}

int cmd_asm(int argc, char **argv) { return asm_dis(argc, argv, true); }
int cmd_dis(int argc, char **argv) { return asm_dis(argc, argv, false); }
