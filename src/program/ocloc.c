/* ocloc.c -- IGC's offline compiler, driven through compute-runtime's libocloc.so (Debian:
** intel-opencl-icd), loaded with dlopen on first use: OpenCL C or SPIR-V in memory to a zebin
** with vISA sections, and the build log.
**
** The command is `ocloc compile -file NAME -device DEV [-spirv_input] --format zebin
** -options OPTS -internal_options -cl-intel-emit-zebin-visa-sections`.  `--format zebin` is
** ocloc's own switch for the zebin format: the IGC of Debian 12 (1.0.12504) writes the legacy
** patch-token format unless asked, and the other way to ask, IGC_EnableZEBinary=1, is a
** process-wide environment variable (setting it around the call would race with other threads
** and other compilations).  The internal option -cl-intel-enable-zebin does not do it: ocloc
** then still wraps the result in its legacy container.
**
** Side effect of IGC, not ours: with the vISA sections requested, IGC 1.0.12504 also writes the
** last kernel's vISA to kernel.visaasm in the process's working directory (a debug dump no
** option turns off).  A compilation removes that file when it was not there before; one that was
** (the user's own) has been overwritten by IGC, which the W-OCLOC-CWD warning says.  Whether IGC
** may run on several threads at once is IGC's matter: this file keeps no state between calls.
**
** Global state: only the function table below, loaded once (pthread_once) and never changed
** after; every compilation's data lives on its own call.
*/
#include <dlfcn.h>
#include <unistd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_int.h"

/* the file IGC 1.0.12504 writes into the working directory when asked for vISA sections */
#define IGC_CWD_DUMP "kernel.visaasm"

/* oclocInvoke and oclocFreeOutput, as compute-runtime's ocloc_api.h declares them */
typedef int (*ocloc_invoke_fn)(unsigned num_args, const char *argv[], uint32_t num_sources, const uint8_t **sources,
                               const uint64_t *source_lens, const char **source_names, uint32_t num_headers,
                               const uint8_t **headers, const uint64_t *header_lens, const char **header_names,
                               uint32_t *num_outputs, uint8_t ***outputs, uint64_t **output_lens, char ***output_names);
typedef int (*ocloc_free_fn)(uint32_t *num_outputs, uint8_t ***outputs, uint64_t **output_lens, char ***output_names);

/* ocloc's status codes (ocloc_api.h) */
enum {
    OCLOC_OUT_OF_HOST_MEMORY = -6,
    OCLOC_BUILD_PROGRAM_FAILURE = -11,
    OCLOC_INVALID_DEVICE = -33,
    OCLOC_INVALID_PROGRAM = -44,
    OCLOC_INVALID_COMMAND_LINE = -5150,
    OCLOC_INVALID_FILE = -5151,
};

#define VP_OCLOC_DEFAULT_LIB "libocloc.so"

static struct {
    ocloc_invoke_fn invoke;
    ocloc_free_fn free_output;
    char why[256]; /* why loading failed */
} ocloc_lib;
static pthread_once_t ocloc_once = PTHREAD_ONCE_INIT;

static void load_ocloc(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* libocloc opens IGC with RTLD_DEEPBIND, which AddressSanitizer and ThreadSanitizer answer by
    ** ending the process (google/sanitizers#611): a sanitized libvisa says so instead of taking its
    ** host down */
    snprintf(ocloc_lib.why, sizeof ocloc_lib.why,
             "this libvisa is built with a sanitizer, which cannot load libocloc (RTLD_DEEPBIND)");
    return;
#endif
    const char *path = getenv("VISA_OCLOC_LIB");
    if (!path || !*path) path = VP_OCLOC_DEFAULT_LIB;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *err = dlerror();
        snprintf(ocloc_lib.why, sizeof ocloc_lib.why, "%s", err ? err : path);
        return;
    }
    ocloc_invoke_fn invoke = (ocloc_invoke_fn)dlsym(lib, "oclocInvoke");
    ocloc_free_fn free_output = (ocloc_free_fn)dlsym(lib, "oclocFreeOutput");
    if (!invoke || !free_output) {
        snprintf(ocloc_lib.why, sizeof ocloc_lib.why, "%s has no oclocInvoke/oclocFreeOutput", path);
        return; /* the library stays loaded: dlclose could run code it registered at load */
    }
    ocloc_lib.invoke = invoke;
    ocloc_lib.free_output = free_output;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static char *copy_bytes(visa_ctx *ctx, const void *data, size_t len) {
    char *p = vx_alloc(ctx, len + 1);
    if (p && len) memcpy(p, data, len);
    return p;
}

static visa_status status_of(int rc) {
    switch (rc) {
    case OCLOC_OUT_OF_HOST_MEMORY: return VISA_E_NOMEM;
    case OCLOC_INVALID_DEVICE:
    case OCLOC_INVALID_COMMAND_LINE: return VISA_E_ARG;
    case OCLOC_BUILD_PROGRAM_FAILURE:
    case OCLOC_INVALID_PROGRAM:
    case OCLOC_INVALID_FILE: return VISA_E_SYNTAX;
    default: return VISA_E_UNSUPPORTED;
    }
}

/* The log's first line that says "error", else its first line, for the diagnostic. */
static void log_summary(const char *log, char *out, size_t n) {
    const char *line = strstr(log, "error");
    if (line) {
        while (line > log && line[-1] != '\n') line--;
    } else {
        line = log;
    }
    size_t len = strcspn(line, "\n");
    snprintf(out, n, "%.*s", (int)(len < 200 ? len : 200), line);
}

/* Copy ocloc's outputs into `res`: the .bin output is the zebin, stdout.log the log. */
static visa_status take_outputs(visa_ctx *ctx, diag_sink *ds, uint32_t n, uint8_t **data, const uint64_t *lens,
                                char **names, vp_ocloc_result *res) {
    uint32_t bins = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!names[i] || (!data[i] && lens[i]) || lens[i] >= SIZE_MAX) continue;
        if (strcmp(names[i], "stdout.log") == 0 && !res->log) {
            res->log = copy_bytes(ctx, data[i], (size_t)lens[i]);
            res->log_len = (size_t)lens[i];
            if (!res->log) return VISA_E_NOMEM;
        } else if (ends_with(names[i], ".bin") && bins++ == 0) {
            res->zebin = (uint8_t *)copy_bytes(ctx, data[i], (size_t)lens[i]);
            res->zebin_len = (size_t)lens[i];
            if (!res->zebin) return VISA_E_NOMEM;
        }
    }
    if (res->status == 0 && bins != 1) {
        vp_diag_offset(ds, PDIAG_OCLOC_BUILD, VISA_DIAG_NO_OFFSET,
                       "ocloc wrote %u binaries, expected one zebin (one device)", bins);
        return VISA_E_ARG;
    }
    return VISA_OK;
}

/* The argument vector of the ocloc command (see the file's comment). */
static unsigned build_argv(const vp_ocloc_request *req, const char *name, const char *internal, const char **argv) {
    unsigned n = 0;
    argv[n++] = "ocloc";
    argv[n++] = "compile";
    argv[n++] = "-file";
    argv[n++] = name;
    argv[n++] = "-device";
    argv[n++] = req->device;
    if (req->spirv) argv[n++] = "-spirv_input";
    argv[n++] = "--format";
    argv[n++] = "zebin";
    if (req->options && *req->options) {
        argv[n++] = "-options";
        argv[n++] = req->options;
    }
    argv[n++] = "-internal_options";
    argv[n++] = internal;
    return n;
}

visa_status vp_ocloc_compile(visa_ctx *ctx, const vp_ocloc_request *req, vp_ocloc_result *out) {
    if (!ctx || !out) return VISA_E_ARG;
    memset(out, 0, sizeof *out);
    diag_sink ds;
    diag_init(&ds, ctx, req && req->name ? req->name : "ocloc", NULL, 0);
    if (!req || !req->device || !*req->device || (!req->source && req->source_len)) {
        vp_diag_offset(&ds, PDIAG_OCLOC_ARG, VISA_DIAG_NO_OFFSET, "a compilation needs a device and a source");
        return VISA_E_ARG;
    }
    pthread_once(&ocloc_once, load_ocloc);
    if (!ocloc_lib.invoke) {
        vp_diag_offset(&ds, PDIAG_OCLOC_LOAD, VISA_DIAG_NO_OFFSET,
                       "IGC's offline compiler cannot be loaded (%s): install Debian's "
                       "intel-opencl-icd (libocloc.so), or name the library in VISA_OCLOC_LIB",
                       ocloc_lib.why);
        return VISA_E_UNSUPPORTED;
    }
    const char *name = req->name ? req->name : req->spirv ? "kernel.spv" : "kernel.cl";
    /* ocloc reads OpenCL C as a C string: the text goes with a terminating NUL */
    size_t len = req->source_len + !req->spirv;
    char *source = copy_bytes(ctx, req->source, req->source_len);
    if (!source) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    /* visa's internal option, then the caller's */
    static const char visa_internal[] = "-cl-intel-emit-zebin-visa-sections";
    size_t extra = req->internal_options ? strlen(req->internal_options) : 0;
    char *internal = vx_alloc(ctx, sizeof visa_internal + 1 + extra);
    if (!internal) {
        vx_free(ctx, source, req->source_len + 1);
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    memcpy(internal, visa_internal, sizeof visa_internal);
    if (extra) strcat(strcat(internal, " "), req->internal_options);
    const char *argv[16];
    unsigned argc = build_argv(req, name, internal, argv);
    const uint8_t *sources[1] = {(const uint8_t *)source};
    uint64_t lens[1] = {len};
    const char *names[1] = {name};
    uint32_t n_out = 0;
    uint8_t **data_out = NULL;
    uint64_t *lens_out = NULL;
    char **names_out = NULL;
    bool dump_was_there = access(IGC_CWD_DUMP, F_OK) == 0;
    out->status = ocloc_lib.invoke(argc, argv, 1, sources, lens, names, 0, NULL, NULL, NULL, &n_out, &data_out,
                                   &lens_out, &names_out);
    if (!dump_was_there) (void)unlink(IGC_CWD_DUMP);
    else
        vp_diag_offset(&ds, PDIAG_W_OCLOC_CWD, VISA_DIAG_NO_OFFSET,
                       "IGC wrote its vISA dump over ./%s (IGC 1.0.x writes it whenever vISA sections are asked for)",
                       IGC_CWD_DUMP);
    vx_free(ctx, source, req->source_len + 1);
    vx_free(ctx, internal, sizeof visa_internal + 1 + extra);
    visa_status st = take_outputs(ctx, &ds, n_out, data_out, lens_out, names_out, out);
    ocloc_lib.free_output(&n_out, &data_out, &lens_out, &names_out);
    if (st == VISA_OK && !out->log) {
        out->log = copy_bytes(ctx, "", 0);
        if (!out->log) st = VISA_E_NOMEM;
    }
    if (st == VISA_E_NOMEM) diag_oom(&ds);
    if (st == VISA_OK && out->status != 0) {
        char summary[256];
        log_summary(out->log, summary, sizeof summary);
        vp_diag_offset(&ds,
                       out->status == OCLOC_INVALID_DEVICE || out->status == OCLOC_INVALID_COMMAND_LINE
                           ? PDIAG_OCLOC_ARG
                           : PDIAG_OCLOC_BUILD,
                       VISA_DIAG_NO_OFFSET, "ocloc failed (%d) for device %s: %s", out->status, req->device, summary);
        st = status_of(out->status);
    }
    return st;
}

void vp_ocloc_result_free(visa_ctx *ctx, vp_ocloc_result *res) {
    if (!res) return;
    if (res->zebin) vx_free(ctx, res->zebin, res->zebin_len + 1);
    if (res->log) vx_free(ctx, res->log, res->log_len + 1);
    memset(res, 0, sizeof *res);
}
