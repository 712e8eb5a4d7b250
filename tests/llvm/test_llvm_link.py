"""enzyme.llvm.link: one module from C, Fortran and Rust bitcode."""
from __future__ import annotations

import gc

import pytest

from enzyme import llvm
from enzyme.errors import IRParseError, LinkError


def defined(mod) -> set[str]:
    return {f.name for f in mod.functions if not f.is_declaration}


def test_link_c_fortran_rust(bitcode: dict[str, bytes]) -> None:
    names = ["square.c", "scale.f90", "vsum.rs", "nostd.rs"]
    assert llvm.parse(bitcode["vsum.rs"]).triple == "x86_64-unknown-linux-gnu"
    mod = llvm.link([(name, bitcode[name]) for name in names])
    llvm.verify(mod, name="linked")
    assert mod.triple == "x86_64-pc-linux-gnu"  # rustc's vendor unified to clang's
    assert {"square", "add", "fscale", "rust_vsum", "rust_cube"} <= defined(mod)
    # The no_std panic handler must not clash with the one in Rust's std runtime.
    for function in mod.functions:
        if function.name.endswith("rust_begin_unwind") and not function.is_declaration:
            assert str(function.linkage) == "Linkage.internal"


def test_link_accepts_text_and_survives_garbage_collection(bitcode: dict[str, bytes]) -> None:
    text = "define double @twice(double %x) {\n  %y = fmul double %x, 2.0\n  ret double %y\n}\n"
    mods = [llvm.link([("square.c", bitcode["square.c"]), ("twice.ll", text)]) for _ in range(3)]
    clones = [m.clone() for m in mods]
    del mods
    gc.collect()
    assert all("twice" in defined(c) and "square" in defined(c) for c in clones)


def test_duplicate_definitions_are_a_link_error(bitcode: dict[str, bytes]) -> None:
    with pytest.raises(LinkError, match=r"cannot link b.c with a.c: .*'square'.*multiply defined"):
        llvm.link([("a.c", bitcode["square.c"]), ("b.c", bitcode["square.c"])])


def test_different_targets_are_refused(bitcode: dict[str, bytes]) -> None:
    device = 'target triple = "nvptx64-nvidia-cuda"\ndefine void @k() {\n  ret void\n}\n'
    with pytest.raises(LinkError, match=r"k.ll \(target nvptx64-nvidia-cuda\) with square.c"):
        llvm.link([("square.c", bitcode["square.c"]), ("k.ll", device)])


def test_different_data_layouts_are_refused(bitcode: dict[str, bytes]) -> None:
    """A module without a triple but with another target's data layout would otherwise be given the host's."""
    i386 = ('target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32'
            '-S128"\ndefine void @k() {\n  ret void\n}\n')
    with pytest.raises(LinkError, match=r"cannot link i386\.ll \(data layout 'e-m:e-p:32:32.*'\) with square\.c "
                                        r"\(data layout .*\): they were written for different targets"):
        llvm.link([("square.c", bitcode["square.c"]), ("i386.ll", i386)])


def test_parse_errors_name_the_input() -> None:
    with pytest.raises(IRParseError, match=r"^broken.ll:1:"):
        llvm.link([("ok.ll", "define void @f() {\n  ret void\n}\n"), ("broken.ll", "define {")])
    with pytest.raises(LinkError, match="nothing to link"):
        llvm.link([])
