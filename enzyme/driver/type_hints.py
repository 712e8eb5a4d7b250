"""Upstream Enzyme's type hints: ``__enzyme_double(&x)``, ``__enzyme_float(p)``, ``__enzyme_integer(p, n)`` and
``__enzyme_pointer(p)`` tell upstream's type analysis what a memory location holds, and
``__enzyme_ptr_size_hint(p, bytes, 0)`` its checkpointing how far the memory behind a pointer extends
(pyenzyme's checkpointed loops name their regions, and annotated loops are not checkpointed).  They have no run-time
effect, and nothing defines them: pyenzyme's own analysis needs no hint, so the calls are removed (from the
primal as well, which could not link with them).

>>> from enzyme.ir import parse_module
>>> m = parse_module('''
... declare void @__enzyme_double(ptr)
... define void @f(ptr %p) {
...   call void @__enzyme_double(ptr %p)
...   ret void
... }''')
>>> remove_type_hints(m)
1
>>> "call" in str(m.get_function("f"))
False
"""
from __future__ import annotations

import re

from ..ir import CallInst, Module

HINTS = ("__enzyme_double", "__enzyme_float", "__enzyme_integer", "__enzyme_pointer", "__enzyme_ptr_size_hint")


def _is_hint(name: str) -> bool:
    m = re.match(r"_Z(\d+)", name)  # C++: _Z15__enzyme_doublePv
    plain = name[m.end():m.end() + int(m.group(1))] if m else name
    return plain in HINTS


def remove_type_hints(module: Module) -> int:
    """Erase every call of a type hint; returns how many there were."""
    calls = [inst for f in module.functions for inst in f.instructions()
             if isinstance(inst, CallInst) and inst.called_function is not None
             and inst.called_function.is_declaration and _is_hint(inst.callee_name or "")]
    for call in calls:
        if not call.type.is_void and call.users:
            continue  # a hint whose result is used is not upstream's: leave it to the usual refusal
        call.erase()
    return len(calls)
