"""The mark of one C/C++ unit our clang optimized at -O2 or higher for AD: the pre-AD pipeline does not run
O2 over it again, but does over linked modules and over units compiled at lower levels (issue 12)."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import llvm, toolchain

CALLEE = "double sq(double x) { return x * x; }\n"
CALLER = "double sq(double x);\ndouble f(double x) { return sq(x) + 1.0; }\n"


def compiled(tmp_path: Path, name: str, text: str, **options) -> bytes:
    source = tmp_path / name
    source.write_text(text)
    out = toolchain.compile_to_bitcode(source, tmp_path / f"{name}.bc", **options)
    assert not list(tmp_path.glob("*.mark.bc"))  # the mark's module is not left behind
    return out.read_bytes()


@pytest.mark.parametrize("opt_level", [2, 3])
def test_one_unit_at_O2_is_marked_and_keeps_its_code(tmp_path: Path, opt_level: int) -> None:
    module = llvm.parse(compiled(tmp_path, "a.c", CALLEE + CALLER, opt_level=opt_level))
    assert llvm.is_one_optimized_unit(str(module))
    before = str(module.get_function("f"))
    llvm.preopt(module)
    llvm.verify(module)
    assert str(module.get_function("f")) == before  # no second O2 (it would find nothing to do here)


@pytest.mark.parametrize("flags", [{"opt_level": 0}, {"opt_level": 1}, {"flags": ("--target=x86_64-pc-linux-gnu",)},
                                   {"flags": ("-O0",)}])
def test_lower_levels_and_target_flags_are_not_marked(tmp_path: Path, flags: dict) -> None:
    module = llvm.parse(compiled(tmp_path, "a.c", CALLEE, **flags))
    assert not llvm.is_one_optimized_unit(str(module))


def test_linked_units_get_the_pre_ad_O2(tmp_path: Path) -> None:
    """Two marked units, or a marked unit and an unmarked module: preopt inlines across them."""
    caller = ("caller.c", compiled(tmp_path, "caller.c", CALLER))
    callee = ("callee.c", compiled(tmp_path, "callee.c", CALLEE))
    ir = ("callee.ll", "define double @sq(double %x) {\n  %y = fmul double %x, %x\n  ret double %y\n}\n")
    unmarked = ("caller0.c", compiled(tmp_path, "caller0.c", CALLER, opt_level=0))
    for inputs in ([caller, callee], [caller, ir], [unmarked, ir]):
        module = llvm.link(inputs)
        assert not llvm.is_one_optimized_unit(str(module))
        llvm.preopt(module)
        assert "call" not in str(module.get_function("f"))  # sq was inlined across the files


def test_the_mark_keeps_builds_reproducible(tmp_path: Path) -> None:
    """The mark names the source and how it was compiled, not the (often temporary) output path."""
    source = tmp_path / "a.c"
    source.write_text("#ifdef N\ndouble twice(double x) { return N * x; }\n#else\n" + CALLEE + "#endif\n")
    first = toolchain.compile_to_bitcode(source, tmp_path / "one" / "a.bc").read_bytes()
    second = toolchain.compile_to_bitcode(source, tmp_path / "two" / "b.bc").read_bytes()
    assert first == second
    other = toolchain.compile_to_bitcode(source, tmp_path / "three" / "a.bc", defines=("N=2",)).read_bytes()
    linked = llvm.link([("a.c", first), ("a.c with N=2", other)])  # the same file compiled twice, then linked
    assert str(linked).count("by pyenzyme's clang") == 2
