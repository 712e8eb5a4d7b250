"""CUDA device code to NVPTX bitcode with clang-22."""
from __future__ import annotations

from pathlib import Path

from enzyme.toolchain.cache import cached_entry
from enzyme.toolchain.clang import clang_args, run_clang, user_chose_arch
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_directory

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


def compile_cuda(request: CompileRequest) -> Path:
    """Device-only compile of a ``.cu`` file for ``sm_90`` (override with ``--cuda-gpu-arch=`` in flags)."""
    args = [
        *clang_args(request, language="cuda"),
        "--cuda-device-only",
        *([] if user_chose_arch(request) else [f"--cuda-gpu-arch={DEFAULT_CUDA_ARCH}"]),
        f"--cuda-path={cuda_path()}",
        "-isystem", str(header_stub_dir()),
        # clang-22 knows CUDA up to 12.9; 13.0 works for device code but warns.
        "-Wno-unknown-cuda-version",
    ]
    return run_clang(request, args)
