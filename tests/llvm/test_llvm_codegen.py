"""Code generation: host objects, PTX (checked by ptxas), AMDGPU objects."""
from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import UsageError

KERNEL = """\
__device__ double square(double x) { return x * x; }
__global__ void squares(double* a) { a[threadIdx.x] = square(a[threadIdx.x]); }
"""
HIP_KERNEL = "#include <hip/hip_runtime.h>\n" + KERNEL.replace("x * x", "sin(x) * x")


def test_emit_object_and_link_shared(tmp_path: Path, bitcode: dict[str, bytes]) -> None:
    names = ["square.c", "scale.f90", "vsum.rs"]
    mod = llvm.link([(name, bitcode[name]) for name in names])
    obj = llvm.emit_object(mod, tmp_path / "all.o")
    assert obj.read_bytes()[:4] == b"\x7fELF"
    llvm.verify(mod)  # code generation worked on a clone
    languages = [toolchain.language_of(name) for name in names]
    library = toolchain.link_shared([obj], tmp_path / "liball.so", libraries=toolchain.link_libraries(languages))
    lib = ctypes.CDLL(str(library))
    lib.rust_vsum.restype = ctypes.c_double
    lib.rust_vsum.argtypes = [ctypes.c_size_t]
    assert lib.rust_vsum(4) == 6.0


def compile_device(tmp_path: Path, name: str, text: str) -> llvm.ModuleRef:
    source = tmp_path / name
    source.write_text(text)
    return llvm.parse_file(toolchain.compile_to_bitcode(source, tmp_path / f"{name}.bc"))


@pytest.mark.requires_tool("cuda")
@pytest.mark.requires_tool("ptxas")
def test_emit_ptx_is_accepted_by_ptxas(tmp_path: Path) -> None:
    mod = compile_device(tmp_path, "k.cu", KERNEL)
    assert mod.triple == "nvptx64-nvidia-cuda"
    ptx = llvm.emit_ptx(mod, arch="sm_90")
    assert ".target sm_90" in ptx and ".entry" in ptx
    (tmp_path / "k.ptx").write_text(ptx)
    ptxas = toolchain.find_tool("ptxas").path
    result = subprocess.run([ptxas, "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "k.cubin").stat().st_size > 0


@pytest.mark.requires_tool("rocm-device-libs")
@pytest.mark.requires_tool("hip")
def test_emit_amdgpu_object(tmp_path: Path) -> None:
    mod = compile_device(tmp_path, "k.hip", HIP_KERNEL)
    assert mod.triple == "amdgcn-amd-amdhsa"
    obj = llvm.emit_amdgpu_object(mod, arch="gfx90a")
    assert obj[:4] == b"\x7fELF"
    llvm.optimize(mod, 3)  # the module is still usable after code generation
    assert llvm.emit_amdgpu_object(mod)[:4] == b"\x7fELF"


def test_gpu_emitters_check_the_target(bitcode: dict[str, bytes]) -> None:
    host = llvm.parse(bitcode["square.c"], name="square.bc")
    with pytest.raises(UsageError, match=r"'square.bc' targets x86_64-pc-linux-gnu, not nvptx64-nvidia-cuda"):
        llvm.emit_ptx(host)
    with pytest.raises(UsageError, match="not amdgcn-amd-amdhsa"):
        llvm.emit_amdgpu_object(host)
    with pytest.raises(UsageError, match="bad CUDA architecture 'gfx90a'"):
        llvm.emit_ptx(host, arch="gfx90a")
