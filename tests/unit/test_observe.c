/* test_observe.c -- the library's observer (visa_run_opts.observer): instruction and memory events
** of a known kernel, counted by hand; group_begin / group_end pairing; an older caller's
** visa_run_opts (no observer field) runs unobserved.
**
** The kernel (SIMD8): X = 0..7; lanes X < 3 double X into Y, the others add 100 (goto if/else);
** a loop adds X three times; then a SIMT gather store writes lane n's Y at OUT + 4 * (7 - n) for
** the lanes with X odd, and a transposed store writes all of Y at OUT + 32. */
#include <stddef.h>
#include <string.h>

#include "../harness.h"
#include "visa/visa.h"

static const char *KERNEL = ".version 4.1\n"
                            ".kernel \"k\"\n"
                            ".decl OUT v_type=G type=uq num_elts=1\n"
                            ".decl X v_type=G type=d num_elts=8 align=GRF\n"
                            ".decl Y v_type=G type=d num_elts=8 align=GRF\n"
                            ".decl A v_type=G type=uq num_elts=8 align=GRF\n"
                            ".decl B v_type=G type=uq num_elts=1\n"
                            ".decl I v_type=G type=d num_elts=1 align=dword\n"
                            ".decl P1 v_type=P num_elts=8\n"
                            ".decl P2 v_type=P num_elts=1\n"
                            ".decl P3 v_type=P num_elts=8\n"
                            ".input OUT offset=64 size=8\n"
                            ".kernel_attr SimdSize=8\n"
                            "    mov (M1, 8) X(0,0)<1> 0x76543210:v\n" /* 1 */
                            "    cmp.lt (M1, 8) P1 X(0,0)<1;1,0> 0x3:d\n" /* 2 */
                            "    (!P1) goto (M1, 8) ELSE\n" /* 3 */
                            "    mul (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x2:d\n" /* 4 */
                            "    goto (M1, 8) JOIN\n" /* 5 */
                            "ELSE:\n" /* 6 */
                            "    add (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x64:d\n" /* 7 */
                            "JOIN:\n" /* 8 */
                            "    mov (M1_NM, 1) I(0,0)<1> 0x0:d\n" /* 9 */
                            "LOOP:\n" /* 10 + 5 per trip: 3 trips = 15 */
                            "    add (M1, 8) Y(0,0)<1> Y(0,0)<1;1,0> X(0,0)<1;1,0>\n"
                            "    add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:d\n"
                            "    cmp.lt (M1_NM, 1) P2 I(0,0)<0;1,0> 0x3:d\n"
                            "    (P2) jmp (M1, 1) LOOP\n" /* 24 */
                            "    mul (M1, 8) A(0,0)<1> X(0,0)<1;1,0> 0xfffffffc:d\n" /* 25: A = -4X */
                            "    add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1c:d\n" /* 26: A = 28 - 4X */
                            "    add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> OUT(0,0)<0;1,0>\n" /* 27 */
                            "    and (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x1:d\n" /* 28 */
                            "    cmp.eq (M1, 8) P3 Y(0,0)<1;1,0> 0x1:d\n" /* 29 */
                            "    add (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x0:d\n" /* 30 */
                            "    (P3) lsc_store.ugm (M1, 8)  flat[A]:a64  Y:d32\n" /* 31 */
                            "    add (M1_NM, 1) B(0,0)<1> OUT(0,0)<0;1,0> 0x20:uq\n" /* 32 */
                            "    lsc_store.ugm (M1_NM, 1)  flat[B]:a64  Y:d32x8t\n" /* 33 */
                            "    ret (M1, 1)\n"; /* 34 */

/* IGC's source positions (a -g build): FILE, then LOC before each source line's code, LOC 0 after */
static const char *LOCATED = ".version 4.1\n"
                             ".kernel \"k\"\n"
                             ".decl X v_type=G type=d num_elts=8 align=GRF\n"
                             ".kernel_attr SimdSize=8\n"
                             "    FILE \"dir/k.cl\"\n" /* op 0 */
                             "    LOC 2\n" /* op 1 */
                             "    mov (M1, 8) X(0,0)<1> 0x1:d\n" /* op 2: k.cl:2 */
                             "    LOC 0\n" /* op 3: none */
                             "    add (M1, 8) X(0,0)<1> X(0,0)<1;1,0> 0x1:d\n" /* op 4: none */
                             "    LOC 5\n" /* op 5 */
                             "    ret (M1, 1)\n"; /* op 6: k.cl:5, then the end op 7 */

/* The op of the run's mov (visa_exec_point.op), into ud. */
static void on_inst_mov(void *gud, const visa_inst_event *e) {
    if (!strcmp(e->at.mnemonic, "mov")) *(uint32_t *)gud = e->at.op;
}

typedef struct counts {
    int begins, ends;
    uint64_t insts, mems, writes, bytes;
    uint32_t lanes; /* lanes of the SIMT store's accesses */
    uint64_t offsets[8]; /* by lane */
    uint32_t buffer_bad;
    uint32_t mul_enabled; /* channel enables of the first mul (line 15 of the text) */
    int32_t mul_after[8];
    int group_ud_ok;
} counts;

static void *g_begin(void *ud, uint64_t gi) {
    counts *c = ud;
    c->begins++;
    return gi == 0 ? c : NULL;
}
static void g_end(void *ud, void *gud, uint64_t gi) {
    counts *c = ud;
    c->ends++;
    c->group_ud_ok += gud == c && gi == 0;
}
static void on_inst(void *gud, const visa_inst_event *e) {
    counts *c = gud;
    c->insts++;
    if (!strcmp(e->at.mnemonic, "mul") && e->at.step == 3) {
        c->mul_enabled = e->enabled;
        if (e->dst_bytes == 32 && e->dst_elem_bytes == 4 && !strcmp(e->dst_name, "Y") && !strcmp(e->dst_type, "d"))
            memcpy(c->mul_after, e->dst_after, 32);
    }
}
static void on_mem(void *gud, const visa_mem_event *e) {
    counts *c = gud;
    c->mems++;
    c->bytes += e->size;
    c->writes += e->kind == VISA_MEM_WRITE;
    if (e->space != VISA_MEM_GLOBAL || e->buffer != 0 || !e->in_bounds) c->buffer_bad++;
    if (e->size == 4 && e->lane < 8) {
        c->lanes |= 1u << e->lane;
        c->offsets[e->lane] = e->offset;
    }
}

int main(void) {
    visa_ctx_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.struct_size = sizeof cd;
    visa_ctx *ctx;
    CHECK(visa_ctx_create(&cd, &ctx) == VISA_OK);
    visa_module *m = NULL;
    CHECK(visa_module_parse_text(ctx, "t", KERNEL, strlen(KERNEL), VISA_PLATFORM_XE2, &m) == VISA_OK);
    uint8_t out[64];
    visa_buffer buf = {out, sizeof out};
    visa_arg arg;
    memset(&arg, 0, sizeof arg);
    arg.kind = VISA_ARG_BUFFER;
    arg.buffer = 0;

    CASE_BEGIN();
    counts c;
    memset(&c, 0, sizeof c);
    visa_observer ob;
    memset(&ob, 0, sizeof ob);
    ob.struct_size = sizeof ob;
    ob.ud = &c;
    ob.group_begin = g_begin;
    ob.group_end = g_end;
    ob.on_inst = on_inst;
    ob.on_mem = on_mem;
    visa_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.struct_size = sizeof ro;
    ro.platform = VISA_PLATFORM_XE2;
    ro.observer = &ob;
    visa_run_stats st;
    memset(out, 0, sizeof out);
    CHECK(m && visa_module_run(m, &ro, &arg, 1, &buf, 1, &st) == VISA_OK);
    /* 9 before the loop, 3 trips of 5 (label, add, add, cmp, jmp), then 10 */
    CHECKF(c.insts == 34 && st.instructions == 34, "instructions %llu (stats %llu), want 34",
           (unsigned long long)c.insts, (unsigned long long)st.instructions);
    CHECK(c.begins == 1 && c.ends == 1 && c.group_ud_ok == 1);
    CHECK(c.mul_enabled == 0x07);
    CHECK(c.mul_after[0] == 0 && c.mul_after[1] == 2 && c.mul_after[2] == 4);
    /* SIMT store: lanes 1 3 5 7 (X odd), 4 bytes each at 28 - 4X; transposed store: 32 bytes */
    CHECKF(c.mems == 5 && c.writes == 5 && c.bytes == 48 && c.buffer_bad == 0,
           "mems %llu writes %llu bytes %llu bad %u", (unsigned long long)c.mems, (unsigned long long)c.writes,
           (unsigned long long)c.bytes, c.buffer_bad);
    CHECK(c.lanes == 0xAA);
    CHECK(c.offsets[1] == 24 && c.offsets[3] == 16 && c.offsets[5] == 8 && c.offsets[7] == 0);
    CASE_END("observer counts instructions and memory accesses");

    CASE_BEGIN();
    /* a caller built before the observer field: the bytes past its struct_size are not read */
    memset(&c, 0, sizeof c);
    ro.struct_size = (uint32_t)offsetof(visa_run_opts, observer);
    CHECK(visa_module_run(m, &ro, &arg, 1, &buf, 1, &st) == VISA_OK);
    CHECK(c.insts == 0 && c.begins == 0 && st.instructions == 34);
    /* an observer struct below its first version is a bad argument */
    ro.struct_size = sizeof ro;
    ob.struct_size = 8;
    CHECK(visa_module_run(m, &ro, &arg, 1, &buf, 1, &st) == VISA_E_ARG);
    CASE_END("older callers run unobserved");

    CASE_BEGIN();
    visa_module *lm = NULL;
    const visa_kernel *k = NULL;
    CHECK(visa_module_parse_text(ctx, "located.visaasm", LOCATED, strlen(LOCATED), VISA_PLATFORM_XE2, &lm) == VISA_OK);
    CHECK(lm && !strcmp(visa_module_name(lm), "located.visaasm"));
    CHECK(lm && visa_kernel_prepare(lm, NULL, VISA_PLATFORM_XE2, &k) == VISA_OK);
    static const struct {
        uint32_t line;
        const char *file;
    } want[] = {{0, NULL}, {2, "dir/k.cl"}, {2, "dir/k.cl"}, {0, NULL},
                {0, NULL}, {5, "dir/k.cl"}, {5, "dir/k.cl"}, {5, "dir/k.cl"}};
    for (uint32_t op = 0; k && op < sizeof want / sizeof *want; op++) {
        const char *file = "unset";
        uint32_t line = 99;
        CHECKF(visa_kernel_op_source(k, op, &file, &line) == VISA_OK && line == want[op].line &&
                   (want[op].file ? file && !strcmp(file, want[op].file) : !file),
               "op %u: %s:%u, want %s:%u", op, file ? file : "(none)", line, want[op].file ? want[op].file : "(none)",
               want[op].line);
    }
    const char *file = "unset";
    uint32_t line = 99, mov_op = UINT32_MAX;
    CHECK(visa_kernel_op_source(k, 8, &file, &line) == VISA_E_ARG && !file && !line);
    CHECK(visa_kernel_op_source(NULL, 0, &file, &line) == VISA_E_ARG);
    /* the op a run reports is the one asked about */
    memset(&ob, 0, sizeof ob);
    ob.struct_size = sizeof ob;
    ob.ud = &mov_op;
    ob.on_inst = on_inst_mov;
    CHECK(k && visa_kernel_run(k, &ro, NULL, 0, NULL, 0, &st) == VISA_OK && mov_op == 2);
    visa_module_destroy(lm);
    CASE_END("visa_kernel_op_source: FILE and LOC per op");

    visa_module_destroy(m);
    visa_ctx_destroy(ctx);
    return th_finish();
}
