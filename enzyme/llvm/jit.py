"""In-process JIT compilation with LLVM's ORC LLJIT.

LLJIT, not MCJIT: MCJIT silently jumps to address 0 (a segfault) when a
symbol is unresolved, while LLJIT reports it.  We go one step further and
check declarations ourselves first, so the error names every missing symbol
and says how to provide it.  Its linker cannot apply TLS relocations, so
thread-local variables are lowered to emulated TLS first (thread_locals.py).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import re
import sys
from collections.abc import Sequence
from typing import Any, Protocol

import llvmlite.binding as llvm

from enzyme import progress
from enzyme.errors import LinkError, UsageError
from enzyme.llvm.modules import to_text
from enzyme.llvm.parsing import parse
from enzyme.llvm.targets import host_target_machine, host_target_problem, initialize_targets
from enzyme.llvm.thread_locals import EMUTLS_RUNTIME, has_thread_locals, lower_thread_locals

_library_names = itertools.count()
# Definitions with these linkages have no symbol of their own to export: local ones,
# copies of code that lives elsewhere, and arrays like llvm.global_ctors.
_NOT_EXPORTED = {
    llvm.Linkage.internal,
    llvm.Linkage.private,
    llvm.Linkage.available_externally,
    llvm.Linkage.appending,
}
_MAX_NAMED_SYMBOLS = 10
# Defined by LLJIT itself in every library it links (the handle C++ registers destructors under).
_JIT_PROVIDED = {"__dso_handle"}


def load_library(path: str) -> None:
    """Make a shared library's symbols visible to JIT-compiled code (for the process lifetime)."""
    try:
        llvm.load_library_permanently(path)
    except RuntimeError as exc:
        raise LinkError(f"cannot load shared library {path} for the JIT: {str(exc).strip()}") from None


def _load_emutls_runtime() -> None:
    found = ctypes.util.find_library(EMUTLS_RUNTIME)
    if found is None:
        raise LinkError(f"lib{EMUTLS_RUNTIME} not found: the JIT needs its __emutls_get_address for thread-local "
                        "variables; install it: apt-get install -y libgcc-s1")
    load_library(found)


class ObjectCache(Protocol):
    """Where a JIT keeps the machine code it generated (an object image), e.g. on disk across processes."""

    def load(self) -> bytes | None: ...

    def store(self, image: bytes) -> None: ...


class JIT:
    """A module compiled to machine code in this process.

    >>> jit = JIT("define i32 @seven() {\\n  ret i32 7\\n}\\n")
    >>> jit.cfunc("seven", ctypes.c_int)()
    7

    The object owns the compiled code: keep it alive while calling addresses
    obtained from it.
    """

    def __init__(self, module: str | llvm.ModuleRef, *, libraries: Sequence[str] = (),
                 stub_unresolved: bool = False, object_cache: ObjectCache | None = None) -> None:
        initialize_targets()
        for library in libraries:
            load_library(library)
        if isinstance(module, str):
            text, mod = module, parse(module, name="<jit module>")
        else:
            text, mod = to_text(module), module
        problem = host_target_problem(mod)
        if problem is not None:
            raise UsageError(f"cannot JIT-compile module {mod.name!r}: it {problem}; the in-process JIT runs code "
                             "for this machine only (compile the sources for the host)")
        missing = unresolved_symbols(mod)
        if stub_unresolved:
            # Functions no library defines become traps (see _with_trap_stubs); variables must resolve.
            declared = {f.name for f in mod.functions if f.is_declaration}
            functions = [name for name in missing if name in declared]
            _check_resolvable([name for name in missing if name not in declared])
            if functions:
                text = _with_trap_stubs(text, mod, functions)
                mod = parse(text, name=f"{mod.name} with stubs")
        else:
            _check_resolvable(missing)
        if has_thread_locals(text):  # RuntimeDyld cannot link native TLS: emulate it
            text = lower_thread_locals(text)
            mod = parse(text, name="<jit module with emulated TLS>")
            _load_emutls_runtime()
        exports = sorted(_defined_symbols(mod))
        # A dedicated target machine: the JIT must not share one with other users.
        self._target_machine = llvm.Target.from_default_triple().create_target_machine(
            # The compilers' default CPU, not the host's: a module must compute the same
            # numbers as its native build (host FMA would contract flang's `contract` ops).
            cpu="",
            features="",
            opt=3,
            jit=True,
        )
        # Code generation makes an object image first, so a later process can link the cached image
        # instead of generating code again.
        image = object_cache.load() if object_cache is not None else None
        if image is None:
            with progress.phase(f"generated machine code for {mod.name or 'the module'}"):
                image = self._target_machine.emit_object(parse(text, name=mod.name))
            if object_cache is not None:
                object_cache.store(image)
        self._jit: Any = llvm.create_lljit_compiler(self._target_machine)
        builder = llvm.JITLibraryBuilder().add_object_img(image).add_current_process()
        for name in exports:
            builder.export_symbol(name)
        try:
            with progress.phase(f"linked the machine code of {mod.name or 'the module'} into this process"):
                self._tracker: Any = builder.link(self._jit, f"enzyme_jit_{next(_library_names)}")
        except RuntimeError as exc:
            self._jit.close()
            raise LinkError(f"JIT compilation failed: {str(exc).strip()}") from None
        self._addresses = {name: self._tracker[name] for name in exports}

    def address(self, name: str) -> int:
        """Address of a function or global variable defined by the module."""
        try:
            return self._addresses[name]
        except KeyError:
            shown = ", ".join(sorted(self._addresses)[:_MAX_NAMED_SYMBOLS]) or "none"
            raise LinkError(
                f"symbol {name!r} is not defined (with external linkage) by the JIT module; defined: {shown}"
            ) from None

    def cfunc(self, name: str, restype: Any, *argtypes: Any) -> Any:
        """A ctypes callable for function ``name`` with the given C signature."""
        return ctypes.CFUNCTYPE(restype, *argtypes)(self.address(name))

    def close(self) -> None:
        """Free the compiled code (addresses become invalid)."""
        # The library must go before the JIT session that owns it.
        tracker, jit = getattr(self, "_tracker", None), getattr(self, "_jit", None)
        self._tracker = self._jit = None
        if tracker is not None:
            tracker.close()
        if jit is not None:
            jit.close()

    def __del__(self) -> None:
        # At interpreter exit the code must outlive Python: libc's exit() still runs the destructors it
        # registered (the main thread's C++ thread_local and Rust thread_local! values, static objects).
        if not sys.is_finalizing():
            self.close()


def _defined_symbols(mod: llvm.ModuleRef) -> set[str]:
    symbols: set[str] = set()
    for value in itertools.chain(mod.functions, mod.global_variables):
        if not value.is_declaration and value.linkage not in _NOT_EXPORTED and value.name:
            symbols.add(value.name)
    return symbols


_PLAIN_NAME = re.compile(r"[-\w.$]+")


def unresolved_symbols(mod: llvm.ModuleRef) -> list[str]:
    """The external symbols ``mod`` uses that neither it nor this process (its loaded libraries) defines."""
    # Unused declarations need not resolve; drop them on a copy before looking.
    pruned = mod.clone()
    manager = llvm.create_new_module_pass_manager()
    manager.add_strip_dead_prototype_pass()
    manager.run(pruned, llvm.create_pass_builder(host_target_machine(), llvm.create_pipeline_tuning_options(0)))
    return sorted(
        value.name
        for value in itertools.chain(pruned.functions, pruned.global_variables)
        if value.is_declaration
        and not value.name.startswith("llvm.")
        and value.name not in _JIT_PROVIDED
        and value.linkage != llvm.Linkage.external_weak  # may legitimately stay null
        and llvm.address_of_symbol(value.name) is None
    )


def _check_resolvable(missing: Sequence[str]) -> None:
    """Raise LinkError naming every symbol in ``missing``."""
    if missing:
        shown = ", ".join(missing[:_MAX_NAMED_SYMBOLS])
        more = f" and {len(missing) - _MAX_NAMED_SYMBOLS} more" if len(missing) > _MAX_NAMED_SYMBOLS else ""
        raise LinkError(
            f"cannot JIT the module: unresolved symbol(s) {shown}{more}; define them in the module "
            "or pass the shared library that provides them (enzyme.compile(..., libraries=[...]))"
        )


def _with_trap_stubs(text: str, mod: llvm.ModuleRef, names: Sequence[str]) -> str:
    """``text`` with each declared function in ``names`` defined as a trap.

    The caller makes sure no stub is reached (enzyme.api refuses to call a
    function that needs one); they only let the rest of the module link.
    """
    for name in names:
        fnty = mod.get_function(name).global_value_type
        ret, *params = (str(t) for t in fnty.elements)
        if fnty.is_function_vararg:
            params.append("...")
        spelled = name if _PLAIN_NAME.fullmatch(name) else '"' + name + '"'
        definition = f"define {ret} @{spelled}({', '.join(params)}) {{\n  call void @llvm.trap()\n  unreachable\n}}"
        pattern = r"^declare [^\n]*@" + re.escape(spelled) + r"\(.*$"
        text, count = re.subn(pattern, lambda _: definition, text, count=1, flags=re.M)
        if count != 1:
            raise LinkError(f"cannot JIT the module: unresolved symbol {name} could not be replaced by a stub")
    if not re.search(r"^declare void @llvm\.trap\(\)", text, flags=re.M):
        text += "\ndeclare void @llvm.trap()\n"
    return text
