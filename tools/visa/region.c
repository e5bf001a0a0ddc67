/* region.c -- `visa region`: one operand's region drawn over the register file (as the operands
** chapter's figures draw them), and the region rules it breaks.  The layout and the rules are the
** library's (visa_region_layout); this file only draws them: a text grid, or an SVG.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../observe/outfile.h"

static const char region_help[] =
    "usage: visa region OPERAND --type T --exec N [--platform P] [--addr A[,A...]] [--svg OUT]\n"
    "                   [--json]\n"
    "\n"
    "Draw which element of the register file each lane of an operand reads or writes, and say\n"
    "which region rules (5_operands: Region Restrictions) the operand breaks.  OPERAND is written\n"
    "as in vISA text, its name standing for any variable:\n"
    "  V(1,2)<8;4,2>          a source region <VertStride;Width,HorzStride> from row 1, column 2\n"
    "  V(0,0)<2>              a destination region <HorzStride>\n"
    "  r[A0(0),16]<8;8,1>:w   an indirect operand (address A0(0) + 16 bytes)\n"
    "  r[A0(0),0]<1,0>:f      a multi-address indirect source (one address per row: --addr)\n"
    "\n"
    "  --type T        element type (b ub w uw d ud f hf bf q uq df ...); an indirect operand's\n"
    "                  own :type serves when --type is not given\n"
    "  --exec N        execution size: 1, 2, 4, 8, 16 or 32\n"
    "  --platform P    the GRF size: 32 bytes up to XeHPG, 64 from XeHPC; default Xe2\n"
    "  --addr A,...    indirect: the address elements' values (bytes into the register file;\n"
    "                  default 0)\n"
    "  --svg OUT       also write the grid as an SVG image to OUT\n"
    "  --json          one JSON document on standard output: the layout (\"region\"), the rules\n"
    "                  broken as diagnostics, the grid as \"output\"\n"
    "\n"
    "The grid has one line per GRF touched (element 0 on the left), the lane number in the cell of\n"
    "each lane's element (the lowest lane, '+' before it when more lanes share the element), '.' elsewhere.  A general\n"
    "operand's variable starts on a GRF (where the JIT places variables of a GRF or more).\n"
    "\n"
    "Exit status: 0 no rule broken that is an error, 1 an error rule broken or a malformed\n"
    "operand, 2 usage error.\n";

/* A malformed operand: the message, the operand and a caret under the column; other errors
** (type, execution size, addresses) are usage errors, printed plainly.  With --json: into the
** document. */
static void print_diag(void *ud, const visa_diag *d) {
    (void)ud;
    if (report_json()) {
        sink_diag(report_diags(), d);
        return;
    }
    if (strcmp(d->code, "E-SYNTAX")) {
        fprintf(stderr, "visa region: %s\n", d->message);
        return;
    }
    fprintf(stderr, "%s:%u:%u: error: %s\n    ", d->file, d->line, d->col, d->message);
    if (d->source_line) fwrite(d->source_line, 1, d->source_line_len, stderr);
    fputs("\n    ", stderr);
    for (uint32_t i = 1; i < d->col; i++) fputc(' ', stderr);
    fputs("^\n", stderr);
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* One GRF line of the grid: for each element, the lowest lane on it (-1 none) and the count. */
typedef struct grid {
    const visa_region *r;
    unsigned cells; /* elements per GRF */
    int64_t lo, hi; /* GRFs of the first and last lane's element */
} grid;

static void grid_line(const grid *g, int64_t grf, int *lane, unsigned *count) {
    for (unsigned c = 0; c < g->cells; c++) lane[c] = -1, count[c] = 0;
    for (unsigned i = 0; i < g->r->exec_size; i++) {
        int64_t e = floor_div(g->r->lane_byte[i], g->r->type_bytes);
        if (floor_div(e, g->cells) != grf) continue;
        unsigned c = (unsigned)(e - grf * (int64_t)g->cells);
        if (lane[c] < 0) lane[c] = (int)i;
        count[c]++;
    }
}

static bool grf_touched(const grid *g, int64_t grf) {
    for (unsigned i = 0; i < g->r->exec_size; i++)
        if (floor_div(g->r->lane_byte[i], g->r->grf_bytes) == grf) return true;
    return false;
}

static const char *operand_kind(const visa_region *r) {
    return r->indirect      ? (r->multi_address ? "multi-address indirect source"
                               : r->destination ? "indirect destination"
                                                : "indirect source")
           : r->destination ? "destination"
                            : "source";
}

static void print_text(const grid *g, const char *operand, const char *plat, FILE *f) {
    const visa_region *r = g->r;
    fprintf(f, "%s  %s, type %s (%u byte%s), exec size %u, %s (%u-byte GRF)\n", operand, operand_kind(r), r->type,
            r->type_bytes, r->type_bytes > 1 ? "s" : "", r->exec_size, plat, r->grf_bytes);
    const char *unit = r->indirect ? "r" : "row ";
    fprintf(f, "%-8s", "element");
    for (unsigned c = 0; c < g->cells; c++) fprintf(f, "%3u", c);
    fputc('\n', f);
    int lane[64];
    unsigned count[64];
    bool skipped = false;
    for (int64_t grf = g->lo; grf <= g->hi; grf++) {
        if (!grf_touched(g, grf)) {
            if (!skipped) fputs("...\n", f);
            skipped = true;
            continue;
        }
        skipped = false;
        char label[32];
        snprintf(label, sizeof label, "%s%lld", unit, (long long)grf);
        fprintf(f, "%-8s", label);
        grid_line(g, grf, lane, count);
        for (unsigned c = 0; c < g->cells; c++) {
            if (lane[c] < 0) fputs("  .", f);
            else fprintf(f, "%c%02d", count[c] > 1 ? '+' : ' ', lane[c]);
        }
        fputc('\n', f);
    }
}

static void print_rules(const visa_region *r, FILE *f) {
    if (!r->nbroken) {
        fputs("no region rule broken\n", f);
        return;
    }
    for (uint32_t i = 0; i < r->nbroken; i++)
        fprintf(f, "%s %s: %s\n", r->broken[i].id, r->broken[i].severity == VISA_SEV_ERROR ? "error" : "warning",
                r->broken[i].message);
}

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static int write_svg(const grid *g, const char *operand, const char *path) {
    const visa_region *r = g->r;
    enum { CELL = 24, LEFT = 64, TOP = 48, LINE = 18 };
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("E-IO", path, "cannot write '%s': %s", path, strerror(errno));
        return EXIT_DIAG;
    }
    unsigned lines = 0;
    for (int64_t grf = g->lo; grf <= g->hi; grf++) lines += grf_touched(g, grf) || grf_touched(g, grf - 1);
    /* wide enough for the grid and for the longest line of text (monospace, about 8 px a
    ** character at 13 px) */
    size_t chars = strlen(operand) + 48;
    for (uint32_t i = 0; i < r->nbroken; i++) {
        size_t n = strlen(r->broken[i].id) + 2 + strlen(r->broken[i].message);
        if (n > chars) chars = n;
    }
    unsigned width = LEFT + g->cells * CELL + 16, height = TOP + lines * CELL + 24 + (r->nbroken + 1) * LINE;
    if (width < 16 + 8 * chars) width = (unsigned)(16 + 8 * chars);
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
            "font-family=\"monospace\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", width, height);
    fputs("<text x=\"8\" y=\"18\" font-size=\"13\">", f);
    xml_text(f, operand);
    fprintf(f, "  (%s, exec size %u, %u-byte GRF)</text>\n", r->type, r->exec_size, r->grf_bytes);
    for (unsigned c = 0; c < g->cells; c++)
        fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\" fill=\"#666666\">%u</text>\n",
                LEFT + c * CELL + CELL / 2, TOP - 6, c);
    int lane[64];
    unsigned count[64], y = TOP;
    for (int64_t grf = g->lo; grf <= g->hi; grf++) {
        if (!grf_touched(g, grf)) {
            if (grf_touched(g, grf - 1)) { /* one gap line for a run of untouched GRFs */
                fprintf(f, "<text x=\"8\" y=\"%u\">...</text>\n", y + CELL / 2 + 4);
                y += CELL;
            }
            continue;
        }
        fprintf(f, "<text x=\"8\" y=\"%u\">%s%lld</text>\n", y + CELL / 2 + 4, r->indirect ? "r" : "row ",
                (long long)grf);
        grid_line(g, grf, lane, count);
        for (unsigned c = 0; c < g->cells; c++) {
            unsigned x = LEFT + c * CELL;
            fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" stroke=\"#000000\"/>\n", x, y,
                    CELL, CELL,
                    lane[c] < 0    ? "#ffffff"
                    : count[c] > 1 ? "#ff9f40"
                                   : "#ffe14d");
            if (lane[c] >= 0)
                fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">%s%d</text>\n", x + CELL / 2,
                        y + CELL / 2 + 4, count[c] > 1 ? "+" : "", lane[c]);
        }
        y += CELL;
    }
    y += 24;
    if (!r->nbroken) fprintf(f, "<text x=\"8\" y=\"%u\">no region rule broken</text>\n", y);
    for (uint32_t i = 0; i < r->nbroken; i++, y += LINE) {
        fprintf(f, "<text x=\"8\" y=\"%u\" fill=\"%s\">%s: ", y,
                r->broken[i].severity == VISA_SEV_ERROR ? "#c00000" : "#a06000", r->broken[i].id);
        xml_text(f, r->broken[i].message);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
    if (fclose(f) != 0) {
        cli_error("E-IO", path, "error writing '%s'", path);
        return EXIT_DIAG;
    }
    return 0;
}

/* "A,B,C": at most VISA_REGION_MAX_LANES address values. */
static int parse_addrs(const char *s, uint32_t *addrs, size_t *n) {
    *n = 0;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 0);
        if (end == s || errno || v > UINT32_MAX || *n >= VISA_REGION_MAX_LANES || *s == '-') return -1;
        addrs[(*n)++] = (uint32_t)v;
        if (!*end) return 0;
        if (*end != ',') return -1;
        s = end + 1;
    }
}

/* --json: the layout as the "region" member, the broken rules as diagnostics about the operand. */
static void report_region(const visa_region *r, const char *operand) {
    strbuf *b = report_field("region");
    sb_json_member(b, "{", "operand", operand);
    sb_json_member(b, ", ", "kind", operand_kind(r));
    sb_json_member(b, ", ", "type", r->type);
    sb_printf(b, ", \"type_bytes\": %u, \"exec_size\": %u, \"grf_bytes\": %u, \"lane_bytes\": [", r->type_bytes,
              r->exec_size, r->grf_bytes);
    for (uint32_t i = 0; i < r->exec_size; i++) sb_printf(b, "%s%lld", i ? ", " : "", (long long)r->lane_byte[i]);
    sb_puts(b, "]}");
    for (uint32_t i = 0; i < r->nbroken; i++) {
        visa_diag d = {r->broken[i].severity, r->broken[i].id, "<operand>",     1,    1, VISA_DIAG_NO_OFFSET,
                       r->broken[i].message,  operand,         strlen(operand), NULL, 0};
        sink_diag(report_diags(), &d);
    }
}

typedef struct region_args {
    const char *operand, *type, *plat, *svg, *exec_s;
    uint32_t addrs[VISA_REGION_MAX_LANES];
    size_t naddrs;
} region_args;

/* The command line into *ra; -1 to go on, else the exit status. */
static int parse_region_args(int argc, char **argv, region_args *ra) {
    static const char *const valued[] = {"--type", "--exec", "--platform", "--svg", "--addr", NULL};
    report_scan_json(argc, argv, valued);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) return print_help(region_help);
        bool takes = false;
        for (size_t k = 0; valued[k]; k++) takes |= !strcmp(a, valued[k]);
        if (takes) {
            if (++i >= argc) return usage_error("option '%s' needs an argument", a);
            if (a[2] == 't') ra->type = argv[i];
            else if (a[2] == 'e') ra->exec_s = argv[i];
            else if (a[2] == 'p') ra->plat = argv[i];
            else if (a[2] == 's') ra->svg = argv[i];
            else if (parse_addrs(argv[i], ra->addrs, &ra->naddrs))
                return usage_error("bad --addr '%s' (A,B,...: byte offsets)", argv[i]);
        } else if (!strcmp(a, "--json")) {
            continue;
        } else if (a[0] == '-' && a[1] && a[1] != '(') { /* "(-)V(0,0)<...>" is an operand */
            return usage_error("unknown option '%s'", a);
        } else if (ra->operand) {
            return usage_error("unexpected argument '%s'", a);
        } else {
            ra->operand = a;
        }
    }
    if (!ra->operand) return usage_error("%s", "region needs an operand, e.g. 'V(1,2)<8;4,2>'");
    if (!ra->exec_s) return usage_error("%s", "region needs --exec N");
    return -1;
}

int cmd_region(int argc, char **argv) {
    report_set_label("visa region");
    region_args ra = {.plat = "Xe2"};
    int early = parse_region_args(argc, argv, &ra);
    if (early >= 0) return early;
    char *end;
    errno = 0;
    unsigned long exec = strtoul(ra.exec_s, &end, 10);
    if (end == ra.exec_s || *end || errno || exec > 32)
        return usage_error("bad --exec '%s' (1, 2, 4, 8, 16 or 32)", ra.exec_s);
    visa_region_opts o = {sizeof o, ra.type, (uint32_t)exec, VISA_PLATFORM_XE2, ra.naddrs ? ra.addrs : NULL, ra.naddrs};
    if (visa_platform_from_name(ra.plat, &o.platform) != VISA_OK) return usage_error("unknown platform '%s'", ra.plat);
    report_platform(o.platform);
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, print_diag, NULL, 0};
    visa_ctx *ctx;
    visa_status st = visa_ctx_create(&desc, &ctx);
    if (st != VISA_OK) {
        report_status(st);
        return EXIT_DIAG;
    }
    visa_region r;
    r.struct_size = sizeof r;
    st = visa_region_layout(ctx, ra.operand, &o, &r);
    visa_ctx_destroy(ctx);
    if (st == VISA_E_ARG) {
        if (!report_json()) fputs("Try 'visa region --help'.\n", stderr);
        return EXIT_USAGE;
    }
    if (st != VISA_OK) {
        if (st != VISA_E_SYNTAX) report_status(st);
        return EXIT_DIAG;
    }
    grid g = {&r, r.grf_bytes / r.type_bytes, 0, 0};
    for (unsigned i = 0; i < r.exec_size; i++) {
        int64_t grf = floor_div(r.lane_byte[i], r.grf_bytes);
        if (!i || grf < g.lo) g.lo = grf;
        if (!i || grf > g.hi) g.hi = grf;
    }
    print_text(&g, ra.operand, visa_platform_name(o.platform), out_stdout());
    print_rules(&r, out_stdout());
    if (report_json()) report_region(&r, ra.operand);
    int rc = ra.svg ? write_svg(&g, ra.operand, ra.svg) : 0;
    for (uint32_t i = 0; !rc && i < r.nbroken; i++)
        if (r.broken[i].severity == VISA_SEV_ERROR) rc = EXIT_DIAG;
    return rc;
}
