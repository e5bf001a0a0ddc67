/* icd.h -- libvisa-opencl.so, an OpenCL ICD (for Debian's ocl-icd loader) whose devices are
** emulated Intel GPUs: kernels are built by IGC and run by visa's emulator through the public
** visa_program_* API (docs/opencl.md).
**
** Every object starts with the loader's dispatch pointer (cl_khr_icd); the entry points are the
** icd_* functions (hidden: only clIcdGetPlatformIDsKHR and clGetExtensionFunctionAddress are
** exported, so nothing here interposes on libOpenCL's cl* symbols). */
#ifndef VISA_ICD_H
#define VISA_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl_icd.h>
#include <CL/cl_ext.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "visa/visa.h"

/* -- Objects --------------------------------------------------------------------------------- */

/* What an object is: a handle of another kind (or a freed one, as far as can be told) is the
** CL_INVALID_<KIND> error, not a crash. */
typedef enum icd_kind {
    ICD_PLATFORM = 0x76697331,
    ICD_DEVICE,
    ICD_CONTEXT,
    ICD_QUEUE,
    ICD_MEM,
    ICD_PROGRAM,
    ICD_KERNEL,
    ICD_EVENT,
    ICD_DEAD = 0x64656164 /* released: the kind is overwritten before the memory is freed */
} icd_kind;

typedef struct icd_object {
    cl_icd_dispatch *dispatch; /* first: the loader calls through it */
    uint32_t kind;
    atomic_uint refs;
} icd_object;

extern cl_icd_dispatch icd_dispatch;

void icd_object_init(icd_object *o, icd_kind kind);
static inline bool icd_is(const void *o, icd_kind kind) { return o && ((const icd_object *)o)->kind == (uint32_t)kind; }
static inline void icd_retain(void *o) { atomic_fetch_add(&((icd_object *)o)->refs, 1); }
/* Drops a reference; true when it was the last (the caller then frees the object). */
bool icd_unref(void *o);

/* One emulated GPU (devices.def). */
typedef struct icd_device_facts {
    const char *ocloc; /* ocloc's -device: what IGC compiles for */
    const char *name;
    uint32_t pci_id;
    uint32_t eus; /* CL_DEVICE_MAX_COMPUTE_UNITS */
    uint32_t eus_per_subslice; /* per dual-subslice from XeHP on */
    uint32_t threads_per_eu;
    uint32_t min_simd; /* the smallest SIMD width IGC compiles for */
    uint32_t sub_group_sizes[3]; /* 0: none */
    uint32_t clock_mhz;
    uint64_t local_mem; /* bytes of SLM per work-group */
    uint64_t global_mem; /* bytes */
    uint64_t l3_bytes;
    uint32_t timer_resolution_ns;
    bool fp64;
    bool int64_atomics;
    bool float_atomics;
} icd_device_facts;

struct _cl_platform_id {
    icd_object obj;
};

struct _cl_device_id {
    icd_object obj;
    const icd_device_facts *facts;
    uint32_t max_work_group_size; /* compute-runtime's formula (devices.def) */
    uint64_t global_mem, max_alloc; /* the device's, bounded by the host's memory */
};

extern struct _cl_platform_id icd_platform;
/* The internal option -cl-ext=-all,+... that tells IGC a device's extensions (and for OpenCL C
** 3.0 its features), as compute-runtime does (platform.c); NULL when out of memory. */
char *icd_compiler_extensions(const icd_device_facts *f, bool opencl_c_3);
/* The devices this process sees (VISA_CL_DEVICE may choose some). */
size_t icd_device_count(void);
cl_device_id icd_device_at(size_t index);

typedef struct icd_callback {
    struct icd_callback *next;
    void(CL_CALLBACK *fn)(void);
    void *user_data;
    cl_int type; /* events: the status it waits for */
} icd_callback;

struct _cl_context {
    icd_object obj;
    cl_uint ndevices;
    cl_device_id *devices;
    cl_context_properties *props; /* as given, with its 0 (NULL: none given) */
    size_t nprops;
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    pthread_mutex_t lock;
    icd_callback *destructors;
};

typedef struct icd_command icd_command;

struct _cl_command_queue {
    icd_object obj;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties props;
    cl_queue_properties *props_array; /* as given to ...WithProperties, with its 0 */
    size_t nprops;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    cl_event head, tail; /* commands not yet started, in order */
    unsigned pending; /* commands enqueued and not finished */
    bool stop; /* no references left: the worker ends once the list is empty */
};

struct _cl_mem {
    icd_object obj;
    cl_context context;
    cl_mem_flags flags;
    size_t size;
    uint8_t *data; /* the bytes (a sub-buffer: its parent's plus origin) */
    void *host_ptr; /* CL_MEM_USE_HOST_PTR's */
    bool own_data;
    cl_mem parent;
    size_t origin;
    cl_mem_properties *props;
    size_t nprops;
    atomic_uint map_count;
    /* the host wrote it (create with a host pointer, write, fill, copy, map for writing) or a
    ** kernel got it: from then on its bytes are not undefined to initcheck (on the root buffer) */
    atomic_bool defined;
    pthread_mutex_t lock;
    icd_callback *destructors;
};

/* A program's build for one device. */
typedef struct icd_build {
    visa_program *vp; /* NULL until built */
    visa_ctx *vctx;
    cl_build_status status;
    char *log;
    char *options;
    cl_program_binary_type binary_type;
    /* launches of one program on one device share its diagnostics: one at a time, and the
    ** diagnostics name this kernel */
    pthread_mutex_t run_lock;
    const char *running_kernel;
} icd_build;

/* The name a program's OpenCL C source has for IGC (what its -g positions' FILE ends in). */
#define ICD_PROGRAM_SOURCE_NAME "program.cl"

/* A header clCompileProgram was given, by its include name. */
typedef struct icd_header {
    char *name, *source;
} icd_header;

struct _cl_program {
    icd_object obj;
    cl_context context;
    char *source; /* OpenCL C (NULL for IL and binaries) */
    icd_header *headers; /* what its #includes may name (clCompileProgram, clLinkProgram) */
    size_t nheaders;
    uint8_t *il;
    size_t il_size;
    icd_build *builds; /* one per context device */
    atomic_uint kernels; /* kernel objects attached: CL_INVALID_OPERATION to build then */
    pthread_mutex_t lock;
    icd_callback *release_callbacks;
};

typedef struct icd_arg_value {
    bool set;
    size_t size;
    uint8_t *bytes; /* VALUE */
    cl_mem mem; /* BUFFER (NULL: a NULL pointer); not retained (the launch retains it) */
} icd_arg_value;

struct _cl_kernel {
    icd_object obj;
    cl_program program;
    char *name;
    cl_uint nargs;
    visa_cl_arg_info *arg_info; /* from the first device built */
    icd_arg_value *args;
    pthread_mutex_t lock;
};

struct _cl_event {
    icd_object obj;
    cl_context context;
    cl_command_queue queue; /* NULL for a user event */
    cl_command_type type;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    cl_int status;
    cl_ulong times[4]; /* queued, submit, start, end (ns) */
    icd_callback *callbacks;
    cl_event next; /* in the queue's list */
    icd_command *cmd;
};

/* -- Commands ------------------------------------------------------------------------------- */

/* What a queue's worker does for an event: run() returns CL_SUCCESS or the event's negative
** status; done() releases what the command holds. */
struct icd_command {
    cl_uint nwait;
    cl_event *wait;
    cl_int (*run)(icd_command *cmd);
    void (*done)(icd_command *cmd);
};

/* Checks a wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT). */
cl_int icd_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
/* Enqueues cmd (its wait list copied and retained here); *event_out, when not NULL, gets a
** reference; a blocking command waits for it: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when it
** could not run.  On error cmd->done is called. */
cl_int icd_enqueue(cl_command_queue q, cl_command_type type, icd_command *cmd, cl_uint nwait, const cl_event *wait,
                   cl_event *event_out, bool blocking);
cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int status);
void icd_event_set_status(cl_event ev, cl_int status);
cl_int icd_event_wait(cl_event ev);
void icd_event_release(cl_event ev);
cl_ulong icd_now_ns(void);

/* -- Run options (VISA_CL_* environment variables, read once) --------------------------------- */

typedef struct icd_run_options {
    uint32_t checks; /* VISA_CL_CHECK */
    uint32_t threads; /* VISA_CL_THREADS */
    uint64_t max_steps;
    double timeout_seconds;
    uint32_t max_errors; /* VISA_CL_MAX_ERRORS: diagnostics per program and device (0: 20) */
    struct obs_session *observe; /* VISA_CL_TRACE..., VISA_CL_PROFILE... (observe.c); NULL: none */
} icd_run_options;
const icd_run_options *icd_options(void);

/* observe.c: the session the environment asks for (NULL: none), its profiles printed at exit. */
struct obs_session *icd_observe_init(void);
/* One launch's observation: icd_observe_start sets launch->observer when observing. */
typedef struct icd_observing {
    struct obs_launch *launch;
    visa_observer observer;
    char *text; /* the kernel's vISA text */
} icd_observing;
void icd_observe_start(icd_observing *w, icd_build *b, cl_kernel k, visa_cl_launch *launch);
/* After the launch (its status st). */
void icd_observe_end(icd_observing *w, icd_build *b, cl_kernel k, visa_status st);
/* A check finding or a failed launch: the launches that had findings (docs/opencl.md). */
void icd_count_failed_launch(void);

/* -- Helpers -------------------------------------------------------------------------------- */

/* The param_value_size / param_value / param_value_size_ret protocol of every *Info call. */
cl_int icd_info(size_t size, void *value, size_t *size_ret, const void *src, size_t n);
#define ICD_INFO(T, v) icd_info(size, value, size_ret, &(T){v}, sizeof(T))
#define ICD_INFO_STR(s) icd_info(size, value, size_ret, (s), strlen(s) + 1)
/* *errcode_ret = err when errcode_ret is not NULL; returns NULL. */
void *icd_fail(cl_int *errcode_ret, cl_int err);
/* A copy of a 0-terminated property list (*n entries, with the 0); NULL props: NULL.  Every kind
** of property list (cl_context_properties, cl_queue_properties, cl_mem_properties) has 64-bit
** entries, signed or not. */
cl_int icd_copy_props(const cl_ulong *props, cl_ulong **out, size_t *n);
char *icd_strdup(const char *s);
/* Runs and frees a list of callbacks of type void(obj_type, void *user_data). */
#define ICD_RUN_CALLBACKS(list, obj_type, obj)                                   \
    for (icd_callback *cb_ = (list), *next_; cb_; cb_ = next_) {                 \
        next_ = cb_->next;                                                       \
        ((void(CL_CALLBACK *)(obj_type, void *))cb_->fn)((obj), cb_->user_data); \
        free(cb_);                                                               \
    }
/* clRetain*: a reference more, or err for a handle of another kind. */
static inline cl_int icd_retain_checked(void *o, icd_kind kind, cl_int err) {
    if (!icd_is(o, kind)) return err;
    icd_retain(o);
    return CL_SUCCESS;
}
/* Pushes a callback on a list (the last pushed runs first), under lock. */
cl_int icd_callback_push(icd_callback **list, pthread_mutex_t *lock, void(CL_CALLBACK *fn)(void), void *user_data);
bool icd_context_has_device(cl_context ctx, cl_device_id dev);
/* The device's index in the context (the program's build slot), -1 if not there. */
int icd_context_device_index(cl_context ctx, cl_device_id dev);
void icd_mem_release(cl_mem m);
/* initcheck: the buffer's bytes are defined from now on (on its root buffer) / whether they are. */
void icd_mem_mark_defined(cl_mem m);
bool icd_mem_defined(cl_mem m);
void icd_program_release(cl_program p);
void icd_context_release(cl_context c);
void icd_queue_release(cl_command_queue q);
/* The build a kernel launch on dev uses (NULL: not built for it). */
icd_build *icd_program_build_for(cl_program p, cl_device_id dev);
/* A kernel's facts on a device (its program built for it). */
cl_int icd_kernel_info(cl_kernel k, cl_device_id dev, visa_cl_kernel_info *out);
/* The largest work-group a kernel runs with on a device (CL_KERNEL_WORK_GROUP_SIZE). */
size_t icd_kernel_max_group(const visa_cl_kernel_info *ki, cl_device_id dev);
/* Whether the program's build options ask for uniform work-groups (OpenCL C 1.x or
** -cl-uniform-work-group-size). */
bool icd_build_uniform_groups(const icd_build *b);

/* headers.c: the list, and the directory a build's -I names (NULL when there are none or it could
** not be written), removed after the build. */
cl_int icd_headers_add(icd_header **h, size_t *n, const char *name, const char *source);
void icd_headers_free(icd_header *h, size_t n);
char *icd_headers_write(const icd_header *h, size_t n);
void icd_headers_remove(const char *dir);

/* Every entry point, declared with its dispatch member's type (entries.def). */
#define ICD_FN(name) __typeof__(*(cl_api_cl##name)0) icd_##name;
#define ICD_NONE(name)
#include "entries.def"
#undef ICD_FN
#undef ICD_NONE
cl_int icd_unavailable(void);

#endif
