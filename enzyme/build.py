"""The build steps behind the CMake package's ``enzyme_add_differentiable()``.

CMake runs three commands of the ``enzyme`` CLI, all implemented here:

- ``enzyme build-info``   (configure time) facts the CMake package checks and uses:
  the pyenzyme version, where its CMake package is, the LLVM major, the compilers
  it will run and the runtime libraries the target's languages need;
- ``enzyme bitcode``      (build time, once per source) one source to bitcode, with a
  make-style depfile so that editing a header (or a Fortran include or module file)
  rebuilds only what reads it;
- ``enzyme build``        (build time, once per target) all bitcode linked into one
  module, every ``__enzyme_*`` request differentiated, one position-independent object.

Each command is a thin layer over ``enzyme.toolchain`` and ``enzyme.pipeline``, so a
CMake build and ``enzyme-cc`` produce the same code.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from enzyme import device_libraries, gpu_programs, llvm, pipeline, toolchain
from enzyme.errors import UsageError

PathLike = str | os.PathLike[str]

# A call or global whose name contains this is a differentiation request or a custom rule.
_REQUEST_MARK = "__enzyme_"


@dataclass(frozen=True)
class BitcodeOptions:
    """How ``enzyme bitcode`` compiles one source (the per-source half of ``CompileOptions``)."""

    opt_level: int = 2
    debug: bool = False
    include_dirs: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    module_dir: Path | None = None
    depfile: Path | None = None
    # A .cu source of a CUDA program: its device code differentiated and embedded, the output is host bitcode.
    cuda_program: bool = False


def compile_bitcode(source: PathLike, output: PathLike, options: BitcodeOptions = BitcodeOptions()) -> Path:
    """Compile one source to bitcode at ``output``; write ``options.depfile`` when given.

    The depfile lists every file the compile read (clang's ``-MD`` list for C,
    C++, CUDA and HIP, rustc's ``dep-info`` for Rust, a scan of the include
    and module files for Fortran, which flang-22 does not list), with ``output``
    as its target.
    """
    source = Path(source)
    output = pipeline.check_module_output(output)
    language = toolchain.language_of(source)
    flags: list[str] = []
    if language == "rust" and not any(flag.startswith("--edition") for flag in options.flags):
        flags.append("--edition=2021")  # rustc alone defaults to 2015, where --extern crates need `extern crate`
    flags += options.flags
    depfile = options.depfile
    if depfile is not None:
        depfile.parent.mkdir(parents=True, exist_ok=True)
    if options.cuda_program and language != "cuda":
        raise UsageError(f"--cuda-program is for CUDA (.cu) sources, not {source}")
    with pipeline.atomic_output(output) as temp:
        if options.cuda_program:
            gpu_programs.cuda_program_bitcode(
                source, temp, opt_level=options.opt_level, flags=flags, include_dirs=options.include_dirs,
                defines=options.defines, show_warnings=True, depfile=depfile)
        else:
            toolchain.compile_to_bitcode(
                source, temp, opt_level=options.opt_level, debug=options.debug, flags=flags,
                include_dirs=options.include_dirs, defines=options.defines, module_dir=options.module_dir,
                language=language, show_warnings=True, depfile=depfile,
            )
    if depfile is not None:
        # The compilers saw the temporary file: name the real output.
        found = toolchain.read_depfile(depfile)
        toolchain.write_depfile(depfile, output, found.prerequisites, found.environment)
    return output


@dataclass(frozen=True)
class BuildOptions:
    """How ``enzyme build`` turns linked bitcode into one object."""

    opt_level: int = 2
    preopt: bool = True
    cuda_arch: str = "sm_90"  # for CUDA device code (a .ptx output)


def build_object(bitcode: Sequence[PathLike], output: PathLike, options: BuildOptions = BuildOptions()) -> Path:
    """Link ``bitcode`` into one module, differentiate its requests, optimize, emit a PIC object at ``output``.

    CUDA device bitcode (an ``nvptx64`` module) is emitted as PTX instead: ``output``
    then ends in ``.ptx`` and ``options.cuda_arch`` picks the architecture.  HIP device
    bitcode (an ``amdgcn`` module) becomes an AMDGPU code object: ``output`` ends in
    ``.hsaco``, for the architecture the bitcode was compiled for (its ``target-cpu``).

    Differentiating the linked module (not each file) lets ``__enzyme_*`` calls
    in one file (or language) differentiate functions defined in another.  The
    object is made by clang-22 from the optimized bitcode, so static
    constructors land in ``.init_array``; it suits executables and shared
    libraries alike.
    """
    if not bitcode:
        raise UsageError("enzyme build needs at least one bitcode file")
    output = Path(output)
    if output.suffix not in (".o", ".ptx", ".hsaco"):
        raise UsageError(f"output {output} must end in .o (an object file), .ptx (CUDA device code) or .hsaco "
                         "(HIP device code)")
    units = []
    for path in map(Path, bitcode):
        if not path.is_file():
            raise UsageError(f"bitcode file {path} does not exist")
        units.append((str(path), path.read_bytes()))
    module = llvm.link(units)
    llvm.verify(module, name=f"bitcode of {output.name}")
    defined, undefined = llvm.global_symbols(module)
    # A host object is optimized by the clang run that compiles it (pipeline.write_object).
    host_object = output.suffix == ".o" and not module.triple.startswith(("nvptx", "amdgcn"))
    postopt_level = 0 if host_object else options.opt_level
    if any(_REQUEST_MARK in name for name in defined | undefined):
        module = pipeline.transform_module(
            module, pipeline.TransformOptions(preopt=options.preopt, postopt_level=postopt_level),
            name=str(output))
    else:
        llvm.optimize(module, postopt_level)
    if host_object:
        with pipeline.atomic_output(output) as temp:
            pipeline.write_object(module, temp, options.opt_level, name=str(output))
        return output
    module = device_libraries.finish_device_module(module, options.opt_level, name=str(output))
    if output.suffix == ".hsaco":
        return gpu_programs.hip_code_object(module, _target_cpu(module) or "gfx90a", output)
    if output.suffix == ".ptx":
        ptx = llvm.emit_ptx(module, options.cuda_arch)
        with pipeline.atomic_output(output) as temp:
            temp.write_text(ptx)
        return output
    with pipeline.atomic_output(output) as temp:
        optimized = temp.with_name(temp.name + ".bc")
        try:
            optimized.write_bytes(llvm.to_bitcode(module))
            toolchain.compile_ir_object(optimized, temp, opt_level=options.opt_level)
        finally:
            optimized.unlink(missing_ok=True)
    return output


def _target_cpu(module: llvm.ModuleRef) -> str | None:
    """The ``target-cpu`` the frontend compiled for (``--offload-arch``), from the first function having one."""
    found = re.search(r'"target-cpu"="([^"]+)"', llvm.to_text(module))
    return found.group(1) if found else None


@dataclass(frozen=True)
class BuildInfo:
    """What the CMake package asks pyenzyme at configure time (``enzyme build-info``)."""

    version: str
    cmake_dir: Path
    llvm_major: int
    tools: dict[str, str]  # tool name -> path, for the tools the languages need
    link_libraries: tuple[str, ...]  # runtime linker arguments of the languages

    def lines(self) -> list[str]:
        """``key=value`` lines; lists are ``;``-separated (CMake lists)."""
        out = [
            f"version={self.version}",
            f"cmake_dir={self.cmake_dir}",
            f"llvm_major={self.llvm_major}",
            *(f"tool.{name}={path}" for name, path in sorted(self.tools.items())),
            f"link_libraries={';'.join(self.link_libraries)}",
        ]
        return out


# The compilers each language needs; clang also makes every final object.
_LANGUAGE_TOOLS = {
    "c": ("clang",), "cxx": ("clang",), "cuda": ("clang",), "hip": ("clang",), "ir": ("clang",),
    "fortran": ("flang",), "rust": ("rustc",),
}


def build_info(languages: Sequence[str] = ()) -> BuildInfo:
    """Versions, tools and runtime libraries for a target whose sources are in ``languages``.

    Finding each tool checks that it is built on LLVM 22 (LLVMVersionError otherwise).
    """
    import enzyme
    from enzyme import _paths

    unknown = set(languages).difference(toolchain.LANGUAGES)
    if unknown:
        raise UsageError(f"unknown language(s) {', '.join(sorted(unknown))}; known: {', '.join(toolchain.LANGUAGES)}")
    names = {"clang"}
    for language in languages:
        names.update(_LANGUAGE_TOOLS[language])
    tools = {name: str(toolchain.find_tool(name).path) for name in sorted(names)}
    return BuildInfo(
        version=enzyme.__version__,
        cmake_dir=_paths.cmake_dir(),
        llvm_major=llvm.REQUIRED_LLVM_MAJOR,
        tools=tools,
        link_libraries=tuple(toolchain.link_libraries(languages)) if languages else (),
    )
