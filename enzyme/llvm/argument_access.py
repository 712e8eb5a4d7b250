"""Which pointer arguments a function never writes through, by LLVM's own attribute inference.

The Python API refuses a read-only numpy array (``writeable=False``) for a
parameter the function may write; it accepts one only where LLVM proves the
function only reads through it.  The proof is LLVM's ``function-attrs``
inference (``readonly``/``readnone`` arguments, or a function that writes no
memory at all), run on a copy of the module after SROA and instcombine, so
unoptimized (-O0) code, where every argument first goes through a stack slot,
is analysed as well as optimized code.  ``readonly`` means the function (with
everything it calls) neither stores through the argument nor lets it escape.
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

from enzyme.llvm.targets import target_machine_for

_READ_ONLY_ARGUMENT = {"readonly", "readnone"}
_MEMORY = re.compile(r"\bmemory\(([^)]*)\)")


def read_only_arguments(mod: llvm.ModuleRef) -> dict[str, tuple[bool, ...]]:
    """Per function defined in ``mod``, per argument: True where the function provably never writes through it.

    ``mod`` itself is not changed.
    """
    copy = mod.clone()
    manager = llvm.create_new_module_pass_manager()
    manager.add_sroa_pass()
    manager.add_instruction_combine_pass()
    manager.add_post_order_function_attributes_pass()
    manager.run(copy, llvm.create_pass_builder(target_machine_for(copy, opt=0), llvm.create_pipeline_tuning_options(0)))
    result: dict[str, tuple[bool, ...]] = {}
    for function in copy.functions:
        if function.is_declaration:
            continue
        writes_nothing = _writes_no_memory(function)
        result[function.name] = tuple(
            writes_nothing or bool(_READ_ONLY_ARGUMENT & _attributes(argument)) for argument in function.arguments)
    return result


def _attributes(value: llvm.ValueRef) -> set[str]:
    return {word for attribute in value.attributes for word in attribute.decode().split()}


def _writes_no_memory(function: llvm.ValueRef) -> bool:
    """A ``memory(...)`` attribute without any write access: ``memory(none)``, ``memory(read)``, ..."""
    for attribute in function.attributes:
        match = _MEMORY.search(attribute.decode())
        if match is not None:
            return "write" not in match.group(1)
    return False
