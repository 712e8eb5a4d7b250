"""Registration globals for custom derivatives are read and validated (enzyme.ad.custom).

The numbers are checked by tests/ad/programs/custom_forward.c; here: what is
read from the globals, and wrong registrations refused with a message naming
the global and the expected signature.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.ad.custom import custom_rules
from enzyme.errors import DifferentiationError, UsageError
from enzyme.ir import parse_module
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

IR = """
declare double @foo(double, ptr, i32)
declare {double, double} @foo_fwd(double, double, ptr, ptr, i32)
declare double @foo_fwd_ok(double, double, ptr, ptr, i32)
declare {double, ptr} @foo_aug(double, ptr, ptr, i32)
declare double @foo_rev(double, ptr, ptr, i32, double, ptr)
declare void @bar(double, double, ptr)
declare ptr @bar_aug(double, double, ptr, ptr)
declare {double, double} @bar_rev(double, double, ptr, ptr, ptr)
declare void @log(ptr)
@__enzyme_register_derivative_foo = global [2 x ptr] [ptr @foo, ptr @foo_fwd_ok]
@__enzyme_register_gradient_foo = global [3 x ptr] [ptr @foo, ptr @foo_aug, ptr @foo_rev]
@__enzyme_register_gradient_bar = global [3 x ptr] [ptr @bar, ptr @bar_aug, ptr @bar_rev]
@__enzyme_inactivefn_log = global ptr @log
"""


def test_reads_all_three_kinds() -> None:
    m = parse_module(IR)
    rules = custom_rules(m)
    foo, bar, log = (m.get_function(n) for n in ("foo", "bar", "log"))
    assert rules.forward(foo) is m.get_function("foo_fwd_ok")
    assert rules.gradient(foo) == (m.get_function("foo_aug"), m.get_function("foo_rev"))
    assert rules.gradient(bar) == (m.get_function("bar_aug"), m.get_function("bar_rev"))
    assert rules.forward(bar) is None and rules.gradient(log) is None
    assert rules.is_inactive(log) and not rules.is_inactive(foo)


@pytest.mark.parametrize("line, pattern", [
    ("@__enzyme_register_derivative_x = global [2 x ptr] [ptr @foo, ptr @foo_fwd]",
     (r"@__enzyme_register_derivative_x: the forward derivative @foo_fwd has type .*, expected double "
      r"\(double, double, ptr, ptr, i32\)")),
    ("@__enzyme_register_derivative_x = global [1 x ptr] [ptr @foo]", r"expected an array of 2 function pointers"),
    ("@__enzyme_register_gradient_x = global [3 x ptr] [ptr @foo, ptr @foo_rev, ptr @foo_aug]",
     r"the augmented forward function @foo_rev has type .*, expected \{ ?double, ptr ?\} \(double, ptr, ptr, i32\)"),
    ("@__enzyme_register_gradient_x = global [3 x ptr] [ptr @bar, ptr @bar_aug, ptr @foo_rev]",
     r"the reverse function @foo_rev .*expected \{ ?double, double ?\} \(double, double, ptr, ptr, ptr\)"),
    ("@__enzyme_inactivefn_x = global i32 3", r"must hold a function pointer"),
])
def test_wrong_registration_is_refused(line: str, pattern: str) -> None:
    with pytest.raises(UsageError, match=pattern) as info:
        custom_rules(parse_module(IR.replace("@__enzyme_inactivefn_log", line + "\n@__enzyme_inactivefn_log")))
    assert "\n" not in str(info.value)


def test_wrongly_typed_registration_in_c(tmp_path: Path) -> None:
    src = tmp_path / "prog.c"
    src.write_text("""
double __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) double foo(double x) { return x * x; }
static double foo_fwd(double x) { return 2 * x; }   /* forgot the tangent argument */
void *__enzyme_register_derivative_foo[2] = {(void *)foo, (void *)foo_fwd};
double g(double x) { return __enzyme_fwddiff((void *)foo, x, 1.0); }
""")
    module = compile_sources([src], CompileOptions(opt_level=2))
    with pytest.raises(UsageError, match=r"@__enzyme_register_derivative_foo: the forward derivative @foo_fwd has "
                                          r"type double \(double\), expected double \(double, double\)"):
        transform_module(module, TransformOptions(postopt_level=0), name="prog.c")


def test_augmented_forward_without_result() -> None:
    """As upstream allows: foo_aug may return only a tape, or nothing (then foo_rev takes no tape)."""
    m = parse_module("""
declare double @f(double)
declare void @f_aug(double)
declare double @f_rev(double, double)
declare double @g(double)
declare ptr @g_aug(double)
declare double @g_rev(double, double, ptr)
@__enzyme_register_gradient_f = global [3 x ptr] [ptr @f, ptr @f_aug, ptr @f_rev]
@__enzyme_register_gradient_g = global [3 x ptr] [ptr @g, ptr @g_aug, ptr @g_rev]
""")
    rules = custom_rules(m)
    assert rules.gradient(m.get_function("f")) == (m.get_function("f_aug"), m.get_function("f_rev"))
    assert rules.gradient(m.get_function("g")) == (m.get_function("g_aug"), m.get_function("g_rev"))


def test_augmented_forward_without_result_of_a_writing_function(tmp_path: Path) -> None:
    """foo is called again for its result only when it changes no memory its caller sees."""
    src = tmp_path / "prog.c"
    src.write_text("""
double __enzyme_autodiff(void *, ...);
double calls;
__attribute__((noinline)) double foo(double x) { calls += 1; return x * x; }
void foo_aug(double x) {}
double foo_rev(double x, double dret) { return 2 * x * dret; }
void *__enzyme_register_gradient_foo[3] = {(void *)foo, (void *)foo_aug, (void *)foo_rev};
double g(double x) { return 3 * foo(x); }
double dg(double x) { return __enzyme_autodiff((void *)g, x); }
""")
    module = compile_sources([src], CompileOptions(opt_level=0))
    with pytest.raises(DifferentiationError, match=r"@foo_aug does not return @foo's result and @foo writes "
                                                   r"memory.*make @foo_aug return \{result, tape\}"):
        transform_module(module, TransformOptions(postopt_level=0), name="prog.c")
