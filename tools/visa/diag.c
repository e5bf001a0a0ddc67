/* diag.c -- diagnostics as the tool shows them: file:line:col: error: message, the source line
** and a caret (or, with --json, one JSON object each in the command's document); and the tool's
** own errors, which print as they always did and carry stable ids in the document (cli.h). */
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

/* The source line and a caret under the column (at most 160 columns, around the caret). */
static void print_source_caret(const visa_diag *d) {
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
    for (size_t i = from; i < col && i < d->source_line_len; i++) fputc(d->source_line[i] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

const char *severity_name(visa_severity s) {
    return s == VISA_SEV_ERROR ? "error" : s == VISA_SEV_WARNING ? "warning" : "note";
}

/* file:line:col: error: message (rule_ids: error[CODE], as `visa verify` prints rule ids; run's
** checks always), then the source line and a caret; objects give +0xOFFSET instead of line:col. */
static void print_diag(bool rule_ids, const visa_diag *d) {
    const char *sev = severity_name(d->severity);
    char tag[96];
    if (rule_ids || !strncmp(d->code, "C-", 2)) snprintf(tag, sizeof tag, "%s[%s]", sev, d->code);
    else snprintf(tag, sizeof tag, "%s", sev);
    if (d->line) fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, tag, d->message);
    else if (d->offset == VISA_DIAG_NO_OFFSET) fprintf(stderr, "%s: %s: %s\n", d->file, tag, d->message);
    else fprintf(stderr, "%s:+0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, tag, d->message);
    if (d->source_line) print_source_caret(d);
}

void diag_json(strbuf *b, const visa_diag *d) {
    sb_json_member(b, "{", "severity", severity_name(d->severity));
    sb_json_member(b, ", ", "rule", d->code);
    sb_json_member(b, ", ", "file", d->file);
    sb_printf(b, ", \"line\": %u, \"col\": %u", d->line, d->col);
    if (!d->line && d->offset != VISA_DIAG_NO_OFFSET) sb_printf(b, ", \"offset\": %llu", (unsigned long long)d->offset);
    sb_json_member(b, ", ", "message", d->message);
    /* the program's own source position (a -g build's FILE / LOC), when the instruction has one */
    if (d->src_line) {
        if (d->src_file) sb_json_member(b, ", ", "src_file", d->src_file);
        sb_printf(b, ", \"src_line\": %u", d->src_line);
    }
    if (d->source_line) {
        sb_puts(b, ", \"source\": ");
        sb_json_str(b, d->source_line, d->source_line_len);
    }
    sb_puts(b, "}");
}

/* The source line `line` of the text input, for a diagnostic the library gave without it. */
static void add_source_line(const diag_out *o, visa_diag *d) {
    if (d->source_line || !d->line || !o->src || !o->src_file || !d->file || strcmp(d->file, o->src_file)) return;
    const char *p = o->src, *end = o->src + o->src_len;
    for (uint32_t l = 1; l < d->line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n && p[n - 1] == '\r') n--;
    d->source_line = p;
    d->source_line_len = n;
}

void sink_diag(void *ud, const visa_diag *in) {
    diag_out *o = ud;
    bool err = in->severity == VISA_SEV_ERROR;
    if (!err && o->drop_warnings) return;
    if (err) o->errors++;
    else if (in->severity == VISA_SEV_WARNING) o->warnings++;
    visa_diag d = *in;
    add_source_line(o, &d);
    if (o->json) {
        sb_puts(&o->j, o->n++ ? ",\n    " : "\n    ");
        diag_json(&o->j, &d);
    } else if (o->limit && o->errors > o->limit) { /* past the limit: counted, not shown */
        if (err) o->hidden_errors++;
        else o->hidden_warnings++;
    } else {
        progress_clear();
        print_diag(o->rule_ids, &d);
    }
}

void diag_out_finish(const diag_out *o, const char *file) {
    if (o->json || !(o->hidden_errors + o->hidden_warnings)) return;
    fprintf(stderr, "%s: ... and %s%u more error%s", file, o->errors >= LIB_MAX_ERRORS ? "at least " : "",
            o->hidden_errors, o->hidden_errors == 1 ? "" : "s");
    if (o->hidden_warnings)
        fprintf(stderr, " and %u more warning%s", o->hidden_warnings, o->hidden_warnings == 1 ? "" : "s");
    fputs("\n", stderr);
}

/* -- The tool's own errors ------------------------------------------------------------------- */
/* With --json: the error as a diagnostic of the document (position: line, col; source: the line). */
static void json_error(const char *id, const char *file, uint32_t line, uint32_t col, const strbuf *source,
                       const char *message) {
    visa_diag d = {VISA_SEV_ERROR,
                   id,
                   file /* NULL: null */,
                   line,
                   col,
                   VISA_DIAG_NO_OFFSET,
                   message,
                   source ? source->s : NULL,
                   source ? source->len : 0,
                   NULL,
                   0};
    sink_diag(report_diags(), &d);
}

/* "PREFIX: error: MESSAGE" (file_style) or "LABEL: MESSAGE" on standard error, or the diagnostic. */
static void print_tool_error(bool file_style, const char *id, const char *file, const char *fmt, va_list ap) {
    strbuf msg = {0};
    sb_vprintf(&msg, fmt, ap);
    const char *text = msg.s ? msg.s : "out of memory";
    if (report_json()) json_error(id, file, 0, 0, NULL, text);
    else if (file_style) fprintf(stderr, "%s: error: %s\n", file, text);
    else fprintf(stderr, "%s: %s\n", report_label(), text);
    sb_free(&msg);
}

/* The output code's errors (tools/observe/outfile.h) are the tool's own. */
void tool_verror(const char *id, const char *file, const char *fmt, va_list ap) {
    print_tool_error(false, id, file, fmt, ap);
}

void cli_error(const char *id, const char *file, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_tool_error(false, id, file, fmt, ap);
    va_end(ap);
}

void cli_file_error(const char *id, const char *file, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_tool_error(true, id, file, fmt, ap);
    va_end(ap);
}

void report_status(visa_status st) {
    if (st != VISA_OK) cli_error("E-LIBRARY", NULL, "%s", visa_status_str(st));
}

/* Usage errors: with --json the file is "<command line>", the source the command line and the
** column where `arg` stands in it (past its end when arg is not on it: something is missing). */
int usage_errorf(const char *arg, const char *fmt, ...) {
    strbuf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&msg, fmt, ap);
    va_end(ap);
    const char *text = msg.s ? msg.s : "out of memory";
    if (report_json()) {
        strbuf line = {0};
        uint32_t col = report_arg_column(arg, &line);
        json_error("E-USAGE", "<command line>", 1, col, &line, text);
        sb_free(&line);
    } else {
        fprintf(stderr, "visa: %s\nTry '%s --help'.\n", text, report_label());
    }
    sb_free(&msg);
    return EXIT_USAGE;
}

int usage_error(const char *fmt, const char *arg) { return usage_errorf(arg, fmt, arg); }
