"""enzyme.llvm.JIT: in-process code, called through ctypes."""
from __future__ import annotations

import ctypes

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import LinkError

c_double_p = ctypes.POINTER(ctypes.c_double)


def test_jit_calls_a_c_function(bitcode: dict[str, bytes]) -> None:
    jit = llvm.JIT(llvm.parse(bitcode["square.c"]))
    square = jit.cfunc("square", ctypes.c_double, ctypes.c_double)
    assert square(1.5) == 2.25
    add = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int)(jit.address("add"))
    assert add(40, 2) == 42


def test_jit_accepts_text_and_libm() -> None:
    text = (
        "declare double @cos(double)\n"
        "define double @cos_plus_one(double %x) {\n"
        "  %c = call double @cos(double %x)\n"
        "  %r = fadd double %c, 1.0\n"
        "  ret double %r\n"
        "}\n"
    )
    jit = llvm.JIT(text, libraries=toolchain.jit_libraries(["c"]))
    assert jit.cfunc("cos_plus_one", ctypes.c_double, ctypes.c_double)(0.0) == 2.0


def test_unresolved_symbol_is_named() -> None:
    text = (
        "declare double @no_such_function_anywhere(double)\n"
        "declare double @unused_declaration(double)\n"
        "define double @f(double %x) {\n"
        "  %r = call double @no_such_function_anywhere(double %x)\n"
        "  ret double %r\n"
        "}\n"
    )
    with pytest.raises(LinkError) as info:
        llvm.JIT(text)
    message = str(info.value)
    assert "unresolved symbol(s) no_such_function_anywhere;" in message
    assert "unused_declaration" not in message  # only symbols the code uses must resolve
    assert "libraries=" in message


def test_unknown_symbol_lookup(bitcode: dict[str, bytes]) -> None:
    jit = llvm.JIT(llvm.parse(bitcode["square.c"]))
    with pytest.raises(LinkError, match=r"symbol 'cube' is not defined .*defined: add, square"):
        jit.address("cube")
    jit.close()
    jit.close()  # idempotent


def test_jit_linked_c_fortran_rust_module(bitcode: dict[str, bytes]) -> None:
    names = ["square.c", "scale.f90", "vsum.rs", "nostd.rs"]
    mod = llvm.link([(name, bitcode[name]) for name in names])
    languages = [toolchain.language_of(name) for name in names]
    jit = llvm.JIT(mod, libraries=toolchain.jit_libraries(languages))
    assert jit.cfunc("square", ctypes.c_double, ctypes.c_double)(3.0) == 9.0
    assert jit.cfunc("rust_vsum", ctypes.c_double, ctypes.c_size_t)(5) == 10.0  # needs Rust's std
    assert jit.cfunc("rust_cube", ctypes.c_double, ctypes.c_double)(2.0) == 8.0
    x = (ctypes.c_double * 3)(1.0, 2.0, 3.0)
    jit.cfunc("fscale", None, c_double_p, ctypes.c_int)(x, 3)
    assert list(x) == [2.0, 4.0, 6.0]
