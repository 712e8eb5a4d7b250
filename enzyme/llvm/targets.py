"""Target machines and code generation (host objects, PTX, AMDGPU objects)."""
from __future__ import annotations

import functools
import os
from pathlib import Path

import llvmlite.binding as llvm

from enzyme import progress
from enzyme.errors import EnzymeError, UsageError
from enzyme.llvm.symbols import global_symbols

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
AMDGPU_TRIPLE = "amdgcn-amd-amdhsa"
# PTX ISA 8.8 is what CUDA 13's ptxas accepts for sm_90 (see TOOLCHAIN.md).
_PTX_FEATURES = "+ptx88"


@functools.cache
def initialize_targets() -> None:
    """Register every target LLVM was built with (idempotent)."""
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


@functools.cache
def host_target_machine(opt: int = 3) -> llvm.TargetMachine:
    """Target machine for the host triple with the default CPU, position independent."""
    initialize_targets()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        # The compilers' default CPU, not the host's: a module must compute the same
        # numbers as its native build (host FMA would contract flang's `contract` ops).
        cpu="",
        features="",
        opt=opt,
        reloc="pic",
        # llvmlite's default ("jitdefault") is the large code model for objects: every
        # call through a 64-bit absolute address, in .ltext.  Objects get clang's model.
        codemodel="small",
    )


def target_machine_for(mod: llvm.ModuleRef, opt: int = 3) -> llvm.TargetMachine:
    """Host machine for host modules; a generic machine for the module's own target otherwise."""
    triple = mod.triple
    if not triple or _same_host_target(triple):
        return host_target_machine(opt)
    initialize_targets()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as exc:
        raise EnzymeError(f"no LLVM backend for target {triple}: {exc}") from None
    return target.create_target_machine(opt=opt, reloc="pic")


def host_target_problem(mod: llvm.ModuleRef) -> str | None:
    """Why ``mod`` cannot be compiled for this machine, or None when it can.

    A module that names no triple and no data layout is host code (the JIT
    gives it the host's).  Another triple, or another data layout, means code
    written for another target: LLJIT would stop with an internal "incompatible
    data layouts" error, or compile it with the wrong ABI.
    """
    triple, layout = mod.triple, mod.data_layout
    if triple and not _same_host_target(triple):
        return f"targets {triple}, not this machine ({llvm.get_default_triple()})"
    host_layout = str(host_target_machine().target_data)
    if layout and layout != host_layout:
        return f"has the data layout {layout!r}, not this machine's {host_layout!r}"
    return None


def _same_host_target(triple: str) -> bool:
    host = llvm.get_default_triple().split("-")
    other = triple.split("-")
    return other[:1] == host[:1] and other[2:] == host[2:]


def emit_object(mod: llvm.ModuleRef, path: str | os.PathLike[str]) -> Path:
    """Compile ``mod`` to a native object file for the host at ``path``.

    Code generation mutates the module (and aborts on a second run for some
    targets), so it always works on a clone.  llvmlite's target machine puts
    static constructors in ``.ctors``, which glibc's start files do not run:
    objects of programs with C++ static constructors are made with
    ``enzyme.toolchain.compile_ir_object`` (clang) instead.
    """
    path = Path(path)
    with progress.phase(f"generated machine code for {path.name}"):
        data = host_target_machine().emit_object(mod.clone())
    path.write_bytes(data)
    return path


def emit_ptx(mod: llvm.ModuleRef, arch: str = "sm_90") -> str:
    """PTX assembly for an ``nvptx64-nvidia-cuda`` module."""
    if not arch.startswith("sm_"):
        raise UsageError(f"bad CUDA architecture {arch!r}: expected something like 'sm_90'")
    machine = _gpu_target_machine(mod, NVPTX_TRIPLE, cpu=arch, features=_PTX_FEATURES, source="CUDA (.cu)")
    _, undefined = global_symbols(mod)
    missing = sorted(n for n in undefined if n.startswith("__nv_"))
    if missing:
        raise UsageError(f"module {mod.name!r} calls CUDA's libdevice ({', '.join(missing[:3])}) without it: "
                         "link it first (enzyme.device_libraries.finish_device_module, which enzyme build does)")
    return machine.emit_assembly(mod.clone())


def emit_amdgpu_object(mod: llvm.ModuleRef, arch: str = "gfx90a") -> bytes:
    """An AMDGPU ELF object for an ``amdgcn-amd-amdhsa`` module (link with ld.lld -shared)."""
    if not arch.startswith("gfx"):
        raise UsageError(f"bad AMDGPU architecture {arch!r}: expected something like 'gfx90a'")
    machine = _gpu_target_machine(mod, AMDGPU_TRIPLE, cpu=arch, features="", source="HIP (.hip)")
    return machine.emit_object(mod.clone())


def _gpu_target_machine(
    mod: llvm.ModuleRef, triple: str, *, cpu: str, features: str, source: str
) -> llvm.TargetMachine:
    if mod.triple != triple:
        raise UsageError(
            f"module {mod.name!r} targets {mod.triple or 'no triple'}, not {triple}; "
            f"pass device code compiled from a {source} source"
        )
    initialize_targets()
    target = llvm.Target.from_triple(triple)
    return target.create_target_machine(cpu=cpu, features=features, opt=3, reloc="pic")
