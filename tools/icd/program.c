/* program.c -- programs: OpenCL C, SPIR-V or a zebin, built for each device by IGC through
** visa_program_create (libocloc); the build log is IGC's messages, the binary the zebin (so
** program caches such as pyopencl's work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* IGC 1.0 writes kernel.visaasm into the working directory while it builds: one build at a time */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct text_buf {
    char *s;
    size_t len;
} text_buf;

static void text_add(text_buf *b, const char *s) {
    size_t n = strlen(s);
    char *p = realloc(b->s, b->len + n + 1);
    if (!p) return;
    memcpy(p + b->len, s, n + 1);
    b->s = p;
    b->len += n;
}

static const char *severity_name(visa_severity s) {
    return s == VISA_SEV_ERROR ? "error" : s == VISA_SEV_WARNING ? "warning" : "note";
}

/* Diagnostics of a build (into *collect) and of a launch (to stderr, naming the kernel). */
static _Thread_local text_buf *collecting;

static void on_diag(void *ud, const visa_diag *d) {
    icd_build *b = ud;
    char line[2048];
    char where[512] = "";
    if (d->line) snprintf(where, sizeof where, "%s:%u:%u: ", d->file, d->line, d->col);
    if (collecting) {
        snprintf(line, sizeof line, "%s%s[%s]: %s\n", where, severity_name(d->severity), d->code, d->message);
        text_add(collecting, line);
        return;
    }
    flockfile(stderr);
    fprintf(stderr, "visa-opencl: kernel %s: %s%s[%s]: %s\n", b->running_kernel ? b->running_kernel : "?", where,
            severity_name(d->severity), d->code, d->message);
    if (d->source_line && d->source_line_len) fprintf(stderr, "    %.*s\n", (int)d->source_line_len, d->source_line);
    funlockfile(stderr);
}

static cl_program program_new(cl_context context) {
    cl_program p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->builds = calloc(context->ndevices, sizeof *p->builds);
    if (!p->builds) {
        free(p);
        return NULL;
    }
    icd_object_init(&p->obj, ICD_PROGRAM);
    p->context = context;
    icd_retain(context);
    pthread_mutex_init(&p->lock, NULL);
    for (cl_uint i = 0; i < context->ndevices; i++) {
        p->builds[i].status = CL_BUILD_NONE;
        p->builds[i].binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
        pthread_mutex_init(&p->builds[i].run_lock, NULL);
    }
    return p;
}

static void build_clear(icd_build *b) {
    visa_program_destroy(b->vp);
    b->vp = NULL;
    free(b->log);
    b->log = NULL;
    free(b->options);
    b->options = NULL;
}

/* The visa context of a build: diagnostics go to on_diag with the build as its data. */
static cl_int build_ctx(icd_build *b) {
    if (b->vctx) return CL_SUCCESS;
    visa_ctx_desc desc = {sizeof desc, NULL, NULL, on_diag, b, icd_options()->max_errors};
    return visa_ctx_create(&desc, &b->vctx) == VISA_OK ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* The build log is what IGC says: ocloc's own status line after it ("Build succeeded.") is not
** (compute-runtime's log of a clean build is empty, and pyopencl warns about any other). */
static const char *ocloc_status_dropped(const char *log) {
    static const char status[] = "Build succeeded.";
    const char *p = log;
    while (*p == ' ' || *p == '\n') p++;
    if (strncmp(p, status, sizeof status - 1)) return log;
    for (p += sizeof status - 1; *p == ' ' || *p == '\n'; p++) continue;
    return *p ? log : "";
}

static cl_int build_one(cl_program p, cl_uint index, const char *options) {
    icd_build *b = &p->builds[index];
    cl_device_id dev = p->context->devices[index];
    if (!p->source && !p->il) { /* a binary: made when the program was; the options it is built with
                                   are kept (CL_PROGRAM_BUILD_OPTIONS; pyopencl's cache gives the ones
                                   the binary was built with) */
        if (options && *options) {
            free(b->options);
            b->options = icd_strdup(options);
        }
        b->status = b->vp ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        return b->vp ? CL_SUCCESS : CL_INVALID_BINARY;
    }
    build_clear(b);
    b->options = icd_strdup(options ? options : "");
    cl_int rc = build_ctx(b);
    if (rc) return rc;
    /* the headers' directory goes first: what the options name comes after it */
    char *headers = icd_headers_write(p->headers, p->nheaders);
    text_buf opts = {0};
    text_add(&opts, "");
    if (headers) text_add(&opts, "-I "), text_add(&opts, headers), text_add(&opts, " ");
    text_add(&opts, options ? options : "");
    char *extensions = icd_compiler_extensions(dev->facts, options && strstr(options, "-cl-std=CL3."));
    visa_program_opts o = {sizeof o, p->source ? VISA_PROGRAM_OPENCL_C : VISA_PROGRAM_SPIRV, dev->facts->ocloc, opts.s,
                           extensions};
    text_buf diags = {0};
    pthread_mutex_lock(&build_lock);
    collecting = &diags;
    const void *data = p->source ? (const void *)p->source : p->il;
    size_t len = p->source ? strlen(p->source) : p->il_size;
    visa_status st =
        visa_program_create(b->vctx, p->source ? ICD_PROGRAM_SOURCE_NAME : "program.spv", data, len, &o, &b->vp);
    collecting = NULL;
    pthread_mutex_unlock(&build_lock);
    icd_headers_remove(headers);
    free(headers);
    free(opts.s);
    free(extensions);
    const char *log = b->vp ? visa_program_build_log(b->vp) : "";
    b->log = icd_strdup(*log || !diags.s ? ocloc_status_dropped(log) : diags.s);
    free(diags.s);
    if (st == VISA_OK) {
        b->status = CL_BUILD_SUCCESS;
        b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
        return CL_SUCCESS;
    }
    visa_program_destroy(b->vp);
    b->vp = NULL;
    b->status = CL_BUILD_ERROR;
    if (st == VISA_E_UNSUPPORTED) return CL_COMPILER_NOT_AVAILABLE;
    /* IGC's front end (opencl-clang) rejects an option it does not take with this message: the
    ** options are invalid, CL_INVALID_BUILD_OPTIONS (clBuildProgram), not a failed build; IGC
    ** knows which options it takes (the specification's and its -cl-intel-* ones) */
    return strstr(b->log ? b->log : "", "Unrecognized build options") ? CL_INVALID_BUILD_OPTIONS
                                                                      : CL_BUILD_PROGRAM_FAILURE;
}

cl_program icd_CreateProgramWithSource(cl_context context, cl_uint count, const char **strings, const size_t *lengths,
                                       cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!count || !strings) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    text_buf src = {0};
    text_add(&src, "");
    for (cl_uint i = 0; i < count; i++) {
        if (!strings[i]) {
            free(src.s);
            return icd_fail(errcode_ret, CL_INVALID_VALUE);
        }
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        char *piece = malloc(n + 1);
        if (!piece) break;
        memcpy(piece, strings[i], n);
        piece[n] = 0;
        text_add(&src, piece);
        free(piece);
    }
    cl_program p = src.s ? program_new(context) : NULL;
    if (!p) {
        free(src.s);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    p->source = src.s;
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return p;
}

cl_program icd_CreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    /* a SPIR-V module starts with its magic number, 0x07230203 */
    if (!il || length < 20 || *(const uint32_t *)il != 0x07230203u) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    cl_program p = program_new(context);
    if (p) p->il = malloc(length);
    if (!p || !p->il) {
        if (p) icd_program_release(p);
        return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    memcpy(p->il, il, length);
    p->il_size = length;
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return p;
}

/* A binary for device index i: a zebin, which names its own device. */
static cl_int binary_one(cl_program p, cl_uint i, const unsigned char *bin, size_t len) {
    icd_build *b = &p->builds[i];
    cl_int rc = build_ctx(b);
    if (rc) return rc;
    visa_program_opts o = {sizeof o, VISA_PROGRAM_ZEBIN, NULL, NULL, NULL};
    text_buf diags = {0};
    collecting = &diags;
    visa_status st = visa_program_create(b->vctx, "program.zebin", bin, len, &o, &b->vp);
    collecting = NULL;
    b->log = icd_strdup(diags.s ? diags.s : "");
    free(diags.s);
    visa_platform want;
    if (st == VISA_OK && visa_platform_from_name(p->context->devices[i]->facts->ocloc, &want) == VISA_OK &&
        want != visa_program_platform(b->vp))
        st = VISA_E_BINARY; /* built for another GPU */
    if (st != VISA_OK) {
        visa_program_destroy(b->vp);
        b->vp = NULL;
        return CL_INVALID_BINARY;
    }
    b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    b->options = icd_strdup(visa_program_build_options(b->vp));
    return CL_SUCCESS;
}

cl_program icd_CreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                       const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                                       cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!num_devices || !device_list || !lengths || !binaries) return icd_fail(errcode_ret, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!icd_is(device_list[i], ICD_DEVICE) || !icd_context_has_device(context, device_list[i]))
            return icd_fail(errcode_ret, CL_INVALID_DEVICE);
        if (!lengths[i] || !binaries[i]) {
            if (binary_status) binary_status[i] = CL_INVALID_VALUE;
            return icd_fail(errcode_ret, CL_INVALID_VALUE);
        }
    }
    cl_program p = program_new(context);
    if (!p) return icd_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    cl_int worst = CL_SUCCESS;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_int rc = binary_one(p, (cl_uint)icd_context_device_index(context, device_list[i]), binaries[i], lengths[i]);
        if (binary_status) binary_status[i] = rc;
        if (rc && !worst) worst = rc;
    }
    if (worst) {
        icd_program_release(p);
        return icd_fail(errcode_ret, worst);
    }
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return p;
}

cl_int icd_RetainProgram(cl_program p) { return icd_retain_checked(p, ICD_PROGRAM, CL_INVALID_PROGRAM); }

void icd_program_release(cl_program p) {
    if (!icd_unref(p)) return;
    ICD_RUN_CALLBACKS(p->release_callbacks, cl_program, p)
    for (cl_uint i = 0; i < p->context->ndevices; i++) {
        build_clear(&p->builds[i]);
        visa_ctx_destroy(p->builds[i].vctx);
        pthread_mutex_destroy(&p->builds[i].run_lock);
    }
    free(p->builds);
    icd_headers_free(p->headers, p->nheaders);
    free(p->source);
    free(p->il);
    pthread_mutex_destroy(&p->lock);
    icd_context_release(p->context);
    free(p);
}

cl_int icd_ReleaseProgram(cl_program p) {
    return icd_is(p, ICD_PROGRAM) ? (icd_program_release(p), CL_SUCCESS) : CL_INVALID_PROGRAM;
}

cl_int icd_SetProgramReleaseCallback(cl_program p, void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    if (!pfn_notify) return CL_INVALID_VALUE;
    return icd_callback_push(&p->release_callbacks, &p->lock, (void(CL_CALLBACK *)(void))pfn_notify, user_data);
}

/* The devices a build call names (all of the context's when none): a flag per context device. */
static cl_int chosen_devices(cl_program p, cl_uint n, const cl_device_id *list, bool *chosen) {
    if ((n && !list) || (!n && list)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < p->context->ndevices; i++) chosen[i] = !n;
    for (cl_uint i = 0; i < n; i++) {
        int k = icd_is(list[i], ICD_DEVICE) ? icd_context_device_index(p->context, list[i]) : -1;
        if (k < 0) return CL_INVALID_DEVICE;
        chosen[k] = true;
    }
    return CL_SUCCESS;
}

cl_int icd_BuildProgram(cl_program p, cl_uint n, const cl_device_id *list, const char *options,
                        void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    if (!pfn_notify && user_data) return CL_INVALID_VALUE;
    bool chosen[64] = {0};
    if (p->context->ndevices > 64) return CL_OUT_OF_RESOURCES;
    cl_int rc = chosen_devices(p, n, list, chosen);
    if (rc) return rc;
    if (atomic_load(&p->kernels)) return CL_INVALID_OPERATION;
    cl_int worst = CL_SUCCESS;
    for (cl_uint i = 0; i < p->context->ndevices; i++) {
        if (!chosen[i]) continue;
        rc = build_one(p, i, options);
        if (rc && !worst) worst = rc;
    }
    if (pfn_notify) pfn_notify(p, user_data);
    return worst;
}

static void mark_compiled(cl_program p, const bool *chosen, const char *options, cl_program_binary_type type) {
    for (cl_uint i = 0; i < p->context->ndevices; i++) {
        if (!chosen[i]) continue;
        icd_build *b = &p->builds[i];
        build_clear(b);
        b->options = icd_strdup(options ? options : "");
        b->log = icd_strdup("");
        b->status = CL_BUILD_SUCCESS;
        b->binary_type = type;
    }
}

/* Compiling keeps the source, its options and headers: IGC builds whole programs, so the build
** happens when the compiled programs are linked (a compile error shows there, as
** CL_LINK_PROGRAM_FAILURE with IGC's log). */
cl_int icd_CompileProgram(cl_program p, cl_uint n, const cl_device_id *list, const char *options,
                          cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
                          void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    if (!pfn_notify && user_data) return CL_INVALID_VALUE;
    if ((num_input_headers && (!input_headers || !header_include_names)) ||
        (!num_input_headers && (input_headers || header_include_names)))
        return CL_INVALID_VALUE;
    bool chosen[64] = {0};
    if (p->context->ndevices > 64) return CL_OUT_OF_RESOURCES;
    cl_int rc = chosen_devices(p, n, list, chosen);
    if (rc) return rc;
    if (atomic_load(&p->kernels) || !p->source) return CL_INVALID_OPERATION;
    icd_header *h = NULL;
    size_t nh = 0;
    for (cl_uint i = 0; i < num_input_headers && !rc; i++) {
        if (!icd_is(input_headers[i], ICD_PROGRAM) || !input_headers[i]->source || !header_include_names[i])
            rc = CL_INVALID_VALUE;
        else rc = icd_headers_add(&h, &nh, header_include_names[i], input_headers[i]->source);
    }
    if (rc) {
        icd_headers_free(h, nh);
        return rc;
    }
    icd_headers_free(p->headers, p->nheaders);
    p->headers = h;
    p->nheaders = nh;
    mark_compiled(p, chosen, options, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    if (pfn_notify) pfn_notify(p, user_data);
    return CL_SUCCESS;
}

/* The compiled programs' sources, one after another, and their headers, into out. */
static cl_int gather_inputs(cl_program out, cl_uint n, const cl_program *in, text_buf *src, text_buf *opts) {
    for (cl_uint i = 0; i < n; i++) {
        if (!icd_is(in[i], ICD_PROGRAM) || in[i]->context != out->context) return CL_INVALID_PROGRAM;
        const icd_build *b = &in[i]->builds[0];
        if (!in[i]->source || (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                               b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
            return CL_INVALID_OPERATION;
        text_add(src, in[i]->source);
        text_add(src, "\n");
        if (!i && b->options) text_add(opts, b->options);
        for (size_t k = 0; k < in[i]->nheaders; k++)
            if (icd_headers_add(&out->headers, &out->nheaders, in[i]->headers[k].name, in[i]->headers[k].source))
                return CL_OUT_OF_HOST_MEMORY;
    }
    return src->s && opts->s ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Linking compiled programs: their sources are built as one program, with the compile options of
** the first and then the link options.  -create-library links nothing yet: the result is compiled
** sources, as its inputs were. */
cl_program icd_LinkProgram(cl_context context, cl_uint n, const cl_device_id *list, const char *options,
                           cl_uint num_input_programs, const cl_program *input_programs,
                           void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret) {
    if (!icd_is(context, ICD_CONTEXT)) return icd_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!num_input_programs || !input_programs || (!pfn_notify && user_data))
        return icd_fail(errcode_ret, CL_INVALID_VALUE);
    text_buf src = {0}, opts = {0};
    text_add(&src, "");
    text_add(&opts, "");
    cl_program p = program_new(context);
    cl_int rc = p ? gather_inputs(p, num_input_programs, input_programs, &src, &opts) : CL_OUT_OF_HOST_MEMORY;
    bool library = options && strstr(options, "-create-library");
    if (!rc) {
        p->source = src.s;
        src.s = NULL;
        text_add(&opts, " ");
        text_add(&opts, options ? options : "");
        bool chosen[64] = {0};
        if (library && context->ndevices > 64) rc = CL_OUT_OF_RESOURCES;
        else if (library && !(rc = chosen_devices(p, n, list, chosen)))
            mark_compiled(p, chosen, opts.s, CL_PROGRAM_BINARY_TYPE_LIBRARY);
        else if (!library) { rc = icd_BuildProgram(p, n, list, opts.s, NULL, NULL); }
    }
    free(src.s);
    free(opts.s);
    if (rc == CL_INVALID_PROGRAM || rc == CL_INVALID_OPERATION || rc == CL_OUT_OF_HOST_MEMORY) {
        if (p) icd_program_release(p);
        return icd_fail(errcode_ret, rc);
    }
    if (pfn_notify) pfn_notify(p, user_data);
    if (errcode_ret) *errcode_ret = rc == CL_BUILD_PROGRAM_FAILURE ? CL_LINK_PROGRAM_FAILURE : rc;
    return p;
}

icd_build *icd_program_build_for(cl_program p, cl_device_id dev) {
    int i = icd_context_device_index(p->context, dev);
    return i >= 0 && p->builds[i].vp ? &p->builds[i] : NULL;
}

/* The options the zebin records it was built with (IGC's .misc.buildOptions, which
** compute-runtime too takes a binary's options from) decide, else those given to the build. */
bool icd_build_uniform_groups(const icd_build *b) {
    const char *o = b->vp ? visa_program_build_options(b->vp) : "";
    if (!*o) o = b->options ? b->options : "";
    if (strstr(o, "-cl-uniform-work-group-size")) return true;
    return !strstr(o, "-cl-std=CL2.") && !strstr(o, "-cl-std=CL3.");
}

/* The program's kernel names, "a;b" (from the first device built), or NULL when none is built. */
static const visa_program *built_program(cl_program p) {
    for (cl_uint i = 0; i < p->context->ndevices; i++)
        if (p->builds[i].vp && p->builds[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) return p->builds[i].vp;
    return NULL;
}

static cl_int kernel_names(const visa_program *vp, size_t size, void *value, size_t *size_ret) {
    text_buf names = {0};
    text_add(&names, "");
    for (size_t i = 0; i < visa_program_kernel_count(vp); i++) {
        if (i) text_add(&names, ";");
        text_add(&names, visa_program_kernel_name(vp, i));
    }
    if (!names.s) return CL_OUT_OF_HOST_MEMORY;
    cl_int rc = ICD_INFO_STR(names.s);
    free(names.s);
    return rc;
}

/* CL_PROGRAM_BINARY_SIZES and CL_PROGRAM_BINARIES: each device's zebin (0 bytes where none). */
static cl_int binaries(cl_program p, bool sizes, size_t size, void *value, size_t *size_ret) {
    cl_uint n = p->context->ndevices;
    size_t need = n * (sizes ? sizeof(size_t) : sizeof(unsigned char *));
    if (size_ret) *size_ret = need;
    if (!value) return CL_SUCCESS;
    if (size < need) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        size_t len = 0;
        const void *bin = p->builds[i].vp ? visa_program_binary(p->builds[i].vp, &len) : NULL;
        if (sizes) ((size_t *)value)[i] = bin ? len : 0;
        else if (((unsigned char **)value)[i] && bin) memcpy(((unsigned char **)value)[i], bin, len);
    }
    return CL_SUCCESS;
}

cl_int icd_GetProgramInfo(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    const visa_program *vp = built_program(p);
    switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return ICD_INFO(cl_uint, atomic_load(&p->obj.refs));
    case CL_PROGRAM_CONTEXT: return ICD_INFO(cl_context, p->context);
    case CL_PROGRAM_NUM_DEVICES: return ICD_INFO(cl_uint, p->context->ndevices);
    case CL_PROGRAM_DEVICES:
        return icd_info(size, value, size_ret, p->context->devices, p->context->ndevices * sizeof(cl_device_id));
    case CL_PROGRAM_SOURCE: return ICD_INFO_STR(p->source ? p->source : "");
    case CL_PROGRAM_IL: return icd_info(size, value, size_ret, p->il, p->il ? p->il_size : 0);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES: return binaries(p, param == CL_PROGRAM_BINARY_SIZES, size, value, size_ret);
    case CL_PROGRAM_NUM_KERNELS:
        if (!vp) return CL_INVALID_PROGRAM_EXECUTABLE;
        return ICD_INFO(size_t, visa_program_kernel_count(vp));
    case CL_PROGRAM_KERNEL_NAMES:
        if (!vp) return CL_INVALID_PROGRAM_EXECUTABLE;
        return kernel_names(vp, size, value, size_ret);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return ICD_INFO(cl_bool, CL_FALSE);
    default: return CL_INVALID_VALUE;
    }
}

cl_int icd_GetProgramBuildInfo(cl_program p, cl_device_id device, cl_program_build_info param, size_t size, void *value,
                               size_t *size_ret) {
    if (!icd_is(p, ICD_PROGRAM)) return CL_INVALID_PROGRAM;
    int i = icd_is(device, ICD_DEVICE) ? icd_context_device_index(p->context, device) : -1;
    if (i < 0) return CL_INVALID_DEVICE;
    const icd_build *b = &p->builds[i];
    switch (param) {
    case CL_PROGRAM_BUILD_STATUS: return ICD_INFO(cl_build_status, b->status);
    case CL_PROGRAM_BUILD_OPTIONS: return ICD_INFO_STR(b->options ? b->options : "");
    case CL_PROGRAM_BUILD_LOG: return ICD_INFO_STR(b->log ? b->log : "");
    case CL_PROGRAM_BINARY_TYPE: return ICD_INFO(cl_program_binary_type, b->binary_type);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return ICD_INFO(size_t, 0);
    default: return CL_INVALID_VALUE;
    }
}
