"""OpenCL programs as Intel's compiler builds them, run on the emulator (visa.h "Programs").

    import numpy as np, visa
    p = visa.Program(source=open("saxpy.cl").read(), device="pvc")
    y = np.ones(1024, np.float32)
    r = p.run("saxpy", [2.5, np.arange(1024, dtype=np.float32), y], global_size=1024, local_size=64)
    print(r.output)      # what the kernel's printf calls printed

OpenCL C and SPIR-V are compiled by IGC through libocloc (Debian intel-opencl-icd); a zebin (bytes
or a file IGC wrote with vISA sections) runs as it is.  docs/program.md says how a launch is built.
"""
import ctypes

from . import _capi
from ._capi import lib

_CHECKS = {"memcheck": 1, "initcheck": 2, "racecheck": 4, "synccheck": 8, "all": 15}

_NUMPY_OF = {  # a vISA element type (the library's elem_type) -> numpy dtype name
    "b": "int8", "ub": "uint8", "w": "int16", "uw": "uint16", "d": "int32", "ud": "uint32",
    "q": "int64", "uq": "uint64", "hf": "float16", "f": "float32", "df": "float64",
}


class Local:
    """A __local pointer argument: `size` bytes of shared local memory per work-group."""

    def __init__(self, size):
        if int(size) <= 0:
            raise ValueError("a __local argument needs a positive size")
        self.size = int(size)


def local(size):
    return Local(size)


class ProgramResult:
    """What Program.run gives back: output (printf's text), instructions, threads, diagnostics."""

    def __init__(self, output, instructions, threads, diagnostics):
        self.output, self.instructions, self.threads = output, instructions, threads
        self.diagnostics = diagnostics


class Program:
    """A program: source= (OpenCL C text), spirv= (bytes), binary= (a zebin's bytes) or path=
    (a .cl, .spv or zebin file).  device: ocloc's device name (tgllp, dg2-g10, pvc, ...) for
    source and SPIR-V; options: OpenCL build options.  Raises VisaError with IGC's build log on a
    failed build (its message and the `build_log` attribute)."""

    def __init__(self, source=None, spirv=None, binary=None, path=None, device=None, options=None):
        from . import VisaError, _Context
        if not lib().has_programs:
            raise NotImplementedError(f"{lib().path} has no program API (visa_program_create)")
        if path is not None:
            data = open(path, "rb").read()
            kind = (_capi.PROGRAM_OPENCL_C if str(path).endswith(".cl")
                    else _capi.PROGRAM_SPIRV if str(path).endswith(".spv") else _capi.PROGRAM_ZEBIN)
            name = str(path)
        else:
            given = [(source, _capi.PROGRAM_OPENCL_C), (spirv, _capi.PROGRAM_SPIRV), (binary, _capi.PROGRAM_ZEBIN)]
            given = [(d, k) for d, k in given if d is not None]
            if len(given) != 1:
                raise ValueError("give exactly one of source=, spirv=, binary= or path=")
            data, kind = given[0]
            data = data.encode() if isinstance(data, str) else bytes(data)
            name = "<program>"
        self._ctx = _Context()
        opts = _capi.ProgramOpts(ctypes.sizeof(_capi.ProgramOpts), kind,
                                 device.encode() if device else None, options.encode() if options else None)
        self._ptr = ctypes.c_void_p()
        st = lib().visa_program_create(self._ctx.ptr, name.encode(), data, len(data), ctypes.byref(opts),
                                       ctypes.byref(self._ptr))
        self.build_log = lib().visa_program_build_log(self._ptr).decode() if self._ptr else ""
        if st != _capi.VISA_OK:
            self.close()
            err = VisaError(st, self._ctx.take(), what="program")
            err.build_log = self.build_log
            raise err
        self.device = lib().visa_program_device(self._ptr).decode()
        self.platform = lib().visa_platform_name(lib().visa_program_platform(self._ptr)).decode()
        n = lib().visa_program_kernel_count(self._ptr)
        self.kernels = [lib().visa_program_kernel_name(self._ptr, i).decode() for i in range(n)]

    def close(self):
        if getattr(self, "_ptr", None):
            lib().visa_program_destroy(self._ptr)
            self._ptr = None
        if getattr(self, "_ctx", None) and self._ctx.ptr:
            lib().visa_ctx_destroy(self._ctx.ptr)
            self._ctx.ptr = None

    def __del__(self):
        self.close()

    def binary(self):
        """The zebin (IGC's, as built or read): bytes, so a program can be cached and read again."""
        n = ctypes.c_size_t()
        p = lib().visa_program_binary(self._ptr, ctypes.byref(n))
        return ctypes.string_at(p, n.value) if p else b""

    def args(self, kernel):
        """The kernel's OpenCL arguments: dicts of index, name, type, address_space, kind, size."""
        info = _capi.ClKernelInfo()
        info.struct_size = ctypes.sizeof(info)
        if lib().visa_program_kernel_info(self._ptr, kernel.encode(), ctypes.byref(info)) != _capi.VISA_OK:
            raise KeyError(f"no kernel {kernel!r} (the program has {', '.join(self.kernels)})")
        out = []
        for i in range(info.arg_count):
            a = _capi.ClArgInfo()
            lib().visa_program_kernel_arg(self._ptr, kernel.encode(), i, ctypes.byref(a))
            out.append({"index": i, "name": a.name.decode(), "type": a.type_name.decode(),
                        "address_space": a.address_qualifier.decode(),
                        "kind": _capi.CL_ARG_KIND_NAMES.get(a.kind, "?"), "size": a.size,
                        "elem_type": a.elem_type.decode(), "elem_count": a.elem_count})
        return out

    def _arg(self, i, a, info, keep):
        import numpy as np
        if info["kind"] == "buffer":
            if a is None:
                return _capi.ClArg(_capi.CL_ARG_BUFFER, None, 0)
            if not isinstance(a, np.ndarray) or not (a.flags.c_contiguous and a.flags.writeable):
                raise TypeError(f"argument {i} ({info['name']}): a writable C-contiguous numpy array or None")
            keep.append(a)
            return _capi.ClArg(_capi.CL_ARG_BUFFER, a.ctypes.data, a.nbytes)
        if info["kind"] == "local":
            if not isinstance(a, Local):
                raise TypeError(f"argument {i} ({info['name']}) is __local: give visa.local(bytes)")
            return _capi.ClArg(_capi.CL_ARG_LOCAL, None, a.size)
        if info["kind"] != "value":
            raise TypeError(f"argument {i} ({info['name']}): {info['kind']} arguments are not emulated")
        if isinstance(a, (bytes, bytearray)):
            raw = bytes(a)
        else:
            name, width = _NUMPY_OF.get(info["elem_type"]), info["elem_count"]
            dtype = np.dtype(name) if name else None
            if dtype is None:
                raise TypeError(f"argument {i} ({info['name']}) is a {info['type']}: give its bytes")
            vals = np.asarray(a, dtype=dtype).reshape(-1)
            if vals.size != width:
                raise ValueError(f"argument {i} ({info['name']}) is a {info['type']}: {width} values")
            raw = vals.tobytes().ljust(info["size"], b"\0")
        buf = ctypes.create_string_buffer(raw, len(raw))
        keep.append(buf)
        return _capi.ClArg(_capi.CL_ARG_VALUE, ctypes.addressof(buf), len(raw))

    def run(self, kernel, args, global_size, local_size=None, global_offset=None, threads=1, checks=(),
            max_steps=0):
        """Launch kernel over global_size (an int or up to three) with args in argument order: numpy
        arrays (or None) for pointers, visa.local(bytes) for __local pointers, numbers (a sequence
        for a vector) or bytes for values.  Arrays are run on in place.  checks: names from
        memcheck, initcheck, racecheck, synccheck, all.  Returns a ProgramResult; raises VisaError."""
        from . import VisaError
        infos = self.args(kernel)
        if len(args) != len(infos):
            raise ValueError(f"kernel {kernel} takes {len(infos)} arguments, given {len(args)}")
        keep = []
        cargs = (_capi.ClArg * max(len(args), 1))(*[self._arg(i, a, f, keep) for i, (a, f) in enumerate(zip(args, infos))])
        dims = lambda v: [] if v is None else ([int(v)] if isinstance(v, int) else [int(x) for x in v])
        g = dims(global_size)
        if not 1 <= len(g) <= 3:
            raise ValueError("global_size: an int or up to three ints")
        launch = _capi.ClLaunch()
        launch.struct_size = ctypes.sizeof(launch)
        launch.kernel = kernel.encode()
        launch.work_dim = len(g)
        launch.global_size[:] = g + [1] * (3 - len(g))
        launch.local_size[:] = (dims(local_size) + [1] * 3)[:3] if local_size is not None else [0, 0, 0]
        launch.global_offset[:] = (dims(global_offset) + [0] * 3)[:3]
        launch.threads = int(threads)
        launch.checks = sum(_CHECKS[c] for c in ([checks] if isinstance(checks, str) else checks))
        launch.max_steps = int(max_steps)
        out = []
        launch.printf_out = _capi.WRITE_FN(lambda ud, data, n: out.append(ctypes.string_at(data, n)) or 0)
        stats = _capi.RunStats()
        st = lib().visa_program_run(self._ptr, ctypes.byref(launch), cargs, len(args), ctypes.byref(stats))
        diags = self._ctx.take()
        if st != _capi.VISA_OK:
            raise VisaError(st, diags, what=f"run {kernel}")
        return ProgramResult(b"".join(out).decode(errors="replace"), stats.instructions, stats.threads, diags)
