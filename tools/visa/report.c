/* report.c -- the command's report: its diagnostics, and with --json the one JSON document it
** prints on standard output whatever happens (success, errors in the input, a bad command line,
** a run-time error): what the command would have printed on standard output is captured into it
** (out_stdout), the tool's own errors become diagnostics (diag.c).  The tool runs one command, so
** the report is the process's. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

static struct {
    const char *command, *label;
    int argc;
    char **argv;
    bool json;
    const char *file, *platform;
    int input; /* -1 not read, 0 text, 1 binary */
    diag_out diags;
    strbuf fields; /* the command's own members, each ",\n  \"KEY\": VALUE" */
} rep = {"", "visa", 0, NULL, false, NULL, NULL, -1, {0}, {0}};

void report_begin(const char *command, int argc, char **argv) {
    rep.command = command;
    rep.argc = argc;
    rep.argv = argv;
}

void report_scan_json(int argc, char **argv, const char *const *valued) {
    for (int i = 0; i < argc && !rep.json; i++) {
        rep.json = !strcmp(argv[i], "--json");
        bool takes_value = false;
        for (size_t k = 0; valued && valued[k]; k++) takes_value |= !strcmp(argv[i], valued[k]);
        i += takes_value; /* its value is not an option */
    }
    if (!rep.json) return;
    rep.diags.json = true;
    if (out_capture_start()) cli_error("E-NOMEM", NULL, "cannot capture standard output");
}

bool report_json(void) { return rep.json; }
void report_set_label(const char *label) { rep.label = label; }
const char *report_label(void) { return rep.label; }
diag_out *report_diags(void) { return &rep.diags; }
void report_file(const char *file) { rep.file = file; }
void report_platform(visa_platform p) { rep.platform = visa_platform_name(p); }
void report_input(bool binary) { rep.input = binary; }

strbuf *report_field(const char *key) {
    sb_puts(&rep.fields, ",\n  ");
    sb_json_cstr(&rep.fields, key);
    sb_puts(&rep.fields, ": ");
    return &rep.fields;
}

uint32_t report_arg_column(const char *arg, strbuf *line) {
    uint32_t col = 0;
    sb_puts(line, "visa");
    for (int k = 1; k < rep.argc; k++) {
        sb_puts(line, " ");
        /* where arg points into argv[k] (the tool's messages quote a word or its tail) */
        uintptr_t a = (uintptr_t)arg, w = (uintptr_t)rep.argv[k];
        if (!col && arg && a >= w && a <= w + strlen(rep.argv[k])) col = (uint32_t)(line->len + (a - w) + 1);
        sb_puts(line, rep.argv[k]);
    }
    return col ? col : (uint32_t)line->len + 1;
}

int report_end(int rc) {
    if (!rep.json) return rc;
    size_t out_len = 0;
    char *out = out_capture_take(&out_len);
    const diag_out *d = &rep.diags;
    strbuf doc = {0};
    sb_puts(&doc, "{\n  \"command\": ");
    sb_json_cstr(&doc, rep.command);
    sb_puts(&doc, ",\n  \"file\": ");
    sb_json_cstr(&doc, rep.file);
    sb_puts(&doc, ",\n  \"platform\": ");
    sb_json_cstr(&doc, rep.platform);
    sb_puts(&doc, ",\n  \"input\": ");
    sb_json_cstr(&doc, rep.input < 0 ? NULL : rep.input ? "binary" : "text");
    sb_printf(&doc,
              ",\n  \"status\": \"%s\",\n  \"exit_status\": %d,\n  \"errors\": %u,\n  \"warnings\": %u,\n"
              "  \"diagnostics\": [%s%s]",
              rc ? "invalid" : "ok", rc, d->errors, d->warnings, d->j.s ? d->j.s : "", d->n ? "\n  " : "");
    if (rep.fields.s) sb_puts(&doc, rep.fields.s);
    if (out_len) { /* what went to standard output: text as a string, anything else as base64 */
        bool text = is_utf8_text(out, out_len);
        sb_puts(&doc, text ? ",\n  \"output\": " : ",\n  \"output_base64\": ");
        if (text) sb_json_str(&doc, out, out_len);
        else sb_json_base64(&doc, (const unsigned char *)out, out_len);
    }
    sb_puts(&doc, "\n}\n");
    if (doc.oom) {
        fputs(
            "{\"status\": \"invalid\", \"errors\": 1, \"diagnostics\": [{\"severity\": \"error\", "
            "\"rule\": \"E-NOMEM\", \"file\": null, \"line\": 0, \"col\": 0, \"message\": \"out of memory writing the report\"}]}\n",
            stdout);
        rc = EXIT_DIAG;
    } else {
        fwrite(doc.s, 1, doc.len, stdout);
    }
    sb_free(&doc);
    free(out);
    sb_free(&rep.fields);
    sb_free(&rep.diags.j);
    return rc;
}
