"""HIP device code to AMDGPU bitcode with clang-22 (compile only on this machine)."""
from __future__ import annotations

import os
from pathlib import Path

from enzyme.errors import ToolNotFoundError
from enzyme.toolchain.clang import clang_args, run_clang
from enzyme.toolchain.request import CompileRequest

DEFAULT_HIP_ARCH = "gfx90a"
_DEVICE_LIB_DIRS = ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode")
ROCM_DEVICE_LIBS_FIX = "apt-get install -y rocm-device-libs libamdhip64-dev"


def rocm_device_lib_dir() -> Path:
    """Directory of the ROCm device library bitcode (ocml.bc, ockl.bc, ...)."""
    override = os.environ.get("ENZYME_ROCM_DEVICE_LIBS")
    candidates = (override,) if override else _DEVICE_LIB_DIRS
    for candidate in candidates:
        if candidate and (Path(candidate) / "ocml.bc").is_file():
            return Path(candidate)
    raise ToolNotFoundError(
        f"ROCm device libraries not found (looked in {', '.join(c for c in candidates if c)}); "
        f"install them: {ROCM_DEVICE_LIBS_FIX}"
    )


def compile_hip(request: CompileRequest) -> Path:
    """Device-only compile of a ``.hip`` file for ``gfx90a`` (override with ``--offload-arch=``)."""
    device_libs = rocm_device_lib_dir()
    arch_given = any(flag.startswith(("--offload-arch", "--cuda-gpu-arch")) for flag in request.flags)
    args = [
        *clang_args(request, language="hip"),
        "--cuda-device-only",
        *([] if arch_given else [f"--offload-arch={DEFAULT_HIP_ARCH}"]),
        "--rocm-path=/usr",
        f"--rocm-device-lib-path={device_libs}",
        # Debian's ROCm 5.2 device libraries only work with code object v5.
        "-mcode-object-version=5",
        # The HIP 5.2 headers use this macro, which clang-22 no longer predefines.
        "-D__AMDGCN_WAVEFRONT_SIZE=64",
    ]
    return run_clang(request, args)
