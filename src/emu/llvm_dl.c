/* llvm_dl.c -- loading LLVM for the compiled tier (llvm_dl.h). */
#if VISA_HAVE_JIT
#include "llvm_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#define LLVM_DL_STR(x) #x
#define LLVM_DL_NAME(macro) LLVM_DL_STR(macro) /* LLVM_NATIVE_TARGET -> "LLVMInitializeX86Target" */

/* The library's one global state, and why it is one: a process has one dynamic loader and loads
** LLVM once for all its contexts.  It is written only inside pthread_once and read-only after,
** except the count of compilations under way, which its lock guards; LLVM (and the code compiled
** with it) stays loaded until the process ends. */
static struct {
    emu_llvm_api api;
    const char *why; /* NULL when loaded */
    char msg[160];
    /* compilations under way (emu_llvm_busy), which the process's exit waits for */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    unsigned busy;
} llvm = {.lock = PTHREAD_MUTEX_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
const emu_llvm_api *const emu_llvm = &llvm.api;

static void wait_idle(void) {
    pthread_mutex_lock(&llvm.lock);
    while (llvm.busy) pthread_cond_wait(&llvm.idle, &llvm.lock);
    pthread_mutex_unlock(&llvm.lock);
}

void emu_llvm_busy(bool begin) {
    pthread_mutex_lock(&llvm.lock);
    if (begin) llvm.busy++;
    else if (!--llvm.busy) pthread_cond_broadcast(&llvm.idle);
    pthread_mutex_unlock(&llvm.lock);
}

static void llvm_load_once(void) {
    /* AT_BASE is the dynamic loader's address, 0 in a statically linked program: there glibc's
    ** dlopen of libLLVM crashes the process */
    if (!getauxval(AT_BASE)) {
        llvm.why = "a statically linked program cannot load libLLVM";
        return;
    }
    const char *lib = getenv("VISA_LLVM_LIB");
    if (!lib || !*lib) lib = VISA_LLVM_DEFAULT;
    /* RTLD_GLOBAL: LLVM and its libraries (libgcc_s, ...) join the process's symbols as when
    ** linked; the compiled code's calls of run-time helpers are resolved there. */
    void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        snprintf(llvm.msg, sizeof llvm.msg, "cannot load LLVM %d (VISA_LLVM_LIB): %s", LLVM_VERSION_MAJOR, dlerror());
        llvm.why = llvm.msg;
        return;
    }
    const char *missing = NULL;
    void *fn;
#define LLVM_DL_LOOKUP(slot, name)                              \
    if (!missing) {                                             \
        if ((fn = dlsym(h, name))) slot = (__typeof__(slot))fn; \
        else missing = name;                                    \
    }
#define LLVM_DL_FN(name) LLVM_DL_LOOKUP(llvm.api.name, #name)
#define LLVM_DL_TARGET(member, f) LLVM_DL_LOOKUP(llvm.api.member, LLVM_DL_NAME(f))
#include "llvm_dl.def"
    unsigned major = 0, minor, patch;
    if (!missing) llvm.api.LLVMGetVersion(&major, &minor, &patch);
    if (missing || major != LLVM_VERSION_MAJOR) {
        if (missing)
            snprintf(llvm.msg, sizeof llvm.msg, "%s is not LLVM %d: it lacks %s", lib, LLVM_VERSION_MAJOR, missing);
        else snprintf(llvm.msg, sizeof llvm.msg, "%s is LLVM %u, not %d", lib, major, LLVM_VERSION_MAJOR);
        llvm.why = llvm.msg;
        dlclose(h);
        return;
    }
    /* Registered after dlopen ran LLVM's constructors, so exit() runs it before LLVM's static
    ** destructors: a compilation in a background thread (jit.c) finishes before they do. */
    atexit(wait_idle);
#if EMU_LLVM_NATIVE /* what LLVMInitializeNativeTarget and LLVMInitializeNativeAsmPrinter do */
    llvm.api.target_info();
    llvm.api.target();
    llvm.api.target_mc();
    llvm.api.asm_printer();
#else
    llvm.why = "LLVM has no native target";
#endif
}

const char *emu_llvm_load(void) {
    pthread_once(&llvm_once, llvm_load_once);
    return llvm.why;
}
#endif
