"""Activity analysis prunes derivative code for computations that cannot reach an active output.

tests/ad/programs/dead_end_activity.c computes, from its active inputs, a
distance used only for a threshold, an integer bin, a printf and a local log
array (``energy``), and a ratio used only for a running maximum that is
printed (``square_all``).  Their derivatives (``fdiv`` from sqrt, log and the
quotient) used to be emitted; now neither sweep nor the forward derivative
has them, while the primal still computes them.  test_programs.py checks the
program's numbers (analytic, central differences, forward against reverse)
at -O0..-O3.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from enzyme.pipeline import CompileOptions, TransformOptions, _through_enzyme_ir, compile_sources, transform_module

PROGRAM = Path(__file__).parent / "programs" / "dead_end_activity.c"


def generated(opt_level: int) -> str:
    """pyenzyme's output for the program, before post-optimization."""
    captured: list[str] = []

    def capture(text: str) -> str:
        captured.append(_through_enzyme_ir(text))
        return captured[-1]

    module = compile_sources([PROGRAM], CompileOptions(opt_level=opt_level, include_dirs=(PROGRAM.parent,)))
    transform_module(module, TransformOptions(postopt_level=0, transform=capture), name=PROGRAM.name)
    return captured[0]


def function(text: str, name: str) -> str:
    m = re.search(rf"^define [^\n]*@{re.escape(name)}\(.*?^}}", text, re.MULTILINE | re.DOTALL)
    assert m is not None, f"@{name} not generated"
    return m.group(0)


def dead_end_ops(body: str, names: tuple[str, ...]) -> int:
    """How many divisions and calls of ``names`` (libm or intrinsic spelling) ``body`` holds."""
    calls = sum(len(re.findall(rf"call double @(?:llvm\.)?{n}(?:\.f64)?\(", body)) for n in names)
    return calls + body.count(" fdiv ")


@pytest.mark.parametrize("opt_level", [0, 2])
def test_dead_end_computations_get_no_derivative_code(opt_level: int) -> None:
    text = generated(opt_level)
    for fn, dead in (("energy", ("sqrt", "log")), ("square_all", ("exp",))):
        primal = dead_end_ops(function(text, fn), dead)
        assert primal > 0 and dead_end_ops(function(text, f"augmented_{fn}"), dead) == primal
        reverse = function(text, f"reverse_{fn}")
        assert dead_end_ops(reverse, dead) == 0, f"@reverse_{fn} differentiates a dead-end computation:\n{reverse}"
        forward = function(text, f"fwddiffe_{fn}")  # the primal's operations, and no tangent of them
        assert dead_end_ops(forward, dead) == primal, f"@fwddiffe_{fn} differentiates a dead-end computation"
    # What does reach the result is still differentiated: d sin = cos, d cos = -sin.
    assert re.search(r"@(llvm\.)?cos(\.f64)?\(", function(text, "reverse_energy"))
    assert re.search(r"@(llvm\.)?sin(\.f64)?\(", function(text, "reverse_square_all"))


def test_print_activity_shows_what_the_engine_prunes(tmp_path: Path, run_enzyme) -> None:
    """``enzyme opt --print-activity`` prints the engine's own ActivityResult (enzyme.ad.activity_plan.activity_of):
    the dead-end calls are constant values there, the ones reaching the result active."""
    from enzyme import llvm

    module = compile_sources([PROGRAM], CompileOptions(opt_level=2, include_dirs=(PROGRAM.parent,)))
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(module))
    out = run_enzyme("opt", bitcode, "--print-activity", "energy", "--activity", "dup,const,const",
                     "--ret-active").stdout
    line = re.compile(r"call double @(?:llvm\.)?(\w+)(?:\.f64)?\(.*: (\w+) value")
    calls = {m.group(1): m.group(2) for m in line.finditer(out)}
    assert calls["sqrt"] == calls["log"] == "constant" and calls["sin"] == "active", out


CONST_BUFFER_THROUGH_A_CALLEE = """
__attribute__((noinline)) static void fill(const double *x, double *buf) { buf[0] = x[0] * x[0]; }
double f(const double *x, double *buf) { fill(x, buf); return buf[0] * 3.0; }
double g(double *x, double *dx, double *buf) {
  return __ENTRY((void *)f, enzyme_dup, x, dx, enzyme_const, buf);
}
"""


@pytest.mark.parametrize("entry", ["__enzyme_autodiff", "__enzyme_fwddiff"])
@pytest.mark.parametrize("opt_level", [0, 2])
def test_active_data_into_const_memory_of_a_callee_stays_refused(tmp_path: Path, opt_level: int, entry: str) -> None:
    """@fill, differentiated with its buffer const, never reads it back, but its caller does: pruning must not
    hide the store, or the derivative through the buffer would silently be zero."""
    from test_refusals import refused
    refused(tmp_path, CONST_BUFFER_THROUGH_A_CALLEE.replace("__ENTRY", entry), opt_level,
            r"stor.* (memory|no shadow)")
