"""CUDA programs built by enzyme-c++: host main, kernels differentiating __device__ functions.

The program (examples/cuda/gradient_program.cu) checks its own gradients against
finite differences computed on the host.  Built everywhere the CUDA toolkit is;
run everywhere too: with an NVIDIA GPU it must print ``ok`` and exit 0, without
one it must stop with the CUDA runtime's error (exit 2), not crash.  HIP device
code builds into an AMDGPU code object (compile only: no HIP runtime here).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from wrapper_env import REPO_ROOT, Wrappers

PROGRAM = REPO_ROOT / "examples" / "cuda" / "gradient_program.cu"


def nvidia_gpu() -> bool:
    return Path("/dev/nvidia0").exists() and shutil.which("nvidia-smi") is not None


SELF_CHECKING = [REPO_ROOT / "examples" / "cuda" / "device_features.cu",
                 *sorted((REPO_ROOT / "tests" / "corpus" / "gpu").glob("*.cu"))]


@pytest.mark.requires_tool("cuda")
@pytest.mark.requires_tool("ptxas")
@pytest.mark.parametrize("source", SELF_CHECKING, ids=lambda p: p.stem)
def test_self_checking_gpu_programs_build_and_run_or_fail_cleanly(wrappers: Wrappers, source: Path) -> None:
    """device_features.cu (barriers, atomics, forward mode, libdevice math, long tapes) and the GPU corpus
    (tests/corpus/gpu: an implicit solver, a tiled stencil, a Lennard-Jones cluster, a softmax regression),
    each checked against its oracle by the program itself on a GPU (ci/gpu_check.sh runs them at every level)."""
    for header in source.parent.glob("*.h"):
        shutil.copy(header, wrappers.cwd / header.name)
    shutil.copy(source, wrappers.cwd / source.name)
    wrappers.run("enzyme-c++", "-O2", source.name, "-o", "prog")
    check_run(wrappers.cwd / "prog")


def check_run(program: Path) -> None:
    """Run a built CUDA program: its own finite-difference check on a GPU, a clean CUDA error without one."""
    result = subprocess.run([program], capture_output=True, text=True, timeout=300, check=False)
    if nvidia_gpu():
        assert result.returncode == 0 and result.stdout.startswith("ok:"), result.stdout + result.stderr
    else:
        assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)  # not a signal
        assert result.stderr.startswith("CUDA error: "), result.stderr


@pytest.mark.requires_tool("cuda")
@pytest.mark.requires_tool("ptxas")
def test_cuda_program_builds_links_and_runs_or_fails_cleanly(wrappers: Wrappers) -> None:
    shutil.copy(PROGRAM, wrappers.cwd / "prog.cu")
    wrappers.run("enzyme-c++", "-O2", "prog.cu", "-o", "prog")
    elf = subprocess.run(["readelf", "-S", "-d", wrappers.cwd / "prog"], capture_output=True, text=True,
                         check=True).stdout
    assert ".nv_fatbin" in elf and "libcudart.so" in elf  # the device code is in, the runtime is linked
    check_run(wrappers.cwd / "prog")
    # Compiled and linked separately: the object's host side asks for the CUDA runtime itself.
    wrappers.run("enzyme-c++", "-O2", "-c", "prog.cu", "-o", "prog.o", "--cuda-gpu-arch=sm_80")
    wrappers.run("enzyme-c++", "prog.o", "-o", "prog2")
    check_run(wrappers.cwd / "prog2")


@pytest.mark.requires_tool("cuda")
@pytest.mark.requires_tool("ptxas")
def test_device_side_of_the_program_has_atomics_and_a_device_tape(wrappers: Wrappers) -> None:
    """The PTX embedded in the program, made the same way by the CMake steps."""
    shutil.copy(PROGRAM, wrappers.cwd / "prog.cu")
    enzyme = [sys.executable, "-m", "enzyme"]
    wrappers.run(*enzyme, "bitcode", "prog.cu", "-o", "prog.bc")
    wrappers.run(*enzyme, "build", "prog.bc", "-o", "prog.ptx")
    ptx = (wrappers.cwd / "prog.ptx").read_text()
    for kernel in ("grad_shared", "grad_ode", "tangent_ode"):
        assert f".entry _Z{len(kernel)}{kernel}" in ptx
    assert "atom.global.add.f64" in ptx  # dw, shared by every thread
    assert "malloc" in ptx  # the integrator's tape


def test_several_gpu_architectures_are_refused(wrappers: Wrappers) -> None:
    wrappers.write("k.cu", "__global__ void k() {}\n")
    result = wrappers.run("enzyme-c++", "-c", "k.cu", "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90",
                          check=False)
    assert result.returncode != 0 and "several CUDA architectures (sm_80, sm_90)" in result.stderr


HIP_KERNEL = """
#include <hip/hip_runtime.h>
#include <enzyme/enzyme.h>
__device__ double energy(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]) / (1.0 + x[0] * x[0]); }
extern "C" __global__ void grad(const double *x, double *dx) {
  int i = threadIdx.x;
  __enzyme_autodiff((void *)energy, enzyme_dup, x + 2 * i, dx + 2 * i);
}
"""


@pytest.mark.requires_tool("rocm-device-libs")
@pytest.mark.requires_tool("hip")
@pytest.mark.parametrize(("arch", "opt"), [(None, "-O2"), ("gfx908", "-O0")])
def test_hip_source_builds_a_code_object(wrappers: Wrappers, arch: str | None, opt: str) -> None:
    wrappers.write("k.hip", HIP_KERNEL)
    flags = [f"--offload-arch={arch}"] if arch else []
    wrappers.run("enzyme-c++", opt, "-c", "k.hip", "-o", "k.hsaco", *flags)
    header = subprocess.run(["readelf", "-h", "-s", wrappers.cwd / "k.hsaco"], capture_output=True, text=True,
                            check=True).stdout
    assert "AMD GPU" in header and " grad" in header and "DYN" in header
    assert f", {arch or 'gfx90a'}," in header  # Flags: 0x53f, gfx90a, xnack ...
    assert " UND free" not in header and " UND malloc" not in header  # loadable: nothing left undefined
