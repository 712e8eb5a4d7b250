"""HIP device code to AMDGPU bitcode with clang-22 (compile only on this machine)."""
from __future__ import annotations

from pathlib import Path

from enzyme.toolchain.clang import clang_args, run_clang, user_chose_arch
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_directory

DEFAULT_HIP_ARCH = "gfx90a"
_DEVICE_LIB_DIRS = ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode")
ROCM_DEVICE_LIBS_FIX = "apt-get install -y rocm-device-libs libamdhip64-dev"


def rocm_device_lib_dir() -> Path:
    """Directory of the ROCm device library bitcode (ocml.bc, ockl.bc, ...)."""
    return find_directory(
        "ROCm device libraries", "ENZYME_ROCM_DEVICE_LIBS", _DEVICE_LIB_DIRS, "ocml.bc",
        f"install them: {ROCM_DEVICE_LIBS_FIX}",
    )


def compile_hip(request: CompileRequest) -> Path:
    """Device-only compile of a ``.hip`` file for ``gfx90a`` (override with ``--offload-arch=``)."""
    device_libs = rocm_device_lib_dir()
    args = [
        *clang_args(request, language="hip"),
        "--cuda-device-only",
        *([] if user_chose_arch(request) else [f"--offload-arch={DEFAULT_HIP_ARCH}"]),
        "--rocm-path=/usr",
        f"--rocm-device-lib-path={device_libs}",
        # Math stays calls of __ocml_* (differentiated with the libm rules); the device libraries are linked
        # after differentiation (enzyme.device_libraries).
        "-nogpulib",
        # Debian's ROCm 5.2 device libraries only work with code object v5.
        "-mcode-object-version=5",
        # The HIP 5.2 headers use this macro, which clang-22 no longer predefines.
        "-D__AMDGCN_WAVEFRONT_SIZE=64",
    ]
    return run_clang(request, args, depfile_through_cc1=True)
