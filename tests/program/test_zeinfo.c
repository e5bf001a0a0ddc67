/* test_zeinfo.c -- the .ze_info reader (src/program/zeinfo.c) on hand-made YAML: a kernel in
** IGC's own layout read into every field, then hostile documents, each of which must give its
** diagnostic (id and YAML line) and nothing worse; then every allocation failing in turn. */
#include "program_test.h"

/* IGC 1.0.12504's layout for a kernel with a buffer, a by-value struct in two pieces, local
** memory and printf, plus the keys it writes for other kernels. */
static const char good[] = "---\n"
                           "version:         '1.20'\n"
                           "kernels:\n"
                           "  - name:            k\n"
                           "    user_attributes:\n"
                           "      reqd_work_group_size: [ 8, 4, 1 ]\n"
                           "      vec_type_hint:   float4\n"
                           "    execution_env:\n" /* line 8 */
                           "      barrier_count:   1\n"
                           "      disable_mid_thread_preemption: true\n"
                           "      grf_count:       128\n"
                           "      has_4gb_buffers: true\n"
                           "      inline_data_payload_size: 32\n"
                           "      offset_to_skip_per_thread_data_load: 192\n"
                           "      simd_size:       16\n"
                           "      slm_size:        64\n"
                           "      required_work_group_size: [ 8, 4, 1 ]\n"
                           "      work_group_walk_order_dimensions: [ 0, 1, 2 ]\n"
                           "    payload_arguments:\n"
                           "      - arg_type:        global_id_offset\n" /* line 20 */
                           "        offset:          0\n"
                           "        size:            12\n"
                           "      - arg_type:        arg_bypointer\n"
                           "        offset:          0\n"
                           "        size:            0\n"
                           "        arg_index:       0\n"
                           "        addrmode:        stateful\n"
                           "        addrspace:       global\n"
                           "        access_type:     readwrite\n"
                           "      - arg_type:        arg_bypointer\n"
                           "        offset:          32\n"
                           "        size:            8\n"
                           "        arg_index:       0\n"
                           "        addrmode:        stateless\n"
                           "        addrspace:       global\n"
                           "        access_type:     readwrite\n"
                           "      - arg_type:        arg_byvalue\n"
                           "        offset:          40\n"
                           "        size:            4\n"
                           "        arg_index:       1\n"
                           "        source_offset:   0\n"
                           "      - arg_type:        arg_byvalue\n"
                           "        offset:          44\n"
                           "        size:            4\n"
                           "        arg_index:       1\n"
                           "        source_offset:   8\n"
                           "      - arg_type:        arg_bypointer\n"
                           "        offset:          48\n"
                           "        size:            4\n"
                           "        arg_index:       2\n"
                           "        addrmode:        slm\n"
                           "        addrspace:       local\n"
                           "        access_type:     readwrite\n"
                           "        slm_alignment:   4\n"
                           "      - arg_type:        printf_buffer\n"
                           "        offset:          56\n"
                           "        size:            8\n"
                           "      - arg_type:        future_thing\n" /* an arg_type IGC may add later: kept */
                           "        offset:          64\n"
                           "        size:            4\n"
                           "    per_thread_payload_arguments:\n"
                           "      - arg_type:        local_id\n"
                           "        offset:          0\n"
                           "        size:            96\n"
                           "    binding_table_indices:\n"
                           "      - bti_value:       0\n"
                           "        arg_index:       0\n"
                           "    per_thread_memory_buffers:\n"
                           "      - type:            scratch\n"
                           "        usage:           single_space\n"
                           "        size:            1024\n"
                           "      - type:            global\n"
                           "        usage:           private_space\n"
                           "        size:            56\n"
                           "        is_simt_thread:  true\n"
                           "    experimental_properties:\n"
                           "      has_non_kernel_arg_load: 1\n"
                           "    debug_env:\n"
                           "      sip_surface_bti: 0\n"
                           "kernels_misc_info:\n"
                           "  - name:            k\n"
                           "    args_info:\n"
                           "      - index:           0\n"
                           "        name:            out\n"
                           "        address_qualifier: __global\n"
                           "        access_qualifier: NONE\n"
                           "        type_name:       'int*;8'\n"
                           "        type_qualifiers: NONE\n"
                           "      - index:           1\n"
                           "        name:            s\n"
                           "        address_qualifier: __private\n"
                           "        access_qualifier: NONE\n"
                           "        type_name:       'struct S;12'\n"
                           "        type_qualifiers: const\n"
                           "      - index:           2\n"
                           "        name:            tmp\n"
                           "        address_qualifier: __local\n"
                           "        access_qualifier: NONE\n"
                           "        type_name:       'int*;8'\n"
                           "        type_qualifiers: NONE\n"
                           "...\n";

static void test_good(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    CASE_BEGIN();
    vp_zeinfo *zi = NULL;
    visa_status st = vp_zeinfo_parse(ctx, "good", good, sizeof good - 1, &zi);
    CHECKF(st == VISA_OK && s.count == 0, "status %d, %u diagnostics (%s)", st, s.count,
           s.count ? s.diags[0].message : "");
    if (zi) {
        CHECK(zi->version_major == 1 && zi->version_minor == 20);
        CHECK(zi->kernel_count == 1);
        const vp_zeinfo_kernel *k = vp_zeinfo_kernel_by_name(zi, "k");
        CHECK(k && k == &zi->kernels[0] && k->line == 4);
        const vp_exec_env *e = &k->env;
        CHECK(e->line == 9 && e->barrier_count == 1 && e->disable_mid_thread_preemption);
        CHECK(e->grf_count == 128 && e->has_4gb_buffers && !e->has_dpas);
        CHECK(e->inline_data_payload_size == 32 && e->offset_to_skip_per_thread_data_load == 192);
        CHECK(e->simd_size == 16 && e->slm_size == 64 && e->hw_preemption_mode == -1);
        CHECK(e->required_work_group_size[0] == 8 && e->required_work_group_size[1] == 4 &&
              e->required_work_group_size[2] == 1);
        CHECK(VP_PRESENT(e, VP_ENV_simd_size) && !VP_PRESENT(e, VP_ENV_has_dpas));
        CHECK(e->work_group_walk_order_dimensions[2] == 2);
        CHECK(k->attrs.reqd_work_group_size[1] == 4 && strcmp(k->attrs.vec_type_hint, "float4") == 0);
        CHECK(VP_PRESENT(&k->attrs, VP_UATTR_reqd_work_group_size));
        CHECK(k->arg_count == 8);
        const vp_payload_arg *a = k->args;
        CHECK(a[0].arg_type == VP_ARG_GLOBAL_ID_OFFSET && a[0].size == 12 && a[0].arg_index == -1);
        CHECK(a[0].line == 20 && a[0].col == 9);
        CHECK(a[1].arg_type == VP_ARG_ARG_BYPOINTER && a[1].addrmode == VP_ADDRMODE_STATEFUL &&
              a[1].addrspace == VP_ADDRSPACE_GLOBAL && a[1].access_type == VP_ACCESS_READWRITE);
        CHECK(a[2].addrmode == VP_ADDRMODE_STATELESS && a[2].offset == 32 && a[2].size == 8);
        CHECK(a[3].arg_type == VP_ARG_ARG_BYVALUE && a[3].source_offset == 0 && a[4].source_offset == 8);
        CHECK(a[5].addrmode == VP_ADDRMODE_SLM && a[5].addrspace == VP_ADDRSPACE_LOCAL && a[5].slm_alignment == 4);
        CHECK(a[6].arg_type == VP_ARG_PRINTF_BUFFER && a[6].sampler_index == -1 && a[6].bti_value == -1);
        CHECK(a[7].arg_type == VP_ARG_UNKNOWN && strcmp(a[7].arg_type_name, "future_thing") == 0);
        CHECK(strcmp(vp_zeinfo_name(VP_TAB_ADDRMODE, a[2].addrmode), "stateless") == 0);
        CHECK(k->payload_size == 68 && k->explicit_args == 3);
        CHECK(k->thread_arg_count == 1 && k->thread_args[0].arg_type == VP_ARG_LOCAL_ID &&
              k->thread_args[0].size == 96);
        CHECK(k->bti_count == 1 && k->btis[0].bti_value == 0 && k->btis[0].arg_index == 0);
        CHECK(k->buffer_count == 2 && k->buffers[0].type == VP_BUFTYPE_SCRATCH &&
              k->buffers[0].usage == VP_BUFUSE_SINGLE_SPACE && k->buffers[0].size == 1024);
        CHECK(k->buffers[1].type == VP_BUFTYPE_GLOBAL && k->buffers[1].is_simt_thread && k->buffers[1].size == 56 &&
              !k->buffers[0].is_simt_thread);
        CHECK(k->arg_info_count == 3 && k->arg_infos[1].index == 1);
        CHECK(strcmp(k->arg_infos[0].name, "out") == 0 && strcmp(k->arg_infos[0].type_name, "int*;8") == 0 &&
              strcmp(k->arg_infos[2].address_qualifier, "__local") == 0 &&
              strcmp(k->arg_infos[1].type_qualifiers, "const") == 0);
        CHECK(vp_arg_type_is_explicit(VP_ARG_BUFFER_OFFSET) && !vp_arg_type_is_explicit(VP_ARG_LOCAL_SIZE));
    }
    vp_zeinfo_free(zi);
    CASE_END("good");
    visa_ctx_destroy(ctx);
}

/* A hostile or malformed document: its first error has `code` on `line` (0: any). */
typedef struct bad_case {
    const char *name, *yaml, *code;
    uint32_t line;
} bad_case;

#define KHEAD "version: '1.20'\nkernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n      simd_size: 16\n"
/* KHEAD is 6 lines: a kernel's lists start on line 7 */
#define PARGS KHEAD "    payload_arguments:\n"

static const bad_case bad_cases[] = {
    {"no kernels", "version: '1.20'\n", "E-ZEINFO-MISSING", 1},
    {"no name", "kernels:\n  - execution_env: {grf_count: 128, simd_size: 8}\n", "E-ZEINFO-MISSING", 2},
    {"no execution_env", "kernels:\n  - name: k\n", "E-ZEINFO-MISSING", 2},
    {"no simd_size", "kernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n", "E-ZEINFO-MISSING", 4},
    {"string for int", "kernels:\n  - name: k\n    execution_env:\n      grf_count: many\n      simd_size: 8\n",
     "E-ZEINFO-TYPE", 4},
    {"quoted int", "kernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n      simd_size: '16'\n",
     "E-ZEINFO-TYPE", 5},
    {"float for int", "kernels:\n  - name: k\n    execution_env:\n      grf_count: 1.5\n      simd_size: 8\n",
     "E-ZEINFO-TYPE", 4},
    {"mapping for int", "kernels:\n  - name: k\n    execution_env:\n      grf_count: {a: 1}\n      simd_size: 8\n",
     "E-ZEINFO-TYPE", 4},
    {"null for int", "kernels:\n  - name: k\n    execution_env:\n      grf_count:\n      simd_size: 8\n",
     "E-ZEINFO-TYPE", 0},
    {"int for bool", KHEAD "      has_dpas: 3\n", "E-ZEINFO-TYPE", 7},
    {"list for string", "kernels:\n  - name: [a, b]\n    execution_env: {grf_count: 128, simd_size: 8}\n",
     "E-ZEINFO-TYPE", 2},
    {"negative offset", PARGS "      - {arg_type: local_size, offset: -4, size: 12}\n", "E-ZEINFO-RANGE", 8},
    {"huge size", PARGS "      - {arg_type: local_size, offset: 0, size: 99999999999999999999999}\n", "E-ZEINFO-RANGE",
     8},
    {"int32 overflow", KHEAD "      slm_size: 4294967296\n", "E-ZEINFO-RANGE", 7},
    {"past the payload", PARGS "      - {arg_type: local_size, offset: 4090, size: 12}\n", "E-ZEINFO-RANGE", 8},
    {"past the per-thread payload",
     KHEAD "    per_thread_payload_arguments:\n      - {arg_type: local_id, offset: 200, size: 96}\n", "E-ZEINFO-RANGE",
     8},
    {"simd 12", "kernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n      simd_size: 12\n",
     "E-ZEINFO-RANGE", 4},
    {"slm alignment 3",
     PARGS "      - {arg_type: arg_bypointer, offset: 0, size: 4, arg_index: 0, addrmode: slm, slm_alignment: 3}\n",
     "E-ZEINFO-RANGE", 8},
    {"work-group of 0", KHEAD "      required_work_group_size: [0, 1, 1]\n", "E-ZEINFO-RANGE", 7},
    {"two of three", KHEAD "      required_work_group_size: [8, 1]\n", "E-ZEINFO-TYPE", 7},
    {"overlap",
     PARGS
     "      - {arg_type: local_size, offset: 0, size: 12}\n      - {arg_type: global_size, offset: 8, size: 12}\n",
     "E-ZEINFO-OVERLAP", 9},
    {"pointer twice",
     PARGS
     "      - {arg_type: arg_bypointer, offset: 0, size: 8, arg_index: 0, addrmode: stateless}\n      - {arg_type: arg_bypointer, offset: 8, size: 8, arg_index: 0, addrmode: stateless}\n",
     "E-ZEINFO-DUP", 9},
    {"value and pointer",
     PARGS
     "      - {arg_type: arg_byvalue, offset: 0, size: 4, arg_index: 0}\n      - {arg_type: arg_bypointer, offset: 8, size: 8, arg_index: 0, addrmode: stateless}\n",
     "E-ZEINFO-DUP", 0},
    {"piece twice",
     PARGS
     "      - {arg_type: arg_byvalue, offset: 0, size: 4, arg_index: 0, source_offset: 4}\n      - {arg_type: arg_byvalue, offset: 4, size: 4, arg_index: 0, source_offset: 4}\n",
     "E-ZEINFO-DUP", 9},
    {"no arg_index", PARGS "      - {arg_type: buffer_address, offset: 0, size: 8}\n", "E-ZEINFO-MISSING", 8},
    {"bti twice",
     KHEAD "    binding_table_indices:\n      - {bti_value: 0, arg_index: 0}\n      - {bti_value: 0, arg_index: 1}\n",
     "E-ZEINFO-DUP", 9},
    {"bti arg twice",
     KHEAD "    binding_table_indices:\n      - {bti_value: 0, arg_index: 0}\n      - {bti_value: 1, arg_index: 0}\n",
     "E-ZEINFO-DUP", 9},
    {"key twice", KHEAD "      grf_count: 256\n", "E-ZEINFO-DUP", 7},
    {"kernel twice",
     "kernels:\n  - name: k\n    execution_env: {grf_count: 128, simd_size: 8}\n  - name: k\n    execution_env: {grf_count: 128, simd_size: 8}\n",
     "E-ZEINFO-DUP", 4},
    {"args_info index twice",
     KHEAD
     "kernels_misc_info:\n  - name: k\n    args_info:\n      - {index: 0, name: a}\n      - {index: 0, name: b}\n",
     "E-ZEINFO-DUP", 11},
    {"misc info twice", KHEAD "kernels_misc_info:\n  - name: k\n  - name: k\n    args_info: []\n", "E-ZEINFO-DUP", 0},
    {"unknown addrmode",
     PARGS "      - {arg_type: arg_bypointer, offset: 0, size: 8, arg_index: 0, addrmode: telepathic}\n",
     "E-ZEINFO-VALUE", 8},
    {"unknown buffer usage", KHEAD "    per_thread_memory_buffers:\n      - {type: scratch, usage: all, size: 64}\n",
     "E-ZEINFO-VALUE", 8},
    {"zero-sized buffer",
     KHEAD "    per_thread_memory_buffers:\n      - {type: scratch, usage: single_space, size: 0}\n", "E-ZEINFO-RANGE",
     8},
    {"version 2", "version: '2.0'\nkernels: []\n", "E-ZEINFO-VERSION", 1},
    {"version words", "version: one point two\nkernels: []\n", "E-ZEINFO-VERSION", 1},
    {"kernel is a scalar", "kernels:\n  - k\n", "E-ZEINFO-TYPE", 2},
    {"kernels is a mapping", "kernels:\n  k: 1\n", "E-ZEINFO-TYPE", 2},
    {"document is a list", "- 1\n- 2\n", "E-ZEINFO-TYPE", 1},
    {"document is a scalar", "kernels\n", "E-ZEINFO-TYPE", 1},
    {"complex key", "? [a, b]\n: 1\nkernels: []\n", "E-ZEINFO-TYPE", 1},
    {"deep nesting", "kernels: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
     "E-ZEINFO-LIMIT", 1},
    {"alias", "kernels:\n  - &k\n    name: k\n    execution_env: {grf_count: 128, simd_size: 8}\n  - *k\n",
     "E-ZEINFO-ALIAS", 5},
    {"alias bomb",
     "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\nkernels: []\n",
     "E-ZEINFO-ALIAS", 2},
    {"not YAML", "kernels: [\n  - name: {\n", "E-ZEINFO-YAML", 0},
    {"tab indentation", "kernels:\n\t- name: k\n", "E-ZEINFO-YAML", 2},
    {"unterminated quote", "version: '1.20\nkernels: []\n", "E-ZEINFO-YAML", 0},
    {"binary",
     "\x7f"
     "ELF\x02\x01\x01\x00\x00\x00\x01",
     "E-ZEINFO-YAML", 1},
    {"bad UTF-8", "kernels: [\xff\xfe]\n", "E-ZEINFO-YAML", 1},
    {"empty", "", "E-ZEINFO-EMPTY", 1},
    {"empty document", "---\n...\n", "E-ZEINFO-EMPTY", 1},
    {"null document", "~\n", "E-ZEINFO-EMPTY", 1},
    {"two documents", "kernels: []\n---\nkernels: []\n", "E-ZEINFO-YAML", 2},
};

static void test_bad(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        const bad_case *c = &bad_cases[i];
        pt_reset(&s);
        CASE_BEGIN();
        vp_zeinfo *zi = (vp_zeinfo *)&s; /* must be cleared on failure */
        visa_status st = vp_zeinfo_parse(ctx, c->name, c->yaml, strlen(c->yaml), &zi);
        CHECKF(st == VISA_E_SYNTAX && zi == NULL, "%s: status %d", c->name, st);
        const pt_diag *d = s.count ? &s.diags[0] : NULL;
        for (unsigned k = 0; k < s.count && d && d->sev != VISA_SEV_ERROR; k++) d = &s.diags[k];
        CHECKF(d && strcmp(d->code, c->code) == 0 && (!c->line || d->line == c->line),
               "%s: expected %s on line %u, got %s on line %u (%s)", c->name, c->code, c->line, d ? d->code : "nothing",
               d ? d->line : 0, d ? d->message : "");
        CASE_END(c->name);
    }
    visa_ctx_destroy(ctx);
}

/* Accepted with a warning, or silently: unknown keys, IGC's debug and experimental sections, a
** missing version, misc info for a kernel that is not there. */
static void test_lenient(void) {
    static const struct {
        const char *name, *yaml, *warning; /* warning NULL: no diagnostic at all */
    } cases[] = {
        {"unknown key", KHEAD "      shiny_new_flag: true\n", "W-ZEINFO-UNKNOWN"},
        {"unknown top key", "future_table: [1]\n" KHEAD, "W-ZEINFO-UNKNOWN"},
        {"no version", "kernels: []\n", "W-ZEINFO-VERSION"},
        {"misc for nobody", KHEAD "kernels_misc_info:\n  - name: q\n    args_info: []\n", "W-ZEINFO-MISC"},
        {"debug and experimental",
         KHEAD
         "    debug_env: {sip_surface_bti: 0}\n    experimental_properties: {has_non_kernel_arg_load: 1}\nkernels_cost_info: [{name: k}]\n",
         NULL},
        {"anchor without alias",
         "version: &v '1.20'\n"
         "kernels: []\n",
         NULL},
        {"functions and host access",
         "version: '1.20'\nkernels: []\nfunctions:\n  - name: f\n    execution_env: {simd_size: 16, has_stack_calls: true}\nglobal_host_access_table:\n  - {device_name: d, host_name: h}\n",
         NULL},
    };
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pt_reset(&s);
        CASE_BEGIN();
        vp_zeinfo *zi = NULL;
        visa_status st = vp_zeinfo_parse(ctx, cases[i].name, cases[i].yaml, strlen(cases[i].yaml), &zi);
        CHECKF(st == VISA_OK && zi, "%s: status %d (%s)", cases[i].name, st, s.count ? s.diags[0].message : "");
        if (cases[i].warning)
            CHECKF(s.errors == 0 && pt_find(&s, cases[i].warning), "%s: no %s", cases[i].name, cases[i].warning);
        else CHECKF(s.count == 0, "%s: %u diagnostics (%s)", cases[i].name, s.count, s.count ? s.diags[0].code : "");
        if (zi && i == 6) {
            CHECK(zi->function_count == 1 && strcmp(zi->functions[0].name, "f") == 0 &&
                  zi->functions[0].env.has_stack_calls && zi->functions[0].env.simd_size == 16);
            CHECK(zi->host_access_count == 1 && strcmp(zi->host_access[0].host_name, "h") == 0);
        }
        vp_zeinfo_free(zi);
        CASE_END(cases[i].name);
    }
    visa_ctx_destroy(ctx);
}

/* Sizes past the limits: more nodes than VP_ZEINFO_MAX_NODES, more text than VP_ZEINFO_MAX_TEXT. */
static void test_limits(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    size_t n = VP_ZEINFO_MAX_NODES + 16, len = 0;
    char *text = malloc(n * 2 + 32);
    if (!text) exit(1);
    len += (size_t)sprintf(text, "kernels: [");
    for (size_t i = 0; i < n; i++) text[len++] = '1', text[len++] = ',';
    memcpy(text + len, "1]\n", 4);
    len += 3;
    CASE_BEGIN();
    vp_zeinfo *zi = NULL;
    CHECK(vp_zeinfo_parse(ctx, "nodes", text, len, &zi) == VISA_E_SYNTAX && !zi);
    CHECK(pt_find(&s, "E-ZEINFO-LIMIT") != NULL);
    CASE_END("node limit");
    free(text);
    pt_reset(&s);
    CASE_BEGIN();
    len = VP_ZEINFO_MAX_TEXT + 1;
    text = malloc(len);
    if (!text) exit(1);
    memset(text, '#', len);
    CHECK(vp_zeinfo_parse(ctx, "text", text, len, &zi) == VISA_E_SYNTAX && !zi);
    CHECK(pt_find(&s, "E-ZEINFO-LIMIT") != NULL);
    free(text);
    CASE_END("text limit");
    visa_ctx_destroy(ctx);
}

static visa_status parse_good(visa_ctx *ctx, const void *arg) {
    (void)arg;
    vp_zeinfo *zi = NULL;
    visa_status st = vp_zeinfo_parse(ctx, "good", good, sizeof good - 1, &zi);
    vp_zeinfo_free(zi);
    return st;
}

static void test_nomem(void) {
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    pt_nomem_rounds(ctx, &s, parse_good, NULL);
    visa_ctx_destroy(ctx);
}

int main(void) {
    test_good();
    test_bad();
    test_lenient();
    test_limits();
    test_nomem();
    return th_finish();
}
