"""Pass pipelines: preopt, optimize, strip_debug."""
from __future__ import annotations

import pytest

from enzyme import llvm
from enzyme.errors import UsageError


def body(mod, name: str) -> str:
    return str(mod.get_function(name))


def test_preopt_promotes_memory_and_keeps_loops_rolled(bitcode: dict[str, bytes]) -> None:
    mod = llvm.parse(bitcode["loop.c@O0"], name="loop.bc")
    before = body(mod, "dot")
    assert "optnone" not in before  # clang's -O0 marker was avoided by the toolchain
    assert "alloca" in before
    llvm.preopt(mod)
    llvm.verify(mod)
    after = body(mod, "dot")
    assert "alloca" not in after  # SROA/mem2reg ran
    assert "<2 x double>" not in after and "<4 x double>" not in after  # no vectorization
    assert after.count("fmul") == 1  # no unrolling
    assert "phi" in after
    # LCSSA: the loop's result leaves the loop through a phi in the exit block.
    assert ".lcssa" in after


def test_optimize_levels(bitcode: dict[str, bytes]) -> None:
    mod = llvm.parse(bitcode["loop.c@O0"])
    text = llvm.to_text(mod)
    llvm.optimize(mod, 0)
    assert llvm.to_text(mod) == text
    llvm.optimize(mod, 3)
    llvm.verify(mod)
    assert "alloca" not in body(mod, "dot")
    with pytest.raises(UsageError, match="optimization level must be 0, 1, 2 or 3, not 4"):
        llvm.optimize(mod, 4)


def test_strip_debug(bitcode: dict[str, bytes]) -> None:
    mod = llvm.parse(bitcode["loop.c@O0"])
    assert "!dbg" in llvm.to_text(mod) and "#dbg_declare" in llvm.to_text(mod)
    llvm.strip_debug(mod)
    llvm.verify(mod)
    text = llvm.to_text(mod)
    assert "!dbg" not in text and "#dbg_" not in text and "DICompileUnit" not in text
    assert mod.get_function("dot").name == "dot"
