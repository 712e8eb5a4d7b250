"""Upstream Enzyme's ``__enzyme_iter(n, step)``: ``n`` plus ``step`` for every derivative taken.

A truncated series (``for (i = 0; i <= __enzyme_iter(12, 1); i++) ...``) keeps
its accuracy under differentiation when each derivative sums one more term.
The engine copies the call, an inactive integer call, into every derivative
function it generates; after each request the copies in the functions that
request generated get ``step`` added to ``n``, so a derivative of a
derivative has two steps added.  Once every request is replaced, each call
becomes its ``n``.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..errors import UsageError
from ..ir import CallInst, ConstantInt, Function, IntType, Module
from ..ir.builder import Builder, InsertPoint, const_int
from .replace import erase_call
from .requests import calls_named, where

NAME = "__enzyme_iter"


def _calls(functions: Iterable[Function]) -> list[CallInst]:
    return calls_named(functions, NAME)


def _checked(call: CallInst) -> None:
    if len(call.args) != 2 or not all(isinstance(a.type, IntType) and a.type == call.type for a in call.args):
        raise UsageError(f"{NAME} {where(call)}: takes two integers (count, step) and returns one of the same type")


def step_iterations(generated: Iterable[Function]) -> None:
    """In the derivative functions one request generated: ``n`` becomes ``n + step``."""
    for call in _calls(generated):
        _checked(call)
        n, step = call.args
        if isinstance(n, ConstantInt) and isinstance(step, ConstantInt):
            assert isinstance(n.type, IntType)
            call.set_operand(0, const_int(n.type, n.value + step.value))
        else:
            call.set_operand(0, Builder(InsertPoint.before_inst(call)).add(n, step))


def resolve_iterations(module: Module) -> None:
    """Every remaining call is its count: in the primal, none was added."""
    for call in _calls(module.functions):
        _checked(call)
        call.replace_all_uses_with(call.args[0])
        erase_call(call)
