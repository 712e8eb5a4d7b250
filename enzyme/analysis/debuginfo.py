"""Where an instruction comes from, for error messages of the whole engine.

``source_location(inst)`` gives ``file.c:12:5`` from the ``!dbg`` attachment,
walking ``!DILocation`` -> scope (``!DILexicalBlock``/``!DISubprogram``) ->
``!DIFile`` in the module's metadata text; ``describe(inst)`` gives the text
every engine error uses::

    `%7 = load double, ptr %6` in @f at s.c:4:36
"""
from __future__ import annotations

import re
import weakref

from ..ir import Function, FunctionPrinter, Instruction, Value
from ..ir.debugloc import source_location

__all__ = ["describe", "instruction_text", "source_location", "value_name"]

_printers: "weakref.WeakKeyDictionary[Function, tuple[int, FunctionPrinter]]" = weakref.WeakKeyDictionary()


def _printer(f: Function) -> FunctionPrinter:
    # Slot numbers depend on the whole function; rebuild when its size changes.
    size = sum(len(b.instructions) for b in f.blocks) + len(f.blocks)
    cached = _printers.get(f)
    if cached is None or cached[0] != size:
        cached = (size, FunctionPrinter(f))
        _printers[f] = cached
    return cached[1]


def value_name(v: Value) -> str:
    """``%x``/``%7`` for locals (as the printer numbers them), ``@g`` for globals, else the constant."""
    f = getattr(v, "function", None)
    if f is None and isinstance(v, Instruction):
        f = v.function
    if isinstance(f, Function):
        try:
            return _printer(f).ref(v)
        except (KeyError, ValueError):
            pass
    text = getattr(v, "text", None)
    if callable(text):
        try:
            return str(text())
        except (TypeError, ValueError):
            pass
    return f"%{v.name}" if v.name else repr(v)


def instruction_text(inst: Instruction) -> str:
    """The instruction as it prints, without metadata attachments (``%7 = fmul double %5, %6``)."""
    f = inst.function
    if f is None:
        return inst.opcode
    p = _printer(f)
    try:
        body = re.sub(r"\s*\n\s*", " ", inst.body(p))  # invoke prints its destinations on a second line
    except (KeyError, ValueError):
        return inst.opcode
    if inst.type.is_void:
        return body
    return f"{p.ref(inst)} = {body}"


def describe(inst: Instruction) -> str:
    """```%7 = load double, ptr %6` in @f at s.c:4:36`` (location left out when unknown)."""
    f = inst.function
    where = f" in @{f.name}" if f is not None else ""
    loc = source_location(inst)
    return f"`{instruction_text(inst)}`{where}" + (f" at {loc}" if loc else "")
