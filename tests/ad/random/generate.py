"""Random C programs for differential testing of the AD engine (tests/ad/test_random_programs.py).

``program(seed, count, mode)`` is C source with ``count`` random functions ``double f_i(const double *x, int n)``
and a ``main`` that checks each one in every mode: reverse, forward, batch forward and batch reverse (width 2).

- ``numbers`` mode evaluates away from kinks and compares with central differences.  Function kinds:
  libm expressions, loops carrying a value, stencils on a local array, branches followed by a data-dependent
  while loop, heap scratch memory, struct copies, tables of function pointers, recursion, linked lists
  (randprog/classic.py); floats handled as integer bits (randprog/bits.py); structs with padding holes
  copied every way C copies them (randprog/structs.py).
- ``kinks`` mode evaluates exactly at kinks (x[i] == x[j], signed zeros), where the modes must agree exactly and
  single-kink functions must have a one-sided derivative (the reasoning is in randprog/kinks.py).
- refusals (``randprog.bits.refusal_program``): integer arithmetic on active float bits, which must be refused
  at compile time.

The program prints ``MISMATCH`` lines and exits non-zero on a disagreement (format in randprog/harness.py).
Run by hand: ``python tests/ad/random/generate.py SEED COUNT [numbers|kinks] > p.c && enzyme-cc p.c -lm && ./a.out``;
at scale: tests/ad/random/driver.py.
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from randprog import bits, classic, harness, kinks, structs  # noqa: E402
from randprog.grammar import Gen  # noqa: E402
from randprog.harness import Program  # noqa: E402

Kind = Callable[[Gen, int], str]

# Kinds drawn in numbers mode; a kind listed twice is drawn twice as often.
NUMBER_KINDS: list[tuple[str, Kind]] = [*classic.KINDS.items(), *bits.KINDS.items(), *list(structs.KINDS.items()) * 3]
# TODO(annotations): functions annotated __attribute__((enzyme_inactive)) (and the other Enzyme annotations)
# are being implemented on another branch.  When they land, add a module of kinds here -- an inactive
# logging/counting helper called on active values, an inactive function returning a constant scale -- whose
# derivatives must ignore the annotated calls; they plug into NUMBER_KINDS like the others.
ANNOTATED_KINDS: list[tuple[str, Kind]] = []
# In kinks mode most functions have exactly one kink (checked for one-sided derivatives); the others are the
# general kinds, whose many kinks may tie at once (checked only for agreement between modes).
KINK_KINDS: list[tuple[str, Kind]] = [*kinks.KINDS.items()]
KINK_SHARE = 0.6
# Kinds whose refusal (with a message matching the pattern) is a known conservative limit, not a failure.
MAY_REFUSE = {**bits.MAY_REFUSE, **structs.MAY_REFUSE}
MODES = ("numbers", "kinks")


def program(seed: int, count: int, mode: str = "numbers", skip: frozenset[int] = frozenset()) -> Program:
    """``count`` random functions and a main checking them; functions in ``skip`` are defined but not checked
    (so a refused or crashing function can be set aside while the others still run)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    g = Gen(random.Random(seed))
    table = NUMBER_KINDS + ANNOTATED_KINDS
    functions: list[str] = []
    names: list[str] = []
    calls: list[str] = []
    for i in range(count):
        if mode == "kinks" and g.rng.random() < KINK_SHARE:
            name, make = g.choice(KINK_KINDS)
        else:
            name, make = g.choice(table)
            name = name if mode == "numbers" else f"agree:{name}"
        body = make(g, i)
        names.append(name)
        functions.append(f"__attribute__((noinline)) double f{i}(const double *x, int n) {{\n  {body}\n}}")
        if i in skip:
            continue
        if mode == "numbers":
            calls.append(f'CHECK("f{i}", f{i});')
        elif name == "kink":
            calls.append(f'KINK_CHECK("f{i}", f{i}, 1, 1e-12);')
        else:
            calls.append(f'KINK_CHECK("f{i}", f{i}, 0, 1e-9);')
    checks = harness.SMOOTH if mode == "numbers" else harness.KINKS
    source = "\n".join([*harness.HEADERS, bits.PRELUDE, *g.helpers, *functions, harness.COMMON, checks,
                        harness.main(calls), ""])
    return Program(source, tuple(names))


if __name__ == "__main__":
    mode = sys.argv[3] if len(sys.argv) > 3 else "numbers"
    sys.stdout.write(program(int(sys.argv[1]), int(sys.argv[2]), mode).source)
