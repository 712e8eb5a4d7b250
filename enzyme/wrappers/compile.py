"""``enzyme-cc -c``: one source to an ELF object that also carries its bitcode.

The object is real (native code from the bitcode), so tools that inspect or
link it keep working; the bitcode rides along in an ``.enzyme.bitcode``
section (SHF_EXCLUDE, so plain links drop it) and lets the wrappers' link
step differentiate across translation units.
"""
from __future__ import annotations

import sys
from pathlib import Path

from enzyme import gpu_programs, toolchain
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
            if source.language == "hip":
                hip_code_object(invocation, source, temp, scratch, target=output)
            elif source.language == ASSEMBLER:
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
    if source.language == "cuda":
        # Device code differentiated and embedded; the host side is the unit's bitcode.
        depfile = _device_depfile(invocation, source, target)
        gpu_programs.cuda_program_bitcode(source.path, out, opt_level=invocation.opt_level, flags=flags,
                                          show_warnings=True, depfile=depfile)
        _name_target(depfile, target)
        return out
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


def hip_code_object(invocation: Invocation, source: Source, out: Path, scratch: Path, *, target: Path) -> Path:
    """``-c`` of a ``.hip`` file: its device code differentiated into an AMDGPU code object at ``out``."""
    flags = list(invocation.frontend_flags)
    arch = gpu_programs.hip_arch(flags)
    bitcode = toolchain.compile_to_bitcode(
        source.path, scratch / "device.bc", opt_level=invocation.opt_level, flags=flags, language="hip",
        show_warnings=True, depfile=_device_depfile(invocation, source, target))
    _name_target(_device_depfile(invocation, source, target), target)
    module = gpu_programs.device_module([(str(bitcode), bitcode.read_bytes())], opt_level=invocation.opt_level,
                                        name=f"{source.path} (device)")
    return gpu_programs.hip_code_object(module, arch, out)


def _device_depfile(invocation: Invocation, source: Source, target: Path) -> Path | None:
    return dependency_file(invocation, source, target) if _wants_dependencies(invocation) else None


def _name_target(depfile: Path | None, target: Path) -> None:
    """The compile saw a scratch file: make ``target`` the rule's target."""
    if depfile is not None:
        found = toolchain.read_depfile(depfile)
        toolchain.write_depfile(depfile, target, found.prerequisites, found.environment)


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
