/* fmt.c -- `visa fmt`: parse vISA assembly (or decode an object) and print it as IGC prints it. */
#include "cli.h"

static const char fmt_help[] =
    "usage: visa fmt FILE [-o OUT] [--strip-comments] [--dialect D] [--platform P] [--json]\n"
    "\n"
    "Parse vISA assembly and print it exactly as IGC prints it. Your comments are kept where\n"
    "they stood; instruction ids (/// $N) and the predefined-variable block are regenerated.\n"
    "A file keeps its dialect: IGC 2.x's disassembly print, its asm-text style (no predefined-\n"
    "variable block, as IGC 2.x dumps OpenCL and SYCL kernels) or IGC 1.0.x's dump (21\n"
    "predefined variables, no %scratchloc: Debian 12's ocloc).\n"
    "\n"
    "  -o OUT              write to OUT instead of standard output (-o FILE formats FILE in place)\n"
    "  --strip-comments    print IGC's canonical form (no user comments): its disassembly print\n"
    "  --dialect D         print in dialect D: igc2 (IGC 2.x's disassembly print), asm-text\n"
    "                      (IGC 2.x's vISA_IsaAssembly: no predefined-variable block, no blank\n"
    "                      header lines) or igc1 (IGC 1.0.x's dump)\n"
    "  --asm-text          the same as --dialect asm-text\n"
    "  --platform P        target platform (GRF size for %sizeof GRF); default Xe2\n"
    "  --json              print one JSON document on standard output: the diagnostics (all of\n"
    "                      them; as text, the first 20 errors are shown) and the text (\"output\")\n"
    "\n"
    "Exit status: 0 ok, 1 input has errors, 2 usage error.\n";

int cmd_fmt(int argc, char **argv) {
    enum { STRIP = 1, ASM_TEXT = 4 };
    static const char *const flags[] = {"--strip-comments", "--json", "--asm-text", "--dialect", NULL};
    cmd_opts o;
    int early = parse_cmd_opts(argc, argv, "fmt", fmt_help, true, flags, 0, &o);
    if (early >= 0) return early;
    if ((o.set & ASM_TEXT) && o.dialect != VISA_DIALECT_KEEP && o.dialect != VISA_DIALECT_ASM_TEXT)
        return usage_errorf(NULL, "--asm-text contradicts --dialect %s", visa_dialect_name(o.dialect));
    diag_out *d = report_diags();
    d->limit = TEXT_MAX_ERRORS;
    loaded L;
    int rc = load_module(o.in, o.platform, d, LOAD_ARENA, &L);
    if (!rc)
        rc = write_text(L.m, o.out,
                        (o.set & STRIP ? VISA_PRINT_STRIP_COMMENTS : 0) | (o.set & ASM_TEXT ? VISA_PRINT_ASM_TEXT : 0) |
                            VISA_PRINT_DIALECT(o.dialect));
    diag_out_finish(d, o.in);
    unload(&L);
    return rc;
}
