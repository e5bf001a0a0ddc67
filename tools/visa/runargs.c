/* runargs.c -- the values of `visa run`: --arg (numbers, vectors, keywords, buffers), buffer
** initialisers, and --print's formatting of a buffer's elements. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

int parse_dims(const char *s, uint32_t out[3], uint32_t fill, bool allow_zero) {
    out[0] = out[1] = out[2] = fill;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || *s == '-' || errno || (v == 0 && !allow_zero) || v > 1u << 20) return -1;
        out[k] = (uint32_t)v;
        if (!*end) return 0;
        if (*end != ',') return -1;
        s = end + 1;
    }
    return -1;
}

int elem_type(const char *s, size_t n, unsigned *size, int *is_float, int *is_signed) {
    static const struct {
        const char *name;
        unsigned size;
        int flt, sgn;
    } types[] = {{"ub", 1, 0, 0}, {"b", 1, 0, 1}, {"uw", 2, 0, 0}, {"w", 2, 0, 1},  {"ud", 4, 0, 0}, {"d", 4, 0, 1},
                 {"uq", 8, 0, 0}, {"q", 8, 0, 1}, {"hf", 2, 1, 0}, {"bf", 2, 1, 0}, {"f", 4, 1, 0},  {"df", 8, 1, 0}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && !memcmp(types[i].name, s, n)) {
            *size = types[i].size;
            *is_float = types[i].flt;
            *is_signed = types[i].sgn;
            return (int)i;
        }
    return -1;
}

static uint16_t to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t s = (x >> 16) & 0x8000, e = (x >> 23) & 0xFF, m = x & 0x7FFFFF;
    if (e == 0xFF) return (uint16_t)(s | 0x7C00 | (m ? 0x200 : 0));
    int ee = (int)e - 112;
    if (ee >= 31) return (uint16_t)(s | 0x7C00);
    if (ee <= 0) {
        if (ee < -10) return (uint16_t)s;
        m |= 0x800000;
        unsigned sh = (unsigned)(14 - ee);
        uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (uint16_t)(s | q);
    }
    uint32_t q = ((uint32_t)ee << 10) | (m >> 13), rem = m & 0x1FFF;
    if (rem > 0x1000 || (rem == 0x1000 && (q & 1))) q++;
    return (uint16_t)(s | q);
}

static float from_half(uint16_t h) {
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1F, m = h & 0x3FF, bits;
    if (e == 0x1F) bits = s | 0x7F800000u | (m << 13);
    else if (e) bits = s | ((e + 112) << 23) | (m << 13);
    else if (!m) bits = s;
    else {
        int sh = 0;
        while (!(m & 0x400)) m <<= 1, sh++;
        bits = s | ((uint32_t)(113 - sh) << 23) | ((m & 0x3FF) << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Store one element of a numeric value (text) into p. */
void run_put_elem(uint8_t *p, unsigned size, int is_float, const char *tname, double dv, long long iv) {
    if (is_float) {
        if (size == 8) memcpy(p, &dv, 8);
        else if (size == 4) {
            float f = (float)dv;
            memcpy(p, &f, 4);
        } else if (!strcmp(tname, "hf")) {
            uint16_t h = to_half((float)dv);
            memcpy(p, &h, 2);
        } else { /* bf: round to nearest even */
            float f = (float)dv;
            uint32_t x;
            memcpy(&x, &f, 4);
            x += 0x7FFF + ((x >> 16) & 1);
            uint16_t b = (uint16_t)(x >> 16);
            memcpy(p, &b, 2);
        }
    } else {
        uint64_t u = (uint64_t)iv;
        for (unsigned k = 0; k < size; k++) p[k] = (uint8_t)(u >> (8 * k));
    }
}

int run_parse_number(const char *s, int *is_float, double *dv, long long *iv) {
    char *end;
    errno = 0;
    if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || (s[0] == '-' && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'))) {
        unsigned long long u = strtoull(s[0] == '-' ? s + 1 : s, &end, 16);
        if (*end || errno) return -1;
        *iv = (long long)(s[0] == '-' ? 0 - u : u); /* -(long long)u overflows for 2^63 */
        *dv = (double)*iv;
        *is_float = 0;
        return 0;
    }
    if (strpbrk(s, ".eEnN")) {
        *dv = strtod(s, &end);
        if (*end || end == s) return -1;
        /* converting a double outside long long's range (inf, nan, 1e30) is undefined */
        *iv = *dv >= -0x1p63 && *dv < 0x1p63 ? (long long)*dv : 0;
        *is_float = 1;
        return 0;
    }
    *iv = strtoll(s, &end, 10);
    if (*end || end == s || errno) {
        if (errno == ERANGE && s[0] != '-') {
            errno = 0;
            *iv = (long long)strtoull(s, &end, 10);
            if (*end || errno) return -1;
        } else {
            return -1;
        }
    }
    *dv = (double)*iv;
    *is_float = 0;
    return 0;
}

/* iota:TYPE or fill:TYPE:VALUE over the whole buffer. */
static int fill_buffer(const char *spec, const char *init, run_buf *b) {
    int iota = !strncmp(init, "iota:", 5);
    if (!iota && strncmp(init, "fill:", 5)) return usage_error("unknown buffer initialiser in '%s'", spec);
    const char *t = init + 5;
    const char *colon = strchr(t, ':');
    size_t tn = colon ? (size_t)(colon - t) : strlen(t);
    unsigned size_e;
    int flt, sgn;
    char tname[8];
    if (elem_type(t, tn, &size_e, &flt, &sgn) < 0 || tn >= sizeof tname)
        return usage_error("unknown element type in '%s'", spec);
    memcpy(tname, t, tn);
    tname[tn] = 0;
    double dv = 0;
    long long iv = 0;
    if (!iota) {
        int nf;
        if (!colon || run_parse_number(colon + 1, &nf, &dv, &iv))
            return usage_error("fill needs TYPE:VALUE in '%s'", spec);
        if (!flt && nf) iv = (long long)dv;
    } else if (colon) {
        return usage_error("iota takes only a type in '%s'", spec);
    }
    for (size_t i = 0; i + size_e <= b->size; i += size_e) {
        if (iota) {
            iv = (long long)(i / size_e);
            dv = (double)iv;
        }
        run_put_elem(b->data + i, size_e, flt, tname, dv, iv);
    }
    return 0;
}

/* buf:SIZE[:INIT][:ro|:wo] */
int run_make_buffer(const char *spec_in, run_buf *b) {
    char spec[4096];
    size_t n = strlen(spec_in);
    if (n >= sizeof spec) return usage_error("buffer specification too long: '%.40s...'", spec_in);
    memcpy(spec, spec_in, n + 1);
    b->access = VISA_BUFFER_READ_WRITE;
    if (n > 3 && (!strcmp(spec + n - 3, ":ro") || !strcmp(spec + n - 3, ":wo"))) {
        b->access = spec[n - 2] == 'r' ? VISA_BUFFER_READ_ONLY : VISA_BUFFER_WRITE_ONLY;
        spec[n - 3] = '\0';
    }
    const char *s = spec + 4;
    char *end;
    errno = 0;
    unsigned long long size = strtoull(s, &end, 0);
    if (end == s || errno || size > (1ull << 32)) return usage_error("bad buffer size in '%s'", spec);
    b->size = (size_t)size;
    b->data = calloc(1, b->size ? b->size : 1);
    if (!b->data) {
        cli_error("E-NOMEM", NULL, "cannot allocate %llu bytes", size);
        return EXIT_DIAG;
    }
    if (!*end || !strcmp(end, ":zero")) return 0;
    if (!strcmp(end, ":undef")) { /* zeroed, but undefined to initcheck */
        b->undef = 1;
        return 0;
    }
    if (*end != ':') return usage_error("bad buffer specification '%s'", spec);
    const char *init = end + 1;
    if (!strncmp(init, "file=", 5)) {
        char *data;
        size_t len;
        if (read_input(init + 5, &data, &len)) return EXIT_DIAG;
        memcpy(b->data, data, len < b->size ? len : b->size);
        free(data);
        return 0;
    }
    return fill_buffer(spec, init, b);
}

/* Shortest decimal that reads back to the same value. */
static void print_float(FILE *f, double v, int single) {
    char buf[64];
    if (v != v || isinf(v)) {
        fputs(v != v ? "nan" : v < 0 ? "-inf" : "inf", f);
        return;
    }
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)v : back == v) break;
    }
    /* positional unless the exponent is far out: an integral value prints all its digits (-10,
    ** 4294967296, not -1e+01 or 4.2949673e+09), others the shortest digits (0.1, 12.5) */
    int exp10 = atoi(strchr(buf, 'e') + 1);
    if (exp10 >= -5 && exp10 < 17) snprintf(buf, sizeof buf, "%.*f", prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, v);
    else snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (!strcmp(buf, "-0") && !signbit(v)) strcpy(buf, "0");
    fputs(buf, f);
}

/* A float element of size 2 (hf or bf), 4 or 8 bytes as a double. */
static double float_elem(const uint8_t *p, unsigned size, const char *tname) {
    if (size == 8) {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    float f;
    if (size == 4) {
        memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    if (!strcmp(tname, "hf")) return from_half(h);
    uint32_t x = (uint32_t)h << 16;
    memcpy(&f, &x, 4);
    return f;
}

void print_buffer(FILE *f, const run_buf *b, const char *tname) {
    unsigned size;
    int flt, sgn;
    if (elem_type(tname, strlen(tname), &size, &flt, &sgn) < 0) return;
    for (size_t i = 0; i + size <= b->size; i += size) {
        if (i) fputc(' ', f);
        const uint8_t *p = b->data + i;
        if (flt) {
            print_float(f, float_elem(p, size, tname), size != 8);
        } else {
            uint64_t u = 0;
            for (unsigned k = 0; k < size; k++) u |= (uint64_t)p[k] << (8 * k);
            if (sgn && size < 8 && (u >> (8 * size - 1)) & 1) u |= ~0ull << (8 * size);
            if (sgn) fprintf(f, "%lld", (long long)u);
            else fprintf(f, "%llu", (unsigned long long)u);
        }
    }
    fputc('\n', f);
}

/* The keyword kind of a --arg value, -1 if it is no keyword. */
static int arg_keyword_kind(const char *v) {
    for (int k = 0; k < 32; k++) {
        const char *kw = visa_arg_keyword((visa_arg_kind)k);
        if (kw && !strcmp(kw, v)) return k;
    }
    return -1;
}

static bool is_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* One number of a --arg: hex gives raw bits; decimal and float literals are numbers. */
static int parse_arg_number(const char *v, visa_arg *out) {
    int flt;
    double dv;
    long long iv;
    if (run_parse_number(v, &flt, &dv, &iv)) return -1;
    bool hex = strstr(v, "0x") || strstr(v, "0X");
    out->kind = flt ? VISA_ARG_FLOAT : hex ? VISA_ARG_SCALAR : VISA_ARG_INT;
    out->value = (uint64_t)iv;
    out->fvalue = dv;
    return 0;
}

/* A,B,C: one number per element, appended to c->elems. */
static int parse_vector(run_cfg *c, const char *v, visa_arg *arg) {
    arg->kind = VISA_ARG_VECTOR;
    arg->value = c->nelems;
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        char num[64];
        if (!n || n >= sizeof num || c->nelems == RUN_MAX_ELEMS) return usage_error("bad --arg value '%s'", v);
        memcpy(num, p, n);
        num[n] = 0;
        memset(&c->elems[c->nelems], 0, sizeof c->elems[c->nelems]);
        if (parse_arg_number(num, &c->elems[c->nelems])) return usage_error("bad --arg value '%s'", v);
        c->nelems++;
        arg->buffer++;
        if (!p[n]) return 0;
        p += n + 1;
    }
}

/* NAME=VALUE: NAME an input variable's name (no ':' or ',' before the '='); returns VALUE. */
static const char *arg_name(run_cfg *c, const char *v) {
    c->arg_names[c->nargs] = NULL;
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof c->names[0] || strcspn(v, ":,@") <= (size_t)(eq - v) ||
        (v[0] >= '0' && v[0] <= '9') || v[0] == '-')
        return v;
    memcpy(c->names[c->nargs], v, (size_t)(eq - v));
    c->names[c->nargs][eq - v] = 0;
    c->arg_names[c->nargs] = c->names[c->nargs];
    c->any_named = true;
    return eq + 1;
}

int parse_run_arg(run_cfg *c, const char *v) {
    if (c->nargs == RUN_MAX) return usage_error("%s", "too many --arg");
    visa_arg *arg = &c->args[c->nargs];
    memset(arg, 0, sizeof *arg);
    v = arg_name(c, v);
    int kw = arg_keyword_kind(v), rc = 0;
    if (kw >= 0) {
        arg->kind = (visa_arg_kind)kw;
    } else if (!strncmp(v, "buf:", 4)) {
        if (c->nbufs == RUN_MAX) return usage_error("%s", "too many buffers");
        rc = run_make_buffer(v, &c->bufs[c->nbufs]);
        arg->kind = VISA_ARG_BUFFER;
        arg->buffer = (uint32_t)c->nbufs++;
    } else if (v[0] == '@') {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v + 1, &end, 10);
        if (end == v + 1 || *end || errno || n >= c->nbufs)
            return usage_error("bad --arg '%s' (@N: buffer N of an earlier buf: argument, counting from 0)", v);
        arg->kind = VISA_ARG_BUFFER;
        arg->buffer = (uint32_t)n;
    } else if (strchr(v, ',')) {
        if ((rc = parse_vector(c, v, arg))) return rc;
    } else if (parse_arg_number(v, arg)) {
        if (!is_identifier(v)) return usage_error("bad --arg value '%s'", v);
        if (!*c->launch_error)
            snprintf(c->launch_error, sizeof c->launch_error,
                     "unknown --arg keyword '%.64s' (local_size, global_size, group_count, global_offset, "
                     "enqueued_local_size, work_dim, payload_header)",
                     v);
    }
    c->nargs++;
    return rc;
}

void run_options(const char **out, const char *const *own, bool valued) {
    size_t n = 0;
    for (size_t k = 0; own[k] && n + 1 < RUN_MAX_OPTIONS; k++) out[n++] = own[k];
    for (unsigned k = 0; k < obs_option_count && n + 1 < RUN_MAX_OPTIONS; k++)
        if (obs_options[k].valued == valued) out[n++] = obs_options[k].name;
    out[n] = NULL;
}

int run_observe_option(obs_opts *o, const char *a, const char *v) {
    char why[256];
    int rc = obs_parse_option(o, a, v, why, sizeof why);
    return rc > 0 ? usage_errorf(v, "%s", why) : rc;
}
