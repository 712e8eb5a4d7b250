"""``enzyme.compile``: sources to one linked module, JIT-compiled, with typed callables.

>>> import enzyme
>>> lib = enzyme.compile("define double @sq(double %x) {\\n  %y = fmul double %x, %x\\n  ret double %y\\n}\\n")
>>> lib.sq(3.0)
9.0

Linked modules and differentiated modules are cached (see :mod:`enzyme.api.cache`),
so compiling the same sources again, in this process or another, skips the
compilers and the AD transform.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import re
import threading
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import llvm
from ..errors import EnzymeWarning, UsageError
from ..ir.debugloc import source_language
from . import building, cache, linking
from .signature import Signature, array_address, check_array, check_scalar, pointee_dtypes, signature_of

PathLike = str | os.PathLike[str]
# Calls the driver differentiates; a module with any needs the AD transform even to run its primal code.
_REQUEST = re.compile(r"@[\"\w.$]*__enzyme_(autodiff|fwddiff|augmentfwd|reverse|batch)")
# Compiled modules shared by every Library with the same contents: key -> JIT.
_jits: dict[str, llvm.JIT] = {}
_jit_lock = threading.Lock()


def _is_ir_text(source: object) -> bool:
    return isinstance(source, str) and "\n" in source and ("define " in source or "declare " in source)


def compile(
    sources: PathLike | Sequence[PathLike],
    *,
    flags: Sequence[str] = (),
    opt_level: int = 2,
    include_dirs: Sequence[PathLike] = (),
    defines: Sequence[str] = (),
    debug: bool = False,
    libraries: Sequence[PathLike] = (),
    library_dirs: Sequence[PathLike] = (),
) -> Library:
    """Compile C/C++/Fortran/Rust sources, ``.ll``/``.bc`` files or IR text into one JIT-able :class:`Library`.

    ``sources`` is one source or a list (a Cargo package's directory or
    ``Cargo.toml`` is one source: see :mod:`enzyme.toolchain.cargo`); a ``str`` that contains ``define``
    or ``declare`` and a newline is taken as LLVM IR text.  The linked module
    is cached (see :mod:`enzyme.api.building`) and reused while the sources,
    every file the compilers read, the options, the compilers and pyenzyme
    itself are unchanged.  CUDA and HIP sources are refused: device code
    cannot be JIT-compiled into this process.

    Sources are compiled with line tables (a refusal names the source line);
    ``debug=True`` gives full debug information.

    ``flags`` with ``-fopenmp`` compile OpenMP code and load clang's OpenMP
    runtime (libomp) for it.  ``libraries`` are existing libraries the code calls into: shared or
    static library paths, or names as the linker takes them (``"m"``,
    ``"-lfoo"``, searched in ``library_dirs`` and then the system's path).
    A symbol no library defines is reported here (a warning naming it and
    the functions that need it); calling or differentiating one of those
    functions raises LinkError, the others work.

    >>> lib = compile("define double @twice(double %x) {\\n  %y = fadd double %x, %x\\n  ret double %y\\n}\\n")
    >>> lib.twice(1.5)
    3.0
    """
    from .. import pipeline, toolchain

    given: list[PathLike] = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    if not given:
        raise UsageError("enzyme.compile: no sources given")
    items: list[Path | str] = [str(s) if _is_ir_text(s) else toolchain.source_path(Path(s)) for s in given]
    paths = [item for item in items if isinstance(item, Path)]
    for path in paths:
        problem = toolchain.missing_source_message(path)
        if problem:
            raise UsageError(f"enzyme.compile: {problem}")
    languages = frozenset(toolchain.language_of(p) for p in paths) | ({"ir"} if len(paths) < len(items) else set())
    building.refuse_device_code(paths)
    # Line tables always: a refusal then names the source line (JIT-ed code ships nowhere, so they cost nothing).
    options = pipeline.CompileOptions(opt_level=opt_level, debug=debug, line_tables=True,
                                      include_dirs=tuple(map(Path, include_dirs)), defines=tuple(defines),
                                      flags=tuple(flags))
    if toolchain.uses_openmp(flags):  # -fopenmp code calls LLVM's OpenMP runtime
        libraries = [*libraries, toolchain.openmp_runtime()]
    user_libraries = linking.resolve_libraries(libraries, library_dirs)
    bitcode = building.linked_bitcode(items, options)
    name = ", ".join(str(p.name) for p in paths) or "<IR text>"
    library = Library(bitcode, languages, name=name, libraries=user_libraries)
    library.warn_unresolved()
    return library


class Library:
    """A linked module: its functions are attributes (``lib.f``) or items (``lib["_QMmPf"]``).

    Differentiation through :func:`enzyme.autodiff` links a small generated
    wrapper into a copy of the module, runs the AD transform and JITs the
    result; those compiled modules are cached by content.
    """

    def __init__(self, bitcode: bytes, languages: Iterable[str] = (), *, name: str = "<module>",
                 libraries: Sequence[str] = ()) -> None:
        self.bitcode = bitcode
        self.languages = frozenset(languages)
        self.name = name
        self.libraries = tuple(libraries)  # shared libraries the JIT loads (enzyme.api.linking)
        self._unresolved: dict[str, list[str]] | None = None
        self._extras: list[tuple[str, str]] = []  # IR linked after the module (custom rules)
        self._ir: Any = None
        self._read_only: dict[str, tuple[bool, ...]] | None = None
        self._functions: dict[str, CFunction] = {}
        self._primal: llvm.JIT | None = None
        self.keepalive: list[Any] = []  # ctypes callbacks of Python custom rules
        self.process_local = False  # code refers to this process's memory: never cache it on disk

    # ------------------------------------------------------------- contents
    @property
    def content_key(self) -> str:
        """A hash of everything linked into the module (changes when rules are added)."""
        return cache.cache_key(hashlib.sha256(self.bitcode).digest(), *(t for pair in self._extras for t in pair))

    def ir_module(self) -> Any:
        """The module in pyenzyme's IR model (parsed once)."""
        if self._ir is None:
            from ..ir import parse_module

            module = self._linked() if self._extras else llvm.parse(self.bitcode, name=self.name)
            self._ir = parse_module(llvm.to_text(module))
        return self._ir

    def _read_only_arguments(self) -> dict[str, tuple[bool, ...]]:
        """Per function, the arguments it provably never writes through (read-only arrays may go there)."""
        if self._read_only is None:
            module = self._linked() if self._extras else llvm.parse(self.bitcode, name=self.name)
            self._read_only = llvm.read_only_arguments(module)
        return self._read_only

    def names(self) -> list[str]:
        """Functions defined with external linkage: the ones Python can call and differentiate."""
        return sorted(f.name for f in self.ir_module().functions if _callable(f))

    def function(self, name: str) -> CFunction:
        """The callable for function ``name`` (its IR name, e.g. a mangled Fortran name)."""
        fn = self._functions.get(name)
        if fn is None:
            ir = self.ir_module()
            f = ir.get_function(name)
            if f is None or f.is_declaration:
                close = [n for n in self.names() if name.lower() in n.lower()][:5]
                hint = f"; did you mean {', '.join(close)}?" if close else f"; defined: {', '.join(self.names()[:10])}"
                raise AttributeError(f"{self.name} defines no function {name!r}{hint}")
            if not _callable(f):
                raise UsageError(f"@{name} in {self.name} has internal linkage (static); make it extern to call "
                                 "or differentiate it from Python")
            fn = self._functions[name] = CFunction(
                self, signature_of(f, pointee_dtypes(ir, f), self._read_only_arguments().get(name, ()),
                                   fortran=(source_language(f) or "").startswith("DW_LANG_Fortran")))
        return fn

    def __getattr__(self, name: str) -> CFunction:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.function(name)

    def __getitem__(self, name: str) -> CFunction:
        return self.function(name)

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *(n for n in self.names() if n.isidentifier())]

    def __repr__(self) -> str:
        return f"<enzyme.Library {self.name}>"

    # ------------------------------------------------------------ compiling
    @property
    def jit_libraries(self) -> list[str]:
        from ..toolchain import jit_libraries

        return [*jit_libraries(self.languages - {"ir"} or {"c"}), *self.libraries]

    def unresolved(self) -> dict[str, list[str]]:
        """Per defined function, the symbols it needs that neither the module nor a loaded library defines."""
        if self._unresolved is None:
            for path in self.jit_libraries:
                llvm.load_library(path)
            module = self._linked() if self._extras else llvm.parse(self.bitcode, name=self.name)
            # Enzyme's entry points and markers are replaced by the AD transform before any JIT sees them.
            missing = [s for s in llvm.unresolved_symbols(module) if not s.startswith(("__enzyme_", "enzyme_"))]
            self._unresolved = linking.functions_needing(self.ir_module(), missing) if missing else {}
        return self._unresolved

    def warn_unresolved(self) -> None:
        needs = self.unresolved()
        if needs:
            symbols = sorted({s for found in needs.values() for s in found})
            users = sorted(needs)
            warnings.warn(f"{self.name}: no library defines {', '.join(symbols[:10])}"
                          f"{' ...' if len(symbols) > 10 else ''}; {', '.join(users[:10])}"
                          f"{' ...' if len(users) > 10 else ''} cannot be called or differentiated (pass the "
                          "library with enzyme.compile(..., libraries=[...]))", EnzymeWarning, stacklevel=3)

    def check_resolved(self, function: str) -> None:
        """LinkError when ``function`` needs a symbol no library defines."""
        symbols = self.unresolved().get(function)
        if symbols:
            raise linking.refusal(function, symbols, self.name)

    def add_ir(self, name: str, text: str) -> None:
        """Link IR ``text`` into the module for later compilations (custom rules use it)."""
        self._extras.append((name, text))
        self._primal = None
        self._ir = None
        self._read_only = None
        self._unresolved = None
        for fn in self._functions.values():  # derivatives compiled before the change are stale
            fn.plans.clear()
            fn.fast_calls.clear()
            fn._call = None

    def _linked(self, extra: Sequence[tuple[str, str]] = ()) -> llvm.ModuleRef:
        return llvm.link([(self.name, self.bitcode), *self._extras, *extra])

    def compiled(self, wrapper: str = "", *, label: str = "") -> llvm.JIT:
        """The module plus ``wrapper`` IR, through the AD transform when it has requests, JIT-compiled.

        Results are cached in memory (per process) and on disk (as bitcode).
        """
        from .. import pipeline

        key = cache.cache_key("compiled", self.content_key, wrapper)
        # Machine code depends on the libraries too: a symbol none defines is a trap stub in it.
        jit_key = cache.cache_key(key, *self.libraries)
        with _jit_lock:
            jit = _jits.get(jit_key)
            if jit is not None:
                return jit
            blob = None if self.process_local else cache.load(key)
            if blob is not None:
                module = llvm.parse(blob, name=f"cached {label or self.name}")
            else:
                module = self._linked([("pyenzyme wrapper", wrapper)] if wrapper else [])
                text = llvm.to_text(module)
                if _REQUEST.search(text):
                    module = pipeline.transform_module(module, name=label or self.name)
                if not self.process_local:
                    cache.store(key, llvm.to_bitcode(module))
            objects = None if self.process_local else cache.DiskEntry(cache.cache_key("object", jit_key,
                                                                                      platform.machine()))
            jit = _jits[jit_key] = llvm.JIT(module, libraries=self.jit_libraries, stub_unresolved=True,
                                            object_cache=objects)
            return jit

    def primal_address(self, name: str) -> int:
        if self._primal is None:
            self._primal = self.compiled(label=self.name)
        return self._primal.address(name)


def _callable(f: Any) -> bool:
    prefix = f" {f.prefix} "
    return not f.is_declaration and not any(k in prefix for k in (" internal ", " private ", " available_externally "))


class CFunction:
    """A compiled function called with numpy arrays (pointer parameters) and numbers (value parameters).

    Arguments are checked against the signature: a wrong count, dtype or a
    non-contiguous array raises a TypeError/ValueError naming the parameter.
    """

    def __init__(self, library: Library, signature: Signature) -> None:
        self.library = library
        self.signature = signature
        self.name = signature.name
        self._call: Any = None
        self.plans: dict[Any, Any] = {}  # differentiation plans (enzyme.api.plans), by request
        # autodiff's calls by (mode, return activity, argument types): repeated calls skip all planning.
        self.fast_calls: dict[tuple[Any, ...], Any] = {}

    def check_count(self, n: int, what: str = "arguments") -> None:
        expected = len(self.signature.params)
        if n != expected:
            raise _count_error(self.name, expected, n, what)

    def __call__(self, *args: Any) -> Any:
        self.check_count(len(args))
        if self._call is None:
            self.library.check_resolved(self.name)
            sig = self.signature
            prototype = ctypes.CFUNCTYPE(sig.ret_ctype, *(p.ctype for p in sig.params))
            self._call = prototype(self.library.primal_address(self.name))
        name = self.name
        return self._call(*[array_address(check_array(p, a, name)) if p.kind == "pointer" else
                            check_scalar(p, a, name) for p, a in zip(self.signature.params, args)])

    def __repr__(self) -> str:
        return f"<enzyme.CFunction {self.name}: {self.signature.ir_function_type}>"


def _count_error(name: str, expected: int, got: int, what: str) -> Exception:
    from .errors import ArgumentValueError

    return ArgumentValueError(f"{name} takes {expected} {what} but {got} were given")
