/* test_ocloc.c -- IGC itself, through libocloc (src/program/ocloc.c), on Oclgrind's kernels
** (../shared/corpus/oclgrind/kernels).  Exits 77 (skipped) without libocloc or the corpus.
**   test_ocloc kernels DIR   a few kernels for tgllp, dg2-g10 and pvc: every .ze_info value the
**                            model holds is checked against the YAML text, read here line by line
**                            the way IGC lays it out; SPIR-V input; a failed build; a bad device
**   test_ocloc suite DIR     the whole suite (TESTS, with each .sim's --build-options) for the
**                            three devices: every zebin and .ze_info read with no diagnostic
**   test_ocloc noload        with VISA_OCLOC_LIB naming no library: a clear error
** IGC 1.0.12504 writes kernel.visaasm into the working directory when asked for vISA sections:
** the test works in a directory of its own under /tmp and removes it.
** Under AddressSanitizer libocloc cannot be loaded (it dlopens IGC with RTLD_DEEPBIND, which the
** sanitizer refuses: google/sanitizers#611): there the zebins come from the ocloc program, run
** the way ocloc.c runs the library, and only the reading is tested. */
#if defined(__SANITIZE_ADDRESS__)
#define PT_ASAN 1
#else
#define PT_ASAN 0
#endif
extern char **environ;
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <ctype.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program_test.h"

static const char *const devices[] = {"tgllp", "dg2-g10", "pvc"};
static const visa_platform device_platforms[] = {VISA_PLATFORM_XELP, VISA_PLATFORM_XEHPG, VISA_PLATFORM_XEHPC};
static char scratch[64];

static void enter_scratch(void) {
    snprintf(scratch, sizeof scratch, "/tmp/visa-ocloc-XXXXXX");
    if (!mkdtemp(scratch) || chdir(scratch) != 0) {
        perror("scratch directory");
        exit(1);
    }
}

static void leave_scratch(void) {
    static const char *const made[] = {"kernel.visaasm", "k.cl", "ocloc.log", "out/k", "out/k.spv", "out"};
    if (chdir("/") != 0) return;
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", scratch, made[i]);
        remove(path);
    }
    rmdir(scratch);
}

/* The ocloc program's zebin for an OpenCL C source (the sanitizer builds' compiler). */
static visa_status compile_cli(visa_ctx *ctx, const char *device, const char *options, const void *src, size_t len,
                               vp_ocloc_result *res) {
    memset(res, 0, sizeof *res);
    FILE *f = fopen("k.cl", "wb");
    if (!f || fwrite(src, 1, len, f) != len || fclose(f) != 0) return VISA_E_IO;
    remove("out/k");
    const char *argv[] = {"ocloc",
                          "compile",
                          "-file",
                          "k.cl",
                          "-device",
                          device,
                          "--format",
                          "zebin",
                          "-out_dir",
                          "out",
                          "-output",
                          "k",
                          "-output_no_suffix",
                          "-internal_options",
                          "-cl-intel-emit-zebin-visa-sections",
                          options && *options ? "-options" : NULL,
                          options,
                          NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "ocloc.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, "ocloc", &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return VISA_E_UNSUPPORTED;
    int status = 0;
    waitpid(pid, &status, 0);
    res->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    res->log = (char *)th_read_file("ocloc.log", &res->log_len);
    uint8_t *bin = (uint8_t *)th_read_file("out/k", &res->zebin_len);
    if (bin) { /* into the context's memory, as vp_ocloc_result_free expects */
        res->zebin = vx_alloc(ctx, res->zebin_len + 1);
        if (res->zebin) memcpy(res->zebin, bin, res->zebin_len);
        free(bin);
    }
    if (res->log) { /* likewise */
        char *log = vx_alloc(ctx, res->log_len + 1);
        if (log) memcpy(log, res->log, res->log_len);
        free(res->log);
        res->log = log;
    }
    return res->status == 0 && res->zebin ? VISA_OK : VISA_E_SYNTAX;
}

/* Compile; without libocloc (or, under the sanitizer, the ocloc program) the test is skipped. */
static visa_status compile(visa_ctx *ctx, pt_state *s, const char *device, const char *options, const void *src,
                           size_t len, bool spirv, vp_ocloc_result *res) {
    vp_ocloc_request req = {device, options, src, len, spirv, NULL, NULL};
    pt_reset(s);
    if (PT_ASAN) {
        visa_status st = compile_cli(ctx, device, options, src, len, res);
        if (st == VISA_E_UNSUPPORTED) {
            printf("SKIPPED: no ocloc program\n");
            leave_scratch();
            exit(TH_SKIP_CODE);
        }
        return st;
    }
    visa_status st = vp_ocloc_compile(ctx, &req, res);
    if (st == VISA_E_UNSUPPORTED && pt_find(s, "E-OCLOC-LOAD")) {
        printf("SKIPPED: %s\n", s->diags[0].message);
        leave_scratch();
        exit(TH_SKIP_CODE);
    }
    return st;
}

/* -- .ze_info as IGC lays it out, read line by line (independently of zeinfo.c) ------------------ */
typedef struct yl_arg {
    char type[64], addrmode[64];
    int offset, size, index;
} yl_arg;
typedef struct yl_kernel {
    char name[64];
    int simd, grf, nargs, ninfos;
    yl_arg args[32];
    char info_names[16][64], info_types[16][64];
} yl_kernel;

static int indent_of(const char *line) { return (int)strspn(line, " "); }

/* "key: value" of one line (after the indentation and an optional "- "), or NULL. */
static const char *line_value(const char *line, char *key, size_t keylen) {
    line += indent_of(line);
    if (line[0] == '-' && line[1] == ' ') line += 2;
    const char *colon = strchr(line, ':');
    if (!colon || (size_t)(colon - line) >= keylen) return NULL;
    memcpy(key, line, (size_t)(colon - line));
    key[colon - line] = 0;
    colon++;
    while (*colon == ' ') colon++;
    return colon;
}

static void unquote(const char *v, char *out, size_t n) {
    size_t len = strcspn(v, "\n");
    if (len >= 2 && v[0] == '\'') v++, len -= 2;
    snprintf(out, n, "%.*s", (int)len, v);
}

static unsigned yl_read(const char *text, size_t len, yl_kernel *ks, unsigned max) {
    char *copy = malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = 0;
    unsigned n = 0;
    yl_kernel *k = NULL;
    char section[64] = "", top[64] = "", key[64], val[64];
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        int ind = indent_of(line);
        const char *v = line_value(line, key, sizeof key);
        if (!v) continue;
        unquote(v, val, sizeof val);
        bool item = line[ind] == '-';
        if (ind == 0) snprintf(top, sizeof top, "%s", key);
        if (ind == 4 && !*v) {
            snprintf(section, sizeof section, "%s", key);
            continue;
        }
        if (ind == 2 && item && strcmp(key, "name") == 0) {
            if (strcmp(top, "kernels") == 0 && n < max) k = &ks[n++], memset(k, 0, sizeof *k);
            else if (strcmp(top, "kernels_misc_info") == 0)
                for (unsigned i = 0; i < n; i++) k = strcmp(ks[i].name, val) == 0 ? &ks[i] : k;
            if (strcmp(top, "kernels") == 0) snprintf(k->name, sizeof k->name, "%s", val);
            section[0] = 0;
            continue;
        }
        if (!k) continue;
        if (strcmp(key, "simd_size") == 0) k->simd = atoi(val);
        if (strcmp(key, "grf_count") == 0) k->grf = atoi(val);
        if (strcmp(section, "payload_arguments") == 0 && k->nargs < 32 && (item || k->nargs)) {
            yl_arg *a = &k->args[item ? k->nargs++ : k->nargs - 1];
            if (item) a->index = -1, a->addrmode[0] = 0;
            if (strcmp(key, "arg_type") == 0) snprintf(a->type, sizeof a->type, "%s", val);
            if (strcmp(key, "offset") == 0) a->offset = atoi(val);
            if (strcmp(key, "size") == 0) a->size = atoi(val);
            if (strcmp(key, "arg_index") == 0) a->index = atoi(val);
            if (strcmp(key, "addrmode") == 0) snprintf(a->addrmode, sizeof a->addrmode, "%s", val);
        }
        if (strcmp(section, "args_info") == 0 && k->ninfos < 16 && (item || k->ninfos)) {
            if (item) k->ninfos++;
            if (strcmp(key, "name") == 0) snprintf(k->info_names[k->ninfos - 1], 64, "%s", val);
            if (strcmp(key, "type_name") == 0) snprintf(k->info_types[k->ninfos - 1], 64, "%s", val);
        }
    }
    free(copy);
    return n;
}

/* The model of `p` says what its .ze_info text says. */
static void check_against_text(const vp_program *p, const char *what) {
    const vp_zebin_section *zs = p->zebin->ze_info;
    static yl_kernel ks[8];
    unsigned n = yl_read((const char *)zs->data, (size_t)zs->size, ks, 8);
    CHECKF(n == p->kernel_count && n > 0, "%s: %u kernels in the text, %u read", what, n, p->kernel_count);
    for (unsigned i = 0; i < n && i < p->kernel_count; i++) {
        const vp_zeinfo_kernel *k = p->kernels[i].info;
        CHECKF(strcmp(k->name, ks[i].name) == 0 && k->env.simd_size == ks[i].simd && k->env.grf_count == ks[i].grf,
               "%s: kernel %s", what, ks[i].name);
        CHECKF(k->arg_count == (uint32_t)ks[i].nargs, "%s %s: %u payload arguments, text %d", what, k->name,
               k->arg_count, ks[i].nargs);
        for (uint32_t a = 0; a < k->arg_count && a < (uint32_t)ks[i].nargs; a++) {
            const vp_payload_arg *m = &k->args[a];
            const yl_arg *t = &ks[i].args[a];
            CHECKF(strcmp(m->arg_type_name, t->type) == 0 && m->offset == t->offset && m->size == t->size &&
                       m->arg_index == t->index &&
                       strcmp(t->addrmode[0] ? vp_zeinfo_name(VP_TAB_ADDRMODE, m->addrmode) : "", t->addrmode) == 0,
                   "%s %s: argument %u is %s %d+%d #%d, text %s %d+%d #%d", what, k->name, a, m->arg_type_name,
                   m->offset, m->size, m->arg_index, t->type, t->offset, t->size, t->index);
            CHECK(m->arg_type != VP_ARG_UNKNOWN);
        }
        CHECKF(k->arg_info_count == (uint32_t)ks[i].ninfos, "%s %s: arg infos", what, k->name);
        for (uint32_t a = 0; a < k->arg_info_count && a < (uint32_t)ks[i].ninfos; a++)
            CHECKF(strcmp(k->arg_infos[a].name, ks[i].info_names[a]) == 0 &&
                       strcmp(k->arg_infos[a].type_name, ks[i].info_types[a]) == 0,
                   "%s %s: arg info %u", what, k->name, a);
        const vp_zebin_kernel *code = p->kernels[i].code;
        CHECKF(code->visaasm && code->visaasm_len > 0 && code->code_size > 0, "%s %s: no vISA text or code", what,
               k->name);
    }
}

static char *read_text(const char *dir, const char *test, const char *ext, size_t *len) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s%s", dir, test, ext);
    return th_read_file(path, len);
}

/* The --build-options of a test's .sim "# ARGS:" line, or "". */
static void build_options(const char *dir, const char *test, char *out, size_t n) {
    size_t len;
    char *sim = read_text(dir, test, ".sim", &len);
    out[0] = 0;
    const char *args = sim ? strstr(sim, "# ARGS:") : NULL;
    const char *opt = args ? strstr(args, "--build-options") : NULL;
    if (opt && opt < args + strcspn(args, "\n")) {
        opt += strlen("--build-options");
        while (*opt == ' ') opt++;
        snprintf(out, n, "%.*s", (int)strcspn(opt, "\n"), opt);
    }
    free(sim);
}

/* Compile and read one test of the corpus for one device; true when both went through with no
** diagnostic at all. */
static bool build_and_read(visa_ctx *ctx, pt_state *s, const char *dir, const char *test, unsigned dev,
                           bool check_text) {
    size_t len;
    char *src = read_text(dir, test, ".cl", &len);
    char options[256], what[256];
    snprintf(what, sizeof what, "%s for %s", test, devices[dev]);
    if (!src) {
        CHECKF(src, "%s: no source", what);
        return false;
    }
    build_options(dir, test, options, sizeof options);
    vp_ocloc_result res;
    visa_status st = compile(ctx, s, devices[dev], options, src, len, false, &res);
    free(src);
    CHECKF(st == VISA_OK && res.zebin && s->count == 0, "%s: status %d (%s)\n%s", what, st,
           s->count ? s->diags[0].message : "", res.log);
    bool ok = st == VISA_OK && s->count == 0;
    vp_program *p = NULL;
    if (ok) {
        pt_reset(s);
        st = vp_program_read(ctx, what, res.zebin, res.zebin_len, &p);
        CHECKF(st == VISA_OK && s->count == 0, "%s: read status %d, %u diagnostics (%s)", what, st, s->count,
               s->count ? s->diags[0].message : "");
        ok = st == VISA_OK && s->count == 0;
    }
    if (p) {
        CHECKF(p->zebin->device.has_platform && p->zebin->device.platform == device_platforms[dev], "%s: platform %s",
               what, visa_platform_name(p->zebin->device.platform));
        ok &= p->zebin->device.platform == device_platforms[dev];
        if (check_text) check_against_text(p, what);
    }
    vp_program_free(p);
    vp_ocloc_result_free(ctx, &res);
    return ok;
}

static const char *const chosen[] = {"misc/vecadd",
                                     "misc/printf",
                                     "misc/array",
                                     "misc/global_variables",
                                     "misc/vector_argument",
                                     "bugs/byval_function_argument",
                                     "memcheck/static_array",
                                     "barrier/barrier_different_instructions"};

static void test_kernels(visa_ctx *ctx, pt_state *s, const char *dir) {
    for (size_t t = 0; t < sizeof chosen / sizeof *chosen; t++)
        for (unsigned d = 0; d < 3; d++) {
            CASE_BEGIN();
            build_and_read(ctx, s, dir, chosen[t], d, true);
            CASE_END(chosen[t]);
        }
    if (PT_ASAN) return; /* the cases below are about libocloc itself */
    /* SPIR-V input: the module IGC kept in .spv, compiled again */
    CASE_BEGIN();
    size_t len;
    char *src = read_text(dir, "misc/vecadd", ".cl", &len);
    vp_ocloc_result res, again;
    vp_program *p = NULL, *q = NULL;
    CHECK(src && compile(ctx, s, "dg2-g10", NULL, src, len, false, &res) == VISA_OK);
    CHECK(vp_program_read(ctx, "vecadd", res.zebin, res.zebin_len, &p) == VISA_OK);
    const vp_zebin_section *spv = p ? p->zebin->spirv : NULL;
    CHECK(spv && spv->size > 20 && spv->data[0] == 0x03 && spv->data[3] == 0x07); /* SPIR-V magic */
    if (spv) {
        CHECK(compile(ctx, s, "dg2-g10", NULL, spv->data, (size_t)spv->size, true, &again) == VISA_OK);
        CHECK(vp_program_read(ctx, "vecadd.spv", again.zebin, again.zebin_len, &q) == VISA_OK);
        CHECK(q && q->kernel_count == p->kernel_count && strcmp(q->kernels[0].name, p->kernels[0].name) == 0 &&
              q->kernels[0].info->arg_count == p->kernels[0].info->arg_count);
        vp_ocloc_result_free(ctx, &again);
    }
    vp_program_free(p);
    vp_program_free(q);
    vp_ocloc_result_free(ctx, &res);
    free(src);
    CASE_END("SPIR-V input");
    /* a build that fails: the log says why */
    CASE_BEGIN();
    static const char broken[] = "kernel void k(global int *p) { p[0] = undefined_name; }";
    visa_status st = compile(ctx, s, "pvc", "-cl-std=CL2.0", broken, sizeof broken - 1, false, &res);
    CHECKF(st == VISA_E_SYNTAX && pt_find(s, "E-OCLOC-BUILD") && !res.zebin && res.status != 0, "status %d", st);
    CHECKF(res.log && strstr(res.log, "undefined_name") && strlen(res.log) == res.log_len, "log: %s",
           res.log ? res.log : "(none)");
    vp_ocloc_result_free(ctx, &res);
    CASE_END("failed build");
    CASE_BEGIN();
    static const char fine[] = "kernel void k(global int *p) { p[0] = 1; }";
    st = compile(ctx, s, "no-such-gpu", NULL, fine, sizeof fine - 1, false, &res);
    CHECKF(st == VISA_E_ARG && pt_find(s, "E-OCLOC-ARG") && !res.zebin, "status %d", st);
    vp_ocloc_result_free(ctx, &res);
    CHECK(getenv("IGC_EnableZEBinary") == NULL); /* the environment is left as it was */
    CASE_END("bad device");
    /* IGC 1.0's stray dump in the working directory: removed when it was not there, a warning
    ** when IGC overwrote one */
    CASE_BEGIN();
    remove("kernel.visaasm");
    CHECK(compile(ctx, s, "tgllp", NULL, fine, sizeof fine - 1, false, &res) == VISA_OK);
    CHECKF(access("kernel.visaasm", F_OK) != 0, "IGC's kernel.visaasm was left in the working directory");
    CHECK(!pt_find(s, "W-OCLOC-CWD"));
    vp_ocloc_result_free(ctx, &res);
    FILE *mine = fopen("kernel.visaasm", "w");
    CHECK(mine && fputs("mine\n", mine) >= 0 && fclose(mine) == 0);
    CHECK(compile(ctx, s, "tgllp", NULL, fine, sizeof fine - 1, false, &res) == VISA_OK);
    CHECK(pt_find(s, "W-OCLOC-CWD") && access("kernel.visaasm", F_OK) == 0);
    vp_ocloc_result_free(ctx, &res);
    CASE_END("IGC's file in the working directory");
}

static void test_suite(visa_ctx *ctx, pt_state *s, const char *dir) {
    size_t len;
    char *list = read_text(dir, "TESTS", "", &len);
    if (!list) {
        th_skip("the Oclgrind suite", dir);
        return;
    }
    unsigned built[3] = {0}, tests = 0;
    for (char *t = strtok(list, "\n"); t; t = strtok(NULL, "\n")) {
        while (*t && isspace((unsigned char)*t)) t++;
        if (!*t || *t == '#') continue;
        tests++;
        for (unsigned d = 0; d < 3; d++) {
            CASE_BEGIN();
            built[d] += build_and_read(ctx, s, dir, t, d, false);
            CASE_END(t);
        }
    }
    free(list);
    for (unsigned d = 0; d < 3; d++)
        printf("%s: %u of %u tests built and read with no diagnostic\n", devices[d], built[d], tests);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_ocloc kernels|suite DIR | noload\n");
        return 2;
    }
    pt_state s;
    visa_ctx *ctx = pt_ctx(&s);
    if (strcmp(argv[1], "noload") == 0) {
        CASE_BEGIN();
        vp_ocloc_result res;
        static const char src[] = "kernel void k(global int *p) { p[0] = 1; }";
        vp_ocloc_request req = {"pvc", NULL, src, sizeof src - 1, false, NULL, NULL};
        visa_status st = vp_ocloc_compile(ctx, &req, &res);
        const pt_diag *d = pt_find(&s, "E-OCLOC-LOAD");
        CHECKF(st == VISA_E_UNSUPPORTED && d && strstr(d->message, "intel-opencl-icd") && !res.zebin, "status %d: %s",
               st, d ? d->message : "no E-OCLOC-LOAD");
        vp_ocloc_result_free(ctx, &res);
        CASE_END("libocloc missing");
        visa_ctx_destroy(ctx);
        return th_finish();
    }
    if (argc < 3) return 2;
    char probe[512];
    snprintf(probe, sizeof probe, "%s/TESTS", argv[2]);
    if (access(probe, R_OK) != 0) {
        th_skip("Oclgrind's kernels", argv[2]);
        visa_ctx_destroy(ctx);
        return th_finish();
    }
    enter_scratch();
    if (strcmp(argv[1], "kernels") == 0) test_kernels(ctx, &s, argv[2]);
    else test_suite(ctx, &s, argv[2]);
    leave_scratch();
    visa_ctx_destroy(ctx);
    return th_finish();
}
