"""CUDA programs: a ``.cu`` file's device code differentiated and embedded in its host code.

A ``.cu`` source with host code (``main``, kernel launches) and ``__global__``
kernels that call ``__enzyme_autodiff``/``__enzyme_fwddiff`` on ``__device__``
functions is built in two halves, as clang's own ``-x cuda`` compile does:

1. the device side (``--cuda-device-only``, NVPTX bitcode) goes through the
   ``enzyme opt`` pipeline -- every request in device code differentiated --
   and becomes PTX, then a fat binary (``ptxas`` for the chosen ``sm_XX`` plus
   the PTX itself, for GPUs newer than that);
2. the host side (``--cuda-host-only``) is compiled to x86-64 bitcode with that
   fat binary embedded (the launch stubs register it with the CUDA runtime at
   start-up).

The host bitcode is then an ordinary unit of the program: the compiler
wrappers and ``enzyme_add_differentiable`` link it with the rest (requests in
host code are differentiated there) and add the CUDA runtime (``-lcudart``).
Device code is differentiated per file: without relocatable device code
(``-fgpu-rdc``, not supported) a kernel only calls device functions of its own file.

HIP device code becomes an AMDGPU code object (``hip_code_object``), to be
loaded with the HIP runtime (``hipModuleLoad``); HIP host programs are not built.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from enzyme import device_libraries, llvm, pipeline, progress, toolchain
from enzyme.errors import UsageError
from enzyme.toolchain import cuda, hip
from enzyme.toolchain.request import CompileRequest

PathLike = str | os.PathLike[str]
_REQUEST_MARK = "__enzyme_"


def device_module(bitcode: Sequence[tuple[str, bytes]], *, opt_level: int, preopt: bool = True,
                  name: str) -> llvm.ModuleRef:
    """Device bitcode linked, its requests differentiated (or just optimized when it has none)."""
    module = llvm.link(list(bitcode))
    llvm.verify(module, name=f"device code of {name}")
    defined, undefined = llvm.global_symbols(module)
    if any(_REQUEST_MARK in symbol for symbol in defined | undefined):
        module = pipeline.transform_module(
            module, pipeline.TransformOptions(preopt=preopt, postopt_level=opt_level), name=name)
    else:
        llvm.optimize(module, opt_level)
    return device_libraries.finish_device_module(module, opt_level, name=name)


def cuda_program_bitcode(
    source: PathLike,
    out: PathLike,
    *,
    opt_level: int = 2,
    flags: Sequence[str] = (),
    include_dirs: Sequence[PathLike] = (),
    defines: Sequence[str] = (),
    show_warnings: bool = False,
    depfile: PathLike | None = None,
) -> Path:
    """Host bitcode of the ``.cu`` file ``source`` at ``out``, its differentiated device code embedded.

    ``flags`` may choose the architecture (``--cuda-gpu-arch=sm_80``; one only, default sm_90).
    ``depfile`` lists the files the device compile read.
    """
    source, out = Path(source), Path(out)
    arch = cuda.cuda_arch(flags)
    if not any(flag.startswith(("--cuda-gpu-arch=", "--offload-arch=")) for flag in flags):
        flags = [*flags, f"--cuda-gpu-arch={arch}"]
    with tempfile.TemporaryDirectory(prefix="enzyme-cuda-") as scratch_name:
        scratch = Path(scratch_name)
        device_bc = toolchain.compile_to_bitcode(
            source, scratch / "device.bc", opt_level=opt_level, flags=flags, include_dirs=include_dirs,
            defines=defines, language="cuda", show_warnings=show_warnings, depfile=depfile)
        with progress.phase(f"differentiated the device code of {source}"):
            module = device_module([(str(device_bc), device_bc.read_bytes())], opt_level=opt_level,
                                   name=f"{source} (device)")
        ptx = scratch / "device.ptx"
        ptx.write_text(llvm.emit_ptx(module, arch))
        fatbin = cuda.fatbinary(ptx, arch, scratch / "device.fatbin")
        request = CompileRequest(
            source=source, output=out, opt_level=opt_level, flags=tuple(flags),
            include_dirs=tuple(Path(d) for d in include_dirs), defines=tuple(defines),
            show_warnings=show_warnings)
        out.parent.mkdir(parents=True, exist_ok=True)
        return cuda.compile_cuda_host(request, fatbin)


def hip_arch(flags: Sequence[str]) -> str:
    """The one AMDGPU architecture ``flags`` choose (``--offload-arch=``), else gfx90a."""
    chosen = [f.split("=", 1)[1] for f in flags if f.startswith("--offload-arch=")]
    if len(set(chosen)) > 1:
        raise UsageError(f"several AMDGPU architectures ({', '.join(chosen)}): pyenzyme builds device code for "
                         "one; give one --offload-arch=gfxNNN")
    return chosen[0] if chosen else hip.DEFAULT_HIP_ARCH


def hip_code_object(module: llvm.ModuleRef, arch: str, out: PathLike) -> Path:
    """An AMDGPU code object (``.hsaco``, a shared ELF for ``hipModuleLoad``) of a differentiated HIP module."""
    out = Path(out)
    _, undefined = llvm.global_symbols(module)
    missing = sorted(n for n in undefined if not n.startswith("llvm."))
    if missing:
        raise UsageError(f"the AMDGPU code object of {module.name} would call functions nothing defines "
                         f"({', '.join(missing[:5])}); the HIP runtime could not load it")
    with tempfile.TemporaryDirectory(prefix="enzyme-hip-") as scratch_name:
        bitcode = Path(scratch_name) / "device.bc"
        bitcode.write_bytes(llvm.to_bitcode(module))
        obj = toolchain.compile_amdgpu_object(bitcode, Path(scratch_name) / "device.o", arch=arch)
        with pipeline.atomic_output(out) as temp:
            toolchain.link_code_object(obj, temp)
    return out
