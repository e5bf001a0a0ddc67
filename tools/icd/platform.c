/* platform.c -- the platform "visa", its devices (devices.def), the run options the environment
** gives (VISA_CL_*), and the two symbols the loader looks up. */
#define _GNU_SOURCE /* sysconf(_SC_PHYS_PAGES) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "icd.h"

#define ICD_PLATFORM_NAME "visa (emulated Intel GPUs)"
#define ICD_PLATFORM_VENDOR "visa project"
#define ICD_PLATFORM_VERSION "OpenCL 3.0 visa " VISA_VERSION_STRING
#define ICD_PLATFORM_SUFFIX "VISA"
/* compute-runtime's limit of one allocation without -cl-intel-greater-than-4GB-buffer-required */
#define ICD_MAX_ALLOC ((4ull << 30) - (8u << 10))

static const icd_device_facts all_facts[] = {
#define ICD_DEVICE(id, ...) {__VA_ARGS__},
#define ICD_EXTENSION(name, cond)
#define ICD_FEATURE(name, cond)
#include "devices.def"
#undef ICD_DEVICE
#undef ICD_EXTENSION
#undef ICD_FEATURE
};
#define ICD_ALL_DEVICES (sizeof all_facts / sizeof *all_facts)

struct _cl_platform_id icd_platform = {{&icd_dispatch, ICD_PLATFORM, 1}};

/* The process's view, made once: the devices VISA_CL_DEVICE chooses and the run options. */
static struct {
    pthread_once_t once;
    struct _cl_device_id devices[ICD_ALL_DEVICES];
    size_t ndevices;
    icd_run_options options;
    atomic_uint failed_launches;
} icd_state = {.once = PTHREAD_ONCE_INIT};

static bool device_chosen(const char *list, const char *ocloc) {
    if (!list || !*list) return true;
    size_t n = strlen(ocloc);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncasecmp(p, ocloc, n)) return true;
        p += k + (p[k] == ',');
    }
    return false;
}

static uint32_t parse_checks(const char *list) {
    uint32_t bits = 0;
    if (list && *list && visa_checks_from_names(list, &bits) != VISA_OK)
        fprintf(stderr,
                "visa-opencl: VISA_CL_CHECK='%s': not a list of memcheck, initcheck, racecheck, synccheck, all "
                "(no checks)\n",
                list);
    return bits;
}

/* At exit: the launches that failed or had findings, to the file VISA_CL_REPORT names (`visa cl`
** sets it, reads the count and says it, and exits 1 when the program exited 0), else to stderr. */
static void report_failed_launches(void) {
    unsigned n = atomic_load(&icd_state.failed_launches);
    const char *path = getenv("VISA_CL_REPORT");
    FILE *f = path && *path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%u\n", n);
        if (fclose(f) == 0) return;
    }
    if (path && *path) fprintf(stderr, "visa-opencl: cannot write VISA_CL_REPORT '%s'\n", path);
    if (n) fprintf(stderr, "visa-opencl: %u kernel launch%s failed or had findings\n", n, n == 1 ? "" : "es");
}

static void init_state(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t host = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 4ull << 30;
    const char *chosen = getenv("VISA_CL_DEVICE");
    for (size_t i = 0; i < ICD_ALL_DEVICES; i++) {
        const icd_device_facts *f = &all_facts[i];
        if (!device_chosen(chosen, f->ocloc)) continue;
        cl_device_id d = &icd_state.devices[icd_state.ndevices++];
        icd_object_init(&d->obj, ICD_DEVICE);
        d->facts = f;
        uint32_t ws = f->eus_per_subslice * f->threads_per_eu * f->min_simd, pow2 = 1;
        while (pow2 * 2 <= ws) pow2 *= 2;
        d->max_work_group_size = pow2 < 1024 ? pow2 : 1024;
        /* an integrated GPU's memory is the host's; a discrete one's is bounded by it */
        d->global_mem = f->global_mem && f->global_mem < host ? f->global_mem : host;
        d->max_alloc = d->global_mem / 2 < ICD_MAX_ALLOC ? d->global_mem / 2 : ICD_MAX_ALLOC;
    }
    const char *s;
    icd_state.options.checks = parse_checks(getenv("VISA_CL_CHECK"));
    if ((s = getenv("VISA_CL_THREADS"))) icd_state.options.threads = (uint32_t)strtoul(s, NULL, 10);
    /* a GPU kernel runs as long as it runs: no step limit unless asked (VISA_CL_TIMEOUT bounds time) */
    icd_state.options.max_steps = VISA_UNLIMITED;
    if ((s = getenv("VISA_CL_MAX_STEPS"))) icd_state.options.max_steps = strtoull(s, NULL, 10);
    if ((s = getenv("VISA_CL_MAX_ERRORS"))) icd_state.options.max_errors = (uint32_t)strtoul(s, NULL, 10);
    if ((s = getenv("VISA_CL_TIMEOUT"))) icd_state.options.timeout_seconds = strtod(s, NULL);
    icd_state.options.observe = icd_observe_init();
    atexit(report_failed_launches);
}

size_t icd_device_count(void) {
    pthread_once(&icd_state.once, init_state);
    return icd_state.ndevices;
}

cl_device_id icd_device_at(size_t index) {
    pthread_once(&icd_state.once, init_state);
    return index < icd_state.ndevices ? &icd_state.devices[index] : NULL;
}

const icd_run_options *icd_options(void) {
    pthread_once(&icd_state.once, init_state);
    return &icd_state.options;
}

void icd_count_failed_launch(void) { atomic_fetch_add(&icd_state.failed_launches, 1); }

/* -- Platform ------------------------------------------------------------------------------- */

cl_int icd_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
    if ((!platforms && !num_platforms) || (platforms && !num_entries)) return CL_INVALID_VALUE;
    if (num_platforms) *num_platforms = 1;
    if (platforms) platforms[0] = &icd_platform;
    return CL_SUCCESS;
}

static const char platform_extensions[] = "cl_khr_icd cl_khr_extended_versioning";

cl_int icd_GetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                           size_t *size_ret) {
    if (platform && platform != &icd_platform) return CL_INVALID_PLATFORM;
    switch (param) {
    case CL_PLATFORM_PROFILE: return ICD_INFO_STR("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return ICD_INFO_STR(ICD_PLATFORM_VERSION);
    case CL_PLATFORM_NUMERIC_VERSION: return ICD_INFO(cl_version, CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return ICD_INFO_STR(ICD_PLATFORM_NAME);
    case CL_PLATFORM_VENDOR: return ICD_INFO_STR(ICD_PLATFORM_VENDOR);
    case CL_PLATFORM_EXTENSIONS: return ICD_INFO_STR(platform_extensions);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        cl_name_version v[2] = {{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
                                {CL_MAKE_VERSION(1, 0, 0), "cl_khr_extended_versioning"}};
        return icd_info(size, value, size_ret, v, sizeof v);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return ICD_INFO(cl_ulong, 1);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return ICD_INFO_STR(ICD_PLATFORM_SUFFIX);
    default: return CL_INVALID_VALUE;
    }
}

/* -- Devices -------------------------------------------------------------------------------- */

cl_int icd_GetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries, cl_device_id *devices,
                        cl_uint *num_devices) {
    if (platform && platform != &icd_platform) return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (type != CL_DEVICE_TYPE_ALL && (!type || (type & ~known))) return CL_INVALID_DEVICE_TYPE;
    if ((!devices && !num_devices) || (devices && !num_entries)) return CL_INVALID_VALUE;
    size_t n = icd_device_count();
    if (!(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))) n = 0;
    else if (type == CL_DEVICE_TYPE_DEFAULT && n) n = 1;
    if (num_devices) *num_devices = (cl_uint)n;
    if (!n) return CL_DEVICE_NOT_FOUND;
    for (size_t i = 0; devices && i < n && i < num_entries; i++) devices[i] = icd_device_at(i);
    return CL_SUCCESS;
}

/* The names devices.def lists for a device, of the kinds asked for, each passed to fn. */
enum { NAMES_EXTENSIONS = 1, NAMES_FEATURES = 2, NAMES_COMPILER_EXTENSIONS = 4, NAMES_COMPILER_FEATURES = 8 };
static void each_name(const icd_device_facts *f, unsigned kinds, void (*fn)(void *ud, const char *name), void *ud) {
#define ICD_DEVICE(id, ...)
#define ICD_EXTENSION(name, cond) \
    if ((kinds & NAMES_EXTENSIONS) && (cond)) fn(ud, name);
#define ICD_FEATURE(name, cond) \
    if ((kinds & NAMES_FEATURES) && (cond)) fn(ud, name);
#define ICD_COMPILER_ONLY(name, feature) \
    if (kinds & ((feature) ? NAMES_COMPILER_FEATURES : NAMES_COMPILER_EXTENSIONS)) fn(ud, name);
#include "devices.def"
#undef ICD_DEVICE
#undef ICD_EXTENSION
#undef ICD_FEATURE
}

/* A list of names: start, then sep and the name for each (no sep before the first when start is
** ""); counted first (text NULL), then written. */
typedef struct name_list {
    char *text;
    size_t len;
    const char *sep;
} name_list;

static void name_list_add(void *ud, const char *name) {
    name_list *l = ud;
    size_t sep = l->len ? strlen(l->sep) : 0;
    if (l->text) {
        memcpy(l->text + l->len, l->sep, sep);
        memcpy(l->text + l->len + sep, name, strlen(name) + 1);
    }
    l->len += sep + strlen(name);
}

static char *names_string(const icd_device_facts *f, unsigned kinds, const char *start, const char *sep) {
    name_list l = {NULL, strlen(start), sep};
    each_name(f, kinds, name_list_add, &l);
    l.text = malloc(l.len + 1);
    if (!l.text) return NULL;
    memcpy(l.text, start, strlen(start) + 1);
    l.len = strlen(start);
    each_name(f, kinds, name_list_add, &l);
    return l.text;
}

/* compute-runtime tells IGC the device's extensions, and for OpenCL C 3.0 its features, in the
** internal option -cl-ext=-all,+name,... (CompilerProductHelper::getDeviceExtensions and
** getOclCExtensions / appendExtensionsToInternalOptions; the features only when
** requiresOpenClCFeatures, i.e. -cl-std=CL3.0), with what devices.def says IGC's headers need. */
char *icd_compiler_extensions(const icd_device_facts *f, bool opencl_c_3) {
    unsigned kinds = NAMES_EXTENSIONS | NAMES_COMPILER_EXTENSIONS;
    if (opencl_c_3) kinds |= NAMES_FEATURES | NAMES_COMPILER_FEATURES;
    return names_string(f, kinds, "-cl-ext=-all", ",+");
}

/* CL_DEVICE_EXTENSIONS_WITH_VERSION (features false) or CL_DEVICE_OPENCL_C_FEATURES. */
typedef struct name_versions {
    cl_name_version v[64];
    size_t n;
    cl_version version;
} name_versions;

static void name_versions_add(void *ud, const char *name) {
    name_versions *l = ud;
    if (l->n == 64) return;
    cl_name_version *v = &l->v[l->n++];
    v->version = l->version;
    snprintf(v->name, sizeof v->name, "%s", name);
}

static cl_int device_name_versions(const icd_device_facts *f, bool features, size_t size, void *value,
                                   size_t *size_ret) {
    name_versions l = {.version = features ? CL_MAKE_VERSION(3, 0, 0) : CL_MAKE_VERSION(1, 0, 0)};
    each_name(f, features ? NAMES_FEATURES : NAMES_EXTENSIONS, name_versions_add, &l);
    return icd_info(size, value, size_ret, l.v, l.n * sizeof *l.v);
}

static cl_int device_strings(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
    const icd_device_facts *f = d->facts;
    switch (param) {
    case CL_DEVICE_NAME: return ICD_INFO_STR(f->name);
    case CL_DEVICE_VENDOR: return ICD_INFO_STR("Intel(R) Corporation");
    case CL_DRIVER_VERSION: return ICD_INFO_STR(VISA_VERSION_STRING);
    case CL_DEVICE_PROFILE: return ICD_INFO_STR("FULL_PROFILE");
    case CL_DEVICE_VERSION: return ICD_INFO_STR("OpenCL 3.0 visa");
    case CL_DEVICE_OPENCL_C_VERSION: return ICD_INFO_STR("OpenCL C 1.2 ");
    case CL_DEVICE_BUILT_IN_KERNELS: return ICD_INFO_STR("");
    case CL_DEVICE_IL_VERSION: return ICD_INFO_STR("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return ICD_INFO_STR("v2022-04-22-00");
    case CL_DEVICE_EXTENSIONS:
    case CL_DEVICE_OPENCL_C_FEATURES:
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        if (param != CL_DEVICE_EXTENSIONS)
            return device_name_versions(f, param == CL_DEVICE_OPENCL_C_FEATURES, size, value, size_ret);
        char *s = names_string(f, NAMES_EXTENSIONS, "", " ");
        if (!s) return CL_OUT_OF_HOST_MEMORY;
        cl_int rc = ICD_INFO_STR(s);
        free(s);
        return rc;
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
        const cl_name_version v[] = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
                                     {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                                     {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
                                     {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
        return icd_info(size, value, size_ret, v, sizeof v);
    }
    case CL_DEVICE_ILS_WITH_VERSION: {
        const cl_name_version v[] = {{CL_MAKE_VERSION(1, 0, 0), "SPIR-V"},
                                     {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"},
                                     {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"},
                                     {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"},
                                     {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"}};
        return icd_info(size, value, size_ret, v, sizeof v);
    }
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return icd_info(size, value, size_ret, NULL, 0);
    default: return 1;
    }
}

static cl_int device_limits(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
    const icd_device_facts *f = d->facts;
    size_t wg = d->max_work_group_size;
    switch (param) {
    case CL_DEVICE_TYPE: return ICD_INFO(cl_device_type, CL_DEVICE_TYPE_GPU);
    case CL_DEVICE_VENDOR_ID: return ICD_INFO(cl_uint, 0x8086);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return ICD_INFO(cl_uint, f->eus);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return ICD_INFO(cl_uint, 3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t s[3] = {wg, wg, wg};
        return icd_info(size, value, size_ret, s, sizeof s);
    }
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return ICD_INFO(size_t, wg);
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: return ICD_INFO(cl_uint, (cl_uint)(wg / f->min_simd));
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
        size_t s[3], n = 0;
        for (int i = 0; i < 3; i++)
            if (f->sub_group_sizes[i]) s[n++] = f->sub_group_sizes[i];
        return icd_info(size, value, size_ret, s, n * sizeof *s);
    }
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return ICD_INFO(cl_uint, f->clock_mhz);
    case CL_DEVICE_ADDRESS_BITS: return ICD_INFO(cl_uint, 64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return ICD_INFO(cl_ulong, d->max_alloc);
    case CL_DEVICE_GLOBAL_MEM_SIZE: return ICD_INFO(cl_ulong, d->global_mem);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return ICD_INFO(cl_ulong, d->max_alloc);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return ICD_INFO(cl_uint, 8);
    case CL_DEVICE_LOCAL_MEM_TYPE: return ICD_INFO(cl_device_local_mem_type, CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return ICD_INFO(cl_ulong, f->local_mem);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return ICD_INFO(size_t, 2048);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return ICD_INFO(cl_uint, 1024);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return ICD_INFO(cl_uint, 128);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return ICD_INFO(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return ICD_INFO(cl_uint, 64);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return ICD_INFO(cl_ulong, f->l3_bytes);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return ICD_INFO(size_t, 64 << 10);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return ICD_INFO(size_t, d->max_alloc);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return ICD_INFO(size_t, f->timer_resolution_ns);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return ICD_INFO(size_t, 4 << 20);
    case CL_DEVICE_PCI_BUS_INFO_KHR:
    case CL_DEVICE_ID_INTEL: return ICD_INFO(cl_uint, f->pci_id);
    case CL_DEVICE_NUM_THREADS_PER_EU_INTEL: return ICD_INFO(cl_uint, f->threads_per_eu);
    case CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL: return ICD_INFO(cl_uint, f->eus_per_subslice);
    default: return 1;
    }
}

static cl_device_fp_config fp_config(bool has) {
    return has ? CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN |
                     CL_FP_DENORM
               : 0;
}

static cl_int device_types(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
    const icd_device_facts *f = d->facts;
    switch (param) {
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return ICD_INFO(cl_uint, 16);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return ICD_INFO(cl_uint, 8);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: return ICD_INFO(cl_uint, 4);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return ICD_INFO(cl_uint, 1);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return ICD_INFO(cl_uint, f->fp64 ? 1 : 0);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return ICD_INFO(cl_uint, 8);
    case CL_DEVICE_SINGLE_FP_CONFIG:
        return ICD_INFO(cl_device_fp_config, fp_config(true) | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    case CL_DEVICE_DOUBLE_FP_CONFIG: return ICD_INFO(cl_device_fp_config, fp_config(f->fp64));
    case CL_DEVICE_HALF_FP_CONFIG: return ICD_INFO(cl_device_fp_config, fp_config(true));
    default: return 1;
    }
}

static cl_int device_capabilities(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
    switch (param) {
    case CL_DEVICE_IMAGE_SUPPORT:
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    case CL_DEVICE_PIPE_SUPPORT:
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return ICD_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return ICD_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return ICD_INFO(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        return ICD_INFO(cl_command_queue_properties,
                        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return ICD_INFO(cl_bitfield, 0);
    case CL_DEVICE_SVM_CAPABILITIES: return ICD_INFO(cl_device_svm_capabilities, 0);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        return ICD_INFO(
            cl_device_atomic_capabilities,
            CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
                CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM * (param == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) |
                CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    case CL_DEVICE_PLATFORM: return ICD_INFO(cl_platform_id, &icd_platform);
    case CL_DEVICE_PARENT_DEVICE: return ICD_INFO(cl_device_id, NULL);
    case CL_DEVICE_REFERENCE_COUNT: return ICD_INFO(cl_uint, 1);
    case CL_DEVICE_NUMERIC_VERSION: return ICD_INFO(cl_version, CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: return ICD_INFO(cl_version, CL_MAKE_VERSION(1, 2, 0));
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return ICD_INFO(cl_uint, 0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return ICD_INFO(size_t, 0);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return ICD_INFO(size_t, d->facts->min_simd);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE:
        return icd_info(size, value, size_ret, &(intptr_t){0},
                        param == CL_DEVICE_PARTITION_TYPE ? 0 : sizeof(intptr_t));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return ICD_INFO(cl_device_affinity_domain, 0);
    case CL_DEVICE_UUID_KHR:
    case CL_DRIVER_UUID_KHR: {
        cl_uchar uuid[CL_UUID_SIZE_KHR] = {'v', 'i', 's', 'a', (cl_uchar)(d - icd_device_at(0))};
        return icd_info(size, value, size_ret, uuid, sizeof uuid);
    }
    default: return 1;
    }
}

cl_int icd_GetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret) {
    if (!icd_is(device, ICD_DEVICE)) return CL_INVALID_DEVICE;
    cl_int rc = device_strings(device, param, size, value, size_ret);
    if (rc == 1) rc = device_limits(device, param, size, value, size_ret);
    if (rc == 1) rc = device_types(device, param, size, value, size_ret);
    if (rc == 1) rc = device_capabilities(device, param, size, value, size_ret);
    return rc == 1 ? CL_INVALID_VALUE : rc;
}

cl_int icd_CreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties, cl_uint num_devices,
                            cl_device_id *out_devices, cl_uint *num_devices_ret) {
    if (!icd_is(in_device, ICD_DEVICE)) return CL_INVALID_DEVICE;
    /* CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported */
    return CL_INVALID_VALUE;
}

cl_int icd_RetainDevice(cl_device_id device) { return icd_is(device, ICD_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE; }
cl_int icd_ReleaseDevice(cl_device_id device) { return icd_is(device, ICD_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE; }

cl_int icd_GetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
    if (!icd_is(device, ICD_DEVICE)) return CL_INVALID_DEVICE;
    if (!host_timestamp) return CL_INVALID_VALUE;
    *host_timestamp = icd_now_ns();
    return CL_SUCCESS;
}

/* The emulated device's clock is the host's: event profiling times are host times. */
cl_int icd_GetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp) {
    if (!icd_is(device, ICD_DEVICE)) return CL_INVALID_DEVICE;
    if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
    *device_timestamp = *host_timestamp = icd_now_ns();
    return CL_SUCCESS;
}

/* -- What the loader looks up --------------------------------------------------------------- */

void *icd_GetExtensionFunctionAddress(const char *name) {
    if (!name) return NULL;
    /* the loader finds these through here as well as by symbol (ocl-icd's _get_function_addr),
    ** so clGetPlatformInfo need not be exported */
    if (!strcmp(name, "clIcdGetPlatformIDsKHR")) return (void *)icd_GetPlatformIDs;
    if (!strcmp(name, "clGetPlatformInfo")) return (void *)icd_GetPlatformInfo;
    if (!strcmp(name, "clGetKernelSubGroupInfoKHR")) return (void *)icd_GetKernelSubGroupInfoKHR;
    return NULL;
}

void *icd_GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name) {
    if (platform != &icd_platform) return NULL;
    return icd_GetExtensionFunctionAddress(name);
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                                              cl_platform_id *platforms,
                                                                                              cl_uint *num_platforms);
__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                                              cl_platform_id *platforms,
                                                                                              cl_uint *num_platforms) {
    return icd_GetPlatformIDs(num_entries, platforms, num_platforms);
}

__attribute__((visibility("default"))) CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
    return icd_GetExtensionFunctionAddress(name);
}
