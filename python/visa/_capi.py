"""The C API of libvisa as ctypes declarations: the one place that mirrors include/visa/visa.h.

Every struct, enum value and function prototype the package uses is declared here and nowhere
else; the rest of the package goes through `lib()`.  The library is found (first hit wins):

1. $VISA_LIBRARY: the file, or a directory holding libvisa.so.0 (an in-tree build dir);
2. next to the package: its own directory, then each parent up to the install prefix, and their
   lib/ and lib64/ (`pip install --prefix=P` next to `make install PREFIX=P`);
3. ctypes.util.find_library("visa") (the dynamic linker's cache);
4. pkg-config's libdir for visa (honours PKG_CONFIG_PATH).
"""
import ctypes
import ctypes.util
import os
import subprocess
import threading

SONAME = "libvisa.so.0"

# -- enums (visa.h) ------------------------------------------------------------------------

# visa_status: only the names are needed, visa_status_str gives them; success is 0.
VISA_OK = 0

# visa_severity
SEV_NOTE, SEV_WARNING, SEV_ERROR = 0, 1, 2
SEVERITY_NAMES = {SEV_NOTE: "note", SEV_WARNING: "warning", SEV_ERROR: "error"}

# visa_arg_kind
ARG_SCALAR, ARG_BUFFER, ARG_FLOAT, ARG_INT = 0, 1, 2, 3

# flags
PRINT_STRIP_COMMENTS = 1 << 0
VERIFY_WERROR = 1 << 0

# visa_diag.offset of a diagnostic without a position
DIAG_NO_OFFSET = (1 << 64) - 1

# -- structs ---------------------------------------------------------------------------------


class Diag(ctypes.Structure):
    _fields_ = [
        ("severity", ctypes.c_int),
        ("code", ctypes.c_char_p),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_uint32),
        ("col", ctypes.c_uint32),
        ("offset", ctypes.c_uint64),
        ("message", ctypes.c_char_p),
        ("source_line", ctypes.c_void_p),  # not NUL-terminated: source_line_len bytes
        ("source_line_len", ctypes.c_size_t),
        ("src_file", ctypes.c_char_p),  # the program's source position (-g: FILE / LOC), or None
        ("src_line", ctypes.c_uint32),  # 0: none
    ]


DIAG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Diag))
WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class CtxDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("alloc", ctypes.c_void_p),
        ("alloc_ud", ctypes.c_void_p),
        ("on_diag", DIAG_FN),
        ("diag_ud", ctypes.c_void_p),
        ("max_errors", ctypes.c_uint32),
    ]


class PrintOpts(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("flags", ctypes.c_uint32)]


class VerifyOpts(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("platform", ctypes.c_int),
        ("flags", ctypes.c_uint32),
        ("source", ctypes.c_char_p),
        ("source_len", ctypes.c_size_t),
    ]


class VerifyStats(ctypes.Structure):
    _fields_ = [("errors", ctypes.c_uint32), ("warnings", ctypes.c_uint32)]


class Arg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("value", ctypes.c_uint64),
        ("buffer", ctypes.c_uint32),
        ("fvalue", ctypes.c_double),
    ]


class Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


_RUN_OPTS_V2 = [
    ("struct_size", ctypes.c_uint32),
    ("kernel", ctypes.c_char_p),
    ("platform", ctypes.c_int),
    ("groups", ctypes.c_uint32 * 3),
    ("group_size", ctypes.c_uint32 * 3),
    ("threads", ctypes.c_uint32),
    ("max_steps", ctypes.c_uint64),
    ("set_cr0", ctypes.c_bool),
    ("cr0", ctypes.c_uint32),
]


class RunOpts(ctypes.Structure):
    """visa_run_opts as released (version 2: up to cr0)."""
    _fields_ = _RUN_OPTS_V2


class RunOptsLaunch(ctypes.Structure):
    """visa_run_opts with the OpenCL launch's local_size[3], appended after version 2.

    Passed with struct_size = the end of local_size: the library then reads local_size and gives
    every later field its default, whatever else the launch version appends."""
    _fields_ = _RUN_OPTS_V2 + [("local_size", ctypes.c_uint32 * 3)]


RUN_OPTS_LAUNCH_SIZE = RunOptsLaunch.local_size.offset + RunOptsLaunch.local_size.size

# A library that understands local_size also exports the kernel-inputs query (the same change
# added both); a library without it would accept the longer struct and silently ignore the field.
LAUNCH_SYMBOLS = ("visa_kernel_input_count", "visa_kernel_get_info")


class RunStats(ctypes.Structure):
    _fields_ = [("instructions", ctypes.c_uint64), ("threads", ctypes.c_uint64)]


# -- programs (visa.h "Programs") -------------------------------------------------------------

# visa_program_input, visa_cl_arg_kind
PROGRAM_ZEBIN, PROGRAM_OPENCL_C, PROGRAM_SPIRV = 0, 1, 2
CL_ARG_BUFFER, CL_ARG_LOCAL, CL_ARG_VALUE, CL_ARG_SAMPLER, CL_ARG_IMAGE = 0, 1, 2, 3, 4
CL_ARG_KIND_NAMES = {CL_ARG_BUFFER: "buffer", CL_ARG_LOCAL: "local", CL_ARG_VALUE: "value",
                     CL_ARG_SAMPLER: "sampler", CL_ARG_IMAGE: "image"}


class ProgramOpts(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("input", ctypes.c_int),
        ("device", ctypes.c_char_p),
        ("options", ctypes.c_char_p),
    ]


class ClKernelInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("name", ctypes.c_char_p),
        ("arg_count", ctypes.c_uint32),
        ("simd_size", ctypes.c_uint32),
        ("slm_size", ctypes.c_uint32),
        ("private_size", ctypes.c_uint32),
        ("required_work_group_size", ctypes.c_uint32 * 3),
        ("grf_count", ctypes.c_uint32),
        ("has_printf", ctypes.c_bool),
    ]


class ClArgInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("type_name", ctypes.c_char_p),
        ("address_qualifier", ctypes.c_char_p),
        ("access_qualifier", ctypes.c_char_p),
        ("type_qualifiers", ctypes.c_char_p),
        ("kind", ctypes.c_int),
        ("size", ctypes.c_uint32),
        ("elem_type", ctypes.c_char_p),
        ("elem_count", ctypes.c_uint32),
    ]


class ClArg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


class ClLaunch(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("kernel", ctypes.c_char_p),
        ("work_dim", ctypes.c_uint32),
        ("global_size", ctypes.c_uint64 * 3),
        ("local_size", ctypes.c_uint64 * 3),
        ("global_offset", ctypes.c_uint64 * 3),
        ("threads", ctypes.c_uint32),
        ("checks", ctypes.c_uint32),
        ("max_steps", ctypes.c_uint64),
        ("timeout_seconds", ctypes.c_double),
        ("observer", ctypes.c_void_p),
        ("printf_out", WRITE_FN),
        ("printf_ud", ctypes.c_void_p),
    ]


_PROGRAM_PROTOTYPES = {
    "visa_program_create": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                           ctypes.POINTER(ProgramOpts), ctypes.POINTER(ctypes.c_void_p)]),
    "visa_program_destroy": (None, [ctypes.c_void_p]),
    "visa_program_build_log": (ctypes.c_char_p, [ctypes.c_void_p]),
    "visa_program_binary": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]),
    "visa_program_platform": (ctypes.c_int, [ctypes.c_void_p]),
    "visa_program_device": (ctypes.c_char_p, [ctypes.c_void_p]),
    "visa_program_kernel_count": (ctypes.c_size_t, [ctypes.c_void_p]),
    "visa_program_kernel_name": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_size_t]),
    "visa_program_kernel_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ClKernelInfo)]),
    "visa_program_kernel_arg": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                               ctypes.POINTER(ClArgInfo)]),
    "visa_program_run": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ClLaunch), ctypes.POINTER(ClArg),
                                        ctypes.c_size_t, ctypes.c_void_p]),
}

# -- prototypes ------------------------------------------------------------------------------

_P = ctypes.c_void_p  # opaque visa_ctx *, visa_module *
_PROTOTYPES = {
    "visa_version": (ctypes.c_char_p, [ctypes.POINTER(ctypes.c_uint)] * 3),
    "visa_status_str": (ctypes.c_char_p, [ctypes.c_int]),
    "visa_ctx_create": (ctypes.c_int, [ctypes.POINTER(CtxDesc), ctypes.POINTER(_P)]),
    "visa_ctx_destroy": (None, [_P]),
    "visa_platform_from_name": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "visa_platform_name": (ctypes.c_char_p, [ctypes.c_int]),
    "visa_platform_grf_bytes": (ctypes.c_uint, [ctypes.c_int]),
    "visa_module_parse_text": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(_P)]),
    "visa_module_destroy": (None, [_P]),
    "visa_module_print_to_buffer": (ctypes.c_int, [_P, ctypes.POINTER(PrintOpts),
                                                   ctypes.POINTER(ctypes.c_void_p),
                                                   ctypes.POINTER(ctypes.c_size_t)]),
    "visa_free": (None, [_P, ctypes.c_void_p, ctypes.c_size_t]),
    "visa_module_routine_count": (ctypes.c_size_t, [_P]),
    "visa_module_encode": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                                          ctypes.POINTER(ctypes.c_size_t)]),
    "visa_module_decode": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.c_int, ctypes.POINTER(_P)]),
    "visa_module_ctx": (_P, [_P]),
    "visa_module_verify": (ctypes.c_int, [_P, ctypes.POINTER(VerifyOpts),
                                          ctypes.POINTER(VerifyStats)]),
    # opts is RunOpts or RunOptsLaunch: declared as a plain pointer, passed with ctypes.byref
    "visa_module_run": (ctypes.c_int, [_P, ctypes.c_void_p, ctypes.POINTER(Arg), ctypes.c_size_t,
                                       ctypes.POINTER(Buffer), ctypes.c_size_t,
                                       ctypes.POINTER(RunStats)]),
    "visa_buffer_address": (ctypes.c_uint64, [ctypes.c_size_t]),
}


class Library:
    """The loaded libvisa with its prototypes set; `path` is the file it came from."""

    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(self.dll, name)  # AttributeError: not a libvisa we can use
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        self.has_launch = all(hasattr(self.dll, s) for s in LAUNCH_SYMBOLS)
        # programs (OpenCL C, SPIR-V, zebins) came later: optional, Program says when absent
        self.has_programs = all(hasattr(self.dll, name) for name in _PROGRAM_PROTOTYPES)
        for name, (restype, argtypes) in _PROGRAM_PROTOTYPES.items() if self.has_programs else ():
            fn = getattr(self.dll, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)


def _candidates():
    env = os.environ.get("VISA_LIBRARY")
    if env:
        yield os.path.join(env, SONAME) if os.path.isdir(env) else env
        return  # an explicit choice: do not silently fall back to another library
    # from the package's directory up to the prefix: P/lib/pythonX.Y/site-packages/visa, or
    # Debian's P/local/lib/pythonX.Y/dist-packages/visa, is six levels below P
    d = os.path.dirname(os.path.abspath(__file__))
    for _ in range(7):
        for sub in ("", "lib", "lib64"):
            yield os.path.join(d, sub, SONAME)
        d = os.path.dirname(d)
    found = ctypes.util.find_library("visa")
    if found:
        yield found
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "visa"], capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        libdir = ""
    if libdir:
        yield os.path.join(libdir, SONAME)


_lock = threading.Lock()
_lib = None


def lib():
    """The library, loaded on first use; OSError naming every place tried if it is not found."""
    global _lib
    with _lock:
        if _lib is None:
            tried = []
            for path in _candidates():
                # a bare name (find_library) is for the dynamic linker to resolve
                if os.sep in path and not os.path.exists(path):
                    tried.append(path)
                    continue
                try:
                    _lib = Library(path)
                    break
                except (OSError, AttributeError) as e:
                    tried.append(f"{path} ({e})")
            if _lib is None:
                raise OSError(
                    f"cannot find {SONAME}; set VISA_LIBRARY to it (or to its directory), or "
                    "install visa where the dynamic linker or pkg-config finds it; tried: "
                    + ("; ".join(tried) or "nothing"))
        return _lib
