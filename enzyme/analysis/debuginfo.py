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

from ..ir import Function, Instruction, Module, Value
from ..ir.printer import FunctionPrinter
from .metadata import metadata_table

__all__ = ["describe", "instruction_text", "source_location", "value_name"]

_printers: "weakref.WeakKeyDictionary[Function, tuple[int, FunctionPrinter]]" = weakref.WeakKeyDictionary()
_SPECIALIZED = re.compile(r"!(DI\w+)\((.*)\)\s*$", re.DOTALL)
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|([^,()\s]+))')


def _fields(module: Module, ref: str | None) -> tuple[str, dict[str, str]] | None:
    """Kind and fields of a specialized node (``!DILocation(line: 4, ...)``)."""
    if ref is None:
        return None
    body = metadata_table(module).text.get(ref)
    if body is None:
        return None
    m = _SPECIALIZED.match(body)
    if m is None:
        return None
    fields: dict[str, str] = {}
    for mm in _FIELD.finditer(m.group(2)):
        quoted, bare = mm.group(2), mm.group(3)
        fields[mm.group(1)] = quoted if quoted is not None else bare
    return m.group(1), fields


def source_location(inst: Instruction) -> str | None:
    """``file.c:12:5`` for an instruction with a ``!dbg`` location, else None."""
    f = inst.function
    module = f.module if f is not None else None
    if not isinstance(module, Module):
        return None
    loc = _fields(module, inst.get_metadata("dbg"))
    if loc is None or loc[0] != "DILocation":
        return None
    line, col = loc[1].get("line", "0"), loc[1].get("column", "0")
    filename = None
    scope = loc[1].get("scope")
    for _ in range(64):  # scopes nest: lexical blocks -> subprogram -> file
        node = _fields(module, scope)
        if node is None:
            break
        kind, fields = node
        if kind == "DIFile":
            filename = fields.get("filename")
            break
        fnode = _fields(module, fields.get("file"))
        if fnode is not None and fnode[0] == "DIFile":
            filename = fnode[1].get("filename")
            break
        scope = fields.get("scope")
    where = filename or "<unknown file>"
    if line in ("", "0"):  # line 0: compiler-made code with no line of its own
        return where
    return f"{where}:{line}" + (f":{col}" if col not in ("", "0") else "")


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
        body = inst.body(p)
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
