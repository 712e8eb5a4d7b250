"""Tiny sources compiled once per session for the LLVM boundary tests."""
from __future__ import annotations

import pytest

from enzyme import toolchain

SOURCES = {
    "square.c": "double square(double x) { return x * x; }\nint add(int a, int b) { return a + b; }\n",
    "scale.f90": (
        "subroutine scale(x, n) bind(C, name=\"fscale\")\n"
        "  use iso_c_binding\n"
        "  integer(c_int), value :: n\n"
        "  real(c_double) :: x(n)\n"
        "  x = 2 * x\n"
        "end subroutine\n"
    ),
    "vsum.rs": (
        "#[no_mangle]\n"
        "pub extern \"C\" fn rust_vsum(n: usize) -> f64 {\n"
        "    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();\n"
        "    v.iter().sum()\n"
        "}\n"
    ),
    "nostd.rs": (
        "#![no_std]\n"
        "#[panic_handler]\n"
        "fn panic(_: &core::panic::PanicInfo) -> ! { loop {} }\n"
        "#[no_mangle]\n"
        "pub extern \"C\" fn rust_cube(x: f64) -> f64 { x * x * x }\n"
    ),
    "loop.c": (
        "double dot(const double* a, const double* b, int n) {\n"
        "  double s = 0;\n"
        "  for (int i = 0; i < n; ++i) s += a[i] * b[i];\n"
        "  return s;\n"
        "}\n"
    ),
}


@pytest.fixture(scope="session")
def bitcode(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """``bitcode["square.c"]``: each of SOURCES compiled at -O2 (``loop.c@O0`` at -O0 with -g)."""
    directory = tmp_path_factory.mktemp("llvm-sources")
    result: dict[str, bytes] = {}
    for name, text in SOURCES.items():
        source = directory / name
        source.write_text(text)
        result[name] = toolchain.compile_to_bitcode(source, directory / f"{name}.bc").read_bytes()
    loop = toolchain.compile_to_bitcode(directory / "loop.c", directory / "loop-O0.bc", opt_level=0, debug=True)
    result["loop.c@O0"] = loop.read_bytes()
    return result

