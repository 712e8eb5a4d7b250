"""The analyses classify callees from the rule tables the engine reads (enzyme.rules), not from copies."""
from __future__ import annotations

import pytest

from enzyme.analysis import known_functions as known
from enzyme.rules import MATH, MEMORY, MemoryKind, inactive_reason, lookup, lookup_memory

KINDS = {MemoryKind.COPY: "copy", MemoryKind.MOVE: "copy", MemoryKind.SET: "set", MemoryKind.ALLOC: "alloc",
         MemoryKind.CALLOC: "calloc", MemoryKind.REALLOC: "realloc", MemoryKind.FREE: "free"}


@pytest.mark.parametrize("name", sorted(MEMORY))
def test_every_memory_function_is_one_for_the_analyses(name):
    assert known.call_kind(name) == KINDS[MEMORY[name].kind]
    assert known.memory_function(name) is lookup_memory(name)


@pytest.mark.parametrize("name, kind", [
    ("bzero", "set"), ("bcopy", "copy"), ("mempcpy", "copy"), ("llvm.memmove.p0.p0.i64", "copy"),
    ("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc", "alloc"),
    ("_RNvCsfLfy6EI15iL_7___rustc19___rust_alloc_zeroed", "calloc"),
    ("_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc", "realloc"),
    ("_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc", "free"),
    ("printf", "inactive"), ("llvm.lifetime.start.p0", "inactive"),
    ("floor", "inactive"), ("llvm.lround.i64.f64", "inactive"),  # rules with derivative zero
    ("sin", "rule"), ("llvm.pow.f64", "rule"),
    ("llvm.launder.invariant.group.p0", "unknown"),  # returns its argument: the shadow must follow it
    ("my_solver", "unknown"), (None, "unknown"),
])
def test_call_kind(name, kind):
    assert known.call_kind(name) == kind


def test_zero_rules_and_inactive_functions_agree_with_the_rules_package():
    for name, rule in MATH.items():
        if lookup(name) is not rule:  # intrinsic-only names (powi, fmuladd): no libm function of that name
            continue
        expected = "inactive" if rule.is_zero or inactive_reason(name) else "rule"
        assert known.call_kind(name) == expected, name
