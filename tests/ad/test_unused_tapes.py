"""Derivatives whose sweeps need no tape allocate none, and skip an augmented sweep that has no effect
(enzyme.driver.unused_tapes); tests/ad/programs/sweeps_without_tape.c checks their gradients at -O0..-O3."""
from __future__ import annotations

import re
from pathlib import Path

from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PROGRAMS = Path(__file__).parent / "programs"


def _functions(text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r"^define [^@]*@([\w.]+)\(.*?^}", text, re.M | re.S)}


def test_tapes_and_sweeps_dropped_only_where_unused() -> None:
    module = compile_sources([PROGRAMS / "sweeps_without_tape.c"], CompileOptions(opt_level=2))
    text = str(transform_module(module, TransformOptions(postopt_level=0), name="sweeps_without_tape.c"))
    functions = _functions(text)
    # energy: the primal is all loads, arithmetic and cos; nothing needs a tape.
    assert "augmented_energy" not in functions and "@augmented_energy" not in text
    assert "tape" not in functions["diffeenergy"]
    # counted: no tape, but its sweep stores into a global (the count): the call stays.
    assert "tape" not in functions["diffecounted"]
    assert "@augmented_counted(" in functions["diffecounted"]
    # softplus: exp(...) is cached on the tape.
    assert "call void @__pyenzyme_tape_reuse" in functions["diffesoftplus"]
    assert "@augmented_softplus(" in functions["diffesoftplus"]
