"""Differentiation requests in CUDA device code.

Device globals live in address space 1, so the markers reach the call through
an ``addrspacecast``; the derivative must honour them (here: the array is
``enzyme_dup``, the length ``enzyme_const``).  Without a GPU the numbers are
not run; the generated derivative is checked for shape, and the same engine's
numbers are checked on the host by the programs in tests/ad/programs.  (Loops
whose reverse sweep needs a tape are not supported on the GPU yet: the tape
grows with realloc, which device code lacks; loops whose reverse recomputes
everything are.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import llvm
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

KERNEL = """
extern __device__ int enzyme_dup, enzyme_const;
extern __device__ double __enzyme_autodiff(void *, ...);
__device__ double energy(const double *x, int n) { return x[0] * x[1] * n + x[2] * x[2]; }
extern "C" __global__ void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
}
"""


@pytest.mark.requires_tool("cuda")
def test_markers_in_device_code_are_decoded(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    result = transform_module(compile_sources([src], CompileOptions(opt_level=2)), TransformOptions(postopt_level=2))
    text = llvm.to_text(result)
    assert "__enzyme_autodiff" not in text
    grad = text[text.index("void @grad("):]
    grad = grad[:grad.index("\n}\n")]
    assert "store double" in grad  # the adjoint is accumulated into dx (the shadow), not returned
    ptx = llvm.emit_ptx(result)
    assert ".visible .entry grad(" in ptx


@pytest.mark.requires_tool("cuda")
def test_reverse_sweep_needing_a_tape_is_refused_on_the_gpu(tmp_path: Path) -> None:
    from enzyme.errors import DifferentiationError
    src = tmp_path / "k.cu"
    src.write_text(KERNEL.replace("return x[0] * x[1] * n + x[2] * x[2];",
                                  "double s = 1; for (int i = 0; i < n; i++) s *= x[i]; return s;"))
    module = compile_sources([src], CompileOptions(opt_level=2))
    with pytest.raises(DifferentiationError, match=r"needs a tape .* GPU device code does not support yet"):
        transform_module(module, TransformOptions(postopt_level=2))


@pytest.mark.requires_tool("cuda")
def test_loop_whose_reverse_recomputes_everything_compiles_for_the_gpu(tmp_path: Path) -> None:
    """A sum of squares needs no tape: the loop's counter comes from its bound, x[i] is re-read and the
    loop's guard is recomputed (no taped 'came from' marker), so device code can have its gradient."""
    src = tmp_path / "k.cu"
    src.write_text(KERNEL.replace("return x[0] * x[1] * n + x[2] * x[2];",
                                  "double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s;"))
    result = transform_module(compile_sources([src], CompileOptions(opt_level=2)), TransformOptions(postopt_level=2))
    text = llvm.to_text(result)
    assert "__pyenzyme_tape_push" not in text
    assert ".visible .entry grad(" in llvm.emit_ptx(result)


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
