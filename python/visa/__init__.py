"""Python bindings for visa, Intel's vISA toolchain (parse, print, verify, encode, emulate).

    import numpy as np, visa
    m = visa.load("examples/saxpy.visaasm")
    x = np.arange(16, dtype=np.float32); y = np.ones(16, dtype=np.float32)
    m.run(args=[x, y, 2.5, 10])        # y is updated in place: y[:10] = 2.5 * x[:10] + 1

A thin ctypes layer over libvisa.so.0 (the C API of include/visa/visa.h); see _capi.py for how
the library is found.  Errors raise VisaError carrying the library's diagnostics as data.
"""
import ctypes
import os
import weakref

from . import _capi
from ._capi import lib

__all__ = ["Diagnostic", "Module", "Program", "RunResult", "VisaError", "decode", "library_path", "load",
           "local", "parse", "platforms", "raw", "version"]

__version__ = "0.1.0"  # the Python package's; version() is the library's (a test ties them)

DEFAULT_PLATFORM = "Xe2"


def version():
    """The version of the libvisa loaded ("0.1.0")."""
    return lib().visa_version(None, None, None).decode()


def library_path():
    """The file libvisa was loaded from."""
    return lib().path


def platforms():
    """The platform names the library knows, in its order (Gen9 ... Xe3)."""
    names, i, back = [], 0, ctypes.c_int()
    while True:  # the enum is dense from 0; past its end the name no longer reads back
        n = lib().visa_platform_name(i)
        if not n or lib().visa_platform_from_name(n, ctypes.byref(back)) or back.value != i:
            return names
        names.append(n.decode())
        i += 1


class Diagnostic:
    """One diagnostic of the library (visa_diag) as data.

    severity: "note", "warning" or "error"; code (also `rule`): stable id such as "E-SYNTAX" or a
    verifier rule id; file; line, col: 1-based for text input, 0 otherwise; offset: byte offset in
    binary input, None for text input and when the diagnostic has no position; source_line: the
    input's line or None.
    """
    __slots__ = ("severity", "code", "message", "file", "line", "col", "offset", "source_line")

    def __init__(self, severity, code, message, file="<input>", line=0, col=0, offset=None,
                 source_line=None):
        self.severity, self.code, self.message = severity, code, message
        self.file, self.line, self.col, self.offset = file, line, col, offset
        self.source_line = source_line

    @property
    def rule(self):
        return self.code

    @classmethod
    def _from_c(cls, d):
        src = None
        if d.source_line:
            src = ctypes.string_at(d.source_line, d.source_line_len).decode("utf-8", "replace")
        return cls(_capi.SEVERITY_NAMES.get(d.severity, str(d.severity)),
                   d.code.decode("utf-8", "replace") if d.code else "",
                   d.message.decode("utf-8", "replace") if d.message else "",
                   d.file.decode("utf-8", "replace") if d.file else "<input>",
                   d.line, d.col,
                   None if d.line or d.offset == _capi.DIAG_NO_OFFSET else d.offset, src)

    def __str__(self):
        where = self.file
        if self.line:
            where += f":{self.line}:{self.col}"
        elif self.offset is not None:
            where += f":+0x{self.offset:x}"
        return f"{where}: {self.severity}: {self.message} [{self.code}]"

    def __repr__(self):
        return (f"Diagnostic({self.severity!r}, {self.code!r}, {self.message!r}, file={self.file!r}, "
                f"line={self.line}, col={self.col}, offset={self.offset!r})")


class VisaError(Exception):
    """A call into libvisa failed.  status: the visa_status number, status_name its name
    ("syntax error", ...); diagnostics: every Diagnostic the call reported, warnings too, in the
    library's order; errors: only the errors."""

    def __init__(self, status, diagnostics=(), what=""):
        self.status = status
        self.status_name = lib().visa_status_str(status).decode()
        self.diagnostics = list(diagnostics)
        lines = [f"{what + ': ' if what else ''}{self.status_name}"]
        lines += [str(d) for d in self.diagnostics if d.severity == "error"][:10]
        super().__init__("\n  ".join(lines))

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]


def raw(bits):
    """A scalar argument given as raw bits (little-endian, truncated to the input's size), as
    `visa run --arg 0x...` gives them: m.run(args=[raw(0x3f800000)])."""
    return _Raw(bits)


class _Raw:
    __slots__ = ("bits",)

    def __init__(self, bits):
        self.bits = int(bits) & ((1 << 64) - 1)


def _platform(p):
    if isinstance(p, int):
        return p
    out = ctypes.c_int()
    if lib().visa_platform_from_name(str(p).encode(), ctypes.byref(out)) != _capi.VISA_OK:
        raise ValueError(f"unknown platform {p!r}; known: {', '.join(platforms())}")
    return out.value


class _Context:
    """A visa_ctx whose diagnostics land in a list; one per Module (the module keeps it)."""

    def __init__(self):
        self.diags = []
        self._cb = _capi.DIAG_FN(self._on_diag)  # referenced here: the library keeps calling it
        desc = _capi.CtxDesc(ctypes.sizeof(_capi.CtxDesc), None, None, self._cb, None, 0)
        self.ptr = ctypes.c_void_p()
        st = lib().visa_ctx_create(ctypes.byref(desc), ctypes.byref(self.ptr))
        if st != _capi.VISA_OK:
            raise VisaError(st, what="visa_ctx_create")

    def _on_diag(self, ud, d):
        self.diags.append(Diagnostic._from_c(d.contents))

    def take(self):
        out, self.diags = self.diags, []
        return out


def _destroy(mod_ptr, ctx_ptr, library):
    if mod_ptr:
        library.visa_module_destroy(mod_ptr)
    if ctx_ptr:
        library.visa_ctx_destroy(ctx_ptr)


class Module:
    """A parsed or decoded vISA module.  Made by parse(), load() and decode().

    name: the input name diagnostics carry; platform: the one it was read for (the default for
    verify, encode and run); source: the text it was parsed from (None for an object);
    diagnostics: the warnings reading it gave.  One module's calls collect their diagnostics in
    one list: do not call into the same Module from several Python threads at once."""

    def __init__(self, ctx, ptr, name, platform, source, diagnostics):
        self._ctx, self._ptr = ctx, ptr
        self.name, self.platform, self.source = name, platform, source
        self.diagnostics = diagnostics
        self._finalizer = weakref.finalize(self, _destroy, ptr, ctx.ptr, lib())

    def close(self):
        """Free the module now (it is freed when collected otherwise)."""
        self._finalizer()
        self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._ptr:
            raise ValueError("module is closed")
        return self._ptr

    def __len__(self):
        """Kernels + functions in the module."""
        return lib().visa_module_routine_count(self._handle())

    def _check(self, st, what):
        diags = self._ctx.take()
        if self.source is not None:
            # run-time diagnostics carry a position but not the line: take it from the source
            lines = None
            for d in diags:
                if d.source_line is None and d.line and d.file == self.name:
                    lines = lines or self.source.splitlines()
                    if d.line <= len(lines):
                        d.source_line = lines[d.line - 1]
        if st != _capi.VISA_OK:
            raise VisaError(st, diags, what)
        return diags

    def print(self, strip_comments=False):
        """The module as IGC prints it; strip_comments drops the user's comments (IGC's
        canonical form)."""
        opts = _capi.PrintOpts(ctypes.sizeof(_capi.PrintOpts),
                               _capi.PRINT_STRIP_COMMENTS if strip_comments else 0)
        out, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = lib().visa_module_print_to_buffer(self._handle(), ctypes.byref(opts),
                                               ctypes.byref(out), ctypes.byref(n))
        self._check(st, "print")
        try:
            return ctypes.string_at(out, n.value).decode("utf-8")
        finally:
            lib().visa_free(self._ctx.ptr, out, n.value + 1)

    def __str__(self):
        return self.print()

    def encode(self, platform=None):
        """The module as a vISA 4.1 object (bytes)."""
        plat = _platform(self.platform if platform is None else platform)
        out, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = lib().visa_module_encode(self._handle(), plat, ctypes.byref(out), ctypes.byref(n))
        self._check(st, "encode")
        try:
            return ctypes.string_at(out, n.value)
        finally:
            lib().visa_free(self._ctx.ptr, out, n.value)

    def verify(self, platform=None, werror=False):
        """Check the module against the spec's rules for a platform.  Returns the diagnostics
        (warnings and notes) when there are no errors; raises VisaError (with all of them) when
        there are, or when werror and there are warnings."""
        src = self.source.encode() if self.source is not None else None
        opts = _capi.VerifyOpts(ctypes.sizeof(_capi.VerifyOpts),
                                _platform(self.platform if platform is None else platform),
                                _capi.VERIFY_WERROR if werror else 0, src, len(src or b""))
        stats = _capi.VerifyStats()
        st = lib().visa_module_verify(self._handle(), ctypes.byref(opts), ctypes.byref(stats))
        return self._check(st, "verify")

    def run(self, kernel=None, args=(), groups=None, group_size=None, threads=1, platform=None,
            max_steps=0, cr0=None, local_size=None):
        """Run a kernel on the emulator over an ND-range.

        args: one per .input in declaration order (as `visa run --arg`): a Python or numpy int
        (converted to the input's type), a float (likewise), raw(bits), or a numpy array, which
        becomes a buffer of emulated global memory whose address the input receives (further
        arrays become buffers reached by binding-table index).  Arrays are run on in place: the
        kernel's stores are in them afterwards (a non-contiguous or read-only array is copied and
        copied back).  The same array object given twice is one buffer.
        groups, group_size, local_size: an int or up to three (x, y, z), None for not given (a
        group size of one thread; one group); local_size is the OpenCL launch's work-items per
        group, given instead of group_size (needs a library with the launch API).  cr0: the initial
        %cr0 (None: the library's default).  max_steps: instructions per thread before giving up
        (0: the library's default).  Returns a RunResult; raises VisaError on run-time errors."""
        import numpy as np

        plat = _platform(self.platform if platform is None else platform)
        if local_size is not None:
            if not lib().has_launch:
                raise NotImplementedError(
                    f"local_size needs a libvisa with the OpenCL launch API ({_capi.LAUNCH_SYMBOLS[0]});"
                    f" {lib().path} (version {version()}) does not export it")
            opts = _capi.RunOptsLaunch()
            opts.struct_size = _capi.RUN_OPTS_LAUNCH_SIZE
            opts.local_size[:] = _dims(local_size, "local_size")
        else:
            opts = _capi.RunOpts()
            opts.struct_size = ctypes.sizeof(_capi.RunOpts)
        opts.kernel = kernel.encode() if kernel is not None else None
        opts.platform = plat
        opts.groups[:] = _dims(groups, "groups")
        opts.group_size[:] = _dims(group_size, "group_size")
        opts.threads = int(threads)
        opts.max_steps = int(max_steps)
        if cr0 is not None:
            opts.set_cr0, opts.cr0 = True, int(cr0)

        cargs = (_capi.Arg * max(len(args), 1))()
        arrays, work, index_of = [], [], {}  # the caller's arrays, what the library runs on
        for i, a in enumerate(args):
            c = cargs[i]
            if isinstance(a, np.ndarray):
                if id(a) not in index_of:
                    index_of[id(a)] = len(arrays)
                    arrays.append(a)
                    ok = a.flags.c_contiguous and a.flags.writeable
                    work.append(a if ok else np.ascontiguousarray(a).copy())
                c.kind, c.buffer = _capi.ARG_BUFFER, index_of[id(a)]
            elif isinstance(a, _Raw):
                c.kind, c.value = _capi.ARG_SCALAR, a.bits
            elif isinstance(a, (bool, int, np.integer)):
                c.kind, c.value = _capi.ARG_INT, int(a) & ((1 << 64) - 1)
            elif isinstance(a, (float, np.floating)):
                c.kind, c.fvalue = _capi.ARG_FLOAT, float(a)
            else:
                raise TypeError(f"argument {i}: {type(a).__name__} is not a number, raw() or a "
                                "numpy array")
        cbufs = (_capi.Buffer * max(len(work), 1))()
        for k, w in enumerate(work):
            cbufs[k].data, cbufs[k].size = w.ctypes.data, w.nbytes
        stats = _capi.RunStats()
        st = lib().visa_module_run(self._handle(), ctypes.byref(opts), cargs, len(args), cbufs,
                                   len(work), ctypes.byref(stats))
        diags = self._check(st, "run")
        for a, w in zip(arrays, work):
            if w is not a:
                a[...] = w
        return RunResult(arrays, stats.instructions, stats.threads, diags)


def _dims(v, what):
    if v is None:
        return [0, 0, 0]  # the C API's "not given"
    t = (v,) if isinstance(v, int) else tuple(v)
    if not 1 <= len(t) <= 3 or any(int(x) < 0 for x in t):
        raise ValueError(f"{what}: an int or up to three non-negative ints, not {v!r}")
    return [int(x) for x in t] + [1] * (3 - len(t))


class RunResult:
    """What run() gives back: buffers (the numpy arrays given as arguments, in the order they
    became buffers, now holding the kernel's results), instructions and threads (the library's
    run statistics: instructions executed over all threads, threads run), diagnostics."""
    __slots__ = ("buffers", "instructions", "threads", "diagnostics")

    def __init__(self, buffers, instructions, threads, diagnostics):
        self.buffers, self.instructions, self.threads = buffers, instructions, threads
        self.diagnostics = diagnostics

    @property
    def stats(self):
        return {"instructions": self.instructions, "threads": self.threads}

    def __iter__(self):
        return iter(self.buffers)

    def __getitem__(self, i):
        return self.buffers[i]

    def __len__(self):
        return len(self.buffers)

    def __repr__(self):
        return (f"RunResult({len(self.buffers)} buffers, instructions={self.instructions}, "
                f"threads={self.threads})")


def _read(ctx, make, what, name, platform, source):
    out = ctypes.c_void_p()
    st = make(out)
    diags = ctx.take()
    if st != _capi.VISA_OK:
        lib().visa_ctx_destroy(ctx.ptr)
        raise VisaError(st, diags, what)
    return Module(ctx, out, name, platform, source, diags)


def parse(text, name="<input>", platform=DEFAULT_PLATFORM):
    """Parse vISA assembly text (str or bytes); name is what diagnostics call the input."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    plat, ctx = _platform(platform), _Context()
    return _read(ctx, lambda out: lib().visa_module_parse_text(
        ctx.ptr, name.encode(), data, len(data), plat, ctypes.byref(out)),
        "parse", name, platform, data.decode("utf-8", "replace"))


def decode(data, name="<input>", platform=DEFAULT_PLATFORM):
    """Decode a vISA object (bytes)."""
    data = bytes(data)
    plat, ctx = _platform(platform), _Context()
    return _read(ctx, lambda out: lib().visa_module_decode(
        ctx.ptr, name.encode(), data, len(data), plat, ctypes.byref(out)),
        "decode", name, platform, None)


def load(path, platform=DEFAULT_PLATFORM):
    """Read a file: a vISA object (it starts with "CISA") or assembly text."""
    with open(path, "rb") as f:
        data = f.read()
    name = os.fspath(path)
    if data[:4] == b"CISA":
        return decode(data, name, platform)
    return parse(data, name, platform)


from .program import Program, ProgramResult, local  # noqa: E402  (program.py imports from here)
