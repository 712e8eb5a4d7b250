"""The steps behind the ``enzyme`` commands, composed from the LLVM and toolchain boundaries.

``compile_sources``: sources -> bitcode per file -> one linked module (``..._with_dependencies``:
and every file the compilers read).
``transform_module``: preopt -> our IR -> differentiate -> print -> verify -> O3.
``write_object``: a module optimized and compiled to a host object by one clang run.
``write_module`` / ``atomic_output``: outputs appear whole or not at all.
"""
from __future__ import annotations

import contextlib
import gc
import glob
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from enzyme import llvm, progress, toolchain
from enzyme.errors import CompileError, EnzymeWarning, IRError, UsageError, VerifyError
from enzyme.runtime_bodies import with_runtime_bodies

if TYPE_CHECKING:
    from enzyme.ir import Module

PathLike = str | os.PathLike[str]
MODULE_SUFFIXES = (".bc", ".ll")
_TEMP_SUFFIX = ".enzyme-tmp"


@dataclass(frozen=True)
class CompileOptions:
    """How ``enzyme compile`` builds each source."""

    opt_level: int = 2
    debug: bool = False
    line_tables: bool = False  # see toolchain.CompileRequest
    include_dirs: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    strip_debug: bool = False


@dataclass(frozen=True)
class TransformOptions:
    """How ``enzyme opt`` treats a module around differentiation."""

    preopt: bool = True
    postopt_level: int = 3  # 0 = no post-optimization
    # Text -> text step between preopt and verification; tests substitute it.
    transform: Callable[[str], str] | None = field(default=None, compare=False)


def check_module_output(output: PathLike) -> Path:
    """``output`` if its suffix says .bc or .ll, else UsageError."""
    output = Path(output)
    if output.suffix not in MODULE_SUFFIXES:
        raise UsageError(f"output {output} must end in .bc (bitcode) or .ll (textual IR)")
    return output


def compile_sources(sources: Sequence[PathLike], options: CompileOptions = CompileOptions()) -> llvm.ModuleRef:
    """Compile every source to bitcode and link them into one verified module.

    IR and bitcode inputs are linked as they are.  Sources are compiled in
    order, sharing one Fortran module directory, so put Fortran modules
    before the files that ``use`` them.
    """
    return compile_sources_with_dependencies(sources, options)[0]


def compile_sources_with_dependencies(
    sources: Sequence[PathLike], options: CompileOptions = CompileOptions()
) -> tuple[llvm.ModuleRef, toolchain.Depfile]:
    """:func:`compile_sources`, and every file the compiles read (absolute paths) with the environment
    variables they depend on: what a cache of the result must check."""
    if not sources:
        raise UsageError("no source files given")
    paths = [toolchain.source_path(Path(s)) for s in sources]
    # Check every input before compiling any: a typo should not cost a build.
    languages = [toolchain.language_of(path) for path in paths]
    for path in paths:
        problem = toolchain.missing_source_message(path)
        if problem:
            raise UsageError(problem)
    files: dict[Path, None] = {}
    environment: dict[str, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="enzyme-compile-") as scratch:
        scratch_dir = Path(scratch)
        inputs: list[tuple[str, bytes]] = []
        for index, (path, language) in enumerate(zip(paths, languages)):
            if language == "ir":
                files[toolchain.absolute(path)] = None
                inputs.append((str(path), path.read_bytes()))
                continue
            depfile = scratch_dir / f"{index}-{path.name}.d"
            bitcode = toolchain.compile_to_bitcode(
                path,
                scratch_dir / f"{index}-{path.name}.bc",
                opt_level=options.opt_level,
                debug=options.debug,
                line_tables=options.line_tables,
                flags=options.flags,
                include_dirs=options.include_dirs,
                defines=options.defines,
                module_dir=scratch_dir / "fortran-modules",
                depfile=depfile,
            )
            inputs.append((str(path), bitcode.read_bytes()))
            found = toolchain.read_depfile(depfile)
            # Fortran modules written by earlier sources of this build are made from those sources.
            scratch_names = {scratch_dir, scratch_dir.resolve()}
            files.update(dict.fromkeys(f for f in map(toolchain.absolute, found.prerequisites)
                                       if scratch_names.isdisjoint(f.parents)))
            environment.update(found.environment)
        with progress.phase(f"linked {len(inputs)} module(s)"):
            module = llvm.link(inputs)
    if options.strip_debug:
        llvm.strip_debug(module)
    llvm.verify(module, name="linked module")
    return module, toolchain.Depfile(tuple(files), environment)


def _parse_output(text: str, *, name: str) -> llvm.ModuleRef:
    """The differentiated module; in CUDA device code the derivative's math calls libdevice's functions
    (linked when PTX is made), AMDGPU code gets its stack in address space 5 (see enzyme.device_libraries)."""
    from enzyme import device_libraries

    if device_libraries.is_nvptx_text(text):
        text = device_libraries.retarget_math(text, device_libraries.libdevice_names())
    elif device_libraries.is_amdgpu_text(text):
        text = device_libraries.private_allocas(device_libraries.retarget_amdgpu_math(text, device_libraries.ocml_names()))
    return llvm.parse(text, name=name)


def _with_field_tags(module: llvm.ModuleRef, name: str) -> llvm.ModuleRef:
    """Without TBAA (an -O0 build), the integer fields of C/C++ structs get access tags saying so before the
    pre-AD pipeline folds away the struct GEPs that tell them (enzyme.driver.field_tags)."""
    text = llvm.to_text(module)
    if "!tbaa" in text or not any(k in text for k in ("%struct.", "%class.", '%"struct.', '%"class.')):
        return module
    from enzyme.driver.field_tags import tag_integer_fields

    return _rewritten(module, text, name, tag_integer_fields)


def _with_variadic_buffers(module: llvm.ModuleRef, name: str) -> llvm.ModuleRef:
    """Variadic functions that read their ``...`` with ``va_start`` get their variadic arguments through a buffer
    each call site fills, so the values read are visible in the IR (enzyme.driver.variadic_calls)."""
    if not llvm.declares_function(module, "llvm.va_start"):
        return module
    from enzyme.driver.variadic_calls import expand_variadic_functions

    return _rewritten(module, llvm.to_text(module), name, expand_variadic_functions)


def _rewritten(module: llvm.ModuleRef, text: str, name: str, rewrite: Callable[[Module], object]) -> llvm.ModuleRef:
    """``module`` (printed as ``text``) rewritten in our IR model by ``rewrite``, verified; ``module`` itself
    where ``rewrite`` changed nothing (returned a false value)."""
    from enzyme.ir import parse_module, print_module

    with collector_paused():
        ours = parse_module(text)
        if not rewrite(ours):
            return module
        rewritten = llvm.parse(print_module(ours), name=name)
    llvm.verify(rewritten, name=name)
    return rewritten


def _through_enzyme_ir(text: str) -> str:
    """Import into our IR model, run every differentiation request, print back."""
    from enzyme.driver import differentiate_module
    from enzyme.ir import parse_module, print_module

    with collector_paused():
        module = parse_module(text)
        differentiate_module(module)
        return print_module(module)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block, for the import-differentiate-print step.

    The IR is one large graph of objects that stays alive until the end, and every full collection
    walks all of it: that made the differentiation of large modules grow faster than their size
    (25-40% of its time on benchmarks/bench_build_scaling.py).  What the step leaves is collected
    once the collector resumes.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def transform_module(
    module: llvm.ModuleRef, options: TransformOptions = TransformOptions(), *, name: str = "<module>"
) -> llvm.ModuleRef:
    """The ``enzyme opt`` pipeline; returns a new, verified module (``module`` is preoptimized in place).

    With ``postopt_level=0`` the derivatives are left unoptimized: :func:`write_object` optimizes and
    compiles them in one clang run (what ``enzyme build`` and the ``enzyme-cc`` link do)."""
    llvm.verify(module, name=name)
    module = with_runtime_bodies(module, name=name)
    for fn in llvm.keep_registered_calls(module):
        warnings.warn(
            f"@{fn} has a registered derivative or an Enzyme annotation but is not marked noinline where it is "
            f"defined: an optimizing frontend may have inlined calls to it there, and inlined copies are "
            f"differentiated as code, not with the rule; declare it __attribute__((noinline))",
            EnzymeWarning, stacklevel=2)
    if options.preopt:  # (without it the input reaches the differentiation as it is)
        module = _with_variadic_buffers(module, name)
        module = _with_field_tags(module, name)
        with progress.phase(f"optimized {name} before differentiation"):
            llvm.preopt(module)
    transform = options.transform or _through_enzyme_ir
    with progress.phase(f"differentiated {name}"):
        produced = transform(llvm.to_text(module))
    try:
        result = _parse_output(produced, name=f"pyenzyme output for {name}")
        llvm.verify(result, name=f"pyenzyme output for {name}")
    except IRError as exc:
        # The input verified, so invalid output is our bug, not the user's.
        raise VerifyError(f"internal error: pyenzyme produced invalid IR ({exc}); please report this") from exc
    if options.postopt_level == 0:
        return result
    with progress.phase(f"optimized the derivatives of {name} at -O{options.postopt_level}"):
        return _optimized(result, lambda: _parse_output(produced, name=f"pyenzyme output for {name}"),
                          options.postopt_level, name=name)


def _optimized(result: llvm.ModuleRef, again: Callable[[], llvm.ModuleRef], level: int, *,
               name: str) -> llvm.ModuleRef:
    """``result`` optimized at ``level`` in place and verified; ``again()`` makes a fresh copy of the module
    for a second try without the SLP vectorizer."""
    llvm.optimize(result, level)
    try:
        llvm.verify(result, name=f"optimized pyenzyme output for {name}")
        return result
    except IRError as exc:
        # LLVM 22's SLP vectorizer can put a use before its definition in derivative code (seen on shuffles of
        # bitcast vectors) although the module it was given verified: optimize that module again without it.
        warnings.warn(f"{name}: LLVM's SLP vectorizer produced invalid IR ({str(exc)[:200]}); optimized "
                      "again without it", EnzymeWarning, stacklevel=3)
    result = again()
    llvm.optimize(result, level, slp=False)
    try:
        llvm.verify(result, name=f"optimized pyenzyme output for {name}")
    except IRError as exc:
        raise VerifyError(f"internal error: LLVM's O{level} pipeline turned the verified derivative "
                          f"module into invalid IR ({exc}); build at -O0 or please report this") from exc
    return result


def write_object(module: llvm.ModuleRef, output: PathLike, opt_level: int, *, name: str = "<module>") -> Path:
    """A host object at ``output`` from ``module`` optimized at ``opt_level`` (``module`` is left as it is).

    One clang-22 run optimizes and compiles (clang's LLVM is faster than llvmlite's at both, see
    ``toolchain.optimize_ir_object``), checking the optimized IR.  Should that run fail (LLVM 22's SLP
    vectorizer can break derivative code, see :func:`transform_module`), the module is optimized here as
    ``enzyme opt`` does it, without the SLP vectorizer where it broke the module, and only compiled by clang.
    """
    output = Path(output)
    bitcode = output.with_name(output.name + ".unoptimized.bc")
    data = llvm.to_bitcode(module)
    try:
        bitcode.write_bytes(data)
        if opt_level == 0:
            return toolchain.compile_ir_object(bitcode, output, opt_level=0)
        try:
            with progress.phase(f"optimized and compiled {name} at -O{opt_level}"):
                return toolchain.optimize_ir_object(bitcode, output, opt_level=opt_level)
        except CompileError as exc:
            warnings.warn(f"{name}: {str(exc)[:300]}; optimizing in-process instead", EnzymeWarning, stacklevel=2)

        def fresh() -> llvm.ModuleRef:
            return llvm.parse(data, name=name)
        optimized = _optimized(fresh(), fresh, opt_level, name=name)
        bitcode.write_bytes(llvm.to_bitcode(optimized))
        return toolchain.compile_ir_object(bitcode, output, opt_level=opt_level)
    finally:
        bitcode.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_output(output: PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``output``; move it into place only on success.

    On failure the temporary file is removed and ``output`` is left as it was.
    """
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{output.name}.", suffix=_TEMP_SUFFIX, dir=output.parent)
    os.close(handle)
    temp = Path(temp_name)
    temp.chmod(0o666 & ~_umask())  # mkstemp makes 0600 files; outputs get the usual mode
    try:
        yield temp
        os.replace(temp, output)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def remove_stale_outputs(output: PathLike) -> None:
    """Delete ``output`` and temporaries left beside it by interrupted earlier runs.

    Commands call this when they fail, so a failed command never leaves an
    output from an earlier run that looks current.
    """
    output = Path(output)
    output.unlink(missing_ok=True)
    if output.parent.is_dir():
        for stale in output.parent.glob(f".{glob.escape(output.name)}.*{_TEMP_SUFFIX}"):
            stale.unlink(missing_ok=True)


def write_module(module: llvm.ModuleRef, output: PathLike) -> Path:
    """Write bitcode (``.bc``) or text (``.ll``) atomically."""
    output = check_module_output(output)
    data = llvm.to_bitcode(module) if output.suffix == ".bc" else llvm.to_text(module).encode()
    with atomic_output(output) as temp:
        temp.write_bytes(data)
    return output
