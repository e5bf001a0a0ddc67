/* printf.c -- OpenCL printf: the records a kernel built by IGC wrote into its printf buffer,
** formatted after the launch as compute-runtime formats them (PrintFormatter).
**
** The buffer (IGC OpenCLPrintfResolution, zebin mode): dword 0 is the next free byte, which the
** runtime sets to 4 before the launch and each printf call advances atomically by its record's
** size.  A record: the format string's 64-bit address (in .data.const.string, data.c), then per
** argument a 32-bit type tag (PRINTF_DATA_TYPE), for a vector a 32-bit element count, then the
** value: 8 bytes for long, double, pointer and string (an address), 4 for the other scalars, 8 x n
** for long and double vectors and 4 x n for the others (narrower elements packed from the start).
** Nothing is aligned.  A call that found the buffer full wrote 0xFFFFFFFF where its record would
** have started: the output ends there.
*/
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>

#include "printf.h"
#include "program_api.h"

/* compute-runtime's PRINTF_DATA_TYPE = IGC's SHADER_PRINTF_TYPE */
enum {
    PT_INVALID,
    PT_BYTE,
    PT_SHORT,
    PT_INT,
    PT_FLOAT,
    PT_STRING,
    PT_LONG,
    PT_POINTER,
    PT_DOUBLE,
    PT_VECTOR_BYTE,
    PT_VECTOR_SHORT,
    PT_VECTOR_INT,
    PT_VECTOR_LONG,
    PT_VECTOR_FLOAT,
    PT_VECTOR_DOUBLE
};
#define PRINTF_FULL_MARKER 0xFFFFFFFFu

void vp_printf_buffer_init(uint8_t *buf, size_t size) {
    memset(buf, 0, size);
    buf[0] = 4; /* records start after dword 0 */
}

typedef struct pf_reader {
    const uint8_t *buf;
    size_t pos, end;
} pf_reader;

static bool rd(pf_reader *r, unsigned n, uint64_t *v) {
    if (r->pos + n > r->end) return false;
    *v = 0;
    for (unsigned i = 0; i < n; i++) *v |= (uint64_t)r->buf[r->pos + i] << (8 * i);
    r->pos += n;
    return true;
}

/* The output of one record, grown as needed. */
typedef struct pf_out {
    char text[4096];
    size_t len;
} pf_out;

static void emit(pf_out *o, const char *s, size_t n) {
    if (n > sizeof o->text - o->len) n = sizeof o->text - o->len;
    memcpy(o->text + o->len, s, n);
    o->len += n;
}

/* One conversion spec of the format: %[flags][width][.prec][vN][length]conv. */
typedef struct pf_spec {
    char c_spec[32]; /* flags, width and precision as C spells them, with '%' */
    unsigned vec; /* vector width, 0 for a scalar */
    char conv;
} pf_spec;

static const char *parse_spec(const char *f, const char *end, pf_spec *s) {
    size_t n = 0;
    s->c_spec[n++] = '%';
    s->vec = 0;
    while (f < end && strchr("-+ #0", *f) && n < 20) s->c_spec[n++] = *f++;
    while (f < end && ((*f >= '0' && *f <= '9') || *f == '.') && n < 28) s->c_spec[n++] = *f++;
    s->c_spec[n] = 0;
    if (f < end && *f == 'v') {
        f++;
        while (f < end && *f >= '0' && *f <= '9') s->vec = s->vec * 10 + (unsigned)(*f++ - '0');
    }
    while (f < end && strchr("hlLjzt", *f)) f++; /* the record's tags give the sizes */
    s->conv = f < end ? *f++ : 0;
    return f;
}

/* One element by the conversion's letter, read as the tag says. */
static void format_value(pf_out *o, const pf_spec *s, int type, uint64_t bits, unsigned bytes, const visa_program *p) {
    char spec[40], buf[512];
    int len = 0;
    bool is_float = type == PT_FLOAT || type == PT_DOUBLE || type == PT_VECTOR_FLOAT || type == PT_VECTOR_DOUBLE;
    double d = 0;
    if (is_float && bytes == 8) memcpy(&d, &bits, 8);
    else if (is_float) {
        float f;
        uint32_t b32 = (uint32_t)bits;
        memcpy(&f, &b32, 4);
        d = f;
    }
    int64_t sv = bytes == 1 ? (int8_t)bits : bytes == 2 ? (int16_t)bits : bytes == 4 ? (int32_t)bits : (int64_t)bits;
    uint64_t uv = bytes >= 8 ? bits : bits & ((1ull << (8 * bytes)) - 1);
    switch (s->conv) {
    case 'd':
    case 'i':
        snprintf(spec, sizeof spec, "%slld", s->c_spec);
        len = snprintf(buf, sizeof buf, spec, (long long)sv);
        break;
    case 'o':
    case 'u':
    case 'x':
    case 'X':
        snprintf(spec, sizeof spec, "%sll%c", s->c_spec, s->conv);
        len = snprintf(buf, sizeof buf, spec, (unsigned long long)uv);
        break;
    case 'c':
        snprintf(spec, sizeof spec, "%sc", s->c_spec);
        len = snprintf(buf, sizeof buf, spec, (int)(unsigned char)bits);
        break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
        snprintf(spec, sizeof spec, "%s%c", s->c_spec, s->conv);
        len = snprintf(buf, sizeof buf, spec, is_float ? d : (double)sv);
        break;
    case 'p': len = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)bits); break;
    case 's': {
        size_t max = 0;
        const char *str = type == PT_STRING ? vp_data_string(p, bits, &max) : NULL;
        size_t n = str ? strnlen(str, max) : 0;
        snprintf(spec, sizeof spec, "%s.*s", s->c_spec);
        len = str ? snprintf(buf, sizeof buf, spec, (int)n, str) : snprintf(buf, sizeof buf, "(null)");
        break;
    }
    default: break;
    }
    if (len > 0) emit(o, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
}

static unsigned scalar_bytes(int type) {
    return type == PT_LONG || type == PT_DOUBLE || type == PT_POINTER || type == PT_STRING ? 8 : 4;
}

static unsigned elem_bytes(int type) {
    switch (type) {
    case PT_VECTOR_BYTE: return 1;
    case PT_VECTOR_SHORT: return 2;
    case PT_VECTOR_LONG:
    case PT_VECTOR_DOUBLE: return 8;
    default: return 4;
    }
}

/* One argument: tag, count, value(s), formatted by spec. */
static bool format_arg(pf_reader *r, pf_out *o, const pf_spec *s, const visa_program *p) {
    uint64_t type;
    if (!rd(r, 4, &type)) return false;
    if (type >= PT_VECTOR_BYTE && type <= PT_VECTOR_DOUBLE) {
        uint64_t n;
        if (!rd(r, 4, &n) || n == 0 || n > 16) return false;
        unsigned eb = elem_bytes((int)type), slot = eb == 8 ? 8 : 4;
        size_t start = r->pos;
        if (start + (size_t)slot * n > r->end) return false;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = 0;
            for (unsigned b = 0; b < eb; b++) v |= (uint64_t)r->buf[start + i * eb + b] << (8 * b);
            if (i) emit(o, ",", 1);
            format_value(o, s, (int)type, v, eb, p);
        }
        r->pos = start + (size_t)slot * n;
        return true;
    }
    if (type == PT_INVALID || type > PT_DOUBLE) return false;
    uint64_t v;
    unsigned bytes = scalar_bytes((int)type);
    if (!rd(r, bytes, &v)) return false;
    format_value(o, s, (int)type, v, type == PT_BYTE ? 1 : type == PT_SHORT ? 2 : bytes, p);
    return true;
}

/* One record from r->pos: false when it is malformed (the output stops). */
static bool format_record(pf_reader *r, pf_out *o, const visa_program *p, bool *full) {
    uint64_t marker;
    if (r->pos + 4 <= r->end) {
        pf_reader peek = *r;
        if (rd(&peek, 4, &marker) && marker == PRINTF_FULL_MARKER) return *full = true, false;
    }
    uint64_t fmt_addr;
    size_t max;
    if (!rd(r, 8, &fmt_addr)) return false;
    const char *f = vp_data_string(p, fmt_addr, &max);
    if (!f) return false;
    const char *end = f + strnlen(f, max);
    while (f < end) {
        const char *pct = memchr(f, '%', (size_t)(end - f));
        if (!pct) pct = end;
        emit(o, f, (size_t)(pct - f));
        if (pct == end) break;
        if (pct + 1 < end && pct[1] == '%') {
            emit(o, "%", 1);
            f = pct + 2;
            continue;
        }
        pf_spec s;
        f = parse_spec(pct + 1, end, &s);
        if (!format_arg(r, o, &s, p)) return false;
    }
    return true;
}

visa_status vp_printf_output(const visa_program *p, const uint8_t *buf, size_t size, diag_sink *ds, visa_write_fn out,
                             void *ud) {
    uint32_t used = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
    pf_reader r = {buf, 4, used < size ? used : size};
    bool full = false;
    while (r.pos + 8 <= r.end) {
        pf_out o;
        o.len = 0;
        size_t at = r.pos;
        if (!format_record(&r, &o, p, &full)) {
            if (!full)
                vp_diag_offset(
                    ds, PDIAG_W_PROGRAM_PRINTF, VISA_DIAG_NO_OFFSET,
                    "the printf buffer holds a record at byte %zu that does not parse; the output stops there", at);
            else
                vp_diag_offset(ds, PDIAG_W_PROGRAM_PRINTF, VISA_DIAG_NO_OFFSET,
                               "the printf buffer (%zu bytes) filled up: later printf calls printed nothing", size);
            break;
        }
        if (out && o.len) {
            visa_status st = out(ud, o.text, o.len);
            if (st != VISA_OK) return st;
        }
    }
    return VISA_OK;
}
