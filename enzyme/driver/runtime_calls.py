"""Runtime calls differentiated through pyenzyme's bodies of them (enzyme/runtime_bodies).

While derivatives are made, each direct call of a runtime function that has a linked-in body
(``_FortranAAssign`` -> ``__pyenzyme_body__FortranAAssign``) calls the body instead, so the
analyses and the engine see its loads and stores like any user code.  Afterwards every remaining
call of a body, primal code and derivative code alike, calls the runtime again: the body does
what the runtime does, and the program keeps the runtime's own implementation.
"""
from __future__ import annotations

from ..ir import CallInst, Function, Module
from ..rules.runtime_bodies import body_name


def install_runtime_bodies(module: Module) -> dict[Function, Function]:
    """Redirect direct calls of runtime functions to their bodies; returns body -> runtime function."""
    swapped: dict[Function, Function] = {}
    for fn in list(module.functions):
        stand_in = body_name(fn.name or "") if fn.is_declaration else None
        body = module.get_function(stand_in) if stand_in is not None else None
        if body is None or body.is_declaration or body.function_type != fn.function_type:
            continue
        swapped[body] = fn
        for use in list(fn.uses):
            user = use.user
            if isinstance(user, CallInst) and use.index == user.n_args + sum(n for _, n in user.bundles):
                user.set_operand(use.index, body)
    return swapped


def restore_runtime_calls(swapped: dict[Function, Function]) -> None:
    """Call the runtime functions again wherever their bodies are called."""
    for body, runtime in swapped.items():
        for use in list(body.uses):
            user = use.user
            if isinstance(user, CallInst) and use.index == user.n_args + sum(n for _, n in user.bundles):
                user.set_operand(use.index, runtime)
