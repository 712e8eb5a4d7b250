"""pyenzyme demo: C, Fortran and Rust in one LLVM 22 module, through our IR, run by the JIT.

    python3 examples/demo.py

1. ``enzyme compile`` turns examples/demo/{poly.c, flux.f90, scale.rs} into one linked bitcode module;
2. ``enzyme opt --no-preopt --no-postopt`` imports it into pyenzyme's IR model and prints it back
   (the round trip every differentiated module goes through), verified by LLVM;
3. the printed module is JIT-compiled in this process and each function is called on numpy
   arrays and compared with a numpy reference.

4. ``enzyme compile`` + ``enzyme opt`` (pre-AD O2, differentiation, O3) turn
   examples/demo/gradient.c, which calls ``__enzyme_autodiff`` and ``__enzyme_fwddiff``, into
   derivative code; the gradient is printed next to central finite differences, and the
   forward-mode directional derivative next to the gradient's inner product.
"""
from __future__ import annotations

import ctypes
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import enzyme
from enzyme.llvm import JIT
from enzyme.toolchain import jit_libraries

SOURCES_DIR = Path(__file__).resolve().parent / "demo"
SOURCES = ["poly.c", "flux.f90", "scale.rs"]
LANGUAGES = ["c", "fortran", "rust"]

c_double_p = ctypes.POINTER(ctypes.c_double)


def enzyme_cli(*args: str | Path) -> None:
    """Run ``python -m enzyme ARGS``; on failure show its output and stop."""
    command = [sys.executable, "-m", "enzyme", *map(str, args)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"demo: `{' '.join(command)}` failed:\n{result.stderr or result.stdout}")


def pointer(array: np.ndarray) -> ctypes._Pointer:
    assert array.dtype == np.float64 and array.flags.c_contiguous
    return array.ctypes.data_as(c_double_p)


@dataclass(frozen=True)
class Check:
    call: str
    ours: np.ndarray | float
    reference: np.ndarray | float

    @property
    def ok(self) -> bool:
        return bool(np.allclose(self.ours, self.reference, rtol=1e-14, atol=0.0))


def run_kernels(jit: JIT) -> list[Check]:
    x = np.array([0.5, -1.0, 2.0, 3.0])
    n = len(x)

    poly = jit.cfunc("poly", ctypes.c_double, c_double_p, ctypes.c_long, ctypes.c_double)
    checks = [Check("poly(x, n, 3.0)   [C]      ", poly(pointer(x), n, 3.0), 3.0 * np.sum(x**2))]

    flux = jit.cfunc("flux", None, ctypes.c_long, c_double_p, c_double_p)
    f = np.zeros_like(x)
    flux(n, pointer(x), pointer(f))
    checks.append(Check("flux(n, x, f)     [Fortran]", f, 0.5 * x**2))

    scale = jit.cfunc("scale", None, ctypes.c_double, c_double_p, c_double_p, ctypes.c_size_t)
    y = np.zeros_like(x)
    scale(2.5, pointer(x), pointer(y), n)
    checks.append(Check("scale(2.5, x, y)  [Rust]   ", y, 2.5 * x))
    return checks


def show(value: np.ndarray | float) -> str:
    return np.array2string(np.asarray(value), precision=4)


def main() -> int:
    print(f"pyenzyme {enzyme.__version__} demo: {', '.join(SOURCES)} -> one LLVM 22 module -> our IR -> JIT")
    with tempfile.TemporaryDirectory(prefix="enzyme-demo-") as scratch:
        linked = Path(scratch) / "demo.bc"
        round_tripped = Path(scratch) / "demo.ll"
        enzyme_cli("compile", *(SOURCES_DIR / s for s in SOURCES), "-o", linked)
        print(f"  enzyme compile   -> {linked.name} ({linked.stat().st_size} bytes of bitcode)")
        enzyme_cli("opt", "--no-preopt", "--no-postopt", linked, "-o", round_tripped)
        text = round_tripped.read_text()
        print(f"  enzyme opt       -> {round_tripped.name} (imported into enzyme.ir, printed, verified: "
              f"{text.count(chr(10))} lines)")
        jit = JIT(text, libraries=jit_libraries(LANGUAGES))

    print("  JIT-compiled; results vs numpy:")
    checks = run_kernels(jit)
    for check in checks:
        print(f"    {check.call} = {show(check.ours):<28} numpy: {show(check.reference):<28} "
              f"{'ok' if check.ok else 'MISMATCH'}")
    failed = [c.call.split("(")[0] for c in checks if not c.ok]
    if not gradient_demo():
        failed.append("gradient")
    if failed:
        print(f"demo: results differ from numpy for {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def gradient_demo() -> bool:
    """Differentiate examples/demo/gradient.c and check it against finite differences."""
    with tempfile.TemporaryDirectory(prefix="enzyme-demo-") as scratch:
        linked, optimized = Path(scratch) / "gradient.bc", Path(scratch) / "gradient.ll"
        enzyme_cli("compile", SOURCES_DIR / "gradient.c", "-O2", "-o", linked)
        enzyme_cli("opt", linked, "-o", optimized)
        jit = JIT(optimized.read_text(), libraries=jit_libraries(["c"]))
    energy = ctypes.CFUNCTYPE(ctypes.c_double, c_double_p, ctypes.c_int)(jit.address("energy"))
    gradient = ctypes.CFUNCTYPE(None, c_double_p, c_double_p, ctypes.c_int)(jit.address("gradient"))
    directional = ctypes.CFUNCTYPE(ctypes.c_double, c_double_p, c_double_p, ctypes.c_int)(
        jit.address("directional"))
    x = np.array([0.3, 1.1, 2.4, 3.2, 4.9, 5.5])
    n = len(x)
    dx = np.zeros(n)
    gradient(pointer(x), pointer(dx), n)
    fd = np.empty(n)
    for i in range(n):
        h = 1e-6
        xp, xm = x.copy(), x.copy()
        xp[i] += h
        xm[i] -= h
        fd[i] = (energy(pointer(xp), n) - energy(pointer(xm), n)) / (2 * h)
    v = np.linspace(1.0, -0.5, n)
    dd = directional(pointer(x), pointer(v), n)
    grad_ok = bool(np.allclose(dx, fd, rtol=1e-6, atol=1e-8))
    dir_ok = bool(np.isclose(dd, dx @ v, rtol=1e-12, atol=1e-14))
    print("  gradient.c differentiated by enzyme opt (reverse and forward mode), JIT-compiled:")
    print(f"    energy(x)                     = {energy(pointer(x), n):.12f}")
    for i in range(n):
        print(f"    d energy / dx[{i}]  reverse = {dx[i]: .12f}   finite difference = {fd[i]: .12f}")
    print(f"    gradient vs finite differences: {'ok' if grad_ok else 'MISMATCH'}")
    print(f"    forward-mode directional derivative = {dd:.12f}   <gradient, v> = {dx @ v:.12f}   "
          f"{'ok' if dir_ok else 'MISMATCH'}")
    return grad_ok and dir_ok


if __name__ == "__main__":
    sys.exit(main())
