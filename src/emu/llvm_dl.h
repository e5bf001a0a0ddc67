/* llvm_dl.h -- LLVM 19's C API for the compiled tier (jit.c), loaded at run time.
**
** libvisa does not link libLLVM: a process loads it (dlopen) at its first compilation, so the
** processes that never compile (visa fmt, a program that only parses) do not pay for loading and
** relocating it, and a program links libvisa.a statically without it (it then runs interpreted).
** Each LLVM function jit.c calls is a row of llvm_dl.def and a pointer in emu_llvm_api;
** llvm_dl_calls.h, generated from the same rows, makes each LLVM name mean its pointer, so jit.c
** is written as if it were linked.  The headers are LLVM 19's (llvm-19-dev), for the types.
*/
#ifndef VISA_EMU_LLVM_DL_H
#define VISA_EMU_LLVM_DL_H

#include <stdbool.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* whether LLVM was built with a native target: llvm-c/Target.h's condition */
#if defined(LLVM_NATIVE_TARGET) && defined(LLVM_NATIVE_ASMPRINTER)
#define EMU_LLVM_NATIVE 1
#else
#define EMU_LLVM_NATIVE 0
#endif

typedef struct emu_llvm_api {
#define LLVM_DL_FN(name) __typeof__(name) *name;
#define LLVM_DL_TARGET(member, fn) __typeof__(fn) *member;
#include "llvm_dl.def"
#undef LLVM_DL_FN
#undef LLVM_DL_TARGET
} emu_llvm_api;

/* The loaded functions: valid once emu_llvm_load() returned NULL, read-only for everyone. */
extern const emu_llvm_api *const emu_llvm;

/* Load the LLVM library (VISA_LLVM_LIB, else the one the build found) and set up its native
** target, once per process.  NULL when LLVM is ready, else why not, in a string that lives as long
** as the process.  Thread-safe. */
const char *emu_llvm_load(void);

/* A compilation begins (true) or ends (false).  The process's exit waits until none is under way:
** a background compilation (jit.c) must not run while exit() destroys LLVM's static objects. */
void emu_llvm_busy(bool begin);

#endif
