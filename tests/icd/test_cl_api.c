/* test_cl_api.c -- the OpenCL API a host program uses, through the ICD loader, checked against the
** OpenCL 3.0 specification (issue 25): platform and device queries, contexts and queues here;
** buffers (api_buffers.c), programs and kernels (api_programs.c), launches and events
** (api_launch.c) and misuse (api_misuse.c) in their files.
**
** usage: test_cl_api [PLATFORM [DEVICE]]   (or $CLTEST_PLATFORM, $CLTEST_DEVICE)
** PLATFORM is a substring of the platform's name (default "visa": run with OCL_ICD_VENDORS naming
** the build's icd/ folder), DEVICE one of the device's name (default: every device of the
** platform).  Prints one line per failed check and "N passed, M failed"; exit 77 when no such
** platform exists or its compiler is missing.  $CLTEST_SKIP=ndrange,events leaves groups out. */
#include "cltest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_int platform_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetPlatformInfo((cl_platform_id)obj, param, size, value, ret);
}
static cl_int device_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetDeviceInfo((cl_device_id)obj, param, size, value, ret);
}
static cl_int context_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetContextInfo((cl_context)obj, param, size, value, ret);
}
static cl_int queue_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
    return clGetCommandQueueInfo((cl_command_queue)obj, param, size, value, ret);
}

static const cltest_info_param platform_params[] = {
    CLTEST_STRING_P(CL_PLATFORM_PROFILE),
    CLTEST_STRING_P(CL_PLATFORM_VERSION),
    CLTEST_FIXED_P(CL_PLATFORM_NUMERIC_VERSION, cl_version),
    CLTEST_STRING_P(CL_PLATFORM_NAME),
    CLTEST_STRING_P(CL_PLATFORM_VENDOR),
    CLTEST_STRING_P(CL_PLATFORM_EXTENSIONS),
    CLTEST_ARRAY_P(CL_PLATFORM_EXTENSIONS_WITH_VERSION, cl_name_version),
    CLTEST_FIXED_P(CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong),
    CLTEST_STRING_P(CL_PLATFORM_ICD_SUFFIX_KHR), /* cl_khr_icd, which an ICD reports */
};

/* The Device Queries table of the OpenCL 3.0 specification (core queries only). */
static const cltest_info_param device_params[] = {
    CLTEST_FIXED_P(CL_DEVICE_TYPE, cl_device_type),
    CLTEST_FIXED_P(CL_DEVICE_VENDOR_ID, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
    CLTEST_ARRAY_P(CL_DEVICE_MAX_WORK_ITEM_SIZES, size_t),
    CLTEST_FIXED_P(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_ADDRESS_BITS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
    CLTEST_STRING_P(CL_DEVICE_IL_VERSION),
    CLTEST_ARRAY_P(CL_DEVICE_ILS_WITH_VERSION, cl_name_version),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_MAX_SAMPLERS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
    CLTEST_FIXED_P(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
    CLTEST_FIXED_P(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
    CLTEST_FIXED_P(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
    CLTEST_FIXED_P(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
    CLTEST_FIXED_P(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
    CLTEST_FIXED_P(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_AVAILABLE, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
    CLTEST_FIXED_P(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
    CLTEST_FIXED_P(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
    CLTEST_FIXED_P(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
    CLTEST_FIXED_P(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
    CLTEST_STRING_P(CL_DEVICE_BUILT_IN_KERNELS),
    CLTEST_ARRAY_P(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, cl_name_version),
    CLTEST_FIXED_P(CL_DEVICE_PLATFORM, cl_platform_id),
    CLTEST_STRING_P(CL_DEVICE_NAME),
    CLTEST_STRING_P(CL_DEVICE_VENDOR),
    CLTEST_STRING_P(CL_DRIVER_VERSION),
    CLTEST_STRING_P(CL_DEVICE_PROFILE),
    CLTEST_STRING_P(CL_DEVICE_VERSION),
    CLTEST_FIXED_P(CL_DEVICE_NUMERIC_VERSION, cl_version),
    CLTEST_STRING_P(CL_DEVICE_OPENCL_C_VERSION),
    CLTEST_ARRAY_P(CL_DEVICE_OPENCL_C_ALL_VERSIONS, cl_name_version),
    CLTEST_ARRAY_P(CL_DEVICE_OPENCL_C_FEATURES, cl_name_version),
    CLTEST_STRING_P(CL_DEVICE_EXTENSIONS),
    CLTEST_ARRAY_P(CL_DEVICE_EXTENSIONS_WITH_VERSION, cl_name_version),
    CLTEST_FIXED_P(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_PARENT_DEVICE, cl_device_id),
    CLTEST_FIXED_P(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
    CLTEST_ARRAY_P(CL_DEVICE_PARTITION_PROPERTIES, cl_device_partition_property),
    CLTEST_FIXED_P(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
    CLTEST_ARRAY_P(CL_DEVICE_PARTITION_TYPE, cl_device_partition_property),
    CLTEST_FIXED_P(CL_DEVICE_REFERENCE_COUNT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
    CLTEST_FIXED_P(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
    CLTEST_FIXED_P(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
    CLTEST_FIXED_P(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
    CLTEST_FIXED_POCL_P(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities,
                        "pocl 3.1 answers a cl_uint; the type is a cl_bitfield (64 bits)"),
    CLTEST_FIXED_P(CL_DEVICE_PIPE_SUPPORT, cl_bool),
    CLTEST_FIXED_P(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
    CLTEST_STRING_P(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
};

/* "OpenCL <major>.<minor> <platform-specific information>" (the version strings' format). */
static bool version_string(const char *s, const char *prefix, unsigned *major, unsigned *minor) {
    size_t n = strlen(prefix);
    char space = 0;
    return strncmp(s, prefix, n) == 0 && sscanf(s + n, "%u.%u%c", major, minor, &space) == 3 && space == ' ';
}

/* Every name of an *_WITH_VERSION list appears in the space-separated string, and as many. */
static void names_match(const char *what, const char *list, const cl_name_version *named, size_t count) {
    size_t words = 0;
    for (const char *p = list; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        words++;
        while (*p && *p != ' ') p++;
    }
    CHECK(words == count, "%s: %zu names in the string, %zu with versions", what, words, count);
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(named[i].name);
        const char *p = list;
        bool found = false;
        while (!found && (p = strstr(p, named[i].name)) != NULL) {
            found = (p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == 0);
            p += len;
        }
        CHECK(found, "%s: %s has a version but is not in the string", what, named[i].name);
    }
}

static void platform_facts(cltest *t) {
    cltest_info_protocol("clGetPlatformInfo", platform_info, t->platform, platform_params,
                         CLTEST_COUNT(platform_params));
    char text[1024];
    unsigned major = 0, minor = 0;
    clGetPlatformInfo(t->platform, CL_PLATFORM_VERSION, sizeof text, text, NULL);
    CHECK(version_string(text, "OpenCL ", &major, &minor), "CL_PLATFORM_VERSION \"%s\"", text);
    cl_version numeric = 0;
    clGetPlatformInfo(t->platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, NULL);
    CHECK(CL_VERSION_MAJOR(numeric) == major && CL_VERSION_MINOR(numeric) == minor,
          "CL_PLATFORM_NUMERIC_VERSION %u.%u, the string says %u.%u", CL_VERSION_MAJOR(numeric),
          CL_VERSION_MINOR(numeric), major, minor);
    clGetPlatformInfo(t->platform, CL_PLATFORM_PROFILE, sizeof text, text, NULL);
    CHECK(!strcmp(text, "FULL_PROFILE") || !strcmp(text, "EMBEDDED_PROFILE"), "CL_PLATFORM_PROFILE \"%s\"", text);
    clGetPlatformInfo(t->platform, CL_PLATFORM_EXTENSIONS, sizeof text, text, NULL);
    CHECK(strstr(text, "cl_khr_icd") != NULL, "an ICD's platform reports cl_khr_icd: \"%s\"", text);
    cl_name_version named[64];
    size_t size = 0;
    clGetPlatformInfo(t->platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof named, named, &size);
    names_match("platform extensions", text, named, size / sizeof *named);
}

/* Device facts the specification fixes (minimums of the full profile, consistency of queries). */
static void device_minimums(cltest *t) {
    cl_device_id dev = t->device;
    cl_uint dims = 0, align = 0;
    size_t sizes[8] = {0}, size = 0, wg = 0;
    cl_ulong global = 0, alloc = 0, local = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL);
    CHECK(dims >= 3 && dims <= 8, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS %u (the minimum is 3)", dims);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, &size);
    CHECK(size == dims * sizeof(size_t), "CL_DEVICE_MAX_WORK_ITEM_SIZES: %zu bytes for %u dimensions", size, dims);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    CHECK(wg >= 1 && sizes[0] >= 1 && sizes[1] >= 1 && sizes[2] >= 1, "work-group size %zu, item sizes %zu %zu %zu", wg,
          sizes[0], sizes[1], sizes[2]);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    cl_ulong quarter = global / 4 < (1ull << 30) ? global / 4 : (1ull << 30);
    cl_ulong least = quarter > (32ull << 20) ? quarter : (32ull << 20);
    CHECK(alloc >= least && alloc <= global, "CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu (global %llu, minimum %llu)",
          (unsigned long long)alloc, (unsigned long long)global, (unsigned long long)least);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    CHECK(local >= 32 * 1024, "CL_DEVICE_LOCAL_MEM_SIZE %llu (the minimum is 32 KB)", (unsigned long long)local);
    clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL);
    CHECK(align >= 8 * 8 * 16, "CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits (at least long16's 1024)", align);
    cl_platform_id owner = NULL;
    cl_device_id parent = (cl_device_id)1;
    cl_bool available = CL_FALSE, compiler = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof owner, &owner, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    CHECK(owner == t->platform && parent == NULL && available && compiler,
          "platform %p (want %p), parent %p (a root device: NULL), available %u, compiler %u", (void *)owner,
          (void *)t->platform, (void *)parent, available, compiler);
    size_t multiple = 0;
    clGetDeviceInfo(dev, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple, &multiple, NULL);
    CHECK(multiple >= 1 && multiple <= wg, "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE %zu", multiple);
}

static void device_versions(cltest *t) {
    cl_device_id dev = t->device;
    char *text = cltest_device_info(dev, CL_DEVICE_VERSION, NULL);
    unsigned major = 0, minor = 0, cmajor = 0, cminor = 0;
    CHECK(text && version_string(text, "OpenCL ", &major, &minor), "CL_DEVICE_VERSION \"%s\"", text ? text : "");
    free(text);
    cl_version numeric = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NUMERIC_VERSION, sizeof numeric, &numeric, NULL);
    CHECK(CL_VERSION_MAJOR(numeric) == major && CL_VERSION_MINOR(numeric) == minor,
          "CL_DEVICE_NUMERIC_VERSION %u.%u, the string says %u.%u", CL_VERSION_MAJOR(numeric),
          CL_VERSION_MINOR(numeric), major, minor);
    text = cltest_device_info(dev, CL_DEVICE_OPENCL_C_VERSION, NULL);
    CHECK(text && version_string(text, "OpenCL C ", &cmajor, &cminor), "CL_DEVICE_OPENCL_C_VERSION \"%s\"",
          text ? text : "");
    free(text);
    size_t size = 0;
    cl_name_version *all = cltest_device_info(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &size);
    bool listed = false;
    for (size_t i = 0; all && i < size / sizeof *all; i++)
        listed |= CL_VERSION_MAJOR(all[i].version) == cmajor && CL_VERSION_MINOR(all[i].version) == cminor;
    CHECK(listed, "CL_DEVICE_OPENCL_C_ALL_VERSIONS lacks OpenCL C %u.%u", cmajor, cminor);
    free(all);
    text = cltest_device_info(dev, CL_DEVICE_PROFILE, NULL);
    CHECK(text && (!strcmp(text, "FULL_PROFILE") || !strcmp(text, "EMBEDDED_PROFILE")), "CL_DEVICE_PROFILE \"%s\"",
          text ? text : "");
    free(text);
    text = cltest_device_info(dev, CL_DEVICE_EXTENSIONS, NULL);
    cl_name_version *named = cltest_device_info(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, &size);
    if (text && named) names_match("device extensions", text, named, size / sizeof *named);
    free(named);
    free(text);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    CHECK((fp64 != 0) == cltest_has_extension(dev, "cl_khr_fp64"),
          "CL_DEVICE_DOUBLE_FP_CONFIG 0x%llx disagrees with cl_khr_fp64 in the extensions", (unsigned long long)fp64);
}

/* What visa's emulated GPUs must report (issue 25), not what any device must. */
static void visa_device_facts(cltest *t) {
    cl_device_type type = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    CHECK(type & CL_DEVICE_TYPE_GPU, "visa: an emulated GPU reports CL_DEVICE_TYPE_GPU (0x%llx)",
          (unsigned long long)type);
    char name[256] = "";
    clGetDeviceInfo(t->device, CL_DEVICE_NAME, sizeof name, name, NULL);
    CHECK(strstr(name, "mulat") != NULL, "visa: the device name says emulated: \"%s\"", name);
    CHECK(cltest_has_extension(t->device, "cl_intel_subgroups"), "visa: cl_intel_subgroups reported");
    cl_uint subgroups = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof subgroups, &subgroups, NULL);
    CHECK(subgroups >= 1, "visa: CL_DEVICE_MAX_NUM_SUB_GROUPS %u", subgroups);
    cl_command_queue_properties host = 0;
    clGetDeviceInfo(t->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, NULL);
    CHECK(host & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "visa: out-of-order queues accepted (0x%llx)",
          (unsigned long long)host);
}

void test_platform_device(cltest *t) {
    platform_facts(t);
    cltest_info_protocol("clGetDeviceInfo", device_info, t->device, device_params, CLTEST_COUNT(device_params));
    device_minimums(t);
    device_versions(t);
    if (t->is_visa) visa_device_facts(t);
    cl_uint n = 0, all = 0;
    CHECK_OK(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &all));
    cl_device_id ids[16];
    cl_device_type types = 0;
    CHECK_OK(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 16, ids, &n));
    CHECK(n == all && n >= 1, "clGetDeviceIDs: %u devices, then %u", all, n);
    for (cl_uint i = 0; i < n && i < 16; i++) {
        cl_device_type type = 0;
        clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
        types |= type;
    }
    if (!(types & CL_DEVICE_TYPE_ACCELERATOR))
        CHECK_ERR(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ACCELERATOR, 16, ids, &n), CL_DEVICE_NOT_FOUND);
    CHECK_OK(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_DEFAULT, 1, ids, NULL));
    CHECK_ERR(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 0, ids, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
    cl_int err = clGetDeviceIDs(t->platform, (cl_device_type)1 << 40, 16, ids, &n);
    CHECK_POCL("pocl 3.1 answers CL_DEVICE_NOT_FOUND: a bit no device type has is \"not a valid value\"",
               err == CL_INVALID_DEVICE_TYPE,
               "clGetDeviceIDs of device type 1 << 40: %s, expected CL_INVALID_DEVICE_TYPE", cltest_err_name(err));
    cl_uint refs = 0;
    CHECK_OK(clRetainDevice(t->device)); /* a root device: retain and release do nothing */
    CHECK_OK(clReleaseDevice(t->device));
    clGetDeviceInfo(t->device, CL_DEVICE_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CHECK(refs == 1, "a root device's CL_DEVICE_REFERENCE_COUNT is 1, not %u", refs);
}

static const cltest_info_param context_params[] = {
    CLTEST_FIXED_P(CL_CONTEXT_REFERENCE_COUNT, cl_uint),
    CLTEST_ARRAY_P(CL_CONTEXT_DEVICES, cl_device_id),
    CLTEST_ARRAY_P(CL_CONTEXT_PROPERTIES, cl_context_properties),
    CLTEST_FIXED_P(CL_CONTEXT_NUM_DEVICES, cl_uint),
};

static cl_uint context_refs(cl_context ctx) { return cltest_refs(context_info, ctx, CL_CONTEXT_REFERENCE_COUNT); }

static void CL_CALLBACK context_gone(cl_context ctx, void *user_data) {
    (void)ctx;
    ++*(int *)user_data;
}

static void CL_CALLBACK context_notify(const char *errinfo, const void *info, size_t cb, void *user_data) {
    (void)info, (void)cb, (void)user_data;
    printf("  (context notification: %s)\n", errinfo);
}

/* Contexts from a device list and from a device type: their info, properties, references and the
** destructor callback (OpenCL 3.0). */
static void contexts(cltest *t) {
    cltest_info_protocol("clGetContextInfo", context_info, t->ctx, context_params, CLTEST_COUNT(context_params));
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)t->platform, 0};
    cl_context_properties got[8] = {0};
    size_t size = 0;
    CHECK_OK(clGetContextInfo(t->ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
    /* "the values specified in the properties argument in the same order": the terminating 0 is
    ** one of them (the CTS counts it); an ICD leaving it out is accepted too. */
    CHECK((size == 3 * sizeof *got || size == 2 * sizeof *got) && got[0] == props[0] && got[1] == props[1],
          "CL_CONTEXT_PROPERTIES: %zu bytes, {0x%lx, 0x%lx}", size, (long)got[0], (long)got[1]);
    cl_uint n = 0, all = 0;
    cl_device_id dev = NULL;
    CHECK_OK(clGetContextInfo(t->ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL));
    CHECK_OK(clGetContextInfo(t->ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL));
    CHECK(n == 1 && dev == t->device, "a one-device context: %u devices, %p", n, (void *)dev);
    cl_uint before = context_refs(t->ctx);
    CHECK_OK(clRetainContext(t->ctx));
    CHECK(context_refs(t->ctx) == before + 1, "clRetainContext: %u references, then %u", before, context_refs(t->ctx));
    CHECK_OK(clReleaseContext(t->ctx));
    CHECK(context_refs(t->ctx) == before, "clReleaseContext: back to %u, not %u", before, context_refs(t->ctx));
    cl_int err;
    int gone = 0;
    cl_context typed = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, context_notify, &gone, &err);
    CHECK(err == CL_SUCCESS && typed, "clCreateContextFromType(ALL): %s", cltest_err_name(err));
    if (!typed) return;
    clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &all);
    CHECK_OK(clGetContextInfo(typed, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL));
    CHECK(n == all, "a context of CL_DEVICE_TYPE_ALL holds %u devices of the platform's %u", n, all);
    if (t->version >= 30) {
        CHECK_OK(clSetContextDestructorCallback(typed, context_gone, &gone));
        CHECK_ERR(clSetContextDestructorCallback(typed, NULL, NULL), CL_INVALID_VALUE);
    }
    CHECK_OK(clReleaseContext(typed));
    if (t->version >= 30) CHECK(gone == 1, "the context destructor callback ran %d times, not once", gone);
    cl_context dflt = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && dflt, "clCreateContextFromType(DEFAULT): %s", cltest_err_name(err));
    if (dflt) clReleaseContext(dflt);
    cl_context plain = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && plain, "clCreateContext without properties: %s", cltest_err_name(err));
    if (!plain) return;
    CHECK_OK(clGetContextInfo(plain, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
    CHECK(size == 0, "CL_CONTEXT_PROPERTIES of a context made without: %zu bytes, not 0", size);
    clReleaseContext(plain);
}

static const cltest_info_param queue_params[] = {
    CLTEST_FIXED_P(CL_QUEUE_CONTEXT, cl_context),
    CLTEST_FIXED_P(CL_QUEUE_DEVICE, cl_device_id),
    CLTEST_FIXED_P(CL_QUEUE_REFERENCE_COUNT, cl_uint),
    CLTEST_FIXED_P(CL_QUEUE_PROPERTIES, cl_command_queue_properties),
    CLTEST_ARRAY_P(CL_QUEUE_PROPERTIES_ARRAY, cl_queue_properties),
    CLTEST_FIXED_P(CL_QUEUE_DEVICE_DEFAULT, cl_command_queue),
};

static void queues(cltest *t) {
    cltest_info_protocol("clGetCommandQueueInfo", queue_info, t->queue, queue_params, CLTEST_COUNT(queue_params));
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_command_queue_properties props = 0, supported = 0;
    clGetCommandQueueInfo(t->queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    clGetCommandQueueInfo(t->queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    clGetCommandQueueInfo(t->queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    CHECK(ctx == t->ctx && dev == t->device && props == CL_QUEUE_PROFILING_ENABLE,
          "queue info: context %p, device %p, properties 0x%llx", (void *)ctx, (void *)dev, (unsigned long long)props);
    cl_queue_properties array[8] = {0};
    size_t size = 0;
    CHECK_OK(clGetCommandQueueInfo(t->queue, CL_QUEUE_PROPERTIES_ARRAY, sizeof array, array, &size));
    CHECK(size >= 2 * sizeof *array && array[0] == CL_QUEUE_PROPERTIES && array[1] == CL_QUEUE_PROFILING_ENABLE,
          "CL_QUEUE_PROPERTIES_ARRAY: %zu bytes", size);
    cl_int err;
    cl_command_queue plain = clCreateCommandQueueWithProperties(t->ctx, t->device, NULL, &err);
    CHECK(err == CL_SUCCESS && plain, "an in-order queue without properties: %s", cltest_err_name(err));
    if (plain) {
        props = 1;
        clGetCommandQueueInfo(plain, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
        CHECK_OK(clGetCommandQueueInfo(plain, CL_QUEUE_PROPERTIES_ARRAY, sizeof array, array, &size));
        CHECK(props == 0 && size == 0, "a queue without properties: 0x%llx, array of %zu bytes",
              (unsigned long long)props, size);
        cl_uint refs = cltest_refs(queue_info, plain, CL_QUEUE_REFERENCE_COUNT);
        CHECK_OK(clRetainCommandQueue(plain));
        CHECK(cltest_refs(queue_info, plain, CL_QUEUE_REFERENCE_COUNT) == refs + 1,
              "clRetainCommandQueue: not one more than %u", refs);
        CHECK_OK(clReleaseCommandQueue(plain));
        CHECK_OK(clFlush(plain));
        CHECK_OK(clFinish(plain));
        CHECK_OK(clReleaseCommandQueue(plain));
    }
    cl_command_queue old = clCreateCommandQueue(t->ctx, t->device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err == CL_SUCCESS && old, "clCreateCommandQueue (1.x): %s", cltest_err_name(err));
    if (old) clReleaseCommandQueue(old);
    /* An out-of-order queue: created when the device reports the property, refused with
    ** CL_INVALID_QUEUE_PROPERTIES when it does not (its use: api_launch.c). */
    clGetDeviceInfo(t->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported, &supported, NULL);
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(t->ctx, t->device, ooo, &err);
    if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        CHECK(err == CL_SUCCESS && q, "an out-of-order queue the device reports: %s", cltest_err_name(err));
    else
        CHECK(err == CL_INVALID_QUEUE_PROPERTIES && !q, "an out-of-order queue the device does not report: %s",
              cltest_err_name(err));
    if (q) clReleaseCommandQueue(q);
    CHECK_OK(clFlush(t->queue));
    CHECK_OK(clFinish(t->queue));
}

void test_contexts_queues(cltest *t) {
    contexts(t);
    queues(t);
}

/* The groups, in the order they run; $CLTEST_SKIP names groups not to run (a comma list), for
** getting past one that crashes an implementation. */
static const struct {
    const char *name;
    void (*run)(cltest *t);
} groups[] = {
    {"platform", test_platform_device},
    {"contexts", test_contexts_queues},
    {"buffers", test_buffers},
    {"rects", test_buffer_rects_maps},
    {"programs", test_programs},
    {"kernels", test_kernels},
    {"ndrange", test_ndrange},
    {"events", test_events},
    {"misuse", test_misuse},
};

static bool skipped_group(const char *name) {
    const char *skip = getenv("CLTEST_SKIP");
    size_t len = strlen(name);
    for (const char *p = skip; p && (p = strstr(p, name)) != NULL; p += len)
        if ((p == skip || p[-1] == ',') && (p[len] == ',' || p[len] == 0)) return true;
    return false;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    bool is_visa = false;
    cl_platform_id platform = cltest_platform(argc, argv, &is_visa);
    const char *filter = cltest_device_filter(argc, argv);
    cl_device_id devices[16];
    cl_uint n = 0;
    CHECK_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, devices, &n));
    int tested = 0;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        cltest t;
        char name[256] = "";
        clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof name, name, NULL);
        if (filter && !strstr(name, filter)) continue;
        tested++;
        /* a first build: no compiler, no test (77).  Released at once: pocl 3.1 aborts when a
        ** context that built programs goes while another context's program lives. */
        cl_program probe = NULL;
        if (cltest_open(&t, platform, devices[i], is_visa)) probe = cltest_build(&t, "kernel void k(void) {}", NULL);
        if (probe) clReleaseProgram(probe);
        for (size_t g = 0; probe && g < CLTEST_COUNT(groups); g++)
            if (!skipped_group(groups[g].name)) groups[g].run(&t);
        cltest_close(&t);
    }
    CHECK(tested > 0, "no device of the platform matches \"%s\"", filter ? filter : "");
    return cltest_report();
}
