"""Generated functions inherit their primal's target attributes, and only those."""
from __future__ import annotations

from enzyme.ir import Function, FunctionType
from enzyme.ir.parser import parse_module
from enzyme.ir.printer import print_module
from enzyme.ir.target_attributes import inherit_target_attributes, target_attributes
from enzyme.ir.types import DOUBLE

SOURCE = """
define double @f(double %x) #0 {
  ret double %x
}

define double @g(double %x) #1 {
  ret double %x
}

attributes #0 = { noinline nounwind optnone uwtable "min-legal-vector-width"="256" "target-cpu"="x86-64" "target-features"="+avx,+fma,+sse2" "tune-cpu"="generic" }
attributes #1 = { nounwind }
"""


def _new(module, name: str) -> Function:
    fn = Function(name, FunctionType(DOUBLE, (DOUBLE,)), prefix="internal")
    module.add(fn)
    return fn


def test_derivatives_get_the_target_not_the_rest() -> None:
    module = parse_module(SOURCE)
    f = module.get_function("f")
    assert f is not None
    assert target_attributes(f) == ('"min-legal-vector-width"="256" "target-cpu"="x86-64" '
                                    '"target-features"="+avx,+fma,+sse2" "tune-cpu"="generic"')
    d1, d2 = _new(module, "d1"), _new(module, "d2")
    inherit_target_attributes(f, d1)
    inherit_target_attributes(f, d2)
    text = print_module(module)
    group = d1.suffix.strip()
    assert group == d2.suffix.strip() and group.startswith("#")  # one new group, shared
    line = next(ln for ln in text.splitlines() if ln.startswith(f"attributes {group} ="))
    assert "+avx,+fma" in line and "optnone" not in line and "noinline" not in line and "uwtable" not in line


def test_nothing_to_inherit() -> None:
    module = parse_module(SOURCE)
    g = module.get_function("g")
    assert g is not None and target_attributes(g) == ""
    d = _new(module, "d")
    inherit_target_attributes(g, d)
    assert d.suffix == ""
