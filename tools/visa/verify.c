/* verify.c -- `visa verify`: a program against every rule of the vISA spec for a platform. */
#include "cli.h"
#include "../observe/outfile.h"

static const char verify_help[] =
    "usage: visa verify FILE [--platform P] [--json] [--werror] [--list-rules]\n"
    "\n"
    "Check a program (text or object) against every rule of the vISA spec for a platform:\n"
    "regions, operand classes, type maps, saturation and modifiers, exec sizes and masks,\n"
    "predicates, declarations, inputs, labels, raw operands and platform availability.\n"
    "Each diagnostic names its rule:\n"
    "    FILE:LINE:COL: error[V-REGION-WIDTH]: message      (text: the source line and a caret)\n"
    "    FILE:+0xOFFSET: error[V-PLATFORM]: message          (objects: the byte offset)\n"
    "\n"
    "  --platform P    target platform (Gen9 Gen11 XeLP XeHP XeHPG XeHPC Xe2 Xe3); default Xe2\n"
    "  --json          print the diagnostics as one JSON object on standard output\n"
    "  --werror        treat warnings as errors\n"
    "  --list-rules    list the rules (id, severity, spec section, statement, what IGC's verifier\n"
    "                  does about it) and exit\n"
    "\n"
    "Exit status: 0 no errors, 1 errors (or unreadable input), 2 usage error.\n";

/* --list-rules: a line per rule, or with --json the "rules" member. */
static int list_rules(bool json) {
    strbuf *b = json ? report_field("rules") : NULL;
    if (b) sb_puts(b, "[");
    for (size_t k = 0; k < visa_verify_rule_count(); k++) {
        const visa_verify_rule *r = visa_verify_rule_at(k);
        if (!b) {
            fprintf(out_stdout(), "%-22s %-7s %s  [%s]  [IGC: %s]\n", r->id, severity_name(r->severity), r->summary,
                    r->spec, r->igc);
            continue;
        }
        sb_json_member(b, k ? ",\n    {" : "\n    {", "id", r->id);
        sb_json_member(b, ", ", "severity", severity_name(r->severity));
        sb_json_member(b, ", ", "summary", r->summary);
        sb_json_member(b, ", ", "spec", r->spec);
        sb_json_member(b, ", ", "igc", r->igc);
        sb_puts(b, "}");
    }
    if (b) sb_puts(b, "\n  ]");
    return 0;
}

int cmd_verify(int argc, char **argv) {
    enum { JSON = 1, WERROR = 2, LIST_RULES = 4 };
    static const char *const flags[] = {"--json", "--werror", "--list-rules", NULL};
    cmd_opts o;
    int early = parse_cmd_opts(argc, argv, "verify", verify_help, false, flags, LIST_RULES, &o);
    if (early >= 0) return early;
    if (o.set & LIST_RULES) return list_rules(o.json);
    const char *in = o.in;
    diag_out *d = report_diags();
    d->rule_ids = true;
    loaded L;
    int rc = load_module(in, o.platform, d, LOAD_ARENA, &L);
    if (!rc) {
        visa_verify_opts vo = {sizeof vo, o.platform, o.set & WERROR ? VISA_VERIFY_WERROR : 0u,
                               L.binary ? NULL : L.data, L.binary ? 0 : L.len};
        visa_status st = visa_module_verify(L.m, &vo, NULL);
        rc = st == VISA_OK ? 0 : EXIT_DIAG;
        if (st != VISA_OK && st != VISA_E_VERIFY) report_status(st);
    }
    if (!o.json) {
        diag_out_finish(d, in);
        if (d->errors || d->warnings)
            fprintf(stderr, "%s: %u error%s, %u warning%s\n", in, d->errors, d->errors == 1 ? "" : "s", d->warnings,
                    d->warnings == 1 ? "" : "s");
    }
    unload(&L);
    return rc;
}
