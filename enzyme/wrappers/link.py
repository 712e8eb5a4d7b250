"""The wrappers' link step: every input's bitcode -> one module -> differentiate -> one object -> lld.

Inputs are read the way a linker reads them: sources are compiled on the
fly, objects made by ``enzyme-cc -c`` give their ``.enzyme.bitcode`` section, and
archive members are taken only when they define a symbol that is still
undefined (repeated until nothing changes, as lld does), so a program links
the same members as with clang.  The linked module is preoptimized,
differentiated and optimized at the link line's ``-O`` level; the real
linker then gets that one object in place of the bitcode-carrying inputs,
plus everything else of the command line in order (foreign objects,
archives, ``-l``, ``-L``, ``-Wl,``) and the language runtimes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.errors import LinkError, UsageError
from enzyme.pipeline import TransformOptions, atomic_output, remove_stale_outputs, transform_module, write_object
from enzyme.wrappers.args import (
    ASSEMBLER,
    DRIVER_LANGUAGES,
    Invocation,
    Library,
    LinkerArgs,
    LinkerInput,
    Source,
)
from enzyme.wrappers.compile import compile_bitcode
from enzyme.wrappers.objects import ObjectFile, archive_members, is_archive, read_object

DEFAULT_OUTPUT = Path("a.out")
# A call whose callee contains this is a differentiation request (or a custom-rule global).
_REQUEST_MARK = "__enzyme_"
# Flang's runtime entry points: their presence means Fortran code needs its runtime.
_FORTRAN_RUNTIME_PREFIX = "_Fortran"


@dataclass
class _Archive:
    path: Path
    members: list[ObjectFile]
    taken: set[int] = field(default_factory=set)


# What the host side of a CUDA program calls at start-up to register its device code.
_CUDA_REGISTRATION = "__cudaRegisterFatBinary"


@dataclass
class _LinkPlan:
    """What the inputs amount to: bitcode to link, and the real linker's other arguments in order."""

    units: list[tuple[str, bytes]] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)  # foreign objects, always linked
    arguments: list[str] = field(default_factory=list)  # archives, -l, -L, -Wl, ... in command-line order
    languages: set[str] = field(default_factory=set)
    archives: list[_Archive] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)
    undefined: set[str] = field(default_factory=set)

    def add_symbols(self, obj: ObjectFile) -> None:
        self.defined |= obj.defined
        self.undefined = (self.undefined | obj.undefined) - self.defined

    def add_unit(self, obj: ObjectFile) -> None:
        assert obj.bitcode is not None
        self.units.append((obj.name, obj.bitcode))
        self.add_symbols(obj)
        if _CUDA_REGISTRATION in obj.undefined:
            self.languages.add("cuda")  # the host side of a .cu file (enzyme-c++ -c): link the CUDA runtime


def link_program(invocation: Invocation, scratch: Path) -> Path:
    """Build the executable (or ``-shared`` library) of a link command; no output is left on failure."""
    output = invocation.output or DEFAULT_OUTPUT
    try:
        plan = plan_link(invocation, scratch, output)
        objects = list(plan.objects)
        if plan.units:
            objects.insert(0, str(build_module_object(invocation, plan, scratch / "enzyme-module.o", output)))
        libraries = [*plan.arguments, *toolchain.link_libraries(sorted(plan.languages))]
        link = toolchain.link_shared if invocation.shared else toolchain.link_executable
        with atomic_output(output) as temp:
            try:
                link(objects, temp, libraries=libraries)
            except LinkError as exc:  # name the output the user asked for, not our temporary file
                raise LinkError(str(exc).replace(str(temp), str(output))) from None
    except BaseException:
        remove_stale_outputs(output)
        raise
    return output


def plan_link(invocation: Invocation, scratch: Path, output: Path) -> _LinkPlan:
    plan = _LinkPlan(languages={DRIVER_LANGUAGES[invocation.driver]})
    whole_archive = False
    static = False
    for index, item in enumerate(invocation.items):
        if isinstance(item, Source):
            _add_source(invocation, plan, item, scratch / f"source-{index}", output)
        elif isinstance(item, LinkerInput):
            _add_file(invocation, plan, item.path, scratch / f"archive-{index}", whole_archive=whole_archive)
        elif isinstance(item, Library):
            found = _find_library(invocation, item.spec, static=static)
            keep = True
            if found is not None and _starts_like_archive(found):
                keep = _add_archive(plan, found, scratch / f"archive-{index}", whole_archive=whole_archive)
            if keep:
                plan.arguments.append(f"-l{item.spec}")
        elif isinstance(item, LinkerArgs):
            plan.arguments += item.args
            for option in _linker_options(item.args):
                whole_archive = {"--whole-archive": True, "--no-whole-archive": False}.get(option, whole_archive)
                static = {"-Bstatic": True, "-static": True, "-Bdynamic": False}.get(option, static)
    _take_archive_members(plan)
    if not plan.units and not plan.objects and not any(isinstance(i, LinkerInput) for i in invocation.items):
        raise UsageError("no input files")
    return plan


def _add_source(invocation: Invocation, plan: _LinkPlan, source: Source, scratch: Path, output: Path) -> None:
    scratch.mkdir(parents=True, exist_ok=True)
    if source.language == ASSEMBLER:
        native = toolchain.compile_native_object(
            invocation.driver, source.path, scratch / f"{source.path.stem}.o",
            flags=[*invocation.frontend_flags, *(["-x", source.explicit_language] if source.explicit_language else [])],
        )
        _add_file(invocation, plan, native, scratch, whole_archive=False)
        return
    bitcode = compile_bitcode(invocation, source, scratch / f"{source.path.stem}.bc", target=output)
    plan.languages.add(source.language)
    plan.add_unit(_with_bitcode_symbols(ObjectFile(str(source.path), bitcode.read_bytes(), is_pure_bitcode=True)))


def _add_file(invocation: Invocation, plan: _LinkPlan, path: Path, scratch: Path, *, whole_archive: bool) -> None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"input file {path}: {exc.strerror or exc}") from None
    if is_archive(data):
        if _add_archive(plan, path, scratch, whole_archive=whole_archive, data=data):
            plan.arguments.append(str(path))
        return
    obj = read_object(str(path), data)
    if obj is None:
        plan.arguments.append(str(path))  # shared library, linker script: the linker's business
    elif obj.bitcode is not None:
        plan.add_unit(_with_bitcode_symbols(obj))
    else:
        plan.objects.append(str(path))
        plan.add_symbols(obj)


def _add_archive(plan: _LinkPlan, path: Path, scratch: Path, *, whole_archive: bool,
                 data: bytes | None = None) -> bool:
    """Note the archive's members for ``_take_archive_members``; whether the real linker must still see it.

    Under ``--whole-archive`` every member is taken at once; the linker would then
    load the bitcode members' native code a second time, so it gets the other
    members as plain objects instead of the archive.
    """
    data = path.read_bytes() if data is None else data
    members: list[ObjectFile] = []
    contents: list[tuple[str, bytes]] = []
    for name, body in archive_members(path, data):
        obj = read_object(f"{path}({name})", body)
        if obj is not None:
            members.append(_with_bitcode_symbols(obj))
            contents.append((name, body))
    archive = _Archive(path, members)
    plan.archives.append(archive)
    if not whole_archive:
        return True
    for index, member in enumerate(members):
        archive.taken.add(index)
        if member.bitcode is not None:
            plan.add_unit(member)
        else:
            plan.add_symbols(member)
    if all(member.bitcode is None for member in members):
        return True
    scratch.mkdir(parents=True, exist_ok=True)
    for index, (member, (name, body)) in enumerate(zip(members, contents)):
        if member.bitcode is None:
            extracted = scratch / f"{index}-{Path(name).name}"
            extracted.write_bytes(body)
            plan.objects.append(str(extracted))
    return False


def _take_archive_members(plan: _LinkPlan) -> None:
    """Take archive members that define undefined symbols until none is left to take (lld's rule)."""
    changed = True
    while changed:
        changed = False
        for archive in plan.archives:
            for index, member in enumerate(archive.members):
                if index in archive.taken or not (member.defined & plan.undefined):
                    continue
                archive.taken.add(index)
                changed = True
                if member.bitcode is not None:
                    plan.add_unit(member)
                else:
                    plan.add_symbols(member)  # the linker takes it from the archive itself


def _starts_like_archive(path: Path) -> bool:
    with path.open("rb") as file:
        return is_archive(file.read(8))


def _with_bitcode_symbols(obj: ObjectFile) -> ObjectFile:
    """A bitcode file knows its symbols only once parsed; objects have them from their symbol table."""
    if not obj.is_pure_bitcode or obj.bitcode is None:
        return obj
    defined, undefined = llvm.global_symbols(llvm.parse(obj.bitcode, name=obj.name))
    return ObjectFile(obj.name, obj.bitcode, defined, undefined, is_pure_bitcode=True)


def _linker_options(args: tuple[str, ...]) -> list[str]:
    if args[0].startswith("-Wl,"):
        return args[0][4:].split(",")
    if args[0] == "-Xlinker":
        return list(args[1:])
    return list(args)


def _find_library(invocation: Invocation, spec: str, *, static: bool) -> Path | None:
    """Where the linker finds ``-l<spec>`` among the command's ``-L`` directories (system ones hold no bitcode)."""
    names = [spec[1:]] if spec.startswith(":") else ([] if static else [f"lib{spec}.so"]) + [f"lib{spec}.a"]
    for directory in invocation.library_dirs:
        for name in names:
            candidate = directory / name
            if candidate.is_file():
                return candidate
    return None


def build_module_object(invocation: Invocation, plan: _LinkPlan, path: Path, output: Path) -> Path:
    """Link the bitcode, differentiate every request, optimize at the link's -O level, emit one object."""
    module = llvm.link(plan.units)
    llvm.verify(module, name=f"bitcode of {output}")
    defined, undefined = llvm.global_symbols(module)
    if any(name.startswith(_FORTRAN_RUNTIME_PREFIX) for name in undefined):
        plan.languages.add("fortran")
    if any(_REQUEST_MARK in name for name in defined | undefined):
        # Pre-AD O2 whatever the level: AD after optimization is what makes the derivatives fast.  The
        # post-AD optimization at the link's level is done by the clang run that compiles the object.
        options = TransformOptions(preopt=True, postopt_level=0)
        module = transform_module(module, options, name=str(output))
    # No requests: the objects' code, optimized across files only when the link asks (like LTO).
    return write_object(module, path, invocation.opt_level, name=str(output))
