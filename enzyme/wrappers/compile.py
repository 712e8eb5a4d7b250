"""``enzyme-cc -c``: one source to an ELF object that also carries its bitcode.

The object is real (native code from the bitcode), so tools that inspect or
link it keep working; the bitcode rides along in an ``.enzyme.bitcode``
section (SHF_EXCLUDE, so plain links drop it) and lets the wrappers' link
step differentiate across translation units.
"""
from __future__ import annotations

import sys
from pathlib import Path

from enzyme import toolchain
from enzyme.errors import UsageError
from enzyme.pipeline import atomic_output, remove_stale_outputs
from enzyme.wrappers.args import ASSEMBLER, Invocation, LinkerInput, Source
from enzyme.wrappers.objects import BITCODE_SECTION

# Languages compiled by clang, which writes dependency files itself (flang cannot).
_CLANG_LANGUAGES = ("c", "cxx", ASSEMBLER)


def compile_objects(invocation: Invocation, scratch: Path) -> None:
    """Compile every source of a ``-c`` command to its object."""
    sources = invocation.sources
    if not sources:
        raise UsageError("no input files")
    if invocation.output is not None and len(sources) > 1:
        raise UsageError("cannot specify -o when generating multiple output files (drop -o or compile one file at a time)")
    for item in invocation.items:
        if isinstance(item, LinkerInput):
            print(f"{invocation.name}: warning: {item.path}: linker input unused because -c was given",
                  file=sys.stderr)
    for index, source in enumerate(sources):
        check_source(invocation, source)
        output = invocation.output or Path(source.path.stem + ".o")
        compile_object(invocation, source, output, scratch / str(index))


def check_source(invocation: Invocation, source: Source) -> None:
    problem = toolchain.missing_source_message(source.path)
    if problem:
        raise UsageError(problem)


def compile_object(invocation: Invocation, source: Source, output: Path, scratch: Path) -> Path:
    """``source`` -> ``output``: native code plus the bitcode section; nothing left behind on failure."""
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        with atomic_output(output) as temp:
            if source.language == ASSEMBLER:
                toolchain.compile_native_object(
                    invocation.driver, source.path, temp,
                    flags=[*invocation.frontend_flags, *_x_flags(source),
                           *dependency_args(invocation, source, target=output)],
                )
            else:
                bitcode = compile_bitcode(invocation, source, scratch / "unit.bc", target=output)
                native = toolchain.compile_ir_object(bitcode, scratch / "native.o", opt_level=invocation.opt_level)
                toolchain.add_section(native, temp, name=BITCODE_SECTION, contents=bitcode)
    except BaseException:
        remove_stale_outputs(output)  # like clang: a failed compile leaves no (old) object
        raise
    return output


def compile_bitcode(invocation: Invocation, source: Source, out: Path, *, target: Path) -> Path:
    """The bitcode of ``source`` at ``out``, compiled with the command's flags and -O level.

    ``target`` is the file the command produces, the target of dependency files.
    """
    check_source(invocation, source)
    flags = [*invocation.frontend_flags]
    if source.language in _CLANG_LANGUAGES:
        flags += dependency_args(invocation, source, target=target)
    elif source.language == "fortran":
        flags += _x_flags(source)
    toolchain.compile_to_bitcode(
        source.path, out,
        opt_level=invocation.opt_level,
        flags=flags,
        # Like flang: .mod files go to -J/-module-dir, else the working directory.
        module_dir=invocation.module_dir or Path.cwd(),
        language=source.language,
        show_warnings=True,
    )
    if source.language == "fortran" and _wants_dependencies(invocation):
        _write_fortran_dependencies(invocation, source, target)
    return out


def _x_flags(source: Source) -> list[str]:
    return ["-x", source.explicit_language] if source.explicit_language else []


def _wants_dependencies(invocation: Invocation) -> bool:
    return any(flag in ("-MD", "-MMD") for flag in invocation.dependency_flags)


def dependency_file(invocation: Invocation, source: Source, target: Path) -> Path:
    """Where ``-MD`` writes without ``-MF``: beside the ``-c -o`` output, else ``<source stem>.d`` here (as clang)."""
    flags = invocation.dependency_flags
    if "-MF" in flags:
        return Path(flags[flags.index("-MF") + 1])
    if invocation.compile_only and invocation.output is not None:
        return target.with_suffix(".d")
    return Path(source.path.stem + ".d")


def dependency_args(invocation: Invocation, source: Source, *, target: Path) -> list[str]:
    """``-MD``-style flags for clang, pointed at the real output rather than our temporary file."""
    if not _wants_dependencies(invocation):
        return list(invocation.dependency_flags)
    args = list(invocation.dependency_flags)
    if "-MF" not in args:
        args += ["-MF", str(dependency_file(invocation, source, target))]
    if "-MT" not in args and "-MQ" not in args:
        args += ["-MT", str(target)]
    return args


def _write_fortran_dependencies(invocation: Invocation, source: Source, target: Path) -> None:
    # flang-22 has no -MD: write the one dependency we know, so make rebuilds on edits.
    flags = invocation.dependency_flags
    targets = [flags[i + 1] for i, flag in enumerate(flags) if flag in ("-MT", "-MQ")] or [str(target)]
    text = f"{' '.join(targets)}: {source.path}\n"
    path = dependency_file(invocation, source, target)
    with atomic_output(path) as temp:
        temp.write_text(text)
