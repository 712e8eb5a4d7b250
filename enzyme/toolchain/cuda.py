"""CUDA device code to NVPTX bitcode with clang-22."""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path

from enzyme.errors import ToolNotFoundError, UsageError
from enzyme.toolchain.cache import cached_entry
from enzyme.toolchain.clang import clang_args, run_clang, user_chose_arch
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_directory, find_tool, run_tool

DEFAULT_CUDA_ARCH = "sm_90"
_CUDA_ROOTS = ("/usr/local/cuda-13.0", "/usr/local/cuda")
# CUDA headers include curand_mtgp32_kernel.h, which some installs (this one) lack.
_MISSING_HEADERS = ("curand_mtgp32_kernel.h",)


def cuda_path() -> Path:
    """The CUDA toolkit root: ``$ENZYME_CUDA_PATH`` or a standard location."""
    return find_directory(
        "CUDA toolkit", "ENZYME_CUDA_PATH", _CUDA_ROOTS, "include/cuda_runtime.h",
        "install the CUDA toolkit or set ENZYME_CUDA_PATH to its root",
    )


def header_stub_dir() -> Path:
    """A directory of empty stand-ins for CUDA headers missing from the install."""

    def build(directory: Path) -> None:
        for header in _MISSING_HEADERS:
            (directory / header).write_text("/* empty stand-in written by pyenzyme */\n")

    return cached_entry("cuda-header-stubs-1", build)


def _common_args(request: CompileRequest) -> list[str]:
    return [
        *([] if user_chose_arch(request) else [f"--cuda-gpu-arch={DEFAULT_CUDA_ARCH}"]),
        f"--cuda-path={cuda_path()}",
        "-isystem", str(header_stub_dir()),
        # clang-22 knows CUDA up to 12.9; 13.0 works for device code but warns.
        "-Wno-unknown-cuda-version",
    ]


def compile_cuda(request: CompileRequest) -> Path:
    """Device-only compile of a ``.cu`` file for ``sm_90`` (override with ``--cuda-gpu-arch=`` in flags).

    Without libdevice (``-nocudalib``): math stays calls of ``__nv_*`` functions, which have derivative rules;
    libdevice is linked after differentiation (enzyme.device_libraries).
    """
    return run_clang(request, [*clang_args(request, language="cuda"), "--cuda-device-only", "-nocudalib",
                               *_sdk_version_args(), *_common_args(request)])


@functools.lru_cache(maxsize=1)
def _sdk_version_args() -> tuple[str, ...]:
    """``-target-sdk-version`` as clang's driver derives it from the toolkit (it drops it under -nocudalib, and
    kernel launches then fall back to the pre-9.2 cudaConfigureCall API)."""
    clang = find_tool("clang")
    result = run_tool([clang.path, "-###", "-x", "cuda", "--cuda-device-only", f"--cuda-path={cuda_path()}",
                       "-Wno-unknown-cuda-version", f"--cuda-gpu-arch={DEFAULT_CUDA_ARCH}", "-c", "/dev/null",
                       "-o", "/dev/null"], what="clang-22 could not plan a CUDA compile")
    found = re.search(r'"-target-sdk-version=([\d.]+)"', result.stderr + result.stdout)
    return ("-Xclang", f"-target-sdk-version={found.group(1)}") if found else ()


def compile_cuda_host(request: CompileRequest, fatbin: Path) -> Path:
    """Host-side compile of a ``.cu`` file to x86-64 bitcode with ``fatbin`` (the device code) embedded.

    The kernels' launch stubs register the fat binary with the CUDA runtime at start-up, as clang's own
    ``-x cuda`` compiles do (``-fcuda-include-gpubinary``).
    """
    return run_clang(request, [*clang_args(request, language="cuda"), "--cuda-host-only", *_common_args(request),
                               "-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(fatbin)])


def cuda_arch(flags: Sequence[str]) -> str:
    """The one GPU architecture ``flags`` choose (``--cuda-gpu-arch=``/``--offload-arch=``), else sm_90."""
    chosen = [f.split("=", 1)[1] for f in flags if f.startswith(("--cuda-gpu-arch=", "--offload-arch="))]
    if len(set(chosen)) > 1:
        raise UsageError(f"several CUDA architectures ({', '.join(chosen)}): pyenzyme builds device code for "
                         "one; give one --cuda-gpu-arch=sm_XX")
    return chosen[0] if chosen else DEFAULT_CUDA_ARCH


def cuda_runtime_link_args() -> list[str]:
    """Linker arguments for the CUDA runtime (``libcudart``) of the toolkit, found at run time via rpath."""
    root = cuda_path()
    lib = next((root / d for d in ("lib64", "lib", "targets/x86_64-linux/lib") if (root / d / "libcudart.so").exists()),
               None)
    if lib is None:
        raise ToolNotFoundError(f"libcudart.so not found under {root}; install the CUDA toolkit's runtime "
                                "or set ENZYME_CUDA_PATH")
    return [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lcudart", "-ldl", "-lpthread", "-lrt"]


def fatbinary(ptx: Path, arch: str, out: Path) -> Path:
    """A CUDA fat binary at ``out``: the PTX assembled for ``arch`` by ptxas, and the PTX itself (for JIT
    compilation on newer GPUs).  Raises CompileError when ptxas rejects the PTX."""
    number = arch.removeprefix("sm_")
    cubin = out.with_suffix(".cubin")
    ptxas = find_tool("ptxas")
    run_tool([ptxas.path, f"-arch={arch}", str(ptx), "-o", str(cubin)], what=f"ptxas rejected the PTX of {ptx.name}")
    tool = cuda_path() / "bin" / "fatbinary"
    if not tool.is_file():
        raise ToolNotFoundError(f"{tool} not found; install the CUDA toolkit (its fatbinary packs device code)")
    run_tool([str(tool), "-64", "--create", str(out), f"--image3=kind=elf,sm={number},file={cubin}",
              f"--image3=kind=ptx,sm={number},file={ptx}"], what=f"fatbinary failed on {ptx.name}")
    return out
