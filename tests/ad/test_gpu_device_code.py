"""Differentiation requests in GPU device code.

Device globals live in address space 1, so the markers of ``enzyme.h`` (device
variables in device compiles) reach the call through an ``addrspacecast``; the
derivative must honour them.  Without a GPU the kernels are not run: the
generated code is checked for what makes it right on a GPU (atomic adjoint
accumulation into memory threads share, a tape grown with device malloc,
libdevice math), ptxas assembles it, and the same device paths are taken for
host code (``PYENZYME_DEVICE_PATHS=1``) so their numbers are checked against
finite differences on the CPU.  Running kernels is in tests/wrappers/test_cuda_programs.py
(on a machine with an NVIDIA GPU).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import re
import subprocess
from pathlib import Path

import pytest

from enzyme import device_libraries, llvm
from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PTXAS = "/usr/local/cuda-13.0/bin/ptxas"

KERNEL = """
#include <enzyme/enzyme.h>
__device__ double energy(const double *x, int n) { return x[0] * x[1] * n + x[2] * x[2]; }
__device__ double cube(double x) { return x * x * x; }
extern "C" __global__ void grad(const double *x, double *dx, int n, double *out) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
  out[threadIdx.x] = __enzyme_autodiff((void *)cube, enzyme_out, x[threadIdx.x]);
  out[threadIdx.x + 32] = __enzyme_fwddiff((void *)cube, x[threadIdx.x], 1.0);
}
"""


def _device(tmp_path: Path, source: str, suffix: str = ".cu") -> llvm.ModuleRef:
    src = tmp_path / f"k{suffix}"
    src.write_text(source)
    module = transform_module(compile_sources([src], CompileOptions(opt_level=2)), TransformOptions(postopt_level=2))
    return device_libraries.finish_device_module(module, 2, name=str(src))


def _function(text: str, name: str) -> str:
    body = text[text.index(f" @{name}("):]
    return body[:body.index("\n}\n")]


def _assembles(tmp_path: Path, ptx: str) -> None:
    if not Path(PTXAS).is_file():
        return
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run([PTXAS, "-arch=sm_90", tmp_path / "k.ptx", "-o", tmp_path / "k.cubin"], check=True,
                   capture_output=True)


@pytest.mark.requires_tool("cuda")
def test_enzyme_h_markers_in_device_code(tmp_path: Path) -> None:
    """enzyme_dup/enzyme_const/enzyme_out from <enzyme/enzyme.h> in a __global__ kernel (reverse and forward)."""
    result = _device(tmp_path, KERNEL)
    text = llvm.to_text(result)
    assert "__enzyme_autodiff" not in text and "__enzyme_fwddiff" not in text
    grad = _function(text, "grad")
    # Every thread adds into the same dx: the adjoints are accumulated atomically, never load-add-store.
    assert len(re.findall(r"atomicrmw fadd ptr %\d+, double", grad)) == 3
    assert not re.search(r"store double [^,]+, ptr %1\b", grad)
    assert "__pyenzyme_spare_tape" not in text  # no module-wide tape slot shared by all threads
    ptx = llvm.emit_ptx(result)
    assert ".visible .entry grad(" in ptx and "atom.global.add.f64" in ptx
    _assembles(tmp_path, ptx)


@pytest.mark.requires_tool("cuda")
def test_reverse_sweep_with_a_tape_grows_it_with_device_malloc(tmp_path: Path) -> None:
    """A loop whose reverse needs its partial products: the per-thread tape is malloc'ed on the device, once
    per warp before the loop (its trip count is known there), the warp's lanes sharing the block."""
    result = _device(tmp_path, KERNEL.replace("return x[0] * x[1] * n + x[2] * x[2];",
                                              "double s = 1; for (int i = 0; i < n; i++) s *= x[i]; return s;"))
    text = llvm.to_text(result)
    assert "@realloc" not in text and "@abort" not in text
    assert re.search(r"call .*ptr @malloc\(i64", text) and "call void @llvm.trap()" in text
    ptx = llvm.emit_ptx(result)
    assert "call.uni (retval0), malloc," in ptx
    assert "call i32 @llvm.nvvm.activemask()" in text and "activemask.b32" in ptx and "shfl.sync.idx.b32" in ptx
    assert "atom.acq_rel.sub.u32" in ptx or "atom.sub" in ptx or "atom.add" in ptx  # the last lane frees the block
    _assembles(tmp_path, ptx)


@pytest.mark.requires_tool("cuda")
def test_libdevice_math_is_differentiated_and_linked_after(tmp_path: Path) -> None:
    """sin/exp/pow... stay __nv_* calls until the derivative is made; then libdevice is linked (cos, the
    derivative's own math, is libdevice's too) and nothing is left unresolved."""
    source = KERNEL.replace("return x * x * x;", "return sin(x) * exp(x) + pow(x, 1.5) + erf(x);")
    result = _device(tmp_path, source)
    _, undefined = llvm.global_symbols(result)
    assert not [n for n in undefined if n.startswith(("__nv_", "llvm.cos", "cos", "exp", "erf"))]
    _assembles(tmp_path, llvm.emit_ptx(result))


def test_derivative_math_is_pointed_at_libdevice() -> None:
    from enzyme.rules.math import canonical_name
    assert [canonical_name(n) for n in ("__nv_sin", "__nv_sinf", "__nv_fast_expf", "__nv_powi", "__nv_erf")] == [
        "sin", "sin", "exp", "powi", "erf"]
    names = frozenset({"__nv_cos", "__nv_cosf", "__nv_erf", "__nv_sin"})
    text = ("declare double @llvm.cos.f64(double) #1\ndeclare float @llvm.cos.f32(float)\n"
            "declare double @llvm.sqrt.f64(double)\ndeclare double @erf(double)\ndeclare double @__nv_sin(double)\n"
            "define double @f(double %x) {\n  %a = call double @llvm.cos.f64(double %x)\n"
            "  %b = call double @erf(double %a)\n  %c = call double @llvm.sqrt.f64(double %b)\n"
            "  %s = call float @llvm.cos.f32(float 1.0)\n  ret double %c\n}\n")
    out = device_libraries.retarget_math(text, names)
    assert "call double @__nv_cos(double %x)" in out and "call float @__nv_cosf(float 1.0)" in out
    assert "call double @__nv_erf(double %a)" in out and "@llvm.sqrt.f64(double %b)" in out  # sqrt is native
    assert out.count("declare double @__nv_cos(double)") == 1 and "@llvm.cos" not in out


@pytest.mark.requires_tool("cuda")
def test_device_math_without_a_rule_is_a_one_line_error(tmp_path: Path) -> None:
    source = KERNEL.replace("return x * x * x;", "return rsqrt(x);")
    with pytest.raises(DifferentiationError, match=r"no derivative rule for @__nv_rsqrt") as info:
        _device(tmp_path, source)
    assert "\n" not in str(info.value).strip()


@pytest.mark.requires_tool("rocm-device-libs")
@pytest.mark.requires_tool("hip")
def test_amdgpu_tape_lives_on_the_stack_and_math_comes_from_ocml(tmp_path: Path) -> None:
    """AMDGPU has no device malloc: the tape is the thread's 192-byte buffer (address space 5), and outgrowing
    it traps; sin/exp are ocml's, differentiated with the libm rules and linked after."""
    from enzyme import gpu_programs
    source = """
#include <hip/hip_runtime.h>
#include <enzyme/enzyme.h>
__device__ double prod(const double *x, int n) {
  double s = 1; for (int i = 0; i < n; i++) s *= sin(x[i]) + exp(0.1 * x[i]); return s;
}
extern "C" __global__ void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)prod, enzyme_dup, x, dx, enzyme_const, n);
}
"""
    module = _device(tmp_path, source, ".hip")
    text = llvm.to_text(module)
    assert "alloca [192 x i8], align 16, addrspace(5)" in text and "call void @llvm.trap()" in text
    assert "@malloc" not in text and "@free" not in text
    _, undefined = llvm.global_symbols(module)
    assert not [n for n in undefined if not n.startswith("llvm.")]  # ocml linked in, nothing left
    code_object = gpu_programs.hip_code_object(module, "gfx90a", tmp_path / "k.hsaco")
    assert code_object.read_bytes()[:4] == b"\x7fELF"


# -- the device paths on the host: numbers against finite differences ------------------------------------

HOST = r"""
#include <enzyme/enzyme.h>
#include <math.h>
/* Needs a tape (the partial products) and reads w[] shared by all "threads". */
static double model(const double *w, const double *x, int n) {
  double s = 1.0;
  for (int i = 0; i < n; i++) s *= 1.0 + 0.1 * w[i % 3] * sin(x[i]);
  return s;
}
void grad(const double *w, double *dw, const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)model, enzyme_dup, w, dw, enzyme_dup, x, dx, enzyme_const, n);
}
double value(const double *w, const double *x, int n) { return model(w, x, n); }
"""


@pytest.mark.parametrize("n", [4, 64])  # the tape fits the thread's stack buffer / moves to the heap
def test_device_paths_give_the_right_numbers_on_the_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         n: int) -> None:
    monkeypatch.setenv("PYENZYME_DEVICE_PATHS", "1")
    src = tmp_path / "model.c"
    src.write_text(HOST)
    result = transform_module(compile_sources([src], CompileOptions(opt_level=2)), TransformOptions(postopt_level=2))
    text = llvm.to_text(result)
    assert "atomicrmw fadd" in text and "@realloc" not in text and "@malloc" in text
    assert "alloca [192 x i8]" in text  # the tape's first bytes live on the stack
    jit = llvm.JIT(text, libraries=[ctypes.util.find_library("m"), ctypes.util.find_library("c")])
    arr = ctypes.c_double * 64
    grad = jit.cfunc("grad", None, arr, arr, arr, arr, ctypes.c_int)
    value = jit.cfunc("value", ctypes.c_double, arr, arr, ctypes.c_int)
    w0, x0 = [0.3, -0.7, 1.1], [math.sin(1.7 * i) for i in range(n)]
    w, x, dw, dx = arr(*w0), arr(*x0), arr(), arr()
    grad(w, dw, x, dx, n)
    h = 1e-6
    for values, derivative, size in ((w0, dw, 3), (x0, dx, n)):
        for i in range(size):
            plus, minus = list(values), list(values)
            plus[i] += h
            minus[i] -= h
            if values is w0:
                fd = (value(arr(*plus), arr(*x0), n) - value(arr(*minus), arr(*x0), n)) / (2 * h)
            else:
                fd = (value(arr(*w0), arr(*plus), n) - value(arr(*w0), arr(*minus), n)) / (2 * h)
            assert derivative[i] == pytest.approx(fd, rel=1e-6, abs=1e-9)


def test_function_behind_constant_casts_is_found() -> None:
    """GPU code may pass the function through addrspacecasts; the request still names it."""
    import ctypes
    import ctypes.util

    from enzyme.driver import differentiate_module
    from enzyme.ir import parse_module, print_module
    module = parse_module("""
define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
declare double @__enzyme_autodiff(ptr, ...)
define double @g(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr addrspacecast (ptr addrspace(1) addrspacecast (ptr @f to ptr addrspace(1)) to ptr), double %x)
  ret double %r
}""")
    assert differentiate_module(module) == 1
    jit = llvm.JIT(print_module(module), libraries=[ctypes.util.find_library("c")])
    assert jit.cfunc("g", ctypes.c_double, ctypes.c_double)(3.0) == 6.0


@pytest.mark.requires_tool("cuda")
def test_barrier_in_the_differentiated_function_is_mirrored(tmp_path: Path) -> None:
    """Threads exchange values through shared memory across __syncthreads: in the reverse sweep the adjoints
    go back the same way, so the barrier comes back between the atomic adds and the reads of the adjoints."""
    source = """
#include <enzyme/enzyme.h>
__device__ double f(double *s, double x) { s[threadIdx.x] = x * x; __syncthreads(); return s[(threadIdx.x + 1) % 32] * x; }
__global__ void k(double *x, double *o) {
  __shared__ double s[32], ds[32];
  ds[threadIdx.x] = 0;
  o[threadIdx.x] = __enzyme_autodiff((void *)f, enzyme_dup, s, ds, enzyme_out, x[threadIdx.x]);
}
"""
    text = llvm.to_text(_device(tmp_path, source))
    kernel = _function(text, "_Z1kPdS_")
    barrier = "call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"
    assert kernel.count(barrier) == 2
    reverse = kernel[kernel.index(barrier) + len(barrier):]
    add, second, read = reverse.index("atomicrmw fadd"), reverse.index(barrier), reverse.rindex("= load double")
    assert add < second < read  # neighbour's adjoint added, barrier, own adjoint read


ATOMIC = r"""
#include <enzyme/enzyme.h>
/* total += x0 * x1 atomically, then the old value is used too (old * x0). */
static double accumulate(const double *x, double *total) {
  double old = __atomic_fetch_add(total, x[0] * x[1], __ATOMIC_RELAXED);
  __atomic_fetch_sub(total, 0.5 * x[1], __ATOMIC_RELAXED);
  return old * x[0];
}
void grad(const double *x, double *dx, double *total, double *dtotal) {
  __enzyme_autodiff((void *)accumulate, enzyme_dup, x, dx, enzyme_dup, total, dtotal);
}
double tangent(const double *x, const double *tx, double *total, double *ttotal) {
  return __enzyme_fwddiff((void *)accumulate, enzyme_dup, x, tx, enzyme_dup, total, ttotal);
}
double value(const double *x, double *total) { return accumulate(x, total); }
"""


def test_atomic_additions_are_differentiated(tmp_path: Path) -> None:
    """atomicrmw fadd/fsub (atomicAdd in CUDA): reverse and forward mode against finite differences of
    L = result + 3 * total_after (total_after's adjoint seeded through dtotal = 3)."""
    src = tmp_path / "atomic.c"
    src.write_text(ATOMIC)
    result = transform_module(compile_sources([src], CompileOptions(opt_level=2)), TransformOptions(postopt_level=2))
    jit = llvm.JIT(llvm.to_text(result), libraries=[ctypes.util.find_library("c")])
    arr = ctypes.c_double * 2
    one = ctypes.c_double * 1
    grad = jit.cfunc("grad", None, arr, arr, one, one)
    tangent = jit.cfunc("tangent", ctypes.c_double, arr, arr, one, one)
    value = jit.cfunc("value", ctypes.c_double, arr, one)
    x0, t0 = [0.8, -1.7], 2.5

    def loss(x: list[float], t: float) -> float:
        total = one(t)
        return value(arr(*x), total) + 3.0 * total[0]

    dx, dtotal = arr(), one(3.0)
    grad(arr(*x0), dx, one(t0), dtotal)
    h = 1e-6
    fd = [(loss([x0[0] + h, x0[1]], t0) - loss([x0[0] - h, x0[1]], t0)) / (2 * h),
          (loss([x0[0], x0[1] + h], t0) - loss([x0[0], x0[1] - h], t0)) / (2 * h)]
    fd_total = (loss(x0, t0 + h) - loss(x0, t0 - h)) / (2 * h)
    assert list(dx) == pytest.approx(fd, rel=1e-7) and dtotal[0] == pytest.approx(fd_total, rel=1e-7)
    # Forward: the tangent of the result and of total in the direction (tx, ttotal) = (1, 0.5; 2).
    ttotal = one(2.0)
    dr = tangent(arr(*x0), arr(1.0, 0.5), one(t0), ttotal)
    total = one(t0)
    base = value(arr(*x0), total)
    total_h = one(t0 + 2.0 * h)
    moved = value(arr(x0[0] + h, x0[1] + 0.5 * h), total_h)
    assert dr == pytest.approx((moved - base) / h, rel=1e-5)
    assert ttotal[0] == pytest.approx((total_h[0] - total[0]) / h, rel=1e-5)


@pytest.mark.requires_tool("cuda")
def test_cxx_header_in_device_code(tmp_path: Path) -> None:
    """<enzyme/enzyme> (C++17) is __host__ __device__ under CUDA: enzyme::autodiff in a kernel."""
    source = """
#include <enzyme/enzyme>
__device__ double cube(double x) { return x * x * x; }
extern "C" __global__ void k(double *x) {
  x[threadIdx.x + 32] = enzyme::get<0>(enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(cube, enzyme::Active<double>{x[threadIdx.x]})));
}
"""
    src = tmp_path / "k.cu"
    src.write_text(source)
    module = transform_module(compile_sources([src], CompileOptions(opt_level=2, flags=("-std=c++17",))),
                              TransformOptions(postopt_level=2))
    kernel = _function(llvm.to_text(module), "k")
    assert "__enzyme_autodiff" not in kernel and "fmul" in kernel  # 3 x^2, computed in the kernel
    _assembles(tmp_path, llvm.emit_ptx(module))
