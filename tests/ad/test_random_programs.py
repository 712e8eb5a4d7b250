"""Differential testing on random programs (tests/ad/random/generate.py).

Each seed is a C program of random functions; its ``main`` compares reverse mode, forward mode, batch
forward and batch reverse (width 2) with each other and with finite differences, and prints a line per
disagreement.  ``numbers`` programs are checked away from kinks against central differences, ``kinks``
programs exactly at kinks against one-sided differences (tests/ad/random/randprog/kinks.py says why that
is valid).  Integer arithmetic on float bits must be refused at compile time.  A few fixed seeds keep the
suite fast and reproducible; tests/ad/random/driver.py runs hundreds by hand to hunt for bugs.
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "random"))
from generate import MAY_REFUSE, program  # noqa: E402
from randprog import bits, harness, kinks  # noqa: E402
from randprog.grammar import Gen  # noqa: E402
from randprog.harness import Program  # noqa: E402
from randprog.runner import check_program, check_refusal  # noqa: E402

FUNCTIONS = 12
PROGRAMS = [("numbers", 101), ("numbers", 202), ("kinks", 303), ("kinks", 404)]
# fast_rsqrt in a helper on bits, low bits cleared on a value, mantissa in a loop, next_down in a helper on a
# double, the low bit flipped and the exponent bumped on x[] memory.
REFUSALS = [1, 2, 13, 16, 26, 28]


def regenerate(mode: str, seed: int) -> str:
    return f"(regenerate: python tests/ad/random/generate.py {seed} {FUNCTIONS} {mode})"


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize(("mode", "seed"), PROGRAMS)
def test_random_program(mode: str, seed: int, opt_level: int) -> None:
    result = check_program(seed, FUNCTIONS, mode, opt_level, program)
    problems = [result.error] if result.error else []
    for fn in result.functions:
        allowed = MAY_REFUSE.get(fn.kind.removeprefix("agree:"))
        if fn.outcome == "refused" and allowed and re.search(allowed, fn.message):
            continue  # a documented conservative refusal (see MAY_REFUSE)
        if fn.outcome != "checked":
            problems.append(f"{fn.name} ({fn.kind}) {fn.outcome}: {fn.message}")
        elif fn.checks == 0:
            problems.append(f"{fn.name} ({fn.kind}) was never checked")
        problems += [f"{m} [{fn.kind}]" for m in fn.mismatches]
    assert not problems, f"{mode} seed {seed} at -O{opt_level} {regenerate(mode, seed)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("mode", ["reverse", "forward"])
@pytest.mark.parametrize("seed", REFUSALS)
def test_integer_code_on_float_bits_is_refused(seed: int, mode: str, opt_level: int) -> None:
    """u += 1, u >> 1, low-bit masks on active float bits: a one-line DifferentiationError citing the
    source line, never a number."""
    r = check_refusal(seed, mode, opt_level)
    assert r.outcome == "refused", f"{r.trick} ({mode}, -O{opt_level}): {r.outcome}: {r.message}"


def test_kink_functions_are_smooth_around_their_kink() -> None:
    """The one-sided check is valid only if nothing but the one kink statement is non-smooth
    (randprog/kinks.py): the expression returned around it comes from the smooth grammar."""
    nonsmooth = re.compile(r"\b(fabs|fmax|fmin|hypot|cbrt|copysign|floor|signbit|bits_of)\b|[<>?]")
    for seed in range(300):
        body = kinks.kink(Gen(random.Random(seed)), 0)
        (returned,) = [line for line in body.splitlines() if line.strip().startswith("return ")]
        assert not nonsmooth.search(returned), f"seed {seed}: non-smooth code around the kink: {returned}"


def test_one_sided_check_catches_a_derivative_from_neither_side() -> None:
    """The kink check can fail: relu(x) - relu(-x) is x, but any one convention for the tie of fmax at 0 gives
    0 or 2 there (two kinks resolved on opposite sides: why generated kink functions have only one)."""
    body = "return fmax(x[0], 0.0) - fmax(-x[0], 0.0) + x[2];"
    source = "\n".join([*harness.HEADERS, bits.PRELUDE,
                        f"__attribute__((noinline)) double f0(const double *x, int n) {{ {body} }}",
                        harness.COMMON, harness.KINKS, harness.main(['KINK_CHECK("f0", f0, 1, 1e-12);']), ""])
    result = check_program(0, 1, "kinks", 0, lambda *_: Program(source, ("kink",)))
    (fn,) = result.functions
    assert fn.outcome == "checked" and fn.checks > 0
    assert any("neither one-sided derivative" in m and " x0 " in m for m in fn.mismatches), fn.mismatches
    assert not any(" x2 " in m for m in fn.mismatches), fn.mismatches

